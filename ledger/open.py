"""Which backend a location names: a PostgreSQL URL, or else a SQLite file."""

from typing import Any

from fracas.ledger.base import LogStore

SERVER_SCHEMES = ("postgresql://", "postgres://")


def is_server(location: str) -> bool:
    return str(location).startswith(SERVER_SCHEMES)


def open_store(location: str, **options: Any) -> LogStore:
    """The log at `location`: `postgresql://…` opens a PostgreSQL ledger, anything else a
    SQLite file. Options as for the backends (readonly, create, …)."""
    if is_server(location):
        from fracas.ledger.postgres import PostgresStore  # psycopg loads only when needed

        options.pop("synchronous", None)
        return PostgresStore(str(location), **options)
    from fracas.ledger.store import Store

    return Store(location, **options)
