"""Resolving the other actions."""

from fracas.rules.api import ConditionCleared, ConditionSet, Context, Event, Modifier, Resolved

from .attacks import damage, garrote_weapon, resolve_attack
from .commands import (
    Act,
    Aim,
    Attack,
    Break,
    Dodge,
    Draw,
    Feint,
    Flee,
    Grapple,
    Move,
    Other,
    Parry,
    Release,
    ShieldAction,
)
from .evolve import fold
from .rolls import check, rolled
from .state import Fighter, State


def resolve_defensive(state: State, actor: Fighter, command: Act, ctx: Context) -> list[Event]:
    """003-31: a defensive action nobody opposes simply succeeds; dodges and parries are
    rolled when an attack comes."""
    tag = command.__struct_config__.tag
    if tag == "flee":
        events: list[Event] = [
            Resolved(
                actor.id, "flee", [], f"{command.what}: nobody opposes it, it succeeds", ["003-31"]
            )
        ]
        return events + lose_aim_on(state, actor)
    return [Resolved(actor.id, tag, list(command.targets), "stands ready", ["003-30"])]


def lose_aim_on(state: State, mover: Fighter) -> list[Event]:
    """RULES.md default: aim is lost when the target moves."""
    return [
        ConditionCleared(f.id, "aiming", f"{mover.name} moved", ["003-8"])
        for f in state.fighters.values()
        if f.conditions.get("aiming", {}).get("target") == mover.id
    ]


def resolve_move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    return [Resolved(actor.id, "move", [], command.what, ["003-7"]), *lose_aim_on(state, actor)]


def resolve_aim(state: State, actor: Fighter, command: Aim, ctx: Context) -> list[Event]:
    """003-8: +1 a turn at a stationary target, +3 at most."""
    target = command.targets[0]
    aiming = actor.conditions.get("aiming", {})
    before = aiming.get("bonus", 0) if aiming.get("target") == target else 0
    if any(k in ("move", "flee") for k in state.fighters[target].kinds()):
        return [Resolved(actor.id, "aim", [target], "the target is moving: no aim", ["003-8"])]
    bonus = min(state.options.aim_max, before + 1)
    detail = {"target": target, "bonus": bonus, "turn": state.turn}
    return [ConditionSet(actor.id, "aiming", f"+{bonus} at {target}", detail, ["003-8"])]


def resolve_draw(state: State, actor: Fighter, command: Draw, ctx: Context) -> list[Event]:
    weapon = actor.weapon(command.weapon)
    free = "" if state.options.draw_is_action else " (free)"
    return [Resolved(actor.id, "draw", [], f"draws the {weapon.name}{free}", ["003-4"])]


def resolve_other(state: State, actor: Fighter, command: Other, ctx: Context) -> list[Event]:
    if not command.skill:
        return [Resolved(actor.id, "other", [], command.what, ["003-4"])]
    done = check(state, ctx, actor, command.skill, command.what, list(command.modifiers))
    succeeds = done.critical or (done.total >= command.difficulty and not done.fumble)
    verdict = "succeeds" if succeeds else "fails"
    return [rolled(actor, command.what, done, command.difficulty, verdict, ["003-M2"])]


def resolve_grapple(state: State, actor: Fighter, command: Grapple, ctx: Context) -> list[Event]:
    """003-24 hold, 003-25 pin (a held target), 003-27 garrote; opposed by the target's
    choice of Physique or Unarmed Combat; a shield-bearer's resistance costs an action."""
    events: list[Event] = []
    for target_id in command.targets:
        now = fold(state, events)
        target = now.fighters[target_id]
        pin = now.holder_of(target) == actor.id
        if not pin and now.holder_of(target):
            events.append(
                Resolved(
                    actor.id,
                    "grapple",
                    [target.id],
                    f"{target.name} is held by another",
                    ["003-24"],
                )
            )
            continue
        shielded = (
            target.sheet.shield is not None
            and target.sheet.shield.kind == "shield"
            and target.shield_at == "arm"
        )
        if shielded:
            count = target.conditions.get("forced", {}).get("count", 0) + 1
            events.append(
                ConditionSet(
                    target.id,
                    "forced",
                    "resists a grapple with a shield: an action",
                    {"count": count, "turn": now.turn},
                    ["003-22"],
                )
            )
            now = fold(state, events)
            target = now.fighters[target_id]
        extra = (
            [Modifier(now.options.garrote_penalty, "garrote", "003-27")] if command.garrote else []
        )
        attack = check(
            now,
            ctx,
            now.fighters[actor.id],
            "unarmed combat",
            f"grapple {target.name}",
            [*extra, *command.modifiers],
        )
        skill = command.resist.get(target.id) or best_of(target, ("physique", "unarmed combat"))
        resist = check(
            now, ctx, target, skill, f"resist {actor.name}'s grapple", [], multiple=shielded
        )
        margin = attack.total - resist.total
        wins = not attack.fumble and (margin > 0 or (attack.critical and not resist.critical))
        events += [
            rolled(
                actor,
                f"grapple {target.name}",
                attack,
                resist.total,
                "holds" if wins else "fails",
                ["003-24"],
            ),
            rolled(
                target,
                f"resist {actor.name}'s grapple",
                resist,
                attack.total,
                f"{skill}",
                ["003-24"],
            ),
        ]
        if not wins:
            events.append(
                Resolved(actor.id, "grapple", [target.id], "fails", ["003-24"], f"{margin}")
            )
            continue
        events += grappled(now, actor, target, pin, command.garrote, max(1, margin))
    return events


def best_of(fighter: Fighter, skills: tuple[str, ...]) -> str:
    return max(skills, key=fighter.sheet.level)


