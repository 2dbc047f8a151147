"""An outside table tester's srd phone (issue 37): magic missile's dice help said "d20 to
hit", and magic missile never rolls to hit (srd-43: a d4 + 1 per dart, force). Every srd
action a player may roll their own dice for names, in its help, the dice the step really
has its player roll: a d20 first where one comes first, none where the caster rolls none
(a save spell: the targets' saves are the server's), a healing spell its healing dice."""

from typing import Any

import pytest
from srd_table import Middling, Table, fight, rolls, sample

from fracas_srd.words import PLAYERS

ROLLING = sorted(name for name, playable in PLAYERS.items() if playable.dice)


def first_dice(table: Table, data: dict[str, Any], actor: str) -> list[str]:
    """The dice the actor rolls in the step, in order."""
    events = table.decide({"actor": actor, **data}, Middling())
    return [r.roll.dice for r in rolls(events) if r.actor == actor]


def rogue_and_goblin() -> Table:
    return fight(("me", "rogue"), ("gob", "goblin"), death_saves="own_step")


def rolled_by(action: str) -> list[str]:
    """A representative step of each action from a phone, set up so the rules take it."""
    table = rogue_and_goblin()
    sword = {"weapon": "shortsword", "targets": ["gob"]}
    if action == "offhand":
        table.act("me", "attack", "gob", faces=(2,), weapon="shortsword")
    if action == "opportunity":
        table.next()  # the goblin's turn; it moves off
        table.act("gob", "move", feet=10)
    if action == "react":
        table.act("me", "ready")
        table.next()
    if action == "stabilise":
        table = fight(("me", "rogue"), ("pc-ally", "fighter"), ("gob", "goblin"))
        table.do({"action": "gm.harm", "target": "pc-ally", "amount": 28})
        return first_dice(table, {"action": action, "targets": ["pc-ally"]}, "me")
    if action == "escape":
        table.next()
        table.act("gob", "grapple", "me", faces=(20, 1), free_hand=True)  # a hand free
        table.next()  # the rogue's turn again
    if action == "second_wind":  # a fighter's, once hurt
        table = fight(("me", "fighter"), ("gob", "goblin"))
        table.do({"action": "gm.harm", "target": "me", "amount": 10})
        return first_dice(table, {"action": action}, "me")
    if action == "death_save":
        table.do({"action": "gm.harm", "target": "me", "amount": 21})
        table.next()
        table.next()  # the rogue's dying turn: its death save due
        return first_dice(table, {"action": action}, "me")
    aimed = sword if action in ("attack", "offhand", "opportunity", "react") else {}
    if action == "offhand":  # the other hand's: not the shortsword of the Attack action
        aimed = {**sword, "weapon": "dagger"}
    if action in ("grapple", "shove", "stabilise"):
        aimed = {"targets": ["gob"]}
    return first_dice(table, {"action": action, **aimed}, "me")


@pytest.mark.parametrize("action", [a for a in ROLLING if a != "cast"])
def test_an_action_whose_help_says_a_d20_first_rolls_one_first(action: str) -> None:
    said = PLAYERS[action].dice
    rolled = rolled_by(action)
    assert rolled, f"{action} rolls none of its player's dice, and its help says {said!r}"
    assert said.startswith("d20") == (rolled[0] == "d20"), (action, said, rolled)


def kind(spell: dict[str, Any]) -> str:
    if spell.get("darts"):
        return "darts"
    if spell.get("attack", "none") != "none":
        return "attack"
    if spell.get("save"):
        return "save"
    return "healing" if spell.get("heal") else ""


CASTERS = ("wizard", "cleric")
SPELLS = [
    (caster, spell)
    for caster in CASTERS
    for spell in sample(caster)["spells"]
    if spell.get("casting") != "reaction" and kind(spell)
]


@pytest.mark.parametrize(("caster", "spell"), SPELLS, ids=[s["name"] for _, s in SPELLS])
def test_cast_says_the_dice_each_kind_of_spell_rolls(caster: str, spell: dict[str, Any]) -> None:
    said = PLAYERS["cast"].dice
    table = fight(("me", caster), ("gob", "goblin"))
    targets = ["me"] if spell.get("heal") else ["gob"]
    data = {"action": "cast", "spell": spell["name"], "targets": targets}
    rolled = first_dice(table, data, "me")
    clause = {
        "attack": "a spell attack: d20 to hit",
        "darts": "magic missile: a d4 + 1 per dart",
        "save": "a save spell: no d20 of yours",
        "healing": "a healing spell: its healing dice",
    }[kind(spell)]
    assert clause in said, said
    if kind(spell) == "attack":
        assert rolled[0] == "d20", rolled
    else:
        assert "d20" not in rolled, (spell["name"], rolled)
    if kind(spell) == "darts":
        assert set(rolled) == {"1d4"}, rolled
    if kind(spell) == "healing":
        assert rolled == [spell["heal"]], rolled


def test_magic_missiles_help_says_it_never_rolls_to_hit() -> None:
    said = PLAYERS["cast"].dice
    assert not said.startswith("the spell's: d20 to hit"), said
    assert "a d4 + 1 per dart, force, and never a roll to hit" in said, said
