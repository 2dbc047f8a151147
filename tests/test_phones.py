"""Players act from their own phones: invitation links, what a token may read and do, the
security matrix of every route, revocation, the rate limit, conflicts, the GM's nod, TLS."""

import json
import re
import sqlite3
import ssl
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fracas.ledger.invites import digest
from tests.support import SHEETS
from tests.web import Table, fracas, invited, motel, motel_table, served

pytestmark = pytest.mark.sqlite_file


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with motel_table(tmp_path) as made:
        yield made


@pytest.mark.slow
def test_a_token_is_kept_only_as_its_hash_and_never_leaves_in_an_export(
    tmp_path: Path,
) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    out = fracas(db, "invite", "alice", "--url", "http://table.local:8000").stdout
    token = re.search(r"/p/(\S+)", out)[1]  # type: ignore[index]
    assert "█" in out or "▀" in out  # the QR code, drawn in the terminal
    assert len(token) == 43  # 256 bits, URL-safe base64
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert token.encode() not in raw
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT digest, combatant, revoked FROM invites").fetchall()
    assert rows == [(digest(token), "alice", None)]
    exported = fracas(db, "export", "--format", "jsonl").stdout
    assert digest(token) not in exported and token not in exported
    fracas(db, "copy", str(db), str(tmp_path / "copy.db"))
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "invites" not in tables
    refused = fracas(db, "invite", "zed", check=False)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "no combatant 'zed'" in refused.stderr
    assert fracas(db, "invite", "--revoke", "alice").stdout == "revoked 1 link of alice\n"
    listed = fracas(db, "invite", "--list").stdout
    assert listed.startswith("alice: given 20") and ", revoked 20" in listed
    assert token not in listed and digest(token) not in listed


def test_a_player_acts_on_their_turn_as_their_character_with_their_own_dice(
    table: Table,
) -> None:
    typed = table.tap("alice", action="attack", targets=["cultist"], dice=[95, 5])
    assert typed.status_code == 200, typed.text
    steps = json.loads(table.log())
    last = steps[-1]
    assert last["author"] == "alice"
    rolled = [e for e in last["events"] if e["kind"] == "rolled"]
    assert rolled and all(e["roll"]["entered_by"] == "alice" for e in rolled)
    assert all(e["roll"]["source"] == "manual" for e in rolled)
    audit = fracas(table.db, "audit")
    assert audit.returncode == 0, audit.stdout


@pytest.mark.slow
def test_a_player_takes_back_only_their_own_last_step(table: Table) -> None:
    assert table.tap("alice", action="aim").status_code == 200
    bobs = table.tap("bob", token=table.tokens["bob"], action="undo")
    assert bobs.status_code == 403
    before = table.log()
    undone = table.tap("alice", action="undo")
    assert undone.status_code == 200, undone.text
    assert json.loads(table.log())[-1]["control"] == "undo"
    assert json.loads(table.log())[-1]["author"] == "alice"
    assert table.log() != before
    fracas(table.db, "note", "the lights flicker")
    again = table.tap("alice", action="undo")
    assert again.status_code == 403 and "only their own step" in again.text


@pytest.mark.slow
def test_a_step_the_servers_dice_decided_is_the_gms_to_take_back(table: Table) -> None:
    """Taken back from the phone and tapped again, an attack would fall on fresh dice: a
    re-roll at will. The player's typed dice may be taken back; the server's stand."""
    rolled = table.tap("alice", action="attack", targets=["cultist"])
    assert rolled.status_code == 200, rolled.text
    assert "Take back" not in table.client.get(f"/p/{table.tokens['alice']}/panel").text
    before = table.log()
    refused = table.tap("alice", action="undo")
    assert refused.status_code == 403 and "only the GM takes it back" in refused.text
    assert "\n" not in refused.text.strip() and table.log() == before
    fracas(table.db, "undo")  # the GM's, as before
    typed = table.tap("alice", action="attack", targets=["cultist"], dice=[95, 5])
    assert typed.status_code == 200, typed.text
    assert table.tap("alice", action="undo").status_code == 200


