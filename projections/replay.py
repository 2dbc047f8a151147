"""Replay of a disputed turn: every step with its rolls, modifiers, rule ids, and the state
of the combatants involved before and after it. Exports read the same timeline."""

import gc
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec

from fracas.ledger import BadInputError
from fracas.ledger.errors import said
from fracas.ledger.history import COMMAND
from fracas.projections.describe import (
    FACES,
    TOTAL,
    came_to,
    describe_control,
    edges_said,
    event_lines,
    said_modifiers,
    served_words,
    worded_terms,
)
from fracas.projections.secrecy import (
    UNSEEN,
    UNSHOWN,
    Cut,
    Seen,
    is_secret,
    players_cut,
    shown_command,
    shown_events,
    texts_in,
)
from fracas.projections.sentences import (
    departed,
    fallen,
    headline,
    marks,
    opening,
    sentence,
)
from fracas.rules import Encounter, Ruleset
from fracas.rules.dice import dice_of, parse_terms
from fracas.rules.durations import until_of
from fracas.rules.events import (
    Commanded,
    ConditionExpired,
    ConditionSet,
    Damaged,
    Disclosed,
    Event,
    Healed,
    ReactionAsked,
    ReactionWithdrawn,
    Resolved,
    Rolled,
    SeedRevealed,
    Spent,
    TurnAdvanced,
)
from fracas.rules.gm import REMOVED
from fracas.rules.names import closest, some_of
from fracas.rules.reactions import asking
from fracas.rules.roster import fold
from fracas.rules.ruleset import CRITICAL, DOWN, FUMBLE, OUT
from fracas.rules.timeline import Frame, walk, walk_between
from fracas.rules.views import View, WoundRow

GM, PLAYERS = "gm", "players"  # the two audiences: the GM sees all, players what they may


class Rule(msgspec.Struct, frozen=True):
    id: str
    statement: str


def stated(ids: list[str], ruleset: Ruleset) -> list[Rule]:
    """Rule ids with their statements from the ruleset's reference, as a dispute or a
    report shows them."""
    return [Rule(r, ruleset.statement(r) or "") for r in ids]


def attribution_of(ruleset: Ruleset) -> str:
    """The attribution the ruleset's licence asks for wherever its rules are shown."""
    reference = ruleset.rules_reference
    return reference.attribution.strip() if reference is not None else ""


# a result that says the comparison it decided: "hit (14 vs AC 12)", "miss (14 vs AC 17, shield)"
VERSUS = re.compile(
    r"(?P<word>[^()]+?) \((?P<total>-?\d+) vs (?P<what>[^,()]+)(?:, (?P<why>[^()]+))?\)"
)


class RollLine(msgspec.Struct, frozen=True):
    actor: str
    purpose: str
    dice: str
    faces: list[int]
    total: int
    source: str
    entered_by: str | None
    counter: str | None
    target: int | None
    modifiers: list[str]
    result: str | None
    rules: list[str]
    secret: bool
    kept: list[int] | msgspec.UnsetType = msgspec.UNSET  # as on the Roll: unset, all count
    came_to: int | None = None  # what the ruleset compares (`describe.came_to`); None: a pool
    worth: list[int] | None = None  # a pool's: what each face adds to its count (+1, -1)
    # the modifiers it adds to its faces, signed, each saying what it is (`worded_terms`)
    terms: str = ""
    # rolled by the step that asked for a reaction, shown again in the answer that settled
    # it (`decided_with`): its dice were typed (or not) there, not in this step
    carried: bool = False
    edge: str = ""  # why two d20s keep one ("with disadvantage: ..."; `edges_said`)
    served: int = 0  # of a typed roll, how many of its last faces the server rolled

    def typed(self) -> bool:
        return self.source == "manual"

    def typist(self, names: dict[str, str]) -> str:
        """Who typed these dice in ("the GM", a player's character); '' for the server's."""
        return typist_name(self.entered_by or "", names) if self.typed() else ""

    def served_words(self) -> str:
        """'1 d8 rolled by the server': a typed roll's faces the server rolled past those
        typed (a critical's extra dice); '' for a roll typed whole or the server's."""
        return served_words(self.dice, self.served) if self.typed() else ""

    def marked(self) -> list[tuple[int, bool]]:
        """Each face with whether it counts (a die dropped by 4d6dl1 does not)."""
        kept = set(self.kept) if self.kept else None
        return [(face, kept is None or i in kept) for i, face in enumerate(self.faces)]

    def dropped(self) -> list[int]:
        return [face for face, counts in self.marked() if not counts]

    def meaning(self) -> str:
        """What the roll meant, for the dice box: its result, unless that only says the total
        on the dice again ("5 on 1d6", "7 on 2d4+2": the text log's reading of a damage
        roll)."""
        came_to = self.total if self.came_to is None else self.came_to
        if not self.result or self.result.startswith(f"{came_to} on {self.dice}"):
            return ""
        return self.result

    def versus(self) -> tuple[str, str] | None:
        """What the roll was compared against and what that decided, where its result says
        both of the figure the box shows: "hit (14 vs AC 12)" is ("AC 12", "hit"); "miss (14
        vs AC 17, shield)" is ("AC 17 (shield)", "miss"), the AC that finally decided, said
        once ("14 against AC 17 (shield): miss"). None: the result says no such comparison."""
        found = VERSUS.fullmatch(self.result or "")
        if found is None or self.came_to is None or int(found["total"]) != self.came_to:
            return None
        why = f" ({found['why']})" if found["why"] else ""
        return f"{found['what']}{why}", found["word"]

    def shown(self) -> list[tuple[int, bool, str, str]]:
        """Each face as the dice box draws it: its value, whether it counts, the sign its
        term starts with where a roll subtracts dice ("+" and "−" of the shot clock's
        d6!-d6!; "" on the term's later faces), and what a pool's face adds to its count
        ("+1", "−1"; "" for nothing)."""
        signs = [""] * len(self.faces)
        terms = list(zip(parse_terms(self.dice), dice_of(self.dice, self.faces), strict=True))
        if any(term.sign < 0 for term, dice in terms if dice):
            for term, dice in terms:
                if dice:
                    signs[dice[0][0]] = "−" if term.sign < 0 else "+"
        worth = self.worth or [0] * len(self.faces)
        said = [f"{w:+d}".replace("-", "−") if w else "" for w in worth]
        return [
            (face, counts, sign, value)
            for (face, counts), sign, value in zip(self.marked(), signs, said, strict=True)
        ]


