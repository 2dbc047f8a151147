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


SCHEMA = {
    "encounter_view": "encounter TEXT, round INTEGER, phase TEXT, acting TEXT, notes TEXT, "
    "PRIMARY KEY (encounter)",
    "initiative": "encounter TEXT, ord INTEGER, combatant TEXT, name TEXT, key TEXT, "
    "acting INTEGER, status TEXT, PRIMARY KEY (encounter, ord)",
    "wounds": "encounter TEXT, combatant TEXT, name TEXT, side TEXT, health TEXT, "
    "conditions TEXT, detail TEXT, PRIMARY KEY (encounter, combatant)",
    "pins": "encounter TEXT, holder TEXT, target TEXT, kind TEXT, "
    "PRIMARY KEY (encounter, holder, target)",
}


def has_tables(conn: sqlite3.Connection) -> bool:
    """Are the read-model tables there already (so opening the file need not write)?"""
    marks = ", ".join("?" for _ in TABLES)
    found = conn.execute(
        f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ({marks})", TABLES
    ).fetchone()[0]
    return found == len(TABLES)


def ensure_tables(db: sqlite_utils.Database) -> None:
    """Create the read-model tables if missing (WITHOUT ROWID: one b-tree each per write)."""
    for table, columns in SCHEMA.items():
        db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns}) WITHOUT ROWID")


def _rows(encounter: str, view: View) -> dict[str, dict[tuple, tuple]]:
    """Each table's rows for this view, keyed by primary key."""
    return {
        "encounter_view": {
            (encounter,): (
                encounter,
                view.round,
                view.phase,
                _json(view.acting).decode(),
                _json(view.notes).decode(),
            )
        },
        "initiative": {
            (encounter, r.order): (
                encounter,
                r.order,
                r.combatant,
                r.name,
                r.key,
                int(r.acting),
                r.status,
            )
            for r in view.initiative
        },
        "wounds": {
            (encounter, w.combatant): (
                encounter,
                w.combatant,
                w.name,
                w.side,
                w.health,
                _json(w.conditions).decode(),
                _json(w.detail).decode(),
            )
            for w in view.wounds
        },
        "pins": {
            (encounter, p.holder, p.target): (encounter, p.holder, p.target, p.kind)
            for p in view.pins
        },
    }


KEYS = {
    "encounter_view": ("encounter",),
    "initiative": ("encounter", "ord"),
    "wounds": ("encounter", "combatant"),
    "pins": ("encounter", "holder", "target"),
}


def write_view(
    conn: sqlite3.Connection, encounter: str, view: View, previous: View | None = None
) -> None:
    """Bring one encounter's rows to `view` (inside the append transaction).

    With the previous view known, only the rows that changed are written.
    """
    new = _rows(encounter, view)
    if previous is None:
        for table in TABLES:
            conn.execute(f"DELETE FROM {table} WHERE encounter = ?", (encounter,))
        old: dict[str, dict[tuple, tuple]] = {table: {} for table in TABLES}
    else:
        old = _rows(encounter, previous)
    for table in TABLES:
        gone = [key for key in old[table] if key not in new[table]]
        if gone:
            where = " AND ".join(f"{column} = ?" for column in KEYS[table])
            conn.executemany(f"DELETE FROM {table} WHERE {where}", gone)
        changed = [row for key, row in new[table].items() if old[table].get(key) != row]
        if changed:
            marks = ", ".join("?" * len(changed[0]))
            conn.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({marks})", changed)


def drop_tables(db: sqlite_utils.Database) -> None:
    for table in TABLES:
        db[table].drop(ignore=True)


def table_rows(db: sqlite_utils.Database) -> dict[str, list[dict[str, Any]]]:
    """Every projection row, in a stable order: what 'rebuilt equals incremental' compares."""
    return {table: list(db.query(f"SELECT * FROM {table} ORDER BY 1, 2, 3")) for table in TABLES}
