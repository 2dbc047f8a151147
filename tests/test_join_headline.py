"""A combatant who joins a fight already under way is said on the TV's log in one short
line, who and on which side, in every ruleset; the order the step's whole sentence states
names only those still in the fight, never the dead (issue 37, an outside tester: joins
flooded the TV's log with the whole turn order, the dead in it)."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.replay import replay
from fracas.rules import Encounter
from tests.casts import PLAIN
from tests.session_fights import FIGHTS
from tests.support import do


def dead_one(e: Encounter) -> str:
    """A combatant of the fight harmed to death (or out, as the ruleset has it): its name."""
    view = e.view()
    row = view.wounds[-1]
    for _ in range(5):
        do(e, {"action": "gm.harm", "target": row.combatant, "amount": 100, "reason": "a fall"})
        now = next(w for w in e.view().wounds if w.combatant == row.combatant)
        if set(now.conditions) & e.ruleset.out:
            return now.name
    # 4dF's harm stops at "no actions": its GM says the dead so
    do(e, {"action": "gm.condition-set", "target": row.combatant, "condition": "dead"})
    return row.name


@pytest.mark.parametrize("system", list(FIGHTS))
def test_a_join_s_headline_says_who_and_which_side_and_no_order_names_the_dead(
    system: str, tmp_path: Path
) -> None:
    with Fracas(tmp_path / "j.db") as opened:
        e = FIGHTS[system](opened)
        dead = dead_one(e)
        for who in ("newcomer", "second"):
            join = {"action": "join", "combatant": who, "name": who.capitalize()}
            do(e, {**join, "sheet": PLAIN[system], "side": "npc"})
        steps = list(replay(e))[-2:]
    for step, name in zip(steps, ("Newcomer", "Second"), strict=True):
        assert step.headline == f"{name} (npc) joins the fight", step.headline
        assert dead not in step.sentence, step.sentence
