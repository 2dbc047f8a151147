"""Damage, stagger and dying (002-16..002-21, 002-24)."""

from fracas.rules.api import (
    BadInputError,
    ConditionCleared,
    ConditionSet,
    Damaged,
    Event,
    Healed,
    Modifier,
    RefusedError,
    Resolved,
    Spent,
    gm,
)

from .commands import Attack
from .events import StaggerChanged
from .rolls import StatRoll
from .sheets import Weapon
from .state import Fighter, State


def multipliers(command: Attack, attack: StatRoll) -> list[str]:
    """002-16, 002-17: each doubling adds the base damage once more."""
    found = ["natural 18"] if attack.natural_18 else []
    if command.called in ("head", "heart"):
        found.append(f"{command.called} shot")
    return found


def wound(
    state: State,
    actor: Fighter,
    target_id: str,
    weapon: Weapon,
    command: Attack,
    attack: StatRoll,
) -> list[Event]:
    """002-19: base x multipliers + additions - DR, last; then stagger, limbs and dying."""
    target = state.fighters[target_id]
    doubled = multipliers(command, attack)
    factor = 1 + len(doubled)
    breakdown = [Modifier(weapon.damage, f"{weapon.name} damage", "002-19")]
    if doubled:
        breakdown.append(
            Modifier(weapon.damage * len(doubled), f"x{factor}: {', '.join(doubled)}", "002-17")
        )
    if target.has("staggered"):
        breakdown.append(Modifier(state.options.stagger_damage, "staggered", "002-24"))
    breakdown.append(Modifier(-target.sheet.dr, "DR", "002-19"))
    amount = max(0, sum(m.value for m in breakdown))
    limb_events: list[Event] = []
    if command.called == "limb":
        amount, limb_events = limb_shot(target, weapon, command.limb, amount, breakdown)
    figures = f"x{factor}" if factor > 1 else ""
    hit = Resolved(
        actor.id, "attack", [target.id], f"hits for {amount}", ["002-15", "002-19"], figures
    )
    events: list[Event] = [hit]
    if amount:
        events.append(Damaged(target.id, amount, weapon.name, breakdown, ["002-19"]))
    events += limb_events
    events += stagger(state, target, factor)
    events += downed(state, target, amount, command, actor)
    return events


def limb_shot(
    target: Fighter, weapon: Weapon, limb: str, amount: int, breakdown: list[Modifier]
) -> tuple[int, list[Event]]:
    """002-18: at most floor(max HP / 3); beyond it the limb is crippled (ranged) or
    amputated (not ranged). Defaults: measured after multipliers, stagger and DR."""
    cap = target.sheet.hp // 3
    if amount <= cap:
        return amount, []
    breakdown.append(Modifier(cap - amount, f"limb shot cap {cap}", "002-18"))
    condition = "crippled" if weapon.ranged else "amputated"
    limbs = sorted({*target.limbs(condition), limb})
    event = ConditionSet(
        target.id,
        condition,
        f"{limb} {condition} by the {weapon.name}",
        {"limbs": limbs},
        ["002-18"],
    )
    return cap, [event]


def stagger(state: State, target: Fighter, factor: int) -> list[Event]:
    """002-24: a hit adds the multiplier's factor in stagger points, even if DR stops it all;
    beyond the threshold the creature is staggered and loses its current TS."""
    points = target.stagger + factor
    events: list[Event] = [StaggerChanged(target.id, points, f"hit x{factor}", ["002-24"])]
    if points <= state.threshold(target) or target.has("staggered"):
        return events
    events.append(
        ConditionSet(
            target.id,
            "staggered",
            f"{points} stagger points over a threshold of {state.threshold(target)}",
            {},
            ["002-24"],
        )
    )
    lost = target.ts if state.options.staggered_loses_saved or not state.turn_done(target) else 0
    if lost:
        events.append(Spent(target.id, "ts", lost, "staggered: loses all current TS", ["002-24"]))
    return events


