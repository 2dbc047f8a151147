"""`fracas play` end to end in a pseudo-terminal, and what its completion offers."""

import os
import re
import subprocess
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from fracas.cli.main import App, cli
from fracas.cli.shell import Completion, Session
from fracas.ledger import BadInputError
from fracas.projections.replay import timeline
from tests.terminal import FRACAS, click_completes, set_up, spawn

pytestmark = pytest.mark.sqlite_file  # the SQLite file itself: its bytes, tools, processes


def hp_of(db: Path, who: str) -> int:
    out = subprocess.run(
        [FRACAS, "--db", str(db), "status", "--json"], capture_output=True, text=True, check=True
    ).stdout
    import json

    return next(w["current"] for w in json.loads(out)["wounds"] if w["combatant"] == who)


def test_a_whole_fight_in_the_shell(tmp_path):
    db, history = tmp_path / "fight.db", tmp_path / "history"
    set_up(db)
    child = spawn(db, history)

    # Completion: `attack b<Tab>` completes the only combatant starting with b.
    child.send("attack b")
    child.send("\t")
    # the completion is drawn before the rest is typed: on a busy machine, keys sent at once
    # reached the prompt before it, and the line went as typed ("attack b")
    child.expect(r"attack b(\x1b\[[0-9;?]*[a-zA-Z])*ob")
    # Alice's turn: she attacks with the pistol she holds. Without the Tab's "bob", no
    # combatant would match "b" and the line would be refused.
    child.send(" --dice 20,5\r")
    child.expect(r"Alice Reyes attacks bob: hit")
    child.expect("bob>")

    # A refusal: one line, and the session goes on.
    child.sendline("act alice attack bob")
    child.expect("Error: [^\r\n]*turn")
    child.expect("bob>")

    # Undo and redo by their short forms.
    child.sendline("u")
    child.expect("undid step 5")
    child.expect("alice>")
    child.sendline("r")
    child.expect("redid step 5")
    child.expect("bob>")

    # Another process appends; the next command sees it.
    hurt = hp_of(db, "bob")
    subprocess.run(
        [FRACAS, "--db", str(db), "harm", "bob", "2", "-m", "a second laptop"],
        check=True, capture_output=True,
    )  # fmt: skip
    child.sendline("s")
    child.expect(f"HP {hurt - 2}/10")
    child.expect("bob>")
    child.sendline("n")  # bob passes: a step on the refreshed log, no conflict
    child.expect("Round 2: Alice Reyes to act")
    child.expect("alice>")

    # Ctrl-C clears the line; Ctrl-D leaves.
    child.send("nonsense")
    child.sendcontrol("c")
    child.expect("alice>")
    child.sendline("s")
    child.expect("Round 2")
    child.expect("alice>")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "nonsense" not in child.before

    # History is kept across sessions.
    kept = history.read_text()
    assert "attack bob --dice 20,5" in kept and "act alice attack bob" in kept


def test_fracas_play_refuses_a_pipe_in_one_line(tmp_path):
    db = tmp_path / "fight.db"
    set_up(db)
    done = subprocess.run(
        [FRACAS, "--db", str(db), "play"], input="s\n", capture_output=True, text=True
    )
    assert done.returncode != 0
    assert done.stderr.strip() == (
        "Error: fracas play needs a terminal; pipe commands to `fracas` instead"
    )


@pytest.fixture
def session(tmp_path):
    db = tmp_path / "fight.db"
    set_up(db)
    app = App(str(db), None)
    yield Session(app, cli)
    app.close()


def offered(session: Session, line: str) -> list[str]:
    return Completion(session).candidates(line)


def test_completion_offers_commands_ids_actions_weapons_and_option_values(session):
    assert {"attack", "harm", "status", "u", "act"} <= set(offered(session, ""))
    assert "play" not in offered(session, "")
    assert offered(session, "har") == ["harm"]
    assert offered(session, "act ") == ["alice", "bob"]
    assert "attack" in offered(session, "act alice ")
    assert offered(session, "act alice attack bob -w ") == ["pistol"]
    assert offered(session, "act bob attack alice -w ") == ["knife"]
    assert "avoid_armor=" in offered(session, "act alice attack bob -o ")
    assert offered(session, "act alice attack bob -o avoid_armor=") == [
        "avoid_armor=true",
        "avoid_armor=false",
    ]
    assert "uncovered" in offered(session, "act alice attack bob --called ")
    assert offered(session, "attack ") == ["alice", "bob"]
    assert offered(session, "harm b") == ["bob"]
    assert "--reason" in offered(session, "harm bob 2 --")
    assert offered(session, "condition ") == ["set", "clear"]


def test_completion_offers_the_conditions_a_combatant_has_to_clear(session):
    session.run("condition set bob 'on fire'")
    assert offered(session, "condition clear bob ") == ["on fire"]


def test_a_bare_action_is_the_acting_combatants_with_what_they_hold(session):
    assert session.words("attack bob") == ["act", "alice", "attack", "bob", "--weapon", "pistol"]
    assert session.words("attack bob -w fists")[-2:] == ["-w", "fists"]
    assert session.words("n") == ["next"]


