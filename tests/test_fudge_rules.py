"""The Contract's early 4dF combat, rule by rule (RULES.md §003), with typed dice.

Initiative: Ana 5, Bo 2, Cy 0; Cy declares first and Ana resolves first. f(n) is four
Fudge faces adding up to n. A target who declared something aggressive gets no defence
(003-30), so most targets here declare `other` unless the test is about defence.
"""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.encounter import recorded_events
from fracas.rules.events import Damaged, InitiativeSet, Resolved
from tests.casts.fudge import (
    ANA,
    BO,
    CY,
    INITIATIVE,
    a,
    declare,
    declare_turn,
    f,
    fudge_fight,
    levels,
    resolve,
    rolled,
    terms,
)
from tests.support import do

BUSY = [a("other", what="shouts")]  # aggressive enough that no dodge is rolled (003-30)


def all_of(e) -> list:
    return [ev for _, ev in recorded_events(e.store, e.id, e.ruleset)]


def outcomes(events) -> list[str]:
    return [ev.told for ev in events if isinstance(ev, Resolved)]


def breakdown(events) -> list[tuple[int, str]]:
    hit = next(ev for ev in events if isinstance(ev, Damaged))
    return [(m.value, m.reason) for m in hit.breakdown]


def ana_shoots(fracas, at: str = "cy", options=None, target_plan=None, **fields):
    """Cy and Bo busy, Ana declares one pistol shot with `fields`; resolution opens."""
    e = fudge_fight(fracas, options=options, **fields.pop("changed", {}))
    plans = {"cy": BUSY, "bo": BUSY, at: target_plan if target_plan is not None else BUSY}
    declare_turn(e, **plans, ana=[a("attack", at, weapon=fields.pop("weapon", "pistol"), **fields)])
    return e


def test_003_1_attack_is_4df_plus_skill_minus_the_defence_and_the_rest_is_damage(fracas):
    e = ana_shoots(fracas, target_plan=[a("dodge")])
    # 2 + 3 = 5 against Cy's dodge 0 + 1 = 1: result 4; 4 + 3 pistol = 7 levels.
    out = resolve(e, f(2), f(0))
    assert rolled(out)[0].target == 1 and rolled(out)[0].result.startswith("hits")
    assert levels(e, "cy") == 7
    miss = ana_shoots(fracas, target_plan=[a("dodge")])
    assert outcomes(resolve(miss, f(-1), f(1)))[0].startswith("misses")  # 2 - 2 = 0
    assert levels(miss, "cy") == 0


def test_003_1_an_attack_naming_no_weapon_is_made_with_the_first_on_the_sheet(fracas):
    e = ana_shoots(fracas, target_plan=[a("dodge")], weapon="")
    resolve(e, f(2), f(0))  # the pistol: Ranged 3 and damage 3, as in the shot above
    assert levels(e, "cy") == 7


def test_003_2_a_modifier_beyond_3_is_an_automatic_success_or_failure(fracas):
    guard = [{"value": 4, "reason": "asleep"}]
    e = ana_shoots(fracas, at="bo", target_plan=[a("dodge")], modifiers=guard)
    # -3 + 3 + 4 = 4 against a dodge of 3 + 2 = 5 would miss; automatic: result 1, 1 + 3 = 4.
    resolve(e, f(-3), f(3))
    assert levels(e, "bo") == 4
    plain = ana_shoots(
        fracas,
        at="bo",
        target_plan=[a("dodge")],
        modifiers=guard,
        options={"big_modifiers": "apply"},
    )
    resolve(plain, f(-3), f(3))
    assert levels(plain, "bo") == 0
    storm = [{"value": -4, "reason": "hurricane"}]
    fail = ana_shoots(fracas, modifiers=storm)
    out = resolve(fail, f(3))  # 3 + 3 - 4 = 2 would hit
    assert "automatic failure" in rolled(out)[0].result and levels(fail, "cy") == 0


