"""What a GM types, checked: a close name suggested for a typo, and a bad value answered
with the values that are accepted."""

import functools
import re
from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec import inspect

from fracas.ledger import BadInputError, RefusedError
from fracas.ledger.errors import said
from fracas.rules.commands import ONE_LINE


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name a typo most likely meant: a prefix (`melee` → `melee weapons`) or a
    near spelling (`firarms` → `firearms`)."""
    wanted = name.lower().strip()
    choices = sorted({k.lower() for k in known})
    starts = [k for k in choices if k.startswith(wanted) or wanted.startswith(k)]
    if len(starts) == 1:
        return starts[0]
    import difflib  # only when a name is wrong

    close = difflib.get_close_matches(wanted, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def near_miss(name: str, known: Iterable[str]) -> str | None:
    """The known name `name` misspells (`pron` for `prone`), as the known one is spelt; None
    when it is one of them in any case, or unlike all of them (a name of its own)."""
    wanted = name.lower().strip()
    spelt = {k.lower(): k for k in known}
    if wanted in spelt:
        return None
    import difflib  # only when a name is not known

    close = difflib.get_close_matches(wanted, spelt, n=1, cutoff=0.8)
    return spelt[close[0]] if close else None


LISTED = 40  # the known names a refusal lists whole, past `most` of them


def did_you_mean(name: str, known: Iterable[str], most: int | None = 12) -> str:
    """`; did you mean X?` when a known name is close, else the list of known names; past
    `most` of them (None: every one, however many), their count, the nearest of them and
    the list (the first `LISTED`, then how many more; `most` 0: no list, a spellbook's
    hundreds)."""
    known = list(known)
    if not known:
        return "there is none to choose from"
    guess = closest(name, known)
    if guess is not None:
        return f"did you mean {guess}?"
    if most is not None and len(known) > most:
        import difflib  # only when a name is wrong

        wanted = name.lower().strip()
        nearest = max(
            sorted(known), key=lambda k: difflib.SequenceMatcher(None, wanted, k.lower()).ratio()
        )
        none = f"it is none of the {len(known)} known names (closest: {nearest})"
        return f"{none}: {some_of(sorted(known), LISTED)}" if most else none
    return f"known: {', '.join(sorted(known))}"


def and_list(names: Iterable[str]) -> str:
    """Names as a person lists them: "Ilse", "Ilse and Wren", "Ilse, Wren and Maelis"."""
    said = list(names)
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def some_of(names: list[str], most: int = 12) -> str:
    """Names in a line a refusal can hold: the first `most`, then how many more."""
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def check_known(kind: str, names: Iterable[str], known: Iterable[str], where: str) -> None:
    """Refuse the first name that is not known, suggesting the closest known one."""
    known = {k.lower() for k in known}
    for name in names:
        if name.lower().strip() not in known:
            raise BadInputError(
                f"{where}: unknown {kind} {said(name)}; {did_you_mean(name, known)}"
            )


def no_weapon(owner: str, name: str, weapons: list[str]) -> RefusedError:
    """The refusal of a weapon the sheet lacks: the closest name, and every one it has."""
    guess = closest(name, weapons)
    hint = f"did you mean {guess}? " if guess else ""
    return RefusedError(
        f"{owner} has no weapon {said(name)}; {hint}they have: {', '.join(weapons)}"
    )


@functools.lru_cache(maxsize=512)
def struct_info(struct: Any) -> inspect.Type:
    """msgspec's description of a type (a command's struct, a sheet's), worked out once a
    type: `inspect.type_info` walks every field's annotations on each call."""
    return inspect.type_info(struct)


# -- bad values ---------------------------------------------------------------------------

