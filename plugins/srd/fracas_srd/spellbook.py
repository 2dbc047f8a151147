"""The plugin's spell list: the SRD 5.1 spells its rules can play, as its sample casters
write them (samples/cleric.toml and samples/wizard.toml), by name. A bestiary spellcaster
carries those of its spells that are on it (the others it cannot cast here)."""

import functools
import tomllib
from importlib import resources
from typing import Any

CASTERS = ("cleric", "wizard")
# A cantrip's damage dice grow at these caster levels (the SRD's cantrips: "2d8 at 5th").
CANTRIP_STEPS = (5, 11, 17)


@functools.cache
def spellbook() -> dict[str, dict[str, Any]]:
    """Each spell of the sample casters by name, but a character's own (a tiefling's
    innate hellish rebuke, cast with its own ability)."""
    found: dict[str, dict[str, Any]] = {}
    for caster in CASTERS:
        text = resources.files("fracas_srd").joinpath(f"samples/{caster}.toml").read_text()
        for spell in tomllib.loads(text).get("spells", []):
            if not spell.get("innate") and not spell.get("ability"):
                found.setdefault(spell["name"], spell)
    return found


def cantrip_dice(damage: str, caster_level: int) -> str:
    """A cantrip's damage at a caster level: `1d8` at 10th is `2d8`."""
    count, _, rest = damage.partition("d")
    more = sum(caster_level >= step for step in CANTRIP_STEPS)
    return f"{int(count or 1) * (1 + more)}d{rest}" if rest else damage