def test_003_3_a_critical_counts_5_a_critical_failure_always_misses(fracas):
    e = ana_shoots(fracas, target_plan=[a("dodge")])
    resolve(e, f(4), f(0))  # 5 + 3 - 1 = 7; 7 + 3 = 10 levels
    assert levels(e, "cy") == 10
    fumble = ana_shoots(fracas, modifiers=[{"value": 3, "reason": "point blank"}])
    out = resolve(fumble, f(-4))  # -4 + 3 + 3 = 2 with no defence would hit
    assert "critical failure" in rolled(out)[0].result and levels(fumble, "cy") == 0
    both = ana_shoots(fracas, target_plan=[a("dodge")])
    assert "critical" in outcomes(resolve(both, f(4), f(4)))[0] and levels(both, "cy") == 0


def test_003_4_every_roll_of_the_turn_is_at_minus_the_number_of_actions(fracas):
    e = fudge_fight(fracas)
    car = a("other", what="starts the car", skill="physique", difficulty=1)
    declare_turn(e, cy=BUSY, bo=BUSY, ana=[a("attack", "cy", weapon="pistol"), car])
    shot = rolled(resolve(e, f(0)))[0]  # 0 + 3 - 2 = 1: 1 + 3 = 4 levels
    assert (-2, "2 actions this turn") in terms(shot) and levels(e, "cy") == 4
    start = rolled(resolve(e, f(1)))[0]  # 1 + 2 - 2 = 1 >= 1
    assert (-2, "2 actions this turn") in terms(start) and start.result == "succeeds"


def test_003_5_several_targets_count_one_action_each_attacking_or_evading(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, cy=BUSY, bo=BUSY, ana=[a("attack", "bo", "cy", weapon="pistol")])
    out = resolve(e, f(0), f(0))
    assert [terms(r)[-1] for r in rolled(out)] == [(-2, "2 actions this turn")] * 2
    dodger = fudge_fight(fracas)
    declare_turn(
        dodger, cy=[a("attack", "bo")], bo=[a("dodge", "ana", "cy")], ana=[a("attack", "bo")]
    )
    dodge = rolled(resolve(dodger, f(0), f(0)))[1]
    assert (-2, "2 actions this turn") in terms(dodge)
    free = fudge_fight(fracas, options={"defence_counts_as_action": False})
    declare_turn(
        free, cy=[a("attack", "bo")], bo=[a("dodge", "ana", "cy")], ana=[a("attack", "bo")]
    )
    assert not any("actions" in r for _, r in terms(rolled(resolve(free, f(0), f(0)))[1]))


def test_003_6_single_shots_engage_at_most_3_targets(fracas):
    e = fudge_fight(
        fracas,
        dee={**CY, "skills": {"discipline": 1}},
        eve={**CY, "skills": {"discipline": 4}},
        dice=f(0) + f(0),
    )
    declare_turn(e, stop_at="ana", cy=BUSY, dee=BUSY, bo=BUSY)
    with pytest.raises(RefusedError, match="at most 3 targets"):
        declare(e, "ana", "attack", "bo", "cy", "dee", "eve", weapon="pistol")
    declare(e, "ana", "attack", "bo", "cy", "dee", weapon="pistol")
    declare(e, "ana", "attack", "bo", "cy", "dee", "eve", weapon="club")  # not a shot


def test_003_7_no_second_move_in_a_turn(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, stop_at="ana", cy=BUSY, bo=BUSY)
    declare(e, "ana", "move")
    with pytest.raises(RefusedError, match="no second move"):
        declare(e, "ana", "flee")


def aim_turn(e, bo_plan, ana_plan) -> None:
    declare_turn(e, cy=BUSY, bo=bo_plan, ana=ana_plan)
    while e.state.phase == "resolving":
        resolve(e)
    resolve(e, INITIATIVE)  # the next turn's initiative


