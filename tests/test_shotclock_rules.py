"""Feng Shui's shot clock, rule by rule (RULES.md §001), with typed dice.

Initiative faces are given in joining order; attack dice are the open roll's positive die
(and its rerolls on a six), then the negative die (and its rerolls).
"""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.projections.board import headline
from fracas.rules.events import InitiativeSet, Rolled
from tests.casts.shotclock import (
    BOSS,
    JACK,
    MOOK,
    act,
    clock,
    next_shots,
    shot_fight,
    wounds,
)
from tests.support import do, rolls


def duel(fracas, jack_face: int = 4, boss_face: int = 3, **options):
    """Jack 4 + 8 = shot 12, the boss 3 + 7 = shot 10."""
    return shot_fight(
        fracas, ("jack", JACK), ("boss", BOSS), initiative=[jack_face, boss_face], options=options
    )


def test_001_1_combat_runs_in_sequences_of_shots(fracas):
    e = duel(fracas)
    assert clock(e) == (1, 12)
    assert e.view().round == 1 and e.view().phase == "sequence 1, shot 12"


def test_001_2_initiative_is_one_closed_d6_plus_speed(fracas):
    e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS))
    begun = do(e, {"action": "begin"}, [6, 1])  # a six is not rerolled: one face each
    values = {ev.combatant: ev.value for ev in begun.events if isinstance(ev, InitiativeSet)}
    assert values == {"jack": 6 + 8, "boss": 1 + 7}
    assert [r.roll.faces for r in rolls(begun.events)] == [[6], [1]]


def test_001_3_the_sequence_starts_at_the_highest_result_and_counts_down(fracas):
    e = duel(fracas)
    assert clock(e) == (1, 12) and e.view().acting == ["jack"]
    act(e, "jack", "other", shots=3)  # 12 - 3 = 9; the boss's 10 is higher
    assert clock(e) == (1, 10) and e.view().acting == ["boss"]
    with pytest.raises(RefusedError, match="it is shot 10"):
        act(e, "jack", "other", shots=1)


def test_001_4_same_shot_order_is_speed_then_pcs_unless_the_gm_orders(fracas):
    e = duel(fracas, jack_face=2, boss_face=3)  # both on shot 10; Jack's Speed 8 beats 7
    assert e.view().acting == ["jack"], "only Jack may act now"
    assert headline(e.view(), e.ruleset) == "Sequence 1 · shot 10 · jack to act"
    with pytest.raises(RefusedError, match=r"jack acts first on shot 10"):
        act(e, "boss", "other", shots=3)
    e2 = shot_fight(
        fracas, ("jack", JACK), ("boss", BOSS), initiative=[2, 3], options={"same_shot_order": "gm"}
    )
    assert e2.view().acting == ["jack", "boss"], "in the GM's order either may act"
    assert headline(e2.view(), e2.ruleset) == "Sequence 1 · shot 10 · jack, boss to act"
    act(e2, "boss", "other", shots=3)
    assert next_shots(e2) == {"jack": 10, "boss": 7} and clock(e2) == (1, 10)


def test_001_4_equal_speed_and_side_are_ordered_by_a_tie_roll(fracas):
    e = shot_fight(fracas, ("a", JACK), ("b", MOOK), ("c", MOOK))
    do(e, {"action": "begin"}, [20, 70, 1, 2, 2])  # b and c tie on Speed and side: d100 each
    assert clock(e) == (1, 9) and e.view().acting == ["a"]
    act(e, "a", "other", shots=3)
    assert e.view().acting == ["c"], "c rolled 70 to b's 20"
    assert [row.combatant for row in e.view().initiative][:2] == ["c", "b"]
    with pytest.raises(RefusedError, match=r"it is shot 7 \(c to act\); a next acts on shot 6"):
        act(e, "a", "other", shots=3)


def test_001_5_the_next_shot_is_the_shot_minus_the_cost(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=5)
    assert next_shots(e)["jack"] == 12 - 5


def test_001_6_an_attack_costs_three_shots(fracas):
    e = duel(fracas)
    spent = act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1]).events
    assert next_shots(e)["jack"] == 9
    assert [ev.amount for ev in spent if type(ev).__name__ == "Spent"] == [3]


def test_001_7_movement_goes_with_a_three_shot_action_running_doubles_it_capped_per_sequence(
    fracas,
):
    e = duel(fracas, **{})  # Move 5
    with pytest.raises(RefusedError, match="at most 5 m"):
        act(e, "jack", "other", shots=3, metres=6)
    with pytest.raises(RefusedError, match="alongside a 3-shot action"):
        act(e, "jack", "other", shots=1, metres=2)
    with pytest.raises(RefusedError, match="can't be a snapshot"):
        act(e, "jack", "run", metres=10, snapshot=1)
    act(e, "jack", "run", metres=10)  # 2 x Move
    act(e, "boss", "other", shots=3)
    with pytest.raises(RefusedError, match="moved 10 m this sequence; the cap is 15 m"):
        act(e, "jack", "run", metres=6)
    act(e, "jack", "other", shots=3, metres=5)
    assert e.state.fighters["jack"].moved == 15


