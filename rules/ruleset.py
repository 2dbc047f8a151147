"""The decider protocol (initial / decide / evolve) and the registry of rulesets."""

import collections.abc
import dataclasses
import functools
import hashlib
import importlib
import re
import types as types_module
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import msgspec
import msgspec.inspect as types

from fracas.ledger import BadInputError, NotFoundError
from fracas.ledger.errors import RulesetFailedError, said
from fracas.rules import BUILTIN, durations, gm, party, roster
from fracas.rules import reactions as waits
from fracas.rules.bestiary import Bestiary, sheet_lines
from fracas.rules.commands import (
    GM,
    GM_ACTIONS,
    FreeRoll,
    GmCommand,
    Join,
    PartyCommand,
    check_newcomer,
)
from fracas.rules.dice import Dice
from fracas.rules.events import (
    Choices,
    CombatantHidden,
    Commanded,
    ConditionSet,
    Declared,
    Event,
    Rolled,
    Spent,
)
from fracas.rules.names import closest, explain
from fracas.rules.players import Playable
from fracas.rules.reference import Reference
from fracas.rules.views import View, WoundRow

ENTRY_POINT_GROUP = "fracas.rulesets"
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
CUSTOM = "custom_skills"
TARGETS = "targets"  # the field the words after an action fill, unless its command says
ANY_KIND = "*"  # an upcaster for every kind of event
LEGACY_MECHANIC = re.compile(r"^mechanic (\d+)$")
GM_COMMANDS: tuple[type, ...] = typing.get_args(GmCommand)
PARTY_COMMANDS: tuple[type, ...] = typing.get_args(PartyCommand)
# The facts a ruleset may report of an event (`Ruleset.facts`), the table's fixed vocabulary.
CRITICAL, FUMBLE, DOWN, OUT = "critical", "fumble", "down", "out"
FACTS = frozenset((CRITICAL, FUMBLE, DOWN, OUT))
CORE_ACTIONS = (
    "join",
    "begin",
    "next",
    "roll",
    *(f"{GM}{verb}" for verb in GM_ACTIONS),
    *waits.ACTIONS,
    *(struct.__struct_config__.tag for struct in PARTY_COMMANDS),
)
NOBODY = "-"  # the turn token while nobody acts (before the fight begins)
Reactions = Callable[[Any, Any], dict[str, Choices]]  # (state, command) -> target: choices


def mechanic_ids(system: str) -> Upcaster:
    """Schema 1 cited core mechanics as `mechanic N`; they are `SSS-MN` now."""

    def relabel(value: Any) -> Any:
        if isinstance(value, str):
            match = LEGACY_MECHANIC.match(value)
            return f"{system}-M{match[1]}" if match else value
        if isinstance(value, list):
            return [relabel(v) for v in value]
        if isinstance(value, dict):
            return {k: relabel(v) for k, v in value.items()}
        return value

    return relabel


@dataclass
class Context:
    """What `decide` may use besides the state: the dice and who is asking."""

    dice: Dice
    step: int
    author: str = "gm"
    command_id: str = ""
    # The targets the table waits on once the dice show a reaction's trigger (`--ask`, a
    # phone's link): a ruleset with `reacts_after` raises `ReactionDue` for one of them
    # (rules/reactions.py); empty: nobody is asked, the rules' default applies at once.
    ask: frozenset[str] = frozenset()


class Reach(msgspec.Struct, frozen=True):
    """What a step's dice can change, whatever faces they show (`Ruleset.reach`): the
    combatants whose state could be other than it is, and whether the fight's shared state
    could be (its round, turn, phase or order, now or later: a combatant who could fall is
    skipped by a later turn, so whoever could fall makes it True; fracas then adds whoever
    holds a condition with a duration, which a moved turn may end)."""

    combatants: frozenset[str] = frozenset()
    shared: bool = False


def hit_points(amount: int) -> str:
    """The default `healed_words`: "regains 1 hit point", "regains 6 hit points"."""
    return f"regains {amount} hit point{'' if amount == 1 else 's'}"


def wrongly_typed(ruleset: "Ruleset") -> None:
    """A field given a value of another type than declared (`actions=["attack"]`) is
    refused here, naming it, rather than failing later wherever it is first read."""
    hints = typing.get_type_hints(Ruleset)
    for declared in dataclasses.fields(ruleset):
        value, hint = getattr(ruleset, declared.name), hints[declared.name]
        if not fits(value, hint):
            raise TypeError(
                f"Ruleset {ruleset.name}: {declared.name} must be {expected(hint)}, not "
                f"{type(value).__name__} {value!r:.60} (docs/rulesets.md)"
            )


def fits(value: Any, hint: Any) -> bool:
    """Is `value` of the type `hint` (containers checked item by item, functions only for
    being callable)?"""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types_module.UnionType):
        return any(fits(value, arg) for arg in args)
    if hint is Any or isinstance(hint, typing.TypeVar):
        return True
    if origin is collections.abc.Callable:
        return callable(value)
    if origin is type:
        return isinstance(value, type) and issubclass(value, args[0])
    if origin is dict:
        return isinstance(value, dict) and all(
            fits(k, args[0]) and fits(v, args[1]) for k, v in value.items()
        )
    if origin is frozenset:
        return isinstance(value, frozenset) and all(fits(item, args[0]) for item in value)
    if origin is tuple:
        return (
            isinstance(value, tuple)
            and len(value) == len(args)
            and all(fits(item, arg) for item, arg in zip(value, args, strict=True))
        )
    return not isinstance(hint, type) or isinstance(value, hint)


