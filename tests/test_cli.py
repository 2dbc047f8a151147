"""The CLI as a game master uses it, through click's CliRunner, with typed dice."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.ledger import open_store
from fracas.projections import Fracas
from tests.support import SHEETS, cli_gunfight, events_in


def test_a_whole_fight_from_the_command_line(run):
    run("new", "--title", "Motel")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    run("add", "bishop", "--sheet", str(SHEETS / "bishop.toml"))
    run("add", "cultist", "--sheet", str(SHEETS / "cultist.toml"))
    run("begin")
    run("act", "alice", "aim")
    run(
        "act",
        "cultist",
        "attack",
        "bishop",
        "-w",
        "knife",
        "--defence",
        "fight-back",
        "--dice",
        "38,52,3",
    )
    out = run("act", "alice", "attack", "cultist", "-w", "pistol", "--dice", "45 8").output
    assert "45 vs 80% (+20 aimed last turn (000-6))" in out
    status = json.loads(run("status", "--json").output)
    wounds = {w["combatant"]: w for w in status["wounds"]}
    assert (
        wounds["cultist"]["health"] == "HP 1/12"
        and "unconscious" in wounds["cultist"]["conditions"]
    )
    assert status["acting"] == ["bishop"] and status["round"] == 2
    table = run("status").output
    assert "> " in table and "Marcus Bishop" in table


def test_undo_and_redo_from_the_command_line(run):
    run("new")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    run("add", "bob", "--set", "dex=9", "--set", "skills.dodge=50")
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "20,7")
    assert "undid step 5" in run("undo").output
    assert json.loads(run("status", "--json").output)["wounds"][1]["health"] == "HP 10/10"
    assert "redid step 5" in run("redo").output
    log = json.loads(run("log", "--json").output)
    assert [s["control"] for s in log[-2:]] == ["undo", "redo"]
    assert "[UNDONE]" not in run("log").output
    run("undo")
    assert "[UNDONE]" in run("log").output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "20"), "not enough dice"),
        (("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "20,7,1"), "left over"),
        (("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "x"), "whole numbers"),
        (("act", "bob", "attack", "alice"), "it is Alice Reyes's turn"),
        (("act", "alice", "teleport"), "actions are"),
        (("act", "alice", "attack", "zed", "-w", "pistol"), "no combatant 'zed'"),
        (("act", "alice", "attack", "bob", "-w", "bazooka"), "no weapon 'bazooka'"),
        (("act", "alice", "attack", "bob", "--opt", "shots=many"), "shots = 'many' is not"),
        (
            ("act", "alice", "attack", "bob", "-o", "avoid_armor=yes"),
            "avoid_armor = 'yes' is not accepted; use true or false",
        ),
        (
            ("act", "alice", "attack", "bob", "--defence", "bob=block"),
            "defence.bob = 'block' is not accepted; use one of: dodge, fight-back",
        ),
        (
            ("act", "alice", "attack", "bob", "--defence", "bob=dodge", "--defence", "fight-back"),
            "--defence gives bob two reactions, dodge and fight-back: a target has one "
            "reaction to an attack; choose one",
        ),
        (
            ("act", "alice", "attack", "bob", "-o", "shots=1", "-o", "shots=2"),
            "--opt gives shots twice, 1 and 2: give it once",
        ),
        (("act", "alice", "attack", "bob", "-w", "pistl"), "did you mean pistol?"),
        (("act", "alice", "other", "-o", "test=firarms"), "did you mean firearms?"),
        (("add", "carl", "--set", "skills.firarms=50"), "unknown skill 'firarms'; did you mean"),
        (("add", "carl", "--set", "skills.melee=50"), "did you mean melee weapons?"),
        (("act", "alice", "pin", "bob"), "both hands free"),
        (("add", "alice"), "already in this encounter"),
        (("add", "carl", "--set", "dex=quick"), "dex = 'quick' is not accepted; use a whole"),
        (("-e", "nope", "status"), "no encounter 'nope'"),
        (("redo",), "nothing to redo"),
    ],
)
def test_refusals_are_one_line_nonzero_and_append_nothing(run, args, message):
    run("new")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    run("add", "bob", "--set", "dex=9")
    run("begin")
    before = events_in(run.db)
    result = run(*args, ok=False)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert events_in(run.db) == before


def test_sheet_errors_name_the_file_and_the_field(run, tmp_path):
    run("new")
    bad = tmp_path / "bad.toml"
    bad.write_text('dex = "quick"\n')
    result = run("add", "x", "--sheet", str(bad), ok=False)
    assert str(bad) in result.output and "dex = 'quick' is not accepted" in result.output
    result = run("add", "x", "--set", "weapons=[{name='gun', kind='laser'}]", ok=False)
    assert "sheet of x: weapons[0].kind = 'laser'" in result.output and "firearm" in result.output
    broken = tmp_path / "broken.toml"
    broken.write_text("dex = = 3\n")
    result = run("add", "x", "--sheet", str(broken), ok=False)
    assert str(broken) in result.output and "not valid TOML" in result.output


def test_no_encounter_yet_says_what_to_do(run):
    result = run("status", ok=False)
    assert "fracas new" in result.output


def test_options_change_defaults_per_encounter(run):
    run("new", "-o", "unconscious_at=4", "-o", "dex_ties=rolloff")
    run("add", "a", "--set", "dex=12")
    run("add", "b", "--set", "dex=12")
    out = run("begin", "--dice", "10,90").output
    assert "roll-off" not in out or "b: initiative" in out
    assert json.loads(run("status", "--json").output)["acting"] == ["b"]
    assert "unknown" not in run("options").output


def test_export_jsonl_is_every_event_with_the_head_hash(run, tmp_path):
    run("new")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    run("add", "bob")
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol")
    run("undo")
    target = tmp_path / "out.jsonl"
    run("export", "--format", "jsonl", "-o", str(target))
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    header, events = lines[0], [x for x in lines if x["type"] == "event"]
    steps = [x for x in lines if x["type"] == "step"]
    store = open_store(run.db)
    assert header["head_hash"] == store.verify().head_hash == events[-1]["hash"]
    assert [e["body"] for e in events] == [e.body for e in store.events()]
    assert steps[-1]["control"] == "undo"


@pytest.mark.sqlite_file
def test_audit_finds_a_tampered_file(run):
    run("new")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    run("add", "bob")
    run("begin")
    assert "hash chain: ok" in run("audit").output
    store = open_store(run.db)
    (bob,) = store.conn.execute(
        "SELECT position FROM events WHERE kind = 'combatant.joined' AND body LIKE '%\"bob\"%'"
    ).fetchone()
    store.conn.execute("DROP TRIGGER events_no_update")
    store.conn.execute(
        "UPDATE events SET body = replace(body, '\"dex\":10', '\"dex\":18') WHERE position = ?",
        (bob,),
    )
    result = run("audit", ok=False)
    assert result.exit_code == 1 and f"BROKEN at position {bob}" in result.output


def test_reveal_then_audit_verifies_seeded_rolls(run):
    run("new")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    run("add", "bob", "--set", "hp=40")
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol")
    assert "unverifiable" in run("audit").output
    run("reveal")
    report = json.loads(run("audit", "--json").output)
    assert report["ok"] and {r["verdict"] for r in report["rolls"]} == {"verified"}


def test_rebuild_and_rulesets_and_encounters(run):
    run("new", "--id", "first")
    run("add", "alice", "--set", "dex=12")
    assert "rebuilt the read models of 1" in run("rebuild").output
    assert "percentile" in run("rulesets").output
    assert json.loads(run("encounters", "--json").output)[0]["encounter"] == "first"
    assert "attack" in run("actions").output


def test_actions_options_and_monsters_without_an_encounter_say_how_to_name_a_ruleset(tmp_path):
    """`fracas actions` with no fight to read the ruleset of: one line saying how to list a
    ruleset's actions by name (`-r srd`), with the rulesets installed; and with a log of no
    encounter, or one named that is not there, the same way out beside the other."""
    from fracas.rules import available

    installed = available()  # CI runs this again with the srd plugin uninstalled
    example = "srd" if "srd" in installed else installed[0]
    db = str(tmp_path / "none.db")
    runner = CliRunner()
    for command in ("actions", "options"):
        result = runner.invoke(cli, ["--db", db, command])
        assert result.exit_code != 0 and len(result.output.strip().splitlines()) == 1
        said = result.output.strip()
        assert f"name a ruleset: `fracas {command} -r {example}`" in said, said
        assert f"installed: {', '.join(installed)})" in said, said
        assert {"fudge", "percentile", "pool", "shotclock", "timeslice"} <= set(installed)
    runner.invoke(cli, ["--db", db, "new", "--id", "first"])
    result = runner.invoke(cli, ["--db", db, "actions", "-e", "nosuch"])
    said = result.output.strip()
    assert "no encounter 'nosuch'" in said and f"fracas actions -r {example}" in said, said


def test_demo_plays_into_its_file(tmp_path):
    db = tmp_path / "demo.db"
    result = CliRunner().invoke(cli, ["demo", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "hash chain: ok" in result.output and "pinned by Marcus Bishop" in result.output
    log = CliRunner().invoke(cli, ["--db", str(db), "log"]).output
    assert "[UNDONE]" in log


def test_demo_quiet_prints_one_line_naming_the_file(tmp_path):
    db = tmp_path / "demo.db"
    quiet = CliRunner().invoke(cli, ["demo", "--db", str(db), "--quiet"])
    assert quiet.exit_code == 0, quiet.output
    assert quiet.output.splitlines() == [
        f"the demo fight is in {db}: `fracas --db {db} status` shows it"
    ]
    status = CliRunner().invoke(cli, ["--db", str(db), "status"])
    assert "Shotgun cultist" in status.output  # the fight is there all the same


def test_set_takes_keys_with_spaces_quoted_or_not(run):
    run("new", "-r", "shotclock", "--id", "fs")
    run("-e", "fs", "add", "a", "--set", 'skills."martial arts"=15')
    run("-e", "fs", "add", "b", "--set", "skills.martial arts=12")
    with Fracas(run.db) as fracas:
        fighters = fracas.encounter("fs").state.fighters
        assert fighters["a"].sheet.skills == {"martial arts": 15}
        assert fighters["b"].sheet.skills == {"martial arts": 12}


def test_add_name_and_side_override_the_sheet_and_count_adds_numbered_copies(run):
    run("new")
    run("add", "c1", "--sheet", str(SHEETS / "cultist.toml"), "--name", "Cultist 1", "--side", "pc")
    run("add", "cultist", "--sheet", str(SHEETS / "cultist.toml"), "--count", "3")
    wounds = json.loads(run("status", "--json").output)["wounds"]
    assert [(w["combatant"], w["name"], w["side"]) for w in wounds] == [
        ("c1", "Cultist 1", "pc"),
        ("cultist-1", "Knife cultist 1", "npc"),
        ("cultist-2", "Knife cultist 2", "npc"),
        ("cultist-3", "Knife cultist 3", "npc"),
    ]
    before = events_in(run.db)
    refused = run(
        "add", "cultist", "--sheet", str(SHEETS / "cultist.toml"), "--count", "2", ok=False
    )
    assert refused.exit_code == 1 and "'cultist-1' is already in this encounter" in refused.output
    assert events_in(run.db) == before


def test_status_json_is_read_from_the_read_models_without_loading_a_ruleset(run):
    """`status --json` as a process: the board's header and the view as the last append
    wrote them, the same as the board made from a fold, and no ruleset (nor the
    projections' machinery) imported to say it."""
    cli_gunfight(run, bob_hp=12)
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "95")
    quick = json.loads(run("status", "--json").output)
    last = json.loads(run("log", "--json").output)[-1]["step"]
    folded = json.loads(run("status", "--json", "--at", str(last)).output)  # from a fold
    assert quick == folded
    assert quick["header"] == "Round 1 · bob to act"
    probe = (
        "import sys\n"
        "from fracas.cli.main import cli\n"
        f"try: cli(['--db', {run.db!r}, 'status', '--json'])\n"
        "except SystemExit: pass\n"
        "loaded = [m for m in ('fracas.rules.ruleset', 'fracas.rules.percentile', "
        "'fracas.projections.app') if m in sys.modules]\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert "LOADED []" in done.stderr, done.stderr
    assert json.loads(done.stdout) == quick


@pytest.mark.sqlite_file
def test_status_reads_the_read_models_and_an_older_file_is_reshaped_by_its_next_writer(
    tmp_path,
):
    """A file written before health was kept as numbers: read as it is (by a fold), and
    given this release's read models by the first command that writes."""
    import shutil

    from fracas.projections.tables import has_tables, read_view

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "fixtures" / "release-0.1-demo.db", db)
    runner = CliRunner()
    before = json.loads(runner.invoke(cli, ["--db", str(db), "status", "--json"]).output)
    assert all(isinstance(w["current"], int) and w["unit"] == "HP" for w in before["wounds"])
    with Fracas(db) as table:  # a writer: the read models are folded again, in the new shape
        assert has_tables(table.store)
        name = table.encounters()[-1]["encounter"]
        assert read_view(table.store.conn, name) == table.view(name)
    after = json.loads(runner.invoke(cli, ["--db", str(db), "status", "--json"]).output)
    assert after == before


