"""What the GM types is read where it enters: whole numbers in ASCII digits only (int()
reads "١٢" and "１２" too), arguments that are UTF-8, usage errors in one line, and numbers
bounded to what a fight can mean."""

import pytest
from starlette.exceptions import HTTPException

from fracas.cli.guards import NOT_UTF8, console_line
from fracas.cli.phones import TAPS, decoded
from tests.support import events_in

ARABIC_12 = "\u0661\u0662"  # ١٢


def begun(run) -> int:
    run("new")
    run("add", "alice", "--set", "dex=14", "--set", "skills.firearms=60")
    run("add", "bob", "--set", "dex=9")
    run("begin")
    return events_in(run.db)


def refused_in_one_line(run, *args: str, code: int | None = None) -> str:
    result = run(*args, ok=False)
    assert result.exit_code != 0 and (code is None or result.exit_code == code), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and line.startswith("Error: "), result.output
    return line


@pytest.mark.parametrize(
    "args",
    [
        ("harm", "bob", ARABIC_12, "--reason", "x"),
        ("heal", "bob", ARABIC_12, "--reason", "x"),
        ("harm", "bob", "\uff11\uff12"),  # fullwidth 12
        ("add", "carl", "--count", "\u0662"),
        ("condition", "set", "bob", "x", "--for", ARABIC_12 + "r", "--reason", "y"),
        ("condition", "set", "bob", "x", "--for", "²r", "--reason", "y"),
        ("condition", "set", "bob", "x", "--for", "²"),
        ("act", "alice", "attack", "bob", "--dice", f"{ARABIC_12},52,3"),
        ("act", "alice", "attack", "bob", "--mod", f"{ARABIC_12}:luck"),
        ("status", "--at", ARABIC_12),
        ("status", "--at", "²"),
        ("replay", "--steps", "\u0661..\u0663"),
        ("replay", "--turn", "²:alice"),
        ("replay", "--round", ARABIC_12),
        ("whatif", "--step", "4", "--dice", f"{ARABIC_12},52,3"),
        ("whatif", "--step", ARABIC_12),
        ("head", "--step", ARABIC_12),
        ("disclose", ARABIC_12),
    ],
)
def test_a_number_in_other_digits_is_refused_in_one_line_and_appends_nothing(run, args):
    before = begun(run)
    line = refused_in_one_line(run, *args)
    assert "Traceback" not in line
    assert events_in(run.db) == before


def test_ascii_numbers_still_work(run):
    before = begun(run)
    run("harm", "bob", "2", "--reason", "x")
    run("condition", "set", "bob", "x", "--for", "3r")
    run("status", "--at", "2")
    run("replay", "--steps", "1..2")
    assert events_in(run.db) > before


def test_a_console_line_in_invalid_utf8_is_a_400_in_one_line():
    with pytest.raises(HTTPException) as caught:
        console_line("application/json", b'{"line": "note \xff\xfe"}')
    assert (caught.value.status_code, caught.value.detail) == (400, NOT_UTF8)


@pytest.mark.parametrize(
    "body",
    [b'{"seen":1,"command_id":"alice\xff01","action":"aim"}', b'{"action":"a\xffim"}', b"\xfe"],
)
def test_a_phone_step_in_invalid_utf8_is_the_same_one_line_whatever_msgspec_says(body: bytes):
    """msgspec 0.23 calls such bytes a DecodeError of its own, where 0.22 raised
    UnicodeDecodeError: a phone saw 'that step is not one the page sends (Invalid UTF-8…)'."""
    with pytest.raises(HTTPException) as caught:
        decoded(TAPS, "application/json", body)
    assert (caught.value.status_code, caught.value.detail) == (400, NOT_UTF8)


def test_an_argument_that_is_not_utf8_is_refused_naming_it(run):
    before = begun(run)
    not_utf8 = b"\xff\xfe".decode("utf-8", "surrogateescape")  # as Python hands argv over
    line = refused_in_one_line(run, "note", not_utf8)
    assert "UTF-8" in line and "\\xff\\xfe" in line
    assert events_in(run.db) == before


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("act", "alice", "attack", "bob", "--mod", "1" + "0" * 30 + ":x"), "-1000 to 1000"),
        (("act", "alice", "attack", "bob", "--mod", "9223372036854775808:x"), "-1000 to 1000"),
        (("act", "alice", "attack", "bob", "--mod", "1001:x"), "'--mod'"),
        (
            ("act", "alice", "attack", "bob", "-o", "modifiers=[{value=9223372036854775807}]"),
            "modifiers[0].value",
        ),
        (("new", "-o", "critical_multiplier=9223372036854775807"), "critical_multiplier"),
        (("new", "-o", "critical_multiplier=101"), "from 1 to 100"),
        (("new", "-o", "aim_bonus=1001"), "aim_bonus"),
        (("new", "-r", "pool", "-o", "body_penalties=[1,2,5000]"), "body_penalties[2]"),
        (("act", "alice", "move", "-o", "cover=9223372036854775807"), "cover"),
    ],
)
def test_modifiers_and_options_are_bounded_and_the_refusal_names_the_field(run, args, says):
    before = begun(run)
    line = refused_in_one_line(run, *args)
    assert says in line
    assert events_in(run.db) == before


