"""The dice-pool ruleset at the table (issue 37, an outside table tester): a phone's
choices say, in the ruleset's own words, what each one does and what it costs, and the
TV's dice say what their words ("Outcome", "partial success") are."""

import re
from html import unescape

from fracas.cli.serve import Table
from fracas.projections import Fracas
from fracas.projections.phones import panel
from fracas.projections.screen import GM, PLAYERS, Timeline
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


def test_the_tv_says_what_a_pools_outcome_and_its_bands_are(log_location) -> None:
    """The TV read "Order: Outcome 5" and "initiative: 7d10: ... outcome 3: partial
    success" with no word of what an Outcome is, nor what makes it partial: the dice box
    says each, in the ruleset's words, as srd's says what each modifier is."""
    with Fracas(log_location) as opened:
        pool_fight(opened)  # its begin rolls initiative: Outcomes 3, 1 and 1
    table = Table(log_location, "token")
    try:
        name = table.worker.submit(lambda: table.encounter(None)).result()
        pages = {
            a: table.worker.submit(table.render_screen, name, a).result() for a in (GM, PLAYERS)
        }
    finally:
        table.close()
    for audience, page in pages.items():
        dice = re.search(r'<section class="dice".*?</section>', page, re.S)
        assert dice, audience
        said = " ".join(unescape(re.sub(r"<[^>]+>", "", dice[0])).split())
        assert "outcome 3: partial success" in said, said
        assert (
            "Outcome: each die at or over the Difficulty adds 1, a 10 adds 2, a 1 takes 1 away; "
            "in the order, each one's initiative roll (Dexterity + Perception), highest first"
        ) in said, (audience, said)
        assert "partial success: an Outcome of 1 to 3" in said, said
        assert "exceptional success" not in said, said  # only what its words say
