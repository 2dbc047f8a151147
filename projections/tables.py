"""Read models kept in SQLite tables, written in the append transaction.

They hold nothing the log does not: `rebuild` drops them and folds every encounter again.
"""

from typing import TYPE_CHECKING, Any

import msgspec

from fracas.ledger import LogStore
from fracas.ledger.base import EFFECTIVE_EVENTS
from fracas.ledger.open import is_database_error
from fracas.rules.views import InitiativeRow, PinRow, View, WoundRow

if TYPE_CHECKING:  # a quick read from these tables loads no ruleset
    from fracas.rules.ruleset import Ruleset

TABLES = ("encounter_view", "initiative", "wounds", "pins")
DAMAGED = "the table itself is damaged"  # what an audit says of a read model SQLite cannot read
# The events that start a round in each encounter, as its ruleset declares them
# (`Ruleset.round_events`): each kind with the field of its body that holds the round.
ROUND_EVENTS = "round_events"
_json = msgspec.json.encode


SCHEMA = {
    # `ruleset` and `header` (the board's first line, in the ruleset's words): what `status`
    # shows above the order, read without loading the ruleset
    "encounter_view": "encounter TEXT, round INTEGER, phase TEXT, acting TEXT, notes TEXT, "
    "ruleset TEXT, header TEXT, upcoming TEXT, PRIMARY KEY (encounter)",
    "initiative": "encounter TEXT, ord INTEGER, combatant TEXT, name TEXT, key TEXT, "
    "acting INTEGER, status TEXT, PRIMARY KEY (encounter, ord)",
    "wounds": "encounter TEXT, combatant TEXT, name TEXT, side TEXT, health TEXT, "
    "conditions TEXT, detail TEXT, ord INTEGER, current INTEGER, maximum INTEGER, unit TEXT, "
    "counts TEXT, PRIMARY KEY (encounter, combatant)",
    "pins": "encounter TEXT, holder TEXT, target TEXT, kind TEXT, "
    "PRIMARY KEY (encounter, holder, target)",
    ROUND_EVENTS: "encounter TEXT, kind TEXT, field TEXT, PRIMARY KEY (encounter, kind)",
}


# The fight as SQL can read it: the ledger's `effective_events` (undo, redo and
# supersede honoured, its rule kept beside History), then rolls, harm and the cast.
VIEWS = {
    "effective_events": EFFECTIVE_EVENTS,
    "step_rounds": """
        SELECT e.encounter, e.step, coalesce((
            SELECT json_extract(t.body, '$.' || k.field)
            FROM effective_events t
            JOIN round_events k ON k.encounter = t.encounter AND k.kind = t.kind
            WHERE t.encounter = e.encounter AND t.position < e.position
            ORDER BY t.position DESC LIMIT 1), 0) AS round
        FROM effective_events e GROUP BY e.encounter, e.step""",
    "step_actors": """
        SELECT encounter, step, json_extract(body, '$.actor') AS actor FROM effective_events
        WHERE kind IN ('declared', 'command.given') GROUP BY encounter, step""",
    "rolls": """
        SELECT e.encounter, e.step, r.round, json_extract(e.body, '$.actor') AS who,
            json_extract(e.body, '$.purpose') AS purpose,
            json_extract(e.body, '$.roll.dice') AS dice,
            json_extract(e.body, '$.roll.faces') AS faces,
            json_extract(e.body, '$.roll.total') AS total,
            json_extract(e.body, '$.target') AS target,
            json_extract(e.body, '$.result') AS result,
            json_extract(e.body, '$.roll.source') AS source,
            json_extract(e.body, '$.roll.entered_by') AS typed_by,
            json_extract(e.body, '$.secret') AS secret
        FROM effective_events e JOIN step_rounds r USING (encounter, step)
        WHERE e.kind = 'rolled'""",
    "combatants": """
        SELECT encounter, json_extract(body, '$.combatant') AS combatant,
            json_extract(body, '$.name') AS name, json_extract(body, '$.side') AS side
        FROM effective_events WHERE kind = 'combatant.joined'""",
    # Who dealt it: the damage's source when it names a combatant, else the actor whose
    # resolution just before it struck that target, else nobody (NULL: the GM's hand, an
    # exertion, the world), never the step's actor by default.
    "harm": """
        SELECT e.encounter, e.step, r.round, coalesce(
            (SELECT c.combatant FROM combatants c WHERE c.encounter = e.encounter
                AND c.combatant = json_extract(e.body, '$.source')),
            (SELECT json_extract(v.body, '$.actor') FROM effective_events v
                WHERE v.encounter = e.encounter AND v.step = e.step AND v.kind = 'resolved'
                AND v.position < e.position AND EXISTS (
                    SELECT 1 FROM json_each(v.body, '$.targets')
                    WHERE value = json_extract(e.body, '$.target'))
                ORDER BY v.position DESC LIMIT 1),
            NULL) AS who,
            json_extract(e.body, '$.target') AS whom,
            json_extract(e.body, '$.amount') AS amount,
            json_extract(e.body, '$.source') AS source
        FROM effective_events e JOIN step_rounds r USING (encounter, step)
        WHERE e.kind = 'damaged'""",
}


