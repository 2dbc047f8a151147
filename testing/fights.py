"""Random honest fights of any ruleset, drawn by hypothesis from what the ruleset declares.

An honest fight is one played only through the public commands: the ruleset's own actions
(their fields drawn from the command structs the ruleset declares), `next`, the GM's commands,
undo and redo, a mid-fight reveal, with dice either seeded or typed in. Every step is checked
as it is played: each draw from the dice is a recorded roll, and a refused move appends
nothing. What is played is kept (`Played`), so that the same fight can be played again.
"""

import contextlib
import hashlib
import itertools
import types
import typing
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import msgspec
from hypothesis import strategies as st

from fracas.ledger import FracasError
from fracas.ledger.errors import RulesetFailedError
from fracas.projections import Fracas
from fracas.rules import Encounter
from fracas.rules.commands import GM, GM_ACTIONS
from fracas.rules.dice import draw, total_of
from fracas.rules.events import Event, Modifier, Roll, Rolled
from fracas.rules.ruleset import REGISTERED, Context, Ruleset, load

TEXT = ["", "a ruling", "on fire", "blessed", "reload", "door"]
RARE = ("end", "reopen")  # GM commands drawn less often, so that fights mostly go on
NEVER_DRAWN = {"join", "modifiers"}  # joins come from the cast; modifiers have their own draw
PEOPLE_FIELDS = (
    "target", "targets", "at", "trigger_by", "unaware", "desperate", "defender", "surprised",
    "surprising",
)  # fmt: skip
CONTROLS = ("undo", "redo", "reveal")


@dataclass(frozen=True)
class Cast:
    """Who fights, under which ruleset (a Ruleset, or the name of an installed one):
    `sheets` join before the fight begins (the first as a PC), `reserves` may join later.
    Give two combatants the same sheet so that ties happen. `options` are the GM's option
    sets, one drawn per fight; `moves` the most moves of one fight. `values` gives the
    values to draw for a field of your commands by its name, where its type alone says too
    little: `{"spell": ("fire bolt", "sleep")}` (combatant ids, weapon names and durations
    are drawn without help). A field given values is drawn in every command that has it
    (include "" where leaving it out is a move worth trying); for a table field (`dict`),
    the values are its entries' values."""

    ruleset: str | Ruleset
    sheets: dict[str, dict[str, Any]]
    reserves: dict[str, dict[str, Any]] = field(default_factory=dict)
    options: tuple[dict[str, Any], ...] = ({},)
    moves: int = 30
    values: dict[str, Sequence[Any]] = field(default_factory=dict)
    # The least share of fights whose `begin` must be taken, and of moves that must be, for
    # a run to have tested anything: below either, the kit fails and says what was refused.
    # (Random moves are often refused by the rules: the built-in rulesets take 40-60%.)
    begun: float = 0.5
    taken: float = 0.25
    # The tries after which an action of `actions` never taken fails the run: every one
    # refused (a field the kit cannot fill, a condition never met) tests none of its rules.
    tried: int = 20
    # The actions only a situation random fights seldom reach allows (escape: only while
    # pinned): never taken, they fail no run.
    seldom: frozenset[str] = frozenset()

    @property
    def rules(self) -> Ruleset:
        return self.ruleset if isinstance(self.ruleset, Ruleset) else load(self.ruleset)

    @property
    def name(self) -> str:
        return self.rules.name


