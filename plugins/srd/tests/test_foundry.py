"""Foundry VTT dnd5e actors ("Export Data" JSON) read as sheets: small exports written for
these tests in Foundry's shape (nothing copied from Foundry's packs)."""

import json
from typing import Any

import pytest
from click.testing import CliRunner
from fracas.cli.main import cli
from fracas.projections import Fracas
from fracas.rules.api import BadInputError, RefusedError, Resolved
from srd_cli import SAMPLES, gm_on, ok
from srd_table import Table

from fracas_srd import foundry
from fracas_srd.ruleset import RULESET
from fracas_srd.slots import slots_left


def abilities(**scores: int) -> dict[str, Any]:
    saves = scores.pop("saves", ())
    return {
        a: {"value": scores.get(a, 10), "proficient": int(a in saves)}
        for a in ("str", "dex", "con", "int", "wis", "cha")
    }


def part(number: int, sides: int, kind: str, bonus: str = "") -> dict[str, Any]:
    return {"number": number, "denomination": sides, "bonus": bonus, "types": [kind]}


def weapon(name: str, damage: dict, kind: str, **system: Any) -> dict[str, Any]:
    attack = {"type": "attack", "attack": {"type": {"value": system.pop("attack", "melee")}},
              "damage": {"parts": system.pop("more", [])}}  # fmt: skip
    return {
        "name": name,
        "type": "weapon",
        "system": {"damage": {"base": damage}, "type": {"value": kind}, "equipped": True,
                   "activities": {"a": attack}, **system},
    }  # fmt: skip


def armour(name: str, value: int, kind: str) -> dict[str, Any]:
    return {"name": name, "type": "equipment",
            "system": {"armor": {"value": value, "dex": None}, "equipped": True,
                       "type": {"value": kind}}}  # fmt: skip


def spell(name: str, level: int, activity: dict, casting: str = "action", **system) -> dict:
    activity = {"activation": {"type": casting}, **activity}
    return {"name": name, "type": "spell",
            "system": {"level": level, "activities": {"a": activity}, **system}}  # fmt: skip


def actor(kind: str, name: str, system: dict, items: list) -> dict[str, Any]:
    base = {"attributes": {"hp": {"value": None, "max": None}, "ac": {"calc": "default"},
                           "movement": {"walk": 30}}, "traits": {"size": "med"}}  # fmt: skip
    for key, value in system.items():
        base[key] = {**base.get(key, {}), **value} if isinstance(value, dict) else value
    return {"name": name, "type": kind, "system": base, "items": items}


FIGHTER = actor(
    "character",
    "Hild",
    {
        "abilities": abilities(str=16, dex=12, con=14, saves=("str", "con")),
        "skills": {"ath": {"value": 1}, "prc": {"value": 1}, "ste": {"value": 0}},
        "traits": {"dr": {"value": ["fire"]}, "ci": {"value": ["poisoned"]}},
    },
    [
        {"name": "Fighter", "type": "class", "system": {"levels": 3, "hitDice": "d10"}},
        armour("Chain Mail", 16, "heavy"),
        armour("Shield", 2, "shield"),
        weapon("Longsword", part(1, 8, "slashing"), "martialM"),
        weapon(
            "Longbow",
            part(1, 8, "piercing"),
            "martialR",
            attack="ranged",
            range={"value": 150, "long": 600},
        ),
        weapon("Flame Tongue", part(1, 8, "slashing"), "martialM", more=[part(2, 6, "fire")]),
    ],
)


def test_a_character_export_reads_abilities_level_hp_from_hit_dice_armour_and_weapons():
    sheet, unread = foundry.read(FIGHTER)
    assert (sheet["str"], sheet["dex"], sheet["con"]) == (16, 12, 14)
    assert sheet["saves"] == ["str", "con"] and sheet["skills"] == ["athletics", "perception"]
    assert (sheet["level"], sheet["hit_die"]) == (3, 10)
    assert sheet["hp"] == 10 + 2 + 2 * (6 + 2)  # the die's maximum, then its average, + Con
    assert sheet["ac"] == 16 + 2  # chain mail (no Dex) and a shield
    assert sheet["holds_shield"] is True  # no hand free to grapple with (srd-20)
    assert sheet["wears_armour"]  # mage armor is refused it (srd-44)
    assert sheet["resistances"] == ["fire"]
    assert sheet["condition_immunities"] == ["poisoned"]  # srd-61, as the bestiary's
    longsword, longbow, _ = sheet["weapons"]
    assert (longsword["damage"], longsword["type"], longsword["ranged"]) == (
        "1d8",
        "slashing",
        False,
    )
    assert longbow["ranged"] and longbow["range"] == [150, 600]
    assert [line for line in unread if not line.startswith("fighter 3:")] == [
        "Flame Tongue: 2d6 fire more on a hit: not added"]  # fmt: skip
    RULESET.sheet({k: v for k, v in sheet.items() if k not in ("name", "side")})


