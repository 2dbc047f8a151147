"""Round 2 of percentile fidelity: inhuman stats, stats of 0, aim through a wait, lethality
at 100, and the test judge over the whole grid of targets, modifiers, rolls and stats."""

from pathlib import Path

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.dice import ManualDice
from fracas.rules.events import Damaged, Modifier
from fracas.rules.percentile import (
    RULESET,
    Fighter,
    Options,
    Sheet,
    checked_rating,
    clamp_target,
    judge,
    roll_test,
)
from fracas.rules.ruleset import Context
from tests.support import PISTOL, RIFLE, attack, do, fight, gunner, hp, rolls, sheet

CAP = 40  # the stacking default: modifiers count up to ±40 in total
DOUBLES = (11, 22, 33, 44, 55, 66, 77, 88, 99)
OLD_LOG = Path(__file__).parent / "fixtures" / "percentile-schema-2-inhuman.jsonl"


def expected(face: int, base: int, modifier: int, stat: int | None) -> tuple[int, str]:
    """RULES.md §000, mechanics 1 to 3, written out case by case."""
    modifier = min(CAP, max(-CAP, modifier))
    inhuman = stat is not None and stat >= 20
    target = base + modifier  # an inhuman stat's x5 too: modifiers first, as for any test
    if target < 1:
        target = 1
    if target > 99:  # so an inhuman stat still at 99 or more passes every roll but 100
        target = 99
    if face == 100:
        return target, "fumble"
    matching_digits = face in DOUBLES
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


def stat_test(stat: int, modifier: int, face: int, **options) -> tuple[int, str]:
    """An STR test of a fighter with STR `stat` under `modifier`, rolled `face`: its target
    and result, as the rules decide and a step records them."""
    fighter = Fighter("x", "X", "pc", Sheet(strength=stat), 0, 10, 10)
    test = roll_test(
        Context(ManualDice([face], "gm"), 1),
        [],
        fighter,
        "str",
        "a test",
        [Modifier(modifier, "the GM's")],
        Options(**options),
        [],
    )
    return test.target, test.result


def test_000_M2_judge_over_the_full_grid_of_stat_tests():
    nobody = Fighter("x", "X", "pc", Sheet(dex=0), 0, 10, 10)
    with pytest.raises(RefusedError, match="DEX 0"):
        checked_rating(nobody, "dex")  # stat 0: no test at all, whatever the roll
    wrong = []
    for stat in range(1, 26):
        for modifier in range(-60, 61):
            target, _ = stat_test(stat, modifier, 50)
            for face in range(1, 101):
                got = (target, judge(face, target, stat))
                if got != expected(face, stat * 5, modifier, stat):
                    wrong.append((stat, modifier, face, got))
    assert not wrong, wrong[:5]


# 000-M2's corners: an inhuman stat (20 to 25) under each modifier, the GM's cap turned off
# (modifier_cap=0) so that -60 counts whole. The target is the stat x5 plus the modifier,
# clamped to 1..99 as every target is.
CORNER_TARGETS = {
    -20: {20: 80, 21: 85, 22: 90, 23: 95, 24: 99, 25: 99},
    -40: {20: 60, 21: 65, 22: 70, 23: 75, 24: 80, 25: 85},
    -60: {20: 40, 21: 45, 22: 50, 23: 55, 24: 60, 25: 65},
    +20: {20: 99, 21: 99, 22: 99, 23: 99, 24: 99, 25: 99},
}


def corner_rolls(stat: int, target: int) -> dict[int, str]:
    """The rolls at a corner and what each reads: at the target, one over, the raw stat,
    the doubles either side of the target, and 100."""
    over = target + 1
    reads = {
        target: "critical" if target in DOUBLES else "success",
        over: "fumble" if over == 100 or over in DOUBLES else "failure",
        stat: "critical",  # at or under the raw stat: still a critical
        max(d for d in DOUBLES if d <= target): "critical",
        100: "fumble",
    }
    above = [d for d in DOUBLES if d > target]
    if above:
        reads[min(above)] = "fumble"
    return reads


@pytest.mark.parametrize("stat", range(20, 26), ids=lambda stat: f"000-M2 STR {stat}")
def test_000_M2_an_inhuman_stat_is_tested_against_its_modified_target(stat):
    wrong = []
    for modifier, targets in CORNER_TARGETS.items():
        for face, result in corner_rolls(stat, targets[stat]).items():
            got = stat_test(stat, modifier, face, modifier_cap=0)
            if got != (targets[stat], result):
                wrong.append((modifier, face, got, (targets[stat], result)))
    assert not wrong, wrong


def test_000_M2_an_inhuman_stat_still_at_99_or_more_fails_only_on_100():
    for stat, modifier in ((22, 40), (22, 0), (22, -11), (24, -20), (25, -26)):
        results = {stat_test(stat, modifier, face)[1] for face in range(1, 100)}
        assert results <= {"success", "critical"}, (stat, modifier)
        assert stat_test(stat, modifier, 100) == (99, "fumble")
    assert [stat_test(22, 0, face)[1] for face in (15, 22, 23, 24)] == [
        "critical",
        "critical",
        "success",
        "success",
    ]


