"""fracas as a user runs it from a terminal: the installed script, a begun fight set up
through the CLI, the shell in a pseudo-terminal, and what click's completion offers."""

import os
import subprocess
import sys
from pathlib import Path

import pexpect
from click.testing import CliRunner

from fracas.cli.main import cli

FRACAS = str(Path(sys.executable).parent / "fracas")


KNIFE = '{name = "knife", kind = "melee", damage = "1d4"}'


def set_up(db: Path) -> None:
    """Alice (DEX 14, Firearms 60, a pistol in hand) and Bob (DEX 10, a knife), begun."""
    runner = CliRunner()
    for args in (
        ["new", "--id", "motel"],
        ["add", "alice", "--name", "Alice Reyes", "--side", "pc", "--set", "dex=14",
         "--set", "str=10", "--set", "con=10", "--set", "hp=12", "--set", "skills.firearms=60",
         "--set", 'weapons=[{name = "pistol", kind = "firearm", damage = "1d10"}]',
         "--set", "holding=[pistol]"],
        ["add", "bob", "--set", "dex=10", "--set", "str=10", "--set", "con=10",
         "--set", f"weapons=[{KNIFE}]"],
        ["begin"],
    ):  # fmt: skip
        result = runner.invoke(cli, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output


def spawn(db: Path, history: Path) -> pexpect.spawn:
    env = {
        **os.environ,
        "FRACAS_HISTORY": str(history),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        "NO_COLOR": "1",
    }
    child = pexpect.spawn(
        FRACAS, ["--db", str(db), "play"], env=env, encoding="utf-8", timeout=60,
        dimensions=(40, 200),
    )  # fmt: skip
    child.expect("alice>")
    return child


def click_completes(db: Path, line: str) -> list[str]:
    """What bash's completion of `fracas` (click's) offers for the last word of `line`."""
    words = line.split(" ")
    env = {
        **os.environ,
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1),
        "_FRACAS_COMPLETE": "bash_complete",
        "FRACAS_DB": str(db),
    }
    out = subprocess.run([FRACAS], env=env, capture_output=True, text=True).stdout
    return [item.split(",", 1)[1] for item in out.split()]
