"""What every ledger backend does the same way: steps, the chains, reading, checking.

A backend (SQLite in store.py, PostgreSQL in postgres.py) supplies a connection whose
`execute(sql, params)` takes `?` placeholders and returns a cursor (fetchone, fetchall,
iteration), its transactions, how it hands out positions, and its own schema. Everything
here is plain SQL both speak; bodies are JSON text stored and handed back untouched.
"""

import itertools
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, NamedTuple, Protocol

import msgspec

from fracas.ledger import chain
from fracas.ledger.chain import (
    COUNTED_CHAIN,
    GENESIS,
    RegistryEntry,
    StoredEvent,
    VerifyReport,
    registry_entry,
)
from fracas.ledger.errors import (
    BadInputError,
    ConflictError,
    IntegrityError,
    NotFoundError,
    RefusedError,
    said,
)
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO, History, StepRecord

UNDONE_KIND = "step.undone"
REDONE_KIND = "step.redone"
SUPERSEDED_KIND = "step.superseded"
CONTROL_KINDS = frozenset({UNDONE_KIND, REDONE_KIND, SUPERSEDED_KIND})
KIND_OF_CONTROL = {UNDO: UNDONE_KIND, REDO: REDONE_KIND, SUPERSEDE: SUPERSEDED_KIND}
_CONTROL_KINDS_SQL = ", ".join(f"'{kind}'" for kind in sorted(CONTROL_KINDS))

Projector = Callable[[Any], None]  # writes read models through the append's connection

EVENT_COLUMNS = (
    "position, encounter, version, step, kind, author, at, schema, body, prev_hash, hash, "
    "salt, scope"
)
NEW_EVENT_COLUMNS = EVENT_COLUMNS.removeprefix("position, ")
INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join('?' * 13)})"
INSERT_NEW_EVENT = f"INSERT INTO events ({NEW_EVENT_COLUMNS}) VALUES ({', '.join('?' * 12)})"
STEP_COLUMNS = (
    "encounter, step, command_id, control, target, first_version, last_version, author, at"
)
STEP_FIELDS = tuple(STEP_COLUMNS.split(", "))
INSERT_STEP = f"INSERT INTO steps ({STEP_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)"
SNAPSHOT_COLUMNS = "encounter, version, step, hash, key, undone, redo, body"
INSERT_SNAPSHOT = (
    f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING"
)
# A cache beside the log, never part of it: no chain, no trigger, dropped without loss.
SNAPSHOTS_TABLE = (
    "CREATE TABLE IF NOT EXISTS snapshots (encounter TEXT NOT NULL, version INTEGER NOT NULL, "
    "step INTEGER NOT NULL, hash TEXT NOT NULL, key TEXT NOT NULL, undone TEXT NOT NULL, "
    "redo TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (encounter, version))"
)
REGISTRY_COLUMNS = "seq, encounter, first_hash, prev_hash, hash"
INSERT_REGISTRY = f"INSERT INTO registry ({REGISTRY_COLUMNS}) VALUES (?,?,?,?,?)"
APPEND_ONLY_TABLES = ("events", "steps", "registry")
APPEND_ONLY_TRIGGERS = tuple(
    f"{table}_no_{verb}" for table in APPEND_ONLY_TABLES for verb in ("update", "delete")
)
HEAD_CODE = re.compile(r"^([0-9]{1,18})-([0-9a-f]{6,64})(?:/([0-9]{1,18}))?\Z")  # SQLite-sized
MAX_BODY = 1 << 20  # the hard ceiling on one event's body; encounters may set a lower one
SCHEMA = 3  # 3: a chain per encounter and the registry of encounters
# The events of the steps in effect, for SQL readers of the log (the read models create
# it with their views). As in History: a step is in effect unless the last undo, redo or
# supersede naming it is an undo or a supersede (a supersede is never redone).
EFFECTIVE_EVENTS = (
    "SELECT e.position, e.encounter, e.step, e.version, e.kind, e.author, e.at, e.body "
    "FROM events e JOIN steps s ON s.encounter = e.encounter AND s.step = e.step "
    f"WHERE s.control = '{COMMAND}' AND coalesce(("
    "SELECT c.control FROM steps c WHERE c.encounter = s.encounter AND c.target = s.step "
    f"ORDER BY c.step DESC LIMIT 1), '{REDO}') = '{REDO}'"
)


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its stable kind tag and its body as JSON text."""

    kind: str
    body: str
    schema: int = 1


class Append(msgspec.Struct, frozen=True):
    """One step asked for: what `append` was given."""

    encounter: str
    events: Sequence[NewEvent]
    expected_version: int
    command_id: str
    author: str
    control: str
    target: int | None
    project: Projector | None


class Snapshot(msgspec.Struct, frozen=True):
    """A folded state kept to start a fold from: a cache the log never depends on.

    It folds the encounter's events up to `version` (the last event of `step`, whose chain
    hash is `hash`) with the steps in `undone` skipped; `redo` is the redo stack then.
    `key` names what folded it (the ruleset's code and its state's shape); `body` is the
    state as the layer above encodes it. Whoever reads one checks all of that first."""

    encounter: str
    version: int
    step: int
    hash: str
    key: str
    undone: tuple[int, ...]
    redo: tuple[int, ...]
    body: str

    def row(self) -> tuple:
        encode = msgspec.json.encode
        return (
            self.encounter,
            self.version,
            self.step,
            self.hash,
            self.key,
            encode(self.undone).decode(),
            encode(self.redo).decode(),
            self.body,
        )

    @classmethod
    def of_row(cls, row: Sequence[Any]) -> "Snapshot":
        decode = msgspec.json.decode
        undone, redo = decode(row[5], type=tuple[int, ...]), decode(row[6], type=tuple[int, ...])
        return cls(row[0], row[1], row[2], row[3], row[4], undone, redo, row[7])


class AppendResult(msgspec.Struct, frozen=True):
    step: int
    first_version: int
    last_version: int
    duplicate: bool = False
    record: StepRecord | None = None


class Head(NamedTuple):
    """An encounter's last event as the log holds it: what its next step links to."""

    version: int
    step: int
    hash: str