class Harm(msgspec.Struct, frozen=True):
    """Damage dealt in a step: by whom ("" for the GM's hand or the world), to whom."""

    who: str
    whom: str
    amount: int
    past: int = 0  # the damage beyond the target's last point of health, not counted


class Feat(msgspec.Struct, frozen=True):
    """A critical or a fumble in a step: who rolled it, on whom the action it decided fell,
    and the damage it did them."""

    fact: str  # CRITICAL or FUMBLE
    who: str
    whom: list[str]
    damage: int  # the health it took (none beyond 0)
    action: str = ""  # the action it decided ("attack"); "" when none was resolved
    rolled: int = 0  # the damage it dealt, as rolled, beyond 0 too


class Departure(msgspec.Struct, frozen=True):
    """A combatant the GM took out of the fight (fled, captured), and the GM's reason."""

    combatant: str
    reason: str


class Standing(msgspec.Struct, frozen=True):
    """One combatant at one moment: health, conditions, place in the initiative."""

    combatant: str
    name: str
    health: str
    conditions: list[str]
    initiative: str


class Part(msgspec.Struct, frozen=True):
    """What one turn holds of a `next` that ends a turn and begins another: the turn (round,
    who acts), the part in one sentence, its rolls and its marks."""

    round: int
    acting: list[str]
    sentence: str
    rolls: list[RollLine]
    marks: list[str] = []
    # the GM's: the whole view once this part is done, where it ends a round (the standings
    # at that round's end stand before what the next round's first turn began with)
    view: View | None = None


class ReplayStep(msgspec.Struct, frozen=True):
    step: int
    control: str
    target: int | None
    author: str
    at: str
    round: int
    acting: list[str]
    in_effect: bool
    taken_back_by: int | None
    taken_back_as: str  # "undo" or "supersede": how it was taken back
    lines: list[str]
    rolls: list[RollLine]
    rules: list[str]
    before: list[Standing]
    after: list[Standing]
    secret: bool = False
    sentence: str = ""  # the step in one readable sentence, in names
    marks: list[str] = []  # "critical", "fumble", "down": what makes it stand out
    harm: list[Harm] = []
    fallen: list[str] = []  # the combatants this step put down
    felled_by: dict[str, str] = {}  # each of them: who put them down ("gm"; "" nobody)
    departed: list[Departure] = []  # the combatants the GM took out of the fight
    ended: dict[str, str] = {}  # those down before whom it put out: how ("dead: three ...")
    feats: list[Feat] = []  # its criticals and fumbles, each on its own
    headline: str = ""  # the step in a short line, each fact once (a TV's log): `headline`
    # who acts, what and on whom, as the audience may know it (a GM-only roll's too: its
    # sentence names them); "": a take-back, or a step the players are not shown
    actor: str = ""
    action: str = ""
    targets: list[str] = []
    # each of `fallen`: how, as the ruleset set it: (condition, reason) ("dying", "dropped to
    # 0 HP"); an out condition ("dead") before a down one
    fell_as: dict[str, tuple[str, str]] = {}
    # a `next` that brought something at the start of the turn it began, told turn by turn:
    # the turn it ended with what came at that end, then the new turn's start (`turn_parts`);
    # [] for a step told whole
    parts: list[Part] = []

    def typed_by(self, names: dict[str, str]) -> str:
        """'dice typed by Alice Reyes' when someone typed this step's dice in (a player at
        their phone, the GM) rather than the server rolling them; else ''. Rolls carried
        from the step that asked for a reaction were typed there: not this step's."""
        typed = [r for r in self.rolls if r.typed() and not r.carried]
        if not typed:  # (most steps)
            return ""
        shown = list(dict.fromkeys(r.typist(names) for r in typed))
        listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
        # faces the server rolled past those typed, said as the server's
        served = [r.served_words() for r in typed if r.served]
        return f"dice typed by {listed}" + "".join(f"; {words}" for words in served)


def typist_name(who: str, names: dict[str, str]) -> str:
    return "the GM" if who in ("", "gm") else names.get(who, who)


class Moment(msgspec.Struct, frozen=True):
    """A step of the timeline and the whole view after it (what an export's round ends show);
    for players, `withheld` names the secret step some of its standings wait on, if any."""

    step: ReplayStep
    view_after: View
    withheld: int | None = None
    masked: bool = False  # players: what this step decided is GM-only
    witnessed: bool = True  # the audience may see the head code after it
    ledger: int = 0  # the step's number in the log: the server's bookkeeping, never shown

    @property
    def plain(self) -> bool:
        """Shown to its audience as the log has it: numbered as the log, nothing masked,
        nothing waiting on a GM-only step, its head code witnessed."""
        return (
            self.step.step == self.ledger
            and not self.masked
            and self.withheld is None
            and self.witnessed
        )


