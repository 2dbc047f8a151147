"""One contract for the store, run against every backend: a SQLite file, SQLite in memory,
and a real PostgreSQL server."""

import multiprocessing
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.ledger import ConflictError, LogStore, NewEvent, NotFoundError, RefusedError, Store
from fracas.ledger import open_store as open_log
from fracas.ledger.base import (
    ASKED_KIND,
    GLANCE_INDEX,
    HIDDEN_KIND,
    KINDS_EVER,
    LAST_SEEDED,
    SEED_INDEX,
    SEED_KINDS,
)
from fracas.ledger.chain import COUNTED_CHAIN, GENESIS, ChainWatch, StoredEvent, begun_of
from fracas.rules.encounter import SEED_KINDS as RULES_SEED_KINDS
from tests.support import POSTGRESQL

BACKENDS = ["file", "memory", POSTGRESQL]
FIXTURE = Path(__file__).parent / "fixtures" / "release-0.2-two-tables.db"


def ev(n: int) -> NewEvent:
    return NewEvent("note", f'{{"kind":"note","text":"event {n}"}}')


@pytest.fixture
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    kind = request.param
    if kind == "postgresql":
        return request.getfixturevalue("pg_url")
    return ":memory:" if kind == "memory" else str(tmp_path / "log.db")


@pytest.fixture
def store(location: str) -> Iterator[LogStore]:
    opened = open_log(location)
    yield opened
    opened.close()


def forge(store: LogStore, *statements: str) -> None:
    """Run SQL as a forger would: with the append-only guards switched off first."""
    if store.dialect == "sqlite":
        names = store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        for (name,) in names.fetchall():
            store.conn.execute(f"DROP TRIGGER {name}")
    else:
        store.conn.execute("SET session_replication_role = replica")  # triggers off
    for statement in statements:
        store.conn.execute(statement)


def five_notes(store: LogStore, encounter: str = "enc") -> None:
    for n in range(1, 6):
        store.append(encounter, [ev(n)], expected_version=n - 1, command_id=f"{encounter}{n}")


