"""`fracas replay --steps` and `fracas whatif` read a roll as its ruleset compares it: a d20
or a shot-clock roll with its modifiers added, as the log's roll line does, not the bare die
against the target."""

import pytest

from fracas.projections.describe import came_to, describe
from fracas.rules.events import Rolled
from fracas.rules.ruleset import load
from tests.casts.shotclock import BOSS, JACK, act, shot_fight
from tests.support import cli_gunfight, do, refused, srd_sample


def srd_attack(fracas):
    """Brannoc the fighter hits a goblin with a 12 (+3 Str, +2 proficient = 17 vs AC 15)."""
    e = fracas.new("srd", title="test")
    for who, kind, side in (("brannoc", "fighter", "pc"), ("gob", "goblin", "npc")):
        read = srd_sample(kind)
        do(e, {"action": "join", "combatant": who, "sheet": read, "side": side})
    do(e, {"action": "begin"}, [20, 1])
    command = {"action": "attack", "actor": "brannoc", "targets": ["gob"], "weapon": "longsword"}
    return e, do(e, command, [12, 1]), [3]


def shotclock_attack(fracas):
    """Jack shoots the boss: his Guns 14 added to the dice's swing."""
    e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS), initiative=[4, 3])
    return e, act(e, "jack", "attack", "boss", weapon="beretta", dice=[5, 2]), [1, 5]


FIGHTS = {"srd": srd_attack, "shotclock": shotclock_attack}


@pytest.mark.parametrize("name", FIGHTS)
def test_replay_and_whatif_read_the_roll_the_ruleset_compares(fracas, run, name):
    encounter, outcome, other = FIGHTS[name](fracas)
    step = outcome.step
    rolled = next(e for e in outcome.events if isinstance(e, Rolled) and e.target is not None)
    reads = load(name).reads_rolls
    compared = came_to(rolled, reads)
    assert compared != rolled.roll.total  # the modifiers count: the bare die is not compared
    replay = run("-e", encounter.id, "replay", "--steps", str(step)).output
    assert f" = {compared} vs {rolled.target}" in replay, replay
    assert f"= {rolled.roll.total} vs {rolled.target}" not in replay, replay
    faces = ",".join(map(str, other))
    whatif = run("-e", encounter.id, "whatif", "--step", str(step), "--dice", faces).output
    assert f"was: {describe(rolled, load(name).round_word, reads, {}, True)}" in whatif, whatif


def test_replay_of_the_turn_of_no_combatant_names_who_took_turns(run):
    cli_gunfight(run, bob_hp=12)
    run("act", "alice", "aim")
    line = refused(run, "replay", "--turn", "1:bad by")
    assert line == (
        "Error: --turn 1:bad by: 'bad by' took no turn in this encounter; "
        "turns were taken by: alice (--turn ROUND:COMBATANT)"
    )
    assert "did you mean alice?" in refused(run, "replay", "--turn", "1:alce")
