"""The table's screen under load: 200 players' pages held open (Server-Sent Events streams,
httpx async clients) against a real `fracas serve` on 127.0.0.1, while another process
appends real steps at table pace and in bursts; then the same while one client keeps
sending 1 MB command bodies.

    python bench/bench_serve_load.py [--pages 200] [--paced 40] [--bursts 5x20]

Reported: from each step's commit to every page showing it (or a later step: a page that
falls behind skips to the newest screen), median / p99 / max over every page and step; the
server's RSS; how long each 1 MB body took to be refused (413). Goal: p99 <= 200 ms, the
1 MB body refused in < 50 ms with the others' p99 unchanged.
"""

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_serve import WRITER, build, percentile, rss_kib  # noqa: E402
from fracas.projections import Fracas  # noqa: E402
from tests.web import Served, served  # noqa: E402

STEPS = re.compile(rb'data: \{"steps": (\d+)')
PACE = 0.5  # seconds between two steps at the table (a brisk table: one every few seconds)


class Pages:
    """Every open page's stream, and when each first showed each step count."""

    def __init__(self) -> None:
        self.shown: list[dict[int, float]] = []
        self.ready = 0

    async def hold(self, client: httpx.AsyncClient, url: str) -> None:
        seen: dict[int, float] = {}
        self.shown.append(seen)
        counted = False
        tail = b""
        async with client.stream("GET", url) as response:
            async for chunk in response.aiter_raw():  # scanned as bytes: the client stays cheap
                now = time.time() * 1000
                for found in STEPS.finditer(tail + chunk):
                    seen.setdefault(int(found[1]), now)
                tail = chunk[-32:]
                if seen and not counted:
                    counted, self.ready = True, self.ready + 1

    def first_and_spread(self, commits: dict[int, float]) -> tuple[list[float], list[float]]:
        """Per step: commit to the first page showing it, and from there to the last."""
        first, spread = [], []
        for step, committed in commits.items():
            shown = [min(at for n, at in seen.items() if n >= step) for seen in self.shown]
            first.append(min(shown) - committed)
            spread.append(max(shown) - min(shown))
        return first, spread

    def latencies(self, commits: dict[int, float]) -> list[float]:
        """Per page and step: the first screen at that step or later, minus the commit."""
        found = []
        for seen in self.shown:
            for step, committed in commits.items():
                later = [at for shown, at in seen.items() if shown >= step]
                found.append(min(later) - committed if later else float("inf"))
        return found


class Writer:
    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def steps(self, count: int) -> dict[int, float]:
        """COUNT steps as fast as the writer goes: step -> commit time (ms)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("go\n" * count)
        self.process.stdin.flush()
        commits = {}
        for _ in range(count):
            step, committed = self.process.stdout.readline().split()
            commits[int(step)] = float(committed)
        return commits

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


async def paced(writer: Writer, count: int) -> dict[int, float]:
    commits: dict[int, float] = {}
    for _ in range(count):
        commits |= await asyncio.to_thread(writer.steps, 1)
        await asyncio.sleep(PACE)
    return commits


async def bursts(writer: Writer, count: int, size: int) -> dict[int, float]:
    commits: dict[int, float] = {}
    for _ in range(count):
        commits |= await asyncio.to_thread(writer.steps, size)
        await asyncio.sleep(2)
    return commits


SENDER = """
import json, sys, time, httpx
root, token, encounter = sys.argv[1:4]
body = json.dumps({"line": "note " + "x" * 1_000_000}).encode()
headers = {"X-Fracas-Token": token, "Content-Type": "application/json"}
with httpx.Client(base_url=root, timeout=10) as client:
    for line in sys.stdin:
        started = time.perf_counter()
        response = client.post(f"/gm/e/{encounter}/command", content=body, headers=headers)
        print(response.status_code, (time.perf_counter() - started) * 1000, flush=True)
