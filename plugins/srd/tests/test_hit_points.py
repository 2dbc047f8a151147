"""Hit points: temporary ones (srd-11), healing (srd-12), dropping to 0 (srd-13), death
saves (srd-14, srd-15) and stabilising (srd-16)."""

import pytest
from fracas.rules.api import ConditionSet, Damaged, RefusedError
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.events import DeathSaves, TemporaryHitPoints
from fracas_srd.ruleset import RULESET


def down_at_zero(t: Table, who: str) -> None:
    """`who` dropped to 0 by the GM's hand: unconscious and dying."""
    t.do({"action": "gm.harm", "target": who, "amount": t.who(who).hp})
    assert {"unconscious", "dying", "prone"} <= set(t.who(who).conditions)


def test_srd_11_temporary_hit_points_go_first_and_do_not_stack():
    t = fight(("wyrm", "wyrm"), ("pc-wren", "rogue"))
    t.apply(RULESET.decide(t.state, RULESET.command({"action": "next"}), _ctx()))
    t.apply([TemporaryHitPoints("pc-wren", 5, "a draught", ["srd-11"])])
    events = RULESET.harm_by_hand(t.state, "pc-wren", 8, "a fall")
    t.apply(events)
    assert (t.who("pc-wren").temp_hp, t.who("pc-wren").hp) == (0, 21 - 3)


def _ctx():
    from fracas.rules.api import Context
    from srd_table import Faces

    return Context(Faces([]), 99)


def test_srd_11_new_temporary_hit_points_keep_the_larger_by_default():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    maelis = t.who("maelis")
    from fracas_srd.damage import gain_temporary

    t.apply(gain_temporary(t.state, maelis, 6, "first"))
    kept = gain_temporary(t.state, t.who("maelis"), 4, "second")[0]
    assert kept.amount == 6 and "do not stack" in kept.reason
    t2 = fight(("maelis", "cleric"), ("brannoc", "fighter"), temp_hp="newer")
    t2.apply(gain_temporary(t2.state, t2.who("maelis"), 6, "first"))
    assert gain_temporary(t2.state, t2.who("maelis"), 4, "second")[0].amount == 4


def test_srd_11_resistance_applies_before_temporary_hit_points():
    t = fight(("brannoc", "fighter"), ("odd", "goblin"), begin=False)
    t.join("tough", sample("goblin", resistances=["slashing"], hp=20))
    t.do({"action": "begin"}, 20, 1, 16)
    t.apply([TemporaryHitPoints("tough", 3, "a blessing", ["srd-11"])])
    out = t.act("brannoc", "attack", "tough", faces=(15, 7), weapon="longsword")
    hit = of(out, Damaged)[0]
    # 7 + 3 = 10, resisted: 5; 3 off the temporary hit points, 2 off the 20.
    assert hit.amount == 5 and {"srd-10", "srd-11"} <= set(hit.rules)
    assert (t.who("tough").temp_hp, t.who("tough").hp) == (0, 18)


def test_srd_12_healing_stops_at_the_maximum_and_wakes_the_dying():
    t = fight(("maelis", "cleric"), ("pc-wren", "rogue"))
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 3})
    t.act("maelis", "cast", "pc-wren", faces=(8,), spell="cure wounds")
    assert t.who("pc-wren").hp == 21
    down_at_zero(t, "pc-wren")
    t.next(9)  # Wren's death save: a failure
    t.next()
    assert t.who("pc-wren").failures == 1
    t.act("maelis", "cast", "pc-wren", faces=(1,), spell="healing word")
    wren = t.who("pc-wren")
    assert wren.hp == 4 and not wren.at_zero and "unconscious" not in wren.conditions
    assert (wren.successes, wren.failures) == (0, 0) and "prone" in wren.conditions


def test_srd_13_damage_left_over_at_least_the_maximum_kills_outright():
    t = fight(("wyrm", "wyrm"), ("pc-wren", "rogue"))
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 11})  # 10 HP left
    out = t.act("wyrm", "attack", "pc-wren", faces=(20, 10, 10, 10, 1), weapon="bite")
    # Critical: 4d10 = 31 + 5 = 36; 10 to reach 0, 26 left over, max HP 21.
    dead = [e for e in of(out, ConditionSet) if e.condition == "dead"]
    assert dead and "instant death" in dead[0].reason and dead[0].rules == ["srd-13"]


