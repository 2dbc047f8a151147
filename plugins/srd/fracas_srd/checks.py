"""The d20 test (srd-M2), advantage and disadvantage (srd-M3), saves (srd-M5), ability
checks and contests. Every die comes from `ctx.dice` and is recorded as a roll."""

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fracas.rules.api import ConditionCleared, Context, Event, Modifier, Roll, Rolled

from fracas_srd.effects import Bonus, bonuses, check_spend, edges, spent_once
from fracas_srd.sheets import ABILITIES, SKILLS, Ability
from fracas_srd.state import Fighter

ADVANTAGE, DISADVANTAGE = "advantage", "disadvantage"
Judge = Callable[[int, int], tuple[bool, str]]
ABILITY_NAMES: dict[str, str] = {
    "str": "Strength", "dex": "Dexterity", "con": "Constitution",
    "int": "Intelligence", "wis": "Wisdom", "cha": "Charisma",
}  # fmt: skip


# -- the names the SRD gives checks and saves ---------------------------------------------


def save_name(ability: str) -> str:
    """"Dexterity saving throw": a save as the SRD names it."""
    return f"{ABILITY_NAMES[ability]} saving throw"


def check_name(skill: str) -> str:
    """"Strength (Athletics) check", or "Strength check" for an ability alone."""
    if skill in ABILITY_NAMES:
        return f"{ABILITY_NAMES[skill]} check"
    words = [w if w == "of" else w.capitalize() for w in skill.split()]
    return f"{ABILITY_NAMES[SKILLS[skill]]} ({' '.join(words)}) check"


def with_article(name: str) -> str:
    """"an Intelligence (Investigation) check", "a Dexterity saving throw"."""
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"


_FULL = "|".join(ABILITY_NAMES.values())
_OLD_SAVE = re.compile(rf"\b(Str|Dex|Con|Int|Wis|Cha|{_FULL}) save\b")
_OLD_CHECK = re.compile(r"\b(Str|Dex|Con|Int|Wis|Cha)( \([A-Z][A-Za-z ]*\))? check\b")


def _old_check(found: re.Match[str]) -> str:
    skill = (found[2] or "").strip(" ()").lower()
    return check_name(skill if skill in SKILLS else found[1].lower())


def srd_names(data: Any) -> Any:
    """Schema 1 wrote "Dex save" and "Str (Athletics) check" into its rolls and reasons;
    they read as the SRD's names now, as the rules decide them now (an upcaster)."""
    if isinstance(data, str):
        data = _OLD_SAVE.sub(lambda m: save_name(m[1][:3].lower()), data)
        return _OLD_CHECK.sub(_old_check, data)
    if isinstance(data, list):
        return [srd_names(v) for v in data]
    if isinstance(data, dict):
        return {k: srd_names(v) for k, v in data.items()}
    return data


@dataclass
class Edge:
    """The sources of advantage and disadvantage on one roll, each with its reason."""

    advantage: list[Modifier] = field(default_factory=list)
    disadvantage: list[Modifier] = field(default_factory=list)

    def add(self, good: bool, reason: str, rule: str) -> None:
        kind = ADVANTAGE if good else DISADVANTAGE
        (self.advantage if good else self.disadvantage).append(
            Modifier(0, f"{kind}: {reason}", rule, note=True)
        )

    @property
    def kind(self) -> str:
        """srd-M3: one of each, however many of each, is neither."""
        if self.advantage and self.disadvantage:
            return ""
        return ADVANTAGE if self.advantage else DISADVANTAGE if self.disadvantage else ""

    def notes(self) -> list[Modifier]:
        notes = [*self.advantage, *self.disadvantage]
        if self.advantage and self.disadvantage:
            cancel = "advantage and disadvantage cancel: one d20"
            notes.append(Modifier(0, cancel, "srd-M3", note=True))
        return notes


class Check(NamedTuple):
    natural: int
    total: int
    success: bool


def roll_d20(ctx: Context, kind: str, purpose: str) -> tuple[Roll, int]:
    """One d20, or two keeping the higher (advantage) or the lower (disadvantage): the
    record shows both dice and which one counts."""
    spec = {ADVANTAGE: "2d20kh1", DISADVANTAGE: "2d20kl1"}.get(kind, "d20")
    roll = ctx.dice.roll(spec, f"{purpose} ({kind})" if kind else purpose)
    return roll, roll.total


def meets(target: int | None) -> Judge:
    """srd-M2: meeting or beating the target number succeeds."""

    def judge(natural: int, total: int) -> tuple[bool, str]:
        if target is None:
            return True, str(total)
        success = total >= target
        return success, f"{'success' if success else 'failure'} ({total} vs {target})"

    return judge