@dataclass
class Tally:
    """What the fights of one run did, for the report: fights, steps, rolls, drift found."""

    fights: int = 0
    begun: int = 0  # fights whose `begin` was taken
    steps: int = 0
    refused: int = 0
    seeded: int = 0
    typed: int = 0
    drift: int = 0
    by_kind: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    # moves refused though taken by whoever was acting (or by anyone, for a reaction or a
    # move without an actor): what `Cast.tried` counts, as a move out of turn is refused by
    # the turn alone, whatever its rules
    tried: Counter = field(default_factory=Counter)

    def coverage(self) -> str:
        """What the fights exercised, in one paragraph for the author to read."""
        moves = self.steps + self.refused
        kinds = ", ".join(f"{kind} {n}" for kind, n in self.by_kind.most_common())
        refusals = "; ".join(f"{why} ({n})" for why, n in self.refusals.most_common(3))
        return (
            f"{self.begun} of {self.fights} fights began; {self.steps} of {moves} moves "
            f"were taken ({kinds or 'none'}); {self.seeded} seeded and {self.typed} typed "
            f"rolls" + (f"; refused most: {refusals}" if refusals else "")
        )

    def thin(self, cast: "Cast") -> str:
        """Why these fights tested too little to pass ('' when they tested enough)."""
        moves = self.steps + self.refused
        never = self.never_taken(cast)
        if never:
            return never
        if self.fights and self.begun < cast.begun * self.fights:
            return (
                f"only {self.begun} of {self.fights} fights began (Cast.begun asks "
                f"{cast.begun:.0%})"
            )
        if moves and self.steps < cast.taken * moves:
            return (
                f"only {self.steps} of {moves} moves were taken, the rest refused (Cast.taken "
                f"asks {cast.taken:.0%})"
            )
        return ""

    def never_taken(self, cast: "Cast") -> str:
        """The ruleset's actions the fights tried `Cast.tried` times or more and never took,
        each with its most common refusal ('' if none): a move refused every time tests
        nothing of its rules. `Cast.seldom` names the actions exempt."""
        untaken = []
        for action in set(cast.rules.actions) - cast.seldom:
            said = f"{action}: "
            refused = Counter({w: n for w, n in self.refusals.items() if w.startswith(said)})
            if not self.by_kind[action] and self.tried[action] >= cast.tried:
                why = refused.most_common(1)[0][0].removeprefix(said)
                untaken.append(
                    f"{action} (refused {self.tried[action]} times in turn, most often: {why})"
                )
        if not untaken:
            return ""
        return (
            f"never taken: {'; '.join(sorted(untaken))} (an action only a rare situation "
            "allows may be named in Cast.seldom)"
        )


TALLIES: dict[str, Tally] = {}


class Played(typing.NamedTuple):
    """One move as it was played: the command (or control) given, GM-only or not, and the
    faces typed in (None: the seeded dice)."""

    move: dict[str, Any]
    secret: bool = False
    faces: list[int] | None = None


@contextlib.contextmanager
def installed(ruleset: Ruleset) -> Iterator[Ruleset]:
    """The ruleset found by name (`fracas.rules.load`, an encounter opened again) while in
    the block, as if installed through the `fracas.rulesets` entry point."""
    before = REGISTERED.get(ruleset.name)
    REGISTERED[ruleset.name] = ruleset
    try:
        yield ruleset
    finally:
        if before is None:
            REGISTERED.pop(ruleset.name, None)
        else:
            REGISTERED[ruleset.name] = before


@contextlib.contextmanager
def cast_installed(cast: Cast) -> Iterator[Ruleset]:
    if isinstance(cast.ruleset, Ruleset):
        with installed(cast.ruleset) as ruleset:
            yield ruleset
    else:
        yield cast.rules


class PickedDice:
    """Faces picked by hypothesis, for a dry run that learns what a command rolls: each
    face is legal[pick % len(legal)]; without picks left a die shows its lowest legal face.
    The legal faces are the dice's, or those the ruleset's `legal_faces` leaves (a deck's
    cards not drawn yet), given the faces this step drew for the same purpose so far."""

    def __init__(
        self,
        picks: Sequence[int],
        legal: Callable[[str, Sequence[int]], Sequence[int]] | None = None,
    ) -> None:
        self.picks = list(picks)
        self.rolls: list[Roll] = []
        self.purposes: list[str] = []  # each roll's purpose, as the rules named it
        self.legal = legal
        self.drawn: dict[str, list[int]] = {}

    def roll(self, spec: str, purpose: str) -> Roll:
        drawn = self.drawn.setdefault(purpose, [])

        def next_face(values: Sequence[int]) -> int:
            if self.legal is not None:
                left = set(self.legal(purpose, drawn))
                values = [v for v in values if v in left] or values
            face = values[self.picks.pop(0) % len(values)] if self.picks else values[0]
            drawn.append(face)
            return face

        faces = draw(spec, next_face)
        roll = Roll(spec, faces, total_of(spec, faces), "manual", "conformance")
        self.rolls.append(roll)
        self.purposes.append(purpose)
        return roll


