"""Movement on a creature's turn (srd-52), with the Dash (srd-5), standing up and crawling
(srd-27)."""

import pytest
from fracas.projections.sentences import verb, worded
from fracas.rules.api import ConditionCleared, RefusedError, Spent
from srd_table import Table, condition, fight, of, sample

from fracas_srd.movement import movement_left
from fracas_srd.ruleset import RULESET


def moves(t: Table, who: str, feet: int, **flags) -> Spent:
    return of(t.act(who, "move", feet=feet, **flags), Spent)[0]


def test_srd_52_a_turn_s_movement_is_its_speed_spent_in_pieces_and_no_more():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    assert moves(t, "brannoc", 20).reason == "moving 20 feet, 10 feet left"
    moves(t, "brannoc", 10)
    before = len(t.log)
    with pytest.raises(
        RefusedError,
        match=r"Moving 5 feet costs 5 feet; brannoc has 0 feet of "
        r"movement left this turn \(speed 30, 30 spent; a Dash adds their speed",
    ):
        t.act("brannoc", "move", feet=5)
    assert len(t.log) == before
    with pytest.raises(RefusedError, match="it is brannoc's turn, not gob's"):
        t.act("gob", "move", feet=5)


def test_srd_52_one_foot_reads_in_the_singular():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    assert moves(t, "brannoc", 29).reason == "moving 29 feet, 1 foot left"
    assert moves(t, "brannoc", 1).reason == "moving 1 foot, 0 feet left"
    with pytest.raises(RefusedError, match=r"^Moving 1 foot costs 1 foot; brannoc has 0 feet"):
        t.act("brannoc", "move", feet=1)


def test_srd_52_one_foot_reads_in_the_singular_in_the_table_s_sentences_too():
    said = [worded(verb(RULESET, "move"), {"feet": n}, "") for n in (1, 5)]
    assert said == ["moves 1 foot", "moves 5 feet"]
    t = Table()
    t.join("brannoc", sample("fighter", speed=2), "pc")
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 2)
    condition(t, "brannoc", "prone")
    stood = [e for e in t.act("brannoc", "stand") if isinstance(e, ConditionCleared)]
    assert stood[0].reason == "stands up, for 1 foot of movement"


def test_srd_52_a_dash_adds_the_speed_and_the_next_turn_starts_afresh():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    moves(t, "brannoc", 30)
    t.act("brannoc", "dash")
    assert movement_left(t.who("brannoc")) == 30
    moves(t, "brannoc", 30)
    with pytest.raises(RefusedError, match=r"0 feet of .* \(speed 30, 60 spent; srd-52\)"):
        t.act("brannoc", "move", feet=5)
    t.next()
    assert movement_left(t.who("gob")) == 30
    t.next()
    assert t.who("brannoc").moved == 0 and movement_left(t.who("brannoc")) == 30


def test_srd_52_standing_up_costs_half_the_speed_and_needs_that_much_left():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "brannoc", "prone")
    out = t.act("brannoc", "stand")
    assert of(out, Spent)[0].amount == 15 and not t.who("brannoc").has("prone")
    with pytest.raises(RefusedError, match="Moving 20 feet costs 20 feet; brannoc has 15"):
        t.act("brannoc", "move", feet=20)
    moves(t, "brannoc", 10)
    condition(t, "brannoc", "prone")
    with pytest.raises(RefusedError, match="Standing up costs 15 feet; brannoc has 5 feet"):
        t.act("brannoc", "stand")


def test_srd_52_crawling_while_prone_and_difficult_terrain_each_cost_a_foot_more():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "brannoc", "prone")
    crawl = moves(t, "brannoc", 5)
    assert crawl.amount == 10
    assert crawl.reason == "moving 5 feet (crawling while prone), 20 feet left"
    assert "srd-27" in crawl.rules
    both = moves(t, "brannoc", 5, difficult=True)
    assert both.amount == 15 and movement_left(t.who("brannoc")) == 5


def test_srd_52_a_grappled_creature_s_speed_is_0_it_neither_moves_nor_stands_nor_dashes_on():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    condition(t, "brannoc", "grappled")
    with pytest.raises(
        RefusedError, match=r"brannoc's speed is 0 \(grappled\): brannoc cannot move"
    ):
        t.act("brannoc", "move", feet=5)
    with pytest.raises(RefusedError, match=r"^brannoc is grappled: speed 0, a Dash gains nothing"):
        t.act("brannoc", "dash")
    assert movement_left(t.who("brannoc")) == 0
    condition(t, "brannoc", "prone")
    with pytest.raises(RefusedError, match=r"speed is 0 .* cannot move or stand"):
        t.act("brannoc", "stand")


def test_srd_27_a_creature_at_speed_0_provokes_no_opportunity_attack():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    condition(t, "gob", "grappled")
    with pytest.raises(RefusedError, match=r"^gob is grappled: speed 0, it cannot leave"):
        t.act("brannoc", "opportunity", "gob", faces=(10,))


def test_srd_18_an_opportunity_attack_answers_a_move_recorded_before_it():
    """At a table the GM records the move, then the fighter says "I swing": the attack is
    the reaction to that move, even where it spent all the movement."""
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "move", feet=30)
    out = t.act("brannoc", "opportunity", "gob", faces=(14, 6), weapon="longsword")
    assert [e.resource for e in of(out, Spent)] == ["reaction"]
    assert of(out, Spent)[0].reason == "opportunity attack, as gob moves out of reach"
    assert t.who("gob").dead  # 6 + 3 of its 7


def test_srd_18_a_grappled_creature_that_moved_before_the_grapple_still_provoked():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "move", feet=10)
    condition(t, "gob", "grappled")
    t.act("brannoc", "opportunity", "gob", faces=(2,), weapon="longsword")
    assert t.who("brannoc").reaction
