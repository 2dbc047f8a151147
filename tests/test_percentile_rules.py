"""One or more tests per rule of RULES.md §000, named by rule id, with figures worked by hand."""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.commands import Harm
from fracas.rules.events import ConditionSet, Resolved
from tests.support import KNIFE, PISTOL, attack, damage, do, fight, gunner, hp, rolls, sheet, turn

ALICE = gunner(skills={"firearms": 60, "dodge": 40})


def test_000_1_one_action_per_turn(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    attack(e, "alice", "bob", weapon="pistol", dice=[90])
    assert turn(e) == "bob"
    with pytest.raises(RefusedError, match="already used this turn's action"):
        attack(e, "alice", "bob", weapon="pistol", dice=[10, 5])


def test_000_2_descending_dex_order(fracas):
    e = fight(fracas, ("slow", sheet(8)), ("fast", sheet(15)), ("mid", sheet(11)))
    assert [row.combatant for row in e.view().initiative] == ["fast", "mid", "slow"]
    seen = []
    for _ in range(3):
        seen.append(turn(e))
        do(e, {"action": "next"})
    assert seen == ["fast", "mid", "slow"]
    assert (e.state.round, turn(e)) == (2, "fast")


def test_000_3_equal_dex_act_simultaneously(fracas):
    e = fight(
        fracas,
        ("a", sheet(12, weapons=[PISTOL], holding=["pistol"], skills={"firearms": 60})),
        ("b", sheet(12, hp=3)),
    )
    attack(e, "a", "b", weapon="pistol", dice=[10, 9])
    assert e.state.fighters["b"].has("dead")
    assert turn(e) == "b", "b shares a's DEX, so b still acts this turn"
    attack(e, "b", "a", dice=[10, 3])  # unarmed 40%: 10 hits, 1d4-1 = 2
    assert hp(e, "a") == 8


def test_000_3_tie_broken_by_roll_off_when_the_handler_chooses(fracas):
    e = fight(
        fracas,
        ("a", sheet(12, hp=3)),
        ("b", sheet(12, weapons=[PISTOL], holding=["pistol"], skills={"firearms": 60})),
        ("c", sheet(5)),
        options={"dex_ties": "rolloff"},
        begin_dice=[20, 50],
    )
    assert turn(e) == "b", "b rolled 50 against a's 20 and goes first"
    attack(e, "b", "a", weapon="pistol", dice=[10, 9])
    assert turn(e) == "c", "with a strict order, a is dead before its action"


def smg_fight(fracas):
    smg = {"name": "smg", "kind": "firearm", "damage": "1d8"}
    alice = sheet(14, skills={"firearms": 60}, weapons=[smg], holding=["smg"])
    return fight(fracas, ("alice", alice), ("bob", sheet(10)), ("carol", sheet(9)))


def test_000_4_several_targets_one_attack_roll(fracas):
    e = smg_fight(fracas)
    out = attack(e, "alice", "bob", "carol", weapon="smg", dice=[30, 3, 4])
    assert [r.roll.dice for r in rolls(out.events)] == ["d100", "1d8", "1d8"]
    assert (hp(e, "bob"), hp(e, "carol")) == (7, 6)
    assert turn(e) == "bob", "still only one action"


def test_000_4_hand_to_hand_cannot_hit_several_targets(fracas):
    e = fight(
        fracas,
        ("alice", sheet(14, weapons=[KNIFE], holding=["knife"])),
        ("bob", sheet(10)),
        ("carol", sheet(9)),
    )
    with pytest.raises(RefusedError, match="000-4"):
        attack(e, "alice", "bob", "carol", weapon="knife", dice=[30, 3, 4])


def test_000_5_many_shots_one_attack_roll_one_damage_roll(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    out = attack(e, "alice", "bob", weapon="pistol", shots=3, dice=[30, 6])
    assert len(rolls(out.events)) == 2
    assert damage(out.events, "bob") == 6


def test_000_6_aim_gives_plus_20_next_turn(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    do(e, {"action": "aim", "actor": "alice"})
    do(e, {"action": "next"})
    out = attack(e, "alice", "bob", weapon="pistol", dice=[75, 5])
    (roll, _) = rolls(out.events)
    assert roll.target == 80 and roll.result == "success"
    assert any(m.rule == "000-6" and m.value == 20 for m in roll.modifiers)


def test_000_7_aim_is_lost_after_the_next_turn(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    do(e, {"action": "aim", "actor": "alice"})
    do(e, {"action": "next"})
    do(e, {"action": "next"})  # alice lets her aimed turn pass
    do(e, {"action": "next"})
    out = attack(e, "alice", "bob", weapon="pistol", dice=[75])
    assert rolls(out.events)[0].target == 60


def test_000_7_aim_is_lost_when_damaged_before_attacking(fracas):
    bob = sheet(10, skills={"firearms": 50}, weapons=[PISTOL], holding=["pistol"])
    e = fight(fracas, ("alice", ALICE), ("bob", bob))
    do(e, {"action": "aim", "actor": "alice"})
    out = attack(e, "bob", "alice", weapon="pistol", dice=[20, 2])
    assert any(
        getattr(ev, "condition", "") == "aiming" and "damage" in ev.reason for ev in out.events
    )
    out = attack(e, "alice", "bob", weapon="pistol", dice=[75])
    assert rolls(out.events)[0].target == 60


@pytest.mark.parametrize(
    ("weapon", "skills", "target"),
    [
        ({"name": "rock", "kind": "thrown", "damage": "1d4"}, {"athletics": 70}, 70),
        (KNIFE, {"melee weapons": 45}, 45),
        (PISTOL, {"firearms": 65}, 65),
    ],
)
def test_000_8_attack_is_a_test_of_the_weapons_skill(fracas, weapon, skills, target):
    e = fight(
        fracas,
        ("alice", sheet(14, skills=skills, weapons=[weapon], holding=[weapon["name"]])),
        ("bob", sheet(10)),
    )
    out = attack(e, "alice", "bob", weapon=weapon["name"], dice=[target, 3])
    assert rolls(out.events)[0].target == target
    assert damage(out.events, "bob") == 3, "a success rolls the weapon's damage"


def test_000_8_unarmed_uses_unarmed_combat_and_a_miss_rolls_no_damage(fracas):
    e = fight(fracas, ("alice", sheet(14, skills={"unarmed combat": 55})), ("bob", sheet(10)))
    out = attack(e, "alice", "bob", dice=[56])
    assert [r.target for r in rolls(out.events)] == [55]
    assert damage(out.events, "bob") == 0


def test_000_8_an_attack_naming_no_weapon_is_made_with_the_weapon_in_hand(fracas):
    e = fight(fracas, ("alice", gunner()), ("bob", sheet(10)))
    out = attack(e, "alice", "bob", dice=[30, 7])  # the pistol: Firearms 60, then its 1d10
    assert rolls(out.events)[0].target == 60
    assert damage(out.events, "bob") == 7


def test_000_8_with_no_weapon_in_hand_an_attack_naming_none_is_unarmed(fracas):
    e = fight(fracas, ("alice", gunner(holding=[])), ("bob", sheet(10)))
    out = attack(e, "alice", "bob", dice=[30, 2])  # Unarmed Combat 40, then 1d4-1
    assert rolls(out.events)[0].target == 40
    assert damage(out.events, "bob") == 1


def test_000_9_melee_attack_also_blocks_later_melee_attacks(fracas):
    a = sheet(14, skills={"melee weapons": 50}, weapons=[KNIFE], holding=["knife"])
    b = sheet(10, skills={"unarmed combat": 50})
    e = fight(fracas, ("a", a), ("b", b))
    attack(e, "a", "b", weapon="knife", dice=[30, 2])
    out = attack(e, "b", "a", dice=[20])  # 20 succeeds but a's block roll of 30 is higher
    assert hp(e, "a") == 10
    assert any(isinstance(ev, Resolved) and "avoids" in ev.outcome for ev in out.events)


def test_000_9_a_ranged_attack_does_not_block(fracas):
    b = sheet(10, skills={"unarmed combat": 50})
    e = fight(fracas, ("alice", ALICE), ("b", b))
    attack(e, "alice", "b", weapon="pistol", dice=[30, 2])
    attack(e, "b", "alice", dice=[20, 3])  # 1d4-1 = 2
    assert hp(e, "alice") == 8


def test_000_10_called_shot_penalties(fracas):
    e = fight(
        fracas,
        ("alice", ALICE),
        ("bob", sheet(10)),
        ("carol", sheet(9)),
        options={"uncovered_called_shot": -10},
    )
    partly = attack(e, "alice", "bob", weapon="pistol", called="partly", dice=[90])
    do(e, {"action": "next"})
    do(e, {"action": "next"})
    mostly = attack(e, "alice", "bob", weapon="pistol", called="mostly", dice=[90])
    do(e, {"action": "next"})
    do(e, {"action": "next"})
    open_ = attack(e, "alice", "bob", weapon="pistol", called="uncovered", dice=[90])
    assert [rolls(o.events)[0].target for o in (partly, mostly, open_)] == [40, 20, 50]


def test_000_10_called_shot_avoids_armor(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10, armor=3)))
    out = attack(e, "alice", "bob", weapon="pistol", dice=[30, 5])
    assert damage(out.events, "bob") == 2
    do(e, {"action": "next"})
    out = attack(
        e, "alice", "bob", weapon="pistol", called="partly", avoid_armor=True, dice=[30, 5]
    )
    assert damage(out.events, "bob") == 5


def test_000_10_called_shot_with_automatic_fire_applies_to_the_first_target_only(fracas):
    e = smg_fight(fracas)
    out = attack(e, "alice", "bob", "carol", weapon="smg", called="partly", dice=[50, 4])
    assert (damage(out.events, "bob"), damage(out.events, "carol")) == (0, 4)


def test_000_11_melee_called_shot_also_blocks(fracas):
    a = sheet(14, skills={"melee weapons": 50}, weapons=[KNIFE], holding=["knife"])
    e = fight(fracas, ("a", a), ("b", sheet(10, skills={"unarmed combat": 50})))
    out = attack(e, "a", "b", weapon="knife", called="partly", dice=[25, 2])
    assert any(
        isinstance(ev, ConditionSet) and ev.condition == "defending" and ev.rules == ["000-11"]
        for ev in out.events
    )
    attack(e, "b", "a", dice=[20])
    assert hp(e, "a") == 10


def test_000_12_disarm_needs_free_hands_and_drops_the_item(fracas):
    cultist = sheet(10, weapons=[KNIFE], holding=["knife"])
    e = fight(
        fracas,
        ("alice", ALICE),
        ("bishop", sheet(12, skills={"unarmed combat": 60})),
        ("cultist", cultist),
    )
    with pytest.raises(RefusedError, match="both hands free"):
        do(e, {"action": "disarm", "actor": "alice", "targets": ["cultist"]}, [10])
    do(e, {"action": "next"})
    out = do(e, {"action": "disarm", "actor": "bishop", "targets": ["cultist"]}, [25])
    assert e.state.fighters["cultist"].holding == ()
    assert any(isinstance(ev, ConditionSet) and ev.condition == "defending" for ev in out.events)


def test_000_13_dodge_that_overcomes_the_attack_avoids_harm(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10, skills={"dodge": 50})))
    attack(e, "alice", "bob", weapon="pistol", defence={"bob": "dodge"}, dice=[40, 45])
    assert hp(e, "bob") == 10
    assert (e.state.round, turn(e)) == (2, "alice"), "the dodge used bob's action"


