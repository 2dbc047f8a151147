"""Monsters' traits: reach (srd-53), recharge (srd-54), lair actions (srd-55), legendary
resistance (srd-56), Pack Tactics (srd-57) and Magic Resistance (srd-63)."""

import pytest
from fracas.projections.describe import describe
from fracas.rules.api import Damaged, RefusedError, Resolved, Spent
from srd_table import Table, condition, fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def edge(out) -> list[str]:
    return [m.reason for m in rolls(out)[0].modifiers if m.value == 0]


def test_srd_53_a_melee_weapon_strikes_beyond_5_feet_only_with_reach():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    before = len(t.log)
    with pytest.raises(RefusedError, match=r"longsword reaches 5 feet: .* needs a weapon with"):
        t.act("brannoc", "attack", "wyrm", weapon="longsword", within_5ft=False)
    assert len(t.log) == before
    t.next()
    condition(t, "brannoc", "prone")  # the bite's 10 feet: beyond 5, so disadvantage
    out = t.act("wyrm", "attack", "brannoc", faces=(3, 2), weapon="bite", within_5ft=False)
    assert edge(out) == ["disadvantage: brannoc is prone, beyond 5 feet"]


def test_srd_54_a_recharge_ability_waits_for_its_d6_at_the_start_of_the_turn():
    t = fight(("brannoc", "fighter"), ("wyrm", "wyrm"))
    t.next()
    out = t.act("wyrm", "cast", "brannoc", faces=(5, *[1] * 10), spell="fire breath")
    assert rolls(out)[0].purpose.startswith("Dexterity saving throw against fire breath (DC 16)")
    assert of(out, Damaged)[0].amount == 10 and t.who("wyrm").recharging == ("fire breath",)
    t.next()
    out = t.next(4)  # the wyrm's turn starts: 4 on the d6, not yet
    (roll,) = rolls(out)
    assert (roll.purpose, roll.result, roll.rules) == ("recharge of fire breath (5-6)", "not yet",
                                                       ["srd-54"])  # fmt: skip
    with pytest.raises(
        RefusedError, match=r"fire breath is recharging \(recharge 5-6, rolled on a d6"
    ):
        t.act("wyrm", "cast", "brannoc", faces=(5, *[1] * 10), spell="fire breath")
    t.next()
    t.next(6)
    assert t.who("wyrm").recharging == ()
    t.act("wyrm", "cast", "brannoc", faces=(20, *[1] * 10), spell="fire breath")


def lair_fight() -> Table:
    """The goblin and Brannoc at initiative 20 (the goblin's Dex first), the wyrm at 5."""
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), ("wyrm", "wyrm"), begin=False)
    t.do({"action": "begin"}, 19, 18, 5)
    assert [f.id for f in t.state.order()] == ["gob", "brannoc", "wyrm"]
    return t


def test_srd_55_lair_actions_come_on_count_20_losing_ties_once_a_round():
    t = lair_fight()
    for _ in range(2):  # the goblin's 20, then Brannoc's: the lair's 20 loses both ties
        with pytest.raises(RefusedError, match="on initiative count 20 \\(losing ties\\)"):
            t.act("wyrm", "lair", "brannoc", option="magma")
        t.next()
    out = t.act("wyrm", "lair", "brannoc", "gob", faces=(2, 18, 3, 3, 3), option="magma")
    save, damage = "Dexterity saving throw against magma eruption", "damage of magma eruption"
    assert [r.purpose.split(" (")[0] for r in rolls(out)] == [save, save, damage]
    assert [(d.target, d.amount) for d in of(out, Damaged)] == [("brannoc", 9), ("gob", 4)]
    assert "srd-55" in of(out, Spent)[0].rules
    with pytest.raises(RefusedError, match="has taken its lair action this round: the next "
                       "comes on initiative count 20 of the next round"):  # fmt: skip
        t.act("wyrm", "lair", option="choking smoke")


def test_srd_55_not_the_same_lair_action_two_rounds_running_and_none_once_a_turn_acts():
    t = lair_fight()
    t.next()
    t.next()
    t.act("wyrm", "lair", option="choking smoke")
    t.next()
    t.next()
    t.next()  # round 2, the wyrm's turn
    with pytest.raises(RefusedError, match="choking smoke last round: not the same lair action"):
        t.act("wyrm", "lair", option="choking smoke")
    t.act("wyrm", "move", feet=10)  # the wyrm's turn has begun: count 20 is past
    with pytest.raises(RefusedError, match="on initiative count 20"):
        t.act("wyrm", "lair", "brannoc", option="magma")
    with pytest.raises(RefusedError, match="no lair action 'flood'; lair actions: magma, choking"):
        t.act("wyrm", "lair", option="flood")
    with pytest.raises(RefusedError, match=r"^wyrm's lair actions: magma, choking smoke; "
                       r"pick one with -o option=NAME$"):  # fmt: skip
        t.act("wyrm", "lair")  # none named: what to pick and how, not "no lair action ''"


