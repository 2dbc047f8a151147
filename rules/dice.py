"""Dice: seeded with commit-reveal, or faces typed in from physical dice.

Seeded faces are HMAC-SHA256(seed, "encounter|counter|block") read as 32-bit words with
rejection sampling, so every face is uniform and anyone holding the revealed seed can
derive every roll again. The counter is "step.n": the n-th roll decided in that step.
"""

import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

import msgspec

from fracas.ledger import BadInputError
from fracas.rules.events import Event, Resolved, Roll

_SPEC = re.compile(r"^(\d*)d(\d+|F)(z?)\Z", re.ASCII)
DICE_CEILING = 1000  # dice in one expression, whatever an encounter allows
FACES_CEILING = 10000  # faces of one die
CONSTANT_CEILING = 10000  # a number added to or taken off a roll (2d20kh1+5)
BODY_CEILING = 1 << 20  # bytes of one event (the ledger's own ceiling too)
# A term: [sign] then dice, [N]dS[z][!][(k|kh|kl|d|dl|dh)[N]], or a plain number.
_TERM = re.compile(r"([+-]?)(?:(\d*)d(\d+|F)(z?)(!?)(?:(k|d)(h|l)?(\d*))?|(\d+))", re.ASCII)
WORD = 2**32
GRAMMAR = "NdS, for example 2d6, d100, 4dF, d6!-d6!, 2d20kh1+5 or 4d6dl1"


def parse_dice(spec: str) -> tuple[int, tuple[int, ...]]:
    """'2d10' -> (2, [1..10]); 'd100' -> (1, [1..100]); '4dF' -> (4, [-1, 0, 1]);
    '2d10z' -> (2, [0..9]): a z die reads from 0, so a d10's 0 is 0, not 10."""
    match = _SPEC.match(spec)
    if not match:
        raise BadInputError(f"unknown dice {spec!r}: write them as NdS, for example 2d6 or d100")
    count = int(match.group(1) or 1)
    sides, zero = match.group(2), match.group(3)
    if count > DICE_CEILING or (sides != "F" and int(sides) > FACES_CEILING):
        raise BadInputError(
            f"dice {spec!r} are too many: fracas rolls at most {DICE_CEILING} dice of at most "
            f"{FACES_CEILING} faces in one expression"
        )
    if sides == "F" and zero:
        raise BadInputError(f"unknown dice {spec!r}: fudge dice have no z form")
    first = 0 if zero else 1
    values = (-1, 0, 1) if sides == "F" else tuple(range(first, int(sides) + first))
    if count < 1 or not values:
        raise BadInputError(f"dice {spec!r} roll nothing")
    return count, values


class Term(NamedTuple):
    """One term of a dice expression: `-d6!` is one exploding d6 counted negative; `4d6kh3`
    four d6 of which the highest three count; `+5` a number added (no dice: `count` 0)."""

    sign: int
    count: int
    values: tuple[int, ...]
    explode: bool
    keep: int | None = None  # how many of its dice count (the highest, or the lowest)
    lowest: bool = False  # keep the lowest dice rather than the highest
    constant: int = 0


@functools.lru_cache(maxsize=1024)
def parse_terms(spec: str) -> tuple[Term, ...]:
    """'d6!-d6!' (open positive minus negative), '2d6', '4dF', '2d20kh1+5': terms added or
    subtracted. A `!` die showing its highest face is rolled again and added, as long as it
    does. `khN`/`klN` keep the N highest/lowest dice of a term, `dlN`/`dhN` drop the N
    lowest/highest (`k`, `d` alone: highest, lowest; N alone: 1); a die that explodes counts
    as its whole run. (Cached: a fight rolls the same few expressions over and over.)"""
    terms: list[Term] = []
    position = 0
    while position < len(spec):
        match = _TERM.match(spec, position)
        if match is None or (terms and not match.group(1)):
            break
        term = _term(spec, match)
        if term is None:
            break
        terms.append(term)
        position = match.end()
    if not any(t.count for t in terms) or position != len(spec):
        raise BadInputError(f"unknown dice {spec!r}: write them as {GRAMMAR}")
    return tuple(terms)


