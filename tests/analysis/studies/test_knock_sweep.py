"""Knock sweeps: multiple comparisons with the best, the knock chart's multiplicity control and
stepped cells, stage seeds independent of the overall stage, the chart's policy simulated and
flagged when it loses; the helpers of analysis.stats behind them."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from scipy import stats

from analysis.cli import main as cli_main
from analysis.stats import holm, mcb_intervals, pairwise_max_t
from analysis.store import StoreError
from analysis.studies.knock_sweep import SweepResult, SweepSpec, load_sweep, run_sweep, stage_seed
from analysis.studies.sweep_stats import (
    BEST_METHOD,
    BUCKETS,
    CHART_METHOD,
    MIN_AFFECTED,
    cell_label,
    chart_policy,
    knock_chart,
    policy_summary,
    sweep_table,
)
from analysis.studies.sweep_text import format_sweep, sweep_dict

GIN = SweepSpec(variant="gin", thresholds=tuple(range(11)))


def _scores(rng, n: int, k: int, structure: str) -> np.ndarray:
    """Per-hand scores of k arms with equal means on the same n deals: shared deal luck plus,
    ``exchangeable``, each arm's own symmetric changes on ~15% of hands, or ``random walk``,
    arm i = arm i-1 changed on ~15% of hands (neighbours nearly equal, as thresholds are)."""
    base = rng.integers(-25, 26, n)
    steps = np.where(rng.random((k, n)) < 0.15, rng.integers(1, 11, (k, n)) * rng.choice([-1, 1], (k, n)), 0)
    return base + (steps if structure == "exchangeable" else np.cumsum(steps, axis=0))


def _total(x: np.ndarray) -> dict:
    """An ArmsJob-like total of arms x hands scores: per-arm moments and every pair's paired moments."""
    n = x.shape[1]
    arms = [{"n": n, "moments": {"score0": [n, int(v.sum()), int((v * v).sum())],
                                 "rate:win0": [n, int((v > 0).sum()), int((v > 0).sum())]}, "hists": {}}
            for v in x]
    pairs = {}
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            d = x[i] - x[j]
            pairs[f"{i}-{j}:score0"] = [n, int(d.sum()), int((d * d).sum()), int(np.count_nonzero(d))]
    return {"arms": arms, "pairs": pairs}


def _worse(x: np.ndarray, rng, arm: int, share: float) -> np.ndarray:
    """Arm ``arm`` loses a point on a ``share`` of hands."""
    x = x.copy()
    x[arm] -= rng.random(x.shape[1]) < share
    return x


# ---------------------------------------------------------------------------- stats helpers

@pytest.mark.parametrize("k", [5, 11])
def test_max_t_of_independent_equal_arms_is_the_studentized_range(k):
    se = np.full((k, k), np.sqrt(2.0))
    np.fill_diagonal(se, 0.0)
    q = stats.studentized_range.ppf(0.95, k, 1e6)
    assert pairwise_max_t(se) * np.sqrt(2) == pytest.approx(q, rel=0.015)
    assert pairwise_max_t(se) * np.sqrt(2) >= q * 0.999      # Monte Carlo error errs conservative


def test_max_t_of_two_arms_is_the_normal_quantile_and_ignores_arms_that_never_differ():
    se = np.array([[0.0, 0.3, 0.3], [0.3, 0.0, 0.0], [0.3, 0.0, 0.0]])   # arms 1 and 2 identical
    assert 1.96 <= pairwise_max_t(se[:2, :2]) <= 1.96 * 1.025
    assert pairwise_max_t(se) == pytest.approx(pairwise_max_t(se[:2, :2]), rel=0.01)


def test_mcb_intervals_bound_each_arm_minus_the_best_of_the_others():
    diff = np.array([[0.0, 1.0, 3.0], [-1.0, 0.0, 2.0], [-3.0, -2.0, 0.0]])
    lo, hi = mcb_intervals(diff, np.full((3, 3), 0.5), 2.0)
    assert lo.tolist() == [0.0, -2.0, -4.0] and hi.tolist() == [2.0, 0.0, -2.0]


