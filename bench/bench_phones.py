"""Eight phones and the GM acting at once against a real `fracas serve` on 127.0.0.1.

    python bench/bench_phones.py [--phones 8] [--seconds 20] [--gm-every 0.5] [--steps 50,1000]

Eight player characters with the same DEX act at once every round (ties act together), each
from its own phone (httpx async clients): as soon as its live stream shows its character
acting, the phone taps (aim, or an attack on a dummy with the server's dice), naming the step
count its page stands after. Meanwhile the GM's console appends a note every `--gm-every`
seconds and passes the dummy's turn on as soon as it comes (a new round). Every page has a
live stream open (the eight phones, the GM's page, a players' screen). Reported: from each
tap to every page showing its step (median, p99, max), and every answer by kind: a step that
landed (200), a step decided on a fight that moved on meanwhile (409: the phone waits for the
fresh state and taps again), not its turn (403), held back by the rate limit (429). Goal:
p99 <= 200 ms, 0 5xx, every 200 a step in the log, and the log audits clean.

`--steps N` plays a fight of N steps before the taps begin (several lengths, comma
separated, one run each); the last lines say, per length, the server's own time to work out
and render one step's update for every page (median, no network: the load-independent part)
and `tap→every page p99 X ms at N steps`. Goal: at 1,000 steps within 1.5x of 50.
"""

import argparse
import asyncio
import contextlib
import json
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web import FRACAS, served  # noqa: E402

MESSAGE = re.compile(rb"data: (\{.*?\})\n\n", re.S)
ROW = re.compile(r'<tr class="([^"]*)" data-combatant="([^"]+)"')


def fracas(db: Path, *args: str) -> str:
    done = subprocess.run([*FRACAS, "--db", str(db), *args], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr)
    return done.stdout


def build(db: Path, phones: int, steps: int = 0) -> list[str]:
    fracas(db, "new", "--id", "bench", "-t", "Phones")
    fracas(db, "add", "dummy", "--set", "dex=5", "--set", "hp=1000000")
    names = [f"p{n}" for n in range(1, phones + 1)]
    for name in names:
        fracas(db, "add", name, "--side", "pc", "--set", "dex=12", "--set", "skills.firearms=40")
    fracas(db, "begin")
    played_before(db, steps)
    tokens = []
    for name in names:
        out = fracas(db, "invite", name, "--no-qr", "--url", "http://x")
        tokens.append(out.splitlines()[0].rsplit("/p/", 1)[1])
    return tokens


def take_turn(live: Any) -> None:
    """The acting combatant's step, as the phones and the GM take them in the bench."""
    who = live.view().acting[0]
    if who == "dummy":
        move = {"action": "next"}
    elif live.history.head_step % 2:
        move = {"action": "aim", "actor": who}
    else:
        move = {"action": "attack", "actor": who, "targets": ["dummy"]}
    live.execute(live.ruleset.command(move))


def played_before(db: Path, steps: int) -> None:
    """The fight played on until the log has `steps` steps (through the API: quicker)."""
    from fracas.projections import Fracas

    with Fracas(db) as opened:
        live = opened.encounter("bench")
        while live.history.head_step < steps:
            take_turn(live)


def render_cost(db: Path, steps: int = 20) -> float:
    """The server's median time (ms) to work out and render one more step's update for
    every audience with pages open, as `fracas serve` does on its database thread."""
    from fracas.cli.serve import Table
    from fracas.projections import Fracas

    table = Table(str(db), "token")
    queue: asyncio.Queue[bytes] = asyncio.Queue()

    def watch() -> None:
        for audience in ("gm", "players"):
            table.subscribe("bench", audience, queue)
        table.messages(table.changed())

    def one_step() -> float:
        started = time.perf_counter()
        table.messages(table.changed())
        return (time.perf_counter() - started) * 1000

    table.worker.submit(watch).result()
    took = []
    with Fracas(db) as other:
        for _ in range(steps):
            take_turn(other.encounter("bench"))
            took.append(table.worker.submit(one_step).result())
    table.close()
    return statistics.median(took)


