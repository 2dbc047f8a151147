"""Reactions asked once their trigger is seen (srd-39, srd-41; issues 37 and 40): with
`--ask`, an attack on a creature with shield is rolled first, and its target is asked only
when it hits, with the roll in front of it; hellish rebuke is asked once the damage lands;
a multiattack goes on after the answer. Played through the CLI, as a GM types it."""

import json

import pytest
from srd_cli import SAMPLES, fight, ok, refused, sample

GOBLIN = ["add", "gob", "--sheet", str(SAMPLES / "goblin.toml"), "--name", "Goblin"]
WYRM = ["add", "wyrm", "--sheet", str(SAMPLES / "wyrm.toml"), "--name", "Wyrm"]


@pytest.fixture
def gm(tmp_path):
    """A goblin (first) against Ilse, a wizard with shield and hellish rebuke (AC 12)."""
    return fight(tmp_path / "asked.db", "Asked", "20,5", GOBLIN, sample("ilse", "wizard", "Ilse"))


def test_srd_39_ask_rolls_the_attack_first_and_asks_shield_only_once_it_hits(gm):
    asked = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "10")
    assert "-> hit (14 vs AC 12)" in asked  # rolled, and shown, before anyone is asked
    assert "Goblin's attack waits for Ilse's reaction (none | shield)" in asked
    status = ok(gm, "status")
    assert "(Goblin's scimitar hits Ilse: 14 vs AC 12) waits for the reaction of Ilse" in status
    waiting = json.loads(ok(gm, "answer", "--json"))["waiting"]
    assert waiting["reactions"][0]["choices"] == ["none", "shield"]
    out = ok(gm, "answer", "ilse", "shield")
    assert "shield: the hit becomes a miss (14 vs AC 17)" in out
    assert "Goblin attacks Ilse: misses" in out and "damage" not in out
    assert "spends a 1st-level spell slot: 3 of 4 left" in out
    assert "d20" not in out  # the attack roll is the asking step's, not rolled again
    assert "waiting" not in ok(gm, "status")


def test_srd_39_answered_none_the_damage_is_rolled_and_the_undone_answer_asks_again(gm):
    ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "10")
    out = ok(gm, "answer", "ilse", "none", "--dice", "3")
    assert "Goblin rolls 1d6 for damage of scimitar: 3 +2 = 5" in out
    # ... and, damaged by a goblin she sees, hellish rebuke is hers to answer now (srd-41)
    assert "(Goblin's scimitar will deal 5 damage to Ilse) waits for the reaction of Ilse" in out
    assert "(none | hellish rebuke)" in out
    ok(gm, "undo")  # the answer taken back: the shield question again, the roll unchanged
    status = ok(gm, "status")
    assert "(Goblin's scimitar hits Ilse: 14 vs AC 12) waits for the reaction of Ilse" in status
    assert "(none | shield)" in status
    assert "HP 20/20" in status


def test_srd_41_hellish_rebuke_is_asked_after_the_damage_and_cast_at_the_attacker(gm):
    ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "10")
    ok(gm, "answer", "ilse", "none", "--dice", "3")
    out = ok(gm, "answer", "ilse", "hellish rebuke", "--dice", "5,1,1,1")
    assert "Ilse takes 5 damage" in out  # the damage, then the rebuke on the goblin
    assert out.index("Ilse takes 5 damage") < out.index("Ilse spends 1 reaction: hellish rebuke")
    assert "Dexterity saving throw against hellish rebuke" in out
    assert "Goblin takes 3 damage: 3d10 [1+1+1] = 3 fire" in out
    assert "waiting" not in ok(gm, "status")
    assert "rules drift: none" in ok(gm, "audit")


def test_srd_39_a_natural_20_asks_no_shield_and_spends_nothing(gm):
    out = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "20,3,4")
    assert "-> critical hit" in out and "shield" not in out
    # the damage rolled as if no reaction were due, and the damage's own reaction asked
    assert "(Goblin's scimitar will deal 9 damage to Ilse) waits for the reaction of Ilse" in out
    assert "(none | hellish rebuke)" in out
    assert "slots 1st 4/4" in ok(gm, "status")