def test_a_glance_looks_for_the_kinds_the_events_are_recorded_as():
    """`status` tells from the kinds alone whether anyone was ever hidden or asked to react
    (then it folds): the kinds it looks for are those the events are recorded as."""
    from fracas.ledger.base import ASKED_KIND, HIDDEN_KIND
    from fracas.rules.events import CombatantHidden, ReactionAsked

    assert CombatantHidden.__struct_config__.tag == HIDDEN_KIND
    assert ReactionAsked.__struct_config__.tag == ASKED_KIND


@pytest.mark.sqlite_file
def test_a_glance_reads_the_hidden_and_asked_events_alone_and_an_older_file_gets_their_index(
    tmp_path,
):
    """`status` asks whether anyone was ever hidden or asked to react through a partial
    index of those events, not by reading every event of the fight; a file made before the
    index says the same, and its next writer adds the index."""
    from fracas.ledger.base import GLANCE_INDEX, KINDS_EVER
    from fracas.projections.glance import glance

    db = tmp_path / "fight.db"
    with Fracas(db) as table:
        table.new("percentile", encounter="motel")
        plan = table.store.conn.execute(f"EXPLAIN QUERY PLAN {KINDS_EVER}", ("motel",)).fetchall()
        assert GLANCE_INDEX in str(plan)
    with sqlite3.connect(db) as older:  # as a file made before the index
        older.execute(f"DROP INDEX {GLANCE_INDEX}")
    before = json.loads(CliRunner().invoke(cli, ["--db", str(db), "status", "--json"]).output)
    with Fracas(db, readonly=True) as table:  # a read does not add it, and glances all the same
        seen = glance(table.store, "motel")
        assert seen is not None and not seen.ever_hidden and not seen.ever_asked
        assert GLANCE_INDEX not in str(
            table.store.conn.execute("SELECT name FROM sqlite_master").fetchall()
        )
    with Fracas(db) as table:  # a writer adds it
        plan = table.store.conn.execute(f"EXPLAIN QUERY PLAN {KINDS_EVER}", ("motel",)).fetchall()
        assert GLANCE_INDEX in str(plan)
    after = json.loads(CliRunner().invoke(cli, ["--db", str(db), "status", "--json"]).output)
    assert after == before


