"""The hostile user's trials of a log on a PostgreSQL server (Debian's binaries, started
here by bench/pgserver.py): a server restarted under a running `fracas serve` and a Python
session, many writers appending to one encounter, and what the players' role can read.

`bench/reliability/run.py` runs them at full size; tests/test_postgres_trust.py small.
"""

import io
import json
import random
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import psycopg

from bench.pgserver import INSTALL_HINT, Server, binaries
from bench.reliability.trials import FRACAS, PYTHON, Figures, traceback_in
from fracas.ledger import FracasError, open_store
from fracas.projections import Fracas
from fracas.rules import Encounter


def need_server() -> None:
    """PermissionError (what run.py reports as `not run`) when there is no server to start."""
    if binaries() is None:
        raise PermissionError(INSTALL_HINT)


# -- a server restarted under a running serve and a running API session ----------------------


class Session(threading.Thread):
    """A Python caller appending notes to one encounter as fast as it can, counting what the
    API acknowledged, what it refused in one line, and what escaped raw."""

    def __init__(self, url: str, encounter: str) -> None:
        super().__init__(daemon=True)
        self.fracas = Fracas(url)
        self.live = self.fracas.encounter(encounter)
        self.acknowledged: list[float] = []
        self.refusals: list[str] = []
        self.raw: list[str] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.live.note(f"note {len(self.acknowledged)}")
                self.acknowledged.append(time.monotonic())
            except FracasError as error:
                self.refusals.append(str(error))
            except Exception as error:  # what escapes raw is what the trial counts
                self.raw.append(f"{type(error).__name__}: {error}")
                time.sleep(0.05)

    def stop(self) -> None:
        self.stopping.set()
        self.join(30)
        self.fracas.close()


