"""Checks of the slow reference in tests/support/naive.py itself, on hand-computed cases.

(The fast kernels are compared against naive.py in test_melds.py; here we make sure the
reference is right.)
"""

from __future__ import annotations

import itertools
import random

from tests.support import naive
from tests.support.deadwood_cases import DEADWOOD_CASES
import pytest

from sim.core.cards import CardError, parse_cards, rank_of, suit_of, value_table


def C(text: str) -> frozenset[int]:
    return frozenset(int(c) for c in parse_cards(text))


def M(*melds: str) -> set[frozenset[int]]:
    return {C(m) for m in melds}


# ---------------------------------------------------------------- all_melds / is_meld
def test_all_melds_small_cases():
    assert set(naive.all_melds("AS 2S 3S 4S")) == M("AS 2S 3S", "2S 3S 4S", "AS 2S 3S 4S")
    assert set(naive.all_melds("7S 7H 7D 7C")) == M(
        "7S 7H 7D", "7S 7H 7C", "7S 7D 7C", "7H 7D 7C", "7S 7H 7D 7C"
    )
    assert naive.all_melds("AS 2S 4S 5S 7H 7D KC") == []
    assert naive.all_melds("") == []
    # one suit in full: runs of every length 3..13 at every start
    spades = " ".join(r + "S" for r in "A23456789TJQK")
    assert len(naive.all_melds(spades)) == sum(13 - n + 1 for n in range(3, 14))


def test_all_melds_ace_high():
    assert naive.all_melds("QS KS AS") == []
    assert set(naive.all_melds("QS KS AS", ace_high=True)) == M("QS KS AS")
    assert naive.all_melds("KS AS 2S", ace_high=True) == []  # never round the corner
    assert set(naive.all_melds("JH QH KH AH 2H 3H", ace_high=True)) == M(
        "JH QH KH", "QH KH AH", "JH QH KH AH", "AH 2H 3H"
    )


def test_is_meld():
    assert naive.is_meld(C("5S 6S 7S"))
    assert naive.is_meld(C("5S 5H 5D 5C"))
    assert not naive.is_meld(C("5S 6S 7H"))  # mixed suits
    assert not naive.is_meld(C("5S 6S 8S"))  # gap
    assert not naive.is_meld(C("5S 5H"))  # too short
    assert not naive.is_meld(C("5S 5H 6H"))
    assert not naive.is_meld(C("QS KS AS"))
    assert naive.is_meld(C("QS KS AS"), ace_high=True)
    assert not naive.is_meld(C("KS AS 2S"), ace_high=True)


def _independent_is_meld(cards, ace_high=False):
    """A second, rank-arithmetic definition of a meld, to check all_melds against."""
    cards = sorted(cards)
    if len(cards) < 3:
        return False
    ranks = [rank_of(c) for c in cards]
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len({suit_of(c) for c in cards}) != 1:
        return False
    for high_ace in (False, True) if ace_high else (False,):
        rs = sorted(13 if (r == 0 and high_ace) else r for r in ranks)
        if rs == list(range(rs[0], rs[0] + len(rs))):
            return True
    return False


def test_all_melds_equals_every_meld_subset():
    rng = random.Random(7)
    pool = [c for c in naive.ALL_CARDS if rank_of(c) in (0, 1, 2, 3, 10, 11, 12)]
    for _ in range(300):
        hand = rng.sample(pool, rng.randint(0, 8))
        for ace_high in (False, True):
            expected = {
                frozenset(s)
                for k in range(3, len(hand) + 1)
                for s in itertools.combinations(hand, k)
                if _independent_is_meld(s, ace_high)
            }
            assert set(naive.all_melds(hand, ace_high)) == expected


# ---------------------------------------------------------------- min_deadwood
@pytest.mark.parametrize("hand, expected", DEADWOOD_CASES)
def test_min_deadwood_hand_cases(hand, expected):
    dw, melds = naive.min_deadwood(hand)
    assert dw == expected
    used = [c for m in melds for c in m]
    assert len(used) == len(set(used))
    assert set(used) <= C(hand)
    assert all(naive.is_meld(m) for m in melds)
    assert sum(naive.DEFAULT_VALUES[c] for c in C(hand) - set(used)) == dw


def test_min_deadwood_ace_high_and_values():
    assert naive.min_deadwood("QS KS AS", ace_high=True)[0] == 0
    assert naive.min_deadwood("KS AS 2S", ace_high=True)[0] == 13
    v = value_table(ace=11)
    assert naive.min_deadwood("AS KD", values=v)[0] == 21
    assert naive.min_deadwood("AS 2S 3S KD", values=v)[0] == 10


def test_min_deadwood_rejects_bad_input():
    with pytest.raises(CardError):
        naive.min_deadwood("AS AS 2S")
    with pytest.raises(CardError):
        naive.min_deadwood("ZZ")


