"""Issue 37 (an outside table tester on the GM's laptop): the links the GM had given and
revoked were listed at the bottom of the GM page under their internal ids, and after a
reload they were gone until the page fetched them; the QR code did not say whose it was.
The list sits under the Invite control, by the character's name, when given and whether
revoked, rendered by the server; the invite and revoke answers name the character; none of
it reaches a players' page, and a hidden combatant is never listed."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fracas.cli.serve import Table, build
from fracas.ledger.invites import invite, revoke
from fracas.projections import Fracas
from tests.web import fracas, motel

pytestmark = pytest.mark.sqlite_file

GM = {"X-Fracas-Token": "gm-token"}
AT = r"(\d+ \w+ )?\d\d:\d\d UTC"  # a time of today, or of another day with its day


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def table_of(tmp_path: Path) -> Path:
    """The motel (Alice Reyes, the cultist, bob) and Wren; Alice's link given, bob's given
    and revoked, a link given to the lurker (hidden from the players)."""
    db = tmp_path / "motel.db"
    motel(db)
    fracas(db, "add", "wren", "--name", "Wren", "--side", "pc")
    fracas(db, "add", "lurk", "--name", "Pale Lurker", "--side", "pc", "--hidden")
    with Fracas(str(db)) as log:
        for who in ("alice", "bob", "lurk"):
            invite(log.store, "motel", who)
        revoke(log.store, "motel", "bob")
    return db


@contextmanager
def client(db: Path) -> Iterator[Any]:
    with TestClient(build(Table(str(db), "gm-token"))) as served:
        yield served


def given(html: str) -> list[str]:
    """The lines of the list of links given, as the GM reads them."""
    part = re.search(r'<ul class="given"[^>]*>(.*?)</ul>', html, re.S)
    assert part, html
    return [words(li) for li in re.findall(r"<li\b.*?</li>", part[1], re.S)]


def invite_section(page: str) -> str:
    found = re.search(r'<section class="invite".*?</section>', page, re.S)
    assert found, page
    return found[0]


def test_the_links_given_are_listed_by_name_under_the_invite_control(tmp_path: Path) -> None:
    db = table_of(tmp_path)
    with client(db) as served:
        page = served.get("/gm/e/motel", headers=GM).text  # as it comes after a reload
    lines = given(invite_section(page))
    assert len(lines) == 2, lines  # alice's and bob's: never the hidden lurker's
    alice, bob = lines
    assert re.fullmatch(rf"Alice Reyes · given {AT} Revoke", alice), alice
    assert re.fullmatch(rf"bob · given {AT} · revoked {AT}", bob), bob
    assert "alice" not in words(invite_section(page)).split()  # the name, never the id
    assert "Lurker" not in invite_section(page) and "lurk" not in invite_section(page)
    # Revoke on Alice's line revokes her links (the page's script posts the combatant)
    assert re.search(r'<button type="button" data-revoke="alice"[^>]*>Revoke</button>', page)
    # the bottom of the page no longer lists them
    assert 'class="links"' not in page


def test_the_links_fragment_brings_the_list_fresh(tmp_path: Path) -> None:
    """gm.js puts the fragment's list in place of the page's after every step and action."""
    db = table_of(tmp_path)
    page = _page(db)
    with client(db) as served:
        before = served.get("/gm/e/motel/links", headers=GM).text
        made = served.post("/gm/e/motel/invite", json={"combatant": "wren"}, headers=GM)
        after = served.get("/gm/e/motel/links", headers=GM).text
        gone = served.post("/gm/e/motel/revoke", json={"combatant": "wren"}, headers=GM)
        revoked = served.get("/gm/e/motel/links", headers=GM).text
    fresh = re.search(r'<template class="given">(.*?)</template>', before, re.S)
    assert fresh and given(fresh[1]) == given(invite_section(page)), before
    assert made.status_code == 200 and made.json()["name"] == "Wren", made.text
    assert given(after)[-1].startswith("Wren · given "), after
    assert gone.json() == {"combatant": "wren", "name": "Wren", "revoked": 1}, gone.text
    assert re.fullmatch(rf"Wren · given {AT} · revoked {AT}", given(revoked)[-1])
    assert "lurk" not in words(revoked).lower() and "Lurker" not in revoked


def _page(db: Path) -> str:
    with client(db) as served:
        return served.get("/gm/e/motel", headers=GM).text


def test_a_hidden_combatant_is_neither_listed_nor_offered_until_revealed(tmp_path: Path) -> None:
    db = table_of(tmp_path)
    page = _page(db)
    assert 'value="lurk"' not in page, "the Invite list offers a hidden combatant"
    fracas(db, "reveal-combatant", "lurk")
    page = _page(db)
    assert given(invite_section(page))[-1].startswith("Pale Lurker · given "), page
    assert 'value="lurk"' in page


def test_no_players_page_shows_the_links_given(tmp_path: Path) -> None:
    db = table_of(tmp_path)
    with Fracas(str(db)) as log:
        token = invite(log.store, "motel", "wren")
    with client(db) as served:
        pages = [served.get(path).text for path in ("/", "/?tv", "/e/motel", f"/p/{token}")]
        pages.append(served.get(f"/p/{token}/panel").text)
        assert served.get("/gm/e/motel/links").status_code == 403  # the GM's token only
    for html in pages:
        assert 'class="given"' not in html and "given " not in words(html), html
        assert "Revoke" not in html and "Link for" not in html
