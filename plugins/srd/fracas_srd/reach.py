"""What a GM-only roll can change in a d20 fight, whatever faces it shows (`Ruleset.reach`),
for the steps with too many outcomes to try each (a save for 10d6 fire, a multiattack):
the combatants the command names (the attacker or caster and its targets, whose reactions
may hurt the attacker back), those whose concentration holds a condition on one of them or
is held by one of them (srd-26, srd-34: a concentration lost ends what it holds, a spell
ended on every target ends the concentration), and whoever may have a turn begin if one of
them falls on their own turn (a dying creature's death save, a recharge: srd-14, srd-54).
The turn is reached when the step could change it now (an attack that may wait on a
reaction, srd-39) or later: when one of them could fall, as the dead are skipped; that is
found by deciding the step with its dice at their harshest (every attack a natural 20,
every other die at its highest, every save a 1) and at their mildest, or when a condition
that a turn's edge ends (or saves against) could be other than it is. A roll of one
creature alone (a save, a check, hiding) reaches it and what its concentration holds, and
a search the hidden it may find; neither moves the turn."""

from typing import Any

import msgspec
from fracas.rules.api import (
    BadInputError,
    Context,
    NotFoundError,
    Reach,
    RefusedError,
    Roll,
    kept_of,
    parse_terms,
    roster,
    total_of,
)

from fracas_srd.commands import Check, Hide, Save, Search, Targeted
from fracas_srd.evolve import evolve
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
    extremes = at_extremes(state, command)
    if extremes is None:  # refused on some faces: all it names, and the turn
        named = {w for w in (command.actor, *command.targets) if w in state.fighters}
        return Reach(frozenset(held_with(state, named) | turns_next(state)), shared=True)
    moved, turn = extremes
    named = {w for w in command.targets if w in state.fighters} | moved
    if not turn:
        return Reach(frozenset(held_with(state, named)))
    return Reach(frozenset(held_with(state, named) | turns_next(state)), shared=True)


class Faces:
    """Every die at its highest face, or at its lowest; a save's d20 the other way."""

    def __init__(self, harsh: bool) -> None:
        self.harsh = harsh

    def roll(self, spec: str, purpose: str) -> Roll:
        high = self.harsh != ("save" in purpose.lower())
        pick = max if high else min
        faces = [pick(t.values) for t in parse_terms(spec) for _ in range(t.count)]
        roll = Roll(spec, faces, total_of(spec, faces), "manual", "gm")
        kept = kept_of(spec, faces)
        return roll if kept is None else msgspec.structs.replace(roll, kept=kept)


def at_extremes(state: State, command: Any) -> tuple[set[str], bool] | None:
    """The step decided with its dice at their harshest and at their mildest: the creatures
    whose state differs between the two (the attacker hurt back by a reaction, a once-a-turn
    feature spent on a hit), and whether the turn could move: now (the shared state differs,
    as when an attack waits on a reaction, srd-39), or later (at its harshest someone is
    left at 0 hit points, dying or dead, and the dead are skipped). None: refused on one."""
    from fracas_srd.ruleset import decide  # (the ruleset's own decider, which imports this)

    afters = []
    for harsh in (True, False):
        try:
            events = decide(state, command, Context(Faces(harsh), 0))
        except (BadInputError, NotFoundError, RefusedError):
            return None
        afters.append(roster.fold(evolve, state, events))
    harshest, mildest = afters
    moved = {w for w, f in harshest.fighters.items() if f != mildest.fighters.get(w)}
    fallen = [
        f
        for f in harshest.fighters.values()
        if (f.hp <= 0 or f.dead) and f != state.fighters.get(f.id)
    ]
    shared = [msgspec.structs.replace(a, fighters={}) for a in afters]
    lasting = any(timed(harshest, w) != timed(mildest, w) for w in moved)
    return moved, shared[0] != shared[1] or bool(fallen) or lasting


def timed(state: State, who: str) -> dict[str, Any]:
    """The creature's conditions that a turn's edge may end or save against (guiding bolt's
    mark, hold person's save, srd-28): where the faces change them, a later `next` does
    otherwise, as a moved turn would."""
    fighter = state.fighters.get(who)
    if fighter is None:
        return {}
    return {n: d for n, d in fighter.conditions.items() if "until" in d or "save_ends" in d}


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
