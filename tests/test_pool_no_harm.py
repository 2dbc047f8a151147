"""Issue 37 (an outside tester, pool): "Thug attacks Ana: hits" left Ana at Body 7/7 with no
word why, where `fracas log` said "hits (Severity 0)". A hit that deals nothing says so in
pool's words on the TV, the phones and the report: "hits, no harm (Severity 0)"."""

from pathlib import Path

from fracas.projections import Fracas
from fracas.rules.events import Damaged, Resolved
from fracas.rules.pool.attacks import damage
from fracas.rules.pool.sheets import FISTS
from tests.casts.pool import pool_fight


def test_a_pool_hit_armour_soaks_says_no_harm() -> None:
    with Fracas(Path(":memory:")) as opened:
        e = pool_fight(opened)
        thug, ana = e.state.fighters["thug"], e.state.fighters["ana"]
    events = damage(thug, ana, FISTS, 1, "attack outcome 2 - dodge 1")  # 1 + 0 - Brawn 3
    assert not any(isinstance(ev, Damaged) for ev in events), events
    hit = next(ev for ev in events if isinstance(ev, Resolved))
    assert hit.outcome == "hits, no harm", hit
    assert hit.detail == "Severity 0", hit
    hurt = damage(thug, ana, FISTS, 5, "attack outcome 6 - dodge 1")  # 5 + 0 - 3 = 2
    assert next(ev for ev in hurt if isinstance(ev, Resolved)).outcome == "hits", hurt
