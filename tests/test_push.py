"""After a step the server pushes each audience's pages only what changed on their screen
(the new line of the log, the rows that moved, the headline), not the whole screen again:
a page that holds the screen and applies the change shows what a page opened afresh shows.
A page that fell behind is sent the whole screen (issue 37, the push at 1,000 steps)."""

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from fracas.cli.serve import Audience, Table, offer
from fracas.ledger import UnreachableError
from fracas.projections import Fracas
from fracas.projections.screen import GM, PLAYERS
from tests.session_fights import FIGHTS
from tests.support import do

pytestmark = pytest.mark.sqlite_file
PART = re.compile(r'<(\w+)[^>]*\bdata-part="([^"]+)"')


def applied(html: str, change: dict[str, Any]) -> str:
    """The screen a page holding `html` shows after the change (as table.js applies it)."""
    for key, part in change["parts"].items():
        html = replace_part(html, key, part)
    for name, keys in change["lists"].items():
        start = re.search(rf'<(\w+)[^>]*data-list="{name}"[^>]*>', html)
        assert start, name
        end = html.index(f"</{start[1]}>", start.end())
        have = dict(parts_in(html[start.end() : end]))
        items = [change["parts"].get(k) or have[k] for k in keys]
        html = html[: start.end()] + "".join(items) + html[end:]
    html = re.sub(r'data-step="\d+" data-steps="\d+"', "", html, count=1)
    return html


def parts_in(html: str) -> list[tuple[str, str]]:
    found = []
    for start in PART.finditer(html):
        end = html.index(f"</{start[1]}>", start.end()) + len(f"</{start[1]}>")
        found.append((start[2], html[start.start() : end]))
    return found


def replace_part(html: str, key: str, part: str) -> str:
    for found, old in parts_in(html):
        if found == key:
            return html.replace(old, part.strip(), 1)
    return html


def normal(html: str) -> str:
    html = re.sub(r'data-step="\d+" data-steps="\d+"', "", html, count=1)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


@pytest.mark.parametrize("system", list(FIGHTS))
def test_a_step_pushes_only_what_changed(tmp_path: Path, system: str) -> None:
    db = tmp_path / f"{system}.db"
    with Fracas(db) as opened:
        e = FIGHTS[system](opened)
        for n in range(30):  # a longer fight: the whole screen grows, the change does not
            e.note(f"note {n}")
    table = Table(str(db), "token")
    queues = {a: asyncio.Queue[bytes](maxsize=1) for a in (GM, PLAYERS)}
    try:
        run = lambda work: table.worker.submit(work).result()  # noqa: E731
        opened_with = {a: run(lambda a=a: table.subscribe(e.id, a, queues[a])) for a in queues}
        held = {
            a: json.loads(m.decode().split("data: ", 1)[1])["html"] for a, m in opened_with.items()
        }
        with Fracas(db) as other:
            again = other.encounter(e.id)
            victim = next(w.combatant for w in again.view().wounds)
            do(again, {"action": "gm.harm", "target": victim, "amount": 1, "reason": "a slip"})
        pushed = {
            id(watched): (change, entire)
            for watched, change, entire in run(lambda: table.messages(table.changed()))
        }
        assert len(pushed) == 2
        for audience in (GM, PLAYERS):
            watched: Audience = table.watched[(e.id, audience)]
            change_bytes, whole_bytes = pushed[id(watched)]
            change = json.loads(change_bytes.decode().split("data: ", 1)[1])
            assert "html" not in change and change["parts"], change
            assert len(change_bytes) * 2 < len(whole_bytes), (len(change_bytes), len(whole_bytes))
            assert f"step:{change['steps']}" in change["parts"]  # the new line of the log
            assert f"row:{victim}" in change["parts"]  # the row that moved
            fresh = run(lambda a=audience: table.render_screen(e.id, a))
            assert normal(applied(held[audience], change)) == normal(fresh), audience
    finally:
        table.close()


def test_a_page_that_fell_behind_is_sent_the_whole_screen() -> None:
    queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)
    offer(queue, b"change 1", b"whole 1")
    assert queue.get_nowait() == b"change 1"
    offer(queue, b"change 2", b"whole 2")
    offer(queue, b"change 3", b"whole 3")  # the page has not read change 2: it gets it all
    assert queue.get_nowait() == b"whole 3"


def test_a_page_opened_while_the_log_server_is_down_opens_once_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's stream waits, open, while its first read finds the server unreachable
    (one line says so), and opens with the steps that landed meanwhile: it is not cut
    with a traceback, never to be pushed another step."""
    db = tmp_path / "down.db"
    with Fracas(db) as opened:
        e = FIGHTS["percentile"](opened)
    table = Table(str(db), "token")
    store = table.worker.submit(lambda: table.open().store).result()
    real, refusals = store.head, [3]

    def head(name: str) -> Any:
        if refusals[0]:
            refusals[0] -= 1
            if refusals[0] == 1:  # the GM's console writes on while the server is "down"
                with Fracas(db) as other:
                    other.encounter(e.id).note("while the server was down")
            raise UnreachableError("the log server at pg://x is unreachable", "pg://x")
        return real(name)

    monkeypatch.setattr(store, "head", head)

    async def first_message() -> dict[str, Any]:
        stream = table.stream(e.id, PLAYERS)
        try:
            message = await asyncio.wait_for(anext(stream), 10)
        finally:
            await stream.aclose()
        return json.loads(message.decode().split("data: ", 1)[1])

    try:
        first = asyncio.run(first_message())
        steps = table.worker.submit(lambda: real(e.id).step).result()
        assert table.watched[(e.id, PLAYERS)].queues == set()  # the closed page left
    finally:
        table.close()
    assert first["steps"] == steps and "while the server was down" in first["html"]
    said = capsys.readouterr().err.splitlines()
    assert said == [
        "fracas serve: the log server at pg://x is unreachable; retrying",
        "fracas serve: the log server at pg://x answers again",
    ]
