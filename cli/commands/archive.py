"""Disputes and files: what-if and adopt, export, import and copy, the audit, rebuild."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import IO, TYPE_CHECKING, Any

import click
import msgspec

from fracas.cli import render
from fracas.cli.app import App, dump_json, pass_app
from fracas.cli.numbers import INT
from fracas.cli.options import by_option, parse_dice_faces, parse_pairs
from fracas.ledger import BadInputError, FracasError
from fracas.ledger.open import shown
from fracas.rules.durations import plural

if TYPE_CHECKING:
    pass


def what_differs(step: int, dice: str | None, sets: tuple[str, ...], by: str) -> dict[str, Any]:
    return {
        "step": step,
        "dice": parse_dice_faces(dice),
        "entered_by": by,
        "amend": parse_pairs(sets, "--set") or None,
    }


branch_options = [
    click.option("--step", "step", type=INT, required=True, help="The step to decide again."),
    click.option(
        "--dice", "-d", default=None, metavar="FACES", help="Its faces instead, e.g. 34,7."
    ),
    click.option(
        "--set",
        "sets",
        multiple=True,
        metavar="KEY=VALUE",
        help="An amended ruling on its command, e.g. --set called=partly.",
    ),
    by_option,
]


def with_branch_options(command: Any) -> Any:
    for option in reversed(branch_options):
        command = option(command)
    return command


@click.command(short_help="What if a step had gone otherwise?")
@with_branch_options
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def whatif(
    app: App, step: int, dice: str | None, sets: tuple[str, ...], by: str, as_json: bool
) -> None:
    """What if step STEP had gone otherwise? Every later step decided again, log untouched."""
    branch = app.fracas.whatif(encounter=app.encounter_id, **what_differs(step, dice, sets, by))
    if as_json:
        dump_json(branch)
        return
    render.whatif(branch)


@click.command(short_help="Make a what-if the main line.")
@with_branch_options
@pass_app
def adopt(app: App, step: int, dice: str | None, sets: tuple[str, ...], by: str) -> None:
    """Make a what-if the main line: its steps are appended, the old ones marked superseded."""
    outcomes = app.writer.adopt(
        encounter=app.encounter_id, author=by, **what_differs(step, dice, sets, by)
    )
    live = app.encounter()
    for outcome in outcomes:
        render.outcome(outcome, live)
    app.witness()


@click.command(short_help="Export: lossless JSONL, or md/html.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "md", "html"]),
    default="jsonl",
    show_default=True,
    help="jsonl: lossless, the whole file; md: for a wiki; html: one printable page.",
)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="-", help="File.")
@click.option("--all", "everything", is_flag=True, help="md/html: every encounter in the file.")
@click.option(
    "--for",
    "audience",
    type=click.Choice(["gm", "players"]),
    default="gm",
    show_default=True,
    help="players: GM-only rolls, and whatever reveals them, left out.",
)
@click.option(
    "--with-secrets", is_flag=True, help="jsonl: carry the sealed dice seeds (a GM's backup)."
)
@click.option(
    "--template",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="md/html: your own Jinja2 template for the report (autoescaped if it ends .html).",
)
@click.option("--npc-numbers", is_flag=True, help="md/html --for players: NPCs' exact health.")
@pass_app
def export(
    app: App,
    fmt: str,
    output: str,
    everything: bool,
    audience: str,
    with_secrets: bool,
    template: str | None,
    npc_numbers: bool,
) -> None:
    """Export the session: lossless JSONL, or the readable session report (md or html)."""
    players = audience == "players"
    if fmt == "jsonl" and (template or npc_numbers):
        raise BadInputError("--template and --npc-numbers are for --format md or html")
    if fmt != "jsonl" and with_secrets:
        raise BadInputError("--with-secrets is for --format jsonl (a backup with its dice seeds)")
    report = {"template": template, "npc_numbers": npc_numbers}
    try:
        write_export(app, fmt, output, everything, players, with_secrets, report)
    except OSError as error:
        if error.errno in (errno.EPIPE, errno.ENOSPC):
            raise
        raise BadInputError(
            f"cannot write {output}: {error.strerror or error}; choose another --output"
        ) from None


def write_export(
    app: App,
    fmt: str,
    output: str,
    everything: bool,
    players: bool,
    with_secrets: bool,
    report: dict[str, Any],
) -> None:
    with (
        written_whole(output) as out,
        render.progress_bar("exporting", "events" if fmt == "jsonl" else "steps") as tick,
    ):
        if fmt == "jsonl":
            header = app.fracas.export_jsonl(
                out, players=players, with_secrets=with_secrets, progress=tick
            )
            summary = (
                f"exported {header.events} events, head {header.head_hash[:16]}"
                if header.lossless
                else "exported the players' log, step by step (no hashes, no GM-only rolls)"
            )
        else:
            count = app.fracas.export_text(
                out,
                fmt,
                app.encounter_id,
                everything=everything,
                players=players,
                progress=tick,
                **report,
            )
            summary = f"exported {plural(count, 'encounter')} as {fmt}"
    if output != "-":
        click.echo(summary, err=True)


@contextmanager
def written_whole(output: str) -> Iterator[IO[str]]:
    """A file written through a temporary file beside it, synced and renamed into place, so
    a failed export (a full disk, a crash) leaves nothing half-written at the target.
    Stdout and targets that are not regular files (a pipe, /dev/stdout) are written as is."""
    if output == "-" or (os.path.exists(output) and not os.path.isfile(output)):
        # through an unnamed temporary file too: an export refused half-way (a damaged log
        # is found as it streams) shows nothing but its one line
        with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
            yield spool
            spool.seek(0)
            with click.open_file(output, "w", encoding="utf-8") as out:
                shutil.copyfileobj(spool, out, 1 << 20)
        return
    from fracas.ledger.store import private_beside

    temporary = private_beside(output)  # made as any file is: 0666 less the umask
    try:
        if os.path.isfile(output):  # an export over a file keeps the mode it was given
            os.chmod(temporary, stat.S_IMODE(os.stat(output).st_mode))
        with open(temporary, "w", encoding="utf-8") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, output)
    except BaseException:
        with suppress(FileNotFoundError):
            os.remove(temporary)
        raise


@click.command(short_help="Copy a whole log to a new, empty one.")
@click.argument("source", type=click.Path())  # a path (or a URL): the web console confines it
@click.argument("target", type=click.Path())
def copy(source: str, target: str) -> None:
    """Copy a whole log to a new, empty one: a SQLite file or a postgresql:// URL, either
    way. Every event, step and sealed seed is read back from TARGET and compared."""
    from fracas.projections import Fracas

    creating = App(target, None)
    with (
        Fracas(source, readonly=True, create=False) as log,
        render.progress_bar("copying") as tick,
    ):
        report = creating.creating(lambda path: log.copy_to(path, progress=tick))
    counts = [
        plural(report.encounters, "encounter"),
        plural(report.events, "event"),
        plural(report.steps, "step"),
    ]
    click.echo(
        f"copied {', '.join(counts)} and {plural(report.sealed, 'sealed seed')} to "
        f"{shown(target)}; read back and compared: identical"
    )


@click.command(name="import")
@click.argument("export_file", type=click.Path(dir_okay=False))
@pass_app
def import_(app: App, export_file: str) -> None:
    """Import a GM's JSONL export into a new, empty --db file."""
    from fracas.projections import Fracas

    def take_in(path: str) -> int:
        with Fracas(path, create=True) as log:
            return log.import_jsonl(export_file, progress=tick)

    with render.progress_bar("importing", "lines") as tick:
        count = app.creating(take_in)
    click.echo(f"imported {count} events into {shown(app.db)}; the hash chain holds")


