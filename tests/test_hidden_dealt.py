"""Issue 38's third case: a ruleset that deals initiative anew every round, written from
outside as a plugin (tests/dealt_deck.py, against fracas.rules.api alone). A hidden combatant
dealt the highest card in round 1 acts first: the players' page must not freeze there, but
follow the round as the GM's hand, and the deals of the rounds after it."""

import io
import json

import msgspec
import pytest

from fracas.projections import Fracas
from fracas.projections.exports import export_jsonl
from fracas.projections.screen import PLAYERS, Timeline
from fracas.projections.secrecy import players_cut
from fracas.rules.timeline import walk
from fracas.testing import Cast, RulesetChecks, installed
from tests.dealt_deck import RULESET

HIDDEN, NAME = "zzghoul", "Grey Ghoul"


def step(duel, command: dict, dice: list[int] | None = None, **more) -> None:
    duel.execute(RULESET.command(command), dice=dice, **more)


def test_a_hidden_combatant_dealt_the_high_card_does_not_freeze_round_one():
    with installed(RULESET), Fracas(":memory:") as fracas:
        duel = fracas.new("deck", title="At dawn", encounter="dawn")
        for who in ("ann", "bo"):
            step(duel, {"action": "join", "combatant": who, "sheet": {"hp": 3}, "side": "pc"})
        join = {"action": "join", "combatant": HIDDEN, "name": NAME, "sheet": {"hp": 3}}
        step(duel, join, hidden=True)
        joined = duel.history.head_step
        step(duel, {"action": "begin"}, [20, 10, 52])  # the ghoul draws the ace: first
        assert duel.view().acting == [HIDDEN]
        timeline = Timeline(fracas.encounter("dawn"), "dawn", PLAYERS, lambda s: "")
        assert "the GM is acting" in timeline.screen().board.header
        step(duel, {"action": "flip", "actor": HIDDEN, "targets": ["ann"]}, [2])  # heads
        step(duel, {"action": "flip", "actor": "ann", "targets": [HIDDEN]}, [1])
        step(duel, {"action": "flip", "actor": "bo", "targets": ["ann"]}, [2, 5, 40, 30])
        frames = list(walk(duel.store, duel.id, duel.ruleset))
        cut = players_cut(frames, duel.ruleset)
        # nothing waits, and the players' numbers are the GM's: the hidden joining alone is
        # held back, in its place (issue 37)
        waiting = {at for at, seen in cut.seen.items() if seen.number != at}
        assert waiting == {joined}, waiting
        assert all(not seen.masked for seen in cut.seen.values())
        timeline = Timeline(fracas.encounter("dawn"), "dawn", PLAYERS, lambda s: "")
        screen = timeline.screen()
        assert screen.steps == duel.history.head_step  # round 2 dealt: all of it shown
        rows = {row.combatant: row for row in screen.board.rows}
        assert set(rows) == {"ann", "bo"}
        assert rows["ann"].health == "HP 1"  # two heads: the ghoul's and bo's
        assert "Round 2 · bo to act" in screen.board.header  # dealt ann 5, bo 40, the ghoul 30
        out = io.StringIO()
        export_jsonl(fracas.store, out, players=True)
        said = out.getvalue() + json.dumps(msgspec.to_builtins(screen))
        for secret in (HIDDEN, NAME, "card 52", "card 30"):
            assert secret not in said, f"{secret!r} reaches the players"
        assert "someone unseen" in out.getvalue()


@pytest.mark.long
class TestDealtDeck(RulesetChecks):
    """The kit on the dealt duel: its secrets and hidden combatants included."""

    cast = Cast(RULESET, sheets={"ann": {"hp": 3}, "bo": {"hp": 2}, "cy": {"hp": 2}}, begun=0.9)
    examples = 10
