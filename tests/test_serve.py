"""The table's screen in a real browser: `fracas serve` as its own process, Debian's
headless Chromium driven by Playwright, commands given from other processes."""

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web import Served, fracas, secret_fight, served

DEMO_NPC_HEALTH = {"Knife cultist": "down", "Shotgun cultist": "bloodied"}


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    db = tmp_path / "demo.db"
    fracas(db, "demo", "--db", str(db), "--quiet")
    return db


@pytest.fixture
def server(demo: Path) -> Iterator[Served]:
    with served(demo) as running:
        yield running


def rows(page: Any) -> dict[str, dict[str, str]]:
    """The board as the page shows it: name -> order key, health and status."""
    found = {}
    for row in page.locator("#screen table.board tbody tr").all():
        name = row.locator("td.name").inner_text().replace("\xa0", " ").removesuffix(" npc").strip()
        found[name] = {
            "key": row.locator("td.key").inner_text(),
            "health": row.locator("td.health .words").inner_text(),
            "status": row.locator("td.status").inner_text(),
        }
    return found


@pytest.mark.browser
def test_the_players_page_shows_the_order_and_wounds_with_npc_health_as_descriptors(
    server: Served, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(server.players)
    assert page.locator("h2.headline").inner_text() == "Round 4 · Alice Reyes to act"
    board = rows(page)
    assert list(board) == ["Alice Reyes", "Knife cultist", "Marcus Bishop", "Shotgun cultist"]
    assert [r["key"] for r in board.values()] == ["DEX 14", "DEX 12", "DEX 11", "DEX 9"]
    assert board["Alice Reyes"]["health"] == "HP 12/12"
    assert board["Marcus Bishop"]["health"] == "HP 14/14"
    assert {n: board[n]["health"] for n in DEMO_NPC_HEALTH} == DEMO_NPC_HEALTH
    assert "pinned by Marcus Bishop" in board["Shotgun cultist"]["status"]
    assert "HP 3/11" not in page.content() and "HP 1/12" not in page.content()
    log = page.locator("ol.log").inner_text()
    # the log's line is the step's headline; its rolls are in the step's detail
    assert "Shotgun cultist tries to escape: stays pinned" in log
    head = fracas(server_db(server), "head").stdout.split()[0]
    assert page.locator("p.head code").inner_text() == head


def server_db(server: Served) -> Path:
    args = server.process.args
    return Path(args[args.index("--db") + 1])


@pytest.mark.browser
def test_a_command_from_another_process_updates_the_open_page_without_reload(
    server: Served, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(server.players)
    page.evaluate("window.notReloaded = true")
    fracas(server_db(server), "harm", "bishop", "3", "-m", "a falling beam")
    page.wait_for_function(
        "document.querySelector('tr[data-combatant=bishop] td.health .words').innerText"
        " === 'HP 11/14'",
        timeout=5000,
    )
    assert page.evaluate("window.notReloaded") is True
    assert "harms Marcus Bishop (a falling beam): 3 damage" in page.locator("ol.log").inner_text()
    assert page.locator("#scrub").get_attribute("max") == "17"


@pytest.mark.browser
def test_the_timeline_shows_the_fight_as_it_stood_and_opens_a_steps_replay(
    server: Served, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(server.players)
    page.locator("#scrub").fill("9")
    page.wait_for_selector(".screen.past[data-step='9']")
    assert page.locator(".banner").inner_text() == "As it stood after step 9 of 16"
    board = rows(page)
    assert board["Knife cultist"]["health"] == "hurt"  # down only after step 10
    assert "pinned" not in board["Shotgun cultist"]["status"]
    page.locator("#forward").click()
    page.wait_for_selector(".screen.past[data-step='10']")
    assert rows(page)["Knife cultist"]["health"] == "down"
    page.locator("#open-step").click()
    detail = page.locator("#detail article.detail[data-step='10']")
    detail.wait_for()
    text = detail.inner_text()
    assert "Alice Reyes attacks Knife cultist: 45 against 80%, success" in text
    assert "+20 aimed last turn" in text  # the modifier with its reason
    assert "typed by table" in text  # the roll's source
    assert "000-8" in text and "000-M9" in text  # the rule ids, each with its statement
    statements = detail.locator("dl.rules dd").all_inner_texts()
    assert statements and all(s.strip() for s in statements)
    page.locator("#live").click()
    page.wait_for_selector(".screen:not(.past)")
    assert rows(page)["Knife cultist"]["health"] == "down"


@pytest.mark.browser
def test_the_gm_page_acts_undoes_and_shows_a_refusal(server: Served, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.gm)
    assert page.url.endswith("/gm")  # the token went into a cookie, out of the address bar
    assert rows(page)["Shotgun cultist"]["health"] == "HP 3/11"  # the GM sees numbers
    page.fill("#line", "harm gunman 2 -m shrapnel")
    page.press("#line", "Enter")
    health = "document.querySelector('tr[data-combatant=gunman] td.health .words').innerText"
    page.wait_for_function(f"{health} === 'HP 1/11'", timeout=5000)
    page.locator("button[data-line=undo]").click()
    page.wait_for_function(f"{health} === 'HP 3/11'", timeout=5000)
    assert "The GM takes back step 17" in page.locator("ol.log").inner_text()
    page.fill("#line", "harm nobody 2")
    page.press("#line", "Enter")
    page.wait_for_function("document.querySelector('#refusal').innerText !== ''")
    refusal = page.locator("#refusal").inner_text()
    assert "nobody" in refusal and "\n" not in refusal.strip()
    steps = json.loads(fracas(server_db(server), "log", "--json").stdout)
    assert len(steps) == 18  # the harm and its undo; the refusal appended nothing


@pytest.mark.browser
def test_a_late_answer_does_not_wipe_a_newer_refusal(server: Served, browser: Any) -> None:
    """The GM presses Undo, then types a line the fight refuses before Undo's answer is
    back (a busy server): the refusal stays, and the line being typed is not cleared."""
    page = browser.new_page()
    page.goto(server.gm)
    page.evaluate(
        """() => {
          const fetched = window.fetch.bind(window);
          let first = true;
          window.fetch = async (...args) => {
            const late = first && String(args[0]).endsWith("/command");
            if (late) first = false;
            const response = await fetched(...args);
            if (late) await new Promise((done) => setTimeout(done, 1500));
            return response;
          };
        }"""
    )
    page.locator("button[data-line=undo]").click()
    page.fill("#line", "harm nobody 2")
    page.press("#line", "Enter")
    page.wait_for_function("document.querySelector('#refusal').innerText !== ''")
    page.fill("#line", "harm gunman")  # the GM goes on typing
    page.wait_for_timeout(2000)  # Undo's answer lands meanwhile
    assert "nobody" in page.locator("#refusal").inner_text()
    assert page.input_value("#line") == "harm gunman"


@pytest.mark.browser
def test_a_name_that_is_markup_shows_as_text(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "xss.db"
    fracas(db, "new", "-t", "<b>bold</b> fight")
    sheet = tmp_path / "s.toml"
    sheet.write_text("dex = 10\n")
    fracas(db, "add", "x", "--sheet", str(sheet), "--name", "<script>alert(1)</script>")
    with served(db) as running:
        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for url in (running.players, running.gm):
            page.goto(url)
            page.wait_for_selector("tr[data-combatant=x]")
            assert (
                page.locator("td.name").first.inner_text().startswith("<script>alert(1)</script>")
            )
            assert page.locator("h1").inner_text() == "<b>bold</b> fight"
            assert page.locator("h1 b").count() == 0
        fracas(db, "rename", "x", "<img src=x onerror=alert(2)>")
        page.wait_for_function(
            "document.querySelector('td.name').innerText.startsWith('<img')", timeout=5000
        )
        assert page.locator("td.name img").count() == 0
        assert dialogs == []


def test_nothing_changes_or_reads_secrets_without_the_token(server: Served) -> None:
    before = fracas(server_db(server), "log", "--json").stdout
    with httpx.Client(base_url=server.root) as client:
        name = json.loads(fracas(server_db(server), "encounters", "--json").stdout)[0]
        encounter = name["encounter"]
        command = f"/gm/e/{encounter}/command"
        assert client.post(command, json={"line": "undo"}).status_code == 403
        wrong = client.post(command, json={"line": "undo"}, headers={"X-Fracas-Token": "nope"})
        assert wrong.status_code == 403
    with httpx.Client(base_url=server.root, cookies={"fracas_gm": server.token}) as forged:
        cross_site = forged.post(
            command,
            content="line=undo",
            headers={"Origin": "http://evil.example", "Content-Type": "text/plain"},
        )
        assert cross_site.status_code == 403  # a cookie alone (a forged form) cannot act
    with httpx.Client(base_url=server.root) as client:
        for path in ("/gm", f"/gm/e/{encounter}", f"/gm/e/{encounter}/step/8"):
            assert client.get(path).status_code == 403
        assert client.get("/gm?token=wrong").status_code == 403
        assert client.get(f"/e/{encounter}/command").status_code in (404, 405)
        assert client.get("/static/..%2f..%2fmain.py").status_code == 404
        assert client.get("/static/../../cli/main.py").status_code == 404
    assert fracas(server_db(server), "log", "--json").stdout == before


def test_the_gm_token_in_a_header_acts(server: Served) -> None:
    with httpx.Client(base_url=server.root) as client:
        encounter = json.loads(fracas(server_db(server), "encounters", "--json").stdout)[0]
        done = client.post(
            f"/gm/e/{encounter['encounter']}/command",
            json={"line": "note 'the lights go out'"},
            headers={"X-Fracas-Token": server.token},
        ).json()
        assert done["ok"] and done["refusal"] == ""
        refused = client.post(
            f"/gm/e/{encounter['encounter']}/command",
            json={"line": "add y --sheet /etc/passwd"},
            headers={"X-Fracas-Token": server.token},
        ).json()
        assert not refused["ok"] and "--files DIR" in refused["refusal"]
    log = fracas(server_db(server), "log").stdout
    assert "note by the GM: the lights go out" in log


# -- secrets -----------------------------------------------------------------------------


def stream_first(root: str, path: str) -> str:
    with httpx.stream("GET", root + path, timeout=5) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                return line.removeprefix("data: ")
    raise AssertionError("no event")


def players_views(db: Path) -> dict[str, str]:
    with served(db) as running:
        pages = {
            "page": httpx.get(running.players).text,
            "stream": json.loads(stream_first(running.root, "/e/duel/stream"))["html"],
            "step 6": httpx.get(running.root + "/e/duel/step/6").text,
            "at 6": httpx.get(running.root + "/e/duel/screen?step=6").text,
        }
    return {k: re.sub(r"<code>[^<]*</code>", "<code></code>", v) for k, v in pages.items()}


@pytest.mark.slow
def test_the_players_page_and_stream_carry_no_secret_roll(tmp_path: Path) -> None:
    """Two fights differing only in a GM-only roll (a hit for 9, a miss): the players'
    page, stream, step replay and timeline are the same for both."""
    hit, miss = tmp_path / "hit.db", tmp_path / "miss.db"
    secret_fight(hit, "12,9")
    secret_fight(miss, "95")
    seen = players_views(hit), players_views(miss)
    assert seen[0] == seen[1]
    assert "GM-only" in seen[0]["page"]
    assert "HP 40/40" in seen[0]["page"]  # Alice's health as it stood before the secret roll
    with served(hit) as running:
        page = httpx.get(running.gm, follow_redirects=True).text
        assert "HP 31/40" in page and "12 against 60%" in page  # the GM sees it all
        fracas(hit, "disclose", "6")
        shown = httpx.get(running.players).text
        assert "HP 31/40" in shown and "12 against 60%" in shown


@pytest.mark.browser
def test_the_screen_fits_a_phone_and_grows_for_a_tv(server: Served, browser: Any) -> None:
    for url in (server.players, server.gm):
        phone = browser.new_page(viewport={"width": 360, "height": 740})
        phone.goto(url)
        phone.locator("#scrub").fill("11")
        phone.wait_for_selector(".screen.past")
        phone.locator("#open-step").click()
        phone.wait_for_selector("article.detail")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{url} overflows a phone: {width}px"
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    tv.goto(server.players + "?tv=1")
    tv.wait_for_selector("#screen .screen")
    size = tv.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert tv.evaluate("document.body.classList.contains('large')") and size >= 24
    tv.locator("#large").click()
    assert tv.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") < size


# -- hostile requests ----------------------------------------------------------------------


def encounter_of(server: Served) -> str:
    return json.loads(fracas(server_db(server), "encounters", "--json").stdout)[0]["encounter"]


def output_of(server: Served) -> str:
    """What the server printed, once it has stopped."""
    server.process.terminate()
    rest, _ = server.process.communicate(timeout=10)
    return rest


def test_every_bad_request_is_a_4xx_with_one_line_and_appends_nothing(server: Served) -> None:
    e = encounter_of(server)
    before = fracas(server_db(server), "log", "--json").stdout
    token = {"X-Fracas-Token": server.token}
    typed = token | {"Content-Type": "application/json"}  # read, then found not UTF-8
    deep = '{"line": ' * 50_000 + '"undo"' + "}" * 50_000
    bad: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", f"/e/{e}/screen?step=²", {}),  # a digit, but not an ASCII one
        ("GET", f"/e/{e}/screen?step=٣", {}),
        ("GET", f"/e/{e}/screen?step=" + "9" * 5000, {}),
        ("GET", f"/e/{e}/screen?step=-1", {}),
        ("GET", f"/e/{e}/step/" + "9" * 5000, {}),
        ("GET", f"/e/{e}/step/99999999999999999999", {}),
        ("GET", "/e/%00/screen", {}),
        ("POST", f"/gm/e/{e}/command", {"content": deep, "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"content": "[" * 100_000, "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"json": {"line": {"line": "undo"}}, "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"json": {"line": "note " + "x" * 5000}, "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"json": {"line": "note a\u0000b"}, "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"content": b"\xff\xfe", "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"content": b'{"line": "note \xff\xfe"}', "headers": typed}),
        ("POST", f"/gm/e/{e}/command", {"content": "undo", "headers": token}),
        ("POST", f"/gm/e/{e}/command", {"json": ["undo"], "headers": token}),
        ("PUT", f"/gm/e/{e}/command", {"json": {"line": "undo"}, "headers": token}),
        ("POST", f"/e/{e}/screen", {}),
    ]
    with httpx.Client(base_url=server.root, timeout=10) as client:
        for method, path, extra in bad:
            response = client.request(method, path, **extra)
            assert 400 <= response.status_code < 500, (path[:60], response.status_code)
            assert response.text.strip() and "\n" not in response.text.strip(), path[:60]
    assert fracas(server_db(server), "log", "--json").stdout == before
    assert "Traceback" not in output_of(server)


def test_a_huge_body_is_refused_before_it_is_read_and_other_screens_stay_live(
    server: Served,
) -> None:
    e = encounter_of(server)
    line = json.dumps({"line": "note " + "x" * 1_000_000})
    with (
        httpx.Client(base_url=server.root, timeout=10) as client,
        httpx.stream("GET", f"{server.root}/e/{e}/stream", timeout=10) as stream,
    ):
        lines = stream.iter_lines()
        assert next(line for line in lines if line.startswith("data: "))
        response = client.post(
            f"/gm/e/{e}/command", content=line, headers={"X-Fracas-Token": server.token}
        )
        assert response.status_code == 413 and "at most" in response.text
        assert response.elapsed.total_seconds() < 1  # refused at the header, not after 1 MB
        body = line.encode()
        chunked = client.post(  # no Content-Length: refused once 32 KiB have come
            f"/gm/e/{e}/command",
            content=iter([body[at : at + 8192] for at in range(0, len(body), 8192)]),
            headers={"X-Fracas-Token": server.token, "Content-Type": "application/json"},
        )
        assert chunked.status_code == 413 and "at most" in chunked.text
        fracas(server_db(server), "harm", "bishop", "3", "-m", "a falling beam")
        shown = json.loads(next(x for x in lines if x.startswith("data: ")).removeprefix("data: "))
        assert shown["steps"] == 17
    assert "Traceback" not in output_of(server)


def console(server: Served, line: str) -> dict[str, Any]:
    e = encounter_of(server)
    response = httpx.post(
        f"{server.root}/gm/e/{e}/command",
        json={"line": line},
        headers={"X-Fracas-Token": server.token},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_the_console_refuses_numbers_in_other_digits_in_one_line(server: Served) -> None:
    before = fracas(server_db(server), "log", "--json").stdout
    for line in ("harm bishop \u0661\u0662", "condition set bishop x --for \u00b2r -m y"):
        refused = console(server, line)
        assert not refused["ok"] and "\n" not in refused["refusal"].strip(), refused
    assert fracas(server_db(server), "log", "--json").stdout == before
    assert "Traceback" not in output_of(server)


@pytest.mark.slow
def test_the_console_writes_no_file_unless_the_gm_chose_a_directory(
    demo: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.db"
    with served(demo) as running:
        for line in (f"copy {demo} {outside}", "export -o report.md", "add y --sheet s.toml"):
            refused = console(running, line)
            assert not refused["ok"] and "--files" in refused["refusal"], line
            assert "\n" not in refused["refusal"]
        shown = console(running, "export --format md")  # to the page: no file at all
        assert shown["ok"] and "# " in shown["output"]
    assert not outside.exists() and not Path("report.md").exists()


def others(directory: Path) -> list[str]:
    """The files in DIRECTORY but the demo log's own (its WAL comes and goes)."""
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith("demo.db"))


@pytest.mark.slow
def test_the_console_reads_and_writes_only_inside_the_gms_directory(
    demo: Path, tmp_path: Path
) -> None:
    files = tmp_path / "files"
    files.mkdir()
    (files / "escape").symlink_to(tmp_path)
    (tmp_path / "s.toml").write_text("dex = 10\n")
    (files / "s.toml").write_text("dex = 10\n")
    around = others(tmp_path)
    with served(demo, "--files", str(files)) as running:
        assert console(running, "export --format md -o report.md")["ok"]
        tricks = [
            "export -o ../report.md",
            f"export -o {tmp_path / 'report.md'}",
            "export -o escape/report.md",
            f"copy escape/{demo.name} copy.db",
            "copy report.md ../copy.db",
            "copy report.md postgresql://localhost/fracas",
            "add y --sheet ../s.toml",
            "add y --sheet escape/s.toml",
            "export --format md --template ../s.toml",
            "export --format md --template s.toml",  # a template can run code: not here
            "audit --against /etc/passwd",
        ]
        for line in tricks:
            refused = console(running, line)
            assert not refused["ok"] and "\n" not in refused["refusal"].strip(), line
        assert console(running, "add y --sheet s.toml")["ok"]
        output = output_of(running)
    assert (files / "report.md").read_text().startswith("# ")
    assert sorted(p.name for p in files.iterdir()) == ["escape", "report.md", "s.toml"]
    assert others(tmp_path) == around
    assert "Traceback" not in output


@pytest.mark.slow
def test_the_console_never_writes_over_the_log_it_serves(demo: Path) -> None:
    log = fracas(demo, "log", "--json").stdout
    with served(demo, "--files", str(demo.parent)) as running:
        for name in (demo.name, f"{demo.name}-wal", f"{demo.name}.keys"):
            refused = console(running, f"export -o {name}")
            assert not refused["ok"] and "the log" in refused["refusal"], name
        assert console(running, f"copy {demo.name} backup.db")["ok"] is False
        assert "Traceback" not in output_of(running)
    assert fracas(demo, "log", "--json").stdout == log
    assert not (demo.parent / "backup.db").exists()
