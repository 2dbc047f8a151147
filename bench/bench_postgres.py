"""Many tables, one server: writers each playing their own encounter against one PostgreSQL.

    python -m bench.bench_postgres [--writers 1,4,16,64] [--steps 120] [--as processes,tasks]
                                   [--breakdown]

Starts a durable PostgreSQL (fsync on; Debian's binaries, bench/pgserver.py) and, for each
count of writers, has every writer play its own percentile encounter: attack steps
through the real decider, appended with the encounter's read models in the same
transaction. Reports steps/s, events/s and p50/p99 latency per append.

Writers run as processes (a client process per table), then as asyncio tasks of one
process (one service holding many tables: each task hands its append to a thread, as an
async server calls a synchronous library, so Python's work shares one core while the
server takes the rest). `--as threads` runs them as plain threads of one process.

Side by side, in the same run and on the same server, the `eventsourcing` package's
PostgreSQL recorders write the same number of events from the same number of writers, in
appends of the same size (each writer its own aggregate; each event's state as long as the
mean body of fracas's attack events, measured on SQLite first): the application recorder (what
an eventsourcing Application uses: a notification log in commit order) and the bare
aggregate recorder. And fracas on SQLite with 1 writer, the laptop's case.
Every writer, of either kind, first makes WARM_UP appends that are not timed (its code
loaded, its statements prepared and planned), then waits for the common start.
Target: at 16 writers, fracas >= 1x eventsourcing's aggregate recorder in events/s, with a
p99 no longer than its (a ratio of p99 at most 1x).

`--breakdown` also runs, at each count of writers, fracas's tables with no read models
(deciding and the ledger's append) and fracas's ledger alone (the store's append of as
many events of the same size, nothing decided): what each layer costs beside the store.

`--rounds 3` runs every comparison three times, fracas and eventsourcing in turn, and
ends with the median of each ratio: on a shared machine one round's ratio moves with the
load of the moment.

`--flush-ms 1` makes every commit's WAL flush take a millisecond longer (PostgreSQL's
commit_delay, for every commit), as on networked or replicated storage (a managed
server's disk): what a lock held across commits costs shows there, not on a fast local disk.
"""

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.pgserver import Server

PISTOL = {"name": "pistol", "kind": "firearm", "damage": "1d10"}
FIGHTER = {"dex": 12, "hp": 10**6, "skills": {"firearms": 60}, "weapons": [PISTOL]}
OTHERS = {"alice": "bob", "bob": "alice"}
MODELS = ("processes", "tasks", "threads")
WARM_UP = 10  # untimed appends per writer: more than psycopg's and PostgreSQL's plan warm-ups


class FracasTable:
    """One table: its own encounter, set up, then attacks appended one by one."""

    def __init__(self, location: str) -> None:
        from fracas.projections import Fracas

        self.table = Fracas(location)
        self.encounter = self.table.new("percentile", title=f"table {uuid.uuid4().hex[:6]}")
        for name in OTHERS:
            sheet = {**FIGHTER, "holding": ["pistol"], "dex": 10 + len(name)}
            self.act({"action": "join", "combatant": name, "sheet": sheet})
        self.act({"action": "begin"})
        self.first_version = self.encounter.version

    def act(self, command: dict[str, Any], dice: list[int] | None = None) -> None:
        self.encounter.execute(self.encounter.ruleset.command(command), dice=dice)

    def step(self) -> None:
        actor = self.encounter.state.turn
        attack = {"action": "attack", "actor": actor, "targets": [OTHERS[actor]]}
        self.act({**attack, "weapon": "pistol"}, dice=[30, 5])

    def events(self) -> int:
        return self.encounter.version - self.first_version

    def body_bytes(self) -> int:
        """The bytes of the bodies of the events this table's steps appended."""
        row = self.table.store.execute(
            "SELECT coalesce(sum(length(body)), 0) FROM events WHERE encounter = ? AND version > ?",
            (self.encounter.id, self.first_version),
        ).fetchone()
        return int(row[0])

    def close(self) -> None:
        self.table.close()


class FracasWithoutReadModels(FracasTable):
    """A table whose appends write no read models: its decide and its ledger append alone."""

    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.encounter.projector = None


