"""An unseen actor's outcome says what was done, never its figures.

A hidden combatant's step is shown to the players with the hidden one said as someone unseen:
what it did to the combatants they see, and nothing of what read its sheet or rolls
(projections/secrecy.py, `unseen_event`). A ruleset says the outcome of an action in words
(`Resolved.outcome`: "misses") and its figures apart (`Resolved.detail`: "10 against parry
14"), so that the players' text can leave the figures out structurally. This check holds a
ruleset to it: each step a hidden combatant took in a random fight is decided again, with its
recorded dice, against that combatant's sheet with one number changed; where what the step
did to the combatants players see is the same, the players' text of its outcome must be too.
"""

from collections.abc import Iterator
from typing import Any

import msgspec
from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.ledger.history import COMMAND
from fracas.projections.secrecy import UNSEEN, Known, parts, players_cut, visible
from fracas.rules.events import Event, Resolved, Rolled
from fracas.rules.redecide import ReplayDice, UnrecordedRoll, decide_again
from fracas.rules.roster import fold
from fracas.rules.ruleset import Context, Ruleset
from fracas.rules.timeline import Frame, walk
from fracas.testing import fights

MOST_CHANGES = 40  # numbers of the hidden sheet changed, one at a time, per step


def check_unseen_figures(cast: fights.Cast, data: st.DataObject) -> None:
    """A random fight with a hidden combatant: the players' text of each outcome of its
    steps reads nothing of its sheet that what the step did does not (module docstring)."""
    tally = fights.Tally()
    with fights.cast_installed(cast), fights.seeded_by(fights.drawn_seed(data)):
        _fracas, encounter = fights.start(cast, data.draw(st.sampled_from(cast.options), "options"))
        fights.join_hidden(encounter, cast, fights.HIDDEN, fights.HIDDEN_NAME)
        begin = fights.command_strategy(
            encounter.ruleset, "begin", fights.words_now(encounter, cast)
        )
        fights.play(encounter, data.draw(begin, "begin"), data, tally, [])
        for _ in range(data.draw(st.integers(1, cast.moves), "moves")):
            move = data.draw(fights.move_strategy(encounter.ruleset, encounter, cast), "move")
            if "actor" in move and fights.HIDDEN in encounter.view().acting:  # its turn: its move
                move = {**move, "actor": fights.HIDDEN}
            fights.play(encounter, move, data, tally, [])
        frames = list(walk(encounter.store, encounter.id, encounter.ruleset))
    cut = players_cut(frames, encounter.ruleset)
    for frame in frames:
        if frame.record.control == COMMAND and cut.shown(frame.record.step):
            same_words_for_the_players(frame, encounter.ruleset, set(cut.hidden))


def same_words_for_the_players(frame: Frame, ruleset: Ruleset, hidden: set[str]) -> None:
    ids, _shared = parts(frame.before)
    acting = {e.actor for e in frame.events if isinstance(e, Resolved)} & hidden & ids.keys()
    if not acting:
        return
    who = min(acting)
    known = Known.of({**ids, **parts(frame.after)[0]})
    shown = players_words(frame.events, hidden, known)
    turn_now = turn_after(frame.before, frame.events, ruleset, hidden)
    for path, state in changed_sheets(frame.before, who, ruleset):
        decided = decided_again(frame, ruleset, state)
        if decided is None:
            continue
        other = players_words(decided, hidden, known)
        turn = turn_after(frame.before, decided, ruleset, hidden)
        if other[0] == shown[0] and turn == turn_now and other[1] != shown[1]:
            raise AssertionError(
                f"step {frame.record.step} ({frame.command}): the players read the unseen "
                f"actor's outcome as {shown[1]} with its sheet as it is, and as {other[1]} "
                f"with its {path} one more, though it did the same: a figure in "
                "Resolved.outcome reads the hidden sheet; give the figures in Resolved.detail"
            )


def players_words(events: list[Event], hidden: set[str], known: Known) -> tuple[Any, list[str]]:
    """(what the step did as players read it, the outcomes they read of it)."""
    shown = visible(events, hidden, known, involved=True)
    done = [msgspec.to_builtins(e) for e in shown if not isinstance(e, Resolved | Rolled)]
    return done, [e.told for e in shown if isinstance(e, Resolved)]


def turn_after(before: Any, events: list[Event], ruleset: Ruleset, hidden: set[str]) -> Any:
    """The round and who acts after `events`, as players see them (a hidden one as someone
    unseen): a step that ends a turn where another keeps it did not do the same, and players
    see the turn move on."""
    view = ruleset.view(fold(ruleset.evolve, before, events))
    return view.round, [UNSEEN if who in hidden else who for who in view.acting]


def changed_sheets(state: Any, who: str, ruleset: Ruleset) -> Iterator[tuple[str, Any]]:
    """The state with one number of `who`'s sheet one more (their `sheet`, where the
    roster keeps one: the rest is the fight's bookkeeping), for each of its numbers."""
    fighter = msgspec.to_builtins(state)["fighters"][who]
    root = "/sheet" if isinstance(fighter.get("sheet"), dict) else ""
    found = numbers_in(fighter["sheet"] if root else fighter, root)
    for path in list(found)[:MOST_CHANGES]:
        changed = msgspec.to_builtins(state)
        bumped(changed["fighters"][who], path.split("/")[1:])
        try:
            yield path[1:], msgspec.convert(changed, type(state))
        except msgspec.ValidationError:
            continue


def numbers_in(value: Any, path: str) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from numbers_in(item, f"{path}/{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from numbers_in(item, f"{path}/{n}")
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path


def bumped(value: Any, path: list[str]) -> None:
    for key in path[:-1]:
        value = value[int(key)] if isinstance(value, list) else value[key]
    last = int(path[-1]) if isinstance(value, list) else path[-1]
    value[last] += 1


def decided_again(frame: Frame, ruleset: Ruleset, state: Any) -> list[Event] | None:
    """The step decided again from `state` with its recorded dice; None where the rules
    refuse it there or ask for a roll it never made."""
    record, rolls = frame.record, [e.roll for e in frame.events if isinstance(e, Rolled)]
    ctx = Context(ReplayDice(rolls), record.step, record.author, record.command_id)
    try:
        return decide_again(ruleset, state, frame.events, ctx, None)
    except (FracasError, UnrecordedRoll):
        return None