def roll_line(
    event: Rolled,
    reads: str = TOTAL,
    face_worth: Callable[[int, int | None], int] | None = None,
    carried: bool = False,
) -> RollLine:
    """A roll as the screens show it; `face_worth`: the ruleset's, for a roll read face by
    face (what each face adds to the count); `carried`: rolled by the step that asked."""
    roll = event.roll
    worth = None
    if reads == FACES and face_worth is not None:
        worth = [face_worth(face, event.target) for face in roll.faces]
    return RollLine(
        event.actor,
        event.purpose,
        roll.dice,
        roll.faces,
        roll.total,
        roll.source,
        roll.entered_by,
        roll.counter,
        event.target,
        said_modifiers(event.modifiers),
        event.result,
        event.rules,
        event.secret,
        roll.kept,
        came_to(event, reads),
        worth,
        worded_terms(event, reads),
        carried,
        edges_said(event),
        roll.servers(),
    )


def settled(event: Rolled, after: list[Event], ruleset: Ruleset) -> Rolled:
    """The roll with the result its step decided (`Ruleset.settled`): an attack's hit that a
    later reaction in the step turned into a miss reads as the miss."""
    said = ruleset.settled(event, after) if ruleset.settled is not None else None
    return event if said is None else msgspec.structs.replace(event, result=said)


def decided_with(frame: Frame, events: list[Event], asked_rolls: list[Rolled]) -> list[Rolled]:
    """The rolls an answering step decided its attack with, though an earlier step rolled
    them (the attack asked for a reaction once its dice showed the trigger, srd-39's
    shield): the step's dice are those, read as the step settled them (the hit the shield
    turned reads as the miss). [] for any other step, or one whose attack was withdrawn."""
    waiting = asking(frame.before)
    if waiting is None or not waiting.rolled or not events:
        return []
    still = asking(frame.after)
    if still is not None and still.step == waiting.step:
        return []  # another target's answer is awaited: nothing decided yet
    if any(isinstance(e, ReactionWithdrawn) for e in events):
        return []
    found: list[Rolled] = []
    for roll in waiting.rolled:
        shown = next((e for e in reversed(asked_rolls) if e.roll == roll), None)
        if shown is not None and shown not in found:
            found.append(shown)
    return found


def carried_forward(events: list[Event]) -> list[Rolled]:
    """The rolls of a step that asked for a reaction once its dice showed the trigger: the
    answering step decides the attack with them (`decided_with`)."""
    kept = [r for e in events if isinstance(e, ReactionAsked) and e.rolled for r in e.rolled]
    return [e for e in events if isinstance(e, Rolled) and e.roll in kept]


def unseen_typist(roll: RollLine, unseen: set[str]) -> RollLine:
    if roll.entered_by in unseen:
        return msgspec.structs.replace(roll, entered_by=UNSEEN)
    return roll


def unseen_author(frame: Frame, unseen: set[str]) -> Frame:
    if frame.record.author in unseen:
        record = msgspec.structs.replace(frame.record, author=UNSEEN)
        return msgspec.structs.replace(frame, record=record)
    return frame


def rule_ids(events: list[Event]) -> list[str]:
    seen: dict[str, None] = {}
    for event in events:
        for rule in getattr(event, "rules", []) or []:
            seen[rule] = None
    return list(seen)


def named_in(events: list[Event], known: set[str]) -> set[str]:
    """The combatants an event names (as actor, target, holder …), its command included."""
    found: set[str] = set()
    for event in events:
        data = msgspec.to_builtins(event)
        data.pop("sheet", None)
        found |= texts_in(data) & known
    return found


def standings(view: View, who: set[str]) -> list[Standing]:
    keys = {row.combatant: f"{row.key} {row.status}".strip() for row in view.initiative}
    return [
        Standing(w.combatant, w.name, w.health, w.conditions, keys.get(w.combatant, ""))
        for w in view.wounds
        if w.combatant in who
    ]


def changed_rows(before: View, after: View) -> set[str]:
    old: dict[str, WoundRow] = {w.combatant: w for w in before.wounds}
    return {w.combatant for w in after.wounds if old.get(w.combatant) != w}


def harm_of(
    events: list[Event], known: set[str], left: dict[str, tuple[int, int]] | None = None
) -> list[Harm]:
    """Who dealt each damage of a step: its source when that names a combatant, else the
    actor whose resolution just before it struck that target, else nobody (the GM's hand,
    an exertion, the world): a step's actor is never credited with harm they did not
    resolve (the same attribution as the file's `harm` view). `left`: the health each
    target had left as the step began, and its maximum, where health counts down to 0 (hit
    points): the harm counts only what it took of that, none of the overkill beyond 0."""
    found, struck = [], {}
    most = {who: top for who, (_, top) in (left or {}).items()}
    left = {who: now for who, (now, _) in (left or {}).items()}
    for event in events:
        if isinstance(event, Resolved):
            struck.update(dict.fromkeys(event.targets, event.actor))
        elif isinstance(event, Healed) and event.target in left:
            left[event.target] = min(most[event.target], left[event.target] + event.amount)
        elif isinstance(event, Damaged):
            who = event.source if event.source in known else struck.get(event.target, "")
            amount = event.amount
            if event.target in left:
                amount = min(amount, max(0, left[event.target]))
                left[event.target] -= amount
            found.append(Harm(who, event.target, amount, event.amount - amount))
    return found


