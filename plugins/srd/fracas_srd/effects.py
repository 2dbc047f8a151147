"""Effects as data (srd-32, srd-33): what a spell, a feature or a condition changes while it
lasts, read from the sheet's features and from the details of the conditions a creature
has, and folded into every roll it touches. A condition's effect ends with the condition:
by its duration, or with the concentration that holds it (srd-34)."""

from typing import NamedTuple

import msgspec
from fracas.rules.api import ConditionCleared, Event, Modifier, RefusedError

from fracas_srd.sheets import DamageType, Effect, RollKind, Weapon, parse_amount, parse_bonus
from fracas_srd.state import Fighter

EFFECT = "effect"  # the key of a condition's detail that holds its effect


def under(spell: str) -> str:
    """The condition a spell's effect sets: "under bless" (its source is the spell)."""
    return f"under {spell}"


class Bonus(NamedTuple):
    """Dice an effect adds to a d20 roll (bless's 1d4), or takes off it (bane's -1d4),
    rolled right after the d20."""

    dice: str
    sign: int
    source: str


def held(fighter: Fighter) -> list[tuple[str, str, Effect]]:
    """Every effect on the creature now: (the condition that holds it, "" for a feature of
    the sheet; the name of its source; the effect)."""
    found = [("", f.name, f.effect) for f in fighter.sheet.features if f.effect is not None]
    for name, detail in fighter.conditions.items():
        data = detail.get(EFFECT)
        if data:
            found.append((name, detail.get("spell", name), msgspec.convert(data, Effect)))
    return found


def effects_on(fighter: Fighter) -> list[tuple[str, Effect]]:
    """Every effect on the creature now, by the name of its source."""
    return [(source, effect) for _, source, effect in held(fighter)]


def armour_of(fighter: Fighter) -> tuple[str, int] | None:
    """srd-44: the magical armour an effect gives (mage armor: 13 + Dex), by its source,
    where it is more than the sheet's own AC; None otherwise."""
    dex = fighter.sheet.mod("dex")
    given = [(name, e.armour + dex) for name, e in effects_on(fighter) if e.armour]
    best = max(given, key=lambda found: found[1], default=None)
    return best if best is not None and best[1] > fighter.sheet.ac else None


def armor_class(fighter: Fighter) -> int:
    armour = armour_of(fighter)
    base = fighter.sheet.ac if armour is None else armour[1]
    worn = base + sum(e.ac for _, e in effects_on(fighter))
    floor = least_ac(fighter)
    return worn if floor is None else max(worn, floor[1])


def least_ac(fighter: Fighter) -> tuple[str, int] | None:
    """srd-71: the AC an effect keeps it from falling below (barkskin: 16), by its source."""
    return max(
        ((name, e.least_ac) for name, e in effects_on(fighter) if e.least_ac),
        key=lambda found: found[1],
        default=None,
    )


def note(words: str, rule: str) -> Modifier:
    """A note on a roll, not a number of it (never a "+0" term)."""
    return Modifier(0, words, rule, note=True)


def ac_notes(fighter: Fighter) -> list[Modifier]:
    """Why the AC is not the sheet's: each effect's change, as a note on the roll."""
    armour, floor = armour_of(fighter), least_ac(fighter)
    base = [] if armour is None else [note(f"{armour[0]}: AC {armour[1]}", "srd-44")]
    base += [] if floor is None else [note(f"{floor[0]}: AC {floor[1]} at least", "srd-71")]
    return base + [
        note(f"{name}: {e.ac:+d} AC", "srd-32") for name, e in effects_on(fighter) if e.ac
    ]


SAID = {"attacks": "attack roll", "saves": "saving throw", "checks": "ability check"}


def chosen(effect: Effect, kind: RollKind) -> bool:
    """srd-81, srd-82: the effect adds its dice to one roll of this kind its creature
    chooses (guidance: an ability check; resistance: a saving throw), not the next one."""
    return effect.once and kind != "attacks" and bool(getattr(effect, kind))


