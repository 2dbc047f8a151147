"""The attack roll (srd-6, srd-7), critical hits (srd-8) and weapon damage (srd-9),
with cover (srd-22), close and long range (srd-17) and the conditions (srd-27)."""

from collections.abc import Sequence
from typing import NamedTuple

import msgspec
from fracas.rules.api import (
    CombatantRevealed,
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Rolled,
    Spent,
    roster,
)

from fracas_srd.checks import d20_test, save_name
from fracas_srd.commands import Scene
from fracas_srd.conditions import (
    acting_ends,
    attack_edge,
    check_charmed,
    cover_bonus,
    critical_up_close,
    saving_throw,
    turned_away,
    unseen_by,
)
from fracas_srd.damage import Typed, deal, roll_dice
from fracas_srd.effects import (
    ac_notes,
    armor_class,
    bonuses,
    extras,
    hunted_by,
    imbued,
    spent_attacked,
    spent_once,
)
from fracas_srd.evolve import evolve
from fracas_srd.lasting import conditions_of, timed, worse_time
from fracas_srd.sheets import Ability, Rider, Sheet, Spell, Weapon, parse_amount
from fracas_srd.state import ONCE_A_TURN, Fighter, State, immune
from fracas_srd.triggered import (
    DAMAGED,
    HIT,
    Reaction,
    absorbing,
    chosen,
    halved,
    rebuking,
    seen_trigger,
    turns,
    when_hit,
)
from fracas_srd.turn import dead_target

CRITICAL, FUMBLE = "critical hit", "natural 1: miss"


def weapon_of(fighter: Fighter, name: str) -> Weapon:
    """The weapon named, or the sheet's first, or an unarmed strike; as an effect makes it
    (shillelagh, srd-84)."""
    return imbued(fighter, fighter.sheet.wielded(name))


def ability_for(sheet: Sheet, weapon: Weapon) -> Ability:
    """srd-6: Str for melee, Dex for ranged; a finesse weapon takes the better; one an
    effect imbues, its own (shillelagh's spellcasting ability, srd-84)."""
    if weapon.ability:
        return weapon.ability
    if weapon.finesse:
        return "dex" if sheet.mod("dex") > sheet.mod("str") else "str"
    return "dex" if weapon.ranged else "str"


def attack_modifiers(fighter: Fighter, weapon: Weapon) -> list[Modifier]:
    ability = ability_for(fighter.sheet, weapon)
    mods = [Modifier(fighter.sheet.mod(ability), f"{ability.capitalize()} modifier", "srd-6")]
    if weapon.proficient:
        mods.append(Modifier(fighter.sheet.bonus, f"proficient with {weapon.name}", "srd-M4"))
    if weapon.magic:
        mods.append(Modifier(weapon.magic, f"a +{weapon.magic} weapon", "srd-6"))
    if weapon.hit:
        mods.append(Modifier(weapon.hit, f"{weapon.name}: as its stat block gives it", "srd-6"))
    return mods


def cover_notes(cover: str) -> list[Modifier]:
    """srd-22: cover raises the target's AC; a note on the roll says by how much."""
    more = cover_bonus(cover)
    return [Modifier(0, f"{cover} cover: +{more} AC", "srd-22", note=True)] if more else []


def judge_attack(ac: int, up_close: str):
    """srd-7: a natural 20 hits and is critical, a natural 1 misses; srd-27: a hit from
    within 5 feet on the paralysed or unconscious is critical."""

    def judge(natural: int, total: int) -> tuple[bool, str]:
        if natural == 20:
            return True, CRITICAL
        if natural == 1:
            return False, FUMBLE
        if total < ac:
            return False, f"miss ({total} vs AC {ac})"
        if up_close:
            return True, f"{CRITICAL} ({total} vs AC {ac}, within 5 feet of the {up_close})"
        return True, f"hit ({total} vs AC {ac})"

    return judge


class Swing(NamedTuple):
    hit: bool
    critical: bool
    natural: int
    total: int
    edge: str  # advantage, disadvantage or ""
    ac: int  # the AC it met, cover's too (srd-22)