def every_draw_recorded(
    drawn: list[Roll], events: list[Event], where: str = "the step", purposes: Sequence[str] = ()
) -> None:
    """Every roll the rules drew is recorded as a roll of the step, and nothing else is.
    `where` names the step, `purposes` each drawn roll's purpose, for the messages."""
    recorded = [e.roll for e in events if isinstance(e, Rolled)]
    key = msgspec.json.encode
    unrecorded = Counter(key(r) for r in drawn) - Counter(key(r) for r in recorded)
    invented = Counter(key(r) for r in recorded) - Counter(key(r) for r in drawn)
    missing = [n for n, r in enumerate(drawn) if key(r) in unrecorded]
    assert not unrecorded, unrecorded_draws(where, [drawn[n] for n in missing], purposes, missing)
    assert not invented, (
        f"{where} records a roll its rules never drew ({[r.dice for r in recorded]}): build "
        "each `Rolled` event from the Roll that `ctx.dice.roll(...)` returned"
    )


def unrecorded_draws(
    where: str, rolls: list[Roll], purposes: Sequence[str], numbers: list[int]
) -> str:
    """What a ruleset author reads when a step drew dice it did not record."""
    said = [
        f"{rolls[n].dice if n < len(rolls) else 'a roll'} for {purposes[at]!r}"
        if at < len(purposes)
        else f"draw {at + 1}"
        for n, at in enumerate(numbers)
    ]
    return (
        f"{where} drew {', '.join(said)} but records no `Rolled` event for it: every "
        "`ctx.dice.roll(...)` must be recorded as a `Rolled(actor, purpose, roll, ...)` event "
        "among the step's events, or players and the audit cannot see that die"
    )


# -- drawing commands from what the ruleset declares ---------------------------------------


@dataclass(frozen=True)
class Words:
    """What a drawn command may name: combatants, those acting, words of the sheets,
    weapons, and the author's own values by field."""

    people: list[str]
    acting: list[str]
    words: list[str]
    weapons: list[str]
    values: dict[str, Sequence[Any]] = field(default_factory=dict)


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
    sheets = [*cast.sheets.values(), *cast.reserves.values()]
    return sorted({name for sheet in sheets for name in cast.rules.weapons_of(sheet)})


