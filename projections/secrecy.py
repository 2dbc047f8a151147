"""What the players may see of a fight: the one rule, in one place.

The GM keeps two kinds of things from the players: the outcome of a step with GM-only rolls
(`--secret`) until the GM discloses it, and a hidden combatant (`add --hidden`) until the GM
reveals them. The rule, step by step in the order of the log:

1. A hidden combatant is secret in who it is: their id, name, sheet, rolls, row and place
   in the order are left out of everything players see. Their joining is withheld, as a
   step that waits on a secret is, until the reveal (`joins_hidden`): "someone unseen
   joins" told the table an ambush was coming. A step they take part in (they act, are
   acted on) is decided like any other below and shown with them said as "someone
   unseen" (`shown_command`, `visible`): what it did to combatants players see, and
   nothing of what read their sheet (a step naming them shows no roll).
2. An undisclosed secret step is shown as its command alone ("Bob attacks Alice"), *masked*:
   what it decided is GM-only. It is decided again with every other face its rolls could
   have shown, and each outcome folded: the fight's *worlds*. It *taints* exactly what
   differs between them: the combatants whose state differs, and the fight's shared state
   (round, turn, phase, order) if that differs. A check that cannot move the turn taints
   nothing that players see move on.
3. While there are worlds, every later decision is made again in each of them with its
   recorded dice (a decision may read more than it names: the turn passes over whoever is
   down): it is shown when every world decides it as recorded (a ruling on a tainted
   combatant, a pass the turn makes the same way), and *withheld* otherwise. The GM's
   statements are folded into each. Worlds are followed while they are few (at most
   MOST_WORLDS, a step's outcomes found within OUTCOME_BUDGET decisions in all of them, dice
   that do not explode) and until an undo of a withheld step. From then on, a
   secret step taints the combatants its outcomes differ in and, if any, the shared state
   too (past those limits, what the ruleset declares its dice can reach, `Ruleset.reach`,
   or else every combatant and the shared state); a later step is withheld when it reads
   tainted state (names or changes a tainted combatant, or the shared state is tainted
   and it is not one of the GM's statements or rulings), and taints in turn everything
   it named or changed. The turn passing (`next`) reads no combatant that only secrets
   the ruleset declares out of the turn's reach touched: a turn passes alike whatever
   they did (`Ruleset.reach` with shared=False says so, and the kit holds it to that).
4. An undo, redo or supersede is withheld when the step it takes back or restores is.
   Otherwise an undo gives back the state before the step it takes back, whatever its
   rolls gave, and with it the taint (and worlds) of then; a redo those after the step.
5. A free roll (`fracas roll`) reads no state and changes none: it is shown whatever is
   tainted, masked when GM-only or a hidden combatant's (who rolls, or in its reason), and
   taints nothing.
6. Outside the worlds taint never lifts by itself; a disclosure or a reveal lifts it by
   making the step public, and the players' timeline is worked out again from the start.

Players never see what a withheld step is, only that the GM took one there ("a step the
GM has not shown yet"): their steps carry the log's own numbers, so that "step 12" is the
same step at the GM's screen and at the table. (Whether a step is withheld follows from
every outcome the secret could have had, never told apart; that the GM took one is the
GM's doing, known to players as their typing is: a command refused under another outcome
tells that the outcome was not that one, the limit docs/protects.md states.) A tainted
combatant's row stands as players last saw it; with the shared state tainted, the round, the
turn and the order stand as players last saw them, and so does what is left of a condition
("lit (2 rounds left)"), which reads them. Whose state a step changed is found from
the folded state itself (the ruleset's `fighters`, and everything else as the shared state),
so the rule holds for any ruleset without a table of its actions. Everything here is decided
from the GM's flags, from what a step names or changes, and from every outcome a secret could
have had (the actual one among them, never told apart), never from a roll's value.
"""

import hashlib
import itertools
import re
from collections import OrderedDict
from typing import Any

import msgspec

from fracas.ledger import FracasError
from fracas.ledger.history import COMMAND
from fracas.rules.dice import NoDice
from fracas.rules.durations import holding_timed
from fracas.rules.events import (
    CombatantHidden,
    CombatantJoined,
    CombatantRevealed,
    Commanded,
    ConditionCleared,
    ConditionSet,
    Damaged,
    Disclosed,
    EncounterEnded,
    EncounterReopened,
    Event,
    Healed,
    Note,
    Renamed,
    Resolved,
    Rolled,
    SeedRevealed,
    is_secret,
)
from fracas.rules.redecide import ReplayDice, decide_again, every_outcome, same_events
from fracas.rules.roster import fold
from fracas.rules.ruleset import Context, Ruleset
from fracas.rules.timeline import Frame
from fracas.rules.views import InitiativeRow, View, WoundRow

# The GM's words and the fight's end: decided from nothing a roll could change.
STATEMENTS = (Note, Disclosed, CombatantRevealed, SeedRevealed, EncounterEnded, EncounterReopened)
# A GM's ruling on one combatant (rules/gm.py): decided from that combatant alone and
# folded into them alone (the roster's evolvers), whoever's turn it is.
RULINGS = ("gm.condition-set", "gm.condition-clear", "gm.rename")
RULED = (Commanded, ConditionSet, ConditionCleared, Renamed)
FREE_ROLL = "roll"  # `fracas roll`: a roll no rule applies, in every ruleset
PASS = "next"  # the turn passing, in every ruleset
# How many decisions a step's other outcomes may take to find, in all worlds together: d100
# and a damage die are some 700; past it the step taints all it names or changes, as if
# every part could.
OUTCOME_BUDGET = 1200
MOST_WORLDS = 128  # distinct states the fight could be in, followed at once


