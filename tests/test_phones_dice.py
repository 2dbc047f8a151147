"""The box for dice a phone shows is the ruleset's: an action has one when, and only when,
its declaration says what it rolls (`Playable.dice`), checked against what each action
really rolls in a dry run, in every installed ruleset."""

from pathlib import Path
from typing import Any

import pytest

from fracas.ledger import FracasError
from fracas.projections import Fracas
from fracas.projections.phones import PASS, PlayerAction, player_actions, sheet_of
from fracas.rules import Encounter
from fracas.rules.ruleset import Context
from fracas.testing.fights import PickedDice
from tests.support import do
from tests.web import RULESETS, duel

pytestmark = pytest.mark.sqlite_file


def rolled(e: Encounter, chosen: PlayerAction) -> list[str] | None:
    """The dice the hero's action rolls now, with the form's defaults (a sheet's first
    weapon), in a dry run; None when the rules refuse it as things stand."""
    data: dict[str, Any] = {"action": chosen.name, "actor": "hero"}
    if chosen.name == PASS:
        data = {"action": PASS}
    if chosen.targets:
        data["targets"] = ["foe"]
    data |= {f.field: f.default for f in chosen.fields if f.kind == "choice" and f.default}
    dice = PickedDice([5, 3, 7, 2, 9, 4, 1, 6, 8] * 8)
    try:
        command = e.ruleset.command(data)
        e.ruleset.decide_step(e.state, command, Context(dice, e.history.head_step + 1, "gm", "dry"))
    except FracasError:
        return None
    return [r.dice for r in dice.rolls]


def offered(e: Encounter) -> list[PlayerAction]:
    sheet = sheet_of(e, "hero")
    return [*player_actions(e.ruleset, sheet, True), *player_actions(e.ruleset, sheet, False)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_action_has_a_box_for_dice_when_it_rolls(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / f"{ruleset}.db"
    duel(db, ruleset)
    with Fracas(str(db)) as log:
        e = log.encounter("fight")
        while e.view().acting != ["hero"]:
            do(e, {"action": "next"})
        found = {a.name: (a, rolled(e, a)) for a in offered(e)}
        # then the hero attacks and the turns go round to the hero again (in 4dF the attack
        # is declared, and the turn that comes round resolves it: its `next` rolls)
        do(e, {"action": "attack", "actor": "hero", "targets": ["foe"]})
        do(e, {"action": "next"})
        while e.view().acting != ["hero"]:
            do(e, {"action": "next"})
        after = {a.name: rolled(e, a) for a in offered(e)}
    judged = 0
    for name, (action, rolls) in found.items():
        seen = [r for r in (rolls, after.get(name)) if r is not None]
        if not seen:
            continue  # refused in both states: nothing to judge it by
        judged += 1
        rolls_any = any(seen)
        assert bool(action.dice) == rolls_any, (name, action.dice, seen)
    assert judged >= 4, found
