"""The decider and the ruleset: joining, every command to its rule, and the entry point fracas
loads."""

import math
from typing import Any

from msgspec.structs import replace

from fracas.rules.api import (
    BadInputError,
    Begin,
    Context,
    Event,
    Join,
    Pass,
    Ruleset,
    event_union,
    joined_event,
    toml_reference,
)

from .actions import RESOLVERS
from .attacks import parse_damage, reaction_figures, reactions
from .commands import ACTIONS, PLAYERS, PercentileCommand
from .evolve import evolve
from .joining import decide_begin, decide_pass
from .sheets import OPTION_HELP, Options, Sheet
from .state import State, check_sheet, initial
from .turn import act
from .view import (
    TRACKED,
    damage_in_steps,
    harm_by_hand,
    heal_by_hand,
    hp_lines_cited,
    inhuman_penalties_ignored,
    view,
)
from .words import VERBS, facts, target_outcomes


def offers(sheet: Sheet, field: str) -> list[str]:
    """What a phone shows a field with (`PlayerField.only_with`): shots with a firearm."""
    return [w.name for w in sheet.weapons if w.kind == "firearm"] if field == "firearm" else []


def checked_sheet(sheet: Sheet, where: str, custom: list[str]) -> None:
    """The sheet's skills (`check_sheet`) and each weapon's damage, named by the sheet."""
    check_sheet(sheet, where, custom)
    for weapon in sheet.weapons:
        parse_damage(weapon.damage, f"{where}: weapon {weapon.name}")


def decide_join(state: State, command: Join, ctx: Context) -> list[Event]:
    sheet: Sheet = RULESET.newcomer(command, state.fighters)
    for weapon in sheet.weapons:
        parse_damage(weapon.damage)
    hp = sheet.hp if sheet.hp is not None else math.ceil((sheet.strength + sheet.con) / 2)
    sheet = replace(sheet, hp=hp, skills={k.lower(): v for k, v in sheet.skills.items()})
    return [joined_event(command, sheet)]


def decide(state: State, command: Any, ctx: Context) -> list[Event]:
    if isinstance(command, Join):
        return decide_join(state, command, ctx)
    if isinstance(command, Begin):
        return decide_begin(state, command, ctx)
    if isinstance(command, Pass):
        return decide_pass(state, command, ctx)
    resolver = RESOLVERS.get(type(command))
    if resolver is None:
        raise BadInputError(f"the percentile ruleset cannot decide {type(command).__name__}")
    return act(state, command, ctx, resolver)


RULESET = Ruleset(
    name="percentile",
    title="Percentile with DEX countdown (Delta Green)",
    reference=toml_reference("fracas.rules", "reference.toml", "000"),
    options_type=Options,
    sheet_type=Sheet,
    command_type=PercentileCommand,
    event_type=event_union(),
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    actions=ACTIONS,
    players=PLAYERS,
    option_help=OPTION_HELP,
    check_sheet=checked_sheet,
    conditions=TRACKED,
    harm_by_hand=harm_by_hand,
    heal_by_hand=heal_by_hand,
    reactions=reactions,
    reaction_figures=reaction_figures,
    offers=offers,
    schema=4,  # 2: the HP thresholds cite 000-M9; 3: modifiers count on inhuman stats;
    # 4: damage said as its sum (`damage_words`)
    upcasters={
        ("condition.set", 1): hp_lines_cited,
        ("condition.cleared", 1): hp_lines_cited,
        ("encounter.started", 2): inhuman_penalties_ignored,
        ("encounter.started", 3): damage_in_steps,
    },
    verbs=VERBS,
    target_outcomes=target_outcomes,
    told=frozenset(("pinned", "prone")),
    down=frozenset(("unconscious",)),
    confines={"pinned": frozenset(("escape",))},  # 000-24
    out=frozenset(("dead",)),
    facts=facts,
    field_help={
        "called": "a called shot at a body part: how much of the target is covered (000-10)",
        "defence": "a target's reaction: a Dodge test, or Fight Back against hand-to-hand "
        "(000-13, 000-17)",
        "unaware": "a target who cannot react to it",
        "avoid_armor": "a called shot aimed past the target's armour",
        "avoid_cover": "a called shot aimed past the target's cover (000-20)",
        "shots": "how many shots it fires: still one attack roll and one damage roll (000-5)",
        "footing": "a footing test (DEX×5) while running or sprinting: prone on a failure (000-19)",
        "cover": "the armour against firearms of the cover the move ends behind; none: out of "
        "cover (000-20)",
        "test": "the skill or stat test it rolls (stealth, dex×5); none: no roll (000-26)",
    },
)
