"""evolve: a pure, total fold of the events into the fight's state."""

from typing import Any

from fracas.rules.api import (
    Carried,
    CombatantHidden,
    CombatantJoined,
    CombatantRevealed,
    ConditionCleared,
    ConditionExpired,
    Damaged,
    Declared,
    EncounterStarted,
    Event,
    Healed,
    InitiativeSet,
    Rolled,
    Spent,
    TurnAdvanced,
    recorded,
    roster,
)
from msgspec.structs import replace

from fracas_srd.events import (
    DEATH_SAVE,
    ConcentrationOwed,
    DeathSaves,
    LeftReach,
    Recharged,
    Restored,
    RollOpen,
    ShookOff,
    SlotsRestored,
    TemporaryHitPoints,
    UsesBack,
)
from fracas_srd.sheets import Options, Sheet
from fracas_srd.slots import slot_level
from fracas_srd.state import (
    DAILY,
    HIT_DIE,
    LAIR_ACTION,
    LEGENDARY_RESISTANCE,
    MOVEMENT,
    RECHARGE,
    REST_USE,
    Fighter,
    OpenRoll,
    State,
    lair_opens,
    shaken_source,
)


def joined(state: State, event: CombatantJoined) -> State:
    sheet = recorded(event.sheet, Sheet)
    fighter = Fighter(
        event.combatant,
        event.name,
        event.side,
        sheet,
        len(state.fighters),
        sheet.hp if sheet.hp_now is None else sheet.hp_now,
        sheet.hp,
        temp_hp=sheet.temp_hp,
        slots_spent=tuple(sheet.slots_spent),
        hit_dice_spent=sheet.hit_dice_spent,
        legendary_left=sheet.legendary_actions,
    )
    return roster.put(state, fighter)


def left_reach(state: State, event: LeftReach) -> State:
    """srd-18: those whose reach its move left, added to those its turn left before."""
    return roster.change(
        state, event.target, lambda f: replace(f, left=tuple(dict.fromkeys((*f.left, *event.of))))
    )


def shook_off(state: State, event: ShookOff) -> State:
    key = f"{event.source}:{event.effect.lower()}"
    return roster.change(state, event.target, lambda f: replace(f, shaken_off=(*f.shaken_off, key)))


def turn(state: State, event: TurnAdvanced) -> State:
    """A new turn: its creature's action, bonus action and attacks are fresh (srd-3), its
    reaction comes back (srd-4), and so do its legendary actions (srd-29). A creature dying
    as it begins owes the death save that starts it (srd-14); one that drops later does not."""
    ended = f"{state.round}:{state.turn}" if state.turn else ""
    lair = event.round if lair_opens(state, event.round, event.actor) else 0
    dying = bool(event.actor) and state.fighters[event.actor].has("dying")
    state = replace(
        state, round=event.round, turn=event.actor, turn_ended=ended, lair=lair, save_put_off=dying
    )
    return roster.change(
        state,
        event.actor or "",
        lambda f: replace(
            f,
            action="",
            attacks=0,
            attacked_with=(),
            bonus="",
            moved=0,
            left=(),
            reaction=False,
            spells=(),
            legendary_prior=f.legendary_left,
            legendary_left=f.sheet.legendary_actions,
        ),
    )


def declared(state: State, event: Declared) -> State:
    """Once the creature whose turn it is acts, the turn-end before it is past (srd-29);
    an attack of its Attack action records the weapon it is made with (srd-19)."""
    acts = event.actor == state.turn and event.action not in ("legendary", "lair")
    if not acts:
        return state
    state = replace(state, turn_ended="", lair=0, save_put_off=False)
    if event.action != "attack":
        return state
    return roster.change(state, event.actor, lambda f: attacking_with(f, event.command))


def attacking_with(fighter: Fighter, command: dict[str, Any]) -> Fighter:
    weapon = fighter.sheet.wielded(command.get("weapon") or "").name
    return replace(fighter, attacked_with=(*fighter.attacked_with, weapon))


