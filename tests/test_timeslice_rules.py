"""Archetype's time slices, rule by rule (RULES.md §002), with typed dice.

Alice: [Q] +2, [V] +3, HP 20, DR 1. The orc: [Q] +0, [V] +1, HP 15. The goblin: [Q] +1,
[V] +0, HP 8. Initiative 11, 6, 5: Alice, the orc, the goblin. TS 10 each, threshold 3.
"""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.events import Damaged, InitiativeSet, Resolved, Spent
from tests.casts.timeslice import (
    ALICE,
    GOBLIN,
    ORC,
    act,
    all_events,
    end_turn,
    fighter,
    hp,
    rolled,
    ts,
    ts_fight,
)
from tests.support import do

MISS = [0, 0, 9, 9]  # Alice's 0+3 against a dodge of 18


def resolved(events) -> list[str]:
    return [ev.outcome for ev in events if isinstance(ev, Resolved)]


def test_002_1_turns_in_initiative_order_and_ts_spent_when_the_maneuver_is_made(fracas):
    e = fight = ts_fight(fracas)
    assert [row.combatant for row in fight.view().initiative] == ["alice", "orc", "goblin"]
    spent = [ev for ev in act(e, "alice", "move", units=2) if isinstance(ev, Spent)]
    assert [(s.combatant, s.amount) for s in spent] == [("alice", 2)] and ts(e, "alice") == 8
    with pytest.raises(RefusedError, match="it is alice's turn"):
        act(e, "orc", "move", units=1)


def test_002_2_every_round_refills_each_combatant_to_their_maximum(fracas):
    e = ts_fight(fracas, options={"ts_max": 8}, goblin={**GOBLIN, "ts_max": 12})
    assert (ts(e, "alice"), ts(e, "goblin")) == (8, 12)
    act(e, "alice", "move", units=4)
    end_turn(e)
    act(e, "orc", "move", units=1)
    end_turn(e)
    act(e, "goblin", "move", units=5)
    end_turn(e)
    assert e.state.round == 2
    assert (ts(e, "alice"), ts(e, "orc"), ts(e, "goblin")) == (8, 8, 12)


def test_002_3_the_round_ends_when_everyone_has_spent_all_their_ts(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "move", units=10)
    assert e.state.turn == "orc"
    act(e, "orc", "move", units=10)
    assert e.state.turn == "goblin" and e.state.round == 1
    act(e, "goblin", "move", units=10)
    assert (e.state.round, e.state.turn) == (2, "alice")


def test_002_4_initiative_is_rolled_once_highest_first_ties_by_q_then_a_roll(fracas):
    e = ts_fight(fracas)
    values = {ev.combatant: ev.value for ev in all_events(e) if isinstance(ev, InitiativeSet)}
    assert values == {"alice": 11, "orc": 6, "goblin": 5}
    for who in ("alice", "orc", "goblin"):
        act(e, who, "move", units=10)
    initiatives = [ev for ev in all_events(e) if isinstance(ev, InitiativeSet)]
    assert e.state.round == 2 and len(initiatives) == 3

    tie = fracas.new("timeslice", title="tie")
    for name, sheet in (("orc", ORC), ("goblin", GOBLIN), ("imp", {**GOBLIN, "q": 10})):
        do(tie, {"action": "join", "combatant": name, "sheet": sheet})
    # The orc 3+3+0 = 6, the goblin 5+0+1 = 6 (higher [Q] wins), the imp 6+0+0 = 6: the
    # orc and the imp share [Q] 10 and roll d100: 20 and 70.
    do(tie, {"action": "begin"}, [3, 3, 5, 0, 6, 0, 20, 70])
    assert [row.combatant for row in tie.view().initiative] == ["goblin", "imp", "orc"]


