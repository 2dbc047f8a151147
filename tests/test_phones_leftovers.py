"""Issue 37's leftovers: what a phone offers follows the rules (a pinned character breaks
free and does nothing else; help names an ally), and what players read is in words."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.phones import player_actions
from fracas.rules import load as load_ruleset
from fracas.rules.events import Rolled
from fracas.rules.reactions import Ask
from tests.support import KNIFE, SIX, do, sheet, srd_sample
from tests.web import duel, duel_attack, phones

pytestmark = pytest.mark.sqlite_file


@pytest.mark.parametrize(
    ("ruleset", "shown", "allowed"),
    [
        ("percentile", "pinned by bo", {"escape", "next"}),
        ("fudge", "pinned by bo", {"break", "next"}),
    ],
)
def test_a_pinned_character_is_offered_only_what_the_rules_allow(
    ruleset: str, shown: str, allowed: set[str]
) -> None:
    """000-24: a pinned target may attempt Escape and do nothing else; 003-25: a pinned
    target can only try to break the hold. The phone offered every action all the same."""
    rules = load_ruleset(ruleset)
    offered = {a.name for a in player_actions(rules, None, True, [shown])}
    assert offered == allowed


def help_fight(db: Path) -> None:
    """srd: the fighter (first) and the cleric on one side, the goblin on the other."""
    with Fracas(str(db)) as log:
        fight = log.new("srd", title="Help", encounter="fight")
        cast = (("fighter", "fighter", "pc", 90), ("cleric", "cleric", "pc", 50))
        for who, sample, side, init in (*cast, ("goblin", "goblin", "npc", 10)):
            joining = srd_sample(sample, initiative=init)
            do(fight, {"action": "join", "combatant": who, "sheet": joining, "side": side})
        do(fight, {"action": "begin"})


def test_help_names_an_ally_never_a_foe(tmp_path: Path) -> None:
    """srd-5: help gives an ally advantage; the phone offered the goblin as whom to help."""
    db = tmp_path / "help.db"
    help_fight(db)
    with phones(db, ("fighter",)) as table:
        panel = table.panel("fighter")
        chosen = panel.split('<fieldset class="chosen" data-action="help"', 1)[1]
        pick = chosen.split("</div>", 1)[0]
        assert 'value="cleric" data-target' in pick
        assert 'value="goblin" data-target' not in pick
        before = table.steps()
        sent = table.tap("fighter", action="help", targets=["goblin"])
        assert sent.status_code == 403, sent.text
        assert sent.text.strip() == "help is for an ally: goblin is not on your side"
        assert table.steps() == before
        sent = table.tap("fighter", action="help", targets=["cleric"], fields={"against": "goblin"})
        assert sent.status_code == 200, sent.text


def test_a_percentile_defence_reads_in_words(tmp_path: Path) -> None:
    """The board showed "defending (fight-back 63)": a command's token and a bare face."""
    with Fracas(str(tmp_path / "p.db")) as log:
        fight = log.new("percentile", title="Words", encounter="fight")
        armed = sheet(14, skills={"melee weapons": 60}, weapons=[KNIFE], holding=["knife"])
        do(fight, {"action": "join", "combatant": "al", "sheet": armed, "side": "pc"})
        do(
            fight,
            {"action": "join", "combatant": "bo", "sheet": armed | {"dex": 10}, "side": "npc"},
        )
        do(fight, {"action": "join", "combatant": "cy", "sheet": sheet(8), "side": "npc"})
        do(fight, {"action": "begin"})  # cy acts last: the round goes on after the attack
        hit = {"action": "attack", "actor": "al", "targets": ["bo"], "weapon": "knife"}
        do(fight, {**hit, "defence": {"bo": "fight-back"}}, [30, 63, 2])
        shown = next(w for w in fight.view().wounds if w.combatant == "bo").conditions
    assert "defending by fighting back (rolled 63)" in shown, shown