def budget_in(worlds: int) -> int:
    """The decisions each of `worlds` worlds may take to find a step's outcomes."""
    return OUTCOME_BUDGET // max(1, worlds)


REACH_CACHE = 512  # secret steps whose reach is remembered (a step's reach never changes)
WORLDS_CACHE = 1024  # steps whose worlds are remembered (see Taint.remembered)


class Seen(msgspec.Struct, frozen=True):
    """One step of the log as the players' audience has it."""

    number: int | None  # the step's number (the log's), when players see it; None: withheld
    masked: bool  # shown as its command only: what it decided is GM-only
    source: int | None  # the GM-only step (ledger number) it or the standings wait on
    view: View  # the players' view after it


class Cut(msgspec.Struct, frozen=True):
    """The players' audience of one encounter: every step's fate, by ledger step number."""

    seen: dict[int, Seen]
    hidden: frozenset[str]  # combatants the players do not see at all
    epochs: frozenset[int]  # seed epochs whose reveal would re-derive a GM-only roll
    numbered: bool  # True while nothing is withheld (no step shows as not shown yet)
    witnessed: int  # the last players' step whose head code players may see
    # The first step walked: a walk that starts later (a followed Timeline's) starts after
    # steps players all saw plain, numbered as the log numbers them.
    first: int = 1

    def number(self, step: int | None) -> int | None:
        if step is not None and 1 <= step < self.first:
            return step
        seen = self.seen.get(step) if step is not None else None
        return None if seen is None else seen.number

    def shown(self, step: int) -> bool:
        return self.number(step) is not None

    def reported(self, source: int | None) -> int | None:
        """The players' number of a GM-only step the standings wait on, when players may
        know of it (a secret step is shown masked; a hidden combatant's are not shown)."""
        seen = self.seen.get(source) if source is not None else None
        return seen.number if seen is not None and seen.masked else None


Parts = tuple[dict[str, Any], dict[str, Any]]
_last_parted: tuple[Any, Parts] | None = None  # a step's state after is the next one's before


def parts(state: Any) -> Parts:
    """A state as (each combatant's part, the shared part): the roster contract's `fighters`
    by id, and everything else; a state without `fighters` is all shared. (Read only: the
    last state's parts are handed out again.)"""
    global _last_parted
    last = _last_parted
    if last is not None and last[0] is state:
        return last[1]
    data = msgspec.to_builtins(state)
    fighters = data.pop("fighters", None) if isinstance(data, dict) else None
    found: Parts = ({}, {"state": data}) if not isinstance(fighters, dict) else (fighters, data)
    _last_parted = (state, found)
    return found


class Known:
    """The combatants a step could name, by id and by display name: a string names one when
    it is their id, or carries their id or name as a word ("lurker passed")."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases  # id or name -> id
        self.ids = set(aliases.values())
        words = "|".join(re.escape(a) for a in sorted(aliases, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![\w-])({words})(?![\w-])") if aliases else None
        self._found: dict[str, frozenset[str]] = {}  # text -> whom it names, as read before

    @classmethod
    def of(cls, fighters: dict[str, Any] | set[str]) -> "Known":
        """(The same combatants are known step after step: one Known serves them all.)"""
        aliases = {c: c for c in fighters}
        for combatant, data in fighters.items() if isinstance(fighters, dict) else []:
            name = data.get("name") if isinstance(data, dict) else None
            if isinstance(name, str) and name.strip():
                aliases.setdefault(name, combatant)
        key = frozenset(aliases.items())
        found = _known.get(key)
        if found is None:
            if len(_known) >= KNOWN_CACHE:
                _known.clear()
            found = _known[key] = cls(aliases)
        return found

    def in_text(self, text: str) -> set[str]:
        return set(self.named_by(text))

    def named_by(self, text: str) -> frozenset[str]:
        """Whom `text` names, as read once and kept (not to be changed: shared)."""
        found = self._found.get(text)
        if found is None:
            if len(self._found) >= TEXTS_CACHE:
                self._found.clear()
            found = self._found[text] = frozenset(self._read(text))
        return found

    def _read(self, text: str) -> set[str]:
        if text in self.aliases:
            return {self.aliases[text]}
        if self.pattern is None:
            return set()
        return {self.aliases[word] for word in self.pattern.findall(text)}


KNOWN_CACHE = 256  # casts whose Known is kept (a fight has a few: joins, renames)
TEXTS_CACHE = 8192  # texts a Known remembers reading (ids, kinds, a roll's words recur)
_known: dict[frozenset[tuple[str, str]], Known] = {}


def difference(before: Any, after: Any) -> tuple[Known, set[str], bool]:
    """(every combatant known either side, those whose state changed, shared state changed)."""
    old, old_shared = parts(before)
    new, new_shared = parts(after)
    known = Known.of({**old, **new})
    changed = {c for c in known.ids if old.get(c) != new.get(c)}
    return known, changed, old_shared != new_shared


def named_in(events: list[Event], known: Known | set[str]) -> set[str]:
    """The combatants an event names (as actor, target, holder, or in its words), its
    command included."""
    known = known if isinstance(known, Known) else Known.of(known)
    texts: set[str] = set()
    for event in events:
        data = msgspec.to_builtins(event)
        data.pop("sheet", None)
        texts |= texts_in(data)
    return names_of(texts, known)


def names_in(value: Any, known: Known) -> set[str]:
    return names_of(texts_in(value), known)


def names_of(texts: set[str], known: Known) -> set[str]:
    found: set[str] = set()
    named_by = known.named_by
    for text in texts:
        found |= named_by(text)
    return found


def texts_in(value: Any) -> set[str]:
    """Every string in a value made of lists, dicts and plain values (keys too), however
    deep: walked with a stack of its own, each container once."""
    texts: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts.add(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
    return texts


def command_names(frame: Frame, known: Known) -> set[str]:
    """Who a step's command names: its actor, its targets, the combatant it adds."""
    command = frame.command or {}
    return names_in({k: v for k, v in command.items() if k != "sheet"}, known)