def test_002_5_drawing_or_stowing_costs_1_ts_unless_the_weapon_says_otherwise(fracas):
    e = ts_fight(
        fracas, alice={**ALICE, "weapons": [*ALICE["weapons"], {"name": "bow", "draw_ts": 2}]}
    )
    with pytest.raises(RefusedError, match="has not drawn the pistol"):
        act(e, "alice", "attack", "orc", weapon="pistol", dice=MISS)
    act(e, "alice", "draw", weapon="pistol")
    assert ts(e, "alice") == 9 and "pistol" in fighter(e, "alice").equipped
    act(e, "alice", "draw", weapon="bow")
    act(e, "alice", "stow", weapon="sword")
    assert ts(e, "alice") == 6 and fighter(e, "alice").equipped == ("shield", "pistol", "bow")


def test_002_6_an_attack_costs_3_ts_and_repeats_while_ts_remain(fracas):
    e = ts_fight(fracas)
    for _ in range(3):
        act(e, "alice", "attack", "orc", weapon="sword", dice=MISS)
    assert ts(e, "alice") == 1
    with pytest.raises(RefusedError, match="has 1 TS left; attacks with the sword costs 3"):
        act(e, "alice", "attack", "orc", weapon="sword", dice=MISS)


def test_002_7_an_interrupt_needs_an_opponent_moving_or_attacking_and_enough_ts(fracas):
    bob = {**ALICE, "q": 8}  # initiative 0+0-2 = -2: last
    e = ts_fight(fracas, bob=bob, dice=[0, 0])
    # The GM rules Alice's move is in the orc's reach: the orc's axe strikes first.
    # The orc 5+5+1 = 11 against Alice's dodge 2+2+2 = 6: a hit for 5 - 1 DR = 4.
    out = act(e, "orc", "interrupt", "alice", weapon="axe", trigger="moves", dice=[5, 5, 2, 2])
    assert "GM rules: alice moves within range of orc's axe" in resolved(out)
    assert (ts(e, "orc"), ts(e, "alice"), hp(e, "alice"), e.state.turn) == (7, 10, 16, "alice")
    # Bob answers the orc's interruption with one of his own (the orc attacks).
    act(
        e, "bob", "interrupt", "orc", weapon="sword", trigger="attacks", trigger_by="orc", dice=MISS
    )
    assert ts(e, "bob") == 7
    with pytest.raises(RefusedError, match="only an opponent"):
        act(e, "bob", "interrupt", "orc", weapon="sword", trigger="moves", trigger_by="alice")
    with pytest.raises(BadInputError, match="an interrupt needs its trigger"):
        act(e, "goblin", "interrupt", "alice", weapon="spear")
    with pytest.raises(RefusedError, match="own turn"):
        act(e, "alice", "interrupt", "orc", weapon="sword", trigger="moves", trigger_by="orc")
    act(e, "orc", "interrupt", "alice", weapon="axe", trigger="moves", dice=[0, 0, 9, 9])
    act(e, "orc", "interrupt", "alice", weapon="axe", trigger="moves", dice=[0, 0, 9, 9])
    with pytest.raises(RefusedError, match="orc has 1 TS left"):
        act(e, "orc", "interrupt", "alice", weapon="axe", trigger="moves", dice=[0, 0, 9, 9])


def test_002_8_ts_saved_on_ones_turn_pay_for_interrupts_later_in_the_round(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "move", units=3)
    end_turn(e, "alice")
    assert e.view().initiative[0].status == "7 TS saved"
    act(e, "alice", "interrupt", "orc", weapon="sword", trigger="moves", dice=MISS)
    act(e, "orc", "move", units=1)
    assert (ts(e, "alice"), e.state.turn) == (4, "orc")


def test_002_9_movement_costs_1_ts_per_unit(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "move", units=3)
    assert ts(e, "alice") == 7
    with pytest.raises(BadInputError, match="at least one unit"):
        act(e, "alice", "move", units=0)
    heavy = ts_fight(fracas, options={"move_ts": 2})
    act(heavy, "alice", "move", units=3)
    assert ts(heavy, "alice") == 4


