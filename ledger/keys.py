"""The GM's key file: sealed secrets (dice seeds) kept beside the log, never inside it.

A log file may be handed to anyone (a player, datasette, a backup service); its key file
stays with the GM. Each secret is filed under the name its owner chooses (for a dice seed,
its SHA-256 commitment, which the log carries), and is only ever added, never replaced:
two writers sealing at once can't overwrite each other, and a seed sealed by a command
that then failed is an orphan that does no harm.
"""

import os
import sqlite3
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

from fracas.ledger import durability
from fracas.ledger.errors import RefusedError


def key_path(log_path: str) -> str:
    return f"{log_path}.keys"


class KeyFile:
    """Secrets in a small SQLite file created owner-only (0600), in rollback-journal mode so
    that its journal inherits those permissions; a missing key file reads as empty."""

    def __init__(self, path: str, *, readonly: bool = False) -> None:
        self.path, self.readonly = path, readonly
        self._conn: sqlite3.Connection | None = None
        self._memory: dict[str, str] | None = {} if path == ":memory:" else None

    def _connection(self, create: bool) -> sqlite3.Connection | None:
        if self._conn is not None:
            return self._conn
        exists = os.path.exists(self.path)
        if not exists and not create:
            return None
        if not exists:
            descriptor = os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(descriptor)
        elif not self.readonly:
            owner_only(self.path)
        if self.readonly:
            conn = self._open_uri("ro")
        else:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
            conn.execute("PRAGMA journal_mode=DELETE")
            conn.execute(f"PRAGMA synchronous={durability.SYNCHRONOUS}")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS sealed (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
        self._conn = conn
        return conn

    def seal(self, name: str, value: str) -> None:
        if self._memory is not None:
            self._memory.setdefault(name, value)
            return
        try:
            conn = self._connection(create=True)
            assert conn is not None
            conn.execute("INSERT OR IGNORE INTO sealed VALUES (?, ?)", (name, value))
        except sqlite3.OperationalError:
            raise  # busy, full disk, read-only: said as the log's own errors are
        except sqlite3.DatabaseError as error:
            raise self._unreadable(error) from None

    def unseal(self, name: str) -> str | None:
        if self._memory is not None:
            return self._memory.get(name)
        rows = self._read("SELECT value FROM sealed WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def items(self) -> Iterator[tuple[str, str]]:
        """Every (name, secret) the key file holds."""
        if self._memory is not None:
            yield from sorted(self._memory.items())
            return
        yield from self._read("SELECT name, value FROM sealed ORDER BY name", ())

    def _read(self, sql: str, params: tuple[str, ...]) -> list[tuple[str, str]]:
        """Rows of the key file; none from a missing one. A key file a writer was killed
        in the middle of (a hot journal) is rolled back first, as any writer would: a
        reader never takes its half-written state, or an error, for "no secrets"."""
        try:
            conn = self._connection(create=False)
            return conn.execute(sql, params).fetchall() if conn else []
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):  # an empty key file found before its table
                return []
            if not (self.readonly and os.path.exists(f"{self.path}-journal")):
                raise self._unreadable(error) from None
        except sqlite3.DatabaseError as error:  # not an SQLite file at all
            raise self._unreadable(error) from None
        self.close()
        try:
            self._conn = self._open_uri("rw")  # rolls the interrupted write back
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise self._unreadable(error) from None

    def _open_uri(self, mode: str) -> sqlite3.Connection:
        uri = Path(self.path).absolute().as_uri() + f"?mode={mode}"
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)

    def _unreadable(self, error: sqlite3.Error) -> RefusedError:
        return RefusedError(
            f"the key file {self.path} cannot be read ({error}); its sealed dice seeds are "
            "out of reach until it can: check its permissions, or restore it from a backup"
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def owner_only(path: str) -> None:
    """A key file found readable by others (a copy, a checkout) is made owner-only before
    anything more is sealed in it."""
    mode = os.stat(path).st_mode
    if mode & 0o077:
        with suppress(PermissionError):
            os.chmod(path, mode & 0o700)