def hidden_at_end(frames: list[Frame]) -> dict[str, int]:
    """Combatants ever joined hidden (their join undone too: it was on the table a while)
    and not revealed by a step in effect: id -> their join step."""
    hidden: dict[str, int] = {}
    for frame in frames:
        for event in frame.events:
            if isinstance(event, CombatantHidden):
                hidden.setdefault(event.combatant, frame.record.step)
    if not hidden:
        return hidden
    for frame in frames:
        for event in frame.events if frame.in_effect else []:
            if isinstance(event, CombatantRevealed):
                hidden.pop(event.combatant, None)
    return hidden


UNSEEN = "someone unseen"  # a hidden combatant, where players see what it did
UNSHOWN = "a step the GM has not shown yet"  # a withheld step, in its place


def visible(
    events: list[Event], hidden: set[str], known: Known, involved: bool = False
) -> list[Event]:
    """A shown step's events as players may read them: what is done to a combatant they
    see, by someone unseen, and nothing else naming a hidden combatant. `involved`: the
    step's command names a hidden combatant, so that any roll or number in it may read
    their sheet (an Armor Class, a save's DC): only what was done is kept, bare."""
    if not hidden:
        return events
    found = (unseen_event(e, hidden, known, involved) for e in events)
    return [e for e in found if e is not None]


DONE = (Damaged, Healed, ConditionSet, ConditionCleared, Resolved)  # what a step did to whom


def unseen_event(
    event: Event, hidden: set[str], known: Known, involved: bool = False
) -> Event | None:
    """An event with every hidden combatant in it made "someone unseen" when it is what was
    done to a combatant players see (damage, healing, a condition, what came of an action on
    them: a `Resolved` outcome in words), its breakdown and detail left out (a damage's
    terms, an outcome's figures: they read the hidden sheet and rolls);
    None for any other event naming a hidden combatant (their rolls, turns, state), and, in
    a step that involves one, for every roll and every event that is not what was done."""
    named = named_in([event], known) & hidden
    if not named and not involved:
        return event
    if not isinstance(event, DONE):
        return None
    unnamed = Known({a: c for a, c in known.aliases.items() if c in hidden})
    if isinstance(event, Resolved):
        if set(event.targets) & hidden:
            return None  # what came of it reads the hidden one's sheet (a hit: its AC)
        if event.actor in hidden and not event.targets:
            return None  # what came of it to the hidden one itself (a wound): their state
        actor = UNSEEN if event.actor in hidden else event.actor
        outcome = redacted(event.outcome, unnamed)  # its figures (`detail`) read their sheet
        found: Event = msgspec.structs.replace(event, actor=actor, outcome=outcome, detail="")
    else:
        if event.target in hidden:
            return None
        data = {k: v for k, v in msgspec.to_builtins(event).items() if k in ("source", "reason")}
        fields = {k: redacted(v, unnamed) for k, v in data.items()}
        if isinstance(event, Damaged):
            fields["breakdown"] = []
        if isinstance(event, ConditionSet):
            fields["detail"] = {}
        found = msgspec.structs.replace(event, **fields)
    return None if named_in([found], known) & hidden else found


def redacted(text: str, unnamed: Known) -> str:
    """`text` with each hidden combatant's id or name made "someone unseen"."""
    if unnamed.pattern is None:
        return text
    return unnamed.pattern.sub(UNSEEN, text)


WHO = ("actor", "combatant", "target")  # a command's fields naming one combatant


def shown_command(frame: Frame, cut: "Cut") -> dict[str, Any] | None:
    """A shown step's command as players read it: when it names a hidden combatant, each
    hidden one made "someone unseen" and nothing kept but who, what and to whom (its
    options read the hidden sheet, or name them)."""
    command = frame.command
    if command is None or not cut.hidden or not involves(frame, set(cut.hidden)):
        return command

    def said(who: Any) -> Any:
        return UNSEEN if who in cut.hidden else who

    shown = {k: said(command[k]) for k in WHO if isinstance(command.get(k), str)}
    targets = [said(t) for t in command.get("targets", []) or []]
    return {**shown, "action": command.get("action"), "targets": targets}


def shown_author(author: str, cut: "Cut") -> str:
    """Who took a step, as players read it: a hidden combatant (`roll --by`) unseen."""
    return UNSEEN if author in cut.hidden else author


def involves(frame: Frame, hidden: set[str], known: Known | None = None) -> bool:
    """Does the step's command name a hidden combatant (as who acts, is acted on, joins,
    or in its words)? A hidden one's id names them even once their join was undone."""
    if not hidden or frame.command is None:
        return False
    if known is None:
        known, _changed, _shared = difference(frame.before, frame.after)
    aware = Known({**known.aliases, **{h: h for h in hidden}})
    return bool(command_names(frame, aware) & hidden)


