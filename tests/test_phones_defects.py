"""Defects an outside tester found in the players' phones (issue 32): each test fails on the
code before its fix."""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support import SHEETS
from tests.web import Table, fracas, invited, motel, motel_table, served


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with motel_table(tmp_path) as made:
        yield made


pytestmark = pytest.mark.sqlite_file


def post(table: Table, who: str, body: bytes) -> httpx.Response:
    token = table.tokens[who]
    headers = {"X-Fracas-Token": token, "Content-Type": "application/json"}
    return table.client.post(f"/p/{token}/act", content=body, headers=headers)


@pytest.mark.slow
def test_bytes_that_are_not_utf8_in_a_step_are_a_400_with_one_line(table: Table) -> None:
    seen = table.seen("alice")
    before = table.log()
    for body in (
        b'{"seen":%d,"command_id":"alice\xff01","action":"aim"}' % seen,
        b'{"seen":%d,"command_id":"alice0001","action":"a\xffim"}' % seen,
        b'{"seen":%d,"command_id":"alice0001","action":"aim","fields":{"what":"\xfe"}}' % seen,
    ):
        answer = post(table, "alice", body)
        assert answer.status_code == 400, answer.text
        assert answer.text == "a command is UTF-8 JSON; that body is not UTF-8\n"
    assert table.log() == before


@pytest.fixture
def hidden(tmp_path: Path) -> Table:
    db = tmp_path / "motel.db"
    motel(db)
    fracas(db, "add", "ghoul", "--sheet", str(SHEETS / "cultist.toml"), "--hidden")
    return db  # type: ignore[return-value]


@pytest.mark.slow
def test_a_player_can_neither_find_nor_attack_a_hidden_combatant(hidden: Path) -> None:
    db = hidden
    tokens = {who: invited(db, who) for who in ("alice", "bob")}
    with served(db) as running:
        table = Table(db, running, tokens)
        before = table.log()
        made_up = table.tap("alice", action="attack", targets=["zzz"], dice=[5, 3])
        assert made_up.status_code == 404 and made_up.text.count("\n") == 1, made_up.text
        assert "ghoul" not in made_up.text and "zzz" in made_up.text
        ghoul = table.tap("alice", action="attack", targets=["ghoul"], dice=[5, 3])
        assert ghoul.status_code == 404, ghoul.text
        assert ghoul.text == made_up.text.replace("zzz", "ghoul")
        assert table.log() == before
        table.client.close()


@pytest.mark.slow
def test_a_secret_attack_is_not_answered_nor_probed_from_a_phone(table: Table) -> None:
    fracas(table.db, "act", "alice", "aim")
    fracas(table.db, "act", "cultist", "attack", "bob", "-w", "knife", "--ask", "--secret")
    panel = table.client.get(f"/p/{table.tokens['bob']}/panel").text
    assert "data-choice" not in panel and "knife" not in panel
    before = table.log()
    for dice in (None, [20], [20, 30, 4, 1, 1]):
        step = {"action": "answer", "fields": {"choice": "dodge"}}
        answer = table.tap("bob", **step, **({"dice": dice} if dice else {}))
        assert answer.status_code == 403, answer.text
        assert answer.text == "no attack waits for bob's reaction now\n"
    assert table.log() == before


@pytest.mark.slow
def test_the_attack_forms_booleans_start_at_their_default(table: Table) -> None:
    panel = table.client.get(f"/p/{table.tokens['alice']}/panel").text
    for name in ("avoid_armor", "avoid_cover"):
        found = re.findall(rf'<[^>]*data-field="{name}"[^>]*>', panel)
        assert found, name
        assert all('type="checkbox"' in f and "checked" not in f for f in found), found


@pytest.mark.slow
def test_the_target_never_types_the_attackers_dice(table: Table) -> None:
    assert table.tap("alice", action="attack", targets=["bob"]).status_code == 200
    before = table.log()
    typed = table.tap("bob", action="answer", fields={"choice": "dodge"}, dice=[20, 30])
    assert typed.status_code == 403 and typed.text.count("\n") == 1, typed.text
    assert "answer without dice" in typed.text
    assert table.log() == before
    answered = table.tap("bob", action="answer", fields={"choice": "dodge"})
    assert answered.status_code == 200, answered.text
    rolls = [e["roll"] for e in json.loads(table.log())[-1]["events"] if e["kind"] == "rolled"]
    assert rolls and all(r["source"] != "manual" for r in rolls), rolls


@pytest.mark.slow
def test_a_page_that_missed_a_gm_only_step_is_told_the_fight_moved_on(table: Table) -> None:
    """A step the players' screen withholds (it reads what a secret attack decided) moves
    the fight on too: the page that did not see it gets the 409, then taps again. Bob at
    3 HP: any knife hit would put him down (2 HP or less), so his aim afterwards tells the
    players that the secret roll (a typed 90: a miss) did not hit."""
    fracas(table.db, "harm", "bob", "7", "-m", "a fall down the motel stairs")
    fracas(table.db, "act", "alice", "aim")
    fracas(table.db, "act", "cultist", "attack", "bob", "--secret", "-d", "90")
    seen = table.seen("alice")
    fracas(table.db, "act", "bob", "aim")
    screen = table.client.get(f"/p/{table.tokens['alice']}/screen").text
    assert "A step the GM has not shown yet" in screen and "bob aims" not in screen
    assert "Round 1 · Knife cultist to act" in screen
    token = table.tokens["alice"]
    stale = {"seen": seen, "command_id": "alice-stale-0001", "action": "aim"}
    before = table.log()
    late = table.client.post(f"/p/{token}/act", json=stale, headers={"X-Fracas-Token": token})
    assert late.status_code == 409 and "moved on" in late.text, late.text
    assert late.text.count("\n") == 1
    assert table.log() == before
    assert table.tap("alice", action="aim").status_code != 409


def test_a_wrong_token_and_a_large_body_are_each_told_what_is_wrong(table: Table) -> None:
    alice, bob = table.tokens["alice"], table.tokens["bob"]
    aim = {"seen": table.seen("alice"), "command_id": "alice-aims-0001", "action": "aim"}
    wrong = table.client.post(f"/p/{alice}/act", json=aim, headers={"X-Fracas-Token": bob})
    assert wrong.status_code == 403
    assert wrong.text == "the X-Fracas-Token header does not match this link's token\n"
    large = aim | {"fields": {"what": "x" * 40000}}
    big = table.client.post(f"/p/{alice}/act", json=large, headers={"X-Fracas-Token": alice})
    assert big.status_code == 413 and "too large" in big.text and big.text.count("\n") == 1


@pytest.mark.slow
def test_with_the_gms_nod_one_step_waits_per_player_and_a_stale_one_is_refused(
    tmp_path: Path,
) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    tokens = {"alice": invited(db, "alice")}
    with served(db, "--player-steps", "nod") as running:
        table = Table(db, running, tokens)
        gm = {"X-Fracas-Token": running.token}
        for _ in range(5):
            assert table.tap("alice", action="aim").json() == {"ok": True, "pending": True}
        links = table.client.get("/gm/e/motel/links", headers=gm).text
        waiting = sorted(set(re.findall(r'data-pending="(\w+)"', links)))
        assert len(waiting) == 1
        fracas(db, "note", "the GM moves first")
        before = table.log()
        stale = table.client.post(f"/gm/e/motel/pending/{waiting[0]}/approve", headers=gm)
        assert stale.status_code == 409 and stale.text.count("\n") == 1, stale.text
        assert "moved on" in stale.text and table.log() == before
        table.client.close()
