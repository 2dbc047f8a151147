"""An outside 5e tester's refusals (issue 40), through the CLI as the GM types it: each
says in one line what was wrong and what to do next, exits non-zero and appends nothing;
an option the attack cannot use is refused, not dropped."""

from pathlib import Path

import pytest
from srd_cli import Gm, chapel, fight, monster, ok, refused, sample


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    """Brannoc (longsword, a thrown handaxe), then Ilse (a wizard: fire bolt, shield), then
    two bestiary goblins of 7 hit points."""
    return fight(
        tmp_path / "yard.db", "The yard", "20,14,5,3",
        sample("brannoc", "fighter", "Brannoc"),
        sample("ilse", "wizard", "Ilse"),
        [*monster("goblin", "goblin"), "--count", "2"],
    )  # fmt: skip


def killed(gm: Gm) -> None:
    """Brannoc's longsword drops Goblin 1 (8 + 3 = 11 of its 7), and his turn ends."""
    dead = ok(gm, "act", "brannoc", "attack", "goblin-1", "-w", "longsword", "--dice", "18,8")
    assert "Goblin 1 is dead" in dead, dead
    ok(gm, "next")


def test_srd_13_the_dead_neither_act_nor_are_targets_and_the_refusal_says_what_to_do(gm):
    killed(gm)
    said = refused(gm, "act", "goblin-1", "attack", "ilse", "--dice", "15,3")
    assert said == (
        "Error: Goblin 1 is dead: the dead take no actions or reactions; act with another "
        "creature, or if its death was a mistake, `fracas undo` the step that killed it"
    ), said
    said = refused(gm, "act", "ilse", "attack", "goblin-1", "-w", "dagger", "--dice", "15,3")
    assert said == (
        "Error: Goblin 1 is dead: pick a living target, or if its death was a mistake, "
        "`fracas undo` the step that killed it"
    ), said
    said = refused(gm, "act", "ilse", "cast", "goblin-1", "-o", "spell=fire bolt")
    assert said == (
        "Error: Goblin 1 is dead: fire bolt at it would do nothing; pick a living target, "
        "or if its death was a mistake, `fracas undo` the step that killed it"
    ), said
    said = refused(gm, "act", "goblin-1", "save", "dex", "--dc", "12", "-o", "fail=prone")
    assert said.startswith("Error: Goblin 1 is dead: the dead take no actions"), said
    said = refused(gm, "heal", "goblin-1", "3")
    assert said == (
        "Error: Goblin 1 is dead; healing does not bring back the dead: if the GM rules it "
        "alive, `fracas condition clear goblin-1 dead` first"
    ), said
    ok(gm, "condition", "clear", "goblin-1", "dead")
    assert "Goblin 1 regains 3 hit points" in ok(gm, "heal", "goblin-1", "3")


def test_srd_50_shield_with_no_slot_left_says_to_give_the_attack_without_it(tmp_path: Path):
    gm = fight(
        tmp_path / "road.db", "The road", "20,5",
        monster("goblin", "goblin"),
        [*sample("ilse", "wizard", "Ilse"), "--set", "slots=[0]"],
    )  # fmt: skip
    said = refused(gm, "act", "goblin", "attack", "ilse", "--defence", "ilse=shield",
                   "--dice", "14,3")  # fmt: skip
    assert said == (
        "Error: Ilse has no spell slot left for shield (srd-50); nothing was recorded: give it "
        "again without --defence ilse=shield"
    ), said
    ok(gm, "act", "goblin", "attack", "ilse", "--dice", "14,3")  # as it says: she takes it


def test_srd_81_no_guidance_to_spend_says_who_can_cast_it_or_to_roll_without(
    gm: Gm, tmp_path: Path
):
    said = refused(gm, "act", "brannoc", "spend", "guidance")
    assert said == (
        "Error: Brannoc has no guidance to spend (srd-81, srd-82): nobody in this fight can "
        "cast guidance: the roll stands"
    ), said
    said = refused(gm, "act", "brannoc", "check", "athletics", "--dc", "15", "-o",
                   "spend=guidance", "--dice", "10")  # fmt: skip
    assert said == (
        "Error: Brannoc has no guidance to add to an ability check (srd-81, srd-82): nobody "
        "in this fight can cast guidance; roll without -o spend=guidance"
    ), said
    church = chapel(tmp_path)  # Maelis knows guidance and resistance
    said = refused(church, "act", "brannoc", "spend", "guidance")
    assert said == (
        "Error: Brannoc has no guidance to spend (srd-81, srd-82): have Maelis cast guidance "
        "on Brannoc before the roll: `fracas act maelis cast brannoc -o spell=guidance`"
    ), said
    said = refused(church, "act", "brannoc", "save", "con", "--dc", "12", "-o",
                   "spend=resistance", "--dice", "5")  # fmt: skip
    assert said == (
        "Error: Brannoc has no resistance to add to a saving throw (srd-81, srd-82): roll "
        "without -o spend=resistance, or have Maelis cast resistance on Brannoc before the "
        "roll: `fracas act maelis cast brannoc -o spell=resistance`"
    ), said


