"""The table's screen: the board, the last lines of the fight and the head code, for one
audience, live or as it stood after any step (the timeline a dispute scrubs through).

The players' screen is built only from what the players' audience may see (the rule is in
`secrecy`): a step with an undisclosed GM-only roll shows as its command alone, a step that
depends on it or involves a hidden combatant is not there at all, a standing it touched
stays as players last saw it, and an NPC's health reads as a descriptor ("bloodied") unless
the GM shows numbers. Nothing on it is derived from a roll the players may not see.
"""

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

import msgspec

from fracas.ledger.history import COMMAND
from fracas.projections.asking import pending
from fracas.projections.board import Board, BoardRow, board, descriptor, unrepeated
from fracas.projections.replay import (
    GM,
    PLAYERS,
    UNSEEN,
    Moment,
    ReplayStep,
    Rule,
    attribution_of,
    stated,
    timeline,
)
from fracas.rules import Encounter, Ruleset
from fracas.rules.gm import over
from fracas.rules.names import and_list
from fracas.rules.views import View, WoundRow

__all__ = ["GM", "PLAYERS", "Screen", "StepDetail", "Timeline", "descriptor", "shown_health"]
LOG_LINES = 14  # the log's lines a screen shows: a TV's column of them
KEPT_MOMENTS = 512  # the GM's moments a timeline keeps folded before it starts again


# a clause that ends saying a combatant's state: "takes 20 (dead)", "is unconscious, dying"
STATED = re.compile(r"(?:\([^()]+\)|\bis [\w ,]+)$")


