from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from fracas.projections import Fracas
from fracas.rules import Encounter, StepOutcome
from fracas.rules.events import Damaged, Event, Rolled


def sheet(dex: int = 10, **fields: Any) -> dict[str, Any]:
    """A percentile sheet; skills default to the Handbook base ratings."""
    base: dict[str, Any] = {"dex": dex, "str": 10, "con": 10}
    base.update(fields)
    return base


PISTOL = {"name": "pistol", "kind": "firearm", "damage": "1d10"}
KNIFE = {"name": "knife", "kind": "melee", "damage": "1d4"}
RIFLE = {"name": "rifle", "kind": "firearm", "damage": "1d12", "lethality": 20}


def gunner(dex: int = 14, **fields: Any) -> dict[str, Any]:
    """A Firearms 60 combatant holding a pistol: the usual attacker of these tests."""
    return sheet(
        dex, **{"skills": {"firearms": 60}, "weapons": [PISTOL], "holding": ["pistol"], **fields}
    )


SHEETS = Path(__file__).parent.parent / "cli" / "demo_sheets"


@pytest.fixture
def run(tmp_path: Path):
    """The `fracas` command on one file, as a GM types it; `ok=False` for a refusal."""
    db = str(tmp_path / "fight.db")  # the file the `fracas` fixture opens too
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(cli, ["--db", db, *args])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    invoke.db = db  # type: ignore[attr-defined]
    return invoke


def cli_gunfight(run, bob_hp: int) -> None:
    """Through the CLI: Alice (DEX 14, Firearms 60, a pistol) and Bob (DEX 10), begun."""
    run("new")
    run(
        "add",
        "alice",
        "--set",
        "dex=14",
        "--set",
        "skills.firearms=60",
        "--set",
        'weapons=[{name="pistol",kind="firearm",damage="1d10"}]',
        "--set",
        'holding=["pistol"]',
    )
    run("add", "bob", "--set", f"hp={bob_hp}")
    run("begin")


@pytest.fixture
def fracas(tmp_path: Path) -> Iterator[Fracas]:
    with Fracas(tmp_path / "fight.db") as opened:
        yield opened


def fight(
    fracas: Fracas,
    *fighters: tuple[str, dict[str, Any]],
    options: dict[str, Any] | None = None,
    begin: bool = True,
    begin_dice: list[int] | None = None,
) -> Encounter:
    encounter = fracas.new("percentile", title="test", options=options or {})
    for name, data in fighters:
        do(encounter, {"action": "join", "combatant": name, "sheet": data, "side": "pc"})
    if begin:
        do(encounter, {"action": "begin"}, begin_dice)
    return encounter


def do(encounter: Encounter, command: dict[str, Any], dice: list[int] | None = None) -> StepOutcome:
    return encounter.execute(encounter.ruleset.command(command), dice=dice)


def attack(
    encounter: Encounter, actor: str, *targets: str, dice: list[int] | None = None, **fields: Any
) -> StepOutcome:
    return do(
        encounter, {"action": "attack", "actor": actor, "targets": list(targets), **fields}, dice
    )


def rolls(events: list[Event]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled)]


def damage(events: list[Event], target: str) -> int:
    return sum(e.amount for e in events if isinstance(e, Damaged) and e.target == target)


def hp(encounter: Encounter, who: str) -> int:
    return encounter.state.fighters[who].hp


def turn(encounter: Encounter) -> str | None:
    return encounter.state.turn
