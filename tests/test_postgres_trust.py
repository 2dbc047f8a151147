"""A log on a PostgreSQL server under a hostile host: the server restarted under a running
`fracas serve` and a running Python session, many writers on one encounter, and the
players' role reading no secret. Small versions of bench/reliability/postgres.py."""

import io
import json
import threading
from pathlib import Path

import psycopg
import pytest

from bench.pgserver import Server, binaries
from bench.reliability import postgres
from bench.reliability.trials import Figures
from fracas.ledger import UnreachableError, open_store
from fracas.ledger import postgres as backend
from fracas.ledger.postgres import split_url
from fracas.projections import Fracas


def bad(figures: Figures, *keys: str) -> dict[str, object]:
    return {key: figures.counts[key] for key in keys if figures.counts[key]}


@pytest.fixture
def own_server(pg_server: Server):
    """A durable server of the test's own, to stop and start (the session's one stays up)."""
    assert binaries() is not None  # (pg_server skipped the test otherwise)
    with Server() as server:
        yield server


def test_serve_and_a_session_live_through_a_server_restart(tmp_path: Path, pg_server: Server):
    figures = postgres.restart_trial(tmp_path, outages=(7.5,))  # longer than a call waits
    assert figures.counts["acknowledged steps"] > 0
    assert figures.counts["seconds to recover: session (worst)"] < 5
    assert figures.counts["seconds to recover: serve (worst)"] < 5
    assert not bad(
        figures,
        "acknowledged steps lost",
        "raw driver errors",
        "serve's stray output lines",
        "tracebacks",
        "refusals not one line",
        "outages without the one line",
        "broken logs",
    )


def test_a_call_while_the_server_is_down_is_one_line_without_the_password(
    own_server: Server, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(backend, "RECONNECT_SECONDS", 0.5)
    url = own_server.url("down").replace("fracas@", "fracas:hunter2@")
    with Fracas(url) as fracas:
        live = fracas.new("percentile", title="down", encounter="down")
        live.note("before")
        own_server.crash()
        with pytest.raises(UnreachableError) as down:
            live.note("while down")
        own_server.resume()
        live.note("after")  # the same objects, no reopening
        assert fracas.store.head("down").step == 3
    line = str(down.value)
    assert "is unreachable" in line and "\n" not in line
    assert "hunter2" not in line and "fracas:***@127.0.0.1" in line


def test_an_append_whose_answer_was_lost_is_recorded_once(
    own_server: Server, monkeypatch: pytest.MonkeyPatch
):
    """The server goes away after the commit, before the answer: the append, tried again on
    a new connection, finds its own step by its command id and returns it."""
    monkeypatch.setattr(backend, "RECONNECT_SECONDS", 60.0)  # pg_ctl start on a busy machine
    url = own_server.url("lost")
    with Fracas(url) as fracas:
        live = fracas.new("percentile", title="lost", encounter="lost")
        store = fracas.store
        real = store._send_counted

        def commit_then_crash(*args, **kwargs):
            real(*args, **kwargs)
            own_server.crash()
            threading.Thread(target=own_server.resume).start()
            store.conn.raw.execute("SELECT 1")  # the answer that never comes

        store._send_counted = commit_then_crash
        outcome = live.note("once")
        store._send_counted = real
        assert not outcome.duplicate and outcome.step == 2
        live.note("next")
        assert [r.step for r in store.history("lost").steps] == [1, 2, 3]
        assert store.verify().ok and store.check_steps().ok


def test_many_writers_on_one_encounter_meet_no_raw_driver_error(tmp_path: Path, pg_server):
    figures = postgres.one_encounter_appends(tmp_path, writers=12, each=40)
    assert figures.counts["appends acknowledged"] == 480
    assert not bad(
        figures,
        "raw driver errors",
        "other refusals",
        "writers that died",
        "tracebacks",
        "lost or doubled steps",
        "lost or doubled versions",
        "broken logs",
    )


def test_a_deadlock_is_tried_again_and_then_refused_in_one_line(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
):
    """The server picks an append as a deadlock's victim: tried again with a pause; a
    victim every time is the one-line conflict, not psycopg's error."""
    monkeypatch.setattr(backend, "BACKOFF", (0.001, 0.002))
    with Fracas(pg_url) as fracas:
        live = fracas.new("percentile", title="deadlocks", encounter="deadlocks")
        store = fracas.store
        real, victims = store._send_counted, []

        def victim_twice(*args, **kwargs):
            if len(victims) < 2:
                victims.append(1)
                store.conn.raw.execute(DEADLOCK)
            return real(*args, **kwargs)

        store._send_counted = victim_twice
        assert live.note("third time lucky").step == 2
        victims.clear()
        monkeypatch.setattr(backend, "RETRIES", 2)
        with pytest.raises(backend.ConflictError) as busy:
            live.note("never")
        assert "is busy with other writers" in str(busy.value)
        assert store.head("deadlocks").step == 2


DEADLOCK = (
    "DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = 'deadlock_detected'; END $$"
)


def test_the_reconnecting_store_opens_read_only_again(own_server: Server):
    url = own_server.url("ro")
    with Fracas(url) as fracas:
        fracas.new("percentile", title="ro", encounter="ro")
    with open_store(url, readonly=True) as reader:
        own_server.crash()
        own_server.resume()
        assert reader.head("ro").step == 1  # read on a new connection
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            reader.execute("CREATE TABLE sneaked_in (a int)")


def test_the_players_role_reads_no_more_than_a_players_export(tmp_path: Path, pg_server):
    figures = postgres.players_role(tmp_path, fights=4, moves=40)
    assert figures.counts["steps withheld from players"] > 0
    assert figures.counts["hidden combatants joined"] > 0
    assert figures.counts["objects refused (as they should be)"] > 0  # the log, the seeds
    assert not bad(
        figures,
        "steps read that the players' export does not show (leaks)",
        "objects read outside the players' schema",
        "sealed seeds read",
        "hashes or salts read",
    )


@pytest.fixture
def player(pg_url: str):
    """The GM's session on a log, and a connection as a role granted its players' schema."""
    conninfo, schema = split_url(pg_url)
    role = f"players_{schema}"
    with Fracas(pg_url) as fracas:
        live = gunfight(fracas)
        fracas.store.execute(f"CREATE ROLE {role} LOGIN")
        fracas.store.execute(f"GRANT USAGE ON SCHEMA {schema}_players TO {role}")
        fracas.store.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema}_players TO {role}")
        with psycopg.connect(conninfo, user=role, autocommit=True) as connection:
            yield Player(fracas, live, connection, schema)


