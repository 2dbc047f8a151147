"""Movement on a creature's turn (srd-52), with the Dash (srd-5), standing up and crawling
(srd-27)."""

import pytest
from fracas.projections.sentences import verb, worded
from fracas.rules.api import ConditionCleared, FracasError, RefusedError, Spent
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


def goblins_turn(*cast: tuple[str, str]) -> Table:
    t = fight(*cast)
    while t.turn != "gob":
        t.do({"action": "next"})
    return t


def test_srd_18_a_move_names_whose_reach_it_leaves_and_only_they_may_answer_it():
    """An outside table test: a goblin's move offered an opportunity attack to everyone. A
    move names whose reach it leaves (`-o leaves=...`); only they may take one."""
    t = fight(("pc-brannoc", "fighter"), ("pc-wren", "rogue"), ("gob", "goblin"))
    t.do({"action": "next"})
    t.do({"action": "next"})  # the goblin's turn
    out = t.act("gob", "move", feet=25, leaves="pc-brannoc")
    assert of(out, Spent)[0].reason == "moving 25 feet, 5 feet left"
    left = [e for e in out if e.__struct_config__.tag == "srd.left-reach"]
    assert [e.of for e in left] == [["pc-brannoc"]]
    assert left[0].describe() == "gob leaves the reach of pc-brannoc"
    before = len(t.log)
    with pytest.raises(
        RefusedError,
        match=r"^gob's move left the reach of pc-brannoc alone: pc-wren has no opportunity "
        r"attack on it \(srd-18\)$",
    ):
        t.act("pc-wren", "opportunity", "gob", faces=(12,), weapon="shortsword")
    assert len(t.log) == before
    out = t.act("pc-brannoc", "opportunity", "gob", faces=(2,), weapon="longsword")
    assert [e.resource for e in of(out, Spent)] == ["reaction"]


def test_srd_18_a_move_names_two_as_a_list_or_with_commas():
    for leaves in (["pc-brannoc", "pc-wren"], "pc-brannoc, pc-wren"):
        t = goblins_turn(("pc-brannoc", "fighter"), ("pc-wren", "rogue"), ("gob", "goblin"))
        out = t.act("gob", "move", feet=10, leaves=leaves)
        left = [e for e in out if e.__struct_config__.tag == "srd.left-reach"]
        assert [e.of for e in left] == [["pc-brannoc", "pc-wren"]]
        assert t.who("gob").left == ("pc-brannoc", "pc-wren")


@pytest.mark.parametrize(
    ("leaves", "said"),
    [
        ("pc-bran", r"^no combatant 'pc-bran'"),
        ("gob-2", r"^gob-2 is gob's ally: leaving an ally's reach provokes nothing \(srd-18\); "),
        ("gob", r"^gob cannot leave its own reach: name those it moves away from \(srd-18\)$"),
        ("pc-wren", r"^pc-wren is dead: gob leaves no reach of pc-wren's \(srd-18\)$"),
    ],
)
def test_srd_18_a_move_leaving_an_unknown_or_an_allys_reach_is_refused(leaves, said):
    cast = ("pc-brannoc", "fighter"), ("pc-wren", "rogue"), ("gob", "goblin"), ("gob-2", "goblin")
    t = goblins_turn(*cast)
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 200})  # 0 and the rest: dead
    before = len(t.log)
    with pytest.raises(FracasError, match=said):
        t.act("gob", "move", feet=10, leaves=leaves)
    assert len(t.log) == before
    assert t.who("gob").moved == 0


def test_srd_18_a_new_turn_forgets_whose_reach_was_left():
    t = goblins_turn(("pc-brannoc", "fighter"), ("gob", "goblin"))
    t.act("gob", "move", feet=10, leaves="pc-brannoc")
    t.do({"action": "next"})
    t.do({"action": "next"})
    assert t.turn == "gob"
    assert t.who("gob").left == ()


def test_srd_18_a_move_out_of_two_reaches_names_them_as_a_list_reads():
    """An outside 5e GM (issue 40): "leaves the reach of Ilse, Hild Ashvane"."""
    t = fight(("pc-brannoc", "fighter"), ("pc-wren", "rogue"), ("gob", "goblin"))
    t.do({"action": "next"})
    t.do({"action": "next"})  # the goblin's turn
    out = t.act("gob", "move", feet=25, leaves="pc-brannoc,pc-wren")
    left = [e for e in out if e.__struct_config__.tag == "srd.left-reach"]
    assert left[0].describe() == "gob leaves the reach of pc-brannoc and pc-wren"


def test_srd_52_a_move_without_its_feet_is_refused_and_nothing_is_logged(tmp_path):
    """Issue 40: `fracas act wren move`, FEET forgotten, logged "Wren spends 5 feet of
    movement": a missing required argument is refused in one line, at the command line and in
    `fracas play`, and nothing is appended."""
    from srd_cli import fight as cli_fight
    from srd_cli import refused, sample

    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    with pytest.raises(FracasError, match="how far"):
        t.act("brannoc", "move")
    gm = cli_fight(tmp_path / "yard.db", "the yard", "20,1", sample("wren", "rogue", "Wren"),
                   ["add", "gob", "--monster", "goblin"])
    said = refused(gm, "act", "wren", "move")
    assert "move FEET" in said and "move 20" in said, said
