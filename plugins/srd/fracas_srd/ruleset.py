"""d20 fantasy combat from the SRD 5.1, as a fracas ruleset: the decider and its words.

This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by
Wizards of the Coast LLC, licensed under CC-BY-4.0 (see reference.ATTRIBUTION).
"""

from collections.abc import Callable
from typing import Any

from fracas.rules.api import (
    ANY_KIND,
    Begin,
    Bestiary,
    Choices,
    ConditionSet,
    Context,
    Event,
    Join,
    Modifier,
    Pass,
    RefusedError,
    Resolved,
    Ruleset,
    declared_event,
    event_union,
    gm,
    joined_event,
    roster,
)

from fracas_srd import (
    actions,
    called,
    monsters,
    movement,
    reactions,
    rest,
    spellbook,
    spells,
    triggered,
)
from fracas_srd.checks import srd_names
from fracas_srd.commands import ACTIONS, Act, DeathSave, SrdCommand, Surprise
from fracas_srd.conditions import SRD_CONDITIONS
from fracas_srd.damage import (
    deal,
    end_concentration,
    gain_temporary,
    heal,
    ruled_alive,
    what_follows,
)
from fracas_srd.evolve import event_types, evolve
from fracas_srd.initiative import (
    advance,
    clock,
    decide_begin,
    decide_death_save,
    decide_pass,
    decide_surprise,
    incapacity_ends_concentration,
    roll_all,
)
from fracas_srd.reach import reach
from fracas_srd.reference import REFERENCE
from fracas_srd.sheets import OPTION_HELP, Options, Sheet, check_sheet
from fracas_srd.slots import as_cast
from fracas_srd.state import INCAPACITATING, TRACKED, Fighter, State, initial, turn_end
from fracas_srd.turn import able, light_melee, on_turn
from fracas_srd.view import (
    daily_chips,
    down_said,
    fallen_sides,
    key_numbers,
    turn_left,
    view,
)
from fracas_srd.words import (
    ACTION_SPELL,
    BONUS_SPELL,
    DOWN,
    FIELD_HELP,
    LIGHT,
    MELEE,
    ON_A_TURN,
    OUT,
    PLAYERS,
    TOLD,
    VERBS,
    asked_rolls,
    event_words,
    facts,
    headline_verb,
    reaction_figures,
    spent_words,
    step_verb,
    target_outcomes,
)

Resolver = Callable[[State, Fighter, Any, Context], list[Event]]
ON_TURN: dict[str, Resolver] = {
    "attack": actions.attack,
    "offhand": actions.offhand,
    "dash": actions.dash,
    "disengage": actions.disengage,
    "dodge": actions.dodge,
    "help": actions.help_,
    "hide": actions.hide,
    "search": actions.search,
    "use": actions.use,
    "second_wind": actions.second_wind,
    "stabilise": actions.stabilise,
    "grapple": actions.grapple,
    "shove": actions.shove,
    "escape": actions.escape,
    "stand": movement.stand,
    "move": movement.move,
    "ready": reactions.ready,
    "cast": spells.cast,
    "multiattack": monsters.multiattack,
}
OUT_OF_TURN: dict[str, Resolver] = {
    "opportunity": reactions.opportunity,
    "react": reactions.react,
    "legendary": monsters.legendary,
    "lair": monsters.lair,
}
ANY_TIME: dict[str, Resolver] = {"save": called.save, "check": called.check, "spend": called.spend}


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    """A newcomer; once the fight is on, it rolls its initiative as it joins (srd-2)."""
    sheet = RULESET.newcomer(command, state.fighters)
    events: list[Event] = [joined_event(command, sheet)]
    if state.round:
        after = roster.fold(evolve, state, events)
        events += roll_all(after, ctx, [after.fighter(command.combatant)])
    return events


