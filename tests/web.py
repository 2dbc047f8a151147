"""Helpers for the tests of the table's screen: `fracas serve` as a real process, and Debian's
headless Chromium driven by Playwright (never a downloaded browser)."""

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FRACAS = [sys.executable, "-m", "fracas.cli.main"]


def need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        why = "needs Debian's chromium: `sudo apt-get install chromium` (.ci/run does)"
        if os.environ.get("FRACAS_CI"):
            pytest.fail(why)
        pytest.skip(why)


class Served:
    def __init__(self, process: subprocess.Popen[str], players: str, gm: str) -> None:
        self.process, self.players, self.gm = process, players, gm
        self.root = players.rstrip("/")
        self.token = gm.split("token=", 1)[1]


@contextmanager
def served(db: Path, *extra: str) -> Iterator[Served]:
    """`fracas serve --port 0` on DB; the URLs it prints; stopped afterwards."""
    process = subprocess.Popen(
        [*FRACAS, "--db", str(db), "serve", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    printed = []
    try:
        for line in process.stdout:
            printed.append(line)
            if "GM:" in line:
                break
        text = "".join(printed)
        players = re.search(r"players: (\S+)", text)
        gm = re.search(r"GM: +(\S+)", text)
        assert players and gm, text
        yield Served(process, players[1], gm[1])
    finally:
        process.terminate()
        process.wait(10)


def fracas(db: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FRACAS, "--db", str(db), *args], capture_output=True, text=True, check=check
    )


@contextmanager
def chromium() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()