def test_a_line_naming_a_combatant_then_an_action_is_theirs_to_act(session):
    """An outside tester typed `wren attack goblin` on the GM's page and was asked whether
    they meant `return` (issue 37): a combatant's id then an action is `act` for them."""
    expanded = ["act", "alice", "attack", "bob", "--weapon", "pistol"]
    assert session.words("alice attack bob") == expanded
    assert session.words("bob attack alice")[:4] == ["act", "bob", "attack", "alice"]
    with pytest.raises(BadInputError, match="act alice attack"):
        session.words("alice atack bob")


def test_a_refused_line_in_the_shell_appends_nothing(session, capsys):
    version = session.live.version
    session.run("act bob attack alice")
    session.run("frobnicate")
    session.run("play")
    session.run("harm bob 'unclosed")
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("Error")]
    assert len(errors) == 4
    assert session.live.version == version
    assert re.match(r"refused: ", session.last)


def test_shell_completion_of_fracas_offers_ids_and_actions(tmp_path):
    db = tmp_path / "fight.db"
    set_up(db)
    assert click_completes(db, "fracas act ") == ["alice", "bob"]
    assert click_completes(db, "fracas act alice a") == ["attack", "aim"]
    assert click_completes(db, "fracas harm b") == ["bob"]
    assert click_completes(tmp_path / "none.db", "fracas harm ") == []


@pytest.fixture
def d20(tmp_path):
    db = tmp_path / "d20.db"
    samples = Path(__file__).parent.parent / "plugins" / "srd" / "fracas_srd" / "samples"
    runner = CliRunner()
    for args in (
        ["new", "-r", "srd"],
        ["add", "ilse", "--sheet", str(samples / "wizard.toml"), "--side", "pc"],
        ["add", "goblin", "--sheet", str(samples / "goblin.toml")],
        ["begin", "--dice", "20,1"],
    ):
        assert runner.invoke(cli, ["--db", str(db), *args]).exit_code == 0
    app = App(str(db), None)
    yield Session(app, cli)
    app.close()


@pytest.mark.parametrize(
    "line",
    [
        "cast goblin -o spell=magic",
        "act ilse cast goblin -o spell=magic",
        "act ilse cast goblin -o 'spell=magic",
        "act ilse cast goblin -o 'spell=magic mis",
    ],
)
def test_a_completed_value_with_a_space_is_quoted_and_runs_as_completed(d20, line):
    offers = Completion(d20).offers(line)
    assert ("'spell=magic missile'", offers[0][1]) in offers, offers
    completed = line[: len(line) + offers[0][1]] + "'spell=magic missile'"
    assert completed.endswith("-o 'spell=magic missile'"), completed
    version = d20.live.version
    d20.run(completed)
    assert d20.live.version > version, d20.last


def test_a_completed_word_without_a_space_is_left_unquoted(d20):
    assert Completion(d20).offers("act ilse att") == [("attack", -3)]
    assert Completion(d20).offers("harm g") == [("goblin", -1)]


def test_zsh_completion_of_act_offers_the_sheets_spells_after_the_equals(d20):
    db = d20.app.db
    env = {
        **os.environ,
        "COMP_WORDS": "fracas act ilse cast goblin -o spell=mag",
        "COMP_CWORD": "6",
        "_FRACAS_COMPLETE": "zsh_complete",
        "FRACAS_DB": str(db),
    }
    out = subprocess.run([FRACAS], env=env, capture_output=True, text=True).stdout
    assert "spell=magic missile" in out.splitlines()


def test_the_bar_stays_on_one_row_however_long_the_refusal(session, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    session.run("frobnicate-" + "y" * 100)
    bar = session.toolbar()
    assert session.last.startswith("refused: ") and len(session.last) > 40
    assert "\n" not in bar and len(bar) < 40 and bar.endswith("…"), bar
    monkeypatch.setenv("COLUMNS", "400")
    assert session.toolbar().endswith(session.last)


def test_an_option_error_in_the_shell_points_to_help_as_the_shell_spells_it(session, capsys):
    session.run("harm bob 2 --frobnicate")
    error = capsys.readouterr().err
    assert "(see 'help harm')" in error and "fracas harm --help" not in error, error


def test_the_bar_says_the_last_step_as_the_tvs_headline_does(d20, monkeypatch):
    """issue 37: the bar showed the step's last event line ("goblin takes 4 damage"), the
    TV its headline; a save spell's bar left the save unsaid. Both read one headline."""
    d20.run("act ilse cast goblin -o 'spell=burning hands' --dice 19,3,3,3")
    tv = [m.step for m in timeline(d20.live, players=True)][-1]
    assert d20.last == tv.headline == "ilse casts burning hands on goblin: goblin saves, 4 damage"
    monkeypatch.setenv("COLUMNS", "400")
    assert d20.toolbar().endswith(d20.last)


def test_a_bare_move_without_its_feet_is_refused_and_appends_nothing(d20, capsys):
    """Issue 40: a bare `move` in `fracas play` logged "spends 5 feet of movement": FEET
    forgotten is refused in one line, nothing appended."""
    version = d20.live.version
    d20.run("move")
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and "move FEET" in errors[0], errors
    assert d20.live.version == version
