"""Trust, round 4 (issue 42): ids, fields, options and names bounded where they enter, each
refused in one line with nothing appended. Each test failed on the code before its fix."""

import json
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as types
import pytest

from fracas.ledger import BadInputError
from fracas.rules import load
from tests.support import cli_gunfight
from tests.web import Table, motel_table

WHOLE_BOUND = 1000  # the README: every whole-number option is at most 1000 either way

RULESETS = ("percentile", "shotclock", "pool", "timeslice", "fudge", "srd")


def refused(run, *args: str) -> str:
    """A refusal's one line (exit non-zero, no traceback)."""
    result = run(*args, ok=False)
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_an_empty_command_id_is_refused_and_audit_stays_clean(run) -> None:
    cli_gunfight(run, bob_hp=30)
    before = run("log", "--json").output
    for args in (("roll", "d6"), ("next",), ("harm", "bob", "1"), ("add", "c", "--set", "hp=2")):
        line = refused(run, *args, "--command-id", "")
        assert "command id" in line and "--command-id" in line, line
    assert "command id" in refused(run, "roll", "d6", "--command-id", "a b")
    assert run("log", "--json").output == before
    assert run("audit").exit_code == 0


def test_a_whole_number_field_past_1000_is_refused_on_the_command_line(run) -> None:
    cli_gunfight(run, bob_hp=30)
    before = run("log", "--json").output
    for shots in ("1001", "-1001", str(2**63 - 1)):
        line = refused(run, "act", "alice", "attack", "bob", "-o", f"shots={shots}")
        assert "shots" in line and "1000" in line, line
    assert run("log", "--json").output == before


def filled(info: types.StructType, name: str, value: int) -> dict[str, Any] | None:
    """The smallest command of this struct with field `name` set to `value`."""
    data: dict[str, Any] = {}
    for field in info.fields:
        if field.encode_name == name:
            data[name] = value
        elif field.required:
            kind = field.type
            plain = {types.StrType: "a", types.ListType: [], types.DictType: {}}
            found = next((v for t, v in plain.items() if isinstance(kind, t)), None)
            if found is None:
                return None
            data[field.encode_name] = found
    return data


def unbounded_int_fields(ruleset_name: str) -> list[tuple[str, str, dict, dict]]:
    ruleset = load(ruleset_name)
    found = []
    for struct in typing.get_args(ruleset.command_type):
        info = types.type_info(struct)
        for field in info.fields:
            kind = field.type
            if isinstance(kind, types.UnionType):
                kind = next((t for t in kind.types if isinstance(t, types.IntType)), None)
            if not isinstance(kind, types.IntType) or (kind.ge, kind.le) != (None, None):
                continue
            over = filled(info, field.encode_name, WHOLE_BOUND + 1)
            edge = filled(info, field.encode_name, -WHOLE_BOUND)
            if over is not None and edge is not None:
                tag = struct.__struct_config__.tag
                found.append((tag, field.encode_name, over, edge))
    return found


@pytest.mark.parametrize("name", RULESETS)
def test_every_unbounded_whole_number_of_an_action_is_at_most_1000_either_way(name) -> None:
    ruleset = load(name)
    fields = unbounded_int_fields(name)
    for action, field, over, edge in fields:
        with pytest.raises(BadInputError, match=rf"{field} of 1001 is out of range"):
            ruleset.command({"action": action, **over})
        assert getattr(ruleset.command({"action": action, **edge}), field) == -WHOLE_BOUND
    options = types.type_info(ruleset.options_type)
    for field in options.fields:
        if isinstance(field.type, types.IntType) and (field.type.ge, field.type.le) == (None,) * 2:
            with pytest.raises(BadInputError, match="out of range"):
                ruleset.options({field.encode_name: -1001})


class Shot(msgspec.Struct):
    range: int = 0
    dice: int | None = None
    capped: typing.Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 0


