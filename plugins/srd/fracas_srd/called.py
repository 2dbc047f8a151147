"""Saves and checks the GM calls for, at any time, from the sheet (srd-36, srd-37): with
proficiency, the conditions (srd-27) and the effects (srd-32, srd-33) that touch them, and a
condition the creature has on a failure."""

from fracas.rules.api import ConditionSet, Context, Event, RefusedError, Resolved, Rolled

from fracas_srd.checks import Check as Made
from fracas_srd.checks import check_name, save_name, skill_check
from fracas_srd.commands import Check, Save
from fracas_srd.conditions import saving_throw
from fracas_srd.damage import owed_concentration_save
from fracas_srd.state import TRACKED, Fighter, State


def save(state: State, actor: Fighter, command: Save, ctx: Context) -> list[Event]:
    check_fail(actor, command.fail, command.dc)
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
    return events + failed(actor, made, command.fail, purpose, "srd-36")


def check(state: State, actor: Fighter, command: Check, ctx: Context) -> list[Event]:
    check_fail(actor, command.fail, command.dc)
    events: list[Event] = []
    skill = command.skill.lower()
    rules, given = ["srd-37"], command.modifiers
    made = skill_check(ctx, events, actor, skill, command.dc, rules, given, command.spend)
    purpose = events[0].purpose if isinstance(events[0], Rolled) else check_name(skill)
    return events + failed(actor, made, command.fail, purpose, "srd-37")


def check_fail(actor: Fighter, condition: str, dc: int | None) -> None:
    if actor.dead:
        raise RefusedError(f"{actor.name} is dead")
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