def _term(spec: str, match: re.Match[str]) -> Term | None:
    """One matched term, checked; None if it is not one (the expression is unknown)."""
    sign = -1 if match.group(1) == "-" else 1
    if match.group(9) is not None:
        constant = int(match.group(9))
        if constant > CONSTANT_CEILING:
            raise BadInputError(
                f"dice {spec!r} add {constant}: a number in a dice expression is at most "
                f"{CONSTANT_CEILING}"
            )
        return Term(sign, 0, (), False, constant=constant)
    count, values = parse_dice(f"{match.group(2)}d{match.group(3)}{match.group(4)}")
    explode = bool(match.group(5))
    if explode and (match.group(3) == "F" or len(values) < 2):
        return None
    if match.group(6) is None:
        return Term(sign, count, values, explode)
    dropping = match.group(6) == "d"
    highest = match.group(7) == "h" if match.group(7) else not dropping
    number = int(match.group(8) or 1)
    keep = count - number if dropping else number
    if not 1 <= keep <= count:
        word = "drops" if dropping else "keeps"
        raise BadInputError(
            f"dice {spec!r} {word} {number} of {count} dice: keep 1 to {count} of them "
            f"(kh1 keeps the highest, dl1 drops the lowest)"
        )
    return Term(sign, count, values, explode, keep, lowest=highest == dropping)


def draw(
    spec: str, next_face: Callable[[Sequence[int]], int], most: int | None = None
) -> list[int]:
    """Every face an expression needs, term by term, each exploding die followed by its rerolls;
    every die is drawn, those a term keeps and those it drops. `most`: the dice one roll may
    throw, rerolls of exploding dice counted (a recorded roll replayed has none)."""
    faces: list[int] = []

    def thrown(values: Sequence[int]) -> int:
        if most is not None and len(faces) >= most:
            raise BadInputError(
                f"dice {spec!r} exploded past {most} dice rolled, this encounter's limit "
                "(rerolls count); roll fewer, or the GM raises it with `fracas new --limit`"
            )
        face = next_face(values)
        faces.append(face)
        return face

    for term in parse_terms(spec):
        for _ in range(term.count):
            face = thrown(term.values)
            while term.explode and face == term.values[-1]:
                face = thrown(term.values)
    return faces


def dice_of(spec: str, faces: list[int]) -> list[list[list[int]]]:
    """Each term's dice as the indices of their faces: a die that explodes has its run of
    faces, a plain number none."""
    at = 0
    found: list[list[list[int]]] = []
    for term in parse_terms(spec):
        dice: list[list[int]] = []
        for _ in range(term.count):
            run = [at]
            while term.explode and faces[at] == term.values[-1]:
                at += 1
                run.append(at)
            at += 1
            dice.append(run)
        found.append(dice)
    if at > len(faces):
        raise IndexError("fewer faces than the dice need")
    return found


def _counted(term: Term, dice: list[list[int]], faces: list[int]) -> list[list[int]]:
    """The dice of a term that count: all, or the kept highest (lowest), ties to the first."""
    if term.keep is None:
        return dice
    value = [sum(faces[i] for i in die) for die in dice]
    ranked = sorted(range(len(dice)), key=lambda n: (value[n] if term.lowest else -value[n], n))
    return [dice[n] for n in sorted(ranked[: term.keep])]


def kept_of(spec: str, faces: list[int]) -> list[int] | None:
    """The indices of the faces that count, when the expression keeps or drops dice; None when
    every face counts."""
    terms = parse_terms(spec)
    if all(t.keep is None for t in terms):
        return None
    dice = dice_of(spec, faces)
    return sorted(
        i for t, d in zip(terms, dice, strict=True) for die in _counted(t, d, faces) for i in die
    )


def split_faces(spec: str, faces: list[int]) -> list[list[int]]:
    """The faces of each term, in order (none for a plain number): how a ruleset reads a
    compound roll. Dropped dice are among them; `kept_of` tells which count."""
    return [[faces[i] for die in dice for i in die] for dice in dice_of(spec, faces)]


