"""The checks of the conformance kit: what any ruleset's fights must show, whatever its rules.

Each `check_*` function plays what it needs through the real `Fracas` API and fails with an
AssertionError that says what broke. `RulesetChecks` runs them as pytest tests.
"""

import contextlib
import importlib
import io
import itertools
import json
import os
import re
import typing
import uuid
from collections.abc import Iterator
from typing import Any
from unittest import mock

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.ledger.errors import RulesetFailedError
from fracas.projections import Fracas
from fracas.projections.board import board
from fracas.projections.describe import describe
from fracas.projections.drift import differences, field_changes, flat
from fracas.projections.exports import export_jsonl
from fracas.projections.replay import GM, PLAYERS, replay
from fracas.projections.screen import Timeline
from fracas.projections.tables import read_current
from fracas.rules import Encounter
from fracas.rules.encounter import recorded_events
from fracas.rules.events import CORE_EVENTS, Event
from fracas.rules.ruleset import CORE_ACTIONS, Context, Ruleset, missing_default
from fracas.rules.views import View
from fracas.testing import tiers
from fracas.testing.fights import (
    CONTROLS,
    HIDDEN,
    HIDDEN_NAME,
    OTHER,
    OTHER_NAME,
    TALLIES,
    Cast,
    PickedDice,
    Played,
    Tally,
    cast_installed,
    command_strategy,
    control_of,
    drawn_seed,
    join_hidden,
    move_strategy,
    own_move,
    play,
    random_fight,
    replay_moves,
    seeded_by,
    start,
    step,
    words_now,
)
from fracas.testing.figures import check_unseen_figures
from fracas.testing.liveness import check_secret_liveness

# -- the checks of one played fight ------------------------------------------------------


def check_fight(cast: Cast, data: st.DataObject) -> Tally:
    """Play one random honest fight of `cast` and check all a log must show: the same moves
    played again give the same log and state; undo and redo round-trip; after `reveal` the
    audit finds a sound log, every seeded roll verified and no rules drift; every event has
    a sentence, every rule cited a statement, and the views of status, play, serve and the
    report are there for the GM and the players. Returns the run's tally for the ruleset."""
    tally = TALLIES.setdefault(cast.name, Tally())
    base = drawn_seed(data)
    with cast_installed(cast), seeded_by(base):
        fracas, encounter, options, played = random_fight(cast, data, tally)
    with cast_installed(cast):
        same_log_same_state(cast, base, options, played, encounter)
        round_trip(fracas, encounter, data.draw(st.integers(1, 3), "undo depth"))
        with contextlib.suppress(FracasError):
            encounter.reveal()
        audited(fracas, tally)
        recorded = recorded_events(fracas.store, encounter.id, encounter.ruleset)
        events = [event for _, event in recorded]
        every_event_told(events)
        every_rule_stated(encounter.ruleset, events)
        views_for_the_table(fracas, encounter)
    return tally


def bodies(encounter: Encounter) -> list[tuple[int, bytes]]:
    found = recorded_events(encounter.store, encounter.id, encounter.ruleset)
    return [(n, msgspec.json.encode(event)) for n, event in found]


def same_log_same_state(
    cast: Cast, base: bytes, options: dict[str, Any], played: list[Played], live: Encounter
) -> None:
    """The same moves on the same dice, in a new log, record the same events and fold to
    the same state; and the log read afresh folds to the state the live encounter holds.
    A failure names the first step that differs and the fields that differ."""
    with seeded_by(base):
        _, again = start(cast, options)
        judged_alike(again, played, live)
    assert bodies(again) == bodies(live), "the same moves on the same dice recorded other events"
    if again.state != live.state:
        raise AssertionError(
            "the same log folds to another state (evolve is not pure): "
            + first_other_fold(live, again)
        )
    fresh = Encounter(live.store, live.id, snapshots=False)
    if fresh.state != live.state:
        raise AssertionError(
            "the log read afresh folds to another state than live: "
            + "; ".join(state_changes(live.state, fresh.state))
        )