def d20_test(
    ctx: Context,
    events: list[Event],
    who: str,
    purpose: str,
    modifiers: list[Modifier],
    edge: Edge,
    target: int | None,
    rules: list[str],
    judge: Judge | None = None,
    dice: Sequence[Bonus] = (),
    decided: Collection[int] = (),
) -> Check:
    """Roll, add the modifiers, judge, and record it all as one roll with its reasons; an
    effect's dice (bless's 1d4) are rolled right after the d20 and recorded after it,
    unless the d20 shows a natural that decides the roll before anything is added
    (`decided`: a death save's 1 and 20, srd-14)."""
    roll, natural = roll_d20(ctx, edge.kind, purpose)
    if natural in decided:
        dice = ()
    rolled = [bonus_roll(ctx, who, purpose, bonus) for bonus in dice]
    modifiers = [*modifiers, *(added for added, _ in rolled)]
    total = natural + sum(m.value for m in modifiers)
    success, result = (judge or meets(target))(natural, total)
    notes = [*modifiers, *edge.notes()]
    cited = ["srd-M2", *rules, *(["srd-32"] if dice else [])]
    events.append(Rolled(who, purpose, roll, target, notes, result, cited))
    events += [record for _, record in rolled]
    return Check(natural, total, success)


def bonus_roll(ctx: Context, who: str, purpose: str, bonus: Bonus) -> tuple[Modifier, Rolled]:
    """srd-32: an effect's die added to (or taken off) a d20 roll, its result saying so
    with its label ("+1d4 bless")."""
    why = f"{bonus.source} on the {purpose}"
    roll = ctx.dice.roll(bonus.dice, why)
    value = bonus.sign * roll.total
    shown = f"{'-' if bonus.sign < 0 else '+'}{bonus.dice}"
    added = Modifier(value, f"{bonus.source}: {shown} rolled {roll.total}", "srd-32")
    return added, Rolled(who, why, roll, None, [], f"{shown} {bonus.source}", ["srd-32"])


def save_modifiers(fighter: Fighter, ability: Ability) -> list[Modifier]:
    mods = [Modifier(fighter.sheet.mod(ability), f"{ability.capitalize()} modifier", "srd-M1")]
    if ability in fighter.sheet.saves:
        mods.append(Modifier(fighter.sheet.bonus, "proficient save", "srd-M4"))
    return mods


def skill_modifiers(fighter: Fighter, skill: str) -> list[Modifier]:
    ability = skill if skill in ABILITIES else SKILLS[skill]
    mods = [Modifier(fighter.sheet.mod(ability), f"{ability.capitalize()} modifier", "srd-M1")]
    if skill in (s.lower() for s in fighter.sheet.skills):
        mods.append(Modifier(fighter.sheet.bonus, f"proficient in {skill}", "srd-M4"))
    if more := fighter.sheet.skill_bonuses.get(skill):  # a stat block's skill: one number
        total = sum(m.value for m in mods) + more
        said = f"{skill[:1].upper()}{skill[1:]}, as its stat block gives it"
        return [Modifier(total, said, "srd-M4")]
    return mods


def passive_perception(fighter: Fighter) -> int:
    """As its stat block states it, else 10 + its Wisdom (Perception) check's modifiers."""
    stated = fighter.sheet.passive_perception
    modifiers = skill_modifiers(fighter, "perception")
    return stated if stated is not None else 10 + sum(m.value for m in modifiers)


def check_edge(fighter: Fighter) -> Edge:
    """srd-27: frightened and poisoned creatures have disadvantage on ability checks;
    srd-5: a Help for no creature in particular gives the next check advantage."""
    edge = Edge()
    for condition in ("frightened", "poisoned"):
        if fighter.has(condition):
            edge.add(False, f"{fighter.name} is {condition}", "srd-27")
    helped = fighter.conditions.get("helped")
    if helped is not None and not helped.get("against"):
        edge.add(True, f"helped by {helped.get('by_name', 'an ally')}", "srd-5")
    for good, source in edges(fighter, "checks"):
        edge.add(good, source, "srd-33")
    return edge


def skill_check(
    ctx: Context,
    events: list[Event],
    fighter: Fighter,
    skill: str,
    dc: int | None,
    rules: list[str],
    given: Sequence[Modifier] = (),
    spend: str = "",
    aim: str = "",
) -> Check:
    """A check with a skill, or with an ability alone (`str`); `given`: the GM's modifiers;
    `spend`: the effect its creature chooses to add to it (guidance, srd-81); `aim`: what a
    contest's check is for ("to escape", "against the escape"), so its two read apart."""
    purpose = check_name(skill) + (f" {aim}" if aim else "")
    if dc is not None:
        purpose += f" (DC {dc})"
    check_spend(fighter, "checks", spend)
    flat, dice = bonuses(fighter, "checks", spend)
    mods = [*skill_modifiers(fighter, skill), *flat, *given]
    edge = check_edge(fighter)
    check = d20_test(ctx, events, fighter.id, purpose, mods, edge, dc, rules, dice=dice)
    events += spent_once(fighter, "checks", spend)
    helped = fighter.conditions.get("helped")
    if helped is not None and not helped.get("against"):
        events.append(ConditionCleared(fighter.id, "helped", "used on this check", ["srd-5"]))
    return check


def better_skill(fighter: Fighter, choices: tuple[str, ...]) -> str:
    return max(choices, key=lambda s: sum(m.value for m in skill_modifiers(fighter, s)))
