"""Trials of the guard round (issues 29 and 30): `new` racing on a missing file, and numbers
and hex that do not fit, through CLI options, imports, sheets, key files and the log.

Each returns a `Figures` (see trials.py); a promise holds when its bad counts are 0.
"""

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bench.reliability.trials import PYTHON, Figures, rechain, traceback_in
from fracas.cli.main import cli
from fracas.ledger import Store

SUFFIXES = ("", "-wal", "-shm", ".keys", ".keys-journal")

# A racer: one process that runs `fracas new --id ID` on each path it is handed, at once
# with the others (the parent hands every racer its line together), and answers with
# the exit code, stdout and stderr as JSON.
RACER = r"""
import io, json, sys, traceback
from contextlib import redirect_stderr, redirect_stdout
from fracas.cli.main import cli
import fracas.projections.app, fracas.rules.percentile  # loaded before the start
print("ready", flush=True)
for line in sys.stdin:
    db, encounter = json.loads(line)
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            cli.main(["--db", db, "new", "--id", encounter], prog_name="fracas")
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else int(done.code is not None)
        except BaseException:
            traceback.print_exc()
            code = -1
    print(json.dumps([code, out.getvalue(), err.getvalue()]), flush=True)
"""


def racing_new_missing(workdir: Path, rounds: int, racers: int = 4) -> Figures:
    """`fracas new --id eN` (distinct ids) from several fresh processes at once on a file
    that does not exist yet: every encounter acknowledged is there afterwards, every process
    that did not succeed is told in one line, and nothing another process made is removed."""
    figures = Figures(f"racing `new` (distinct ids) on a missing file, {racers} processes")
    for number in range(rounds):
        db = workdir / f"race-{number}.db"
        judge_race(figures, db, race(db, racers))
    stray = [p.name for p in workdir.iterdir() if p.name.startswith(".")]
    figures.add("private files left behind", len(stray))
    return figures