def test_003_8_aiming_adds_1_a_turn_up_to_3_and_is_lost_when_either_moves_on(fracas):
    e = fudge_fight(fracas)
    for _ in range(4):
        aim_turn(e, BUSY, [a("aim", "bo", weapon="pistol")])
    assert e.state.fighters["ana"].conditions["aiming"]["bonus"] == 3
    declare_turn(e, cy=BUSY, bo=BUSY, ana=[a("attack", "bo", weapon="pistol")])
    assert (3, "aimed") in terms(rolled(resolve(e, f(0)))[0])
    assert "aiming" not in e.state.fighters["ana"].conditions
    moving = fudge_fight(fracas)
    aim_turn(moving, BUSY, [a("aim", "bo", weapon="pistol")])
    aim_turn(moving, [a("move")], [a("aim", "bo", weapon="pistol")])
    assert "aiming" not in moving.state.fighters["ana"].conditions
    busy = fudge_fight(fracas)
    aim_turn(busy, BUSY, [a("aim", "bo", weapon="pistol")])
    aim_turn(busy, BUSY, [a("other", what="reloads")])
    assert "aiming" not in busy.state.fighters["ana"].conditions


def test_003_9_cover_costs_1_to_3_and_a_firing_port_stops_the_shot(fracas):
    e = ana_shoots(fracas, cover=2)
    assert (-2, "cover") in terms(rolled(resolve(e, f(0)))[0])
    port = ana_shoots(fracas, cover=5)
    assert outcomes(resolve(port)) == ["cover 5 prevents an effective attack"]
    measures = ana_shoots(fracas, cover=5, special_measures=True)
    assert (-3, "cover") in terms(rolled(resolve(measures, f(0)))[0])


def test_003_10_concealment_against_a_pinpointed_target_is_at_most_minus_1(fracas):
    e = ana_shoots(fracas, concealment=1)
    assert (-1, "concealment") in terms(rolled(resolve(e, f(0)))[0])
    e2 = fudge_fight(fracas)
    declare_turn(e2, stop_at="ana", cy=BUSY, bo=BUSY)
    with pytest.raises(BadInputError, match="0 or 1"):
        declare(e2, "ana", "attack", "cy", weapon="pistol", concealment=2)


def test_003_11_cover_and_concealment_do_not_stack(fracas):
    e = ana_shoots(fracas, cover=2, concealment=1)
    shot = terms(rolled(resolve(e, f(0)))[0])
    assert (-2, "cover") in shot and not any(r == "concealment" for _, r in shot)


def test_003_12_firing_from_cover_or_concealment_costs_1(fracas):
    e = ana_shoots(fracas, from_cover=True, from_concealment=True)
    shot = terms(rolled(resolve(e, f(0)))[0])
    assert (-1, "firing from cover") in shot and (-1, "firing from concealment") in shot


def test_003_13_cover_as_armour_stacks_with_integral_and_worn_armour(fracas):
    armoured = {**CY, "armor": 1, "integral_armor": 1}
    e = ana_shoots(fracas, cover_armor=2, changed={"cy": armoured})
    out = resolve(e, f(1))  # 1 + 3 = 4; 4 + 3 - 1 - 1 - 2 = 3
    assert levels(e, "cy") == 3
    assert [v for v, _ in breakdown(out)] == [4, 3, -1, -1, -2]


def test_003_14_strike_around_a_shield_at_minus_1_or_through_it_against_3_armour(fracas):
    around = ana_shoots(fracas, at="bo")
    assert (-1, "shield") in terms(rolled(resolve(around, f(0)))[0])
    through = ana_shoots(fracas, at="bo", shield="through")
    out = resolve(through, f(1))  # 4 + 3 - 3 = 4
    assert (-3, "through the shield") in breakdown(out) and levels(through, "bo") == 4


def test_003_15_shield_and_cover_together_cost_at_most_3(fracas):
    e = ana_shoots(fracas, at="bo", cover=3)
    assert (-3, "cover and shield") in terms(rolled(resolve(e, f(0)))[0])
    e2 = ana_shoots(fracas, at="bo", cover=2)
    assert (-3, "cover and shield") in terms(rolled(resolve(e2, f(0)))[0])


def test_003_16_a_shield_works_strapped_on_and_passively_costs_no_action(fracas):
    e = ana_shoots(fracas, at="bo", target_plan=[a("dodge")])
    shot, dodge = rolled(resolve(e, f(0), f(0)))
    assert (-1, "shield") in terms(shot) and not any("actions" in r for _, r in terms(dodge))
    slung = {**BO, "shield": {"name": "shield", "at": "back"}}
    e2 = ana_shoots(fracas, at="bo", changed={"bo": slung})
    assert not any(r == "shield" for _, r in terms(rolled(resolve(e2, f(0)))[0]))


