"""Conditions that last a while: "3 rounds", "until the end of X's next turn", "until the
start of X's next turn" (or, without a duration, until removed).

A ruleset reports where its fight stands through one small hook, its `clock`: the round,
and who is having a turn now, each with a label that names that turn and no other. The
step whose events move the clock past a boundary (a round begins, a turn ends or starts)
is decided with the expiry of every condition that lasted until it, so the log says so and
undo takes it back. Nothing here runs in `evolve`.
"""

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import msgspec

from fracas.ledger import BadInputError
from fracas.rules.events import ConditionExpired, Event

UNTIL = "until"  # the key of a condition's detail that holds its Until
EDGES = ("start", "end")


class Clock(NamedTuple):
    """Where the fight stands: the ruleset's round, and who is having a turn now, each with
    a label unique to that turn (the round, or the sequence and shot); `word` is what the
    ruleset calls a round. `count`: the initiative count of the turn now, for rules whose
    durations in rounds run from the count where they began (d20: srd-28); None (the
    default): they end as a round begins."""

    round: int
    turns: Mapping[str, str]
    word: str = "round"
    count: int | None = None


class Until(msgspec.Struct, frozen=True, omit_defaults=True):
    """How long a condition lasts: `rounds` rounds (it ends as round `ends` begins, or, with
    a `count`, as round `ends` reaches that initiative count, where it began), or to the
    `edge` ("start" or "end") of the next turn of `of`; `after` is the turn `of` was having
    when it was set, which is not "the next". `current`: it is the turn `of` is having
    that ends it, as the words say ("until the end of Alice's current turn")."""

    rounds: int = 0
    ends: int = 0
    edge: str = ""
    of: str = ""
    after: str = ""
    word: str = "round"
    count: int | None = None
    current: bool = False


def view_clock(view: Callable[[Any], Any]) -> Callable[[Any], Clock]:
    """The clock of a ruleset that has no own: its view's round, and who it shows acting
    as having that round's turn."""

    def clock(state: Any) -> Clock:
        return clock_of_view(view(state))

    return clock


def clock_of_view(seen: Any) -> Clock:
    """A view's round, and who it shows acting as having that round's turn."""
    return Clock(seen.round, {who: str(seen.round) for who in seen.acting})


def parse_until(text: str) -> tuple[str, str]:
    """`end:alice` or `start:alice` as (edge, combatant); `removed` as ("", "")."""
    text = text.strip()
    if text.lower() == "removed":
        return "", ""
    edge, _, who = text.partition(":")
    if edge.lower() not in EDGES or not who.strip():
        raise BadInputError(
            f"--until takes end:ID, start:ID or removed (as in end:alice), not {text!r}"
        )
    return edge.lower(), who.strip()


def until(clock: Clock, rounds: int | None, edge: str = "", of: str = "") -> Until | None:
    """The Until of a condition set now, for `rounds` rounds (from the initiative count of
    the turn now, if the clock has one) or to an edge of `of`'s next turn; before the
    fight, the first round counts as the one it was set in."""
    if rounds:
        ends = max(clock.round, 1) + rounds
        return Until(rounds=rounds, ends=ends, word=clock.word, count=clock.count)
    if edge:
        return Until(edge=edge, of=of, after=clock.turns.get(of, ""))
    return None


def until_of(detail: Mapping[str, Any]) -> Until | None:
    found = detail.get(UNTIL)
    return msgspec.convert(found, Until) if isinstance(found, dict) else None


def timed(state: Any) -> bool:
    """Does any combatant carry a condition with a duration? (Most fights: no.)"""
    return any(carries_timed(fighter) for fighter in state.fighters.values())


def holding_timed(state: Any) -> set[str]:
    """Who carries a condition with a duration: a step that moves the turn may end it."""
    return {who for who, fighter in state.fighters.items() if carries_timed(fighter)}


