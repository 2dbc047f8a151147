"""The bestiary `fracas monsters` lists and `add --monster` adds from: the small one bundled
(monsters written from the SRD 5.1's text), or the file FRACAS_SRD_BESTIARY names (the full
SRD bestiary that tools/convert_5e_database.py builds, as JSON), in the same shape: a
`licence`, an `attribution` and `monsters`, each with its `name`, `cr`, `kind` and `sheet`."""

import json
import os
import tomllib
from importlib import resources
from pathlib import Path

import msgspec
from fracas.rules.api import BadInputError, Bestiary

ENV = "FRACAS_SRD_BESTIARY"
BUNDLED = "bestiary.toml"


def load() -> Bestiary:
    """The bestiary named by FRACAS_SRD_BESTIARY, else the bundled one."""
    path = os.environ.get(ENV)
    where = path or BUNDLED
    try:
        text = (
            Path(path).read_text()
            if path
            else resources.files("fracas_srd").joinpath(BUNDLED).read_text()
        )
        data = json.loads(text) if where.endswith(".json") else tomllib.loads(text)
        return msgspec.convert(data, Bestiary)
    except OSError as error:
        raise BadInputError(f"{ENV}={where}: cannot read it ({error.strerror or error})") from None
    except (ValueError, msgspec.ValidationError) as error:  # TOML's and JSON's errors too
        raise BadInputError(f"{where}: not a bestiary ({error})") from None
