"""The errors a newcomer meets in the first hour (issue 41 items 5 and 6): each says what
is wrong and what to do, in one line, with a non-zero exit and nothing appended."""

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections import Fracas
from tests.support import SHEETS, refused

SAMPLES = Path(__file__).parent.parent / "plugins" / "srd" / "fracas_srd" / "samples"


def motel(run) -> None:
    run("new", "--id", "motel")
    run("add", "alice", "--sheet", f"{SHEETS}/alice.toml")
    run("add", "cultist", "--sheet", f"{SHEETS}/cultist.toml")
    run("begin")


@pytest.mark.sqlite_file  # the log is named by its path on disk
@pytest.mark.parametrize("command", [["status"], ["new"], ["export"], ["audit"]])
def test_a_directory_named_as_the_log_is_called_a_directory(tmp_path: Path, command) -> None:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path), *command])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {tmp_path} is a directory, not a log: name a file, as in "
        f"--db {tmp_path}/fight.db\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.sqlite_file
def test_a_damaged_read_model_points_to_the_export_that_rescues_the_log(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    runner = CliRunner()
    for args in (["new"], ["add", "alice", "--sheet", f"{SHEETS}/alice.toml"], ["begin"]):
        assert runner.invoke(cli, ["--db", str(db), *args]).exit_code == 0
    with sqlite3.connect(db) as conn:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'wounds'").fetchone()
    data = bytearray(db.read_bytes())
    data[(page[0] - 1) * size : page[0] * size] = b"\x07" * size
    db.write_bytes(bytes(data))
    status = runner.invoke(cli, ["--db", str(db), "status"])
    assert status.exit_code == 1 and "`fracas export --format jsonl" in status.output
    audit = runner.invoke(cli, ["--db", str(db), "audit"])
    assert audit.exit_code == 1 and "hash chain: ok" in audit.output
    assert "read models: DAMAGED: wounds" in audit.output and "export" in audit.output
    assert audit.output != status.output
    rescue = tmp_path / "rescue.jsonl"
    out = runner.invoke(cli, ["--db", str(db), "export", "--format", "jsonl", "-o", str(rescue)])
    assert out.exit_code == 0, out.output
    copy = tmp_path / "copy.db"
    assert runner.invoke(cli, ["--db", str(copy), "import", str(rescue)]).exit_code == 0
    assert "Alice" in runner.invoke(cli, ["--db", str(copy), "status"]).output


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("harm", "harm takes AMOUNT of 1 or more; `fracas heal` gives health back"),
        ("heal", "heal takes AMOUNT of 1 or more; `fracas harm` takes health off"),
    ],
)
def test_a_negative_amount_says_what_the_command_takes(run, command: str, said: str) -> None:
    motel(run)
    line = refused(run, command, "alice", "-5")
    assert line.startswith(f"Error: -5 is read as an option: {said} (see '")


def test_a_roll_off_short_of_dice_names_each_roll_once_with_its_count(run) -> None:
    run("new", "-r", "srd")
    run("add", "goblin", "--sheet", f"{SAMPLES}/goblin.toml", "--count", "10")
    line = refused(run, "begin", "--dice", ",".join(["5"] * 10))
    assert line.count("d20 for the initiative") == 1
    assert "d20 for the initiative (10 times)" in line


def test_a_sheet_without_spells_does_not_list_an_empty_known(run) -> None:
    run("new", "-r", "srd")
    run("add", "brannoc", "--sheet", f"{SAMPLES}/fighter.toml")
    run("add", "goblin", "--sheet", f"{SAMPLES}/goblin.toml")
    run("begin", "--dice", "15,3")
    acting = json.loads(run("status", "--json").output)["acting"][0]
    other = "goblin" if acting == "brannoc" else "brannoc"
    line = refused(run, "act", acting, "cast", other, "-o", "spell=fireball")
    assert "known: " not in line and "spells: none" not in line, line
    assert "sheet, which has no spells" in line, line


BIG = "x" * 70_000


@pytest.mark.parametrize(
    "args",
    [
        ["condition", "set", "alice", BIG],
        ["condition", "clear", "alice", BIG],
        ["act", "alice", "attack", BIG],
        ["act", "alice", BIG],
        ["act", "alice", "attack", "cultist", "-w", BIG],
        ["act", "alice", "attack", "cultist", "--dice", BIG],
        ["act", "alice", "attack", "cultist", "-o", f"{BIG}=1"],
        ["add", BIG],
        ["rename", "alice", BIG],
        [BIG],
        ["rules", BIG],
        ["new", "-r", BIG],
        ["-e", BIG, "status"],
        ["replay", "--turn", BIG],
        ["disclose", BIG],
        ["help", BIG],
        ["export", "--format", BIG],
        ["add", "zed", "--side", BIG],
        ["add", "zed", "--sheet", f"/tmp/{BIG}"],
        ["add", "zed", "--sheet", f"{BIG}.toml"],
        ["harm", "alice", "2", f"--{BIG}"],
        [f"--{BIG}"],
    ],
)
def test_a_refusal_repeats_a_long_value_cut_to_its_start_and_length(run, args) -> None:
    motel(run)
    line = refused(run, *args)
    assert len(line) < 400 and re.search(r"\(700[0-9][0-9] characters\)", line), line[:400]