def test_001_8_simple_actions_and_parries_cost_one_shot(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=1, what="draws a weapon")
    assert next_shots(e)["jack"] == 11
    act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 6, 1], defence={"boss": "parry"})
    assert next_shots(e) == {"jack": 8, "boss": 9}, "the parry took one shot off the boss's 10"


def test_001_9_after_shot_1_a_new_sequence_rolls_initiative_and_there_is_no_shot_0(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=11)  # to shot 1
    act(e, "boss", "other", shots=9)  # to shot 1
    assert clock(e) == (1, 1) and e.view().acting == ["jack"]
    act(e, "jack", "other", shots=1)
    new = act(e, "boss", "other", shots=1, dice=[5, 6]).events
    assert clock(e) == (2, 13) and next_shots(e) == {"jack": 13, "boss": 13}
    assert [r.purpose for r in rolls(new)] == ["initiative", "initiative"]
    assert 0 not in [e.state.shot]


def test_001_9_one_back_in_a_fight_nobody_was_left_to_act_in_opens_a_new_sequence(fracas):
    """Jack spends his last shot, is removed, then the boss on his own shot: nobody is left
    and the clock stops. Jack's return opens sequence 2 for him (it crashed on his act)."""
    e = duel(fracas)
    act(e, "jack", "other", shots=12)
    do(e, {"action": "gm.remove", "target": "jack"})
    do(e, {"action": "gm.remove", "target": "boss"})
    assert e.view().acting == []
    do(e, {"action": "gm.return", "target": "jack"})
    act(e, "jack", "other", shots=1)
    returned = e.events_of_step(e.history.head_step - 1)
    assert [r.purpose for r in rolls(returned)] == ["initiative"]
    started = next(ev.value for ev in returned if isinstance(ev, InitiativeSet))
    assert clock(e) == (2, started - 1) and e.view().acting == ["jack"]


def test_001_9_a_newcomer_to_a_fight_nobody_was_left_to_act_in_opens_a_new_sequence(fracas):
    """Both removed, the clock stops; a mook joining then acts in sequence 2 (it crashed)."""
    e = duel(fracas)
    do(e, {"action": "gm.remove", "target": "boss"})
    do(e, {"action": "gm.remove", "target": "jack"})
    joined = do(e, {"action": "join", "combatant": "mook", "sheet": MOOK, "side": "npc"})
    act(e, "mook", "other", shots=1)
    started = next(ev.value for ev in joined.events if isinstance(ev, InitiativeSet))
    assert clock(e) == (2, started - 1) and next_shots(e)["mook"] == started - 1


def test_001_10_on_shots_2_and_1_three_shot_actions_drop_the_excess(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=10)  # to shot 2
    act(e, "boss", "other", shots=10)  # to shot 0: done for the sequence
    assert clock(e) == (1, 2)
    done = act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1, 1, 1]).events
    assert "the excess is not carried over" in " ".join(getattr(ev, "outcome", "") for ev in done)
    assert clock(e) == (2, 9) and next_shots(e) == {"jack": 9, "boss": 8}
    assert "carrying" not in e.state.fighters["jack"].conditions


def test_001_11_longer_actions_carry_over(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=10)  # to shot 2
    act(e, "boss", "other", shots=10)
    act(e, "jack", "other", shots=4, what="hot-wire the van", dice=[1, 1])
    assert e.state.fighters["jack"].conditions == {}, "the carry is spent at once"
    assert next_shots(e)["jack"] == 1 + 8 - 2  # initiative 9 less the 2 left over


def test_001_12_defences_off_turn_only_while_the_next_shot_is_above_0(fracas):
    e = duel(fracas)
    act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1], defence={"boss": "dodge"})
    assert next_shots(e)["boss"] == 9, "each defence lowers the next shot by one"
    act(e, "jack", "other", shots=7)  # Jack to 2
    act(e, "boss", "other", shots=8)  # the boss to 1
    act(
        e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1, 1, 1], defence={"boss": "dodge"}
    )  # from shot 2; the boss dodges from 1 to 0
    assert e.state.sequence == 2, "with the boss at 0 nobody was left, so a new sequence"
    e2 = duel(fracas)
    act(e2, "jack", "other", shots=8)  # to 4
    act(e2, "boss", "other", shots=10)  # to 0
    with pytest.raises(RefusedError, match="no shot left this sequence"):
        act(e2, "jack", "attack", "boss", weapon="beretta", dice=[1, 1], defence={"boss": "dodge"})


def test_001_13_a_character_may_spend_every_shot_on_defence(fracas):
    e = duel(fracas, jack_face=6, boss_face=1)  # Jack 14, the boss 8
    for _ in range(8):  # one-shot snapshots from 14 down to 7; the boss dodges each: 8 -> 0
        act(
            e,
            "jack",
            "attack",
            "boss",
            weapon="beretta",
            dice=[1, 1],
            snapshot=2,
            defence={"boss": "dodge"},
        )
    assert next_shots(e) == {"jack": 6, "boss": 0} and clock(e) == (1, 6)
    assert e.state.fighters["boss"].wounds == 0, "every attack missed the active dodge"
    with pytest.raises(RefusedError, match="no shot left"):
        act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1], defence={"boss": "dodge"})


