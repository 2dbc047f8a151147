"""The SQLite backend: one file holding many encounters, its key file beside it.

What every backend shares (steps, chains, reading, checking) is in fracas.ledger.base;
this module opens the file, migrates it, and supplies SQLite's transactions and schema.
"""

import errno
import hashlib
import os
import secrets
import shutil
import sqlite3
import sys
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import cached_property
from pathlib import Path

import msgspec

from fracas.ledger import chain, durability
from fracas.ledger.base import (
    APPEND_ONLY_TRIGGERS,
    CREATE_GLANCE_INDEX,
    CREATE_SEED_INDEX,
    EVENT_COLUMNS,
    INSERT_NEW_EVENT,
    INSERT_REGISTRY,
    INSERT_STEP,
    SCHEMA,
    SNAPSHOTS_TABLE,
    LogStore,
    VerifyReport,
    now,
)
from fracas.ledger.errors import (
    BadInputError,
    ConflictError,
    FracasError,
    IntegrityError,
    NotFoundError,
    RefusedError,
)
from fracas.ledger.history import StepRecord
from fracas.ledger.keys import KeyFile, key_path
from fracas.ledger.values import is_hex


@contextmanager
def numpy_unseen() -> Iterator[None]:
    """Imports within it see numpy as absent, and nothing is kept of it after: sqlite-utils
    imports numpy where it is installed (to store numpy values, which fracas never passes),
    some 20 ms on every command once a package beside fracas brought numpy in."""
    if "numpy" in sys.modules:  # already imported by the program: nothing to save
        yield
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # an import of it fails
    try:
        yield
    finally:
        del sys.modules["numpy"]


with numpy_unseen():  # sqlite-utils imports numpy, where it is installed, on every command
    import sqlite_utils


LEGACY_COLUMNS = {
    1: EVENT_COLUMNS.replace("salt, scope", "NULL AS salt, 0 AS scope"),
    2: EVENT_COLUMNS.replace("scope", "0 AS scope"),
}


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
        if not is_hex(value):  # refused whole: the file stays as it was
            raise IntegrityError(
                f"{db.conn.execute('PRAGMA database_list').fetchone()[2]} keeps a sealed seed "
                "that is not hex (schema 1): it cannot be moved to the key file; restore "
                "the file from a backup"
            )
        keys.seal(hashlib.sha256(bytes.fromhex(value)).hexdigest(), value)
    db.execute("PRAGMA secure_delete=ON")
    db.execute("DROP TABLE secrets")


def _migration_3(db: sqlite_utils.Database, _keys: KeyFile) -> None:
    """A chain per encounter and the registry of encounters. Nothing already written is
    touched: older events keep their file chain (scope 0, the column's default), the
    registry is written from each encounter's first event, in the order they started."""
    db.execute("ALTER TABLE events ADD COLUMN scope INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX events_file_chain ON events (position) WHERE scope = 0")
    db.execute(
        "CREATE TABLE registry (seq INTEGER PRIMARY KEY, encounter TEXT NOT NULL UNIQUE, "
        "first_hash TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)"
    )
    db.executescript(_append_only_triggers("registry"))
    firsts = db.execute(
        "SELECT encounter, hash FROM events WHERE version = 1 ORDER BY position"
    ).fetchall()
    db.conn.executemany(
        INSERT_REGISTRY, [msgspec.structs.astuple(e) for e in chain.registry_of(firsts)]
    )


MIGRATIONS: list[Callable[[sqlite_utils.Database, KeyFile], None]] = [
    _migration_1,
    _migration_2,
    _migration_3,
]
assert len(MIGRATIONS) == SCHEMA
CHECKPOINT_EVERY = 64  # steps between WAL checkpoints