def views(store: LogStore) -> dict[str, str]:
    return VIEWS if store.dialect == "sqlite" else PG_VIEWS


# The same views in PostgreSQL's words: bodies read as jsonb; where SQLite takes a bare
# column of a group (the group's last row), the last row by position is taken explicitly.
_B = "(e.body::jsonb)"
PG_VIEWS = {
    "effective_events": EFFECTIVE_EVENTS,
    "step_rounds": """
        SELECT g.encounter, g.step, coalesce((
            SELECT (t.body::jsonb ->> k.field)::bigint
            FROM effective_events t
            JOIN round_events k ON k.encounter = t.encounter AND k.kind = t.kind
            WHERE t.encounter = g.encounter AND t.position < g.last
            ORDER BY t.position DESC LIMIT 1), 0) AS round
        FROM (SELECT encounter, step, max(position) AS last FROM effective_events
              GROUP BY encounter, step) g""",
    "step_actors": """
        SELECT encounter, step,
            (array_agg(body::jsonb ->> 'actor' ORDER BY position DESC))[1] AS actor
        FROM effective_events WHERE kind IN ('declared', 'command.given')
        GROUP BY encounter, step""",
    "rolls": f"""
        SELECT e.encounter, e.step, r.round, {_B} ->> 'actor' AS who,
            {_B} ->> 'purpose' AS purpose, {_B} #>> '{{roll,dice}}' AS dice,
            {_B} #>> '{{roll,faces}}' AS faces, ({_B} #>> '{{roll,total}}')::bigint AS total,
            ({_B} ->> 'target')::bigint AS target, {_B} ->> 'result' AS result,
            {_B} #>> '{{roll,source}}' AS source, {_B} #>> '{{roll,entered_by}}' AS typed_by,
            ({_B} ->> 'secret')::boolean::int AS secret
        FROM effective_events e JOIN step_rounds r USING (encounter, step)
        WHERE e.kind = 'rolled'""",
    "combatants": """
        SELECT encounter, body::jsonb ->> 'combatant' AS combatant,
            body::jsonb ->> 'name' AS name, body::jsonb ->> 'side' AS side
        FROM effective_events WHERE kind = 'combatant.joined'""",
    "harm": f"""
        SELECT e.encounter, e.step, r.round, coalesce(
            (SELECT c.combatant FROM combatants c WHERE c.encounter = e.encounter
                AND c.combatant = {_B} ->> 'source'),
            (SELECT v.body::jsonb ->> 'actor' FROM effective_events v
                WHERE v.encounter = e.encounter AND v.step = e.step AND v.kind = 'resolved'
                AND v.position < e.position
                AND v.body::jsonb -> 'targets' @> to_jsonb({_B} ->> 'target')
                ORDER BY v.position DESC LIMIT 1),
            NULL) AS who,
            {_B} ->> 'target' AS whom, ({_B} ->> 'amount')::bigint AS amount,
            {_B} ->> 'source' AS source
        FROM effective_events e JOIN step_rounds r USING (encounter, step)
        WHERE e.kind = 'damaged'""",
}


def has_tables(store: LogStore) -> bool:
    """Are the read-model tables there, in this release's shape (so opening the log need
    not write, and a status can be read from them)?"""
    present = store.tables()
    if not present.issuperset((*TABLES, ROUND_EVENTS)) or not present.issuperset(views(store)):
        return False
    # older files: the next writer reshapes them
    return "current" in store.columns("wounds") and "upcoming" in store.columns("encounter_view")


