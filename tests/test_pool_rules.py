"""The Contract's d10 dice pool, rule by rule (RULES.md §004), with typed dice.

Outcome: +1 per die at or above the Difficulty, +2 per 10, -1 per 1 (mechanic 1).
"""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.events import Damaged, Spent
from tests.casts.pool import (
    ANA,
    MISS4,
    SWORD,
    THUG,
    act,
    injuries,
    pool_fight,
)
from tests.support import do, rolls


def ana_swings_at_bob(e, defence: str, attack_faces: list[int], defence_faces: list[int]):
    """Ana's five sword dice at Bob, who reacts with `defence`."""
    return act(
        e,
        "ana",
        "attack",
        "bob",
        weapon="sword",
        defence={"bob": defence},
        dice=attack_faces + defence_faces,
    )


def test_004_1_one_action_on_each_turn_in_initiative_order(fracas):
    e = pool_fight(fracas)
    assert [row.combatant for row in e.view().initiative] == ["ana", "bob", "thug"]
    act(e, "ana", "attack", "bob", weapon="sword", dice=[2] * 5)
    assert e.state.turn == "bob"
    with pytest.raises(RefusedError, match="it is bob's turn"):
        act(e, "ana", "attack", "bob", weapon="sword", dice=[2] * 5)


def test_004_2_the_weapon_sets_the_roll_and_the_gm_may_shift_the_difficulty(fracas):
    e = pool_fight(fracas)
    roll = rolls(
        act(
            e,
            "ana",
            "attack",
            "thug",
            weapon="sword",
            dice=[6, 6, 7, 2, 2],
            modifiers=[{"value": 1, "reason": "rain"}],
        )
    )[0]
    assert (
        roll.roll.dice == "5d10"
        and roll.target == 7
        and roll.result == "outcome 1: partial success"
    )


def test_004_2_an_attack_naming_no_weapon_is_made_with_the_first_on_the_sheet(fracas):
    e = pool_fight(fracas)
    roll = rolls(act(e, "ana", "attack", "thug", dice=[6, 6, 7, 2, 2]))[0]
    assert roll.roll.dice == "5d10" and roll.target == 6  # the sword: Brawn 3 + Melee 2, at 6


def test_004_2_with_no_weapon_on_the_sheet_an_attack_naming_none_is_with_fists(fracas):
    e = pool_fight(fracas, ana={**ANA, "weapons": []})
    roll = rolls(act(e, "ana", "attack", "thug", dice=[6, 6, 7, 2]))[0]
    assert roll.roll.dice == "4d10" and roll.target == 5  # Brawn 3 + Brawl 1, at 5


def test_004_3_quick_actions_take_two_dice_each_from_the_action_down_to_0(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "quick", what="draws her sword")
    act(e, "ana", "quick", what="kicks a chair")
    assert rolls(act(e, "ana", "attack", "thug", weapon="sword", dice=[10]))[0].roll.dice == "1d10"
    e2 = pool_fight(fracas)
    for _ in range(3):
        act(e2, "ana", "quick")
    done = act(e2, "ana", "attack", "thug", weapon="sword")
    assert not rolls(done) and "no dice left" in done[1].outcome


def test_004_4_passive_awareness_leaves_the_action_and_thinking_spends_it(fracas):
    e = pool_fight(fracas)
    act(
        e,
        "thug",
        "other",
        what="notices the shark",
        attribute="perception",
        ability="alertness",
        passive=True,
        dice=[2],
    )
    assert e.state.has_action(e.state.fighters["thug"]) and e.state.turn == "ana"
    act(
        e,
        "ana",
        "other",
        what="recalls the creature's weakness",
        attribute="intellect",
        ability="occult",
        dice=[2, 2],
    )
    assert not e.state.has_action(e.state.fighters["ana"]) and e.state.turn == "bob"