"""


async def huge_bodies(server: Served, encounter: str, stop: asyncio.Event) -> list[float]:
    """Another process sending 1 MB commands (with the GM's token), one every 0.2 s until
    told to stop: the ms each took to be answered, every one a 413."""
    sender = subprocess.Popen(
        [sys.executable, "-c", SENDER, server.root, server.token, encounter],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert sender.stdin is not None and sender.stdout is not None
    took = []
    while not stop.is_set():
        sender.stdin.write("go\n")
        sender.stdin.flush()
        status, ms = (await asyncio.to_thread(sender.stdout.readline)).split()
        assert status == "413", status
        took.append(float(ms))
        await asyncio.sleep(0.2)
    sender.stdin.close()
    sender.wait()
    return took


def cpu_s(pid: int | str) -> float:
    """User and system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)


def measured(pages: Pages, commits: dict[int, float], cpu: float) -> dict[str, object]:
    first, spread = pages.first_and_spread(commits)
    return {
        "commit to every page": summary(pages.latencies(commits)),
        "commit to the first page": summary(first),
        "first page to the last": summary(spread),
        "server CPU s": round(cpu, 2),
    }


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median ms": round(statistics.median(values), 1),
        "p99 ms": round(percentile(values, 99), 1),
        "max ms": round(max(values), 1),
    }


async def run(
    server: Served, writer: Writer, encounter: str, options: argparse.Namespace
) -> dict[str, object]:
    figures: dict[str, object] = {"open pages": options.pages, "goal p99 ms": 200}
    idle = rss_kib(server.process.pid)
    pages = Pages()
    limits = httpx.Limits(max_connections=options.pages + 10)
    async with httpx.AsyncClient(base_url=server.root, timeout=None, limits=limits) as client:
        held = []
        for start in range(0, options.pages, 50):  # the listen backlog is 128
            held += [
                asyncio.create_task(pages.hold(client, f"/e/{encounter}/stream"))
                for _ in range(start, min(options.pages, start + 50))
            ]
            while pages.ready < len(held):
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        figures["server RSS idle MiB"] = round(idle / 1024, 1)
        opened = rss_kib(server.process.pid)
        figures[f"server RSS, {options.pages} pages open MiB"] = round(opened / 1024, 1)
        figures["per open page KiB"] = round((opened - idle) / options.pages)
        count, size = (int(n) for n in options.bursts.split("x"))
        phases = {
            f"table pace ({options.paced} steps, one per {PACE} s)": paced(writer, options.paced),
            f"bursts ({count} of {size} steps back to back)": bursts(writer, count, size),
        }
        for name, phase in phases.items():
            cpu = cpu_s(server.process.pid)
            commits = await phase
            figures[name] = measured(pages, commits, cpu_s(server.process.pid) - cpu)
            await asyncio.sleep(1)
        stop = asyncio.Event()
        cpu = cpu_s(server.process.pid)
        sender = asyncio.create_task(huge_bodies(server, encounter, stop))
        commits = await paced(writer, options.paced)
        stop.set()
        took = await sender
        spent = cpu_s(server.process.pid) - cpu
        await asyncio.sleep(1)
        figures["table pace, one client sending 1 MB bodies"] = measured(pages, commits, spent)
        figures["1 MB body refused (413)"] = {"requests": len(took), **summary(took)}
        figures["server RSS after MiB"] = round(rss_kib(server.process.pid) / 1024, 1)
        figures["CPU s: server, this client"] = [cpu_s(server.process.pid), cpu_s("self")]
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--paced", type=int, default=40, help="steps at table pace")
    parser.add_argument("--bursts", default="5x20", help="COUNTxSIZE steps back to back")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        build(db)
        with Fracas(db, readonly=True) as log:
            encounter = log.store.encounters()[-1]
        with served(db) as server:
            writer = Writer(db)
            try:
                figures = asyncio.run(run(server, writer, encounter, options))
            finally:
                writer.close()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
