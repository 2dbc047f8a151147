"""The reliability harness at full size: one table of figures.

    python -m bench.reliability.run [--crashes 100] [--writers 8] [--edits 200] [--inputs 600]

Run from the repository root, as root for the read-only media and full-disk trials (they
mount a read-only bind mount and a tiny tmpfs). A promise holds when every count in a
"bad" column is 0.
"""

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.reliability import damage, guard, postgres, trials, web


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--crashes", type=int, default=100)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--steps", type=int, default=25, help="steps per concurrent writer")
    parser.add_argument("--edits", type=int, default=200, help="random edits in the tamper matrix")
    parser.add_argument("--inputs", type=int, default=600, help="hostile inputs")
    parser.add_argument("--pairs", type=int, default=5, help="fight pairs for non-interference")
    parser.add_argument("--damaged", type=int, default=200, help="copies with random bytes")
    parser.add_argument("--pg-writers", type=int, default=16, help="writers on one encounter")
    parser.add_argument("--pg-appends", type=int, default=1400, help="appends per writer")
    parser.add_argument("--pg-fights", type=int, default=20, help="fights the players' role reads")
    options = parser.parse_args()
    runs = [
        lambda d: trials.crash_trials(d, options.crashes),
        lambda d: trials.concurrent_writers(d, options.writers, options.steps),
        lambda d: trials.racing_new(d, 4),
        lambda d: trials.tamper_matrix(d, options.edits),
        lambda d: trials.hostile_inputs(d, options.inputs),
        lambda d: trials.non_interference(d, options.pairs),
        trials.seed_in_bytes,
        trials.status_under_lock,
        trials.opening_files,
        trials.read_only_media,
        trials.full_disk,
        lambda d: web.http_fuzz(d, options.inputs),
        lambda d: postgres.restart_trial(d, outages=(0.5, 1.0, 3.0, 8.0, 8.0)),
        lambda d: postgres.one_encounter_appends(d, options.pg_writers, options.pg_appends),
        lambda d: postgres.players_role(d, options.pg_fights, moves=80),
        lambda d: guard.racing_new_missing(d, rounds=50, racers=5),
        guard.hostile_numbers,
        lambda d: damage.random_bytes(d, options.damaged),
    ]
    table = Table(title="fracas reliability")
    for column in ("trial", "runs", "figures", "seconds"):
        table.add_column(column)
    for run in runs:
        with tempfile.TemporaryDirectory() as workdir:
            started = time.perf_counter()
            try:
                figures = run(Path(workdir))
            except PermissionError as error:
                name = run.__name__.replace("<lambda>", "a trial")
                table.add_row(name, "0", f"not run: {error}", "")
                continue
            shown = ", ".join(f"{k}: {v}" for k, v in figures.counts.items())
            elapsed = f"{time.perf_counter() - started:.1f}"
            table.add_row(figures.name, str(figures.trials), shown, elapsed)
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