def decide_act(state: State, command: Act, ctx: Context) -> list[Event]:
    tag = command.__struct_config__.tag
    actor = state.fighter(command.actor)
    if tag in ON_TURN:
        on_turn(state, actor)
        resolve = ON_TURN[tag]
    elif tag in ANY_TIME:
        resolve = ANY_TIME[tag]
    else:
        able(state, actor)
        resolve = OUT_OF_TURN[tag]
    events: list[Event] = [declared_event(command, actor.id, ctx.command_id)]
    # Resolved as declared: the turn-end before it is past once its creature acts (srd-29),
    # so "its next turn" is counted from this one.
    declared = roster.fold(evolve, state, events)
    events += resolve(declared, declared.fighter(actor.id), command, ctx)
    return events + dead_turn_ends(state, events, ctx)


def dead_turn_ends(state: State, events: list[Event], ctx: Context) -> list[Event]:
    """A creature killed on its own turn (an opportunity attack as it runs) has no more of
    it: the turn passes on."""
    after = roster.fold(evolve, state, events)
    holder = after.acting()
    if holder is None or not holder.dead or state.fighter(holder.id).dead:
        return []
    return advance(after, ctx, f"{holder.name} is dead")


def reactions_offered(state: State, command: Any) -> dict[str, Choices]:
    """Which targets of an attack may name a reaction to its trigger (srd-39), and which."""
    return triggered.offered(decide, state, command)


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    events = decided(state, command, ctx)
    return spared(state, events + what_follows(roster.fold(evolve, state, events)))


def spared(state: State, events: list[Event]) -> list[Event]:
    """srd-61, in one place: a condition a step would give a creature immune to it (a failed
    save's, an attack's rider, a spell's, a monster's action) does not land; the step says
    so where it would have."""

    def kept(event: Event) -> Event:
        if not isinstance(event, ConditionSet) or event.condition in TRACKED:
            return event
        target = state.fighters.get(event.target)
        if target is None or not target.immune_to(event.condition):
            return event
        said = "knocked prone" if event.condition == "prone" else event.condition
        return Resolved(
            target.id, "is immune", [], f"not {said}, though {event.reason}", ["srd-61"]
        )

    return [kept(event) for event in events]


def decided(state: State, command: Any, ctx: Context) -> list[Event]:
    if isinstance(command, Join):
        return decide_join(state, command, ctx)
    if isinstance(command, Begin):
        return decide_begin(state, command, ctx)
    if isinstance(command, Pass):
        return decide_pass(state, command, ctx)
    if isinstance(command, Surprise):
        return decide_surprise(state, command, ctx)
    if isinstance(command, DeathSave):
        return decide_death_save(state, command, ctx)
    return decide_act(state, command, ctx)


def harm_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """The GM's harm with no dice to roll (the party's, between fights): untyped damage
    with all that follows but the saves it calls for."""
    return harm_rolled(state, target, amount, reason, None)


def harm_rolled(
    state: State, target: str, amount: int, reason: str, ctx: Context | None
) -> list[Event]:
    """The GM's harm in a fight: untyped damage and all that follows, the concentration
    save it calls for (srd-26) and the saves of effects that end on damage (srd-79) rolled
    at once, as an attack's damage rolls them."""
    fighter = state.fighter(target)
    parts = [Modifier(amount, reason or "the GM's ruling")]
    events = deal(state, ctx, gm.BY_HAND, fighter, parts, "")
    return events + what_follows(roster.fold(evolve, state, events))


def clear_by_hand(state: State, target: str, condition: str, reason: str) -> list[Event]:
    """srd-34: the GM ending a concentration by hand ends what it holds, as losing it does."""
    if condition == "concentrating":
        return end_concentration(state, state.fighter(target), reason, "srd-26")
    events = gm.cleared(state, target, condition, reason)
    return events + what_follows(roster.fold(evolve, state, events))


def after_by_hand(state: State) -> list[Event]:
    """What ends once the GM sets a condition or removes a combatant by hand: the
    concentration of one now incapacitated (srd-26), a grapple whose grappler is
    incapacitated or gone or whose held creature left (srd-27), a spell on the dead
    (srd-34)."""
    events = incapacity_ends_concentration(state)
    return events + what_follows(roster.fold(evolve, state, events))


