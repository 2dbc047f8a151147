"""What the table sees: the order of initiative, hit points and temporary ones, death
saves, reactions and legendary actions left, and who grapples whom."""

from typing import Any

from fracas.rules.api import HELD, InitiativeRow, PinRow, View, WoundRow

from fracas_srd.castings import bonus_rule_broken
from fracas_srd.conditions import unseen_by
from fracas_srd.effects import armor_class
from fracas_srd.slots import shown, slots_left
from fracas_srd.state import AT_ZERO, REMOVED, Fighter, State
from fracas_srd.turn import (
    OFF_HAND,
    SECOND_WIND,
    bonus_form,
    bonus_forms,
    offhand_now,
    second_wind_open,
    turn_parts,
)

FORMS = ("dash", "disengage", "hide", "spell")  # actions a bonus action may take


def status_of(state: State, fighter: Fighter) -> str:
    for condition in ("dead", "stable"):
        if fighter.has(condition):
            return condition
    if fighter.has("dying"):
        return f"dying ({fighter.successes} saved, {fighter.failures} failed)"
    if state.turn == fighter.id:
        return "acting"
    return "surprised" if fighter.surprised else ""


def health(fighter: Fighter) -> str:
    temp = f" +{fighter.temp_hp} temp" if fighter.temp_hp else ""
    most = fighter.sheet.legendary_actions
    legendary = f", legendary {fighter.legendary_left}/{most}" if most else ""
    if resistance := fighter.sheet.legendary_resistance:
        legendary += f", legendary resistance {resistance - fighter.resisted}/{resistance}"
    slots = f", slots {shown(fighter)}" if fighter.sheet.slots else ""
    daily = "".join(f", {name} {left}/{most}{TODAY}" for name, left, most in innate_uses(fighter))
    return f"HP {fighter.hp}/{fighter.hp_max}{temp}{legendary}{slots}{daily}{hit_dice(fighter)}"


TODAY = " today"  # a spell of so many a day, in a health: "hellish rebuke 1/1 today"


def daily_chips(wound: WoundRow) -> list[str]:
    """The health's spells of so many a day, each a chip on a screen beside the conditions
    ("hellish rebuke 1/1 today"), where a wizard's health line wrapped on a 1080p TV."""
    return [phrase for phrase in wound.health.split(", ") if phrase.endswith(TODAY)]


def innate_uses(fighter: Fighter) -> list[tuple[str, int, int]]:
    """Each innate spell of so many a day: its name, the uses left until a long rest, and
    how many a day (the oni's cone of cold, 1/day)."""
    return [
        (spell.name, spell.per_day - fighter.used(spell.name), spell.per_day)
        for spell in fighter.sheet.spells
        if spell.innate and spell.per_day
    ]


def hit_dice(fighter: Fighter) -> str:
    """The Hit Dice left for a short rest (srd-58), of a creature with a level and a die."""
    most = fighter.hit_dice
    return f", Hit Dice {most - fighter.hit_dice_spent}/{most}" if most else ""


def reaction(fighter: Fighter) -> str:
    """The dead and the incapacitated (unconscious, dying, stunned) take no reactions
    (srd-5, srd-27): they have none ready, nor one spent."""
    if fighter.incapacitated:
        return ""
    return "used" if fighter.reaction else "ready"


def spent(fighter: Fighter) -> list[str]:
    """srd-3: what of the turn's budget is taken: the action (the Attack action once its
    attacks are all made), the bonus action; the off hand's attack, until the Attack action
    was taken with a light melee weapon and while the bonus action is left (srd-19); each
    bonus-action form the creature has none of, or has used its bonus action for; and its
    Second Wind, unless it may take it now."""
    attacking = fighter.action == "attack" and fighter.attacks < fighter.sheet.attacks
    action = ["action"] if fighter.action and not attacking else []
    offhand = [] if offhand_now(fighter) else [OFF_HAND]
    forms = bonus_forms(fighter)
    closed = [bonus_form(f) for f in FORMS if fighter.bonus or f not in forms]
    closed += [] if second_wind_open(fighter) else [SECOND_WIND]
    reacted = ["reaction"] if fighter.reaction else []  # srd-4: one a round
    return action + (["bonus"] if fighter.bonus else []) + offhand + closed + reacted


def detail(fighter: Fighter) -> dict[str, Any]:
    found: dict[str, Any] = {
        "hp": fighter.hp,
        "hp_max": fighter.hp_max,
        "temp_hp": fighter.temp_hp,
        "ac": armor_class(fighter),
        "reaction": reaction(fighter),
        "spent": spent(fighter),
        "turn_left": [list(part) for part in turn_parts(fighter)],  # survives JSON
    }
    if fighter.moved:
        found["moved"] = fighter.moved  # feet this turn (srd-52): what an opportunity answers
    if fighter.has("dying") or fighter.has("stable"):
        found["death_saves"] = {"successes": fighter.successes, "failures": fighter.failures}
    if fighter.sheet.legendary_actions:
        found["legendary_left"] = fighter.legendary_left
    if fighter.sheet.legendary_resistance:
        left = fighter.sheet.legendary_resistance - fighter.resisted
        found["legendary_resistance_left"] = left
    if fighter.recharging:
        found["recharging"] = list(fighter.recharging)
    if fighter.sheet.slots:
        levels = range(1, len(fighter.sheet.slots) + 1)
        found["slots_left"] = [slots_left(fighter, n) for n in levels]
    if fighter.spells:  # srd-3: a spell cast this turn narrows what else may be
        found["spells_now"] = [
            s.name for s in fighter.sheet.spells if not bonus_rule_broken(fighter, s)
        ]
    if daily := innate_uses(fighter):
        found["innate_left"] = {name: left for name, left, _ in daily}
    return found


