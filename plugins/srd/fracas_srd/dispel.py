"""Dispel magic (srd-64, srd-34): the spells on a creature, each known by the
level it was cast at, as the conditions it set record it (`LEVEL`); those of the dispel's
slot level or lower end, a higher one on its caster's check, DC 10 + the spell's level."""

from typing import Any

from fracas.rules.api import ConditionCleared, ConditionSet, Context, Event, Resolved

from fracas_srd.checks import skill_check
from fracas_srd.sheets import Spell, levelled
from fracas_srd.state import Fighter

LEVEL = "level"  # a condition's detail: the level of the spell that set it, as cast
SHELTERS = "shelters"  # ... and that it keeps lower spells off its creature (srd-78)


def cast_at(events: list[Event], caster: Fighter, spell: Spell, slot: int) -> list[Event]:
    """The conditions a spell just set on its targets, each with the level it was cast at
    (a monster's own ability, no spell, records none: no dispel ends it)."""
    if not caster.sheet.casts(spell):
        return events
    return [
        ConditionSet(e.target, e.condition, e.reason, {**e.detail, LEVEL: slot}, e.rules)
        if isinstance(e, ConditionSet)
        and set_by(e.detail, caster, spell)
        and e.condition != "concentrating"
        else e
        for e in events
    ]


def set_by(detail: dict[str, Any], caster: Fighter, spell: Spell) -> bool:
    return detail.get("by") == caster.id and detail.get("spell") == spell.name


def sheltered(target: Fighter, caster: Fighter, spell: Spell) -> str:
    """srd-78: the barrier (globe of invulnerability) that keeps this spell off the target,
    cast from outside it: a spell of a level below the barrier's slot level; "" if none."""
    if not caster.sheet.casts(spell):
        return ""
    for detail in target.conditions.values():
        if not detail.get(SHELTERS) or spell.level >= int(detail.get(LEVEL, 0)):
            continue
        if not within(caster, detail):
            return str(detail.get("spell", "a barrier"))
    return ""


def within(caster: Fighter, barrier: dict[str, Any]) -> bool:
    """Whether the caster stands within that barrier too (the same spell by the same one)."""
    return any(
        d.get(SHELTERS)
        and (d.get("by"), d.get("spell")) == (barrier.get("by"), barrier.get("spell"))
        for d in caster.conditions.values()
    )


def spells_on(target: Fighter) -> dict[tuple[str, str, int], list[str]]:
    """The spells on the creature, by (caster, spell, level): the conditions each set."""
    found: dict[tuple[str, str, int], list[str]] = {}
    for name, detail in target.conditions.items():
        if LEVEL in detail and name != "concentrating":
            key = (detail.get("by", ""), detail.get("spell", name), int(detail[LEVEL]))
            found.setdefault(key, []).append(name)
    return found


def dispelled(
    ctx: Context, caster: Fighter, target: Fighter, spell: Spell, slot: int
) -> list[Event]:
    """srd-64: each spell on the target of the slot's level or lower ends; a higher one on
    the caster's spellcasting ability check, DC 10 + its level."""
    events: list[Event] = []
    rules = ["srd-64"]
    for (_, name, level), conditions in spells_on(target).items():
        if level > slot:
            ability = caster.casting_ability(spell.ability)
            if not skill_check(ctx, events, caster, ability, 10 + level, rules).success:
                why = f"{name} ({levelled(level, 'spell')}) holds on {target.name}"
                events.append(Resolved(caster.id, "cast", [target.id], why, rules))
                continue
        why = f"{spell.name} ends {name} ({levelled(level, 'spell')})"
        events += [ConditionCleared(target.id, c, why, rules) for c in conditions]
    return events