@pytest.mark.parametrize("location", BACKENDS, indirect=True)
class TestContract:
    def test_a_step_is_one_atomic_batch(self, store: LogStore) -> None:
        result = store.append("enc", [ev(1), ev(2), ev(3)], expected_version=0, command_id="c1")
        assert (result.step, result.first_version, result.last_version) == (1, 1, 3)
        assert [e.step for e in store.events("enc")] == [1, 1, 1]

    def test_bodies_come_back_byte_for_byte(self, store: LogStore) -> None:
        odd = NewEvent("note", r'{"text":"caf\u00e9 \n \" tab\t","n":1.50}')
        plain = NewEvent("note", '{"text": "é 🎲 dice",  "spaced" : true}')
        store.append("enc", [odd, plain], expected_version=0, command_id="c1")
        assert [e.body for e in store.events("enc")] == [odd.body, plain.body]
        assert store.verify().ok

    def test_an_exception_mid_transaction_leaves_no_trace(self, store: LogStore) -> None:
        def explode(conn: object) -> None:
            store.conn.execute("SELECT 1")
            raise RuntimeError("power cut")

        with pytest.raises(RuntimeError):
            store.append(
                "enc", [ev(1), ev(2)], expected_version=0, command_id="c1", project=explode
            )
        assert list(store.events()) == [] and store.head("enc") == (0, 0)
        assert store.encounters() == []  # the registry entry went with it
        assert store.append("enc", [ev(1)], expected_version=0, command_id="c1").step == 1

    def test_read_model_writes_land_with_their_step_or_not_at_all(self, store: LogStore) -> None:
        """Whatever shape a projector's writes take (rows added, a table rewritten, keyed
        deletes), they commit with the step's events; one failing write refuses them all."""
        store.execute(
            "CREATE TABLE seen (encounter TEXT NOT NULL, n INTEGER NOT NULL, note TEXT, "
            "PRIMARY KEY (encounter, n))"
        )
        seen = "INSERT INTO seen (encounter, n) VALUES (?, ?)"

        def add(*numbers: int | None) -> Callable[[Any], None]:
            return lambda conn: conn.executemany(seen, [("enc", n) for n in numbers])

        def rewrite(conn: Any) -> None:
            conn.execute("DELETE FROM seen WHERE encounter = ?", ("enc",))
            conn.executemany(seen, [("enc", 2), ("enc", 8)])

        def drop_then_fail(conn: Any) -> None:
            conn.executemany("DELETE FROM seen WHERE encounter = ? AND n = ?", [("enc", 2)])
            conn.execute(seen, ("enc", None))  # NOT NULL: the database refuses the step

        def rows() -> list[int]:
            return [n for (n,) in store.execute("SELECT n FROM seen ORDER BY n")]

        store.append("enc", [ev(1)], expected_version=0, command_id="c1", project=add(1))
        store.append("enc", [ev(2), ev(3)], expected_version=1, command_id="c2", project=add(2))
        assert rows() == [1, 2]
        store.append("enc", [ev(4)], expected_version=3, command_id="c3", project=rewrite)
        assert rows() == [2, 8]
        with pytest.raises(Exception) as refused:
            store.append(
                "enc", [ev(5)], expected_version=4, command_id="c4", project=drop_then_fail
            )
        assert isinstance(refused.value, ConflictError | RefusedError)  # fracas's one line
        assert rows() == [2, 8] and store.head("enc") == (4, 3)
        assert store.head("enc").step == 3 and store.head("enc").version == 4
        store.append("enc", [ev(5)], expected_version=4, command_id="c4", project=add(9))
        assert rows() == [2, 8, 9] and store.verify().ok and store.check_steps().ok

        def update(statement: str, *rows: tuple) -> Callable[[Any], None]:
            return lambda conn: conn.executemany(statement, rows)  # rows known to be there

        relabel = update("UPDATE seen SET note = ? WHERE encounter = ? AND n = ?",
                         ("two", "enc", 2), ("nine", "enc", 9))  # fmt: skip
        store.append("enc", [ev(6)], expected_version=5, command_id="c5", project=relabel)
        renumber = update("UPDATE seen SET n = ? WHERE encounter = ? AND n = ?", (7, "enc", 8))
        store.append("enc", [ev(7)], expected_version=6, command_id="c6", project=renumber)
        notes = [tuple(row) for row in store.execute("SELECT n, note FROM seen ORDER BY n")]
        assert notes == [(2, "two"), (7, None), (9, "nine")]

    def test_expected_version_mismatch_is_a_conflict(self, store: LogStore) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        with pytest.raises(ConflictError, match="run the command again"):
            store.append("enc", [ev(2)], expected_version=3, command_id="c2")
        with pytest.raises(ConflictError, match="'enc' already exists"):
            store.append("enc", [ev(2)], expected_version=0, command_id="c3")
        assert len(list(store.events("enc"))) == 1

    def test_retrying_a_command_id_returns_the_original_step(self, store: LogStore) -> None:
        first = store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        again = store.append("enc", [ev(9)], expected_version=1, command_id="c1")
        assert again.duplicate and again.step == first.step
        assert [e.body for e in store.events("enc")] == [ev(1).body]

    def test_events_come_back_in_order_across_encounters(self, store: LogStore) -> None:
        store.append("a", [ev(1), ev(2)], expected_version=0, command_id="a1")
        store.append("b", [ev(3)], expected_version=0, command_id="b1")
        store.append("a", [ev(4)], expected_version=2, command_id="a2")
        assert [e.version for e in store.events("a")] == [1, 2, 3]
        assert [e.body for e in store.events()] == [ev(n).body for n in (1, 2, 3, 4)]
        assert store.encounters() == ["a", "b"]

    def test_each_encounter_is_its_own_chain(self, store: LogStore) -> None:
        store.append("a", [ev(1)], expected_version=0, command_id="a1")
        store.append("b", [ev(2)], expected_version=0, command_id="b1")
        store.append("a", [ev(3)], expected_version=1, command_id="a2")
        a1, a2 = store.events("a")
        (b1,) = store.events("b")
        assert a1.prev_hash == b1.prev_hash == GENESIS and a2.prev_hash == a1.hash
        assert [entry.first_hash for entry in store.registry()] == [a1.hash, b1.hash]
        assert store.verify().ok and store.verify().checked == 3

    @pytest.mark.parametrize(
        "statement",
        [
            "UPDATE events SET body = 'x'",
            "DELETE FROM events",
            "UPDATE steps SET author = 'x'",
            "DELETE FROM steps",
            "DELETE FROM registry",
        ],
    )
    def test_the_log_refuses_update_and_delete(self, store: LogStore, statement: str) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        with pytest.raises(Exception, match="append-only") as refused:
            store.conn.execute(statement)
        assert "psycopg" in type(refused.value).__module__ or isinstance(
            refused.value, sqlite3.DatabaseError
        )
        store.conn.execute("ROLLBACK") if store.dialect != "sqlite" else None
        assert len(list(store.events())) == 1 and store.missing_triggers() == []

    def test_an_edited_body_is_named_at_its_position(self, store: LogStore) -> None:
        five_notes(store)
        five_notes(store, "other")
        third = list(store.events("enc"))[2]
        forge(store, f"UPDATE events SET body = 'x' WHERE position = {third.position}")
        report = store.verify()
        assert (report.ok, report.first_bad_position) == (False, third.position)
        assert "does not match its hash" in report.reason

    def test_a_deleted_event_is_named_by_the_position_it_held(self, store: LogStore) -> None:
        five_notes(store)
        five_notes(store, "other")  # later positions: the gap is not the end of the log
        second = list(store.events("enc"))[1]
        forge(store, f"DELETE FROM events WHERE position = {second.position}")
        report = store.verify()
        assert report.first_bad_position == second.position
        assert "version 2 of encounter enc is missing" in report.reason

    def test_an_encounters_first_events_deleted_are_named_where_they_stood(
        self, store: LogStore
    ) -> None:
        five_notes(store, "a")
        five_notes(store, "b")
        first = next(store.events("b"))
        forge(store, "DELETE FROM events WHERE encounter = 'b' AND version <= 2")
        report = store.verify()
        assert (report.ok, report.first_bad_position) == (False, first.position)

    def test_an_edited_version_or_encounter_is_named_at_the_event_itself(
        self, store: LogStore
    ) -> None:
        five_notes(store)
        events = list(store.events("enc"))
        for column, value in (("version", "60"), ("encounter", "'x'")):
            forge(
                store, f"UPDATE events SET {column} = {value} WHERE position = {events[3].position}"
            )
            report = store.verify()
            assert (report.ok, report.first_bad_position) == (False, events[3].position), column
            forge(
                store,
                f"UPDATE events SET version = 4, encounter = 'enc' "
                f"WHERE position = {events[3].position}",
            )
        assert store.verify().ok

    def test_a_rechained_rewrite_passes_the_chain_but_not_the_witnessed_head(
        self, store: LogStore
    ) -> None:
        five_notes(store)
        code = store.head_code("enc")
        events = list(store.events("enc"))
        prev = events[1].hash
        for event in events[2:]:
            forged = StoredEvent(**{**_fields(event), "body": event.body.replace("event", "EVENT")})
            digest = forged.computed_hash(prev)
            forge(
                store,
                f"UPDATE events SET body = '{forged.body}', prev_hash = '{prev}', "
                f"hash = '{digest}' WHERE position = {event.position}",
            )
            prev = digest
        assert store.verify().ok
        assert "no longer ends in the witnessed hash" in store.check_head("enc", code)

    def test_a_whole_encounter_deleted_breaks_the_registry(self, store: LogStore) -> None:
        five_notes(store, "a")
        five_notes(store, "b")
        forge(
            store,
            "DELETE FROM events WHERE encounter = 'a'",
            "DELETE FROM steps WHERE encounter = 'a'",
        )
        report = store.verify()
        assert not report.ok and "encounter a is in the record of encounters" in report.reason
        assert report.first_bad_position == 1  # where its first event stood

    def test_an_encounter_slipped_in_is_not_in_the_registry(self, store: LogStore) -> None:
        five_notes(store, "a")
        forge(store, "DELETE FROM registry")
        report = store.verify()
        assert not report.ok and "encounter a is not in the record of encounters" in report.reason

    def test_an_undo_pointed_elsewhere_is_caught_by_check_steps(self, store: LogStore) -> None:
        five_notes(store)
        store.append_control("enc", "undo", 5, expected_version=5, command_id="u")
        forge(store, "UPDATE steps SET target = 2 WHERE encounter = 'enc' AND step = 6")
        report = store.check_steps()
        assert not report.ok and "its record targets step 2, its event another" in report.reason

    def test_a_step_record_without_events_is_caught(self, store: LogStore) -> None:
        five_notes(store)
        forge(
            store,
            "INSERT INTO steps VALUES ('enc', 6, 'forged', 'command', NULL, 6, 6, 'gm', 'now')",
        )
        report = store.check_steps()
        assert not report.ok and "the events stop at 5" in report.reason
        last = list(store.events("enc"))[-1]
        assert report.first_bad_position == last.position + 1  # where its event would stand

    def test_the_last_event_of_a_step_deleted_is_named_where_it_stood(
        self, store: LogStore
    ) -> None:
        five_notes(store)
        store.append("enc", [ev(6), ev(7), ev(8)], expected_version=5, command_id="three")
        gone = list(store.events("enc"))[-1]
        forge(store, f"DELETE FROM events WHERE position = {gone.position}")
        report = store.check_steps()
        assert not report.ok and "the events stop at 7" in report.reason
        assert report.first_bad_position == gone.position  # not the step's first event's

    def test_a_tail_cut_off_is_seen_only_by_a_witnessed_head(self, store: LogStore) -> None:
        five_notes(store)
        code = store.head_code("enc")
        forge(
            store,
            "DELETE FROM events WHERE encounter = 'enc' AND version >= 4",
            "DELETE FROM steps WHERE encounter = 'enc' AND step >= 4",
        )
        assert store.verify().ok and store.check_steps().ok  # a clean-looking shorter log
        assert "no longer reaches step 5" in store.check_head("enc", code)
        assert store.head_problem("enc", code)[0] == 4  # where the cut begins

    def test_the_last_encounter_deleted_whole_is_seen_by_plain_audit(self, store: LogStore) -> None:
        """Every event names how many encounters had begun when it was written: a step of a
        appended after b began names two, so b deleted whole (its entry too) is a gap."""
        five_notes(store, "a")
        five_notes(store, "b")
        store.append("a", [ev(6)], expected_version=5, command_id="a-later")
        later = list(store.events("a"))[-1]
        forge(
            store,
            "DELETE FROM events WHERE encounter = 'b'",
            "DELETE FROM steps WHERE encounter = 'b'",
            "DELETE FROM registry WHERE encounter = 'b'",
        )
        report = store.verify()
        assert not report.ok and report.first_bad_position == later.position
        assert "2 encounters had begun, the log holds 1" in report.reason

    def test_the_last_encounter_deleted_whole_is_seen_in_one_pass(self, store: LogStore) -> None:
        """An export and an import check the chain as the rows stream past (ChainWatch): that
        check too sees a step of a naming more encounters begun than the log holds."""
        five_notes(store, "a")
        five_notes(store, "b")
        store.append("a", [ev(6)], expected_version=5, command_id="a-later")
        intact = ChainWatch()
        intact.see(list(store.event_rows()))
        assert intact.most[0] == 2 and intact.report(store.registry()) is not None
        forge(
            store,
            "DELETE FROM events WHERE encounter = 'b'",
            "DELETE FROM steps WHERE encounter = 'b'",
            "DELETE FROM registry WHERE encounter = 'b'",
        )
        watch = ChainWatch()
        watch.see(list(store.event_rows()))
        assert watch.report(store.registry()) is None  # doubtful: the exact check names it

    def test_the_last_encounter_deleted_whole_is_seen_by_a_head_code(self, store: LogStore) -> None:
        five_notes(store, "a")
        five_notes(store, "b")
        code = store.head_code("b")  # noted at the table as b went on
        assert code.endswith("/2") and store.head_code("a").endswith("/1")
        forge(
            store,
            "DELETE FROM events WHERE encounter = 'b'",
            "DELETE FROM steps WHERE encounter = 'b'",
            "DELETE FROM registry WHERE encounter = 'b'",
        )
        assert store.verify().ok and store.check_steps().ok  # as if b had never begun
        where, problem = store.head_problem("a", code)  # a is the latest now
        assert "2 encounters had begun" in problem and where == 6
        a_code = store.head_code("a")
        assert store.check_head("a", a_code) == store.check_head("a", a_code.split("/")[0]) == ""

    def test_a_step_record_edited_is_caught_by_check_steps(self, store: LogStore) -> None:
        five_notes(store)
        forge(store, "UPDATE steps SET last_version = 7 WHERE encounter = 'enc' AND step = 5")
        assert store.verify().ok  # the events are intact...
        report = store.check_steps()  # ...but the record claims more than there is
        assert not report.ok and "claims versions up to 7" in report.reason

    def test_a_step_record_shortened_is_named_at_its_steps_first_event(
        self, store: LogStore
    ) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        store.append("enc", [ev(2), ev(3)], expected_version=1, command_id="c2")
        store.append("enc", [ev(4)], expected_version=3, command_id="c3")
        forge(store, "UPDATE steps SET last_version = 2 WHERE encounter = 'enc' AND step = 2")
        report = store.check_steps()
        assert (report.ok, report.first_bad_position) == (False, 2)

    def test_guards_switched_off_are_reported(self, store: LogStore) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        if store.dialect == "sqlite":
            store.conn.execute("DROP TRIGGER events_no_update")
        else:
            store.conn.execute("DROP TRIGGER events_no_update ON events")
        assert store.missing_triggers() == ["events_no_update"]


