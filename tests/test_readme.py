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


def test_the_tour_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    runner = CliRunner()
    env = {}
    for line in block_after("## A short tour", "sh").splitlines():
        words = shlex.split(line, comments=True)
        if words[0] == "export":
            key, value = words[1].split("=")
            env[key] = value
            continue
        result = runner.invoke(cli, words[1:], env=env)
        assert result.exit_code == 0, f"{line}: {result.output}"
    assert (tmp_path / "motel.jsonl").exists()
    console = block_after("A refused command", "console").splitlines()
    result = runner.invoke(cli, shlex.split(console[0].removeprefix("$ "))[1:], env=env)
    assert result.exit_code != 0 and result.output.strip() == console[1]


def test_the_python_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(block_after("### From Python", "python"), "README", "exec"), {})