WIZARD = actor(
    "character",
    "Odo",
    {
        "abilities": abilities(int=16, dex=14, con=12),
        "attributes": {"spellcasting": "int", "ac": {"calc": "mage"}},
    },
    [
        {"name": "Wizard", "type": "class",
         "system": {"levels": 3, "hitDice": "d6", "spellcasting": {"progression": "full"}}},
        spell("Fire Bolt", 0, {"type": "attack", "attack": {"type": {"value": "ranged"}},
                               "damage": {"parts": [part(1, 10, "fire")]}}),
        spell("Burning Hands", 1, {"type": "save", "save": {"ability": ["dex"]},
                                   "damage": {"onSave": "half", "parts": [
                                       {**part(3, 6, "fire"), "scaling": {"number": 1}}]}}),
        spell("Shield", 1, {"type": "utility"}, casting="reaction"),
        spell("Alarm", 1, {"type": "utility"}, casting="minute"),
        spell("Fireball", 3, {"type": "save", "save": {"ability": ["dex"]}}),
    ],
)  # fmt: skip


def test_a_caster_export_reads_spells_with_their_slots_and_names_what_it_leaves_out():
    sheet, unread = foundry.read(WIZARD)
    assert sheet["hp"] == 6 + 1 + 2 * (4 + 1) and sheet["ac"] == 13 + 2  # mage armour
    assert "wears_armour" not in sheet
    assert sheet["slots"] == [4, 2] and sheet["spellcasting"] == "int"
    by_name = {s["name"]: s for s in sheet["spells"]}
    assert set(by_name) == {"fire bolt", "burning hands", "shield"}
    fire_bolt = {"attack": "ranged", "damage": "1d10", "type": "fire", "casting": "action"}
    assert by_name["fire bolt"] == {"name": "fire bolt", "level": 0, **fire_bolt}
    burning = by_name["burning hands"]
    assert (burning["save"], burning["half"], burning["damage"], burning["upcast"]) == (
        "dex",
        True,
        "3d6",
        "1d6",
    )
    assert by_name["shield"]["casting"] == "reaction"
    assert "Alarm: cast in minute, not in a fight: left out" in unread
    assert "Fireball: a 3rd-level spell with no slot for it: left out" in unread
    RULESET.sheet({k: v for k, v in sheet.items() if k not in ("name", "side")})


DRAGON = actor(
    "npc",
    "Ember",
    {
        "abilities": abilities(str=23, dex=10, con=21, wis=13, cha=19, saves=("dex", "con")),
        "attributes": {"hp": {"value": 178, "max": 178}, "ac": {"calc": "natural", "flat": 18}},
        "details": {"cr": 10, "type": {"value": "dragon", "subtype": ""}},
        "traits": {"di": {"value": ["fire"]}, "size": "lg"},
        "resources": {"legact": {"max": 3}, "legres": {"max": 3}, "lair": {"value": True}},
    },
    [
        weapon("Tail", part(2, 8, "bludgeoning"), "natural"),
        {"name": "Fire Breath", "type": "feat",
         "system": {"uses": {"recovery": [{"period": "recharge", "formula": "5"}]},
                    "activities": {"a": {"type": "save", "activation": {"type": "action"},
                                         "save": {"ability": "dex", "dc": {"formula": "17"}},
                                         "damage": {"onSave": "half",
                                                    "parts": [part(12, 6, "fire")]}}}}},
        {"name": "Tail Attack", "type": "weapon",
         "system": {"activities": {"a": {"type": "utility",
                                         "activation": {"type": "legendary", "value": 1}}}}},
        {"name": "Magma", "type": "feat",
         "system": {"activities": {"a": {"type": "utility", "activation": {"type": "lair"}}}}},
    ],
)  # fmt: skip


