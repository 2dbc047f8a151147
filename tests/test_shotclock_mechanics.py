"""Feng Shui's missing mechanics (RULES.md §001): open rolls, AR and outcome, defences,
damage into wound points, impairment, death checks and mooks."""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.events import ConditionSet, Damaged
from tests.casts.shotclock import BOSS, JACK, MOOK, act, next_shots, shot_fight, wounds
from tests.support import rolls


def duel(fracas, boss=BOSS, **options):
    return shot_fight(fracas, ("jack", JACK), ("boss", boss), initiative=[4, 3], options=options)


def shoot(e, dice, **fields):
    return act(e, "jack", "attack", "boss", weapon="beretta", dice=dice, **fields).events


def test_boxcars_are_flagged_and_both_dice_rerolled(fracas):
    e = duel(fracas)
    roll = rolls(shoot(e, [6, 3, 6, 1]))[0]  # (6+3) - (6+1) = 2; AR 16 vs Dodge 15
    assert roll.roll.total == 2 and "BOXCARS" in (roll.result or "")
    assert "outcome 1" in (roll.result or "")


def test_damage_is_outcome_plus_damage_less_toughness_into_wound_points(fracas):
    e = duel(fracas)
    hit = shoot(e, [5, 1])  # 4 + 14 = 18 vs 15: outcome 3; 3 + 10 - 8 = 5
    assert [d.amount for d in hit if isinstance(d, Damaged)] == [5] and wounds(e, "boss") == 5


def test_damage_below_zero_counts_as_zero(fracas):
    weak = {**BOSS, "toughness": 20}
    e = duel(fracas, boss=weak)
    shoot(e, [2, 1])
    assert wounds(e, "boss") == 0


def test_outcome_zero_hits_by_default_and_misses_when_the_gm_says(fracas):
    e = duel(fracas)
    shoot(e, [2, 1])  # 1 + 14 = 15 vs 15
    assert wounds(e, "boss") == 2
    strict = duel(fracas, hit_on_zero=False)
    shoot(strict, [2, 1])
    assert wounds(strict, "boss") == 0


def test_an_active_dodge_adds_three_and_a_stationary_target_has_difficulty_0(fracas):
    e = duel(fracas)
    dodged = rolls(shoot(e, [4, 1], defence={"boss": "dodge"}))[0]  # 17 vs 15 + 3
    assert dodged.target == 18 and wounds(e, "boss") == 0
    e2 = duel(fracas)
    still = rolls(shoot(e2, [1, 6, 6, 1], unaware=["boss"]))[0]  # 1 - 13 + 14 = 2 vs 0
    assert still.target == 0 and wounds(e2, "boss") == 2 + 10 - 8
    with pytest.raises(BadInputError, match="unaware"):
        shoot(duel(fracas), [1, 1], unaware=["boss"], defence={"boss": "dodge"})


def test_a_parry_uses_the_parrying_skill(fracas):
    e = duel(fracas, boss={**BOSS, "skills": {"martial arts": 15, "guns": 17}})
    parried = rolls(shoot(e, [1, 1], defence={"boss": "parry"}))[0]
    assert parried.target == 15, "Dodge would be 17 (Guns); the parry is Martial Arts 15"


def test_a_mook_goes_down_to_any_hit_without_damage(fracas):
    e = shot_fight(fracas, ("jack", JACK), ("mook", MOOK), initiative=[4, 1])
    done = act(e, "jack", "attack", "mook", weapon="beretta", dice=[1, 6, 2]).events
    # 1 - (6 + 2) + 14 = 7 vs Dodge 8: a miss; then a hit of outcome 0 takes it out
    assert not [ev for ev in done if isinstance(ev, ConditionSet)]
    act(e, "jack", "attack", "mook", weapon="beretta", dice=[3, 5])  # -2 + 14 = 12 vs 8
    assert e.state.fighters["mook"].out and not [ev for ev in done if isinstance(ev, Damaged)]
    assert next_shots(e) == {"jack": 6}
    with pytest.raises(RefusedError, match="already out"):
        act(e, "jack", "attack", "mook", weapon="beretta", dice=[1, 1])