def expected(hint: Any) -> str:
    """A declared type in the words an author reads."""
    if typing.get_origin(hint) is collections.abc.Callable:
        return "a function"
    if typing.get_origin(hint) in (typing.Union, types_module.UnionType):
        return " or ".join(expected(arg) for arg in typing.get_args(hint))
    if isinstance(hint, type) and not typing.get_args(hint):
        return "None" if hint is type(None) else hint.__name__
    return str(hint).replace("typing.", "").replace("collections.abc.", "")


@dataclass(frozen=True)
class Ruleset:
    """One combat system as a decider. `evolve` is pure and total; `decide` judges.

    Everything the table shows of the system comes from here, never from a table keyed by
    its name elsewhere: the actions with one line of help each (`actions`); what each action
    takes, targets and arguments, is its command struct's fields (`fields_of`: the CLI sends
    only those); and the words and facts below, each with a generic default."""

    name: str
    title: str
    options_type: type[msgspec.Struct]
    sheet_type: type[msgspec.Struct]
    command_type: Any
    event_type: Any
    initial: Callable[[], Any]
    decide: Callable[[Any, Any, Context], list[Event]]
    evolve: Callable[[Any, Event], Any]
    view: Callable[[Any], View]
    actions: dict[str, str] = field(default_factory=dict)
    option_help: dict[str, str] = field(default_factory=dict)  # one line per option
    upcasters: dict[tuple[str, int], Upcaster] = field(default_factory=dict)
    schema: int = 1
    check_sheet: Callable[[Any, str, list[str]], None] | None = None  # (sheet, where, custom)
    conditions: frozenset[str] = frozenset()  # the conditions the rules set and read
    # The conditions the GM sets by name that the rules read (d20: prone, poisoned...):
    # `condition set` takes them in any case and refuses a near miss ("pron") with a
    # did-you-mean, as it does a near miss of `conditions` and of those set in the fight.
    condition_names: frozenset[str] = frozenset()
    harm_by_hand: gm.HandHook = gm.harmed
    # The GM's harm in a fight when the rules roll dice for what it sets off, (state, target,
    # amount, reason, context) -> events (d20: the concentration save the damage calls for, on
    # the server's dice or those typed with --dice); None: `harm_by_hand`.
    harm_rolled: gm.RolledHook | None = None
    heal_by_hand: gm.HandHook = gm.healed
    # The GM's temporary hit points (`heal --temp`), as the rules give them (they may not
    # stack); None: the rules have none, and `heal --temp` is refused in one line.
    temp_by_hand: gm.HandHook | None = None
    # The GM's `condition clear`, with what ends with the condition in the rules (d20: a
    # spell's effects with its concentration); default: the condition alone.
    clear_by_hand: gm.ClearHook = gm.cleared
    # Why the rules refuse a condition the GM sets by hand on a combatant, (state, id,
    # condition) -> one line, or "" to take it (d20: a sheet immune to it); None: all taken.
    condition_refused: Callable[[Any, str, str], str] | None = None
    # What ends by itself once the GM has set a condition or removed a combatant by hand,
    # read from the state after it (d20: a grapple whose grappler is stunned or gone);
    # None: nothing does.
    after_by_hand: Callable[[Any], list[Event]] | None = None
    # What moves the turn on when the acting combatant leaves; None: their own pass.
    moved_on: Callable[[Any, "Context"], list[Event]] | None = None
    # What carries over from fight to fight (the party, `fracas party`): what of a combatant
    # outlasts a fight, as plain data, (state, id) -> standing; and the events that make a
    # newcomer stand so, (state, id, standing) -> events. None: fracas.rules.party's default,
    # health and the conditions set without a duration.
    standing: Callable[[Any, str], dict[str, Any]] | None = None
    restore: Callable[[Any, str, dict[str, Any]], list[Event]] | None = None
    # A member's standing once the GM sets sheet fields by hand (`fracas party update --set`),
    # (standing, the fields set) -> standing: those fields of the sheet that say how a
    # combatant stands (d20: hp_now, temp_hp, slots_spent, hit_dice_spent) put in it. None:
    # no field of the rules' sheets says so, and the member stands as before.
    set_standing: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None
    # The rules' recovery between fights, (state, id, "short" or "long", how many recovery
    # dice the GM says it spends, context) -> events; None: the rules have no rests, and the
    # GM gives health back by hand.
    rest: Callable[[Any, str, str, int, "Context"], list[Event]] | None = None
    # A sheet in another program's shape (a Foundry VTT export), recognised by its content:
    # data -> (the ruleset's own sheet, one line for each thing it could not read), or None
    # when the data is not one it knows. None: sheets are the ruleset's own alone.
    imports: Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]] | None] | None = None
    # The ruleset's monsters, ready to add by name (`fracas monsters`, `add --monster`), with
    # their attribution: a function giving the Bestiary when first asked. None: none.
    bestiary: Callable[[], Bestiary] | None = None
    # The turn whose end is still open, as (round, who had it), while the next has not acted
    # yet: a step taken then that leaves it open is filed under that turn in the replay and
    # the report (d20: a legendary action at the end of another creature's turn, srd-29).
    # None, or a state where it gives None: a step is filed under the turn the view shows.
    turn_end: Callable[[Any], tuple[int, str] | None] | None = None
    # A monster's sheet as a stat block the GM reads before adding it (`fracas monsters NAME
    # --show`): sheet -> (label, text) lines. None: the sheet's own fields, one a line.
    stat_block: Callable[[dict[str, Any]], list[tuple[str, str]]] | None = None
    # The round and who is having a turn now, where durations expire; None: as the view shows.
    clock: Callable[[Any], durations.Clock] | None = None
    # How the table reads a roll: its "total" (modifiers already in the target), the total
    # with its modifiers added ("modified"), or its "faces" one by one (a dice pool).
    reads_rolls: str = "total"
    # What one face of a roll read face by face is worth to its count, (face, the roll's
    # target) -> +2, +1, 0 or -1 (a pool's 10, a success, a miss, a 1): the dice box marks
    # each face with it. None: the faces are not counted one by one.
    face_worth: Callable[[int, int | None], int] | None = None
    # What a roll came to once the rest of its step is in, where a later event there changed
    # its outcome (d20: an attack's hit a shield turned into a miss, a failed save legendary
    # resistance made a success): (the roll, the events after it in its step) -> its result
    # as the dice box says it, or None for the roll's own. None: a roll's own result stands.
    settled: Callable[[Rolled, Sequence[Event]], str | None] | None = None
    # Who an attack gives a choice of reaction, and which (rules/reactions.py); None: nobody.
    reactions: Reactions | None = None
    # The targets of a command who may be asked for a reaction only once its dice show the
    # trigger (d20's shield, once the attack hits): (state, command) -> targets. With
    # `--ask`, such a command is rolled at once; when the trigger comes for one of them, its
    # `decide` raises `ReactionDue` (the rolls so far are kept and the target asked).
    # None: reactions are asked before any roll alone (`reactions`).
    reacts_after: Callable[[Any, Any], list[str]] | None = None
    # The figures a target's player reads beside a reaction they are asked to choose, from
    # their own sheet and their own row as their screen shows it (its `detail`: the slots
    # they have left), never the attacker's: (sheet, option, own) -> "Dodge 50%", "" for none.
    reaction_figures: Callable[[Any, str, Mapping[str, Any]], str] | None = None
    # What each reaction a target may be asked to choose does and what it costs, in the
    # ruleset's words, as a player reads it beside the choice with no rules to hand (pool's
    # clash: "roll as a parry, then compare: ..., and it spends your Action this round").
    # Empty: the choice's name alone.
    reaction_words: Mapping[str, str] = field(default_factory=dict)
    # The words its rolls' results and the board's order column say that a table may not
    # know, each with what it is in the ruleset's words (pool's "Outcome": "each die at or
    # over the Difficulty adds 1, ..."): the TV's dice box says those its rolls or the
    # order column show, as d20's dice say what each modifier is. Empty: none.
    dice_terms: Mapping[str, str] = field(default_factory=dict)
    # What a target's player reads of the dice when asked once the trigger showed
    # (`reacts_after`): those rolled before they were asked and those the server rolls once
    # they answer, by the command's field the answer fills (`Choices.field`): d20's
    # "on_hit" -> the damage is still to roll. None, or "": the table's generic words.
    asked_rolls: Callable[[str], str] | None = None
    # The rules reference: a statement for every rule id the ruleset cites, their source and
    # licence. A Reference, or a function giving one when first asked (`toml_reference`).
    reference: Reference | Callable[[], Reference] | None = None

    # -- the table's words: what the screens, sentences and reports say for this system --
    # The word for a round on the board and in reports: "Round 3", "Sequence 2", "Turn 4".
    round_word: str = "Round"
    # What the headline adds after the round, read from the view ("shot 12", "declaring");
    # "" or None: nothing. The headline reads "Round 2 · shot 12 · Bob to act".
    headline: Callable[[View], str] | None = None
    # The numbers the table keeps an eye on beside health, from a combatant's wound row
    # (its `detail`): {"Next shot": 9}. None: health alone.
    key_numbers: Callable[[WoundRow], dict[str, Any]] | None = None
    # The phrases of a row's health (`WoundRow.health`, between its ", ") that a screen shows
    # as chips beside the conditions, not in the health line it keeps to one line: what is
    # counted out by the day (srd: "hellish rebuke 1/1 today"). Text keeps them in health.
    # None: none.
    health_chips: Callable[[WoundRow], list[str]] | None = None
    # How a sentence says each action, third person: {"attack": "attacks", "pin": "tries to
    # pin"}. An action without one reads "takes the ACTION action". A verb may name the
    # command's fields, "casts {spell} on", and put its targets inside, "uses {option} on
    # {targets}" (without targets, "on {targets}" is left out); else the targets follow it.
    verbs: dict[str, str] = field(default_factory=dict)
    # How a sentence says a step that its events word otherwise than its action's verb:
    # (the command, as plain data; the step's events) -> a verb as `verbs` writes them, or
    # None for the action's own (d20: a monster's breath "uses {spell} on", no spell cast;
    # a spell cast with a higher slot "casts {spell} at level 2 on"). None: `verbs` alone.
    step_verb: Callable[[dict[str, Any], Sequence[Event]], str | None] | None = None
    # How a line says a resource of the ruleset's own spent, in its words (d20: a spell
    # cast, "Maelis casts bless, a 1st-level spell, with an action"; a slot, "Maelis spends
    # a 1st-level spell slot: 3 of 4 left"): a Spent, its combatant named as the reader
    # knows them -> the line, or None for fracas's ("Maelis spends 1 legendary action: ...").
    # None: fracas's words for every one.
    spent_words: Callable[[Spent], str | None] | None = None
    # How a line says health given back, after the one who gets it: amount -> words
    # ("regains 1 hit point", "regains 4 Body", "is healed of 2 wound points").
    healed_words: Callable[[int], str] = hit_points
    # How a sentence says an event of the ruleset's own that the table should read there,
    # (the event, names by id) -> the phrase, or None for one a sentence leaves out (d20:
    # death save failures taken with damage at 0 HP, "Wren suffers one death save failure
    # (1 of 3): damage at 0 HP"). None: a sentence says none of the ruleset's own events.
    event_words: Callable[[Event, Mapping[str, str]], str | None] | None = None
    # How a step's short headline (a TV's log line) says it where what it came to words it
    # better than the sentence's verb: (the command, as plain data; the step's events as
    # the reader sees them) -> a verb as `verbs` writes them, or None for the sentence's
    # (d20: an attack that hits "hits", one that misses "misses"). None: the sentence's.
    headline_verb: Callable[[dict[str, Any], Sequence[Event]], str | None] | None = None
    # What a step came to for each target whose own roll settled it (a save, a resisted or
    # defended roll), as a headline says it after the target's name and before what the
    # step did to them: (the command, as plain data; the step's events as the reader sees
    # them) -> {target: words} (d20: a save spell's "saves, no damage", "fails": "Mae casts
    # sacred flame on Gob: Gob fails, 5 damage"). None: {} (the attacker's outcome alone).
    target_outcomes: Callable[[dict[str, Any], Sequence[Event]], dict[str, str]] | None = None
    # The conditions a sentence tells when they are set or cleared as part of an action
    # (down and out conditions always are; a bookkeeping one such as "aiming" is not).
    told: frozenset[str] = frozenset()
    # "Down": the conditions of a combatant put out of action by harm who may yet come back
    # (unconscious, dying). "Out": those of one out of the fight for good (dead).
    down: frozenset[str] = frozenset(("unconscious", "dying", "incapacitated"))
    out: frozenset[str] = frozenset(("dead",))
    # The sides of a begun fight with nobody left fighting, (view) -> sides, which the GM's
    # step and status then say, with how to end the fight; None: each side whose
    # combatants are all `down`, `out` or removed.
    fallen_sides: Callable[[View], list[str]] | None = None
    # The conditions that take every action and reaction from one who is not down (d20's
    # stunned, paralysed): a phone offers them only what it offers one who is down.
    helpless: frozenset[str] = frozenset()
    # The conditions that leave one action alone (and the pass): a phone offers a character
    # showing one only those (a pinned target escapes and does nothing else).
    confines: dict[str, frozenset[str]] = field(default_factory=dict)
    # What an event means to the table beyond its own words, from the fixed vocabulary FACTS:
    # "critical" and "fumble" for a roll that is one. Down and out need no hook: a condition
    # set from `down` or `out` is reported as "down" (and "out") by `facts_of`.
    facts: Callable[[Event], frozenset[str]] | None = None
    # The names of the weapons on a sheet (the ruleset's sheet struct), as `-w` takes them.
    # None: the sheet's `weapons` field, read as a list of named things or a table by name.
    weapons: Callable[[Any], list[str]] | None = None
    # The names a sheet offers for a text field of an action, for Tab to complete
    # (`-o spell=` and the spells on the sheet): (sheet, field) -> names. None: none.
    offers: Callable[[Any, str], list[str]] | None = None
    # How many times an action with `Playable.times` names its targets in all, by the value
    # of its `times_with` field and by its level field's value ("" the value's own level):
    # sheet -> {"magic missile": {"": 3, "1": 3, "2": 4, ...}}. None: the phone asks alone.
    times_of: Callable[[Any], dict[str, dict[str, int]]] | None = None
    # The least number a player's `counted_in` field takes with each value of its
    # `only_with` field (a levelled spell's slot: the spell's own level, srd-51): sheet ->
    # {"cure wounds": 1, "hold person": 2}; the phone offers, for the value chosen, the
    # numbers from it up, and never "unsaid". None: from 1, after "unsaid".
    least_of: Callable[[Any], dict[str, int]] | None = None
    # One line for each field of an action a GM may set (by its flag or `-o`), beside the
    # type the catalog shows: {"called": "how much cover the target has"}.
    field_help: dict[str, str] = field(default_factory=dict)
    # The faces a source of dice may show now, where not every face of its dice may (cards
    # drawn without replacement from a deck): (state, purpose, the faces this step drew for
    # that purpose so far) -> the faces left. None: every face. The conformance kit types
    # only these.
    legal_faces: Callable[[Any, str, Sequence[int]], Sequence[int]] | None = None
    # What a step's dice can change whatever they show, for a GM-only roll with too many
    # outcomes to try (4dF opposed, a large pool, dice that explode): (state before the
    # step, its command) -> a `Reach`, read from those alone and never from the dice; None
    # where the ruleset cannot say. The players then see at once every step that reads
    # nothing in it; without it, such a secret makes everything after it wait. The kit
    # checks it against the outcomes of the steps it plays (docs/rulesets.md).
    reach: Callable[[Any, Any], Reach | None] | None = None
    # The rules read a roll by its total alone (never one face, their order, nor which
    # were kept), and keep no face in the state: a GM-only roll's other outcomes are tried
    # a total at a time (two 4dF opposed: 81 totals, not 6,561 faces). The kit checks that
    # other faces of the same totals leave the state as they did (docs/rulesets.md).
    reads_totals: bool = False
    # The actions aimed at others: their actor may not be among their targets (attacking
    # oneself is surely a slip of the keyboard, not a move).
    hostile: frozenset[str] = frozenset(("attack", "disarm", "pin", "grapple"))
    # What a player may do from a phone (rules/players.py): each action a player may take,
    # with the fields of it that are the player's, in words; every other field is the GM's.
    # None: every action of `actions`, with its targets and no field.
    players: dict[str, Playable] | None = None
    # The heading a phone shows an action's button under, by what it costs a turn (d20:
    # "Action", "Bonus action", "Movement and free"): (the action, what of its `spends` is
    # still left this turn, as the character's row says) -> the heading (d20's Dash once
    # the action is taken: its bonus form, "Bonus action"); the groups come in the order
    # their first action does. None: one group, no heading.
    cost_of: Callable[[str, frozenset[str]], str] | None = None
    # What is left of the acting character's turn, from their row (its `detail`), each
    # part in a few words and whether it is used: [("Action", True), ("30 ft of 30 ft to
    # move", False)]; the phone says it in one line above its buttons. None: nothing.
    turn_left: Callable[[WoundRow], list[tuple[str, bool]]] | None = None
    # What a phone says, in place of "Your turn.", to a character whose turn comes while
    # they are `down`, `out` or `helpless`: (their conditions, as the screen shows them) ->
    # a line (d20's dying: "You are dying: no actions; your death save is rolled as your
    # turn passes"). None, or "" for these conditions: "You are <the conditions>: no
    # actions". The phone adds how the turn is passed, where it offers the pass.
    down_said: Callable[[list[str]], str] | None = None
    # The events that start a round, for the SQL views: each kind with the field of its body
    # that holds the new round's number.
    round_events: dict[str, str] = field(default_factory=lambda: {"turn.advanced": "round"})

    def __post_init__(self) -> None:
        """The core wiring every ruleset needs, done here once (and once only: a view or
        evolve wired already is kept as it is): the view shows what the GM decided by hand,
        evolve folds the core events. Each action's command struct is documented by the
        ruleset's own line for it."""
        wrongly_typed(self)
        object.__setattr__(self, "view", gm.table_view(self.view))
        object.__setattr__(self, "evolve", roster.with_core(self.evolve))
        for struct in typing.get_args(self.command_type):
            tag = struct.__struct_config__.tag
            if tag in self.actions and not (struct.__doc__ or "").strip():
                struct.__doc__ = f"`{tag}` ({self.title}): {self.actions[tag]}."

    @cached_property
    def rules_reference(self) -> Reference | None:
        """The ruleset's rules reference, loaded when first asked for."""
        found = self.reference
        return found() if callable(found) else found

    def statement(self, rule_id: str) -> str | None:
        """What a rule id the ruleset cites says (None for an id it does not know)."""
        found = self.rules_reference
        return found.statement(rule_id) if found is not None else None

    def stat_block_of(self, sheet: dict[str, Any]) -> list[tuple[str, str]]:
        """A monster's sheet as (label, text) lines to read (`fracas monsters NAME --show`)."""
        return (self.stat_block or sheet_lines)(sheet)

    @cached_property
    def monsters(self) -> Bestiary:
        """The ruleset's bestiary (read once); an empty one when it has none."""
        return self.bestiary() if self.bestiary is not None else Bestiary([])

    @cached_property
    def decoder(self) -> msgspec.json.Decoder:
        return msgspec.json.Decoder(self.event_type)

    def decode(self, kind: str, schema: int, body: str) -> Event:
        return self.decoder.decode(body) if schema == self.schema else self.upcast(schema, body)

    def upcast(self, schema: int, body: str) -> Event:
        """An event stored under an older schema, brought up to this one on read."""
        data = msgspec.json.decode(body)
        for version in range(schema, self.schema):
            upcaster = self.upcasters.get((data.get("kind", ""), version)) or self.upcasters.get(
                (ANY_KIND, version)
            )
            if upcaster is not None:
                data = upcaster(data)
        # through the ruleset's own decoder, built once: msgspec.convert makes its reading
        # of the union of event types again on every call, some 70 us an event
        return self.decoder.decode(msgspec.json.encode(data))

    def decide_step(
        self,
        state: Any,
        command: Any,
        ctx: Context,
        *,
        secret: bool = False,
        hidden: bool = False,
        ask: waits.Ask | None = None,
    ) -> list[Event]:
        """What a command appends: the ruleset's decision, led by the command itself when the
        ruleset declares nothing, with every roll marked GM-only when the GM asked for it,
        and a joining combatant hidden from the players when the GM asked for that. `ask`:
        an attack that gives a target a choice waits for the answer (rules/reactions.py)."""
        if hidden and not isinstance(command, Join):
            raise BadInputError("only a combatant joining can be hidden (add --hidden)")
        if isinstance(command, GM_COMMANDS):
            events = gm.decide(self, state, command, ctx)
        elif isinstance(command, PARTY_COMMANDS):
            events = party.decide(self, state, command, ctx)
        elif isinstance(command, waits.COMMANDS):
            events = waits.decide(self, state, command, ctx, gm.check_command)
            secret = secret or waits.secret(state)
        elif isinstance(command, FreeRoll):
            events = gm.free_roll(state, command, ctx)
        else:
            self.check_aimed_at_others(command)
            waits.check_free(state, command)
            gm.check_command(state, command)
            asked = ask and waits.ask(self, state, command, ctx, ask, secret)
            events = asked or self.decide(state, command, ctx)
        if durations.timed(state):
            events = events + self.expiries(state, events)
        if command_of(events) is None:
            actor = getattr(command, "actor", None) or getattr(command, "combatant", None)
            given = Commanded(actor or ctx.author, msgspec.to_builtins(command), ctx.command_id)
            events = [given, *events]
        if secret:
            events = [
                msgspec.structs.replace(e, secret=True) if isinstance(e, Rolled) else e
                for e in events
            ]
        if hidden:
            events = [*events, CombatantHidden(command.combatant)]
        return events

    def standing_of(self, state: Any, who: str) -> dict[str, Any]:
        """What of `who` outlasts the fight, as the ruleset (or the default) says."""
        return (self.standing or functools.partial(party.standing, self))(state, who)

    def restore_of(self, state: Any, who: str, standing: dict[str, Any]) -> list[Event]:
        """The events that make `who` stand as `standing` says."""
        return (self.restore or functools.partial(party.restore, self))(state, who, standing)

    def check_aimed_at_others(self, command: Any) -> None:
        """A hostile action naming its own actor among its targets is refused."""
        action = type(command).__struct_config__.tag
        actor = getattr(command, "actor", None)
        if action in self.hostile and actor and actor in getattr(command, "targets", ()):
            raise BadInputError(f"{actor} cannot {action} themself: name another target")

    def verb(self, action: str) -> str:
        """How a sentence says the action: its verb, or "takes the ACTION action"."""
        return self.verbs.get(action) or f"takes the {action} action"

    def step_verb_of(self, command: dict[str, Any], events: Sequence[Event]) -> str | None:
        """How a sentence says this step where its events word it otherwise than its
        action's verb (`step_verb`); None: the action's verb."""
        return self.step_verb(command, events) if self.step_verb is not None else None

    def headline_verb_of(self, command: dict[str, Any], events: Sequence[Event]) -> str | None:
        """How a step's headline says it where its outcome words it (`headline_verb`);
        None: as its sentence does."""
        return self.headline_verb(command, events) if self.headline_verb is not None else None

    def target_outcomes_of(
        self, command: dict[str, Any], events: Sequence[Event]
    ) -> dict[str, str]:
        """What a step came to for each target whose own roll settled it, as a headline
        says it after their name (`target_outcomes`); {}: none said."""
        if self.target_outcomes is None:
            return {}
        return self.target_outcomes(command, events)

    def headline_of(self, view: View) -> str:
        return self.headline(view) if self.headline is not None else ""

    def numbers_of(self, wound: WoundRow) -> dict[str, Any]:
        return self.key_numbers(wound) if self.key_numbers is not None else {}

    def chips_of(self, wound: WoundRow) -> list[str]:
        """The phrases of the row's health a screen shows as chips (`health_chips`)."""
        return self.health_chips(wound) if self.health_chips is not None else []

    def facts_of(self, event: Event) -> frozenset[str]:
        """The facts an event states: the ruleset's own (a critical, a fumble), and "down"
        and "out" for a condition set from its `down` or `out` conditions."""
        found = self.facts(event) if self.facts is not None else frozenset()
        if isinstance(event, ConditionSet):
            if event.condition in self.out:
                found |= {DOWN, OUT}
            elif event.condition in self.down:
                found |= {DOWN}
        return found & FACTS

    def is_down(self, conditions: Collection[str]) -> bool:
        """Down or out, by the conditions a combatant has now."""
        return any(c in self.down or c in self.out for c in conditions)

    def weapons_of(self, sheet: Any) -> list[str]:
        """The weapon names of a sheet, read or given as plain data (as a join carries it);
        none when plain data is not a sheet of this ruleset."""
        read = self.read_sheet(sheet)
        return [] if read is None else (self.weapons or listed_weapons)(read)

    def read_sheet(self, sheet: Any) -> Any:
        """A sheet as the rules read it, from itself or from plain data (as a join carries
        it); None when plain data is not a sheet of this ruleset."""
        if not isinstance(sheet, dict):
            return sheet
        try:
            return self.sheet(sheet)
        except BadInputError:
            return None

    def offered(self, sheet: Any, field: str) -> list[str]:
        """The names a sheet (read, or given as plain data) offers for a field: its weapons
        for `weapon`, and what the ruleset's `offers` names for the others."""
        if field == "weapon":
            return self.weapons_of(sheet)
        read = self.read_sheet(sheet)
        return [] if self.offers is None or read is None else self.offers(read, field)

    def playable(self, action: str) -> Playable | None:
        """What a player may set of an action from a phone; None: the action is not theirs."""
        if self.players is None:
            return Playable() if action in self.actions else None
        return self.players.get(action)

    def fields_of(self, action: str) -> tuple[str, ...]:
        """The fields an action's command takes (the CLI sends only these): no `targets` for
        an action that names none (`no_targets`, rules/commands.py)."""
        struct = self.command_struct(action)
        return () if struct is None else _fields_taken(struct)

    def positional_of(self, action: str) -> str:
        """The field the words after an action fill: `targets`, or the text field its
        command names by the class variable `positional` (`save dex`: the ability)."""
        struct = self.command_struct(action)
        return str(getattr(struct, "positional", TARGETS)) if struct else TARGETS

    def filed_under(self, before: Any, after: Any) -> tuple[int, str] | None:
        """The turn a step from `before` to `after` belongs to when it is not the one the
        view shows: the turn whose end stays open through the step (`turn_end`)."""
        if self.turn_end is None:
            return None
        ending = self.turn_end(before)
        return ending if ending is not None and ending == self.turn_end(after) else None

    def clock_of(self, state: Any) -> durations.Clock:
        return (self.clock or durations.view_clock(self.view))(state)

    def turn_of(self, state: Any) -> str:
        """Whose turn it is, as a token a command that ends "the turn I see" carries: who
        acts in which round (`alice@3`; `-` when nobody does), and a digest of the round,
        the phase and every turn under way, which any `next` moves on (a declaration
        passed, a shot gone by), even where the same combatant acts again."""
        seen = self.view(state)
        clock = self.clock(state) if self.clock else durations.clock_of_view(seen)
        turns = sorted(clock.turns.items())
        where = msgspec.json.encode([seen.round, seen.phase, seen.acting, turns])
        digest = hashlib.sha256(where).hexdigest()[:6]
        return f"{','.join(seen.acting) or NOBODY}@{seen.round}#{digest}"

    def expiries(self, state: Any, events: list[Event]) -> list[Event]:
        """The conditions whose duration ends at a boundary these events cross; none while
        the fight has ended or as it ends or reopens (no turn of it ends or begins then)."""
        after = roster.fold(self.evolve, state, events)
        if getattr(state, "ended", False) or getattr(after, "ended", False):
            return []
        return durations.expired(after, self.clock_of(state), self.clock_of(after))

    def options(self, overrides: dict[str, Any]) -> msgspec.Struct:
        """The GM's per-encounter options over the ruleset's defaults, checked."""
        missing = self.options_without_default()
        if missing and not set(missing) <= set(overrides):
            raise BadInputError(missing_default(self.name, missing))
        try:
            chosen = msgspec.convert(overrides, self.options_type, strict=False)
        except msgspec.ValidationError as error:
            where = f"option of {self.name}"
            raise BadInputError(explain(error, overrides, self.options_type, where)) from None
        check_bounds(chosen, f"option of {self.name}")
        return chosen

    def options_without_default(self) -> list[str]:
        """The fields of the options struct with no default: a fight begun without them set
        would be refused (a ruleset's defect, `missing_default` says the rule)."""
        fields = _type_of(self.options_type).fields
        return [f.name for f in fields if f.required]

    def sheet(self, data: dict[str, Any], where: str = "sheet") -> msgspec.Struct:
        """A sheet read and checked. `custom_skills` names the skills (or abilities) the sheet
        invents; it is checked here and not kept, as every skill it names is on the sheet."""
        data = dict(data)
        custom = data.pop(CUSTOM, [])
        if not isinstance(custom, list) or not all(isinstance(c, str) for c in custom):
            raise BadInputError(f'{where}: {CUSTOM} is a list of names, like ["pilot (mech)"]')
        try:
            sheet = msgspec.convert(data, self.sheet_type)  # strict: a file says 12, not "12"
        except msgspec.ValidationError as error:
            raise BadInputError(explain(error, data, self.sheet_type, where)) from None
        except RecursionError:
            raise BadInputError(f"{where}: nested too deeply") from None
        if self.check_sheet is not None:
            self.check_sheet(sheet, where, [c.lower() for c in custom])
        return sheet

    def imported(self, data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """A sheet read from another program's export if the ruleset knows its shape, with
        what it could not read; else the data as given."""
        found = self.imports(data) if self.imports is not None else None
        return found if found is not None else (data, [])

    def newcomer(self, command: Join, present: Collection[str]) -> Any:
        """A joining combatant's id and side checked, and their sheet read."""
        check_newcomer(command, present)
        return self.sheet(command.sheet, f"sheet of {command.combatant}")

    def command(self, data: dict[str, Any]) -> Any:
        """A command from plain data (the CLI's flags), with one clear line on error."""
        action = data.get("action")
        if action not in self.actions and action not in CORE_ACTIONS:
            offered = ", ".join(sorted(self.actions))
            guess = closest(str(action), self.actions) if action else None
            hint = f"did you mean {guess}? " if guess else ""
            raise BadInputError(
                f"{self.name} has no action {said(action)}; {hint}actions are: {offered}"
            )
        struct = self.command_struct(str(action))
        union = GmCommand if str(action).startswith(GM) else self.command_type
        try:  # to the action's own struct: msgspec caches a struct's plan, not a union's
            command = msgspec.convert(data, struct or union, strict=False)
        except msgspec.ValidationError as error:
            raise BadInputError(explain(error, data, struct or union, str(action))) from None
        check_bounds(command, str(action))
        return command

    def command_struct(self, action: str) -> type[msgspec.Struct] | None:
        """The command struct behind an action's name (its tag)."""
        return self._command_structs.get(action)

    @cached_property
    def _command_structs(self) -> dict[str, type[msgspec.Struct]]:
        structs = (
            *typing.get_args(self.command_type),
            *GM_COMMANDS,
            *PARTY_COMMANDS,
            *waits.COMMANDS,
            FreeRoll,
        )
        return {struct.__struct_config__.tag: struct for struct in reversed(structs)}


WHOLE_BOUND = 1000  # a whole number a type does not bound itself is at most this either way


def missing_default(ruleset: str, fields: list[str]) -> str:
    return (
        f"option {', '.join(fields)} of {ruleset} has no default: every option field needs a "
        "default (the GM sets only the options to change); give it one in the options struct"
    )


def check_bounds(value: msgspec.Struct, where: str) -> None:
    """Every whole number of a command or options that its type leaves unbounded is at most
    WHOLE_BOUND either way, as the README promises (a type's own bounds stand)."""
    found = _unbounded(_type_of(type(value)), value, "")
    if found is not None:
        path, number = found
        raise BadInputError(
            f"{where}: {path} of {number} is out of range; a whole number here is from "
            f"-{WHOLE_BOUND} to {WHOLE_BOUND}"
        )


@functools.lru_cache(maxsize=512)
def _fields_taken(struct: type) -> tuple[str, ...]:
    """The encoded names of a command struct's fields, less `targets` for one that names
    none; worked out once a struct (`msgspec.structs.fields` reads the annotations)."""
    names = tuple(f.encode_name for f in msgspec.structs.fields(struct))
    if getattr(struct, "no_targets", False):
        return tuple(name for name in names if name != TARGETS)
    return names


@functools.lru_cache(maxsize=512)
def _type_of(struct: type) -> types.Type:
    return types.type_info(struct)


_BEING_LOOKED_AT: set[type] = set()  # structs whose fields `_fields_to_check` is reading


@functools.lru_cache(maxsize=512)
def _fields_to_check(struct: type) -> tuple[types.Field, ...]:
    """A struct's fields whose type can hold a whole number its type leaves unbounded: the
    only ones `_unbounded` walks (a command's names, flags and bounded numbers are skipped)."""
    _BEING_LOOKED_AT.add(struct)
    try:
        return tuple(f for f in _type_of(struct).fields if _may_be_unbounded(f.type))
    finally:
        _BEING_LOOKED_AT.discard(struct)


def _may_be_unbounded(info: types.Type) -> bool:
    if isinstance(info, types.IntType):
        return info.ge is info.gt is info.le is info.lt is None
    if isinstance(info, types.StructType):  # (a struct that holds itself: walked)
        return info.cls in _BEING_LOOKED_AT or bool(_fields_to_check(info.cls))
    if isinstance(info, types.UnionType):
        return any(_may_be_unbounded(member) for member in info.types)
    if isinstance(info, types.ListType | types.VarTupleType):
        return _may_be_unbounded(info.item_type)
    if isinstance(info, types.TupleType):
        return any(_may_be_unbounded(item) for item in info.item_types)
    if isinstance(info, types.DictType):
        return _may_be_unbounded(info.value_type)
    return False


def _unbounded(info: types.Type, value: Any, path: str) -> tuple[str, int] | None:
    """(where, number) of the first whole number out of WHOLE_BOUND its type left unbounded."""
    if isinstance(info, types.UnionType):
        for member in info.types:
            if isinstance(member, types.StructType) and isinstance(value, member.cls):
                return _unbounded(member, value, path)
        ints = [m for m in info.types if isinstance(m, types.IntType)]
        if ints and type(value) is int:
            return _unbounded(ints[0], value, path)
        return None
    if isinstance(info, types.IntType) and type(value) is int:
        unbounded = info.ge is info.gt is info.le is info.lt is None
        return (path, value) if unbounded and abs(value) > WHOLE_BOUND else None
    if isinstance(info, types.StructType) and isinstance(value, info.cls):
        for field_ in _fields_to_check(info.cls):
            inner = f"{path}.{field_.encode_name}" if path else field_.encode_name
            found = _unbounded(field_.type, getattr(value, field_.name), inner)
            if found is not None:
                return found
    elif isinstance(info, types.ListType | types.TupleType | types.VarTupleType):
        item = getattr(info, "item_type", None)
        for number, entry in enumerate(value if isinstance(value, list | tuple) else ()):
            kind = item if item is not None else info.item_types[number]  # type: ignore[attr-defined]
            if (found := _unbounded(kind, entry, f"{path}[{number}]")) is not None:
                return found
    elif isinstance(info, types.DictType) and isinstance(value, dict):
        for key, entry in value.items():
            if (found := _unbounded(info.value_type, entry, f"{path}.{key}")) is not None:
                return found
    return None


def listed_weapons(sheet: Any) -> list[str]:
    """A sheet's `weapons` read as a list of named things (tables or structs with a `name`,
    or plain names) or as a table keyed by name; no `weapons`: none."""
    found = sheet.get("weapons") if isinstance(sheet, dict) else getattr(sheet, "weapons", None)
    if isinstance(found, dict):
        return [str(name) for name in found]
    if not isinstance(found, list | tuple):
        return []
    names = []
    for weapon in found:
        name = weapon.get("name") if isinstance(weapon, dict) else getattr(weapon, "name", weapon)
        if isinstance(name, str):
            names.append(name)
    return names


def tie_roll(ctx: Context, actor: str, purpose: str, rules: list[str]) -> Rolled:
    """A seeded roll-off between equals (d100, higher first), recorded as a roll of the step
    like any other draw, so that deciding the step again draws it again."""
    roll = ctx.dice.roll("d100", purpose)
    return Rolled(actor, purpose, roll, None, [], f"tie roll {roll.total}", rules)


def command_of(events: list[Event]) -> dict[str, Any] | None:
    """The command a step was decided from, as the table gave it; None for a note or a reveal."""
    for event in events:
        if isinstance(event, Declared | Commanded):
            return event.command
    return None


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points  # reading package metadata takes a while

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


# Rulesets registered in this process, beside the entry points: a ruleset's own tests use
# it (`fracas.testing.installed`) to play a ruleset that is not installed as a package.
REGISTERED: dict[str, "Ruleset"] = {}


def available() -> list[str]:
    return sorted({*_entry_points(), *REGISTERED})


def load(name: str) -> Ruleset:
    """A ruleset by name: the five built in without reading any package metadata (a quick
    start), any other from the `fracas.rulesets` entry points."""
    if name in REGISTERED:
        return REGISTERED[name]
    if name in BUILTIN:
        return importlib.import_module(BUILTIN[name]).RULESET
    found = _entry_points().get(name)
    if found is None:
        raise NotFoundError(
            f"no ruleset {said(name)}; installed rulesets: {', '.join(available()) or 'none'}"
        )

    def where() -> str:  # only for a refusal: the package's name is read from its metadata
        return f"ruleset entry point {name} = {found.value!r}" + (
            f" of {found.dist.name}" if getattr(found, "dist", None) is not None else ""
        )

    try:
        ruleset = found.load()
    except Exception as error:  # a plugin's own import: whatever it raises is its bug
        raise RulesetFailedError(
            f"the {where()} failed to import: {type(error).__name__}: {error}"
        ) from error
    if not isinstance(ruleset, Ruleset):
        raise NotFoundError(f"the {where()} does not name a fracas Ruleset")
    if ruleset.name != name:
        raise NotFoundError(
            f"the {where()} names the ruleset {ruleset.name!r}: name the entry point as the "
            f'ruleset, `{ruleset.name} = "{found.value}"` under '
            '[project.entry-points."fracas.rulesets"]'
        )
    return ruleset