def test_a_monster_export_reads_its_cr_natural_armour_breath_legendary_and_lair():
    sheet, unread = foundry.read(DRAGON)
    assert unread == []
    assert sheet["monster"] and sheet["cr"] == 10 and sheet["size"] == "large"
    assert (sheet["hp"], sheet["ac"]) == (178, 18) and sheet["immunities"] == ["fire"]
    [breath] = sheet["spells"]
    assert (breath["save"], breath["damage"], breath["recharge"], breath["half"]) == (
        "dex",
        "12d6",
        5,
        True,
    )
    assert breath["ability"] == "con"  # DC 17 = 8 + 4 (CR 10) + 5 (Con 21): its ability
    assert breath["magic"] is False  # a breath is no magic: Magic Resistance is no help (srd-63)
    assert sheet["creature_type"] == "dragon"  # hold person, for humanoids, refuses it
    assert sheet["legendary_actions"] == 3 and sheet["legendary_resistance"] == 3
    assert sheet["legendary"] == [{"name": "tail attack", "cost": 1, "weapon": "tail"}]
    assert sheet["lair"] == [{"name": "magma"}]
    RULESET.sheet({k: v for k, v in sheet.items() if k not in ("name", "side")})


def test_the_features_and_gear_an_export_does_not_read_are_named():
    second_wind = {"name": "Second Wind", "type": "feat", "system": {"activities": {"a": {
        "type": "heal", "activation": {"type": "bonus"}}}}}  # fmt: skip
    style = {"name": "Fighting Style: Defense", "type": "feat", "system": {}}
    potion = {"name": "Potion of Healing", "type": "consumable", "system": {}}
    rope = {"name": "Hempen Rope", "type": "loot", "system": {}}
    ring = {"name": "Ring of Warmth", "type": "equipment", "system": {"type": {"value": "ring"}}}
    items = [*FIGHTER["items"], second_wind, style, potion, rope, ring]
    sheet, unread = foundry.read({**FIGHTER, "items": items})
    assert not [line for line in unread if "Second Wind" in line]  # srd plays it
    assert sheet["features"] == [{"name": "second wind", "heals": "1d10"}]
    assert "feature Fighting Style: Defense (the GM plays it)" in unread
    assert "items Potion of Healing, Hempen Rope, Ring of Warmth" in unread
    assert not [line for line in unread if "Chain Mail" in line or "Longsword" in line]
    assert foundry.read(DRAGON)[1] == []  # its breath, tail attack and lair action are read


def test_fracas_add_reads_an_export_by_its_content_and_names_what_it_did_not_read(tmp_path):
    db, export = str(tmp_path / "t.db"), tmp_path / "hild.json"
    export.write_text(json.dumps(FIGHTER))
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "new", "-r", "srd"]).exit_code == 0
    added = runner.invoke(cli, ["--db", db, "add", "hild", "--sheet", str(export)])
    assert added.exit_code == 0, added.output
    assert f"{export}: not read: Flame Tongue: 2d6 fire more on a hit" in added.output
    with Fracas(db) as log:
        hild = log.encounter().state.fighters["hild"]
    assert (hild.hp, hild.sheet.ac, hild.side, hild.name) == (28, 18, "pc", "Hild")
    joined = runner.invoke(cli, ["--db", db, "party", "add", "hild", "--sheet", str(export)])
    assert joined.exit_code == 0, joined.output
    assert "HP 28/28" in runner.invoke(cli, ["--db", db, "party"]).output


def test_other_json_is_not_taken_for_an_export():
    assert foundry.read({"system": {"abilities": {}}, "type": "vehicle"}) is None
    assert RULESET.imported({"hp": 7}) == ({"hp": 7}, [])


def test_a_condition_immunity_of_an_export_holds_in_the_fight():
    sheet, _ = foundry.read(FIGHTER)
    read = {k: v for k, v in sheet.items() if k not in ("name", "side")}
    t = Table()
    t.join("dretch", RULESET.monsters.find("dretch").sheet)
    t.join("pc", read, "pc")
    t.do({"action": "begin"}, 20, 2)
    out = t.act("dretch", "cast", "pc", spell="fetid cloud")  # no save: immune
    assert not t.who("pc").has("poisoned")
    assert [e.outcome for e in out if isinstance(e, Resolved)] == [
        "immune to being poisoned: no save against fetid cloud"]  # fmt: skip
    custom = {**FIGHTER, "system": {**FIGHTER["system"], "traits": {"ci": {"custom": "sleep"}}}}
    assert "condition immunities: 'sleep'" in foundry.read(custom)[1]