def attack_roll(
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    command: Scene,
    mods: list[Modifier],
    ranged: bool,
    what: str,
) -> Swing:
    """One attack roll against one target's AC."""
    edge = attack_edge(attacker, target, command, ranged)
    up_close = critical_up_close(target, command, ranged)
    purpose = f"attack on {target.name} with {what}"
    rules = ["srd-6", "srd-7", *(["srd-17"] if ranged else [])]
    if up_close and command.within_5ft is None:
        rules.append("srd-30")  # the critical rests on melee being within 5 feet
    ac = armor_class(target) + cover_bonus(command.cover)
    judge = judge_attack(ac, up_close)
    flat, dice = bonuses(attacker, "attacks")
    given = [*mods, *flat, *command.modifiers, *ac_notes(target), *cover_notes(command.cover)]
    check = d20_test(ctx, events, attacker.id, purpose, given, edge, ac, rules, judge, dice)
    hit, text = judge(check.natural, check.total)
    events += spent_edges(attacker, target)
    return Swing(hit, text.startswith(CRITICAL), check.natural, check.total, edge.kind, ac)


DUPLICATES = "duplicates"  # a condition's detail: its creature's illusory duplicates left


def duplicate_struck(
    ctx: Context, events: list[Event], attacker: Fighter, target: Fighter, command: Scene
) -> Fighter | None:
    """srd-74: an attack on a creature with illusory duplicates (mirror image) strikes one
    on a d20 of 6 or more (three left), 8 (two), 11 (one): the duplicate, a creature of AC
    10 + its Dex modifier; None where it strikes the creature, or the attacker cannot see."""
    held = next(((n, d) for n, d in target.conditions.items() if d.get(DUPLICATES)), None)
    if held is None or command.unseeing or attacker.has("blinded"):
        return None
    left = int(held[1][DUPLICATES])
    need = {3: 6, 2: 8}.get(left, 11)
    purpose = f"{held[1].get('spell', held[0])}: does the attack strike a duplicate ({need}+)"
    roll = ctx.dice.roll("d20", purpose)
    struck = roll.total >= need
    said = f"{roll.total}: {'a duplicate' if struck else target.name}"
    events.append(Rolled(attacker.id, purpose, roll, None, [], said, ["srd-74"]))
    if not struck:
        return None
    ac = 10 + target.sheet.mod("dex")
    sheet = msgspec.structs.replace(target.sheet, ac=ac)
    return msgspec.structs.replace(
        target, name=f"a duplicate of {target.name}", sheet=sheet, conditions={}
    )


def duplicate_hit(target: Fighter, swing: Swing) -> list[Event]:
    """srd-74: a hit destroys the duplicate; the last one destroyed ends the spell."""
    name, detail = next((n, d) for n, d in target.conditions.items() if d.get(DUPLICATES))
    if not swing.hit:
        return [Resolved(target.id, "duplicate", [], "the duplicate is missed", ["srd-74"])]
    left = int(detail[DUPLICATES]) - 1
    if not left:
        return [ConditionCleared(target.id, name, "its last duplicate is destroyed", ["srd-74"])]
    why = f"a duplicate is destroyed: {left} left"
    return [ConditionSet(target.id, name, why, {**detail, DUPLICATES: left}, ["srd-74"])]


def spent_edges(attacker: Fighter, target: Fighter) -> list[Event]:
    """A Help is used up by the attack it helps (srd-5); an attack, hit or miss, gives a
    hider away (srd-23), and one the players did not see (`add --hidden`) shows itself."""
    events: list[Event] = []
    if attacker.conditions.get("helped", {}).get("against") == target.id:
        events.append(ConditionCleared(attacker.id, "helped", "used on this attack", ["srd-5"]))
    if attacker.has("hidden"):
        events.append(ConditionCleared(attacker.id, "hidden", "attacked", ["srd-23"]))
    events += acting_ends(attacker, "attacks")
    events += spent_once(attacker, "attacks") + spent_attacked(target, attacker.id)
    if attacker.unseen:
        why = "its attack gives it away, hit or miss"
        events.append(CombatantRevealed(attacker.id, reason=why, rules=["srd-23"]))
    return events


