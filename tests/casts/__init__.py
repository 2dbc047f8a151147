"""The casts of the tests: each built-in ruleset's combatants, and the plainest sheet of
every ruleset."""

from fracas.testing import Cast
from tests.casts import fudge, shotclock, timeslice
from tests.casts.pool import ANA, BOB, THUG
from tests.support import KNIFE, gunner, sheet

# Two combatants of each cast share a sheet, so that initiative ties happen. `seldom`: the
# actions 40 random fights tried 20 times or more and never took, as only a situation they
# seldom reach allows them (stand: prone, on one's own turn; stop: a continuous action
# named as it was begun; fire: an action held). Each is a gap in what the kit tests of the
# ruleset. (The kit draws an action a condition allows by who has it, `Playable.needs`:
# percentile's pinners, hands free and Unarmed Combat 95, pin often, but in some 40 fights
# in two no pinned combatant's turn came while pinned, so escape stays seldom.)
CASTS = {
    "percentile": Cast(
        "percentile",
        {
            "alice": gunner(),
            "bob": sheet(  # the knife sheathed: hands free to pin (000-21) or to ready it
                12, str=14, skills={"melee weapons": 50, "unarmed combat": 95}, weapons=[KNIFE]
            ),
            "carol": sheet(12, skills={"unarmed combat": 95, "dodge": 50}),
        },
        {"dave": sheet(12, skills={"unarmed combat": 95, "dodge": 50})},
        ({}, {"dex_ties": "rolloff"}),
        seldom=frozenset({"stand", "escape"}),
    ),
    "shotclock": Cast(
        "shotclock",
        {
            "jack": shotclock.JACK,
            "boss": shotclock.BOSS,
            "mook": shotclock.MOOK,
            "mook2": shotclock.MOOK,
        },
        {"mook3": shotclock.MOOK},
        # closed action dice too: an open roll explodes, so its secrets have no end to try
        # and the liveness check would follow none of them
        ({}, {"same_shot_order": "gm"}, {"action_dice": "d6-d6"}),
        seldom=frozenset({"stop"}),
    ),
    "pool": Cast(
        "pool",
        {"ana": ANA, "bob": BOB, "bob2": BOB, "thug": THUG},
        {"thug2": THUG},
        seldom=frozenset({"fire"}),
    ),
    "timeslice": Cast(
        "timeslice",
        {
            "alice": timeslice.ALICE,
            "orc": timeslice.ORC,
            "orc2": timeslice.ORC,
            "goblin": timeslice.GOBLIN,
        },
        {"goblin2": timeslice.GOBLIN},
        seldom=frozenset({"cast", "draw", "interrupt", "reload", "treat"}),
    ),
    "fudge": Cast(
        "fudge",
        {"ana": fudge.ANA, "bo": fudge.BO, "bo2": fudge.BO, "cy": fudge.CY},
        {"cy2": fudge.CY},
        seldom=frozenset({"break", "release"}),
    ),
}


# One plain combatant sheet per ruleset (the srd plugin's too), enough to join, begin and
# be hurt.
PLAIN = {
    "percentile": {"dex": 12, "str": 10, "con": 10},
    "shotclock": {"speed": 7, "toughness": 5, "constitution": 6},
    "pool": {"brawn": 3, "dexterity": 3},
    "timeslice": {"hp": 20, "q": 3},
    "fudge": {},
    "srd": {"hp": 12, "dex": 12},
}