def test_000_13_a_tied_dodge_goes_to_the_attacker(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10, skills={"dodge": 50})))
    attack(e, "alice", "bob", weapon="pistol", defence={"bob": "dodge"}, dice=[40, 40, 5])
    assert hp(e, "bob") == 5


def test_000_13_dodge_after_acting_is_refused_by_default(fracas):
    bob = sheet(16, skills={"dodge": 50})
    e = fight(fracas, ("bob", bob), ("alice", ALICE))
    do(e, {"action": "next"})
    with pytest.raises(RefusedError, match="already acted"):
        attack(e, "alice", "bob", weapon="pistol", defence={"bob": "dodge"}, dice=[40, 45])


def test_000_13_dodge_after_acting_forfeits_next_turn_when_allowed(fracas):
    bob = sheet(16, skills={"dodge": 50})
    e = fight(
        fracas, ("bob", bob), ("alice", ALICE), options={"defence_after_acting": "forfeit_next"}
    )
    do(e, {"action": "next"})
    attack(e, "alice", "bob", weapon="pistol", defence={"bob": "dodge"}, dice=[40, 45])
    assert (e.state.round, turn(e)) == (2, "alice"), "bob forfeits his turn 2 action"


def _pinned(fracas, **options):
    bishop = sheet(14, skills={"unarmed combat": 60})
    gunman = sheet(10, str=12, weapons=[PISTOL], holding=["pistol"], skills={"firearms": 40})
    carol = sheet(
        8, skills={"firearms": 50, "unarmed combat": 40}, weapons=[PISTOL], holding=["pistol"]
    )
    e = fight(fracas, ("bishop", bishop), ("gunman", gunman), ("carol", carol), options=options)
    do(e, {"action": "pin", "actor": "bishop", "targets": ["gunman"]}, [30])
    return e


