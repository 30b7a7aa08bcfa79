"""The knock-rules study: settings, validation and the compact threshold text."""

import pytest

from analysis.errors import SweepError
from analysis.studies.knock_rules import RulesStudy, _span, parse_vary
from analysis.studies.knock_sweep import SweepSpec


def test_span_compresses_runs_of_thresholds():
    assert _span([30, 31, 32, 33, 43]) == "30..33,43"
    assert _span([1, 2, 4, 5, 6, 9]) == "1,2,4..6,9"


def test_settings_are_defaults_then_each_varied_value_once():
    study = RulesStudy(SweepSpec(variant="knock-rummy", players=3),
                       (parse_vary("knocker_penalty=0,10,20"), parse_vary("settle=pairwise")))
    labels = [label for label, _ in study.settings()]
    assert labels == ["defaults", "knocker_penalty=0", "knocker_penalty=20", "settle=pairwise"]


@pytest.mark.parametrize("vary,msg", [("nope=1", "no rule 'nope'"), ("knocker_penalty", "write RULE=v1,v2"),
                                      ("knocker_penalty=-5", "out of range")])
def test_bad_variations_are_refused(vary, msg):
    with pytest.raises(Exception, match=msg):
        RulesStudy(SweepSpec(variant="knock-rummy"), (parse_vary(vary),)).check()


def test_a_study_needs_a_variation():
    with pytest.raises(SweepError, match="at least one --vary"):
        RulesStudy(SweepSpec(variant="gin"), ()).check()
