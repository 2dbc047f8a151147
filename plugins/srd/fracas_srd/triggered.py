"""Reactions with a trigger (srd-39..srd-42): a target names the one it takes if the trigger
comes (`--defence wren=shield`, or its player's answer to `--ask`); it is taken, and its
reaction spent (srd-4), only if the trigger does come. Hit: shield (+5 AC, the triggering
attack included; a natural 20 still hits), uncanny dodge (half the damage). Damaged: absorb
elements (resistance to the triggering damage, before it is dealt), hellish rebuke (the
attacker saves against 2d10 fire, after the damage)."""

import re
import shlex
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import msgspec
from fracas.rules.api import (
    BadInputError,
    Choices,
    ConditionSet,
    Context,
    Event,
    FracasError,
    Modifier,
    ReactionDue,
    RefusedError,
    Resolved,
    Rolled,
    Spent,
    allowed,
)

from fracas_srd.checks import save_name, skill_check
from fracas_srd.conditions import acting_ends, saving_throw
from fracas_srd.damage import deal, roll_dice, saved_half
from fracas_srd.effects import EFFECT, under
from fracas_srd.sheets import Effect, Spell, levelled, ordinal, parse_amount
from fracas_srd.slots import as_cast, innate_use, slots_left, spend_slot
from fracas_srd.state import LEGENDARY_RESISTANCE, Fighter, State, until_next
from fracas_srd.turn import reaction

Decide = Callable[[Any, Any, Any], list[Event]]
NONE = "none"

HIT, DAMAGED, CAST = "hit", "damaged", "cast"


class Reaction(NamedTuple):
    name: str
    trigger: str
    spell: Spell | None = None
    halves: bool = False
    parry: int = 0  # AC against the one melee attack that would hit (a Parry, srd-39)


def taken(state: State, fighter: Fighter, found: Reaction) -> list[Event]:
    """The reaction spent (srd-4), and a reaction spell's slot (srd-50), or an innate one's
    use a day (hellish rebuke once a long rest)."""
    events = reaction(state, fighter, found.name)
    if found.spell and found.spell.innate:
        events += innate_use(fighter, found.spell)
    elif found.spell:
        events += spend_slot(fighter, reaction_slot(fighter, found.spell))
    return events


def reaction_slot(fighter: Fighter, spell: Spell) -> int:
    """srd-50, srd-51: the lowest slot left of the spell's level or higher; none: refused."""
    if not spell.level:
        return 0
    for level in range(spell.level, len(fighter.sheet.slots) + 1):
        if slots_left(fighter, level) > 0:
            return level
    raise RefusedError(f"{fighter.name} has no spell slot left for {spell.name} (srd-50)")


def as_slot_casts(fighter: Fighter, found: Reaction) -> Reaction:
    """srd-51: a reaction spell as the slot it will spend casts it (the lowest left of its
    level or higher): absorb elements' charge 1d6 more, hellish rebuke's 1d10 more, a level
    up. An innate one (a tiefling's rebuke) is cast at its own level."""
    spell = found.spell
    if spell is None or spell.innate or not spell.level:
        return found
    return found._replace(spell=as_cast(spell, reaction_slot(fighter, spell)))


def reactions_of(fighter: Fighter) -> list[Reaction]:
    """The reactions with a trigger on the sheet: reaction spells and features."""
    found = [
        Reaction(s.name, s.trigger, s)
        for s in fighter.sheet.spells
        if s.casting == "reaction" and s.trigger
    ]
    found += [
        Reaction(f.name, f.trigger, halves=f.halves, parry=f.parry)
        for f in fighter.sheet.features
        if f.trigger
    ]
    return found


def absorbs(found: Reaction) -> list[str]:
    """The damage types a reaction to damage resists (absorb elements), or none."""
    effect = found.spell.effect if found.spell else None
    return list(effect.resistances) if found.trigger == DAMAGED and effect else []


