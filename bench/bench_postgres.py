"""Many tables, one server: writers each playing their own encounter against one PostgreSQL.

    python -m bench.bench_postgres [--writers 1,4,16,64] [--steps 120] [--as processes,threads]

Starts a durable PostgreSQL (fsync on; Debian's binaries, bench/pgserver.py) and, for each
count of writers, has every writer play its own percentile encounter: attack steps
through the real decider, appended with the encounter's read models in the same
transaction. Reports steps/s, events/s and p50/p99 latency per append.

Writers run as processes (one client process per table), then as threads of one process
(one service holding many tables, as `fracas serve` does: Python's work shares one core
while the server takes the rest).

Side by side, in the same run and on the same server, the `eventsourcing` package's
PostgreSQL recorders write the same number of events from the same number of writers, in
appends of the same size (each writer its own aggregate): the application recorder (what
an eventsourcing Application uses: a notification log in commit order) and the bare
aggregate recorder. And fracas on SQLite with 1 writer, the laptop's case.
Target: at 16 writers, fracas >= 2x eventsourcing's PostgreSQL recorder in events/s.

`--flush-ms 1` makes every commit's WAL flush take a millisecond longer (PostgreSQL's
commit_delay, for every commit), as on networked or replicated storage (a managed
server's disk): what a lock held across commits costs shows there, not on a fast local disk.
"""

import argparse
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
FIGHTER = {"dex": 12, "hp": 10**9, "skills": {"firearms": 60}, "weapons": [PISTOL]}
OTHERS = {"alice": "bob", "bob": "alice"}


def fracas_writer(location: str, steps: int, start_at: float) -> dict[str, Any]:
    """One table: its own encounter, set up, then `steps` attacks appended one by one."""
    from fracas.projections import Fracas

    with Fracas(location) as table:
        encounter = table.new("percentile", title=f"table {os.getpid()}")
        for name in OTHERS:
            sheet = {**FIGHTER, "holding": ["pistol"], "dex": 10 + len(name)}
            encounter.execute(encounter.ruleset.command(
                {"action": "join", "combatant": name, "sheet": sheet}
            ))  # fmt: skip
        encounter.execute(encounter.ruleset.command({"action": "begin"}))
        first_version = encounter.version
        wait_until(start_at)
        latencies, began, cpu = [], time.perf_counter(), cpu_time()
        for _ in range(steps):
            actor = encounter.state.turn
            command = encounter.ruleset.command(
                {"action": "attack", "actor": actor, "targets": [OTHERS[actor]], "weapon": "pistol"}
            )
            tick = time.perf_counter()
            encounter.execute(command, dice=[30, 5])
            latencies.append(time.perf_counter() - tick)
        ended, cpu = time.perf_counter(), cpu_time() - cpu
        events = encounter.version - first_version
    return {"latencies": latencies, "began": began, "ended": ended, "events": events, "cpu": cpu}


def eventsourcing_writer(
    server: dict[str, Any], kind: str, appends: int, per_append: int, size: int, start_at: float
) -> dict[str, Any]:
    """One aggregate of its own, `appends` inserts of `per_append` events of `size` bytes."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresDatastore,
    )

    datastore = PostgresDatastore(
        "postgres", "127.0.0.1", server["port"], "fracas", "", schema=server["schema"]
    )
    recorder_class = (
        PostgresApplicationRecorder if kind == "application" else PostgresAggregateRecorder
    )
    recorder = recorder_class(datastore, events_table_name=f"{kind}_events")
    originator, version, state = uuid.uuid4(), 0, b"x" * size
    wait_until(start_at)
    latencies, began, cpu = [], time.perf_counter(), cpu_time()
    for _ in range(appends):
        batch = []
        for _ in range(per_append):
            version += 1
            batch.append(StoredEvent(originator, version, "bench:Event", state))
        tick = time.perf_counter()
        recorder.insert_events(batch)
        latencies.append(time.perf_counter() - tick)
    ended, cpu = time.perf_counter(), cpu_time() - cpu
    datastore.close()
    return {"latencies": latencies, "began": began, "ended": ended, "events": version, "cpu": cpu}


def cpu_time() -> float:
    """This writer's CPU seconds: its process's, or its own thread's among many."""
    if threading.current_thread() is threading.main_thread():
        return time.process_time()
    return time.thread_time()


def wait_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