def health_left(view: View) -> dict[str, tuple[int, int]]:
    """What each combatant has left of a health that counts down to 0 (hit points), and its
    maximum."""
    return {
        w.combatant: (w.current, w.maximum)
        for w in view.wounds
        if w.counts == "left" and w.maximum is not None
    }


def feats_of(events: list[Event], ruleset: Ruleset, harm: list[Harm] | None = None) -> list[Feat]:
    """Each roll of a step the ruleset calls a critical or a fumble, with the targets of the
    roller's resolution after it and the damage done them before the next resolution (as
    `harm`, the step's damage in order, counts it: none beyond 0 hit points)."""
    found = []
    counted = iter(harm or [])
    amounts = {
        at: next(counted).amount if harm is not None else e.amount
        for at, e in enumerate(events)
        if isinstance(e, Damaged)
    }
    for at, event in enumerate(events):
        if not isinstance(event, Rolled):
            continue
        fact = next((f for f in (CRITICAL, FUMBLE) if f in ruleset.facts_of(event)), None)
        if fact is None:
            continue
        later = events[at + 1 :]
        resolved = next(
            (n for n, e in enumerate(later) if isinstance(e, Resolved) and e.actor == event.actor),
            None,
        )
        if resolved is None:
            found.append(Feat(fact, event.actor, [], 0))
            continue
        resolution = later[resolved]
        assert isinstance(resolution, Resolved)
        targets = resolution.targets
        damage = rolled = 0
        first = at + 1 + resolved + 1
        for position, after in enumerate(events[first:], first):
            if isinstance(after, Resolved):
                break
            if isinstance(after, Damaged) and after.target in targets:
                damage += amounts[position]
                rolled += after.amount
        found.append(Feat(fact, event.actor, list(targets), damage, resolution.action, rolled))
    return found


def felled_by(
    events: list[Event], command: dict[str, Any] | None, harm: list[Harm], ruleset: Ruleset
) -> dict[str, str]:
    """Who put each combatant this step put down there: whoever last struck them in it
    (by a resolution or by damage; `harm`, the step's `harm_of`), else the GM for a GM
    command ("gm"), else nobody ("")."""
    gm_step = command is not None and str(command.get("action", "")).startswith("gm.")
    struck: dict[str, str] = {}
    found: dict[str, str] = {}
    harms = iter(harm)
    for event in events:
        if isinstance(event, Resolved):
            struck.update({t: event.actor for t in event.targets if t != event.actor})
        elif isinstance(event, Damaged):
            harm = next(harms)
            if harm.who:
                struck[harm.whom] = harm.who
        elif isinstance(event, ConditionSet) and event.target in fallen([event], ruleset):
            found[event.target] = struck.get(event.target, "gm" if gm_step else "")
    return found


def fell_as(events: list[Event], ruleset: Ruleset, fell: list[str]) -> dict[str, tuple[str, str]]:
    """How each of `fell` went down in this step, by the ruleset's facts: the condition it
    set them (an out one, dead, before a down one; else the last: dying after unconscious)
    and its reason."""
    found: dict[str, tuple[str, str]] = {}
    outs: set[str] = set()
    for event in events:
        if not isinstance(event, ConditionSet) or event.target not in fell:
            continue
        facts = ruleset.facts_of(event)
        if DOWN not in facts or event.target in outs:
            continue
        found[event.target] = (event.condition, event.reason)
        if OUT in facts:
            outs.add(event.target)
    return found


def put_out(
    events: list[Event], command: dict[str, Any] | None, before: View, ruleset: Ruleset
) -> dict[str, str]:
    """The combatants down before this step whom it puts out (d20: a dying character dead
    of three failed death saves), each with how: the condition and the rules' reason."""
    if is_party_step(command):
        return {}
    outs = [e for e in events if isinstance(e, ConditionSet) and OUT in ruleset.facts_of(e)]
    if not outs:  # (most steps: nobody put out, and who was down need not be read)
        return {}
    down = down_in(before, ruleset)
    return {
        e.target: f"{e.condition}: {e.reason}" if e.reason else e.condition
        for e in outs
        if e.target in down
    }


def down_in(view: View, ruleset: Ruleset) -> set[str]:
    """The combatants down in a view."""
    return {w.combatant for w in view.wounds if ruleset.is_down(w.conditions)}


def is_party_step(command: dict[str, Any] | None) -> bool:
    """A step of the party's own (a member carried in or home, a rest), not of the fight."""
    return command is not None and str(command.get("action", "")).startswith("party.")


def newly_fallen(
    events: list[Event], command: dict[str, Any] | None, before: View, ruleset: Ruleset
) -> list[str]:
    """The combatants this step put down who were up before it: a blow to one already down
    is no new fall, nor is a member of the party coming in as they stood (down)."""
    if is_party_step(command):
        return []
    fell = fallen(events, ruleset)
    if not fell:  # (most steps: nobody fell, and who was down need not be read)
        return []
    down = down_in(before, ruleset)
    return [who for who in fell if who not in down]


def public_command(command: dict[str, Any] | None) -> dict[str, Any] | None:
    """What players may know of a command whose outcome is GM-only: who, what, against whom
    (its modifiers and options are the GM's ruling on a secret roll, and stay GM-only)."""
    if command is None:
        return None
    who = command.get("actor") or command.get("combatant")
    return {"actor": who, "action": command.get("action"), "targets": command.get("targets", [])}


def describe_command(command: dict[str, Any], names: dict[str, str] | None = None) -> str:
    named = names or {}
    who = named.get(command.get("actor") or "", command.get("actor") or "the GM")
    targets = [named.get(t, t) for t in command.get("targets") or []]
    against = f" against {', '.join(targets)}" if targets else ""
    return f"{who} declares {command.get('action', '?')}{against}"