class Player:
    def __init__(self, fracas: Fracas, live, connection: psycopg.Connection, schema: str):
        self.fracas, self.live, self.connection, self.schema = fracas, live, connection, schema

    def exported(self) -> list[dict]:
        export = io.StringIO()
        self.fracas.export_jsonl(export, players=True)
        return [json.loads(line) for line in export.getvalue().splitlines()[1:]]

    def viewed(self) -> list[dict]:
        """The role's rows as export lines, each checked to show nothing the export does not."""
        steps = self.connection.execute(f"SELECT * FROM {self.schema}_players.steps").fetchall()
        events = self.connection.execute(
            f"SELECT encounter, step, n, kind, body FROM {self.schema}_players.events"
        ).fetchall()
        viewed = sorted(postgres.as_export(steps, events), key=by_step)
        leaks, _more = postgres.compared(self.exported(), viewed)
        assert leaks == 0
        return viewed

    def everything(self) -> str:
        """All the role can read, as text."""
        read, _refused = postgres.everything_readable(self.connection, ["view"])
        return "\n".join(read.values())


def test_the_players_view_is_the_export_in_a_fight_without_secrets(player: Player):
    live = player.live
    shoot(live)
    shoot(live)
    live.undo()
    live.redo()
    live.note("the lights go out")
    live.reveal()
    shoot(live)
    assert player.viewed() == player.exported()


def test_the_players_view_stops_at_a_secret_step_until_it_is_disclosed(player: Player):
    live = player.live
    before = shoot(live)
    secret = shoot(live, secret=True)
    after = shoot(live)
    live.note("the lights go out")
    viewed = player.viewed()
    assert [line["step"] for line in viewed][-2:] == [before, secret]
    assert viewed[-1]["withheld_after_secret_step"] == secret and "events" not in viewed[-1]
    assert after not in {line["step"] for line in viewed}
    live.undo()
    live.undo()  # the secret shot undone: still nothing after it (the SQL does not follow undo)
    assert player.viewed()[-1]["step"] == secret
    live.redo()
    live.disclose(secret)
    assert player.viewed() == player.exported()