def test_003_17_a_strapped_shield_is_not_dropped_freely_and_unstrapping_is_an_action(fracas):
    e = fudge_fight(fracas)
    declare_turn(
        e,
        cy=BUSY,
        bo=[a("shield", op="drop"), a("shield", op="unstrap"), a("attack", "cy", weapon="club")],
    )
    assert "3 actions: -3" in next(r.status for r in e.view().initiative if r.combatant == "bo")
    assert outcomes(resolve(e)) == ["cannot drop: the shield is on the arm"]
    resolve(e)
    assert e.state.fighters["bo"].shield_at == "hand"
    assert (-3, "3 actions this turn") in terms(rolled(resolve(e, f(0)))[0])


def test_003_18_a_shield_on_the_back_takes_an_action_off_and_another_to_strap(fracas):
    slung = {**BO, "shield": {"name": "shield", "at": "back"}}
    e = fudge_fight(fracas, bo=slung)
    declare_turn(
        e, cy=BUSY, bo=[a("shield", op="strap"), a("shield", op="unsling"), a("shield", op="strap")]
    )
    assert outcomes(resolve(e)) == ["cannot strap: the shield is on the back"]
    resolve(e)
    resolve(e)
    assert e.state.fighters["bo"].shield_at == "arm"


def test_003_19_a_left_arm_shield_covers_the_front_and_left_front_only(fracas):
    for flank, covered in (("front", True), ("left", True), ("right", False), ("rear", False)):
        e = ana_shoots(fracas, at="bo", flank=flank)
        shot = terms(rolled(resolve(e, f(0)))[0])
        assert ((-1, "shield") in shot) is covered, flank


def test_003_20_parrying_with_the_shield_keeps_it_for_that_one_opponent(fracas):
    e = fudge_fight(fracas)
    declare_turn(
        e,
        cy=[a("attack", "bo", weapon="pistol")],
        bo=[a("parry", "ana", weapon="shield")],
        ana=[a("attack", "bo", weapon="pistol")],
    )
    ana_shot, parry = rolled(resolve(e, f(0), f(0)))
    assert (-1, "shield") in terms(ana_shot) and parry.purpose == "parry against ana"
    resolve(e)  # Bo's parry stands ready
    cy_shot = rolled(resolve(e, f(0)))  # no defence against Cy, and no shield either
    assert len(cy_shot) == 1 and not any(r == "shield" for _, r in terms(cy_shot[0]))


def test_003_21_a_buckler_gives_no_cover_parries_at_plus_1_and_drops_freely(fracas):
    buckler = {**BO, "shield": {"name": "buckler", "kind": "buckler"}}
    e = fudge_fight(fracas, bo=buckler)
    declare_turn(
        e,
        cy=BUSY,
        bo=[a("parry", weapon="buckler"), a("shield", op="drop")],
        ana=[a("attack", "bo", weapon="club")],
    )
    assert "actions" not in next(r.status for r in e.view().initiative if r.combatant == "bo")
    shot, parry = rolled(resolve(e, f(0), f(0)))
    assert not any(r == "shield" for _, r in terms(shot))
    assert (1, "buckler") in terms(parry)
    resolve(e)
    resolve(e)
    assert e.state.fighters["bo"].shield_at == "ground"


def test_003_22_resisting_a_grapple_with_a_shield_costs_an_action(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, cy=BUSY, bo=BUSY, ana=[a("grapple", "bo")])
    resist = rolled(resolve(e, f(0), f(0)))[1]
    assert (-2, "2 actions this turn") in terms(resist)
    free = fudge_fight(fracas)
    declare_turn(free, cy=BUSY, bo=BUSY, ana=[a("grapple", "cy")])
    assert not any("actions" in r for _, r in terms(rolled(resolve(free, f(0), f(0)))[1]))


