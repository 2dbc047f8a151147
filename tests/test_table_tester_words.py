"""What an outside table tester (issue 37: a TV at 1920x1080, phones at 390x844) found the
players' surfaces saying in the engine's words: a withheld step 'by' nobody, the log's
authors by their ids."""

import re
from pathlib import Path

import pytest

from fracas.cli.serve import Table
from fracas.projections import Fracas
from fracas.projections.screen import PLAYERS
from tests.unseen import gm_cli, shut
from tests.web import RULESETS, duel, duel_attack, fracas, phones, secret_fight

PISTOL = '--set=weapons=[{name="pistol",kind="firearm",damage="1d10"}]'


def players_page(db: Path, encounter: str) -> str:
    table = Table(str(db), "token")
    try:
        return table.render_screen(encounter, PLAYERS)
    finally:
        shut(table)


def test_a_withheld_step_is_not_said_to_be_by_anyone(tmp_path: Path) -> None:
    """The TV read 'A step the GM has not shown yet by', nothing after 'by'."""
    run = gm_cli(tmp_path / "f.db")
    run("new", "--id", "f")
    gun = ["--set", "skills.firearms=60", PISTOL, "--set", 'holding=["pistol"]']
    run("add", "alice", "--set", "dex=14", "--side", "pc", *gun)
    run("add", "bob", "--set", "dex=10", "--set", "hp=3", *gun)
    run("begin")
    run("act", "alice", "attack", "bob", "-w", "pistol", "--secret", "--dice", "30,2")
    run("next")  # waits on the shot: withheld
    page = players_page(tmp_path / "f.db", "f")
    entries = re.findall(r'data-part="step:\d+">.*?</li>', page, re.S)
    entry = next((e for e in entries if "not shown yet" in e), None)
    assert entry, page
    assert 'class="by"' not in entry, entry


@pytest.mark.sqlite_file
def test_the_log_names_a_phones_author_by_name(tmp_path: Path) -> None:
    """The TV's log read 'by ilse', 'by brannoc': the combatant's id."""
    db = tmp_path / "fight.db"
    duel(db, "percentile")
    names = {"hero": "Ilse Vane", "foe": "Brannoc Ash"}
    for who, name in names.items():
        fracas(db, "rename", who, name)
    with phones(db, ("hero", "foe")) as table:
        with Fracas(str(db)) as log:
            step = duel_attack(log.encounter("fight"))
        actor = step.pop("actor")
        assert table.tap(actor, **step).status_code == 200
        page = table.client.get("/e/fight").text
    # the one acting gave the command: the line names them, and no "by" says it again
    newest = re.findall(r'data-part="step:\d+">.*?</li>', page, re.S)[0]
    assert f">{names[actor]} " in newest and 'class="by"' not in newest, newest
    assert actor not in re.sub(r"<[^>]*>", "", newest), newest


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phones_refusals_speak_to_the_player_not_in_commands_or_ids(
    tmp_path: Path, ruleset: str
) -> None:
    """A phone read 'give every face with --dice in the order rolled' and 'it is not wren's
    turn' (the id): a player is told in words, of the box on their page, and of their turn."""
    db = tmp_path / "fight.db"
    duel(db, ruleset)
    with phones(db, ("hero", "foe")) as table:
        with Fracas(str(db)) as log:
            step = duel_attack(log.encounter("fight"))
        actor = step.pop("actor")
        other = "foe" if actor == "hero" else "hero"
        short = table.tap(actor, **step, dice=[1] * 40)
        assert short.status_code == 400, short.text
        assert "--" not in short.text and "dice" in short.text, short.text
        out_of_turn = table.tap(other, action="attack", targets=[actor])
        assert out_of_turn.status_code == 403, out_of_turn.text
        assert "your turn" in out_of_turn.text and f"{other}'s" not in out_of_turn.text