def ensure_tables(store: LogStore) -> None:
    """Create the read-model tables if missing (in SQLite WITHOUT ROWID: one b-tree each)."""
    sqlite = store.dialect == "sqlite"
    for table, columns in SCHEMA.items():
        suffix = " WITHOUT ROWID" if sqlite else ""
        store.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns}){suffix}")
    create = "CREATE VIEW IF NOT EXISTS" if sqlite else "CREATE OR REPLACE VIEW"
    for view, select in views(store).items():
        store.execute(f"{create} {view} AS {select}")


def note_round_events(conn: Any, encounter: str, ruleset: "Ruleset") -> None:
    """Tell the SQL views which events start a round in this encounter (its ruleset's)."""
    conn.executemany(
        f"INSERT INTO {ROUND_EVENTS} (encounter, kind, field) VALUES (?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        [(encounter, kind, field) for kind, field in ruleset.round_events.items()],
    )


def projector_for(ruleset: "Ruleset", *, starting: bool = False) -> Any:
    """The projector of an encounter under `ruleset`; `starting`: its first write also notes
    the ruleset's round events."""

    def project(conn: Any, encounter: str, view: View, previous: View | None = None) -> None:
        if starting and previous is None:
            note_round_events(conn, encounter, ruleset)
        write_view(conn, encounter, view, ruleset, previous)

    return project


def _rows(encounter: str, view: View, ruleset: "Ruleset") -> dict[str, dict[tuple, tuple]]:
    """Each table's rows for this view, keyed by primary key."""
    from fracas.projections.board import headline  # a writer's; a quick read never needs it

    return {
        "encounter_view": {
            (encounter,): (
                encounter,
                view.round,
                view.phase,
                _json(view.acting).decode(),
                _json(view.notes).decode(),
                ruleset.name,
                headline(view, ruleset),
                _json(view.upcoming).decode(),
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
                order,
                w.current,
                w.maximum,
                w.unit,
                w.counts,
            )
            for order, w in enumerate(view.wounds, start=1)
        },
        "pins": {
            (encounter, p.holder, p.target): (encounter, p.holder, p.target, p.kind)
            for p in view.pins
        },
    }


def columns_of(table: str) -> list[str]:
    return [part.split()[0] for part in SCHEMA[table].split(", PRIMARY KEY")[0].split(", ")]


def _upsert(table: str) -> str:
    columns = columns_of(table)
    updates = [c for c in columns if c not in KEYS[table]]
    assignments = ", ".join(f"{c} = excluded.{c}" for c in updates)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
        f"ON CONFLICT ({', '.join(KEYS[table])}) DO UPDATE SET {assignments}"
    )


KEYS = {
    "encounter_view": ("encounter",),
    "initiative": ("encounter", "ord"),
    "wounds": ("encounter", "combatant"),
    "pins": ("encounter", "holder", "target"),
}


def _update(table: str) -> tuple[str, list[int]]:
    """The UPDATE of one row by its key, and where its parameters sit in a row of the table
    (a row known to be there: rewritten in place, without an insert's attempt first)."""
    columns = columns_of(table)
    values = [c for c in columns if c not in KEYS[table]]
    statement = (
        f"UPDATE {table} SET {', '.join(f'{c} = ?' for c in values)} "
        f"WHERE {' AND '.join(f'{k} = ?' for k in KEYS[table])}"
    )
    return statement, [columns.index(c) for c in (*values, *KEYS[table])]


UPSERT = {table: _upsert(table) for table in TABLES}
UPDATE = {table: _update(table) for table in TABLES}
# the rows of the view written last: the next write's `previous`, not made again
_last_written: tuple[View | None, str, dict[str, dict[tuple, tuple]]] = (None, "", {})


def write_view(
    conn: Any, encounter: str, view: View, ruleset: "Ruleset", previous: View | None = None
) -> None:
    """Bring one encounter's rows to `view` under `ruleset` (inside the append transaction).

    With the previous view known, only the rows that changed are written.
    """
    global _last_written
    new = _rows(encounter, view, ruleset)
    if previous is None:
        for table in TABLES:
            conn.execute(f"DELETE FROM {table} WHERE encounter = ?", (encounter,))
        old: dict[str, dict[tuple, tuple]] = {table: {} for table in TABLES}
    elif _last_written[0] is previous and _last_written[1] == encounter:
        old = _last_written[2]
    else:
        old = _rows(encounter, previous, ruleset)
    _last_written = (view, encounter, new)
    for table in TABLES:
        gone = [key for key in old[table] if key not in new[table]]
        if gone:
            where = " AND ".join(f"{column} = ?" for column in KEYS[table])
            conn.executemany(f"DELETE FROM {table} WHERE {where}", gone)
        was = old[table]
        changed = [(key in was, row) for key, row in new[table].items() if was.get(key) != row]
        if added := [row for there, row in changed if not there]:
            conn.executemany(UPSERT[table], added)
        if rewritten := [row for there, row in changed if there]:
            update, order = UPDATE[table]
            conn.executemany(update, [[row[i] for i in order] for row in rewritten])


