"""How a spell was cast this turn, in the log's words, and the rule that reads them back:
beside a bonus-action spell, only a cantrip cast with an action (srd-3)."""

import re

from fracas.rules.api import RefusedError

from fracas_srd.sheets import Spell
from fracas_srd.state import Fighter

CASTINGS = {"action": "an action", "bonus": "a bonus action", "reaction": "a reaction"}
CAST_AS = re.compile(
    r"(?:a cantrip|a level (?P<level>\d+) spell) cast (?:at level (?P<slot>\d+) )?"
    r"with (?P<casting>an action|a bonus action|a reaction)$"
)


def spell_cast(spell: Spell, slot: int = 0) -> str:
    """The log's words for a spell cast this turn, which srd-3 reads back (`cast_as`):
    "fire bolt, a cantrip cast with an action", "magic missile, a level 1 spell cast at
    level 2 with an action"."""
    level = f"a level {spell.level} spell" if spell.level else "a cantrip"
    upcast = f" at level {slot}" if slot > spell.level else ""
    return f"{spell.name}, {level} cast{upcast} with {CASTINGS[spell.casting]}"


def cast_as(said: str) -> tuple[str, int]:
    """How a spell cast this turn was cast, and its level, from the log's words (or the
    older "action:2")."""
    found = CAST_AS.search(said)
    if found is None:
        casting, _, level = said.partition(":")
        return casting, int(level)
    casting = next(k for k, words in CASTINGS.items() if words == found["casting"])
    return casting, int(found["level"] or 0)


def upcast_to(said: str) -> int | None:
    """The slot's level of a spell cast with a higher slot than its own, from the log's
    words ("…, a level 1 spell cast at level 2 with an action": 2); None for one cast at
    its own level."""
    found = CAST_AS.search(said)
    return int(found["slot"]) if found and found["slot"] else None


def bonus_rule_broken(caster: Fighter, spell: Spell) -> str:
    """srd-3: with a bonus-action spell in a turn, any other is a one-action cantrip: why
    casting `spell` now would break it, or ""."""

    def cantrip(casting: str, level: int) -> bool:
        return casting == "action" and level == 0

    before = [cast_as(said) for said in caster.spells]
    if any(c == "bonus" for c, _ in before) and not cantrip(spell.casting, spell.level):
        return (
            f"{caster.name} has cast a bonus-action spell this turn: the only other spell "
            f"cast this turn may be a cantrip cast with an action, and {spell.name} is not "
            "(srd-3)"
        )
    if spell.casting == "bonus" and not all(cantrip(c, lv) for c, lv in before):
        return (
            f"{caster.name} has cast a spell this turn other than a cantrip with an action: "
            f"{spell.name}, a bonus-action spell, may only come beside such a cantrip (srd-3)"
        )
    return ""


def check_bonus_rule(caster: Fighter, spell: Spell) -> None:
    if broken := bonus_rule_broken(caster, spell):
        raise RefusedError(broken)
