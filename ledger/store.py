"""The SQLite store: an append-only, hash-chained event log with steps and sealed secrets.

This is the only module of fracas.ledger that speaks SQL. It knows nothing of any ruleset:
bodies are JSON text it stores and hands back untouched.
"""

import hashlib
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import sqlite_utils

from fracas.ledger.errors import ConflictError, IntegrityError, NotFoundError, RefusedError
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO, History, StepRecord

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
    "position, encounter, version, step, kind, author, at, schema, body, prev_hash, hash"
)
STEP_COLUMNS = (
    "encounter, step, command_id, control, target, first_version, last_version, author, at"
)


def chain_hash(prev_hash: str, row: Sequence[object]) -> str:
    """SHA-256 over the previous hash and the exact stored values of one row."""
    return hashlib.sha256(prev_hash.encode() + msgspec.json.encode(list(row))).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _append_only_triggers(table: str) -> str:
    return f"""
    CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, 'fracas: {table} is append-only; nothing may be updated'); END;
    CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table}
    BEGIN SELECT RAISE(ABORT, 'fracas: {table} is append-only; nothing may be deleted'); END;
    """


def _migration_1(db: sqlite_utils.Database) -> None:
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


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [_migration_1]
CHECKPOINT_EVERY = 64  # steps between WAL checkpoints


class Checkpointer:
    """Runs WAL checkpoints on its own connection and thread, so that no append waits
    for the main file's fsync. Commits stay durable: each one fsyncs the WAL itself."""

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
        conn = sqlite3.connect(self.path, timeout=10.0)
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if self._stopping:
                    return
        finally:
            conn.close()


class Store:
    """One SQLite file holding many encounters."""

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        synchronous: str = "FULL",
        background_checkpoints: bool = True,
    ) -> None:
        self.path = str(path)
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        self.db = sqlite_utils.Database(conn)
        self._checkpointer: Checkpointer | None = None
        self._steps_since_checkpoint = 0
        if self.path != ":memory:":
            conn.execute("PRAGMA journal_mode=WAL")
            if background_checkpoints:
                conn.execute("PRAGMA wal_autocheckpoint=0")
                self._checkpointer = Checkpointer(self.path)
                weakref.finalize(self, self._checkpointer.stop)
        conn.execute(f"PRAGMA synchronous={synchronous}")
        self._migrate()

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.db.close()

    def _after_commit(self) -> None:
        self._steps_since_checkpoint += 1
        if self._checkpointer and self._steps_since_checkpoint >= CHECKPOINT_EVERY:
            self._steps_since_checkpoint = 0
            self._checkpointer.request()

    def _migrate(self) -> None:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS fracas_migrations "
                "(version INTEGER PRIMARY KEY, at TEXT)"
            )
            done = conn.execute("SELECT coalesce(max(version), 0) FROM fracas_migrations")
            applied = done.fetchone()[0]
            for version, migration in enumerate(MIGRATIONS, start=1):
                if version > applied:
                    migration(self.db)
                    conn.execute("INSERT INTO fracas_migrations VALUES (?, ?)", (version, now()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @property
    def schema_version(self) -> int:
        return self.conn.execute("SELECT max(version) FROM fracas_migrations").fetchone()[0]

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
            digest = chain_hash(prev_hash, row)
            rows.append((*row, prev_hash, digest))
            prev_hash = digest
        conn.executemany(
            f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows
        )
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
        secrets: Iterable[tuple[str, str, str]] = (),
        project: Projector | None = None,
    ) -> VerifyReport:
        """Take in a whole exported log, byte for byte, into this empty file, in one
        transaction; refused (and nothing kept) unless every hash link holds."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise RefusedError(
                    f"{self.path} already holds events: import into a new, empty file"
                )
            conn.executemany(
                f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (msgspec.structs.astuple(e) for e in events),
            )
            conn.executemany(
                f"INSERT INTO steps ({STEP_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
                (msgspec.structs.astuple(r) for r in steps),
            )
            conn.executemany("INSERT INTO secrets VALUES (?, ?, ?)", secrets)
            report = self.verify()
            if not report.ok:
                raise IntegrityError(
                    f"the export is damaged at position {report.first_bad_position}: "
                    f"{report.reason}; nothing was imported"
                )
            if project is not None:
                project(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return report

    def secrets(self) -> list[tuple[str, str, str]]:
        """Every sealed secret (encounter, name, value): only a GM's backup carries them."""
        return list(self.conn.execute("SELECT encounter, name, value FROM secrets ORDER BY 1, 2"))

    def event_at(self, position: int) -> StoredEvent | None:
        row = self.conn.execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE position = ?", (position,)
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

    def seal(self, encounter: str, name: str, value: str) -> None:
        """Keep a secret (a dice seed) beside the log, outside it, until it is revealed."""
        with self.db.atomic():
            self.conn.execute("INSERT INTO secrets VALUES (?, ?, ?)", (encounter, name, value))

    def unseal(self, encounter: str, name: str) -> str | None:
        row = self.conn.execute(
            "SELECT value FROM secrets WHERE encounter = ? AND name = ?", (encounter, name)
        ).fetchone()
        return row[0] if row else None

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

    def rows(self, encounter: str, *, up_to_step: int | None = None) -> Iterator[tuple]:
        """Stream (step, kind, schema, body) of an encounter in version order."""
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
            cursor = self.conn.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY position")
        else:
            cursor = self.conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE encounter = ? ORDER BY version",
                (encounter,),
            )
        return (StoredEvent(*row) for row in cursor)

    def verify(self) -> VerifyReport:
        """Check every hash link of the file; name the first bad position."""
        prev_hash, checked, expected_position = GENESIS, 0, 1
        for event in self.events():
            row = (
                event.position,
                event.encounter,
                event.version,
                event.step,
                event.kind,
                event.author,
                event.at,
                event.schema,
                event.body,
            )
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
            if chain_hash(prev_hash, row) != event.hash:
                return self._bad(
                    checked,
                    prev_hash,
                    event.position,
                    "its content does not match its hash (edited after writing)",
                )
            prev_hash, checked, expected_position = event.hash, checked + 1, expected_position + 1
        return VerifyReport(True, checked, prev_hash)

    @staticmethod
    def _bad(checked: int, head: str, position: int, reason: str) -> VerifyReport:
        return VerifyReport(False, checked, head, position, reason)

    def require_intact(self) -> None:
        report = self.verify()
        if not report.ok:
            raise IntegrityError(
                f"the log is broken at position {report.first_bad_position}: {report.reason}"
            )
