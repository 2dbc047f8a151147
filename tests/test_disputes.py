"""Disputed turns: replay with the state before and after, state at any step, what-if
branches and adopting one. Alice (Firearms 60, pistol) and Bob (Firearms 40, HP 8) trade
shots with typed dice, so every figure below can be checked by hand."""

import json

import pytest

from fracas.ledger import BadInputError, RefusedError
from tests.support import attack, cli_gunfight, fight, gunner


@pytest.fixture
def duel(fracas):
    """Step 5: Alice hits Bob (30 vs 60%) for 5 of his 8 HP. Step 6: Bob hits Alice (40 vs
    60%) for 6 of her 10 HP. Step 7 undone by step 8: Alice's second shot."""
    e = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10, hp=8)))
    assert attack(e, "alice", "bob", weapon="pistol", dice=[30, 5]).step == 5
    assert attack(e, "bob", "alice", weapon="pistol", dice=[40, 6]).step == 6
    attack(e, "alice", "bob", weapon="pistol", dice=[12, 1])
    assert e.undo() == 7
    return e


def health(view, who):
    return next(w.health for w in view.wounds if w.combatant == who)


def test_replay_of_a_turn_shows_rolls_modifiers_rules_and_the_state_around_each_step(fracas, duel):
    (shot,) = fracas.replay(turn="1:alice")
    assert shot.step == 5 and shot.round == 1 and shot.acting == ["alice"]
    to_hit, damage = shot.rolls
    assert (to_hit.dice, to_hit.faces, to_hit.target, to_hit.result) == (
        "d100",
        [30],
        60,
        "success",
    )
    assert (to_hit.source, to_hit.entered_by) == ("manual", "gm")
    assert (damage.dice, damage.total) == ("1d10", 5)
    assert {"000-4", "000-5", "000-8"} <= set(shot.rules)
    before = {s.combatant: s.health for s in shot.before}
    after = {s.combatant: s.health for s in shot.after}
    assert before["bob"] == "HP 8/8" and after["bob"] == "HP 3/8"


def test_replay_marks_an_undone_step_with_the_undo_that_took_it_back(fracas, duel):
    steps = fracas.replay(first=7, last=8)
    undone, undo = steps
    assert not undone.in_effect and undone.taken_back_by == 8 and undone.taken_back_as == "undo"
    assert {s.combatant: s.health for s in undone.after}["bob"] == "HP 2/8", "what it did"
    assert undo.lines == ["undoes step 7"]
    assert {s.combatant: s.health for s in undo.after}["bob"] == "HP 3/8", "and what undo restored"


def test_replay_modifier_reasons_come_with_their_rule(fracas):
    e = fight(fracas, ("alice", gunner(14)), ("bob", gunner(10)))
    attack(
        e, "alice", "bob", weapon="pistol", modifiers=[{"value": -20, "reason": "smoke"}], dice=[55]
    )
    (shot,) = fracas.replay(round_=1)
    assert "-20 smoke" in shot.rolls[0].modifiers[0]


def test_status_at_a_step_is_the_fight_as_the_table_saw_it_then(fracas, duel, run):
    assert health(fracas.view_at(4), "bob") == "HP 8/8"
    assert health(fracas.view_at(5), "bob") == "HP 3/8"
    assert health(fracas.view_at(7), "bob") == "HP 2/8", "step 7 was in effect until step 8"
    assert health(fracas.view_at(8), "bob") == "HP 3/8"
    shown = json.loads(run("status", "--at", "7", "--json").output)
    assert {w["combatant"]: w["health"] for w in shown["wounds"]}["bob"] == "HP 2/8"
    with pytest.raises(BadInputError, match="steps 1 to 8"):
        fracas.view_at(9)


def test_whatif_a_missed_shot_leaves_bob_whole_and_the_rest_as_it_was(fracas, duel):
    head = fracas.store.verify().head_hash
    branch = fracas.whatif(5, dice=[90])
    first, second = branch.steps
    assert first.status == "changed"
    assert any("90 vs 60% -> failure" in line for line in first.now)
    assert not any("damage" in line for line in first.now)
    assert second.status == "same", "Bob's shot at Alice is decided again with its own dice"
    assert [(s.combatant, s.was, s.now) for s in branch.standings] == [("bob", "HP 3/8", "HP 8/8")]
    assert branch.superseded == [5, 6]
    assert fracas.store.verify().head_hash == head, "the main log is untouched"