class Taint:
    """What players cannot know as the log is walked: combatants and the shared state, each
    with the GM-only step it follows from.

    From the first undisclosed secret step on, the walk keeps every state the fight could
    be in (its *worlds*: one for each outcome the secrets could have had, told apart by
    nothing else) and taints exactly what differs between them; a later step that reads
    what differs is decided again in every world and shown when it decides as recorded in
    all. When that cannot be followed (too many outcomes, a withheld step taken back or
    spread past MOST_WORLDS), the taint spreads by what steps name and change.
    """

    def __init__(self, ruleset: Ruleset, context: bytes = b"") -> None:
        self.ruleset = ruleset
        self.combatants: dict[str, int] = {}
        # tainted only by secrets the ruleset declares cannot move a turn (`Ruleset.reach`
        # with shared=False): a turn passes to them, and from them, as in every outcome
        self.turn_free: set[str] = set()
        self.shared: int | None = None
        self.worlds: list[Any] | None = []  # []: one world, the fight; None: not followed
        self.origin = 0  # the secret step the worlds part from
        self.context = context  # what else the walk depends on: disclosures, hidden joins
        self.key = b""  # the worlds' history: what they were made from, step by step

    def remembered(self, op: str, frame: Frame, work: Any) -> Any:
        """`work()` done once for the worlds as they stand and this step: its result and
        the worlds after it are remembered (a page rendered again walks the same steps)."""
        start = self.key if self.worlds else self.context + msgspec.json.encode(frame.before)
        body = msgspec.json.encode([op, frame.record, frame.events])
        key = hashlib.sha256(start + body).digest() + self.ruleset.name.encode()
        found = _worlds_after.get(key)
        if found is None:
            result = work()
            found = (result, self.worlds, dict(self.combatants), self.shared, self.origin)
            _worlds_after[key] = found
            if len(_worlds_after) > WORLDS_CACHE:
                _worlds_after.popitem(last=False)
        else:
            _worlds_after.move_to_end(key)
            result, self.worlds, combatants, self.shared, self.origin = found
            self.combatants = dict(combatants)
            self.turn_free = set()
        self.key = key
        return result

    class Kept(msgspec.Struct, frozen=True):
        """The taint as it stood after a step, to stand again when an undo or a redo gives
        back the state of then."""

        worlds: list[Any] | None
        combatants: dict[str, int]
        turn_free: frozenset[str]
        shared: int | None
        origin: int
        key: bytes

    def kept(self) -> "Taint.Kept":
        if self.untouched():  # (most steps of most fights: kept as one shared record)
            return UNTOUCHED
        worlds = None if self.worlds is None else list(self.worlds)
        combatants, free = dict(self.combatants), frozenset(self.turn_free)
        return Taint.Kept(worlds, combatants, free, self.shared, self.origin, self.key)

    def untouched(self) -> bool:
        """As the walk began: no secret followed, nothing tainted, no history of worlds."""
        return (
            self.worlds == []
            and not self.combatants
            and not self.turn_free
            and self.shared is None
            and self.origin == 0
            and self.key == b""
        )

    def restore(self, kept: "Taint.Kept") -> None:
        self.worlds = None if kept.worlds is None else list(kept.worlds)
        self.combatants, self.turn_free = dict(kept.combatants), set(kept.turn_free)
        self.shared, self.origin, self.key = kept.shared, kept.origin, kept.key

    def tainted(self) -> bool:
        """Whether anything follows from a GM-only step yet (a combatant, the shared state,
        or worlds parted by a secret)."""
        return bool(self.combatants) or self.shared is not None or bool(self.worlds)

    def read(self, who: set[str]) -> int | None:
        sources = [self.combatants[c] for c in who if c in self.combatants]
        return min(sources, default=None)

    def spread(self, who: set[str], shared: bool, source: int) -> None:
        self.worlds = None
        self.turn_free -= who
        for combatant in who:
            self.combatants.setdefault(combatant, source)
        if shared and self.shared is None:
            self.shared = source

    def reached(self, who: set[str], shared: bool, source: int) -> None:
        """A secret step's reach, where its worlds are not followed: spread. A ruleset that
        declares the turn out of its reach (shared=False) declares that every later turn
        passes alike whatever it did (the kit holds it to that), so the turn passing to or
        from whom it alone touched reads nothing of it (`passes_the_turn`)."""
        free = set() if shared else who - self.combatants.keys()
        self.spread(who, shared, source)
        self.turn_free |= free

    def read_by_turn(self, frame: Frame, who: set[str]) -> set[str]:
        """What a step reads of `who`: all of it, but for the turn passing (`next`) while the
        shared state is untainted, whom a secret that cannot move a turn alone touched."""
        if self.shared is None and passes_the_turn(frame):
            return who - self.turn_free
        return who

    def oldest(self, told: set[int]) -> int | None:
        """The earliest of the `told` GM-only steps (those players know of) still felt."""
        if not told:
            return None
        found = {*self.combatants.values(), *([self.shared] if self.shared is not None else [])}
        return min(found & told, default=None)

    def branch(self, frame: Frame) -> bool:
        """Part the worlds by a secret step: every outcome it could have had, in each world.
        False (nothing changed) when there are too many to follow."""
        if self.worlds is None:
            return False
        return self.remembered("branch", frame, lambda: self._branch(frame))

    def _branch(self, frame: Frame) -> bool:
        found = every_world(self.ruleset, frame, self.worlds or [frame.before], refused=False)
        if found is None:
            return False
        self.origin = self.origin if self.worlds else frame.record.step
        self.settle(found)
        return True

    def follow(self, frame: Frame) -> bool | None:
        """A later step decided again in each world with its recorded dice: True (and folded
        into each) when every world decides it as recorded. Otherwise it is withheld (False),
        and each world goes on with every outcome the step could have had there (its dice
        are not the players' to know either), or without it where it is refused; None when
        that is too much to follow."""
        if not self.worlds:
            return None
        return self.remembered("follow", frame, lambda: self._follow(frame))

    def _follow(self, frame: Frame) -> bool | None:
        record, rolls = frame.record, [e.roll for e in frame.events if isinstance(e, Rolled)]
        afters = []
        for state in self.worlds or []:
            ctx = Context(ReplayDice(rolls), record.step, record.author, record.command_id)
            try:
                decided = decide_again(self.ruleset, state, frame.events, ctx, None)
            except FracasError:
                break
            if not same_events(decided, frame.events):
                break
            afters.append(fold(self.ruleset.evolve, state, decided))
        else:
            self.settle(afters)
            return True
        return False if self.spread_worlds(frame) else None

    def spread_worlds(self, frame: Frame) -> bool:
        """Every world goes on with every outcome a withheld step could have had in it."""
        found = every_world(self.ruleset, frame, self.worlds or [], refused=True)
        if found is not None:
            self.settle(found)
        return found is not None

    def advance(self, frame: Frame) -> None:
        """The GM's words: folded into every world."""
        if self.worlds:
            self.remembered("advance", frame, lambda: self._advance(frame))

    def _advance(self, frame: Frame) -> None:
        self.settle([fold(self.ruleset.evolve, w, frame.events) for w in self.worlds or []])

    def settle(self, worlds: list[Any]) -> None:
        unique = {msgspec.json.encode(w): w for w in worlds}
        self.worlds = list(unique.values())
        who, moved = differing([parts(w) for w in self.worlds])
        self.combatants = {c: self.combatants.get(c, self.origin) for c in who}
        self.turn_free = set()
        self.shared = (self.shared or self.origin) if moved else None


