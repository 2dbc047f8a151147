"""The truthful-table conformance check, for any ruleset: random honest fights, then the audit.

An honest fight is one played only through the public commands: the ruleset's own actions
(their fields drawn from the command structs the ruleset declares), `next`, the GM's commands,
undo and redo, a mid-fight reveal, with dice either seeded or typed in. After it the seed is
revealed and `audit` must find a sound log, every seeded roll verified, and no rules drift:
deciding any recorded step again from its command and recorded dice gives the same events.
Every step is also checked as it is played: each draw from the dice is a recorded roll.

A ruleset proves itself with a `Cast` (its sheets and options) and `check_fight`:

    @settings(max_examples=40, deadline=None)
    @given(st.data())
    def test_my_ruleset_is_truthful(data):
        check_fight(MY_CAST, data)

(This module is meant to move into the public kit `fracas.testing`.)
"""

import contextlib
import hashlib
import itertools
import typing
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import msgspec
from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.projections import Fracas
from fracas.rules import Encounter
from fracas.rules.commands import GM, GM_ACTIONS
from fracas.rules.dice import draw, total_of
from fracas.rules.events import Event, Modifier, Roll, Rolled
from fracas.rules.ruleset import Context, Ruleset

TEXT = ["", "a ruling", "on fire", "blessed", "reload", "door"]
RARE = ("end", "reopen")  # GM commands drawn less often, so that fights mostly go on
NEVER_DRAWN = {"join", "modifiers"}  # joins come from the cast; modifiers have their own draw


@dataclass(frozen=True)
class Cast:
    """Who fights, under which ruleset: `sheets` join before the fight begins (the first as a
    PC), `reserves` may join later. Give two combatants the same sheet so that ties happen."""

    ruleset: str
    sheets: dict[str, dict[str, Any]]
    reserves: dict[str, dict[str, Any]] = field(default_factory=dict)
    options: tuple[dict[str, Any], ...] = ({},)  # the GM's options, one set drawn per fight
    moves: int = 30  # the most moves in one fight


@dataclass
class Tally:
    """What the fights of one run did, for the report: fights, steps, rolls, drift found."""

    fights: int = 0
    steps: int = 0
    refused: int = 0
    seeded: int = 0
    typed: int = 0
    drift: int = 0
    by_kind: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)


TALLIES: dict[str, Tally] = {}


class PickedDice:
    """Faces picked by hypothesis, for a dry run that learns what a command rolls: each
    face is values[pick % len(values)]; without picks left a die shows its lowest face."""

    def __init__(self, picks: Sequence[int]) -> None:
        self.picks = list(picks)
        self.rolls: list[Roll] = []

    def roll(self, spec: str, purpose: str) -> Roll:
        def next_face(values: Sequence[int]) -> int:
            return values[self.picks.pop(0) % len(values)] if self.picks else values[0]

        faces = draw(spec, next_face)
        roll = Roll(spec, faces, total_of(spec, faces), "manual", "conformance")
        self.rolls.append(roll)
        return roll


def every_draw_recorded(drawn: list[Roll], events: list[Event]) -> None:
    """Every roll the rules drew is recorded as a roll of the step, and nothing else is."""
    recorded = [e.roll for e in events if isinstance(e, Rolled)]
    key = msgspec.json.encode
    unrecorded = Counter(key(r) for r in drawn) - Counter(key(r) for r in recorded)
    invented = Counter(key(r) for r in recorded) - Counter(key(r) for r in drawn)
    assert not unrecorded, f"drawn but never recorded as a roll: {list(unrecorded)}"
    assert not invented, f"recorded but never drawn: {list(invented)}"


# -- drawing commands from what the ruleset declares ---------------------------------------


def vocabulary(cast: Cast) -> list[str]:
    """Every word the sheets use (weapon, spell, skill and stat names), for free-text fields."""
    words: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                words.add(str(key))
                collect(inner)
        elif isinstance(value, list):
            for inner in value:
                collect(inner)
        elif isinstance(value, str):
            words.add(value)

    collect([*cast.sheets.values(), *cast.reserves.values()])
    return sorted(words)


def weapon_names(cast: Cast) -> list[str]:
    names = []
    for sheet in [*cast.sheets.values(), *cast.reserves.values()]:
        for weapon in sheet.get("weapons", []):
            names.append(weapon["name"] if isinstance(weapon, dict) else str(weapon))
    return sorted(set(names))


