"""evolve: a pure, total fold of the events into the fight's state."""

from msgspec.structs import replace

from fracas.rules.api import (
    CombatantJoined,
    Damaged,
    EncounterStarted,
    EquipmentChanged,
    Event,
    Healed,
    InitiativeSet,
    Spent,
    TurnAdvanced,
    recorded,
    roster,
)

from .events import RoundStarted, StaggerChanged
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
        sheet.hp,
        tuple(sheet.equipped),
    )
    return roster.put(state, fighter)


def _round(state: State, event: RoundStarted) -> State:
    fighters = {who: replace(f, ts=event.ts.get(who, 0)) for who, f in state.fighters.items()}
    return replace(state, round=event.round, clock=event.clock, turn=None, fighters=fighters)


def _turn(state: State, event: TurnAdvanced) -> State:
    return replace(state, round=event.round, turn=event.actor)


def _spent(state: State, event: Spent) -> State:
    return roster.change(
        state, event.combatant, lambda f: replace(f, ts=max(0, f.ts - event.amount))
    )


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, hp=max(0, f.hp - event.amount)))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, hp=min(f.sheet.hp, f.hp + event.amount))
    )


def _stagger(state: State, event: StaggerChanged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, stagger=event.points))


def _equipment(state: State, event: EquipmentChanged) -> State:
    return roster.change(
        state, event.combatant, lambda f: replace(f, equipped=tuple(event.holding))
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: roster.initiative_set,
        RoundStarted: _round,
        TurnAdvanced: _turn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
        StaggerChanged: _stagger,
        EquipmentChanged: _equipment,
    }
)