def judged_alike(again: Encounter, played: list[Played], live: Encounter) -> None:
    """The moves of `live` played again on `again`, each step compared with the one `live`
    recorded as it is taken: the first that is refused, or records other events, fails."""
    for n, (move, secret, faces) in enumerate(played):
        command_id = f"move-{n}-{again.version}"
        if move["action"] in CONTROLS:
            control_of(again, move["action"], command_id)
            continue
        number = again.history.head_step + 1
        try:
            command = again.ruleset.command(move)
            outcome = again.execute(command, dice=faces, secret=secret, command_id=command_id)
        except RulesetFailedError:  # the ruleset crashed: a bug, never a refusal
            raise
        except FracasError as error:
            before = state_changes(live.state_at(number - 1), again.state) if number > 1 else []
            raise AssertionError(
                f"the same moves on the same dice were judged otherwise: step {number} "
                f"({said(move)}) was taken in the fight but refused when played again: {error}"
                + ("; the state before it differed: " + "; ".join(before) if before else "")
            ) from error
        then, now = live.events_of_step(outcome.step), again.events_of_step(outcome.step)
        if [msgspec.json.encode(e) for e in then] != [msgspec.json.encode(e) for e in now]:
            raise AssertionError(
                f"the same moves on the same dice were judged otherwise (decide is not "
                f"pure): step {outcome.step} ({said(move)}), as first played (was) and "
                f"played again (now): " + " ".join(line.strip() for line in differences(then, now))
            )


def said(move: dict[str, Any]) -> str:
    """A move as the table would type it: `ann flip bo` or `next`."""
    words = [move.get("actor"), move["action"], *move.get("targets", [])]
    return " ".join(str(w) for w in words if w)


def first_other_fold(live: Encounter, again: Encounter) -> str:
    """The first step after which the two logs, alike, fold to different states, with the
    fields that differ."""
    one = Encounter(live.store, live.id, snapshots=False)
    two = Encounter(again.store, again.id, snapshots=False)
    for number in range(1, one.history.head_step + 1):
        changes = state_changes(one.state_at(number), two.state_at(number))
        if changes:
            return f"first after step {number}: " + "; ".join(changes)
    return "; ".join(state_changes(live.state, again.state))


def state_changes(one: Any, two: Any, most: int = 8) -> list[str]:
    """The fields (by dotted path) of two states that differ, both values: "fighters.bo.hp:
    was 2, now 1"."""
    lines = field_changes(flat(msgspec.to_builtins(one)), flat(msgspec.to_builtins(two)))
    return lines[:most] + ([f"and {len(lines) - most} more"] if len(lines) > most else [])


def round_trip(fracas: Fracas, encounter: Encounter, depth: int) -> None:
    """Undo `depth` steps, then redo them: each undo gives back the state before the step
    (as the log read afresh folds it), and the redos give back each state in turn."""
    states = [encounter.state]
    for n in range(depth):
        try:
            encounter.undo(command_id=f"round-trip-undo-{n}")
        except FracasError:
            break
        states.append(encounter.state)
        assert Encounter(fracas.store, encounter.id).state == encounter.state, "undo drifts"
    for n in range(len(states) - 1, 0, -1):
        encounter.redo(command_id=f"round-trip-redo-{n}")
        assert encounter.state == states[n - 1], "redo does not give back the state undone"
        assert Encounter(fracas.store, encounter.id).state == encounter.state, "redo drifts"


def audited(fracas: Fracas, tally: Tally) -> None:
    report = fracas.audit()
    tally.drift += len(report.drift)
    problems = [f"step {d.step}: {d.problem}" for d in report.drift]
    assert not problems, "rules drift on an honest fight: " + "; ".join(problems)
    unverified = [r for r in report.rolls if r.verdict not in ("verified", "manual")]
    assert not unverified, f"seeded rolls not verified after the reveal: {unverified}"
    assert report.ok, "the audit of an honest fight failed"


def every_event_told(events: list[Event]) -> None:
    """Each event reads as a line of the log (not its class name)."""
    for event in events:
        line = describe(event)
        assert line and line != type(event).__name__, (
            f"{type(event).__name__} has no line of its own for the log: give it a "
            "`describe(self) -> str` method"
        )


def cited(value: Any) -> Iterator[str]:
    """Every rule id an event cites: its `rules`, and each modifier's or breakdown's `rule`."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "rules" and isinstance(inner, list):
                yield from (r for r in inner if isinstance(r, str))
            elif key == "rule" and isinstance(inner, str) and inner:
                yield inner
            else:
                yield from cited(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from cited(inner)


def every_rule_stated(ruleset: Ruleset, events: list[Event]) -> None:
    """Each rule id the log cites has its statement in the ruleset's reference."""
    missing = sorted({r for e in events for r in cited(msgspec.to_builtins(e))} - stated(ruleset))
    assert not missing, f"{ruleset.name} cites rules its reference does not state: {missing}"


