"""Damage and what follows from it: types (srd-10), temporary hit points (srd-11),
healing (srd-12), dropping to 0 (srd-13), death saves (srd-14, srd-15), stabilising
(srd-16) and concentration (srd-26)."""

from collections.abc import Sequence

from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Context,
    Damaged,
    Event,
    Healed,
    Modifier,
    RefusedError,
    Roll,
    Rolled,
    and_list,
)

from fracas_srd.checks import Edge, Judge, d20_test, save_name
from fracas_srd.conditions import damage_ends, harm_ends, hurt_saves, saving_throw
from fracas_srd.effects import bonuses, resistances, spent_once, unhealed
from fracas_srd.events import DEATH_SAVE, ConcentrationOwed, DeathSaves, TemporaryHitPoints
from fracas_srd.state import REMOVED, Fighter, State
from fracas_srd.tally import faces_of, tally

TYPED = ("srd-10", "srd-62")  # the rules of damage types
Typed = tuple[list[Modifier], str]  # damage of one type: its parts, and the type
AT_ZERO = {"at_zero": True}  # the unconsciousness of 0 HP, which healing ends


def roll_dice(
    ctx: Context,
    events: list[Event],
    who: str,
    dice: str,
    critical: bool,
    purpose: str,
    options_critical: str,
    added: Sequence[Modifier] = (),
) -> list[Modifier]:
    """srd-8: on a critical, every die twice (or, as an option, their maximum plus a roll).
    `added`: the flat parts of the damage (an ability modifier, a weapon's bonus), recorded
    with the roll so that it states the whole sum ("2+3 +2 = 7 on 2d4+2", srd-9)."""
    count, _, sides = dice.partition("d")
    count_n, sides_n = int(count or 1), int(sides)
    parts: list[Modifier] = []
    spec = dice
    if critical and options_critical == "double_dice":
        spec = f"{count_n * 2}d{sides_n}"
    elif critical:
        parts.append(Modifier(count_n * sides_n, f"critical: {dice} at its maximum", "srd-8"))
    parts += added
    roll = ctx.dice.roll(spec, purpose)
    rules = ["srd-9", *(["srd-8"] if critical else [])]
    events.append(summed_roll(who, purpose, roll, parts, rules))
    fell = faces_of(spec, roll.faces, roll.dropped())
    return [Modifier(roll.total, fell + (" (critical)" if critical else ""), rules[-1]), *parts]


def summed_roll(
    who: str, purpose: str, roll: Roll, added: Sequence[Modifier], rules: list[str]
) -> Rolled:
    """Damage or healing dice with the flat parts added to them, as one roll stating the
    whole sum: "7 on 2d4+2" (its faces and modifiers read "2+3 +2")."""
    flat = sum(m.value for m in added)
    dice = f"{roll.dice}{flat:+d}" if flat else roll.dice
    said = f"{roll.total + flat} on {dice}"
    return Rolled(who, purpose, roll, None, list(added), said, rules)


