"""One readable line per event: what the log, replay and exports print."""

import functools
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from fracas.projections.board import shown_names
from fracas.rules import durations
from fracas.rules.dice import dice_of, parse_terms
from fracas.rules.events import (
    Carried,
    CombatantJoined,
    Commanded,
    ConditionCleared,
    ConditionExpired,
    ConditionSet,
    Damaged,
    Declared,
    Disclosed,
    EncounterEnded,
    EncounterReopened,
    EncounterStarted,
    EquipmentChanged,
    Event,
    Healed,
    InitiativeSet,
    MemberLeft,
    Modifier,
    Note,
    PartySent,
    Renamed,
    Resolved,
    Roll,
    Rolled,
    SeedRevealed,
    Spent,
    TurnAdvanced,
)
from fracas.rules.party import PARTY
from fracas.rules.ruleset import hit_points

if TYPE_CHECKING:
    from fracas.rules.encounter import Encounter


def rules_of(rules: list[str]) -> str:
    """A citation, each rule once: "[srd-12, srd-26]"."""
    return f" [{', '.join(dict.fromkeys(rules))}]" if rules else ""


def faces_of(roll: Roll) -> str:
    """'3+4' for 2d6; '(6+2) - (3)' for an open d6!-d6! roll; '15 [dropped 7] + 5' for
    2d20kh1+5: every die is shown, those that do not count in brackets after those that do."""
    terms = parse_terms(roll.dice)
    dropped = set(roll.dropped())
    if len(terms) == 1 and not dropped:
        return "+".join(str(f) for f in roll.faces)
    text = ""
    for term, dice in zip(terms, dice_of(roll.dice, roll.faces), strict=True):
        sign = "-" if term.sign < 0 else "+"
        text += f" {sign} " if text or sign == "-" else ""
        text += term_faces(term.constant, dice, roll.faces, dropped, len(terms) > 1)
    return text


def term_faces(
    constant: int, dice: list[list[int]], faces: list[int], dropped: set[int], grouped: bool
) -> str:
    """One term's part of `faces_of`: its number, or its counted faces then its dropped ones."""
    if not dice:
        return str(constant)
    counted = [str(faces[i]) for die in dice for i in die if i not in dropped]
    left = ["+".join(str(faces[i]) for i in die) for die in dice if die[0] in dropped]
    text = "+".join(counted)
    text = f"({text})" if grouped and len(counted) > 1 else text
    return f"{text} [dropped {', '.join(left)}]" if left else text


TOTAL, MODIFIED, FACES = "total", "modified", "faces"  # how a ruleset reads its rolls


def came_to(event: Rolled, reads: str) -> int | None:
    """The number the ruleset compares: the total, or the total with the modifiers the
    system adds to the roll (a d20's 12 +3 +2 = 17); None for a pool read face by face,
    whose count is in its result ("outcome 2: partial success")."""
    if reads == FACES:
        return None
    added = sum(m.value for m in event.modifiers) if reads == MODIFIED else 0
    return event.roll.total + added


def roll_reading(event: Rolled, reads: str) -> str:
    """The roll as its system reads it: the total ("45"), the total with the modifiers the
    system adds to the roll ("-6 +14 = 8"), or the faces of a pool counted one by one
    ("7, 2, 2")."""
    roll = event.roll
    if reads == FACES:
        dropped = roll.dropped()
        counted = [f for i, f in enumerate(roll.faces) if i not in dropped]
        text = ", ".join(str(f) for f in sorted(counted, reverse=True))
        left = ", ".join(str(roll.faces[i]) for i in dropped)
        return f"{text} [dropped {left}]" if left else text
    terms = added_terms(event, reads)
    total = kept_reading(event)
    return f"{total}{terms} = {came_to(event, reads)}" if terms else total


EDGES = {"advantage": False, "disadvantage": True}  # a d20's two dice, is the lower kept?


def edge_of(modifier: Modifier) -> str | None:
    """'advantage' for a note of no value that says the roll was made with advantage
    ("advantage: Goblin 2 attacks from hiding"), or disadvantage; None for any other."""
    head = modifier.reason.partition(":")[0].removeprefix("with ").strip()
    return head if modifier.value == 0 and head in EDGES else None


