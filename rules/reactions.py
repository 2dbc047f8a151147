"""Waiting for a reaction: an attack that gives its target a choice waits for the answer.

How it goes, in every ruleset that names its choices:

1. The table asks: `Encounter.execute(command, ask=Ask(deadline, targets))` (`ask_until(60)`
   sets the deadline a minute from now), the CLI's `act ... --ask [--wait SECONDS]`. The
   ruleset's hook `Ruleset.reactions(state, command) -> {target: Choices}` says which targets
   have a choice now, what it is, which field of the command it fills and what applies with
   no answer.
   The attack is tried (and thrown away) so that an illegal one is refused at once; then
   the step records the declaration and one `reaction.asked` per target, and rolls nothing.
   A target with fewer than two options, or whose reaction the command already gives, is
   not asked; with nobody to ask the attack is decided at once as it always was.
2. While it waits (the state's `asking`, a `Waiting`): the GM's commands (`gm.*`), joins,
   notes, undo and redo go on; any other command is refused with one line naming who is
   waited on. `gm.withdraw` takes the waiting attack back (`reaction.withdrawn`).
3. The answers: `answer` (combatant, choice) by the target's player or the GM for them
   (`reaction.given`, with the step's author), or `timeout` (at) once the deadline is past,
   by anyone (`reaction.timed-out` for every target not yet answered, with the default the
   ruleset named and its rule). The step that brings the last answer also decides the
   attack, its command filled with the answers, on the state as it is then: the answering
   step holds the answer command, the answers and every roll, so `audit` decides it again
   from them; undoing it returns to waiting, undoing the asking step takes the attack back.

A ruleset whose reactions answer what the dice did (d20's shield, taken once the attack
hits; hellish rebuke, once the damage lands) names the targets that may be asked so
(`Ruleset.reacts_after`). With `--ask` such an attack is rolled at once; when the trigger
comes for one of them, the ruleset's `decide` raises `ReactionDue`: the asking step records
the rolls made so far and the question (`reaction.asked` with `rolled` and `trigger`), and
changes nothing else. The answering step decides the command again, taking those rolls
first (so the attack is the one the target saw), and drops their `rolled` events (the
asking step holds them); its own decision may come to another trigger, and ask again.

Two writers answering at once: one append lands; the other is decided again on the new
head (optimistic concurrency, `Encounter.execute`) and refused in one line.
"""

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from msgspec.structs import replace

from fracas.ledger import BadInputError, FracasError, RefusedError
from fracas.rules.commands import Command, Join
from fracas.rules.dice import ManualDice, draw
from fracas.rules.events import (
    Choices,
    Commanded,
    Event,
    ReactionAsked,
    ReactionGiven,
    ReactionTimedOut,
    ReactionWithdrawn,
    Roll,
    Rolled,
)

ANSWER, TIMEOUT, WITHDRAW = "answer", "timeout", "gm.withdraw"


class Ask(msgspec.Struct, frozen=True):
    """The table wants the targets' players to answer: by `deadline` (ISO 8601 UTC, ""
    for none); `targets`: only these (None: every target the rules give a choice)."""

    deadline: str = ""
    targets: list[str] | None = None


class Waiting(msgspec.Struct, frozen=True):
    """An attack waiting for its targets' reactions: the ruleset State's `asking`."""

    step: int
    actor: str
    command: dict[str, Any]
    asked: dict[str, Choices]
    deadline: str = ""
    secret: bool = False
    answers: dict[str, str] = {}
    rolled: list[Roll] = []  # asked once the dice showed the trigger: the rolls so far
    trigger: str = ""  # what the target saw, in words
    # The trigger as players read it while the attacker is hidden from them: nothing of
    # its name nor of what it wields ("Someone unseen hits Ilse: 14 vs AC 12"); "": none.
    unseen: str = ""
    waits_on: list[str] = []  # who a later trigger of the same command may ask

    @property
    def unanswered(self) -> list[str]:
        return [t for t in self.asked if t not in self.answers]


class Answer(Command, tag=ANSWER):
    """A target's reaction to the attack that waits for it, by their player or the GM."""

    combatant: str
    choice: str


class TimeOut(Command, tag=TIMEOUT):
    """The deadline has passed (`at`: now, ISO 8601): the rules' default for every target
    not yet answered."""

    at: str


