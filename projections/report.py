"""The session report a GM shares after the game: one document model for one encounter or a
whole file, rendered through Jinja2 templates to Markdown and HTML (or the user's own).

The main line of the fight reads round by round and turn by turn, one sentence per step;
steps taken back (undone, or set aside when a what-if was adopted) fold up where they
happened, so round numbers never restart. The players' report is built from the players'
timeline alone: nothing in it follows from a GM-only roll the GM has not disclosed.
"""

import functools
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

import jinja2
import msgspec
from markupsafe import Markup

from fracas.ledger import BadInputError, LogStore
from fracas.ledger.history import COMMAND
from fracas.projections.describe import author_words
from fracas.projections.replay import (
    GM,
    PLAYERS,
    Feat,
    Moment,
    ReplayStep,
    RollLine,
    Rule,
    attribution_of,
    initiative_order,
    no_cycle_collection,
    public_views,
    stated,
    timeline,
)
from fracas.projections.screen import descriptor, health_hidden, shown_health
from fracas.rules import Encounter, Ruleset
from fracas.rules.encounter import started_event
from fracas.rules.events import CombatantJoined
from fracas.rules.names import and_list
from fracas.rules.views import View, WoundRow

LEVELS = {"unhurt": 1.0, "hurt": 0.7, "bloodied": 0.35, "down": 0.0}
BLOCKS = "▁▂▃▄▅▆▇█"


class Entry(msgspec.Struct, frozen=True):
    """One step of the main line, what was taken back just before it, and its detail."""

    step: ReplayStep
    rules: list[Rule]
    set_aside: list[ReplayStep]  # undone or superseded steps, and the undos that took them
    adopted: bool  # the first step of an adopted what-if, in place of the set-aside ones

    @property
    def taken_back(self) -> str:
        """'2 steps undone here', '8 steps set aside here: the table adopted a what-if'."""
        return taken_back_label(self.set_aside, self.adopted)


def taken_back_label(steps: list[ReplayStep], adopted: bool = False) -> str:
    count = sum(1 for s in steps if s.control == COMMAND)
    counted = f"{count} step{'s' if count != 1 else ''}"
    if adopted:
        return f"{counted} set aside here: the table adopted a what-if"
    return f"{counted} undone here" if count else "an undo and a redo here"


class Turn(msgspec.Struct, frozen=True):
    title: str
    entries: list[Entry]


class StandingRow(msgspec.Struct, frozen=True):
    name: str
    side: str
    health: str
    conditions: list[str]


class RoundBlock(msgspec.Struct, frozen=True):
    number: int
    title: str
    turns: list[Turn]
    standings: list[StandingRow]
    withheld: int | None  # players: the GM-only step the standings at its end wait on


class CastMember(msgspec.Struct, frozen=True):
    combatant: str
    name: str
    side: str
    order: str
    numbers: dict[str, Any]
    start: str
    end: str
    weapons: list[str]


class Fall(msgspec.Struct, frozen=True):
    """A combatant put down, how, and by whom: a combatant's name, "the GM", or "their own
    wounds" when nobody struck them in that step."""

    name: str
    by: str
    round: int
    step: int
    combatant: str = ""
    by_combatant: str = ""  # the id of whoever put them down; "gm"; "" for nobody
    then: str = ""  # how the fall ended, later ("dead: three death save failures")
    then_round: int = 0
    then_step: int = 0
    how: str = ""  # the condition the ruleset set them ("dying", "dead", "out")
    why: str = ""  # the ruleset's reason for it ("dropped to 0 HP", "three death save failures")

    @property
    def cause(self) -> str:
        """ "by Wren", "by the GM"; "" when nobody struck them (the reason says how)."""
        shown = self.by_combatant and self.by_combatant != self.combatant
        return f"by {self.by}" if shown else ""


class Left(msgspec.Struct, frozen=True):
    """A combatant the GM took out of the fight (fled, captured), with the GM's reason."""

    name: str
    reason: str
    round: int
    step: int
    combatant: str = ""


class Tally(msgspec.Struct, frozen=True):
    name: str
    dealt: int
    taken: int | None  # None: their health is hidden from this audience, and so is this


class Highlight(msgspec.Struct, frozen=True):
    step: int
    round: int
    sentence: str


class Summary(msgspec.Struct, frozen=True):
    rounds: int
    steps: int
    fallen: list[Fall]
    left: list[Left]
    tallies: list[Tally]
    criticals: list[Highlight]
    fumbles: list[Highlight]
    longest_round: int | None
    longest_steps: int
    undone: int
    superseded: int
    past: int = 0  # the damage past targets' last points, which the tallies leave out


class ChartLine(msgspec.Struct, frozen=True):
    """One combatant's health over the main line, as SVG geometry and as a text sparkline."""

    name: str
    side: str
    points: str  # "x,y x,y ..." in a 0..width, 0..height box
    area: str
    spark: str
    start: str
    end: str


