"""A player types only their own character's dice (issue 37, the table tester's finding 1):
every other combatant's roll in a step tapped from a phone (a target's defence, its save)
is the server's, whatever the phone sends."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.rules.events import Rolled
from tests.casts.timeslice import ts_fight
from tests.support import do, srd_sample
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def rolls_of_last_step(db: Path, name: str) -> list[Rolled]:
    with Fracas(str(db)) as log:
        fight = log.encounter(name)
        events = fight.events_of_step(fight.history.head_step)
    return [e for e in events if isinstance(e, Rolled)]


def test_a_timeslice_attack_types_the_attackers_dice_alone(tmp_path: Path) -> None:
    """Alice types her 2d10 to hit; the orc's dodge is the server's. Her phone had to type
    the orc's dodge too ([7,8] refused as too few, [7,8,2,3] landed "typed by alice"), and
    its help asked for "2d10 for where and how hard", which no attack rolls."""
    db = tmp_path / "fight.db"
    with Fracas(str(db)) as log:
        name = ts_fight(log).id
    with phones(db, ("alice",), encounter=name) as table:
        assert "2d10 to hit" in table.panel("alice")
        assert "where and how hard" not in table.panel("alice")
        sent = table.tap("alice", action="attack", targets=["orc"], dice=[7, 8])
        assert sent.status_code == 200, sent.text
    rolls = rolls_of_last_step(db, name)
    assert [(r.actor, r.roll.source) for r in rolls] == [
        ("alice", "manual"),
        ("orc", "seeded"),
    ]
    assert rolls[0].roll.faces == [7, 8] and rolls[0].roll.entered_by == "alice"


def test_a_phone_typing_another_combatants_dice_is_refused(tmp_path: Path) -> None:
    """Faces beyond the player's own rolls are left over, never given to the orc."""
    db = tmp_path / "fight.db"
    with Fracas(str(db)) as log:
        name = ts_fight(log).id
    with phones(db, ("alice",), encounter=name) as table:
        before = table.steps(name)
        sent = table.tap("alice", action="attack", targets=["orc"], dice=[7, 8, 2, 3])
        assert sent.status_code == 400, sent.text
        assert sent.text.startswith("2 typed faces left over"), sent.text
        assert table.steps(name) == before


def crypt(db: Path) -> None:
    """srd: the fighter acts first, then the goblin."""
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="The Crypt", encounter="crypt")
        fighter = srd_sample("fighter", initiative=60, holds_shield=False)  # a hand free
        do(fight, {"action": "join", "combatant": "fighter", "sheet": fighter, "side": "pc"})
        goblin = srd_sample("goblin", hp=150)
        do(fight, {"action": "join", "combatant": "goblin", "sheet": goblin, "side": "npc"})
        do(fight, {"action": "begin"})


def test_an_srd_grapple_types_the_grapplers_check_alone(tmp_path: Path) -> None:
    """The goblin's side of the contest is the server's; the help asked "d20 for the
    other's" of the fighter's player."""
    db = tmp_path / "crypt.db"
    crypt(db)
    with phones(db, ("fighter",), encounter="crypt") as table:
        assert "d20 for your check" in table.panel("fighter")
        assert "for the other" not in table.panel("fighter")
        sent = table.tap("fighter", action="grapple", targets=["goblin"], dice=[15])
        assert sent.status_code == 200, sent.text
    rolls = rolls_of_last_step(db, "crypt")
    assert [(r.actor, r.roll.source) for r in rolls] == [
        ("fighter", "manual"),
        ("goblin", "seeded"),
    ]
