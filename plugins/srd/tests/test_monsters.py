"""Multiattack and legendary actions (srd-29)."""

import pytest
from fracas.rules.api import RefusedError, Resolved, Spent
from srd_table import fight, of, rolls


def test_srd_29_multiattack_is_one_action_of_the_sheet_s_attacks_in_order():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    out = t.act("wyrm", "multiattack", "brannoc", "wren", "wren", faces=(2, 3, 1))
    attacks = [r.purpose for r in rolls(out) if r.purpose.startswith("attack")]
    assert attacks == [
        "attack on brannoc with bite",
        "attack on wren with claw",
        "attack on wren with claw",
    ]
    assert [e.resource for e in of(out, Spent)] == ["action"]
    with pytest.raises(RefusedError, match="3 attacks"):
        fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue")).act(
            "wyrm", "multiattack", "brannoc", "wren"
        )


def test_srd_29_legendary_actions_come_at_the_end_of_another_s_turn_one_at_a_time():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"), ("wren", "rogue"))
    with pytest.raises(RefusedError, match="end of another creature's turn"):
        t.act("wyrm", "legendary", option="detect")
    with pytest.raises(RefusedError, match="no legendary option 'nothing'"):
        t.act("wyrm", "legendary", option="nothing")


def test_srd_29_a_legendary_option_costs_its_points_and_they_come_back_on_its_turn():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    t.next()  # the wyrm's turn ends: no legendary action after its own turn
    with pytest.raises(RefusedError, match="own turn"):
        t.act("wyrm", "legendary", option="detect")
    t.next()  # Brannoc's turn ends
    out = t.act("wyrm", "legendary", "brannoc", faces=(15, 3, 3), option="tail attack")
    assert [(e.resource, e.amount) for e in of(out, Spent)] == [("legendary actions", 1)]
    with pytest.raises(RefusedError, match="at this turn's end"):
        t.act("wyrm", "legendary", option="detect")
    t.act("wren", "dash")
    with pytest.raises(RefusedError, match="end of another creature's turn"):
        t.act("wyrm", "legendary", option="detect")
    t.next()  # Wren's turn ends: one more, the wing attack for the 2 left
    t.act("wyrm", "legendary", "brannoc", "wren", option="wing attack")
    assert of(t.log, Resolved)[-1].outcome == "wing attack"
    with pytest.raises(RefusedError, match="at this turn's end"):
        t.act("wyrm", "legendary", option="detect")
    assert t.who("wyrm").legendary_prior == 0
    assert t.who("wyrm").legendary_left == 3  # round 2: its own turn began, they are back


def test_srd_29_no_legendary_action_without_the_points_or_while_incapacitated():
    t = fight(("wyrm", "wyrm"), ("brannoc", "fighter"), ("wren", "rogue"))
    t.next()
    t.next()
    t.act("wyrm", "legendary", option="wing attack")
    t.next()
    with pytest.raises(RefusedError, match="1 legendary actions left, this costs 2"):
        t.act("wyrm", "legendary", option="wing attack")
    t.do({"action": "gm.condition-set", "target": "wyrm", "condition": "stunned"})
    with pytest.raises(RefusedError, match="stunned"):
        t.act("wyrm", "legendary", option="detect")


def test_srd_29_a_surprised_legendary_creature_waits_for_its_first_turn_to_end():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"), ("wren", "rogue"), begin=False)
    t.do({"action": "surprise", "targets": ["wyrm"]})
    t.do({"action": "begin"}, 20, 16, 12)
    t.next()
    t.next()  # the wyrm's first turn ends: no longer surprised
    t.next()  # Wren's turn ends
    t.act("wyrm", "legendary", option="detect")


def test_srd_29_the_dead_have_no_turn_so_no_turn_end_for_a_legendary_action():
    t = fight(("wyrm", "wyrm"), ("gob", "goblin"), ("brannoc", "fighter"))
    t.do({"action": "gm.harm", "target": "gob", "amount": 7})
    t.next()  # the wyrm's turn ends; the goblin is dead and skipped
    assert t.turn == "brannoc"
