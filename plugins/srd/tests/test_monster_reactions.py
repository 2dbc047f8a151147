"""A bestiary monster's reactions and bonus-action traits as the SRD 5.1 gives them (issue
40): the Bandit Captain's Parry (+2 AC against one melee attack that would hit, asked only
when the +2 turns the hit, srd-39) and the Orc's Aggressive (a bonus action to move up to
its speed toward a hostile creature it can see, srd-60); and the converter keeps every
monster's reactions and bonus-action traits, counted against the source data."""

import collections
import json

import pytest
from srd_cli import fight, monster, ok, refused, sample

from fracas_srd import bestiary
from fracas_srd.ruleset import RULESET

CAPTAIN = monster("cap", "bandit captain")
ORC = monster("orc", "orc")
BRANNOC = sample("brannoc", "fighter", "Brannoc")  # longsword +5 (Str 16, level 3)


@pytest.fixture
def captain(tmp_path):
    """Brannoc (first) against a Bandit Captain (AC 15, Parry +2)."""
    return fight(tmp_path / "parry.db", "Parry", "20,5", BRANNOC, CAPTAIN)


def test_srd_39_parry_turns_a_melee_hit_the_plus_2_beats_into_a_miss(captain):
    out = ok(captain, "act", "brannoc", "attack", "cap", "-w", "longsword", "--ask",
             "--dice", "11")  # fmt: skip
    assert "hit (16 vs AC 15)" in out and "none | parry" in out
    out = ok(captain, "answer", "cap", "parry")
    assert "parry: the hit becomes a miss (16 vs AC 17)" in out
    wounds = json.loads(ok(captain, "status", "--json"))["wounds"]
    cap = next(w for w in wounds if w["combatant"] == "cap")
    assert cap["current"] == 65  # no damage: the hit was turned
    # Only against that one attack: no lasting +2, as shield's +5 lasts
    assert cap["detail"]["ac"] == 15 and "parry" not in json.dumps(cap["conditions"])


def test_srd_39_parry_is_not_asked_against_a_hit_it_cannot_turn_nor_a_ranged_one(captain):
    out = ok(captain, "act", "brannoc", "attack", "cap", "-w", "longsword", "--ask",
             "--dice", "13,4")  # 18 vs AC 15: 17 still hit  # fmt: skip
    assert "parry" not in out.lower() and "waits for" not in out
    ok(captain, "next")
    ok(captain, "next")  # Brannoc's turn again, his action back
    said = refused(captain, "act", "brannoc", "attack", "cap", "-w", "longbow",
                   "--defence", "cap=parry", "--dice", "14")  # fmt: skip
    assert "melee" in said and "parry" in said.lower()
    out = ok(captain, "act", "brannoc", "attack", "cap", "-w", "longbow", "--ask",
             "--dice", "14,4")  # 17 vs AC 15, a +2 would turn it: but it is ranged  # fmt: skip
    assert "hit (17 vs AC 15)" in out
    assert "parry" not in out.lower() and "waits for" not in out


@pytest.fixture
def orc(tmp_path):
    """An orc (first, speed 30) against Brannoc."""
    return fight(tmp_path / "orc.db", "Aggressive", "20,5", ORC, BRANNOC)


def test_srd_60_aggressive_moves_the_orc_its_speed_as_a_bonus_action_and_keeps_its_action(orc):
    out = ok(orc, "act", "orc", "dash", "-o", "bonus=true")
    assert "bonus action" in out and "aggressive" in out
    assert "moving 60 feet, 0 feet left" in ok(orc, "act", "orc", "move", "60")
    out = ok(orc, "act", "orc", "attack", "brannoc", "-w", "greataxe", "--dice", "2")
    assert "misses" in out  # its action still its own after the bonus-action move
    said = refused(orc, "act", "orc", "dash", "-o", "bonus=true")
    assert "already taken a bonus action" in said


def test_srd_60_aggressive_needs_a_hostile_creature_the_orc_can_see(orc):
    ok(orc, "condition", "set", "orc", "blinded")
    said = refused(orc, "act", "orc", "dash", "-o", "bonus=true")
    assert "hostile creature" in said and "see" in said


def source_monsters() -> list[dict]:
    folder = bestiary.data_folder()
    assert folder is not None
    return [json.loads(f.read_bytes()) for f in sorted(folder.glob("*.json"))]


def bonus_traits(entry: dict) -> list[str]:
    """The traits whose text gives the creature a bonus action of its own (not a gibbering
    mouther's, whose text takes bonus actions from those near it)."""
    return [
        a["name"]
        for a in entry.get("special_abilities") or []
        if "bonus action" in a.get("desc", "") and "no action or bonus action" not in a["desc"]
    ]


def test_the_converter_keeps_every_monster_s_reactions_and_bonus_action_traits():
    given = {m["name"]: [r["name"] for r in m.get("reactions") or []] for m in source_monsters()}
    traits = {m["name"]: bonus_traits(m) for m in source_monsters()}
    kept_reactions: dict[str, list[str]] = collections.defaultdict(list)
    kept_traits: dict[str, list[str]] = collections.defaultdict(list)
    for entry in bestiary.srd_monsters():
        sheet = RULESET.sheet(entry.sheet, entry.name)
        kept_reactions[entry.name] = [*(f.name for f in sheet.features if f.trigger),
                                      *(r.partition(":")[0] for r in sheet.unplayed_reactions)]
        kept_traits[entry.name] = [
            *(f.name for f in sheet.features if f.bonus_actions),
            *(r.partition(":")[0] for r in sheet.unplayed_bonus_actions),
        ]
    assert sum(map(len, given.values())) == 11  # the source data's, all SRD 5.1
    for name, reactions in given.items():
        assert kept_reactions[name] == [r.lower() for r in reactions], name
    assert sum(map(len, traits.values())) == 22
    for name, named in traits.items():
        assert sorted(kept_traits[name]) == sorted(n.lower() for n in named), name
    played = {n: r for n, r in kept_reactions.items() if r == ["parry"]}
    assert sorted(played) == ["Bandit Captain", "Erinyes", "Gladiator", "Knight", "Marilith",
                              "Noble"]  # fmt: skip
    parry = {n: next(f.parry for f in RULESET.sheet(RULESET.monsters.find(n).sheet, n).features
                     if f.trigger) for n in played}  # fmt: skip
    assert parry == {"Bandit Captain": 2, "Erinyes": 4, "Gladiator": 3, "Knight": 2,
                     "Marilith": 5, "Noble": 2}  # fmt: skip


def test_monsters_show_gives_parry_as_a_reaction_and_what_the_gm_narrates_with_its_text():
    captain = dict(RULESET.stat_block_of(RULESET.monsters.find("bandit captain").sheet))
    assert captain["Reactions"] == ("parry: +2 AC against one melee attack that would hit it, "
                                    "seeing the attacker and wielding a melee weapon")  # fmt: skip
    assert "Traits" not in captain
    pudding = dict(RULESET.stat_block_of(RULESET.monsters.find("black pudding").sheet))
    assert pudding["Reactions"].startswith("split: When a pudding that is Medium or larger")
    assert pudding["Reactions"].endswith("(the GM narrates it)")
    gnoll = dict(RULESET.stat_block_of(RULESET.monsters.find("gnoll").sheet))
    assert gnoll["Bonus Actions"].startswith("rampage: When the gnoll reduces a creature to 0")
    assert dict(RULESET.stat_block_of(RULESET.monsters.find("orc").sheet))["Traits"] == (
        "aggressive")
