"""Effects as data: bonuses and penalties (srd-32), advantage, resistance and extra damage
(srd-33), their end (srd-34) and a hit's rider (srd-35)."""

from fracas.rules.api import ConditionCleared, ConditionExpired, ConditionSet, Damaged, Resolved
from srd_table import fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def mods(roll) -> dict[str, int]:
    return {m.reason: m.value for m in roll.modifiers}


def test_srd_32_bless_adds_a_d4_rolled_after_the_d20_to_attack_rolls_and_saves():
    t = fight(("maelis", "cleric"), ("pc-brannoc", "fighter"), ("gob", "goblin"))
    out = t.act("maelis", "cast", "pc-brannoc", "maelis", spell="bless")
    conditions = [e.condition for e in of(out, ConditionSet)]
    assert conditions == ["under bless", "under bless", "concentrating"]
    t.next()
    out = t.act("pc-brannoc", "attack", "gob", faces=(9, 1, 5), weapon="longsword")
    attack, bless, damage = rolls(out)
    assert attack.roll.dice == "d20" and bless.roll.dice == "1d4" and damage.roll.dice == "1d8"
    assert mods(attack)["bless: +1d4 rolled 1"] == 1 and "srd-32" in attack.rules
    assert attack.result == "hit (15 vs AC 15)"  # 9 + 3 Str + 2 proficiency + 1 blessed


def test_srd_32_bless_adds_its_d4_to_a_death_save():
    t = fight(("maelis", "cleric"), ("pc-wren", "rogue"), ("gob", "goblin"))
    t.act("maelis", "cast", "pc-wren", spell="bless")
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 21})
    out = t.next(8, 3)  # Wren's turn: her death save, 8 + 3 on bless's d4
    save, bless = rolls(out)
    assert save.purpose == "death save" and bless.roll.dice == "1d4"
    assert save.result == "a success (1 of 3)" and t.who("pc-wren").successes == 1  # 8 + 3


def test_srd_14_a_natural_20_or_1_decides_a_death_save_before_bless_s_d4_is_rolled():
    """srd-14: a natural 20 brings the creature back, a natural 1 is two failures, whatever
    is added: bless's d4 is neither asked for nor rolled."""
    for natural, after in ((20, "up"), (1, "two failures")):
        t = fight(("maelis", "cleric"), ("pc-wren", "rogue"), ("gob", "goblin"))
        t.act("maelis", "cast", "pc-wren", spell="bless")
        t.do({"action": "gm.harm", "target": "pc-wren", "amount": 21})
        out = t.next(natural)  # Wren's turn: her death save, one face typed
        assert [r.purpose for r in rolls(out)] == ["death save"], natural
        wren = t.who("pc-wren")
        assert (wren.hp, wren.failures) == ((1, 0) if after == "up" else (0, 2)), natural
        assert wren.has("under bless"), "bless lasts: its d4 was not spent"


def test_srd_32_bane_takes_a_d4_off_after_a_failed_charisma_save():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "gob", faces=(5,), spell="bane")  # 5 - 1 = 4 vs DC 13
    assert t.who("gob").conditions["under bane"]["by"] == "maelis"
    t.next()
    out = t.act("gob", "attack", "maelis", faces=(14, 3), weapon="scimitar")
    attack = rolls(out)[0]
    assert mods(attack)["bane: -1d4 rolled 3"] == -3
    assert attack.result == "miss (15 vs AC 16)" and not of(out, Damaged)


def test_srd_32_shield_of_faith_raises_the_ac_the_attack_and_the_status_show_it():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "maelis", spell="shield of faith")
    assert t.who("maelis").bonus  # a bonus action
    wound = next(w for w in RULESET.view(t.state).wounds if w.combatant == "maelis")
    assert wound.detail["ac"] == 18 and RULESET.numbers_of(wound)["AC"] == 18
    shielded = "concentrating on shield of faith (100 rounds left, ending at initiative 20)"
    assert wound.conditions == [
        shielded,
        f"under shield of faith ({t.who('maelis').name}'s concentration)",
    ]
    t.next()
    out = t.act("gob", "attack", "maelis", faces=(13,), weapon="scimitar")
    attack = rolls(out)[0]
    assert attack.result == "miss (17 vs AC 18)" and "shield of faith: +2 AC" in mods(attack)


def test_srd_32_the_same_spell_twice_counts_once():
    t = fight(("maelis", "cleric"), ("pc-brannoc", "fighter"), begin=False)
    t.join("sage", sample("cleric"))
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 16, 18, 1)  # maelis, sage, brannoc, gob
    t.act("maelis", "cast", "pc-brannoc", spell="bless")
    t.next()
    t.act("sage", "cast", "pc-brannoc", spell="bless")
    t.next()
    out = t.act("pc-brannoc", "attack", "gob", faces=(2, 4), weapon="longsword")
    assert [r.roll.dice for r in rolls(out)] == ["d20", "1d4"]


def test_srd_26_bless_adds_its_d4_to_a_concentration_save():
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"))
    t.act("maelis", "cast", "maelis", spell="bless")
    t.next()
    out = t.act("wyrm", "attack", "maelis", faces=(15, 5, 5, 5, 2), weapon="bite")
    save, bless = rolls(out)[-2:]
    # 15 damage: DC 10; 5 + 2 Con + 2 on bless's d4 = 9: the concentration and bless end.
    assert save.purpose == "concentration on bless (DC 10)" and bless.roll.dice == "1d4"
    assert save.result == "failure (9 vs 10)"
    assert ("maelis", "under bless") in [(e.target, e.condition) for e in of(out, ConditionCleared)]