def test_srd_21_a_shove_at_a_creature_too_large_names_both_sizes_and_what_to_do(tmp_path: Path):
    gm = fight(
        tmp_path / "peak.db", "The peak", "20,2",
        sample("brannoc", "fighter", "Brannoc"),
        monster("dragon", "adult-red-dragon"),
    )  # fmt: skip
    said = refused(gm, "act", "brannoc", "shove", "dragon", "--dice", "15,3")
    assert said == (
        "Error: Adult Red Dragon (huge) is more than one size larger than Brannoc (medium) "
        "(srd-21): Brannoc can shove a creature of large size or smaller; attack it instead"
    ), said
    said = refused(gm, "act", "brannoc", "grapple", "dragon", "--dice", "15,3")
    assert said.startswith("Error: Adult Red Dragon (huge) is more than one size larger"), said
    assert "(srd-20): Brannoc can grapple a creature of large size or smaller" in said, said


def test_srd_17_a_range_said_of_a_melee_attack_is_refused_not_dropped(gm: Gm):
    said = refused(gm, "act", "brannoc", "attack", "goblin-1", "-w", "longsword",
                   "-o", "range=long", "--dice", "18,8")  # fmt: skip
    assert said == (
        "Error: longsword has no long range: it is a melee weapon, and -o range=long is for a "
        "ranged attack (srd-17); give the attack again without it"
    ), said
    said = refused(gm, "act", "brannoc", "attack", "goblin-1", "-w", "handaxe", "-o",
                   "range=long", "-o", "within_5ft=true", "--dice", "18,5")  # fmt: skip
    assert said == (
        "Error: handaxe is swung within 5 feet, so not at long range (srd-17): give the attack "
        "again with -o within_5ft=false to throw it, or without -o range=long"
    ), said
    # a handaxe at long range, nothing said of 5 feet, is thrown: disadvantage, 18 and 2
    thrown = ok(gm, "act", "brannoc", "attack", "goblin-1", "-w", "handaxe", "-o",
                "range=long", "--dice", "18,2")  # fmt: skip
    assert "disadvantage: beyond normal range" in thrown, thrown
    assert "Brannoc attacks Goblin 1: misses" in thrown, thrown


def test_srd_17_a_long_range_said_of_a_spell_attack_is_refused_a_spell_has_one_range(gm: Gm):
    """srd-17's long range is a weapon's: a spell has one range, so `-o range=long` on a
    ranged spell attack (fire bolt) is refused, never played as disadvantage."""
    ok(gm, "next")  # Ilse's turn
    said = refused(gm, "act", "ilse", "cast", "goblin-1", "-o", "spell=fire bolt",
                   "-o", "range=long", "--dice", "18,5")  # fmt: skip
    assert said == (
        "Error: fire bolt has one range and no long range (a weapon's, srd-17): give the "
        "spell again without -o range=long"
    ), said
    cast = ok(gm, "act", "ilse", "cast", "goblin-1", "-o", "spell=fire bolt", "--dice", "18,5")
    assert "disadvantage" not in cast and "Ilse casts fire bolt on Goblin 1: hits" in cast, cast


def test_a_spell_missing_from_the_sheet_of_one_in_the_fight_never_says_to_add_them(gm: Gm):
    ok(gm, "next")  # Ilse's turn: she is in the fight, and no party member
    said = refused(gm, "act", "ilse", "cast", "goblin-1", "-o", "spell=bless")
    assert said == (
        "Error: bless is a spell srd plays, but not on Ilse's sheet (its spells: fire bolt, "
        "magic missile, burning hands, shield, absorb elements, hellish rebuke, mage armor): "
        'cast one of those, or name it with [[spells]] name = "bless" (srd fills in the rest), '
        "in their sheet file, read when Ilse joins a later fight"
    ), said
    assert "fracas add" not in said, said