class Page:
    """One open page's live stream: the latest screen, and when each step count first
    showed."""

    def __init__(self) -> None:
        self.steps = 0
        self.opened = False
        self.rows: dict[str, str] = {}  # each row's classes ("pc acting"), by combatant
        self.shown: dict[int, float] = {}
        self.moved = asyncio.Event()
        self.sizes: list[int] = []  # the bytes of each change pushed (not whole screens)
        self.wholes: list[int] = []  # the bytes of each whole screen pushed

    async def hold(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        buffer = b""
        async with client.stream("GET", url, headers=headers) as response:
            async for chunk in response.aiter_raw():
                now = time.perf_counter()
                buffer += chunk
                while (found := MESSAGE.search(buffer)) is not None:
                    buffer = buffer[found.end() :]
                    update = json.loads(found[1])
                    if "html" in update:  # the whole screen: opening, or fallen behind
                        self.wholes.append(len(found[1]))
                        self.rows = {m[2]: m[1] for m in ROW.finditer(update["html"])}
                        self.opened = True
                    else:
                        self.sizes.append(len(found[1]))
                        self.change(update)
                    self.steps = update["steps"]
                    self.shown.setdefault(self.steps, now)
                    self.moved.set()

    def change(self, update: dict[str, Any]) -> None:
        """The rows as a page shows them after a pushed change."""
        for key, html in update["parts"].items():
            if key.startswith("row:") and (row := ROW.search(html)):
                self.rows[row[2]] = row[1]
        if "rows" in update["lists"]:
            kept = {key.removeprefix("row:") for key in update["lists"]["rows"]}
            self.rows = {k: v for k, v in self.rows.items() if k in kept}


class Phone:
    def __init__(self, name: str, token: str, page: Page) -> None:
        self.name, self.token, self.page = name, token, page
        self.taps: list[tuple[str, float]] = []  # (command id, when) of each landed tap
        self.answered: list[float] = []  # ms from each landed tap to its answer
        self.answers: Counter[int] = Counter()
        self.lines: Counter[str] = Counter()  # each refusal's line

    def acting(self) -> bool:
        return "acting" in self.page.rows.get(self.name, "").split()

    async def play(self, client: httpx.AsyncClient, until: float) -> None:
        n = 0
        while time.perf_counter() < until:
            if not self.acting():
                self.page.moved.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.page.moved.wait(), 1.0)
                continue
            n += 1
            step = {"action": "aim"} if n % 2 else {"action": "attack", "targets": ["dummy"]}
            command_id = uuid.uuid4().hex
            panel = (await client.get(f"/p/{self.token}/panel")).text
            found = re.search(r'data-seen="([0-9]+)"', panel)
            seen = int(found[1]) if found else 0  # the page's mark of the log, as a phone's
            body = {"seen": seen, "command_id": command_id, **step}
            self.page.moved.clear()
            started = time.perf_counter()
            answer = await client.post(
                f"/p/{self.token}/act", json=body, headers={"X-Fracas-Token": self.token}
            )
            self.answers[answer.status_code] += 1
            if answer.status_code != 200:
                self.lines[
                    f"{answer.status_code} {re.sub(r'[0-9]+', 'N', answer.text.strip())}"
                ] += 1
            if answer.status_code == 200:
                self.taps.append((command_id, started))
                self.answered.append((time.perf_counter() - started) * 1000)
            with contextlib.suppress(TimeoutError):  # a 409's fresh state before tapping again
                await asyncio.wait_for(self.page.moved.wait(), 1.0)


async def gm(
    client: httpx.AsyncClient, token: str, page: Page, until: float, every: float
) -> Counter:
    """A note every `every` seconds; the dummy's turn passed on as soon as it comes."""
    said: Counter[str] = Counter()
    dummy = Phone("dummy", "", page)
    last = 0.0
    while time.perf_counter() < until:
        now = time.perf_counter()
        line = "next" if dummy.acting() else "note tick" if now - last >= every else ""
        if line:
            last = now if line == "note tick" else last
            answer = await client.post(
                "/gm/e/bench/command", json={"line": line}, headers={"X-Fracas-Token": token}
            )
            ok = answer.status_code == 200 and answer.json()["ok"]
            said[f"{line.split()[0]} {'ok' if ok else 'refused'}"] += 1
        page.moved.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(page.moved.wait(), 0.05)
    return said


