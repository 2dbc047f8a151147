"""fracas at the table: an action in `fracas play` against the same action as a process,
and `fracas status --json` against the import floor.

    python bench/bench_shell.py [--steps 500] [--actions 200] [--processes 30]

- The shell: a 500-step Delta Green fight is opened once, as `fracas play` opens it; then
  each action line (an attack typed with its dice, then the other side's pass) is timed
  through the session, exactly as a line typed at the prompt runs. Target: median <= 2 ms
  (the srd plugin's own: plugins/srd/bench/bench_play.py).
- The process: the same action as `fracas act ...`, a new process each time.
- `status --json` as a process against `python -c "import click, msgspec, sqlite_utils"`,
  the floor of any Python CLI built on those three. Target: within 10 ms of it (median).
  sqlite-utils imports numpy where it is installed (the srd plugin's bestiary package
  brings it); fracas imports it as if numpy were absent, and so does the floor, so that
  the two start from the same place.

The machine's load is printed with the figures: on a shared machine, run it several times.
The CPU time of each process (user + system) is printed too: the load sways it far less.

Subprocesses run with bytecode caching on (as an installed package is), after a warm-up.
"""

import argparse
import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fracas.cli.main import App, cli
from fracas.cli.shell import Session
from fracas.projections import Fracas

FRACAS = str(Path(sys.executable).parent / "fracas")
PISTOL = {"name": "pistol", "kind": "firearm", "damage": "1d10"}
MISS = "--dice 95"  # Firearms 60: a 95 misses, and no damage is rolled


def build(path: Path, steps: int) -> None:
    """Alice and Bob trade missed shots until the fight has `steps` steps."""
    with Fracas(path) as table:
        fight = table.new("percentile", encounter="bench")
        for who, dex in (("alice", 14), ("bob", 10)):
            sheet = {"dex": dex, "str": 10, "con": 10, "hp": 40, "skills": {"firearms": 60}}
            table.add(who, {**sheet, "weapons": [PISTOL], "holding": ["pistol"]}, "bench")
        rules = fight.ruleset
        fight.execute(rules.command({"action": "begin"}))
        while fight.history.head_step < steps:
            actor = fight.view().acting[0]
            target = "bob" if actor == "alice" else "alice"
            command = {"action": "attack", "actor": actor, "targets": [target], "weapon": "pistol"}
            fight.execute(rules.command(command), dice=[95])


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


def in_the_shell(path: Path, actions: int) -> list[float]:
    app = App(str(path), "bench")
    session = Session(app, cli)
    times = []
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        for _ in range(actions):
            target = "bob" if session.live.view().acting == ["alice"] else "alice"
            started = time.perf_counter()
            session.run(f"attack {target} {MISS}")
            times.append(time.perf_counter() - started)
            sink.seek(0)
            sink.truncate()
    app.close()
    assert "refused" not in session.last, session.last
    return times


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], cpu: list[float] | None = None) -> float:
    """The process's wall time; its CPU time (user + system) appended to `cpu` if given,
    which a busy machine inflates far less than the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env(), check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return elapsed


def as_processes(path: Path, count: int) -> list[float]:
    times = []
    with Fracas(path) as table:
        acting = table.view("bench").acting[0]
    for _ in range(count):
        target = "bob" if acting == "alice" else "alice"
        argv = [FRACAS, "--db", str(path), "act", acting, "attack", target, "-w", "pistol"]
        times.append(timed([*argv, *MISS.split()]))
        acting = target
    return times


Times = tuple[list[float], list[float], list[float], list[float]]


def status_against_floor(path: Path, count: int) -> Times:
    """Wall times of the floor and of status, then their CPU times."""
    unseen = "import sys; sys.modules['numpy'] = None; "  # as fracas.ledger.store does
    floor = [sys.executable, "-c", unseen + "import click, msgspec, sqlite_utils"]
    status = [FRACAS, "--db", str(path), "status", "--json"]
    timed(floor), timed(status)  # warm-up: bytecode written, files in the page cache
    floors, statuses, floor_cpu, status_cpu = [], [], [], []
    for _ in range(count):
        floors.append(timed(floor, floor_cpu))
        statuses.append(timed(status, status_cpu))
    return floors, statuses, floor_cpu, status_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--processes", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        build(path, args.steps)
        shell = percentiles(in_the_shell(path, args.actions))
        process = percentiles(as_processes(path, args.processes))
        floors, statuses, floor_cpu, status_cpu = status_against_floor(path, args.processes)
    floor, status = percentiles(floors), percentiles(statuses)
    cpu_floor, cpu_status = percentiles(floor_cpu), percentiles(status_cpu)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} (1, 5, 15 min) on {os.cpu_count()} cores")
    print(f"{args.steps}-step fight; ms per action (median, p99)")
    print(f"  fracas play, one action     {shell[0]:8.2f} {shell[1]:8.2f}   target: median <= 2")
    print(f"  fracas act, one process     {process[0]:8.2f} {process[1]:8.2f}")
    print(f"  process / shell (median)    {process[0] / shell[0]:8.1f}x")
    print("ms per process (median, p99)")
    print(f"  import floor                {floor[0]:8.2f} {floor[1]:8.2f}")
    print(f"  fracas status --json        {status[0]:8.2f} {status[1]:8.2f}")
    print(f"  status --json - floor       {status[0] - floor[0]:8.2f}            target: <= 10")
    print("ms of CPU per process, user + system (median, p99): less swayed by the load")
    print(f"  import floor                {cpu_floor[0]:8.2f} {cpu_floor[1]:8.2f}")
    print(f"  fracas status --json        {cpu_status[0]:8.2f} {cpu_status[1]:8.2f}")
    print(f"  status --json - floor       {cpu_status[0] - cpu_floor[0]:8.2f}")


if __name__ == "__main__":
    main()
