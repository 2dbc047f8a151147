"""One readable sentence per step, in names rather than ids: what the table's screen and the
session report show ("Alice Reyes attacks Knife cultist: 45 against 80%, success; hit;
Knife cultist takes 8 damage and is unconscious"). The event lines stay the detail."""

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from fracas.projections.describe import (
    FACES,
    added_terms,
    came_to,
    faces_of,
    roll_reading,
    worded,
)
from fracas.projections.secrecy import UNSEEN
from fracas.rules import durations
from fracas.rules.events import (
    CombatantJoined,
    CombatantRevealed,
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
    ReactionAsked,
    ReactionGiven,
    ReactionTimedOut,
    Renamed,
    Resolved,
    Rolled,
    SeedRevealed,
    Spent,
    TurnAdvanced,
)
from fracas.rules.names import and_list
from fracas.rules.party import PARTY
from fracas.rules.ruleset import CRITICAL, DOWN, FUMBLE, Ruleset

FREE_ROLL = "roll"  # the core command for a roll no rule applies (`fracas roll`)
REMOVED = "removed"  # the GM took them out of the fight: they left, they did not fall
CORE_VERBS = {  # the actions every ruleset has; a ruleset words its own (`Ruleset.verbs`)
    "next": "ends the turn",
    "begin": "begins the fight",
    "join": "joins",
    "answer": "answers",
    "timeout": "calls time on the reaction",
}
GM_VERBS = {  # by the GM command's tag; {who} is its target
    "gm.harm": "The GM harms {who}",
    "gm.heal": "The GM heals {who}",
    "gm.condition-set": "The GM sets a condition on {who}",
    "gm.condition-clear": "The GM clears a condition from {who}",
    "gm.remove": "The GM takes {who} out of the fight",
    "gm.return": "The GM brings {who} back",
    "gm.end": "The GM ends the encounter",
    "gm.reopen": "The GM reopens the encounter",
    "gm.rename": "The GM renames {who}",
    "gm.withdraw": "The GM withdraws the waiting attack",
}
PARTY_VERBS = {  # by the party command's tag; {who} is its member
    "party.carry": "{who} comes in as the party stood",
    "party.carry-home": "{who} comes back to the party as their last fight left them",
    "party.rest": "{who} takes a {kind} rest",
    "party.send": "The party goes into the fight",
    "party.update": "{who} takes a new sheet",
    "party.leave": "{who} leaves the party",
}


def verb(ruleset: Ruleset, action: str) -> str:
    return CORE_VERBS.get(action) or ruleset.verb(action)


def fallen(events: list[Event], ruleset: Ruleset) -> list[str]:
    """The combatants this step put down (unconscious, dead, out, …); not those who left."""
    found = [
        e.target for e in events if isinstance(e, ConditionSet) and DOWN in ruleset.facts_of(e)
    ]
    return list(dict.fromkeys(found))  # unconscious and dying in one step are one fall


def departed(events: list[Event]) -> list[tuple[str, str]]:
    """The combatants the GM took out of the fight in this step, with the GM's reason."""
    return [
        (e.target, e.reason)
        for e in events
        if isinstance(e, ConditionSet) and e.condition == REMOVED
    ]


def marks(events: list[Event], ruleset: Ruleset) -> list[str]:
    """What makes a step stand out, as the ruleset states its facts: a critical, a fumble,
    a combatant going down."""
    facts = frozenset().union(*(ruleset.facts_of(e) for e in events))
    found = [fact for fact in (CRITICAL, FUMBLE, DOWN) if fact in facts]
    if departed(events):
        found.append("left")
    return found