GM_ONLY = "what it decided is GM-only until the GM discloses it"


def player_lines(
    command: dict[str, Any] | None,
    events: list[Event],
    masked: bool,
    epochs: frozenset[int],
    round_word: str,
    reads: str,
    names: dict[str, str] | None = None,
    spent: Callable[[Spent], str | None] | None = None,
    healed: Callable[[int], str] | None = None,
    verb: Callable[[str], str | None] | None = None,
    step_verb: Callable[[dict[str, Any], Sequence[Event]], str | None] | None = None,
) -> list[str]:
    """What players may read of a step (`command` as they may read it), combatants by the
    `names` players see: a masked step shows only the command given; `verb`, `step_verb`:
    the ruleset's words for an action (`event_lines`)."""
    if masked:
        command = public_command(command)
        shown = [describe_command(command, names)] if command is not None else []
        return [*shown, GM_ONLY]
    said = event_lines(
        events, round_word, reads, names, spent=spent, healed=healed, verb=verb,
        step_verb=step_verb,
    )
    if not epochs:  # (no seed to withhold: each event as the GM reads it)
        return said
    return [
        f"dice seed {e.seed_epoch} revealed to the GM (withheld here: it would re-derive "
        "GM-only rolls)"
        if isinstance(e, SeedRevealed) and e.seed_epoch in epochs
        else line
        for e, line in zip(events, said, strict=True)
    ]


CONTROL_SENTENCES = {
    "undo": "The GM takes back step {}",
    "redo": "The GM restores step {}",
    "supersede": "Step {} is set aside for the adopted what-if",
}


def initiative_order(view: View, ruleset: Ruleset | None = None) -> list[str]:
    """The combatants in the order the view's initiative puts them; given the `ruleset`,
    those out of the fight for good (dead, removed) left out, as a sentence states an
    order: who is still to act."""
    out = {*ruleset.out, REMOVED} if ruleset is not None else set()
    gone = {w.combatant for w in view.wounds if set(w.conditions) & out}
    rows = sorted(view.initiative, key=lambda row: row.order)
    return [row.combatant for row in rows if row.combatant not in gone]


def step_sentence(
    frame: Frame,
    command: dict[str, Any] | None,
    events: list[Event],
    masked: bool,
    names: dict[str, str],
    target: int | None,
    ruleset: Ruleset,
    before: View,
    after: View,
) -> str:
    record = frame.record
    if record.control != COMMAND:
        said = CONTROL_SENTENCES.get(record.control, "{}").format(target)
        if record.author not in ("", "gm"):  # a player took back (or restored) their own step
            who = typist_name(record.author, names)
            return said.replace("The GM", UNSEEN.capitalize() if who == UNSEEN else who, 1)
        return said
    said_by = whose_turn_ends(command, before)
    if masked:
        head = opening(public_command(said_by), names, ruleset) or "The GM"
        return f"{head}: what it decided is GM-only until the GM discloses it"
    order = initiative_order(after, ruleset)
    return sentence(events, command, names, ruleset, order=order, said_by=said_by)


def whose_turn_ends(command: dict[str, Any] | None, before: View) -> dict[str, Any] | None:
    """A `next` that names nobody ends the turn of the one acting before it, if one was:
    the sentence names them ("Alice ends the turn"), not the table."""
    if command is None or command.get("action") != "next" or command.get("actor"):
        return command
    return {**command, "actor": before.acting[0]} if len(before.acting) == 1 else command


class Audience:
    """How one audience numbers and reads the steps: the GM sees the log as it is; players
    see the players' cut of it (`secrecy`)."""

    def __init__(self, frames: list[Frame], ruleset: Ruleset, players: bool) -> None:
        self.cut = players_cut(frames, ruleset) if players else None
        self.view_of = ruleset.view

    def seen(self, frame: Frame) -> Seen | None:
        step = frame.record.step
        if self.cut is None:
            return Seen(step, False, None, self.view_of(frame.after))
        seen = self.cut.seen[step]
        return seen if seen.number is not None else None

    def number(self, step: int | None) -> int | None:
        return step if self.cut is None else self.cut.number(step)

    def final(self, encounter: Encounter) -> View:
        """The view after the last step, as this audience may see it (names, for one)."""
        if self.cut is None or not self.cut.seen:
            return encounter.view()
        return self.cut.seen[max(self.cut.seen)].view

    def events(self, frame: Frame) -> list[Event]:
        return frame.events if self.cut is None else shown_events(frame, self.cut)

    def command(self, frame: Frame) -> dict[str, Any] | None:
        return frame.command if self.cut is None else shown_command(frame, self.cut)

    def hidden(self) -> set[str]:
        return set() if self.cut is None else set(self.cut.hidden)

    def reported(self, seen: Seen) -> int | None:
        return None if self.cut is None else self.cut.reported(seen.source)

    def witnessed(self, number: int) -> bool:
        return self.cut is None or number <= self.cut.witnessed


