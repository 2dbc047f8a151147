"""The rules reference a ruleset carries: every rule id it cites, with its statement in the
ruleset's own words, the section of the source it comes from, the source itself, and the
licence's attribution, shown wherever the rules are. Ids are `PREFIX-N` for the Nth rule of
the system's combat text and `PREFIX-MN` for a core mechanic that text takes for granted
(`000-8`, `srd-M3`); the prefix is the ruleset's own."""

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import msgspec

from fracas.ledger import BadInputError

RULE_ID = re.compile(r"\b([A-Za-z0-9]+)-([Mm]?)(\d+)\b", re.ASCII)
PREFIX = re.compile(r"[a-z0-9]+", re.ASCII)


class Statement(msgspec.Struct, frozen=True):
    """One rule in the ruleset's own words, and where in the source it comes from (a
    chapter, a heading, a page: what lets a reader check it)."""

    text: str
    section: str = ""


class Source(msgspec.Struct, frozen=True):
    """Where the rules come from: the title of the game or document, and where to find it
    (publisher, year, address)."""

    title: str
    where: str = ""


class Reference(msgspec.Struct, frozen=True):
    """A ruleset's rules reference: its id prefix, its source, its licence, and a statement
    for every rule id it cites. `attribution` is the text the licence asks to show wherever
    the rules are shown (CC BY 4.0's notice, for instance); `licence` is its SPDX id."""

    prefix: str
    source: Source
    rules: dict[str, Statement]
    attribution: str = ""
    licence: str = ""

    def __post_init__(self) -> None:
        if not PREFIX.fullmatch(self.prefix):
            wrong = repr(self.prefix)
            raise ValueError(f"a rule id prefix is lower-case letters and digits, not {wrong}")
        wrong = [r for r in self.rules if canonical(r, self.prefix) != r]
        if wrong:
            raise ValueError(
                f"rule ids of {self.prefix!r} look like {self.prefix}-1 or {self.prefix}-M1, "
                f"not {', '.join(wrong)}"
            )

    def statement(self, rule_id: str) -> str | None:
        found = self.rules.get(rule_id)
        return found.text if found else None

    def ordered(self) -> list[tuple[str, Statement]]:
        """The rules in reading order: the core mechanics first, then the numbered rules."""
        return sorted(self.rules.items(), key=lambda item: order(item[0]))

    def cites(self, rule_id: str) -> bool:
        """Whether an id is one of this reference's (by its prefix, whatever its case)."""
        match = RULE_ID.fullmatch(rule_id.strip())
        return bool(match) and match[1].lower() == self.prefix

    def where(self, rule_id: str) -> str:
        """Where a rule comes from, as a reader checks it: the source and its section."""
        section = self.rules[rule_id].section or self.source.where
        return f"{self.source.title}: {section}" if section else self.source.title


def canonical(rule_id: str, prefix: str) -> str | None:
    """An id as the reference writes it (`SRD-m3` is `srd-M3`), or None if not one of prefix's."""
    match = RULE_ID.fullmatch(rule_id.strip())
    if not match or match[1].lower() != prefix:
        return None
    return f"{prefix}-{'M' if match[2] else ''}{int(match[3])}"


def order(rule_id: str) -> tuple[str, int, int]:
    match = RULE_ID.fullmatch(rule_id)
    if not match:
        return (rule_id, 9, 0)
    return (match[1].lower(), 0 if match[2] else 1, int(match[3]))


def prefix_of(rule_id: str) -> str | None:
    match = RULE_ID.fullmatch(rule_id.strip())
    return match[1].lower() if match else None


def toml_reference(package: str, resource: str, prefix: str) -> Callable[[], Reference]:
    """A reference read from a TOML file of a package when first asked for (not at import).

    The file holds `[systems.PREFIX]` with `game` (the source's title), `source` (where it
    comes from) and optionally `attribution` and `licence`; and `[rules]` with one
    `"PREFIX-N" = { text = "...", from = "section" }` a rule. A section of `excerpt` is the
    source's combat text itself."""

    def loaded() -> Reference:
        return _from_toml(package, resource, prefix)

    return loaded


@cache
def _read_toml(package: str, resource: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(resources.files(package).joinpath(resource).read_text())


@cache
def _from_toml(package: str, resource: str, prefix: str) -> Reference:
    raw = _read_toml(package, resource)
    system = raw["systems"][prefix]
    source = Source(system["game"], system.get("source", ""))
    rules = {
        key: Statement(value["text"], section(source, value.get("from", "")))
        for key, value in raw["rules"].items()
        if prefix_of(key) == prefix
    }
    return Reference(
        prefix, source, rules, system.get("attribution", ""), system.get("licence", "")
    )


def section(source: Source, origin: str) -> str:
    if origin == "excerpt":
        return f"{source.where}, the combat text itself"
    if origin == "excerpt's example":
        return f"{source.where}, its worked example"
    return origin


def checked_prefix(rule_id: str) -> str:
    prefix = prefix_of(rule_id)
    if prefix is None:
        raise BadInputError(
            f"{rule_id!r} is not a rule id; ids look like 000-8 (a rule) or 000-M2 "
            "(a core mechanic): `fracas rules` lists them"
        )
    return prefix
