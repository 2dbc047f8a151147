"""A Foundry VTT dnd5e actor ("Export Data" JSON) read as this ruleset's sheet.

Recognised by its content (a `system` with `abilities` and `attributes`, of type character
or npc): abilities and saves, level and class (hit points from the Hit Dice when the export
leaves `max` empty, srd-58), AC from the equipped armour and shield (or the flat or natural
value), skills, weapons with their damage, spells with their slots, resistances, and a
monster's challenge, legendary and lair actions and recharging breath, and the class
features srd plays by the class and its levels. What it cannot read is named in one line each
(a feature it does not play too; its unused gear in one line), and the sheet still loads.
"""

import re
from typing import Any, get_args

from fracas_srd.sheets import (
    ABILITIES,
    SKILLS,
    DamageType,
    levelled,
    modifier,
    proficiency_for,
)

Unread = list[str]
DAMAGE_TYPES = frozenset(get_args(DamageType))
SIZES = {"tiny": "tiny", "sm": "small", "med": "medium", "lg": "large", "huge": "huge",
         "grg": "gargantuan"}  # fmt: skip
SKILL_CODES = {
    "acr": "acrobatics", "ani": "animal handling", "arc": "arcana", "ath": "athletics",
    "dec": "deception", "his": "history", "ins": "insight", "itm": "intimidation",
    "inv": "investigation", "med": "medicine", "nat": "nature", "prc": "perception",
    "prf": "performance", "per": "persuasion", "rel": "religion", "slt": "sleight of hand",
    "ste": "stealth", "sur": "survival",
}  # fmt: skip
# Spell slots by caster level (the SRD's Spellcasting tables: a full caster's).
FULL_CASTER = [
    [], [2], [3], [4, 2], [4, 3], [4, 3, 2], [4, 3, 3], [4, 3, 3, 1], [4, 3, 3, 2],
    [4, 3, 3, 3, 1], [4, 3, 3, 3, 2], [4, 3, 3, 3, 2, 1], [4, 3, 3, 3, 2, 1],
    [4, 3, 3, 3, 2, 1, 1], [4, 3, 3, 3, 2, 1, 1], [4, 3, 3, 3, 2, 1, 1, 1],
    [4, 3, 3, 3, 2, 1, 1, 1], [4, 3, 3, 3, 2, 1, 1, 1, 1], [4, 3, 3, 3, 3, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 1, 1, 1], [4, 3, 3, 3, 3, 2, 2, 1, 1],
]  # fmt: skip
AMOUNT = re.compile(r"(\d*d\d+)?([+-]?\d+)?")  # what srd's amounts read: 2d6+3, 1d8, 4
NO_SLOT = ("innate", "atwill")  # Foundry's spells cast without a slot
CASTING = {"action": "action", "bonus": "bonus", "reaction": "reaction"}
ARMOUR = ("light", "medium", "heavy", "natural")
BUILD = ("class", "subclass", "race", "species", "background")  # read through `system`
READ_ELSEWHERE = ("spell",)  # spells() names those it leaves out
DEX_CAP = {"light": None, "medium": 2, "heavy": 0, "natural": None}
# Extra Attack (the SRD's classes): attacks per Attack action from a class's own levels.
EXTRA_ATTACK = {
    "fighter": ((20, 4), (11, 3), (5, 2)), "barbarian": ((5, 2),), "monk": ((5, 2),),
    "paladin": ((5, 2),), "ranger": ((5, 2),),
}  # fmt: skip
# The feature as an export may carry it (a valor bard's too): the attacks it gives.
EXTRA_ATTACK_FEATS = {
    "extra attack": 2, "extra attack (2)": 3, "two extra attacks": 3,
    "extra attack (3)": 4, "three extra attacks": 4,
}  # fmt: skip
# The features an export may carry that srd plays, as its sheet writes them.
PLAYED_FEATS: dict[str, dict[str, Any]] = {
    "second wind": {"name": "second wind", "heals": "1d10"},  # + its level
    "cunning action": {"name": "cunning action", "bonus_actions": ["dash", "disengage", "hide"]},
    "uncanny dodge": {"name": "uncanny dodge", "trigger": "hit", "halves": True},  # srd-40
    "nimble escape": {"name": "nimble escape", "bonus_actions": ["disengage", "hide"]},
}
# The SRD's class features by the class level that grants them: those srd plays come from
# the class and its levels (an export need not carry their items); the rest are named. Extra
# Attack is read by `attacks`, spellcasting by `spells`; Ability Score Improvements are in
# the scores.
CLASS_FEATURES: dict[str, tuple[tuple[int, str], ...]] = {
    "fighter": ((1, "Fighting Style"), (1, "Second Wind"), (2, "Action Surge"),
                (3, "Martial Archetype"), (9, "Indomitable")),
    "rogue": ((1, "Expertise"), (1, "Sneak Attack"), (1, "Thieves' Cant"),
              (2, "Cunning Action"), (3, "Roguish Archetype"), (5, "Uncanny Dodge"),
              (7, "Evasion"), (11, "Reliable Talent"), (14, "Blindsense"),
              (15, "Slippery Mind"), (18, "Elusive"), (20, "Stroke of Luck")),
}  # fmt: skip


