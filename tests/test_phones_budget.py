"""An outside table tester's srd phones (issue 37): once the wizard's and the fighter's
action was taken, their phones still offered Dash, Disengage and Hide, and a tap was
refused in the command line's words. A phone offers an action's bonus-action form only to
a character that has one (a rogue's Cunning Action, srd-60) and has its bonus action left."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def offered_after_an_attack(tmp_path: Path, kind: str, weapon: str) -> set[str]:
    db = tmp_path / f"{kind}.db"
    with Fracas(str(db)) as log:
        e = log.new("srd", title="The yard", encounter="fight")
        do(e, {"action": "join", "combatant": "hero", "sheet": srd_sample(kind), "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(e, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(e, {"action": "begin"}, [20, 1])
        do(e, {"action": "attack", "actor": "hero", "targets": ["gob"], "weapon": weapon}, [2])
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
    return {a for a in ("dash", "disengage", "hide", "dodge") if f'data-action="{a}"' in panel}


def test_a_fighter_without_a_bonus_form_is_offered_none_once_the_action_is_taken(tmp_path):
    assert offered_after_an_attack(tmp_path, "fighter", "longsword") == set()


def test_a_rogue_is_offered_dash_disengage_and_hide_as_her_bonus_action(tmp_path):
    assert offered_after_an_attack(tmp_path, "rogue", "shortsword") == {"dash", "disengage", "hide"}
