"""The public API for ruleset authors: the one module a ruleset imports.

A ruleset is a `Ruleset` value (a decider: `initial`, `decide`, `evolve`, `view`, plus the
words and facts the table reads and its rules reference), registered under the
`fracas.rulesets` entry point. It decides with the core vocabulary of events below (reusing
it wherever it fits, adding only what is truly its own with `event_union`), rolls through
`Context.dice`, and cites its rule ids (`Reference`) in every resolution. Everything named
in `__all__` is covered by tests and kept stable; anything imported from elsewhere in fracas
may change without notice. docs/rulesets.md is the guide; `fracas.testing` the conformance kit.

What is here, by what an author needs:

- the contract: `Ruleset`, `Context` (the dice and who asks), `View` with `InitiativeRow`,
  `WoundRow` and `PinRow`, `Upcaster` and `mechanic_ids` for events of older schemas,
  `Reach` (what a GM-only roll can change, `Ruleset.reach`);
- commands: `Command` (the base of your actions, tagged by `action`), `Join`, `Begin`,
  `Pass`, with `check_can_begin`, `joined_event`, `declared_event`;
- events: `Event` (the base of your own, with `event_union`), and the core vocabulary
  from `EncounterStarted` to `Note`; `CombatantHidden` and `CombatantRevealed` say who the
  players do not see (`add --hidden`), for rules under which an attack gives one away;
- dice and rolls: `Dice` (`Context.dice.roll(spec, purpose)`), `Roll` (the faces and where
  they came from), `Rolled`, `parse_dice`, `split_faces`, `total_of`, `tie_roll`;
- modifiers with reasons and rule ids: `Modifier`, `GivenModifier` (one a command is given);
- sheets and options: msgspec structs of your own; `Ruleset.sheet` and `Ruleset.options`
  read them; `check_known`, `did_you_mean` and `no_weapon` word refusals alike;
  `recorded` reads a sheet a join recorded (a bound added since does not refuse it);
- conditions with durations: `ConditionSet`, `ConditionCleared`, `Until` (`until` makes one
  from your `Clock`), `Clock`, and the helpers of the modules `roster` (a state's combatants,
  the core evolvers) and `gm` (the GM's commands, the table view), each public in its
  `__all__` alone; `Ruleset` wires `gm.table_view` and `roster.CORE_EVOLVERS` itself;
- what a player may set from a phone: `Playable` (an action a player may take) and
  `PlayerField` (a field of it in words), given as `Ruleset.players`;
- the party, carried from fight to fight: `Ruleset.standing`, `Ruleset.restore` and
  `Ruleset.rest`, whose defaults are in the module `party`; `Carried` records a carry,
  `MemberLeft` a member leaving the party (it can join again);
- a bestiary: `Bestiary` of `Monster`s (each a sheet of yours), given as `Ruleset.bestiary`;
- the rules reference: `Reference`, `Source`, `Statement`, `toml_reference`;
- refusals: `BadInputError` (the input is wrong), `RefusedError` (the rules say no),
  `NotFoundError` (no such combatant or weapon).

Constants and types:

- `ANY_KIND`: the key of an upcaster that applies to every kind of event;
- `CRITICAL`, `FUMBLE`, `DOWN`, `OUT`: the facts `Ruleset.facts` may report of an event;
- `FACTS`: those four, the table's fixed vocabulary of facts;
- `HELD`: the key of a `WoundRow`'s detail naming the conditions another holds (a spell's
  effect, held by its caster's concentration), which the board shows with no duration;
- `Bounded`: an int between -1000 and 1000 (a modifier, an option: a fight's size);
- `Multiplier`: an int between 1 and 100;
- `Upcaster`: a function from an event's plain data under an old schema to the next one's.
"""

from fracas.ledger import BadInputError, FracasError, NotFoundError, RefusedError
from fracas.rules import gm, party, roster
from fracas.rules.bestiary import Bestiary, Monster
from fracas.rules.commands import (
    Begin,
    Command,
    Join,
    Pass,
    check_can_begin,
    declared_event,
    joined_event,
)
from fracas.rules.dice import Dice, Term, kept_of, parse_dice, parse_terms, split_faces, total_of
from fracas.rules.durations import Clock, Until, until
from fracas.rules.events import (
    Bounded,
    Carried,
    Choices,
    CombatantHidden,
    CombatantJoined,
    CombatantRevealed,
    ConditionCleared,
    ConditionExpired,
    ConditionSet,
    Damaged,
    Declared,
    EncounterStarted,
    EquipmentChanged,
    Event,
    GivenModifier,
    Healed,
    InitiativeSet,
    MemberLeft,
    Modifier,
    Multiplier,
    Note,
    Resolved,
    Roll,
    Rolled,
    Spent,
    TurnAdvanced,
    event_union,
)
from fracas.rules.names import and_list, check_known, did_you_mean, no_weapon
from fracas.rules.players import Playable, PlayerField
from fracas.rules.reactions import ReactionDue, Waiting, allowed, defence_rolls, offer
from fracas.rules.reference import Reference, Source, Statement, toml_reference
from fracas.rules.ruleset import (
    ANY_KIND,
    CRITICAL,
    DOWN,
    FACTS,
    FUMBLE,
    OUT,
    Context,
    Reach,
    Ruleset,
    Upcaster,
    listed_weapons,
    mechanic_ids,
    tie_roll,
)
from fracas.rules.sheets import recorded
from fracas.rules.views import HELD, InitiativeRow, PinRow, View, WoundRow

__all__ = [
    "ANY_KIND",
    "CRITICAL",
    "DOWN",
    "FACTS",
    "FUMBLE",
    "HELD",
    "OUT",
    "BadInputError",
    "Begin",
    "Bestiary",
    "Bounded",
    "Carried",
    "Choices",
    "Clock",
    "CombatantHidden",
    "CombatantJoined",
    "CombatantRevealed",
    "Command",
    "ConditionCleared",
    "ConditionExpired",
    "ConditionSet",
    "Context",
    "Damaged",
    "Declared",
    "Dice",
    "EncounterStarted",
    "EquipmentChanged",
    "Event",
    "FracasError",
    "GivenModifier",
    "Healed",
    "InitiativeRow",
    "InitiativeSet",
    "Join",
    "MemberLeft",
    "Modifier",
    "Monster",
    "Multiplier",
    "NotFoundError",
    "Note",
    "Pass",
    "PinRow",
    "Playable",
    "PlayerField",
    "Reach",
    "ReactionDue",
    "Reference",
    "RefusedError",
    "Resolved",
    "Roll",
    "Rolled",
    "Ruleset",
    "Source",
    "Spent",
    "Statement",
    "Term",
    "TurnAdvanced",
    "Until",
    "Upcaster",
    "View",
    "Waiting",
    "WoundRow",
    "allowed",
    "and_list",
    "check_can_begin",
    "check_known",
    "declared_event",
    "defence_rolls",
    "did_you_mean",
    "event_union",
    "gm",
    "joined_event",
    "kept_of",
    "listed_weapons",
    "mechanic_ids",
    "no_weapon",
    "offer",
    "parse_dice",
    "parse_terms",
    "party",
    "recorded",
    "roster",
    "split_faces",
    "tie_roll",
    "toml_reference",
    "total_of",
    "until",
]
