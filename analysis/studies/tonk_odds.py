"""Exact probabilities of a tonk on the deal (Tonk, ``tonk_deal_min``).

Question answered (``/work/shared/rules/tonk.md``): each of ``n`` players (2-6) is dealt five
cards from one shuffled 52-card pack; a player whose five cards total at least ``tonk_min``
(A=1, 2..10 face value, J Q K=10) has a *tonk*.  Exactly one tonk: the hand is paid out; two or
more: a tie and a redeal.  ``exact_tonk_odds`` gives, as exact fractions and as floats,

* ``p_given``         P(a given, fixed player is dealt a tonk),
* ``p_at_least_one``  P(at least one player has a tonk),
* ``p_exactly_one``   P(exactly one player has a tonk)  (the hand is paid out),
* ``p_two_or_more``   P(two or more players have a tonk)  (tie -> redeal).

The hands share one pack, so they are *not* independent (a tonk uses up tens); nothing here
uses an independence approximation.

Method
------
1. **Value classes.**  Only card values matter, so the pack is 10 value classes: value 10
   (T J Q K, 16 cards) and values 1..9 (4 cards each); the class sizes are read from
   ``sim.core.cards.value_table``.  A five-card hand has a *composition* ``c = (c_1..c_10)``, the
   number of its cards in each class; it is a tonk iff ``sum v*c_v >= tonk_min``.  With
   ``tonk_min >= 45`` the "deficit" ``sum (10-v)*c_v`` is at most 5, so there are only a few
   tonk compositions (e.g. 2 for ``tonk_min = 49``: five tens, or four tens and a nine).

2. **Joint counts for k fixed players.**  ``N_k`` = the number of ordered k-tuples of pairwise
   disjoint 5-card hands that are all tonks.  It is computed exactly with Python integers by a
   dynamic programme over players: the state is the vector ``r`` of cards still unused in each
   value class (weight = number of ways to reach it); giving the next player a tonk composition
   ``c`` multiplies the weight by ``prod_v C(r_v, c_v)`` and moves to ``r - c``.  After k steps
   ``N_k`` is the total weight.  The number of ordered k-tuples of disjoint 5-card hands is
   ``D_k = prod_{i<k} C(52-5i, 5)``, and since every such tuple is equally likely under a
   uniform shuffle (whatever the dealing order), ``A_k = N_k / D_k`` is the exact probability
   that k given players all hold tonks (``A_1 = p_given``; ``A_k = 0`` once the tens run out).

3. **Inclusion-exclusion.**  By symmetry the k-th binomial moment is ``S_k = C(n,k) A_k``, so
   ``P(at least one) = sum_{k>=1} (-1)^(k+1) S_k`` and
   ``P(exactly j) = sum_{k>=j} (-1)^(k-j) C(k,j) S_k``; ``p_two_or_more`` is
   ``P(at least one) - P(exactly one)``.  All arithmetic is in ``fractions.Fraction``.

Check: at ``tonk_min = 50`` only five tens qualify, so ``p_given = C(16,5)/C(52,5)`` and
``A_k = prod_{i<k} C(16-5i,5)/C(52-5i,5)``.  The tests also compare every probability with a
numpy Monte Carlo of shuffled deals (``tests/analysis/studies/test_tonk_odds.py``).

The turned-up card and the stock do not affect the five-card hands, so they are ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported only where a DataFrame is built
    import pandas as pd

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from sim.core.cards import standard_pack, value_table

from ..errors import OddsError
from ..wording import ci_text

HAND_SIZE = 5
PACK_SIZE = 52
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MIN_TONK, MAX_TONK = 45, 50
PROB_KEYS = ("p_given", "p_at_least_one", "p_exactly_one", "p_two_or_more")

__all__ = ["exact_tonk_odds", "tonk_odds_table", "tonk_count_distribution",
           "joint_tonk_probability", "tonk_compositions", "value_class_sizes", "PROB_KEYS"]


@lru_cache(maxsize=None)
def value_class_sizes() -> tuple[tuple[int, int], ...]:
    """``((value, number of cards with that value), ...)`` for one 52-card pack, Tonk values
    (A=1, face cards 10), values ascending: ``((1, 4), (2, 4), ..., (9, 4), (10, 16))``."""
    table = value_table(ace=1, face=10)
    vals, counts = np.unique(table[standard_pack()], return_counts=True)
    return tuple((int(v), int(c)) for v, c in zip(vals, counts))


def _check(n_players: int | None, tonk_min: int) -> None:
    if isinstance(tonk_min, bool) or not isinstance(tonk_min, (int, np.integer)):
        raise TypeError(f"tonk_min must be an int, got {tonk_min!r}")
    if not MIN_TONK <= tonk_min <= MAX_TONK:
        raise OddsError(f"tonk_min must be in {MIN_TONK}..{MAX_TONK}, got {tonk_min}")
    if n_players is None:
        return
    if isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer)):
        raise TypeError(f"n_players must be an int, got {n_players!r}")
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise OddsError(f"Tonk is played by {MIN_PLAYERS}-{MAX_PLAYERS} players, not {n_players}")


@lru_cache(maxsize=None)
def tonk_compositions(tonk_min: int) -> tuple[tuple[int, ...], ...]:
    """All value-class compositions of a five-card tonk: tuples of per-class card counts
    (classes in the order of :func:`value_class_sizes`) summing to 5, within the class sizes,
    with total value ``>= tonk_min``."""
    _check(None, tonk_min)
    classes = value_class_sizes()
    out = set()
    for idx in combinations_with_replacement(range(len(classes)), HAND_SIZE):
        c = [0] * len(classes)
        for i in idx:
            c[i] += 1
        if all(c[i] <= classes[i][1] for i in range(len(classes))) and \
                sum(c[i] * classes[i][0] for i in range(len(classes))) >= tonk_min:
            out.add(tuple(c))
    return tuple(sorted(out))


@lru_cache(maxsize=None)
def _joint_counts(tonk_min: int) -> tuple[int, ...]:
    """``(N_0, N_1, ..., N_K)``: ordered k-tuples of disjoint five-card tonk hands, by a DP over
    players on the vector of unused cards per value class (``N_0 = 1``); stops at the first
    ``N_k = 0`` or at ``MAX_PLAYERS``."""
    comps = tonk_compositions(tonk_min)
    states: dict[tuple[int, ...], int] = {tuple(size for _, size in value_class_sizes()): 1}
    counts = [1]
    for _ in range(MAX_PLAYERS):
        nxt: dict[tuple[int, ...], int] = {}
        for rem, ways in states.items():
            for c in comps:
                w = ways
                for r_v, c_v in zip(rem, c):
                    if c_v:
                        if c_v > r_v:
                            w = 0
                            break
                        w *= comb(r_v, c_v)
                if w:
                    key = tuple(r_v - c_v for r_v, c_v in zip(rem, c))
                    nxt[key] = nxt.get(key, 0) + w
        states = nxt
        counts.append(sum(states.values()))
        if not states:
            break
    return tuple(counts)


def _ordered_deals(k: int) -> int:
    """Number of ordered k-tuples of pairwise disjoint five-card hands from 52 cards."""
    out = 1
    for i in range(k):
        out *= comb(PACK_SIZE - HAND_SIZE * i, HAND_SIZE)
    return out


def joint_tonk_probability(k: int, tonk_min: int) -> Fraction:
    """Exact P(k given players all hold a tonk), ``k = 0..MAX_PLAYERS``."""
    _check(None, tonk_min)
    if not 0 <= k <= MAX_PLAYERS:
        raise ValueError(f"k must be in 0..{MAX_PLAYERS}, got {k}")
    counts = _joint_counts(tonk_min)
    return Fraction(counts[k], _ordered_deals(k)) if k < len(counts) else Fraction(0)


def tonk_count_distribution(n_players: int, tonk_min: int) -> list[Fraction]:
    """Exact distribution of the number of players dealt a tonk: ``[P(0), P(1), ..., P(n)]``,
    by inclusion-exclusion on the binomial moments ``S_k = C(n,k) A_k``."""
    _check(n_players, tonk_min)
    s = [comb(n_players, k) * joint_tonk_probability(k, tonk_min) for k in range(n_players + 1)]
    return [sum(((-1) ** (k - j) * comb(k, j) * s[k] for k in range(j, n_players + 1)), Fraction(0))
            for j in range(n_players + 1)]


def exact_tonk_odds(n_players: int, tonk_min: int) -> dict:
    """Exact tonk-on-the-deal probabilities for ``n_players`` (2-6) and ``tonk_min`` (45-50).

    Returns floats under ``p_given``, ``p_at_least_one``, ``p_exactly_one``, ``p_two_or_more``
    and the same four as ``fractions.Fraction`` under ``exact``.
    """
    _check(n_players, tonk_min)
    dist = tonk_count_distribution(n_players, tonk_min)
    exact = {
        "p_given": joint_tonk_probability(1, tonk_min),
        "p_at_least_one": 1 - dist[0],
        "p_exactly_one": dist[1],
        "p_two_or_more": 1 - dist[0] - dist[1],
    }
    out: dict = {k: float(v) for k, v in exact.items()}
    out["exact"] = exact
    return out


def tonk_odds_table(players=range(2, 7), tonk_mins=(49, 50)) -> "pd.DataFrame":
    """One row per (players, tonk_min) with the four probabilities as floats."""
    import pandas as pd
    rows = []
    for n in players:
        for t in tonk_mins:
            odds = exact_tonk_odds(int(n), int(t))
            rows.append({"players": int(n), "tonk_min": int(t), **{k: odds[k] for k in PROB_KEYS}})
    return pd.DataFrame(rows, columns=["players", "tonk_min", *PROB_KEYS])


if __name__ == "__main__":  # pragma: no cover
    import pandas as pd
    with pd.option_context("display.float_format", lambda x: f"{x:.6g}", "display.width", 120):
        print(tonk_odds_table().to_string(index=False))


# ----------------------------------------------------------------------------------------
# the odds' answer in sentences (analysis.wording has the words)

def tonk_odds_answer(doc: dict, default_min: int | None = None) -> list[str]:
    """Tonk on the deal, exact by player count (the default tonk_min first), and how the
    simulation agrees."""
    rows = doc["rows"]
    mins = sorted({r["tonk_min"] for r in rows}, key=lambda t: (t != default_min, t))
    out = []
    for t in mins:
        sub = sorted((r for r in rows if r["tonk_min"] == t and r["quantity"] == "p_at_least_one"),
                     key=lambda r: r["players"])
        if not sub:
            continue
        per = ", ".join(f"{100 * r['exact']:.2f}% with {r['players']}" for r in sub)
        s0 = sub[0]
        sim = (f"; simulated with {s0['players']}: "
               f"{ci_text(s0['sim'], s0['sim_lo'], s0['sim_hi'], 2, scale=100, sign=False, test=False)}% "
               f"(n = {s0['n']:,} deals)" if s0.get("sim") is not None else "")
        out.append(f"Tonk on the deal (five cards counting {t} or more{', the default' if t == default_min else ''}), "
                   f"exact: someone at the table is dealt one in {per} players{sim}.")
    if not rows or rows[0].get("sim") is None:
        return out
    miss = sum(bool(r["ci_misses_exact"]) for r in rows)
    out.append(f"The simulation agrees with the exact values: {miss} of {len(rows)} 95% intervals miss them "
               f"(about {0.05 * len(rows):.1f} expected by chance; n = {doc.get('deals', 0):,} deals per setting).")
    return out