def test_holm_adjusts_step_down():
    assert holm([0.01, 0.04, 0.03, 0.005]).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])


# ---------------------------------------------------------------------------- sweep table (MCB)

@pytest.mark.slow
@pytest.mark.parametrize("structure", ["exchangeable", "random walk"])
def test_equal_arms_are_marked_worse_in_at_most_five_percent_of_sweeps(structure):
    """11 truly equal arms: MCB marks one worse in <= 5% of sweeps (up to binomial noise of the
    150 sweeps), where the old per-arm 95% CI against the selected best marks one far more often."""
    rng = np.random.default_rng(11)
    runs, marked, old = 150, 0, 0
    for _ in range(runs):
        t = sweep_table(GIN, _total(_scores(rng, 4000, 11, structure)))
        marked += bool((~t["indistinguishable"]).any())
        old += bool((t["diff_hi"] < 0).any())
    assert marked <= stats.binom.ppf(0.999, runs, 0.05), marked
    assert old >= 0.25 * runs, old


@pytest.mark.slow
def test_a_clearly_worse_arm_is_still_marked_worse():
    rng = np.random.default_rng(12)
    hits = 0
    for _ in range(40):
        x = _worse(_scores(rng, 4000, 11, "random walk"), rng, 4, 0.3)
        t = sweep_table(GIN, _total(x))
        hits += bool(not t["indistinguishable"][4])
        assert t.loc[t["best"], "indistinguishable"].all()
    assert hits >= 38


def test_sweep_table_names_its_method_and_keeps_its_columns():
    t = sweep_table(GIN, _total(_scores(np.random.default_rng(1), 500, 11, "exchangeable")))
    assert t.attrs["method"] == BEST_METHOD and t.attrs["mcb_c"] > 2
    assert {"diff_to_best", "diff_lo", "diff_hi", "best", "indistinguishable", "mcb_lo", "mcb_hi"} <= set(t)
    assert (t["indistinguishable"] == ~(t["mcb_hi"] < 0)).all()


# ---------------------------------------------------------------------------- the chart

def _by_turn(rng, spec: SweepSpec, n: int, margins: dict | None = None) -> dict:
    """A by-turn total: per bucket one arm per threshold on the same deals (equal arms, except
    arm (bucket, index) losing a point on the given share of hands)."""
    k = len(spec.thresholds)
    x = np.vstack([_scores(rng, n, k, "random walk") for _ in BUCKETS])
    for (g, i), share in (margins or {}).items():
        x = _worse(x, rng, g * k + i, share)
    return _total(x)


@pytest.mark.slow
def test_chart_calls_on_equal_arms_are_family_wise_controlled():
    rng = np.random.default_rng(13)
    runs, called, raw = 150, 0, 0
    for _ in range(runs):
        chart = knock_chart(GIN, _by_turn(rng, GIN, 2000))
        called += bool((chart["decision"] != "can't tell").any())
        raw += bool(((chart["lo"] > 0) | (chart["hi"] < 0)).any())
    assert called <= stats.binom.ppf(0.999, runs, 0.05), called
    assert raw >= 0.5 * runs, raw       # 30 cells each at 95% on its own: most charts call a null cell
    assert chart.attrs["method"] == CHART_METHOD


def _skewed_null_chart(rng, lo: int, hi: int, hands: int = 20_000) -> dict:
    """By-turn totals of GIN's chart where every cell's arms differ on lo..hi hands by margins
    of mean exactly 0 and skewness ~2 (geometric(1/6) - 6, like a centred exponential)."""
    name, n_t, pairs = GIN.focus()[0], len(GIN.thresholds), {}
    for g in range(len(BUCKETS)):
        for k in range(1, n_t):
            x = rng.geometric(1 / 6, int(rng.integers(lo, hi + 1))) - 6
            pairs[f"{g * n_t + k}-{g * n_t + k - 1}:{name}"] = [hands, int(x.sum()), int((x * x).sum()),
                                                               int(np.count_nonzero(x))]
    return {"pairs": pairs}


