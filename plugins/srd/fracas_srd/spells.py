"""Casting a spell in a fight: the bonus-action rule (srd-3), spell attacks (srd-6), saves
(srd-M5, srd-25), healing (srd-12), temporary hit points (srd-11), conditions with their
durations (srd-28) and concentration (srd-26)."""

from typing import Any

import msgspec
from fracas.rules.api import (
    ConditionSet,
    Context,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Rolled,
    Spent,
    Until,
    roster,
)

from fracas_srd.attacks import attack_roll, roll_dice
from fracas_srd.commands import Cast
from fracas_srd.conditions import saving_throw
from fracas_srd.damage import deal, end_concentration, gain_temporary, heal
from fracas_srd.effects import EFFECT
from fracas_srd.evolve import evolve
from fracas_srd.sheets import Spell, parse_amount
from fracas_srd.slots import as_cast, slot_for, spend_slot
from fracas_srd.state import Fighter, State
from fracas_srd.turn import action, bonus_action


def ability_of(caster: Fighter) -> Any:
    ability = caster.sheet.spellcasting
    if ability is None:
        raise RefusedError(f"{caster.name} has no spellcasting ability on the sheet")
    return ability


def save_dc(caster: Fighter) -> int:
    """srd-M5: 8 + proficiency + the spellcasting ability modifier."""
    return 8 + caster.sheet.bonus + caster.sheet.mod(ability_of(caster))


def check_bonus_rule(caster: Fighter, spell: Spell) -> None:
    """srd-3: with a bonus-action spell in a turn, any other is a one-action cantrip."""

    def cantrip(casting: str, level: int) -> bool:
        return casting == "action" and level == 0

    before = [(s.partition(":")[0], int(s.partition(":")[2])) for s in caster.spells]
    bonus_first = any(c == "bonus" for c, _ in before) and not cantrip(spell.casting, spell.level)
    bonus_now = spell.casting == "bonus" and not all(cantrip(c, lv) for c, lv in before)
    if bonus_first or bonus_now:
        raise RefusedError(
            f"{caster.name} casts a bonus-action spell this turn: any other spell must be a "
            "cantrip cast with an action (srd-3)"
        )


def casting_cost(caster: Fighter, spell: Spell, slot: int) -> list[Event]:
    check_bonus_rule(caster, spell)
    spent = action(caster, "cast") if spell.casting == "action" else bonus_action(caster, "cast")
    kind = f"{spell.casting}:{spell.level}"
    return [*spent, Spent(caster.id, "spell", 1, kind, ["srd-3"]), *spend_slot(caster, slot)]


def check_targets(spell: Spell, slot: int, targets: list[Fighter]) -> None:
    if not targets:
        raise RefusedError(f"{spell.name} needs a target (yourself included)")
    if spell.targets and len(targets) > spell.targets:
        more = f" with a level {slot} slot" if slot > spell.level else ""
        raise RefusedError(
            f"{spell.name} takes at most {spell.targets} targets{more}, not {len(targets)}"
            + (" (srd-51)" if spell.upcast_targets else "")
        )


def cast(state: State, caster: Fighter, command: Cast, ctx: Context) -> list[Event]:
    if not command.spell:
        raise RefusedError("name the spell: --opt spell=NAME")
    spell = caster.sheet.spell(command.spell)
    slot = slot_for(caster, spell, command.level)
    spell = as_cast(spell, slot)
    targets = [state.fighter(t) for t in command.targets]
    check_targets(spell, slot, targets)
    events = casting_cost(caster, spell, slot)
    if spell.concentration:
        events += end_concentration(state, caster, "starts another concentration", "srd-26")
    held: list[list[str]] = []
    if spell.save:
        events += save_spell(state, ctx, events, caster, targets, spell, command, held)
    for target in [] if spell.save else targets:
        now = roster.fold(evolve, state, events)
        events += on_target(
            now, ctx, now.fighter(caster.id), now.fighter(target.id), spell, command, held
        )
    if spell.concentration:
        detail = {"spell": spell.name, "effects": held}
        events.append(
            ConditionSet(caster.id, "concentrating", f"on {spell.name}", detail, ["srd-26"])
        )
    return events


def spell_damage(
    state: State, ctx: Context, events: list[Event], caster: Fighter, spell: Spell, critical: bool
) -> list[Modifier]:
    """srd-9: a spell's damage adds only what its text says (`add_modifier`)."""
    dice, flat = parse_amount(spell.damage)
    parts: list[Modifier] = []
    if dice:
        purpose = f"damage of {spell.name}"
        parts += roll_dice(ctx, events, caster.id, dice, critical, purpose, state.options.critical)
    if flat:
        parts.append(Modifier(flat, f"{spell.name}'s own", "srd-9"))
    if spell.add_modifier:
        ability = ability_of(caster)
        parts.append(
            Modifier(caster.sheet.mod(ability), f"{ability.capitalize()} modifier", "srd-9")
        )
    return parts


def on_target(
    state: State,
    ctx: Context,
    caster: Fighter,
    target: Fighter,
    spell: Spell,
    command: Cast,
    held: list[list[str]],
) -> list[Event]:
    if spell.attack != "none":
        return spell_attack(state, ctx, caster, target, spell, command, held)
    events: list[Event] = []
    if spell.heal:
        events += heal(target, amount(ctx, events, caster, spell.heal, spell), caster.id)
    if spell.temp_hp:
        offered = amount(ctx, events, caster, spell.temp_hp, spell)
        events += gain_temporary(state, target, offered, f"{spell.name}")
    if spell.condition or spell.effect:
        events += afflict(state, caster, target, spell, held)
    if not events:
        events.append(Resolved(caster.id, "cast", [target.id], spell.name, ["srd-5"]))
    return events


