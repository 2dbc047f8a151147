"""What a GM can look up: a ruleset's actions with the flags that really exist, its options
with their values now, and the rules reference behind every id in the log."""

import typing
from typing import Any

import msgspec
from msgspec import inspect

from fracas.ledger import NotFoundError
from fracas.ledger.errors import said
from fracas.rules import Encounter
from fracas.rules.names import accepted, choices, did_you_mean
from fracas.rules.reference import RULE_ID, Reference, canonical, checked_prefix, order
from fracas.rules.ruleset import Ruleset, available, load

# The fields `fracas act` has a flag of its own for; every other field goes through -o.
FLAGS = {
    "weapon": "-w WEAPON",
    "called": "--called KIND",
    "modifiers": "--mod VALUE[:REASON]",
    "defence": "--defence [TARGET=]KIND",
    "defence_weapon": "--defence-weapon TARGET=WEAPON",
    "unaware": "--unaware TARGET",
    "item": "--item ITEM",
    "dc": "--dc N",
}
IMPLIED = ("actor", "targets")
# What those flags mean, where neither the ruleset nor its players' help says.
FLAG_HELP = {
    "weapon": "a weapon on the actor's sheet, by its name (Tab offers them)",
    "modifiers": "the GM's modifier to the roll, with its reason",
    "defence": "a target's reaction, as the ruleset names them",
    "defence_weapon": "the weapon a target defends with, one on their sheet",
    "unaware": "a target who cannot react to it",
    "item": "the item, by its name on the sheet",
}


class Flag(msgspec.Struct, frozen=True):
    field: str
    flag: str
    accepts: str
    default: Any
    choices: list[str] = []
    description: str = ""  # the ruleset's line for the field (`Ruleset.field_help`)


class Action(msgspec.Struct, frozen=True):
    name: str
    description: str
    usage: str
    flags: list[Flag]


class Option(msgspec.Struct, frozen=True):
    name: str
    value: Any
    default: Any
    accepts: str
    description: str


class Shared(msgspec.Struct, frozen=True):
    """Flags several actions take alike, listed once, with the actions that take them."""

    actions: list[str]
    flags: list[Flag]


def actions(ruleset: Ruleset) -> list[Action]:
    return [action(ruleset, name, text) for name, text in ruleset.actions.items()]


def action(ruleset: Ruleset, name: str, text: str) -> Action:
    words = ruleset.positional_of(name)
    flags = flags_of(ruleset, name, set(ruleset.fields_of(name)) - {*IMPLIED, words})
    takes = words in ruleset.fields_of(name)
    said_as = " [TARGET...]" if words == "targets" else f" {words.upper()}"
    usage = f"fracas act ACTOR {name}" + (said_as if takes else "")
    return Action(name, text, usage, flags)


def flags_of(ruleset: Ruleset, name: str, taken: set[str]) -> list[Flag]:
    """The fields `taken` of an action, each as a flag (its type, default and choices)."""
    struct = ruleset.command_struct(name)
    info = inspect.type_info(struct) if struct else None
    fields = [f for f in info.fields if f.encode_name in taken] if info else []
    order = declared_values(struct) if struct else {}
    return [
        Flag(
            f.name,
            *flag_of(f),
            default_of(f),
            in_order(choices(f.type), order.get(f.name, [])),
            described(ruleset, f.name, name),
        )
        for f in fields
    ]


def declared_values(struct: type) -> dict[str, list[str]]:
    """Each field's Literal values in the order the ruleset declares them (msgspec lists
    them sorted: a called shot's cover read mostly, none, partly, uncovered)."""
    hints = typing.get_type_hints(struct, include_extras=True)
    return {name: [str(v) for v in literal_values(hint)] for name, hint in hints.items()}


def literal_values(hint: Any) -> list[Any]:
    if typing.get_origin(hint) is typing.Literal:
        return list(typing.get_args(hint))
    return [v for arg in typing.get_args(hint) for v in literal_values(arg)]


