"""A ruleset's verbs in the sentences: the command's fields in them, the targets inside or
after them, and a target named more than once counted."""

import dataclasses

from fracas.projections.sentences import opening
from fracas.rules import percentile

NAMES = {"a": "Ann", "b": "Bo", "c": "Cy"}


def said(verb: str, **command) -> str:
    ruleset = dataclasses.replace(percentile.RULESET, verbs={"zap": verb})
    return opening({"action": "zap", "actor": "a", **command}, NAMES, ruleset)


def test_a_verb_names_the_command_s_fields_and_places_its_targets():
    assert said("casts {spell} on", spell="sleep", targets=["b"]) == "Ann casts sleep on Bo"
    assert said("uses {option} on {targets}", option="bite", targets=["b", "c"]) == (
        "Ann uses bite on Bo and Cy"
    )
    assert said("uses {option} on {targets}", option="roar") == "Ann uses roar"
    assert said("casts {spell} on", targets=["b"]) == "Ann casts on Bo"  # no such field


def test_a_target_named_more_than_once_is_counted():
    assert said("attacks", targets=["b", "b", "c"]) == "Ann attacks Bo twice and Cy"
    assert said("attacks", targets=["b", "b", "b", "b"]) == "Ann attacks Bo 4 times"
