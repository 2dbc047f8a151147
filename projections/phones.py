"""A player's own phone: what their character's panel shows, and what their token may do.

The panel is built from the players' timeline alone (what the players' screen shows, the
rule in `secrecy`), so a phone never learns more than the table's screen. What a token may
do is judged on the fight as it really stands: it acts only for its own character, only on
that character's turn, with the fields a player chooses (the GM's modifiers and a target's
reactions are not the attacker's to set), and takes back only its own step while nothing
follows it.
"""

import hashlib
import hmac
import re
import secrets
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from fracas.ledger import BadInputError, ConflictError, NotFoundError, RefusedError
from fracas.ledger.history import COMMAND, UNDO
from fracas.projections.asking import Question, Reaction, pending
from fracas.projections.board import in_full
from fracas.projections.catalog import Flag, player_flags
from fracas.projections.replay import ReplayStep
from fracas.projections.screen import Timeline
from fracas.rules import Encounter
from fracas.rules.commands import GM
from fracas.rules.dice import runs
from fracas.rules.encounter import StepOutcome
from fracas.rules.events import Rolled
from fracas.rules.gm import REMOVED
from fracas.rules.names import and_list
from fracas.rules.players import Playable, PlayerField
from fracas.rules.reactions import ANSWER, Ask, ask_until, later, offered
from fracas.rules.views import View

SERVERS_DICE = "seeded"  # a roll's source when the server rolled it (typed: "manual")

PASS = "next"  # a player may let their turn go by
PASSING = Playable(down=True)
# How a phone shows a field: a check box, yes/no/unsaid (a true-or-false field the rules
# decide when it is unsaid), a choice (of the sheet's or the rules'), a combatant tapped
# by name (or several ticked), a number, or words.
CHECK, CHOICE, COMBATANT, NUMBER, TEXT = "check", "choice", "combatant", "number", "text"
MAYBE, SEVERAL = "maybe", "several"
# a number beside each target tapped (pool's shares), and beside each of the rules' names
# (pool's dice kept for a dodge, a parry or a clash): `PlayerField.each_target`, `counts`
EACH, COUNTS = "each", "counts"
MAYBE_SAID = ("as the rules say", "yes", "no")  # a MAYBE's choices, unsaid, yes, no
ALLY, FOE = "ally", "foe"  # a target on the character's side, or on another
# An action's help ends with the rules it follows, "(srd-6..9, srd-17)": the GM's to look
# up; a player's phone gives the words alone.
CITATIONS = re.compile(
    r"\s*\((?:[A-Za-z0-9]+-[Mm]?\d+(?:\.\.(?:[A-Za-z0-9]+-)?[Mm]?\d+)?(?:,\s*)?)+\)$", re.ASCII
)
MAX_FACES = 64
# The key of the pages' marks of the log's head (`mark`, a page's `seen`): a mark says only
# "the log stood here", never how many steps, nor which, the players' screen leaves out.
# Drawn anew each time the server starts: a page open across a restart takes a mark of the
# new key when it reads its panel again (its stream's first message after reconnecting); a
# step sent with the old mark before then is refused as the fight having moved on (409).
MARK_KEY = secrets.token_bytes(32)


class Forbidden(RefusedError):
    """A token asked for what its character may not do now (a 403)."""


class Moved(RefusedError):
    """The fight moved on since the phone last saw it (a 409): look again and tap again."""


class Control(msgspec.Struct, frozen=True):
    """One field of an action as a phone shows it: the player reads its label and help,
    never its name (the step sends the name)."""

    field: str
    label: str
    help: str
    kind: str  # CHECK, CHOICE, COMBATANT, SEVERAL, MAYBE, NUMBER, EACH, COUNTS or TEXT
    default: Any = None
    choices: list[str] = []
    when: str = ""  # the field whose value says whether this one applies ("": always)
    values: list[str] = []  # the values of `when` with which this one applies
    whole: bool = False  # a CHOICE of whole numbers (sent as numbers)
    # a counted CHOICE's least number by the value of `when` (`Ruleset.least_of`): the
    # phone offers, for the value chosen, those from it up (a spell's slot: its own level)
    least: dict[str, int] = {}
    foes: bool = False  # a COMBATANT or SEVERAL naming foes alone (`PlayerField.foes`)
    # a MAYBE's choices: (value sent, words), "" unsaid; a value without words is left out
    said: list[tuple[str, str]] = []


class PlayerAction(msgspec.Struct, frozen=True):
    name: str
    label: str
    description: str
    targets: bool  # whether it takes targets
    reaction: bool  # taken out of the character's turn
    fields: list[Control]
    dice: str = ""  # the dice it rolls, in the ruleset's words; "": none (no box for dice)
    times: str = ""  # how many at each target, in words, where one may be named again
    on_self: bool = False  # the character may name themself among its targets
    times_when: str = ""  # as a Control's `when` and `values`, for `times`
    times_values: list[str] = []
    only: list[str] = []  # the only combatants it may name ([]: any the panel offers)
    # how many times in all it names its targets, by its `times_with` field's value and its
    # level's (`Ruleset.times_of`); the phone shares them out among the targets tapped
    totals: dict[str, dict[str, int]] = {}
    group: str = ""  # the heading it shows under, by what it costs (`Ruleset.cost_of`)
    # its targets come after its fields, for every character alike: an action that may
    # name a target more than once (`Playable.times`: a spell first, then whom)
    targets_last: bool = False
    # the button's and form's own key where one action has two ("bonus_dash", its bonus
    # form; "": `name`), and the fields its step always sends ({"bonus": True})
    key: str = ""
    fixed: dict[str, Any] = {}
    # a reaction offered for a moment (`Playable.on_acting`: a foe leaving reach): the
    # phone cues it as it does the character's turn
    chance: bool = False


