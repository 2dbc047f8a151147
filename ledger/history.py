"""Steps and the effective history: which steps count, what undo and redo would take.

Editor semantics: undo takes back the latest effective command step; redo restores
the most recently undone step; recording a new command step clears what can be redone.
"""

from collections.abc import Callable, Iterable

import msgspec

from fracas.ledger.errors import RefusedError
from fracas.ledger.values import SqlInt

COMMAND = "command"
UNDO = "undo"
REDO = "redo"
SUPERSEDE = "supersede"  # taken back for good: an adopted what-if replaced it; never redone


class StepRecord(msgspec.Struct, frozen=True):
    encounter: str
    step: SqlInt
    command_id: str
    control: str
    target: SqlInt | None
    first_version: SqlInt
    last_version: SqlInt
    author: str
    at: str


def _apply(record: StepRecord, undone: set[int], redo: list[int]) -> None:
    _apply_control(record.control, record.target, undone, redo)


def _apply_control(control: str, target: int | None, undone: set[int], redo: list[int]) -> None:
    if control == COMMAND:
        redo.clear()
    elif control == UNDO and target is not None:
        undone.add(target)
        redo.append(target)
    elif control == SUPERSEDE and target is not None:
        undone.add(target)
        redo.clear()
    elif control == REDO and target is not None:
        undone.discard(target)
        if redo and redo[-1] == target:
            redo.pop()


