"""The numba Gin kernel (sim/variants/gin.py) against the slow pure-Python reference
(tests/support/gin_reference.py): every column of the outcome row, on random deals, for several
strategy pairs and rule sets, and on the hand-built decks of tests/sim/variants/test_gin.py."""

from __future__ import annotations

from collections import Counter
from functools import cache

from tests.support import gin_reference as ref
import numpy as np
import pytest
from tests.sim.variants.test_gin import deck_for

from sim.core.cards import cards_text, standard_pack
from sim.strategies import parse_strategies, strategy_matrix
from sim.core.trace import NO_TRACE
from sim.variants import gin

COLS = gin.VARIANT.columns(2)
T = gin.TABLES

STRATEGIES = [
    "simple",
    "gin-hunter,simple",
    "threshold(knock=5,knock_late=2,late_from=6),threshold(upcard=1,upcard_gain=4)",
    "simple,threshold(layoff=0)",
]
RULES = [
    {},
    {"discard_stock_draw": True},
    {"first_upcard_offer": False},
    {"oklahoma": True},
    {"big_gin": True},
    {"knock_limit": 7, "gin_bonus": 30, "undercut_bonus": 10},
]
DEALS = 50  # per configuration
# (strategies, rules, deals): every strategy pair with every rule set, plus a few pairs that
# reach the other parameters (discard weights, stock buckets, gin_after, arrange=1) and
# configurations rich in voids and big gins
CONFIGS = [(s, r, DEALS) for s in STRATEGIES for r in RULES] + [
    ("tracker,patient", {"void_stock_left": 5}, DEALS),
    (("threshold(knock=5,gin_after=6,bucket_by=1,mid_from=15,late_from=8,knock_mid=3,knock_late=1,arrange=1),"
      "threshold(upcard=1,upcard_gain=0,near_weight=1,opp_weight=4,arrange=1)"), {"discard_stock_draw": True}, DEALS),
    ("gin-hunter", {"big_gin": True, "knock_limit": 0, "first_upcard_offer": False}, DEALS),
    # OpenSpiel's rules and bot (scripts/crosscheck_openspiel.py); the seed's layoffs; the wall
    ("openspiel-simple", {"undercut_on_tie": False, "discard_stock_draw": True, "openspiel_wall": True}, DEALS),
    ("simple,gin-hunter", {"layoff_mode": "seed", "undercut_on_tie": False}, DEALS),
    ("gin-hunter,openspiel-simple", {"openspiel_wall": True, "layoff_mode": "seed"}, DEALS),
]
SEED = 20040


def _config_id(cfg):
    specs, rules, _ = cfg
    opts = ",".join(f"{k}={v}" for k, v in rules.items()) or "defaults"
    return f"{specs}|{opts}"


def kernel_row(deck, dealer, rules, specs):
    r = gin.GinRules.from_options(rules).to_array()
    s = strategy_matrix(parse_strategies(specs, "gin", 2))
    row = np.zeros(len(COLS), dtype=np.int64)
    states = np.zeros((2, 1), dtype=np.uint64)  # strategy generators (unused: random_ties=0)
    gin.play_hand(r, s, np.asarray(deck, dtype=np.int64), dealer, T.run_value, T.run_cover,
                  T.run_starts, T.suit_total, T.rank_value, states, row, True, NO_TRACE)
    return {name: int(row[i]) for i, name in enumerate(COLS)}


def ref_row(deck, dealer, rules, specs):
    strategies = [s.values for s in parse_strategies(specs, "gin", 2)]
    return ref.play_hand_ref(deck, dealer, rules, strategies)