AT = re.compile(r"^(?P<what>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
UNKNOWN = re.compile(r"Object contains unknown field `(?P<field>[^`]*)`")


def explain(error: msgspec.ValidationError, data: Any, schema: Any, where: str) -> str:
    """One line naming the field, the value given and what the field accepts."""
    match = AT.match(str(error))
    what, path = (match["what"], match["path"] or "$") if match else (str(error), "$")
    keys = path_keys(path)
    typ = type_at(inspect.type_info(schema), keys)
    unknown = UNKNOWN.search(what)
    if unknown:
        field = unknown["field"]
        fields = field_names(typ)
        inside = f" in {dotted(keys)}" if keys else ""
        hint = did_you_mean(field, fields, most=None)  # a struct's fields: few enough to list
        return f"{where}: unknown field {said(field)}{inside}; {hint}"
    if "missing required field" in what:
        return f"{where}: {what.replace('Object missing', 'missing')} in {dotted(keys) or 'it'}"
    keys = named_keys(data, keys, typ)
    value = value_at(data, keys)
    return f"{where}: {dotted(keys)} = {shown(value)} is not accepted; use {accepted(typ)}"


ANY_KEY = "[...]"  # msgspec's path through a table leaves the key out


def path_keys(path: str) -> list[str | int]:
    keys: list[str | int] = []
    for name, index, any_key in re.findall(
        r"\.([^.\[]+)|\[(\d+)\]|(\[\.\.\.\])", path.removeprefix("$")
    ):
        keys.append(int(index) if index else (ANY_KEY if any_key else name))
    return keys


def named_keys(data: Any, keys: list[str | int], typ: Any) -> list[str | int]:
    """Put back a table key msgspec left out: the first entry whose value does not fit."""
    if ANY_KEY not in keys:
        return keys
    at = keys.index(ANY_KEY)
    table = value_at(data, keys[:at])
    if not isinstance(table, dict) or not table:
        return keys[:at]
    rest = keys[at + 1 :]
    bad = [k for k, v in table.items() if not fits(value_at(v, rest), typ)] or list(table)
    return named_keys(data, [*keys[:at], bad[0], *rest], typ)


def fits(value: Any, typ: Any) -> bool:
    if isinstance(typ, inspect.LiteralType):
        return value in typ.values
    if isinstance(typ, inspect.BoolType):
        return isinstance(value, bool)
    if isinstance(typ, inspect.IntType):
        return isinstance(value, int) and not isinstance(value, bool)
    return True


def dotted(keys: list[str | int]) -> str:
    text = ""
    for key in keys:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


def value_at(data: Any, keys: list[str | int]) -> Any:
    for key in keys:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def shown(value: Any) -> str:
    if isinstance(value, str):
        return said(value)
    return msgspec.json.encode(value).decode() if value is not None else "that"


def plain(typ: Any) -> Any:
    """The type without its optional None and its metadata wrappers."""
    while isinstance(typ, inspect.Metadata):
        typ = typ.type
    if isinstance(typ, inspect.UnionType):
        others = [t for t in typ.types if not isinstance(t, inspect.NoneType)]
        if len(others) == 1:
            return plain(others[0])
    return typ


def type_at(typ: Any, keys: list[str | int]) -> Any:
    for key in keys:
        typ = plain(typ)
        if isinstance(typ, inspect.StructType):
            fields = {f.encode_name: f.type for f in typ.fields}
            typ = fields.get(str(key), inspect.AnyType())
        elif isinstance(typ, inspect.DictType):
            typ = typ.value_type
        elif isinstance(typ, inspect.ListType | inspect.TupleType | inspect.VarTupleType):
            typ = getattr(typ, "item_type", None) or typ.item_types[int(key)]
        else:
            return inspect.AnyType()
    return plain(typ)


def field_names(typ: Any) -> list[str]:
    typ = plain(typ)
    if isinstance(typ, inspect.StructType):
        return [f.encode_name for f in typ.fields]
    if isinstance(typ, inspect.UnionType):
        return [name for t in typ.types for name in field_names(t)]
    return []


def choices(typ: Any) -> list[str]:
    """The values a field takes, when they can be listed (for completion)."""
    typ = plain(typ)
    if isinstance(typ, inspect.LiteralType):
        return [str(v) for v in typ.values]
    if isinstance(typ, inspect.BoolType):
        return ["true", "false"]
    if isinstance(typ, inspect.ListType | inspect.VarTupleType):
        return choices(typ.item_type)
    if isinstance(typ, inspect.DictType):
        return choices(typ.value_type)
    if isinstance(typ, inspect.UnionType):
        return [c for t in typ.types for c in choices(t)]
    return []


def _text(typ: "inspect.StrType") -> str:
    """Text in words: its length, and one line when its pattern forbids a newline."""
    low, high = typ.min_length or 0, typ.max_length
    size = f" of {low} to {high} characters" if high else (" not empty" if low else "")
    line = " on one line" if typ.pattern == ONE_LINE else ""
    return f"text{size}{line}"


def _range(typ: "inspect.IntType") -> str:
    """A whole number's bounds in words: ` from 0 to 99`, ` >= 1`, or none."""
    if typ.ge is not None and typ.le is not None:
        return f" from {typ.ge} to {typ.le}"
    low = f" >= {typ.ge}" if typ.ge is not None else ""
    high = f" <= {typ.le}" if typ.le is not None else ""
    return f"{low}{high}"


def accepted(typ: Any) -> str:
    """What a field takes, in words a GM reads."""
    typ = plain(typ)
    if isinstance(typ, inspect.LiteralType):
        return "one of: " + ", ".join(str(v) for v in typ.values)
    if isinstance(typ, inspect.BoolType):
        return "true or false"
    if isinstance(typ, inspect.IntType):
        return "a whole number" + _range(typ)
    if isinstance(typ, inspect.FloatType):
        return "a number"
    if isinstance(typ, inspect.StrType):
        return _text(typ)
    if isinstance(typ, inspect.ListType | inspect.VarTupleType):
        return f"a list, like [a, b], of {accepted(typ.item_type)}"
    if isinstance(typ, inspect.DictType):
        return f"a table of NAME = {accepted(typ.value_type)}"
    if isinstance(typ, inspect.StructType):
        return "a table with " + ", ".join(f.encode_name for f in typ.fields)
    if isinstance(typ, inspect.UnionType):
        return " or ".join(accepted(t) for t in typ.types)
    return "another value"
