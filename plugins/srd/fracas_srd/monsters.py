"""A monster's Multiattack and legendary actions (srd-29), and its lair actions (srd-55)."""

import msgspec
from fracas.rules.api import (
    Context,
    Damaged,
    Event,
    ReactionDue,
    RefusedError,
    Resolved,
    Spent,
    and_list,
    roster,
)

from fracas_srd import spells
from fracas_srd.attacks import weapon_attack
from fracas_srd.commands import Lair, Legendary, Multiattack
from fracas_srd.damage import deal, heal, roll_dice
from fracas_srd.evolve import evolve
from fracas_srd.sheets import LairAction, LegendaryOption
from fracas_srd.state import LAIR_ACTION, LAIR_COUNT, MULTIATTACK, Fighter, State
from fracas_srd.turn import able, action, down_as

RULE = ["srd-29"]


def multiattack(state: State, actor: Fighter, command: Multiattack, ctx: Context) -> list[Event]:
    """One action made of the sheet's attacks, in its order, each with its own target
    (one target named: all at it). Each hit's damage, and its concentration save, comes
    before the next attack."""
    listed = actor.sheet.multiattack
    if not listed:
        raise RefusedError(f"{actor.name} has no Multiattack on {actor.its} sheet (srd-29)")
    targets = command.targets * len(listed) if len(command.targets) == 1 else command.targets
    if len(targets) != len(listed):
        raise RefusedError(
            f"{actor.name}'s Multiattack is {len(listed)} attacks ({', '.join(listed)}): "
            "name one target for all, or a target for each attack, naming one twice for two"
        )
    dead = next((state.fighter(who) for who in targets if state.fighter(who).dead), None)
    if dead is not None:
        raise RefusedError(
            f"{dead.name} is dead: {actor.name}'s Multiattack at it would do nothing; "
            "name a living target for each attack (srd-29)"
        )
    made = f"its Multiattack of {and_list(listed)}"
    events = [*begun(state, actor), Spent(actor.id, "attack", 1, made, RULE)]
    for name, who in zip(listed, targets, strict=True):
        now = roster.fold(evolve, state, events)
        target = now.fighter(who)
        if target.dead:
            events.append(
                Resolved(
                    actor.id,
                    "multiattack",
                    [who],
                    f"{name}: {target.name} is already dead",
                    ["srd-29"],
                )
            )
            continue
        weapon = actor.sheet.weapon(name)
        # a reaction taken in an earlier attack of this one is not taken again, and one a
        # target can no longer take (dropped by an earlier one, srd-27) lapses: the
        # Multiattack goes on
        fresh = {k: v for k, v in command.defence.items() if not taken_here(state, now, k)}
        if who in fresh and target.incapacitated and not state.fighter(who).incapacitated:
            events.append(lapsed(actor, target, name, fresh.pop(who)))
        hit = {k: v for k, v in command.on_hit.items() if not taken_here(state, now, k)}
        hurt = {k: v for k, v in command.on_damage.items() if not taken_here(state, now, k)}
        if target.incapacitated:  # an answer it gave earlier lapses with its reactions
            hit.pop(who, None)
            hurt.pop(who, None)
        each = msgspec.structs.replace(command, defence=fresh, on_hit=hit, on_damage=hurt)
        try:
            events += weapon_attack(
                now, ctx, now.fighter(actor.id), target, weapon, each, "multiattack"
            )
        except ReactionDue as due:  # asked at this attack: the ones before it come first
            raise due.after(events) from None
    return events + abilities_left(state, actor)


def lapsed(actor: Fighter, target: Fighter, name: str, reaction: str) -> Resolved:
    """srd-27: a reaction named for a Multiattack whose target an earlier attack of it
    dropped: not taken, the attack made without it."""
    said = f"{name}: {target.name} is {down_as(target)}: no reactions, so not {reaction}"
    return Resolved(actor.id, "multiattack", [target.id], said, ["srd-29", "srd-27"])


def abilities_left(state: State, actor: Fighter) -> list[Event]:
    """srd-29: the abilities of its Multiattack not used in it yet, named with how to."""
    turn = f"{state.round}:{state.turn}"
    return [
        Resolved(
            actor.id,
            "multiattack",
            [],
            f"its {s.name} is part of this Multiattack too: cast -o spell={s.name!r}",
            RULE,
        )
        for s in actor.sheet.spells
        if s.multiattack and actor.once.get(s.name) != turn
    ]


