"""The README's tour and Python example run as written."""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from fracas.cli.main import cli

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