def is_foundry(data: dict[str, Any]) -> bool:
    system = data.get("system")
    return (
        isinstance(system, dict)
        and isinstance(system.get("abilities"), dict)
        and isinstance(system.get("attributes"), dict)
        and data.get("type") in ("character", "npc")
    )


def read(data: dict[str, Any]) -> tuple[dict[str, Any], Unread] | None:
    """The sheet of a Foundry actor and what it could not read; None for any other data."""
    if not is_foundry(data):
        return None
    system, items = data["system"], [i for i in data.get("items", []) if isinstance(i, dict)]
    unread: Unread = []
    sheet: dict[str, Any] = {"name": str(data.get("name", ""))}
    sheet |= abilities(system)
    monster = data["type"] == "npc"
    level, hit_die = classes(items)
    if monster:
        sheet |= {"monster": True, "cr": challenge(system), "creature_type": kind(system)}
    else:
        sheet |= {"level": level, "hit_die": hit_die}
        sheet["side"] = "pc"
    sheet["attacks"] = attacks(items)
    sheet["hp"] = hit_points(system, sheet, items, unread)
    sheet |= wounds(system, sheet, unread)
    sheet["ac"] = armour_class(system, sheet, items, unread)
    sheet["wears_armour"] = wears_armour(items) or None
    sheet["holds_shield"] = holds_shield(items) or None
    sheet |= traits(system, unread)
    sheet["weapons"] = weapons(items, unread)
    sheet["features"] = features(items, unread)
    sheet |= spells(system, sheet, items, unread)
    sheet |= spent(system, sheet, items, unread)
    sheet |= legendary(system, sheet, items)
    unread += left_out(system, items, {f["name"] for f in sheet["features"]})
    return {k: v for k, v in sheet.items() if v not in ([], None)}, unread


def named(item: dict[str, Any]) -> str:
    return str(item.get("name", "")).lower()


def features(items: list[dict[str, Any]], unread: Unread) -> list[dict[str, Any]]:
    """The features srd plays that the class items' levels grant (a fighter's Second Wind, a
    rogue's Sneak Attack dice, Cunning Action, Uncanny Dodge), then those the export carries
    as items without a class granting them (a goblin's Nimble Escape); a class feature srd
    does not play is named, one line each, unless the export carries its item (then
    `left_out` names it)."""
    feats = [named(i) for i in items if i.get("type") == "feat"]
    found: list[dict[str, Any]] = []
    for item in items:
        if item.get("type") != "class":
            continue
        cls, levels = class_of(item), int(item["system"].get("levels") or 0)
        table = CLASS_FEATURES.get(cls)
        if table is None and levels:
            unread.append(f"{cls} {levels}: its class features are not read, bar spells "
                          "and extra attacks (the GM plays them)")  # fmt: skip
        for at, feature in table or ():
            made = granted(feature.lower(), levels) if levels >= at else None
            if made is not None:
                found.append(made)
            elif levels >= at and not carried(feature.lower(), feats):
                unread.append(f"{cls} {levels}: {feature} (the GM plays it)")
    names = {f["name"] for f in found}
    return found + [PLAYED_FEATS[n] for n in dict.fromkeys(feats)
                    if n in PLAYED_FEATS and n not in names]  # fmt: skip


def granted(feature: str, levels: int) -> dict[str, Any] | None:
    """The feature as srd plays it at these class levels: Sneak Attack's d6s, a rogue's
    half level rounded up (srd-36); None for one srd does not play."""
    if feature == "sneak attack":
        return {"name": "sneak attack", "extra": f"{(levels + 1) // 2}d6", "sneak": True}
    return PLAYED_FEATS.get(feature)


