"""The PostgreSQL ledger as a table's GM and a host use it: copying logs both ways, the
read models and SQL views, seeds kept from a reporting role, and `fracas serve`."""

import json
import shutil
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.ledger import NewEvent, open_store
from fracas.ledger.postgres import as_part, split_url
from fracas.ledger.verify import require_intact
from fracas.projections import Fracas
from fracas.projections.tables import UPDATE, table_rows
from tests.web import fracas as fracas_process
from tests.web import served

FIXTURE = Path(__file__).parent / "fixtures" / "release-0.2-two-tables.db"
VIEWS = ("rolls", "harm", "combatants", "step_rounds", "effective_events")


def invoke(*args: str, ok: bool = True):
    result = CliRunner().invoke(cli, list(args))
    assert (result.exit_code == 0) == ok, result.output
    return result


def view_rows(table: Fracas, view: str) -> list[tuple]:
    found = table.store.execute(f"SELECT * FROM {view}").fetchall()
    return sorted((tuple(str(value) for value in row) for row in found), key=repr)


def bigint_columns(table: Fracas) -> set[str]:
    """The views' whole-number columns a sum or a big harm could pass 2^31 in, as bigint
    (a cast to integer would fail the whole view on one such row)."""
    found = table.store.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name IN ('harm', 'rolls', 'step_rounds') "
        "AND column_name IN ('amount', 'round', 'target', 'total') AND data_type = 'bigint'"
    ).fetchall()
    return {row[0] for row in found}


@pytest.mark.sqlite_file  # between a SQLite file and the server
def test_a_log_copied_to_the_server_and_back_is_the_same_log(tmp_path: Path, pg_url: str):
    source = tmp_path / "old.db"
    shutil.copy(FIXTURE, source)
    shutil.copy(f"{FIXTURE}.keys", f"{source}.keys")
    there = invoke("copy", str(source), pg_url)
    assert "copied 2 encounters, 88 events, 21 steps and 2 sealed seeds" in there.output
    back = tmp_path / "back.db"
    invoke("copy", pg_url, str(back))
    with (
        Fracas(source, readonly=True) as original,
        Fracas(pg_url) as server,
        Fracas(back) as returned,
    ):
        assert list(original.store.events()) == list(server.store.events())
        assert list(server.store.events()) == list(returned.store.events())
        for name in original.store.encounters():
            assert original.view(name) == server.view(name) == returned.view(name)
            assert server.current(name)[2] == server.view(name)  # read models written too
        assert server.audit().ok and returned.audit().ok
        assert server.store.check_head("197c7da549f0", "17-aaa07f7fb6f4") == ""
        assert table_rows(server.store) == table_rows(returned.store)
        for view in VIEWS:
            assert view_rows(server, view) == view_rows(returned, view), view
        assert view_rows(server, "harm")  # the demo fight did harm someone
        assert bigint_columns(server) == {"amount", "round", "target", "total"}
    refused = invoke("copy", str(source), pg_url, ok=False)
    assert "already holds events" in refused.output and len(refused.output.splitlines()) == 1


@pytest.mark.sqlite_file  # between a SQLite file and the server
def test_play_goes_on_on_the_server_after_a_copy(tmp_path: Path, pg_url: str):
    source = tmp_path / "old.db"
    shutil.copy(FIXTURE, source)
    invoke("copy", str(source), pg_url)
    invoke("--db", pg_url, "-e", "harbour", "note", "on the server now")
    code = invoke("--db", pg_url, "-e", "harbour", "head").output.strip()
    assert code.startswith("5-")
    back = tmp_path / "back.db"
    invoke("copy", pg_url, str(back))
    assert invoke("--db", str(back), "-e", "harbour", "audit", "--head", code).exit_code == 0


