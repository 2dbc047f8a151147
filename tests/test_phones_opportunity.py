"""srd-18: an opportunity attack is a melee attack. The fighter's phone offered the longbow
for it, beside the longsword and the handaxe; its form now offers the melee weapons alone
(its own turn's attack still offers the bow), and a phone that sends the bow is refused in
one line naming the melee weapons, with nothing appended."""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web import Table, crypt_table, fracas

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
    fracas(table.db, "act", "goblin", "move", "25")
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
    fracas(table.db, "act", "goblin", "move", "25")
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
    fracas(table.db, "act", "goblin", "move", "25")
    panel = fighters_panel(table)
    assert action_labels(panel)["opportunity"] == "Opportunity attack on goblin", panel
    chosen = re.search(
        r'<fieldset class="chosen" data-action="opportunity".*?</fieldset>', panel, re.S
    )
    assert chosen and re.search(r'value="goblin" data-target checked', chosen[0]), chosen
    sent = table.tap("fighter", action="opportunity", targets=["goblin"])
    assert sent.status_code == 200, sent.text
    assert "opportunity" not in action_labels(fighters_panel(table))  # the reaction is spent
