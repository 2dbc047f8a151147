"""Steps, undo and redo with editor semantics; nothing is ever deleted."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.ledger import History, RefusedError, StepRecord
from fracas.ledger.history import COMMAND, REDO, SUPERSEDE, UNDO
from fracas.testing.tiers import examples
from tests.support import attack, do, fight, gunner, hp, sheet

ALICE = gunner()


def test_undo_takes_back_the_latest_step_and_redo_restores_it(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    before = e.state
    step = attack(e, "alice", "bob", weapon="pistol", dice=[30, 6]).step
    after = e.state
    assert e.undo() == step and e.state == before and hp(e, "bob") == 10
    assert e.redo() == step and e.state == after
    count = len(list(fracas.store.events(e.id)))
    assert count == sum(len(s.events) for s in fracas.log(e.id)), "undo and redo are events"


def test_a_new_step_clears_what_can_be_redone(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    attack(e, "alice", "bob", weapon="pistol", dice=[30, 6])
    e.undo()
    attack(e, "alice", "bob", weapon="pistol", dice=[30, 2])
    with pytest.raises(RefusedError, match="nothing to redo"):
        e.redo()
    assert hp(e, "bob") == 8


def test_undo_walks_back_step_by_step_and_redo_forward(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    states = [e.state]
    for _ in range(3):
        do(e, {"action": "next"})
        states.append(e.state)
    for expected in reversed(states[:-1]):
        e.undo()
        assert e.state == expected
    for expected in states[1:]:
        e.redo()
        assert e.state == expected


def test_the_step_that_started_the_encounter_cannot_be_undone(fracas):
    e = fracas.new("percentile")
    with pytest.raises(RefusedError, match="started the encounter"):
        e.undo()


def test_undone_steps_stay_in_the_log_marked(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    step = attack(e, "alice", "bob", weapon="pistol", dice=[30, 6]).step
    e.undo()
    log = {s.step: s for s in fracas.log(e.id)}
    assert log[step].undone and log[step + 1].control == "undo"
    assert fracas.store.verify().ok


def test_retrying_a_command_id_rolls_no_dice_twice(fracas):
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    command = e.ruleset.command(
        {"action": "attack", "actor": "alice", "targets": ["bob"], "weapon": "pistol"}
    )
    first = e.execute(command, command_id="table-42")
    events = len(list(fracas.store.events(e.id)))
    again = e.execute(command, command_id="table-42")
    assert again.duplicate and again.step == first.step and again.events == first.events
    assert len(list(fracas.store.events(e.id))) == events


def test_the_files_effective_events_view_agrees_with_the_history(fracas):
    """SQL readers get the ledger's own undo, redo and supersede rule, not a copy of it."""
    e = fight(fracas, ("alice", ALICE), ("bob", sheet(10)))
    attack(e, "alice", "bob", weapon="pistol", dice=[30, 6])
    do(e, {"action": "next"})
    e.undo()
    e.undo()
    e.redo()
    in_effect = {
        row[0]
        for row in fracas.store.conn.execute(
            "SELECT DISTINCT step FROM effective_events WHERE encounter = ?", (e.id,)
        )
    }
    commands = {r.step for r in e.history.steps if r.control == "command"}
    assert in_effect == commands - set(e.history.undone)
    assert set(e.history.undone) and not in_effect & set(e.history.undone)


@pytest.mark.long
@settings(max_examples=examples(full=300, fast=60), deadline=None)
@given(st.lists(st.sampled_from([COMMAND, COMMAND, UNDO, REDO, SUPERSEDE]), max_size=30))
def test_a_history_read_from_its_controls_and_head_equals_one_read_whole(controls):
    """What undo and redo would take next, read from the undo, redo and supersede records
    and the last record alone, is what every record gives."""
    history = History.of([_record(1, COMMAND, None)])
    for control in controls:
        target: int | None = None
        with contextlib.suppress(RefusedError):
            if control == UNDO:
                target = history.undo_target()
            elif control == REDO:
                target = history.redo_target()
            elif control == SUPERSEDE and len(effective := history.effective_command_steps()) > 1:
                target = effective[-1]
        if control != COMMAND and target is None:
            continue
        history = history.with_step(_record(history.head_step + 1, control, target))
    steps = history.steps
    at_head = History.at_head(
        [r for r in steps if r.control != COMMAND], steps[-1], lambda: steps[:-1]
    )
    assert (at_head.undone, at_head.redo_stack) == (history.undone, history.redo_stack)
    assert at_head.steps == steps


def _record(step: int, control: str, target: int | None) -> StepRecord:
    return StepRecord("e", step, f"c{step}", control, target, step, step, "gm", "")