def test_003_23_a_burst_or_close_buckshot_adds_1(fracas):
    burst = ana_shoots(fracas, weapon="rifle", burst=True)
    assert (1, "3-round burst") in terms(rolled(resolve(burst, f(0)))[0])
    shotgun = ana_shoots(fracas, weapon="shotgun", close=True)
    assert (1, "buckshot") in terms(rolled(resolve(shotgun, f(0)))[0])


def held_cy(fracas, *ana_plan):
    """Ana holds Cy: 1 + 2 = 3 against Cy's Physique 0 + 1 = 1."""
    e = fudge_fight(fracas)
    declare_turn(e, cy=BUSY, bo=BUSY, ana=[a("grapple", "cy"), *ana_plan])
    return e


def test_003_24_a_hold_leaves_the_target_only_the_holder_or_breaking_free(fracas):
    e = held_cy(fracas)
    resolve(e, f(1), f(0))
    assert e.state.fighters["cy"].conditions["held"] == {"by": "ana"}
    assert [(p.holder, p.kind, p.target) for p in e.view().pins] == [("ana", "holds", "cy")]
    resolve(e)
    resolve(e)
    resolve(e, INITIATIVE)  # turn 2; Cy's roll was no action of his (no shield)
    with pytest.raises(RefusedError, match="held"):
        declare(e, "cy", "move")
    with pytest.raises(RefusedError, match="can only harm ana"):
        declare(e, "cy", "attack", "bo")
    declare(e, "cy", "attack", "ana")
    do(e, {"action": "next"})
    do(e, {"action": "next"})
    with pytest.raises(RefusedError, match="declare release first"):
        declare(e, "ana", "move")
    declare(e, "ana", "attack", "cy", weapon="club")
    assert "2 actions: -2" in e.view().initiative[0].status  # keeping the hold is an action


def test_003_25_a_grapple_on_a_held_target_pins_even_in_the_same_turn(fracas):
    e = held_cy(fracas, a("grapple", "cy"))
    out = resolve(e, f(3), f(0))  # 3 + 2 - 2 = 3 against 1: held
    assert (-2, "2 actions this turn") in terms(rolled(out)[0])
    resolve(e, f(3), f(0))  # and pinned
    assert e.state.fighters["cy"].conditions["pinned"] == {"by": "ana"}
    resolve(e)
    resolve(e)
    resolve(e, INITIATIVE)
    with pytest.raises(RefusedError, match="pinned and can only try to break the hold"):
        declare(e, "cy", "attack", "ana")


def test_003_26_breaking_a_hold_a_tie_frees_the_target(fracas):
    e = held_cy(fracas)
    resolve(e, f(1), f(0))
    resolve(e)
    resolve(e)
    resolve(e, INITIATIVE)
    declare_turn(e, cy=[a("break")], bo=BUSY)
    resolve(e)  # Bo
    out = resolve(e, f(0), f(-1))  # Cy 0 + 1 = 1 against Ana's 2 - 1 = 1: a tie frees
    assert rolled(out)[0].result == "breaks free"
    assert not e.state.fighters["cy"].conditions and e.view().pins == []


def test_003_27_a_garrote_at_minus_1_hurts_every_turn_with_plus_2(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, cy=BUSY, bo=BUSY, ana=[a("grapple", "cy", garrote=True)])
    out = resolve(e, f(2), f(0))  # 2 + 2 - 1 = 3 against 1: margin 2; 2 + 2 = 4 levels
    assert (-1, "garrote") in terms(rolled(out)[0]) and levels(e, "cy") == 4
    resolve(e)
    resolve(e)
    resolve(e, f(2) + f(0))  # turn 2: the garrote again (4 more: Dead); Cy rolls no initiative
    assert levels(e, "cy") == 8 and "Dead" in e.view().wounds[2].health


def test_003_28_a_feint_is_an_opposed_action_and_seeing_through_it_is_not(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, cy=BUSY, bo=[a("other"), a("other")], ana=[a("feint", "bo"), a("attack", "cy")])
    feint, see = rolled(resolve(e, f(4), f(0)))  # 4 + 2 - 2 = 4 against 0 + 3 = 3
    assert (-2, "2 actions this turn") in terms(feint)
    assert not any("actions" in r for _, r in terms(see))
    assert e.state.fighters["bo"].conditions["feinted"]["by"] == "ana"


