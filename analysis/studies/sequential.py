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

Weighted worlds (an opponent model that weighs worlds by how likely the history was in
them, :mod:`sim.advisors.history`): the self-normalized mean ``m = sum(w x) / sum(w)`` has
``m - mu = sum(w (x - mu)) / sum(w)``, a sum of i.i.d. mean-zero terms over the sum of the
weights; the same boundary on that sum, with its variance estimated by ``sum(w^2 (x -
m)^2) / t`` (the delta method), gives ``m +- cs_z(t) sqrt(sum(w^2 (x - m)^2)) / sum(w)``
(:func:`weighted_interval`; with a fixed size the normal quantile instead of ``cs_z``).
The weights are at most 1, so the terms have finite variance.  Weighted win rates get a
Wilson interval at Kish's effective sample size instead (:func:`weighted_rate`, an
approximation), which does not shrink to a point at 0% or 100% as the delta method does.

The price of looking as often as we like: at ``t*`` the interval is 1.55 times as wide as
a fixed-sample 95% t interval of the same worlds (2,000 worlds: 1.95; 200,000: 1.66;
2,000,000: 1.82), so resolving a given difference takes about 2.4 times the worlds a
single look at a planned size would need; a clear difference still stops at the first
looks.  Measured on the advisor's sampler (``tests/analysis/studies/test_knock_advice.py``, differences of
uniform integers -8..8, sd 4.9): with a true difference of 0 and a look every 100 worlds up
to 10,000, 0 of 400 runs made a call (19 of 2,000: 0.95%), where stopping at the first t
interval excluding 0 made one in 35%; a difference of 0.3 (0.06 sd), looked at every 2,000
worlds, was found in 200 of 200 runs after 4,330 worlds on average (2,000 to 8,000), where a
single look with the same 99% power needs about 5,000.
"""

from __future__ import annotations

import math

from analysis.stats import Z95, Estimate, t_quantile, wilson

ALPHA = 0.05
PLANNED_WORLDS = 20_000          # t*: where the confidence sequence is narrowest
MIN_VARIED = 20                  # fewer worlds away from the common result: no interval, no call
def _rho2() -> float:
    from scipy.special import lambertw
    a2 = ALPHA * ALPHA
    return (-float(lambertw(-a2 * math.exp(a2 - 1), -1).real) - 1) / PLANNED_WORLDS


RHO2 = _rho2()


def method(*, sequential: bool, weighted: bool) -> str:
    """How the advice's intervals were made, for its notes."""
    if sequential:
        return ("95% asymptotic confidence sequences (Waudby-Smith, Arnold, Wu, Ramdas & Howard "
                f"2021, normal mixture tuned for {PLANNED_WORLDS:,} worlds): valid at the "
                "data-dependent stopping time; "
                + ("weighted means by the delta method, weighted win rates: Wilson intervals "
                   "at Kish's effective sample size" if weighted else
                   "win rates: Wilson intervals at the same critical value"))
    return (("95% normal intervals of the weighted means (delta method) and Wilson intervals of "
             "the weighted win rates at Kish's effective sample size" if weighted else
             "95% t intervals and Wilson intervals")
            + " for the fixed number of worlds (--worlds: no look before the end)")


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


def too_few_varied(varied: int | None) -> bool:
    """Are ``varied`` worlds (those away from the common result) too few for an interval?
    A variance-based interval rests on the normal approximation of the mean, which needs the
    worlds to vary: when every world so far gave the same result the sample variance is 0
    and the interval a point, and with a result that differs in rare worlds (a true mean of
    0 made of many -1 and a rare +2239) that point excludes 0 in 42% of the runs, and a
    handful of rare worlds still leaves the mean far from normal.  So below
    :data:`MIN_VARIED` such worlds there is no interval (``-inf, inf``) and no call; measured
    in ``tests/analysis/studies/test_knock_advice.py``.  None: not counted (no floor)."""
    return varied is not None and varied < MIN_VARIED


def mean_interval(count: int, total, total_sq, *, sequential: bool, varied: int | None = None) -> Estimate:
    """The mean with its 95% confidence sequence (``sequential``) or t interval; unbounded
    when too few worlds varied (:func:`too_few_varied`)."""
    if count <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if count == 1 or too_few_varied(varied):
        return Estimate(float(total) / count, -math.inf, math.inf, count)
    mean, var = _moments(count, total, total_sq)
    z = cs_z(count) if sequential else t_quantile(count - 1)
    h = z * math.sqrt(var / count)
    return Estimate(mean, mean - h, mean + h, count)


def rate_interval(k: int, n: int, *, sequential: bool) -> Estimate:
    """A rate with its Wilson interval, at the confidence sequence's critical value when
    ``sequential``."""
    return wilson(k, n, z=cs_z(n)) if sequential and n > 0 else wilson(k, n)


def p_value(count: int, total, total_sq, *, sequential: bool, varied: int | None = None) -> float:
    """Two-sided p-value of "the mean is 0": anytime-valid (``sequential``) or the t test's;
    1 when too few worlds varied (:func:`too_few_varied`)."""
    if count <= 1 or too_few_varied(varied):
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


def weighted_interval(m: dict, x: str, t: int, *, sequential: bool, varied: int | None = None) -> Estimate:
    """The weighted mean of column ``x`` over ``t`` worlds with its 95% confidence sequence
    (``sequential``) or normal interval; ``m``: the weighted moments (``m["w"]``,
    ``m["w2"]`` and ``m[x] = [sum w x, sum w^2 x, sum w^2 x^2]``); unbounded when too few
    worlds varied (:func:`too_few_varied`)."""
    mean, ss = _weighted(m, x)
    if too_few_varied(varied):
        return Estimate(mean, -math.inf, math.inf, t)
    h = (cs_z(t) if sequential else Z95) * math.sqrt(ss) / m["w"]
    return Estimate(mean, mean - h, mean + h, t)


def weighted_rate(m: dict, x: str, t: int, *, sequential: bool) -> Estimate:
    """A weighted rate (0/1 column ``x``) with a Wilson interval at Kish's effective sample
    size ``(sum w)^2 / sum w^2`` (at the confidence sequence's critical value when
    ``sequential``): unlike the delta method it does not shrink to a point at 0% or 100%."""
    ess = m["w"] ** 2 / m["w2"]
    e = wilson(m[x][0] / m["w"] * ess, ess, z=cs_z(t) if sequential else Z95)
    return Estimate(e.value, e.lo, e.hi, t)


def weighted_p_value(m: dict, x: str, t: int, *, sequential: bool, varied: int | None = None) -> float:
    """:func:`p_value` of "the weighted mean of ``x`` is 0"."""
    mean, ss = _weighted(m, x)
    if too_few_varied(varied):
        return 1.0
    if ss == 0:
        return 1.0 if mean == 0 else 0.0
    s2 = m[x][0] ** 2 / ss                             # S^2 / t
    if not sequential:
        from scipy import stats
        return float(2 * stats.norm.sf(math.sqrt(s2)))
    u = t * RHO2
    return min(1.0, math.exp(0.5 * math.log(u + 1) - RHO2 * t * s2 / (2 * (u + 1))))


def _weighted(m: dict, x: str) -> tuple[float, float]:
    """The weighted mean and ``sum(w^2 (x - mean)^2)``."""
    swx, sw2x, sw2xx = m[x]
    mean = swx / m["w"]
    return mean, max(sw2xx - 2 * mean * sw2x + mean * mean * m["w2"], 0.0)