class Chart(msgspec.Struct, frozen=True):
    width: int
    height: int
    rounds: list[tuple[float, int]]  # (x, number) where each round begins
    lines: list[ChartLine]


class EncounterReport(msgspec.Struct, frozen=True):
    encounter: str
    title: str
    ruleset: str
    ruleset_title: str
    audience: str
    cast: list[CastMember]
    order: list[str]  # the names in initiative order once the fight began
    summary: Summary
    rounds: list[RoundBlock]
    trailing: list[ReplayStep]  # taken back after the last step of the main line
    chart: Chart
    rules: list[Rule]  # every rule the main line cites, once, in the order first cited
    round_word: str = "Round"  # the ruleset's word: "Sequence 2"
    attribution: str = ""  # the rules' licence asks for it wherever they are shown

    @property
    def trailing_label(self) -> str:
        return taken_back_label(self.trailing)


class Report(msgspec.Struct, frozen=True):
    title: str
    audience: str
    encounters: list[EncounterReport]


# -- the main line -------------------------------------------------------------------------


Shown = tuple[View, int | None]  # a view the audience may see, and the step it waits on


def main_line(
    moments: list[Moment], views: list[Shown], ruleset: Ruleset
) -> tuple[list[tuple[Entry, Shown]], list[ReplayStep]]:
    """The steps in effect, in order, each carrying what was taken back just before it and
    the view after it that the audience may see."""
    entries: list[tuple[Entry, Shown]] = []
    pending: list[ReplayStep] = []
    rules: dict[tuple[str, ...], list[Rule]] = {}  # (a long fight cites a few sets, again)
    for moment, view in zip(moments, views, strict=True):
        step = moment.step
        if step.control != COMMAND or not step.in_effect:
            pending.append(step)
            continue
        adopted = bool(pending) and any(p.control == "supersede" for p in pending)
        ids = tuple(step.rules)
        if ids not in rules:
            rules[ids] = stated(step.rules, ruleset)
        entries.append((Entry(step, rules[ids], pending, adopted), view))
        pending = []
    return entries, pending


def standings_of(
    view: View, players: bool, npc_numbers: bool, ruleset: Ruleset
) -> list[StandingRow]:
    return [
        StandingRow(w.name, w.side, shown_health(w, players, npc_numbers, ruleset), w.conditions)
        for w in view.wounds
    ]


def turn_title(acting: list[str], names: dict[str, str]) -> str:
    if not acting:
        return "The table"
    who = and_list(names.get(a, a) for a in acting)
    return who + ("'s turn" if len(acting) == 1 else "")


def round_blocks(
    entries: list[tuple[Entry, Shown]],
    names: dict[str, str],
    players: bool,
    npc_numbers: bool,
    ruleset: Ruleset,
) -> list[RoundBlock]:
    blocks: list[RoundBlock] = []
    turns: list[Turn] = []
    acting, title = None, ""
    told = [
        (part, shown if view is None else (view, shown[1]))
        for entry, shown in entries
        for part, view in by_turn(entry)
    ]
    for index, (entry, (view, withheld)) in enumerate(told):
        number = entry.step.round
        if entry.step.acting != acting:  # (a turn's steps share who acts: titled once)
            acting, title = entry.step.acting, turn_title(entry.step.acting, names)
        if not turns or turns[-1].title != title:
            turns.append(Turn(title, []))
        turns[-1].entries.append(entry)
        last = index + 1 == len(told) or told[index + 1][0].step.round != number
        if last:
            blocks.append(
                RoundBlock(
                    number,
                    "Setting up" if number == 0 else f"{ruleset.round_word} {number}",
                    turns,
                    standings_of(view, players, npc_numbers, ruleset),
                    withheld,
                )
            )
            turns = []
    return blocks


def by_turn(entry: Entry) -> list[tuple[Entry, View | None]]:
    """A step as the report files it: whole, or a `next` that brought something at the
    start of the turn it began in its parts (`ReplayStep.parts`): what came at the end of
    the turn it ended under that turn, with the step's details; the new turn's start under
    the new turn, with its own rolls. Each with the view after it where it is not the
    step's (a round's end before the next round's first turn began)."""
    step = entry.step
    if not step.parts:
        return [(entry, None)]
    ended, *begun = step.parts
    told = [
        msgspec.structs.replace(
            entry,
            step=msgspec.structs.replace(
                step, round=ended.round, acting=ended.acting, sentence=ended.sentence,
                rolls=ended.rolls, marks=ended.marks,
            ),
        )
    ]  # fmt: skip
    for part in begun:
        shown = msgspec.structs.replace(
            step, round=part.round, acting=part.acting, sentence=part.sentence,
            rolls=part.rolls, marks=part.marks, lines=[],
        )  # fmt: skip
        told.append(Entry(shown, [], [], False))
    return [(told[0], ended.view), *((e, None) for e in told[1:])]