def test_srd_13_a_character_falls_dying_a_monster_dies_or_an_option_says_dying():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "attack", "gob", faces=(15, 8), weapon="longsword")
    assert "dead" in t.who("gob").conditions
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), monsters_at_zero="dying")
    t.act("brannoc", "attack", "gob", faces=(15, 4), weapon="longsword")
    assert {"dying", "unconscious"} <= set(t.who("gob").conditions)
    t = fight(("wren", "rogue"), ("brannoc", "fighter"))
    down_at_zero(t, "brannoc")
    assert RULESET.facts_of(ConditionSet("brannoc", "dying", "", {}, [])) == {"down"}


def test_srd_14_death_saves_at_the_start_of_each_turn():
    t = fight(("pc-wren", "rogue"), ("gob", "goblin"))
    down_at_zero(t, "pc-wren")
    t.next()  # the goblin's turn
    out = t.next(12)  # Wren's turn begins with a death save: a success
    assert rolls(out)[0].purpose == "death save" and rolls(out)[0].target == 10
    assert (t.who("pc-wren").successes, t.who("pc-wren").failures) == (1, 0)
    t.next()
    t.next(9)
    assert (t.who("pc-wren").successes, t.who("pc-wren").failures) == (1, 1)
    t.next()
    t.next(10)
    t.next()
    t.next(19)  # the third success: stable
    wren = t.who("pc-wren")
    assert "stable" in wren.conditions and "dying" not in wren.conditions
    assert (wren.successes, wren.failures) == (0, 0) and wren.hp == 0
    t.next()
    assert not rolls(t.next())  # the stable make no more death saves


def test_srd_14_a_natural_1_is_two_failures_three_kill_and_a_20_heals_one():
    t = fight(("pc-wren", "rogue"), ("gob", "goblin"))
    down_at_zero(t, "pc-wren")
    t.next()
    t.next(1)
    assert t.who("pc-wren").failures == 2
    t.next()
    t.next(5)
    assert "dead" in t.who("pc-wren").conditions
    assert t.turn == "gob"  # dead at the start of its turn: the turn passes on
    t = fight(("pc-wren", "rogue"), ("gob", "goblin"))
    down_at_zero(t, "pc-wren")
    t.next()
    t.next(20)
    wren = t.who("pc-wren")
    assert wren.hp == 1 and not wren.at_zero and "unconscious" not in wren.conditions


def test_srd_15_damage_at_0_is_a_failure_two_for_a_critical_and_death_at_the_maximum():
    t = fight(("gob", "goblin"), ("pc-wren", "rogue"))
    down_at_zero(t, "pc-wren")
    out = t.act("gob", "attack", "pc-wren", faces=(10, 1), weapon="shortbow")
    assert of(out, DeathSaves)[0].failures == 1
    t = fight(("gob", "goblin"), ("pc-wren", "rogue"))
    down_at_zero(t, "pc-wren")
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 21})
    assert "dead" in t.who("pc-wren").conditions


def test_srd_15_a_critical_on_the_unconscious_from_within_5_feet_is_two_failures():
    t = fight(("gob", "goblin"), ("pc-wren", "rogue"))
    down_at_zero(t, "pc-wren")
    # Advantage (unconscious), and a hit from within 5 feet is a critical hit (srd-27).
    out = t.act("gob", "attack", "pc-wren", faces=(3, 11, 2, 2), weapon="scimitar", within_5ft=True)
    attack, damage = rolls(out)[:2]
    assert attack.result.startswith("critical hit (15 vs AC 14") and damage.roll.dice == "2d6"
    assert RULESET.facts_of(attack) == {"critical"}
    assert of(out, DeathSaves)[0].failures == 2


def test_srd_15_from_farther_away_it_is_an_ordinary_hit():
    t = fight(("gob", "goblin"), ("pc-wren", "rogue"))
    down_at_zero(t, "pc-wren")
    # Unconscious: advantage; prone, attacked from beyond 5 feet: disadvantage. One d20.
    out = t.act("gob", "attack", "pc-wren", faces=(12, 2), weapon="shortbow")
    assert rolls(out)[0].result.startswith("hit") and of(out, DeathSaves)[0].failures == 1
    assert "advantage and disadvantage cancel: one d20" in [
        m.reason for m in rolls(out)[0].modifiers
    ]