class Panel(msgspec.Struct, frozen=True):
    encounter: str
    combatant: str
    name: str
    present: bool  # on the players' screen (a hidden combatant's player sees nothing yet)
    health: str
    numbers: dict[str, Any]
    conditions: list[str]
    acting: bool
    actions: list[PlayerAction]
    targets: list[tuple[str, str, str]]  # (id, name, ALLY or FOE) of the others on screen
    weapons: list[str]
    seen: int  # the mark of the log the panel stands after (`mark`)
    undo: int | None  # the players' number of the own step a tap would take back
    question: Question | None = None  # the attack waiting for a reaction, as players see it
    asked: Reaction | None = None  # the character's own reaction it waits for
    secret: bool = False  # the players' screen waits on the GM's secret roll (no more said)
    figures: dict[str, str] = {}  # beside each reaction asked, its figures for the character
    latest: tuple[int, str] | None = None  # the players' last step on the character (`latest_on`)
    undo_said: str = ""  # who did what in the step `undo` would take back (`taken_back_line`)
    left: list[tuple[str, bool]] = []  # what is left of the turn, each part used or not
    down: str = ""  # on the character's turn, what one who is down is told (`down_line`)
    # asked once the dice showed the trigger: what of the step was rolled and what is still
    # to roll, in the ruleset's words (`asked_rolls`); "": the phone's own
    asked_rolls: str = ""
    # the conditions as the panel shows them, each as fully as the board's status says it
    # ("dying (1 saved, 0 failed)"; `in_full`)
    chips: list[str] = []
    # beside each reaction asked, what it does and costs (`Ruleset.reaction_words`)
    words: dict[str, str] = {}

    def groups(self) -> list[tuple[str, list[PlayerAction]]]:
        """The actions by heading, each group where its first action is ("": unheaded)."""
        found: dict[str, list[PlayerAction]] = {}
        for action in self.actions:
            found.setdefault(action.group, []).append(action)
        return list(found.items())


def player_actions(
    ruleset: Any,
    sheet: Any,
    acting: bool,
    conditions: Collection[str] = (),
    others: dict[str, Collection[str]] | None = None,
    foes: Collection[str] = (),
    spent: Collection[str] = (),
    turn: Collection[str] = (),
    names: dict[str, str] | None = None,
    row: dict[str, Any] | None = None,
    moved: Collection[str] = (),
) -> list[PlayerAction]:
    """The actions a player may take now: on the character's turn those of the turn and a
    pass; out of it, the reactions (the rules judge whether one may be taken now); of
    those, only what the character's conditions (as the players' screen shows them) let
    the ruleset offer (`takes_now`), and one that needs a target in some condition only
    while `others` (each one's conditions, as shown) holds one, to name them alone; one
    on foes alone only while `foes` (the others on the other side) holds one; one on the
    one whose `turn` it is alone while they may be named, its label naming them (by
    `names`, as the screen shows them); and none whose budget this turn is all `spent`
    (the action, the bonus action). A field `counted_in` the character's `row` detail
    offers the numbers counted there. One offered only `after_move` names only those of
    `turn` who have `moved` this turn leaving the character's reach (`left_reach`)."""
    found = []
    for name, text in {**ruleset.actions, PASS: "let your turn go by"}.items():
        playable = passing(ruleset) if name == PASS else ruleset.playable(name)
        if playable is None or playable.reaction == acting:
            continue
        if not takes_now(ruleset, playable, conditions) or confined(ruleset, name, conditions):
            continue
        if playable.spends and playable.spends <= set(spent):
            continue  # srd-3: the action it takes is taken this turn
        left = playable.spends - set(spent)
        if playable.by_part:
            found += by_part(ruleset, name, text, playable, sheet, row or {}, left)
            continue
        fields = controls(ruleset, name, playable, sheet, row or {})
        if fields is None:
            continue
        label = "End turn" if name == PASS else name.replace("_", " ").capitalize()
        mover = [w for w in turn if w in moved] if playable.after_move else turn
        only = named_alone(playable, others or {}, foes, mover)
        if only is not None and not only:
            continue  # nobody to take it on (stabilise: nobody dying)
        if playable.on_acting and only:
            label = f"{label} attack on {and_list((names or {}).get(w, w) for w in only)}"
        chance = playable.reaction and playable.on_acting
        found.append(
            as_offered(ruleset, name, text, playable, sheet, fields, label, left, only, chance)
        )
        if playable.bonus and "action" in left and left - {"action"} and ruleset.cost_of:
            bonus = ruleset.cost_of(name, left - {"action"})  # srd-60: its bonus form too
            fixed = {playable.bonus: True}
            found.append(
                msgspec.structs.replace(found[-1], group=bonus, key=f"bonus_{name}", fixed=fixed)
            )
    return found


def by_part(
    ruleset: Any,
    name: str,
    text: str,
    playable: Playable,
    sheet: Any,
    row: dict[str, Any],
    left: Collection[str],
) -> list[PlayerAction]:
    """An action offered once for each part of the turn's budget `left` that its field's
    values fit (`Playable.by_part`: srd's Cast, the spells cast with an action under
    Action, the bonus-action ones under Bonus action), each under that part's heading with
    that part's values alone; none for a part none of them fits."""
    field, parts = playable.by_part
    read = ruleset.read_sheet(sheet)
    found = []
    for part, offered_as in parts:
        if part not in left or read is None:
            continue
        fits = set(ruleset.offered(read, offered_as))
        fields = controls(ruleset, name, playable, sheet, row, {field: fits})
        if fields is None:
            continue
        label = name.replace("_", " ").capitalize()
        action = as_offered(ruleset, name, text, playable, sheet, fields, label, frozenset((part,)))
        key = "" if part == parts[0][0] else f"bonus_{name}"
        found.append(msgspec.structs.replace(action, key=key))
    return found


