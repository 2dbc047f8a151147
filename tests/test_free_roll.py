"""`fracas roll`: a roll no rule applies, in every ruleset: one undoable step with its faces,
shown in the log, the replay and the report, GM-only with --secret, decided again by the
audit without drift."""

import io
import json
import re

import pytest

from fracas.cli.serve import Table
from fracas.cli.shell import Session, split_line
from fracas.projections import Fracas
from fracas.projections.screen import PLAYERS
from fracas.rules import FreeRoll
from fracas.rules.events import Commanded, Rolled
from fracas.rules.redecide import drift
from fracas.rules.ruleset import BUILTIN
from tests.casts import PLAIN


def two(fracas: Fracas, system: str) -> str:
    live = fracas.new(system, encounter="e1")
    fracas.add("alice", PLAIN[system], "e1", name="Alice Reyes", side="pc")
    fracas.add("bob", PLAIN[system], "e1", name="Bob")
    live.execute(live.ruleset.command({"action": "begin"}))
    return "e1"


@pytest.mark.parametrize("system", sorted(BUILTIN))
def test_every_ruleset_records_a_free_roll_as_one_undoable_step(fracas, system):
    e = two(fracas, system)
    live = fracas.encounter(e)
    view = live.view()
    out = live.execute(FreeRoll("2d20kh1+5", "perception"), dice=[4, 17])
    given, rolled = out.events
    assert isinstance(given, Commanded) and given.command["action"] == "roll"
    assert isinstance(rolled, Rolled) and (rolled.actor, rolled.purpose) == ("gm", "perception")
    assert (rolled.roll.faces, rolled.roll.kept, rolled.roll.total) == ([4, 17], [1], 22)
    assert live.view() == view, "a free roll changes nothing in the fight"
    by_alice = live.execute(
        live.ruleset.command({"action": "roll", "dice": "d6", "actor": "alice"})
    )
    assert by_alice.events[1].actor == "alice" and by_alice.events[1].purpose == "free roll"
    assert live.undo() == by_alice.step
    live.reveal()
    assert drift(live) == []
    assert fracas.audit().ok


def test_a_free_roll_goes_on_before_the_fight_and_after_it_ends(fracas):
    live = fracas.new("percentile", encounter="e1")
    live.execute(FreeRoll("d100", "weather"))
    live.execute(live.ruleset.command({"action": "gm.end"}))
    out = live.execute(FreeRoll("4d6dl1", "treasure"))
    assert len(out.events[1].roll.faces) == 4


def test_the_cli_rolls_logs_undoes_and_refuses_in_one_line(run):
    run("new", "--id", "e1", "--ruleset", "fudge")
    run("add", "sam", "--side", "pc")
    rolled = run("roll", "2d20kh1+5", "--reason", "perception", "--dice", "4,17", "--by", "sam")
    assert "sam rolls 2d20kh1+5 for perception: 17 [dropped 4] + 5 = 22; typed by sam" in (
        rolled.output
    )
    run("roll", "4d6dl1", "-m", "strength")
    log = json.loads(run("log", "--json").output)
    assert [s["step"] for s in log] == [1, 2, 3, 4]
    for bad, says in [
        (["roll", "4d6kh5"], "keep 1 to 4"),
        (["roll", "2d20kh1", "--dice", "17"], "those dropped too"),
        (["roll", "2dx"], "unknown dice"),
        (["roll", "d20", "--dice", "4,5"], "left over"),
        (["roll", "d20", "--by", "bad by"], "--by 'bad by' is neither gm nor a combatant"),
        (["roll", "d20", "--by", "sma"], "did you mean sam? give --by gm or one of: sam"),
    ]:
        refused = run(*bad, ok=False)
        assert refused.exit_code != 0 and len(refused.output.strip().splitlines()) == 1, bad
        assert says in refused.output
        assert "Traceback" not in refused.output
    assert len(json.loads(run("log", "--json").output)) == 4, "nothing appended when refused"
    assert "undid step 4" in run("undo").output
    replay = run("replay").output
    assert "sam rolls 2d20kh1+5 for perception: 17 [dropped 4] + 5 = 22; typed by sam" in replay
    report = run("export", "--format", "md").output
    assert r"sam rolls 2d20kh1+5 for perception: 22 (17 \[dropped 4\] + 5)" in report
    html = run("export", "--format", "html").output
    # the faces are drawn as dice (issue 37): the dropped one is marked and struck through
    dropped = '<span class="die dropped" title="dropped">4</span>'
    assert dropped + '<span class="die" title="kept">17</span>' in html
    assert re.search(r"\.die\.dropped \{[^}]*text-decoration: line-through", html)


