"""Commands every ruleset understands, beside its own actions. Tagged by `action`."""

import re
from collections.abc import Collection
from typing import Annotated, Any, Literal

import msgspec

from fracas.ledger import BadInputError, RefusedError
from fracas.rules.events import CombatantJoined, Declared

ONE_LINE = r"^[^\x00-\x1f\x7f]*\Z"  # a name shown on one line: no newline, no control
Name = Annotated[str, msgspec.Meta(max_length=80, pattern=ONE_LINE)]


class Command(msgspec.Struct, frozen=True, tag_field="action", forbid_unknown_fields=True):
    """Base of every command: a typed request from the table. The words after the action
    (`fracas act ACTOR ACTION WORD...`) fill its `targets`; a command whose words are not
    combatants names the text field they fill instead, as a class variable:
    `positional: ClassVar[str] = "ability"` (`Ruleset.positional_of`). An action that names
    no target though its command has `targets` from the base it shares with others (`wait`)
    says so, `no_targets: ClassVar[bool] = True`: `fracas act` and the phones refuse a
    target for it, and `fracas actions` shows none (`Ruleset.fields_of`)."""


class Join(Command, tag="join"):
    """A combatant joins with a sheet (checked by the ruleset), a display name and a side."""

    combatant: str
    sheet: dict[str, Any]
    name: Name = ""
    side: str = "npc"


class Begin(Command, tag="begin"):
    """Start the fight: initiative, first round."""


class Pass(Command, tag="next"):
    """The acting combatant ends their turn without (further) action."""

    actor: str | None = None


MOST_HEALTH = 10_000  # health taken or given back by hand at once
Amount = Annotated[int, msgspec.Meta(ge=1, le=MOST_HEALTH)]
Text = Annotated[str, msgspec.Meta(max_length=200)]


class Harm(Command, tag="gm.harm"):
    """The GM takes `amount` off a combatant's health by hand (a trap, a fall, a ruling);
    the ruleset applies what follows from it (unconscious, impaired, dying...)."""

    target: str
    amount: Amount
    reason: Text = ""


class Heal(Command, tag="gm.heal"):
    """The GM gives back `amount` of a combatant's health by hand (a potion, first aid);
    `temp`: temporary hit points instead, in a ruleset that has them (`Ruleset.temp_by_hand`)."""

    target: str
    amount: Amount
    reason: Text = ""
    temp: bool = False


class SetCondition(Command, tag="gm.condition-set"):
    """A free-text condition the table keeps track of ("on fire", "blessed"), until removed,
    for `rounds` rounds, or `until` "end:ID" or "start:ID" (that combatant's next turn)."""

    target: str
    condition: Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
    reason: Text = ""
    rounds: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None
    until: Annotated[str, msgspec.Meta(max_length=100)] = ""


class ClearCondition(Command, tag="gm.condition-clear"):
    """Any condition taken off by the GM's ruling, the rules' own ones included."""

    target: str
    condition: str
    reason: Text = ""


class Remove(Command, tag="gm.remove"):
    """A combatant leaves the fight (fled, captured, out of the scene); their turns stop."""

    target: str
    reason: Text = ""


class Return(Command, tag="gm.return"):
    """A removed combatant comes back into the fight."""

    target: str
    reason: Text = ""


class End(Command, tag="gm.end"):
    """The fight is over: nothing changes it until it is reopened (the party is changed
    between fights by `fracas party`); notes, disclosures and free rolls go on."""

    reason: Text = ""


class Reopen(Command, tag="gm.reopen"):
    """An ended fight goes on."""

    reason: Text = ""


class Rename(Command, tag="gm.rename"):
    """A combatant is shown under a new name; their id stays."""

    target: str
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=80, pattern=ONE_LINE)]
    reason: Text = ""


class FreeRoll(Command, tag="roll"):
    """A roll no rule applies, in any ruleset: a GM's or a player's check ("2d20kh1+5 for
    perception"), rolled by `actor` (the GM, a player, a combatant), recorded with its faces."""

    dice: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    reason: Text = ""
    actor: Annotated[str, msgspec.Meta(min_length=1, max_length=80, pattern=ONE_LINE)] = "gm"


class Carry(Command, tag="party.carry"):
    """A member of the party is made to stand as `standing` says (what the ruleset carried
    over from `source`, the encounter where they stood)."""

    target: str
    source: Annotated[str, msgspec.Meta(max_length=64)]
    standing: dict[str, Any]


