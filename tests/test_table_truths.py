"""Small truths at the table: an ended fight has nobody acting, the global options work after
the subcommand as the README says, `fracas serve` shows the encounter it is given, and a
command with no log named says how to name one."""

import json
from pathlib import Path

import httpx
import pexpect
import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from tests.web import chromium, served


def invoke(*args: str, env: dict[str, str] | None = None, ok: bool = True):
    result = CliRunner().invoke(cli, list(args), env=env or {})
    assert (result.exit_code == 0) == ok, result.output
    return result


def two_fights(db: Path) -> None:
    for encounter, title in (("first", "The first fight"), ("second", "The second fight")):
        invoke("--db", str(db), "new", "--id", encounter, "--title", title)
        invoke("--db", str(db), "-e", encounter, "add", "bob", "--set", "dex=9")
        invoke("--db", str(db), "-e", encounter, "add", "eve", "--set", "dex=12")
        invoke("--db", str(db), "-e", encounter, "begin")


def test_an_ended_fight_has_no_acting_row(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    two_fights(tmp_path / "t.db")
    invoke("--db", db, "-e", "first", "end", "--reason", "they surrender")
    board = json.loads(invoke("--db", db, "-e", "first", "status", "--json").stdout)
    assert board["acting"] == [] and not [r for r in board["initiative"] if r["acting"]]
    shown = invoke("--db", db, "-e", "first", "status").stdout
    assert "has ended" in shown and not [line for line in shown.splitlines() if " > " in line]
    assert "acting" not in shown


def test_the_global_options_work_after_the_subcommand_too(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    two_fights(tmp_path / "t.db")
    before = invoke("--db", db, "-e", "first", "status", "--json").stdout
    after = invoke("status", "--json", "--db", db, "-e", "first").stdout
    assert before == after and json.loads(after)["encounter"] == "first"
    assert json.loads(invoke("status", "--json", f"--db={db}").stdout)["encounter"] == "second"
    invoke("harm", "bob", "2", "--db", db, "--encounter", "first", "--reason", "a fall")
    log = invoke("log", "-e", "first", "--db", db).stdout
    assert "a fall" in log
    assert "a fall" not in invoke("log", "--db", db, "-e", "second").stdout
    invoke("condition", "set", "eve", "shaken", "--db", db, "-e", "first")


def test_a_command_with_no_log_named_says_how_to_name_one(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    said = invoke("status", ok=False).output.strip()
    assert "FRACAS_DB" in said and "--db" in said and len(said.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.sqlite_file  # a served process reads the file the test wrote
@pytest.mark.parametrize("how", ["option", "env"])
def test_serve_shows_the_encounter_it_is_given(tmp_path: Path, monkeypatch, how: str) -> None:
    db = tmp_path / "t.db"
    two_fights(db)
    extra = ("-e", "first") if how == "option" else ()
    if how == "env":
        monkeypatch.setenv("FRACAS_ENCOUNTER", "first")
    with served(db, *extra) as server:
        page = httpx.get(server.players, timeout=10).text
    assert "The first fight" in page and "The second fight" not in page.split("<select")[0]


@pytest.mark.sqlite_file  # a served process reads the file the test wrote
@pytest.mark.browser
def test_the_tv_screen_shows_the_round_and_who_acts_large(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    two_fights(db)
    with served(db) as server, chromium() as browser:
        tv = browser.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(server.players + "?tv=1")
        tv.wait_for_selector("#screen .screen")
        size = "el => parseFloat(getComputedStyle(el).fontSize)"
        # the screen re-renders as the stream connects: measure once it has settled
        tv.wait_for_function(
            f"() => {{ const h = document.querySelector('.headline'); return h && "
            f"({size})(h) >= 1.5 * ({size})(document.body); }}",
            timeout=10_000,
        )
        headline, body = tv.evaluate(  # in one script: the screen may re-render between calls
            f"() => [({size})(document.querySelector('.headline')), ({size})(document.body)]"
        )
        assert "eve to act" in tv.locator(".headline").inner_text()
        assert headline >= 1.5 * body >= 36, (headline, body)


# -- `fracas play` and the CLI take the same words ----------------------------------------


@pytest.mark.sqlite_file  # `fracas play` runs as its own process, on the file the test wrote
def test_play_helps_names_its_undo_suggests_and_follows_another_process(tmp_path: Path) -> None:
    from tests.terminal import FRACAS, set_up, spawn

    db = tmp_path / "fight.db"
    set_up(db)
    child = spawn(db, tmp_path / "history")
    child.sendline("help act")
    child.expect("Usage: fracas act")
    child.expect("alice>")
    child.sendline("atack bob --dice 20,5")
    child.expect("did you mean attack")
    child.sendline("attack bobb --dice 20,5")
    child.expect("did you mean bob")
    child.sendline("attack bob --dice 20,5")
    child.expect("bob>")
    child.sendline("u")
    child.expect("undid step 5: Alice Reyes attacks bob")
    child.expect("alice>")
    # Another process acts: the waiting prompt follows it, with no key pressed.
    import subprocess

    subprocess.run(
        [FRACAS, "--db", str(db), "act", "alice", "aim"], check=True, capture_output=True
    )
    child.expect("bob>", timeout=10)
    child.sendline("act bob attack alice --defense dodge --dice 90")
    child.expect("a dodge uses the turn's action")  # --defense read as --defence
    child.expect("bob>")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["statu"], "did you mean status?"),
        (["act", "eve", "atack", "bob"], "did you mean attack?"),
        (["act", "eve", "attack", "bobb"], "did you mean bob?"),
        (["help", "conditon"], "did you mean condition?"),
    ],
)
def test_the_cli_suggests_what_a_typo_meant_in_one_line(tmp_path: Path, words, said) -> None:
    db = tmp_path / "t.db"
    two_fights(db)
    out = invoke("--db", str(db), "-e", "first", *words, ok=False).output.strip()
    assert said in out and len(out.splitlines()) == 1, out


def test_the_cli_takes_plays_words(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    two_fights(tmp_path / "t.db")
    assert "Usage: fracas act" in invoke("help", "act").output
    invoke("--db", db, "-e", "first", "act", "eve", "wait")
    assert invoke("--db", db, "-e", "first", "u").output.startswith("undid step 5: eve waits")
    assert invoke("--db", db, "-e", "first", "r").output.startswith("redid step 5: eve waits")
    assert "bob to act" in invoke("--db", db, "-e", "first", "s").output
