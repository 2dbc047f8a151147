"""Surprise (srd-1), initiative and its ties (srd-2), the turn (srd-3) and its end: the
next in the order, death saves at the start of a turn (srd-14), repeated saves at the end
of one (srd-28), and concentration lost to incapacity (srd-26)."""

from collections.abc import Iterator

import msgspec
from fracas.rules.api import (
    Begin,
    Clock,
    ConditionCleared,
    ConditionSet,
    Context,
    Event,
    InitiativeSet,
    Modifier,
    Pass,
    RefusedError,
    Resolved,
    TurnAdvanced,
    Until,
    and_list,
    check_can_begin,
    roster,
)

from fracas_srd.checks import Edge, d20_test, save_name
from fracas_srd.commands import DeathSave, Surprise
from fracas_srd.conditions import saving_throw, shaking_off
from fracas_srd.damage import death_save, end_concentration, gain_temporary
from fracas_srd.evolve import evolve
from fracas_srd.recharge import recharges
from fracas_srd.state import HEARTENS, REMOVED, Fighter, State, check_begun, shaken_source

ROLL_OFFS = 5  # a roll-off tied this many times running leaves the joining order


def fold(state: State, events: list[Event]) -> State:
    return roster.fold(evolve, state, events)


def decide_surprise(state: State, command: Surprise, ctx: Context) -> list[Event]:
    """srd-1: no move, action or reaction until its first turn ends (a duration)."""
    if state.round:
        raise RefusedError("surprise is decided before the fight begins (srd-1)")
    if not command.targets:
        raise RefusedError("name who is surprised: `act gm surprise ID...`")
    events: list[Event] = []
    for who in command.targets:
        fighter = state.fighter(who)
        lasting = msgspec.to_builtins(Until(edge="end", of=fighter.id))
        detail = {"until": lasting}
        events.append(ConditionSet(fighter.id, "surprised", "caught unaware", detail, ["srd-1"]))
    return events


def initiative_roll(ctx: Context, events: list[Event], fighter: Fighter) -> int:
    """srd-2: a Dexterity check, d20 + Dex modifier + any initiative bonus."""
    mods = [Modifier(fighter.sheet.mod("dex"), "Dex modifier", "srd-M1")]
    if fighter.sheet.initiative:
        mods.append(Modifier(fighter.sheet.initiative, "initiative bonus", "srd-2"))
    said = d20_test(  # its total is its line's sum: no "-> 16" after "15 +1 = 16"
        ctx, events, fighter.id, "initiative", mods, Edge(), None, ["srd-2"], told_total
    )
    return said.total


def told_total(natural: int, total: int) -> tuple[bool, str]:
    """An initiative roll judges nothing: its sum is all it says (srd-2)."""
    return True, ""


def units(state: State, fighters: list[Fighter]) -> list[list[Fighter]]:
    """Who rolls together: each alone, or (an option) identical creatures as one group."""
    if not state.options.group_initiative:
        return [[f] for f in fighters]
    groups: dict[bytes, list[Fighter]] = {}
    for fighter in fighters:
        groups.setdefault(msgspec.json.encode(fighter.sheet), []).append(fighter)
    return list(groups.values())


def roll_off(
    ctx: Context, events: list[Event], tied: list[list[Fighter]], times: int = 0
) -> Iterator[list[Fighter]]:
    """srd-2's default tie-break after Dex: each rolls a d20, higher first, again on a tie."""
    if len(tied) == 1 or times >= ROLL_OFFS:
        yield from tied
        return
    rolled: dict[int, list[list[Fighter]]] = {}
    for unit in tied:
        lead = unit[0]
        check = d20_test(ctx, events, lead.id, "initiative roll-off", [], Edge(), None, ["srd-2"])
        rolled.setdefault(check.total, []).append(unit)
    for _, again in sorted(rolled.items(), reverse=True):
        yield from roll_off(ctx, events, again, times + 1)


def tiebreaks(
    state: State,
    ctx: Context,
    events: list[Event],
    totals: dict[str, int],
    groups: list[list[Fighter]],
) -> dict[str, int]:
    """A rank for each, higher first, among those of equal initiative and Dex."""
    if state.options.initiative_ties != "dex":
        return {}
    tied: dict[tuple[int, int], list[list[Fighter]]] = {}
    for unit in groups:
        key = (totals[unit[0].id], unit[0].sheet.dexterity)
        tied.setdefault(key, []).append(unit)
    ranks: dict[str, int] = {}
    for same in tied.values():
        if len(same) < 2:
            continue
        ordered = list(roll_off(ctx, events, same))
        for place, unit in enumerate(ordered):
            for fighter in unit:
                ranks[fighter.id] = len(ordered) - place
    return ranks


