"""The core vocabulary every ruleset reuses: msgspec structs with stable tags.

Each ruleset's event union is these plus the few events truly its own.
"""

from typing import Annotated, Any, Union

import msgspec

from fracas.ledger.digests import Hex, Sha256


class Modifier(msgspec.Struct, frozen=True):
    """One term that went into a roll or a damage figure, and why."""

    value: int
    reason: str
    rule: str = ""
    # a note on the roll ("shield: +5 AC", "half cover does not help against fire bolt"),
    # not a number of it: said as its words alone, never as a "+0" term
    note: bool = False

    def describe(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.reason}{rule}" if self.note else f"{self.value:+d} {self.reason}{rule}"


Bounded = Annotated[int, msgspec.Meta(ge=-1000, le=1000)]  # a modifier, an option: a fight's size
Multiplier = Annotated[int, msgspec.Meta(ge=1, le=100)]


class GivenModifier(Modifier, frozen=True):
    """A modifier a command is given (--mod, -o modifiers=...): at most 1000 either way."""

    value: Bounded


class Roll(msgspec.Struct, frozen=True):
    """Dice as they fell: kind, faces, total and where the faces came from. Every die rolled
    is among the faces; when the dice keep or drop some (2d20kh1, 4d6dl1), `kept` holds the
    indices of the faces that count, and is left out of the record otherwise (unset), so a
    roll that keeps every die is written as it always was."""

    dice: str
    faces: list[int]
    total: int
    source: str
    entered_by: str | None = None
    seed_epoch: int | None = None
    counter: str | None = None
    kept: list[int] | msgspec.UnsetType = msgspec.UNSET
    # a roll typed in part: how many of its trailing faces the server rolled for the typist
    # (a critical's extra dice past those typed), derived from the seed of `seed_epoch` at
    # `counter` (and the counters after it) so that the audit checks them; unset: none, and
    # the roll is written as it always was
    served: int | msgspec.UnsetType = msgspec.UNSET

    def servers(self) -> int:
        """How many of the faces, the last ones, are the server's in a typed roll."""
        return self.served or 0

    def dropped(self) -> list[int]:
        """The indices of the faces rolled but not counted (none unless it keeps or drops)."""
        if not self.kept:
            return []
        kept = set(self.kept)
        return [i for i in range(len(self.faces)) if i not in kept]


class Event(msgspec.Struct, frozen=True, tag_field="kind"):
    """Base of every event. Subclasses set an explicit, stable `tag`."""


class EncounterStarted(Event, tag="encounter.started"):
    """The first event of an encounter: its ruleset, title and options, and the commitment
    (SHA-256) to the dice seed that `reveal` later discloses."""

    ruleset: str
    title: str
    options: dict[str, Any]
    seed_sha256: Sha256
    seed_epoch: int = 1
    limits: dict[str, int] = {}  # the GM's own limits on dice and event size (see Limits)


class SeedRevealed(Event, tag="seed.revealed"):
    seed_epoch: int
    seed: Hex
    next_seed_sha256: Sha256


class CombatantJoined(Event, tag="combatant.joined"):
    """A combatant joins with their checked sheet (as plain data), display name and side."""

    combatant: str
    name: str
    side: str
    sheet: dict[str, Any]


class InitiativeSet(Event, tag="initiative.set"):
    """A combatant's initiative, how it came about, and the seeded tie roll that orders equals."""

    combatant: str
    value: int
    reason: str
    rules: list[str] = []
    tiebreak: int = 0


class Declared(Event, tag="declared"):
    """An action declared: who, which action, the command as the table gave it, and its id."""

    actor: str
    action: str
    command: dict[str, Any]
    command_id: str


class Commanded(Event, tag="command.given"):
    """The command of a step whose ruleset records no declaration of its own (a join, the
    begin, a pass), so that every step can be decided again from what the table asked."""

    actor: str
    command: dict[str, Any]
    command_id: str


class Rolled(Event, tag="rolled"):
    """A roll the rules made: who rolled, for what, the dice as they fell, the target it was
    against, every modifier with its reason and rule, what it meant, and the rules applied.
    `secret`: GM-only until disclosed."""

    actor: str
    purpose: str
    roll: Roll
    target: int | None = None
    modifiers: list[Modifier] = []
    result: str | None = None
    rules: list[str] = []
    secret: bool = False


def is_secret(events: list[Event]) -> bool:
    """Does the step of these events hold a GM-only roll?"""
    return any(isinstance(e, Rolled) and e.secret for e in events)