def test_004_5_a_hold_waits_for_its_trigger_until_the_next_turn_and_uses_that_rounds_action(
    fracas,
):
    e = pool_fight(fracas)
    act(e, "ana", "hold", "thug", weapon="sword", trigger="the thug draws")
    assert e.state.turn == "bob" and e.view().notes == [
        "ana holds an attack on thug until the thug draws"
    ]
    do(e, {"action": "next"})  # Bob
    do(e, {"action": "next"})  # the thug; round 2 begins with Ana: the hold lapses
    assert e.state.round == 2 and not e.state.fighters["ana"].has("holding")
    act(e, "ana", "hold", "thug", weapon="sword", trigger="the thug draws")
    do(e, {"action": "next"})  # Bob
    act(e, "ana", "fire", trigger="the thug draws", dice=[2] * 5)
    assert not e.state.has_action(e.state.fighters["ana"]), "round 2's Action is used"
    do(e, {"action": "next"})  # the thug ends round 2; in round 3 Ana acts afresh
    assert e.state.round == 3 and e.state.turn == "ana"


def test_004_5_firing_a_hold_in_the_next_round_forfeits_that_rounds_turn(fracas):
    e = pool_fight(fracas)
    do(e, {"action": "next"})  # Ana passes
    act(e, "bob", "hold", "thug", weapon="club", trigger="the thug turns")
    do(e, {"action": "next"})  # the thug: round 2, Ana first
    act(e, "bob", "fire", trigger="the thug turns", dice=MISS4)
    assert e.state.turn == "ana" and not e.state.has_action(e.state.fighters["bob"])
    do(e, {"action": "next"})  # Ana; Bob's turn is skipped: his Action went on the hold
    assert e.state.turn == "thug"


def test_004_6_a_holder_may_still_react(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "hold", "thug", weapon="sword", trigger="the thug draws")
    act(
        e,
        "bob",
        "attack",
        "ana",
        weapon="club",
        dice=[7, 7, 2, 2] + [7, 7, 7, 2, 2, 2, 2],
        defence={"ana": "dodge"},
    )  # 2 - 3: dodged
    assert e.state.fighters["ana"].has("holding") and injuries(e, "ana") == ()
    with pytest.raises(RefusedError, match="already used this round's Action"):
        act(e, "ana", "fire", dice=[2] * 5)


def test_004_7_a_held_action_resolves_before_a_melee_trigger_and_after_gunfire(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "hold", "bob", weapon="sword", trigger="Bob swings")
    melee = act(e, "bob", "attack", "ana", weapon="club", triggers=["ana"], dice=[2] * 5 + MISS4)
    assert [r.actor for r in rolls(melee)] == ["ana", "bob"]
    e2 = pool_fight(fracas)
    do(e2, {"action": "next"})
    do(e2, {"action": "next"})
    act(e2, "thug", "hold", "ana", weapon="pistol", trigger="Ana moves")  # thug holds
    gun = act(
        e2, "ana", "attack", "thug", weapon="pistol", triggers=["thug"], dice=[2] * 6 + [2] * 4
    )
    assert [r.actor for r in rolls(gun)] == ["ana", "thug"]


def test_004_7_a_held_blow_that_drops_the_attacker_stops_the_attack(fracas):
    e = pool_fight(fracas, ana={**ANA, "weapons": [{**SWORD, "name": "axe", "damage": 6}]})
    act(e, "ana", "hold", "bob", weapon="axe", trigger="Bob swings")
    done = act(e, "bob", "attack", "ana", weapon="club", triggers=["ana"], dice=[6, 6, 2, 2, 2])
    # 2 + 6 = Severity 8 against Bob's Body 6: dead before he swings
    assert e.state.fighters["bob"].dead and injuries(e, "ana") == ()
    assert "stopped by the held action" in [getattr(ev, "outcome", "") for ev in done]
    assert e.state.turn == "thug"


