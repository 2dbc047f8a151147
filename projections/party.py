"""The party in the log: player characters kept in an encounter of their own (`party`),
brought into a new fight as they ended their last one, and back again, all as events.

The party stands where it was last sent (`party.sent`), until something is done to it
(a rest, a heal, a newcomer, the next fight): then each member is first carried back from
that fight into the party (`party.carried`), as the ruleset says what outlasts a fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from fracas.ledger import BadInputError, NotFoundError, RefusedError
from fracas.rules import Encounter, roster
from fracas.rules.commands import (
    Carry,
    ClearCondition,
    Harm,
    Heal,
    Leave,
    Rest,
    SendParty,
    SetCondition,
    Update,
)
from fracas.rules.encounter import StepOutcome, recorded_events
from fracas.rules.events import CombatantJoined, MemberLeft
from fracas.rules.gm import ENDED
from fracas.rules.names import and_list
from fracas.rules.party import PARTY, sent_to
from fracas.rules.views import WoundRow

if TYPE_CHECKING:
    from fracas.projections.app import Fracas

TITLE = "the party"
NO_PARTY = "no party in this log yet: `fracas party add ID --sheet FILE` starts one"
NOT_A_FIGHT = (  # `-e party` with a fight's command: it would change the party unseen
    "the party is not a fight: change it between fights with `fracas party heal`, "
    "`fracas party condition` or `fracas party rest`, or bring it into one with "
    "`fracas new --party`"
)


class Member(msgspec.Struct, frozen=True):
    """A member of the party as they stand now, and where: the fight they are in (one that
    has not ended, begun or being set up), or "" between fights."""

    combatant: str
    name: str
    health: str
    conditions: list[str]
    standing: dict[str, Any]
    where: str


def has_party(log: Fracas) -> bool:
    return log.store.exists(PARTY)


def party(log: Fracas) -> Encounter:
    if not has_party(log):
        raise NotFoundError(NO_PARTY)
    return log.encounter(PARTY)


def check_member(home: Encounter, who: str) -> None:
    """A member of the party by id, or one line naming the party's members (between
    fights there is no encounter to name)."""
    fighters = home.state.fighters
    if who in fighters:
        return
    from fracas.ledger.errors import said
    from fracas.rules.names import closest, some_of  # only when an id is wrong

    guess = closest(who, fighters) if fighters else None
    hint = f"did you mean {guess}? " if guess else ""
    raise NotFoundError(
        f"no member {said(who)} in the party; {hint}members: {some_of(list(fighters))}"
    )


def where(log: Fracas) -> Encounter:
    """The encounter the party stands in now: the fight it was sent into, or itself."""
    home = party(log)
    undone = frozenset(home.history.undone)
    recorded = recorded_events(log.store, PARTY, home.ruleset)
    found = sent_to([event for step, event in recorded if step not in undone])
    return home if found == PARTY else log.encounter(found)


def order(home: Encounter) -> list[str]:
    """The members in the party's order: the order they were first added in. A new sheet
    (leaving and joining again in one step) keeps a member's place, and so does any undo; a
    member removed and added back goes at the end, as a newcomer does."""
    undone = frozenset(home.history.undone)
    placed: list[str] = []
    left_at: dict[str, tuple[int, int]] = {}  # who: (the step they left in, their place)
    for step, event in recorded_events(home.store, PARTY, home.ruleset):
        if step in undone:
            continue
        if isinstance(event, MemberLeft) and event.target in placed:
            left_at[event.target] = (step, placed.index(event.target))
            placed.remove(event.target)
        elif isinstance(event, CombatantJoined) and event.combatant not in placed:
            left_step, place = left_at.get(event.combatant, (0, len(placed)))
            placed.insert(place if left_step == step else len(placed), event.combatant)
    return [who for who in placed if who in home.state.fighters]


def members(log: Fracas) -> list[Member]:
    """Every member as they stand now: in the fight they were sent into, if they are in it
    and it goes on; between fights (it has ended), as coming home will leave them."""
    home, there = party(log), where(log)
    between = between_fights(home, there)
    listed = []
    for who in order(home):
        live = there if who in there.state.fighters else home
        row = wound_row(live, live.state, who) if between is None else wound_row(home, between, who)
        fighting = between is None and live.id != PARTY
        listed.append(
            Member(
                who,
                row.name,
                row.health,
                row.conditions,
                live.ruleset.standing_of(live.state, who),
                live.id if fighting else "",
            )
        )
    return listed


def between_fights(home: Encounter, there: Encounter) -> Any:
    """The party's state once carried home from `there`, if that fight has ended (what of
    each member outlasts a fight, as the ruleset says: not a spell's rounds); None while the
    party is home or in a fight that goes on. Nothing is appended."""
    if there.id == PARTY or there.view().phase != "ended":
        return None
    carries = [
        Carry(who, there.id, there.ruleset.standing_of(there.state, who))
        for who in home.state.fighters
        if who in there.state.fighters
    ]
    events = [event for carry in carries for event in home.decide(carry)]
    return roster.fold(home.ruleset.evolve, home.state, events)


def wound_row(live: Encounter, state: Any, who: str) -> WoundRow:
    return next(row for row in live.ruleset.view(state).wounds if row.combatant == who)


def check_between_fights(log: Fracas) -> None:
    """The party is between fights: not in one that has not ended (begun or being set up).
    Changing it there would carry it home from that fight, and the fight's later damage would
    never reach it."""
    there = where(log)
    if there.id != PARTY and there.view().phase != "ended":
        raise RefusedError(
            f"the party is in the fight {there.id}, which has not ended: "
            f"end the fight {there.id} first"
        )


def bring_home(log: Fracas, author: str = "gm") -> Encounter:
    """The party carried back from the fight it was sent into, member by member, one step
    each; the party, as it now stands."""
    home, there = party(log), where(log)
    if there.id == PARTY:
        return home
    for who in order(home):
        if who in there.state.fighters:
            standing = there.ruleset.standing_of(there.state, who)
            home.execute(Carry(who, there.id, standing), author=author)
    if not any(who in there.state.fighters for who in home.state.fighters):
        home.execute(SendParty(PARTY), author=author)  # nobody went: home all the same
    return home


def check_joining(log: Fracas, combatant: str) -> None:
    """A newcomer may join the party now: between fights, and not a member already (checked
    before their sheet is read, so that a refusal is the one line said)."""
    if not has_party(log):
        return
    check_between_fights(log)
    if combatant in party(log).state.fighters:
        raise RefusedError(
            f"{combatant!r} is already in the party: `fracas party update {combatant} "
            "--sheet FILE` gives them a new sheet"
        )


def add_member(
    log: Fracas,
    combatant: str,
    sheet: dict[str, Any],
    ruleset: str,
    *,
    name: str = "",
    where: str = "",
) -> None:
    """A new member joins the party (started under `ruleset` if there is none), in one
    transaction with the party's coming home; `where`: what a bad sheet is blamed on."""
    check_joining(log, combatant)  # first: a refusal appends nothing
    with log.store.batch():
        if has_party(log):
            bring_home(log)
        else:
            log.new(ruleset, title=TITLE, encounter=PARTY)
        log.add(combatant, sheet, PARTY, name=name, side="pc", where=where)