def roll_all(state: State, ctx: Context, fighters: list[Fighter]) -> list[Event]:
    events: list[Event] = []
    groups = units(state, fighters)
    totals: dict[str, int] = {}
    for unit in groups:
        total = initiative_roll(ctx, events, unit[0])
        totals.update({f.id: total for f in unit})
    ranks = tiebreaks(state, ctx, events, totals, groups)
    for fighter in fighters:
        mates = groups_of(groups, fighter)
        total = totals[fighter.id]
        # (one who rolled alone: its roll's line just said how, "d20 + Dex" would say it again)
        why = f"{total} (d20 + Dex, one roll with {mates})" if mates else str(total)
        rank = ranks.get(fighter.id, 0)
        events.append(InitiativeSet(fighter.id, totals[fighter.id], why, ["srd-2"], rank))
    return events


def groups_of(groups: list[list[Fighter]], fighter: Fighter) -> str:
    unit = next(u for u in groups if fighter in u)
    return and_list(f.name for f in unit if f.id != fighter.id)


def decide_begin(state: State, command: Begin, ctx: Context) -> list[Event]:
    check_can_begin(bool(state.round), state.fighters)
    events = roll_all(state, ctx, sorted(state.fighters.values(), key=lambda f: f.joined))
    return events + advance(fold(state, events), ctx, "the fight begins")


def next_up(state: State) -> tuple[int, Fighter | None]:
    """The next in the order who still fights (the dead are skipped), and in which round."""
    alive = state.alive()
    later = state.later_this_round()
    if later and state.round:
        return state.round, later[0]
    return state.round + 1, alive[0] if alive else None


def advance(state: State, ctx: Context, reason: str) -> list[Event]:
    events = incapacity_ends_concentration(state)
    state = fold(state, events)
    number, fighter = next_up(state)
    if fighter is None:
        return [*events, TurnAdvanced(number, None, "nobody is left to act", ["srd-2"])]
    rules = ["srd-2", "srd-3", "srd-4", *(["srd-29"] if fighter.sheet.legendary_actions else [])]
    events.append(TurnAdvanced(number, fighter.id, reason, rules))
    if not fighter.has("dying"):
        return events + recharges(ctx, fighter) + grovels(fighter) + heartened(state, fighter)
    after = fold(state, events)
    if legendary_may_follow(after, fighter):
        why = (  # (the sentence reads "Wren: death save at the start of …": what waits)
            f"death save at the start of {fighter.its} turn, after any legendary action "
            "(as the GM moves on)"
        )
        return [*events, Resolved(fighter.id, "death save", [], why, ["srd-14", "srd-29"])]
    if state.options.death_saves == "own_step":
        why = (
            f"death save at the start of {fighter.its} turn, as its own step (its player's, "
            "or the GM's next)"
        )
        return [*events, Resolved(fighter.id, "death save", [], why, ["srd-14"])]
    return events + start_of_turn(after, ctx, fighter)


def grovels(fighter: Fighter) -> list[Event]:
    """srd-75: commanded to grovel, it falls prone as its turn begins (and then ends it)."""
    if not fighter.has("commanded to grovel") or fighter.has("prone"):
        return []
    return [ConditionSet(fighter.id, "prone", "grovels, as commanded", {}, ["srd-75", "srd-27"])]


def legendary_may_follow(state: State, holder: Fighter) -> bool:
    """srd-29: another creature may still take a legendary action at the turn-end just
    past, before `holder`'s turn starts."""
    ender = state.turn_ended.partition(":")[2]
    if state.lair and any(
        f.sheet.lair and f.lair_round != state.lair and not f.incapacitated for f in state.alive()
    ):
        return True  # a lair action on count 20 comes first (srd-55)
    return any(
        f.sheet.legendary_actions and f.legendary_left > 0
        for f in state.alive()
        if f.id not in (holder.id, ender) and not f.incapacitated and not f.surprised
    )


def start_due(state: State) -> Fighter | None:
    """The dying creature whose turn began dying, while the turn-end before it is open: its
    death save is still to come (srd-14, after srd-29's legendary actions). One that dropped
    to 0 on its own turn makes none as that turn ends."""
    holder = state.acting()
    if holder is None or not holder.has("dying") or not state.save_put_off:
        return None
    return holder


def start_of_turn(state: State, ctx: Context, fighter: Fighter) -> list[Event]:
    """srd-14: the death save that starts a dying creature's turn (it closes the turn-end
    before it: see evolve.rolled)."""
    events = death_save(state, ctx, fighter)
    after = fold(state, events)
    if after.fighter(fighter.id).dead:  # its last death save: no turn to take
        events += advance(after, ctx, f"{fighter.name} died")
    return events


def heartened(state: State, fighter: Fighter) -> list[Event]:
    """srd-11: heroism's temporary hit points, the caster's spellcasting modifier, at the
    start of each of its target's turns (not a dying one's: heroism ends at 0 hit points
    with the concentration of a caster who drops, and the GM rules on the rest)."""
    events: list[Event] = []
    for detail in fighter.conditions.values():
        if detail.get(HEARTENS):
            why = f"{detail.get('spell', 'heroism')} at the start of {fighter.its} turn"
            events += gain_temporary(state, fighter, detail[HEARTENS], why)
    return events


