"""The fight as it stands: combatants with hit points, what they have spent this turn and
this round, and the order of initiative (srd-2)."""

from typing import Any

import msgspec
from fracas.rules.api import RefusedError, Resolved, Until, Waiting, roster

from fracas_srd.sheets import Ability, Options, Sheet, Spell

INCAPACITATING = frozenset(
    ("incapacitated", "paralysed", "paralyzed", "petrified", "stunned", "unconscious")
)
AT_ZERO = ("dying", "stable", "dead")
REMOVED = "removed"

MULTIATTACK = "multiattack"  # the action, which an ability of it may begin (srd-29)
REST_USE = "use until a rest"  # the resource a feature once a short or long rest spends
DAILY = "innate use"  # the resource an innate spell of so many a day spends
ONCE_A_TURN = "once a turn"  # the resource a feature used once a turn spends (srd-38)
MOVEMENT = "feet of movement"  # the resource a move spends (srd-52)
HIT_DIE = "hit die"  # the resource a short rest spends (srd-58)
RECHARGE = "recharge"  # a used ability waits for its d6 (srd-54)
LAIR_ACTION = "lair action"  # srd-55
LEGENDARY_RESISTANCE = "legendary resistance"  # srd-56
TRACKED = frozenset(
    (
        "concentrating",
        "dead",
        "disengaged",
        "dodging",
        "dying",
        "helped",
        "hidden",
        "readied",
        "stable",
        "surprised",
    )
)  # the conditions the rules set and read themselves


def spelt(condition: str) -> str:
    """A condition as the SRD 5.1 spells it: paralysed is paralyzed."""
    return {"paralysed": "paralyzed"}.get(condition, condition)


