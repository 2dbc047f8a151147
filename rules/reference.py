"""The rules reference: every rule id the log cites, with its statement in fracas's words and
where it comes from. Ids are `SSS-N` for the Nth rule of system SSS's combat text and `SSS-MN`
for a core mechanic that text takes for granted."""

import re
from functools import cache
from importlib import resources

import msgspec

from fracas.ledger import NotFoundError
from fracas.rules.names import did_you_mean

RULE_ID = re.compile(r"\b(\d{3})-(M?)(\d+)\b", re.ASCII)


class System(msgspec.Struct, frozen=True):
    id: str
    ruleset: str
    title: str
    game: str
    source: str


class Rule(msgspec.Struct, frozen=True):
    id: str
    system: str
    text: str
    source: str


@cache
def _loaded() -> tuple[dict[str, System], dict[str, Rule]]:
    import tomllib

    raw = tomllib.loads(resources.files("fracas.rules").joinpath("reference.toml").read_text())
    systems = {key: System(id=key, **value) for key, value in raw["systems"].items()}
    rules = {
        key: Rule(key, key[:3], value["text"], where(systems[key[:3]], value["from"]))
        for key, value in raw["rules"].items()
    }
    return systems, rules


def where(system: System, origin: str) -> str:
    if origin == "excerpt":
        return f"{system.game}: {system.source}, the combat text itself"
    if origin == "excerpt's example":
        return f"{system.game}: {system.source}, its worked example"
    return f"{system.game}: {origin}"


def systems() -> list[System]:
    return list(_loaded()[0].values())


def system(name: str) -> System:
    """A system by its number (`003`) or its ruleset's name (`fudge`)."""
    for found in systems():
        if name.lower() in (found.id, found.ruleset):
            return found
    names = [s.ruleset for s in systems()]
    raise NotFoundError(f"no rules system {name!r}; {did_you_mean(name, names)}")


def rules_of(system_id: str) -> list[Rule]:
    return sorted(
        (r for r in _loaded()[1].values() if r.system == system_id), key=lambda r: order(r.id)
    )


def order(rule_id: str) -> tuple[str, int, int]:
    match = RULE_ID.fullmatch(rule_id)
    if not match:
        return (rule_id, 9, 0)
    return (match[1], 0 if match[2] else 1, int(match[3]))


def rule(rule_id: str) -> Rule:
    wanted = rule_id.strip().upper()
    found = _loaded()[1].get(wanted)
    if found is None:
        raise NotFoundError(
            f"no rule {rule_id!r}; ids look like 000-8 (a rule) or 000-M2 (a core mechanic): "
            "`fracas rules` lists them"
        )
    return found


def statement(rule_id: str) -> str | None:
    found = _loaded()[1].get(rule_id)
    return found.text if found else None
