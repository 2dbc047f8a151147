"""The conformance kit (fracas.testing) passes for every built-in ruleset: random honest
fights, played again, undone and redone, revealed and audited without drift, told, stated
and viewed; GM-only rolls and hidden combatants showing nowhere to the players."""


import pytest

from fracas.rules.events import Rolled
from fracas.rules.ruleset import Context
from fracas.testing import PickedDice, RulesetChecks, every_draw_recorded, start
from fracas.testing.tiers import examples
from tests.casts import CASTS

# 40 fights per ruleset in the slow tier, 4 in the fast one; FRACAS_FIGHTS=1000 for a longer hunt.
EXAMPLES = examples(full=40, fast=4)


@pytest.mark.long
class TestPercentile(RulesetChecks):
    cast, examples = CASTS["percentile"], EXAMPLES


@pytest.mark.long
class TestShotclock(RulesetChecks):
    cast, examples = CASTS["shotclock"], EXAMPLES


@pytest.mark.long
class TestPool(RulesetChecks):
    cast, examples = CASTS["pool"], EXAMPLES


@pytest.mark.long
class TestTimeslice(RulesetChecks):
    cast, examples = CASTS["timeslice"], EXAMPLES


@pytest.mark.long
class TestFudge(RulesetChecks):
    cast, examples = CASTS["fudge"], EXAMPLES


TIE_RULES = {  # the rule that breaks a tie, and the GM's options that roll it off
    "percentile": ("000-3", {"dex_ties": "rolloff"}),
    "shotclock": ("001-4", {}),
    "pool": ("004-M6", {}),
    "timeslice": ("002-4", {}),
    "fudge": ("003-29", {}),
}


@pytest.mark.parametrize("system", sorted(CASTS))
def test_initiative_ties_are_rolled_off_as_recorded_rolls_that_audit_verifies(system):
    """The issue's fight: equal combatants tie on initiative; the roll-off is a recorded roll
    of the begin step, so `audit` after `reveal` finds no drift and verifies it."""
    cast, (rule, options) = CASTS[system], TIE_RULES[system]
    fracas, encounter = start(cast, options)
    begin = encounter.ruleset.command({"action": "begin"})
    lowest = PickedDice([])  # every die shows its lowest face: equal sheets tie
    events = encounter.ruleset.decide_step(encounter.state, begin, Context(lowest, 99))
    every_draw_recorded(lowest.rolls, events)
    for faces in (None, [f for roll in lowest.rolls for f in roll.faces]):
        if faces is not None:
            fracas, encounter = start(cast, options)
        outcome = encounter.execute(begin, dice=faces)
        ties = [e for e in outcome.events if isinstance(e, Rolled) and e.roll.dice == "d100"]
        if faces is not None:
            assert len(ties) >= 2 and all(rule in e.rules for e in ties)
        encounter.reveal()
        report = fracas.audit()
        assert report.drift == []
        assert report.ok
        assert all(r.verdict in ("verified", "manual") for r in report.rolls)


def test_fracas_fights_sets_the_fights_of_every_check_of_the_kit(monkeypatch):
    """CI's budget and a longer hunt: FRACAS_FIGHTS=N overrides a kit's `examples`."""

    class Kit(RulesetChecks):
        cast, examples = CASTS["percentile"], 7

    monkeypatch.delenv("FRACAS_FIGHTS", raising=False)
    assert Kit().fights() == 7
    monkeypatch.setenv("FRACAS_FIGHTS", "3")
    assert Kit().fights() == 3
