"""Statistics of a knock sweep's stored totals: the sweep table with multiple comparisons with
the best, the knock chart with Holm's control of its many cells, the chart's own policy and its
evaluation against the best single threshold.  Reads totals only (never simulates).

* **Sweep table**: an arm is *worse* than the best when its simultaneous interval for
  mu_i - max_{j != i} mu_j lies below 0 (:data:`BEST_METHOD`); all the others are
  *indistinguishable* from the best (not shown worse).  The intervals come from all-pairwise
  bounds mu_i - mu_j in d_ij +- c se_ij, c the 95% quantile of the largest studentized paired
  difference (:func:`analysis.stats.pairwise_max_t`), so with k truly equal arms none is marked
  worse in 95% of sweeps.  (Hsu's constrained MCB would mark an arm "not the best" when its
  upper bound is 0, which is also true of an arm *tied* with the best: it is not a "worse" call.)
* **Knock chart**: cell (bucket, d) is arm d minus the previous threshold's arm of that bucket:
  knocking at ``prev < deadwood <= d`` instead of playing on (with consecutive thresholds,
  knocking at exactly d); for a knob acting at or above its threshold, arm prev minus arm d:
  going out at ``prev <= value < d`` instead of waiting (:mod:`analysis.studies.knob`).  Calls are family-wise 95% over all cells (:data:`CHART_METHOD`).
* **Chart policy** (:data:`POLICY_RULE`): arm d minus the smallest threshold's arm of a bucket is
  exactly the sum of the bucket's cells up to d (a knob acting at or above d: minus that sum), so the chart's own reading of the best
  threshold per bucket sums the margins of the *called* cells (cells it cannot call count 0);
  with nothing called it is the best single threshold.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import Estimate, holm, mcb_intervals, mean_from_moments, mean_se, p_value, pairwise_max_t, wilson
from .knob import cell_range, margin_sign, range_label

BUCKETS = ("early", "mid", "late")
ALPHA = 0.05
BEST_METHOD = ("multiple comparisons with the best: simultaneous 95% intervals for each arm minus "
               "the best of the others, from all-pairwise max-T bounds (Tukey-Kramer type, paired "
               "covariance, single step); worse = interval below 0")
MIN_AFFECTED = 50   # a chart cell where fewer hands differ between its arms is not tested ("?")
CHART_METHOD = ("Holm-Bonferroni over the chart's cells (two-sided paired t tests), family-wise 95%; "
                f"cells where fewer than {MIN_AFFECTED} hands differ are not tested (on skewed margins "
                "the t test rejects 9-17% at a nominal 5% with 5-20 such hands; from 50 on about 5.5%, but "
                "Holm's small per-cell levels reach further into the skewed tail: 30 null cells of "
                "skewness 2 with 50-400 hands affected each gave a call in 11-14% of charts, 4% from 1,000)")
POLICY_RULE = ("per bucket, the threshold d maximising the gain over the smallest threshold, the summed "
               "margins of the called cells up to d (acting at or above d: minus that sum) "
               "(cells not called count 0; ties go to the threshold nearest the best single threshold, "
               "then the lower)")


def pair_moments(total: dict, i: int, j: int, name: str) -> tuple[list, int]:
    """Moments (count, sum, sum of squares) of arm i minus arm j (paired), and the number of
    units where they differ."""
    key = f"{i}-{j}:{name}"
    if key in total["pairs"]:
        c, s, ss, nz = total["pairs"][key]
        return [c, s, ss], nz
    c, s, ss, nz = total["pairs"][f"{j}-{i}:{name}"]
    return [c, -s, ss], nz


def _pair(total: dict, i: int, j: int, name: str) -> tuple[Estimate, int]:
    """Mean of arm i minus arm j (paired) with its 95% t interval, and the units where they differ."""
    m, nz = pair_moments(total, i, j, name)
    return mean_from_moments(*m), nz


NO_RATE = Estimate(float("nan"), float("nan"), float("nan"), 0)


def _arm_estimates(total: dict, i: int, focus: str, scale: float, hand_wins: bool = True) -> dict:
    """Seat 0's mean (``focus`` times ``scale``) and win rate (``hand_wins`` False: none, for
    hands of penalty games, where no seat scores above 0)."""
    m = total["arms"][i]["moments"]
    return {"mean": mean_from_moments(*m[focus]).scaled(scale),
            "win": wilson(m["rate:win0"][1], m["rate:win0"][0]) if hand_wins else NO_RATE}


def hand_wins(spec, mode: str = "hands") -> bool:
    """Does a hand have winners to count (a positive score)?  Not in a penalty game, where every
    score is minus a penalty; whole games always have a winner."""
    return mode == "games" or spec.game.score_unit != "penalty"


def mcb(total: dict, idx: list[int], name: str, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray, float]:
    """Simultaneous 95% intervals (lo, hi) for mu_i - max_{j != i} mu_j over the arms ``idx``
    (series ``name`` times ``scale``) and the critical value c (:data:`BEST_METHOD`)."""
    k = len(idx)
    diff, se = np.zeros((k, k)), np.zeros((k, k))
    for a in range(k):
        for b in range(a + 1, k):
            m, _ = pair_moments(total, idx[a], idx[b], name)
            d, s = mean_se(*m) if m[0] >= 2 else (m[1] / max(m[0], 1), np.inf)
            diff[a, b], diff[b, a] = d * scale, -d * scale
            se[a, b] = se[b, a] = s * scale
    c = pairwise_max_t(np.where(np.isfinite(se), se, 0.0))
    lo, hi = mcb_intervals(diff, se, c)
    return lo, hi, c


def sweep_table(spec, total: dict, mode: str = "hands", group: list[int] | None = None,
                labels: list | None = None) -> pd.DataFrame:
    """Per arm: mean seat-0 score (games: net per game) and win rate with CIs, the paired
    difference to the best arm of the group with its 95% CI, the arm's simultaneous interval
    against the best of the others (``mcb_lo``/``mcb_hi``, :data:`BEST_METHOD`; games: games
    won) and whether it is indistinguishable from the best (not shown worse).  ``attrs``:
    ``method`` and the critical value ``mcb_c``."""
    idx = group if group is not None else list(range(len(total["arms"])))
    thresholds = labels if labels is not None else list(spec.thresholds)
    mean_name, scale = ("net0", 1.0) if mode == "games" else spec.focus()
    ests = [_arm_estimates(total, i, mean_name, scale, hand_wins(spec, mode)) for i in idx]
    focus, focus_scale = ("win0", 1.0) if mode == "games" else (mean_name, scale)
    key = (lambda e: e["win"].value) if mode == "games" else (lambda e: e["mean"].value)
    best_k = max(range(len(idx)), key=lambda k: key(ests[k]))
    lo, hi, c = mcb(total, idx, focus, focus_scale)
    rows = []
    for k, i in enumerate(idx):
        e = ests[k]
        if k == best_k:
            d, nz = Estimate(0.0, 0.0, 0.0, e["mean"].n), 0
        else:
            d, nz = _pair(total, i, idx[best_k], focus)
            d = d.scaled(focus_scale)
        rows.append({
            "threshold": thresholds[k], "n": e["mean"].n,
            "mean": e["mean"].value, "mean_lo": e["mean"].lo, "mean_hi": e["mean"].hi,
            "win_rate": e["win"].value, "win_lo": e["win"].lo, "win_hi": e["win"].hi,
            "diff_to_best": d.value, "diff_lo": d.lo, "diff_hi": d.hi, "hands_differing": nz,
            "mcb_lo": float(lo[k]), "mcb_hi": float(hi[k]),
            "best": k == best_k,
            "indistinguishable": not hi[k] < 0,
        })
    table = pd.DataFrame(rows)
    table.attrs.update(method=BEST_METHOD, mcb_c=c)
    return table


def knock_chart(spec, by_turn: dict) -> pd.DataFrame:
    """Cells bucket x threshold d (d > smallest threshold): EV margin of acting on the values
    ``from..to`` where arms prev and d differ (:func:`analysis.studies.knob.cell_range`: knocking
    at ``prev < deadwood <= d``; for a knob acting at or above d, going out at ``prev <= value
    < d``) versus playing on, paired, with its 95% CI, two-sided p-value, Holm-adjusted p-value
    over the tested cells and the call; a cell where fewer than :data:`MIN_AFFECTED` hands
    differ is not tested (``tested`` False, p-values NaN, "can't tell"): with so few hands the
    normal approximation behind the t test fails on skewed margins, rejecting 9-17% of true
    nulls at a nominal 5% (``tests/analysis/studies/test_knock_sweep.py``)."""
    n_t = len(spec.thresholds)
    name, scale = spec.focus()
    knob = spec.knob()
    sign = margin_sign(knob)
    rows = []
    for g, b in enumerate(BUCKETS):
        for k in range(1, n_t):
            i, j = g * n_t + k, g * n_t + k - 1
            m, nz = pair_moments(by_turn, *((i, j) if sign > 0 else (j, i)), name)
            e = mean_from_moments(*m).scaled(scale)
            a, z = cell_range(knob, spec.thresholds[k], spec.thresholds[k - 1])
            rows.append({"bucket": b, "threshold": spec.thresholds[k], "prev": spec.thresholds[k - 1],
                         "from": a, "to": z, "cell": range_label(a, z),
                         "margin": e.value, "lo": e.lo, "hi": e.hi, "n": e.n, "hands_affected": nz,
                         "tested": nz >= MIN_AFFECTED, "p": p_value(*m) if nz >= MIN_AFFECTED else np.nan})
    chart = pd.DataFrame(rows)
    tested = chart["tested"].to_numpy(dtype=bool)
    p_holm = np.full(len(chart), np.nan)
    p_holm[tested] = holm(chart["p"].to_numpy()[tested])
    chart["p_holm"] = p_holm
    called = tested & (p_holm < ALPHA)
    chart["decision"] = np.where(called, np.where(chart["margin"] > 0, "knock", "play on"), "can't tell")
    chart.attrs["method"] = CHART_METHOD
    return chart


def cell_label(threshold: int, prev: int, knob=None) -> str:
    """A chart column: the values the cell covers, 'd' for consecutive thresholds of a knob
    acting at or below d (at or above: 'prev'), else the range ('prev+1-d'; at or above:
    'prev-(d-1)')."""
    a, z = cell_range(knob, threshold, prev) if knob is not None else (prev + 1, threshold)
    return range_label(a, z)


def chart_policy(spec, chart: pd.DataFrame, best: int) -> dict[str, int]:
    """Per bucket, the threshold of the chart's policy (:data:`POLICY_RULE`)."""
    policy = {}
    sign = margin_sign(spec.knob())
    for b in BUCKETS:
        cells = chart[chart["bucket"] == b]
        called = np.where(cells["decision"] != "can't tell", cells["margin"], 0.0)
        gain = np.concatenate([[0.0], np.cumsum(sign * called)])     # per threshold, vs the smallest
        top = [t for t, g in zip(spec.thresholds, gain) if g == gain.max()]
        policy[b] = int(min(top, key=lambda t: (abs(t - best), t)))
    return policy