def as_offered(
    ruleset: Any,
    name: str,
    text: str,
    playable: Any,
    sheet: Any,
    fields: Any,
    label: str,
    left: frozenset[str] | set[str],
    only: list[str] | None = None,
    chance: bool = False,
) -> PlayerAction:
    """One action as a phone offers it: its button's label, help, form and costs."""
    times_when, times_values = applies_with(ruleset, playable.times_with, sheet)
    return PlayerAction(
        name,
        label,
        CITATIONS.sub("", text),
        "targets" in ruleset.fields_of(name),
        playable.reaction,
        fields,
        playable.dice,
        playable.times if times_values is None or times_values else "",
        playable.on_self,
        times_when,
        times_values or [],
        only or [],
        ruleset.times_of(sheet) if playable.times and ruleset.times_of and sheet else {},
        ruleset.cost_of(name, left) if ruleset.cost_of else "",
        bool(playable.times),
        chance=chance,
    )


def left_reach(detail: dict[str, Any], combatant: str) -> bool:
    """Whether a row's moves this turn (its detail `moved`) left `combatant`'s reach: where
    the ruleset names those its moves left (`left_reach_of`), `combatant` is among them."""
    return bool(detail.get("moved")) and combatant in detail.get("left_reach_of", [combatant])


def gm_chances(
    live: Encounter, played: Collection[str] = (), linked: Collection[str] = ()
) -> list[tuple[str, str, str, str]]:
    """The reactions the GM may take now for those no player plays (not in `played`), as
    a phone offers its own (`Playable.after_move`): (the GM's line that takes it, who, the
    action in words, whom), for each one whose reach the acting one's moves this turn
    left, with their reaction unspent and not down (srd: a goblin's opportunity attack on a
    character who ran from it, the move's `leaves`). The line asks the mover's player
    (`--ask`) where they hold a link (in `linked`), as the CLI's `--ask` does; none is
    offered while an attack waits for an answer (the fight waits on it)."""
    ruleset = live.ruleset
    actions = [
        name
        for name in ruleset.actions
        if (playable := ruleset.playable(name)) is not None
        and playable.reaction
        and playable.after_move
    ]
    if live.waiting() is not None:
        return []  # the attack taken waits for its answer: no other is offered beside it
    view = live.view()
    rows = {w.combatant: w for w in view.wounds}
    found = []
    for mover in (rows[w] for w in view.acting if w in rows):
        if not mover.detail.get("moved"):
            continue
        for who in mover.detail.get("left_reach_of", []):
            row = rows.get(who)
            if row is None or who in played:
                continue
            for name in actions:
                playable = ruleset.playable(name) or PASSING
                if not takes_now(ruleset, playable, row.conditions):
                    continue  # down, helpless or out of the fight
                if playable.spends and playable.spends <= set(row.detail.get("spent", ())):
                    continue  # srd-4: its reaction is spent
                if shows(mover.conditions, playable.targets_not):
                    continue  # srd-5: a disengaged mover provokes nothing
                line = f"act {who} {name} {mover.combatant}"
                if mover.combatant in linked:
                    line += " --ask"  # their player's phone is offered its reaction
                found.append((line, row.name, f"{name.replace('_', ' ')} attack", mover.name))
    return found


def named_alone(
    playable: Playable,
    others: dict[str, Collection[str]],
    foes: Collection[str],
    turn: Collection[str] = (),
) -> list[str] | None:
    """The only others an action may name (those in a condition it needs and in none it
    must not be, foes for one on foes alone, allies for one on allies alone, the one whose
    `turn` it is for one on them alone); None: any the panel offers."""
    if not (
        playable.targets_need
        or playable.targets_not
        or playable.foes
        or playable.allies
        or playable.on_acting
    ):
        return None
    return [
        who
        for who, shown in others.items()
        if (not playable.targets_need or shows(shown, playable.targets_need))
        and not shows(shown, playable.targets_not)
        and (not playable.foes or who in foes)
        and (not playable.allies or who not in foes)
        and (not playable.on_acting or who in turn)
    ]


def applies_with(
    ruleset: Any, only_with: tuple[str, str], sheet: Any
) -> tuple[str, list[str] | None]:
    """The field whose value says whether a declared `only_with` applies, and the values
    with which it does, as the sheet offers them; ("", None): it applies always."""
    if not only_with:
        return "", None
    field, offered = only_with
    return field, ruleset.offered(sheet, offered) if sheet is not None else []


def takes_now(ruleset: Any, playable: Playable, conditions: Collection[str]) -> bool:
    """Whether a character with these conditions may be offered the action, as the ruleset
    declares it: nothing out of the fight, only what one who is down (or helpless: stunned)
    may take while so, an action that needs a condition (escape: grappled) only with
    one of them, and none while a condition it is `unless` shows (srd's pass while a
    death save is due)."""
    if shows(conditions, ruleset.out):
        return False
    if shows(conditions, ruleset.down | ruleset.helpless) and not playable.down:
        return False
    if shows(conditions, playable.unless):
        return False
    return not playable.needs or shows(conditions, playable.needs)


def confined(ruleset: Any, name: str, conditions: Collection[str]) -> bool:
    """Whether a condition the character shows leaves them other actions than this one
    (the ruleset's `confines`); the pass is never barred."""
    return name != PASS and any(
        name not in allowed
        for condition, allowed in ruleset.confines.items()
        if shows(conditions, (condition,))
    )