def test_000_M2_a_penalty_makes_an_inhuman_stat_test_an_ordinary_one(fracas):
    brute = sheet(14, str=22, skills={"unarmed combat": 60})
    e = fight(fracas, ("brute", brute), ("bob", sheet(10)))
    slippery = [{"value": -40, "reason": "slippery"}]
    lift = {"action": "other", "actor": "brute", "what": "lift", "test": "str"}
    out = do(e, {**lift, "modifiers": slippery}, [98])
    (test,) = rolls(out.events)
    assert (test.target, test.result) == (70, "failure"), "STR 22 x5 is 110; -40 makes it 70"
    assert [m.rule for m in test.modifiers] == ["", "000-M2"]
    assert "22 or under is a critical" in test.modifiers[1].reason


@pytest.mark.parametrize(
    ("stat", "modifier", "face", "read"),
    [(20, -60, 41, (40, "failure")), (21, -40, 99, (65, "fumble"))],
    ids=["000-M2 STR 20 at -60 fails on 41", "000-M2 STR 21 at -40 fumbles on 99"],
)
def test_000_M2_the_issue_s_cases_as_a_step_records_them(fracas, stat, modifier, face, read):
    brute = sheet(14, str=stat)
    e = fight(fracas, ("brute", brute), ("bob", sheet(10)), options={"modifier_cap": 0})
    heave = {"action": "other", "actor": "brute", "what": "heave", "test": "str"}
    out = do(e, {**heave, "modifiers": [{"value": modifier, "reason": "greased"}]}, [face])
    (test,) = rolls(out.events)
    assert (test.target, test.result) == read


def test_000_M2_an_encounter_may_keep_the_earlier_reading_penalties_ignored(fracas):
    brute = sheet(14, str=22)
    e = fight(
        fracas, ("brute", brute), ("bob", sheet(10)), options={"inhuman_penalties": "ignored"}
    )
    lift = {"action": "other", "actor": "brute", "what": "lift", "test": "str"}
    out = do(e, {**lift, "modifiers": [{"value": -40, "reason": "slippery"}]}, [98])
    (test,) = rolls(out.events)
    assert (test.target, test.result) == (99, "success")
    assert test.modifiers[1].reason == "inhuman stat 22: every roll but 100 succeeds"


def assert_begun_before_keeps(option: str, kept: str, schemas: tuple[int, ...]) -> None:
    """An encounter begun under an earlier schema reads as having chosen `kept`; one begun
    now records its own choice."""
    body = (
        '{"kind":"encounter.started","ruleset":"percentile","title":"t",'
        '"options":{"modifier_cap":40},"seed_sha256":"%s"}' % ("0" * 64)
    )
    for schema in schemas:
        started = RULESET.decode("encounter.started", schema, body)
        assert started.options[option] == kept, schema
    now = RULESET.decode("encounter.started", RULESET.schema, body)
    assert option not in now.options, "a new encounter records its own"


def test_000_M2_an_encounter_begun_before_the_change_keeps_penalties_ignored():
    assert_begun_before_keeps("inhuman_penalties", "ignored", (1, 2))


def test_000_M2_a_log_written_under_the_earlier_reading_audits_without_drift(fracas):
    """Written by fracas before this change (schema 2): STR 22 tested under -40 and -60 and
    a thrown boulder at STR x5 under -40, every roll typed, each decided at target 99."""
    fracas.import_jsonl(OLD_LOG)
    report = fracas.audit()
    assert report.ok and report.drift_checked
    assert report.drift == [], [d.problem for d in report.drift]
    encounter = fracas.encounter("inhuman")
    assert encounter.state.options.inhuman_penalties == "ignored"
    assert encounter.state.fighters["bob"].hp == encounter.state.fighters["bob"].hp_max - 6


def test_damage_is_said_as_its_sum_but_an_encounter_begun_before_keeps_its_steps(fracas):
    """Schema 4 says a hit's damage as the table sums it ('1d10 [5]'); an encounter begun
    under schema 3 recorded none, and keeps deciding so (the audit finds no drift)."""
    assert_begun_before_keeps("damage_words", "steps", (2, 3))
    shooter = sheet(10, weapons=[PISTOL], holding=["pistol"], skills={"firearms": 60})
    for words, said in (("sum", "1d10 [5]"), ("steps", "")):
        e = fight(fracas, ("alice", shooter), ("bob", sheet(10)), options={"damage_words": words})
        out = attack(e, "alice", "bob", weapon="pistol", dice=[30, 5])
        assert [d.said for d in out.events if isinstance(d, Damaged)] == [said], words


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
    with pytest.raises(BadInputError, match=r"str = -1 is not accepted"):
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
    assert shared[0].told == "the same roll is a critical (18 against 99%)", "18 is under DEX 21"
