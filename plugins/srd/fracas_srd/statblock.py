"""A monster's sheet read as the SRD writes a stat block (`fracas monsters NAME --show`):
its defences and abilities, then its actions with their numbers worked out as the rules
roll them (to hit, damage, save DCs), its legendary and lair actions."""

from typing import Any

import msgspec
from fracas.rules.api import Modifier

from fracas_srd.attacks import ability_for, attack_modifiers
from fracas_srd.checks import passive_perception, save_modifiers, skill_modifiers
from fracas_srd.sheets import (
    ABILITIES,
    ORDINALS,
    Feature,
    Rider,
    Sheet,
    Spell,
    Weapon,
    parse_amount,
)
from fracas_srd.state import Fighter

Lines = list[tuple[str, str]]
NAMES = {"str": "Strength", "dex": "Dexterity", "con": "Constitution", "int": "Intelligence",
         "wis": "Wisdom", "cha": "Charisma"}  # fmt: skip


def stat_block(sheet: dict[str, Any]) -> Lines:
    f = fighter_of(msgspec.convert(sheet, Sheet))
    s = f.sheet
    return [*defences(f), *traits(s), *spellcasting(f), *actions(f), *reactions(s), *legendary(s)]


def fighter_of(sheet: Sheet) -> Fighter:
    """The monster as it would join a fight: what the rules' numbers are read from."""
    return Fighter("", "", "npc", sheet, 0, sheet.hp, sheet.hp)


def total(mods: list[Modifier]) -> int:
    return sum(m.value for m in mods)


def defences(f: Fighter) -> Lines:
    s = f.sheet
    scores = "  ".join(f"{a.upper()} {s.score(a)} ({s.mod(a):+d})" for a in ABILITIES)
    lines = [("Alignment", s.alignment)] if s.alignment else []
    lines += [("Armor Class", str(s.ac)), ("Hit Points", hit_points(s)),
              ("Speed", speeds(s)), ("Abilities", scores)]  # fmt: skip
    if s.saves:
        saves = [f"{a.capitalize()} {total(save_modifiers(f, a)):+d}" for a in s.saves]
        lines.append(("Saving Throws", ", ".join(saves)))
    if s.skills:
        lines.append(
            (
                "Skills",
                ", ".join(
                    f"{k.capitalize()} {total(skill_modifiers(f, k.lower())):+d}" for k in s.skills
                ),
            )
        )
    for label, own, nonmagical in (
        ("Damage Vulnerabilities", s.vulnerabilities, []),
        ("Damage Resistances", s.resistances, s.nonmagical_resistances),
        ("Damage Immunities", s.immunities, s.nonmagical_immunities),
    ):
        said = [", ".join(own)] if own else []
        if nonmagical:
            said.append(f"{', '.join(nonmagical)} from nonmagical attacks")
        if said:
            lines.append((label, "; ".join(said)))
    if s.condition_immunities:
        lines.append(("Condition Immunities", ", ".join(s.condition_immunities)))
    senses = [*s.senses, f"passive Perception {passive_perception(f)}"]
    lines.append(("Senses", ", ".join(senses)))
    if s.languages:
        lines.append(("Languages", s.languages))
    lines.append(("Proficiency Bonus", f"+{s.bonus}"))
    return lines


def hit_points(s: Sheet) -> str:
    """`256 (19d12 + 133)`: its Hit Dice and their Constitution, one a die."""
    if not s.hp_dice:
        return str(s.hp)
    flat = int(s.hp_dice.partition("d")[0]) * s.mod("con")
    sign = "+" if flat > 0 else "-"
    return f"{s.hp} ({s.hp_dice} {sign} {abs(flat)})" if flat else f"{s.hp} ({s.hp_dice})"


def speeds(s: Sheet) -> str:
    hovers = {"fly": " (hover)"} if s.hover else {}
    said = [f"{way} {feet} ft.{hovers.get(way, '')}" for way, feet in s.speeds.items()]
    return ", ".join([f"{s.speed} ft.", *said])


