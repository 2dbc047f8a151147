"""Guidance and resistance (srd-81, srd-82), cast and spent as a GM types them: a d4 added
to one ability check (guidance) or one saving throw (resistance) of the creature touched,
then the spell ends, and the caster's concentration with it; hunter's mark (srd-83), a d6
on the caster's weapon hits on its quarry alone."""

import json
from pathlib import Path

import pytest
from srd_cli import SAMPLES, Gm, fight, ok, refused, status_row
from srd_cli import chapel as chapel_at


@pytest.fixture
def chapel(tmp_path: Path) -> Gm:
    return chapel_at(tmp_path)


def test_srd_81_guidance_adds_a_d4_to_the_check_its_target_chooses_then_ends(chapel):
    """The d4 is the target's to add to one ability check of its choosing: a check without
    `-o spend=guidance` keeps it, and says so; the one that spends it adds it, and the
    spell and the caster's concentration end."""
    cast = ok(chapel, "act", "maelis", "cast", "brannoc", "-o", "spell=guidance")
    assert "Brannoc is under guidance" in cast, cast
    assert "concentrating" in status_row(chapel, "Maelis")
    # issue 40: a player character's choice is "their", and the spell is named once
    said = "Brannoc is under guidance for 10 rounds: 1d4 added to one ability check of their choice"
    assert f"{said} [" in cast and "guidance: guidance" not in cast, cast
    kept = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "18", "--dice", "10")
    # issue 40: the d4 kept is no term of the roll's sum ("+0 guidance's 1d4 kept ...")
    [rolled] = [line for line in kept.splitlines() if "rolls d20" in line]
    assert "guidance" not in rolled and "+0" not in rolled, kept
    assert "Brannoc may still spend guidance on this ability check" in kept, kept
    assert "-o spend" not in kept, kept  # a fact the phones and the TV read: no command in it
    assert "under guidance" in status_row(chapel, "Brannoc"), kept
    # Brannoc (Str 16, +3, proficient in Athletics +2) rolls 10, and guidance's d4 a 3: 18
    first = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "18", "-o",
               "spend=guidance", "--dice", "10,3")  # fmt: skip
    assert "guidance" in first and "18" in first, first
    assert "under guidance" not in status_row(chapel, "Brannoc"), first
    assert "concentrating" not in status_row(chapel, "Maelis"), first
    # the next check has no d4: one die typed is all it asks for
    again = ok(chapel, "act", "brannoc", "check", "athletics", "--dc", "18", "--dice", "10")
    assert "guidance" not in again, again
    said = refused(chapel, "act", "brannoc", "check", "athletics", "-o", "spend=guidance")
    assert said == (
        "Error: Brannoc has no guidance to add to an ability check (srd-81, srd-82): roll "
        "without -o spend=guidance, or have Maelis cast guidance on Brannoc before the roll: "
        "`fracas act maelis cast brannoc -o spell=guidance`"
    ), said


def test_srd_82_resistance_adds_a_d4_to_the_save_its_target_chooses_then_ends(chapel):
    cast = ok(chapel, "act", "maelis", "cast", "brannoc", "-o", "spell=resistance")
    said = "Brannoc is under resistance for 10 rounds: 1d4 added to one saving throw of "
    said += "their choice"
    assert f"{said} [" in cast, cast
    assert "resistance: resistance" not in cast, cast
    kept = ok(chapel, "act", "brannoc", "save", "con", "--dc", "12", "--dice", "8")
    [rolled] = [line for line in kept.splitlines() if "rolls d20" in line]
    assert "resistance" not in rolled and "+0" not in rolled, kept
    assert "under resistance" in status_row(chapel, "Brannoc"), kept
    # not a check's: guidance is spent on a check, resistance on a save
    said = refused(chapel, "act", "brannoc", "check", "athletics", "-o", "spend=resistance")
    assert said == (
        "Error: Brannoc has no resistance to add to an ability check (srd-81, srd-82): "
        "resistance is spent on a saving throw; roll without -o spend=resistance"
    ), said
    saved = ok(chapel, "act", "brannoc", "save", "con", "--dc", "12", "-o", "spend=resistance",
               "--dice", "8,4")  # fmt: skip
    assert "resistance" in saved, saved
    assert "under resistance" not in status_row(chapel, "Brannoc"), saved
    plain = ok(chapel, "act", "brannoc", "save", "con", "--dc", "12", "--dice", "8")
    assert "resistance" not in plain, plain


def test_a_spell_under_which_a_creature_is_is_named_once(chapel):
    """Issue 40: "Brannoc is under bless for 10 rounds: bless" named the spell twice."""
    cast = ok(chapel, "act", "maelis", "cast", "brannoc", "-o", "spell=bless")
    assert "Brannoc is under bless for 10 rounds [srd-32" in cast, cast


@pytest.fixture
def hunt(tmp_path: Path) -> Gm:
    """Maelis, who knows hunter's mark, acts first; then two goblins of 60 hit points."""
    sheet = tmp_path / "maelis.toml"
    cleric = (SAMPLES / "cleric.toml").read_text()
    sheet.write_text(cleric + '\n[[spells]]\nname = "hunter\'s mark"\n')
    joins = ["add", "maelis", "--sheet", str(sheet), "--side", "pc", "--name", "Maelis"]
    gobs = [
        ["add", g, "--monster", "goblin", "--side", "npc", "--set", "hp=60"] for g in ("g1", "g2")
    ]
    return fight(tmp_path / "hunt.db", "The hunt", "19,2,1", joins, *gobs)


def hp(gm: Gm, who: str) -> int:
    wounds = json.loads(ok(gm, "status", "--json"))["wounds"]
    return next(w["current"] for w in wounds if w["combatant"] == who)


def test_srd_83_hunters_mark_adds_a_d6_to_the_casters_weapon_hits_on_its_quarry_alone(hunt):
    cast = ok(hunt, "act", "maelis", "cast", "g1", "-o", "spell=hunter's mark")
    assert "bonus action" in cast or "hunter's mark" in cast, cast
    # the mace: 1d6 [4] + Str +1, and the mark's 1d6 [5]: 10
    hit = ok(hunt, "act", "maelis", "attack", "g1", "-w", "mace", "--dice", "18,4,5")
    assert "hunter's mark" in hit and hp(hunt, "g1") == 50, hit
    ok(hunt, "next")
    ok(hunt, "next")
    ok(hunt, "next")  # Maelis's turn again
    other = ok(hunt, "act", "maelis", "attack", "g2", "-w", "mace", "--dice", "18,4")
    assert "hunter's mark" not in other and hp(hunt, "g2") == 55, other
