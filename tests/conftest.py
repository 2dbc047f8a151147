import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bench.pgserver import INSTALL_HINT, Server, binaries
from fracas.cli.main import cli
from fracas.projections import Fracas
from tests.support import ON_POSTGRES

# `pytest --tier slow` or `all` (README, Set up); logs opened in the test's process commit unflushed
pytest_plugins = ["fracas.testing.tiers", "fracas.testing.unflushed"]


# -- the backend the suite runs against ------------------------------------------------------
#
# FRACAS_TEST_BACKEND=postgresql runs the whole CLI and API suite against a real PostgreSQL
# server: every log a test opens by path (through `Fracas`, `Store`-free) lives in a schema of
# its own on that server. Tests about the SQLite file itself are marked `sqlite_file`.

_schemas = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_file: the test reads or edits the SQLite file")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ON_POSTGRES:
        kept = [item for item in items if "sqlite_file" not in item.keywords]
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """One PostgreSQL cluster for the session (Debian's binaries), or a one-line skip."""
    if binaries() is None:
        if os.environ.get("FRACAS_CI"):
            pytest.fail(f"CI needs PostgreSQL: {INSTALL_HINT}")
        pytest.skip(f"PostgreSQL tests need the server: {INSTALL_HINT}")
    server = Server(durable=False).start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: Server) -> str:
    """A fresh log (its own schema) on the session's server."""
    return pg_server.url(f"t{next(_schemas)}")


PRIVATE_BUILD = re.compile(r"^\.(.+)\.new-[0-9a-f]{12}$")


def built_as(location: str) -> str:
    """The log a path stands for: a new file's private build (see App.creating) is the log
    it will be put in place as, so on the server both are one schema."""
    folder, name = os.path.split(os.path.abspath(location))
    found = PRIVATE_BUILD.match(name)
    return os.path.join(folder, found[1]) if found else os.path.abspath(location)


@pytest.fixture(autouse=True)
def _logs_on_the_server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the switch, a log opened by path opens a schema of the test server instead."""
    if not ON_POSTGRES:
        return
    from fracas.ledger import open as opening

    server = request.getfixturevalue("pg_server")
    schemas: dict[str, str] = {}
    real = opening.open_store

    def redirected(location: str, **options: Any):
        if location != ":memory:" and not opening.is_server(location):
            location = server.url(schemas.setdefault(built_as(location), f"t{next(_schemas)}"))
        return real(location, **options)

    monkeypatch.setattr("fracas.projections.app.open_store", redirected)
    monkeypatch.setattr("fracas.ledger.open.open_store", redirected)  # the CLI's quick reads


@pytest.fixture
def log_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The log a test plays in: a file, or under the switch a schema on the test server."""
    if ON_POSTGRES:
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "fight.db")


@pytest.fixture
def run(log_location: str):
    """The `fracas` command on one log, as a GM types it; `ok=False` for a refusal."""
    db = log_location  # the log the `fracas` fixture opens too
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(cli, ["--db", db, *args])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    invoke.db = db  # type: ignore[attr-defined]
    return invoke


@pytest.fixture
def fracas(log_location: str) -> Iterator[Fracas]:
    with Fracas(log_location) as opened:
        yield opened


@pytest.fixture
def snapshots_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot every few events, so that short fights have many."""
    from fracas.rules import snapshots

    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (Debian's, never a downloaded one) for a browser test module."""
    from tests.web import chromium

    with chromium() as launched:
        yield launched