# -- the summary ---------------------------------------------------------------------------


def felled_by(by: str, who: str, names: dict[str, str]) -> str:
    if by == "gm":
        return "the GM"
    if not by or by == who:
        return "their own wounds"
    return names.get(by, by)


def ended_fall(
    fallen: list[Fall], who: str, how: str, step: ReplayStep, names: dict[str, str]
) -> list[Fall]:
    """The fallen with `who`'s last fall ended as `how` says, in `step` (put down and out
    in one step is one fall, already said); one already down when the fight began (carried
    in dying) falls here, as `how` says."""
    last = max((n for n, f in enumerate(fallen) if f.combatant == who), default=None)
    if last is None:  # down before this fight's report began (carried in dying): a fall here
        condition, _, why = how.partition(": ")
        return [
            *fallen,
            Fall(names.get(who, who), "", step.round, step.step, who, "", how=condition, why=why),
        ]
    if fallen[last].step == step.step:
        return fallen
    ended = msgspec.structs.replace(fallen[last], then=how, then_round=step.round,
                                    then_step=step.step)  # fmt: skip
    return [*fallen[:last], ended, *fallen[last + 1 :]]


def feats_said(
    step: ReplayStep, fact: str, names: dict[str, str], hidden: frozenset[str] = frozenset()
) -> list[str]:
    """Each critical (or fumble) of a step alone: "Brannoc's attack on Goblin boss: 18
    damage", the damage rolled, and what it took where that is less (but of those whose
    health is `hidden`); the step's sentence where its rolls name none (marked so by other
    means)."""
    said = []
    for feat in step.feats:
        if feat.fact != fact:
            continue
        who = names.get(feat.who, feat.who)
        text = f"{who}'s {feat.action}" if feat.action else who
        whom = and_list(names.get(w, w) for w in feat.whom if w != feat.who)
        text = f"{text} on {whom}" if whom else text
        said.append(f"{text}: {damage_said(feat, hidden)}" if feat.rolled else text)
    return said or [step.sentence]


def damage_said(feat: Feat, hidden: frozenset[str]) -> str:
    """A feat's damage as rolled, and the health it took where less: "19 damage (16 of it
    taken, the rest past 0)"."""
    said = f"{feat.rolled} damage"
    if feat.damage >= feat.rolled or hidden & set(feat.whom):
        return said
    if not feat.damage:
        return f"{said} (none taken: at 0 already)"
    return f"{said} ({feat.damage} of it taken, the rest past 0)"


def summarise(
    entries: list[Entry],
    trailing: list[ReplayStep],
    names: dict[str, str],
    hidden: frozenset[str] = frozenset(),
) -> Summary:
    """The fight in figures; `hidden`, those whose health the audience sees in words only:
    the damage they took, summed, would tell it."""
    dealt: dict[str, int] = dict.fromkeys(names, 0)
    taken: dict[str, int] = dict.fromkeys(names, 0)
    fallen: list[Fall] = []
    left: list[Left] = []
    per_round: dict[int, int] = {}
    past = 0
    for entry in entries:
        step = entry.step
        if step.round:
            per_round[step.round] = per_round.get(step.round, 0) + 1
        for harm in step.harm:
            if harm.who in dealt:
                dealt[harm.who] += harm.amount
            taken[harm.whom] = taken.get(harm.whom, 0) + harm.amount
            past += 0 if harm.whom in hidden else harm.past  # it would tell their health
        for who in step.fallen:
            by = step.felled_by.get(who, "")
            shown = felled_by(by, who, names)
            how, why = step.fell_as.get(who, ("", ""))
            fallen.append(
                Fall(names.get(who, who), shown, step.round, step.step, who, by, how=how, why=why)
            )
        for who, how in step.ended.items():
            fallen = ended_fall(fallen, who, how, step, names)
        left += [
            Left(names.get(d.combatant, d.combatant), d.reason, step.round, step.step, d.combatant)
            for d in step.departed
        ]
    set_aside = [s for e in entries for s in e.set_aside] + trailing
    commands = [s for s in set_aside if s.control == COMMAND]
    longest = max(per_round.items(), key=lambda kv: kv[1], default=(None, 0))

    def noted(mark: str) -> list[Highlight]:
        return [
            Highlight(e.step.step, e.step.round, said)
            for e in entries
            if mark in e.step.marks
            for said in feats_said(e.step, mark, names, hidden)
        ]

    return Summary(
        max(per_round, default=0),
        len(entries),
        fallen,
        left,
        [Tally(names[c], dealt[c], None if c in hidden else taken.get(c, 0)) for c in names],
        noted("critical"),
        noted("fumble"),
        longest[0],
        longest[1],
        sum(1 for s in commands if s.taken_back_as != "supersede"),
        sum(1 for s in commands if s.taken_back_as == "supersede"),
        past,
    )


