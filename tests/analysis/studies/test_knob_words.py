"""Shared analysis honours the Knob contract without asking which game it is: a decision taken at
or above its threshold (``compare="ge"``) flips the chart's cells and the policy's sums and
changes the words; an exclusive rule cap (``limit_offset``) bounds the thresholds; elimination
games are worded as such."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import analysis.studies.knock_sweep as ks
from analysis.errors import SweepError
from analysis.studies import knob
from analysis.studies.knock_sweep import SweepSpec
from analysis.studies.sweep_stats import BUCKETS, chart_policy, knock_chart
from sim.variants import available, get_variant

from tests.analysis.studies.test_knock_sweep import _by_turn


def _ge(name: str = "gin"):
    """A game declared like one acting at or above its threshold (words and statistics only)."""
    v = get_variant(name)
    return dataclasses.replace(v, knob=dataclasses.replace(v.knob, compare="ge", action="go out"),
                               hand_word="deadwood")


@pytest.fixture
def ge_game(monkeypatch):
    game = _ge()
    monkeypatch.setattr(ks, "get_variant", lambda name: game)
    return game


def test_ge_cells_cover_prev_to_d_minus_1_and_count_acting_as_positive(ge_game, monkeypatch):
    spec = SweepSpec(variant="gin", thresholds=tuple(range(11)))
    total = _by_turn(np.random.default_rng(14), spec, 4000, {(2, 6): 0.3})
    # arm (late, 6) loses a point on 30% of hands: going out at 5 (arm 5 vs arm 6) is better, at 6 worse
    chart = knock_chart(spec, total)
    late = chart[chart.bucket == "late"].set_index("threshold")
    assert late.loc[6, "cell"] == "5" and late.loc[6, "decision"] == "knock" and late.loc[6, "margin"] > 0
    assert late.loc[7, "cell"] == "6" and late.loc[7, "decision"] == "play on"
    monkeypatch.setattr(ks, "get_variant", get_variant)
    plain = knock_chart(spec, total)                            # the same arms read as "at or below"
    assert np.allclose(plain["margin"], -chart["margin"]) and (plain["p_holm"] == chart["p_holm"]).all()
    assert plain.set_index("threshold").loc[6, "cell"].tolist() == ["6"] * 3


def test_ge_stepped_cells_name_the_values_they_cover(ge_game):
    spec = SweepSpec(variant="gin", thresholds=(0, 2, 4, 5))
    chart = knock_chart(spec, _by_turn(np.random.default_rng(2), spec, 300))
    assert chart[chart.bucket == "early"]["cell"].tolist() == ["0-1", "2-3", "4"]


@pytest.mark.parametrize("compare,expected", [("le", 3), ("ge", 5)])
def test_chart_policy_sums_margins_in_the_knob_direction(monkeypatch, compare, expected):
    game = get_variant("gin") if compare == "le" else _ge()
    monkeypatch.setattr(ks, "get_variant", lambda name: game)
    spec = SweepSpec(variant="gin", thresholds=tuple(range(7)))
    chart = knock_chart(spec, _by_turn(np.random.default_rng(3), spec, 200))
    called = {3: 0.1, 5: -0.2}          # the cells of thresholds 3 and 5, in every bucket
    chart["margin"] = [called.get(d, 0.3) for _ in BUCKETS for d in spec.thresholds[1:]]
    chart["decision"] = [("knock" if called[d] > 0 else "play on") if d in called else "can't tell"
                         for _ in BUCKETS for d in spec.thresholds[1:]]
    # le: arm d - arm 0 = sum of margins up to d -> best at 3-4; ge: minus it -> best at 5-6
    assert chart_policy(spec, chart, best=3) == dict.fromkeys(BUCKETS, expected)


def test_words_follow_the_direction():
    gin, ge = get_variant("gin"), _ge()
    assert knob.acts_at(gin, 6) == "knock at deadwood <= 6"
    assert knob.acts_at(ge, 30) == "go out at meld value >= 30"
    assert knob.when(ge, "d", html=True) == "meld value ≥ d" and "≥ d" in knob.axis_label(ge)
    assert knob.cell_range(ge.knob, 5, 3) == (3, 4) and knob.cell_range(gin.knob, 5, 3) == (4, 5)
    assert knob.margin_sign(ge.knob) == -1 and knob.margin_sign(gin.knob) == 1


def test_ge_text_and_policy_names(ge_game):
    from analysis.studies.knock_equilibrium import EquilibriumSpec
    pols = EquilibriumSpec(variant="gin", thresholds=(0, 5, 10), hands=10).policies()
    assert [p.short for p in pols[:3]] == [">=0", ">=5", ">=10"]


def test_an_exclusive_rule_cap_bounds_the_thresholds():
    gin = get_variant("gin")
    exclusive = dataclasses.replace(gin.knob, limit_offset=-1)
    param = next(p for p in __import__("sim.strategies", fromlist=["parse_strategy"]).parse_strategy(
        "simple", "gin").family.params if p.name == gin.knob.param)
    rules = gin.rules_cls.from_options(["knock_limit=7"])
    assert knob.legal_range(exclusive, param, rules) == (0, 6, " (rule knock_limit=7)")
    assert knob.legal_range(gin.knob, param, rules)[:2] == (0, 7)


@pytest.mark.skipif("ramino-klop" not in available(), reason="needs the Ramino Klop module")
def test_ramino_thresholds_stop_below_knock_below():
    spec = SweepSpec(variant="ramino-klop", players=4, hands=10)
    assert spec.thresholds == tuple(range(7)) and spec.legal_range()[:2] == (0, 6)
    with pytest.raises(SweepError, match="0 to 6"):
        SweepSpec(variant="ramino-klop", players=4, thresholds=tuple(range(8)), hands=10).check()


def test_whole_game_words_name_the_kind():
    gin = get_variant("gin")
    assert knob.games_heading(gin) == "Games won to the target score"
    elim = dataclasses.replace(gin, game=dataclasses.replace(gin.game, kind="elimination", limit_rule="target_score"))
    assert knob.games_phrase(elim) == "whole elimination games"
    assert "last player left" in knob.won_phrase(elim, gin.rules_cls.from_options([]))


@pytest.mark.slow
@pytest.mark.skipif("ramino-klop" not in available(), reason="needs the Ramino Klop module")
def test_an_elimination_sweep_counts_the_last_player_left(tmp_path):
    from analysis import report
    from analysis.studies.knock_sweep import run_sweep
    from analysis.studies.sweep_stats import sweep_table
    from analysis.studies.sweep_text import format_sweep
    spec = SweepSpec(variant="ramino-klop", players=3, thresholds=(2, 6), hands=300, games=40, seed=3)
    res = run_sweep(spec, out_dir=tmp_path / "rk", jobs=1, progress=False)
    text = format_sweep(res)
    assert "whole elimination games" in text and "the last player left" in text and "penalty_limit=101" in text
    games = sweep_table(spec, res.games, mode="games")
    for arm, r in zip(res.games["arms"], games.itertuples()):   # one winner per game, seat 0 among 3
        wins = [arm["moments"][f"rate:win{s}"][1] for s in range(3)]
        assert sum(wins) == arm["n"] == 40 and r.win_rate == wins[0] / 40
    hands = sweep_table(spec, res.overall)
    assert hands["win_rate"].isna().all()          # a penalty hand has no winner to count
    import json
    doc = json.loads(format_sweep(res, as_json=True), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert doc["overall"][0]["win_rate"] is None and doc["games"][0]["win_rate"] == games["win_rate"].iloc[0]
    html = report.report_html(report.build_report([str(tmp_path / "rk")]))
    assert "Games won: the last player left" in html and "deadwood ≤ d" in html


def test_threshold_zero_in_a_players_words():
    gin, tonk, ge = get_variant("gin"), get_variant("tonk"), _ge()
    assert knob.advice(gin, 0) == "go for gin; never knock" == knob.all_hand(gin, 0)
    assert knob.advice(tonk, 0) == "drop only with a count of 0" == knob.all_hand(tonk, 0)
    assert knob.advice(ge, 0) == "go out as soon as you can"
    assert knob.advice(gin, 6) == knob.acts_at(gin, 6) and knob.all_hand(gin, 6, html=True) == "knock at deadwood ≤ 6 all hand"
    assert knob.advice(gin, "d") == "knock at deadwood <= d"          # a label's placeholder stays a threshold
    for v in available():                                            # no game says "<= 0" at threshold 0
        game = get_variant(v)
        if game.knob is not None:
            assert "0" not in knob.advice(game, 0).replace("of 0", "") and "all hand" not in knob.all_hand(game, 0)
