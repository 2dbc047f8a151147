"""Deciding recorded steps again: the rules-drift check and the what-if branch.

Every step carries its command, so any step can be decided again from the state before it,
with the dice it recorded handed back in the order the rules ask for them.
"""

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from fracas.ledger import BadInputError, FracasError, History, RefusedError
from fracas.ledger.history import COMMAND
from fracas.rules.dice import (
    Dice,
    ManualDice,
    SeededDice,
    draw,
    faces_by_total,
    is_unneeded,
    parse_terms,
    rolled,
)
from fracas.rules.encounter import Encounter, StepOutcome
from fracas.rules.events import CombatantHidden, Commanded, Declared, Event, Roll, Rolled
from fracas.rules.reactions import asked_in
from fracas.rules.roster import fold
from fracas.rules.ruleset import Context, Ruleset, command_of
from fracas.rules.sheets import deep_merge
from fracas.rules.timeline import events_by_step, fold_effective, walk


class UnrecordedRoll(FracasError):
    """The rules asked for a roll the step never made."""


class ReplayDice:
    """A step's recorded rolls, handed back as the rules ask for them again: each request
    takes the first unused recorded roll of the same dice. Typed faces (an amended roll) come
    first; a roll never recorded comes from `fresh`, or is refused when there is none."""

    def __init__(
        self,
        recorded: list[Roll],
        typed: ManualDice | None = None,
        fresh: Dice | None = None,
    ) -> None:
        self.unused = list(recorded)
        self.typed, self.fresh = typed, fresh

    def roll(self, spec: str, purpose: str) -> Roll:
        recorded = next((r for r in self.unused if r.dice == spec), None)
        if recorded is not None:
            self.unused.remove(recorded)
        if self.typed is not None and self.typed.faces:
            return self.typed.roll(spec, purpose)
        if recorded is not None:
            return recorded
        if self.fresh is not None:
            return self.fresh.roll(spec, purpose)
        raise UnrecordedRoll(f"the rules now roll {spec} for the {purpose}, never rolled then")


def rolls_of(events: list[Event]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled)]


def same_events(a: list[Event], b: list[Event]) -> bool:
    """The same decisions: a modifier's `note` (how it is said, which a log written before
    it had none of) aside, and a line saying typed faces were not needed (not the rules' to
    decide) left out."""
    kept_a = [e for e in a if not is_unneeded(e)]
    kept_b = [e for e in b if not is_unneeded(e)]
    # equal as they stand (nearly always): no need to set the notes aside
    return kept_a == kept_b or [_decided(e) for e in kept_a] == [_decided(e) for e in kept_b]


def _decided(event: Event) -> bytes:
    return msgspec.json.encode(_unnoted(msgspec.to_builtins(event)))


def _unnoted(value: Any) -> Any:
    """A modifier's fields without its `note` (a modifier: value, reason, rule and note)."""
    if isinstance(value, dict):
        if value.keys() >= MODIFIER_FIELDS:
            value = {k: v for k, v in value.items() if k != "note"}
        return {k: _unnoted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unnoted(v) for v in value]
    return value


MODIFIER_FIELDS = frozenset(("value", "reason", "rule", "note"))


# -- every outcome a step could have had ------------------------------------------------


class Unscripted(Exception):
    """The rules asked for a face the script does not hold: one of `choices` faces."""

    def __init__(self, choices: int) -> None:
        super().__init__(choices)
        self.choices = choices


class Unbounded(Exception):
    """The rules roll dice that explode: their faces have no end to try."""


class ScriptedDice:
    """Every face from a script of choices (the index of the face among a die's faces), in
    the order the rules roll; past the end of the script, asks which face comes next."""

    def __init__(self, script: list[int], totals: bool = False) -> None:
        self.script, self.at = script, 0
        self.totals = totals  # one choice per total the roll can show (`reads_totals`)

    def roll(self, spec: str, purpose: str) -> Roll:
        if any(term.explode for term in parse_terms(spec)):
            raise Unbounded(spec)
        by_total = faces_by_total(spec) if self.totals else None
        if by_total is not None:
            if self.at == len(self.script):
                raise Unscripted(len(by_total))
            self.at += 1
            return rolled(spec, by_total[self.script[self.at - 1]], "manual", "gm")

        def next_face(values: Sequence[int]) -> int:
            if self.at == len(self.script):
                raise Unscripted(len(values))
            self.at += 1
            return values[self.script[self.at - 1]]

        return rolled(spec, draw(spec, next_face), "manual", "gm")


