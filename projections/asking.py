"""The question an attack waiting for a reaction asks, as a screen shows it (rules/reactions.py).

`pending(live, players=...)` is what the GM's page, a player's page and `fracas status` read:
who attacks whom, who is waited on, each target's choices with the default and its rule, the
deadline. For the players' audience the question is shown only when the players' screen shows
the asking step itself (projections/secrecy.py): a hidden attacker or target stays hidden, and
its step number is the players' own.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from fracas.ledger.base import ASKED_KIND

if TYPE_CHECKING:  # `may_wait`, a quick look, loads no rules
    from fracas.rules import Encounter
    from fracas.rules.reactions import Waiting


class Reaction(msgspec.Struct, frozen=True):
    """One target's part of the question."""

    target: str
    name: str
    choices: list[str]
    default: str  # what applies when nobody answers by the deadline
    rule: str  # the rule that names the default
    why: str
    answered: str | None = None  # the choice already given, if any
    field: str = "defence"  # the command's field the answer fills (`Choices.field`)


class Question(msgspec.Struct, frozen=True):
    encounter: str
    step: int  # the asking step, numbered for the audience
    attacker: str
    attacker_name: str
    action: str
    command: dict[str, Any]  # the attacker's command as given
    reactions: list[Reaction]
    waiting_on: list[str]  # the targets not yet answered
    deadline: str  # ISO 8601 UTC; "": none
    line: str  # one line for a terminal: who is waited on, how to answer
    # What the target saw before it was asked, where the rules ask once the dice show the
    # trigger ("Goblin's scimitar hits Ilse: 14 vs AC 12"); "" when asked before any roll,
    # and for the players when the attack's rolls are the GM's secret.
    trigger: str = ""


def name_of(live: "Encounter", who: str) -> str:
    fighter = live.state.fighters.get(who)
    return getattr(fighter, "name", who) if fighter is not None else who


def pending(
    live: "Encounter",
    *,
    players: bool = False,
    number: Callable[[int], int | None] | None = None,
) -> Question | None:
    """The question the encounter waits on now, for the GM or the players; None if none
    (or none the players may see). `number`: the players' number of a step in the log, when
    the caller keeps the players' timeline (else the fight is walked for it)."""
    waiting = live.waiting()
    if waiting is None:
        return None
    step: int | None = waiting.step
    if players:
        step = players_number(live, waiting.step) if number is None else number(waiting.step)
        if step is None:
            return None
        hidden = live.hidden()
        asked = question(live, waiting, step)
        if waiting.secret:  # the roll is GM-only: they are asked without it
            asked = unrolled(asked, waiting)
        if waiting.actor in hidden:
            return unseen_attacker(asked, hidden, live, waiting)
        if hidden & set(waiting.asked):
            return unseen_targets(asked, hidden, live)
        return asked
    return question(live, waiting, step)


def unrolled(asked: Question, waiting: "Waiting") -> Question:
    """The question without the figures of a GM-only roll."""
    seen = f" ({waiting.trigger})"
    return msgspec.structs.replace(asked, trigger="", line=asked.line.replace(seen, ""))


def unseen_attacker(
    asked: Question, hidden: set[str], live: "Encounter", waiting: "Waiting"
) -> Question:
    """The question of a hidden combatant's attack, as players see it: asked by someone
    unseen, with nothing of its command but the action and the targets they see, and what
    the target saw in the words the rules give for an unseen attacker (`Waiting.unseen`:
    nothing of what it wields; none given, none said)."""
    from fracas.projections.secrecy import UNSEEN

    targets = [t for t in asked.command.get("targets", []) if t not in hidden]
    line = asked.line
    if asked.trigger:
        told = f" ({waiting.unseen})" if waiting.unseen else ""
        line = line.replace(f" ({asked.trigger})", told)
    seen = unseen_targets(
        msgspec.structs.replace(
            asked,
            attacker=UNSEEN,
            attacker_name=UNSEEN.capitalize(),
            command={"actor": UNSEEN, "action": asked.action, "targets": targets},
            line=line,
            trigger=waiting.unseen if asked.trigger else "",
        ),
        hidden,
        live,
    )
    return msgspec.structs.replace(seen, line=capitalised(seen.line))