def test_whatif_a_kill_makes_a_later_command_no_longer_legal(fracas, duel):
    branch = fracas.whatif(5, dice=[30, 8])
    first, second = branch.steps
    assert any("bob takes 8 damage" in line for line in first.now)
    assert second.status == "no longer legal" and "bob is out of the fight" in second.refused
    assert {s.combatant: s.now for s in branch.standings} == {
        "alice": "HP 10/10",
        "bob": "HP 0/8; dead",
    }


def test_whatif_an_amended_ruling_decides_the_command_again(fracas, duel):
    branch = fracas.whatif(5, amend={"modifiers": [{"value": -40, "reason": "thick smoke"}]})
    first = branch.steps[0]
    assert any("30 vs 20%" in line and "-40 thick smoke" in line for line in first.now)
    assert {s.combatant: s.now for s in branch.standings} == {"bob": "HP 8/8"}


def test_whatif_refuses_a_step_that_is_not_a_decision_in_effect(fracas, duel):
    with pytest.raises(BadInputError, match="not in effect"):
        fracas.whatif(7, dice=[90])
    with pytest.raises(BadInputError, match="not a decision"):
        fracas.whatif(8, dice=[90])
    with pytest.raises(BadInputError, match="say what differs"):
        fracas.whatif(5)


def test_adopt_appends_the_branch_and_keeps_the_superseded_steps_marked(fracas, duel):
    events_before = len(list(fracas.store.events()))
    outcomes = fracas.adopt(5, dice=[90])
    assert [o.step for o in outcomes] == [11, 12], "steps 9 and 10 supersede 5 and 6"
    e = fracas.encounter()
    assert e.state.fighters["bob"].hp == 8 and e.state.fighters["alice"].hp == 4
    steps = {s.step: s for s in fracas.replay()}
    assert steps[5].taken_back_as == "supersede" and steps[5].taken_back_by == 9
    assert steps[6].taken_back_by == 10 and not steps[6].in_effect
    assert len(list(fracas.store.events())) > events_before, "only appended"
    report = fracas.audit()
    assert report.ok and report.drift == []
    assert e.undo() == 12 and e.redo() == 12
    with pytest.raises(RefusedError, match="nothing to redo"):
        e.redo()  # a superseded step is taken back for good


def test_adopt_refuses_a_branch_that_changes_nothing(fracas, duel):
    with pytest.raises(RefusedError, match="nothing to adopt"):
        fracas.adopt(5, dice=[30, 5])


def test_cli_replay_whatif_and_adopt(run):
    cli_gunfight(run, bob_hp=8)
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5", "--by", "ana")
    text = run("replay", "--round", "1").output
    rolled = next(line for line in text.splitlines() if " rolls d100" in line)
    assert (
        rolled.startswith("  alice rolls d100 for attack on bob: 30 vs 60%")
        and rolled.count("d100") == 1
    ), "each roll once, on its event line"
    assert "; typed by ana" in rolled
    assert "bob: HP 8/8" in text and "-> HP 3/8" in text
    data = json.loads(run("replay", "--steps", "5", "--json").output)
    assert data[0]["rolls"][0]["faces"] == [30]
    shown = run("whatif", "--step", "5", "--dice", "95").output
    assert "now: alice attacks bob: miss" in shown and "would be HP 8/8" in shown
    refused = run("whatif", "--step", "99", "--dice", "1", ok=False)
    assert refused.exit_code != 0 and "step 99 is not a decision" in refused.output
    assert "Traceback" not in refused.output
    adopted = run("adopt", "--step", "5", "--dice", "95").output
    assert "step 7" in adopted and "miss" in adopted
    assert "supersedes step 5" in run("log").output


def test_damage_in_a_branch_is_what_the_rules_decide(fracas, duel):
    branch = fracas.whatif(6, dice=[40, 10])
    (bob_shot,) = branch.steps
    assert any("alice takes 10 damage" in line for line in bob_shot.now)
    assert {s.combatant: s.now for s in branch.standings} == {"alice": "HP 0/10; dead"}