def _null_rejections(rng, lo, hi, charts):
    """Share of chart cells whose own test rejects at 5% (untested cells do not)."""
    rej = cells = 0
    for _ in range(charts):
        chart = knock_chart(GIN, _skewed_null_chart(rng, lo, hi))
        rej += int((chart["p"] < 0.05).sum())
        cells += len(chart)
    return rej / cells


def test_sparse_chart_cells_on_skewed_margins_are_not_tested():
    """5-20 hands affected, skewed margins of mean 0: the t test rejected 8-9% of the cells at
    a nominal 5% (before); below MIN_AFFECTED hands a cell is not tested ("?")."""
    rng = np.random.default_rng(21)
    assert _null_rejections(rng, 5, 20, 60) <= 0.05
    chart = knock_chart(GIN, _skewed_null_chart(rng, 5, 20))
    assert not chart["tested"].any() and chart["p_holm"].isna().all() and (chart["decision"] == "can't tell").all()
    assert f"fewer than {MIN_AFFECTED} hands" in CHART_METHOD


@pytest.mark.slow
def test_tested_chart_cells_on_skewed_margins_hold_their_level():
    """From MIN_AFFECTED hands affected on, each cell's t test rejects about 5.5% (nominal 5%)."""
    assert _null_rejections(np.random.default_rng(22), MIN_AFFECTED, 4 * MIN_AFFECTED, 100) <= 0.065


def test_chart_still_calls_a_clear_cell():
    chart = knock_chart(GIN, _by_turn(np.random.default_rng(14), GIN, 4000, {(2, 6): 0.3}))
    late = chart[chart.bucket == "late"].set_index("threshold")
    assert late.loc[6, "decision"] == "play on" and late.loc[7, "decision"] == "knock"


def test_stepped_thresholds_label_cells_by_the_deadwood_they_cover():
    spec = SweepSpec(variant="gin", thresholds=(0, 2, 4, 5))
    chart = knock_chart(spec, _by_turn(np.random.default_rng(2), spec, 300))
    early = chart[chart.bucket == "early"]
    assert early["prev"].tolist() == [0, 2, 4]
    assert [cell_label(t, p) for t, p in zip(early.threshold, early.prev)] == ["1-2", "3-4", "5"]


def test_chart_policy_sums_the_called_cells_and_keeps_the_best_single_threshold_where_nothing_is_called():
    spec = SweepSpec(variant="gin", thresholds=tuple(range(7)))
    chart = knock_chart(spec, _by_turn(np.random.default_rng(3), spec, 200))
    calls = {"early": {1: -0.05, 5: 0.1}, "mid": {3: -0.2}, "late": {4: 0.1, 5: 0.1}}   # called margins
    chart["margin"] = [calls[b].get(d, 0.3) for b in BUCKETS for d in spec.thresholds[1:]]
    chart["decision"] = [("knock" if calls[b][d] > 0 else "play on") if d in calls[b] else "can't tell"
                         for b in BUCKETS for d in spec.thresholds[1:]]
    assert chart_policy(spec, chart, best=3) == {"early": 5, "mid": 2, "late": 5}
    chart["decision"] = "can't tell"
    assert chart_policy(spec, chart, best=3) == dict.fromkeys(BUCKETS, 3)


# ---------------------------------------------------------------------------- the policy verdict

def _result(policy_share: float) -> SweepResult:
    """A complete gin sweep result from synthetic totals whose policy arm loses a point on a
    ``policy_share`` of hands against the best single threshold."""
    rng = np.random.default_rng(4)
    overall = _total(_worse(_scores(rng, 3000, 11, "random walk"), rng, 0, 0.3))
    x = _scores(rng, 3000, 2, "exchangeable")
    policy = _total(_worse(np.vstack([x[0], x[0]]), rng, 0, policy_share))
    table = sweep_table(GIN, overall)
    best = int(table.loc[table["best"], "threshold"].iloc[0])
    spec = SweepSpec(variant="gin", thresholds=GIN.thresholds, by_turn=True, hands=3000, games=0)
    return SweepResult(spec, best, overall, by_turn=_by_turn(rng, spec, 3000), policy=policy,
                       policy_thresholds=dict.fromkeys(BUCKETS, best))


