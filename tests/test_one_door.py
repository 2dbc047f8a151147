"""One door into fracas for every ruleset: the five built in, like the srd plugin, import
nothing of fracas's but `fracas.rules.api`, and the wiring every ruleset needs (the GM's
table view, the core evolvers) is `Ruleset`'s own, done once."""

import ast
import dataclasses
import importlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from fracas.rules.api import (
    CombatantJoined,
    ConditionSet,
    Event,
    InitiativeRow,
    Join,
    Ruleset,
    View,
    WoundRow,
    event_union,
    gm,
    roster,
)
from fracas.rules.events import EncounterEnded, Renamed
from fracas.rules.ruleset import BUILTIN

ROOMS = {**BUILTIN, "srd": "fracas_srd"}  # where each ruleset's code lives
DOOR = {"fracas.rules.api"}


def modules_of(ruleset: str) -> list[Path]:
    """The source files of a ruleset: its module, or every module of its package."""
    path = Path(importlib.import_module(ROOMS[ruleset]).__file__ or "")
    return sorted(path.parent.glob("*.py")) if path.name == "__init__.py" else [path]


def fracas_imports(path: Path) -> list[str]:
    """Every module of fracas's a file imports, however it imports it: a relative import
    that climbs out of the ruleset's own package (`from .. import dice`) counts as one."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            found.append("." * node.level + (node.module or ""))
    return [name for name in found if name == "fracas" or name.startswith(("fracas.", ".."))]


@pytest.mark.parametrize("ruleset", sorted(ROOMS))
def test_every_ruleset_imports_only_the_public_api(ruleset: str):
    beyond = {path.name: set(fracas_imports(path)) - DOOR for path in modules_of(ruleset)}
    assert beyond, f"{ruleset}: no source found"
    assert {name: found for name, found in beyond.items() if found} == {}


@pytest.mark.parametrize("ruleset", sorted(ROOMS))
def test_every_ruleset_is_a_package_with_one_concern_a_module(ruleset: str):
    """Each is laid out like the srd plugin, so a reader finds the fold, the view and the
    wiring in the same place in all six; the guard above reads every one of its modules."""
    modules = {path.stem for path in modules_of(ruleset)}
    assert {"__init__", "sheets", "commands", "state", "evolve", "view", "ruleset"} <= modules


def test_the_guard_catches_a_private_import(tmp_path: Path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import fracas.rules.dice\nfrom fracas.rules import gm\n")
    assert fracas_imports(sneaky) == ["fracas.rules.dice", "fracas.rules"]


def test_the_guard_catches_a_relative_import_out_of_the_package(tmp_path: Path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from .sheets import Sheet\nfrom .. import dice\nfrom ..gm import BY_HAND\n")
    assert fracas_imports(sneaky) == ["..", "..gm"]


# -- the wiring: a ruleset written without it gets it, one written with it keeps it -------


class Options(msgspec.Struct, frozen=True):
    pass


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    conditions: dict[str, dict[str, Any]] = {}


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}


def by_hand(state: State, event: Event) -> State:
    """An evolve written by hand, that knows nothing of the core events."""
    if isinstance(event, CombatantJoined):
        return roster.put(state, Fighter(event.combatant, event.name))
    return state


def view(state: State) -> View:
    fighters = list(state.fighters.values())
    order = [InitiativeRow(f.id, f.name, n, "-", True) for n, f in enumerate(fighters)]
    wounds = [WoundRow(f.id, f.name, "pc", "", sorted(f.conditions)) for f in fighters]
    return View(1, "fight", [f.id for f in fighters], order, wounds, [])


def no_commands(state: State, command: Any, ctx: Any) -> list[Event]:
    """These tests fold and show events only: the bare ruleset is never asked to decide."""
    return []


def ruleset(**given: Any) -> Ruleset:
    fields = {"evolve": by_hand, "view": view, **given}
    return Ruleset(
        "bare", "Bare", Options, Options, Join, event_union(), State, no_commands, **fields
    )


EVENTS = [
    CombatantJoined("ann", "Ann", "pc", {}),
    CombatantJoined("bo", "Bo", "npc", {}),
    ConditionSet("bo", gm.REMOVED, "flees", {gm.BY_HAND: True, "reason": "flees"}),
    Renamed("ann", "Ann Reyes", "married"),
]


def played(rules: Ruleset, events: list[Event]) -> State:
    return roster.fold(rules.evolve, rules.initial(), events)


def test_a_ruleset_written_without_the_core_wiring_gets_it():
    rules = ruleset()
    state = played(rules, EVENTS)
    assert state.fighters["ann"].name == "Ann Reyes", "a rename is a core event"
    shown = rules.view(state)
    assert shown.acting == ["ann"], "a removed combatant stands aside"
    assert next(r for r in shown.initiative if r.combatant == "bo").status == "removed: flees"
    ended = played(rules, [*EVENTS, EncounterEnded("over")])
    assert rules.view(ended).phase == "ended" and rules.view(ended).acting == []


def test_a_ruleset_that_still_wires_by_hand_is_not_wired_twice():
    shown = gm.table_view(view)
    table = roster.dispatch({CombatantJoined: lambda s, e: by_hand(s, e), **roster.CORE_EVOLVERS})
    rules = ruleset(view=shown, evolve=table)
    assert rules.view is shown and rules.evolve is table
    again = dataclasses.replace(rules, name="again")  # wired once more, on a wired ruleset
    assert again.view is shown and again.evolve is table
    wired = ruleset()
    assert dataclasses.replace(wired, name="copy").evolve is wired.evolve


def test_an_evolve_of_a_table_keeps_its_own_entry_for_a_core_event():
    seen: list[str] = []

    def renamed(state: State, event: Renamed) -> State:
        seen.append(event.name)
        return roster.CORE_EVOLVERS[Renamed](state, event)

    rules = ruleset(evolve=roster.dispatch({CombatantJoined: by_hand, Renamed: renamed}))
    state = played(rules, EVENTS)
    assert seen == ["Ann Reyes"] and state.fighters["ann"].name == "Ann Reyes"
    assert played(rules, EVENTS[:3]).fighters["bo"].conditions, "the core folds the rest"