def wounded(export: dict[str, Any], **hp: Any) -> dict[str, Any]:
    system = export["system"]
    attributes = {**system["attributes"], "hp": {**system["attributes"]["hp"], **hp}}
    return {**export, "system": {**system, "attributes": attributes}}


def test_an_export_saved_wounded_comes_in_wounded_with_its_temporary_hit_points(tmp_path):
    sheet, unread = foundry.read(wounded(FIGHTER, value=11, temp=4))
    assert (sheet["hp"], sheet["hp_now"], sheet["temp_hp"]) == (28, 11, 4)
    t = Table()
    t.join("hild", {k: v for k, v in sheet.items() if k not in ("name", "side")}, "pc")
    assert (t.who("hild").hp, t.who("hild").hp_max, t.who("hild").temp_hp) == (11, 28, 4)
    stated = foundry.read(wounded(FIGHTER, value=30, max=40))[0]
    assert (stated["hp"], stated["hp_now"]) == (40, 30)
    assert "hp_now" not in foundry.read(wounded(FIGHTER, value=None))[0]  # unhurt: at full
    assert "hp_now" not in foundry.read(wounded(FIGHTER, value=35))[0]  # more: at its max
    down, unread = foundry.read(wounded(FIGHTER, value=0))
    assert (
        "hp_now" not in down
        and "hit points 0 (down): comes in at its maximum; harm it by hand" in unread
    )
    summon = foundry.read(wounded(DRAGON, value=0, max=0))[1]  # no hit points stated: not down
    assert not any("hit points 0" in line for line in summon)
    export = tmp_path / "hild.json"
    export.write_text(json.dumps(wounded(FIGHTER, value=11)))
    db = str(tmp_path / "t.db")
    runner = CliRunner()
    joined = runner.invoke(cli, ["--db", db, "party", "add", "hild", "-r", "srd", "--sheet",
                                 str(export)])  # fmt: skip
    assert joined.exit_code == 0, joined.output
    assert "HP 11/28" in runner.invoke(cli, ["--db", db, "party"]).output


def test_a_sheet_cannot_start_above_its_maximum():
    with pytest.raises(BadInputError, match="hp_now = 30 is more than its hp = 28"):
        RULESET.sheet({"hp": 28, "hp_now": 30})


def test_an_export_saved_after_a_fight_comes_in_with_its_spent_slots_and_hit_dice():
    """Foundry keeps what is left (`spells.spell1.value`, the class's `hd.spent`): a caster
    saved with one level 1 slot of four and one Hit Die spent comes in so; exhaustion,
    a condition, is named as not read."""
    system = {**WIZARD["system"], "spells": {"spell1": {"value": 1}, "spell2": {"value": 2}},
              "attributes": {**WIZARD["system"]["attributes"], "exhaustion": 1}}  # fmt: skip
    items = [
        {**i, "system": {**i["system"], "hd": {"spent": 1}}} if i["type"] == "class" else i
        for i in WIZARD["items"]
    ]
    sheet, unread = foundry.read({**WIZARD, "system": system, "items": items})
    assert (sheet["slots"], sheet["slots_spent"], sheet["hit_dice_spent"]) == ([4, 2], [3], 1)
    assert "exhaustion 1: not read; set it with `fracas condition set`" in unread
    t = Table()
    t.join("odo", {k: v for k, v in sheet.items() if k not in ("name", "side")}, "pc")
    assert slots_left(t.who("odo"), 1) == 1 and slots_left(t.who("odo"), 2) == 2
    assert t.who("odo").hit_dice_spent == 1
    t.do({"action": "gm.harm", "target": "odo", "amount": 5})  # a Hit Die would heal
    with pytest.raises(RefusedError, match="2 Hit Dice left of 3"):
        t.do({"action": "party.rest", "target": "odo", "kind": "short", "spend": 3}, 1, 1, 1)
    assert "slots_spent" not in foundry.read(WIZARD)[0]  # none spent: none said


