"""Properties over random fights: replay, rebuild, undo/redo, and no partial steps."""

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.projections import Fracas
from fracas.projections.tables import table_rows
from fracas.rules import Encounter
from fracas.testing.tiers import examples
from tests.random_fights import SHEETS, actions, dice, play, start

plays = st.lists(st.tuples(actions, dice), min_size=1, max_size=40)


def play_all(moves: list[tuple[dict[str, Any], list[int] | None]]) -> tuple[Fracas, Encounter]:
    """A fresh fight with every move played; refused moves are skipped."""
    fracas, encounter = start()
    for command, faces in moves:
        with contextlib.suppress(FracasError):
            play(encounter, command, faces)
    return fracas, encounter


def count(fracas: Fracas) -> int:
    return fracas.store.conn.execute("SELECT count(*) FROM events").fetchone()[0]


SETTINGS = settings(
    max_examples=examples(full=80, fast=15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.long
@SETTINGS
@given(plays)
def test_random_commands_append_whole_steps_or_nothing_and_never_crash(moves):
    fracas, encounter = start()
    for command, faces in moves:
        before = count(fracas)
        try:
            appended = play(encounter, command, faces)
        except FracasError:
            appended = 0
        assert count(fracas) == before + appended
    assert fracas.store.verify().ok


@pytest.mark.long
@SETTINGS
@given(plays)
def test_replay_equals_live_state_and_rebuild_equals_incremental(moves):
    fracas, encounter = play_all(moves)
    assert Encounter(fracas.store, encounter.id).state == encounter.state
    incremental = table_rows(fracas.store)
    fracas.rebuild()
    assert table_rows(fracas.store) == incremental


@pytest.mark.long
@SETTINGS
@given(plays)
def test_a_fold_from_the_head_alone_equals_one_from_every_record(moves):
    """The history read from its controls and last record, and the fold read in runs of
    versions, give what every step record and a filtered scan of every event give."""
    fracas, encounter = play_all(moves)
    store, name = fracas.store, encounter.id
    full, at_head = store.history(name), store.history_at_head(name)
    assert (at_head.undone, at_head.redo_stack, at_head.head_version) == (
        full.undone,
        full.redo_stack,
        full.head_version,
    )
    assert at_head == full
    skip = frozenset(full.undone)
    for up_to in (None, 1, full.head_step // 2 or 1, full.head_step):
        for after in (0, 3):
            runs = list(store.effective_bodies(name, skip, up_to, after))
            assert runs == list(store._filtered_bodies(name, skip, up_to, after))
    assert Encounter(store, name, snapshots=False).state == encounter.state


@pytest.mark.long
@SETTINGS
@given(plays)
def test_undo_then_redo_leaves_the_state_unchanged(moves):
    _fracas, encounter = play_all(moves)
    state = encounter.state
    try:
        encounter.undo()
    except FracasError:
        return
    encounter.redo()
    assert encounter.state == state


cli_words = st.lists(
    st.sampled_from(
        [
            "alice",
            "bob",
            "carol",
            "zed",
            "attack",
            "aim",
            "pin",
            "escape",
            "move",
            "wait",
            "stand",
            "other",
            "fly",
            "-w",
            "pistol",
            "knife",
            "--called",
            "partly",
            "--defence",
            "dodge",
            "bob=fight-back",
            "--dice",
            "30,5",
            "x",
            "--mod",
            "+20:aimed",
            "oops",
            "--opt",
            "pace=run",
            "cover=2",
            "shots=[]",
            "--unaware",
            "--item",
            "--defence-weapon",
            "a=b",
        ]
    ),
    max_size=8,
)


@pytest.mark.long
@settings(
    max_examples=examples(full=60, fast=10),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(cli_words)
def test_random_cli_input_never_crashes_and_refusals_append_nothing(words):
    import tempfile
    from pathlib import Path

    from click.testing import CliRunner

    from fracas.cli.main import cli

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "cli.db")
        runner = CliRunner()
        runner.invoke(cli, ["--db", db, "new"])
        for name, data in SHEETS.items():
            runner.invoke(
                cli,
                [
                    "--db",
                    db,
                    "add",
                    name,
                    *[
                        f"--set={key}={value!r}".replace("'", '"')
                        for key, value in [("dex", data["dex"])]
                    ],
                ],
            )
        runner.invoke(cli, ["--db", db, "begin"])
        before = count_events(db)
        result = runner.invoke(cli, ["--db", db, "act", *words])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        if result.exit_code != 0:
            assert "Traceback" not in result.output
            assert count_events(db) == before


def count_events(db: str) -> int:
    from fracas.ledger import open_store

    return len(list(open_store(db).events()))