def damage_parts(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    weapon: Weapon,
    critical: bool,
    extra: str,
    offhand: bool,
) -> list[Modifier]:
    """srd-9: the dice, then the ability modifier of the attack (srd-19: off-hand, only a
    negative one); the flat parts are recorded with the first roll, which states the sum."""
    dice, flat = parse_amount(weapon.damage)
    how = state.options.critical
    rolls = [(dice, f"damage of {weapon.name}")] if dice else []
    given, _ = parse_amount(extra) if extra else ("", 0)
    rolls += [(given, "extra damage")] if given else []
    rolls += [
        (more.dice, f"extra damage: {more.source}")
        for more in extras(attacker, melee=not weapon.ranged)
        if more.kind in ("", weapon.type)
    ]
    added = flat_damage(attacker, weapon, flat, offhand)
    parts: list[Modifier] = []
    for spec, what in rolls:
        parts += roll_dice(ctx, events, attacker.id, spec, critical, what, how, added)
        added = []
    return parts + added  # none rolled (an unarmed strike's 1): the flat parts alone


def flat_damage(attacker: Fighter, weapon: Weapon, flat: int, offhand: bool) -> list[Modifier]:
    """srd-9: what a weapon's damage adds to its dice: its own bonus, a magic weapon's, the
    attack's ability modifier (srd-19: off-hand, only a negative one)."""
    parts: list[Modifier] = []
    if flat:
        parts.append(Modifier(flat, f"{weapon.name}'s own bonus", "srd-9"))
    if weapon.magic:
        parts.append(Modifier(weapon.magic, f"a +{weapon.magic} weapon", "srd-9"))
    ability = ability_for(attacker.sheet, weapon)
    mod = attacker.sheet.mod(ability)
    if offhand and mod > 0:
        parts.append(
            Modifier(
                0, f"off-hand: the {ability.capitalize()} modifier is not added", "srd-19", True
            )
        )
    else:
        parts.append(Modifier(mod, f"{ability.capitalize()} modifier", "srd-9"))
    return parts


def typed_damage(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    weapon: Weapon,
    critical: bool,
) -> list[Typed]:
    """A hit's damage of other types than the weapon's, its dice doubled on a critical too:
    the weapon's own (a bite's fire), and an effect's (absorb elements' charge, srd-42)."""
    given = []  # (amount, type, what the roll is for, what its terms say)
    if weapon.plus is not None:
        kind = weapon.plus.type
        given.append((weapon.plus.damage, kind, f"{kind} damage of {weapon.name}", kind))
    for more in extras(attacker, melee=not weapon.ranged):
        if more.kind not in ("", weapon.type):
            said = f"{more.kind} ({more.source})"
            given.append((more.dice, more.kind, f"{more.kind} damage: {more.source}", said))
    found: list[Typed] = []
    for amount, kind, what, said in given:
        dice, flat = parse_amount(amount)
        added = [Modifier(flat, "its own bonus", "srd-9")] if flat else []
        how = state.options.critical
        parts = roll_dice(ctx, events, attacker.id, dice, critical, what, how, added)
        found.append(([Modifier(p.value, f"{p.reason}: {said}", p.rule) for p in parts], kind))
    return found


def spent_extras(attacker: Fighter, weapon: Weapon) -> list[Event]:
    """An effect that adds to one hit ends with it (absorb elements' charge, srd-42)."""
    return [
        ConditionCleared(
            attacker.id, more.held_by, f"spent on the hit with {weapon.name}", ["srd-33"]
        )
        for more in extras(attacker, melee=not weapon.ranged)
        if more.once and more.held_by
    ]


def ranged_attack(weapon: Weapon, command: Scene) -> bool:
    """srd-17: a ranged weapon's attack is ranged, and so is a thrown weapon's thrown beyond
    5 feet (its ability stays the melee one: srd-6), or at a range said (long, beyond) with
    nothing said of 5 feet."""
    thrown = command.within_5ft is False or (
        command.within_5ft is None and command.range != "normal"
    )
    return weapon.ranged or bool(weapon.range and thrown)


