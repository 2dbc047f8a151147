"""Defects an outside tester found playing an srd fight from phones: each test fails on
the code before its fix."""

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web import Table, crypt_table

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
            "fields.level must be a whole number, true/false or text\n",
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