def query_plan(store: LogStore, query: str, params: tuple) -> str:
    """How the backend would run the query; on a server, as if the table were long (a
    few rows are read fastest in full, whatever index there is)."""
    if store.dialect == "sqlite":
        return str(store.execute(f"EXPLAIN QUERY PLAN {query}", params).fetchall())
    with store.snapshot():
        store.execute("SET LOCAL enable_seqscan = off")
        return str(store.execute(f"EXPLAIN {query}", params).fetchall())


def glanced_fight(store: LogStore) -> None:
    """An encounter that hid someone among many other events."""
    store.append(
        "enc", [ev(1), NewEvent(HIDDEN_KIND, "{}"), ev(3)], expected_version=0, command_id="c1"
    )
    store.append("other", [NewEvent(ASKED_KIND, "{}")], expected_version=0, command_id="c1")


@pytest.mark.parametrize("location", BACKENDS, indirect=True)
def test_whether_a_fight_ever_hid_or_asked_is_read_off_its_own_index(store: LogStore) -> None:
    """`status` asks whether anyone was ever hidden or asked to react through the log's
    partial index of those events, in every backend, not by reading every event."""
    glanced_fight(store)
    assert store.kinds_ever("enc") == {HIDDEN_KIND}
    assert store.kinds_ever("other") == {ASKED_KIND}
    assert store.kinds_ever("none") == set()
    assert GLANCE_INDEX in query_plan(store, KINDS_EVER, ("enc",))


