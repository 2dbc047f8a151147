"""The conditions and what they do to rolls while they last (srd-27), with the other
sources of advantage and disadvantage an attack may have (srd-5, srd-17, srd-23)."""

from collections.abc import Sequence

from fracas.rules.api import (
    ConditionCleared,
    Context,
    Event,
    Modifier,
    RefusedError,
    Resolved,
    Spent,
)

from fracas_srd.checks import Check, Edge, d20_test, save_modifiers, save_name
from fracas_srd.commands import Scene
from fracas_srd.effects import (
    attacked_edges,
    bonuses,
    check_spend,
    edges,
    effects_on,
    foreseen,
    spent_once,
    warded_from,
)
from fracas_srd.events import ShookOff
from fracas_srd.sheets import Ability
from fracas_srd.state import LEGENDARY_RESISTANCE, Fighter

FAILS_STR_DEX = ("paralysed", "paralyzed", "petrified", "stunned", "unconscious")
OPEN_TO_ATTACK = (*FAILS_STR_DEX, "blinded", "restrained")  # attacks against: advantage
CRITICAL_UP_CLOSE = ("paralysed", "paralyzed", "unconscious")
# The SRD 5.1's conditions (its appendix A), set by the GM by name (`condition set`).
SRD_CONDITIONS = frozenset(
    ("blinded", "charmed", "deafened", "exhaustion", "frightened", "grappled", "incapacitated",
     "invisible", "paralysed", "paralyzed", "petrified", "poisoned", "prone", "restrained",
     "stunned", "unconscious")
)  # fmt: skip
HAMPERED = ("blinded", "frightened", "poisoned", "prone", "restrained")  # its attacks: disadvantage
# Conditions with no duration or source to renew (prone lasts until it stands up, srd-27):
# set once, never again on a creature that has it.
UNENDING = ("prone",)
COVER = {"none": 0, "half": 2, "three-quarters": 5}
RULED = "the GM's ruling"


def unseen_by(viewer: Fighter, seen: Fighter) -> str:
    """srd-23, srd-27: why `viewer` cannot see `seen`, or "" if it can."""
    if viewer.has("blinded"):
        return f"{viewer.name} is blinded"
    if invisible(seen):
        return f"{seen.name} is invisible"
    return f"{seen.name} is hidden" if seen.has("hidden") else ""


def invisible(fighter: Fighter) -> bool:
    """srd-27: invisible, and not outlined by an effect that takes its benefit (faerie fire,
    srd-48)."""
    return fighter.has("invisible") and not any(e.outlined for _, e in effects_on(fighter))


UNTIL_IT_ACTS = "until_it_acts"  # a condition's detail: it ends as its creature acts (srd-46)
UNTIL_DAMAGED = "until_damaged"  # ... as its creature takes damage (sleep, srd-49)
UNTIL_HARMED_BY = "until_harmed_by"  # ... as this side harms it (charm person, srd-67)
SAVES_WHEN_HURT = "saves_when_hurt"  # ... on a save its damage calls for (dominate, srd-79)
BREAK_FREE = "break_free"  # ... on its creature's Strength check of this DC (entangle, srd-69)


FOE = "foe"  # UNTIL_IT_ACTS's value for a condition that ends only as it acts on a foe
WARD = "ward"  # a condition's detail: the Wis save DC to aim at its creature (sanctuary)


def acting_ends(fighter: Fighter, acts: str, at_foe: bool = True) -> list[Event]:
    """srd-46, srd-73: the conditions that end as their creature attacks or casts a spell
    (invisibility), or a spell on a foe (sanctuary: FOE); `acts`: "attacks", "casts a
    spell"."""
    return [
        ConditionCleared(
            fighter.id,
            name,
            f"{fighter.name} {acts}: {detail['spell']} ends",
            ["srd-73" if detail[UNTIL_IT_ACTS] == FOE else "srd-46"],
        )
        for name, detail in fighter.conditions.items()
        if detail.get(UNTIL_IT_ACTS) is True or (detail.get(UNTIL_IT_ACTS) == FOE and at_foe)
    ]


def turned_away(ctx: Context, events: list[Event], actor: Fighter, target: Fighter) -> bool:
    """srd-73: a creature aiming an attack or a harmful spell at one warded (sanctuary)
    makes a Wisdom save first; failed, it loses the attack or spell on that target."""
    detail = next((d for d in target.conditions.values() if d.get(WARD)), None)
    if detail is None or actor.id == target.id:
        return False
    spell, dc = detail.get("spell", "a ward"), int(detail[WARD])
    purpose = f"{save_name('wis')} to aim at {target.name} through {spell} (DC {dc})"
    if saving_throw(ctx, events, actor, "wis", dc, purpose, ["srd-73"], magic=True).success:
        return False
    why = f"turned away from {target.name} by {spell}: {actor.it} loses it (undo to aim at another)"
    events.append(Resolved(actor.id, "ward", [target.id], why, ["srd-73"]))
    return True