def traits(s: Sheet) -> Lines:
    said = [f.name for f in s.features if not f.trigger]
    if s.legendary_resistance:
        said.append(f"Legendary Resistance ({s.legendary_resistance}/Day)")
    if s.magic_resistance:
        said.append("Magic Resistance")
    if s.pack_tactics:
        said.append("Pack Tactics")
    lines = [("Traits", "; ".join(said))] if said else []
    if s.unplayed_bonus_actions:
        narrated = [f"{text} (the GM narrates it)" for text in s.unplayed_bonus_actions]
        lines.append(("Bonus Actions", "; ".join(narrated)))
    return lines


def reactions(s: Sheet) -> Lines:
    """Its reactions: those played here, then those the GM narrates, with their text."""
    said = [reaction_line(f) for f in s.features if f.trigger]
    said += [f"{text} (the GM narrates it)" for text in s.unplayed_reactions]
    return [("Reactions", "; ".join(said))] if said else []


def reaction_line(f: Feature) -> str:
    if f.parry:
        return (f"{f.name}: +{f.parry} AC against one melee attack that would hit it, seeing "
                "the attacker and wielding a melee weapon")  # fmt: skip
    if f.halves:
        return f"{f.name}: half the damage of a hit by an attacker it can see"
    return f.name


def cast_spells(s: Sheet) -> list[Spell]:
    """Its spells (not its abilities written as spells: a breath, a frightful presence)."""
    return [x for x in s.spells if s.casts(x)]


def spellcasting(f: Fighter) -> Lines:
    s = f.sheet
    spells = [x for x in cast_spells(s) if not x.innate]
    lines = caster_line(f, "Spellcasting") + slot_levels(s, spells) if spells and s.slots else []
    lines += innate(f)
    if s.unplayed_spells:
        lines.append(("Not played here", f"{', '.join(s.unplayed_spells)}: the GM narrates them"))
    return lines


def slot_levels(s: Sheet, spells: list[Spell]) -> Lines:
    """Its cantrips, then every slot level it has, as the SRD lists them ("5th level (1
    slot)"), a level none of whose spells is played here too."""
    cantrips = [x.name for x in spells if x.level == 0]
    lines = [("Cantrips", ", ".join(cantrips))] if cantrips else []
    for level, count in enumerate(s.slots, start=1):
        if count:
            named = [x.name for x in spells if x.level == level]
            label = f"{ORDINALS[level - 1]} level ({count} slot{'s' * (count > 1)})"
            lines.append((label, ", ".join(named) or "no spell played here"))
    return lines


def caster_line(f: Fighter, label: str) -> Lines:
    ability = f.sheet.spellcasting or "int"
    dc, to_hit = f.spell_dc(), f.sheet.bonus + f.sheet.mod(ability)
    said = f"{NAMES[ability]} (spell save DC {dc}, {to_hit:+d} to hit with spell attacks)"
    return [(label, said)]


def innate(f: Fighter) -> Lines:
    """Innate Spellcasting: at will, then so many a day each, most first."""
    spells = [x for x in cast_spells(f.sheet) if x.innate and x.casting != "reaction"]
    if not spells:
        return []
    lines = caster_line(f, "Innate Spellcasting")
    for per_day in sorted({x.per_day for x in spells}, key=lambda n: (n != 0, -n)):
        label = f"{per_day}/day each" if per_day else "At will"
        lines.append((label, ", ".join(x.name for x in spells if x.per_day == per_day)))
    return lines


def actions(f: Fighter) -> Lines:
    s = f.sheet
    lines: Lines = []
    if s.multiattack:
        first = [x.name for x in s.spells if x.multiattack]
        lines.append(("Multiattack", ", then ".join([*first, ", ".join(s.multiattack)])))
    lines += [(w.name.title(), weapon_line(f, w)) for w in s.weapons]
    cast = {x.name for x in cast_spells(s)}
    for spell in s.spells:
        if spell.name not in cast:
            lines.append((ability_name(spell), ability_line(f, spell)))
    return lines