def test_000_14_escape_is_opposed_by_the_pinners_attack_roll(fracas):
    e = _pinned(fracas)
    out = do(e, {"action": "escape", "actor": "gunman"}, [45])
    (escape,) = rolls(out.events)
    assert escape.target == 60, "STR 12 x5 = 60 beats Unarmed Combat 40"
    assert not e.state.fighters["gunman"].has("pinned"), "45 beats bishop's 30"


def test_000_14_escape_against_a_pinner_not_attacking(fracas):
    e = _pinned(fracas)
    do(e, {"action": "next"})  # gunman
    do(e, {"action": "next"})  # carol
    do(e, {"action": "next"})  # bishop, turn 2, does not attack
    out = do(e, {"action": "escape", "actor": "gunman"}, [45, 50])
    _escape, hold = rolls(out.events)
    assert hold.actor == "bishop" and hold.target == 60
    assert e.state.fighters["gunman"].has("pinned"), "bishop's 50 beats the escape's 45"


def test_000_15_escape_roll_defends_until_next_action(fracas):
    e = _pinned(fracas)
    do(e, {"action": "escape", "actor": "gunman"}, [45])
    out = attack(e, "carol", "gunman", weapon="pistol", dice=[40])
    assert hp(e, "gunman") == 11
    assert any(isinstance(ev, Resolved) and "avoids" in ev.outcome for ev in out.events)
    do(e, {"action": "next"})  # bishop, turn 2
    attack(e, "gunman", "carol", weapon="pistol", dice=[90])
    assert not e.state.fighters["gunman"].has("defending")


