"""The session report is checked against the fold: who fell and to whom, who left and why,
the initiative order, who caused each injury and the rolls as the system reads them, for a
fight in each of the five rulesets. These tests assert the facts of the document model (and
that the prose carries them), not its wording."""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections import Fracas
from fracas.projections.replay import harm_of
from fracas.projections.report import EncounterReport, encounter_report
from fracas.rules.events import Damaged, Declared, Modifier, Resolved, Spent
from tests.pages import ROOT, block_after

SHEETS = ROOT / "cli" / "demo_sheets"


def tour_fight(heading: str) -> list[str]:
    """A fight of the docs' tours: its commands, without `fracas` and the exports."""
    lines = [shlex.split(line, comments=True) for line in block_after(heading, "sh").splitlines()]
    return [shlex.join(w[1:]) for w in lines if w and w[0] == "fracas"]


FIGHTS: dict[str, list[str]] = {
    "percentile": [
        "new --id fight --title Fight",
        "add bob --set dex=9 --set skills.dodge=50 --set hp=3 --name Bob",
        f"add alice --sheet {SHEETS / 'alice.toml'}",
        f"add cultist --sheet {SHEETS / 'cultist.toml'} --count 2",
        "begin",
        "act alice attack bob -w pistol --dice 10,9",
        'harm cultist-2 3 --reason "the floor gives way"',
        'remove cultist-2 --reason "flees up the stairs"',
    ],
    "shotclock": [
        "new -r shotclock --id fight --title Fight",
        "add jack --side pc --set speed=8 --set skills.guns=14 "
        "--set 'weapons=[{name=\"beretta\", damage=10}]'",
        "add boss --set speed=7 --set 'skills.martial arts=15' --set toughness=8",
        "add mook --set mook=true --set skills.guns=8",
        "begin --dice 1,3,6",
        "act mook attack jack -w punch --dice 1,2",
        "act boss attack mook --dice 5,1",
        'harm jack 3 --reason "shrapnel"',
        'remove boss --reason "drives off in the van"',
    ],
    "pool": [
        *tour_fight("## A dice-pool fight")[:-1],
        'heal ana 1 --reason "a swig of brandy"',
        'remove thug --reason "runs for the door"',
    ],
    "timeslice": [
        *tour_fight("## A time-slice fight")[:-1],
        'condition set alice "shaken" --reason "the orc\'s war cry"',
        'remove bob --reason "carries the orc off"',
    ],
    "fudge": [
        *tour_fight("## A 4dF fight")[:-1],
        'harm p2 1 --reason "a splinter"',
        'remove p2 --reason "bolts out of the room"',
    ],
}
# What the fold says of each fight: the order, who fell to whom, who left and why.
FACTS = {
    "percentile": (
        ["Alice Reyes", "Knife cultist 1", "Knife cultist 2", "Bob"],
        [("bob", "alice")],
        [("cultist-2", "flees up the stairs")],
    ),
    "shotclock": (
        ["mook", "boss", "jack"],
        [("mook", "boss")],
        [("boss", "drives off in the van")],
    ),
    "pool": (["ana", "bob", "thug"], [], [("thug", "runs for the door")]),
    "timeslice": (
        ["Alice", "Orc chieftain", "Bob"],
        [("orc", "bob")],
        [("bob", "carries the orc off")],
    ),
    "fudge": (["p1", "p2", "p3"], [], [("p2", "bolts out of the room")]),
}
REASONS = re.compile(r'--reason "([^"]+)"')


def fought(tmp_path: Path, ruleset: str) -> EncounterReport:
    env = {"FRACAS_DB": str(tmp_path / f"{ruleset}.db"), "FRACAS_ENCOUNTER": "fight"}
    runner = CliRunner()
    for line in FIGHTS[ruleset]:
        words = shlex.split(line)
        if words[0] == "new":
            words = [*words[:1], *[w for w in words[1:]]]
            words[words.index("--id") + 1] = "fight"
        result = runner.invoke(cli, words, env=env)
        assert result.exit_code == 0, f"{line}: {result.output}"
    with Fracas(tmp_path / f"{ruleset}.db") as fracas:
        return encounter_report(fracas.store, "fight")


