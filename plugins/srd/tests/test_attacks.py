"""Attack rolls and damage: srd-6 to srd-10, srd-17, srd-19, srd-22, srd-23."""

import re

import pytest
from fracas.rules.api import BadInputError, Damaged, RefusedError
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def mods(roll) -> dict[str, int]:
    return {m.reason: m.value for m in roll.modifiers}


def test_srd_6_melee_adds_str_ranged_dex_finesse_the_better_and_proficiency():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    bow = rolls(t.act("brannoc", "attack", "gob", faces=(2,), weapon="longbow"))[0]
    assert mods(bow) == {"Dex modifier": 1, "proficient with longbow": 2}
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    blade = rolls(t.act("wren", "attack", "gob", faces=(2,), weapon="shortsword"))[0]
    assert mods(blade) == {"Dex modifier": 3, "proficient with shortsword": 2}
    assert {"srd-6", "srd-7"} <= set(blade.rules)


def test_srd_6_a_spell_attack_adds_the_spellcasting_modifier_and_proficiency():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    bolt = rolls(t.act("maelis", "cast", "gob", faces=(10, 1, 1, 1, 1), spell="guiding bolt"))
    assert mods(bolt[0]) == {"spellcasting Wis modifier": 3, "proficiency": 2}
    assert bolt[0].result.startswith("hit (15 vs AC 15)")


def test_srd_7_a_natural_20_always_hits_and_a_natural_1_always_misses():
    t = fight(("gob", "goblin"), ("wyrm", "wyrm"))
    out = t.act("gob", "attack", "wyrm", faces=(20, 3, 4), weapon="scimitar", cover="half")
    assert rolls(out)[0].result == "critical hit"
    assert RULESET.facts_of(rolls(out)[0]) == {"critical"}
    t = fight(("wyrm", "wyrm"), ("gob", "goblin"))
    out = t.act("wyrm", "attack", "gob", faces=(1,), weapon="bite")
    assert rolls(out)[0].result == "natural 1: miss"  # 1 + 9 = 10 would not hit AC 15 anyway
    # the SRD 5.1 has no fumbles: a natural 1 simply misses, and no screen marks it one
    assert RULESET.facts_of(rolls(out)[0]) == frozenset()


def test_srd_7_a_natural_1_misses_whatever_the_modifiers():
    t = fight(("wyrm", "wyrm"), ("gob", "goblin"))
    out = t.act(
        "wyrm",
        "attack",
        "gob",
        faces=(1,),
        weapon="bite",
        modifiers=[{"value": 20, "reason": "blessed by the GM"}],
    )
    assert rolls(out)[0].result == "natural 1: miss" and not of(out, Damaged)


def test_srd_8_a_critical_rolls_the_damage_dice_twice_and_the_modifiers_once():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    out = t.act("brannoc", "attack", "wyrm", faces=(20, 6, 7), weapon="longsword")
    damage = rolls(out)[1]
    assert damage.roll.dice == "2d8" and "srd-8" in damage.rules
    assert of(out, Damaged)[0].amount == 6 + 7 + 3


def test_srd_8_option_maximum_dice_plus_a_roll():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"), critical="max_plus_roll")
    out = t.act("brannoc", "attack", "wyrm", faces=(20, 2), weapon="longsword")
    assert of(out, Damaged)[0].amount == 8 + 2 + 3


def test_srd_8_extra_dice_of_a_feature_double_too():
    t = fight(("wren", "rogue"), ("wyrm", "wyrm"))
    out = t.act(
        "wren", "attack", "wyrm", faces=(20, 1, 2, 3, 4, 5, 6), weapon="shortsword", extra="2d6"
    )
    assert [r.roll.dice for r in rolls(out)[1:]] == ["2d6", "4d6"]
    assert of(out, Damaged)[0].amount == 1 + 2 + 3 + 4 + 5 + 6 + 3


def test_srd_9_damage_adds_the_attack_s_modifier_and_hit_points_stop_at_0():
    t = fight(("wyrm", "wyrm"), ("pc-brannoc", "fighter"))
    t.do({"action": "gm.harm", "target": "pc-brannoc", "amount": 20})
    out = t.act("wyrm", "attack", "pc-brannoc", faces=(15, 1, 1), weapon="bite")
    assert of(out, Damaged)[0].amount == 1 + 1 + 5
    assert t.who("pc-brannoc").hp == 1
    t.next()
    t.act("pc-brannoc", "dash")
    t.next()
    t.act("wyrm", "attack", "pc-brannoc", faces=(15, 2, 2), weapon="bite")
    assert t.who("pc-brannoc").hp == 0


def test_srd_10_resistance_halves_down_vulnerability_doubles_immunity_takes_all():
    t = fight(("brannoc", "fighter"), ("bones", "skeleton"))
    t.act("brannoc", "attack", "bones", faces=(15, 3), weapon="longsword")
    assert t.who("bones").hp == 13 - 6  # slashing: as it is
    t = fight(("maelis", "cleric"), ("bones", "skeleton"))
    out = t.act("maelis", "attack", "bones", faces=(15, 3), weapon="mace")
    hit = of(out, Damaged)[0]
    assert hit.amount == (3 + 1) * 2 and "srd-10" in hit.rules  # bludgeoning: double
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    wyrm = t.who("wyrm")
    assert wyrm.sheet.immunities == ["fire"]


