"""Checking a log: every hash link (the chains of fracas.ledger.chain, read in one snapshot),
every step record against the events it claims, and witnessed heads. A store's `verify`,
`check_steps`, `head_code` and `head_problem` are these; they load only when something
checks, not for every command.
"""

import re
from collections.abc import Callable, Iterable
from itertools import groupby
from typing import NamedTuple

import msgspec

from fracas.ledger import chain
from fracas.ledger.base import (
    _CONTROL_KINDS_SQL,
    CONTROL_KINDS,
    KIND_OF_CONTROL,
    SCHEMA,
    STEP_COLUMNS,
    STEP_FIELDS,
    LogStore,
)
from fracas.ledger.chain import StoredEvent, VerifyReport
from fracas.ledger.errors import BadInputError, IntegrityError, NotFoundError, RefusedError
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO, History, StepRecord


class HeadProblem(NamedTuple):
    """What became of a witnessed head: where (None when a code cannot place it) and
    why, in one line; (None, '') while the log still holds it."""

    position: int | None
    why: str


HEAD_CODE = re.compile(r"^([0-9]{1,18})-([0-9a-f]{6,64})(?:/([0-9]{1,18}))?\Z")  # SQLite-sized
_KIND_MATCHES = " ".join(f"WHEN '{c}' THEN e.kind = '{k}'" for c, k in KIND_OF_CONTROL.items())
# the events that lie in the range of their own step's record, with its author, its time and
# a kind its control allows (the step check's one query over every event)
MATCHED_EVENTS = (
    "SELECT count(*) FROM events e JOIN steps s ON s.encounter = e.encounter AND s.step = e.step "
    "WHERE e.version BETWEEN s.first_version AND s.last_version AND e.author = s.author "
    f"AND e.at = s.at AND CASE s.control WHEN '{COMMAND}' THEN e.kind NOT IN "
    f"({_CONTROL_KINDS_SQL}) {_KIND_MATCHES} ELSE 1 = 0 END"
)
RECORDS_WITH_CONTROLS = (
    f"SELECT {', '.join(f's.{c}' for c in STEP_FIELDS)}, CASE WHEN s.control <> '{COMMAND}' "
    "THEN (SELECT e.body FROM events e WHERE e.encounter = s.encounter "
    "AND e.version = s.first_version) END FROM steps s ORDER BY s.encounter, s.step"
)


# -- checking------------------------------------------------------------------


def verify(store: LogStore) -> VerifyReport:
    """Check every hash link of the log (see fracas.ledger.chain), all read in one
    snapshot while writers go on; name the first bad position."""
    with store.snapshot():
        return _verify(store)


def _verify(store: LogStore) -> VerifyReport:
    columns = store._columns
    current = store.schema >= SCHEMA
    older = store._stream(
        f"SELECT {columns} FROM events "
        + ("WHERE scope = 0 " if current else "")
        + "ORDER BY position"
    )
    by_encounter = store._stream(f"SELECT {columns} FROM events ORDER BY encounter, version")
    return chain.verify(
        (StoredEvent(*row) for row in older),
        (StoredEvent(*row) for row in by_encounter),
        store.registry() if current else None,
        store.free_after,
    )


def free_after(store: LogStore, after: int) -> int:
    """The first position after `after` that no event holds: where a deleted event
    stood (positions are handed out without holes, except where a server's sequence
    skipped one). Asked only once a gap was found."""
    row = store.conn.execute(
        "SELECT min(c.q) FROM (SELECT CAST(? AS BIGINT) AS q UNION ALL "
        "SELECT position + 1 FROM events WHERE position > ?) c "
        "WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.position = c.q)",
        (after + 1, after),
    ).fetchone()
    return int(row[0])


def require_intact(store: LogStore) -> None:
    report = store.verify()
    if not report.ok:
        raise IntegrityError(
            f"the log is broken at position {report.first_bad_position}: {report.reason}"
        )


def check_steps(store: LogStore) -> VerifyReport:
    """Every step record against the events it claims: versions contiguous from 1, each
    step's range holding exactly its events, undo/redo/supersede naming real steps as
    the editor would have, and nothing after the last step. The steps table is not
    chained, so nothing in it is taken on trust."""
    with store.snapshot():
        return _check_steps(store)


def _check_steps(store: LogStore) -> VerifyReport:
    """The events matched to their records in one query, the records walked as the
    editor would have recorded them; nothing held but a byte a step. At the first thing
    that does not hold, the exact check below names it."""
    checked = _steps_hold(store)
    if checked is not None:
        return VerifyReport(True, checked, "")
    return _check_steps_exactly(store)


