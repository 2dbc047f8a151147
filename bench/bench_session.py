"""fracas's session benchmark: exports, import, audit and replay of a long fight.

    python bench/bench_session.py [--events 20000]

Each figure comes with the baseline it is read against:
- JSONL export and import against raw sqlite3 doing the same I/O with nothing else (dump every
  row as a JSON line; executemany the rows into an empty table);
- the audit's rules-drift check (every step decided again) against one fold of the encounter;
- replay of the whole encounter (states before and after every step) against one fold;
- the session reports (Markdown and HTML, the GM's and the players') against the replay they
  are built on;
each figure the best of --runs, taken in turns with its baseline, in wall-clock time and in
CPU time (the steadier on a shared machine; the machine's load is shown).
- the peak memory (RSS) of a JSONL export and of its import, at --events and at --big events;
- the timeline at a step near the end (`replay --steps N`, the GM's scrubber at N), from the
  nearest snapshot and with none consulted, against walking the whole fight (what both did
  before they started from snapshots).
"""

import argparse
import io
import itertools
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
from bench_ledger import best_of, build_fight  # run as: python bench/bench_session.py

from fracas.ledger.base import EVENT_COLUMNS, INSERT_EVENT
from fracas.projections import Fracas
from fracas.projections.replay import replay
from fracas.projections.screen import GM, Timeline
from fracas.rules import Encounter
from fracas.rules.redecide import drift


def raw_dump(path: Path) -> int:
    conn = sqlite3.connect(path)
    out = io.StringIO()
    rows = conn.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY position")
    for row in rows:
        out.write(msgspec.json.encode(row).decode() + "\n")
    conn.close()
    return out.tell()


def raw_load(source: Path, target: Path) -> None:
    rows = sqlite3.connect(source).execute(f"SELECT {EVENT_COLUMNS} FROM events").fetchall()
    conn = sqlite3.connect(target)
    conn.execute(f"CREATE TABLE IF NOT EXISTS events ({EVENT_COLUMNS})")
    with conn:
        conn.executemany(INSERT_EVENT, rows)
    conn.close()


# the process's own high-water mark (VmHWM belongs to its memory map, new at exec; getrusage's
# maxrss would carry over the forking parent's)
PEAK = "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))"
EXPORT = (
    "import sys; from fracas.projections import Fracas\n"
    "with Fracas(sys.argv[1], readonly=True) as f, open(sys.argv[2], 'w') as out:\n"
    "    f.export_jsonl(out)\n"
)
IMPORT = (
    "import sys; from fracas.projections import Fracas\n"
    "with Fracas(sys.argv[2]) as f:\n"
    "    f.import_jsonl(sys.argv[1])\n"
)


