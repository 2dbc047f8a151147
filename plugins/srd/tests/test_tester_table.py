"""An outside 5e GM's findings at the table (issue 40), through the CLI as the GM types it:
a concentration save the GM's harm calls for, rolled as the damage is taken (srd-26)."""

from pathlib import Path

import pytest
from srd_cli import Gm, add, gm_on, ok, refused


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    return gm_on(tmp_path / "table.db")


def blessed(gm: Gm) -> None:
    """Maelis (Con +2) blesses herself, Wren and Brannoc, on her first turn."""
    ok(gm, "new", "-r", "srd", "--id", "cave", "--title", "The cave")
    add(gm, "maelis", "cleric", "Maelis")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "brannoc", "fighter", "Brannoc")
    ok(gm, "add", "gob", "--monster", "goblin", "--side", "npc")
    ok(gm, "begin", "--dice", "20,15,10,2")
    ok(gm, "act", "maelis", "cast", "maelis", "wren", "brannoc", "-o", "spell=bless")


def test_srd_26_the_gms_harm_rolls_the_concentration_save_at_once_on_the_typed_dice(gm):
    """The save was owed and forgotten: status showed nothing, `next` went on and bless
    stayed. It is rolled as the damage is taken, as an attack's is: 3 + 2 Con + 1 (bless's
    d4) = 6 vs DC 10 fails, and the step says bless ends on all three."""
    blessed(gm)
    out = ok(gm, "harm", "maelis", "12", "-m", "falling rocks", "--dice", "3,1")
    assert "concentration on bless (DC 10): 3 +2 +1 = 6 vs 10" in out, out
    assert "failure (6 vs 10)" in out and "still to roll" not in out, out
    assert "failed the concentration save: bless ends on Maelis, Wren and Brannoc" in out, out
    assert "under bless" not in ok(gm, "status")


def test_srd_26_the_gms_harm_rolls_the_save_on_the_servers_dice_and_a_success_keeps_it(gm):
    blessed(gm)
    out = ok(gm, "harm", "maelis", "22", "-m", "a boulder", "--dice", "20,4")  # DC 11
    assert "concentration on bless (DC 11): 20 +2 +4 = 26 vs 11" in out, out
    assert "success (26 vs 11)" in out and "no longer under bless" not in out, out
    out = ok(gm, "harm", "wren", "3")  # not concentrating: no save
    assert "concentration" not in out, out
    out = ok(gm, "harm", "maelis", "1")  # the server's dice, a roll either way
    assert "Maelis rolls d20 for concentration on bless (DC 10)" in out, out


def test_srd_12_second_wind_at_full_hit_points_spends_the_use_and_heals_nothing(gm):
    """The rules do not forbid it (an outside GM, issue 40): it was refused as a house
    choice. Now it spends the bonus action and the use, and says it healed 0 at full hit
    points; it once cited srd-12 twice."""
    blessed(gm)
    ok(gm, "next"), ok(gm, "next")  # Brannoc's turn, at 28/28
    out = ok(gm, "act", "brannoc", "second_wind", "--dice", "5")
    assert "Brannoc regains 0 hit points (second wind): already at full hit points" in out, out
    said = refused(gm, "act", "brannoc", "second_wind", "--dice", "5")
    assert said.startswith("Error: Brannoc has used second wind: a short or long rest"), said
    ok(gm, "undo")
    ok(gm, "harm", "brannoc", "10")
    out = ok(gm, "act", "brannoc", "second_wind", "--dice", "5")
    healed = next(line for line in out.splitlines() if "regains 8 hit points" in line)
    assert healed.count("srd-12") == 1, out


def test_a_spell_srd_plays_missing_from_the_sheet_says_so_and_how_to_add_it(gm):
    """It said to write a spell srd 'does not play' with level = 3, of guidance, a cantrip
    srd plays."""
    blessed(gm)
    said = refused(gm, "act", "maelis", "cast", "wren", "-o", "spell=guidance")
    assert "guidance is a spell srd plays, but not on Maelis's sheet" in said, said
    assert '[[spells]] name = "guidance"' in said and "does not play" not in said, said
    said = refused(gm, "act", "maelis", "cast", "wren", "-o", "spell=toll the dead")
    assert "level = 3" not in said and "0 for a cantrip" in said, said


def grappling(gm: Gm, monster: str) -> None:
    """Brannoc (speed 30) acts first and grapples a monster: 15 + 5 beats its 2."""
    ok(gm, "new", "-r", "srd", "--id", "pit", "--title", "The pit")
    add(gm, "brannoc", "fighter", "Brannoc")
    ok(gm, "add", "foe", "--monster", monster, "--side", "npc")
    ok(gm, "begin", "--dice", "20,2")
    ok(gm, "act", "brannoc", "grapple", "foe", "-o", "free_hand=true", "--dice", "15,2")


def test_srd_20_moving_while_dragging_a_grappled_creature_costs_double(gm):
    """It said 'moving 10 feet, 20 feet left' with a goblin (small: one size smaller) in
    Brannoc's grip."""
    grappling(gm, "goblin")
    out = ok(gm, "act", "brannoc", "move", "10")
    assert "moving 10 feet (dragging Goblin), 10 feet left" in out, out
    said = refused(gm, "act", "brannoc", "move", "10")
    assert "costs 20 feet" in said, said


def test_srd_20_a_grappled_creature_two_sizes_smaller_drags_for_nothing(gm):
    grappling(gm, "rat")  # tiny: two sizes smaller than Brannoc
    out = ok(gm, "act", "brannoc", "move", "10")
    assert "moving 10 feet, 20 feet left" in out, out


def test_the_last_foe_dead_the_step_and_status_say_the_fight_is_over(gm):
    """`next` printed 'Round 5: Brannoc to act' with no foe left."""
    over = "no NPC is left fighting; the PCs' side stands: end the fight with `fracas end`?"
    grappling(gm, "goblin")
    assert over in ok(gm, "harm", "foe", "10")
    assert over not in ok(gm, "next") and over in ok(gm, "status")  # said once in a step
