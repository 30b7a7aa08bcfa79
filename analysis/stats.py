"""Confidence intervals and paired differences.

Every estimate carries its 95% CI and its sample size:

* rates: Wilson score interval (good near 0 and 1, where Wald fails), Clopper-Pearson's exact
  interval where fewer than 5 events are expected (:func:`rate`); paired rates (two 0/1
  series on the same units): Newcombe's score interval (:func:`paired_rate_difference`);
* means: Student-t interval from exact moments (count, sum, sum of squares) — the streaming
  accumulators keep these as integers, so the interval is the same however the run was split;
* paired differences (common random numbers): the t interval of the per-unit differences;
  differences of independent samples (other deals): Welch's interval (:func:`welch_difference`);
* many comparisons at once: simultaneous all-pairwise bounds (:func:`pairwise_max_t`, for
  multiple comparisons with the best, :func:`mcb_intervals`) and Holm's step-down adjustment
  of p-values (:func:`holm`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
MAX_T_DRAWS = 40_000        # Monte Carlo draws behind a max-T critical value
MAX_T_SEED = 20_110         # fixed: the same standard errors always give the same critical value


def t_quantile(df: float, level: float = 0.95) -> float:
    """Two-sided Student-t quantile for a ``level`` interval (``scipy.stats.t``); the normal
    quantile when ``df`` is not a positive finite number."""
    from scipy import stats
    q = 0.5 + level / 2
    if df <= 0 or not math.isfinite(df):
        return float(stats.norm.ppf(q))
    return float(stats.t.ppf(q, df))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% CI and sample size."""
    value: float
    lo: float
    hi: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi

    def scaled(self, k: float) -> "Estimate":
        """The estimate of ``k`` times the quantity (k > 0)."""
        return Estimate(self.value * k, self.lo * k, self.hi * k, self.n)

    def as_dict(self) -> dict:
        return {"value": self.value, "ci95": [self.lo, self.hi], "n": self.n}

    def parts(self, digits: int = 3, pct: bool = False, sign: bool = False) -> tuple[str, str, str] | None:
        """Formatted (value with unit, lo, hi), or None when there is no estimate."""
        if self.n == 0 or not math.isfinite(self.value):
            return None
        k = 100.0 if pct else 1.0
        spec = f"{'+' if sign else ''}.{digits}f"

        def num(x: float) -> str:
            return format(x * k, spec) if math.isfinite(x) else "n/a"
        return num(self.value) + ("%" if pct else ""), num(self.lo), num(self.hi)

    def fmt(self, digits: int = 3, pct: bool = False, sign: bool = False) -> str:
        p = self.parts(digits, pct, sign)
        return "n/a" if p is None else f"{p[0]} [{p[1]}, {p[2]}]"


def wilson(k: int, n: int, z: float = Z95) -> Estimate:
    """Rate k/n with its Wilson score interval."""
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


RARE_COUNT = 5      # below this many expected events a rate's interval is Clopper-Pearson's


def clopper_pearson(k: int, n: int, level: float = 0.95) -> Estimate:
    """Rate k/n with its exact (Clopper-Pearson) interval: beta quantiles, coverage at least
    ``level`` at every rate (Wilson's dips to ~0.91 at half an expected event)."""
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    from scipy import stats
    a = (1 - level) / 2
    lo = float(stats.beta.ppf(a, k, n - k + 1)) if k > 0 else 0.0
    hi = float(stats.beta.ppf(1 - a, k + 1, n - k)) if k < n else 1.0
    return Estimate(k / n, lo, hi, n)


def rate(k: int, n: int, expected: float | None = None) -> Estimate:
    """Rate k/n: Wilson's interval, or Clopper-Pearson's where the rarer outcome's count is
    below :data:`RARE_COUNT` (``expected``: the count the rate is expected to have, e.g. n
    times an exact probability being checked; else the observed count)."""
    if n <= 0:
        return wilson(k, n)
    m = expected if expected is not None else k
    return clopper_pearson(k, n) if min(m, n - m) < RARE_COUNT else wilson(k, n)


def paired_rate_difference(x, y, z: float = Z95) -> Estimate:
    """Rate of x minus rate of y, two 0/1 series on the same units, with Newcombe's hybrid
    score interval for paired proportions (Newcombe 1998, method 10: the two Wilson intervals
    combined with the phi correlation of the 2x2 table); n = the units.  Unlike the t
    interval of the differences it keeps its coverage when the rates or the discordant pairs
    are rare."""
    x, y = np.asarray(x, dtype=bool), np.asarray(y, dtype=bool)
    n = int(x.size)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    a, b, c = int((x & y).sum()), int((x & ~y).sum()), int((~x & y).sum())
    d = n - a - b - c
    p1, p2 = (a + b) / n, (a + c) / n
    w1, w2 = wilson(a + b, n, z), wilson(a + c, n, z)
    den = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(den) if den > 0 else 0.0
    lo = p1 - p2 - math.sqrt(max((p1 - w1.lo) ** 2 - 2 * phi * (p1 - w1.lo) * (w2.hi - p2) + (w2.hi - p2) ** 2, 0.0))
    hi = p1 - p2 + math.sqrt(max((w1.hi - p1) ** 2 - 2 * phi * (w1.hi - p1) * (p2 - w2.lo) + (p2 - w2.lo) ** 2, 0.0))
    return Estimate(p1 - p2, max(lo, -1.0), min(hi, 1.0), n)