def carried(feature: str, feats: list[str]) -> bool:
    """Whether the export carries the feature's item ("Fighting Style: Defense")."""
    return any(f == feature or f.startswith((f"{feature}:", f"{feature} (")) for f in feats)


def attacks(items: list[dict[str, Any]]) -> int | None:
    """Attacks per Attack action: the most a class's levels or an Extra Attack feature give
    (they do not add up); None: the one of every creature."""
    found = [EXTRA_ATTACK_FEATS.get(str(i.get("name", "")).lower(), 1)
             for i in items if i.get("type") == "feat"]  # fmt: skip
    for item in items:
        if item.get("type") == "class":
            levels = int(item["system"].get("levels") or 0)
            table = EXTRA_ATTACK.get(class_of(item), ())
            found += [n for at, n in table if levels >= at][:1]
    most = max(found, default=1)
    return most if most > 1 else None


def class_of(item: dict[str, Any]) -> str:
    """A class item's class: its `identifier` ("fighter"), else its name."""
    return str(item["system"].get("identifier") or item.get("name", "")).lower()


def abilities(system: dict[str, Any]) -> dict[str, Any]:
    found = system["abilities"]
    scores = {a: int(found.get(a, {}).get("value") or 10) for a in ABILITIES}
    saves = [a for a in ABILITIES if (found.get(a) or {}).get("proficient")]
    skills = [
        SKILL_CODES[code]
        for code, skill in (system.get("skills") or {}).items()
        if code in SKILL_CODES and (skill or {}).get("value", 0) >= 1
    ]
    speed = ((system["attributes"].get("movement") or {}).get("walk")) or 30
    size = SIZES.get((system.get("traits") or {}).get("size", "med"), "medium")
    return {**scores, "saves": saves, "skills": skills, "speed": int(speed), "size": size}


def classes(items: list[dict[str, Any]]) -> tuple[int, int]:
    """(level, the sides of the Hit Dice of the class with the most levels)."""
    found = [i["system"] for i in items if i.get("type") == "class"]
    level = sum(int(c.get("levels") or 0) for c in found)
    main = max(found, key=lambda c: int(c.get("levels") or 0), default={})
    return level, die_of(main)


def die_of(cls: dict[str, Any]) -> int:
    hd = cls.get("hd") if isinstance(cls.get("hd"), dict) else {}
    text = str(hd.get("denomination") or cls.get("hitDice") or "d8")
    return int(text.lstrip("d") or 8)


def challenge(system: dict[str, Any]) -> float:
    cr = (system.get("details") or {}).get("cr") or 0
    return float(cr)