class Situation(NamedTuple):
    """What an append reads before it writes, in one query."""

    original: AppendResult | None  # the step of its command id, if already recorded
    head: Head
    begun: int  # how many encounters the log has begun (the registry's last entry)


class Secrets(Protocol):
    """Where sealed secrets live, apart from the log: a key file, or a server's own schema."""

    path: str

    def seal(self, name: str, value: str) -> None: ...
    def unseal(self, name: str) -> str | None: ...
    def close(self) -> None: ...


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class LogStore:
    """One log of many encounters. Subclasses open `conn`, `keys` and `schema`."""

    dialect = ""
    path: str
    readonly: bool
    schema: int
    keys: Secrets
    conn: Any
    unique_violation: tuple[type[BaseException], ...] = ()

    def __init__(self) -> None:
        # (version, step, hash) of each encounter's last event as this store appended it:
        # the next append that expects that version skips reading the head (the unique
        # (encounter, version) refuses it if another writer got there first)
        self._tips: dict[str, Head] = {}
        self._written: Head | None = None

    # -- what a backend supplies ---------------------------------------------------------

    def close(self) -> None:
        raise NotImplementedError

    def _begin(self) -> None:
        raise NotImplementedError

    def _in_transaction(self) -> bool:
        raise NotImplementedError

    def _insert_step(self, rows: list[tuple], record: StepRecord) -> None:
        """Insert a step's new events (every column but the position, which the backend
        gives) and its record."""
        raise NotImplementedError

    def _lock_registry(self) -> None:
        """Only starting an encounter waits on another start; appends never do."""

    def _described(self, error: BaseException) -> Exception | None:
        """The backend's own error as fracas's one-line refusal, where it has one."""
        return None

    def _after_commit(self) -> None:
        """Housekeeping after a step reached the disk."""

    def _after_load(self) -> None:
        """Housekeeping after a whole log was loaded with its own positions."""

    def _not_in_steps(self, steps: Sequence[int]) -> tuple[str, object]:
        raise NotImplementedError

    def missing_triggers(self) -> list[str]:
        raise NotImplementedError

    def tables(self) -> set[str]:
        """The names of the tables and views of the log."""
        raise NotImplementedError

    def columns(self, table: str) -> set[str]:
        raise NotImplementedError

    def data_version(self) -> int | None:
        """A number that moves whenever another connection commits to the log; None where
        the backend has none (then read the heads)."""
        raise NotImplementedError

    @property
    def schema_version(self) -> int:
        return self.schema

    def __enter__(self) -> "LogStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions --------------------------------------------------------------------

    def _commit(self) -> None:
        self.conn.execute("COMMIT")

    def _rollback(self) -> None:
        if self._in_transaction():
            self.conn.execute("ROLLBACK")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Several steps as one transaction: all of them reach the disk, or none does."""
        self._begin()
        try:
            yield
            self._commit()
        except BaseException:
            self._rollback()
            raise
        self._after_commit()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that see one state of the log, however many queries they take (inside a
        transaction already open, that transaction's)."""
        if self._in_transaction():
            yield
            return
        self._begin_reading()
        try:
            yield
        finally:
            self._rollback()  # it wrote nothing

    def _begin_reading(self) -> None:
        self.conn.execute("BEGIN")  # SQLite (WAL): the snapshot is taken at the first read

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """A transaction no other maintainer of the log runs beside (creating or rebuilding
        read models); appends are not held up by it."""
        with self.batch():
            self._lock_log()
            yield

    def _lock_log(self) -> None:
        """SQLite's write transaction is already exclusive."""

    def _stream(self, sql: str, params: Sequence[object] = ()) -> Any:
        """Rows of a query that may be long, fetched as they are read (SQLite's cursors do)."""
        return self.conn.execute(sql, params)

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        """Plain SQL on the log's connection (`?` placeholders), for the read models."""
        return self.conn.execute(sql, params)

    # -- writing -------------------------------------------------------------------------

    def append(
        self,
        encounter: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        command_id: str,
        author: str = "gm",
        control: str = COMMAND,
        target: int | None = None,
        project: Projector | None = None,
    ) -> AppendResult:
        """Append one step atomically, with the encounter's chain and the projections.

        Retrying a command id already recorded returns the original step and writes nothing.
        """
        if not events:
            raise ValueError("a step needs at least one event")
        if self.readonly:
            raise RefusedError(f"{self.path} is open read-only here: nothing was written")
        for event in events:
            if len(event.body) > MAX_BODY:
                raise RefusedError(
                    f"an event of {len(event.body)} bytes is over fracas's ceiling of "
                    f"{MAX_BODY} bytes; nothing was written"
                )
        owned = not self._in_transaction()  # inside batch() the batch commits
        known = self._tips.pop(encounter, None)
        if not owned or (known is not None and known.version != expected_version):
            known = None
        self._written = None
        asked = Append(
            encounter, events, expected_version, command_id, author, control, target, project
        )
        try:
            result = self._append_step(owned, asked, known)
        except self.unique_violation as error:
            self._rollback()
            if owned and (retried := self._step_for_command(encounter, command_id)):
                return retried  # a twin of this command won the race: it is the result
            raise ConflictError(
                f"another writer appended to encounter {encounter} at the same time; "
                "nothing was written: look at the fight again and run the command again"
            ) from error
        except BaseException as error:
            self._rollback()
            described = self._described(error)
            if described is not None:
                raise described from None
            raise
        if owned and not result.duplicate:
            if self._written is not None:
                self._tips[encounter] = self._written
            self._after_commit()
        return result

    def _append_step(self, owned: bool, asked: Append, known: Head | None) -> AppendResult:
        """The transaction of one append: read the head (unless this store wrote it last),
        check, write, project, commit."""
        if owned:
            self._begin()
        if known is not None:
            original, head, begun = None, known, self._begun()
        else:
            original, head, begun = self._situation(asked.encounter, asked.command_id)
        if original is not None:
            if owned:
                self.conn.execute("ROLLBACK")
            return original
        self._expect(asked.encounter, asked.expected_version, head.version)
        result = self._write_step(asked, head, begun)
        if asked.project is not None:
            asked.project(self.conn)
        if owned:
            self._commit()
        return result

    @staticmethod
    def _expect(encounter: str, expected_version: int, head_version: int) -> None:
        if expected_version == 0 and head_version != 0:
            raise ConflictError(f"encounter {encounter!r} already exists; pick another id")
        if head_version != expected_version:
            raise ConflictError(
                f"encounter {encounter} moved on to version {head_version} while this "
                f"command expected {expected_version}; nothing was written: look at the fight "
                "again and run the command again"
            )

    def _situation(self, encounter: str, command_id: str) -> Situation:
        """In one query: the step of this command id if recorded, the encounter's head, and
        how many encounters the log has begun."""
        row = self.conn.execute(
            "SELECT s.step, s.first_version, s.last_version, h.last_version, h.step, t.hash, "
            "(SELECT max(seq) FROM registry) "
            "FROM (SELECT 1 AS one) AS x "
            "LEFT JOIN steps s ON s.encounter = ? AND s.command_id = ? "
            "LEFT JOIN (SELECT last_version, step FROM steps WHERE encounter = ? "
            "           ORDER BY step DESC LIMIT 1) AS h ON 1 = 1 "
            "LEFT JOIN events t ON t.encounter = ? AND t.version = h.last_version",
            (encounter, command_id, encounter, encounter),
        ).fetchone()
        original = AppendResult(row[0], row[1], row[2], duplicate=True) if row[0] else None
        head = Head(row[3] or 0, row[4] or 0, row[5] or GENESIS)
        return Situation(original, head, int(row[6] or 0))

    def _write_step(self, asked: Append, head: Head, begun: int) -> AppendResult:
        """The step's rows, chained onto `head`, each event naming `begun` (the encounters
        the log had begun before it) in its salt, and with this one if it begins now."""
        encounter, events, author = asked.encounter, asked.events, asked.author
        head_version, step, prev_hash = head.version, head.step + 1, head.hash
        at = now()
        rows = []
        salts = secrets.token_hex(16 * len(events))  # 16 random bytes per event, one draw
        begun += head_version == 0
        for offset, event in enumerate(events, start=1):
            row = (
                encounter,
                head_version + offset,
                step,
                event.kind,
                author,
                at,
                event.schema,
                event.body,
            )
            salt = chain.counted_salt(begun, salts[32 * offset - 32 : 32 * offset])
            digest = chain.chain_hash(prev_hash, row, salt)
            rows.append((*row, prev_hash, digest, salt, COUNTED_CHAIN))
            prev_hash = digest
        last_version = head_version + len(events)
        record = StepRecord(
            encounter, step, asked.command_id, asked.control, asked.target, head_version + 1,
            last_version, author, at,
        )  # fmt: skip
        self._insert_step(rows, record)
        self._written = Head(last_version, step, prev_hash)
        if head_version == 0:
            self._register(encounter, rows[0][9])
        return AppendResult(step, head_version + 1, last_version, record=record)

    def _begun(self) -> int:
        """How many encounters the file has begun (the registry's last entry)."""
        row = self.conn.execute("SELECT max(seq) FROM registry").fetchone()
        return int(row[0] or 0)

    def _register(self, encounter: str, first_hash: str) -> None:
        self._lock_registry()
        row = self.conn.execute(
            f"SELECT {REGISTRY_COLUMNS} FROM registry ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        previous = RegistryEntry(*row) if row else None
        entry = registry_entry(previous, encounter, first_hash)
        self.conn.execute(INSERT_REGISTRY, msgspec.structs.astuple(entry))

    def append_control(
        self,
        encounter: str,
        control: str,
        target: int,
        *,
        expected_version: int,
        command_id: str,
        author: str = "gm",
        project: Projector | None = None,
    ) -> AppendResult:
        """Append an undo, redo or supersede of `target` as its own step."""
        kind = KIND_OF_CONTROL[control]
        body = msgspec.json.encode({"kind": kind, "step": target}).decode()
        return self.append(
            encounter,
            [NewEvent(kind, body)],
            expected_version=expected_version,
            command_id=command_id,
            author=author,
            control=control,
            target=target,
            project=project,
        )

    def load(
        self,
        items: Iterable[StoredEvent | StepRecord],
        sealed: Iterable[tuple[str, str]] = (),
        project: Projector | None = None,
        *,
        taken: Callable[[], None] | None = None,
    ) -> VerifyReport:
        """Take in a whole log, byte for byte, into this empty one, in one transaction;
        refused (and nothing kept) unless every hash link holds and every step record
        matches its events. The registry is written from the events, in starting order.
        Events and step records stream through, in any mix: the chains are checked as they
        pass, and nothing is held but each encounter's tip. `taken` is called once every
        item is in (to refuse what the items alone cannot show); `sealed` is read then."""
        self._begin()
        try:
            if self.conn.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise RefusedError(
                    f"{self.path} already holds events: import into a new, empty file"
                )
            watch, firsts = chain.ChainWatch(), []
            astuple = msgspec.structs.astuple
            for batch in batches(items, LOAD_BATCH):
                rows = [astuple(item) for item in batch if isinstance(item, StoredEvent)]
                if len(rows) < len(batch):
                    records = [astuple(i) for i in batch if not isinstance(i, StoredEvent)]
                    self.conn.executemany(INSERT_STEP, records)
                watch.see(rows)
                firsts += [(row[1], row[10]) for row in rows if row[2] == 1]
                self.conn.executemany(INSERT_EVENT, rows)
            if taken is not None:
                taken()
            self.conn.executemany(
                INSERT_REGISTRY, [msgspec.structs.astuple(e) for e in chain.registry_of(firsts)]
            )
            self._after_load()
            report = watch.report(self.registry()) or self.verify()
            if report.ok:
                report = self.check_steps()
            if not report.ok:
                raise IntegrityError(
                    f"the log to load is damaged {where(report)}: {report.reason}; "
                    "nothing was imported"
                )
            if project is not None:
                project(self.conn)
            for name, value in sealed:
                self.keys.seal(name, value)
            self._commit()
        except BaseException:
            self._rollback()
            raise
        return report

    def seal(self, name: str, value: str) -> None:
        """Keep a secret (a dice seed) apart from the log, filed under `name` (its
        commitment); sealing a name twice keeps the first value."""
        self.keys.seal(name, value)

    def unseal(self, name: str) -> str | None:
        return self.keys.unseal(name)

    # -- reading -------------------------------------------------------------------------

    @property
    def _columns(self) -> str:
        return EVENT_COLUMNS

    def head(self, encounter: str) -> tuple[int, int]:
        """(version, step) of the latest step of the encounter; (0, 0) when empty."""
        row = self.conn.execute(
            "SELECT last_version, step FROM steps WHERE encounter = ? ORDER BY step DESC LIMIT 1",
            (encounter,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, 0)

    def heads(self, encounters: Sequence[str]) -> dict[str, int]:
        """The head version of each of these encounters, in one query."""
        if not encounters:
            return {}
        marks = ", ".join("?" for _ in encounters)
        cursor = self.conn.execute(
            f"SELECT encounter, max(last_version) FROM steps WHERE encounter IN ({marks}) "
            "GROUP BY encounter",
            tuple(encounters),
        )
        return dict(cursor.fetchall())

    def wrote_last(self, encounter: str, version: int) -> bool:
        """Did this store append `version` of the encounter, as its last? (Then it is the
        head unless another writer moved on, which the next append would find out.)"""
        known = self._tips.get(encounter)
        return known is not None and known.version == version

    def _step_for_command(self, encounter: str, command_id: str) -> AppendResult | None:
        row = self.conn.execute(
            "SELECT step, first_version, last_version FROM steps "
            "WHERE encounter = ? AND command_id = ?",
            (encounter, command_id),
        ).fetchone()
        return AppendResult(row[0], row[1], row[2], duplicate=True) if row else None

    def step_for_command(self, encounter: str, command_id: str) -> AppendResult | None:
        return self._step_for_command(encounter, command_id)

    def last_of_kinds(
        self, encounter: str, kinds: Sequence[str], after_version: int = 0
    ) -> str | None:
        """The body of the encounter's latest event of one of these kinds after
        `after_version`, if any."""
        marks = ", ".join("?" for _ in kinds)
        row = self.conn.execute(
            f"SELECT body FROM events WHERE encounter = ? AND version > ? AND kind IN ({marks}) "
            "ORDER BY version DESC LIMIT 1",
            (encounter, after_version, *kinds),
        ).fetchone()
        return row[0] if row else None

    def history(self, encounter: str) -> History:
        return History.of(self.step_records(encounter))

    def history_at_head(self, encounter: str) -> History:
        """The encounter's history, reading only its undo, redo and supersede records and
        its last one now: what a fold needs. The others are read when something asks."""
        cursor = self.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? AND (control <> ? OR "
            "step = (SELECT max(step) FROM steps WHERE encounter = ?)) ORDER BY step",
            (encounter, COMMAND, encounter),
        )
        records = [StepRecord(*row) for row in cursor]
        head = records[-1] if records else None
        controls = [record for record in records if record.control != COMMAND]
        step = head.step if head else 0
        return History.at_head(controls, head, lambda: self.step_records(encounter, 1, step))

    def control_records(self, encounter: str) -> list[StepRecord]:
        """The encounter's undo, redo and supersede records: few, however long the fight."""
        cursor = self.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? AND control <> ? ORDER BY step",
            (encounter, COMMAND),
        )
        return [StepRecord(*row) for row in cursor]

    def step_records(
        self, encounter: str, from_step: int = 1, before_step: int | None = None
    ) -> list[StepRecord]:
        """The encounter's step records from `from_step` on (and before `before_step`)."""
        last = (before_step if before_step is not None else 1 << 62) - 1
        cursor = self.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? AND step BETWEEN ? AND ? "
            "ORDER BY step",
            (encounter, from_step, last),
        )
        return [StepRecord(*row) for row in cursor]

    def history_from(self, snapshot: Snapshot) -> History:
        """The encounter's history resumed at a snapshot's step: only the records from that
        step on are read now, the earlier ones when something asks for them."""
        encounter, step = snapshot.encounter, snapshot.step
        return History.resumed(
            self.step_records(encounter, step),
            snapshot.undone,
            snapshot.redo,
            lambda: self.step_records(encounter, 1, step),
        )

    def first_event(self, encounter: str) -> tuple[int, str] | None:
        """(schema, body) of the encounter's first event."""
        row = self.conn.execute(
            "SELECT schema, body FROM events WHERE encounter = ? AND version = 1", (encounter,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def rows_with_versions(self, encounter: str) -> Iterator[tuple[int, int, str, int, str]]:
        """Stream (version, step, kind, schema, body) of an encounter in version order."""
        return self._stream(
            "SELECT version, step, kind, schema, body FROM events WHERE encounter = ? "
            "ORDER BY version",
            (encounter,),
        )

    def event_position(self, encounter: str, version: int) -> int | None:
        row = self.conn.execute(
            "SELECT position FROM events WHERE encounter = ? AND version = ?",
            (encounter, version),
        ).fetchone()
        return row[0] if row else None

    def hash_at(self, encounter: str, version: int) -> str | None:
        row = self.conn.execute(
            "SELECT hash FROM events WHERE encounter = ? AND version = ?", (encounter, version)
        ).fetchone()
        return row[0] if row else None

    # -- snapshots: a cache beside the log ------------------------------------------------

    def _snapshots_ready(self) -> bool:
        return True

    def snapshots_ready(self) -> bool:
        """Whether this log has the snapshots table (a read-only open of an older file may
        not)."""
        return self._snapshots_ready()

    def snapshots(
        self, encounter: str, *, at_most: int | None = None, limit: int | None = None
    ) -> list[Snapshot]:
        """The encounter's snapshots, newest first, up to version `at_most`."""
        if not self._snapshots_ready():
            return []
        sql = f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE encounter = ? AND version <= ? "
        sql += "ORDER BY version DESC"
        params: list[object] = [encounter, at_most if at_most is not None else 1 << 62]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [Snapshot.of_row(row) for row in self.conn.execute(sql, params).fetchall()]

    @staticmethod
    def write_snapshot(conn: Any, snapshot: Snapshot) -> None:
        """Keep a snapshot through an append's connection, inside its transaction."""
        conn.execute(INSERT_SNAPSHOT, snapshot.row())

    def forget_snapshot(self, encounter: str, version: int) -> bool:
        """Drop a snapshot found wrong, so that nothing starts from it again; False when
        this log is open read-only."""
        if self.readonly or not self._snapshots_ready():
            return False
        self._begin()
        try:
            self.conn.execute(
                "DELETE FROM snapshots WHERE encounter = ? AND version = ?", (encounter, version)
            )
            self._commit()
        except BaseException:
            self._rollback()
            raise
        return True

    def writing(self) -> Head:
        """(version, step, hash) of the last event of the step being appended now: for a
        projector, inside the append's transaction."""
        if self._written is None:
            raise RuntimeError("writing() is only known inside an append")
        return self._written

    def encounters(self) -> list[str]:
        """Every encounter, in the order they started."""
        if self.schema < SCHEMA:
            cursor = self.conn.execute(
                "SELECT s.encounter FROM steps s JOIN events e ON e.encounter = s.encounter "
                "AND e.version = 1 WHERE s.step = 1 ORDER BY e.position"
            )
        else:
            cursor = self.conn.execute("SELECT encounter FROM registry ORDER BY seq")
        return [row[0] for row in cursor]

    def exists(self, encounter: str) -> bool:
        return self.head(encounter) != (0, 0)

    def require(self, encounter: str) -> None:
        if not self.exists(encounter):
            raise NotFoundError(
                f"no encounter {said(encounter)} in {self.path}; `fracas encounters` lists them"
            )

    def bodies_of_kind(self, encounter: str, kind: str) -> Iterator[tuple[int, str]]:
        """Stream (schema, body) of an encounter's events of one kind, in version order."""
        return self.conn.execute(
            "SELECT schema, body FROM events WHERE encounter = ? AND kind = ? ORDER BY version",
            (encounter, kind),
        )

    def rows(
        self, encounter: str, *, up_to_step: int | None = None, from_step: int = 1
    ) -> Iterator[tuple]:
        """Stream (step, kind, schema, body) of an encounter in version order."""
        last = up_to_step if up_to_step is not None else 1 << 62
        return self.conn.execute(  # from the first step's first version: a range of the index
            "SELECT step, kind, schema, body FROM events WHERE encounter = ? "
            "AND version >= coalesce((SELECT first_version FROM steps WHERE encounter = ? "
            "AND step = ?), 0) AND step BETWEEN ? AND ? ORDER BY version",
            (encounter, encounter, from_step, from_step, last),
        )

    def effective_bodies(
        self,
        encounter: str,
        skip_steps: frozenset[int] = frozenset(),
        up_to_step: int | None = None,
        after_version: int = 0,
    ) -> Iterator[tuple[int, str]]:
        """Stream (schema, body) of the events a fold needs: no undo/redo events, none of the
        skipped (undone) steps, none up to `after_version`. The filtering happens inside the
        database: the versions left out are those of the control and skipped steps' records,
        so what is read are a few runs of versions, each straight off the index."""
        runs = self._effective_runs(encounter, skip_steps, up_to_step, after_version)
        if runs is None:
            return self._filtered_bodies(encounter, skip_steps, up_to_step, after_version)
        return itertools.chain.from_iterable(
            self.conn.execute(
                "SELECT schema, body FROM events WHERE encounter = ? AND version BETWEEN ? AND ? "
                "ORDER BY version",
                (encounter, first, last),
            )
            for first, last in runs
        )

    def _effective_runs(
        self,
        encounter: str,
        skip_steps: frozenset[int],
        up_to_step: int | None,
        after_version: int,
    ) -> list[tuple[int, int]] | None:
        """The runs of versions (first, last) a fold reads; None when there are so many
        that one filtered scan is quicker."""
        sql = (
            "SELECT first_version, last_version FROM steps WHERE encounter = ? AND step >= "
            "coalesce((SELECT step FROM events WHERE encounter = ? AND version = ?), 0) "
            "AND last_version > ? AND step <= ? AND (control <> ?"
        )  # (the steps from the one holding `after_version` on: not every step scanned)
        last_step = up_to_step if up_to_step is not None else 1 << 62
        params: list[object] = [
            encounter, encounter, after_version, after_version, last_step, COMMAND
        ]  # fmt: skip
        if skip_steps:
            condition, value = self._not_in_steps(sorted(skip_steps))
            sql += f" OR NOT ({condition})"
            params.append(value)
        left_out = self.conn.execute(sql + ") ORDER BY step LIMIT 65", params).fetchall()
        if len(left_out) > 64:
            return None
        end = 1 << 62
        if up_to_step is not None:
            row = self.conn.execute(
                "SELECT last_version FROM steps WHERE encounter = ? AND step = ?",
                (encounter, up_to_step),
            ).fetchone()
            end = row[0] if row else after_version
        runs, start = [], after_version + 1
        for first, last in left_out:
            if first > start:
                runs.append((start, min(first - 1, end)))
            start = max(start, last + 1)
        if start <= end:
            runs.append((start, end))
        return [(first, last) for first, last in runs if first <= last]

    def _filtered_bodies(
        self,
        encounter: str,
        skip_steps: frozenset[int],
        up_to_step: int | None,
        after_version: int,
    ) -> Iterator[tuple[int, str]]:
        sql = (
            "SELECT schema, body FROM events WHERE encounter = ? AND version > ? "
            f"AND kind NOT IN ({_CONTROL_KINDS_SQL})"
        )
        params: list[object] = [encounter, after_version]
        if skip_steps:
            condition, value = self._not_in_steps(sorted(skip_steps))
            sql += f" AND {condition}"
            params.append(value)
        if up_to_step is not None:
            sql += " AND step <= ?"
            params.append(up_to_step)
        return self.conn.execute(sql + " ORDER BY version", params)

    def events(
        self, encounter: str | None = None, *, of: type[StoredEvent] = StoredEvent
    ) -> Iterator[StoredEvent]:
        """Stream whole stored events, of one encounter or of the whole log, in order, each
        made as `of` (StoredEvent or a subclass of it, such as an export's line)."""
        if encounter is None:
            cursor = self._stream(f"SELECT {self._columns} FROM events ORDER BY position")
        else:
            cursor = self._stream(
                f"SELECT {self._columns} FROM events WHERE encounter = ? ORDER BY version",
                (encounter,),
            )
        return (of(*row) for row in cursor)

    def event_rows(self) -> Iterator[tuple]:
        """Stream every event of the log as its stored row (EVENT_COLUMNS), by position."""
        return self._stream(f"SELECT {self._columns} FROM events ORDER BY position")

    def step_rows(self) -> Iterator[tuple]:
        """Stream every step record (STEP_COLUMNS), encounter by encounter as they started."""
        if self.schema < SCHEMA:
            for encounter in self.encounters():
                yield from self._stream(
                    f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? ORDER BY step",
                    (encounter,),
                )
            return
        yield from self._stream(
            f"SELECT {', '.join(f's.{c}' for c in STEP_FIELDS)} FROM steps s "
            "JOIN registry r ON r.encounter = s.encounter ORDER BY r.seq, s.step"
        )

    def tip(self) -> tuple[int, int, str]:
        """(events, position, hash) of the log: how many events it holds, and its last."""
        count, position = self.conn.execute("SELECT count(*), max(position) FROM events").fetchone()
        row = self.conn.execute("SELECT hash FROM events WHERE position = ?", (position,))
        found = row.fetchone() if position is not None else None
        return int(count), int(position or 0), found[0] if found else GENESIS

    def event_at(self, position: int) -> StoredEvent | None:
        row = self.conn.execute(
            f"SELECT {self._columns} FROM events WHERE position = ?", (position,)
        ).fetchone()
        return StoredEvent(*row) if row else None

    def registry(self) -> list[RegistryEntry]:
        cursor = self.conn.execute(f"SELECT {REGISTRY_COLUMNS} FROM registry ORDER BY seq")
        return [RegistryEntry(*row) for row in cursor]

    # -- checking ------------------------------------------------------------------------

    def verify(self) -> VerifyReport:
        """Check every hash link of the log (see fracas.ledger.chain), all read in one
        snapshot while writers go on; name the first bad position."""
        with self.snapshot():
            return self._verify()

    def _verify(self) -> VerifyReport:
        columns = self._columns
        current = self.schema >= SCHEMA
        older = self._stream(
            f"SELECT {columns} FROM events "
            + ("WHERE scope = 0 " if current else "")
            + "ORDER BY position"
        )
        by_encounter = self._stream(f"SELECT {columns} FROM events ORDER BY encounter, version")
        return chain.verify(
            (StoredEvent(*row) for row in older),
            (StoredEvent(*row) for row in by_encounter),
            self.registry() if current else None,
            self.free_after,
        )

    def free_after(self, after: int) -> int:
        """The first position after `after` that no event holds: where a deleted event
        stood (positions are handed out without holes, except where a server's sequence
        skipped one). Asked only once a gap was found."""
        row = self.conn.execute(
            "SELECT min(c.q) FROM (SELECT CAST(? AS BIGINT) AS q UNION ALL "
            "SELECT position + 1 FROM events WHERE position > ?) c "
            "WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.position = c.q)",
            (after + 1, after),
        ).fetchone()
        return int(row[0])

    def require_intact(self) -> None:
        report = self.verify()
        if not report.ok:
            raise IntegrityError(
                f"the log is broken at position {report.first_bad_position}: {report.reason}"
            )

    def check_steps(self) -> VerifyReport:
        """Every step record against the events it claims: versions contiguous from 1, each
        step's range holding exactly its events, undo/redo/supersede naming real steps as
        the editor would have, and nothing after the last step. The steps table is not
        chained, so nothing in it is taken on trust."""
        with self.snapshot():
            return self._check_steps()

    def _check_steps(self) -> VerifyReport:
        """The events matched to their records in one query, the records walked as the
        editor would have recorded them; nothing held but a byte a step. At the first thing
        that does not hold, the exact check below names it."""
        checked = self._steps_hold()
        if checked is not None:
            return VerifyReport(True, checked, "")
        return self._check_steps_exactly()

    def _steps_hold(self) -> int | None:
        """How many events, if every record holds against its events (as `_step_problem`
        judges them: each event lies in the range of its own step's record, with its author,
        time and kind, the ranges cut 1..n without gaps); None otherwise."""
        counts = {
            name: (count, low, high)
            for name, count, low, high in self.conn.execute(
                "SELECT encounter, count(*), min(version), max(version) FROM events "
                "GROUP BY encounter"
            )
        }
        total = sum(count for count, _low, _high in counts.values())
        matched = self.conn.execute(MATCHED_EVENTS).fetchone()[0]
        if matched != total:
            return None
        walked = 0
        for name, rows in groupby(self._stream(RECORDS_WITH_CONTROLS), key=lambda r: r[0]):
            last = _records_hold(rows)
            count, low, high = counts.pop(name, (0, 0, 0))
            if last is None or not low == 1 == high - count + 1 or last != high:
                return None
            walked += count
        return total if not counts and walked == total else None

    def _check_steps_exactly(self) -> VerifyReport:
        events = self._stream(
            "SELECT encounter, version, step, kind, author, at, "
            f"CASE WHEN kind IN ({_CONTROL_KINDS_SQL}) THEN body END, position FROM events "
            "ORDER BY encounter, version"
        )
        records = self._stream(f"SELECT {STEP_COLUMNS} FROM steps ORDER BY encounter, step")
        by_encounter: dict[str, list[StepRecord]] = {}
        for name, rows in groupby(records, key=lambda row: row[0]):
            by_encounter[name] = []
            for row in rows:
                try:
                    record = msgspec.convert(dict(zip(STEP_FIELDS, row, strict=True)), StepRecord)
                except msgspec.ValidationError as error:
                    where = self._record_position(name, row)
                    return _bad(0, where, f"a step record of encounter {name}: {error}")
                by_encounter[name].append(record)
        checked = 0
        for name, rows in groupby(events, key=lambda row: row[0]):
            found = list(rows)
            problem = _step_problem(name, found, by_encounter.pop(name, []), self.free_after)
            if problem is not None:
                return _bad(checked, *problem)
            checked += len(found)
        for name, steps in by_encounter.items():
            return _bad(
                checked,
                self.free_after(0),
                f"encounter {name} has {len(steps)} step record(s) but no events (deleted)",
            )
        return VerifyReport(True, checked, "")

    def _record_position(self, encounter: str, row: tuple) -> int:
        """Where a step record that no longer reads as one is named: its step's first event
        (found by its first version, or else by its step number)."""
        for column, value in (("version", row[5]), ("step", row[1])):
            if isinstance(value, int):
                found = self.conn.execute(
                    f"SELECT min(position) FROM events WHERE encounter = ? AND {column} = ?",
                    (encounter, value),
                ).fetchone()
                if found and found[0] is not None:
                    return int(found[0])
        return self.free_after(0)

    # -- witnessed heads -----------------------------------------------------------------

    def head_code(self, encounter: str, step: int | None = None) -> str:
        """A short code for the encounter as it stands after `step` (default: the latest):
        the step, the first hex digits of the hash of its last event, and how many
        encounters had started by then. Noted at the table, it lets `audit --head` prove
        the log still extends that point and still holds every encounter begun before it."""
        if step is None:
            version, step = self.head(encounter)
        else:
            version = self._last_version_of(encounter, step)
        row = self.conn.execute(
            "SELECT hash, position FROM events WHERE encounter = ? AND version = ?",
            (encounter, version),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"encounter {encounter!r} has no step yet")
        return f"{step}-{row[0][:12]}/{self._started_by(row[1])}"

    def _last_version_of(self, encounter: str, step: int) -> int:
        """The version of a step's last event, read from its record alone."""
        row = self.conn.execute(
            "SELECT last_version FROM steps WHERE encounter = ? AND step = ?", (encounter, step)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"encounter {encounter!r} has no step {step}")
        return int(row[0])

    def _started_by(self, position: int) -> int:
        """How many encounters had started (their first event written) by this position."""
        if self.schema < SCHEMA:
            return int(
                self.conn.execute(
                    "SELECT count(*) FROM events WHERE version = 1 AND position <= ?", (position,)
                ).fetchone()[0]
            )
        row = self.conn.execute(  # each encounter's first event looked up, not every event
            "SELECT count(*) FROM registry r WHERE (SELECT e.position FROM events e "
            "WHERE e.encounter = r.encounter AND e.version = 1) <= ?",
            (position,),
        ).fetchone()
        return int(row[0])

    def check_head(self, encounter: str, code: str) -> str:
        """'' if this log still holds the witnessed head `code` of the encounter; otherwise
        what happened to it, in one line."""
        return self.head_problem(encounter, code)[1]

    def head_problem(self, encounter: str, code: str) -> tuple[int | None, str]:
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
        started = len(self.encounters())
        if match.group(3) is not None and started < int(match.group(3)):
            return self.free_after(0), (
                f"{match.group(3)} encounters had begun when it was noted, the log holds "
                f"{started}: an encounter was deleted whole"
            )
        self.require(encounter)
        record = self.conn.execute(
            "SELECT last_version FROM steps WHERE encounter = ? AND step = ?", (encounter, step)
        ).fetchone()
        head_version, head_step = self.head(encounter)
        if record is None:
            last = self.conn.execute(
                "SELECT position FROM events WHERE encounter = ? AND version = ?",
                (encounter, head_version),
            ).fetchone()
            return self.free_after(last[0] if last else 0), (
                f"the log no longer reaches step {step} of encounter {encounter}: it ends at "
                f"step {head_step} (cut off, or not this log)"
            )
        row = self.conn.execute(
            "SELECT hash FROM events WHERE encounter = ? AND version = ?", (encounter, record[0])
        ).fetchone()
        if row is None or not row[0].startswith(prefix):
            return None, (
                f"step {step} of encounter {encounter} no longer ends in the witnessed hash "
                f"{prefix}: the log was rewritten at or before it"
            )
        return None, ""


LOAD_BATCH = 2000  # rows inserted by one executemany
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


def batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Items in lists of `size` (the last may be shorter): rows written or encoded at once."""
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


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

    __slots__ = ("batch", "editor", "record", "version")

    def __init__(self) -> None:
        self.editor = _Editor()
        self.record: StepRecord | None = None
        self.version = 0
        self.batch: list[StepRecord] = []


class StepWatch:
    """Every step record against the events it claims, as the events stream past in
    position order (rows starting as EVENT_COLUMNS, the body at least for undo, redo and
    supersede events): each encounter's records are read a batch at a time beside them, so
    nothing is held but a byte per step. It vouches only for what `_step_problem` would
    pass; at the first doubt it is `doubtful`, and the exact check names the problem."""

    def __init__(self, store: "LogStore") -> None:
        self.store = store
        self.walks: dict[str, _Walk] = {}
        self.records = 0
        self.count = 0
        self.doubtful = False

    def see(self, rows: Iterable[tuple]) -> None:
        if self.doubtful:
            return
        walks, count = self.walks, 0
        for row in rows:
            count += 1
            walk = walks.get(row[1])
            if walk is None:
                walk = walks[row[1]] = _Walk()
            version = row[2]
            record = walk.record
            if version != walk.version + 1:
                self.doubtful = True
                return
            walk.version = version
            if record is None or version > record.last_version:
                record = self._next(row[1], walk)
                if record is None:
                    return
            if (row[3], row[5], row[6]) != (record.step, record.author, record.at):
                self.doubtful = True
                return
            command = record.control == COMMAND
            if command == (row[4] in CONTROL_KINDS) or (
                not command and not _names_target(row[4], row[8], record)
            ):
                self.doubtful = True
                return
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


def where(report: VerifyReport) -> str:
    """Where a report found its first problem, for a one-line message."""
    if report.first_bad_position is None:
        return "in its records"
    return f"at position {report.first_bad_position}"


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
