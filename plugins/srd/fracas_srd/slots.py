"""Spell slots (srd-50, srd-51): a caster's slots by level, spent when a spell of level 1
or higher is cast, refused when none of the level is left; a spell cast with a higher slot
than its own is stronger by its scaling. A long rest restores them: `restore_slots` is the
hook the rest will call."""

import re

from fracas.rules.api import Event, RefusedError, Spent
from msgspec.structs import replace

from fracas_srd.events import SlotsRestored
from fracas_srd.sheets import UPCAST_SCALES, Spell, levelled, ordinal, parse_amount
from fracas_srd.state import DAILY, Fighter

_RESOURCE = re.compile(r"level ([1-9]) spell slot")


def slot_resource(level: int) -> str:
    return f"level {level} spell slot"


def slot_level(resource: str) -> int:
    """The level of a spent slot's resource name, 0 for any other resource."""
    found = _RESOURCE.fullmatch(resource)
    return int(found[1]) if found else 0


def slots_of(fighter: Fighter, level: int) -> int:
    slots = fighter.sheet.slots
    return slots[level - 1] if level <= len(slots) else 0


def slots_left(fighter: Fighter, level: int) -> int:
    spent = fighter.slots_spent
    return slots_of(fighter, level) - (spent[level - 1] if level <= len(spent) else 0)


def shown(fighter: Fighter) -> str:
    """'1st 3/4 · 2nd 1/2': what is left of each level the sheet has, the level named."""
    have = fighter.sheet.slots
    return " · ".join(
        f"{ordinal(n)} {slots_left(fighter, n)}/{total}" for n, total in enumerate(have, 1)
    )


def slot_for(caster: Fighter, spell: Spell, asked: int | None) -> int:
    """The slot level this casting spends: the spell's own unless `-o level=N` asks for a
    higher one; 0 for a cantrip, which needs none."""
    if not spell.level:
        if asked:
            raise RefusedError(f"{spell.name} is a cantrip: it takes no spell slot (srd-50)")
        return 0
    level = asked or spell.level
    if level < spell.level:
        raise RefusedError(
            f"{spell.name} is {levelled(spell.level, 'spell')}: it needs "
            f"{levelled(spell.level, 'slot')} or higher (srd-51)"
        )
    if level > len(caster.sheet.slots) or not slots_left(caster, level):
        raise RefusedError(
            no_slot(caster, spell, level), player=no_slot(caster, spell, level, player=True)
        )
    return level


def no_slot(caster: Fighter, spell: Spell, level: int, player: bool = False) -> str:
    """srd-50, srd-51: the refusal of a slot level with none left, said once: how the spell
    may still be cast (the lowest higher slot left, else the highest lower one its level
    allows: an upcast asked too high); else the slots left, too low, and the long rest that
    restores them where the sheet has any (`fracas party rest long` for a party member)."""
    have = caster.sheet.slots
    levels = range(1, len(have) + 1)
    higher = [n for n in levels if n > level and slots_left(caster, n)]
    lower = [n for n in levels if spell.level <= n < level and slots_left(caster, n)]
    name, nth = caster.name, ordinal(level)
    if higher or lower:
        if level > len(have):
            listed = f"slots = {list(have)}" if have else "no slots"
            none = f"{name} has no {nth}-level spell slots ({listed} on the sheet, by level; "
        else:
            total = slots_of(caster, level)
            spent = f"all {total} spent" if total else "none on the sheet"
            none = f"{name} has no {nth}-level spell slot left ({spent}; "
        n = higher[0] if higher else lower[-1]
        how = f"choose slot level {n}" if player else f"-o level={n}"
        return (
            f"{none}srd-50): cast it with {levelled(n, 'slot')}, {how} "
            f"({slots_left(caster, n)} left)"
        )
    if not have:
        return f"{name} has no spell slots (none on the sheet; srd-50)"
    none = f"{name} has no {nth}-level or higher spell slot left (srd-50)"
    if not any(have):  # nothing a rest could restore
        return none
    left = [
        f"{slots_left(caster, n)} at {ordinal(n)} level" for n in levels if slots_left(caster, n)
    ]
    if left:
        none += f"; left: {', '.join(left)}, too low for {spell.name}"
    rest = " (`fracas party rest long`)" if caster.of_party and not player else ""
    return f"{none}; a long rest restores them{rest}"


def spend_slot(caster: Fighter, level: int) -> list[Event]:
    if not level:
        return []
    left = slots_left(caster, level) - 1
    why = f"{left} of {slots_of(caster, level)} left"
    return [Spent(caster.id, slot_resource(level), 1, why, ["srd-50"])]


def restore_slots(fighter: Fighter, reason: str) -> list[Event]:
    """Every spent slot back (a long rest, which the party's rests will call)."""
    if not any(fighter.slots_spent):
        return []
    return [SlotsRestored(fighter.id, reason, ["srd-50"])]


def scaled(dice: str, more: str, levels: int) -> str:
    """srd-51: `1d8` with `1d8` more for each slot level above the spell's, two levels up:
    `3d8` (check_sheet holds the scaling to the spell's own kind of die)."""
    if not levels or not more or not dice:
        return dice
    count, _, sides = dice.partition("d")
    added = more.partition("d")[0]
    return f"{int(count or 1) + int(added or 1) * levels}d{sides}"


def as_cast(spell: Spell, slot: int) -> Spell:
    """The spell as a slot `slot` levels up casts it: its dice (the first of its damage,
    healing, temporary hit points or charge), targets and darts scaled."""
    levels = max(0, slot - spell.level)
    if not levels:
        return spell
    amounts = {}
    steps = levels // spell.upcast_every
    for field in UPCAST_SCALES:
        text = getattr(spell, field)
        if text and spell.upcast:
            dice, flat = parse_amount(text)
            amounts[field] = scaled(dice, spell.upcast, steps) + (f"{flat:+d}" if flat else "")
            break
    targets = spell.targets + spell.upcast_targets * levels if spell.targets else 0
    darts = spell.darts + spell.upcast_darts * levels if spell.darts else 0
    return replace(spell, targets=targets, darts=darts, **amounts)


def innate_use(caster: Fighter, spell: Spell) -> list[Event]:
    """Innate Spellcasting: at will, or so many times a day, with no slot, cast as an
    action or as a reaction (a tiefling's hellish rebuke, once a long rest)."""
    if not spell.per_day:
        return []
    if caster.used(spell.name) >= spell.per_day:
        times = "1 time" if spell.per_day == 1 else f"{spell.per_day} times"
        raise RefusedError(
            f"{caster.name} has cast {spell.name} {caster.its} {times} a day (innate "
            "spellcasting); a long rest restores it"
        )
    return [Spent(caster.id, DAILY, 1, spell.name)]
