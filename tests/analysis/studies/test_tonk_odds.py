"""Tests of the exact tonk-on-the-deal probabilities (analysis.studies.tonk_odds)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb, factorial, prod

import numpy as np
import pandas as pd
import pytest

from analysis.studies.tonk_odds import (
    PROB_KEYS,
    exact_tonk_odds,
    joint_tonk_probability,
    tonk_compositions,
    tonk_count_distribution,
    tonk_odds_table,
    value_class_sizes,
)
from sim.core.cards import standard_pack, value_table

PLAYERS = range(2, 7)
TONK_MINS = range(45, 51)
C52_5 = comb(52, 5)


def _multinomial(n: int, parts) -> int:
    """Ways to pick disjoint labelled groups of the given sizes from n items."""
    out = factorial(n) // factorial(n - sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


# --- closed forms ---------------------------------------------------------------------------

def test_value_classes():
    assert value_class_sizes() == tuple((v, 4) for v in range(1, 10)) + ((10, 16),)


def test_closed_form_two_players_fifty():
    odds = exact_tonk_odds(2, 50)
    assert odds["exact"]["p_given"] == Fraction(comb(16, 5), C52_5)
    assert odds["p_given"] == pytest.approx(comb(16, 5) / C52_5, rel=1e-15)
    both = Fraction(comb(16, 5) * comb(11, 5), C52_5 * comb(47, 5))
    assert odds["exact"]["p_two_or_more"] == both
    assert odds["exact"]["p_exactly_one"] == 2 * (Fraction(comb(16, 5), C52_5) - both)


def test_closed_form_fifty_all_players():
    """At 50 only five tens qualify: A_k = prod_{i<k} C(16-5i,5)/C(52-5i,5); no 4 tonks."""
    a = [Fraction(prod(comb(16 - 5 * i, 5) for i in range(k)),
                  prod(comb(52 - 5 * i, 5) for i in range(k))) for k in range(4)]
    assert joint_tonk_probability(4, 50) == 0
    for n in PLAYERS:
        s = [comb(n, k) * a[k] for k in range(4)]
        at_least_one = s[1] - s[2] + s[3]
        exactly_one = s[1] - 2 * s[2] + 3 * s[3]
        ex = exact_tonk_odds(n, 50)["exact"]
        assert ex["p_at_least_one"] == at_least_one
        assert ex["p_exactly_one"] == exactly_one
        assert ex["p_two_or_more"] == at_least_one - exactly_one


def test_closed_form_given_forty_nine():
    assert exact_tonk_odds(3, 49)["exact"]["p_given"] == Fraction(comb(16, 5) + 4 * comb(16, 4), C52_5)


def test_composition_counts():
    # deficits sum(10 - v) <= 50 - tonk_min: partitions into <= 5 parts, minus five nines (only 4)
    assert {t: len(tonk_compositions(t)) for t in TONK_MINS} == {45: 18, 46: 12, 47: 7, 48: 4, 49: 2, 50: 1}


# --- independent exact methods --------------------------------------------------------------

def _subset_sum_counts() -> list[list[int]]:
    """ways[k][s]: k-card subsets of the pack with total s, by a card-by-card DP."""
    vals = value_table()[standard_pack()]
    ways = [[0] * 51 for _ in range(6)]
    ways[0][0] = 1
    for v in vals:
        for k in range(5, 0, -1):
            for s in range(50, int(v) - 1, -1):
                ways[k][s] += ways[k - 1][s - int(v)]
    return ways


def test_p_given_matches_card_level_subset_count():
    ways = _subset_sum_counts()
    assert sum(ways[5]) == C52_5
    for t in TONK_MINS:
        assert exact_tonk_odds(2, t)["exact"]["p_given"] == Fraction(sum(ways[5][t:]), C52_5)


@pytest.mark.parametrize("tonk_min", TONK_MINS)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_joint_matches_direct_multinomial_enumeration(k, tonk_min):
    """Direct sum over k-tuples of tonk compositions of prod_v multinomial(N_v; c_v^1..c_v^k)."""
    sizes = [n for _, n in value_class_sizes()]
    comps = tonk_compositions(tonk_min)
    total = 0
    for tup in product(comps, repeat=k):
        cols = list(zip(*tup))  # per class: the k hands' counts
        if all(sum(col) <= n for col, n in zip(cols, sizes)):
            total += prod(_multinomial(n, col) for col, n in zip(cols, sizes))
    denom = prod(comb(52 - 5 * i, 5) for i in range(k))
    assert joint_tonk_probability(k, tonk_min) == Fraction(total, denom)


# --- structural properties ------------------------------------------------------------------

@pytest.mark.parametrize("tonk_min", TONK_MINS)
@pytest.mark.parametrize("n", PLAYERS)
def test_probability_identities(n, tonk_min):
    odds = exact_tonk_odds(n, tonk_min)
    ex = odds["exact"]
    assert set(ex) == set(PROB_KEYS)
    for key in PROB_KEYS:
        assert isinstance(ex[key], Fraction)
        assert 0 <= ex[key] <= 1
        assert odds[key] == float(ex[key])
    assert ex["p_at_least_one"] == ex["p_exactly_one"] + ex["p_two_or_more"]
    assert ex["p_exactly_one"] <= n * ex["p_given"]
    # Bonferroni bounds
    a2 = joint_tonk_probability(2, tonk_min)
    assert n * ex["p_given"] - comb(n, 2) * a2 <= ex["p_at_least_one"] <= n * ex["p_given"]
    dist = tonk_count_distribution(n, tonk_min)
    assert sum(dist) == 1 and all(p >= 0 for p in dist)
    assert sum(j * p for j, p in enumerate(dist)) == n * ex["p_given"]  # E[#tonks]


@pytest.mark.parametrize("n", PLAYERS)
def test_monotone_in_tonk_min(n):
    """Raising the threshold shrinks each player's tonk event, so these cannot increase."""
    for lo, hi in zip(TONK_MINS, TONK_MINS[1:]):
        a, b = exact_tonk_odds(n, lo)["exact"], exact_tonk_odds(n, hi)["exact"]
        for key in ("p_given", "p_at_least_one", "p_two_or_more"):
            assert b[key] < a[key], (n, lo, key)


