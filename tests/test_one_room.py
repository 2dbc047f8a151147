"""A ruleset is one room: the table's words and facts come from the Ruleset contract, and
no module outside a system's own names that system."""

import dataclasses
import re
from pathlib import Path

import pytest

from fracas import rules as fracas_rules
from fracas.cli.serve import Table
from fracas.ledger import BadInputError
from fracas.projections import Fracas
from fracas.projections.replay import timeline
from fracas.projections.report import cast_of
from fracas.projections.screen import GM
from fracas.rules import load
from fracas.rules.events import ConditionSet, Roll, Rolled
from fracas.rules.ruleset import BUILTIN, listed_weapons
from fracas.rules.views import View, WoundRow
from tests.casts.shotclock import JACK, MOOK, shot_fight
from tests.support import cli_gunfight, do, sheet

BUILT_IN = sorted(BUILTIN)


def rolled(dice: str, faces: list[int], total: int, target: int | None, result: str) -> Rolled:
    return Rolled("alice", "attack", Roll(dice, faces, total, "manual"), target, [], result, [])


def test_a_ruleset_that_sets_no_words_reads_in_generic_words():
    bare = dataclasses.replace(load("percentile"), verbs={}, facts=None)
    assert bare.verb("dash") == "takes the dash action"
    assert bare.round_word == "Round"
    assert bare.facts_of(rolled("d100", [11], 11, 60, "critical")) == frozenset()


def test_every_action_of_a_built_in_ruleset_has_its_own_verb():
    for name in BUILT_IN:
        ruleset = load(name)
        assert set(ruleset.actions) <= set(ruleset.verbs), name


@pytest.mark.parametrize(
    ("name", "roll", "facts"),
    [
        ("percentile", rolled("d100", [1], 1, 50, "critical"), {"critical"}),
        ("percentile", rolled("d100", [100], 100, 50, "fumble"), {"fumble"}),
        ("percentile", rolled("d100", [40], 40, 50, "success"), set()),
        ("pool", rolled("3d10", [1, 1, 3], 5, 6, "outcome -2: botch"), {"fumble"}),
        ("pool", rolled("3d10", [9, 9, 3], 21, 6, "outcome 2: partial success"), set()),
        ("fudge", rolled("4dF", [1, 1, 1, 1], 4, 3, "hits"), {"critical"}),
        ("fudge", rolled("4dF", [-1, -1, -1, -1], -4, 3, "misses"), {"fumble"}),
        ("fudge", rolled("4dF", [1, 1, 1, 1], 4, None, "initiative 6"), set()),
        ("shotclock", rolled("1d6!-1d6!", [6, 6], 0, 10, "critical"), set()),
    ],
)
def test_criticals_and_fumbles_are_the_ruleset_s_facts(name: str, roll: Rolled, facts: set):
    assert load(name).facts_of(roll) == facts


@pytest.mark.parametrize(
    ("name", "condition", "facts"),
    [
        ("percentile", "unconscious", {"down"}),
        ("percentile", "dead", {"down", "out"}),
        ("percentile", "prone", set()),
        ("shotclock", "out", {"down", "out"}),
        ("pool", "incapacitated", {"down"}),
        ("timeslice", "dying", {"down"}),
    ],
)
def test_down_and_out_are_the_ruleset_s_conditions(name: str, condition: str, facts: set):
    event = ConditionSet("bob", condition, "", {}, [])
    assert load(name).facts_of(event) == facts


def test_a_sheet_s_weapons_are_read_whatever_their_shape():
    assert listed_weapons({"weapons": [{"name": "Glock 17"}, {"name": "knife"}]}) == [
        "Glock 17",
        "knife",
    ]
    assert listed_weapons({"weapons": {"longsword": {}, "dagger": {}}}) == ["longsword", "dagger"]
    assert listed_weapons({"hp": 10}) == []
    assert listed_weapons({"weapons": ["club"]}) == ["club"]
    percentile = load("percentile")
    assert percentile.weapons_of({"dex": 10, "weapons": [{"name": "Glock 17"}]}) == ["Glock 17"]
    assert percentile.weapons_of({"weapons": "not a list"}) == []


def test_the_headline_and_key_numbers_come_from_the_ruleset():
    view = View(2, "sequence 2, shot 12", ["bob"], [], [], [])
    assert load("shotclock").headline_of(view) == "shot 12"
    assert load("percentile").headline_of(view) == ""
    wound = WoundRow("bob", "Bob", "pc", "", [], {"ts": 3, "ts_max": 5, "saved_ts": 1})
    assert load("timeslice").numbers_of(wound) == {"TS": "3/5", "Saved TS": 1}
    assert load("percentile").numbers_of(wound) == {}


def test_an_action_s_fields_are_its_command_struct_s():
    percentile = load("percentile")
    assert {"actor", "targets", "weapon"} <= set(percentile.fields_of("attack"))
    assert percentile.fields_of("no such action") == ()


def test_act_sends_only_what_the_action_takes(run):
    cli_gunfight(run, bob_hp=10)
    refused = run("act", "alice", "stand", "-w", "pistol", ok=False)
    assert refused.exit_code != 0
    assert "stand takes no -w" in refused.output
    assert "Traceback" not in refused.output
    before = run("log", "--json").output
    run("act", "alice", "stand", "--called", "mostly", ok=False)
    assert run("log", "--json").output == before  # nothing appended by a refusal
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5")


