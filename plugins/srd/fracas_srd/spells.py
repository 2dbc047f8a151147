"""Casting a spell in a fight: the bonus-action rule (srd-3), spell attacks (srd-6), saves
(srd-M5, srd-25), healing (srd-12), temporary hit points (srd-11), conditions with their
durations (srd-28) and concentration (srd-26)."""

from collections.abc import Sequence
from typing import Any

import msgspec
from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Spent,
    Until,
    and_list,
    roster,
)
from msgspec.structs import replace

from fracas_srd import recharge
from fracas_srd.attacks import (
    DUPLICATES,
    answered,
    attack_roll,
    check_range,
    duplicate_hit,
    duplicate_struck,
    harmed,
    on_the_hit,
    rebuked,
    unseen,
)
from fracas_srd.castings import check_bonus_rule, spell_cast
from fracas_srd.checks import save_name
from fracas_srd.commands import Cast
from fracas_srd.conditions import (
    BREAK_FREE,
    FOE,
    SAVES_WHEN_HURT,
    UNENDING,
    UNTIL_DAMAGED,
    UNTIL_HARMED_BY,
    UNTIL_IT_ACTS,
    WARD,
    acting_ends,
    check_charmed,
    cover_bonus,
    saving_throw,
    shaking_off,
    still_shaken_off,
    turned_away,
)
from fracas_srd.damage import (
    Typed,
    deal,
    end_concentration,
    gain_temporary,
    heal,
    roll_dice,
    saved_half,
    stabilised,
    summed_roll,
)
from fracas_srd.dispel import LEVEL, SHELTERS, cast_at, dispelled, sheltered, spells_on
from fracas_srd.effects import EFFECT, blocks, moving_freely, told, under
from fracas_srd.events import hit_points
from fracas_srd.evolve import evolve
from fracas_srd.lasting import conditions_of, timed
from fracas_srd.sheets import Spell, levelled, ordinal, parse_amount
from fracas_srd.slots import as_cast, innate_use, slot_for, spend_slot
from fracas_srd.spellbook import spellbook
from fracas_srd.state import (
    HEARTENS,
    MULTIATTACK,
    ONCE_A_TURN,
    Fighter,
    State,
    immune,
    spelt,
)
from fracas_srd.triggered import (
    DAMAGED,
    HIT,
    Reaction,
    chosen,
    countered,
    counters,
    lasting_effect,
    taken,
    triggers,
)
from fracas_srd.turn import action, bonus_action, dead_target


def ability_of(caster: Fighter, spell: Spell | None = None) -> Any:
    return caster.casting_ability(spell.ability if spell else None)


def save_dc(caster: Fighter, spell: Spell | None = None) -> int:
    return caster.dc_of(spell) if spell else caster.spell_dc()


def multiattack_part(state: State, caster: Fighter, spell: Spell) -> list[Event]:
    """srd-29: an ability of its Multiattack (a mummy's Dreadful Glare), before or after
    its attacks, once in it."""
    if caster.once.get(spell.name) == f"{state.round}:{state.turn}":
        raise RefusedError(
            f"{caster.name} has used {caster.its} {spell.name} in this Multiattack (srd-29)"
        )
    begun = [] if caster.action == MULTIATTACK else action(caster, MULTIATTACK)
    return [*begun, Spent(caster.id, ONCE_A_TURN, 1, spell.name, ["srd-29"])]


def turn_cost(state: State, caster: Fighter, spell: Spell) -> list[Event]:
    """srd-3: the action or bonus action the casting takes, refused before its slot is
    (a refusal for the slot would offer another slot, cast in a turn that has no room for
    it); the spent action or bonus action before the bonus-action spell rule, whose way
    out (a cantrip with the action) needs the action."""
    if spell.casting == "reaction":
        raise RefusedError(
            f"{spell.name} is cast as a reaction when its trigger comes: the attack's "
            f"--defence {caster.id}={spell.name} (or --ask) (srd-39)"
        )
    if not caster.sheet.casts(spell):  # a monster's own ability: its action, no spell
        return ability_cost(state, caster, spell)
    if spell.multiattack:  # srd-29: a part of its Multiattack, with its attacks
        spent = multiattack_part(state, caster, spell)
    elif spell.casting == "action":
        spent = action(caster, "cast", f"casting {spell.name}")
    else:
        spent = bonus_action(caster, "cast")
    check_bonus_rule(caster, spell)
    return spent


def slot_cost(caster: Fighter, spell: Spell, slot: int) -> list[Event]:
    """The spell cast, and the slot (or the innate use) it spends (srd-50)."""
    if not caster.sheet.casts(spell):
        return []
    said = spell_cast(spell, slot)
    paid = innate_use(caster, spell) if spell.innate else spend_slot(caster, slot)
    return [Spent(caster.id, "spell", 1, said, ["srd-3"]), *paid]


