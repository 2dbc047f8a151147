"""Grapple (srd-20) and shove (srd-21): contests in place of an attack."""

import pytest
from fracas.rules.api import RefusedError, Spent
from srd_table import fight, of, rolls


def test_srd_20_grapple_is_an_athletics_contest_in_place_of_an_attack():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    # Brannoc: Athletics 3 + 2; the goblin defends with its better: Acrobatics (Dex 2).
    out = t.act("brannoc", "grapple", "gob", faces=(10, 12))
    made, held = rolls(out)
    assert (made.purpose, held.purpose) == ("Str (Athletics) check", "Dex (Acrobatics) check")
    assert "grappled" in t.who("gob").conditions
    assert [e.resource for e in of(out, Spent)] == ["action", "attack"]
    assert t.who("gob").conditions["grappled"]["by"] == "brannoc"


def test_srd_20_a_tie_changes_nothing_and_the_target_chooses_its_skill():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "grapple", "gob", faces=(10, 13), defend_with="athletics")  # 15 vs 15-1=12
    assert "grappled" in t.who("gob").conditions
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "grapple", "gob", faces=(10, 13))  # 15 vs 15
    assert "grappled" not in t.who("gob").conditions


def test_srd_20_escape_takes_an_action_and_wins_the_same_contest():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "grapple", "gob", faces=(15, 2))
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
