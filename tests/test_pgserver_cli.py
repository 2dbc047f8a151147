"""`python -m bench.pgserver`, the README's way to a PostgreSQL log: usage, never a
traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def pgserver(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench.pgserver", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_help_prints_usage():
    done = pgserver("--help")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "usage:" in done.stdout and "start" in done.stdout and "stop" in done.stdout


@pytest.mark.parametrize("args", [[], ["start"], ["begin", "x"], ["start", "a", "b"]])
def test_wrong_arguments_print_usage_in_one_refusal(args):
    done = pgserver(*args)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("usage:")


def test_stop_on_a_directory_that_holds_no_server_says_so(tmp_path):
    done = pgserver("stop", str(tmp_path / "nothing"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "no server" in done.stderr