def _steps_hold(store: LogStore) -> int | None:
    """How many events, if every record holds against its events (as `_step_problem`
    judges them: each event lies in the range of its own step's record, with its author,
    time and kind, the ranges cut 1..n without gaps); None otherwise."""
    counts = {
        name: (count, low, high)
        for name, count, low, high in store.conn.execute(
            "SELECT encounter, count(*), min(version), max(version) FROM events GROUP BY encounter"
        )
    }
    total = sum(count for count, _low, _high in counts.values())
    matched = store.conn.execute(MATCHED_EVENTS).fetchone()[0]
    if matched != total:
        return None
    walked = 0
    for name, rows in groupby(store._stream(RECORDS_WITH_CONTROLS), key=lambda r: r[0]):
        last = _records_hold(rows)
        count, low, high = counts.pop(name, (0, 0, 0))
        if last is None or not low == 1 == high - count + 1 or last != high:
            return None
        walked += count
    return total if not counts and walked == total else None


def _check_steps_exactly(store: LogStore) -> VerifyReport:
    events = store._stream(
        "SELECT encounter, version, step, kind, author, at, "
        f"CASE WHEN kind IN ({_CONTROL_KINDS_SQL}) THEN body END, position FROM events "
        "ORDER BY encounter, version"
    )
    records = store._stream(f"SELECT {STEP_COLUMNS} FROM steps ORDER BY encounter, step")
    by_encounter: dict[str, list[StepRecord]] = {}
    for name, rows in groupby(records, key=lambda row: row[0]):
        by_encounter[name] = []
        for row in rows:
            try:
                record = msgspec.convert(dict(zip(STEP_FIELDS, row, strict=True)), StepRecord)
            except msgspec.ValidationError as error:
                where = _record_position(store, name, row)
                return _bad(0, where, f"a step record of encounter {name}: {error}")
            by_encounter[name].append(record)
    checked = 0
    for name, rows in groupby(events, key=lambda row: row[0]):
        found = list(rows)
        problem = _step_problem(name, found, by_encounter.pop(name, []), store.free_after)
        if problem is not None:
            return _bad(checked, *problem)
        checked += len(found)
    for name, steps in by_encounter.items():
        return _bad(
            checked,
            store.free_after(0),
            f"encounter {name} has {len(steps)} step record(s) but no events (deleted)",
        )
    return VerifyReport(True, checked, "")


def _record_position(store: LogStore, encounter: str, row: tuple) -> int:
    """Where a step record that no longer reads as one is named: its step's first event
    (found by its first version, or else by its step number)."""
    for column, value in (("version", row[5]), ("step", row[1])):
        if isinstance(value, int):
            found = store.conn.execute(
                f"SELECT min(position) FROM events WHERE encounter = ? AND {column} = ?",
                (encounter, value),
            ).fetchone()
            if found and found[0] is not None:
                return int(found[0])
    return store.free_after(0)


# -- witnessed heads-----------------------------------------------------------


def head_code(store: LogStore, encounter: str, step: int | None = None) -> str:
    """A short code for the encounter as it stands after `step` (default: the latest):
    the step, the first hex digits of the hash of its last event, and how many
    encounters had started by then. Noted at the table, it lets `audit --head` prove
    the log still extends that point and still holds every encounter begun before it."""
    if step is None and store.schema >= SCHEMA:  # after every append: one query, not three
        latest = store.conn.execute(
            "SELECT s.step, e.hash, (SELECT count(*) FROM registry r WHERE (SELECT f.position "
            "FROM events f WHERE f.encounter = r.encounter AND f.version = 1) <= e.position) "
            "FROM (SELECT step, last_version FROM steps WHERE encounter = ? "
            "      ORDER BY step DESC LIMIT 1) s "
            "JOIN events e ON e.encounter = ? AND e.version = s.last_version",
            (encounter, encounter),
        ).fetchone()
        if latest is None:
            raise NotFoundError(f"encounter {encounter!r} has no step yet")
        return f"{latest[0]}-{latest[1][:12]}/{latest[2]}"
    if step is None:
        version, step = store.head(encounter)
    else:
        version = _last_version_of(store, encounter, step)
    row = store.conn.execute(
        "SELECT hash, position FROM events WHERE encounter = ? AND version = ?",
        (encounter, version),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"encounter {encounter!r} has no step yet")
    return f"{step}-{row[0][:12]}/{_started_by(store, row[1])}"


