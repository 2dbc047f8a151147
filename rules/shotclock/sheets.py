"""Sheets and options: a fighter's attributes, skills and weapons, and the table's choices."""

from typing import Annotated, Literal

import msgspec

from fracas.rules.api import Bounded

DODGE_SKILLS = ("arcanowave device", "creature powers", "guns", "martial arts")  # mechanic 3


SKILL_ATTRIBUTE = {"guns": "dexterity", "martial arts": "agility"}


SKILLS = (  # the first edition's skills
    "arcanowave device", "creature powers", "deceit", "driving", "fix-it", "gambling", "guns",
    "info", "intimidation", "intrusion", "leadership", "martial arts", "medicine", "police",
    "sabotage", "seduction", "sorcery", "fu", "mutant",
)  # fmt: skip


# An attribute or a skill's Action Value: a mook's 7 to a boss's 18 or so; 30 leaves room
AV = Annotated[int, msgspec.Meta(ge=0, le=30)]
Damage = Annotated[int, msgspec.Meta(ge=0, le=50)]  # a weapon's Damage Value
Shots = Annotated[int, msgspec.Meta(ge=1, le=20)]  # what an action costs (001-6, 001-17)


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    damage: Damage = 10
    skill: str = "guns"
    shots: Shots = 3  # 001-6: aiming and firing, a hand-to-hand attack


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    speed: AV = 5
    toughness: AV = 5
    constitution: AV = 5
    strength: AV = 5
    agility: AV = 5
    dexterity: AV = 5
    move: AV = 5
    skills: dict[str, AV] = {}
    weapons: list[Weapon] = []
    mook: bool = False
    big_bruiser: bool = False
    blast: bool = False
    parry: str = "martial arts"

    def av(self, skill: str) -> int:
        skill = skill.lower()
        if skill in self.skills:
            return self.skills[skill]
        attribute = SKILL_ATTRIBUTE.get(skill)
        return getattr(self, attribute) if attribute else 0

    @property
    def dodge(self) -> int:
        """Mechanic 3: the best of the combat skills (Sorcery with Blast) and Agility."""
        skills = [*DODGE_SKILLS, *(("sorcery",) if self.blast else ())]
        return max([self.agility, *(self.skills[s] for s in skills if s in self.skills)])


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every default of RULES.md §001 'Ambiguities', overridable per encounter."""

    same_shot_order: Literal["speed", "gm"] = "speed"
    hit_on_zero: bool = True
    active_dodge_bonus: Bounded = 3
    defence_shots: Bounded = 1
    surcharge_defences: bool = True
    carry_over_above: Bounded = 3
    snapshot_penalties: tuple[Bounded, ...] = (-2, -5)
    minimum_shots: Bounded = 1
    damage_floor: Bounded = 0
    impairment_at: tuple[Bounded, ...] = (25, 30)
    death_checks_at: Bounded = 35
    big_bruiser_bonus: Bounded = 5
    move_cap: Bounded = 3
    initiative_dice: str = "d6"
    action_dice: str = "d6!-d6!"
    closed_dice: str = "d6-d6"


OPTION_HELP = {
    "same_shot_order": "on the same shot: higher Speed first, or as the GM likes (001-4)",
    "hit_on_zero": "whether an action result equal to the Difficulty hits",
    "active_dodge_bonus": "what an active dodge adds to Dodge (001-M3)",
    "defence_shots": "what an off-turn defence takes from the next shot (001-12)",
    "surcharge_defences": (
        "whether a continuous action's extra shot applies to defences too (001-16)"
    ),
    "carry_over_above": "actions costing more than this carry over into the next sequence (001-11)",
    "snapshot_penalties": "the AV penalties for cutting 1 and 2 shots off an action (001-14)",
    "minimum_shots": "the fewest shots a snapshot can leave an action costing",
    "damage_floor": "the least damage a hit deals",
    "impairment_at": "the wound points at which impairment reaches -1 and -2 (001-M4)",
    "death_checks_at": "the wound points from which Death Checks are made (001-M4)",
    "big_bruiser_bonus": "how much Big Bruiser raises the wound thresholds",
    "move_cap": "the most a character moves in a sequence, in Move units (001-7)",
    "initiative_dice": "the initiative dice, closed (001-2)",
    "action_dice": "the dice of an action check, open (001-M1)",
    "closed_dice": "the dice of a closed check, such as a Death Check",
}
