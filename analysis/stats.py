"""Confidence intervals and paired differences.

Every estimate carries its 95% CI and its sample size:

* rates: Wilson score interval (good near 0 and 1, where Wald fails);
* means: Student-t interval from exact moments (count, sum, sum of squares) — the streaming
  accumulators keep these as integers, so the interval is the same however the run was split;
* paired differences (common random numbers): the t interval of the per-unit differences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


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


def mean_from_moments(count: int, total: float, total_sq: float) -> Estimate:
    """Mean with a t interval from (count, sum, sum of squares)."""
    if count <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    mean = total / count
    if count == 1:
        return Estimate(mean, float("-inf"), float("inf"), 1)
    # exact integer numerator where the inputs are integers: no cancellation error
    if isinstance(total, int) and isinstance(total_sq, int):
        var = (count * total_sq - total * total) / (count * (count - 1))
    else:
        var = (total_sq - total * total / count) / (count - 1)
    se = math.sqrt(max(var, 0.0) / count)
    h = t_quantile(count - 1) * se
    return Estimate(mean, mean - h, mean + h, count)


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
