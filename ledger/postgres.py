"""The PostgreSQL backend: many logs' worth of tables, one server, many writers at once.

`postgresql://user@host:port/dbname?schema=NAME` names a log: its tables live in the
schema NAME (default `fracas`), its sealed secrets in the schema `NAME_keys`, apart, so a
role granted the log's schema can read every event and no seed. Appends to different
encounters touch disjoint rows (a chain per encounter, positions from a sequence), so
they never wait on each other; only starting an encounter takes the registry's lock.
"""

import functools
import itertools
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import msgspec
import psycopg
from psycopg import errors, sql
from psycopg.pq import TransactionStatus

from fracas.ledger.base import (
    APPEND_ONLY_TABLES,
    APPEND_ONLY_TRIGGERS,
    CREATE_GLANCE_INDEX,
    GLANCE_INDEX,
    INSERT_NEW_EVENT,
    INSERT_STEP,
    SCHEMA,
    SNAPSHOTS_TABLE,
    STEP_COLUMNS,
    Append,
    AppendResult,
    Head,
    LogStore,
    now,
)
from fracas.ledger.errors import (
    BadInputError,
    ConflictError,
    NotFoundError,
    RefusedError,
    UnreachableError,
)
from fracas.ledger.history import StepRecord
from fracas.ledger.open import describe_database_error, shown
from fracas.ledger.players import MARK, players_schema
from fracas.ledger.players import statements as players_statements

DEFAULT_SCHEMA = "fracas"
_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,50}\Z")
_pools: dict[str, Any] = {}
_pools_lock = threading.Lock()
_cursor_names = itertools.count(1)
RECONNECT_SECONDS = 5.0  # how long a call waits for a restarting server before refusing
RETRIES = 12  # attempts of an append that lost a lock race (a deadlock, a serialisation)
BACKOFF = (0.002, 0.25)  # the first and the longest pause between two attempts, seconds
# a transaction the server rolled back because another one held what it needed: trying it
# again on the new head is all a writer can do
RACES = (errors.SerializationFailure, errors.DeadlockDetected)


def _not_an_error_ignored(record: logging.LogRecord) -> bool:
    """psycopg's warning that it ignored a second error while one was already raised (a
    pipeline or a rollback ending after the server refused a write): fracas says the first
    in its own line; the warning was a line of stderr before it."""
    return not record.getMessage().startswith("error ignored")


logging.getLogger("psycopg").addFilter(_not_an_error_ignored)


