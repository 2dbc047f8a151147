"""An outside 5e tester's findings (issue 40), through the CLI as the GM types it: an
off-hand attack after an Attack action made with no light weapon (srd-19), a dying
character that stayed hidden (srd-27), a spell a sheet names with no effect spelled out
(the spellbook's, or said to do nothing)."""

import json
from pathlib import Path

import pytest
from fracas.rules.api import ConditionSet, Resolved
from srd_cli import SAMPLES, Gm, add, gm_on, ok, refused
from srd_table import Table, fight, sample


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


def row(gm: Gm, name: str) -> str:
    """The combatant's row of `fracas status`."""
    return next(line for line in ok(gm, "status").splitlines() if f" {name}  " in line)


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
    assert "left this turn: their reaction, 30 feet of movement" in said, said


def test_srd_19_an_off_hand_attack_after_a_light_weapons_attack_is_taken(gm):
    duel(gm)
    ok(gm, "next")
    ok(gm, "act", "wren", "attack", "gob", "-w", "shortsword", "--dice", "3")
    said = refused(gm, "act", "wren", "dodge")
    assert "left this turn: a bonus action" in said, said
    out = ok(gm, "act", "wren", "offhand", "gob", "-w", "dagger", "--dice", "15,3")
    assert "attacks with the off hand" in out or "off-hand" in out, out


def test_srd_27_a_hidden_character_dropping_to_0_is_hidden_no_more_and_open_to_attack(gm):
    """A dying character stayed hidden, so attacks on it had disadvantage. Unconscious, it
    falls prone and gives itself away (srd-27); attacks on it from within 5 feet have
    advantage (unconscious, prone), and a hit is a critical one."""
    ok(gm, "new", "-r", "srd", "--id", "den", "--title", "The den")
    add(gm, "wren", "rogue", "Wren", "pc", "--set", "hp=5")
    add(gm, "gob", "goblin", "Goblin", "npc")
    add(gm, "gob2", "goblin", "Second goblin", "npc")
    ok(gm, "begin", "--dice", "19,10,5")
    ok(gm, "act", "wren", "hide", "--dice", "15")
    ok(gm, "next")
    out = ok(gm, "act", "gob", "attack", "wren", "--dice", "18,18,6")
    assert "Wren is hidden" in out  # the attack, from a goblin that cannot see her
    assert "dying" in out and "hidden" in out.split("dying", 1)[1], out
    assert "dying" in row(gm, "Wren") and "hidden" not in row(gm, "Wren")
    ok(gm, "next")
    out = ok(gm, "act", "gob2", "attack", "wren", "--dice", "3,12,4,4")
    assert "is hidden" not in out, out
    assert "advantage: Wren is unconscious" in out and "critical hit" in out, out


def test_srd_27_a_hider_put_to_sleep_by_the_gm_is_hidden_no_more_a_stunned_one_stays(gm):
    """However it falls unconscious (here the GM's ruling), it gives itself away; being
    stunned (incapacitated, still conscious) ends no hiding in the rules."""
    ok(gm, "new", "-r", "srd", "--id", "den", "--title", "The den")
    add(gm, "wren", "rogue", "Wren")
    add(gm, "gob", "goblin", "Goblin", "npc")
    ok(gm, "begin", "--dice", "19,10")
    ok(gm, "act", "wren", "hide", "--dice", "15")
    ok(gm, "condition", "set", "wren", "stunned")
    assert "hidden, stunned" in row(gm, "Wren")
    out = ok(gm, "condition", "set", "wren", "unconscious")
    assert "Wren is no longer hidden: falls unconscious" in out, out


def spell_fight(gm: Gm, sheet: str) -> str:
    """Ilse, from the sheet file, against a goblin; what `fracas add` said of her sheet."""
    ok(gm, "new", "-r", "srd", "--id", "tower", "--title", "The tower")
    said = ok(gm, "add", "ilse", "--sheet", sheet, "--side", "pc", "--name", "Ilse")
    add(gm, "gob", "goblin", "Goblin", "npc")
    ok(gm, "begin", "--dice", "19,10")
    return said


