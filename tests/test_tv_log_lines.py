"""Issue 37 (an outside table tester at the TV and the phones): the author's "by X" was glued
to the end of a step's headline ("… until the GM discloses it by Goblin shaman"), said again
when the author is the one acting ("Ilse ends the turn by Ilse"), and kept after a cut
sentence ("8… by Brannoc"); the "⬇ down" mark ended the line, after whoever was named last,
not after the one who fell."""

import re
from pathlib import Path

import pytest

from fracas.projections import Fracas
from fracas.projections.replay import timeline
from fracas.rules import Encounter
from tests.support import do
from tests.web import RULESETS, cast_of, duel, fight, phones, secret_attack

ENTRY = r'<li[^>]*data-part="step:\d+">.*?</li>'


def entries(page: str) -> list[str]:
    return re.findall(ENTRY, page, re.S)


def sentence(entry: str) -> str:
    found = re.search(r'<span class="sentence"[^>]*>(.*?)</span>\s*(?=<small|</li>)', entry, re.S)
    assert found, entry
    return found[1]


def fallen(fight: Encounter) -> list[str]:
    """Who the fight's newest step put down."""
    last = list(timeline(fight))[-1]
    return list(last.step.fallen)


# fudge's fall is a wound level reached, with no condition set: no step of it is marked down
# (its lines carry no mark at all; left open in issue 37's report)
DOWNING = [r for r in RULESETS if r != "fudge"]


@pytest.mark.sqlite_file
@pytest.mark.parametrize("ruleset", DOWNING)
def test_the_author_never_ends_a_line_and_the_down_mark_follows_who_fell(
    tmp_path: Path, ruleset: str
) -> None:
    db = tmp_path / "fight.db"
    duel(db, ruleset)
    with Fracas(str(db)) as log:
        fight = log.encounter("fight")
        actor = fight.view().acting[0]
        other = "foe" if actor == "hero" else "hero"
        names = {w.combatant: w.name for w in fight.view().wounds}
        if ruleset == "shotclock":  # (a named hero rolls to stay up; a mook goes down to any harm)
            (_, theirs) = cast_of(ruleset)[1]
            other = "grunt"
            do(fight, {"action": "join", "combatant": other, "sheet": {**theirs, "mook": True}})
            names[other] = "grunt"
        for _ in range(8):  # (some rules take a few blows to put one down)
            do(fight, {"action": "gm.harm", "target": other, "amount": 999, "reason": "a fall"})
            if fallen(fight):
                break
        assert fallen(fight) == [other]
    with phones(db, ("hero", "foe")) as table:
        assert table.tap(actor, action="next").status_code == 200
        page = table.client.get("/e/fight").text
    lines = entries(page)
    assert len(lines) >= 2, page
    ended, downed = lines[0], lines[1]
    # the one who acted ended their own turn: no "by" them at all
    assert f"{names[actor]} ends the turn" in ended, ended
    assert 'class="by"' not in ended, ended
    for line in lines:  # who gave a command is never after the sentence's last word
        if 'class="by"' in line:
            assert line.index('class="by"') < line.index('class="sentence"'), line
    said = sentence(downed)
    mark = re.search(r'<b class="fell-mark"[^>]*>', said)
    assert mark, downed
    before = re.sub(r"<[^>]+>", "", said[: mark.start()])
    named = [n for n in names.values() if n in before]
    last = max(named, key=lambda n: before.rindex(n) + len(n))
    assert last == names[other], (before, downed)  # the last one named before it fell
    clause = before[before.rindex(last) :]
    aside = re.sub(r"\([^)]*\)", "", clause)  # "(unconscious, dying)" is within the clause
    assert not re.search(r"[,;] ", aside), (clause, downed)  # in the clause naming them
    assert "fell-said" in downed.split(">")[0], downed  # the line's own end carries no second mark


@pytest.mark.sqlite_file
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_disclosure_says_what_it_showed(tmp_path: Path, ruleset: str) -> None:
    """A table tester (issue 37): the TV read "The GM shows the players step 25" and no
    more; the line says what the disclosed step decided, as its own line now reads."""
    db = fight(tmp_path, ruleset)
    secret = secret_attack(db)
    with Fracas(str(db)) as log:
        log.disclose(secret, "fight")
        seen = {m.step.step: m.step for m in timeline(log.encounter("fight"), players=True)}
    shown = seen[secret].headline
    assert "GM-only" not in shown and shown, shown
    line = seen[max(seen)].headline
    assert line == f"The GM shows the players step {secret}: {shown}", line
