"""The fight's order and a combatant's turn: srd-1 to srd-5."""

import pytest
from fracas.projections.describe import describe
from fracas.rules.api import InitiativeSet, RefusedError, Spent, TurnAdvanced
from srd_table import Table, fight, of, rolls, sample

from fracas_srd.ruleset import RULESET


def test_srd_1_the_surprised_neither_act_nor_react_until_their_first_turn_ends():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), begin=False)
    t.do({"action": "surprise", "actor": "gm", "targets": ["brannoc"]})
    t.do({"action": "begin"}, 20, 16)
    assert t.turn == "brannoc"
    with pytest.raises(RefusedError, match="surprised"):
        t.act("brannoc", "attack", "gob", faces=(10,))
    t.next()  # Brannoc's first turn ends: the surprise with it
    assert "surprised" not in t.who("brannoc").conditions
    t.act("gob", "attack", "brannoc", faces=(2,))
    t.act("brannoc", "opportunity", "gob", faces=(2,))  # a reaction is his again


def test_srd_1_no_reaction_while_surprised():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"), begin=False)
    t.do({"action": "surprise", "targets": ["brannoc"]})
    t.do({"action": "begin"}, 20, 16)
    with pytest.raises(RefusedError, match="surprised"):
        t.act("brannoc", "opportunity", "gob", faces=(10,))
    with pytest.raises(RefusedError, match="before the fight"):
        t.do({"action": "surprise", "targets": ["gob"]})


def test_srd_2_initiative_is_a_dex_check_and_the_order_holds_every_round():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"), begin=False)
    out = t.do({"action": "begin"}, 5, 15)  # Brannoc 5 + 1 = 6, the goblin 15 + 2 = 17
    assert [(e.combatant, e.value) for e in of(out, InitiativeSet)] == [("brannoc", 6), ("gob", 17)]
    assert t.turn == "gob"
    t.next()
    assert t.turn == "brannoc"
    advanced = of(t.next(), TurnAdvanced)[0]
    assert (advanced.round, advanced.actor) == (2, "gob")


def test_srd_2_ties_go_to_the_higher_dex_then_to_a_recorded_roll_off():
    t = Table()
    t.join("brannoc", sample("fighter"), "pc")  # Dex 12 (+1)
    t.join("wren", sample("rogue"), "pc")  # Dex 16 (+3)
    t.join("gob", sample("goblin"))  # Dex 14 (+2)
    t.join("gob2", sample("goblin"))
    # Brannoc 16 + 1, Wren 14 + 3, both goblins 15 + 2: all 17. Roll-off between the two
    # goblins (same Dex): 8 and 8 tie, then 3 and 11: gob2 first.
    out = t.do({"action": "begin"}, 16, 14, 15, 15, 8, 8, 3, 11)
    assert [f.id for f in t.state.order()] == ["wren", "gob2", "gob", "brannoc"]
    offs = [r for r in rolls(out) if r.purpose == "initiative roll-off"]
    assert [r.roll.total for r in offs] == [8, 8, 3, 11] and all("srd-2" in r.rules for r in offs)


def test_srd_2_the_gm_may_roll_once_for_a_group_of_identical_creatures():
    t = Table(group_initiative=True)
    t.join("brannoc", sample("fighter"), "pc")
    t.join("gob", sample("goblin"))
    t.join("gob2", sample("goblin"))
    out = t.do({"action": "begin"}, 10, 12)
    assert len(rolls(out)) == 2
    assert t.who("gob").initiative == t.who("gob2").initiative == 14


def test_srd_2_ties_in_joining_order_or_players_first_as_options():
    for ties, first in (("gm", "gob"), ("players", "brannoc")):
        t = Table(initiative_ties=ties)
        t.join("gob", sample("goblin"))
        t.join("brannoc", sample("fighter"), "pc")
        t.do({"action": "begin"}, 10, 11)  # 12 each
        assert t.turn == first