class Withdraw(Command, tag=WITHDRAW):
    """The GM takes back the attack that waits for a reaction."""

    reason: str = ""


class ReactionDue(Exception):
    """Raised by a ruleset's `decide` when the dice show a reaction's trigger for a target
    the table waits on (`Context.ask`): `choices` for `target`, the `events` decided so far
    (their rolls are kept in the asking step) and what the target saw (`trigger`, words a
    player may read: no hidden figure of the attacker's); `unseen`: the same as players
    read it while the attacker is hidden from them, a sentence naming neither it nor what
    it wields ("Someone unseen hits Ilse: 14 vs AC 12"; "": they are told none)."""

    def __init__(
        self, target: str, choices: Choices, events: list[Event], trigger: str, unseen: str = ""
    ) -> None:
        super().__init__(target)
        self.target, self.choices, self.events, self.trigger = target, choices, events, trigger
        self.unseen = unseen

    def after(self, earlier: list[Event]) -> "ReactionDue":
        """The same question with the events decided before the part that raised it."""
        self.events = [*earlier, *self.events]
        return self


COMMANDS = (Answer, TimeOut, Withdraw)
ACTIONS = (ANSWER, TIMEOUT, WITHDRAW)


def ask_until(seconds: float | None, targets: list[str] | None = None) -> Ask:
    """An Ask with its deadline `seconds` from now (None: no deadline)."""
    deadline = "" if seconds is None else stamp(datetime.now(UTC) + timedelta(seconds=seconds))
    return Ask(deadline, targets)


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def now() -> str:
    return stamp(datetime.now(UTC))


def moment(text: str, what: str) -> datetime:
    """An ISO 8601 time as given; one line if it is not one."""
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        raise BadInputError(
            f"{what} {text!r} is not an ISO 8601 time like 2026-11-25T23:30:00Z"
        ) from None
    return found if found.tzinfo else found.replace(tzinfo=UTC)


def asking(state: Any) -> Waiting | None:
    return getattr(state, "asking", None)


def can_wait(state: Any) -> bool:
    return "asking" in getattr(type(state), "__struct_fields__", ())


# -- while it waits ----------------------------------------------------------------------


def name_of(state: Any, who: str) -> str:
    fighter = getattr(state, "fighters", {}).get(who)
    return getattr(fighter, "name", who) if fighter is not None else who


def waiting_line(state: Any, waiting: Waiting, *, commands: bool = True) -> str:
    """Who is waited on, and how to answer: with the GM's commands, or (`commands` False:
    a refusal a player's phone may be given too) in words alone."""
    asked = [
        f"{name_of(state, t)} ({' | '.join(waiting.asked[t].options)})" for t in waiting.unanswered
    ]
    action = waiting.command.get("action", "action")
    seen = f" ({waiting.trigger})" if waiting.trigger else ""
    waits = (
        f"{name_of(state, waiting.actor)}'s {action} (step {waiting.step}){seen} waits for the "
        f"reaction of {', '.join(asked)}"
    )
    if not commands:
        until = f"; after {waiting.deadline} the rules' default holds" if waiting.deadline else ""
        return f"{waits}{until}; the GM may answer for them, withdraw the attack or undo it"
    until = f"; after {waiting.deadline} the rules' default (`answer --timeout`)"
    return (
        f"{waits}: `answer TARGET CHOICE`"
        f"{until if waiting.deadline else ''}; the GM may `answer --withdraw` it or undo"
    )


def check_free(state: Any, command: Any) -> None:
    """While an attack waits, every command but the GM's, a join and an answer is refused."""
    waiting = asking(state)
    if waiting is not None and not isinstance(command, Join):
        raise RefusedError(f"not now: {waiting_line(state, waiting, commands=False)}")


# -- asking ------------------------------------------------------------------------------


class Recording:
    """Dice that hand out `dice`'s rolls and keep them, in order, with their purposes."""

    def __init__(self, dice: Any) -> None:
        self.dice, self.rolls = dice, []  # type: ignore[var-annotated]

    def roll(self, spec: str, purpose: str) -> Roll:
        roll = self.dice.roll(spec, purpose)
        self.rolls.append((purpose, roll))
        return roll