def ability_cost(state: State, caster: Fighter, spell: Spell) -> list[Event]:
    """An ability of its own (a breath, a glare, a frightful presence) is used with its
    action or bonus action, or as a part of its Multiattack (srd-29); it is no spell."""
    if spell.multiattack:
        return multiattack_part(state, caster, spell)
    said = f"{spell.name}, recharge {recharge.on(spell)}" if spell.recharge else spell.name
    if spell.casting == "bonus":
        return bonus_action(caster, said)
    return action(caster, said, f"using {spell.name}")


def check_targets(spell: Spell, slot: int, targets: list[Fighter]) -> None:
    for target in targets:
        if target.dead:
            raise dead_target(target, f": {spell.name} at {target.them} would do nothing")
        check_affected(spell, target)
    if not targets:
        raise RefusedError(f"{spell.name} needs a target (yourself included)")
    most = spell.targets or (1 if spell.attack != "none" else 0)  # srd-6: an attack, one
    if most and len(targets) > most:
        more = f" with {levelled(slot, 'slot')}" if slot > spell.level else ""
        many = "one target" if most == 1 else f"at most {most} targets"
        raise RefusedError(
            f"{spell.name} takes {many}{more}, not {len(targets)}"
            + (" (srd-51)" if spell.upcast_targets else "")
        )
    named = [t.id for t in targets]
    twice = next((who for who in named if named.count(who) > 1), None)
    if twice and not spell.darts:  # darts may all strike one creature (srd-43)
        raise RefusedError(f"{spell.name} names {twice} more than once: name each target once")


def check_affected(spell: Spell, target: Fighter) -> None:
    """A spell for one creature type (hold person: "a humanoid") refuses any other."""
    kind = target.sheet.creature_type or "humanoid"
    article = "" if kind == "undead" else "an " if kind[0] in "aeiou" else "a "
    if spell.affected and kind != spell.affected:
        raise RefusedError(
            f"{spell.name} affects {spell.affected}s only; {target.name} is {article}{kind}"
        )
    if kind in spell.passes_over:
        types = " or ".join(t if t == "undead" else f"{t}s" for t in spell.passes_over)
        raise RefusedError(
            f"{spell.name} has no effect on {types}; {target.name} is {article}{kind}"
        )
    if spell.stabilises and not target.has("dying"):
        raise RefusedError(f"{target.name} is not dying: {spell.name} has nothing to stabilise")
    if spell.dispels and not spells_on(target):
        raise RefusedError(f"{target.name} has no spell on it for {spell.name} to end (srd-64)")
    if spell.effect is not None and spell.effect.armour and target.sheet.wears_armour:
        raise RefusedError(
            f"{spell.name} is for a creature wearing no armour; {target.name} wears armour "
            "(its sheet's wears_armour; srd-44)"
        )


def harmful(spell: Spell) -> bool:
    """A spell that harms its targets: damage, a save, an attack, a condition, dispelling."""
    return bool(spell.damage or spell.save or spell.attack != "none" or spell.condition
                or spell.dispels or spell.hp_pool)  # fmt: skip


def cured(target: Fighter, spell: Spell, command: Cast) -> str:
    """srd-70: the one condition of the spell's it ends: the one the target has, or of
    several the one named (`-o ends=poisoned`)."""
    cures = {spelt(c) for c in spell.cures}
    has = [c for c in target.conditions if spelt(c) in cures]
    if not has:
        raise RefusedError(
            f"{target.name} is not {' or '.join(spell.cures)}: {spell.name} has none to end"
        )
    if command.ends:
        named = next((c for c in has if spelt(c) == spelt(command.ends.lower())), None)
        if named is None:
            raise BadInputError(f"{target.name} is not {command.ends}; it is {', '.join(has)}")
        return named
    if len(has) > 1:
        raise BadInputError(
            f"{target.name} is {and_list(has)}: {spell.name} ends one; name it (-o ends={has[0]})"
        )
    return has[0]


def past_barriers(
    events: list[Event], caster: Fighter, spell: Spell, targets: list[Fighter]
) -> list[Fighter]:
    """srd-78: the targets a spell reaches; on those within a barrier it cannot cross from
    outside (globe of invulnerability) it has no effect."""
    reached = []
    for target in targets:
        if barrier := sheltered(target, caster, spell):
            why = f"{target.name} is within {barrier}: {spell.name} has no effect on it"
            events.append(Resolved(caster.id, "cast", [target.id], why, ["srd-78"]))
        else:
            reached.append(target)
    return reached


def aimed_past_wards(
    ctx: Context, events: list[Event], caster: Fighter, spell: Spell, targets: list[Fighter]
) -> list[Fighter]:
    """srd-73: the targets a harmful spell aimed at each (not an area's) still reaches, each
    warded one only past the caster's Wisdom save."""
    if not harmful(spell) or not (spell.targets or spell.attack != "none" or spell.darts):
        return targets
    return [t for t in targets if not turned_away(ctx, events, caster, t)]