def policy_summary(spec, total: dict, thresholds: dict[str, int], best: int) -> dict:
    """The policy stage (arm 0 the chart's policy, arm 1 the best single threshold, the same
    deals): both means, the paired difference with its 95% CI and the verdict: ``better`` (CI
    above 0), ``worse`` (below 0: flagged, not advice), ``can't tell`` or ``same`` (never
    differed).  JSON-able."""
    name, scale = spec.focus()
    pol, one = (_arm_estimates(total, i, name, scale, hand_wins(spec)) for i in (0, 1))
    d, nz = _pair(total, 0, 1, name)
    d = d.scaled(scale)
    verdict = "same" if nz == 0 else ("better" if d.lo > 0 else "worse" if d.hi < 0 else "can't tell")
    return {"thresholds": dict(thresholds), "best_single": best, "n": d.n, "rule": POLICY_RULE,
            "policy_mean": pol["mean"].value, "policy_lo": pol["mean"].lo, "policy_hi": pol["mean"].hi,
            "best_mean": one["mean"].value, "best_lo": one["mean"].lo, "best_hi": one["mean"].hi,
            "diff": d.value, "diff_lo": d.lo, "diff_hi": d.hi, "hands_differing": nz,
            "verdict": verdict, "advice": verdict != "worse"}


def by_turn_tables(spec, by_turn: dict) -> dict[str, pd.DataFrame]:
    n_t = len(spec.thresholds)
    return {b: sweep_table(spec, by_turn, group=list(range(g * n_t, (g + 1) * n_t)))
            for g, b in enumerate(BUCKETS)}


def bucket_label(spec, b: str) -> str:
    m, late = spec.buckets
    if spec.bucket_by == "stock":
        return {"early": f"early (stock > {m})", "mid": f"mid (stock {late + 1}-{m})",
                "late": f"late (stock <= {late})"}[b]
    return {"early": f"early (own turns 1-{m - 1})", "mid": f"mid (turns {m}-{late - 1})",
            "late": f"late (turns {late}+)"}[b]
