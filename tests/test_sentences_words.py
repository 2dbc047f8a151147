"""What the log and the reports say of rolls, falls and rounds, as an outside tester read
them: a damage roll's total once, one fall a combatant a step, an attack read as its system
adds it up, the ruleset's word for a round, and a count agreeing with its noun."""

import dataclasses
from pathlib import Path

from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections.describe import describe
from fracas.projections.sentences import fallen, sentence
from fracas.rules.events import (
    ConditionSet,
    Damaged,
    Healed,
    Modifier,
    Resolved,
    Roll,
    Rolled,
    Spent,
    TurnAdvanced,
)
from fracas.rules.ruleset import REGISTERED, available, load

ATTACK = {"action": "attack", "actor": "ann", "targets": ["bo"]}
NAMES = {"ann": "Ann", "bo": "Bo"}


def damage(dice: str, faces: list[int]) -> Rolled:
    roll = Roll(dice, faces, sum(faces), "seeded", counter="1.0")
    return Rolled("ann", "damage", roll, None, [], f"{roll.total} on {dice}", [])


def test_a_damage_roll_reads_its_faces_then_its_total_once() -> None:
    ruleset = load("srd")
    said = sentence([damage("2d8", [4, 4])], ATTACK, NAMES, ruleset)
    assert "4+4 = 8 on 2d8" in said and "8, 8" not in said
    said = sentence([damage("2d6", [3, 3])], ATTACK, NAMES, ruleset)
    assert "3+3 = 6 on 2d6" in said and "6, 6" not in said
    said = sentence([damage("1d6", [3])], ATTACK, NAMES, ruleset)
    assert said.endswith(": 3 on 1d6"), said


def test_unconscious_and_dying_in_one_step_are_one_fall() -> None:
    ruleset = load("srd")
    events = [
        ConditionSet("bo", "unconscious", "0 HP", []),
        ConditionSet("bo", "dying", "0 HP", []),
    ]
    assert fallen(events, ruleset) == ["bo"]


def attack_roll(ruleset_reads: str) -> str:
    roll = Roll("d20", [14], 14, "seeded", counter="1.0")
    mods = [Modifier(2, "Dex modifier", "x-1"), Modifier(2, "proficient", "x-2")]
    event = Rolled("ann", "attack on Bo", roll, 18, mods, "hit (18 vs AC 18)", [])
    ruleset = dataclasses.replace(load("percentile"), reads_rolls=ruleset_reads)
    return sentence([event], ATTACK, NAMES, ruleset)


def test_an_attack_read_with_its_modifiers_compares_the_modified_total() -> None:
    assert "14 +2 +2 = 18 against 18, hit" in attack_roll("modified")


def test_the_log_line_reads_a_roll_as_its_ruleset_does() -> None:
    """'14 vs 18 (+2 …, +2 …)' reads as a miss where the modifiers add to the roll: such a
    ruleset's line gives the modified total; one that puts them in the target keeps its
    roll as it is."""
    roll = Roll("d20", [14], 14, "seeded", counter="1.0")
    mods = [Modifier(2, "Dex modifier", "x-1"), Modifier(2, "proficient", "x-2")]
    event = Rolled("ann", "attack on Bo", roll, 18, mods, "hit (18 vs AC 18)", [])
    assert describe(event, reads="modified").startswith(
        "ann rolls d20 for attack on Bo: 14 +2 +2 = 18 vs 18 (+2 Dex modifier (x-1), "
    )
    assert describe(event).startswith("ann rolls d20 for attack on Bo: 14 vs 18 (+2 Dex")


def test_the_act_output_and_the_log_read_an_srd_attack_s_modified_total(tmp_path: Path) -> None:
    samples = Path(__file__).parents[1] / "plugins" / "srd" / "fracas_srd" / "samples"
    env = {"FRACAS_DB": str(tmp_path / "f.db")}
    runner = CliRunner()
    for line in (
        ["new", "-r", "srd", "--id", "f"],
        ["add", "brannoc", "--sheet", str(samples / "fighter.toml"), "--side", "pc"],
        ["add", "gob", "--sheet", str(samples / "goblin.toml")],
        ["begin", "--dice", "20,1"],
        ["act", "brannoc", "attack", "gob", "-w", "longsword", "--dice", "12,1"],
    ):
        result = runner.invoke(cli, line, env=env)
        assert result.exit_code == 0, result.output
    said = "rolls d20 for attack on gob with longsword: 12 +3 +2 = 17 vs 15 (+3 Str"
    assert said in result.output
    assert said in runner.invoke(cli, ["log"], env=env).output


def test_srd_adds_its_modifiers_to_the_d20_so_reads_its_rolls_modified() -> None:
    assert load("srd").reads_rolls == "modified"


def test_a_new_turn_reads_in_the_rulesets_word_for_a_round() -> None:
    event = TurnAdvanced(2, "ann", "next")
    assert describe(event, "Exchange") == "Exchange 2: ann to act (next)"
    assert describe(event).startswith("Round 2: ")