def test_srd_16_stabilising_takes_a_dc_10_medicine_check_and_damage_undoes_it():
    t = fight(("maelis", "cleric"), ("pc-wren", "rogue"), ("gob", "goblin"))
    down_at_zero(t, "pc-wren")
    out = t.act("maelis", "stabilise", "pc-wren", faces=(5,))  # 5 + Wis 3 + medicine 2
    assert rolls(out)[0].target == 10 and "stable" in t.who("pc-wren").conditions
    t.next()
    assert not rolls(t.next())  # stable: no death save
    out = t.act("gob", "attack", "pc-wren", faces=(15, 1), weapon="shortbow")
    wren = t.who("pc-wren")
    assert "dying" in wren.conditions and "stable" not in wren.conditions and wren.failures == 1
    with pytest.raises(RefusedError, match="not dying"):
        fight(("maelis", "cleric"), ("gob", "goblin")).act("maelis", "stabilise", "gob")


def test_srd_11_a_sheet_s_temporary_hit_points_and_the_gm_s_keep_the_larger():
    t = fight(("wyrm", "wyrm"), begin=False)
    t.join("pc-wren", sample("rogue", temp_hp=5), "pc")
    assert t.who("pc-wren").temp_hp == 5
    t.do({"action": "gm.heal", "target": "pc-wren", "amount": 3, "temp": True})
    assert t.who("pc-wren").temp_hp == 5
    out = t.do({"action": "gm.heal", "target": "pc-wren", "amount": 9, "temp": True})
    assert of(out, TemporaryHitPoints)[0].rules == ["srd-11"] and t.who("pc-wren").temp_hp == 9
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 10})
    assert (t.who("pc-wren").temp_hp, t.who("pc-wren").hp) == (0, 20)
    t.do({"action": "gm.harm", "target": "wyrm", "amount": 400})
    with pytest.raises(RefusedError, match="wyrm is dead; temporary hit points"):
        t.do({"action": "gm.heal", "target": "wyrm", "amount": 5, "temp": True})


def test_srd_14_a_death_save_says_its_counts_once_and_what_it_was():
    t = fight(("pc-wren", "rogue"), ("gob", "goblin"))
    down_at_zero(t, "pc-wren")
    t.next()
    said = of(t.next(9), DeathSaves)[0].describe()
    # the roll's own line said "a failure (1 of 3)": this one says the count it did not
    assert said == "pc-wren has 0 of 3 death save successes", said
    t.next()
    said = of(t.next(14), DeathSaves)[0].describe()
    assert said == "pc-wren has 1 of 3 death save failures", said


def test_srd_14_dropping_to_0_on_ones_own_turn_makes_no_death_save_as_that_turn_ends():
    t = fight(("brannoc", "fighter"), ("pc-wren", "rogue"), ("gob", "goblin"))
    t.next()  # Wren's turn, started by `next`: she is up, no death save
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 25})  # down on her own turn
    out = t.next()  # her turn ends: the goblin's starts, no die rolled for her
    assert not rolls(out) and t.turn == "gob"
    assert (t.who("pc-wren").successes, t.who("pc-wren").failures) == (0, 0)
    t.next()
    out = t.next(12)  # the start of her next turn: the death save is due now
    assert [r.purpose for r in rolls(out)] == ["death save"]


def test_srd_13_a_monster_dies_at_0_and_is_not_said_to_die_an_instant_death():
    t = fight(("pc-wren", "rogue"), ("gob", "goblin"))
    out = t.do({"action": "gm.harm", "target": "gob", "amount": 20})  # 7 HP, 13 over
    [dead] = [e for e in of(out, ConditionSet) if e.condition == "dead"]
    assert dead.reason == "a monster at 0 HP dies"


def test_srd_13_death_ends_the_conditions_of_the_living():
    t = fight(("pc-wren", "rogue"), ("gob", "goblin"))
    t.do({"action": "gm.condition-set", "target": "pc-wren", "condition": "frightened"})
    down_at_zero(t, "pc-wren")
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 30})  # at 0: as much as her max
    assert set(t.who("pc-wren").conditions) == {"dead", "prone"}  # a dead body lies prone
