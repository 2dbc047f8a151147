"""What differs between a step as recorded and as the rules decide it now, field by field,
for any ruleset's events (the audit's rules-drift report)."""

from difflib import SequenceMatcher
from typing import Any

import msgspec

from fracas.rules.events import Event

Flat = dict[str, Any]


def flat(value: Any, path: str = "") -> Flat:
    """An event as its fields, nested ones by a dotted path (`roll.faces`, `rules.1`)."""
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        items = [(str(i), v) for i, v in enumerate(value)]
    else:
        return {path: value}
    found: Flat = {}
    for key, inner in items:
        found.update(flat(inner, f"{path}.{key}" if path else str(key)))
    return found or {path: value}


def shown(value: Any) -> str:
    return "(none)" if value is None else msgspec.json.encode(value).decode()


def field_changes(recorded: Flat, decided: Flat) -> list[str]:
    """'result: was "critical", now "success"', one line a field that differs."""
    lines = []
    for name in dict.fromkeys([*recorded, *decided]):
        was, now = recorded.get(name), decided.get(name)
        if name not in decided:
            lines.append(f"{name}: was {shown(was)}, now absent")
        elif name not in recorded:
            lines.append(f"{name}: absent then, now {shown(now)}")
        elif was != now:
            lines.append(f"{name}: was {shown(was)}, now {shown(now)}")
    return lines


def differences(recorded: list[Event], decided: list[Event]) -> list[str]:
    """The events of a step that differ, each with the fields that differ: events paired in
    order, those only recorded or only decided now named whole."""
    was = [flat(msgspec.to_builtins(e)) for e in recorded]
    now = [flat(msgspec.to_builtins(e)) for e in decided]
    keys = [[msgspec.json.encode(e) for e in events] for events in (recorded, decided)]
    lines: list[str] = []
    matcher = SequenceMatcher(None, keys[0], keys[1], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1)
        for i, j in zip(range(i1, i1 + paired), range(j1, j1 + paired), strict=True):
            moved = "" if i == j else f", decided now as event {j + 1}"
            lines.append(f"event {i + 1} ({kind(was[i])}){moved}:")
            lines += [f"  {change}" for change in field_changes(was[i], now[j])]
        for i in range(i1 + paired, i2):
            lines.append(f"event {i + 1} ({kind(was[i])}) is no longer decided: {body(was[i])}")
        for j in range(j1 + paired, j2):
            lines.append(f"event {j + 1} ({kind(now[j])}) is decided now, not then: {body(now[j])}")
    return lines


def kind(fields: Flat) -> str:
    return str(fields.get("kind", "?"))


def body(fields: Flat) -> str:
    return ", ".join(f"{k}={shown(v)}" for k, v in fields.items() if k != "kind")