# -- the cast and the chart ----------------------------------------------------------------


def fight_order(views: list[View]) -> dict[str, str]:
    """Each combatant's place in the initiative, in order: as the fight began, with each
    who joined it later put where they first had a place (their key: "init 14")."""
    at = begun_at(views)
    found = {row.combatant: row.key for row in sorted(views[at].initiative, key=lambda r: r.order)}
    for view in views[at + 1 :]:
        if all(row.combatant in found or not row.key for row in view.initiative):
            continue  # (most steps: nobody new has a place)
        ranked = initiative_order(view)
        for at, who in enumerate(ranked):
            row = next(r for r in view.initiative if r.combatant == who)
            if who in found or not row.key:
                continue
            ahead = next((w for w in reversed(ranked[:at]) if w in found), None)
            order = list(found)
            place = order.index(ahead) + 1 if ahead is not None else 0
            order.insert(place, who)
            found = {w: found.get(w, row.key) for w in order}
    return found


def begun_at(views: list[View]) -> int:
    """The index of the first view of the fight proper (the last one if it never began)."""
    return next((i for i, v in enumerate(views) if v.phase != "setup"), len(views) - 1)


def begun(views: list[View]) -> View:
    """The first view of the fight proper (the last one if it never began)."""
    return views[begun_at(views)]


def cast_of(
    live: Encounter,
    views: list[View],
    players: bool,
    npc_numbers: bool,
    order: dict[str, str] | None = None,
) -> list[CastMember]:
    """Everyone who fought: their order once the fight began (or they joined it; `order`,
    the views' `fight_order` if already found), health at the start (as the fight began: a
    party member as carried in, not as their sheet reads; or as they joined it later) and
    end."""
    order = fight_order(views) if order is None else order
    first: dict[str, WoundRow] = {}
    for view in views[begun_at(views) :]:
        if any(w.combatant not in first for w in view.wounds):  # (most views: nobody new)
            for w in view.wounds:
                first.setdefault(w.combatant, w)
    sheets = {e.combatant: e.sheet for e in joins(live)}
    cast = []
    for end in views[-1].wounds:
        wound = first.get(end.combatant, end)
        hidden = health_hidden(wound, players, npc_numbers)
        sheet = sheets.get(wound.combatant, {})
        cast.append(
            CastMember(
                wound.combatant,
                end.name,
                wound.side,
                order.get(wound.combatant, ""),
                {} if hidden else live.ruleset.numbers_of(wound),
                shown_health(wound, players, npc_numbers, live.ruleset),
                shown_health(end, players, npc_numbers, live.ruleset),
                live.ruleset.weapons_of(sheet),
            )
        )
    return cast


def joins(live: Encounter) -> list[CombatantJoined]:
    """The encounter's joins, decoding no other event (the timeline has read them all)."""
    kind = CombatantJoined.__struct_config__.tag
    return [
        live.ruleset.decode(kind, schema, body)
        for schema, body in live.store.bodies_of_kind(live.id, kind)
    ]


def fraction(
    wound: WoundRow, players: bool, npc_numbers: bool, most: int, ruleset: Ruleset
) -> float:
    if health_hidden(wound, players, npc_numbers):
        return LEVELS[descriptor(wound, ruleset)]
    if wound.counts == "left":
        top = wound.maximum or most or 1
        return max(0.0, min(1.0, wound.current / top))
    top = wound.maximum or most or 1
    return max(0.0, 1.0 - min(1.0, wound.current / top))


def fight_only(views: list[View], rounds: list[int]) -> tuple[list[View], list[int]]:
    """The views from the fight's beginning on (setting up is not part of the chart)."""
    begun = next((i for i, v in enumerate(views) if v.phase != "setup"), 0)
    return views[begun:] or views, rounds[begun:] or [0]


def chart_of(
    views: list[View], rounds: list[int], players: bool, npc_numbers: bool, ruleset: Ruleset
) -> Chart:
    width, height = 600, 48
    span = max(1, len(views) - 1)
    xs = [round(i * width / span, 1) for i in range(len(views))]
    texts = [str(x) for x in xs]
    series: defaultdict[str, tuple[list[str], list[WoundRow]]] = defaultdict(lambda: ([], []))
    for x, view in zip(texts, views, strict=True):  # each one's rows, as first seen
        for w in view.wounds:
            at, rows = series[w.combatant]
            at.append(x)
            rows.append(w)
    lines = [
        health_line(at, rows, height, players, npc_numbers, ruleset) for at, rows in series.values()
    ]
    starts = []
    for i, number in enumerate(rounds):
        if number and (i == 0 or rounds[i - 1] != number):
            starts.append((xs[i], number))
    return Chart(width, height, starts, lines)