def value_for(
    name: str, hint: Any, people: list[str], acting: list[str], words: list[str], weapons: list[str]
) -> st.SearchStrategy:
    """A strategy for one command field, from its type and, for strings, its name."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        return value_for(name, args[0], people, acting, words, weapons)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return st.one_of([value_for(name, a, people, acting, words, weapons) for a in args])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(1, 6) if name in ("amount", "hp") else st.integers(-1, 6)
    if origin is list:
        inner = value_for(name, args[0], people, acting, words, weapons)
        if name == "targets":  # mostly one target, as most actions take
            return st.lists(inner, min_size=1, max_size=1) | st.lists(inner, max_size=2)
        return st.lists(inner, max_size=2)
    if origin is dict:
        key = st.sampled_from(people)
        inner = value_for(name, args[1], people, acting, words, weapons)
        return st.dictionaries(key, inner, max_size=1)
    if hint is str:
        if name == "actor":
            return st.sampled_from(acting * 4 + people) if acting else st.sampled_from(people)
        if name in (
            "target",
            "targets",
            "at",
            "trigger_by",
            "unaware",
            "desperate",
            "defender",
            "surprised",
            "surprising",
        ):
            return st.sampled_from(people)
        if name == "until":  # a condition's duration: the edge of someone's next turn
            return st.sampled_from([f"{edge}:{p}" for edge in ("end", "start") for p in people])
        if name in ("weapon", "item", "defence_weapon") and weapons:
            return st.sampled_from(weapons)
        return st.sampled_from(words + TEXT + people)
    return st.nothing()


def command_strategy(
    ruleset: Ruleset,
    action: str,
    people: list[str],
    acting: list[str],
    words: list[str],
    weapons: list[str],
) -> st.SearchStrategy:
    """A command of `action` with every field drawn from its declared type (or left out)."""
    struct = ruleset.command_struct(action)
    assert struct is not None, f"{ruleset.name} declares action {action!r} but no command for it"
    hints = typing.get_type_hints(struct, include_extras=True)
    required = set(
        struct.__struct_fields__[: len(struct.__struct_fields__) - len(struct.__struct_defaults__)]
    )
    fields: dict[str, st.SearchStrategy] = {"action": st.just(action)}
    optional: dict[str, st.SearchStrategy] = {}
    for name, hint in hints.items():
        if name in NEVER_DRAWN:
            continue
        strategy = value_for(name, hint, people, acting, words, weapons)
        always = name in required or name == "targets"
        (fields if always else optional)[name] = strategy
    if "modifiers" in hints:
        optional["modifiers"] = st.lists(
            st.builds(Modifier, st.sampled_from([-20, -2, -1, 1, 2, 20]), st.just("ruling")),
            max_size=1,
        ).map(lambda ms: [msgspec.to_builtins(m) for m in ms])
    return st.fixed_dictionaries(fields, optional=optional)


def move_strategy(ruleset: Ruleset, encounter: Encounter, cast: Cast) -> st.SearchStrategy:
    """One move at the table now: mostly the ruleset's own actions by whoever may act."""
    state = encounter.state
    people = sorted(state.fighters)
    acting = list(encounter.view().acting)
    words, weapons = vocabulary(cast), weapon_names(cast)

    def of(action: str) -> st.SearchStrategy:
        command = command_strategy(ruleset, action, people, acting, words, weapons)
        return command.map(lambda c: others_targeted(c, people))

    gm = [f"{GM}{verb}" for verb in GM_ACTIONS for _ in range(1 if verb in RARE else 3)]
    joining = [
        {"action": "join", "combatant": who, "sheet": sheet}
        for who, sheet in cast.reserves.items()
        if who not in state.fighters
    ]
    moves = {
        "own": st.sampled_from(sorted(ruleset.actions, key=lambda a: a != "attack")).flatmap(of),
        "next": of("next"),
        "gm": st.sampled_from(gm).flatmap(of),
        "control": st.sampled_from([{"action": w} for w in ("undo", "redo", "reveal")]),
        "join": st.sampled_from(joining) if joining else st.nothing(),
    }
    kinds = ["own"] * 10 + ["next"] * 2 + ["gm"] * 3 + ["control"] + ["join"] * bool(joining)
    return st.sampled_from(kinds).flatmap(moves.__getitem__)


def others_targeted(command: dict[str, Any], people: list[str]) -> dict[str, Any]:
    """An actor's own name among the targets becomes the next combatant's: a legal target
    is what the fight needs most (refusing self-targeting is tested elsewhere)."""
    actor, targets = command.get("actor"), command.get("targets")
    if not targets or actor not in targets or len(people) < 2:
        return command
    other = people[(people.index(actor) + 1) % len(people)] if actor in people else people[0]
    return {**command, "targets": [other if t == actor else t for t in targets]}


