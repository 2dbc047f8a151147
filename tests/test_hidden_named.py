"""A hidden combatant named by a step players may see (issue 38): a visible combatant's
attack on it, the GM's ruling on it, its joining, a spell it casts that a player saves
against. Each is shown at once with the hidden one said as "someone unseen", the steps
after it follow at once, and what reads the hidden one's sheet (its Armor Class, its save
DC, the rolls against it) stays out; the players' step numbers are the GM's."""

import json
import re
from pathlib import Path

from fracas.cli.serve import Table
from fracas.projections.screen import PLAYERS
from tests.unseen import SAMPLES, gm_cli, lair_cli, players_surfaces, shut


def unseen_anywhere(seen: dict[str, str], *secrets: str) -> None:
    for where, text in seen.items():
        for secret in secrets:
            at = text.lower().find(secret.lower())
            assert at < 0, f"{secret!r} shows in the players' {where}: {text[at - 80 : at + 60]!r}"


def lair(run) -> None:
    """Wren (21 HP), the hidden Ashen Wyrm, Maelis, in that order: Wren's turn."""
    run("new", "-r", "srd", "--id", "lair")
    run("add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--name", "Wren")
    run("add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--side", "pc")
    run("add", "wyrm", "--sheet", str(SAMPLES / "wyrm.toml"), "--name", "Ashen Wyrm", "--hidden")
    run("begin", "--dice", "20,5,15")


def test_a_pc_attacking_the_hidden_one_and_the_gms_ruling_on_it_show_at_once(tmp_path: Path):
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    lair(run)  # Wren's turn: she attacks the hidden wyrm, the GM lays it prone
    run("act", "wren", "attack", "wyrm", "-w", "dagger", "--dice", "15,3")
    run("condition", "set", "wyrm", "prone")
    run("next")  # the wyrm's turn: it breathes fire on Wren (a bite would give it away,
    # srd-23), then Maelis's turn
    run("act", "wyrm", "cast", "wren", "-o", "spell=fire breath", "--dice", "2" + ",1" * 10)
    run("next")
    seen = players_surfaces(db, run, "wren")
    unseen_anywhere(seen, "wyrm", "ashen", "AC 18")
    md = seen["md"]
    assert "Wren attacks someone unseen" in md
    assert "The GM sets a condition on someone unseen" in md
    assert "Wren takes 10 fire damage from an unseen attacker" in md
    assert "HP 11/21" in seen["page"] and "maelis to act" in seen["page"]
    assert json.loads(seen["phone"])["health"] == "HP 11/21, Hit Dice 3/3"
    assert "wait" not in md.lower()
    rolled = [
        e
        for line in seen["jsonl"].splitlines()[1:]
        for e in json.loads(line).get("events", [])
        if e["kind"] == "rolled"
    ]
    assert not [r for r in rolled if r["purpose"].startswith("attack")], "rolls against it show"


def test_the_players_step_numbers_are_the_gms_after_a_hidden_join(tmp_path: Path):
    """The same number is the same step: the hidden one's joining is held back like the
    GM's secret steps ("a step the GM has not shown yet", issue 37), so nothing after it is
    numbered otherwise."""
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    lair(run)
    run("act", "wren", "attack", "wyrm", "-w", "dagger", "--dice", "15,3")
    run("next")
    md = run("export", "--format", "md", "--for", "players")
    gm = run("export", "--format", "md")
    assert "- 4. A step the GM has not shown yet" in md
    for number, said in ((5, "The fight begins"), (6, "Wren attacks"), (7, "Wren ends the turn")):
        assert f"- {number}. {said}" in md and f"- {number}. {said}" in gm, number
    table = Table(str(db), "token")
    try:
        assert '"steps": 7' in table.update("lair", PLAYERS)
    finally:
        shut(table)


def test_a_players_save_against_a_hidden_caster_shows_neither_the_dc_nor_the_caster(
    tmp_path: Path,
):
    """The hidden cleric's sacred flame: Wren's Dexterity save is against a DC read from
    the caster's sheet; players see the flame's effect on Wren, not the DC or who cast it."""
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    run("new", "-r", "srd", "--id", "lair")
    run("add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--name", "Wren")
    cleric = ["--sheet", str(SAMPLES / "cleric.toml"), "--name", "Ashen Priest", "--hidden"]
    run("add", "wyrm", *cleric)
    run("begin", "--dice", "5,15")  # the priest first
    run("act", "wyrm", "cast", "wren", "-o", "spell=sacred flame", "--dice", "2,7")
    seen = players_surfaces(db, run, "wren")
    unseen_anywhere(seen, "wyrm", "priest", "DC 13")
    assert "Someone unseen casts" in seen["md"]
    assert "Wren takes" in seen["md"]


