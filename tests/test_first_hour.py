"""What a newcomer meets in the first hour, from the README and the docs on a fresh clone:
a mistyped command is a usage error, piped output carries no padding, a read command takes
--json, a refusal is one line."""

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from fracas.cli.main import cli

SHEETS = Path(__file__).parent.parent / "cli" / "demo_sheets"


def invoke(db: Path, *args: str, ok: bool = True):
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert (result.exit_code == 0) == ok, result.output
    return result


def motel(db: Path) -> None:
    """The README's fight, begun: Alice, a cultist, Bob."""
    invoke(db, "new", "--id", "motel", "--title", "Lakeside Motel")
    invoke(db, "add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    invoke(db, "add", "cultist", "--sheet", str(SHEETS / "cultist.toml"))
    invoke(db, "add", "bob", "--set", "dex=9", "--set", "skills.dodge=50")
    invoke(db, "begin")


def test_a_mistyped_command_is_a_usage_error_naming_the_likely_one(tmp_path: Path) -> None:
    motel(tmp_path / "t.db")
    result = invoke(tmp_path / "t.db", "statsu", ok=False)
    assert result.exit_code == 2
    assert result.output.strip() == "Error: no command 'statsu'; did you mean status?"


def test_piped_status_has_no_trailing_padding(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    motel(db)
    fracas = Path(sys.executable).parent / "fracas"
    shown = subprocess.run(
        [str(fracas), "--db", str(db), "status"], capture_output=True, text=True, check=True
    ).stdout
    assert "Round 1" in shown and "motel · percentile" in shown
    assert [line for line in shown.splitlines() if line != line.rstrip()] == []
