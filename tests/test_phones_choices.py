"""An outside table tester's percentile phone listed a called shot's cover alphabetically
(mostly, none, partly, uncovered): a phone lists a field's choices in the order the
ruleset declares them (none, uncovered, partly, mostly)."""

from typing import get_args

from fracas.projections.phones import player_actions
from fracas.rules.percentile.commands import Called
from fracas.rules.ruleset import load


def test_a_called_shots_choices_are_in_the_rulesets_order() -> None:
    ruleset = load("percentile")
    attack = next(a for a in player_actions(ruleset, None, True) if a.name == "attack")
    called = next(f for f in attack.fields if f.field == "called")
    assert called.choices == ["none", "uncovered", "partly", "mostly"] == list(get_args(Called))