def test_000_16_failed_escape_stays_pinned_and_cannot_defend(fracas):
    e = _pinned(fracas)
    do(e, {"action": "escape", "actor": "gunman"}, [70])
    assert e.state.fighters["gunman"].has("pinned")
    with pytest.raises(RefusedError, match="pinned"):
        attack(e, "carol", "gunman", weapon="pistol", defence={"gunman": "dodge"}, dice=[40, 10])


def test_000_17_fight_back_only_against_hand_to_hand(fracas):
    e = fight(fracas, ("alice", ALICE), ("bishop", sheet(11, skills={"unarmed combat": 60})))
    with pytest.raises(RefusedError, match="000-17"):
        attack(
            e, "alice", "bishop", weapon="pistol", defence={"bishop": "fight-back"}, dice=[30, 20]
        )


def test_000_17_winning_fight_back_damages_the_attacker(fracas):
    cultist = sheet(
        12, str=11, con=12, skills={"melee weapons": 45}, weapons=[KNIFE], holding=["knife"]
    )
    bishop = sheet(11, str=14, con=13, skills={"unarmed combat": 60})
    e = fight(fracas, ("cultist", cultist), ("bishop", bishop))
    attack(
        e, "cultist", "bishop", weapon="knife", defence={"bishop": "fight-back"}, dice=[38, 52, 3]
    )
    # 1d4 shows 3, unarmed -1, STR 14 +1: 3 damage; the defender takes none
    assert (hp(e, "cultist"), hp(e, "bishop")) == (9, 14)


@pytest.mark.parametrize(("pace", "metres"), [("jog", 10), ("run", 20), ("sprint", 30)])
def test_000_18_move_distances(fracas, pace, metres):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    out = do(e, {"action": "move", "actor": "alice", "pace": pace})
    assert any(isinstance(ev, Resolved) and f"{metres} m" in ev.outcome for ev in out.events)
    assert turn(e) == "bob"


