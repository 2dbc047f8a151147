"""Conditions with durations: "3 rounds", "until the end (or start) of X's next turn". They
expire by themselves at the right point of each ruleset's own order, the log says why, and
undo takes the expiry (or the condition) back."""

import html
import json
from typing import Any

import httpx
import pytest

from fracas.cli.main import App, cli
from fracas.cli.serve import TOKEN_HEADER
from fracas.cli.shell import Completion, Session
from fracas.projections import Fracas
from fracas.rules import Encounter
from fracas.rules.events import ConditionExpired
from tests.casts.fudge import a, fudge_fight
from tests.casts.shotclock import BOSS, JACK, shot_fight
from tests.casts.timeslice import end_turn, ts_fight
from tests.support import do, fight, sheet
from tests.terminal import click_completes, set_up
from tests.web import served


def timed(e: Encounter, who: str, condition: str, **duration: Any):
    command = {"action": "gm.condition-set", "target": who, "condition": condition, **duration}
    return do(e, command)


def has(e: Encounter, who: str, condition: str) -> bool:
    return condition in e.state.fighters[who].conditions


def shown(e: Encounter, who: str) -> list[str]:
    return next(w.conditions for w in e.view().wounds if w.combatant == who)


def expiries(e: Encounter, outcome) -> list[ConditionExpired]:
    return [x for x in outcome.events if isinstance(x, ConditionExpired)]


def step(e: Encounter, command: dict[str, Any] | None = None, dice: list[int] | None = None):
    return do(e, command or {"action": "next"}, dice)


# -- percentile: the DEX countdown, a round a turn of everyone ------------------------------


def duel(fracas: Fracas) -> Encounter:
    """Alice (DEX 14) then Bob (DEX 10), begun: Alice acts in round 1."""
    return fight(fracas, ("alice", sheet(14)), ("bob", sheet(10)))


def test_rounds_run_out_as_the_round_after_the_last_begins_in_dex_order(fracas):
    e = duel(fracas)
    timed(e, "bob", "blessed", rounds=2)
    assert shown(e, "bob") == ["blessed (2 rounds left)"]
    step(e)  # Bob's turn, round 1
    assert shown(e, "bob") == ["blessed (2 rounds left)"]
    step(e)  # round 2
    assert shown(e, "bob") == ["blessed (1 round left)"]
    step(e)  # Bob's turn, round 2
    assert has(e, "bob", "blessed")
    done = step(e)  # round 3 begins
    assert not has(e, "bob", "blessed")
    assert [(x.target, x.condition) for x in expiries(e, done)] == [("bob", "blessed")]
    assert expiries(e, done)[0].reason == "2 rounds are up, round 3 begins"


def test_rounds_set_before_the_fight_count_from_its_first_round(fracas):
    e = fight(fracas, ("alice", sheet(14)), ("bob", sheet(10)), begin=False)
    timed(e, "alice", "hasted", rounds=1)
    step(e, {"action": "begin"})
    assert shown(e, "alice") == ["hasted (1 round left)"]
    step(e)
    assert has(e, "alice", "hasted")
    step(e)
    assert not has(e, "alice", "hasted")


def test_until_the_end_of_the_acting_combatants_next_turn_outlasts_the_current_one(fracas):
    e = duel(fracas)
    timed(e, "bob", "shaken", until="end:alice")  # set on Alice's own turn
    assert shown(e, "bob") == ["shaken (until the end of alice's next turn)"]
    step(e)  # Alice's turn ends: not her next one
    assert has(e, "bob", "shaken")
    step(e)  # Bob's turn ends; Alice's next turn begins (round 2)
    assert has(e, "bob", "shaken")
    done = step(e)  # Alice's next turn ends
    assert not has(e, "bob", "shaken")
    assert expiries(e, done)[0].reason == "alice's turn is over"


def test_until_the_end_of_a_waiting_combatants_turn_runs_out_after_it(fracas):
    e = duel(fracas)
    timed(e, "alice", "dazzled", until="end:bob")
    step(e)  # Alice passes; Bob's turn begins
    assert has(e, "alice", "dazzled")
    done = step(e)  # Bob's turn ends
    assert [x.condition for x in expiries(e, done)] == ["dazzled"]


