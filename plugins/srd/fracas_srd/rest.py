"""What a creature carries from fight to fight, and its rests (srd-58, srd-59).

A party member stands as it ended its last fight: hit points and temporary ones, death
saves, spent spell slots, Hit Dice, innate spells' uses a day and legendary resistances,
and the conditions that outlast a fight (exhaustion, a curse, dying or stable at 0): not
those of the fight's own moment (dodging, hidden, grappled, prone: they stand up), nor any
with a duration (a spell's, in rounds), ended by a save at the end of a turn, or held while
a grapple lasts.
"""

from typing import Any

import msgspec
from fracas.rules.api import (
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    Modifier,
    Note,
    RefusedError,
    Rolled,
    Spent,
    roster,
)

from fracas_srd.damage import heal
from fracas_srd.events import Restored, UsesBack
from fracas_srd.evolve import evolve
from fracas_srd.slots import restore_slots
from fracas_srd.state import HIT_DIE, Fighter, State

UNTIL = "until"  # a condition's duration, in its detail (fracas.rules.durations)
# What in a condition's detail ties it to the fight: a duration in rounds or to a turn's
# edge, a save at the end of its turns, another condition it lasts while (a grapple's).
FIGHT_BOUND = frozenset((UNTIL, "save_ends", "while"))
FIGHT_ONLY = frozenset(
    (
        "concentrating",
        "disengaged",
        "dodging",
        "grappled",
        "helped",
        "hidden",
        "prone",
        "readied",
        "removed",
        "surprised",
    )
)