def sheet_of(log: Fracas, who: str) -> dict[str, Any]:
    """The sheet a member stands on now: the one they last joined with."""
    home = party(log)
    check_member(home, who)
    return dict(joined(home)[who].sheet)


def update_member(
    log: Fracas,
    who: str,
    sheet: dict[str, Any],
    *,
    where: str = "",
    reason: str = "",
    author: str = "gm",
    fields: dict[str, Any] | None = None,
) -> None:
    """A member takes a new sheet (checked by the ruleset, as a newcomer's is), between
    fights, keeping how they stand where it allows: one step, nothing appended on a refusal;
    `where`: what a bad sheet is blamed on; `fields`: those the GM set by hand (`--set`),
    which stand over the standing before where they say how the member stands."""
    home = party(log)
    check_member(home, who)
    home.ruleset.sheet(sheet, where or f"sheet of {who}")  # first: a refusal appends nothing
    check_between_fights(log)
    with log.store.batch():
        bring_home(log, author).execute(
            Update(who, sheet, reason, fields or {}), author=author
        )


def remove_member(log: Fracas, who: str, reason: str = "", author: str = "gm") -> None:
    """A member leaves the party between fights: an event, nothing deleted; `fracas party
    add` brings them back."""
    check_member(party(log), who)
    check_between_fights(log)
    with log.store.batch():
        bring_home(log, author).execute(Leave(who, reason), author=author)