def test_the_head_codes_footer_says_why_it_stops_and_goes_once_all_is_shown(tmp_path: Path):
    """The footer under the players' head code stands while the record holds what the GM
    keeps back (a secret roll, who a hidden one is), and goes once it is all shown: after a
    disclosure, a reveal, and a secret taken back then disclosed."""
    db = tmp_path / "duel.db"
    run = gm_cli(db)

    def footer() -> str:
        table = Table(str(db), "token")
        try:
            page = table.render_screen("duel", PLAYERS)
        finally:
            shut(table)
        return page.split('class="head"', 1)[1] if 'class="head"' in page else ""

    run("new", "--id", "duel")
    run("add", "alice", "--set", "dex=14", "--side", "pc")
    run("add", "bob", "--set", "dex=10")
    run("begin")
    kept = "secret until shown"
    for doing, showing in (
        (("roll", "d20", "--secret"), ("disclose", "5")),
        (("add", "lurk", "--set", "dex=3", "--hidden"), ("reveal-combatant", "lurk")),
    ):
        run(*doing)
        assert kept in footer(), doing
        # issue 37 (a table tester): the TV's footer ran to five lines and never said which
        # step held it back; now short, naming the step the GM keeps secret
        said = re.sub(r"<[^>]+>", "", footer().split("</p>", 1)[0])
        found = re.search(r"as of step (\d+): the GM keeps step (\d+) secret until shown", said)
        assert found and int(found[2]) == int(found[1]) + 1, said
        assert len(said.split()) <= 16, said
        run(*showing)
        assert kept not in footer() and "note it" in footer(), showing
    run("act", "alice", "other", "-o", "what=listens", "-o", "test=dex", "--secret")
    run("undo")  # taken back: its dice are still the GM's, and the head code runs through them
    assert kept in footer()
    run("disclose", "9")
    assert kept not in footer() and "note it" in footer()


def test_a_save_repeated_against_a_hidden_casters_spell_shows_no_dc(tmp_path: Path):
    """The hidden priest holds Wren (hold person, save ends): at the end of each of her
    turns she saves again, against the DC the priest's sheet gives; players see that she is
    still paralysed, not the DC."""
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    run("new", "-r", "srd", "--id", "lair")
    run("add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--name", "Wren")
    cleric = ["--sheet", str(SAMPLES / "cleric.toml"), "--name", "Ashen Priest", "--hidden"]
    run("add", "wyrm", *cleric)
    run("begin", "--dice", "5,15")  # the priest first
    run("act", "wyrm", "cast", "wren", "-o", "spell=hold person", "--dice", "2")
    run("next")
    run("next", "--dice", "3")  # Wren's turn ends: her save again fails
    assert "DC 13" in run("export", "--format", "md")  # the GM's report has it
    seen = players_surfaces(db, run, "wren")
    unseen_anywhere(seen, "wyrm", "priest", "DC 13")
    assert "paralysed" in seen["page"]


def test_a_hidden_join_shows_the_players_nothing_until_the_reveal(tmp_path: Path):
    """Issue 37 (an outside table tester): "Someone unseen joins the fight" on the TV and
    the phones as the GM set up the ambush told the table one was coming. Players see
    nothing of a hidden combatant's joining, on the page, the stream, a phone, the step's
    detail or their reports: in its place a step the GM has not shown yet, as a secret
    step's; the steps after it keep the GM's numbers (docs/protects.md), the head code
    players may note stands before it and audits clean; revealed, the joining shows."""
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    lair(run)
    run("act", "wren", "attack", "wyrm", "-w", "dagger", "--dice", "15,3")
    run("next")
    seen = players_surfaces(db, run, "wren")
    for where, text in seen.items():
        assert "joins the fight" not in text.replace("(pc) joins the fight", ""), (where, text)
    assert "- 4. A step the GM has not shown yet" in seen["md"]
    for number, said in ((5, "The fight begins"), (6, "Wren attacks"), (7, "Wren ends the turn")):
        assert f"- {number}. {said}" in seen["md"], number
    told = [json.loads(line) for line in seen["jsonl"].splitlines()]
    held = [line for line in told if line.get("step") == 4]
    assert held and held[0].get("unshown") and "events" not in held[0], held
    table = Table(str(db), "token")  # the head code players may note stops before it
    try:
        screen = table.screen("lair", PLAYERS)
    finally:
        shut(table)
    assert screen.head_step == 3 and screen.head_code, screen.head_step
    assert "the log still extends it" in run("audit", "--head", screen.head_code)
    run("reveal-combatant", "wyrm")
    assert "- 4. Ashen Wyrm (npc) joins the fight" in run(
        "export", "--format", "md", "--for", "players"
    )
