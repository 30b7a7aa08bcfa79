"""Strategy comparisons (``rummylab compare``): paired on the same deals, Holm and Bonferroni
over the whole study, rule settings by Welch intervals, stored and resumable, clear errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from analysis.cli import main as cli_main
from analysis.stats import welch_difference
from analysis.studies.compare_stats import arm_table, diff_table, format_compare, setting_table
from analysis.studies.strategy_compare import (
    CompareSpec,
    hand_points,
    load_compare,
    parse_rule_values,
    run_compare,
)
from sim.runner import make_spec, play_hands

SPEC = CompareSpec(variant="knock-rummy", strategies=("simple", "strong", "threshold(knock=3)"), players=(3, 4),
                   vary=(("knocker_penalty", ("0", "20")),), hands=3000, seed=4)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "kr"
    res = run_compare(SPEC, out_dir=out, jobs=1, progress=False)
    return out, res


def test_every_cell_plays_every_strategy_on_the_same_deals(stored):
    _, res = stored
    a, d = arm_table(res), diff_table(res)
    assert len(a) == 2 * 2 * 3 and len(d) == 2 * 2 * 2
    for r in d.itertuples():       # a paired mean over the same deals is the difference of the arm means
        arm = a[(a.players == r.players) & (a.setting == r.setting)].set_index("strategy")
        assert r.diff == pytest.approx(arm.loc[r.strategy, "result"] - arm.loc["simple", "result"], abs=1e-9)
        assert r.lo < r.diff < r.hi and r.sim_lo < r.lo and r.sim_hi > r.hi and r.n == SPEC.hands


def test_a_cell_replays_the_seat_0_result_of_a_plain_run(stored):
    _, res = stored
    cols = play_hands("knock-rummy", rules=["knocker_penalty=20"], strategies="strong,simple,simple,simple",
                      n_hands=SPEC.hands, seed=SPEC.seed, players=4)
    sc = np.stack([cols[f"score{s}"] for s in range(4)])
    a = arm_table(res).set_index(["players", "setting", "strategy"])
    row = a.loc[(4, "knocker_penalty=20", "strong")]
    assert row["result"] == pytest.approx((sc[0] - sc[1:].mean(axis=0)).mean())   # seat 0 minus the others
    assert row["turns"] == pytest.approx(cols["turns"].mean())


def test_calls_are_holm_over_the_whole_study(stored):
    _, res = stored
    d = diff_table(res)
    assert d.attrs["m"] == len(d) and (d["p_holm"] >= d["p"] - 1e-15).all()
    for r in d.itertuples():
        assert r.call == ("can't tell" if r.p_holm >= 0.05 else "better" if r.diff > 0 else "worse")
        if r.call != "can't tell":          # a Holm call lies outside 0 in its own 95% interval
            assert r.lo > 0 or r.hi < 0


def test_rule_settings_differences_are_welch(stored):
    _, res = stored
    s = setting_table(res)
    assert set(s["quantity"].str.split(" ").str[0]) >= {"hand", "points", "strong"}
    for r in s.itertuples():
        assert r.diff == pytest.approx(r.value - r.baseline_value) and r.lo < r.diff < r.hi


def test_welch_difference_matches_scipy():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 30, 400), rng.integers(0, 25, 250)
    e = welch_difference(*[[int(x.size), int(x.sum()), int((x * x).sum())] for x in (a, b)])
    ci = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert (e.lo, e.hi) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_hand_points_are_the_positive_scores_or_the_penalties():
    spec = make_spec("gin", n=3)
    rows = np.zeros((2, len(spec.columns)), dtype=np.int64)
    rows[0, spec.columns.index("score0")], rows[0, spec.columns.index("score1")] = 25, -25
    assert hand_points(spec, rows).tolist() == [25, 0]


def test_stored_comparison_reloads_and_reruns_from_the_store(stored, capsys):
    out, res = stored
    again = load_compare(out)
    assert diff_table(again).equals(diff_table(res))
    rerun = run_compare(SPEC, out_dir=out, jobs=1, progress=False)
    assert rerun.hands_simulated == 0 and all(s["from_store"] for s in rerun.stages.values())
    assert "strong" in format_compare(again) and json.loads(format_compare(again, as_json=True))["differences"]


def test_cli_prints_tables_and_refuses_a_different_study_in_the_folder(stored, capsys):
    out, _ = stored
    assert cli_main(["compare", "--variant", "knock-rummy", "--players", "3,4", "--rule", "knocker_penalty=0,20",
                     "--strategies", "simple,strong,threshold(knock=3)", "--hands", "3000", "--seed", "4",
                     "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Holm" in text and "knocker_penalty=20" in text
    assert cli_main(["compare", "--variant", "knock-rummy", "--strategies", "simple,strong", "--hands", "100",
                     "--jobs", "1", "--no-progress", "--out", str(out)]) == 2
    assert "holds a different strategy comparison" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["--strategies", "simple"], "at least two strategies"),
    (["--strategies", "simple,simple"], "listed twice"),
    (["--strategies", "simple,threshold(knock=10)"], "the same strategy"),
    (["--strategies", "simple,nosuch"], "nosuch"),
    (["--strategies", "simple,tracker", "--rule", "undercut_bonus=1,1"], "listed twice"),
    (["--strategies", "simple,tracker", "--rule", "knock_limit"], "NAME=VALUE"),
    (["--strategies", "simple,tracker", "--rule", "knock_limit=5", "--rule", "knock_limit=4,6"], "both fixed and varied"),
    (["--strategies", "simple,tracker", "--players", "3"], "players"),
    (["--strategies", "simple,tracker", "--rule", "nosuch=1,2"], "nosuch"),
])
def test_bad_input_is_one_error_line_and_writes_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "x"
    assert cli_main(["compare", "--variant", "gin", "--hands", "100", "--jobs", "1", "--no-progress",
                     "--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummylab: error:") and err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_parse_rule_values_splits_fixed_and_varied():
    assert parse_rule_values(["packs=1,2", "deal=7"]) == (("deal=7",), (("packs", ("1", "2")),))


def test_one_varied_parameter_is_a_profile_drawn_along_it(tmp_path):
    from analysis.report.compare import compare_section
    from analysis.studies.compare_stats import strategy_axis
    assert strategy_axis(SPEC) is None           # strong and threshold(knock=3) differ in more than one value
    spec = CompareSpec(variant="knock-rummy", strategies=("simple", "threshold(knock=3)", "threshold(knock=9)",
                                                          "threshold(knock=6)"), players=(3, 4), hands=800, seed=4)
    assert strategy_axis(spec) == ("knock", {"threshold(knock=3)": 3.0, "threshold(knock=9)": 9.0,
                                             "threshold(knock=6)": 6.0})
    run_compare(spec, out_dir=tmp_path / "p", jobs=1, progress=False)
    sec = compare_section(tmp_path / "p", "cmp")
    (profile,) = [f for f in sec.figures if f.name == "cmp-profile"]
    assert profile.legend == ["3 players", "4 players"] and profile.axes[0]["xlabel"] == "knock"
    assert any("Along <code>knock</code>" in b for b in sec.body if isinstance(b, str))