def test_srd_39_a_hit_shield_cannot_turn_asks_nobody_and_spends_nothing(gm):
    # 13 + 4 = 17 vs AC 12: shield's AC 17 would still be hit, so it is not offered
    out = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "13,3")
    assert "-> hit" in out and "shield" not in out
    assert "(Goblin's scimitar will deal 5 damage to Ilse) waits for the reaction of Ilse" in out
    status = ok(gm, "status")
    assert "slots 1st 4/4" in status and "(none | hellish rebuke)" in status
    out = ok(gm, "answer", "ilse", "none")
    assert "Ilse takes 5 damage" in out and "shield" not in out
    assert "slots 1st 4/4" in ok(gm, "status")
    # ... and an explicit shield against it is not cast: the reaction and slot stay
    ok(gm, "undo")  # the answer, then the attack
    ok(gm, "undo")
    declared = ["--defence", "ilse=shield", "--dice", "13,3"]
    out = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", *declared)
    assert "shield: not cast, it cannot turn the hit (17 vs AC 17)" in out
    assert "slots 1st 4/4" in ok(gm, "status")


def test_srd_39_a_hit_shield_can_turn_still_asks_it(gm):
    out = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "12")
    assert "Goblin's attack waits for Ilse's reaction (none | shield)" in out
    assert "shield: the hit becomes a miss (16 vs AC 17)" in ok(gm, "answer", "ilse", "shield")


def test_srd_39_a_miss_asks_nobody_and_keeps_the_reaction(gm):
    out = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "3")
    assert "Goblin attacks Ilse: misses" in out and "asked nobody" in out
    status = ok(gm, "status")
    assert "waiting" not in status and "slots 1st 4/4" in status


def test_the_asking_step_s_dice_are_its_attack_roll_alone(gm):
    said = refused(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "10,3")
    assert "1 typed face left over" in said
    # without --ask the GM's declared shield still is not cast against a miss
    declared = ["--defence", "ilse=shield", "--dice", "3"]
    out = ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", *declared)
    assert "shield: not needed, the attack misses; the reaction is kept" in out


def test_srd_29_a_multiattack_asks_at_the_hit_and_goes_on_after_the_answer(tmp_path):
    gm = fight(tmp_path / "wyrm.db", "Wyrm", "20,5", WYRM, sample("ilse", "wizard", "Ilse"))
    asked = ok(gm, "act", "wyrm", "multiattack", "ilse", "--ask", "--dice", "5")
    assert "(Wyrm's bite hits Ilse: 14 vs AC 12)" in ok(gm, "status")
    assert "claw" not in asked  # the claws wait for the answer
    # the claws: 15 misses AC 17 under the shield, 19 hits it (2d6 + 5)
    out = ok(gm, "answer", "ilse", "shield", "--dice", "6,10,3,4")
    assert "shield: the hit becomes a miss (14 vs AC 17)" in out
    assert "(15 vs AC 17)" in out and "(19 vs AC 17)" in out
    assert "ilse takes 12 damage" in out.lower()
    assert "waiting" not in ok(gm, "status")
    assert "rules drift: none" in ok(gm, "audit")


def test_srd_39_ask_with_the_attack_roll_alone_says_why_a_hit_no_one_was_asked_needs_damage(gm):
    """`act --ask --dice` types the asking step's rolls; a hit shield could not turn asks
    nobody, so it is decided at once and its damage is needed now: the refusal says so,
    where it read as if the docs' 'the attack roll alone' were wrong."""
    said = refused(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "13")
    assert "the damage of scimitar needs a d6" in said
    assert "asked nobody" in said and "decided at once" in said
    assert "type its damage after the attack roll" in said
    ok(gm, "act", "gob", "attack", "ilse", "-w", "scimitar", "--ask", "--dice", "13,3")