def race(db: Path, racers: int) -> list[list[Any]]:
    """One round: fresh processes, each told its id together once all are ready."""
    children = [
        subprocess.Popen(
            [PYTHON, "-c", RACER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for _ in range(racers)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for n, child in enumerate(children):
        assert child.stdin is not None
        child.stdin.write(json.dumps([str(db), f"e{n}"]) + "\n")
        child.stdin.close()
    results = []
    for child in children:
        assert child.stdout is not None
        results.append(json.loads(child.stdout.read()))
        child.wait(timeout=120)
    return results


def judge_race(figures: Figures, db: Path, results: list[list[Any]]) -> None:
    figures.trials += 1
    acknowledged = {f"e{n}" for n, (code, out, _) in enumerate(results) if code == 0}
    figures.add("encounters acknowledged", len(acknowledged))
    figures.add("tracebacks", sum(traceback_in(err) for _, _, err in results))
    refused = [err for code, _, err in results if code != 0]
    figures.add("refusals", len(refused))
    figures.add("refusals not one line", sum(len(err.strip().splitlines()) != 1 for err in refused))
    figures.add(
        "wrong id printed",
        sum(out.strip() != f"e{n}" for n, (code, out, _) in enumerate(results) if code == 0),
    )
    if not db.exists():
        figures.add("acknowledged but lost", len(acknowledged))
        return
    with Store(db, readonly=True) as store:
        present = set(store.encounters())
        sound = store.verify().ok and store.check_steps().ok
        sealed = all(store.unseal(commitment_of(store, name)) for name in present)
    figures.add("acknowledged but lost", len(acknowledged - present))
    figures.add("broken logs", int(not sound))
    figures.add("seeds missing from the key file", int(not sealed))
    figures.add("key files not owner-only", int(os.stat(f"{db}.keys").st_mode & 0o077 != 0))


def commitment_of(store: Store, encounter: str) -> str:
    (body,) = store.conn.execute(
        "SELECT body FROM events WHERE encounter = ? AND version = 1", (encounter,)
    ).fetchone()
    return json.loads(body)["seed_sha256"]


# -- hostile numbers and hex -----------------------------------------------------------------

NUMBERS = ["9223372036854775808", "-9223372036854775809", "1" + "0" * 30, "٣", "１２"]
PISTOL = 'weapons=[{name="pistol",kind="firearm",damage="1d10"}]'


def option_cases(n: str) -> list[list[str]]:
    """Every option and argument that takes a whole number, given `n`."""
    return [
        ["audit", "--head", f"{n}-abcdef"],
        ["head", "--step", n],
        ["status", "--at", n],
        ["replay", "--round", n],
        ["replay", "--steps", n],
        ["replay", "--steps", f"1..{n}"],
        ["replay", "--turn", f"{n}:alice"],
        ["whatif", "--step", n],
        ["adopt", "--step", n],
        ["whatif", "--step", "4", "--dice", n],
        ["disclose", n],
        ["harm", "bob", n],
        ["heal", "bob", n],
        ["act", "alice", "attack", "bob", "-w", "pistol", "--mod", n, "--dice", "30,5"],
        ["act", "alice", "attack", "bob", "-w", "pistol", "--dice", n],
        ["act", "alice", "attack", "bob", "-w", "pistol", "--dice", f"30,{n}"],
        ["act", "alice", "aim", "--opt", f"x={n}"],
        ["add", "carol", "--set", f"dex={n}"],
        ["add", "carol", "--count", n],
        ["new", "--limit", f"dice={n}"],
        ["new", "--option", f"dex_ties={n}"],
        ["begin", "--opt", f"x={n}"],
    ]


HEX_CASES = [
    ["audit", "--head", "3-zzzzzz"],
    ["audit", "--head", "3-" + "a" * 65],
    ["audit", "--head", "3-ABCDEF"],
    ["audit", "--head", "-abcdef"],
]


def setting_up(db: Path) -> CliRunner:
    runner = CliRunner()
    for args in (
        ["new", "--id", "fight"],
        ["add", "alice", "--set", "dex=14", "--set", "skills.firearms=60", "--set", PISTOL,
         "--set", 'holding=["pistol"]'],
        ["add", "bob", "--set", "hp=30"],
        ["begin"],
        ["act", "alice", "attack", "bob", "-w", "pistol"],
    ):  # fmt: skip
        result = runner.invoke(cli, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output
    return runner


def written(db: Path) -> tuple[int, ...]:
    """How much the log and its key file hold: events, steps, sealed secrets."""
    if not db.exists():
        return (0, 0, 0)
    conn = sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True)
    try:
        counts = [
            conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("events", "steps")
        ]
    finally:
        conn.close()
    keys = Path(f"{db}.keys")
    if keys.exists():
        conn = sqlite3.connect(f"{keys.absolute().as_uri()}?mode=ro", uri=True)
        try:
            counts.append(conn.execute("SELECT count(*) FROM sealed").fetchone()[0])
        finally:
            conn.close()
    return tuple(counts)


def hostile_numbers(workdir: Path) -> Figures:
    """Whole numbers that do not fit (2^63, -2^63-1, 10^30, non-ASCII digits) and hex that
    is not hex, through CLI options, imports, audits against exports, sheets, key files and
    the log itself: one line or a correct answer, never a traceback, nothing appended on a
    refusal."""
    figures = Figures("hostile numbers and hex (options, imports, sheets, key files, log)")
    db = workdir / "hostile.db"
    runner = setting_up(db)
    export = workdir / "backup.jsonl"
    runner.invoke(cli, ["--db", str(db), "export", "--with-secrets", "-o", str(export)])
    cases: list[tuple[Path, list[str]]] = []
    for n in NUMBERS:
        cases += [(db, args) for args in option_cases(n)]
        cases += sheet_cases(workdir, n)
    cases += [(db, args) for args in HEX_CASES]
    for name, path in bad_exports(workdir, export):
        target = workdir / f"imported-{name}.db"
        cases += [(target, ["import", str(path)]), (db, ["audit", "--against", str(path)])]
    for path, args in cases:
        judge(figures, runner, path, args)
    for label, (path, commands) in damaged_logs(workdir, runner).items():
        for args in commands:
            judge(figures, runner, path, args, label)
    return figures


def judge(figures: Figures, runner: CliRunner, db: Path, args: list[str], label: str = "") -> None:
    before = written(db)
    existed = db.exists()
    result = runner.invoke(cli, ["--db", str(db), *args])
    figures.trials += 1
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    figures.add("tracebacks", int(crashed))
    if crashed:
        print(f"traceback: {label} {args}: {result.exception!r}", file=sys.stderr)
    if result.exit_code == 0:
        return
    figures.add("refused", 1)
    figures.add("appended on refusal", int(written(db) != before))
    figures.add("files left by a refused import", int(not existed and db.exists()))
    lines = [line for line in result.output.strip().splitlines() if line.startswith("Error")]
    verdict = args[0] == "audit" and "hash chain:" in result.output  # an audit's findings
    figures.add("refusals without an Error line", int(not lines and not verdict))


def sheet_cases(workdir: Path, n: str) -> list[tuple[Path, list[str]]]:
    digits = n if n.lstrip("-").isascii() else f'"{n}"'
    path = workdir / f"sheet-{len(n)}-{n[:2]}.toml"
    path.write_text(f"dex = {digits}\nhp = {digits}\n[skills]\nfirearms = {digits}\n")
    return [(workdir / "hostile.db", ["add", "dave", "--sheet", str(path)])]


def bad_exports(workdir: Path, export: Path) -> Iterator[tuple[str, Path]]:
    """The backup with one field made hostile: every whole number of every line kind,
    and the sealed seeds' hex."""
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    fields = {
        "header": ["format", "schema", "head_position", "events"],
        "event": ["position", "version", "step", "schema", "scope"],
        "step": ["step", "first_version", "last_version", "target"],
    }
    for kind, names in fields.items():
        for name in names:
            for value in (2**63, -(2**63) - 1, 10**30):
                yield f"{kind}-{name}-{value}", edited(workdir, lines, kind, name, value)
    for name, value in (("value", "zz" * 32), ("name", "zz" * 32), ("value", "ABC")):
        yield f"secret-{name}-{value}", edited(workdir, lines, "secret", name, value)
    yield "secret-unnamed", edited(workdir, lines, "secret", "name", None, value="zz" * 32)


def edited(
    workdir: Path, lines: list[dict[str, Any]], kind: str, field: str, to: Any, **more: Any
) -> Path:
    """The export's lines with `field` of the first line of `kind` set `to` a value (and
    any `more` fields), written to a file of their own."""
    out = []
    done = False
    for line in lines:
        line = dict(line)
        if line["type"] == kind and not done:
            line[field] = to
            line.update(more)
            done = True
        out.append(json.dumps(line))
    path = workdir / f"bad-{kind}-{field}-{str(to)[:8]}-{len(more)}.jsonl"
    path.write_text("\n".join(out) + "\n")
    return path


Edit = Callable[[sqlite3.Connection], None]


def damaged_logs(workdir: Path, runner: CliRunner) -> dict[str, tuple[Path, list[list[str]]]]:
    """Copies of a fight with a bad key file, a revealed seed that is not hex, and an
    encounter whose first event is gone; each with the commands that read what is bad."""
    base = workdir / "base.db"
    setting_up(base)
    reading = [["status"], ["status", "--json"], ["log"], ["encounters"], ["audit"],
               ["audit", "--head", "3-abcdef"], ["replay", "--round", "1"], ["head"],
               ["export"], ["export", "--format", "md"], ["export", "--with-secrets"]]  # fmt: skip
    seeded = [["act", "bob", "attack", "alice"], ["act", "bob", "aim"], ["note", "x"]]
    found: dict[str, tuple[Path, list[list[str]]]] = {}
    for label, edit, keys in (
        ("key file holds a non-hex seed", None, "zz" * 32),
        ("key file holds another seed", None, "ab" * 32),
        ("key file missing", None, ""),
        ("revealed seed not hex", reveal_not_hex, None),
        ("first event gone", first_event_gone, None),
    ):
        path = workdir / f"{label.replace(' ', '-')}.db"
        copy_log(base, path)
        if keys is not None:
            set_keys(path, keys)
        if edit is not None:
            runner.invoke(cli, ["--db", str(path), "reveal"])
            with forged(path) as conn:
                edit(conn)
        found[label] = (path, reading + seeded)
    return found


def copy_log(source: Path, target: Path) -> None:
    conn = sqlite3.connect(source)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    target.write_bytes(source.read_bytes())
    keys = Path(f"{source}.keys")
    fd = os.open(f"{target}.keys", os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(keys.read_bytes())


def set_keys(db: Path, value: str) -> None:
    """Every sealed seed's value replaced (or the key file removed, for '')."""
    if not value:
        os.remove(f"{db}.keys")
        return
    conn = sqlite3.connect(f"{db}.keys", isolation_level=None)
    conn.execute("UPDATE sealed SET value = ?", (value,))
    conn.close()


class forged:
    """The log opened as a forger would: triggers dropped (left off afterwards)."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.conn = sqlite3.connect(self.db, isolation_level=None)
        for (name,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'"):
            self.conn.execute(f"DROP TRIGGER {name}")
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def reveal_not_hex(conn: sqlite3.Connection) -> None:
    """The revealed seed made not hex, and the chain recomputed as a forger would."""
    (position,) = conn.execute(
        "SELECT position FROM events WHERE kind = 'seed.revealed'"
    ).fetchone()
    conn.execute(
        "UPDATE events SET body = json_set(body, '$.seed', 'not hex at all') WHERE position = ?",
        (position,),
    )
    rechain(conn, position)


def first_event_gone(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM events WHERE version = 1")