def test_the_fight_moving_on_first_is_a_409_with_one_line_and_no_lost_step(
    table: Table,
) -> None:
    seen = table.seen("alice")
    fracas(table.db, "note", "the GM was quicker")
    token = table.tokens["alice"]
    late = table.client.post(
        f"/p/{token}/act",
        json={"seen": seen, "command_id": uuid.uuid4().hex, "action": "aim"},
        headers={"X-Fracas-Token": token},
    )
    assert late.status_code == 409 and late.text.count("\n") == 1
    assert "moved on" in late.text
    assert json.loads(table.log())[-1]["author"] == "gm"
    assert table.tap("alice", action="aim").status_code == 200  # the fresh state, tapped again


@pytest.mark.slow
def test_a_player_and_the_gm_at_once_one_lands_the_other_is_told(table: Table) -> None:
    """Twelve rounds of the GM's console and Alice's phone firing together: every answer is
    a 200 or a 409 with one line, and every 200 is a step in the log."""
    gm = {"X-Fracas-Token": table.running.token}
    answers: Counter[int] = Counter()
    for _ in range(12):
        time.sleep(0.3)  # a player's pace: under the rate limit
        seen = table.seen("alice")
        token = table.tokens["alice"]
        results: list[httpx.Response] = []

        def phone(seen: int = seen, token: str = token, results: list = results) -> None:
            results.append(
                table.client.post(
                    f"/p/{token}/act",
                    json={"seen": seen, "command_id": uuid.uuid4().hex, "action": "aim"},
                    headers={"X-Fracas-Token": token},
                )
            )

        thread = threading.Thread(target=phone)
        thread.start()
        said = table.client.post("/gm/e/motel/command", json={"line": "note tick"}, headers=gm)
        thread.join()
        assert said.json()["ok"]
        for result in results:
            assert result.status_code in (200, 409), result.text
            answers[result.status_code] += 1
        for _ in range(5):  # on to Alice's next turn
            if 'data-acting="yes"' in table.client.get(f"/p/{token}/panel").text:
                break
            table.client.post("/gm/e/motel/command", json={"line": "next"}, headers=gm)
    steps = json.loads(table.log())
    aims = [s for s in steps if s["author"] == "alice" and s["control"] == "command"]
    assert len(aims) == answers[200]
    assert len([s for s in steps if s["author"] == "gm"]) >= 12


def player_routes(token: str) -> list[tuple[str, str]]:
    return [
        ("GET", f"/p/{token}"),
        ("GET", f"/p/{token}/panel"),
        ("GET", f"/p/{token}/screen"),
        ("GET", f"/p/{token}/screen?step=1"),
        ("GET", f"/p/{token}/step/1"),
        ("GET", f"/p/{token}/stream"),
        ("POST", f"/p/{token}/act"),
    ]


GM_ROUTES = [
    ("GET", "/gm"),
    ("GET", "/gm/e/motel"),
    ("GET", "/gm/e/motel/screen"),
    ("GET", "/gm/e/motel/step/1"),
    ("GET", "/gm/e/motel/stream"),
    ("GET", "/gm/e/motel/links"),
    ("POST", "/gm/e/motel/command"),
    ("POST", "/gm/e/motel/invite"),
    ("POST", "/gm/e/motel/revoke"),
    ("POST", "/gm/e/motel/pending/x/approve"),
]