class Volley(msgspec.Struct, tag="volley"):
    name: str = ""
    shots: list[Shot] = []
    by_target: dict[str, int] = {}
    pair: tuple[str, int] = ("", 0)
    next: "Volley | None" = None


@pytest.mark.parametrize(
    "volley, where",
    [
        (Volley(shots=[Shot(), Shot(range=1001)]), "shots[1].range of 1001"),
        (Volley(shots=[Shot(dice=-1001)]), "shots[0].dice of -1001"),
        (Volley(by_target={"bob": 5000}), "by_target.bob of 5000"),
        (Volley(pair=("x", 1001)), "pair[1] of 1001"),
        (Volley(next=Volley(shots=[Shot(range=2000)])), "next.shots[0].range of 2000"),
    ],
)
def test_a_whole_number_past_1000_is_found_however_deep_in_a_command(volley, where) -> None:
    from fracas.rules.ruleset import check_bounds

    with pytest.raises(BadInputError, match=re.escape(f"volley: {where} is out of range")):
        check_bounds(volley, "volley")


def test_a_number_whose_type_bounds_it_keeps_its_own_bounds() -> None:
    from fracas.rules.ruleset import check_bounds

    check_bounds(Volley(name="a" * 2000, shots=[Shot(capped=99_999, range=1000)]), "volley")


def test_the_kit_of_unbounded_fields_finds_the_reported_one() -> None:
    assert ("attack", "shots") in {(a, f) for a, f, _o, _e in unbounded_int_fields("percentile")}


def test_help_shows_no_range_for_a_number_without_one(run) -> None:
    for command in ("replay", "whatif"):
        shown = run(command, "--help").output
        assert "None" not in shown, shown


@pytest.mark.parametrize("name", RULESETS)
def test_a_combatant_attacking_itself_is_refused_in_every_ruleset(fracas, name) -> None:
    ruleset = load(name)
    attack = ruleset.command_struct("attack")
    assert attack is not None
    fields = {f.encode_name for f in msgspec.structs.fields(attack)}
    targets = {"targets": ["alice"]} if "targets" in fields else {"target": "alice"}
    command = ruleset.command({"action": "attack", "actor": "alice", **targets})
    if "targets" not in fields:
        pytest.fail(f"{name}'s attack names its target otherwise: {sorted(fields)}")
    with pytest.raises(BadInputError, match="alice cannot attack themself"):
        ruleset.decide_step(ruleset.initial(), command, None)  # type: ignore[arg-type]


def test_an_empty_note_and_a_newline_in_a_name_or_by_are_refused_in_one_line(run) -> None:
    cli_gunfight(run, bob_hp=30)
    before = run("log", "--json").output
    assert "note needs some text" in refused(run, "note", "")
    assert "note needs some text" in refused(run, "note", "  ")
    assert "one line" in refused(run, "rename", "alice", "Al\nice")
    assert "one line" in refused(run, "add", "carol", "--name", "Car\nol", "--set", "hp=3")
    assert "one line" in refused(run, "note", "hello", "--by", "g\nm")
    assert "one line" in refused(run, "harm", "bob", "1", "--by", "g\nm")
    assert "one line" in refused(run, "undo", "--by", "g\nm")
    assert refused(run, "add", "a\nb", "--set", "hp=3").count("\n") == 0
    assert "combatant id 'a\\nb'" in refused(run, "add", "a\nb", "--set", "dex=abc")
    assert run("log", "--json").output == before


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with motel_table(tmp_path) as made:
        yield made


@pytest.mark.sqlite_file
def test_a_phone_is_bounded_as_the_command_line_is(table: Table) -> None:
    before = table.log()
    for shots in (2**63 - 1, -(2**63), 10**9, 1001):
        answer = table.tap("alice", action="attack", targets=["cultist"], fields={"shots": shots})
        assert answer.status_code == 400 and answer.text.count("\n") == 1, answer.text
        assert "shots" in answer.text and "1000" in answer.text, answer.text
    token = table.tokens["alice"]
    body = {"seen": table.seen("alice"), "command_id": "alice-aims-0001\n", "action": "aim"}
    answer = table.client.post(f"/p/{token}/act", json=body, headers={"X-Fracas-Token": token})
    assert answer.status_code == 400 and "command_id" in answer.text, answer.text
    gm = {"X-Fracas-Token": table.running.token}
    line = table.client.post("/gm/e/motel/command", json={"line": "note hi\n"}, headers=gm)
    assert line.status_code == 400 and "one line" in line.text, line.text
    assert table.log() == before