def value_for(name: str, hint: Any, w: Words) -> st.SearchStrategy:
    """A strategy for one command field, from its type and, for strings, its name."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if name in w.values and hint is not type(None) and origin not in (list, dict):
        return st.sampled_from(list(w.values[name]))
    if origin is typing.Annotated:
        return value_for(name, args[0], w)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([value_for(name, a, w) for a in args])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(1, 6) if name in ("amount", "hp") else st.integers(-1, 6)
    if origin is list:
        inner = value_for(name, args[0], w)
        if name == "targets":  # mostly one target, as most actions take
            return st.lists(inner, min_size=1, max_size=1) | st.lists(inner, max_size=2)
        return st.lists(inner, max_size=2)
    if origin is dict:
        return st.dictionaries(st.sampled_from(w.people), value_for(name, args[1], w), max_size=1)
    if hint is str:
        return text_for(name, w)
    return st.nothing()


def text_for(name: str, w: Words) -> st.SearchStrategy:
    if name == "actor":
        return st.sampled_from(w.acting * 4 + w.people) if w.acting else st.sampled_from(w.people)
    if name in PEOPLE_FIELDS:
        return st.sampled_from(w.people)
    if name == "until":  # a condition's duration: the edge of someone's next turn
        return st.sampled_from([f"{edge}:{p}" for edge in ("end", "start") for p in w.people])
    if name in ("weapon", "item", "defence_weapon") and w.weapons:
        return st.sampled_from(w.weapons)
    return st.sampled_from(w.words + TEXT + w.people)


STRATEGIES_KEPT = 512  # strategies kept (see command_strategy)
_strategies: dict[tuple[Any, ...], tuple[Ruleset, st.SearchStrategy]] = {}


def kept(ruleset: Ruleset, what: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    """The strategy `build()` makes for `ruleset` and `what`, made once and kept: a fight
    draws a command at every move among the same few people, and a new strategy each time
    cost hypothesis more (working out anew whether each part can draw anything, validating
    it, filling its caches) than the whole fight's rules; the same strategy draws the same
    command from the same choices."""
    key = (id(ruleset), *what)
    found = _strategies.get(key)
    if found is not None and found[0] is ruleset:
        return found[1]
    strategy = build()
    _strategies[key] = (ruleset, strategy)  # the ruleset kept too: its id is not reused
    if len(_strategies) > STRATEGIES_KEPT:
        del _strategies[next(iter(_strategies))]
    return strategy


def said_by(w: Words) -> bytes:
    """The words a strategy draws from, as a key."""
    return msgspec.json.encode([w.people, w.acting, w.words, w.weapons, repr(w.values)])


def command_strategy(ruleset: Ruleset, action: str, w: Words) -> st.SearchStrategy:
    """A command of `action` with every field drawn from its declared type (or left out);
    the same strategy for the same ruleset, action and words (`kept`)."""
    return kept(
        ruleset, ("command", action, said_by(w)), lambda: _command_strategy(ruleset, action, w)
    )


def targeted(ruleset: Ruleset, action: str, w: Words) -> st.SearchStrategy:
    """`command_strategy`, with others targeted (`others_targeted`), kept alike."""

    def build() -> st.SearchStrategy:
        return command_strategy(ruleset, action, w).map(lambda c: others_targeted(c, w.people))

    return kept(ruleset, ("targeted", action, said_by(w)), build)


def _command_strategy(ruleset: Ruleset, action: str, w: Words) -> st.SearchStrategy:
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
        strategy = value_for(name, hint, w)
        always = name in required or name == "targets" or name in w.values
        (fields if always else optional)[name] = strategy
    if "modifiers" in hints:
        optional["modifiers"] = st.lists(
            st.builds(Modifier, st.sampled_from([-20, -2, -1, 1, 2, 20]), st.just("ruling")),
            max_size=1,
        ).map(lambda ms: [msgspec.to_builtins(m) for m in ms])
    return st.fixed_dictionaries(fields, optional=optional)


def words_now(encounter: Encounter, cast: Cast) -> Words:
    people = sorted(encounter.state.fighters)
    acting = list(encounter.view().acting)
    return Words(people, acting, vocabulary(cast), weapon_names(cast), cast.values)


def own_move(ruleset: Ruleset, w: Words) -> st.SearchStrategy:
    """One of the ruleset's own actions (attack first, as shrinking goes), drawn whole."""

    def build() -> st.SearchStrategy:
        def of(action: str) -> st.SearchStrategy:
            return targeted(ruleset, action, w)

        return st.sampled_from(sorted(ruleset.actions, key=lambda a: a != "attack")).flatmap(of)

    return kept(ruleset, ("own", said_by(w)), build)


def move_strategy(ruleset: Ruleset, encounter: Encounter, cast: Cast) -> st.SearchStrategy:
    """One move at the table now: mostly the ruleset's own actions by whoever may act; the
    same strategy for the same words, joiners and needs (`kept`)."""
    w = words_now(encounter, cast)
    present = encounter.state.fighters
    joining = [
        {"action": "join", "combatant": who, "sheet": sheet}
        for who, sheet in cast.reserves.items()
        if who not in present
    ]
    needs = needs_now(ruleset, encounter)

    def of(action: str) -> st.SearchStrategy:
        return targeted(ruleset, action, w)

    def build() -> st.SearchStrategy:
        gm = [f"{GM}{verb}" for verb in GM_ACTIONS for _ in range(1 if verb in RARE else 3)]
        needed = needed_of(ruleset, needs, w)
        moves = {
            "own": own_move(ruleset, w),
            "next": of("next"),
            "gm": st.sampled_from(gm).flatmap(of),
            "control": st.sampled_from([{"action": c} for c in CONTROLS]),
            "join": st.sampled_from(joining) if joining else st.nothing(),
            "needed": st.one_of(needed) if needed else st.nothing(),
        }
        kinds = ["own"] * 10 + ["next"] * 2 + ["gm"] * 3 + ["control"] + ["join"] * bool(joining)
        return st.sampled_from(kinds + ["needed"] * 6 * bool(needed)).flatmap(moves.__getitem__)

    key = ("move", said_by(w), msgspec.json.encode([joining, needs]))
    return kept(ruleset, key, build)


def needed_moves(ruleset: Ruleset, encounter: Encounter, w: Words) -> list[st.SearchStrategy]:
    """The actions a combatant's condition allows (`Playable.needs`: escape while pinned,
    stand while prone), by that combatant: drawn among all the others, random fights took
    them too seldom to test them (the situation comes, then passes before they are drawn)."""
    return needed_of(ruleset, needs_now(ruleset, encounter), w)


