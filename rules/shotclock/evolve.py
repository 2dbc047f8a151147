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
    recorded,
    roster,
)

from .events import ShotReached
from .sheets import Options, Sheet
from .state import Fighter, State


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = recorded(event.sheet, Sheet)
    return roster.put(
        state, Fighter(event.combatant, event.name, event.side, sheet, len(state.fighters))
    )


def _initiative(state: State, event: InitiativeSet) -> State:
    return roster.change(
        state,
        event.combatant,
        lambda f: replace(
            f, initiative=event.value, next_shot=event.value, moved=0, tiebreak=event.tiebreak
        ),
    )


def _shot(state: State, event: ShotReached) -> State:
    return replace(state, sequence=event.sequence, shot=event.shot)


def _spent(state: State, event: Spent) -> State:
    if event.resource == "metres":
        return roster.change(
            state, event.combatant, lambda f: replace(f, moved=f.moved + event.amount)
        )
    return roster.change(
        state, event.combatant, lambda f: replace(f, next_shot=max(0, f.next_shot - event.amount))
    )


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, wounds=f.wounds + event.amount))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, wounds=max(0, f.wounds - event.amount))
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: _initiative,
        ShotReached: _shot,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
    }
)
