"""The audit: hash links, seeded rolls once revealed, manual rolls by who typed them, rules
drift under the current code, and a log that still extends an earlier export."""

import json

import pytest
from click.testing import CliRunner

from fracas.cli import render
from fracas.cli.main import cli
from fracas.ledger import NewEvent, Store
from fracas.projections import Fracas
from fracas.rules.percentile import attacks, rolls
from tests.support import attack, cli_gunfight, do, fight, forge, gunner


def duel(fracas: Fracas):
    e = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10, hp=30)))
    plain = attack(e, "alice", "bob", weapon="pistol", dice=[30, 5]).step
    doubles = attack(e, "bob", "alice", weapon="pistol", dice=[33, 4]).step
    return e, plain, doubles


def judging(monkeypatch: pytest.MonkeyPatch, judge) -> None:
    """The percentile ruleset judges every d100 by this `judge` from now on: a rule changed."""
    for module in (rolls, attacks):  # a test roll, and an attack judged against each target
        monkeypatch.setattr(module, "judge", judge)


def tamper(path, position: int) -> None:
    store = Store(path)
    store.conn.execute("DROP TRIGGER events_no_update")
    store.conn.execute(
        "UPDATE events SET body = replace(body, 'pistol', 'rifle') WHERE position = ?",
        (position,),
    )
    store.close()


@pytest.mark.sqlite_file
def test_audit_finds_a_file_edited_by_hand_at_the_right_position(tmp_path, run):
    with Fracas(tmp_path / "fight.db") as fracas:
        duel(fracas)
        fight(fracas, ("carol", gunner()), ("dan", gunner()))  # a second encounter after it
        (position,) = fracas.store.conn.execute(
            "SELECT min(position) FROM events WHERE kind = 'declared'"
        ).fetchone()
    tamper(tmp_path / "fight.db", position)
    report = Fracas(tmp_path / "fight.db").audit()
    assert not report.ok and report.first_bad_position == position
    total = len(list(Store(tmp_path / "fight.db", readonly=True).events()))
    assert report.events_checked == total  # every encounter's chain is read to its end
    shown = run("audit", ok=False)
    assert shown.exit_code == 1 and f"BROKEN at position {position}" in shown.output
    assert "rules drift: not checked, the log is damaged" in shown.output


def test_rules_drift_names_the_step_a_changed_rule_decides_otherwise(fracas, monkeypatch):
    _, _, doubles = duel(fracas)
    assert fracas.audit().drift == []

    def doubles_are_no_longer_criticals(face: int, target: int, stat: int | None = None) -> str:
        return "success" if face <= target else "failure"

    judging(monkeypatch, doubles_are_no_longer_criticals)
    report = fracas.audit()
    assert [d.step for d in report.drift] == [doubles], "33 was a critical; 30 never was"
    (found,) = report.drift
    assert any("33 vs 60% -> critical" in line for line in found.recorded)
    assert any("33 vs 60% -> success" in line for line in found.decided)
    assert not report.ok and report.chain_ok


def test_audit_lists_manual_rolls_by_who_typed_them_and_seeded_ones_not_yet_checkable(run):
    cli_gunfight(run, bob_hp=40)
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5", "--by", "ana")
    run("next")
    run("act", "alice", "attack", "bob", "-w", "pistol")
    text = run("audit").output
    assert "manual rolls typed by ana: 2" in text
    assert "unverifiable until the seed is revealed" in text
    run("reveal")
    text = run("audit").output
    assert "seeded rolls verified" in text and "unverifiable" not in text
    data = json.loads(run("audit", "--json").output)
    assert data["ok"] and {r["entered_by"] for r in data["rolls"] if r["source"] == "manual"} == {
        "ana"
    }


@pytest.mark.sqlite_file
def test_audit_against_an_export_proves_the_log_extends_it(tmp_path, fracas, run):
    e, _, _ = duel(fracas)
    export = tmp_path / "monday.jsonl"
    run("export", "-o", str(export))
    do(e, {"action": "next"})
    later = run("audit", "--against", str(export)).output
    assert "the log extends it unchanged" in later
    tamper(fracas.store.path, 3)
    broken = run("audit", "--against", str(export), ok=False)
    assert broken.exit_code == 1 and "NOT extended: position 3 differs" in broken.output


def test_audit_against_another_files_export_fails(tmp_path, fracas, run):
    duel(fracas)
    with Fracas(tmp_path / "other.db") as other:
        fight(other, ("x", gunner()), ("y", gunner()))
        with (tmp_path / "other.jsonl").open("w") as out:
            other.export_jsonl(out)
    assert not fracas.audit(against=tmp_path / "other.jsonl").against.ok


def test_a_read_model_edited_by_hand_is_named_by_table_and_row(fracas, run):
    e, _, _ = duel(fracas)
    assert fracas.audit().read_models.ok
    forge(fracas, "UPDATE wounds SET current = current + 5 WHERE combatant = 'bob'")
    report = fracas.audit()
    assert report.chain_ok and report.steps_ok and not report.ok
    assert (report.read_models.table, report.read_models.row) == ("wounds", [e.id, "bob"])
    assert "current is" in report.read_models.problem
    shown = run("audit", ok=False)
    assert f"read models: EDITED in wounds row ({e.id}, bob): current is" in shown.output


