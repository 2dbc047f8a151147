"""One contract for the store, run against every backend it has (file and in-memory SQLite)."""

import sqlite3
import threading
from pathlib import Path

import pytest

from fracas.ledger import ConflictError, NewEvent, Store


def ev(n: int) -> NewEvent:
    return NewEvent("note", f'{{"kind":"note","text":"event {n}"}}')


class StoreContract:
    @pytest.fixture
    def store(self, tmp_path: Path) -> Store:
        raise NotImplementedError

    def test_a_step_is_one_atomic_batch(self, store: Store) -> None:
        result = store.append("enc", [ev(1), ev(2), ev(3)], expected_version=0, command_id="c1")
        assert (result.step, result.first_version, result.last_version) == (1, 1, 3)
        assert [e.step for e in store.events("enc")] == [1, 1, 1]

    def test_an_exception_mid_transaction_leaves_no_trace(self, store: Store) -> None:
        def explode(conn: sqlite3.Connection) -> None:
            conn.execute("SELECT 1")
            raise RuntimeError("power cut")

        with pytest.raises(RuntimeError):
            store.append(
                "enc", [ev(1), ev(2)], expected_version=0, command_id="c1", project=explode
            )
        assert list(store.events()) == [] and store.head("enc") == (0, 0)
        assert store.append("enc", [ev(1)], expected_version=0, command_id="c1").step == 1

    def test_expected_version_mismatch_is_a_conflict(self, store: Store) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        with pytest.raises(ConflictError, match="reload"):
            store.append("enc", [ev(2)], expected_version=3, command_id="c2")
        with pytest.raises(ConflictError, match="'enc' already exists"):
            store.append("enc", [ev(2)], expected_version=0, command_id="c3")
        assert len(list(store.events("enc"))) == 1

    def test_retrying_a_command_id_returns_the_original_step(self, store: Store) -> None:
        first = store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        again = store.append("enc", [ev(9)], expected_version=1, command_id="c1")
        assert again.duplicate and again.step == first.step
        assert [e.body for e in store.events("enc")] == [ev(1).body]

    def test_events_come_back_in_order_across_encounters(self, store: Store) -> None:
        store.append("a", [ev(1), ev(2)], expected_version=0, command_id="a1")
        store.append("b", [ev(3)], expected_version=0, command_id="b1")
        store.append("a", [ev(4)], expected_version=2, command_id="a2")
        assert [e.version for e in store.events("a")] == [1, 2, 3]
        assert [e.position for e in store.events()] == [1, 2, 3, 4]
        assert store.encounters() == ["a", "b"]

    @pytest.mark.parametrize(
        "sql",
        [
            "UPDATE events SET body = 'x'",
            "DELETE FROM events",
            "UPDATE steps SET author = 'x'",
            "DELETE FROM steps",
        ],
    )
    def test_triggers_refuse_update_and_delete(self, store: Store, sql: str) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            store.conn.execute(sql)

    def test_the_hash_chain_names_the_first_bad_position(self, store: Store) -> None:
        for n in range(1, 6):
            store.append("enc", [ev(n)], expected_version=n - 1, command_id=f"c{n}")
        assert store.verify().ok and store.verify().checked == 5
        store.conn.execute("DROP TRIGGER events_no_update")
        store.conn.execute("UPDATE events SET body = ? WHERE position = 3", (ev(99).body,))
        report = store.verify()
        assert (report.ok, report.first_bad_position) == (False, 3)

    def test_a_deleted_row_breaks_the_chain(self, store: Store) -> None:
        for n in range(1, 4):
            store.append("enc", [ev(n)], expected_version=n - 1, command_id=f"c{n}")
        store.conn.execute("DROP TRIGGER events_no_delete")
        store.conn.execute("DELETE FROM events WHERE position = 2")
        assert store.verify().first_bad_position == 2


class TestFileStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Store:
        return Store(tmp_path / "log.db")

    def test_reopening_keeps_everything_and_migrates_once(self, tmp_path: Path) -> None:
        path = tmp_path / "log.db"
        Store(path).append("enc", [ev(1)], expected_version=0, command_id="c1")
        reopened = Store(path)
        assert reopened.schema_version == 2 and reopened.head("enc") == (1, 1)
        assert reopened.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert reopened.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL

    def test_two_connections_racing_get_one_conflict_and_lose_nothing(self, tmp_path: Path) -> None:
        path = tmp_path / "race.db"
        Store(path).append("enc", [ev(0)], expected_version=0, command_id="c0")
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def writer(index: int) -> None:
            store = Store(path)
            barrier.wait()
            try:
                store.append(
                    "enc", [ev(index), ev(index + 10)], expected_version=1, command_id=f"w{index}"
                )
                outcomes.append("ok")
            except ConflictError:
                outcomes.append("conflict")

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["conflict", "ok"]
        check = Store(path)
        assert [e.version for e in check.events("enc")] == [1, 2, 3]
        assert check.verify().ok


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Store:
        return Store(":memory:")