def test_002_10_a_spell_costs_the_ts_it_lists(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "cast", "alice", spell="mend")
    # Spark: [V] 4+4+3 = 11 against the orc's dodge 2+2 = 4; 3 damage.
    out = act(e, "alice", "cast", "orc", spell="spark", dice=[4, 4, 2, 2])
    assert ts(e, "alice") == 10 - 2 - 4 and hp(e, "orc") == 12
    assert "002-10" in next(ev for ev in out if isinstance(ev, Spent)).rules
    with pytest.raises(RefusedError, match="knows no spell 'fireball'"):
        act(e, "alice", "cast", "orc", spell="fireball")


def test_002_11_aiming_costs_2_ts_per_plus_1_with_an_equipped_weapon(fracas):
    e = ts_fight(fracas)
    with pytest.raises(RefusedError, match="has not drawn the pistol"):
        act(e, "alice", "aim", weapon="pistol")
    act(e, "alice", "aim", weapon="sword", points=2)
    assert ts(e, "alice") == 6
    roll = rolled(act(e, "alice", "attack", "orc", weapon="sword", dice=MISS))[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(3, "[V] bonus"), (2, "aimed")]
    assert "aiming" not in fighter(e, "alice").conditions


def test_002_12_reloading_costs_the_ts_the_weapon_lists(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "draw", weapon="pistol")
    act(e, "alice", "reload", weapon="pistol")
    assert ts(e, "alice") == 10 - 1 - 2
    with pytest.raises(RefusedError, match="the sword lists no reload"):
        act(e, "alice", "reload", weapon="sword")


def test_002_13_ending_the_turn_saves_the_ts_until_the_round_ends_then_they_are_lost(fracas):
    e = ts_fight(fracas)
    end_turn(e)
    assert e.state.turn == "orc" and ts(e, "alice") == 10
    end_turn(e)
    end_turn(e)
    assert e.state.round == 2 and ts(e, "alice") == 10  # not 20: saved TS do not carry over


def test_002_14_a_stat_roll_is_2d10_read_0_to_9_plus_the_stat_less_10(fracas):
    e = ts_fight(fracas)
    fail = rolled(act(e, "alice", "check", stat="u", difficulty=12, dice=[0, 9]))[0]
    assert (fail.roll.total, fail.result) == (9, "fails")  # 0 + 9 + 1
    success = rolled(act(e, "alice", "check", stat="u", difficulty=12, dice=[9, 2]))[0]
    assert success.result == "succeeds"  # 9 + 2 + 1 = 12
    with pytest.raises(BadInputError, match=r"faces run 0\.\.9"):
        act(e, "alice", "check", stat="u", dice=[10, 1])


def test_002_15_an_attack_hits_only_when_strictly_above_the_defence(fracas):
    e = ts_fight(fracas)
    tie = act(e, "alice", "attack", "orc", weapon="sword", dice=[5, 5, 9, 4])  # 13 vs 13
    assert rolled(tie)[0].result == "misses" and hp(e, "orc") == 15
    act(e, "alice", "attack", "orc", weapon="sword", dice=[5, 6, 9, 4])  # 14 vs 13
    assert hp(e, "orc") == 11


def test_002_15_an_attack_naming_no_weapon_is_made_with_the_one_equipped(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "attack", "orc", dice=[5, 6, 9, 4])  # the sword (4), not fists (1)
    assert hp(e, "orc") == 11


def test_002_16_a_natural_18_doubles_damage_but_must_still_beat_the_defence(fracas):
    e = ts_fight(fracas)
    act(e, "alice", "attack", "orc", weapon="sword", dice=[9, 9, 2, 2])  # 21 vs 4
    assert hp(e, "orc") == 15 - 8
    quick_orc = {**ORC, "q": 14}  # dodge 9+9+4 = 22 beats 21
    e2 = ts_fight(fracas, orc=quick_orc, dice=[])
    assert rolled(act(e2, "alice", "attack", "orc", weapon="sword", dice=[9, 9, 9, 9]))[
        0
    ].result == ("misses")
    e3 = ts_fight(fracas, options={"natural_18_hits": True}, orc=quick_orc)
    act(e3, "alice", "attack", "orc", weapon="sword", dice=[9, 9, 9, 9])
    assert hp(e3, "orc") == 15 - 8


