"""Help that starts somewhere: `fracas --help` under headings, `fracas actions` without
repeats, `help` inside `fracas play`, and what Tab offers."""

import click
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.cli.sections import OTHER, SECTIONS


def every_command(group: click.Group, path: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((f"{path}{name}", command))
        if isinstance(command, click.Group):
            found += every_command(command, f"{path}{name} ")
    return found


def test_every_command_has_help_and_a_heading() -> None:
    placed = [name for listed in SECTIONS.values() for name in listed]
    assert sorted(placed) == sorted(cli.commands), "each command under exactly one heading"
    for name, command in every_command(cli):
        assert (command.help or "").strip(), f"{name} has no help"
        assert len(command.get_short_help_str(56)) <= 56, name
        assert not command.get_short_help_str(56).endswith("..."), f"{name}: summary cut"


def test_fracas_help_lists_the_commands_under_headings_in_order() -> None:
    out = CliRunner().invoke(cli, ["--help"], terminal_width=80).output
    headings = [line[:-1] for line in out.splitlines() if line.endswith(":") and line[0] != " "]
    assert headings == ["Options", *SECTIONS]
    assert OTHER not in out and "Commands:" not in out
    start = out.split("Start here:")[1].split("\n\n")[0]
    assert [line.split()[0] for line in start.splitlines() if line.strip()] == list(
        SECTIONS["Start here"]
    )
    assert max(len(line) for line in out.splitlines()) <= 80
