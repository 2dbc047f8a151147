"""The bestiary: `fracas monsters`, `add --monster`, Tab completing monster names, the
bundled monsters against the SRD 5.1's numbers, a GM's own bestiary (FRACAS_SRD_BESTIARY),
and the converter of the 5e-database data set, on monsters written here in its shape."""

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fracas.cli.main import App, cli
from fracas.cli.shell import Completion, Session
from fracas.projections import Fracas

from fracas_srd import bestiary
from fracas_srd.ruleset import RULESET

TOOLS = Path(__file__).parents[1] / "tools"


def monster(name: str):
    return RULESET.monsters.find(name)


def sheet_of(name: str):
    return RULESET.sheet(monster(name).sheet, name)


def to_hit(name: str, weapon: str) -> int:
    """The attack bonus the rules give the sheet's weapon: proficiency + Str (or Dex)."""
    sheet = sheet_of(name)
    used = sheet.weapon(weapon)
    ability = "dex" if used.ranged or (used.finesse and sheet.dexterity > sheet.strength) else "str"
    return sheet.bonus + sheet.mod(ability) + used.magic


def dc(name: str, spell: str) -> int:
    sheet = sheet_of(name)
    return 8 + sheet.bonus + sheet.mod(sheet.spell(spell).ability)


def test_every_bundled_monster_loads_and_passes_check_sheet():
    assert len(RULESET.monsters.monsters) >= 9
    for entry in RULESET.monsters.monsters:
        RULESET.sheet(entry.sheet, entry.name)
    assert "CC BY 4.0" in RULESET.monsters.attribution


@pytest.mark.parametrize(
    ("name", "ac", "hp", "cr", "weapon", "hit"),
    [  # the SRD 5.1's stat blocks
        ("goblin", 15, 7, 0.25, "scimitar", 4),
        ("goblin", 15, 7, 0.25, "shortbow", 4),
        ("wolf", 13, 11, 0.25, "bite", 4),
        ("skeleton", 13, 13, 0.25, "shortsword", 4),
        ("zombie", 8, 22, 0.25, "slam", 3),
        ("bandit", 12, 11, 0.125, "light crossbow", 3),
        ("orc", 13, 15, 0.5, "greataxe", 5),
        ("ogre", 11, 59, 2, "greatclub", 6),
        ("owlbear", 13, 59, 3, "claws", 7),
        ("adult red dragon", 19, 256, 17, "bite", 14),
    ],
)
def test_a_bundled_monster_has_the_srd_s_numbers(name, ac, hp, cr, weapon, hit):
    sheet = sheet_of(name)
    assert (sheet.ac, sheet.hp, sheet.cr, monster(name).cr) == (ac, hp, cr, cr)
    assert to_hit(name, weapon) == hit


def test_the_adult_red_dragon_as_the_srd_gives_it():
    dragon = sheet_of("adult-red-dragon")
    assert dragon.legendary_actions == 3 and dragon.legendary_resistance == 3
    assert [(o.name, o.cost) for o in dragon.legendary] == [
        ("detect", 1), ("tail attack", 1), ("wing attack", 2)]  # fmt: skip
    assert dragon.multiattack == ["bite", "claw", "claw"] and dragon.immunities == ["fire"]
    assert dc("adult red dragon", "frightful presence") == 19
    breath = dragon.spell("fire breath")
    assert (breath.recharge, breath.damage, breath.half) == (5, "18d6", True)
    assert dc("adult red dragon", "fire breath") == 21
    saves = [dragon.mod(a) + dragon.bonus for a in ("dex", "con", "wis", "cha")]
    assert saves == [6, 13, 7, 11] and dragon.saves == ["dex", "con", "wis", "cha"]
    assert sheet_of("wolf").weapons[0].rider.dc == 11 and sheet_of("wolf").pack_tactics


def test_monsters_lists_and_searches_with_the_attribution(tmp_path):
    db, runner = str(tmp_path / "t.db"), CliRunner()
    listed = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd"])
    assert listed.exit_code == 0, listed.output
    assert "goblin                         CR 1/4  small humanoid (goblinoid)" in listed.output
    assert "CC BY 4.0" in listed.output.splitlines()[-1]
    found = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "red dragon"]).output
    assert found.splitlines()[0].startswith("adult-red-dragon               CR 17")
    undead = runner.invoke(cli, ["--db", db, "monsters", "-r", "srd", "undead", "--json"])
    assert [m["monster"] for m in json.loads(undead.output)["monsters"]] == ["skeleton", "zombie"]


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
        offered = Completion(Session(app, cli)).candidates("add gob --monster o")
    finally:
        app.close()
    assert offered == ["ogre", "orc", "owlbear"]


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
