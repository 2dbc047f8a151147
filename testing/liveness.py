"""Secrets that never lie: players see at once everything a secret does not decide.

The maximal safe view of a fight, worked out by brute force from its log: from the first
undisclosed GM-only step on, every state the fight could be in is kept (the step decided again
with every face its dice could have shown, in every state so far), every later step is decided
again in each with its recorded dice, and a step is the players' at once exactly when every
one of them decides it as recorded. What the players are given (the cut, the screen, the
players' export) must show exactly that: nothing a secret decided, nothing held back that it
did not. A hidden combatant's joining is withheld until the reveal (it would tell the table
an ambush is coming); their other steps (what they do, what is done to them) are steps like
any other: who they are is kept out of how a step is shown, not by withholding it; a roll by
a hidden combatant no rule reads is theirs alone (masked). An undo gives back the
states the fight could be in before the step it takes back, a redo those after it. The
comparison runs up to an undo or redo of a withheld step, or a secret with too many
outcomes to try (there the rule withholds, as it always did).
"""

import contextlib
import io
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any
from unittest import mock

import msgspec
from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.ledger.history import COMMAND
from fracas.projections import Fracas, secrecy
from fracas.projections.board import unsaid
from fracas.projections.exports import export_jsonl
from fracas.projections.screen import PLAYERS, Timeline, shown_health
from fracas.projections.secrecy import (
    MOST_WORLDS,
    declared_reach,
    free_roll,
    parts,
    players_cut,
    unnamed_view,
)
from fracas.rules import Encounter
from fracas.rules.dice import draw, rolled, total_of
from fracas.rules.events import CombatantHidden, Disclosed, Rolled
from fracas.rules.redecide import ReplayDice, decide_again, same_events
from fracas.rules.roster import fold
from fracas.rules.ruleset import Context, Ruleset
from fracas.rules.timeline import Frame, walk
from fracas.testing import fights
from fracas.testing.fights import (
    CONTROLS,
    HIDDEN,
    HIDDEN_NAME,
    Cast,
    Tally,
    cast_installed,
    command_strategy,
    drawn_seed,
    join_hidden,
    move_strategy,
    play,
    seeded_by,
    start,
    words_now,
)

SHOWN, MASKED, WITHHELD = "shown", "masked", "withheld"
LIVENESS = Counter[str]()  # every ruleset's steps after a secret: "NAME shown", "NAME all"


def check_secret_liveness(cast: Cast, data: st.DataObject) -> None:
    """A random fight with GM-only rolls and a hidden combatant: the players' cut, screen
    and export show exactly the maximal safe view, and the hidden one nowhere."""
    with cast_installed(cast), worked_out_once():
        fracas, encounter, frames, hidden = secret_fight(cast, data)
        fates, worlds = maximal_view(frames, encounter.ruleset, hidden)
        shown_exactly(fracas, encounter, frames, fates, worlds)
        declared_reach_holds(frames, encounter.ruleset, data)
        totals_read_alone(frames, encounter.ruleset, data)
        if hidden:
            nowhere_for_the_players(fracas, hidden)


_worlds: dict[bytes, list[Any] | None] = {}  # one fight's: every_world's by what it was given


def every_world(
    ruleset: Ruleset, frame: Frame, worlds: list[Any], *, refused: bool
) -> list[Any] | None:
    """The product's `every_world`, worked out once for the same step from the same worlds
    (`worked_out_once`)."""
    key = msgspec.json.encode([ruleset.name, frame.record, frame.events, worlds, refused])
    if key not in _worlds:
        _worlds[key] = _every_world(ruleset, frame, worlds, refused=refused)
    return _worlds[key]


_every_world = secrecy.every_world


@contextlib.contextmanager
def worked_out_once() -> Iterator[None]:
    """While one fight is checked, the states a step leads to from the same states are worked
    out once, for the maximal view and the players' cut alike (both ask it of the first
    secret step and of each step after it they follow, and it is most of the check's work):
    a pure function of what it is given, so neither decides otherwise than alone."""
    _worlds.clear()
    try:
        with mock.patch.object(secrecy, "every_world", every_world):
            yield
    finally:
        _worlds.clear()