class Primed(Recording):
    """The rolls an asking step made, handed back first (each to the first request for the
    same dice, as `audit` replays a step), then `dice`'s own."""

    def __init__(self, rolled: list[Roll], dice: Any) -> None:
        super().__init__(dice)
        self.unused = list(rolled)
        self.primed: list[Roll] = []

    def roll(self, spec: str, purpose: str) -> Roll:
        found = next((r for r in self.unused if r.dice == spec), None)
        if found is None:
            return super().roll(spec, purpose)
        self.unused.remove(found)
        self.primed.append(found)
        self.rolls.append((purpose, found))
        return found


class TrialDice:
    """Dice for trying a command without keeping anything: every die shows its lowest face."""

    def roll(self, spec: str, purpose: str) -> Roll:
        faces = draw(spec, lambda values: values[0])
        return ManualDice(faces, "trial").roll(spec, purpose)


@dataclass
class Trial:
    """A Context for trying a command and throwing its events away (no ruleset imports)."""

    dice: TrialDice
    step: int = 0
    author: str = "gm"
    command_id: str = ""
    ask: frozenset[str] = frozenset()


def allowed(
    decide: Callable[[Any, Any, Any], Any],
    state: Any,
    command: Any,
    target: str,
    choices: Choices,
) -> Choices | None:
    """`choices` cut to the options the rules accept for `target` now, each tried (on dice
    showing their lowest faces, every event thrown away); None when fewer than two are left.
    A ruleset's hook names the options its rules give and lets the rules themselves judge."""
    given = msgspec.to_builtins(command)
    kept = []
    for option in choices.options:
        trial = msgspec.convert(filled(given, {target: option}, {target: choices}), type(command))
        try:
            decide(state, trial, Trial(TrialDice()))
        except FracasError:
            continue
        kept.append(option)
    if len(kept) < 2 or choices.default not in kept:
        return None
    return replace(choices, options=kept)


def offer(
    decide: Callable[[Any, Any, Any], Any],
    state: Any,
    command: Any,
    choices: Choices,
    skip: Collection[str] = (),
) -> dict[str, Choices]:
    """`choices`, cut by `allowed`, for each target of `command` whose reaction the command
    does not give already (nor in `skip`): the body of most rulesets' hook."""
    given = getattr(command, choices.field, None) or {}
    found = {}
    for target in getattr(command, "targets", None) or []:
        if target in given or target in skip:
            continue
        kept = allowed(decide, state, command, target, choices)
        if kept is not None:
            found[target] = kept
    return found


def offered(ruleset: Any, state: Any, command: Any, wish: Ask) -> dict[str, Choices]:
    """The targets to ask: those the ruleset gives a real choice (two options or more)."""
    if ruleset.reactions is None or not can_wait(state):
        return {}
    found = ruleset.reactions(state, command)
    return {
        target: choices
        for target, choices in found.items()
        if len(choices.options) > 1 and (wish.targets is None or target in wish.targets)
    }


def later(ruleset: Any, state: Any, command: Any, wish: Ask) -> list[str]:
    """The targets to ask once the dice show their reaction's trigger (`reacts_after`)."""
    if ruleset.reacts_after is None or not can_wait(state):
        return []
    found = ruleset.reacts_after(state, command)
    return [t for t in found if wish.targets is None or t in wish.targets]


def ask(ruleset: Any, state: Any, command: Any, ctx: Any, wish: Ask, secret: bool) -> list[Event]:
    """The asking step's events, or [] when nobody has a choice to make (decide at once);
    for a ruleset that asks once the dice show the trigger, the decided step when it does
    not come (a miss asks nobody)."""
    wanted = offered(ruleset, state, command, wish)
    after = later(ruleset, state, command, wish)
    if wish.targets is not None and (unknown := set(wish.targets) - set(wanted) - set(after)):
        shown = ", ".join(sorted({*wanted, *after})) or "nobody"
        raise RefusedError(
            f"{', '.join(sorted(unknown))}: no reaction to ask for here; asked can be: {shown}"
        )
    if not wanted and after:
        if wish.deadline:
            moment(wish.deadline, "the deadline")
        return rolled_first(ruleset, state, command, ctx, wish.deadline, secret, after)
    if not wanted:
        return []
    if wish.deadline:
        moment(wish.deadline, "the deadline")
    given = msgspec.to_builtins(command)
    trial = filled(given, {t: c.default for t, c in wanted.items()}, wanted)
    trial_ctx = Trial(TrialDice(), ctx.step, ctx.author, ctx.command_id)
    ruleset.decide(state, ruleset.command(trial), trial_ctx)  # refused now, not at the answer
    actor = getattr(command, "actor", None) or ctx.author
    waits_on: list[str] | msgspec.UnsetType = sorted(after) if after else msgspec.UNSET
    return [
        Commanded(actor, given, ctx.command_id),
        *(
            ReactionAsked(
                actor, target, given, choices, wish.deadline, secret, ctx.step, waits_on=waits_on
            )
            for target, choices in wanted.items()
        ),
    ]


