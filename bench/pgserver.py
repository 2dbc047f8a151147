"""A real PostgreSQL server for the tests and the benchmarks: Debian's own binaries
(`initdb`, `pg_ctl`) on a temporary directory and a free port on 127.0.0.1.

Nothing is downloaded: `apt-get install postgresql` provides the binaries (`.ci/run` does).
As root, the server runs as the `postgres` user the package creates (PostgreSQL refuses
to run as root).
"""

import argparse
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = "install PostgreSQL's server binaries: sudo apt-get install postgresql"


def binaries() -> Path | None:
    """The directory holding initdb and pg_ctl: on PATH, or Debian's versioned directory."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(versions[0]).parent if versions else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`with Server() as server:` one throwaway cluster; `server.url(schema)` names a log."""

    def __init__(
        self,
        *,
        durable: bool = True,
        max_connections: int = 250,
        cluster: Path | None = None,
        settings: dict[str, str] | None = None,
    ) -> None:
        """A new cluster in a temporary directory, or the one already in `cluster`;
        `settings` are more server settings (name: value)."""
        self.bin = binaries()
        self.settings = settings or {}
        if self.bin is None:
            raise FileNotFoundError(INSTALL_HINT)
        self.durable, self.max_connections = durable, max_connections
        self.dir = cluster or Path(tempfile.mkdtemp(prefix="fracas-pg-"))
        self.data, self.port = self.dir / "data", free_port()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, text=True)

    def start(self) -> "Server":
        if self._as:
            shutil.chown(self.dir, "postgres")
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "fracas", "--auth=trust",
            "-E", "UTF8", "--no-locale",
        )  # fmt: skip
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server on its cluster (again, after `crash`), on the same port."""
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
            f"-c max_connections={self.max_connections} -c shared_buffers=128MB"
        )
        if not self.durable:  # tests: a crash loses nothing we keep
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        options += "".join(f" -c {name}={value}" for name, value in self.settings.items())
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.dir / "server.log"), "-w", "-t", "60", "start",
        )  # fmt: skip

    def crash(self) -> None:
        """`pg_ctl stop -m immediate`: every server process quits at once, no checkpoint
        (the next start recovers from the WAL); the cluster is kept for `resume`."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def stop(self) -> None:
        try:
            self.crash()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, schema: str = "fracas") -> str:
        return f"postgresql://fracas@127.0.0.1:{self.port}/postgres?schema={schema}"

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str]) -> None:
    """`python -m bench.pgserver start DIR` starts a server and prints a log's URL on it,
    noting in the new directory DIR where its cluster lives (a temporary directory the
    server's user can reach); `python -m bench.pgserver stop DIR` stops it, removes both."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.pgserver",
        description="A throwaway PostgreSQL server (Debian's binaries) for a fracas log.",
    )
    parser.add_argument(
        "command", choices=("start", "stop"), help="start: print a log's URL; stop: remove it"
    )
    parser.add_argument("directory", help="a new directory noting where the server lives")
    options = parser.parse_args(argv)
    note = Path(options.directory) / "cluster"
    if options.command == "start":
        if os.path.lexists(options.directory):
            parser.exit(1, f"{options.directory} exists already: name a new directory\n")
        server = Server().start()
        note.parent.mkdir(parents=True)
        note.write_text(str(server.dir))
        print(server.url())
        return
    if not note.is_file():
        parser.exit(1, f"no server was started with {options.directory}: nothing to stop\n")
    Server(cluster=Path(note.read_text())).stop()
    shutil.rmtree(options.directory)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
