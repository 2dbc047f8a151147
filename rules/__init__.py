"""fracas.rules: one decider per combat system, the shared vocabulary, and dice.

The typed commands every ruleset takes are here (each ruleset's own actions are in its
module, and `Ruleset.command_struct(name)` finds them by the action's name).

Each name is imported from its module when first used, so that a quick read importing one
small module of the package (`fracas.rules.views`) does not load every ruleset's machinery.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# The built-in rulesets by name, the one place outside their rooms that names them; the
# first is the default, what `fracas new` starts without -r.
BUILTIN = {
    name: f"fracas.rules.{name}"
    for name in ("percentile", "fudge", "pool", "shotclock", "timeslice")
}
DEFAULT = next(iter(BUILTIN))

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


# The module each name of __all__ is at home in, when not `commands`.
_HOME = {
    "Context": "ruleset",
    "Encounter": "encounter",
    "Ruleset": "ruleset",
    "StepOutcome": "encounter",
    "View": "views",
    "available": "ruleset",
    "load": "ruleset",
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fracas.rules' has no attribute {name!r}")
    import importlib

    home = _HOME.get(name, "commands")
    found = getattr(importlib.import_module(f"fracas.rules.{home}"), name)
    globals()[name] = found  # asked again (an import in a function): found at once
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