def mean_se(count: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and its standard error from (count, sum, sum of squares), count >= 2."""
    mean = total / count
    # exact integer numerator where the inputs are integers: no cancellation error
    if isinstance(total, int) and isinstance(total_sq, int):
        var = (count * total_sq - total * total) / (count * (count - 1))
    else:
        var = (total_sq - total * total / count) / (count - 1)
    return mean, math.sqrt(max(var, 0.0) / count)


def mean_from_moments(count: int, total: float, total_sq: float) -> Estimate:
    """Mean with a t interval from (count, sum, sum of squares)."""
    if count <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    if count == 1:
        return Estimate(total / count, float("-inf"), float("inf"), 1)
    mean, se = mean_se(count, total, total_sq)
    h = t_quantile(count - 1) * se
    return Estimate(mean, mean - h, mean + h, count)


def welch_difference(a, b) -> Estimate:
    """Mean of series a minus mean of series b from independent samples, each given as moments
    (count, sum, sum of squares), with its Welch t interval; n = both counts."""
    (ma, sa), (mb, sb) = mean_se(*a), mean_se(*b)
    se = math.sqrt(sa * sa + sb * sb)
    if se == 0:
        return Estimate(ma - mb, ma - mb, ma - mb, int(a[0] + b[0]))
    df = se ** 4 / (sa ** 4 / (a[0] - 1) + sb ** 4 / (b[0] - 1))
    h = t_quantile(df) * se
    return Estimate(ma - mb, ma - mb - h, ma - mb + h, int(a[0] + b[0]))


def p_value(count: int, total: float, total_sq: float) -> float:
    """Two-sided p-value of the t test of mean 0 from (count, sum, sum of squares); a series
    with no spread has p 1 when it is all 0 and p 0 otherwise."""
    if count < 2:
        return 1.0
    from scipy import stats
    mean, se = mean_se(count, total, total_sq)
    if se == 0:
        return 1.0 if mean == 0 else 0.0
    return float(2 * stats.t.sf(abs(mean) / se, count - 1))


def holm(p) -> np.ndarray:
    """Holm's step-down adjusted p-values: rejecting where the adjusted p < alpha keeps the
    family-wise error rate at alpha under any dependence between the tests."""
    p = np.asarray(p, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    steps = (p.size - np.arange(p.size)) * p[order]
    out = np.empty(p.size)
    out[order] = np.minimum(1.0, np.maximum.accumulate(steps))
    return out


def pairwise_max_t(se: np.ndarray, level: float = 0.95, draws: int = MAX_T_DRAWS,
                   seed: int = MAX_T_SEED) -> float:
    """Critical value c of simultaneous bounds ``d_ij +- c se_ij`` on every paired difference
    of k arms measured on the same units: the ``level`` quantile of max over i != j of
    (Z_i - Z_j) / se_ij, Z the arms' normal estimation errors (Tukey-Kramer's studentized
    range, with the covariance of the paired design).  ``se`` (k x k, symmetric) are the
    standard errors of the paired mean differences; the covariance of Z_i - Z_0 follows as
    (se_i0^2 + se_j0^2 - se_ij^2) / 2.  Monte Carlo with a fixed seed, taking the order
    statistic 3 binomial standard deviations above the quantile's rank (so Monte Carlo error
    errs on the conservative side); pairs that never differ (se 0) are left out."""
    k = se.shape[0]
    v = se * se
    cov = (v[1:, :1] + v[:1, 1:] - v[1:, 1:]) / 2
    w, u = np.linalg.eigh(cov)
    rng = np.random.default_rng(seed)
    z = np.zeros((k, draws))                       # arm x draw
    z[1:] = (u * np.sqrt(np.clip(w, 0.0, None))) @ rng.standard_normal((k - 1, draws))
    worst = np.full(draws, -np.inf)
    for i in range(k - 1):
        j = np.flatnonzero(se[i, i + 1:] > 0) + i + 1
        if j.size:
            worst = np.maximum(worst, (np.abs(z[j] - z[i]) / se[i, j, None]).max(axis=0))
    if not np.isfinite(worst).any():
        return 0.0
    rank = min(draws - 1, math.ceil(level * draws + 3 * math.sqrt(draws * level * (1 - level))))
    return float(np.partition(worst, rank)[rank])


def mcb_intervals(diff: np.ndarray, se: np.ndarray, c: float) -> tuple[np.ndarray, np.ndarray]:
    """Simultaneous intervals for mu_i - max_{j != i} mu_j (multiple comparisons with the best)
    from all-pairwise bounds mu_i - mu_j in d_ij +- c se_ij: [min_j (d_ij - c se_ij),
    min_j (d_ij + c se_ij)].  ``diff[i, j]`` = d_ij, the paired mean of arm i minus arm j."""
    off = ~np.eye(diff.shape[0], dtype=bool)
    lo = np.where(off, diff - c * se, np.inf).min(axis=1)
    hi = np.where(off, diff + c * se, np.inf).min(axis=1)
    return lo, hi


def mean_ci(x) -> Estimate:
    x = np.asarray(x, dtype=np.float64)
    return mean_from_moments(int(x.size), float(x.sum()), float((x * x).sum()))


def paired_difference(a, b) -> Estimate:
    """Mean of a - b over the same units (common random numbers) with its t interval."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired difference needs arrays of the same units")
    return mean_ci(a - b)
