"""What every ledger backend does the same way: steps, the chains, reading, checking.

A backend (SQLite in store.py, PostgreSQL in postgres.py) supplies a connection whose
`execute(sql, params)` takes `?` placeholders and returns a cursor (fetchone, fetchall,
iteration), its transactions, how it hands out positions, and its own schema. Everything
here is plain SQL both speak; bodies are JSON text stored and handed back untouched.
"""

import itertools
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import msgspec

from fracas.ledger import chain
from fracas.ledger.chain import (
    COUNTED_CHAIN,
    GENESIS,
    RegistryEntry,
    StoredEvent,
    VerifyReport,
    registry_entry,
    where,
)
from fracas.ledger.errors import (
    ConflictError,
    IntegrityError,
    NotFoundError,
    RefusedError,
    said,
)
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO, History, StepRecord

if TYPE_CHECKING:  # made only where a head is checked
    from fracas.ledger.verify import HeadProblem

UNDONE_KIND = "step.undone"
REDONE_KIND = "step.redone"
SUPERSEDED_KIND = "step.superseded"
CONTROL_KINDS = frozenset({UNDONE_KIND, REDONE_KIND, SUPERSEDED_KIND})
KIND_OF_CONTROL = {UNDO: UNDONE_KIND, REDO: REDONE_KIND, SUPERSEDE: SUPERSEDED_KIND}
_CONTROL_KINDS_SQL = ", ".join(f"'{kind}'" for kind in sorted(CONTROL_KINDS))

Projector = Callable[[Any], None]  # writes read models through the append's connection
# A load's rows as they pass: each batch's step records (STEP_COLUMNS) and event rows
# (EVENT_COLUMNS), the rows None from the first batch the one-pass chain check cannot vouch
# for on (the exact check then says, once all are in)
Stream = Callable[[list[tuple], list[tuple] | None], None]

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
# The kinds the layers above ask "did this encounter ever record one?" of, at every glance
# (`status`): fracas.rules.events' CombatantHidden and ReactionAsked (tests/test_cli.py
# holds them to those tags). A partial index holds just their events, so the answer reads
# none of the others however long the fight; the query repeats the index's WHERE word for
# word, as SQLite needs to use it.
HIDDEN_KIND = "combatant.hidden"
ASKED_KIND = "reaction.asked"
_GLANCED = f"kind IN ('{HIDDEN_KIND}', '{ASKED_KIND}')"
GLANCE_INDEX = "events_glanced"
CREATE_GLANCE_INDEX = (
    f"CREATE INDEX IF NOT EXISTS {GLANCE_INDEX} ON events (encounter, kind) WHERE {_GLANCED}"
)
KINDS_EVER = f"SELECT DISTINCT kind FROM events WHERE encounter = ? AND {_GLANCED}"
# The kinds that name the dice seed an encounter rolls with (fracas.rules.encounter's
# SEED_KINDS: its start, and each seed revealed): a partial index holds just their events,
# so the seed in force is found without walking back through every event of the fight.
SEED_KINDS = ("encounter.started", "seed.revealed")
_SEEDED = f"kind IN ('{SEED_KINDS[0]}', '{SEED_KINDS[1]}')"
SEED_INDEX = "events_seeded"
CREATE_SEED_INDEX = (
    f"CREATE INDEX IF NOT EXISTS {SEED_INDEX} ON events (encounter, version) WHERE {_SEEDED}"
)
LAST_SEEDED = (
    f"SELECT body FROM events WHERE encounter = ? AND version > ? AND {_SEEDED} "
    "ORDER BY version DESC LIMIT 1"
)
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


class Latest(NamedTuple):
    """An encounter's latest step: the version of its last event and the step's number."""

    version: int
    step: int


class LogTip(NamedTuple):
    """How many events the whole log holds, and its last one."""

    events: int
    position: int
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


