"""What a GM can look up: a ruleset's actions with the flags that really exist, its options
with their values now, and the rules reference behind every id in the log."""

from typing import Any

import msgspec
from msgspec import inspect

from fracas.rules import Encounter
from fracas.rules.names import accepted, choices
from fracas.rules.reference import RULE_ID, Rule, System, rule, rules_of, system, systems
from fracas.rules.ruleset import Ruleset

# The fields `fracas act` has a flag of its own for; every other field goes through -o.
FLAGS = {
    "weapon": "-w WEAPON",
    "called": "--called KIND",
    "modifiers": "--mod VALUE[:REASON]",
    "defence": "--defence [TARGET=]KIND",
    "defence_weapon": "--defence-weapon TARGET=WEAPON",
    "unaware": "--unaware TARGET",
    "item": "--item ITEM",
}
IMPLIED = ("actor", "targets")


class Flag(msgspec.Struct, frozen=True):
    field: str
    flag: str
    accepts: str
    default: Any
    choices: list[str] = []


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


def actions(ruleset: Ruleset) -> list[Action]:
    return [action(ruleset, name, text) for name, text in ruleset.actions.items()]


def action(ruleset: Ruleset, name: str, text: str) -> Action:
    struct = ruleset.command_struct(name)
    info = inspect.type_info(struct) if struct else None
    fields = [f for f in info.fields if f.name not in IMPLIED] if info else []
    flags = [Flag(f.name, *flag_of(f), default_of(f), choices(f.type)) for f in fields]
    takes = any(f.name == "targets" for f in info.fields) if info else False
    usage = f"fracas act ACTOR {name}" + (" [TARGET...]" if takes else "")
    return Action(name, text, usage, flags)


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


__all__ = ["RULE_ID", "Rule", "System", "rule", "rules_of", "system", "systems"]
