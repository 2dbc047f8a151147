"""Core mechanics srd-M1 to srd-M5: modifiers, the d20 test, advantage, proficiency, saves."""

from srd_table import fight, rolls

from fracas_srd.sheets import Sheet, modifier, proficiency_for


def test_srd_M1_the_modifier_is_half_the_score_less_ten_rounded_down():
    assert [modifier(s) for s in (1, 3, 8, 9, 10, 11, 12, 15, 20, 30)] == [
        -5,
        -4,
        -1,
        -1,
        0,
        0,
        1,
        2,
        5,
        10,
    ]
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    attack = rolls(t.act("brannoc", "attack", "gob", faces=(2,), weapon="longsword"))[0]
    assert ("Str modifier", 3) in [(m.reason, m.value) for m in attack.modifiers]


def test_srd_M2_meeting_the_target_number_succeeds_and_one_short_fails():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    # +5 to hit against AC 15: a 10 meets it.
    hit = rolls(t.act("brannoc", "attack", "gob", faces=(10, 1), weapon="longsword"))[0]
    assert hit.target == 15 and hit.result.startswith("hit (15 vs AC 15)")
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    miss = rolls(t.act("brannoc", "attack", "gob", faces=(9,), weapon="longsword"))[0]
    assert miss.result.startswith("miss (14 vs AC 15)")


def test_srd_M3_advantage_keeps_the_higher_die_and_disadvantage_the_lower():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(3, 12, 2), weapon="longsword", advantage=True)
    )
    assert out[0].roll.faces == [3, 12] and out[0].result.startswith("hit (17 vs AC 15)")
    assert (out[0].roll.dice, out[0].roll.kept, out[0].roll.total) == ("2d20kh1", [1], 12)
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(3, 12), weapon="longsword", disadvantage=True)
    )
    assert out[0].result.startswith("miss (8 vs AC 15)")
    assert (out[0].roll.dice, out[0].roll.kept) == ("2d20kl1", [0])


def test_srd_M3_one_source_of_each_cancels_however_many_of_one_kind():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.do({"action": "gm.condition-set", "target": "gob", "condition": "blinded"})
    t.do({"action": "gm.condition-set", "target": "gob", "condition": "restrained"})
    # Two sources of advantage (blinded, restrained target), one of disadvantage: one d20.
    out = rolls(
        t.act("brannoc", "attack", "gob", faces=(9,), weapon="longsword", disadvantage=True)
    )
    assert out[0].roll.dice == "d20"
    reasons = [m.reason for m in out[0].modifiers]
    assert "advantage and disadvantage cancel: one d20" in reasons
    assert sum(r.startswith("advantage:") for r in reasons) == 2


def test_srd_M4_proficiency_by_level_or_challenge_or_as_stated():
    assert [proficiency_for(x) for x in (0, 0.25, 1, 4, 5, 8, 9, 13, 17, 20)] == [
        2,
        2,
        2,
        2,
        3,
        3,
        4,
        5,
        6,
        6,
    ]
    assert Sheet(level=5).bonus == 3 and Sheet(cr=10).bonus == 4
    assert Sheet(level=5, proficiency=2).bonus == 2
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"))
    bite = rolls(t.act("wyrm", "attack", "brannoc", faces=(2,), weapon="bite"))[0]
    assert ("proficient with bite", 4) in [(m.reason, m.value) for m in bite.modifiers]


def test_srd_M5_a_save_adds_the_ability_and_proficiency_against_a_spell_s_dc():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    out = t.act("maelis", "cast", "brannoc", faces=(9,), spell="hold person")
    save = rolls(out)[0]
    # DC 8 + 2 + Wis 3 = 13; Brannoc's Wis save: +1, not proficient: 10 fails.
    assert save.target == 13 and sum(m.value for m in save.modifiers) == 1
    assert "srd-M5" in save.rules and save.result.startswith("failure (10 vs 13)")
    assert "paralysed" in t.who("brannoc").conditions