class FracasLedger:
    """fracas's ledger alone: appends of `per_append` events of `size` bytes each, through
    the store (the chain, the step record, one statement), nothing decided, no read models."""

    def __init__(self, location: str, per_append: int, size: int) -> None:
        from fracas.ledger.base import NewEvent
        from fracas.ledger.open import open_store

        self.store = open_store(location)
        self.encounter, self.version = uuid.uuid4().hex[:12], 0
        self.batch = [NewEvent("bench.event", '"' + "x" * (size - 2) + '"')] * per_append

    def step(self) -> None:
        command = uuid.uuid4().hex
        written = self.store.append(
            self.encounter, self.batch, expected_version=self.version, command_id=command
        )
        self.version = written.last_version

    def events(self) -> int:
        return self.version

    def body_bytes(self) -> int:
        return sum(len(event.body) for event in self.batch) * self.version // len(self.batch)

    def close(self) -> None:
        self.store.close()


class EsAggregate:
    """One aggregate of eventsourcing's own: appends of `per_append` events of `size` bytes."""

    def __init__(self, server: dict[str, Any], kind: str, per_append: int, size: int) -> None:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.postgres import (
            PostgresAggregateRecorder,
            PostgresApplicationRecorder,
            PostgresDatastore,
        )

        self.datastore = PostgresDatastore(
            "postgres", "127.0.0.1", server["port"], "fracas", "", schema=server["schema"]
        )
        recorder_class = (
            PostgresApplicationRecorder if kind == "application" else PostgresAggregateRecorder
        )
        self.recorder = recorder_class(self.datastore, events_table_name=f"{kind}_events")
        self.originator, self.version, self.state = uuid.uuid4(), 0, b"x" * size
        self.per_append, self.stored = per_append, StoredEvent

    def step(self) -> None:
        batch = []
        for _ in range(self.per_append):
            self.version += 1
            batch.append(self.stored(self.originator, self.version, "bench:Event", self.state))
        self.recorder.insert_events(batch)

    def events(self) -> int:
        return self.version

    def body_bytes(self) -> int:
        return self.version * len(self.state)

    def close(self) -> None:
        self.datastore.close()


def play(make: Any, args: tuple, steps: int, start_at: float) -> dict[str, Any]:
    """A writer in a process or thread of its own: set up and warmed up, then `steps`
    appends from the common start, each timed."""
    writer = make(*args)
    try:
        warmed = warm_up(writer)
        time.sleep(max(0.0, start_at - time.time()))
        latencies, began, cpu = [], time.perf_counter(), cpu_time()
        for _ in range(steps):
            tick = time.perf_counter()
            writer.step()
            latencies.append(time.perf_counter() - tick)
        ended, cpu = time.perf_counter(), cpu_time() - cpu
        return {"latencies": latencies, "began": began, "ended": ended, "cpu": cpu,
                "events": writer.events() - warmed[0],
                "bytes": writer.body_bytes() - warmed[1]}  # fmt: skip
    finally:
        writer.close()


async def play_task(make: Any, args: tuple, steps: int, start_at: float) -> dict[str, Any]:
    """A writer as an asyncio task, as an async service runs a table: each append handed
    to a thread (the library is synchronous), the task awaiting it."""
    writer = await asyncio.to_thread(make, *args)
    try:
        warmed = await asyncio.to_thread(warm_up, writer)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        latencies, began = [], time.perf_counter()
        for _ in range(steps):
            tick = time.perf_counter()
            await asyncio.to_thread(writer.step)
            latencies.append(time.perf_counter() - tick)
        return {"latencies": latencies, "began": began, "ended": time.perf_counter(),
                "events": writer.events() - warmed[0],
                "bytes": writer.body_bytes() - warmed[1]}  # fmt: skip
    finally:
        await asyncio.to_thread(writer.close)


def warm_up(writer: Any) -> tuple[int, int]:
    """WARM_UP untimed appends; the events and body bytes written so far, not counted."""
    for _ in range(WARM_UP):
        writer.step()
    return writer.events(), writer.body_bytes()


async def tasks(make: Any, args: list[tuple], steps: int, start_at: float) -> list[dict]:
    """Every writer an asyncio task of this process; as many threads as tasks."""
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(len(args)))
    return await asyncio.gather(*(play_task(make, a, steps, start_at) for a in args))


def cpu_time() -> float:
    """This writer's CPU seconds: its process's, or its own thread's among many."""
    if threading.current_thread() is threading.main_thread():
        return time.process_time()
    return time.thread_time()


