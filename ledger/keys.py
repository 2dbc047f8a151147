"""The GM's key file: sealed secrets (dice seeds) kept beside the log, never inside it.

A log file may be handed to anyone (a player, datasette, a backup service); its key file
stays with the GM. Each secret is filed under the name its owner chooses (for a dice seed,
its SHA-256 commitment, which the log carries), and is only ever added, never replaced:
two writers sealing at once can't overwrite each other, and a seed sealed by a command
that then failed is an orphan that does no harm.
"""

import os
import sqlite3
from pathlib import Path


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
        if self.readonly:
            uri = Path(self.path).absolute().as_uri() + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        else:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
            conn.execute("PRAGMA journal_mode=DELETE")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS sealed (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
        self._conn = conn
        return conn

    def seal(self, name: str, value: str) -> None:
        if self._memory is not None:
            self._memory.setdefault(name, value)
            return
        conn = self._connection(create=True)
        assert conn is not None
        conn.execute("INSERT OR IGNORE INTO sealed VALUES (?, ?)", (name, value))

    def unseal(self, name: str) -> str | None:
        if self._memory is not None:
            return self._memory.get(name)
        conn = self._connection(create=False)
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT value FROM sealed WHERE name = ?", (name,)).fetchone()
        except sqlite3.OperationalError:  # an empty key file a reader found before its table
            return None
        return row[0] if row else None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
