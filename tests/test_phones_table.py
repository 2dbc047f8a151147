"""What an outside table tester found on the players' phones (issue 37, 390x844, six
rulesets), tested against the served pages in-process: each test fails on the code before
its fix."""

import json
import re
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from fracas.ledger import RefusedError
from fracas.projections import Fracas
from fracas.projections.phones import player_actions, shows
from fracas.rules import load as load_ruleset
from fracas.rules.reactions import ask_until
from tests.casts import fudge, shotclock, timeslice
from tests.support import KNIFE, SIX, do, gunner, sheet, srd_sample
from tests.web import armed, fight, gm, phones, secret_attack, until_turn

pytestmark = pytest.mark.sqlite_file


def wizard_and_wolf(tmp_path: Path) -> Path:
    """srd: a wizard (shield) played from a phone, and a wolf hidden from the players."""
    db = tmp_path / "srd.db"
    with Fracas(str(db)) as log:
        encounter = log.new("srd", title="A wolf in the dark", encounter="fight")
        wizard = {"combatant": "wizard", "sheet": srd_sample("wizard"), "side": "pc"}
        do(encounter, {"action": "join", **wizard})
        wolf = {"combatant": "wolf", "sheet": srd_sample("wolf")}
        encounter.execute(encounter.ruleset.command({"action": "join", **wolf}), hidden=True)
        do(encounter, {"action": "begin"})
    return db


def test_take_back_is_not_offered_for_an_answer_to_someone_unseen(tmp_path: Path) -> None:
    """The wizard answered a hidden wolf's bite: the players' screen shows no dice of that
    step (the wolf's are withheld), so the phone offered "Take back", and the server,
    which sees the server's dice rolled, refused it with a 403 the page did not show."""
    db = wizard_and_wolf(tmp_path)
    until_turn(db, "wolf")
    bite = {"action": "attack", "actor": "wolf", "targets": ["wizard"], "weapon": "bite"}
    gm(db, bite, ask=ask_until(None), dice=[10])  # srd asks for shield: 14 vs AC 12, turnable
    with phones(db, ("wizard",)) as table:
        asked = re.findall(r'data-choice="([^"]+)"', table.panel("wizard"))
        assert asked, table.panel("wizard")
        assert table.tap("wizard", action="answer", fields={"choice": "none"}).status_code == 200
        assert "Take back" not in table.panel("wizard"), table.panel("wizard")
        refused = table.tap("wizard", action="undo")
        assert refused.status_code == 403, refused.text


def test_a_take_back_refused_is_said_beside_its_button(tmp_path: Path) -> None:
    """A take-back's refusal was written at the top of the page, far from the button."""
    db = fight(tmp_path, "percentile")
    until_turn(db, "hero")
    with phones(db, ("hero",)) as table:
        assert table.tap("hero", action="aim").status_code == 200
        panel = table.panel("hero")
        undo = r'<button type="button" id="undo"[^>]*>[^<]*</button>\s*<p [^>]*>'
        offered = re.search(undo, panel)
        assert offered, panel
        assert 'aria-describedby="undo-refused"' in offered[0], offered[0]
        assert 'class="refused" id="undo-refused" role="alert"' in offered[0], offered[0]


@pytest.mark.parametrize("ruleset", SIX)
def test_a_secret_roll_the_players_wait_on_is_said_on_every_phone_and_to_the_gm(
    tmp_path: Path, ruleset: str
) -> None:
    """A GM-secret attack froze every phone until disclosed: the phones said nothing of it
    (one went on showing "Your turn" for a turn that was over), and the GM's page gave no
    warning that the players waited on the disclosure."""
    db = fight(tmp_path, ruleset)
    step = secret_attack(db)
    links = "/gm/e/fight/links"
    with phones(db, ("hero", "foe")) as table:
        screen = table.client.get(f"/p/{table.tokens['hero']}/screen").text
        assert 'class="withheld"' in screen, screen  # the players' screen waits on it
        for who in ("hero", "foe"):
            panel = table.panel(who)
            assert "The GM is resolving something secret" in panel, panel
            assert "Your turn" not in panel and 'data-acting="no"' in panel, panel
            assert 'class="action"' not in panel, panel  # a stale turn offers nothing
        warned = table.client.get(links, headers={"X-Fracas-Token": table.gm}).text
        assert f"Players wait on the disclosure of step {step}" in warned, warned
        assert f"disclose {step}" in warned, warned
        with Fracas(str(db)) as log:
            log.disclose(step, "fight")
        assert "resolving something secret" not in table.panel("hero")
        warned = table.client.get(links, headers={"X-Fracas-Token": table.gm}).text
        assert "Players wait" not in warned, warned


