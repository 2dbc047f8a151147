"""The GM's everyday commands, decided the same way in every ruleset.

Harm and heal go through the ruleset's own hooks, so that what follows from a change of
health (unconscious, impaired, dying) follows from a trap as it would from a sword.

What a ruleset reads or gives of it (`__all__`):

- `harmed`, `healed` and `cleared`: the default `Ruleset.harm_by_hand`, `heal_by_hand` and
  `clear_by_hand`;
- `table_view`: a view with what the GM decided by hand (`Ruleset` wraps yours in it);
- `REMOVED`: the condition of a combatant the GM took out of the fight (`fracas remove`);
- `BY_HAND`: the key a condition's detail carries when the GM set it by hand, and the
  source of harm done by hand;
- `HandHook`: the type of the by-hand hooks, `(state, target, amount, reason) -> events`;
  `ClearHook`: `clear_by_hand`'s, `(state, target, condition, reason) -> events`;
  `RolledHook`: `harm_rolled`'s, `(state, target, amount, reason, context) -> events`.
"""

from collections.abc import Callable, Collection
from typing import Any

import msgspec
from msgspec.structs import replace

from fracas.ledger import BadInputError, RefusedError
from fracas.ledger.errors import said
from fracas.rules import durations, names, roster
from fracas.rules.commands import (
    ClearCondition,
    End,
    FreeRoll,
    GmCommand,
    Harm,
    Heal,
    Pass,
    Remove,
    Rename,
    Reopen,
    Return,
    SetCondition,
)
from fracas.rules.events import (
    ConditionCleared,
    ConditionSet,
    Damaged,
    EncounterEnded,
    EncounterReopened,
    Event,
    Healed,
    Modifier,
    Renamed,
    Rolled,
)
from fracas.rules.names import and_list
from fracas.rules.views import HELD, View, WoundRow

__all__ = [
    "BY_HAND",
    "REMOVED",
    "ClearHook",
    "HandHook",
    "RolledHook",
    "cleared",
    "harmed",
    "healed",
    "table_view",
]

REMOVED = "removed"
BY_HAND = "gm"
# Why a change to an ended fight is refused, and what to do instead: a fight's end is where
# the party's standing is taken from, so a change after it would reach no one.
ENDED = (
    "the fight has ended: `fracas reopen` to go on with it, `fracas party heal` or "
    "`fracas party condition` to change the party between fights, `fracas new` for the next"
)
HandHook = Callable[[Any, str, int, str], list[Event]]  # (state, target, amount, reason)
ClearHook = Callable[[Any, str, str, str], list[Event]]  # (state, target, condition, reason)
RolledHook = Callable[[Any, str, int, str, Any], list[Event]]  # ... reason, context)


def harmed(state: Any, target: str, amount: int, reason: str) -> list[Event]:
    """Harm by hand in a ruleset that derives everything from the damage itself."""
    return [Damaged(target, amount, BY_HAND, [Modifier(amount, reason or "the GM's ruling")])]


def healed(state: Any, target: str, amount: int, reason: str) -> list[Event]:
    """Healing by hand in a ruleset whose health comes back as a plain amount."""
    return [Healed(target, amount, reason or "the GM's ruling")]


def cleared(state: Any, target: str, condition: str, reason: str) -> list[Event]:
    """A condition cleared by hand, in a ruleset where nothing else ends with it."""
    return [ConditionCleared(target, condition, reason)]


