"""evolve: a pure, total fold of the events into the fight's state."""

from msgspec.structs import replace

from fracas.rules.api import (
    CombatantJoined,
    Damaged,
    Declared,
    EncounterStarted,
    Event,
    Healed,
    InitiativeSet,
    Spent,
    TurnAdvanced,
    recorded,
    roster,
)

from .events import PhaseStarted, Withdrawn
from .sheets import Options, Sheet
from .state import Fighter, State


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = recorded(event.sheet, Sheet)
    fighter = Fighter(
        event.combatant,
        event.name,
        event.side,
        sheet,
        len(state.fighters),
    )
    return roster.put(state, fighter)


def _turn(state: State, event: TurnAdvanced) -> State:
    if event.round != state.turn:
        return new_turn(state, event.round)
    return replace(state, current=event.actor)


TURN_CONDITIONS = ("forced", "feinted")


def new_turn(state: State, number: int) -> State:
    """A new turn clears declarations and what lasted only for the turn."""
    fighters = {
        who: replace(
            f,
            declared=(),
            resolved=0,
            initiative=0,
            tiebreak=0,
            conditions={k: v for k, v in f.conditions.items() if k not in TURN_CONDITIONS},
        )
        for who, f in state.fighters.items()
    }
    return replace(state, turn=number, fighters=fighters, phase="turn", order=(), current=None)


def _phase(state: State, event: PhaseStarted) -> State:
    return replace(state, phase=event.phase, order=tuple(event.order), current=None)


def _declared(state: State, event: Declared) -> State:
    return roster.change(
        state, event.actor, lambda f: replace(f, declared=(*f.declared, event.command))
    )


def _withdrawn(state: State, event: Withdrawn) -> State:
    return roster.change(state, event.actor, lambda f: replace(f, declared=()))


def _spent(state: State, event: Spent) -> State:
    return roster.change(state, event.combatant, lambda f: replace(f, resolved=f.resolved + 1))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, levels=f.levels + event.amount))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, levels=max(0, f.levels - event.amount))
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: roster.initiative_set,
        TurnAdvanced: _turn,
        PhaseStarted: _phase,
        Declared: _declared,
        Withdrawn: _withdrawn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
    }
)
