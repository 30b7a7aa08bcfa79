"""The balance measures, computed from outcome rows (numpy arrays; no engine, no game names).

Every measure is an :class:`~analysis.stats.Estimate` (value, 95% CI, n):

* :func:`seat_edge`: win rate and mean score by position after the dealer (position 0 plays
  first, the dealer last) and the first player's edge over the average seat of the same hand;
* :func:`seat_edge_duplicate`: the same on duplicate deals (each deal played once per position),
  free of deal luck;
* :func:`ladder_pair`: a stronger strategy against a weaker one, played on duplicate deals (one
  run per seat of the stronger player, the same deals in every run): per-hand win rate and
  score edge, the hands (or games) it needs to be ahead with 95% probability, and the shares
  of the per-hand score variance explained by the strategy and by the deal;
* :func:`sd_estimate`: a standard deviation with a large-sample CI;
* :func:`skill_gradient`: the edge over its SD with a delta-method CI over deals;
* :func:`to_be_ahead`: hands needed to be ahead.

A hand's (or game's) winner is the seat with the strictly highest score (no winner on a tie,
e.g. a void hand), unless the rows name the winner.
"""

from __future__ import annotations

import math

import numpy as np

from ..stats import Estimate, mean_ci, wilson

Z_AHEAD = 1.6448536269514722      # one-sided 95% normal quantile
BOOT_DRAWS = 200                  # Poisson bootstrap draws behind the variance-share CIs
BOOT_SEED = 20_120                # fixed: the same rows always give the same intervals
NAN = Estimate(float("nan"), float("nan"), float("nan"), 0)


def winners(scores: np.ndarray) -> np.ndarray:
    """Per row the seat with the strictly highest score, -1 on a tie for the highest."""
    best = scores.max(axis=1)
    top = scores == best[:, None]
    return np.where(top.sum(axis=1) == 1, top.argmax(axis=1), -1)


def seats_by_position(dealer: np.ndarray, n_seats: int) -> np.ndarray:
    """(rows, n_seats): the seat at position p after the dealer (p = 0 plays first)."""
    return (dealer[:, None] + 1 + np.arange(n_seats)[None, :]) % n_seats


def _by_position(dealer, scores, winner=None):
    """(score, win flag) per row and position after the dealer, and the winners."""
    pos = seats_by_position(dealer, scores.shape[1])
    w = winners(scores) if winner is None else winner
    return (np.take_along_axis(scores, pos, axis=1).astype(np.float64),
            (pos == w[:, None]).astype(np.float64), w)


def first_win_series(dealer, scores) -> np.ndarray:
    """Per row: the first player's win flag minus the mean win flag of the row's seats."""
    _, pos_win, _ = _by_position(dealer, scores)
    return pos_win[:, 0] - pos_win.mean(axis=1)


def seat_edge(dealer: np.ndarray, scores: np.ndarray, winner: np.ndarray | None = None) -> dict:
    """Seat-edge measures of rows with ``dealer`` (per row) and ``scores`` (rows x seats);
    ``winner`` per row (-1: none), else :func:`winners`.

    ``win``/``score``: per position, the win rate (Wilson) and mean score (t); ``first_score``:
    the first player's score minus the mean score of the row's seats, ``first_win``: its win
    flag minus the mean win flag of the row's seats (the rate above a fair share), both t
    intervals of per-row values; ``fair_share``: the share of rows with a winner / seats."""
    n_rows, n = scores.shape
    pos_score, pos_win, w = _by_position(dealer, scores, winner)
    return {
        "win": [wilson(int(pos_win[:, p].sum()), n_rows) for p in range(n)],
        "score": [mean_ci(pos_score[:, p]) for p in range(n)],
        "first_score": mean_ci(pos_score[:, 0] - pos_score.mean(axis=1)),
        "first_win": mean_ci(pos_win[:, 0] - pos_win.mean(axis=1)),   # = first_win_series
        "fair_share": float((w >= 0).mean() / n) if n_rows else float("nan"),
    }


