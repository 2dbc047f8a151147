"""fracas's own benchmark: fold speed and durable append latency, with their baselines.

    python bench/bench_ledger.py [--events 100000] [--appends 300]

(0) State ready (open the file, fold to now) at 1k, 10k and 100k events, from snapshots and
    with every snapshot deleted; the memory a 100k fold takes. Target: flat (100k within
    2x of 1k).
(a) Fold a 100k-event percentile encounter from its file, against
    - a raw sqlite3 + msgspec streaming fold of the same rows (same decoder, same evolve),
    - the `eventsourcing` package rebuilding an aggregate of as many events from SQLite.
(b) Durable append of one attack step (decide, append, projections; synchronous=FULL),
    median and p99, against one raw sqlite3 INSERT + COMMIT at synchronous=FULL.
Targets: fold >= 0.5x raw and >= 10x eventsourcing; append median <= 2x raw, p99 <= 2 ms.
"""

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fracas.ledger import CONTROL_KINDS
from fracas.projections import Fracas
from fracas.rules import Encounter
from fracas.rules.percentile import RULESET

PISTOL = {"name": "pistol", "kind": "firearm", "damage": "1d10"}
FIGHTER = {
    "dex": 12,
    "hp": 10**6,  # the most a percentile sheet takes: nobody falls in 200,000 events
    "skills": {"firearms": 60},
    "weapons": [PISTOL],
    "holding": ["pistol"],
}


def build_fight(path: Path, events: int) -> str:
    """A long percentile fight, appended step by step through the real decider."""
    with Fracas(path, synchronous="OFF") as fracas:
        encounter = fracas.new("percentile", title="bench")
        for name in ("alice", "bob", "carol", "dan"):
            encounter.execute(
                RULESET.command(
                    {
                        "action": "join",
                        "combatant": name,
                        "sheet": {**FIGHTER, "dex": 10 + len(name)},
                    }
                )
            )
        encounter.execute(RULESET.command({"action": "begin"}))
        others = {"alice": "bob", "bob": "carol", "carol": "dan", "dan": "alice"}
        while encounter.version < events:
            actor = encounter.state.turn
            encounter.execute(
                RULESET.command(
                    {
                        "action": "attack",
                        "actor": actor,
                        "targets": [others[actor]],
                        "weapon": "pistol",
                    }
                )
            )
        return encounter.id


def best_of(runs: int, action: Any) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return min(timings)


def raw_fold(path: Path, encounter: str) -> Any:
    """The baseline: stream the rows with sqlite3 and fold them with msgspec, nothing else."""
    conn = sqlite3.connect(path)
    decode, evolve, state = RULESET.decoder.decode, RULESET.evolve, RULESET.initial()
    for (body,) in conn.execute(
        "SELECT body FROM events WHERE encounter = ? ORDER BY version", (encounter,)
    ):
        state = evolve(state, decode(body))
    conn.close()
    return state


def fracas_fold(path: Path, encounter: str) -> Any:
    """The whole fold from the first event (no snapshot consulted)."""
    with Fracas(path) as fracas:
        return Encounter(fracas.store, encounter, snapshots=False).state


def state_ready(path: Path, encounter: str) -> Any:
    """What a command pays before it can decide: open the log, the fight's state now."""
    with Fracas(path, readonly=True) as fracas:
        return Encounter(fracas.store, encounter).state


def without_snapshots(path: Path) -> Path:
    copy = path.with_name(f"{path.stem}-nosnap.db")
    conn = sqlite3.connect(path)
    conn.execute("VACUUM INTO ?", (str(copy),))
    conn.close()
    conn = sqlite3.connect(copy)
    conn.execute("DELETE FROM snapshots")
    conn.commit()
    conn.close()
    return copy


def fold_memory(path: Path, encounter: str) -> int:
    """Peak bytes Python allocates while folding the whole fight (tracemalloc)."""
    import tracemalloc

    tracemalloc.start()
    fracas_fold(path, encounter)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def ready_figures(folder: Path) -> None:
    print("(0) state ready (open, fold to now), best of 7:")
    ready = {}
    for size in (1_000, 10_000, 100_000):
        path = folder / f"ready{size}.db"
        encounter = build_fight(path, size)
        bare = without_snapshots(path)
        assert state_ready(path, encounter) == state_ready(bare, encounter)
        ready[size] = best_of(7, lambda p=path, e=encounter: state_ready(p, e))
        full = best_of(7, lambda p=bare, e=encounter: state_ready(p, e))
        print(
            f"    {size:>7} events: {ready[size] * 1000:6.2f} ms from snapshots, "
            f"{full * 1000:7.2f} ms with none"
        )
        if size == 100_000:
            print(f"    memory of a 100k fold: {fold_memory(path, encounter) / 2**20:.1f} MiB peak")
    print(f"    100k / 1k: {ready[100_000] / ready[1_000]:.2f}x (target <= 2x)")