def every_outcome(
    ruleset: Ruleset,
    before: Any,
    recorded: list[Event],
    budget: int,
    ctx: Context,
    *,
    refused: bool = False,
    totals: bool = False,
) -> list[list[Event]] | None:
    """Every decision a recorded step could have made had its dice fallen any other way:
    the step decided again from the state before it with every sequence of faces the rules
    may ask for (a hit asks for damage, a miss does not). None when that takes more than
    `budget` decisions, when the dice explode, or when some faces make the rules refuse it
    (with `refused`, a refusal is an outcome: no events). `totals`: each roll shows one
    face list per total it can have (a ruleset that reads only totals, `reads_totals`).
    `ctx` gives the step's number, author and command id; its dice are not used."""
    outcomes: list[list[Event]] = []
    scripts: list[list[int]] = [[]]
    while scripts:
        if budget == 0:
            return None
        budget -= 1
        script = scripts.pop()
        dice = ScriptedDice(script, totals)
        scripted = Context(dice, ctx.step, ctx.author, ctx.command_id)
        try:
            outcomes.append(decide_again(ruleset, before, recorded, scripted, None))
        except Unscripted as need:
            scripts.extend([*script, face] for face in range(need.choices))
        except FracasError:
            if not refused:
                return None
            outcomes.append([])
        except Unbounded:
            return None
    return outcomes


# -- the rules-drift check ---------------------------------------------------------------


class Drift(msgspec.Struct, frozen=True):
    step: int
    problem: str
    recorded: list[Event]
    decided: list[Event]


def drift(encounter: Encounter, progress: Callable[[int], None] | None = None) -> list[Drift]:
    """Every step the current rules code would decide differently from its recorded dice;
    `progress` is told each step's number as it is checked."""
    ruleset = encounter.ruleset
    found = []
    for frame in walk(encounter.store, encounter.id, ruleset):
        record = frame.record
        if progress is not None:
            progress(record.step)
        if record.control != COMMAND or frame.command is None:
            continue
        given = next((e for e in frame.events if isinstance(e, Declared | Commanded)), None)
        if given is not None and given.command_id != record.command_id:
            problem = (
                f"its step record names command id {record.command_id!r}, its command "
                f"{given.command_id!r}: the step records were edited"
            )
            found.append(Drift(record.step, problem, [], []))
            continue
        rolled = rolls_of(frame.events)
        dice = ReplayDice([r.roll for r in rolled])
        ctx = Context(dice, record.step, record.author, record.command_id)
        try:
            decided = decide_again(ruleset, frame.before, frame.events, ctx, None)
        except FracasError as error:
            found.append(Drift(record.step, f"the rules now refuse it: {error}", frame.events, []))
            continue
        if dice.unused:
            spare = ", ".join(f"{r.dice} {r.faces}" for r in dice.unused)
            found.append(Drift(record.step, f"recorded rolls now unused: {spare}", [], []))
        elif not same_events(decided, frame.events):
            problem = "the rules now decide it differently"
            found.append(Drift(record.step, problem, frame.events, decided))
    return found


# -- what if -----------------------------------------------------------------------------


class BranchStep(msgspec.Struct, frozen=True):
    step: int  # the step of the main line this one re-decides
    recorded: list[Event]
    decided: list[Event] | None  # None: no longer legal in the branch
    refused: str = ""
    command_id: str = ""
    author: str = "gm"

    @property
    def decision(self) -> bool:
        return command_of(self.recorded) is not None


class Branch(msgspec.Struct, frozen=True):
    encounter: str
    from_step: int
    head_version: int
    steps: list[BranchStep]
    main: Any  # the state of the main line now
    state: Any  # the state at the end of the branch

    @property
    def superseded(self) -> list[int]:
        return [s.step for s in self.steps if s.decision]

    @property
    def changed(self) -> bool:
        return any(
            s.decided is None or not same_events(outcome(s.decided), outcome(s.recorded))
            for s in self.steps
        )