def spoken(spell: Spell, command: Cast) -> Spell:
    """srd-75: a spell of words (command) sets "commanded to WORD", the word named."""
    if not spell.words:
        return spell
    word = command.word.strip().lower()
    if word not in spell.words:
        said = f"{command.word!r} is not one of its words" if word else "name its word"
        raise BadInputError(f"{spell.name}: {said}: -o word={' | '.join(spell.words)}")
    return replace(spell, condition=f"commanded to {word}")


def check_self(caster: Fighter, spell: Spell, targets: list[Fighter]) -> list[Fighter]:
    """A spell of its caster alone (misty step, blur): no other target, and none named is
    the caster."""
    if not spell.on_self:
        return targets
    if any(t.id != caster.id for t in targets):
        raise RefusedError(
            f"{spell.name} is on its caster only: name no target, or {caster.id} (range: self)"
        )
    return [caster]


def innate_level(spell: Spell, asked: int | None) -> int:
    """An innate spell is cast at its own level, with no slot."""
    if asked and asked != spell.level:
        raise RefusedError(f"{spell.name} is innate: it is cast at its own level, with no slot")
    return spell.level


def on_sheet(caster: Fighter, name: str) -> Spell:
    """The spell of the caster's sheet by name; one a spell srd plays but the sheet lacks
    is refused saying so, and how a sheet names it."""
    named = name.strip().lower()
    if named in spellbook() and all(s.name.lower() != named for s in caster.sheet.spells):
        known = ", ".join(s.name for s in caster.sheet.spells)
        has = f" (its spells: {known})" if known else ", which has no spells"
        now = "cast one of those, or " if known else ""
        raise RefusedError(
            f"{named} is a spell srd plays, but not on {caster.name}'s sheet{has}: {now}name "
            f'it with [[spells]] name = "{named}" (srd fills in the rest), '
            f"{caster.sheet_given()}"
        )
    return caster.sheet.spell(name)


def cast(state: State, caster: Fighter, command: Cast, ctx: Context) -> list[Event]:
    if not command.spell:
        raise RefusedError("name the spell: --opt spell=NAME")
    spell = on_sheet(caster, command.spell)
    answers, defence = counters(state, caster, command.defence)
    command = replace(command, defence=defence)
    if command.defence and not triggers(spell):
        raise BadInputError(f"{spell.name} makes no attack and deals no damage: no reaction to it")
    if answers and not caster.sheet.casts(spell):
        raise RefusedError(f"{spell.name} is {caster.name}'s own ability, no spell: no counter")
    if marked_before(state, caster, spell):
        if answers:
            raise RefusedError(f"{spell.name}'s mark moves: no spell is cast, so no counter")
        return moved_mark(state, caster, spell, command)
    lasting = caster.conditions.get(under(spell.name)) if spell.lingers else None
    if lasting is not None:
        if answers:
            raise RefusedError(f"{spell.name} attacks again: no spell is cast, so no counter")
        return again(state, ctx, caster, spell, int(lasting.get(LEVEL, spell.level)), command)
    asked = command.level
    waits = recharge.used(caster, spell)  # first: recharging says more than the action spent
    spent = turn_cost(state, caster, spell)
    slot = innate_level(spell, asked) if spell.innate else slot_for(caster, spell, asked)
    spell = spoken(as_cast(spell, slot), command)
    command = replace(command, level=slot or None)  # the slot it is cast with, as asked or not
    targets = check_self(caster, spell, [state.fighter(t) for t in command.targets])
    check_targets(spell, slot, targets)
    if harmful(spell):
        check_charmed(caster, targets, f"aim {spell.name} at")
    events = [*spent, *slot_cost(caster, spell, slot), *waits]
    if caster.sheet.casts(spell):
        at_foe = any(caster.hostile_to(t) for t in targets)
        events += acting_ends(caster, "casts a spell", at_foe)
    targets = aimed_past_wards(ctx, events, caster, spell, targets)
    targets = past_barriers(events, caster, spell, targets)
    if not targets and spell.targets:
        return events
    for counterer, answer in answers:
        now = roster.fold(evolve, state, events)
        stopped, failed = countered(
            now, ctx, caster, spell, slot, now.fighter(counterer.id), answer
        )
        events += stopped
        if failed:
            return events
    if not spell.plays:
        return [*events, unplayed(caster, spell, targets), *held_unplayed(state, caster, spell)]
    done = unleash(state, ctx, events, caster, spell, targets, command)
    done += summoned(state, caster, spell) if spell.lingers else []
    return events + cast_at(done, caster, spell, slot)


def marked_before(state: State, caster: Fighter, spell: Spell) -> bool:
    """srd-83: the caster still concentrates on the spell whose mark has dropped to 0 hit
    points (or lost it): cast again, the mark moves."""
    holding = caster.conditions.get("concentrating") or {}
    if not spell.moves or holding.get("spell") != spell.name:
        return False
    return all(
        state.fighters[who].hp <= 0 or not state.fighters[who].has(condition)
        for who, condition in holding.get("effects", [])
    )