def decide(rules: Any, state: Any, command: GmCommand, ctx: Any) -> list[Event]:
    """The events of one GM command against the state, under `rules` (the Ruleset, whose
    hooks and tracked conditions it uses); one clear line if it cannot be."""
    ended = getattr(state, "ended", False)
    match command:
        case End():
            if ended:
                raise RefusedError("the encounter has already ended; `reopen` it to go on")
            return [EncounterEnded(command.reason or "the GM ends the fight")]
        case Reopen():
            if not ended:
                raise RefusedError("the encounter has not ended, so there is nothing to reopen")
            return [EncounterReopened(command.reason or "the GM reopens the fight")]
    if ended:
        raise RefusedError(ENDED)
    fighter = roster.find(state.fighters, command.target)
    match command:
        case Harm():
            if rules.harm_rolled is not None:
                return rules.harm_rolled(state, fighter.id, command.amount, command.reason, ctx)
            return rules.harm_by_hand(state, fighter.id, command.amount, command.reason)
        case Heal():
            if command.temp:
                return temporary_by_hand(rules, state, fighter.id, command)
            return rules.heal_by_hand(state, fighter.id, command.amount, command.reason)
        case SetCondition():
            command = replace(command, condition=condition_named(rules, state, command.condition))
            refused = rules.condition_refused and rules.condition_refused(
                state, fighter.id, command.condition
            )
            if refused:
                raise RefusedError(refused)
            lasting = duration(rules, state, command)
            made = [set_condition(fighter, command, rules.conditions, rules.name, lasting)]
            return made + what_follows(rules, state, made)
        case ClearCondition():
            named = condition_of(fighter, command.condition)
            reason = command.reason or "ruling"
            return rules.clear_by_hand(state, fighter.id, named, reason)
        case Remove():
            removed = remove(rules, state, fighter, command, ctx)
            return removed + what_follows(rules, state, removed)
        case Return():
            if REMOVED not in fighter.conditions:
                raise RefusedError(f"{fighter.name} was not removed, so cannot return")
            returned = [ConditionCleared(fighter.id, REMOVED, command.reason or "returns")]
            return returned + restarted(rules, state, returned, ctx)
        case Rename():
            name = command.name.strip()
            if not name:
                raise BadInputError("a new name needs at least one letter")
            return [Renamed(fighter.id, name, command.reason or f"was {fighter.name}")]
    raise BadInputError(f"not a GM command: {command!r}")


def restarted(rules: Any, state: Any, events: list[Event], ctx: Any) -> list[Event]:
    """A combatant back in a fight whose clock had stopped (nobody was left to act) sets it
    going again, as the rules move on (the shot clock opens a new sequence, 001-9)."""
    if rules.moved_on is None or rules.view(state).acting:
        return []
    return rules.moved_on(roster.fold(rules.evolve, state, events), ctx)


def what_follows(rules: Any, state: Any, events: list[Event]) -> list[Event]:
    """What ends by itself in the rules once the GM's change is in (`after_by_hand`)."""
    if rules.after_by_hand is None:
        return []
    return rules.after_by_hand(roster.fold(rules.evolve, state, events))


def condition_named(rules: Any, state: Any, name: str) -> str:
    """A condition the GM sets, spelt as the rules or this fight spell it in any case; a
    near miss of one of those ("pron" for "prone") refused with a did-you-mean, since the
    rules would not read it. A name unlike them all is the GM's own."""
    name = name.strip()
    known = {
        *rules.condition_names,
        *rules.conditions,
        *rules.down,
        *rules.out,
        REMOVED,
        *(c for fighter in state.fighters.values() for c in fighter.conditions),
    }
    spelt = {k.lower(): k for k in known}
    if name.lower() in spelt:
        return spelt[name.lower()]
    guess = names.near_miss(name, known)
    if guess is not None:
        raise BadInputError(
            f"unknown condition {said(name)}: did you mean {guess}? For one of your own, give "
            f"a name unlike it, such as {said(name + ' (ruling)')}"
        )
    return name


def condition_of(fighter: Any, name: str) -> str:
    """The condition of `fighter` the GM names to clear, in any case; one line naming the
    closest and every one they have when they have none such."""
    for condition in fighter.conditions:
        if condition.lower() == name.strip().lower():
            return str(condition)
    guess = names.closest(name, fighter.conditions) if fighter.conditions else None
    hint = f"did you mean {guess}? " if guess else ""
    shown = ", ".join(sorted(fighter.conditions)) or "none"
    raise RefusedError(f"{fighter.name} is not {said(name)}; {hint}their conditions: {shown}")


def temporary_by_hand(rules: Any, state: Any, target: str, command: Heal) -> list[Event]:
    """The GM's temporary hit points, through the ruleset's hook; one line in a ruleset
    without them."""
    if rules.temp_by_hand is None:
        raise RefusedError(
            f"the {rules.name} rules have no temporary hit points: heal without --temp"
        )
    return rules.temp_by_hand(state, target, command.amount, command.reason)


FREE_ROLL = "free roll"  # what a free roll without a reason is for


def free_roll(state: Any, command: FreeRoll, ctx: Any) -> list[Event]:
    """A roll no rule applies: its faces, and nothing that follows from them. It reads only
    who is in the fight (the roller: the GM or one of them), so it may be made at any time,
    even once the fight has ended."""
    check_roller(state, command.actor)
    purpose = command.reason.strip() or FREE_ROLL
    return [Rolled(command.actor, purpose, ctx.dice.roll(command.dice, purpose))]