def test_002_17_multipliers_add_the_base_once_more_each_so_18_and_head_is_x3(fracas):
    e = ts_fight(fracas)
    # 9+9+3-7 = 14 against 4: a natural 18 and a head shot, 4 x 3 = 12.
    out = act(e, "alice", "attack", "orc", weapon="sword", called="head", dice=[9, 9, 2, 2])
    damaged = next(ev for ev in out if isinstance(ev, Damaged))
    assert damaged.amount == 12 and hp(e, "orc") == 3
    assert [m.reason for m in damaged.breakdown][1] == "x3: natural 18, head shot"


def test_002_18_called_shots_head_heart_and_limbs(fracas):
    e = ts_fight(fracas, orc={**ORC, "hp": 30, "stagger_threshold": 9})
    # Head: 8+8+3-7 = 12 against 4: 4 x 2 = 8.
    act(e, "alice", "attack", "orc", weapon="sword", called="head", dice=[8, 8, 2, 2])
    assert hp(e, "orc") == 22
    # Heart: 9+8+3-10 = 10 against 4: 8 damage and dying at once, conscious, at -2.
    act(e, "alice", "attack", "orc", weapon="sword", called="heart", dice=[9, 8, 2, 2])
    orc = fighter(e, "orc")
    assert hp(e, "orc") == 14 and "dying" in orc.conditions and "unconscious" not in orc.conditions
    assert "dying (5:00 left, heart wound: -2)" in e.view().wounds[1].conditions
    end_turn(e)
    roll = rolled(act(e, "orc", "attack", "alice", weapon="axe", dice=[0, 0, 9, 9]))[0]
    assert (-2, "heart wound") in [(m.value, m.reason) for m in roll.modifiers]

    limbs = ts_fight(fracas)
    # Limb, melee: 9+9+3-5 = 16 against 4: x2 = 8, over the cap of 15 // 3 = 5: amputated.
    act(
        limbs,
        "alice",
        "attack",
        "orc",
        weapon="sword",
        called="limb",
        limb="right arm",
        dice=[9, 9, 2, 2],
    )
    assert hp(limbs, "orc") == 10 and fighter(limbs, "orc").limbs("amputated") == ["right arm"]
    # Limb, ranged: the pistol's 4 on the goblin's cap of 8 // 3 = 2: crippled.
    act(limbs, "alice", "draw", weapon="pistol")
    act(
        limbs,
        "alice",
        "attack",
        "goblin",
        weapon="pistol",
        called="limb",
        limb="left leg",
        dice=[9, 8, 0, 0],
    )
    assert hp(limbs, "goblin") == 6 and fighter(limbs, "goblin").limbs("crippled") == ["left leg"]
    end_turn(limbs)
    with pytest.raises(RefusedError, match="right arm is amputated: it cannot attack"):
        act(limbs, "orc", "attack", "alice", weapon="axe", dice=MISS)


def test_002_19_dr_comes_off_after_the_multipliers(fracas):
    e = ts_fight(fracas)
    end_turn(e)
    # The orc's natural 18: 9+9+1 = 19 against Alice's dodge 0+0+2 = 2; 5 x 2 - 1 DR = 9.
    out = act(e, "orc", "attack", "alice", weapon="axe", dice=[9, 9, 0, 0])
    assert hp(e, "alice") == 11
    assert [m.value for m in next(ev for ev in out if isinstance(ev, Damaged)).breakdown] == [
        5,
        5,
        -1,
    ]


def test_002_20_below_1_hp_is_0_unconscious_and_dying_an_npc_dies_unless_nonlethal(fracas):
    e = ts_fight(fracas, alice={**ALICE, "hp": 3})
    end_turn(e)
    act(e, "orc", "attack", "alice", weapon="axe", dice=[5, 5, 0, 0])  # 5 - 1 = 4 >= 3
    alice = fighter(e, "alice")
    assert alice.hp == 0 and {"unconscious", "dying"} <= set(alice.conditions)
    goblin = {**GOBLIN, "hp": 4}
    lethal = ts_fight(fracas, goblin=goblin)
    act(lethal, "alice", "attack", "goblin", weapon="sword", dice=[5, 5, 0, 0])
    assert "dead" in fighter(lethal, "goblin").conditions
    spared = ts_fight(fracas, goblin=goblin)
    act(spared, "alice", "attack", "goblin", weapon="sword", nonlethal=True, dice=[5, 5, 0, 0])
    assert {"unconscious", "dying"} <= set(fighter(spared, "goblin").conditions)
    assert "dead" not in fighter(spared, "goblin").conditions