def moved_mark(state: State, caster: Fighter, spell: Spell, command: Cast) -> list[Event]:
    """srd-83: a bonus action moves the mark to a new creature: no slot, no spell cast, the
    same concentration going on for the time the spell has left."""
    targets = [state.fighter(t) for t in command.targets]
    check_targets(spell, spell.level, targets)
    events = bonus_action(caster, f"moves {spell.name}")
    held: list[list[str]] = []
    holding = caster.conditions["concentrating"]
    left = time_left(state, holding)
    for target in targets:
        events += [
            replace(e, detail=e.detail | left) if isinstance(e, ConditionSet) else e
            for e in afflict(state, caster, target, spell, held)
        ]
    holding = holding | left | {"effects": held}
    why = f"on {spell.name}, its mark moved"
    return [*events, ConditionSet(caster.id, "concentrating", why, holding, ["srd-26", "srd-83"])]


def time_left(state: State, detail: dict[str, Any]) -> dict[str, Any]:
    """srd-28: a duration in rounds from now on, as much as is left of it: what a moved
    mark lasts, and its concentration with it (srd-83)."""
    given = detail.get("until")
    ends = msgspec.convert(given, Until) if isinstance(given, dict) else None
    if ends is None or not ends.rounds:
        return {}
    rounds = max(1, ends.ends - max(state.round, 1))
    return {"until": msgspec.to_builtins(replace(ends, rounds=rounds))}


def unplayed(caster: Fighter, spell: Spell, targets: list[Fighter]) -> Event:
    """A spell its sheet names with no effect, which the spellbook does not know: cast (its
    slot and action spent), it changes nothing the rules here play."""
    if spell.name.strip().lower() in spellbook():
        how = (
            "its sheet names it with no effect (named alone, it takes the spellbook's: "
            f"{caster.sheet_given()})"
        )
    else:
        how = "srd does not play it; the GM narrates it"
    why = f"{spell.name} has no effect in play: {how}"
    return Resolved(caster.id, "cast", [t.id for t in targets], why, ["srd-5"])


def held_unplayed(state: State, caster: Fighter, spell: Spell) -> list[Event]:
    """srd-26: a spell the sheet says needs concentration holds it though srd plays no more
    of it (spirit guardians, as the GM narrates it): the concentration before it ends."""
    if not spell.concentration:
        return []
    ended = end_concentration(state, caster, "starts another concentration", "srd-26")
    return [*ended, concentrating(state, caster, spell, [])]


AGAIN = " attacks again"  # a lasting spell's later attack, as its bonus action says it


def summoned(state: State, caster: Fighter, spell: Spell) -> list[Event]:
    """srd-72: what the spell made lasts, on its caster, as long as the spell does."""
    detail = {"by": caster.id, "spell": spell.name, **timed(state, caster, caster, spell, None, 0)}
    why = f"{spell.name} lasts: a bonus action on each turn attacks again"
    return [ConditionSet(caster.id, under(spell.name), why, detail, ["srd-72", "srd-28"])]


def again(
    state: State, ctx: Context, caster: Fighter, spell: Spell, slot: int, command: Cast
) -> list[Event]:
    """srd-72: the lasting spell's attack again, as a bonus action on the caster's turn,
    as strong as the slot it was cast with; no slot, and no spell cast (srd-3)."""
    spell = as_cast(spell, slot)
    targets = [state.fighter(t) for t in command.targets]
    check_targets(spell, slot, targets)
    check_charmed(caster, targets, f"aim {spell.name} at")
    events = bonus_action(caster, f"{spell.name}{AGAIN}")
    return events + unleash(state, ctx, events, caster, spell, targets, command)


def unleash(
    state: State,
    ctx: Context,
    before: list[Event],
    caster: Fighter,
    spell: Spell,
    targets: list[Fighter],
    command: Cast,
) -> list[Event]:
    """What the spell does to its targets, once paid for (cast, or a lair action's)."""
    events = list(before)
    if spell.concentration:
        events += end_concentration(state, caster, "starts another concentration", "srd-26")
    held: list[list[str]] = []
    if spell.save:
        events += save_spell(state, ctx, events, caster, targets, spell, command, held)
    elif spell.darts:
        events += missiles(state, ctx, events, caster, targets, spell, command)
    elif spell.hp_pool:
        events += slumber(state, ctx, events, caster, targets, spell)
    for target in [] if spell.save or spell.darts or spell.hp_pool else targets:
        now = roster.fold(evolve, state, events)
        events += on_target(
            now, ctx, now.fighter(caster.id), now.fighter(target.id), spell, command, held
        )
    if spell.concentration:
        events.append(concentrating(state, caster, spell, held))
    return events[len(before) :]