def test_until_the_start_of_a_turn_runs_out_as_it_begins(fracas):
    e = duel(fracas)
    timed(e, "alice", "guarded", until="start:bob")
    timed(e, "bob", "stunned", until="start:alice")  # Alice is acting: her next turn
    done = step(e)  # Bob's turn begins
    assert [x.condition for x in expiries(e, done)] == ["guarded"]
    assert has(e, "bob", "stunned")
    done = step(e)  # round 2: Alice's next turn begins
    assert [x.condition for x in expiries(e, done)] == ["stunned"]
    assert expiries(e, done)[0].reason == "alice's turn begins"


def test_a_condition_without_a_duration_lasts_until_removed(fracas):
    e = duel(fracas)
    timed(e, "bob", "on fire")
    timed(e, "bob", "soaked", until="removed")
    for _ in range(6):
        step(e)
    assert has(e, "bob", "on fire") and has(e, "bob", "soaked")


def test_undoing_the_step_that_expired_it_brings_it_back_and_redo_expires_it_again(fracas):
    e = duel(fracas)
    timed(e, "bob", "blessed", rounds=1)
    step(e)
    done = step(e)  # round 2 begins
    assert expiries(e, done) and not has(e, "bob", "blessed")
    e.undo()
    assert has(e, "bob", "blessed")
    assert shown(e, "bob") == ["blessed (1 round left)"]
    e.redo()
    assert not has(e, "bob", "blessed")
    e.undo()
    e.undo()  # Alice's pass
    e.undo()  # the condition itself
    assert not has(e, "bob", "blessed")
    e.redo()  # the condition is back, still for one round
    e.redo()
    assert shown(e, "bob") == ["blessed (1 round left)"]
    e.redo()
    assert not has(e, "bob", "blessed")


def test_undoing_the_condition_leaves_nothing_to_expire(fracas):
    e = duel(fracas)
    timed(e, "bob", "blessed", rounds=1)
    e.undo()
    step(e)
    assert not expiries(e, step(e))  # round 2 begins
    assert not has(e, "bob", "blessed")


def test_a_duration_is_refused_in_one_line_when_it_names_nobody_or_both_kinds(fracas):
    e = duel(fracas)
    version = e.version
    with pytest.raises(Exception, match="no combatant 'zed'"):
        timed(e, "bob", "shaken", until="end:zed")
    with pytest.raises(Exception, match="--until takes end:ID"):
        timed(e, "bob", "shaken", until="after:alice")
    with pytest.raises(Exception, match="not both"):
        timed(e, "bob", "shaken", until="end:alice", rounds=2)
    with pytest.raises(Exception, match="rounds"):
        timed(e, "bob", "shaken", rounds=0)
    assert e.version == version


# -- shotclock: a round is a sequence, a turn one action on one's shot ----------------------


def test_shotclock_the_end_of_the_next_turn_is_after_the_next_action(fracas):
    e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS), initiative=[4, 3])  # 12, 10
    assert (e.state.sequence, e.state.shot) == (1, 12)
    timed(e, "boss", "rattled", until="end:jack")  # on Jack's shot: not his next action
    timed(e, "jack", "covered", until="start:boss")
    step(e, {"action": "other", "actor": "jack", "shots": 1})  # Jack acts; on to shot 11
    assert has(e, "boss", "rattled") and has(e, "jack", "covered")
    done = step(e, {"action": "other", "actor": "jack", "shots": 3})  # his next action
    assert sorted(x.condition for x in expiries(e, done)) == ["covered", "rattled"]
    assert (e.state.shot, e.view().acting) == (10, ["boss"])  # shot 10: the boss's turn