def test_setting_up_counts_one_combatant_in_the_singular(run):
    run("new")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    one = run("status").output
    assert "Setting up · 1 combatant" in one and "1 combatants" not in one
    run("add", "bob", "--set", "dex=9")
    assert "Setting up · 2 combatants" in run("status").output


@pytest.mark.sqlite_file
def test_copy_onto_a_file_that_holds_events_says_copy_not_import(tmp_path):
    runner = CliRunner()
    for name in ("a.db", "b.db"):
        assert runner.invoke(cli, ["--db", str(tmp_path / name), "new"]).exit_code == 0
    refused = runner.invoke(cli, ["copy", str(tmp_path / "a.db"), str(tmp_path / "b.db")])
    assert refused.exit_code != 0 and "copy" in refused.output
    assert "import into" not in refused.output and len(refused.output.splitlines()) == 1


def test_encounters_lines_up_its_columns_whatever_the_ids_lengths(run):
    """An outside 5e GM (issue 40): "party  srd", "road  srd", "den  srd" did not line up."""
    for encounter in ("party", "road", "den"):  # a ruleset of fracas's own: CI runs this
        run("new", "-r", "pool", "--id", encounter)  # file again without the srd plugin
    lines = [x for x in run("encounters").output.splitlines() if x.strip()]
    assert len(lines) == 3 and len({x.index("pool") for x in lines}) == 1, lines
