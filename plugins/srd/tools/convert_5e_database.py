"""Convert the SRD 5.1 monsters of the 5e-database data set (its `5e-SRD-Monsters.json`:
MIT code, SRD 5.1 content under CC-BY-4.0) into this plugin's bestiary (JSON), checking
every sheet with the ruleset's `check_sheet`, and print what it measured.

    python plugins/srd/tools/convert_5e_database.py 5e-SRD-Monsters.json bestiary.json
    FRACAS_SRD_BESTIARY=bestiary.json fracas monsters

The bestiary it writes is the GM's own copy: it is not part of this repository.
"""

import collections
import json
import re
import sys
from pathlib import Path
from typing import Any, get_args

from fracas.rules.api import BadInputError

from fracas_srd.reference import ATTRIBUTION
from fracas_srd.ruleset import RULESET
from fracas_srd.sheets import ABILITIES, SKILLS, DamageType, modifier

DAMAGE_TYPES = frozenset(get_args(DamageType))
NAMES = {"strength": "str", "dexterity": "dex", "constitution": "con", "intelligence": "int",
         "wisdom": "wis", "charisma": "cha"}  # fmt: skip
CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated",
              "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned",
              "unconscious")  # fmt: skip
Tally = collections.Counter[str]


def feet(text: str, word: str) -> list[int]:
    found = re.search(rf"{word} (\d+)(?:/(\d+))? ft", text)
    return [int(n) for n in found.groups() if n] if found else []


def split_amount(text: str) -> tuple[str, int]:
    found = re.fullmatch(r"(\d+d\d+)\s*([+-]\s*\d+)?", text.replace(" ", ""))
    if not found:
        return "", 0
    return found[1], int((found[2] or "0").replace(" ", ""))


