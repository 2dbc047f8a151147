"""Rolls (mechanics 1 and 2): 4dF, the ladder, and opposed rolls."""

from typing import Any

import msgspec

from fracas.rules.api import Context, Modifier, Roll, Rolled

from .sheets import LADDER, canonical, check_skill
from .state import Fighter, State


def weight(state: State, fighter: Fighter, command: dict[str, Any]) -> int:
    """003-5: an attack or an evasion counts one action per target; a free draw none; a dodge
    naming nobody evades, and counts, every attacker who declared an attack on the dodger."""
    action, options = command["action"], state.options
    if action == "draw" and not options.draw_is_action:
        return 0
    if action in ("dodge", "parry") and not options.defence_counts_as_action:
        return 0
    if action == "dodge" and not command.get("targets"):
        return max(1, len(attackers_of(state, fighter)))
    if action in ("attack", "dodge", "parry", "feint", "grapple"):
        return max(1, len(command.get("targets", [])))
    return 1


def attackers_of(state: State, fighter: Fighter) -> list[str]:
    return [
        other.id
        for other in state.fighters.values()
        if any(
            d["action"] == "attack" and fighter.id in d.get("targets", []) for d in other.declared
        )
    ]


def free_drop(fighter: Fighter, declared: dict[str, Any]) -> bool:
    """003-21: a buckler can be dropped as a free action."""
    shield = fighter.sheet.shield
    buckler = shield is not None and shield.kind == "buckler"
    return buckler and declared["action"] == "shield" and declared.get("op") == "drop"


def action_count(state: State, fighter: Fighter) -> int:
    """Everything the fighter does this turn: declarations, a hold kept up from an earlier
    turn (003-24; a hold made this turn is the grapple declared), and a defence the rules make
    cost an action (003-22)."""
    declared = sum(weight(state, fighter, d) for d in fighter.declared if not free_drop(fighter, d))
    hold = fighter.conditions.get("holding")
    kept_up = hold is not None and hold.get("turn", 0) < state.turn  # not the one made now
    holding = 1 if kept_up and "release" not in fighter.kinds() else 0
    forced = fighter.conditions.get("forced", {}).get("count", 0)
    return declared + holding + forced


def penalties(state: State, fighter: Fighter, multiple: bool = True) -> list[Modifier]:
    """Wound penalties (cancelled by Pain Tolerance) and, with more than one action, minus
    the number of actions on every roll of the turn (003-4)."""
    terms: list[Modifier] = []
    wound = state.wound(fighter)
    if wound.penalty:
        if fighter.sheet.pain_tolerance:
            cancelled = f"{wound.name}: cancelled by Pain Tolerance"
            terms.append(Modifier(0, cancelled, "003-33", note=True))
        else:
            terms.append(Modifier(wound.penalty, wound.name, "003-33"))
    count = action_count(state, fighter)
    if multiple and count > 1:
        terms.append(Modifier(-count, f"{count} actions this turn", "003-4"))
    return terms


class Check(msgspec.Struct, frozen=True):
    roll: Roll
    terms: list[Modifier]

    @property
    def total(self) -> int:
        return self.roll.total + sum(m.value for m in self.terms)

    @property
    def critical(self) -> bool:
        return self.roll.total == 4

    @property
    def fumble(self) -> bool:
        return self.roll.total == -4


def check(
    state: State,
    ctx: Context,
    fighter: Fighter,
    skill: str,
    purpose: str,
    extra: list[Modifier],
    multiple: bool = True,
) -> Check:
    """4dF + the skill's level + modifiers (mechanics 1-3)."""
    check_skill(skill, fighter.name, [canonical(s) for s in fighter.sheet.skills])
    level = fighter.sheet.level(skill)
    rung = next((k for k, v in LADDER.items() if v == level), str(level))
    terms = [Modifier(level, f"{rung.title()} {skill}", "003-M3")]
    terms += [*extra, *penalties(state, fighter, multiple)]
    return Check(ctx.dice.roll("4dF", purpose), terms)


def rolled(fighter: Fighter, purpose: str, done: Check, target: int | None, result: str, rules):
    return Rolled(fighter.id, purpose, done.roll, target, done.terms, result, ["003-M1", *rules])
