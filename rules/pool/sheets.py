"""Sheets and options: a fighter's attributes, abilities and weapons, and the table's choices."""

from typing import Annotated, Literal

import msgspec

from fracas.rules.api import BadInputError, Bounded, did_you_mean

WeaponKind = Literal["brawl", "melee", "firearm"]


ATTRIBUTES = ("brawn", "dexterity", "perception", "intellect", "charisma")


ABILITIES = (  # mechanic 7
    "alertness", "animals", "athletics", "brawl", "crafts", "culture", "drive", "firearms",
    "influence", "investigation", "medicine", "melee", "occult", "performance", "science",
    "stealth", "survival", "technology", "thievery",
)  # fmt: skip


Attribute = Annotated[int, msgspec.Meta(ge=1, le=10)]  # a human's 1-5, room for the uncanny
Ability = Annotated[int, msgspec.Meta(ge=0, le=5)]  # mechanic 7: Abilities are rated 0-5
Difficulty = Annotated[int, msgspec.Meta(ge=2, le=10)]  # what a d10 must reach (mechanic 1)
Damage = Annotated[int, msgspec.Meta(ge=0, le=20)]  # Weapon Damage and Armor (mechanic 2)
Body = Annotated[int, msgspec.Meta(ge=1, le=99)]  # mechanic 3: 5 + Brawn / 2 for a human


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Mechanic 2's weapon table: the roll, the Difficulty and the Weapon Damage."""

    name: str
    kind: WeaponKind = "melee"
    attribute: str = "brawn"
    ability: str = "melee"
    difficulty: Difficulty = 6
    damage: Damage = 0
    committed: bool = False


FISTS = Weapon("fists", "brawl", "brawn", "brawl", 5, 0)


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    brawn: Attribute = 2
    dexterity: Attribute = 2
    perception: Attribute = 2
    intellect: Attribute = 2
    charisma: Attribute = 2
    abilities: dict[str, Ability] = {}
    weapons: list[Weapon] = []
    armor: Damage = 0
    body: Body | None = None
    firearm_reactions: bool = False  # a Power that lets the character react to gunfire

    def pool(self, attribute: str, ability: str) -> int:
        """Attribute + Ability; Dexterity + Perception (initiative) adds two attributes."""
        if attribute not in ATTRIBUTES:
            hint = did_you_mean(attribute, ATTRIBUTES)
            raise BadInputError(f"no attribute {attribute!r}; {hint}")
        if ability not in (*ATTRIBUTES, *ABILITIES, *self.abilities):
            raise BadInputError(f"no ability {ability!r}; {did_you_mean(ability, ABILITIES)}")
        second = getattr(self, ability) if ability in ATTRIBUTES else self.abilities.get(ability, 0)
        return getattr(self, attribute) + second


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §004 'Ambiguities', overridable per encounter."""

    difficulty: Bounded = 6
    unskilled_difficulty: Bounded = 1
    initiative_difficulty: Bounded = 6
    dodge_difficulty: Bounded = 6
    evade_difficulty: Bounded = 7
    brawl_parry_with_weapon: Bounded = -1
    quick_action_dice: Bounded = 2
    desperate_dice: Bounded = 2
    split_minimum: Bounded = 2
    botched_defence_counts: bool = False
    body_penalties: tuple[Bounded, ...] = (4, 3, 2, 1, 1)  # Body remaining 1, 2, 3, 4, 5
    clash_as_desperate: bool = True
    exertion_outcome: Bounded = 1


OPTION_HELP = {
    "difficulty": "the usual Difficulty (004-M1)",
    "unskilled_difficulty": "what having no ranks in the Ability adds to the Difficulty",
    "initiative_difficulty": "the Difficulty of the initiative roll (004-M6)",
    "dodge_difficulty": "the Difficulty of a dodge (004-13)",
    "evade_difficulty": "the Difficulty of an evade (004-14)",
    "brawl_parry_with_weapon": (
        "the Difficulty change for parrying a brawl attack with a melee weapon (004-16)"
    ),
    "quick_action_dice": "the dice each quick action takes from the round's Action (004-3)",
    "desperate_dice": "the dice a desperate reaction takes from the next Action (004-19)",
    "split_minimum": "the fewest dice each part of a split pool may have (004-8)",
    "botched_defence_counts": "whether a defence outcome below 0 raises the attack's outcome",
    "body_penalties": "the dice lost at Body left 1, 2, 3, 4 and 5 (004-M4)",
    "clash_as_desperate": "whether a clash may be a desperate reaction",
    "exertion_outcome": "the Outcome an exertion adds (004-M5)",
}
