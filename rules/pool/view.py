"""The view the table sees: the order of the round, injuries and conditions."""

from msgspec.structs import replace

from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Event,
    InitiativeRow,
    RefusedError,
    View,
    WoundRow,
    gm,
)

from .evolve import fold
from .rolls import penalty
from .state import Fighter, State

SEVERITY = {1: "Minor", 2: "Moderate", 3: "Threatening", 4: "Serious", 5: "Grave", 6: "Critical"}


def status_of(state: State, fighter: Fighter) -> str:
    if fighter.dead:
        return "dead"
    if fighter.incapacitated:
        return "incapacitated"
    parts = [
        "acting"
        if state.turn == fighter.id
        else "Action left"
        if state.has_action(fighter)
        else "Action used"
    ]
    holding = fighter.conditions.get("holding")
    if holding:
        parts.append(f"holding an attack until {holding['trigger']}")
    if fighter.exerted_round == state.round and state.round:
        parts.append("exerted this round")
    return "; ".join(parts)


def conditions_of(fighter: Fighter) -> list[str]:
    shown = []
    for name, detail in sorted(fighter.conditions.items()):
        if name == "evading":
            shown.append(f"evading ({detail['pool']} left)")
        elif name == "desperate":
            shown.append(f"next Action -{detail['dice']} dice")
        elif name == "holding":
            shown.append(f"holding until {detail['trigger']}")
        elif name == "kept":
            shown.append("kept dice: " + ", ".join(f"{k} {v}" for k, v in detail["dice"].items()))
        else:
            shown.append(name)
    return shown


def view(state: State) -> View:
    order = state.order()
    initiative = [
        InitiativeRow(
            f.id, f.name, i, f"Outcome {f.initiative}", state.turn == f.id, status_of(state, f)
        )
        for i, f in enumerate(order, start=1)
    ]
    wounds = [
        WoundRow(
            f.id,
            f.name,
            f.side,
            f"Body {f.body_left}/{f.body}",
            conditions_of(f),
            {
                "injuries": [f"{s} {SEVERITY.get(s, 'Critical')}" for s in f.injuries],
                "body": f.body_left,
                "penalty": -penalty(state, f),
                "action_left": state.has_action(f),
                "exerted": f.exerted_round == state.round and bool(state.round),
            },
            f.body_left,
            f.body,
            "Body",
        )
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    notes = [
        f"{f.name} holds an attack on {', '.join(f.conditions['holding']['command']['targets'])} "
        f"until {f.conditions['holding']['trigger']}"
        for f in order
        if f.has("holding")
    ]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    acting = [state.turn] if state.turn else []
    return View(state.round, phase, acting, initiative, wounds, [], notes, upcoming=upcoming(state))


def upcoming(state: State) -> list[str]:
    """Who the turn passes to after this one (004-1): those below in the order who still
    have their Action this round (not one who spent it on a reaction), then next round's."""
    if state.turn is None:
        return []
    everyone = state.order()
    start = next((i + 1 for i, f in enumerate(everyone) if f.id == state.turn), 0)
    later = replace(state, round=state.round + 1)
    this_round = [f.id for f in everyone[start:] if state.has_action(f)]
    return this_round + [f.id for f in everyone if later.has_action(f)]


def body_conditions(before: Fighter, after: Fighter) -> list[Event]:
    """004-M3: Body 0 incapacitates, below 0 kills; healed back above, they recover."""
    events: list[Event] = []
    for name, now, why in (
        ("dead", after.dead, "Body below 0"),
        ("incapacitated", after.incapacitated and not after.dead, "Body 0"),
    ):
        if now and not before.has(name):
            events.append(ConditionSet(after.id, name, why, {}, ["004-M3"]))
        elif before.has(name) and not now:
            events.append(ConditionCleared(after.id, name, f"Body {after.body_left}", ["004-M3"]))
    return events


def with_body(state: State, target: str, events: list[Event]) -> list[Event]:
    after = fold(state, events).fighters[target]
    return events + body_conditions(state.fighters[target], after)


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """An injury of Severity `amount`."""
    return with_body(state, target, gm.harmed(state, target, amount, reason))


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """`amount` points of Body given back (see `eased`)."""
    fighter = state.fighter(target)
    if not fighter.injuries:
        raise RefusedError(f"{fighter.name} has no injury to heal")
    given = min(amount, fighter.body - fighter.body_left)  # no more than Body lost
    return with_body(state, target, gm.healed(state, target, given, reason))


TRACKED = frozenset(("dead", "desperate", "evading", "holding", "incapacitated", "kept"))