def downed(
    state: State, target: Fighter, amount: int, command: Attack, attacker: Fighter
) -> list[Event]:
    """002-18 heart shots, 002-20 HP below 1, 002-21 attacks on the dying."""
    was_dying = target.has("dying")
    deadline = state.clock + state.options.dying_minutes * 60
    events: list[Event] = []
    if was_dying:
        cut = target.conditions["dying"]["deadline"] - 60
        if cut <= state.clock:
            return death(target, f"killed by {attacker.name} in the last minute", ["002-21"])
        detail = {**target.conditions["dying"], "deadline": cut}
        events.append(
            ConditionSet(target.id, "dying", "attacked while dying: -1 minute", detail, ["002-21"])
        )
    if target.hp > 0 and target.hp - amount <= 0:
        if target.side == "npc" and state.options.npc_dies_at_zero and not command.nonlethal:
            return events + death(target, "0 HP: an NPC dies", ["002-20"])
        events.append(ConditionSet(target.id, "unconscious", "0 HP", {}, ["002-20"]))
        if not was_dying:
            detail = {"deadline": deadline, "heart": command.called == "heart"}
            return [*events, ConditionSet(target.id, "dying", "0 HP", detail, ["002-20"])]
    if command.called == "heart" and not was_dying:
        detail = {"deadline": deadline, "heart": True}
        events.append(
            ConditionSet(target.id, "dying", "heart shot: conscious, at -2", detail, ["002-18"])
        )
    return events


def death(target: Fighter, reason: str, rules: list[str]) -> list[Event]:
    cleared = [ConditionCleared(target.id, "dying", reason, rules)] if target.has("dying") else []
    return [*cleared, ConditionSet(target.id, "dead", reason, {}, rules)]


def healing(state: State, target: Fighter, points: int, source: str) -> list[Event]:
    """002-21: while dying each point adds a minute to the timer; a point that would take it
    past the limit, and every point after, is 1 HP and the dying ends."""
    if points < 1:
        raise BadInputError("heal at least 1 HP: --opt hp=N")
    if target.has("dead"):
        raise RefusedError(
            f"{target.name} is dead: healing does not bring back the dead; if the death was "
            "a mistake, `fracas undo` the step that killed them"
        )
    dying = target.conditions.get("dying")
    events: list[Event] = []
    if dying:
        left = dying["deadline"] - state.clock
        minutes = min(points, max(0, (state.options.dying_minutes * 60 - left) // 60))
        points -= minutes
        if minutes:
            detail = {**dying, "deadline": dying["deadline"] + 60 * minutes}
            events.append(
                ConditionSet(target.id, "dying", f"healed: +{minutes} min", detail, ["002-21"])
            )
        if not points:
            return events
        events.append(ConditionCleared(target.id, "dying", f"healed by {source}", ["002-21"]))
        if target.has("unconscious") and state.options.healed_wakes:
            events.append(ConditionCleared(target.id, "unconscious", "healed", ["002-21"]))
    gained = min(points, target.sheet.hp - target.hp)
    if gained > 0:
        events.append(Healed(target.id, gained, source, ["002-21"]))
    return events


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """HP lost past DR's reach; at 0 HP unconscious and dying, or dead (002-20)."""
    fighter = state.fighter(target)
    events = gm.harmed(state, target, amount, reason)
    if fighter.hp <= 0 or fighter.hp - amount > 0 or fighter.has("dead"):
        return events
    if fighter.side == "npc" and state.options.npc_dies_at_zero:
        return events + death(fighter, "0 HP: an NPC dies", ["002-20"])
    events.append(ConditionSet(target, "unconscious", "0 HP", {}, ["002-20"]))
    if not fighter.has("dying"):
        deadline = state.clock + state.options.dying_minutes * 60
        detail = {"deadline": deadline, "heart": False}
        events.append(ConditionSet(target, "dying", "0 HP", detail, ["002-20"]))
    return events


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """As the heal of 002-21: the dying timer first, then HP up to the maximum."""
    fighter = state.fighter(target)
    events = healing(state, fighter, amount, reason or "the GM's ruling")
    if not events:
        raise RefusedError(f"{fighter.name} is at full HP ({fighter.hp})")
    return events