def slumber(
    state: State,
    ctx: Context,
    before: list[Event],
    caster: Fighter,
    targets: list[Fighter],
    spell: Spell,
) -> list[Event]:
    """srd-49: the dice's total of hit points, spent on the creatures named (those in the
    area) from the fewest current hit points up, each affected while its hit points are no
    more than what is left; the unconscious are passed over, and undead and creatures
    immune to being charmed are not affected."""
    events: list[Event] = []
    left = amount(ctx, events, caster, spell.hp_pool, spell)
    for target in sorted(targets, key=lambda t: t.hp):
        now = roster.fold(evolve, state, [*before, *events])
        if why := unslept(target, left):
            events.append(Resolved(caster.id, "cast", [target.id], why, ["srd-49"]))
            continue
        left -= target.hp
        events += afflict(now, now.fighter(caster.id), now.fighter(target.id), spell, [])
        if not target.has("prone"):
            events.append(ConditionSet(target.id, "prone", "falls unconscious", {}, ["srd-27"]))
    return events


def unslept(target: Fighter, left: int) -> str:
    """Why sleep passes over the creature, or "" where it falls asleep."""
    if target.has("unconscious") or target.dead:
        return f"{target.name} is unconscious already: passed over"
    if (target.sheet.creature_type or "humanoid") == "undead":
        return f"{target.name} is undead: not affected"
    if target.immune_to("charmed"):
        return f"{target.name} is immune to being charmed: not affected"
    if target.hp > left:
        return f"{target.name}'s {hit_points(target.hp)} are more than the {left} left"
    return ""


def concentrating(state: State, caster: Fighter, spell: Spell, held: list[list[str]]) -> Event:
    """srd-26: the caster's concentration, holding what the spell set on each target, for
    no longer than the spell lasts (srd-34); none where it set nothing on anyone."""
    if (spell.condition or spell.effect) and not held:
        why = f"{spell.name} holds nobody: no concentration"
        return Resolved(caster.id, "cast", [], why, ["srd-26", "srd-34"])
    detail: dict[str, Any] = {"spell": spell.name, "effects": held}
    if spell.moves:
        detail["moves"] = True
    detail |= timed(state, caster, caster, replace(spell, save_ends=False), None, 0)
    return ConditionSet(caster.id, "concentrating", f"on {spell.name}", detail, ["srd-26"])


def spell_damage(
    state: State,
    ctx: Context,
    events: list[Event],
    caster: Fighter,
    spell: Spell,
    critical: bool,
    purpose: str = "",
) -> list[Modifier]:
    """srd-9: a spell's damage adds only what its text says (`add_modifier`); `purpose`:
    what the roll is for, where "damage of SPELL" says too little (a dart of several)."""
    dice, flat = parse_amount(spell.damage)
    added: list[Modifier] = []
    if flat:
        added.append(Modifier(flat, f"{spell.name} bonus", "srd-9"))
    if spell.add_modifier:
        ability = ability_of(caster, spell)
        added.append(
            Modifier(caster.sheet.mod(ability), f"{ability.capitalize()} modifier", "srd-9")
        )
    if not dice:
        return added
    purpose = purpose or f"damage of {spell.name}"
    how = state.options.critical
    return roll_dice(ctx, events, caster.id, dice, critical, purpose, how, added)


def more_damage(
    state: State,
    ctx: Context,
    events: list[Event],
    caster: Fighter,
    spell: Spell,
    critical: bool,
) -> list[Typed]:
    """srd-68: the spell's damage of a second type, rolled on its own (flame strike's
    radiant beside its fire)."""
    if spell.plus is None:
        return []
    dice, flat = parse_amount(spell.plus.damage)
    own = [Modifier(flat, f"{spell.name} bonus", "srd-9")] if flat else []
    purpose = f"{spell.plus.type} damage of {spell.name}"
    how = state.options.critical
    return [(roll_dice(ctx, events, caster.id, dice, critical, purpose, how, own), spell.plus.type)]


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
        given = amount(ctx, events, caster, spell.heal, spell)
        events += heal(target, given, f"{spell.name}, cast by {caster.id}")
    if spell.temp_hp:
        offered = amount(ctx, events, caster, spell.temp_hp, spell)
        events += gain_temporary(state, target, offered, f"{spell.name}")
    if spell.hp_at_most and target.hp > spell.hp_at_most:
        why = f"{target.name} has {hit_points(target.hp)}, more than {spell.hp_at_most}: no effect"
        events.append(Resolved(caster.id, "cast", [target.id], why, ["srd-77"]))
    elif spell.condition or spell.effect:
        events += afflict(state, caster, target, spell, held)
    if spell.stabilises:
        why = f"stabilised by {caster.name}'s {spell.name}"
        events += stabilised(target, why, "srd-76")
    if spell.teleport:
        events += teleported(target, spell)
    if spell.dispels:
        events += dispelled(ctx, caster, target, spell, command.level or spell.level)
    if spell.cures:
        why = f"{spell.name} ends it"
        events.append(ConditionCleared(target.id, cured(target, spell, command), why, ["srd-70"]))
    if not events:
        events.append(Resolved(caster.id, "cast", [target.id], spell.name, ["srd-5"]))
    return events


