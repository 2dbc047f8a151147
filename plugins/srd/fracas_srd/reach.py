"""What a GM-only roll can change in a d20 fight, whatever faces it shows (`Ruleset.reach`),
for the steps with too many outcomes to try each (a save for 10d6 fire, a multiattack):
the combatants the command names (the attacker or caster and its targets, whose reactions
may hurt the attacker back), those whose concentration holds a condition on one of them or
is held by one of them (srd-26, srd-34: a concentration lost ends what it holds, a spell
ended on every target ends the concentration), and whoever may have a turn begin if one of
them falls on their own turn (a dying creature's death save, a recharge: srd-14, srd-54).
Anyone may fall, and the dead are skipped, so the turn is reached too. A roll of one
creature alone (a save, a check, hiding) reaches it and what its concentration holds, and
a search the hidden it may find; neither moves the turn."""

from typing import Any

from fracas.rules.api import Reach

from fracas_srd.commands import Check, Hide, Save, Search, Targeted
from fracas_srd.state import State


def reach(state: State, command: Any) -> Reach | None:
    """Declared for the commands that name targets and for the rolls of one creature (a
    save or check the GM calls for, hiding, searching); the others (the initiative of
    `begin`) are left to fracas to try (None)."""
    if isinstance(command, Check | Save):  # a condition on a failure, a concentration lost
        return Reach(frozenset(held_with(state, {command.actor})))
    if isinstance(command, Hide):
        return Reach(frozenset({command.actor}))
    if isinstance(command, Search):  # the hidden foes it may find (srd-5)
        hidden = {f.id for f in state.fighters.values() if f.has("hidden")}
        return Reach(frozenset({command.actor} | hidden))
    if not isinstance(command, Targeted):
        return None
    named = {w for w in (command.actor, *command.targets) if w in state.fighters}
    return Reach(frozenset(held_with(state, named) | turns_next(state)), shared=True)


def held_with(state: State, named: set[str]) -> set[str]:
    """The named and, until nothing more is added, the casters of the conditions they have
    and the creatures a concentration of theirs holds a condition on."""
    found, todo = set(named), list(named)
    while todo:
        fighter = state.fighters[todo.pop()]
        linked = {d.get("by") for d in fighter.conditions.values()}
        holding = fighter.conditions.get("concentrating") or {}
        linked |= {who for who, _ in holding.get("effects", [])}
        for who in linked - found - {None}:
            if who in state.fighters:
                found.add(who)
                todo.append(who)
    return found


def turns_next(state: State) -> set[str]:
    """The creature whose turn it is and those whose turns may begin if it falls: the next
    in the order, and past it each dying one whose death save could end it."""
    order = state.alive()
    here = next((i for i, f in enumerate(order) if f.id == state.turn), -1)
    found = {state.turn} if state.turn else set()
    for fighter in order[here + 1 :] + order[: here + 1]:
        found.add(fighter.id)
        if not fighter.has("dying"):
            break
    return found