def opening(
    command: Mapping[str, Any] | None,
    names: Mapping[str, str],
    ruleset: Ruleset,
    events: Sequence[Event] = (),
    short: bool = False,
) -> str:
    """'Alice Reyes attacks Knife cultist'; `events`: the step's, where they word it
    otherwise than its action's verb ("Ashen Wyrm uses fire breath on Ilse", `step_verb`);
    `short`: as a headline says it, where what it came to words it ("Wren hits Gob",
    `headline_verb`)."""
    if command is None:
        return ""
    action = str(command.get("action", ""))
    actor = command.get("actor") or command.get("combatant") or command.get("target")
    targets = [names.get(t, t) for t in command.get("targets", []) or []]
    if action.startswith("gm."):
        target = command.get("target")
        who = names.get(target, target) if target else ""
        text = GM_VERBS.get(action, f"The GM: {action.removeprefix('gm.')} {{who}}")
        if action == "gm.heal" and command.get("temp"):
            text = "The GM gives {who} temporary hit points"
        reason = str(command.get("reason") or "")
        return text.format(who=who).strip() + (f" ({reason})" if reason else "")
    if action.startswith("party."):
        return party_opening(action, command, names)
    if action == FREE_ROLL:
        return free_roll_opening(command, names)
    if action == "join":  # its events say who joins (a hidden one's join players never see)
        return ""
    if action == "begin":
        return "The fight begins"
    if action == "next" and not actor:  # what it set off follows; whose turn ended, if one's
        return "The table moves on"
    said_as = (short and ruleset.headline_verb_of(dict(command), events)) or None
    said_as = said_as or ruleset.step_verb_of(dict(command), events) or verb(ruleset, action)
    said = worded(said_as, command, listed(targets))
    return f"{spoken_name(actor, names) if actor else 'The table'} {said}"


