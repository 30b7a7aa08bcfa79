"""Intervals that stay valid when the advisor stops on what it has seen: a 95% confidence
sequence for a mean.

The advisor looks at its estimate after every batch of worlds and stops as soon as the
interval of knock - play on excludes 0.  A fixed-sample t interval looked at this way calls
a true difference of exactly 0 far more often than 5% of the time (17% with 10 looks, 39%
with 100).  So it uses the **asymptotic confidence sequence** of Waudby-Smith, Arnold, Wu,
Ramdas & Howard, "Time-uniform central limit theory and asymptotic confidence sequences"
(2021), with the Gaussian (conjugate) mixture boundary: after ``t`` i.i.d. worlds with mean
``m_t`` and sample standard deviation ``s_t``

    m_t +- s_t * sqrt(2 (t r + 1) / (t^2 r) * log(sqrt(t r + 1) / alpha)),   alpha = 0.05,

covers the true mean at every ``t`` at once with probability >= 95% (asymptotically: the
boundary is Robbins' normal mixture for a Brownian motion, which the standardized sum
approaches at rate o(sqrt(t log log t))).  So the interval, and the call, hold at any
stopping time: the first exclusion of 0, the time budget, ``max_worlds`` or "every world
gave the same result".  ``r = (-W_{-1}(-alpha^2 exp(alpha^2 - 1)) - 1) / t*`` (W: Lambert's
function; ``r`` is the mixture variance for the standardized data) makes the sequence
narrowest at ``t* =`` :data:`PLANNED_WORLDS`.

The same critical value :func:`cs_z` makes the expected scores' intervals and (as the z of
a Wilson interval: the score test at every rate, with its variance known under the null)
the win rates' intervals confidence sequences too.  The anytime-valid p-value of "no
difference" is ``min(1, sqrt(t r + 1) exp(-r S^2 / (2 (t r + 1))))`` with ``S = t m_t /
s_t``: the reciprocal of the mixture martingale, below 5% exactly when the sequence excludes 0.

The price of looking as often as we like: at ``t*`` the interval is 1.55 times as wide as
a fixed-sample 95% t interval of the same worlds (2,000 worlds: 1.95; 200,000: 1.66;
2,000,000: 1.82), so resolving a given difference takes about 2.4 times the worlds a
single look at a planned size would need; a clear difference still stops at the first
looks.  ``tests/test_knock_advice.py`` measures the false calls (zero difference) and the
power (a difference of 0.06 standard deviations) of the sampler.
"""

from __future__ import annotations

import math

from analysis.stats import Estimate, t_quantile, wilson

ALPHA = 0.05
PLANNED_WORLDS = 20_000          # t*: where the confidence sequence is narrowest
METHOD = ("95% asymptotic confidence sequences (Waudby-Smith, Arnold, Wu, Ramdas & Howard "
          f"2021, normal mixture tuned for {PLANNED_WORLDS:,} worlds): valid at the "
          "data-dependent stopping time; win rates: Wilson intervals at the same critical value")
FIXED_METHOD = ("95% t intervals and Wilson intervals for the fixed number of worlds (--worlds: "
                "no look before the end)")


def _rho2() -> float:
    from scipy.special import lambertw
    a2 = ALPHA * ALPHA
    return (-float(lambertw(-a2 * math.exp(a2 - 1), -1).real) - 1) / PLANNED_WORLDS


RHO2 = _rho2()


def cs_z(t: int) -> float:
    """The confidence sequence's half-width after ``t`` worlds, in standard errors
    ``s_t / sqrt(t)`` (1.96 for a single look at a normal mean)."""
    u = t * RHO2
    return math.sqrt(2 * (u + 1) / u * math.log(math.sqrt(u + 1) / ALPHA))


def _moments(count: int, total, total_sq) -> tuple[float, float]:
    """Mean and sample variance; the exact integer numerator when the sums are integers."""
    mean = total / count
    if isinstance(total, int) and isinstance(total_sq, int):
        var = (count * total_sq - total * total) / (count * (count - 1))
    else:
        var = (total_sq - total * total / count) / (count - 1)
    return mean, max(var, 0.0)


def mean_interval(count: int, total, total_sq, *, sequential: bool) -> Estimate:
    """The mean with its 95% confidence sequence (``sequential``) or t interval."""
    if count <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if count == 1:
        return Estimate(float(total), -math.inf, math.inf, 1)
    mean, var = _moments(count, total, total_sq)
    z = cs_z(count) if sequential else t_quantile(count - 1)
    h = z * math.sqrt(var / count)
    return Estimate(mean, mean - h, mean + h, count)


def rate_interval(k: int, n: int, *, sequential: bool) -> Estimate:
    """A rate with its Wilson interval, at the confidence sequence's critical value when
    ``sequential``."""
    return wilson(k, n, z=cs_z(n)) if sequential and n > 0 else wilson(k, n)


def p_value(count: int, total, total_sq, *, sequential: bool) -> float:
    """Two-sided p-value of "the mean is 0": anytime-valid (``sequential``) or the t test's."""
    if count <= 1:
        return 1.0
    mean, var = _moments(count, total, total_sq)
    if var == 0:
        return 1.0 if mean == 0 else 0.0
    if not sequential:
        from scipy import stats
        return float(2 * stats.t.sf(abs(mean) / math.sqrt(var / count), count - 1))
    u = count * RHO2
    s2 = count * mean * mean / var                     # S^2 / t with S = t m / s
    return min(1.0, math.exp(0.5 * math.log(u + 1) - RHO2 * count * s2 / (2 * (u + 1))))