def carries_timed(fighter: Any) -> bool:
    return any(UNTIL in detail for detail in fighter.conditions.values())


def name_of(state: Any, who: str) -> str:
    fighter = state.fighters.get(who)
    return fighter.name if fighter is not None else who


def expired(state: Any, before: Clock, after: Clock) -> list[Event]:
    """The expiry of every condition whose boundary lies between two clocks of one step."""
    ended = {who for who, turn in before.turns.items() if after.turns.get(who) != turn}
    started = {who for who, turn in after.turns.items() if before.turns.get(who) != turn}
    events: list[Event] = []
    for fighter in state.fighters.values():
        for condition, detail in fighter.conditions.items():
            lasting = until_of(detail)
            why = lasting and why_over(state, lasting, before, after, ended, started)
            if why:
                events.append(ConditionExpired(fighter.id, condition, why))
    return events


def why_over(
    state: Any, lasting: Until, before: Clock, after: Clock, ended: set[str], started: set[str]
) -> str:
    """Why the condition is over between the two clocks, or "" if it lasts on."""
    if lasting.rounds:
        if not place(before) < end_place(lasting) <= place(after):
            return ""
        verb = "is" if lasting.rounds == 1 else "are"
        word = lasting.word
        if lasting.count is None:
            return f"{plural(lasting.rounds, word)} {verb} up, {word} {after.round} begins"
        return (
            f"{plural(lasting.rounds, word)} {verb} up at initiative count {lasting.count} "
            f"of {word} {lasting.ends}"
        )
    who = name_of(state, lasting.of)
    if lasting.edge == "end" and lasting.of in ended and before.turns[lasting.of] != lasting.after:
        return f"{who}'s turn is over"
    if lasting.edge == "start" and lasting.of in started:
        return f"{who}'s turn begins"
    return ""


TOP = float("-inf")  # the place of a round's top, before its first turn


def place(clock: Clock) -> tuple[int, float]:
    """Where a clock stands in the fight's time: its round, then (within it) the turns from
    the highest initiative count down."""
    return clock.round, TOP if clock.count is None else -clock.count


def end_place(lasting: Until) -> tuple[int, float]:
    """Where a duration in rounds ends: the top of round `ends`, or its count there."""
    return lasting.ends, TOP if lasting.count is None else -lasting.count


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def text(lasting: Until, name: Callable[[str], str] = str) -> str:
    """'for 3 rounds', 'until the end of Alice Reyes's next turn' (`name`: id to name)."""
    if lasting.rounds:
        return f"for {plural(lasting.rounds, lasting.word)}"
    which = "current" if lasting.current else "next"
    return f"until the {lasting.edge} of {name(lasting.of)}'s {which} turn"


def phrase(detail: Mapping[str, Any], name: Callable[[str], str] = str) -> str:
    """' for 3 rounds' for a condition's detail that holds a duration, else ''."""
    lasting = until_of(detail)
    return f" {text(lasting, name)}" if lasting is not None else ""


def remaining(state: Any, lasting: Until, round_now: int) -> dict[str, Any]:
    """What is left of a duration, for `status` and its JSON."""
    if lasting.rounds:
        left = lasting.ends - max(round_now, 1)
        shown = {"rounds_left": left, "ends_at_round": lasting.ends}
        if lasting.count is None:
            return {**shown, "text": f"{plural(left, lasting.word)} left"}
        # (in the round it ends in, what is left is part of a round: no "0 rounds left"; the
        # words stay short, as the TV shows them in a chip beside the name)
        at = (
            f"{plural(left, lasting.word)} left, ending at initiative {lasting.count}"
            if left > 0
            else f"until initiative {lasting.count} of {lasting.word} {lasting.ends}"
        )
        return {**shown, "ends_at_count": lasting.count, "text": at}
    named = text(lasting, lambda who: name_of(state, who))
    return {"edge": lasting.edge, "of": lasting.of, "text": named}
