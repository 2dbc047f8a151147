"""Rolls (002-14)."""

import msgspec

from fracas.rules.api import BadInputError, Context, Modifier, Roll, Rolled

from .sheets import STAT_DICE
from .state import Fighter, State


def stat_bonus(state: State, fighter: Fighter, stat: str) -> Modifier:
    """A stat's bonus: the stat less the baseline (10 by default)."""
    named = {"q": fighter.sheet.q, "v": fighter.sheet.v, "u": fighter.sheet.u}
    value = named.get(stat.lower(), fighter.sheet.stats.get(stat.lower()))
    if value is None:
        known = ", ".join(["q", "v", "u", *fighter.sheet.stats])
        raise BadInputError(f"{fighter.name} has no stat {stat!r}; stats: {known}")
    return Modifier(value - state.options.stat_baseline, f"[{stat.upper()}] bonus", "002-14")


def roll_penalties(state: State, fighter: Fighter) -> list[Modifier]:
    """002-18: a heart wound leaves the dying character acting at -2 to every roll."""
    dying = fighter.conditions.get("dying", {})
    if dying.get("heart") and not fighter.out:
        return [Modifier(state.options.heart_penalty, "heart wound", "002-18")]
    return []


class StatRoll(msgspec.Struct, frozen=True):
    roll: Roll
    terms: list[Modifier]

    @property
    def total(self) -> int:
        return self.roll.total + sum(m.value for m in self.terms)

    @property
    def natural_18(self) -> bool:
        return self.roll.faces == [9, 9]


def stat_roll(
    state: State, ctx: Context, fighter: Fighter, stat: str, purpose: str, extra: list[Modifier]
) -> StatRoll:
    terms = [stat_bonus(state, fighter, stat), *extra, *roll_penalties(state, fighter)]
    return StatRoll(ctx.dice.roll(STAT_DICE, purpose), terms)


def rolled(
    fighter: Fighter, purpose: str, roll: StatRoll, target: int | None, result: str, rules: list
) -> Rolled:
    return Rolled(fighter.id, purpose, roll.roll, target, roll.terms, result, ["002-14", *rules])