@pytest.mark.parametrize("ruleset", SIX)
def test_a_phones_left_over_dice_are_refused_without_a_flag(tmp_path: Path, ruleset: str) -> None:
    """Players never see the CLI's flags: faces left over name the phone's dice box."""
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        attack = duel_attack(log.encounter("fight"))
    who = attack.pop("actor")
    with phones(db, (who,)) as table:
        before = table.steps()
        sent = table.tap(who, action="attack", targets=attack["targets"], dice=[1] * 60)
        assert sent.status_code == 400, sent.text
        assert "--" not in sent.text and "dice box" in sent.text, sent.text
        assert table.steps() == before


def panel_actions(panel: str) -> list[str]:
    return re.findall(r'<button type="button" class="action" data-action="(\w+)"', panel)


def test_a_timeslice_interrupt_from_a_phone_waits_then_the_turn_goes_on(tmp_path: Path) -> None:
    """002-7: the foe's player interrupts the hero's turn from the phone. The interrupt
    waits for the hero's defence; meanwhile the foe's phone offered interrupt again (every
    tap refused "not now"). Answered, it resolves: 3 TS paid, the hero's turn goes on."""
    db = tmp_path / "ts.db"
    duel(db, "timeslice", foe_side="npc")
    with Fracas(str(db)) as log:
        acting = log.encounter("fight").view().acting[0]
    other = "foe" if acting == "hero" else "hero"
    with phones(db, ("hero", "foe")) as table:
        cut_in = {"action": "interrupt", "targets": [acting], "fields": {"trigger": "attacks"}}
        sent = table.tap(other, **cut_in)
        assert sent.status_code == 200, sent.text
        tv = table.client.get("/").text
        assert f"{acting} to act · waiting on {acting}&#39;s reaction" in tv, tv
        assert 'data-asked="yes"' in table.panel(acting)
        assert panel_actions(table.panel(other)) == []  # nothing to tap while it waits
        assert f"waits for {acting}'s reaction" in table.panel(other)
        sent = table.tap(acting, action="answer", fields={"choice": "dodge"})
        assert sent.status_code == 200, sent.text
        tv = table.client.get("/").text
        assert f"{acting} to act" in tv and "waiting on" not in tv, tv
        assert "Your turn." in table.panel(acting)
        assert "interrupt" in panel_actions(table.panel(other))  # 7 TS left: one more
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        assert fight.state.turn == acting
        assert fight.state.fighters[other].ts == 7


def dying_fight(db: Path, death_saves: str) -> None:
    """srd: the fighter (first) dropped to 0 HP and dying, its next turn begun."""
    with Fracas(str(db)) as log:
        options = {"death_saves": death_saves}
        fight = log.new("srd", title="Dying", encounter="fight", options=options)
        cast = (("hero", "fighter", "pc", 90), ("gob", "goblin", "npc", 10))
        for who, sample, side, init in cast:
            joining = srd_sample(sample, initiative=init)
            do(fight, {"action": "join", "combatant": who, "sheet": joining, "side": side})
        do(fight, {"action": "begin"})
        fall = fight.state.fighters["hero"].hp  # to 0, not past its maximum: dying (srd-13)
        do(fight, {"action": "gm.harm", "target": "hero", "amount": fall, "reason": "a fall"})
        do(fight, {"action": "next"})
        rolls_now = death_saves == "turn_start"  # a 12: saved once, neither 1 nor 20
        do(fight, {"action": "next"}, [12] if rolls_now else None)