def joined(home: Encounter) -> dict[str, CombatantJoined]:
    """How each member joined the party: their name and sheet."""
    undone = frozenset(home.history.undone)
    return {
        event.combatant: event
        for step, event in recorded_events(home.store, PARTY, home.ruleset)
        if step not in undone and isinstance(event, CombatantJoined)
    }


def check_plays(log: Fracas, ruleset: str) -> None:
    """The party can be brought into a fight of `ruleset`: its own."""
    plays = party(log).ruleset.name
    if plays != ruleset:
        raise RefusedError(
            f"the party plays {plays}, not {ruleset}: start the fight with -r {plays}"
        )


def new_with_party(log: Fracas, ruleset: str, author: str = "gm", **started: Any) -> Encounter:
    """A new fight of `ruleset` (the party's own) with the party brought in, all in one
    transaction: a refusal on the way leaves no fight, and the party as it was."""
    check_plays(log, ruleset)  # first: a refusal starts no fight
    with log.store.batch():
        fight = log.new(ruleset, author=author, **started)
        brought(log, fight.id, author)
    return fight


def bring_into(
    log: Fracas, encounter: str, author: str = "gm", dice: list[int] | None = None
) -> list[str]:
    """Every member brought into `encounter` as they stand, in one transaction: all of them
    or, on a refusal, none. Their ids. `dice`: faces typed for what joining rolls (d20:
    initiative, once the fight has begun), as many for each member, in the party's order."""
    with log.store.batch():
        return brought(log, encounter, author, dice)


def staying_out(home: Encounter) -> dict[str, str]:
    """The members out of the fighting for good (d20: dead), id to "Name is dead": they stay in the
    party's record but join no fight."""
    out = home.ruleset.out
    return {
        who: f"{wound_row(home, home.state, who).name} is "
        + and_list(sorted(out & set(fighter.conditions)))
        for who, fighter in home.state.fighters.items()
        if out & set(fighter.conditions)
    }


def stays_out(said: str) -> str:
    """The line a fight's start gives for a member who stays out of it: `said`, their out
    condition as the ruleset has it ("Maelis is dead", a mook "is out")."""
    return f"{said} and stays out of the fight"


def brought(log: Fracas, encounter: str, author: str, dice: list[int] | None = None) -> list[str]:
    """Every member joined to `encounter` with their sheet, then carried over (one step
    each), but those out for good (`staying_out`); the party marked as sent there."""
    from fracas.projections.app import dealt

    fight = log.encounter(encounter)
    if fight.state.ended:  # first: a refusal appends nothing
        raise RefusedError(ENDED)
    here = [who for who in party(log).state.fighters if who in fight.state.fighters]
    if here:  # first: a refusal appends nothing
        raise RefusedError(f"{', '.join(here)} already in {encounter}: the party is there")
    home = bring_home(log, author)
    fight.reload()
    came = joined(home)
    out = staying_out(home)
    going = [who for who in order(home) if who not in out]
    typed = dealt(dice, len(going))
    for who, faces in zip(going, typed, strict=True):
        first = came[who]
        log.add(who, first.sheet, encounter, name=first.name, side="pc", author=author, dice=faces)
        fight.reload()
        standing = home.ruleset.standing_of(home.state, who)
        fight.execute(Carry(who, PARTY, standing), author=author)
    home.execute(SendParty(encounter), author=author)
    return going


