"""The demo fight: two Agents against two cultists, with fixed dice and one undo."""

import shlex
from collections.abc import Callable
from importlib.resources import files
from typing import Any

import click

from fracas.cli import render
from fracas.projections import Fracas
from fracas.projections.board import board
from fracas.projections.describe import gm_lines
from fracas.rules import DEFAULT
from fracas.rules.sheets import read_sheet_file

SHEETS = ("alice", "bishop", "cultist", "gunman")

# (what the table says, the command, the faces of the physical dice)
SCRIPT: list[tuple[str, dict[str, Any], list[int] | None]] = [
    ("The fight begins: DEX order", {"action": "begin"}, None),
    ("Alice aims at the doorway", {"action": "aim", "actor": "alice"}, None),
    (
        "The knife cultist lunges at Bishop, who fights back",
        {
            "action": "attack",
            "actor": "cultist",
            "targets": ["bishop"],
            "weapon": "knife",
            "defence": {"bishop": "fight-back"},
        },
        [38, 52, 3],
    ),
    (
        "The shotgun cultist fires at Alice",
        {"action": "attack", "actor": "gunman", "targets": ["alice"], "weapon": "shotgun"},
        [67],
    ),
    (
        "Alice fires her aimed shot at the knife cultist",
        {"action": "attack", "actor": "alice", "targets": ["cultist"], "weapon": "pistol"},
        [45, 8],
    ),
    (
        "Bishop tries to pin the shotgun cultist, who dodges",
        {"action": "pin", "actor": "bishop", "targets": ["gunman"], "defence": {"gunman": "dodge"}},
        [33, 41],
    ),
    (
        "Alice fires at the pinned gunman (the player reads the die wrong: 96)",
        {"action": "attack", "actor": "alice", "targets": ["gunman"], "weapon": "pistol"},
        [96],
    ),
]
AFTER_UNDO: list[tuple[str, dict[str, Any], list[int] | None]] = [
    (
        "...the die said 36: the shot hits",
        {"action": "attack", "actor": "alice", "targets": ["gunman"], "weapon": "pistol"},
        [36, 4],
    ),
    (
        "Bishop punches the pinned gunman (+20% against the pinned)",
        {"action": "attack", "actor": "bishop", "targets": ["gunman"]},
        [57, 4],
    ),
    ("The gunman tries to escape the pin", {"action": "escape", "actor": "gunman"}, [48]),
]


def sheet(name: str) -> dict[str, Any]:
    return read_sheet_file(str(files("fracas.cli") / "demo_sheets" / f"{name}.toml"))


def play(
    path: str, echo: Callable[[str], None], program: str = "fracas", *, quiet: bool = False
) -> str:
    """Play the demo fight into `path`; the closing hint names `program` as it was run.
    `quiet`: one line says where the fight is (`echo` then prints nothing)."""
    with Fracas(path) as fracas:
        # the demo fight, its sheets and its actions are written for the default ruleset
        encounter = fracas.new(DEFAULT, title="Night at the Lakeside Motel")
        echo(f"encounter {encounter.id} recorded in {path}")
        for name in SHEETS:
            data = sheet(name)
            join = {
                "action": "join",
                "combatant": name,
                "name": data.pop("name"),
                "side": data.pop("side"),
                "sheet": data,
            }
            encounter.execute(encounter.ruleset.command(join))

        def step(title: str, command: dict[str, Any], dice: list[int] | None) -> None:
            echo(f"\n== {title}")
            outcome = encounter.execute(
                encounter.ruleset.command(command), dice=dice, entered_by="table"
            )
            for line in gm_lines(outcome.events, encounter):
                echo(f"  {line}")

        for entry in SCRIPT:
            step(*entry)
        echo(f"\n== The table spots the misread die: undo step {encounter.undo()}")
        for entry in AFTER_UNDO:
            step(*entry)
        where = shlex.quote(path)
        if quiet:
            click.echo(f"the demo fight is in {path}: `{program} --db {where} status` shows it")
            return encounter.id
        echo("")
        render.status(board(encounter.id, encounter.ruleset, encounter.view()))
        render.audit(fracas.audit())
        echo(f"\nTry: {program} --db {where} log    (the undone step is marked)")
        return encounter.id
