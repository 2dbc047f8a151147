"""The table's screen, measured: from a command's commit in another process to an open page's
DOM showing it, and the server's memory with 20 pages open.

    python bench/bench_serve.py [--commands 200] [--pages 20]

A writer process appends real steps (attacks decided by the percentile rules, with typed dice)
and prints the wall-clock time of each commit; a MutationObserver in headless Chromium notes
the wall-clock time the page's screen shows that step. Target: p99 <= 200 ms.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web import chromium, served  # noqa: E402

WRITER = """
import sys, time
from fracas.projections import Fracas
fracas = Fracas(sys.argv[1])
live = fracas.encounter()
for line in sys.stdin:
    actor = live.state.turn
    other = {"alice": "bob", "bob": "carol", "carol": "dan", "dan": "alice"}[actor]
    command = {"action": "attack", "actor": actor, "targets": [other], "weapon": "pistol"}
    outcome = live.execute(live.ruleset.command(command), dice=[99])
    print(outcome.step, time.time() * 1000, flush=True)
"""

OBSERVE = """
window.seen = {};
new MutationObserver(() => {
  const screen = document.querySelector('#screen .screen');
  if (screen) window.seen[screen.dataset.steps] ??= performance.timeOrigin + performance.now();
}).observe(document.getElementById('screen'), {childList: true, subtree: true});
"""


def build(path: Path) -> None:
    from fracas.projections import Fracas

    sheet = {
        "dex": 12,
        "hp": 40,
        "skills": {"firearms": 60},
        "weapons": [{"name": "pistol", "kind": "firearm", "damage": "1d10"}],
        "holding": ["pistol"],
    }
    with Fracas(path) as fracas:
        live = fracas.new("percentile", title="bench")
        for n, name in enumerate(("alice", "bob", "carol", "dan")):
            command = {"action": "join", "combatant": name, "sheet": {**sheet, "dex": 10 + n}}
            live.execute(live.ruleset.command(command))
        live.execute(live.ruleset.command({"action": "begin"}))


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def latencies(page: Any, writer: subprocess.Popen[str], commands: int) -> list[float]:
    assert writer.stdin is not None and writer.stdout is not None
    found = []
    for _ in range(commands):
        writer.stdin.write("go\n")
        writer.stdin.flush()
        step, committed = writer.stdout.readline().split()
        page.wait_for_function(f"window.seen['{step}'] !== undefined", timeout=10_000)
        shown = page.evaluate(f"window.seen['{step}']")
        found.append(shown - float(committed))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--pages", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        build(db)
        with served(db) as server, chromium() as browser:
            writer = subprocess.Popen(
                [sys.executable, "-c", WRITER, str(db)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            idle = rss_kib(server.process.pid)
            pages = []
            for _ in range(args.pages):
                page = browser.new_page()
                page.goto(server.players)
                page.wait_for_selector("#screen .screen")
                pages.append(page)
            time.sleep(0.5)
            opened = rss_kib(server.process.pid)
            watched = pages[-1]
            watched.evaluate(OBSERVE)
            one_page_warmup = latencies(watched, writer, 5)
            found = latencies(watched, writer, args.commands)
            after = rss_kib(server.process.pid)
            writer.stdin.close()  # type: ignore[union-attr]
            writer.wait()
    figures = {
        "commands": args.commands,
        "open pages": args.pages,
        "commit to DOM median ms": round(statistics.median(found), 1),
        "commit to DOM p99 ms": round(percentile(found, 99), 1),
        "commit to DOM max ms": round(max(found), 1),
        "target p99 ms": 200,
        "server RSS idle MiB": round(idle / 1024, 1),
        f"server RSS with {args.pages} pages MiB": round(opened / 1024, 1),
        "per open page KiB": round((opened - idle) / args.pages),
        f"server RSS after {args.commands} steps MiB": round(after / 1024, 1),
        "warm-up ms": [round(x) for x in one_page_warmup],
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
