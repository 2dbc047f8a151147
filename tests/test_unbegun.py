"""An encounter the GM has written but not begun (the ambush they are preparing) is theirs:
the players' pages neither list it nor serve it (404, as for one that does not exist),
unless it is the encounter the server shows by default (the GM's current)."""

import io
from pathlib import Path

from starlette.testclient import TestClient

from fracas.cli.serve import Table, build
from fracas.projections import Fracas
from tests.casts import PLAIN
from tests.support import SIX, do


def prepared(db: Path, ruleset: str) -> None:
    """'tavern' begun, 'ambush' written but not begun, then 'tavern2' begun last."""
    with Fracas(str(db)) as log:
        for name, begin in (("tavern", True), ("ambush", False), ("tavern2", True)):
            encounter = log.new(ruleset, title=f"The {name}", encounter=name)
            for who in ("ann", "bo"):
                sheet = PLAIN[ruleset]
                do(encounter, {"action": "join", "combatant": who, "sheet": sheet, "side": "pc"})
            if begin:
                do(encounter, {"action": "begin"})


def test_an_unbegun_encounter_is_the_gms_alone(tmp_path: Path) -> None:
    for ruleset in SIX:
        db = tmp_path / f"{ruleset}.db"
        prepared(db, ruleset)
        gm = {"X-Fracas-Token": "gm-token"}
        with TestClient(build(Table(str(db), "gm-token"))) as client:
            front = client.get("/")
            assert front.status_code == 200
            assert "ambush" not in front.text, ruleset
            assert "tavern" in client.get("/e/tavern2").text
            for path in ("/e/ambush", "/e/ambush/screen", "/e/ambush/step/1", "/e/ambush/stream"):
                refused = client.get(path)
                assert refused.status_code == 404, (ruleset, path)
                assert "ambush" in refused.text  # as for a name that is not in the log
            assert client.get("/gm/e/ambush", headers=gm).status_code == 200
            assert "/e/ambush" in client.get("/gm", headers=gm).text


def test_the_gms_current_encounter_shows_before_it_begins(tmp_path: Path) -> None:
    db = tmp_path / "setup.db"
    with Fracas(str(db)) as log:
        log.new("percentile", title="The cellar", encounter="cellar")
    with TestClient(build(Table(str(db), "gm-token"))) as client:
        front = client.get("/")
        assert front.status_code == 200 and "The cellar" in front.text
        assert client.get("/e/cellar").status_code == 200


def test_the_players_export_of_every_encounter_leaves_out_an_unbegun_one(tmp_path: Path) -> None:
    db = tmp_path / "export.db"
    prepared(db, "percentile")
    with Fracas(str(db)) as log:
        players, gm = io.StringIO(), io.StringIO()
        log.export_text(players, "md", everything=True, players=True)
        log.export_text(gm, "md", everything=True)
    assert "The tavern2" in players.getvalue() and "The ambush" not in players.getvalue()
    assert "The ambush" in gm.getvalue()