def test_004_8_a_split_shares_the_smallest_pool_two_dice_each_and_never_three_or_fewer(fracas):
    e = pool_fight(fracas)
    # sword 5 and dodge 7: 5 dice to split; 3 on Bob and 2 kept for a dodge
    done = act(e, "ana", "attack", "bob", weapon="sword", keep={"dodge": 2}, dice=[2, 2, 2])
    assert rolls(done)[0].roll.dice == "3d10"
    assert e.view().wounds[0].conditions == ["kept dice: dodge 2"]
    act(
        e,
        "bob",
        "attack",
        "ana",
        weapon="club",
        defence={"ana": "dodge"},
        dice=[7, 7, 2, 2] + [8, 8],
    )  # 2 - 2: the kept dice dodge it
    assert injuries(e, "ana") == ()
    with pytest.raises(RefusedError, match="at least 2 dice"):
        act(e, "thug", "attack", "ana", "bob", weapon="fists", shares=[4, 1], dice=[2] * 5)
    with pytest.raises(RefusedError, match="2 dice to split"):
        act(e, "thug", "attack", "ana", weapon="pistol", keep={"dodge": 2}, dice=[2] * 2)
    small = pool_fight(fracas, ana={**ANA, "brawn": 1})  # sword pool 3
    with pytest.raises(RefusedError, match="3 dice to split"):
        act(small, "ana", "attack", "bob", weapon="sword", keep={"dodge": 2}, dice=[2])


def test_004_9_a_split_attacks_two_targets_once_each_never_one_twice(fracas):
    e = pool_fight(fracas)
    with pytest.raises(RefusedError, match="same target twice"):
        act(e, "ana", "attack", "bob", "bob", weapon="sword", dice=[2] * 5)
    done = act(e, "ana", "attack", "bob", "thug", weapon="sword", dice=[7, 8, 2] + [9, 9])
    assert [r.roll.dice for r in rolls(done)] == ["3d10", "2d10"]
    # Bob: 2 + 1 - Bob's Brawn 0 (armor 0 vs a sword) = 3; the thug: 2 + 1 = 3
    assert injuries(e, "bob") == (3,) and injuries(e, "thug") == (3,)


def test_004_10_committed_actions_use_the_whole_pool(fracas):
    e = pool_fight(fracas)
    with pytest.raises(RefusedError, match="committed"):
        act(e, "ana", "attack", "bob", "thug", weapon="sniper rifle", dice=[2] * 6)
    done = act(e, "ana", "attack", "thug", weapon="sniper rifle", dice=[2] * 6)
    assert rolls(done)[0].roll.dice == "6d10"


def test_004_11_a_reaction_spends_the_action_and_none_is_left_after_it(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "attack", "bob", weapon="sword", dice=[2] * 5 + [2] * 4, defence={"bob": "dodge"})
    assert not e.state.has_action(e.state.fighters["bob"]) and e.state.turn == "thug"
    with pytest.raises(RefusedError, match="cannot react"):
        act(
            e,
            "thug",
            "attack",
            "bob",
            weapon="fists",
            dice=[2] * 5 + [2] * 4,
            defence={"bob": "dodge"},
        )


def test_004_12_firearms_cannot_be_reacted_to_without_a_power(fracas):
    e = pool_fight(fracas)
    with pytest.raises(RefusedError, match="without a Power"):
        act(e, "ana", "attack", "thug", weapon="pistol", defence={"thug": "dodge"}, dice=[2] * 10)
    powered = pool_fight(fracas, thug={**THUG, "firearm_reactions": True})
    act(
        powered,
        "ana",
        "attack",
        "thug",
        weapon="pistol",
        defence={"thug": "dodge"},
        dice=[7] * 6 + [7, 7],
    )  # 6 - 2 (Dodge 2 dice at 6 + 1 unskilled) + 2 damage
    assert injuries(powered, "thug") == (6 - 2 + 2,)


