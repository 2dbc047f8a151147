"""Combatant sheets from TOML files, with errors that name the file and the field."""

import json
import tomllib
from pathlib import Path
from typing import Any, Literal, TypeVar

import msgspec
from msgspec import inspect

from fracas.ledger import BadInputError
from fracas.ledger.errors import cut
from fracas.ledger.values import SQL_MAX, SQL_MIN
from fracas.rules.commands import Name
from fracas.rules.names import explain

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


T = TypeVar("T")


def recorded(data: Any, sheet_type: type[T]) -> T:
    """A sheet as a join recorded it. A log is never rewritten, so a number a sheet's bounds
    refuse now (they came after it was recorded) is read as recorded, not refused."""
    try:
        return msgspec.convert(data, sheet_type)
    except msgspec.ValidationError:
        return _built(inspect.type_info(sheet_type), data)  # type: ignore[no-any-return]


def _built(info: inspect.Type, value: Any) -> Any:
    """`value` as `info`'s structs, lists and tables, its numbers unchecked."""
    while isinstance(info, inspect.Metadata):
        info = info.type
    if isinstance(info, inspect.StructType) and isinstance(value, dict):
        given = {f.name: _built(f.type, value[f.encode_name]) for f in info.fields
                 if f.encode_name in value}  # fmt: skip
        return info.cls(**given)
    if isinstance(info, inspect.UnionType):
        structs = [t for t in info.types if isinstance(t, inspect.StructType)]
        return _built(structs[0], value) if structs and isinstance(value, dict) else value
    if isinstance(info, inspect.ListType | inspect.VarTupleType) and isinstance(value, list):
        items = [_built(info.item_type, item) for item in value]
        return items if isinstance(info, inspect.ListType) else tuple(items)
    if isinstance(info, inspect.DictType) and isinstance(value, dict):
        return {key: _built(info.value_type, item) for key, item in value.items()}
    return value


class Identity(msgspec.Struct, frozen=True):
    """What a sheet may say of who it is, beside the ruleset's fields: a name and a side."""

    name: Name = ""
    side: Literal["pc", "npc"] | None = None


def identity(sheet: dict[str, Any], where: str) -> Identity:
    """The sheet's own name and side (text, or refused), taken out of `sheet`."""
    given = {key: sheet.pop(key) for key in ("name", "side") if key in sheet}
    try:
        return msgspec.convert(given, Identity)
    except msgspec.ValidationError as error:
        raise BadInputError(explain(error, given, Identity, where)) from None


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