def teleported(caster: Fighter, spell: Spell) -> list[Event]:
    """srd-45: the caster is elsewhere, by magic: no movement spent, no opportunity attack
    (srd-18), and out of a grappler's reach (srd-20), as the GM places it."""
    moved = (
        f"{caster.name} teleports up to {spell.teleport} feet to a space it can see: no "
        "movement spent, no opportunity attack"
    )
    events: list[Event] = [Resolved(caster.id, "cast", [caster.id], moved, ["srd-45", "srd-18"])]
    if caster.has("grappled"):
        why = f"teleported out of the grappler's reach by {spell.name}"
        events.append(ConditionCleared(caster.id, "grappled", why, ["srd-45", "srd-20"]))
    return events


def amount(ctx: Context, events: list[Event], caster: Fighter, text: str, spell: Spell) -> int:
    """Healing or temporary hit points: the dice, the spell's own bonus, and the
    spellcasting modifier if the spell adds it."""
    dice, flat = parse_amount(text)
    added = [Modifier(flat, f"{spell.name} bonus", "srd-9")] if flat else []
    if spell.add_modifier:
        ability = ability_of(caster, spell)
        added.append(
            Modifier(caster.sheet.mod(ability), f"{ability.capitalize()} modifier", "srd-12")
        )
    total = sum(m.value for m in added)
    if dice:
        roll = ctx.dice.roll(dice, spell.name)
        rule = "srd-12" if spell.heal else "srd-11" if spell.temp_hp else "srd-49"
        events.append(summed_roll(caster.id, spell.name, roll, added, [rule]))
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
    ability = ability_of(caster, spell)
    mods = [
        Modifier(
            caster.sheet.mod(ability), f"spellcasting {ability.capitalize()} modifier", "srd-6"
        ),
        Modifier(caster.sheet.bonus, "proficiency", "srd-M4"),
    ]
    events: list[Event] = []
    ranged = spell.attack == "ranged"
    check_range(spell.name, command, ranged, "melee spell attack", target.name)
    if (double := duplicate_struck(ctx, events, caster, target, command)) is not None:
        swing = attack_roll(ctx, events, caster, double, command, mods, ranged, spell.name)
        return events + duplicate_hit(target, swing)
    seen = unseen(caster, target, command)
    melee = spell.attack == "melee"  # a melee spell attack may be parried (srd-39)
    answer = chosen(state, target, command.defence, spell.type, seen, melee=melee)
    swing = attack_roll(ctx, events, caster, target, command, mods, ranged, spell.name)
    answer = on_the_hit(state, ctx, events, caster, target, command, spell, answer, swing)
    hit, critical = answered(state, events, caster, target, answer, swing)
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
        more = more_damage(state, ctx, events, caster, spell, critical)
        events += harmed(
            state, ctx, events, caster, target, answer, parts, spell.type, critical, also=more
        )
    if spell.condition or spell.effect:
        after = roster.fold(evolve, state, events)
        events += afflict(after, caster, after.fighter(target.id), spell, held)
    if spell.no_reactions:
        events += reaction_taken(roster.fold(evolve, state, events).fighter(target.id), spell)
    return events + rebuked(
        state, ctx, events, caster, target, answer, command, spell.type, spell.name
    )


def reaction_taken(target: Fighter, spell: Spell) -> list[Event]:
    """srd-4: the hit leaves the target no reaction until the start of its next turn (shocking
    grasp), as one spent: its turn's start gives it back."""
    if target.dead or target.reaction:
        return []
    why = f"{spell.name}: no reactions until the start of {target.its} next turn"
    return [Spent(target.id, "reaction", 1, why, ["srd-4"])]


def darts_by_level(caster: Fighter, spell: Spell) -> str:
    """srd-43: how many darts a spell shoots by its slot's level, in words ("3 at 1st level,
    one more per level above"), as the caster's sheet has the spell."""
    own = next((s for s in caster.sheet.spells if s.name == spell.name), spell)
    more = {1: "one more"}.get(own.upcast_darts, f"{own.upcast_darts} more")
    above = f", {more} per level above" if own.upcast_darts else ""
    return f"{own.darts} at {ordinal(own.level)} level{above}"