def test_004_13_a_dodge_subtracts_and_ties_go_to_the_defender(fracas):
    e = pool_fight(fracas)
    ana_swings_at_bob(e, "dodge", [6, 6, 2, 2, 2], [6, 6, 2, 2])  # 2 - 2 = 0: the attack fails
    assert injuries(e, "bob") == ()
    e2 = pool_fight(fracas)
    do(e2, {"action": "next"})
    act(
        e2,
        "bob",
        "attack",
        "ana",
        weapon="club",
        defence={"ana": "dodge"},
        dice=[6, 6, 6, 2] + [6, 6, 2, 2, 2, 2, 2],
    )  # 3 - 2 = 1 + 0 - 0 = Severity 1
    assert injuries(e2, "ana") == (1,)


def test_004_14_an_evade_outcome_is_shared_out_among_incoming_attacks(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "evade", dice=[7, 7, 8, 2, 2, 2, 2])  # difficulty 7: Outcome 3
    act(e, "bob", "attack", "ana", weapon="club", dice=[6, 6, 2, 2])  # 2 - 2 = 0: evaded
    assert e.view().wounds[0].conditions == ["evading (1 left)"]
    punch = act(e, "thug", "attack", "ana", weapon="fists", dice=[5, 5, 2, 2, 2])  # 2 - 1 = 1
    assert next((ev.resource, ev.amount) for ev in punch if isinstance(ev, Spent)) == ("evade", 1)
    # Severity 1 + 0 - Ana's Brawn 3 against hand-to-hand: no injury
    assert injuries(e, "ana") == ()
    assert e.state.turn == "ana" and e.view().wounds[0].conditions == [], "her next Action came"


def test_004_15_a_parry_needs_a_melee_weapon_against_melee_and_ties_go_to_the_defender(fracas):
    e = pool_fight(fracas)
    ana_swings_at_bob(e, "parry", [6, 6, 2, 2, 2], [6, 6, 2, 2])
    assert injuries(e, "bob") == ()
    e2 = pool_fight(fracas)
    do(e2, {"action": "next"})
    with pytest.raises(RefusedError, match="needs a melee weapon to parry a melee attack"):
        act(
            e2,
            "bob",
            "attack",
            "ana",
            weapon="club",
            defence={"ana": "parry"},
            defence_weapon={"ana": "pistol"},
            dice=[2] * 9,
        )


def test_004_16_brawl_is_parried_by_a_weapon_at_minus_1_or_by_brawl(fracas):
    e = pool_fight(fracas)
    do(e, {"action": "next"})
    do(e, {"action": "next"})
    done = act(
        e,
        "thug",
        "attack",
        "ana",
        weapon="fists",
        defence={"ana": "parry"},
        dice=[2] * 5 + [5, 5, 2, 2, 2],
    )
    assert rolls(done)[1].target == 5, "the sword parries a punch at 6 - 1"
    e2 = pool_fight(fracas)
    do(e2, {"action": "next"})
    do(e2, {"action": "next"})
    done2 = act(
        e2,
        "thug",
        "attack",
        "ana",
        weapon="fists",
        defence={"ana": "parry"},
        defence_weapon={"ana": "fists"},
        dice=[2] * 5 + [2] * 4,
    )
    assert rolls(done2)[1].roll.dice == "4d10" and rolls(done2)[1].target == 5


def test_004_17_a_character_may_parry_for_someone_in_range(fracas):
    e = pool_fight(fracas)
    do(e, {"action": "next"})
    done = act(
        e,
        "bob",
        "attack",
        "thug",
        weapon="club",
        defence={"thug": "parry"},
        defender={"thug": "ana"},
        dice=[6, 6, 2, 2] + [6, 6, 2, 2, 2],
    )
    assert [r.actor for r in rolls(done)] == ["bob", "ana"] and injuries(e, "thug") == ()
    assert not e.state.has_action(e.state.fighters["ana"])