@pytest.mark.slow
def test_the_security_matrix_accepts_nothing_it_should_not(table: Table) -> None:
    """Every route with no token, the wrong character's token, a revoked token, a player's
    token on the GM's routes, and a forged form: every answer a 4xx with one line, no 5xx,
    and the log untouched. (Alice acts now; Bob, the cultist and strangers may not.)"""
    alice, bob, revoked = (table.tokens[w] for w in ("alice", "bob", "cultist"))
    nobody = "x" * 43
    aim = {"seen": table.seen("alice"), "command_id": uuid.uuid4().hex, "action": "aim"}
    attempts: list[tuple[str, str, dict[str, Any]]] = []
    for token in (nobody, revoked, ""):
        for method, path in player_routes(token):
            attempts.append((method, path, {"json": aim, "headers": {"X-Fracas-Token": token}}))
    for method, path in player_routes(bob)[-1:]:  # Bob's token, on Alice's turn
        attempts.append((method, path, {"json": aim, "headers": {"X-Fracas-Token": bob}}))
    as_alice = aim | {"fields": {"actor": "alice"}}
    attempts += [
        ("POST", f"/p/{bob}/act", {"json": as_alice, "headers": {"X-Fracas-Token": bob}}),
        ("POST", f"/p/{bob}/act", {"json": aim, "headers": {"X-Fracas-Token": alice}}),
        ("POST", f"/p/{alice}/act", {"json": aim, "headers": {"X-Fracas-Token": bob}}),
        # forged: a form of another site carries no header (and cannot set one)
        ("POST", f"/p/{alice}/act", {"data": {"action": "aim", "seen": "6"}}),
        ("POST", f"/p/{alice}/act", {"content": json.dumps(aim)}),
        (
            "POST",
            f"/p/{alice}/act",
            {"content": "action=aim", "headers": {"Content-Type": "text/plain"}},
        ),
        # a player may not set what is the GM's (modifiers) or act as the GM
        (
            "POST",
            f"/p/{alice}/act",
            {
                "json": aim | {"action": "gm.harm", "fields": {"amount": 3}},
                "headers": {"X-Fracas-Token": alice},
            },
        ),
        (
            "POST",
            f"/p/{alice}/act",
            {"json": aim | {"fields": {"modifiers": "+40"}}, "headers": {"X-Fracas-Token": alice}},
        ),
    ]
    for token in (alice, bob, revoked, nobody):
        for method, path in GM_ROUTES:
            body = {"line": "undo"} if path.endswith("command") else {"combatant": "alice"}
            attempts.append((method, path, {"json": body, "headers": {"X-Fracas-Token": token}}))
            attempts.append((method, path + f"?token={token}", {"json": body}))
    before = table.log()
    statuses: Counter[int] = Counter()
    for method, path, extra in attempts:
        if path.endswith("/stream") and method == "GET":
            with table.client.stream(method, path, **extra) as response:
                status, text = response.status_code, response.read().decode()
        else:
            response = table.client.request(method, path, **extra)
            status, text = response.status_code, response.text
        statuses[status] += 1
        assert 400 <= status < 500, (method, path[:60], status, text[:200])
        assert text.strip() and "\n" not in text.strip(), (path[:60], text[:200])
        time.sleep(0.02)  # under the rate limit: each refusal is the route's own
    assert table.log() == before
    assert sum(statuses.values()) == len(attempts) >= 100
    print(f"security matrix: {len(attempts)} requests, {dict(statuses)}, 0 accepted, 0 5xx")


@pytest.mark.slow
def test_a_phone_reads_only_what_the_players_screen_shows(tmp_path: Path) -> None:
    """Two fights differing only in a GM-only roll: every route of a player's phone reads
    the same in both, and neither names the hidden lurker."""
    seen = []
    for faces in ("12,3", "95"):
        db = tmp_path / f"f{faces[:2]}.db"
        motel(db)
        fracas(db, "act", "alice", "aim")
        fracas(db, "act", "cultist", "attack", "bob", "--dice", faces, "--secret")
        fracas(db, "add", "lurker", "--sheet", str(SHEETS / "cultist.toml"), "--hidden")
        token = invited(db, "bob")
        with served(db) as running, httpx.Client(base_url=running.root) as client:
            read = {}
            for method, path in [*player_routes(token)[:-2], ("GET", f"/p/{token}/step/7")]:
                read[path.replace(token, "T")] = client.request(method, path).text
            with client.stream("GET", f"/p/{token}/stream") as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        read["stream"] = json.loads(line[6:])["html"]
                        break
        read = {
            # the page's mark of the log is a keyed hash: it differs, and tells nothing
            k: re.sub(
                r'<code>[^<]*</code>|sha256:[0-9a-f]+|data-seen="[0-9]+"', "", v.replace(token, "T")
            )
            for k, v in read.items()
        }
        assert not any("lurker" in v for v in read.values())
        seen.append(read)
    assert seen[0] == seen[1]
    assert "GM-only" in seen[0]["/p/T"]


