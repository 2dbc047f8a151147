"""The core mechanics RULES.md §000 adds to the excerpt (numbered 1 to 10 there)."""

import pytest

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.events import Damaged, Modifier
from fracas.rules.percentile import judge, strength_bonus, target_number
from tests.support import PISTOL, RIFLE, attack, damage, do, fight, gunner, hp, rolls, sheet


@pytest.mark.parametrize(
    ("face", "target", "result"),
    [
        (1, 50, "critical"),
        (33, 50, "critical"),
        (34, 50, "success"),
        (50, 50, "success"),
        (51, 50, "failure"),
        (66, 50, "fumble"),
        (100, 99, "fumble"),
        (99, 99, "critical"),
    ],
)
def test_000_mech1_mech3_roll_under_criticals_and_fumbles(face, target, result):
    assert judge(face, target) == result


def test_000_mech2_modifiers_capped_at_40_and_target_clamped_to_1_99():
    plus = [Modifier(20, "aim"), Modifier(20, "pinned"), Modifier(20, "gm")]
    assert target_number(50, plus, 40) == 90
    assert target_number(90, plus, 40) == 99
    assert target_number(10, [Modifier(-40, "mostly covered")], 40) == 1
    assert target_number(50, plus, 0) == 99, "cap 0 turns the cap off"


def test_000_mech5_hp_is_half_str_plus_con_rounded_up(fracas):
    e = fight(fracas, ("a", sheet(10, str=11, con=12)), ("b", sheet(9, str=9, hp=20)))
    assert (hp(e, "a"), hp(e, "b")) == (12, 20)


@pytest.mark.parametrize(("strength", "bonus"), [(4, -2), (8, -1), (12, 0), (16, 1), (17, 2)])
def test_000_mech6_melee_strength_bonus(strength, bonus):
    assert strength_bonus(strength) == bonus


def test_000_mech7_armor_less_armor_piercing(fracas):
    ap = {**PISTOL, "armor_piercing": 2}
    e = fight(
        fracas,
        ("alice", sheet(14, skills={"firearms": 60}, weapons=[ap], holding=["pistol"])),
        ("bob", sheet(10, armor=3)),
    )
    out = attack(e, "alice", "bob", weapon="pistol", dice=[30, 5])
    assert damage(out.events, "bob") == 4
    # said plainly, as srd says damage: the dice, then each change with what it leaves
    said = next(ev.said for ev in out.events if isinstance(ev, Damaged))
    assert said == "1d10 [5], body armor -3 -> 2, armor piercing +2 -> 4", said


def _rifle_fight(fracas, target, **options):
    shooter = sheet(14, skills={"firearms": 60}, weapons=[RIFLE], holding=["rifle"])
    return fight(fracas, ("alice", shooter), ("bob", target), options=options)


def test_000_mech8_lethality_success_kills_a_human_through_armor(fracas):
    e = _rifle_fight(fracas, sheet(10, armor=5))
    attack(e, "alice", "bob", weapon="rifle", dice=[30, 15])
    assert hp(e, "bob") == 0 and e.state.fighters["bob"].has("dead")


def test_000_mech8_lethality_failure_deals_the_sum_of_the_d10s(fracas):
    e = _rifle_fight(fracas, sheet(10, hp=30, armor=1))
    out = attack(e, "alice", "bob", weapon="rifle", dice=[30, 40])
    assert damage(out.events, "bob") == 4 + 10 - 1, "40 reads 4 and 0 (=10), less 1 armor"


def test_000_mech8_non_human_is_not_killed_outright_by_default(fracas):
    e = _rifle_fight(fracas, sheet(10, hp=30, human=False))
    attack(e, "alice", "bob", weapon="rifle", dice=[30, 15])
    assert hp(e, "bob") == 30 - 6
    e = _rifle_fight(fracas, sheet(10, hp=30, human=False), lethality_kills_nonhuman=True)
    attack(e, "alice", "bob", weapon="rifle", dice=[30, 15])
    assert hp(e, "bob") == 0


def test_000_mech3_critical_doubles_lethality_and_its_fallback_damage(fracas):
    e = _rifle_fight(fracas, sheet(10, hp=50))
    out = attack(e, "alice", "bob", weapon="rifle", dice=[22, 55])
    assert rolls(out.events)[1].target == 40
    assert damage(out.events, "bob") == 20, "55 fails 40%: (5+5) x2"
    e = _rifle_fight(fracas, sheet(10, hp=50))
    attack(e, "alice", "bob", weapon="rifle", dice=[22, 35])
    assert hp(e, "bob") == 0, "35 succeeds against the doubled 40%"


def test_000_mech3_critical_doubles_damage(fracas):
    e = fight(
        fracas,
        ("alice", gunner()),
        ("bob", sheet(10, hp=30)),
    )
    out = attack(e, "alice", "bob", weapon="pistol", dice=[11, 6])
    assert damage(out.events, "bob") == 12
    said = next(ev.said for ev in out.events if isinstance(ev, Damaged))
    assert said == "1d10 [6], x2 for a critical hit -> 12", said


def test_000_mech3_fumble_is_a_flagged_miss(fracas):
    e = fight(
        fracas,
        ("alice", gunner()),
        ("bob", sheet(10)),
    )
    out = attack(e, "alice", "bob", weapon="pistol", dice=[100])
    assert rolls(out.events)[0].result == "fumble" and hp(e, "bob") == 10