def split_url(url: str) -> tuple[str, str]:
    """(conninfo for libpq, schema name) from a fracas PostgreSQL URL."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    schema = query.pop("schema", DEFAULT_SCHEMA)
    if not _NAME.match(schema):
        raise BadInputError(
            f"{schema!r} is not a schema name fracas can use: lower-case letters, digits and _"
        )
    return urlunsplit(parts._replace(query=urlencode(query))), schema


@functools.lru_cache(maxsize=512)
def _pg(statement: str) -> str:
    return statement.replace("%", "%%").replace("?", "%s")


_VALUES = re.compile(r"^INSERT INTO (\w+) \(([^)]*)\) VALUES \([?, ]+\)(.*)$", re.S)
_KEYED_DELETE = re.compile(r"^DELETE FROM (\w+) WHERE (\w+ = \?(?: AND \w+ = \?)*)$")
_KEYED_UPDATE = re.compile(
    r"^UPDATE (\w+) SET (\w+ = \?(?:, \w+ = \?)*) WHERE (\w+ = \?(?: AND \w+ = \?)*)$"
)


class Part:
    """One statement over many rows as one statement over one JSON parameter (the rows as
    the table's row type): what lets an append's writes travel as one statement."""

    def __init__(self, table: str, statement: str, columns: tuple[str, ...]) -> None:
        self.table = table
        self.statement = statement  # with one %s: the rows as JSON
        self._record = msgspec.defstruct(f"{table}_row", columns)  # encodes as an object

    def param(self, rows: Sequence[Sequence[object]]) -> str:
        return _encode([self._record(*row) for row in rows]).decode()

    def written(self, rows: Sequence[Sequence[object]]) -> tuple[tuple[str, ...], list[object]]:
        """This part's statements inside an append's one statement, for these rows, and
        their parameters in order."""
        return (self.statement,), [self.param(rows)]


class KeyedUpdates(Part):
    """A keyed UPDATE of a few rows (an append's usual one or two of a table) as one UPDATE
    each, its values plain parameters typed by the columns they are written to: the server
    rewrites a row so about three times quicker than by reading it out of JSON (0.009 ms
    against 0.025), and the client encodes no JSON. More than ROW_BY_ROW rows go as JSON."""

    def __init__(self, table: str, statement: str, columns: tuple[str, ...], one: str) -> None:
        super().__init__(table, statement, columns)
        self.one = one

    def written(self, rows: Sequence[Sequence[object]]) -> tuple[tuple[str, ...], list[object]]:
        if len(rows) > ROW_BY_ROW:
            return super().written(rows)
        return (self.one,) * len(rows), [value for row in rows for value in row]


ROW_BY_ROW = 4


class Inserts(Part):
    """An INSERT's rows as plain parameters, as quick for the server as keyed updates are
    (an attack's seven events 0.055 ms against 0.078): one row as it is (a NULL typed by
    its column); several in their order as a list of VALUES, when each column holds str or
    int values of one kind (a list of VALUES types its columns by their values, a NULL as
    text); any other rows as JSON. (The statements of one WITH run in no set order: a
    step's events, whose positions follow their versions, go as one statement.)"""

    def __init__(self, table: str, statement: str, columns: tuple[str, ...], tail: str) -> None:
        super().__init__(table, statement, columns)
        self.tail = _pg(tail)
        self.listed = f"INSERT INTO {table} ({', '.join(columns)}) SELECT"
        self.row = f"({', '.join(['%s'] * len(columns))})"
        self._texts: dict[int, tuple[str]] = {}

    def written(self, rows: Sequence[Sequence[object]]) -> tuple[tuple[str, ...], list[object]]:
        if len(rows) > 1 and not _plain(rows):
            return super().written(rows)
        if len(rows) not in self._texts:
            self._texts[len(rows)] = (self._text(len(rows)),)
        return self._texts[len(rows)], [value for row in rows for value in row]

    def _text(self, rows: int) -> str:
        source = (
            self.row[1:-1] if rows == 1 else f"* FROM (VALUES {', '.join([self.row] * rows)}) AS v"
        )
        return f"{self.listed} {source}{self.tail}"


def _plain(rows: Sequence[Sequence[object]]) -> bool:
    """Whether every column of `rows` holds str values or int values (not bools), all
    of one kind."""
    kinds = tuple(map(type, rows[0]))
    if not all(kind is str or kind is int for kind in kinds):
        return False
    return all(tuple(map(type, row)) == kinds for row in rows)


_encode = msgspec.json.Encoder().encode


# An append's one statement reads the registry's count of encounters begun in its own
# snapshot and fails unless it is the count the append's hashes name: a division by zero
# (never a constant one, which the planner would raise at once), so the whole statement
# writes nothing. One check for the statement, where a condition on each of its writes
# cost the server an initplan each (0.03 ms of an attack's append).
COUNTED = (
    "begun AS (SELECT CASE WHEN n = %s THEN n ELSE n / 0 END AS n "
    "FROM (SELECT coalesce(max(seq), 0) AS n FROM registry) c)"
)


def _names(terms: str, joiner: str) -> tuple[str, ...]:
    """The columns of `a = ?<joiner>b = ?`."""
    return tuple(term.split(" = ")[0] for term in terms.split(joiner))


def _keyed_rows(table: str) -> str:
    """The rows of the one JSON parameter, to join a table on its key. PostgreSQL plans
    json_populate_recordset as 100 rows, which hashes a whole table of a few thousand rows
    (every encounter's) to rewrite one; an array's unnest is planned as 10, so the key's
    index is used."""
    return f"unnest(ARRAY(SELECT json_populate_recordset(NULL::{table}, %s::json)))"


@functools.lru_cache(maxsize=256)
def as_part(statement: str) -> Part | None:
    """`INSERT ... VALUES (?, ...) [ON CONFLICT ...]`, `DELETE ... WHERE k = ? AND ...` or
    `UPDATE ... SET a = ?, ... WHERE k = ? AND ...` as a Part; None for any other
    statement."""
    if match := _VALUES.match(statement):
        table, names, tail = match.groups()
        columns = tuple(name.strip() for name in names.split(","))
        listed = ", ".join(columns)
        insert = (
            f"INSERT INTO {table} ({listed}) SELECT {listed} FROM "
            f"json_populate_recordset(NULL::{table}, %s::json)"
        )
        return Inserts(table, insert + _pg(tail), columns, tail)
    if match := _KEYED_UPDATE.match(statement):
        table, assignments, condition = match.groups()
        values, keys = _names(assignments, ", "), _names(condition, " AND ")
        if set(values) & set(keys):  # a key rewritten: one JSON row cannot say both
            return None
        update = (
            f"UPDATE {table} SET {', '.join(f'{c} = g.{c}' for c in values)} "
            f"FROM {_keyed_rows(table)} AS g "
            f"WHERE {' AND '.join(f'{table}.{c} = g.{c}' for c in keys)}"
        )
        return KeyedUpdates(table, update, values + keys, _pg(statement))
    if match := _KEYED_DELETE.match(statement):
        table, condition = match.groups()
        columns = _names(condition, " AND ")
        joined = " AND ".join(f"{table}.{c} = g.{c}" for c in columns)
        delete = f"DELETE FROM {table} USING {_keyed_rows(table)} AS g WHERE {joined}"
        return Part(table, delete, columns)
    return None


class Recording:
    """The writes of an append, kept rather than run, to be sent together."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, list[Sequence[object]]]] = []

    def execute(self, statement: str, params: Sequence[object] = ()) -> None:
        self.writes.append((statement, [params]))

    def executemany(self, statement: str, rows: Sequence[Sequence[object]]) -> None:
        if rows := list(rows):
            self.writes.append((statement, rows))

    def as_one_statement(self, begun: int | None = None) -> tuple[str, list[object]] | None:
        """Every write as one data-modifying WITH: one statement, so one transaction with
        no BEGIN or COMMIT. With `begun`, it fails, writing nothing, unless the log has
        still begun that many encounters, and answers that count. None unless each write
        is a Part and writes a table no other part writes (the parts of one statement do
        not see each other's rows)."""
        parts = [(as_part(statement), rows) for statement, rows in self.writes]
        found = [(part, rows) for part, rows in parts if part is not None]
        tables = {part.table for part, _ in found}
        if len(found) != len(parts) or len(tables) != len(found):
            return None
        written = [part.written(rows) for part, rows in found]
        texts = tuple(text for each, _ in written for text in each)
        params = [value for _, each in written for value in each]
        if begun is None:
            return _with(texts), params
        return _counted_with(texts), [begun, *params]


@functools.lru_cache(maxsize=256)
def _with(statements: tuple[str, ...]) -> str:
    ctes = ", ".join(f"w{i} AS ({s})" for i, s in enumerate(statements[:-1]))
    return f"WITH {ctes} {statements[-1]}" if ctes else statements[-1]


@functools.lru_cache(maxsize=256)
def _counted_with(statements: tuple[str, ...]) -> str:
    ctes = ", ".join(f"w{i} AS ({s})" for i, s in enumerate(statements))
    return f"WITH {COUNTED}, {ctes} SELECT n FROM begun"


def run_one(conn: "Connection", statement: str, params: list[object]) -> psycopg.RawCursor:
    """An append's one statement, prepared from its first run, through the connection's
    raw cursor: its text numbered once, not parsed for placeholders at every append
    (psycopg parses again each time a statement of more than 50 parameters or 4096
    characters), and the cursor kept from one append to the next (a new one looked up how
    to send each parameter's type again: a third of psycopg's own work on an append)."""
    return conn.raw_cursor().execute(_numbered(statement), params, prepare=True)


_PLACEHOLDER = re.compile(r"%[s%]")


@functools.lru_cache(maxsize=256)
def _numbered(statement: str) -> str:
    """`%s` placeholders as PostgreSQL's own `$1`, `$2`, ... (and `%%` as `%`)."""
    numbers = itertools.count(1)
    return _PLACEHOLDER.sub(
        lambda found: f"${next(numbers)}" if found.group() == "%s" else "%", statement
    )


class StaleCount(Exception):
    """The log began another encounter since this store last looked: the append wrote
    nothing, and is written again naming the new count."""


class Connection:
    """psycopg's connection speaking the `?` placeholders the shared SQL is written in.

    A connection the server dropped (a restart, a network cut) is replaced by `reopen`
    before the next statement; a statement that ran on its own (no transaction open) is run
    again on the new one, since every write fracas sends on its own is idempotent (an
    append's command id, a seal's name). A transaction cut in the middle is lost: one line
    says so and the next call starts afresh."""

    def __init__(
        self,
        conn: psycopg.Connection,
        reopen: Callable[[], psycopg.Connection] | None = None,
        where: str = "",
    ) -> None:
        self.raw = conn
        self._reopen = reopen
        self.where = where
        self._cursor: psycopg.RawCursor | None = None

    def raw_cursor(self) -> psycopg.RawCursor:
        """A raw cursor on the live connection, the same from one statement to the next
        (a reopened connection gets a new one)."""
        cursor = self._cursor
        if cursor is None or cursor.connection is not self.raw or cursor.closed:
            cursor = self._cursor = psycopg.RawCursor(self.raw)
        return cursor

    @property
    def lost(self) -> bool:
        return self.raw.closed or self.raw.broken

    def ensure(self) -> None:
        """A live connection: the dropped one replaced (waiting for the server a while)."""
        if self.lost and self._reopen is not None:
            self.raw = self._reopen()

    def cut(self, error: Exception) -> UnreachableError:
        return UnreachableError(
            f"the connection to the log server at {self.where} was cut ({reason(error)}) "
            "before its transaction ended; look at the fight again, then run the command again",
            self.where,
        )

    def execute(self, statement: str, params: Sequence[object] = ()) -> psycopg.Cursor:
        return self._guarded(self._execute, statement, params)

    def executemany(self, statement: str, rows: Sequence[Sequence[object]]) -> None:
        self._guarded(self._executemany, statement, rows)

    def _guarded(self, run: Callable[..., Any], statement: str, params: Any) -> Any:
        self.ensure()
        alone = not self.in_transaction
        try:
            return run(statement, params)
        except psycopg.OperationalError as error:
            if not self.lost or self._reopen is None:
                raise
            if not alone:
                raise self.cut(error) from None
        self.ensure()
        return run(statement, params)

    def _execute(self, statement: str, params: Sequence[object] = ()) -> psycopg.Cursor:
        if not params:
            return self.raw.execute(statement)  # no placeholders parsed: `?` and `%` stay
        return self.raw.execute(_pg(statement), params)

    def _executemany(self, statement: str, rows: Sequence[Sequence[object]]) -> None:
        """Many rows of an `INSERT ... VALUES (?, ...)` or a keyed DELETE as one statement,
        the rows as one JSON parameter; any other statement row by row."""
        rows = list(rows)
        if not rows:
            return
        part = as_part(statement)
        if part is None:
            with self.raw.cursor() as cursor:
                cursor.executemany(_pg(statement), rows)
            return
        self.raw.execute(part.statement, (part.param(rows),))

    @property
    def in_transaction(self) -> bool:
        if self.lost:
            return False  # the server has forgotten it
        return self.raw.info.transaction_status != TransactionStatus.IDLE


def reason(error: Exception) -> str:
    """The last line of what libpq said (never the password: libpq does not repeat it)."""
    lines = str(error).strip().splitlines()
    return lines[-1].strip() if lines else "no reason given"


def use_pool(url: str, max_size: int = 16) -> None:
    """Let every store opened on `url` in this process borrow from one connection pool
    (what `fracas serve` does: a reader and a console per encounter share a few)."""
    from psycopg_pool import ConnectionPool

    # the pool logs every failed reconnection; fracas says it once, in its own words
    logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())
    conninfo, _schema = split_url(url)
    with _pools_lock:
        if conninfo not in _pools:
            _pools[conninfo] = ConnectionPool(
                conninfo,
                min_size=1,
                max_size=max_size,
                kwargs={"autocommit": True},
                check=ConnectionPool.check_connection,  # none the server dropped is lent
                open=True,
                name="fracas",
            )


def close_pools() -> None:
    with _pools_lock:
        for pool in _pools.values():
            pool.close()
        _pools.clear()


class Keys:
    """Sealed secrets in the schema NAME_keys: added, never replaced."""

    def __init__(self, conn: Connection, schema: str) -> None:
        self.conn = conn
        self.table = f"{schema}_keys.sealed"
        self.path = f"the table {self.table}"

    def seal(self, name: str, value: str) -> None:
        self.conn.execute(
            f"INSERT INTO {self.table} VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (name, value),
        )

    def unseal(self, name: str) -> str | None:
        try:
            row = self.conn.execute(
                f"SELECT value FROM {self.table} WHERE name = ?", (name,)
            ).fetchone()
        except errors.InsufficientPrivilege:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            return None  # a reader who may not see the seeds simply has none
        return row[0] if row else None

    def close(self) -> None:
        pass


class PostgresStore(LogStore):
    """One log in one schema of a PostgreSQL database."""

    dialect = "postgresql"
    unique_violation = (errors.UniqueViolation,)

    def __init__(self, url: str, *, readonly: bool = False, create: bool = True) -> None:
        super().__init__()
        self._recording: Recording | None = None
        self._begun_seen: int | None = None  # the encounters begun, as the last append found
        self._closed = False
        conninfo, self.name = split_url(url)
        self.path, self.readonly = shown(url), readonly
        self._pool = _pools.get(conninfo)
        self._conninfo = conninfo
        raw = self._connect()
        self.conn = Connection(raw, self._reconnect, self.path)
        try:
            self._set_up(raw)
            self.schema = self._applied()
            if self.schema == 0 and (readonly or not create):
                raise NotFoundError(f"no fracas log at {self.path}; `fracas new` starts one")
            if self.schema > SCHEMA:
                raise RefusedError(
                    f"{self.path} was written by a newer fracas (log schema {self.schema}; "
                    f"this fracas reads up to schema {SCHEMA}): upgrade fracas to open it"
                )
            if not readonly and self.schema < SCHEMA:
                self._migrate()
            elif not readonly:
                if self._players_mark() != MARK:
                    self._update_players()
                if not self._glance_indexed():
                    self._add_glance_index()
        except BaseException:
            self._release(raw)
            raise
        self.keys = Keys(self.conn, self.name)

    def _set_up(self, raw: psycopg.Connection) -> None:
        """What every connection of this store says first: whose tables, read-only or not."""
        raw.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(self.name)))
        if self.readonly:
            raw.execute("SET default_transaction_read_only = on")

    def _connect(self) -> psycopg.Connection:
        try:
            return self._borrow()
        except psycopg.OperationalError as error:
            raise RefusedError(
                f"could not reach PostgreSQL at {self.path}: {reason(error)}; "
                "is the server running?"
            ) from None

    def _borrow(self, timeout: float = 30.0) -> psycopg.Connection:
        if self._pool is not None:
            return self._pool.getconn(timeout=timeout)
        return psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10)

    def _reconnect(self) -> psycopg.Connection:
        """A connection in place of one the server dropped, once the server answers again
        (within RECONNECT_SECONDS; else one line saying it is unreachable)."""
        self._release(self.conn.raw)
        deadline = time.monotonic() + RECONNECT_SECONDS
        pause = 0.05
        while True:
            try:
                raw = self._borrow(timeout=max(deadline - time.monotonic(), 0.1))
                self._set_up(raw)
                self._tips.clear()  # what this store wrote last is read again, not assumed
                return raw
            except psycopg.OperationalError as error:
                if time.monotonic() + pause > deadline:
                    raise UnreachableError(
                        f"the log server at {self.path} is unreachable ({reason(error)}); "
                        "try again once it is back",
                        self.path,
                    ) from None
            time.sleep(pause * random.uniform(0.5, 1.0))
            pause = min(pause * 2, 0.5)

    def _release(self, raw: psycopg.Connection) -> None:
        if self._pool is None:
            raw.close()
            return
        if not (raw.closed or raw.broken):
            try:
                if raw.info.transaction_status != TransactionStatus.IDLE:
                    raw.rollback()
                raw.execute("RESET ALL")
            except psycopg.OperationalError:
                pass  # dropped on the way back: the pool discards it
        self._pool.putconn(raw)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._release(self.conn.raw)

    def _applied(self) -> int:
        """The log's schema version; 0 if it has no tables yet. (Read from pg_class with a
        fresh snapshot: a creator that just committed is seen, unlike to_regclass's cache.)"""
        if not self._has_relation("fracas_migrations"):
            return 0
        row = self.conn.execute("SELECT coalesce(max(version), 0) FROM fracas_migrations")
        return row.fetchone()[0]

    def _has_relation(self, name: str) -> bool:
        """Whether the log's schema holds a table or index of that name."""
        present = self.conn.execute(
            "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = ? AND c.relname = ?",
            (self.name, name),
        )
        return present.fetchone() is not None

    def _players_mark(self) -> str | None:
        row = self.conn.execute(
            "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = ?",
            (players_schema(self.name),),
        ).fetchone()
        return row[0] if row else None

    def _update_players(self) -> None:
        """A log made before the players' schema, or before its current rule: brought up to
        date by the first writer to open it (grants on its views are kept)."""
        try:
            with self.exclusive():
                if self._players_mark() != MARK:
                    for statement in players_statements(self.name):
                        self.conn.execute(statement)
        except errors.InsufficientPrivilege:
            pass  # a writer who may not create schemas: the log's owner will, on opening it

    def _glance_indexed(self) -> bool:
        return self._has_relation(GLANCE_INDEX)

    def _add_glance_index(self) -> None:
        """A log made before the glance's index gets it from its first writer; a read goes
        on without it meanwhile, only slower."""
        try:
            with self.exclusive():
                self.conn.execute(CREATE_GLANCE_INDEX)
        except errors.InsufficientPrivilege:
            pass  # a writer who does not own the tables: the log's owner will add it

    def _migrate(self) -> None:
        """Create the log's schema (one creator at a time: an advisory lock on its name)."""
        self._begin()
        try:
            self._lock_log()
            if self._applied() == 0:
                for statement in _schema_statements(self.name):
                    self.conn.execute(statement)
                for version in range(1, SCHEMA + 1):
                    self.conn.execute(
                        "INSERT INTO fracas_migrations VALUES (?, ?)", (version, now())
                    )
            self._commit()
        except BaseException:
            self._rollback()
            raise
        self.schema = SCHEMA

    # -- PostgreSQL's part ---------------------------------------------------------------

    def _begin(self) -> None:
        self.conn.execute("BEGIN")

    def _in_transaction(self) -> bool:
        return self.conn.in_transaction

    def _stream(self, statement: str, params: Sequence[object] = ()) -> Any:
        """Inside a transaction (a snapshot, an export, a copy), a server-side cursor fetched
        2000 rows at a time: a long log is never held whole in memory."""
        if not self.conn.in_transaction:
            return self.conn.execute(statement, params)
        try:
            cursor = self.conn.raw.cursor(name=f"fracas_{next(_cursor_names)}")
            cursor.itersize = 2000
            cursor.execute(_pg(statement) if params else statement, params or None)
        except psycopg.OperationalError as error:
            raise self._cut(error) from None
        return self._fetched(cursor)

    def _fetched(self, cursor: psycopg.ServerCursor) -> Iterator[Any]:
        try:
            yield from cursor
        except psycopg.OperationalError as error:
            raise self._cut(error) from None

    def _cut(self, error: psycopg.OperationalError) -> Exception:
        """A transaction's statement failed: if the server dropped the connection, one line
        (the next call reconnects); else the error itself."""
        return self.conn.cut(error) if self.conn.lost else error

    def _begin_reading(self) -> None:
        self.conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def _rollback(self) -> None:
        if self.conn.in_transaction:  # (never on a dropped connection: nothing to undo)
            self.conn.raw.rollback()

    def _append_step(self, owned: bool, asked: Append, known: Head | None) -> AppendResult:
        """An append, tried again when the server rolled it back for a lock race (with a
        growing, jittered pause, up to RETRIES times; then the one-line conflict) or dropped
        the connection (once it answers again; the command id keeps it from being recorded
        twice), or wrote nothing because another encounter began meanwhile (at once, naming
        the new count). Inside a batch, the batch's caller decides."""
        pause, cut = BACKOFF[0], False
        for attempt in range(1, RETRIES + 1):
            self.conn.ensure()
            used = self.conn.raw  # (a statement may have replaced it on its way out)
            try:
                result = self._append_once(owned, asked, known)
            except StaleCount:
                continue
            except RACES as error:
                self._rollback()
                if not owned or attempt == RETRIES:
                    raise ConflictError(
                        f"encounter {asked.encounter} is busy with other writers "
                        f"({reason(error)}); look at the fight again and run the command again"
                    ) from None
            except psycopg.OperationalError as error:
                if not (used.closed or used.broken or self.conn.lost):
                    raise
                if not owned:
                    raise self.conn.cut(error) from None
                cut = True
            else:
                return self._as_written(asked, result) if cut and result.duplicate else result
            known = None
            time.sleep(pause * random.uniform(0.5, 1.0))
            pause = min(pause * 2, BACKOFF[1])
        raise ConflictError(
            f"encounters kept beginning while encounter {asked.encounter} was appended to; "
            "nothing was written: run the command again"
        )

    def _as_written(self, asked: Append, found: AppendResult) -> AppendResult:
        """The step an attempt wrote before the server dropped its connection (the answer
        was lost, the commit was not): the result that attempt would have returned."""
        if found.first_version != asked.expected_version + 1:
            return found  # recorded before this call: a retry of an older command
        row = self.conn.execute(
            f"SELECT {STEP_COLUMNS} FROM steps WHERE encounter = ? AND step = ?",
            (asked.encounter, found.step),
        ).fetchone()
        self._written = None
        record = StepRecord(*row)
        return AppendResult(found.step, found.first_version, found.last_version, record=record)

    def _append_once(self, owned: bool, asked: Append, known: Head | None) -> AppendResult:
        """An append to an encounter already started, on its own: its events, its step and
        its read models as one statement, a transaction of its own with no BEGIN or
        COMMIT, after reading the head (no read when this store wrote the head and knows
        how many encounters the log has begun: the statement writes nothing if that count
        moved). The unique keys on (encounter, version) and (encounter, command_id) refuse
        it if another writer moved on since. Anything else: the shared transaction, its
        statements pipelined (one round trip to read the head, one for the rest)."""
        if not owned or asked.expected_version == 0:
            with self.conn.raw.pipeline():
                return super()._append_step(owned, asked, known)
        begun = self._begun_seen
        if known is None or begun is None:
            original, known, begun = self._situation(asked.encounter, asked.command_id)
            if original is not None:
                return original
        self._expect(asked.encounter, asked.expected_version, known.version)
        writes = self._recording = Recording()
        try:
            result = self._write_step(asked, known, begun)
            if asked.project is not None:
                asked.project(writes)
        finally:
            self._recording = None
        self._send_counted(writes, begun)
        return result

    def _send_counted(self, writes: Recording, begun: int) -> None:
        """The append's writes as one transaction if the log has still begun `begun`
        encounters (the count its hashes name); else nothing written, and StaleCount."""
        if one := writes.as_one_statement(begun):
            try:
                found = run_one(self.conn, *one).fetchone()[0]
            except errors.DivisionByZero:
                self._begun_seen = None  # the next attempt reads the count again
                raise StaleCount from None
        else:
            self._begin()
            found = self._begun()
            if found == begun:
                with self.conn.raw.pipeline():
                    for statement, rows in writes.writes:
                        self.conn.executemany(statement, rows)
                    self._commit()
            else:
                self._rollback()
        self._begun_seen = found
        if found != begun:
            raise StaleCount

    def _insert_step(self, rows: list[tuple], record: StepRecord) -> None:
        """The events and the step record: kept for the append's one statement, or sent
        as one statement of their own inside the append's transaction."""
        writes = self._recording if self._recording is not None else Recording()
        writes.executemany(INSERT_NEW_EVENT, rows)
        writes.execute(INSERT_STEP, msgspec.structs.astuple(record))
        if self._recording is None:
            self._send(writes)

    def _send(self, writes: Recording) -> None:
        """Inside the append's transaction: as one statement if the writes fold into one,
        else one by one, pipelined."""
        if one := writes.as_one_statement():
            run_one(self.conn, *one)
            return
        with self.conn.raw.pipeline():
            for statement, rows in writes.writes:
                self.conn.executemany(statement, rows)

    def _described(self, error: BaseException) -> Exception | None:
        """What the server refused (a read-only role, a missing grant) in one line naming
        this log; a lost connection was already told by `_append_step`."""
        if isinstance(error, psycopg.Error) and not isinstance(error, psycopg.OperationalError):
            return describe_database_error(error, self.path)
        return None

    def _lock_log(self) -> None:
        self.conn.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (self.name,))

    def _lock_registry(self) -> None:
        self.conn.execute("LOCK TABLE registry IN SHARE ROW EXCLUSIVE MODE")

    def _after_load(self) -> None:
        self.conn.execute(
            "SELECT setval(pg_get_serial_sequence('events', 'position'), "
            "greatest((SELECT max(position) FROM events), 1))"
        )

    def _not_in_steps(self, steps: Sequence[int]) -> tuple[str, object]:
        return "NOT (step = ANY(?))", list(steps)

    def missing_triggers(self) -> list[str]:
        present = {
            row[0]
            for row in self.conn.execute(
                "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ?",
                (self.name,),
            )
        }
        return [name for name in APPEND_ONLY_TRIGGERS if name not in present]

    def tables(self) -> set[str]:
        cursor = self.conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = ?",
            (self.name,),
        )
        return {row[0] for row in cursor}

    def columns(self, table: str) -> set[str]:
        cursor = self.conn.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = ? AND table_name = ?",
            (self.name, table),
        )
        return {row[0] for row in cursor}

    @functools.cached_property
    def _has_snapshots(self) -> bool:
        """Logs made before snapshots get their table from the first writer that asks."""
        if "snapshots" in self.tables():
            return True
        if self.readonly or self._in_transaction():
            return False
        self._begin()
        try:
            self._lock_log()
            self.conn.execute(SNAPSHOTS_TABLE)
            self._commit()
        except BaseException:
            self._rollback()
            raise
        return True

    def _snapshots_ready(self) -> bool:
        return self._has_snapshots

    def data_version(self) -> None:
        """Nothing cheap tells a server's commits apart (LISTEN/NOTIFY would make every
        committing writer take one global lock): readers look at the heads they watch."""
        return None


