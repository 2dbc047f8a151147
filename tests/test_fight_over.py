"""A fight with a side that has nobody left standing says so, in the GM's step and status,
with the command that ends it (`fracas end`): `next` went on into new rounds in silence."""

from tests.support import SHEETS

OVER = "no NPC is left fighting; the PCs' side stands: end the fight with `fracas end`?"


def test_the_last_foe_down_says_the_fight_is_over_and_how_to_end_it(run):
    run("new", "--title", "Motel")
    run("add", "alice", "--sheet", str(SHEETS / "alice.toml"), "--side", "pc")
    run("add", "cultist", "--sheet", str(SHEETS / "cultist.toml"), "--side", "npc")
    run("begin")
    assert OVER not in run("harm", "cultist", "3").output
    assert OVER in run("harm", "cultist", "20").output
    assert OVER not in run("next").output  # said once, by the step that made it so
    assert OVER in run("status").output
    run("end")
    assert OVER not in run("status").output