def together(
    make: Any,
    args: list[tuple],
    steps: int,
    setup_seconds: float,
    model: str = "processes",
    server: Server | None = None,
) -> dict[str, float]:
    """Every writer in its own process, thread or asyncio task, from a common start."""
    start_at = time.time() + setup_seconds
    at_start: list[tuple[float, float]] = []  # CPU when the writers start, not their setup
    timer = threading.Timer(
        setup_seconds, lambda: at_start.append((postgres_cpu(server), time.process_time()))
    )
    timer.start()
    calls = [(make, a, steps, start_at) for a in args]
    if model == "tasks":
        results = asyncio.run(tasks(make, args, steps, start_at))
    elif model == "threads":
        with ThreadPoolExecutor(len(calls)) as threads:
            results = list(threads.map(lambda call: play(*call), calls))
    else:
        with multiprocessing.get_context("spawn").Pool(len(calls)) as pool:
            results = pool.starmap(play, calls)
    timer.join()
    server_cpu = postgres_cpu(server) - at_start[0][0]
    own_cpu = time.process_time() - at_start[0][1]
    latencies = sorted(value for result in results for value in result["latencies"])
    wall = max(r["ended"] for r in results) - min(r["began"] for r in results)
    events = sum(r["events"] for r in results)
    client_cpu = own_cpu if model == "tasks" else sum(r["cpu"] for r in results)
    return {
        "steps/s": len(latencies) / wall,
        "events/s": events / wall,
        "p50 ms": statistics.median(latencies) * 1000,
        "p99 ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "events": events,
        "bytes": sum(r["bytes"] for r in results),
        "appends": len(latencies),
        "client ms": client_cpu / len(latencies) * 1000,
        "server ms": server_cpu / len(latencies) * 1000,
    }


def postgres_cpu(server: Server | None) -> float:
    """CPU seconds used so far by this server's processes (its postmaster, known by its data
    directory, and the postmaster's children) and the backends they reaped (user + system,
    from /proc); not another PostgreSQL's on the same machine (another program's tests)."""
    if server is None:
        return 0.0
    postmaster, used = None, {}  # pid: (parent's pid, CPU ticks)
    for process in Path("/proc").glob("[0-9]*"):
        try:
            if (process / "comm").read_text().strip() != "postgres":
                continue
            fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
            ticks = sum(int(value) for value in fields[11:15])  # and reaped backends'
            used[int(process.name)] = (int(fields[1]), ticks)
            if str(server.data) in (process / "cmdline").read_text():
                postmaster = int(process.name)  # (a child's command line is rewritten)
        except (OSError, IndexError, ValueError):
            continue
    ours = [ticks for pid, (parent, ticks) in used.items() if postmaster in (pid, parent)]
    return sum(ours) / os.sysconf("SC_CLK_TCK")


