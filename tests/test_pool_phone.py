"""A pool player's phone (issue 37, an outside table tester): the dice-pool ruleset's
choices on a phone say, in the ruleset's own words, what each one does and what it costs."""

import re

from fracas.cli.serve import Table
from fracas.projections.phones import panel
from fracas.projections.screen import PLAYERS, Timeline
from fracas.rules.reactions import Ask
from tests.casts.pool import pool_fight
from tests.unseen import shut

LATER = "2999-01-01T00:00:00Z"


def test_a_pool_target_asked_reads_what_each_reaction_does_and_that_it_spends_the_action(
    fracas, log_location
):
    """The phone offered "dodge", "parry", "clash", "none" with the dice each rolls and
    nothing else: no word of what a clash is, nor that reacting uses up the round's Action
    (004-11), so a player clashed and then had no attack on their turn."""
    e = pool_fight(fracas)  # Ana's turn: she attacks Bob, whose player is asked
    command = {"action": "attack", "actor": "ana", "targets": ["bob"], "weapon": "sword"}
    e.execute(e.ruleset.command(command), ask=Ask(LATER))
    timeline = Timeline(fracas.encounter(e.id), e.id, PLAYERS, lambda s: "")
    made = panel(timeline, fracas.encounter(e.id), "bob")
    assert made.asked is not None and made.asked.choices == ["dodge", "parry", "clash", "none"]
    words = made.words
    assert "the higher Outcome deals full damage" in words["clash"], words
    assert "comes off the attack's" in words["dodge"], words
    for choice in ("dodge", "parry", "clash"):
        assert "spends your Action this round" in words[choice], (choice, words)
    assert "keep your Action" in words["none"], words
    table = Table(log_location, "token")
    try:
        html = table.templates.get_template("panel.html").render(panel=made, waiting=[], mode="now")
    finally:
        shut(table)
    clash = re.search(r'data-choice="clash">.*?</button>', html, re.S)
    assert clash and "spends your Action this round" in clash[0], html