def test_001_14_snapshots_cut_one_shot_at_minus_2_or_two_at_minus_5(fracas):
    e = duel(fracas)
    with pytest.raises(BadInputError, match="1 or 2 shots"):
        act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1], snapshot=3)
    with pytest.raises(RefusedError, match="below 1 shot"):
        act(e, "jack", "other", shots=1, snapshot=1)
    first = act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1], snapshot=1).events
    assert next_shots(e)["jack"] == 12 - 2
    assert [m.value for m in rolls(first)[0].modifiers] == [14, -2]
    second = act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1], snapshot=2).events
    assert [m.value for m in rolls(second)[0].modifiers] == [14, -5]
    assert next_shots(e)["jack"] == 10 - 1


def test_001_15_a_snapshot_combines_with_other_stunt_penalties(fracas):
    e = duel(fracas)
    stunt = {"value": -2, "reason": "swinging from the chandelier"}
    done = act(
        e, "jack", "attack", "boss", weapon="beretta", dice=[6, 4, 1], snapshot=1, modifiers=[stunt]
    ).events
    roll = rolls(done)[0]
    assert sorted(m.value for m in roll.modifiers) == [-2, -2, 14]
    # (6 + 4) - 1 = 9; AR 9 + 14 - 2 - 2 = 19 against Dodge 15
    assert roll.target == 15 and "AR 19, outcome 4" in (roll.result or "")


def test_001_16_continuous_actions_add_a_shot_to_every_other_action(fracas):
    e = duel(fracas)
    act(e, "jack", "continuous", what="driving")
    assert e.view().notes == ["jack: continuous driving (+1 shot to every other action)"]
    act(e, "jack", "attack", "boss", weapon="beretta", dice=[1, 1])
    assert next_shots(e)["jack"] == 12 - 4
    act(e, "boss", "attack", "jack", dice=[1, 1], defence={"jack": "dodge"})
    assert next_shots(e)["jack"] == 8 - 2, "by default the dodge costs one more too"
    act(e, "boss", "other", shots=3)  # the boss, on 7, to 4
    act(e, "jack", "stop", what="driving")
    act(e, "jack", "other", shots=3)
    assert next_shots(e)["jack"] == 3 and e.view().notes == []


def test_001_16_the_gm_may_spare_defences_the_surcharge(fracas):
    e = duel(fracas, surcharge_defences=False)
    act(e, "jack", "continuous", what="driving")
    act(e, "jack", "other", shots=3)  # 12 -> 8
    act(e, "boss", "attack", "jack", dice=[1, 1], defence={"jack": "dodge"})
    assert next_shots(e)["jack"] == 7


def test_001_17_an_extra_long_action_completes_in_the_next_sequence(fracas):
    """RULES.md's check: cost 5 started on shot 2 carries 3; initiative 12 completes on 9."""
    e = duel(fracas)
    act(e, "jack", "other", shots=10)  # to shot 2
    act(e, "boss", "other", shots=10)  # to 0
    act(e, "jack", "other", shots=5, what="defuse the bomb", dice=[4, 1])  # 4 + 8 = 12
    assert clock(e) == (2, 9) and next_shots(e) == {"jack": 9, "boss": 8}
    assert e.state.fighters["jack"].initiative == 12


def test_001_17_a_carry_can_span_more_than_one_sequence(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=10)  # to shot 2
    act(e, "boss", "other", shots=10)
    act(e, "jack", "other", shots=20, what="repair the engine", dice=[4, 1])
    # carry 18; sequence 2 initiative 12 leaves 6 to carry again; the boss acts alone
    assert clock(e) == (2, 8) and next_shots(e) == {"jack": 0, "boss": 8}
    assert e.view().notes == ["jack: repair the engine carries 6 shots into the next sequence"]
    act(e, "boss", "other", shots=8, dice=[1, 1])  # sequence 3: Jack 1 + 8 = 9 - 6 = 3
    assert clock(e) == (3, 8) and next_shots(e) == {"jack": 3, "boss": 8}
    assert "carrying" not in e.state.fighters["jack"].conditions
    assert isinstance(rolls(e.events_of_step(e.history.head_step))[0], Rolled)


def test_001_M3_an_attack_naming_no_weapon_is_made_with_the_first_on_the_sheet(fracas):
    e = duel(fracas)
    out = act(e, "jack", "attack", "boss", dice=[3, 1])  # the beretta: Guns 14, not a punch
    assert rolls(out.events)[0].modifiers[0].value == 14
    assert wounds(e, "boss") == 2 + 14 - 15 + 10 - 8


def test_001_M3_with_no_weapon_on_the_sheet_an_attack_naming_none_is_a_punch(fracas):
    e = duel(fracas)
    act(e, "jack", "other", shots=3)
    out = act(e, "boss", "attack", "jack", dice=[6, 1, 1])  # Martial Arts 15, Strength 6
    assert rolls(out.events)[0].modifiers[0].value == 15
    assert wounds(e, "jack") == (6 + 1 - 1) + 15 - 14 + 6 - 7