class Rest(Command, tag="party.rest"):
    """A member of the party takes a short or a long rest: the ruleset's recovery, with as
    many of its recovery dice spent as the GM says (d20: Hit Dice on a short rest)."""

    target: str
    kind: Literal["short", "long"]
    spend: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0


class SendParty(Command, tag="party.send"):
    """The party is brought into `encounter`."""

    encounter: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class Update(Command, tag="party.update"):
    """A member of the party takes a new sheet (levelled up, corrected): they leave and join
    again with it under their id and name, standing as they stood where the new sheet
    allows (health no higher than its most)."""

    target: str
    sheet: dict[str, Any]
    reason: Text = ""
    # The fields the GM set by hand (`--set`): those that say how a combatant stands (the
    # ruleset's `set_standing`) are how the member stands after, not the standing before.
    fields: dict[str, Any] = {}


class Leave(Command, tag="party.leave"):
    """A member leaves the party: they join no fight after, and can join it again."""

    target: str
    reason: Text = ""


PartyCommand = Carry | Rest | SendParty | Update | Leave
GmCommand = Harm | Heal | SetCondition | ClearCondition | Remove | Return | End | Reopen | Rename
GM = "gm."  # the tag of every GM command starts so: gm.harm, gm.heal, ...
GM_ACTIONS: dict[str, str] = {  # by the verb the CLI and the shell give them
    "harm": "take health off a combatant by hand, with the reason",
    "heal": "give health back by hand, with the reason",
    "condition-set": "set a free-text condition on a combatant",
    "condition-clear": "clear a condition from a combatant",
    "remove": "take a combatant out of the fight (fled, captured)",
    "return": "bring a removed combatant back into the fight",
    "end": "end the encounter",
    "reopen": "reopen an ended encounter",
    "rename": "show a combatant under a new name",
}


LONGEST_ENCOUNTER_ID = 64


def check_id(what: str, value: str, longest: int | None = None) -> None:
    """The rule for ids a GM types (combatants, encounters): letters, digits, '.', '_'
    and '-'; encounter ids at most `longest` characters. Combatant ids have no ceiling, so
    that a fight recorded before one was set still decides as it did."""
    if longest is not None and len(value) > longest:
        raise BadInputError(f"{what} id of {len(value)} characters is too long: at most {longest}")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", value):
        raise BadInputError(f"{what} id {value!r} may hold only letters, digits, '.', '_' and '-'")


LONGEST_COMMAND_ID = 200


def check_command_id(value: str) -> None:
    """A command id the table chose (--command-id, the Python API): one word of printable
    text, so that a retry can name it again and the audit finds it where it was recorded."""
    if not value or len(value) > LONGEST_COMMAND_ID:
        raise BadInputError(
            f"a command id is 1 to {LONGEST_COMMAND_ID} characters, not {len(value)}; "
            "leave --command-id out for a fresh one"
        )
    if not value.isprintable() or value.split() != [value]:  # (split: at any space)
        raise BadInputError(
            f"command id {value!r} holds a space or a control character; use one word"
        )


def check_author(value: str) -> None:
    """Who made a step (--by, a phone's player): a name shown on one line of the log."""
    if not value.strip() or len(value) > 80 or not value.isprintable():
        raise BadInputError(
            f"--by {value!r} is not a name: give who made this step, on one line of at most "
            "80 characters"
        )


def check_absent(combatant: str, present: Collection[str]) -> None:
    """A newcomer's id is no one's in the encounter already."""
    if combatant in present:
        raise RefusedError(f"{combatant!r} is already in this encounter")


def check_newcomer(command: Join, present: Collection[str]) -> None:
    """Every ruleset's checks on a joining combatant's id and side."""
    check_id("combatant", command.combatant)
    check_absent(command.combatant, present)
    if command.side not in ("pc", "npc"):
        raise BadInputError(f"side must be pc or npc, not {command.side!r}")


def check_can_begin(started: bool, present: Collection[str]) -> None:
    """Every ruleset's checks before the fight begins."""
    if started:
        raise RefusedError("the fight has already begun")
    if not present:
        raise RefusedError("nobody has joined yet: `fracas add` combatants first")


def joined_event(command: Join, sheet: msgspec.Struct) -> CombatantJoined:
    """The event that records a newcomer with their checked sheet."""
    name = command.name or command.combatant
    return CombatantJoined(command.combatant, name, command.side, msgspec.to_builtins(sheet))


def declared_event(command: Command, actor: str, command_id: str) -> Declared:
    """The event that records a command as the table gave it."""
    tag = command.__struct_config__.tag
    return Declared(actor, tag, msgspec.to_builtins(command), command_id)
