"""What many test modules share: small sheets, a fight begun through the API or the CLI,
and readers of a step's events. Fixtures stay in conftest.py."""

import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from fracas.ledger import open_store
from fracas.projections import Fracas
from fracas.rules import Encounter, StepOutcome
from fracas.rules.events import Damaged, Event, Rolled
from fracas.rules.ruleset import load

ON_POSTGRES = os.environ.get("FRACAS_TEST_BACKEND", "sqlite") == "postgresql"
POSTGRESQL = pytest.param("postgresql", marks=pytest.mark.postgres)  # a backend parameter
SIX = ["percentile", "shotclock", "pool", "timeslice", "fudge", "srd"]  # the rulesets tested


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


def events_in(db: str) -> int:
    return len(list(open_store(db).events()))


SRD_SAMPLES = Path(__file__).parents[1] / "plugins" / "srd" / "fracas_srd" / "samples"


def srd_fight(run, dice: str, *cast: tuple[str, str, str]) -> None:
    """An srd fight (id, sample sheet or bestiary monster, side) begun with these dice."""
    run("new", "-r", "srd", "-t", "a brawl")
    for who, sample, side in cast:
        sheet = SRD_SAMPLES / f"{sample}.toml"
        source = ["--sheet", str(sheet)] if sheet.exists() else ["--monster", sample]
        run("add", who, *source, "--name", who.title(), "--side", side)
    run("begin", "--dice", dice)


def member_sheet(tmp_path: Path, ruleset: str) -> str:
    """A party member's sheet file: the fighter sample in srd, a sheet of defaults elsewhere."""
    if ruleset == "srd":
        return str(SRD_SAMPLES / "fighter.toml")
    path = tmp_path / "plain.toml"
    path.write_text("# every field as the ruleset's defaults have it\n")
    return str(path)


def refused(run, *args: str) -> str:
    """The one line a refusal prints, with nothing appended to the log."""
    before = events_in(run.db) if Path(run.db).exists() else 0
    result = run(*args, ok=False)
    assert (result.exit_code != 0 and result.exception is None) or isinstance(
        result.exception, SystemExit
    ), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    if Path(run.db).exists():
        assert events_in(run.db) == before
    return lines[0]


def forge(fracas: Fracas, statement: str) -> None:
    """SQL as a forger runs it, on either backend: the append-only guards off first."""
    store = fracas.store
    if store.dialect == "sqlite":
        for (name,) in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            store.conn.execute(f"DROP TRIGGER {name}")
    else:
        store.conn.execute("SET session_replication_role = replica")
    store.conn.execute(statement)


def srd_sample(name: str, **changed: Any) -> dict[str, Any]:
    """One of srd's sample sheets as `fracas add --sheet` reads it (the spellbook's effects
    filled in), with `changed` fields over it."""
    text = resources.files("fracas_srd").joinpath(f"samples/{name}.toml").read_text()
    sheet, _unread = load("srd").imported(tomllib.loads(text))
    sheet = {k: v for k, v in sheet.items() if k not in ("name", "side")}  # (who: `add`'s)
    return {**sheet, **changed}
