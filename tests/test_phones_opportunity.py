"""srd-18: an opportunity attack is a melee attack. The fighter's phone offered the longbow
for it, beside the longsword and the handaxe; its form now offers the melee weapons alone
(its own turn's attack still offers the bow), and a phone that sends the bow is refused in
one line naming the melee weapons, with nothing appended."""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web import Table, crypt_table, fracas, invited, sample

pytestmark = pytest.mark.sqlite_file


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with crypt_table(tmp_path) as made:
        yield made


def weapons_offered(panel: str, action: str) -> list[str]:
    fieldset = rf'<fieldset class="chosen" data-action="{action}".*?</fieldset>'
    chosen = re.search(fieldset, panel, re.S)
    assert chosen, panel
    select = re.search(r'<select data-field="weapon">(.*?)</select>', chosen[0], re.S)
    assert select, chosen[0]
    return re.findall(r'<option value="([^"]*)"', select[1])


def fighters_panel(table: Table) -> str:
    return table.client.get(f"/p/{table.tokens['fighter']}/panel").text


def test_the_opportunity_form_offers_the_melee_weapons_alone(table: Table) -> None:
    assert weapons_offered(fighters_panel(table), "attack") == ["longsword", "handaxe", "longbow"]
    fracas(table.db, "next")
    fracas(table.db, "next")  # the goblin's turn: it runs from the fighter
    fracas(table.db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
    assert weapons_offered(fighters_panel(table), "opportunity") == ["longsword", "handaxe"]


def test_a_phones_opportunity_attack_with_a_bow_is_refused_naming_the_melee_weapons(
    table: Table,
) -> None:
    fracas(table.db, "next")
    fracas(table.db, "next")
    before = table.log()
    fields = {"weapon": "longbow"}
    sent = table.tap("fighter", action="opportunity", targets=["goblin"], fields=fields)
    assert sent.status_code == 403, sent.text
    assert sent.text == (
        "Weapon: 'longbow' is not a melee weapon; use one of fighter's: longsword, handaxe\n"
    )
    assert table.log() == before
    fields = {"weapon": "handaxe"}
    sent = table.tap("fighter", action="opportunity", targets=["goblin"], fields=fields)
    assert sent.status_code == 200, sent.text


def action_labels(panel: str) -> dict[str, str]:
    """Each action button's label, by the action it takes."""
    found = re.findall(
        r'<button type="button" class="action" data-action="(\w+)"[^>]*>([^<]*)<', panel
    )
    return dict(found)


def test_an_opportunity_attack_is_offered_only_on_a_foes_own_turn_naming_the_foe(
    table: Table,
) -> None:
    """An outside table tester's phone showed "Opportunity" whenever it was not the
    player's turn, naming no foe, an ally's turn too. srd-18: a hostile creature leaving
    reach on its own turn, not after disengaging: the phone offers it then alone, naming
    the foe, whom alone it may target."""
    fracas(table.db, "next")  # the rogue's turn: an ally moving provokes nothing
    assert "opportunity" not in action_labels(fighters_panel(table))
    fracas(table.db, "next")  # the goblin's turn: it may run from the fighter
    fracas(table.db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
    panel = fighters_panel(table)
    assert action_labels(panel)["opportunity"] == "Opportunity attack on goblin", panel
    chosen = re.search(
        r'<fieldset class="chosen" data-action="opportunity".*?</fieldset>', panel, re.S
    )
    assert chosen and re.findall(r'value="(\w+)" data-target', chosen[0]) == ["goblin"]
    fracas(table.db, "act", "goblin", "disengage")  # its move provokes nothing now
    assert "opportunity" not in action_labels(fighters_panel(table))


def test_an_opportunity_attack_is_offered_only_once_the_foe_moved_and_while_the_reaction_is_unspent(
    table: Table,
) -> None:
    """Issue 37: a table tester's phone offered "Opportunity attack on Goblin 2" on every
    enemy turn, while the goblin stood still and stabbed her, and after her reaction was
    spent. srd-18: a hostile creature leaving reach: the phone offers it once the foe has
    moved this turn, while the reaction is unspent, the foe ticked already."""
    fracas(table.db, "next")
    fracas(table.db, "next")  # the goblin's turn: it has not moved
    assert "opportunity" not in action_labels(fighters_panel(table))
    fracas(table.db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
    panel = fighters_panel(table)
    assert action_labels(panel)["opportunity"] == "Opportunity attack on goblin", panel
    chosen = re.search(
        r'<fieldset class="chosen" data-action="opportunity".*?</fieldset>', panel, re.S
    )
    assert chosen and re.search(r'value="goblin" data-target checked', chosen[0]), chosen
    sent = table.tap("fighter", action="opportunity", targets=["goblin"])
    assert sent.status_code == 200, sent.text
    assert "opportunity" not in action_labels(fighters_panel(table))  # the reaction is spent


def rogues_panel(table: Table) -> str:
    return table.client.get(f"/p/{table.tokens['rogue']}/panel").text


def test_an_opportunity_attack_is_offered_only_to_those_the_move_names(table: Table) -> None:
    """An outside table test: a goblin's move offered an opportunity attack on every phone.
    srd-18: the GM's move names whose reach it leaves; their phones alone offer it, while
    their reaction is unspent, and a move naming nobody offers it to nobody."""
    fracas(table.db, "next")
    fracas(table.db, "next")  # the goblin's turn
    fracas(table.db, "act", "goblin", "move", "5")
    assert "opportunity" not in action_labels(fighters_panel(table))
    assert "opportunity" not in action_labels(rogues_panel(table))
    fracas(table.db, "act", "goblin", "move", "5", "-o", "leaves=rogue")
    assert "opportunity" not in action_labels(fighters_panel(table))
    assert action_labels(rogues_panel(table))["opportunity"] == "Opportunity attack on goblin"
    sent = table.tap("rogue", action="opportunity", targets=["goblin"], dice=[2, 3])
    assert sent.status_code == 200, sent.text  # the rogue's reaction is spent on it
    moved = fracas(table.db, "act", "goblin", "move", "5", "-o", "leaves=fighter,rogue")
    assert moved.returncode == 0, moved.stderr
    assert "opportunity" not in action_labels(rogues_panel(table))
    panel = fighters_panel(table)
    assert action_labels(panel)["opportunity"] == "Opportunity attack on goblin", panel
    before = table.log()
    sent = table.tap("fighter", action="opportunity", targets=["goblin"], dice=[15, 6])
    assert sent.status_code == 200, sent.text
    attack = fracas(table.db, "log").stdout
    assert table.log() != before
    assert "fighter spends 1 reaction: opportunity attack, as goblin moves out of reach" in attack
    assert re.search(r"attack on goblin with longsword: 15 \+3 \+2 = 20 vs 15 .*-> hit", attack)
    assert "goblin takes 9 damage: 1d8 [6] + 3 Str = 9 slashing" in attack


def test_a_move_naming_someone_out_of_the_fight_is_refused_with_nothing_appended(
    table: Table,
) -> None:
    fracas(table.db, "next")
    fracas(table.db, "next")
    before = table.log()
    refused = fracas(table.db, "act", "goblin", "move", "5", "-o", "leaves=fightr", check=False)
    assert refused.returncode != 0
    assert refused.stderr.count("\n") == 1 and "no combatant 'fightr'" in refused.stderr
    assert table.log() == before


def move_form(panel: str) -> str:
    chosen = re.search(r'<fieldset class="chosen" data-action="move".*?</fieldset>', panel, re.S)
    assert chosen, panel
    return chosen[0]


def test_a_players_move_names_whose_reach_it_leaves_and_the_gm_is_offered_their_attack(
    table: Table,
) -> None:
    """An outside table test: a character's move on the phone could not name whom it left,
    so a monster's opportunity attack was never offered when a player's character ran.
    srd-18: the move form asks whose reach it leaves (the living foes, none ticked), sends
    them as `leaves`, and the GM's page offers the goblin's opportunity attack on him."""
    gm = {"X-Fracas-Token": table.running.token}
    form = move_form(fighters_panel(table))
    assert "Leaving the reach of" in form
    ticks = re.findall(r'<input type="checkbox" value="(\w+)" data-field="leaves"[^>]*>', form)
    assert ticks == ["goblin"], form  # the foes alone, the rogue on his side is not one
    assert 'data-field="leaves" checked' not in form  # none ticked by default
    links = table.client.get("/gm/e/crypt/links", headers=gm).text
    assert "opportunity" not in links
    sent = table.tap("fighter", action="move", fields={"feet": 10, "leaves": ["goblin"]})
    assert sent.status_code == 200, sent.text
    assert "fighter leaves the reach of goblin" in fracas(table.db, "log").stdout
    links = table.client.get("/gm/e/crypt/links", headers=gm).text
    assert 'data-line="act goblin opportunity fighter --ask"' in links, links  # he holds a link
    assert "opportunity" not in action_labels(rogues_panel(table))  # a player's own is theirs
    answered = fracas(table.db, "act", "goblin", "opportunity", "fighter")
    assert answered.returncode == 0, answered.stderr
    links = table.client.get("/gm/e/crypt/links", headers=gm).text
    assert 'data-line="act goblin opportunity' not in links  # its reaction is spent


def test_a_players_move_naming_an_ally_is_refused_in_one_line(table: Table) -> None:
    before = table.log()
    sent = table.tap("fighter", action="move", fields={"feet": 10, "leaves": ["rogue"]})
    assert sent.status_code in (400, 403, 422), sent.text
    assert "ally" in sent.text and "\n" not in sent.text.strip(), sent.text
    assert table.log() == before


def test_the_gm_pages_opportunity_attack_on_a_linked_player_asks_and_then_goes(
    table: Table,
) -> None:
    """An outside table tester (issue 37): the wizard's player, holding a link, ran from the
    goblin on her phone; the GM page's "opportunity attack" button decided the attack at once
    ("not asked: … `--ask` asks them") and her phone never offered shield; once the attack
    waited on her answer the offer stayed beside it. The button's line asks her (`--ask`),
    the offer goes while the attack waits and after, and the board reads the goblin's
    reaction spent once it is."""
    fracas(
        table.db,
        "add",
        "wizard",
        "--sheet",
        sample("wizard"),
        "--set",
        "initiative=-40",
        "--side",
        "pc",
    )
    table.tokens["wizard"] = invited(table.db, "wizard")
    for _turn in range(3):  # the fighter's, the rogue's, the goblin's: the wizard's comes
        fracas(table.db, "next")
    sent = table.tap("wizard", action="move", fields={"feet": 10, "leaves": ["goblin"]})
    assert sent.status_code == 200, sent.text
    gm = {"X-Fracas-Token": table.running.token}
    links = table.client.get("/gm/e/crypt/links", headers=gm).text
    line = re.search(r'data-line="(act goblin opportunity wizard[^"]*)"', links)
    assert line, links
    assert line[1] == "act goblin opportunity wizard --ask", line[1]
    # srd asks for shield once the scimitar hits AC 12 by less than 5: the GM types the d20
    body = {"line": f"{line[1]} -w scimitar --dice 10"}
    ran = table.client.post("/gm/e/crypt/command", json=body, headers=gm)
    assert ran.status_code == 200, ran.text
    assert "not asked" not in ran.text, ran.text
    panel = table.client.get(f"/p/{table.tokens['wizard']}/panel").text
    assert "shield" in re.findall(r'data-choice="([^"]+)"', panel), panel
    links = table.client.get("/gm/e/crypt/links", headers=gm).text
    assert "opportunity waits" in links, links
    assert "A reaction is yours to take now" not in links, links
    for _asked in range(3):  # shield as it hits, then hellish rebuke as it hurts (srd-41)
        answered = table.tap("wizard", action="answer", fields={"choice": "none"})
        assert answered.status_code == 200, answered.text
        links = table.client.get("/gm/e/crypt/links", headers=gm).text
        assert "A reaction is yours to take now" not in links, links
        if "opportunity waits" not in links:
            break
    assert "opportunity waits" not in links, links
    board = table.client.get("/gm/e/crypt/screen", headers=gm).text
    goblin = re.search(r'<tr[^>]*data-combatant="goblin".*?</tr>', board, re.S)
    assert goblin, board
    assert "Reaction <b>used</b>" in goblin[0], goblin[0]  # once it landed


def test_your_chance_names_the_foe_as_its_button_does(table: Table) -> None:
    """An outside table tester (issue 37): the banner read "Your chance: opportunity attack
    on hobgoblin" (the lowercased id) over a button reading "Opportunity attack on
    Hobgoblin". The banner names the foe by its name, as the button does."""
    fracas(table.db, "rename", "goblin", "Hobgoblin Chief")
    fracas(table.db, "next")
    fracas(table.db, "next")
    fracas(table.db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
    panel = fighters_panel(table)
    assert action_labels(panel)["opportunity"] == "Opportunity attack on Hobgoblin Chief", panel
    banner = re.search(r'<p class="turn" id="your-chance"[^>]*>(.*?)</p>', panel, re.S)
    assert banner and banner[1] == "Your chance: opportunity attack on Hobgoblin Chief", banner


def test_the_latest_for_you_card_is_the_move_that_offers_the_chance(table: Table) -> None:
    """An outside table tester (issue 37): the offer of an opportunity attack arrived, and
    "Latest for you" still showed an older line. The step that gives the player their
    chance (a foe leaving their reach) is the latest for them."""
    fracas(table.db, "next")
    fracas(table.db, "next")
    fracas(table.db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
    panel = fighters_panel(table)
    assert "opportunity" in action_labels(panel)
    latest = re.search(r'<p class="latest" id="latest"[^>]*>(.*?)</p>', panel, re.S)
    assert latest, panel
    steps = table.log()
    last = json.loads(steps)[-1]["step"]
    assert f"step {last}<" in latest[1] and "moves" in latest[1], (last, latest[1])


def test_a_refusal_of_a_weapon_names_the_character_not_its_id(table: Table) -> None:
    fracas(table.db, "rename", "fighter", "Brannoc")
    fracas(table.db, "next")
    fracas(table.db, "next")
    fracas(table.db, "act", "goblin", "move", "25", "-o", "leaves=fighter")
    sent = table.tap("fighter", action="opportunity", targets=["goblin"],
                     fields={"weapon": "longbow"})  # fmt: skip
    assert sent.status_code == 403, sent.text
    assert "use one of Brannoc's: longsword, handaxe" in sent.text