@pytest.mark.parametrize("location", BACKENDS, indirect=True)
def test_the_dice_seed_in_force_is_named_by_the_last_seed_event(store: LogStore) -> None:
    """A fight rolls with the seed its start or its last seed revealed names: found after
    a version, whatever came between, and in a SQLite log through its partial index of
    those events, not by walking back through every event of a fight folded whole."""
    assert RULES_SEED_KINDS == SEED_KINDS  # the rules' events, as the log names them
    started, revealed = (NewEvent(kind, f'{{"kind":"{kind}"}}') for kind in SEED_KINDS)
    store.append("enc", [started, ev(2)], expected_version=0, command_id="c1")
    store.append("enc", [revealed, ev(4), ev(5)], expected_version=2, command_id="c2")
    store.append("other", [started], expected_version=0, command_id="c1")
    assert store.last_of_kinds("enc", SEED_KINDS) == revealed.body
    assert store.last_of_kinds("enc", SEED_KINDS[:1]) == started.body
    assert store.last_of_kinds("enc", SEED_KINDS, after_version=3) is None
    assert store.last_of_kinds("other", SEED_KINDS) == started.body
    if store.dialect == "sqlite":
        assert SEED_INDEX in query_plan(store, LAST_SEEDED, ("enc", 0))


@pytest.mark.parametrize("location", ["file", POSTGRESQL], indirect=True)
def test_a_log_made_before_the_glance_index_gets_it_from_its_next_writer(
    location: str, store: LogStore
) -> None:
    """A reader of an older log glances all the same, only slower, and adds nothing; its
    next writer adds the index."""
    glanced_fight(store)
    store.execute(f"DROP INDEX {GLANCE_INDEX}")
    with open_log(location, readonly=True) as reader:
        assert reader.kinds_ever("enc") == {HIDDEN_KIND}
        assert GLANCE_INDEX not in query_plan(reader, KINDS_EVER, ("enc",))
    with open_log(location) as writer:
        assert writer.kinds_ever("enc") == {HIDDEN_KIND}
        assert GLANCE_INDEX in query_plan(writer, KINDS_EVER, ("enc",))


