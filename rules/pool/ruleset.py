"""The decider and the ruleset: joining, the reactions offered, what a secret roll can reach,
every command to its rule, and the entry point fracas loads."""

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from fracas.rules.api import (
    ANY_KIND,
    BadInputError,
    Begin,
    Choices,
    Context,
    Event,
    Join,
    Pass,
    Reach,
    Ruleset,
    event_union,
    joined_event,
    mechanic_ids,
    offer,
    toml_reference,
)

from .actions import (
    decide_fire,
    decide_other,
    decide_quick,
    resolve_evade,
    resolve_hold,
    resolve_triggering_attack,
)
from .attacks import resolve_attack
from .commands import ACTIONS, PLAYERS, Attack, Evade, Fire, Hold, Other, PoolCommand, Quick
from .evolve import evolve
from .joining import decide_begin, decide_pass
from .rolls import face_worth
from .sheets import OPTION_HELP, Options, Sheet
from .state import State, check_sheet, initial
from .turn import turn_action
from .view import TRACKED, harm_by_hand, heal_by_hand, view
from .words import VERBS, facts, healed_words, key_numbers, target_outcomes


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    sheet = replace(sheet, abilities={k.lower(): v for k, v in sheet.abilities.items()})
    return [joined_event(command, sheet)]


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Join():
            return decide_join(state, command, ctx)
        case Begin():
            return decide_begin(state, command, ctx)
        case Pass():
            return decide_pass(state, command, ctx)
        case Hold():
            return turn_action(state, command, ctx, resolve_hold)
        case Attack() if command.triggers:
            return turn_action(state, command, ctx, resolve_triggering_attack)
        case Attack():
            return turn_action(state, command, ctx, resolve_attack)
        case Evade():
            return turn_action(state, command, ctx, resolve_evade)
        case Quick():
            return decide_quick(state, command, ctx)
        case Other():
            return decide_other(state, command, ctx)
        case Fire():
            return decide_fire(state, command, ctx)
    raise BadInputError(f"the dice-pool ruleset cannot decide {type(command).__name__}")


REACTION = Choices(
    ["dodge", "parry", "clash", "none"],
    "none",
    "004-11",
    "no Reaction: the attack's Outcome stands",
)


def reaction_figures(sheet: Sheet, option: str, own: Mapping[str, Any]) -> str:
    """A Reaction's pool from the target's sheet (004-13, 004-15, 004-18), before the cuts
    of the round (the Action spent, kept dice): Dexterity + Athletics to dodge, the first
    melee weapon's attribute + ability to parry or clash."""
    if option == "dodge":
        return f"{sheet.pool('dexterity', 'athletics')} dice (Dexterity + Athletics)"
    melee = next((w for w in sheet.weapons if w.kind != "firearm"), None)
    if option in ("parry", "clash") and melee is not None:
        dice = sheet.pool(melee.attribute, melee.ability)
        return f"{dice} dice ({melee.attribute.title()} + {melee.ability.title()}, {melee.name})"
    return ""


# What each reaction does and costs, as a target's player reads it beside the choice
# (004-11, 004-13, 004-15, 004-18, 004-8).
SPENDS = "Reacting spends your Action this round, unless you kept dice for it"
REACTION_WORDS = {
    "dodge": "Dexterity + Athletics: your Outcome comes off the attack's; at 0 or less it "
    f"misses. {SPENDS}",
    "parry": "your melee weapon's roll: your Outcome comes off the attack's, a tie goes to "
    f"you. {SPENDS}",
    "clash": "rolled as a parry, then compared: the higher Outcome deals full damage to the "
    f"other, a tie hurts you both. {SPENDS}",
    "none": "no reaction: the attack's Outcome stands, and you keep your Action",
}


# What the dice box's and the order column's words are (004-M1, 004-M6, mechanic 1's bands).
DICE_TERMS = {
    "Outcome": "each die at or over the Difficulty adds 1, a 10 adds 2, a 1 takes 1 away; "
    "in the order, each one's initiative roll (Dexterity + Perception), highest first",
    "botch": "an Outcome below 0",
    "failure": "an Outcome of 0",
    "partial success": "an Outcome of 1 to 3",
    "complete success": "an Outcome of 4 or 5",
    "exceptional success": "an Outcome of 6 or more",
}


def reactions(state: State, command: Any) -> dict[str, Choices]:
    """004-11 to 004-19: an attack's target may React (dodge, parry, clash) with the round's
    Action, kept dice or a desperate exertion the command allows; firearms only with a Power
    (004-12). Not a target another defender parries for (004-17), nor a held action."""
    if type(command) is not Attack:
        return {}
    return offer(decide, state, command, REACTION, command.defender)


def reach(state: State, command: Any) -> Reach | None:
    """What a GM-only pool can change whatever it shows (004-4): an `other` check counts
    an Outcome and changes no one; other actions are left to fracas to try (None)."""
    return Reach() if isinstance(command, Other) else None


RULESET = Ruleset(
    reach=reach,
    name="pool",
    title="d10 dice pool (The Contract)",
    reference=toml_reference("fracas.rules", "reference.toml", "004"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=PoolCommand,
    event_type=event_union(),
    initial=initial,
    decide=decide,
    reactions=reactions,
    reaction_figures=reaction_figures,
    reaction_words=REACTION_WORDS,
    dice_terms=DICE_TERMS,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    schema=2,
    upcasters={(ANY_KIND, 1): mechanic_ids("004")},
    option_help=OPTION_HELP,
    check_sheet=check_sheet,
    conditions=TRACKED,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    reads_rolls="faces",
    face_worth=face_worth,
    key_numbers=key_numbers,
    verbs=VERBS,
    healed_words=healed_words,
    target_outcomes=target_outcomes,
    down=frozenset(("incapacitated",)),
    out=frozenset(("dead",)),
    facts=facts,
    # What the GM reads beside each field in `fracas actions` (a player's have their own).
    field_help={
        "shares": "a split pool's dice for each target, in the targets' order; "
        "none: the dice shared evenly (004-8)",
        "keep": "dice kept back for a reaction this round, as dodge, parry or clash = how many "
        "(004-8)",
        "defender": "who parries for a target, as TARGET = DEFENDER (004-17)",
        "desperate": "the targets who may exert the Body for a desperate reaction once their "
        "Action is spent (004-19)",
        "evade": "how much of a target's Evade Outcome to spend on the attack, as TARGET = "
        "how many; none: as much as the attack's Outcome (004-14)",
        "triggers": "the combatants whose held action the attack sets off: they strike first, "
        "or after a firearm (004-7)",
        "difficulty": "the Difficulty the dice must meet; none: the encounter's (004-4)",
        "passive": "passive awareness: rolled at any time, leaving the round's Action (004-4)",
        "committed": "a committed action, which takes the whole pool (004-10)",
    },
)
