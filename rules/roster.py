"""What every ruleset's state shares: combatants kept by id, each with named conditions.

A ruleset's State is a msgspec struct with `fighters: dict[str, Fighter]`, and its Fighter
has an `id` and `conditions: dict[str, dict]`. These keep each evolve short, total and alike.
"""

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

from fracas.ledger import NotFoundError
from fracas.ledger.errors import said
from fracas.rules import reactions
from fracas.rules.events import (
    ConditionCleared,
    ConditionExpired,
    ConditionSet,
    EncounterEnded,
    EncounterReopened,
    EncounterStarted,
    Event,
    InitiativeSet,
    Renamed,
)

S = TypeVar("S")
F = TypeVar("F")
Evolver = Callable[[Any, Any], Any]


def find(fighters: dict[str, F], who: str) -> F:
    """A combatant by id, or one clear line naming who is present."""
    fighter = fighters.get(who)
    if fighter is None:
        from fracas.rules.names import closest, some_of  # only when an id is wrong

        known = some_of(list(fighters)) or "nobody yet"
        guess = closest(who, fighters) if fighters else None
        hint = f"did you mean {guess}? " if guess else ""
        raise NotFoundError(f"no combatant {said(who)} in this encounter; {hint}present: {known}")
    return fighter


def put(state: S, fighter: Any) -> S:
    return replace(state, fighters={**state.fighters, fighter.id: fighter})  # type: ignore[attr-defined]


def change(state: S, who: str, edit: Callable[[Any], Any]) -> S:
    """The state with one combatant edited; an unknown id leaves it be (evolve is total)."""
    fighter = state.fighters.get(who)  # type: ignore[attr-defined]
    return state if fighter is None else put(state, edit(fighter))


def with_condition(fighter: F, name: str, detail: dict[str, Any] | None) -> F:
    conditions = {k: v for k, v in fighter.conditions.items() if k != name}  # type: ignore[attr-defined]
    if detail is not None:
        conditions[name] = dict(detail)
    return replace(fighter, conditions=conditions)  # type: ignore[type-var]


def _condition_set(state: S, event: ConditionSet) -> S:
    return change(state, event.target, lambda f: with_condition(f, event.condition, event.detail))


def _condition_cleared(state: S, event: ConditionCleared) -> S:
    return change(state, event.target, lambda f: with_condition(f, event.condition, None))


def initiative_set(state: S, event: InitiativeSet) -> S:
    """A combatant's initiative and seeded tie roll, for fighters that keep both."""
    return change(
        state,
        event.combatant,
        lambda f: replace(f, initiative=event.value, tiebreak=event.tiebreak),
    )


def _renamed(state: S, event: Renamed) -> S:
    return change(state, event.combatant, lambda f: replace(f, name=event.name))


def _ended(state: S, event: EncounterEnded) -> S:
    return replace(state, ended=True)  # type: ignore[type-var]


def _reopened(state: S, event: EncounterReopened) -> S:
    return replace(state, ended=False)  # type: ignore[type-var]


# Every ruleset's State keeps `ended: bool`, and its Fighter `name` and `conditions`.
CORE_EVOLVERS: dict[type, Evolver] = {
    ConditionSet: _condition_set,
    ConditionCleared: _condition_cleared,
    ConditionExpired: _condition_cleared,
    Renamed: _renamed,
    EncounterEnded: _ended,
    EncounterReopened: _reopened,
    **reactions.EVOLVERS,
}


def options_evolver(options_type: type) -> Evolver:
    """The GM's options, as the opening event recorded them, into the state."""

    def started(state: S, event: EncounterStarted) -> S:
        return replace(state, options=msgspec.convert(event.options, options_type))  # type: ignore[type-var]

    return started


def dispatch(evolvers: dict[type, Evolver]) -> Callable[[S, Event], S]:
    """An evolve from a table of evolvers: an event not in it (a roll, a note) changes nothing."""

    def evolve(state: S, event: Event) -> S:
        apply = evolvers.get(type(event))
        return apply(state, event) if apply else state

    return evolve


def fold(evolve: Callable[[S, Event], S], state: S, events: list[Event]) -> S:
    for event in events:
        state = evolve(state, event)
    return state