def together(
    target: Any, args: list[tuple], setup_seconds: float, model: str = "processes"
) -> dict[str, float]:
    """Every writer in its own process (or thread of this process), from a common start."""
    start_at = time.time() + setup_seconds
    calls = [(*a, start_at) for a in args]
    at_start: list[float] = []  # the server's CPU when the writers start, not their setup
    timer = threading.Timer(setup_seconds, lambda: at_start.append(postgres_cpu()))
    timer.start()
    if model == "threads":
        with ThreadPoolExecutor(len(calls)) as threads:
            results = list(threads.map(lambda call: target(*call), calls))
    else:
        with multiprocessing.get_context("spawn").Pool(len(calls)) as pool:
            results = pool.starmap(target, calls)
    timer.join()
    server_cpu = postgres_cpu() - at_start[0]
    latencies = [value for result in results for value in result["latencies"]]
    wall = max(r["ended"] for r in results) - min(r["began"] for r in results)
    events = sum(r["events"] for r in results)
    latencies.sort()
    return {
        "steps/s": len(latencies) / wall,
        "events/s": events / wall,
        "p50 ms": statistics.median(latencies) * 1000,
        "p99 ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "events": events,
        "appends": len(latencies),
        "client ms": sum(r["cpu"] for r in results) / len(latencies) * 1000,
        "server ms": server_cpu / len(latencies) * 1000,
    }


def postgres_cpu() -> float:
    """CPU seconds used so far by the server's processes and the backends they reaped
    (user + system, from /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if (stat.parent / "comm").read_text().strip() == "postgres":
                total += sum(int(value) for value in fields[11:15])  # and reaped backends
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def es_schema(server: Server, kind: str, model: str, writers: int) -> dict[str, Any]:
    """A fresh schema for one eventsourcing run, its table made once, before the writers."""
    import psycopg
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresDatastore,
    )

    schema = f"es_{kind}_{model}_{writers}"
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
    parser.add_argument("--as", dest="models", default="processes,threads", help="how writers run")
    args = parser.parse_args()
    counts = [int(n) for n in args.writers.split(",")]
    flush = f", each commit's flush {args.flush_ms} ms longer" if args.flush_ms else ""
    print(f"{os.cpu_count()} CPUs; {args.steps} appends per writer; fsync on{flush}")
    print(
        f"{'':<34} {'wr':>3}  {'steps/s':>9}  {'events/s':>9}  {'p50 ms':>7}  {'p99 ms':>7}  "
        f"{'CPU ms per append':>14} (client, server)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        single = together(fracas_writer, [(str(Path(tmp) / "one.db"), args.steps)], 3.0)
    print(row("fracas, SQLite file", 1, single))
    per_append = round(single["events"] / single["appends"])
    delay = {"commit_delay": str(round(args.flush_ms * 1000)), "commit_siblings": "0"}
    with Server(durable=True, settings=delay if args.flush_ms else None) as server:
        ratios: dict[str, dict[int, float]] = {}
        for model in args.models.split(","):
            print(f"writers as {model}:")
            ratios[model] = {}
            for writers in counts:
                ratios[model][writers] = side_by_side(
                    server, model, writers, args.steps, per_append
                )
    print("fracas / eventsourcing application recorder, events/s:")
    for model, by_count in ratios.items():
        print(f"  {model}: " + ", ".join(f"{w} writers {r:.1f}x" for w, r in by_count.items()))


def side_by_side(server: Server, model: str, writers: int, steps: int, per_append: int) -> float:
    """fracas and eventsourcing's recorders, `writers` at once; fracas's ratio to the
    application recorder in events/s."""
    setup = 3.0 + writers * 0.5  # every writer imported and set up before the start
    url = server.url(f"fracas_{model}_{writers}")
    fracas = together(fracas_writer, [(url, steps)] * writers, setup, model)
    print(row("fracas, PostgreSQL", writers, fracas))
    ratio = 0.0
    for kind in ("application", "aggregate"):
        place = es_schema(server, kind, model, writers)
        size = 260  # about the mean body of an attack's events
        es = together(
            eventsourcing_writer, [(place, kind, steps, per_append, size)] * writers, setup, model
        )
        print(row(f"eventsourcing {kind} recorder", writers, es))
        if kind == "application":
            ratio = fracas["events/s"] / es["events/s"]
    sys.stdout.flush()
    return ratio


if __name__ == "__main__":
    main()
