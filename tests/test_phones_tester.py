"""Defects an outside tester found playing an srd fight from phones: each test fails on
the code before its fix."""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web import Table, crypt_table, fracas, sample, served_table

pytestmark = pytest.mark.sqlite_file


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with crypt_table(tmp_path) as made:
        yield made


def post(table: Table, who: str, body: bytes) -> httpx.Response:
    token = table.tokens[who]
    headers = {"X-Fracas-Token": token, "Content-Type": "application/json"}
    return table.client.post(f"/p/{token}/act", content=body, headers=headers)


def test_a_players_take_back_is_theirs_on_every_screen_and_not_offered_again(
    table: Table,
) -> None:
    """The take-back reads as the player's on every screen, and right after it the phone
    offered "Take back your step N": the undo itself, which a player may not undo."""
    assert table.tap("fighter", action="dodge").status_code == 200
    assert table.tap("fighter", action="undo").status_code == 200
    panel = table.client.get(f"/p/{table.tokens['fighter']}/panel").text
    assert "Take back" not in panel, panel
    for page in (
        f"/p/{table.tokens['fighter']}/screen",
        f"/p/{table.tokens['rogue']}/screen",
        "/e/crypt/screen",
        "/gm/e/crypt/screen",
    ):
        shown = table.client.get(page, headers={"X-Fracas-Token": table.running.token}).text
        assert re.search(r"fighter takes back step \d+", shown), (page, shown)
        assert "The GM takes back" not in shown, (page, shown)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            b'{"seen":%d,"command_id":"fighter0001","action":"dodge","fields":{"level":1e308}}',
            "fields.level must be a whole number, true/false, text, a JSON object or a list\n",
        ),
        (b"[%d]", "the body must be a JSON object with seen, command_id, action"),
    ],
)
def test_a_wrongly_typed_step_is_told_in_plain_words(table: Table, body: bytes, said: str) -> None:
    before = table.log()
    answer = post(table, "fighter", body % table.seen("fighter"))
    assert answer.status_code == 400, answer.text
    assert answer.text.startswith(said) and answer.text.count("\n") == 1, answer.text
    assert "Expected" not in answer.text and "$." not in answer.text, answer.text
    assert table.log() == before


def chapel(db: Path) -> None:
    """The cleric acts first; the skeleton is destroyed and the wolf has fled."""
    fracas(db, "new", "-r", "srd", "--id", "chapel", "-t", "The Chapel")
    fracas(db, "add", "cleric", "--sheet", sample("cleric"), "--set", "initiative=80")
    fracas(db, "add", "fighter", "--sheet", sample("fighter"), "--set", "initiative=40")
    for foe in ("goblin", "skeleton", "wolf"):
        fracas(db, "add", foe, "--sheet", sample(foe))
    fracas(db, "begin")
    fracas(db, "harm", "skeleton", "999", "-m", "turned to dust")
    fracas(db, "remove", "wolf", "-m", "fled")


def taps(fieldset: str) -> set[str]:
    return set(re.findall(r'<input type="checkbox" value="([^"]+)" data-target', fieldset))


def test_a_phone_offers_self_where_the_action_allows_and_never_the_dead_or_gone(
    tmp_path: Path,
) -> None:
    """An outside tester after issue 37: a cleric could not cure their own wounds from the
    phone (only the others were offered as targets), and a destroyed skeleton and a wolf
    the GM had taken out of the fight were still offered."""
    with served_table(tmp_path / "chapel.db", chapel, ("cleric",)) as table:
        panel = table.client.get(f"/p/{table.tokens['cleric']}/panel").text
        chosen = r'<fieldset class="chosen" data-action="(\w+)"(.*?)</fieldset>'
        fieldsets = dict(re.findall(chosen, panel, re.S))
        assert taps(fieldsets["cast"]) == {"cleric", "fighter", "goblin"}, fieldsets["cast"]
        assert taps(fieldsets["attack"]) == {"fighter", "goblin"}, fieldsets["attack"]
        assert "skeleton" not in panel and "wolf" not in panel
        fracas(table.db, "harm", "cleric", "5", "-m", "a fall")
        cure = {"spell": "cure wounds"}
        healed = table.tap("cleric", action="cast", fields=cure, targets=["cleric"])
        assert healed.status_code == 200, healed.text
        events = json.loads(table.log())[-1]["events"]
        assert any(e["kind"] == "healed" and e["target"] == "cleric" for e in events), events


def test_a_players_own_end_of_turn_is_theirs_on_every_screen(table: Table) -> None:
    """An outside tester after issue 37 read the GM's name on a turn a player ended from
    their phone: every screen says the player ended it."""
    assert table.tap("fighter", action="next").status_code == 200
    for page in ("/e/crypt/screen", "/gm/e/crypt/screen", f"/p/{table.tokens['rogue']}/screen"):
        shown = table.client.get(page, headers={"X-Fracas-Token": table.running.token}).text
        newest = re.search(r'<ol class="log" reversed[^>]*>\s*<li.*?</li>', shown, re.S)
        assert newest, shown
        assert "fighter ends the turn" in newest[0] and "by fighter" not in newest[0], newest[0]
        assert "GM" not in newest[0], newest[0]