@pytest.mark.parametrize("location", ["file", POSTGRESQL], indirect=True)
class TestSharedLog:
    """What needs a log more than one connection can open at once."""

    def test_a_writer_that_fell_behind_is_refused_then_goes_on_from_the_new_head(
        self, location: str, store: LogStore
    ) -> None:
        """A store remembers the head it wrote last; another writer moving it on makes the
        next append from the old head a conflict, never a fork of the chain."""
        store.append("enc", [ev(1)], expected_version=0, command_id="a1")
        store.append("enc", [ev(2)], expected_version=1, command_id="a2")
        with open_log(location) as other:
            other.append("enc", [ev(3)], expected_version=2, command_id="b1")
        with pytest.raises(ConflictError):
            store.append("enc", [ev(4)], expected_version=2, command_id="a3")
        assert store.append("enc", [ev(2)], expected_version=2, command_id="a2").duplicate
        store.append("enc", [ev(4)], expected_version=3, command_id="a3")
        store.append("enc", [ev(5)], expected_version=4, command_id="a4")
        assert [e.version for e in store.events("enc")] == [1, 2, 3, 4, 5]
        assert store.verify().ok and store.check_steps().ok

    def test_a_step_after_another_writer_began_an_encounter_names_it(
        self, location: str, store: LogStore
    ) -> None:
        """A store that wrote the head last appends without reading it, yet its next step
        still names the encounter another writer began meanwhile, its read models written
        once with it (whatever shape their writes take): deleted whole, that encounter is
        a gap plain audit sees."""
        store.execute("CREATE TABLE seen (encounter TEXT NOT NULL, n INTEGER PRIMARY KEY)")
        seen = "INSERT INTO seen (encounter, n) VALUES (?, ?)"

        def add(conn: Any) -> None:
            conn.executemany(seen, [("a", 6)])

        def rewrite(conn: Any) -> None:  # a table cleared and written again
            conn.execute("DELETE FROM seen WHERE encounter = ?", ("a",))
            conn.executemany(seen, [("a", 7)])

        five_notes(store, "a")
        for other_encounter, n, project in (("b", 6, add), ("c", 7, rewrite)):
            with open_log(location) as other:
                other.append(other_encounter, [ev(1)], expected_version=0, command_id="x")
            store.append("a", [ev(n)], expected_version=n - 1, command_id=f"a{n}", project=project)
            assert store.execute("SELECT n FROM seen").fetchall() == [(n,)]
        named = [begun_of(event) for event in store.events("a")]
        assert named == [1, 1, 1, 1, 1, 2, 3]
        assert store.verify().ok and store.check_steps().ok
        forge(
            store,
            "DELETE FROM events WHERE encounter = 'c'",
            "DELETE FROM steps WHERE encounter = 'c'",
            "DELETE FROM registry WHERE encounter = 'c'",
        )
        report = store.verify()
        assert not report.ok and report.first_bad_position == list(store.events("a"))[-1].position

    def test_an_audit_while_a_table_starts_sees_one_state_of_the_log(
        self, location: str, store: LogStore
    ) -> None:
        """verify() reads the events, then the registry: an encounter started in between
        must not look like one whose events are gone."""
        five_notes(store, "a")
        read_registry = store.registry

        def registry_after_a_new_table_starts() -> list:
            with open_log(location) as other:
                other.append("b", [ev(1)], expected_version=0, command_id="b1")
            return read_registry()

        store.registry = registry_after_a_new_table_starts  # type: ignore[method-assign]
        report = store.verify()
        assert report.ok and report.checked == 5, report.reason
        store.registry = read_registry  # type: ignore[method-assign]
        assert store.verify().ok and store.verify().checked == 6

    def test_writers_racing_on_one_encounter_get_one_conflict_each(
        self, location: str, store: LogStore
    ) -> None:
        store.append("enc", [ev(0)], expected_version=0, command_id="c0")
        outcomes = race(location, 6, lambda s, i: s.append(
            "enc", [ev(i), ev(i + 10)], expected_version=1, command_id=f"w{i}"
        ))  # fmt: skip
        assert sorted(outcomes) == ["conflict"] * 5 + ["ok"]
        assert [e.version for e in store.events("enc")] == [1, 2, 3] and store.verify().ok

    def test_retries_racing_with_one_command_id_make_one_step(
        self, location: str, store: LogStore
    ) -> None:
        store.append("enc", [ev(0)], expected_version=0, command_id="c0")
        outcomes = race(location, 6, lambda s, i: s.append(
            "enc", [ev(1)], expected_version=1, command_id="same"
        ))  # fmt: skip
        assert outcomes.count("ok") + outcomes.count("duplicate") == 6
        assert store.head("enc") == (2, 2)

    def test_writers_on_their_own_encounters_all_land(self, location: str, store: LogStore) -> None:
        outcomes = race(location, 8, lambda s, i: [s.append(
            f"e{i}", [ev(n)], expected_version=n - 1, command_id=f"{i}-{n}"
        ) for n in range(1, 11)][-1])  # fmt: skip
        assert outcomes == ["ok"] * 8
        assert sorted(store.encounters()) == sorted(f"e{i}" for i in range(8))
        assert store.verify().ok and store.verify().checked == 80 and store.check_steps().ok

    def test_processes_on_their_own_encounters_all_land(
        self, location: str, store: LogStore
    ) -> None:
        store.close()
        context = multiprocessing.get_context("spawn")
        with context.Pool(4) as pool:
            pool.starmap(play_notes, [(location, f"p{i}", 15) for i in range(4)])
        with open_log(location, readonly=True) as check:
            assert sorted(check.encounters()) == ["p0", "p1", "p2", "p3"]
            assert check.verify().ok and check.check_steps().ok and check.verify().checked == 60

    def test_read_only_opening_reads_and_never_writes(self, location: str, store: LogStore) -> None:
        store.append("enc", [ev(1)], expected_version=0, command_id="c1")
        with open_log(location, readonly=True) as reader:
            assert reader.head("enc") == (1, 1) and reader.verify().ok
            with pytest.raises(RefusedError, match="read-only"):
                reader.append("enc", [ev(2)], expected_version=1, command_id="c2")
        assert store.head("enc") == (1, 1)

    def test_a_missing_log_opened_read_only_is_not_created(self, location: str) -> None:
        with pytest.raises(NotFoundError, match="`fracas new` starts one"):
            open_log(location, readonly=True)
        with pytest.raises(NotFoundError):
            open_log(location, create=False)