def rolled(state: State, event: Rolled) -> State:
    """A death save starts its creature's turn: the turn-end before it is past (srd-29).
    Any roll of a creature closes its check or save left open (srd-81, srd-82)."""
    if event.actor in state.fighters and state.fighters[event.actor].open_roll is not None:
        state = roster.change(state, event.actor, lambda f: replace(f, open_roll=None))
    starts = event.actor == state.turn and event.purpose == DEATH_SAVE
    return replace(state, turn_ended="", lair=0, save_put_off=False) if starts else state


def roll_open(state: State, event: RollOpen) -> State:
    kept = tuple(event.kept)
    left = OpenRoll(event.rolls, event.purpose, event.total, event.dc, kept, event.fail)
    return roster.change(state, event.target, lambda f: replace(f, open_roll=left))


def spent(state: State, event: Spent) -> State:
    def edit(f: Fighter) -> Fighter:
        match event.resource:
            case "action":
                return replace(f, action=event.reason)
            case "attack":
                return replace(f, attacks=f.attacks + event.amount)
            case "bonus action":
                return replace(f, bonus=event.reason)
            case "reaction":
                return replace(f, reaction=True)
            case "spell":
                return replace(f, spells=(*f.spells, event.reason))
            case "once a turn":
                return replace(f, once={**f.once, event.reason: f"{state.round}:{state.turn}"})
            case "legendary action" | "legendary actions":
                return legendary_spent(state, f, event.amount)
        if event.resource == RECHARGE:
            return replace(f, recharging=(*f.recharging, event.reason))
        if event.resource in (DAILY, REST_USE):
            return replace(f, used_today={**f.used_today, event.reason: f.used(event.reason) + 1})
        if event.resource == LEGENDARY_RESISTANCE:
            return replace(f, resisted=f.resisted + event.amount)
        if event.resource == LAIR_ACTION:
            return replace(f, lair_round=state.round, lair_last=event.reason)
        if event.resource == HIT_DIE:
            return replace(f, hit_dice_spent=f.hit_dice_spent + event.amount)
        if event.resource == MOVEMENT:
            return replace(f, moved=f.moved + event.amount)
        level = slot_level(event.resource)
        return slot_spent(f, level, event.amount) if level else f

    return roster.change(state, event.combatant, edit)


def slot_spent(f: Fighter, level: int, amount: int) -> Fighter:
    spent = list(f.slots_spent) + [0] * (level - len(f.slots_spent))
    spent[level - 1] += amount
    return replace(f, slots_spent=tuple(spent))


def recharged(state: State, event: Recharged) -> State:
    return roster.change(
        state,
        event.target,
        lambda f: replace(f, recharging=tuple(w for w in f.recharging if w != event.what)),
    )


def restored(state: State, event: Restored) -> State:
    def edit(f: Fighter) -> Fighter:
        return replace(
            f,
            hp=max(0, min(f.hp_max, event.hp)),
            temp_hp=max(0, event.temp_hp),
            successes=event.successes,
            failures=event.failures,
            slots_spent=tuple(event.slots_spent),
            hit_dice_spent=event.hit_dice_spent,
            resisted=event.resisted,
            used_today=dict(event.used_today),
        )

    return roster.change(state, event.target, edit)


def uses_back(state: State, event: UsesBack) -> State:
    def back(f: Fighter) -> Fighter:
        return replace(f, used_today={k: v for k, v in f.used_today.items() if k not in event.what})

    return roster.change(state, event.target, back)


def slots_restored(state: State, event: SlotsRestored) -> State:
    return roster.change(state, event.target, lambda f: replace(f, slots_spent=(), used_today={}))


def legendary_spent(state: State, f: Fighter, amount: int) -> Fighter:
    """At the turn-end just before its own turn, the points come from what it had before
    they came back at the start of that turn."""
    if state.turn == f.id:
        prior = f.legendary_prior - amount
        return replace(f, legendary_prior=prior, legendary_after=state.turn_ended)
    left = f.legendary_left - amount
    return replace(f, legendary_left=left, legendary_after=state.turn_ended)