def test_bounded_modifiers_and_options_within_range_still_work(run):
    before = begun(run)
    run("act", "alice", "attack", "bob", "--mod", "-1000:smoke", "--dice", "50")
    run("new", "-o", "critical_multiplier=100")
    assert events_in(run.db) > before


def test_usage_errors_are_one_line_with_exit_code_2_and_say_where_to_look(run):
    begun(run)
    line = refused_in_one_line(run, "add", "x", "--count", "0", code=2)
    assert "--count 0 is out of range: give add a --count from 1 to 100" in line
    assert line.endswith("(see 'cli add --help')")
    for args in (("harm", "bob", "-5"), ("status", "--at", "²"), ("note",), ("--json", "status")):
        assert "--help')" in refused_in_one_line(run, *args, code=2)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("harm", "bob", "1", "--reason", "line1\nline2"), "--reason"),
        (("note", "a\nb"), "TEXT"),
        (("heal", "bob", "5", "--reason", "x\ny"), "--reason"),
        (("act", "alice", "attack", "bob", "--mod", "2:a\nb"), "--mod"),
        (("new", "--id", "ok2", "--title", "two\nlines"), "--title"),
        (("condition", "set", "bob", "on\nfire"), "NAME"),
        (("condition", "clear", "bob", "on\nfire"), "NAME"),
        (("roll", "1d6", "--reason", "a\rb"), "--reason"),
        (("act", "alice", "attack", "bob", "-o", "what=a\nb"), "--opt"),
        (("begin", "-o", "what=a\nb"), "--opt"),
        (("new", "-o", "aim_bonus=1\n2"), "--option"),
    ],
)
def test_free_text_with_a_newline_is_refused_on_one_line_like_rename(run, args, option):
    before = begun(run)
    line = refused_in_one_line(run, *args, code=2)
    assert "on one line" in line and option in line
    assert events_in(run.db) == before


def test_free_text_on_one_line_still_works(run):
    before = begun(run)
    run("harm", "bob", "1", "--reason", "a fall of ten feet")
    run("note", "the door is locked")
    run("condition", "set", "bob", "on fire")
    assert events_in(run.db) >= before + 3


@pytest.mark.parametrize(
    "args", [("--db", "", "status"), ("status", "--db", " "), ("demo", "--db", "")]
)
def test_an_empty_log_path_is_refused_in_one_line(run, args):
    line = refused_in_one_line(run, *args, code=2)
    assert "'--db'" in line and "empty" in line


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("act", "alice", "attack", "bob", "--mod", "1001:x"), "'--mod'"),
        (("act", "alice", "attack", "bob", "--mod", "-1001"), "-1000 to 1000"),
        (("harm", "bob", "999999999999"), "AMOUNT 999999999999 is out of range"),
        (("harm", "bob", "10001"), "give harm an AMOUNT from 1 to 10000"),
        (("heal", "bob", "10001"), "AMOUNT 10001 is out of range: give heal"),
        (("act", "alice", "move", "-o", "cover=1001"), "'-o cover'"),
    ],
)
def test_a_number_out_of_range_is_a_usage_error_naming_the_option(run, args, says):
    before = begun(run)
    line = refused_in_one_line(run, *args, code=2)
    assert says in line and "modifiers[" not in line and "gm.harm" not in line
    assert events_in(run.db) == before


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("act", "alice", "save", "dex", "--dc", "61"), "'--dc'"),
        (("act", "alice", "save", "dex", "--dc", "61"), "from 0 to 60"),
        (("act", "alice", "move", "999999"), "'FEET'"),
        (("act", "alice", "attack", "bob", "--mod", "1001:x"), "'--mod'"),
    ],
)
def test_a_number_out_of_srds_range_is_a_usage_error_naming_the_option(run, args, says):
    run("new", "-r", "srd")
    run("add", "alice", "--monster", "goblin")
    run("add", "bob", "--monster", "wolf")
    run("begin")
    before = events_in(run.db)
    line = refused_in_one_line(run, *args, code=2)
    assert says in line, line
    assert events_in(run.db) == before


def test_the_help_and_the_docs_give_the_bounds_the_cli_checks(run):
    from pathlib import Path

    docs = Path(__file__).parent.parent / "docs" / "getting-started.md"
    assert "1 to 10000" in docs.read_text()
    assert "0<=x<=1000" not in run("act", "--help").output


def test_a_reversed_range_of_steps_is_refused_saying_it_is_reversed(run):
    begun(run)
    line = refused_in_one_line(run, "replay", "--steps", "3..1")
    assert "3..1 is reversed" in line and "--steps 1..3" in line, line


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_with_secrets_on_a_report_is_refused_as_a_template_on_jsonl_is(run, fmt):
    begun(run)
    line = refused_in_one_line(run, "export", "--format", fmt, "--with-secrets")
    assert "--with-secrets is for --format jsonl" in line, line
    assert "--template" in refused_in_one_line(run, "export", "--npc-numbers")
