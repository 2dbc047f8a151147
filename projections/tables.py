"""Read models kept in SQLite tables, written in the append transaction.

They hold nothing the log does not: `rebuild` drops them and folds every encounter again.
"""

import sqlite3
from typing import Any

import msgspec
import sqlite_utils

from fracas.rules.views import View

TABLES = ("encounter_view", "initiative", "wounds", "pins")
_json = msgspec.json.encode


def ensure_tables(db: sqlite_utils.Database) -> None:
    if not db["encounter_view"].exists():
        db["encounter_view"].create(
            {"encounter": str, "round": int, "phase": str, "acting": str, "notes": str},
            pk="encounter",
        )
    if not db["initiative"].exists():
        db["initiative"].create(
            {"encounter": str, "ord": int, "combatant": str, "name": str, "key": str,
             "acting": int, "status": str},
            pk=("encounter", "ord"),
        )
    if not db["wounds"].exists():
        db["wounds"].create(
            {"encounter": str, "combatant": str, "name": str, "side": str, "health": str,
             "conditions": str, "detail": str},
            pk=("encounter", "combatant"),
        )
    if not db["pins"].exists():
        db["pins"].create(
            {"encounter": str, "holder": str, "target": str, "kind": str},
            pk=("encounter", "holder", "target"),
        )


def write_view(conn: sqlite3.Connection, encounter: str, view: View) -> None:
    """Replace one encounter's rows with the view of its new state (inside the append)."""
    for table in TABLES:
        conn.execute(f"DELETE FROM {table} WHERE encounter = ?", (encounter,))
    conn.execute(
        "INSERT INTO encounter_view VALUES (?, ?, ?, ?, ?)",
        (encounter, view.round, view.phase, _json(view.acting).decode(),
         _json(view.notes).decode()),
    )
    conn.executemany(
        "INSERT INTO initiative VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(encounter, r.order, r.combatant, r.name, r.key, int(r.acting), r.status)
         for r in view.initiative],
    )
    conn.executemany(
        "INSERT INTO wounds VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(encounter, w.combatant, w.name, w.side, w.health, _json(w.conditions).decode(),
          _json(w.detail).decode()) for w in view.wounds],
    )
    conn.executemany(
        "INSERT INTO pins VALUES (?, ?, ?, ?)",
        [(encounter, p.holder, p.target, p.kind) for p in view.pins],
    )


def drop_tables(db: sqlite_utils.Database) -> None:
    for table in TABLES:
        db[table].drop(ignore=True)


def table_rows(db: sqlite_utils.Database) -> dict[str, list[dict[str, Any]]]:
    """Every projection row, in a stable order: what 'rebuilt equals incremental' compares."""
    return {
        table: list(db.query(f"SELECT * FROM {table} ORDER BY 1, 2, 3")) for table in TABLES
    }