def test_000_19_failed_footing_falls_prone_and_costs_a_turn(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    out = do(e, {"action": "move", "actor": "alice", "pace": "run", "footing": True}, [71])
    assert rolls(out.events)[0].target == 70 and e.state.fighters["alice"].has("prone")
    do(e, {"action": "next"})
    with pytest.raises(RefusedError, match="prone"):
        attack(e, "alice", "bob", weapon="pistol", dice=[10, 3])
    do(e, {"action": "stand", "actor": "alice"})
    assert not e.state.fighters["alice"].has("prone")


def test_000_20_cover_is_armor_against_firearms_only(fracas):
    bob = sheet(
        16,
        skills={"firearms": 60, "melee weapons": 60},
        weapons=[PISTOL, KNIFE],
        holding=["pistol", "knife"],
    )
    e = fight(fracas, ("bob", bob), ("alice", ALICE))
    do(e, {"action": "next"})
    do(e, {"action": "move", "actor": "alice", "cover": 4})
    out = attack(e, "bob", "alice", weapon="pistol", dice=[20, 7])
    assert damage(out.events, "alice") == 3
    do(e, {"action": "next"})
    out = attack(e, "bob", "alice", weapon="knife", dice=[20, 3])
    assert damage(out.events, "alice") == 3, "melee ignores cover"
    do(e, {"action": "move", "actor": "alice"})
    out = attack(e, "bob", "alice", weapon="pistol", dice=[20, 2])
    assert damage(out.events, "alice") == 2, "out of cover, no armor"


def test_000_21_pin_needs_free_hands_and_pins(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    with pytest.raises(RefusedError, match="both hands free"):
        do(e, {"action": "pin", "actor": "alice", "targets": ["bob"]}, [10])
    e = _pinned(fracas)
    assert e.state.fighters["gunman"].conditions["pinned"] == {"by": "bishop"}
    assert [(p.holder, p.target) for p in e.view().pins] == [("bishop", "gunman")]
    assert e.state.fighters["bishop"].conditions["defending"]["kind"] == "block"


@pytest.mark.parametrize("out", ["unconscious", "dead"])
def test_000_21_a_pin_ends_when_the_pinned_one_is_out_of_the_fight(fracas, out):
    """The demo showed a dead cultist still "pinned by Marcus Bishop" on every board."""
    e = _pinned(fracas)
    left = {"unconscious": e.state.options.unconscious_at, "dead": e.state.options.dead_at}
    e.execute(Harm("gunman", hp(e, "gunman") - left[out], "shot by someone else"))
    gunman = e.state.fighters["gunman"]
    assert gunman.has(out) and not gunman.has("pinned")
    assert e.view().pins == []
    conditions = next(w.conditions for w in e.view().wounds if w.combatant == "gunman")
    assert not any(c.startswith("pinned") for c in conditions)


def test_000_22_hand_to_hand_against_the_pinned_gets_plus_20(fracas):
    e = _pinned(fracas)
    do(e, {"action": "escape", "actor": "gunman"}, [95])
    punch = attack(e, "carol", "gunman", weapon="unarmed", dice=[95])
    assert rolls(punch.events)[0].target == 60
    do(e, {"action": "next"})
    do(e, {"action": "escape", "actor": "gunman"}, [95, 10])
    shot = attack(e, "carol", "gunman", weapon="pistol", dice=[95])
    assert rolls(shot.events)[0].target == 50, "no bonus for firearms"


def test_000_23_pinner_may_attack_the_pinned_in_later_turns(fracas):
    e = _pinned(fracas)
    do(e, {"action": "escape", "actor": "gunman"}, [95])
    do(e, {"action": "next"})
    attack(e, "bishop", "gunman", dice=[50, 4])  # 60+20: hit, 1d4-1 = 3
    assert hp(e, "gunman") == 8
    assert e.state.fighters["gunman"].has("pinned")


def test_000_24_pinned_may_only_escape_once_per_turn(fracas):
    e = _pinned(fracas)
    with pytest.raises(RefusedError, match="may only try to escape"):
        attack(e, "gunman", "carol", weapon="pistol", dice=[10, 3])
    do(e, {"action": "escape", "actor": "gunman"}, [95])
    with pytest.raises(RefusedError, match="already used"):
        do(e, {"action": "escape", "actor": "gunman"}, [10])


def test_000_25_wait_cuts_in_before_the_next_action(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(12)), ("carol", sheet(8)))
    do(e, {"action": "wait", "actor": "alice"})
    assert turn(e) == "bob"
    do(e, {"action": "next"})  # bob passes; carol is next
    attack(e, "alice", "carol", weapon="pistol", dice=[30, 4])  # cuts in before carol
    assert (turn(e), hp(e, "carol")) == ("carol", 6)
    with pytest.raises(RefusedError):
        attack(e, "alice", "carol", weapon="pistol", dice=[30, 4])
    do(e, {"action": "next"})
    assert (e.state.round, turn(e)) == (2, "alice"), "alice acts normally next turn"


def test_000_25_waiting_only_on_your_own_turn(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(12)))
    with pytest.raises(RefusedError):
        do(e, {"action": "wait", "actor": "bob"})


def test_000_26_other_actions_take_the_action_with_an_optional_test(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    out = do(e, {"action": "other", "actor": "alice", "what": "reload"})
    assert not rolls(out.events) and turn(e) == "bob"
    out = do(
        e, {"action": "other", "actor": "bob", "what": "open the door", "test": "DEX x5"}, [49]
    )
    assert rolls(out.events)[0].target == 50 and rolls(out.events)[0].result == "success"


def test_000_unknown_action_is_one_clear_error(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    with pytest.raises(BadInputError, match="actions are"):
        do(e, {"action": "teleport", "actor": "alice"})
