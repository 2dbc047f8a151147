"""Snapshots: a cache of folded states that no answer depends on and audit never trusts."""

import contextlib
import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.ledger import FracasError, open_store
from fracas.projections import Fracas
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
    start,
)
from tests.support import POSTGRESQL, cli_gunfight

pytestmark = pytest.mark.usefixtures("snapshots_often")


def full_fold(encounter: Encounter, up_to_step: int | None = None) -> Any:
    """The state folded from the first event, no snapshot consulted."""
    history = encounter.store.history(encounter.id)
    if up_to_step is not None:
        history = history.upto(up_to_step)
    return encounter._fold_from(snapshots.Start(encounter.ruleset.initial()), history, up_to_step)


moves = st.lists(
    st.tuples(actions, dice) | st.tuples(st.just({"action": "adopt"}), st.integers(5, 40)),
    min_size=1,
    max_size=40,
)


@pytest.mark.long
@settings(
    max_examples=examples(full=60, fast=12),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(moves)
def test_a_fight_read_from_snapshots_equals_the_full_fold(moves: list[tuple[Any, Any]]) -> None:
    fracas, encounter = start()
    for command, faces in moves:
        with contextlib.suppress(FracasError):
            if command["action"] == "adopt":
                adopt_whatif(encounter, min(faces, encounter.history.head_step), [50, 50, 50])
            else:
                play(encounter, command, faces)
    assert snapshot_rows(fracas.store), "a fight of this length keeps snapshots"
    reread = Encounter(fracas.store, encounter.id)
    assert reread.state == encounter.state == full_fold(encounter)
    assert reread.history == encounter.history
    assert (reread.seed_epoch(), reread._commitment) == (
        encounter.seed_epoch(),
        encounter._commitment,
    )
    for step in range(1, encounter.history.head_step + 1, 3):
        assert reread.state_at(step) == full_fold(encounter, step)
    report = fracas.audit()
    assert report.ok and report.snapshots_checked and not report.snapshots


def test_a_long_fight_is_ready_from_its_newest_snapshot_reading_only_the_steps_since(
    fracas: Fracas,
) -> None:
    encounter = long_fight(fracas)
    newest = fracas.store.snapshots(encounter.id, limit=1)[0]
    assert encounter.version - newest.version < snapshots.SNAPSHOT_EVERY + 8
    resumed = snapshots.resume(fracas.store, encounter.id, encounter.ruleset)
    assert resumed is not None
    history, begin = resumed
    assert begin.version == newest.version
    assert history._records[0].step == newest.step  # the earlier records are not read
    assert history.steps == fracas.store.history(encounter.id).steps
    assert Encounter(fracas.store, encounter.id).state == full_fold(encounter)


def test_a_snapshot_made_by_other_code_or_for_other_undone_steps_is_not_used(
    fracas: Fracas,
) -> None:
    encounter = long_fight(fracas)
    newest = fracas.store.snapshots(encounter.id, limit=1)[0]
    encounter.undo()  # the latest command step: snapshots at or after it no longer fit
    history = fracas.store.history(encounter.id)
    stale = [s for s in fracas.store.snapshots(encounter.id) if s.step >= max(history.undone)]
    assert all(not snapshots.fits(s, history, encounter.ruleset) for s in stale)
    assert Encounter(fracas.store, encounter.id).state == full_fold(encounter)
    other = msgspec.structs.replace(newest, key="another version of the rules")
    assert not snapshots.fits(other, fracas.store.history(encounter.id), encounter.ruleset)


def tamper(store: Any, encounter: str, version: int, change: Any) -> None:
    row = store.conn.execute(
        "SELECT body FROM snapshots WHERE encounter = ? AND version = ?", (encounter, version)
    ).fetchone()
    body = json.loads(row[0])
    change(body["state"])
    store.conn.execute(
        "UPDATE snapshots SET body = ? WHERE encounter = ? AND version = ?",
        (json.dumps(body), encounter, version),
    )


def test_audit_names_a_tampered_snapshot_by_its_position_and_it_is_not_used_again(
    run, fracas: Fracas
) -> None:
    encounter = long_fight(fracas)
    victim = fracas.store.snapshots(encounter.id)[1]
    tamper(fracas.store, encounter.id, victim.version, lambda s: s["fighters"]["bob"].update(hp=1))
    position = fracas.store.event_position(encounter.id, victim.version)

    result = run("-e", encounter.id, "audit", ok=False)
    assert result.exit_code == 1
    assert f"snapshot: WRONG at position {position}" in result.output
    assert "dropped" in result.output
    assert all(s.version != victim.version for s in fracas.store.snapshots(encounter.id))
    assert run("-e", encounter.id, "audit").exit_code == 0
    assert Encounter(fracas.store, encounter.id).state_at(victim.step) == full_fold(
        encounter, victim.step
    )


def test_audit_in_json_lists_a_wrong_snapshot(run, fracas: Fracas) -> None:
    encounter = long_fight(fracas)
    victim = fracas.store.snapshots(encounter.id)[0]
    tamper(fracas.store, encounter.id, victim.version, lambda s: s.update(round=99))
    found = json.loads(run("-e", encounter.id, "audit", "--json", ok=False).output)
    assert not found["ok"]
    [bad] = found["snapshots"]
    assert bad["version"] == victim.version
    assert bad["position"] == fracas.store.event_position(encounter.id, victim.version)


READS = [
    ("status",),
    ("status", "--json"),
    ("status", "--at", "9"),
    ("status", "--at", "31"),
    ("log",),
    ("log", "--json"),
    ("replay", "--steps", "5..12"),
    ("export", "--format", "md"),
    ("export", "--format", "html"),
    ("export", "--format", "jsonl"),
]


def test_deleting_every_snapshot_changes_no_output(run) -> None:
    cli_gunfight(run, bob_hp=10**6)
    for n in range(14):
        run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", f"{30 + n},4")
        run("act", "bob", "wait")
        if n % 5 == 4:
            run("undo")  # bob's wait, taken back: he waits again
            run("act", "bob", "wait")
    run("end", "--reason", "enough")
    store = open_store(run.db)
    assert snapshot_rows(store)
    with_snapshots = [run(*read).output for read in READS]
    drop_all(store)
    assert not snapshot_rows(store)
    assert [run(*read).output for read in READS] == with_snapshots
    store.close()


def test_an_ended_fight_keeps_a_snapshot_of_its_end(fracas: Fracas) -> None:
    encounter = long_fight(fracas, attacks=2)
    outcome = encounter.execute(encounter.ruleset.command({"action": "gm.end", "reason": "x"}))
    newest = fracas.store.snapshots(encounter.id, limit=1)[0]
    assert newest.step == outcome.step


def test_a_snapshot_edited_in_the_log_is_never_used(fracas: Fracas) -> None:
    encounter = long_fight(fracas)
    newest = fracas.store.snapshots(encounter.id, limit=1)[0]
    honest = full_fold(encounter)
    tamper(fracas.store, encounter.id, newest.version, lambda s: s["fighters"]["bob"].update(hp=1))
    assert Encounter(fracas.store, encounter.id).state == honest
    assert snapshots.resume(fracas.store, encounter.id, encounter.ruleset) is None or (
        snapshots.resume(fracas.store, encounter.id, encounter.ruleset)[1].version != newest.version
    )
    report = fracas.audit()
    [bad] = report.snapshots
    assert bad.version == newest.version and "seal" in bad.problem


def test_a_snapshot_naming_another_event_hash_is_reported(fracas: Fracas) -> None:
    encounter = long_fight(fracas)
    victim = fracas.store.snapshots(encounter.id)[0]
    fracas.store.conn.execute(
        "UPDATE snapshots SET hash = '00' WHERE encounter = ? AND version = ?",
        (encounter.id, victim.version),
    )
    [bad] = fracas.audit().snapshots
    assert bad.version == victim.version and "hash" in bad.problem


@pytest.mark.parametrize("how", ["import", "rebuild"])
def test_a_fight_folded_whole_again_keeps_a_snapshot_of_its_head(
    tmp_path, fracas: Fracas, how: str
) -> None:
    """An export carries no snapshots (a cache, not the record), and read models made again
    may find none: the fold of every event they need is kept as a snapshot of the head, so
    the fight's next reads start there instead of folding every event once more."""
    encounter = long_fight(fracas)
    encounter.undo()  # a step to redo at the head
    path = tmp_path / "fight.jsonl"
    with path.open("w", encoding="utf-8") as out:
        fracas.export_jsonl(out, with_secrets=True)
    with Fracas(tmp_path / "copy.db") as copy:
        copy.import_jsonl(path)
        if how == "rebuild":
            drop_all(copy.store)
            assert copy.rebuild() == 1
        [kept] = copy.store.snapshots(encounter.id)
        assert (kept.version, kept.step) == (encounter.version, encounter.history.head_step)
        resumed = snapshots.resume(copy.store, encounter.id, encounter.ruleset)
        assert resumed is not None and resumed[1].version == encounter.version
        again = copy.encounter(encounter.id)
        assert again.state == encounter.state == full_fold(again)
        assert again.history == encounter.history
        assert (again.seed_epoch(), again._commitment) == (
            encounter.seed_epoch(),
            encounter._commitment,
        )
        assert again.redo() == encounter.redo()
        assert again.state == encounter.state
        report = copy.audit()
        assert report.ok and report.snapshots_checked and not report.snapshots


@pytest.mark.sqlite_file
def test_a_log_without_its_key_file_folds_from_the_first_event(tmp_path, fracas: Fracas) -> None:
    encounter = long_fight(fracas)
    assert fracas.store.snapshots(encounter.id)
    import sqlite3

    source, copied = sqlite3.connect(fracas.store.path), sqlite3.connect(tmp_path / "copy.db")
    source.backup(copied)  # the log alone, without its key file
    source.close()
    copied.close()
    with Fracas(tmp_path / "copy.db", readonly=True) as copy:
        assert snapshots.resume(copy.store, encounter.id, encounter.ruleset) is None
        assert Encounter(copy.store, encounter.id).state == encounter.state


@pytest.mark.parametrize("where", ["file", POSTGRESQL])
def test_a_step_written_again_keeps_its_snapshot(
    request: pytest.FixtureRequest, tmp_path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A step the store writes a second time (on a server, when another table began a
    fight meanwhile) carries the snapshot that was due with it."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 1)  # every step is due one
    location = request.getfixturevalue("pg_url") if where == "postgresql" else tmp_path / "s.db"
    with Fracas(location) as table, Fracas(location) as other:
        encounter = long_fight(table, attacks=2)
        other.new("percentile", title="the next table")
        actor = encounter.state.turn or "alice"
        target = "carol" if actor != "carol" else "alice"
        attack = {"action": "attack", "actor": actor, "targets": [target], "weapon": "unarmed"}
        assert play(encounter, attack, None)
        newest = table.store.snapshots(encounter.id, limit=1)[0]
        assert newest.version == encounter.version