def seat_edge_duplicate(dealer: np.ndarray, scores: np.ndarray, winner: np.ndarray | None = None) -> dict:
    """Seat edge on duplicate deals (rows of a ``duplicate`` run, in hand order: deal ``g`` is
    rows ``g*n .. g*n+n-1``, every position playing every hand of it once; an incomplete last
    deal is dropped).  Per deal and position the mean over its ``n`` rotations, so deal luck
    cancels; the intervals are t intervals over deals (the independent units).

    ``score``/``win``: per position, the mean score and win rate; ``first_score`` /
    ``first_win``: the first player's minus the mean of the positions (its edge over a fair
    share); ``deals``: the number of deals (each played ``n`` times)."""
    n = scores.shape[1]
    k = (scores.shape[0] // n) * n
    pos_score, pos_win, _ = _by_position(dealer[:k], scores[:k], None if winner is None else winner[:k])
    g_score = pos_score.reshape(-1, n, n).mean(axis=1)        # (deals, positions)
    g_win = pos_win.reshape(-1, n, n).mean(axis=1)
    return {
        "score": [mean_ci(g_score[:, p]) for p in range(n)],
        "win": [mean_ci(g_win[:, p]) for p in range(n)],
        "first_score": mean_ci(g_score[:, 0] - g_score.mean(axis=1)),
        "first_win": mean_ci(g_win[:, 0] - g_win.mean(axis=1)),
        "deals": int(k // n),
    }


def sd_estimate(x) -> Estimate:
    """Standard deviation of ``x`` with a large-sample 95% CI (the t interval of the squared
    deviations, taken through the square root: no normality assumed)."""
    x = np.asarray(x, dtype=np.float64)
    if x.size < 3:
        return NAN
    dev = (x - x.mean()) ** 2
    v = mean_ci(dev)
    k = x.size / (x.size - 1)          # unbiased variance
    return Estimate(math.sqrt(v.value * k), math.sqrt(max(v.lo, 0.0) * k), math.sqrt(v.hi * k), int(x.size))


def to_be_ahead(effect: Estimate) -> Estimate:
    """Units the stronger player needs for its total edge to be positive with 95% probability,
    ``(1.645 sd / mean)^2 = (1.645 / effect)^2`` rounded up (normal approximation of the sum),
    from the skill gradient ``effect`` (edge / SD, :func:`skill_gradient`); the interval
    follows the effect's CI, so it carries the SD's error as well as the edge's (infinite
    where the CI reaches 0 or below: it may never be ahead; 1 for an edge with no spread)."""
    def need(g: float) -> float:
        if math.isinf(g) and g > 0:
            return 1.0
        if not (g > 0) or not math.isfinite(g):
            return float("inf")
        return float(max(1, math.ceil((Z_AHEAD / g) ** 2)))
    if effect.n == 0:
        return NAN
    return Estimate(need(effect.value), need(effect.hi), need(effect.lo), effect.n)


INTERACTION_CI = ("approximate: the interaction estimate is cut at 0 and assumes the seats of one deal "
                  "vary alike, which duplicate deals break (the rotations' card luck cancels); over "
                  "independent seeds its nominal 95% CI covered 85% to 92% (Ramino Klop, 4 players: 92 of "
                  "100 seeds of 1,000 deals)")
BOOT_GROUPS = 1000                # deals are resampled in this many fixed blocks (h mod groups)


def _group_sums(d: np.ndarray) -> np.ndarray:
    """(groups, 5): per block of deals (deal h in block h mod groups) the count and the sums of
    the per-deal rotation mean, mean square, variance and squared mean."""
    n = d.shape[0]
    g = np.arange(n) % min(BOOT_GROUPS, n)
    mean, ms, var = d.mean(axis=1), (d * d).mean(axis=1), d.var(axis=1, ddof=1)
    return np.stack([np.bincount(g, weights=x) for x in (np.ones(n), mean, ms, var, mean * mean)], axis=1)


def _shares(sums: np.ndarray, k: int) -> np.ndarray:
    """(strategy, cards, interaction) shares, one row per row of weighted ``sums``
    (count, sum of means, of mean squares, of variances, of squared means) of ``k``
    rotations."""
    c, m0, m1, m2, m00 = (sums[:, i] for i in range(5))
    mu, ms = m0 / c, m1 / c
    inter = np.maximum(m00 / c - mu * mu - m2 / c / k, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.stack([mu * mu / ms, 1.0 - (mu * mu + inter) / ms, inter / ms], axis=1)


def variance_shares(d: np.ndarray) -> dict[str, Estimate]:
    """Shares of the mean square per hand of the stronger player's edge ``d`` (deals x
    rotations: every deal played once per seat of the stronger player).

    ``strategy``: the mean edge squared; ``deal``: the rest (1 - strategy), split into
    ``cards`` (the variation between the seats of one deal: which cards the stronger player
    was dealt, plus any random choices of the strategies) and ``interaction`` (deals on which
    the stronger strategy gains more or less whatever its seat: the between-deal variance of
    the rotation means less its within-deal part, a one-way random-effects ANOVA).  CIs:
    Poisson bootstrap over fixed blocks of deals (fixed seed).  The interaction's CI is
    approximate (:data:`INTERACTION_CI`)."""
    n, k = d.shape
    names = ("strategy", "cards", "interaction", "deal")
    if n < 3 or k < 2:
        return {key: NAN for key in names}
    sums = _group_sums(d)
    point = _shares(sums.sum(axis=0, keepdims=True), k)[0]
    w = np.random.default_rng(BOOT_SEED).poisson(1.0, (BOOT_DRAWS, sums.shape[0])).astype(np.float64)
    draws = _shares(w @ sums, k)
    draws = np.column_stack([draws, 1.0 - draws[:, 0]])
    point = np.append(point, 1.0 - point[0])
    lo, hi = np.nanquantile(draws, 0.025, axis=0), np.nanquantile(draws, 0.975, axis=0)
    return {key: Estimate(float(point[i]), float(min(lo[i], point[i])), float(max(hi[i], point[i])), n)
            for i, key in enumerate(names)}


def edges(scores: list[np.ndarray]) -> np.ndarray:
    """(units x runs): in run ``r`` (the stronger player in seat ``r``) its score minus the mean
    score of the others."""
    d = np.empty((scores[0].shape[0], len(scores)))
    for r, sc in enumerate(scores):
        sc = sc.astype(np.float64)
        d[:, r] = sc[:, r] - (sc.sum(axis=1) - sc[:, r]) / (sc.shape[1] - 1)
    return d


def skill_pseudo_values(d: np.ndarray) -> np.ndarray:
    """Per deal (row of ``d``, deals x rotations): the pseudo-value ``g + psi_i`` of the skill
    gradient ``g = mean(d) / sd(d)`` (the SD of one hand, pooled over every hand), ``psi_i``
    its influence by the delta method on the per-deal rotation means of ``d`` and ``d^2``:
    with ``A``, ``B`` the means of those and ``V = B - A^2``,
    ``psi_i = (B (a_i - A) - A (b_i - B) / 2) / V^(3/2)``.  Their mean is ``g`` and their t
    interval the delta-method interval over deals, which carries the SD's own error (with
    heavy-tailed hands, or when duplicate deals cancel most of the edge's noise, the larger
    part) as well as the edge's; the paired difference of two settings' pseudo-values on the
    same deals is the delta-method difference of their gradients.  All NaN when ``d`` has
    no spread."""
    d = np.asarray(d, dtype=np.float64)
    a, b = d.mean(axis=1), (d * d).mean(axis=1)
    big_a, big_b = a.mean(), b.mean()
    v = big_b - big_a * big_a
    if not (v > 0):
        return np.full(d.shape[0], np.nan)
    shrink = math.sqrt(1.0 - 1.0 / d.size)          # the pooled SD with ddof = 1
    g = big_a / math.sqrt(v) * shrink
    psi = (big_b * (a - big_a) - 0.5 * big_a * (b - big_b)) / v ** 1.5 * shrink
    return g + psi


def skill_gradient(d: np.ndarray) -> Estimate:
    """The skill gradient ``mean(d) / sd(d)`` of the edges ``d`` (deals x rotations) with its
    delta-method 95% t interval over deals (:func:`skill_pseudo_values`)."""
    if d.shape[0] < 2:
        return NAN
    p = skill_pseudo_values(d)
    return NAN if np.isnan(p).any() else mean_ci(p)


def skill_series(scores: list[np.ndarray]) -> np.ndarray:
    """Per unit: the skill gradient's pseudo-value (:func:`skill_pseudo_values` of
    :func:`edges`): its mean is the skill gradient ``effect`` of :func:`ladder_pair`, its t
    interval the delta-method one, and the paired difference of two rule settings' series
    (the same deals) the change of the gradient with its delta-method interval."""
    return skill_pseudo_values(edges(scores))


def ladder_pair(scores: list[np.ndarray], winner: list[np.ndarray] | None = None) -> dict:
    """The stronger strategy against the weaker on duplicate deals.  ``scores[r]`` (units x
    seats): the run with the stronger player in seat ``r`` (every run the same units, one
    run per seat); ``winner[r]`` per unit, else :func:`winners`.

    ``edge``: the stronger player's score minus the mean score of the others, per unit,
    averaged over the runs of a deal (t interval over deals); ``win``: its win rate likewise,
    with ``fair`` a seat's rate if every seat won equally often (units with a winner / seats); ``sd``: SD of the per-unit
    edge (one unit, one seat); ``ahead``: :func:`to_be_ahead`; ``effect``: edge / sd (the
    skill gradient, unit-free, :func:`skill_gradient`); ``shares``: :func:`variance_shares`."""
    k = len(scores)
    n_units = scores[0].shape[0]
    d = edges(scores)
    win = np.empty((n_units, k))
    decided = 0
    for r, sc in enumerate(scores):
        w = winners(sc) if winner is None else winner[r]
        win[:, r] = w == r
        decided += int((w >= 0).sum())
    edge = mean_ci(d.mean(axis=1))
    sd = sd_estimate(d.ravel())
    effect = skill_gradient(d)
    fair = decided / (n_units * k * scores[0].shape[1])
    return {"edge": edge, "win": mean_ci(win.mean(axis=1)), "fair": fair, "sd": sd,
            "ahead": to_be_ahead(effect), "effect": effect,
            "shares": variance_shares(d), "units": n_units * k}


def quantiles(x, qs=(0.1, 0.5, 0.9)) -> dict[str, float]:
    x = np.asarray(x)
    return {f"q{int(q * 100)}": float(np.quantile(x, q)) for q in qs} if x.size else {}


__all__ = ["Z_AHEAD", "winners", "seats_by_position", "seat_edge", "seat_edge_duplicate", "first_win_series", "edges", "skill_series", "sd_estimate", "to_be_ahead",
           "variance_shares", "ladder_pair", "skill_gradient", "skill_pseudo_values", "quantiles"]