def test_shotclock_rounds_are_sequences(fracas):
    e = shot_fight(fracas, ("jack", JACK), ("boss", BOSS), initiative=[4, 3])
    timed(e, "jack", "inspired", rounds=1)
    assert shown(e, "jack") == ["inspired (1 sequence left)"]
    while e.state.sequence == 1:
        assert has(e, "jack", "inspired")
        done = step(e)
    assert not has(e, "jack", "inspired")
    assert expiries(e, done)[0].reason == "1 sequence is up, sequence 2 begins"


# -- timeslice: a round until every TS is spent, a turn each in initiative order ----------


def test_timeslice_turns_and_rounds(fracas):
    e = ts_fight(fracas)  # Alice, the orc, the goblin
    assert e.view().acting == ["alice"]
    timed(e, "goblin", "frightened", until="end:orc")
    timed(e, "alice", "blessed", rounds=1)
    end_turn(e)  # the orc's turn begins
    assert has(e, "goblin", "frightened")
    done = do(e, {"action": "next"})  # the orc's turn ends
    assert [x.condition for x in expiries(e, done)] == ["frightened"]
    assert has(e, "alice", "blessed")
    done = do(e, {"action": "next"})  # the goblin ends: a new round, TS reset
    assert e.state.round == 2
    assert [x.condition for x in expiries(e, done)] == ["blessed"]


# -- fudge: declare low, resolve high; a combatant's turn is their resolution --------------


def test_fudge_a_turn_is_the_resolution_not_the_declaration(fracas):
    e = fudge_fight(fracas)  # declaring: Cy, Bo, Ana; resolving: Ana, Bo, Cy
    assert e.view().acting == ["cy"]
    timed(e, "ana", "distracted", until="end:cy")
    timed(e, "bo", "ready", until="start:cy")
    timed(e, "cy", "lucky", rounds=1)
    assert shown(e, "cy") == ["lucky (1 turn left)"]
    for who in ("cy", "bo", "ana"):
        do(e, {**a("other", what="shouts"), "actor": who})
        done = step(e)  # their declaration closes
        assert not expiries(e, done), who
    assert e.view().acting == ["ana"]  # resolving from the highest
    step(e)  # Ana resolves; Bo's turn
    done = step(e)  # Bo resolves; Cy's turn begins
    assert [x.condition for x in expiries(e, done)] == ["ready"]
    done = step(e)  # Cy resolves: the end of Cy's turn
    assert [x.condition for x in expiries(e, done)] == ["distracted"]
    assert has(e, "cy", "lucky")
    done = step(e)  # turn 2 opens
    assert [x.condition for x in expiries(e, done)] == ["lucky"]


# -- pool: pool rounds, a turn each --------------------------------------------------------


def test_pool_rounds_and_turns(fracas):
    e = fracas.new("pool", title="test")
    for who in ("ann", "ben"):
        sheet_ = {"brawn": 3, "dexterity": 3}
        do(e, {"action": "join", "combatant": who, "sheet": sheet_, "side": "pc"})
    step(e, {"action": "begin"})
    first, second = e.view().acting[0], next(c for c in ("ann", "ben") if c != e.view().acting[0])
    timed(e, second, "winded", rounds=2)
    timed(e, first, "marked", until="end:" + second)
    assert not expiries(e, step(e))  # the second's turn begins
    done = step(e)  # the second's turn ends; round 2
    assert [x.condition for x in expiries(e, done)] == ["marked"]
    assert e.state.round == 2 and has(e, second, "winded")
    step(e)
    done = step(e)  # round 3
    assert [x.condition for x in expiries(e, done)] == ["winded"]


# -- the command line, `fracas play`, the GM's web console -------------------------------


