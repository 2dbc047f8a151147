"""Attacks (002-6, 002-7, 002-15..002-18, 002-23)."""

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    Context,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    declared_event,
)

from .actions import equipped_weapon, single_target
from .commands import Attack, Cast, Interrupt
from .damage import healing, wound
from .evolve import fold
from .rolls import rolled, stat_roll
from .sheets import LIMBS, Weapon
from .state import Fighter, State
from .turn import check_able, pass_if_spent, spend


def do_attack(state: State, actor: Fighter, command: Attack, ctx: Context) -> list[Event]:
    weapon = equipped_weapon(state, actor, command.weapon)
    return strike(state, ctx, actor, command, weapon, "attacks", ["002-6"])


def do_cast(state: State, actor: Fighter, command: Cast, ctx: Context) -> list[Event]:
    """002-10: the spell's TS; a damaging spell is rolled and defended like an attack."""
    if not command.spell:
        raise BadInputError("name the spell: --opt spell=NAME")
    spell = actor.spell(command.spell)
    check_limb(actor, spell.limb, f"cast {spell.name}")
    if spell.damage:
        weapon = Weapon(
            spell.name, spell.damage, spell.ts, spell.ranged, limb=spell.limb, stat=spell.stat
        )
        return strike(state, ctx, actor, command, weapon, "casts", ["002-10"])
    point = f" at the centre of {command.at}" if command.at else ""
    rules = ["002-10", "002-25"] if command.at else ["002-10"]
    events: list[Event] = [
        spend(actor, spell.ts, f"casts {spell.name}", ["002-10"]),
        Resolved(actor.id, "cast", list(command.targets), f"casts {spell.name}{point}", rules),
    ]
    heal = spell.heal or command.hp
    if heal:
        events += healing(state, state.fighter(single_target(command)), heal, spell.name)
    return events


def decide_interrupt(state: State, command: Interrupt, ctx: Context) -> list[Event]:
    """002-7, 002-8: an attack on another's turn, paid from TS left (saved TS included),
    when an opponent moves or attacks within range; it resolves before that maneuver."""
    actor = state.fighter(command.actor)
    if state.turn is None:
        raise RefusedError("interrupts happen during a turn, and nobody is acting now")
    check_able(actor)
    if state.turn == actor.id:
        raise RefusedError(f"it is {actor.name}'s own turn: attack instead of interrupting")
    if not command.trigger:
        raise BadInputError(
            "an interrupt needs its trigger: say whether the opponent moves or attacks within"
            " your weapon's reach (002-7)"
        )
    trigger_by = state.fighter(command.trigger_by or state.turn)
    if trigger_by.side == actor.side:
        raise RefusedError("only an opponent's move or attack triggers an interrupt (002-7)")
    weapon = equipped_weapon(state, actor, command.weapon)
    ruling = f"{trigger_by.name} {command.trigger} within range of {actor.name}'s {weapon.name}"
    # a player's own step (a phone's) is their claim, never the GM's ruling
    who_rules = f"{actor.name} says" if ctx.author == actor.id else "GM rules"
    events: list[Event] = [
        declared_event(command, actor.id, ctx.command_id),
        Resolved(actor.id, "interrupt", [trigger_by.id], f"{who_rules}: {ruling}", ["002-7"]),
    ]
    events += strike(fold(state, events), ctx, actor, command, weapon, "interrupts", ["002-7"])
    return events + pass_if_spent(fold(state, events))


def check_limb(actor: Fighter, limb: str, what: str) -> None:
    """002-18: a crippled or amputated limb cannot attack or cast."""
    for condition in ("crippled", "amputated"):
        if limb in actor.limbs(condition):
            raise RefusedError(f"{actor.name}'s {limb} is {condition}: it cannot {what} (002-18)")


def attack_terms(state: State, actor: Fighter, command: Attack, weapon: Weapon) -> list:
    terms: list[Modifier] = []
    aiming = actor.conditions.get("aiming", {})
    if aiming.get("weapon") == weapon.name:
        terms.append(Modifier(aiming["bonus"], "aimed", "002-11"))
    if command.called:
        shift = getattr(state.options, f"{command.called}_shot")
        terms.append(Modifier(shift, f"called shot to the {called_name(command)}", "002-18"))
    return [*terms, *command.modifiers]