def check_range(
    what: str, command: Scene, ranged: bool, kind: str = "melee weapon", target: str = "the target"
) -> None:
    """srd-17: a range (long, beyond) is said of a ranged attack only; said of a melee one
    it is refused, never dropped: a melee weapon or spell has no long range, and a thrown
    weapon said to be within 5 feet is not thrown at range. A spell has one range, so long
    range said of a ranged spell attack is refused too, and beyond it in the spell's words
    (`target`: whom it is aimed at)."""
    said = f"-o range={command.range}"
    if ranged and kind == "melee spell attack" and command.range == "beyond":
        raise RefusedError(
            f"{target} is beyond {what}'s range: no attack (srd-17)",
            player=f"{target} is beyond {what}'s range",
        )
    if ranged and kind == "melee spell attack" and command.range == "long":
        # a spell has one range (the SRD's Spellcasting: Range); long range is a weapon's
        raise RefusedError(
            f"{what} has one range and no long range (a weapon's, srd-17): give the spell "
            f"again without {said}",
            player=f"{what} has one range and no long range; cast it without a range",
        )
    if ranged or command.range == "normal":
        return
    if kind == "thrown weapon":
        raise RefusedError(
            f"{what} is swung within 5 feet, so not at {command.range} range (srd-17): give "
            f"the attack again with -o within_5ft=false to throw it, or without {said}"
        )
    raise RefusedError(
        f"{what} has no long range: it is a {kind}, and {said} is for a ranged attack "
        f"(srd-17); give the attack again without it",
        player=f"{what} has no long range: it is a {kind}; attack without a range",
    )


def check_reach(weapon: Weapon, command: Scene) -> None:
    """srd-53: a melee weapon strikes beyond 5 feet only if it has the reach (a thrown one,
    with its range, is thrown)."""
    beyond = command.within_5ft is False and not weapon.ranged and not weapon.range
    if beyond and weapon.reach <= 5:
        raise RefusedError(
            f"{weapon.name} reaches 5 feet: a melee attack beyond 5 feet needs a weapon with "
            "reach (reach = 10 on the sheet; srd-53)"
        )


def weapon_attack(
    state: State,
    ctx: Context,
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    command: Scene,
    action: str,
    offhand: bool = False,
) -> list[Event]:
    """One attack with a weapon against one target, and its damage on a hit."""
    if target.dead:
        raise dead_target(target)
    check_charmed(attacker, [target], "attack")
    kind = "thrown weapon" if weapon.range else "melee weapon"
    check_range(weapon.name, command, ranged_attack(weapon, command), kind)
    check_reach(weapon, command)
    events: list[Event] = []
    if turned_away(ctx, events, attacker, target):
        return events
    mods = attack_modifiers(attacker, weapon)
    ranged = ranged_attack(weapon, command)
    if (double := duplicate_struck(ctx, events, attacker, target, command)) is not None:
        swing = attack_roll(
            ctx, events, attacker, double, command, mods, ranged, weapon.name
        )
        return events + duplicate_hit(target, swing)
    seen = unseen(attacker, target, command)
    answer = chosen(state, target, command.defence, weapon.type, seen, melee=not ranged)
    swing = attack_roll(ctx, events, attacker, target, command, mods, ranged, weapon.name)
    answer = on_the_hit(state, ctx, events, attacker, target, command, weapon, answer, swing)
    hit, critical = answered(state, events, attacker, target, answer, swing)
    outcome = "critical hit" if critical else "hits" if hit else "misses"
    events.append(
        Resolved(
            attacker.id,
            action,
            [target.id],
            f"{outcome} {target.name}",
            ["srd-6", "srd-7", *(["srd-8"] if critical else [])],
        )
    )
    if not hit:
        return events
    if not weapon.damage:  # it only grapples (a roper's tendril)
        return events + grappled_by(attacker, target, weapon)
    parts = damage_parts(state, ctx, events, attacker, weapon, critical, command.extra, offhand)
    parts += sneak_attack(state, ctx, events, attacker, weapon, command, swing, critical)
    for dice, source in hunted_by(target, attacker.id):  # srd-83
        parts += roll_dice(ctx, events, attacker.id, dice, critical, source, state.options.critical)
    also = typed_damage(state, ctx, events, attacker, weapon, critical)
    mundane = not (weapon.magic or weapon.magical)  # srd-62
    events += harmed(
        state,
        ctx,
        events,
        attacker,
        target,
        answer,
        parts,
        weapon.type,
        critical,
        (),
        also,
        mundane,
    )
    events += spent_extras(attacker, weapon)
    if weapon.rider is not None:
        after = roster.fold(evolve, state, events)
        hurt = after.fighter(target.id)
        events += ridden(after, ctx, attacker, hurt, weapon.name, weapon.rider, command.resist)
    if weapon.grapple:
        events += grappled_by(
            attacker, roster.fold(evolve, state, events).fighter(target.id), weapon
        )
    return events + rebuked(
        state, ctx, events, attacker, target, answer, command, weapon.type, weapon.name
    )