def test_003_29_initiative_4df_plus_discipline_declare_low_resolve_high(fracas):
    e = fudge_fight(fracas)
    started = all_of(e)
    values = {ev.combatant: ev.value for ev in started if isinstance(ev, InitiativeSet)}
    assert values == {"ana": 5, "bo": 2, "cy": 0}
    assert e.state.order == ("cy", "bo", "ana") and e.state.current == "cy"
    with pytest.raises(RefusedError, match="cy declares before ana"):
        declare(e, "ana", "attack", "cy")
    declare(e, "cy", "attack", "ana")
    do(e, {"action": "next"})
    declare(e, "bo", "attack", "ana", weapon="club")
    do(e, {"action": "next"})
    declare(e, "bo", "withdraw")  # a change, still allowed while declaring
    declare(e, "bo", "flee")
    declare(e, "ana", "attack", "cy")
    do(e, {"action": "next"})
    assert (e.state.phase, e.state.order, e.state.current) == (
        "resolving",
        ("ana", "bo", "cy"),
        "ana",
    )
    with pytest.raises(RefusedError, match="declarations are closed"):
        declare(e, "ana", "move")


def test_003_30_who_declared_a_non_defensive_action_cannot_dodge(fracas):
    e = fudge_fight(fracas)
    declare(e, "cy", "attack", "ana")
    with pytest.raises(RefusedError, match="cannot dodge"):
        declare(e, "cy", "dodge")
    do(e, {"action": "next"})
    declare_turn(e, bo=BUSY, ana=[a("attack", "cy")])
    assert len(rolled(resolve(e, f(0)))) == 1  # no dodge roll for Cy


def test_003_31_an_unopposed_defensive_action_simply_succeeds(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, cy=BUSY, bo=[a("flee", what="bolts for the door")])
    assert outcomes(resolve(e)) == ["bolts for the door: nobody opposes it, it succeeds"]


def test_003_32_damage_levels_are_result_plus_damage_bonus_less_armour(fracas):
    e = ana_shoots(fracas, changed={"cy": {**CY, "armor": 1}})
    out = resolve(e, f(0))  # 0 + 3 = 3; 3 + 3 - 1 = 5
    assert [v for v, _ in breakdown(out)] == [3, 3, -1] and levels(e, "cy") == 5


def test_003_33_critically_wounded_cannot_walk_and_is_at_minus_3_unless_tough(fracas):
    e = ana_shoots(fracas, changed={"cy": {**CY, "armor": 1}})
    resolve(e, f(0))
    resolve(e)
    resolve(e)
    assert e.view().wounds[2].health == "Critically Wounded (5) -3"
    out = resolve(e, INITIATIVE)
    assert (-3, "Critically Wounded") in terms(rolled(out)[2])
    with pytest.raises(RefusedError, match="cannot walk"):
        declare(e, "cy", "move")
    tough = {**CY, "armor": 1, "traits": ["Pain Tolerance"]}
    e2 = ana_shoots(fracas, changed={"cy": tough})
    resolve(e2, f(0))
    assert e2.view().wounds[2].conditions == ["cannot walk", "Pain Tolerance: no penalty"]
    table = [{"levels": 0, "name": "Fine"}, {"levels": 2, "name": "Hurt", "penalty": -1}]
    e3 = ana_shoots(fracas, options={"wounds": table}, changed={"cy": {**CY, "armor": 1}})
    resolve(e3, f(0))
    assert e3.view().wounds[2].health == "Hurt (5) -1"


def test_003_sheets_take_skill_levels_by_name_or_number(fracas):
    e = fudge_fight(fracas)
    assert e.state.fighters["ana"].sheet.level("ranged combat") == 3 == ANA["skills"]["discipline"]
    with pytest.raises(BadInputError, match="levels: unskilled"):
        do(e, {"action": "join", "combatant": "zed", "sheet": {"skills": {"melee": "godlike"}}})