class Resolved(Event, tag="resolved"):
    """What an action came to (`outcome`, in words: "misses"), against whom, by which rules,
    and its figures (`detail`: "10 against parry 14"), kept apart from the words so that
    what players read of an unseen actor's outcome leaves out what read its sheet and rolls."""

    actor: str
    action: str
    targets: list[str]
    outcome: str
    rules: list[str]
    detail: str = ""

    @property
    def told(self) -> str:
        """The outcome with its figures: "misses (10 against parry 14)"."""
        return f"{self.outcome} ({self.detail})" if self.detail else self.outcome


class Spent(Event, tag="spent"):
    """A resource used up: shots, time, an action, ammunition; with the reason and rules."""

    combatant: str
    resource: str
    amount: int
    reason: str
    rules: list[str] = []


class Damaged(Event, tag="damaged"):
    """Harm taken: `amount` after everything, from `source` (who, or "gm"), with the
    `breakdown` that produced it (each term a Modifier with its reason and rule); `said`:
    the sum as the ruleset words it for the table ("1d8 [6] + 3 Str = 9 slashing"), shown
    in its place where given (older logs have none)."""

    target: str
    amount: int
    source: str
    breakdown: list[Modifier] = []
    rules: list[str] = []
    said: str = ""


class ConditionSet(Event, tag="condition.set"):
    """A condition on a combatant, with why, what the rules keep about it (`detail`; a
    duration under "until"), and the rules that set it."""

    target: str
    condition: str
    reason: str
    detail: dict[str, Any] = {}
    rules: list[str] = []


class ConditionCleared(Event, tag="condition.cleared"):
    """A condition taken off a combatant, with why and by which rules."""

    target: str
    condition: str
    reason: str
    rules: list[str] = []


class ConditionExpired(ConditionCleared, tag="condition.expired"):
    """A condition's duration ran out at a boundary of the order (`reason` says which); it
    is cleared as by hand, and undoing the step that crossed the boundary brings it back."""


class Healed(Event, tag="healed"):
    """Health given back: `amount` from `source` (a potion, first aid, the GM); `reason`:
    why the ruleset gave back less than was given ("already at full hit points"), if it did
    (older logs have none)."""

    target: str
    amount: int
    source: str
    rules: list[str] = []
    reason: str = ""


class EncounterEnded(Event, tag="encounter.ended"):
    """The GM ends the fight; nothing but the GM's own commands goes on until it reopens."""

    reason: str
    author: str = "gm"


class EncounterReopened(Event, tag="encounter.reopened"):
    reason: str
    author: str = "gm"


class Renamed(Event, tag="combatant.renamed"):
    combatant: str
    name: str
    reason: str


class EquipmentChanged(Event, tag="equipment.changed"):
    """What a combatant now holds in hand, and why."""

    combatant: str
    holding: list[str]
    reason: str
    rules: list[str] = []


class TurnAdvanced(Event, tag="turn.advanced"):
    """The turn moves on: the round it is now and who acts (None: nobody can)."""

    round: int
    actor: str | None
    reason: str
    rules: list[str] = []


class Carried(Event, tag="party.carried"):
    """A member of the party stands as they did in `source` (the fight they ended, or the
    party): `standing` is what the ruleset carries over (`Ruleset.standing`); the ruleset's
    own events that follow bring the combatant to it."""

    target: str
    source: str
    standing: dict[str, Any]


class PartySent(Event, tag="party.sent"):
    """The party was brought into `encounter`: they stand there until they come back."""

    encounter: str


class MemberLeft(Event, tag="party.left"):
    """A member leaves the party (`fracas party remove`), or leaves it to join again with a
    new sheet (`fracas party update`): nothing of theirs is deleted, the log keeps how they
    joined and stood, and they can join again."""

    target: str
    reason: str = ""


class Note(Event, tag="note"):
    """A free note the GM (or a player) writes into the log."""

    text: str
    author: str = "gm"


class Disclosed(Event, tag="step.disclosed"):
    """The GM shows the players what a step with GM-only rolls decided."""

    step: int
    author: str = "gm"


class CombatantHidden(Event, tag="combatant.hidden"):
    """The combatant joining in this step is hidden from the players (an ambush) until the
    GM reveals them: the players' audience sees neither them nor any step that involves
    them."""

    combatant: str

    def describe(self) -> str:
        return f"{self.combatant} is hidden from the players"