def stated(ruleset: Ruleset) -> set[str]:
    reference = ruleset.rules_reference
    return set(reference.rules) if reference is not None else set()


def views_for_the_table(fracas: Fracas, encounter: Encounter) -> None:
    """What `status` (and `play`'s board), `serve` and the report read, for every step and
    both audiences: a View that survives JSON, a board, screens and details, the reports."""
    ruleset, name = encounter.ruleset, encounter.id
    for number in range(encounter.history.head_step + 1):
        view = encounter.view_at(number) if number else ruleset.view(ruleset.initial())
        assert isinstance(view, View), f"the view is a {type(view).__name__}, not a View"
        again = msgspec.json.decode(msgspec.json.encode(view), type=View)
        assert again == view, f"the view after step {number} does not survive JSON"
        shown = board(name, ruleset, view)
        assert shown.header, f"the board after step {number} has no header"
    stored = read_current(fracas.store.conn, name)  # what `status` reads, no ruleset loaded
    assert stored is not None, "the read models do not hold the encounter"
    now = board(name, ruleset, encounter.view()).header
    assert (stored.ruleset, stored.header) == (ruleset.name, now), (
        f"the read models say {stored.header!r} of {stored.ruleset}, the board {now!r}"
    )
    for audience in (GM, PLAYERS):
        timeline = Timeline(encounter, "conformance", audience, lambda step: "")
        for at in range(timeline.steps + 1):
            msgspec.json.encode(timeline.screen(at))
        for at in range(1, timeline.steps + 1):
            msgspec.json.encode(timeline.detail(at))
        for fmt in ("md", "html"):
            out = io.StringIO()
            fracas.export_text(out, fmt, name, players=audience == PLAYERS)
            assert out.getvalue(), f"the {audience}' {fmt} report is empty"
    for moment in replay(encounter):
        if moment.control == "command" and moment.in_effect:
            assert moment.sentence, f"step {moment.step} reads as no sentence"


# -- what the players are not told -------------------------------------------------------


@contextlib.contextmanager
def fixed_world() -> Iterator[None]:
    """The wall clock, the chain's salts and every generated id fixed (the ids counted
    from 1 again), so that two logs differ only in what is played."""
    ids = itertools.count(1)
    with (
        mock.patch("fracas.ledger.base.now", lambda: "2026-01-01T00:00:00.000+00:00"),
        mock.patch("fracas.ledger.base.secrets.token_hex", lambda n: "00" * n),
        mock.patch("uuid.uuid4", lambda: uuid.UUID(int=next(ids))),
    ):
        yield


def players_see(fracas: Fracas, encounter: Encounter) -> dict[str, str]:
    """Everything the players' audience is given: the screen and detail of every step, the
    reports, and the players' export."""
    seen: dict[str, str] = {}
    timeline = Timeline(Encounter(fracas.store, encounter.id), "fight", PLAYERS, lambda s: "")
    for at in range(timeline.steps + 1):
        seen[f"screen {at}"] = msgspec.json.encode(timeline.screen(at)).decode()
    for at in range(1, timeline.steps + 1):
        seen[f"detail {at}"] = msgspec.json.encode(timeline.detail(at)).decode()
    for fmt in ("md", "html"):
        out = io.StringIO()
        fracas.export_text(out, fmt, encounter.id, players=True)
        seen[fmt] = out.getvalue()
    out = io.StringIO()
    export_jsonl(fracas.store, out, players=True)
    seen["jsonl"] = out.getvalue()
    return seen