def said_modifiers(modifiers: Sequence[Modifier]) -> list[str]:
    """An event's modifiers as a reader reads them (`said_modifier`), its notes those
    `notes_of` finds: flagged, or in a log written before the flag, its old shape."""
    notes = notes_of(modifiers)
    return [said_modifier(m, note) for m, note in zip(modifiers, notes, strict=True)]


def said_modifier(modifier: Modifier, note: bool | None = None) -> str:
    """A modifier as a reader reads it: '+2 proficiency (srd-M4)', advantage or
    disadvantage as what it is, not a number ('with advantage: the GM's ruling (srd-M3)'),
    and a note as its words alone ('shield: +5 AC (srd-32)', never '+0 shield: ...').
    `note` is what its event's `notes_of` says of it (by default its flag alone)."""
    rule = f" ({modifier.rule})" if modifier.rule else ""
    if edge_of(modifier):
        return f"with {modifier.reason.removeprefix('with ')}{rule}"
    if is_note(modifier) if note is None else note:
        return f"{modifier.reason}{rule}"
    return f"{modifier.value:+d} {modifier.reason}{rule}"


def is_note(modifier: Modifier) -> bool:
    """A note on a roll that adds nothing to it ("shield: +5 AC", "half cover does not help
    against fire bolt": the modifier's `note`), as against a term that came to 0 ("+0 Dex
    modifier", "+0 armor"), whose number is kept, whatever either's words."""
    return modifier.note


def notes_of(modifiers: Sequence[Modifier]) -> list[bool]:
    """Which of one event's modifiers are notes: those flagged, where any is; in an event
    with none flagged, also those of the old shape (`is_legacy_note`), so a log written
    before the flag reads as it did."""
    if any(m.note for m in modifiers):
        return [m.note for m in modifiers]
    return [m.note or is_legacy_note(m) for m in modifiers]


def is_legacy_note(modifier: Modifier) -> bool:
    """The reading of logs written before the flag: their notes had note=False and were
    told apart by shape alone, a modifier of no value worded 'name: words' ("shield: +5
    AC", "half cover: +2 AC"). Read only for an event none of whose modifiers is flagged."""
    return modifier.value == 0 and ": " in modifier.reason


def kept_reading(event: Rolled) -> str:
    """The number a roll of one term that keeps some of its dice came to, with the dice it
    dropped and why: '1 (disadvantage: 19 dropped)', '17 (the higher kept: 3 dropped)'."""
    roll = event.roll
    terms, dropped = parse_terms(roll.dice), roll.dropped()
    if len(terms) != 1 or not dropped:
        return str(roll.total)
    lowest = terms[0].lowest
    why = next(
        (e for m in event.modifiers if (e := edge_of(m)) and EDGES[e] == lowest),
        "the lower kept" if lowest else "the higher kept",
    )
    left = ", ".join(str(roll.faces[i]) for i in dropped)
    return f"{roll.total} ({why}: {left} dropped)"


def added_terms(event: Rolled, reads: str) -> str:
    """The modifiers the system adds to the roll, each with its sign (" +3 +2"); "" where
    it adds none, or reads the total alone."""
    if reads != MODIFIED:
        return ""
    return "".join(f" {m.value:+d}" for m in event.modifiers if m.value)


def worded_terms(event: Rolled, reads: str) -> str:
    """The modifiers the system adds to the roll, each with its sign and what it is, for a
    screen read without the rules to hand (" +2 Dexterity modifier +2 proficient with
    scimitar"); "" where it adds none, or reads the total alone."""
    if reads != MODIFIED:
        return ""
    notes = notes_of(event.modifiers)
    said = (f" {m.value:+d} {m.reason}" for m, note in zip(event.modifiers, notes, strict=True)
            if m.value and not note)  # fmt: skip
    return "".join(said)


