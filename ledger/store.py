"""The SQLite store: an append-only, hash-chained event log with steps and sealed secrets.

This is the only module of fracas.ledger that speaks SQL. It knows nothing of any ruleset:
bodies are JSON text it stores and hands back untouched.
"""

import hashlib
import os
import re
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from functools import cached_property
from itertools import groupby
from pathlib import Path

import msgspec
import sqlite_utils

from fracas.ledger.errors import (
    BadInputError,
    ConflictError,
    FracasError,
    IntegrityError,
    NotFoundError,
    RefusedError,
)
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO, History, StepRecord
from fracas.ledger.keys import KeyFile, key_path

GENESIS = "0" * 64
UNDONE_KIND = "step.undone"
REDONE_KIND = "step.redone"
SUPERSEDED_KIND = "step.superseded"
CONTROL_KINDS = frozenset({UNDONE_KIND, REDONE_KIND, SUPERSEDED_KIND})
KIND_OF_CONTROL = {UNDO: UNDONE_KIND, REDO: REDONE_KIND, SUPERSEDE: SUPERSEDED_KIND}

_CONTROL_KINDS_SQL = ", ".join(f"'{kind}'" for kind in sorted(CONTROL_KINDS))
Projector = Callable[[sqlite3.Connection], None]


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its stable kind tag and its body as JSON text."""

    kind: str
    body: str
    schema: int = 1


class StoredEvent(msgspec.Struct, frozen=True):
    position: int
    encounter: str
    version: int
    step: int
    kind: str
    author: str
    at: str
    schema: int
    body: str
    prev_hash: str
    hash: str
    salt: str | None = None  # None on events written before salts (schema 1)

    def hashed_row(self) -> tuple:
        return (
            self.position,
            self.encounter,
            self.version,
            self.step,
            self.kind,
            self.author,
            self.at,
            self.schema,
            self.body,
        )


class AppendResult(msgspec.Struct, frozen=True):
    step: int
    first_version: int
    last_version: int
    duplicate: bool = False
    record: StepRecord | None = None


class VerifyReport(msgspec.Struct, frozen=True):
    ok: bool
    checked: int
    head_hash: str
    first_bad_position: int | None = None
    reason: str = ""


EVENT_COLUMNS = (
    "position, encounter, version, step, kind, author, at, schema, body, prev_hash, hash, salt"
)
LEGACY_EVENT_COLUMNS = EVENT_COLUMNS.replace("salt", "NULL AS salt")
INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
MAX_BODY = 1 << 20  # the hard ceiling on one event's body; encounters may set a lower one
HEAD_CODE = re.compile(r"^(\d+)-([0-9a-f]{6,64})$")
STEP_COLUMNS = (
    "encounter, step, command_id, control, target, first_version, last_version, author, at"
)


STEP_FIELDS = tuple(STEP_COLUMNS.split(", "))


def chain_hash(prev_hash: str, row: Sequence[object], salt: str | None = None) -> str:
    """SHA-256 over the previous hash and the exact stored values of one row, and its salt.

    The salt (16 random bytes per event, stored in the row) keeps a hash from being a test
    of a guess: without the row itself, nobody can try every die face against it."""
    values = list(row) if salt is None else [*row, salt]
    return hashlib.sha256(prev_hash.encode() + msgspec.json.encode(values)).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _append_only_triggers(table: str) -> str:
    return f"""
    CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, 'fracas: {table} is append-only; nothing may be updated'); END;
    CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table}
    BEGIN SELECT RAISE(ABORT, 'fracas: {table} is append-only; nothing may be deleted'); END;
    """


def _migration_1(db: sqlite_utils.Database, _keys: KeyFile) -> None:
    db["events"].create(
        {
            "position": int,
            "encounter": str,
            "version": int,
            "step": int,
            "kind": str,
            "author": str,
            "at": str,
            "schema": int,
            "body": str,
            "prev_hash": str,
            "hash": str,
        },
        pk="position",
        not_null={
            "encounter",
            "version",
            "step",
            "kind",
            "author",
            "at",
            "schema",
            "body",
            "prev_hash",
            "hash",
        },
    )
    db["events"].create_index(["encounter", "version"], unique=True)
    # keyed by (encounter, step) and nothing else: WITHOUT ROWID saves a b-tree per append
    db.execute(
        "CREATE TABLE steps (encounter TEXT NOT NULL, step INTEGER NOT NULL, "
        "command_id TEXT NOT NULL, control TEXT NOT NULL, target INTEGER, "
        "first_version INTEGER NOT NULL, last_version INTEGER NOT NULL, author TEXT NOT NULL, "
        "at TEXT NOT NULL, PRIMARY KEY (encounter, step)) WITHOUT ROWID"
    )
    db["steps"].create_index(["encounter", "command_id"], unique=True)
    db["secrets"].create({"encounter": str, "name": str, "value": str}, pk=("encounter", "name"))
    for table in ("events", "steps", "secrets"):
        db.executescript(_append_only_triggers(table))


def _migration_2(db: sqlite_utils.Database, keys: KeyFile) -> None:
    """Salted events; sealed secrets moved out of the log into the GM's key file.

    Schema 1 kept dice seeds (hex) in a `secrets` table of the log itself; they are filed in
    the key file under their SHA-256 commitment, then the table is dropped with secure_delete
    on, so the freed pages are zeroed and a copy of the file no longer holds them."""
    db.execute("ALTER TABLE events ADD COLUMN salt TEXT")
    for (value,) in db.execute("SELECT value FROM secrets").fetchall():
        keys.seal(hashlib.sha256(bytes.fromhex(value)).hexdigest(), value)
    db.execute("PRAGMA secure_delete=ON")
    db.execute("DROP TABLE secrets")


MIGRATIONS: list[Callable[[sqlite_utils.Database, KeyFile], None]] = [
    _migration_1,
    _migration_2,
]
# The events of the steps in effect, for SQL readers of the file (the read models create
# it with their views). As in History: a step is in effect unless the last undo, redo or
# supersede naming it is an undo or a supersede (a supersede is never redone).
EFFECTIVE_EVENTS = (
    "SELECT e.position, e.encounter, e.step, e.version, e.kind, e.author, e.at, e.body "
    "FROM events e JOIN steps s ON s.encounter = e.encounter AND s.step = e.step "
    f"WHERE s.control = '{COMMAND}' AND coalesce(("
    "SELECT c.control FROM steps c WHERE c.encounter = s.encounter AND c.target = s.step "
    f"ORDER BY c.step DESC LIMIT 1), '{REDO}') = '{REDO}'"
)
SCHEMA = len(MIGRATIONS)
APPEND_ONLY_TRIGGERS = tuple(
    f"{table}_no_{verb}" for table in ("events", "steps") for verb in ("update", "delete")
)
CHECKPOINT_EVERY = 64  # steps between WAL checkpoints


class Checkpointer:
    """Runs WAL checkpoints on its own connection and thread, so that no append waits
    for the main file's fsync. Commits stay durable: each one fsyncs the WAL itself.
    A checkpoint is housekeeping: when one fails (a full disk, a busy reader) the WAL
    simply keeps the pages until the next one, so failures are not reported."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="fracas-checkpoint", daemon=True)
        self._thread.start()

    def request(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, timeout=10.0)
        except sqlite3.Error:
            return
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                with suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if self._stopping:
                    return
        finally:
            conn.close()