class OpenRoll(msgspec.Struct, frozen=True):
    """A creature's latest ability check or saving throw whose outcome an effect it holds
    for a roll of its choosing (guidance, srd-81; resistance, srd-82) could still change:
    the GM may spend it after the roll, until the creature rolls again."""

    kind: str  # "checks" or "saves"
    purpose: str
    total: int
    dc: int | None
    kept: tuple[str, ...]  # the effects it may add (guidance)
    fail: str = ""  # the condition its failure set, which a success after all takes back


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    side: str
    sheet: Sheet
    joined: int
    hp: int
    hp_max: int
    temp_hp: int = 0
    initiative: int | None = None
    tiebreak: int = 0
    conditions: dict[str, dict[str, Any]] = {}
    successes: int = 0  # death saves (srd-14)
    failures: int = 0
    action: str = ""  # the action taken this turn, if any (srd-3)
    attacks: int = 0  # attacks made of the Attack action this turn
    attacked_with: tuple[str, ...] = ()  # the weapons of those attacks (srd-19)
    bonus: str = ""  # the bonus action taken this turn, if any (srd-3)
    moved: int = 0  # feet of movement spent this turn (srd-52)
    left: tuple[str, ...] = ()  # whose reach its moves this turn left (srd-18, LeftReach)
    reaction: bool = False  # spent since its turn began (srd-4)
    spells: tuple[str, ...] = ()  # "action:LEVEL" or "bonus:LEVEL", cast this turn (srd-3)
    slots_spent: tuple[int, ...] = ()  # by level, since the last long rest (srd-50)
    hit_dice_spent: int = 0  # since the last long rest (srd-58, srd-59)
    recharging: tuple[str, ...] = ()  # used, until a d6 at a turn's start brings it (srd-54)
    resisted: int = 0  # legendary resistances used today (srd-56)
    used_today: dict[str, int] = {}  # innate spells cast so many a day, since a long rest
    shaken_off: tuple[str, ...] = ()  # "SOURCE:EFFECT" it is immune to now (ShookOff)
    lair_round: int = 0  # the round of its last lair action, and which (srd-55)
    lair_last: str = ""
    legendary_left: int = 0
    legendary_prior: int = 0  # what was left when its own turn began and they came back
    legendary_after: str = ""  # the turn-end it last took a legendary action at (srd-29)
    owed: tuple[int, ...] = ()  # DCs of concentration saves owed after harm by hand (srd-26)
    once: dict[str, str] = {}  # a once-a-turn feature: the turn ("ROUND:ID") it was last used
    unseen: bool = False  # added --hidden: the players do not see it, until it attacks (srd-23)
    open_roll: OpenRoll | None = None  # its latest check or save, still open (srd-81, srd-82)
    of_party: bool = False  # brought in from the party (`Carried`): its sheet is the party's

    def sheet_given(self) -> str:
        """How it comes to have a new sheet, as a refusal ends: a member of the party takes
        one between fights; one in the fight alone keeps the sheet it joined with, and a
        sheet file changed now is read when it joins a later fight."""
        if self.of_party:
            return f"given between fights with `fracas party update {self.id} --sheet FILE`"
        return f"in {self.its} sheet file, read when {self.name} joins a later fight"

    def used(self, spell: str) -> int:
        """How often an innate spell of so many a day was cast since the last long rest."""
        return self.used_today.get(spell, 0)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def its(self) -> str:
        """The possessive a sentence gives it: a player character's is "their", a
        monster's "its" (even on the players' side); a table never calls its players "it"."""
        return "its" if self.sheet.monster or self.side != "pc" else "their"

    @property
    def them(self) -> str:
        """The object pronoun: a monster is "it"; a player character "them"."""
        return "it" if self.sheet.monster or self.side != "pc" else "them"

    @property
    def it(self) -> str:
        """The pronoun a sentence gives it: a monster is "it"; a player character is named."""
        return "it" if self.sheet.monster or self.side != "pc" else self.name

    def hostile_to(self, other: "Fighter") -> bool:
        """Creatures of different sides are foes; those of one side are allies."""
        return self.side != other.side

    def immune_to(self, condition: str) -> bool:
        """srd-61: a condition it cannot have (paralysed or paralyzed, as the SRD spells it)."""
        immune = {spelt(c) for c in self.sheet.condition_immunities}
        return spelt(condition) in immune

    def shook_off(self, source: str, effect: str) -> bool:
        return f"{source}:{effect.lower()}" in self.shaken_off

    @property
    def hit_dice(self) -> int:
        """How many Hit Dice it has (srd-58): one a level, for a sheet with a level and a die."""
        return self.sheet.level if self.sheet.hit_die else 0

    @property
    def dead(self) -> bool:
        return self.has("dead")

    @property
    def at_zero(self) -> bool:
        return any(self.has(c) for c in AT_ZERO)

    @property
    def incapacitated(self) -> bool:
        """srd-27: these conditions (and dying, stable: unconscious at 0) take every action."""
        return self.at_zero or any(self.has(c) for c in INCAPACITATING)

    @property
    def conscious(self) -> bool:
        """srd-27: the paralysed and the stunned are incapacitated but conscious; the
        unconscious, and those at 0 (dying, stable, dead), are not."""
        return not (self.at_zero or self.has("unconscious"))

    @property
    def speed(self) -> int:
        """srd-27: grappled or restrained, speed 0."""
        held = self.has("grappled") or self.has("restrained")
        return 0 if held else self.sheet.speed

    @property
    def dodging(self) -> bool:
        """srd-5: a dodge is lost while incapacitated or with speed 0."""
        return self.has("dodging") and not self.incapacitated and self.speed > 0

    @property
    def surprised(self) -> bool:
        return self.has("surprised")

    def casting_ability(self, own: Ability | None = None) -> Ability:
        """The ability a spell is cast with: its own (a tiefling's Cha), or the sheet's."""
        ability = own or self.sheet.spellcasting
        if ability is None:
            raise RefusedError(f"{self.name} has no spellcasting ability on the sheet")
        return ability

    def spell_dc(self, own: Ability | None = None) -> int:
        """srd-M5: 8 + proficiency + the spellcasting ability modifier."""
        return 8 + self.sheet.bonus + self.sheet.mod(self.casting_ability(own))

    def dc_of(self, spell: Spell) -> int:
        """A spell's save DC: the one its sheet states (a monster's), else srd-M5's."""
        return spell.dc or self.spell_dc(spell.ability)

    def save_bonus(self, ability: Ability) -> int:
        """srd-M5: the ability modifier, + proficiency if proficient in the save."""
        proficient = ability in self.sheet.saves
        return self.sheet.mod(ability) + (self.sheet.bonus if proficient else 0)


def immune(target: "Fighter", condition: str, against: str, saved: bool = False) -> Resolved:
    """srd-61: what an effect that would give an immune creature the condition does of it
    (`saved`: its save was made for the rest of the effect)."""
    said = "knocked prone" if condition == "prone" else condition
    why = f"immune to being {said}" + (
        f" by {against}" if saved else f": no save against {against}"
    )
    return Resolved(target.id, "save", [], why, ["srd-61"])


