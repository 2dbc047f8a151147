"""The decider protocol's plumbing: the registry, options, upcasters, views in SQLite."""

import dataclasses
from typing import Any

import msgspec
import pytest

from fracas.ledger import NewEvent, NotFoundError
from fracas.rules import Encounter, available, load
from fracas.rules.events import Note
from fracas.rules.percentile import RULESET
from tests.conftest import do, fight, sheet


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
