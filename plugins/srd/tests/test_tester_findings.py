"""An outside 5e tester's findings (issue 40), through the CLI as the GM types it: an
off-hand attack after an Attack action made with no light weapon (srd-19)."""

from pathlib import Path

import pytest
from srd_cli import Gm, add, gm_on, ok, refused


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    return gm_on(tmp_path / "tester.db")


def duel(gm: Gm) -> None:
    """Brannoc (longsword, a light handaxe) acts first, then Wren (shortsword, dagger: both
    light), against a goblin with hit points to spare."""
    ok(gm, "new", "-r", "srd", "--id", "yard", "--title", "The yard")
    add(gm, "brannoc", "fighter", "Brannoc")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "gob", "goblin", "Goblin", "npc", "--set", "hp=60")
    ok(gm, "begin", "--dice", "19,10,2")


def test_srd_19_no_off_hand_attack_after_an_attack_action_with_a_longsword(gm):
    duel(gm)
    ok(gm, "act", "brannoc", "attack", "gob", "-w", "longsword", "--dice", "3")
    said = refused(gm, "act", "brannoc", "offhand", "gob", "-w", "handaxe", "--dice", "15,3")
    assert said == (
        "Error: two-weapon fighting needs a light melee weapon in the Attack action; "
        "Brannoc attacked with a longsword (srd-19)"
    )
    # Nor does a refusal offer it as the bonus action left.
    said = refused(gm, "act", "brannoc", "dodge")
    assert "left this turn: its reaction, 30 feet of movement" in said, said


def test_srd_19_an_off_hand_attack_after_a_light_weapons_attack_is_taken(gm):
    duel(gm)
    ok(gm, "next")
    ok(gm, "act", "wren", "attack", "gob", "-w", "shortsword", "--dice", "3")
    said = refused(gm, "act", "wren", "dodge")
    assert "left this turn: a bonus action" in said, said
    out = ok(gm, "act", "wren", "offhand", "gob", "-w", "dagger", "--dice", "15,3")
    assert "attacks with the off hand" in out or "off-hand" in out, out