class Standing(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What of a creature outlasts a fight."""

    hp: int
    temp_hp: int = 0
    successes: int = 0
    failures: int = 0
    slots_spent: list[int] = []
    hit_dice_spent: int = 0
    resisted: int = 0
    conditions: dict[str, dict[str, Any]] = {}
    used_today: dict[str, int] = {}  # innate spells of so many a day: times cast


def lasting(fighter: Fighter) -> dict[str, dict[str, Any]]:
    return {
        name: detail
        for name, detail in fighter.conditions.items()
        if name not in FIGHT_ONLY and not FIGHT_BOUND & detail.keys()
    }


def standing(state: State, who: str) -> dict[str, Any]:
    f = state.fighter(who)
    return msgspec.to_builtins(
        Standing(
            f.hp,
            f.temp_hp,
            f.successes,
            f.failures,
            list(f.slots_spent),
            f.hit_dice_spent,
            f.resisted,
            lasting(f),
            dict(f.used_today),
        )
    )


# The sheet's fields that say how a creature stands, and the standing's key each is.
STANDING_FIELDS = {
    "hp_now": "hp",
    "temp_hp": "temp_hp",
    "slots_spent": "slots_spent",
    "hit_dice_spent": "hit_dice_spent",
}


def set_standing(given: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """A party member's standing once the GM sets some of the sheet's fields by hand: the
    hit points, temporary ones, spent slots and Hit Dice set are how it stands."""
    return given | {key: fields[name] for name, key in STANDING_FIELDS.items() if name in fields}


def restore(state: State, who: str, given: dict[str, Any]) -> list[Event]:
    """The creature stands so: its numbers at once, then its lasting conditions."""
    stands = msgspec.convert(given, Standing)
    f = state.fighter(who)
    reason = "as before"  # carried in, or kept through a new sheet: no fight need have ended
    have = list(f.sheet.slots)
    slots = [min(spent, n) for spent, n in zip(stands.slots_spent, have, strict=False)]
    hit_dice = min(stands.hit_dice_spent, f.hit_dice)
    if sum(slots) < sum(stands.slots_spent) or hit_dice < stands.hit_dice_spent:
        reason += " (spent slots and Hit Dice capped at the new sheet's)"
    numbers = Restored(
        f.id,
        min(stands.hp, f.hp_max),
        stands.temp_hp,
        stands.successes,
        stands.failures,
        slots,
        hit_dice,
        stands.resisted,
        reason,
        used_today=stands.used_today,
        was=f.hp,
    )
    conditions: list[Event] = [  # a lasting one it no longer has (cured in the fight) ends
        ConditionCleared(f.id, name, "it ended in the fight")
        for name in lasting(f)
        if name not in stands.conditions
    ]
    conditions += [
        ConditionSet(f.id, name, reason, dict(detail))
        for name, detail in stands.conditions.items()
        if name not in f.conditions
    ]
    return [numbers, *conditions]


def rest(state: State, who: str, kind: str, spend: int, ctx: Context) -> list[Event]:
    check_nobody_dying(state)
    f = state.fighter(who)
    if f.dead and spend:
        raise RefusedError(
            f"{f.name} is dead: no rest brings {f.them} back; spend none on {f.name}"
        )
    if f.dead:
        return [Note(f"{f.name} is dead: no rest brings {f.them} back")]
    return short_rest(state, who, spend, ctx) if kind == "short" else long_rest(f)


def check_nobody_dying(state: State) -> None:
    """No rest while a member of the party is dying: its death saves go on until it is
    stabilised or healed (srd-14, srd-16); a stable one may rest (srd-59)."""
    dying = next((f for f in state.fighters.values() if f.has("dying")), None)
    if dying is not None:
        raise RefusedError(
            f"{dying.name} is dying at 0 hit points: no rest while a member of the party is "
            f"dying; heal {dying.name} first (`fracas party heal {dying.id} 1`) or reopen the "
            f"fight and stabilise {dying.name} (`fracas act ID stabilise {dying.id}`, srd-16)"
        )


def short_rest(state: State, who: str, spend: int, ctx: Context) -> list[Event]:
    """srd-58: the Hit Dice the GM says the creature spends, one by one, each healing its
    roll plus the Constitution modifier (0 at least); a feature used once until a rest
    (Second Wind) is ready again."""
    f = state.fighter(who)
    events = uses_back(f, "a short rest")
    if spend == 0:
        return [*events, Note(f"{f.name} spends no Hit Dice (srd-58)")]
    check_hit_dice(f, spend)
    for _ in range(spend):
        f = roster.fold(evolve, state, events).fighter(who)
        events += hit_die(f, ctx)
    return events


def uses_back(f: Fighter, why: str) -> list[Event]:
    """The features once until a short or long rest it has used, ready again."""
    used = [feature.name for feature in f.sheet.features if feature.heals and f.used(feature.name)]
    return [UsesBack(f.id, used, why)] if used else []


def check_hit_dice(f: Fighter, spend: int) -> None:
    sheet = f.sheet
    if not sheet.hit_die or not sheet.level:
        raise RefusedError(f"{f.name} has no Hit Dice: {f.its} sheet gives no level and hit_die")
    if f.hp >= f.hp_max:
        raise RefusedError(
            f"{f.name} is at full hit points, {f.hp} of {f.hp_max}: a Hit Die would heal "
            f"nothing; spend none on {f.name} (srd-58)"
        )
    left = sheet.level - f.hit_dice_spent
    if left <= 0:
        raise RefusedError(f"{f.name} has no Hit Dice left of {sheet.level} (srd-58)")
    if spend > left:
        raise RefusedError(
            f"{f.name} has {left} Hit {'Die' if left == 1 else 'Dice'} left of {sheet.level}: "
            f"spend at most {left} (srd-58)"
        )


ROLLED_FOR = "a Hit Die"  # a roll's purpose, as the SRD writes it: "rolls d10 for a Hit Die"


def hit_die(f: Fighter, ctx: Context) -> list[Event]:
    """One Hit Die spent: its roll, the die gone, the hit points it gives."""
    sheet = f.sheet
    left = sheet.level - f.hit_dice_spent
    roll = ctx.dice.roll(f"d{sheet.hit_die}", f"Hit Die of {f.name}")  # whose, if refused
    con = Modifier(sheet.mod("con"), "Constitution", "srd-58")
    gained = max(0, roll.total + con.value)
    return [
        Rolled(f.id, ROLLED_FOR, roll, None, [con], f"regains {gained}", ["srd-58"]),
        Spent(f.id, HIT_DIE, 1, f"{left - 1} of {sheet.level} left", ["srd-58"]),
        *(heal(f, gained, "a Hit Die", ("srd-58",)) if gained else []),
    ]


def long_rest(f: Fighter) -> list[Event]:
    """srd-59: everything back, but at 0 hit points (stable: nobody dying rests) the
    rest gives only 1 hit point."""
    if f.hp == 0:
        return heal(f, 1, "a long rest: stable, it regains 1 hit point", ("srd-59",))
    slots = list(f.slots_spent)  # the slots come back by their own hook
    spent = max(0, f.hit_dice_spent - max(1, f.sheet.level // 2))
    why = "a long rest" + hit_dice_back(f, spent)
    rules = ["srd-59", "srd-56"]
    back = Restored(f.id, f.hp_max, 0, 0, 0, slots, spent, 0, why, rules, was=f.hp)
    return [back, *restore_slots(f, "a long rest")]


def hit_dice_back(f: Fighter, spent: int) -> str:
    """What a long rest gave back of the Hit Dice, as its reason says it (srd-59)."""
    if not f.hit_dice:
        return ""
    back, most = f.hit_dice_spent - spent, f.hit_dice
    return f", {back} Hit {'Die' if back == 1 else 'Dice'} back, {most - spent} of {most} left"