def weapon_line(f: Fighter, w: Weapon) -> str:
    s = f.sheet
    far = f"range {w.range[0]}/{w.range[1]} ft." if w.range else ""
    if w.ranged:
        kind, reach = "Ranged", far
    elif w.range:  # a thrown weapon: a melee weapon that can be thrown (srd-17)
        kind, reach = "Melee or Ranged", f"reach {w.reach} ft. or {far}"
    else:
        kind, reach = "Melee", f"reach {w.reach} ft."
    line = f"{kind}: {total(attack_modifiers(f, w)):+d} to hit, {reach} Hit: "
    line += f"{damage_of(s, w)} {w.type}" if w.damage else "no damage"
    if w.grapple:
        line += f"; grappled (escape DC {w.grapple})"
        line += ", restrained while grappled" if w.restrains else ""
    if w.plus is not None:
        line += f" plus {w.plus.damage} {w.plus.type}"
    if w.rider is not None:
        line += f"; {rider_line(w.rider)}"
    return line


def damage_of(s: Sheet, w: Weapon) -> str:
    """A hit's damage as the stat block writes it: `2d10 + 8`."""
    dice, flat = parse_amount(w.damage)
    flat += s.mod(ability_for(s, w)) + w.magic
    if not dice:
        return str(flat)
    return f"{dice} + {flat}" if flat > 0 else f"{dice} - {-flat}" if flat else dice


def rider_line(r: Rider) -> str:
    line = f"DC {r.dc} {NAMES[r.save]} save or {r.condition}{lasting(r)}"
    if r.worse is not None:
        line += f"; failed by {r.worse.by} or more, {r.worse.condition} too"
        line += f" ({r.worse.lasts})" if r.worse.lasts else ""
    return line


def lasting(x: Rider | Spell) -> str:
    said = []
    if x.rounds:
        said.append(f"{x.rounds // 10} minute{'s' * (x.rounds > 10)}" if x.rounds % 10 == 0
                    else f"{x.rounds} round{'s' * (x.rounds > 1)}")  # fmt: skip
    elif x.until:
        whose = "the target's" if x.until_of == "target" else "its own"
        said.append(f"until the {x.until} of {whose} next turn")
    if x.save_ends:
        said.append("a save at the end of each of its turns")
    return f" ({', '.join(said)})" if said else ""


def ability_name(spell: Spell) -> str:
    name = spell.name.title()
    if spell.recharge:
        name += f" (Recharge {spell.recharge}–6)" if spell.recharge < 6 else " (Recharge 6)"
    return name


def ability_line(f: Fighter, spell: Spell) -> str:
    parts = []
    if spell.save:
        said = f"DC {f.dc_of(spell)} {NAMES[spell.save]} save"
        if spell.damage:
            said += f": {spell.damage} {spell.type}"
            said += ", half as much on a success" if spell.half else ""
        if spell.condition:
            fails = "; on a failure also" if spell.damage else " or"
            said += f"{fails} {spell.condition}{lasting(spell)}"
        parts.append(said)
    elif spell.damage:
        parts.append(f"{spell.damage} {spell.type}")
    if spell.worse is not None:
        parts.append(f"failed by {spell.worse.by} or more, {spell.worse.condition} too")
    if spell.targets:
        parts.append(f"{spell.targets} target{'s' * (spell.targets > 1)}")
    return "; ".join(parts) or "as its text says (the GM narrates it)"


def legendary(s: Sheet) -> Lines:
    lines: Lines = []
    if s.legendary:
        options = []
        for o in s.legendary:
            used = " or ".join(x for x in (o.weapon, o.spell) if x)
            said = o.name + (f": {used}" if used and used not in o.name else "")
            if o.drain:
                said += f": {o.drain} {o.drain_type} to one it has charmed, regaining as much"
            options.append(said + (f" (costs {o.cost})" if o.cost > 1 else ""))
        lines.append((f"Legendary Actions ({s.legendary_actions})", "; ".join(options)))
    if s.lair:
        lines.append(("Lair Actions", "; ".join(o.name for o in s.lair)))
    return lines