def amount(ctx: Context, events: list[Event], caster: Fighter, text: str, spell: Spell) -> int:
    """Healing or temporary hit points: the dice, the spell's own bonus, and the
    spellcasting modifier if the spell adds it."""
    dice, flat = parse_amount(text)
    total = flat + (caster.sheet.mod(ability_of(caster)) if spell.add_modifier else 0)
    if dice:
        roll = ctx.dice.roll(dice, spell.name)
        events.append(
            Rolled(
                caster.id,
                spell.name,
                roll,
                None,
                [],
                f"{roll.total} on {dice}",
                ["srd-12" if spell.heal else "srd-11"],
            )
        )
        total += roll.total
    return max(0, total)


def spell_attack(
    state: State,
    ctx: Context,
    caster: Fighter,
    target: Fighter,
    spell: Spell,
    command: Cast,
    held: list[list[str]],
) -> list[Event]:
    """srd-6: the spellcasting modifier + proficiency, against AC."""
    ability = ability_of(caster)
    mods = [
        Modifier(
            caster.sheet.mod(ability), f"{ability.capitalize()} modifier (spellcasting)", "srd-6"
        ),
        Modifier(caster.sheet.bonus, "proficiency", "srd-M4"),
    ]
    events: list[Event] = []
    ranged = spell.attack == "ranged"
    hit, critical = attack_roll(ctx, events, caster, target, command, mods, ranged, spell.name)
    outcome = "critical hit" if critical else "hits" if hit else "misses"
    events.append(
        Resolved(
            caster.id,
            "cast",
            [target.id],
            f"{spell.name} {outcome} {target.name}",
            ["srd-6", "srd-7"],
        )
    )
    if not hit:
        return events
    if spell.damage:
        parts = spell_damage(state, ctx, events, caster, spell, critical)
        events += deal(state, ctx, caster.id, target, parts, spell.type, critical)
    if spell.condition or spell.effect:
        after = roster.fold(evolve, state, events)
        events += afflict(after, caster, after.fighter(target.id), spell, held)
    return events


def save_spell(
    state: State,
    ctx: Context,
    before: list[Event],
    caster: Fighter,
    targets: list[Fighter],
    spell: Spell,
    command: Cast,
    held: list[list[str]],
) -> list[Event]:
    """srd-31: every target's save first, then the damage, rolled once for all who take
    any (none rolled when the save negates and every target made it)."""
    events: list[Event] = []
    dc = save_dc(caster)
    ability = spell.save or "dex"
    purpose = f"{ability.capitalize()} save against {spell.name} (DC {dc})"
    rules = ["srd-25", *(["srd-31"] if spell.damage else [])]
    saves = [
        saving_throw(ctx, events, target, ability, dc, purpose, rules, command.cover).success
        for target in targets
    ]
    hurt = spell.damage and any(spell.half or not saved for saved in saves)
    rolled = spell_damage(state, ctx, events, caster, spell, False) if hurt else []
    for target, saved in zip(targets, saves, strict=True):
        now = roster.fold(evolve, state, [*before, *events])
        events += save_outcome(
            now, ctx, now.fighter(caster.id), now.fighter(target.id), spell, saved, rolled, held
        )
    return events


def save_outcome(
    state: State,
    ctx: Context,
    caster: Fighter,
    target: Fighter,
    spell: Spell,
    saved: bool,
    rolled: list[Modifier],
    held: list[list[str]],
) -> list[Event]:
    """srd-25: the save says what a success does: half the damage, or nothing."""
    events: list[Event] = []
    if rolled and not (saved and not spell.half):
        total = max(0, sum(p.value for p in rolled))
        half = [Modifier(total // 2 - total, "half on a successful save", "srd-25")]
        parts = [*rolled, *(half if saved else [])]
        events += deal(state, ctx, caster.id, target, parts, spell.type, False, ("srd-25",))
    if (spell.condition or spell.effect) and not saved:
        after = roster.fold(evolve, state, events)
        events += afflict(after, caster, after.fighter(target.id), spell, held)
    if not events:
        how = "saves against" if saved else "fails the save against"
        events.append(Resolved(target.id, "save", [], f"{how} {spell.name}", ["srd-25"]))
    return events


def afflict(
    state: State, caster: Fighter, target: Fighter, spell: Spell, held: list[list[str]]
) -> list[Event]:
    """The spell's condition, or its effect under the spell's name (srd-32, srd-33), with
    its duration (srd-28), held by the caster's concentration if the spell needs it (srd-26,
    srd-34)."""
    if target.dead:
        return []
    detail: dict[str, Any] = {"by": caster.id, "spell": spell.name}
    if spell.effect is not None:
        detail[EFFECT] = msgspec.to_builtins(spell.effect)
    until = duration(state, caster, spell)
    if until is not None:
        detail["until"] = msgspec.to_builtins(until)
    if spell.save_ends and spell.save:
        detail["save_ends"] = {"ability": spell.save, "dc": save_dc(caster)}
    name = spell.condition or spell.name
    if spell.concentration:
        held.append([target.id, name])
    rules = ["srd-27" if spell.condition else "srd-32", "srd-28"]
    rules += ["srd-26", "srd-34"] if spell.concentration else []
    return [ConditionSet(target.id, name, spell.name, detail, rules)]


def duration(state: State, caster: Fighter, spell: Spell) -> Until | None:
    if spell.rounds:
        return Until(rounds=spell.rounds, ends=max(state.round, 1) + spell.rounds)
    if spell.until:
        now = str(state.round) if state.turn == caster.id else ""
        return Until(edge=spell.until, of=caster.id, after=now)
    return None