def in_order(found: list[str], declared: list[str]) -> list[str]:
    """FOUND in the DECLARED order, any not declared after them as found."""
    rank = {value: n for n, value in enumerate(declared)}
    return sorted(found, key=lambda value: rank.get(value, len(rank)))


def player_flags(ruleset: Ruleset, name: str) -> list[Flag]:
    """Every field of an action a phone may show, the positional one too (srd's feet to
    move: a word on the command line, a field on a phone); never the targets."""
    return flags_of(ruleset, name, set(ruleset.fields_of(name)) - {*IMPLIED, "targets"})


def described(ruleset: Ruleset, field: str, action: str = "") -> str:
    """A field's line of help, the same in every action that takes it (so that it is
    listed once) unless the ruleset gives this action's own ("ACTION.FIELD"): the
    ruleset's, else what the flag of `fracas act` for it means, else the first line its
    players read for it on their phones."""
    own = ruleset.field_help.get(f"{action}.{field}") if action else None
    said = own or ruleset.field_help.get(field) or FLAG_HELP.get(field)
    if said:
        return said
    playable = (ruleset.players or {}).values()
    return next((p.fields[field].help for p in playable if field in p.fields), "")


def offered(encounter: Encounter, actor: str, name: str, field: str) -> list[str]:
    """What Tab offers for a field of ACTOR's action NAME: the field's choices, else what
    the actor's sheet offers (their weapons for -w, their spells for -o spell=)."""
    for flag in action(encounter.ruleset, name, "").flags:
        if flag.field == field and flag.choices:
            return [choice for choice in flag.choices if choice]
    fighter = getattr(encounter.state, "fighters", {}).get(actor)
    sheet = getattr(fighter, "sheet", None)
    return [] if sheet is None else encounter.ruleset.offered(sheet, field)


def shared(found: list[Action]) -> tuple[list[Shared], list[Action]]:
    """The flags two or more actions take alike, once, grouped by the actions taking them
    (the most widely taken first); and each action with only the flags of its own."""
    takers: dict[bytes, list[str]] = {}
    for each in found:
        for flag in each.flags:
            takers.setdefault(msgspec.json.encode(flag), []).append(each.name)
    common = {key for key, names in takers.items() if len(names) > 1}
    groups: dict[tuple[str, ...], list[Flag]] = {}
    for key in takers:  # in the order the actions list them
        if key in common:
            groups.setdefault(tuple(takers[key]), []).append(msgspec.json.decode(key, type=Flag))
    listed = sorted(groups.items(), key=lambda group: -len(group[0]))
    own = [
        msgspec.structs.replace(
            each, flags=[f for f in each.flags if msgspec.json.encode(f) not in common]
        )
        for each in found
    ]
    return [Shared(list(names), flags) for names, flags in listed], own


def flag_of(field: inspect.Field) -> tuple[str, str]:
    """The flag that sets a field, and what it takes."""
    if field.name == "modifiers":
        return FLAGS["modifiers"], "a whole number and a reason, like -20:smoke; repeatable"
    if field.name in FLAGS:
        typ = field.type
        repeated = isinstance(typ, inspect.ListType | inspect.DictType)
        inner = typ.item_type if isinstance(typ, inspect.ListType) else None
        inner = typ.value_type if isinstance(typ, inspect.DictType) else inner or typ
        return FLAGS[field.name], accepted(inner) + ("; repeatable" if repeated else "")
    return f"-o {field.name}=VALUE", accepted(field.type)


def default_of(field: inspect.Field) -> Any:
    if field.default is not inspect.NODEFAULT:
        return msgspec.to_builtins(field.default)
    if field.default_factory is not inspect.NODEFAULT:
        return msgspec.to_builtins(field.default_factory())
    return None


def options_in_force(encounter: Encounter) -> msgspec.Struct | None:
    """The options the encounter was started with (every ruleset folds them into its state)."""
    return getattr(encounter.state, "options", None)