@pytest.mark.sqlite_file
def test_a_phone_whose_page_waits_on_a_secret_roll_may_not_act(tmp_path: Path) -> None:
    """After the GM's secret shot at Alice, whose turn it is now, Alice's page offered no
    action (who acts waits on the shot), yet her step sent to /act landed, and her row on
    the TV stayed as before it. Whether a tap lands must not say what the secret decided: while the
    players' page waits on it, a turn's step is refused, as the page offers none."""
    db = tmp_path / "duel.db"
    secret_fight(db, "30,2")  # Bob's secret shot at Alice (a hit for 2) ends his turn
    with phones(db, ("alice",), encounter="duel") as table:
        assert 'data-acting="yes"' not in table.panel("alice")
        before = table.steps("duel")
        tapped = table.tap("alice", action="attack", targets=["bob"], fields={"weapon": "pistol"})
        assert tapped.status_code == 403, tapped.text
        assert "secret" in tapped.text and "wait" in tapped.text, tapped.text
        assert table.steps("duel") == before
        fracas(db, "disclose", "6")
        assert 'data-acting="yes"' in table.panel("alice")
        landed = table.tap("alice", action="attack", targets=["bob"], fields={"weapon": "pistol"})
        assert landed.status_code == 200, landed.text


@pytest.mark.sqlite_file
def test_a_hidden_combatants_own_phone_is_headed_with_its_name(tmp_path: Path) -> None:
    """A hidden shaman's own phone was headed 'shaman', its id: its player may know whom
    they play, by name, though the table does not see it yet."""
    db = tmp_path / "fight.db"
    duel(db, "percentile")
    fracas(db, "add", "shaman", "--name", "Old Shaman", "--set", "dex=9", "--hidden")
    with phones(db, ("shaman",)) as table:
        panel = table.panel("shaman")
    assert "<h2>Old Shaman</h2>" in panel, panel


@pytest.mark.sqlite_file
def test_replaying_a_step_on_the_players_page_says_it_in_words(tmp_path: Path) -> None:
    """'Replay this step' on the players' page listed the engine's lines ('hero spends 1
    action: attack', 'seeded #27.0', 'command: answer (ilse)') under a heading 'by hero'."""
    db = tmp_path / "fight.db"
    duel(db, "percentile")
    names = {"hero": "Ilse Vane", "foe": "Brannoc Ash"}
    for who, name in names.items():
        fracas(db, "rename", who, name)
    with Fracas(str(db)) as log:
        step = duel_attack(log.encounter("fight"))
    actor = step.pop("actor")
    with phones(db, (actor,)) as table:  # the target holds no link: the attack rolls at once
        assert table.tap(actor, **step).status_code == 200
        shown = table.client.get(f"/e/fight/step/{table.steps()}").text
        gm = table.client.get(
            f"/gm/e/fight/step/{table.steps()}", headers={"X-Fracas-Token": table.gm}
        ).text
    assert f"by {names[actor]}" in shown, shown
    assert "seeded #" not in shown and "spends" not in shown and "declares" not in shown, shown
    assert "seeded #" in gm and "spends" in gm  # the GM's replay keeps the engine's lines


@pytest.mark.sqlite_file
def test_a_reaction_asked_reads_in_words_on_the_phone(tmp_path: Path) -> None:
    """The choices of a reaction asked read 'fight-back': the rules' token. Each button
    now says it in words ('fight back'), and sends the token."""
    db = tmp_path / "fight.db"
    duel(db, "percentile")
    with Fracas(str(db)) as log:
        step = duel_attack(log.encounter("fight"))
    actor, target = step["actor"], step["targets"][0]
    with phones(db, ("hero", "foe")) as table:
        fracas(db, "-e", "fight", "act", actor, "attack", target, "-w", "unarmed", "--ask")
        buttons = re.findall(r'data-choice="([^"]+)">([^<]*)<', table.panel(target))
    assert "fight-back" in dict(buttons), buttons  # a blow in hand-to-hand may be fought back
    for token, label in buttons:
        assert label.strip() and not re.search(r"[-_]", label), (token, label)
        assert label.strip().lower() == re.sub(r"[-_]", " ", token), (token, label)
