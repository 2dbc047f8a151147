"""An answer to an attack says what the reaction did to the attack (issue 37, a table tester in
pool: "Ana answers dodge: Ana's dodge (failure)" said nothing of what the answer changed).
Every ruleset whose attacks wait for a reaction: the answer's line names the attack and how
it came out, in the words of the step's sentence."""

from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.replay import timeline
from fracas.rules.events import Resolved
from fracas.rules.reactions import Ask
from tests.web import duel

ANSWERING = ("percentile", "pool", "shotclock", "timeslice")  # srd: test_tv's shield lines


@pytest.mark.sqlite_file
@pytest.mark.parametrize("ruleset", ANSWERING)
def test_every_answer_says_what_came_of_the_attack(tmp_path: Path, ruleset: str) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset, foe_side="npc")
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        actor = fight.view().acting[0]
        target = "foe" if actor == "hero" else "hero"
        attack = fight.ruleset.command({"action": "attack", "actor": actor, "targets": [target]})
        fight.execute(attack, ask=Ask())
        asked = fight.waiting()
        assert asked is not None
        choices = [c for c in asked.asked[target].options if c != "none"]
        assert choices, asked
        names = {w.combatant: w.name for w in fight.view().wounds}
        for choice in choices:
            answer = {"action": "answer", "combatant": target, "choice": choice}
            done = fight.execute(fight.ruleset.command(answer))
            # the attack on the target, or the target's own on the attacker (a clash won)
            struck = [
                e
                for e in done.events
                if isinstance(e, Resolved)
                and (e.actor, e.targets) in ((actor, [target]), (target, [actor]))
            ]
            assert struck, done.events
            line = list(timeline(fight))[-1].step.headline
            assert line.startswith(f"{names[target]} answers {choice}: "), line
            for each in struck:
                attacks = f"{names[each.actor]} attacks {names[each.targets[0]]}: {each.told}"
                assert attacks in line, (choice, line)
            fight.undo()
