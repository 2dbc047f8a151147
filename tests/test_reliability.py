"""Fast versions of the reliability harness (bench/reliability): the same trials, small, so
CI catches a regression of any promise. `python -m bench.reliability.run` runs them full size.
"""

from pathlib import Path

import pytest

from bench.reliability import trials, web

pytestmark = pytest.mark.sqlite_file  # the SQLite file itself: its bytes, tools, processes


def bad(figures: trials.Figures, *keys: str) -> dict[str, object]:
    return {key: figures.counts.get(key, 0) for key in keys if figures.counts.get(key, 0)}


@pytest.mark.slow
def test_sigkill_mid_append_loses_nothing_and_leaves_no_partial_step(tmp_path: Path) -> None:
    figures = trials.crash_trials(tmp_path, trials=4)
    assert figures.counts["steps acknowledged"] > 0
    assert not bad(figures, "lost steps", "partial steps", "read models unlike a rebuild")


def test_concurrent_writers_lose_and_double_nothing(tmp_path: Path) -> None:
    figures = trials.concurrent_writers(tmp_path, writers=3, each=6)
    assert figures.counts["steps written"] == 18
    assert not bad(figures, "lost steps", "lost or doubled versions", "tracebacks", "broken logs")


def test_racing_new_with_one_id_has_one_winner_and_tells_every_loser(tmp_path: Path) -> None:
    figures = trials.racing_new(tmp_path, racers=4)
    assert figures.counts["winners"] == 1
    assert not bad(figures, "losers not told", "tracebacks")


@pytest.mark.slow
def test_every_kind_of_edit_is_caught_at_its_first_bad_position(tmp_path: Path) -> None:
    figures = trials.tamper_matrix(tmp_path, random_edits=15)
    counts = figures.counts
    assert counts["kinds"] == len(trials.TAMPERS) and counts["random edits"] == 15
    assert counts["kinds placed exactly"] == counts["kinds"]
    assert counts["random edits placed exactly"] == counts["random edits"]
    assert not bad(figures, "edits not caught", "wrong position named", "tracebacks")


def test_hostile_input_never_gives_a_traceback_or_appends(tmp_path: Path) -> None:
    figures = trials.hostile_inputs(tmp_path, examples=80)
    assert figures.counts["refused"] > 40
    assert not bad(figures, "tracebacks", "appended on refusal")


@pytest.mark.slow
def test_players_exports_do_not_depend_on_secret_rolls(tmp_path: Path) -> None:
    figures = trials.non_interference(tmp_path, pairs=1)
    assert not bad(figures, "jsonl differences", "md differences", "html differences")


def test_the_unrevealed_seed_is_not_in_the_log_bytes(tmp_path: Path) -> None:
    figures = trials.seed_in_bytes(tmp_path)
    assert not bad(
        figures, "seed found in .db or WAL", "seed missing from key file", "key file not owner-only"
    )


@pytest.mark.slow
def test_status_answers_at_once_while_another_process_holds_the_write_lock(
    tmp_path: Path,
) -> None:
    figures = trials.status_under_lock(tmp_path)
    assert figures.counts["status seconds"] < 1.0
    assert not bad(figures, "status failed", "write under lock not told plainly", "tracebacks")


@pytest.mark.slow
def test_missing_foreign_and_newer_files_are_refused_and_left_untouched(tmp_path: Path) -> None:
    figures = trials.opening_files(tmp_path)
    assert not bad(
        figures,
        "not refused",
        "more than one line",
        "files changed",
        "files created",
        "newer schema not named",
    )


def mount_or_fail(run, tmp_path: Path) -> trials.Figures:
    try:
        return run(tmp_path)
    except PermissionError as error:  # CI runs as root; a developer's laptop may not
        pytest.skip(f"needs root to mount a test medium: {error}")


@pytest.mark.slow
def test_reads_work_on_read_only_media(tmp_path: Path) -> None:
    figures = mount_or_fail(trials.read_only_media, tmp_path)
    assert not bad(figures, "reads failed", "write not refused in one line", "tracebacks")


@pytest.mark.slow
def test_a_full_disk_is_one_line_from_every_command(tmp_path: Path) -> None:
    figures = mount_or_fail(trials.full_disk, tmp_path)
    assert figures.counts["refusals"] > 0
    assert not bad(
        figures, "tracebacks", "refusals not one line", "half-written exports", "broken logs"
    )


@pytest.mark.slow
def test_the_web_screen_under_an_http_fuzz_answers_every_request_with_a_4xx_or_better(
    tmp_path: Path,
) -> None:
    figures = web.http_fuzz(tmp_path, requests=60)
    assert figures.counts["refused"] > 30
    assert not bad(
        figures,
        "HTTP 5xx",
        "refusals not one line",
        "appended on refusal",
        "tracebacks in the server's output",
        "files written in DIR",
        "files written outside DIR",
        "files written in /tmp",
        "console tricks carried out",
    )