@pytest.mark.parametrize("tonk_min", TONK_MINS)
def test_monotone_in_players(tonk_min):
    for n in range(2, 6):
        a, b = exact_tonk_odds(n, tonk_min)["exact"], exact_tonk_odds(n + 1, tonk_min)["exact"]
        assert a["p_given"] == b["p_given"]
        assert b["p_at_least_one"] > a["p_at_least_one"]
        assert b["p_two_or_more"] > a["p_two_or_more"]


def test_table():
    df = tonk_odds_table()
    assert list(df.columns) == ["players", "tonk_min", *PROB_KEYS]
    assert len(df) == 10
    assert sorted(zip(df.players, df.tonk_min)) == [(n, t) for n in PLAYERS for t in (49, 50)]
    for row in df.itertuples(index=False):
        odds = exact_tonk_odds(row.players, row.tonk_min)
        for key in PROB_KEYS:
            assert getattr(row, key) == odds[key]
    small = tonk_odds_table(players=[3], tonk_mins=range(45, 51))
    assert isinstance(small, pd.DataFrame) and list(small.tonk_min) == list(range(45, 51))


@pytest.mark.parametrize("n, t, err", [(1, 49, ValueError), (7, 49, ValueError), (2, 44, ValueError),
                                       (2, 51, ValueError), (2.0, 49, TypeError), (2, 49.5, TypeError),
                                       (True, 49, TypeError)])
def test_bad_arguments(n, t, err):
    with pytest.raises(err):
        exact_tonk_odds(n, t)


# --- Monte Carlo agreement ------------------------------------------------------------------

def _wilson(x: int, n: int, z: float) -> tuple[float, float]:
    p = x / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def test_monte_carlo_four_players():
    """200k shuffled deals, dealt one card at a time to 4 seats; every exact probability must
    lie in the 99.9% Wilson interval of its Monte Carlo estimate."""
    n_players, n_deals, z = 4, 200_000, 3.2905267314918945  # two-sided 99.9%
    rng = np.random.default_rng(12345)
    values = value_table()[standard_pack()].astype(np.int8)
    deck = rng.permuted(np.tile(values, (n_deals, 1)), axis=1)[:, :5 * n_players]
    totals = deck.reshape(n_deals, 5, n_players).sum(axis=1, dtype=np.int64)  # seat = card % 4
    for tonk_min in (45, 49, 50):
        tonk = totals >= tonk_min
        n_tonk = tonk.sum(axis=1)
        hits = {
            "p_given": int(tonk[:, 0].sum()),
            "p_at_least_one": int((n_tonk >= 1).sum()),
            "p_exactly_one": int((n_tonk == 1).sum()),
            "p_two_or_more": int((n_tonk >= 2).sum()),
        }
        odds = exact_tonk_odds(n_players, tonk_min)
        for key, x in hits.items():
            lo, hi = _wilson(x, n_deals, z)
            assert lo <= odds[key] <= hi, (tonk_min, key, x / n_deals, (lo, hi), odds[key])