def shows(conditions: Collection[str], names: Collection[str]) -> bool:
    """Whether any condition as the screen shows it is one of NAMES: the name alone, or
    followed by its detail ("held by bo", "impaired -1")."""
    return any(c == name or c.startswith(f"{name} ") for c in conditions for name in names)


def passing(ruleset: Any) -> Playable:
    """The pass as the ruleset declares it (its dice, when ending a turn rolls), else a
    pass that rolls nothing."""
    return (ruleset.players or {}).get(PASS) or PASSING


def controls(
    ruleset: Any,
    name: str,
    playable: Playable,
    sheet: Any,
    row: dict[str, Any],
    within: Mapping[str, Collection[str]] | None = None,
) -> list[Control] | None:
    """The player's fields of an action, each as the phone shows it; a field whose values
    come from the sheet is left out when the sheet offers none, and so is the action
    (None) when that field is one it cannot be taken without (a spell to cast). `within`:
    a `from_sheet` field's only values this form may offer (`by_part`)."""
    flags = {f.field: f for f in player_flags(ruleset, name)}
    sheet = ruleset.read_sheet(sheet)
    found = []
    for field, said in playable.fields.items():
        flag = flags.get(field)
        if flag is None:
            continue
        if said.from_sheet:
            offered = ruleset.offered(sheet, said.offered_as or field) if sheet is not None else []
            if said.narrowed_in and said.narrowed_in in row:  # what the rules allow now
                offered = [value for value in offered if value in row[said.narrowed_in]]
            if within and field in within:
                offered = [value for value in offered if value in within[field]]
            if offered:
                found.append(Control(field, said.label, said.help, CHOICE, offered[0], offered))
            elif said.required:
                return None
            continue
        when, values = applies_with(ruleset, said.only_with, sheet)
        if values is not None and not values:
            continue  # it never applies with what this sheet has (range: no ranged weapon)
        if said.counted_in:
            least = ruleset.least_of(sheet) if ruleset.least_of and sheet is not None else None
            shown = counted(field, said, row, least if when else None)
        else:
            shown = control(field, said, flag)
        found.append(msgspec.structs.replace(shown, when=when, values=values or []))
    return found


def counted(
    field: str, said: PlayerField, row: dict[str, Any], least: dict[str, int] | None = None
) -> Control:
    """A field offering the numbers (from 1) whose count in the row's detail is above 0
    (srd's slot level: the levels with a slot left), after unsaid (the rules decide); with
    the `least` number each value of its `only_with` field takes (a levelled spell's own
    level), never unsaid: the phone offers those from the least of the value chosen up."""
    numbers = [str(n) for n, left in enumerate(row.get(said.counted_in) or [], 1) if left]
    if least is None:
        return Control(field, said.label, said.help, CHOICE, "", ["", *numbers], whole=True)
    default = numbers[0] if numbers else ""
    return Control(field, said.label, said.help, CHOICE, default, numbers, whole=True, least=least)


def control(field: str, said: PlayerField, flag: Flag) -> Control:
    if said.each_target:
        return Control(field, said.label, said.help, EACH)
    if said.counts:
        return Control(field, said.label, said.help, COUNTS, choices=list(said.counts))
    if said.combatant:
        kind = SEVERAL if said.several else COMBATANT
        return Control(field, said.label, said.help, kind, foes=said.foes)
    if flag.accepts.startswith("true or false") and flag.default is None:
        words = zip(("", "yes", "no"), said.said or MAYBE_SAID, strict=True)
        offered = [(value, word) for value, word in words if word]
        return Control(field, said.label, said.help, MAYBE, "", said=offered)  # unsaid: rules
    if flag.accepts.startswith("true or false") or isinstance(flag.default, bool):
        return Control(field, said.label, said.help, CHECK, bool(flag.default))
    if flag.accepts.startswith("a whole number") and flag.default is None:
        return Control(field, said.label, said.help, NUMBER, "")  # unsaid: the rules decide
    if flag.choices:  # a field that may be left unsaid (None) starts unsaid
        blank = [""] if flag.default is None else []
        default = "" if flag.default is None else flag.default
        return Control(field, said.label, said.help, CHOICE, default, [*blank, *flag.choices])
    if isinstance(flag.default, int):
        return Control(field, said.label, said.help, NUMBER, flag.default)
    return Control(field, said.label, said.help, TEXT, flag.default or "")


def sheet_of(live: Encounter, combatant: str) -> Any:
    """The character's sheet as the rules keep it (None: no such fighter, or no sheet)."""
    fighter = getattr(live.state, "fighters", {}).get(combatant)
    return getattr(fighter, "sheet", None)