def saved_half(parts: list[Modifier]) -> list[Modifier]:
    """srd-25: half the damage (rounded down) on a successful save."""
    total = max(0, sum(p.value for p in parts))
    return [*parts, Modifier(total // 2 - total, "halved for the save", "srd-25")]


def typed(target: Fighter, raw: int, kind: str, mundane: bool) -> tuple[int, list[Modifier]]:
    """srd-10: immunity takes all; then resistance halves (down), vulnerability doubles;
    srd-62: some only against a nonmagical weapon's damage (`mundane`)."""
    sheet = target.sheet
    if kind in sheet.immunities:
        return 0, [Modifier(-raw, f"none for immunity to {kind}", "srd-10")] if raw else []
    if mundane and kind in sheet.nonmagical_immunities:
        said = f"none for immunity to nonmagical {kind}"
        return 0, [Modifier(-raw, said, "srd-62")] if raw else []
    amount, notes = raw, []
    if kind in resistances(target):
        notes.append(Modifier(amount // 2 - amount, f"halved for resistance to {kind}", "srd-10"))
        amount //= 2
    elif mundane and kind in sheet.nonmagical_resistances:
        said = f"halved for resistance to nonmagical {kind}"
        notes.append(Modifier(amount // 2 - amount, said, "srd-62"))
        amount //= 2
    if kind in sheet.vulnerabilities:
        notes.append(Modifier(amount, f"doubled for vulnerability to {kind}", "srd-10"))
        amount *= 2
    return amount, notes


def deal(
    state: State,
    ctx: Context | None,
    source: str,
    target: Fighter,
    parts: list[Modifier],
    kind: str,
    critical: bool = False,
    rules: tuple[str, ...] = (),
    also: Sequence[Typed] = (),
    mundane: bool = False,
) -> list[Event]:
    """Damage from its parts (dice and modifiers) to one target, and all that follows;
    `also`: more of it of other types (a bite's fire), each resisted by its own type, all
    one damage (one concentration save); `mundane`: from a nonmagical weapon (srd-62)."""
    raw = max(0, sum(p.value for p in parts))
    taken, notes = typed(target, raw, kind, mundane) if kind else (raw, [])
    told = [tally(parts, kind, notes)]
    for more, other in also:
        amount, said = typed(target, max(0, sum(p.value for p in more)), other, mundane)
        taken, notes = taken + amount, [*notes, *more, *said]
        told.append(tally(more, other, said))
    cited = ["srd-9", *rules, *dict.fromkeys(n.rule for n in notes if n.rule in TYPED)]
    absorbed = min(target.temp_hp, taken)
    if absorbed:
        off = f"{absorbed} of it off temporary hit points first"
        notes.append(Modifier(0, off, "srd-11", note=True))
        cited.append("srd-11")
        told.append(f"{absorbed} of it off temporary hit points first (srd-11)")
    breakdown = [*parts, *notes]
    events: list[Event] = [Damaged(target.id, taken, source, breakdown, cited, "; ".join(told))]
    harmer = state.fighters.get(source)
    return events + after_damage(state, ctx, target, taken, absorbed, critical, harmer)


def after_damage(
    state: State,
    ctx: Context | None,
    target: Fighter,
    taken: int,
    absorbed: int,
    critical: bool,
    harmer: Fighter | None = None,
) -> list[Event]:
    if taken == 0 or target.dead:
        return []
    if target.at_zero:
        return damage_at_zero(state, target, taken, critical)
    to_hp = taken - absorbed
    if to_hp and to_hp >= target.hp:
        return dropping(state, target, to_hp - target.hp)
    ended = damage_ends(target) + harm_ends(target, harmer) + hurt_saves(ctx, target)
    return ended + concentration_save(state, ctx, target, taken)


def dropping(state: State, target: Fighter, left_over: int) -> list[Event]:
    """srd-13: a monster's death, instant death, or unconscious and dying (a monster dies
    at 0 whatever is left over: instant death is for those who would be dying)."""
    if target.sheet.monster and state.options.monsters_at_zero == "dead":
        return die(state, target, "a monster at 0 HP dies", "srd-13")
    if left_over >= target.hp_max:
        why = f"instant death: {left_over} damage left over at 0 HP, max HP {target.hp_max}"
        return die(state, target, why, "srd-13")
    events: list[Event] = [
        ConditionSet(target.id, "unconscious", "dropped to 0 HP", AT_ZERO, ["srd-13", "srd-27"]),
        ConditionSet(target.id, "dying", "dropped to 0 HP", {}, ["srd-13", "srd-14"]),
    ]
    if not target.has("prone"):
        events.append(ConditionSet(target.id, "prone", "falls unconscious", {}, ["srd-27"]))
    return events + end_concentration(state, target, "dying", "srd-26")


def damage_at_zero(state: State, target: Fighter, taken: int, critical: bool) -> list[Event]:
    """srd-15 (and srd-16 for the stable): one failure, two for a critical; or death."""
    if taken >= target.hp_max:
        why = f"{taken} damage at 0 HP, at least {target.its} max HP {target.hp_max}"
        return die(state, target, why, "srd-15")
    events: list[Event] = []
    if target.has("stable"):
        events += [
            ConditionCleared(target.id, "stable", "damaged at 0 HP", ["srd-16"]),
            ConditionSet(target.id, "dying", "damaged while stable", {}, ["srd-16"]),
        ]
    failures = target.failures + (2 if critical else 1)
    why = "damage at 0 HP: " + ("two failures (a critical hit)" if critical else "one failure")
    events.append(DeathSaves(target.id, target.successes, min(3, failures), why, ["srd-15"]))
    if failures >= 3:
        events += die(state, target, "three death save failures", "srd-15")
    return events


def die(state: State, target: Fighter, why: str, rule: str) -> list[Event]:
    """Death ends every condition of the living (dying, unconscious, frightened...): the
    dead are dead and nothing more, save that a dead body lies prone (srd-27), and stays
    so."""
    events: list[Event] = [ConditionSet(target.id, "dead", why, {}, [rule])]
    if not target.has("prone"):
        events.append(ConditionSet(target.id, "prone", "falls dead", {}, [rule, "srd-27"]))
    ended = end_concentration(state, target, "dead", "srd-26")
    gone = {e.condition for e in ended if isinstance(e, ConditionCleared) and e.target == target.id}
    gone |= held_by_others(state, target)  # srd-34 ends those, saying whose spell
    for condition in target.conditions:
        if condition not in gone and condition not in ("dead", "prone"):
            ended.append(ConditionCleared(target.id, condition, "dead", [rule]))
    return events + ended


def concentration_save(
    state: State, ctx: Context | None, target: Fighter, taken: int
) -> list[Event]:
    """srd-26: a Con save, DC 10 or half the damage taken, whichever is higher."""
    holding = target.conditions.get("concentrating")
    if holding is None:
        return []
    dc = max(10, taken // 2)
    purpose = concentration_on(holding, dc)
    if ctx is None:  # the party's harm between fights rolls no dice: `save con` pays it
        due = (
            f"owes a {purpose}: a {save_name('con')} against DC {dc}, still to roll; a failure"
            f" ends {holding.get('spell', 'the spell')} on everyone it holds"
        )
        return [ConcentrationOwed(target.id, [*target.owed, dc], due, ["srd-26"])]
    return concentration_roll(state, ctx, target, dc, purpose)


def concentration_on(holding: dict, dc: int) -> str:
    return f"concentration on {holding.get('spell', 'a spell')} (DC {dc})"


def concentration_roll(
    state: State, ctx: Context, target: Fighter, dc: int, purpose: str, spend: str = ""
) -> list[Event]:
    events: list[Event] = []
    check = saving_throw(ctx, events, target, "con", dc, purpose, ["srd-26"], spend=spend)
    if not check.success:
        events += end_concentration(state, target, "failed the concentration save", "srd-26")
    return events


def owed_concentration_save(
    state: State, ctx: Context, target: Fighter, dc: int | None, spend: str = ""
) -> list[Event] | None:
    """srd-26: a Con save by a creature that owes a concentration save (after the party's
    harm between fights) is that save, the one owed at this DC or the first (`spend`: an
    effect it adds to it, resistance); None when it owes none."""
    holding = target.conditions.get("concentrating")
    if holding is None or not target.owed or (dc is not None and dc not in target.owed):
        return None
    due = target.owed[0] if dc is None else dc
    left = list(target.owed)
    left.remove(due)
    purpose = concentration_on(holding, due)
    events = concentration_roll(state, ctx, target, due, purpose, spend)
    if any(isinstance(e, ConditionCleared) for e in events):
        return events  # the concentration has ended, and what was owed with it
    made = f"made the {purpose}" + (f"; still owes DC {', '.join(map(str, left))}" if left else "")
    return [*events, ConcentrationOwed(target.id, left, made, ["srd-26"])]


def end_concentration(state: State, caster: Fighter, why: str, rule: str) -> list[Event]:
    """The concentration ends, and every effect it held ends with it."""
    holding = caster.conditions.get("concentrating")
    if holding is None:
        return []
    held = [
        (who, condition)
        for who, condition in holding.get("effects", [])
        if still_held(state, caster, who, condition)
    ]
    names = list(dict.fromkeys(state.fighters[who].name for who, _ in held))
    if names:  # the step says what ended on whom: "bless ends on Wren and Brannoc"
        why = f"{why}: {holding.get('spell', 'the spell')} ends on {and_list(names)}"
    events: list[Event] = [ConditionCleared(caster.id, "concentrating", why, [rule])]
    over = f"{caster.name}'s concentration ends"
    events += [ConditionCleared(who, condition, over, [rule]) for who, condition in held]
    return events


def held_by_others(state: State, target: Fighter) -> set[str]:
    """The target's conditions another creature's concentration holds."""
    return {
        condition
        for caster in state.fighters.values()
        if caster.id != target.id
        for who, condition in (caster.conditions.get("concentrating") or {}).get("effects", [])
        if who == target.id
    }


def spells_over(state: State) -> list[Event]:
    """srd-34: a spell ends on a target that has died; a concentration whose spell has
    ended on every target (each saved, died, or was freed by the GM) ends with it."""
    events: list[Event] = []
    for caster in state.fighters.values():
        holding = caster.conditions.get("concentrating") or {}
        effects = [
            (who, c) for who, c in holding.get("effects", []) if still_held(state, caster, who, c)
        ]
        spell = holding.get("spell", "the spell")
        for who, condition in effects:
            if state.fighters[who].dead:
                why = f"{spell} ends on {state.fighters[who].name}, who is dead"
                events.append(ConditionCleared(who, condition, why, ["srd-34"]))
        if holding.get("moves"):  # srd-83: its mark may move on, with no new casting
            continue
        if holding.get("effects") and all(state.fighters[who].dead for who, _ in effects):
            why = f"{spell} has ended on every target"
            events.append(ConditionCleared(caster.id, "concentrating", why, ["srd-34"]))
    return events


def grapples_over(state: State) -> list[Event]:
    """srd-27: a grapple ends as its grappler is incapacitated, dies or leaves the fight,
    or as the grappled creature leaves it."""
    events: list[Event] = []
    for held in state.fighters.values():
        grappler = state.fighters.get((held.conditions.get("grappled") or {}).get("by", ""))
        if grappler is None:
            continue
        if grappler.incapacitated or grappler.dead or grappler.has(REMOVED):
            why = f"{grappler.name} can no longer hold {held.it}"
        elif held.has(REMOVED):
            why = f"{held.it} has left the fight, out of {grappler.name}'s hold"
        else:
            continue
        events.append(ConditionCleared(held.id, "grappled", why, ["srd-27"]))
    return events


def what_follows(state: State) -> list[Event]:
    """What ends by itself once a step's events are in: spells, grapples, what a grapple
    held (a roper's restraint), and the hiding of the unconscious."""
    events = spells_over(state) + grapples_over(state) + hiding_over(state)
    return events + holds_over(state, events)


def hiding_over(state: State) -> list[Event]:
    """srd-27: an unconscious creature (asleep, or at 0 HP) drops what it holds and falls
    prone: it gives itself away, hidden no more (srd-5), however it fell."""
    why = "falls unconscious, giving itself away"
    return [
        ConditionCleared(f.id, "hidden", why, ["srd-27", "srd-5"])
        for f in state.fighters.values()
        if f.has("hidden") and not f.conscious
    ]


def holds_over(state: State, events: list[Event]) -> list[Event]:
    """srd-20: a condition that lasts while its creature is grappled (restrained by a
    roper's tendril) ends with the grapple, however the grapple ended."""
    freed = {e.target for e in events if isinstance(e, ConditionCleared)
             and e.condition == "grappled"}  # fmt: skip
    return [
        ConditionCleared(f.id, name, "the grapple has ended", ["srd-20"])
        for f in state.fighters.values()
        for name, detail in f.conditions.items()
        if detail.get("while") == "grappled" and (f.id in freed or not f.has("grappled"))
    ]


def still_held(state: State, caster: Fighter, who: str, condition: str) -> bool:
    held = state.fighters.get(who)
    detail = held.conditions.get(condition) if held else None
    return detail is not None and detail.get("by") == caster.id


def ruled_alive(dead: Fighter) -> str:
    """What the GM does first to rule the dead alive, as a refusal ends."""
    return f"if the GM rules {dead.them} alive, `fracas condition clear {dead.id} dead` first"


def heal(target: Fighter, amount: int, source: str, rules: tuple[str, ...] = ()) -> list[Event]:
    """srd-12: up to the maximum; from 0, conscious again and no more death saves."""
    if target.dead:
        raise RefusedError(
            f"{target.name} is dead; healing does not bring back the dead: {ruled_alive(target)}"
        )
    barred = unhealed(target)
    gained = 0 if barred else min(amount, target.hp_max - target.hp)
    short = f"{barred}: {target.it} cannot regain hit points" if barred else capped(gained, amount)
    cited = list(dict.fromkeys(["srd-12", *rules]))
    events: list[Event] = [Healed(target.id, gained, source, cited, short)]
    if target.hp == 0 and gained:
        events += revived(target, "regains hit points", "srd-12")
    return events


def capped(gained: int, amount: int) -> str:
    """srd-12: why a healing gave back less than it was worth (no figure the players may
    not see: a monster's maximum stays its own)."""
    if gained == amount:
        return ""
    return "no more than full hit points" if gained else "already at full hit points"


def revived(target: Fighter, why: str, rule: str) -> list[Event]:
    events: list[Event] = [
        ConditionCleared(target.id, c, why, [rule]) for c in ("dying", "stable") if target.has(c)
    ]
    if target.conditions.get("unconscious", {}).get("at_zero"):
        events.append(ConditionCleared(target.id, "unconscious", why, [rule]))
    return [*events, DeathSaves(target.id, 0, 0, why, [rule])]


def stabilised(target: Fighter, why: str, rule: str) -> list[Event]:
    return [
        ConditionCleared(target.id, "dying", why, [rule]),
        ConditionSet(target.id, "stable", why, {}, [rule]),
        DeathSaves(target.id, 0, 0, why, [rule]),
    ]


NATURALS = (1, 20)  # a death save's naturals that decide it, whatever is added (srd-14)


def death_save(state: State, ctx: Context, fighter: Fighter) -> list[Event]:
    """srd-14: at the start of its turn; 10+ succeeds, a 1 fails twice, a 20 heals 1; a
    saving throw, so an effect on saves adds to it (srd-32: bless), but a natural 1 or 20
    decides it before anything is added: no die of an effect is rolled, none spent."""
    events: list[Event] = []
    flat, dice = bonuses(fighter, "saves")
    judge = death_save_judge(fighter)
    check = d20_test(
        ctx, events, fighter.id, DEATH_SAVE, flat, Edge(), 10, ["srd-14"], judge, dice, NATURALS
    )
    if check.natural not in NATURALS:
        events += spent_once(fighter, "saves")
    if check.natural == 20:
        return events + heal(fighter, 1, "a natural 20 on a death save", ("srd-14",))
    successes, failures, said = death_save_counted(fighter, check.natural, check.total)
    if failures >= 3:
        events.append(DeathSaves(fighter.id, successes, 3, "three failures", ["srd-14"]))
        return events + die(state, fighter, "three death save failures", "srd-14")
    if successes >= 3:
        return events + stabilised(fighter, "three death save successes", "srd-14")
    return [*events, DeathSaves(fighter.id, successes, failures, said, ["srd-14"])]


def death_save_counted(fighter: Fighter, natural: int, total: int) -> tuple[int, int, str]:
    """srd-14: the successes and failures after this death save, and what it was."""
    successes, failures = fighter.successes, fighter.failures
    if natural == 1:
        return successes, failures + 2, "a natural 1: two failures"
    if total >= 10:
        return successes + 1, failures, "a success"
    return successes, failures + 1, "a failure"


def death_save_judge(fighter: Fighter) -> Judge:
    """The roll's result says what the save was and the count it reaches ("a success (1
    of 3)"); a natural 20 brings the creature back with 1 hit point."""

    def judge(natural: int, total: int) -> tuple[bool, str]:
        if natural == 20:
            return True, "a natural 20: up with 1 hit point"
        successes, failures, said = death_save_counted(fighter, natural, total)
        success = natural != 1 and total >= 10
        return success, f"{said} ({min(3, successes if success else failures)} of 3)"

    return judge


def gain_temporary(state: State, target: Fighter, offered: int, why: str) -> list[Event]:
    """srd-11: they do not stack; the default keeps the larger."""
    keep = offered if state.options.temp_hp == "newer" else max(offered, target.temp_hp)
    if target.temp_hp and keep != offered:
        why = (
            f"{why}: keeps the {target.temp_hp} {target.it} had over {offered} (they do not stack)"
        )
    return [TemporaryHitPoints(target.id, keep, why, ["srd-11"])]
