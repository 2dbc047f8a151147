"""One readable sentence per step, in names rather than ids: what the table's screen and the
session report show ("Alice Reyes attacks Knife cultist: 45 against 80%, success; hit;
Knife cultist takes 8 damage and is unconscious"). The event lines stay the detail."""

from collections.abc import Mapping
from typing import Any

from fracas.rules import durations
from fracas.rules.events import (
    CombatantJoined,
    ConditionCleared,
    ConditionExpired,
    ConditionSet,
    Damaged,
    Disclosed,
    EncounterEnded,
    EncounterReopened,
    EncounterStarted,
    Event,
    Healed,
    InitiativeSet,
    Note,
    Renamed,
    Resolved,
    Rolled,
    SeedRevealed,
)

DOWN = ("dead", "unconscious", "out", "incapacitated", "dying")  # out of the fight, hurt
FALLEN = (*DOWN, "removed")
TOLD = (*FALLEN, "pinned", "prone", "impaired")  # conditions a sentence mentions; not "aiming"
VERBS = {
    "attack": "attacks",
    "aim": "aims",
    "disarm": "tries to disarm",
    "pin": "tries to pin",
    "escape": "tries to escape",
    "move": "moves",
    "wait": "waits",
    "stand": "stands up",
    "ready": "readies",
    "other": "acts",
    "run": "runs",
    "continuous": "keeps at a continuous action",
    "stop": "stops",
    "evade": "evades",
    "quick": "takes a quick action",
    "hold": "holds",
    "fire": "fires",
    "interrupt": "interrupts",
    "draw": "draws",
    "stow": "stows",
    "reload": "reloads",
    "cast": "casts",
    "treat": "treats",
    "heal": "heals",
    "check": "makes a check",
    "dodge": "dodges",
    "parry": "parries",
    "flee": "flees",
    "grapple": "grapples",
    "break": "breaks free",
    "release": "lets go",
    "feint": "feints",
    "shield": "raises a shield",
    "withdraw": "withdraws",
    "next": "lets the turn go by",
    "begin": "begins the fight",
    "join": "joins",
}
GM_VERBS = {
    "gm.harm": "The GM harms",
    "gm.heal": "The GM heals",
    "gm.condition.set": "The GM sets a condition on",
    "gm.condition.clear": "The GM clears a condition from",
    "gm.remove": "The GM takes out of the fight",
    "gm.return": "The GM brings back",
    "gm.end": "The GM ends the encounter",
    "gm.reopen": "The GM reopens the encounter",
    "gm.rename": "The GM renames",
}


def critical(event: Rolled) -> bool:
    return "critical" in (event.result or "").lower()


def fumble(event: Rolled) -> bool:
    result = (event.result or "").lower()
    return "fumble" in result or "botch" in result


def fallen(events: list[Event]) -> list[str]:
    """The combatants this step put down (unconscious, dead, out, …)."""
    return [e.target for e in events if isinstance(e, ConditionSet) and e.condition in FALLEN]


def marks(events: list[Event]) -> list[str]:
    """What makes a step stand out: a critical, a fumble, a combatant going down."""
    rolls = [e for e in events if isinstance(e, Rolled)]
    found = []
    if any(critical(e) for e in rolls):
        found.append("critical")
    if any(fumble(e) for e in rolls):
        found.append("fumble")
    if fallen(events):
        found.append("down")
    return found


def opening(command: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    """'Alice Reyes attacks Knife cultist'."""
    if command is None:
        return ""
    action = str(command.get("action", ""))
    actor = command.get("actor") or command.get("combatant") or command.get("target")
    targets = [names.get(t, t) for t in command.get("targets", []) or []]
    if action.startswith("gm."):
        target = command.get("target")
        who = f" {names.get(target, target)}" if target else ""
        return GM_VERBS.get(action, f"The GM: {action.removeprefix('gm.')}") + who
    if action == "join":
        return ""
    if action == "begin":
        return "The fight begins"
    verb = VERBS.get(action, f"{action}s")
    text = f"{names.get(actor, actor) if actor else 'The table'} {verb}"
    return text + (f" {' and '.join(targets)}" if targets else "")


def roll_phrase(event: Rolled, actor: str | None, names: Mapping[str, str]) -> str:
    """'45 against 80%, success'; another combatant's roll names them and its purpose."""
    unit = "%" if event.roll.dice == "d100" else ""
    text = str(event.roll.total)
    if event.target is not None:
        text += f" against {event.target}{unit}"
    if event.result:
        text += f", {event.result}"
    if event.actor != actor:
        text = f"{names.get(event.actor, event.actor)}'s {event.purpose} {text}"
    return text


def event_phrase(event: Event, actor: str | None, names: Mapping[str, str]) -> str | None:
    """The part of the sentence an event adds, or None for bookkeeping (turns, spending)."""
    name = names.get
    match event:
        case Rolled() if event.target is not None or event.result:
            return roll_phrase(event, actor, names)
        case Resolved() if event.outcome:
            verb = VERBS.get(event.action, "")
            return event.outcome.removeprefix(f"{verb}: ")
        case Damaged():
            return f"{name(event.target, event.target)} takes {event.amount} damage"
        case Healed():
            return f"{name(event.target, event.target)} heals {event.amount}"
        case ConditionSet() if event.condition in TOLD or actor is None:
            lasting = durations.phrase(event.detail, lambda who: name(who, who))
            return f"{name(event.target, event.target)} is {event.condition}{lasting}"
        case ConditionExpired():
            who = name(event.target, event.target)
            return f"{who} is no longer {event.condition} (expired: {event.reason})"
        case ConditionCleared() if event.condition in TOLD or actor is None:
            return f"{name(event.target, event.target)} is no longer {event.condition}"
        case CombatantJoined():
            return f"{event.name} ({event.side}) joins the fight"
        case Renamed():
            return f"{name(event.combatant, event.combatant)} is now called {event.name}"
        case EncounterEnded():
            return f"the encounter ends ({event.reason})" if event.reason else "the encounter ends"
        case EncounterReopened():
            return "the encounter reopens"
        case Note():
            return f"Note: {event.text}"
        case Disclosed():
            return f"The GM shows the players step {event.step}"
        case SeedRevealed():
            return f"The GM reveals dice seed {event.seed_epoch}"
        case EncounterStarted():
            return f"The encounter “{event.title}” begins"
    return None


def sentence(
    events: list[Event], command: Mapping[str, Any] | None, names: Mapping[str, str]
) -> str:
    """The step as one sentence: who did what to whom, then the rolls and what followed."""
    actor = None if command is None else command.get("actor")
    head = opening(command, names)
    parts = [p for e in events if (p := event_phrase(e, actor, names)) is not None]
    if command is not None and command.get("action") == "begin":
        order = [
            names.get(e.combatant, e.combatant) for e in events if isinstance(e, InitiativeSet)
        ]
        parts = [f"the order is {', '.join(order)}"] if order else parts
    parts = list(dict.fromkeys(parts))  # an outcome repeated by two events reads once
    if not head:
        return "; ".join(parts) if parts else ""
    return f"{head}: {'; '.join(parts)}" if parts else head
