"""What an outside 5e GM found (issue 40), played through the CLI as a GM types it: an
attack, a Multiattack or a spell aimed at the dead is refused, nothing spent."""

import pytest
from srd_cli import SAMPLES, Gm, fight, ok, refused

WYRM = ["add", "wyrm", "--sheet", str(SAMPLES / "wyrm.toml"), "--name", "Wyrm"]
GOBLIN = ["add", "gob", "--sheet", str(SAMPLES / "goblin.toml"), "--name", "Goblin"]
ILSE = ["add", "ilse", "--sheet", str(SAMPLES / "wizard.toml"), "--side", "pc", "--name", "Ilse"]


@pytest.fixture
def graveyard(tmp_path) -> Gm:
    """The wyrm (first), a goblin the GM has killed, and Ilse, a wizard (last)."""
    gm = fight(tmp_path / "graveyard.db", "Graveyard", "20,5,3", WYRM, GOBLIN, ILSE)
    ok(gm, "harm", "gob", "50")
    return gm


def test_srd_29_a_multiattack_at_the_dead_is_refused_naming_its_state(graveyard):
    said = refused(graveyard, "act", "wyrm", "multiattack", "gob")
    assert said.startswith("Error: Goblin is dead"), said
    # one of several targets dead is refused too: the GM names a living one for each
    said = refused(graveyard, "act", "wyrm", "multiattack", "ilse", "gob", "ilse")
    assert said.startswith("Error: Goblin is dead"), said
    out = ok(graveyard, "act", "wyrm", "multiattack", "ilse", "--dice", "1,1,1")
    assert "multiattack" in out and "dead" not in out, out


def test_an_attack_and_a_spell_at_the_dead_are_refused(graveyard):
    assert refused(graveyard, "act", "wyrm", "attack", "gob", "-w", "bite") == (
        "Error: Goblin is dead"
    )
    ok(graveyard, "next")  # the dead goblin's turn is skipped: Ilse's
    said = refused(graveyard, "act", "ilse", "cast", "gob", "-o", "spell=fire bolt")
    assert said.startswith("Error: Goblin is dead"), said
    said = refused(graveyard, "act", "ilse", "cast", "gob", "-o", "spell=magic missile")
    assert said.startswith("Error: Goblin is dead"), said