def rounds_of(fracas: Fracas, encounter: str) -> list[int]:
    found = fracas.store.execute(
        "SELECT round FROM step_rounds WHERE encounter = ? ORDER BY step", (encounter,)
    )
    return [row[0] for row in found]


def test_the_sql_views_count_rounds_by_the_ruleset_s_own_round_events(fracas):
    clocked = shot_fight(fracas, ("jack", JACK), ("mook", MOOK), initiative=[4, 2])
    while clocked.state.sequence < 2:
        do(clocked, {"action": "next"})
    do(clocked, {"action": "next"})
    assert rounds_of(fracas, clocked.id)[-1] == 2  # shot.reached carries the sequence
    silent = dataclasses.replace(load("percentile"), round_events={})
    plain = fracas.new(silent)
    for who in ("alice", "bob"):
        do(plain, {"action": "join", "combatant": who, "sheet": sheet(12)})
    do(plain, {"action": "begin"})
    do(plain, {"action": "next"})
    assert set(rounds_of(fracas, plain.id)) == {0}  # it declares no event starting a round


def test_a_new_initiative_is_told_in_the_order_the_ruleset_puts_it(fracas):
    clocked = shot_fight(fracas, ("jack", JACK), ("mook", MOOK), initiative=[4, 2])
    while clocked.state.sequence < 2:
        try:  # the next that starts sequence 2 rolls everyone's initiative: these faces
            step = do(clocked, {"action": "next"}, [1, 6])
        except BadInputError:  # no roll yet: the shots count down
            step = do(clocked, {"action": "next"})
    sentences = [m.step.sentence for m in timeline(clocked)]
    assert clocked.view().initiative[0].combatant == "mook"  # 6 + 5 beats 1 + 8
    assert sentences[step.step - 1].endswith("the order is now mook, jack")


def test_actions_show_the_ruleset_s_line_for_a_field(run):
    text = run("actions", "-r", "percentile").output
    assert "how much of the target is covered (000-10)" in text
    assert "--called KIND" in text


# -- no module outside a system's own names that system -------------------------------------

ROOT = Path(fracas_rules.__file__).resolve().parent.parent
SYSTEM_NAMES = re.compile(
    r"\b(percentile|shotclock|timeslice)\b"  # the rulesets' names
    r"|\bfudge\b(?! dice)"  # not the dice of that name (4dF), which any ruleset may roll
    r"|[\"'`]pool[\"'`]"  # a dice pool or a pool of connections is not the ruleset
    r"|[\"']00[0-4](-M?\d*)?[\"']",  # their rule ids or prefixes as values (not as examples)
    re.IGNORECASE,
)
# The registry: each built-in's name beside its module, the one line that lists them.
REGISTRY = ("rules/__init__.py", "for name in (")


def outside_the_rooms() -> list[Path]:
    """Every module, template and script of fracas but the five systems' own."""
    rooms = [ROOT / "rules" / name for name in BUILT_IN]  # each system's own package
    found = []
    for folder in ("ledger", "projections", "cli", "rules"):
        for path in sorted((ROOT / folder).rglob("*")):
            inside = any(path.is_relative_to(room) for room in rooms)
            if path.suffix in (".py", ".html", ".md", ".js", ".css", ".sql") and not inside:
                found.append(path)
    return found


def test_no_module_outside_a_system_s_own_names_a_system():
    named = []
    for path in outside_the_rooms():
        where = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if (where, REGISTRY[1]) == REGISTRY and REGISTRY[1] in line:
                continue
            if match := SYSTEM_NAMES.search(line):
                named.append(f"{where}:{number}: {match[0]!r} in {line.strip()!r}")
    assert named == [], "a system named outside its room:\n" + "\n".join(named)


def test_the_check_would_see_a_system_named():
    assert SYSTEM_NAMES.search('ROUND_WORD = {"shotclock": "Sequence"}')
    assert SYSTEM_NAMES.search('if ruleset == "pool":')
    assert SYSTEM_NAMES.search('if rule.startswith("003-"):')
    assert SYSTEM_NAMES.search("rules=['001-M5']")
    assert not SYSTEM_NAMES.search("ids look like 000-8 (a rule)")
    assert not SYSTEM_NAMES.search("the connection pool; 4dF are fudge dice")
    assert len(outside_the_rooms()) > 40


def test_the_report_s_cast_shows_weapons_as_the_ruleset_reads_them(fracas):
    armed = dataclasses.replace(load("percentile"), weapons=lambda sheet: ["claws", "bite"])
    live = fracas.new(armed)
    do(live, {"action": "join", "combatant": "wolf", "sheet": sheet(12)})
    (wolf,) = cast_of(live, [live.view()], players=False, npc_numbers=False)
    assert wolf.weapons == ["claws", "bite"]


@pytest.mark.sqlite_file
def test_a_step_s_detail_on_the_web_counts_in_the_ruleset_s_rounds(tmp_path):
    with Fracas(tmp_path / "shots.db") as fracas:
        clocked = shot_fight(fracas, ("jack", JACK), ("mook", MOOK), initiative=[4, 2])
        do(clocked, {"action": "next"})
    table = Table(str(tmp_path / "shots.db"), "token")
    detail = table.templates.get_template("detail.html")
    shown = detail.render(detail=table.timeline(clocked.id, GM).detail(5), audience=GM)
    assert "· sequence 1 ·" in shown and "· round" not in shown