def check_secret_roll(cast: Cast, data: st.DataObject) -> None:
    """Two fights alike but for the faces of one GM-only roll look the same to the players,
    and the GM's note after it reaches them; in one fight in two a hidden combatant takes
    part (its doings shown as someone unseen's, the secret move may be theirs or on them;
    never named, unless the rules revealed them)."""
    tally = Tally()
    base = drawn_seed(data)
    lurking = data.draw(st.booleans(), "hidden")
    with cast_installed(cast):
        with fixed_world(), seeded_by(base):
            first, a, options, played = random_fight(cast, data, tally, hidden=lurking)
            taken = secret_moves(a, cast, data, tally)
            if not taken:
                return  # nothing the fight allows now was taken
            secret_at = a.history.head_step
            a.note("a twig snaps")
        with fixed_world(), seeded_by(base):
            second, b = start(cast, options)
            if lurking:
                join_hidden(b, cast, HIDDEN, HIDDEN_NAME)
            replay_moves(b, played)
            for n, move in enumerate(taken):  # the same moves, on faces drawn anew
                step(b, move, data, tally, f"secret-move-{n}", secret=True, typed=True)
            b.note("a twig snaps")
        seen_a, seen_b = players_see(first, a), players_see(second, b)
    said = ", ".join(move.get("action", "?") for move in taken)
    same_for_the_players(seen_a, seen_b, f"a GM-only roll (step {secret_at}: {said}) shows through")
    assert "a twig snaps" in seen_a["md"], "the GM's note after a secret roll is not shown"
    if lurking and HIDDEN in a.hidden():  # (the rules may reveal it: srd's attack does)
        nowhere(seen_a, HIDDEN, HIDDEN_NAME)


def same_for_the_players(seen_a: dict[str, str], seen_b: dict[str, str], what: str) -> None:
    for key in sorted(seen_a.keys() | seen_b.keys()):
        one, two = seen_a.get(key, ""), seen_b.get(key, "")
        assert one == two, f"{what} {surface_of(key)}: {told_apart(key, one, two)}"


def surface_of(key: str) -> str:
    """A key of `players_see` as a ruleset author knows the surface."""
    kind, _, number = key.partition(" ")
    return {
        "screen": f"on the players' page, stream and phones at their step {number}",
        "detail": f"in the players' detail of their step {number}",
        "md": "in the players' Markdown export (`fracas export --for players --format md`)",
        "html": "in the players' HTML export (`fracas export --for players --format html`)",
        "jsonl": "in the players' JSONL export (`fracas export --for players`)",
    }.get(kind, f"in the players' {key}")


# The parts of what players are given, in the words of the ruleset's view.
VIEW_WORDS = {
    "names": "the combatants, in the order of the view's health rows (`View.wounds`)",
    "wounds": "the view's health rows (`View.wounds`)",
    "initiative": "the view's order (`View.initiative`)",
    "acting": "whose turn it is (`View.acting`)",
    "conditions": "a row's conditions (`WoundRow.conditions`)",
    "health": "a row's health (`WoundRow.health`)",
    "lines": "the step's sentence (your events' `Rolled.result` and `Resolved.outcome`)",
    "rolls": "the step's rolls",
}


def told_apart(key: str, one: str, two: str) -> str:
    """Which field differs between two renderings, in words a ruleset author reads."""
    try:
        a, b = json.loads(one), json.loads(two)
    except ValueError:
        return text_told_apart(one, two)
    return field_told_apart(flat(a), flat(b)) or first_difference(one, two)