def test_srd_10_resistance_before_vulnerability_and_once_however_many():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), begin=False)
    odd = sample(
        "goblin", resistances=["slashing", "slashing"], vulnerabilities=["slashing"], hp=40
    )
    t.join("odd", odd)
    t.do({"action": "begin"}, 20, 10, 5)
    out = t.act("brannoc", "attack", "odd", faces=(15, 4), weapon="longsword")
    # 4 + 3 = 7; resistance: 3 (down); vulnerability: 6.
    hit = of(out, Damaged)[0]
    assert hit.amount == 6
    assert [m.value for m in hit.breakdown] == [4, 3, -4, 3]


def test_srd_17_ranged_with_a_foe_close_or_at_long_range_has_disadvantage():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(18, 3), weapon="longbow", hostile_near=True)
    )
    assert out[0].roll.faces == [18, 3] and out[0].result.startswith("miss")
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(t.act("brannoc", "attack", "gob", faces=(18, 3), weapon="longbow", range="long"))
    assert "disadvantage: beyond normal range" in mods(out[0])
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    with pytest.raises(RefusedError, match="beyond long range"):
        t.act("brannoc", "attack", "gob", faces=(18,), weapon="longbow", range="beyond")


def test_srd_17_a_foe_close_by_does_not_hamper_a_melee_attack():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(18, 3), weapon="longsword", hostile_near=True)
    )
    assert out[0].roll.dice == "d20"


def test_srd_19_the_off_hand_attack_is_a_bonus_action_without_a_positive_modifier():
    t = fight(("wren", "rogue"), ("wyrm", "wyrm"))
    t.act("wren", "attack", "wyrm", faces=(15, 4), weapon="shortsword")
    out = t.act("wren", "offhand", "wyrm", faces=(15, 3), weapon="dagger")
    assert of(out, Damaged)[0].amount == 3
    assert any("modifier is not added" in m.reason for m in of(out, Damaged)[0].breakdown)
    with pytest.raises(RefusedError, match="bonus action"):
        t.act("wren", "offhand", "wyrm", faces=(15, 3), weapon="dagger")
    with pytest.raises(RefusedError, match="light melee"):
        fight(("wren", "rogue"), ("gob", "goblin")).act("wren", "offhand", "gob", weapon="shortbow")


def test_srd_22_cover_adds_to_ac_and_total_cover_cannot_be_targeted():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(t.act("brannoc", "attack", "gob", faces=(11,), weapon="longsword", cover="half"))
    assert out[0].result.startswith("miss (16 vs AC 17)")  # the AC it meets, as shield's is
    assert mods(out[0])["half cover: +2 AC"] == 0  # a note on the roll, the AC raised
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(14,), weapon="longsword", cover="three-quarters")
    )
    assert mods(out[0])["three-quarters cover: +5 AC"] == 0
    assert out[0].result.startswith("miss (19 vs AC 20)")
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    with pytest.raises(RefusedError, match="total cover"):
        t.act("brannoc", "attack", "gob", faces=(14,), weapon="longsword", cover="total")


def test_srd_23_unseen_attackers_have_advantage_unseen_targets_disadvantage():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(2, 15, 1), weapon="longsword", unseen=True)
    )
    assert out[0].result.startswith("hit")
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(t.act("brannoc", "attack", "gob", faces=(2, 15), weapon="longsword", unseeing=True))
    assert out[0].result.startswith("miss")


def test_extra_damage_that_is_not_dice_is_refused_as_the_command_is_read():
    t = fight(("wren", "rogue"), ("gob", "goblin"))
    before = len(t.log)
    for bad in ("immunities", "2d6+3"):
        with pytest.raises(BadInputError, match=f"extra = '{re.escape(bad)}' is not accepted"):
            t.act("wren", "attack", "gob", faces=(), extra=bad)
    assert len(t.log) == before


def test_srd_19_the_off_hand_attack_needs_a_different_light_weapon_than_the_attack_s():
    """Issue 40: Wren, with one shortsword and a dagger, attacked with the shortsword and then
    off-hand with the same shortsword: refused in one line naming the rule and the dagger;
    without -w the off hand takes the dagger; a sheet with two shortswords uses the second."""
    t = fight(("wren", "rogue"), ("wyrm", "wyrm"))
    t.act("wren", "attack", "wyrm", faces=(15, 4), weapon="shortsword")
    with pytest.raises(RefusedError) as refused:
        t.act("wren", "offhand", "wyrm", faces=(15, 3), weapon="shortsword")
    said = str(refused.value)
    assert "\n" not in said and "srd-19" in said and "-w dagger" in said, said
    assert "different light melee weapon" in said, said
    out = t.act("wren", "offhand", "wyrm", faces=(15, 3))
    assert "dagger" in rolls(out)[0].purpose, rolls(out)[0].purpose
    rogue = sample("rogue")
    sheet = {**rogue, "weapons": [rogue["weapons"][0], *rogue["weapons"]]}
    two = Table()
    two.join("wren", sheet, "pc")
    two.join("wyrm", sample("wyrm"))
    two.do({"action": "begin"}, 20, 10)
    two.act("wren", "attack", "wyrm", faces=(15, 4), weapon="shortsword")
    out = two.act("wren", "offhand", "wyrm", faces=(15, 3), weapon="shortsword")
    assert of(out, Damaged)