def total_of(spec: str, faces: list[int]) -> int:
    """The sum of the faces that count, each term with its sign, and the numbers added."""
    terms = parse_terms(spec)
    total = 0
    for term, dice in zip(terms, dice_of(spec, faces), strict=True):
        counted = term.constant + sum(faces[i] for die in _counted(term, dice, faces) for i in die)
        total += term.sign * counted
    return total


def faces_by_total(spec: str) -> list[list[int]] | None:
    """One list of faces for each total `spec` can show (the first found), in the order
    its dice are drawn; None where its dice explode or a term keeps some of them."""
    terms = parse_terms(spec)
    if any(t.explode or t.keep is not None for t in terms):
        return None
    found: dict[int, list[int]] = {0: []}
    for term in terms:
        for _ in range(term.count):
            grown: dict[int, list[int]] = {}
            for total, faces in found.items():
                for value in term.values:
                    grown.setdefault(total + term.sign * value, [*faces, value])
            found = grown
    return [found[total] for total in sorted(found)]


def rolled(
    spec: str,
    faces: list[int],
    source: str,
    entered_by: str | None = None,
    epoch: int | None = None,
    counter: str | None = None,
) -> Roll:
    """A Roll of these faces: its total, and which faces it kept when it keeps or drops."""
    kept = kept_of(spec, faces)
    roll = Roll(spec, faces, total_of(spec, faces), source, entered_by, epoch, counter)
    return roll if kept is None else msgspec.structs.replace(roll, kept=kept)