def options(ruleset: Ruleset, current: msgspec.Struct | None = None) -> list[Option]:
    """Each option with its value in this encounter (the default without one)."""
    defaults = ruleset.options_type()
    now = current if current is not None else defaults
    info = inspect.type_info(ruleset.options_type)
    return [
        Option(
            f.name,
            msgspec.to_builtins(getattr(now, f.name)),
            msgspec.to_builtins(getattr(defaults, f.name)),
            accepted(f.type),
            ruleset.option_help.get(f.name, ""),
        )
        for f in info.fields
    ]


# -- the rules reference of every installed ruleset -------------------------------------


class System(msgspec.Struct, frozen=True):
    """A ruleset's rules reference as `fracas rules` lists it: its id prefix, its source, and
    the attribution its licence asks to be shown with its rules."""

    id: str
    ruleset: str
    title: str
    game: str
    source: str
    rules: int
    attribution: str = ""
    licence: str = ""


class Rule(msgspec.Struct, frozen=True):
    id: str
    system: str
    text: str
    source: str
    attribution: str = ""


def system_of(ruleset: Ruleset, reference: Reference) -> System:
    where = reference.source
    return System(
        reference.prefix,
        ruleset.name,
        ruleset.title,
        where.title,
        where.where,
        len(reference.rules),
        reference.attribution,
        reference.licence,
    )


def references() -> list[tuple[Ruleset, Reference]]:
    """Every installed ruleset that carries a rules reference, by its id prefix."""
    found = [(r, r.rules_reference) for r in map(load, available())]
    return sorted(((r, ref) for r, ref in found if ref is not None), key=lambda p: p[1].prefix)


def systems() -> list[System]:
    return [system_of(ruleset, reference) for ruleset, reference in references()]


def reference_named(name: str) -> tuple[Ruleset, Reference]:
    """A reference by its prefix or by its ruleset's name."""
    wanted = name.strip().lower()
    found = references()
    for ruleset, reference in found:
        if wanted in (reference.prefix, ruleset.name):
            return ruleset, reference
    names = [ruleset.name for ruleset, _ in found]
    raise NotFoundError(f"no rules system {said(name)}; {did_you_mean(name, names)}")


def system(name: str) -> System:
    return system_of(*reference_named(name))


def rules_of(name: str) -> list[Rule]:
    """A system's rules (by prefix or ruleset name), core mechanics first."""
    ruleset, reference = reference_named(name)
    return [rule_of(ruleset, reference, rule_id) for rule_id, _ in reference.ordered()]


def rule_of(ruleset: Ruleset, reference: Reference, rule_id: str) -> Rule:
    text = reference.rules[rule_id].text
    return Rule(rule_id, reference.prefix, text, reference.where(rule_id), reference.attribution)


def is_rule_id(wanted: str) -> bool:
    """Whether `fracas rules WANTED` asks for one rule (`003-25`, `srd-m3`), not a system."""
    return bool(RULE_ID.fullmatch(wanted.strip()))


def rule(rule_id: str) -> Rule:
    prefix = checked_prefix(rule_id)
    for ruleset, reference in references():
        if reference.prefix != prefix:
            continue
        found = canonical(rule_id, prefix)
        if found in reference.rules:
            return rule_of(ruleset, reference, found)
        span = first_and_last(reference)
        raise NotFoundError(f"no rule {rule_id!r}; {span}: `fracas rules {prefix}` lists them")
    raise NotFoundError(
        f"no rule {rule_id!r}: no installed ruleset cites {prefix}- ids; "
        "`fracas rules` lists the systems"
    )


def first_and_last(reference: Reference) -> str:
    ids = sorted(reference.rules, key=order)
    return f"{reference.prefix} has {ids[0]} … {ids[-1]}" if ids else "it has no rules"


__all__ = ["RULE_ID", "Rule", "System", "rule", "rules_of", "system", "systems"]