def missiles(
    state: State,
    ctx: Context,
    before: list[Event],
    caster: Fighter,
    targets: list[Fighter],
    spell: Spell,
    command: Cast,
) -> list[Event]:
    """srd-43: each dart hits its creature with no roll, its damage rolled on its own; one
    target named takes them all. A target under an effect that blocks the spell (shield,
    cast as it is targeted) takes none."""
    aimed = targets * spell.darts if len(targets) == 1 else targets
    if len(aimed) != spell.darts:
        darts = f"{spell.name} has {spell.darts} darts: the darts must add up to {spell.darts} "
        raise RefusedError(
            f"{darts}({darts_by_level(caster, spell)}); name one target for all, or a target "
            "for each dart, naming one twice for two darts (gob gob wolf)",
            player=f"{darts}({darts_by_level(caster, spell)}): set how many at each target",
        )
    aimed_at = list({t.id: t for t in targets}.values())  # a creature named twice reacts once
    answers = {
        t.id: chosen(state, t, command.defence, spell.type, unseen(caster, t, command))
        for t in aimed_at
    }
    events: list[Event] = []
    for target in aimed_at:
        events += blocking(state, caster, target, spell, answers.get(target.id))
    # the darts strike at once (srd-43): each one's die is rolled, but one that an earlier
    # dart killed strikes a body, and the dead take no more damage (a dying PC still does)
    for dart, target in enumerate(aimed, start=1):
        now = roster.fold(evolve, state, [*before, *events])
        hurt = now.fighter(target.id)
        if blocks(hurt, spell.name):
            why = f"{hurt.name} takes no damage from it"
            events.append(Resolved(caster.id, "cast", [hurt.id], why, ["srd-43"]))
            continue
        what = f"damage of {spell.name}, dart {dart} (at {hurt.name})"
        parts = spell_damage(now, ctx, events, caster, spell, False, what)
        if hurt.dead:
            rolled = sum(p.value for p in parts)
            why = (f"dart {dart} strikes {hurt.name}'s body ({rolled} {spell.type}): "
                   f"{hurt.name} is already dead, and takes no more damage")  # fmt: skip
            events.append(Resolved(caster.id, "cast", [hurt.id], why, ["srd-43", "srd-13"]))
            continue
        events += deal(now, ctx, caster.id, hurt, parts, spell.type, False, ("srd-43",))
    for target in aimed_at:
        events += rebuked(
            state, ctx, [*before, *events], caster, target, answers.get(target.id),
            command, spell.type, spell.name,
        )  # fmt: skip
    return events


def blocking(
    state: State, caster: Fighter, target: Fighter, spell: Spell, answer: Reaction | None
) -> list[Event]:
    """The reaction to being targeted: one whose effect blocks the spell (shield)."""
    if answer is None or answer.trigger != HIT:
        return []
    effect = answer.spell.effect if answer.spell else None
    if effect is None or spell.name.lower() not in (b.lower() for b in effect.blocks):
        raise RefusedError(f"{answer.name} does not answer {spell.name}")
    why = f"cast as {caster.name}'s {spell.name} is aimed at it"
    return [*taken(state, target, answer), lasting_effect(state, target, answer, why)]


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
    dc = save_dc(caster, spell)
    ability = spell.save or "dex"
    purpose = f"{save_name(ability)} against {spell.name} (DC {dc})"
    rules = ["srd-25", *(["srd-31"] if spell.damage else [])]
    answers = [
        chosen(state, t, command.defence, spell.type, unseen(caster, t, command), (DAMAGED,))
        for t in targets
    ]
    shook = [spell.shaken_off and t.shook_off(caster.id, spell.name) for t in targets]
    cover, past = command.cover, []
    if spell.past_cover and ability == "dex" and cover_bonus(cover):
        past = [Modifier(0, f"{cover} cover does not help against {spell.name}", "srd-22", True)]
        cover = "none"
    unmoved = [
        (not spell.damage and spell.condition and t.immune_to(spell.condition)) or shaken
        for t, shaken in zip(targets, shook, strict=True)
    ]
    checks = [
        None
        if untouched
        else saving_throw(
            ctx,
            events,
            target,
            ability,
            dc,
            purpose,
            rules,
            cover,
            given=past,
            magic=spell.magic,
            resist=command.resist,
            favoured=wary_of(caster, target, spell),
        )
        for target, untouched in zip(targets, unmoved, strict=True)
    ]
    hurt = spell.damage and any(spell.half or not (c and c.success) for c in checks if c)
    rolled = spell_damage(state, ctx, events, caster, spell, False) if hurt else []
    more = more_damage(state, ctx, events, caster, spell, False) if hurt else []
    for target, check, answer, shaken in zip(targets, checks, answers, shook, strict=True):
        if check is None and shaken:
            events.append(still_shaken_off(target, caster, spell.name))
            continue
        if check is None:
            events.append(immune(target, spell.condition, spell.name))
            continue
        now = roster.fold(evolve, state, [*before, *events])
        caster, hit = now.fighter(caster.id), now.fighter(target.id)
        failed_by = 0 if check.success else dc - check.total
        events += save_outcome(
            now, ctx, caster, hit, spell, check.success, rolled, held, answer, failed_by, more
        )
        if check.success and spell.shaken_off:
            events += shaking_off(hit, caster.id, spell.name, "it saved against it")
        events += rebuked(
            state, ctx, [*before, *events], caster, target, answer, command, spell.type, spell.name
        )
    return events