@pytest.mark.sqlite_file  # between a SQLite file and the server
def test_a_damaged_source_is_not_copied(tmp_path: Path, pg_url: str):
    import sqlite3

    source = tmp_path / "bad.db"
    shutil.copy(FIXTURE, source)
    conn = sqlite3.connect(source)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET body = body || ' ' WHERE position = 9")
    conn.commit()
    conn.close()
    refused = invoke("copy", str(source), pg_url, ok=False)
    assert "is damaged at position 9" in refused.output and "nothing was copied" in refused.output
    assert "no fracas log" in invoke("--db", pg_url, "encounters", ok=False).output


def test_a_reporting_role_reads_the_log_and_not_the_seeds(pg_url: str):
    """(The players' role reads less: tests/test_postgres_trust.py.)"""
    with Fracas(pg_url) as table:
        started = table.new("percentile", title="sealed")
        seed = started.sealed_seed()
    conninfo, schema = split_url(pg_url)
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute("CREATE ROLE reporter LOGIN")
        admin.execute(f"GRANT USAGE ON SCHEMA {schema} TO reporter")
        admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO reporter")
    player_url = pg_url.replace("fracas@", "reporter@")
    with open_store(player_url, readonly=True) as reader:
        assert reader.encounters() == [started.id] and reader.verify().ok
        assert reader.unseal(started._commitment) is None
        body = "".join(event.body for event in reader.events())
        assert seed and seed not in body
    with (
        psycopg.connect(player_url.split("?")[0]) as player,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        player.execute(f"SELECT * FROM {schema}_keys.sealed")


def test_serve_shows_many_encounters_from_one_server_and_follows_their_appends(pg_url: str):
    for title in ("Motel", "Harbour", "Casino"):
        invoke("--db", pg_url, "new", "--id", title.lower(), "--title", title)
        invoke("--db", pg_url, "-e", title.lower(), "add", "alice", "--set", "dex=12")
        invoke("--db", pg_url, "-e", title.lower(), "add", "bob", "--set", "dex=10")
        invoke("--db", pg_url, "-e", title.lower(), "begin")  # players see begun fights only
    with served(pg_url) as server:
        assert "***" not in server.gm  # (no password in this URL to hide)
        for title in ("Motel", "Harbour", "Casino"):
            page = urllib.request.urlopen(f"{server.root}/e/{title.lower()}").read().decode()
            assert title in page and "alice" in page.lower()
        before = screen_steps(server.root, "harbour")
        fracas_process(pg_url, "-e", "harbour", "note", "the tide turns")
        deadline = time.monotonic() + 10
        while screen_steps(server.root, "harbour") == before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert screen_steps(server.root, "harbour") == before + 1
        stream = urllib.request.urlopen(f"{server.root}/e/casino/stream", timeout=10)
        fracas_process(pg_url, "-e", "casino", "note", "chips down")
        assert wait_for_screen(stream, steps=5)["steps"] == 5


def screen_steps(root: str, name: str) -> int:
    html = urllib.request.urlopen(f"{root}/e/{name}/screen").read().decode()
    return int(html.split('data-steps="', 1)[1].split('"', 1)[0])


def wait_for_screen(stream, steps: int) -> dict:
    """The first screen pushed with `steps` steps (the stream may open with the current)."""
    event = ""
    for raw in stream:
        line = raw.decode().strip()
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "screen":
            pushed = json.loads(line.split(":", 1)[1])
            if pushed["steps"] >= steps:
                return pushed
    raise AssertionError("the stream ended")


def test_positions_with_gaps_still_export_and_prove_the_log(tmp_path: Path, pg_url: str):
    """A server hands positions out from a sequence: a refused append leaves a gap, and the
    chains, the export and `audit --against` do not care."""
    invoke("--db", pg_url, "new", "--id", "gaps")
    invoke("--db", pg_url, "add", "alice", "--set", "dex=12")
    with Fracas(pg_url) as table:
        version = table.encounter("gaps").version
        with pytest.raises(RuntimeError), table.store.batch():
            table.store.append(
                "gaps",
                [NewEvent("note", '{"kind":"note","text":"lost"}')],
                expected_version=version,
                command_id="lost",
            )
            raise RuntimeError("the batch failed after its first step: it is rolled back")
    invoke("--db", pg_url, "note", "after the gap")
    with Fracas(pg_url, readonly=True) as table:
        positions = [event.position for event in table.store.events()]
        assert positions != list(range(1, len(positions) + 1))  # the gap is there
        assert table.audit().ok
    export = tmp_path / "gaps.jsonl"
    invoke("--db", pg_url, "export", "--format", "jsonl", "-o", str(export))
    invoke("--db", pg_url, "note", "later still")
    held = invoke("--db", pg_url, "audit", "--against", str(export))
    assert f"against {export}: the log extends it unchanged" in held.output


def test_a_password_in_the_url_is_never_printed():
    url = "postgresql://gm:hunter2@127.0.0.1:1/table?schema=motel"
    for args in (("--db", url, "status"), ("copy", url, "x.db"), ("--db", url, "options")):
        refused = invoke(*args, ok=False)
        assert "hunter2" not in refused.output and "gm:***@" in refused.output
        assert len(refused.output.strip().splitlines()) == 1


def test_a_long_log_is_read_through_a_server_side_cursor(pg_url: str):
    with open_store(pg_url) as store:
        for n in range(1, 2501):
            body = f'{{"kind":"note","text":"{n}"}}'
            store.append(
                "long", [NewEvent("note", body)], expected_version=n - 1, command_id=f"{n}"
            )
        with store.snapshot():
            events = store.events()
            assert next(events).version == 1
            (open_cursors,) = store.execute("SELECT count(*) FROM pg_cursors").fetchone()
            assert open_cursors == 1  # fetched 2000 rows at a time, not all 2500 at once
            assert sum(1 for _ in events) == 2499
        assert store.verify().ok and store.verify().checked == 2500


@pytest.mark.parametrize("write", ["update", "delete"])
def test_an_append_rewrites_read_model_rows_by_their_key_however_many_encounters(
    pg_url: str, write: str
):
    """The one statement of an append reaches its encounter's read-model rows through their
    primary key: a server holding thousands of rows (a table's worth of encounters) is not
    read whole at every append."""
    with Fracas(pg_url) as table:
        store = table.store
        store.execute(
            "INSERT INTO wounds (encounter, combatant, name, ord) SELECT 'e' || (i / 2), "
            "'c' || (i % 2), 'x', i FROM generate_series(1, 3000) i"
        )
        store.execute("ANALYZE wounds")
        statement = (
            UPDATE["wounds"][0]
            if write == "update"
            else ("DELETE FROM wounds WHERE encounter = ? AND combatant = ?")
        )
        part = as_part(statement)
        assert part is not None
        row = json.dumps([{"encounter": "e7", "combatant": "c1", "name": "y", "ord": 1}])
        cursor = psycopg.ClientCursor(store.conn.raw)
        plan = "\n".join(line for (line,) in cursor.execute(f"EXPLAIN {part.statement}", (row,)))
        assert "Index Scan using wounds_pkey" in plan and "Seq Scan on wounds" not in plan, plan


def test_an_append_after_another_encounter_began_names_the_new_count(pg_url: str):
    """Every event's hash names how many encounters the log had begun: a store whose last
    append saw one count writes its next step naming the count another writer has moved
    it to (its one statement refused, nothing of it written, and sent again), never the
    stale count, and the log still proves itself."""
    note = [NewEvent("note", '"x"'), NewEvent("note", '"y"')]
    with open_store(pg_url) as mine, open_store(pg_url) as other:
        mine.append("e1", note, expected_version=0, command_id="a")
        mine.append("e1", note, expected_version=2, command_id="b")
        other.append("e2", note, expected_version=0, command_id="c")
        mine.append("e1", note, expected_version=4, command_id="d")
        salts = mine.execute("SELECT salt FROM events WHERE encounter = 'e1' ORDER BY version")
        assert [salt.split(":")[0] for (salt,) in salts] == ["1", "1", "1", "1", "2", "2"]
        steps = mine.execute("SELECT command_id FROM steps WHERE encounter = 'e1' ORDER BY step")
        assert [command for (command,) in steps] == ["a", "b", "d"]
        require_intact(mine)
