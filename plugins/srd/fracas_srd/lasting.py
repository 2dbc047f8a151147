"""How long a condition set by a spell, an ability or a hit's rider lasts (srd-28): a number
of rounds, to the start or end of the caster's or the target's next turn, until a save the
target repeats at the end of each of its turns; and the worse condition a save failed by
enough adds, for the same time."""

from typing import Any

import msgspec
from fracas.rules.api import Context, Event, Rolled, Until, until

from fracas_srd.initiative import clock
from fracas_srd.sheets import ROUNDS, Ability, Rider, Spell
from fracas_srd.state import Fighter, State, until_next

Lasting = Spell | Rider


def duration(state: State, caster: Fighter, target: Fighter, lasting: Lasting) -> Until | None:
    if lasting.rounds:
        return until(clock(state), lasting.rounds)
    if lasting.until:
        whose = target if lasting.until_of == "target" else caster
        return until_next(state, lasting.until, whose.id)
    return None


def timed(
    state: State, caster: Fighter, target: Fighter, lasting: Lasting, save: Ability | None, dc: int
) -> dict[str, Any]:
    """The parts of a condition's detail that say when it ends."""
    detail: dict[str, Any] = {}
    ends = duration(state, caster, target, lasting)
    if ends is not None:
        detail["until"] = msgspec.to_builtins(ends)
    if lasting.save_ends and save:
        detail["save_ends"] = {"ability": save, "dc": dc}
    return detail


def worse_time(
    state: State, ctx: Context, events: list[Event], target: Fighter, rider: Rider, failed_by: int
) -> dict[str, Any]:
    """A save failed by enough that its conditions last a time of their own, rolled (a
    homunculus's bite: poisoned and unconscious for 1d10 minutes); {} otherwise."""
    worse = rider.worse
    if worse is None or not worse.lasts or failed_by < worse.by:
        return {}
    dice, unit = worse.lasts.split()
    purpose = f"how long {target.name} is {rider.condition}: {worse.lasts}"
    roll = ctx.dice.roll(dice, purpose)
    events.append(Rolled(target.id, purpose, roll, None, [], f"{roll.total} on {dice}", ["srd-28"]))
    return {"until": msgspec.to_builtins(until(clock(state), roll.total * ROUNDS[unit[:-1]]))}


def conditions_of(lasting: Lasting, failed_by: int) -> list[str]:
    """The condition it sets, and the worse one too where the save failed by enough."""
    worse = lasting.worse
    extra = [worse.condition] if worse is not None and failed_by >= worse.by else []
    return [lasting.condition, *extra] if lasting.condition else extra