class CombatantRevealed(Event, tag="combatant.revealed"):
    """The GM shows the players a hidden combatant, and every step that involved them; or
    the rules do, with their `reason` (d20: an attack gives the attacker away)."""

    combatant: str
    author: str = "gm"
    reason: str = ""
    rules: list[str] = []

    def describe(self) -> str:
        if self.reason:
            return f"{self.combatant} is revealed to the players: {self.reason}"
        return f"the GM reveals {self.combatant} to the players"


class Choices(msgspec.Struct, frozen=True):
    """What a target may answer to an attack that waits for them (rules/reactions.py): the
    `options` the rules offer now, the command's `field` they fill (a dict by target; the
    option `omit` leaves the target out of it), and the `default` applied when nobody
    answers by the deadline, with the `rule` that names it and its words (`why`)."""

    options: list[str]
    default: str
    rule: str
    why: str = ""
    field: str = "defence"
    omit: str = "none"


class ReactionAsked(Event, tag="reaction.asked"):
    """An attack waits for its target's reaction: declared, not rolled. `command` is the
    attacker's, as given; it is decided once every target asked has answered."""

    actor: str
    target: str
    command: dict[str, Any]
    choices: Choices
    deadline: str = ""  # ISO 8601, UTC; "": until someone answers
    secret: bool = False  # the attack's rolls will be GM-only
    step: int = 0  # the asking step
    # Asked once the dice showed the trigger (`Ruleset.reacts_after`): the rolls made so
    # far, which the answer's decision takes again first, and what the target saw, in words
    # ("Goblin's scimitar hits: 17 vs AC 15"). Unset: asked before any roll.
    rolled: list[Roll] | msgspec.UnsetType = msgspec.UNSET
    trigger: str | msgspec.UnsetType = msgspec.UNSET
    # Who a trigger the command's dice show later may ask (`Ruleset.reacts_after`).
    waits_on: list[str] | msgspec.UnsetType = msgspec.UNSET
    # The trigger as players read it while the attacker is hidden from them ("Someone
    # unseen hits Ilse: 14 vs AC 12"). Unset: they read none.
    unseen: str | msgspec.UnsetType = msgspec.UNSET

    def describe(self) -> str:
        until = f" by {self.deadline}" if self.deadline else ""
        options = " | ".join(self.choices.options)
        return (
            f"{self.actor}'s {self.command.get('action', 'action')} waits for {self.target}'s "
            f"reaction ({options}){until}; no answer: {self.choices.default} "
            f"[{self.choices.rule}]"
        )


class ReactionGiven(Event, tag="reaction.given"):
    """A target's reaction, answered by their player or by the GM for them (`by`)."""

    target: str
    choice: str
    by: str

    def describe(self) -> str:
        return f"{self.target} reacts: {self.choice} (answered by {self.by})"


class ReactionTimedOut(Event, tag="reaction.timed-out"):
    """Nobody answered for `target` by the deadline: the rules' default applies."""

    target: str
    choice: str
    rule: str
    at: str
    by: str

    def describe(self) -> str:
        return (
            f"{self.target} gave no reaction by the deadline (recorded at {self.at} by "
            f"{self.by}): {self.choice} [{self.rule}]"
        )


class ReactionWithdrawn(Event, tag="reaction.withdrawn"):
    """The GM takes back an attack that waits for a reaction: nothing of it happens."""

    actor: str
    reason: str
    by: str = "gm"

    def describe(self) -> str:
        return f"{self.by} withdraws {self.actor}'s waiting attack: {self.reason}"


CORE_EVENTS: tuple[type[Event], ...] = (
    EncounterStarted,
    SeedRevealed,
    CombatantJoined,
    InitiativeSet,
    Declared,
    Commanded,
    Rolled,
    Resolved,
    Spent,
    Damaged,
    Healed,
    ConditionSet,
    ConditionCleared,
    ConditionExpired,
    EquipmentChanged,
    EncounterEnded,
    EncounterReopened,
    Renamed,
    TurnAdvanced,
    Note,
    Carried,
    PartySent,
    MemberLeft,
    Disclosed,
    CombatantHidden,
    CombatantRevealed,
    ReactionAsked,
    ReactionGiven,
    ReactionTimedOut,
    ReactionWithdrawn,
)


def tag_of(event_type: type[Event]) -> str:
    return event_type.__struct_config__.tag  # type: ignore[return-value]


def event_union(*own: type[Event]) -> Any:
    """The tagged union a ruleset decodes: the core vocabulary plus its own events."""
    return Union[(*CORE_EVENTS, *own)]