def test_a_dying_characters_player_rolls_the_death_save_from_the_phone(tmp_path: Path) -> None:
    """srd-14, with option death_saves = own_step: the dying hero's turn begins with its
    death save still to roll; the phone offers Death save alone (the save is owed: no End
    turn beside it, issue 37), the server rolls it, the phone and the TV show the result,
    and the turn ends."""
    db = tmp_path / "dying.db"
    dying_fight(db, "own_step")
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
        assert "Your turn." in panel and "death save due" in panel, panel
        assert panel_actions(panel) == ["death_save"], panel
        assert ">Death save</button>" in panel
        before = table.steps()
        sent = table.tap("hero")  # End turn, sent by hand: the rules refuse it
        assert sent.status_code == 400, sent.text
        assert sent.text.strip() == (
            "hero's turn starts with their death save: roll it first, tap Death save (srd-14)"
        ), sent.text
        assert table.steps() == before
        sent = table.tap("hero", action="death_save")
        assert sent.status_code == 200, sent.text
        rolled = last_rolls(db)
        assert [(r.actor, r.purpose, r.roll.source) for r in rolled] == [
            ("hero", "death save", "seeded")
        ]
        face = rolled[0].roll.faces[0]
        panel, tv = table.panel("hero"), table.client.get("/").text
        assert "death save due" not in panel, panel
        assert "hero rolls a death save: " in tv and "death_save" not in tv, tv
        if face == 20:  # srd-14: 1 HP back, and the turn goes on
            assert "HP 1/" in panel and "Your turn." in panel, panel
            return
        saved, failed = (1, 0) if face >= 10 else (0, 2 if face == 1 else 1)
        assert f"dying ({saved} saved, {failed} failed)" in tv, tv
        assert "Your turn." not in panel, panel
        before = table.steps()
        sent = table.tap("hero", action="death_save")  # not its turn now: refused
        assert sent.status_code == 403, sent.text
        assert table.steps() == before


def last_rolls(db: Path) -> list[Rolled]:
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        events = fight.events_of_step(fight.history.head_step)
    return [e for e in events if isinstance(e, Rolled)]


def test_by_default_the_death_save_rolls_as_the_dying_turn_starts(tmp_path: Path) -> None:
    """Option death_saves = turn_start (the default): rolled already; the phone offers the
    end of the turn alone."""
    db = tmp_path / "dying.db"
    dying_fight(db, "turn_start")
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
        assert "death save due" not in panel
        assert panel_actions(panel) == ["next"], panel
        sent = table.tap("hero", action="death_save")
        assert sent.status_code == 400, sent.text
        assert "no death save is due for hero now" in sent.text



def hero_hits_a_wizard(db: Path, title: str, **sheet: object) -> None:
    """An srd fighter's longsword hits a wizard's AC 12 (9 +5 = 14), the wizard asked to
    answer: each wizard's sheet with `sheet` over the sample's."""
    with Fracas(str(db)) as log:
        fight = log.new("srd", title=title, encounter="fight")
        cast = (("hero", "fighter", "pc", 90), ("foe", "wizard", "npc", 10))
        for who, sample, side, init in cast:
            joining = srd_sample(sample, initiative=init, **sheet)
            do(fight, {"action": "join", "combatant": who, "sheet": joining, "side": side})
        do(fight, {"action": "begin"})
        hit = {"action": "attack", "actor": "hero", "targets": ["foe"], "weapon": "longsword"}
        fight.execute(fight.ruleset.command(hit), ask=Ask(), dice=[9])

def test_an_srd_shield_asked_says_it_is_cast_only_once_the_hit_is_known(tmp_path: Path) -> None:
    """srd-39: shield answers a hit. The phone asked for it with "+5 AC" alone, as if the
    wizard had to guess at an attack total the page could not show: the attack is rolled
    first, and a hit asks, its total shown, before the shield is cast."""
    db = tmp_path / "shield.db"
    hero_hits_a_wizard(db, "Shield")
    with phones(db, ("hero", "foe")) as table:
        asked = table.panel("foe")
        shield = re.search(r'data-choice="shield">[^<]*<small class="figures">([^<]*)', asked)
        assert shield, asked
        assert "only if the attack&#39;s total hits you" in shield[1], shield[1]
        assert "The attack was rolled before you were asked" in asked, asked
        sent = table.tap("foe", action="answer", fields={"choice": "shield"})
        assert sent.status_code == 200, sent.text