def on_the_hit(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    command: Scene,
    weapon: Weapon | Spell,
    answer: Reaction | None,
    swing: Swing,
) -> Reaction | None:
    """The reaction to a hit the target chose once it saw it (`--ask`: asked now, srd-39),
    when it declared none beforehand; asked only of one that can matter to this hit (not
    shield against a hit it cannot turn)."""
    if answer is not None or not swing.hit:
        return answer
    what = "a natural 20" if swing.natural == 20 else f"{swing.total} vs AC {swing.ac}"
    said = f"{attacker.name}'s {weapon.name} hits {target.name}: {what}"
    hidden_said = f"Someone unseen hits {target.name}: {what}"  # nothing of what it wields
    kind = weapon.type
    seen = unseen(attacker, target, command)

    def matters(found: Reaction) -> bool:
        return turns(found, swing.natural, swing.total, swing.ac)

    if isinstance(weapon, Spell):
        melee = weapon.attack == "melee"
    else:
        melee = not ranged_attack(weapon, command)
    return seen_trigger(
        state, ctx, events, target, command, HIT, kind, seen, said, matters, melee, hidden_said
    )


def grappled_by(attacker: Fighter, target: Fighter, weapon: Weapon) -> list[Event]:
    """srd-20: the hit grapples the target (escape DC as the weapon says) and, by a weapon
    that restrains, restrains it while the grapple lasts."""
    if target.dead:
        return []
    if target.immune_to("grappled"):
        return [immune(target, "grappled", weapon.name)]
    why = f"{weapon.name} of {attacker.name}"
    hold = {"by": attacker.id, "escape": weapon.grapple}
    events: list[Event] = [ConditionSet(target.id, "grappled", why, hold, ["srd-20"])]
    if weapon.restrains and not target.immune_to("restrained"):
        held = {"by": attacker.id, "while": "grappled"}
        events.append(ConditionSet(target.id, "restrained", why, held, ["srd-20", "srd-27"]))
    return events


def sneak_attack(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    weapon: Weapon,
    command: Scene,
    swing: Swing,
    critical: bool,
) -> list[Modifier]:
    """srd-38: once a turn, a finesse or ranged weapon's hit deals the feature's extra dice,
    with advantage on the roll, or another foe of the target within 5 feet of it and no
    disadvantage."""
    feature = next((f for f in attacker.sheet.features if f.sneak and f.extra), None)
    if feature is None:
        return []
    why = withheld(state, attacker, feature.name, weapon, command, swing)
    if why:
        said = f"not on this hit: {why}"
        events.append(Resolved(attacker.id, feature.name, [], said, ["srd-38"]))
        return []
    events.append(Spent(attacker.id, ONCE_A_TURN, 1, feature.name, ["srd-38"]))
    how = state.options.critical
    dice, _ = parse_amount(feature.extra)
    return roll_dice(ctx, events, attacker.id, dice, critical, feature.name, how)


def withheld(
    state: State, attacker: Fighter, name: str, weapon: Weapon, command: Scene, swing: Swing
) -> str:
    """srd-38: why a sneak attack does not come with this hit, or ""."""
    if attacker.once.get(name) == f"{state.round}:{state.turn}":
        return "used already this turn (once a turn)"
    if not (weapon.finesse or weapon.ranged):
        return f"{weapon.name} is neither a finesse nor a ranged weapon"
    if swing.edge == "disadvantage":
        return "the attack roll had disadvantage"
    if swing.edge != "advantage" and not command.ally_near:
        return (
            "no advantage on the roll and no other foe of the target declared within 5 feet "
            "of it"
        )
    return ""


def unseen(attacker: Fighter, target: Fighter, command: Scene) -> str:
    """Why the target cannot see its attacker, or "" (srd-23, srd-27)."""
    return "the GM says so" if command.unseen else unseen_by(target, attacker)