class State(msgspec.Struct, frozen=True):
    options: Options = Options()
    ended: bool = False
    fighters: dict[str, Fighter] = {}
    round: int = 0
    turn: str | None = None
    lair: int = 0  # the round whose lair actions are open at count 20, until a turn acts
    turn_ended: str = ""  # "ROUND:ID" of the turn that just ended, until the next acts
    save_put_off: bool = False  # the turn began dying: its death save waits (srd-14, srd-29)
    asking: Waiting | None = None  # an attack waiting for its targets' reactions (srd-39)

    def fighter(self, who: str) -> Fighter:
        return roster.find(self.fighters, who)

    def order(self) -> list[Fighter]:
        """srd-2: highest initiative first; ties as the GM's option says."""
        ranked = [f for f in self.fighters.values() if f.initiative is not None]
        ties = self.options.initiative_ties
        return sorted(ranked, key=lambda f: order_key(f, ties))

    def alive(self) -> list[Fighter]:
        return [f for f in self.order() if not f.dead and not f.has(REMOVED)]

    def later_this_round(self) -> list[Fighter]:
        """Those below the one acting in the order who still fight (the dead are skipped)."""
        order = self.order()
        here = next((i for i, f in enumerate(order) if f.id == self.turn), -1)
        fighting = {f.id for f in self.alive()}
        return [f for f in order[here + 1 :] if f.id in fighting]

    def acting(self) -> Fighter | None:
        return self.fighters.get(self.turn) if self.turn else None


def shaken_source(state: State, detail: dict) -> Fighter | None:
    """The creature whose effect set a condition with this detail, where outlasting the
    effect makes one immune to it (a dragon's Frightful Presence), else None."""
    source = state.fighters.get(detail.get("by", ""))
    effect = detail.get("spell", "")
    if source is None or not any(s.shaken_off for s in source.sheet.spells if s.name == effect):
        return None
    return source


def turn_end(state: State) -> tuple[int, str] | None:
    """srd-29: the turn whose end is open, (round, who had it), until the next creature
    acts: a legendary action taken then is taken at that turn's end. An attack of the
    creature whose turn it is, waiting for a reaction, is that creature acting: its turn."""
    if not state.turn_ended or own_attack_waits(state):
        return None
    number, _, who = state.turn_ended.partition(":")
    return int(number), who


def own_attack_waits(state: State) -> bool:
    """srd-29: does an attack of the creature whose turn it is (not a legendary or lair
    action, which come at another's turn-end) wait for a reaction? Its turn is under way."""
    waiting = state.asking
    return (
        waiting is not None
        and waiting.actor == state.turn
        and waiting.command.get("action") not in ("legendary", "lair")
    )


HEARTENS = "heartens"  # a condition's detail: the temporary hit points each turn (heroism)


def until_next(state: State, edge: str, who: str) -> Until:
    """To the `edge` ("start" or "end") of `who`'s next turn: not the one it is having,
    unless that turn has not acted yet, the turn-end before it still open (a legendary
    action there comes before it, srd-29)."""
    having = state.turn == who and not state.turn_ended
    return Until(edge=edge, of=who, after=str(state.round) if having else "")


LAIR_COUNT = 20  # lair actions come on initiative count 20, after the turns at 20 (srd-55)


def place(round_: int, count: int | None, lair: bool = False) -> tuple[int, float, int]:
    """Where a turn (or the lair's count 20) stands in the fight's time: the round, then
    the counts from the highest down; the lair's 20 loses ties to the creatures' 20s."""
    return round_, float("-inf") if count is None else -count, 1 if lair else 0


def lair_opens(state: State, round_: int, actor: str | None) -> bool:
    """srd-55: does a turn passing from the one now to `actor`'s in `round_` pass count 20
    of some round, while a creature with lair actions is in the fight?"""
    if actor is None or not any(f.sheet.lair and not f.dead for f in state.fighters.values()):
        return False
    now = state.acting()
    before = place(state.round, now.initiative if now else None)
    after = place(round_, state.fighters[actor].initiative)
    rounds = range(max(state.round, 1), round_ + 1)
    return any(before < place(r, LAIR_COUNT, lair=True) < after for r in rounds)


def order_key(fighter: Fighter, ties: str) -> tuple:
    initiative = -(fighter.initiative or 0)
    if ties == "gm":
        return (initiative, fighter.joined)
    first = 0 if ties != "players" or fighter.side == "pc" else 1
    return (initiative, first, -fighter.sheet.dexterity, -fighter.tiebreak, fighter.joined)


def initial() -> State:
    return State()


def check_begun(state: State) -> None:
    if not state.round:
        raise RefusedError("the fight has not begun: `fracas begin` first")