def test_srd_55_a_lair_action_on_count_20_comes_before_a_dying_creature_s_death_save():
    t = fight(("brannoc", "fighter"), ("pc-wren", "rogue"), ("wyrm", "wyrm"), begin=False)
    t.do({"action": "begin"}, 19, 7, 5)  # Brannoc 20, Wren 10, the wyrm 5
    t.do({"action": "gm.harm", "target": "pc-wren", "amount": 21})
    assert t.who("pc-wren").has("dying")
    out = t.next()  # Wren's turn: count 20 is past, its lair action still to come
    assert not rolls(out) and "after any legendary action" in of(out, Resolved)[-1].outcome
    t.act("wyrm", "lair", option="choking smoke")
    assert rolls(t.next(12))[0].purpose == "death save"


def test_srd_56_legendary_resistance_turns_three_failed_saves_a_day_into_successes():
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"))
    for left in (2, 1, 0):
        out = t.act("maelis", "cast", "wyrm", faces=(2,), spell="sacred flame")
        assert rolls(out)[0].result.startswith("failure")
        (resist,) = [e for e in of(out, Spent) if e.resource == "legendary resistance"]
        assert resist.reason.endswith(f"becomes a success ({left} left today)")
        assert not of(out, Damaged)  # the save negates: no damage die
        t.next()
        t.next()
    out = t.act("maelis", "cast", "wyrm", faces=(2, 5), spell="sacred flame")
    assert of(out, Damaged)[0].amount == 5 and t.who("wyrm").resisted == 3


def test_srd_56_legendary_resistance_turns_even_an_automatic_failure_and_keeps_a_condition_off():
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"))
    condition(t, "wyrm", "paralysed")
    out = t.act("maelis", "cast", "wyrm", spell="sacred flame")
    assert "fails the Dexterity saving throw automatically" in of(out, Resolved)[0].outcome
    assert not of(out, Damaged) and t.who("wyrm").resisted == 1
    binding = {
        "name": "binding",
        "level": 2,
        "save": "wis",
        "condition": "paralysed",
        "rounds": 10,
    }  # hold person's save, for a dragon (no humanoid)
    t = Table()
    t.join("maelis", sample("cleric", spells=[binding]), "pc")
    t.join("wyrm", sample("wyrm"))
    t.do({"action": "begin"}, 20, 16)
    out = t.act("maelis", "cast", "wyrm", faces=(3,), spell="binding")
    assert rolls(out)[0].result.startswith("failure (8 vs 13)")
    assert not t.who("wyrm").has("paralysed") and t.who("wyrm").resisted == 1


def test_srd_56_the_gm_may_decline_a_legendary_resistance_on_an_action():
    """The creature chooses (srd-56): `resist=false` on the action keeps its failed save."""
    t = fight(("maelis", "cleric"), ("wyrm", "wyrm"))
    out = t.act("maelis", "cast", "wyrm", faces=(2, 5), spell="sacred flame", resist=False)
    assert rolls(out)[0].result.startswith("failure")
    assert not [e for e in of(out, Spent) if e.resource == "legendary resistance"]
    assert "keeps its legendary resistance" in of(out, Resolved)[0].outcome
    assert of(out, Damaged)[0].amount == 5 and t.who("wyrm").resisted == 0
    t.next()
    out = t.act("wyrm", "save", ability="con", dc=30, faces=(2,), resist=False)
    assert t.who("wyrm").resisted == 0
    out = t.act("wyrm", "save", ability="con", dc=30, faces=(2,))  # by default: spent
    assert t.who("wyrm").resisted == 1
    assert "resist" in RULESET.field_help  # `fracas actions` tells the GM of it


def test_srd_57_pack_tactics_gives_advantage_with_an_ally_near_the_target():
    t = fight(("brannoc", "fighter"), ("wolf", "wolf"), ("gob", "goblin"))
    t.next()
    out = t.act("wolf", "attack", "brannoc", faces=(3, 2), weapon="bite", ally_near=True)
    assert edge(out) == ["advantage: Pack Tactics: an ally within 5 feet of the target"]
    t.next()
    out = t.act("gob", "attack", "brannoc", faces=(3,), weapon="scimitar", ally_near=True)
    assert edge(out) == []  # the goblin has no Pack Tactics
    t.next()
    t.next()
    condition(t, "wolf", "prone")
    out = t.act("wolf", "attack", "brannoc", faces=(3,), weapon="bite", ally_near=True)
    assert rolls(out)[0].roll.dice == "d20"  # prone's disadvantage cancels it (srd-M3)
    assert sample("wolf")["pack_tactics"] is True


def test_srd_63_magic_resistance_gives_advantage_on_saves_against_spells():
    lord = RULESET.monsters.find("mummy lord").sheet
    assert lord["magic_resistance"] is True
    t = Table()
    t.join("maelis", sample("cleric"), "pc")
    t.join("lord", lord)
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 2, 1)
    out = t.act("maelis", "cast", "lord", faces=(15, 3), spell="sacred flame")
    (save,) = rolls(out)[:1]
    assert save.roll.dice == "2d20kh1" and "srd-63" in [m.rule for m in save.modifiers]
    assert "advantage: Magic Resistance: a save against magic" in edge(out)
    t.next(), t.next(), t.next()
    out = t.act("maelis", "cast", "gob", faces=(15,), spell="sacred flame")
    assert rolls(out)[0].roll.dice == "d20"  # the goblin has no Magic Resistance