class Serve:
    """`fracas serve` as a real process, its output read as it comes."""

    def __init__(self, url: str) -> None:
        self.process = subprocess.Popen(
            [*FRACAS, "--db", url, "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.root = ""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if found := re.search(r"players: (\S+)", line):
                self.root = found[1].rstrip("/")
            if "GM:" in line:
                break
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        self.lines.extend(self.process.stdout)

    def follow(self, encounter: str) -> None:
        """Keep the encounter's players' page open, as the table's screen does: the screens
        the server pushes land in `pushed` (their step counts)."""
        self.pushed: list[int] = []
        stream = urllib.request.urlopen(f"{self.root}/e/{encounter}/stream", timeout=120)

        def read() -> None:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("data:"):
                    self.pushed.append(json.loads(line.split(":", 1)[1])["steps"])

        threading.Thread(target=read, daemon=True).start()

    def steps(self, encounter: str) -> int | None:
        """The step count the players' screen shows; None while it cannot be shown."""
        try:
            url = f"{self.root}/e/{encounter}/screen"
            html = urllib.request.urlopen(url, timeout=10).read().decode()
        except (urllib.error.URLError, TimeoutError):
            return None
        return int(html.split('data-steps="', 1)[1].split('"', 1)[0])

    def stop(self) -> str:
        """What it printed while it ran (not how it shut down)."""
        time.sleep(0.2)  # its last lines reach the pipe
        printed = "".join(self.lines)
        self.process.terminate()
        self.process.wait(10)
        return printed


def restart_trial(workdir: Path, outages: tuple[float, ...] = (1.0, 8.0)) -> Figures:
    """A durable server stopped with `pg_ctl stop -m immediate` and started again, once per
    outage (seconds down), under a running `fracas serve` and a running API session: no
    acknowledged step lost, no raw driver error, one line while down, back by itself."""
    need_server()
    figures = Figures(f"server restarts under serve and a session ({len(outages)} outages)")
    with Server() as server:
        url = server.url("restarts")
        with Fracas(url) as fracas:
            fracas.new("percentile", title="restarts", encounter="restarts")
        serve, session = Serve(url), Session(url, "restarts")
        serve.follow("restarts")
        session.start()
        recovered = {"session": 0.0, "serve": 0.0}
        try:
            for outage in outages:
                time.sleep(0.5)
                server.crash()
                time.sleep(outage)
                server.resume()
                back = time.monotonic()
                wait_for(lambda b=back: bool(session.acknowledged) and session.acknowledged[-1] > b)
                recovered["session"] = max(recovered["session"], time.monotonic() - back)
                shown = len(session.acknowledged)  # the screen shows these, and the start
                wait_for(lambda n=shown: bool(serve.pushed) and serve.pushed[-1] > n)
                recovered["serve"] = max(recovered["serve"], time.monotonic() - back)
                figures.trials += 1
        finally:
            session.stop()
            printed = serve.stop()
        with open_store(url, readonly=True) as store:
            recorded = store.head("restarts").step - 1  # step 1 started the encounter
            intact = store.verify().ok and store.check_steps().ok
    figures.add("seconds to recover: session (worst)", round(recovered["session"], 2))
    figures.add("seconds to recover: serve (worst)", round(recovered["serve"], 2))
    figures.add("acknowledged steps", len(session.acknowledged))
    figures.add("acknowledged steps lost", max(len(session.acknowledged) - recorded, 0))
    ours = ("fracas serve:", "  ", "Ctrl-C")  # its own lines: the banner, the one line
    stray = [line for line in printed.splitlines() if not line.startswith(ours)]
    figures.add("raw driver errors", len(session.raw))
    figures.add("serve's stray output lines", len(stray))
    figures.add("tracebacks", int(traceback_in(printed)))
    figures.add("refusals not one line", sum(1 for r in session.refusals if "\n" in r))
    unreachable = printed.count("is unreachable; retrying")
    long_outages = sum(1 for outage in outages if outage > 6)  # longer than a call waits
    figures.add("outages without the one line", max(long_outages - unreachable, 0))
    figures.add("broken logs", int(not intact))
    return figures


def wait_for(condition: Callable[[], bool], limit: float = 60.0) -> None:
    """Until `condition` holds (checked every 20 ms), or `limit` seconds."""
    deadline = time.monotonic() + limit
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


# -- many writers, one encounter -------------------------------------------------------------

WRITER = """
import json, sys, uuid
from fracas.ledger import ConflictError, FracasError, NewEvent, open_store
from fracas.ledger import postgres
url, name, each = sys.argv[1], sys.argv[2], int(sys.argv[3])
TALLY = "INSERT INTO tally (k, n) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = tally.n + 1"
order = [(k, 1) for k in (range(8) if int(name) % 2 else reversed(range(8)))]
if sys.argv[4]:
    postgres.RETRIES = int(sys.argv[4])
counts = {"acknowledged": 0, "conflicts": 0, "busy": 0, "refusals": 0, "raw": 0, "kinds": []}
with open_store(url) as store:
    version = store.head("crowd").version
    while counts["acknowledged"] < each:
        text = json.dumps({"kind": "note", "text": f"writer {name} note {counts['acknowledged']}"})
        try:
            result = store.append(
                "crowd", [NewEvent("note", text)], expected_version=version,
                command_id=uuid.uuid4().hex, project=lambda conn: conn.executemany(TALLY, order),
            )
            version = result.last_version
            counts["acknowledged"] += 1
        except ConflictError as error:  # the one-line conflict: read the head, try again
            counts["busy" if "is busy" in str(error) else "conflicts"] += 1
            version = store.head("crowd").version
        except FracasError as error:
            counts["refusals"] += 1
            counts["kinds"].append(str(error))
        except Exception as error:
            counts["raw"] += 1
            counts["kinds"].append(type(error).__name__)
            version = store.head("crowd").version
print(json.dumps(counts))
"""


def one_encounter_appends(
    workdir: Path, writers: int, each: int, retries: int | None = None
) -> Figures:
    """`writers` processes appending notes to one encounter at once, each reading the head
    again after the one-line conflict until it has `each` steps: no raw driver error (the
    server's deadlock victims are tried again inside fracas), no step lost or doubled.
    Each append also brings a read model of eight rows up to date, half the writers in the
    opposite order, as writers holding different views may: the server then has deadlocks
    to break (found after 20 ms, not the default second, to keep the trial short).
    `retries=1` turns the trying again off, to count them."""
    need_server()
    figures = Figures(f"one encounter, {writers} writers x {each} appends")
    with Server(durable=False, settings={"deadlock_timeout": "20ms"}) as server:
        url = server.url("crowd")
        with Fracas(url) as fracas:
            fracas.new("percentile", title="crowd", encounter="crowd")
            fracas.store.execute("CREATE TABLE tally (k INTEGER PRIMARY KEY, n INTEGER)")
        children = [
            subprocess.Popen(
                [PYTHON, "-c", WRITER, url, str(n), str(each), str(retries or "")],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for n in range(writers)
        ]
        outputs = [child.communicate() for child in children]
        with open_store(url, readonly=True) as store:
            appended = store.head("crowd").step - 1  # step 1 started it
            versions = [event.version for event in store.events("crowd")]
            intact = store.verify().ok and store.check_steps().ok
    counts = [json.loads(out) for out, _ in outputs if out.strip()]
    figures.trials = writers * each
    figures.add("appends acknowledged", sum(c["acknowledged"] for c in counts))
    figures.add("one-line conflicts (tried again)", sum(c["conflicts"] for c in counts))
    figures.add("lock races left after retrying", sum(c["busy"] for c in counts))
    figures.add("raw driver errors", sum(c["raw"] for c in counts))
    figures.add("other refusals", sum(c["refusals"] for c in counts))
    figures.add("writers that died", writers - len(counts))
    figures.add("tracebacks", sum(traceback_in(err) for _, err in outputs))
    figures.add("lost or doubled steps", abs(appended - writers * each))
    figures.add("lost or doubled versions", int(versions != list(range(1, len(versions) + 1))))
    figures.add("broken logs", int(not intact))
    return figures


# -- what the players' role reads ------------------------------------------------------------

PLAYER = "fracas_player"
TURN_OPS = (
    *("attack",) * 6,
    *("next",) * 3,
    *("undo",) * 3,
    *("disclose",) * 2,
    *("redo", "secret", "note", "reveal", "ambush", "unmask"),
)
LURKER = "lurker"  # the hidden combatant an ambush brings in


def hostile_fight(fracas: Fracas, name: str, rng: random.Random, moves: int) -> None:
    """A gunfight with GM-only rolls mixed in among undos, redos, notes, disclosures and
    reveals, as a GM might play it; a move the rules refuse is simply not made."""
    live = fracas.new("percentile", title=name, encounter=name)
    for who, dex in (("alice", 14), ("bob", 10)):
        sheet = {
            "dex": dex,
            "hp": 60,
            "skills": {"firearms": 55},
            "weapons": [{"name": "pistol", "kind": "firearm", "damage": "1d6"}],
            "holding": ["pistol"],
        }
        live.execute(live.ruleset.command({"action": "join", "combatant": who, "sheet": sheet}))
    live.execute(live.ruleset.command({"action": "begin"}))
    for _ in range(moves):
        with suppress(FracasError):
            play(live, rng.choice(TURN_OPS), rng)


def play(live: Encounter, op: str, rng: random.Random) -> None:
    acting = live.view().acting
    if op in ("attack", "secret") and acting:
        actor = acting[0]
        target = "bob" if actor == "alice" else "alice"
        attack = {"action": "attack", "actor": actor, "targets": [target], "weapon": "pistol"}
        live.execute(live.ruleset.command(attack), secret=op == "secret")
    elif op in ("next", "attack", "secret"):
        live.execute(live.ruleset.command({"action": "next"}))
    elif op == "note":
        live.note(f"note {rng.randint(1, 999)}")
    elif op == "undo":
        live.undo()
    elif op == "redo":
        live.redo()
    elif op == "disclose":
        live.disclose(rng.randint(1, live.history.head_step))
    elif op == "ambush":
        join = {"action": "join", "combatant": LURKER, "sheet": LURKING}
        live.execute(live.ruleset.command(join), hidden=True)
    elif op == "unmask":
        live.reveal_combatant(LURKER)
    else:
        live.reveal()


LURKING = {
    "dex": 12,
    "hp": 40,
    "skills": {"firearms": 60},
    "weapons": [{"name": "pistol", "kind": "firearm", "damage": "1d6"}],
    "holding": ["pistol"],
}


def as_export(steps: list[tuple], events: list[tuple]) -> list[dict[str, Any]]:
    """The players' views' rows in the shape of a players' export's step lines."""
    bodies: dict[tuple[str, int], list[Any]] = {}
    for encounter, step, _n, _kind, body in events:
        bodies.setdefault((encounter, step), []).append(json.loads(body))
    lines = []
    for encounter, step, control, target, author, at, source, command in steps:
        line = {
            "type": "step",
            "encounter": encounter,
            "step": step,
            "control": control,
            "target": target,
            "author": author,
            "at": at,
        }
        if source is None:
            line["events"] = bodies.get((encounter, step), [])
        else:
            line.update(command=command, withheld_after_secret_step=source)
        lines.append(line)
    return lines


def players_role(workdir: Path, fights: int, moves: int = 40, seed: int = 9) -> Figures:
    """A role granted what the docs (PostgreSQL) grant the players connects and reads everything it
    can: every table, view and function of every schema. It must read nothing a players'
    export does not show: no seed, no GM-only roll, no hash, no hidden combatant; it may
    withhold more (everything after a secret step or a hidden combatant's first mention)."""
    need_server()
    figures = Figures(f"the players' role ({fights} fights x {moves} moves)")
    rng = random.Random(seed)
    with Server(durable=False) as server:
        url = server.url("tavern")
        with Fracas(url) as fracas:
            for number in range(fights):
                hostile_fight(fracas, f"fight{number}", rng, moves)
            export = io.StringIO()
            fracas.export_jsonl(export, players=True)
            gm = fracas.store
            sealed = [value for (value,) in gm.execute("SELECT value FROM tavern_keys.sealed")]
            chains = [h for row in gm.execute("SELECT hash, salt FROM events") for h in row]
            ambushes = gm.execute(
                "SELECT count(*) FROM events WHERE kind = 'combatant.hidden'"
            ).fetchone()[0]
            for statement in (
                f"CREATE ROLE {PLAYER} LOGIN",
                f"GRANT USAGE ON SCHEMA tavern_players TO {PLAYER}",
                f"GRANT SELECT ON ALL TABLES IN SCHEMA tavern_players TO {PLAYER}",
            ):
                gm.execute(statement)
        shown = export.getvalue()
        with psycopg.connect(url.split("?")[0].replace("fracas@", f"{PLAYER}@")) as player:
            player.autocommit = True
            read, refused = everything_readable(player, [f"fight{n}" for n in range(fights)])
            steps = player.execute(
                "SELECT encounter, step, control, target, author, at, "
                "withheld_after_secret_step, command FROM tavern_players.steps "
                "ORDER BY encounter, step"
            ).fetchall()
            events = player.execute(
                "SELECT encounter, step, n, kind, body FROM tavern_players.events "
                "ORDER BY encounter, step, n"
            ).fetchall()
    exported = [json.loads(line) for line in shown.splitlines()[1:]]
    viewed = as_export(steps, events)
    figures.trials = len(exported)
    figures.add("steps withheld from players", sum(1 for s in exported if "command" in s))
    figures.add("hidden combatants joined", ambushes)
    leaks, more = compared(exported, viewed)
    figures.add("steps read that the players' export does not show (leaks)", leaks)
    figures.add("steps of the export the role does not read (withheld more, as it may)", more)
    readable = "\n".join(text for where, text in read.items() if where.startswith("tavern_players"))
    figures.add(
        "objects read outside the players' schema",
        sum(1 for where in read if not where.startswith("tavern_players")),
    )
    figures.add("sealed seeds read", sum(1 for s in sealed if s in readable and s not in shown))
    figures.add("hashes or salts read", sum(1 for h in chains if h and h in readable))
    figures.add("objects refused (as they should be)", len(refused))
    return figures


def compared(exported: list[dict], viewed: list[dict]) -> tuple[int, int]:
    """(steps the role read that the export does not show as read, steps of the export the
    role did not read). A step read must be the export's step of the same number, the same
    in every field, but for a revealed seed the role's view withholds more."""
    shown = {(line["encounter"], line["step"]): line for line in exported}
    leaks = sum(1 for line in viewed if not within(line, shown.get(key_of(line))))
    read = {key_of(line) for line in viewed}
    return leaks, sum(1 for key in shown if key not in read)


def key_of(line: dict) -> tuple[str, int]:
    return line["encounter"], line["step"]


def within(line: dict, exported: dict | None) -> bool:
    """The role's step shows nothing the export's step does not."""
    if exported is None or len(line.get("events", [])) != len(exported.get("events", [])):
        return False
    events = [
        {**shown, "seed": None, "withheld": True} if mine.get("withheld") is True else shown
        for mine, shown in zip(line.get("events", []), exported.get("events", []), strict=True)
    ]
    return line == ({**exported, "events": events} if "events" in exported else exported)


def everything_readable(
    player: psycopg.Connection, encounters: list[str]
) -> tuple[dict[str, str], list[str]]:
    """Every relation of every schema the catalog lists (it lists them to anyone), and every
    function outside the system's, called with each encounter: what the role could read,
    by name, and what it was refused."""
    relations = player.execute(
        "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f', 'S') "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'"
    ).fetchall()
    functions = player.execute(
        "SELECT n.nspname, p.proname, p.pronargs FROM pg_proc p "
        "JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND p.prokind = 'f'"
    ).fetchall()
    read: dict[str, str] = {}
    refused: list[str] = []
    for schema, name in relations:
        where = f"{schema}.{name}"
        attempt(player, f'SELECT * FROM "{schema}"."{name}"', (), where, read, refused)
    for schema, name, arguments in functions:
        for encounter in encounters if arguments == 1 else [None]:
            where = f"{schema}.{name}({encounter or ''})"
            call = f'SELECT * FROM "{schema}"."{name}"({"%s" if arguments == 1 else ""})'
            attempt(player, call, (encounter,) if arguments == 1 else (), where, read, refused)
    return read, refused


def attempt(
    player: psycopg.Connection,
    statement: str,
    params: tuple,
    where: str,
    read: dict[str, str],
    refused: list[str],
) -> None:
    try:
        rows = player.execute(statement, params or None).fetchall()
    except psycopg.errors.InsufficientPrivilege:
        refused.append(where)
        return
    except psycopg.Error:
        refused.append(where)  # not callable this way (a trigger function): nothing read
        return
    read[where] = "\n".join(repr(row) for row in rows)