def test_an_exploding_roll_stops_at_the_limit_counting_its_rerolls(run) -> None:
    run("new")
    before = run("log", "--json").output
    line = refused(run, "roll", "100d2!")
    assert "exploded past 100 dice rolled" in line and "--limit" in line, line
    refused(run, "roll", "51d2!", "--dice", ",".join(["2"] * 50 + ["1"] * 51))
    assert run("log", "--json").output == before
    run("roll", "2d2!", "--dice", "2,1,1")  # a roll within the limit explodes as before


@pytest.mark.sqlite_file  # reads the log through a second handle by path
def test_remove_and_harm_take_the_faces_of_what_they_set_off(run) -> None:
    """Taking out the last combatant of a sequence starts the next one, whose initiative
    rolls: `remove --dice` (and every GM command) takes those faces."""
    from fracas.projections import Fracas
    from fracas.rules.events import Rolled

    run("new", "-r", "shotclock")
    for who in ("a", "b", "c"):
        run("add", who)
    run("begin")
    for _ in range(60):
        with Fracas(run.db, readonly=True, create=False) as table:
            live = table.encounter()
            actor = live.view().acting[0]
            command = live.ruleset.command({"action": "gm.remove", "target": actor})
            rolls = [e for e in live.decide(command) if isinstance(e, Rolled)]
        if rolls:
            break
        run("next")
    assert rolls, "no removal set off a roll"
    faces = [str(face) for roll in rolls for face in roll.roll.faces]
    assert "drop the extra faces" in refused(run, "harm", actor, "1", "--dice", "1")
    run("remove", actor, "--dice", ",".join(faces))
    last = json.loads(run("log", "--json").output)[-1]
    typed = [e["roll"] for e in last["events"] if e["kind"] == "rolled"]
    assert typed and all(roll["source"] == "manual" for roll in typed), last


def test_a_read_only_role_writing_is_refused_in_one_line(pg_url: str) -> None:
    """PostgreSQL refusing a write inside a pipelined transaction: psycopg's own warning
    ("error ignored terminating <psycopg.Pipeline ...>") no longer comes before fracas's line."""
    import psycopg

    from fracas.ledger.postgres import split_url
    from tests.web import fracas

    for args in (["new", "--id", "crypt"], ["add", "alice"], ["add", "bob"], ["begin"]):
        fracas(pg_url, *args)  # type: ignore[arg-type]
    conninfo, schema = split_url(pg_url)
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute("CREATE ROLE looker LOGIN")
        for name in (schema, f"{schema}_keys", f"{schema}_players"):
            admin.execute(f"GRANT ALL ON SCHEMA {name} TO looker")
            admin.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA {name} TO looker")
            admin.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA {name} TO looker")
        admin.execute("ALTER ROLE looker SET default_transaction_read_only = on")
    looker = pg_url.replace("fracas@", "looker@")
    for _ in range(6):  # (psycopg's warning shows or not as the pipeline's results arrive)
        refused = fracas(looker, "add", "c", "--count", "2", "--set", "hp=3", check=False)  # type: ignore[arg-type]
        assert refused.returncode == 1, refused.stderr
        assert refused.stderr.splitlines() == [
            f"Error: {looker} is read-only here: it can be read, not written"
        ], refused.stderr
    from fracas.ledger import RefusedError
    from fracas.projections import Fracas

    with Fracas(looker) as table, pytest.raises(RefusedError, match="read-only here"):
        table.encounter("crypt").note("from the Python API: fracas's error, not psycopg's")