def field_told_apart(a: dict[str, Any], b: dict[str, Any]) -> str:
    if a == b:  # the same fields and values, in another order: a dict's keys
        at = next(n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
        path = list(a)[at].rsplit(".", 1)[0]
        parent = path.split(".")[-1]
        return (
            f"the order of {VIEW_WORDS.get(parent, f'`{path}`')}: {keys_under(a, path)} in one "
            f"fight and {keys_under(b, path)} in the other. "
            "It follows a GM-only roll: list rows in an order no secret decides (as joined)"
        )
    for path in dict.fromkeys([*a, *b]):
        if a.get(path) != b.get(path):
            part = next((VIEW_WORDS[p] for p in reversed(path.split(".")) if p in VIEW_WORDS), "")
            said = f" ({part})" if part else ""
            return (
                f"the field `{path}`{said} is {json.dumps(a.get(path))} in one fight and "
                f"{json.dumps(b.get(path))} in the other. Leave out of the view what a GM-only "
                "roll decides, or declare what it can change (`Ruleset.reach`)"
            )
    return ""


def keys_under(fields: dict[str, Any], path: str) -> str:
    return ", ".join(k[len(path) + 1 :] for k in fields if k.startswith(f"{path}."))


def text_told_apart(one: str, two: str) -> str:
    """The first line that differs, with the heading or step it falls under."""
    lines_a, lines_b = one.splitlines(), two.splitlines()
    at = next(
        (n for n, (x, y) in enumerate(zip(lines_a, lines_b, strict=False)) if x != y),
        min(len(lines_a), len(lines_b)),
    )
    under = next((line for line in reversed(lines_a[:at]) if line.startswith("#")), "")
    where = f" under {under.strip()!r}" if under else ""
    line_a = lines_a[at] if at < len(lines_a) else "(nothing)"
    line_b = lines_b[at] if at < len(lines_b) else "(nothing)"
    said = f"reads {line_a[:200]!r} in one fight and {line_b[:200]!r} in the other"
    return f"line {at + 1}{where} {said}"


def nowhere(seen: dict[str, str], *words: str) -> None:
    """None of `words` (a hidden combatant's id and name) is in what players are given."""
    for key, value in seen.items():
        for word in words:
            at = value.find(word)
            near = value[max(0, at - 120) : at + 60]
            assert at < 0, f"the hidden combatant shows in the players' {key}: {near!r}"


def secret_moves(
    encounter: Encounter, cast: Cast, data: st.DataObject, tally: Tally
) -> list[dict[str, Any]]:
    """A move of the ruleset's own (or `next`) that rolls dice now, played with GM-only
    rolls on typed faces: [it], or [] if none of those drawn would be taken and roll."""
    ruleset = encounter.ruleset
    for _ in range(20):
        words = words_now(encounter, cast)
        kinds = [own_move(ruleset, words)] * 3 + [command_strategy(ruleset, "next", words)]
        move = data.draw(st.sampled_from(kinds).flatmap(lambda kind: kind), "secret move")
        if rolls(encounter, move):
            step(encounter, move, data, tally, "secret-move-0", secret=True, typed=True)
            return [move]
    return []


def rolls(encounter: Encounter, move: dict[str, Any]) -> bool:
    """Would the fight take this move now, and roll dice for it? (A dry run.)"""
    dice = PickedDice([])
    ctx = Context(dice, encounter.history.head_step + 1, "gm", "probe")
    try:
        encounter.ruleset.decide_step(encounter.state, encounter.ruleset.command(move), ctx)
    except FracasError:
        return False
    return bool(dice.rolls)


def first_difference(one: str, two: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(one, two, strict=False)) if x != y), None)
    at = min(len(one), len(two)) if at is None else at
    return f"{one[max(0, at - 80) : at + 80]!r} against {two[max(0, at - 80) : at + 80]!r}"


