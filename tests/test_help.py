"""Help that starts somewhere: `fracas --help` under headings, `fracas actions` without
repeats, `help` inside `fracas play`, and what Tab offers."""

import click
import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.cli.sections import OTHER, SECTIONS
from fracas.projections import catalog
from fracas.rules import available, load


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


# -- `fracas actions`: a flag several actions take, once ------------------------------------


@pytest.mark.parametrize("name", available())
def test_actions_lists_each_shared_flag_once_and_every_flag_of_every_action(name: str) -> None:
    ruleset = load(name)
    text = CliRunner().invoke(cli, ["actions", "-r", name]).output
    found = catalog.actions(ruleset)
    groups, own = catalog.shared(found)
    for flag in (flag for group in groups for flag in group.flags):
        line = f"    {flag.flag:<32} {flag.accepts}"
        default = f" (default {flag.default})".replace("True", "true").replace("False", "false")
        said = [x for x in text.splitlines() if x in (line, line + default)]
        assert len(said) == 1, (flag, said)
    for action, kept in zip(found, own, strict=True):
        listed = {f.flag for f in kept.flags} | {
            f.flag for g in groups if action.name in g.actions for f in g.flags
        }
        assert listed == {f.flag for f in action.flags}, action.name
    assert len(text.splitlines()) < 130  # srd: 215 lines before flags were listed once


def test_a_spell_takes_no_weapon_in_srd(run) -> None:
    text = run("actions", "-r", "srd").output
    cast = text.split("\ncast:")[1].split("\n")[1]
    assert "(and the shared flags above)" in cast
    weapon_takers = next(line for line in text.splitlines()[1:] if "-w WEAPON" in line)
    assert "cast" not in text.splitlines()[text.splitlines().index(weapon_takers) - 1]
    assert "weapon" not in load("srd").fields_of("cast")
