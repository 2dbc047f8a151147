"""A hidden combatant is secret in who it is, not in what it did (issue 38): its (not
GM-only) blow on a combatant the players see reaches the players' page, stream, phone
and exports at once, done by "someone unseen"; its name, sheet, rolls and place in the
order reach none of them until the GM reveals it, and the turn moves on as players see it.
(In srd an attack roll gives the attacker away, srd-23: there the blow is a breath.)"""

import json

import pytest

from fracas.cli.serve import Table
from fracas.projections.screen import PLAYERS
from tests.unseen import SAMPLES, lair_cli, players_surfaces, shut


def srd_lair(run) -> tuple[str, str, str, list[str], str]:
    """Wren (21 HP), the hidden Ashen Wyrm, Maelis, in that order; the wyrm's fire breath
    (no attack roll, which would give it away: srd-23) takes 10 of Wren's 21 and the GM
    lays her prone in the wyrm's turn."""
    run("new", "-r", "srd", "--id", "lair")
    run("add", "wren", "--sheet", str(SAMPLES / "rogue.toml"), "--side", "pc", "--name", "Wren")
    run("add", "maelis", "--sheet", str(SAMPLES / "cleric.toml"), "--side", "pc")
    run("add", "wyrm", "--sheet", str(SAMPLES / "wyrm.toml"), "--name", "Ashen Wyrm", "--hidden")
    run("begin", "--dice", "20,5,15")
    run("next")
    breath = ["cast", "wren", "-o", "spell=fire breath", "--dice", "2" + ",1" * 10]
    return "wyrm", "Ashen Wyrm", "HP 11/21, Hit Dice 3/3", breath, "Someone unseen casts on Wren"


def percentile_ambush(run) -> tuple[str, str, str, list[str], str]:
    """Alice (DEX 14), the hidden lurker (DEX 12) with a knife, Bob (DEX 10)."""
    run("new", "--id", "lair")
    run("add", "alice", "--set", "dex=14", "--side", "pc", "--set", "hp=12")
    run("add", "bob", "--set", "dex=10", "--side", "pc")
    knife = '--set=weapons=[{name="knife",kind="melee",damage="1d4"}]'
    hold = ["--set", 'holding=["knife"]']
    run("add", "lurker", "--name", "The Lurker", "--set", "dex=12", knife, *hold, "--hidden")
    run("begin")
    run("next")
    stab = ["attack", "alice", "-w", "knife", "--dice", "5,4"]
    return "lurker", "The Lurker", "HP 8/12", stab, "Someone unseen attacks alice"


@pytest.mark.parametrize("fight", [srd_lair, percentile_ambush], ids=["srd", "percentile"])
def test_a_hidden_attackers_blow_shows_at_once_and_the_attacker_nowhere(tmp_path, fight):
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    hidden, name, health, blow, said = fight(run)
    target = "Wren" if hidden == "wyrm" else "alice"
    phone_of = target.lower()
    laid = "prone" if hidden == "wyrm" else "bleeding"  # percentile tracks prone itself
    table = Table(str(db), "token")
    try:
        page = table.render_screen("lair", PLAYERS)
        assert "the GM is acting" in page  # its turn: no name, no count
    finally:
        shut(table)
    run("act", hidden, *blow)
    run("condition", "set", phone_of, laid)  # the GM's ruling in its turn
    if hidden == "wyrm":
        run("next")  # the wyrm's turn ends (a percentile attack ends the turn itself)
    seen = players_surfaces(db, run, phone_of)
    for where, text in seen.items():
        for secret in (hidden, name, name.split()[-1]):
            assert secret.lower() not in text.lower(), f"the hidden attacker shows in the {where}"
    assert "takes" in seen["md"] and "from an unseen attacker" in seen["md"]
    assert said in seen["md"]
    assert "someone unseen" in seen["jsonl"]
    assert health in seen["page"] and laid in seen["page"]
    phone = json.loads(seen["phone"])
    assert phone["health"] == health and laid in phone["conditions"]  # not stale
    assert "the GM is acting" not in seen["page"]  # the turn moved on to the next one seen
    assert "to act" in seen["page"]
    assert "wait" not in seen["md"].lower()  # nothing held back for a reveal
    run("reveal-combatant", hidden)
    assert name in run("export", "--format", "md", "--for", "players")
