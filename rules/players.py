"""What a player may do from their own device (a phone): which actions, and which fields of
each are the player's to set, each with a label and one line of help in words.

A ruleset declares it (`Ruleset.players`). A field it does not name is the GM's (a
modifier, the scene's cover, a ruling of advantage): a phone that sends one is refused, and
the CLI and `play`, the GM's tools, keep every field. A field's value is checked by the
ruleset's own types as any command is; a field whose values come from the character's
sheet (a weapon, a spell) takes only those.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlayerField:
    """A field of an action that is the player's, as a player reads it.

    `label`: a few words ("Weapon"); `help`: one line in words, no field names.
    `from_sheet`: the values the character's sheet offers for the field (`Ruleset.offered`:
    its weapons, and what `Ruleset.offers` names) are the only ones a player may send (none
    on the sheet: the field is not offered). `combatant`: the value names a combatant
    the players' screen shows, chosen by a tap. `required`: the action cannot be taken
    without it (a spell to cast): a sheet that offers none is not offered the action.
    `only_with`: (another field of the action, a name the ruleset's `offers` hook answers):
    the field applies only while that field's value is one the sheet offers under that name
    (srd's range: only with a ranged weapon, `offers(sheet, "ranged weapon")`); the phone
    shows it then alone, and leaves it off for a sheet that offers none. `offered_as`: the
    name the ruleset's `offers` hook answers with the values a `from_sheet` field takes,
    where not all the sheet's of the field's own name fit (a reload: "reloadable weapon").
    `counted_in`: a key of the character's row detail (the ruleset's view) holding a
    count for each number from 1: the numbers whose count is above 0 are offered, after
    "unsaid" (srd's slot level: the levels with slots left, `slots_left`); with the
    ruleset's `least_of`, no "unsaid", and only those from the least of the `only_with`
    field's value chosen (a levelled spell's own level). `narrowed_in`: a key of the
    character's row detail that, when there, holds the only values of a `from_sheet` field
    the rules allow now (srd's spells after a bonus-action spell: the cantrips cast with an
    action, srd-3); none of them: the field is not offered, nor a `required` one's action.
    `several`: with `combatant`, any number may be ticked (none at first), sent as a list of
    ids (srd's move: whose reach it leaves). `foes`: with `combatant`, only those on another
    side than the character's, as the players' screen shows sides, are offered.
    `each_target`: a whole number for each target tapped, in the order tapped, sent as a
    list (pool's shares of a split pool); the phone asks a number beside each target.
    `counts`: the names a field counts how many of (pool's dice kept for a dodge, a parry
    or a clash), sent as an object of those given some, {"dodge": 1}; the phone asks a
    number beside each name.
    `said`: for a true-or-false field the rules decide when unsaid, the words of its
    choices in the ruleset's own (unsaid, yes, no), in that order; a choice given no words
    ("") is not offered. Empty: "as the rules say", "yes", "no".
    """

    label: str
    help: str
    from_sheet: bool = False
    combatant: bool = False
    required: bool = False
    only_with: tuple[str, str] = ()
    offered_as: str = ""
    counted_in: str = ""
    narrowed_in: str = ""
    several: bool = False
    foes: bool = False
    said: tuple[str, ...] = ()
    each_target: bool = False
    counts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Playable:
    """An action a player may take from a phone: its fields that are the player's, whether
    it is taken out of the character's turn (a reaction, the rules judge when), and the
    dice it rolls, in words, in the order the step rolls them ("d20 to hit, then your
    weapon's damage dice on a hit"), which a player may type from their own dice; empty:
    it rolls none, and the phone offers no box for dice. `times`: where a target may be
    named more than once (magic missile's darts, one a name), the words for how many at
    each; the phone then asks a number beside each target. `on_self`: the character may
    name themself among the targets (a healing spell); the phone offers "yourself" first.
    `times_with`: as a field's `only_with`, for `times` (how many darts: with a spell of
    darts alone). `targets_need`: the conditions a target must show for the action to name
    it (stabilise: dying); the phone offers the action only while someone shows one, and
    only them as its targets. `foes`: it names foes alone, as the players' screen shows
    sides (an opportunity attack: a hostile creature leaving reach); `allies`: allies alone
    (help: the ally it aids). `on_acting`: it names the one whose turn it is alone, and is
    offered only while that one may be named (an opportunity attack: a foe leaving reach on
    its own turn); the phone names them on its button. `after_move`: with `on_acting`,
    offered only once that one has moved this turn (its row's detail `moved`: an
    opportunity attack answers a foe moving out of reach, not one standing still), and,
    where that row's detail `left_reach_of` names those whose reach its moves left (ids),
    only to them (srd: the move's `leaves`; none named, none offered).
    `targets_not`: conditions a target must not show to be named (an opportunity attack:
    disengaged).
    `spends`: what of the turn's budget it spends, one of which must be left (srd-3:
    "action", "bonus", "reaction"), as the ruleset's view says of a row
    (`WoundRow.detail["spent"]`); empty: it spends none the phone tracks.
    `needs`: the conditions one of which the character must have for the action to be
    offered (escape: grappled; stand: prone); empty: none. `down`: offered to a character
    the rules have put down (the ruleset's `down` conditions: dying, unconscious), who is
    offered nothing else; one out of the fight (`out`: dead) is offered nothing at all.
    A ruleset may declare the pass (`next`) too, when ending a turn rolls (declared
    actions resolving, a death save); an undeclared pass rolls nothing and is offered to a
    character who is down."""

    fields: dict[str, PlayerField] = field(default_factory=dict)
    reaction: bool = False
    dice: str = ""
    times: str = ""
    on_self: bool = False
    times_with: tuple[str, str] = ()
    targets_need: frozenset[str] = frozenset()
    foes: bool = False
    allies: bool = False
    on_acting: bool = False
    targets_not: frozenset[str] = frozenset()
    spends: frozenset[str] = frozenset()
    needs: frozenset[str] = frozenset()
    down: bool = False
    after_move: bool = False
    # `unless`: the conditions any one of which keeps the action from being offered (srd's
    # pass while "death save due": the save the dying turn starts with is owed, and the
    # rules refuse the player's own pass until it is rolled). Empty: none.
    unless: frozenset[str] = frozenset()
    # `bonus`: the player's field (true) that asks for the action's bonus-action form,
    # where a feature gives the character one (srd's `bonus`: a rogue's Cunning Action Dash
    # before her action is taken, srd-60); the phone offers it as a second button under
    # the bonus action's heading while the turn has both left. "": none.
    bonus: str = ""
    # `by_part`: (a `from_sheet` field, ((a part of the turn's budget, the name the
    # ruleset's `offers` hook answers with the values that part takes), ...)): the action
    # is offered once for each part left this turn, under that part's heading, its field
    # offering only that part's values, and not at all for a part none of them fits (srd's
    # Cast: the spells cast with an action under Action, the bonus-action spells under
    # Bonus action). (): one button, by what it spends.
    by_part: tuple[str, tuple[tuple[str, str], ...]] = ()