def weapon(action: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> dict[str, Any] | None:
    parts = action.get("damage") or []
    first = next((p for p in parts if "damage_dice" in p), None)
    if first is None:
        tally["attacks without damage dice"] += 1
        return None
    dice, flat = split_amount(first["damage_dice"])
    kind = (first.get("damage_type") or {}).get("index", "")
    if not dice or kind not in DAMAGE_TYPES:
        tally["attacks not read"] += 1
        return None
    desc, bonus = action.get("desc", ""), int(action["attack_bonus"])
    ranged = desc.startswith("Ranged")
    strength, dexterity = modifier(sheet["str"]), modifier(sheet["dex"])
    made: dict[str, Any] = {"name": action["name"].lower(), "damage": dice, "type": kind}
    used = dexterity if ranged else strength
    if not ranged and bonus == sheet["proficiency"] + dexterity and dexterity > strength:
        made["finesse"], used = True, dexterity
    if bonus != sheet["proficiency"] + used:
        tally["attack bonuses the sheet does not give"] += 1
    if flat != used:
        made["damage"] = dice + f"{flat - used:+d}" if flat - used else dice
    if ranged:
        made["ranged"] = True
    if reach := feet(desc, "reach"):
        made["reach"] = min(30, max(5, reach[0]))
    if span := feet(desc, "range"):
        made["range"] = span + [span[0]] * (2 - len(span))
    if len([p for p in parts if "damage_dice" in p]) > 1:
        tally["attacks with a second damage not kept"] += 1
    return made


def ability_for(sheet: dict[str, Any], dc: int) -> str | None:
    """srd-M5: the ability whose DC (8 + proficiency + modifier) is the stated one."""
    for ability in ("con", "cha", "wis", "int", "str", "dex"):
        if 8 + sheet["proficiency"] + modifier(sheet[ability]) == dc:
            return ability
    return None


def save_ability(action: dict[str, Any], sheet: dict[str, Any], tally: Tally):
    dc = action["dc"]
    ability = ability_for(sheet, int(dc["dc_value"]))
    if ability is None:
        tally["save DCs no ability gives"] += 1
    spell: dict[str, Any] = {"name": action["name"].lower(), "save": dc["dc_type"]["index"]}
    if ability:
        spell["ability"] = ability
    desc = action.get("desc", "")
    parts = [p for p in action.get("damage") or [] if "damage_dice" in p]
    if parts:
        spell["damage"] = parts[0]["damage_dice"].replace(" ", "")
        kind = (parts[0].get("damage_type") or {}).get("index", "")
        spell["type"] = kind if kind in DAMAGE_TYPES else "force"
        spell["half"] = "half as much" in desc
    condition = next((c for c in CONDITIONS if re.search(rf"\b{c}\b", desc)), "")
    if condition:
        spell["condition"] = condition
        if "1 minute" in desc:
            spell["rounds"] = 10
        spell["save_ends"] = "at the end of each of its turns" in desc
    usage = action.get("usage") or {}
    if usage.get("type") == "recharge on roll":
        spell["recharge"] = int(usage.get("min_value") or 6)
    return spell


def actions_of(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    weapons, spells, multi = [], [], []
    for action in monster.get("actions") or []:
        if "attack_bonus" in action:
            if made := weapon(action, sheet, tally):
                weapons.append(made)
        elif "dc" in action and "dc_type" in action["dc"]:
            spells.append(save_ability(action, sheet, tally))
        elif action.get("multiattack_type") == "actions":
            multi = [
                (a["action_name"].lower(), int(a["count"]) if str(a.get("count")).isdigit() else 1)
                for a in action.get("actions") or []
            ]
    names = {w["name"] for w in weapons}
    sheet["multiattack"] = [name for name, n in multi if name in names for _ in range(n)]
    if any(name not in names for name, _ in multi):
        tally["multiattack parts that are not attacks"] += 1
    sheet["weapons"], sheet["spells"] = weapons, spells


def legendary_of(monster: dict[str, Any], sheet: dict[str, Any]) -> None:
    options = []
    for action in monster.get("legendary_actions") or []:
        cost = re.search(r"\(Costs (\d) Actions\)", action["name"])
        name = re.sub(r"\s*\(Costs \d Actions\)", "", action["name"]).lower()
        option: dict[str, Any] = {"name": name, "cost": int(cost[1]) if cost else 1}
        attacks = re.search(r"makes an? (\w+) attack", action.get("desc", ""))
        if attacks and attacks[1].lower() in {w["name"] for w in sheet["weapons"]}:
            option["weapon"] = attacks[1].lower()
        options.append(option)
    if options:
        sheet["legendary_actions"], sheet["legendary"] = 3, options
    for ability in monster.get("special_abilities") or []:
        if ability["name"].startswith("Legendary Resistance"):
            sheet["legendary_resistance"] = int((ability.get("usage") or {}).get("times") or 3)
        if ability["name"] == "Pack Tactics":
            sheet["pack_tactics"] = True


def convert(monster: dict[str, Any], tally: Tally) -> dict[str, Any]:
    sheet: dict[str, Any] = {"monster": True, "cr": float(monster["challenge_rating"])}
    sheet |= {NAMES[a]: int(monster[a]) for a in NAMES}
    sheet["proficiency"] = int(monster.get("proficiency_bonus") or 2)
    sheet["size"] = monster["size"].lower()
    sheet["ac"] = int(monster["armor_class"][0]["value"])
    sheet["hp"] = max(1, int(monster["hit_points"]))
    walk = (monster.get("speed") or {}).get("walk", "0 ft.")
    sheet["speed"] = int(re.match(r"\d+", walk)[0]) if re.match(r"\d+", walk) else 0
    given = [p["proficiency"]["index"] for p in monster.get("proficiencies") or []]
    sheet["saves"] = [i.removeprefix("saving-throw-") for i in given if i.startswith("saving")]
    sheet["skills"] = [
        i.removeprefix("skill-").replace("-", " ")
        for i in given
        if i.startswith("skill-") and i.removeprefix("skill-").replace("-", " ") in SKILLS
    ]
    for field, key in (("resistances", "damage_resistances"),
                       ("immunities", "damage_immunities"),
                       ("vulnerabilities", "damage_vulnerabilities")):  # fmt: skip
        listed = monster.get(key) or []
        sheet[field] = [t for t in listed if t in DAMAGE_TYPES]
        tally["damage traits kept as phrases, not read"] += len(listed) - len(sheet[field])
    tally["condition immunities (none on the sheet)"] += len(
        monster.get("condition_immunities") or []
    )
    actions_of(monster, sheet, tally)
    legendary_of(monster, sheet)
    kind = f"{monster['size'].lower()} {monster['type']}"
    if monster.get("subtype"):
        kind += f" ({monster['subtype']})"
    return {"name": monster["name"], "cr": sheet["cr"], "kind": kind, "sheet": sheet}


def main(source: str, target: str) -> dict[str, Any]:
    tally: Tally = collections.Counter()
    monsters, refused = [], []
    for monster in json.loads(Path(source).read_text(encoding="utf-8")):
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


assert set(ABILITIES) == set(NAMES.values())

if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2]), indent=2))
