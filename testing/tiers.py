"""Test tiers, a pytest plugin: `pytest` runs the fast tier, `pytest --tier slow` the slow
one, `pytest --tier all` both (or FRACAS_TIER=slow|all in the environment).

The fast tier is what a contributor runs on every change. The slow tier is what only CI and
a patient contributor wait for, marked on the tests themselves:

- `postgres`: a real PostgreSQL server (given to every test that uses the `pg_server`
  fixture, marked or not);
- `browser`: a headless Chromium;
- `slow`: any other long run (crash trials, many processes, a long search).

A property run marked `long` runs in both tiers: a few examples in the fast tier, its full
count in the slow one, as `examples(full=..., fast=...)` says.

FRACAS_DRAWS=fixed (CI sets it) makes every property run draw the same examples each run
(hypothesis's `derandomize`), so CI's verdict on a commit is the same on any machine and any
failure it shows is one a developer replays; without it each run draws new fights.

Load it from a conftest.py: `pytest_plugins = ["fracas.testing.tiers"]`.
"""

import os

import pytest
from hypothesis import settings

TIERS = ("fast", "slow", "all")
MARKS = {
    "postgres": "needs a real PostgreSQL server (slow tier)",
    "browser": "drives a headless Chromium (slow tier)",
    "slow": "a long run: trials, many processes, a long search (slow tier)",
    "long": "a property run: a few examples in the fast tier, all of them in the slow tier",
}
SLOW = ("postgres", "browser", "slow")

_tier = "fast"  # set from --tier when pytest starts; read by examples() as tests are imported


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier",
        choices=TIERS,
        default=os.environ.get("FRACAS_TIER") or "fast",
        help="fast (the default), slow (PostgreSQL, the browser, long runs) or all",
    )


def pytest_configure(config: pytest.Config) -> None:
    global _tier
    _tier = config.getoption("tier")
    if _tier not in TIERS:  # a default from FRACAS_TIER is not checked by argparse
        raise pytest.UsageError(f"FRACAS_TIER={_tier!r}: use one of {', '.join(TIERS)}")
    for name, meaning in MARKS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    if os.environ.get("FRACAS_DRAWS") == "fixed":
        settings.register_profile("fixed", derandomize=True)
        settings.load_profile("fixed")
    terminal = getattr(config, "workerinput", {}).get(_TERMINAL)
    if terminal is not None:
        _as_the_main_process(terminal)


# A pytest-xdist worker starts with COLUMNS=80 and LINES=24 in its environment, which a
# command under test reads as a terminal 80 columns wide: the tests that read a pipe's
# output would fail under `-n` alone. Each worker takes the main process's values instead.
_TERMINAL = "fracas_terminal"
_SIZE = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: object) -> None:
    """pytest-xdist's hook, in the main process: what each worker is to see of the size."""
    node.workerinput[_TERMINAL] = {name: os.environ.get(name) for name in _SIZE}  # type: ignore[attr-defined]


def _as_the_main_process(terminal: dict[str, str | None]) -> None:
    for name, value in terminal.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def examples(*, full: int, fast: int) -> int:
    """How many examples a `long` property run draws in the tier being run."""
    return fast if _tier == "fast" else full


def tiers_of(item: pytest.Item) -> tuple[str, ...]:
    """The tiers a test runs in."""
    if any(item.get_closest_marker(mark) for mark in SLOW):
        return ("slow",)
    if item.get_closest_marker("long"):
        return ("fast", "slow")
    return ("fast",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker("postgres")
    if _tier == "all":
        return
    kept = [item for item in items if _tier in tiers_of(item)]
    left = [item for item in items if _tier not in tiers_of(item)]
    if left:
        config.hook.pytest_deselected(items=left)
        config.stash[_LEFT] = len(left)
        if hasattr(config, "workeroutput"):  # a pytest-xdist worker: the summary is the main's
            config.workeroutput[_LEFT_OUT] = len(left)
    items[:] = kept


_LEFT = pytest.StashKey[int]()
_LEFT_OUT = "fracas_left"


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """pytest-xdist's hook, in the main process: a worker's count of the other tier's tests
    (each worker collects them all) for the summary's line."""
    left = getattr(node, "workeroutput", {}).get(_LEFT_OUT)
    if left:
        node.config.stash[_LEFT] = left  # type: ignore[attr-defined]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    left = terminalreporter.config.stash.get(_LEFT, 0)
    if left:
        other = "slow" if _tier == "fast" else "fast"
        terminalreporter.write_line(
            f"{left} test{'' if left == 1 else 's'} of the {other} tier not run here: "
            f"`--tier {other}` runs them, "
            "`--tier all` both tiers"
        )