def panel(timeline: Timeline, live: Encounter, combatant: str) -> Panel:
    """The character's panel as the players' screen has it. While that waits on the GM's
    secret roll, the turn it shows may be over: the panel says so and offers no action."""
    view, withheld = timeline.public_view(timeline.steps)
    wound = next((w for w in view.wounds if w.combatant == combatant), None)
    secret = withheld is not None
    acting = wound is not None and combatant in view.acting and not secret
    sheet = sheet_of(live, combatant)
    targets = targets_of(view, live.ruleset, combatant)
    foes = [who for who, _, side in targets if side == FOE]
    waits = live.waiting() is not None
    question = pending(live, players=True, number=timeline.number_of) if waits else None
    fallen = wound is not None and shows(wound.conditions, out_of_action(live.ruleset))
    asked = next(
        (
            r
            for r in (question.reactions if question else [])
            if r.target == combatant and r.answered is None and not secret_ask(live)
        ),
        None,
    )
    made = Panel(
        timeline.encounter,
        combatant,
        wound.name if wound else own_name(live, combatant),
        wound is not None,
        wound.health if wound else "",
        live.ruleset.numbers_of(wound) if wound else {},
        list(wound.conditions) if wound else [],
        acting,
        player_actions(
            live.ruleset,
            sheet,
            acting,
            wound.conditions,
            others_of(view, combatant),
            foes,
            wound.detail.get("spent", ()),
            view.acting,
            {who: name for who, name, _ in targets},
            wound.detail,
            [w.combatant for w in view.wounds if left_reach(w.detail, combatant)],
        )
        if wound is not None and not secret and question is None  # an attack waits: only answers
        else [],
        targets,
        live.ruleset.weapons_of(sheet) if sheet is not None and wound else [],
        mark(timeline),
        own_last_shown(timeline, live, combatant),
        question,
        asked,
        secret,
        reaction_figures(live.ruleset, sheet, asked.choices, wound.detail if wound else {})
        if asked and sheet
        else {},
        latest_on(timeline, combatant, wound.name if wound else ""),
        taken_back_line(timeline.moments[-1].step) if timeline.moments else "",
        live.ruleset.turn_left(wound)
        if acting and wound and live.ruleset.turn_left and not fallen
        else [],
    )
    status = next((r.status for r in view.initiative if r.combatant == combatant), "")
    made = msgspec.structs.replace(made, chips=in_full(made.conditions, status))
    if asked is not None and live.ruleset.reaction_words:
        told = live.ruleset.reaction_words
        words = {c: told[c] for c in asked.choices if told.get(c)}
        made = msgspec.structs.replace(made, words=words)
    said = live.ruleset.asked_rolls
    if asked is not None and question is not None and question.trigger and said is not None:
        made = msgspec.structs.replace(made, asked_rolls=said(asked.field))
    if fallen and acting and wound is not None:
        passes = PASS in [a.name for a in made.actions]
        made = msgspec.structs.replace(made, down=down_line(live.ruleset, made.conditions, passes))
    return made


def out_of_action(ruleset: Any) -> frozenset[str]:
    """The conditions that leave a character no turn of their own to take: down, out of
    the fight, or helpless (a phone offers them only what one who is down may take)."""
    return frozenset(ruleset.down | ruleset.out | ruleset.helpless)


def down_line(ruleset: Any, conditions: list[str], passes: bool) -> str:
    """What a phone says to a character whose turn comes while they are down (out of the
    fight, helpless), in place of "Your turn.": the ruleset's words (`down_said`), else
    the conditions that put them so; and, where the pass is offered, how the turn goes by.
    """
    said = ruleset.down_said(conditions) if ruleset.down_said else ""
    if not said:
        shown = [c for c in conditions if shows([c], out_of_action(ruleset))]
        said = f"You are {', '.join(shown)}: no actions"
    return f"{said}. End turn lets your turn go by." if passes else f"{said}."


def short(step: ReplayStep) -> str:
    """A step as a phone's one line says it: its headline (the TV's log line), else its
    sentence; the whole sentence, every roll in it, is the step's detail."""
    return step.headline or step.sentence


def taken_back_line(step: ReplayStep) -> str:
    """A step as its take-back button names it: the head of its one line, who did what
    ("cleric casts bless on ilse and cleric"), without what came of it and how long that
    lasts (": cleric is concentrating for 10 rounds"), which the log's line says."""
    return short(step).partition(": ")[0]


LOOKED_BACK = 64  # the players' steps a panel looks back through for the character's latest


NO_NEWS = ("join",)  # a step that brings a combatant in: no news to the one who plays them
TURNS = (PASS, "begin")  # steps that pass the turn on, or give the order: no news in a name


def latest_on(timeline: Timeline, combatant: str, name: str) -> tuple[int, str] | None:
    """The players' number and line (`short`) of the latest step in effect that concerns
    the character (`concerns`); a take-back of such a step is news too: "Taken back: " and
    who did what in it (`taken_back_line`), at the take-back's number. A join, theirs or
    another's, is never news. The words are the players' screen's (`secrecy`): a GM-only
    roll's outcome is never in them."""
    named = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)") if name else None
    looked = [m.step for m in timeline.moments[-LOOKED_BACK:]]
    for step in reversed(looked):
        if step.control == UNDO and step.in_effect:
            undone = [s for s in looked if s.taken_back_by == step.step and s.sentence]
            if any(concerns(s, combatant, name, named) for s in undone):
                return step.step, f"Taken back: {taken_back_line(undone[-1])}"
            continue
        if not (step.in_effect and step.sentence):
            continue
        if concerns(step, combatant, name, named):
            return step.step, short(step)
    return None


def concerns(step: ReplayStep, combatant: str, name: str, named: re.Pattern[str] | None) -> bool:
    """Whether a step is news to the character's player: one they took (a move too; their
    own turn's end is not news), one that names them as a target, rolls for them (a death
    save as the turn passes to them), deals them damage or puts them down, changes their
    standing, or names them in the head of its sentence (before its colon: not in the order
    the fight begins with). A join is never news."""
    if step.action in NO_NEWS:
        return False
    own = step.actor == combatant and step.action != PASS
    harmed = any(combatant in (h.who, h.whom) for h in step.harm)
    if step.action != "begin":  # a roll for them as the turn passes: a death save
        harmed = harmed or any(r.actor == combatant for r in step.rolls)
    before = [(s.health, s.conditions) for s in step.before if s.combatant == combatant]
    after = [(s.health, s.conditions) for s in step.after if s.combatant == combatant]
    changed = bool(before) and before != after  # (not there before it: brought in)
    said = named is not None and bool(named.search(step.sentence.split(":")[0]))
    # another's step that names them past its head gives them a chance ("goblin leaves the
    # reach of Brannoc": an opportunity attack), not a turn's passing or the order
    offers = (
        named is not None
        and step.action not in TURNS
        and step.actor != combatant
        and any(named.search(line) for line in (step.sentence, *step.lines))
    )
    return (
        offers
        or own
        or combatant in step.targets
        or harmed
        or combatant in step.fallen
        or changed
        or (said and bool(step.rolls or step.secret or not step.sentence.startswith(name)))
    )


