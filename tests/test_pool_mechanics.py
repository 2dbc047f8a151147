"""The Contract's missing mechanics (RULES.md §004) and a CLI scenario with undo."""

import json

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.ledger import RefusedError
from fracas.rules.pool import count_outcome, reading
from tests.casts.pool import ANA, act, injuries, pool_fight
from tests.support import do, rolls


@pytest.mark.parametrize(
    ("faces", "difficulty", "outcome", "band"),
    [
        ([6, 7, 2], 6, 2, "partial success"),
        ([10, 10, 1], 6, 3, "partial success"),
        ([1, 1, 6], 6, -1, "botch"),
        ([5, 5], 6, 0, "failure"),
        ([10, 10, 8, 9], 7, 6, "exceptional success"),
        ([10, 9, 8], 8, 4, "complete success"),
    ],
)
def test_outcome_counts_successes_tens_double_ones_cancel(faces, difficulty, outcome, band):
    assert count_outcome(faces, difficulty) == outcome and reading(outcome) == band


def test_no_ranks_in_the_ability_adds_one_to_the_difficulty(fracas):
    e = pool_fight(fracas)
    roll = rolls(
        act(e, "ana", "other", what="sneak", attribute="dexterity", ability="stealth", dice=[2] * 4)
    )[0]
    assert roll.target == 7


def test_injuries_cut_body_and_every_later_pool(fracas):
    e = pool_fight(fracas, ana={**ANA, "weapons": [{"name": "axe", "damage": 2}]})
    act(e, "ana", "attack", "bob", weapon="axe", dice=[6, 6, 6, 2, 2])  # 3 + 2 = Severity 5
    act(e, "bob", "other", what="stagger", attribute="brawn", ability="melee", dice=[2])
    # Bob: Body 6 - 5 = 1 left: Maimed, -4 dice: a pool of 4 falls to 1 (never below 1)
    bob = e.view().wounds[1]
    assert bob.health == "Body 1/6" and bob.detail["penalty"] == -4
    assert bob.detail["injuries"] == ["5 Grave"]


def body_of(e, who: str) -> str:
    return next(w.health for w in e.view().wounds if w.combatant == who)


def test_004_M3_every_point_the_gm_heals_gives_back_a_point_of_body(fracas):
    e = pool_fight(fracas)
    for severity in (2, 2, 1):
        do(e, {"action": "gm.harm", "target": "bob", "amount": severity})
    assert body_of(e, "bob") == "Body 2/6"  # 6 - (worst 2 + two others)
    shown = []
    for _ in range(4):
        do(e, {"action": "gm.heal", "target": "bob", "amount": 1})
        shown.append(body_of(e, "bob"))
    assert shown == ["Body 3/6", "Body 4/6", "Body 5/6", "Body 6/6"]
    assert e.state.fighters["bob"].injuries == ()


def test_004_M3_a_heal_of_several_points_and_one_past_full_body(fracas):
    e = pool_fight(fracas)
    for severity in (3, 3):
        do(e, {"action": "gm.harm", "target": "bob", "amount": severity})
    assert body_of(e, "bob") == "Body 2/6"
    do(e, {"action": "gm.heal", "target": "bob", "amount": 2})
    assert body_of(e, "bob") == "Body 4/6"
    (healed,) = do(e, {"action": "gm.heal", "target": "bob", "amount": 9}).events[1:]
    assert body_of(e, "bob") == "Body 6/6"
    assert healed.amount == 2, "the heal records the Body it gave back"


def test_body_0_incapacitates_and_below_0_kills(fracas):
    e = pool_fight(fracas, ana={**ANA, "weapons": [{"name": "axe", "damage": 4}]})
    act(e, "ana", "attack", "bob", weapon="axe", dice=[6, 6, 2, 2, 2])  # 2 + 4 = 6
    assert e.state.fighters["bob"].incapacitated and not e.state.fighters["bob"].dead
    assert e.state.turn == "thug", "the incapacitated lose their turn"
    e2 = pool_fight(fracas, ana={**ANA, "weapons": [{"name": "axe", "damage": 4}]})
    act(e2, "ana", "attack", "bob", weapon="axe", dice=[6, 6, 6, 2, 2])  # 3 + 4 = 7
    assert e2.view().wounds[1].conditions == ["dead"]


def test_exerting_adds_one_to_the_outcome_once_a_round(fracas):
    e = pool_fight(fracas)
    done = act(e, "ana", "attack", "bob", weapon="sword", exert=True, dice=[6, 2, 2, 2, 2])
    assert rolls(done)[0].result == "outcome 2: partial success" and injuries(e, "ana") == (1,)
    assert injuries(e, "bob") == (2 + 1,)


def test_armor_does_not_stack_and_brawn_is_armor_against_fists(fracas):
    e = pool_fight(fracas, bob={"brawn": 2, "dexterity": 3, "perception": 2, "armor": 1})
    do(e, {"action": "next"})
    do(e, {"action": "next"})
    act(e, "thug", "attack", "bob", weapon="fists", dice=[6, 6, 6, 6, 2])  # 4 - max(1, 2)
    assert injuries(e, "bob") == (2,)