def chosen(
    state: State,
    target: Fighter,
    defence: dict[str, str],
    kind: str,
    unseen: str = "",
    comes: tuple[str, ...] = (HIT, DAMAGED),
    melee: bool = False,
) -> Reaction | None:
    """The reaction the target named for this attack, checked now: one it has, and may
    take (srd-4, srd-27, srd-1), seeing the attacker if it must (`unseen`: why it cannot,
    srd-40, srd-41), a parry only against a `melee` attack, wielding a melee weapon
    (srd-39); None if it named none."""
    name = defence.get(target.id, NONE)
    if name.lower() == NONE:
        return None
    own = reactions_of(target)
    found = next((r for r in own if r.name.lower() == name.lower()), None)
    if found is None:
        theirs = ", ".join(r.name for r in own) or "none"
        owner = "its own" if target.its == "its" else "theirs"
        raise BadInputError(f"{target.name} has no reaction {name!r}; {owner}: {theirs}")
    if found.trigger not in comes:
        raise RefusedError(f"{found.name} answers a hit, and this makes no attack roll (srd-39)")
    try:
        reaction(state, target, found.name)
    except RefusedError as refused:  # the reaction alone is wrong: the attack is re-entered
        raise without(target, found, f"{refused}, so not {found.name}") from None
    if unseen and (found.halves or (found.spell is not None and found.spell.save)):
        raise RefusedError(f"{found.name} needs a foe it can see: {unseen} (srd-40, srd-41)")
    if found.parry:
        parrying(target, found, unseen, melee)
    try:  # refused now if its uses a day, or its slots, are spent
        if found.spell and found.spell.innate:
            innate_use(target, found.spell)
        elif found.spell:
            reaction_slot(target, found.spell)
    except RefusedError as refused:
        raise without(target, found, str(refused)) from None
    types = absorbs(found)
    if types and kind not in types:
        raise RefusedError(f"{found.name} answers {', '.join(types)} damage, not {kind} (srd-42)")
    return found


def without(target: Fighter, found: Reaction, why: str) -> RefusedError:
    """A reaction named that cannot be taken: the command is entered again without it."""
    flag = shlex.quote(f"{target.id}={found.name}")
    return RefusedError(
        f"{why}; nothing was recorded: give it again without --defence {flag}",
        player=f"{why}; answer without {found.name}",
    )


def parrying(target: Fighter, found: Reaction, unseen: str, melee: bool) -> None:
    """srd-39: a parry answers one melee attack, by an attacker its creature can see, while
    it wields a melee weapon; refused in one line otherwise."""
    if not melee:
        raise RefusedError(
            f"{found.name} answers a melee attack that would hit, and this is not one (srd-39)"
        )
    if unseen:
        raise RefusedError(f"{found.name} needs an attacker {target.name} can see: {unseen} "
                           "(srd-39)")  # fmt: skip
    if not any(not w.ranged for w in target.sheet.weapons):
        raise RefusedError(f"{found.name} needs a melee weapon in hand: {target.name} has none "
                           f"on {target.its} sheet (srd-39)")  # fmt: skip


def counters(
    state: State, caster: Fighter, defence: dict[str, str]
) -> tuple[list[tuple[Fighter, Reaction]], dict[str, str]]:
    """srd-47: the creatures that answer a spell being cast (counterspell), checked now,
    and the defences left for its targets. Any creature but the caster may answer it."""
    countering, left = [], {}
    for who, name in defence.items():
        fighter = state.fighter(who)
        found = next((r for r in reactions_of(fighter) if r.name.lower() == name.lower()), None)
        if found is None or found.trigger != CAST:
            left[who] = name
            continue
        if who == caster.id:
            raise RefusedError(
                f"{caster.name} cannot answer {caster.its} own spell with {found.name}"
            )
        countering.append((fighter, chosen(state, fighter, {who: name}, "", comes=(CAST,))))
    return [(f, r) for f, r in countering if r is not None], left


def countered(
    state: State,
    ctx: Context,
    caster: Fighter,
    cast: Spell,
    level: int,
    counterer: Fighter,
    answer: Reaction,
) -> tuple[list[Event], bool]:
    """srd-47: counterspell, cast as `caster` casts `cast` at `level` (its slot, or its own
    level): a spell of the counterspell's slot level or lower fails; a higher one fails on
    the counterer's check with its spellcasting ability, DC 10 + the spell's level. The
    failed spell's action and slot stay spent. Whether the result is countered."""
    own = answer.spell or Spell(answer.name)
    slot = own.level if own.innate else reaction_slot(counterer, own)  # before it is spent
    events = [*taken(state, counterer, answer), *acting_ends(counterer, "casts a spell")]
    rules = ["srd-47", "srd-39"]
    spell = f"{cast.name} ({levelled(level, 'spell') if level else 'a cantrip'})"
    if level <= slot:
        why = f"{spell} is countered by {answer.name} at {ordinal(slot)} level"
        return [*events, Resolved(counterer.id, "react", [caster.id], why, rules)], True
    ability = counterer.casting_ability(own.ability)
    check = skill_check(ctx, events, counterer, ability, 10 + level, rules)
    outcome = "is countered" if check.success else f"goes on: {answer.name} fails"
    why = f"{spell} {outcome}"
    return [*events, Resolved(counterer.id, "react", [caster.id], why, rules)], check.success