def own_name(live: Encounter, combatant: str) -> str:
    """The character's name as the GM's board has it: a player knows whom they play, though
    the table's screen may not show them yet (hidden)."""
    found = next((w for w in live.view().wounds if w.combatant == combatant), None)
    return found.name if found is not None else combatant


def others_of(view: View, combatant: str) -> dict[str, list[str]]:
    """The others on the players' screen, each with their conditions as it shows them."""
    return {w.combatant: list(w.conditions) for w in view.wounds if w.combatant != combatant}


def reaction_figures(
    ruleset: Any, sheet: Any, choices: list[str], own: Mapping[str, Any]
) -> dict[str, str]:
    """Each reaction's figures as the ruleset words them from the character's own sheet and
    own row (`own`: its detail, the slots they have left)."""
    said = ruleset.reaction_figures
    if said is None:
        return {}
    return {choice: words for choice in choices if (words := said(sheet, choice, own))}


def waits_on_secret(timeline: Timeline) -> int | None:
    """The log's number of the GM-only step the players' screen waits on now (its outcome,
    and what follows from it, shows once the GM discloses it); None: it waits on none."""
    _, withheld = timeline.public_view(timeline.steps)
    if withheld is None:
        return None
    return next((m.ledger for m in timeline.moments if m.step.step == withheld), withheld)


def targets_of(view: View, ruleset: Any, combatant: str) -> list[tuple[str, str, str]]:
    """(id, name, ALLY or FOE) of the others on the players' screen a player may name: not
    one out of the fight (dead, or taken out of it by the GM); one down may still be healed
    or hit. An ally is on the character's side as the screen shows sides. Foes come
    first, in the screen's order: a thumb's first tap lands on one, not on a friend."""
    gone = {*ruleset.out, REMOVED}
    mine = next((w.side for w in view.wounds if w.combatant == combatant), None)
    named = [
        (w.combatant, w.name, ALLY if w.side == mine else FOE)
        for w in view.wounds
        if w.combatant != combatant and not shows(w.conditions, gone)
    ]
    return sorted(named, key=lambda target: target[2] != FOE)


def own_last_shown(timeline: Timeline, live: Encounter, combatant: str) -> int | None:
    """The players' number of the step a take-back from the phone would undo: the players'
    last step, when it is the character's own command in effect and the server would take
    it back (`own_last_step`, judged on the log: a step whose server's dice the players'
    screen does not show, those of someone unseen, stands all the same)."""
    if not timeline.moments:
        return None
    last = timeline.moments[-1].step
    own = last.author == combatant and last.control == COMMAND and last.in_effect
    return last.step if own and may_take_back(live, combatant) else None


def may_take_back(live: Encounter, combatant: str) -> bool:
    try:
        own_last_step(live, combatant)
    except Forbidden:
        return False
    return True


def player_command(live: Encounter, combatant: str, data: dict[str, Any]) -> Any:
    """The command a player's tap asks for, acting as their character and nobody else, with
    only the fields the ruleset says are the player's (a sheet's values from the sheet)."""
    ruleset = live.ruleset
    name = data.get("action")
    playable = passing(ruleset) if name == PASS else None
    if isinstance(name, str) and not name.startswith(GM) and name != PASS:
        playable = ruleset.playable(name)
    if playable is None:
        offered = [a for a in ruleset.actions if ruleset.playable(a) is not None]
        raise Forbidden(f"a player's action is one of: {', '.join([*offered, PASS])}")
    if "actor" in data and data["actor"] != combatant:
        raise Forbidden(f"this link acts for {combatant} only")
    given = {k: v for k, v in data.items() if k not in ("action", "actor", "targets")}
    for field, value in given.items():
        said = playable.fields.get(field)
        if field == playable.bonus and value is True:
            continue  # its bonus-action form, where the rules give the character one
        if said is None:
            raise Forbidden(f"{field!r} is not the player's to set in {name}; the GM sets it")
        if said.from_sheet:  # a refusal names the character as the player knows them
            sheet = sheet_of(live, combatant)
            on_the_sheet(ruleset, field, said, value, sheet, own_name(live, combatant))
    return ruleset.command({**data, **given, "action": name, "actor": combatant})


def on_the_sheet(
    ruleset: Any, field: str, said: PlayerField, value: Any, sheet: Any, name: str
) -> None:
    """A value the sheet offers: one of the sheet's, never another (`name`: whose sheet,
    as the player knows the character)."""
    offered = ruleset.offered(sheet, said.offered_as or field) if sheet is not None else []
    if value not in offered:
        shown = ", ".join(offered) or "none"
        if said.offered_as and sheet is not None and value in ruleset.offered(sheet, field):
            kind = said.offered_as  # on the sheet, but not of the kind the action takes
            raise Forbidden(
                f"{said.label}: {value!r} is not a {kind}; use one of {name}'s: {shown}"
            )
        raise Forbidden(f"{said.label}: {value!r} is not on {name}'s sheet; it has: {shown}")