def _schema_statements(schema: str) -> Iterator[str]:
    keys = f"{schema}_keys"
    yield f"CREATE SCHEMA IF NOT EXISTS {schema}"
    yield f"CREATE SCHEMA IF NOT EXISTS {keys}"
    yield f"CREATE TABLE IF NOT EXISTS {keys}.sealed (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
    yield "CREATE TABLE fracas_migrations (version INTEGER PRIMARY KEY, at TEXT)"
    yield (
        "CREATE TABLE events (position BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
        "encounter TEXT NOT NULL, version INTEGER NOT NULL, step INTEGER NOT NULL, "
        "kind TEXT NOT NULL, author TEXT NOT NULL, at TEXT NOT NULL, schema INTEGER NOT NULL, "
        "body TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, salt TEXT, "
        "scope INTEGER NOT NULL DEFAULT 0, UNIQUE (encounter, version))"
    )
    yield "CREATE INDEX events_file_chain ON events (position) WHERE scope = 0"
    yield CREATE_GLANCE_INDEX
    yield (
        "CREATE TABLE steps (encounter TEXT NOT NULL, step INTEGER NOT NULL, "
        "command_id TEXT NOT NULL, control TEXT NOT NULL, target INTEGER, "
        "first_version INTEGER NOT NULL, last_version INTEGER NOT NULL, author TEXT NOT NULL, "
        "at TEXT NOT NULL, PRIMARY KEY (encounter, step), UNIQUE (encounter, command_id))"
    )
    yield SNAPSHOTS_TABLE
    yield (
        "CREATE TABLE registry (seq INTEGER PRIMARY KEY, encounter TEXT NOT NULL UNIQUE, "
        "first_hash TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)"
    )
    yield (
        f"CREATE FUNCTION {schema}.fracas_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN RAISE EXCEPTION 'fracas: % is append-only; nothing may be %', "
        "TG_TABLE_NAME, lower(TG_OP) || 'd'; END $$"
    )
    for table in APPEND_ONLY_TABLES:
        for verb in ("update", "delete"):
            yield (
                f"CREATE TRIGGER {table}_no_{verb} BEFORE {verb.upper()} ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {schema}.fracas_append_only()"
            )
        yield (
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {schema}.fracas_append_only()"
        )
    yield from players_statements(schema)
