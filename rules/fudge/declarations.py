"""Declarations (003-4..003-7, 003-24, 003-25, 003-30)."""

from fracas.rules.api import BadInputError, Context, Event, RefusedError, declared_event

from .commands import AGGRESSIVE, Act, Aim, Attack, Withdraw
from .events import Withdrawn
from .state import Fighter, State


def decide_declare(state: State, command: Act, ctx: Context) -> list[Event]:
    actor = state.fighter(command.actor)
    if state.phase != "declaring":
        raise RefusedError(
            "declarations are closed: the declared actions resolve now, one as the GM moves on"
            if state.phase == "resolving"
            else "no turn is declaring: the next turn opens when the GM moves on"
            if state.phase == "resolved"
            else "the fight has not begun: the GM begins it first"
        )
    if actor.id not in state.order:
        raise RefusedError(f"{actor.name} cannot act ({state.wound(actor).name})")
    order = list(state.order)
    if order.index(actor.id) > order.index(state.current or order[-1]):
        raise RefusedError(
            f"{state.fighters[state.current].name} declares before {actor.name} (003-29: lowest "
            "initiative first)"
        )
    check_information_order(state, actor)
    if isinstance(command, Withdraw):
        if not actor.declared:
            raise RefusedError(f"{actor.name} has declared nothing this turn")
        return [Withdrawn(actor.id, "declares again")]
    check_declaration(state, actor, command)
    return [declared_event(command, actor.id, ctx.command_id)]


def check_information_order(state: State, actor: Fighter) -> None:
    """003-29: higher initiative declares knowing the lower declarations, so once one of them
    has declared (or let their turn to declare pass) the lower ones are fixed."""
    if state.options.late_changes:
        return
    order = list(state.order)
    mine, current = order.index(actor.id), order.index(state.current or order[-1])
    later = [state.fighters[who] for who in order[mine + 1 : current + 1]]
    passed = order[mine + 1 : current]
    if passed or any(f.declared for f in later):
        higher = state.fighters[(passed or [order[current]])[0]].name
        raise RefusedError(
            f"{higher} has declared knowing {actor.name}'s declarations, which are now fixed "
            "(003-29); option late_changes=true allows it"
        )


def grapple_bars(state: State, actor: Fighter, action: str, targets: list[str]) -> str:
    """003-24, 003-25: "pinned" when only breaking the hold may go ahead, "held" when only
    breaking free or harming the holder may; "" when the action is free to go ahead.
    Checked at declaration and again at resolution, as a hold may come in between."""
    holder = state.holder_of(actor)
    if actor.has("pinned") and action != "break":
        return "pinned"
    harms_holder = action in ("attack", "grapple") and targets == [holder]
    if holder and action != "break" and not harms_holder:
        return "held"
    return ""


def check_declaration(state: State, actor: Fighter, command: Act) -> None:
    tag = command.__struct_config__.tag
    kinds = actor.kinds()
    for target in command.targets:
        if state.fighter(target).id == actor.id:
            raise RefusedError(f"{actor.name} cannot {tag} themselves")
    barred = grapple_bars(state, actor, tag, list(command.targets))
    if barred == "pinned":
        raise RefusedError(f"{actor.name} is pinned and can only try to break the hold (003-25)")
    if barred == "held" and tag not in ("attack", "grapple"):
        raise RefusedError(
            f"{actor.name} is held: they can only harm the holder or break free (003-24)"
        )
    if barred == "held":
        raise RefusedError(
            f"{actor.name} is held and can only harm {state.holder_of(actor)} (003-24)"
        )
    if (
        actor.has("holding")
        and tag in ("move", "flee", "dodge", "parry")
        and "release" not in kinds
    ):
        raise RefusedError(
            f"{actor.name} holds someone: declare release first to move or defend (003-24)"
        )
    if tag in ("move", "flee"):
        if any(k in ("move", "flee") for k in kinds):
            raise RefusedError(f"{actor.name} already moves this turn; no second move (003-7)")
        if not state.wound(actor).can_walk:
            raise RefusedError(
                f"{actor.name} is {state.wound(actor).name} and cannot walk (003-33)"
            )
    if tag == "dodge" and any(k in AGGRESSIVE for k in kinds):
        raise RefusedError(
            f"{actor.name} declared a non-defensive action and cannot dodge (003-30)"
        )
    if tag in AGGRESSIVE and "dodge" in kinds:
        raise RefusedError(f"{actor.name} declared a dodge: withdraw it to act otherwise (003-30)")
    if tag == "break" and not state.holder_of(actor):
        raise RefusedError(f"nobody holds {actor.name}")
    if tag == "release" and not actor.has("holding"):
        raise RefusedError(f"{actor.name} holds nobody")
    if isinstance(command, Attack):
        check_attack(state, actor, command)
    if tag in ("grapple", "aim", "feint") and not command.targets:
        raise BadInputError(f"{tag} needs a TARGET", player=f"{tag} needs a target: tap one first")
    if isinstance(command, Aim) and len(command.targets) != 1:
        raise BadInputError("aim at one TARGET")


def check_attack(state: State, actor: Fighter, command: Attack) -> None:
    if not command.targets:
        raise BadInputError(
            "attack needs a TARGET: act A attack TARGET -w WEAPON",
            player="attack needs a target: tap one first",
        )
    weapon = actor.weapon(command.weapon)
    if weapon.ranged and len(command.targets) > state.options.max_targets:
        raise RefusedError(
            f"single shots and bursts engage at most {state.options.max_targets} targets (003-6)"
        )
    if not 0 <= command.concealment <= 1:
        raise BadInputError("concealment against a pinpointed target is 0 or 1 (003-10)")
    if command.cover < 0:
        raise BadInputError("cover runs 1..3 (or more for a firing port, 003-9)")
