"""'Next:' on the TV and the headline names whom the ruleset's own order gives the turn to
next: declaring runs up from the lowest in 4dF, a defence that spent the action is not
'next', and a new round's order still to be rolled names nobody."""

from pathlib import Path
from typing import Any

import pytest

from fracas.projections import Fracas
from fracas.projections.board import Board, board
from fracas.rules import Encounter
from tests.casts import CASTS
from tests.support import SIX, do, srd_sample


def cast(ruleset: str) -> dict[str, dict[str, Any]]:
    if ruleset == "srd":
        return {
            "rogue": srd_sample("rogue"),
            "goblin": srd_sample("goblin", hp=80),
            "fighter": srd_sample("fighter"),
        }
    return dict(list(CASTS[ruleset].sheets.items())[:3])


def begun(tmp_path: Path, ruleset: str, **fighters: dict[str, Any]) -> Encounter:
    log = Fracas(str(tmp_path / "next.db"))
    encounter = log.new(ruleset, title="next", encounter="next")
    for who, data in (fighters or cast(ruleset)).items():
        do(encounter, {"action": "join", "combatant": who, "sheet": data, "side": "pc"})
    do(encounter, {"action": "begin"})
    return encounter


def shown(encounter: Encounter) -> Board:
    return board(encounter.id, encounter.ruleset, encounter.view())


def acting_name(encounter: Encounter) -> str:
    view = encounter.view()
    names = {w.combatant: w.name for w in view.wounds}
    return ", ".join(names[a] for a in view.acting)


@pytest.mark.parametrize("ruleset", SIX)
def test_next_is_who_the_turn_then_goes_to(tmp_path: Path, ruleset: str) -> None:
    """Whenever the board names who is next, the GM's `next` gives them the turn (in the
    shot clock, where a pass is a wait of one shot, once the one acting has done so)."""
    encounter = begun(tmp_path, ruleset)
    named = 0
    for _ in range(12):
        said, now = shown(encounter).next_up, acting_name(encounter)
        do(encounter, {"action": "next"})
        while ruleset == "shotclock" and acting_name(encounter) == now:
            do(encounter, {"action": "next"})
        if said:
            named += 1
            assert acting_name(encounter) == said
    assert named >= 4  # the board did name someone, turn after turn


def test_fudge_names_the_next_declarer_up_the_order(tmp_path: Path) -> None:
    encounter = begun(tmp_path, "fudge")
    view = encounter.view()
    rank = {r.combatant: r.order for r in view.initiative}  # 1: the highest initiative
    declaring = sorted(rank, key=lambda who: -rank[who])  # from the lowest up (003-29)
    assert view.acting == [declaring[0]]
    names = {w.combatant: w.name for w in view.wounds}
    assert shown(encounter).next_up == names[declaring[1]]


def test_a_defence_that_spent_the_action_is_not_next_in_percentile(tmp_path: Path) -> None:
    """Alice shoots; Carol dodges, spending her action (000 default); Bob acts, and after
    him comes round 2's Alice, not Carol."""
    encounter = begun(tmp_path, "percentile")
    assert encounter.view().acting == ["alice"]
    do(
        encounter,
        {"action": "attack", "actor": "alice", "targets": ["carol"], "defence": {"carol": "dodge"}},
        [90, 10],
    )
    assert encounter.view().acting == ["bob"]
    assert shown(encounter).next_up == "alice"


def test_a_held_attack_fired_spends_the_action_it_is_not_next_in_pool(tmp_path: Path) -> None:
    """The last in the order holds an attack in round 1 and fires it in round 2 (its Action
    for that round, 004-5): after the second, round 3's first is next, not the one who fired."""
    sturdy = {who: {**sheet, "body": 99} for who, sheet in cast("pool").items()}  # none falls
    encounter = begun(tmp_path, "pool", **sturdy)
    first, second, last = (r.combatant for r in encounter.view().initiative)
    do(encounter, {"action": "next"})
    do(encounter, {"action": "next"})
    do(encounter, {"action": "hold", "actor": last, "targets": [first], "trigger": "a move"})
    do(encounter, {"action": "fire", "actor": last})
    do(encounter, {"action": "next"})
    assert encounter.view().acting == [second]
    names = {w.combatant: w.name for w in encounter.view().wounds}
    assert shown(encounter).next_up == names[first]
