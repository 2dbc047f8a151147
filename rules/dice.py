"""Dice: seeded with commit-reveal, or faces typed in from physical dice.

Seeded faces are HMAC-SHA256(seed, "encounter|counter|block") read as 32-bit words with
rejection sampling, so every face is uniform and anyone holding the revealed seed can
derive every roll again. The counter is "step.n": the n-th roll decided in that step.
"""

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator
from typing import Protocol

from fracas.ledger import BadInputError
from fracas.rules.events import Roll

_SPEC = re.compile(r"^(\d*)d(\d+|F)$")
WORD = 2**32


def parse_dice(spec: str) -> tuple[int, list[int]]:
    """'2d10' -> (2, [1..10]); 'd100' -> (1, [1..100]); '4dF' -> (4, [-1, 0, 1])."""
    match = _SPEC.match(spec)
    if not match:
        raise BadInputError(f"unknown dice {spec!r}: write them as NdS, for example 2d6 or d100")
    count = int(match.group(1) or 1)
    sides = match.group(2)
    values = [-1, 0, 1] if sides == "F" else list(range(1, int(sides) + 1))
    if count < 1 or not values:
        raise BadInputError(f"dice {spec!r} roll nothing")
    return count, values


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


def derive_faces(seed_hex: str, encounter: str, counter: str, spec: str) -> list[int]:
    """The faces a seeded roll must show; rejection sampling removes modulo bias."""
    count, values = parse_dice(spec)
    limit = WORD - WORD % len(values)
    faces: list[int] = []
    for word in _words(bytes.fromhex(seed_hex), encounter, counter):
        if word < limit:
            faces.append(values[word % len(values)])
            if len(faces) == count:
                return faces
    raise AssertionError("unreachable: the word stream is endless")


class Dice(Protocol):
    def roll(self, spec: str, purpose: str) -> Roll: ...


class SeededDice:
    def __init__(self, seed_hex: str, epoch: int, encounter: str, step: int) -> None:
        self.seed_hex, self.epoch, self.encounter, self.step = seed_hex, epoch, encounter, step
        self.rolled = 0

    def roll(self, spec: str, purpose: str) -> Roll:
        counter = f"{self.step}.{self.rolled}"
        self.rolled += 1
        faces = derive_faces(self.seed_hex, self.encounter, counter, spec)
        return Roll(spec, faces, sum(faces), "seeded", None, self.epoch, counter)


class ManualDice:
    """Faces of physical dice typed at the table, consumed in the order the rules roll."""

    def __init__(self, faces: list[int], entered_by: str) -> None:
        self.faces, self.entered_by = list(faces), entered_by
        self.used: list[str] = []

    def roll(self, spec: str, purpose: str) -> Roll:
        count, values = parse_dice(spec)
        if len(self.faces) < count:
            so_far = ", ".join(self.used) or "nothing yet"
            raise BadInputError(
                f"not enough dice typed in: the {purpose} needs {spec} after {so_far}; "
                "give every face with --dice in the order rolled"
            )
        faces, self.faces = self.faces[:count], self.faces[count:]
        for face in faces:
            if face not in values:
                raise BadInputError(
                    f"{face} is not a face of {spec} (for the {purpose}); "
                    f"faces run {values[0]}..{values[-1]}"
                )
        self.used.append(f"{spec} for the {purpose}")
        return Roll(spec, faces, sum(faces), "manual", self.entered_by)

    def finish(self) -> None:
        if self.faces:
            used = ", ".join(self.used) or "no dice at all"
            raise BadInputError(
                f"{len(self.faces)} typed face(s) left over: this action rolled {used}; "
                "drop the extra faces from --dice"
            )


class NoDice:
    """For replaying decisions that must not roll: any roll is a mistake."""

    def roll(self, spec: str, purpose: str) -> Roll:
        raise BadInputError(f"the {purpose} needs {spec}, but no dice were given")


def verify_roll(seed_hex: str, encounter: str, roll: Roll) -> bool:
    if roll.source != "seeded" or roll.counter is None:
        return False
    return derive_faces(seed_hex, encounter, roll.counter, roll.dice) == roll.faces
