"""The hostile user's trials of fracas's promises, each sized by its caller.

`bench/reliability/run.py` runs them at full size and prints one table of figures;
`tests/test_reliability.py` runs small versions of each so CI catches a regression.
Every trial returns a `Figures` of counts; a promise holds when its bad counts are 0.
"""

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.ledger import Store
from fracas.ledger.base import EVENT_COLUMNS, SCHEMA
from fracas.ledger.chain import GENESIS, StoredEvent
from fracas.projections import Fracas
from fracas.projections.tables import TABLES

PYTHON = sys.executable
FRACAS = [PYTHON, "-m", "fracas.cli.main"]
PISTOL = 'weapons=[{name="pistol",kind="firearm",damage="1d10"}]'


@dataclass
class Figures:
    name: str
    trials: int = 0
    counts: dict[str, int | float] = field(default_factory=dict)

    def add(self, key: str, amount: int | float = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + amount


def fracas_cli(db: Path | str, *args: str, env: dict[str, str] | None = None, timeout: float = 60):
    """`fracas` as a real process, as a GM's shell runs it."""
    return subprocess.run(
        [*FRACAS, "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def traceback_in(text: str) -> bool:
    return "Traceback (most recent call last)" in text


def table_rows(store: Store) -> dict[str, list[tuple]]:
    return {t: sorted(store.conn.execute(f"SELECT * FROM {t}").fetchall()) for t in TABLES}


# -- a fight to work on --------------------------------------------------------------------


def gunfight(db: Path, *, steps: int = 6, secret_faces: list[int] | None = None) -> str:
    """A percentile fight through the Python API: Alice and Bob trade shots; with
    `secret_faces`, Bob's first shot is a GM-only roll with those faces."""
    with Fracas(db) as fracas:
        e = fracas.new("percentile", title="gunfight", encounter="gunfight")
        for who, dex in (("alice", 14), ("bob", 10)):
            command = {
                "action": "join",
                "combatant": who,
                "side": "pc" if who == "alice" else "npc",
                "sheet": {
                    "dex": dex,
                    "hp": 40,
                    "skills": {"firearms": 60},
                    "weapons": [{"name": "pistol", "kind": "firearm", "damage": "1d10"}],
                    "holding": ["pistol"],
                },
            }
            e.execute(e.ruleset.command(command))
        e.execute(e.ruleset.command({"action": "begin"}), dice=[])
        shots = [("alice", "bob", [30, 5]), ("bob", "alice", [80])] * steps
        for number, (actor, target, faces) in enumerate(shots[:steps]):
            secret = secret_faces is not None and number == 1
            attack = {"action": "attack", "actor": actor, "targets": [target], "weapon": "pistol"}
            e.execute(
                e.ruleset.command(attack), dice=secret_faces if secret else faces, secret=secret
            )
        return e.id


# -- 1. crash trials -------------------------------------------------------------------------

CHILD = """
import sys
from fracas.projections import Fracas
fracas = Fracas(sys.argv[1])
e = fracas.encounter("gunfight")
i = 0
while True:
    i += 1
    e.note(f"note {i}") if i % 3 else e.undo()
    print(e.history.head_step, flush=True)
"""


def crash_trials(workdir: Path, trials: int, seed: int = 7) -> Figures:
    """SIGKILL a writer at a random moment mid-appends; every step it saw committed must be
    there, no step may be partial, and the read models must equal a rebuild."""
    figures = Figures("crash trials (SIGKILL mid-append)")
    rng = random.Random(seed)
    db = workdir / "crash.db"
    gunfight(db, steps=2)
    for _ in range(trials):
        child = subprocess.Popen([PYTHON, "-c", CHILD, str(db)], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        first = child.stdout.readline()  # appending now: a slow start is no crash trial
        time.sleep(rng.uniform(0.05, 0.4))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        seen = [int(line) for line in (first + out).split()]
        store = Store(db)
        head_step = store.head("gunfight").step
        figures.trials += 1
        figures.add("steps acknowledged", len(seen))
        figures.add("lost steps", int(bool(seen) and max(seen) > head_step))
        figures.add("partial steps", int(not (store.verify().ok and store.check_steps().ok)))
        before = table_rows(store)
        store.close()
        with Fracas(db) as fracas:
            fracas.rebuild()
            figures.add("read models unlike a rebuild", int(table_rows(fracas.store) != before))
    return figures


# -- 2. concurrent writers -------------------------------------------------------------------

WRITER = """
import sys
from fracas.ledger import ConflictError
from fracas.projections import Fracas
fracas = Fracas(sys.argv[1])
done = 0
while done < int(sys.argv[3]):
    e = fracas.encounter("gunfight")
    try:
        e.note(f"writer {sys.argv[2]} note {done}")
        done += 1
    except ConflictError:
        pass
"""


def concurrent_writers(workdir: Path, writers: int, each: int) -> Figures:
    """Processes appending to one encounter at once, retrying on conflict: no version lost
    or doubled, and no traceback."""
    figures = Figures(f"concurrent writers ({writers} processes x {each} steps)")
    db = workdir / "concurrent.db"
    gunfight(db, steps=1)
    start = Store(db).head("gunfight").step
    children = [
        subprocess.Popen(
            [PYTHON, "-c", WRITER, str(db), str(n), str(each)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(writers)
    ]
    errors = "".join(child.communicate()[1] for child in children)
    store = Store(db)
    versions = [e.version for e in store.events("gunfight")]
    figures.trials = writers
    figures.add("steps written", store.head("gunfight").step - start)
    figures.add("lost steps", writers * each - (store.head("gunfight").step - start))
    figures.add("lost or doubled versions", int(versions != list(range(1, len(versions) + 1))))
    figures.add("tracebacks", int(traceback_in(errors)))
    figures.add("broken logs", int(not (store.verify().ok and store.check_steps().ok)))
    return figures


def racing_new(workdir: Path, racers: int) -> Figures:
    """`fracas new --id same` from several processes at once: one wins, the others are told."""
    figures = Figures(f"racing `new --id same` ({racers} processes)")
    db = workdir / "race.db"
    fracas_cli(db, "new", "--id", "first")
    children = [
        subprocess.Popen(
            [*FRACAS, "--db", str(db), "new", "--id", "same", "--title", f"racer {n}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(racers)
    ]
    results = [(child.wait(), child.stderr.read() if child.stderr else "") for child in children]
    figures.trials = racers
    figures.add("winners", sum(1 for code, _ in results if code == 0))
    told = sum(1 for code, err in results if code == 1 and "already exists" in err)
    figures.add("losers not told", racers - 1 - told)
    figures.add("tracebacks", sum(traceback_in(err) for _, err in results))
    return figures


# -- 3. the tamper matrix --------------------------------------------------------------------


@contextmanager
def unguarded(db: Path) -> Iterator[sqlite3.Connection]:
    """The file opened as a forger would: triggers dropped, and put back afterwards."""
    conn = sqlite3.connect(db, isolation_level=None)
    triggers = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for (sql,) in triggers:
        conn.execute(f"DROP TRIGGER {sql.split()[2]}")
    try:
        yield conn
    finally:
        for (sql,) in triggers:
            conn.execute(sql)
        conn.close()


def rechain(conn: sqlite3.Connection, start: int = 1) -> None:
    """Recompute every hash of the encounter of position `start`, from there on, as a forger
    who knows the format would."""
    (encounter, version) = conn.execute(
        "SELECT encounter, version FROM events WHERE position = ?", (start,)
    ).fetchone()
    prev = conn.execute(
        "SELECT hash FROM events WHERE encounter = ? AND version = ?", (encounter, version - 1)
    ).fetchone()
    prev_hash = prev[0] if prev else GENESIS
    rows = conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE encounter = ? AND version >= ? ORDER BY version",
        (encounter, version),
    ).fetchall()
    for row in rows:
        event = StoredEvent(*row)
        digest = event.computed_hash(prev_hash)
        conn.execute(
            "UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?",
            (prev_hash, digest, event.position),
        )
        prev_hash = digest


FIGHT = "gunfight"

# What an audit must name for an edit: a position, or a read-model (table, row), or None
# when only the missing guards are the finding.
Expected = int | tuple[str, list] | None
Tamper = Callable[[sqlite3.Connection], Expected]


def last_step(conn: sqlite3.Connection, encounter: str = FIGHT) -> tuple[int, int, int]:
    return conn.execute(
        "SELECT step, first_version, last_version FROM steps WHERE encounter = ? "
        "ORDER BY step DESC LIMIT 1",
        (encounter,),
    ).fetchone()


def position_of(conn: sqlite3.Connection, version: int, encounter: str = FIGHT) -> int:
    return conn.execute(
        "SELECT position FROM events WHERE encounter = ? AND version = ?", (encounter, version)
    ).fetchone()[0]


def first_position(conn: sqlite3.Connection, encounter: str) -> int:
    return position_of(conn, 1, encounter)


def end_of_log(conn: sqlite3.Connection) -> int:
    """The position after the last event: where an event that was never there would stand."""
    return conn.execute("SELECT max(position) + 1 FROM events").fetchone()[0]


def edit_body(conn: sqlite3.Connection) -> int:
    conn.execute("UPDATE events SET body = body || ' ' WHERE position = 9")
    return 9


def malformed_body(conn: sqlite3.Connection) -> int:
    conn.execute("UPDATE events SET body = '{\"kind\": ' WHERE position = 7")
    return 7


def unknown_kind_rechained(conn: sqlite3.Connection) -> int:
    conn.execute(
        "UPDATE events SET body = '{\"kind\":\"made.up\"}', kind = 'made.up' WHERE position = 8"
    )
    rechain(conn, 8)
    return 8


def delete_middle_event(conn: sqlite3.Connection) -> int:
    """A deleted event is named by the position it held."""
    conn.execute("DELETE FROM events WHERE position = 6")
    return 6


def delete_last_steps_events(conn: sqlite3.Connection) -> int:
    _step, first, _last = last_step(conn)
    position = position_of(conn, first)
    conn.execute("DELETE FROM events WHERE encounter = ? AND version >= ?", (FIGHT, first))
    return position


def delete_a_steps_events(conn: sqlite3.Connection) -> int:
    """Step 4's events gone, its record kept: named where its first event stood."""
    first, last = conn.execute(
        "SELECT first_version, last_version FROM steps WHERE encounter = ? AND step = 4", (FIGHT,)
    ).fetchone()
    position = position_of(conn, first)
    conn.execute(
        "DELETE FROM events WHERE encounter = ? AND version BETWEEN ? AND ?", (FIGHT, first, last)
    )
    return position


def edit_step_range(conn: sqlite3.Connection) -> int:
    first = conn.execute(
        "SELECT first_version FROM steps WHERE encounter = ? AND step = 5", (FIGHT,)
    ).fetchone()[0]
    conn.execute(
        "UPDATE steps SET last_version = last_version - 1 WHERE encounter = ? AND step = 5",
        (FIGHT,),
    )
    return position_of(conn, first)  # an edited step record: its step's first event


def edit_undo_target(conn: sqlite3.Connection) -> int:
    step, first = conn.execute(
        "SELECT step, first_version FROM steps WHERE control = 'undo' LIMIT 1"
    ).fetchone()
    conn.execute("UPDATE steps SET target = 3 WHERE encounter = ? AND step = ?", (FIGHT, step))
    return position_of(conn, first)


def edit_undo_target_everywhere(conn: sqlite3.Connection) -> int:
    """The undo's record and its event both edited, and the chain recomputed."""
    step, first = conn.execute(
        "SELECT step, first_version FROM steps WHERE control = 'undo' LIMIT 1"
    ).fetchone()
    position = position_of(conn, first)
    conn.execute("UPDATE steps SET target = 3 WHERE encounter = ? AND step = ?", (FIGHT, step))
    conn.execute(
        'UPDATE events SET body = \'{"kind":"step.undone","step":3}\' WHERE position = ?',
        (position,),
    )
    rechain(conn, position)
    return position


def cut_tail_steps(conn: sqlite3.Connection) -> int:
    """The last two steps removed whole, events and records: only a witnessed head sees it,
    and names where the cut begins."""
    step, _first, _last = last_step(conn)
    (first,) = conn.execute(
        "SELECT first_version FROM steps WHERE encounter = ? AND step = ?", (FIGHT, step - 1)
    ).fetchone()
    position = position_of(conn, first)
    conn.execute("DELETE FROM events WHERE encounter = ? AND version >= ?", (FIGHT, first))
    conn.execute("DELETE FROM steps WHERE encounter = ? AND step >= ?", (FIGHT, step - 1))
    return position


def rewrite_rechained(conn: sqlite3.Connection) -> int:
    """An early shot's faces changed and every hash recomputed: a witnessed head sees it, an
    earlier export places it."""
    (position,) = conn.execute("SELECT min(position) FROM events WHERE kind = 'rolled'").fetchone()
    conn.execute(
        "UPDATE events SET body = replace(body, '\"faces\":[30]', '\"faces\":[31]') "
        "WHERE position = ?",
        (position,),
    )
    rechain(conn, position)
    return position


def step_without_events(conn: sqlite3.Connection) -> int:
    step, _first, last = last_step(conn)
    conn.execute(
        "INSERT INTO steps VALUES (?, ?, 'forged', 'command', NULL, ?, ?, 'gm', 'now')",
        (FIGHT, step + 1, last + 1, last + 1),
    )
    return end_of_log(conn)  # its event would follow the encounter's last: past them all


def forged_reveal(conn: sqlite3.Connection) -> int:
    """The revealed seed swapped for one that does not hash to the commitment, re-chained."""
    (position,) = conn.execute(
        "SELECT position FROM events WHERE kind = 'seed.revealed' AND encounter = ?", (FIGHT,)
    ).fetchone()
    conn.execute(
        "UPDATE events SET body = json_set(body, '$.seed', ?) WHERE position = ?",
        ("ab" * 32, position),
    )
    rechain(conn, position)
    return position


def delete_encounter(name: str, *, registry: bool) -> Tamper:
    def edit(conn: sqlite3.Connection) -> int:
        position = first_position(conn, name)
        conn.execute("DELETE FROM events WHERE encounter = ?", (name,))
        conn.execute("DELETE FROM steps WHERE encounter = ?", (name,))
        for table in (*TABLES, *(("registry",) if registry else ())):
            conn.execute(f"DELETE FROM {table} WHERE encounter = ?", (name,))
        return position  # where its first event stood

    return edit


def delete_first_events(conn: sqlite3.Connection) -> int:
    position = first_position(conn, "middle")
    conn.execute("DELETE FROM events WHERE encounter = 'middle' AND version <= 2")
    return position


def edit_read_model(table: str, sql: str, key: list) -> Tamper:
    def edit(conn: sqlite3.Connection) -> tuple[str, list]:
        conn.execute(sql)
        return table, key

    return edit


def triggers_dropped(conn: sqlite3.Connection) -> None:
    """Handled by the caller: the triggers are left off."""


# name -> (edit, needs a witnessed head: none, the fight's, the last encounter's)
TAMPERS: dict[str, tuple[Tamper, str]] = {
    "body edited": (edit_body, ""),
    "body no longer JSON": (malformed_body, ""),
    "unknown kind, chain recomputed": (unknown_kind_rechained, ""),
    "event deleted mid-log": (delete_middle_event, ""),
    "a step's events deleted, its record kept": (delete_a_steps_events, ""),
    "last step's events deleted": (delete_last_steps_events, ""),
    "a step's version range edited": (edit_step_range, ""),
    "an undo's target edited": (edit_undo_target, ""),
    "an undo's target edited, event too, re-chained": (edit_undo_target_everywhere, ""),
    "a step record with no events": (step_without_events, ""),
    "a revealed seed forged, re-chained": (forged_reveal, ""),
    "a middle encounter deleted whole": (delete_encounter("middle", registry=False), ""),
    "a middle encounter deleted with its registry entry": (
        delete_encounter("middle", registry=True),
        "",
    ),
    "last-started encounter's events deleted": (delete_encounter("last", registry=False), ""),
    "last-started encounter deleted whole, registry too": (
        delete_encounter("last", registry=True),
        "last",
    ),
    "an encounter's first events deleted": (delete_first_events, ""),
    "read model encounter_view edited": (
        edit_read_model(
            "encounter_view",
            f"UPDATE encounter_view SET round = round + 1 WHERE encounter = '{FIGHT}'",
            [FIGHT],
        ),
        "",
    ),
    "read model initiative edited": (
        edit_read_model(
            "initiative",
            f"UPDATE initiative SET combatant = 'zed' WHERE encounter = '{FIGHT}' AND ord = 1",
            [FIGHT, 1],
        ),
        "",
    ),
    "read model wounds edited": (
        edit_read_model(
            "wounds",
            f"UPDATE wounds SET current = 40 WHERE encounter = '{FIGHT}' AND combatant = 'bob'",
            [FIGHT, "bob"],
        ),
        "",
    ),
    "read model pins: a row slipped in": (
        edit_read_model(
            "pins",
            f"INSERT INTO pins VALUES ('{FIGHT}', 'alice', 'bob', 'grapple')",
            [FIGHT, "alice", "bob"],
        ),
        "",
    ),
    "tail steps cut off": (cut_tail_steps, FIGHT),
    "early roll rewritten, chain recomputed": (rewrite_rechained, FIGHT),
    "append-only triggers dropped": (triggers_dropped, ""),
}


class TamperedFight(msgspec.Struct):
    db: Path
    heads: dict[str, str]  # encounter -> a head code noted at the table
    export: Path  # an earlier export, as a player kept it


def tampered_fight(workdir: Path) -> TamperedFight:
    """The gunfight, undone and redone, its seed revealed, then two more encounters."""
    db = workdir / "original.db"
    gunfight(db, steps=6)
    heads: dict[str, str] = {}
    with Fracas(db) as fracas:
        e = fracas.encounter()
        e.undo()
        e.undo()
        e.redo()
        e.reveal()
        e.note("after the undo")
        heads[FIGHT] = fracas.store.head_code(e.id)
        e.note("later note")
        for name in ("middle", "last"):
            other = fracas.new("percentile", title=name, encounter=name)
            other.note(f"{name} begins")
            other.note(f"{name} goes on")
            heads[name] = fracas.store.head_code(name)
        export = workdir / "earlier.jsonl"
        with export.open("w") as out:
            fracas.export_jsonl(out)
    return TamperedFight(db, heads, export)


def tamper_matrix(workdir: Path, random_edits: int = 0, seed: int = 11) -> Figures:
    """Every kind of edit caught and named at its first bad position; random edits too."""
    figures = Figures("tamper matrix")
    original = tampered_fight(workdir)
    for name, (edit, witness) in TAMPERS.items():
        copy = workdir / "tampered.db"
        shutil.copy(original.db, copy)
        with unguarded(copy) as conn:
            expected = edit(conn)
        if name == "append-only triggers dropped":
            conn = sqlite3.connect(copy, isolation_level=None)
            for trigger in ("events_no_update", "steps_no_delete"):
                conn.execute(f"DROP TRIGGER {trigger}")
            conn.close()
        args = ["audit", "--json"]
        if witness:
            args = ["--encounter", witness, *args, "--head", original.heads[witness]]
        if name == "early roll rewritten, chain recomputed":
            args += ["--against", str(original.export)]
        judge_audit(figures, name, fracas_cli(copy, *args), expected, "kinds")
        for leftover in workdir.glob("tampered.db*"):
            leftover.unlink()
    rng = random.Random(seed)
    tried = 0
    while tried < random_edits:
        copy = workdir / "tampered.db"
        shutil.copy(original.db, copy)
        with unguarded(copy) as conn:
            expected = random_edit(conn, rng)
        if expected is not None:
            tried += 1
            judge_audit(figures, "random edit", fracas_cli(copy, "audit", "--json"), expected)
        for leftover in workdir.glob("tampered.db*"):
            leftover.unlink()
    return figures


EVENT_FIELDS = (
    "encounter",
    "version",
    "step",
    "kind",
    "author",
    "at",
    "schema",
    "body",
    "salt",
    "prev_hash",
    "hash",
    "scope",
)
STEP_FIELDS = ("step", "control", "target", "first_version", "last_version", "author", "at")


def random_edit(conn: sqlite3.Connection, rng: random.Random) -> int | None:
    """One column of one row of the log set to something else; the position the audit must
    name (the event's own, or a step record's first event), or None if nothing changed.
    (A step's command id is an idempotency key, not part of the record: not edited.)"""
    table, fields = rng.choice([("events", EVENT_FIELDS), ("steps", STEP_FIELDS)])
    column = rng.choice(fields)
    (count,) = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
    if table == "events":
        key = (rng.randint(1, count),)
        where, expected = "position = ?", key[0]
    else:
        encounter, step, first = conn.execute(
            "SELECT encounter, step, first_version FROM steps ORDER BY encounter, step "
            "LIMIT 1 OFFSET ?",
            (rng.randrange(count),),
        ).fetchone()
        key = (encounter, step)
        where, expected = "encounter = ? AND step = ?", position_of(conn, first, encounter)
    (old,) = conn.execute(f"SELECT {column} FROM {table} WHERE {where}", key).fetchone()
    new: Any = rng.choice(
        [
            None if column == "target" else 0,
            rng.randint(-2, 60),
            "x",
            (old or "") + " " if isinstance(old, str) else (old or 0) + 1,
            json.dumps({"kind": "note", "text": "forged"}),
        ]
    )
    if new == old:
        return None
    try:
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (new, *key))
    except sqlite3.IntegrityError:
        return None  # a NOT NULL or unique column refused the edit: the file is unchanged
    if table == "steps" and column == "last_version" and claims_past_the_end(conn, key[0], new):
        # a record claiming events past the encounter's last reads as that last event deleted
        # (the file cannot tell the two apart): audit names where the first missing one stood
        return first_free_after_encounter(conn, key[0])
    return expected


def claims_past_the_end(conn: sqlite3.Connection, encounter: str, last_version: Any) -> bool:
    (count,) = conn.execute(
        "SELECT count(*) FROM events WHERE encounter = ?", (encounter,)
    ).fetchone()
    return isinstance(last_version, int) and last_version > count


def first_free_after_encounter(conn: sqlite3.Connection, encounter: str) -> int:
    (last,) = conn.execute(
        "SELECT max(position) FROM events WHERE encounter = ?", (encounter,)
    ).fetchone()
    (free,) = conn.execute(
        "SELECT min(q) FROM (SELECT ? + 1 AS q UNION ALL SELECT position + 1 FROM events "
        "WHERE position > ?) WHERE q NOT IN (SELECT position FROM events)",
        (last, last),
    ).fetchone()
    return int(free)


def judge_audit(
    figures: Figures,
    name: str,
    result: subprocess.CompletedProcess,
    expected: Expected,
    group: str = "random edits",
) -> None:
    """Caught (exit 1, no traceback) and named exactly: the first bad position itself, or
    the read model's table and row. Counted per group: caught, and placed exactly."""
    figures.trials += 1
    figures.add(group)
    figures.add("tracebacks", int(traceback_in(result.stderr)))
    if result.returncode != 1:
        figures.add("edits not caught")
        figures.counts.setdefault("missed", [])  # type: ignore[arg-type]
        figures.counts["missed"].append(name)  # type: ignore[union-attr]
        return
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        figures.add("edits not caught")
        print(f"{name}: no report: {result.stderr.strip()}", file=sys.stderr)
        return
    figures.add(f"{group} caught")
    if isinstance(expected, tuple):
        models = report["read_models"] or {}
        named: Any = (models.get("table"), models.get("row"))
        expected = (expected[0], list(expected[1]))
    elif expected is None:
        named = None if report["missing_triggers"] else "no missing guards"
    else:
        named = report["bad_position"]
    if named != expected:
        figures.add("wrong position named")
        print(f"{name}: named {named}, expected {expected}", file=sys.stderr)
    else:
        figures.add(f"{group} placed exactly")


# -- 4. hostile input ------------------------------------------------------------------------


def hostile_inputs(workdir: Path, examples: int, seed: int = 5) -> Figures:
    """Malformed arguments, sheets and imports through the CLI: every refusal is an
    `Error:` line (or click's usage message), never a traceback, and nothing is appended."""
    figures = Figures("hostile inputs (arguments, sheets, imports)")
    db = workdir / "hostile.db"
    runner = CliRunner()
    runner.invoke(cli, ["--db", str(db), "new"])
    runner.invoke(cli, ["--db", str(db), "add", "alice", "--set", PISTOL])
    runner.invoke(cli, ["--db", str(db), "add", "bob"])
    runner.invoke(cli, ["--db", str(db), "begin"])
    rng = random.Random(seed)
    for _ in range(examples):
        args, files = hostile_case(rng, workdir)
        before = Store(db, readonly=True)
        count = before.head(before.encounters()[-1])
        before.close()
        result = runner.invoke(cli, ["--db", str(db), *args])
        figures.trials += 1
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        figures.add("tracebacks", int(crashed))
        after = Store(db, readonly=True)
        changed = after.head(after.encounters()[-1]) != count
        after.close()
        figures.add("refused", int(result.exit_code != 0))
        figures.add("appended on refusal", int(result.exit_code != 0 and changed))
        for path in files:
            path.unlink(missing_ok=True)
    return figures


WORDS = [
    "alice",
    "bob",
    "",
    "-1",
    "0",
    "99999999999999999999",
    "d6",
    "[",
    "]",
    "=",
    "x=y",
    "\u0000",
    "é",
    "a" * 500,
    "--dice",
    "--weapon",
    "attack",
    "1d99999999999",
    "10000000d6",
    "${HOME}",
    "'",
    '"',
    "..",
    "/proc/version",
    "nan",
    "inf",
    "true",
]
COMMANDS = [
    "act",
    "add",
    "begin",
    "next",
    "undo",
    "redo",
    "status",
    "log",
    "replay",
    "whatif",
    "adopt",
    "export",
    "import",
    "audit",
    "note",
    "new",
    "disclose",
    "head",
]


def hostile_case(rng: random.Random, workdir: Path) -> tuple[list[str], list[Path]]:
    kind = rng.choice(["args", "sheet", "import", "set"])
    files: list[Path] = []
    if kind == "sheet":
        path = workdir / "hostile.toml"
        path.write_bytes(hostile_bytes(rng))
        files.append(path)
        return ["add", f"c{rng.randint(0, 9)}", "--sheet", str(path)], files
    if kind == "import":
        path = workdir / "hostile.jsonl"
        path.write_bytes(hostile_bytes(rng))
        files.append(path)
        return ["import", str(path)], files
    if kind == "set":
        value = rng.choice([*WORDS, json.dumps(rng.choice(WORDS)), "[" * 3000 + "]" * 3000])
        return [
            "add",
            "carol",
            "--set",
            f"{rng.choice(['dex', 'weapons', 'hp', 'a.b'])}={value}",
        ], files
    return [rng.choice(COMMANDS), *rng.sample(WORDS, rng.randint(0, 4))], files


def hostile_bytes(rng: random.Random) -> bytes:
    choices = [
        lambda: os.urandom(rng.randint(1, 4000)),
        lambda: "dex = 10\n".encode("utf-16"),
        lambda: ("a = " + "[" * 5000 + "]" * 5000).encode(),
        lambda: ('{"type": "header", "format": 3' + "}" * rng.randint(0, 2)).encode(),
        lambda: ('{"type":"event"' + ",[" * 3000).encode(),
        lambda: b'dex = "ten"\nskills.firarms = 60\n',
        lambda: b"weapons = [{name='x', kind='firearm', damage='1d99999999999'}]\n",
        lambda: b"",
        lambda: b"\xff\xfe\x00\x00",
    ]
    return rng.choice(choices)()


# -- 5. secrets ------------------------------------------------------------------------------


def players_exports(db: Path) -> dict[str, str]:
    return {
        fmt: fracas_cli(db, "export", "--format", fmt, "--for", "players").stdout
        for fmt in ("jsonl", "md", "html")
    }


# The three fields that differ between any two recordings, equal or not, and depend on no
# roll: the dice seed's commitment (random), the wall clock, and command ids (random).
FIXED = (
    "import itertools, uuid, fracas.rules.encounter as e, fracas.ledger.base as s; "
    "e.new_seed = lambda: '11' * 32; s.now = lambda: '2026-01-01T00:00:00.000+00:00'; "
    "ids = itertools.count(); uuid.uuid4 = lambda: uuid.UUID(int=next(ids)); "
    "e.new_command_id = lambda: f'{next(ids):032x}'"
)


def non_interference(workdir: Path, pairs: int, seed: int = 3) -> Figures:
    """Fights that differ only in a secret roll's faces (hit or miss, how much damage):
    their players' exports must not differ at all. The wall clock and the dice seed are
    fixed for the comparison, as they are independent of any roll."""
    figures = Figures("players' exports of fights differing in secret rolls")
    rng = random.Random(seed)
    for pair in range(pairs):
        exports = []
        for faces in ([rng.randint(1, 40), rng.randint(1, 10)], [rng.randint(61, 100)]):
            db = workdir / f"secret-{pair}-{len(exports)}.db"
            code = (
                f"{FIXED}\nfrom bench.reliability.trials import gunfight\n"
                "from pathlib import Path\n"
                f"gunfight(Path({str(db)!r}), steps=5, secret_faces={faces})"
            )
            subprocess.run([PYTHON, "-c", code], check=True, cwd=Path(__file__).parents[2])
            exports.append(players_exports(db))
        figures.trials += 1
        for fmt in ("jsonl", "md", "html"):
            figures.add(f"{fmt} differences", int(exports[0][fmt] != exports[1][fmt]))
    return figures


def seed_in_bytes(workdir: Path) -> Figures:
    """The unrevealed seed is nowhere in the log's bytes (file and WAL), only in the key
    file; once revealed it is in the log, as it should be."""
    figures = Figures("sealed seed in the log's bytes")
    db = workdir / "seeded.db"
    gunfight(db, steps=2)
    with Fracas(db) as fracas:
        e = fracas.encounter()
        e.note("a seeded fight goes on")
        seed = e.sealed_seed() or ""
        images = [p.read_bytes() for p in workdir.glob("seeded.db*") if not p.name.endswith("keys")]
        figures.trials += 1
        figures.add("seed found in .db or WAL", sum(seed.encode() in image for image in images))
        figures.add(
            "seed missing from key file", int(seed.encode() not in Path(f"{db}.keys").read_bytes())
        )
        figures.add("key file not owner-only", int(os.stat(f"{db}.keys").st_mode & 0o077 != 0))
    return figures


# -- 6. opening files ------------------------------------------------------------------------

HOLD_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO fracas_migrations VALUES (999, 'held')")
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


def status_under_lock(workdir: Path) -> Figures:
    """`status` while another process holds the write lock answers at once."""
    figures = Figures("reads while another process writes")
    db = workdir / "locked.db"
    gunfight(db, steps=1)
    holder = subprocess.Popen(
        [PYTHON, "-c", HOLD_LOCK, str(db), "8"], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    started = time.perf_counter()
    status = fracas_cli(db, "status", "--json")
    figures.counts["status seconds"] = round(time.perf_counter() - started, 3)
    note = fracas_cli(db, "note", "blocked", env={"FRACAS_BUSY_TIMEOUT": "0.5"})
    holder.kill()
    holder.wait()
    figures.trials += 1
    figures.add("status failed", int(status.returncode != 0))
    figures.add("write under lock not told plainly", int("busy" not in note.stderr))
    figures.add("tracebacks", int(traceback_in(status.stderr + note.stderr)))
    return figures


def opening_files(workdir: Path) -> Figures:
    """Missing paths, foreign SQLite files, non-SQLite files and newer logs: refused in one
    line, nothing created, nothing changed."""
    figures = Figures("opening files (missing, foreign, newer)")
    missing = workdir / "typo.db"
    foreign = workdir / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    text = workdir / "text.db"
    text.write_text("not a database\n")
    newer = workdir / "newer.db"
    gunfight(newer, steps=1)
    conn = sqlite3.connect(newer)
    conn.execute("INSERT INTO fracas_migrations VALUES (99, 'future')")
    conn.commit()
    conn.close()
    present = set(workdir.iterdir())
    for path in (foreign, text, newer):
        before = path.read_bytes()
        for args in (["status"], ["audit"], ["note", "x"], ["add", "x"], ["new"], ["log"]):
            result = fracas_cli(path, *args)
            figures.trials += 1
            figures.add("not refused", int(result.returncode == 0))
            figures.add("more than one line", int(len(result.stderr.strip().splitlines()) != 1))
        figures.add("files changed", int(path.read_bytes() != before))
    newer_said = fracas_cli(newer, "status").stderr
    figures.add(
        "newer schema not named",
        int("schema 99" not in newer_said or f"schema {SCHEMA}" not in newer_said),
    )
    for args in (["status"], ["audit"], ["log"], ["export"]):
        result = fracas_cli(missing, *args)
        figures.trials += 1
        figures.add(
            "not refused", int(result.returncode == 0 or "no fracas log at" not in result.stderr)
        )
    figures.add("files created", len(created(present, workdir)))
    return figures


def created(present: set[Path], workdir: Path) -> set[Path]:
    """Files made since `present`, beside SQLite's own -wal and -shm of a log it read."""
    return {p for p in set(workdir.iterdir()) - present if not p.name.endswith(("-wal", "-shm"))}


@contextmanager
def mounted(kind: str, workdir: Path, source: Path | None = None, size: str = "") -> Iterator[Path]:
    """A read-only bind mount of `source`, or a small tmpfs: real media behaviour, no mocks."""
    target = Path(tempfile.mkdtemp(dir=workdir))
    if kind == "ro":
        commands = [
            ["mount", "--bind", str(source), str(target)],
            ["mount", "-o", "remount,ro,bind", str(target)],
        ]
    else:
        commands = [["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target)]]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            subprocess.run(["umount", str(target)], capture_output=True)
            raise PermissionError(f"cannot mount here: {done.stderr.strip()}")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def read_only_media(workdir: Path) -> Figures:
    figures = Figures("read-only media")
    source = workdir / "ro-source"
    source.mkdir()
    gunfight(source / "fight.db", steps=2)
    with mounted("ro", workdir, source) as media:
        for args in (["status"], ["log"], ["audit"], ["export"], ["replay", "--round", "1"]):
            result = fracas_cli(media / "fight.db", *args)
            figures.trials += 1
            figures.add("reads failed", int(result.returncode != 0))
        refused = fracas_cli(media / "fight.db", "note", "x")
        figures.add(
            "write not refused in one line",
            int(refused.returncode == 0 or len(refused.stderr.strip().splitlines()) != 1),
        )
        figures.add("tracebacks", int(traceback_in(refused.stderr)))
    return figures


def full_disk(workdir: Path) -> Figures:
    """A log on a tiny tmpfs filled up: every command says so in one line, no traceback,
    nothing lost; an export to a full device is one line too."""
    figures = Figures("full disk")
    with mounted("tmpfs", workdir, size="600k") as disk:
        db = disk / "fight.db"
        gunfight(db, steps=1)
        filler = disk / "filler"
        with suppress(OSError), open(filler, "wb") as handle:
            while True:
                handle.write(b"\0" * 4096)
                handle.flush()
        results = []
        for n in range(40):  # until three notes in a row are refused: any slack used up
            results.append(fracas_cli(db, "note", f"note {n}"))
            if len(results) >= 3 and all(r.returncode != 0 for r in results[-3:]):
                break
        results += [fracas_cli(db, *args) for args in (["status"], ["audit"], ["log"])]
        results.append(fracas_cli(db, "export", "-o", str(disk / "out.jsonl")))
        results.append(fracas_cli(db, "export", "-o", "/dev/full"))
        for result in results:
            figures.trials += 1
            figures.add("tracebacks", int(traceback_in(result.stderr)))
            if result.returncode != 0:
                figures.add("refusals", 1)
                figures.add(
                    "refusals not one line", int(len(result.stderr.strip().splitlines()) != 1)
                )
        figures.add("half-written exports", int((disk / "out.jsonl").exists()))
        filler.unlink()
        store = Store(db, readonly=True)
        figures.add("broken logs", int(not (store.verify().ok and store.check_steps().ok)))
        store.close()
    return figures