class LogStore(ABC):
    """One log of many encounters: the contract every backend keeps. A backend opens
    `conn`, `keys` and `schema` and supplies the abstract methods."""

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
        self.appends = 0  # steps this store has appended (or tried to): a reader's mark

    # -- what a backend supplies ---------------------------------------------------------

    @abstractmethod
    def close(self) -> None:
        """Give back the connection (and the key file)."""

    @abstractmethod
    def _begin(self) -> None:
        """Open a write transaction."""

    @abstractmethod
    def _in_transaction(self) -> bool:
        """Whether a transaction is open on the connection."""

    @abstractmethod
    def _insert_step(self, rows: list[tuple], record: StepRecord) -> None:
        """Insert a step's new events (every column but the position, which the backend
        gives) and its record."""

    def _lock_registry(self) -> None:
        """Only starting an encounter waits on another start; appends never do."""
        return None

    def _described(self, error: BaseException) -> Exception | None:
        """The backend's own error as fracas's one-line refusal, where it has one."""
        return None

    def _after_commit(self) -> None:
        """Housekeeping after a step reached the disk."""
        return None

    def _after_load(self) -> None:
        """Housekeeping after a whole log was loaded with its own positions."""
        return None

    @abstractmethod
    def _not_in_steps(self, steps: Sequence[int]) -> tuple[str, object]:
        """A condition (and its one parameter) leaving out the events of these steps."""

    @abstractmethod
    def missing_triggers(self) -> list[str]:
        """The append-only triggers the log should have and has not."""

    @abstractmethod
    def tables(self) -> set[str]:
        """The names of the tables and views of the log."""

    @abstractmethod
    def columns(self, table: str) -> set[str]:
        """The names of a table's columns."""

    @abstractmethod
    def data_version(self) -> int | None:
        """A number that moves whenever another connection commits to the log; None where
        the backend has none (then read the heads)."""

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
        return None

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
        self.appends += 1
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
        items: Iterable[Sequence[StoredEvent | StepRecord]],
        sealed: Iterable[tuple[str, str]] = (),
        project: Projector | None = None,
        *,
        taken: Callable[[], None] | None = None,
        stream: Stream | None = None,
    ) -> VerifyReport:
        """Take in a whole log, byte for byte, into this empty one, in one transaction;
        refused (and nothing kept) unless every hash link holds and every step record
        matches its events. The registry is written from the events, in starting order.
        Events and step records stream through, a batch at a time (`batches` makes them),
        in any mix: the chains are checked as they pass, and nothing is held but each
        encounter's tip. `taken` is called once every item is in (to refuse what the items
        alone cannot show); `sealed` is read then. `stream` sees each batch once it is in
        (see Stream): what the read models can be folded from as it passes, instead of
        reading the whole log again once it is in."""
        with self._loading():
            return self._load(items, sealed, project, taken, stream)

    @contextmanager
    def _loading(self) -> Iterator[None]:
        """Around a whole load: how a backend writes a whole log at once, if not as appends."""
        yield

    def _load(
        self,
        items: Iterable[Sequence[StoredEvent | StepRecord]],
        sealed: Iterable[tuple[str, str]],
        project: Projector | None,
        taken: Callable[[], None] | None,
        stream: Stream | None = None,
    ) -> VerifyReport:
        self._begin()
        try:
            if self.conn.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise RefusedError(
                    f"{self.path} already holds events: copy or import only into a new, empty file"
                )
            from fracas.ledger.verify import StepWatch

            # records read in before their events (as an export writes them) are checked
            # against them as they pass; otherwise the exact check does it once all are in
            watch, steps, firsts = chain.ChainWatch(), StepWatch(self), []
            astuple = msgspec.structs.astuple
            for batch in items:
                rows = [astuple(item) for item in batch if isinstance(item, StoredEvent)]
                records = []
                if len(rows) < len(batch):
                    records = [astuple(i) for i in batch if not isinstance(i, StoredEvent)]
                    self.conn.executemany(INSERT_STEP, records)
                watch.see(rows)
                steps.see(rows)
                firsts += [(row[1], row[10]) for row in rows if row[2] == 1]
                self.conn.executemany(INSERT_EVENT, rows)
                if stream is not None:
                    stream(records, None if watch.doubtful else rows)
            if taken is not None:
                taken()
            self.conn.executemany(
                INSERT_REGISTRY, [msgspec.structs.astuple(e) for e in chain.registry_of(firsts)]
            )
            self._after_load()
            report = watch.report(self.registry()) or self.verify()
            if report.ok:
                report = steps.report() or self.check_steps()
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

    def head(self, encounter: str) -> Latest:
        """The encounter's latest step; (0, 0) when it has none."""
        row = self.conn.execute(
            "SELECT last_version, step FROM steps WHERE encounter = ? ORDER BY step DESC LIMIT 1",
            (encounter,),
        ).fetchone()
        return Latest(row[0], row[1]) if row else Latest(0, 0)

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
        if tuple(kinds) == SEED_KINDS:  # the seed's: read off their own index, where there is one
            row = self.conn.execute(LAST_SEEDED, (encounter, after_version)).fetchone()
            return row[0] if row else None
        marks = ", ".join("?" for _ in kinds)
        row = self.conn.execute(
            f"SELECT body FROM events WHERE encounter = ? AND version > ? AND kind IN ({marks}) "
            "ORDER BY version DESC LIMIT 1",
            (encounter, after_version, *kinds),
        ).fetchone()
        return row[0] if row else None

    def kinds_ever(self, encounter: str) -> set[str]:
        """Which of HIDDEN_KIND and ASKED_KIND the encounter ever recorded (undone or not),
        read off the glance's index."""
        return {kind for (kind,) in self.conn.execute(KINDS_EVER, (encounter,))}

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

    def event_batches(self, size: int) -> Iterator[list[tuple]]:
        """`event_rows` in lists of `size` (the last may be shorter): an export handles rows
        by the thousand."""
        return batches(self.event_rows(), size)

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

    def tip(self) -> LogTip:
        """How many events the log holds, and its last one's position and hash."""
        count, position = self.conn.execute("SELECT count(*), max(position) FROM events").fetchone()
        row = self.conn.execute("SELECT hash FROM events WHERE position = ?", (position,))
        found = row.fetchone() if position is not None else None
        return LogTip(int(count), int(position or 0), found[0] if found else GENESIS)

    def event_at(self, position: int) -> StoredEvent | None:
        row = self.conn.execute(
            f"SELECT {self._columns} FROM events WHERE position = ?", (position,)
        ).fetchone()
        return StoredEvent(*row) if row else None

    def registry(self) -> list[RegistryEntry]:
        cursor = self.conn.execute(f"SELECT {REGISTRY_COLUMNS} FROM registry ORDER BY seq")
        return [RegistryEntry(*row) for row in cursor]

    # -- checking (fracas.ledger.verify) -------------------------------------------------

    def verify(self) -> VerifyReport:
        """Check every hash link of the log (see fracas.ledger.chain), all read in one
        snapshot while writers go on; name the first bad position."""
        from fracas.ledger import verify

        return verify.verify(self)

    def free_after(self, after: int) -> int:
        """The first position after `after` that no event holds: where a deleted event
        stood."""
        from fracas.ledger import verify

        return verify.free_after(self, after)

    def require_intact(self) -> None:
        from fracas.ledger import verify

        verify.require_intact(self)

    def check_steps(self) -> VerifyReport:
        """Every step record against the events it claims (fracas.ledger.verify)."""
        from fracas.ledger import verify

        return verify.check_steps(self)

    def head_code(self, encounter: str, step: int | None = None) -> str:
        """A short code for the encounter as it stands after `step` (default: the latest),
        to note at the table (fracas.ledger.verify)."""
        from fracas.ledger import verify

        return verify.head_code(self, encounter, step)

    def check_head(self, encounter: str, code: str) -> str:
        """'' if this log still holds the witnessed head `code` of the encounter; otherwise
        what happened to it, in one line."""
        from fracas.ledger import verify

        return verify.check_head(self, encounter, code)

    def head_problem(self, encounter: str, code: str) -> "HeadProblem":
        """(position, why) if this log no longer holds the witnessed head `code`; (None, '')
        if it does."""
        from fracas.ledger import verify

        return verify.head_problem(self, encounter, code)


LOAD_BATCH = 2000  # rows inserted by one executemany


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
