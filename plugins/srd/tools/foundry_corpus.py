"""Measure the Foundry VTT import on a corpus of dnd5e actors: how many load (read and pass
`check_sheet`), how many match their stated HP and AC, and what is not read.

    python plugins/srd/tools/foundry_corpus.py PATH [PATH ...]

PATH: a folder of actors (`.json` exports, or the `.yml` sources of the dnd5e system's
packs, `packs/_source/heroes` and `packs/_source/monsters`), or a git directory of that
system (its packs are read at HEAD). Nothing is written: the figures go to stdout.
"""

import collections
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from fracas.rules.api import BadInputError

from fracas_srd import foundry
from fracas_srd.ruleset import RULESET

PACKS = ("packs/_source/heroes", "packs/_source/monsters")


def actors(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    if (path / "HEAD").exists() and not (path / "packs").exists():  # a bare git directory
        git = ["git", "-C", str(path)]
        names = subprocess.run(
            [*git, "ls-tree", "-r", "--name-only", "HEAD", *PACKS],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        for name in names:
            if name.endswith((".yml", ".json")):
                text = subprocess.run(
                    [*git, "show", f"HEAD:{name}"], capture_output=True, text=True, check=True
                ).stdout
                yield name, yaml.safe_load(text)
        return
    for file in sorted(path.rglob("*")):
        if file.suffix in (".yml", ".yaml"):
            yield str(file), yaml.safe_load(file.read_text())
        elif file.suffix == ".json":
            yield str(file), json.loads(file.read_text())


def stated(data: dict[str, Any]) -> tuple[int | None, int | None]:
    """The HP and AC the actor states (a monster's maximum, a character's current HP when its
    maximum is left to the Hit Dice, a flat or natural AC); None: none stated."""
    attributes = data["system"]["attributes"]
    hp = (attributes.get("hp") or {}).get("max") or (attributes.get("hp") or {}).get("value")
    ac = attributes.get("ac") or {}
    flat = ac.get("flat") if ac.get("calc") in ("flat", "natural") else None
    return hp, flat


def measure(paths: list[Path]) -> dict[str, Any]:
    tally: collections.Counter[str] = collections.Counter()
    unread: collections.Counter[str] = collections.Counter()
    refused: list[str] = []
    for name, data in (a for p in paths for a in actors(p)):
        if not isinstance(data, dict) or not foundry.is_foundry(data):
            continue
        tally["actors"] += 1
        sheet, lines = foundry.read(data) or ({}, [])
        for line in lines:
            unread[line.split(":", 1)[-1].split("(")[0].strip()[:40]] += 1
        tally["fields not read"] += len(lines)
        try:
            plain = {k: v for k, v in sheet.items() if k not in ("name", "side")}
            RULESET.sheet(plain, name)
        except BadInputError as error:
            refused.append(str(error))
            continue
        tally["loaded"] += 1
        hp, ac = stated(data)
        if hp is not None:
            tally["stated HP"] += 1
            tally["HP matches"] += hp == sheet["hp"]
        if ac is not None:
            tally["stated AC"] += 1
            tally["AC matches"] += ac == sheet["ac"]
    return {
        "figures": dict(tally),
        "refused": refused,
        "most often not read": unread.most_common(12),
    }


if __name__ == "__main__":
    found = measure([Path(arg) for arg in sys.argv[1:]])
    print(json.dumps(found, indent=2))
