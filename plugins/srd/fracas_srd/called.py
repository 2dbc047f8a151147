"""Saves and checks the GM calls for, at any time, from the sheet (srd-36, srd-37): with
proficiency, the conditions (srd-27) and the effects (srd-32, srd-33) that touch them, and a
condition the creature has on a failure."""

import re
import shlex

from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    RefusedError,
    Resolved,
    Rolled,
)

from fracas_srd.checks import Check as Made
from fracas_srd.checks import bonus_roll, check_name, save_name, skill_check
from fracas_srd.commands import Check, Save, Spend
from fracas_srd.conditions import saving_throw
from fracas_srd.damage import owed_concentration_save
from fracas_srd.effects import SAID, Bonus, article, check_spend, chosen, kept, spent_once
from fracas_srd.events import RollOpen
from fracas_srd.sheets import RollKind
from fracas_srd.state import TRACKED, Fighter, State
from fracas_srd.turn import dead_actor

CHOSEN = {"checks": "srd-81", "saves": "srd-82"}  # guidance's rule, resistance's


def given_spend(state: State, actor: Fighter, kind: RollKind, spend: str) -> None:
    """srd-81, srd-82: the effect a save or check spends (`-o spend=guidance`) is one the
    creature holds; else refused saying to roll without it, or how it gets one."""
    try:
        check_spend(actor, kind, spend)
    except RefusedError as refused:
        without = f"roll without -o spend={shlex.quote(spend)}"
        how, said = how_given(state, actor, spend, (kind,))
        raise RefusedError(
            f"{refused}: {without}, or {how}" if how else f"{refused}: {said}; {without}",
            player=f"{refused}: {said}",
        ) from None


def how_given(
    state: State, actor: Fighter, name: str, kinds: tuple[RollKind, ...]
) -> tuple[str, str]:
    """How a creature comes to hold an effect it spends (srd-81, srd-82): a living
    creature of the fight casts the spell that gives it on it first, its allies before its
    foes, the command (empty if none can) and the words a player reads."""
    givers = [
        (f, s, [k for k in CHOSEN if chosen(s.effect, k)])
        for f in sorted(state.fighters.values(), key=lambda f: f.hostile_to(actor))
        for s in f.sheet.spells
        if not f.dead and s.name.lower() == name.lower() and s.effect is not None
    ]
    other = next((k for _, _, ks in givers for k in ks if k not in kinds), None)
    givers = [g for g in givers if any(k in kinds for k in g[2])]
    if not givers and other:
        return "", f"{name} is spent on {article(SAID[other])}"
    if not givers:
        return "", f"nobody in this fight can cast {name}"
    giver, spell, _ = givers[0]
    cast = f"fracas act {giver.id} cast {actor.id} -o {shlex.quote(f'spell={spell.name}')}"
    said = f"cast {spell.name} on {actor.name} before the roll"
    return f"have {giver.name} {said}: `{cast}`", f"{giver.name} can {said}"


def save(state: State, actor: Fighter, command: Save, ctx: Context) -> list[Event]:
    check_fail(actor, command.fail, command.dc)
    given_spend(state, actor, "saves", command.spend)
    events: list[Event] = []
    ability = command.ability
    assert ability is not None  # Save refuses a save without one
    if ability == "con" and not command.fail:
        owed = owed_concentration_save(state, ctx, actor, command.dc, command.spend)
        if owed is not None:
            return owed
    purpose = save_name(ability) + (
        f" (DC {command.dc})" if command.dc is not None else ""
    )
    rules = ["srd-36"]
    made = saving_throw(
        ctx,
        events,
        actor,
        ability,
        command.dc,
        purpose,
        rules,
        given=command.modifiers,
        resist=command.resist,
        spend=command.spend,
    )
    events += failed(actor, made, command.fail, purpose, "srd-36")
    return events + left_open(actor, "saves", made, purpose, command, events)


def check(state: State, actor: Fighter, command: Check, ctx: Context) -> list[Event]:
    check_fail(actor, command.fail, command.dc)
    given_spend(state, actor, "checks", command.spend)
    events: list[Event] = []
    skill = command.skill.lower()
    rules, given = ["srd-37"], command.modifiers
    made = skill_check(ctx, events, actor, skill, command.dc, rules, given, command.spend)
    purpose = events[0].purpose if isinstance(events[0], Rolled) else check_name(skill)
    events += failed(actor, made, command.fail, purpose, "srd-37")
    return events + left_open(actor, "checks", made, purpose, command, events)


