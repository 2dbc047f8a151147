"""What the players are given, read from outside: the GM's CLI on a log, a served table read
from the test's own thread, and every surface a player sees of the lair fight."""

import io
from pathlib import Path

import msgspec
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.cli.serve import Table
from fracas.projections import Fracas
from fracas.projections.exports import export_jsonl
from fracas.projections.phones import panel
from fracas.projections.screen import PLAYERS


def shut(table: Table) -> None:
    """A table read from this thread (not the server's), closed here."""
    if table.reader is not None:
        table.reader.close()
    table.worker.shutdown()


def gm_cli(db: Path):
    """The `fracas` command on the log at `db`, as the GM types it."""
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(cli, ["--db", str(db), *args])
        assert (result.exit_code == 0) == ok, result.output
        return result

    return invoke


SAMPLES = Path(__file__).parents[1] / "plugins" / "srd" / "fracas_srd" / "samples"


def lair_cli(db: Path):
    """The `fracas` command on the lair fight of the log at `db`; it returns what it printed."""
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True) -> str:
        result = runner.invoke(cli, ["--db", str(db), "--encounter", "lair", *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    return invoke


def players_surfaces(db: Path, run, phone: str) -> dict[str, str]:
    """Everything the players are given: the page, its stream, each step's detail, the
    phone of `phone`'s player, and the three exports."""
    table = Table(str(db), "token")
    try:
        seen = {
            "page": table.render_screen("lair", PLAYERS),
            "stream": table.update("lair", PLAYERS),
            "md": run("export", "--format", "md", "--for", "players"),
            "html": run("export", "--format", "html", "--for", "players"),
        }
        timeline = table.timeline("lair", PLAYERS)
        for step in range(1, timeline.steps + 1):
            detail = table.templates.get_template("detail.html")
            seen[f"detail {step}"] = detail.render(detail=timeline.detail(step), audience=PLAYERS)
        live = Fracas(db).encounter("lair")
        seen["phone"] = msgspec.json.encode(panel(timeline, live, phone)).decode()
    finally:
        shut(table)
    out = io.StringIO()
    export_jsonl(Fracas(db).store, out, players=True)
    seen["jsonl"] = out.getvalue()
    return seen