def _read_only_connection(path: str) -> sqlite3.Connection:
    """A connection that can neither write nor lock: mode=ro, or immutable=1 where even a
    reader's shared-memory file cannot be made (read-only media)."""
    uri = Path(path).absolute().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
    except sqlite3.DatabaseError:
        raise BadInputError(
            f"{path} is not a fracas log (not an SQLite database); nothing was changed"
        ) from None
    conn.execute("PRAGMA query_only=1")
    return conn


def fracas_schema(conn: sqlite3.Connection, path: str) -> int:
    """The schema version of a fracas log; 0 for an empty file. A file that is not a fracas
    log, or one written by a newer fracas, is refused before anything touches it."""
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError:
        raise BadInputError(
            f"{path} is not a fracas log (not an SQLite database); nothing was changed"
        ) from None
    if not tables:
        return 0
    if "fracas_migrations" not in tables:
        raise BadInputError(
            f"{path} is an SQLite database but not a fracas log; nothing was changed"
        )
    version = conn.execute("SELECT coalesce(max(version), 0) FROM fracas_migrations")
    schema = version.fetchone()[0]
    if schema > SCHEMA:
        raise RefusedError(
            f"{path} was written by a newer fracas (log schema {schema}; this fracas reads up "
            f"to schema {SCHEMA}): upgrade fracas to open it"
        )
    return schema