@pytest.mark.parametrize("ruleset", SIX)
def test_a_secret_free_roll_pauses_no_phone_and_a_secret_attack_does(
    tmp_path: Path, ruleset: str
) -> None:
    """docs/table.md: `fracas roll --secret` reads and changes nothing, so the phones go on
    (the roll shows masked); a secret roll that decides a step (an attack) makes the phones
    wait until the GM shows it."""
    db = fight(tmp_path, ruleset)
    gm(db, {"action": "roll", "dice": "d20", "reason": "spot the trap"}, secret=True)
    with phones(db, ("hero", "foe")) as table:
        acting = "hero" if "Your turn" in table.panel("hero") else "foe"
        panel = table.panel(acting)
        assert "resolving something secret" not in panel and 'class="action"' in panel, panel
        screen = table.client.get(f"/p/{table.tokens['hero']}/screen").text
        assert "The GM rolls: what it decided is GM-only" in screen, screen
        assert "spot the trap" not in screen and 'class="withheld"' not in screen, screen
    secret_attack(db)
    with phones(db, ("hero", "foe")) as table:
        for who in ("hero", "foe"):
            assert "The GM is resolving something secret" in table.panel(who)


def mooks(tmp_path: Path) -> Path:
    """shotclock: a mook played from a phone, and another."""
    db = tmp_path / "mooks.db"
    with Fracas(str(db)) as log:
        encounter = log.new("shotclock", title="Mooks", encounter="fight")
        for who in ("mook", "foe"):
            do(
                encounter,
                {"action": "join", "combatant": who, "sheet": shotclock.MOOK, "side": "pc"},
            )
        do(encounter, {"action": "begin"})
    return db


def offered(panel: str) -> set[str]:
    """The actions a panel offers, by name."""
    return set(re.findall(r'class="action" data-action="(\w+)"', panel))


def conditions(panel: str) -> set[str]:
    return set(re.findall(r'<span class="condition">([^<]+)</span>', panel))


def knock_down(db: Path, who: str, until: str = "") -> None:
    """The GM harms WHO a little at a time until the rules put them down (or out), or
    until they show the condition UNTIL."""
    for _ in range(40):
        with Fracas(str(db)) as log:
            encounter = log.encounter("fight")
            wound = next(w for w in encounter.view().wounds if w.combatant == who)
            down = encounter.ruleset.is_down(wound.conditions)
            if shows(wound.conditions, [until]) if until else down:
                return
        gm(db, {"action": "gm.harm", "target": who, "amount": 3, "reason": "a fall"})
    raise AssertionError(f"{who} never went down")


@pytest.mark.parametrize("ruleset", SIX)
def test_a_character_put_down_is_offered_only_what_the_rules_allow(
    tmp_path: Path, ruleset: str
) -> None:
    """A dying srd character's phone (0 HP) offered every action and reaction, as did an
    unconscious or incapacitated character's in the other rulesets: the rules refuse them
    all. A character put down is offered at most the end of their turn (in srd, whose step
    rolls a death save still due); one out of the fight, nothing."""
    db, who = fight(tmp_path, ruleset), "hero"
    if ruleset == "shotclock":  # its harm by hand puts only a mook out (001-M5)
        db, who = mooks(tmp_path), "mook"
    until_turn(db, who)
    with phones(db, (who,)) as table:
        assert offered(table.panel(who)) - {"next"}, table.panel(who)  # able: more
        knock_down(db, who)
        panel = table.panel(who)
        assert offered(panel) <= {"next"}, panel
        if 'data-acting="yes"' in panel:
            assert offered(panel) == {"next"}, panel  # someone has to end the turn
        with suppress(RefusedError):  # the turn moves on, if anyone is left to take one
            gm(db, {"action": "next"})
        assert offered(table.panel(who)) <= {"next"}, table.panel(who)


