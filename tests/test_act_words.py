"""`fracas act ACTOR ACTION WORD...`: the words fill the action's targets, or the field its
command names (`save dex`: the ability); `--dc N` is the difficulty, where an action has one."""

from pathlib import Path

import pytest

from fracas.rules.ruleset import BUILTIN, load
from tests.casts import PLAIN

SAMPLES = Path(__file__).parents[1] / "plugins" / "srd" / "fracas_srd" / "samples"


def test_the_d20_rules_take_an_ability_or_a_skill_in_words_and_a_dc(run):
    run("new", "-r", "srd")
    run("add", "maelis", "--sheet", f"{SAMPLES}/cleric.toml", "--side", "pc")
    run("add", "wren", "--sheet", f"{SAMPLES}/rogue.toml", "--side", "pc")
    out = run("act", "maelis", "save", "wis", "--dc", "13", "--dice", "12").output
    assert "Wisdom saving throw (DC 13): 12 +3 +2 = 17 vs 13" in out and "success (17 vs 13)" in out
    out = run(
        "act", "wren", "check", "sleight", "of", "hand", "--dc", "12", "-o", "fail=prone",
        "--dice", "3",
    ).output  # fmt: skip
    assert "failure (8 vs 12)" in out and "wren is prone: failed the Dex" in out
    listed = run("actions").output
    assert "fracas act ACTOR save ABILITY" in listed and "fracas act ACTOR check SKILL" in listed
    assert "--dc N" in listed


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_an_action_without_a_dc_refuses_one_in_one_line(run, name):
    run("new", "-r", name)
    for who in ("alice", "bob"):
        run("add", who, *[a for k, v in PLAIN[name].items() for a in ("--set", f"{k}={v}")])
    run("begin")
    rules = load(name)
    action = next(a for a in rules.actions if "targets" in rules.fields_of(a))
    assert rules.positional_of(action) == "targets"
    refused = run("act", "alice", action, "bob", "--dc", "12", ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert refused.output.strip() == (
        f"Error: {action} takes no --dc; `fracas actions` lists what each action takes"
    )
