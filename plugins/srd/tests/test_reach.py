"""What a GM-only roll can change in an srd fight (`Ruleset.reach`): declared so that a
large secret (a breath's 10d6 on three, a multiattack) holds back only what it could
change, not the whole fight; the kit's liveness check (test_conformance) decides each
declared step again on random faces to hold the declaration to it."""

from fracas.rules.api import Reach
from srd_table import fight

from fracas_srd.ruleset import RULESET


def command(data: dict):
    return RULESET.command(data)


def test_an_attack_reaches_its_two_sides_and_the_turns_it_may_pass_to():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), ("gob2", "goblin"), ("wyrm", "wyrm"))
    swing = command({"action": "attack", "actor": "brannoc", "targets": ["gob2"]})  # gob next
    assert RULESET.reach(t.state, swing) == Reach(frozenset({"brannoc", "gob", "gob2"}), True)


def test_what_a_concentration_holds_is_reached_with_its_caster():
    t = fight(("maelis", "cleric"), ("gob", "goblin"), ("gob2", "goblin"), ("wyrm", "wyrm"))
    t.act("maelis", "cast", "gob2", faces=(2,), spell="hold person")
    t.next(), t.next(), t.next(1)  # gob2 stays held; the wyrm's turn
    breath = command({"action": "cast", "actor": "wyrm", "targets": ["maelis"],
                      "spell": "fire breath"})  # fmt: skip
    assert RULESET.reach(t.state, breath).combatants == {"wyrm", "maelis", "gob2"}


def test_a_roll_of_one_creature_reaches_it_alone_and_not_the_turn():
    t = fight(("maelis", "cleric"), ("gob", "goblin"))
    save = command({"action": "save", "actor": "gob", "ability": "dex"})
    hide = command({"action": "hide", "actor": "gob"})
    assert RULESET.reach(t.state, save) == RULESET.reach(t.state, hide) == Reach(
        frozenset({"gob"}))  # fmt: skip
    assert RULESET.reach(t.state, command({"action": "begin"})) is None  # fracas's to try


def test_a_spell_whose_mark_a_turns_edge_ends_reaches_the_turn():
    """Guiding bolt's mark on the wyrm lasts to the end of Maelis's next turn, on a hit
    alone: a later `next` ends it or not, so the secret cast reaches the turn (CI's kit
    found a GM-only guiding bolt whose later `next` told the players it had hit)."""
    t = fight(("maelis", "cleric"), ("gob", "goblin"), ("wyrm", "wyrm"))
    bolt = command({"action": "cast", "actor": "maelis", "targets": ["wyrm"],
                    "spell": "guiding bolt"})  # fmt: skip
    assert RULESET.reach(t.state, bolt).shared