def secret_fight(
    cast: Cast, data: st.DataObject
) -> tuple[Fracas, Encounter, list[Frame], set[str]]:
    """A random fight, one move in two GM-only, a hidden combatant in one in two (its
    id and name, or none); its steps walked. A move by which the rules reveal the hidden
    one (d20: its attack gives it away) is undone, so that the fight goes on with it hidden."""
    tally = Tally()
    hidden = data.draw(st.booleans(), "hidden")
    with seeded_by(drawn_seed(data)):
        fracas, encounter = start(cast, data.draw(st.sampled_from(cast.options), "options"))
        if hidden:
            join_hidden(encounter, cast, HIDDEN, HIDDEN_NAME)
        begin = command_strategy(encounter.ruleset, "begin", words_now(encounter, cast))
        with contextlib.suppress(FracasError):
            fights.step(encounter, data.draw(begin, "begin"), data, tally, "begin", secret=False)
        for n in range(data.draw(st.integers(cast.moves, 2 * cast.moves), "moves")):
            move = data.draw(move_strategy(encounter.ruleset, encounter, cast), "move")
            unseen = HIDDEN in encounter.hidden()
            if move["action"] in CONTROLS:
                play(encounter, move, data, tally)
            else:
                secret = data.draw(st.booleans(), "secret")  # one move in two GM-only
                with contextlib.suppress(FracasError):  # a move refused appends nothing
                    fights.step(encounter, move, data, tally, f"move-{n}", secret=secret)
            # the rules revealed it (srd-23), or a redo gave back the step that did
            if unseen and HIDDEN not in encounter.hidden():
                play(encounter, {"action": "undo"}, data, tally)
    frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
    return fracas, encounter, frames, {HIDDEN, HIDDEN_NAME} if hidden else set()


def maximal_view(
    frames: list[Frame], ruleset: Ruleset, hidden: set[str]
) -> tuple[dict[int, str], list[Any] | None]:
    """Each step's fate in the maximal safe view, by brute force, from the first undisclosed
    secret step up to where the comparison stops; and the states the fight could be in after
    the last step (None when it stopped before, or there was no secret)."""
    disclosed = {
        e.step for f in frames if f.in_effect for e in f.events if isinstance(e, Disclosed)
    }
    worlds: list[Any] | None = None
    fates: dict[int, str] = {}
    around: dict[int, tuple[list[Any] | None, list[Any] | None]] = {}  # before, after
    for frame in frames:
        step = frame.record.step
        before = worlds
        if hidden_joining(frame, hidden):  # held back until the reveal, whatever it decided
            fates[step] = WITHHELD
            worlds = worlds and unique([fold(ruleset.evolve, w, frame.events) for w in worlds])
            around[step] = (before, worlds)
            continue
        if frame.record.control != COMMAND:
            taken = around.get(frame.record.target or 0)
            if taken is None or fates.get(frame.record.target or 0) == WITHHELD:
                return fates, None  # what players never saw, taken back: not compared
            if frame.record.control not in ("undo", "redo"):
                return fates, None
            worlds = taken[0] if frame.record.control == "undo" else taken[1]
            if worlds is not None:
                fates[step] = SHOWN
            around[step] = (before, worlds)
            continue
        secret = step not in disclosed and any(
            isinstance(e, Rolled) and e.secret for e in frame.events
        )
        if frame.command is None or free_roll(frame):  # the GM's words; a roll no rule reads
            worlds = worlds and [fold(ruleset.evolve, w, frame.events) for w in worlds]
            theirs = free_roll(frame) and hidden_named(frame, hidden)
            if worlds is not None:
                fates[step] = MASKED if secret or theirs else SHOWN
            around[step] = (before, worlds)
            continue
        if worlds is None and not secret:
            around[step] = (None, None)
            continue
        worlds = worlds or [frame.before]
        if secret:
            fates[step], worlds = MASKED, every_world(ruleset, frame, worlds, refused=False)
        elif all(same_events(decided, frame.events) for decided in again(ruleset, frame, worlds)):
            fates[step] = SHOWN
            worlds = unique([fold(ruleset.evolve, w, frame.events) for w in worlds])
        else:
            fates[step], worlds = WITHHELD, every_world(ruleset, frame, worlds, refused=True)
        if worlds is None or len(worlds) > MOST_WORLDS:
            fates.pop(step)
            return fates, None
        around[step] = (before, worlds)
    return fates, worlds


SAMPLED = 40  # other outcomes tried of a secret step whose reach the ruleset declares