def condition_refused(state: State, target: str, condition: str) -> str:
    """srd-61: the GM's condition on a sheet immune to it is refused, naming the immunity."""
    fighter = state.fighter(target)
    if not fighter.immune_to(condition):
        return ""
    return (
        f"{fighter.name} is immune to being {condition} (srd-61: {fighter.its} sheet's "
        "condition immunities)"
    )


def temp_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    """srd-11: the GM's temporary hit points do not stack with those it has."""
    fighter = state.fighter(target)
    if fighter.dead:
        raise RefusedError(
            f"{fighter.name} is dead; temporary hit points do not help the dead: "
            + ruled_alive(fighter)
        )
    return gain_temporary(state, fighter, amount, reason or "the GM's ruling")


def heal_by_hand(state: State, target: str, amount: int, reason: str) -> list[Event]:
    fighter = state.fighter(target)
    if fighter.hp >= fighter.hp_max:
        raise RefusedError(f"{fighter.name} is at full HP ({fighter.hp})")
    return heal(fighter, amount, reason or "the GM's ruling")


def offers(sheet: Sheet, field: str) -> list[str]:
    """What Tab offers for `-o spell=` and `-o option=`: the spells, and the legendary
    options and lair actions on the sheet; and what a phone shows a field with (words.py's
    `only_with`): the ranged weapons (range), the spells that spend a slot (its level),
    make an attack roll (within 5 feet) or shoot darts (how many at each); and
    what a phone's form offers (`offered_as`): Cast the spells not a reaction's (cast when
    asked), an opportunity attack the melee weapons (srd-18), an off-hand attack the light
    melee ones (srd-19)."""
    if field == "spell":
        return [spell.name for spell in sheet.spells]
    if field == "option":
        return [option.name for option in (*sheet.legendary, *sheet.lair)]
    if field == "ranged weapon":
        return [w.name for w in sheet.weapons if w.ranged or w.range]
    if field == MELEE:
        return sheet.melee_weapons()
    if field == LIGHT:  # srd-19: a light melee weapon in each hand
        return [w.name for w in sheet.weapons if light_melee(w)]
    if field in ("word", "ends"):  # the words of its command, the conditions its cures end
        found = (s.words if field == "word" else s.cures for s in sheet.spells)
        return list(dict.fromkeys(w for names in found for w in names))
    spells = {
        "levelled spell": [s.name for s in sheet.spells if s.level > 0],
        "spell attack": [s.name for s in sheet.spells if s.attack != "none"],
        "darts": [s.name for s in sheet.spells if s.darts],
        "spell of words": [s.name for s in sheet.spells if s.words],
        "spell that cures": [s.name for s in sheet.spells if s.cures],
        ON_A_TURN: [s.name for s in sheet.spells if s.casting != "reaction"],  # srd-39
        ACTION_SPELL: [s.name for s in sheet.spells if s.casting == "action"],  # srd-3
        BONUS_SPELL: [s.name for s in sheet.spells if s.casting == "bonus"],
    }
    return spells.get(field, [])


def cost_of(action: str, left: frozenset[str] = frozenset()) -> str:
    """The heading a phone shows an action under, by what it spends of a turn (srd-3):
    the action, the bonus action alone, or neither (a move, standing up, ending the turn);
    a reaction is out of one's own turn; a dying character's death save (srd-14) heads a
    group of its own. `left`: what of its spends is left this turn: an
    action with a bonus form (a rogue's Cunning Action Dash, srd-60; a bonus-action
    spell) once the action is taken is a bonus action."""
    if action == "death_save":  # a dying character's own: where they look, not a move's
        return "Dying"
    playable = PLAYERS.get(action)
    if playable is not None and playable.reaction:
        return "Reaction"
    spends = (left or playable.spends) if playable is not None else frozenset()
    if "action" in spends:
        return "Action"
    return "Bonus action" if spends else "Movement and free"


