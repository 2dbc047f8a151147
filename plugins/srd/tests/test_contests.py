"""Grapple (srd-20) and shove (srd-21): contests in place of an attack."""

import pytest
from fracas.rules.api import ConditionCleared, RefusedError, Spent
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def test_srd_20_grapple_is_an_athletics_contest_in_place_of_an_attack():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    # Brannoc: Athletics 3 + 2; the goblin defends with its better: Acrobatics (Dex 2).
    out = t.act("brannoc", "grapple", "gob", faces=(10, 12), free_hand=True)
    made, held = rolls(out)
    assert (made.purpose, held.purpose) == (
        "Strength (Athletics) check to grapple",
        "Dexterity (Acrobatics) check against the grapple",
    )
    assert "grappled" in t.who("gob").conditions
    assert [e.resource for e in of(out, Spent)] == ["action", "attack"]
    assert t.who("gob").conditions["grappled"]["by"] == "brannoc"


def test_srd_20_the_sample_fighter_and_goblin_hold_shields_that_fill_a_hand():
    """Issue 40: Brannoc's sword and board (AC 18) and the SRD goblin's shield (AC 15) were
    not on their sheets, so a grapple with a weapon in the other hand was let through."""
    for who, other in (("brannoc", "gob"), ("gob", "brannoc")):
        t = fight(("brannoc", "fighter"), ("gob", "goblin"))
        if who == "gob":
            t.next()
        with pytest.raises(RefusedError, match=r"no free hand to grapple with: .* shield and"):
            t.act(who, "grapple", other, faces=(15, 2))
        t.act(who, "grapple", other, faces=(15, 2), free_hand=True)
        assert "grappled" in t.who(other).conditions


def test_srd_20_a_tie_changes_nothing_and_the_target_chooses_its_skill():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    # 15 vs 15-1=12
    t.act("brannoc", "grapple", "gob", faces=(10, 13), free_hand=True, defend_with="athletics")
    assert "grappled" in t.who("gob").conditions
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "grapple", "gob", faces=(10, 13), free_hand=True)  # 15 vs 15
    assert "grappled" not in t.who("gob").conditions


def test_srd_20_escape_takes_an_action_and_wins_the_same_contest():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "grapple", "gob", faces=(15, 2), free_hand=True)
    t.next()
    t.do({"action": "gm.condition-set", "target": "gob", "condition": "prone"})
    with pytest.raises(RefusedError, match="speed is 0"):
        t.act("gob", "stand")
    t.act("gob", "escape", faces=(18, 3))
    assert "grappled" not in t.who("gob").conditions


def test_srd_20_no_grapple_of_a_creature_more_than_one_size_larger():
    t = fight(("gob", "goblin"), ("wyrm", "wyrm"))
    with pytest.raises(RefusedError, match="more than one size larger"):
        t.act("gob", "grapple", "wyrm", faces=(15, 2))


def test_srd_21_shove_knocks_prone_or_pushes_away():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "shove", "gob", faces=(15, 2))
    assert "prone" in t.who("gob").conditions
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = t.act("brannoc", "shove", "gob", faces=(15, 2), push=True)
    assert out[-1].outcome == "pushes 5 feet away" and "prone" not in t.who("gob").conditions


def grappled_goblin() -> Table:
    t = Table()
    t.join("brannoc", sample("fighter", hp=1), "pc")
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 2)
    t.act("brannoc", "grapple", "gob", faces=(15, 2), free_hand=True)
    t.next()
    return t


def test_srd_27_the_grapple_ends_as_the_grappler_falls_unconscious():
    t = grappled_goblin()
    out = t.act("gob", "attack", "brannoc", faces=(19, 6), weapon="scimitar")
    assert t.who("brannoc").hp == 0
    assert (
        "grappled" not in t.who("gob").conditions
        and t.who("gob").speed == t.who("gob").sheet.speed > 0
    )
    [freed] = [e for e in of(out, ConditionCleared) if e.condition == "grappled"]
    assert freed.target == "gob" and "srd-27" in freed.rules


def test_srd_27_the_grapple_ends_as_the_grappler_is_harmed_to_0_by_hand():
    t = grappled_goblin()
    t.apply(RULESET.harm_by_hand(t.state, "brannoc", 5, "a falling rock"))
    assert "grappled" not in t.who("gob").conditions


@pytest.mark.parametrize("condition", ["stunned", "paralysed", "unconscious", "incapacitated"])
def test_srd_27_the_grapple_ends_as_the_gm_sets_the_grappler_incapacitated(condition):
    t = grappled_goblin()
    out = t.do({"action": "gm.condition-set", "target": "brannoc", "condition": condition})
    assert "grappled" not in t.who("gob").conditions and t.who("gob").speed > 0
    [freed] = [e for e in of(out, ConditionCleared) if e.condition == "grappled"]
    assert freed.reason == "brannoc can no longer hold it" and "srd-27" in freed.rules


def test_srd_27_the_grapple_ends_as_the_gm_removes_the_grappler_or_the_grappled():
    t = grappled_goblin()
    t.do({"action": "gm.remove", "target": "brannoc", "reason": "flees"})
    assert "grappled" not in t.who("gob").conditions
    t = grappled_goblin()
    out = t.do({"action": "gm.remove", "target": "gob", "reason": "teleported away"})
    [freed] = [e for e in of(out, ConditionCleared) if e.condition == "grappled"]
    assert freed.reason == "it has left the fight, out of brannoc's hold"
    t.do({"action": "gm.return", "target": "gob"})
    assert "grappled" not in t.who("gob").conditions