def damage_ends(fighter: Fighter) -> list[Event]:
    """srd-49: the conditions that end as their creature takes damage (sleep's slumber)."""
    return [
        ConditionCleared(
            fighter.id, name, f"damage wakes {fighter.it}: {detail['spell']} ends", ["srd-49"]
        )
        for name, detail in fighter.conditions.items()
        if detail.get(UNTIL_DAMAGED)
    ]


def hurt_saves(ctx: Context | None, fighter: Fighter) -> list[Event]:
    """srd-79: taking damage, a creature saves again against each effect that says so
    (dominate person), a success ending it (the party's harm between fights rolls none: `save`)."""
    events: list[Event] = []
    for name, detail in fighter.conditions.items():
        asked = detail.get(SAVES_WHEN_HURT)
        if ctx is None or not asked:
            continue
        spell, dc = detail.get("spell", name), int(asked["dc"])
        purpose = f"{save_name(asked['ability'])} against {spell}, hurt (DC {dc})"
        check = saving_throw(ctx, events, fighter, asked["ability"], dc, purpose, ["srd-79"],
                             magic=bool(detail.get("magic", True)))  # fmt: skip
        if check.success:
            events.append(ConditionCleared(fighter.id, name, f"saves: {spell} ends", ["srd-79"]))
    return events


def harm_ends(fighter: Fighter, harmer: Fighter | None) -> list[Event]:
    """srd-67: the conditions that end as the side that set them harms their creature."""
    return [
        ConditionCleared(
            fighter.id,
            name,
            f"{harmer.name} harms {fighter.it}: {detail['spell']} ends",
            ["srd-67"],
        )
        for name, detail in fighter.conditions.items()
        if harmer is not None and detail.get(UNTIL_HARMED_BY) == harmer.side
    ]


def check_charmed(actor: Fighter, targets: Sequence[Fighter], what: str) -> None:
    """srd-67: a creature charmed by a spell cannot attack its charmer or aim harm at it."""
    charmer = (actor.conditions.get("charmed") or {}).get("by")
    target = next((t for t in targets if t.id == charmer), None)
    if target is not None:
        spell = actor.conditions["charmed"].get("spell", "a charm")
        raise RefusedError(
            f"{actor.name} is charmed by {target.name} ({spell}): {actor.it} cannot {what} "
            f"{target.name} (srd-67)"
        )


def attacker_edge(edge: Edge, attacker: Fighter, target: Fighter, command: Scene) -> None:
    """The edges the attacker's state and the table's word give; the table's "cannot see"
    (`-o unseen`, `-o unseeing`) only where no condition already says why (hidden,
    invisible): one reason for one edge."""
    for condition in HAMPERED:
        if attacker.has(condition):
            edge.add(False, f"{attacker.name} is {condition}", "srd-27")
    if invisible(attacker):
        edge.add(True, f"{attacker.name} is invisible", "srd-27")
    if attacker.sheet.pack_tactics and command.ally_near:
        edge.add(True, "Pack Tactics: an ally within 5 feet of the target", "srd-57")
    if attacker.has("hidden"):
        edge.add(True, f"{attacker.name} attacks from hiding", "srd-23")
    if command.unseen and not (attacker.has("hidden") or invisible(attacker)):
        edge.add(True, "the target cannot see the attacker", "srd-23")
    if command.unseeing and not (target.has("hidden") or invisible(target)):
        edge.add(False, "the attacker cannot see the target", "srd-23")
    for good, source in edges(attacker, "attacks"):
        edge.add(good, source, "srd-33")


def within_5ft(command: Scene, ranged: bool) -> bool:
    """srd-30: a melee attack is made from within 5 feet unless the table says otherwise
    (a reach weapon); a ranged attack is as the table states it (beyond, unless said)."""
    return not ranged if command.within_5ft is None else command.within_5ft


def target_edge(
    edge: Edge, attacker: Fighter, target: Fighter, command: Scene, ranged: bool
) -> None:
    for condition in OPEN_TO_ATTACK:
        if target.has(condition):
            edge.add(True, f"{target.name} is {condition}", "srd-27")
    if invisible(target):
        edge.add(False, f"{target.name} is invisible", "srd-27")
    if target.has("hidden"):
        edge.add(False, f"the attacker cannot see {target.name}: {target.name} is hidden", "srd-23")
    if target.has("prone"):
        near = within_5ft(command, ranged)
        rules = "srd-27" if command.within_5ft is not None else "srd-30"
        edge.add(near, f"{target.name} is prone, {'within' if near else 'beyond'} 5 feet", rules)
    if target.dodging and not command.unseen and not unseen_by(target, attacker):
        edge.add(False, f"{target.name} is dodging", "srd-5")
    helped = attacker.conditions.get("helped", {})
    if helped.get("against") == target.id:
        edge.add(True, f"helped by {helped.get('by_name', 'an ally')}", "srd-5")
    for good, source in attacked_edges(target):
        edge.add(good, f"{target.name}: {source}", "srd-33")
    if insight := foreseen(attacker, target):
        edge.add(True, f"{attacker.name}'s {insight} on {target.name}", "srd-33")
    if ward := warded_from(attacker, target):
        kind = attacker.sheet.creature_type
        edge.add(False, f"{target.name}: {ward} against {attacker.name}, {kind}", "srd-33")