def grappled(
    state: State, actor: Fighter, target: Fighter, pin: bool, garrote: bool, margin: int
) -> list[Event]:
    if pin:
        return [
            ConditionCleared(target.id, "held", "pinned instead", ["003-25"]),
            ConditionSet(
                target.id, "pinned", f"pinned by {actor.name}", {"by": actor.id}, ["003-25"]
            ),
        ]
    events: list[Event] = [
        ConditionSet(target.id, "held", f"held by {actor.name}", {"by": actor.id}, ["003-24"]),
        ConditionSet(
            actor.id,
            "holding",
            f"holds {target.name}",
            {"target": target.id, "turn": state.turn},
            ["003-24"],
        ),
    ]
    if garrote:
        events.append(
            ConditionSet(
                target.id,
                "garroted",
                f"garroted by {actor.name}",
                {"by": actor.id, "margin": margin},
                ["003-27"],
            )
        )
        events += damage(
            state, actor, target, margin, garrote_weapon(state), [], f"garrote margin {margin}"
        )
    return events


def resolve_break(state: State, actor: Fighter, command: Break, ctx: Context) -> list[Event]:
    """003-26: Physique or Unarmed Combat against the holder's Unarmed Combat; a tie frees."""
    holder_id = state.holder_of(actor)
    if holder_id is None:
        return [Resolved(actor.id, "break", [], "nobody holds them any more", ["003-26"])]
    holder = state.fighters[holder_id]
    skill = command.skill or best_of(actor, ("physique", "unarmed combat"))
    attempt = check(state, ctx, actor, skill, "break the hold", list(command.modifiers))
    hold = check(state, ctx, holder, "unarmed combat", f"keep hold of {actor.name}", [])
    frees = attempt.total >= hold.total and not attempt.fumble
    events: list[Event] = [
        rolled(
            actor,
            "break the hold",
            attempt,
            hold.total,
            "breaks free" if frees else "still held",
            ["003-26"],
        ),
        rolled(holder, f"keep hold of {actor.name}", hold, attempt.total, "", ["003-26"]),
    ]
    if frees:
        events += let_go(actor, holder, f"{actor.name} broke free", "003-26")
    return events


def let_go(target: Fighter, holder: Fighter, reason: str, rule: str) -> list[Event]:
    events: list[Event] = [ConditionCleared(holder.id, "holding", reason, [rule])]
    for condition in ("held", "pinned", "garroted"):
        if target.has(condition):
            events.append(ConditionCleared(target.id, condition, reason, [rule]))
    return events


def resolve_release(state: State, actor: Fighter, command: Release, ctx: Context) -> list[Event]:
    holding = actor.conditions.get("holding")
    if not holding:
        return [Resolved(actor.id, "release", [], "holds nobody any more", ["003-24"])]
    return let_go(state.fighters[holding["target"]], actor, f"{actor.name} lets go", "003-24")


def resolve_feint(state: State, actor: Fighter, command: Feint, ctx: Context) -> list[Event]:
    """003-28: opposed; the target's roll to see through it is no action and takes no
    multiple-action penalty."""
    events: list[Event] = []
    for target_id in command.targets:
        target = state.fighters[target_id]
        feint = check(
            state, ctx, actor, command.skill, f"feint at {target.name}", list(command.modifiers)
        )
        see = check(
            state,
            ctx,
            target,
            best_of(target, ("melee", "unarmed combat")),
            f"see through {actor.name}'s feint",
            [],
            multiple=False,
        )
        fooled = feint.total > see.total and not feint.fumble
        events += [
            rolled(
                actor,
                f"feint at {target.name}",
                feint,
                see.total,
                "fools" if fooled else "is seen through",
                ["003-28"],
            ),
            rolled(target, f"see through {actor.name}'s feint", see, feint.total, "", ["003-28"]),
        ]
        if fooled:
            events.append(
                ConditionSet(
                    target.id,
                    "feinted",
                    f"believes {actor.name} attacks them",
                    {"by": actor.id, "turn": state.turn},
                    ["003-28"],
                )
            )
    return events


def resolve_shield(
    state: State, actor: Fighter, command: ShieldAction, ctx: Context
) -> list[Event]:
    """003-16..003-18, 003-21: strapped shields take an action to unstrap; from the back,
    one action to take it off and one to strap it on; a buckler drops freely."""
    shield = actor.sheet.shield
    if shield is None:
        return [Resolved(actor.id, "shield", [], "has no shield", ["003-16"])]
    moves = {
        "unsling": ("back", "hand"),
        "strap": ("hand", "arm"),
        "unstrap": ("arm", "hand"),
        "drop": ("hand", "ground"),
    }
    start, end = moves[command.op]
    if command.op == "drop" and shield.kind == "buckler":
        start = actor.shield_at
    if actor.shield_at != start:
        return [
            Resolved(
                actor.id,
                "shield",
                [],
                f"cannot {command.op}: the {shield.name} is on the {actor.shield_at}",
                ["003-17"],
            )
        ]
    return [
        ConditionSet(
            actor.id,
            "shield",
            f"{command.op}s the {shield.name}",
            {"at": end},
            ["003-17", "003-18"],
        )
    ]


RESOLVERS = {
    Attack: resolve_attack,
    Dodge: resolve_defensive,
    Parry: resolve_defensive,
    Flee: resolve_defensive,
    Move: resolve_move,
    Aim: resolve_aim,
    Draw: resolve_draw,
    Grapple: resolve_grapple,
    Break: resolve_break,
    Release: resolve_release,
    Feint: resolve_feint,
    ShieldAction: resolve_shield,
    Other: resolve_other,
}
