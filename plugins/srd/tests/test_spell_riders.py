"""Riders of damage spells, played through the CLI as a GM types them: guiding bolt's
advantage on the next attack roll against its target, vicious mockery's disadvantage on its
target's next attack roll (srd-33, for the time srd-28 says)."""

from pathlib import Path

import pytest
from srd_cli import SAMPLES, Gm, fight, monster, ok, sample, written

BARD = (SAMPLES / "cleric.toml").read_text() + '\n[[spells]]\nname = "vicious mockery"\n'


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    """Maelis (a cleric who knows vicious mockery too), then a goblin, then Brannoc."""
    return fight(
        tmp_path / "road.db", "The road", "19,5,2",
        written(tmp_path, "maelis", BARD, "Maelis"),
        monster("gob", "goblin"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip


def test_srd_33_guiding_bolt_gives_the_next_attack_on_its_target_advantage_once(gm):
    bolt = ok(
        gm, "act", "maelis", "cast", "gob", "-o", "spell=guiding bolt", "--dice", "15,1,1,1,1"
    )
    assert "guiding bolt: the next attack roll against it has advantage" in bolt
    assert "until the end of Maelis's next turn" in bolt
    ok(gm, "next")
    ok(gm, "next")  # Brannoc's turn
    first = ok(gm, "act", "brannoc", "attack", "gob", "-o", "weapon=longsword", "--dice", "3,9")
    assert "rolls 2d20kh1" in first and "advantage: Goblin: guiding bolt (srd-33)" in first
    assert "-> miss (14 vs AC 15)" in first  # 9 kept, +3 Str +2: spent all the same
    assert "Goblin is no longer under guiding bolt: guiding bolt spent on this attack" in first
    ok(gm, "next")
    ok(gm, "next")
    ok(gm, "next")
    second = ok(gm, "act", "brannoc", "attack", "gob", "-o", "weapon=longsword", "--dice", "3")
    assert "rolls d20" in second and "2d20" not in second


def test_srd_33_vicious_mockery_gives_its_target_disadvantage_on_its_next_attack_roll(gm):
    mocked = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=vicious mockery", "--dice", "2,3")
    assert "vicious mockery: disadvantage on its next attack roll" in mocked
    assert "takes 3" in mocked
    ok(gm, "next")  # the goblin's turn
    swing = ok(gm, "act", "gob", "attack", "brannoc", "-o", "weapon=scimitar", "--dice", "18,4")
    assert "2d20kl1" in swing and "disadvantage" in swing
    assert "no longer under vicious mockery: vicious mockery spent on this attack roll" in swing


def test_srd_33_guiding_bolts_advantage_is_spent_by_an_attack_shield_then_turns(tmp_path):
    gm = fight(
        tmp_path / "duel.db", "The duel", "19,5,2",
        sample("maelis", "cleric", "Maelis"), sample("brannoc", "fighter", "Brannoc"),
        sample("ilse", "wizard", "Ilse", "npc"),
    )  # fmt: skip
    ok(gm, "act", "maelis", "cast", "ilse", "-o", "spell=guiding bolt", "--dice", "15,1,1,1,1")
    ok(gm, "next")  # Brannoc's turn
    swing = ("act", "brannoc", "attack", "ilse", "-o", "weapon=longsword", "--defence",
             "ilse=shield", "--dice", "3,10")  # fmt: skip
    turned = ok(gm, *swing)
    assert "2d20kh1" in turned and "no longer under guiding bolt" in turned
    assert "15 vs AC 17" in turned and "takes" not in turned  # 10 + 5 hit AC 12; shield: +5