def test_004_18_a_clash_compares_and_a_tie_hurts_both(fracas):
    e = pool_fight(fracas)
    ana_swings_at_bob(e, "clash", [6, 6, 2, 2, 2], [6, 6, 2, 2])  # 2 and 2: both deal full damage
    assert injuries(e, "bob") == (2 + 1,) and injuries(e, "ana") == (2 + 0,)
    e2 = pool_fight(fracas)
    ana_swings_at_bob(e2, "clash", [6, 2, 2, 2, 2], [6, 6, 6, 2])  # 1 to 3: Bob deals 3 + 0
    assert injuries(e2, "bob") == () and injuries(e2, "ana") == (3,)


def test_004_19_a_desperate_reaction_exerts_the_body_and_costs_two_dice_next_action(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "attack", "thug", weapon="sword", dice=[2] * 5)
    act(
        e,
        "bob",
        "attack",
        "ana",
        weapon="club",
        defence={"ana": "dodge"},
        desperate=["ana"],
        dice=[6, 2, 2, 2] + [6, 2, 2, 2, 2, 2, 2],
    )
    assert injuries(e, "ana") == (1,), "exerting the Body is a Severity-1 Injury"
    with pytest.raises(RefusedError, match="already exerted"):
        act(
            e,
            "thug",
            "attack",
            "ana",
            weapon="fists",
            defence={"ana": "dodge"},
            desperate=["ana"],
            dice=[2] * 12,
        )
    do(e, {"action": "next"})  # the thug; round 2: Ana's sword pool 5 - 2
    assert (
        rolls(act(e, "ana", "attack", "thug", weapon="sword", dice=[2] * 3))[0].roll.dice == "3d10"
    )
    assert not e.state.fighters["ana"].has("desperate")


def test_a_reaction_that_is_not_allowed_appends_nothing(fracas):
    e = pool_fight(fracas)
    step = e.history.head_step
    with pytest.raises(BadInputError):
        act(e, "ana", "attack", "bob", weapon="sword", shares=[2], keep={"run": 2}, dice=[2] * 5)
    assert e.history.head_step == step and not [
        ev for ev in e.events_of_step(step) if isinstance(ev, Damaged)
    ]


def test_004_11_004_19_a_reaction_in_the_round_after_a_desperate_one_takes_the_minus_2(fracas):
    e = pool_fight(fracas)
    ana_swings_at_bob(e, "dodge", MISS4 + [2], MISS4)  # round 1: Bob dodges with his Action
    act(
        e,
        "thug",
        "attack",
        "bob",
        weapon="fists",
        defence={"bob": "dodge"},
        desperate=["bob"],
        dice=[2] * 5 + [2] * 3,  # Bob exerts: a Severity-1 Injury, so 4 - 1 dice
    )
    assert e.state.fighters["bob"].has("desperate")
    out = ana_swings_at_bob(e, "dodge", MISS4 + [2], [2])  # round 2: Bob's Action, early
    dodge = rolls(out)[1]
    assert dodge.roll.dice == "1d10", "dodge 4, less 1 for the injury, less 2 (004-19)"
    cuts = [(m.value, m.rule) for m in dodge.modifiers if m.value < 0]
    assert cuts == [(-1, "004-M4"), (-2, "004-19")]
    assert "004-11" in dodge.rules
    assert not e.state.fighters["bob"].has("desperate"), "the next Action took the cut"


def test_004_11_004_3_a_reaction_after_quick_actions_keeps_only_the_remainder(fracas):
    e = pool_fight(fracas)
    do(e, {"action": "next"})  # Ana lets her turn go
    act(e, "bob", "quick", what="draws a second club")
    act(e, "bob", "hold", "ana", weapon="club", trigger="ana moves")
    out = act(
        e, "thug", "attack", "bob", weapon="fists", defence={"bob": "dodge"}, dice=[2] * 5 + [2] * 2
    )
    dodge = rolls(out)[1]
    assert dodge.roll.dice == "2d10", "dodge 4, less 2 for the quick action (004-3)"
    assert (-2, "004-3") in [(m.value, m.rule) for m in dodge.modifiers]