def test_a_note_racing_another_writer_is_written_after_it(tmp_path: Path) -> None:
    db = str(tmp_path / "fight.db")
    with Fracas(db) as mine, Fracas(db) as theirs:
        mine.new("percentile", encounter="motel")
        live = mine.encounter("motel")
        theirs.encounter("motel").note("the lights go out")  # after `live` was folded
        live._refresh_if_stale = lambda: None  # the race: it lands between refresh and append
        outcome = live.note("a car pulls up")
        notes = [e.text for e in live.events_of_step(outcome.step)]
        assert notes == ["a car pulls up"] and outcome.step == 3


@pytest.mark.parametrize("faces", ["1,,2", "1,2,", ",1", "4, ,5"])
def test_dice_with_an_empty_face_are_refused_not_read_as_fewer(run, faces: str) -> None:
    motel(run)
    line = refused(run, "act", "alice", "attack", "cultist", "-w", "pistol", "--dice", faces)
    assert line == (
        f"Error: --dice has an empty face in {faces!r}: give each face once, like --dice 34,7"
    )


def test_an_ordinary_end_of_turn_names_whose_turn_it_was(run) -> None:
    from fracas.projections.replay import timeline

    motel(run)
    acting = json.loads(run("status", "--json").output)
    who = acting["acting"][0]
    name = next(w["name"] for w in acting["wounds"] if w["combatant"] == who)
    run("next")
    with Fracas(run.db, readonly=True) as table:
        last = list(timeline(table.encounter("motel")))[-1].step
    assert last.sentence == f"{name} ends the turn"
    report = run("export", "--format", "md").output
    assert f"{name} ends the turn" in report and "lets the turn go by" not in report


def test_a_wrong_id_among_many_names_a_few_and_counts_the_rest(run) -> None:
    run("new", "-r", "srd")
    run("add", "goblin", "--sheet", f"{SAMPLES}/goblin.toml", "--count", "30")
    line = refused(run, "harm", "orc", "1")
    assert "goblin-1, goblin-2" in line and "and 18 more" in line and len(line) < 300


def test_a_weapons_bad_damage_names_the_sheet_file_and_the_weapon(run, tmp_path: Path) -> None:
    sheet = tmp_path / "dan.toml"
    sheet.write_text('dex = 12\n[[weapons]]\nname = "club"\ndamage = "2dd6"\n')
    run("new")
    result = run("add", "dan", "--sheet", str(sheet), ok=False)
    assert result.exit_code != 0 and "dan.toml" in result.output, result.output
    assert "weapon club: damage '2dd6'" in result.output, result.output


def test_a_number_too_big_for_a_sheet_names_the_field_it_was_set_for(run) -> None:
    run("new")
    result = run("add", "carl", "--set", "dex=99999999999999999999", ok=False)
    assert result.exit_code != 0 and "--set dex" in result.output, result.output


def test_a_percentile_stat_beyond_any_creatures_is_refused_naming_it(run) -> None:
    run("new")
    result = run("add", "carl", "--set", "dex=5000", ok=False)
    assert result.exit_code != 0 and "dex = 5000" in result.output, result.output
    run("add", "carl", "--set", "dex=30")  # more than a human's 18, as a creature may have


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["harm", "bob", "0"], "AMOUNT 0 is out of range: give harm an AMOUNT from 1 to 10000"),
        (["heal", "bob", "0"], "AMOUNT 0 is out of range: give heal an AMOUNT from 1 to 10000"),
        (
            ["add", "x", "--count", "0"],
            "--count 0 is out of range: give add a --count from 1 to 100",
        ),
    ],
)
def test_a_number_out_of_range_says_the_range_to_give(run, args, said) -> None:
    """It printed click's 'Invalid value for 'AMOUNT': 0 is not in the range 1<=x<=10000.'
    (an outside 5e GM, issue 40)."""
    run("new", "--id", "e1")
    run("add", "bob", "--set", "dex=10", "--set", "str=10", "--set", "con=10")
    line = refused(run, *args)
    assert line.startswith(f"Error: {said} (see '"), line
    assert "<=" not in line and "Invalid value" not in line, line


def test_an_unknown_name_among_many_names_the_closest_and_lists_them(tmp_path: Path) -> None:
    """An outside table tester (issue 37): `fracas add ... --set abilities.dodge=2` in pool
    said "it is none of the 19 known names", naming none of them and no near one."""
    db = str(tmp_path / "pool.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "new", "-r", "pool", "-t", "x"]).exit_code == 0
    out = runner.invoke(cli, ["--db", db, "add", "bob", "--set", "abilities.dodge=2"])
    assert out.exit_code != 0
    line = out.output.strip()
    assert len(line.splitlines()) == 1, line
    assert "closest: " in line, line
    assert all(name in line for name in ("alertness", "athletics", "thievery")), line