def shown_condition(name: str, detail: dict[str, Any], holder: str = "") -> str:
    """A condition as the row says it: a concentration names its spell (srd-26), and an
    effect a concentration holds names whose it is (its duration is the concentration's)."""
    spell = detail.get("spell") if name == "concentrating" else None
    if holder:
        return f"{name} ({holder}'s concentration)"
    return f"{name} on {spell}" if spell else name


def held_by(state: State) -> dict[str, dict[str, str]]:
    """Each creature's conditions a concentration holds (srd-26), with the name of the
    creature concentrating: they end with it, and say no duration of their own."""
    held: dict[str, dict[str, str]] = {}
    for caster in state.fighters.values():
        for who, condition in (caster.conditions.get("concentrating") or {}).get("effects", []):
            held.setdefault(who, {})[condition] = caster.name
    return held


DUE = "death save due"  # a dying turn begun, its death save still to roll (srd-14)


def wound_row(
    fighter: Fighter,
    due: bool = False,
    held: dict[str, str] | None = None,
    seeing: list[str] | None = None,
) -> WoundRow:
    """`held`: the creature's conditions a concentration holds, and whose (`held_by`);
    `seeing`: of those whose reach its moves left this turn, who can see it (srd-18)."""
    held = {name: who for name, who in (held or {}).items() if name in fighter.conditions}
    shown = sorted(
        shown_condition(name, d, held.get(name, "")) for name, d in fighter.conditions.items()
    )
    found = detail(fighter)
    if fighter.moved:
        found["left_reach_of"] = seeing or []  # who may answer its move (srd-18)
    if held:
        found[HELD] = held  # fracas shows no duration of these: the concentration's says it
    return WoundRow(
        fighter.id,
        fighter.name,
        fighter.side,
        health(fighter),
        [*shown, DUE] if due else shown,
        found,
        fighter.hp,
        fighter.hp_max,
        "HP",
    )


def answering(state: State, mover: Fighter) -> list[str]:
    """srd-18: those whose reach its moves this turn left (the moves' `leaves`) who can see
    it: the ones an opportunity attack is offered to."""
    return [
        w for w in mover.left if w in state.fighters and not unseen_by(state.fighters[w], mover)
    ]


def save_due(state: State, fighter: Fighter) -> bool:
    """srd-14: its dying turn has begun and the death save that starts it waits."""
    return state.turn == fighter.id and state.save_put_off and fighter.has("dying")


def view(state: State) -> View:
    ranked = state.order()
    unranked = [f for f in state.fighters.values() if f.initiative is None]
    initiative = [
        InitiativeRow(
            f.id,
            f.name,
            i,
            f"init {f.initiative}" if f.initiative is not None else "-",
            state.turn == f.id,
            status_of(state, f),
        )
        for i, f in enumerate([*ranked, *unranked], start=1)
    ]
    held = held_by(state)
    wounds = [
        wound_row(f, save_due(state, f), held.get(f.id), answering(state, f))
        for f in sorted(state.fighters.values(), key=lambda f: f.joined)
    ]
    pins = [
        PinRow(f.conditions["grappled"]["by"], f.id, "grapples")
        for f in state.fighters.values()
        if "by" in f.conditions.get("grappled", {})
    ]
    phase = "setup" if not state.round else ("over" if state.turn is None else "turn")
    acting = [state.turn] if state.turn else []
    upcoming = [f.id for f in [*state.later_this_round(), *state.alive()]] if acting else []
    return View(state.round, phase, acting, initiative, wounds, pins, upcoming=upcoming)


def fallen_sides(seen: View) -> list[str]:
    """The sides with nobody left fighting, for fracas's line that the fight is over: each
    whose every creature is dead, at 0 hit points (dying or stable, unconscious), or taken
    out by the GM. One paralysed or stunned (srd-27), or asleep above 0 hit points (it wakes
    when hurt, srd-49), is still in the fight."""
    removed = {r.combatant for r in seen.initiative if r.status.startswith(REMOVED)}
    sides: dict[str, bool] = {}
    for row in seen.wounds:
        named = {c.split(" (")[0].split(":")[0] for c in row.conditions}
        down = bool(named & {*AT_ZERO, "unconscious"}) and row.current <= 0
        standing = row.combatant not in removed and REMOVED not in named and not down
        sides[row.side] = sides.get(row.side, False) or standing
    return [side for side, standing in sides.items() if not standing] if len(sides) > 1 else []


def key_numbers(wound: WoundRow) -> dict[str, Any]:
    """The same columns on every row (the board takes them from its first): a creature's
    legendary actions left are in its health instead, a dying one's death saves in its
    status (`status_of`), which every screen shows."""
    return {
        "AC": wound.detail.get("ac"),
        "Temp HP": wound.detail.get("temp_hp") or "",
        "Reaction": wound.detail.get("reaction"),
    }


def turn_left(row: WoundRow) -> list[tuple[str, bool]]:
    """What is left of the acting character's turn, as the view keeps it (`turn_parts`)."""
    return [(str(words), bool(used)) for words, used in row.detail.get("turn_left", ())]


def down_said(conditions: list[str]) -> str:
    """srd-14: what a phone tells a dying character as their turn comes (their death save
    to roll, where it waits for their dice); a stable one
    (srd-16) waits to be healed or to wake; "" for the rest (the phone's own words)."""
    if "death save due" in conditions:
        return "Your turn. You are dying: roll your death save; still down, the turn then ends"
    if "dying" in conditions:
        return "You are dying: no actions; your death save is rolled as each of your turns starts"
    if "stable" in conditions:
        return "You are stable and unconscious: no actions until healed, or 1 HP after 1d4 hours"
    return ""