def declared_reach_holds(frames: list[Frame], ruleset: Ruleset, data: st.DataObject) -> None:
    """Each secret step with too many outcomes to try whose reach the ruleset declares
    (`Ruleset.reach`), decided again on random faces: no outcome changes a combatant it did
    not name, nor the shared state unless it said so."""
    if ruleset.reach is None:
        return
    rng = random.Random(data.draw(st.integers(0, 2**32), "reach faces"))
    for frame in frames:
        if frame.command is None or not any(isinstance(e, Rolled) for e in frame.events):
            continue
        declared = declared_reach(frame, ruleset)
        if declared is None:
            continue
        who, shared = declared
        ids, recorded = parts(frame.after)
        for _ in range(SAMPLED):
            after = other_outcome(ruleset, frame, rng)
            if after is None:
                continue
            fighters, common = parts(after)
            changed = {c for c in ids.keys() | fighters.keys() if ids.get(c) != fighters.get(c)}
            assert changed <= who, (
                f"step {frame.record.step} ({frame.command}) could change {sorted(changed - who)}"
                f" on other faces, beyond what {ruleset.name}'s reach declares: {sorted(who)}"
            )
            assert shared or common == recorded, (
                f"step {frame.record.step} ({frame.command}) could move the shared state on "
                f"other faces, though {ruleset.name}'s reach declares it cannot"
            )
            assert shared or turns_alike(ruleset, frame.after, after, rng.getrandbits(32)), (
                f"step {frame.record.step} ({frame.command}) could move a later turn on other "
                f"faces (someone falls, and the turn passes over them), or a later `next` "
                f"decides otherwise (what a turn's start does to whom it reached), though "
                f"{ruleset.name}'s reach declares it cannot"
            )


def totals_read_alone(frames: list[Frame], ruleset: Ruleset, data: st.DataObject) -> None:
    """A ruleset that reads a roll by its total alone (`reads_totals`): each step with dice,
    decided again with other faces of the same totals, leaves the state as it did."""
    if not ruleset.reads_totals:
        return
    rng = random.Random(data.draw(st.integers(0, 2**32), "same totals"))
    for frame in frames:
        rolls = [e.roll for e in frame.events if isinstance(e, Rolled)]
        if frame.command is None or not rolls:
            continue
        others = [same_total(roll, rng) for roll in rolls]
        record = frame.record
        ctx = Context(ReplayDice(others), record.step, record.author, record.command_id)
        try:
            decided = decide_again(ruleset, frame.before, frame.events, ctx, None)
        except FracasError:
            decided = None
        after = None if decided is None else fold(ruleset.evolve, frame.before, decided)
        assert after is not None and msgspec.json.encode(after) == msgspec.json.encode(
            frame.after
        ), (
            f"step {record.step} ({frame.command}) comes out otherwise on other faces of the "
            f"same totals ({[r.faces for r in rolls]} -> {[r.faces for r in others]}), though "
            f"{ruleset.name} says it reads a roll by its total alone (reads_totals)"
        )


def same_total(roll: Any, rng: random.Random) -> Any:
    """A roll of the same dice and total on other faces where some are found (else itself)."""
    for _ in range(200):
        faces = draw(roll.dice, rng.choice)
        if faces != roll.faces and total_of(roll.dice, faces) == roll.total:
            return rolled(roll.dice, faces, "manual", "gm")
    return roll


def turns_alike(ruleset: Ruleset, one: Any, two: Any, seed: int) -> bool:
    """Whether the turns pass alike from two states for a round and more: `next` after
    `next` (on the same random faces), each decided alike (the players see it at once:
    secrecy's `passes_the_turn`) and the shared state the same after it."""
    for _ in range(len(parts(one)[0]) + 1):
        (one, said), (two, told) = passed(ruleset, one, seed), passed(ruleset, two, seed)
        if one is None or two is None:
            return one is None and two is None
        if not same_events(said, told) or parts(one)[1] != parts(two)[1]:
            return False
    return True


def passed(ruleset: Ruleset, state: Any, seed: int) -> tuple[Any | None, list[Any]]:
    """The state after a `next` and its events, on random faces from `seed`; None where
    refused."""
    ctx = Context(RandomDice(random.Random(seed)), 0)
    try:
        events = ruleset.decide_step(state, ruleset.command({"action": "next"}), ctx)
    except FracasError:
        return None, []
    return fold(ruleset.evolve, state, events), events


class RandomDice:
    """Faces drawn at random, dice that explode included."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, spec: str, purpose: str) -> Any:
        return rolled(spec, draw(spec, self.rng.choice), "manual", "gm")


def other_outcome(ruleset: Ruleset, frame: Frame, rng: random.Random) -> Any | None:
    """The state after the step decided again on random faces; None where refused."""
    record = frame.record
    ctx = Context(RandomDice(rng), record.step, record.author, record.command_id)
    try:
        decided = decide_again(ruleset, frame.before, frame.events, ctx, None)
    except FracasError:
        return None
    return fold(ruleset.evolve, frame.before, decided)


def hidden_joining(frame: Frame, hidden: set[str]) -> bool:
    """Does the hidden combatant join in this step (as the GM set it, unrevealed since)?"""
    return any(isinstance(e, CombatantHidden) and e.combatant in hidden for e in frame.events)


def hidden_named(frame: Frame, hidden: set[str]) -> bool:
    """Does the step's command name the hidden combatant (who rolls, or in its words)?"""
    words = msgspec.json.encode({k: v for k, v in (frame.command or {}).items() if k != "sheet"})
    return any(h.encode() in words for h in hidden)


