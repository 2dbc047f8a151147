"""The encounter step by step as it was played: the state before and after every step.

A step is shown against the history as it stood when it was recorded, so a step that was
later undone still shows what it did, and the undo that took it back shows what changed.
"""

from collections.abc import Iterator
from typing import Any

import msgspec

from fracas.ledger import History, LogStore, StepRecord
from fracas.ledger.history import COMMAND, taken_back_by
from fracas.rules.encounter import Encounter, recorded_events
from fracas.rules.events import Event
from fracas.rules.ruleset import Ruleset, command_of


class Frame(msgspec.Struct, frozen=True):
    record: StepRecord
    events: list[Event]
    before: Any
    after: Any
    in_effect: bool  # is the step part of the fight now (not undone or superseded)
    taken_back_by: StepRecord | None  # the undo or supersede step that took it back

    @property
    def command(self) -> dict[str, Any] | None:
        return command_of(self.events)


def events_by_step(store: LogStore, encounter: str, ruleset: Ruleset) -> dict[int, list[Event]]:
    by_step: dict[int, list[Event]] = {}
    for step, event in recorded_events(store, encounter, ruleset):
        by_step.setdefault(step, []).append(event)
    return by_step


def fold_effective(
    ruleset: Ruleset, by_step: dict[int, list[Event]], history: History, below: int | None = None
) -> Any:
    """The state from the steps in effect in `history`, only those below step `below`."""
    state = ruleset.initial()
    for record in history.steps:
        if below is not None and record.step >= below:
            break
        if record.control == COMMAND and record.step not in history.undone:
            for event in by_step.get(record.step, []):
                state = ruleset.evolve(state, event)
    return state


def walk(store: LogStore, encounter: str, ruleset: Ruleset) -> Iterator[Frame]:
    """Every step in order, with the state before it and after it, as the table saw them."""
    with store.snapshot():  # the records and the events as one state of the log
        history = store.history(encounter)
        by_step = events_by_step(store, encounter, ruleset)
    taken_back = {step: history.record(by) for step, by in history.taken_back_by().items()}
    state = ruleset.initial()
    seen: list[StepRecord] = []
    for record in history.steps:
        seen.append(record)
        events = by_step.get(record.step, [])
        before = state
        if record.control == COMMAND:
            for event in events:
                state = ruleset.evolve(state, event)
        else:
            state = fold_effective(ruleset, by_step, History.of(seen))
        yield Frame(
            record,
            events,
            before,
            state,
            record.step not in history.undone,
            taken_back.get(record.step),
        )


def walk_between(encounter: Encounter, first: int, last: int) -> Iterator[Frame]:
    """Steps `first` to `last` of `walk`, the same frames, without folding the steps before
    them one by one: the state before `first` (and after an undo, a redo or a supersede)
    is folded from the nearest snapshot at or before it that folds the history as it stood
    then (see Encounter.fold). A timeline scrubbed to step 2,900 of 3,000 folds a few
    hundred events, not the whole fight."""
    store, ruleset, name = encounter.store, encounter.ruleset, encounter.id
    with store.snapshot():  # the records and the events as one state of the log
        controls = store.control_records(name)  # with the records walked: flat in the length
        records = store.step_records(name, max(1, first - 1), last + 1)
        by_number = {c.step: c for c in controls}
        taken_back = {step: by_number[by] for step, by in taken_back_by(controls).items()}
        undone = History.of(controls).undone  # a command undoes nothing
        seen = History.of([])
        if first > 1:
            before = [c for c in controls if c.step < first]
            seen = History.at_head(
                before, records[0], lambda: store.step_records(name, 1, first - 1)
            )
            records = records[1:]
        held = encounter.folded_around(records[0]) if records else None
        if held is not None:  # the step this process just appended: its states in hand
            state = held[0]
        elif first > 1:
            state = encounter.fold(seen, up_to_step=first - 1)
        else:
            state = ruleset.initial()
        by_step: dict[int, list[Event]] = {}
        for step, event in recorded_events(store, name, ruleset, last, first):
            by_step.setdefault(step, []).append(event)
    for record in records:
        seen = seen.with_step(record)
        events = by_step.get(record.step, [])
        before = state
        held = encounter.folded_around(record)
        if held is not None:
            state = held[1]
        elif record.control == COMMAND:
            for event in events:
                state = ruleset.evolve(state, event)
        else:
            state = encounter.fold(seen, up_to_step=record.step)
        yield Frame(
            record,
            events,
            before,
            state,
            record.step not in undone,
            taken_back.get(record.step),
        )
