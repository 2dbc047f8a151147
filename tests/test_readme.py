"""The README's tours and Python example run as written: every shell block pasted in order
into a real bash (and zsh, where installed), and each tour's outcome checked."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli

pytestmark = pytest.mark.sqlite_file  # the SQLite file itself: its bytes, tools, processes

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()


def block_after(heading: str, fence: str) -> str:
    start = README.index(heading)
    match = re.search(rf"```{fence}\n(.*?)```", README[start:], re.S)
    assert match, f"no {fence} block after {heading}"
    return match.group(1)


def run_block(heading: str) -> tuple[CliRunner, dict[str, str]]:
    runner = CliRunner()
    env: dict[str, str] = {}
    for line in block_after(heading, "sh").splitlines():
        words = shlex.split(line, comments=True)
        if words[0] in (".", "unset", "if"):
            continue
        if words[0] == "export":
            env.update(word.split("=", 1) for word in words[1:])
            continue
        result = runner.invoke(cli, words[1:], env=env)
        assert result.exit_code == 0, f"{line}: {result.output}"
    return runner, env


def test_the_tour_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    runner, env = run_block("## A short tour")
    assert (tmp_path / "motel.jsonl").exists()
    console = block_after("A refused command", "console").splitlines()
    result = runner.invoke(cli, shlex.split(console[0].removeprefix("$ "))[1:], env=env)
    assert result.exit_code != 0 and result.output.strip() == console[1]


def test_the_python_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(block_after("### From Python", "python"), "README", "exec"), {})


def test_the_shot_clock_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("### A shot-clock fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Sequence 1" in status and "continuous: driving" in status


def test_the_dice_pool_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("### A dice-pool fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Body" in status and "Round 2" in status


def test_the_time_slice_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    runner, env = run_block("### A time-slice fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Round 2" in status and "dying (4:54 left, heart wound: -2), staggered" in status
    assert "HP 7/30 DR 0 stagger 6/3" in status


def test_the_4df_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("### A 4dF fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Critically Wounded (5)" in status and "Pain Tolerance: no penalty" in status
    assert "Turn 1 · resolving" in status and "declared: attack p1 with the pistol" in status


def test_the_disputes_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("## Disputes, audit and exports")
    replayed = runner.invoke(cli, ["replay", "--turn", "2:alice"], env=env).output
    assert "+20 aimed last turn (000-6)" in replayed
    log = runner.invoke(cli, ["log"], env=env).output
    assert "supersedes step 9" in log
    assert "<del>" in (tmp_path / "session.html").read_text()
    assert (tmp_path / "restored.db").exists() and (tmp_path / "players.html").exists()


def pasted_blocks() -> list[str]:
    """The shell blocks after the set-up commands, in order; those that install packages
    (the set-up commands, which CI runs itself, and the benchmark's extras) are left out, and
    so is the plugin's tour, which its own tests run (plugins/srd/tests/test_tour.py)."""
    start = README.index("## Set up")
    blocks = re.findall(r"```sh\n(.*?)```", README[start:], re.S)
    return [block for block in blocks if "pip install" not in block and "-r srd" not in block]


def test_no_block_has_a_comment_or_an_unquoted_glob():
    """Pasted into an interactive zsh, `#` is not a comment and `[bob]` is a glob."""
    for block in pasted_blocks():
        for line in block.splitlines():
            bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", line)
            assert "#" not in bare, line
            globs = [w for w in bare.split() if re.search(r"[\[\]*?]", w) and w not in "[]"]
            assert not globs, line


SHELLS = [shell for shell in ("bash", "zsh") if shutil.which(shell)]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.slow
def test_every_block_works_pasted_in_order_into_one_shell(tmp_path, shell):
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    (tmp_path / "bench").symlink_to(ROOT / "bench")  # the throwaway PostgreSQL server
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    script = tmp_path / "pasted.sh"
    script.write_text("set -e\n" + "".join(pasted_blocks()))
    env = {k: v for k, v in os.environ.items() if not k.startswith("FRACAS_")}
    env["HOME"] = str(tmp_path)
    done = subprocess.run(
        [shell, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Round 1 · the encounter has ended" in done.stdout
    assert (tmp_path / "restored.db").exists() and (tmp_path / "motel.jsonl").exists()
    assert "played on the server now" in done.stdout and "hash chain: ok" in done.stdout
    assert not (tmp_path / "pg-demo").exists()  # the server stopped and cleaned up


def test_the_demo_hint_works_as_printed(tmp_path):
    fracas = str(Path(sys.executable).parent / "fracas")
    shown = subprocess.run(
        [fracas, "demo"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    hint = shown.strip().splitlines()[-1]
    assert hint.startswith("Try: ")
    command = hint.removeprefix("Try: ").split("    (")[0]
    log = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert log.returncode == 0 and "[UNDONE]" in log.stdout