@click.command(short_help="Check the log: hashes, rolls, head code.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@click.option(
    "--against",
    type=click.Path(dir_okay=False),
    default=None,
    help="A JSONL export: prove the log still extends it, unchanged.",
)
@click.option(
    "--head",
    "head_code",
    default=None,
    metavar="CODE",
    help="A head code noted earlier (printed after every append): prove the log extends it.",
)
@pass_app
def audit(app: App, as_json: bool, against: str | None, head_code: str | None) -> None:
    """Hash links, step records, seeded rolls, manual rolls by who typed them, rules drift."""
    with render.progress_bar("auditing", "steps", shown=not as_json) as tick:
        report = app.fracas.audit(
            against=against, head=head_code, encounter=app.encounter_id, progress=tick
        )
    if any(not bad.dropped for bad in report.snapshots):
        with suppress(FracasError):  # a log on read-only media keeps them, named
            report = msgspec.structs.replace(
                report, snapshots=app.writer.drop_snapshots(report.snapshots)
            )
    if as_json:
        dump_json({"ok": report.ok, **msgspec.to_builtins(report)})
    else:
        render.audit(report)
    if not report.ok:
        sys.exit(1)


@click.command()
@pass_app
def rebuild(app: App) -> None:
    """Drop the read models and fold them again from the log."""
    count = app.writer.rebuild()
    click.echo(f"rebuilt the read models of {plural(count, 'encounter')}")