@pytest.fixture(params=sorted(FIGHTS))
def fight(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch
) -> tuple[str, EncounterReport]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    return request.param, fought(tmp_path, request.param)


def steps_of(found: EncounterReport):
    return [entry.step for r in found.rounds for t in r.turns for entry in t.entries]


def test_the_report_states_the_initiative_order_not_the_joining_order(fight) -> None:
    ruleset, found = fight
    order = FACTS[ruleset][0]
    assert found.order == order
    begin = next(
        s
        for s in steps_of(found)
        if "begins the fight" in s.sentence or s.sentence.startswith("The fight begins")
    )
    places = [begin.sentence.index(name) for name in order]
    assert places == sorted(places), begin.sentence


def test_who_fell_to_whom_and_who_left_and_why(fight) -> None:
    ruleset, found = fight
    _order, fell, left = FACTS[ruleset]
    assert [(f.combatant, f.by_combatant) for f in found.summary.fallen] == fell
    assert [(x.combatant, x.reason) for x in found.summary.left] == left
    gone = {c for c, _reason in left}
    assert not gone & {f.combatant for f in found.summary.fallen}, "a departure is no fall"
    for step in steps_of(found):
        if set(step.fallen) - gone and "down" not in step.marks:
            pytest.fail(f"step {step.step} put someone down and is not marked so")
        if any(d.combatant in gone for d in step.departed):
            assert "down" not in step.marks and "left" in step.marks


def test_the_gms_reasons_are_in_the_prose(fight) -> None:
    ruleset, found = fight
    reasons = [m for line in FIGHTS[ruleset] for m in REASONS.findall(line)]
    text = " ".join(s.sentence for s in steps_of(found))
    for reason in reasons:
        assert reason in text, reason


def test_the_rolls_read_as_the_system_reads_them(fight) -> None:
    ruleset, found = fight
    for step in steps_of(found):
        assert "{" not in step.sentence, f"a raw structure in step {step.step}: {step.sentence}"
        if step.sentence.startswith("The fight begins"):
            continue  # a begin states the order its rolls decided
        for roll in step.rolls:
            if roll.target is None or roll.actor != step.rolls[0].actor:
                continue
            if ruleset == "pool":  # a pool is read die by die, never summed
                faces = ", ".join(str(f) for f in sorted(roll.faces, reverse=True))
                assert f"{faces} against {roll.target}" in step.sentence
                assert f" {roll.total} against" not in step.sentence or len(roll.faces) == 1
            elif ruleset in ("shotclock", "timeslice"):  # the modifiers add to the roll
                read = roll.total + sum(int(m.split()[0]) for m in roll.modifiers)
                assert f"= {read} against {roll.target}" in step.sentence, step.sentence
            elif ruleset == "percentile":
                assert f"{roll.total} against {roll.target}%" in step.sentence


def test_the_markdown_cites_each_rule_once(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    found = fought(tmp_path, "percentile")
    env = {"FRACAS_DB": str(tmp_path / "percentile.db"), "FRACAS_ENCOUNTER": "fight"}
    text = CliRunner().invoke(cli, ["export", "--format", "md"], env=env).stdout
    assert found.rules
    for rule in found.rules:
        assert text.count(rule.statement) == 1, rule.id


def test_an_injury_nobody_resolved_is_credited_to_nobody() -> None:
    """An exertion's injury to a defender, in the attacker's step, is nobody's doing."""
    events = [
        Declared("ana", "attack", {"actor": "ana", "action": "attack"}, "c1"),
        Spent("bob", "exertion", 1, "desperate parry"),
        Damaged("bob", 1, "exerting the Body", [Modifier(1, "Severity-1 Injury")]),
        Resolved("ana", "attack", ["bob"], "hits", []),
        Damaged("bob", 2, "sword"),
    ]
    harms = harm_of(events, {"ana", "bob"})
    assert [(h.who, h.whom, h.amount) for h in harms] == [("", "bob", 1), ("ana", "bob", 2)]