def test_a_sheet_cannot_have_spent_more_than_it_has():
    with pytest.raises(BadInputError, match=r"slots_spent = \[5\] is more than its slots"):
        RULESET.sheet({"slots": [4], "slots_spent": [5]})
    with pytest.raises(BadInputError, match="hit_dice_spent = 4 is more than its level 3"):
        RULESET.sheet({"level": 3, "hit_die": 8, "hit_dice_spent": 4})


def leveled(export: dict[str, Any], *classes: tuple[str, int], feats: tuple[str, ...] = ()):
    """The export with these classes (name, levels) instead of its own, and these features."""
    items = [i for i in export["items"] if i["type"] != "class"]
    items += [{"name": name, "type": "class", "system": {"levels": levels, "hitDice": "d10",
               "identifier": name.lower()}} for name, levels in classes]  # fmt: skip
    items += [{"name": feat, "type": "feat", "system": {}} for feat in feats]
    return {**export, "items": items}


def test_extra_attack_comes_from_the_class_levels_or_the_feature_an_export_carries():
    """The SRD's Extra Attack: fighter, paladin, ranger, barbarian and monk at level 5, the
    fighter's third attack at 11 and fourth at 20; not from the character's total level
    (multiclassing: the class's own levels), and never stacked."""

    def attacks(*classes: tuple[str, int], feats: tuple[str, ...] = ()) -> int:
        sheet, unread = foundry.read(leveled(FIGHTER, *classes, feats=feats))
        assert not [line for line in unread if "Extra Attack" in line]  # read, not named
        return sheet.get("attacks", 1)

    assert attacks(("Fighter", 4)) == 1
    assert [attacks((c, 5)) for c in ("Fighter", "Paladin", "Ranger", "Barbarian", "Monk")] == [
        2, 2, 2, 2, 2]  # fmt: skip
    assert (attacks(("Fighter", 11)), attacks(("Fighter", 20))) == (3, 4)
    assert attacks(("Rogue", 5)) == attacks(("Wizard", 9)) == 1
    assert attacks(("Fighter", 3), ("Rogue", 3)) == 1  # 6th level, but no class at 5
    assert attacks(("Fighter", 5), ("Ranger", 5)) == 2  # Extra Attack does not add up
    assert attacks(("Bard", 6), feats=("Extra Attack",)) == 2  # a valor bard's, as exported
    assert attacks(("Fighter", 11), feats=("Extra Attack", "Extra Attack (2)")) == 3
    assert attacks(("Fighter", 20), feats=("Three Extra Attacks",)) == 4


def test_a_fifth_level_fighter_export_attacks_twice_with_its_attack_action_not_three_times():
    sheet, _ = foundry.read(leveled(FIGHTER, ("Fighter", 5)))
    t = Table()
    t.join("hild", {k: v for k, v in sheet.items() if k not in ("name", "side")}, "pc")
    t.join("gob", RULESET.monsters.find("goblin").sheet)
    t.do({"action": "begin"}, 20, 1)
    t.act("hild", "attack", "gob", faces=(2,), weapon="longsword")
    t.act("hild", "attack", "gob", faces=(2,), weapon="longsword")  # Extra Attack
    with pytest.raises(RefusedError, match="has made all 2 attacks of their Attack action"):
        t.act("hild", "attack", "gob", faces=(2,), weapon="longsword")


SECOND_WIND = {"name": "second wind", "heals": "1d10"}
CUNNING = {"name": "cunning action", "bonus_actions": ["dash", "disengage", "hide"]}
UNCANNY = {"name": "uncanny dodge", "trigger": "hit", "halves": True}


def sneak(dice: int) -> dict[str, Any]:
    return {"name": "sneak attack", "extra": f"{dice}d6", "sneak": True}


