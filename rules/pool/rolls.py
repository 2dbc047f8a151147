"""The roll (mechanics 1 and 4): a pool of d10s, its difficulty, and what it reads."""

import msgspec
from msgspec.structs import replace

from fracas.rules.api import Context, Event, Modifier, RefusedError, Resolved, Rolled

from .sheets import ATTRIBUTES
from .state import Fighter, State


def reading(outcome: int) -> str:
    """Mechanic 1's bands."""
    if outcome < 0:
        return "botch"
    if outcome == 0:
        return "failure"
    if outcome <= 3:
        return "partial success"
    if outcome <= 5:
        return "complete success"
    return "exceptional success"


def face_worth(face: int, difficulty: int | None) -> int:
    """What one face adds to the count (004-M1): a 10 two, a success one, a 1 takes one."""
    return count_outcome([face], difficulty if difficulty is not None else 11)


def count_outcome(faces: list[int], difficulty: int) -> int:
    """+1 per die at or above the Difficulty, +2 for a 10, -1 for a 1."""
    return sum(2 if f == 10 else 1 if f >= difficulty else -1 if f == 1 else 0 for f in faces)


def penalty(state: State, fighter: Fighter) -> int:
    """Mechanic 4: dice lost to Body remaining (RULES.md's table, an option)."""
    left = fighter.body_left
    table = state.options.body_penalties
    return table[left - 1] if 1 <= left <= len(table) else 0


class Pool(msgspec.Struct, frozen=True):
    dice: int
    terms: list[Modifier]


def pool_for(
    state: State, fighter: Fighter, attribute: str, ability: str, action: bool = True
) -> Pool:
    """Attribute + Ability, less the Penalty (not below 1), then less quick actions and a
    desperate reaction's cost (down to 0) when it is the round's Action."""
    base = fighter.sheet.pool(attribute, ability)
    terms = [Modifier(base, f"{attribute} + {ability}", "004-M1")]
    dice = base
    lost = penalty(state, fighter)
    if lost:
        dice = max(1, base - lost) if base > 0 else 0
        terms.append(Modifier(dice - base, "injury penalty", "004-M4"))
    if action and fighter.quick_round == state.round and fighter.quick_count:
        cut = min(dice, state.options.quick_action_dice * fighter.quick_count)
        dice -= cut
        quick = fighter.quick_count
        said = f"{quick} quick action{'s' if quick != 1 else ''}"
        terms.append(Modifier(-cut, said, "004-3"))
    desperate = fighter.conditions.get("desperate")
    if action and desperate:
        cut = min(dice, desperate["dice"])
        dice -= cut
        terms.append(Modifier(-cut, "after a desperate reaction", "004-19"))
    return Pool(dice, terms)


def difficulty_for(
    state: State, fighter: Fighter, ability: str, base: int, modifiers: list[Modifier]
) -> tuple[int, list[Modifier]]:
    terms = list(modifiers)
    unskilled = ability not in ATTRIBUTES and fighter.sheet.abilities.get(ability, 0) == 0
    if unskilled and state.options.unskilled_difficulty:
        terms.append(
            Modifier(state.options.unskilled_difficulty, f"no ranks in {ability}", "004-M1")
        )
    return base + sum(m.value for m in terms), terms


def roll_pool(
    ctx: Context,
    events: list[Event],
    state: State,
    fighter: Fighter,
    purpose: str,
    pool: Pool,
    difficulty: int,
    difficulty_terms: list[Modifier],
    rules: list[str],
    exert: bool = False,
) -> int:
    """Roll the pool and count the Outcome; an empty pool is a failure with no roll."""
    if fighter.incapacitated:
        raise RefusedError(f"{fighter.name} is incapacitated and fails every rolled action")
    if pool.dice <= 0:
        events.append(
            Resolved(fighter.id, purpose, [], "no dice left: Outcome 0, a failure", ["004-3"])
        )
        return 0
    roll = ctx.dice.roll(f"{pool.dice}d10", purpose)
    outcome = count_outcome(roll.faces, difficulty)
    terms = [*pool.terms, *(replace(m, reason=f"difficulty: {m.reason}") for m in difficulty_terms)]
    if exert:
        outcome += state.options.exertion_outcome
        terms.append(Modifier(state.options.exertion_outcome, "exerted: +1 Outcome", "004-M5"))
    verdict = f"outcome {outcome}: {reading(outcome)}"
    events.append(Rolled(fighter.id, purpose, roll, difficulty, terms, verdict, ["004-M1", *rules]))
    return outcome