class LogEntry(msgspec.Struct, frozen=True):
    step: int
    round: int
    sentence: str
    marks: list[str]
    in_effect: bool
    secret: bool
    author: str = ""  # the name of the player who took the step at their phone; "" the GM's
    disclosed: bool = False  # the GM's log: a secret step the players have since been shown
    typed: str = ""  # "dice typed by Alice": not the server's dice
    full: str = ""  # the whole sentence, rolls and all, where `sentence` is its headline
    fell: list[str] = []  # the names of those the step put down, as this audience sees them
    named: list[str] = []  # every combatant's name as this audience sees them

    def pieces(self) -> list[tuple[str, bool]]:
        """The sentence cut where a "down" mark goes: each piece, and whether the one named
        at its end fell: the mark ends the clause where the line names each who fell last,
        the damage that put them down in it ("Orc fails, 8 damage (dead) ⬇ down"; "Orc 1
        takes 10 (dead) ⬇ down, Orc 2 takes 4"), never the line's end after another."""
        cuts = set()
        for name in self.fell:
            found = list(re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", self.sentence))
            if found:  # the mark ends the clause that names them ("…10 (dead)", before ", ")
                cuts.add(self.clause_end(found[-1].end()))
        if not cuts:
            return [(self.sentence, False)]
        bounds = [0, *sorted(cuts)]
        said = [(self.sentence[a:b], True) for a, b in pairwise(bounds)]
        rest = self.sentence[bounds[-1] :]
        return [*said, (rest, False)] if rest else said

    def mark(self, piece: str) -> str:
        """The words after the "⬇" that ends a piece whose last one named fell: "down", or
        none where the piece already says how they fell ("takes 20 (dead)", "is dead"), the
        fall said once (issue 37)."""
        return "" if STATED.search(piece) else "down"

    def clause_end(self, at: int) -> int:
        """Where the clause going on at `at` ends: at the next "; ", or the next ", " that
        opens another's clause (it starts with a name); a ", " that goes on about the same
        one ("fails, 8 damage (dead)") is still theirs."""
        said = self.sentence
        while True:
            ends = [i for i in (said.find(s, at) for s in (", ", "; ")) if i >= 0]
            end = min(ends, default=len(said))
            if end == len(said) or said[end] == ";":
                return end
            rest = said[end + 2 :]
            if any(re.match(rf"{re.escape(n)}(?!\w)", rest) for n in self.named if n):
                return end
            at = end + 2

    def fell_said(self) -> bool:
        """Every one who fell has a mark in the sentence: no mark at the line's end."""
        return bool(self.fell) and sum(f for _, f in self.pieces()) == len(set(self.fell))


class Screen(msgspec.Struct, frozen=True):
    encounter: str
    title: str
    ruleset: str
    audience: str
    step: int  # the step the board stands after
    steps: int  # how many steps the fight has
    live: bool  # the board is the fight as it stands now
    board: Board
    log: list[LogEntry]
    head_code: str
    head_step: int  # the step the head code stands after
    withheld: int | None  # players: the GM-only step the standings wait on
    dice: ReplayStep | None = None  # the latest step the audience sees that rolled and stands
    names: dict[str, str] = {}  # combatant id -> name, for the dice
    deadline: str = ""  # ISO 8601 UTC: when the reaction the fight waits on is due; "": none
    dice_earlier: bool = False  # a later step than `dice`'s rolled none: it is the last roll
    # what the dice box's and the order column's words are, in the ruleset's ("Outcome:
    # each die at or over ..."; `Ruleset.dice_terms`, `terms_said`)
    terms: list[str] = []


def terms_said(terms: Mapping[str, str], dice: ReplayStep | None, board: Board) -> list[str]:
    """Each of the ruleset's `dice_terms` the dice box's rolls or the board's order column
    say, with what it is ("Outcome: each die at or over ..."), in the ruleset's order."""
    if not terms or dice is None:
        return []
    said = " ".join([*(r.result or "" for r in dice.rolls), *(row.key for row in board.rows)])
    return [
        f"{term}: {words}"
        for term, words in terms.items()
        if re.search(rf"\b{re.escape(term)}\b", said, re.IGNORECASE)
    ]


class StepDetail(msgspec.Struct, frozen=True):
    """One step opened for a dispute: its sentence, rolls, modifiers and rule statements."""

    step: ReplayStep
    rules: list[Rule]
    names: dict[str, str]  # combatant id -> name, for the rolls' table
    attribution: str = ""  # the licence's, shown with the rules it covers
    round_word: str = "Round"  # the ruleset's: "Sequence 2"


LASTING = re.compile(r"^(?:under )?(?P<name>.+?) \((?P<left>.+)\)$")


def chip(condition: str) -> str:
    """A condition as a TV's chip beside a name reads it across a room: what it is and what
    is left of it, short ("under bless (9 rounds left, ending at initiative 10)" -> "bless ·
    9 rds"; "under shield (until the start of Ilse's next turn)" -> "shield · to Ilse's
    turn"; "under bless (Maelis's concentration)" -> "bless · by Maelis"); its whole wording is
    the chip's title. One without a duration is itself."""
    found = LASTING.match(condition)
    if not found:
        return condition
    left = found["left"]
    if counted := re.match(r"(\d+) (\w+?)s? left\b", left):
        n, word = int(counted[1]), counted[2]
        unit = {"round": "rd"}.get(word, word)
        return f"{found['name']} · {n} {unit}{'s' if n != 1 else ''}"
    if until := re.match(r"until initiative (\d+)\b", left):
        return f"{found['name']} · to init {until[1]}"
    if held := re.match(r"(.+)'s concentration$", left):  # its duration is on the caster's
        return f"{found['name']} · by {held[1]}"
    if turn := re.match(r"until the (start|end) of (.+?)'s (?:next|current) turn$", left):
        edge = "" if turn[1] == "start" else "end of "
        return f"{found['name']} · to {edge}{turn[2]}'s turn"
    return condition


def health_hidden(wound: WoundRow, players: bool, npc_numbers: bool) -> bool:
    """Players see an NPC's health as a descriptor, unless the GM shows them numbers."""
    return players and not npc_numbers and wound.side != "pc"


def shown_health(wound: WoundRow, players: bool, npc_numbers: bool, ruleset: Ruleset) -> str:
    hidden = health_hidden(wound, players, npc_numbers)
    return descriptor(wound, ruleset) if hidden else wound.health


def players_board(found: Board, view: View, npc_numbers: bool, ruleset: Ruleset) -> Board:
    """NPCs' health as descriptors and their own numbers left off, unless the GM shows them."""
    wounds = {w.combatant: w for w in view.wounds}

    def shown(row: BoardRow) -> BoardRow:
        wound = wounds.get(row.combatant)
        if wound is None or not health_hidden(wound, True, npc_numbers):
            return row
        return msgspec.structs.replace(
            row, health=descriptor(wound, ruleset), numbers={}, bar=None, chips=[]
        )

    return msgspec.structs.replace(found, rows=[shown(r) for r in found.rows])


def said_once(found: Board) -> Board:
    """A page's rows with no status their health or numbers already say ("Dead (12) -3"
    and "dead"): read across a room, a row says each thing once."""
    rows = [
        msgspec.structs.replace(r, status=unrepeated(r.status, r.health, r.numbers))
        for r in found.rows
    ]
    return msgspec.structs.replace(found, rows=rows)


class Timeline:
    """An encounter's steps for one audience, folded once per head and kept: moving the
    scrubber or opening a step reads memory, not the log. The GM's steps are folded a few
    at a time, from the nearest snapshot before them, as the scrubber reaches them; the
    players' are walked whole once, then followed: given the timeline of an earlier head
    (`since`), only the steps after the last one players saw `plain` are walked again, so
    a step costs the same at step 1,000 as at step 50 (see `follows`)."""

    def __init__(
        self,
        live: Encounter,
        title: str,
        audience: str,
        head_codes: Any,
        since: "Timeline | None" = None,
    ) -> None:
        self.encounter, self.title, self.audience = live.id, title, audience
        self.live = live
        self.rules = live.ruleset
        self.ruleset = live.ruleset.name
        self.version = live.version
        self.head = live.history.head_step
        self.start: View = live.ruleset.view(live.ruleset.initial())
        self.head_codes = head_codes  # step -> the head code after it (read on demand)
        self._codes: dict[int, str] = {}
        self._near: dict[int, Moment] = {}  # the GM's moments folded so far (a few windows)
        self._all: list[Moment] | None = None
        self.plain = 0  # players: the steps from the first that they saw as the log has them
        self.walked = 0  # players: how many steps this head walked (the rest were kept)
        if audience == PLAYERS:
            self._all = self._players(live, since)
            final = self._all[-1].view_after if self._all else live.view()
            self._steps = len(self._all)
            self.last_witnessed = max((m.step.step for m in self._all if m.witnessed), default=0)
        else:
            final = live.view()  # the view after the last step, as the table saw it
            self._steps = self.last_witnessed = live.history.head_step
        self.names = {w.combatant: w.name for w in final.wounds}
        self.hidden: frozenset[str] = frozenset()  # what only the GM's page marks
        self.disclosed_by: dict[int, int] = {}
        if audience != PLAYERS:
            self._hidden_and_disclosed(live, since)
        self.disclosed = set(self.disclosed_by)
        self._waited: str | None = None  # `waited_on`, once worked out
        self._deadline = ""  # when the answer `waited_on` names is due ("": no deadline)

    def _hidden_and_disclosed(self, live: Encounter, since: "Timeline | None") -> None:
        """The hidden combatants and the disclosed steps, read from the steps since the
        GM's last timeline when only commands came since (else from the first)."""
        appended = None if since is None else self.appended(since, live)
        if (
            since is not None
            and appended is not None
            and all(r.control == COMMAND for r in appended)
        ):
            self.hidden = frozenset(live.hidden(since.head, since.hidden))
            self.disclosed_by = live.disclosed(since.head, since.disclosed_by)
        else:
            self.hidden = frozenset(live.hidden())
            self.disclosed_by = live.disclosed()

    def _players(self, live: Encounter, since: "Timeline | None") -> list[Moment]:
        """The players' moments: those `since` saw plain kept, the steps after them walked
        (the whole fight when `since` cannot be followed)."""
        head = self.head
        kept = since.plain if since is not None and self.follows(since, live) else 0
        if kept:  # walked from the last plain step: what players saw then is the walk's start
            assert since is not None and since._all is not None
            known = {m.step.step: m.step.headline for m in since._all[:kept]}
            fresh = list(timeline(live, players=True, between=(kept, head), headlines=known))
            names = {w.combatant: w.name for w in fresh[-1].view_after.wounds}
            if all(names.get(c, n) == n for c, n in since.names.items()):
                return self._counted(since._all[:kept], fresh[1:])
        return self._counted([], list(timeline(live, players=True)))

    def _counted(self, kept: list[Moment], fresh: list[Moment]) -> list[Moment]:
        self.walked = len(fresh)
        self.plain = len(kept)
        for moment in fresh:
            if not (moment.plain and moment.ledger == self.plain + 1):
                break
            self.plain += 1
        return kept + fresh

    def follows(self, since: "Timeline", live: Encounter) -> bool:
        """Whether the players' `since` holds for `live` up to its plain steps: the same
        encounter further on, and no step since takes back or restores one of those (a
        step the players saw plain stays as they saw it otherwise; one that is not, a
        secret or a hidden combatant's, is walked again with everything after it, since a
        disclosure or a reveal shows it anew)."""
        appended = self.appended(since, live) if since.audience == PLAYERS else None
        if appended is None:
            return False
        return all(r.control == COMMAND or (r.target or 0) > since.plain for r in appended)

    def appended(self, since: "Timeline", live: Encounter) -> "list[Any] | None":
        """The step records appended since `since`, a timeline of the same encounter and
        audience at an earlier head; None when `since` is not one."""
        same = since.encounter == live.id and since.audience == self.audience
        if not same or since.version > live.version:
            return None
        return live.store.step_records(live.id, since.head + 1)

    @property
    def moments(self) -> list[Moment]:
        """Every step of the audience's timeline."""
        if self._all is None:
            self._all = list(timeline(self.live))
        return self._all

    @property
    def steps(self) -> int:
        return self._steps

    def moment(self, step: int) -> Moment:
        """Step `step` (1 to `steps`) of the timeline."""
        if self._all is not None:
            return self._all[step - 1]
        if step not in self._near:
            if len(self._near) > KEPT_MOMENTS:
                self._near.clear()
            first = max(1, step - LOG_LINES + 1)
            for moment in timeline(self.live, between=(first, step)):
                self._near[moment.step.step] = moment
        return self._near[step]

    def number_of(self, ledger: int) -> int | None:
        """The audience's number of a step of the log; None: players do not see it. The
        newest are looked at first (what a page asks about is recent)."""
        if self._all is None:
            return ledger if 1 <= ledger <= self.steps else None
        for moment in reversed(self._all):
            if moment.ledger == ledger:
                return moment.step.step
            if moment.ledger < ledger:
                return None
        return None

    def public_view(self, step: int) -> tuple[View, int | None]:
        """The view after `step` this audience may see, and the GM-only step it waits on."""
        if not step:
            return self.start, None
        moment = self.moment(step)
        return moment.view_after, moment.withheld

    def witnessed(self, step: int) -> int:
        """The step whose head code this audience may see at `step`: for players, none past
        a step they may not see in full, since the hash chain runs through it."""
        return min(step, self.last_witnessed)

    def screen(self, step: int | None = None, *, npc_numbers: bool = False) -> Screen:
        at = self.steps if step is None else max(0, min(step, self.steps))
        view, withheld = self.public_view(at)
        found = board(self.encounter, self.rules, view, self.hidden)
        if self.audience == PLAYERS:
            found = players_board(found, view, npc_numbers, self.rules)
        found = said_once(found)
        if ended := over(self.rules, view, players=True):  # the table's, in words
            found = msgspec.structs.replace(found, notes=[*found.notes, ended])
        if at == self.steps and (waited := self.waited_on()):
            found = msgspec.structs.replace(found, header=f"{found.header} · {waited}")
        shown = [m.step for m in map(self.moment, range(max(0, at - LOG_LINES) + 1, at + 1))]
        named = sorted({*self.names.values(), UNSEEN}, key=len, reverse=True)
        log = [
            LogEntry(
                s.step,
                s.round,
                s.headline or s.sentence,
                s.marks,
                s.in_effect,
                s.secret,
                self.commanded_by(s),
                s.step in self.disclosed,
                s.typed_by(self.names),
                s.sentence if s.headline and s.headline != s.sentence else "",
                [self._shown_name(w) for w in dict.fromkeys(s.fallen)],
                named,
            )
            for s in shown
            if s.sentence
        ]
        # the last roll stays, headed by its step; once a later step rolled none it is
        # marked the last roll, an earlier step's (unmarked, it was read across the room
        # as the roll just made; emptied, the next table missed it)
        latest = next((s for s in reversed(shown) if s.sentence), None)
        dice = next((s for s in reversed(shown) if s.sentence and s.rolls and s.in_effect), None)
        return Screen(
            self.encounter,
            self.title,
            self.ruleset,
            self.audience,
            at,
            self.steps,
            at == self.steps,
            found,
            log[::-1],
            self.head_code(head) if (head := self.witnessed(at)) else "",
            head,
            withheld,
            dice,
            self.names,
            self._deadline if at == self.steps and self.waited_on() else "",
            dice_earlier=dice is not None and dice is not latest,
            terms=terms_said(self.rules.dice_terms, dice, found),
        )

    def waited_on(self) -> str:
        """Whom an attack waits on now ("waiting on Bob's reaction"), named as this audience
        sees them (a target the players do not see is someone unseen); '' when none.
        Worked out once per head, from the state the timeline's encounter already holds."""
        if self._waited is None:
            self._waited = ""
            players = self.audience == PLAYERS
            number = self.number_of if players else None
            asked = pending(self.live, players=players, number=number)
            if asked is not None and asked.waiting_on:
                names = [self._shown_name(who) for who in asked.waiting_on]
                self._waited = f"waiting on {and_list(names)}'s reaction"
                self._deadline = asked.deadline
        return self._waited

    def author_name(self, who: str) -> str:
        """Who took a step, for its 'by': a combatant's name, someone unseen, or '' when it
        was the GM's, the server's own (a deadline's timeout) or is withheld."""
        return UNSEEN if who == UNSEEN else self.names.get(who, "")

    def commanded_by(self, step: ReplayStep) -> str:
        """Who gave a step's command (`author_name`), or '' when it is the one the sentence
        says acted ("Ilse ends the turn" by Ilse): the line says it already."""
        name = self.author_name(step.author)
        said = step.headline or step.sentence
        if not name or step.author == step.actor:
            return ""
        return "" if re.match(rf"{re.escape(name)}(?!\w)", said, re.I) else name

    def _shown_name(self, who: str) -> str:
        if self.audience == PLAYERS and who not in self.names:
            return UNSEEN
        return self.names.get(who, who)

    def head_code(self, step: int) -> str:
        if step not in self._codes:
            self._codes[step] = self.head_codes(step)
        return self._codes[step]

    def detail(self, step: int) -> StepDetail:
        replayed = self.moment(step).step
        rules = stated(replayed.rules, self.rules)
        attribution = attribution_of(self.rules) if rules else ""
        return StepDetail(replayed, rules, self.names, attribution, self.rules.round_word)