def called_name(command: Attack) -> str:
    return command.limb if command.called == "limb" else str(command.called)


def strike(
    state: State,
    ctx: Context,
    actor: Fighter,
    command: Attack,
    weapon: Weapon,
    verb: str,
    rules: list[str],
) -> list[Event]:
    """Spend the TS, roll [V] against the target's defence; a hit deals damage."""
    target = state.fighter(single_target(command))
    if target.id == actor.id:
        raise RefusedError(f"{actor.name} cannot attack themselves")
    if target.has("dead"):
        raise RefusedError(
            f"{target.name} is already dead: pick a living target, or if the death was a "
            "mistake, `fracas undo` the step that killed them"
        )
    check_limb(actor, weapon.limb, f"attack with the {weapon.name}")
    if command.called == "limb" and command.limb not in LIMBS:
        raise BadInputError(f"a limb is one of: {', '.join(LIMBS)}; not {command.limb!r}")
    kind = command.defence.get(target.id, "dodge")
    defence_bonus = check_defence(state, target, kind)
    events: list[Event] = [spend(actor, weapon.ts, f"{verb} with the {weapon.name}", rules)]
    if actor.conditions.get("aiming", {}).get("weapon") == weapon.name:
        events.append(ConditionCleared(actor.id, "aiming", "the aimed attack is made", ["002-11"]))
    purpose = f"{weapon.name} attack on {target.name}"
    attack = stat_roll(
        state, ctx, actor, weapon.stat, purpose, attack_terms(state, actor, command, weapon)
    )
    if target.out:
        defence_total = state.options.helpless_defence
        defence_events: list[Event] = []
    else:
        defence = stat_roll(state, ctx, target, "q", f"{kind} against {actor.name}", defence_bonus)
        defence_total = defence.total
    hits = attack.total > defence_total or (attack.natural_18 and state.options.natural_18_hits)
    verdict = "hits" if hits else "misses"
    events.append(rolled(actor, purpose, attack, defence_total, verdict, ["002-15", *rules]))
    if not target.out:
        defence_events = [
            rolled(
                target,
                f"{kind} against {actor.name}",
                defence,
                attack.total,
                "holds" if not hits else "fails",
                ["002-23"],
            )
        ]
    events += defence_events
    if not hits:
        free_move = " and may move 1 unit free, uninterrupted" if kind == "dodge" else ""
        figures = f"{attack.total} against {kind} {defence_total}"
        missed = Resolved(
            actor.id, "attack", [target.id], f"misses{free_move}", ["002-15", "002-23"], figures
        )
        return [*events, missed]
    return events + wound(fold(state, events), actor, target.id, weapon, command, attack)


def check_defence(state: State, target: Fighter, kind: str) -> list[Modifier]:
    """002-23: dodge on [Q] alone, block with a shield's bonus, parry with a weapon's -3;
    a staggered creature can only dodge (002-24)."""
    if kind == "dodge" or target.out:
        return []
    if target.has("staggered"):
        raise RefusedError(f"{target.name} is staggered and can only dodge (002-24)")
    held = [w for w in target.sheet.weapons if w.name in target.equipped]
    if kind == "block":
        shields = [w for w in held if w.shield]
        if not shields:
            raise RefusedError(f"{target.name} holds no shield to block with (002-23)")
        best = max(shields, key=lambda w: w.shield)
        return [Modifier(best.shield, f"{best.name} shield bonus", "002-23")]
    blades = [w for w in held if not w.ranged]
    if not blades:
        raise RefusedError(f"{target.name} holds no melee weapon to parry with (002-23)")
    best = max(blades, key=lambda w: w.parry)
    return [
        Modifier(best.parry, f"{best.name} parry bonus", "002-23"),
        Modifier(state.options.parry_penalty, "parry", "002-23"),
    ]