@pytest.mark.parametrize(
    ("options", "blow", "state"),
    [
        ({}, 8, "unconscious"),
        ({}, 10, "dead"),
        ({"unconscious_at": 0, "dead_at": -1}, 9, None),
    ],
)
def test_000_mech9_unconscious_and_dead_thresholds(fracas, options, blow, state):
    e = fight(
        fracas,
        ("alice", gunner()),
        ("bob", sheet(10)),
        options=options,
    )
    attack(e, "alice", "bob", weapon="pistol", dice=[30, blow])
    conditions = set(e.state.fighters["bob"].conditions)
    assert (state in conditions) if state else not conditions & {"dead", "unconscious"}
    if state:
        assert turn_skips(e, "bob")


def turn_skips(e, who):
    return e.state.turn != who


def test_000_mech10_unaware_targets_cannot_defend(fracas):
    e = fight(
        fracas,
        ("alice", gunner()),
        ("bob", sheet(10)),
    )
    with pytest.raises(RefusedError, match="unaware"):
        attack(
            e,
            "alice",
            "bob",
            weapon="pistol",
            defence={"bob": "dodge"},
            unaware=["bob"],
            dice=[30, 10, 3],
        )


def test_000_mech4_both_fail_lower_roll_wins_when_the_handler_chooses(fracas):
    bishop = sheet(14, skills={"unarmed combat": 60})
    gunman = sheet(10, str=6, skills={"unarmed combat": 20})
    for option, pinned in (("nobody", True), ("lower_roll", False)):
        e = fight(fracas, ("bishop", bishop), ("gunman", gunman), options={"both_fail": option})
        do(e, {"action": "pin", "actor": "bishop", "targets": ["gunman"]}, [30])
        do(e, {"action": "next"})
        do(e, {"action": "next"})
        do(e, {"action": "escape", "actor": "gunman"}, [80, 90])  # both fail; 80 is lower
        assert e.state.fighters["gunman"].has("pinned") is pinned


def test_000_options_unknown_or_badly_typed_are_refused(fracas):
    with pytest.raises(BadInputError, match=r"unknown field .dex_tie.; did you mean dex_ties"):
        fracas.new("percentile", options={"dex_tie": "rolloff"})
    with pytest.raises(BadInputError, match="dex_ties"):
        fracas.new("percentile", options={"dex_ties": "coinflip"})
    assert fracas.encounters() == []


def test_000_M9_falling_unconscious_or_dead_cites_the_hp_thresholds_rule_old_logs_too() -> None:
    from fracas.projections import Fracas
    from fracas.rules.events import ConditionSet
    from fracas.rules.percentile import RULESET

    body = '{"kind":"condition.set","target":"bob","condition":"%s","reason":"r","rules":["000-9"]}'
    old, parry = body % "dead", body % "pinned"
    relabelled = ConditionSet("bob", "dead", "r", {}, ["000-M9"])
    assert RULESET.decode("condition.set", 1, old) == relabelled
    assert RULESET.decode("condition.set", 1, parry).rules == ["000-9"]
    fracas = Fracas(":memory:")
    encounter = fight(fracas, ("alice", gunner()), ("bob", sheet(10, hp=3)))
    events = attack(encounter, "alice", "bob", dice=[30, 2], weapon="pistol").events
    [fell] = [e for e in events if isinstance(e, ConditionSet) and e.condition == "unconscious"]
    assert fell.rules == ["000-M9"]


def test_000_mech8_an_attack_on_the_dead_is_refused_saying_what_to_do(fracas):
    """Issue 40: 'bob is already dead' said what was wrong and not what to do."""
    e = _rifle_fight(fracas, sheet(10, armor=5))
    attack(e, "alice", "bob", weapon="rifle", dice=[30, 15])
    assert e.state.fighters["bob"].has("dead")
    with pytest.raises(RefusedError) as refused:
        attack(e, "alice", "bob", weapon="rifle", dice=[30, 15])
    assert str(refused.value) == (
        "bob is already dead: pick a living target, or if the death was a mistake, "
        "`fracas undo` the step that killed them"
    )


def test_one_out_of_the_fight_is_refused_with_the_advice_that_fits_how_they_left(fracas):
    """Issue 40: the dead are undone with `fracas undo`; a combatant the GM took out with
    `fracas remove` comes back with `fracas return ID`, not by an undo."""
    from fracas.rules.commands import Remove

    e = fight(
        fracas,
        ("alice", sheet(14, skills={"firearms": 60}, weapons=[RIFLE], holding=["rifle"])),
        ("bob", sheet(10, armor=5)),
        ("carol", sheet(9)),
    )
    attack(e, "alice", "bob", weapon="rifle", dice=[30, 15])
    with pytest.raises(RefusedError, match="`fracas undo` the step that killed them"):
        attack(e, "carol", "bob", dice=[30, 5])
    e.execute(Remove("carol", "fled"))
    for actor, target in (("carol", "alice"), ("alice", "carol")):
        with pytest.raises(RefusedError) as removed:
            attack(e, actor, target, weapon="rifle", dice=[30, 15])
        assert str(removed.value) == (
            "carol was removed from the fight: `fracas return carol` brings them back"
        )