# -- playing a fight ---------------------------------------------------------------------


def start(cast: Cast, options: dict[str, Any]) -> tuple[Fracas, Encounter]:
    fracas = Fracas(":memory:")
    encounter = fracas.new(cast.ruleset, title="conformance", options=options, encounter="fight")
    for i, (who, sheet) in enumerate(cast.sheets.items()):
        side = "pc" if i == 0 else "npc"
        command = {"action": "join", "combatant": who, "sheet": sheet, "side": side}
        encounter.execute(encounter.ruleset.command(command))
    return fracas, encounter


def play(encounter: Encounter, move: dict[str, Any], data: st.DataObject, tally: Tally) -> None:
    """One move, with seeded or typed dice; a refused move must leave the log as it was."""
    control = move["action"]
    version = encounter.version
    try:
        if control in ("undo", "redo", "reveal"):
            getattr(encounter, control)()
        else:
            step(encounter, move, data, tally)
    except FracasError as error:
        tally.refused += 1
        tally.refusals[f"{control}: {str(error)[:70]}"] += 1
        assert encounter.version == version, f"{move} was refused but appended"
        return
    tally.steps += 1
    tally.by_kind[control] += 1


def step(encounter: Encounter, move: dict[str, Any], data: st.DataObject, tally: Tally) -> None:
    """Decide the move once on picked faces to learn what it rolls and check that every draw
    is recorded; then play it for real, on those faces typed in or on the seeded dice."""
    ruleset = encounter.ruleset
    command = ruleset.command(move)
    secret = data.draw(st.sampled_from([False, False, False, True]), "secret")
    picks = data.draw(st.lists(st.integers(0, 2**16), max_size=12), "faces")
    dice = PickedDice(picks)
    ctx = Context(dice, encounter.history.head_step + 1, "gm", "dry-run")
    events = ruleset.decide_step(encounter.state, command, ctx, secret=secret)
    every_draw_recorded(dice.rolls, events)
    typed = data.draw(st.booleans(), "typed dice")
    faces = [f for roll in dice.rolls for f in roll.faces] if typed else None
    outcome = encounter.execute(command, dice=faces, secret=secret)
    seeded = [e.roll for e in outcome.events if isinstance(e, Rolled) and e.roll.source == "seeded"]
    counters = sorted(int(r.counter.rsplit(".", 1)[1]) for r in seeded if r.counter)
    assert counters == list(range(len(seeded))), f"a seeded draw went unrecorded: {counters}"
    tally.typed += len(dice.rolls) if typed else 0
    tally.seeded += len(seeded)


@contextlib.contextmanager
def drawn_seeds(data: st.DataObject) -> Iterator[None]:
    """The encounter's dice seeds derived from one drawn by hypothesis, so that a fight (and
    what its seeded rolls show) is the same each time hypothesis replays it."""
    base = data.draw(st.binary(min_size=8, max_size=8), "seed")
    counter = itertools.count()

    def seed() -> str:
        return hashlib.sha256(base + str(next(counter)).encode()).hexdigest()

    with mock.patch("fracas.rules.encounter.new_seed", seed):
        yield


def check_fight(cast: Cast, data: st.DataObject) -> Tally:
    """Play one random honest fight of `cast`, then reveal and audit it: a sound log, every
    seeded roll verified, no rules drift. Returns the run's tally for this ruleset."""
    with drawn_seeds(data):
        return fight(cast, data, TALLIES.setdefault(cast.ruleset, Tally()))


def fight(cast: Cast, data: st.DataObject, tally: Tally) -> Tally:
    fracas, encounter = start(cast, data.draw(st.sampled_from(cast.options), "options"))
    ruleset = encounter.ruleset
    begin = command_strategy(ruleset, "begin", sorted(cast.sheets), [], [], [])
    play(encounter, data.draw(begin, "begin"), data, tally)
    moves = data.draw(st.integers(min(10, cast.moves), cast.moves), "moves")
    for _ in range(moves):
        play(encounter, data.draw(move_strategy(ruleset, encounter, cast), "move"), data, tally)
    with contextlib.suppress(FracasError):
        encounter.reveal()
    report = fracas.audit()
    tally.fights += 1
    tally.drift += len(report.drift)
    problems = [f"step {d.step}: {d.problem}" for d in report.drift]
    assert not problems, "rules drift on an honest fight: " + "; ".join(problems)
    unverified = [r for r in report.rolls if r.verdict not in ("verified", "manual")]
    assert not unverified, f"seeded rolls not verified after the reveal: {unverified}"
    assert report.ok, "the audit of an honest fight failed"
    return tally