def test_the_log_and_the_act_output_say_the_rulesets_round_word(
    tmp_path: Path, monkeypatch
) -> None:
    exchange = dataclasses.replace(load("percentile"), name="exchange", round_word="Exchange")
    monkeypatch.setitem(REGISTERED, "exchange", exchange)
    env = {"FRACAS_DB": str(tmp_path / "f.db")}
    runner = CliRunner()
    for line in (
        ["new", "-r", "exchange", "--id", "f", "--title", "F"],
        ["add", "ann", "--set", "dex=9"],
        ["add", "bo", "--set", "dex=5"],
        ["begin"],
        ["next"],
        ["next"],
    ):
        result = runner.invoke(cli, line, env=env)
        assert result.exit_code == 0, result.output
    assert "Exchange 2: ann to act" in result.output, result.output
    log = runner.invoke(cli, ["log"], env=env).output
    assert "Exchange 2: ann to act" in log and "turn 2:" not in log


def test_one_of_a_resource_reads_in_the_singular() -> None:
    assert describe(Spent("wyrm", "legendary actions", 1, "tail")) == (
        "wyrm spends 1 legendary action: tail"
    )
    assert "spends 2 legendary actions" in describe(Spent("wyrm", "legendary actions", 2, "x"))
    assert "spends 1 ts" in describe(Spent("ann", "ts", 1, "waits"))


def test_the_summary_counts_one_step_in_the_singular(tmp_path: Path, monkeypatch) -> None:
    exchange = dataclasses.replace(load("percentile"), name="exchange", round_word="Exchange")
    monkeypatch.setitem(REGISTERED, "exchange", exchange)
    env = {"FRACAS_DB": str(tmp_path / "f.db")}
    runner = CliRunner()
    for line in (
        ["new", "-r", "exchange", "--id", "f", "--title", "F"],
        ["add", "ann", "--set", "dex=9"],
        ["add", "bo", "--set", "dex=5"],
        ["begin"],
        ["next"],
    ):
        assert runner.invoke(cli, line, env=env).exit_code == 0
    for form in ("md", "html"):
        text = runner.invoke(cli, ["export", "--format", form], env=env).output
        assert "1 exchange, 5 steps" in text and "the longest was Exchange 1 (1 step)" in text


# how each ruleset says 4 of its health given back: its own word for health, never "heals 4"
REGAINS = {
    "srd": "regains 4 hit points",
    "percentile": "regains 4 hit points",
    "timeslice": "regains 4 hit points",
    "pool": "regains 4 Body",
    "shotclock": "is healed of 4 wound points",
    "fudge": "is healed of 4 wound levels",
}


def test_two_hits_on_one_target_in_a_step_read_as_their_sum_in_every_ruleset() -> None:
    """Two darts at Bo and one at Ann, all for 2: the sentence says Bo takes 4, never 2."""
    hits = [Damaged("bo", 2, "ann"), Damaged("ann", 2, "ann"), Damaged("bo", 2, "ann")]
    heals = [Healed("bo", 1, "gm"), Healed("bo", 3, "gm")]
    for system in available():
        said = sentence(hits + heals, ATTACK, NAMES, load(system))
        assert "Bo takes 4 damage (2 + 2)" in said, (system, said)
        assert "Ann takes 2 damage" in said and "Bo takes 2 damage" not in said, (system, said)
        assert f"Bo {REGAINS[system]} (1 + 3)" in said, (system, said)


def test_a_critical_hit_is_said_once() -> None:
    """An outside tester after issue 37: srd's critical hit read "…against 18, critical hit;
    critical hit Bo": the roll's result, then the attack's outcome saying it again."""
    roll = Roll("d20", [20], 20, "seeded", counter="1.0")
    mods = [Modifier(2, "Str", "srd-6")]
    events = [
        Rolled("ann", "attack on bo", roll, 18, mods, "critical hit", ["srd-7"]),
        Resolved("ann", "attack", ["bo"], "critical hit Bo", ["srd-8"]),
        damage("2d6", [3, 3]),
    ]
    said = sentence(events, ATTACK, NAMES, load("srd"))
    assert said.count("critical hit") == 1, said
    assert said.startswith("Ann attacks Bo: 20 +2 = 22 against 18, critical hit; "), said


def test_srd_shield_reads_as_a_reaction_not_a_readied_action() -> None:
    """An outside tester after issue 37: Bo's shield in Ann's attack read "Bo takes the
    readied action Ann: shield: the hit becomes a miss"."""
    roll = Roll("d20", [12], 12, "seeded", counter="1.0")
    events = [
        Rolled("ann", "attack on bo", roll, 12, [], "hit (12 vs AC 12)", ["srd-7"]),
        Resolved("bo", "react", ["ann"], "shield: the hit becomes a miss (12 vs AC 17)", []),
        Resolved("ann", "attack", ["bo"], "misses Bo", ["srd-7"]),
    ]
    said = sentence(events, ATTACK, NAMES, load("srd"))
    assert "readied" not in said, said
    assert "Bo reacts to Ann: shield: the hit becomes a miss" in said, said
