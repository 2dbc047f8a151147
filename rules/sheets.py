"""Combatant sheets from TOML files, with errors that name the file and the field."""

import json
import tomllib
from pathlib import Path
from typing import Any

from fracas.ledger import BadInputError
from fracas.ledger.errors import cut
from fracas.ledger.values import SQL_MAX, SQL_MIN

MAX_SHEET = 256 * 1024  # bytes: a sheet is a page, not a book
MAX_EXPORT = 4 * 1024 * 1024  # bytes: another program's export (JSON) carries its texts too


def read_sheet_file(path: str | Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_EXPORT + 1)
    except FileNotFoundError:
        raise BadInputError(f"{cut(str(path))}: no such sheet file") from None
    except OSError as error:
        raise BadInputError(
            f"{cut(str(path))}: cannot read it ({error.strerror or error})"
        ) from None
    exported = raw.lstrip()[:1] == b"{"  # a JSON export (Foundry VTT's), not TOML
    if len(raw) > (MAX_EXPORT if exported else MAX_SHEET):
        most = MAX_EXPORT if exported else MAX_SHEET
        raise BadInputError(f"{path}: over {most} bytes; a sheet is a short TOML file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInputError(f"{path}: not UTF-8 text; save the sheet as UTF-8 TOML") from None
    return parse_json(text, str(path)) if exported else parse_toml(text, str(path))


def parse_json(text: str, where: str) -> dict[str, Any]:
    """An exported sheet (JSON): an object, read as the ruleset's `imports` knows it."""
    try:
        found = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise BadInputError(f"{where}: not valid JSON: {error}") from None
    if not isinstance(found, dict):
        raise BadInputError(f"{where}: a JSON sheet is an object, {{...}}")
    return in_range(found, where)


def parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return in_range(tomllib.loads(text), where)
    except tomllib.TOMLDecodeError as error:
        raise BadInputError(f"{where}: not valid TOML: {error}") from None
    except RecursionError:
        raise BadInputError(f"{where}: nested too deeply; a sheet needs a few levels") from None


def in_range(value: Any, where: str = "") -> Any:
    """`value`, if every whole number in it is one TOML allows (64-bit, which SQLite can
    hold too); Python's TOML reader takes any size."""
    if isinstance(value, dict):
        for item in value.values():
            in_range(item, where)
    elif isinstance(value, list):
        for item in value:
            in_range(item, where)
    elif isinstance(value, int) and not SQL_MIN <= value <= SQL_MAX:
        raise BadInputError(
            f"{where + ': ' if where else ''}{value} is out of range: TOML's whole numbers "
            f"run from {SQL_MIN} to {SQL_MAX}"
        )
    return value


def key_path(dotted: str) -> list[str]:
    """A TOML dotted key as its parts: `skills."martial arts"` or plain `skills.martial arts`."""
    try:
        tree: Any = tomllib.loads(f"{dotted} = 0")
    except (tomllib.TOMLDecodeError, RecursionError):
        return [part.strip() for part in dotted.split(".")]
    path = []
    while isinstance(tree, dict):
        key = next(iter(tree))
        path.append(key)
        tree = tree[key]
    return path


def set_path(data: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """Return a copy of `data` with `a.b.c` set to value (creating tables on the way)."""
    return _set(data, key_path(dotted), value, dotted)


def _set(data: dict[str, Any], path: list[str], value: Any, dotted: str) -> dict[str, Any]:
    head, rest = path[0], path[1:]
    copy = dict(data)
    if rest:
        inner = copy.get(head, {})
        if not isinstance(inner, dict):
            raise BadInputError(f"{head} is not a table, so {dotted} cannot be set")
        copy[head] = _set(inner, rest, value, dotted)
    else:
        copy[head] = value
    return copy


def parse_value(text: str, where: str = "") -> Any:
    """A TOML value (number, bool, string, array); bare words are strings, also in arrays.
    `where`: what a refusal names (`--set dex`)."""
    try:
        return in_range(tomllib.loads(f"v = {text}")["v"], where)
    except RecursionError:
        raise BadInputError(f"{text[:20]}...: nested too deeply") from None
    except tomllib.TOMLDecodeError:
        if text.startswith("[") and text.endswith("]"):
            items = [item.strip() for item in text[1:-1].split(",")]
            return [parse_value(item, where) for item in items if item]
        return text


def deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged
