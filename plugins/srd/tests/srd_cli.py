"""The srd plugin played through the CLI, as a GM types it: `fracas` on one database,
its output, refusals in one line that append nothing, the sample sheets added by name."""

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from fracas.cli.main import cli

SAMPLES = Path(__file__).parents[1] / "fracas_srd" / "samples"
Gm = Callable[..., tuple[int, str]]


def gm_on(db: Path) -> Gm:
    """`fracas` with the GM's arguments on one database: (exit code, output)."""
    runner = CliRunner()

    def run(*args: str) -> tuple[int, str]:
        done = runner.invoke(cli, ["--db", str(db), *args])
        assert done.exception is None or isinstance(done.exception, SystemExit), done.output
        return done.exit_code, done.output

    return run


def ok(gm: Gm, *args: str) -> str:
    code, output = gm(*args)
    assert code == 0, output
    return output


def refused(gm: Gm, *args: str) -> str:
    """A refusal: exit code 1, one line, and nothing appended (status unchanged)."""
    before = ok(gm, "status")
    code, output = gm(*args)
    assert code == 1 and len(output.strip().splitlines()) == 1, output
    assert ok(gm, "status") == before
    return output.strip()


def add(gm: Gm, who: str, sample: str, name: str, side: str = "pc", *more: str) -> None:
    """A combatant from a sample sheet; `more`: the rest of `fracas add` (`--set ...`)."""
    sheet = str(SAMPLES / f"{sample}.toml")
    ok(gm, "add", who, "--sheet", sheet, "--side", side, "--name", name, *more)