@pytest.mark.slow
def test_a_revoked_link_stops_at_its_next_request_and_its_stream_closes(table: Table) -> None:
    bob = table.tokens["bob"]
    assert table.client.get(f"/p/{bob}").status_code == 200
    closed = threading.Event()
    first = threading.Event()

    said: list[str] = []

    def listen() -> None:
        with httpx.stream("GET", f"{table.running.root}/p/{bob}/stream", timeout=30) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    first.set()
                said.append(line)
        closed.set()

    threading.Thread(target=listen, daemon=True).start()
    assert first.wait(10)
    fracas(table.db, "invite", "--revoke", "bob")
    refused = table.client.get(f"/p/{bob}")
    assert refused.status_code == 403
    assert refused.text.strip() == "The GM has ended this link: ask the GM for a new one."
    assert closed.wait(5)
    # the stream's last message says so, for the page to stop at once, not to retry
    assert said[-3:-1] == ["event: gone", "data: " + refused.text.strip()], said[-4:]
    unknown = table.client.get("/p/" + "x" * 43)
    assert unknown.status_code == 403 and "check it, or ask the GM" in unknown.text


@pytest.mark.slow
def test_a_flood_from_one_phone_is_held_back_and_the_others_are_not(table: Table) -> None:
    alice, bob = table.tokens["alice"], table.tokens["bob"]
    flood: Counter[int] = Counter()
    stop = threading.Event()

    def hammer() -> None:
        with httpx.Client(base_url=table.running.root, timeout=10) as own:
            while not stop.is_set():
                flood[own.get(f"/p/{alice}/panel").status_code] += 1

    threads = [threading.Thread(target=hammer) for _ in range(6)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30  # however loaded the machine, till alice is held back
    while not flood[429] and time.monotonic() < deadline:
        time.sleep(0.05)
    answers = [table.client.get(f"/p/{bob}/panel").status_code for _ in range(10)]
    stop.set()
    for thread in threads:
        thread.join()
    assert flood[429] > 0 and set(flood) <= {200, 429}
    assert answers == [200] * 10  # bob's link is not held back by alice's flood
    held = table.client.get(f"/p/{alice}/panel")
    assert held.status_code in (200, 429)


@pytest.mark.slow
def test_with_the_gms_nod_a_players_step_waits_outside_the_log(tmp_path: Path) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    tokens = {"alice": invited(db, "alice")}
    with served(db, "--player-steps", "nod") as running:
        table = Table(db, running, tokens)
        gm = {"X-Fracas-Token": running.token}
        before = table.log()
        asked = table.tap("alice", action="aim")
        assert asked.json() == {"ok": True, "pending": True}
        assert table.log() == before
        links = table.client.get("/gm/e/motel/links", headers=gm).text
        waiting = re.findall(r'data-pending="(\w+)"', links)
        assert waiting and "alice aim" in links
        assert "Waiting for the GM" in table.client.get(f"/p/{tokens['alice']}/panel").text
        player = table.client.post(
            f"/gm/e/motel/pending/{waiting[0]}/approve",
            headers={"X-Fracas-Token": tokens["alice"]},
        )
        assert player.status_code == 403
        approved = table.client.post(f"/gm/e/motel/pending/{waiting[0]}/approve", headers=gm)
        assert approved.status_code == 200, approved.text
        last = json.loads(table.log())[-1]
        assert last["author"] == "alice" and last["events"][0]["command"]["action"] == "aim"
        again = table.client.post(f"/gm/e/motel/pending/{waiting[0]}/approve", headers=gm)
        assert again.status_code == 404
        table.client.close()


@pytest.mark.slow
def test_the_gm_page_invites_and_revokes_with_a_qr_code(table: Table) -> None:
    gm = {"X-Fracas-Token": table.running.token}
    made = table.client.post("/gm/e/motel/invite", json={"combatant": "bob"}, headers=gm)
    assert made.status_code == 200
    link = made.json()["link"]
    assert "/p/" in link and made.json()["svg"].startswith("<svg")
    token = link.rsplit("/p/", 1)[1]
    assert table.client.get(f"/p/{token}").status_code == 200
    gone = table.client.post("/gm/e/motel/revoke", json={"combatant": "bob"}, headers=gm)
    assert gone.json()["revoked"] == 2  # the one from the command line too
    assert table.client.get(f"/p/{token}").status_code == 403
    listed = table.client.get("/gm/e/motel/links", headers=gm).text
    assert listed.count("revoked") >= 3


@pytest.mark.slow
def test_serve_speaks_tls_with_a_certificate_and_key(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    db = tmp_path / "motel.db"
    motel(db)
    token = invited(db, "alice")
    with served(db, "--certfile", str(cert), "--keyfile", str(key)) as running:
        assert running.players.startswith("https://")
        trusted = ssl.create_default_context(cafile=str(cert))
        with httpx.Client(base_url=running.root, verify=trusted) as client:
            assert client.get(f"/p/{token}").status_code == 200
            gm = client.get(running.gm, follow_redirects=False)
            assert "; secure" in gm.headers["set-cookie"].lower()  # never sent over plain HTTP
        with pytest.raises(httpx.HTTPError):
            httpx.get(running.root.replace("https", "http") + f"/p/{token}", timeout=3)
    alone = fracas(db, "serve", "--certfile", str(cert), check=False)
    assert alone.returncode == 2 and "go together" in alone.stderr
    broken = fracas(db, "serve", "--certfile", str(key), "--keyfile", str(key), check=False)
    assert broken.returncode == 1 and broken.stderr.count("\n") == 1


@pytest.mark.slow
def test_a_phones_attack_on_an_invited_player_waits_for_their_answer(table: Table) -> None:
    """Alice attacks Bob, who holds a link: the attack waits; Alice may not answer for him;
    Bob answers from his phone and the attack is decided in his step."""
    assert table.tap("alice", action="attack", targets=["bob"], dice=[5]).status_code == 400
    asked = table.tap("alice", action="attack", targets=["bob"])
    assert asked.status_code == 200, asked.text
    assert "reaction" in json.loads(table.log())[-1]["lines"][-1]
    panel = table.client.get(f"/p/{table.tokens['bob']}/panel").text
    assert 'data-choice="dodge"' in panel and 'data-choice="none"' in panel
    before = table.log()
    for_him = table.tap("alice", action="answer", fields={"choice": "none"})
    assert for_him.status_code == 403 and "no attack waits for alice" in for_him.text
    bad = table.tap("bob", action="answer", fields={"choice": "cartwheel"})
    assert bad.status_code == 400 and bad.text.count("\n") == 1
    assert table.log() == before
    answered = table.tap("bob", action="answer", fields={"choice": "dodge"})
    assert answered.status_code == 200, answered.text
    last = json.loads(table.log())[-1]
    assert last["author"] == "bob" and "bob reacts: dodge (answered by bob)" in last["lines"]
    assert fracas(table.db, "audit").returncode == 0


@pytest.mark.slow
def test_an_unanswered_attack_takes_the_rules_default_at_the_gms_deadline(
    tmp_path: Path,
) -> None:
    db = tmp_path / "motel.db"
    motel(db)
    tokens = {who: invited(db, who) for who in ("alice", "bob")}
    with served(db, "--reaction-wait", "1") as running:
        table = Table(db, running, tokens)
        assert table.tap("alice", action="attack", targets=["bob"]).status_code == 200
        for _ in range(40):
            time.sleep(0.25)
            last = json.loads(table.log())[-1]
            if last["author"] == "clock":
                break
        assert last["author"] == "clock", last["lines"]  # the server's, not the GM's
        assert last["events"][0]["command"]["action"] == "timeout"
        table.client.close()