def answered(
    state: State,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    answer: Reaction | None,
    swing: Swing,
) -> tuple[bool, bool]:
    """(hit, critical) once the target's reaction to a hit is taken (srd-39, srd-40); one
    declared against a hit that did not come is not taken, and the step says so."""
    if not swing.hit:
        if answer is not None and answer.trigger == HIT:
            kept = f"{answer.name}: not needed, the attack misses; the reaction is kept"
            events.append(Resolved(target.id, "react", [attacker.id], kept, ["srd-39"]))
        return False, False
    said, hit = when_hit(state, attacker, target, answer, swing.natural, swing.total, swing.ac)
    events += said
    return hit, swing.critical and hit


def harmed(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    answer: Reaction | None,
    parts: list[Modifier],
    kind: str,
    critical: bool,
    rules: tuple[str, ...] = (),
    also: Sequence[Typed] = (),
    mundane: bool = False,
) -> list[Event]:
    """Damage as the target's reaction leaves it: resisted (srd-42), halved (srd-40),
    then dealt (`mundane`: by a nonmagical weapon, srd-62)."""
    found = absorbing(state, target, answer, kind, attacker)
    now = roster.fold(evolve, state, [*events, *found])
    hurt = now.fighter(target.id)
    more = [(halved(p, answer), k) for p, k in also]
    dealt = deal(
        now,
        ctx,
        attacker.id,
        hurt,
        halved(parts, answer),
        kind,
        critical,
        rules,
        also=more,
        mundane=mundane,
    )
    return found + dealt


def rebuked(
    state: State,
    ctx: Context,
    events: list[Event],
    attacker: Fighter,
    target: Fighter,
    answer: Reaction | None,
    command: Scene | None = None,
    kind: str = "",
    what: str = "",
) -> list[Event]:
    """srd-41: a reaction after the damage, on the attacker: if the target took any (one
    declared beforehand, or, with `--ask`, chosen once the damage landed: asked now)."""
    took = sum(e.amount for e in events if isinstance(e, Damaged) and e.target == target.id)
    if not took:
        return []
    after = roster.fold(evolve, state, events)
    hurt = after.fighter(target.id)
    if (answer is None or answer.trigger != DAMAGED) and command is not None and not hurt.dead:
        # the damage waits on the answer: the log writes it then (issue 37), so it is to come
        said = f"{attacker.name}'s {what or 'attack'} will deal {took} damage to {target.name}"
        hidden_said = f"Someone unseen will deal {took} damage to {target.name}"
        seen = unseen(attacker, target, command)
        asked = seen_trigger(
            after, ctx, events, hurt, command, DAMAGED, kind, seen, said, hidden_said=hidden_said
        )
        answer = asked if asked is not None else answer
    return rebuking(after, ctx, after.fighter(attacker.id), hurt, answer)


def ridden(
    state: State,
    ctx: Context,
    attacker: Fighter,
    target: Fighter,
    what: str,
    rider: Rider,
    resist: bool = True,
) -> list[Event]:
    """srd-35: after the damage, the target saves or has the rider's condition; one that
    has it already makes no save."""
    if target.dead:
        return []
    if target.has(rider.condition):
        why = f"already {rider.condition}: no save against {what}"
        return [Resolved(target.id, "save", [], why, ["srd-35"])]
    if target.immune_to(rider.condition):
        return [immune(target, rider.condition, what)]
    events: list[Event] = []
    ability = rider.save
    purpose = f"{save_name(ability)} against {what} (DC {rider.dc})"
    check = saving_throw(ctx, events, target, ability, rider.dc, purpose, ["srd-35"], resist=resist)
    if check.success:
        return events
    detail = {"by": attacker.id, **timed(state, attacker, target, rider, ability, rider.dc)}
    detail |= worse_time(state, ctx, events, target, rider, rider.dc - check.total)
    why = f"{what} of {attacker.name}"
    rules = ["srd-35", "srd-27", *(["srd-28"] if len(detail) > 1 else [])]
    for condition in conditions_of(rider, rider.dc - check.total):
        if condition == rider.condition or not target.immune_to(condition):
            events.append(ConditionSet(target.id, condition, why, detail, rules))
    return events
