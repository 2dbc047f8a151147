"""What every ruleset's state shares: combatants kept by id, each with named conditions.

A ruleset's State is a msgspec struct with `fighters: dict[str, Fighter]`, and its Fighter
has an `id` and `conditions: dict[str, dict]`. These keep each evolve short, total and alike.

Constants and types:

- `CORE_EVOLVERS`: the evolvers of the events every ruleset shares (conditions set, cleared
  and expired, renames, a member leaving the party, the end and reopening of a fight,
  reactions asked and answered);
  `dispatch` and `Ruleset` fold them for you;
- `Evolver`: one entry of an evolve's table, `(state, event) -> state`.
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
    MemberLeft,
    Renamed,
)

__all__ = [
    "CORE_EVOLVERS",
    "Evolver",
    "change",
    "dispatch",
    "find",
    "fold",
    "initiative_set",
    "options_evolver",
    "put",
    "with_condition",
    "with_core",
]

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
    """The state with `fighter` in it, a newcomer or in place of the one with its id."""
    return replace(state, fighters={**state.fighters, fighter.id: fighter})  # type: ignore[attr-defined]


def change(state: S, who: str, edit: Callable[[Any], Any]) -> S:
    """The state with one combatant edited; an unknown id leaves it be (evolve is total)."""
    fighter = state.fighters.get(who)  # type: ignore[attr-defined]
    return state if fighter is None else put(state, edit(fighter))


def with_condition(fighter: F, name: str, detail: dict[str, Any] | None) -> F:
    """The fighter with condition `name` set to `detail`, or cleared when `detail` is None."""
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


def _left(state: S, event: MemberLeft) -> S:
    fighters = {k: f for k, f in state.fighters.items() if k != event.target}  # type: ignore[attr-defined]
    return replace(state, fighters=fighters)  # type: ignore[type-var]


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
    MemberLeft: _left,
    EncounterEnded: _ended,
    EncounterReopened: _reopened,
    **reactions.EVOLVERS,
}


def options_evolver(options_type: type) -> Evolver:
    """The GM's options, as the opening event recorded them, into the state."""

    def started(state: S, event: EncounterStarted) -> S:
        return replace(state, options=msgspec.convert(event.options, options_type))  # type: ignore[type-var]

    return started


CORE = "__fracas_core__"  # marks an evolve that folds the core events already


def dispatch(evolvers: dict[type, Evolver]) -> Callable[[S, Event], S]:
    """An evolve from a table of evolvers, over CORE_EVOLVERS: an event the table names is
    the table's (an entry of a core event's kind takes its place), a core event it does not
    name is folded as in every ruleset, and any other (a roll, a note) changes nothing."""
    table = {**CORE_EVOLVERS, **evolvers}

    def evolve(state: S, event: Event) -> S:
        apply = table.get(type(event))
        return apply(state, event) if apply else state

    setattr(evolve, CORE, True)
    return evolve


def with_core(evolve: Callable[[S, Event], S]) -> Callable[[S, Event], S]:
    """`evolve` folding the core events too (what `Ruleset` does with the one it is given):
    one made by `dispatch`, or given here before, as it is; any other after the core
    evolver of the event's kind, so it sees the condition set or the fight ended."""
    if getattr(evolve, CORE, False):
        return evolve

    def evolve_with_core(state: S, event: Event) -> S:
        core = CORE_EVOLVERS.get(type(event))
        return evolve(core(state, event) if core else state, event)

    setattr(evolve_with_core, CORE, True)
    return evolve_with_core


def fold(evolve: Callable[[S, Event], S], state: S, events: list[Event]) -> S:
    """The state after `events`, folded one by one."""
    for event in events:
        state = evolve(state, event)
    return state


def __dir__() -> list[str]:
    return list(__all__)