def on_screen(timeline: Timeline, live: Encounter, combatant: str, data: dict[str, Any]) -> None:
    """Whom a player's step names must be on the players' screen: a hidden combatant is as
    unknown to a player as a made-up id, and a refusal names only those the screen shows."""
    from fracas.rules.names import closest

    view, _ = timeline.public_view(timeline.steps)
    shown = [w.combatant for w in view.wounds]
    hidden = set(getattr(live.state, "fighters", {})) - set(shown)
    targets = data.get("targets") or []
    playable = live.ruleset.playable(str(data.get("action"))) or PASSING
    chosen = [
        who
        for k, said in playable.fields.items()
        if said.combatant and k in data
        for who in (data[k] if isinstance(data[k], list) else [data[k]])
    ]
    named = [v for k, v in data.items() if k != "targets" and isinstance(v, str) and v in hidden]
    named += [v for v in chosen if isinstance(v, str) and v not in shown]
    for who in [*(t for t in targets if t not in shown), *named]:
        guess = closest(who, shown) if shown else None
        hint = f"did you mean {guess}? " if guess else ""
        known = ", ".join(shown) or "nobody yet"
        raise NotFoundError(f"no combatant {who!r} in this encounter; {hint}present: {known}")
    if playable.foes or playable.allies:
        still_on(live)  # an ended fight says so first
    if playable.foes:
        on_foes_alone(view, combatant, str(data.get("action")), targets)
    if playable.allies:
        on_allies_alone(view, combatant, str(data.get("action")), targets)


def on_foes_alone(view: View, combatant: str, action: str, targets: list[str]) -> None:
    """An action on foes alone (`Playable.foes`) names none on the character's side."""
    side = {w.combatant: w.side for w in view.wounds}
    for who in targets:
        if who == combatant or side.get(who) == side.get(combatant):
            what = f"an {action} attack" if action[0] in "aeiou" else f"a {action} attack"
            raise Forbidden(f"{what} is on a foe: {who} is on your side")


def on_allies_alone(view: View, combatant: str, action: str, targets: list[str]) -> None:
    """An action on allies alone (`Playable.allies`) names none on another side."""
    side = {w.combatant: w.side for w in view.wounds}
    for who in targets:
        if side.get(who) != side.get(combatant):
            raise Forbidden(f"{action} is for an ally: {who} is not on your side")


def still_on(live: Encounter) -> None:
    """A player's step on a fight the GM has ended is refused in the player's words (the
    GM's way on, `fracas reopen`, is not theirs)."""
    if live.view().phase == "ended":
        raise Forbidden("this fight is over")


def may_act(live: Encounter, timeline: Timeline, combatant: str, action: str = PASS) -> None:
    """Refused unless it is the character's turn as the fight really stands and as their
    page shows it, or the action is a reaction (taken out of turn: the rules judge whether
    it may be taken now). While the players' screen waits on the GM's secret roll the page
    offers no turn, whoever's it is: a tap that landed would tell what the roll decided."""
    still_on(live)
    playable = live.ruleset.playable(action)
    if playable is not None and playable.reaction:
        return
    if timeline.public_view(timeline.steps)[1] is not None:
        raise Forbidden(
            "whose turn it is waits on the GM's secret roll; wait until the GM shows it"
        )
    view: View = live.view()
    if combatant not in view.acting:
        raise Forbidden("it is not your turn yet; wait for it (or ask the GM)")


def faces(value: Any) -> list[int] | None:
    """The faces a player typed, as a list of whole numbers, or None (the server rolls)."""
    if value is None:
        return None
    ok = isinstance(value, list) and 0 < len(value) <= MAX_FACES
    if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RefusedError("dice are a list of the faces rolled, like [38, 52]")
    return value


def own_last_step(live: Encounter, combatant: str) -> int:
    """The ledger step a player's undo takes back: their own command, the latest step of
    the log, in effect; otherwise refused."""
    live.refresh()
    history = live.history
    if history.head_step == 0:
        raise Forbidden("nothing to take back yet")
    last = history.record(history.head_step)
    if last.author != combatant or last.control != COMMAND or last.step in history.undone:
        raise Forbidden(
            f"{combatant} may take back only their own step while nothing follows it; ask the GM"
        )
    if server_rolled(live.events_of_step(last.step)):
        raise Forbidden(  # taken back and tapped again, the dice would fall anew: a re-roll
            "that step rolled the server's dice, which stand: only the GM takes it back"
        )
    return last.step


def server_rolled(events: list[Any]) -> bool:
    """Did the step roll the server's dice (not only faces a player typed)?"""
    return any(isinstance(e, Rolled) and e.roll.source == SERVERS_DICE for e in events)


def mark(timeline: Timeline) -> int:
    """The page's mark of the log's head, GM-only steps and all: 48 bits of a keyed hash (a
    number a browser keeps exactly). It changes with every step and tells nothing else: a
    player learns from it only what a 409 says, that the fight moved on."""
    head = f"{timeline.encounter}\0{timeline.version}".encode()
    return int.from_bytes(hmac.new(MARK_KEY, head, hashlib.sha256).digest()[:6], "big")


def seen_matches(timeline: Timeline, seen: Any) -> None:
    """The phone's mark must be the log's now (the real log, not the players' count: a step
    the players' screen leaves out moves the fight on too); else the fight moved on."""
    if not isinstance(seen, int) or isinstance(seen, bool):
        raise RefusedError('say what the page stands after: {"seen": its data-seen}')
    if seen != mark(timeline):
        raise Moved("the fight moved on since your page showed it; look again and tap again")


def same_fight(timeline: Timeline, live: Encounter, seen: int) -> None:
    """The phone saw the fight as it stands, and the live encounter is at that head too."""
    seen_matches(timeline, seen)
    live.refresh()
    if live.version != timeline.version:
        raise Moved("the fight moved on as you tapped; look again and tap again")