def test_cli_sets_a_duration_shows_what_is_left_and_logs_the_expiry(run):
    run("new", "--id", "e1")
    run("add", "alice", "--name", "Alice Reyes", "--set", "dex=14")
    run("add", "bob", "--set", "dex=10")
    run("begin")
    run("condition", "set", "bob", "blessed", "--for", "2r", "--reason", "a prayer")
    run("condition", "set", "bob", "shaken", "--until", "end:alice")
    status = json.loads(run("status", "--json").output)
    bob = next(w for w in status["wounds"] if w["combatant"] == "bob")
    assert bob["conditions"] == [
        "blessed (2 rounds left)",
        "shaken (until the end of Alice Reyes's next turn)",
    ]
    assert bob["detail"]["durations"]["blessed"]["rounds_left"] == 2
    assert bob["detail"]["durations"]["shaken"] == {
        "edge": "end",
        "of": "alice",
        "text": "until the end of Alice Reyes's next turn",
    }
    assert "blessed (2 rounds left)" in run("status").output
    for _ in range(3):
        run("next")
    status = json.loads(run("status", "--json").output)
    bob = next(w for w in status["wounds"] if w["combatant"] == "bob")
    assert bob["detail"]["durations"]["blessed"]["rounds_left"] == 1
    assert "shaken" not in " ".join(bob["conditions"])
    log = run("log").output
    assert "bob is blessed for 2 rounds: a prayer" in log
    assert "bob is no longer shaken (expired: Alice Reyes's turn is over)" in log
    run("next")
    run("undo")
    assert "blessed (1 round left)" in run("status").output
    run("redo")
    assert "blessed" not in run("status").output
    audit = run("audit", "--json")
    assert json.loads(audit.output)["ok"] is True


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--for", "three"], "not a number of rounds"),
        (["--for", "0r"], "not a number of rounds"),
        (["--until", "soon"], "--until takes end:ID"),
        (["--until", "end:zed"], "no combatant 'zed'"),
        (["--for", "2r", "--until", "end:bob"], "not both"),
    ],
)
def test_cli_refuses_a_bad_duration_in_one_line_appending_nothing(run, args, says):
    run("new", "--id", "e1")
    run("add", "bob", "--set", "dex=10")
    before = json.loads(run("encounters", "--json").output)[0]["events"]
    result = run("condition", "set", "bob", "blessed", *args, ok=False)
    assert result.exit_code != 0 and says in result.output
    assert "Traceback" not in result.output
    assert json.loads(run("encounters", "--json").output)[0]["events"] == before


def test_play_and_the_web_console_take_the_same_duration_grammar(run, tmp_path):
    run("new", "--id", "e1")
    run("add", "alice", "--set", "dex=14")
    run("add", "bob", "--set", "dex=10")
    run("begin")
    app = App(run.db, None)
    try:
        session = Session(app, cli)
        assert Completion(session).candidates("condition set bob dazed --until e") == [
            "end:alice",
            "end:bob",
        ]
        session.run("condition set bob blessed --for 1r")
        assert not session.last.startswith("refused")
    finally:
        app.close()
    with (
        served(run.db) as server,
        httpx.Client(base_url=server.root, cookies={"fracas_gm": server.token}) as client,
    ):

        def console(line: str) -> dict[str, Any]:
            sent = client.post(
                "/gm/e/e1/command", json={"line": line}, headers={TOKEN_HEADER: server.token}
            )
            return sent.json()

        def screen() -> str:
            return html.unescape(client.get("/gm/e/e1/screen").text)

        done = console("condition set alice shaken --until start:bob -m 'a shout'")
        assert done["ok"], done
        refused = console("condition set alice dazed --for soon")
        assert not refused["ok"] and "not a number of rounds" in refused["refusal"]
        assert "blessed (1 round left)" in screen()
        assert "shaken (until the start of bob's next turn)" in screen()
        assert console("next")["ok"] and console("next")["ok"]
        shown = screen()
    assert "alice is no longer shaken (expired: bob's turn begins)" in shown
    assert "shaken (until" not in shown
    log = run("log").output
    assert "alice is no longer shaken (expired: bob's turn begins)" in log
    assert "bob is no longer blessed (expired: 1 round is up, round 2 begins)" in log


@pytest.mark.sqlite_file  # bash's completion runs `fracas` in a process on the file itself
def test_bash_completion_offers_the_turn_edges_of_until(tmp_path):
    db = tmp_path / "fight.db"
    set_up(db)
    line = "fracas condition set bob dazed --until start:"
    assert click_completes(db, line) == ["start:alice", "start:bob"]
