"""Round 2 of percentile fidelity: inhuman stats, stats of 0, aim through a wait, lethality
at 100, and the test judge over the whole grid of targets, modifiers, rolls and stats."""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.percentile import Fighter, Sheet, checked_rating, clamp_target, judge
from tests.conftest import PISTOL, RIFLE, attack, do, fight, gunner, hp, rolls, sheet

CAP = 40  # the stacking default: modifiers count up to ±40 in total


def expected(face: int, base: int, modifier: int, stat: int | None) -> tuple[int, str]:
    """RULES.md §000, mechanics 1 to 3, written out case by case."""
    modifier = min(CAP, max(-CAP, modifier))
    inhuman = stat is not None and stat >= 20
    target = base + modifier
    if target < 1:
        target = 1
    if target > 99 or inhuman:  # inhuman: every roll but 100 succeeds, whatever the modifiers
        target = 99
    if face == 100:
        return target, "fumble"
    matching_digits = face in (11, 22, 33, 44, 55, 66, 77, 88, 99)
    if face <= target:
        if face == 1 or matching_digits or (inhuman and face <= stat):
            return target, "critical"
        return target, "success"
    return target, "fumble" if matching_digits else "failure"


def test_000_M1_M2_M3_judge_over_the_full_grid_of_skill_targets():
    wrong = []
    for base in range(1, 121):
        for modifier in range(-60, 61):
            target = clamp_target(base, modifier, CAP)
            for face in range(1, 101):
                got = (target, judge(face, target))
                if got != expected(face, base, modifier, None):
                    wrong.append((base, modifier, face, got))
    assert not wrong, wrong[:5]


def test_000_M2_judge_over_the_full_grid_of_stat_tests():
    nobody = Fighter("x", "X", "pc", Sheet(dex=0), 0, 10, 10)
    with pytest.raises(RefusedError, match="DEX 0"):
        checked_rating(nobody, "dex")  # stat 0: no test at all, whatever the roll
    wrong = []
    for stat in range(1, 26):
        inhuman = stat >= 20
        for modifier in range(-60, 61):
            target = clamp_target(stat * 5, modifier, CAP, inhuman)
            for face in range(1, 101):
                got = (target, judge(face, target, stat))
                if got != expected(face, stat * 5, modifier, stat):
                    wrong.append((stat, modifier, face, got))
    assert not wrong, wrong[:5]


def test_000_M2_an_inhuman_stat_fails_only_on_100():
    for modifier in (40, 0, -20, -40):
        target = clamp_target(22 * 5, modifier, CAP, inhuman=True)
        assert target == 99, "a target is at most 99, and an inhuman one passes every roll"
        assert {judge(face, target, 22) for face in range(1, 100)} <= {"success", "critical"}
        assert judge(100, target, 22) == "fumble"
        assert [judge(face, target, 22) for face in (15, 22, 23, 24)] == [
            "critical",
            "critical",
            "success",
            "success",
        ]


def test_000_M2_an_inhuman_stat_test_succeeds_on_every_roll_but_100_under_a_penalty(fracas):
    brute = sheet(14, str=22, skills={"unarmed combat": 60})
    e = fight(fracas, ("brute", brute), ("bob", sheet(10)))
    slippery = [{"value": -40, "reason": "slippery"}]
    lift = {"action": "other", "actor": "brute", "what": "lift", "test": "str"}
    out = do(e, {**lift, "modifiers": slippery}, [98])
    (test,) = rolls(out.events)
    assert (test.target, test.result) == (99, "success")
    assert [m.rule for m in test.modifiers] == ["", "000-M2"]


def _pinned_by_a_strong_one(fracas):
    brute = sheet(14, str=22, skills={"unarmed combat": 60})
    gunman = sheet(10, str=12, weapons=[PISTOL], holding=["pistol"], skills={"firearms": 40})
    e = fight(fracas, ("brute", brute), ("gunman", gunman))
    do(e, {"action": "pin", "actor": "brute", "targets": ["gunman"]}, [30])
    do(e, {"action": "next"})  # gunman lets the turn go
    do(e, {"action": "next"})  # brute does not attack in turn 2
    return e


def test_000_M2_inhuman_hold_roll_at_or_under_the_stat_is_a_critical(fracas):
    e = _pinned_by_a_strong_one(fracas)
    out = do(e, {"action": "escape", "actor": "gunman"}, [45, 15])
    _escape, hold = rolls(out.events)
    assert (hold.target, hold.result) == (99, "critical"), "STR 22: 15 is under 22"
    assert any(m.rule == "000-M2" for m in hold.modifiers)
    assert e.state.fighters["gunman"].has("pinned"), "a critical hold beats a plain success"


def test_000_M2_inhuman_hold_succeeds_on_anything_but_100(fracas):
    e = _pinned_by_a_strong_one(fracas)
    out = do(e, {"action": "escape", "actor": "gunman"}, [45, 98])
    assert rolls(out.events)[1].result == "success"
    assert e.state.fighters["gunman"].has("pinned"), "98 still holds: 98 beats 45"