def mummy_lord_against(*others: tuple[str, str]) -> Table:
    """The mummy lord (Magic Resistance), after the others in the order."""
    t = Table()
    for who, name in others:
        t.join(who, sample(name), "pc" if who.startswith("pc-") else "npc")
    t.join("lord", RULESET.monsters.find("mummy lord").sheet)
    t.do({"action": "begin"}, *[20 - 6 * i for i in range(len(others))], 1)
    return t


def test_srd_63_magic_resistance_is_no_help_against_a_breath_or_a_bite():
    """srd-63: "spells and other magical effects": a dragon's breath and a wolf's bite are
    neither, so the mummy lord saves against them with one d20."""
    t = mummy_lord_against(("wyrm", "wyrm"), ("wolf", "wolf"))
    out = t.act(
        "wyrm", "cast", "lord", faces=(3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), spell="fire breath"
    )
    assert rolls(out)[0].roll.dice == "d20" and "srd-63" not in rolls(out)[0].rules
    t.next()
    out = t.act("wolf", "attack", "lord", faces=(19, 2, 2, 1), weapon="bite")
    [save] = [r for r in rolls(out) if "saving throw" in r.purpose]
    assert save.roll.dice == "d20"
    dragon = RULESET.monsters.find("adult red dragon").sheet
    assert {s["name"]: s.get("magic", True) for s in dragon["spells"]} == {
        "frightful presence": False, "fire breath": False, "wing attack": False}  # fmt: skip
    assert all(s.get("magic", True) for s in RULESET.monsters.find("mummy lord").sheet["spells"])


def test_srd_63_magic_resistance_is_on_saves_not_on_a_spell_attack_roll():
    """srd-63 gives advantage on saving throws; a spell attack rolls against its AC as
    any attack does, with no disadvantage."""
    t = mummy_lord_against(("pc-ilse", "wizard"))
    out = t.act("pc-ilse", "cast", "lord", faces=(19, 4), spell="fire bolt")
    assert rolls(out)[0].roll.dice == "d20" and edge(out) == []


def test_srd_63_magic_resistance_on_a_monster_s_magical_effect():
    """A mummy lord's Blinding Dust swirls "magically": the other lord saves with advantage."""
    t = Table()
    t.join("dusty", RULESET.monsters.find("mummy lord").sheet)
    t.join("lord", RULESET.monsters.find("mummy lord").sheet, "pc")
    t.do({"action": "begin"}, 20, 1)
    out = t.act("dusty", "cast", "lord", faces=(3, 4), spell="blinding dust")
    assert rolls(out)[0].roll.dice == "2d20kh1"
    assert "advantage: Magic Resistance: a save against magic" in edge(out)


def dragon_against_brannoc() -> Table:
    t = Table()
    t.join("brannoc", sample("fighter"), "pc")
    t.join("dragon", RULESET.monsters.find("adult red dragon").sheet)
    t.do({"action": "begin"}, 1, 20)  # the dragon first
    return t


def test_a_creature_that_saves_against_frightful_presence_is_immune_to_it_for_the_fight():
    t = dragon_against_brannoc()
    out = t.act("dragon", "cast", "brannoc", faces=(19,), spell="frightful presence")
    assert not t.who("brannoc").has("frightened")
    assert (
        "brannoc is immune to dragon's frightful presence for 24 hours"
        in [describe(e) for e in out][-1]
    )
    t.next(), t.next()
    out = t.act("dragon", "cast", "brannoc", spell="frightful presence")  # no die: no save
    assert not rolls(out) and not t.who("brannoc").has("frightened")
    assert "frightful presence for 24 hours" in of(out, Resolved)[-1].outcome


def test_a_creature_whose_fright_ends_is_immune_to_that_frightful_presence():
    t = dragon_against_brannoc()
    t.act("dragon", "cast", "brannoc", faces=(2,), spell="frightful presence")
    assert t.who("brannoc").has("frightened")
    t.next()
    t.next(19)  # the end of Brannoc's turn: the save again, made
    assert not t.who("brannoc").has("frightened")
    out = t.act("dragon", "cast", "brannoc", spell="frightful presence")
    assert not rolls(out) and not t.who("brannoc").has("frightened")


def test_a_creature_whose_fright_runs_out_is_immune_to_that_frightful_presence():
    t = dragon_against_brannoc()
    t.act("dragon", "cast", "brannoc", faces=(2,), spell="frightful presence")
    while t.who("brannoc").has("frightened") and t.state.round < 15:
        t.next(*([2] if t.turn == "brannoc" else []))  # every save at the turn's end failed
    assert not t.who("brannoc").has("frightened") and t.state.round <= 11  # its minute is up
    while t.turn != "dragon":
        t.next()
    out = t.act("dragon", "cast", "brannoc", spell="frightful presence")
    assert not rolls(out) and not t.who("brannoc").has("frightened")