def eventsourcing_fold(path: Path, events: int) -> float:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Fighter(Aggregate):
        def __init__(self) -> None:
            self.hp = 10**9

        @event("Damaged")
        def damaged(self, amount: int) -> None:
            self.hp -= amount

    class Fights(Application):
        pass

    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    app = Fights(env=env)
    fighter = Fighter()
    for _ in range(events - 1):
        fighter.damaged(3)
    app.save(fighter)
    reader = Fights(env=env)
    seconds = best_of(3, lambda: reader.repository.get(fighter.id))
    assert reader.repository.get(fighter.id).hp == 10**9 - 3 * (events - 1)
    return seconds


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


class RawCommits:
    """The baseline: one INSERT and COMMIT with plain sqlite3, WAL, synchronous=FULL."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
        self.n = 0

    def commit(self) -> None:
        self.n += 1
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute("INSERT INTO t (body) VALUES (?)", (f'{{"n": {self.n}}}',))
        self.conn.execute("COMMIT")


def attack(encounter: Encounter) -> Any:
    actor = encounter.state.turn
    target = "bob" if actor == "alice" else "alice"
    return RULESET.command(
        {"action": "attack", "actor": actor, "targets": [target], "weapon": "pistol"}
    )


def durable_latencies(folder: Path, count: int) -> dict[str, list[float]]:
    """Raw commit, fracas append of a decided attack step (evolve, projections, hash chain,
    commit) and the whole attack command (decide + append), interleaved so that all three
    meet the same disk."""
    raw = RawCommits(folder / "raw.db")
    timings: dict[str, list[float]] = {"raw": [], "append": [], "command": []}
    with Fracas(folder / "append.db") as fracas:
        encounter = fracas.new("percentile")
        for name in ("alice", "bob"):
            sheet = {**FIGHTER, "dex": len(name) * 3}
            encounter.execute(
                RULESET.command({"action": "join", "combatant": name, "sheet": sheet})
            )
        encounter.execute(RULESET.command({"action": "begin"}))
        for _ in range(count):
            start = time.perf_counter()
            raw.commit()
            timings["raw"].append(time.perf_counter() - start)
            events = encounter.decide(attack(encounter), dice=[30, 5])
            start = time.perf_counter()
            encounter.record(events)
            timings["append"].append(time.perf_counter() - start)
            command = attack(encounter)
            start = time.perf_counter()
            encounter.execute(command, dice=[30, 5])
            timings["command"].append(time.perf_counter() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--appends", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ready_figures(folder)
        fight_db = folder / "fight.db"
        started = time.perf_counter()
        encounter = build_fight(fight_db, args.events)
        with Fracas(fight_db) as fracas:
            stored = fracas.store.head(encounter).version
            control = sum(
                1 for _, kind, _, _ in fracas.store.rows(encounter) if kind in CONTROL_KINDS
            )
        print(
            f"built a percentile fight of {stored} events in "
            f"{time.perf_counter() - started:.1f} s ({control} undo/redo events)"
        )
        assert raw_fold(fight_db, encounter) == fracas_fold(fight_db, encounter)
        ours = best_of(5, lambda: fracas_fold(fight_db, encounter))
        raw = best_of(5, lambda: raw_fold(fight_db, encounter))
        theirs = eventsourcing_fold(folder / "es.db", stored)
        print(
            f"(a) fold {stored} events: fracas {ours * 1000:.0f} ms, raw sqlite3+msgspec "
            f"{raw * 1000:.0f} ms, eventsourcing {theirs * 1000:.0f} ms"
        )
        print(
            f"    fracas speed vs raw: {raw / ours:.2f}x (target >= 0.5x); "
            f"vs eventsourcing: {theirs / ours:.1f}x (target >= 10x)"
        )
        timings = durable_latencies(folder, args.appends)
        raw_median = statistics.median(timings["raw"])
        print(
            f"(b) durable writes at synchronous=FULL, {args.appends} runs each, interleaved; "
            f"raw sqlite3 commit median {raw_median * 1000:.3f} ms, p99 "
            f"{percentile(timings['raw'], 0.99) * 1000:.3f} ms"
        )
        for key, label in (
            ("append", "append of one attack step"),
            ("command", "whole attack command (decide + append)"),
        ):
            median = statistics.median(timings[key])
            print(
                f"    {label}: median {median * 1000:.3f} ms "
                f"({median / raw_median:.2f}x raw; target <= 2x), "
                f"p99 {percentile(timings[key], 0.99) * 1000:.3f} ms (target <= 2 ms)"
            )


if __name__ == "__main__":
    main()
