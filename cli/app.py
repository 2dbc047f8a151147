"""The `fracas` group: the App a command works on (the log, opened as the command needs it),
the group that turns every refusal into one line and loads each command when first wanted,
and the global options (--db, -e) taken before or after the command's name."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click
import msgspec

from fracas.cli import collector_off
from fracas.cli.text import LOG_PATH
from fracas.ledger import BadInputError, FracasError, NotFoundError, RefusedError
from fracas.ledger.errors import ECHOED, cut, said
from fracas.ledger.open import describe_database_error, is_database_error, is_server, shown

if TYPE_CHECKING:
    from fracas.ledger import LogStore
    from fracas.projections import Fracas
    from fracas.rules import Encounter


T = TypeVar("T")


class UsageLine(click.ClickException):
    """A usage error as one line (click's own is four: usage, a hint, a blank, the error)."""

    exit_code = 2


# What a negative number given where an option would go meant to do, by command.
NEGATIVE = {
    "harm": "harm takes AMOUNT of 1 or more; `fracas heal` gives health back",
    "heal": "heal takes AMOUNT of 1 or more; `fracas harm` takes health off",
}


PLAY = "fracas play"  # the name `fracas play` runs its lines under, where help is `help CMD`


def help_for(ctx: click.Context) -> str:
    """How to ask for a command's help where it was given: `help harm` in `fracas play`."""
    path = ctx.command_path
    if ctx.find_root().info_name == PLAY:
        return f"help {path.removeprefix(PLAY).strip()}".strip()
    return f"{path} --help"


def one_line(error: click.UsageError, given: list[str]) -> click.ClickException:
    """click's usage error in one line; a long argument it repeats (`given`: the words of
    the command line) cut to its start and length."""
    where = f" (see '{help_for(error.ctx)}')" if error.ctx is not None else ""
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
    most likely meant.

    Its commands are registered by name (`register`) and imported when first wanted: a
    command run as a process loads only its own module of cli/commands/. Reading
    `commands` itself (help, `fracas play`, the GM page's console) loads them all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.waiting: dict[str, str] = {}  # name: "module:function" not imported yet
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        for name in list(self.waiting):
            self._load(name)
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def register(self, commands: dict[str, str]) -> None:
        """Commands by name, each as "module:function" of fracas.cli.commands."""
        self.waiting.update(commands)

    def _load(self, name: str) -> None:
        import importlib

        module, function = self.waiting.pop(name).split(":")
        with collector_off():  # a command's module loads as fracas.cli.main does
            command = getattr(importlib.import_module(f"fracas.cli.commands.{module}"), function)
        share_global_options(command)
        self._commands[name] = command

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        name = SHORT.get(cmd_name, cmd_name)
        if name in self.waiting:
            self._load(name)
        return self._commands.get(name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self._commands, *self.waiting})

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
            raise UsageLine(f"no command {said(name)}{hint}")  # a mistyped line: exit 2
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
            if isinstance(error.__cause__, Exception) and os.environ.get("FRACAS_DEBUG"):
                raise error.__cause__ from None  # the ruleset's own traceback, for its author
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
        self._line = False  # inside one line of `fracas play` (see `line`)
        self._looked: tuple[object, int, int] | None = None  # the fold as its head was read

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
        elif not self._read_this_line(live):
            live.refresh()
        if self._line:
            self._looked = (live, live.version, live.store.appends)
        return live

    def _read_this_line(self, live: Encounter) -> bool:
        """Within one line of `fracas play`, the head was read already and nothing this
        process appended since escaped the fold: it appended nothing, or the fold appended
        its own head last."""
        if not self._line or self._looked is None:
            return False
        if self._looked == (live, live.version, live.store.appends):
            return True
        return self._looked[0] is live and live.store.wrote_last(live.id, live.version)

    @contextlib.contextmanager
    def line(self) -> Iterator[None]:
        """One line of `fracas play`: the encounter reads the head at the line's first
        call, not at each (a dozen reads a line). What another process appends during the
        line is seen at the next; an append of this line that it raced is refused or
        decided again by the store's expected version, as ever."""
        self._line, self._looked = True, None
        try:
            yield
        finally:
            self._line, self._looked = False, None

    def fight(self) -> Encounter:
        """The encounter, to change as a fight: never the party's own log (`-e party`), which
        `fracas party`'s commands change between fights."""
        from fracas.projections.party import NOT_A_FIGHT
        from fracas.rules.views import PARTY

        live = self.encounter(write=True)
        if live.id == PARTY:
            raise RefusedError(NOT_A_FIGHT)
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


def dump_json(data: Any) -> None:
    click.echo(msgspec.json.format(msgspec.json.encode(data)).decode())


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


def share_global_options(command: click.Command) -> None:
    """A subcommand (and each of a subgroup's) takes --db and -e/--encounter after its name
    too, as Getting started says, unless it has an option of that name of its own (`demo
    --db`)."""
    if isinstance(command, click.Group):
        for each in command.commands.values():
            share_global_options(each)
        return
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
    taken = {opt for param in command.params for opt in param.opts}
    command.params += [o for o in shared if not taken & set(o.opts)]