def test_the_class_features_srd_plays_come_from_the_class_and_its_levels():
    """The SRD's classes: every fighter has Second Wind from level 1; a rogue Sneak Attack
    from 1 (1d6, a d6 more every odd level: 2d6 at 3, 3d6 at 5, 10d6 at 19), Cunning Action
    from 2 and Uncanny Dodge from 5. An export without the feature items has them by its
    class items; with them, each is read once."""

    def features(*classes: tuple[str, int], feats: tuple[str, ...] = ()) -> list[dict]:
        return foundry.read(leveled(FIGHTER, *classes, feats=feats))[0].get("features", [])

    assert foundry.read(FIGHTER)[0]["features"] == [SECOND_WIND]
    assert features(("Fighter", 1)) == [SECOND_WIND]
    assert features(("Rogue", 1)) == [sneak(1)]
    assert features(("Rogue", 2)) == [sneak(1), CUNNING]
    assert features(("Rogue", 3)) == [sneak(2), CUNNING]
    assert features(("Rogue", 5)) == [sneak(3), CUNNING, UNCANNY]
    assert features(("Rogue", 19)) == [sneak(10), CUNNING, UNCANNY]
    assert features(("Fighter", 2), ("Rogue", 3)) == [SECOND_WIND, sneak(2), CUNNING]
    assert features(("Wizard", 5)) == []
    carried = ("Second Wind", "Sneak Attack", "Cunning Action")
    assert features(("Fighter", 1), ("Rogue", 4), feats=carried) == [
        SECOND_WIND, sneak(2), CUNNING]  # fmt: skip
    _, unread = foundry.read(leveled(FIGHTER, ("Rogue", 4), feats=carried))
    assert not [line for line in unread if "Sneak Attack" in line or "Cunning" in line]


def test_the_class_features_srd_does_not_play_are_named_one_line_each():
    """What the class and level grant that the sheet cannot carry is said, once each (not
    again when the export carries the feature's item, named as a feature)."""
    _, unread = foundry.read(FIGHTER)
    said = [line for line in unread if line.startswith("fighter 3:")]
    assert said == [
        "fighter 3: Fighting Style (the GM plays it)",
        "fighter 3: Action Surge (the GM plays it)",
        "fighter 3: Martial Archetype (the GM plays it)",
    ], unread
    _, unread = foundry.read(leveled(FIGHTER, ("Fighter", 2), feats=("Action Surge",)))
    assert [line for line in unread if "Action Surge" in line] == [
        "feature Action Surge (the GM plays it)"]  # fmt: skip
    _, unread = foundry.read(leveled(FIGHTER, ("Wizard", 3)))
    assert "wizard 3: its class features are not read, bar spells and extra attacks " \
        "(the GM plays them)" in unread  # fmt: skip


def test_a_foundry_fighter_in_the_party_has_second_wind_and_hears_what_was_not_read(tmp_path):
    """The sample export (no feature items): `party add` named nothing it left out, and
    `act hild second_wind` was refused: "has no Second Wind on the sheet"."""
    gm = gm_on(tmp_path / "t.db")
    joined = ok(gm, "party", "add", "hild", "-r", "srd", "--sheet",
                str(SAMPLES / "hild.foundry.json"))  # fmt: skip
    assert "fighter 3: Action Surge (the GM plays it)" in joined, joined
    fight = ok(gm, "new", "--party").split()[0]
    ok(gm, "add", "gob", "--monster", "goblin", "-e", fight)
    ok(gm, "begin", "--dice", "20,1", "-e", fight)
    ok(gm, "harm", "hild", "12", "-e", fight)
    healed = ok(gm, "act", "hild", "second_wind", "-e", fight, "--dice", "6")
    assert "second wind" in healed, healed


def test_an_export_added_twice_is_refused_first_in_one_line_without_its_warnings(tmp_path):
    """Issue 40: `fracas party add hild` (and `fracas add hild`) a second time printed the
    export's "not read: ..." lines and then the refusal: the refusal comes first, alone."""
    db, export = str(tmp_path / "t.db"), tmp_path / "hild.json"
    export.write_text(json.dumps(FIGHTER))
    runner = CliRunner()
    for add in (["party", "add", "hild", "-r", "srd"], ["add", "hild"]):
        if add[0] == "add":
            assert runner.invoke(cli, ["--db", db, "new", "-r", "srd"]).exit_code == 0
        first = runner.invoke(cli, ["--db", db, *add, "--sheet", str(export)])
        assert first.exit_code == 0 and "not read" in first.output, first.output
        again = runner.invoke(cli, ["--db", db, *add, "--sheet", str(export)])
        assert again.exit_code == 1, again.output
        assert len(again.output.strip().splitlines()) == 1, again.output
        assert "already in" in again.output, again.output
