"""fracas.rules: one decider per combat system, the shared vocabulary, and dice."""

from fracas.rules.encounter import Encounter, StepOutcome
from fracas.rules.ruleset import Context, Ruleset, available, load

__all__ = ["Context", "Encounter", "Ruleset", "StepOutcome", "available", "load"]
