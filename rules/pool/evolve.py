"""evolve: a pure, total fold of the events into the fight's state."""

from msgspec.structs import replace

from fracas.rules.api import (
    CombatantJoined,
    Damaged,
    EncounterStarted,
    Event,
    Healed,
    InitiativeSet,
    Spent,
    TurnAdvanced,
    recorded,
    roster,
)

from .sheets import Options, Sheet
from .state import Fighter, State


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = recorded(event.sheet, Sheet)
    return roster.put(
        state, Fighter(event.combatant, event.name, event.side, sheet, len(state.fighters))
    )


def _turn(state: State, event: TurnAdvanced) -> State:
    return replace(state, round=event.round, turn=event.actor)


def _spend(fighter: Fighter, event: Spent, round_: int) -> Fighter:
    """The round's Action, an exertion, a quick action's dice, or part of an evade."""
    if event.resource == "action":
        return replace(fighter, spent_round=round_)
    if event.resource == "exertion":
        return replace(fighter, exerted_round=round_)
    if event.resource == "dice":
        count = fighter.quick_count + 1 if fighter.quick_round == round_ else 1
        return replace(fighter, quick_round=round_, quick_count=count)
    if event.resource == "evade" and fighter.has("evading"):
        left = fighter.conditions["evading"]["pool"] - event.amount
        return roster.with_condition(fighter, "evading", {"pool": left})
    return fighter


def _spent(state: State, event: Spent) -> State:
    return roster.change(state, event.combatant, lambda f: _spend(f, event, state.round))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, injuries=(*f.injuries, event.amount))
    )


def _healed(state: State, event: Healed) -> State:
    return roster.change(state, event.target, lambda f: replace(f, injuries=eased(f, event.amount)))


def eased(fighter: Fighter, amount: int) -> tuple[int, ...]:
    """Healing by hand gives back a point of Body for each point healed (004-M3: Body lost is
    the worst Severity + one per other injury). Each point lowers the worst injury by 1, or
    every injury tied at the worst (lowering one of them would give back nothing); of
    Severity-1 injuries one is gone. An injury at 0 is gone."""
    injuries = list(fighter.injuries)
    for _ in range(amount):
        if not injuries:
            break
        worst = max(injuries)
        tied = [i for i, severity in enumerate(injuries) if severity == worst]
        for i in tied if worst > 1 else tied[:1]:
            injuries[i] -= 1
        injuries = [severity for severity in injuries if severity > 0]
    return tuple(injuries)


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: roster.initiative_set,
        TurnAdvanced: _turn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
    }
)
