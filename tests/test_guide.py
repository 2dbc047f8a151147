"""The author's guide cannot go stale: its ruleset, its tests and its fight run from the
guide's own text (docs/rulesets.md), and the README links to it."""

import dataclasses
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import msgspec
import pytest

from fracas.rules.api import Context, InitiativeSet, Ruleset, TurnAdvanced, roster
from fracas.rules.dice import ManualDice
from fracas.testing import Cast, check_ruleset, installed
from fracas.testing.tiers import examples
from tests.guide import GUIDE, blocks, coin_duel, module

SHEETS = {"ann": {"hp": 3}, "bo": {"hp": 2}, "cy": {"hp": 2}}


@pytest.fixture
def coin(tmp_path: Path):
    return coin_duel(tmp_path)


def test_the_guides_ruleset_imports_only_the_public_api():
    code = blocks()["coin_duel.py"]
    lines = code.splitlines()
    imports = [line.split()[1] for line in lines if line.startswith(("from ", "import "))]
    assert [m for m in imports if m.startswith("fracas")] == ["fracas.rules.api"]


@pytest.mark.long
def test_the_guides_ruleset_passes_the_conformance_kit(coin):
    fights = examples(full=15, fast=4)
    tally = check_ruleset(Cast(coin.RULESET, SHEETS, {"dee": {}}), examples=fights)
    assert tally.fights >= fights and tally.by_kind["flip"] > 0 and tally.drift == 0


def test_the_guides_own_tests_run(coin, tmp_path):
    tests = module("tests/test_coin_duel.py", "test_coin_duel", tmp_path)
    checks = tests.TestCoinDuel()
    checks.examples = 5
    for name in dir(checks):
        if name.startswith("test_"):
            getattr(checks, name)()


def test_the_guides_fight_plays_through_the_fracas_api(coin):
    """Pasted beside coin_duel.py, it runs as written: it imports what it uses."""
    exec(compile(blocks()["a fight"], str(GUIDE), "exec"), {})  # its asserts hold


def test_a_duel_reads_at_the_table_as_the_guide_says(coin, run):
    with installed(coin.RULESET):
        run("new", "-r", "coin", "--id", "dawn")
        run("add", "ann", "--set", "hp=1")
        run("add", "bo", "--set", "hp=1")
        run("begin")
        run("act", "ann", "flip", "bo", "--dice", "2")
        status = run("status").output
        assert "bo" in status and "down" in status
        report = run("export", "--format", "md").output
        said = "ann flips a coin at bo: 2 against 2, heads; bo takes 1 damage; bo is down"
        assert said in report and said in GUIDE.read_text().replace("\n  ", " ")
        rules = run("rules", "coin").output
        assert "The Coin-Flip Duel is dedicated to the public domain (CC0 1.0)." in rules
        assert "[coin-2] Heads takes a hit point off the target" in rules
        run("act", "ann", "flip", "bo", "--dice", "1", "--mod", "+1:luck")
        lucky = "ann flips a coin at bo: 1 +1 = 2 against 2, heads"  # modifiers read added
        assert lucky in run("export", "--format", "md").output
        assert "1 +1 = 2 against 2, heads" in GUIDE.read_text()
        refused = run("act", "bo", "flip", "ann", ok=False)
        assert refused.output == "Error: it is ann's turn, not bo's (coin-1)\n"


def test_the_readme_links_the_guide():
    readme = (GUIDE.parent.parent / "README.md").read_text()
    assert "docs/rulesets.md" in readme


def test_the_guides_pyproject_builds_and_registers_the_ruleset():
    toml = re.search(r"```toml\n(\[build-system\].*?)```", GUIDE.read_text(), re.S)
    assert toml, "the guide's pyproject.toml has no [build-system] table"
    project = tomllib.loads(toml[1])
    assert project["build-system"]["build-backend"]
    assert project["project"]["entry-points"]["fracas.rulesets"] == {"coin": "coin_duel:RULESET"}


def test_the_guides_pyproject_builds_with_another_module_beside_it(tmp_path):
    toml = re.search(r"```toml\n(\[build-system\].*?)```", GUIDE.read_text(), re.S)
    assert toml
    (tmp_path / "pyproject.toml").write_text(toml[1])
    (tmp_path / "coin_duel.py").write_text(blocks()["coin_duel.py"])
    (tmp_path / "play.py").write_text("print('a script of the author')\n")
    build = "from setuptools import build_meta; print(build_meta.build_sdist('dist'))"
    built = subprocess.run(
        [sys.executable, "-c", build], cwd=tmp_path, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr[-800:]
    with tarfile.open(tmp_path / "dist" / built.stdout.split()[-1]) as sdist:
        names = {Path(name).name for name in sdist.getnames()}
    assert "coin_duel.py" in names


def test_the_guide_says_what_reads_rolls_defaults_to(coin):
    default = next(f for f in dataclasses.fields(Ruleset) if f.name == "reads_rolls").default
    assert f'`"{default}"` (the default)' in GUIDE.read_text()
    assert coin.RULESET.reads_rolls == "modified"  # its modifiers are added to the coin


class Brawler(msgspec.Struct, frozen=True):
    id: str
    name: str
    joined: int
    conditions: dict[str, dict] = {}
    initiative: int = 0
    tiebreak: int = 0


class Brawl(msgspec.Struct, frozen=True):
    fighters: dict[str, Brawler]
    round: int = 0
    acting: str | None = None


def test_the_guides_initiative_every_round_runs_as_written():
    """The snippet called standing() and order(), defined nowhere, and imported neither
    tie_roll nor InitiativeSet: run from the guide's text, it rolls a round and goes round."""
    code: dict = {}
    exec(compile(blocks()["initiative every round"], str(GUIDE), "exec"), code)
    evolve = roster.dispatch({InitiativeSet: roster.initiative_set})
    names = ("ann", "bo", "cy")
    state = Brawl({w: Brawler(w, w.title(), n) for n, w in enumerate(names)})
    state = roster.change(state, "cy", lambda f: roster.with_condition(f, "down", {}))
    ctx = Context(ManualDice([3, 5], "gm"), 1)  # ann 3, bo 5; cy is down and rolls none
    events = code["new_round"](state, ctx, "the fight begins", evolve)
    assert events[-1] == TurnAdvanced(1, "bo", "the fight begins", ["sk-1"])
    state = msgspec.structs.replace(roster.fold(evolve, state, events), round=1, acting="bo")
    assert code["next_turn"](state, ctx, "bo is done", evolve)[-1].actor == "ann"
    state = msgspec.structs.replace(state, acting="ann")
    again = code["next_turn"](state, Context(ManualDice([4, 4, 90, 10], "gm"), 2), "", evolve)
    assert [e.tiebreak for e in again if isinstance(e, InitiativeSet)] == [90, 10]
    assert again[-1].round == 2 and again[-1].actor == "ann"