def test_003_29_a_lower_initiative_is_fixed_once_a_higher_one_has_declared(fracas):
    e = fudge_fight(fracas)
    declare(e, "cy", "attack", "ana")
    do(e, {"action": "next"})
    declare(e, "bo", "attack", "ana", weapon="club")
    before = e.version
    with pytest.raises(RefusedError, match="cy's declarations, which are now fixed"):
        declare(e, "cy", "withdraw")
    with pytest.raises(RefusedError, match="003-29"):
        declare(e, "cy", "move")
    assert e.version == before
    do(e, {"action": "next"})  # bo passes on to ana, who declares nothing yet
    with pytest.raises(RefusedError, match="bo has declared knowing cy"):
        declare(e, "cy", "withdraw")
    relaxed = fudge_fight(fracas, options={"late_changes": True})
    declare(relaxed, "cy", "attack", "ana")
    do(relaxed, {"action": "next"})
    declare(relaxed, "bo", "attack", "ana", weapon="club")
    declare(relaxed, "cy", "withdraw")


def test_003_4_003_5_a_hold_and_the_pin_after_it_are_two_actions_not_three(fracas):
    e = held_cy(fracas, a("grapple", "cy"))
    hold = rolled(resolve(e, f(3), f(0)))[0]
    pin = rolled(resolve(e, f(3), f(0)))[0]
    assert e.state.fighters["cy"].has("pinned")
    for roll in (hold, pin):
        assert (-2, "2 actions this turn") in terms(roll)
        assert not any("3 actions" in reason for _, reason in terms(roll))


def test_003_24_a_hold_kept_from_an_earlier_turn_is_an_action(fracas):
    e = held_cy(fracas)
    resolve(e, f(1), f(0))
    resolve(e)
    resolve(e)
    resolve(e, INITIATIVE)  # turn 2
    declare_turn(e, cy=[], bo=BUSY, ana=[a("attack", "cy", weapon="club")])
    club = rolled(resolve(e, f(0)))[0]  # held, Cy has no dodge
    assert (-2, "2 actions this turn") in terms(club), "the attack and the hold kept up"


def pinned_before_acting(fracas, ana_plan, cy_plan):
    e = fudge_fight(fracas)
    declare_turn(e, cy=cy_plan, bo=BUSY, ana=ana_plan)
    for _ in ana_plan:
        resolve(e, f(3), f(0))  # 3 + 2 - actions against Cy's Physique 0 + 1
    resolve(e)  # bo shouts
    return e


def test_003_25_pinned_before_their_action_resolves_it_does_not_happen(fracas):
    e = pinned_before_acting(
        fracas, [a("grapple", "cy"), a("grapple", "cy")], [a("attack", "bo", weapon="pistol")]
    )
    assert e.state.fighters["cy"].has("pinned")
    out = resolve(e)  # no dice: the attack is never rolled
    assert not rolled(out) and levels(e, "bo") == 0
    assert any("does not happen: pinned" in o for o in outcomes(out))


def test_003_24_held_before_their_action_resolves_they_may_only_harm_the_holder(fracas):
    e = pinned_before_acting(fracas, [a("grapple", "cy")], [a("attack", "bo", weapon="pistol")])
    assert e.state.fighters["cy"].has("held")
    out = resolve(e)
    assert not rolled(out) and any("may only harm ana" in o for o in outcomes(out))
    e = pinned_before_acting(fracas, [a("grapple", "cy")], [a("attack", "ana", weapon="pistol")])
    out = resolve(e, f(0))  # Ana, holding, has no defence: the attack on her goes ahead
    assert rolled(out)[0].actor == "cy"


def test_003_5_a_dodge_naming_nobody_counts_one_action_per_attacker(fracas):
    e = fudge_fight(fracas)
    declare_turn(e, cy=[a("attack", "bo")], bo=[a("dodge")], ana=[a("attack", "bo")])
    dodge = rolled(resolve(e, f(0), f(0)))[1]
    assert dodge.actor == "bo" and (-2, "2 actions this turn") in terms(dodge)
    lone = fudge_fight(fracas)
    declare_turn(lone, cy=BUSY, bo=[a("dodge")], ana=[a("attack", "bo")])
    dodge = rolled(resolve(lone, f(0), f(0)))[1]
    assert not any("actions" in reason for _, reason in terms(dodge)), "one attacker, one action"