def _last_version_of(store: LogStore, encounter: str, step: int) -> int:
    """The version of a step's last event, read from its record alone."""
    row = store.conn.execute(
        "SELECT last_version FROM steps WHERE encounter = ? AND step = ?", (encounter, step)
    ).fetchone()
    if row is None:
        raise NotFoundError(f"encounter {encounter!r} has no step {step}")
    return int(row[0])


def _started_by(store: LogStore, position: int) -> int:
    """How many encounters had started (their first event written) by this position."""
    if store.schema < SCHEMA:
        return int(
            store.conn.execute(
                "SELECT count(*) FROM events WHERE version = 1 AND position <= ?", (position,)
            ).fetchone()[0]
        )
    row = store.conn.execute(  # each encounter's first event looked up, not every event
        "SELECT count(*) FROM registry r WHERE (SELECT e.position FROM events e "
        "WHERE e.encounter = r.encounter AND e.version = 1) <= ?",
        (position,),
    ).fetchone()
    return int(row[0])


def check_head(store: LogStore, encounter: str, code: str) -> str:
    """'' if this log still holds the witnessed head `code` of the encounter; otherwise
    what happened to it, in one line."""
    return head_problem(store, encounter, code).why


def head_problem(store: LogStore, encounter: str, code: str) -> HeadProblem:
    """(position, why) if this log no longer holds the witnessed head `code`; (None, '')
    if it does. A cut is named by the position its first event held; a rewrite under
    recomputed hashes cannot be placed by a code, only by an export (None)."""
    match = HEAD_CODE.match(code.strip().lower())
    if match is None:
        raise BadInputError(
            f"{code!r} is not a head code: it looks like 14-3fa9c0b1d2e4/2 (step, hash, "
            "encounters begun)"
        )
    step, prefix = int(match.group(1)), match.group(2)
    started = len(store.encounters())
    if match.group(3) is not None and started < int(match.group(3)):
        return HeadProblem(
            store.free_after(0),
            f"{match.group(3)} encounters had begun when it was noted, the log holds "
            f"{started}: an encounter was deleted whole",
        )
    store.require(encounter)
    record = store.conn.execute(
        "SELECT last_version FROM steps WHERE encounter = ? AND step = ?", (encounter, step)
    ).fetchone()
    head_version, head_step = store.head(encounter)
    if record is None:
        last = store.conn.execute(
            "SELECT position FROM events WHERE encounter = ? AND version = ?",
            (encounter, head_version),
        ).fetchone()
        return HeadProblem(
            store.free_after(last[0] if last else 0),
            f"the log no longer reaches step {step} of encounter {encounter}: it ends at "
            f"step {head_step} (cut off, or not this log)",
        )
    row = store.conn.execute(
        "SELECT hash FROM events WHERE encounter = ? AND version = ?", (encounter, record[0])
    ).fetchone()
    if row is None or not row[0].startswith(prefix):
        return HeadProblem(
            None,
            f"step {step} of encounter {encounter} no longer ends in the witnessed hash "
            f"{prefix}: the log was rewritten at or before it",
        )
    return HeadProblem(None, "")


class _Editor:
    """What undo, redo and supersede may name as the step records stream past: the undone
    steps, the redo stack, and which steps are commands (a byte a step)."""

    def __init__(self) -> None:
        self.undone: set[int] = set()
        self.redo: list[int] = []
        self.commands = bytearray(1)  # commands[step] == 1: a command step

    def allows(self, control: str, target: object) -> bool:
        """Whether a step of this control naming `target` is what the editor allowed (as
        `_control_problem` judges it with a History)."""
        if control == UNDO:
            return target == self._undo_target()
        if control == REDO:
            return bool(self.redo) and target == self.redo[-1]
        return (
            type(target) is int
            and 0 < target < len(self.commands)
            and self.commands[target] == 1
            and target not in self.undone
        )

    def _undo_target(self) -> int:
        commands, undone = self.commands, self.undone
        for step in range(len(commands) - 1, 1, -1):  # the first step is never undone
            if commands[step] and step not in undone:
                return step
        return -1

    def add(self, record: StepRecord) -> None:
        undone, redo, target = self.undone, self.redo, record.target
        self.commands.append(record.control == COMMAND)
        if record.control == COMMAND:
            redo.clear()
        elif target is None:
            return
        elif record.control == UNDO:
            undone.add(target)
            redo.append(target)
        elif record.control == SUPERSEDE:
            undone.add(target)
            redo.clear()
        elif record.control == REDO:
            undone.discard(target)
            if redo and redo[-1] == target:
                redo.pop()