@pytest.mark.parametrize(("action", "condition"), [("stand", "prone"), ("escape", "grappled")])
def test_an_action_that_needs_a_condition_is_offered_only_with_it(
    tmp_path: Path, action: str, condition: str
) -> None:
    """srd: Escape and Stand were offered to a character neither grappled nor prone: the
    rules refuse them. The ruleset's declaration says what each needs."""
    db = fight(tmp_path, "srd")
    until_turn(db, "hero")
    with phones(db, ("hero",)) as table:
        assert action not in offered(table.panel("hero")), table.panel("hero")
        gm(db, {"action": "gm.condition-set", "target": "hero", "condition": condition})
        assert action in offered(table.panel("hero")), table.panel("hero")


@pytest.mark.parametrize(
    ("ruleset", "action", "shown"),
    [
        ("percentile", "stand", "prone"),
        ("percentile", "escape", "pinned"),
        ("fudge", "break", "held by bo"),
        ("fudge", "break", "pinned by bo"),
        ("fudge", "release", "holding bo"),
    ],
)
def test_the_other_rulesets_offer_an_action_only_with_the_condition_it_needs(
    ruleset: str, action: str, shown: str
) -> None:
    """The same in the rulesets whose conditions the GM cannot set by hand (the rules track
    them): the condition as the players' screen shows it brings the action."""
    rules = load_ruleset(ruleset)
    without = {a.name for a in player_actions(rules, None, True, [])}
    with_it = {a.name for a in player_actions(rules, None, True, [shown])}
    assert action not in without and action in with_it


def test_an_ally_and_a_foe_are_told_apart_in_words_on_the_target_pills(tmp_path: Path) -> None:
    """Ally and enemy target pills looked alike (one colour for all): each now says its
    side in a word (and a class its colour follows), on every pill naming a combatant."""
    db = tmp_path / "srd.db"
    with Fracas(str(db)) as log:
        encounter = log.new("srd", title="The crypt", encounter="fight")
        for who, sheet, side in (("cleric", "cleric", "pc"), ("fighter", "fighter", "pc")):
            do(
                encounter,
                {"action": "join", "combatant": who, "sheet": srd_sample(sheet), "side": side},
            )
        do(encounter, {"action": "join", "combatant": "goblin", "sheet": srd_sample("goblin")})
        do(encounter, {"action": "begin"})
    until_turn(db, "cleric")
    with phones(db, ("cleric",)) as table:
        panel = table.panel("cleric")
        pills = re.findall(
            r'<label class="tap (\w+)"><input type="(?:checkbox|radio)"[^>]* value="(\w+)"[^>]*>'
            r"<span>[^<]*(?:<small class=\"side\">(\w+)</small>)?</span>",
            panel,
        )
        sides = {(who, side, word) for side, who, word in pills}
        assert ("fighter", "ally", "ally") in sides and ("goblin", "foe", "foe") in sides, pills
        assert ("cleric", "self", "") in sides, pills  # cure wounds: yourself, said so
        assert {who for who, side, _ in sides if side == "foe"} == {"goblin"}, pills


def fieldset(panel: str, action: str) -> str:
    found = re.search(
        rf'<fieldset class="chosen" data-action="{action}".*?</fieldset>', panel, re.S
    )
    assert found, panel
    return found[0]


def shown_with(panel: str, action: str, field: str) -> tuple[str, list[str]] | None:
    """When an action's field shows: ("", []) always, (other field, its values) only with
    those, None never (the phone leaves it off)."""
    for part in re.split(r'(?=<div class="field")', fieldset(panel, action)):
        if f'data-field="{field}"' in part:
            when = re.match(r"""<div class="field" data-when="(\w+)" data-values='([^']*)'""", part)
            return (when[1], json.loads(when[2])) if when else ("", [])
    return None