UNTOUCHED = Taint.Kept([], {}, frozenset(), None, 0, b"")  # restored by copying, never changed


def every_world(
    ruleset: Ruleset, frame: Frame, worlds: list[Any], *, refused: bool
) -> list[Any] | None:
    """Every state the fight could be in after a step: from each of `worlds`, the step with
    every face its dice could show (`refused`: or refused there, leaving it as it was). None
    past what is followed: more than OUTCOME_BUDGET decisions in all, or MOST_WORLDS states."""
    record = frame.record
    ctx = Context(NoDice(), record.step, record.author, record.command_id)
    found: dict[bytes, Any] = {}
    for world in worlds:
        budget = budget_in(len(worlds))
        outcomes = every_outcome(
            ruleset, world, frame.events, budget, ctx, refused=refused, totals=ruleset.reads_totals
        )
        if outcomes is None:
            return None
        for events in outcomes:
            after = fold(ruleset.evolve, world, events)
            found.setdefault(msgspec.json.encode(after), after)
        if len(found) > MOST_WORLDS:
            return None
    return list(found.values())


def players_cut(frames: list[Frame], ruleset: Ruleset) -> Cut:
    """The players' audience of an encounter walked step by step (see the module's rule)."""
    disclosed = {
        e.step for f in frames if f.in_effect for e in f.events if isinstance(e, Disclosed)
    }
    hidden_joins = hidden_at_end(frames)
    hidden = set(hidden_joins)
    joins = join_order(frames)
    context = msgspec.json.encode([sorted(disclosed), sorted(hidden_joins.items())])
    taint = Taint(ruleset, context)
    seen: dict[int, Seen] = {}
    last: View | None = None
    epochs: set[int] = set()
    witnessed, clean = 0, True
    told: set[int] = set()  # the masked steps: GM-only steps players know of
    around: dict[int, tuple[Taint.Kept, Taint.Kept]] = {}  # each step: the taint before, after
    for frame in frames:
        record = frame.record
        secret = is_secret(frame.events)  # (asked once a step: the checks below read it)
        known, changed, shared = compared(frame, taint, hidden, secret)
        masked, source = False, None
        before = taint.kept()
        if record.control != COMMAND:
            target = seen.get(record.target) if record.target is not None else None
            source = target.source if target is not None and target.number is None else None
            taken = around.get(record.target or 0)
            if taken is not None and record.control in TAKEN_BACK and source is None:
                taint.restore(taken[TAKEN_BACK[record.control]])
            else:
                taint.worlds = None  # not followed: the taint stands as it is
                if source is not None:
                    taint.spread(changed, shared, source)
        else:
            masked, source = judge(
                frame, known, changed, shared, taint, hidden, seen, disclosed, secret
            )
        around[record.step] = (before, taint.kept())
        if joins_hidden(frame, hidden):  # held back like a GM-only step: it would tell
            masked, source = False, source or record.step  # the table one is coming
        withheld = source is not None and not masked
        if withheld or masked:
            epochs |= {e.roll.seed_epoch or 0 for e in frame.events if isinstance(e, Rolled)}
        actual = ruleset.view(frame.after)
        after = players_view(actual, last, taint, hidden, joins)
        if last is None or not withheld:
            last = after
        if withheld:
            clean = False
            seen[record.step] = Seen(None, False, source, last)
            continue
        clean = clean and not masked and not partly(frame, known, hidden)
        if clean:
            witnessed = record.step
        if masked:
            told.add(record.step)
        seen[record.step] = Seen(record.step, masked, taint.oldest(told), after)
    numbered = all(s.number == step for step, s in seen.items())
    first = frames[0].record.step if frames else 1
    return Cut(seen, frozenset(hidden), frozenset(epochs), numbered, witnessed, first)


