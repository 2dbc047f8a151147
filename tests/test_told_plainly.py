"""What a table reads is never an empty placeholder: an encounter started without a title
is called by its id, an empty damage breakdown prints no "()", and `fracas rules` names a
plugin's system once and keeps its list in columns whatever the prefixes' lengths."""

from fracas.projections.describe import describe
from fracas.projections.sentences import event_phrase
from fracas.rules import load
from fracas.rules.encounter import started_event
from fracas.rules.events import Damaged, EncounterStarted, Modifier


def test_an_encounter_without_a_title_is_called_by_its_id(run):
    run("new", "-r", "fudge", "--id", "dawn")
    report = run("export", "--format", "md").output
    assert "“”" not in report and "''" not in run("log").output
    started = run("log", "--json").output
    assert '"title":"dawn"' in started.replace(" ", "")


def test_an_api_encounter_without_a_title_is_called_by_its_id(fracas):
    fracas.new("fudge", encounter="dusk", title="  ")
    assert started_event(fracas.store, "dusk").title == "dusk"


def test_damage_without_a_breakdown_prints_no_empty_parentheses():
    assert describe(Damaged("bo", 2, "gm")) == "bo takes 2 damage"
    broken = Damaged("bo", 2, "ann", [Modifier(2, "knife")])
    assert describe(broken).startswith("bo takes 2 damage (")


def test_a_start_without_a_title_reads_without_empty_quotes():
    started = EncounterStarted("fudge", "", {}, "00" * 32)
    assert "''" not in describe(started)
    assert event_phrase(started, None, {}, load("fudge")) == "The encounter begins"