def begun(state: State, actor: Fighter) -> list[Event]:
    """The Multiattack action, or nothing where an ability of it (a dragon's Frightful
    Presence) began it this turn and its attacks are still to come."""
    if actor.action == MULTIATTACK and not actor.attacks:
        return []
    return action(actor, MULTIATTACK)


def taken_here(before: State, now: State, who: str) -> bool:
    return now.fighter(who).reaction and not before.fighter(who).reaction


def legendary(state: State, actor: Fighter, command: Legendary, ctx: Context) -> list[Event]:
    """One option at a time, only at the end of another creature's turn, one per turn-end;
    not while incapacitated, nor surprised before its first turn ends."""
    able(state, actor)
    option = next(
        (o for o in actor.sheet.legendary if o.name.lower() == command.option.lower()), None
    )
    if option is None:
        offered = ", ".join(o.name for o in actor.sheet.legendary) or "none"
        unnamed(actor, "legendary options", offered, command.option)
        raise RefusedError(f"{actor.name} has no legendary option {command.option!r}; {offered}")
    check_window(state, actor, option.cost)
    used = chosen(actor, option, command.weapon)
    events: list[Event] = [
        Spent(actor.id, legendary_actions(option.cost), option.cost, option.name, ["srd-29"])
    ]
    if used == option.spell and used:
        return unleashed(state, ctx, events, actor, option.spell, command)
    if option.drain:
        return events + drained(state, ctx, actor, option, command)
    if not used:
        return [
            *events,
            Resolved(actor.id, "legendary", list(command.targets), NARRATED, ["srd-29"]),
        ]
    if len(command.targets) != 1:
        one = f"{option.name} takes exactly one target"
        form = f'`fracas act {actor.id} legendary TARGET -o "option={option.name}"`'
        raise RefusedError(f"{one}: {form}", player=f"{one}: pick one")
    target = state.fighter(command.targets[0])
    weapon = actor.sheet.weapon(option.weapon)
    return events + weapon_attack(state, ctx, actor, target, weapon, command, "legendary")


def drained(
    state: State, ctx: Context, actor: Fighter, option: LegendaryOption, command: Legendary
) -> list[Event]:
    """An aboleth's Psychic Drain: one creature it has charmed takes the damage, and it
    regains as many hit points as that creature takes (after resistance). A charm the GM
    set by hand names no charmer: the GM's word that it is this one's."""
    if len(command.targets) != 1:
        one = f"{option.name} takes exactly one target"
        form = f'`fracas act {actor.id} legendary TARGET -o "option={option.name}"`'
        raise RefusedError(f"{one}: {form}", player=f"{one}: pick one")
    target = state.fighter(command.targets[0])
    charm = target.conditions.get("charmed")
    if charm is None or charm.get("by", actor.id) != actor.id:
        raise RefusedError(
            f"{target.name} is not charmed by {actor.name}: {option.name} harms only a "
            f"creature {actor.it} has charmed (srd-29)"
        )
    events: list[Event] = []
    parts = roll_dice(
        ctx, events, actor.id, option.drain, False, f"damage of {option.name}",
        state.options.critical,
    )  # fmt: skip
    events += deal(state, ctx, actor.id, target, parts, option.drain_type, False, ("srd-29",))
    taken = next(e.amount for e in events if isinstance(e, Damaged))
    now = roster.fold(evolve, state, events).fighter(actor.id)
    if taken and not now.dead:
        events += heal(now, taken, f"{option.name} of {target.name}", ("srd-29",))
    return events


NARRATED = "the GM narrates what it does"  # an option of no weapon or spell (a detect)


def chosen(actor: Fighter, option: LegendaryOption, asked: str) -> str:
    """What the legendary option uses: its weapon or its ability (a spell of the sheet),
    the one `-w` names where it offers both (a mummy lord's rotting fist or Dreadful Glare);
    "" for one the GM narrates."""
    offered = [o for o in (option.weapon, option.spell) if o]
    found = next((o for o in offered if o.lower() == asked.lower()), "")
    if asked and not found:
        if not offered:
            raise RefusedError(f"{actor.name}'s {option.name} uses no weapon, not {asked!r}")
        raise RefusedError(f"{actor.name}'s {option.name} {either(offered)}, not {asked!r}")
    if not asked and len(offered) > 1:
        named = " or ".join(f"-w {o!r}" for o in offered)
        raise RefusedError(f"{actor.name}'s {option.name} {either(offered)}: name one, {named}")
    return found or (offered[0] if offered else "")


