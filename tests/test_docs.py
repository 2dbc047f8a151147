"""The README's and the docs' tours and examples run as written: the README's shell blocks,
then every page's in the site's order, pasted into one real zsh (bash where zsh is missing),
and each tour's outcome checked."""

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli.main import App, cli
from fracas.cli.shell import Session
from tests.pages import PAGES, README, ROOT, block_after, name_of, page, run_block

pytestmark = pytest.mark.sqlite_file  # the SQLite file itself: its bytes, tools, processes


@pytest.mark.parametrize(
    ("heading", "exported"),
    [("## A short tour", "motel.jsonl"), ("## The Lakeside Motel", "lakeside.jsonl")],
)  # the README's, the docs' own
def test_the_tour_runs_as_written(tmp_path, monkeypatch, heading, exported):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    runner, env = run_block(heading)
    assert (tmp_path / exported).exists()
    lines = block_after(heading, "sh").splitlines()  # `log` shows the undone step [UNDONE]
    assert lines.index("fracas undo") < lines.index("fracas log") < lines.index("fracas redo")
    console = block_after(heading, "console").splitlines()
    result = runner.invoke(cli, shlex.split(console[0].removeprefix("$ "))[1:], env=env)
    assert result.exit_code != 0 and result.output.strip() == console[1]


def test_the_readme_tour_and_set_up_are_the_docs_own():
    """The same fight, in a file of the tour's own: pasted after the README's, it runs."""
    own = block_after("## The Lakeside Motel", "sh").replace("lakeside.", "motel.")
    assert block_after("## A short tour", "sh") == own
    set_up = [b for b in re.findall(r"```sh\n(.*?)```", README.read_text(), re.S) if "pip" in b]
    assert len(set_up) == 2 and all(b in page("docs/getting-started.md") for b in set_up)


def test_the_python_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(block_after("# Python API", "python"), "docs/python.md", "exec"), {})


