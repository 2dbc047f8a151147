"""Races between the table's processes (issue 42), run long:

    python -m bench.reliability.races [--seconds 60] [--readers 4] [--rounds 100]

- the reader race: a writer appends commands, undos and redos to one encounter while
  readers open it again and again, on SQLite and on PostgreSQL; every open must read one
  state of the log (an error is an open that failed or folded what its records do not say);
- two `fracas next` at once, for many rounds: both carry the turn they saw, so each round
  ends exactly one turn and the other is refused in one line.

tests/test_trust_races.py runs each small.
"""

import argparse
import multiprocessing
import time
from pathlib import Path
from typing import Any

from bench.pgserver import Server, binaries
from bench.reliability.trials import Figures, fracas_cli, traceback_in
from fracas.ledger import FracasError
from fracas.projections import Fracas
from fracas.rules import Encounter

SHEETS = [("alice", {"dex": 14}), ("bob", {"dex": 10}), ("carol", {"dex": 12})]


def started(where: str) -> str:
    """A begun percentile fight of three at `where`; its id."""
    with Fracas(where) as table:
        live = table.new("percentile", title="race")
        for name, sheet in SHEETS:
            live.execute(
                live.ruleset.command(
                    {"action": "join", "combatant": name, "sheet": sheet, "side": "pc"}
                )
            )
        live.execute(live.ruleset.command({"action": "begin"}))
        return live.id


def write(where: str, encounter: str, until: float) -> None:
    """Commands, undos and redos, as fast as they go, until the clock says stop."""
    with Fracas(where) as table:
        live = table.encounter(encounter)
        moves = 0
        while time.time() < until:
            try:
                live.execute(live.ruleset.command({"action": "next"}))
                live.undo()
                live.redo()
                if moves % 3 == 0:
                    live.undo()  # left undone: the next command clears the redo
            except FracasError:
                live.reload()
            moves += 1


def read(where: str, encounter: str, until: float, results: "multiprocessing.Queue") -> None:
    """Open the encounter again and again; count the opens and what went wrong."""
    opens, errors, first = 0, 0, ""
    with Fracas(where, readonly=True, create=False) as table:
        while time.time() < until:
            try:
                seen = Encounter(table.store, encounter)
                if seen.state != seen.fold(seen.history, seen.history.head_step):
                    raise AssertionError("the fold does not match its own history")
                opens += 1
            except Exception as error:  # what the trial counts
                errors += 1
                first = first or f"{type(error).__name__}: {error}"
    results.put((opens, errors, first))


def reader_race(where: str, seconds: float, readers: int, name: str) -> Figures:
    figures = Figures(f"reader race ({name})")
    encounter = started(where)
    until = time.time() + seconds
    results: multiprocessing.Queue = multiprocessing.Queue()
    writer = multiprocessing.Process(target=write, args=(where, encounter, until))
    reading = [
        multiprocessing.Process(target=read, args=(where, encounter, until, results))
        for _ in range(readers)
    ]
    for process in (writer, *reading):
        process.start()
    for _ in reading:
        opens, errors, first = results.get(timeout=seconds + 120)
        figures.add("opens", opens)
        figures.add("errors", errors)
        if first:
            print(f"  {name}: {first}")
    for process in (writer, *reading):
        process.join()
    with Fracas(where, readonly=True, create=False) as table:
        figures.add("steps written", table.encounter(encounter).history.head_step)
    figures.trials = readers
    return figures


def turn_of(db: Path) -> str:
    return fracas_cli(db, "turn").stdout.strip()


def parallel_next(workdir: Path, rounds: int) -> Figures:
    """Two `fracas next --turn T` at once, `rounds` times, on a fight of three."""
    db = workdir / "next.db"
    started(str(db))
    return next_rounds(db, rounds)


