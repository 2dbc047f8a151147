"""The hostile user's trials of a log on a PostgreSQL server (Debian's binaries, started
here by bench/pgserver.py): a server restarted under a running `fracas serve` and a Python
session, many writers appending to one encounter, and what the players' role can read.

`bench/reliability/run.py` runs them at full size; tests/test_postgres_trust.py small.
"""

import json
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bench.pgserver import INSTALL_HINT, Server, binaries
from bench.reliability.trials import FRACAS, PYTHON, Figures, traceback_in
from fracas.ledger import FracasError, open_store
from fracas.projections import Fracas


def need_server() -> None:
    """PermissionError (what run.py reports as `not run`) when there is no server to start."""
    if binaries() is None:
        raise PermissionError(INSTALL_HINT)


# -- a server restarted under a running serve and a running API session ----------------------


class Session(threading.Thread):
    """A Python caller appending notes to one encounter as fast as it can, counting what the
    API acknowledged, what it refused in one line, and what escaped raw."""

    def __init__(self, url: str, encounter: str) -> None:
        super().__init__(daemon=True)
        self.fracas = Fracas(url)
        self.live = self.fracas.encounter(encounter)
        self.acknowledged: list[float] = []
        self.refusals: list[str] = []
        self.raw: list[str] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.live.note(f"note {len(self.acknowledged)}")
                self.acknowledged.append(time.monotonic())
            except FracasError as error:
                self.refusals.append(str(error))
            except Exception as error:  # what escapes raw is what the trial counts
                self.raw.append(f"{type(error).__name__}: {error}")
                time.sleep(0.05)

    def stop(self) -> None:
        self.stopping.set()
        self.join(30)
        self.fracas.close()


