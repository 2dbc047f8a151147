"""Riders of damage spells, played through the CLI as a GM types them: guiding bolt's
advantage on the next attack roll against its target, vicious mockery's disadvantage on its
target's next attack roll (srd-33, for the time srd-28 says), chill touch's no healing
(srd-12), shocking grasp's no reactions (srd-4), ray of frost's 10 feet of speed off and
longstrider's 10 on (srd-52), thunderwave's push (srd-25), divine favor's radiant 1d4
and protection from evil and good's disadvantage on the attacks of the undead and others
(srd-33)."""

import json
from pathlib import Path

import pytest
from srd_cli import SAMPLES, Gm, fight, monster, ok, refused, sample, written

BARD = (SAMPLES / "cleric.toml").read_text() + "".join(
    f'\n[[spells]]\nname = "{spell}"\n'
    for spell in (
        "vicious mockery",
        "chill touch",
        "shocking grasp",
        "ray of frost",
        "longstrider",
        "thunderwave",
        "divine favor",
        "protection from evil and good",
        "expeditious retreat",
        "heroism",
        "true strike",
    )
)


@pytest.fixture
def gm(tmp_path: Path) -> Gm:
    """Maelis (a cleric who knows vicious mockery too), then a goblin, then Brannoc."""
    return fight(
        tmp_path / "road.db", "The road", "19,5,2",
        written(tmp_path, "maelis", BARD, "Maelis"),
        monster("gob", "goblin"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip


def test_srd_33_guiding_bolt_gives_the_next_attack_on_its_target_advantage_once(gm):
    bolt = ok(
        gm, "act", "maelis", "cast", "gob", "-o", "spell=guiding bolt", "--dice", "15,1,1,1,1"
    )
    assert "next turn: the next attack roll against it has advantage [srd-33" in bolt
    assert "until the end of Maelis's next turn" in bolt
    ok(gm, "next")
    ok(gm, "next")  # Brannoc's turn
    first = ok(gm, "act", "brannoc", "attack", "gob", "-o", "weapon=longsword", "--dice", "3,9")
    assert "rolls 2d20kh1" in first and "advantage: Goblin: guiding bolt (srd-33)" in first
    assert "-> miss (14 vs AC 15)" in first  # 9 kept, +3 Str +2: spent all the same
    assert "Goblin is no longer under guiding bolt: guiding bolt spent on this attack" in first
    ok(gm, "next")
    ok(gm, "next")
    ok(gm, "next")
    second = ok(gm, "act", "brannoc", "attack", "gob", "-o", "weapon=longsword", "--dice", "3")
    assert "rolls d20" in second and "2d20" not in second


def test_srd_33_vicious_mockery_gives_its_target_disadvantage_on_its_next_attack_roll(gm):
    mocked = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=vicious mockery", "--dice", "2,3")
    assert "next turn: disadvantage on its next attack roll" in mocked
    assert "takes 3" in mocked
    ok(gm, "next")  # the goblin's turn
    swing = ok(gm, "act", "gob", "attack", "brannoc", "-o", "weapon=scimitar", "--dice", "18,4")
    assert "2d20kl1" in swing and "disadvantage" in swing
    assert "no longer under vicious mockery: vicious mockery spent on this attack roll" in swing


def test_srd_33_guiding_bolts_advantage_is_spent_by_an_attack_shield_then_turns(tmp_path):
    gm = fight(
        tmp_path / "duel.db", "The duel", "19,5,2",
        sample("maelis", "cleric", "Maelis"), sample("brannoc", "fighter", "Brannoc"),
        sample("ilse", "wizard", "Ilse", "npc"),
    )  # fmt: skip
    ok(gm, "act", "maelis", "cast", "ilse", "-o", "spell=guiding bolt", "--dice", "15,1,1,1,1")
    ok(gm, "next")  # Brannoc's turn
    swing = ("act", "brannoc", "attack", "ilse", "-o", "weapon=longsword", "--defence",
             "ilse=shield", "--dice", "3,10")  # fmt: skip
    turned = ok(gm, *swing)
    assert "2d20kh1" in turned and "no longer under guiding bolt" in turned
    assert "15 vs AC 17" in turned and "takes" not in turned  # 10 + 5 hit AC 12; shield: +5


def reaction(gm: Gm, who: str) -> str:
    wounds = json.loads(ok(gm, "status", "--json"))["wounds"]
    return next(w for w in wounds if w["combatant"] == who)["detail"]["reaction"]


def test_srd_12_chill_touch_keeps_its_target_from_regaining_hit_points_to_the_casters_turn(gm):
    touch = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=chill touch", "--dice", "15,1")
    assert "next turn: it cannot regain hit points" in touch and "takes 1" in touch
    healed = ok(gm, "heal", "gob", "3")
    assert "regains 0 hit points" in healed and "chill touch: it cannot regain hit points" in healed
    ok(gm, "next")
    ok(gm, "next")
    ok(gm, "next")  # Maelis's turn starts: the chill is gone
    assert "regains 1 hit point" in ok(gm, "heal", "gob", "3")  # back to its 7


def test_srd_4_shocking_grasp_takes_its_targets_reaction_to_the_start_of_its_turn(gm):
    grasp = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=shocking grasp", "--dice", "15,1")
    assert "Goblin spends 1 reaction: shocking grasp: no reactions until the start of its " \
        "next turn" in grasp  # fmt: skip
    assert reaction(gm, "gob") == "used"
    ok(gm, "next")  # the goblin's turn: its reaction is back
    assert reaction(gm, "gob") == "ready"


def test_srd_52_ray_of_frost_takes_10_feet_off_its_targets_speed_to_the_casters_turn(gm):
    ray = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=ray of frost", "--dice", "15,1")
    assert "next turn: -10 feet of speed" in ray and "srd-52" in ray
    ok(gm, "next")  # the goblin's turn: 30 feet less 10
    assert "moving 20 feet, 0 feet left" in ok(gm, "act", "gob", "move", "20")
    refused(gm, "act", "gob", "move", "5")


def test_srd_52_longstrider_adds_10_feet_to_its_targets_speed(gm):
    ok(gm, "act", "maelis", "cast", "brannoc", "-o", "spell=longstrider")
    ok(gm, "next")
    ok(gm, "next")  # Brannoc's turn: 30 feet and 10
    assert "moving 40 feet, 0 feet left" in ok(gm, "act", "brannoc", "move", "40")


def test_srd_25_thunderwave_pushes_a_target_that_fails_its_save_10_feet(gm):
    wave = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=thunderwave", "--dice", "2,1,1")
    assert "Goblin takes 2 damage" in wave  # 2 on the Con save: failed; 1 + 1 thunder
    assert "Goblin is pushed 10 feet away from Maelis by thunderwave (the GM places it)" in wave


def test_srd_33_divine_favor_adds_1d4_radiant_to_its_casters_weapon_hits(gm):
    favour = ok(gm, "act", "maelis", "cast", "-o", "spell=divine favor")
    assert "Maelis spends 1 bonus action: cast" in favour and "concentrating" in favour
    hit = ok(gm, "act", "maelis", "attack", "gob", "-o", "weapon=mace", "--dice", "15,3,2")
    assert "rolls 1d4 for radiant damage: divine favor: 2" in hit
    assert "Goblin takes 6 damage: 1d6 [3] + 1 Str = 4 bludgeoning; 1d4 [2]" in hit


def test_srd_33_protection_from_evil_and_good_gives_an_undead_attacker_disadvantage(tmp_path):
    gm = fight(
        tmp_path / "crypt.db", "The crypt", "19,5,4,2",
        written(tmp_path, "maelis", BARD, "Maelis"), sample("skel", "skeleton", "Skeleton", "npc"),
        monster("gob", "goblin"), sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
    warded = ok(gm, "act", "maelis", "cast", "brannoc", "-o", "spell=protection from evil and good")
    # issue 40: Brannoc, a player character, is "them", never "it"
    assert "attacks on them by aberration, celestial, elemental, fey, fiend, undead" in warded
    ok(gm, "next")  # the skeleton's turn
    undead = ok(gm, "act", "skel", "attack", "brannoc", "-o", "weapon=shortsword", "--dice", "19,2")
    assert "2d20kl1" in undead and "protection from evil and good against Skeleton" in undead
    ok(gm, "next")  # the goblin's: a humanoid, no disadvantage
    goblin = ok(gm, "act", "gob", "attack", "brannoc", "-o", "weapon=scimitar", "--dice", "2")
    assert "2d20" not in goblin
    ok(gm, "condition", "clear", "maelis", "concentrating")
    assert "protection from evil and good" not in ok(gm, "status")


def test_srd_60_expeditious_retreat_dashes_as_a_bonus_action_on_each_turn(gm):
    ok(gm, "act", "maelis", "cast", "-o", "spell=expeditious retreat")
    for _ in range(3):
        ok(gm, "next")  # the goblin's turn, Brannoc's, then Maelis's again
    dashed = ok(gm, "act", "maelis", "dash", "-o", "bonus=true")
    assert "Maelis spends 1 bonus action: dash (expeditious retreat)" in dashed
    assert "moving 60 feet, 0 feet left" in ok(gm, "act", "maelis", "move", "60")
    ok(gm, "condition", "clear", "maelis", "concentrating")
    for _ in range(3):
        ok(gm, "next")
    refused(gm, "act", "maelis", "dash", "-o", "bonus=true")


def hp(gm: Gm, who: str) -> dict:
    wounds = json.loads(ok(gm, "status", "--json"))["wounds"]
    return next(w for w in wounds if w["combatant"] == who)["detail"]


def test_srd_11_heroism_gives_temporary_hit_points_at_the_start_of_each_turn(gm):
    cast = ok(gm, "act", "maelis", "cast", "brannoc", "-o", "spell=heroism")
    assert "Brannoc is under heroism" in cast and hp(gm, "brannoc")["temp_hp"] == 0
    ok(gm, "next")
    ok(gm, "next")  # Brannoc's turn: Maelis's Wis modifier, 3
    assert hp(gm, "brannoc")["temp_hp"] == 3
    ok(gm, "harm", "brannoc", "2")
    assert hp(gm, "brannoc")["temp_hp"] == 1 and hp(gm, "brannoc")["hp"] == 28
    ok(gm, "condition", "clear", "maelis", "concentrating")
    for _ in range(3):
        ok(gm, "next")  # Brannoc's next turn: no more
    assert hp(gm, "brannoc")["temp_hp"] == 1


def test_srd_33_true_strike_gives_its_caster_advantage_on_the_next_attack_on_its_target(gm):
    cast = ok(gm, "act", "maelis", "cast", "gob", "-o", "spell=true strike")
    assert "Maelis's next attack roll against it has advantage" in cast
    ok(gm, "next")
    ok(gm, "next")  # Brannoc's turn: not his insight
    other = ok(gm, "act", "brannoc", "attack", "gob", "-o", "weapon=longsword", "--dice", "2")
    assert "2d20" not in other
    ok(gm, "next")  # Maelis's turn
    swing = ok(gm, "act", "maelis", "attack", "gob", "-o", "weapon=mace", "--dice", "2,4")
    assert "2d20kh1" in swing and "Maelis's true strike on Goblin" in swing
    assert "Goblin is no longer under true strike: true strike spent on this attack" in swing