def rolled_first(
    ruleset: Any,
    state: Any,
    command: Any,
    ctx: Any,
    deadline: str,
    secret: bool,
    waits_on: list[str],
    before: list[Event] | None = None,
    primed: list[Roll] | None = None,
) -> list[Event]:
    """Decide `command` with the dice, asking `waits_on` once their trigger comes: the
    decided events when it does not, else the rolls so far and the question (`before`: the
    answering step's own events; `primed`: an earlier asking step's rolls, taken first)."""
    dice = Primed(primed or [], ctx.dice)
    sub = dataclasses.replace(ctx, dice=dice, ask=frozenset(waits_on))
    actor = getattr(command, "actor", None) or ctx.author
    given = msgspec.to_builtins(command)
    try:
        decided = ruleset.decide(state, command, sub)
    except ReactionDue as due:
        shown = {id(e.roll): e for e in due.events if isinstance(e, Rolled)}
        fresh = [
            shown.get(id(roll)) or Rolled(actor, purpose, roll)
            for purpose, roll in dice.rolls
            if not any(roll is p for p in dice.primed)
        ]
        lead = before if before is not None else [Commanded(actor, given, ctx.command_id)]
        asked = ReactionAsked(
            actor,
            due.target,
            given,
            due.choices,
            deadline,
            secret,
            ctx.step,
            rolled=[roll for _, roll in dice.rolls],
            trigger=due.trigger,
            waits_on=sorted(waits_on),
            unseen=due.unseen or msgspec.UNSET,
        )
        return [*lead, *fresh, asked]
    kept = [e for e in decided if not (isinstance(e, Rolled) and primed_roll(e.roll, dice))]
    return kept if before is None else [*before, *kept]


def primed_roll(roll: Roll, dice: Primed) -> bool:
    return any(roll is p for p in dice.primed)


def filled(
    command: dict[str, Any], answers: dict[str, str], asked: dict[str, Choices]
) -> dict[str, Any]:
    """The attacker's command with each answer in the field its choices name."""
    command = dict(command)
    for target, choice in answers.items():
        choices = asked[target]
        field = dict(command.get(choices.field) or {})
        if choice == choices.omit:
            field.pop(target, None)
        else:
            field[target] = choice
        command[choices.field] = field
    return command


def asked_in(events: Collection[Event]) -> tuple[Ask, bool] | None:
    """The Ask a recorded asking step was decided with, and whether it was secret."""
    found = [e for e in events if isinstance(e, ReactionAsked)]
    if not found:
        return None
    return Ask(found[0].deadline, [e.target for e in found]), found[0].secret


# -- answering ---------------------------------------------------------------------------