def party_opening(action: str, command: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """'Ann comes in as the party stood': the party's own steps, in words (never their tag)."""
    target = str(command.get("target") or "")
    if action == "party.carry" and command.get("source") != PARTY:
        action = "party.carry-home"
    text = PARTY_VERBS.get(action, "The party moves on")
    reason = str(command.get("reason") or "") if action in ("party.update", "party.leave") else ""
    said = text.format(who=names.get(target, target), kind=command.get("kind", ""))
    return said + (f" ({reason})" if reason else "")


def spoken_name(who: str, names: Mapping[str, str]) -> str:
    """A combatant's name where a sentence starts with it ("Someone unseen attacks")."""
    return UNSEEN.capitalize() if who == UNSEEN else names.get(who, who)


def listed(targets: list[str]) -> str:
    """'Brannoc twice and Wren': each target once, in order, with how often it is named."""
    counts = Counter(targets)
    times = {1: "", 2: " twice", 3: " three times"}
    return and_list(f"{t}{times.get(n, f' {n} times')}" for t, n in counts.items())


def free_roll_opening(command: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """'The GM rolls 2d20kh1+5 for perception'; a masked one keeps its dice and reason back."""
    actor = str(command.get("actor") or "gm")
    who = "The GM" if actor == "gm" else spoken_name(actor, names)
    dice, reason = command.get("dice"), command.get("reason")
    return f"{who} rolls" + (f" {dice}" if dice else "") + (f" for {reason}" if reason else "")


def free_roll_reading(event: Rolled) -> str:
    """'22 (17 [dropped 4] + 5)': the total, and every die behind it."""
    total, faces = str(event.roll.total), faces_of(event.roll)
    return total if faces == total else f"{total} ({faces})"


def restates_total(event: Rolled, reads: str) -> bool:
    """Does the roll's result already say its total, modifiers and all ("8 on 2d8", "7 on
    2d4+2")? Then the sentence reads the faces and modifiers into it ("4+4 = 8 on 2d8",
    "2+3 +2 = 7 on 2d4+2") rather than the total twice."""
    total, result = str(came_to(event, reads)), event.result or ""
    return reads != FACES and (result == total or result.startswith(f"{total} "))


ADDED_DIE = re.compile(r"[+-]\d*d\d+\b")  # "+1d4 bless": a die added to another roll


def roll_phrase(event: Rolled, actor: str | None, names: Mapping[str, str], reads: str) -> str:
    """'45 against 80%, success'; another combatant's roll names them and its purpose. A
    die added to another roll reads as its result labels it, then its faces ("+1d4 bless:
    3"), right after the roll it adds to."""
    unit = "%" if event.roll.dice == "d100" else ""
    if event.target is None and ADDED_DIE.match(event.result or ""):
        text = f"{event.result}: {faces_of(event.roll)}"
        return text if event.actor == actor else f"{names.get(event.actor, event.actor)}'s {text}"
    if event.target is None and restates_total(event, reads):
        summed = faces_of(event.roll) + added_terms(event, reads)  # "2+3 +2"
        total = str(came_to(event, reads))
        text = f"{summed} = {event.result}" if summed != total else str(event.result)
        if event.actor == actor:  # which dice these are: the weapon's, a sneak attack's
            text = f"{event.purpose}: {text}"
    else:
        text = roll_reading(event, reads)
        if event.target is not None:
            text += f" against {event.target}{unit}"
        if event.result and not text.endswith(f" = {event.result}"):  # a total said once
            text += f", {event.result}"
    if event.actor != actor:
        text = f"{names.get(event.actor, event.actor)}'s {event.purpose} {text}"
    return text


def acted_as(action: str, said: str, ruleset: Ruleset) -> bool:
    """Does an actor's own outcome read as their action's, unnamed? Not a feature of
    theirs that is no action ("sneak attack: not on this hit: …"), unless its words name it."""
    known = ruleset.playable(action) is not None or action in ruleset.verbs
    return known or action in CORE_VERBS or action in said


def whose(event: Resolved, said: str, names: Mapping[str, str], ruleset: Ruleset) -> str:
    """Another combatant's resolution within a step, naming them unless it already does."""
    who = names.get(event.actor, event.actor)
    if who in said or event.actor in said:
        return said
    playable = ruleset.playable(event.action)
    if playable is not None and playable.reaction:  # a reaction in another's step
        targets = listed([names.get(t, t) for t in event.targets])
        return f"{who} reacts{f' to {targets}' if targets else ''}: {said}"
    if event.action in ruleset.verbs or event.action in CORE_VERBS:
        return f"{opening(msgspec.to_builtins(event), names, ruleset)}: {said}"
    return f"{who}: {said}"


@dataclasses.dataclass(frozen=True)
class Summed:
    """Every harm (or healing) one source did one target within a step, read as one
    clause with its total, so a sentence never says less than the health bar shows."""

    first: Damaged | Healed
    amounts: list[int]
    said: list[str] = dataclasses.field(
        default_factory=list
    )  # each damage's sum as the ruleset words it


def summed(events: list[Event]) -> list[Event | Summed]:
    """The step's events with each target's damage from one source (and healing) summed
    into the place of its last: a sum reads after every roll in it (three darts, then
    the damage they did)."""
    found: dict[tuple[type, str, str], Summed] = {}
    last: dict[tuple[type, str, str], int] = {}
    for at, event in enumerate(events):
        if isinstance(event, Damaged | Healed):
            key = (type(event), event.target, event.source)
            adding = found.setdefault(key, Summed(event, [], []))
            adding.amounts.append(event.amount)
            adding.said.append(event.said if isinstance(event, Damaged) else "")
            last[key] = at
    placed = {at: found[key] for key, at in last.items()}
    return [
        placed.get(at, event)
        for at, event in enumerate(events)
        if at in placed or not isinstance(event, Damaged | Healed)
    ]


KIND = re.compile(r"= \d+ ([a-z]+)\b")  # "1d8 [8] + 3 Str = 11 slashing": its type


def damage_kind(said: list[str]) -> str:
    """The one type of damage the ruleset's own words give every part of a sum ("slashing
    "), or "" where they give none, or several."""
    kinds = {k for s in said for k in KIND.findall(s)}
    every = all(KIND.search(s) for s in said)
    return f"{kinds.pop()} " if len(kinds) == 1 and every else ""


def terms(amounts: list[int]) -> str:
    return f" ({' + '.join(map(str, amounts))})" if len(amounts) > 1 else ""


def event_phrase(
    event: Event | Summed, actor: str | None, names: Mapping[str, str], ruleset: Ruleset
) -> str | None:
    """The part of the sentence an event adds, or None for bookkeeping (turns, spending)."""
    name = names.get
    reads = ruleset.reads_rolls
    match event:
        case Rolled() if event.target is not None or event.result:
            return roll_phrase(event, actor, names, reads)
        case Resolved() if event.outcome:
            said = event.told.removeprefix(f"{verb(ruleset, event.action)}: ")
            if event.actor != actor:
                return whose(event, said, names, ruleset)
            return said if acted_as(event.action, said, ruleset) else f"{event.action}: {said}"
        case ConditionSet() if event.condition == REMOVED:
            return f"{name(event.target, event.target)} leaves the fight"
        case Summed(Damaged() as first, amounts):
            unseen = " from an unseen attacker" if first.source == UNSEEN else ""
            who = name(first.target, first.target)
            kind = damage_kind(event.said)
            return f"{who} takes {sum(amounts)} {kind}damage{terms(amounts)}{unseen}"
        case Summed(Healed() as first, amounts):
            why = f": {first.reason}" if first.reason and len(amounts) == 1 else ""
            regains = ruleset.healed_words(sum(amounts))
            return f"{name(first.target, first.target)} {regains}{terms(amounts)}{why}"
        case ConditionSet() if told(event.condition, ruleset) or actor is None:
            lasting = durations.phrase(event.detail, lambda who: name(who, who))
            return f"{name(event.target, event.target)} is {event.condition}{lasting}"
        case ConditionExpired():
            who = name(event.target, event.target)
            return f"{who} is no longer {event.condition} (expired: {event.reason})"
        case ConditionCleared() if told(event.condition, ruleset) or actor is None:
            return f"{name(event.target, event.target)} is no longer {event.condition}"
        case CombatantJoined():
            return f"{event.name} ({event.side}) joins the fight"
        case Renamed():
            return f"{name(event.combatant, event.combatant)} is now called {event.name}"
        case EncounterEnded():
            return f"the encounter ends ({event.reason})" if event.reason else "the encounter ends"
        case EncounterReopened():
            return "the encounter reopens"
        case ReactionAsked():
            options = " or ".join(choice_words(c) for c in event.choices.options)
            return f"{name(event.target, event.target)} is asked to react: {options}"
        case ReactionGiven():
            return f"{name(event.target, event.target)} chooses {choice_words(event.choice)}"
        case ReactionTimedOut():
            who = name(event.target, event.target)
            return f"no answer from {who} in time: {choice_words(event.choice)}"
        case Note():
            return f"Note: {event.text}"
        case Disclosed():
            return f"The GM shows the players step {event.step}"
        case CombatantRevealed() if event.reason:
            return f"{name(event.combatant, event.combatant)} is revealed: {event.reason}"
        case CombatantRevealed():
            return f"The GM reveals {name(event.combatant, event.combatant)} to the players"
        case SeedRevealed():
            return f"The GM reveals dice seed {event.seed_epoch}"
        case EncounterStarted():
            titled = f" “{event.title}”" if event.title else ""
            return f"The encounter{titled} begins"
    if ruleset.event_words is not None and isinstance(event, Event):
        return ruleset.event_words(event, names)
    return None


def unrepeated_parts(parts: list[str], head: str) -> list[str]:
    """The parts without one that only says again what the part before ends with, about
    whom the opening names ("…against 18, critical hit" then "critical hit Bo")."""
    kept: list[str] = []
    for part in parts:
        said = kept[-1].rsplit(", ", 1)[-1] if kept else ""
        whom = part.removeprefix(f"{said} ") if said and part.startswith(f"{said} ") else None
        if whom is None or whom not in head:
            kept.append(part)
    return kept


def step_parts(
    events: list[Event], actor: str | None, names: Mapping[str, str], ruleset: Ruleset, ends: str
) -> list[str]:
    """A phrase for each event that says something; `ends` ("Wren's turn ends") in the
    place of the turn's advance, where the step says more than that. Each roll and each
    outcome reads, however like an earlier one its words are (a multiattack's two hits of
    19); a state said again ("Bo is pinned" by two events) reads once. Once another has
    spent something after the actor's own roll (a reaction: Ilse's hellish rebuke), a roll of
    the actor's against a number answers it and names whose it is and what ("Ogre's Dexterity saving
    throw against hellish rebuke (DC 12) 3 -1 = 2 against 12, failure")."""
    parts: list[str] = []
    answering = False  # another spent something after the actor's own roll: rolls answer it
    rolled = False  # the actor's own roll against a number, the one its opening says, is made
    for event in summed(events):
        if isinstance(event, Spent) and rolled and event.combatant != actor:
            answering = True
        targeted = isinstance(event, Rolled) and event.target is not None
        said_as = None if answering and targeted else actor
        rolled = rolled or (targeted and isinstance(event, Rolled) and event.actor == actor)
        if ends and isinstance(event, TurnAdvanced) and ends not in parts:
            parts.append(ends)
        elif (said := event_phrase(event, said_as, names, ruleset)) is not None and (
            isinstance(event, Rolled | Resolved) or said not in parts
        ):
            parts.append(said)
    return [] if parts == [ends] else parts


def turn_ended(
    command: Mapping[str, Any] | None, said_by: Mapping[str, Any] | None, events: list[Event]
) -> str:
    """Whose turn a `next` naming nobody ended (`said_by` names them), where what it set
    off is not their own action resolving (4dF's declared action, which the table moving on
    resolves): "Wren's turn ends: Ada's death save …". "" for none."""
    if command is None or command.get("action") != "next" or command.get("actor"):
        return ""
    ended = str((said_by or {}).get("actor") or "")
    resolves = any(isinstance(e, Resolved) and e.actor == ended for e in events)
    return "" if resolves else ended


def named_once(parts: list[str], head: str, events: list[Event], actor: str | None) -> list[str]:
    """The parts without the name of the actor's own roll where the opening already says
    it ("Brannoc uses Second Wind: 5 +3 = 8", not "…: second wind: 5 +3 = 8")."""
    said = head.lower()
    named = {
        f"{e.purpose}: "
        for e in events
        if isinstance(e, Rolled) and e.actor == actor and e.purpose and e.purpose.lower() in said
    }
    if not named:  # (most steps)
        return parts
    return [next((p.removeprefix(n) for n in named if p.startswith(n)), p) for p in parts]


def told(condition: str, ruleset: Ruleset) -> bool:
    """Does a sentence tell this condition when an action sets or clears it?"""
    return condition in ruleset.told or condition in ruleset.down or condition in ruleset.out


def sentence(
    events: list[Event],
    command: Mapping[str, Any] | None,
    names: Mapping[str, str],
    ruleset: Ruleset,
    *,
    order: list[str] | None = None,
    said_by: Mapping[str, Any] | None = None,
) -> str:
    """The step as one sentence, in the ruleset's words: who did what to whom, then the
    rolls and what followed. `order` is the initiative order the step left (ids), which a
    begin, or any step that sets initiative anew, states. `said_by`: the command as the
    opening tells it when nothing else followed (`next`: whose turn ended)."""
    actor = None if command is None else command.get("actor")
    ended = turn_ended(command, said_by, events)
    ends = f"{spoken_name(ended, names)}'s turn ends" if ended else ""
    if command is not None and command.get("action") == "gm.end":  # its opening says it
        events = [e for e in events if not isinstance(e, EncounterEnded)]
    parts = step_parts(events, actor, names, ruleset, ends)
    head = opening(command if parts or said_by is None else said_by, names, ruleset, events)
    if parts and ends:  # the turn's end reads where it came, among what the pass set off
        head = parts.pop(0) if parts[0] == ends else "" if ends in parts else ends
    stated = ", ".join(names.get(c, c) for c in order or [])
    if command is not None and command.get("action") == "begin" and order:
        parts = [f"the order is {stated}"]
    elif order and any(isinstance(e, InitiativeSet) for e in events):
        parts.append(f"the order is now {stated}")  # as the view orders them, not as rolled
    if command is not None and command.get("action") == FREE_ROLL:
        parts = [free_roll_reading(e) for e in events if isinstance(e, Rolled)]
    parts = unrepeated_parts(parts, head)
    parts = named_once(parts, head, events, actor)
    if not head:
        return "; ".join(parts) if parts else ""
    return f"{head}: {'; '.join(parts)}" if parts else head


SHORT = 16  # the words of a headline said whole: a longer sentence gives its opening


def outcomes(events: list[Event], ruleset: Ruleset, named: bool) -> dict[str, str]:
    """What a step came to for each combatant it touched, in a few words and in the order
    it happened: "9 damage (dead)", "heals 5", "prone", "leaves the fight"; `named`: said
    after the combatant's name ("takes 9 (dead)")."""
    said: dict[str, list[str]] = {}
    states: dict[str, list[str]] = {}
    for event in summed(events):
        match event:
            case Summed(Damaged() as first, amounts):
                hurt = f"takes {sum(amounts)}" if named else f"{sum(amounts)} damage"
                said.setdefault(first.target, []).append(hurt)
            case Summed(Healed() as first, amounts):
                said.setdefault(first.target, []).append(f"heals {sum(amounts)}")
            case ConditionSet() if event.condition == REMOVED:
                said.setdefault(event.target, []).append("leaves the fight")
            case ConditionSet() if told(event.condition, ruleset):
                said.setdefault(event.target, [])
                if event.condition not in states.setdefault(event.target, []):
                    states[event.target].append(event.condition)
    found = {}
    for who, parts in said.items():
        held = states.get(who, [])
        gone = [c for c in held if c in ruleset.out]  # dead says it: not "dead, prone"
        state = ", ".join(gone or held)
        if not parts:
            found[who] = f"is {state}" if named else state
        else:
            found[who] = ", ".join(parts) + (f" ({state})" if state else "")
    return found


def own_state(events: list[Event], actor: str, ruleset: Ruleset) -> str:
    """The actor, where all a step did to them is set a condition that neither harms nor
    downs them (a caster's concentrating): a headline leaves it to the board; else ''."""
    mine = [
        e for e in events if isinstance(e, (Damaged, Healed, ConditionSet)) and e.target == actor
    ]
    quiet = all(
        isinstance(e, ConditionSet) and e.condition not in ruleset.down | ruleset.out for e in mine
    )
    return actor if mine and quiet else ""


def own_results(
    events: list[Event],
    command: Mapping[str, Any],
    names: Mapping[str, str],
    head: str,
    aimed: bool = False,
) -> list[str]:
    """What the acting combatant's action came to in its own words, each once, without the
    targets' names or what the headline's opening already says ("misses"); `aimed`: only
    what it came to against its targets (not a caster's own "holds nobody")."""
    targets = command.get("targets") or []
    shown = [names.get(t, t) for t in targets]
    results: list[str] = []
    for event in events:
        if aimed and isinstance(event, Resolved) and not set(event.targets) & set(targets):
            continue
        if isinstance(event, Resolved) and event.actor == command.get("actor") and event.outcome:
            words = event.outcome
            for name in shown:
                words = re.sub(rf"\s*\b{re.escape(name)}\b", "", words).strip()
            said_already = re.search(rf"(^|\s){re.escape(words)}(\s|$)", head)  # "misses"
            if words and words not in results and not said_already:
                results.append(words)
    return results


def rolled_by_targets(
    command: Mapping[str, Any],
    events: list[Event],
    names: Mapping[str, str],
    ruleset: Ruleset,
    theirs: Mapping[str, str],
    one: Mapping[str, str],
) -> str:
    """A headline of a step whose targets' own rolls settled it (a save, a defence): where
    it did nothing to them, what the acting combatant's action came to in its own words
    ("misses"); then each target with what their roll came to, as the ruleset says it, and
    what the step did to them: "Mae casts sacred flame on Gob: Gob saves, no damage"; "Ilse
    casts fireball: Gob fails, 14 damage; Bo saves, 7 damage"; "Alice attacks Orc: misses;
    Orc's dodge holds"."""
    targets = list(dict.fromkeys(command.get("targets") or []))
    if len(targets) == 1:
        head = opening(command, names, ruleset, events, short=True)
    else:  # each target is named with what came to them
        head = opening({**command, "targets": []}, names, ruleset, events, short=True)
        head = re.sub(r"\s+(on|at|to|with)$", "", head)  # "casts fireball on"
    clauses = [] if one else own_results(events, command, names, head, aimed=True)  # a miss
    for who in dict.fromkeys([*targets, *theirs, *one]):
        if theirs.get(who) or one.get(who):
            clauses.append(told_of(names.get(who, who), [theirs.get(who, ""), one.get(who, "")]))
    return f"{head}: {'; '.join(clauses)}"


def told_of(name: str, said: list[str]) -> str:
    """A combatant and what came to them: "Gob saves, 5 damage", or with the ruleset's
    possessive "Orc's dodge holds"."""
    came = ", ".join(what for what in said if what)
    return f"{name}{came}" if came.startswith("'s ") else f"{name} {came}"


def headline(
    events: list[Event],
    command: Mapping[str, Any] | None,
    names: Mapping[str, str],
    ruleset: Ruleset,
    said: str,
) -> str:
    """A step in one short line for a screen read across a room, each fact once: who did
    what, then what it came to for each target ("Ilse casts magic missile: Goblin 2 takes
    5, Skeleton takes 2 (dead)"; "Wren attacks Goblin: 18 damage (dead)"; "Wolf attacks
    Ilse: misses"; where the ruleset words what came of it, by its verb: "Wren hits Goblin:
    18 damage (dead)", `headline_verb`); the rolls and how
    each figure came about stay in the step's sentence (`said`), which its detail shows.
    A step with nothing to shorten (a GM's note, a join, the turn's end) is `said` itself."""
    action = str((command or {}).get("action"))
    if action == "join":  # who and on which side: the initiative and order stay in `said`
        joined = [e for e in events if isinstance(e, CombatantJoined)]
        return "; ".join(f"{e.name} ({e.side}) joins the fight" for e in joined) or said
    if command is None or action.startswith("party.") or action == FREE_ROLL:
        return said
    if action.startswith("gm."):  # "The GM harms Ilse (a fall): 24 damage (unconscious)"
        target = command.get("target")
        one = outcomes(events, ruleset, named=False)
        if target and list(one) == [target]:
            return f"{opening(command, names, ruleset, events)}: {one[target]}"
        return said
    if action == "answer" and command.get("combatant"):
        return answered(events, command, names, ruleset) or said
    if not command.get("actor") or action in CORE_VERBS:  # what the table moving on set off
        came = outcomes(events, ruleset, named=True)
        theirs = ruleset.target_outcomes_of(dict(command), events)  # a defence it resolved
        if not came and not theirs:
            return said if len(said.split()) <= SHORT else said.partition(": ")[0]
        said_of = "; ".join(
            told_of(names.get(w, w), [theirs.get(w, ""), came.get(w, "")])
            for w in dict.fromkeys([*theirs, *came])
        )
        return f"{said.partition(': ')[0]}: {said_of}"
    actor, targets = command.get("actor"), list(dict.fromkeys(command.get("targets") or []))
    one = outcomes(events, ruleset, named=False)
    own = own_state(events, str(actor), ruleset)  # the caster's concentrating: its own note
    one = {who: what for who, what in one.items() if who != own}
    theirs = ruleset.target_outcomes_of(dict(command), events)
    if theirs := {who: what for who, what in theirs.items() if who != own}:
        return rolled_by_targets(command, events, names, ruleset, theirs, one)
    if one and list(one) == targets == targets[:1]:  # the opening names the one it touched
        return f"{opening(command, names, ruleset, events, short=True)}: {one[targets[0]]}"
    if came := {w: what for w, what in outcomes(events, ruleset, named=True).items() if w != own}:
        head = opening({**command, "targets": []}, names, ruleset, events, short=True)
        head = re.sub(r"\s+(on|at|to|with)$", "", head)  # "casts magic missile on"
        return f"{head}: " + ", ".join(f"{names.get(w, w)} {what}" for w, what in came.items())
    head = opening(command, names, ruleset, events, short=True)
    results = own_results(events, command, names, head)
    if not results:
        short = head != opening(command, names, ruleset, events)  # its outcome's verb says it
        return head if short or len(said.split()) > SHORT else said
    return f"{head}: {'; '.join(results)}"


NO_REACTION = "none"  # the choice of taking no reaction, in every ruleset that offers one


def choice_words(choice: str) -> str:
    """A reaction's choice as a player's button says it ("fight back", "hellish rebuke"),
    never its id ("fight-back"): in the asked line, the answer and its headline alike."""
    return choice.replace("-", " ").replace("_", " ")


def answered(
    events: list[Event], command: Mapping[str, Any], names: Mapping[str, str], ruleset: Ruleset
) -> str:
    """An answer to an attack that waited, as a headline: the reaction taken, then what came
    of it ("Ilse casts shield: the hit becomes a miss (14 vs AC 17)"; "Ilse takes no
    reaction: Ilse takes 5"; "bob answers dodge: bob's dodge (failure); Alice attacks bob:
    hit; bob takes 5"), or, where the attack goes on to ask again, what the target saw
    ("...: Goblin's scimitar deals 5 damage to Ilse"). '': no answer given in this step."""
    who = str(command["combatant"])
    given = [e for e in events if isinstance(e, ReactionGiven) and e.target == who]
    if not given:
        return ""
    choice, name = given[0].choice, names.get(who, who)
    if choice == NO_REACTION:
        head = f"{name} takes no reaction"
    else:
        verb = ruleset.headline_verb_of(dict(command), events) or "answers"
        head = f"{name} {verb} {choice_words(choice)}"
    own = [
        f"{e.outcome.partition(': ')[2]}" + (f" ({e.detail})" if e.detail else "")
        for e in events
        if isinstance(e, Resolved) and e.actor == who and e.outcome.startswith(f"{choice}: ")
    ]
    if own:
        return f"{head}: {'; '.join(own)}"
    theirs = ruleset.target_outcomes_of({"targets": [who]}, events)
    came = outcomes(events, ruleset, named=True)
    touched = list(dict.fromkeys([*theirs, *came]))
    # what the reaction did to the attack, as the step's sentence says it ("Bob attacks Ana:
    # fails (attack outcome 1 - dodge 4 = -3)"; a clash that won, "Ana attacks Bob: hits
    # (Severity 5)"): "Ana's dodge (failure)" alone said nothing of it (issue 37); after the
    # reaction's own result, before the harm it let through
    struck = [
        event_phrase(e, None, names, ruleset)
        for e in events
        if isinstance(e, Resolved) and e.outcome and (who in e.targets) != (e.actor == who)
    ]
    effect = [s for s in struck if s] if choice != NO_REACTION else []
    if touched or effect:
        said = []
        for w in touched if who in touched else [who, *touched]:
            if w != who or not effect:
                said.append(told_of(names.get(w, w), [theirs.get(w, ""), came.get(w, "")]))
                continue
            said += [told_of(name, [theirs[w]])] if theirs.get(w) else []
            said += effect
            said += [told_of(name, [came[w]])] if came.get(w) else []
        return f"{head}: {'; '.join(said)}"
    again = [e.trigger for e in events if isinstance(e, ReactionAsked) and e.trigger]
    struck = [
        f"{names.get(e.actor, e.actor)} {e.outcome}"
        for e in events
        if isinstance(e, Resolved) and e.actor != who and e.outcome
    ]
    rest = again[:1] or struck[:1]
    return f"{head}: {rest[0]}" if rest else head
