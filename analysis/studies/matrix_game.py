"""The game theory of the knock equilibrium study (``knock_equilibrium.py``): the payoff matrix
of the policies' fields, the zero-sum matrix game solved by linear programming (2 players), its
cross-fitted and perturbed checks, and best-response iteration (3+ players)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..stats import Estimate, t_quantile

ALPHA = 0.05
SUPPORT_MIN = 1e-6     # a weight below this is outside the equilibrium's support


def payoff_matrix(fields: dict[int, FieldStats], n_pol: int, half: int | None = None):
    """A[i, j]: policy i's mean net per hand against j (column j from field j), and the CI half
    widths H; ``half`` 0/1: the means on the even / odd deals only (H is then None)."""
    a = np.zeros((n_pol, n_pol))
    h = np.zeros((n_pol, n_pol))
    for j, fs in fields.items():
        for i in range(n_pol):
            if half is None:
                e = fs.value(i)
                a[i, j], h[i, j] = e.value, e.half_width
            else:
                a[i, j] = fs.half_mean(half, i)
    return a, (h if half is None else None)


def symmetrise(a: np.ndarray) -> np.ndarray:
    """The antisymmetric part (A - A^T) / 2: the payoff matrix of a symmetric zero-sum game."""
    return (a - a.T) / 2


def solve_matrix_game(a: np.ndarray) -> tuple[np.ndarray, float]:
    """Maximin mixed strategy x of the row player and the value v of the zero-sum game with row
    payoffs ``a``: maximise v subject to A^T x >= v, sum x = 1, x >= 0 (HiGHS via linprog)."""
    from scipy.optimize import linprog
    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0
    res = linprog(c, A_ub=np.hstack([-a.T, np.ones((n, 1))]), b_ub=np.zeros(n),
                  A_eq=np.hstack([np.ones((1, m)), np.zeros((1, 1))]), b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    if not res.success:
        raise RuntimeError(f"the matrix game LP failed: {res.message}")
    x = np.clip(res.x[:m], 0, None)
    x[x < SUPPORT_MIN] = 0.0
    return x / x.sum(), float(res.x[-1])


CROSS_FIT_METHOD = ("cross-fitted: the mix solved on the even deals is played against each policy on the odd "
                    "deals and vice versa, the two halves averaged; simultaneous 95% bounds over the policies "
                    "(Bonferroni, two-sided, t on each half's deals)")


def cross_fit_gains(fields: dict[int, "FieldStats"], halves: list[np.ndarray], alpha: float = ALPHA) -> list[Estimate]:
    """Per policy j, its gain against the equilibrium mix out of sample: on each half ``h``
    of the deals, minus the mean of the mix solved on the *other* half (``halves[1 - h]``)
    against field ``j``; the two halves averaged, with simultaneous ``1 - alpha`` bounds over
    the policies (Bonferroni: each two-sided at ``alpha / K``).  In sample the best reply's
    gain is at most 0 by construction (the mix is optimal against the deals it was solved
    on); here a policy the mix truly fails against shows a gain above 0."""
    k = len(fields)
    out = []
    for j in range(k):
        fs = fields[j]
        parts = [fs.half_mix(h, halves[1 - h]) for h in (0, 1)]
        gain = -(parts[0][0] + parts[1][0]) / 2
        se = math.sqrt(parts[0][1] ** 2 + parts[1][1] ** 2) / 2
        c = t_quantile(min(fs.counts) - 1, 1 - alpha / k)
        out.append(Estimate(gain, gain - c * se, gain + c * se, fs.n))
    return out


def support(x) -> list[int]:
    return [k for k, w in enumerate(x) if w >= SUPPORT_MIN]


def perturbed_equilibria(a: np.ndarray, h: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """(policy k, sign, equilibrium) of the game with policy k's payoffs all moved by sign times
    their CI half-widths (kept antisymmetric): how far the equilibrium moves within the noise."""
    out = []
    for k in range(len(a)):
        for sign in (1, -1):
            p = a.copy()
            p[k, :] += sign * h[k, :]
            p[:, k] -= sign * h[k, :]
            p[k, k] = 0.0
            out.append((k, sign, solve_matrix_game(p)[0]))
    return out


@dataclass
class Iteration:
    path: list              # fields in the order played
    outcome: str            # "fixed point" or "cycle"
    cycle: list             # the fixed point alone, or the fields that repeat


def iterate_best_responses(respond, start) -> Iteration:
    """Best-response iteration: the field plays p, ``respond(p)`` gives (best response, the set
    not distinguishable from it); stop at a fixed point (p is in its own set) or when a best
    response was a field before (a cycle).  Ends within as many steps as there are policies."""
    path = [start]
    while True:
        p = path[-1]
        best, same = respond(p)
        if p in same:
            return Iteration(path, "fixed point", [p])
        if best in path:
            return Iteration(path, "cycle", path[path.index(best):])
        path.append(best)