def test_000_M5_a_stat_of_0_cannot_be_tested(fracas):
    e = fight(fracas, ("alice", gunner(dex=0)), ("bob", sheet(10)))
    do(e, {"action": "next"})  # bob, DEX 10, goes first
    before = e.version
    with pytest.raises(RefusedError, match="DEX 0: a stat of 0 cannot be tested"):
        do(e, {"action": "other", "actor": "alice", "test": "dex"}, [10])
    with pytest.raises(RefusedError, match="DEX 0"):
        do(e, {"action": "move", "actor": "alice", "pace": "run", "footing": True}, [10])
    assert e.version == before, "nothing was appended"


def test_000_M5_negative_stats_are_refused_and_big_ones_allowed(fracas):
    e = fight(fracas, begin=False)
    with pytest.raises(BadInputError, match=r"str.*>= 0"):
        do(e, {"action": "join", "combatant": "x", "sheet": sheet(10, str=-1)})
    do(e, {"action": "join", "combatant": "ghoul", "sheet": sheet(10, str=24)})
    assert e.state.fighters["ghoul"].skill("str") == 120


def test_000_6_000_7_aim_survives_a_wait_and_cuts_in_next_turn(fracas):
    e = fight(fracas, ("alice", gunner()), ("bob", sheet(12)), ("carol", sheet(8)))
    do(e, {"action": "aim", "actor": "alice"})  # round 1
    do(e, {"action": "next"})  # bob
    do(e, {"action": "next"})  # carol; round 2, alice
    do(e, {"action": "wait", "actor": "alice"})
    assert e.state.fighters["alice"].has("aiming"), "waiting is not doing something else"
    do(e, {"action": "next"})  # bob; carol is next
    out = attack(e, "alice", "carol", weapon="pistol", dice=[75, 4])
    assert rolls(out.events)[0].target == 80, "the aimed attack, made in the next turn"


def test_000_7_aim_through_a_wait_is_gone_after_that_turn_passes_unused(fracas):
    e = fight(fracas, ("alice", gunner()), ("bob", sheet(12)), ("carol", sheet(8)))
    do(e, {"action": "aim", "actor": "alice"})  # round 1
    do(e, {"action": "next"})
    do(e, {"action": "next"})  # round 2
    do(e, {"action": "wait", "actor": "alice"})
    for _ in range(2):  # bob, carol; round 3: alice's own turn ends the wait
        do(e, {"action": "next"})
    out = attack(e, "alice", "carol", weapon="pistol", dice=[75])
    assert rolls(out.events)[0].target == 60


def test_000_7_option_wait_drops_the_aim(fracas):
    e = fight(
        fracas,
        ("alice", gunner()),
        ("bob", sheet(12)),
        ("carol", sheet(8)),
        options={"wait_keeps_aim": False},
    )
    do(e, {"action": "aim", "actor": "alice"})
    do(e, {"action": "next"})
    do(e, {"action": "next"})
    do(e, {"action": "wait", "actor": "alice"})
    assert not e.state.fighters["alice"].has("aiming")


def _rifle(fracas, **options):
    shooter = sheet(14, skills={"firearms": 60}, weapons=[{**RIFLE, "lethality": 50}])
    shooter["holding"] = ["rifle"]
    return fight(fracas, ("alice", shooter), ("bob", sheet(10, hp=40)), options=options)


def test_000_M8_doubled_lethality_of_100_kills_on_a_roll_of_100(fracas):
    e = _rifle(fracas)
    out = attack(e, "alice", "bob", weapon="rifle", dice=[22, 100])
    assert rolls(out.events)[1].target == 100
    assert hp(e, "bob") == 0


def test_000_M8_option_caps_lethality_at_99(fracas):
    e = _rifle(fracas, lethality_max=99)
    out = attack(e, "alice", "bob", weapon="rifle", dice=[22, 100])
    assert rolls(out.events)[1].target == 99
    assert hp(e, "bob") == 40 - (10 + 10) * 2, "100 reads 10 and 10, doubled by the critical"


def test_000_M2_an_attack_on_an_inhuman_stat_is_inhuman_for_every_target(fracas):
    grenade = {"name": "grenade", "kind": "explosive", "damage": "1d6", "skill": "dex x5"}
    monster = sheet(21, weapons=[grenade], holding=["grenade"])
    e = fight(fracas, ("monster", monster), ("bob", sheet(10, hp=30)), ("carol", sheet(9, hp=30)))
    out = attack(e, "monster", "bob", "carol", weapon="grenade", dice=[18, 2, 2])
    assert rolls(out.events)[0].target == 99
    shared = [ev for ev in out.events if getattr(ev, "outcome", "").startswith("the same roll")]
    assert "18 against 99% is a critical" in shared[0].outcome, "18 is under DEX 21"