def dying_alice(fracas, **kwargs):
    """Alice (3 HP) dropped by the orc in round 1, at game time 0:00: 5:00 left."""
    e = ts_fight(fracas, alice={**ALICE, "hp": 3}, **kwargs)
    end_turn(e)
    act(e, "orc", "attack", "alice", weapon="axe", dice=[5, 5, 0, 0])
    return e


def test_002_21_dying_five_minutes_attacks_take_a_minute_healing_adds_them(fracas):
    e = dying_alice(fracas)
    end_turn(e)
    # Unconscious, Alice rolls no defence: the goblin's 5+5 beats 0; 3 - 1 DR = 2, HP stays 0.
    act(e, "goblin", "attack", "alice", weapon="spear", dice=[5, 5])
    assert e.state.seconds_left(fighter(e, "alice")) == 240 and hp(e, "alice") == 0
    end_turn(e)
    assert e.state.round == 2 and e.state.seconds_left(fighter(e, "alice")) == 234
    act(e, "orc", "heal", "alice", hp=1)  # a minute: 4:54
    assert e.state.seconds_left(fighter(e, "alice")) == 294
    act(e, "orc", "heal", "alice", hp=2)  # past 5:00: both points are HP and dying ends
    alice = fighter(e, "alice")
    assert alice.hp == 2 and "dying" not in alice.conditions and "unconscious" in alice.conditions


def test_002_21_a_medical_kit_and_3_ts_stop_the_dying(fracas):
    e = dying_alice(fracas, bob={**ALICE, "q": 8, "medical_kit": True}, dice=[0, 0])
    end_turn(e)
    end_turn(e)
    assert e.state.turn == "bob"
    act(e, "bob", "treat", "alice")
    assert ts(e, "bob") == 7 and "dying" not in fighter(e, "alice").conditions


def test_002_21_the_dying_die_when_the_timer_runs_out(fracas):
    e = dying_alice(fracas, options={"seconds_per_round": 120})
    for _ in range(5):  # rounds 2 (2:00), 3 (4:00) and 4 (6:00)
        end_turn(e)
    assert e.state.round == 3 and "dead" not in fighter(e, "alice").conditions
    end_turn(e)
    end_turn(e)
    assert e.state.round == 4 and "dead" in fighter(e, "alice").conditions


def test_002_22_a_failed_surprise_roll_gets_no_ts_that_round(fracas):
    # Against Alice's [Q] 12: the orc 9+4-1 = 12 holds, the goblin 5+5+0 = 10 is surprised.
    e = ts_fight(fracas, begin={"surprised": ["orc", "goblin"]}, dice=[9, 4, 5, 5])
    assert (ts(e, "orc"), ts(e, "goblin")) == (10, 0)
    end_turn(e)
    end_turn(e)
    assert e.state.round == 2 and ts(e, "goblin") == 10
    # With the orc among the surprisers the bar is (12 + 10) // 2 = 11: 5+5+0 = 10 still fails.
    mixed = ts_fight(
        fracas, begin={"surprised": ["goblin"], "surprising": ["alice", "orc"]}, dice=[5, 5]
    )
    assert rolled(all_events(mixed))[-1].target == 11 and ts(mixed, "goblin") == 0


