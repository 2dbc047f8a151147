"""Secrets that never lie: what the players see at once, and what working it out costs.

    python bench/bench_secrets.py [--fights 100] [--steps 300]

- Liveness, per ruleset: random fights with GM-only rolls (one move in two) and a hidden
  combatant in one in two (the conformance kit's casts, fracas.testing.liveness). Of the
  steps after the first undisclosed secret (up to an undo or redo of a withheld step), the
  share the players see at once: with the rule as it was (a secret taints
  all it names or changes, and the turn if it moved it) and as it is now (re-deciding); and
  the maximal safe view, by brute force. Goal: now = maximal.
- Cost, the shot-by-shot table: a percentile fight of `--steps` steps, one attack in ten
  GM-only (a pistol on 40 HP: it cannot decide the turn). Per step appended: the append
  (`play`'s action, target <= 10 ms), and the players' page rendered anew by the server
  (target p99 <= 200 ms).
"""

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, OrderedDict
from pathlib import Path
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from fracas.cli.serve import Table
from fracas.projections import Fracas
from fracas.projections.screen import PLAYERS
from fracas.projections.secrecy import players_cut
from fracas.testing.checks import fights
from fracas.testing.fights import cast_installed
from fracas.testing.liveness import MASKED, SHOWN, maximal_view, secret_fight

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
PISTOL = {"name": "pistol", "kind": "firearm", "damage": "1d10"}


def casts() -> dict:
    from tests.test_conformance import CASTS

    found = dict(CASTS)
    with contextlib.suppress(ImportError):
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins/srd/tests"))
        from test_conformance import TestSrdKeepsTheContract

        found["srd"] = TestSrdKeepsTheContract.cast
    return found


def liveness(name: str, cast, count: int) -> Counter:
    tally: Counter = Counter()

    @fights(count)
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        with cast_installed(cast):
            _fracas, encounter, frames, hidden = secret_fight(cast, data)
            fates, _worlds = maximal_view(frames, encounter.ruleset, hidden)
            now = players_cut(frames, encounter.ruleset)
            with (  # the rule as it was: no outcome tried, nothing remembered from `now`
                mock.patch("fracas.projections.secrecy.every_outcome", lambda *a, **k: None),
                mock.patch("fracas.projections.secrecy._worlds_after", OrderedDict()),
                mock.patch("fracas.projections.secrecy._reaches", OrderedDict()),
            ):
                before = players_cut(frames, encounter.ruleset)
        tally["fights"] += 1
        for step, fate in fates.items():
            if fate == MASKED:
                continue
            tally["steps"] += 1
            tally["maximal"] += fate == SHOWN
            for label, cut in (("now", now), ("before", before)):
                seen = cut.seen[step]
                tally[label] += seen.number is not None and not seen.masked

    one()
    return tally


def table_cost(steps: int) -> tuple[list[float], list[float]]:
    """Milliseconds per append, and per players' page rendered after it."""
    appends, pages = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        with Fracas(path) as table:
            fight = table.new("percentile", encounter="bench")
            for who, dex in (("alice", 14), ("bob", 10)):
                sheet = {"dex": dex, "hp": 40, "skills": {"firearms": 60}}
                table.add(who, {**sheet, "weapons": [PISTOL], "holding": ["pistol"]}, "bench")
            rules = fight.ruleset
            fight.execute(rules.command({"action": "begin"}))
            screen = Table(str(path), "token")
            n = 0
            while fight.history.head_step < steps:
                attack = shot_at_the_other(fight.view().acting[0])
                started = time.perf_counter()
                fight.execute(rules.command(attack), dice=[95], secret=n % 10 == 3)
                appends.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                screen.render_screen("bench", PLAYERS)
                pages.append((time.perf_counter() - started) * 1000)
                n += 1
            if screen.reader is not None:
                screen.reader.close()
            screen.worker.shutdown()
    return appends, pages


def shot_at_the_other(actor: str) -> dict:
    """Alice shoots Bob, or Bob Alice, with the pistol."""
    other = {"alice": "bob", "bob": "alice"}[actor]
    return {"action": "attack", "actor": actor, "targets": [other], "weapon": "pistol"}


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.99) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=100)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--rulesets", default="")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    chosen = casts()
    names = args.rulesets.split(",") if args.rulesets else sorted(chosen)
    print(f"{'ruleset':<11} {'fights':>6} {'steps':>6} {'before':>7} {'now':>7} {'maximal':>8}")
    for name in names:
        started = time.perf_counter()
        t = liveness(name, chosen[name], args.fights)
        share = {k: f"{100 * t[k] / t['steps']:.0f}%" if t["steps"] else "-" for k in t}
        print(
            f"{name:<11} {t['fights']:>6} {t['steps']:>6} {share.get('before', '-'):>7} "
            f"{share.get('now', '-'):>7} {share.get('maximal', '-'):>8}"
            f"  ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    appends, pages = table_cost(args.steps)
    print(
        f"table, {args.steps} steps, one attack in ten GM-only: append median "
        f"{statistics.median(appends):.1f} ms, p99 {p99(appends):.1f} ms; players' page "
        f"median {statistics.median(pages):.1f} ms, p99 {p99(pages):.1f} ms"
    )


if __name__ == "__main__":
    main()
