"""Many tables, one server: writers each playing their own encounter against one PostgreSQL.

    python -m bench.bench_postgres [--writers 1,4,16,64] [--steps 120]

Starts a durable PostgreSQL (fsync on; Debian's binaries, bench/pgserver.py) and, for each
count of writer processes, has every writer play its own percentile encounter: attack steps
through the real decider, appended with the encounter's read models in the same
transaction. Reports steps/s, events/s and p50/p99 latency per append.

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
import time
import uuid
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
        latencies, began, cpu = [], time.perf_counter(), time.process_time()
        for _ in range(steps):
            actor = encounter.state.turn
            command = encounter.ruleset.command(
                {"action": "attack", "actor": actor, "targets": [OTHERS[actor]], "weapon": "pistol"}
            )
            tick = time.perf_counter()
            encounter.execute(command, dice=[30, 5])
            latencies.append(time.perf_counter() - tick)
        ended, cpu = time.perf_counter(), time.process_time() - cpu
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
    latencies, began, cpu = [], time.perf_counter(), time.process_time()
    for _ in range(appends):
        batch = []
        for _ in range(per_append):
            version += 1
            batch.append(StoredEvent(originator, version, "bench:Event", state))
        tick = time.perf_counter()
        recorder.insert_events(batch)
        latencies.append(time.perf_counter() - tick)
    ended, cpu = time.perf_counter(), time.process_time() - cpu
    datastore.close()
    return {"latencies": latencies, "began": began, "ended": ended, "events": version, "cpu": cpu}


def wait_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


def together(target: Any, args: list[tuple], setup_seconds: float) -> dict[str, float]:
    """Every writer in its own process, timed from a common start."""
    start_at = time.time() + setup_seconds
    context = multiprocessing.get_context("spawn")
    with context.Pool(len(args)) as pool:
        server_cpu = postgres_cpu()
        results = pool.starmap(target, [(*a, start_at) for a in args])
        server_cpu = postgres_cpu() - server_cpu
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
            if "postgres" in (stat.parent / "cmdline").read_bytes().decode(errors="replace"):
                total += sum(int(value) for value in fields[11:15])  # and reaped backends
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def es_schema(server: Server, kind: str, writers: int) -> dict[str, Any]:
    """A fresh schema for one eventsourcing run, its table made once, before the writers."""
    import psycopg
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresDatastore,
    )

    schema = f"es_{kind}_{writers}"
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
    size = 260  # about the mean body of an attack's events
    delay = {"commit_delay": str(round(args.flush_ms * 1000)), "commit_siblings": "0"}
    with Server(durable=True, settings=delay if args.flush_ms else None) as server:
        ratios = {}
        for writers in counts:
            setup = 3.0 + writers * 0.5  # every writer imported and set up before the start
            url = server.url(f"fracas_{writers}")
            fracas = together(fracas_writer, [(url, args.steps)] * writers, setup)
            print(row("fracas, PostgreSQL", writers, fracas))
            for kind in ("application", "aggregate"):
                place = es_schema(server, kind, writers)
                appends = args.steps
                es = together(
                    eventsourcing_writer,
                    [(place, kind, appends, per_append, size)] * writers,
                    setup,
                )
                print(row(f"eventsourcing {kind} recorder", writers, es))
                if kind == "application":
                    ratios[writers] = fracas["events/s"] / es["events/s"]
            sys.stdout.flush()
    print("fracas / eventsourcing application recorder, events/s:")
    print("  " + ", ".join(f"{w} writers {r:.1f}x" for w, r in ratios.items()))


if __name__ == "__main__":
    main()
