"""The public API for ruleset authors: the one module a ruleset imports.

A ruleset is a `Ruleset` value (a decider: `initial`, `decide`, `evolve`, `view`, plus the
words and facts the table reads), registered under the `fracas.rulesets` entry point. It
decides with the core vocabulary of events below (reusing it wherever it fits, adding only
what is truly its own with `event_union`), rolls through `Context.dice`, and cites its rule
ids in every resolution. Everything named in `__all__` is covered by tests and kept stable;
anything imported from elsewhere in fracas may change without notice.
"""

from fracas.ledger import BadInputError, NotFoundError, RefusedError
from fracas.rules import gm, roster
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
from fracas.rules.durations import Clock, Until
from fracas.rules.events import (
    Bounded,
    Choices,
    CombatantJoined,
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
from fracas.rules.names import check_known, did_you_mean, no_weapon
from fracas.rules.reactions import Waiting, allowed, offer
from fracas.rules.reference import Reference, Source, Statement, toml_reference
from fracas.rules.ruleset import (
    ANY_KIND,
    CRITICAL,
    DOWN,
    FACTS,
    FUMBLE,
    OUT,
    Context,
    Ruleset,
    Upcaster,
    listed_weapons,
    mechanic_ids,
    tie_roll,
)
from fracas.rules.views import InitiativeRow, PinRow, View, WoundRow

__all__ = [
    "ANY_KIND",
    "CRITICAL",
    "DOWN",
    "FACTS",
    "FUMBLE",
    "OUT",
    "BadInputError",
    "Begin",
    "Bounded",
    "Choices",
    "Clock",
    "CombatantJoined",
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
    "GivenModifier",
    "Healed",
    "InitiativeRow",
    "InitiativeSet",
    "Join",
    "Modifier",
    "Multiplier",
    "NotFoundError",
    "Note",
    "Pass",
    "PinRow",
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
    "check_can_begin",
    "check_known",
    "declared_event",
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
    "roster",
    "split_faces",
    "tie_roll",
    "toml_reference",
    "total_of",
]
