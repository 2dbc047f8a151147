"""An action in `fracas play` on the sixth ruleset: a long d20 fight is opened once, as
`fracas play` opens it, then each line (an attack typed with its die, then `next`) is timed
through the shell session, exactly as a line typed at the prompt runs. Target: <= 10 ms.

    python plugins/srd/bench/bench_play.py [--steps 500] [--lines 200]

(A bench, not part of the package: it drives fracas's own shell, as a table would.)
"""

import argparse
import contextlib
import io
import statistics
import tempfile
import time
import tomllib
from importlib import resources
from pathlib import Path

from fracas.cli.main import App, cli
from fracas.cli.shell import Session
from fracas.projections import Fracas


def sample(name: str) -> dict:
    return tomllib.loads(resources.files("fracas_srd").joinpath(f"samples/{name}.toml").read_text())


def build(path: Path, steps: int) -> None:
    """Two tireless fighters trade missed blows until the fight has `steps` steps."""
    with Fracas(path) as table:
        fight = table.new("srd", encounter="bench")
        table.add("alice", {**sample("fighter"), "hp": 10_000}, "bench", side="pc")
        table.add("bob", {**sample("fighter"), "hp": 10_000, "dex": 10}, "bench")
        rules = fight.ruleset
        fight.execute(rules.command({"action": "begin"}), dice=[15, 5])
        while fight.history.head_step < steps:
            actor = fight.view().acting[0]
            target = "bob" if actor == "alice" else "alice"
            attack = {
                "action": "attack",
                "actor": actor,
                "targets": [target],
                "weapon": "longsword",
            }
            fight.execute(rules.command(attack), dice=[2])
            fight.execute(rules.command({"action": "next"}))


def in_the_shell(path: Path, lines: int) -> list[float]:
    app = App(str(path), "bench")
    session = Session(app, cli)
    times, sink = [], io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        for number in range(lines):
            actor = session.live.view().acting[0]
            target = "bob" if actor == "alice" else "alice"
            line = f"act {actor} attack {target} -w longsword --dice 2" if number % 2 else "next"
            started = time.perf_counter()
            session.run(line)
            times.append(time.perf_counter() - started)
            sink.seek(0)
            sink.truncate()
    app.close()
    assert "refused" not in session.last, session.last
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--lines", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        build(path, args.steps)
        times = sorted(in_the_shell(path, args.lines))
    p99 = times[round(0.99 * (len(times) - 1))]
    median = statistics.median(times)
    print(f"srd, {args.steps}-step fight: a line in play, median {median * 1000:.2f} ms, "
          f"p99 {p99 * 1000:.2f} ms (target: median <= 10 ms)")  # fmt: skip


if __name__ == "__main__":
    main()