def test_srd_3_one_action_a_turn_and_a_bonus_action_only_when_granted():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "dash")
    with pytest.raises(RefusedError, match=r"already taken their action this turn \(dash\)"):
        t.act("brannoc", "attack", "gob", faces=(10,))
    with pytest.raises(RefusedError, match="Attack action first"):
        t.act("brannoc", "offhand", "gob", weapon="handaxe")


def refusal(t: Table, *args, **fields) -> str:
    with pytest.raises(RefusedError) as refused:
        t.act(*args, **fields)
    return str(refused.value)


def test_srd_3_a_second_action_is_refused_saying_what_is_left_of_the_turn():
    fighter = sample("fighter")
    axes = [w for w in fighter["weapons"] if w["name"] == "handaxe"]
    t = Table()  # two handaxes: the second is srd-19's off hand
    t.join("brannoc", {**fighter, "weapons": [*fighter["weapons"], *axes]}, "pc")
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 10)
    t.act("brannoc", "attack", "gob", faces=(2,), weapon="handaxe")
    assert refusal(t, "brannoc", "dodge") == (
        "brannoc has already taken their action this turn (attack), and dodge takes an action "
        "(srd-3); left this turn: a bonus action, their reaction, 30 feet of movement, or "
        "`fracas next` to end the turn"
    )
    t.act("brannoc", "move", feet=30)
    assert refusal(t, "brannoc", "dash").endswith(
        "left this turn: a bonus action, their reaction, or `fracas next` to end the turn"
    )


def test_srd_3_a_second_spell_or_bonus_action_is_refused_saying_what_is_left():
    t = fight(("ilse", "wizard"), ("gob", "goblin"))
    t.act("ilse", "cast", "gob", faces=(2,), spell="fire bolt")
    assert refusal(t, "ilse", "cast", "gob", spell="magic missile").startswith(
        "ilse has already taken their action this turn (cast), and casting magic missile takes "
        "an action (srd-3); left this turn: their reaction, 30 feet"
    )
    wren = fight(("wren", "rogue"), ("gob", "goblin"))
    wren.act("wren", "dash", bonus=True)
    wren.act("wren", "move", feet=60)
    assert refusal(wren, "wren", "hide", faces=(10,), bonus=True) == (
        "wren has already taken a bonus action this turn (dash (cunning action); srd-3); "
        "left this turn: their action, their reaction, or `fracas next` to end the turn"
    )


def test_a_second_breath_is_refused_as_recharging_and_offers_no_bonus_action_it_lacks():
    """The adult red dragon has no bonus action of any kind: once its breath is used, a second
    is refused as recharging (its d6 comes at the start of its turn), and a refusal of
    another action lists only its reaction and its movement."""
    t = Table()
    t.join("drag", RULESET.monsters.find("adult red dragon").sheet)
    t.join("pc", sample("fighter"), "pc")
    t.do({"action": "begin"}, 20, 2)
    t.act("drag", "cast", "pc", faces=(20, *[1] * 18), spell="fire breath")
    assert refusal(t, "drag", "cast", "pc", spell="fire breath") == (
        "drag's fire breath is recharging (recharge 5-6, rolled on a d6 at the "
        "start of its turn; srd-54)"
    )
    assert refusal(t, "drag", "attack", "pc", weapon="bite").endswith(
        "left this turn: its reaction, 40 feet of movement, or `fracas next` to end the turn"
    )