def _fields(event: StoredEvent) -> dict:
    import msgspec

    return msgspec.structs.asdict(event)


def race(location: str, writers: int, append) -> list[str]:
    """`writers` threads, each with its own connection, appending at once."""
    barrier = threading.Barrier(writers)
    outcomes: list[str] = []

    def writer(index: int) -> None:
        with open_log(location) as mine:
            barrier.wait()
            try:
                result = append(mine, index)
                outcomes.append("duplicate" if result.duplicate else "ok")
            except ConflictError:
                outcomes.append("conflict")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def play_notes(location: str, encounter: str, steps: int) -> None:
    with open_log(location) as store:
        for n in range(1, steps + 1):
            store.append(encounter, [ev(n)], expected_version=n - 1, command_id=f"{n}")


def test_appends_to_other_encounters_never_wait_on_an_open_one(pg_url: str) -> None:
    """On a server, one table's slow append (a transaction held open) holds up no other."""
    with open_log(pg_url) as slow, open_log(pg_url) as other:
        other.append("b", [ev(0)], expected_version=0, command_id="b0")
        with slow.batch():
            slow.append("a", [ev(1)], expected_version=0, command_id="a1")
            done = threading.Event()

            def elsewhere() -> None:
                other.append("b", [ev(1)], expected_version=1, command_id="b1")
                done.set()

            thread = threading.Thread(target=elsewhere)
            thread.start()
            assert done.wait(5), "an append to encounter b waited on encounter a"
            thread.join()
        assert other.head("b") == (2, 2) and slow.head("a") == (1, 1)