def decide(
    ruleset: Any, state: Any, command: Any, ctx: Any, check: Callable[[Any, Any], None]
) -> list[Event]:
    """An answer, a timeout or a withdrawal; the last answer decides the attack too (`check`:
    the GM's checks every command passes, rules/gm.py)."""
    waiting = asking(state)
    if waiting is None:
        raise RefusedError("no attack is waiting for a reaction now; `status` shows the fight")
    actor = command.combatant if isinstance(command, Answer) else ctx.author
    events: list[Event] = [Commanded(actor, msgspec.to_builtins(command), ctx.command_id)]
    if isinstance(command, Withdraw):
        reason = command.reason or "the GM's ruling"
        return [*events, ReactionWithdrawn(waiting.actor, reason, ctx.author)]
    if isinstance(command, Answer):
        events.append(answer(state, waiting, command, ctx.author))
    else:
        events += timed_out(waiting, command, ctx.author)
    answers = {**waiting.answers}
    answers.update(
        {e.target: e.choice for e in events if isinstance(e, ReactionGiven | ReactionTimedOut)}
    )
    if set(answers) < set(waiting.asked):
        return events
    after = state
    for event in events:
        after = ruleset.evolve(after, event)
    attack = ruleset.command(filled(waiting.command, answers, waiting.asked))
    check(after, attack)
    if not waiting.waits_on and not waiting.rolled:
        return events + ruleset.decide(after, attack, ctx)
    return rolled_first(
        ruleset,
        after,
        attack,
        ctx,
        waiting.deadline,
        waiting.secret,
        waiting.waits_on,
        before=events,
        primed=waiting.rolled,
    )


def answer(state: Any, waiting: Waiting, command: Answer, by: str) -> ReactionGiven:
    target, name = command.combatant, name_of(state, command.combatant)
    if target not in waiting.asked:
        raise RefusedError(
            f"{name} is not asked to react: {waiting_line(state, waiting, commands=False)}"
        )
    if target in waiting.answers:
        raise RefusedError(f"{name} has already answered: {waiting.answers[target]}")
    choices = waiting.asked[target]
    if command.choice not in choices.options:
        raise BadInputError(
            f"{command.choice!r} is not a reaction {name} may choose: {', '.join(choices.options)}"
        )
    return ReactionGiven(target, command.choice, by)


def timed_out(waiting: Waiting, command: TimeOut, by: str) -> list[Event]:
    if not waiting.deadline:
        raise RefusedError(
            "this attack waits with no deadline: answer for the target (`answer TARGET CHOICE`)"
        )
    if moment(command.at, "the time") < moment(waiting.deadline, "the deadline"):
        raise RefusedError(f"not yet: the answer is due by {waiting.deadline}, it is {command.at}")
    return [
        ReactionTimedOut(t, waiting.asked[t].default, waiting.asked[t].rule, command.at, by)
        for t in waiting.unanswered
    ]


def secret(state: Any) -> bool:
    """An answer decides the attack GM-only when the attack was asked so."""
    waiting = asking(state)
    return waiting is not None and waiting.secret


# -- evolve ------------------------------------------------------------------------------


def _asked(state: Any, event: ReactionAsked) -> Any:
    if not can_wait(state):
        return state
    waiting = asking(state) or Waiting(
        event.step,
        event.actor,
        event.command,
        {},
        event.deadline,
        event.secret,
        rolled=event.rolled or [],
        trigger=event.trigger or "",
        unseen=event.unseen or "",
        waits_on=event.waits_on or [],
    )
    asked = {**waiting.asked, event.target: event.choices}
    return replace(state, asking=replace(waiting, asked=asked))


def _answered(state: Any, event: ReactionGiven | ReactionTimedOut) -> Any:
    waiting = asking(state)
    if waiting is None or event.target not in waiting.asked:
        return state
    answers = {**waiting.answers, event.target: event.choice}
    done = set(answers) >= set(waiting.asked)
    return replace(state, asking=None if done else replace(waiting, answers=answers))


def _withdrawn(state: Any, event: ReactionWithdrawn) -> Any:
    return replace(state, asking=None) if asking(state) is not None else state


EVOLVERS: dict[type, Any] = {
    ReactionAsked: _asked,
    ReactionGiven: _answered,
    ReactionTimedOut: _answered,
    ReactionWithdrawn: _withdrawn,
}


def defence_rolls(
    command: dict[str, Any], events: Sequence[Event], defences: Collection[str]
) -> dict[str, tuple[str, str]]:
    """Each target's own defence roll in a step (a roll whose purpose starts with one of
    `defences`): {target: (defence, its result)}, for a ruleset's `target_outcomes`."""
    targets = set(command.get("targets") or []) - {command.get("actor")}
    rolled = {}
    for e in events:
        kind = e.purpose.split(" against ")[0] if isinstance(e, Rolled) else ""
        if isinstance(e, Rolled) and e.actor in targets and kind in defences and e.result:
            rolled[e.actor] = (kind, e.result)
    return rolled