def needs_now(ruleset: Ruleset, encounter: Encounter) -> list[tuple[str, str]]:
    """(combatant, action) for each action a combatant's condition allows now."""
    needs = []
    for row in encounter.view().wounds:
        shown = {word for condition in row.conditions for word in condition.split()}
        for action in sorted(ruleset.actions):
            playable = ruleset.playable(action)
            if playable is not None and playable.needs & shown:
                needs.append((row.combatant, action))
    return needs


def needed_of(ruleset: Ruleset, needs: list[tuple[str, str]], w: Words) -> list[st.SearchStrategy]:
    moves = []
    for combatant, action in needs:
        command = command_strategy(ruleset, action, w)
        moves.append(command.map(lambda c, who=combatant: {**c, "actor": who}))
    return moves


def others_targeted(command: dict[str, Any], people: list[str]) -> dict[str, Any]:
    """An actor's own name among the targets becomes the next combatant's: a legal target
    is what the fight needs most (refusing self-targeting is tested elsewhere)."""
    actor, targets = command.get("actor"), command.get("targets")
    if not targets or actor not in targets or len(people) < 2:
        return command
    other = people[(people.index(actor) + 1) % len(people)] if actor in people else people[0]
    return {**command, "targets": [other if t == actor else t for t in targets]}


# -- playing a fight ---------------------------------------------------------------------


def start(
    cast: Cast, options: dict[str, Any], fracas: Fracas | None = None
) -> tuple[Fracas, Encounter]:
    """A new encounter of the cast (in memory unless given a log), everyone joined."""
    fracas = fracas or Fracas(":memory:")
    encounter = fracas.new(cast.name, title="conformance", options=options, encounter="fight")
    for i, (who, sheet) in enumerate(cast.sheets.items()):
        side = "pc" if i == 0 else "npc"
        command = {"action": "join", "combatant": who, "sheet": sheet, "side": side}
        encounter.execute(encounter.ruleset.command(command), command_id=f"join-{who}")
    return fracas, encounter


def play(
    encounter: Encounter,
    move: dict[str, Any],
    data: st.DataObject,
    tally: Tally,
    played: list[Played] | None = None,
) -> bool:
    """One move, with seeded or typed dice; a refused move must leave the log as it was.
    What was played is added to `played`; returns whether the move was taken."""
    control = move["action"]
    version = encounter.version
    command_id = f"move-{len(played or [])}-{version}"
    try:
        if control in CONTROLS:
            given = Played(move)
            control_of(encounter, control, command_id)
        else:
            given = step(encounter, move, data, tally, command_id)
    except RulesetFailedError:  # the ruleset crashed: a bug, never a refusal
        raise
    except FracasError as error:
        tally.refused += 1
        tally.refusals[f"{control}: {str(error)[:70]}"] += 1
        if in_turn(encounter, move):
            tally.tried[control] += 1
        assert encounter.version == version, f"{move} was refused but appended"
        return False
    if played is not None:
        played.append(given)
    tally.steps += 1
    tally.by_kind[control] += 1
    return True


def in_turn(encounter: Encounter, move: dict[str, Any]) -> bool:
    """Whether a move was made by whoever is acting, or needs no turn: a reaction, or a
    move of no one's (a GM's, a `next`)."""
    actor = move.get("actor")
    playable = encounter.ruleset.playable(move["action"])
    if actor is None or (playable is not None and playable.reaction):
        return True
    return actor in encounter.view().acting


def control_of(encounter: Encounter, control: str, command_id: str) -> None:
    if control == "reveal":
        encounter.reveal()
    else:
        getattr(encounter, control)(command_id=command_id)