def _exhaustive_deadwood(hand, ace_high=False):
    """Even dumber: every collection of pairwise disjoint melds."""
    hand = frozenset(hand)
    melds = naive.all_melds(hand, ace_high)
    v = naive.DEFAULT_VALUES
    best = sum(v[c] for c in hand)

    def rec(i, used, dw):
        nonlocal best
        best = min(best, dw)
        for j in range(i, len(melds)):
            if not (melds[j] & used):
                rec(j + 1, used | melds[j], dw - sum(v[c] for c in melds[j]))

    rec(0, frozenset(), best)
    return best


def test_min_deadwood_and_deadwood_value_vs_exhaustive():
    rng = random.Random(3)
    pool = [c for c in naive.ALL_CARDS if rank_of(c) in (0, 1, 2, 3, 4, 11, 12) and suit_of(c) < 3]
    for i in range(400):
        n = rng.randint(0, 11)
        hand = rng.sample(pool if i % 2 else list(naive.ALL_CARDS), n)
        for ace_high in (False, True):
            ref = _exhaustive_deadwood(hand, ace_high)
            assert naive.min_deadwood(hand, ace_high=ace_high)[0] == ref
            assert naive.deadwood_value(hand, ace_high=ace_high) == ref
            assert naive.deadwood_value(naive.mask_of(hand), ace_high=ace_high) == ref


def test_deadwood_value_custom_values():
    v = value_table(ace=15, face=10)
    rng = random.Random(4)
    for _ in range(200):
        hand = rng.sample(naive.ALL_CARDS, 10)
        assert naive.deadwood_value(hand, values=v) == naive.min_deadwood(hand, values=v)[0]


# ---------------------------------------------------------------- best_discard
def test_best_discard_cases():
    # all 11 melded: either end of the 4-run or any of the four kings keeps gin
    assert naive.best_discard("AS 2S 3S 4S 5H 6H 7H KS KH KD KC") == (0, sorted(C("AS 4S KS KH KD KC")))
    # two 11-card optima (run 6-7-8S: dead 7H 7D; set 7S 7H 7D: dead 6S 8S), both 14;
    # only discarding 8S reaches 6
    assert naive.best_discard("6S 7S 8S 7H 7D AC 2C 3C QH QD QC") == (6, sorted(C("8S")))
    # the unique 11-card optimum (8-8-8, 6-7-8-9C; dead 5S 7S 6H 7H = 25) minus its highest
    # dead card gives 18, but throwing the melded 9C gives 7-7-7 + 8-8-8-8, dead 5S 6H 6C = 17
    assert naive.best_discard("5S 7S 8S 6H 7H 8H 8D 6C 7C 8C 9C") == (17, sorted(C("9C")))
    assert naive.best_discard("KS") == (0, sorted(C("KS")))
    assert naive.best_discard("KS QH") == (10, sorted(C("KS QH")))


# ---------------------------------------------------------------- layoff
def test_layoff_cases():
    run567 = ["5S 6S 7S"]
    assert naive.layoff("8S 9S 2H 3D", run567) == (5, C("8S 9S"))  # chained
    assert naive.layoff("3S 4S 8S 9S KC", run567) == (10, C("3S 4S 8S 9S"))  # both ends
    assert naive.layoff("9C 2H", ["9S 9H 9D"]) == (2, C("9C"))  # 4th card on a set
    assert naive.layoff("KS", ["QS QH QD QC"]) == (10, frozenset())  # set already full
    assert naive.layoff("8S 8H 8D 2C", run567) == (2, frozenset())  # keep 8S in own set
    assert naive.layoff("8S 8H 8D 8C 9S", run567) == (0, C("8S 9S"))  # break own 4-set
    assert naive.layoff("AS", ["2S 3S 4S"]) == (0, C("AS"))
    assert naive.layoff("AS", ["JS QS KS"]) == (1, frozenset())  # ace low
    assert naive.layoff("AS", ["JS QS KS"], ace_high=True) == (0, C("AS"))
    # 8S fits the set and the run; only on the run does it let 9S follow
    assert naive.layoff("8S 9S", ["8H 8D 8C", "5S 6S 7S"]) == (0, C("8S 9S"))
    assert naive.layoff("", run567) == (0, frozenset())
    assert naive.layoff("KH QD", []) == (20, frozenset())
    assert naive.layoff_deadwood("8S 9S 2H 3D", run567) == 5


def test_layoff_assignment():
    assert naive.layoff_assignment(C("8S 9S"), [C("8H 8D 8C"), C("5S 6S 7S")]) == (
        C("8H 8D 8C"),
        C("5S 6S 7S 8S 9S"),
    )
    assert naive.layoff_assignment(C("9S"), [C("5S 6S 7S")]) is None


def test_layoff_rejects_bad_knocker_meld():
    with pytest.raises(ValueError):
        naive.layoff("2H", ["5S 6S 8S"])
    with pytest.raises(ValueError):
        naive.layoff("5S 2H", ["5S 6S 7S"])
