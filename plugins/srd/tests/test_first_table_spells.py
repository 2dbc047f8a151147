"""The spells a first table of level 1-3 characters meets first, played through the CLI as a
GM types them: guidance (srd-81), hunter's mark (srd-83), shillelagh (srd-84)."""

import json
from pathlib import Path
from typing import Any

import pytest
from srd_cli import SAMPLES, Gm, fight, monster, ok, written

RANGER = (
    'spellcasting = "wis"\nslots = [3]\n'
    + (SAMPLES / "fighter.toml").read_text()
    + '\n[[spells]]\nname = "hunter\'s mark"\n\n[[spells]]\nname = "guidance"\n'
)

DRUID = (
    (SAMPLES / "cleric.toml").read_text()
    + '\n[[weapons]]\nname = "quarterstaff"\ndamage = "1d6"\ntype = "bludgeoning"\n'
    + '\n[[spells]]\nname = "shillelagh"\n'
)


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    """Tamsin, a ranger with hunter's mark and guidance (acting first), against two goblins."""
    return fight(
        tmp_path / "wood.db", "The goblin trail", "19,5,2",
        written(tmp_path, "tam", RANGER, "Tamsin"),
        monster("gob", "goblin"), monster("gob2", "goblin"),
    )  # fmt: skip


def row(gm: Gm, who: str) -> dict[str, Any]:
    """The creature as `status --json` shows it."""
    wounds = json.loads(ok(gm, "status", "--json"))["wounds"]
    return next(w for w in wounds if w["combatant"] == who)


def conditions(gm: Gm, who: str) -> str:
    return " ".join(map(str, row(gm, who)["conditions"]))


def test_srd_81_guidance_adds_its_d4_to_the_check_it_is_spent_on_then_ends(gm):
    cast = ok(gm, "act", "tam", "cast", "tam", "-o", "spell=guidance")
    said = "Tamsin is under guidance for 10 rounds: 1d4 added to one ability check of their choice"
    assert said in cast
    assert "srd-81" in cast and "concentrating" in conditions(gm, "tam")
    check = ok(gm, "act", "tam", "check", "athletics", "--dc", "15", "-o", "spend=guidance",
               "--dice", "9,1")  # fmt: skip
    assert "9 +3 +2 +1 = 15 vs 15" in check and "+1 guidance: +1d4 rolled 1" in check
    assert "Tamsin is no longer under guidance: guidance spent on this ability check" in check
    assert "Tamsin is no longer concentrating" in check
    again = ok(gm, "act", "tam", "check", "athletics", "--dc", "15", "--dice", "9")
    assert "9 +3 +2 = 14 vs 15" in again and "guidance" not in again


def test_srd_81_guidance_ends_with_the_concentration_that_holds_it(gm):
    ok(gm, "act", "tam", "cast", "tam", "-o", "spell=guidance")
    ok(gm, "condition", "clear", "tam", "concentrating")
    assert "guidance" not in conditions(gm, "tam")
    check = ok(gm, "act", "tam", "check", "athletics", "--dc", "15", "--dice", "9")
    assert "9 +3 +2 = 14 vs 15" in check


def test_srd_83_hunters_mark_moves_as_a_bonus_action_once_its_target_drops(gm):
    ok(gm, "act", "tam", "cast", "gob", "-o", "spell=hunter's mark")
    killed = ok(gm, "act", "tam", "attack", "gob", "-o", "weapon=longsword", "--dice", "15,4,3")
    assert "Goblin (gob) takes 10 damage" in killed and "is dead" in killed  # 4 + 3 + 3
    assert "concentrating" in conditions(gm, "tam")  # the spell goes on, its mark to move
    slots = row(gm, "tam")["detail"]["slots_left"]
    assert slots == [2]
    ok(gm, "next")  # the dead goblin's turn passes by
    ok(gm, "next")
    moved = ok(gm, "act", "tam", "cast", "gob2", "-o", "spell=hunter's mark")
    assert "Tamsin spends 1 bonus action: moves hunter's mark" in moved
    assert "spell slot" not in moved and row(gm, "tam")["detail"]["slots_left"] == slots
    assert "Goblin (gob2) is under hunter's mark" in moved
    assert "600 rounds left" not in conditions(gm, "tam")  # the same concentration goes on
    hit = ok(gm, "act", "tam", "attack", "gob2", "-o", "weapon=longsword", "--dice", "15,1,2")
    assert "rolls 1d6 for hunter's mark: 2" in hit and "takes 6 damage" in hit  # 1 + 3 + 2
    ok(gm, "condition", "clear", "tam", "concentrating")
    assert "hunter's mark" not in conditions(gm, "gob2")


def test_srd_84_shillelagh_strikes_with_wisdom_for_1d8_magical_damage(tmp_path: Path):
    druid = written(tmp_path, "oak", DRUID, "Oakley")
    gm = fight(tmp_path / "grove.db", "The grove", "19,5", druid, monster("skel", "skeleton"))
    plain = ok(gm, "act", "oak", "attack", "skel", "-o", "weapon=quarterstaff", "--dice", "11,5")
    assert "11 +1 +2 = 14 vs 13" in plain and "rolls 1d6 for damage of quarterstaff" in plain
    ok(gm, "next")
    ok(gm, "next")
    cast = ok(gm, "act", "oak", "cast", "-o", "spell=shillelagh")
    assert "Oakley spends 1 bonus action: cast" in cast and "srd-84" in cast
    assert "Oakley's club or quarterstaff attacks with the spellcasting ability" in cast
    hit = ok(gm, "act", "oak", "attack", "skel", "-o", "weapon=quarterstaff", "--dice", "9,7")
    assert "9 +3 +2 = 14 vs 13" in hit and "+3 Wis modifier" in hit  # Wis 16, not Str 12
    assert "rolls 1d8 for damage of quarterstaff: 7 +3 = 10" in hit