def health_line(
    xs: list[str],
    rows: list[WoundRow],
    height: int,
    players: bool,
    npc_numbers: bool,
    ruleset: Ruleset,
) -> ChartLine:
    """One combatant's line on the chart: their rows and where each is (`xs`, the x of
    its step as the chart says it)."""
    most = max([w.current for w in rows])
    values = health_levels(rows, players, npc_numbers, most, ruleset)
    ys = {v: str(round(height - v * height, 1)) for v in set(values)}
    points = " ".join([f"{x},{ys[v]}" for x, v in zip(xs, values, strict=True)])
    area = f"{xs[0]},{height} {points} {xs[-1]},{height}"
    blocks = {v: BLOCKS[min(7, int(v * 7.999))] for v in ys}
    latest = rows[-1]
    return ChartLine(
        latest.name,
        latest.side,
        points,
        area,
        "".join([blocks[v] for v in values]),
        shown_health(rows[0], players, npc_numbers, ruleset),
        shown_health(latest, players, npc_numbers, ruleset),
    )


def health_levels(
    series: list[WoundRow], players: bool, npc_numbers: bool, most: int, ruleset: Ruleset
) -> list[float]:
    """Each row's `fraction`, worked out again only where the row changed (most steps
    leave a combatant as they were)."""
    levels: list[float] = []
    last: tuple[Any, ...] = ()
    level = 0.0
    for w in series:
        key = (w.current, w.maximum, w.counts, w.side, w.conditions)
        if key != last:
            level, last = fraction(w, players, npc_numbers, most, ruleset), key
        levels.append(level)
    return levels


# -- building it ---------------------------------------------------------------------------


def encounter_report(
    store: LogStore,
    name: str,
    *,
    players: bool = False,
    npc_numbers: bool = False,
    progress: Callable[[int], None] | None = None,
) -> EncounterReport:
    live = Encounter(store, name)
    moments = list(
        timeline(
            live,
            players=players,
            progress=progress,
            with_standings=False,  # the report shows the whole view at each round's end
            with_headlines=False,  # and each step's sentence, never its short line
            with_commands=False,  # and what it did, never the command in the log's names
        )
    )
    final = moments[-1].view_after if players and moments else live.view()
    names = {w.combatant: w.name for w in final.wounds}  # players: those they may see
    hidden = frozenset(w.combatant for w in final.wounds if health_hidden(w, players, npc_numbers))
    start = live.ruleset.view(live.ruleset.initial())
    pairs, trailing = main_line(moments, public_views(moments, start), live.ruleset)
    rounds = round_blocks(pairs, names, players, npc_numbers, live.ruleset)
    entries = [entry for entry, _shown in pairs]
    shown = [view for _entry, (view, _held) in pairs] or [start]
    started = started_event(store, name)
    order = fight_order(shown)
    return EncounterReport(
        name,
        started.title or name,
        live.ruleset.name,
        live.ruleset.title,
        PLAYERS if players else GM,
        cast_of(live, shown, players, npc_numbers, order),
        [names.get(c, c) for c in order],
        summarise(entries, trailing, names, hidden),
        rounds,
        trailing,
        chart_of(
            *fight_only(shown, [e.step.round for e in entries]),
            players,
            npc_numbers,
            live.ruleset,
        ),
        cited(entries),
        live.ruleset.round_word,
        attribution_of(live.ruleset),
    )


def cited(entries: list[Entry]) -> list[Rule]:
    """Each rule the main line cites, once. (Steps citing the same rules share their list,
    `main_line`: each list is read once.)"""
    found: dict[str, Rule] = {}
    lists: set[int] = set()
    for entry in entries:
        if id(entry.rules) not in lists:
            lists.add(id(entry.rules))
            found.update((rule.id, rule) for rule in entry.rules)
    return list(found.values())