# a combatant with what a field applies to, and one without (where a sheet can lack it)
CASTS_OF = {
    "fudge": (("ana", fudge.ANA), ("bo", fudge.BO)),
    "percentile": (("alice", gunner()), ("bob", sheet(12, weapons=[KNIFE], holding=["knife"]))),
    "timeslice": (("alice", timeslice.ALICE), ("orc", timeslice.ORC)),
}


def party(tmp_path: Path, ruleset: str, cast: dict[str, dict[str, Any]]) -> Path:
    db = tmp_path / f"{ruleset}.db"
    with Fracas(str(db)) as log:
        encounter = log.new(ruleset, title="A fight", encounter="fight")
        for who, sheet in cast.items():
            do(encounter, {"action": "join", "combatant": who, "sheet": sheet, "side": "pc"})
        do(encounter, {"action": "begin"})
    return db


def test_an_srd_field_shows_only_with_what_it_applies_to(tmp_path: Path) -> None:
    """The attack form showed the range with a sword, and the spell form a slot level with a
    cantrip and darts for every spell: each field now shows with what it applies to (as
    the ruleset declares), and not at all where the sheet has nothing it applies to."""
    melee_only = srd_sample("fighter", weapons=[srd_sample("fighter")["weapons"][0]])
    cast = {"wizard": srd_sample("wizard"), "fighter": srd_sample("fighter"), "brute": melee_only}
    db = party(tmp_path, "srd", cast)
    with phones(db, ("wizard", "fighter", "brute")) as table:
        until_turn(db, "fighter")
        assert shown_with(table.panel("fighter"), "attack", "range") == (
            "weapon",
            ["handaxe", "longbow"],
        )
        assert shown_with(table.panel("fighter"), "attack", "weapon") == ("", [])
        until_turn(db, "brute")
        assert shown_with(table.panel("brute"), "attack", "range") is None  # a sword alone
        until_turn(db, "wizard")
        panel = table.panel("wizard")
        levelled = ["magic missile", "burning hands", "shield", "absorb elements", "hellish rebuke"]
        levelled += ["mage armor"]  # named alone on the sheet: the spellbook plays it
        assert shown_with(panel, "cast", "level") == ("spell", levelled)
        assert shown_with(panel, "cast", "within_5ft") == ("spell", ["fire bolt"])
        darts = re.findall(
            r"""<input class="times"[^>]*data-when="spell" data-values='([^']*)'""", panel
        )
        assert darts and {d for d in darts} == {'["magic missile"]'}, fieldset(panel, "cast")


@pytest.mark.parametrize(
    ("ruleset", "field", "with_it", "without"),
    [
        ("fudge", "burst", ("weapon", ["rifle"]), None),  # a burst: a weapon's (003-23)
        ("percentile", "shots", ("weapon", ["pistol"]), None),  # automatic fire: a firearm's
        ("timeslice", "limb", ("called", ["limb"]), ("called", ["limb"])),  # a called shot's
    ],
)
def test_the_other_rulesets_fields_show_only_with_what_they_apply_to(
    tmp_path: Path,
    ruleset: str,
    field: str,
    with_it: tuple[str, list[str]],
    without: tuple[str, list[str]] | None,
) -> None:
    """The same in the other rulesets: 4dF's attack offered a burst with a pistol or a club,
    percentile's automatic fire with a knife, time slices' limb without a called shot."""
    (hero, mine), (foe, theirs) = CASTS_OF[ruleset]
    db = party(tmp_path, ruleset, {hero: mine, foe: theirs})
    with phones(db, (hero, foe)) as table:
        until_turn(db, hero)
        assert shown_with(table.panel(hero), "attack", field) == with_it
        until_turn(db, foe)
        assert shown_with(table.panel(foe), "attack", field) == without