class Checkpointer:
    """Runs WAL checkpoints on its own connection and thread, so that no append waits for
    the copy of the WAL into the main file, nor that file's fsync. Commits stay durable:
    each one fsyncs the WAL itself. A checkpoint is housekeeping: when one fails (a full
    disk, a busy reader) the WAL simply keeps the pages until the next one, so failures
    are not reported.

    The WAL restarts from its beginning (its blocks overwritten, not the file extended) only
    at an append that finds every frame copied back; while appends follow each other
    closely, the frames appended during a checkpoint keep that from happening, so once
    this thread has run the appending connection copies those few itself (`finish`)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._wake = threading.Event()
        self._ran = threading.Event()
        self._owed = False  # a checkpoint was asked for and the appender has not finished it
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="fracas-checkpoint", daemon=True)
        self._thread.start()

    def request(self) -> None:
        self._ran.clear()
        self._owed = True
        self._wake.set()

    def finish(self, conn: sqlite3.Connection) -> None:
        """On the appending connection, once the thread has run: copy back the frames
        appended meanwhile, so that the next append restarts the WAL."""
        if self._owed and self._ran.is_set():
            self._owed = False
            with suppress(sqlite3.Error):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

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
                    conn.execute(f"PRAGMA synchronous={durability.SYNCHRONOUS}")
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                self._ran.set()
                if self._stopping:
                    return
        finally:
            conn.close()


def _read_only_connection(path: str) -> sqlite3.Connection:
    """A connection that can neither write nor lock: mode=ro, or immutable=1 where even a
    reader's shared-memory file cannot be made (read-only media). A file SQLite cannot read
    is refused in one line."""
    uri = Path(path).absolute().as_uri()
    try:
        try:
            conn = _probed(f"{uri}?mode=ro")
        except sqlite3.OperationalError:
            conn = _probed(f"{uri}?immutable=1")
    except UnicodeDecodeError:  # SQLite quoted bytes of a damaged schema in its message
        raise IntegrityError(
            f"{path} is damaged: its schema is not readable text; restore it from a backup"
        ) from None
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise BadInputError(
                f"{path} is not a fracas log (not an SQLite database); nothing was changed"
            ) from None
        raise IntegrityError(
            f"{path} is damaged: SQLite cannot open it ({error}); restore it from a backup"
        ) from None
    conn.execute("PRAGMA query_only=1")
    return conn


def _probed(uri: str) -> sqlite3.Connection:
    """A connection that has read the file's schema (where a damaged header shows)."""
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def is_not_text(error: sqlite3.Error) -> bool:
    """SQLite's text that Python could not decode: bytes that are not UTF-8 in a column."""
    return str(error).startswith("Could not decode to UTF-8")


def first_not_text(conn: sqlite3.Connection) -> tuple[int, str] | None:
    """(position, column) of the first event holding text that is not UTF-8, read as bytes
    (asked only once reading the log as text failed)."""
    factory = conn.text_factory
    conn.text_factory = bytes
    try:
        cursor = conn.execute("SELECT * FROM events ORDER BY position")
        names = [column[0] for column in cursor.description]
        for row in cursor:
            for name, value in zip(names, row, strict=True):
                if isinstance(value, bytes) and not _decodes(value):
                    return row[names.index("position")], name
    finally:
        conn.text_factory = factory
    return None


def _decodes(value: bytes) -> bool:
    try:
        value.decode()
    except UnicodeDecodeError:
        return False
    return True


def _not_text_error(path: str) -> FracasError:
    """Which event of the log at `path` is not UTF-8 text, in one line."""
    conn = _read_only_connection(path)
    try:
        found = first_not_text(conn)
    except sqlite3.DatabaseError as error:
        return IntegrityError(f"{path} is damaged ({error}); restore it from a backup")
    finally:
        conn.close()
    if found is None:
        return IntegrityError(f"{path} holds text that is not UTF-8; `fracas audit` says more")
    position, column = found
    return IntegrityError(
        f"{path} is damaged at position {position}: its {column} is not UTF-8 text; "
        "`fracas audit` says more"
    )


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