def test_the_shot_clock_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("## A shot-clock fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Sequence 1" in status and "continuous: driving" in status


def test_the_dice_pool_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("## A dice-pool fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Body" in status and "Round 2" in status


def test_the_time_slice_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")  # the docs' wide terminal: a row's figures unfolded
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    runner, env = run_block("## A time-slice fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Round 2" in status and "dying (4:54 left, heart wound: -2), staggered" in status
    assert "HP 7/30 DR 0 stagger 6/3" in status


def test_the_4df_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")  # the docs' wide terminal: a row's figures unfolded
    runner, env = run_block("## A 4dF fight")
    status = runner.invoke(cli, ["status"], env=env).output
    assert "Critically Wounded (5)" in status and "Pain Tolerance: no penalty" in status
    assert "Turn 1 · resolving" in status and "declared: attack p1 with the pistol" in status


def test_the_disputes_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, env = run_block("# Disputes, audit and exports")
    replayed = runner.invoke(cli, ["replay", "--turn", "2:alice"], env=env).output
    assert "+20 aimed last turn (000-6)" in replayed
    log = runner.invoke(cli, ["log"], env=env).output
    assert "supersedes step 9" in log
    assert "<del>" in (tmp_path / "session.html").read_text()
    assert (tmp_path / "restored.db").exists() and (tmp_path / "players.html").exists()


def pasted_blocks(each: Path) -> list[str]:
    """A page's shell blocks, in order (the README's from its set-up on); those that install
    packages (the set-up commands, which CI runs itself, and the extras) are left out, and so
    is the plugin's tour, which its own tests run (plugins/srd/tests/test_tour.py)."""
    text = each.read_text()
    if each == README:
        text = text[text.index("## Set up") :]
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [block for block in blocks if "pip install" not in block and "-r srd" not in block]


PASTED = [each for each in PAGES if pasted_blocks(each)]


def test_no_block_has_a_comment_or_an_unquoted_glob():
    """Pasted into an interactive zsh, `#` is not a comment and `[bob]` is a glob."""
    for each in PASTED:
        for block in pasted_blocks(each):
            for line in block.splitlines():
                bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", line)
                assert "#" not in bare, f"{name_of(each)}: {line}"
                globs = [w for w in bare.split() if re.search(r"[\[\]*?]", w) and w not in "[]"]
                assert not globs, f"{name_of(each)}: {line}"


def test_every_page_and_the_readme_have_blocks_to_paste():
    """The pages whose blocks the shells run: a page that lost its blocks is a page untested."""
    names = {name_of(each) for each in PASTED}
    for expected in ("README.md", "docs/getting-started.md", "docs/table.md", "docs/file.md"):
        assert expected in names


# What each page leaves behind once pasted, beyond every block exiting 0.
OUTCOMES: dict[str, tuple[list[str], list[str]]] = {  # page: (printed, files made)
    "README.md": (["Lakeside Motel"], ["motel.jsonl"]),
    "docs/getting-started.md": (["Night at the Lakeside Motel"], ["first.db"]),
    "docs/tours/percentile.md": (["hash chain: ok"], ["lakeside.jsonl"]),
    "docs/table.md": (["Round 1 · the encounter has ended", "command by alice"], ["crypt.db"]),
    "docs/disputes.md": (["hash chain: ok"], ["restored.db", "players.html"]),
    "docs/file.md": (["dealt"], ["table.db"]),
    "docs/postgresql.md": (["played on the server now", "hash chain: ok"], ["from-server.db"]),
}


def test_the_demo_hint_works_as_printed(tmp_path):
    fracas = str(Path(sys.executable).parent / "fracas")
    shown = subprocess.run(
        [fracas, "demo"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    hint = shown.strip().splitlines()[-1]
    assert hint.startswith("Try: ")
    command = hint.removeprefix("Try: ").split("    (")[0]
    log = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert log.returncode == 0 and "[UNDONE]" in log.stdout


def test_the_readme_stays_short_and_links_every_page():
    readme = README.read_text()
    assert len(readme.splitlines()) <= 250
    for each in PAGES[1:]:
        if each.name != "index.md":  # the site's home page is the README's opening
            assert f"({name_of(each)})" in readme, f"the README does not link {name_of(each)}"


def test_every_page_is_in_the_sites_navigation():
    site = (ROOT / "mkdocs.yml").read_text()
    for each in PAGES[1:]:
        assert each.relative_to(ROOT / "docs").as_posix() in site, name_of(each)


def written_by(block: str) -> list[str]:
    """The files a block's lines write at the repository root: `-o FILE`, `> FILE`."""
    return re.findall(r"(?:-o|>) ([\w.-]+\.(?:jsonl|json|md|html|log|csv))\b", block)


def test_what_the_pages_write_is_ignored_by_git():
    """Pasted into a clone, the docs leave no untracked file behind (the logs are *.db)."""
    written = {name for each in PASTED for b in pasted_blocks(each) for name in written_by(b)}
    assert {"motel.jsonl", "session.md", "phones.log"} <= written
    checked = subprocess.run(
        ["git", "check-ignore", "--no-index", *sorted(written)],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert sorted(checked.stdout.split()) == sorted(written)


SHELL = "zsh" if shutil.which("zsh") else "bash"


def pasted_into(shell: str, here: Path, blocks: str) -> subprocess.CompletedProcess[str]:
    """BLOCKS pasted into SHELL in HERE, a clone of the repository (its code linked), with
    the environment active and a home of its own; every block must exit 0."""
    for name in ("cli", "bench", "plugins"):
        (here / name).symlink_to(ROOT / name)
    (here / ".venv").symlink_to(Path(sys.prefix))
    script = here / "pasted.sh"
    script.write_text("set -e\n" + blocks)
    env = {k: v for k, v in os.environ.items() if not k.startswith("FRACAS_")}
    env["HOME"] = str(here)
    # its output to files, not pipes: a server a failed block left running cannot hold it open
    with open(here / "out.txt", "w+") as out, open(here / "err.txt", "w+") as err:
        pasted = subprocess.Popen(
            [shell, str(script)], cwd=here, env=env, stdout=out, stderr=err, start_new_session=True
        )
        try:
            pasted.wait(timeout=900)
        finally:
            with contextlib.suppress(ProcessLookupError):  # none left running
                os.killpg(pasted.pid, signal.SIGTERM)  # what its blocks left running
        out.seek(0), err.seek(0)
        done = subprocess.CompletedProcess(pasted.args, pasted.returncode, out.read(), err.read())
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


PAGE_MARK = "@@ pasted: "  # echoed before each page's blocks: what each page printed


def in_the_sites_order() -> list[Path]:
    """The README, then the site's pages as its navigation lists them: a newcomer's order."""
    nav = re.findall(r"([\w/.-]+\.md)", page("mkdocs.yml"))
    return [README, *(ROOT / "docs" / name for name in nav)]


@pytest.mark.slow
def test_the_readmes_blocks_work_pasted_in_order_into_bash_too(tmp_path):
    """The README says its blocks run in bash or zsh; the test below pastes into zsh."""
    done = pasted_into("bash", tmp_path, "".join(pasted_blocks(README)))
    assert "Lakeside Motel" in done.stdout and (tmp_path / "motel.jsonl").exists()


@pytest.mark.slow
@pytest.mark.postgres
def test_the_readme_then_every_page_pasted_in_order_into_one_shell_works(tmp_path):
    """A newcomer pastes the README's set-up and tour, then page after page, into one shell
    in one clone: every block exits 0, no page trips on the names (a file, an encounter)
    another page left set or made, each tour ends as it says, and a PostgreSQL server a page
    starts is stopped and cleaned up."""
    order = [each for each in in_the_sites_order() if pasted_blocks(each)]
    assert {name_of(each) for each in PASTED} == {name_of(each) for each in order}
    blocks = (f"echo '{PAGE_MARK}{name_of(p)}'\n" + "".join(pasted_blocks(p)) for p in order)
    done = pasted_into(SHELL, tmp_path, "".join(blocks))
    printed = dict(part.split("\n", 1) for part in done.stdout.split(PAGE_MARK)[1:])
    for name, (lines, made) in OUTCOMES.items():
        for line in lines:
            assert line in printed[name], f"{name}: {line!r} not printed"
        for file in made:
            assert (tmp_path / file).exists(), f"{name}: {file} not made"
    assert not (tmp_path / "pg-demo").exists()


def test_a_server_started_in_the_docs_avoids_mkdocs_port_and_fails_loudly_if_it_never_comes_up():
    """Pasted after the README's `mkdocs serve` (port 8000), `fracas serve --port 8000`
    failed 'Address already in use', the wait gave up silently and the check hit MkDocs. The
    server's errors go to its log too, where the check that it came up shows them: a server
    left writing to the shell's own output would hold it open after the shell exits."""
    served = [
        block
        for each in PASTED
        for block in pasted_blocks(each)
        if re.search(r"^fracas serve .*&$", block, re.M)
    ]
    assert served
    for block in served:
        assert ":8000" not in block and "--port 8000" not in block, block
        log = re.search(r"^fracas serve .*> (\S+) 2>&1 &$", block, re.M).group(1)
        assert f'grep -q "GM:" {log} || {{' in block and "exit 1; }" in block, block


def test_the_play_example_shows_what_play_prints_where_it_stands(tmp_path, monkeypatch):
    """The example said "attack on cultist-2" (play names the target) on a fight that had
    already ended: each prompt and each line shown must be what `fracas play` prints after
    the block above it."""
    heading = "## `fracas play` and the GM's own commands"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli").symlink_to(ROOT / "cli")
    runner, env = CliRunner(), {}
    for line in block_after(heading, "sh").splitlines():
        words = shlex.split(line)
        if words[0] == "export":
            env.update(word.split("=", 1) for word in words[1:])
        elif "|" not in words:
            assert runner.invoke(cli, words[1:], env=env).exit_code == 0, line
    console = block_after(heading, "console").splitlines()
    assert console[0] == "$ fracas play"
    app = App(env["FRACAS_DB"], env["FRACAS_ENCOUNTER"])
    session = Session(app, cli)
    assert console[1] == f"fracas play: {session.live.id}. `help` lists commands; Ctrl-D leaves."
    typed_then_shown: list[tuple[str, str, list[str]]] = []
    for line in console[2:]:
        prompt, mark, typed = line.partition("> ")
        if mark and typed and " " not in prompt:
            typed_then_shown.append((prompt, typed, []))
        else:
            typed_then_shown[-1][2].append(line)
    for prompt, typed, shown in typed_then_shown:
        assert session.prompt() == f"{prompt}> ", typed
        with runner.isolation() as (out, _err, *_):
            session.run(typed)
            printed = out.getvalue().decode()
        for each in shown:
            cut = each.removesuffix("...")
            assert cut in printed if cut != each else each in printed.splitlines(), each
    app.close()
