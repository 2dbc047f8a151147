"""fracas.rules: one decider per combat system, the shared vocabulary, and dice.

The typed commands every ruleset takes are here (each ruleset's own actions are in its
module, and `Ruleset.command_struct(name)` finds them by the action's name).
"""

from fracas.rules.commands import (
    Begin,
    ClearCondition,
    Command,
    End,
    FreeRoll,
    GmCommand,
    Harm,
    Heal,
    Join,
    Pass,
    Remove,
    Rename,
    Reopen,
    Return,
    SetCondition,
)
from fracas.rules.encounter import Encounter, StepOutcome
from fracas.rules.ruleset import Context, Ruleset, available, load
from fracas.rules.views import View

__all__ = [
    "Begin",
    "ClearCondition",
    "Command",
    "Context",
    "Encounter",
    "End",
    "FreeRoll",
    "GmCommand",
    "Harm",
    "Heal",
    "Join",
    "Pass",
    "Remove",
    "Rename",
    "Reopen",
    "Return",
    "Ruleset",
    "SetCondition",
    "StepOutcome",
    "View",
    "available",
    "load",
]
