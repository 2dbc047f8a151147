"""Movement on a creature's turn (srd-52): its speed in feet, more with a Dash (srd-5),
spent in pieces; crawling while prone, difficult terrain and dragging a grappled creature
(srd-20) cost a foot more each; standing
up costs half its speed (srd-27); speed 0 moves nothing."""

from fracas.rules.api import ConditionCleared, Context, Event, RefusedError, Spent, and_list

from fracas_srd.commands import Move, Stand
from fracas_srd.conditions import BREAK_FREE
from fracas_srd.effects import effects_on, moving_freely
from fracas_srd.events import LeftReach
from fracas_srd.sheets import SIZES
from fracas_srd.state import MOVEMENT, REMOVED, Fighter, State


def allowance(fighter: Fighter) -> int:
    """srd-52: its speed a turn, and its speed again for each Dash it has taken (its action,
    or its bonus action by a feature, srd-60)."""
    dashes = (fighter.action == "dash") + fighter.bonus.startswith("dash")
    return speed_of(fighter) * (1 + dashes)


def speed_of(fighter: Fighter) -> int:
    """Its speed, with what effects add or take off (longstrider, ray of frost; srd-52: no
    spell reduces it under freedom of movement, srd-80), or the flying speed an effect
    gives it where that is faster (fly, srd-66); 0 while grappled or restrained (srd-27)."""
    if not fighter.speed:
        return 0
    changes = [e.speed for _, e in effects_on(fighter)]
    walking = fighter.speed + sum(c for c in changes if c > 0 or not moving_freely(fighter))
    flying = max((e.fly for _, e in effects_on(fighter)), default=0)
    return max(0, walking, flying)


def movement_left(fighter: Fighter) -> int:
    return max(0, allowance(fighter) - fighter.moved)


def why_held(fighter: Fighter) -> str:
    held = next((c for c in ("grappled", "restrained") if fighter.has(c)), "")
    return f" ({held})" if held else ""


def held_at_0(fighter: Fighter) -> str:
    """Why its speed is 0, as "X is ..." ends: "grappled", "restrained", "held"."""
    return next((c for c in ("grappled", "restrained") if fighter.has(c)), "held")


def cannot_leave(fighter: Fighter) -> str:
    """Why a creature that has not moved this turn cannot leave another's reach by its own
    movement, or "" (with its speed to spend, it can)."""
    if not fighter.speed:
        held = held_at_0(fighter)
        return f"{fighter.name} is {held}: speed 0, {fighter.it} cannot leave reach (srd-27)"
    return ""


def way_out(fighter: Fighter) -> tuple[str, str]:
    """What ends the hold that keeps its speed at 0, as the GM types it and as a player is
    told it: a creature's grapple or a spell's restraint, its escape (its action, srd-20,
    srd-69); a grapple set by the GM's ruling, the GM's clearing it; else nothing."""
    grappled = fighter.conditions.get("grappled")
    if grappled is not None and not grappled.get("by"):
        how = f"; the GM clears it: `fracas condition clear {fighter.id} grappled`"
        return how, "; the GM clears it"
    if grappled is not None:
        rule = "srd-20"
    elif any(d.get(BREAK_FREE) for d in fighter.conditions.values()):
        rule = "srd-69"
    else:
        return "", ""
    action = f"({fighter.its} action, {rule})"
    return (
        f"; to break free, `fracas act {fighter.id} escape` {action}",
        f"; to break free, Escape {action}",
    )


def feet(count: int) -> str:
    return "1 foot" if count == 1 else f"{count} feet"


def check_room(fighter: Fighter, cost: int, what: str) -> None:
    if not fighter.speed:
        still = (
            f"{fighter.name}'s speed is 0{why_held(fighter)}: {fighter.it} cannot move or stand "
            "(srd-27)"
        )
        how, tapped = way_out(fighter)
        raise RefusedError(f"{still}{how}", player=f"{still}{tapped}")
    left = movement_left(fighter)
    if cost > left:
        dash = "" if fighter.action else f"; a Dash adds {fighter.its} speed"
        raise RefusedError(
            f"{what} costs {feet(cost)}; {fighter.name} has {feet(left)} of movement left this "
            f"turn (speed {speed_of(fighter)}, {fighter.moved} spent{dash}; srd-52)"
        )


def move(state: State, actor: Fighter, command: Move, ctx: Context) -> list[Event]:
    """srd-52: feet of movement spent, refused beyond what is left this turn."""
    costs = [
        *(["crawling while prone"] if actor.has("prone") else []),
        *(["difficult terrain"] if command.difficult and not moving_freely(actor) else []),
        *dragging(state, actor),
    ]
    cost = command.feet * (1 + len(costs))
    what = f"moving {feet(command.feet)}" + (f" ({', '.join(costs)})" if costs else "")
    check_room(actor, cost, what[:1].upper() + what[1:])  # (the names as they are)
    reaches = reaches_left(state, actor, command.left())
    left = movement_left(actor) - cost
    rules = [
        "srd-52",
        *(["srd-27"] if actor.has("prone") else []),
        *(["srd-20"] if dragging(state, actor) else []),
    ]
    spent = Spent(actor.id, MOVEMENT, cost, f"{what}, {feet(left)} left", rules)
    if not reaches:
        return [spent]
    return [spent, LeftReach(actor.id, reaches, f"moving {feet(command.feet)}", ["srd-18"])]


def reaches_left(state: State, actor: Fighter, named: list[str]) -> list[str]:
    """srd-18: the ids of the foes whose reach a move leaves, as named; refused for one not
    in the fight, an ally, the mover itself, or one dead or gone."""
    found = []
    for who in named:
        other = state.fighter(who)
        if other.id == actor.id:
            raise RefusedError(
                f"{actor.name} cannot leave {actor.its} own reach: name those {actor.it} moves "
                "away from (srd-18)"
            )
        if not actor.hostile_to(other):
            foes = [f.id for f in state.alive() if f.hostile_to(actor)]
            raise RefusedError(
                f"{other.name} is {actor.name}'s ally: leaving an ally's reach provokes nothing "
                f"(srd-18); name {actor.its} foes: {', '.join(foes) or 'none'}"
            )
        gone = "dead" if other.dead else REMOVED if other.has(REMOVED) else ""
        if gone:
            raise RefusedError(
                f"{other.name} is {gone}: {actor.name} leaves no reach of {other.name}'s (srd-18)"
            )
        found.append(other.id)
    return found


def dragging(state: State, actor: Fighter) -> list[str]:
    """srd-20: moving while dragging a creature it grapples costs a foot more each, unless
    that creature is two or more sizes smaller (sizes from the sheets and the bestiary)."""
    size = SIZES.index(actor.sheet.size)
    held = [
        f.name
        for f in state.fighters.values()
        if (f.conditions.get("grappled") or {}).get("by") == actor.id
        and size - SIZES.index(f.sheet.size) < 2
    ]
    return [f"dragging {and_list(held)}"] if held else []


def stand(state: State, actor: Fighter, command: Stand, ctx: Context) -> list[Event]:
    """srd-27: standing up costs half the speed, not the action; speed 0 cannot."""
    if not actor.has("prone"):
        raise RefusedError(f"{actor.name} is not prone")
    half = actor.speed // 2
    check_room(actor, half, "Standing up")
    left = movement_left(actor) - half
    return [
        Spent(actor.id, MOVEMENT, half, f"stands up, {feet(left)} left", ["srd-27", "srd-52"]),
        ConditionCleared(actor.id, "prone", f"stands up, for {feet(half)} of movement", ["srd-27"]),
    ]