def check_roller(state: Any, actor: str) -> None:
    """Who rolls a free roll (`roll --by`): the GM, or a combatant by their id."""
    fighters = list(state.fighters)
    if actor != BY_HAND and actor not in fighters:
        guess = names.closest(actor, fighters) if fighters else None
        hint = f"did you mean {guess}? " if guess else ""
        raise BadInputError(
            f"--by {said(actor)} is neither gm nor a combatant of this encounter; "
            f"{hint}give --by gm or one of: {names.some_of(fighters) or 'nobody yet'}"
        )


def duration(rules: Any, state: Any, command: SetCondition) -> durations.Until | None:
    """How long a condition set now lasts: --for N rounds or --until an edge of a turn."""
    edge, of = durations.parse_until(command.until) if command.until else ("", "")
    if command.rounds and edge:
        raise BadInputError("give --for (rounds) or --until (a turn), not both")
    if edge:
        of = roster.find(state.fighters, of).id
    return durations.until(rules.clock_of(state), command.rounds, edge, of)


def set_condition(
    fighter: Any,
    command: SetCondition,
    tracked: Collection[str],
    system: str,
    lasting: durations.Until | None = None,
) -> ConditionSet:
    name = command.condition.strip()
    if name.lower() in tracked or name.lower() == REMOVED or ":" in name:
        raise RefusedError(
            f"{name!r} is a condition the {system} rules track themselves; "
            f"use harm, heal or remove, or a free name such as '{name} (ruling)'"
        )
    if name in fighter.conditions:
        raise RefusedError(f"{fighter.name} is already {name!r}")
    detail: dict[str, Any] = {BY_HAND: True}
    if lasting is not None:
        detail[durations.UNTIL] = msgspec.to_builtins(lasting)
    return ConditionSet(fighter.id, name, command.reason or "the GM's ruling", detail)


def remove(rules: Any, state: Any, fighter: Any, command: Remove, ctx: Any) -> list[Event]:
    """Out of the fight; a combatant removed on their own turn has it passed on."""
    if REMOVED in fighter.conditions:
        raise RefusedError(f"{fighter.name} is already out of the fight")
    reason = command.reason or "out of the fight"
    detail = {BY_HAND: True, "reason": reason}
    events: list[Event] = [ConditionSet(fighter.id, REMOVED, reason, detail)]
    if fighter.id in rules.view(state).acting:
        after = roster.fold(rules.evolve, state, events)
        if rules.moved_on is not None:
            events += rules.moved_on(after, ctx)
        else:
            events += rules.decide(after, Pass(fighter.id), ctx)
    return events


def check_command(state: Any, command: Any) -> None:
    """Every ruleset's command refused once the fight has ended, or by or at a removed
    combatant."""
    if state.ended:
        raise RefusedError(ENDED)
    actor = getattr(command, "actor", None)
    named = [actor] if actor else []
    named += getattr(command, "targets", None) or []
    for who in named:
        fighter = state.fighters.get(who)
        if fighter is not None and REMOVED in fighter.conditions:
            raise RefusedError(
                f"{fighter.name} was removed from the fight: `fracas return {who}` brings them "
                "back"
            )


TABLE_VIEW = "__fracas_table_view__"  # marks a view this wrapped already


def fallen(rules: Any, seen: View) -> list[str]:
    """The sides of a fight with nobody left fighting: the ruleset's `fallen_sides`, else
    each side whose combatants are all down, out or removed (by the view's conditions)."""
    if rules.fallen_sides is not None:
        return list(rules.fallen_sides(seen))
    settled = {*rules.down, *rules.out, REMOVED}
    removed = {r.combatant for r in seen.initiative if r.status.startswith(REMOVED)}
    sides: dict[str, bool] = {}
    for row in seen.wounds:
        named = {c.split(" (")[0].split(":")[0] for c in row.conditions}
        standing = row.combatant not in removed and not named & settled
        sides[row.side] = sides.get(row.side, False) or standing
    return [side for side, standing in sides.items() if not standing] if len(sides) > 1 else []