def test_a_sample_sheet_naming_mage_armor_alone_casts_the_spellbooks_mage_armor(gm):
    """The sample wizard names mage armor and no more: cast, it sets her AC to 13 + Dex
    (srd-44), not a slot spent for nothing."""
    spell_fight(gm, str(SAMPLES / "wizard.toml"))
    assert "AC 12" not in row(gm, "Ilse") and " 12 " in row(gm, "Ilse")
    out = ok(gm, "act", "ilse", "cast", "ilse", "-o", "spell=mage armor")
    assert "Ilse is under mage armor for 4800 rounds" in out, out
    assert " 15 " in row(gm, "Ilse") and "under mage armor" in row(gm, "Ilse")


def test_a_spell_the_plugin_does_not_play_is_named_on_add_and_said_to_do_nothing(gm, tmp_path):
    sheet = tmp_path / "ilse.toml"
    sheet.write_text(
        (SAMPLES / "wizard.toml").read_text() + '\n[[spells]]\nname = "detect magic"\nlevel = 1\n'
    )
    said = spell_fight(gm, str(sheet))
    lines = [line for line in said.splitlines() if "detect magic" in line]
    assert lines == [
        f"{sheet}: not read: detect magic: no spell srd plays, and the sheet spells out no "
        "effect: cast, it has no effect in play (the GM narrates it)"
    ], said
    out = ok(gm, "act", "ilse", "cast", "ilse", "-o", "spell=detect magic")
    assert "Ilse casts detect magic on Ilse: has no effect in play" in out, out


def foundry_caster(*spells: dict) -> dict:
    """A Foundry VTT wizard export (its shape, written here) with these spells."""
    casts = {"levels": 3, "hitDice": "d6", "spellcasting": {"progression": "full"}}
    wizard = {"name": "Wizard", "type": "class", "system": casts}
    scores = {a: {"value": 14 if a == "dex" else 10, "proficient": 0}
              for a in ("str", "dex", "con", "int", "wis", "cha")}  # fmt: skip
    system = {"abilities": scores,
              "attributes": {"hp": {"value": None, "max": None}, "ac": {"calc": "default"},
                             "movement": {"walk": 30}, "spellcasting": "int"},
              "traits": {"size": "med"}}  # fmt: skip
    return {"name": "Ilse", "type": "character", "system": system, "items": [wizard, *spells]}


def foundry_spell(name: str, level: int) -> dict:
    activity = {"activation": {"type": "action"}, "type": "utility"}
    return {
        "name": name,
        "type": "spell",
        "system": {"level": level, "activities": {"a": activity}},
    }


def test_a_foundry_export_naming_mage_armor_casts_it_and_names_what_it_cannot_play(gm, tmp_path):
    export = tmp_path / "ilse.json"
    spells = (foundry_spell("Mage Armor", 1), foundry_spell("Detect Magic", 1))
    export.write_text(json.dumps(foundry_caster(*spells)))
    said = spell_fight(gm, str(export))
    assert f"{export}: not read: detect magic: no spell srd plays" in said, said
    assert "mage armor" not in said, said
    out = ok(gm, "act", "ilse", "cast", "ilse", "-o", "spell=mage armor")
    assert "Ilse is under mage armor" in out and " 15 " in row(gm, "Ilse"), out


def test_a_known_spell_given_with_no_effect_past_the_sheet_file_says_so_when_cast():
    """Through the Python API the sheet is not read from a file: cast, the spell says why it
    does nothing, not that srd does not play it."""
    t = Table()
    t.join("ilse", {**sample("wizard"), "spells": [{"name": "mage armor", "level": 1}]}, "pc")
    t.join("gob", sample("goblin"), "npc")
    t.do({"action": "begin"}, 19, 10)
    out = t.act("ilse", "cast", "ilse", spell="mage armor")
    said = [e.outcome for e in out if isinstance(e, Resolved)]
    assert said == [
        "mage armor has no effect in play: its sheet names it with no effect (named alone, it "
        "takes the spellbook's: in their sheet file, read when ilse joins a later fight)"
    ], said
    armoured = fight(("ilse", "wizard"), ("gob", "goblin"))  # the sample, as `add` reads it
    set_ = [e for e in armoured.act("ilse", "cast", "ilse", spell="mage armor")
            if isinstance(e, ConditionSet)]  # fmt: skip
    assert [e.condition for e in set_] == ["under mage armor"]
