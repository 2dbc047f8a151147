"""The table's words for this ruleset, and its rules reference: every rule id it cites,
stated in fracas's own words with the SRD 5.1 section in brackets, and the attribution the
CC-BY-4.0 licence asks for wherever the rules are shown."""

import re

from fracas.rules.api import Reference, Source, Statement

ATTRIBUTION = (
    'This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by '
    "Wizards of the Coast LLC and available at "
    "https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed "
    "under the Creative Commons Attribution 4.0 International License available at "
    "https://creativecommons.org/licenses/by/4.0/legalcode."
)

STATEMENTS = {
    "srd-M1": (
        "Ability modifier. Six scores (Str, Dex, Con, Int, Wis, Cha), usually 1–30. The "
        "modifier is floor((score − 10) / 2). [Using Ability Scores]"
    ),
    "srd-M2": (
        "The d20 test. Roll d20, add the modifiers; meeting or beating the target number (a DC,"
        " or an Armor Class for an attack) succeeds. [Using Ability Scores]"
    ),
    "srd-M3": (
        "Advantage and disadvantage. With advantage roll 2d20 and keep the higher; with "
        "disadvantage keep the lower. Several sources of the same kind count once; if there is "
        "at least one source of each, the roll has neither, however many of each there are. "
        "[Advantage and Disadvantage]"
    ),
    "srd-M4": (
        "Proficiency bonus. Added once to attack rolls with proficient weapons, to proficient "
        "skills and saves, and to save DCs: +2 at level or challenge rating 0–4, +3 at 5–8, +4 "
        "at 9–12, +5 at 13–16, +6 at 17–20 (a sheet may state it outright). [Proficiency Bonus]"
    ),
    "srd-M5": (
        "Saving throw. d20 + ability modifier (+ proficiency if proficient) against a DC. A "
        "spell's DC is 8 + proficiency + the caster's spellcasting ability modifier. [Saving "
        "Throws; Spellcasting]"
    ),
    "srd-1": (
        "Surprise. The GM decides who is surprised at the start. A surprised combatant can't "
        "move or take an action on its first turn, and can't take a reaction until that turn "
        "ends. [Surprise]"
    ),
    "srd-2": (
        "Initiative. Every combatant rolls a Dexterity check (d20 + Dex modifier, + any "
        "initiative bonus on the sheet) once, at the start. The order runs from highest to "
        "lowest and is the same every round. The GM may roll once for a group of identical "
        "creatures, who then act together. Ties: the GM decides among monsters, players among "
        "their characters, and the GM between the two; fracas's default is the higher Dexterity"
        " score first, then a roll-off (recorded as a roll like any other), overridable by the "
        "GM. [Initiative]"
    ),
    "srd-3": (
        "The turn. On its turn a combatant may move up to its speed and take one action. It may"
        " take one bonus action only when a feature or spell grants one, and one free "
        "interaction with an object. Movement may be split before, between and after the "
        "attacks of its action. A combatant that casts a spell as a bonus action may cast no "
        "other spell that turn except a cantrip with a casting time of one action. [Your Turn; "
        "Bonus Action (Casting a Spell)]"
    ),
    "srd-4": (
        "Reactions. A combatant has one reaction per round, regained at the start of its own "
        "turn; a reaction may interrupt another's turn. [Reactions]"
    ),
    "srd-5": (
        "The actions. Attack, Cast a Spell, Dash (extra movement equal to speed), Disengage "
        "(its movement provokes no opportunity attacks for the rest of the turn), Dodge (until "
        "its next turn, attacks against it have disadvantage if it can see the attacker, and it"
        " makes Dex saves with advantage; lost if it is incapacitated or its speed drops to 0),"
        " Help (an ally's next ability check, or next attack roll against a named creature "
        "within 5 feet of the helper, before the helper's next turn, has advantage), Hide, "
        "Ready, Search, Use an Object. [Actions in Combat]"
    ),
    "srd-6": (
        "Attack roll. d20 + ability modifier (Str for melee, Dex for ranged; finesse weapons "
        "take either) + proficiency if proficient, against the target's AC; meeting or beating "
        "it hits. A spell attack adds the caster's spellcasting ability modifier + proficiency "
        "instead. [Making an Attack; Attack Rolls; Spell Attack Rolls]"
    ),
    "srd-7": (
        "Natural 20 and natural 1. An attack roll whose d20 shows 20 hits whatever the "
        "modifiers and AC, and is a critical hit; one whose d20 shows 1 misses whatever the "
        "modifiers. [Rolling 1 or 20]"
    ),
    "srd-8": (
        "Critical hit. Roll all of the attack's damage dice twice and add them together, then "
        "add the modifiers once. [Critical Hits]"
    ),
    "srd-9": (
        "Damage and hit points. Damage rolls add the ability modifier used for the attack (not "
        "a bonus action's off-hand attack, unless it is negative). A spell's damage adds only "
        "what the spell's text says. Damage reduces hit points; hit points never go below 0. "
        "[Damage Rolls; Hit Points]"
    ),
    "srd-10": (
        "Resistance, vulnerability, immunity. By damage type. Apply other modifiers first, then"
        " resistance (half, rounded down), then vulnerability (double); immunity takes all of "
        "it. Several resistances to one type count once. [Damage Resistance and Vulnerability]"
    ),
    "srd-11": (
        "Temporary hit points. Damage is first adjusted by srd-10 (resistance, vulnerability, "
        "immunity); what is left comes off temporary hit points first, then hit points. They do"
        " not stack: a creature with some that gains more keeps whichever it chooses (default: "
        "the larger). They are not healing and may sit above the maximum. [Temporary Hit "
        "Points]"
    ),
    "srd-12": (
        "Healing. Restores hit points up to the maximum; a creature at 0 that regains any hit "
        "points is conscious again and stops making death saves. [Healing]"
    ),
    "srd-13": (
        "Dropping to 0. Damage that leaves a creature at 0 with damage left over equal to or "
        "more than its hit point maximum kills it outright. Otherwise a character falls "
        "unconscious and is dying; a monster dies at 0 (the GM may have a monster fall "
        "unconscious instead, an option). [Dropping to 0 Hit Points; Instant Death; Monsters "
        "and Death]"
    ),
    "srd-14": (
        "Death saving throws. A dying creature rolls a d20 at the start of each of its turns: "
        "10 or more is a success, less a failure. Three successes: stable. Three failures: "
        "dead. They need not be consecutive, and both counts reset when it regains hit points "
        "or becomes stable. A natural 1 counts as two failures; a natural 20 restores 1 hit "
        "point. [Death Saving Throws]"
    ),
    "srd-15": (
        "Damage at 0. Any damage to a creature at 0 hit points is one death save failure, two "
        "if it was a critical hit; if that damage equals or exceeds its hit point maximum, it "
        "dies. [Damage at 0 Hit Points]"
    ),
    "srd-16": (
        "Stabilising. An action and a DC 10 Wisdom (Medicine) check make a dying creature "
        "stable: unconscious at 0, no more death saves. Damage makes it dying again, and that "
        "same damage counts as death save failures as srd-15 says. [Stabilizing a Creature]"
    ),
    "srd-17": (
        "Ranged attacks in close combat and at range. A ranged attack has disadvantage when a "
        "hostile creature that can see the attacker and is not incapacitated is within 5 feet "
        "of it, and when the target is beyond the weapon's normal range; beyond long range it "
        "is impossible. [Ranged Attacks]"
    ),
    "srd-18": (
        "Opportunity attack. When a hostile creature it can see leaves its reach, a combatant "
        "may spend its reaction on one melee attack against it. Disengaging, teleporting or "
        "being moved by someone else does not provoke. [Opportunity Attacks]"
    ),
    "srd-19": (
        "Two-weapon fighting. After attacking with a light melee weapon in one hand, a bonus "
        "action may attack with a light melee weapon in the other; its damage adds no positive "
        "ability modifier. [Two-Weapon Fighting]"
    ),
    "srd-20": (
        "Grapple. Replaces one attack: the attacker's Strength (Athletics) check against the "
        "target's Strength (Athletics) or Dexterity (Acrobatics), the target's choice; the "
        "target may be at most one size larger. Success: the target is grappled. Escaping takes"
        " an action and wins the same contest. [Grappling]"
    ),
    "srd-21": (
        "Shove. Replaces one attack, same contest as a grapple: the target is knocked prone or "
        "pushed 5 feet away. [Shoving a Creature]"
    ),
    "srd-22": (
        "Cover. Half cover: +2 to AC and Dex saves; three-quarters: +5; total cover: cannot be "
        "targeted directly. [Cover]"
    ),
    "srd-23": (
        "Unseen attackers and targets. Attacking a target that cannot see you has advantage; "
        "attacking one you cannot see has disadvantage. An attack, hit or miss, gives a hidden"
        " attacker away: it is hidden no more, and one the players did not see (`add "
        "--hidden`) is shown to them. [Unseen Attackers and Targets]"
    ),
    "srd-24": (
        "Ready. The combatant names a trigger and an action; when the trigger happens before "
        "its next turn it may take that action as its reaction, right after the trigger "
        "finishes, or let it pass. (An opportunity attack, by contrast, happens right before "
        "the creature leaves reach.) [Ready; Opportunity Attacks]"
    ),
    "srd-25": (
        "Saving throw effects. An effect that calls for a save states what a success does; for "
        'damage, "half on a success" halves it (rounded down) after the roll. [Saving Throws]'
    ),
    "srd-26": (
        "Concentration. Damage to a concentrating creature calls for a Constitution save, DC 10"
        " or half the damage taken (rounded down), whichever is higher, one save per source of "
        'damage, made right after that damage (in a multiattack, after each hit). "Damage '
        'taken" is after srd-10, and includes what temporary hit points absorbed; immunity '
        "leaves none, so no save. Failure, being incapacitated or dying ends the concentration;"
        " so does starting another concentration effect. The GM's harm in a fight rolls it at"
        " once, as an attack's damage does (on the faces typed with --dice); only the party's"
        " harm between fights, with no dice to roll, leaves the save owed, and the creature's"
        " next Con save at that DC is it. [Concentration]"
    ),
    "srd-27": (
        "Conditions. Each changes the rolls above while it lasts: blinded: its attacks have "
        "disadvantage, attacks against it advantage; frightened: disadvantage on its checks and"
        " attacks while the source is in sight, and it can't willingly move closer to the "
        "source; grappled: speed 0; incapacitated: no actions or reactions; invisible: its "
        "attacks have advantage, attacks against it disadvantage; paralysed, stunned, "
        "unconscious: incapacitated, automatically fail Str and Dex saves, attacks against have"
        " advantage; for paralysed and unconscious, a hit from within 5 feet is a critical hit;"
        " unconscious also drops what it holds and falls prone, which gives a hidden creature"
        " away (it is hidden no more); poisoned: disadvantage on "
        "attacks and ability checks; prone: its attacks have disadvantage; attacks against it "
        "have advantage from within 5 feet, disadvantage from farther; standing up costs half "
        "its speed; restrained: speed 0, its attacks and Dex saves have disadvantage, attacks "
        "against it advantage. [Appendix PH-A: Conditions]"
    ),
    "srd-28": (
        'Durations. An effect lasts a number of rounds (10 rounds are a minute), or "until the '
        "start/end of\" a named creature's next turn, or until the affected creature succeeds on"
        ' a save it repeats at the end of each of its turns ("save ends"). It ends by itself, '
        "as an event in the log, at that point of the order: rounds are counted from the "
        "initiative count where the effect began, and it ends as the fight reaches that count "
        "again, N rounds later. [Durations; the spell and monster "
        "entries use these forms]"
    ),
    "srd-29": (
        "Multiattack and legendary actions. A monster's Multiattack is one action made of the "
        "attacks its sheet lists, each with its own target, in the sheet's order unless the GM "
        "says otherwise. A legendary creature starts combat with N legendary actions (its "
        "sheet's number, usually 3) and regains them all at the start of its own turn. Each "
        "option has a cost (1 unless the sheet says 2 or 3); it takes one option at a time, "
        "only at the end of another creature's turn, and several turn-ends may each see one. It"
        " can't take them while incapacitated, nor, if surprised, before its first turn ends. "
        "One taken after a turn has ended and before the next creature acts is taken at the "
        "end of the turn that ended, and is filed under it. [Monsters: Actions; Legendary "
        "Actions]"
    ),
    "srd-30": (
        "Melee within 5 feet. A melee attack is made on a target within the attacker's reach, "
        "5 feet for most creatures and weapons: fracas takes a melee attack as made from within"
        " 5 feet unless the table says otherwise (`-o within_5ft=false`, a reach weapon at 10 "
        "feet). A ranged attack is as the table states it: beyond 5 feet unless said. [Melee "
        "Attacks; Reach]"
    ),
    "srd-31": (
        "The save, then the damage. An effect that calls for a save and deals damage is "
        "resolved in the order the table rolls it: every target's save first, then the damage,"
        " rolled once for all the targets that take any; when no target takes any (a save that"
        " negates, and every target made it), no damage is rolled. [Saving Throws; Damage "
        "Rolls]"
    ),
    "srd-32": (
        "Bonuses and penalties from effects. A spell or feature may change a creature's AC "
        "(shield of faith +2, shield +5) or add a number or a die to its attack rolls, saving "
        "throws or ability checks (bless: +1d4; bane: −1d4), rolled with the d20 each time "
        "while it lasts. The same spell's effects do not combine: a creature under two castings"
        " of one spell has it once. [Bless; Bane; Shield of Faith; Shield; Combining Magical "
        "Effects]"
    ),
    "srd-33": (
        "Other effects. While it lasts, an effect may give advantage or disadvantage on a "
        "creature's attack rolls, saves or checks or on attacks against it (combined with every"
        " other source as srd-M3 says), resistance to a damage type (srd-10), or extra damage "
        "dice on its weapon hits (doubled on a critical, srd-8). [Advantage and Disadvantage; "
        "Damage Resistance and Vulnerability; Spells]"
    ),
    "srd-34": (
        "Effects end. A spell's effect on each target lasts its duration (srd-28) and ends "
        "early when the concentration that holds it ends (srd-26); a feature's holds while the "
        "sheet has it. A target that dies is held no more: the spell ends on it. Once the "
        "spell has ended on every target (each saved, died, or its time ran out), the spell "
        "is over and so is the concentration on it; one that held no target is not "
        "concentrated on. [Duration; Concentration; Hold Person]"
    ),
    "srd-35": (
        "Riders. A hit may also call for a save: the target of a wolf's bite makes a DC 11 "
        "Strength save or is knocked prone. The save is rolled after the damage; a target "
        "already under the condition makes none. [Monsters: Wolf; Saving Throws]"
    ),
    "srd-36": (
        "Saving throws the GM calls for. At any time, in or out of turn: d20 + the ability "
        "modifier, + proficiency if proficient in the save (srd-M5); a paralysed, petrified, "
        "stunned or unconscious creature fails Str and Dex saves (srd-27); effects add their "
        "bonus or penalty (srd-32). The GM may name a condition the creature has if it fails. "
        "[Saving Throws]"
    ),
    "srd-37": (
        "Ability checks the GM calls for. At any time: d20 + the ability modifier, + "
        "proficiency if proficient in the skill the check uses (Strength (Athletics), Wisdom "
        "(Perception), …), or the ability alone; frightened and poisoned creatures have "
        "disadvantage (srd-27); effects add their bonus or penalty (srd-32). The GM may name a"
        " condition the creature has if it fails. [Ability Checks; Skills]"
    ),
    "srd-38": (
        "Sneak attack. Once per turn, a rogue deals its extra damage dice (2d6 at 3rd level) to"
        " one creature it hits with a finesse or ranged weapon, if it has advantage on the "
        "attack roll, or if another enemy of the target is within 5 feet of it (not "
        "incapacitated) and the roll has no disadvantage. A critical doubles these dice too "
        "(srd-8). [Rogue: Sneak Attack]"
    ),
    "srd-39": (
        "Reactions with a trigger. A reaction spell or feature is taken when its trigger comes "
        "(one reaction a round, srd-4; none while incapacitated or surprised): the target of an"
        " attack, or of a spell's damage, names it beforehand, and it is spent only if the "
        "trigger comes. Shield: when "
        "hit by an attack or targeted by magic missile, +5 AC until the start of its next turn, "
        "the triggering attack included, so a hit whose total is below the new AC becomes a "
        "miss (a natural 20 still hits), and no damage from magic missile; a shield that cannot"
        " turn the hit into a miss is not cast, its reaction and slot kept. A monster's Parry: "
        "+N AC against one melee attack that would hit it, that attack only, when it sees the "
        "attacker and wields a melee weapon; taken only when the +N turns the hit. [Reactions;"
        " Shield; Monsters: Bandit Captain, Parry]"
    ),
    "srd-40": (
        "Uncanny dodge. When an attacker it can see hits it with an attack, it may use its "
        "reaction to halve the attack's damage against it. [Rogue: Uncanny Dodge]"
    ),
    "srd-41": (
        "Hellish rebuke. When damaged by a creature it can see within 60 feet, it may use its "
        "reaction: that creature makes a Dexterity save, taking 2d10 fire damage on a failure, "
        "half on a success (+1d10 a slot level above 1st); a tiefling's Infernal Legacy casts it"
        " with Charisma, as a 2nd-level spell (3d10) from 3rd level. [Hellish Rebuke; "
        "Tiefling: Infernal Legacy]"
    ),
    "srd-42": (
        "Resisting the triggering damage. A reaction to taking acid, cold, fire, lightning or "
        "thunder damage gives resistance to that type until the start of its next turn, the "
        "triggering damage included (absorb elements, a table's spell from beyond the SRD 5.1,"
        " read as srd-10's resistance); the first time it hits with a melee attack by the end "
        "of its next turn, the hit deals the spell's extra dice (1d6, and 1d6 more for each "
        "slot level above 1st, srd-51) of that type. [Damage Resistance and Vulnerability; "
        "Reactions]"
    ),
    "srd-43": (
        "Magic missile. Each dart hits a creature of the caster's choice that it can see, with "
        "no attack roll, for 1d4 + 1 force damage; the darts strike at once, one creature or "
        "several; each dart is its own damage (a concentration save each). Three darts, and "
        "one more for each slot level above 1st. [Magic Missile]"
    ),
    "srd-44": (
        "Mage armor. An action, a 1st-level slot: a willing creature touched that isn't "
        "wearing armor has a base AC of 13 + its Dexterity modifier for 8 hours (fracas keeps "
        "the sheet's AC where it is higher, as natural armour; a shield and other effects add"
        " to it); refused on a creature wearing armour. [Mage Armor]"
    ),
    "srd-45": (
        "Misty step. A bonus action, a 2nd-level slot: the caster teleports up to 30 feet to "
        "an unoccupied space it can see. It spends no movement and provokes no opportunity "
        "attack (srd-18); out of its grappler's reach, it is no longer grappled (fracas keeps "
        "no positions: the GM places it). Dimension door (an action, a 4th-level slot): the "
        "same, up to 500 feet (a willing creature it brings along the GM places). [Misty "
        "Step; Dimension Door; Grappled]"
    ),
    "srd-46": (
        "Invisibility. An action, a 2nd-level slot, concentration up to 1 hour: a creature "
        "touched is invisible (srd-27) until the spell ends; it ends for a target that attacks"
        " or casts a spell. One more target for each slot level above 2nd. Greater "
        "invisibility (a 4th-level slot, concentration up to 1 minute): the same, but it does"
        " not end as its target attacks or casts. [Invisibility; Greater Invisibility]"
    ),
    "srd-47": (
        "Counterspell. A reaction, a 3rd-level slot, when a creature within 60 feet that the "
        "caster can see casts a spell: a spell of the counterspell's slot level or lower "
        "fails and has no effect; a higher one fails only if the caster makes an ability "
        "check with its spellcasting ability, DC 10 + the spell's level. The countered "
        "creature's action and slot stay spent (fracas casts counterspell with the lowest slot"
        " left of 3rd level or higher). [Counterspell]"
    ),
    "srd-48": (
        "Blur and faerie fire. Blur (an action, a 2nd-level slot, concentration up to 1 "
        "minute, on the caster only): attack rolls against the caster have disadvantage. "
        "Faerie fire (an action, a 1st-level slot, concentration up to 1 minute, a 20-foot "
        "cube): each creature in it that fails a Dexterity save is outlined in light; attack "
        "rolls against it have advantage, and it can't benefit from being invisible (srd-27)."
        " [Blur; Faerie Fire]"
    ),
    "srd-49": (
        "Sleep. An action, a 1st-level slot, 1 minute, no save: roll 5d8 (2d8 more for each "
        "slot level above 1st); the creatures in a 20-foot radius are affected from the "
        "lowest current hit points up, ignoring the unconscious, each one whose hit points "
        "are no more than the total left, its hit points then taken off the total. Each falls"
        " unconscious (and prone, srd-27) until the spell ends, it takes damage, or someone "
        "uses an action to wake it (the GM clears the condition). Undead and creatures immune"
        " to being charmed aren't affected. [Sleep]"
    ),
    "srd-50": (
        "Spell slots. A caster has a number of spell slots of each level (its sheet's `slots`, "
        "by level). Casting a spell of level 1 or higher expends a slot of the spell's level or "
        "higher; with none of that level left, the spell can't be cast with it. A cantrip takes"
        " no slot. Finishing a long rest restores every expended slot. [Spellcasting: Spell "
        "Slots; Resting]"
    ),
    "srd-51": (
        "Casting at a higher level. A spell cast with a slot of a higher level than its own "
        "assumes that level for the casting: many grow stronger, by the dice or the targets "
        "their text adds for each slot level above their own (cure wounds: 1d8 more; hold "
        "person: one more creature). [Casting a Spell at a Higher Level; the spell entries]"
    ),
    "srd-52": (
        "Movement. On its turn a creature may move up to its speed, in feet, split before, "
        "between and after its action; the Dash action adds its speed again for the turn. "
        "Every foot through difficult terrain costs 1 extra foot, and so does every foot "
        "crawled while prone; standing up from prone costs half its speed, and can't be done "
        "without that much movement left or with speed 0. Unspent movement is lost when the "
        "turn ends. [Movement and Position; Difficult Terrain; Being Prone; Dash]"
    ),
    "srd-53": (
        "Reach. A melee attack is made on a target within the attacker's reach: 5 feet, or "
        "more for a weapon or natural attack with reach (10 feet for a whip or a dragon's "
        "bite); a melee weapon without it can't strike a target beyond 5 feet (a thrown weapon"
        " is thrown, by its range). [Melee Attacks; Reach; Weapon Properties]"
    ),
    "srd-54": (
        'Recharge. A monster\'s ability marked "Recharge X-6" may be used once; then, at the '
        "start of each of the monster's turns, a d6 is rolled for it, and on X or more it may "
        "be used again. Abilities under one Recharge (a metallic dragon's Breath Weapons, "
        "either of them) wait for one d6. [Monsters: Limited Usage (Recharge X-Y)]"
    ),
    "srd-55": (
        "Lair actions. A creature in its lair may take a lair action on initiative count 20, "
        "losing all initiative ties: one a round, not the same effect two rounds in a row; not "
        "while incapacitated or otherwise unable to act, nor, if surprised, before its first "
        "turn. The SRD 5.1's stat blocks give no creature lair actions of its own (its dragons"
        " have none): a table writes its own on a sheet. [Monsters: Legendary Creatures, A "
        "Legendary Creature's Lair]"
    ),
    "srd-56": (
        "Legendary resistance. If the creature fails a saving throw, it can choose to succeed "
        "instead, a number of times a day (its sheet's number, usually 3); fracas spends one on"
        " the first save it fails, unless the GM declines it for the action (`-o resist=false`"
        " on the cast, attack or save). [Monsters: Legendary Resistance (3/Day) in the legendary "
        "entries]"
    ),
    "srd-58": (
        "Short rest. At the end of a short rest (at least 1 hour) a character can spend Hit "
        "Dice, up to its maximum, which equals its level (its sheet's `hit_die`, the die's "
        "sides). For each, it rolls the die and adds its Constitution modifier, and regains "
        "that many hit points (the table spends them one by one while it is hurt). [Resting: "
        "Short Rest; Hit Points: Hit Dice]"
    ),
    "srd-59": (
        "Long rest. At the end of a long rest (at least 8 hours) a character regains all lost "
        "hit points and spent Hit Dice up to half its total (at least one); its spell slots "
        "are restored (srd-50), and so are its legendary resistances, which last a day "
        "(srd-56); its temporary hit points are gone (srd-11). A character must have at least "
        "1 hit point at the start of the rest to gain its benefits: a stable one regains 1 hit"
        " point (after 1d4 hours, srd-14). [Resting: Long Rest]"
    ),
    "srd-57": (
        "Pack Tactics. The creature has advantage on an attack roll against a creature if at "
        "least one of its allies is within 5 feet of that creature and isn't incapacitated "
        "(stated by the table: `-o ally_near=true`). [Monsters: Wolf, Pack Tactics]"
    ),
    "srd-60": (
        "Bonus-action forms. A feature may let a creature take some actions as a bonus action "
        "on its turn: a rogue's Cunning Action, Dash, Disengage or Hide; a goblin's Nimble "
        "Escape, Disengage or Hide. Once its action is taken, such an action is its bonus "
        "action; asked for (`-o bonus=true`), it is so even before. An orc's Aggressive: its "
        "speed in movement as a bonus action, toward a hostile creature it can see (played as "
        "a bonus-action Dash, refused when it sees no foe). [Rogue: Cunning Action; Monsters: "
        "Goblin, Nimble Escape; Orc, Aggressive; Spy, Cunning Action]"
    ),
    "srd-61": (
        "Condition immunity. A creature immune to a condition cannot have it: an effect that "
        "would give it does nothing of that, and asks no save for it alone (its damage still "
        "comes, by its save); a grapple of a creature immune to being grappled, or a shove to"
        " knock prone one immune to prone, is not made. [Monsters: Condition Immunities]"
    ),
    "srd-62": (
        "Resistance and immunity to nonmagical weapons. A creature resistant or immune to "
        "bludgeoning, piercing and slashing damage from nonmagical attacks or weapons is so "
        "against a weapon that is not magical (fracas does not tell silvered or adamantine "
        "weapons apart: the GM rules on them); a magic weapon's damage is dealt in full. "
        "[Monsters: Damage Vulnerabilities, Resistances, and Immunities]"
    ),
    "srd-63": (
        "Magic Resistance. A creature with this trait has advantage on saving throws against "
        "spells and other magical effects (fracas gives it on every save against a spell or"
        ' a monster\'s magic, "this magic", and on the save their condition repeats at the'
        " end of its turns; not against a breath, a frightful presence or a weapon's venom, "
        "which are not magic: a sheet's `magic = false`). It gives nothing against an attack"
        " roll, a spell attack's too. [Monsters: Mummy Lord, Magic Resistance]"
    ),
    "srd-64": (
        "Dispel magic. An action, a 3rd-level slot, one creature: each spell on it of 3rd "
        "level or lower (or of the slot's level, cast higher) ends; for each higher one the "
        "caster makes an ability check with its spellcasting ability, DC 10 + that spell's "
        "level, and on a success it ends. A spell's level is the slot it was cast with; a "
        "monster's own ability is no spell. A concentration whose spell has ended on every "
        "target ends with it (srd-34). [Dispel Magic]"
    ),
    "srd-65": (
        "Banishment. An action, a 4th-level slot, concentration up to 1 minute: a creature "
        "that fails a Charisma save is banished to a harmless demiplane, out of the fight "
        "(removed: its turns are skipped, nothing acts on it or by it) until the spell ends, "
        "when it returns; a creature from another plane that stays banished for the whole "
        "minute does not return (the GM narrates it). One more target for each slot level "
        "above 4th. [Banishment]"
    ),
    "srd-66": (
        "Fly. An action, a 3rd-level slot, concentration up to 10 minutes: a willing creature "
        "touched gains a flying speed of 60 feet (fracas lets it move the faster of its speed"
        " and 60 feet a turn, more with a Dash; grappled or restrained, 0). When the spell "
        "ends, a target still aloft falls (the GM narrates it). One more target for each slot"
        " level above 3rd. [Fly]"
    ),
    "srd-67": (
        "Charm person. An action, a 1st-level slot, 1 hour: a humanoid that fails a Wisdom "
        "save (with advantage if the caster or its companions are fighting it) is charmed by "
        "the caster: it can't attack the caster or aim harmful abilities or magic at it. The "
        "spell ends early if the caster or its companions harm it (fracas: deal it damage). "
        "One more target for each slot level above 1st. [Charm Person; Charmed]"
    ),
    "srd-68": (
        "Damage of two types. A spell may deal damage of two types, each rolled on its own and "
        "resisted by its own type (srd-10), one damage for concentration (srd-26); a save "
        "halves each. Flame strike: an action, a 5th-level slot, a 10-foot-radius, 40-foot "
        "cylinder: a Dexterity save, 4d6 fire and 4d6 radiant damage, half on a success; the"
        " fire 1d6 more for each slot level above 5th. [Flame Strike]"
    ),
    "srd-69": (
        "Entangle. An action, a 1st-level slot, concentration up to 1 minute, a 20-foot "
        "square: each creature in it that fails a Strength save is restrained by the plants "
        "until the spell ends. A creature so restrained can use its action to make a Strength "
        "check against the caster's spell save DC; on a success it frees itself (fracas: "
        "`escape`). [Entangle]"
    ),
    "srd-70": (
        "Lesser restoration. An action, a 2nd-level slot, a creature touched: one condition "
        "afflicting it ends, blinded, deafened, paralyzed or poisoned (or a disease, the GM's"
        " to narrate); of several, the caster names which. Greater restoration (a 5th-level "
        "slot) ends charmed or petrified so (exhaustion, a curse and reduced scores or "
        "maximum hit points are the GM's). [Lesser Restoration; Greater Restoration]"
    ),
    "srd-71": (
        "Barkskin. An action, a 2nd-level slot, concentration up to 1 hour: a willing creature"
        " touched has an AC of at least 16, whatever armour it wears (a higher AC stands). "
        "[Barkskin]"
    ),
    "srd-72": (
        "Spiritual weapon. A bonus action, a 2nd-level slot, 1 minute: a floating spectral "
        "weapon; the caster makes a melee spell attack with it against a creature within 5 "
        "feet of it, 1d8 + its spellcasting modifier force damage on a hit. As a bonus action"
        " on each of its later turns while the spell lasts, the caster moves the weapon up to"
        " 20 feet and repeats the attack, with no slot and no spell cast (srd-3 does not "
        "count it). 1d8 more for every two slot levels above 2nd. [Spiritual Weapon]"
    ),
    "srd-73": (
        "Sanctuary. A bonus action, a 1st-level slot, 1 minute: a creature is warded. A "
        "creature that aims an attack or a harmful spell at it makes a Wisdom save first; "
        "on a failure it must choose a new target or lose the attack or spell (fracas: it is "
        "lost on the warded; undo to aim at another). It does not protect from an area's "
        "effect. It ends if the warded creature attacks, or casts a spell that affects a "
        "foe. [Sanctuary]"
    ),
    "srd-74": (
        "Mirror image. An action, a 2nd-level slot, 1 minute: three illusory duplicates of "
        "the caster. Each time a creature that can see targets it with an attack, a d20 "
        "decides whether the attack targets a duplicate instead: 6 or higher with three "
        "left, 8 with two, 11 with one. A duplicate's AC is 10 + the caster's Dexterity "
        "modifier; an attack that hits it destroys it (its damage is lost), and the spell "
        "ends with the last. [Mirror Image]"
    ),
    "srd-75": (
        "Command. An action, a 1st-level slot: a one-word command to a creature; on a failed"
        " Wisdom save it follows it on its next turn (to that turn's end). Approach, drop, "
        "flee: it moves or drops what it holds as told (the GM narrates it). Grovel: it "
        "falls prone as its turn begins and then ends its turn. Halt: it doesn't move and "
        "takes no actions. No effect on undead. One more creature for each slot level above"
        " 1st. [Command]"
    ),
    "srd-76": (
        "Spare the dying. A cantrip, an action, a living creature touched at 0 hit points: it"
        " becomes stable (srd-16). No effect on undead or constructs. [Spare the Dying]"
    ),
    "srd-77": (
        "Power word stun. An action, an 8th-level slot, no save: a creature of 150 hit points"
        " or fewer is stunned; one with more is unaffected. The stunned creature makes a "
        "Constitution save at the end of each of its turns, and a success ends it. [Power "
        "Word Stun]"
    ),
    "srd-78": (
        "Globe of invulnerability. An action, a 6th-level slot, concentration up to 1 minute:"
        " a barrier in a 10-foot radius around the caster (fracas: the creatures named, the "
        "caster among them). A spell of 5th level or lower cast from outside it has no effect"
        " on those within, even cast with a higher slot; one more level for each slot level"
        " above 6th. [Globe of Invulnerability]"
    ),
    "srd-79": (
        "Dominate person. An action, a 5th-level slot, concentration up to 1 minute: a "
        "humanoid that fails a Wisdom save (with advantage if the caster or its companions "
        "are fighting it) is charmed by the caster, who commands it (the GM narrates it). "
        "Each time it takes damage it makes a new Wisdom save, a success ending the spell. "
        "[Dominate Person]"
    ),
    "srd-80": (
        "Freedom of movement. An action, a 4th-level slot, 1 hour: a willing creature touched"
        " moves unhampered by difficult terrain, and spells and other magical effects can "
        "neither reduce its speed nor paralyze or restrain it; it can spend 5 feet of "
        "movement to escape a nonmagical grapple or restraint. [Freedom of Movement]"
    ),
    "srd-81": (
        "Guidance. A cantrip, an action, concentration up to 1 minute: a willing creature "
        "touched may, once before the spell ends, roll a d4 and add it to one ability check "
        "of its choice; the spell then ends. [Guidance]"
    ),
    "srd-82": (
        "Resistance. A cantrip, an action, concentration up to 1 minute: a willing creature "
        "touched may, once before the spell ends, roll a d4 and add it to one saving throw "
        "of its choice; the spell then ends. [Resistance]"
    ),
    "srd-83": (
        "Hunter's mark. A bonus action, a 1st-level slot, concentration up to 1 hour: the "
        "caster marks a creature it can see within 90 feet as its quarry, and deals an extra"
        " 1d6 damage to it whenever it hits it with a weapon attack. [Hunter's Mark]"
    ),
    "srd-84": (
        "Shillelagh. A cantrip, a bonus action, 1 minute: the club or quarterstaff its caster"
        " holds uses the spellcasting ability instead of Strength for its attack and damage "
        "rolls, its damage die becomes a d8, and it is magical. [Shillelagh]"
    ),
    "srd-85": (
        "Hiding and passive Perception. A creature that hides makes a Dexterity (Stealth) "
        "check; a creature not searching notices it if its passive Wisdom (Perception), 10 + "
        "its Perception modifiers, equals or beats the check. [Hiding; Passive Perception]"
    ),
}


SOURCE = Source(
    "System Reference Document 5.1 (SRD 5.1)",
    "Wizards of the Coast LLC, 2016; under CC BY 4.0 since January 2023",
)
SECTION = re.compile(r"\s*\[([^\]]+)\]\s*$")


def statement(text: str) -> Statement:
    """A statement and the SRD section it names in brackets at its end."""
    found = SECTION.search(text)
    return Statement(text[: found.start()], found[1]) if found else Statement(text)


REFERENCE = Reference(
    prefix="srd",
    source=SOURCE,
    rules={rule: statement(text) for rule, text in STATEMENTS.items()},
    attribution=ATTRIBUTION,
    licence="CC-BY-4.0",
)
