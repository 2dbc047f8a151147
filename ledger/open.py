"""Which backend a location names: a PostgreSQL URL, or else a SQLite file."""

import os
import sqlite3
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from fracas.ledger.base import LogStore
from fracas.ledger.errors import BadInputError, ConflictError, FracasError, RefusedError

SERVER_SCHEMES = ("postgresql://", "postgres://")


def is_server(location: str) -> bool:
    return str(location).startswith(SERVER_SCHEMES)


def shown(location: str) -> str:
    """The location without a password, for messages."""
    parts = urlsplit(str(location))
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return str(location)


def open_store(location: str, **options: Any) -> LogStore:
    """The log at `location`: `postgresql://…` opens a PostgreSQL ledger, anything else a
    SQLite file. Options as for the backends (readonly, create, …)."""
    if is_server(location):
        from fracas.ledger.postgres import PostgresStore  # psycopg loads only when needed

        options.pop("synchronous", None)
        return PostgresStore(str(location), **options)
    from fracas.ledger.store import Store

    if os.path.isdir(location):
        raise BadInputError(
            f"{location} is a directory, not a log: name a file, as in --db {location}/fight.db"
        )
    return Store(location, **options)


def is_database_error(error: BaseException) -> bool:
    """SQLite's or psycopg's (checked by module: psycopg loads only for a server log)."""
    return isinstance(error, sqlite3.Error) or type(error).__module__.startswith("psycopg")


def describe_database_error(error: Exception, location: str) -> FracasError:
    """One line for what the database said, with what to do about it."""
    if isinstance(error, sqlite3.Error):
        from fracas.ledger.store import describe_sqlite_error

        return describe_sqlite_error(error, location)
    reason = (str(error).strip().splitlines() or ["no reason given"])[0]
    if type(error).__name__ in ("SerializationFailure", "DeadlockDetected", "LockNotAvailable"):
        return ConflictError(f"{location} is busy: {reason}; try again in a moment")
    if type(error).__name__ == "ReadOnlySqlTransaction":
        return RefusedError(f"{location} is read-only here: it can be read, not written")
    return RefusedError(f"{location} could not be used: {reason}")