def test_a_policy_that_loses_is_flagged_not_advice():
    res = _result(0.3)
    p = policy_summary(res.spec, res.policy, res.policy_thresholds, res.best_overall)
    assert p["verdict"] == "worse" and not p["advice"] and p["diff_hi"] < 0
    assert "FLAGGED, NOT ADVICE" in format_sweep(res)
    d = sweep_dict(res)
    assert d["policy"]["advice"] is False and d["methods"]["knock_chart"] == CHART_METHOD


def test_a_policy_that_never_differs_is_the_best_single_threshold():
    p = sweep_dict(_result(0.0))["policy"]
    assert p["verdict"] == "same" and p["advice"] and p["hands_differing"] == 0


# ---------------------------------------------------------------------------- stages and seeds

def test_stage_seeds_are_a_fixed_function_of_the_sweep_seed_distinct_per_stage():
    seeds = [stage_seed(7, s) for s in ("overall", "by_turn", "policy", "games")]
    assert seeds[0] == 7 and len(set(seeds)) == 4 and all(0 <= s < 2**63 for s in seeds)
    assert seeds == [stage_seed(7, s) for s in ("overall", "by_turn", "policy", "games")]
    assert SweepSpec(seed=7, stage_seeds="shared").seed_of("by_turn") == 7


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "gin"
    spec = SweepSpec(variant="gin", thresholds=(0, 2, 4), by_turn=True, hands=400, games=0, seed=5)
    return out, spec, run_sweep(spec, out_dir=out, jobs=1, progress=False)


def test_a_by_turn_sweep_simulates_the_chart_policy_on_its_own_seed(stored):
    out, spec, res = stored
    assert res.complete and set(res.stages) == {"overall", "by_turn", "policy"}
    metas = {s: json.loads((out / s / "meta.json").read_text()) for s in res.stages}
    assert {s: m["arms"][0]["seed"] for s, m in metas.items()} == {s: stage_seed(5, s) for s in res.stages}
    strategies = [a["strategies"][0]["spec"] for a in metas["policy"]["arms"]]
    assert len(strategies) == 2 and strategies[1] == spec.overall_arms()[spec.thresholds.index(res.best_overall)].spec
    assert load_sweep(out).policy_thresholds == res.policy_thresholds == chart_policy(
        spec, knock_chart(spec, res.by_turn), res.best_overall)


def test_a_folder_stored_before_stage_seeds_loads_marked_and_is_not_resumed(stored, tmp_path):
    out, spec, _ = stored
    old = tmp_path / "old"
    shutil.copytree(out, old)
    info = json.loads((old / "sweep.json").read_text())
    del info["spec"]["stage_seeds"], info["policy_thresholds"]
    del info["sha256"]   # stored before study files were sealed, too
    (old / "sweep.json").write_text(json.dumps(info))
    shutil.rmtree(old / "policy")
    res = load_sweep(old)
    assert res.spec.stage_seeds == "shared" and res.policy is None
    assert res.stages["by_turn"]["seed"] == spec.seed
    with pytest.raises(StoreError, match="before stage seeds were separated"):
        run_sweep(spec, out_dir=old, jobs=1, progress=False)


@pytest.mark.parametrize("variant,args", [("gin", ["--thresholds", "0..4:2"]),
                                          ("tonk", ["--players", "3", "--thresholds", "0..20:10"]),
                                          ("knock-rummy", ["--players", "3", "--thresholds", "0..20:10"])])
def test_knock_sweep_json_names_methods_and_reports_the_policy(variant, args, capsys):
    assert cli_main(["knock-sweep", "--variant", variant, *args, "--by-turn", "--hands", "300", "--games", "0",
                     "--jobs", "1", "--no-progress", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["methods"] == {"best": BEST_METHOD, "knock_chart": CHART_METHOD}
    assert set(d["mcb_critical"]) == {"overall", "by_turn"}
    assert {"thresholds", "best_single", "diff", "diff_lo", "diff_hi", "verdict", "advice"} <= set(d["policy"])
    assert d["stages"]["policy"]["seed"] == stage_seed(0, "policy")
    assert all("p_holm" in c and "prev" in c for c in d["knock_chart"])
