"""The conformance kit: a ruleset proves from its own tests that it keeps fracas's contract.

    from fracas.testing import Cast, RulesetChecks

    class TestCoinDuel(RulesetChecks):
        cast = Cast(RULESET, sheets={"ann": {"hp": 3}, "bo": {"hp": 3}, "cy": {"hp": 3}})

or, outside pytest, `check_ruleset(Cast(...))`. The kit plays random honest fights drawn
by hypothesis from the actions and command structs the ruleset declares, through the real
`Fracas` API, and checks: the same moves give the same log and state; undo and redo
round-trip; after `reveal` the audit finds no drift and verifies every seeded roll; a GM-only
roll and a hidden combatant show nowhere in what the players are given, and an unseen actor's
outcome reads nothing of its sheet; every event has a
line for the log, every rule id cited a statement in the ruleset's reference; and the views
that `status`, `play`, `serve` and the report read are there. It needs hypothesis and pytest
(`pip install 'fracas[test]'`).
"""

try:
    import hypothesis  # noqa: F401
except ImportError as missing:  # pragma: no cover - the kit is for tests, with their extras
    raise ImportError("fracas.testing needs hypothesis: pip install 'fracas[test]'") from missing

from fracas.testing.checks import (
    RulesetChecks,
    check_declarations,
    check_fight,
    check_followed_screen,
    check_hidden_combatant,
    check_ruleset,
    check_secret_roll,
)
from fracas.testing.fights import Cast, PickedDice, Tally, every_draw_recorded, installed, start
from fracas.testing.figures import check_unseen_figures

__all__ = [
    "Cast",
    "PickedDice",
    "RulesetChecks",
    "Tally",
    "check_declarations",
    "check_fight",
    "check_followed_screen",
    "check_hidden_combatant",
    "check_ruleset",
    "check_secret_roll",
    "check_unseen_figures",
    "every_draw_recorded",
    "installed",
    "start",
]