def nowhere_for_the_players(fracas: Fracas, hidden: set[str]) -> None:
    exported = msgspec.json.encode(players_export(fracas)).decode()
    for word in hidden:
        at = exported.find(word)
        assert at < 0, (
            f"the hidden combatant shows in the players' export: {exported[at - 120 : at + 60]!r}"
        )


def again(ruleset: Ruleset, frame: Frame, worlds: list[Any]) -> list[list[Any]]:
    """The step decided again in every world with its recorded dice ([] where refused)."""
    record, rolls = frame.record, [e.roll for e in frame.events if isinstance(e, Rolled)]
    decided = []
    for world in worlds:
        ctx = Context(ReplayDice(rolls), record.step, record.author, record.command_id)
        try:
            decided.append(decide_again(ruleset, world, frame.events, ctx, None))
        except Exception:
            decided.append([])
    return decided


def unique(worlds: list[Any]) -> list[Any]:
    return list({msgspec.json.encode(w): w for w in worlds}.values())


def shown_exactly(
    fracas: Fracas,
    encounter: Encounter,
    frames: list[Frame],
    fates: dict[int, str],
    worlds: list[Any] | None,
) -> None:
    """The players' cut, their export and their screen show exactly the maximal view."""
    ruleset = encounter.ruleset
    cut = players_cut(frames, ruleset)
    name = ruleset.name
    joined = {f.record.step for f in frames if hidden_joining(f, set(cut.hidden))}
    for step, fate in fates.items():
        seen = cut.seen[step]
        got = WITHHELD if seen.number is None else MASKED if seen.masked else SHOWN
        assert got == fate, f"step {step} is {got} to the players, {fate} in the maximal view"
        if fate != MASKED and step not in joined:  # (a hidden joining is held back apart)
            LIVENESS[f"{name} all"] += 1
            LIVENESS[f"{name} shown"] += fate == SHOWN
    out = players_export(fracas)
    controls = {frame.record.step: frame.record.control for frame in frames}
    told = {line["step"]: line for line in out if line.get("type") == "step"}
    for step, fate in fates.items():
        number = cut.number(step)
        assert (number in told) == (fate != WITHHELD), f"step {step} in the export: {fate}"
        if fate == SHOWN and controls[step] == COMMAND:
            said = told[number]["events"] or told[number].get("command")
            assert said, f"step {step} is shown with nothing said of it"
    last = frames[-1].record.step
    if worlds and fates.get(last) != WITHHELD:  # a withheld last step shows at the next
        rows_as_the_worlds_agree(encounter, worlds, set(cut.hidden))


def players_export(fracas: Fracas) -> list[dict[str, Any]]:
    out = io.StringIO()
    export_jsonl(fracas.store, out, players=True)
    return [msgspec.json.decode(line) for line in out.getvalue().splitlines()]


def rows_as_the_worlds_agree(encounter: Encounter, worlds: list[Any], hidden: set[str]) -> None:
    """Each combatant whose state is the same in every world shows on the players' screen as
    it stands now (as players read it: an NPC's health in words, a hidden combatant named
    in a condition as someone unseen): no stale number where no secret decided it."""
    ruleset = encounter.ruleset
    fighters = [parts(w)[0] for w in worlds]
    agreed = {c for c in fighters[0] if all(f.get(c) == fighters[0][c] for f in fighters)}
    again = Encounter(encounter.store, encounter.id)
    timeline = Timeline(again, "fight", PLAYERS, lambda s: "")
    rows = timeline.screen(timeline.steps).board.rows
    said = {row.combatant: row.status for row in rows}  # "dead" in its status, not again
    view = ruleset.view(encounter.state)
    now = {
        w.combatant: (
            shown_health(w, True, False, ruleset),
            unsaid(w.conditions, said.get(w.combatant, "")),
        )
        for w in unnamed_view(view, hidden, view).wounds
    }
    shown = {row.combatant: (row.health, row.conditions) for row in rows}
    for combatant in agreed & shown.keys():
        assert shown[combatant] == now[combatant], (
            f"{combatant}'s row is stale for the players: {shown[combatant]} against "
            f"{now[combatant]}, though no secret decided it"
        )