def test_a_read_model_row_slipped_in_is_named(fracas):
    e, _, _ = duel(fracas)
    forge(fracas, f"INSERT INTO pins VALUES ('{e.id}', 'alice', 'bob', 'grapple')")
    report = fracas.audit()
    assert (report.read_models.table, report.read_models.row) == ("pins", [e.id, "alice", "bob"])
    assert "a fold of the log does not give" in report.read_models.problem


def test_a_revealed_seed_must_hash_to_its_commitment(fracas, run):
    e = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10, hp=30)))
    attack(e, "alice", "bob", weapon="pistol")  # seeded
    forged = json.dumps(
        {"kind": "seed.revealed", "seed_epoch": 1, "seed": "ab" * 32, "next_seed_sha256": "0" * 64}
    )
    version = fracas.store.head(e.id).version
    fracas.store.append(e.id, [NewEvent("seed.revealed", forged)], expected_version=version,
                        command_id="forged")  # fmt: skip
    position = list(fracas.store.events(e.id))[-1].position
    report = fracas.audit()
    assert report.chain_ok and report.steps_ok and not report.ok
    assert [s.position for s in report.seeds] == [position] and report.bad_position == position
    assert "does not hash to the commitment" in report.seeds[0].problem
    assert all(r.verdict != "verified" for r in report.rolls)  # nothing checked by a forged seed
    assert f"revealed seed: FORGED at position {position}" in run("audit", ok=False).output


def test_a_true_reveal_verifies_and_names_nothing(fracas):
    e = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10, hp=30)))
    attack(e, "alice", "bob", weapon="pistol")
    e.reveal()
    report = fracas.audit()
    assert report.ok and report.seeds == [] and report.bad_position is None
    assert any(r.verdict == "verified" for r in report.rolls)


@pytest.mark.sqlite_file
def test_an_edited_command_id_is_named_as_an_edited_step_record_not_as_drift(tmp_path) -> None:
    import sqlite3

    from click.testing import CliRunner

    from fracas.cli.main import cli

    runner = CliRunner()
    db = str(tmp_path / "ids.db")
    for args in (["new"], ["add", "alice"], ["add", "bob"], ["begin"], ["note", "one"]):
        assert runner.invoke(cli, ["--db", db, *args]).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER steps_no_update")
    conn.execute("UPDATE steps SET command_id = 'x' WHERE step = 3")
    conn.commit()
    conn.close()
    result = runner.invoke(cli, ["--db", db, "audit"])
    assert result.exit_code == 1
    assert "step 3: its step record names command id 'x'" in result.output
    assert "the step records were edited" in result.output
    assert "was:" not in result.output


def test_audit_names_runs_of_steps_as_ranges(tmp_path):
    db = tmp_path / "demo.db"
    assert CliRunner().invoke(cli, ["demo", "--db", str(db), "--quiet"]).exit_code == 0
    text = CliRunner().invoke(cli, ["--db", str(db), "audit"]).output
    assert "manual rolls typed by table: 14 (encounter" in text and "steps 8-12, 14-16)" in text
    assert render.step_ranges([45, 3, 4, 5, 42, 46, 47, 3, 9]) == "3-5, 9, 42, 45-47"
    assert render.step_ranges(range(3, 2651)) == "3-2650"


def test_rules_drift_shows_the_events_that_differ_field_by_field(fracas, monkeypatch, run):
    doubles = duel(fracas)[2]
    judging(monkeypatch, lambda face, target, stat=None: "success")
    (found,) = fracas.audit().drift
    assert 'result: was "critical", now "success"' in "\n".join(found.changes)
    assert not any("faces" in line for line in found.changes)  # the same dice, only judged anew
    shown = run("audit", ok=False).output
    assert f"step {doubles}: the rules now decide it differently" in shown
    assert '  result: was "critical", now "success"' in shown
    assert "was: " not in shown  # not the whole step twice


def seeded_fight(run, name: str) -> None:
    """A percentile fight `name` in which Alice shoots Bob with the seeded dice."""
    run("new", "--id", name)
    pistol = 'weapons=[{name="pistol",kind="firearm",damage="1d10"}]'
    run("add", "alice", "--set", "dex=14", "--set", "skills.firearms=60", "--set", pistol,
        "--set", 'holding=["pistol"]')  # fmt: skip
    run("add", "bob", "--set", "hp=40")
    run("begin")
    run("-e", name, "act", "alice", "attack", "bob", "-w", "pistol")


def test_audit_names_the_reveal_each_encounter_needs_and_reveal_takes_every_ended_one(run):
    """Issue 40: `reveal` covered the latest encounter alone, and the audit's line on the
    road's unverifiable rolls did not say what reveals them. Now it names the command for
    each; `reveal` with no encounter named reveals the latest and every ended one too."""
    seeded_fight(run, "road")
    run("-e", "road", "end")
    seeded_fight(run, "camp")
    text = run("audit").output
    line = next(t for t in text.splitlines() if "unverifiable" in t)
    assert line.startswith("seeded rolls unverifiable until the seed is revealed: "), line
    assert line.endswith("`fracas reveal -e road`, `fracas reveal -e camp`"), line
    run("-e", "camp", "reveal")  # the one named alone
    line = next(t for t in run("audit").output.splitlines() if "unverifiable" in t)
    assert "encounter road step" in line and line.endswith(": `fracas reveal -e road`"), line
    seeded_fight(run, "ford")  # road ended and unrevealed; ford the latest, camp revealed
    out = run("reveal").output
    assert "encounter road:" in out and "camp" not in out, out
    assert "unverifiable" not in run("audit").output
    assert "every ended encounter" in run("reveal", "--help").output