def test_002_23_dodge_block_and_parry(fracas):
    e = ts_fight(fracas)
    dodged = act(e, "alice", "attack", "orc", weapon="sword", dice=MISS)
    assert "may move 1 unit free" in resolved(dodged)[-1]
    parried = rolled(
        act(e, "alice", "attack", "goblin", weapon="sword", defence={"goblin": "parry"}, dice=MISS)
    )[1]
    assert [m.value for m in parried.modifiers] == [1, 1, -3]
    with pytest.raises(RefusedError, match="holds no shield"):
        act(e, "alice", "attack", "orc", weapon="sword", defence={"orc": "block"}, dice=MISS)
    end_turn(e)
    blocked = rolled(
        act(
            e, "orc", "attack", "alice", weapon="axe", defence={"alice": "block"}, dice=[0, 0, 9, 9]
        )
    )[1]
    assert [m.value for m in blocked.modifiers] == [2, 3]


def test_002_24_stagger_beyond_the_threshold_loses_ts_bars_block_and_adds_damage(fracas):
    e = ts_fight(fracas, alice={**ALICE, "ts_max": 12}, orc={**ORC, "hp": 40})
    act(e, "alice", "attack", "orc", weapon="sword", dice=[9, 9, 2, 2])  # x2: 2 points
    act(e, "alice", "attack", "orc", weapon="sword", dice=[5, 5, 2, 2])  # 3: not above 3
    assert fighter(e, "orc").stagger == 3 and "staggered" not in fighter(e, "orc").conditions
    act(e, "alice", "attack", "orc", weapon="sword", dice=[5, 5, 2, 2])  # 4 > 3: staggered
    assert "staggered" in fighter(e, "orc").conditions and ts(e, "orc") == 0
    with pytest.raises(RefusedError, match="staggered and can only dodge"):
        act(e, "alice", "attack", "orc", weapon="sword", defence={"orc": "parry"}, dice=MISS)
    act(e, "alice", "attack", "orc", weapon="sword", dice=[5, 5, 2, 2])  # 4 + 1 staggered
    assert hp(e, "orc") == 40 - 8 - 4 - 4 - 5
    # At the start of the orc's turn the stagger ends; with no TS, its turn passes at once.
    assert e.state.turn == "goblin"
    assert fighter(e, "orc").stagger == 0 and "staggered" not in fighter(e, "orc").conditions


def test_002_24_a_hit_that_dr_stops_still_staggers(fracas):
    e = ts_fight(fracas, orc={**ORC, "dr": 10})
    act(e, "alice", "attack", "orc", weapon="sword", dice=[5, 5, 2, 2])
    assert hp(e, "orc") == 15 and fighter(e, "orc").stagger == 1


def test_002_25_a_chosen_point_is_the_centre_of_a_unit(fracas):
    e = ts_fight(fracas)
    out = act(e, "alice", "cast", spell="light", at="the unit by the door")
    assert resolved(out) == ["casts light at the centre of the unit by the door"]
    assert "002-25" in next(ev for ev in out if isinstance(ev, Resolved)).rules


def test_002_21_the_gm_may_let_a_healed_character_wake(fracas):
    e = dying_alice(fracas, options={"healed_wakes": True})
    act(e, "orc", "heal", "alice", hp=1)  # 5:00 left already: the point is 1 HP
    alice = fighter(e, "alice")
    assert alice.hp == 1 and not {"dying", "unconscious"} & set(alice.conditions)


def test_002_20_the_dead_neither_act_nor_are_attacked_and_the_refusal_says_what_to_do(fracas):
    """Issue 40: 'goblin is already dead' said what was wrong and not what to do."""
    e = ts_fight(fracas, goblin={**GOBLIN, "hp": 4})
    act(e, "alice", "attack", "goblin", weapon="sword", dice=[5, 5, 0, 0])
    assert "dead" in fighter(e, "goblin").conditions
    with pytest.raises(RefusedError) as refused:
        act(e, "alice", "attack", "goblin", weapon="sword", dice=[5, 5, 0, 0])
    assert str(refused.value) == (
        "goblin is already dead: pick a living target, or if the death was a mistake, "
        "`fracas undo` the step that killed them"
    )
    with pytest.raises(RefusedError, match="is dead and cannot act: act with another"):
        act(e, "goblin", "attack", "alice", weapon="spear", dice=[5, 5, 0, 0])
