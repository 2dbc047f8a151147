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


def add(gm: Gm, who: str, sheet: str, name: str, side: str = "pc", *more: str) -> None:
    """A combatant from a sample sheet; `more`: the rest of `fracas add` (`--set ...`)."""
    ok(gm, *sample(who, sheet, name, side), *more)


def monster(who: str, name: str, side: str = "npc") -> list[str]:
    """`fracas add` of a monster of the bestiary."""
    return ["add", who, "--monster", name, "--side", side]


def sample(who: str, sheet: str, name: str, side: str = "pc") -> list[str]:
    """`fracas add` of a sample sheet."""
    return ["add", who, "--sheet", str(SAMPLES / f"{sheet}.toml"), "--side", side, "--name", name]


def written(folder: Path, who: str, text: str, name: str, side: str = "pc") -> list[str]:
    """`fracas add` of a sheet written for the test (a sample's text with more spells)."""
    sheet = folder / f"{who}.toml"
    sheet.write_text(text)
    return ["add", who, "--sheet", str(sheet), "--side", side, "--name", name]


def fight(db: Path, title: str, dice: str, *joining: list[str]) -> Gm:
    """A new srd fight of those joining (`monster`, `sample`), begun on these initiative
    faces."""
    run = gm_on(db)
    ok(run, "new", "-r", "srd", "--id", db.stem, "--title", title)
    for joiner in joining:
        ok(run, *joiner)
    ok(run, "begin", "--dice", dice)
    return run


def status_row(gm: Gm, who: str) -> str:
    """The combatant's row of `fracas status` (its conditions among it), by id or name."""
    rows = ok(gm, "status").splitlines()
    return next(line for line in rows if f" {who} " in f" {line} " and " to act" not in line)


def chapel(folder: Path) -> Gm:
    """Maelis, a cleric who knows guidance and resistance, acts first; then Brannoc (Str
    16, proficient in Athletics: +5; Con 14, proficient in Con saves: +4)."""
    cleric = (SAMPLES / "cleric.toml").read_text()
    spells = '\n[[spells]]\nname = "guidance"\n\n[[spells]]\nname = "resistance"\n'
    return fight(
        folder / "chapel.db", "The chapel", "19,2",
        written(folder, "maelis", cleric + spells, "Maelis"),
        sample("brannoc", "fighter", "Brannoc"),
    )  # fmt: skip