def describe_sqlite_error(error: sqlite3.Error, path: str) -> FracasError:
    """One line for what SQLite said, with what to do about it."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return ConflictError(
            f"{path} is busy: another program is writing to it; try again in a moment"
        )
    if "full" in text or ("i/o" in text and disk_full(path)):
        return full_disk(path)
    if "readonly" in text or "read-only" in text:
        return RefusedError(f"{path} is read-only here: it can be read, not written")
    if is_not_text(error) and path != ":memory:" and os.path.exists(path):
        return _not_text_error(path)
    if "malformed" in text:  # a damaged page: the events may well still read whole
        return IntegrityError(
            f"{path} is damaged ({error}): `fracas export --format jsonl -o rescue.jsonl` "
            "may still read its log, and `fracas --db NEW.db import rescue.jsonl` makes a "
            "sound copy; else restore it from a backup"
        )
    if "not a database" in text:
        return IntegrityError(
            f"{path} is damaged or not a fracas log ({error}); `fracas audit` says more"
        )
    return IntegrityError(f"{path} could not be used: {error}")


def disk_full(path: str) -> bool:
    """Whether the disk holding `path` has no room left (SQLite says only "disk I/O error"
    when it cannot grow its WAL there)."""
    try:
        return shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free < 1 << 16
    except OSError:
        return False


def full_disk(path: str) -> RefusedError:
    return RefusedError(
        f"the disk holding {path} is full: nothing was written; free some space and retry"
    )


def busy_timeout() -> float:
    """Seconds a writer waits for another writer's lock (env FRACAS_BUSY_TIMEOUT, default 10)."""
    try:
        return float(os.environ.get("FRACAS_BUSY_TIMEOUT", "10"))
    except ValueError:
        return 10.0


# the files of one SQLite log: the file, SQLite's WAL and shared memory, the key file and
# its journal
LOG_FILES = ("", "-wal", "-shm", ".keys", ".keys-journal")