def least_slots(sheet: Sheet) -> dict[str, int]:
    """srd-51: the least slot each levelled spell on the sheet is cast with, its own level
    (a cantrip spends none: the phone asks no slot for it)."""
    return {spell.name: spell.level for spell in sheet.spells if spell.level > 0}


def darts_by_level(sheet: Sheet) -> dict[str, dict[str, int]]:
    """srd-43: how many darts each spell of darts on the sheet shoots, at its own level
    ("") and from a slot of each level up to 9th."""
    return {
        spell.name: {"": spell.darts}
        | {str(slot): as_cast(spell, slot).darts for slot in range(max(1, spell.level), 10)}
        for spell in sheet.spells
        if spell.darts
    }


def load_bestiary() -> Bestiary:
    """The bestiary (bestiary.load), imported when first asked for: its converter of the
    SRD's monsters compiles many patterns, which a turn, an action or `status` never uses."""
    from fracas_srd import bestiary

    return bestiary.load()


def stat_block(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    """A sheet's stat block (statblock.stat_block), imported when one is first shown."""
    from fracas_srd import statblock

    return statblock.stat_block(sheet)


def read_sheet(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """A sheet file as the table wrote it or another program exported it (Foundry VTT),
    its spells named alone filled in from the spellbook, with what could not be read or
    played; None where there is nothing to change."""
    from fracas_srd import foundry  # only a sheet being added needs the Foundry reader

    found = foundry.read(data)
    sheet, unread = found if found is not None else (data, [])
    spells, unplayed = spellbook.filled(sheet.get("spells"))
    if found is None and spells == sheet.get("spells"):
        return (data, unplayed) if unplayed else None
    return ({**sheet, "spells": spells} if "spells" in sheet else sheet), unread + unplayed


RULESET = Ruleset(
    reach=reach,
    name="srd",
    title="d20 fantasy combat (SRD 5.1, CC-BY-4.0)",
    options_type=Options,
    sheet_type=Sheet,
    command_type=SrdCommand,
    event_type=event_union(*event_types()),
    schema=2,  # 2: checks and saves by the SRD's names ("Dexterity saving throw")
    upcasters={(ANY_KIND, 1): srd_names},
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    condition_names=SRD_CONDITIONS,
    harm_by_hand=harm_by_hand,
    harm_rolled=harm_rolled,
    heal_by_hand=heal_by_hand,
    temp_by_hand=temp_by_hand,
    clear_by_hand=clear_by_hand,
    after_by_hand=after_by_hand,
    condition_refused=condition_refused,
    reactions=reactions_offered,
    reacts_after=triggered.after_roll,
    settled=triggered.settled,
    reaction_figures=reaction_figures,
    asked_rolls=asked_rolls,
    clock=clock,
    turn_end=turn_end,
    reads_rolls="modified",  # the d20 plus its modifiers meets the AC or DC (srd-M2)
    key_numbers=key_numbers,
    health_chips=daily_chips,
    verbs=VERBS,
    step_verb=step_verb,
    spent_words=spent_words,
    event_words=event_words,
    headline_verb=headline_verb,
    target_outcomes=target_outcomes,
    told=TOLD,
    down=DOWN,
    out=OUT,
    fallen_sides=fallen_sides,
    helpless=INCAPACITATING,  # srd-27: no actions, no reactions
    facts=facts,
    field_help=FIELD_HELP,
    offers=offers,
    times_of=darts_by_level,
    least_of=least_slots,
    players=PLAYERS,
    cost_of=cost_of,
    turn_left=turn_left,
    down_said=down_said,
    reference=REFERENCE,
    standing=rest.standing,
    restore=rest.restore,
    set_standing=rest.set_standing,
    rest=rest.rest,
    imports=read_sheet,
    bestiary=load_bestiary,
    stat_block=stat_block,
)