def either(offered: list[str]) -> str:
    return "uses its " + " or its ".join(offered)


def check_window(state: State, actor: Fighter, cost: int) -> None:
    ended = state.turn_ended
    if not ended:
        raise RefusedError(
            "a legendary action comes only at the end of another creature's turn, before the "
            "next one acts (srd-29): `fracas next` ends this turn, then give it"
        )
    if ended.partition(":")[2] == actor.id:
        raise RefusedError(f"it was {actor.name}'s own turn that ended (srd-29)")
    if actor.legendary_after == ended:
        raise RefusedError(
            f"{actor.name} has taken a legendary action at this turn's end: one at each "
            "turn's end, the next once another creature's turn ends (srd-29)"
        )
    if actor.surprised:
        raise RefusedError(f"{actor.name} is surprised until {actor.its} first turn ends (srd-29)")
    left = actor.legendary_prior if state.turn == actor.id else actor.legendary_left
    if left < cost:
        raise RefusedError(
            f"{actor.name} has {left} {legendary_actions(left)} left, this costs {cost}: "
            f"they come back at the start of {actor.its} turn (srd-29)"
        )


def legendary_actions(count: int) -> str:
    return "legendary action" if count == 1 else "legendary actions"


def lair(state: State, actor: Fighter, command: Lair, ctx: Context) -> list[Event]:
    """srd-55: on initiative count 20 (losing ties), before the next turn acts: one lair
    action a round, not the same one two rounds running; not while incapacitated, nor
    surprised."""
    able(state, actor)
    option = lair_option(actor, command.option)
    check_lair_window(state, actor, option)
    events: list[Event] = [Spent(actor.id, LAIR_ACTION, 1, option.name, ["srd-55"])]
    if not option.spell:
        return [
            *events,
            Resolved(actor.id, "lair", list(command.targets), option.name, ["srd-55"]),
        ]
    return unleashed(state, ctx, events, actor, option.spell, command)


def unleashed(
    state: State,
    ctx: Context,
    events: list[Event],
    actor: Fighter,
    name: str,
    command: Lair | Legendary,
) -> list[Event]:
    """A lair or legendary action that is a spell of the sheet, on its targets."""
    spell = actor.sheet.spell(name)
    targets = [state.fighter(t) for t in command.targets]
    if not targets:
        raise RefusedError(f"{command.option} needs its targets")
    spells.check_targets(spell, spell.level, targets)
    return events + spells.unleash(state, ctx, events, actor, spell, targets, command)


def lair_option(actor: Fighter, name: str) -> LairAction:
    found = next((o for o in actor.sheet.lair if o.name.lower() == name.lower()), None)
    if found is None:
        offered = ", ".join(o.name for o in actor.sheet.lair) or "none"
        unnamed(actor, "lair actions", offered, name)
        raise RefusedError(f"{actor.name} has no lair action {name!r}; lair actions: {offered}")
    return found


def unnamed(actor: Fighter, kind: str, offered: str, name: str) -> None:
    """None named: the ones to pick from, and how, rather than "no lair action ''"."""
    if not name.strip():
        raise RefusedError(f"{actor.name}'s {kind}: {offered}; pick one with -o option=NAME")


def check_lair_window(state: State, actor: Fighter, option: LairAction) -> None:
    if not state.lair:
        raise RefusedError(
            f"a lair action comes on initiative count {LAIR_COUNT} (losing ties), before the "
            "next turn acts (srd-55)"
        )
    if actor.surprised:
        raise RefusedError(f"{actor.name} is surprised until its first turn ends (srd-55)")
    if actor.lair_round == state.lair:
        raise RefusedError(
            f"{actor.name} has taken its lair action this round: the next comes on initiative "
            f"count {LAIR_COUNT} of the next round (srd-55)"
        )
    if actor.lair_last == option.name and actor.lair_round == state.lair - 1:
        raise RefusedError(
            f"{actor.name} used {option.name} last round: not the same lair action two rounds "
            "running (srd-55)"
        )