def test_the_players_role_reads_nothing_of_a_hidden_combatant_until_revealed(player: Player):
    live = player.live
    shoot(live)
    join = {"action": "join", "combatant": "lurker", "sheet": postgres.LURKING}
    joined = live.execute(live.ruleset.command(join), hidden=True).step
    for _ in range(4):
        shoot(live)
    live.note("the lurker laughs")
    live.execute(live.ruleset.command({"action": "next"}))
    assert {line["step"] for line in player.viewed()} == set(range(1, joined))
    assert "lurker" not in player.everything()
    live.reveal_combatant("lurker")
    assert player.viewed() == player.exported()
    assert "lurker" in player.everything()


def test_a_log_of_the_old_players_rule_is_brought_up_to_date_by_its_first_writer(
    pg_url: str,
):
    """Rule 1's functions answered anyone who called them (where its rule withheld steps):
    a writer's open drops them and keeps the role's grants on the views."""
    conninfo, schema = split_url(pg_url)
    players, role = f"{schema}_players", f"players_{schema}"
    with Fracas(pg_url) as fracas:
        fracas.new("percentile", title="old", encounter="old")
        for statement in (
            f"CREATE FUNCTION {players}.withheld(enc text) RETURNS SETOF integer "
            "LANGUAGE sql AS 'SELECT 1'",
            f"COMMENT ON SCHEMA {players} IS 'fracas players rule 1'",
            f"CREATE ROLE {role} LOGIN",
            f"GRANT USAGE ON SCHEMA {players} TO {role}",
            f"GRANT SELECT ON ALL TABLES IN SCHEMA {players} TO {role}",
        ):
            fracas.store.execute(statement)
    with open_store(pg_url) as writer:
        functions = writer.execute(
            "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = ?",
            (players,),
        ).fetchall()
    assert sorted(functions) == [("events_rows",), ("steps_rows",)]  # the views' own rows
    with psycopg.connect(conninfo, user=role, autocommit=True) as player:
        assert player.execute(f"SELECT encounter, step FROM {players}.steps").fetchall() == [
            ("old", 1)
        ]


def by_step(line: dict) -> int:
    return line["step"]


def gunfight(fracas: Fracas):
    live = fracas.new("percentile", title="view", encounter="view")
    for who, dex in (("alice", 14), ("bob", 10)):
        sheet = {
            "dex": dex,
            "hp": 90,
            "skills": {"firearms": 55},
            "weapons": [{"name": "pistol", "kind": "firearm", "damage": "1d6"}],
            "holding": ["pistol"],
        }
        live.execute(live.ruleset.command({"action": "join", "combatant": who, "sheet": sheet}))
    live.execute(live.ruleset.command({"action": "begin"}))
    return live


def shoot(live, *, secret: bool = False) -> int:
    """Whoever acts shoots the other (a new round when both have); the step's number."""
    if not live.view().acting:
        live.execute(live.ruleset.command({"action": "next"}))
    actor = live.view().acting[0]
    target = "bob" if actor == "alice" else "alice"
    attack = {"action": "attack", "actor": actor, "targets": [target], "weapon": "pistol"}
    return live.execute(live.ruleset.command(attack), secret=secret).step


def test_a_log_made_before_the_players_schema_gets_it_from_its_first_writer(pg_url: str):
    schema = split_url(pg_url)[1]
    with Fracas(pg_url) as fracas:
        fracas.new("percentile", title="old", encounter="old")
        fracas.store.execute(f"DROP SCHEMA {schema}_players CASCADE")
    with open_store(pg_url, readonly=True) as reader:  # a reader changes nothing
        assert reader.execute("SELECT to_regclass(?)", (f"{schema}_players.steps",)).fetchone() == (
            None,
        )
    with open_store(pg_url) as writer:
        rows = writer.execute(f"SELECT encounter, step FROM {schema}_players.steps").fetchall()
    assert rows == [("old", 1)]


def test_the_players_role_cannot_count_the_log_through_a_query_plan(player: Player):
    """EXPLAIN ANALYZE of a view over the log's tables would count their rows (a hidden
    combatant's events among them); the views' plans show only the rows they return."""
    live = player.live
    join = {"action": "join", "combatant": "lurker", "sheet": postgres.LURKING}
    live.execute(live.ruleset.command(join), hidden=True)
    for view in ("steps", "events"):
        plan = player.connection.execute(
            f"EXPLAIN (ANALYZE, VERBOSE) SELECT * FROM {player.schema}_players.{view}"
        ).fetchall()
        text = "\n".join(line for (line,) in plan)
        assert f"{player.schema}." not in text.replace(f"{player.schema}_players.", "")