def timeline(
    encounter: Encounter,
    *,
    players: bool = False,
    progress: Callable[[int], None] | None = None,
    between: tuple[int, int] | None = None,
    with_standings: bool = True,
    with_headlines: bool = True,
    headlines: Mapping[int, str] | None = None,
    with_commands: bool = True,
) -> Iterator[Moment]:
    """Every step of the encounter with its round, its turn and the standings it touched;
    `players` follows the players' cut: the steps they may see, each with the standings they
    may see, and in the place of each withheld one a step the GM has not shown yet (`unshown`):
    numbered as the log numbers them. `progress` is told each step's number
    as it is walked. `between` (first, last): steps first to last only, folded from the
    nearest snapshot before them; for players, only from a step before which they saw every
    step `plain` (a Timeline knows where that holds), else what they may not know of
    earlier steps is not known to the walk.
    `with_standings=False` leaves each step's standings before and after it empty (a report
    shows the whole view at each round's end instead); `with_headlines=False` leaves each
    step's headline empty (a report reads each step's sentence, never its short line);
    `with_commands=False` leaves out of each step's lines the command as recorded ("command:
    carry (gm)", in the log's own names: a report's sentence says what was done, and by
    whom)."""
    ruleset = encounter.ruleset
    if between is None:
        walked = walk(encounter.store, encounter.id, ruleset)
    else:
        walked = walk_between(encounter, *between)
    frames = []
    for frame in walked:
        frames.append(frame)
        if progress is not None:
            progress(frame.record.step)
    audience = Audience(frames, ruleset, players)
    names = {w.combatant: w.name for w in audience.final(encounter).wounds}
    # a combatant the players do not see is someone unseen as an author or typist too
    unseen = {w.combatant for w in encounter.view().wounds} - set(names) if players else set()
    unseen |= audience.hidden()  # their join undone too: a name the log still holds
    names[UNSEEN] = UNSEEN
    prior, prior_state = None, None
    asked_rolls: list[Rolled] = []  # the rolls of steps that asked for a reaction, as seen
    # each step's headline as this audience reads it (`headlines`: those of the steps
    # before `between`, as a followed screen holds them), which a disclosure's line repeats
    lines_of: dict[int, str] = dict(headlines or {})
    for frame in frames:
        seen = audience.seen(frame)
        if seen is None:
            if audience.cut is not None:
                yield unshown(frame, audience.cut, prior or ruleset.view(frame.before))
            continue
        if prior is not None and (players or frame.before is prior_state):
            before = prior  # (the view of the state the step before left: made once)
        else:
            before = ruleset.view(frame.before)
        after = seen.view
        prior, prior_state = after, frame.after
        record = frame.record
        number = seen.number or 0
        masked = seen.masked
        events = [] if masked else audience.events(frame)
        known = {w.combatant for w in after.wounds} | {w.combatant for w in before.wounds}
        who = set()
        if with_standings and not masked:
            who = named_in(events, known) | changed_rows(before, after)
        standing = (standings(before, who), standings(after, who)) if with_standings else ([], [])
        target = audience.number(record.target)
        told = events if with_commands else [e for e in events if not isinstance(e, Commanded)]
        if record.control != COMMAND:
            lines = [describe_control(record.control, target)]
        elif players:
            shown = audience.command(frame)
            epochs, words = audience.cut.epochs, ruleset.round_word
            reads = ruleset.reads_rolls
            lines = player_lines(
                shown, told, masked, epochs, words, reads, names, ruleset.spent_words,
                ruleset.healed_words, ruleset.verbs.get, ruleset.step_verb_of,
            )
        else:
            words, reads, spent = ruleset.round_word, ruleset.reads_rolls, ruleset.spent_words
            healed, verb = ruleset.healed_words, ruleset.verbs.get
            lines = event_lines(
                told, words, reads, names, spent=spent, healed=healed, verb=verb,
                step_verb=ruleset.step_verb_of,
            )
        reads = ruleset.reads_rolls
        primed = decided_with(frame, events, asked_rolls)
        if any(isinstance(e, ReactionAsked) for e in events):
            asked_rolls += [e for e in events if isinstance(e, Rolled)]
        rolled = [
            (
                e,
                unseen_typist(
                    roll_line(settled(e, after_it, ruleset), reads, ruleset.face_worth, carried),
                    unseen,
                ),
            )
            for e, after_it, carried in [
                *((e, events, True) for e in primed),
                *(
                    (e, events[i + 1 :], False)
                    for i, e in enumerate(events)
                    if isinstance(e, Rolled)
                ),
            ]
        ]
        rolls = [line for _e, line in rolled]
        taken_back = frame.taken_back_by
        fell = newly_fallen(events, frame.command, before, ruleset)
        carried = is_party_step(frame.command)
        round_, acting = turn_of_step(ruleset, frame, before, unseen)
        # a roll an asking step carries to its answer is the answer's: the critical counts,
        # with the damage it does, where the attack is decided (with the rolls it primed)
        forward = carried_forward(events)
        decided = [*primed, *(e for e in events if e not in forward)]
        step_marks = marks(decided, ruleset)
        harm = harm_of(events, known, health_left(before))
        command = audience.command(frame)
        said = step_sentence(
            unseen_author(frame, unseen),
            command,
            events,
            masked,
            names,
            target,
            ruleset,
            before,
            after,
        )
        short = (
            ""
            if not with_headlines
            else said
            if masked or record.control != COMMAND
            else headline(events, command, names, ruleset, said)
        )
        if short:
            for shown in (e.step for e in events if isinstance(e, Disclosed)):
                if shown not in lines_of and not players:  # the GM's window starts after it
                    alone = timeline(encounter, between=(shown, shown), with_standings=False)
                    lines_of[shown] = next(iter(alone)).step.headline
            short = with_disclosed(short, events, lines_of)
            lines_of[number] = short
        parts = (
            []
            if masked or record.control != COMMAND
            else turn_parts(
                ruleset, frame, events, command, names, (before, after), unseen, rolled, players
            )
        )
        acted = whose_turn_ends(command, before) if record.control == COMMAND else None
        known_of = public_command(acted) or {}
        step = ReplayStep(
            number,
            record.control,
            target,
            UNSEEN if record.author in unseen else record.author,
            record.at,
            round_,
            acting,
            frame.in_effect,
            audience.number(taken_back.step) if taken_back else None,
            taken_back.control if taken_back else "",
            lines,
            rolls,
            rule_ids(events),
            *standing,
            is_secret(frame.events),
            said,
            [m for m in step_marks if m != DOWN or not carried],
            harm,
            fell,
            {
                w: by
                for w, by in felled_by(events, frame.command, harm, ruleset).items()
                if w in fell
            }
            if fell
            else {},
            [Departure(*d) for d in departed(events)],
            put_out(events, frame.command, before, ruleset),
            feats_of(decided, ruleset, harm)
            if CRITICAL in step_marks or FUMBLE in step_marks
            else [],
            short,
            str(known_of.get("actor") or ""),
            str(known_of.get("action") or ""),
            [str(t) for t in known_of.get("targets") or []],
            fell_as(events, ruleset, fell) if fell else {},
            parts,
        )
        yield Moment(
            step, after, audience.reported(seen), masked, audience.witnessed(number), record.step
        )


