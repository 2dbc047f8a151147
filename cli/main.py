"""The `fracas` command: thin click wrappers over fracas.projections. No rules here.

A command imports what it works with when it runs: a process that asks one quick thing
(`status --json`) loads neither the rulesets nor the projections it does not read."""

from __future__ import annotations

import errno
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple, TypeVar

import click
import msgspec
from msgspec import inspect

from fracas.cli import render
from fracas.cli.numbers import INT, AsciiInt, ascii_int
from fracas.cli.text import LINE, LOG_PATH, MODIFIER
from fracas.ledger import BadInputError, FracasError, NotFoundError
from fracas.ledger.errors import ECHOED, cut, said
from fracas.ledger.open import describe_database_error, is_database_error, is_server, shown
from fracas.projections.asking import may_wait, pending
from fracas.projections.board import board
from fracas.rules import DEFAULT
from fracas.rules.commands import GM, MOST_HEALTH
from fracas.rules.views import PARTY

if TYPE_CHECKING:
    from fracas.ledger import LogStore
    from fracas.projections import Fracas
    from fracas.rules import Encounter, Ruleset
    from fracas.rules.events import Modifier
    from fracas.rules.reactions import Ask
    from fracas.rules.views import View

T = TypeVar("T")


class UsageLine(click.ClickException):
    """A usage error as one line (click's own is four: usage, a hint, a blank, the error)."""

    exit_code = 2


# What a negative number given where an option would go meant to do, by command.
NEGATIVE = {
    "harm": "harm takes AMOUNT of 1 or more; `fracas heal` gives health back",
    "heal": "heal takes AMOUNT of 1 or more; `fracas harm` takes health off",
}


def one_line(error: click.UsageError, given: list[str]) -> click.ClickException:
    """click's usage error in one line; a long argument it repeats (`given`: the words of
    the command line) cut to its start and length."""
    where = f" (see '{error.ctx.command_path} --help')" if error.ctx is not None else ""
    if isinstance(error, click.NoSuchOption) and error.option_name[1:].isdigit():
        name = error.ctx.info_name if error.ctx is not None else ""
        meant = NEGATIVE.get(name or "", "a negative number is not taken here")
        return UsageLine(f"{cut(error.option_name)} is read as an option: {meant}{where}")
    message = error.format_message()
    for word in sorted(given, key=len, reverse=True):
        message = message.replace(word, cut(word)) if len(word) > ECHOED else message
    return UsageLine(f"{message}{where}")


