"""An outside table tester typed the slot level of a spell into a box. The phone offers the
levels the caster still has a slot of (srd-50), as the character's row counts them, and
nothing else: once the last 2nd-level slot is spent, 2nd is no longer offered."""

import re
from pathlib import Path

import httpx
import pytest

from fracas.projections import Fracas
from tests.support import do, srd_sample
from tests.web import invited, served

pytestmark = pytest.mark.sqlite_file


def levels_offered(panel: str) -> list[str]:
    select = re.search(r'<select data-field="level"[^>]*>(.*?)</select>', panel, re.S)
    assert select, panel
    return re.findall(r'<option value="([^"]*)"', select[1])


def test_the_slot_level_is_a_choice_of_the_levels_with_slots_left(tmp_path: Path) -> None:
    db = tmp_path / "srd.db"
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="Slots", encounter="fight")
        wizard = srd_sample("wizard", initiative=90, slots=[4, 1])
        do(fight, {"action": "join", "combatant": "wizard", "sheet": wizard, "side": "pc"})
        goblin = srd_sample("goblin", hp=60)
        do(fight, {"action": "join", "combatant": "gob", "sheet": goblin, "side": "npc"})
        do(fight, {"action": "begin"})
    token = invited(db, "wizard")
    with served(db) as running, httpx.Client(base_url=running.root, timeout=10) as client:
        assert levels_offered(client.get(f"/p/{token}/panel").text) == ["1", "2"]
        with Fracas(str(db)) as log:
            cast = {"spell": "magic missile", "level": 2, "targets": ["gob"]}
            fight = log.encounter("fight")
            do(fight, {"action": "cast", "actor": "wizard", **cast})
            do(fight, {"action": "next"})
            do(fight, {"action": "next"})  # the wizard's next turn, her action back
        assert levels_offered(client.get(f"/p/{token}/panel").text) == ["1"]