def _records_hold(rows: Iterable[tuple]) -> int | None:
    """The last version one encounter's records claim, if they follow on from each other
    as the editor would have recorded them; None otherwise. Rows: STEP_COLUMNS and the
    body of a control step's event."""
    editor, last = _Editor(), 0
    for step, row in enumerate(rows, start=1):
        try:
            record = msgspec.convert(row[:-1], _RecordRow)
        except msgspec.ValidationError:
            return None
        if record.step != step or record.first_version != last + 1:
            return None
        if record.last_version < record.first_version or not StepWatch.allowed(record, editor):
            return None
        if record.control != COMMAND and not _names_target(
            KIND_OF_CONTROL[record.control], row[-1], record
        ):
            return None
        editor.add(record)
        last = record.last_version
    return last


class _RecordRow(StepRecord, array_like=True, frozen=True):
    """A step record as a row of STEP_COLUMNS, its types checked as the exact check does."""


RECORDS_AT_ONCE = 1000


class _Walk:
    """One encounter's step records, read a batch at a time, against its events."""

    __slots__ = ("batch", "command", "editor", "expect", "last", "record", "version")

    def __init__(self) -> None:
        self.editor = _Editor()
        self.record: StepRecord | None = None
        self.version = 0
        self.batch: list[StepRecord] = []
        # what each event of the current record must show, kept from the record once
        self.last = 0  # its last version
        self.expect: tuple[object, ...] = ()  # (step, author, at)
        self.command = False  # a command step (else an undo, redo or supersede)


class StepWatch:
    """Every step record against the events it claims, as the events stream past in
    position order (rows starting as EVENT_COLUMNS, the body at least for undo, redo and
    supersede events): each encounter's records are read a batch at a time beside them, so
    nothing is held but a byte per step. It vouches only for what `_step_problem` would
    pass; at the first doubt it is `doubtful`, and the exact check names the problem."""

    def __init__(self, store: LogStore) -> None:
        self.store = store
        self.walks: dict[str, _Walk] = {}
        self.records = 0
        self.count = 0
        self.doubtful = False

    def see(self, rows: Iterable[tuple]) -> None:
        if self.doubtful:
            return
        walks, count, controls = self.walks, 0, CONTROL_KINDS
        encounter, walk = None, _Walk()
        for row in rows:
            if row[1] != encounter:  # an encounter's rows run together: its walk found once
                encounter = row[1]
                walk = walks.get(encounter) or walks.setdefault(encounter, _Walk())
            version = row[2]
            if version != walk.version + 1:
                self.doubtful = True
                return
            walk.version = version
            if version > walk.last and self._next(encounter, walk) is None:
                return
            if (row[3], row[5], row[6]) != walk.expect:
                self.doubtful = True
                return
            control = row[4] in controls
            if control == walk.command or (
                control and not _names_target(row[4], row[8], walk.record)
            ):
                self.doubtful = True
                return
            count += 1
        self.count += count

    def _next(self, encounter: str, walk: _Walk) -> StepRecord | None:
        """The encounter's next record, if it is the one the editor expects next."""
        if not walk.batch:
            walk.batch = self._read(encounter, walk.record.step if walk.record else 0)
        previous, record = walk.record, walk.batch.pop() if walk.batch else None
        first = previous.last_version + 1 if previous else 1
        if (
            record is None
            or record.step != (previous.step + 1 if previous else 1)
            or record.first_version != first
            or record.last_version < record.first_version
            or not self.allowed(record, walk.editor)
        ):
            self.doubtful = True
            return None
        walk.editor.add(record)
        walk.record = record
        walk.last, walk.expect = record.last_version, (record.step, record.author, record.at)
        walk.command = record.control == COMMAND
        self.records += 1
        return record

    @staticmethod
    def allowed(record: StepRecord, editor: "_Editor") -> bool:
        if record.control == COMMAND:
            return record.target is None
        return (
            record.last_version == record.first_version
            and record.control in KIND_OF_CONTROL
            and editor.allows(record.control, record.target)
        )

    def _read(self, encounter: str, after: int) -> list[StepRecord]:
        rows = self.store.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? AND step > ? "
            f"ORDER BY step LIMIT {RECORDS_AT_ONCE}",
            (encounter, after),
        ).fetchall()
        try:
            return [msgspec.convert(row, _RecordRow) for row in reversed(rows)]
        except msgspec.ValidationError:
            return []

    def report(self) -> VerifyReport | None:
        """The verdict once every event has passed: None when the exact check must say."""
        if self.doubtful:
            return None
        for walk in self.walks.values():
            if walk.record is None or walk.version != walk.record.last_version:
                return None
        total = self.store.conn.execute("SELECT count(*) FROM steps").fetchone()[0]
        if total != self.records:  # records left over, or of an encounter with no events
            return None
        return VerifyReport(True, self.count, "")


