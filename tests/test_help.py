"""Help that starts somewhere: `fracas --help` under headings, `fracas actions` without
repeats, `help` inside `fracas play`, and what Tab offers."""

import inspect
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from fracas.cli.app import SHORT
from fracas.cli.main import COMMANDS, App, cli
from fracas.cli.sections import OTHER, SECTIONS
from fracas.cli.shell import NOT_HERE, Completion, Session
from fracas.projections import catalog
from fracas.rules import available, load


def every_command(group: click.Group, path: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((f"{path}{name}", command))
        if isinstance(command, click.Group):
            found += every_command(command, f"{path}{name} ")
    return found


def test_every_command_has_help_and_a_heading() -> None:
    placed = [name for listed in SECTIONS.values() for name in listed]
    assert sorted(placed) == sorted(cli.commands), "each command under exactly one heading"
    for name, command in every_command(cli):
        assert (command.help or "").strip(), f"{name} has no help"
        assert len(command.get_short_help_str(56)) <= 56, name
        assert not command.get_short_help_str(56).endswith("..."), f"{name}: summary cut"


def test_every_command_and_subcommand_has_a_summary_and_a_docstring() -> None:
    """`fracas --help` lists a command by its summary, `fracas help NAME` says the rest: each
    command (a subcommand of `party` and `condition` too) has both, written for it."""
    for name, command in every_command(cli):
        function = inspect.unwrap(command.callback) if command.callback else None
        assert function is not None and inspect.getdoc(function), f"{name}: no docstring"
        assert command.get_short_help_str(80).strip(), f"{name}: no summary"


def test_the_table_of_contents_names_every_command_where_it_is() -> None:
    """cli/main.py's list: each command by its name, in the module it names."""
    for name, where in COMMANDS.items():
        module, function = where.split(":")
        command = cli.commands[name]
        assert command.name == name
        assert command.callback.__module__ == f"fracas.cli.commands.{module}", name
        assert inspect.unwrap(command.callback).__name__ == function, name
    assert sorted(cli.commands) == sorted(COMMANDS)


def test_a_command_imports_only_its_own_module_of_commands(run) -> None:
    """`fracas status --json` run as a process loads status.py, not the commands it does
    not run nor the options they share (nor the reactions' screen, the web stack, the
    shell, the QR codes, PostgreSQL's driver, rich, the rulesets or the package metadata
    that finds them, or numpy, which sqlite-utils would load where the srd plugin's
    bestiary package brought it in)."""
    run("new")
    run("add", "bob", "--set", "hp=5")
    probe = (
        "import sys\n"
        "from fracas.cli.main import cli\n"
        f"try: cli(['--db', {run.db!r}, 'status', '--json'])\n"
        "except SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('fracas.cli.commands.', "
        "'fracas.cli.options', 'fracas.projections.asking', 'starlette', 'jinja2', "
        "'uvicorn', 'prompt_toolkit', 'segno', 'psycopg', 'hypothesis', 'rich', "
        "'importlib.metadata', 'fracas.rules.percentile', 'fracas.rules.pool', "
        "'fracas.rules.shotclock', 'fracas.rules.timeslice', 'fracas.rules.fudge', "
        "'fracas_srd', 'numpy'))), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    loaded = done.stderr.strip().splitlines()[-1]
    assert loaded == "['fracas.cli.commands.status']", done.stderr


def test_fracas_help_lists_the_commands_under_headings_in_order() -> None:
    out = CliRunner().invoke(cli, ["--help"], terminal_width=80).output
    headings = [line[:-1] for line in out.splitlines() if line.endswith(":") and line[0] != " "]
    assert headings == ["Options", *SECTIONS]
    assert OTHER not in out and "Commands:" not in out
    start = out.split("Start here:")[1].split("\n\n")[0]
    assert [line.split()[0] for line in start.splitlines() if line.strip()] == list(
        SECTIONS["Start here"]
    )
    assert max(len(line) for line in out.splitlines()) <= 80


# -- `fracas actions`: a flag several actions take, once ------------------------------------


@pytest.mark.parametrize("name", available())
def test_actions_lists_each_shared_flag_once_and_every_flag_of_every_action(name: str) -> None:
    ruleset = load(name)
    text = CliRunner().invoke(cli, ["actions", "-r", name]).output
    found = catalog.actions(ruleset)
    groups, own = catalog.shared(found)
    for flag in (flag for group in groups for flag in group.flags):
        line = f"    {flag.flag:<32} {flag.accepts}"
        default = f" (default {flag.default})".replace("True", "true").replace("False", "false")
        said = [x for x in text.splitlines() if x in (line, line + default)]
        assert len(said) == 1, (flag, said)
    for action, kept in zip(found, own, strict=True):
        listed = {f.flag for f in kept.flags} | {
            f.flag for g in groups if action.name in g.actions for f in g.flags
        }
        assert listed == {f.flag for f in action.flags}, action.name
    assert len(text.splitlines()) < 140  # srd: 215 before flags were listed once


@pytest.mark.parametrize("name", available())
def test_actions_says_in_words_what_every_flag_of_every_action_sets(name: str) -> None:
    """pool's -o shares=, -o keep=, -o desperate= (and a field of most rulesets) were listed
    with their type alone: the GM had to read the rules' code to learn what they set."""
    lines = CliRunner().invoke(cli, ["actions", "-r", name]).output.splitlines()
    flag_lines = [i for i, line in enumerate(lines) if line.startswith("    -")]
    assert flag_lines
    unsaid = [
        lines[i].split()[0:2]
        for i in flag_lines
        if i + 1 == len(lines) or not lines[i + 1].startswith(" " * 37) or not lines[i + 1].strip()
    ]
    assert unsaid == [], f"{name}: flags without a line of help: {unsaid}"


def test_a_spell_takes_no_weapon_in_srd(run) -> None:
    text = run("actions", "-r", "srd").output
    cast = text.split("\ncast:")[1].split("\n")[1]
    assert "(and the shared flags above)" in cast
    weapon_takers = next(line for line in text.splitlines()[1:] if "-w WEAPON" in line)
    assert "cast" not in text.splitlines()[text.splitlines().index(weapon_takers) - 1]
    assert "weapon" not in load("srd").fields_of("cast")


# -- `help` inside `fracas play`, and what Tab offers ---------------------------------------

SAMPLES = Path(__file__).parent.parent / "plugins" / "srd" / "fracas_srd" / "samples"


@pytest.fixture
def srd_session(tmp_path: Path):
    """Maelis (a cleric with spells) and a wyrm (legendary options), begun; in `play`."""
    db = str(tmp_path / "fight.db")
    runner = CliRunner()
    for args in (
        ["new", "-r", "srd", "--id", "crypt"],
        ["add", "maelis", "--sheet", f"{SAMPLES}/cleric.toml", "--side", "pc"],
        ["add", "wyrm", "--sheet", f"{SAMPLES}/wyrm.toml"],
        ["begin", "--dice", "15,3"],
    ):
        assert runner.invoke(cli, ["--db", db, *args]).exit_code == 0
    app = App(db, None)
    yield Session(app, cli)
    app.close()


def test_help_in_play_lists_its_own_keys_and_only_the_commands_that_run_there(
    srd_session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    assert srd_session.run("help")
    text = capsys.readouterr().out
    keys = text.split("Keys of fracas play:")[1].split("\n\n")[0]
    for key, command in SHORT.items():
        assert f"  {key} " in keys and f"{command}: " in keys
    assert "ACTION ..." in keys and "quit" in keys
    commands = text.split("Keys of fracas play:")[1].split("\n\n", 1)[1]
    listed = set(commands.split())
    for name in NOT_HERE:
        assert name not in listed, name
    assert {"act", "undo", "log", "status", "condition"} <= listed
    assert "Usage: fracas [OPTIONS]" not in text
    assert srd_session.run("--help") and capsys.readouterr().out == text


def test_tab_offers_the_spells_and_options_on_the_actor_s_sheet(srd_session: Session) -> None:
    def offered(line: str) -> list[str]:
        return Completion(srd_session).candidates(line)

    spells = offered("act maelis cast wyrm -o spell=")
    assert "spell=bless" in spells and "spell=sacred flame" in spells
    assert offered("act maelis cast wyrm -o spell=gu") == ["spell=guiding bolt"]
    assert "spell=" in offered("act maelis cast wyrm -o ")
    assert "option=tail attack" in offered("act wyrm legendary maelis -o option=")
    assert offered("act wyrm attack maelis -w ") == load("srd").weapons_of(
        srd_session.live.state.fighters["wyrm"].sheet
    )
    assert offered("act maelis cast wyrm -o spell=") == [
        f"spell={name}" for name in catalog.offered(srd_session.live, "maelis", "cast", "spell")
    ]


@pytest.mark.sqlite_file
def test_shell_completion_of_fracas_offers_the_spells_on_the_sheet(srd_session: Session) -> None:
    db = Path(srd_session.app.db)
    assert "spell=bless" in click_completes(db, "fracas act maelis cast wyrm -o spell=")
    assert click_completes(db, "fracas act maelis cast wyrm -o spell=sac") == ["spell=sacred flame"]
    assert click_completes(db, "fracas act wyrm attack maelis -w b") == ["bite"]


def click_completes(db: Path, line: str) -> list[str]:
    """What bash's completion of `fracas` (click's) offers for the last word of `line`,
    one offer a line (a spell's name has spaces)."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(line.split(" ")) - 1),
        "_FRACAS_COMPLETE": "bash_complete",
        "FRACAS_DB": str(db),
    }
    fracas = str(Path(sys.executable).parent / "fracas")
    out = subprocess.run([fracas], env=env, capture_output=True, text=True).stdout
    return [item.split(",", 1)[1] for item in out.splitlines()]


def test_help_in_play_fits_a_40_line_screen_and_names_every_command_there(
    srd_session: Session, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "40")
    assert srd_session.run("help")
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) < 40 and max(map(len, lines)) <= 80, "\n".join(lines)
    words = set(" ".join(lines).split())
    assert {"act", "harm", "heal", "rename", "monsters", "rules", "audit"} <= words


def test_no_command_without_dice_says_by_is_recorded_with_typed_dice() -> None:
    """`undo --help` said --by was 'recorded with typed dice'; undo rolls none."""
    for name, command in every_command(cli):
        params = {p.name for p in command.params}
        by = next((p for p in command.params if p.name == "by"), None)
        if by is not None and "dice" not in params:
            assert "dice" not in (by.help or ""), f"{name} --by mentions dice it takes none of"
    undo = CliRunner().invoke(cli, ["undo", "--help"])
    assert "author" in undo.output
