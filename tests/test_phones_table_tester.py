"""The outside table tester's findings on the phones (issue 37), each driven as the tester
did: the JSON a phone sends, POSTed to its `/act` link."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.phones import player_actions
from fracas.rules import load as load_ruleset
from fracas.rules.events import Resolved
from tests.casts.timeslice import ALICE, ORC, ts_fight
from tests.support import do, srd_sample
from tests.web import fracas, phones

pytestmark = pytest.mark.sqlite_file


def timeslice(db: Path) -> str:
    with Fracas(str(db)) as log:
        return ts_fight(log).id


@pytest.mark.parametrize(
    "heal",
    [
        {"targets": ["bob"], "fields": {"hp": 5, "source": "a wish"}},
        {"targets": ["orc"], "fields": {"hp": 1000}},
        {"targets": ["alice"]},
    ],
)
def test_a_timeslice_phone_cannot_heal_at_will(tmp_path: Path, heal: dict[str, object]) -> None:
    """Every phone had a Heal that healed anyone, any amount, from any source, free: the
    amount and the source are the GM's (a medic's Treat and a healing spell are the
    player's, with their own rolls and limits)."""
    db = tmp_path / "fight.db"
    name = timeslice(db)
    with phones(db, ("alice",), encounter=name) as table:
        assert 'data-action="heal"' not in table.panel("alice")
        before = table.steps(name)
        sent = table.tap("alice", action="heal", **heal)
        assert sent.status_code == 403, sent.text
        assert sent.text.startswith("a player's action is one of: "), sent.text
        assert "heal," not in sent.text
        assert table.steps(name) == before


def test_a_phones_interrupt_is_the_players_claim_not_the_gms_ruling(tmp_path: Path) -> None:
    """A phone's interrupt was logged "GM rules: the orc attacks within range of Alice's
    sword" though the GM ruled nothing."""
    db = tmp_path / "fight.db"
    name = timeslice(db)
    with Fracas(str(db)) as log:
        do(log.encounter(name), {"action": "next"})  # the orc's turn
    with phones(db, ("alice",), encounter=name) as table:
        fields = {"weapon": "sword", "trigger": "attacks", "trigger_by": "orc"}
        sent = table.tap("alice", action="interrupt", targets=["orc"], fields=fields)
        assert sent.status_code == 200, sent.text
    with Fracas(str(db)) as log:
        fight = log.encounter(name)
        events = fight.events_of_step(fight.history.head_step)
    outcome = next(e.outcome for e in events if isinstance(e, Resolved) and e.action == "interrupt")
    assert outcome == "alice says: orc attacks within range of alice's sword"


def crypt(db: Path) -> None:
    """srd: the fighter, the rogue (both players'), then the goblin; the goblin's turn."""
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="The Crypt", encounter="crypt")
        for who, sheet, side in (
            ("fighter", srd_sample("fighter", initiative=80), "pc"),
            ("rogue", srd_sample("rogue", initiative=40), "pc"),
            ("goblin", srd_sample("goblin", hp=150, initiative=20), "npc"),
        ):
            do(fight, {"action": "join", "combatant": who, "sheet": sheet, "side": side})
        do(fight, {"action": "begin"})
        do(fight, {"action": "next"})
        do(fight, {"action": "next"})


def fieldset_targets(panel: str, action: str) -> list[str]:
    chosen = rf'<fieldset class="chosen" data-action="{action}".*?</fieldset>'
    found = re.search(chosen, panel, re.S)
    assert found, panel
    return re.findall(r'<input type="checkbox" value="([^"]+)" data-target[ >]', found[0])


def test_an_srd_opportunity_attack_is_on_a_foe_alone(tmp_path: Path) -> None:
    """srd-18: a hostile creature leaving reach. The fighter's phone listed the rogue, an
    ally, and an opportunity attack on her was accepted, spending the reaction."""
    db = tmp_path / "crypt.db"
    crypt(db)
    fracas(db, "act", "goblin", "move", "25", "-o", "leaves=fighter")  # it runs: srd-18's trigger
    with phones(db, ("fighter",), encounter="crypt") as table:
        assert fieldset_targets(table.panel("fighter"), "opportunity") == ["goblin"]
        before = table.steps("crypt")
        fields = {"weapon": "longsword"}
        sent = table.tap("fighter", action="opportunity", targets=["rogue"], fields=fields)
        assert sent.status_code == 403, sent.text
        assert sent.text.startswith("an opportunity attack is on a foe: rogue is"), sent.text
        assert table.steps("crypt") == before
        sent = table.tap("fighter", action="opportunity", targets=["goblin"], fields=fields)
        assert sent.status_code == 200, sent.text


def test_a_timeslice_reload_is_offered_with_a_weapon_that_reloads_alone() -> None:
    """002-12: Reload was offered to a character with no reloadable weapon, and listed
    every weapon; a phone's reload of a sword is refused before the rules see it."""
    rules = load_ruleset("timeslice")
    offered = {a.name: a for a in player_actions(rules, rules.sheet(ALICE), acting=True)}
    assert [c.choices for c in offered["reload"].fields if c.field == "weapon"] == [["pistol"]]
    orc = {a.name for a in player_actions(rules, rules.sheet(ORC), acting=True)}
    assert "attack" in orc and "reload" not in orc