def next_rounds(db: Path, rounds: int) -> Figures:
    """Two `fracas next --turn T` at once on the fight at `db`, `rounds` times: how many
    turns each round ended, and any refusal that was not one line."""
    figures = Figures("two `next` at once", trials=rounds)
    for _ in range(rounds):
        turn = turn_of(db)
        before = steps_of(db)
        with multiprocessing.Pool(2) as pool:
            said = pool.starmap(next_process, [(db, turn), (db, turn)])
        figures.add(f"rounds ending {steps_of(db) - before} turn(s)")
        for problem in filter(None, said):
            figures.add("refusals not in one line")
            print(f"  {problem}")
    return figures


def next_process(db: Path, turn: str) -> str:
    """One `fracas next --turn`: '' if it landed or was refused in one line."""
    done = fracas_cli(db, "next", "--turn", turn)
    if done.returncode == 0:
        return ""
    if traceback_in(done.stderr) or done.stderr.count("\n") != 1:
        return f"not one line: {done.stderr!r}"
    return ""


def page_races_play(workdir: Path, rounds: int) -> Figures:
    """The GM's page and `fracas play` pressing `next` at once, `rounds` times, each on the
    turn it shows: how many turns each round ended."""
    figures = Figures("the GM page racing play", trials=rounds)
    db = workdir / "page.db"
    started(str(db))
    for _ in range(rounds):
        before = steps_of(db)
        # both are shown the turn before either presses: a busy machine may otherwise start
        # play after the page's `next` landed, and play would rightly end the turn it shows
        with multiprocessing.Manager() as manager, multiprocessing.Pool(2) as pool:
            shown = manager.Barrier(2)
            page = pool.apply_async(page_next, (db, before, shown))
            play = pool.apply_async(play_next, (db, shown))
            said = [page.get(120), play.get(120)]
        figures.add(f"rounds ending {steps_of(db) - before} turn(s)")
        for problem in filter(None, said):
            figures.add("refusals not in one line")
            print(f"  {problem}")
    return figures


def page_next(db: Path, seen: int, shown: Any) -> str:
    """The GM page's `next`, sent with the step the page shows, once play shows its turn."""
    from fracas.cli.serve import Table

    page = Table(str(db), "bench")
    try:
        name = page.worker.submit(page.encounter, None).result()
        shown.wait(120)
        said = page.worker.submit(page.command, name, "next", None, seen).result()
    finally:
        page.close()
    refusal = said["refusal"]
    return f"not one line: {refusal!r}" if "\n" in refusal.strip() else ""


def play_next(db: Path, shown: Any) -> str:
    """`fracas play`'s `n`, carrying the turn its bar shows, once the page shows its turn."""
    import contextlib
    import io

    from fracas.cli.main import App, cli
    from fracas.cli.shell import Session

    app = App(str(db), None)
    play = Session(app, cli)
    play.prompt()  # what the GM is shown
    shown.wait(120)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        play.run("n")
    app.close()
    return f"not one line: {play.last!r}" if "\n" in play.last else ""


def steps_of(db: Path) -> int:
    with Fracas(str(db), readonly=True, create=False) as table:
        return table.encounter().history.head_step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--only", choices=("readers", "next"), default=None)
    options = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as workdir:
        found: list[Figures] = []
        if options.only in (None, "readers"):
            where = str(Path(workdir) / "race.db")
            found.append(reader_race(where, options.seconds, options.readers, "SQLite"))
            if binaries() is not None:
                with Server(durable=False) as server:
                    found.append(
                        reader_race(
                            server.url("race"), options.seconds, options.readers, "PostgreSQL"
                        )
                    )
        if options.only in (None, "next"):
            found.append(parallel_next(Path(workdir), options.rounds))
            found.append(page_races_play(Path(workdir), options.rounds))
        for figures in found:
            shown = ", ".join(f"{k}: {v}" for k, v in figures.counts.items())
            print(f"{figures.name}: {figures.trials} runs; {shown}")


if __name__ == "__main__":
    main()