def test_a_release_0_2_file_migrates_in_place_and_keeps_its_witnessed_heads(
    tmp_path: Path,
) -> None:
    """Schema 2 (one chain through the file) to 3: nothing written is rewritten; new events
    go on each encounter's chain from its last old one; the old heads still hold."""
    old = tmp_path / "old.db"
    shutil.copy(FIXTURE, old)
    shutil.copy(f"{FIXTURE}.keys", f"{old}.keys")
    with Store(old, readonly=True) as reader:
        assert reader.schema_version == 2 and reader.verify().ok
        before = list(reader.events())
    with Store(old) as store:
        assert store.schema_version == 3 and list(store.events()) == before
        assert store.encounters() == ["197c7da549f0", "harbour"]
        assert store.check_head("197c7da549f0", "17-aaa07f7fb6f4") == ""
        assert store.check_head("harbour", "4-e127f3c60e67") == ""
        last = list(store.events("harbour"))[-1]
        store.append("harbour", [ev(1)], expected_version=last.version, command_id="new")
        added = list(store.events("harbour"))[-1]
        assert added.prev_hash == last.hash and added.scope == COUNTED_CHAIN
        assert store.verify().ok and store.check_steps().ok
        forge(store, f"UPDATE events SET body = 'x' WHERE position = {before[5].position}")
        assert store.verify().first_bad_position == before[5].position  # the old chain


def test_a_newer_log_on_the_server_is_refused(pg_url: str) -> None:
    with open_log(pg_url) as store:
        store.conn.execute("INSERT INTO fracas_migrations VALUES (99, 'later')")
    with pytest.raises(RefusedError, match="newer fracas"):
        open_log(pg_url)


def test_an_unreachable_server_is_one_line() -> None:
    with pytest.raises(RefusedError, match=r"could not reach PostgreSQL at .*is the server"):
        open_log("postgresql://nobody@127.0.0.1:1/none")