class History:
    """Every step record of an encounter, with what is undone and what redo would restore.

    A history resumed from a snapshot knows the undone set and the redo stack as they stood
    at the snapshot's step, and holds only the records from that step on: the table's next
    command, undo or redo needs no more. The earlier records are read the first time
    something asks for `steps`."""

    __slots__ = ("_count", "_earlier", "_records", "redo_stack", "undone")

    def __init__(
        self,
        steps: Iterable[StepRecord],
        undone: frozenset[int],
        redo_stack: tuple[int, ...],
        earlier: Callable[[], Iterable[StepRecord]] | None = None,
        count: int | None = None,
    ) -> None:
        # All the records, or only the tail when `earlier` reads the rest. The list may be
        # shared with the history this one grew from, and grow past `count` for a later
        # one: a history owns only its first `count` records, so a step is appended without
        # copying the ones before it.
        self._records = steps if isinstance(steps, list) else list(steps)
        self._count = len(self._records) if count is None else count
        self._earlier = earlier
        self.undone = undone
        self.redo_stack = redo_stack

    @classmethod
    def of(cls, steps: Iterable[StepRecord]) -> "History":
        records = list(steps)
        undone: set[int] = set()
        redo: list[int] = []
        for record in records:
            _apply(record, undone, redo)
        return cls(records, frozenset(undone), tuple(redo))

    @classmethod
    def resumed(
        cls,
        tail: Iterable[StepRecord],
        undone: Iterable[int],
        redo_stack: Iterable[int],
        earlier: Callable[[], Iterable[StepRecord]],
    ) -> "History":
        """The history from a checkpoint: `undone` and `redo_stack` as they stood once the
        first record of `tail` was recorded; `earlier` reads the records before it."""
        records = list(tail)
        undone_now, redo = set(undone), list(redo_stack)
        for record in records[1:]:
            _apply(record, undone_now, redo)
        return cls(records, frozenset(undone_now), tuple(redo), earlier)

    @classmethod
    def at_head(
        cls,
        controls: Iterable[StepRecord],
        head: StepRecord | None,
        earlier: Callable[[], Iterable[StepRecord]],
    ) -> "History":
        """The history from its undo, redo and supersede records and its last record alone:
        every other step is a command, which only empties the redo stack (steps are numbered
        without gaps, so a gap between two controls held commands). `earlier` reads the
        records before the last, when something asks for them."""
        if head is None:
            return cls([], frozenset(), ())
        undone: set[int] = set()
        redo: list[int] = []
        previous = 0
        for record in controls:
            if record.step > previous + 1:
                redo.clear()
            _apply(record, undone, redo)
            previous = record.step
        if head.step > previous:
            redo.clear()
        return cls([head], frozenset(undone), tuple(redo), earlier)

    def _held(self) -> list[StepRecord]:
        return self._records[: self._count]

    @property
    def steps(self) -> tuple[StepRecord, ...]:
        if self._earlier is not None:
            self._records = [*self._earlier(), *self._held()]
            self._count = len(self._records)
            self._earlier = None
        return tuple(self._held())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        return (self.steps, self.undone, self.redo_stack) == (
            other.steps,
            other.undone,
            other.redo_stack,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History(head_step={self.head_step}, undone={sorted(self.undone)})"

    def with_step(self, record: StepRecord) -> "History":
        """This history with one more step appended (no re-read of the store, no copy)."""
        undone, redo = set(self.undone), list(self.redo_stack)
        _apply(record, undone, redo)
        records = self._records
        if len(records) != self._count:  # grown already by another history: ours is a prefix
            records = self._held()
        records.append(record)
        return History(records, frozenset(undone), tuple(redo), self._earlier, len(records))

    def after(self, control: str, target: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(undone steps, redo stack) once a step of this control and target is recorded."""
        undone, redo = set(self.undone), list(self.redo_stack)
        _apply_control(control, target, undone, redo)
        return tuple(sorted(undone)), tuple(redo)

    def with_undone(self, undone: frozenset[int]) -> "History":
        """The same steps with another set undone and nothing to redo (a fold's question)."""
        return History(self._records, undone, (), self._earlier, self._count)

    def _last(self) -> StepRecord | None:
        if self._count:
            return self._records[self._count - 1]
        records = self.steps
        return records[-1] if records else None

    @property
    def head_version(self) -> int:
        last = self._last()
        return last.last_version if last else 0

    @property
    def head_step(self) -> int:
        last = self._last()
        return last.step if last else 0

    def is_effective(self, step: int) -> bool:
        return step not in self.undone

    def effective_command_steps(self) -> list[int]:
        return [r.step for r in self.steps if r.control == COMMAND and r.step not in self.undone]

    def undo_target(self) -> int:
        recent = self._latest_effective_in_tail()
        if recent is not None:
            return recent
        effective = self.effective_command_steps()
        if not effective:
            raise RefusedError("nothing to undo: this encounter has no steps yet")
        target = effective[-1]
        if target == effective[0] == self.steps[0].step:
            raise RefusedError(
                f"step {target} started the encounter and cannot be undone; "
                "start a new encounter instead"
            )
        return target

    def _latest_effective_in_tail(self) -> int | None:
        """The undo target, found from the latest record back, when it lies in the records
        at hand and is not the first step (which the full check refuses)."""
        for index in range(self._count - 1, -1, -1):
            record = self._records[index]
            if record.control == COMMAND and record.step not in self.undone:
                return record.step if record.step > 1 else None
        return None

    def redo_target(self) -> int:
        if not self.redo_stack:
            raise RefusedError("nothing to redo: no step has been undone since the last new step")
        return self.redo_stack[-1]

    def taken_back_by(self) -> dict[int, int]:
        """For every step not in effect now, the undo or supersede step that took it back."""
        return taken_back_by(self.steps)

    def upto(self, step: int) -> "History":
        """The history as it stood once `step` was recorded."""
        return History.of(r for r in self.steps if r.step <= step)

    def record(self, step: int) -> StepRecord:
        """The record of step `step` (steps are numbered without gaps from the first held)."""
        if self._count and self._records[0].step <= step:
            index = step - self._records[0].step
            if index < self._count and self._records[index].step == step:
                return self._records[index]
        for record in self.steps:
            if record.step == step:
                return record
        raise RefusedError(f"there is no step {step} in this encounter")


def taken_back_by(records: Iterable[StepRecord]) -> dict[int, int]:
    """For every step the records leave not in effect, the undo or supersede step that took
    it back (only the control records matter: a command takes nothing back)."""
    by: dict[int, int] = {}
    for record in records:
        if record.target is None:
            continue
        if record.control in (UNDO, SUPERSEDE):
            by[record.target] = record.step
        elif record.control == REDO:
            by.pop(record.target, None)
    return by
