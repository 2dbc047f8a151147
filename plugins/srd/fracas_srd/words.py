"""The table's words: how a sentence says each action, which conditions it tells, and
what a roll means beyond its own words (a critical hit, a natural 1)."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from fracas.rules.api import Damaged, Event, Playable, PlayerField, Resolved, Rolled, Spent

from fracas_srd.attacks import CRITICAL
from fracas_srd.castings import CAST_AS, upcast_to
from fracas_srd.checks import ABILITY_NAMES, check_name, save_name, with_article
from fracas_srd.events import DEATH_SAVE, DeathSaves
from fracas_srd.sheets import SKILLS, Sheet, levelled
from fracas_srd.slots import ordinal, slot_level
from fracas_srd.spells import AGAIN
from fracas_srd.triggered import settled
from fracas_srd.turn import OFF_HAND, SECOND_WIND, bonus_form

VERBS = {
    "attack": "attacks",
    "death_save": "rolls a death save",
    "offhand": "attacks {targets} with the off hand",
    "opportunity": "makes an opportunity attack on",
    "multiattack": "attacks",
    "legendary": "uses its legendary {option} on {targets}",
    "lair": "uses its lair action {option} on {targets}",
    "react": "takes the readied action",
    "cast": "casts {spell} on",
    "dash": "dashes",
    "disengage": "takes the Disengage action",  # (what it makes them: "is disengaged")
    "dodge": "takes the Dodge action",
    "help": "helps",
    "hide": "hides",
    "search": "searches",
    "use": "uses an object",
    "ready": "readies an action",
    "stabilise": "tries to stabilise",
    "grapple": "tries to grapple",
    "shove": "tries to shove",
    "escape": "tries to escape {targets}'s grapple",
    "stand": "stands up",
    "move": "moves {feet} {feet:foot|feet}",
    "surprise": "rules who is surprised",
    "save": "makes a saving throw",  # with its ability, as `step_verb` names it
    "check": "makes an ability check",
    "spend": "spends {effect}",
    "second_wind": "uses Second Wind",
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
    "resist": "false: a legendary creature's failed save stands, its legendary resistance kept "
    "(srd-56: it chooses; unsaid, one is spent on the first save it fails)",
    "free_hand": "true: the grappler has a hand free (a weapon dropped or stowed); false: none "
    "is; unsaid: a shield and a weapon on the sheet fill both hands (srd-20)",
    "within_5ft": "the attacker is within 5 feet of the target (prone, paralysed, "
    "unconscious); unsaid: melee is, ranged is not",
    "hostile_near": "a hostile that can see the attacker is within 5 feet (ranged: disadvantage)",
    "range": "normal, long (disadvantage) or beyond (no attack) for a ranged weapon's attack "
    "(a spell has one range: no long range)",
    "cover": "the target's cover: none, half (+2 AC), three-quarters (+5), total",
    "unseen": "the target cannot see the attacker (advantage)",
    "unseeing": "the attacker cannot see the target (disadvantage)",
    "advantage": "another source of advantage the GM rules",
    "disadvantage": "another source of disadvantage the GM rules",
    "extra": "extra damage dice the GM adds on a hit (a feature not on the sheet), such as 2d6",
    "ally_near": "another foe of the target is within 5 feet of it (sneak attack)",
    "defence": "a target's reaction if its trigger comes: TARGET=shield, uncanny dodge, ...; "
    "anyone's counterspell to the spell cast: ID=counterspell",
    "on_hit": "a target's answer once it saw the attack hit (`act --ask`, then `answer`): "
    "shield, uncanny dodge or none",
    "on_damage": "a target's answer once the damage landed (`act --ask`, then `answer`): "
    "hellish rebuke or none",
    "spell": "the spell cast, by its name on the sheet",
    "ends": "the condition the spell ends, of several it could (lesser restoration: poisoned)",
    "word": "the word a command spell speaks: approach, drop, flee, grovel or halt",
    "option": "the legendary option or lair action, by its name on the sheet",
    "level": "the spell slot spent: the spell's own level, or higher to upcast it (srd-51)",
    "against": "the creature the helped ally attacks next",
    "trigger": "what the readied action waits for",
    "then": "the readied action: attack, dash, disengage, dodge or other",
    "defend_with": "the target's skill in the contest: athletics or acrobatics",
    "using": "the skill: athletics or acrobatics to escape; perception (the default) or "
    "investigation to search",
    "escape.using": "the skill: athletics or acrobatics (unsaid: the better)",
    "search.using": "the skill: perception (the default) or investigation",
    "push": "push 5 feet away instead of knocking prone",
    "bonus": "as a bonus action, by a feature (Cunning Action, Nimble Escape; srd-60)",
    "what": "the object used",
    "feet": "how far it moves, in feet",
    "difficult": "through difficult terrain: each foot costs one more (srd-52)",
    "leaves": (
        "the foes whose reach the move leaves, as leaves=hero,ilse: they alone may take an "
        "opportunity attack (srd-18)"
    ),
    "ability": "the ability of the save: str, dex, con, int, wis or cha",
    "skill": "the skill of the check (athletics, perception, ...) or an ability alone (str)",
    "dc": "the difficulty: meeting it succeeds (srd-M2)",
    "effect": "what `spend` adds to the latest check or save, after its roll: guidance or "
    "resistance (srd-81, srd-82)",
    "fail": "a condition the creature has on a failure, such as prone or frightened",
    "spend": "an effect whose die the creature adds to this roll, its choice: guidance on a "
    "check, resistance on a save (srd-81, srd-82; unsaid, the die is kept)",
}

# What a player sets from a phone (everything else is the GM's: the scene's cover, who sees
# whom, advantage ruled, a hostile beside the attacker, a target's own choices).
WEAPON = PlayerField("Weapon", "what you attack with, from your sheet", from_sheet=True)
# srd-30: unsaid, a melee attack is made from within 5 feet and a ranged one from farther off
NEAR = PlayerField(
    "Within 5 feet of your target?",
    "up close, a prone target is easier to hit and a paralysed or unconscious one is hit "
    "critically; from farther off, a prone target is harder to hit (No: a reach weapon at "
    "10 feet, a weapon thrown)",
    said=("By your weapon: melee yes, ranged no", "Yes, within 5 feet", "No, farther off"),
)
RANGE = PlayerField(
    "Range",
    "how far your shot goes: normal, long (disadvantage) or beyond",
    only_with=("weapon", "ranged weapon"),  # a melee attack has no range to say
)
ALLY = PlayerField("Ally beside it", "another foe of the target stands within 5 feet of it")
ACTION = frozenset(("action",))  # srd-3: a turn's budget


def either(form: str) -> frozenset[str]:
    """The action, or the bonus action where this character has a bonus form of it (a
    bonus-action spell; a rogue's Cunning Action, srd-60): the view counts that form as
    spent once the bonus action is taken, or where the character has none."""
    return ACTION | {bonus_form(form)}


ON_A_TURN = "spell cast on a turn"  # what `offers` names the spells not cast as reactions
ACTION_SPELL, BONUS_SPELL = "spell cast with an action", "spell cast with a bonus action"
MELEE = "melee weapon"  # what `offers` names the weapons of a melee attack (srd-18)
LIGHT = "light melee weapon"  # what `offers` names the weapons of an off-hand attack (srd-19)
HIT = (
    "d20 to hit (two with advantage or disadvantage; a bless d4 right after it), then the "
    "weapon's damage dice on a hit"
)
# The dice a spell has its caster roll, by its kind (srd-25, srd-43, srd-36): a save is the
# target's to roll (the server's), and magic missile's darts simply hit.
SPELL_DICE = (
    "the spell's own: a spell attack: d20 to hit (a bless d4 right after it), then its "
    "damage dice on a hit; magic missile: a d4 + 1 per dart, force, and never a roll to hit; "
    "a save spell: no d20 of yours (the targets' saves are the server's), its damage dice "
    "alone; a healing spell: its healing dice"
)
CONTEST = "d20 for your check (the other side's roll is the server's)"
AIMED = {"weapon": WEAPON, "within_5ft": NEAR, "range": RANGE, "ally_near": ALLY}
PLAYERS = {
    "attack": Playable(AIMED, dice=HIT, spends=ACTION),
    "offhand": Playable(  # a bonus action, srd-19
        {**AIMED, "weapon": replace(WEAPON, offered_as=LIGHT)},
        dice=HIT,
        spends=frozenset((OFF_HAND,)),
    ),
    "opportunity": Playable(
        {"weapon": replace(WEAPON, offered_as=MELEE), "ally_near": ALLY},
        reaction=True,
        dice=HIT,
        foes=True,
        on_acting=True,  # srd-18: a foe leaving reach on its own turn
        after_move=True,  # srd-18: it answers the foe's move, not a foe standing still
        spends=frozenset(("reaction",)),  # srd-4: one reaction a round
        targets_not=frozenset(("disengaged",)),  # srd-5: its movement provokes nothing
    ),
    "react": Playable(
        {"weapon": WEAPON, "within_5ft": NEAR, "ally_near": ALLY},
        reaction=True,
        dice=HIT,
        needs=frozenset(("readied",)),  # srd-24: only with an action readied
        spends=frozenset(("reaction",)),  # srd-4: one reaction a round
    ),
    "cast": Playable(
        {
            "spell": PlayerField(
                "Spell",
                "the spell you cast, from your sheet",
                from_sheet=True,
                required=True,
                offered_as=ON_A_TURN,
                narrowed_in="spells_now",  # srd-3: after a bonus-action spell, cantrips alone
            ),
            "level": PlayerField(
                "Slot level",
                "the slot you spend: the spell's own level, or higher to upcast it",
                only_with=("spell", "levelled spell"),  # a cantrip spends none
                counted_in="slots_left",  # srd-50: a level with a slot left
            ),
            # a spell attack's roll is what being beside the target or far off changes
            "within_5ft": PlayerField(
                "Within 5 feet of your target?",
                "up close, a prone target is easier to hit and a paralysed or unconscious one "
                "is hit critically; from farther off, a prone target is harder to hit",
                only_with=("spell", "spell attack"),
                said=("No, farther off", "Yes, within 5 feet", ""),  # unsaid: a ranged spell is not
            ),
            # no Range: long range is a weapon's (srd-17), a spell has one, and the server
            # refuses `range=long` on a spell attack
            "word": PlayerField(
                "Word",
                "the word you command: approach, drop, flee, grovel or halt",
                only_with=("spell", "spell of words"),  # command alone (srd-75)
            ),
            "ends": PlayerField(
                "Condition to end",
                "which of the target's conditions your spell ends, where it has several",
                only_with=("spell", "spell that cures"),  # lesser restoration (srd-70)
            ),
        },
        dice=SPELL_DICE,
        times="a spell of darts (magic missile) splits them: how many darts at each",
        times_with=("spell", "darts"),
        on_self=True,  # cure wounds, healing word, bless: a caster may be among the targets
        spends=either("spell"),
        # srd-3: the spells cast with an action under Action, the bonus-action ones under
        # Bonus action, each while that part of the turn is left
        by_part=("spell", (("action", ACTION_SPELL), (bonus_form("spell"), BONUS_SPELL))),
    ),
    "move": Playable(
        {
            "feet": PlayerField("Feet", "how far you move, up to your speed (more after a dash)"),
            "difficult": PlayerField(
                "Difficult terrain", "through difficult terrain: each foot costs one more"
            ),
            "leaves": PlayerField(  # srd-18: they alone may make an opportunity attack
                "Leaving the reach of",
                "the enemies you move away from, out of their reach: each may take an "
                "opportunity attack on you (none ticked: you leave nobody's reach)",
                combatant=True,
                several=True,
                foes=True,
            ),
        }
    ),
    "dash": Playable(spends=either("dash"), bonus="bonus"),
    "disengage": Playable(spends=either("disengage"), bonus="bonus"),
    "dodge": Playable(spends=ACTION),
    "help": Playable(
        {
            "against": PlayerField(
                "Against",
                "the creature your ally attacks next (none: help with a check)",
                combatant=True,
            )
        },
        allies=True,  # srd-5: the ally it aids
        spends=ACTION,
    ),
    "hide": Playable(dice="d20 for your Stealth check", spends=either("hide"), bonus="bonus"),
    "search": Playable(
        {"using": PlayerField("Using", "perception, or investigation for clues")},
        dice="d20 for your Perception or Investigation check",
        spends=ACTION,
    ),
    "use": Playable({"what": PlayerField("Object", "what you use, in a few words")}, spends=ACTION),
    "ready": Playable(
        {
            "trigger": PlayerField("When", "what you wait for, in a few words"),
            "then": PlayerField("Then", "what you do when it happens"),
        },
        spends=ACTION,
    ),
    "stabilise": Playable(
        dice="d20 for your Medicine check", targets_need=frozenset(("dying",)), spends=ACTION
    ),
    "grapple": Playable(dice=CONTEST, spends=ACTION),
    "shove": Playable(
        {"push": PlayerField("Push away", "push 5 feet away instead of knocking prone")},
        dice=CONTEST,
        spends=ACTION,
    ),
    "escape": Playable(
        {"using": PlayerField("Using", "your skill to break free (none: your better one)")},
        dice=CONTEST,
        needs=frozenset(("grappled",)),
        spends=ACTION,
    ),
    "stand": Playable(needs=frozenset(("prone",))),
    "second_wind": Playable(  # a bonus action, while the feature is unused and hurt
        dice="d10 for your Second Wind", spends=frozenset((SECOND_WIND,))
    ),
    "death_save": Playable(
        dice="d20 for your death save", down=True, needs=frozenset(("death save due",))
    ),
    # srd-14: the pass, offered to one who is down too, but not while the death save that
    # starts the dying turn waits: it is owed, and the rules refuse the player's own pass
    "next": Playable(down=True, unless=frozenset(("death save due",))),
}


def step_verb(command: dict[str, Any], events: Sequence[Event]) -> str | None:
    """A `cast` as its costs tell it: a spell cast with a higher slot says the slot's
    level ("casts cure wounds at level 2 on"); a monster's own ability written as a spell
    (a breath, a frightful presence), which spends its action and no spell, is used ("uses
    fire breath on"); a check or a save by the SRD's name ("makes a Dexterity saving
    throw"); a lasting spell's later attack attacks with it, no spell cast ("attacks Goblin
    with spiritual weapon", srd-72). None: "casts {spell} on"."""
    action = command.get("action")
    if action == "save" and command.get("ability") in ABILITY_NAMES:
        return f"makes {with_article(save_name(str(command['ability'])))}"
    if action == "check" and str(command.get("skill", "")).lower() in (*ABILITY_NAMES, *SKILLS):
        return f"makes {with_article(check_name(str(command['skill']).lower()))}"
    if action != "cast":
        return None
    actor, spell = command.get("actor"), str(command.get("spell") or "").lower()
    spent = [e for e in events if isinstance(e, Spent) and e.combatant == actor]
    cast = next((e.reason for e in spent if e.resource == "spell"), None)
    if cast is not None:
        slot = upcast_to(cast)
        return f"casts {{spell}} at {ordinal(slot)} level on" if slot else None
    if any(e.reason.lower() == f"{spell}{AGAIN}" for e in spent):
        return "attacks {targets} with {spell}"
    used = any(e.reason.lower().partition(",")[0] == spell for e in spent)
    return "uses {spell} on" if spell and used else None


# An attack's outcome as its step says it (attacks.py), and the verb a headline says it by;
# an opportunity attack keeps its own words (srd-18): the table reads it was a reaction.
STRUCK = {"hits": "hits", "misses": "misses", "critical hit": "lands a critical hit on"}
ONE_ATTACK = frozenset(("attack", "offhand", "react"))


def headline_verb(command: dict[str, Any], events: Sequence[Event]) -> str | None:
    """srd-6, srd-7: a step of one attack in a headline says what came of it ("wren hits
    gob: 6 damage", "wren misses gob"), from the attack's outcome as the step's events
    tell it; None (its sentence's verb) for anything else, or where it tells none."""
    if command.get("action") == "answer":  # a reaction spell (shield) answered is cast
        spent = (e for e in events if isinstance(e, Spent) and e.combatant == command["combatant"])
        return "casts" if any(e.resource.endswith("spell slot") for e in spent) else None
    if command.get("action") not in ONE_ATTACK:
        return None
    actor = command.get("actor")
    struck = [
        verb
        for e in events
        if isinstance(e, Resolved) and e.actor == actor
        for outcome, verb in STRUCK.items()
        if e.outcome.startswith(f"{outcome} ")
    ]
    return struck[0] if len(struck) == 1 else None


SAVING_THROW = "saving throw against "  # a save's purpose: "Dexterity saving throw against …"
SAVE_HARMS = "srd-31"  # the rule a save against a spell that deals damage cites


def target_outcomes(command: dict[str, Any], events: Sequence[Event]) -> dict[str, str]:
    """srd-25: a step's targets who saved against it, each as their save came to once the
    step is decided (legendary resistance's success too, srd-56): "saves" or "fails", and
    "saves, no damage" where the save took all of a spell's damage (srd-31): "mae casts
    sacred flame on gob: gob saves, no damage"; "...: gob fails, 5 damage"; a save the
    step's opening does not name (a bite's rider) is named where failed: "wolf hits maelis:
    maelis fails a Strength saving throw, 9 damage (prone)"."""
    targets = set(command.get("targets") or []) - {command.get("actor")}
    said: dict[str, str] = {}
    for at, event in enumerate(events):
        if not (
            isinstance(event, Rolled)
            and event.actor in targets
            and SAVING_THROW in event.purpose
            and event.result
        ):
            continue
        result = settled(event, events[at + 1 :]) or event.result
        saved = result.startswith("success")
        hurt = any(isinstance(e, Damaged) and e.target == event.actor for e in events)
        spared = saved and not hurt and SAVE_HARMS in event.rules
        failed = "fails" if command.get("action") == "cast" else f"fails {save_of(event)}"
        said[event.actor] = "saves, no damage" if spared else "saves" if saved else failed
    return {**death_saves(command, events), **said}


def save_of(event: Rolled) -> str:
    """The saving throw a roll is, with its article ("a Strength saving throw"): named where
    a step's opening does not say it (a bite's rider, not the spell cast)."""
    return with_article(event.purpose.partition(f" {SAVING_THROW}")[0] + " saving throw")


DEATH_SAVE_SAID = (  # a death save's result (damage.death_save_judge) as a headline says it
    ("a natural 20: ", "'s death save is a natural 20: "),
    ("a natural 1: two failures", "'s death save fails twice, a natural 1"),
    ("a failure", "'s death save fails"),
    ("a success", "'s death save succeeds"),
)


def death_saves(command: dict[str, Any], events: Sequence[Event]) -> dict[str, str]:
    """srd-14: the death save a step rolled for a dying creature as the turn passed to it
    (not its own roll of one), as its outcome: "maelis ends the turn: ilse's death save
    fails (1 of 3)"."""
    said: dict[str, str] = {}
    for event in events:
        if not (
            isinstance(event, Rolled)
            and event.purpose == DEATH_SAVE
            and event.result
            and event.actor != command.get("actor")
        ):
            continue
        for result, words in DEATH_SAVE_SAID:
            if event.result.startswith(result):
                said[event.actor] = words + event.result.removeprefix(result)
                break
    return said


def facts(event: Event) -> frozenset[str]:
    """srd-7: a critical hit. A natural 1 is no fumble (the SRD 5.1 has none): it simply
    misses, which its roll's own words say ("natural 1: miss"), and no screen marks it."""
    if isinstance(event, Rolled) and (event.result or "").startswith(CRITICAL):
        return frozenset(("critical",))
    return frozenset()


ASKED_ROLLS = {
    "on_hit": "The attack was rolled before you were asked; once you answer, the server rolls"
    " the attack's damage if it still hits, and your reaction's dice.",
    "on_damage": "The attack and its damage were rolled before you were asked; once you"
    " answer, the server rolls your reaction's dice alone.",
}


def asked_rolls(field: str) -> str:
    """What a target asked once the trigger showed reads of the dice (srd-39, srd-41): at the
    hit, the damage is still to roll; at the damage, only the reaction's dice are."""
    return ASKED_ROLLS.get(field, "")


def reaction_figures(sheet: Sheet, option: str, own: Mapping[str, Any]) -> str:
    """What a reaction the target may take does, in figures from their sheet (srd-39):
    shield's "+5 AC if it hits, until your next turn", hellish rebuke's dice and save, the
    slot it spends, the lowest of its level or higher left in the row `own` shows (srd-50:
    "a level 2 slot: no level 1 left"); uncanny dodge's half damage."""
    feature = next((f for f in sheet.features if f.name == option and f.trigger), None)
    if feature is not None:
        return "half the attack's damage if it hits" if feature.halves else ""
    spell = next((s for s in sheet.spells if s.name == option), None)
    if spell is None:
        return ""
    said = []
    if spell.effect is not None and spell.effect.ac:
        said.append(
            f"{spell.effect.ac:+d} AC, this attack included, until your next turn; cast only "
            "if the attack's total hits you and this turns it into a miss (else the slot stays)"
        )
    if spell.damage:
        save = f", {spell.save.upper()} save" if spell.save else ""
        said.append(f"{spell.damage} {spell.type}{save}")
    if spell.charge:
        said.append(f"{spell.charge} {spell.type} on your next melee hit")
    if spell.level and not spell.innate:
        left = list(own.get("slots_left") or [])
        higher = [n for n in range(spell.level, len(left) + 1) if left[n - 1] > 0]
        slot = higher[0] if higher and len(left) >= spell.level else spell.level
        below = ordinal(spell.level)
        below += "" if slot - 1 == spell.level else f" to {ordinal(slot - 1)}"
        lower = f": no {below}-level left" if slot > spell.level else ""
        said.append(f"{levelled(slot, 'slot')}{lower}")
    return "; ".join(said)


AT_ZERO = "damage at 0 HP: "  # the reason of the failures damage at 0 HP adds (srd-15)


def event_words(event: Event, names: Mapping[str, str]) -> str | None:
    """What a sentence says of srd's own events: the death save failures damage at 0 HP
    adds (srd-15), "Wren suffers two death save failures (2 of 3): damage at 0 HP, a
    critical hit", which no roll of the step tells; None for the rest (a death save's own
    roll says its count)."""
    if not isinstance(event, DeathSaves) or not event.reason.startswith(AT_ZERO):
        return None
    two = "two" in event.reason.removeprefix(AT_ZERO)
    failures = "two death save failures" if two else "one death save failure"
    why = "damage at 0 HP, a critical hit" if two else "damage at 0 HP"
    who = names.get(event.target, event.target)
    return f"{who} suffers {failures} ({event.failures} of 3): {why}"


def spent_words(event: Spent) -> str | None:
    """srd's words for its own resources spent, read from the log's (so a log of any age
    reads them): a spell cast, "Maelis casts bless, a 1st-level spell, with an action" (a
    cantrip's says it spends no slot), and the slot it spends, "Maelis spends a 1st-level
    spell slot: 3 of 4 left" (srd-50); None for any other resource (fracas's words)."""
    level = slot_level(event.resource)
    if level:
        return f"{event.combatant} spends {levelled(level)}: {event.reason}"
    found = CAST_AS.search(event.reason) if event.resource == "spell" else None
    if found is None:  # the oldest words ("action:2") keep fracas's
        return None
    name = event.reason[: found.start()].removesuffix(", ")
    how = f"with {found['casting']}"
    if not found["level"]:
        return f"{event.combatant} casts {name}, a cantrip (no spell slot), {how}"
    cast = levelled(int(found["level"]), "spell")
    upcast = f" at {ordinal(int(found['slot']))} level" if found["slot"] else ""
    return f"{event.combatant} casts {name}, {cast},{upcast} {how}"
