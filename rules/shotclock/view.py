"""The view the table sees: the clock, wounds and conditions."""

from fracas.rules.api import Clock, InitiativeRow, View, WoundRow

from .state import Fighter, State


def status_of(state: State, fighter: Fighter) -> str:
    if fighter.out:
        return "dead" if fighter.has("dead") else "out"
    parts = []
    if state.shot > 0 and fighter.next_shot == state.shot:
        parts.append("acting")
    elif fighter.next_shot > 0:
        parts.append(f"next shot {fighter.next_shot}")
    else:
        parts.append("no shots left this sequence")
    if fighter.continuous:
        parts.append("continuous: " + ", ".join(fighter.continuous))
    carrying = fighter.conditions.get("carrying")
    if carrying:
        parts.append(f"carrying {carrying['what']} ({carrying['remaining']} shots)")
    return "; ".join(parts)


def conditions_of(fighter: Fighter) -> list[str]:
    shown = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "impaired":
            shown.append(f"impaired {detail['penalty']}")
        elif name == "carrying":
            shown.append(f"carrying {detail['what']} ({detail['remaining']} shots)")
        elif name.startswith("continuous:"):
            shown.append(f"continuous: {detail['what']}")
        else:
            shown.append(name)
    return shown


def view(state: State) -> View:
    order = sorted(
        state.fighters.values(), key=lambda f: (f.out, -f.next_shot, state.same_shot_key(f))
    )
    acting = [f.id for f in state.may_act()]
    initiative = [
        InitiativeRow(
            f.id,
            f.name,
            i,
            f"shot {f.next_shot}" if f.next_shot > 0 and not f.out else "-",
            f.id in acting,
            status_of(state, f),
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [
        WoundRow(
            f.id,
            f.name,
            f.side,
            "mook" if f.sheet.mook else f"WP {f.wounds}",
            conditions_of(f),
            {
                "wounds": f.wounds,
                "toughness": f.sheet.toughness,
                "initiative": f.initiative,
                "next_shot": f.next_shot,
                "moved": f.moved,
            },
            f.wounds,
            None,
            "wound points",
            "taken",
        )
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    notes = [
        f"{f.name}: continuous {what} (+1 shot to every other action)"
        for f in order
        for what in f.continuous
    ] + [
        f"{f.name}: {f.conditions['carrying']['what']} carries "
        f"{f.conditions['carrying']['remaining']} shots into the next sequence"
        for f in order
        if f.has("carrying")
    ]
    if not state.sequence:
        phase = "setup"
    elif not acting:
        phase = "over"
    else:
        phase = f"sequence {state.sequence}, shot {state.shot}"
    return View(
        state.sequence,
        phase,
        acting,
        initiative,
        wounds,
        [],
        notes,
        upcoming=upcoming(state, acting),
    )


def upcoming(state: State, acting: list[str]) -> list[str]:
    """Who acts after those acting now, counting the shots down (001-3, 001-4); the next
    sequence's order waits on its initiative rolls, so none of it is known yet."""
    if not acting:
        return []
    shots = sorted({f.next_shot for f in state.fighters.values() if f.next_shot > 0}, reverse=True)
    return [f.id for shot in shots for f in state.on_shot(shot) if f.id not in acting]


def clock(state: State) -> Clock:
    """Where durations expire: a round is a sequence (001-1); a turn is one action, on the
    shot the combatant acts on (001-3), and ends as their next shot moves on (001-5)."""
    shot = f"{state.sequence}:{state.shot}"
    return Clock(state.sequence, {f.id: shot for f in state.on_shot(state.shot)}, "sequence")


TRACKED = frozenset(("carrying", "dead", "impaired", "out"))
