"""The README and the docs' pages as tests read them: a page's text, the block after a
heading, and a shell block's `fracas` lines run in this process."""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from fracas.cli.main import cli

ROOT = Path(__file__).parent.parent


README = ROOT / "README.md"


PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]


def name_of(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def page(name: str) -> str:
    """A page's text by its path from the repository root: `README.md`, `docs/file.md`."""
    return (ROOT / name).read_text()


def block_after(heading: str, fence: str) -> str:
    """The first `fence` block after the line starting with `heading`, in the first page
    (the README, then the docs) that has that line."""
    for each in PAGES:
        text = each.read_text()
        found = re.search(rf"^{re.escape(heading)}", text, re.M)
        if found:
            match = re.search(rf"```{fence}\n(.*?)```", text[found.start() :], re.S)
            assert match, f"no {fence} block after {heading} in {name_of(each)}"
            return match.group(1)
    raise AssertionError(f"no page has a heading {heading!r}")


def run_block(heading: str) -> tuple[CliRunner, dict[str, str]]:
    """The `fracas` lines of the shell block after `heading`, run in this process."""
    runner = CliRunner()
    env: dict[str, str] = {}
    for line in block_after(heading, "sh").splitlines():
        words = shlex.split(line, comments=True)
        if words[0] in (".", "unset", "if", "test"):
            continue
        if words[0] == "export":
            env.update(word.split("=", 1) for word in words[1:])
            continue
        result = runner.invoke(cli, words[1:], env=env)
        assert result.exit_code == 0, f"{line}: {result.output}"
    return runner, env