def act(
    live: Encounter,
    timeline: Timeline,
    combatant: str,
    data: dict[str, Any],
    *,
    seen: int,
    dice: list[int] | None,
    command_id: str,
    linked: frozenset[str] = frozenset(),
    wait: float | None = None,
) -> StepOutcome:
    """A player's step, decided on the fight the phone saw and recorded as theirs (author
    and typed dice); a retry of the same tap (its command id) appends nothing new. An attack
    on targets whose players hold a link (`linked`) waits for their reactions, `wait`
    seconds at most."""
    if original := live.store.step_for_command(live.id, command_id):
        return StepOutcome(original.step, live.events_of_step(original.step), True)
    if data.get("action") == ANSWER:
        return answer(live, timeline, combatant, data, seen, dice, command_id)
    command = player_command(live, combatant, data)
    same_fight(timeline, live, seen)
    on_screen(timeline, live, combatant, data)
    may_act(live, timeline, combatant, str(data.get("action")))
    ask = asking_whom(live, command, linked, wait)
    if ask is not None and dice is not None:
        raise RefusedError(
            f"{answering([own_name(live, t) for t in ask.targets or []])} first; "
            "type your dice after their answer"
        )
    events = live.decide(
        command,
        dice=faces(dice),
        entered_by=combatant,
        author=combatant,
        command_id=command_id,
        ask=ask,
        own=combatant,  # a player types their own character's dice, never another's
    )
    try:
        return live.record(events, command_id=command_id, author=combatant)
    except ConflictError:
        live.refresh()
        raise Moved("another step landed first; look again and tap again") from None


def own_dice(
    live: Encounter, timeline: Timeline, combatant: str, data: dict[str, Any]
) -> dict[str, str]:
    """What the dice box of the action a player is filling in asks for, as the form stands
    (the weapon, the switches, the targets tapped): `dice`, every roll of the character's
    the step may take, in order ("a d20 for the attack on gob with shortsword, a d6 for the
    damage of shortsword, 2d6 for the sneak attack"), found by deciding the step as the
    server does when checking typed faces (`Encounter.own_rolls`), so the two never
    disagree. A form the rules cannot decide yet (an attack with no target tapped) is no
    error: `missing` says, in a player's words, what it still needs, and `dice` is "".
    Refused as the step would be where the form asks what the player may not (a field that
    is the GM's, a target not on screen)."""
    command = player_command(live, combatant, data)
    on_screen(timeline, live, combatant, data)
    try:
        rolls = live.own_rolls(command, combatant)
    except (BadInputError, RefusedError) as refusal:  # the rules' own refusal of the step
        return {"dice": "", "missing": refusal.player or str(refusal)}
    return {"dice": runs(rolls) if rolls else "no dice of yours", "missing": ""}


def answering(targets: list[str]) -> str:
    """Who answers, as a sentence's subject: "bob answers", "bob, ann answer"."""
    return f"{', '.join(targets)} {'answers' if len(targets) == 1 else 'answer'}"


def take_back(live: Encounter, timeline: Timeline, combatant: str, *, seen: int) -> int:
    """Undo the player's own last step while nothing follows it; the step undone."""
    same_fight(timeline, live, seen)
    step = own_last_step(live, combatant)
    try:
        return live.undo(author=combatant, only=step)
    except ConflictError:
        live.refresh()
        raise Moved("another step landed first; look again") from None


def asking_whom(
    live: Encounter, command: Any, linked: frozenset[str], wait: float | None
) -> Ask | None:
    """An Ask for the targets the rules give a choice whose players hold a link; None when
    there are none (the attack is decided at once, as the GM's would be)."""
    targets = [t for t in getattr(command, "targets", []) or [] if t in linked]
    if not targets:
        return None
    wish = Ask("", targets)
    wanted = {*offered(live.ruleset, live.state, command, wish)}
    wanted |= {*later(live.ruleset, live.state, command, wish)}  # asked once the dice show it
    return ask_until(wait, sorted(wanted)) if wanted else None


def secret_ask(live: Encounter) -> bool:
    """The attack waiting is the GM's secret: its players see it asked, never answer it."""
    waiting = live.waiting()
    return waiting is not None and waiting.secret


def may_answer(live: Encounter, combatant: str, dice: list[int] | None) -> None:
    """Refused unless an attack waits for the character's reaction and is not the GM's
    secret (that one is answered by the GM or its deadline, never probed from a phone).
    The answering step rolls the attacker's dice too, and a phone's attack that asks is
    tapped without dice: so the server rolls them all, and the target types none."""
    still_on(live)
    waiting = live.waiting()
    if waiting is None or secret_ask(live) or combatant not in waiting.unanswered:
        raise Forbidden(f"no attack waits for {combatant}'s reaction now")
    if dice is not None:
        raise Forbidden(
            f"the server rolls the dice of {waiting.actor}'s attack and of your reaction; "
            "answer without dice"
        )


def answer(
    live: Encounter,
    timeline: Timeline,
    combatant: str,
    data: dict[str, Any],
    seen: int,
    dice: list[int] | None,
    command_id: str,
) -> StepOutcome:
    """The character's reaction to the attack waiting for it, as their player's step."""
    choice = data.get("choice")
    if set(data) - {"action", "choice"} or not isinstance(choice, str):
        raise RefusedError('an answer is one choice: {"action": "answer", "fields": {"choice": …}}')
    same_fight(timeline, live, seen)
    may_answer(live, combatant, dice)
    command = live.ruleset.command({"action": ANSWER, "combatant": combatant, "choice": choice})
    events = live.decide(
        command, dice=faces(dice), entered_by=combatant, author=combatant, command_id=command_id
    )
    try:
        return live.record(events, command_id=command_id, author=combatant)
    except ConflictError:
        live.refresh()
        raise Moved("another step landed first; look again and tap again") from None
