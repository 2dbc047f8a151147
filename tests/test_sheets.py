"""Sheets a GM can trust: a typo in a name is refused with the name it most likely meant,
a skill of the sheet's own is declared, and a bad value names the values accepted."""

import pytest

from fracas.ledger import BadInputError
from fracas.rules.ruleset import load
from tests.support import do, fight, rolls, sheet


@pytest.mark.parametrize(
    ("ruleset", "sheet", "message"),
    [
        (
            "percentile",
            {"skills": {"firarms": 50}},
            "unknown skill 'firarms'; did you mean firearms?",
        ),
        ("percentile", {"skills": {"melee": 50}}, "did you mean melee weapons?"),
        (
            "percentile",
            {"weapons": [{"name": "bow", "kind": "thrown", "skill": "athletix"}]},
            "weapon bow: unknown skill 'athletix'; did you mean athletics?",
        ),
        ("fudge", {"skills": {"physiqe": 2}}, "did you mean physique?"),
        ("fudge", {"skills": {"melee": "profesional"}}, "did you mean professional?"),
        (
            "pool",
            {"abilities": {"firearm": 2}},
            "unknown ability 'firearm'; did you mean firearms?",
        ),
        (
            "pool",
            {"weapons": [{"name": "axe", "attribute": "brawm", "ability": "melee"}]},
            "unknown attribute 'brawm'; did you mean brawn?",
        ),
        ("shotclock", {"skills": {"gun": 12}}, "unknown skill 'gun'; did you mean guns?"),
        ("timeslice", {"weapons": [{"name": "axe"}], "equipped": ["ax"]}, "did you mean axe?"),
        (
            "timeslice",
            {"weapons": [{"name": "axe", "limb": "left hand"}]},
            "unknown limb 'left hand'; did you mean left arm?",
        ),
    ],
)
def test_unknown_names_are_refused_with_the_closest_known_one(ruleset, sheet, message):
    with pytest.raises(BadInputError) as refused:
        load(ruleset).sheet(sheet, "sheet of x")
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("ruleset", "sheet"),
    [
        ("percentile", {"skills": {"pilot (helicopter)": 40, "art (painting)": 30}}),
        ("percentile", {"skills": {"hacking": 40}, "custom_skills": ["hacking"]}),
        ("fudge", {"skills": {"ranged": 2, "lockpicking": 1}, "custom_skills": ["lockpicking"]}),
        ("pool", {"abilities": {"sailing": 2}, "custom_skills": ["sailing"]}),
        ("shotclock", {"skills": {"kung fu": 14}, "custom_skills": ["kung fu"]}),
    ],
)
def test_typed_and_declared_custom_skills_are_accepted(ruleset, sheet):
    load(ruleset).sheet(sheet, "sheet of x")


def test_a_custom_skill_can_be_tested_and_a_typo_at_the_table_is_refused(fracas):
    hacker = sheet(12, skills={"hacking": 55}, custom_skills=["hacking"])
    e = fight(fracas, ("hacker", hacker), ("bob", sheet(10)))
    out = do(e, {"action": "other", "actor": "hacker", "test": "hacking"}, [40])
    (roll,) = rolls(out.events)
    assert (roll.target, roll.result) == (55, "success")
    with pytest.raises(BadInputError, match="did you mean firearms"):
        do(e, {"action": "other", "actor": "bob", "test": "firarms"}, [40])
    with pytest.raises(BadInputError, match=r"none of the \d+ known names"):
        do(e, {"action": "other", "actor": "bob", "test": "hacking"}, [40])


def test_bad_values_name_the_accepted_ones():
    percentile = load("percentile")
    with pytest.raises(BadInputError, match="dex_ties = 'coin' is not accepted; use one of"):
        percentile.options({"dex_ties": "coin"})
    with pytest.raises(BadInputError, match="str = -3 is not accepted; use a whole number from 0"):
        percentile.sheet({"str": -3}, "sheet of x")
    with pytest.raises(BadInputError, match="custom_skills is a list of names"):
        percentile.sheet({"custom_skills": "hacking"}, "sheet of x")


@pytest.mark.parametrize("ruleset", ["percentile", "fudge", "pool", "shotclock", "timeslice"])
def test_a_bad_field_from_set_is_blamed_on_set_not_on_the_file(run, tmp_path, ruleset):
    good = tmp_path / "good.toml"
    good.write_text("")
    run("new", "-r", ruleset)
    out = run("add", "x", "--sheet", str(good), "--set", "zzz=1", ok=False)
    assert out.exit_code != 0 and "unknown field 'zzz'" in out.output
    assert f"{good} with --set zzz=1:" in out.output
    out = run("add", "y", "--set", "zzz=1", ok=False)
    assert "sheet of y: unknown field 'zzz'" in out.output and "Traceback" not in out.output