def test_undo_of_a_fired_held_action_restores_it_as_held(fracas):
    e = pool_fight(fracas)
    act(e, "ana", "hold", "bob", weapon="sword", trigger="Bob swings")
    before = e.state
    fired = do(
        e,
        {
            "action": "attack",
            "actor": "bob",
            "targets": ["ana"],
            "weapon": "club",
            "triggers": ["ana"],
        },
        [6, 6, 2, 2, 2] + [2, 2, 2, 2],
    )
    assert not e.state.fighters["ana"].has("holding") and injuries(e, "bob") == (3,)
    assert e.undo() == fired.step
    assert e.state == before and e.state.fighters["ana"].conditions["holding"]["trigger"] == (
        "Bob swings"
    )
    assert e.view().initiative[0].status == "Action left; holding an attack until Bob swings"


def test_a_refused_trigger_appends_nothing(fracas):
    e = pool_fight(fracas)
    do(e, {"action": "next"})
    step = e.history.head_step
    with pytest.raises(RefusedError, match="holds no action"):
        act(e, "bob", "attack", "ana", weapon="club", triggers=["ana"], dice=[2] * 4)
    assert e.history.head_step == step


def test_a_dice_pool_fight_from_the_command_line(tmp_path):
    """A split pool, an evade, a held punch fired by the trigger the GM names, and undo."""
    runner = CliRunner()
    db = str(tmp_path / "contract.db")

    def fracas(*args: str, ok: bool = True) -> str:
        result = runner.invoke(cli, ["--db", db, "-e", "job", *args])
        assert (result.exit_code == 0) == ok, f"{args}: {result.output}"
        return result.output

    fracas("new", "-r", "pool", "--id", "job", "-t", "The job")
    sword = 'weapons=[{name="sword", kind="melee", ability="melee", damage=1}]'
    fracas(
        "add",
        "ana",
        "--side",
        "pc",
        "--set",
        "brawn=3",
        "--set",
        "dexterity=4",
        "--set",
        "perception=3",
        "--set",
        "abilities.athletics=3",
        "--set",
        "abilities.melee=2",
        "--set",
        sword,
    )
    fracas(
        "add",
        "bob",
        "--set",
        "dexterity=3",
        "--set",
        "abilities.melee=2",
        "--set",
        'weapons=[{name="club", kind="melee", ability="melee"}]',
    )
    fracas("add", "thug", "--set", "brawn=3", "--set", "perception=1", "--set", "abilities.brawl=2")
    # initiative: Ana 7 dice -> 3; Bob 5 dice -> 1 (Dex 3); the thug 3 dice -> 1 (Dex 2)
    fracas("begin", "--dice", "9,9,9,2,2,2,2,7,2,2,2,2,8,2,2")
    # Ana splits her 5 sword dice 3/2 (004-8, 004-9): Bob 6,6,6 = 3 + 1 = Severity 4;
    # the thug 7,2 = 1 + 1 = Severity 2
    fracas("act", "ana", "attack", "bob", "thug", "-w", "sword", "--dice", "6,6,6,7,2")
    # Bob, Body 6 - 4 = 2 (-3 dice), evades: Dex 3 + Athletics 0 = 3 - 3 -> 1 die at 7 + 1
    fracas("act", "bob", "evade", "--dice", "10")
    status = json.loads(fracas("status", "--json"))
    wounds = {w["combatant"]: w for w in status["wounds"]}
    assert wounds["bob"]["health"] == "Body 2/6" and wounds["bob"]["conditions"] == [
        "evading (2 left)"
    ]
    assert wounds["thug"]["detail"]["injuries"] == ["2 Moderate"]
    # the thug holds a punch on Ana until she moves (004-5)
    fracas("act", "thug", "hold", "ana", "-w", "fists", "-o", "trigger=Ana moves")
    status = json.loads(fracas("status", "--json"))
    assert status["round"] == 2 and status["acting"] == ["ana"]
    assert status["notes"] == ["thug holds an attack on ana until Ana moves"]
    # Ana swings at Bob; the GM names it the trigger: the punch resolves first (004-7):
    # the thug's 5 dice less 1 (Body 7 - 2 = 5, Hurt): 5,5,5,2 = 3 - Ana's Brawn 3 = nothing;
    # then her sword 6,6 = 2, all evaded (004-14)
    out = fracas(
        "act",
        "ana",
        "attack",
        "bob",
        "-w",
        "sword",
        "-o",
        "triggers=[thug]",
        "--dice",
        "5,5,5,2,6,6,2,2,2",
    )
    assert out.index("thug rolls") < out.index("ana rolls")
    assert "evades 2 of ana's attack" in out
    status = json.loads(fracas("status", "--json"))
    assert status["notes"] == [] and status["acting"] == ["bob"]
    fracas("undo")
    status = json.loads(fracas("status", "--json"))
    assert status["notes"] == ["thug holds an attack on ana until Ana moves"], "held again"
    assert status["acting"] == ["ana"]