def wary_of(caster: Fighter, target: Fighter, spell: Spell) -> tuple[str, str] | None:
    """srd-67: a creature the caster's side is fighting saves against it with advantage."""
    if not spell.wary or not caster.hostile_to(target):
        return None
    return f"{caster.name}'s side is fighting {target.name}", "srd-67"


def save_outcome(
    state: State,
    ctx: Context,
    caster: Fighter,
    target: Fighter,
    spell: Spell,
    saved: bool,
    rolled: list[Modifier],
    held: list[list[str]],
    answer: Reaction | None = None,
    failed_by: int = 0,
    more: Sequence[Typed] = (),
) -> list[Event]:
    """srd-25: the save says what a success does: half the damage (of each type, `more`
    the others), or nothing; the target's reaction to the damage (srd-42) before it lands."""
    events: list[Event] = []
    if rolled and not (saved and not spell.half):
        parts = saved_half(rolled) if saved else rolled
        also = [(saved_half(p) if saved else p, k) for p, k in more]
        kind, rules = spell.type, ("srd-25",)
        events += harmed(state, ctx, [], caster, target, answer, parts, kind, False, rules, also)
    if (spell.condition or spell.effect) and not saved:
        after = roster.fold(evolve, state, events)
        events += afflict(after, caster, after.fighter(target.id), spell, held, failed_by)
    if (
        spell.pushes
        and not saved
        and not roster.fold(evolve, state, events).fighter(target.id).dead
    ):
        why = (f"{target.name} is pushed {spell.pushes} feet away from {caster.name} by "
               f"{spell.name} (the GM places it)")  # fmt: skip
        events.append(Resolved(caster.id, "cast", [target.id], why, ["srd-25"]))
    if not events:
        how = "saves against" if saved else "fails the save against"
        events.append(Resolved(target.id, "save", [], f"{how} {spell.name}", ["srd-25"]))
    return events


def afflict(
    state: State,
    caster: Fighter,
    target: Fighter,
    spell: Spell,
    held: list[list[str]],
    failed_by: int = 0,
) -> list[Event]:
    """The spell's condition (and the worse one a save failed by enough adds), or its
    effect under the spell's name (srd-32, srd-33), with its duration (srd-28), held by
    the caster's concentration if the spell needs it (srd-26, srd-34)."""
    if target.dead:
        return []
    if spell.condition and target.immune_to(spell.condition):
        return [immune(target, spell.condition, spell.name, saved=bool(spell.save))]
    detail: dict[str, Any] = {"by": caster.id, "spell": spell.name, "magic": spell.magic}
    if spell.until_it_acts:
        detail[UNTIL_IT_ACTS] = True
    if spell.hp_pool:
        detail[UNTIL_DAMAGED] = True
    if spell.until_harmed:
        detail[UNTIL_HARMED_BY] = caster.side
    if spell.saves_when_hurt and spell.save:
        detail[SAVES_WHEN_HURT] = {"ability": spell.save, "dc": save_dc(caster, spell)}
    if spell.duplicates:
        detail[DUPLICATES] = spell.duplicates
    if spell.heartens:
        detail[HEARTENS] = max(0, caster.sheet.mod(ability_of(caster, spell)))
    if spell.wards:
        detail |= {WARD: save_dc(caster, spell), UNTIL_IT_ACTS: FOE}
    if spell.shelters:
        detail[SHELTERS] = True
    if spell.break_free:
        detail[BREAK_FREE] = save_dc(caster, spell)
    if spell.effect is not None:
        detail[EFFECT] = msgspec.to_builtins(spell.effect)
    repeated = spell.save or spell.repeat_save
    detail |= timed(state, caster, target, spell, repeated, save_dc(caster, spell))
    rules = ["srd-27" if spell.condition else "srd-32", "srd-28"]
    rules += ["srd-26", "srd-34"] if spell.concentration else []
    said, own = told(spell.effect, caster.name, target) if spell.effect else ("", [])
    reason, rules = f"{spell.name}: {said}" if said else spell.name, [*own, *rules]
    events: list[Event] = []
    for name in conditions_of(spell, failed_by) or [under(spell.name)]:
        if name != spell.condition and target.immune_to(name):
            events.append(immune(target, name, spell.name, saved=True))
            continue
        if spell.magic and spelt(name) in ("paralyzed", "restrained") and moving_freely(target):
            why = f"{moving_freely(target)}: magic cannot make {target.name} {name}"
            events.append(Resolved(target.id, "save", [], why, ["srd-80"]))
            continue
        if name in UNENDING and target.has(name):  # srd-27: prone once, until it stands
            why = f"already {name}: {spell.name} changes nothing"
            events.append(Resolved(target.id, "save", [], why, ["srd-27"]))
            continue
        if spell.concentration:
            held.append([target.id, name])
        # "under guidance: 1d4 added ...": the condition names the spell, the reason not again
        why = said if name == under(spell.name) else reason
        events.append(ConditionSet(target.id, name, why, detail, rules))
    return events
