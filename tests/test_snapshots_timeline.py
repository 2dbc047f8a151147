"""The timeline from snapshots: `replay --steps` and the GM's scrubber start from the nearest
snapshot at or before the step, and answer exactly what a walk from the first step answers,
whatever was undone, redone, superseded or adopted, and with every snapshot deleted."""

import contextlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.ledger import FracasError, open_store
from fracas.projections.replay import replay, timeline
from fracas.projections.screen import GM, LOG_LINES, Timeline
from fracas.rules import Encounter, snapshots
from fracas.testing.tiers import examples
from tests.random_fights import (
    actions,
    adopt_whatif,
    dice,
    drop_all,
    long_fight,
    play,
    snapshot_rows,
    start_on,
)
from tests.support import cli_gunfight

pytestmark = pytest.mark.usefixtures("snapshots_often")


def windows(head: int) -> list[tuple[int, int]]:
    """Ranges of steps to replay: single steps, short and long runs, up to the last."""
    found = {(1, 1), (1, head), (head, head), (max(1, head - 3), head)}
    for first in range(2, head + 1, 5):
        found |= {(first, first), (first, min(head, first + 6))}
    return sorted(found)


def same_windows(encounter: Encounter) -> None:
    """Every window of the timeline, from snapshots, is that window of the whole walk."""
    whole = list(timeline(encounter))
    head = encounter.history.head_step
    assert len(whole) == head
    for first, last in windows(head):
        assert list(timeline(encounter, between=(first, last))) == whole[first - 1 : last]
        replayed = replay(encounter, first=first, last=last)
        assert replayed == [moment.step for moment in whole[first - 1 : last]]


moves = st.lists(
    st.tuples(actions, dice)
    | st.tuples(st.just({"action": "adopt"}), st.integers(5, 40))
    | st.tuples(st.sampled_from([{"action": "undo"}, {"action": "redo"}]), st.none()),
    min_size=1,
    max_size=30,
)


@pytest.mark.long
@settings(
    max_examples=examples(full=25, fast=5),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(moves)
def test_a_window_of_the_timeline_from_snapshots_is_that_window_of_the_whole_walk(
    moves: list[tuple[Any, Any]],
) -> None:
    from fracas.projections import Fracas

    fracas, encounter = start_on(Fracas(":memory:"))
    for command, faces in moves:
        with contextlib.suppress(FracasError):
            if command["action"] == "adopt":
                adopt_whatif(encounter, min(faces, encounter.history.head_step), [50, 50, 50])
            else:
                play(encounter, command, faces)
    encounter = Encounter(fracas.store, encounter.id)
    same_windows(encounter)
    drop_all(fracas.store)
    same_windows(Encounter(fracas.store, encounter.id))


@pytest.mark.long
@settings(
    max_examples=examples(full=25, fast=5),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(moves)
def test_the_step_just_appended_reads_as_a_fresh_read_of_the_log_reads_it(
    moves: list[tuple[Any, Any]],
) -> None:
    """`fracas play`'s bar tells the step it just appended from the states it holds (no
    fold): the same moment as a process that only reads the log, after an undo or redo too."""
    from fracas.projections import Fracas

    fracas, encounter = start_on(Fracas(":memory:"))
    for command, faces in moves:
        with contextlib.suppress(FracasError):
            if command["action"] == "adopt":
                adopt_whatif(encounter, min(faces, encounter.history.head_step), [50, 50, 50])
            else:
                play(encounter, command, faces)
        head = encounter.history.head_step
        fresh = Encounter(fracas.store, encounter.id)
        for window in ((head, head), (max(1, head - 1), head)):
            told = list(timeline(encounter, between=window))
            assert told == list(timeline(fresh, between=window))
            assert told[-1].step.headline or told[-1].step.sentence


def test_a_window_folds_from_the_nearest_snapshot_not_from_the_first_event(
    fracas, monkeypatch: pytest.MonkeyPatch
) -> None:
    encounter = long_fight(fracas, attacks=40)
    head = encounter.history.head_step
    started_after: list[int] = []
    reads = fracas.store.effective_bodies

    def recording(name: str, skip: Any, up_to_step: Any = None, after_version: int = 0) -> Any:
        started_after.append(after_version)
        return reads(name, skip, up_to_step, after_version)

    monkeypatch.setattr(fracas.store, "effective_bodies", recording)
    before = encounter.history.record(head - 3).last_version
    list(timeline(encounter, between=(head - 2, head)))
    assert started_after, "the state before the window was folded"
    assert 0 < started_after[0] <= before
    assert before - started_after[0] < snapshots.SNAPSHOT_EVERY + 8


def test_the_gms_scrubber_shows_each_step_as_the_whole_walk_does(fracas) -> None:
    encounter = long_fight(fracas, attacks=25)
    scrubbed = Timeline(encounter, "t", GM, lambda step: f"head {step}")
    whole = list(timeline(encounter))
    assert scrubbed.steps == len(whole)
    for step in (len(whole), 1, len(whole) // 2, 3, len(whole) - 1):
        screen = scrubbed.screen(step)
        assert scrubbed.public_view(step)[0] == whole[step - 1].view_after
        assert [entry.step for entry in screen.log] == [
            m.step.step for m in whole[max(0, step - LOG_LINES) : step] if m.step.sentence
        ][::-1]
        assert scrubbed.detail(step).step == whole[step - 1].step
    assert scrubbed.moments == whole


READS = [
    ("status",),
    ("status", "--json"),
    ("log", "--json"),
    ("replay", "--json"),
    ("replay", "--steps", "1..3"),
    ("replay", "--steps", "17..24", "--json"),
    ("replay", "--steps", "29"),
    ("replay", "--steps", "40..999"),
    ("replay", "--round", "3"),
    ("export", "--format", "md"),
]


def test_deleting_every_snapshot_changes_no_replay_after_undo_redo_and_adopt(run) -> None:
    cli_gunfight(run, bob_hp=10**6)
    for n in range(12):
        run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", f"{30 + n},4")
        run("act", "bob", "wait")
        if n % 4 == 1:
            run("undo")
            run("undo")
            run("redo")
            run("act", "bob", "wait")
    steps = json.loads(run("log", "--json").output)
    attack = next(
        s["step"]
        for s in steps[len(steps) // 2 :]
        if not s["undone"] and any(e.get("action") == "attack" for e in s["events"])
    )
    run("adopt", "--step", str(attack), "--dice", "95")
    store = open_store(run.db)
    assert snapshot_rows(store)
    with_snapshots = [run(*read).output for read in READS]
    drop_all(store)
    assert not snapshot_rows(store)
    assert [run(*read).output for read in READS] == with_snapshots
    store.close()