def capitalised(line: str) -> str:
    """A line that starts with someone unseen starts with a capital, as a sentence does."""
    from fracas.projections.secrecy import UNSEEN

    return UNSEEN.capitalize() + line[len(UNSEEN) :] if line.startswith(UNSEEN) else line


def unseen_targets(asked: Question, hidden: set[str], live: "Encounter") -> Question:
    """The question as players see it when a target is hidden: that target is someone
    unseen (its player answers through the GM), its command names only the targets they
    see, and no line of it names a hidden combatant."""
    from fracas.projections.secrecy import UNSEEN, Known, redacted

    unnamed = Known({**{h: h for h in hidden}, **{name_of(live, h): h for h in hidden}})

    def seen(r: Reaction) -> Reaction:
        why = redacted(r.why, unnamed)
        if r.target not in hidden:
            return msgspec.structs.replace(r, why=why)
        return msgspec.structs.replace(r, target=UNSEEN, name=UNSEEN, why=why)

    def unnamed_in(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if k not in hidden}
        if isinstance(value, list):
            return [v for v in value if v not in hidden]
        return value

    command = {
        k: unnamed_in(v)
        for k, v in asked.command.items()
        if not (isinstance(v, str) and v in hidden)
    }
    return msgspec.structs.replace(
        asked,
        command=command,
        reactions=[seen(r) for r in asked.reactions],
        waiting_on=[UNSEEN if w in hidden else w for w in asked.waiting_on],
        line=redacted(asked.line, unnamed),
        trigger=redacted(asked.trigger, unnamed),
    )


def players_number(live: "Encounter", step: int) -> int | None:
    from fracas.projections.secrecy import players_cut
    from fracas.rules.timeline import walk

    frames = list(walk(live.store, live.id, live.ruleset))
    return players_cut(frames, live.ruleset).number(step)


def question(live: "Encounter", waiting: "Waiting", step: int) -> Question:
    from fracas.rules.reactions import waiting_line

    reactions = [
        Reaction(
            target,
            name_of(live, target),
            list(choices.options),
            choices.default,
            choices.rule,
            choices.why,
            waiting.answers.get(target),
            choices.field,
        )
        for target, choices in waiting.asked.items()
    ]
    return Question(
        live.id,
        step,
        waiting.actor,
        name_of(live, waiting.actor),
        str(waiting.command.get("action", "")),
        dict(waiting.command),
        reactions,
        waiting.unanswered,
        waiting.deadline,
        waiting_line(live.state, waiting).replace(f"(step {waiting.step})", f"(step {step})"),
        waiting.trigger,
    )


def may_wait(store: Any, encounter: str) -> bool:
    """A quick look, folding nothing: has this encounter ever asked for a reaction?"""
    return ASKED_KIND in store.kinds_ever(encounter)


def could_ask(live: "Encounter", step: int, command: Any, events: list[Any]) -> list[str]:
    """The combatants whose players hold a phone link and whom the rules gave a choice of
    reaction to a command decided at once as `step`, on the state before it (what `act
    --ask` would have asked them): a choice before any roll, or one whose trigger its dice
    brought (the step's `events` hurt them: a hit, its damage)."""
    from fracas.ledger.invites import linked
    from fracas.rules.events import Damaged
    from fracas.rules.reactions import Ask, later, offered

    if step < 2 or (live.ruleset.reactions is None and not live.ruleset.reacts_after):
        return []
    holders = linked(live.store, live.id)  # a read of the log: only where one could be asked
    if not holders:
        return []
    before, wish = live.state_at(step - 1), Ask()
    hurt = {e.target for e in events if isinstance(e, Damaged)}
    found = [*offered(live.ruleset, before, command, wish)]
    found += [who for who in later(live.ruleset, before, command, wish) if who in hurt]
    return [who for who in dict.fromkeys(found) if who in holders]
