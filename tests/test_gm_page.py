"""The GM's page (issue 37): the newest token wins over an old cookie, and Undo takes back
the step the page showed or is refused when the fight moved on."""

import json
from pathlib import Path

import httpx
import pytest

from tests.web import fracas, invited, motel, served

pytestmark = pytest.mark.sqlite_file


def test_the_newest_token_in_the_url_wins_over_an_old_cookie(tmp_path: Path) -> None:
    """Defect 6: after a restart the old server's cookie locked the GM out (403)."""
    db = tmp_path / "motel.db"
    motel(db)
    with served(db) as running, httpx.Client(base_url=running.root) as client:
        client.cookies.set("fracas_gm", "the-token-of-the-server-before-the-restart")
        opened = client.get(f"/gm?token={running.token}", follow_redirects=False)
        assert opened.status_code == 303, opened.text
        assert client.get("/gm").status_code == 200
        wrong = client.get("/gm?token=not-this-servers", follow_redirects=False)
        assert wrong.status_code == 403 and wrong.text == "that GM token is not this server's\n"


def test_the_gms_link_and_cookie_and_the_players_links_outlive_a_restart(
    tmp_path: Path,
) -> None:
    """The GM's token was drawn anew at each start: a restart killed the GM's bookmarked
    link and cookie. It is kept with the log's secrets (its key file), so the same link
    opens the GM's page after a restart, as the players' links do; a copy of the log alone
    (another key file) is another log and gets its own."""
    db = tmp_path / "motel.db"
    motel(db)
    player = invited(db, "alice")
    with served(db) as first, httpx.Client(base_url=first.root, follow_redirects=True) as client:
        assert client.get(f"/gm?token={first.token}").status_code == 200
        cookie = client.cookies.get("fracas_gm")
        assert cookie == first.token
    with served(db) as second, httpx.Client(base_url=second.root, follow_redirects=True) as client:
        assert second.token == first.token and second.gm.split("/gm")[1] == first.gm.split("/gm")[1]
        client.cookies.set("fracas_gm", cookie)
        assert client.get("/gm").status_code == 200
        assert client.get(f"/gm?token={first.token}").status_code == 200
        assert client.get(f"/p/{player}").status_code == 200
    assert (tmp_path / "motel.db.keys").stat().st_mode & 0o077 == 0
    other = tmp_path / "other.db"
    motel(other)
    with served(other) as elsewhere:
        assert elsewhere.token != first.token


def head(db: Path) -> int:
    return int(json.loads(fracas(db, "log", "--json").stdout)[-1]["step"])


def test_undo_takes_back_the_step_the_page_showed_or_is_a_409(tmp_path: Path) -> None:
    """Defect 7: pressed as a player's pass landed, Undo took back the pass, not the attack
    the GM was looking at."""
    db = tmp_path / "motel.db"
    motel(db)
    with served(db) as running, httpx.Client(base_url=running.root) as client:
        gm = {"X-Fracas-Token": running.token}
        fracas(db, "act", "alice", "aim")
        shown = head(db)
        button = client.get("/gm/e/motel/undo", headers=gm).json()
        assert button["step"] == shown and button["label"].startswith(f"Undo step {shown}")
        fracas(db, "next", "--by", "alice")  # the pass lands as the GM presses Undo
        before = fracas(db, "log", "--json").stdout
        undo = client.post("/gm/e/motel/command", json={"line": "undo", "seen": shown}, headers=gm)
        assert undo.status_code == 409, undo.text
        assert undo.text == f"the fight moved on: step {shown + 1} landed\n"
        assert fracas(db, "log", "--json").stdout == before
        taken = client.post(
            "/gm/e/motel/command", json={"line": "undo", "seen": shown + 1}, headers=gm
        )
        assert taken.status_code == 200 and taken.json()["ok"], taken.text