def lasting_effect(state: State, caster: Fighter, found: Reaction, reason: str) -> ConditionSet:
    """A reaction spell's effect on its caster, to the start of its next turn."""
    spell = found.spell
    effect = spell.effect if spell and spell.effect else None
    detail = {
        "by": caster.id,
        "spell": found.name,
        "until": msgspec.to_builtins(until_next(state, spell.until or "start", caster.id)),
    }
    if effect is not None:
        detail[EFFECT] = msgspec.to_builtins(effect)
    return ConditionSet(caster.id, under(found.name), reason, detail, ["srd-39", "srd-32"])


TURNED = "the hit becomes a miss"  # a reaction's outcome that turns a hit (srd-39)


def settled(roll: Rolled, after: Sequence[Event]) -> str | None:
    """What a roll came to once its step is decided, where a later event changed it: an
    attack's hit a shield turned into a miss ("miss (14 vs AC 17, shield)", srd-39), a failed save
    legendary resistance made a success (srd-56). None: the roll's own result stands."""
    for event in after:
        if isinstance(event, Rolled) and event.actor == roll.actor:
            return None  # the roller's next roll: what follows is that one's
        if (
            isinstance(event, Resolved)
            and event.action == "react"
            and roll.actor in event.targets
            and event.outcome.endswith(f": {TURNED}")
        ):
            met = re.fullmatch(r"\d+ vs AC \d+", event.detail)
            why = event.outcome.split(":")[0]
            return f"miss ({met[0]}, {why})" if met else f"miss: {why}"
        if (
            isinstance(event, Spent)
            and event.combatant == roll.actor
            and event.resource == LEGENDARY_RESISTANCE
        ):
            return f"success: {LEGENDARY_RESISTANCE}"
    return None


def when_hit(
    state: State,
    attacker: Fighter,
    target: Fighter,
    found: Reaction | None,
    natural: int,
    total: int,
    met: int,
) -> tuple[list[Event], bool]:
    """srd-39, srd-40: the reaction to a hit, and whether it still hits; `met` is the AC the
    roll met (cover's too, srd-22). Shield is cast only if it turns the hit into a miss,
    whether declared beforehand or chosen once the hit was seen (`--ask`, where it is offered
    only then); else the reaction and slot stay."""
    if found is None or found.trigger != HIT:
        return [], True
    if found.halves:
        why = f"{found.name}: half the damage of {attacker.name}'s hit"
        events = taken(state, target, found)
        return [*events, Resolved(target.id, "react", [attacker.id], why, ["srd-40"])], True
    ac = met + raised(found)
    what = "a natural 20 still hits" if natural == 20 else f"{total} vs AC {ac}"
    if not turns(found, natural, total, met):
        # Taken only if it can matter: the reaction and slot stay (srd-39).
        done = "not taken" if found.parry else "not cast"
        outcome = f"{found.name}: {done}, it cannot turn the hit"
        return [Resolved(target.id, "react", [attacker.id], outcome, ["srd-39"], what)], True
    events = taken(state, target, found)
    if not found.parry:  # shield's +5 lasts to its next turn; a parry is against this one
        why = f"cast as {attacker.name}'s attack hits"
        events.append(lasting_effect(state, target, found, why))
    outcome = f"{found.name}: {TURNED}"
    turned = Resolved(target.id, "react", [attacker.id], outcome, ["srd-39"], what)
    return [*events, turned], False


def raised(found: Reaction) -> int:
    """The AC a reaction to a hit adds (shield's +5, a parry's +2), or 0."""
    if found.parry:
        return found.parry
    effect = found.spell.effect if found.spell else None
    return effect.ac if effect else 0


def turns(found: Reaction, natural: int, total: int, met: int) -> bool:
    """srd-39, srd-40: whether a reaction to a hit can matter to this one: uncanny dodge
    always halves it; shield only turns it into a miss, its +5 above the total (`met`: the
    AC the roll met, cover's too), never a natural 20's; so does a parry, its own +N."""
    if found.halves:
        return True
    return natural != 20 and total < met + raised(found)


