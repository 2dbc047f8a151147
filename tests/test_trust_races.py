"""Trust, round 4 (issue 42): races between the table's processes. A reader sees one state of
the log (its step records and its events in one read snapshot), on both backends. Each test
failed on the code before its fix; bench/reliability/races.py runs them long."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.rules import Encounter
from tests.conftest import do, fight


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "race.db")


@pytest.fixture
def table(where: str) -> Iterator[tuple[Fracas, Fracas]]:
    """The GM's writer and another process's reader of one log."""
    with Fracas(where) as writer, Fracas(where, readonly=True, create=False) as reader:
        yield writer, reader


def test_a_reader_sees_the_records_and_the_events_of_one_moment(table) -> None:
    """Another process appends an undo and a redo between the reader's reads of the step
    records and of the events: the reader still folds what its records say."""
    writer, reader = table
    live = fight(writer, ("alice", {"dex": 14}), ("bob", {"dex": 10}))
    do(live, {"action": "next"})
    live.undo()
    store = reader.store
    runs = store._effective_runs
    moved: list[int] = []

    def then_another_appends(*args, **kwargs):
        found = runs(*args, **kwargs)
        if not moved:  # once: the redo, then a new step, land between two reads
            moved.append(live.redo())
            do(live, {"action": "next"})
        return found

    store._effective_runs = then_another_appends  # type: ignore[method-assign]
    seen = Encounter(store, live.id)
    assert moved, "the race was not run"
    quiet = Encounter(writer.store, live.id)
    assert seen.history.head_step < quiet.history.head_step  # it read before they landed
    assert seen.state == quiet.state_at(seen.history.head_step)
