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

from .sheets import Options, Sheet
from .state import Fighter, State


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


def _joined(state: State, event: CombatantJoined) -> State:
    sheet = recorded(event.sheet, Sheet)
    hp = sheet.hp or 0
    fighter = Fighter(
        event.combatant,
        event.name,
        event.side,
        sheet,
        len(state.fighters),
        hp,
        hp,
        tuple(sheet.holding),
        {},
        state.round,
    )
    return roster.put(state, fighter)


def _initiative(state: State, event: InitiativeSet) -> State:
    return roster.change(state, event.combatant, lambda f: replace(f, tiebreak=event.tiebreak))


def _turn(state: State, event: TurnAdvanced) -> State:
    fighter = state.fighters.get(event.actor) if event.actor else None
    dex = fighter.sheet.dex if fighter else None
    return replace(state, round=event.round, turn=event.actor, slot_dex=dex)


def _spent(state: State, event: Spent) -> State:
    if event.resource != "action":
        return state
    return roster.change(state, event.combatant, lambda f: replace(f, acted_round=state.round))


def _damaged(state: State, event: Damaged) -> State:
    return roster.change(state, event.target, lambda f: replace(f, hp=max(0, f.hp - event.amount)))


def _healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, hp=min(f.hp_max, f.hp + event.amount))
    )


def _equipment(state: State, event: EquipmentChanged) -> State:
    return roster.change(state, event.combatant, lambda f: replace(f, holding=tuple(event.holding)))


# Pure and total: an event this ruleset does not fold (a roll, a note) leaves the state.
evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: _joined,
        InitiativeSet: _initiative,
        TurnAdvanced: _turn,
        Spent: _spent,
        Damaged: _damaged,
        Healed: _healed,
        EquipmentChanged: _equipment,
    }
)