def joins_hidden(frame: Frame, hidden: set[str]) -> bool:
    """Does a hidden combatant, not revealed since, join in this step? Players see nothing
    of it, not even that someone unseen joins (an ambush told), until the reveal."""
    return bool(hidden) and any(
        isinstance(e, CombatantHidden) and e.combatant in hidden for e in frame.events
    )


NOBODY = Known({})


def compared(
    frame: Frame, taint: Taint, hidden: set[str], secret: bool
) -> tuple[Known, set[str], bool]:
    """The step's `difference` where it can matter. A command step with no GM-only roll,
    while nothing is tainted and nobody is hidden, is shown as it is whoever it names or
    changes (`judge`, `partly`): its states are not compared (the costly part of the walk).
    `secret`: whether the step holds a GM-only roll (`is_secret`)."""
    if hidden or taint.tainted() or frame.record.control != COMMAND or secret:
        return difference(frame.before, frame.after)
    return NOBODY, set(), False


# An undo gives back the state before the step it takes back, a redo the state after it:
# and with it, what players could not know then (the taint before or after that step).
TAKEN_BACK = {"undo": 0, "redo": 1}


def partly(frame: Frame, known: Known, hidden: set[str]) -> bool:
    """Shown with a hidden combatant left out or said as someone unseen: the hash chain
    runs through what players do not see."""
    if not hidden:
        return False
    return involves(frame, hidden, known) or bool(named_in(frame.events, known) & hidden)


def reach(frame: Frame, ruleset: Ruleset, known: Known) -> tuple[set[str], bool]:
    """What a secret step decided where its worlds are not followed: the combatants whose
    state differs between its outcomes, and the shared state whenever anything does (a later
    decision may read any combatant, as the turn passes over whoever is down, and there are
    no worlds to decide it in). With too many outcomes to try, what the ruleset declares
    its dice can reach (`Ruleset.reach`), else every combatant and the shared state: never
    what this one outcome happened to change, which would tell it."""
    key = (ruleset.name, msgspec.json.encode(frame.before), msgspec.json.encode(frame.events))
    if key in _reaches:
        _reaches.move_to_end(key)
        return _reaches[key]
    worlds = every_world(ruleset, frame, [frame.before], refused=False)
    if worlds is not None:
        who, moved = differing([parts(w) for w in worlds])
        found = (who, moved or bool(who))
    else:
        declared = declared_reach(frame, ruleset)
        found = (set(known.ids), True) if declared is None else declared
    _reaches[key] = found
    if len(_reaches) > REACH_CACHE:
        _reaches.popitem(last=False)
    return found


def declared_reach(frame: Frame, ruleset: Ruleset) -> tuple[set[str], bool] | None:
    """What the ruleset says the step's dice can change (`Ruleset.reach`), or None."""
    if ruleset.reach is None or frame.command is None:
        return None
    try:
        command = ruleset.command(frame.command)
    except FracasError:
        return None
    declared = ruleset.reach(frame.before, command)
    if declared is None:
        return None
    if declared.shared:  # the turn may move: every duration that ends at a turn may end
        return set(declared.combatants) | holding_timed(frame.before), True
    return set(declared.combatants), False


_worlds_after: OrderedDict[bytes, tuple[Any, Any, dict[str, int], int | None, int]] = OrderedDict()
_reaches: OrderedDict[tuple[str, bytes, bytes], tuple[set[str], bool]] = OrderedDict()


