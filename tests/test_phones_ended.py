"""A player's step on a fight the GM has ended is refused in the player's words, "this
fight is over", not with the GM's advice (`fracas reopen`, `fracas party heal`), in every
ruleset: a reaction (an opportunity attack, taken out of turn) and the pass alike."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.phones import PASS, Forbidden, act, mark
from fracas.projections.screen import Timeline
from tests.support import do
from tests.web import RULESETS, duel

pytestmark = pytest.mark.sqlite_file


def tapped_after_the_end(db: Path, data: dict) -> str:
    """What a player's tap says once the GM has ended the fight; nothing is recorded."""
    with Fracas(str(db)) as log:
        e = log.encounter("fight")
        do(e, {"action": "gm.end"})
        timeline = Timeline(e, "fight", "players", None)
        head = e.history.head_step
        with pytest.raises(Forbidden) as refused:
            act(e, timeline, "hero", data, seen=mark(timeline), dice=None, command_id="hero-1")
        assert e.history.head_step == head
    return str(refused.value)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_players_pass_on_an_ended_fight_says_the_fight_is_over(
    tmp_path: Path, ruleset: str
) -> None:
    duel(tmp_path / "f.db", ruleset)
    assert tapped_after_the_end(tmp_path / "f.db", {"action": PASS}) == "this fight is over"


def test_srd_18_a_players_opportunity_attack_on_an_ended_fight_says_the_fight_is_over(
    tmp_path: Path,
) -> None:
    duel(tmp_path / "f.db", "srd")
    data = {"action": "opportunity", "targets": ["foe"], "weapon": "shortsword"}
    assert tapped_after_the_end(tmp_path / "f.db", data) == "this fight is over"
