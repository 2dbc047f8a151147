"""What a newcomer meets in the first hour, from the README and the docs on a fresh clone:
a mistyped command is a usage error, piped output carries no padding, a read command takes
--json, a refusal is one line."""

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from fracas.cli.main import cli
from tests.support import SHEETS, SIX


def invoke(db: Path, *args: str, ok: bool = True):
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert (result.exit_code == 0) == ok, result.output
    return result


def motel(db: Path) -> None:
    """The README's fight, begun: Alice, a cultist, Bob."""
    invoke(db, "new", "--id", "motel", "--title", "Lakeside Motel")
    invoke(db, "add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    invoke(db, "add", "cultist", "--sheet", str(SHEETS / "cultist.toml"))
    invoke(db, "add", "bob", "--set", "dex=9", "--set", "skills.dodge=50")
    invoke(db, "begin")


def test_a_mistyped_command_is_a_usage_error_naming_the_likely_one(tmp_path: Path) -> None:
    motel(tmp_path / "t.db")
    result = invoke(tmp_path / "t.db", "statsu", ok=False)
    assert result.exit_code == 2
    assert result.output.strip() == "Error: no command 'statsu'; did you mean status?"


@pytest.mark.sqlite_file  # another process reads the file
def test_piped_status_has_no_trailing_padding(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    motel(db)
    fracas = Path(sys.executable).parent / "fracas"
    shown = subprocess.run(
        [str(fracas), "--db", str(db), "status"], capture_output=True, text=True, check=True
    ).stdout
    assert "Round 1" in shown and "motel · percentile" in shown
    assert [line for line in shown.splitlines() if line != line.rstrip()] == []


def broken_fight(monkeypatch, db: Path) -> None:
    """A fight begun in `broken`: the percentile rules with a bug in their decide (on
    `wait`), as a plugin may have."""
    import dataclasses

    from fracas.rules import ruleset as registry

    def decide(state, command, ctx):
        if type(command).__name__ == "Wait":
            raise KeyError("y")
        return percentile.decide(state, command, ctx)

    percentile = registry.load("percentile")
    broken = dataclasses.replace(percentile, name="broken", decide=decide)
    monkeypatch.setitem(registry.REGISTERED, "broken", broken)
    invoke(db, "new", "-r", "broken")
    invoke(db, "add", "bob", "--set", "dex=9")
    invoke(db, "begin")


FAILED = "the ruleset broken failed on this step: KeyError 'y'; nothing was appended"


def test_a_ruleset_failing_on_a_step_is_one_line_in_play_which_goes_on(tmp_path, monkeypatch):
    from fracas.cli.main import App
    from fracas.cli.shell import Session

    db = tmp_path / "t.db"
    broken_fight(monkeypatch, db)
    app = App(str(db), None)
    session = Session(app, cli)
    step = session.live.history.head_step
    errors: list[str] = []
    monkeypatch.setattr("click.echo", lambda text="", err=False, **_: errors.append(str(text)))
    assert session.run("act bob wait") is True  # the session goes on
    assert errors == [f"Error: {FAILED} (FRACAS_DEBUG=1 shows where)"]
    assert session.live.history.head_step == step
    session.run("harm bob 1")
    assert session.live.history.head_step == step + 1
    app.close()


def test_a_ruleset_failing_on_a_step_is_one_line_from_the_command_line(tmp_path, monkeypatch):
    db = tmp_path / "t.db"
    broken_fight(monkeypatch, db)
    before = invoke(db, "log", "--json").output
    refused = invoke(db, "act", "bob", "wait", ok=False)
    assert refused.output.strip() == f"Error: {FAILED} (FRACAS_DEBUG=1 shows where)"
    assert invoke(db, "log", "--json").output == before
    monkeypatch.setenv("FRACAS_DEBUG", "1")
    traced = CliRunner().invoke(cli, ["--db", str(db), "act", "bob", "wait"])
    assert isinstance(traced.exception, KeyError)  # the traceback, for the ruleset's author


def test_every_read_command_takes_json(tmp_path: Path) -> None:
    """As the README says: head, turn, answer (who is waited on) and invite --list too."""
    db = tmp_path / "t.db"
    motel(db)
    head = json.loads(invoke(db, "head", "--json").output)
    assert head == {"encounter": "motel", "head": invoke(db, "head").output.strip()}
    turn = json.loads(invoke(db, "turn", "--json").output)
    assert turn == {"encounter": "motel", "turn": invoke(db, "turn").output.strip()}
    assert json.loads(invoke(db, "answer", "--json").output) == {"waiting": None}
    invoke(db, "act", "alice", "attack", "bob", "-w", "unarmed", "--ask")
    waiting = json.loads(invoke(db, "answer", "--json").output)["waiting"]
    assert waiting["attacker"] == "alice" and waiting["waiting_on"] == ["bob"]
    invoke(db, "invite", "bob", "--url", "http://127.0.0.1:8000", "--no-qr")
    invoke(db, "invite", "--revoke", "bob")
    (given,) = json.loads(invoke(db, "invite", "--list", "--json").output)["invites"]
    assert given["combatant"] == "bob" and given["revoked"] and given["given"]


def test_json_with_a_command_that_appends_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    motel(db)
    for args in (("answer", "--timeout", "--json"), ("invite", "bob", "--json")):
        said = invoke(db, *args, ok=False).output.strip()
        assert said.startswith("Error: ") and "--json" in said and len(said.splitlines()) == 1


def test_every_option_of_act_says_what_it_is() -> None:
    act = cli.commands["act"]
    assert [p.opts for p in act.params if isinstance(p, click.Option) and not p.help] == []


@pytest.mark.parametrize("ruleset", SIX)
def test_the_flags_fracas_act_has_of_its_own_are_described_in_every_ruleset(tmp_path, ruleset):
    """`fracas actions`: -w, --defence-weapon, --item, ... say what they are, not just "text"."""
    found = json.loads(invoke(tmp_path / "t.db", "actions", "-r", ruleset, "--json").output)
    own = {"weapon", "defence", "defence_weapon", "unaware", "item", "modifiers"}
    bare = {
        f["flag"]
        for action in found["actions"]
        for f in action["flags"]
        if f["field"] in own and not f["description"]
    }
    assert bare == set()


def test_a_players_field_is_described_for_the_gm_too(tmp_path) -> None:
    found = json.loads(invoke(tmp_path / "t.db", "actions", "-r", "percentile", "--json").output)
    (attack,) = [a for a in found["actions"] if a["name"] == "attack"]
    (shots,) = [f for f in attack["flags"] if f["field"] == "shots"]
    assert "one attack roll" in shots["description"]
    (move,) = [a for a in found["actions"] if a["name"] == "move"]
    (pace,) = [f for f in move["flags"] if f["field"] == "pace"]  # the players' line for it
    assert pace["description"] == "how fast you go: jog, run or sprint"


def test_counts_are_said_in_words_that_agree_with_them(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    motel(db)
    invoke(db, "act", "alice", "attack", "cultist", "-w", "pistol", "--dice", "90")
    copied = invoke(db, "copy", str(db), str(tmp_path / "copy.db")).output
    assert "copied 1 encounter, " in copied and " and 1 sealed seed to " in copied
    exported = invoke(db, "export", "--format", "md", "-o", str(tmp_path / "s.md")).output
    assert "exported 1 encounter as md" in exported
    audit = invoke(db, "audit").output
    assert "(encounter motel step 6)" in audit, audit


def test_a_removed_combatant_reads_removed_once(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    motel(db)
    invoke(db, "remove", "cultist", "--reason", "flees")
    (row,) = [line for line in invoke(db, "status").output.splitlines() if "cultist" in line]
    assert row.count("removed") == 1 and "removed: flees" in row, row


def test_tab_in_play_offers_no_removed_combatant_but_to_return(tmp_path: Path) -> None:
    from fracas.cli.main import App
    from fracas.cli.shell import Completion, Session

    db = tmp_path / "t.db"
    invoke(db, "new", "--id", "crypt")
    invoke(db, "add", "alice", "--sheet", str(SHEETS / "alice.toml"))
    invoke(db, "add", "cultist", "--sheet", str(SHEETS / "cultist.toml"), "--count", "3")
    invoke(db, "begin")
    invoke(db, "remove", "cultist-3", "--reason", "flees")
    app = App(str(db), None)
    offered = Completion(Session(app, cli)).candidates
    assert offered("attack cultist-") == ["cultist-1", "cultist-2"]
    assert offered("act alice attack cultist-") == ["cultist-1", "cultist-2"]
    assert offered("harm cultist-") == ["cultist-1", "cultist-2"]
    assert offered("return ") == ["cultist-3"]
    app.close()


def test_the_demo_names_fracas_plainly_when_the_one_on_path_is_the_one_run(tmp_path: Path):
    import os

    fracas = Path(sys.executable).parent / "fracas"
    for db, path, named in (
        ("on.db", str(fracas.parent), "fracas"),
        ("off.db", "/usr/bin:/bin", str(fracas)),
    ):
        env = {**os.environ, "PATH": path}
        said = subprocess.run(
            [str(fracas), "demo", "--db", db, "--quiet"],
            cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert f"`{named} --db {db} status` shows it" in said, said


def test_a_turn_that_begins_before_anyone_acts_says_it_begins(tmp_path: Path) -> None:
    """The 4dF turn opens before its initiative rolls: "Turn 1 begins", not "nobody to act"."""
    db = tmp_path / "t.db"
    invoke(db, "new", "-r", "fudge", "--id", "prize")
    invoke(db, "add", "p1", "--side", "pc", "--set", "skills.discipline=3")
    begun = invoke(db, "begin", "--dice", "1,1,0,0").output.splitlines()
    assert begun[2] == "  Turn 1 begins", begun


# An action of each ruleset that names no target, and one that does.
UNTARGETED = {
    "percentile": ("wait", "attack"),
    "shotclock": ("run", "attack"),
    "pool": ("evade", "attack"),
    "timeslice": ("move", "attack"),
    "fudge": ("move", "attack"),
    "srd": ("dash", "attack"),
}


@pytest.mark.parametrize("ruleset", SIX)
def test_an_action_that_takes_no_target_refuses_one_and_shows_none(tmp_path, ruleset):
    db = tmp_path / "t.db"
    alone, aimed = UNTARGETED[ruleset]
    invoke(db, "new", "-r", ruleset, "--id", "u")
    extra = ["--monster", "goblin"] if ruleset == "srd" else []
    invoke(db, "add", "a", *extra)
    invoke(db, "add", "b", *extra)
    before = invoke(db, "log", "--json").output
    said = invoke(db, "act", "a", alone, "b", ok=False).output.strip()
    assert said == f"Error: {alone} takes no targets; `fracas actions` lists what each action takes"
    assert invoke(db, "log", "--json").output == before
    listed = json.loads(invoke(db, "actions", "--json").output)["actions"]
    usage = {action["name"]: action["usage"] for action in listed}
    assert usage[alone] == f"fracas act ACTOR {alone}"
    assert usage[aimed] == f"fracas act ACTOR {aimed} [TARGET...]"
