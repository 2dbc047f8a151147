"""The table's words: how a sentence says each action, which conditions it tells, and
what a roll means beyond its own words (a critical hit, a natural 1)."""

from fracas.rules.api import Event, Rolled

from fracas_srd.attacks import CRITICAL, FUMBLE

VERBS = {
    "attack": "attacks",
    "offhand": "attacks with the off hand",
    "opportunity": "makes an opportunity attack on",
    "multiattack": "attacks",
    "legendary": "uses its legendary {option} on {targets}",
    "lair": "uses its lair action {option} on {targets}",
    "react": "takes the readied action",
    "cast": "casts {spell} on",
    "dash": "dashes",
    "disengage": "disengages",
    "dodge": "dodges",
    "help": "helps",
    "hide": "hides",
    "search": "searches",
    "use": "uses an object",
    "ready": "readies an action",
    "stabilise": "tries to stabilise",
    "grapple": "tries to grapple",
    "shove": "tries to shove",
    "escape": "tries to escape",
    "stand": "stands up",
    "move": "moves {feet} feet",
    "surprise": "rules who is surprised",
    "save": "makes a {ability} save",
    "check": "makes a {skill} check",
}
TOLD = frozenset(
    (
        "prone",
        "grappled",
        "stable",
        "hidden",
        "concentrating",
        "restrained",
        "surprised",
        "paralysed",
        "stunned",
        "frightened",
        "poisoned",
        "blinded",
        "invisible",
    )
)
DOWN = frozenset(("unconscious", "dying", "stable"))
OUT = frozenset(("dead",))
FIELD_HELP = {
    "within_5ft": "the attacker is within 5 feet of the target (prone, paralysed, "
    "unconscious); unsaid: melee is, ranged is not",
    "hostile_near": "a hostile that can see the attacker is within 5 feet (ranged: disadvantage)",
    "range": "normal, long (disadvantage) or beyond (no attack) for a ranged attack",
    "cover": "the target's cover: none, half (+2 AC), three-quarters (+5), total",
    "unseen": "the target cannot see the attacker (advantage)",
    "unseeing": "the attacker cannot see the target (disadvantage)",
    "advantage": "another source of advantage the GM rules",
    "disadvantage": "another source of disadvantage the GM rules",
    "extra": "extra damage dice the GM adds on a hit (a feature not on the sheet), such as 2d6",
    "ally_near": "another foe of the target is within 5 feet of it (sneak attack)",
    "defence": "a target's reaction if its trigger comes: TARGET=shield, uncanny dodge, ...",
    "spell": "the spell cast, by its name on the sheet",
    "option": "the legendary option or lair action, by its name on the sheet",
    "level": "the spell slot spent: the spell's own level, or higher to upcast it (srd-51)",
    "against": "the creature the helped ally attacks next",
    "trigger": "what the readied action waits for",
    "then": "the readied action: attack, dash, disengage, dodge or other",
    "defend_with": "the target's skill in the contest: athletics or acrobatics",
    "using": "the escaper's skill: athletics or acrobatics",
    "push": "push 5 feet away instead of knocking prone",
    "what": "the object used",
    "feet": "how far it moves, in feet",
    "difficult": "through difficult terrain: each foot costs one more (srd-52)",
    "ability": "the ability of the save: str, dex, con, int, wis or cha",
    "skill": "the skill of the check (athletics, perception, ...) or an ability alone (str)",
    "dc": "the difficulty: meeting it succeeds (srd-M2)",
    "fail": "a condition the creature has on a failure, such as prone or frightened",
}


def facts(event: Event) -> frozenset[str]:
    """srd-7: a critical hit, and a natural 1 on an attack roll."""
    if not isinstance(event, Rolled) or event.result is None:
        return frozenset()
    if event.result.startswith(CRITICAL):
        return frozenset(("critical",))
    if event.result.startswith(FUMBLE):
        return frozenset(("fumble",))
    return frozenset()
