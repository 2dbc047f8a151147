"""The spells the bestiary's casters list most, played through the CLI as a GM types them:
mage armor (srd-44), misty step (srd-45), invisibility (srd-46), counterspell (srd-47); each
refused where it does not apply, and listed as playable in the stat block."""

import json
from pathlib import Path
from typing import Any

import pytest
from fracas.projections.phones import controls
from srd_cli import SAMPLES, Gm, fight, monster, ok, refused, sample

from fracas_srd.bestiary import load
from fracas_srd.ruleset import RULESET


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    """An archmage of the bestiary (acting first) against Brannoc, in chain mail."""
    return fight(
        tmp_path / "tower.db", "The archmage's tower", "19,2",
        monster("arch", "archmage"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip


def row(gm: Gm, who: str) -> dict[str, Any]:
    """The creature as `status --json` shows it: its AC, hit points, conditions."""
    wounds = json.loads(ok(gm, "status", "--json"))["wounds"]
    found = next(w for w in wounds if w["combatant"] == who)
    conditions = " ".join(map(str, found["conditions"]))
    return {"ac": found["detail"]["ac"], "hp": found["current"], "conditions": conditions}


def brannocs_turn(gm: Gm) -> None:
    ok(gm, "next")


def test_srd_44_mage_armor_makes_an_unarmoured_caster_s_ac_13_plus_dex(gm):
    assert row(gm, "arch")["ac"] == 12  # 10 + Dex
    cast = ok(gm, "act", "arch", "cast", "arch", "-o", "spell=mage armor")
    assert "Archmage spends a 1st-level spell slot: 3 of 4 left" in cast
    assert "Archmage is under mage armor for 4800 rounds" in cast  # 8 hours
    assert row(gm, "arch")["ac"] == 15 and "under mage armor" in row(gm, "arch")["conditions"]
    brannocs_turn(gm)
    swing = ok(gm, "act", "brannoc", "attack", "arch", "-w", "longsword", "--dice", "9")
    assert "-> miss (14 vs AC 15)" in swing and "mage armor: AC 15 (srd-44)" in swing


def test_srd_44_mage_armor_is_refused_on_a_creature_wearing_armour(gm):
    said = refused(gm, "act", "arch", "cast", "brannoc", "-o", "spell=mage armor")
    assert said == (
        "Error: mage armor is for a creature wearing no armour; Brannoc wears armour (its "
        "sheet's wears_armour; srd-44)"
    )


def test_srd_45_misty_step_is_a_bonus_action_that_frees_from_a_grapple_with_no_movement(gm):
    ok(gm, "condition", "set", "arch", "grappled")
    cast = ok(gm, "act", "arch", "cast", "-o", "spell=misty step")
    assert "Archmage spends 1 bonus action: cast" in cast
    assert "Archmage spends a 2nd-level spell slot: 2 of 3 left" in cast
    assert "Archmage teleports up to 30 feet to a space it can see: no movement spent" in cast
    assert "Archmage is no longer grappled: teleported out of the grappler's reach" in cast
    assert "grappled" not in row(gm, "arch")["conditions"]
    ok(gm, "act", "arch", "move", "30")  # its speed is all still there


def test_srd_45_misty_step_moves_its_caster_only_and_keeps_srd_3s_bonus_action_rule(gm):
    said = refused(gm, "act", "arch", "cast", "brannoc", "-o", "spell=misty step")
    assert said == "Error: misty step is on its caster only: name no target, or arch (range: self)"
    ok(gm, "act", "arch", "cast", "-o", "spell=misty step")
    said = refused(gm, "act", "arch", "cast", "arch", "-o", "spell=invisibility")
    assert "invisibility is not (srd-3)" in said


def test_srd_46_invisibility_hides_its_target_until_it_casts_and_ends_the_concentration(gm):
    cast = ok(gm, "act", "arch", "cast", "arch", "-o", "spell=invisibility")
    assert "Archmage is invisible for 600 rounds: invisibility" in cast  # 1 hour
    assert "Archmage is concentrating for 600 rounds: on invisibility" in cast
    brannocs_turn(gm)
    swing = ok(gm, "act", "brannoc", "attack", "arch", "-w", "longsword", "--dice", "18,3")
    assert "Archmage is invisible" in swing and "-> miss" in swing  # the lower d20, 3
    ok(gm, "next")
    darts = ok(gm, "act", "arch", "cast", "brannoc", "-o", "spell=magic missile", "--dice", "1,1,1")
    assert "Archmage is no longer invisible: Archmage casts a spell: invisibility ends" in darts
    assert "Archmage is no longer concentrating" in darts
    assert "invisible" not in row(gm, "arch")["conditions"]


def test_srd_46_invisibility_ends_as_its_target_attacks(gm):
    ok(gm, "act", "arch", "cast", "arch", "-o", "spell=invisibility")
    brannocs_turn(gm)
    ok(gm, "next")
    stab = ok(gm, "act", "arch", "attack", "brannoc", "-w", "dagger", "--dice", "20,20,3,3")
    assert "Archmage is no longer invisible: Archmage attacks: invisibility ends" in stab
    assert "Archmage is invisible" in stab  # the attack itself still had advantage (srd-27)


def test_the_stat_block_lists_them_as_played(gm):
    block = ok(gm, "monsters", "archmage", "--show")
    played = next(line for line in block.splitlines() if line.startswith("2nd level"))
    assert "invisibility" in played and "misty step" in played
    unplayed = next(line for line in block.splitlines() if line.startswith("Not played"))
    assert "counterspell" in next(x for x in block.splitlines() if x.startswith("3rd level"))
    assert not {"mage armor", "misty step", "invisibility", "counterspell"} & set(
        name.split(" (")[0].strip() for name in unplayed.removeprefix("Not played here").split(", ")
    )
    assert "mage armor" in next(x for x in block.splitlines() if x.startswith("1st level"))


@pytest.fixture
def duel(tmp_path: Path) -> Gm:
    """A mage of the bestiary (acting first, on the players' side) against an archmage;
    Brannoc stands by, and an Ashen Wyrm."""
    return fight(
        tmp_path / "duel.db", "The duel", "19,2,1,1",
        monster("mage", "mage", "pc"), monster("arch", "archmage"),
        sample("brannoc", "fighter", "Brannoc"), sample("wyrm", "wyrm", "Ashen Wyrm", "npc"),
    )  # fmt: skip


def test_srd_47_counterspell_stops_a_spell_of_its_level_or_lower_with_no_roll(duel):
    cast = ok(duel, "act", "mage", "cast", "brannoc", "-o", "spell=fireball",
              "--defence", "arch=counterspell")  # fmt: skip
    assert "Mage spends a 3rd-level spell slot: 2 of 3 left" in cast  # the slot is spent
    assert "Archmage spends 1 reaction: counterspell" in cast
    assert "Archmage spends a 3rd-level spell slot: 2 of 3 left" in cast
    assert "fireball (a 3rd-level spell) is countered by counterspell at 3rd level [srd-47" in cast
    assert "damage" not in cast and "save" not in cast
    assert row(duel, "brannoc")["hp"] == 28


def test_srd_47_a_higher_spell_is_countered_on_a_check_dc_10_plus_its_level(duel):
    cone = ("act", "mage", "cast", "brannoc", "-o", "spell=cone of cold", "--defence",
            "arch=counterspell")  # fmt: skip
    stopped = ok(duel, *cone, "--dice", "10")  # 10 + Int 5 = 15: DC 10 + 5 met
    assert "Archmage rolls d20 for Intelligence check (DC 15): 10 +5 = 15" in stopped
    assert "cone of cold (a 5th-level spell) is countered [srd-47" in stopped
    assert row(duel, "brannoc")["hp"] == 28
    ok(duel, "undo")
    failed = ok(duel, *cone, "--dice", "9,1" + ",1" * 8)  # 14: the cone goes on, 8 cold
    assert "cone of cold (a 5th-level spell) goes on: counterspell fails" in failed
    assert row(duel, "brannoc")["hp"] == 28 - 8


def test_srd_47_counterspell_is_refused_where_it_cannot_answer(duel):
    said = refused(duel, "act", "mage", "cast", "brannoc", "-o", "spell=fire bolt",
                   "--defence", "mage=counterspell")  # fmt: skip
    assert said == "Error: Mage cannot answer its own spell with counterspell"
    ok(duel, "act", "mage", "cast", "brannoc", "-o", "spell=fire bolt", "--defence",
       "arch=counterspell")  # fmt: skip
    said = refused(duel, "act", "mage", "cast", "brannoc", "-o", "spell=misty step",
                   "--defence", "arch=counterspell")  # fmt: skip
    assert "Archmage has already used its reaction since its last turn began (srd-4)" in said
    for _ in range(3):
        ok(duel, "next")  # the wyrm's turn: its breath is no spell
    said = refused(duel, "act", "wyrm", "cast", "brannoc", "-o", "spell=fire breath",
                   "--defence", "mage=counterspell")  # fmt: skip
    assert said == "Error: fire breath is Ashen Wyrm's own ability, no spell: no counter"


def test_srd_47_a_player_asked_is_offered_counterspell_though_not_a_target(duel):
    asked = ok(duel, "act", "mage", "cast", "brannoc", "-o", "spell=fireball", "--ask")
    assert "waits for Archmage's reaction (none | counterspell)" in asked
    answered = ok(duel, "answer", "arch", "counterspell")
    assert "fireball (a 3rd-level spell) is countered by counterspell at 3rd level" in answered


def test_srd_46_greater_invisibility_lasts_through_the_target_s_own_spells(duel):
    cast = ok(duel, "act", "mage", "cast", "mage", "-o", "spell=greater invisibility")
    assert "Mage spends a 4th-level spell slot: 2 of 3 left" in cast
    assert "Mage is invisible for 10 rounds: greater invisibility" in cast
    for _ in range(4):
        ok(duel, "next")
    bolt = ok(duel, "act", "mage", "cast", "arch", "-o", "spell=fire bolt", "--dice", "5,15,1,1")
    assert "Mage is invisible" in bolt and "no longer invisible" not in bolt
    assert "invisible" in row(duel, "mage")["conditions"]


@pytest.fixture
def cave(tmp_path: Path) -> Gm:
    """A drow of the bestiary (acting first) against a deep gnome, both with innate spells."""
    return fight(
        tmp_path / "cave.db", "The cave", "19,2",
        monster("drow", "drow"), monster("gnome", "deep gnome (svirfneblin)", "pc"),
    )  # fmt: skip


def attack_on_gnome(cave: Gm, *faces: int) -> str:
    """The drow's shortsword at the gnome, on its next turn: the attack roll's line."""
    ok(cave, "next")
    ok(cave, "next")
    dice = ",".join(map(str, faces))
    said = ok(cave, "act", "drow", "attack", "gnome", "-w", "shortsword", "--dice", dice)
    return next(line for line in said.splitlines() if " for attack on " in line)


def test_srd_48_faerie_fire_outlines_a_creature_that_fails_its_dex_save(cave):
    ok(cave, "condition", "set", "gnome", "invisible")
    cast = ok(cave, "act", "drow", "cast", "gnome", "-o", "spell=faerie fire", "--dice", "3")
    assert "Dexterity saving throw against faerie fire (DC 11): 3 +2 = 5" in cast
    assert "Deep Gnome (Svirfneblin) is under faerie fire for 10 rounds" in cast
    assert "Drow is concentrating for 10 rounds: on faerie fire" in cast
    swing = attack_on_gnome(cave, 2, 15, 3)  # advantage: the higher d20
    assert "advantage: Deep Gnome (Svirfneblin): faerie fire (srd-33)" in swing
    assert "is invisible" not in swing  # outlined, it has no benefit of it


def test_srd_48_faerie_fire_saved_against_outlines_nobody(cave):
    cast = ok(cave, "act", "drow", "cast", "gnome", "-o", "spell=faerie fire", "--dice", "15")
    assert "Drow casts faerie fire: holds nobody: no concentration" in cast
    assert "faerie fire" not in row(cave, "gnome")["conditions"]


def test_srd_48_blur_is_on_its_caster_only_and_gives_attacks_on_it_disadvantage(cave):
    ok(cave, "next")
    said = refused(cave, "act", "gnome", "cast", "drow", "-o", "spell=blur")
    assert said == "Error: blur is on its caster only: name no target, or gnome (range: self)"
    cast = ok(cave, "act", "gnome", "cast", "-o", "spell=blur")
    assert "Deep Gnome (Svirfneblin) spends 1 innate use: blur" in cast
    assert "Deep Gnome (Svirfneblin) is under blur for 10 rounds" in cast
    ok(cave, "next")
    swing = ok(cave, "act", "drow", "attack", "gnome", "-w", "shortsword", "--dice", "18,3")
    assert "disadvantage: Deep Gnome (Svirfneblin): blur (srd-33)" in swing
    assert "-> miss" in swing  # the lower d20, 3


@pytest.fixture
def lair(tmp_path: Path) -> Gm:
    """A dust mephit of the bestiary (acting first, sleep once a day) against a goblin
    (7 HP), a skeleton (undead) and Brannoc (28 HP)."""
    return fight(
        tmp_path / "lair.db", "The dusty lair", "19,5,3,1",
        monster("mephit", "dust mephit"), sample("gob", "goblin", "Goblin"),
        sample("bones", "skeleton", "Bones"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip


def test_srd_49_sleep_spends_its_dice_of_hit_points_from_the_fewest_up(lair):
    cast = ok(lair, "act", "mephit", "cast", "brannoc", "bones", "gob", "-o", "spell=sleep",
              "--dice", "3,3,3,3,3")  # fmt: skip
    assert "Dust Mephit spends 1 innate use: sleep" in cast
    assert "Dust Mephit rolls 5d8 for sleep: 3+3+3+3+3 -> 15 on 5d8" in cast
    assert "Goblin is unconscious for 10 rounds: sleep" in cast
    assert "Goblin is prone: falls unconscious" in cast
    assert "Bones is undead: not affected" in cast
    assert "Brannoc's 28 hit points are more than the 8 left" in cast
    assert row(lair, "brannoc")["conditions"] == row(lair, "bones")["conditions"] == ""


def test_srd_49_damage_wakes_the_sleeper_who_stays_prone(lair):
    ok(lair, "act", "mephit", "cast", "gob", "-o", "spell=sleep", "--dice", "1,1,1,1,3")
    assert "unconscious" in row(lair, "gob")["conditions"]
    woken = ok(lair, "harm", "gob", "1")
    assert "Goblin is no longer unconscious: damage wakes it: sleep ends" in woken
    assert row(lair, "gob")["conditions"] == "prone"


def test_srd_49_sleep_falls_short_of_a_creature_with_more_hit_points(lair):
    cast = ok(lair, "act", "mephit", "cast", "gob", "-o", "spell=sleep", "--dice", "1,1,1,1,2")
    assert "Goblin's 7 hit points are more than the 6 left" in cast
    assert row(lair, "gob")["conditions"] == ""


@pytest.fixture
def crypt(tmp_path: Path) -> Gm:
    """A mage of the bestiary (acting first, on the players' side) against a lich, with
    Brannoc."""
    return fight(
        tmp_path / "crypt.db", "The lich's crypt", "19,2,1",
        monster("mage", "mage", "pc"), monster("lich", "lich"),
        sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip


def test_srd_64_dispel_magic_ends_a_spell_of_3rd_level_or_lower_with_no_roll(crypt):
    ok(crypt, "act", "mage", "cast", "mage", "-o", "spell=mage armor")
    assert row(crypt, "mage")["ac"] == 15
    ok(crypt, "next")
    cast = ok(crypt, "act", "lich", "cast", "mage", "-o", "spell=dispel magic")
    assert (
        "Mage is no longer under mage armor: dispel magic ends mage armor (a 1st-level spell)"
        in cast
    )
    assert row(crypt, "mage")["ac"] == 12


def test_srd_64_a_higher_spell_ends_on_a_check_dc_10_plus_its_level(crypt):
    ok(crypt, "act", "mage", "cast", "mage", "-o", "spell=greater invisibility")
    ok(crypt, "next")
    dispel = ("act", "lich", "cast", "mage", "-o", "spell=dispel magic")
    held = ok(crypt, *dispel, "--dice", "8")  # 8 + Int 5 = 13 vs DC 14
    assert "Lich rolls d20 for Intelligence check (DC 14): 8 +5 = 13" in held
    assert "greater invisibility (a 4th-level spell) holds on Mage" in held
    assert "invisible" in row(crypt, "mage")["conditions"]
    ok(crypt, "undo")
    ended = ok(crypt, *dispel, "--dice", "9")
    assert (
        "Mage is no longer invisible: dispel magic ends greater invisibility (a 4th-level spell)"
        in ended
    )
    assert (
        "Mage is no longer concentrating: greater invisibility has ended on every target" in ended
    )
    ok(crypt, "undo")
    upcast = ok(crypt, *dispel, "-o", "level=4")  # a 4th-level slot ends it with no check
    assert "check" not in upcast and "ends greater invisibility (a 4th-level spell)" in upcast


def test_srd_64_dispel_magic_is_refused_on_a_creature_with_no_spell_on_it(crypt):
    ok(crypt, "condition", "set", "brannoc", "frightened")  # the GM's, no spell's
    ok(crypt, "next")
    said = refused(crypt, "act", "lich", "cast", "brannoc", "-o", "spell=dispel magic")
    assert said == "Error: Brannoc has no spell on it for dispel magic to end (srd-64)"


def test_srd_65_banishment_takes_its_target_out_of_the_fight_while_it_lasts(gm):
    ok(gm, "add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--dice", "1")
    cast = ok(gm, "act", "arch", "cast", "brannoc", "-o", "spell=banishment", "--dice", "3")
    assert "Charisma saving throw against banishment (DC 17): 3 vs 17" in cast
    assert "Brannoc is removed for 10 rounds: banishment" in cast
    assert "Archmage is concentrating for 10 rounds: on banishment" in cast
    assert "Round 1: wren to act" in ok(gm, "next")  # initiative 4, Brannoc's 3
    said = refused(gm, "act", "wren", "attack", "brannoc", "-w", "shortsword")
    assert said == (
        "Error: Brannoc was removed from the fight: `fracas return brannoc` brings them back"
    )
    assert "Round 2: Archmage to act" in ok(gm, "next")  # Brannoc's turn is skipped
    ok(gm, "next")
    stab = ok(gm, "act", "wren", "attack", "arch", "-w", "shortsword", "--dice", "18,6,3")
    assert "Archmage is no longer concentrating: failed the concentration save" in stab
    assert "Brannoc is no longer removed: Archmage's concentration ends" in stab


def test_srd_65_banishment_saved_against_banishes_nobody(gm):
    cast = ok(gm, "act", "arch", "cast", "brannoc", "-o", "spell=banishment", "--dice", "17")
    assert "Archmage casts banishment: holds nobody: no concentration" in cast
    assert row(gm, "brannoc")["conditions"] == ""


def test_srd_66_fly_gives_a_flying_speed_of_60_feet_while_it_lasts(gm):
    said = refused(gm, "act", "arch", "move", "60")
    assert "Archmage has 30 feet of movement left this turn (speed 30" in said
    cast = ok(gm, "act", "arch", "cast", "arch", "-o", "spell=fly")
    assert "Archmage is under fly for 100 rounds [srd-" in cast  # 10 minutes
    assert "Archmage is concentrating for 100 rounds: on fly" in cast
    assert "moving 60 feet, 0 feet left" in ok(gm, "act", "arch", "move", "60")
    said = refused(gm, "act", "arch", "move", "5")
    assert "0 feet of movement left this turn (speed 60, 60 spent" in said


def test_srd_66_fly_takes_one_target_and_one_more_a_slot_level(gm):
    said = refused(gm, "act", "arch", "cast", "arch", "brannoc", "-o", "spell=fly")
    assert said == "Error: fly takes one target, not 2 (srd-51)"
    ok(gm, "act", "arch", "cast", "arch", "brannoc", "-o", "spell=fly", "-o", "level=4")
    assert "under fly" in row(gm, "brannoc")["conditions"]


@pytest.fixture
def oni(tmp_path: Path) -> Gm:
    """An oni of the bestiary (acting first, charm person once a day) against Brannoc, with
    a wolf (a beast) on Brannoc's side."""
    return fight(
        tmp_path / "oni.db", "The oni's bridge", "19,2,1",
        monster("oni", "oni"), sample("brannoc", "fighter", "Brannoc"),
        sample("wolf", "wolf", "Wolf"),
    )  # fmt: skip


def test_srd_67_charm_person_a_foe_saves_with_advantage_then_cannot_attack_its_charmer(oni):
    cast = ok(oni, "act", "oni", "cast", "brannoc", "-o", "spell=charm person", "--dice", "3,5")
    assert "Wisdom saving throw against charm person (DC 13): 5 [dropped 3]" in cast
    assert "advantage: Oni's side is fighting Brannoc (srd-67)" in cast
    assert "Brannoc is charmed for 600 rounds: charm person" in cast  # 1 hour
    ok(oni, "next")
    ok(oni, "next")  # Brannoc's turn
    said = refused(oni, "act", "brannoc", "attack", "oni", "-w", "longsword")
    assert said == (
        "Error: Brannoc is charmed by Oni (charm person): Brannoc cannot attack Oni (srd-67)"
    )


def test_srd_67_charm_person_ends_as_its_caster_harms_the_charmed(oni):
    ok(oni, "act", "oni", "cast", "brannoc", "-o", "spell=charm person", "--dice", "3,5")
    for _ in range(3):
        ok(oni, "next")  # the oni's next turn
    cut = ok(oni, "act", "oni", "attack", "brannoc", "-w", "glaive", "--dice", "15,1,1")
    assert "Brannoc is no longer charmed: Oni harms Brannoc: charm person ends" in cut
    assert "charmed" not in row(oni, "brannoc")["conditions"]


def test_srd_67_charm_person_is_refused_on_a_creature_not_humanoid(oni):
    said = refused(oni, "act", "oni", "cast", "wolf", "-o", "spell=charm person")
    assert said == "Error: charm person affects humanoids only; Wolf is a beast"


def test_srd_68_flame_strike_deals_fire_and_radiant_each_resisted_by_its_type(tmp_path):
    naga = fight(
        tmp_path / "temple.db", "The naga's temple", "19,2,1",
        monster("naga", "guardian naga"), sample("ilse", "wizard", "Ilse"),
        sample("wren", "rogue", "Wren"),
    )  # fmt: skip
    cast = ok(naga, "act", "naga", "cast", "ilse", "wren", "-o", "spell=flame strike",
              "--dice", "3,15,1,1,1,1,2,2,2,2")  # fmt: skip
    assert "Guardian Naga rolls 4d6 for damage of flame strike: 1+1+1+1 -> 4" in cast
    assert "Guardian Naga rolls 4d6 for radiant damage of flame strike: 2+2+2+2 -> 8" in cast
    assert row(naga, "ilse")["hp"] == 20 - (4 // 2 + 8)  # Ilse resists fire, not radiant
    assert row(naga, "wren")["hp"] == 21 - (4 // 2 + 8 // 2)  # saved: half of each


@pytest.fixture
def grove(tmp_path: Path) -> Gm:
    """A druid of the bestiary (acting first) against Wren, then Brannoc."""
    return fight(
        tmp_path / "grove.db", "The grove", "19,2,1",
        monster("druid", "druid"), sample("brannoc", "fighter", "Brannoc"),
        sample("wren", "rogue", "Wren"),
    )  # fmt: skip


def test_srd_69_entangle_restrains_who_fails_a_str_save_until_a_str_check_frees_it(grove):
    cast = ok(grove, "act", "druid", "cast", "brannoc", "wren", "-o", "spell=entangle",
              "--dice", "3,18")  # fmt: skip
    assert "Brannoc is restrained for 10 rounds: entangle" in cast
    assert "Wren save: saves against entangle" in cast
    ok(grove, "next")
    ok(grove, "next")  # Brannoc's turn
    stuck = ok(grove, "act", "brannoc", "escape", "--dice", "8")
    assert "Brannoc rolls d20 for Strength check (DC 12): 8 +3 = 11" in stuck
    assert "stays restrained: entangle holds" in stuck
    ok(grove, "undo")
    freed = ok(grove, "act", "brannoc", "escape", "--dice", "9")
    assert "Brannoc is no longer restrained: breaks free of entangle" in freed
    assert "Druid is no longer concentrating: entangle has ended on every target" in freed


def test_srd_69_escape_is_refused_to_a_creature_neither_grappled_nor_entangled(grove):
    ok(grove, "next")
    said = refused(grove, "act", "wren", "escape")
    assert said == "Error: Wren is not grappled, nor held by a spell it can break free of"


@pytest.fixture
def chapel(tmp_path: Path) -> Gm:
    """A priest of the bestiary (acting first, on the players' side) and Brannoc."""
    return fight(
        tmp_path / "chapel.db", "The chapel", "19,2",
        monster("priest", "priest", "pc"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip


def test_srd_70_lesser_restoration_ends_the_one_condition_of_its_four(chapel):
    ok(chapel, "act", "brannoc", "save", "con", "--dc", "30", "-o", "fail=poisoned", "--dice", "1")
    cast = ok(chapel, "act", "priest", "cast", "brannoc", "-o", "spell=lesser restoration")
    assert "Priest spends a 2nd-level spell slot: 2 of 3 left" in cast
    assert "Brannoc is no longer poisoned: lesser restoration ends it [srd-70]" in cast
    assert row(chapel, "brannoc")["conditions"] == ""


def test_srd_70_of_several_the_caster_names_which(chapel):
    ok(chapel, "condition", "set", "brannoc", "paralyzed")  # as the SRD's monsters spell it
    ok(chapel, "condition", "set", "brannoc", "blinded")
    said = refused(chapel, "act", "priest", "cast", "brannoc", "-o", "spell=lesser restoration")
    assert said == (
        "Error: Brannoc is paralyzed and blinded: lesser restoration ends one; name it "
        "(-o ends=paralyzed)"
    )
    cast = ok(chapel, "act", "priest", "cast", "brannoc", "-o", "spell=lesser restoration",
              "-o", "ends=paralysed")  # fmt: skip
    assert "Brannoc is no longer paralyzed: lesser restoration ends it" in cast
    assert row(chapel, "brannoc")["conditions"] == "blinded"


def test_srd_70_lesser_restoration_is_refused_on_a_creature_with_none_of_them(chapel):
    ok(chapel, "condition", "set", "brannoc", "frightened")
    said = refused(chapel, "act", "priest", "cast", "brannoc", "-o", "spell=lesser restoration")
    assert said == (
        "Error: Brannoc is not blinded or deafened or paralysed or poisoned: lesser "
        "restoration has none to end"
    )


def test_srd_71_barkskin_keeps_an_ac_of_at_least_16_and_leaves_a_higher_one(grove):
    cast = ok(grove, "act", "druid", "cast", "wren", "-o", "spell=barkskin")
    assert "Wren is under barkskin for 600 rounds [srd-" in cast  # 1 hour
    assert row(grove, "wren")["ac"] == 16  # leather armour's 14 raised
    ok(grove, "next")
    ok(grove, "next")
    ok(grove, "next")  # the druid's next turn: a new concentration ends the first
    ok(grove, "act", "druid", "cast", "brannoc", "-o", "spell=barkskin")
    assert row(grove, "wren")["ac"] == 14
    assert row(grove, "brannoc")["ac"] == 18  # chain mail and a shield: higher already


def test_srd_70_greater_restoration_ends_charmed_or_petrified(tmp_path):
    run = fight(
        tmp_path / "shrine.db", "The shrine", "19,2",
        monster("couatl", "couatl", "pc"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
    ok(run, "condition", "set", "brannoc", "charmed")
    cast = ok(run, "act", "couatl", "cast", "brannoc", "-o", "spell=greater restoration")
    assert "Brannoc is no longer charmed: greater restoration ends it [srd-70]" in cast
    assert row(run, "brannoc")["conditions"] == ""


@pytest.fixture
def nave(tmp_path: Path) -> Gm:
    """A priest of the bestiary (acting first, on the players' side) against a goblin."""
    return fight(
        tmp_path / "nave.db", "The nave", "19,2",
        monster("priest", "priest", "pc"), sample("gob", "goblin", "Goblin", "npc"),
    )  # fmt: skip


def test_srd_72_spiritual_weapon_attacks_as_cast_then_again_as_a_bonus_action(nave):
    cast = ok(nave, "act", "priest", "cast", "gob", "-o", "spell=spiritual weapon",
              "--dice", "3")  # fmt: skip
    assert "Priest spends 1 bonus action: cast" in cast
    assert "Priest spends a 2nd-level spell slot: 2 of 3 left" in cast
    assert "Priest casts spiritual weapon on Goblin: misses" in cast, cast
    assert "Priest is under spiritual weapon for 10 rounds" in cast  # 1 minute
    ok(nave, "act", "priest", "cast", "gob", "-o", "spell=sacred flame", "--dice", "20")
    ok(nave, "next")
    ok(nave, "next")
    again = ok(nave, "act", "priest", "cast", "gob", "-o", "spell=spiritual weapon",
               "--dice", "15,2")  # fmt: skip
    assert "Priest spends 1 bonus action: spiritual weapon attacks again" in again
    assert "spell slot" not in again and "casts spiritual weapon" not in again
    assert "Priest declares: attacks Goblin with spiritual weapon" in again, again
    assert "Priest attacks Goblin with spiritual weapon: hits" in again, again
    assert "Goblin takes 5 damage: 1d8 [2] + 3 Wis = 5 force" in again
    ok(nave, "act", "priest", "cast", "gob", "-o", "spell=guiding bolt", "--dice", "1")  # srd-3


def test_srd_72_spiritual_weapon_gains_1d8_every_two_slot_levels_and_keeps_it(tmp_path):
    lord = fight(
        tmp_path / "tomb.db", "The tomb", "19,2",
        monster("lord", "mummy lord"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
    weapon = ("act", "lord", "cast", "brannoc", "-o", "spell=spiritual weapon")
    third = ok(lord, *weapon, "-o", "level=3", "--dice", "15,1")
    assert "rolls 1d8 for damage of spiritual weapon" in third  # one level up: no step yet
    ok(lord, "undo")
    fourth = ok(lord, *weapon, "-o", "level=4", "--dice", "15,1,1")
    assert "rolls 2d8 for damage of spiritual weapon" in fourth
    ok(lord, "next")
    ok(lord, "next")
    again = ok(lord, *weapon, "--dice", "15,1,1")
    assert "attacks again" in again and "rolls 2d8 for damage of spiritual weapon" in again


def test_srd_73_sanctuary_turns_away_an_attacker_that_fails_its_wis_save(nave):
    cast = ok(nave, "act", "priest", "cast", "priest", "-o", "spell=sanctuary")
    assert "Priest spends 1 bonus action: cast" in cast
    assert "Priest is under sanctuary for 10 rounds" in cast
    ok(nave, "next")
    lost = ok(nave, "act", "gob", "attack", "priest", "-w", "scimitar", "--dice", "3")
    assert "Wisdom saving throw to aim at Priest through sanctuary (DC 13): 3 -1 = 2" in lost
    assert "turned away from Priest by sanctuary: it loses it" in lost
    assert row(nave, "priest")["hp"] == 27
    ok(nave, "undo")
    made = ok(nave, "act", "gob", "attack", "priest", "-w", "scimitar", "--dice", "18,10,3")
    assert "rolls d20 for attack on Priest with scimitar" in made
    assert row(nave, "priest")["hp"] == 27 - 5


def test_srd_73_sanctuary_ends_as_the_warded_casts_on_a_foe_not_on_itself(nave):
    ok(nave, "act", "priest", "cast", "priest", "-o", "spell=sanctuary")
    for _ in range(2):
        ok(nave, "next")
    healed = ok(nave, "act", "priest", "cast", "priest", "-o", "spell=cure wounds", "--dice", "3")
    assert "sanctuary ends" not in healed
    for _ in range(2):
        ok(nave, "next")
    flame = ok(nave, "act", "priest", "cast", "gob", "-o", "spell=sacred flame", "--dice", "20")
    assert "Priest is no longer under sanctuary: Priest casts a spell: sanctuary ends" in flame


def test_srd_74_mirror_image_s_duplicates_draw_attacks_and_a_hit_destroys_one(gm):
    cast = ok(gm, "act", "arch", "cast", "-o", "spell=mirror image")
    assert "Archmage is under mirror image for 10 rounds" in cast
    ok(gm, "next")
    swing = ("act", "brannoc", "attack", "arch", "-w", "longsword", "--dice")
    struck = ok(gm, *swing, "6,10")
    assert "does the attack strike a duplicate (6+): 6 -> 6: a duplicate" in struck
    assert "attack on a duplicate of Archmage with longsword: 10 +3 +2 = 15 vs 12" in struck
    assert "a duplicate is destroyed: 2 left" in struck
    assert row(gm, "arch")["hp"] == 99
    for _ in range(2):
        ok(gm, "next")
    real = ok(gm, *swing, "7,10,4")  # two left: 8 or more to strike one
    assert "(8+): 7 -> 7: Archmage" in real
    assert row(gm, "arch")["hp"] == 99 - (4 + 3) // 2  # resists nonmagical slashing


def test_srd_74_an_attacker_that_cannot_see_is_not_drawn_by_the_duplicates(gm):
    ok(gm, "act", "arch", "cast", "-o", "spell=mirror image")
    ok(gm, "next")
    blind = ok(gm, "act", "brannoc", "attack", "arch", "-w", "longsword", "-o", "unseeing=true",
               "--dice", "15,20,4")  # fmt: skip
    assert "duplicate" not in blind and "attack on Archmage" in blind


def test_srd_74_mirror_image_ends_with_its_last_duplicate(gm):
    ok(gm, "act", "arch", "cast", "-o", "spell=mirror image")
    for faces in ("6,10", "8,10", "11,10"):  # three left, two, one: each just strikes one
        ok(gm, "next")
        said = ok(gm, "act", "brannoc", "attack", "arch", "-w", "longsword", "--dice", faces)
        ok(gm, "next")
    assert "Archmage is no longer under mirror image: its last duplicate is destroyed" in said
    assert row(gm, "arch")["conditions"] == ""


@pytest.fixture
def cult(tmp_path: Path) -> Gm:
    """A cult fanatic of the bestiary (acting first) against Bones (undead), then Brannoc."""
    return fight(
        tmp_path / "cult.db", "The cult's cellar", "19,2,1",
        monster("fanatic", "cult fanatic"), sample("brannoc", "fighter", "Brannoc"),
        sample("bones", "skeleton", "Bones"),
    )  # fmt: skip


def test_srd_75_command_halt_leaves_its_target_neither_moving_nor_acting_next_turn(cult):
    said = ok(cult, "act", "fanatic", "cast", "brannoc", "-o", "spell=command", "-o", "word=halt",
              "--dice", "3")  # fmt: skip
    assert "Wisdom saving throw against command (DC 11): 3 +1 = 4" in said
    assert "Brannoc is commanded to halt until the end of" in said
    ok(cult, "next")
    ok(cult, "next")  # Brannoc's turn
    for act in (("move", "5"), ("attack", "fanatic", "-w", "longsword"), ("dodge",)):
        assert refused(cult, "act", "brannoc", *act) == (
            "Error: Brannoc is commanded to halt: it neither moves nor acts this turn; "
            "`fracas next` ends it (srd-75)"
        )
    ok(cult, "next")
    assert "commanded" not in row(cult, "brannoc")["conditions"]  # over with that turn


def test_srd_75_command_grovel_drops_its_target_prone_as_its_turn_begins(cult):
    ok(cult, "act", "fanatic", "cast", "brannoc", "-o", "spell=command", "-o", "word=grovel",
       "--dice", "3")  # fmt: skip
    assert "prone" not in row(cult, "brannoc")["conditions"]
    ok(cult, "next")
    began = ok(cult, "next")
    assert "Brannoc is prone: grovels, as commanded" in began


def test_srd_75_command_needs_one_of_its_words_and_passes_over_the_undead(cult):
    said = refused(cult, "act", "fanatic", "cast", "brannoc", "-o", "spell=command")
    assert said == "Error: command: name its word: -o word=approach | drop | flee | grovel | halt"
    said = refused(cult, "act", "fanatic", "cast", "bones", "-o", "spell=command", "-o",
                   "word=halt")  # fmt: skip
    assert said == "Error: command has no effect on undead; Bones is undead"


@pytest.fixture
def vault(tmp_path: Path) -> Gm:
    """A lich of the bestiary (acting first) against Brannoc and a wyrm of 160 hit points."""
    return fight(
        tmp_path / "vault.db", "The lich's vault", "19,2,1",
        monster("lich", "lich"), sample("brannoc", "fighter", "Brannoc"),
        [*sample("wyrm", "wyrm", "Ashen Wyrm"), "--set", "hp=160"],
    )  # fmt: skip


def test_srd_77_power_word_stun_stuns_150_hit_points_or_fewer_until_a_con_save(vault):
    cast = ok(vault, "act", "lich", "cast", "brannoc", "-o", "spell=power word stun")
    assert "Lich spends an 8th-level spell slot: 0 of 1 left" in cast
    assert "Brannoc is stunned: power word stun" in cast and "save against" not in cast
    ok(vault, "next")
    stays = ok(vault, "next", "--dice", "7")  # the end of Brannoc's turn: 7 + 4 vs DC 20
    assert (
        "Brannoc rolls d20 for Constitution saving throw against power word stun (stunned, DC 20): "
        "7 +2 +2 = 11"
    ) in stays
    assert "stunned" in row(vault, "brannoc")["conditions"]


def test_srd_77_power_word_stun_leaves_a_creature_of_more_hit_points(vault):
    cast = ok(vault, "act", "lich", "cast", "wyrm", "-o", "spell=power word stun")
    assert "Ashen Wyrm has 160 hit points, more than 150: no effect" in cast
    assert row(vault, "wyrm")["conditions"] == ""


def test_srd_45_dimension_door_teleports_its_caster_up_to_500_feet(vault):
    cast = ok(vault, "act", "lich", "cast", "-o", "spell=dimension door")
    assert "Lich spends a 4th-level spell slot" in cast
    assert "Lich teleports up to 500 feet to a space it can see: no movement spent" in cast


def test_srd_76_spare_the_dying_stabilises_a_dying_creature_and_no_other(tmp_path):
    run = fight(
        tmp_path / "lair.db", "The sphinx's lair", "19,2",
        monster("sphinx", "androsphinx", "pc"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
    said = refused(run, "act", "sphinx", "cast", "brannoc", "-o", "spell=spare the dying")
    assert said == "Error: Brannoc is not dying: spare the dying has nothing to stabilise"
    ok(run, "harm", "brannoc", "30")
    cast = ok(run, "act", "sphinx", "cast", "brannoc", "-o", "spell=spare the dying")
    assert "Brannoc is stable: stabilised by Androsphinx's spare the dying" in cast
    assert "dying" not in row(run, "brannoc")["conditions"]


def test_a_phone_s_cast_asks_the_word_with_command_and_the_condition_with_a_cure():
    def shown_with(monster_name: str, field: str) -> list[str]:
        sheet = next(m for m in load().monsters if m.name.lower() == monster_name).sheet
        found = controls(RULESET, "cast", RULESET.playable("cast"), sheet, {}) or []
        return next(c.values for c in found if c.field == field)

    assert shown_with("cult fanatic", "word") == ["command"]
    assert shown_with("priest", "ends") == ["lesser restoration"]


@pytest.fixture
def globe(tmp_path: Path) -> Gm:
    """An archmage (on the players' side, acting first) raises a globe of invulnerability
    over itself and Brannoc; then the lich acts."""
    run = fight(
        tmp_path / "globe.db", "The globe", "19,2,1",
        monster("arch", "archmage", "pc"), monster("lich", "lich"),
        sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
    cast = ok(run, "act", "arch", "cast", "arch", "brannoc", "-o", "spell=globe of invulnerability")
    assert "Brannoc is under globe of invulnerability for 10 rounds" in cast
    assert "Archmage is concentrating for 10 rounds: on globe of invulnerability" in cast
    ok(run, "next")
    return run


def test_srd_78_a_spell_of_5th_level_or_lower_has_no_effect_within_the_globe(globe):
    cast = ok(globe, "act", "lich", "cast", "arch", "brannoc", "-o", "spell=fireball", "-o",
              "level=7")  # fmt: skip
    assert "Brannoc is within globe of invulnerability: fireball has no effect on it" in cast
    assert "save" not in cast and row(globe, "brannoc")["hp"] == 28


def test_srd_78_a_spell_of_higher_level_crosses_the_globe(globe):
    cast = ok(globe, "act", "lich", "cast", "brannoc", "-o", "spell=finger of death",
              "--dice", "3" + ",1" * 7)  # fmt: skip
    assert "no effect" not in cast and "Constitution saving throw against finger of death" in cast


def test_srd_79_dominate_person_is_saved_against_again_each_time_its_target_is_hurt(tmp_path):
    run = fight(
        tmp_path / "palace.db", "The rakshasa's palace", "19,2,1",
        monster("rak", "rakshasa"), sample("brannoc", "fighter", "Brannoc"),
        sample("wren", "rogue", "Wren"),
    )  # fmt: skip
    cast = ok(run, "act", "rak", "cast", "brannoc", "-o", "spell=dominate person",
              "--dice", "3,5")  # fmt: skip
    assert "advantage: Rakshasa's side is fighting Brannoc (srd-67)" in cast
    assert "Brannoc is charmed for 10 rounds: dominate person" in cast
    ok(run, "next")  # Wren's turn
    stab = ("act", "wren", "attack", "brannoc", "-w", "shortsword", "--dice")
    held = ok(run, *stab, "15,3,6")
    assert "Wisdom saving throw against dominate person, hurt (DC 18): 6 +1 = 7" in held
    assert "charmed" in row(run, "brannoc")["conditions"]
    ok(run, "undo")
    freed = ok(run, *stab, "15,3,17")
    assert "Brannoc is no longer charmed: saves: dominate person ends" in freed
    assert "Rakshasa is no longer concentrating: dominate person has ended on every target" in freed


@pytest.fixture
def freed(tmp_path: Path) -> Gm:
    """An androsphinx (on the players' side) gives Brannoc freedom of movement; then a
    druid acts, then Brannoc."""
    run = fight(
        tmp_path / "freed.db", "The sphinx's riddle", "19,2,1",
        monster("sphinx", "androsphinx", "pc"), monster("druid", "druid"),
        sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
    cast = ok(run, "act", "sphinx", "cast", "brannoc", "-o", "spell=freedom of movement")
    assert "Brannoc is under freedom of movement for 600 rounds" in cast  # 1 hour
    ok(run, "next")
    return run


def test_srd_80_freedom_of_movement_keeps_magic_from_restraining_its_target(freed):
    cast = ok(freed, "act", "druid", "cast", "brannoc", "-o", "spell=entangle", "--dice", "1")
    assert "freedom of movement: magic cannot make Brannoc restrained" in cast
    assert "restrained" not in row(freed, "brannoc")["conditions"]


def test_srd_80_freedom_of_movement_slips_a_grapple_for_5_feet_and_ignores_difficult_ground(
    freed,
):
    ok(freed, "condition", "set", "brannoc", "grappled")
    ok(freed, "next")  # Brannoc's turn
    slipped = ok(freed, "act", "brannoc", "escape")
    assert "Brannoc spends 5 feet of movement: slips the grapple by freedom of movement" in slipped
    assert "action" not in slipped
    moved = ok(freed, "act", "brannoc", "move", "25", "-o", "difficult=true")
    assert "moving 25 feet, 0 feet left" in moved