def test_a_secret_free_roll_is_masked_for_players_and_taints_nothing(run):
    run("new", "--id", "e1")
    run("add", "alice", "--set", "dex=14", "--side", "pc")
    run("add", "bob", "--set", "dex=10")
    run("begin")
    run("roll", "2d20kh1", "--secret", "-m", "spot the trap", "--by", "alice", "--dice", "3,19")
    run("condition", "set", "alice", "blessed")
    seen = run("export", "--format", "md", "--for", "players").output
    assert "alice rolls: what it decided is GM-only" in seen
    faces = re.sub(r"sha256:[0-9a-f]+", "sha256:...", seen)  # a commitment may hold "19"
    assert "19" not in faces and "spot the trap" not in seen
    assert "alice is blessed" in seen, "a free roll reads and changes nothing: alice stays seen"
    gm = run("export", "--format", "md").output
    assert r"alice rolls 2d20kh1 for spot the trap: 19 (19 \[dropped 3\])" in gm
    run("disclose", "5")
    assert "spot the trap" in run("export", "--format", "md", "--for", "players").output


def test_a_free_roll_after_a_secret_step_stays_on_the_players_page(run):
    run("new", "--id", "e1")
    pistol = ['--set=weapons=[{name="pistol",kind="firearm",damage="1d10"}]']
    gun = ["--set", "skills.firearms=60", *pistol, "--set", 'holding=["pistol"]']
    run("add", "alice", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "bob", "--set", "dex=10", "--set", "hp=30")
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--dice", "30,5", "--secret")
    run("condition", "set", "bob", "bleeding")  # the same whatever the secret roll gave
    run("roll", "d20", "-m", "luck", "--by", "bob", "--dice", "12")
    seen = run("export", "--format", "md", "--for", "players").output
    assert "alice attacks bob: what it decided is GM-only" in seen
    assert "bob is bleeding" in seen and "bob takes" not in seen
    assert "bob rolls d20 for luck: 12" in seen


def test_a_free_roll_by_a_hidden_combatant_is_theirs_alone(run):
    run("new", "--id", "e1")
    run("add", "alice", "--set", "dex=14", "--side", "pc")
    run("add", "lurker", "--set", "dex=12", "--hidden")
    run("begin")
    run("roll", "d20", "-m", "stealth", "--by", "lurker")
    assert "stealth" not in run("export", "--format", "md", "--for", "players").output


def test_the_shell_and_the_gm_console_roll(tmp_path, capsys):
    from fracas.cli.main import App, cli

    db = tmp_path / "fight.db"
    fracas = Fracas(db)
    two(fracas, "timeslice")
    fracas.close()
    app = App(str(db), None)
    session = Session(app, cli)
    session.run("roll 2d20kl1 -m 'saving throw' --dice 15,6")
    assert "gm rolls 2d20kl1 for saving throw: 6 [dropped 15] = 6" in capsys.readouterr().out
    app.close()
    table = Table(str(db), "token")
    line = "roll 4d6dh1+2 --reason 'the GM rolls' --secret"
    done = table.command("e1", line, split_line(line))
    assert done["ok"] and "for the GM rolls" in done["output"]
    board = io.StringIO(table.render_screen("e1", PLAYERS))
    assert "the GM rolls" not in board.getvalue()
    table.reader.close() if table.reader is not None else None
    table.worker.shutdown()


def test_a_free_roll_by_a_hidden_combatant_whose_join_was_undone_is_theirs_alone(run):
    run("new", "--id", "e1")
    run("add", "alice", "--set", "dex=14", "--side", "pc")
    run("add", "lurker", "--set", "dex=12", "--hidden")
    run("undo")  # the join taken back: `lurker` is no combatant now, only a name
    refused = run("roll", "d20", "-m", "stealth", "--by", "lurker", ok=False)
    assert "--by 'lurker' is neither gm nor a combatant" in refused.output
    assert "give --by gm or one of: alice\n" in refused.output
    assert "lurker" not in run("export", "--format", "md", "--for", "players").output