def hit_points(
    system: dict[str, Any], sheet: dict[str, Any], items: list[dict[str, Any]], unread: Unread
) -> int:
    """The stated maximum; else by the Hit Dice: the die's maximum at first level and its
    average (rounded up) after, each with the Constitution modifier (srd-58)."""
    hp = system["attributes"].get("hp") or {}
    if hp.get("max"):
        return int(hp["max"])
    con = modifier(sheet["con"])
    total = 0
    for n, cls in enumerate(c["system"] for c in items if c.get("type") == "class"):
        die, levels = die_of(cls), int(cls.get("levels") or 0)
        if levels:
            first = die if n == 0 else die // 2 + 1
            total += first + (levels - 1) * (die // 2 + 1) + levels * con
    if (hp.get("bonuses") or {}).get("level") or (hp.get("bonuses") or {}).get("overall"):
        unread.append(f"hit point bonuses {hp['bonuses']}: not added")
    return max(1, total or int(hp.get("value") or 1))


def wounds(system: dict[str, Any], sheet: dict[str, Any], unread: Unread) -> dict[str, Any]:
    """The hit points the actor was saved with, when fewer than its maximum (`hp_now`), and
    its temporary ones: a character exported wounded comes in wounded. (A summon's 0 of a
    maximum of 0 states no hit points at all: it is not down.)"""
    hp = system["attributes"].get("hp") or {}
    now, temp, most = hp.get("value"), int(hp.get("temp") or 0), sheet["hp"]
    found: dict[str, Any] = {"temp_hp": temp} if temp > 0 else {}
    stated = bool(hp.get("max") or sheet.get("level"))
    if now is not None and int(now) <= 0 and stated:
        unread.append("hit points 0 (down): comes in at its maximum; harm it by hand")
    if now is not None and 0 < int(now) < most:
        found["hp_now"] = int(now)
    return found


def armour_class(
    system: dict[str, Any], sheet: dict[str, Any], items: list[dict[str, Any]], unread: Unread
) -> int:
    ac = system["attributes"].get("ac") or {}
    calc, dex = ac.get("calc", "default"), modifier(sheet["dex"])
    if calc in ("flat", "natural") and ac.get("flat"):
        return int(ac["flat"])
    if calc == "mage":
        return 13 + dex
    if calc == "unarmoredMonk":
        return 10 + dex + modifier(sheet["wis"])
    if calc == "unarmoredBarb":
        return 10 + dex + modifier(sheet["con"])
    if calc not in ("default", "flat", "natural"):
        unread.append(f"AC calculated as {calc!r} ({ac.get('formula', '')}): read from armour")
    return worn_armour(items, dex)


def worn_armour(items: list[dict[str, Any]], dex: int) -> int:
    base, shield = 10 + dex, 0
    for item in items:
        sys = item.get("system") or {}
        if item.get("type") != "equipment" or not sys.get("equipped"):
            continue
        kind = (sys.get("type") or {}).get("value")
        armour = sys.get("armor") or {}
        value = int(armour.get("value") or 0) + int(armour.get("magicalBonus") or 0)
        if kind == "shield":
            shield = max(shield, value)
        elif kind in ARMOUR:
            cap = armour.get("dex")
            cap = DEX_CAP[kind] if cap in (None, "") else int(cap)
            base = value + (dex if cap is None else min(dex, cap))
    return base + shield


def holds_shield(items: list[dict[str, Any]]) -> bool:
    """A shield equipped: a hand that holds it is not free to grapple with (srd-20)."""
    return any(
        item.get("type") == "equipment"
        and (item.get("system") or {}).get("equipped")
        and ((item.get("system") or {}).get("type") or {}).get("value") == "shield"
        for item in items
    )


def wears_armour(items: list[dict[str, Any]]) -> bool:
    """Body armour equipped (light, medium or heavy; not a shield, not natural armour)."""
    return any(
        item.get("type") == "equipment"
        and (item.get("system") or {}).get("equipped")
        and ((item.get("system") or {}).get("type") or {}).get("value") in ARMOUR[:3]
        for item in items
    )


def traits(system: dict[str, Any], unread: Unread) -> dict[str, Any]:
    found = system.get("traits") or {}
    read_as = {"dr": "resistances", "di": "immunities", "dv": "vulnerabilities"}
    sheet: dict[str, Any] = {}
    for code, field in read_as.items():
        given = list((found.get(code) or {}).get("value") or [])
        sheet[field] = [t for t in given if t in DAMAGE_TYPES]
        if [t for t in given if t not in DAMAGE_TYPES]:
            unread.append(f"{field}: {', '.join(t for t in given if t not in DAMAGE_TYPES)}")
        if (found.get(code) or {}).get("custom"):
            unread.append(f"{field}: {found[code]['custom']!r}")
    conditions = found.get("ci") or {}
    sheet["condition_immunities"] = list(conditions.get("value") or [])  # srd-61
    if conditions.get("custom"):
        unread.append(f"condition immunities: {conditions['custom']!r}")
    return sheet


def dice(part: dict[str, Any]) -> tuple[str, bool]:
    """A Foundry damage part as `2d6+3`, and whether it adds the ability modifier (@mod)."""
    number, sides = part.get("number"), part.get("denomination")
    text = f"{number or 1}d{sides}" if sides else ""
    bonus = str(part.get("bonus") or "").replace(" ", "")
    if re.fullmatch(r"[+-]?\d+", bonus):
        text += f"{int(bonus):+d}" if text else str(int(bonus))
    custom = part.get("custom") or {}
    formula = str(custom.get("formula") or "").replace(" ", "")
    if custom.get("enabled") and AMOUNT.fullmatch(formula):
        text = formula
    elif custom.get("enabled"):
        text = ""  # a formula of Foundry's own (@scale..., @item.level): the caller names it
    return text, "@mod" in bonus


def kind_of(part: dict[str, Any], default: str) -> str:
    found = [t for t in part.get("types") or [] if t in DAMAGE_TYPES]
    return found[0] if found else default


def activity(item: dict[str, Any]) -> dict[str, Any]:
    """The item's first activity (Foundry 4+), or {}."""
    found = (item.get("system") or {}).get("activities") or {}
    return next(iter(found.values()), {}) if isinstance(found, dict) else {}


def weapons(items: list[dict[str, Any]], unread: Unread) -> list[dict[str, Any]]:
    found = []
    for item in items:
        sys = item.get("system") or {}
        if item.get("type") != "weapon" or activity(item).get("type", "attack") != "attack":
            continue
        base = (sys.get("damage") or {}).get("base") or {}
        damage, _ = dice(base)
        if not damage:
            unread.append(f"{item['name']}: no damage dice read")
            continue
        found.append(weapon(item, sys, base, damage, unread))
    return found


def weapon(
    item: dict[str, Any], sys: dict[str, Any], base: dict[str, Any], damage: str, unread: Unread
) -> dict[str, Any]:
    properties = set(sys.get("properties") or [])
    attack = activity(item).get("attack") or {}
    kind = (sys.get("type") or {}).get("value", "")
    ranged = kind.endswith("R") or (attack.get("type") or {}).get("value") == "ranged"
    reach_range = sys.get("range") or {}
    made: dict[str, Any] = {
        "name": item["name"].lower(),
        "damage": damage,
        "type": kind_of(base, "bludgeoning"),
        "ranged": ranged,
        "finesse": "fin" in properties or attack.get("ability") == "dex",
        "light": "lgt" in properties,
        "magic": int(sys.get("magicalBonus") or 0),
    }
    if reach_range.get("value") and (ranged or "thr" in properties):
        made["range"] = [int(reach_range["value"]), int(reach_range.get("long") or 0)]
    reach = int(reach_range.get("reach") or (10 if "rch" in properties else 5))
    made["reach"] = min(30, max(5, reach - reach % 5))
    for part in (activity(item).get("damage") or {}).get("parts") or []:
        more, _ = dice(part)
        unread.append(f"{item['name']}: {more} {kind_of(part, '')} more on a hit: not added")
    return made


def caster_level(system: dict[str, Any], items: list[dict[str, Any]]) -> int:
    level = int((system.get("details") or {}).get("spellLevel") or 0)
    for cls in (i["system"] for i in items if i.get("type") == "class"):
        progression = (cls.get("spellcasting") or {}).get("progression", "none")
        levels = int(cls.get("levels") or 0)
        level += {"full": levels, "half": levels // 2, "third": levels // 3}.get(progression, 0)
    return min(level, 20)


def slots_of(system: dict[str, Any], items: list[dict[str, Any]]) -> list[int]:
    """By the caster level's table, a level's `override` over it; a warlock's pact slots
    at their level."""
    slots = list(FULL_CASTER[caster_level(system, items)])
    given = system.get("spells") or {}
    for level in range(1, 10):
        override = (given.get(f"spell{level}") or {}).get("override")
        if override is not None:
            slots += [0] * (level - len(slots))
            slots[level - 1] = int(override)
    warlock = sum(
        int(c["system"].get("levels") or 0)
        for c in items
        if c.get("type") == "class"
        and (c["system"].get("spellcasting") or {}).get("progression") == "pact"
    )
    if warlock:
        pact = min(5, (warlock + 1) // 2)
        slots += [0] * (pact - len(slots))
        slots[pact - 1] += 1 if warlock == 1 else 2 if warlock < 11 else 3 if warlock < 17 else 4
    while slots and not slots[-1]:
        slots.pop()
    return slots


def spells(
    system: dict[str, Any], sheet: dict[str, Any], items: list[dict[str, Any]], unread: Unread
) -> dict[str, Any]:
    slots = slots_of(system, items)
    ability = system["attributes"].get("spellcasting") or next(
        (
            (c["system"].get("spellcasting") or {}).get("ability")
            for c in items
            if c.get("type") == "class" and (c["system"].get("spellcasting") or {}).get("ability")
        ),
        None,
    )
    found = []
    for item in items:
        if item.get("type") == "spell":
            made = spell(item, sheet, slots, unread)
        elif item.get("type") == "feat" and recharge_of(item):
            made = spell(item, sheet, [9] * 9, unread)  # a monster's breath: no slot
            if made is not None and not told_magic(item):
                made["magic"] = False  # Magic Resistance does not help against it (srd-63)
        else:
            continue
        if made is not None:
            found.append(made)
    has_spells = [s for s in found if not s.get("recharge")]
    read = {"spells": found, "slots": slots if has_spells else []}
    if has_spells and ability in ABILITIES:
        read["spellcasting"] = ability
    return read


def spent(
    system: dict[str, Any], sheet: dict[str, Any], items: list[dict[str, Any]], unread: Unread
) -> dict[str, Any]:
    """What the actor had spent when it was saved, Foundry keeping what is left: spell
    slots (`spells.spellN.value`) and Hit Dice (a class's `hd.spent`, or `hitDiceUsed`);
    its exhaustion, a condition, is named as not read."""
    given = system.get("spells") or {}
    slots = sheet.get("slots") or []
    left = [(given.get(f"spell{n + 1}") or {}).get("value") for n in range(len(slots))]
    used = [
        max(0, most - int(now)) if now is not None else 0
        for most, now in zip(slots, left, strict=True)
    ]
    while used and not used[-1]:
        used.pop()
    classes = [c["system"] for c in items if c.get("type") == "class"]
    dice = sum(int((c.get("hd") or {}).get("spent") or c.get("hitDiceUsed") or 0) for c in classes)
    exhaustion = int(system["attributes"].get("exhaustion") or 0)
    if exhaustion:
        unread.append(f"exhaustion {exhaustion}: not read; set it with `fracas condition set`")
    found: dict[str, Any] = {"slots_spent": used} if used else {}
    return found | ({"hit_dice_spent": min(dice, sheet.get("level", 0))} if dice else {})


def kind(system: dict[str, Any]) -> str:
    """A monster's creature type ("monstrosity"), which a spell such as hold person reads;
    "" where the export names none (a humanoid's, as a sheet without one)."""
    found = (system.get("details") or {}).get("type") or {}
    value = found.get("value") if isinstance(found, dict) else found
    return str(value or "").lower()


def told_magic(item: dict[str, Any]) -> bool:
    """A monster's feature its description calls magic ("against this magic")."""
    described = ((item.get("system") or {}).get("description") or {}).get("value") or ""
    return "magic" in str(described).lower()


def recharge_of(item: dict[str, Any]) -> int:
    recovery = ((item.get("system") or {}).get("uses") or {}).get("recovery") or []
    for entry in recovery:
        if isinstance(entry, dict) and entry.get("period") == "recharge":
            return int(entry.get("formula") or 6)
    return 0


def spell(
    item: dict[str, Any], sheet: dict[str, Any], slots: list[int], unread: Unread
) -> dict[str, Any] | None:
    sys, act = item.get("system") or {}, activity(item)
    name, level = item["name"].lower(), int(sys.get("level") or 0)
    casting = (act.get("activation") or sys.get("activation") or {}).get("type", "action")
    if casting not in CASTING:
        unread.append(f"{item['name']}: cast in {casting}, not in a fight: left out")
        return None
    mode = (sys.get("preparation") or {}).get("mode", "")
    if level and mode in NO_SLOT:
        unread.append(f"{item['name']}: cast {mode} without a slot: left out")
        return None
    if level and not any(slots[level - 1 :]):
        unread.append(f"{item['name']}: {levelled(level, 'spell')} with no slot for it: left out")
        return None
    made: dict[str, Any] = {"name": name, "level": level, "casting": CASTING[casting]}
    made |= effect_of(item, act, sheet, unread)
    if recharge := recharge_of(item):
        made["recharge"] = recharge
    return made


def effect_of(
    item: dict[str, Any], act: dict[str, Any], sheet: dict[str, Any], unread: Unread
) -> dict[str, Any]:
    made: dict[str, Any] = {}
    kind = act.get("type", "utility")
    parts = (act.get("damage") or {}).get("parts") or []
    if kind == "heal":
        amount, add = dice(act.get("healing") or {})
        if not amount:
            unread.append(f"{item['name']}: its healing {act.get('healing')} is not read")
        return {"heal": amount, "add_modifier": add} if amount else {}
    if kind == "attack":
        made["attack"] = (((act.get("attack") or {}).get("type")) or {}).get("value", "ranged")
    if kind == "save":
        made |= save_of(item, act, sheet, unread)
    if parts:
        amount, add = dice(parts[0])
        if not amount:
            unread.append(f"{item['name']}: its damage {parts[0].get('custom')} is not read")
        made |= {"damage": amount, "type": kind_of(parts[0], "force"), "add_modifier": add}
        scaling = parts[0].get("scaling") or {}
        if scaling.get("number") and int((item.get("system") or {}).get("level") or 0):
            made["upcast"] = f"{scaling['number']}d{parts[0].get('denomination')}"
    if kind not in ("attack", "save", "damage", "heal", "utility"):
        unread.append(f"{item['name']}: its {kind} is not read (cast, it does nothing)")
    return {k: v for k, v in made.items() if v not in ("", False)}


def save_of(
    item: dict[str, Any], act: dict[str, Any], sheet: dict[str, Any], unread: Unread
) -> dict[str, Any]:
    save = act.get("save") or {}
    ability = save.get("ability")
    ability = ability[0] if isinstance(ability, list) and ability else ability
    if ability not in ABILITIES:
        return {}
    made: dict[str, Any] = {"save": ability}
    if (act.get("damage") or {}).get("onSave") == "half":
        made["half"] = True
    formula = str((save.get("dc") or {}).get("formula") or "")
    if formula.isdigit():  # a monster's fixed DC: the ability that gives it (srd-M5)
        bonus = proficiency_for(max(sheet.get("cr", 0), sheet.get("level", 0)))
        found = [a for a in ABILITIES if 8 + bonus + modifier(sheet[a]) == int(formula)]
        if found:
            made["ability"] = found[0]
        else:
            unread.append(f"{item['name']}: DC {formula} is no ability's DC: the caster's used")
    return made


def left_out(system: dict[str, Any], items: list[dict[str, Any]], played: set[str]) -> Unread:
    """The features (one line each) and the gear (one line) no part of the sheet reads:
    the GM plays them. `played`: the features the sheet was given."""
    unused = [i for i in items if not used(system, i) and named(i) not in played]
    gear = [str(i["name"]) for i in unused if i.get("type") != "feat"]
    lines = [f"feature {i['name']} (the GM plays it)" for i in unused
             if i.get("type") == "feat"]  # fmt: skip
    return lines + ([f"items {', '.join(gear)}"] if gear else [])


def used(system: dict[str, Any], item: dict[str, Any]) -> bool:
    """Whether the sheet is made of this item: a class, armour, a weapon's attack, a spell,
    a recharging ability, a legendary or lair action, the legendary resistance."""
    kind, sys = item.get("type"), item.get("system") or {}
    activation = (activity(item).get("activation") or {}).get("type")
    if kind in BUILD or kind in READ_ELSEWHERE or activation in ("legendary", "lair"):
        return True
    if kind == "weapon":
        return activity(item).get("type", "attack") == "attack"
    if kind == "equipment":
        return (sys.get("type") or {}).get("value") in (*ARMOUR, "shield")
    resisted = int((((system.get("resources") or {}).get("legres")) or {}).get("max") or 0)
    named = str(item.get("name", "")).lower()
    return kind == "feat" and (
        bool(recharge_of(item))
        or named in EXTRA_ATTACK_FEATS
        or named in PLAYED_FEATS
        or (resisted > 0 and named.startswith("legendary resistance"))
    )


def legendary(system: dict[str, Any], sheet: dict[str, Any], items: list[dict[str, Any]]):
    resources = system.get("resources") or {}
    actions = int((resources.get("legact") or {}).get("max") or 0)
    names = {w["name"] for w in sheet["weapons"]}
    options, lair = [], []
    for item in items:
        activation = (activity(item).get("activation") or {}) or {}
        name = item["name"].lower()
        if activation.get("type") == "legendary" and actions:
            cost = min(3, int(activation.get("value") or 1))
            option: dict[str, Any] = {"name": name, "cost": cost}
            weapon = name.removesuffix(" attack")
            if weapon in names:
                option["weapon"] = weapon
            options.append(option)
        elif activation.get("type") == "lair":
            lair.append({"name": name})
    return {
        "legendary_actions": actions,
        "legendary": options,
        "legendary_resistance": int((resources.get("legres") or {}).get("max") or 0),
        "lair": lair,
    }


__all__ = ["SKILLS", "is_foundry", "read"]