def private_beside(path: str) -> str:
    """A new, empty file beside `path` that this process alone created (O_EXCL), where a
    new log is built before anyone else can see it."""
    directory, name = os.path.split(os.path.abspath(path))
    while True:
        private = os.path.join(directory, f".{name}.new-{secrets.token_hex(6)}")
        try:
            descriptor = os.open(private, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            continue
        except OSError as error:
            raise OSError(error.errno, error.strerror, path) from None
        os.close(descriptor)
        return private


def publish(private: str, path: str) -> bool:
    """Put a private log (closed, its WAL folded in) in place at `path` in one step, never
    over a file; its sealed secrets are added to `path`'s key file first, so the log never
    appears without them. False if `path` appeared meanwhile: then the log there is
    another process's, and nothing of it is touched (secrets added to its key file are
    orphans, which do no harm)."""
    wal = f"{private}-wal"
    if os.path.exists(wal) and os.path.getsize(wal) > 0:
        raise RefusedError(f"{path} could not be finished (its new log kept a WAL); try again")
    if os.path.lexists(path):
        return False
    _add_secrets(key_path(private), key_path(path))
    try:
        os.link(private, path)
    except FileExistsError:
        return False
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(path):  # no hard links here: a rename, after one more look
            return False
        os.rename(private, path)
    return True


def _add_secrets(source: str, target: str) -> None:
    if not os.path.exists(source):
        return
    private, shared = KeyFile(source, readonly=True), KeyFile(target)
    try:
        for name, value in private.items():
            shared.seal(name, value)
    finally:
        private.close()
        shared.close()


def on_disk(path: str) -> None:
    """Wait until the file's contents are on the disk (fsync)."""
    if not durability.flushed():
        return
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def discard(private: str) -> None:
    """Remove a private log's files (only ever one this process created alone)."""
    for suffix in LOG_FILES:
        with suppress(FileNotFoundError):
            os.remove(private + suffix)


def _create_whole(path: str) -> None:
    """A new, empty log at `path`, built privately and put in place whole: no process ever
    opens a half-made file (one being switched to WAL, or migrated)."""
    private = private_beside(path)
    try:
        # Built without waiting on the disk at each of its steps (nobody sees it half-made),
        # then brought to the disk once, whole, before it is put in place.
        Store(private, background_checkpoints=False, synchronous="OFF").close()
        on_disk(private)
        publish(private, path)  # False: another process made it first; that one is used
    finally:
        discard(private)


class Store(LogStore):
    """One SQLite file holding many encounters, and beside it the GM's key file.

    `readonly` opens without a lock, a migration or a file created (every read command);
    `create` lets a missing path become a new log (only `new`, `import` and `demo`)."""

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        readonly: bool = False,
        create: bool = True,
        synchronous: str | None = None,
        background_checkpoints: bool = True,
        keys: str | None = None,
    ) -> None:
        super().__init__()
        self.path = str(path)
        self.readonly = readonly
        self._checkpointer: Checkpointer | None = None
        self._steps_since_checkpoint = 0
        memory = self.path == ":memory:"
        self.keys = KeyFile(
            ":memory:" if memory else keys or key_path(self.path), readonly=readonly
        )
        if not memory and not os.path.exists(self.path):
            if readonly or not create:
                raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
            _create_whole(self.path)
        if readonly:
            conn = _read_only_connection(self.path)
            self.schema = fracas_schema(conn, self.path)
            if self.schema == 0:
                conn.close()
                raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
        else:
            if not memory and disk_full(self.path):  # before SQLite makes its WAL there
                self.keys.close()
                raise full_disk(self.path)
            if not memory and os.path.exists(self.path) and os.path.getsize(self.path) > 0:
                probe = _read_only_connection(self.path)
                try:
                    found = fracas_schema(probe, self.path)
                finally:
                    probe.close()
                if found == 0 and not create:
                    raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
            synchronous = synchronous or durability.SYNCHRONOUS
            conn = self._writer(memory, synchronous, background_checkpoints)
            if background_checkpoints and not memory:
                self._checkpointer = Checkpointer(self.path)
                weakref.finalize(self, self._checkpointer.stop)
        self._conn = conn
        if not readonly:
            try:
                self._migrate()
                conn.execute(SNAPSHOTS_TABLE)
                # a file made before these indexes gets them here; once there, this writes nothing
                conn.execute(CREATE_GLANCE_INDEX)
                conn.execute(CREATE_SEED_INDEX)
            except sqlite3.OperationalError as error:
                self.close()
                raise describe_sqlite_error(error, self.path) from None
            self.schema = SCHEMA
        self._legacy_secrets = self._read_legacy_secrets() if self.schema < 2 else {}

    dialect = "sqlite"
    unique_violation = (sqlite3.IntegrityError,)

    def _writer(self, memory: bool, synchronous: str, checkpoints: bool) -> sqlite3.Connection:
        """The connection that appends, in WAL mode; on a disk that is full or failing,
        closed again (so SQLite removes what it began) and refused in one line."""
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=busy_timeout())
        try:
            conn.execute(f"PRAGMA synchronous={synchronous}")  # first: it rules the switch too
            if not memory:
                conn.execute("PRAGMA journal_mode=WAL")
                if checkpoints:  # (the Checkpointer's thread runs them instead)
                    conn.execute("PRAGMA wal_autocheckpoint=0")
        except sqlite3.OperationalError as error:
            conn.close()
            self.keys.close()
            raise describe_sqlite_error(error, self.path) from None
        return conn

    def _described(self, error: BaseException) -> Exception | None:
        if isinstance(error, sqlite3.OperationalError):
            return describe_sqlite_error(error, self.path)
        return None

    @property
    def conn(self) -> sqlite3.Connection:
        return self._conn

    @property
    def _columns(self) -> str:
        return LEGACY_COLUMNS.get(self.schema, EVENT_COLUMNS)

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

    @contextmanager
    def _loading(self) -> Iterator[None]:
        """A load goes through a rollback journal rather than the WAL: a whole log is written
        to the file once, not to the WAL and then again by the checkpoint at close. It is as
        much one transaction (a refused load leaves the file as it was), and the file is
        back in WAL mode once the load is in or refused."""
        if self.path == ":memory:":
            yield
            return
        self._conn.execute("PRAGMA journal_mode=DELETE")
        try:
            yield
        finally:
            # busy (another connection reading just then): the next writer to open the file
            # switches it back, as every writer does
            with suppress(sqlite3.OperationalError):
                self._conn.execute("PRAGMA journal_mode=WAL")

    def _after_commit(self) -> None:
        if self._checkpointer is None:
            return
        self._checkpointer.finish(self._conn)
        self._steps_since_checkpoint += 1
        if self._steps_since_checkpoint >= CHECKPOINT_EVERY:
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
        return {hashlib.sha256(bytes.fromhex(v)).hexdigest(): v for (v,) in rows if is_hex(v)}

    def unseal(self, name: str) -> str | None:
        return self.keys.unseal(name) or self._legacy_secrets.get(name)

    # -- SQLite's part -------------------------------------------------------------------

    def _begin(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def _in_transaction(self) -> bool:
        return self._conn.in_transaction

    def _insert_step(self, rows: list[tuple], record: StepRecord) -> None:
        """Positions follow on from the last: the position is the table's rowid, which SQLite
        hands out as the largest so far plus one (one writer, holding the lock)."""
        self._conn.executemany(INSERT_NEW_EVENT, rows)
        self._conn.execute(INSERT_STEP, msgspec.structs.astuple(record))

    def _not_in_steps(self, steps: Sequence[int]) -> tuple[str, object]:
        return "step NOT IN (SELECT value FROM json_each(?))", msgspec.json.encode(
            list(steps)
        ).decode()

    def verify(self) -> VerifyReport:
        """As every backend's, but an event whose text is not UTF-8 is named, not raised."""
        try:
            return super().verify()
        except sqlite3.OperationalError as error:
            found = first_not_text(self._conn) if is_not_text(error) else None
            if found is None:
                raise
            return VerifyReport(False, 0, "", found[0], f"its {found[1]} is not UTF-8 text")

    def event_rows(self) -> Iterator[tuple]:
        """As every backend's, but an event whose text is not UTF-8 is named in one line."""
        with self._text_named():
            yield from super().event_rows()

    def event_batches(self, size: int) -> Iterator[list[tuple]]:
        """As every backend's, but fetched a list at a time (no Python step per row), and an
        event whose text is not UTF-8 is named in one line."""
        with self._text_named():
            cursor = super().event_rows()
            while batch := cursor.fetchmany(size):
                yield batch

    @contextmanager
    def _text_named(self) -> Iterator[None]:
        """SQLite's refusal to read text that is not UTF-8, as the event it is in."""
        try:
            yield
        except sqlite3.OperationalError as error:
            found = first_not_text(self._conn) if is_not_text(error) else None
            if found is None:
                raise
            raise IntegrityError(
                f"the log is damaged at position {found[0]}: its {found[1]} is not UTF-8 "
                "text; `fracas audit` says more"
            ) from None

    def missing_triggers(self) -> list[str]:
        """The append-only triggers this file should have and has not."""
        present = {
            row[0]
            for row in self._conn.execute(
                "SELECT name FROM sqlite_master WHERE type = ?", ("trigger",)
            )
        }
        expected = APPEND_ONLY_TRIGGERS if self.schema >= SCHEMA else APPEND_ONLY_TRIGGERS[:4]
        return [name for name in expected if name not in present]

    @cached_property
    def _has_snapshots(self) -> bool:
        return not self.readonly or "snapshots" in self.tables()

    def _snapshots_ready(self) -> bool:
        return self._has_snapshots

    def tables(self) -> set[str]:
        cursor = self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
        )
        return {row[0] for row in cursor}

    def columns(self, table: str) -> set[str]:
        return {row[1] for row in self._conn.execute(f"PRAGMA table_info({table})")}

    def data_version(self) -> int:
        return self._conn.execute("PRAGMA data_version").fetchone()[0]
