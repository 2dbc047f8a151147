"""The decider protocol's plumbing: the registry, options, upcasters, views in SQLite."""

import dataclasses
from typing import Any

import msgspec
import pytest

from fracas.ledger import NewEvent, NotFoundError
from fracas.projections import Fracas
from fracas.rules import Encounter, available, load
from fracas.rules.events import Note
from fracas.rules.percentile import RULESET
from tests.support import attack, do, fight, gunner, sheet


def test_rulesets_are_found_through_entry_points():
    assert "percentile" in available()
    assert load("percentile") is RULESET
    with pytest.raises(NotFoundError, match="installed rulesets"):
        load("gurps")


def test_old_schema_events_are_upcast_on_read_and_never_rewritten(fracas):
    def rename(data: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in data.items() if k != "message"}, "text": data["message"]}

    v2 = dataclasses.replace(RULESET, schema=2, upcasters={("note", 1): rename})
    e = fracas.new(v2)
    old_body = msgspec.json.encode({"kind": "note", "message": "written by fracas 0.1"}).decode()
    fracas.store.append(
        e.id, [NewEvent("note", old_body, schema=1)], expected_version=e.version, command_id="old"
    )
    reread = Encounter(fracas.store, e.id, v2)
    (note,) = reread.events_of_step(2)
    assert note == Note("written by fracas 0.1")
    assert [ev.body for ev in fracas.store.events(e.id)][-1] == old_body


@pytest.mark.sqlite_file
def test_the_view_is_in_sqlite_after_every_step(fracas):
    e = fight(fracas, ("alice", sheet(14)), ("bob", sheet(10)))
    do(e, {"action": "next"})
    rows = list(
        fracas.store.db.query(
            "SELECT combatant, acting, status FROM initiative WHERE encounter = ? ORDER BY ord",
            [e.id],
        )
    )
    assert rows == [
        {"combatant": "alice", "acting": 0, "status": "done"},
        {"combatant": "bob", "acting": 1, "status": "acting"},
    ]
    (view,) = fracas.store.db.query("SELECT round, phase FROM encounter_view")
    assert view == {"round": 1, "phase": "turn"}


def test_a_failed_projection_rolls_back_the_whole_step(fracas):
    e = fight(fracas, ("alice", sheet(14)), ("bob", sheet(10)))
    before, state = fracas.store.head(e.id), e.state

    def broken(conn, encounter, view, previous):
        raise RuntimeError("disk full")

    e.projector = broken
    with pytest.raises(RuntimeError):
        do(e, {"action": "next"})
    assert fracas.store.head(e.id) == before and e.state == state


def test_two_processes_playing_one_encounter_take_turns_without_a_refusal(log_location):
    """Each decides on the head it knows; when the other has moved on, the append is
    refused inside, the encounter catches up and decides again: no step lost or doubled."""
    with Fracas(log_location) as first, Fracas(log_location) as second:
        mine = fight(first, ("alice", gunner()), ("bob", gunner(dex=9)))
        theirs = second.encounter(mine.id)
        attack(mine, "alice", "bob", dice=[30, 4])
        theirs.note("the lights flicker")  # the second GM screen, on the head it read
        attack(mine, "bob", "alice", dice=[95])  # decided again on the new head
        assert [record.step for record in mine.history.steps] == list(range(1, 8))
        theirs.reload()
        assert theirs.state == mine.state and mine.state.turn == "alice"
        with Fracas(log_location, readonly=True) as check:
            assert check.audit().ok and check.encounter(mine.id).version == mine.version


def plugged(monkeypatch, **points: str) -> None:
    """Entry points of `fracas.rulesets` as if installed, beside the built-in ones."""
    from importlib.metadata import EntryPoint

    from fracas.rules import ruleset

    found = ruleset._entry_points()
    found |= {n: EntryPoint(n, v, ruleset.ENTRY_POINT_GROUP) for n, v in points.items()}
    monkeypatch.setattr(ruleset, "_entry_points", lambda: found)


def test_an_entry_point_named_otherwise_than_its_ruleset_is_refused(monkeypatch):
    plugged(monkeypatch, sk6="tests.dealt_deck:RULESET")
    with pytest.raises(NotFoundError) as refused:
        load("sk6")
    said = str(refused.value)
    assert "entry point sk6 = 'tests.dealt_deck:RULESET' names the ruleset 'deck'" in said
    assert 'deck = "tests.dealt_deck:RULESET"' in said


def test_a_plugin_that_fails_to_import_is_named_and_the_others_listed(monkeypatch, run):
    plugged(monkeypatch, broken="fracas_no_such_plugin:RULESET", deck="tests.dealt_deck:RULESET")
    listed = run("rulesets")
    assert "deck " in listed.stdout and "percentile" in listed.stdout
    assert "Traceback" not in listed.output
    (line,) = listed.stderr.splitlines()
    assert line.startswith("fracas: the ruleset entry point broken = 'fracas_no_such_plugin:")
    assert "failed to import: ModuleNotFoundError: No module named 'fracas_no_such_plugin'" in line