def peak_rss(code: str, *args: Path) -> float:
    """The peak resident memory, in MiB, of a fresh Python process running `code`."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{PEAK}", *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(out.split()[-1]) / 1024


def memory_figures(folder: Path, sizes: list[int]) -> None:
    for run, size in enumerate(sizes):  # files of their own even when two sizes are equal
        db, export, copy = (
            folder / f"mem{run}-{size}{end}" for end in (".db", ".jsonl", "-copy.db")
        )
        build_fight(db, size)
        exported = peak_rss(EXPORT, db, export)
        imported = peak_rss(IMPORT, export, copy)
        baseline = peak_rss("import fracas.projections")
        print(
            f"peak RSS at {size} events: export {exported:.0f} MiB, import {imported:.0f} MiB "
            f"(a process that only imports fracas: {baseline:.0f} MiB; load {load_now()})"
        )


def timeline_figures(live: Encounter, steps: int) -> tuple[int, dict[str, tuple[float, float]]]:
    """One step near the end of the fight (2,900 of 3,000), replayed and shown on the GM's
    scrubber, from snapshots and with none consulted (best of 5)."""
    target = steps - steps // 30
    bare = Encounter(live.store, live.id, snapshots=False)
    figures = {}
    for name, action in (
        ("replay --steps N", lambda e: replay(e, first=target, last=target)),
        ("GM scrubber at N", lambda e: Timeline(e, "", GM, str).screen(target)),
    ):
        assert action(live) == action(bare)
        figures[name] = (best_of(5, lambda a=action: a(live)), best_of(5, lambda a=action: a(bare)))
    return target, figures


class Best:
    """An action's best wall-clock time and best CPU time (this process, every thread) over
    some runs: on a shared machine the CPU time is the steadier of the two."""

    def __init__(self) -> None:
        self.wall = self.cpu = float("inf")

    def run(self, action: Any) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        self.wall = min(self.wall, time.perf_counter() - wall)
        self.cpu = min(self.cpu, time.process_time() - cpu)

    def against(self, base: "Best") -> str:
        return f"{self.wall / base.wall:5.2f}x (CPU {self.cpu / base.cpu:4.2f}x)"


def in_turns(runs: int, actions: dict[str, Any]) -> dict[str, Best]:
    """The best times of each action over `runs` rounds, each round running every action
    once in turn: a figure and its baseline see the machine alike, however busy it is."""
    best = {name: Best() for name in actions}
    for _ in range(runs):
        for name, action in actions.items():
            best[name].run(action)
    return best


def report_figures(fracas: Fracas, live: Encounter, runs: int) -> dict[str, Best]:
    """Each session report, and the full replay they are read against: each as its command
    makes it (`fracas report`, `fracas replay`), from the log, not from an encounter already
    read (a report reads its encounter afresh; so does the replay it is measured against)."""

    def report(fmt: str, players: bool = False) -> Any:
        return lambda: fracas.export_text(io.StringIO(), fmt, live.id, players=players)

    return in_turns(
        runs,
        {
            "replay": lambda: fracas.replay(live.id),
            "md": report("md"),
            "html": report("html"),
            "md players": report("md", players=True),
            "html players": report("html", players=True),
        },
    )


def load_now() -> str:
    """The machine's load average over the last minute (what else was running)."""
    return Path("/proc/loadavg").read_text().split()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--big", type=int, default=200_000, help="events of the memory run")
    parser.add_argument("--runs", type=int, default=3, help="runs of each figure and baseline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fight.db"
        encounter_id = build_fight(path, args.events)
        export = Path(tmp) / "fight.jsonl"
        with Fracas(path) as fracas:
            events = len(list(fracas.store.events()))
            steps = fracas.store.head(encounter_id).step

            def export_jsonl() -> None:
                with export.open("w") as out:
                    fracas.export_jsonl(out)

            dumps = in_turns(args.runs, {"export": export_jsonl, "raw": lambda: raw_dump(path)})
            live = Encounter(fracas.store, encounter_id)
            reports = report_figures(fracas, live, args.runs)
            t_fold = best_of(3, live.fold)
            t_drift = best_of(1, lambda: drift(live))
            t_audit = best_of(1, fracas.audit)
            near_end = timeline_figures(live, steps)
        targets = (Path(tmp) / f"copy{n}.db" for n in itertools.count())
        loads = in_turns(
            args.runs,
            {
                "import": lambda: Fracas(next(targets)).import_jsonl(export),
                "raw": lambda: raw_load(path, next(targets)),
            },
        )
    print(f"{events} events, {steps} steps in one percentile encounter (load {load_now()})")
    export, load, replayed = dumps["export"], loads["import"], reports.pop("replay")
    print(
        f"export jsonl   {export.wall:7.3f} s  {events / export.wall:9.0f} ev/s  "
        f"{export.against(dumps['raw'])} raw dump  (target: 1.5x)"
    )
    print(
        f"import jsonl   {load.wall:7.3f} s  {events / load.wall:9.0f} ev/s  "
        f"{load.against(loads['raw'])} raw load (with chain check and read models; "
        "target: 2x)"
    )
    for name, took in reports.items():
        print(
            f"report {name:<13}{took.wall:7.3f} s  {steps / took.wall:9.0f} steps/s  "
            f"{took.against(replayed)} replay all  (target: 1x, under 5 s)"
        )
    t_replay = replayed.wall
    print(
        f"replay all     {t_replay:7.3f} s  {steps / t_replay:9.0f} steps/s  "
        f"{t_replay / t_fold:5.1f}x one fold"
    )
    print(
        f"drift check    {t_drift:7.3f} s  {steps / t_drift:9.0f} steps/s  "
        f"{t_drift / t_fold:5.1f}x one fold"
    )
    print(f"whole audit    {t_audit:7.3f} s")
    target, figures = near_end
    for name, (ours, bare) in figures.items():
        print(
            f"{name} at step {target} of {steps}: {ours * 1000:6.1f} ms from snapshots, "
            f"{bare * 1000:6.1f} ms with none; {t_replay / ours:5.0f}x quicker than the whole "
            "walk (replay all)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        memory_figures(Path(tmp), [args.events, args.big])


if __name__ == "__main__":
    main()
