"""Simple maneuvers: moving, readying, and the others that roll nothing against anyone."""

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Context,
    EquipmentChanged,
    Event,
    RefusedError,
    Resolved,
)

from .commands import Act, Aim, Check, Draw, Heal, Move, Reload, Stow, Treat
from .damage import healing
from .rolls import rolled, stat_roll
from .sheets import Weapon
from .state import Fighter, State
from .turn import spend


def equipped_weapon(state: State, actor: Fighter, name: str) -> Weapon:
    weapon = actor.weapon(name, state.options)
    if weapon.name != "fists" and weapon.name not in actor.equipped:
        raise RefusedError(f"{actor.name} has not drawn the {weapon.name}: draw it first (002-5)")
    return weapon


def do_move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    if command.units < 1:
        raise BadInputError("move at least one unit: --opt units=N")
    cost = command.units * state.options.move_ts
    return [
        spend(actor, cost, f"moves {command.units} unit(s)", ["002-9"]),
        Resolved(actor.id, "move", [], f"moves {command.units} unit(s)", ["002-9"]),
    ]


def do_draw(state: State, actor: Fighter, command: Draw, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon, state.options)
    if not command.weapon or weapon.name == "fists":
        raise BadInputError("name the weapon to draw: -w WEAPON")
    if weapon.name in actor.equipped:
        raise RefusedError(f"{actor.name} already holds the {weapon.name}")
    return [
        spend(actor, weapon.draw_ts, f"draws the {weapon.name}", ["002-5"]),
        EquipmentChanged(actor.id, [*actor.equipped, weapon.name], "drawn", ["002-5"]),
    ]


def do_stow(state: State, actor: Fighter, command: Stow, ctx: Context) -> list[Event]:
    weapon = equipped_weapon(state, actor, command.weapon)
    if weapon.name == "fists":
        raise BadInputError("name the weapon to stow: -w WEAPON")
    events: list[Event] = [
        spend(actor, weapon.draw_ts, f"stows the {weapon.name}", ["002-5"]),
        EquipmentChanged(
            actor.id, [w for w in actor.equipped if w != weapon.name], "stowed", ["002-5"]
        ),
    ]
    if actor.conditions.get("aiming", {}).get("weapon") == weapon.name:
        events.append(ConditionCleared(actor.id, "aiming", "the weapon was stowed", ["002-11"]))
    return events


def do_aim(state: State, actor: Fighter, command: Aim, ctx: Context) -> list[Event]:
    """002-11: 2 TS per +1 to hit with an equipped weapon; it lasts until that weapon attacks."""
    weapon = equipped_weapon(state, actor, command.weapon)
    if command.points < 1:
        raise BadInputError("aim for at least +1: --opt points=N")
    aiming = actor.conditions.get("aiming", {})
    bonus = command.points + (aiming.get("bonus", 0) if aiming.get("weapon") == weapon.name else 0)
    return [
        spend(actor, command.points * state.options.aim_ts, f"aims +{command.points}", ["002-11"]),
        ConditionSet(
            actor.id,
            "aiming",
            f"+{bonus} to hit with the {weapon.name}",
            {"weapon": weapon.name, "bonus": bonus},
            ["002-11"],
        ),
    ]


def do_reload(state: State, actor: Fighter, command: Reload, ctx: Context) -> list[Event]:
    weapon = equipped_weapon(state, actor, command.weapon)
    if not weapon.reload_ts:
        raise RefusedError(f"the {weapon.name} lists no reload (002-12)")
    return [
        spend(actor, weapon.reload_ts, f"reloads the {weapon.name}", ["002-12"]),
        Resolved(actor.id, "reload", [], f"reloads the {weapon.name}", ["002-12"]),
    ]


def do_treat(state: State, actor: Fighter, command: Treat, ctx: Context) -> list[Event]:
    """002-21: 3 TS with a medical kit and the patient is no longer dying."""
    target = state.fighter(single_target(command))
    if not actor.sheet.medical_kit:
        raise RefusedError(f"{actor.name} has no medical kit (002-21)")
    if not target.has("dying") or target.has("dead"):
        raise RefusedError(f"{target.name} is not dying")
    return [
        spend(actor, state.options.medkit_ts, f"treats {target.name}", ["002-21"]),
        ConditionCleared(target.id, "dying", f"stabilised by {actor.name}", ["002-21"]),
    ]


def do_heal(state: State, actor: Fighter, command: Heal, ctx: Context) -> list[Event]:
    target = state.fighter(single_target(command))
    events: list[Event] = (
        [spend(actor, command.ts, command.source, ["002-21"])] if command.ts else []
    )
    return events + healing(state, target, command.hp, command.source)


def do_check(state: State, actor: Fighter, command: Check, ctx: Context) -> list[Event]:
    roll = stat_roll(state, ctx, actor, command.stat, command.what, list(command.modifiers))
    verdict = "succeeds" if roll.total >= command.difficulty else "fails"
    events: list[Event] = [spend(actor, command.ts, command.what, ["002-14"])] if command.ts else []
    return [*events, rolled(actor, command.what, roll, command.difficulty, verdict, [])]


def single_target(command: Act) -> str:
    if len(command.targets) != 1:
        tag = command.__struct_config__.tag
        one = f"{tag} takes one target: tap one"
        raise BadInputError(f"{tag} takes exactly one TARGET", player=one)
    return command.targets[0]