def rest(
    log: Fracas,
    kind: str,
    author: str = "gm",
    spend: dict[str, int] | None = None,
    dice: list[int] | None = None,
) -> dict[str, StepOutcome]:
    """Every member rests (short or long) as the ruleset recovers, one step each, spending
    the recovery dice `spend` gives them (d20: Hit Dice; none for a member not in it).
    `dice`: faces typed for them, one a die spent, member by member in the party's order.
    Each member's step."""
    check_between_fights(log)  # first: a refusal appends nothing
    home = party(log)
    if home.ruleset.rest is None:
        raise RefusedError(
            f"the {home.ruleset.name} rules have no rests: give health back by hand "
            "with `fracas party heal ID AMOUNT`"
        )
    spend = spend or {}
    for who in spend:
        check_member(home, who)
    typed = faces_for(order(home), spend, dice)
    with log.store.batch():  # every member rests, or none does
        home = bring_home(log, author)
        return {
            who: home.execute(
                Rest(who, kind, spend.get(who, 0)),  # type: ignore[arg-type]
                author=author,
                dice=typed[who],
            )
            for who in order(home)
        }


def faces_for(
    members: list[str], spend: dict[str, int], dice: list[int] | None
) -> dict[str, list[int] | None]:
    """Typed faces dealt to the members, one for each die they spend, in the party's order."""
    if dice is None:
        return dict.fromkeys(members)
    wanted = sum(spend.values())
    if len(dice) != wanted:
        spent = ", ".join(f"{who} {spend[who]}" for who in members if spend.get(who))
        raise BadInputError(
            f"--dice gave {len(dice)} face{'s' if len(dice) != 1 else ''} for {wanted} "
            f"{'die' if wanted == 1 else 'dice'} spent ({spent or 'none'}): give one face a "
            "die, member by member in the "
            f"party's order ({', '.join(members)})"
        )
    dealt, taken = {}, 0
    for who in members:
        dealt[who] = dice[taken : taken + spend.get(who, 0)] if spend.get(who) else None
        taken += spend.get(who, 0)
    return dealt


def harm(log: Fracas, who: str, amount: int, reason: str = "", author: str = "gm") -> None:
    """The GM's harm of a member between fights (a trap on the road, a fall)."""
    by_hand(log, Harm(who, amount, reason or "between fights"), author)


def heal(log: Fracas, who: str, amount: int, reason: str = "", author: str = "gm") -> None:
    """The GM's heal of a member between fights."""
    by_hand(log, Heal(who, amount, reason or "between fights"), author)


def set_condition(log: Fracas, who: str, name: str, reason: str = "", author: str = "gm") -> None:
    """The GM sets a condition on a member between fights (it lasts until cleared)."""
    by_hand(log, SetCondition(who, name, reason or "between fights"), author)


def clear_condition(log: Fracas, who: str, name: str, reason: str = "", author: str = "gm") -> None:
    """The GM clears a condition from a member between fights."""
    by_hand(log, ClearCondition(who, name, reason or "between fights"), author)


def by_hand(
    log: Fracas, command: Harm | Heal | SetCondition | ClearCondition, author: str
) -> None:
    """One of the GM's commands on a member of the party, once the party is carried home
    from its last fight: all in one transaction, nothing appended on a refusal."""
    check_member(party(log), command.target)
    check_between_fights(log)
    with log.store.batch():
        bring_home(log, author).execute(command, author=author)
