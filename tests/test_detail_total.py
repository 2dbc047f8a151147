"""An outside table tester's Replay of a step (issue 37): the ogre's attack read "Total 16"
beside "hit (22 vs AC 12)", the very dispute Replay is there to settle. A roll's total
says what its modifiers made of it, where they change it."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def test_a_steps_detail_gives_the_dice_total_and_what_the_modifiers_made_of_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "yard.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        do(
            e,
            {
                "action": "join",
                "combatant": "brannoc",
                "sheet": srd_sample("fighter"),
                "side": "pc",
            },
        )
        do(
            e,
            {
                "action": "join",
                "combatant": "gob",
                "sheet": srd_sample("goblin", hp=60),
                "side": "npc",
            },
        )
        do(e, {"action": "begin"}, [20, 1])
        attack = {"action": "attack", "actor": "brannoc", "targets": ["gob"], "weapon": "longsword"}
        do(e, attack, [12, 4])
        step = e.history.head_step
    with phones(db, ("brannoc",)) as table:
        detail = table.client.get(f"/p/{table.tokens['brannoc']}/step/{step}").text
    assert "<td>12, <b>17</b> with modifiers</td>" in detail, detail