def bonuses(
    fighter: Fighter, kind: RollKind, spend: str = ""
) -> tuple[list[Modifier], list[Bonus]]:
    """The numbers (as modifiers) and the dice (to roll) effects add to this kind of roll;
    one the creature chooses the roll of only where this roll spends it (`spend`: its
    source, guidance); one kept for another roll is no term of this one."""
    flat: list[Modifier] = []
    dice: list[Bonus] = []
    for by, name, effect in held(fighter):
        text = getattr(effect, kind)
        if not text:
            continue
        if by and chosen(effect, kind) and name.lower() != spend.lower():
            continue  # kept, not added: no term of this roll (`kept` says what could be)
        sign, spec, number = parse_bonus(text)
        if spec:
            dice.append(Bonus(spec, sign, name))
        else:
            flat.append(Modifier(number, name, "srd-32"))
    return flat, dice


def article(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def kept(fighter: Fighter, kind: RollKind) -> list[Bonus]:
    """srd-81, srd-82: the dice of the effects the creature holds for a roll of this kind of
    its choosing (guidance's 1d4 on an ability check), by source."""
    found = []
    for by, name, effect in held(fighter):
        if by and chosen(effect, kind):
            sign, spec, _ = parse_bonus(getattr(effect, kind))
            found += [Bonus(spec, sign, name)] if spec else []
    return found


def check_spend(fighter: Fighter, kind: RollKind, spend: str) -> None:
    """The effect a save or check spends (`-o spend=guidance`) is one the creature holds
    for this kind of roll."""
    if not spend:
        return
    if not any(
        by and chosen(effect, kind) and name.lower() == spend.lower()
        for by, name, effect in held(fighter)
    ):
        raise RefusedError(
            f"{fighter.name} has no {spend} to add to {article(SAID[kind])} (srd-81, srd-82)"
        )


def spent_once(fighter: Fighter, kind: RollKind, spend: str = "") -> list[Event]:
    """An effect that adds to one roll of this kind ends with the roll it added to
    (guidance's d4 on the ability check it is spent on, srd-81; resistance's on a save,
    srd-82; vicious mockery's disadvantage on the next attack roll, srd-33)."""
    said = SAID[kind]
    return [
        ConditionCleared(fighter.id, by, f"{source} spent on this {said}", ["srd-33"])
        for by, source, effect in held(fighter)
        if by
        and effect.once
        and (getattr(effect, kind) or kind in effect.disadvantage)
        and (not chosen(effect, kind) or source.lower() == spend.lower())
    ]


def spent_attacked(target: Fighter, attacker: str) -> list[Event]:
    """An effect on attacks against the creature that lasts for one of them ends with it
    (guiding bolt's advantage on the next attack roll against its target; true strike's on
    its caster's next, srd-33)."""
    return [
        ConditionCleared(target.id, by, f"{source} spent on this attack roll", ["srd-33"])
        for by, source, effect in held(target)
        if by and effect.once and (effect.attacked or foreseen_by(target, by, attacker))
    ]


def foreseen_by(target: Fighter, by: str, attacker: str) -> bool:
    """srd-33: the condition is true strike's insight into the target, of this attacker."""
    detail = target.conditions[by]
    return bool((detail.get(EFFECT) or {}).get("foreseen")) and detail.get("by") == attacker


def foreseen(attacker: Fighter, target: Fighter) -> str:
    """The source of the attacker's insight into the target (true strike), or ""."""
    return next((s for by, s, _ in held(target) if by and foreseen_by(target, by, attacker.id)), "")


def edges(fighter: Fighter, kind: RollKind) -> list[tuple[bool, str]]:
    """Advantage (True) or disadvantage (False) effects give this kind of roll, by source."""
    found = []
    for name, effect in effects_on(fighter):
        if kind in effect.advantage:
            found.append((True, name))
        if kind in effect.disadvantage:
            found.append((False, name))
    return found


def warded_from(attacker: Fighter, target: Fighter) -> str:
    """srd-33: the source of an effect on the target that gives the attacker's kind of
    creature disadvantage on attacks against it (protection from evil and good), or ""."""
    kind = attacker.sheet.creature_type or "humanoid"
    return next((name for name, e in effects_on(target) if kind in e.warded_from), "")


def attacked_edges(target: Fighter) -> list[tuple[bool, str]]:
    """Advantage or disadvantage effects give attacks against the creature."""
    return [
        (effect.attacked == "advantage", name)
        for name, effect in effects_on(target)
        if effect.attacked
    ]


def moving_freely(fighter: Fighter) -> str:
    """srd-80: the source of an effect that keeps it moving freely (freedom of movement),
    or ""."""
    return next((name for name, e in effects_on(fighter) if e.free_moving), "")


def resistances(fighter: Fighter) -> set[DamageType]:
    found = set(fighter.sheet.resistances)
    for _, effect in effects_on(fighter):
        found |= set(effect.resistances)
    return found


def blocks(fighter: Fighter, spell: str) -> bool:
    """An effect on the creature takes all damage of this spell (shield: magic missile)."""
    return any(spell.lower() in (b.lower() for b in e.blocks) for _, e in effects_on(fighter))


class Extra(NamedTuple):
    """Extra damage dice a hit deals while an effect lasts (srd-33)."""

    dice: str
    source: str  # the spell or feature it comes from
    kind: str  # its damage type; "": the weapon's
    held_by: str  # the condition that holds it, which ends with its first hit if `once`
    once: bool


def hunted_by(target: Fighter, attacker: str) -> list[tuple[str, str]]:
    """(dice, source) of each effect on the target that adds to the weapon hits of the
    attacker whose spell holds it (hunter's mark, srd-83)."""
    return [
        (effect.hunted, source)
        for by, source, effect in held(target)
        if effect.hunted and by and target.conditions[by].get("by") == attacker
    ]


def extras(fighter: Fighter, melee: bool) -> list[Extra]:
    """The extra damage dice a weapon hit of the creature deals now (a melee one: `melee`)."""
    return [
        Extra(e.extra, source, e.extra_type, by, e.once)
        for by, source, e in held(fighter)
        if e.extra and (melee or not e.melee)
    ]


def told(effect: Effect, caster: str, target: Fighter) -> tuple[str, list[str]]:
    """What an effect of a spell's own rule does to `target`, in words with the house's
    pronouns for it (a player character's choice is "their"), and the rule ("" and [] for
    one the general rules of srd-32 and srd-33 say)."""
    if effect.hunted:
        return f"{caster}'s weapon hits deal {target.them} {effect.hunted} more damage", ["srd-83"]
    if effect.imbues:
        held = " or ".join(effect.imbues)
        return f"{caster}'s {held} attacks with the spellcasting ability, 1d8, magical", ["srd-84"]
    if effect.bonus_actions:
        return f"{' or '.join(effect.bonus_actions)} as a bonus action", ["srd-60"]
    if effect.foreseen:
        return f"{caster}'s next attack roll against {target.them} has advantage", ["srd-33"]
    if effect.warded_from:
        kinds = ", ".join(effect.warded_from)
        return f"attacks on {target.them} by {kinds} have disadvantage", ["srd-33"]
    if effect.speed:
        return f"{effect.speed:+d} feet of speed", ["srd-52"]
    if effect.unhealed:
        return f"{target.it} cannot regain hit points", ["srd-12"]
    if effect.once and effect.attacked:
        return f"the next attack roll against {target.them} has {effect.attacked}", ["srd-33"]
    if effect.once and "attacks" in effect.disadvantage:
        return f"disadvantage on {target.its} next attack roll", ["srd-33"]
    if effect.once and effect.checks:
        return f"{effect.checks} added to one ability check of {target.its} choice", ["srd-81"]
    if effect.once and effect.saves:
        return f"{effect.saves} added to one saving throw of {target.its} choice", ["srd-82"]
    return "", []


def imbued(fighter: Fighter, weapon: Weapon) -> Weapon:
    """srd-84: the weapon as an effect on its wielder makes it (shillelagh: the club's
    attack and damage with the spellcasting ability, a d8 its die, magical)."""
    name = weapon.name.lower()
    if not any(name in e.imbues for _, e in effects_on(fighter)):
        return weapon
    _, flat = parse_amount(weapon.damage)
    damage = f"1d8+{flat}" if flat else "1d8"
    ability = fighter.casting_ability()
    return msgspec.structs.replace(weapon, damage=damage, ability=ability, magical=True)


def unhealed(fighter: Fighter) -> str:
    """srd-12: the source of an effect that keeps it from regaining hit points (chill
    touch), or ""."""
    return next((name for name, e in effects_on(fighter) if e.unhealed), "")