def left_open(
    actor: Fighter, kind: RollKind, made: Made, purpose: str, command: Save | Check,
    events: list[Event],
) -> list[Event]:  # fmt: skip
    """srd-81, srd-82: the check or save stays open to an effect the creature kept for a
    roll of its choosing (guidance, after its d20: `spend guidance`) where that effect's
    dice could still change it: one with no DC (its total the GM's to judge), or a failure
    the dice could still lift to the DC."""
    if not made.natural:  # failed automatically (srd-27): no die to add to
        return []
    held = [b for b in kept(actor, kind) if b.source.lower() != command.spend.lower()]
    reach = max((most(b) for b in held), default=0)
    dc = command.dc
    if not reach or (dc is not None and (made.success or made.total + reach < dc)):
        return []
    fail = next(
        (e.condition for e in events if isinstance(e, ConditionSet) and e.target == actor.id), ""
    )
    sources = [b.source for b in held]
    return [RollOpen(actor.id, kind, purpose, made.total, dc, sources, fail, [CHOSEN[kind]])]


def most(bonus: Bonus) -> int:
    """The most a bonus's dice add: 4 for 1d4, nothing for a penalty (bane's -1d4)."""
    found = re.fullmatch(r"(\d*)d(\d+)", bonus.dice)
    if found is None or bonus.sign < 0:
        return 0
    return int(found.group(1) or 1) * int(found.group(2))


def spend(state: State, actor: Fighter, command: Spend, ctx: Context) -> list[Event]:
    """srd-81, srd-82: a kept effect's dice added to the creature's latest check or save
    after its roll, and the roll decided again (a failure's condition taken back by a
    success after all); the effect ends with it."""
    if actor.dead:
        raise dead_actor(actor)
    name, left = command.effect.strip(), actor.open_roll
    if not any(b.source.lower() == name.lower() for k in CHOSEN for b in kept(actor, k)):
        none = f"{actor.name} has no {name} to spend (srd-81, srd-82)"
        how, said = how_given(state, actor, name, ("checks", "saves"))
        said = said if how else f"{said}: the roll stands"
        raise RefusedError(f"{none}: {how}" if how else f"{none}: {said}", player=f"{none}: {said}")
    if left is None:
        raise RefusedError(
            f"{actor.name} has no check or save that {name} could still change: spend it with "
            f"the roll (-o spend={name}), or right after a check or save it could turn"
        )
    kind: RollKind = "checks" if left.kind == "checks" else "saves"
    check_spend(actor, kind, name)
    bonus = next((b for b in kept(actor, kind) if b.source.lower() == name.lower()), None)
    if bonus is None or bonus.source.lower() not in (k.lower() for k in left.kept):
        raise RefusedError(
            f"{name} came after {actor.name}'s {left.purpose}: it adds to a later one"
        )
    added, record = bonus_roll(ctx, actor.id, left.purpose, bonus)
    total, rule = left.total + added.value, CHOSEN[kind]
    shown = f"{left.total} {'+' if added.value >= 0 else '-'} {abs(added.value)} = {total}"
    if left.dc is None:
        outcome, success = f"{left.purpose}: {shown}", False
    else:
        success = total >= left.dc
        now = "now a success" if success else "still a failure"
        outcome = f"{left.purpose}: {shown}, {now} ({total} vs {left.dc})"
    said = f"{bonus.source} added after the roll: {outcome}"
    events: list[Event] = [record, Resolved(actor.id, "spend", [], said, [rule, "srd-M2"])]
    events += spent_once(actor, kind, name)
    if success and left.fail and actor.has(left.fail):
        why = f"the {left.purpose} succeeds after all, with {bonus.source}"
        events.append(ConditionCleared(actor.id, left.fail, why, [rule]))
    return events


def check_fail(actor: Fighter, condition: str, dc: int | None) -> None:
    if actor.dead:
        raise dead_actor(actor)
    if condition and dc is None:
        raise RefusedError("a condition on a failure needs the DC: --dc N")
    if condition.lower() in TRACKED:
        raise RefusedError(f"{condition!r} is a condition the srd rules set themselves")


def failed(actor: Fighter, made: Made, condition: str, purpose: str, rule: str) -> list[Event]:
    if made.success or not condition:
        return []
    if actor.has(condition):
        return [Resolved(actor.id, "fail", [], f"already {condition}", [rule])]
    why = f"failed the {purpose}"
    return [ConditionSet(actor.id, condition, why, {}, [rule, "srd-27"])]
