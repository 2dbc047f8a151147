"""A ruleset's bestiary: monsters ready to add by name (`fracas monsters`, `add --monster`),
each a sheet of the ruleset's, with the attribution its licence asks for."""

import re
from typing import Any

import msgspec

from fracas.ledger import NotFoundError
from fracas.ledger.errors import said
from fracas.rules.names import did_you_mean


def slug(name: str) -> str:
    """How a monster is named on the command line: `adult-red-dragon`."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


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
        """A monster by its name or slug, in any case; one clear line if there is none."""
        wanted = slug(name)
        for monster in self.monsters:
            if monster.slug == wanted:
                return monster
        names = [m.slug for m in self.monsters]
        raise NotFoundError(
            f"no monster {said(name)} in the bestiary; {did_you_mean(wanted, names)}"
        )

    def search(self, text: str = "") -> list[Monster]:
        """The monsters whose name or type holds `text` (all of them for none), by name."""
        wanted, words = text.lower().strip(), slug(text)
        found = [m for m in self.monsters if words in m.slug or wanted in m.kind.lower()]
        return sorted(found, key=lambda m: m.name.lower())