def new_seed() -> str:
    return secrets.token_bytes(32).hex()


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def _words(seed: bytes, encounter: str, counter: str) -> Iterator[int]:
    block = 0
    while True:
        message = f"{encounter}|{counter}|{block}".encode()
        digest = hmac.new(seed, message, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def derive_faces(
    seed_hex: str, encounter: str, counter: str, spec: str, most: int | None = None
) -> list[int]:
    """The faces a seeded roll must show; rejection sampling removes modulo bias."""
    words = _words(bytes.fromhex(seed_hex), encounter, counter)

    def next_face(values: Sequence[int]) -> int:
        limit = WORD - WORD % len(values)
        for word in words:
            if word < limit:
                return values[word % len(values)]
        raise AssertionError("unreachable: the word stream is endless")

    return draw(spec, next_face, most)


class Limits(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one encounter allows: dice per expression, faces per die, bytes per event.
    The GM may set them (`fracas new --limit dice=200`) up to fracas's hard ceilings."""

    dice: int = 100
    faces: int = 1000
    body: int = 65536

    @classmethod
    def of(cls, given: dict[str, Any]) -> "Limits":
        try:
            limits = msgspec.convert(given, cls)
        except msgspec.ValidationError as error:
            raise BadInputError(
                f"bad limit: {error}; limits are dice, faces and body, as whole numbers"
            ) from None
        ceilings = {"dice": DICE_CEILING, "faces": FACES_CEILING, "body": BODY_CEILING}
        for name, ceiling in ceilings.items():
            if not 1 <= getattr(limits, name) <= ceiling:
                raise BadInputError(f"the {name} limit runs from 1 to {ceiling}")
        return limits

    def check(self, spec: str) -> None:
        """Refuse an expression over this encounter's limits before a die is rolled."""
        terms = parse_terms(spec)
        count = sum(t.count for t in terms)
        faces = max(len(t.values) for t in terms)
        if count > self.dice or faces > self.faces:
            raise BadInputError(
                f"dice {spec!r} are over this encounter's limits ({self.dice} dice of at most "
                f"{self.faces} faces); the GM can raise them with `fracas new --limit`"
            )

    def check_bodies(self, events: "list[Any]") -> None:
        for event in events:
            if len(event.body) > self.body:
                raise BadInputError(
                    f"this step would write an event of {len(event.body)} bytes, over the "
                    f"encounter's limit of {self.body}; nothing was written"
                )


class Dice(Protocol):
    """Where `decide` draws every roll: `ctx.dice.roll("2d6", "damage")` gives a Roll, from
    the encounter's seeded dice or from faces typed in; record each as a `Rolled` event."""

    def roll(self, spec: str, purpose: str) -> Roll:
        """The dice of `spec` (fracas's grammar: `d100`, `2d6+1`, `4dF`, `d6!`, `2d20kh1`)
        rolled for `purpose` (a few words: "initiative", "sword damage"), as they fell.
        Record the Roll as a `Rolled` event of the step (the kit fails a step that does not);
        a spec over the encounter's limits is refused in one line."""
        ...


class SeededDice:
    def __init__(
        self,
        seed_hex: str | Callable[[], str],
        epoch: int,
        encounter: str,
        step: int | str,
        limits: Limits | None = None,
    ) -> None:
        """`seed_hex` may be a function that unseals it: called at the first roll, so an
        action that rolls nothing never needs the key file."""
        self._seed, self.epoch, self.encounter, self.step = seed_hex, epoch, encounter, step
        self.limits = limits or Limits()
        self.rolled = 0

    @property
    def seed_hex(self) -> str:
        if callable(self._seed):
            self._seed = self._seed()
        return self._seed

    def roll(self, spec: str, purpose: str) -> Roll:
        self.limits.check(spec)
        counter = f"{self.step}.{self.rolled}"
        self.rolled += 1
        faces = derive_faces(self.seed_hex, self.encounter, counter, spec, self.limits.dice)
        return rolled(spec, faces, "seeded", None, self.epoch, counter)


def runs(said: list[str]) -> str:
    """Rolls in order, a run of the same roll said once with its count: "d20 for the
    initiative (10 times)", not ten times over."""
    grouped: list[list[Any]] = []
    for roll in said:
        if grouped and grouped[-1][0] == roll:
            grouped[-1][1] += 1
        else:
            grouped.append([roll, 1])
    return ", ".join(roll if n == 1 else f"{roll} ({n} times)" for roll, n in grouped)


def one_roll(spec: str) -> str:
    """A roll as a table says it: one die with its article ("a d20", "a d8"), several as
    they are ("2d8", "4dF")."""
    return f"a {spec.removeprefix('1')}" if re.fullmatch(r"1?d\d+", spec) else spec


class ManualDice:
    """Faces of physical dice typed at the table, consumed in the order the rules roll."""

    def __init__(
        self,
        faces: list[int],
        entered_by: str,
        limits: Limits | None = None,
        typed_in: str = "--dice",  # where they were typed, as a refusal names it
        rest: "SeededDice | None" = None,
    ) -> None:
        self.faces, self.entered_by, self.typed_in = list(faces), entered_by, typed_in
        self.count = len(self.faces)
        self.limits = limits or Limits()
        self.used: list[str] = []
        # `rest`: the server's dice for the faces a roll wants past the last typed (a
        # critical's doubled dice), each roll so filled said in `filled`
        self.rest = rest
        self.filled: list[str] = []

    def roll(self, spec: str, purpose: str) -> Roll:
        self.limits.check(spec)
        typed = iter(self.faces)
        taken = filled = 0
        servers: list[int] = []  # the server's faces for this roll, once typed ran out
        first: str | None = None  # the counter of the server's first roll for it

        def next_face(values: Sequence[int]) -> int:
            nonlocal taken, filled, first
            face = next(typed, None)
            # an exploding die's reroll is not filled: its top face is the player's own
            # to see, and its reroll theirs to type
            if face is None and self.rest is not None and "!" not in spec:
                at = taken + filled
                if not servers:
                    served = self.rest.roll(spec, purpose)
                    first = served.counter
                    servers.extend(served.faces)
                filled += 1
                return servers[at]
            if face is None:
                # the rolls the typed faces went to: none before the first, said as nothing
                so_far = f", after {runs(self.used)}" if self.used else ""
                rerolls = " (each top face of a ! die needs one more face)" if "!" in spec else ""
                if any(t.keep is not None for t in parse_terms(spec)):
                    rerolls += " (every die rolled, those dropped too)"
                raise TooFewTyped(
                    f"not enough dice typed in: the {purpose} needs {one_roll(spec)}{rerolls}"
                    f"{so_far}; "
                    f"give every face in {self.typed_in}, in the order rolled"
                )
            if face not in values:
                raise BadInputError(
                    f"{face} is not a face of {spec} (for the {purpose}); "
                    f"faces run {values[0]}..{values[-1]}"
                )
            taken += 1
            return face

        faces = draw(spec, next_face, self.limits.dice)
        self.faces = self.faces[taken:]
        self.used.append(f"{one_roll(spec)} for the {purpose}")
        if filled:
            single = re.fullmatch(r"\d*d(\d+|F)", spec)
            die = f"d{single[1]}" if single else f"of the dice of {spec}"
            self.filled.append(f"{filled} more {die} for the {purpose}")
            assert self.rest is not None
            # the server's faces said as theirs, with where the audit derives them again
            roll = rolled(spec, faces, "manual", self.entered_by, self.rest.epoch, first)
            return msgspec.structs.replace(roll, served=filled)
        return rolled(spec, faces, "manual", self.entered_by)

    @property
    def taken(self) -> int:
        """How many of the typed faces the rolls so far took."""
        return self.count - len(self.faces)

    def finish(self, most: "tuple[int, list[str]] | None" = None) -> None:
        """Refuse faces left over. `most`: the most faces the action takes whatever others'
        rolls show, and its rolls that take them, said in place of those it made (which
        may tell those rolls)."""
        if most is not None:
            taken, rolls = most
            if taken < self.count:
                used = f"rolls at most {', '.join(rolls) or 'no dice of yours'}"
                self._left_over(self.count - taken, used)
        elif self.faces:
            self._left_over(len(self.faces), f"rolled {', '.join(self.used) or 'no dice at all'}")

    def _left_over(self, left: int, used: str) -> None:
        raise BadInputError(
            f"{left} typed {'face' if left == 1 else 'faces'} left over: this action {used}; "
            f"drop the extra faces from {self.typed_in}"
        )


class TooFewTyped(BadInputError):
    """The typed faces ran out before a roll had all its dice."""


class OwnDice:
    """A player's typed faces for their own character's rolls; every other combatant's roll
    is the seeded dice's. Whose a roll is shows only in the step's `Rolled` events, after
    the rules have decided: so a step is decided once with every roll typed, then again
    with each roll another's found typed (`others`) seeded, until none is (`strays`)."""

    def __init__(
        self, typed: ManualDice, seeded: "SeededDice | ProbeDice", others: frozenset[int]
    ) -> None:
        self.typed, self.seeded, self.others = typed, seeded, others
        self.issued: list[tuple[int, Roll]] = []  # the typed rolls, with their place
        self.short: dict[int, TooFewTyped] = {}  # typed rolls the faces ran out for
        self.count = 0

    def roll(self, spec: str, purpose: str) -> Roll:
        at, self.count = self.count, self.count + 1
        if at in self.others:
            return self.seeded.roll(spec, purpose)
        try:
            roll = self.typed.roll(spec, purpose)
        except TooFewTyped as error:  # another's roll may have taken them: judged after
            self.short[at] = error
            roll = self.seeded.roll(spec, purpose)
        self.issued.append((at, roll))
        return roll

    def strays(self, rolled: "list[tuple[str, Roll]]", own: str) -> frozenset[int]:
        """The places of typed rolls (or rolls typed faces ran out for) that `rolled`, the
        step's (actor, roll) in order, gives to another than `own`; the first shortage of
        `own`'s is raised."""
        left = list(self.issued)
        strays = set()
        for actor, roll in rolled:
            found = next((i for i, (_, r) in enumerate(left) if r is roll or r == roll), None)
            if found is None:
                continue
            at, _ = left.pop(found)
            if actor != own:
                strays.add(at)
            elif at in self.short and not strays:
                raise self.short[at]
        if not strays and self.short:
            raise next(iter(self.short.values()))
        return frozenset(strays)

    def finish(self) -> None:
        self.typed.finish()


class ProbeDice:
    """Others' rolls as they could fall, not as they fell: each all its lowest faces or all
    its highest (bit n of `highs` for the n-th roll), an exploding die's top face once. How
    many typed faces an action could take is found with these, never the seeded ones."""

    def __init__(self, highs: int) -> None:
        self.highs, self.rolled = highs, 0

    def roll(self, spec: str, purpose: str) -> Roll:
        high, self.rolled = (self.highs >> self.rolled) & 1, self.rolled + 1
        faces: list[int] = []
        for term in parse_terms(spec):
            face = term.values[-1] if high else term.values[0]
            once = [face, term.values[-2]] if term.explode and high else [face]
            faces += once * term.count
        return rolled(spec, faces, "seeded")


class ProbeOwn(ManualDice):
    """A player's own rolls, each die at one face of its range (`at`: 0 its lowest, -1 its
    highest, -2 the one below, 0.5 its middle), for finding the rolls an action asks of the
    player before they roll (`Encounter.own_rolls`): said in the words a refusal of too few
    typed faces uses (`used`), so the phone's help and the server's count are one."""

    def __init__(self, at: float, entered_by: str, limits: Limits | None = None) -> None:
        super().__init__([], entered_by, limits)
        self.at = at

    def face(self, values: Sequence[int]) -> int:
        if isinstance(self.at, float):
            return values[int(len(values) * self.at)]
        return values[max(-len(values), min(self.at, len(values) - 1))]

    def roll(self, spec: str, purpose: str) -> Roll:
        self.limits.check(spec)
        faces = draw(spec, self.face, self.limits.dice)
        self.count += len(faces)
        self.used.append(f"{one_roll(spec)} for the {purpose}")
        return rolled(spec, faces, "manual", self.entered_by)


UNNEEDED = "typed dice unneeded"  # the action of the line saying typed faces were not rolled


def unneeded(actor: str, text: str) -> Resolved:
    """The line a step says of a player's typed faces no roll took, because another's roll
    (a target's save, its defence) made theirs unneeded. Not the rules' own decision: a
    step decided again (the audit, a what-if) leaves it out."""
    return Resolved(actor, UNNEEDED, [], text, [])


def is_unneeded(event: Event) -> bool:
    return isinstance(event, Resolved) and event.action == UNNEEDED


class NoDice:
    """For replaying decisions that must not roll: any roll is a mistake."""

    def roll(self, spec: str, purpose: str) -> Roll:
        raise BadInputError(f"the {purpose} needs {spec}, but no dice were given")


def verify_served(seed_hex: str, encounter: str, roll: Roll) -> bool:
    """A typed roll's faces the server rolled (`Roll.served`, the last ones) are those the
    seed derives at its counter and the counters after it, as `ManualDice` took them (the
    face at each place from the server's rolls of the same dice run together), and the
    faces make its total and its kept dice."""
    served = roll.servers()
    if roll.source != "manual" or not served or roll.counter is None:
        return False
    stem, _, first = roll.counter.rpartition(".")
    if not first.isdigit() or served > len(roll.faces):
        return False
    servers: list[int] = []
    at = int(first)
    while len(servers) < len(roll.faces):
        derived = derive_faces(seed_hex, encounter, f"{stem}.{at}", roll.dice)
        if not derived:
            return False
        servers += derived
        at += 1
    start = len(roll.faces) - served
    if roll.faces[start:] != servers[start : len(roll.faces)]:
        return False
    again = rolled(roll.dice, roll.faces, "manual", roll.entered_by, roll.seed_epoch, roll.counter)
    return roll == msgspec.structs.replace(again, served=served)


def verify_roll(seed_hex: str, encounter: str, roll: Roll) -> bool:
    """The seed derives the roll's faces, and they make its total and its kept dice."""
    if roll.source != "seeded" or roll.counter is None:
        return False
    faces = derive_faces(seed_hex, encounter, roll.counter, roll.dice)
    again = rolled(roll.dice, faces, "seeded", roll.entered_by, roll.seed_epoch, roll.counter)
    return roll == again