def damaged(state: State, event: Damaged) -> State:
    """srd-11: off temporary hit points first; srd-9: hit points never below 0."""

    def edit(f: Fighter) -> Fighter:
        absorbed = min(f.temp_hp, event.amount)
        return replace(f, temp_hp=f.temp_hp - absorbed, hp=max(0, f.hp - event.amount + absorbed))

    return roster.change(state, event.target, edit)


def healed(state: State, event: Healed) -> State:
    return roster.change(
        state, event.target, lambda f: replace(f, hp=min(f.hp_max, f.hp + event.amount))
    )


def temporary(state: State, event: TemporaryHitPoints) -> State:
    return roster.change(state, event.target, lambda f: replace(f, temp_hp=event.amount))


def death_saves(state: State, event: DeathSaves) -> State:
    return roster.change(
        state,
        event.target,
        lambda f: replace(f, successes=event.successes, failures=event.failures),
    )


def owed(state: State, event: ConcentrationOwed) -> State:
    return roster.change(state, event.target, lambda f: replace(f, owed=tuple(event.owed)))


def cleared(state: State, event: ConditionCleared | ConditionExpired) -> State:
    """A concentration that ends, however, is owed no save any more (srd-26). A condition
    that runs out from an effect that says so leaves its creature immune to it (a dragon's
    Frightful Presence; a save that ends it says so in the log, `ShookOff`)."""
    if isinstance(event, ConditionExpired):
        state = outlasted(state, event.target, event.condition)
    state = roster.CORE_EVOLVERS[type(event)](state, event)
    if event.condition != "concentrating":
        return state
    return roster.change(state, event.target, lambda f: replace(f, owed=()))


def outlasted(state: State, who: str, condition: str) -> State:
    detail = state.fighters[who].conditions.get(condition) or {}
    source = shaken_source(state, detail)
    if source is None:
        return state
    return shook_off(state, ShookOff(who, source.id, detail["spell"], "it ran out"))


def carried(state: State, event: Carried) -> State:
    """A member of the party, brought in as it stood (or home again): its sheet is the
    party's, which `fracas party update` replaces."""
    return roster.change(state, event.target, lambda f: replace(f, of_party=True))


def unseen(state: State, event: CombatantHidden | CombatantRevealed) -> State:
    """Who the players do not see (`add --hidden`), until the GM or an attack reveals them."""
    hidden = isinstance(event, CombatantHidden)
    return roster.change(state, event.combatant, lambda f: replace(f, unseen=hidden))


def initiative(state: State, event: InitiativeSet) -> State:
    return roster.change(
        state,
        event.combatant,
        lambda f: replace(f, initiative=event.value, tiebreak=event.tiebreak),
    )


evolve = roster.dispatch(
    {
        EncounterStarted: roster.options_evolver(Options),
        CombatantJoined: joined,
        Carried: carried,
        InitiativeSet: initiative,
        TurnAdvanced: turn,
        Declared: declared,
        Rolled: rolled,
        Spent: spent,
        Damaged: damaged,
        Healed: healed,
        TemporaryHitPoints: temporary,
        DeathSaves: death_saves,
        SlotsRestored: slots_restored,
        UsesBack: uses_back,
        Restored: restored,
        Recharged: recharged,
        ShookOff: shook_off,
        LeftReach: left_reach,
        RollOpen: roll_open,
        ConcentrationOwed: owed,
        ConditionCleared: cleared,
        ConditionExpired: cleared,
        CombatantHidden: unseen,
        CombatantRevealed: unseen,
    }
)


def event_types() -> tuple[type[Event], ...]:
    return (
        TemporaryHitPoints,
        DeathSaves,
        SlotsRestored,
        Recharged,
        Restored,
        ConcentrationOwed,
        ShookOff,
        LeftReach,
        UsesBack,
        RollOpen,
    )