def _names_target(kind: str, body_text: object, record: StepRecord) -> bool:
    if kind != KIND_OF_CONTROL[record.control]:
        return False
    try:
        body = msgspec.json.decode(body_text)  # type: ignore[arg-type]
    except (msgspec.DecodeError, TypeError):
        return False
    return isinstance(body, dict) and body.get("step") == record.target


def _bad(checked: int, position: int | None, reason: str) -> VerifyReport:
    return VerifyReport(False, checked, "", position, reason)


def _step_problem(
    encounter: str,
    events: list[tuple],
    records: list[StepRecord],
    free_after: Callable[[int], int],
) -> tuple[int | None, str] | None:
    """The first way one encounter's step records and events disagree, as (position, why).
    A step record that is wrong is named by its step's first event; an event a record
    claims that is gone, by the position it held (see chain.encounter_chain_problem)."""
    for expected, row in enumerate(events, start=1):
        if row[1] != expected:
            return row[7], f"encounter {encounter} jumps from version {expected - 1} to {row[1]}"
    if not records:
        return events[0][7], f"encounter {encounter} has events but no step records"
    history = History.of(())
    for number, record in enumerate(records, start=1):
        expected_first = history.head_version + 1
        if expected_first > len(events):
            missing = free_after(events[-1][7])  # where the first event it claims stood
            return missing, (
                f"step {number} of encounter {encounter} claims versions from "
                f"{record.first_version}; the events stop at {len(events)} (deleted)"
            )
        position = events[expected_first - 1][7]  # the step's first event
        if record.step < number and 0 < record.first_version <= len(events):
            position = events[record.first_version - 1][7]  # a record moved before its place
        if record.step != number:
            return position, f"step {number} of encounter {encounter} has no step record"
        if record.first_version != expected_first or record.last_version < record.first_version:
            return position, (
                f"step {number} of encounter {encounter} claims versions "
                f"{record.first_version}..{record.last_version}, but the next is {expected_first}"
            )
        if record.last_version > len(events):
            missing = free_after(events[-1][7])  # where its first missing event stood
            return missing, (
                f"step {number} of encounter {encounter} claims versions up to "
                f"{record.last_version}; the events stop at {len(events)}"
            )
        problem = _events_problem(record, events[record.first_version - 1 : record.last_version])
        if problem is None and record.last_version < len(events):
            after = events[record.last_version]
            if after[2] == record.step:
                problem = f"version {after[1]} is of this step too, past the end of its record"
        if problem is None:
            problem = _control_problem(record, history)
        if problem is not None:
            return position, f"step {number} of encounter {encounter}: {problem}"
        history = history.with_step(record)
    if history.head_version < len(events):
        extra = events[history.head_version]
        return extra[7], (
            f"encounter {encounter} has events after its last step record (version {extra[1]})"
        )
    return None


def _events_problem(record: StepRecord, events: list[tuple]) -> str | None:
    for row in events:
        if (row[2], row[4], row[5]) != (record.step, record.author, record.at):
            return f"version {row[1]} is not an event of this step"
    kinds = [row[3] for row in events]
    if record.control == COMMAND:
        if record.target is not None:
            return "a command step names a target"
        if any(kind in CONTROL_KINDS for kind in kinds):
            return "a command step holds an undo, redo or supersede event"
        return None
    if kinds != [KIND_OF_CONTROL.get(record.control)]:
        return f"its record says {record.control} but its events are {', '.join(kinds)}"
    try:
        body = msgspec.json.decode(events[0][6])
    except msgspec.DecodeError:
        return "its event does not decode"
    if not isinstance(body, dict) or body.get("step") != record.target:
        return f"its record targets step {record.target}, its event another"
    return None


def _control_problem(record: StepRecord, history: History) -> str | None:
    """An undo, redo or supersede must name what the editor would have named then."""
    if record.control == COMMAND:
        return None
    try:
        if record.control == UNDO:
            expected = history.undo_target()
        elif record.control == REDO:
            expected = history.redo_target()
        else:
            effective = history.effective_command_steps()
            expected = record.target if record.target in effective else -1
    except RefusedError:
        expected = -1
    if record.target != expected:
        return f"a {record.control} of step {record.target} is not what the editor allowed then"
    return None
