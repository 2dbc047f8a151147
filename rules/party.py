"""The party: player characters carried from fight to fight, and their rests.

What of a combatant outlasts a fight is the ruleset's to say (`Ruleset.standing` and
`Ruleset.restore`); without its own, fracas carries health and the conditions that have no
duration (poisoned until cured, yes; "on fire for 3 rounds", no), and none of the
conditions the rules set and read themselves, which follow from the health again.
"""

from typing import Any

from fracas.ledger import RefusedError
from fracas.rules import durations, roster
from fracas.rules.commands import Carry, Join, Leave, PartyCommand, Rest, SendParty, Update
from fracas.rules.events import (
    Carried,
    ConditionCleared,
    ConditionSet,
    Event,
    MemberLeft,
    PartySent,
)
from fracas.rules.views import PARTY

REMOVED = "removed"
RESTS = ("short", "long")


def lasting(rules: Any, conditions: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The conditions that outlast a fight by default: set by hand without a duration."""
    kept_by_rules = rules.conditions | rules.down | rules.out | {REMOVED}
    return {
        name: detail
        for name, detail in conditions.items()
        if name not in kept_by_rules and durations.UNTIL not in detail
    }


def health_row(rules: Any, state: Any, who: str) -> Any:
    return next(row for row in rules.view(state).wounds if row.combatant == who)


def standing(rules: Any, state: Any, who: str) -> dict[str, Any]:
    """The default of what carries over: health as the table counts it, lasting conditions."""
    fighter = roster.find(state.fighters, who)
    return {
        "health": health_row(rules, state, who).current,
        "conditions": lasting(rules, fighter.conditions),
    }


def restore(rules: Any, state: Any, who: str, stands: dict[str, Any]) -> list[Event]:
    """The default's events: the health brought to it by the GM's harm or heal (so that what
    follows from it follows), then the lasting conditions set."""
    row = health_row(rules, state, who)
    lost = int(stands.get("health", row.current)) - row.current
    if row.counts == "left":
        lost = -lost
    events: list[Event] = []
    reason = "as before"  # carried in, or kept through a new sheet: no fight need have ended
    if lost > 0:
        events += rules.harm_by_hand(state, who, lost, reason)
    elif lost < 0:
        events += rules.heal_by_hand(state, who, -lost, reason)
    after = roster.fold(rules.evolve, state, events)
    wanted = stands.get("conditions", {})
    have = roster.find(after.fighters, who).conditions
    return (
        events
        + ended(who, lasting(rules, have), wanted)
        + conditions_to(after, who, wanted, reason)
    )


ENDED_THERE = "it ended in the fight"


def ended(
    who: str, held: dict[str, dict[str, Any]], wanted: dict[str, dict[str, Any]]
) -> list[Event]:
    """The lasting conditions a combatant holds that the standing it comes to has not (one
    cleared in the fight it comes home from): cleared, so none comes back between fights."""
    return [ConditionCleared(who, name, ENDED_THERE) for name in held if name not in wanted]


def conditions_to(
    state: Any, who: str, wanted: dict[str, dict[str, Any]], reason: str
) -> list[Event]:
    """The conditions `wanted` set on a combatant that has not got them."""
    have = roster.find(state.fighters, who).conditions
    return [
        ConditionSet(who, name, reason, dict(detail))
        for name, detail in wanted.items()
        if name not in have
    ]


def updated(rules: Any, state: Any, command: Update, ctx: Any) -> list[Event]:
    """A member's new sheet: they leave and join again with it (checked as any sheet a member
    joins with), then stand as they stood where it allows, but as the GM set by hand what
    the sheet says of how they stand."""
    fighter = roster.find(state.fighters, command.target)
    stands = rules.standing_of(state, fighter.id)
    if command.fields and rules.set_standing is not None:  # the GM's word over the carried
        stands = rules.set_standing(stands, command.fields)
    why = f" ({command.reason})" if command.reason else ""
    left = MemberLeft(fighter.id, f"to join again with a new sheet{why}")
    events: list[Event] = [left]
    after = roster.fold(rules.evolve, state, events)
    events += rules.decide(after, Join(fighter.id, command.sheet, fighter.name, "pc"), ctx)
    after = roster.fold(rules.evolve, state, events)
    return events + rules.restore_of(after, fighter.id, stands)


def decide(rules: Any, state: Any, command: PartyCommand, ctx: Any) -> list[Event]:
    """The events of carrying a member over, a member's rest, new sheet or leaving, or the
    party sent on."""
    match command:
        case SendParty():
            return [PartySent(command.encounter)]
        case Carry():
            fighter = roster.find(state.fighters, command.target)
            carried = rules.restore_of(state, fighter.id, command.standing)
            return [Carried(fighter.id, command.source, command.standing), *carried]
        case Rest():
            fighter = roster.find(state.fighters, command.target)
            if rules.rest is None:
                raise RefusedError(
                    f"the {rules.name} rules have no rests: give health back by hand with "
                    f"`fracas party heal {fighter.id} AMOUNT`"
                )
            if command.kind not in RESTS:
                raise RefusedError(f"a rest is short or long, not {command.kind!r}")
            if command.kind == "long" and command.spend:
                raise RefusedError("a long rest spends no dice: spend them on a short rest")
            return rules.rest(state, fighter.id, command.kind, command.spend, ctx)
        case Update():
            return updated(rules, state, command, ctx)
        case Leave():
            fighter = roster.find(state.fighters, command.target)
            return [MemberLeft(fighter.id, command.reason)]
    raise RefusedError(f"not a party command: {command!r}")


def sent_to(events: list[Event]) -> str:
    """Where the party stands after these (effective) events of the party: the encounter it
    was last sent into, or the party itself once it came back (or never left)."""
    where = PARTY
    for event in events:
        if isinstance(event, PartySent):
            where = event.encounter
        elif isinstance(event, Carried):
            where = PARTY
    return where