def with_disclosed(short: str, events: list[Event], lines_of: dict[int, str]) -> str:
    """A disclosure's line with what it showed, the disclosed step's own line as it reads
    now ("The GM shows the players step 25: Bugbear attacks Ilse: 7 damage"), where it
    said only the number."""
    shown = [lines_of[e.step] for e in events if isinstance(e, Disclosed) and e.step in lines_of]
    return f"{short}: {'; '.join(shown)}" if shown else short


def latest_headline(encounter: Encounter) -> str:
    """The log's newest step as the GM reads it in one short line: its headline, the one
    the TV's log and a phone's "latest" show (an undo or a redo: what it took back)."""
    head = encounter.history.head_step
    if not head:
        return ""
    moments = list(timeline(encounter, between=(head, head), with_standings=False))
    return (moments[-1].step.headline or moments[-1].step.sentence) if moments else ""


def unshown(frame: Frame, cut: Cut, last: View) -> Moment:
    """A withheld step as players have it: that the GM took a step here, and nothing of it
    (who took it, what, when), in the turn they last saw; the standings as they last saw them."""
    seen = cut.seen[frame.record.step]
    step = ReplayStep(
        frame.record.step, COMMAND, None, "", "", last.round, last.acting, True, None, "",
        [], [], [], [], [], sentence=UNSHOWN[0].upper() + UNSHOWN[1:],
    )  # fmt: skip
    return Moment(step, seen.view, cut.reported(seen.source), True, False, frame.record.step)


def turn_of_step(
    ruleset: Ruleset, frame: Frame, before: View, unseen: set[str]
) -> tuple[int, list[str]]:
    """The round and turn a step is filed under: the view's before it, the turn whose end
    the step was taken at (`Ruleset.turn_end`), or the turn it began with what came at
    that turn's start (`turn_begun`); players may not see whose."""
    ending = ruleset.filed_under(frame.before, frame.after)
    if ending is not None:
        number, who = ending
        return number, [] if who in unseen else [who]
    begun = turn_begun(ruleset, frame)
    if begun is not None:
        number, started = begun
        return number, [] if set(started) & unseen else started
    return before.round, before.acting


def turn_begun(ruleset: Ruleset, frame: Frame) -> tuple[int, list[str]] | None:
    """The turn a `next` began, when what it holds came at that turn's start (a dying
    creature's death save, a condition lasting until then expiring): the step is that
    turn's. One that ended a condition at a turn's end, or rolled for anyone else (a
    save at the end of the turn, everyone's initiative), is the turn's it ended."""
    if frame.command is None or frame.command.get("action") != "next":
        return None
    before, after = ruleset.clock_of(frame.before), ruleset.clock_of(frame.after)
    started = [who for who, turn in after.turns.items() if before.turns.get(who) != turn]
    if not started:
        return None
    at_start = False
    for event in frame.events:
        if isinstance(event, ConditionExpired):
            if not lasted_to_a_start(frame.before, event):
                return None
            at_start = True
        elif isinstance(event, Rolled):
            if event.actor not in started:
                return None
            at_start = True
    return (after.round, started) if at_start else None