def test_a_refusal_offers_a_bonus_action_only_where_the_sheet_has_one_it_can_take_now():
    """Ilse's dagger gives no off-hand attack after a spell, and she has no bonus-action
    spell; Maelis's healing word is a bonus action beside a cantrip, not beside a level 1
    spell cast with her action (srd-3)."""
    ilse = fight(("ilse", "wizard"), ("gob", "goblin"))
    ilse.act("ilse", "cast", "gob", faces=(2,), spell="fire bolt")
    assert refusal(ilse, "ilse", "dodge").endswith(
        "left this turn: their reaction, 30 feet of movement, or `fracas next` to end the turn"
    )
    maelis = fight(("maelis", "cleric"), ("gob", "goblin"))
    maelis.act("maelis", "cast", "gob", faces=(20,), spell="sacred flame")
    assert "left this turn: a bonus action, their reaction" in refusal(maelis, "maelis", "dodge")
    maelis = fight(("maelis", "cleric"), ("gob", "goblin"))
    maelis.act("maelis", "cast", "gob", faces=(2,), spell="guiding bolt")
    assert "left this turn: their reaction, 30 feet" in refusal(maelis, "maelis", "dodge")


def test_srd_3_after_a_bonus_action_spell_only_a_one_action_cantrip():
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    t.act("maelis", "cast", "maelis", faces=(2,), spell="healing word")
    with pytest.raises(RefusedError, match="cantrip cast with an action"):
        t.act("maelis", "cast", "brannoc", faces=(2,), spell="guiding bolt")
    t.act("maelis", "cast", "brannoc", faces=(15,), spell="sacred flame")
    t2 = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    t2.act("maelis", "cast", "brannoc", faces=(1,), spell="guiding bolt")
    with pytest.raises(RefusedError, match="srd-3"):
        t2.act("maelis", "cast", "maelis", faces=(2,), spell="healing word")


def test_srd_4_one_reaction_a_round_back_at_the_start_of_its_own_turn():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "dash")
    t.act("brannoc", "opportunity", "gob", faces=(2,))
    assert t.who("brannoc").reaction
    assert refusal(t, "brannoc", "opportunity", "gob", faces=(2,)) == (
        # issue 40: a reaction comes back at the start of its own turn, not of a round
        "brannoc has already used its reaction since its last turn began (srd-4): it comes "
        "back at the start of its next turn"
    )
    t.next()  # Brannoc's turn: his reaction is back
    assert not t.who("brannoc").reaction


def test_srd_5_dodge_dash_disengage_help_hide_search_use():
    t = fight(("wren", "rogue"), ("gob", "goblin"), ("brannoc", "fighter"))
    t.act("wren", "hide", faces=(12,))
    assert t.who("wren").conditions["hidden"]["stealth"] == 17
    t.next()
    t.act("gob", "search", faces=(15,))  # Perception -1: 14, short of 17
    assert "hidden" in t.who("wren").conditions
    t.next()
    t.act("brannoc", "help", "wren", against="gob")
    t.next()
    attack = rolls(t.act("wren", "attack", "gob", faces=(1, 12, 3, 1, 1), weapon="shortsword"))[0]
    reasons = [m.reason for m in attack.modifiers]
    assert (
        "advantage: helped by brannoc" in reasons
        and "advantage: wren attacks from hiding" in reasons
    )
    assert "helped" not in t.who("wren").conditions and "hidden" not in t.who("wren").conditions


def test_srd_5_a_dodger_is_attacked_with_disadvantage_until_its_next_turn():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "dodge")
    t.next()
    out = rolls(t.act("brannoc", "attack", "gob", faces=(18, 4), weapon="longsword"))[0]
    assert out.result.startswith("miss (9 vs AC 15)")
    expired = t.next()
    assert "dodging" not in t.who("gob").conditions
    assert any(getattr(e, "condition", "") == "dodging" for e in expired)


def test_srd_5_disengage_and_dash_and_use():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    out = t.act("gob", "disengage")
    [said] = [describe(e) for e in out if "disengaged" in describe(e)]
    assert said == "gob is disengaged until the end of gob's current turn [srd-5, srd-18]"
    [row] = [w for w in RULESET.view(t.state).wounds if w.combatant == "gob"]
    assert "disengaged (until the end of gob's current turn)" in row.conditions
    with pytest.raises(RefusedError, match="disengaged"):
        t.act("brannoc", "opportunity", "gob", faces=(10,))
    t.next()
    assert "disengaged" not in t.who("gob").conditions  # over when its turn ends
    out = t.act("brannoc", "use", what="a potion")
    assert out[-1].outcome == "uses a potion"


