"""Secrets that stay secret, witnessed heads, an audit of step records, and files opened as
they should be: the promises of the trust round, each through the CLI or the API."""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from fracas.ledger import open_store
from fracas.projections import Fracas
from tests.support import cli_gunfight

FIXTURE = Path(__file__).parent / "fixtures" / "release-0.1-demo.db"
FIXTURE_SEED = "6fb4c66d608a2c181a1e7d86fc13c5fc7b69498664ee1a2a72133997cad56e26"


def test_every_append_prints_a_head_code_that_audit_holds_the_log_to(run):
    cli_gunfight(run, bob_hp=30)
    shot = run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5")
    code = shot.stderr.strip().splitlines()[-1].removeprefix("head ")
    assert code == run("head").stdout.strip()
    run("note", "later")
    held = run("audit", "--head", code)
    assert f"head {code}: the log still extends it" in held.stdout
    assert run("audit", "--head", "5-000000000000", ok=False).exit_code == 1
    assert "not a head code" in run("audit", "--head", "banana", ok=False).output


@pytest.mark.sqlite_file
def test_a_tail_cut_off_passes_the_chain_but_not_the_witnessed_head(run):
    cli_gunfight(run, bob_hp=30)
    run("note", "one")
    code = run("note", "two").stderr.strip().split()[-1]
    conn = sqlite3.connect(run.db, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_delete")
    conn.execute("DROP TRIGGER steps_no_delete")
    conn.execute("DELETE FROM events WHERE step >= 6")
    conn.execute("DELETE FROM steps WHERE step >= 6")
    for table in ("events", "steps"):
        conn.executescript(
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
        )
    conn.close()
    assert "hash chain: ok" in run("audit").output  # a clean-looking shorter log
    cut = run("audit", "--head", code, ok=False)
    assert "the log no longer reaches step 6" in cut.output


@pytest.mark.sqlite_file
def test_the_seed_lives_in_the_key_file_and_a_backup_carries_it(tmp_path, run):
    cli_gunfight(run, bob_hp=30)
    run("act", "alice", "attack", "bob", "-w", "pistol")  # seeded
    with Fracas(run.db) as fracas:
        seed = fracas.encounter().sealed_seed()
    assert seed and seed.encode() not in Path(run.db).read_bytes()
    backup = tmp_path / "backup.jsonl"
    run("export", "--with-secrets", "-o", str(backup))
    assert seed in backup.read_text()
    copy = tmp_path / "copy.db"
    run("--db", str(copy), "import", str(backup))
    run("--db", str(copy), "act", "bob", "attack", "alice")  # seeded dice roll on
    Path(f"{copy}.keys").unlink()
    lost = run("--db", str(copy), "act", "alice", "attack", "bob", "-w", "pistol", ok=False)
    assert "not in the key file" in lost.output and "--dice" in lost.output
    run("--db", str(copy), "act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5")


@pytest.mark.sqlite_file
def test_a_release_0_1_file_is_read_as_is_and_migrated_on_the_first_write(tmp_path, run):
    old = tmp_path / "old.db"
    shutil.copy(FIXTURE, old)
    before = old.read_bytes()
    assert FIXTURE_SEED.encode() in before
    shown = run("--db", str(old), "status")
    assert "Alice Reyes" in shown.output and old.read_bytes() == before  # read: untouched
    run("--db", str(old), "note", "after the upgrade")
    assert FIXTURE_SEED.encode() not in old.read_bytes()
    assert (
        not Path(f"{old}.db-wal").exists()
        or FIXTURE_SEED.encode() not in Path(f"{old}-wal").read_bytes()
    )
    with Fracas(old) as fracas:
        assert fracas.encounter().sealed_seed() == FIXTURE_SEED
        assert fracas.store.schema_version == 3
    audited = run("--db", str(old), "audit")
    assert "hash chain: ok, 83 events" in audited.output
    assert "step records: ok" in audited.output


def test_an_import_with_step_records_missing_or_edited_is_refused_whole(tmp_path, run):
    cli_gunfight(run, bob_hp=30)
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5")
    export = tmp_path / "full.jsonl"
    run("export", "-o", str(export))
    lines = export.read_text().splitlines()
    steps = [n for n, line in enumerate(lines) if json.loads(line)["type"] == "step"]
    missing = [line for n, line in enumerate(lines) if n != steps[-1]]
    edited = list(lines)
    record = json.loads(lines[steps[2]])
    record["last_version"] += 1
    edited[steps[2]] = json.dumps(record)
    for name, broken in (("missing", missing), ("edited", edited)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join(broken) + "\n")
        target = tmp_path / f"{name}.db"
        refused = run("--db", str(target), "import", str(path), ok=False)
        assert refused.exit_code == 1 and "nothing was imported" in refused.output
        assert len(refused.output.strip().splitlines()) == 1
        assert not target.exists(), "a refused import leaves no file behind"


@pytest.mark.sqlite_file
def test_read_commands_never_create_a_file(tmp_path, run):
    typo = tmp_path / "tpyo.db"
    for command in (["status"], ["log"], ["audit"], ["export"], ["add", "x"]):
        said = run("--db", str(typo), *command, ok=False)
        assert said.output.strip() == f"Error: no fracas log at {typo}; `fracas new` starts one"
    assert list(tmp_path.iterdir()) == []


def test_disclosing_a_secret_step_shows_the_players_what_it_decided(run):
    cli_gunfight(run, bob_hp=30)
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5", "--secret")
    hidden = run("export", "--format", "md", "--for", "players").stdout
    assert "30 vs 60%" not in hidden and "GM-only" in hidden
    assert "HP 25/30" not in hidden, "the standings it decided are withheld too"
    said = run("disclose", "5")
    assert "discloses step 5" in said.stdout
    shown = run("export", "--format", "md", "--for", "players").stdout
    assert "30 vs 60%" in shown and "| bob | npc | hurt |" in shown, "NPCs' health in words"
    numbers = run("export", "--format", "md", "--for", "players", "--npc-numbers").stdout
    assert "| bob | npc | HP 25/30 |" in numbers
    assert "no GM-only roll" in run("disclose", "4", ok=False).output


def test_dice_and_event_size_limits_are_the_gms_within_a_ceiling(run):
    run("new", "--limit", "dice=3")
    run(
        "add",
        "alice",
        "--set",
        'weapons=[{name="shotgun",kind="firearm",damage="4d6"}]',
        "--set",
        'holding=["shotgun"]',
        "--set",
        "skills.firearms=60",
    )
    run("add", "bob")
    run("begin")
    before = len(list(open_store(run.db).events()))
    over = run("act", "alice", "attack", "bob", "-w", "shotgun", "--dice", "30,1,2,3,4", ok=False)
    assert "over this encounter's limits (3 dice" in over.output
    assert len(list(open_store(run.db).events())) == before
    assert "runs from 1 to 1000" in run("new", "--limit", "dice=5000", ok=False).output
    huge = run(
        "add", "carol", "--set", 'weapons=[{name="x",kind="firearm",damage="1d99999999"}]', ok=False
    )
    assert "at most 1000 dice of at most 10000 faces" in huge.output
