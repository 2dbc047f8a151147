"""Steps and the effective history: which steps count, what undo and redo would take.

Editor semantics: undo takes back the latest effective command step; redo restores
the most recently undone step; recording a new command step clears what can be redone.
"""

from collections.abc import Iterable

import msgspec

from fracas.ledger.errors import RefusedError

COMMAND = "command"
UNDO = "undo"
REDO = "redo"
SUPERSEDE = "supersede"  # taken back for good: an adopted what-if replaced it; never redone


class StepRecord(msgspec.Struct, frozen=True):
    encounter: str
    step: int
    command_id: str
    control: str
    target: int | None
    first_version: int
    last_version: int
    author: str
    at: str


def _apply(record: StepRecord, undone: set[int], redo: list[int]) -> None:
    if record.control == COMMAND:
        redo.clear()
    elif record.control == UNDO and record.target is not None:
        undone.add(record.target)
        redo.append(record.target)
    elif record.control == SUPERSEDE and record.target is not None:
        undone.add(record.target)
        redo.clear()
    elif record.control == REDO and record.target is not None:
        undone.discard(record.target)
        if redo and redo[-1] == record.target:
            redo.pop()


class History(msgspec.Struct, frozen=True):
    steps: tuple[StepRecord, ...]
    undone: frozenset[int]
    redo_stack: tuple[int, ...]

    @classmethod
    def of(cls, steps: Iterable[StepRecord]) -> "History":
        records = tuple(steps)
        undone: set[int] = set()
        redo: list[int] = []
        for record in records:
            _apply(record, undone, redo)
        return cls(records, frozenset(undone), tuple(redo))

    def with_step(self, record: StepRecord) -> "History":
        """This history with one more step appended (no re-read of the store)."""
        undone, redo = set(self.undone), list(self.redo_stack)
        _apply(record, undone, redo)
        return History((*self.steps, record), frozenset(undone), tuple(redo))

    @property
    def head_version(self) -> int:
        return self.steps[-1].last_version if self.steps else 0

    @property
    def head_step(self) -> int:
        return self.steps[-1].step if self.steps else 0

    def is_effective(self, step: int) -> bool:
        return step not in self.undone

    def effective_command_steps(self) -> list[int]:
        return [r.step for r in self.steps if r.control == COMMAND and r.step not in self.undone]

    def undo_target(self) -> int:
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

    def redo_target(self) -> int:
        if not self.redo_stack:
            raise RefusedError("nothing to redo: no step has been undone since the last new step")
        return self.redo_stack[-1]

    def taken_back_by(self) -> dict[int, int]:
        """For every step not in effect now, the undo or supersede step that took it back."""
        by: dict[int, int] = {}
        for record in self.steps:
            if record.target is None:
                continue
            if record.control in (UNDO, SUPERSEDE):
                by[record.target] = record.step
            elif record.control == REDO:
                by.pop(record.target, None)
        return by

    def upto(self, step: int) -> "History":
        """The history as it stood once `step` was recorded."""
        return History.of(r for r in self.steps if r.step <= step)

    def record(self, step: int) -> StepRecord:
        for record in self.steps:
            if record.step == step:
                return record
        raise RefusedError(f"there is no step {step} in this encounter")
