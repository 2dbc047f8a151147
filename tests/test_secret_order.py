"""What players see never depends on a roll they may not see, not even in the order of rows.

A ruleset written from outside (tests/dealt_deck.py's duel) whose view lists the health rows
in this round's order, as a plugin author may well do: the order is dealt by a GM-only deal,
so the players' rows must not follow it (a newcomer's d6 ruleset listed `ann, bo` in one
fight and `bo, ann` in the other, in the Damage and Cast tables of the players' export)."""

import dataclasses
from typing import Any

import msgspec

from fracas.projections import Fracas
from fracas.projections.secrecy import differing
from fracas.rules.api import View, gm
from fracas.testing import installed
from fracas.testing.checks import fixed_world, players_see, same_for_the_players
from fracas.testing.fights import seeded_by
from tests import dealt_deck


def by_card(state: Any) -> View:
    """The duel's view with the health rows in the order of the cards dealt."""
    seen = dealt_deck.view(state)
    rank = {row.combatant: row.order for row in seen.initiative}
    health = sorted(seen.wounds, key=lambda w: rank.get(w.combatant, len(rank)))
    return msgspec.structs.replace(seen, wounds=health)


RULESET = dataclasses.replace(dealt_deck.RULESET, view=gm.table_view(by_card))


def dealt_secretly(cards: list[int]) -> dict[str, str]:
    """A three-fighter duel begun with a GM-only deal of `cards`, then the GM's note."""
    with installed(RULESET), fixed_world(), seeded_by(b"dawn"), Fracas(":memory:") as fracas:
        duel = fracas.new("deck", title="At dawn", encounter="dawn")
        for who in ("ann", "bo", "cy"):
            join = {"action": "join", "combatant": who, "sheet": {"hp": 3}, "side": "pc"}
            duel.execute(RULESET.command(join), command_id=f"join-{who}")
        begin = RULESET.command({"action": "begin"})
        duel.execute(begin, dice=cards, secret=True, command_id="begin")
        duel.note("a twig snaps")
        return players_see(fracas, duel)


def test_a_secret_deal_does_not_order_the_players_rows():
    first = dealt_secretly([10, 20, 30])  # cy, bo, ann
    second = dealt_secretly([30, 20, 10])  # ann, bo, cy
    assert "a twig snaps" in first["md"]
    same_for_the_players(first, second, "a GM-only deal shows through")


def test_worlds_holding_the_same_conditions_in_another_order_differ():
    """A view may list a combatant's conditions in the order they were set: a secret that
    sets the same two in another order has decided something players could see."""
    one = {"ann": {"conditions": {"prone": {}, "grappled": {}}}, "bo": {"hp": 2}}
    two = {"ann": {"conditions": {"grappled": {}, "prone": {}}}, "bo": {"hp": 2}}
    assert differing([(one, {"round": 1}), (two, {"round": 1})]) == ({"ann"}, False)
    assert differing([({}, {"order": {"a": 1, "b": 2}}), ({}, {"order": {"b": 2, "a": 1}})])[1]
