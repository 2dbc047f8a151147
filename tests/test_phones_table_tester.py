"""The outside table tester's findings on the phones (issue 37), each driven as the tester
did: the JSON a phone sends, POSTed to its `/act` link."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.rules.events import Resolved
from tests.casts.timeslice import ts_fight
from tests.support import do
from tests.web import phones

pytestmark = pytest.mark.sqlite_file


def timeslice(db: Path) -> str:
    with Fracas(str(db)) as log:
        return ts_fight(log).id


@pytest.mark.parametrize(
    "heal",
    [
        {"targets": ["bob"], "fields": {"hp": 5, "source": "a wish"}},
        {"targets": ["orc"], "fields": {"hp": 1000}},
        {"targets": ["alice"]},
    ],
)
def test_a_timeslice_phone_cannot_heal_at_will(tmp_path: Path, heal: dict[str, object]) -> None:
    """Every phone had a Heal that healed anyone, any amount, from any source, free: the
    amount and the source are the GM's (a medic's Treat and a healing spell are the
    player's, with their own rolls and limits)."""
    db = tmp_path / "fight.db"
    name = timeslice(db)
    with phones(db, ("alice",), encounter=name) as table:
        assert 'data-action="heal"' not in table.panel("alice")
        before = table.steps(name)
        sent = table.tap("alice", action="heal", **heal)
        assert sent.status_code == 403, sent.text
        assert sent.text.startswith("a player's action is one of: "), sent.text
        assert "heal," not in sent.text
        assert table.steps(name) == before


def test_a_phones_interrupt_is_the_players_claim_not_the_gms_ruling(tmp_path: Path) -> None:
    """A phone's interrupt was logged "GM rules: the orc attacks within range of Alice's
    sword" though the GM ruled nothing."""
    db = tmp_path / "fight.db"
    name = timeslice(db)
    with Fracas(str(db)) as log:
        do(log.encounter(name), {"action": "next"})  # the orc's turn
    with phones(db, ("alice",), encounter=name) as table:
        fields = {"weapon": "sword", "trigger": "attacks", "trigger_by": "orc"}
        sent = table.tap("alice", action="interrupt", targets=["orc"], fields=fields)
        assert sent.status_code == 200, sent.text
    with Fracas(str(db)) as log:
        fight = log.encounter(name)
        events = fight.events_of_step(fight.history.head_step)
    outcome = next(e.outcome for e in events if isinstance(e, Resolved) and e.action == "interrupt")
    assert outcome == "alice says: orc attacks within range of alice's sword"
