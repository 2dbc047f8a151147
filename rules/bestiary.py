"""A ruleset's bestiary: monsters ready to add by name (`fracas monsters`, `add --monster`),
each a sheet of the ruleset's, with the attribution its licence asks for."""

import re
from typing import Any

import msgspec

from fracas.ledger import NotFoundError
from fracas.ledger.errors import said


def slug(name: str) -> str:
    """How a monster is named on the command line: `adult-red-dragon`."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def squashed(name: str) -> str:
    """A name as a search reads it, without case, spaces or punctuation: "owl bear",
    "Owl-Bear" and "owlbear" are all `owlbear`."""
    return re.sub(r"[^a-z0-9]+", "", name.lower())


class Monster(msgspec.Struct, frozen=True):
    """One monster: its name, challenge, type ("small humanoid"), and its sheet."""

    name: str
    cr: float
    kind: str
    sheet: dict[str, Any]

    @property
    def slug(self) -> str:
        return slug(self.name)

    @property
    def challenge(self) -> str:
        """The challenge rating as the rules write it: 1/8, 1/4, 1/2, 1, 17."""
        return {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}.get(self.cr, f"{self.cr:g}")


class Bestiary(msgspec.Struct, frozen=True):
    """Monsters by name, with the attribution and licence of where they come from."""

    monsters: list[Monster]
    attribution: str = ""
    licence: str = ""

    def find(self, name: str) -> Monster:
        """A monster by its name or slug, in any case, spacing or punctuation; one clear line
        with the closest name if there is none."""
        wanted = squashed(name)
        for monster in self.monsters:
            if squashed(monster.name) == wanted:
                return monster
        guess = self.nearest(name)
        if guess is not None:
            hint = f"did you mean {guess}?"
        elif self.monsters:
            hint = f"it is none of its {len(self.monsters)}: `fracas monsters TEXT` searches them"
        else:
            hint = "there is none to choose from"
        raise NotFoundError(f"no monster {said(name)} in the bestiary; {hint}")

    def search(self, text: str = "") -> list[Monster]:
        """The monsters whose name (without case, spaces or punctuation) or type holds
        `text` (all of them for none), by name."""
        wanted, words = text.lower().strip(), squashed(text)
        found = [m for m in self.monsters if words in squashed(m.name) or wanted in m.kind.lower()]
        return sorted(found, key=lambda m: m.name.lower())

    def nearest(self, text: str) -> str | None:
        """The monster a name that is none of them most likely meant, by its slug: the one
        it begins (`young red`: young-red-dragon), else the nearest spelling (`gobln`:
        goblin, `owlbaer`: owlbear)."""
        wanted = squashed(text)
        if not wanted:
            return None
        by_name = {squashed(m.name): m.slug for m in self.monsters}
        begun = [found for name, found in by_name.items() if name.startswith(wanted)]
        if len(begun) == 1:
            return begun[0]
        import difflib  # only when a name is wrong

        close = difflib.get_close_matches(wanted, by_name, n=1, cutoff=0.6)
        return by_name[close[0]] if close else None


def sheet_lines(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    """A sheet's own fields as a stat block's lines: `hp` 7, `skills` stealth, bows."""
    return [(field, worded(value)) for field, value in sheet.items() if value not in ("", [], {})]


def worded(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k} {worded(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(worded(v) for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)