def describe_database_error(error: sqlite3.Error, path: str) -> FracasError:
    """One line for what SQLite said, with what to do about it."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return ConflictError(
            f"{path} is busy: another program is writing to it; try again in a moment"
        )
    if "full" in text:
        return RefusedError(
            f"the disk holding {path} is full: nothing was written; free some space and retry"
        )
    if "readonly" in text or "read-only" in text:
        return RefusedError(f"{path} is read-only here: it can be read, not written")
    if "not a database" in text or "malformed" in text:
        return IntegrityError(
            f"{path} is damaged or not a fracas log ({error}); `fracas audit` says more"
        )
    return IntegrityError(f"{path} could not be used: {error}")


def busy_timeout() -> float:
    """Seconds a writer waits for another writer's lock (env FRACAS_BUSY_TIMEOUT, default 10)."""
    try:
        return float(os.environ.get("FRACAS_BUSY_TIMEOUT", "10"))
    except ValueError:
        return 10.0


class Store:
    """One SQLite file holding many encounters, and beside it the GM's key file.

    `readonly` opens without a lock, a migration or a file created (every read command);
    `create` lets a missing path become a new log (only `new`, `import` and `demo`)."""

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        readonly: bool = False,
        create: bool = True,
        synchronous: str = "FULL",
        background_checkpoints: bool = True,
        keys: str | None = None,
    ) -> None:
        self.path = str(path)
        self.readonly = readonly
        self._checkpointer: Checkpointer | None = None
        self._steps_since_checkpoint = 0
        memory = self.path == ":memory:"
        self.keys = KeyFile(
            ":memory:" if memory else keys or key_path(self.path), readonly=readonly
        )
        if not memory and not os.path.exists(self.path) and (readonly or not create):
            raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
        if readonly:
            conn = _read_only_connection(self.path)
            self.schema = fracas_schema(conn, self.path)
            if self.schema == 0:
                conn.close()
                raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
        else:
            if not memory and os.path.exists(self.path) and os.path.getsize(self.path) > 0:
                probe = _read_only_connection(self.path)
                try:
                    found = fracas_schema(probe, self.path)
                finally:
                    probe.close()
                if found == 0 and not create:
                    raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=busy_timeout())
            if not memory:
                conn.execute("PRAGMA journal_mode=WAL")
                if background_checkpoints:
                    conn.execute("PRAGMA wal_autocheckpoint=0")
                    self._checkpointer = Checkpointer(self.path)
                    weakref.finalize(self, self._checkpointer.stop)
            conn.execute(f"PRAGMA synchronous={synchronous}")
        self._conn = conn
        if not readonly:
            self._migrate()
            self.schema = SCHEMA
        self._columns = EVENT_COLUMNS if self.schema >= 2 else LEGACY_EVENT_COLUMNS
        self._legacy_secrets = self._read_legacy_secrets() if self.schema < 2 else {}

    @property
    def conn(self) -> sqlite3.Connection:
        return self._conn

    @cached_property
    def db(self) -> sqlite_utils.Database:
        """The connection through sqlite-utils, made when first asked for: making one loads
        sqlite-utils' plugins, which a quick read does not need."""
        return sqlite_utils.Database(self._conn)

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.keys.close()
        self._conn.close()

    def _after_commit(self) -> None:
        self._steps_since_checkpoint += 1
        if self._checkpointer and self._steps_since_checkpoint >= CHECKPOINT_EVERY:
            self._steps_since_checkpoint = 0
            self._checkpointer.request()

    def _migrate(self) -> None:
        """Bring the file up to this schema; a current file is not locked at all."""
        conn = self.conn
        if self._applied() == SCHEMA:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS fracas_migrations "
                "(version INTEGER PRIMARY KEY, at TEXT)"
            )
            applied = fracas_schema(conn, self.path)
            for version, migration in enumerate(MIGRATIONS, start=1):
                if version > applied:
                    migration(self.db, self.keys)
                    conn.execute("INSERT INTO fracas_migrations VALUES (?, ?)", (version, now()))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if self.path != ":memory:":
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # no stale page keeps a secret

    def _applied(self) -> int:
        try:
            row = self.conn.execute("SELECT coalesce(max(version), 0) FROM fracas_migrations")
        except sqlite3.OperationalError:
            return 0
        return row.fetchone()[0]

    def _read_legacy_secrets(self) -> dict[str, str]:
        """A schema-1 file opened read-only still keeps its seeds inside; read them there."""
        rows = self.conn.execute("SELECT value FROM secrets").fetchall()
        return {hashlib.sha256(bytes.fromhex(v)).hexdigest(): v for (v,) in rows}

    @property
    def schema_version(self) -> int:
        return self.schema

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
        """Append one step atomically, with the hash chain and the projections.

        Retrying a command id already recorded returns the original step and writes nothing.
        """
        if not events:
            raise ValueError("a step needs at least one event")
        for event in events:
            if len(event.body) > MAX_BODY:
                raise RefusedError(
                    f"an event of {len(event.body)} bytes is over fracas's ceiling of "
                    f"{MAX_BODY} bytes; nothing was written"
                )
        conn = self.conn
        owned = not conn.in_transaction  # inside batch() the batch commits
        if owned:
            conn.execute("BEGIN IMMEDIATE")
        try:
            original, head_version, head_step, tip = self._situation(encounter, command_id)
            if original is not None:
                if owned:
                    conn.execute("ROLLBACK")
                return original
            if expected_version == 0 and head_version != 0:
                raise ConflictError(f"encounter {encounter!r} already exists; pick another id")
            if head_version != expected_version:
                raise ConflictError(
                    f"encounter {encounter} moved on to version {head_version} while this "
                    f"command expected {expected_version}; reload and try again"
                )
            result = self._write_step(
                encounter,
                events,
                head_version,
                head_step + 1,
                command_id,
                author,
                control,
                target,
                tip,
            )
            if project is not None:
                project(conn)
            if owned:
                conn.execute("COMMIT")
                self._after_commit()
            return result
        except sqlite3.IntegrityError as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise ConflictError(
                f"another writer appended to encounter {encounter} at the same time; "
                f"reload and try again ({error})"
            ) from error
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _situation(
        self, encounter: str, command_id: str
    ) -> tuple[AppendResult | None, int, int, tuple[int, str]]:
        """In one query: the step of this command id if recorded, the encounter's head
        (version, step), and the chain's tip (position, hash)."""
        row = self.conn.execute(
            "SELECT s.step, s.first_version, s.last_version, h.last_version, h.step, "
            "t.position, t.hash FROM (SELECT 1) "
            "LEFT JOIN steps s ON s.encounter = ?1 AND s.command_id = ?2 "
            "LEFT JOIN (SELECT last_version, step FROM steps WHERE encounter = ?1 "
            "           ORDER BY step DESC LIMIT 1) h "
            "LEFT JOIN (SELECT position, hash FROM events ORDER BY position DESC LIMIT 1) t",
            (encounter, command_id),
        ).fetchone()
        original = AppendResult(row[0], row[1], row[2], duplicate=True) if row[0] else None
        return original, row[3] or 0, row[4] or 0, (row[5] or 0, row[6] or GENESIS)

    def _write_step(
        self,
        encounter: str,
        events: Sequence[NewEvent],
        head_version: int,
        step: int,
        command_id: str,
        author: str,
        control: str,
        target: int | None,
        tip: tuple[int, str],
    ) -> AppendResult:
        conn = self.conn
        position, prev_hash = tip
        at = now()
        rows = []
        for offset, event in enumerate(events, start=1):
            position += 1
            row = (
                position,
                encounter,
                head_version + offset,
                step,
                event.kind,
                author,
                at,
                event.schema,
                event.body,
            )
            salt = secrets.token_hex(16)
            digest = chain_hash(prev_hash, row, salt)
            rows.append((*row, prev_hash, digest, salt))
            prev_hash = digest
        conn.executemany(INSERT_EVENT, rows)
        last_version = head_version + len(events)
        record = StepRecord(
            encounter, step, command_id, control, target, head_version + 1, last_version, author, at
        )
        conn.execute(
            f"INSERT INTO steps ({STEP_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
            msgspec.structs.astuple(record),
        )
        return AppendResult(step, head_version + 1, last_version, record=record)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Several steps as one transaction: all of them reach the disk, or none does."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self._after_commit()

    def load(
        self,
        events: Iterable[StoredEvent],
        steps: Iterable[StepRecord],
        sealed: Iterable[tuple[str, str]] = (),
        project: Projector | None = None,
    ) -> VerifyReport:
        """Take in a whole exported log, byte for byte, into this empty file, in one
        transaction; refused (and nothing kept) unless every hash link holds and every step
        record matches its events."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise RefusedError(
                    f"{self.path} already holds events: import into a new, empty file"
                )
            conn.executemany(INSERT_EVENT, (msgspec.structs.astuple(e) for e in events))
            conn.executemany(
                f"INSERT INTO steps ({STEP_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
                (msgspec.structs.astuple(r) for r in steps),
            )
            report = self.verify()
            if report.ok:
                report = self.check_steps()
            if not report.ok:
                raise IntegrityError(
                    f"the export is damaged {where(report)}: {report.reason}; nothing was imported"
                )
            if project is not None:
                project(conn)
            for name, value in sealed:
                self.keys.seal(name, value)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return report

    def event_at(self, position: int) -> StoredEvent | None:
        row = self.conn.execute(
            f"SELECT {self._columns} FROM events WHERE position = ?", (position,)
        ).fetchone()
        return StoredEvent(*row) if row else None

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

    def seal(self, name: str, value: str) -> None:
        """Keep a secret (a dice seed) in the GM's key file, outside the log, filed under
        `name` (its commitment); sealing a name twice keeps the first value."""
        self.keys.seal(name, value)

    def unseal(self, name: str) -> str | None:
        return self.keys.unseal(name) or self._legacy_secrets.get(name)

    # -- reading -------------------------------------------------------------------------

    def _head(self, encounter: str) -> tuple[int, int]:
        row = self.conn.execute(
            "SELECT last_version, step FROM steps WHERE encounter = ? ORDER BY step DESC LIMIT 1",
            (encounter,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, 0)

    def head(self, encounter: str) -> tuple[int, int]:
        """(version, step) of the latest step of the encounter; (0, 0) when empty."""
        return self._head(encounter)

    def _step_for_command(self, encounter: str, command_id: str) -> AppendResult | None:
        row = self.conn.execute(
            "SELECT step, first_version, last_version FROM steps "
            "WHERE encounter = ? AND command_id = ?",
            (encounter, command_id),
        ).fetchone()
        return AppendResult(row[0], row[1], row[2], duplicate=True) if row else None

    def step_for_command(self, encounter: str, command_id: str) -> AppendResult | None:
        return self._step_for_command(encounter, command_id)

    def last_of_kinds(self, encounter: str, kinds: Sequence[str]) -> str | None:
        """The body of the encounter's latest event of one of these kinds, if any."""
        marks = ", ".join("?" for _ in kinds)
        row = self.conn.execute(
            f"SELECT body FROM events WHERE encounter = ? AND kind IN ({marks}) "
            "ORDER BY version DESC LIMIT 1",
            (encounter, *kinds),
        ).fetchone()
        return row[0] if row else None

    def history(self, encounter: str) -> History:
        cursor = self.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? ORDER BY step", (encounter,)
        )
        return History.of(StepRecord(*row) for row in cursor)

    def encounters(self) -> list[str]:
        cursor = self.conn.execute(
            "SELECT s.encounter FROM steps s JOIN events e "
            "ON e.encounter = s.encounter AND e.version = 1 WHERE s.step = 1 ORDER BY e.position"
        )
        return [row[0] for row in cursor]

    def exists(self, encounter: str) -> bool:
        return self._head(encounter) != (0, 0)

    def require(self, encounter: str) -> None:
        if not self.exists(encounter):
            raise NotFoundError(
                f"no encounter {encounter!r} in {self.path}; `fracas encounters` lists them"
            )

    def rows(
        self, encounter: str, *, up_to_step: int | None = None, from_step: int = 1
    ) -> Iterator[tuple]:
        """Stream (step, kind, schema, body) of an encounter in version order."""
        if from_step > 1:
            return self.conn.execute(
                "SELECT step, kind, schema, body FROM events WHERE encounter = ? "
                "AND step BETWEEN ? AND ? ORDER BY version",
                (encounter, from_step, up_to_step if up_to_step is not None else 1 << 62),
            )
        if up_to_step is None:
            return self.conn.execute(
                "SELECT step, kind, schema, body FROM events WHERE encounter = ? ORDER BY version",
                (encounter,),
            )
        return self.conn.execute(
            "SELECT step, kind, schema, body FROM events WHERE encounter = ? AND step <= ? "
            "ORDER BY version",
            (encounter, up_to_step),
        )

    def effective_bodies(
        self,
        encounter: str,
        skip_steps: frozenset[int] = frozenset(),
        up_to_step: int | None = None,
    ) -> Iterator[tuple[int, str]]:
        """Stream (schema, body) of the events a fold needs: no undo/redo events, none of the
        skipped (undone) steps. The filtering happens inside SQLite."""
        sql = (
            "SELECT schema, body FROM events WHERE encounter = ? "
            f"AND kind NOT IN ({_CONTROL_KINDS_SQL})"
        )
        params: list[object] = [encounter]
        if skip_steps:
            sql += " AND step NOT IN (SELECT value FROM json_each(?))"
            params.append(msgspec.json.encode(sorted(skip_steps)).decode())
        if up_to_step is not None:
            sql += " AND step <= ?"
            params.append(up_to_step)
        return self.conn.execute(sql + " ORDER BY version", params)

    def events(self, encounter: str | None = None) -> Iterator[StoredEvent]:
        """Stream whole stored events, of one encounter or of the whole file, in order."""
        if encounter is None:
            cursor = self.conn.execute(f"SELECT {self._columns} FROM events ORDER BY position")
        else:
            cursor = self.conn.execute(
                f"SELECT {self._columns} FROM events WHERE encounter = ? ORDER BY version",
                (encounter,),
            )
        return (StoredEvent(*row) for row in cursor)

    def verify(self) -> VerifyReport:
        """Check every hash link of the file; name the first bad position."""
        prev_hash, checked, expected_position = GENESIS, 0, 1
        for event in self.events():
            if event.position != expected_position:
                return self._bad(
                    checked,
                    prev_hash,
                    expected_position,
                    f"position {expected_position} is missing",
                )
            if event.prev_hash != prev_hash:
                return self._bad(
                    checked,
                    prev_hash,
                    event.position,
                    "its previous-hash does not match the event before it",
                )
            if chain_hash(prev_hash, event.hashed_row(), event.salt) != event.hash:
                return self._bad(
                    checked,
                    prev_hash,
                    event.position,
                    "its content does not match its hash (edited after writing)",
                )
            prev_hash, checked, expected_position = event.hash, checked + 1, expected_position + 1
        return VerifyReport(True, checked, prev_hash)

    @staticmethod
    def _bad(checked: int, head: str, position: int | None, reason: str) -> VerifyReport:
        return VerifyReport(False, checked, head, position, reason)

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
        events = self.conn.execute(
            "SELECT encounter, version, step, kind, author, at, body, position FROM events "
            "ORDER BY encounter, version"
        )
        records = self.conn.execute(f"SELECT {STEP_COLUMNS} FROM steps ORDER BY encounter, step")
        by_encounter: dict[str, list[StepRecord]] = {}
        for name, rows in groupby(records, key=lambda row: row[0]):
            try:
                by_encounter[name] = [
                    msgspec.convert(dict(zip(STEP_FIELDS, row, strict=True)), StepRecord)
                    for row in rows
                ]
            except msgspec.ValidationError as error:
                return self._bad(0, "", None, f"a step record of encounter {name}: {error}")
        checked = 0
        for name, rows in groupby(events, key=lambda row: row[0]):
            found = list(rows)
            problem = _step_problem(name, found, by_encounter.pop(name, []))
            if problem is not None:
                return self._bad(checked, "", *problem)
            checked += len(found)
        for name, steps in by_encounter.items():
            return self._bad(
                checked, "", None, f"encounter {name} has {len(steps)} step record(s) but no events"
            )
        return VerifyReport(True, checked, "")

    def missing_triggers(self) -> list[str]:
        """The append-only triggers this file should have and has not."""
        present = {
            row[0]
            for row in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = ?", ("trigger",)
            )
        }
        return [name for name in APPEND_ONLY_TRIGGERS if name not in present]

    # -- witnessed heads -----------------------------------------------------------------

    def head_code(self, encounter: str, step: int | None = None) -> str:
        """A short code for the log as it stands after `step` (default: the latest) of an
        encounter: the step and the first hex digits of the hash of its last event. Noted
        at the table, it lets `audit --head` prove the log still extends that point."""
        if step is None:
            version, step = self.head(encounter)
        else:
            version = self.history(encounter).record(step).last_version
        row = self.conn.execute(
            "SELECT hash FROM events WHERE encounter = ? AND version = ?", (encounter, version)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"encounter {encounter!r} has no step yet")
        return f"{step}-{row[0][:12]}"

    def check_head(self, encounter: str, code: str) -> str:
        """'' if this log still holds the witnessed head `code` of the encounter; otherwise
        what happened to it, in one line."""
        match = HEAD_CODE.match(code.strip().lower())
        if match is None:
            raise BadInputError(
                f"{code!r} is not a head code: it looks like 14-3fa9c0b1d2e4 (step, hash)"
            )
        step, prefix = int(match.group(1)), match.group(2)
        record = self.conn.execute(
            "SELECT last_version FROM steps WHERE encounter = ? AND step = ?", (encounter, step)
        ).fetchone()
        head_step = self.head(encounter)[1]
        if record is None:
            return (
                f"the log no longer reaches step {step} of encounter {encounter}: it ends at "
                f"step {head_step} (cut off, or not this log)"
            )
        row = self.conn.execute(
            "SELECT hash FROM events WHERE encounter = ? AND version = ?", (encounter, record[0])
        ).fetchone()
        if row is None or not row[0].startswith(prefix):
            return (
                f"step {step} of encounter {encounter} no longer ends in the witnessed hash "
                f"{prefix}: the log was rewritten at or before it"
            )
        return ""