def ranged_edge(edge: Edge, command: Scene, ranged: bool) -> None:
    """srd-17: a foe close by, or beyond normal range; beyond long range, no attack."""
    if not ranged:
        return
    if command.range == "beyond":
        raise RefusedError("the target is beyond long range: no attack is possible (srd-17)")
    if command.hostile_near:
        edge.add(False, "a ranged attack with a hostile within 5 feet", "srd-17")
    if command.range == "long":
        edge.add(False, "beyond normal range", "srd-17")


def attack_edge(attacker: Fighter, target: Fighter, command: Scene, ranged: bool) -> Edge:
    edge = Edge()
    attacker_edge(edge, attacker, target, command)
    target_edge(edge, attacker, target, command, ranged)
    ranged_edge(edge, command, ranged)
    if command.advantage:
        edge.add(True, RULED, "srd-M3")
    if command.disadvantage:
        edge.add(False, RULED, "srd-M3")
    return edge


def critical_up_close(target: Fighter, command: Scene, ranged: bool) -> str:
    """srd-27: a hit on a paralysed or unconscious creature from within 5 feet is critical."""
    if not within_5ft(command, ranged):
        return ""
    return next((c for c in CRITICAL_UP_CLOSE if target.has(c)), "")


def cover_bonus(cover: str) -> int:
    if cover == "total":
        raise RefusedError("a target behind total cover cannot be targeted directly (srd-22)")
    return COVER[cover]


def shaking_off(target: Fighter, source: str, effect: str, why: str) -> list[Event]:
    """The 24 hours' immunity an effect gives a creature that saved against it or outlasted
    it (a dragon's Frightful Presence), once."""
    if target.shook_off(source, effect):
        return []
    return [ShookOff(target.id, source, effect, why, ["srd-25"])]


def still_shaken_off(target: Fighter, source: Fighter, effect: str) -> Resolved:
    why = (
        f"immune to {source.name}'s {effect} for 24 hours ({target.it} saved against it or "
        "outlasted it): no save"
    )
    return Resolved(target.id, "save", [], why, ["srd-25"])


def saving_throw(
    ctx: Context,
    events: list[Event],
    fighter: Fighter,
    ability: Ability,
    dc: int | None,
    purpose: str,
    rules: list[str],
    cover: str = "none",
    given: Sequence[Modifier] = (),
    magic: bool = False,
    resist: bool = True,
    favoured: tuple[str, str] | None = None,
    spend: str = "",
) -> Check:
    """srd-M5 with srd-27's automatic failures and srd-22's cover on Dex saves, and Magic
    Resistance against a spell or another magical effect (`magic`, srd-63); a failure a
    legendary resistance turns into a success (srd-56), unless the GM declines it (`resist`);
    `spend`: the effect its creature chooses to add to it (resistance, srd-82)."""
    check_spend(fighter, "saves", spend)
    failing = next((c for c in FAILS_STR_DEX if fighter.has(c)), "")
    if failing and ability in ("str", "dex"):
        why = f"fails the {save_name(ability)} automatically: {failing}"
        events.append(Resolved(fighter.id, "save", [], why, ["srd-27", *rules]))
        return resisted(events, fighter, Check(0, 0, False), purpose, resist)
    flat, dice = bonuses(fighter, "saves", spend)
    mods, edge = [*save_modifiers(fighter, ability), *flat, *given], Edge()
    if ability == "dex":
        if cover_bonus(cover):
            mods.append(Modifier(cover_bonus(cover), f"{cover} cover", "srd-22"))
        if fighter.has("restrained"):
            edge.add(False, f"{fighter.name} is restrained", "srd-27")
        if fighter.dodging:
            edge.add(True, f"{fighter.name} is dodging", "srd-5")
    for good, source in edges(fighter, "saves"):
        edge.add(good, source, "srd-33")
    if magic and fighter.sheet.magic_resistance:
        edge.add(True, "Magic Resistance: a save against magic", "srd-63")
    if favoured is not None:  # the effect's own advantage, and its rule (charm person's)
        edge.add(True, *favoured)
    rules = ["srd-M5", *rules]
    made = d20_test(ctx, events, fighter.id, purpose, mods, edge, dc, rules, dice=dice)
    events += spent_once(fighter, "saves", spend)
    return made if made.success else resisted(events, fighter, made, purpose, resist)


def resisted(
    events: list[Event], fighter: Fighter, failed: Check, purpose: str, resist: bool = True
) -> Check:
    """srd-56: N a day, the creature chooses to succeed instead (fracas spends one on the
    first save it fails, unless the GM declines it for the action: `resist=false`)."""
    left = fighter.sheet.legendary_resistance - fighter.resisted
    if left <= 0:
        return failed
    if not resist:
        why = f"keeps its legendary resistance: the failed {purpose} stands ({left} left today)"
        events.append(Resolved(fighter.id, "save", [], why, ["srd-56"]))
        return failed
    why = f"the failed {purpose} becomes a success ({left - 1} left today)"
    events.append(Spent(fighter.id, LEGENDARY_RESISTANCE, 1, why, ["srd-56"]))
    return Check(failed.natural, failed.total, True)
