"""Out of turn: the opportunity attack (srd-18) and the readied action (srd-24)."""

import pytest
from fracas.rules.api import ConditionExpired, Damaged, RefusedError, Spent
from srd_table import fight, of, rolls


def test_srd_18_a_foe_leaving_reach_draws_one_melee_attack_for_the_reaction():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "dash")
    out = t.act("brannoc", "opportunity", "gob", faces=(12, 5), weapon="longsword")
    assert [e.resource for e in of(out, Spent)] == ["reaction"]
    assert of(out, Damaged)[0].amount == 8 and "dead" in t.who("gob").conditions
    assert t.turn == "brannoc"  # killed on its own turn: the turn passes on


def test_srd_18_no_opportunity_against_the_disengaged_or_with_a_bow_or_off_its_turn():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"), ("wren", "rogue"))
    with pytest.raises(RefusedError, match="melee attack"):
        t.act("brannoc", "opportunity", "gob", faces=(12,), weapon="longbow")
    with pytest.raises(RefusedError, match=r"brannoc is not moving on .* own turn"):
        t.act("gob", "opportunity", "brannoc", faces=(12,))
    t.act("gob", "disengage")
    with pytest.raises(RefusedError, match="disengaged"):
        t.act("brannoc", "opportunity", "gob", faces=(12,))


def test_srd_18_an_opportunity_attack_is_on_a_foe_never_an_ally():
    t = fight(("pc-wren", "rogue"), ("pc-brannoc", "fighter"), ("gob", "goblin"))
    t.next()  # Brannoc's turn: he has not moved
    before = len(t.log)
    with pytest.raises(
        RefusedError,
        match=r"^pc-brannoc is pc-wren's ally: an opportunity attack is on a hostile creature "
        r"leaving reach \(srd-18\)$",
    ):
        t.act("pc-wren", "opportunity", "pc-brannoc", faces=(12,), weapon="shortsword")
    assert len(t.log) == before and not t.who("pc-wren").reaction
    t.next()
    t.act("pc-wren", "opportunity", "gob", faces=(2,), weapon="shortsword")  # a foe: taken
    assert t.who("pc-wren").reaction


def test_srd_24_a_readied_attack_is_taken_as_a_reaction_when_the_trigger_comes():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "ready", trigger="the goblin steps out", then="attack")
    t.next()
    with pytest.raises(RefusedError, match="only react"):
        t.act("brannoc", "attack", "gob", faces=(12,))
    out = t.act("brannoc", "react", "gob", faces=(12, 5), weapon="longsword")
    assert [e.resource for e in of(out, Spent)] == ["reaction"]
    assert "readied" not in t.who("brannoc").conditions and rolls(out)[0].rules[-2:] == [
        "srd-6",
        "srd-7",
    ]
    with pytest.raises(RefusedError, match="no readied action"):
        t.act("brannoc", "react", "gob", faces=(12,))


def test_srd_24_an_unused_readied_action_lapses_at_the_start_of_the_next_turn():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "ready", then="dash")
    t.next()
    out = t.next()
    assert [e.condition for e in of(out, ConditionExpired)] == ["readied"]


def test_srd_24_a_readied_move_happens_as_readied():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "ready", then="dash", trigger="the door opens")
    t.next()
    out = t.act("brannoc", "react")
    assert out[-1].outcome == "dashes as readied"