def edges_said(event: Rolled) -> str:
    """Why the roll has two d20s keeping one, in the ruleset's words ("with disadvantage:
    the target is hidden"); "" where it has no edge."""
    said = [f"with {m.reason.removeprefix('with ')}" for m in event.modifiers if edge_of(m)]
    return "; ".join(said)


class Field:
    """A command's field in a verb: as itself ("{spell}"), or the word its number takes
    ("{feet} {feet:foot|feet}": 1 foot, 5 feet)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        one, bar, many = spec.partition("|")
        if bar:
            return one if self.value == 1 else many
        return format(self.value, spec)


def worded(template: str, command: Mapping[str, Any], targets: str) -> str:
    """A verb with the command's fields in it ("casts {spell} on"), then the targets; or
    "{targets}" where they go. A field the command lacks reads as nothing; with no target,
    "{targets}" goes with the word before it ("on {targets}")."""
    fields = {k: Field(v) for k, v in command.items() if isinstance(v, str | int)}
    if "{targets}" not in template:
        template += " {targets}"
    elif not targets:  # "on {targets}", "escape {targets}'s grapple": what needs them goes
        template = re.sub(r"(\s+(on|at|to|with|of))?\s+\{targets\}('s\s+\S+)?", "", template)
    text = template.format_map(defaultdict(lambda: Field(""), {**fields, "targets": targets}))
    return " ".join(text.split())


FIELD = re.compile(r"\{(?!targets\})")  # a verb naming a command's field: "casts {spell} on"


def author_words(who: str, names: Mapping[str, str] | None = None) -> str:
    """Who gave a step, typed its dice or wrote a note, as a line names them: the GM is
    "the GM", never their id "gm"; anyone else by their name where `names` has it."""
    return "the GM" if who == "gm" else (names or {}).get(who, who)


def roll_source(roll: Roll, names: Mapping[str, str] | None = None) -> str:
    """Where a roll's faces came from, for the log ("typed by gm", "seeded #4.0": the GM's
    audit trail), or, given `names`, in plain words ("typed by the GM", "typed by Ann",
    "the server's dice")."""
    served = served_words(roll.dice, roll.servers())
    if names is None:
        manual = f"typed by {roll.entered_by}"
        if served:  # "typed by brannoc; 1 d8 rolled by the server (seeded #4.rest.0)"
            manual += f"; {served} (seeded #{roll.counter})"
        return manual if roll.source == "manual" else f"seeded #{roll.counter}"
    if roll.source != "manual":
        return "the server's dice"
    typed = f"typed by {author_words(roll.entered_by or 'gm', names)}"
    return f"{typed}; {served}" if served else typed


def served_words(spec: str, served: int) -> str:
    """'1 d8 rolled by the server': the faces of a typed roll the server rolled past those
    typed (a critical's extra dice), or '' where it rolled none."""
    if not served:
        return ""
    single = re.fullmatch(r"\d*d(\d+|F)", spec)
    die = f"d{single[1]}" if single else "die"
    dice = die if served == 1 else ("dice" if die == "die" else f"{die}s")
    return f"{served} {dice} rolled by the server"


def describe_roll(
    event: Rolled, reads: str = TOTAL, names: Mapping[str, str] | None = None
) -> str:
    """The roll's line: its faces, or (where the ruleset adds the modifiers to the roll)
    the modified total it compares with the target ("14 +2 +2 = 18 vs 18")."""
    roll = event.roll
    compound = len(parse_terms(roll.dice)) > 1 or bool(roll.dropped())
    faces = f"{faces_of(roll)} = {roll.total}" if compound else faces_of(roll)
    if reads == MODIFIED and any(m.value for m in event.modifiers):
        faces += f" {added_terms(event, reads).strip()} = {came_to(event, reads)}"  # " +2 +2 = 18"
    source = roll_source(roll, names)
    text = f"{event.actor} rolls {roll.dice} for {event.purpose}: {faces}"
    if event.target is not None:
        text += f" vs {event.target}{'%' if roll.dice == 'd100' else ''}"
    if event.modifiers:
        text += " (" + ", ".join(said_modifiers(event.modifiers)) + ")"
    if event.result:
        text += f" -> {event.result}"
    return f"{text}; {source}{rules_of(event.rules)}"


CONTROL_VERBS = {"undo": "undoes", "redo": "redoes", "supersede": "supersedes"}


def begins(round_word: str, number: int) -> str:
    """A ruleset's reason for a round that opens before its order is known: "turn 1 begins"."""
    return f"{round_word.lower()} {number} begins"


def describe_control(control: str, target: int | None) -> str:
    """An undo, redo or supersede step, as the log prints it."""
    return f"{CONTROL_VERBS.get(control, control)} step {target}"


def spends(event: Spent) -> str:
    """'spends 1 legendary action', 'spends 3 shots': one of a resource named in the plural
    reads in the singular ("ts", a unit, stays as it is); a resource that says how often a
    thing may be used reads as its use ("Wren uses sneak attack (once a turn)")."""
    resource = event.resource
    if event.amount == 1 and resource.startswith(("once ", "use ")):  # how often, not a thing
        return f"{event.combatant} uses {event.reason} ({resource.removeprefix('use ')})"
    if event.amount == 1 and len(resource) > 3 and resource.endswith("s"):
        resource = resource if resource.endswith(("ss", "us")) else resource[:-1]
    return f"{event.combatant} spends {event.amount} {resource}: {event.reason}"


# the fields of an event that name combatants, by id (`of`: those whose reach a move left)
WHO = ("actor", "target", "targets", "combatant", "acting", "order", "ts", "source", "of")


def in_names(event: Event, names: Mapping[str, str]) -> Event:
    """The event with the combatants it names by id named as the table knows them (an actor
    "gob1" reads "Goblin 1"), in fracas's events and a ruleset's own alike. A join keeps its
    id (it tells the GM the id to type), a rename the id it renames, a carry its source (an
    encounter)."""
    if not names:
        return event
    changed = {}
    for field in _naming(type(event)):
        value = getattr(event, field)
        found = named(value, names)
        if found != value:
            changed[field] = found
    return msgspec.structs.replace(event, **changed) if changed else event


@functools.cache
def _naming(kind: type) -> tuple[str, ...]:
    """The fields of an event type that `in_names` names (an event's type, found once)."""
    if issubclass(kind, CombatantJoined | Renamed):
        return ()
    fields = set(getattr(kind, "__struct_fields__", ())) - (
        {"source"} if issubclass(kind, Carried) else set()
    )
    return tuple(field for field in WHO if field in fields)


def named(value: Any, names: Mapping[str, str]) -> Any:
    """An id, a list of ids or a table by id, in names; anything else as it is."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [names.get(v, v) if isinstance(v, str) else v for v in value]
    if isinstance(value, dict):
        return {names.get(k, k) if isinstance(k, str) else k: v for k, v in value.items()}
    return value


def describe(
    event: Event,
    round_word: str = "Round",
    reads: str = TOTAL,
    names: Mapping[str, str] | None = None,
    plain: bool = False,
    spent: Callable[[Spent], str | None] | None = None,
    healed: Callable[[int], str] | None = None,
    verb: Callable[[str], str | None] | None = None,
    command: Mapping[str, Any] | None = None,
) -> str:
    """The event's line; a new turn reads in the ruleset's word for a round ("Sequence 2"),
    a roll as the ruleset reads it (`reads_rolls`), combatants by their `names` where given
    (the GM's lines: players' lines come from `sentences`, which hides who they may not see);
    `plain`: where a roll's dice came from in plain words, not the log's seed counter;
    `spent`: the ruleset's words for a resource of its own spent (`Ruleset.spent_words`);
    `healed`: its words for health given back (`Ruleset.healed_words`); `verb`: its words
    for an action where it has some (`Ruleset.verbs`), which a declared action reads in;
    `command`: the one the step declared, whose fields a resolved action's verb may name
    ("casts {spell} on": `event_lines` passes it)."""
    event = in_names(event, names) if names else event
    match event:
        case EncounterStarted():
            titled = f" '{event.title}'" if event.title else ""
            return (
                f"encounter{titled} starts under {event.ruleset}; "
                f"dice seed committed sha256:{event.seed_sha256[:16]}..."
            )
        case SeedRevealed():
            return f"dice seed {event.seed_epoch} revealed: {event.seed}"
        case Disclosed():
            return f"the GM discloses step {event.step} to the players"
        case CombatantJoined():
            return f"{event.name} ({event.side}) joins as {event.combatant}"
        case InitiativeSet():
            return f"{event.combatant}: initiative {event.reason}{rules_of(event.rules)}"
        case Commanded():
            action = str(event.command.get("action", "?")).removeprefix("gm.")
            return f"command: {action.removeprefix('party.')} ({event.actor})"
        case Carried() if event.source == PARTY:
            return f"{event.target} comes in as the party stood"
        case Carried():
            return f"{event.target} comes back to the party as {event.source} left them"
        case MemberLeft():
            why = f": {event.reason}" if event.reason else ""
            return f"{event.target} leaves the party{why}"
        case PartySent() if event.encounter == PARTY:
            return "the party is back between fights"
        case PartySent():
            return f"the party goes into {event.encounter}"
        case Declared() if verb is not None and verb(event.action):  # the ruleset's words
            targets = [(names or {}).get(t, t) for t in event.command.get("targets") or []]
            said = worded(verb(event.action) or "", event.command, ", ".join(targets))
            said = re.sub(r"\s+(on|at|to|with)$", "", said)  # "casts fire bolt on", no one
            return f"{event.actor} declares: {said}"
        case Declared():
            return f"{event.actor} declares {event.action}"
        case Rolled():
            return describe_roll(event, reads, (names or {}) if plain else None)
        case Resolved() if verb is not None and command is not None and verb(event.action):
            # (only the step's declared action: a target's save or a reaction's own result
            # reads as before, never in the actor's verb: "Ilse takes the readied action")
            said = worded(verb(event.action) or "", command or {}, ", ".join(event.targets))
            said = re.sub(r"\s+(on|at|to|with)$", "", said)  # "casts fire bolt on", no one
            told = event.told.removeprefix(f"{said}: ")  # "aims: +20%" after "aims"
            for value in (command or {}).values():  # "fire bolt misses" after "casts fire bolt"
                if isinstance(value, str) and re.search(rf"\b{re.escape(value)}\b", said):
                    told = told.removeprefix(f"{value} ")
            if len(event.targets) == 1:  # "hits Goblin" after "attacks Goblin": said once
                # (an outcome of two words too: "critical hit Goblin" after "attacks Goblin")
                target = re.escape(event.targets[0])
                told = re.sub(rf"^(\w+|critical hit) {target}(?![\w'])", r"\1", told)
            return f"{event.actor} {said}: {told}{rules_of(event.rules)}"
        case Resolved():
            targets = f" -> {', '.join(event.targets)}" if event.targets else ""
            return f"{event.actor} {event.action}{targets}: {event.told}{rules_of(event.rules)}"
        case Damaged() if event.said:
            said = f"{event.target} takes {event.amount} damage: {event.said}"
            return said + rules_of(event.rules)
        case Damaged():
            parts = ", ".join(said_modifiers(event.breakdown))
            parts = f" ({parts})" if parts else ""
            return f"{event.target} takes {event.amount} damage{parts}{rules_of(event.rules)}"
        case Healed():
            why = f": {event.reason}" if event.reason else ""
            source = healing_source(event.source, names or {})
            said = f"{event.target} {(healed or hit_points)(event.amount)} ({source}){why}"
            return said + rules_of(event.rules)
        case Renamed():
            return f"{event.combatant} is now shown as {event.name} ({event.reason})"
        case EncounterEnded():
            return f"the encounter ends: {event.reason}"
        case EncounterReopened():
            return f"the encounter reopens: {event.reason}"
        case ConditionSet():
            lasting = durations.phrase(event.detail, lambda who: (names or {}).get(who, who))
            why = f": {event.reason}" if event.reason else ""  # "under bless": said in full
            return f"{event.target} is {event.condition}{lasting}{why}{rules_of(event.rules)}"
        case ConditionExpired():
            return f"{event.target} is no longer {event.condition} (expired: {event.reason})"
        case ConditionCleared():
            return (
                f"{event.target} is no longer {event.condition}: {event.reason}"
                f"{rules_of(event.rules)}"
            )
        case EquipmentChanged():
            held = ", ".join(event.holding) or "nothing"
            return f"{event.combatant} now holds {held}: {event.reason}{rules_of(event.rules)}"
        case Spent():
            return (spent(event) if spent is not None else None) or spends(event)
        case TurnAdvanced(actor=None, reason=reason) if reason == begins(round_word, event.round):
            return f"{round_word} {event.round} begins"  # before anyone can act (4dF)
        case TurnAdvanced():
            who = event.actor or "nobody"
            return f"{round_word} {event.round}: {who} to act ({event.reason})"
        case Note():
            return f"note by {author_words(event.author)}: {event.text}"
    own = getattr(event, "describe", None)
    return own() if callable(own) else type(event).__name__


def healing_source(source: str, names: Mapping[str, str]) -> str:
    """Where healing came from, the one who gave it named as the table knows them
    ("healing word, cast by maelis" reads "healing word, cast by Maelis")."""
    what, by, who = source.rpartition(" by ")
    return f"{what}{by}{names.get(who, who)}" if by else source


def event_lines(
    events: Sequence[Event],
    *args: Any,
    step_verb: Callable[[dict[str, Any], Sequence[Event]], str | None] | None = None,
    **kwargs: Any,
) -> list[str]:
    """Each event's line (`describe`'s arguments after the event), an action's resolution
    with the command its step declared ("Ilse casts fire bolt on Mage: ..."); `step_verb`:
    the ruleset's verb for a step its events word otherwise than its action's verb
    (`Ruleset.step_verb_of`: "Priest attacks Goblin with spiritual weapon", no spell cast)."""
    verb: Callable[[str], str | None] | None = kwargs.pop("verb", None)
    declared: dict[tuple[str, str], Mapping[str, Any]] = {}
    lines = []
    before: Event | None = None
    for event in events:
        said_before, before = before, event
        if said_twice(said_before, event):  # "Ilse is dying", its reason said just above
            event = msgspec.structs.replace(event, reason="")
        if isinstance(event, Declared):
            declared[event.actor, event.action] = event.command
        said_as, command = verb, None
        if isinstance(event, Declared | Resolved):
            command = declared.get((event.actor, event.action))
            own = step_verb(dict(command), events) if step_verb and command and verb else None
            if own:  # (only this action: any other reads in its own verb)
                said_as = functools.partial(own_verb, own, event.action, verb)
        if not isinstance(event, Resolved):
            command = None
        lines.append(describe(event, *args, verb=said_as, command=command, **kwargs))
    return lines


def said_twice(before: Event | None, event: Event) -> bool:
    """A condition set for the reason the one just before set another on the same
    combatant ("unconscious", then "dying": "dropped to 0 HP"): its reason goes unsaid."""
    return (
        isinstance(event, ConditionSet)
        and isinstance(before, ConditionSet)
        and bool(event.reason)
        and (before.target, before.reason) == (event.target, event.reason)
    )


def own_verb(own: str, action: str, verb: Callable[[str], str | None], asked: str) -> str | None:
    """`own` for `action` (a step's verb as its events word it), else `verb`'s."""
    return own if asked == action else verb(asked)


def gm_lines(events: list[Event], live: "Encounter") -> list[str]:
    """A step's lines as the GM reads them (the CLI, `play`): in the ruleset's words, every
    combatant by the name the table knows them by, hidden ones too."""
    rules = live.ruleset
    names = shown_names(live.view())
    words, reads, spent = rules.round_word, rules.reads_rolls, rules.spent_words
    healed = rules.healed_words
    verb, step_verb = rules.verbs.get, rules.step_verb_of
    return event_lines(
        events, words, reads, names, spent=spent, healed=healed, verb=verb, step_verb=step_verb
    )