def differing(states: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[set[str], bool]:
    """The combatants whose part is not the same in every state, and whether the shared
    part is not."""
    first, first_shared = states[0] if states else ({}, {})
    ids = {c for fighters, _shared in states for c in fighters}
    who = {c for c in ids if any(unlike(fighters.get(c), first.get(c)) for fighters, _ in states)}
    return who, any(unlike(shared, first_shared) for _, shared in states)


def unlike(one: Any, two: Any) -> bool:
    """Two parts differ also when they hold the same in another order (a dict's keys, as a
    combatant's conditions): a view may list them in that order."""
    return one != two or msgspec.json.encode(one) != msgspec.json.encode(two)


def judge(
    frame: Frame,
    known: Known,
    changed: set[str],
    shared: bool,
    taint: Taint,
    hidden: set[str],
    seen: dict[int, Seen],
    disclosed: set[int],
    secret_roll: bool,
) -> tuple[bool, int | None]:
    """(masked, the GM-only step it waits on) for a command step; withheld when it waits on
    one and is not masked itself. Spreads the taint of a withheld step. A step by or on a
    hidden combatant is decided like any other: who they are is kept from the players by
    how the step is shown (`shown_command`, `visible`), not by withholding it (their
    joining is withheld apart, `joins_hidden`).
    `secret_roll`: whether the step holds a GM-only roll (`is_secret`)."""
    step = frame.record.step
    events = frame.events
    if all(isinstance(e, STATEMENTS) for e in events):
        told = [seen.get(e.step) for e in events if isinstance(e, Disclosed)]
        source = min((t.source or 0 for t in told if t and t.number is None), default=None)
        taint.advance(frame)
        return False, source
    if free_roll(frame):
        return judge_free_roll(frame, hidden, disclosed, secret_roll)
    if not taint.tainted() and not secret_roll:
        return False, None  # it reads nothing GM-only and decides nothing GM-only: shown
    # Until a step is withheld, nothing is tainted: what this step reads cannot matter (read
    # and spread below ask for it only once something is), and it is the costly part.
    reads = named_in(events, known) | changed if taint.tainted() else set()
    source = taint.read(taint.read_by_turn(frame, reads))
    if source is None and taint.shared is not None and not ruling(frame):
        source = taint.shared
    secret = secret_roll and step not in disclosed
    if secret and taint.branch(frame):
        return True, step
    if taint.worlds and not secret:  # any decision may read what differs: make it in each
        followed = taint.follow(frame)
        if followed is not None:
            return False, None if followed else (source or taint.origin)
        source = taint.origin if source is None else source
    if source is not None:
        taint.spread(reads, shared, source)
        return False, source
    if secret:
        taint.reached(*reach(frame, taint.ruleset, known), step)
        return True, step
    return False, None


def judge_free_roll(
    frame: Frame, hidden: set[str], disclosed: set[int], secret: bool
) -> tuple[bool, int]:
    """A free roll reads nothing tainted and changes nothing: it is shown, or masked when
    GM-only or rolled by (or naming) a hidden combatant, whose rolls are theirs alone."""
    masked = secret and frame.record.step not in disclosed
    masked = masked or involves(frame, hidden)
    return masked, frame.record.step if masked else None


def passes_the_turn(frame: Frame) -> bool:
    """The GM's `next` or a combatant's pass, with no GM-only roll of its own."""
    return (frame.command or {}).get("action") == PASS and not is_secret(frame.events)


def free_roll(frame: Frame) -> bool:
    """A roll no rule applies (`fracas roll`): it reads no state and changes none."""
    return (frame.command or {}).get("action") == FREE_ROLL and all(
        isinstance(e, Commanded | Rolled) for e in frame.events
    )


def ordered(
    shown: list[InitiativeRow], old_rows: dict[str, InitiativeRow], frozen: set[str]
) -> list[InitiativeRow]:
    """The order players see: the rows they may follow in the order as it is now, and each
    tainted one where players last saw it, right after the row it followed then."""
    rows = list(shown)
    if not frozen:
        return rows
    previous: str | None = None
    for combatant, row in old_rows.items():
        if combatant in frozen:
            at = next((n + 1 for n, r in enumerate(rows) if r.combatant == previous), 0)
            rows.insert(at, row)
        previous = combatant
    return rows


def ruling(frame: Frame) -> bool:
    """A GM's ruling on one combatant, which reads no shared state (see RULINGS)."""
    action = (frame.command or {}).get("action")
    return action in RULINGS and all(isinstance(e, RULED) for e in frame.events)


def join_order(frames: list[Frame]) -> dict[str, int]:
    """Each combatant's place in the order they joined: those in the state the walk starts
    from (a walk from a snapshot) as the roster holds them, then each join."""
    start = parts(frames[0].before)[0] if frames else {}
    order = {who: n for n, who in enumerate(start)}
    for frame in frames:
        for event in frame.events:
            if isinstance(event, CombatantJoined):
                order.setdefault(event.combatant, len(order))
    return order


def players_view(
    view: View, last: View | None, taint: Taint, hidden: set[str], joins: dict[str, int]
) -> View:
    """The view players may see: hidden combatants left out, a tainted combatant's row as
    players last saw it, the round, turn and order as last seen when the shared state is
    tainted; the order numbered among the rows shown. The health rows are listed in the
    order the combatants joined, whatever order the ruleset's view gives them: a ruleset
    may list them by an initiative a GM-only roll decided."""
    frozen = set(taint.combatants)
    if not hidden and not frozen and taint.shared is None and as_players_see(view, joins):
        return view  # (most steps of most fights: nothing to leave out or hold back)
    as_last_seen = last is not None and (bool(frozen) or taint.shared is not None)
    old_wounds = {w.combatant: w for w in last.wounds} if as_last_seen else {}
    old_rows = {r.combatant: r for r in last.initiative} if as_last_seen else {}
    wounds: list[WoundRow] = []
    for row in sorted(view.wounds, key=lambda w: (joins.get(w.combatant, len(joins)), w.combatant)):
        if row.combatant in hidden:
            continue
        if row.combatant not in frozen:
            wounds.append(row)
        elif row.combatant in old_wounds:
            wounds.append(old_wounds[row.combatant])
    if taint.shared is not None and last is not None:
        agreed = conditions_agreed(taint, wounds)
        wounds = [
            w
            if agreed.get(w.combatant) == w.conditions
            else timed_as_last_seen(w, old_wounds.get(w.combatant))
            for w in wounds
        ]
        return unnamed_view(msgspec.structs.replace(last, wounds=wounds), hidden, view)
    seen = hidden | frozen
    rows = ordered([r for r in view.initiative if r.combatant not in seen], old_rows, frozen)
    # the turn is not tainted here (else the last view stood whole): who acts now is as the
    # view has it, a tainted row's marker too, so that one row alone is acting
    acting = [a for a in view.acting if a not in hidden]
    rows = [numbered_row(r, n, r.combatant in acting) for n, r in enumerate(rows, start=1)]
    pins = [p for p in view.pins if not {p.holder, p.target} & seen] if seen else list(view.pins)
    pins += [
        p
        for p in (last.pins if last and frozen else [])
        if {p.holder, p.target} & frozen and not {p.holder, p.target} & hidden
    ]
    unseen = not acting and bool(set(view.acting) & hidden)
    # next among those seen; one a secret touched is left out whatever it did to them (a
    # fall it may have dealt takes them out of the order)
    upcoming = [who for who in view.upcoming if who not in seen]
    shown = msgspec.structs.replace(
        view,
        acting=acting,
        initiative=rows,
        wounds=wounds,
        pins=pins,
        unseen=unseen,
        upcoming=upcoming,
    )
    return unnamed_view(shown, hidden, view)


def as_players_see(view: View, joins: dict[str, int]) -> bool:
    """Is the view already as `players_view` would show it with nobody hidden and nothing
    tainted: its health rows in the order the combatants joined, its order numbered from 1
    with the acting rows marked, and nobody unseen acting?"""
    if view.unseen:
        return False
    ranks = [(joins.get(w.combatant, len(joins)), w.combatant) for w in view.wounds]
    if any(a > b for a, b in itertools.pairwise(ranks)):
        return False
    return all(
        row.order == n and row.acting == (row.combatant in view.acting)
        for n, row in enumerate(view.initiative, start=1)
    )


def numbered_row(row: InitiativeRow, order: int, acting: bool) -> InitiativeRow:
    """A row of the players' order, numbered among the rows shown (most already are)."""
    if row.order == order and row.acting == acting:
        return row
    return msgspec.structs.replace(row, order=order, acting=acting)


def conditions_agreed(taint: Taint, wounds: list[WoundRow]) -> dict[str, list[str]]:
    """Each combatant's conditions as its row says them in every state the fight could be
    in (`Taint.worlds`), where all say them alike; asked only of rows that say what is left
    of a condition, which reads the round and the turn."""
    timed = {
        w.combatant for w in wounds if isinstance(w.detail, dict) and w.detail.get("durations")
    }
    if not timed or not taint.worlds:
        return {}
    said: dict[str, list[str]] = {}
    for n, world in enumerate(taint.worlds):
        rows = {w.combatant: w.conditions for w in taint.ruleset.view(world).wounds}
        for who in timed:
            if n == 0:
                said[who] = rows.get(who, [])
            elif who in said and rows.get(who, []) != said[who]:
                del said[who]
    return said


def timed_as_last_seen(row: WoundRow, last: WoundRow | None) -> WoundRow:
    """A row whose conditions say what is left of them ("lit (2 rounds left)", rules/gm.py
    `with_durations`) while the shared state is tainted and the fight's possible states do
    not all say them alike: what is left reads the round and the turn, which players may
    not know, so each condition says it as they last saw it, or not at all."""
    left = row.detail.get("durations") if isinstance(row.detail, dict) else None
    if not left:
        return row
    seen = (last.detail.get("durations") or {}) if last is not None else {}
    conditions = []
    for shown in row.conditions:
        name = next((n for n in left if said_with(shown, n, left[n])), None)
        if name is not None:
            shown = shown.removesuffix(f" ({left[name]['text']})")
            shown = f"{shown} ({seen[name]['text']})" if name in seen else shown
        conditions.append(shown)
    kept = {name: seen[name] for name in left if name in seen}
    return msgspec.structs.replace(
        row, conditions=conditions, detail={**row.detail, "durations": kept}
    )


def said_with(shown: str, name: str, left: dict[str, Any]) -> bool:
    """Is `shown` condition `name` said with what is left of it (`left`)?"""
    return (shown == name or shown.startswith(f"{name} ")) and shown.endswith(f" ({left['text']})")


def unnamed_view(shown: View, hidden: set[str], whole: View) -> View:
    """`shown` with every word naming a hidden combatant (by id, or by their name in
    `whole`) made "someone unseen": a row's status or condition may name them ("declared:
    flee lurker", "grappled by lurker")."""
    if not hidden:
        return shown
    aliases = {h: h for h in hidden}
    aliases |= {w.name: w.combatant for w in whole.wounds if w.combatant in hidden and w.name}
    unnamed = Known(aliases)
    data = msgspec.to_builtins(shown)
    said = said_unseen(data, unnamed)
    return shown if said == data else msgspec.convert(said, View)


def said_unseen(value: Any, unnamed: Known) -> Any:
    if isinstance(value, str):
        return redacted(value, unnamed)
    if isinstance(value, list):
        return [said_unseen(v, unnamed) for v in value]
    if isinstance(value, dict):
        return {k: said_unseen(v, unnamed) for k, v in value.items()}  # keys are fields
    return value


def shown_events(frame: Frame, cut: Cut) -> list[Event]:
    """A shown step's events as players read them: those naming a hidden combatant left
    out or said as done by someone unseen (`visible`), and a disclosure naming the step by
    the players' number."""
    hidden = set(cut.hidden)
    events, against = frame.events, {}
    if hidden:  # (nobody hidden: nothing to leave out, and no state to compare)
        known, _changed, _shared = difference(frame.before, frame.after)
        events = visible(frame.events, hidden, known, involves(frame, hidden, known))
        against = held_by_hidden(frame.before, hidden, known)
    if against:
        events = [
            e
            for e in events
            if not (isinstance(e, Rolled) and any(c in e.purpose for c in against.get(e.actor, ())))
        ]
    return [
        msgspec.structs.replace(e, step=cut.number(e.step) or 0) if isinstance(e, Disclosed) else e
        for e in events
    ]


def held_by_hidden(state: Any, hidden: set[str], known: Known) -> dict[str, set[str]]:
    """Each combatant's conditions whose detail names a hidden combatant (a spell one cast:
    its caster, its DC): a roll against one later (srd's "save ends") reads that combatant's
    sheet, and is left out like the rolls of a step that names them."""
    if not hidden:
        return {}
    fighters, _shared = parts(state)
    aliases = {a: c for a, c in known.aliases.items() if c in hidden}
    unnamed = Known(aliases | {h: h for h in hidden})
    found: dict[str, set[str]] = {}
    for who, data in fighters.items():
        conditions = data.get("conditions") if isinstance(data, dict) else None
        for name, detail in (conditions or {}).items():
            if names_in(detail, unnamed):
                found.setdefault(who, set()).add(name)
    return found
