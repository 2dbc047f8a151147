"""What an outside tester read in srd's step sentences (the report's lines, the screens'
headline): every sum shown whole and in the order it was rolled, every die labelled, and
each step saying what was done in the words a table uses."""

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from fracas.cli.main import cli

SAMPLES = Path(__file__).parents[1] / "fracas_srd" / "samples"
Run = Callable[..., str]


@pytest.fixture
def gm(tmp_path: Path) -> Run:
    """`fracas` with the GM's arguments on one database; its output, exit code 0."""
    db, runner = str(tmp_path / "words.db"), CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        assert done.exit_code == 0, done.output
        return done.output

    return run


def add(gm: Run, who: str, sample: str, name: str, side: str = "pc") -> None:
    gm("add", who, "--sheet", str(SAMPLES / f"{sample}.toml"), "--side", side, "--name", name)


def act(gm: Run, *args: str) -> int:
    """`fracas act ...`: the number of the step it took."""
    found = re.search(r"^step (\d+)$", gm("act", *args), re.M)
    assert found
    return int(found.group(1))


def step_line(gm: Run, step: int) -> str:
    """Step N's sentence as the Markdown report and the HTML report both write it (the
    same words: the HTML's unescaped)."""
    report = gm("export", "--format", "md")
    line = rf"^- {step}\. (\*\*)?(.*?)(?(1)\*\*)(?: \(\w+\))?(?: \*\(.*\)\*)?\[\^"
    md = re.search(line, report, re.M)
    assert md, report
    page = gm("export", "--format", "html")
    found = re.search(rf'<span class="num">{step}</span> <span class="sentence">(.*?)</span>', page)
    assert found, page
    said = html.unescape(found.group(1))
    assert said == md.group(2).replace("\\", ""), (said, md.group(2))
    return said


def darts(gm: Run) -> None:
    gm("new", "-r", "srd", "--id", "darts", "--title", "Darts")
    add(gm, "ilse", "wizard", "Ilse")
    add(gm, "wolf", "wolf", "Wolf", "npc")
    gm("begin", "--dice", "20,2")


def test_magic_missile_reads_each_dart_s_roll_then_the_total(gm: Run) -> None:
    darts(gm)
    step = act(gm, "ilse", "cast", "wolf", "-o", "spell=magic missile", "--dice", "1,3,4")
    said = step_line(gm, step)
    places = [said.index(f"dart {n}") for n in (1, 2, 3)]
    assert places == sorted(places), said
    assert said.index("Wolf takes 11 damage (2 + 4 + 5)") > places[-1], said
