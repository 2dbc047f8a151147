"""The files of the web console. Every file a console command reads or writes is a click.Path
parameter; on the web each one is a name inside the directory the GM chose when starting the
server (`fracas serve --files DIR`), and with none chosen the console names no file at all.
Absolute paths, `..`, symlinks leading out, URLs and the served log's own files are refused
with one line before the command runs."""

import copy
from pathlib import Path
from typing import Any

import click

LOG_FILES = ("", "-wal", "-shm", "-journal", ".keys", ".keys-journal")
NOT_ON_THE_WEB = {  # parameters the console refuses whatever their value
    "template": "a Jinja2 template can run any code; use your template from the command line",
}


class Confined(click.ParamType):
    """A click.Path that only names files inside `files` (none when `files` is None)."""

    def __init__(self, inner: click.ParamType, files: Path | None, log: frozenset[Path]) -> None:
        self.inner, self.files, self.log = inner, files, log
        self.name = inner.name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-":  # stdout: the page shows it, no file is written
            return self.inner.convert(value, param, ctx)
        return self.inner.convert(str(self.inside(str(value), param, ctx)), param, ctx)

    def inside(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if self.files is None:
            self.fail(
                "this console reads and writes no files; start `fracas serve --files DIR` "
                "to let it use the files in DIR",
                param,
                ctx,
            )
        if "://" in value:
            self.fail(f"{value} is a URL; this console uses files in {self.files} only", param, ctx)
        path = Path(value)
        if path.is_absolute() or ".." in path.parts:
            self.fail(f"{value} is outside {self.files}; name a file in it", param, ctx)
        found = (self.files / path).resolve()
        if not found.is_relative_to(self.files):
            self.fail(f"{value} is a symlink leading out of {self.files}", param, ctx)
        if found in self.log:
            self.fail(f"{value} is the log this server shows; not a file to use", param, ctx)
        return found


def log_files(db: str) -> frozenset[Path]:
    """A SQLite log's file and the files beside it that belong to it (a server's: none)."""
    if "://" in db:
        return frozenset()
    path = Path(db).resolve()
    return frozenset(path.with_name(path.name + suffix) for suffix in LOG_FILES)


def confined(command: click.Command, files: Path | None, log: frozenset[Path]) -> click.Command:
    """A copy of `command` (and of its subcommands) whose file parameters are Confined."""
    copied = copy.copy(command)
    copied.params = [confined_param(p, files, log) for p in command.params]
    if isinstance(command, click.Group):
        copied.commands = {n: confined(c, files, log) for n, c in command.commands.items()}
    return copied


def confined_param(
    param: click.Parameter, files: Path | None, log: frozenset[Path]
) -> click.Parameter:
    if param.name in NOT_ON_THE_WEB:
        refused = copy.copy(param)
        refused.type = Refused(param.type, NOT_ON_THE_WEB[param.name])
        return refused
    if not isinstance(param.type, click.Path):
        return param
    copied = copy.copy(param)
    copied.type = Confined(param.type, files, log)
    return copied


class Refused(click.ParamType):
    """A parameter the web console does not take, with why."""

    def __init__(self, inner: click.ParamType, why: str) -> None:
        self.why, self.name = why, inner.name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        self.fail(f"not on the web page: {self.why}", param, ctx)