def test_srd_33_an_effect_gives_advantage_resistance_and_extra_damage():
    raging = {
        "name": "rage",
        "effect": {"advantage": ["checks"], "attacked": "advantage",
                   "resistances": ["slashing"], "extra": "1d4"},
    }  # fmt: skip
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), begin=False)
    t.join("orc", sample("fighter", features=[raging]))
    t.do({"action": "begin"}, 20, 16, 12)
    out = t.act("brannoc", "attack", "orc", faces=(3, 14, 6), weapon="longsword")
    attack = rolls(out)[0]
    assert "advantage: orc: rage" in mods(attack) and attack.roll.dice == "2d20kh1"
    hit = of(out, Damaged)[0]
    assert hit.amount == (6 + 3) // 2 and "srd-10" in hit.rules
    t.next()
    t.next()
    out = t.act("orc", "attack", "gob", faces=(20, 1, 2, 3, 4), weapon="longsword")
    assert [r.roll.dice for r in rolls(out)] == ["d20", "2d8", "2d4"]  # doubled on a critical
    assert of(out, Damaged)[0].amount == 1 + 2 + 3 + 4 + 3


def test_srd_34_concentration_ending_ends_the_effect_on_every_target():
    t = fight(("maelis", "cleric"), ("pc-brannoc", "fighter"), ("gob", "goblin"))
    t.act("maelis", "cast", "pc-brannoc", "maelis", spell="bless")
    out = t.do({"action": "gm.condition-set", "target": "maelis", "condition": "stunned"})
    ended = [(e.target, e.condition) for e in of(out, ConditionCleared)]
    assert ended == [
        ("maelis", "concentrating"),
        ("pc-brannoc", "under bless"),
        ("maelis", "under bless"),
    ]
    assert "under bless" not in t.who("pc-brannoc").conditions


def test_srd_34_the_gm_clearing_concentrating_by_hand_ends_the_spell_as_losing_it_does():
    t = fight(("maelis", "cleric"), ("pc-brannoc", "fighter"), ("gob", "goblin"))
    t.act("maelis", "cast", "pc-brannoc", "maelis", spell="bless")
    clear = {"action": "gm.condition-clear", "target": "maelis", "condition": "concentrating"}
    out = t.do({**clear, "reason": "knocked out of it"})
    ended = [(e.target, e.condition, e.reason) for e in of(out, ConditionCleared)]
    assert ended == [
        ("maelis", "concentrating", "knocked out of it: bless ends on pc-brannoc and maelis"),
        ("pc-brannoc", "under bless", "maelis's concentration ends"),
        ("maelis", "under bless", "maelis's concentration ends"),
    ]
    assert not {"under bless", "concentrating"} & set(t.who("maelis").conditions)
    t.do({"action": "gm.condition-set", "target": "pc-brannoc", "condition": "prone"})
    out = t.do({"action": "gm.condition-clear", "target": "pc-brannoc", "condition": "prone"})
    assert [(e.target, e.condition) for e in of(out, ConditionCleared)] == [("pc-brannoc", "prone")]


def test_srd_34_an_effect_ends_with_its_duration():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    t.act("maelis", "cast", "maelis", spell="bless")
    expired = []
    for _ in range(20):
        expired += [e.condition for e in of(t.next(), ConditionExpired)]
    assert sorted(expired) == ["concentrating", "under bless"]  # the spell and its hold
    assert not {"under bless", "concentrating"} & set(t.who("maelis").conditions)


def test_srd_35_the_wolf_s_bite_knocks_prone_on_a_failed_dc_11_strength_save():
    t = fight(("wolf", "wolf"), ("pc-wren", "rogue"))
    out = t.act("wolf", "attack", "pc-wren", faces=(12, 2, 2, 9), weapon="bite")
    save = rolls(out)[-1]
    assert (
        save.purpose == "Strength saving throw against bite (DC 11)"
        and save.result == "failure (9 vs 11)"
    )
    prone = of(out, ConditionSet)[-1]
    assert (prone.condition, prone.rules) == ("prone", ["srd-35", "srd-27"])
    t = fight(("wolf", "wolf"), ("pc-brannoc", "fighter"))
    out = t.act("wolf", "attack", "pc-brannoc", faces=(19, 2, 2, 8), weapon="bite")
    assert "prone" not in t.who("pc-brannoc").conditions  # 8 + 3 Str + 2 proficient


def test_srd_35_a_rider_on_a_prone_target_asks_no_save_and_the_bite_has_advantage():
    t = fight(("wolf", "wolf"), ("pc-wren", "rogue"))
    t.do({"action": "gm.condition-set", "target": "pc-wren", "condition": "prone"})
    out = t.act("wolf", "attack", "pc-wren", faces=(3, 12, 2, 2), weapon="bite")
    assert rolls(out)[0].roll.dice == "2d20kh1"  # prone, from within 5 feet (srd-30)
    assert of(out, Resolved)[-1].outcome == "already prone: no save against bite"
