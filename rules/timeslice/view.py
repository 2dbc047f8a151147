"""The view the table sees: the order of initiative, Time Slices, wounds and conditions."""

from fracas.rules.api import InitiativeRow, View, WoundRow

from .events import clock_text
from .state import Fighter, State


def ts_status(state: State, fighter: Fighter) -> str:
    if fighter.has("dead"):
        return "dead"
    if fighter.has("unconscious"):
        return "unconscious"
    if not state.round:
        return ""
    if state.turn == fighter.id:
        return f"acting; {fighter.ts} TS"
    if state.turn_done(fighter):
        return f"{fighter.ts} TS saved"
    return f"{fighter.ts} TS; turn to come"


def conditions_of(state: State, fighter: Fighter) -> list[str]:
    shown: list[str] = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "dying":
            heart = ", heart wound: -2" if detail.get("heart") and not fighter.out else ""
            left = clock_text(detail["deadline"] - state.clock)
            shown.append(f"dying ({left} left{heart})")
        elif name in ("crippled", "amputated"):
            shown.append(f"{name} {', '.join(detail['limbs'])}")
        elif name == "aiming":
            shown.append(f"aiming {detail['weapon']} +{detail['bonus']}")
        else:
            shown.append(name)
    return shown


def wound_row(state: State, fighter: Fighter) -> WoundRow:
    left = state.seconds_left(fighter)
    return WoundRow(
        fighter.id,
        fighter.name,
        fighter.side,
        f"HP {fighter.hp}/{fighter.sheet.hp} DR {fighter.sheet.dr} "
        f"stagger {fighter.stagger}/{state.threshold(fighter)}",
        conditions_of(state, fighter),
        {
            "hp": fighter.hp,
            "hp_max": fighter.sheet.hp,
            "dr": fighter.sheet.dr,
            "ts": fighter.ts,
            "ts_max": state.ts_max(fighter),
            "saved_ts": fighter.ts if state.turn_done(fighter) else 0,
            "stagger": fighter.stagger,
            "stagger_threshold": state.threshold(fighter),
            "staggered": fighter.has("staggered"),
            "dying_seconds_left": left,
            "crippled": fighter.limbs("crippled"),
            "amputated": fighter.limbs("amputated"),
            "equipped": list(fighter.equipped),
        },
        fighter.hp,
        fighter.sheet.hp,
        "HP",
    )


def view(state: State) -> View:
    order = state.order()
    initiative = [
        InitiativeRow(
            f.id,
            f.name,
            i,
            f"init {f.initiative}",
            state.turn == f.id,
            ts_status(state, f),
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [wound_row(state, f) for f in sorted(state.fighters.values(), key=lambda f: f.joined)]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    notes = [f"game time {clock_text(state.clock)}"] if state.round else []
    acting = [state.turn] if state.turn else []
    return View(state.round, phase, acting, initiative, wounds, [], notes, upcoming=upcoming(state))


def upcoming(state: State) -> list[str]:
    """Who takes a turn after this one (002-1, 002-3): those below in the order still in
    the fight with TS to spend, then, the next round giving TS back, everyone in it."""
    if state.turn is None:
        return []
    order = state.order()
    ids = [f.id for f in order]
    start = ids.index(state.turn) + 1 if state.turn in ids else 0
    this_round = [f.id for f in order[start:] if not f.out and f.ts > 0]
    return this_round + [f.id for f in order if not f.out]


TRACKED = frozenset(
    ("aiming", "amputated", "crippled", "dead", "dying", "staggered", "unconscious")
)