def test_srd_5_help_with_no_creature_named_helps_the_next_ability_check():
    t = fight(("brannoc", "fighter"), ("wren", "rogue"), ("gob", "goblin"))
    t.act("brannoc", "help", "wren")
    t.next()
    check = rolls(t.act("wren", "hide", faces=(4, 13)))[0]
    assert check.roll.dice == "2d20kh1" and "helped" not in t.who("wren").conditions


def test_srd_5_a_dodge_is_lost_at_speed_0():
    t = fight(("gob", "goblin"), ("brannoc", "fighter"))
    t.act("gob", "dodge")
    t.do({"action": "gm.condition-set", "target": "gob", "condition": "grappled"})
    t.next()
    attack = rolls(t.act("brannoc", "attack", "gob", faces=(18, 4), weapon="longsword"))[0]
    assert attack.roll.dice == "d20"


def test_srd_3_a_second_attack_with_only_one_reads_in_the_singular():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    t.act("brannoc", "attack", "gob", faces=(2,))
    with pytest.raises(RefusedError, match="has made the only attack of their Attack action"):
        t.act("brannoc", "attack", "gob", faces=(2,))


def test_srd_3_the_bonus_action_spell_refusals_say_which_spell_came_first():
    """srd-3: after a bonus-action spell, only a cantrip cast with an action; after a
    levelled spell with the action, no bonus-action spell. Each refusal says which."""
    t = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    t.act("maelis", "cast", "maelis", faces=(2,), spell="healing word")
    with pytest.raises(RefusedError) as refused:
        t.act("maelis", "cast", "brannoc", faces=(2,), spell="guiding bolt")
    assert str(refused.value) == (
        "maelis has cast a bonus-action spell this turn: the only other spell cast this "
        "turn may be a cantrip cast with an action, and guiding bolt is not (srd-3)"
    )
    t2 = fight(("maelis", "cleric"), ("brannoc", "fighter"))
    t2.act("maelis", "cast", "brannoc", faces=(1,), spell="guiding bolt")
    with pytest.raises(RefusedError) as refused:
        t2.act("maelis", "cast", "maelis", faces=(2,), spell="healing word")
    assert str(refused.value) == (
        "maelis has cast a spell this turn other than a cantrip with an action: healing "
        "word, a bonus-action spell, may only come beside such a cantrip (srd-3)"
    )


def test_srd_3_the_log_says_which_attack_of_the_attack_action_is_spent_as_a_sentence():
    t = fight(("brannoc", "fighter"), ("gob", "goblin"))
    out = t.act("brannoc", "attack", "gob", faces=(2,))
    assert [describe(e) for e in of(out, Spent)] == [
        "brannoc spends 1 action: attack",
        "brannoc spends 1 attack: the only one their Attack action gives",
    ]
    t = Table()
    t.join("brannoc", sample("fighter", attacks=2), "pc")
    t.join("gob", sample("goblin"))
    t.do({"action": "begin"}, 20, 1)
    t.act("brannoc", "attack", "gob", faces=(2,))
    out = t.act("brannoc", "attack", "gob", faces=(2,))
    assert [describe(e) for e in of(out, Spent)] == [
        "brannoc spends 1 attack: the 2nd of the 2 their Attack action gives"
    ]


def test_srd_3_the_log_says_which_spell_was_cast_and_how_as_a_sentence():
    t = fight(("pc-ilse", "wizard"), ("gob", "goblin"))
    out = t.act("pc-ilse", "cast", "gob", faces=(2,), spell="fire bolt")
    said = [e.reason for e in of(out, Spent) if e.resource == "spell"]
    assert said == ["fire bolt, a cantrip cast with an action"]