@pytest.mark.parametrize("ruleset", ["percentile", "pool", "shotclock", "timeslice", "srd"])
def test_a_reaction_asked_shows_each_choices_figures(tmp_path: Path, ruleset: str) -> None:
    """Reactions were offered as bare words ("shield", "parry"): each now shows its figures
    from the target's own sheet (a Dodge rating, a pool, shield's AC), never the
    attacker's sheet nor the fight's state. 4dF asks no reaction (defences are declared)."""
    if ruleset == "srd":  # the wizard has reactions to choose: shield, hellish rebuke
        db = party(tmp_path, "srd", {"hero": srd_sample("fighter"), "foe": srd_sample("wizard")})
    else:
        db = fight(tmp_path, ruleset)
    until_turn(db, "hero")
    with phones(db, ("hero", "foe")) as table:
        if ruleset == "srd":  # asked once the attack hits by less than shield's +5 (srd-39):
            attack = {"action": "attack", "actor": "hero", "targets": ["foe"]}  # 9 + 5 vs AC 12
            gm(db, {**attack, **armed(db, "hero")}, ask=ask_until(None), dice=[9])
        else:
            hit = table.tap("hero", action="attack", targets=["foe"], fields=armed(db, "hero"))
            assert hit.status_code == 200, hit.text
        panel = table.panel("foe")
        choices = dict(
            re.findall(
                r'data-choice="([^"]+)">[^<]*(?:<small class="figures">([^<]*)</small>)?', panel
            )
        )
        assert len(choices) >= 2, panel
        figured = {c: said for c, said in choices.items() if c not in ("none", "passive")}
        assert figured and all(re.search(r"\d", said) for said in figured.values()), choices
        if ruleset == "srd":
            assert choices["shield"].startswith("+5 AC"), choices
        if ruleset == "percentile":  # a defence costs the defender's next action (000-M10)
            assert all(s.endswith("; uses your next action") for s in figured.values()), choices


@pytest.mark.parametrize("condition", ["stunned", "paralysed", "incapacitated"])
def test_an_srd_character_stunned_is_offered_no_action_nor_reaction(
    tmp_path: Path, condition: str
) -> None:
    """srd-27: an incapacitated creature (stunned, paralysed) takes no action and no
    reaction, though not down: its phone offered them all."""
    db = fight(tmp_path, "srd")
    until_turn(db, "hero")
    gm(db, {"action": "ready", "actor": "hero", "trigger": "it comes", "then": "attack"})
    with phones(db, ("hero",)) as table:
        until_turn(db, "foe")
        # (the duel's foe is another player's character, on the hero's side: no
        # opportunity attack is offered on it, srd-18's "hostile creature")
        assert offered(table.panel("hero")) == {"react"}, table.panel("hero")
        gm(db, {"action": "gm.condition-set", "target": "hero", "condition": condition})
        assert offered(table.panel("hero")) == set(), table.panel("hero")
        until_turn(db, "hero")
        assert offered(table.panel("hero")) <= {"next"}, table.panel("hero")


@pytest.mark.parametrize(("ruleset", "action"), [("srd", "stabilise"), ("timeslice", "treat")])
def test_an_action_on_the_dying_is_offered_only_while_someone_is_and_names_only_them(
    tmp_path: Path, ruleset: str, action: str
) -> None:
    """srd's Stabilise (srd-16) and time slices' Treat (002-21) were offered with nobody
    dying, and named anyone: the rules refuse them on one who is not dying."""
    mine, theirs = srd_sample("fighter"), srd_sample("rogue")
    if ruleset == "timeslice":  # a medical kit treats (002-21)
        mine, theirs = {**timeslice.ALICE, "medical_kit": True}, timeslice.ORC
    db = party(tmp_path, ruleset, {"hero": mine, "ally": theirs, "other": theirs})
    until_turn(db, "hero")
    with phones(db, ("hero",)) as table:
        assert action not in offered(table.panel("hero")), table.panel("hero")
        knock_down(db, "ally", until="dying")
        panel = table.panel("hero")
        assert action in offered(panel), panel
        assert taps(fieldset(panel, action)) == {"ally"}, fieldset(panel, action)
        assert {"ally", "other"} <= taps(fieldset(panel, "attack"))


def taps(part: str) -> set[str]:
    return set(re.findall(r'<input type="checkbox" value="([^"]+)" data-target', part))
