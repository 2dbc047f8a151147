"""An outside table tester's GM (issue 37): the GM's `fracas act` decided a goblin's attack
on Ilse at once, and Ilse's player, who held a phone link, had shield to cast: nothing told
the GM the player could have been asked. One line says so; the log is as it was."""

from importlib import resources

import pytest

NOT_ASKED = "not asked: ilse's player holds a phone link and could react to this"


def srd_fight(run, linked: bool) -> None:
    wizard = str(resources.files("fracas_srd").joinpath("samples/wizard.toml"))
    run("new", "-r", "srd", "--id", "tower", "--title", "The tower")
    run("add", "ilse", "--sheet", wizard, "--side", "pc", "--name", "Ilse")
    run("add", "gob", "--monster", "goblin", "--side", "npc")
    run("begin", "--dice", "1,20")  # the goblin first
    if linked:
        run("invite", "ilse", "--url", "http://127.0.0.1:8000", "--no-qr")


@pytest.mark.parametrize("linked", [True, False])
def test_the_gm_is_told_once_a_linked_player_could_have_reacted(run, linked: bool) -> None:
    srd_fight(run, linked)
    said = run("act", "gob", "attack", "ilse", "--weapon", "scimitar", "--dice", "15,3").output
    lines = [line for line in said.splitlines() if line.startswith("not asked:")]
    assert lines == ([f"{NOT_ASKED} (`--ask` asks them)"] if linked else []), said
    assert "not asked" not in run("log").output  # nothing of it in the log


def test_an_attack_asked_with_ask_says_nothing_of_it(run) -> None:
    srd_fight(run, True)
    said = run("act", "gob", "attack", "ilse", "--weapon", "scimitar", "--ask").output
    assert "not asked" not in said, said