def es_schema(
    server: Server, kind: str, model: str, writers: int, turn: str = ""
) -> dict[str, Any]:
    """A fresh schema for one eventsourcing run, its table made once, before the writers."""
    import psycopg
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresDatastore,
    )

    schema = f"es_{kind}_{model}_{writers}{turn}"
    with psycopg.connect(server.url().split("?")[0], autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    datastore = PostgresDatastore("postgres", "127.0.0.1", server.port, "fracas", "", schema=schema)
    recorder_class = (
        PostgresApplicationRecorder if kind == "application" else PostgresAggregateRecorder
    )
    recorder_class(datastore, events_table_name=f"{kind}_events").create_table()
    datastore.close()
    return {"port": server.port, "schema": schema}


def row(name: str, writers: int, figures: dict[str, float]) -> str:
    return (
        f"{name:<34} {writers:>3}  {figures['steps/s']:>9.0f}  {figures['events/s']:>9.0f}  "
        f"{figures['p50 ms']:>7.2f}  {figures['p99 ms']:>7.2f}  "
        f"{figures['client ms']:>6.2f}  {figures['server ms']:>6.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", default="1,4,16,64")
    parser.add_argument("--steps", type=int, default=120, help="appends per writer")
    parser.add_argument(
        "--flush-ms", type=float, default=0.0, help="added to every commit's WAL flush"
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also fracas without read models, and its ledger's append alone (where time goes)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs of each comparison; the median ratio is kept"
    )
    parser.add_argument(
        "--as", dest="models", default="processes,tasks", help="processes, tasks or threads"
    )
    args = parser.parse_args()
    if unknown := set(args.models.split(",")) - set(MODELS):
        parser.error(f"writers run as {', '.join(MODELS)}; not as {', '.join(sorted(unknown))}")
    counts = [int(n) for n in args.writers.split(",")]
    flush = f", each commit's flush {args.flush_ms} ms longer" if args.flush_ms else ""
    print(
        f"{os.cpu_count()} CPUs, load {load()}; {args.steps} appends per writer "
        f"after {WARM_UP} untimed; fsync on{flush}"
    )
    print(
        f"{'':<34} {'wr':>3}  {'steps/s':>9}  {'events/s':>9}  {'p50 ms':>7}  {'p99 ms':>7}  "
        f"{'CPU ms per append':>14} (client, server)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        single = together(FracasTable, [(str(Path(tmp) / "one.db"),)], args.steps, 3.0)
    print(row("fracas, SQLite file", 1, single))
    per_append = round(single["events"] / single["appends"])
    size = round(single["bytes"] / single["events"])
    print(f"{per_append} events an append, bodies of {size} bytes on average")
    delay = {"commit_delay": str(round(args.flush_ms * 1000)), "commit_siblings": "0"}
    with Server(durable=True, settings=delay if args.flush_ms else None) as server:
        ratios: dict[str, dict[int, dict[str, tuple[float, float]]]] = {}
        for model in args.models.split(","):
            print(f"writers as {model}:")
            ratios[model] = {}
            for writers in counts:
                rounds = [
                    side_by_side(
                        server, model, writers, args.steps, per_append, size, args.breakdown,
                        f"_{turn}" if turn else "",
                    )
                    for turn in range(args.rounds)
                ]  # fmt: skip
                ratios[model][writers] = {
                    kind: (
                        statistics.median(r[kind][0] for r in rounds),
                        statistics.median(r[kind][1] for r in rounds),
                    )
                    for kind in RECORDERS
                }
    if args.rounds > 1:
        print(f"medians of {args.rounds} rounds:")
    for kind in RECORDERS:
        print(f"fracas / eventsourcing {kind} recorder, events/s (p99):")
        for model, by_count in ratios.items():
            print(
                f"  {model}: "
                + ", ".join(
                    f"{w} writers {r[kind][0]:.2f}x ({r[kind][1]:.2f}x)"
                    for w, r in by_count.items()
                )
            )
    print(f"load {load()} at the end")


def load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


RECORDERS = ("application", "aggregate")


def side_by_side(
    server: Server,
    model: str,
    writers: int,
    steps: int,
    per_append: int,
    size: int,
    breakdown: bool = False,
    turn: str = "",
) -> dict[str, tuple[float, float]]:
    """fracas and eventsourcing's recorders, `writers` at once, appending `per_append` events
    of `size` bytes: fracas's ratios to each recorder's events/s and p99 latency, measured
    in the same run. `breakdown`: fracas without its read models, and its ledger's append
    alone, too (what deciding and the read models cost beside the store's own writes)."""
    setup = 3.0 + writers * 0.5  # every writer imported and set up before the start
    url = server.url(f"fracas_{model}_{writers}{turn}")
    fracas = together(FracasTable, [(url,)] * writers, steps, setup, model, server)
    print(row("fracas, PostgreSQL", writers, fracas))
    if breakdown:
        url = server.url(f"fracas_{model}_{writers}_bare{turn}")
        bare = together(FracasWithoutReadModels, [(url,)] * writers, steps, setup, model, server)
        print(row("  without read models", writers, bare))
        url = server.url(f"fracas_{model}_{writers}_ledger{turn}")
        ledger = [(url, per_append, size)] * writers
        print(row("  ledger append alone", writers, together(FracasLedger, ledger, steps, setup,
                                                             model, server)))  # fmt: skip
    ratios = {}
    for kind in RECORDERS:
        place = es_schema(server, kind, model, writers, turn)
        es = together(
            EsAggregate, [(place, kind, per_append, size)] * writers, steps, setup, model, server
        )
        print(row(f"eventsourcing {kind} recorder", writers, es))
        ratios[kind] = (fracas["events/s"] / es["events/s"], fracas["p99 ms"] / es["p99 ms"])
    sys.stdout.flush()
    return ratios


if __name__ == "__main__":
    main()