def step(
    encounter: Encounter,
    move: dict[str, Any],
    data: st.DataObject,
    tally: Tally,
    command_id: str,
    secret: bool | None = None,
    typed: bool | None = None,
) -> Played:
    """Decide the move once on picked faces to learn what it rolls and check that every draw
    is recorded; then play it for real, on those faces typed in or on the seeded dice."""
    ruleset = encounter.ruleset
    command = ruleset.command(move)
    if secret is None:
        secret = data.draw(st.sampled_from([False, False, False, True]), "secret")
    picks = data.draw(st.lists(st.integers(0, 2**16), max_size=12), "faces")
    state = encounter.state
    legal = ruleset.legal_faces
    dice = PickedDice(picks, legal and (lambda purpose, drawn: legal(state, purpose, drawn)))
    ctx = Context(dice, encounter.history.head_step + 1, "gm", "dry-run")
    events = ruleset.decide_step(encounter.state, command, ctx, secret=secret)
    where = f"step {ctx.step} ({move.get('action', 'a move')})"
    every_draw_recorded(dice.rolls, events, where, dice.purposes)
    if typed is None:
        typed = data.draw(st.booleans(), "typed dice")
    faces = [f for roll in dice.rolls for f in roll.faces] if typed else None
    outcome = encounter.execute(command, dice=faces, secret=secret, command_id=command_id)
    seeded = [e.roll for e in outcome.events if isinstance(e, Rolled) and e.roll.source == "seeded"]
    counters = sorted(int(r.counter.rsplit(".", 1)[1]) for r in seeded if r.counter)
    missing = sorted(set(range(max(counters, default=-1) + 1)) - set(counters))
    assert counters == list(range(len(seeded))), unrecorded_draws(where, [], dice.purposes, missing)
    tally.typed += len(dice.rolls) if typed else 0
    tally.seeded += len(seeded)
    return Played(move, secret, faces)


def replay_moves(encounter: Encounter, played: list[Played]) -> None:
    """The moves of another fight played again, in order, on the same dice."""
    ruleset = encounter.ruleset
    for n, (move, secret, faces) in enumerate(played):
        command_id = f"move-{n}-{encounter.version}"
        if move["action"] in CONTROLS:
            control_of(encounter, move["action"], command_id)
        else:
            command = ruleset.command(move)
            encounter.execute(command, dice=faces, secret=secret, command_id=command_id)


@contextlib.contextmanager
def seeded_by(base: bytes) -> Iterator[None]:
    """The encounter's dice seeds derived from `base`, one after the other, so that a fight
    (and what its seeded rolls show) is the same each time it is played from the start."""
    counter = itertools.count()

    def seed() -> str:
        return hashlib.sha256(base + str(next(counter)).encode()).hexdigest()

    with mock.patch("fracas.rules.encounter.new_seed", seed):
        yield


def drawn_seed(data: st.DataObject) -> bytes:
    return data.draw(st.binary(min_size=8, max_size=8), "seed")


HIDDEN, HIDDEN_NAME = "zzlurker", "Zz Lurker"  # no other text of a fight holds these
OTHER, OTHER_NAME = "zzlurkes", "Zz Lurkes"  # another hidden one, sorted alike


def join_hidden(encounter: Encounter, cast: Cast, who: str, name: str) -> None:
    """The cast's first reserve (or first) sheet joins hidden, as `who` called `name`."""
    sheet = next(iter((cast.reserves or cast.sheets).values()))
    join = {"action": "join", "combatant": who, "name": name, "sheet": sheet}
    encounter.execute(encounter.ruleset.command(join), command_id="hidden", hidden=True)


def random_fight(
    cast: Cast,
    data: st.DataObject,
    tally: Tally,
    fracas: Fracas | None = None,
    *,
    hidden: bool = False,
) -> tuple[Fracas, Encounter, dict[str, Any], list[Played]]:
    """A fight drawn by hypothesis: the cast joins (`hidden`: and the kit's hidden
    combatant, unseen by the players), the fight begins, then moves."""
    options = data.draw(st.sampled_from(cast.options), "options")
    fracas, encounter = start(cast, options, fracas)
    if hidden:
        join_hidden(encounter, cast, HIDDEN, HIDDEN_NAME)
    played: list[Played] = []
    ruleset = encounter.ruleset
    begin = command_strategy(ruleset, "begin", Words(sorted(cast.sheets), [], [], []))
    tally.fights += 1
    tally.begun += play(encounter, data.draw(begin, "begin"), data, tally, played)
    moves = data.draw(st.integers(min(10, cast.moves), cast.moves), "moves")
    for _ in range(moves):
        move = data.draw(move_strategy(ruleset, encounter, cast), "move")
        play(encounter, move, data, tally, played)
    return fracas, encounter, options, played


Check = Callable[[Fracas, Encounter], None]