@cache
def _compare(index):
    """(mismatch reports, outcome counts) of configuration ``index`` (cached: the coverage
    test reuses the results of the comparison tests)."""
    specs, rules, n = CONFIGS[index]
    gen = np.random.default_rng([SEED, index])
    pack = standard_pack()
    bad, outcomes = [], Counter()
    for i in range(n):
        deck = gen.permutation(pack)
        dealer = i % 2
        k = kernel_row(deck, dealer, rules, specs)
        r = ref_row(deck, dealer, rules, specs)
        outcomes[gin.OUTCOMES[k["outcome"]]] += 1
        if k != r:
            diff = {c: (k[c], r[c]) for c in COLS if k[c] != r[c]}
            bad.append(f"deal {i} dealer={dealer} deck=[{cards_text(deck)}]\n"
                       f"  kernel {k}\n  ref    {r}\n  differing (kernel, ref): {diff}")
    return bad, outcomes


def test_configurations_cover_the_required_grid():
    assert tuple(COLS) == ref.COLUMNS
    assert sum(n for _, _, n in CONFIGS) >= 600


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[_config_id(c) for c in CONFIGS])
def test_kernel_matches_reference_on_random_deals(index):
    bad, _ = _compare(index)
    assert not bad, f"{len(bad)} of {CONFIGS[index][2]} deals differ ({_config_id(CONFIGS[index])}):\n" + \
        "\n".join(bad[:3])


@pytest.mark.slow
def test_comparison_reaches_every_outcome():
    total = Counter()
    for i in range(len(CONFIGS)):
        total.update(_compare(i)[1])
    assert set(total) == set(gin.OUTCOMES), total


# the hand-built decks of tests/sim/variants/test_gin.py (expected values asserted there against the kernel)
HAND_BUILT = [
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "KH", "TD"), "simple", {}),
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D QC", "7C 8C 9C TH JH QH KS KD KC 3D", "5C", "3C"), "simple",
     {"undercut_bonus": 10}),
    (deck_for("5S 6S 7S 4H 5H 6H 7D 8D 9D QC", "8S 9S TC TD TH KH KD KC AD 2D", "3C", "2C"), "simple", {}),
    (deck_for("5S 6S 7S 4H 5H 6H 7D 8D 9D QC", "8S 9S TC TD TH KH KD KC AD 2D", "3C", "2C"),
     "simple,threshold(layoff=0)", {}),
    (deck_for("8H 8D 8C 4H 5H 6H JD QD KD QC", "8S KS KH KC 2C 3C 5C 7C 9C TH", "AH", "AC"), "simple", {}),
    (deck_for("2H 4H 6H 8H TH 2D 4D 6D 8D TD", "TS JS QS 5C 5D 5S 7C 8C 9C AH", "KS"), "simple", {}),
    (deck_for("2H 4H 6H 8H TH 2D 4D 6D 8D TD", "TS JS QS 5C 5D 5S 7C 8C 9C AH", "KS"), "simple",
     {"first_upcard_offer": False}),
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D KC QC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "9D"), "simple", {}),
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "KH", "KD"), "simple", {}),
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "KH", "KD"), "simple",
     {"discard_stock_draw": True, "knock_limit": 9}),
    (deck_for("AS 2S 4H 5H 6H 7H 8C 9C TC JC", "2C 4C 6C QC KC 2D 4D 6D QS JD", "3S"), "simple", {"big_gin": True}),
    (deck_for("AS 2S 4H 5H 6H 7H 8C 9C TC JC", "2C 4C 6C QC KC 2D 4D 6D QS JD", "3S"), "simple", {}),
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D QC", "7C 8C 9C TH JH QH KS KD KC 3D", "5C", "3C"), "simple",
     {"undercut_on_tie": False}),
    (deck_for("5S 6S 7S 4H 5H 6H 7D 8D 9D QC", "8S AH 2H 7H 8H AD QD 6C 7C 8C", "3C", "2C"), "simple",
     {"layoff_mode": "seed"}),
    (deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "QH", "2H"), "openspiel-simple", {}),
]


@pytest.mark.parametrize("deck,specs,rules", HAND_BUILT)
def test_kernel_matches_reference_on_hand_built_decks(deck, specs, rules):
    # test_gin.deck_for deals with the dealer in seat 1
    assert kernel_row(deck, 1, rules, specs) == ref_row(deck, 1, rules, specs)