class Serve:
    """`fracas serve` as a real process, its output read as it comes."""

    def __init__(self, url: str) -> None:
        self.process = subprocess.Popen(
            [*FRACAS, "--db", url, "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.root = ""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if found := re.search(r"players: (\S+)", line):
                self.root = found[1].rstrip("/")
            if "GM:" in line:
                break
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        self.lines.extend(self.process.stdout)

    def follow(self, encounter: str) -> None:
        """Keep the encounter's players' page open, as the table's screen does: the screens
        the server pushes land in `pushed` (their step counts)."""
        self.pushed: list[int] = []
        stream = urllib.request.urlopen(f"{self.root}/e/{encounter}/stream", timeout=120)

        def read() -> None:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("data:"):
                    self.pushed.append(json.loads(line.split(":", 1)[1])["steps"])

        threading.Thread(target=read, daemon=True).start()

    def steps(self, encounter: str) -> int | None:
        """The step count the players' screen shows; None while it cannot be shown."""
        try:
            url = f"{self.root}/e/{encounter}/screen"
            html = urllib.request.urlopen(url, timeout=10).read().decode()
        except (urllib.error.URLError, TimeoutError):
            return None
        return int(html.split('data-steps="', 1)[1].split('"', 1)[0])

    def stop(self) -> str:
        """What it printed while it ran (not how it shut down)."""
        time.sleep(0.2)  # its last lines reach the pipe
        printed = "".join(self.lines)
        self.process.terminate()
        self.process.wait(10)
        return printed


def restart_trial(workdir: Path, outages: tuple[float, ...] = (1.0, 8.0)) -> Figures:
    """A durable server stopped with `pg_ctl stop -m immediate` and started again, once per
    outage (seconds down), under a running `fracas serve` and a running API session: no
    acknowledged step lost, no raw driver error, one line while down, back by itself."""
    need_server()
    figures = Figures(f"server restarts under serve and a session ({len(outages)} outages)")
    with Server() as server:
        url = server.url("restarts")
        with Fracas(url) as fracas:
            fracas.new("percentile", title="restarts", encounter="restarts")
        serve, session = Serve(url), Session(url, "restarts")
        serve.follow("restarts")
        session.start()
        recovered = {"session": 0.0, "serve": 0.0}
        try:
            for outage in outages:
                time.sleep(0.5)
                server.crash()
                time.sleep(outage)
                server.resume()
                back = time.monotonic()
                wait_for(lambda b=back: bool(session.acknowledged) and session.acknowledged[-1] > b)
                recovered["session"] = max(recovered["session"], time.monotonic() - back)
                shown = len(session.acknowledged)  # the screen shows these, and the start
                wait_for(lambda n=shown: bool(serve.pushed) and serve.pushed[-1] > n)
                recovered["serve"] = max(recovered["serve"], time.monotonic() - back)
                figures.trials += 1
        finally:
            session.stop()
            printed = serve.stop()
        with open_store(url, readonly=True) as store:
            recorded = store.head("restarts")[1] - 1  # step 1 started the encounter
            intact = store.verify().ok and store.check_steps().ok
    figures.add("seconds to recover: session (worst)", round(recovered["session"], 2))
    figures.add("seconds to recover: serve (worst)", round(recovered["serve"], 2))
    figures.add("acknowledged steps", len(session.acknowledged))
    figures.add("acknowledged steps lost", max(len(session.acknowledged) - recorded, 0))
    ours = ("fracas serve:", "  ", "Ctrl-C")  # its own lines: the banner, the one line
    stray = [line for line in printed.splitlines() if not line.startswith(ours)]
    figures.add("raw driver errors", len(session.raw))
    figures.add("serve's stray output lines", len(stray))
    figures.add("tracebacks", int(traceback_in(printed)))
    figures.add("refusals not one line", sum(1 for r in session.refusals if "\n" in r))
    unreachable = printed.count("is unreachable; retrying")
    long_outages = sum(1 for outage in outages if outage > 6)  # longer than a call waits
    figures.add("outages without the one line", max(long_outages - unreachable, 0))
    figures.add("broken logs", int(not intact))
    return figures


def wait_for(condition: Callable[[], bool], limit: float = 60.0) -> None:
    """Until `condition` holds (checked every 20 ms), or `limit` seconds."""
    deadline = time.monotonic() + limit
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


# -- many writers, one encounter -------------------------------------------------------------

WRITER = """
import json, sys
from fracas.ledger import ConflictError, FracasError
from fracas.projections import Fracas
url, name, each = sys.argv[1], sys.argv[2], int(sys.argv[3])
counts = {"acknowledged": 0, "conflicts": 0, "refusals": 0, "raw": 0, "kinds": []}
with Fracas(url) as fracas:
    live = fracas.encounter("crowd")
    while counts["acknowledged"] < each:
        try:
            live.note(f"writer {name} note {counts['acknowledged']}")
            counts["acknowledged"] += 1
        except ConflictError:
            counts["conflicts"] += 1  # the one-line conflict: the writer tries again
        except FracasError as error:
            counts["refusals"] += 1
            counts["kinds"].append(str(error))
        except Exception as error:
            counts["raw"] += 1
            counts["kinds"].append(type(error).__name__)
print(json.dumps(counts))
"""


def one_encounter_appends(workdir: Path, writers: int, each: int) -> Figures:
    """`writers` processes appending notes to one encounter at once, each trying again after
    the one-line conflict until it has `each` steps: no raw driver error (a deadlock or a
    serialisation failure is tried again inside fracas), no step lost or doubled."""
    need_server()
    figures = Figures(f"one encounter, {writers} writers x {each} appends")
    with Server(durable=False) as server:
        url = server.url("crowd")
        with Fracas(url) as fracas:
            fracas.new("percentile", title="crowd", encounter="crowd")
        children = [
            subprocess.Popen(
                [PYTHON, "-c", WRITER, url, str(n), str(each)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for n in range(writers)
        ]
        outputs = [child.communicate() for child in children]
        with open_store(url, readonly=True) as store:
            appended = store.head("crowd")[1] - 1
            versions = [event.version for event in store.events("crowd")]
            intact = store.verify().ok and store.check_steps().ok
    counts = [json.loads(out) for out, _ in outputs if out.strip()]
    figures.trials = writers * each
    figures.add("appends acknowledged", sum(c["acknowledged"] for c in counts))
    figures.add("one-line conflicts (tried again)", sum(c["conflicts"] for c in counts))
    figures.add("raw driver errors", sum(c["raw"] for c in counts))
    figures.add("other refusals", sum(c["refusals"] for c in counts))
    figures.add("writers that died", writers - len(counts))
    figures.add("tracebacks", sum(traceback_in(err) for _, err in outputs))
    figures.add("lost or doubled steps", abs(appended - writers * each))
    figures.add("lost or doubled versions", int(versions != list(range(1, len(versions) + 1))))
    figures.add("broken logs", int(not intact))
    return figures
