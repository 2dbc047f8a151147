"""Saves (srd-36) and checks (srd-37) the GM calls for, from the sheet, at any time."""

import pytest
from fracas.rules.api import BadInputError, ConditionSet, RefusedError, Resolved
from srd_table import fight, of, rolls

from fracas_srd.ruleset import RULESET


def mods(roll) -> dict[str, int]:
    return {m.reason: m.value for m in roll.modifiers}


def test_srd_36_a_save_from_the_sheet_adds_proficiency_out_of_turn_with_a_condition():
    t = fight(("gob", "goblin"), ("maelis", "cleric"))
    out = t.act("maelis", "save", faces=(9,), ability="wis", dc=15, fail="frightened")
    save = rolls(out)[0]
    assert mods(save) == {"Wis modifier": 3, "proficient save": 2} and "srd-36" in save.rules
    assert save.result == "failure (14 vs 15)" and save.purpose == "Wisdom saving throw (DC 15)"
    frightened = of(out, ConditionSet)[0]
    assert frightened.condition == "frightened"
    assert frightened.reason == "failed the Wisdom saving throw (DC 15)"
    out = t.act("maelis", "save", faces=(10,), ability="dex", dc=10, fail="prone")
    assert not of(out, ConditionSet)  # 10 + 0: made it


def test_srd_36_the_paralysed_fail_str_and_dex_saves_with_no_roll():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.do({"action": "gm.condition-set", "target": "gob", "condition": "paralysed"})
    out = t.act("gob", "save", ability="str", dc=5, fail="prone")
    assert not rolls(out) and "automatically: paralysed" in of(out, Resolved)[0].outcome
    assert "prone" in t.who("gob").conditions
    assert rolls(t.act("gob", "save", faces=(3,), ability="wis", dc=5))  # Wis: rolled


def test_srd_36_bless_adds_its_d4_to_a_save_the_gm_calls_for():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "maelis", spell="bless")
    out = t.act("maelis", "save", faces=(5, 4), ability="con", dc=11)
    save, bless = rolls(out)
    assert bless.roll.dice == "1d4" and save.result == "success (11 vs 11)"  # 5 + 2 + 4


def test_srd_37_a_check_with_a_skill_or_an_ability_alone():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = t.act("brannoc", "check", faces=(11,), skill="athletics", dc=15)
    check = rolls(out)[0]
    assert check.purpose == "Strength (Athletics) check (DC 15)" and check.result.startswith(
        "success"
    )
    assert mods(check) == {"Str modifier": 3, "proficient in athletics": 2}
    out = t.act("gob", "check", faces=(11,), skill="int", dc=12, fail="restrained")
    assert (
        rolls(out)[0].purpose == "Intelligence check (DC 12)"
        and "restrained" in t.who("gob").conditions
    )


def test_srd_37_the_poisoned_roll_checks_with_disadvantage():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.do({"action": "gm.condition-set", "target": "brannoc", "condition": "poisoned"})
    out = t.act("brannoc", "check", faces=(15, 4), skill="perception")
    assert rolls(out)[0].roll.dice == "2d20kl1" and "srd-37" in rolls(out)[0].rules


def test_saves_and_checks_refuse_what_they_cannot_read_in_one_line():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    with pytest.raises(BadInputError, match="'athletcs' is not a skill or an ability; did you"):
        t.act("brannoc", "check", skill="athletcs")
    with pytest.raises(RefusedError, match="needs the DC"):
        t.act("brannoc", "save", ability="dex", fail="prone")
    with pytest.raises(RefusedError, match="set themselves"):
        t.act("brannoc", "save", ability="dex", dc=10, fail="dead")
    with pytest.raises(BadInputError):
        t.act("brannoc", "save", ability="luck")
    with pytest.raises(BadInputError, match=r"name the ability of the save: save str\|dex"):
        t.act("brannoc", "save", dc=10)
    with pytest.raises(BadInputError, match="name the skill or the ability of the check"):
        t.act("brannoc", "check", dc=10)
    assert RULESET.positional_of("save") == "ability" and RULESET.positional_of("check") == "skill"