def turn_parts(
    ruleset: Ruleset,
    frame: Frame,
    events: list[Event],
    command: dict[str, Any] | None,
    names: dict[str, str],
    seen: tuple[View, View],
    unseen: set[str],
    rolled: list[tuple[Rolled, RollLine]],
    players: bool = False,
) -> list[Part]:
    """A `next` that ends one's turn and brings something at the start of the turn it
    begins, told turn by turn: the turn it ended, with what came at that end (a save at the
    end of the turn, a condition lasting until it), then the new turn's start (a dying
    creature's death save, a condition lasting until then expiring); [] for any other step.
    `events` and `seen` (the views before and after) are the audience's: a part says nothing
    they may not know."""
    before, after = seen
    if command is None or command.get("action") != "next" or len(before.acting) != 1:
        return []
    if not any(isinstance(e, Rolled | ConditionExpired) for e in events):
        return []  # (most passes: nothing at either turn's edge)
    clock_before, clock_after = ruleset.clock_of(frame.before), ruleset.clock_of(frame.after)
    started = [w for w, turn in clock_after.turns.items() if clock_before.turns.get(w) != turn]
    if not started:
        return []
    ended: list[Event] = []
    begun: list[Event] = []
    side = ended  # what no roll or expiry places follows the one before it
    for event in events:
        if isinstance(event, TurnAdvanced):
            side = ended
        elif isinstance(event, ConditionExpired):
            side = begun if lasted_to_a_start(frame.before, event) else ended
        elif isinstance(event, Rolled):
            side = begun if event.actor in started else ended
        side.append(event)
    if not begun:
        return []
    said_by = whose_turn_ends(command, before)
    order = initiative_order(after, ruleset)
    at_start = {id(e) for e in begun}

    def part(round_: int, acting: list[str], said: str, start: bool) -> Part:
        lines = [line for e, line in rolled if (id(e) in at_start) == start]
        taken = begun if start else ended
        return Part(round_, acting, said, lines, marks(taken, ruleset))

    ended_view = None  # the GM's view at the round's end; players', the step's (theirs)
    if clock_after.round != before.round and not players:
        ended_view = ruleset.view(fold(ruleset.evolve, frame.before, ended))
    opened = sentence(begun, None, names, ruleset)
    whose = {e.actor for e in begun if isinstance(e, Rolled)}
    whose |= {e.target for e in begun if isinstance(e, ConditionExpired)}
    started = [w for w in started if w in whose] or started  # (several begin: theirs)
    said = sentence(ended, command, names, ruleset, order=order, said_by=said_by)
    return [
        msgspec.structs.replace(part(before.round, before.acting, said, False), view=ended_view),
        part(clock_after.round, [] if set(started) & unseen else started,
             opened[:1].upper() + opened[1:], True),
    ]  # fmt: skip


def lasted_to_a_start(state: Any, expired: ConditionExpired) -> bool:
    """Did the condition last until the start of a turn (or a round, or a count: a turn
    starting), not the end of one?"""
    fighter = getattr(state, "fighters", {}).get(expired.target)
    detail = getattr(fighter, "conditions", {}).get(expired.condition)
    lasting = until_of(detail) if isinstance(detail, dict) else None
    return lasting is not None and lasting.edge != "end"


def public_views(moments: list[Moment], start: View) -> list[tuple[View, int | None]]:
    """The view after each step that its audience may see, and the GM-only step some of its
    standings wait on (a timeline for players already holds only what they may see)."""
    return [(moment.view_after, moment.withheld) for moment in moments]


def select(
    steps: list[ReplayStep],
    *,
    round_: int | None = None,
    turn: str | None = None,
    first: int | None = None,
    last: int | None = None,
) -> list[ReplayStep]:
    """The steps of a round, of one combatant's turn in a round ("2:alice"), or a range."""
    if turn is not None:
        number, sep, who = turn.partition(":")
        if not sep or not (number.isascii() and number.isdigit()) or not who:
            raise BadInputError(
                f"--turn takes ROUND:COMBATANT, like --turn 2:alice; got {said(turn)}"
            )
        round_ = int(number)
        check_took_turns(steps, who, turn)
    chosen = [
        s
        for s in steps
        if (round_ is None or s.round == round_)
        and (turn is None or who in s.acting)
        and (first is None or s.step >= first)
        and (last is None or s.step <= last)
    ]
    if not chosen:
        rounds = sorted({s.round for s in steps})
        raise BadInputError(
            f"no step matches; this encounter has steps 1 to {len(steps)} "
            f"in rounds {rounds[0]} to {rounds[-1]}"
        )
    return chosen


def check_took_turns(steps: list[ReplayStep], who: str, turn: str) -> None:
    """`--turn ROUND:WHO` names one who took a turn in the steps walked (the audience's own:
    a combatant they do not see never acts in them)."""
    acted = list(dict.fromkeys(a for s in steps for a in s.acting))
    if who not in acted:
        guess = closest(who, acted) if acted else None
        hint = f"did you mean {guess}? " if guess else ""
        raise BadInputError(
            f"--turn {turn}: {said(who)} took no turn in this encounter; {hint}turns were "
            f"taken by: {some_of(acted) or 'nobody yet'} (--turn ROUND:COMBATANT)"
        )


def replay(
    encounter: Encounter,
    *,
    round_: int | None = None,
    turn: str | None = None,
    first: int | None = None,
    last: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[ReplayStep]:
    head = encounter.history.head_step
    between = None
    # a range of steps is walked from the nearest snapshot; a range with no step in it
    # is walked whole, for select to name the steps and rounds there are
    windowed = round_ is None and turn is None and first is not None and 1 <= first <= head
    if windowed and (last is None or first <= last):
        between = (first, head if last is None else min(last, head))
    with no_cycle_collection():
        found = timeline(encounter, progress=progress, between=between)
        steps = [moment.step for moment in found]
    return select(steps, round_=round_, turn=turn, first=first, last=last)


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """A whole fight walked builds tens of thousands of objects that are freed by their
    counts alone (none is part of a cycle): Python's cycle collector, which would go over
    every one still held again and again as they pile up, is paused meanwhile (a third of
    the walk's time), and what it made is then filed with the old objects (freeze and
    unfreeze move them there unread) rather than read once more as new. It is left off if
    something else had turned it off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:  # (nothing frozen by another: thawed, only ours move)
            gc.freeze()
            gc.unfreeze()
        gc.enable()


def player_event(event: Event, epochs: frozenset[int]) -> dict[str, Any]:
    """An event's body as the players' JSONL carries it: a revealed seed that would
    re-derive GM-only rolls is withheld."""
    data = msgspec.to_builtins(event)
    if isinstance(event, SeedRevealed) and event.seed_epoch in epochs:
        return {**data, "seed": None, "withheld": True}
    return data
