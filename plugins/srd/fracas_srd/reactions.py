"""Reactions, taken out of turn (srd-4): the opportunity attack (srd-18) and the readied
action (srd-24)."""

from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    RefusedError,
    Resolved,
    and_list,
)

from fracas_srd.actions import lasting
from fracas_srd.attacks import weapon_attack, weapon_of
from fracas_srd.commands import Opportunity, React, Ready
from fracas_srd.conditions import unseen_by
from fracas_srd.movement import cannot_leave
from fracas_srd.sheets import Weapon
from fracas_srd.state import Fighter, State
from fracas_srd.turn import action, one_target, reaction


def opportunity(state: State, actor: Fighter, command: Opportunity, ctx: Context) -> list[Event]:
    """srd-18: a melee attack on a foe who leaves reach on its own turn, without
    disengaging: declared before it moves, or (as a table plays it) right after its move
    is recorded, as the reaction to that move."""
    target = one_target(state, command)
    if not actor.hostile_to(target):
        raise RefusedError(
            f"{target.name} is {actor.name}'s ally: an opportunity attack is on a hostile "
            "creature leaving reach (srd-18)"
        )
    if state.turn != target.id:
        raise RefusedError(
            f"{target.name} is not moving on {target.its} own turn: no opportunity (srd-18)"
        )
    if target.has("disengaged"):
        raise RefusedError(
            f"{target.name} disengaged: {target.its} movement provokes nothing (srd-18)"
        )
    if not target.moved and (stuck := cannot_leave(target)):
        raise RefusedError(stuck)
    if target.left and actor.id not in target.left:
        alone = " alone" if len(target.left) == 1 else ""
        raise RefusedError(
            f"{target.name}'s move left the reach of "
            f"{and_list(state.fighter(f).name for f in target.left)}{alone}: "
            f"{actor.name} has no opportunity attack on {target.it} (srd-18)"
        )
    unseen = "the GM says so" if command.unseeing else unseen_by(actor, target)
    if unseen:
        raise RefusedError(
            f"{actor.name} cannot see {target.name}: {unseen}; an opportunity attack is on "
            "a creature it can see (srd-18)"
        )
    weapon = melee_weapon(actor, command.weapon)
    answered = f", as {target.name} moves out of reach" if target.moved else ""
    events = reaction(state, actor, f"opportunity attack{answered}")
    return events + weapon_attack(state, ctx, actor, target, weapon, command, "opportunity")


def melee_weapon(actor: Fighter, name: str) -> Weapon:
    """srd-18: the weapon of an opportunity attack, a melee attack: the one named, which
    must be a melee weapon, or (none named) the sheet's first melee weapon."""
    usable = actor.sheet.melee_weapons()
    weapon = weapon_of(actor, name or usable[0])
    if weapon.ranged:
        said = (
            f"an opportunity attack is a melee attack (srd-18): {actor.name}'s {weapon.name} "
            f"is a ranged weapon; use a melee one: {', '.join(usable)}"
        )
        raise RefusedError(f"{said} (-w {usable[0]})", player=said)
    return weapon


def ready(state: State, actor: Fighter, command: Ready, ctx: Context) -> list[Event]:
    """srd-24: a trigger and an action, held until the start of its next turn."""
    detail = {"trigger": command.trigger, "then": command.then, **lasting("start", actor.id)}
    why = f"readies to {command.then} when {command.trigger}"
    return [*action(actor, "ready"), ConditionSet(actor.id, "readied", why, detail, ["srd-24"])]


def react(state: State, actor: Fighter, command: React, ctx: Context) -> list[Event]:
    """srd-24: the trigger happened: the readied action, now, as its reaction."""
    readied = actor.conditions.get("readied")
    if readied is None:
        raise RefusedError(f"{actor.name} has no readied action (srd-24)")
    events = reaction(state, actor, f"readied {readied['then']}")
    events.append(ConditionCleared(actor.id, "readied", f"{readied['trigger']}: acts", ["srd-24"]))
    if readied["then"] != "attack":
        done = f"{readied['then']}es" if readied["then"] == "dash" else readied["then"]
        return [*events, Resolved(actor.id, "react", [], f"{done} as readied", ["srd-24"])]
    target = one_target(state, command)
    weapon = weapon_of(actor, command.weapon)
    return events + weapon_attack(state, ctx, actor, target, weapon, command, "react")