def halved(parts: list[Modifier], found: Reaction | None) -> list[Modifier]:
    """srd-40: uncanny dodge halves the attack's damage (before resistance, srd-10)."""
    if found is None or not found.halves:
        return parts
    total = max(0, sum(p.value for p in parts))
    return [*parts, Modifier(total // 2 - total, f"halved by {found.name}", "srd-40")]


def absorbing(
    state: State, target: Fighter, found: Reaction | None, kind: str, attacker: Fighter
) -> list[Event]:
    """srd-42: resistance to the triggering damage's type, that damage included."""
    if found is None or not absorbs(found):
        return []
    events = taken(state, target, found)
    shield = lasting_effect(state, target, found, f"cast as {attacker.name}'s {kind} damage lands")
    effect = {**shield.detail[EFFECT], "resistances": [kind]}
    events.append(msgspec.structs.replace(shield, detail={**shield.detail, EFFECT: effect}))
    return events + charged(state, target, as_slot_casts(target, found), kind)


def charged(state: State, caster: Fighter, found: Reaction, kind: str) -> list[Event]:
    """srd-42: the spell's charge, dice of the triggering type on the caster's first melee
    hit by the end of its next turn."""
    if found.spell is None or not found.spell.charge:
        return []
    charge = Effect(extra=found.spell.charge, extra_type=kind, melee=True, once=True)  # type: ignore[arg-type]
    detail = {
        "by": caster.id,
        "spell": found.name,
        "until": msgspec.to_builtins(until_next(state, "end", caster.id)),
        EFFECT: msgspec.to_builtins(charge),
    }
    why = f"{found.spell.charge} {kind} on its first melee hit by the end of its next turn"
    return [ConditionSet(caster.id, f"charged with {kind}", why, detail, ["srd-42", "srd-33"])]


def rebuking(
    state: State, ctx: Context, attacker: Fighter, target: Fighter, found: Reaction | None
) -> list[Event]:
    """srd-41: after taking the damage, the damaged creature's spell on its attacker: the
    attacker's save first, then the damage (srd-31)."""
    spell = found.spell if found else None
    if found is None or spell is None or found.trigger != DAMAGED or not spell.save:
        return []
    if target.incapacitated or target.dead:
        why = f"{target.name} is down: no {found.name}"
        return [Resolved(target.id, "react", [attacker.id], why, ["srd-41", "srd-27"])]
    events = taken(state, target, found)
    spell = as_slot_casts(target, found).spell or spell
    dc = target.dc_of(spell)
    purpose = f"{save_name(spell.save)} against {spell.name} (DC {dc})"
    rules = ["srd-41", "srd-31"]
    saved = saving_throw(ctx, events, attacker, spell.save, dc, purpose, rules).success
    if saved and not spell.half:
        return events
    dice, flat = parse_amount(spell.damage)
    how = state.options.critical
    added = [Modifier(flat, f"{spell.name} bonus", "srd-9")] if flat else []
    what = f"damage of {spell.name}"
    parts = roll_dice(ctx, events, target.id, dice, False, what, how, added)
    parts = saved_half(parts) if saved else parts
    return events + deal(state, ctx, target.id, attacker, parts, spell.type, False, ("srd-41",))


def asks_later(found: Reaction) -> bool:
    """A reaction the target chooses once it sees its trigger (`--ask`): to a hit (shield,
    uncanny dodge) or to damage dealt, on the attacker (hellish rebuke)."""
    if found.trigger == HIT:
        return True
    return found.trigger == DAMAGED and found.spell is not None and bool(found.spell.save)


def after_roll(state: State, command: Any) -> list[str]:
    """The reacts_after hook: the targets of an attack with a reaction to its hit or its
    damage they may take now and have not declared (srd-39..srd-41)."""
    given = getattr(command, "defence", None)
    if given is None or not state.round or not attacking(state, command):
        return []
    found = []
    for who in getattr(command, "targets", []):
        target = state.fighters.get(who)
        if target is None or who in given or who == getattr(command, "actor", None):
            continue
        if not any(asks_later(r) for r in reactions_of(target)):
            continue
        try:
            reaction(state, target, "a reaction")
        except FracasError:
            continue
        found.append(who)
    return found


def seen_trigger(
    state: State,
    ctx: Context,
    events: list[Event],
    target: Fighter,
    command: Any,
    trigger: str,
    kind: str,
    unseen: str,
    said: str,
    matters: Callable[[Reaction], bool] = lambda _: True,
    melee: bool = False,
    hidden_said: str = "",
) -> Reaction | None:
    """The reaction `target` chose once it saw `trigger` come (its answer to `--ask`, in
    `on_hit` or `on_damage`), checked now; None for none. With no answer yet and the table
    waiting on the target, the question is raised (ReactionDue) with `said`, what it saw,
    offering only the reactions that `matters` to it (shield not against a hit it cannot
    turn): none left, nobody is asked and the step goes on as rolled. `hidden_said`: what
    it saw as the players read it while the attacker is hidden, its name and weapon out."""
    field = "on_hit" if trigger == HIT else "on_damage"
    name = (getattr(command, field, None) or {}).get(target.id)
    if name is not None:
        if name.lower() == NONE:
            return None
        return chosen(state, target, {target.id: name}, kind, unseen, melee=melee)
    if target.id not in getattr(ctx, "ask", ()):
        return None
    names = []
    for found in reactions_of(target):
        if found.trigger != trigger or not asks_later(found) or not matters(found):
            continue
        try:
            chosen(state, target, {target.id: found.name}, kind, unseen, melee=melee)
        except FracasError:
            continue
        names.append(found.name)
    if not names:
        return None
    why = "no reaction: the attack goes on as rolled"
    rule = "srd-41" if trigger == DAMAGED else "srd-39"
    choices = Choices([NONE, *names], NONE, rule, why, field=field, omit="")
    raise ReactionDue(target.id, choices, events, said, hidden_said)


def attacking(state: State, command: Any) -> bool:
    """The command makes an attack (or aims magic missile's darts): a trigger may come."""
    actor = state.fighters.get(getattr(command, "actor", ""))
    tag = command.__struct_config__.tag
    if actor is None:
        return False
    if tag == "legendary":
        option = next(
            (o for o in actor.sheet.legendary if o.name.lower() == command.option.lower()), None
        )
        return option is not None and bool(option.weapon)
    if tag == "react":
        return actor.conditions.get("readied", {}).get("then") == "attack"
    if tag == "cast":
        spell = next(
            (s for s in actor.sheet.spells if s.name.lower() == command.spell.lower()), None
        )
        return spell is not None and triggers(spell)
    return True


def darts_cast(state: State, command: Any) -> bool:
    """The command casts darts (magic missile): a reaction to a hit answers their aim."""
    actor = state.fighters.get(getattr(command, "actor", ""))
    if actor is None or command.__struct_config__.tag != "cast":
        return False
    name = command.spell.lower()
    return any(s.name.lower() == name and s.darts > 0 for s in actor.sheet.spells)


def triggers(spell: Spell) -> bool:
    """A spell a reaction may answer: an attack, darts, or damage after a save."""
    return spell.attack != "none" or spell.darts > 0 or bool(spell.save and spell.damage)


def offered(decide: Decide, state: State, command: object) -> dict[str, Choices]:
    """The reactions hook: each target of an attack with a reaction it may take now is
    asked which, if its trigger comes (none by default)."""
    given = getattr(command, "defence", None)
    if given is None or not state.round:
        return {}
    found = counters_offered(decide, state, command, given)
    if not attacking(state, command):
        return found
    darts = darts_cast(state, command)

    def aimed(found: Reaction) -> bool:  # shield answers being aimed at by darts (srd-43)
        return darts and found.trigger == HIT and not found.parry
    for who in getattr(command, "targets", []):
        target = state.fighters.get(who)
        if target is None or who in given or who == getattr(command, "actor", None):
            continue
        names = [r.name for r in reactions_of(target) if not asks_later(r) or aimed(r)]
        if not names:
            continue
        why = "no reaction: the attack is resolved as rolled"
        choices = Choices([NONE, *names], NONE, "srd-39", why, field="defence", omit=NONE)
        kept = allowed(decide, state, command, who, choices)
        if kept is not None:
            found[who] = kept
    return found


def counters_offered(
    decide: Decide, state: State, command: object, given: dict[str, str]
) -> dict[str, Choices]:
    """srd-47: as a spell is cast, each other creature with a reaction to it (counterspell)
    that may take it now is asked, targets or not."""
    actor = state.fighters.get(getattr(command, "actor", ""))
    if command.__struct_config__.tag != "cast" or actor is None:  # type: ignore[attr-defined]
        return {}
    found = {}
    for fighter in state.fighters.values():
        names = [r.name for r in reactions_of(fighter) if r.trigger == CAST]
        if fighter.id == actor.id or fighter.id in given or not names:
            continue
        why = "no counterspell: the spell is cast"
        choices = Choices([NONE, *names], NONE, "srd-47", why, field="defence", omit=NONE)
        kept = allowed(decide, state, command, fighter.id, choices)
        if kept is not None:
            found[fighter.id] = kept
    return found
