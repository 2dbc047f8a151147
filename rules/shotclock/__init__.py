"""The shot clock (Feng Shui, 1st edition, "Sequences and Shots").

Rule ids (001-n) are those of RULES.md §001. A sequence opens with initiative rolls; the
clock counts shots down from the highest; each action spends shots off the actor's next
shot; after shot 1 a new sequence opens by itself. Read in this order: `sheets` (sheets and
options), `commands`, `events` (the clock's own event), `state`, `rolls` (dice and checks),
`turn` (the clock), `attacks` (attacks, defences, damage), `actions` (the other actions),
`joining`, `evolve`, `view`, `words`, and `ruleset`, which wires them together as the
`RULESET` fracas loads. Every public name is re-exported here.
"""

from .actions import decide_continuous, resolve_other, resolve_run
from .attacks import (
    difficulty_of,
    harm_by_hand,
    heal_by_hand,
    impairment_change,
    resolve_attack,
    wound,
)
from .commands import (
    ACTIONS,
    METRES,
    PLAYERS,
    SNAPSHOT,
    WEAPON,
    WHAT,
    Act,
    Attack,
    Continuous,
    DefenceKind,
    Other,
    Run,
    ShotCommand,
    Stop,
)
from .events import ShotReached
from .evolve import evolve, fold
from .joining import decide_begin, decide_pass, tie_rolls
from .rolls import check
from .ruleset import ACTIVE_DEFENCE, RULESET, decide, decide_join, reach, reactions
from .sheets import DODGE_SKILLS, OPTION_HELP, SKILL_ATTRIBUTE, SKILLS, Options, Sheet, Weapon
from .state import Fighter, State, check_sheet, initial
from .turn import (
    act,
    advance,
    check_movement,
    check_on_shot,
    complete_carry,
    impairment,
    roll_initiative,
    shot_cost,
    spend_shots,
    surcharge,
)
from .view import TRACKED, clock, conditions_of, status_of, view
from .words import VERBS, headline, key_numbers

__all__ = [
    "ACTIONS",
    "ACTIVE_DEFENCE",
    "DODGE_SKILLS",
    "METRES",
    "OPTION_HELP",
    "PLAYERS",
    "RULESET",
    "SKILLS",
    "SKILL_ATTRIBUTE",
    "SNAPSHOT",
    "TRACKED",
    "VERBS",
    "WEAPON",
    "WHAT",
    "Act",
    "Attack",
    "Continuous",
    "DefenceKind",
    "Fighter",
    "Options",
    "Other",
    "Run",
    "Sheet",
    "ShotCommand",
    "ShotReached",
    "State",
    "Stop",
    "Weapon",
    "act",
    "advance",
    "check",
    "check_movement",
    "check_on_shot",
    "check_sheet",
    "clock",
    "complete_carry",
    "conditions_of",
    "decide",
    "decide_begin",
    "decide_continuous",
    "decide_join",
    "decide_pass",
    "difficulty_of",
    "evolve",
    "fold",
    "harm_by_hand",
    "headline",
    "heal_by_hand",
    "impairment",
    "impairment_change",
    "initial",
    "key_numbers",
    "reach",
    "reactions",
    "resolve_attack",
    "resolve_other",
    "resolve_run",
    "roll_initiative",
    "shot_cost",
    "spend_shots",
    "status_of",
    "surcharge",
    "tie_rolls",
    "view",
    "wound",
]
