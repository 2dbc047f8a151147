"""A hidden attacker's figures stay hidden in a step that others take: a timeslice attack
asked of its target and answered by them is shown as "someone unseen attacks carl:
misses", never with the attack's total or the target's roll against it (an outside tester
read "misses (11 against block 13)" on the TV and phones)."""

from tests.unseen import lair_cli, players_surfaces


def test_an_answered_attack_by_someone_unseen_shows_no_figure_of_theirs(tmp_path) -> None:
    db = tmp_path / "lair.db"
    run = lair_cli(db)
    run("new", "-r", "timeslice", "--id", "lair")
    carl = ["--set", "q=12", "--set", "v=13", "--set", "u=11", "--set", "hp=20"]
    sword = ["--set", 'weapons=[{name="sword",damage=4,parry=2}]', "--set", 'equipped=["sword"]']
    run("add", "carl", *carl, *sword, "--side", "pc")
    grunt = ["--set", "q=10", "--set", "v=11", "--set", "u=9", "--set", "hp=15"]
    axe = ["--set", 'weapons=[{name="axe",damage=5}]', "--set", 'equipped=["axe"]']
    run("add", "grunt", "--name", "Orc grunt", *grunt, *axe, "--hidden")
    run("begin", "--dice", "1,1,9,9")
    run("act", "grunt", "attack", "carl", "-w", "axe", "--ask")
    said = run("answer", "carl", "parry", "--dice", "4,5,6,7")
    assert "misses (10 against parry 14)" in said  # the GM's own words keep the figures
    seen = players_surfaces(db, run, "carl")
    assert "Someone unseen attacks carl: misses" in seen["md"]
    for where, text in seen.items():
        assert "against parry" not in text, f"the unseen attack's figures show in the {where}"
        assert "vs 10" not in text and "grunt" not in text.lower(), where