def over(rules: Any, seen: View, players: bool = False) -> str:
    """The GM's line once a begun fight that has not ended has a side with nobody left
    fighting, naming how to end it; "" otherwise. `players`: the same in the players'
    words, with no command in it."""
    if seen.phase == "ended" or not seen.round:
        return ""
    sides = fallen(rules, seen)
    if not sides:
        return ""
    line = f"no {' or '.join(side_word(s) for s in sides)} is left fighting"
    dying = [down_words(rules, row) for row in seen.wounds if row.side in sides]
    if said := [d for d in dying if d]:  # down, not out: they may yet be saved
        line += f" ({'; '.join(said)})"
    standing = [s for s in dict.fromkeys(r.side for r in seen.wounds) if s not in sides]
    if standing:
        line += f"; the {and_list(side_word(s) + 's' for s in standing)}' side stands"
    ends = (
        "the GM says whether the fight is over" if players else "end the fight with `fracas end`?"
    )
    return f"{line}: {ends}"


def side_word(side: str) -> str:
    """A side as the table says it: "PC", "NPC"."""
    return side.upper() if side in ("pc", "npc") else side


def down_words(rules: Any, row: WoundRow) -> str:
    """'Brannoc is dying and unconscious' for one down by the ruleset's down conditions and
    not out (dead): still to be saved or lost; "" otherwise."""
    named = [c.split(" (")[0].split(":")[0] for c in row.conditions]
    if any(c in rules.out or c == REMOVED for c in named):
        return ""
    down = [c for c in named if c in rules.down]
    return f"{row.name} is {and_list(down)}" if down else ""


def table_view(view: Callable[[Any], View]) -> Callable[[Any], View]:
    """A ruleset's view with what the GM decided by hand: removed combatants stand aside
    and an ended encounter has nobody to act. A view wrapped already is returned as it is."""
    if getattr(view, TABLE_VIEW, False):
        return view
    # The views of the states last shown, newest first: a state is immutable and its view
    # a function of it alone, and a step's states are shown several times over (decided,
    # written to the read models, told, its headline), so each is worked out once
    latest: list[tuple[Any, View]] = []

    def shown(state: Any) -> View:
        for known, seen in latest:
            if known is state:
                return seen
        seen = worked_out(state)
        latest[:] = [(state, seen), *latest[:1]]
        return seen

    def worked_out(state: Any) -> View:
        seen = with_durations(state, view(state))
        removed = {
            f.id: f.conditions[REMOVED].get("reason", "")
            for f in state.fighters.values()
            if REMOVED in f.conditions
        }
        if not removed and not state.ended:
            return seen
        initiative = [
            replace(row, acting=False, status=f"removed: {removed[row.combatant]}".rstrip(": "))
            if row.combatant in removed
            else replace(row, acting=False, status="" if row.acting else row.status)
            if state.ended
            else row
            for row in seen.initiative
        ]
        acting = [] if state.ended else [a for a in seen.acting if a not in removed]
        upcoming = [] if state.ended else [a for a in seen.upcoming if a not in removed]
        phase = "ended" if state.ended else seen.phase
        return replace(seen, initiative=initiative, acting=acting, phase=phase, upcoming=upcoming)

    setattr(shown, TABLE_VIEW, True)
    return shown


def with_durations(state: Any, seen: View) -> View:
    """Each condition that lasts a while shown with what is left of it ("blessed (2 rounds
    left)"), and in the row's detail under `durations` for `status --json`. One another
    holds (the row's `detail[HELD]`: a d20 spell's effect, held by a concentration) is shown
    as the ruleset words it: the duration is said once, on what holds it."""
    if not durations.timed(state):
        return seen
    wounds = []
    for row in seen.wounds:
        fighter = state.fighters.get(row.combatant)
        left = {
            name: durations.remaining(state, lasting, seen.round)
            for name, detail in (fighter.conditions.items() if fighter else ())
            if (lasting := durations.until_of(detail)) is not None
        }
        if left:
            said = {n: v for n, v in left.items() if n not in row.detail.get(HELD, {})}
            shown = [shown_with(c, said) for c in row.conditions]
            row = replace(row, conditions=shown, detail={**row.detail, "durations": left})
        wounds.append(row)
    return replace(seen, wounds=wounds)


def shown_with(shown: str, left: dict[str, dict[str, Any]]) -> str:
    """A condition as the row shows it, with what is left of it: its name may lead a
    longer label ("concentrating on bless (9 rounds left)")."""
    name = next((n for n in left if shown == n or shown.startswith(f"{n} ")), None)
    return f"{shown} ({left[name]['text']})" if name else shown


def __dir__() -> list[str]:
    return list(__all__)