def report(
    store: LogStore,
    encounters: list[str],
    *,
    players: bool = False,
    npc_numbers: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    found = []
    total = sum(store.head(name).step for name in encounters)
    done = 0
    for name in encounters:
        tick = None if progress is None else lambda step, d=done: progress(d + step, total)
        with no_cycle_collection():
            found.append(
                encounter_report(
                    store, name, players=players, npc_numbers=npc_numbers, progress=tick
                )
            )
        done += store.head(name).step
    title = found[0].title if len(found) == 1 else "A session of fracas"
    return Report(title, PLAYERS if players else GM, found)


# -- rendering -----------------------------------------------------------------------------

_MD_SPECIALS = "*_~|<>`[]#"
_MD_SPECIAL = re.compile("[" + re.escape(_MD_SPECIALS) + "]").search


def md(text: object) -> str:
    """Text made inert in Markdown: what a name says is shown, never obeyed. (Each special
    character is escaped by its own replace: far quicker than a translation table, and the
    same, as an escape adds a backslash, which is not one of them.)"""
    said = str(text)
    if _MD_SPECIAL(said) is None:  # (most texts: one search, not a scan a character)
        return said
    for special in _MD_SPECIALS:
        if special in said:
            said = said.replace(special, "\\" + special)
    return said


def md_join(items: Iterable[object], separator: str) -> str:
    """Each item made inert in Markdown (`md`), joined: a footnote's lines in one call."""
    if not inert_in_md(separator):
        return separator.join(map(md, items))
    return md(separator.join(map(str, items)))  # (escaped at once: the same, and quicker)


@functools.lru_cache(maxsize=64)  # (a template joins with a few separators, again and again)
def inert_in_md(text: str) -> bool:
    """Does `text` hold no character Markdown would obey?"""
    return not any(special in text for special in _MD_SPECIALS)


_DIE = ('<span class="die dropped" title="dropped">', '<span class="die" title="kept">')
_NEEDS_ESCAPE = re.compile("[&<>'\"]").search


_HTML_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&#39;"), ('"', "&#34;"))


def _cell(text: str) -> str:
    """Text escaped for HTML as Jinja escapes it (markupsafe's five entities, `&` first),
    as plain text: most cells hold nothing to escape, and none is made a Markup."""
    if not _NEEDS_ESCAPE(text):
        return text
    for special, entity in _HTML_ESCAPES:
        text = text.replace(special, entity)
    return text


def roll_rows(rolls: Iterable[RollLine], names: dict[str, str]) -> Markup:
    """The rows of a step's rolls table in the HTML report, the same, byte for byte, as the
    template wrote them: escaping every cell and die through Jinja cost the report as much
    as the replay it is made from."""
    return Markup(roll_rows_html(rolls, names))


def roll_rows_html(rolls: Iterable[RollLine], names: dict[str, str]) -> str:
    """`roll_rows` as plain text, for a step's item to take in. (Numbers need no escaping.)"""
    rows = []
    for r in rolls:
        if r.kept:
            faces = "".join([f"{_DIE[counts]}{face}</span>" for face, counts in r.marked()])
        else:  # (most rolls: every die counts)
            faces = "".join([f"{_DIE[True]}{face}</span>" for face in r.faces])
        target = "" if r.target is None else r.target
        cells = (names.get(r.actor, r.actor), r.purpose, r.dice, r.result or "", str(r.counter))
        if _NEEDS_ESCAPE("".join(cells)):  # (most rows: one search, not one a cell)
            cells = tuple(map(_cell, cells))
        actor, purpose, dice, result, counter = cells
        source = f"typed by {_cell(r.typist(names))}" if r.typed() else f"seeded #{counter}"
        if r.served:  # "typed by Brannoc; 1 d8 rolled by the server (seeded #4.rest.0)"
            source += f"; {r.served_words()} (seeded #{counter})"
        rows.append(
            f"<tr><td>{actor}</td><td>{purpose}</td>"
            f'<td>{dice}</td><td>{faces}</td><td class="n">{r.total}</td>'
            f'<td class="n">{target}</td><td>{result}</td><td>{source}</td></tr>\n'
        )
        if r.modifiers:
            modifiers = "; ".join([_cell(m) for m in r.modifiers])
            rows.append(f'<tr><td colspan="8">Modifiers: {modifiers}</td></tr>')
    return "".join(rows)


def step_opening(entry: Entry, names: dict[str, str]) -> Markup:
    """A step's list item in the HTML report up to its details: its marks as classes and
    badges, its number, sentence and typist (made here for speed, as `roll_rows`)."""
    return Markup(opening_html(entry, names))


def opening_html(entry: Entry, names: dict[str, str]) -> str:
    """`step_opening` as plain text, for a step's item to take in."""
    step = entry.step
    marks = [_cell(mark) for mark in step.marks]
    classes = " ".join(marks) + (" adopted" if entry.adopted else "")
    badges = "".join([f'<span class="badge">{mark}</span>' for mark in marks])
    typed = step.typed_by(names)
    if typed:
        badges += f'<span class="badge typed">&#9998; {_cell(typed)}</span>'
    return (
        f'<li class="step {classes}"><span class="num">{step.step}</span> '
        f'<span class="sentence">{_cell(step.sentence)}</span>{badges}'
    )


ROLLS_HEAD = (
    '<div class="wide"><table class="rolls">\n<tr><th>Who</th><th>For</th><th>Dice</th>'
    "<th>Faces</th><th>Total</th><th>Against</th><th>Result</th><th>Source</th></tr>\n"
)


def turn_lists(turns: list[Turn], names: dict[str, str]) -> Markup:
    """A round's turns in the HTML report, each titled, its steps listed (`step_items`)."""
    return Markup(
        "".join(
            [
                f"<h3>{_cell(t.title)}</h3>\n"
                f'<ol class="steps">\n{step_items(t.entries, names)}</ol>\n'
                for t in turns
            ]
        )
    )


def step_items(entries: list[Entry], names: dict[str, str]) -> Markup:
    """A turn's steps as the HTML report's list items, each after what was taken back just
    before it: one call for the whole turn, not a template loop a step (the same text)."""
    return Markup("".join([set_aside_item(e) + step_item(e, names) for e in entries]))


def list_items(lines: list[str]) -> str:
    """Lines as the HTML report's list items, escaped as Jinja escapes them: joined by a
    NUL, which escaping leaves as it is, and escaped at once (the same, and quicker) unless
    a line holds a NUL of its own."""
    joined = "\0".join(lines)
    if joined.count("\0") != len(lines) - 1:
        return "".join([f"<li>{_cell(line)}</li>" for line in lines])
    return "<li>" + str(_cell(joined)).replace("\0", "</li><li>") + "</li>"


def set_aside_item(entry: Entry) -> str:
    """The steps taken back just before a step, folded up in the HTML report."""
    if not entry.set_aside:
        return ""
    taken = "".join(
        [
            f'<li><span class="num">{x.step}</span> '
            + (f"<del>{_cell(x.sentence)}</del>" if x.control == COMMAND else _cell(x.sentence))
            + "</li>"
            for x in entry.set_aside
        ]
    )
    return (
        f'<li><details class="set-aside"><summary>{_cell(entry.taken_back)}</summary>\n'
        f"<ol>{taken}</ol>\n</details></li>\n"
    )


def step_item(entry: Entry, names: dict[str, str]) -> str:
    """A step's list item in the HTML report: its opening, then its rolls, lines and rules
    folded up under it."""
    step = entry.step
    opening = opening_html(entry, names)
    if not step.lines and not step.rolls:
        return f"{opening}</li>\n"
    rolls = f"{ROLLS_HEAD}{roll_rows_html(step.rolls, names)}</table></div>\n" if step.rolls else ""
    lines = f"<ul>{list_items(step.lines)}</ul>" if step.lines else ""
    rules = rules_paragraph(entry.rules) if entry.rules else ""
    summary = "rolls and rules" if step.rolls else "details"
    return (
        f'{opening}<details class="more"><summary>{summary}</summary>\n{rolls}\n'
        f"{lines}\n{rules}</details>\n</li>\n"
    )


def round_marks(chart: Chart) -> Markup:
    """The dashed line where each round begins, on a health chart of the HTML report."""
    return Markup(
        "".join(
            [
                f'<line x1="{x}" y1="0" x2="{x}" y2="{chart.height}" stroke="#bbb" '
                'stroke-dasharray="2 3" vector-effect="non-scaling-stroke"/>\n'
                for x, _number in chart.rounds
            ]
        )
    )


def rules_paragraph(rules: list[Rule]) -> Markup:
    """The rules a step cites, as the HTML report's paragraph (each statement on hover)."""
    return _rules_paragraph(tuple(rules))


@functools.lru_cache(maxsize=1024)  # a fight cites a few sets of rules, again and again
def _rules_paragraph(rules: tuple[Rule, ...]) -> Markup:
    cited = ", ".join(
        [
            f'<abbr title="{_cell(rule.statement)}">{_cell(rule.id)}</abbr>'
            if rule.statement
            else _cell(rule.id)
            for rule in rules
        ]
    )
    return Markup(f'<p class="rules">Rules: {cited}</p>')


def standing_rows(standings: list[StandingRow]) -> Markup:
    """The HTML report's rows of the standings at a round's end, escaped."""
    return Markup("".join([standing_row(w.name, w.side, w.health, w.conditions)
                           for w in standings]))  # fmt: skip


def standing_row(name: str, side: str, health: str, conditions: list[str]) -> str:
    """A row of the standings in the HTML report, escaped (looked at once a row for
    anything to escape: most hold nothing)."""
    cells = (name, side, health, ", ".join(conditions))
    if _NEEDS_ESCAPE("".join(cells)) is not None:
        cells = (*map(_cell, cells[:3]), ", ".join([_cell(c) for c in conditions]))
    name, side, health, said = cells
    return f"<tr><td>{name}</td><td>{side}</td><td>{health}</td><td>{said}</td></tr>\n"


def md_turns(turns: list[Turn], names: dict[str, str], encounter: int) -> str:
    """A round's turns in the Markdown report, each titled, its steps listed (`md_steps`)."""
    return "".join(
        [f"\n### {md(t.title)}\n\n{md_steps(t.entries, names, encounter)}" for t in turns]
    )


def md_standing_rows(standings: list[StandingRow]) -> str:
    """The Markdown report's rows of the standings at a round's end, made inert."""
    return "".join([md_standing_row(w.name, w.side, w.health, ", ".join(w.conditions))
                    for w in standings])  # fmt: skip


def md_standing_row(name: str, side: str, health: str, conditions: str) -> str:
    """A row of the standings, its cells made inert (most hold nothing to escape: looked
    for once a row, not once a cell)."""
    if _MD_SPECIAL(name + side + health + conditions) is not None:
        name, side, health, conditions = md(name), md(side), md(health), md(conditions)
    return f"| {name} | {side} | {health} | {conditions} |\n"


def md_steps(entries: list[Entry], names: dict[str, str], encounter: int) -> str:
    """A turn's lines in the Markdown report, each step after what was taken back just
    before it: one call for the whole turn, not a template loop a step (the same text)."""
    return "".join([md_set_aside(e) + md_step(e, names, encounter) + "\n" for e in entries])


def md_set_aside(entry: Entry) -> str:
    """The steps taken back just before a step, folded up in the Markdown report."""
    if not entry.set_aside:
        return ""
    lines = "".join([f"- {x.step}. {md_taken_back(x)}\n" for x in entry.set_aside])
    return f"<details><summary>{entry.taken_back}</summary>\n\n{lines}</details>\n\n"


def md_taken_back(step: ReplayStep) -> str:
    """A step taken back, struck through when it was a command (an undo is not)."""
    return f"~~{md(step.sentence)}~~" if step.control == COMMAND else md(step.sentence)


def md_footnotes(rounds: list[RoundBlock], encounter: int) -> str:
    """The footnotes of every step with details, in the order of the main line."""
    return "".join(
        [
            md_footnote(entry, encounter) + "\n"
            for block in rounds
            for turn in block.turns
            for entry in turn.entries
            if entry.step.lines
        ]
    )


def md_step(entry: Entry, names: dict[str, str], encounter: int) -> str:
    """A step's line in the Markdown report: its number, its sentence (in bold with its
    marks when it has any), who typed its dice, and its footnote's mark when it has details
    (made here for speed, as the HTML report's `step_opening`)."""
    step = entry.step
    sentence = md(step.sentence)
    line = f"**{sentence}** ({', '.join(step.marks)})" if step.marks else sentence
    typed = step.typed_by(names)
    if typed:
        line += f" *({md(typed)})*"
    if step.lines:
        line += f"[^{encounter}-{step.step}]"
    return f"- {step.step}. {line}"


def md_footnote(entry: Entry, encounter: int) -> str:
    """A step's details as the Markdown report's footnote: who gave it, its lines, the
    rules it cites."""
    step = entry.step
    rules = f"; rules {', '.join(step.rules)}" if entry.rules else ""
    said = md_join(step.lines, "; ")
    by = md(author_words(step.author))
    return f"[^{encounter}-{step.step}]: Step {step.step}, by {by}: {said}{rules}"


def environment(loader: jinja2.BaseLoader, html: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=loader,
        autoescape=html,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = md
    env.filters["md_join"] = md_join
    env.filters["md_step"] = md_step
    env.filters["md_footnote"] = md_footnote
    env.filters["md_steps"] = md_steps
    env.filters["md_turns"] = md_turns
    env.filters["md_standing_rows"] = md_standing_rows
    env.filters["turn_lists"] = turn_lists
    env.filters["round_marks"] = round_marks
    env.filters["md_footnotes"] = md_footnotes
    env.filters["step_items"] = step_items
    env.filters["roll_rows"] = roll_rows
    env.filters["step_opening"] = step_opening
    env.filters["rules_paragraph"] = rules_paragraph
    env.filters["standing_rows"] = standing_rows
    return env


@functools.cache
def built_in(fmt: str) -> jinja2.Template:
    """A built-in template, compiled once a process."""
    loader = jinja2.PackageLoader("fracas.projections", "templates")
    return environment(loader, fmt == "html").get_template(f"report.{fmt}")


def template_for(fmt: str, template: str | Path | None) -> jinja2.Template:
    """The built-in template of a format, or the user's own file (autoescaped if .html)."""
    if template is None:
        return built_in(fmt)
    path = Path(template)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInputError(f"cannot read the template {path}: {error}") from None
    html = path.suffix.lower() in (".html", ".htm", ".xml", ".svg")
    try:
        return environment(jinja2.BaseLoader(), html).from_string(text)
    except jinja2.TemplateSyntaxError as error:
        raise BadInputError(
            f"the template {path} does not parse: {error.message} (line {error.lineno})"
        ) from None


RENDER_PIECES = 4096  # pieces of the rendered report joined into one write


def render(found: Report, fmt: str, out: IO[str], template: str | Path | None = None) -> None:
    chosen = template_for(fmt, template)
    try:
        with no_cycle_collection():
            pieces = chosen.generate(report=found)
            # (taken and joined by C code: Jinja's own buffered stream goes piece by piece)
            while chunk := list(itertools.islice(pieces, RENDER_PIECES)):
                out.write("".join(chunk))
    except jinja2.TemplateError as error:
        raise BadInputError(f"the template failed: {error}") from None