def test_an_srd_shield_offer_names_the_slot_it_will_spend(tmp_path: Path) -> None:
    """Issue 37 (a table tester): with no level 1 slot left ("1st 0/4") the phone offered
    shield with "a level 1 slot", and the answer spent a level 2 one. The offer names the
    slot srd will spend."""
    db = tmp_path / "shield.db"
    hero_hits_a_wizard(db, "Shield", slots=[0, 2])
    with phones(db, ("hero", "foe")) as table:
        asked = table.panel("foe")
        shield = re.search(r'data-choice="shield">[^<]*<small class="figures">([^<]*)', asked)
        assert shield, asked
        assert "a 2nd-level slot: no 1st-level left" in shield[1], shield[1]
        assert "1st-level slot" not in shield[1], shield[1]


def test_an_srd_reaction_asked_once_the_damage_landed_says_the_damage_is_rolled(
    tmp_path: Path,
) -> None:
    """Issue 37 (an outside tester): asked for hellish rebuke once the goblin's damage was
    rolled, the phone said "the server rolls the rest of it once you answer", as if the
    damage were still to roll. It says what is true of the step waiting: asked at the hit,
    the damage is still to roll; asked at the damage, only the reaction's dice are."""
    db = tmp_path / "rebuke.db"
    hero_hits_a_wizard(db, "Rebuke")
    with phones(db, ("hero", "foe")) as table:
        at_the_hit = " ".join(table.panel("foe").split())
        assert "the server rolls the attack&#39;s damage" in at_the_hit, at_the_hit
        sent = table.tap("foe", action="answer", fields={"choice": "none"})
        assert sent.status_code == 200, sent.text
        asked = " ".join(table.panel("foe").split())
        assert 'data-choice="hellish rebuke"' in asked, asked
        assert "rolls the rest of it" not in asked and "attack&#39;s damage" not in asked
        assert "The attack and its damage were rolled before you were asked" in asked, asked


def test_a_dying_characters_own_phone_counts_the_death_saves_the_board_does(
    tmp_path: Path,
) -> None:
    """Issue 37: the board said "dying (1 saved, 0 failed)" while the dying character's own
    phone showed only a "dying" chip; the panel says the count, from the board's status."""
    db = tmp_path / "dying.db"
    dying_fight(db, "turn_start")  # a 12 rolled: one saved
    with phones(db, ("hero",)) as table:
        panel, tv = table.panel("hero"), table.client.get("/").text
        assert "dying (1 saved, 0 failed)" in tv, tv
        assert "dying (1 saved, 0 failed)" in panel, panel
        assert panel.count(">dying") == 1, panel  # said once, not a bare chip beside it


def test_a_dying_characters_player_may_type_the_death_save_they_rolled(tmp_path: Path) -> None:
    """Issue 37 (a table tester): the docs said the server rolls a phone's Death save, and
    the phone offered a "Your dice" box for it. At a table a player rolls their own death
    save: the d20 they type is the save's, recorded as typed by them, and the docs say so."""
    db = tmp_path / "dying.db"
    dying_fight(db, "own_step")
    with phones(db, ("hero",)) as table:
        panel = table.panel("hero")
        chosen = re.search(r'<fieldset class="chosen" data-action="death_save".*?</fieldset>',
                           panel, re.S)  # fmt: skip
        assert chosen and "d20" in chosen[0], panel  # its dice field asks for the d20
        sent = table.tap("hero", action="death_save", dice=[14])
        assert sent.status_code == 200, sent.text
        rolled = last_rolls(db)
        said = [(r.purpose, r.roll.faces, r.roll.source, r.roll.entered_by) for r in rolled]
        assert said == [("death save", [14], "manual", "hero")], said
    docs = (Path(__file__).parents[1] / "docs" / "table.md").read_text()
    paragraph = " ".join(docs[docs.index("death_saves=own_step") :].split("\n\n")[0].split())
    assert "the server rolls it," not in paragraph, paragraph
    assert "unless the player types the d20 they rolled" in paragraph, paragraph