def where(report: VerifyReport) -> str:
    """Where a report found its first problem, for a one-line message."""
    if report.first_bad_position is None:
        return "in its step records"
    return f"at position {report.first_bad_position}"


def _step_problem(
    encounter: str, events: list[tuple], records: list[StepRecord]
) -> tuple[int | None, str] | None:
    """The first way one encounter's step records and events disagree, as (position, why)."""
    for expected, row in enumerate(events, start=1):
        if row[1] != expected:
            return row[7], f"encounter {encounter} jumps from version {expected - 1} to {row[1]}"
    if not records:
        return events[0][7], f"encounter {encounter} has events but no step records"
    history = History.of(())
    for number, record in enumerate(records, start=1):
        first = (
            events[record.first_version - 1] if 0 < record.first_version <= len(events) else None
        )
        position = first[7] if first else None
        if record.step != number:
            return position, f"step {number} of encounter {encounter} has no step record"
        expected_first = history.head_version + 1
        if record.first_version != expected_first or record.last_version < record.first_version:
            if expected_first <= len(events):
                position = events[expected_first - 1][7]  # the first event no record covers
            return position, (
                f"step {number} of encounter {encounter} claims versions "
                f"{record.first_version}..{record.last_version}, but the next is {expected_first}"
            )
        if record.last_version > len(events):
            missing = events[-1][7] + 1  # where the first event it claims should be
            return missing, (
                f"step {number} of encounter {encounter} claims versions up to "
                f"{record.last_version}; the events stop at {len(events)}"
            )
        problem = _events_problem(record, events[record.first_version - 1 : record.last_version])
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
