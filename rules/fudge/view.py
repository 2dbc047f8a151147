"""The view the table sees: the order of the turn, declarations, wounds and conditions."""

from typing import Any

from fracas.rules.api import Clock, Event, InitiativeRow, PinRow, RefusedError, View, WoundRow, gm

from .rolls import action_count
from .state import Fighter, State


def declaration_text(state: State, declared: dict[str, Any]) -> str:
    """'attack Bo with the pistol': the targets by their names, as the table reads them."""
    targets = [name_of(state, who) for who in declared.get("targets") or []]
    weapon = f" with the {declared['weapon']}" if declared.get("weapon") else ""
    return f"{declared['action']}{' ' + ', '.join(targets) if targets else ''}{weapon}"


def name_of(state: State, who: str) -> str:
    fighter = state.fighters.get(who)
    return fighter.name if fighter is not None else who


def status_of(state: State, fighter: Fighter) -> str:
    if state.wound(fighter).dead:
        return "dead"
    done = fighter.declared[: fighter.resolved]
    pending = fighter.declared[fighter.resolved :]
    parts = []
    if state.current == fighter.id:
        parts.append(f"{state.phase} now")
    if pending:
        parts.append("declared: " + "; ".join(declaration_text(state, d) for d in pending))
    if done:
        parts.append("resolved: " + "; ".join(declaration_text(state, d) for d in done))
    count = action_count(state, fighter)
    if count > 1:
        parts.append(f"{count} actions: -{count}")
    return " | ".join(p for p in parts if p)


def conditions_of(state: State, fighter: Fighter) -> list[str]:
    """The conditions as the table reads them, whoever they name by their name."""
    shown: list[str] = []
    for name, detail in sorted(fighter.conditions.items()):
        if name in ("held", "pinned", "garroted", "feinted"):
            shown.append(f"{name} by {name_of(state, detail['by'])}")
        elif name == "holding":
            shown.append(f"holding {name_of(state, detail['target'])}")
        elif name == "aiming":
            shown.append(f"aiming at {name_of(state, detail['target'])} +{detail['bonus']}")
        elif name == "shield":
            shown.append(f"shield: {detail['at']}")
        elif name != "forced":
            shown.append(name)
    return shown


def wound_row(state: State, fighter: Fighter) -> WoundRow:
    wound = state.wound(fighter)
    penalty = 0 if fighter.sheet.pain_tolerance else wound.penalty
    effects = [
        e
        for e, on in (("cannot walk", not wound.can_walk), ("no actions", not wound.can_act))
        if on
    ]
    health = f"{wound.name} ({fighter.levels})" + (f" {penalty:+d}" if penalty else "")
    conditions = effects + conditions_of(state, fighter)
    if wound.penalty and fighter.sheet.pain_tolerance:
        conditions.append("Pain Tolerance: no penalty")
    detail = {
        "levels": fighter.levels,
        "wound": wound.name,
        "penalty": penalty,
        "shield": fighter.shield_at,
    }
    dead_at = next((w.levels for w in state.options.wounds if w.dead), None)
    return WoundRow(
        fighter.id,
        fighter.name,
        fighter.side,
        health,
        conditions,
        detail,
        fighter.levels,
        dead_at,
        "wound levels",
        "taken",
    )


def pins(state: State) -> list[PinRow]:
    rows = []
    for fighter in state.fighters.values():
        for kind in ("held", "pinned"):
            if fighter.has(kind):
                rows.append(
                    PinRow(
                        fighter.conditions[kind]["by"],
                        fighter.id,
                        "holds" if kind == "held" else "pins",
                    )
                )
    return rows


def view(state: State) -> View:
    order = state.by_initiative()
    initiative = [
        InitiativeRow(
            f.id, f.name, i, f"init {f.initiative}", state.current == f.id, status_of(state, f)
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [wound_row(state, f) for f in sorted(state.fighters.values(), key=lambda f: f.joined)]
    phase = state.phase if state.phase == "setup" else f"turn {state.turn}: {state.phase}"
    if state.phase == "resolved":
        phase = f"turn {state.turn}: all resolved; turn {state.turn + 1} opens as the GM moves on"
    acting = [state.current] if state.current else []
    return View(
        state.turn, phase, acting, initiative, wounds, pins(state), [], upcoming=upcoming(state)
    )


def upcoming(state: State) -> list[str]:
    """Who declares or resolves after the one doing so now (003-29): declaring runs from
    the lowest initiative up, then the actions declared resolve from the highest down."""
    if state.current is None or state.current not in state.order:
        return []
    order = list(state.order)
    later = order[order.index(state.current) + 1 :]
    if state.phase == "resolving":
        return [w for w in later if pending(state, w)]
    undeclared = set(later) | {state.current}
    resolving = [
        f.id for f in state.by_initiative() if f.id in order and (f.declared or f.id in undeclared)
    ]
    return later + resolving


def pending(state: State, who: str) -> bool:
    fighter = state.fighters[who]
    return fighter.resolved < len(fighter.declared)


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """Wound levels taken back, `amount` of them."""
    fighter = state.fighter(target)
    if not fighter.levels:
        raise RefusedError(f"{fighter.name} is unhurt")
    return gm.healed(state, target, min(amount, fighter.levels), reason)


def clock(state: State) -> Clock:
    """Where durations expire: a round is a turn (003-29); a combatant's turn is the
    resolution of what they declared, not the declaration."""
    resolving = state.phase == "resolving" and state.current
    return Clock(state.turn, {state.current: str(state.turn)} if resolving else {}, "turn")


TRACKED = frozenset(
    ("aiming", "feinted", "forced", "garroted", "held", "holding", "pinned", "shield")
)