def incapacity_ends_concentration(state: State) -> list[Event]:
    """srd-26: being incapacitated ends concentration."""
    events: list[Event] = []
    for fighter in state.fighters.values():
        if fighter.has("concentrating") and fighter.incapacitated:
            events += end_concentration(state, fighter, "incapacitated", "srd-26")
    return events


def repeated_saves(state: State, ctx: Context, fighter: Fighter) -> list[Event]:
    """srd-28: "save ends": the save again at the end of each of its turns."""
    events: list[Event] = []
    for condition, detail in fighter.conditions.items():
        save = detail.get("save_ends")
        if not save:
            continue
        ability, dc, magic = save["ability"], save["dc"], detail.get("magic", "spell" in detail)
        # "against hold person (paralysed, DC 13)": the spell as the table names it, and the
        # condition, which the players' screen reads to keep a hidden caster's DC from them
        spell = detail.get("spell")
        against = f"{spell} ({condition}, DC {dc})" if spell else f"{condition} (DC {dc})"
        purpose = f"{save_name(ability)} against {against}"
        check = saving_throw(ctx, events, fighter, ability, dc, purpose, ["srd-28"], magic=magic)
        if check.success:
            events.append(
                ConditionCleared(
                    fighter.id, condition, f"saved at the end of {fighter.its} turn", ["srd-28"]
                )
            )
            events += outlasted(state, fighter, condition, detail)
    return events


def outlasted(state: State, fighter: Fighter, condition: str, detail: dict) -> list[Event]:
    """A creature whose condition from an effect that says so ends is immune to it (a
    dragon's Frightful Presence)."""
    source = shaken_source(state, detail)
    if source is None:
        return []
    return shaking_off(fighter, source.id, detail["spell"], f"it is no longer {condition}")


def decide_pass(state: State, command: Pass, ctx: Context) -> list[Event]:
    check_begun(state)
    due = start_due(state)
    if due is not None and command.actor == due.id and not due.has(REMOVED):
        # its own pass: the GM's `next` rolls it (srd-14)
        raise RefusedError(owed(due), player=owed(due, player=True))
    if due is not None:
        return start_then_pass(state, command, ctx, due)
    actor = state.acting()
    if actor is None:
        raise RefusedError("nobody is left able to act in this fight")
    if command.actor not in (None, actor.id):
        raise RefusedError(f"it is {actor.name}'s turn; only they can end it")
    events = repeated_saves(state, ctx, actor)
    return events + advance(fold(state, events), ctx, f"{actor.name}'s turn is over")


def owed(due: Fighter, player: bool = False) -> str:
    """srd-14: a dying creature's turn starts with its death save, which it cannot let go
    by: its own pass (a player's End turn) is refused while the save waits. `player`: in a
    player's words, the button to tap rather than the command to type."""
    how = "tap Death save" if player else f"`fracas act {due.id} death_save`"
    return f"{due.name}'s turn starts with {due.its} death save: roll it first, {how} (srd-14)"


def decide_death_save(state: State, command: DeathSave, ctx: Context) -> list[Event]:
    """srd-14: the death save its creature's turn starts with, when it waits for its step."""
    check_begun(state)
    due = start_due(state)
    if due is None or due.id != command.actor:
        fighter = state.fighter(command.actor)
        who = fighter.name
        if fighter.has("stable"):
            wakes = "it wakes" if fighter.its == "its" else "they wake"
            raise RefusedError(
                f"{who} is stable: no death saves; {wakes} with 1 HP after 1d4 hours or when "
                "healed (srd-14)"
            )
        raise RefusedError(f"no death save is due for {who} now: one starts a dying turn (srd-14)")
    return start_then_pass(state, Pass(actor=due.id), ctx, due)


def start_then_pass(state: State, command: Pass, ctx: Context, due: Fighter) -> list[Event]:
    """The death save put off for legendary actions; then, if the creature is still down,
    its turn ends (a natural 20 brings it back: its turn goes on)."""
    if command.actor not in (None, due.id):
        raise RefusedError(f"it is {due.name}'s turn; only they can end it")
    events = start_of_turn(state, ctx, due)
    after = fold(state, events)
    if after.turn != due.id or not after.fighter(due.id).incapacitated:
        return events
    return events + decide_pass(after, command, ctx)


def clock(state: State) -> Clock:
    """Where durations expire: a turn is its round and its creature's place in it, the
    initiative count a duration in rounds runs from and ends at (srd-28)."""
    acting = state.acting()
    count = acting.initiative if acting is not None else None
    return Clock(state.round, {state.turn: str(state.round)} if state.turn else {}, "round", count)