def outcome(events: list[Event]) -> list[Event]:
    """What a step did, leaving out who declared it (the branch declares it again)."""
    return [e for e in events if command_of([e]) is None]


def whatif(
    encounter: Encounter,
    step: int,
    *,
    dice: list[int] | None = None,
    entered_by: str = "gm",
    amend: dict[str, Any] | None = None,
) -> Branch:
    """Decide step `step` again with typed dice and/or an amended command, then every later
    step in effect with its recorded dice. The main line is not touched."""
    encounter.reload()
    store, ruleset, history = encounter.store, encounter.ruleset, encounter.history
    by_step = events_by_step(store, encounter.id, ruleset)
    check_branch_point(history, by_step, step)
    if dice is None and not amend:
        raise BadInputError("say what differs: --dice with the faces, or --set on the command")
    state = fold_effective(ruleset, by_step, history, below=step)
    later = [
        r
        for r in history.steps
        if r.step >= step and r.control == COMMAND and r.step not in history.undone
    ]
    version = history.head_version
    next_step = history.head_step + sum(1 for r in later if command_of(by_step[r.step])) + 1
    epoch = encounter.seed_epoch()
    seed = encounter.sealed_seed()
    steps = []
    for record in later:
        recorded = by_step[record.step]
        if command_of(recorded) is None:
            state = fold(ruleset.evolve, state, recorded)
            steps.append(BranchStep(record.step, recorded, recorded, author=record.author))
            continue
        amended = record.step == step
        typed = ManualDice(dice, entered_by) if amended and dice is not None else None
        fresh = SeededDice(seed, epoch, encounter.id, f"w{version}-{next_step}") if seed else None
        command_id = f"{record.command_id}~w{version}"
        ctx = Context(
            ReplayDice([r.roll for r in rolls_of(recorded)], typed, fresh),
            next_step,
            record.author,
            command_id,
        )
        try:
            decided = decide_again(ruleset, state, recorded, ctx, amend if amended else None)
            if typed is not None:
                typed.finish()
        except FracasError as error:
            if amended:
                raise
            steps.append(BranchStep(record.step, recorded, None, str(error)))
            continue
        state = fold(ruleset.evolve, state, decided)
        steps.append(BranchStep(record.step, recorded, decided, "", command_id, record.author))
        next_step += 1
    return Branch(encounter.id, step, version, steps, encounter.state, state)


def check_branch_point(history: History, by_step: dict[int, list[Event]], step: int) -> None:
    record = next((r for r in history.steps if r.step == step), None)
    if record is None or record.control != COMMAND or command_of(by_step[step]) is None:
        raise BadInputError(
            f"step {step} is not a decision of this encounter; `fracas log` shows the steps"
        )
    if step in history.undone:
        raise BadInputError(
            f"step {step} is not in effect (undone or superseded); "
            "`fracas log` shows the steps in effect"
        )


def decide_again(
    ruleset: Ruleset, state: Any, recorded: list[Event], ctx: Context, amend: dict | None
) -> list[Event]:
    """A recorded step decided again, its command amended if asked, GM-only if it was."""
    command = command_of(recorded) or {}
    if amend:
        command = deep_merge(command, amend)
    secret = any(r.secret for r in rolls_of(recorded))
    hidden = any(isinstance(e, CombatantHidden) for e in recorded)
    asked = asked_in(recorded)
    secret = secret or (asked is not None and asked[1])
    ask = asked[0] if asked else None
    return ruleset.decide_step(
        state, ruleset.command(command), ctx, secret=secret, hidden=hidden, ask=ask
    )


def adopt(encounter: Encounter, branch: Branch, *, author: str = "gm") -> list[StepOutcome]:
    """Make the branch the main line, by appending: every step it re-decided is marked
    superseded, then the branch's steps are recorded, all in one transaction."""
    if encounter.version != branch.head_version:
        raise RefusedError("the encounter moved on since this what-if; run it again")
    if not branch.changed:
        raise RefusedError("this branch decides every step as recorded: nothing to adopt")
    replacements = [
        (s.decided, s.command_id, s.author)
        for s in branch.steps
        if s.decision and s.decided is not None
    ]
    return encounter.replace(branch.superseded, replacements, author=author)
