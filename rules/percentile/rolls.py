"""The test roll (mechanics 1 to 4): the target number, its modifiers, and how a d100 is judged."""

import msgspec

from fracas.rules.api import Context, Event, Modifier, RefusedError, Rolled

from .sheets import INHUMAN, Options, Rating, stat_named
from .state import Fighter, check_skill

TIER = {"critical": 2, "success": 1, "failure": 0, "fumble": 0}


def judge(face: int, target: int, stat: int | None = None) -> str:
    """Mechanics 1 to 3: roll under; 01 and successful doubles are criticals, 100 and failed
    doubles are fumbles; on an inhuman stat test a roll at or under the stat is critical too."""
    success = face <= target and face != 100
    doubles = face < 100 and face % 11 == 0
    if success:
        inhuman = stat is not None and stat >= INHUMAN and face <= stat
        return "critical" if face == 1 or doubles or inhuman else "success"
    return "fumble" if face == 100 or doubles else "failure"


def clamp_target(base: int, modifier: int, cap: int, ignore_modifiers: bool = False) -> int:
    """Mechanic 2 and the stacking default: cap the modifier at ±cap (0: no cap), then clamp
    the target to 1..99. An inhuman stat's x5 is modified like any target (000-M2): at 99
    or more every roll but 100 succeeds, under 99 it is an ordinary test. `ignore_modifiers`:
    the earlier reading, an inhuman test at 99 whatever the modifiers."""
    if ignore_modifiers:
        return 99
    if cap:
        modifier = max(-cap, min(cap, modifier))
    return max(1, min(99, base + modifier))


def target_number(
    base: int, modifiers: list[Modifier], cap: int, ignore_modifiers: bool = False
) -> int:
    return clamp_target(base, sum(m.value for m in modifiers), cap, ignore_modifiers)


def target_of(rating: Rating, modifiers: list[Modifier], options: Options) -> int:
    """The target of every test (mechanic 2, 000-M2) as the encounter's options read it."""
    ignored = rating.inhuman and options.inhuman_penalties == "ignored"
    return target_number(rating.value, modifiers, options.modifier_cap, ignored)


def inhuman_note(rating: Rating, target: int, options: Options) -> Modifier:
    """000-M2 beside an inhuman stat's test: which rolls succeed, which are criticals."""
    stat = rating.stat
    if options.inhuman_penalties == "ignored":  # as the encounters begun so recorded it
        return Modifier(0, f"inhuman stat {stat}: every roll but 100 succeeds", "000-M2", note=True)
    succeeds = "every roll but 100 succeeds, " if target >= 99 else ""
    said = f"inhuman stat {stat}: {succeeds}{stat} or under is a critical"
    return Modifier(0, said, "000-M2", note=True)


def checked_rating(fighter: "Fighter", skill: str) -> "Rating":
    """A stat of 0 cannot be tested at all (there is nothing to roll under)."""
    check_skill(skill, fighter.name, fighter.sheet.skills)
    rating = fighter.rating(skill)
    if rating.stat == 0:
        stat = (stat_named(skill) or skill).upper()
        raise RefusedError(f"{fighter.name} has {stat} 0: a stat of 0 cannot be tested")
    return rating


class Test(msgspec.Struct, frozen=True):
    actor: str
    skill: str
    face: int
    target: int
    result: str

    @property
    def tier(self) -> int:
        return TIER[self.result]

    @property
    def success(self) -> bool:
        return self.tier > 0


def roll_test(
    ctx: Context,
    events: list[Event],
    fighter: Fighter,
    skill: str,
    purpose: str,
    modifiers: list[Modifier],
    options: Options,
    rules: list[str],
) -> Test:
    rating = checked_rating(fighter, skill)
    target = target_of(rating, modifiers, options)
    roll = ctx.dice.roll("d100", purpose)
    result = judge(roll.total, target, rating.stat)
    if rating.inhuman:
        modifiers = [*modifiers, inhuman_note(rating, target, options)]
    events.append(Rolled(fighter.id, purpose, roll, target, modifiers, result, rules))
    return Test(fighter.id, skill, roll.total, target, result)


def defender_wins(attack: Test, defence: Test, options: Options) -> bool:
    """Mechanic 4 with the defaults: the defence must overcome the attack strictly."""
    if not defence.success:
        both_failed = not attack.success
        return both_failed and options.both_fail == "lower_roll" and defence.face < attack.face
    if defence.tier != attack.tier:
        return defence.tier > attack.tier
    if defence.face != attack.face:
        return defence.face > attack.face
    return options.defence_ties == "defender"