def differing_row(
    store: LogStore, folded: dict[str, tuple[View, "Ruleset"]]
) -> tuple[str, list, str] | None:
    """The first read-model row that is not what a fold of the log gives (`folded`: each
    encounter's view and ruleset), as (table, its key, what differs): an edit to a read
    model that a rebuild would silently undo."""
    for table in TABLES:
        columns = columns_of(table)
        keys = KEYS[table]
        stored: dict[tuple, tuple] = {}
        try:
            for row in store.execute(f"SELECT {', '.join(columns)} FROM {table}"):
                stored[tuple(row[columns.index(k)] for k in keys)] = tuple(row)
        except Exception as error:  # the table's pages themselves are damaged
            if not is_database_error(error):
                raise
            return table, [], f"{DAMAGED} ({error})"
        expected: dict[tuple, tuple] = {}
        for name, (view, ruleset) in folded.items():
            expected.update(_rows(name, view, ruleset)[table])
        for key in sorted(set(stored) | set(expected), key=repr):
            found = _row_difference(columns, stored.get(key), expected.get(key))
            if found:
                return table, list(key), found
    return None


def _row_difference(columns: list[str], stored: tuple | None, expected: tuple | None) -> str:
    if stored == expected:
        return ""
    if stored is None:
        return "missing: a fold of the log gives this row"
    if expected is None:
        return "a row a fold of the log does not give"
    for column, have, want in zip(columns, stored, expected, strict=True):
        if have != want:
            return f"{column} is {have!r}, a fold of the log gives {want!r}"
    return ""


def drop_tables(store: LogStore) -> None:
    for view in reversed(views(store)):
        store.execute(f"DROP VIEW IF EXISTS {view}")
    for table in (*TABLES, ROUND_EVENTS):
        store.execute(f"DROP TABLE IF EXISTS {table}")


def table_rows(store: LogStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every projection row, in a stable order: what 'rebuilt equals incremental' compares."""
    return {
        table: [tuple(row) for row in store.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3")]
        for table in TABLES
    }


_decode = msgspec.json.decode


class Current(msgspec.Struct, frozen=True):
    """An encounter as the last append left it: its ruleset's name, the board's first line
    (`header`) and the view."""

    ruleset: str
    header: str
    view: View


def read_view(conn: Any, encounter: str) -> View | None:
    """The encounter's view as the last append left it, without folding anything; None if
    the read models do not hold it."""
    found = read_current(conn, encounter)
    return found.view if found is not None else None


def read_current(conn: Any, encounter: str) -> Current | None:
    """The encounter as the last append left it, read without folding anything or loading
    its ruleset; None if the read models do not hold it."""
    head = conn.execute(
        "SELECT round, phase, acting, notes, ruleset, header, upcoming FROM encounter_view "
        "WHERE encounter = ?",
        (encounter,),
    ).fetchone()
    if head is None:
        return None
    initiative = [
        InitiativeRow(combatant, name, order, key, bool(acting), status)
        for order, combatant, name, key, acting, status in conn.execute(
            "SELECT ord, combatant, name, key, acting, status FROM initiative "
            "WHERE encounter = ? ORDER BY ord",
            (encounter,),
        )
    ]
    wounds = [
        WoundRow(c, n, side, h, _decode(cond), _decode(det), cur, mx, unit, counts)
        for c, n, side, h, cond, det, cur, mx, unit, counts in conn.execute(
            "SELECT combatant, name, side, health, conditions, detail, current, maximum, unit, "
            "counts FROM wounds WHERE encounter = ? ORDER BY ord",
            (encounter,),
        )
    ]
    pins = [
        PinRow(*row)
        for row in conn.execute(
            "SELECT holder, target, kind FROM pins WHERE encounter = ?", (encounter,)
        )
    ]
    round_, phase, acting, notes, ruleset, header, upcoming = head
    view = View(
        round_,
        phase,
        _decode(acting),
        initiative,
        wounds,
        pins,
        _decode(notes),
        upcoming=_decode(upcoming),
    )
    return Current(ruleset, header, view)