def check_hidden_combatant(cast: Cast, data: st.DataObject) -> None:
    """A combatant joined hidden is nowhere in what the players are given, whatever the fight
    does (its doings, and what is done to it, are shown as someone unseen's), until the GM
    reveals them: the same fight with another hidden one in its place, called otherwise,
    looks the same to the players. A move by which the rules reveal it (d20: its attack
    gives it away, srd-23) is undone, so that the fight goes on with it hidden."""
    tally = Tally()
    base = drawn_seed(data)
    options = data.draw(st.sampled_from(cast.options), "options")
    played: list[Played] = []
    with cast_installed(cast):
        with fixed_world(), seeded_by(base):
            fracas, encounter = start(cast, options)
            join_hidden(encounter, cast, HIDDEN, HIDDEN_NAME)
            joined = encounter.history.head_step
            moves = data.draw(st.integers(1, max(1, cast.moves // 2)), "moves")
            begin = command_strategy(encounter.ruleset, "begin", words_now(encounter, cast))
            play(encounter, data.draw(begin, "begin"), data, tally, played)
            for _ in range(moves):
                move = data.draw(move_strategy(encounter.ruleset, encounter, cast), "move")
                play(encounter, move, data, tally, played)
                if HIDDEN not in encounter.hidden():  # the rules revealed it
                    play(encounter, {"action": "undo"}, data, tally, played)
            seen = players_see(fracas, encounter)
        with fixed_world(), seeded_by(base):
            other, again = start(cast, options)
            join_hidden(again, cast, OTHER, OTHER_NAME)
            replay_moves(again, [p._replace(move=renamed(p.move)) for p in played])
            seen_other = players_see(other, again)
    nowhere(seen, HIDDEN, HIDDEN_NAME)
    held_back(seen, joined)
    same_for_the_players(seen, seen_other, "who the hidden combatant is shows through")


def held_back(seen: dict[str, str], joined: int) -> None:
    """A hidden combatant's joining shows the players nothing of it, not even that someone
    unseen joins (it told the table an ambush was coming): in its place, a step the GM has
    not shown yet, as a secret step's, until the reveal."""
    for key, value in seen.items():
        at = value.lower().find("unseen joins")
        near = value[max(0, at - 80) : at + 60]
        assert at < 0, f"the hidden joining shows in the players' {key}: {near!r}"
    lines = [msgspec.json.decode(line) for line in seen["jsonl"].splitlines()]
    told = [line for line in lines if line.get("type") == "step" and line.get("step") == joined]
    assert told and "unshown" in told[0] and "events" not in told[0], (
        f"the hidden joining (step {joined}) is not held back in the players' export: {told}"
    )


def renamed(move: dict[str, Any]) -> dict[str, Any]:
    """A move with the hidden combatant's id and name made the other one's."""
    text = msgspec.json.encode(move).decode()
    text = text.replace(HIDDEN_NAME, OTHER_NAME).replace(HIDDEN, OTHER)
    return msgspec.json.decode(text)


def check_followed_screen(cast: Cast, data: st.DataObject) -> None:
    """The players' screen as `fracas serve` follows a fight, step by step (each head walks
    only the steps after the last one players saw as the log has them), is after every step
    the screen walked whole, and so is the GM's (its hidden and disclosed marks read from
    the steps since): through GM-only rolls, their disclosure, a combatant joined
    hidden and revealed, undo, redo and a revealed seed."""
    tally = Tally()
    sheet = next(iter((cast.reserves or cast.sheets).values()))
    with cast_installed(cast), seeded_by(drawn_seed(data)):
        fracas, encounter = start(cast, data.draw(st.sampled_from(cast.options), "options"))
        followed = players_timeline(fracas, None)
        followed_gm = gm_timeline(fracas, None)
        begin = command_strategy(encounter.ruleset, "begin", words_now(encounter, cast))
        play(encounter, data.draw(begin, "begin"), data, tally)
        secret_steps: list[int] = []
        for _ in range(data.draw(st.integers(4, max(4, cast.moves // 2)), "moves")):
            kind = data.draw(st.sampled_from(["move"] * 5 + ["hide", "reveal", "disclose"]))
            with contextlib.suppress(FracasError):
                if kind == "hide":
                    join = {"action": "join", "combatant": HIDDEN, "name": HIDDEN_NAME}
                    join["sheet"] = sheet
                    command = encounter.ruleset.command(join)
                    encounter.execute(command, command_id=f"hidden-{uuid.uuid4().hex}", hidden=True)
                elif kind == "reveal":
                    encounter.reveal_combatant(HIDDEN)
                elif kind == "disclose" and secret_steps:
                    encounter.disclose(data.draw(st.sampled_from(secret_steps), "disclosed"))
                else:
                    move = data.draw(move_strategy(encounter.ruleset, encounter, cast), "move")
                    if play(encounter, move, data, tally) and encounter_secret(encounter):
                        secret_steps.append(encounter.history.head_step)
            followed = players_timeline(fracas, followed)
            whole = players_timeline(fracas, None)
            assert followed.moments == whole.moments, moments_differ(followed, whole)
            assert followed.screen() == whole.screen(), "the followed players' screen differs"
            followed_gm = gm_timeline(fracas, followed_gm)
            assert followed_gm.screen() == gm_timeline(fracas, None).screen(), (
                "the followed GM's screen differs (its hidden or disclosed marks)"
            )


def moments_differ(followed: Timeline, whole: Timeline) -> str:
    for one, two in zip(followed.moments, whole.moments, strict=False):
        if one != two:
            fields = [f for f in one.__struct_fields__ if getattr(one, f) != getattr(two, f)]
            changes = field_changes(flat(msgspec.to_builtins(one)), flat(msgspec.to_builtins(two)))
            return f"players' step {two.step.step} differs followed in {fields}: {changes[:6]}"
    return f"followed: {len(followed.moments)} players' steps, walked whole: {len(whole.moments)}"


def players_timeline(fracas: Fracas, since: Timeline | None) -> Timeline:
    live = Encounter(fracas.store, "fight")
    return Timeline(live, "fight", PLAYERS, lambda step: str(step), since)


def gm_timeline(fracas: Fracas, since: Timeline | None) -> Timeline:
    live = Encounter(fracas.store, "fight")
    return Timeline(live, "fight", GM, lambda step: str(step), since)


def encounter_secret(encounter: Encounter) -> bool:
    """Did the last step roll GM-only dice?"""
    events = encounter.events_of_step(encounter.history.head_step)
    return any(getattr(e, "secret", False) for e in events)


# -- what the ruleset declares -----------------------------------------------------------


def check_declarations(cast: Cast) -> None:
    """What can be checked without a fight: every event of the ruleset's own has a line for
    the log; every action has a command and a line of help; the sample sheets and options
    are accepted; the reference states every rule id named in the help of the actions and
    options."""
    with cast_installed(cast):
        ruleset = cast.rules
        own = [t for t in typing.get_args(ruleset.event_type) if t not in CORE_EVENTS]
        for event_type in own:
            assert callable(getattr(event_type, "describe", None)), (
                f"{event_type.__name__} has no line for the log: give it `describe(self) -> str`"
            )
        undeclared(ruleset)
        missing = ruleset.options_without_default()
        assert not missing, missing_default(ruleset.name, missing)
        for action, text in ruleset.actions.items():
            assert ruleset.command_struct(action) is not None, f"no command struct for {action}"
            assert text.strip(), f"action {action} has no line of help"
            spoken(ruleset, action)
        for who, sheet in {**cast.sheets, **cast.reserves}.items():
            ruleset.sheet(sheet, f"sheet of {who}")
        for options in cast.options:
            ruleset.options(options)
        reference = ruleset.rules_reference
        assert reference is not None, (
            f"{ruleset.name} carries no rules reference: give its Ruleset "
            f'`reference=toml_reference("your_package", "rules.toml", "{ruleset.name[:2]}")` '
            "or `reference=Reference(...)`, the rules its help and events cite "
            "(docs/rulesets.md, The rules reference)"
        )
        assert reference.source.title, "the reference names no source"
        helps = [*ruleset.actions.values(), *ruleset.option_help.values()]
        ids = re.compile(rf"\b{reference.prefix}-M?\d+\b")
        unstated = {m[0] for text in helps for m in ids.finditer(text)} - set(reference.rules)
        assert not unstated, f"the help names rules the reference does not state: {unstated}"


def undeclared(ruleset: Ruleset) -> None:
    """Every command of the ruleset's own is one of its actions: the CLI and the kit take
    only those, so a command left out of `actions` is never played."""
    for struct in typing.get_args(ruleset.command_type) or (ruleset.command_type,):
        tag = struct.__struct_config__.tag
        if tag not in CORE_ACTIONS and tag not in ruleset.actions:
            raise AssertionError(
                f"{tag} is a command of {ruleset.name} but not among its actions: give the "
                f'Ruleset actions={{{tag!r}: "<one line of help>"}}'
            )


def spoken(ruleset: Ruleset, action: str) -> None:
    """An action that takes targets has a verb to read with them: without one a sentence
    says "ann takes the slash action bo"."""
    if "targets" in ruleset.fields_of(action) and not ruleset.verbs.get(action):
        raise AssertionError(
            f"action {action} takes targets but has no verb: its sentences read "
            f'"ann {ruleset.verb(action)} bo"; give the Ruleset '
            f'verbs={{{action!r}: "slashes at"}} (the words before the targets)'
        )


# -- running them ------------------------------------------------------------------------


def fights(examples: int, **more: Any) -> Any:
    """Hypothesis's settings for `examples` random fights (`more`: any other setting)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
        report_multiple_bugs=False,  # the first defect found, shrunk: one story to read
        **more,
    )


SHRINKING_SECONDS = 20


def run(
    check: Any, cast: Cast, examples: int, *, shrinking: float = SHRINKING_SECONDS, **more: Any
) -> None:
    """A check that draws a fight, run on `examples` fights drawn by hypothesis; a failing
    fight is shrunk for at most `shrinking` seconds, then told as it is by then."""

    @fights(examples, **more)
    @given(data=st.data())
    def drawn(data: st.DataObject) -> None:
        check(cast, data)

    with shrinking_for(shrinking):
        drawn()


@contextlib.contextmanager
def shrinking_for(seconds: float) -> Iterator[None]:
    """Hypothesis shrinks a failure for up to 5 minutes (or 500 replays): fights are slow
    to replay, and a nondeterministic defect hardly shrinks, so an author would wait minutes
    for a failure. Hypothesis has no setting for it; its engine's bound is patched."""
    engine = importlib.import_module("hypothesis.internal.conjecture.engine")
    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        yield
        return
    said = engine.report

    def report(text: Any) -> None:
        """Hypothesis's own warning at its bound speaks of five minutes and asks to report
        a slow shrink upstream; here the bound is the kit's, and says so."""
        if "PLEASE REPORT THIS" in str(text):
            text = (
                f"The kit stopped shrinking this fight after {seconds:g} seconds (the bound "
                "`shrinking` sets); the failure below is the smallest fight found by then."
            )
        said(text)

    with (
        mock.patch.object(engine, "MAX_SHRINKING_SECONDS", seconds),
        mock.patch.object(engine, "report", report),
    ):
        yield


def honest_fights(cast: Cast, examples: int, *, shrinking: float = SHRINKING_SECONDS) -> Tally:
    """`check_fight` on `examples` fights, then their coverage: printed, and a failure when
    too few fights began or too few moves were taken for the run to have tested much."""
    tally = TALLIES[cast.name] = Tally()
    run(check_fight, cast, examples, shrinking=shrinking)
    print(f"conformance coverage of {cast.name}: {tally.coverage()}")
    thin = tally.thin(cast)
    if thin:
        raise AssertionError(
            f"the kit tested too little of {cast.name}: {thin}. {tally.coverage()}. A move "
            "refused for faces the kit typed (a card drawn twice from a deck) says which "
            "faces are legal through Ruleset.legal_faces; sheets, options or Cast.values may "
            "let more fights begin"
        )
    return tally


def check_ruleset(cast: Cast, *, examples: int = 20) -> Tally:
    """Every check of the kit on `cast`: the declarations, `examples` random fights (each
    audited, played again, undone and redone, told and stated, viewed), and half as many
    fights each for secret rolls and hidden combatants. Returns the fights' tally."""
    check_declarations(cast)
    tally = honest_fights(cast, examples)
    run(check_secret_roll, cast, max(1, examples // 2))
    run(check_hidden_combatant, cast, max(1, examples // 2))
    run(check_unseen_figures, cast, max(1, examples // 2))
    return tally


class RulesetChecks:
    """The kit as pytest tests: subclass it in your ruleset's tests with your `cast`.

    class TestMyRuleset(RulesetChecks):
        cast = Cast(RULESET, sheets={"ann": {...}, "bo": {...}, "bo2": {...}})
        examples = 20  # random fights per check; more for a longer hunt
        shrinking = 20  # seconds to shrink a failing fight before it is told
    """

    cast: Cast
    examples: int = 20
    shrinking: float = SHRINKING_SECONDS
    liveness: int | None = None  # the liveness check's fights; None: by the test tier

    def fights(self) -> int:
        """`examples`, or N where FRACAS_FIGHTS=N is set (CI's budget, or a longer hunt)."""
        return int(os.environ.get("FRACAS_FIGHTS", 0)) or self.examples

    def test_declarations(self) -> None:
        check_declarations(self.cast)

    def test_honest_fights(self) -> None:
        honest_fights(self.cast, self.fights(), shrinking=self.shrinking)

    def test_secret_rolls_do_not_show(self) -> None:
        run(check_secret_roll, self.cast, max(1, self.fights() // 2), shrinking=self.shrinking)

    def test_hidden_combatants_do_not_show(self) -> None:
        run(check_hidden_combatant, self.cast, max(1, self.fights() // 2), shrinking=self.shrinking)

    def test_an_unseen_actors_outcome_reads_nothing_of_its_sheet(self) -> None:
        run(check_unseen_figures, self.cast, max(1, self.fights() // 2), shrinking=self.shrinking)

    def test_the_followed_screen_is_the_whole_walk(self) -> None:
        run(check_followed_screen, self.cast, max(1, self.fights() // 4), shrinking=self.shrinking)

    def test_secrets_hide_only_what_they_decide(self) -> None:
        """The slowest check (every outcome of every secret, brute force): `liveness` fights,
        by default 300 in the slow tier and 2 in the fast one (FRACAS_LIVENESS_EXAMPLES=N
        for N)."""
        given = int(os.environ.get("FRACAS_LIVENESS_EXAMPLES", 0)) or self.liveness
        examples = given or tiers.examples(full=300, fast=2)
        run(check_secret_liveness, self.cast, examples, shrinking=self.shrinking)
