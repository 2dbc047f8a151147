"""Damage as a table says it: the dice with their faces and what is added to them, the sum
and its type, then each halving or doubling with its rule and what it leaves
("3d6 [6+5+4] = 15 fire, halved for the save (srd-25) -> 7")."""

import re
from collections.abc import Sequence

from fracas.rules.api import Modifier

ADJUSTING = ("srd-25", "srd-40", "srd-10", "srd-62")  # a save's half, uncanny dodge's, types'
DICE = re.compile(r"^\d*d\d+ \[")  # a term that reads its own faces: "2d6 [3+4]"


def faces_of(spec: str, faces: Sequence[int], dropped: Sequence[int] = ()) -> str:
    """A dice term as it fell: "1d8 [6]", "2d6 [3+4]"."""
    counted = [str(f) for i, f in enumerate(faces) if i not in dropped]
    return f"{spec} [{'+'.join(counted)}]"


def term(at: int, part: Modifier) -> str:
    """One term of the sum: dice by their faces, a flat part by its value and what it is."""
    if DICE.match(part.reason):
        return part.reason if at == 0 else f" + {part.reason}"
    what = part.reason.removesuffix(" modifier")
    if at == 0:
        return f"{part.value} {what}"
    return f" {'-' if part.value < 0 else '+'} {abs(part.value)} {what}"


def tally(parts: Sequence[Modifier], kind: str, adjusted: Sequence[Modifier] = ()) -> str:
    """One type of damage: its sum, then each adjustment (a save's half, resistance,
    vulnerability, immunity) with the amount it leaves; a note worth nothing in brackets."""
    adjusting = [p for p in (*parts, *adjusted) if p.rule in ADJUSTING]
    summed = [p for p in parts if p.value and p not in adjusting]
    notes = [p for p in parts if not p.value and p not in adjusting]
    total = max(0, sum(p.value for p in summed))
    said = "".join(term(at, p) for at, p in enumerate(summed)) or "0"
    if len(summed) == 1 and not DICE.match(said):
        said = f"{total} ({summed[0].reason})"  # the GM's: "7 (the GM's ruling)"
    if len(summed) > 1 or DICE.match(said):
        said += f" = {total}"
    said += f" {kind}" if kind else ""
    said += "".join(f" ({n.reason})" for n in notes)
    for adjustment in adjusting:
        total += adjustment.value
        said += f", {adjustment.reason} ({adjustment.rule}) -> {total}"
    return said
