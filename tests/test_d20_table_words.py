"""The srd plugin's words as a 5e table hears them from the CLI (issue 40's outside tester):
a player character is "their", never "its"; a monster keeps "its"."""

from tests.support import SRD_SAMPLES, refused


def srd_fight(run) -> None:
    """Ada (a pc fighter, who wins initiative on the seeded dice) against one goblin."""
    run("new", "-r", "srd")
    run("add", "ada", "--sheet", f"{SRD_SAMPLES}/fighter.toml", "--side", "pc", "--name", "Ada")
    run("add", "gob", "--sheet", f"{SRD_SAMPLES}/goblin.toml", "--name", "Goblin")
    run("begin")


def acting(run) -> str:
    import json

    return json.loads(run("status", "--json").output)["acting"][0]


def test_a_player_characters_refusals_say_their_and_a_monsters_say_its(run) -> None:
    srd_fight(run)
    first = acting(run)
    run("act", first, "dodge")
    said = refused(run, "act", first, "dash")
    pc_first = first == "ada"
    mine, other = ("their", "its") if pc_first else ("its", "their")
    assert f"already taken {mine} action" in said and f"{mine} reaction" in said, said
    assert f"{other} action" not in said and f"{other} reaction" not in said, said
    run("next")
    second = acting(run)
    run("act", second, "dodge")
    said = refused(run, "act", second, "dash")
    assert f"already taken {other} action" in said and f"{other} reaction" in said, said


def test_a_player_character_not_moving_is_not_moving_on_their_own_turn(run) -> None:
    srd_fight(run)
    first = acting(run)
    other = "gob" if first == "ada" else "ada"
    said = refused(run, "act", first, "opportunity", other)
    pronoun = "their" if other == "ada" else "its"
    assert f"not moving on {pronoun} own turn" in said, said