def test_impairment_at_25_and_30_wound_points_cuts_every_action_value(fracas):
    e = duel(fracas, boss={**BOSS, "toughness": 0}, death_checks_at=50)
    shoot(e, [6, 6, 1, 1], snapshot=2)  # (6+6+1) - 1 = 12; 12 + 14 - 5 = 21: outcome 6 -> 16 WP
    shoot(e, [6, 4, 1], snapshot=2)  # 9 + 14 - 5 = 18: outcome 3 -> 13 more: 29 WP
    assert wounds(e, "boss") == 29 and e.state.fighters["boss"].impairment == -1
    third = rolls(shoot(e, [1, 1]))[0]  # 0 + 14 against the boss's Dodge 15 - 1 = 14
    assert third.target == 14 and wounds(e, "boss") == 29 + 0 + 10
    assert e.state.fighters["boss"].impairment == -2
    assert e.view().wounds[1].conditions == ["impaired -2"]
    fourth = rolls(act(e, "boss", "attack", "jack", dice=[1, 1]).events)[0]
    assert [m.value for m in fourth.modifiers] == [15, -2], "the attacker's AV is cut too"


def test_big_bruisers_take_five_more_before_impairment(fracas):
    e = duel(fracas, boss={**BOSS, "toughness": 0, "big_bruiser": True})
    shoot(e, [6, 6, 1, 1], snapshot=2)
    shoot(e, [6, 4, 1], snapshot=2)
    assert wounds(e, "boss") == 29 and e.state.fighters["boss"].impairment == 0


def test_from_35_wound_points_each_wound_calls_for_a_closed_death_check(fracas):
    e = duel(fracas, boss={**BOSS, "toughness": 0, "constitution": 2})
    shoot(e, [6, 6, 6, 6, 1, 1], snapshot=2)  # 25 - 1 = 24; 24 + 14 - 5 = 33: 18 + 10 = 28 WP
    assert not e.state.fighters["boss"].out
    shoot(e, [6, 1, 1, 3, 2], snapshot=2)  # 7 - 1 = 6; 6 + 14 - 5 = 15 vs 14: 1 + 10 -> 39
    check = rolls(e.events_of_step(e.history.head_step))[-1]
    # death check: closed d6-d6 (3 - 2) + Constitution 2 = 3 against 39 - 35 = 4: dead
    assert check.purpose == "death check" and check.target == 4 and check.roll.dice == "d6-d6"
    assert e.state.fighters["boss"].has("dead") and e.view().wounds[1].conditions == [
        "dead",
        "impaired -2",
    ]


def test_unknown_weapon_and_bad_targets_are_refused_in_one_line(fracas):
    e = duel(fracas)
    with pytest.raises(RefusedError, match="no weapon 'bazooka'; they have: punch, beretta"):
        act(e, "jack", "attack", "boss", weapon="bazooka", dice=[1, 1])
    with pytest.raises(BadInputError, match="exactly one target"):
        act(e, "jack", "attack", dice=[1, 1])
    assert e.history.head_step == 4, "nothing was appended"


def test_one_out_of_the_fight_is_refused_with_the_advice_that_fits_how_they_left(fracas):
    """Issue 40: a mook taken out by a hit is undone with `fracas undo`; a combatant the GM
    took out with `fracas remove` comes back with `fracas return ID`, not by an undo."""
    from fracas.rules.commands import Remove

    e = shot_fight(fracas, ("jack", JACK), ("mook", MOOK), ("boss", BOSS), initiative=[4, 1, 3])
    act(e, "jack", "attack", "mook", weapon="beretta", dice=[3, 5])  # -2 + 14 = 12 vs 8: out
    with pytest.raises(RefusedError) as down:
        act(e, "boss", "attack", "mook", weapon="punch", dice=[1, 1])
    assert str(down.value) == (
        "mook is already out of the fight: pick another target, or if that was a mistake, "
        "`fracas undo` the step that took them out"
    )
    e.execute(Remove("boss", "fled"))
    for command in (("boss", "attack", "jack"), ("jack", "attack", "boss")):
        with pytest.raises(RefusedError) as removed:
            act(e, *command, weapon="beretta", dice=[1, 1])
        assert str(removed.value) == (
            "boss was removed from the fight: `fracas return boss` brings them back"
        )
