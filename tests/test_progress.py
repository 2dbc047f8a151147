"""Long work shows a progress bar on a terminal, and nothing at all in a pipe or with --json."""

import os
import subprocess
from pathlib import Path

import pexpect
import pytest

from tests.terminal import FRACAS

pytestmark = pytest.mark.sqlite_file  # the bar is drawn by the CLI process, over a file


@pytest.fixture
def fight(tmp_path: Path) -> Path:
    db = tmp_path / "long.db"
    for args in (
        ["new", "--id", "long"],
        ["add", "alice", "--set", "dex=12"],
        ["add", "bob", "--set", "dex=10"],
        ["begin"],
        *[["note", f"round {n}"] for n in range(6)],
    ):
        subprocess.run([FRACAS, "--db", str(db), *args], check=True, capture_output=True)
    return db


def on_a_terminal(db: Path, *args: str) -> str:
    env = {**os.environ, "FRACAS_PROGRESS_AFTER": "0", "TERM": "xterm", "NO_COLOR": "1"}
    child = pexpect.spawn(
        FRACAS, ["--db", str(db), *args], env=env, encoding="utf-8", timeout=30,
        dimensions=(24, 160),
    )  # fmt: skip
    child.expect(pexpect.EOF)
    return child.before


@pytest.mark.parametrize(
    ("args", "label"),
    [(["audit"], "auditing"), (["replay"], "replaying"), (["export", "--format", "md"],
     "exporting")],
)  # fmt: skip
@pytest.mark.slow
def test_long_work_on_a_terminal_shows_done_rate_and_time_left(
    fight: Path, args: list[str], label: str
) -> None:
    shown = on_a_terminal(fight, *args)
    assert label in shown
    assert "steps/s" in shown


def test_a_pipe_or_json_gets_no_bar(fight: Path) -> None:
    env = {**os.environ, "FRACAS_PROGRESS_AFTER": "0"}
    piped = subprocess.run(
        [FRACAS, "--db", str(fight), "audit"], capture_output=True, text=True, env=env
    )
    assert piped.returncode == 0
    assert "auditing" not in piped.stderr + piped.stdout
    assert "auditing" not in on_a_terminal(fight, "audit", "--json")