async def run(root: str, gm_token: str, tokens: list[str], seconds: float, every: float):
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=root, timeout=30, limits=limits) as client:
        pages = [Page() for _ in range(len(tokens) + 2)]
        streams = [f"/p/{t}/stream" for t in tokens] + ["/gm/e/bench/stream", "/e/bench/stream"]
        headers = [{}] * len(tokens) + [{"X-Fracas-Token": gm_token}, {}]
        holders = [
            asyncio.create_task(p.hold(client, u, h))
            for p, u, h in zip(pages, streams, headers, strict=True)
        ]
        while not all(p.opened for p in pages):
            await asyncio.sleep(0.05)
        phones = [Phone(f"p{n}", t, pages[n - 1]) for n, t in enumerate(tokens, start=1)]
        until = time.perf_counter() + seconds
        said = asyncio.create_task(gm(client, gm_token, pages[-2], until, every))
        await asyncio.gather(*(p.play(client, until) for p in phones))
        gm_said = await said
        await asyncio.sleep(1.0)  # the last steps reach every page
        for holder in holders:
            holder.cancel()
        return pages, phones, gm_said


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def lengths(text: str) -> list[int]:
    try:
        found = [int(n) for n in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--steps takes lengths like 50,1000; got {text!r}"
        ) from None
    if not found or min(found) < 0:
        raise argparse.ArgumentTypeError(f"--steps takes lengths of 0 or more; got {text!r}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--gm-every", type=float, default=0.5)
    parser.add_argument("--steps", type=lengths, default=[0], help="e.g. 50,1000")
    args = parser.parse_args()
    found = [(steps, *one_length(args, steps)) for steps in args.steps]
    for steps, _p99, render in found:
        print(f"server: one step's update for every page median {render:.1f} ms at {steps} steps")
    for steps, p99, _render in found:
        print(f"tap→every page p99 {p99:.0f} ms at {steps} steps")


def one_length(args: argparse.Namespace, steps: int) -> tuple[float, float]:
    """The bench on a fight of `steps` steps: its report, and (tap→every page p99 in ms,
    the server's median render of one step in ms)."""
    with tempfile.TemporaryDirectory() as where:
        db = Path(where) / "phones.db"
        tokens = build(db, args.phones, steps)
        with served(db) as running:
            pages, phones, gm_said = asyncio.run(
                run(running.root, running.token, tokens, args.seconds, args.gm_every)
            )
            running.process.terminate()
            rest, _ = running.process.communicate(timeout=10)
        with sqlite3.connect(db) as conn:
            step_of = dict(conn.execute("SELECT command_id, step FROM steps").fetchall())
            authors = Counter(r[0] for r in conn.execute("SELECT author FROM steps"))
        audit = subprocess.run([*FRACAS, "--db", str(db), "audit"], capture_output=True)
        render = render_cost(db)
    latencies, missed = [], 0
    for phone in phones:
        for command_id, started in phone.taps:
            step = step_of[command_id]
            seen = [min((t for s, t in p.shown.items() if s >= step), default=None) for p in pages]
            if None in seen:
                missed += 1
                continue
            latencies.append((max(seen) - started) * 1000)  # type: ignore[type-var]
    answers = sum((p.answers for p in phones), Counter())
    landed = sum(len(p.taps) for p in phones)
    players_steps = sum(v for k, v in authors.items() if k != "gm")
    print(f"== a fight of {steps} steps before the taps")
    print(f"{args.phones} phones and the GM for {args.seconds:.0f} s, {len(pages)} pages live")
    print(
        f"tap -> every page: median {statistics.median(latencies):.1f} ms, "
        f"p99 {percentile(latencies, 99):.1f} ms, max {max(latencies):.1f} ms "
        f"over {len(latencies)} taps ({missed} never shown)"
    )
    answered = [ms for p in phones for ms in p.answered]
    print(
        f"tap -> its answer: median {statistics.median(answered):.1f} ms, "
        f"p99 {percentile(answered, 99):.1f} ms"
    )
    print(f"phones' answers: {dict(sorted(answers.items()))}")
    for line, count in sum((p.lines for p in phones), Counter()).most_common():
        print(f"  {count} x {line}")
    print(f"GM's notes: {dict(gm_said)}")
    sizes = [n for p in pages for n in p.sizes]
    wholes = [n for p in pages for n in p.wholes]
    print(
        f"pushed to a page: a step's change median {statistics.median(sizes or [0]):.0f} "
        f"bytes ({len(sizes)}), a whole screen median {statistics.median(wholes or [0]):.0f} "
        f"bytes ({len(wholes)}: on opening, or fallen behind)"
    )
    print(f"landed taps {landed}, players' steps in the log {players_steps}")
    errors = sum(v for k, v in answers.items() if k >= 500)
    print(f"5xx: {errors}; traceback: {'Traceback' in rest}")
    print(f"audit: {'ok' if audit.returncode == 0 else 'FAILED'}", flush=True)
    return percentile(latencies, 99), render


if __name__ == "__main__":
    main()
