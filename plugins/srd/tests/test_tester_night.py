"""A second outside 5e tester's night (issue 40), through the CLI as the GM types it: the
refusals that did not say what to do (magic missile's darts split two and one, a legendary
action asked for before the turn ends) and an off-hand hit's damage that read as though the
rogue had no Dex modifier."""

from pathlib import Path

import pytest
from srd_cli import SAMPLES, Gm, add, gm_on, ok, refused


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    run = gm_on(tmp_path / "night.db")
    ok(run, "new", "-r", "srd", "--id", "night", "--title", "The night")
    add(run, "ilse", "wizard", "Ilse")
    add(run, "wren", "rogue", "Wren")
    add(run, "wyrm", "wyrm", "Wyrm", "npc")
    for gob in ("g1", "g2"):
        add(run, gob, "goblin", gob.upper(), "npc", "--set", "hp=40")
    ok(run, "begin", "--dice", "20,15,1,5,4")  # Ilse, Wren, G1, G2, the wyrm
    return run


def hp(gm: Gm, name: str) -> str:
    return next(line for line in ok(gm, "status").splitlines() if f" {name} " in line)


def test_magic_missiles_darts_split_two_and_one_by_naming_a_target_twice(gm):
    said = refused(gm, "act", "ilse", "cast", "g1", "g2", "-o", "spell=magic missile")
    assert "naming one twice for two darts" in said, said
    out = ok(gm, "act", "ilse", "cast", "g1", "g1", "g2", "-o", "spell=magic missile",
             "--dice", "1,2,3")  # fmt: skip
    assert "G1 takes" in out and "G2 takes" in out, out


def test_a_legendary_action_asked_for_mid_turn_says_to_end_the_turn_first(gm):
    said = refused(gm, "act", "wyrm", "legendary", "ilse", "-o", "option=detect")
    assert "`fracas next` ends this turn, then give it" in said, said


def test_an_off_hand_hits_damage_says_the_modifier_is_not_added(gm):
    ok(gm, "next")  # Wren's turn
    ok(gm, "act", "wren", "attack", "g1", "-w", "shortsword", "--dice", "18,3")
    out = ok(gm, "act", "wren", "offhand", "g1", "-w", "dagger", "--dice", "18,2")
    assert "off-hand: the Dex modifier is not added" in out, out
    assert "no positive" not in out, out


def test_a_spell_named_with_set_is_filled_in_from_the_spellbook_as_a_sheet_files_is(gm):
    """`--set 'spells=[{name="thunderwave"}]'` took the spell with no effect: cast, it spent
    the action and did nothing, where the same spell from a sheet file played."""
    add(gm, "tamsin", "cleric", "Tamsin", "pc", "--set", 'spells=[{name="guidance"}]')
    while "Tamsin to act" not in ok(gm, "status").splitlines()[0]:
        ok(gm, "next")
    out = ok(gm, "act", "tamsin", "cast", "wren", "-o", "spell=guidance")
    assert "Wren is under guidance" in out, out


def test_an_unknown_spell_named_alone_says_what_it_costs_and_how_to_price_it(gm, tmp_path):
    """shillelagh, named alone on a sheet before srd played it, was cast as a cantrip with an action
    (it is a bonus action): a spell srd does not know named with no level is left off the
    sheet, and the warning on add says how to give its cost."""
    sheet = tmp_path / "tamsin.toml"
    sheet.write_text(
        (SAMPLES / "cleric.toml").read_text() + '\n[[spells]]\nname = "speak with animals"\n'
    )
    said = ok(gm, "add", "tamsin", "--sheet", str(sheet), "--side", "pc")
    assert "speak with animals: no spell srd plays" in said, said
    assert "no level: left off the sheet" in said, said
    assert 'write its level on the sheet (level = 1; 0: a cantrip), with casting = "bonus"' in said


def test_srd_85_a_creature_hiding_is_noticed_by_a_foe_whose_passive_perception_meets_it(gm):
    """Wren hid on a 14 from an adult dragon with passive Perception 21 and was hidden. A
    foe whose passive Perception meets the Stealth check notices the hider."""
    ok(gm, "next")  # Wren's turn; the wyrm's passive Perception is its stat block's
    out = ok(gm, "act", "wren", "hide", "--dice", "2")  # 2 + Stealth: under the wyrm's
    assert "not hidden: Wyrm notices (passive Perception" in out, out
    assert "hidden" not in next(x for x in ok(gm, "status").splitlines() if " Wren " in x)


def test_srd_85_a_stealth_check_above_every_foes_passive_perception_hides(gm):
    ok(gm, "remove", "wyrm", "-m", "flew off")
    ok(gm, "next")
    out = ok(gm, "act", "wren", "hide", "--dice", "19")
    assert "Wren is hidden" in out and "notices" not in out, out


def test_srd_39_a_shield_declared_against_an_attack_that_misses_is_not_needed(gm):
    """An outside table tester's TV read "Ilse chooses shield; ... miss" and the table
    thought a slot spent: the step says the shield was not needed, the reaction kept."""
    ok(gm, "next")
    ok(gm, "next")  # G1's turn
    out = ok(gm, "act", "g1", "attack", "ilse", "-w", "scimitar", "--defence", "ilse=shield",
             "--dice", "2")  # fmt: skip
    assert "shield: not needed, the attack misses; the reaction is kept" in out, out
    assert next(x for x in ok(gm, "status").splitlines() if " Ilse " in x).endswith(" ready")