def test_a_phone_reloading_a_sword_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    name = timeslice(db)
    with phones(db, ("alice",), encounter=name) as table:
        before = table.steps(name)
        sent = table.tap("alice", action="reload", fields={"weapon": "sword"})
        assert sent.status_code == 403, sent.text
        assert sent.text.startswith("Weapon: 'sword' is not"), sent.text
        assert table.steps(name) == before


def test_an_srd_cast_lists_no_reaction_spell() -> None:
    """srd-39: shield, hellish rebuke and absorb elements are cast as reactions, when
    asked; the turn's Cast listed them."""
    rules = load_ruleset("srd")
    wizard = rules.sheet(srd_sample("wizard"))
    reactions = {s.name for s in wizard.spells if s.casting == "reaction"}
    assert {"shield", "hellish rebuke", "absorb elements"} <= reactions
    offered = {a.name: a for a in player_actions(rules, wizard, acting=True)}
    (spells,) = [c.choices for c in offered["cast"].fields if c.field == "spell"]
    assert spells and not reactions & set(spells), spells


def test_an_srd_move_says_how_far_in_words() -> None:
    """srd-52: the phone's Move had no distance (each tap moved 5 feet) and its help read
    the CLI's "move FEET on its turn"."""
    rules = load_ruleset("srd")
    offered = {a.name: a for a in player_actions(rules, rules.sheet(srd_sample("fighter")), True)}
    move = offered["move"]
    assert [c.field for c in move.fields] == ["feet", "difficult", "leaves"]
    assert move.fields[0].kind == "number" and move.fields[0].label == "Feet"
    assert "FEET" not in move.description and not re.search(r"\b[A-Z]{2,}\b", move.description)


def test_an_srd_phone_moves_the_feet_it_says(tmp_path: Path) -> None:
    db = tmp_path / "crypt.db"
    crypt(db)
    with Fracas(str(db)) as log:
        do(log.encounter("crypt"), {"action": "next"})  # the fighter's turn
    with phones(db, ("fighter",), encounter="crypt") as table:
        sent = table.tap("fighter", action="move", fields={"feet": 25})
        assert sent.status_code == 200, sent.text
    with Fracas(str(db)) as log:
        fight = log.encounter("crypt")
        (moved,) = [
            e for e in fight.events_of_step(fight.history.head_step) if hasattr(e, "command")
        ]
    assert moved.command["feet"] == 25


def test_an_srd_react_is_offered_only_with_a_readied_action(tmp_path: Path) -> None:
    """srd-24: "React" (the readied action, now) was offered with nothing readied."""
    db = tmp_path / "crypt.db"
    crypt(db)  # the goblin's turn
    with phones(db, ("fighter",), encounter="crypt") as table:
        assert 'data-action="react"' not in table.panel("fighter")
        with Fracas(str(db)) as log:
            fight = log.encounter("crypt")
            do(fight, {"action": "next"})  # the fighter's turn
            ready = {"action": "ready", "actor": "fighter", "trigger": "it comes near"}
            do(fight, {**ready, "then": "attack"})
            do(fight, {"action": "next"})
        assert 'data-action="react"' in table.panel("fighter")


def test_an_srd_attack_or_cast_is_not_offered_once_the_action_is_spent(tmp_path: Path) -> None:
    """srd-3: one action a turn (Extra Attack: its attacks), one bonus action. Attack, Cast
    and Offhand were still offered after they were spent."""
    db = tmp_path / "crypt.db"
    crypt(db)
    with Fracas(str(db)) as log:
        do(log.encounter("crypt"), {"action": "next"})  # the fighter's turn
    with phones(db, ("fighter",), encounter="crypt") as table:
        assert {"attack", "dash"} <= offered(table.panel("fighter"))
        fields = {"weapon": "longsword"}
        sent = table.tap("fighter", action="attack", targets=["goblin"], fields=fields)
        assert sent.status_code == 200, sent.text  # the sample fighter's only attack
        spent = {"attack", "dodge", "help", "search", "ready", "grapple", "shove"}
        assert not spent & offered(table.panel("fighter")), offered(table.panel("fighter"))
        assert "move" in offered(table.panel("fighter"))


def test_an_srd_offhand_is_offered_only_after_an_attack_with_a_light_melee_weapon(
    tmp_path: Path,
) -> None:
    """srd-19 (issue 40): the fighter's Attack action with a longsword leaves no off-hand
    attack to take, though a light handaxe is on the sheet; the phone offered one. Nor is
    one offered before the Attack action is taken (issue 37)."""
    db = tmp_path / "crypt.db"
    crypt(db)
    with Fracas(str(db)) as log:
        do(log.encounter("crypt"), {"action": "next"})  # the fighter's turn
    with phones(db, ("fighter",), encounter="crypt") as table:
        assert "offhand" not in offered(table.panel("fighter"))
        sent = table.tap(
            "fighter", action="attack", targets=["goblin"], fields={"weapon": "longsword"}
        )
        assert sent.status_code == 200, sent.text
        assert "offhand" not in offered(table.panel("fighter"))


def offered(panel: str) -> set[str]:
    return set(re.findall(r'class="action" data-action="(\w+)"', panel))