def not_utf8(args: list[str]) -> None:
    """Refuses an argument that is not UTF-8 (Python hands such bytes over as surrogates)."""
    for number, arg in enumerate(args, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raw = os.fsencode(arg)
            raise UsageLine(
                f"argument {number} ({str(raw)[2:-1]}) is not UTF-8 text; fracas reads UTF-8"
            ) from None


GIVEN = "fracas.given"  # ctx.meta: the words of the command line, for its refusals
SHORT = {"u": "undo", "r": "redo", "n": "next", "s": "status"}  # here and in `fracas play`


class FracasGroup(click.Group):
    """Turns every refusal into one line on stderr and a non-zero exit, never a traceback;
    takes the short forms `fracas play` takes (u, r, n, s), and names the command a typo
    most likely meant."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, SHORT.get(cmd_name, cmd_name))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands under their headings (start here, at the table, ...), not one list."""
        format_sections(self, ctx, formatter, self.list_commands(ctx))

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and not name.startswith("-") and self.get_command(ctx, name) is None:
            from fracas.rules.names import closest  # only when a command is wrong

            guess = closest(name, self.commands)
            hint = f"; did you mean {guess}?" if guess else "; `fracas --help` lists them"
            raise BadInputError(f"no command {said(name)}{hint}")
        return super().resolve_command(ctx, args)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> click.Context:
        not_utf8(args)
        given = list(args)  # click's parser consumes the list it is handed
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:
            raise one_line(error, given) from None
        ctx.meta[GIVEN] = given
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:
            raise one_line(error, ctx.meta.get(GIVEN, [])) from None
        except FracasError as error:
            raise click.ClickException(str(error)) from None
        except OSError as error:
            if error.errno == errno.EPIPE:  # the reader of a pipe left (| head): not an error
                sys.exit(0)
            if error.errno == errno.ENOSPC:
                raise click.ClickException(
                    "the disk is full: nothing was written; free some space and try again"
                ) from None
            raise click.ClickException(
                f"{cut(str(error.filename or 'a file'))}: {error.strerror or error}"
            ) from None
        except Exception as error:
            if not is_database_error(error):
                raise
            db = shown(ctx.obj.db) if isinstance(ctx.obj, App) else "the log"
            raise click.ClickException(str(describe_database_error(error, db))) from None


def visible(group: click.Group, ctx: click.Context, names: list[str]) -> list[str]:
    """The commands of `names` that help lists: not hidden."""
    return [n for n in names if (c := group.get_command(ctx, n)) is not None and not c.hidden]


def format_sections(
    group: click.Group, ctx: click.Context, formatter: click.HelpFormatter, names: list[str]
) -> None:
    """`names` of `group`'s commands with their short help, under their headings."""
    from fracas.cli.sections import sections_of

    shown = visible(group, ctx, names)
    if not shown:
        return
    widest = max(len(name) for name in shown)  # one column for every heading
    limit = formatter.width - 6 - widest
    for heading, listed in sections_of(shown).items():
        rows = [(n.ljust(widest), group.commands[n].get_short_help_str(limit)) for n in listed]
        with formatter.section(heading):
            formatter.write_dl(rows)


class App:
    """The log a command works on: opened read-only for reads (no lock, no migration, no
    file created), for writing by commands that append, created only by new/import/demo."""

    def __init__(self, db: str, encounter: str | None, *, named: bool = True) -> None:
        self.db, self.encounter_id = db, encounter
        self.named = named  # the log was named (--db, FRACAS_DB), not the default
        self._fracas: Fracas | None = None
        self._live: Encounter | None = None
        self._reader: LogStore | None = None  # opened by a quick read, before any Fracas

    def open(self, *, write: bool = False, create: bool = False) -> Fracas:
        from fracas.projections import Fracas

        if self._fracas is not None and write and self._fracas.store.readonly:
            self.close()
        if self._fracas is None:
            reader, self._reader = self._reader, None
            if reader is not None and not write:
                self._fracas = Fracas(reader)
                return self._fracas
            if reader is not None:
                reader.close()
            self._named_or_here(create)
            self._fracas = Fracas(self.db, readonly=not write, create=create)
        return self._fracas

    def _named_or_here(self, create: bool = False) -> None:
        if not (create or self.named or os.path.exists(self.db)):
            raise NotFoundError(
                f"no log named and no {self.db} here: name yours with --db PATH or "
                "FRACAS_DB=PATH (`fracas new` starts one)"
            )

    @property
    def store(self) -> LogStore:
        """The log's store, read-only: for a quick read that loads no projections (`status`
        from the read models)."""
        if self._fracas is not None:
            return self._fracas.store
        if self._reader is None:
            from fracas.ledger.open import open_store

            self._named_or_here()
            self._reader = open_store(self.db, readonly=True, create=False)
        return self._reader

    @property
    def fracas(self) -> Fracas:
        """The log, read-only."""
        return self.open()

    @property
    def writer(self) -> Fracas:
        """The log, for a command that appends to it."""
        return self.open(write=True)

    def encounter(self, *, write: bool = False) -> Encounter:
        """The encounter, folded once and kept: a later call (in `fracas play`) only reads
        the head, and folds what another process appended since."""
        fracas = self.open(write=write)
        live = self._live
        if live is None or live.store is not fracas.store:
            live = self._live = fracas.encounter(self.encounter_id)
        else:
            live.refresh()
        return live

    def witness(self, encounter: str | None = None) -> None:
        """After an append: the head code the table can note (on stderr, so scripts reading
        stdout are unaffected)."""
        code = self.open().head_code(encounter or self.encounter_id)
        click.echo(f"head {code}", err=True)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._fracas is not None:
            self._fracas.close()
            self._fracas = None
            self._live = None

    def creating(self, work: Callable[[str], T]) -> T:
        """`work(path)` for a command that may start the log. A missing file is built
        privately beside it and put in place whole once the command succeeded: a refusal
        leaves nothing behind, and when another process created the file meanwhile, the
        command runs again on that one. Nothing this process did not create alone is ever
        removed."""
        if is_server(self.db) or os.path.lexists(self.db):
            return work(self.db)
        from fracas.ledger.store import discard, private_beside, publish

        private = private_beside(self.db)
        try:
            result = work(private)
            if publish(private, self.db):
                return result
        finally:
            discard(private)
        return work(self.db)


pass_app = click.make_pass_decorator(App)


def names_for_completion(ctx: click.Context, names: Any, incomplete: str) -> list[str]:
    """`names(encounter)` of the encounter the line being completed names, read-only, that
    start with `incomplete`; nothing when there is none (completion never fails)."""
    from fracas.projections import Fracas

    root = ctx.find_root().params
    db = root.get("db") or os.environ.get("FRACAS_DB", "fracas.db")
    if not is_server(db) and not os.path.exists(db):
        return []
    try:
        with Fracas(db, readonly=True, create=False) as table:
            found = names(table.encounter(root.get("encounter")))
    except Exception as error:
        if isinstance(error, FracasError | OSError) or is_database_error(error):
            return []
        raise
    return [name for name in found if name.startswith(incomplete)]


def complete_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of combatant ids."""
    return names_for_completion(ctx, lambda live: list(live.state.fighters), incomplete)


def complete_turn_edges(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of --until: end:ID and start:ID for every combatant, and removed."""

    def edges(live: Encounter) -> list[str]:
        return [f"{e}:{who}" for e in ("end", "start") for who in live.state.fighters]

    return names_for_completion(ctx, lambda live: [*edges(live), "removed"], incomplete)


def complete_actions(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of the encounter's actions."""
    return names_for_completion(ctx, lambda live: list(live.ruleset.actions), incomplete)


def actor_and_action(ctx: click.Context) -> tuple[str, str]:
    """ACTOR and ACTION of the `act` line being completed (while an option waits for its
    value, click leaves the words unparsed, in ctx.args)."""
    words = [*ctx.args, "", ""]
    return ctx.params.get("actor") or words[0], ctx.params.get("action") or words[1]


def complete_opts(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of -o: the action's fields, then what the actor's sheet offers."""
    from fracas.cli.shell import opt_values

    actor, action = actor_and_action(ctx)
    return names_for_completion(
        ctx, lambda live: opt_values(live, actor, action, incomplete), incomplete
    )


def complete_weapons(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of -w: the weapons on the actor's sheet."""
    from fracas.projections import catalog

    actor, action = actor_and_action(ctx)
    return names_for_completion(
        ctx, lambda live: catalog.offered(live, actor, action, "weapon"), incomplete
    )


def dump_json(data: Any) -> None:
    click.echo(msgspec.json.format(msgspec.json.encode(data)).decode())


def parse_dice_faces(text: str | None) -> list[int] | None:
    if text is None:
        return None
    pieces = re.split(r"\s*,\s*|\s+", text.strip()) if text.strip() else []
    if "" in pieces:
        raise BadInputError(
            f"--dice has an empty face in {said(text)}: give each face once, like --dice 34,7"
        )
    try:
        return [ascii_int(piece) for piece in pieces]
    except ValueError:
        raise BadInputError(
            f"--dice takes the faces as whole numbers, like --dice 34,7; got {said(text)}"
        ) from None


def parse_pairs(pairs: tuple[str, ...], flag: str) -> dict[str, Any]:
    from fracas.rules.sheets import parse_value, set_path

    parsed: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise BadInputError(f"{flag} takes KEY=VALUE, got {said(pair)}")
        parsed = set_path(parsed, key.strip(), parse_value(value.strip()))
    return parsed


def parse_defences(texts: tuple[str, ...], targets: tuple[str, ...]) -> dict[str, str]:
    defences: dict[str, str] = {}
    for text in texts:
        who, sep, kind = text.partition("=")
        if sep:
            defences[who] = kind
        else:
            defences.update({target: text for target in targets})
    return defences


HEALTH = AsciiInt(1, MOST_HEALTH)


@click.group(cls=FracasGroup)
@click.option(
    "--db",
    envvar="FRACAS_DB",
    default="fracas.db",
    type=LOG_PATH,
    show_default=True,
    help="The log: a SQLite file, or postgresql://user@host/db?schema=NAME (env FRACAS_DB).",
)
@click.option(
    "-e",
    "--encounter",
    envvar="FRACAS_ENCOUNTER",
    default=None,
    help="Encounter id (env FRACAS_ENCOUNTER); default: the latest started.",
)
@click.version_option(package_name="fracas")
@click.pass_context
def cli(ctx: click.Context, db: str, encounter: str | None) -> None:
    """fracas: an event-sourced combat log for tabletop role-playing games."""
    if ctx.obj is None:  # `fracas play` hands in the App it keeps between commands
        named = ctx.get_parameter_source("db") is not click.core.ParameterSource.DEFAULT
        ctx.obj = App(db, encounter, named=named)
        ctx.call_on_close(ctx.obj.close)


def global_option(name: str) -> Any:
    """A global option given after the subcommand (`fracas status --db x.db -e motel`): it
    sets the App the group made, as it would have before the subcommand."""

    def given(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        app = ctx.find_object(App)
        if value is None or app is None:
            return
        if app._fracas is not None:  # `fracas play`: the session keeps its log
            raise BadInputError(f"{param.opts[-1]} is set when the session starts, not here")
        if name == "db":
            app.db, app.named = value, True
        else:
            app.encounter_id = value

    return given


def share_global_options(group: click.Group) -> None:
    """Every subcommand takes --db and -e/--encounter after its name too, as Getting started
    says, unless it has an option of that name of its own (`demo --db`)."""
    shared = [
        click.Option(
            ["--db"],
            type=LOG_PATH,
            expose_value=False,
            callback=global_option("db"),
            help="The log (as before the subcommand; env FRACAS_DB).",
        ),
        click.Option(
            ["-e", "--encounter"],
            expose_value=False,
            callback=global_option("e"),
            help="Encounter id (as before the subcommand; env FRACAS_ENCOUNTER).",
        ),
    ]
    for command in group.commands.values():
        if isinstance(command, click.Group):
            share_global_options(command)
            continue
        taken = {opt for param in command.params for opt in param.opts}
        command.params += [o for o in shared if not taken & set(o.opts)]


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def rulesets(as_json: bool) -> None:
    """List the installed combat systems."""
    from fracas.rules import available, load

    listed = [{"name": name, "title": load(name).title} for name in available()]
    if as_json:
        dump_json(listed)
        return
    for entry in listed:
        click.echo(f"{entry['name']:<12} {entry['title']}")


@cli.command(short_help="Start a new encounter (and the log file).")
@click.option("--ruleset", "-r", default=DEFAULT, show_default=True)
@click.option("--title", "-t", default="", type=LINE, help="A name for the fight.")
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    type=LINE,
    help="Override a default of the ruleset (see `fracas options`).",
)
@click.option("--id", "encounter_id", default=None, help="Choose the encounter id.")
@click.option(
    "--party",
    "with_party",
    is_flag=True,
    help="Bring the party in, as they ended their last fight (`fracas party`); the ruleset "
    "is the party's.",
)
@click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=N",
    help="dice=N per expression (default 100, at most 1000), faces=N per die (1000; 10000), "
    "body=BYTES per event (65536; 1048576).",
)
@pass_app
def new(
    app: App,
    ruleset: str,
    title: str,
    options: tuple[str, ...],
    encounter_id: str | None,
    with_party: bool,
    limits: tuple[str, ...],
) -> None:
    """Start a new encounter (and the log file, if there is none) and print its id; with
    --party, bring the party in as they stand."""
    from fracas.projections import Fracas, party

    chosen, limited = parse_pairs(options, "--option"), parse_pairs(limits, "--limit")
    source = click.get_current_context().get_parameter_source("ruleset")
    chose_ruleset = source is not click.core.ParameterSource.DEFAULT

    def start(path: str) -> str:
        with Fracas(path, create=True) as log:
            given = {"title": title, "options": chosen, "encounter": encounter_id}
            if not with_party:
                return log.new(ruleset, **given, limits=limited).id
            rules = ruleset if chose_ruleset else party.party(log).ruleset.name
            return party.new_with_party(log, rules, **given, limits=limited).id

    started = app.creating(start)
    click.echo(started)
    app.witness(started)


def ruleset_for(app: App, name: str | None) -> tuple[Ruleset, Any]:
    """The named ruleset (with its defaults), or the encounter's (with its options now)."""
    from fracas.projections import catalog
    from fracas.rules import load

    if name is not None:
        return load(name), None
    no_log = BadInputError(f"{shown(app.db)}: no such log; name a ruleset with -r RULESET")
    if not is_server(app.db) and not os.path.exists(app.db):
        raise no_log
    try:
        encounter = app.encounter()
    except NotFoundError:
        if not is_server(app.db):
            raise
        raise no_log from None
    return encounter.ruleset, catalog.options_in_force(encounter)


@cli.command("options", short_help="The ruleset's options.")
@click.option("--ruleset", "-r", default=None, help="A ruleset; default: the encounter's.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def options_(app: App, ruleset: str | None, as_json: bool) -> None:
    """List the options of the encounter's ruleset (or of -r RULESET): value, values, meaning."""
    from fracas.projections import catalog

    rules, current = ruleset_for(app, ruleset)
    found = catalog.options(rules, current)
    if as_json:
        dump_json({"ruleset": rules.name, "options": found})
    else:
        render.options(rules.name, found, current is not None)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def encounters(app: App, as_json: bool) -> None:
    """List the encounters in the file, oldest first."""
    listed = app.fracas.encounters()
    if as_json:
        dump_json(listed)
        return
    for entry in listed:
        click.echo(
            f"{entry['encounter']}  {entry['ruleset']:<11} {entry['steps']:>4} steps  "
            f"{entry['title']}"
        )


def run(
    app: App,
    command: dict[str, Any],
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool = False,
    ask: Ask | None = None,
    turn: str | None = None,
) -> None:
    encounter = app.encounter(write=True)
    parsed = encounter.ruleset.command(command)
    outcome = encounter.execute(
        parsed,
        dice=parse_dice_faces(dice),
        entered_by=by,
        command_id=command_id,
        author=by,
        secret=secret,
        ask=ask,
        turn=turn,
    )
    render.outcome(outcome, encounter.ruleset.round_word, encounter.ruleset.reads_rolls)
    asked = pending(encounter)
    if asked is not None:
        click.echo(f"waiting: {asked.line}")
    app.witness(encounter.id)


dice_option = click.option(
    "--dice",
    "-d",
    default=None,
    metavar="FACES",
    help="Faces of physical dice in the order rolled, e.g. 34,7.",
)
by_option = click.option(
    "--by", default="gm", show_default=True, help="Who is entering this (recorded with typed dice)."
)
id_option = click.option(
    "--command-id", default=None, help="Idempotency key: retrying the same id appends nothing new."
)
turn_option = click.option(
    "--turn",
    default=None,
    metavar="TOKEN",
    help="The turn you saw, as `fracas turn` prints it: refused if another command ended it.",
)
secret_option = click.option(
    "--secret", is_flag=True, help="GM-only: its rolls are left out of players' exports."
)


@cli.command(short_help="Add a combatant from a sheet and --set fields.")
@click.argument("combatant")
@click.option("--name", default="", help="Display name; default: the id.")
@click.option(
    "--side",
    type=click.Choice(["pc", "npc"]),
    default=None,
    help="pc or npc; default: the sheet's side, else npc.",
)
@click.option(
    "--sheet", "sheet_file", type=click.Path(dir_okay=False), default=None, help="A TOML sheet."
)
@click.option(
    "--monster",
    default=None,
    shell_complete=lambda ctx, param, incomplete: names_for_completion(
        ctx, lambda live: [m.slug for m in live.ruleset.monsters.monsters], incomplete
    ),
    help="A monster from the ruleset's bestiary (`fracas monsters`), instead of a sheet.",
)
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set or override a sheet field, e.g. --set dex=14 --set skills.firearms=60.",
)
@click.option(
    "--count",
    type=AsciiInt(1, 100),
    default=1,
    help="Add N copies: ids COMBATANT-1..N, names numbered the same way.",
)
@click.option(
    "--hidden",
    is_flag=True,
    help="An ambush: the players see neither them nor what they do until reveal-combatant.",
)
@by_option
@id_option
@pass_app
def add(
    app: App,
    combatant: str,
    name: str,
    side: str | None,
    sheet_file: str | None,
    monster: str | None,
    sets: tuple[str, ...],
    count: int,
    hidden: bool,
    by: str,
    command_id: str | None,
) -> None:
    """Add a combatant (or --count copies) from a sheet file, a monster of the bestiary
    and/or --set fields; --name and --side override the sheet's."""
    from fracas.rules.sheets import deep_merge, read_sheet_file

    if sheet_file and monster:
        raise BadInputError("give --sheet or --monster, not both")
    sheet = read_sheet_file(sheet_file) if sheet_file else {}
    if sheet_file:
        sheet = imported(app.encounter(write=True).ruleset, sheet, sheet_file)
    if monster:
        sheet = from_bestiary(app.encounter(write=True).ruleset, monster)
    for pair in sets:
        sheet = deep_merge(sheet, parse_pairs((pair,), "--set"))
    sheet_name, sheet_side = sheet.pop("name", ""), sheet.pop("side", "npc")
    outcomes = app.writer.add(
        combatant,
        sheet,
        app.encounter_id,
        name=name or str(sheet_name),
        side=side or str(sheet_side),
        count=count,
        where=sheet_source(sheet_file, sets),
        author=by,
        command_id=command_id,
        hidden=hidden,
    )
    for outcome in outcomes:
        render.outcome(outcome)
    app.witness()


def from_bestiary(ruleset: Ruleset, monster: str) -> dict[str, Any]:
    """A monster's sheet from the ruleset's bestiary, with its name."""
    found = ruleset.monsters.find(monster)
    return {**found.sheet, "name": found.name}


class BestiaryHelp(click.Command):
    """`monsters --help` ends with each bestiary's attribution, as its licence asks."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from fracas.rules import available, load

        super().format_epilog(ctx, formatter)
        for name in available():
            rules = load(name)
            if rules.bestiary is not None:
                formatter.write_paragraph()
                formatter.write_text(f"The {name} bestiary: {rules.monsters.attribution}")


@cli.command(cls=BestiaryHelp, short_help="The bestiary: monsters to add with `add --monster`.")
@click.argument("text", required=False, default="")
@click.option("--ruleset", "-r", default=None, help="A ruleset; default: the encounter's.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def monsters(app: App, text: str, ruleset: str | None, as_json: bool) -> None:
    """List the ruleset's monsters (those whose name or type holds TEXT): name, challenge
    rating and type, with the attribution their licence asks for."""
    from fracas.projections import party

    try:
        rules, _ = ruleset_for(app, ruleset)
    except NotFoundError:  # no fight yet: the party's ruleset, if there is a party
        if not party.has_party(app.fracas):
            raise
        rules = party.party(app.fracas).ruleset
    bestiary = rules.monsters
    found = bestiary.search(text)
    if as_json:
        listed = [{"monster": m.slug, "name": m.name, "cr": m.cr, "type": m.kind} for m in found]
        dump_json({"monsters": listed, "attribution": bestiary.attribution})
        return
    if not bestiary.monsters:
        raise BadInputError(f"the {rules.name} rules have no bestiary")
    for m in found:
        click.echo(f"{m.slug:<30} CR {m.challenge:<4} {m.kind}")
    click.echo(f"{len(found)} of {len(bestiary.monsters)} monsters. {bestiary.attribution}")


def imported(ruleset: Ruleset, sheet: dict[str, Any], sheet_file: str) -> dict[str, Any]:
    """A sheet from another program's export as the ruleset reads it, each thing it could
    not read told in one line (on stderr: the sheet still loads)."""
    sheet, unread = ruleset.imported(sheet)
    for line in unread:
        click.echo(f"{sheet_file}: not read: {line}", err=True)
    return sheet


def sheet_source(sheet_file: str | None, sets: tuple[str, ...]) -> str:
    """What a bad sheet from a file is blamed on: the file, with the --set fields over it
    ("" without a file: the sheet of the combatant)."""
    given = "".join(f" --set {pair}" for pair in sets)
    return f"{sheet_file}{' with' if given else ''}{given}" if sheet_file else ""


@cli.group("party", invoke_without_command=True, short_help="The party, fight to fight.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@click.pass_context
def party_(ctx: click.Context, as_json: bool) -> None:
    """The player characters kept in the log: as they stand now, in the fight they were
    last brought into (`fracas new --party`) or between fights."""
    from fracas.projections import party

    if ctx.invoked_subcommand is not None:
        return
    app = ctx.find_object(App)
    assert app is not None
    found = party.members(app.fracas)
    if as_json:
        dump_json([msgspec.to_builtins(member) for member in found])
        return
    for member in found:
        conditions = f"  {', '.join(member.conditions)}" if member.conditions else ""
        click.echo(f"{member.combatant:<12} {member.health:<14} in {member.where}{conditions}")


@party_.command("add", short_help="A player character joins the party.")
@click.argument("combatant")
@click.option("--name", default="", help="Display name; default: the sheet's, else the id.")
@click.option(
    "--sheet", "sheet_file", type=click.Path(dir_okay=False), default=None, help="A sheet."
)
@click.option("--monster", default=None, help="A monster of the bestiary (`fracas monsters`).")
@click.option(
    "--ruleset",
    "-r",
    default=None,
    help="The party's ruleset, when it starts; default: the latest fight's.",
)
@pass_app
def party_add(
    app: App,
    combatant: str,
    name: str,
    sheet_file: str | None,
    monster: str | None,
    ruleset: str | None,
) -> None:
    """A player character (a sheet, an export, or a monster of the bestiary) joins the
    party, kept in the log beside the fights."""
    from fracas.projections import Fracas, party
    from fracas.rules import load
    from fracas.rules.sheets import read_sheet_file

    if bool(sheet_file) == bool(monster):
        raise BadInputError("give --sheet FILE or --monster NAME (one of them)")
    given = read_sheet_file(sheet_file) if sheet_file else {}

    def join(path: str) -> None:
        with Fracas(path, create=True) as log:
            rules = ruleset or party_ruleset(log)
            sheet = (
                imported(load(rules), given, sheet_file)
                if sheet_file
                else from_bestiary(load(rules), str(monster))
            )
            sheet_name = sheet.pop("name", "")
            sheet.pop("side", None)
            party.add_member(log, combatant, sheet, rules, name=name or str(sheet_name))

    app.creating(join)
    click.echo(f"{combatant} joins the party")


def party_ruleset(log: Fracas) -> str:
    """The party's ruleset; before it has one, the latest fight's (else the default)."""
    from fracas.projections import party

    if party.has_party(log):
        return party.party(log).ruleset.name
    fights = [e for e in log.encounters() if e["encounter"] != PARTY]
    return str(fights[-1]["ruleset"]) if fights else DEFAULT


@party_.command("bring", short_help="Bring the party into the encounter.")
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_bring(app: App, by: str) -> None:
    """Bring the party into the encounter (-e, or the latest) as they stand: what `fracas new
    --party` does for a fight already started (the GM's page brings them in so)."""
    from fracas.projections import party

    live = app.encounter(write=True)
    party.check_plays(app.writer, live.ruleset.name)
    for who in party.bring_into(app.writer, live.id, author=by):
        click.echo(f"{who} joins {live.id} as the party stands")
    app.witness(live.id)


@party_.command("rest", short_help="The party rests: short or long.")
@click.argument("kind", type=click.Choice(["short", "long"]))
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_rest(app: App, kind: str, by: str) -> None:
    """The party takes a short or a long rest: the ruleset's recovery, as events."""
    from fracas.projections import party

    rested = party.rest(app.writer, kind, author=by)
    for member in party.members(app.writer):
        if member.combatant in rested:
            click.echo(f"{member.combatant:<12} {member.health}")


@party_.command("heal", short_help="Give health back to a member between fights.")
@click.argument("combatant")
@click.argument("amount", type=HEALTH)
@click.option("--reason", "-m", default="", type=LINE, help="Why (a potion, a healer's kit).")
@click.option("--by", default="gm", show_default=True, help="Who is entering this.")
@pass_app
def party_heal(app: App, combatant: str, amount: int, reason: str, by: str) -> None:
    """Give AMOUNT of health back to a member of the party between fights, by hand."""
    from fracas.projections import party

    party.heal(app.writer, combatant, amount, reason, author=by)
    for member in party.members(app.writer):
        if member.combatant == combatant:
            click.echo(f"{member.combatant:<12} {member.health}")


@cli.command()
@click.option(
    "--opt",
    "-o",
    "opts",
    multiple=True,
    metavar="KEY=VALUE",
    type=LINE,
    help="A field of the ruleset's begin, e.g. surprised=[bob] (`fracas actions`).",
)
@dice_option
@by_option
@id_option
@secret_option
@pass_app
def begin(
    app: App,
    opts: tuple[str, ...],
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
) -> None:
    """Begin the fight: initiative order and the first turn."""
    run(app, {"action": "begin", **parse_pairs(opts, "--opt")}, dice, by, command_id, secret)


@cli.command(name="next", short_help="End the turn (or ACTOR's turn).")
@click.argument("actor", required=False, shell_complete=complete_ids)
@dice_option
@by_option
@id_option
@secret_option
@turn_option
@pass_app
def next_(
    app: App,
    actor: str | None,
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
    turn: str | None,
) -> None:
    """The acting combatant (or ACTOR) lets their turn or shot go by.

    --dice takes the faces of whatever that starts, such as a new sequence's initiative."""
    command = {"action": "next", **({"actor": actor} if actor else {})}
    run(app, command, dice, by, command_id, secret, turn=turn)


@cli.command(name="act", short_help="ACTOR takes ACTION [against TARGETS].")
@click.argument("actor", shell_complete=complete_ids)
@click.argument("action", shell_complete=complete_actions)
@click.argument("targets", nargs=-1, shell_complete=complete_ids)
@click.option(
    "--weapon",
    "-w",
    default=None,
    shell_complete=complete_weapons,
    help="Weapon to attack with (default: the one in hand or first on the sheet, else unarmed).",
)
@click.option(
    "--called",
    default=None,
    help="Called shot, as the ruleset names them (`fracas actions` lists the choices).",
)
@click.option(
    "--mod",
    "mods",
    multiple=True,
    type=MODIFIER,
    metavar="VALUE[:REASON]",
    help="The GM's modifier with its reason, e.g. --mod -20:smoke.",
)
@click.option(
    "--defence",
    "--defense",
    "defences",
    multiple=True,
    metavar="[TARGET=]KIND",
    help="A target's reaction, as the ruleset names them (`fracas actions` lists them).",
)
@click.option(
    "--defence-weapon",
    "--defense-weapon",
    "defence_weapons",
    multiple=True,
    metavar="TARGET=WEAPON",
)
@click.option("--unaware", multiple=True, metavar="TARGET", help="A target unaware of it.")
@click.option("--item", default=None, help="Item to disarm or ready.")
@click.option(
    "--dc",
    type=AsciiInt(0),
    default=None,
    help="The difficulty a save or check is rolled against, where the ruleset has one "
    "(its bounds: `fracas actions`).",
)
@click.option(
    "--opt",
    "-o",
    "opts",
    multiple=True,
    metavar="KEY=VALUE",
    type=LINE,
    shell_complete=complete_opts,
    help="Any other field of the action (see `fracas actions`).",
)
@click.option(
    "--ask",
    is_flag=True,
    help="Wait for the targets' own reactions (`fracas answer`) instead of deciding at once.",
)
@click.option(
    "--wait",
    type=AsciiInt(1, 86_400),
    default=None,
    metavar="SECONDS",
    help="With --ask: after this long, `answer --timeout` applies the rules' default.",
)
@dice_option
@by_option
@id_option
@secret_option
@pass_app
def act_(
    app: App,
    actor: str,
    action: str,
    targets: tuple[str, ...],
    weapon: str | None,
    called: str | None,
    mods: tuple[Modifier, ...],
    defences: tuple[str, ...],
    defence_weapons: tuple[str, ...],
    unaware: tuple[str, ...],
    item: str | None,
    dc: int | None,
    opts: tuple[str, ...],
    ask: bool,
    wait: int | None,
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
) -> None:
    """ACTOR takes ACTION [against TARGETS]; see `fracas actions`. With --ask, an attack
    that gives a target a choice of reaction waits for `fracas answer`."""
    from fracas.rules.reactions import ask_until

    ruleset = app.encounter(write=True).ruleset
    words = ruleset.positional_of(action)
    extras = {
        "targets": list(targets) or None,
        "weapon": weapon,
        "called": called,
        "item": item,
        "dc": dc,
        "modifiers": [msgspec.to_builtins(m) for m in mods] or None,
        "defence": parse_defences(defences, targets) or None,
        "defence_weapon": parse_pairs(defence_weapons, "--defence-weapon") or None,
        "unaware": list(unaware) or None,
    }
    if words != "targets":  # the words are not combatants: `save dex`, `check sleight of hand`
        extras[words] = " ".join(extras.pop("targets") or []) or None
    given = {k: v for k, v in extras.items() if v is not None}
    taken = ruleset.fields_of(action)
    if taken:  # an unknown action is the ruleset's to refuse, with its list of actions
        check_taken(action, given, taken)
    command = {"action": action, "actor": actor, **given, **parse_pairs(opts, "--opt")}
    check_numbers(ruleset, action, command, words)
    if wait is not None and not ask:
        raise BadInputError("--wait goes with --ask: how long the targets have to answer")
    if ask and dice:
        raise BadInputError("an attack that asks rolls nothing yet: give --dice to `answer`")
    waits = ask_until(wait) if ask else None
    run(app, command, dice, by, command_id, secret, waits)


@cli.command(short_help="TARGET's reaction to a waiting attack.")
@click.argument("target", required=False, shell_complete=complete_ids)
@click.argument("choice", required=False)
@click.option(
    "--timeout",
    "timed_out",
    is_flag=True,
    help="The deadline has passed: the rules' default for every target not yet answered.",
)
@click.option("--withdraw", is_flag=True, help="The GM takes the waiting attack back.")
@click.option("--reason", "-m", default="", type=LINE, help="With --withdraw: why.")
@dice_option
@by_option
@id_option
@pass_app
def answer(
    app: App,
    target: str | None,
    choice: str | None,
    timed_out: bool,
    withdraw: bool,
    reason: str,
    dice: str | None,
    by: str,
    command_id: str | None,
) -> None:
    """TARGET's CHOICE of reaction to the attack waiting for it (see `act --ask`); the
    last answer decides the attack. With no arguments: who is waited on."""
    from fracas.rules.reactions import ANSWER, TIMEOUT, WITHDRAW, now

    given = [bool(target or choice), timed_out, withdraw]
    if sum(given) > 1 or (target and not choice):
        raise BadInputError("answer takes TARGET CHOICE, or --timeout, or --withdraw")
    if not any(given):
        asked = pending(app.encounter())
        click.echo(f"waiting: {asked.line}" if asked else "no attack waits for a reaction")
        return
    command: dict[str, Any] = (
        {"action": WITHDRAW, "reason": reason}
        if withdraw
        else {"action": TIMEOUT, "at": now()}
        if timed_out
        else {"action": ANSWER, "combatant": target, "choice": choice}
    )
    run(app, command, dice, by, command_id)


def check_numbers(ruleset: Ruleset, action: str, command: dict[str, Any], words: str) -> None:
    """A whole number out of the action's bounds is a usage error (exit 2) naming the flag or
    the word it was typed as, with the bounds, before the ruleset reads the command."""
    from fracas.rules.names import accepted, plain

    struct = ruleset.command_struct(action)
    for field in inspect.type_info(struct).fields if struct else ():
        name, typ = field.encode_name, plain(field.type)
        given = command.get(name)
        if not isinstance(typ, inspect.IntType) or given is None or isinstance(given, bool):
            continue
        try:
            number = ascii_int(given) if isinstance(given, str) else int(given)
        except (TypeError, ValueError):
            continue  # not a number at all: the ruleset's refusal names what it takes
        if not within(typ, number):
            hint = flag_of(name, words)
            raise click.BadParameter(f"{number} is not {accepted(typ)}", param_hint=hint)


def within(typ: inspect.IntType, number: int) -> bool:
    return (typ.ge is None or number >= typ.ge) and (typ.le is None or number <= typ.le)


def flag_of(field: str, words: str) -> str:
    """How `fracas act` takes a field: its flag, the words after the action, or -o."""
    from fracas.projections import catalog

    if field == words:
        return f"'{field.upper()}'"
    if field in catalog.FLAGS:
        return f"'{catalog.FLAGS[field].split()[0]}'"
    return f"'-o {field}'"


def check_taken(action: str, given: dict[str, Any], taken: tuple[str, ...]) -> None:
    """Only what the action's command takes is sent: a flag it has no field for is refused
    (rather than dropped unseen)."""
    from fracas.projections import catalog

    for name in given:
        if name not in taken:
            what = "targets" if name == "targets" else catalog.FLAGS[name].split()[0]
            raise BadInputError(
                f"{action} takes no {what}; `fracas actions` lists what each action takes"
            )


reason_option = click.option(
    "--reason", "-m", default="", type=LINE, help="Why, in a few words: it is shown in the log."
)


GM_DICE = "fracas.gm-dice"  # where a GM command's --dice waits for gm_command (ctx.meta)


def keep_gm_dice(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    ctx.meta[GM_DICE] = value


gm_dice_option = click.option(
    "--dice",
    "-d",
    default=None,
    metavar="FACES",
    expose_value=False,
    callback=keep_gm_dice,
    help="Faces of physical dice for what this sets off, such as a new round's initiative.",
)


def gm_flags(command: Any) -> Any:
    """The flags every GM command takes: --reason, --by, --command-id and --dice."""
    return reason_option(by_option(id_option(gm_dice_option(pass_app(command)))))


def gm_command(
    app: App, verb: str, by: str, command_id: str | None, turn: str | None = None, **fields: Any
) -> None:
    """One of the GM's everyday commands, recorded as its own undoable step."""
    dice = click.get_current_context().meta.get(GM_DICE)
    run(app, {"action": f"{GM}{verb}", **fields}, dice, by, command_id, turn=turn)


@cli.command(short_help="Take health off TARGET by hand.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("amount", type=HEALTH)
@gm_flags
def harm(app: App, target: str, amount: int, reason: str, by: str, command_id: str | None) -> None:
    """Take AMOUNT off TARGET's health by hand (a trap, a fall, a ruling)."""
    gm_command(app, "harm", by, command_id, target=target, amount=amount, reason=reason)


@cli.command(short_help="Give health back to TARGET by hand.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("amount", type=HEALTH)
@click.option(
    "--temp",
    is_flag=True,
    help="Temporary hit points instead, in a ruleset that has them (5e keeps the larger).",
)
@gm_flags
def heal(
    app: App, target: str, amount: int, temp: bool, reason: str, by: str, command_id: str | None
) -> None:
    """Give AMOUNT of health back to TARGET by hand (a potion, first aid)."""
    fields = {"temp": True} if temp else {}
    gm_command(app, "heal", by, command_id, target=target, amount=amount, reason=reason, **fields)


@cli.group(short_help="Set or clear a condition by hand.")
def condition() -> None:
    """Set or clear a condition by hand: `condition set bob "on fire"`."""


class RoundsType(click.ParamType):
    """`3r`, `3 rounds` or `3`: a number of rounds, at least 1."""

    name = "rounds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> int:
        text = str(value).strip().lower()
        digits = text.removesuffix("rounds").removesuffix("round").removesuffix("r").strip()
        if not digits.isascii() or not digits.isdigit() or not 1 <= int(digits) <= 1000:
            self.fail(f"{value!r} is not a number of rounds from 1 to 1000, as in 3r", param, ctx)
        return int(digits)


class UntilType(click.ParamType):
    """`end:ID`, `start:ID` (that combatant's next turn) or `removed`."""

    name = "end:ID|start:ID|removed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> str:
        from fracas.rules import durations

        try:
            durations.parse_until(str(value))
        except BadInputError as error:
            self.fail(str(error), param, ctx)
        return str(value).strip()


@condition.command("set", short_help="Set condition NAME on TARGET, for a while or until.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("name", type=LINE)
@click.option("--for", "rounds", type=RoundsType(), help="Lasts this many rounds: 3r.")
@click.option(
    "--until",
    type=UntilType(),
    shell_complete=complete_turn_edges,
    help="Lasts until the end or start of a combatant's next turn: end:alice, start:alice.",
)
@gm_flags
def condition_set(
    app: App,
    target: str,
    name: str,
    rounds: int | None,
    until: str | None,
    reason: str,
    by: str,
    command_id: str | None,
) -> None:
    """Set a free-text condition NAME on TARGET, until removed or --for/--until."""
    fields = {"target": target, "condition": name, "reason": reason, "rounds": rounds}
    gm_command(app, "condition-set", by, command_id, **fields, until=until or "")


@condition.command("clear", short_help="Clear the condition NAME from TARGET.")
@click.argument("target", shell_complete=complete_ids)
@click.argument("name", type=LINE)
@gm_flags
def condition_clear(
    app: App, target: str, name: str, reason: str, by: str, command_id: str | None
) -> None:
    """Clear the condition NAME from TARGET (the rules' own conditions too, as a ruling)."""
    gm_command(app, "condition-clear", by, command_id, target=target, condition=name, reason=reason)


@cli.command(short_help="Take TARGET out of the fight.")
@click.argument("target", shell_complete=complete_ids)
@gm_flags
def remove(app: App, target: str, reason: str, by: str, command_id: str | None) -> None:
    """Take TARGET out of the fight (fled, captured); their turns stop until `return`."""
    gm_command(app, "remove", by, command_id, target=target, reason=reason)


@cli.command(name="return")
@click.argument("target", shell_complete=complete_ids)
@gm_flags
def return_(app: App, target: str, reason: str, by: str, command_id: str | None) -> None:
    """Bring a removed TARGET back into the fight."""
    gm_command(app, "return", by, command_id, target=target, reason=reason)


@cli.command(short_help="End the encounter.")
@turn_option
@gm_flags
def end(app: App, turn: str | None, reason: str, by: str, command_id: str | None) -> None:
    """End the encounter: only the GM's commands go on until `reopen`."""
    gm_command(app, "end", by, command_id, turn, reason=reason)


@cli.command()
@gm_flags
def reopen(app: App, reason: str, by: str, command_id: str | None) -> None:
    """Reopen an ended encounter."""
    gm_command(app, "reopen", by, command_id, reason=reason)


@cli.command()
@click.argument("target", shell_complete=complete_ids)
@click.argument("name", type=LINE)
@gm_flags
def rename(app: App, target: str, name: str, reason: str, by: str, command_id: str | None) -> None:
    """Show TARGET under a new NAME; their id stays."""
    gm_command(app, "rename", by, command_id, target=target, name=name, reason=reason)


@cli.command(short_help="An interactive session: commands, keys, Tab.")
@pass_app
def play(app: App) -> None:
    """An interactive session on the encounter: the same commands without `fracas`,
    completion (Tab), history, and short forms: `attack bob` for whoever acts now;
    u, r, n, s for undo, redo, next, status. Ctrl-C clears the line, Ctrl-D leaves."""
    from fracas.cli.shell import play as shell

    if not sys.stdin.isatty() and not os.environ.get("FRACAS_PLAY_PIPE"):
        raise BadInputError("fracas play needs a terminal; pipe commands to `fracas` instead")
    shell(app, cli)


@cli.command(short_help="The players' screen and the GM's page.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; 0.0.0.0 shares the screen on your network.",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=AsciiInt(0, 65535),
    help="The port (0: any free one).",
)
@click.option(
    "--npc-numbers",
    is_flag=True,
    help="Show the players NPCs' exact health instead of descriptors (bloodied, down).",
)
@click.option(
    "--files",
    type=click.Path(exists=True, file_okay=False, resolve_path=True, path_type=Path),
    default=None,
    help="The one directory the GM page's console may read and write files in "
    "(export -o, copy, add --sheet); without it, none.",
)
@click.option(
    "--player-steps",
    type=click.Choice(["now", "nod"]),
    default="now",
    show_default=True,
    help="A step from a player's phone lands at once (now), or waits for the GM's nod.",
)
@click.option(
    "--reaction-wait",
    type=AsciiInt(1, 86_400),
    default=120,
    show_default=True,
    metavar="SECONDS",
    help="How long a player has to answer an attack from their phone; then the rules' default.",
)
@click.option(
    "--certfile",
    type=click.Path(exists=True, dir_okay=False, resolve_path=True, path_type=Path),
    default=None,
    help="Serve HTTPS with this certificate (PEM); with --keyfile.",
)
@click.option(
    "--keyfile",
    type=click.Path(exists=True, dir_okay=False, resolve_path=True, path_type=Path),
    default=None,
    help="The certificate's private key (PEM).",
)
@pass_app
def serve(
    app: App,
    host: str,
    port: int,
    npc_numbers: bool,
    files: Path | None,
    player_steps: str,
    reaction_wait: int,
    certfile: Path | None,
    keyfile: Path | None,
) -> None:
    """The table's screen: a live players' page, and a GM's page behind a token."""
    from fracas.cli.serve import check_tls
    from fracas.cli.serve import serve as start

    check_tls(certfile, keyfile)
    app.open()  # refuses a missing or unreadable log with one line, before listening
    start(
        app.db,
        host,
        port,
        npc_numbers=npc_numbers,
        files=files,
        encounter=app.encounter_id,
        player_steps=player_steps,
        reaction_wait=reaction_wait,
        certfile=certfile,
        keyfile=keyfile,
    )


@cli.command(short_help="A link for a player's phone.")
@click.argument("combatant", required=False, shell_complete=complete_ids)
@click.option("--revoke", is_flag=True, help="Revoke every link of COMBATANT at once.")
@click.option("--list", "listed", is_flag=True, help="Every link given, and when revoked.")
@click.option(
    "--url",
    default=None,
    metavar="URL",
    envvar="FRACAS_URL",
    help="Where `fracas serve` answers, as phones reach it (default: this machine's "
    "address on the network, port 8000).",
)
@click.option("--no-qr", is_flag=True, help="Print the link without its QR code.")
@pass_app
def invite(
    app: App, combatant: str | None, revoke: bool, listed: bool, url: str | None, no_qr: bool
) -> None:
    """A link (and QR code) for COMBATANT's player to act from their phone; --revoke ends it."""
    from fracas.cli.phones import qr_terminal
    from fracas.cli.serve import lan_address
    from fracas.ledger import invites

    if listed:
        live = app.encounter()
        for given in invites.invites(live.store, live.id):
            ended = f", revoked {given.revoked}" if given.revoked else ""
            click.echo(f"{given.combatant}: given {given.at}{ended}")
        return
    if combatant is None:
        raise click.UsageError("name the combatant whose player gets a link (or --list)")
    live = app.encounter(write=True)
    invites.check_known(combatant, [w.combatant for w in live.view().wounds])
    if revoke:
        count = invites.revoke(live.store, live.id, combatant)
        click.echo(f"revoked {count} link{'s' * (count != 1)} of {combatant}")
        return
    token = invites.invite(live.store, live.id, combatant)
    link = f"{(url or f'http://{lan_address()}:8000').rstrip('/')}/p/{token}"
    if not no_qr:
        click.echo(qr_terminal(link), nl=False)
    click.echo(link)
    click.echo(f"{combatant}'s player opens it to act from their phone; anyone with it can.")


@cli.command(short_help="The ruleset's actions and their flags.")
@click.option("--ruleset", "-r", default=None, help="A ruleset; default: the encounter's.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def actions(app: App, ruleset: str | None, as_json: bool) -> None:
    """List the actions of the encounter's ruleset (or of -r RULESET) and their flags."""
    from fracas.projections import catalog

    rules, _ = ruleset_for(app, ruleset)
    found = catalog.actions(rules)
    if as_json:
        dump_json({"ruleset": rules.name, "actions": found})
    else:
        render.actions(*catalog.shared(found))


@cli.command(short_help="The rules reference, by system or rule id.")
@click.argument("wanted", required=False, metavar="[SYSTEM|RULE]")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def rules(wanted: str | None, as_json: bool) -> None:
    """The rules reference: the systems, one system's rules (by number or ruleset), or one
    rule by the id the log cites (`003-25`, `000-M2`, a plugin's `srd-14`)."""
    from fracas.projections import catalog

    if wanted is None:
        found: Any = catalog.systems()
        shown = render.systems
    elif catalog.is_rule_id(wanted):
        found = catalog.rule(wanted)
        shown = render.rule
    else:
        picked = catalog.system(wanted)
        found = {"system": picked, "rules": catalog.rules_of(picked.id)}
        shown = render.system_rules
    if as_json:
        dump_json(found)
    else:
        shown(found)


@cli.command(short_help="Initiative order, wounds, conditions.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@click.option("--at", "at_step", type=INT, default=None, help="As it stood after step STEP.")
@pass_app
def status(app: App, as_json: bool, at_step: int | None) -> None:
    """Initiative order, wounds and conditions, pins (now, or --at a past step)."""
    name, ruleset, view, header, hidden, waits = status_parts(app, at_step)
    waiting = pending(app.encounter()) if waits else None
    if as_json and header is not None:  # all from the read models: no ruleset loaded
        dump_json(status_json(name, ruleset, header, view, hidden, waiting))
        return
    from fracas.rules import load

    shown = board(name, load(ruleset), view, frozenset(hidden))
    if as_json:
        dump_json(status_json(name, ruleset, shown.header, view, hidden, waiting))
        return
    render.status(shown)
    if waiting is not None:
        click.echo(f"waiting: {waiting.line}")


class StatusParts(NamedTuple):
    encounter: str
    ruleset: str
    view: View
    header: str | None  # the board's first line, when the read models hold it
    hidden: set[str]  # whom the players do not see now
    waits: bool  # a reaction may be awaited: ask the fold


def status_parts(app: App, at_step: int | None) -> StatusParts:
    """What `status` shows: now, from the read models where they tell it all (nobody ever
    hidden, no reaction ever asked), else folded; or as it stood after `at_step`."""
    from fracas.projections.glance import glance

    if at_step is not None:
        live = app.encounter()
        view = live.view_at(at_step)
        return StatusParts(live.id, live.ruleset.name, view, None, live.hidden(), False)
    seen = glance(app.store, app.encounter_id)
    if seen is None:  # an older file's read models, opened read-only: folded
        name, ruleset, view = app.fracas.current(app.encounter_id)
        hidden = app.fracas.hidden(name)
        return StatusParts(name, ruleset, view, None, hidden, may_wait(app.store, name))
    hidden = app.fracas.hidden(seen.encounter) if seen.ever_hidden else set()
    return StatusParts(
        seen.encounter, seen.ruleset, seen.view, seen.header, hidden, seen.ever_asked
    )


def status_json(
    name: str, ruleset: str, header: str, view: View, hidden: set[str], waiting: Any
) -> dict[str, Any]:
    extra = {"waiting": msgspec.to_builtins(waiting)} if waiting else {}
    return (
        {"encounter": name, "ruleset": ruleset, "header": header}
        | msgspec.to_builtins(view)
        | {"hidden": sorted(hidden)}  # the GM's: whom the players do not see
        | extra
    )


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def log(app: App, as_json: bool) -> None:
    """Every step with its events; undone steps are marked."""
    steps = app.fracas.log(app.encounter_id)
    if as_json:
        dump_json(steps)
        return
    render.log(steps)


def parse_steps(text: str | None) -> tuple[int | None, int | None]:
    if text is None:
        return None, None
    first, sep, last = text.partition("..")
    try:
        return ascii_int(first), ascii_int(last if sep else first)
    except ValueError:
        raise BadInputError(
            f"--steps takes A..B or one step, like --steps 5..9; got {said(text)}"
        ) from None


@cli.command(short_help="Walk a round, turn or steps, roll by roll.")
@click.option("--round", "round_", type=INT, default=None, help="Every step of round N.")
@click.option("--turn", default=None, metavar="ROUND:WHO", help="One turn, e.g. --turn 2:alice.")
@click.option("--steps", default=None, metavar="A..B", help="A range of steps, or one step.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
@pass_app
def replay(
    app: App, round_: int | None, turn: str | None, steps: str | None, as_json: bool
) -> None:
    """Walk a disputed round, turn or steps: rolls, modifiers, rules, state before and after."""
    first, last = parse_steps(steps)
    with render.progress_bar("replaying", "steps", shown=not as_json) as tick:
        walked = app.fracas.replay(
            app.encounter_id, round_=round_, turn=turn, first=first, last=last, progress=tick
        )
    if as_json:
        dump_json(walked)
        return
    render.replay(walked)


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


@cli.command(short_help="What if a step had gone otherwise?")
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


@cli.command(short_help="Make a what-if the main line.")
@with_branch_options
@pass_app
def adopt(app: App, step: int, dice: str | None, sets: tuple[str, ...], by: str) -> None:
    """Make a what-if the main line: its steps are appended, the old ones marked superseded."""
    outcomes = app.writer.adopt(
        encounter=app.encounter_id, author=by, **what_differs(step, dice, sets, by)
    )
    for outcome in outcomes:
        render.outcome(outcome)
    app.witness()


def step_words(live: Encounter, step: int) -> str:
    """A step as the words that asked for it: 'alice attack cultist-2', 'harm bob 3'."""
    from fracas.rules.ruleset import command_of

    command = command_of(live.events_of_step(step))
    if command is None:
        return "a note or a reveal"
    action = str(command.get("action", "")).removeprefix(GM)
    who = [] if action != str(command.get("action")) else [command.get("actor") or ""]
    named = [command.get("target"), *(command.get("targets") or []), command.get("amount")]
    return " ".join(str(w) for w in [*who, action, *named] if w not in (None, ""))


@cli.command(name="help", short_help="Help on a command: `help act`.")
@click.argument("words", nargs=-1)
@click.pass_context
def help_(ctx: click.Context, words: tuple[str, ...]) -> None:
    """Help on a command: `help act`, `help condition set` (as `act --help` does)."""
    group: Any = ctx.parent.command if ctx.parent else cli
    command, path = group, ["fracas"]
    for word in words:
        found = command.get_command(ctx, word) if isinstance(command, click.Group) else None
        if found is None:
            from fracas.rules.names import closest

            known = command.commands if isinstance(command, click.Group) else {}
            guess = closest(word, known) if known else None
            hint = f"; did you mean {guess}?" if guess else ""
            raise BadInputError(f"no command {said(word)} to help with{hint}")
        command, path = found, [*path, found.name or word]
    with click.Context(command, info_name=" ".join(path)) as shown:
        click.echo(command.get_help(shown))


@cli.command(short_help="Take back the latest step.")
@by_option
@click.option(
    "--step",
    type=AsciiInt(1),
    default=None,
    help="The step you saw as the latest: refused if another was taken back or added since.",
)
@pass_app
def undo(app: App, by: str, step: int | None) -> None:
    """Take back the latest step (appends an undo; nothing is deleted)."""
    live = app.encounter(write=True)
    step = live.undo(author=by, only=step)
    click.echo(f"undid step {step}: {step_words(live, step)}")
    app.witness()


@cli.command(short_help="Whose turn it is, as a token `next --turn` takes.")
@pass_app
def turn(app: App) -> None:
    """Whose turn it is now, as the token `next --turn` and `end --turn` take, so that a
    command for the turn you saw is refused once another command ended it."""
    click.echo(app.encounter().turn())


@cli.command()
@by_option
@pass_app
def redo(app: App, by: str) -> None:
    """Restore the most recently undone step."""
    live = app.encounter(write=True)
    step = live.redo(author=by)
    click.echo(f"redid step {step}: {step_words(live, step)}")
    app.witness()


@cli.command(short_help="Reveal the dice seed for anyone to check.")
@by_option
@pass_app
def reveal(app: App, by: str) -> None:
    """Reveal the dice seed so anyone can check every seeded roll; a new seed is committed."""
    outcome = app.encounter(write=True).reveal(author=by)
    render.outcome(outcome)
    app.witness()


@cli.command(short_help="Export: lossless JSONL, or md/html.")
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
            summary = f"exported {count} encounter(s) as {fmt}"
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
    directory = os.path.dirname(os.path.abspath(output))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".fracas-export-")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, output)
    except BaseException:
        with suppress(FileNotFoundError):
            os.remove(temporary)
        raise


@cli.command(short_help="Copy a whole log to a new, empty one.")
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
    click.echo(
        f"copied {report.encounters} encounters, {report.events} events, {report.steps} steps "
        f"and {report.sealed} sealed seeds to {shown(target)}; read back and compared: identical"
    )


@cli.command(name="import")
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


@cli.command(short_help="Check the log: hashes, rolls, head code.")
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


@cli.command()
@pass_app
def rebuild(app: App) -> None:
    """Drop the read models and fold them again from the log."""
    count = app.writer.rebuild()
    click.echo(f"rebuilt the read models of {count} encounter(s)")


@cli.command(name="roll", short_help="Roll dice no rule applies to.")
@click.argument("expression", metavar="DICE")
@reason_option
@dice_option
@click.option(
    "--by",
    default="gm",
    show_default=True,
    help="Who rolls: the GM, a player or a combatant (and who typed --dice).",
)
@id_option
@secret_option
@pass_app
def roll_(
    app: App,
    expression: str,
    reason: str,
    dice: str | None,
    by: str,
    command_id: str | None,
    secret: bool,
) -> None:
    """Roll DICE for a check no rule applies, e.g. `roll 2d20kh1+5 --reason perception`:
    recorded as its own undoable step. DICE: NdS terms added or taken off, with kh/kl (keep
    highest/lowest), dl/dh (drop lowest/highest), ! (exploding) and plain numbers."""
    command = {"action": "roll", "dice": expression, "reason": reason, "actor": by}
    run(app, command, dice, by, command_id, secret)


@cli.command()
@click.argument("text", type=LINE)
@by_option
@pass_app
def note(app: App, text: str, by: str) -> None:
    """Add a note to the log (it changes nothing in the fight)."""
    render.outcome(app.encounter(write=True).note(text, author=by))
    app.witness()


@cli.command(short_help="Show the players a secret step.")
@click.argument("step", type=INT)
@by_option
@pass_app
def disclose(app: App, step: int, by: str) -> None:
    """Show the players what STEP (a step with GM-only rolls) decided."""
    render.outcome(app.writer.disclose(step, app.encounter_id, author=by))
    app.witness()


@cli.command("reveal-combatant", short_help="Show the players a hidden combatant.")
@click.argument("combatant")
@by_option
@pass_app
def reveal_combatant(app: App, combatant: str, by: str) -> None:
    """Show the players COMBATANT (added --hidden) and every step that involved them."""
    render.outcome(app.writer.reveal_combatant(combatant, app.encounter_id, author=by))
    app.witness()


@cli.command(short_help="The head code, to note and check later.")
@click.option("--step", type=INT, default=None, help="As it stood after STEP.")
@pass_app
def head(app: App, step: int | None) -> None:
    """Print the encounter's head code, for the table to note and `audit --head` to check."""
    click.echo(app.fracas.head_code(app.encounter_id, step))


@cli.command(short_help="Play a scripted fight into a demo file.")
@click.option(
    "--db",
    "demo_db",
    default="fracas-demo.db",
    type=LOG_PATH,
    show_default=True,
    help="Where to record the demo fight.",
)
@click.option("--quiet", is_flag=True, help="Print one line: where the fight was recorded.")
def demo(demo_db: str, quiet: bool) -> None:
    """Play a scripted Delta Green-style fight with fixed dice into a SQLite file."""
    from fracas.cli.demo import play

    run_as = sys.argv[0] if os.path.basename(sys.argv[0]) == "fracas" else "fracas"
    echo = (lambda _line: None) if quiet else click.echo
    play(demo_db, echo=echo, program=shlex.quote(run_as), quiet=quiet)


share_global_options(cli)

if __name__ == "__main__":
    cli()
