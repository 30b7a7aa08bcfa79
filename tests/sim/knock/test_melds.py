"""The fast meld kernels in sim/knock/melds.py against the slow reference in tests/support/naive.py.

(a) hand-picked cases with hand-computed answers, (b) hypothesis property tests,
(c) a bulk 100k-hand cross-check of ``min_deadwood_masks``, (d) ``best_discard`` on 5,000
11-card hands, (e) layoffs, (f) error cases.
"""

from __future__ import annotations

import time

from tests.support import naive
from tests.support.deadwood_cases import DEADWOOD_CASES
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.knock import layoffs, melds
from sim.core.cards import CardError, card_code, cards_text, parse_cards, value_table

VALUES = [int(v) for v in value_table()]
ALL_CARDS = list(naive.ALL_CARDS)

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def C(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def S(text: str) -> set[int]:
    return set(C(text))


def show(cards) -> str:
    return cards_text(sorted(int(c) for c in cards))


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def check_arrangement(hand, arr, ace_high: bool = False) -> None:
    """The fast Arrangement is internally consistent for ``hand``: its melds are legal,
    pairwise disjoint and inside the hand, the deadwood cards are exactly the rest, and the
    deadwood is their value."""
    hand = set(int(c) for c in hand)
    used: list[int] = []
    for m in arr.melds:
        assert naive.is_meld([int(c) for c in m], ace_high), f"illegal meld {show(m)} for {show(hand)}"
        used.extend(int(c) for c in m)
    assert len(used) == len(set(used)), f"melds overlap: {[show(m) for m in arr.melds]} for {show(hand)}"
    assert set(used) <= hand, f"meld cards not in hand {show(hand)}"
    dead = [int(c) for c in arr.deadwood_cards]
    assert len(dead) == len(set(dead))
    assert sorted(used + dead) == sorted(hand), f"melds + deadwood cards != hand {show(hand)}"
    assert arr.deadwood == sum(VALUES[c] for c in dead)


def check_min_deadwood(hand, ace_high: bool = False) -> None:
    arr = melds.min_deadwood(list(hand), ace_high=ace_high)
    expected = naive.min_deadwood(set(hand), ace_high=ace_high)[0]
    assert arr.deadwood == expected, f"{show(hand)} ace_high={ace_high}: fast {arr.deadwood} naive {expected}"
    check_arrangement(hand, arr, ace_high)


# =============================================================================================
# (a) hand-picked cases
# =============================================================================================
@pytest.mark.parametrize("hand, expected", DEADWOOD_CASES)
def test_min_deadwood_hand_cases(hand, expected):
    arr = melds.min_deadwood(hand)
    assert arr.deadwood == expected
    check_arrangement(C(hand), arr)
    assert naive.min_deadwood(hand)[0] == expected  # the reference agrees


def test_min_deadwood_ace_high_cases():
    assert melds.min_deadwood("QS KS AS", ace_high=True).deadwood == 0
    assert melds.min_deadwood("KS AS 2S", ace_high=True).deadwood == 13  # never round the corner
    arr = melds.min_deadwood("JH QH KH AH 2H 3H", ace_high=True)
    assert arr.deadwood == 0
    check_arrangement(C("JH QH KH AH 2H 3H"), arr, ace_high=True)


def test_min_deadwood_result_types_and_input_forms():
    text = "AS 2S 3S 4S 4H 4D 9C"
    arr = melds.min_deadwood(text)
    assert arr._fields == ("deadwood", "melds", "deadwood_cards")
    assert type(arr.deadwood) is int
    assert isinstance(arr.melds, tuple) and all(isinstance(m, tuple) for m in arr.melds)
    assert all(type(c) is int for m in arr.melds for c in m)
    assert isinstance(arr.deadwood_cards, tuple) and all(type(c) is int for c in arr.deadwood_cards)
    assert arr.deadwood == 9 and arr.deadwood_cards == (card_code(8, 3),)
    for form in (text.split(), C(text), tuple(C(text)), "as,2s,3s,4s,4h,4d,9c", list(reversed(C(text)))):
        assert melds.min_deadwood(form).deadwood == 9


def test_best_discard_hand_cases():
    # Every 11-card hand below is explained; in each, "arrange all 11 cards with minimum
    # deadwood, then throw the highest deadwood card" is wrong or incomplete, so
    # best_discard has to try every discard.
    #
    # 1. All 11 melded (4-run A-4S, run 5-6-7H, set of four kings).  There is no deadwood
    #    card to throw at all; six discards keep gin: either end of the 4-run, any king.
    d = melds.best_discard("AS 2S 3S 4S 5H 6H 7H KS KH KD KC")
    assert d._fields == ("deadwood", "discards")
    assert d == (0, tuple(sorted(C("AS 4S KS KH KD KC"))))
    assert type(d.deadwood) is int and all(type(c) is int for c in d.discards)
    # 2. The tie case.  6S 7S 8S 7H 7D + (A-2-3C, Q-Q-Q melded).  Two 11-card optima, both 14:
    #    run 6-7-8S with 7H 7D dead (throw a 7 -> 7), or set 7-7-7 with 6S 8S dead (throw
    #    8S -> 6).  A kernel that keeps whichever optimum it found first and drops its highest
    #    dead card answers 7 half the time; the truth is 6, reached only by throwing 8S.
    assert melds.best_discard("6S 7S 8S 7H 7D AC 2C 3C QH QD QC") == (6, tuple(C("8S")))
    # 3. Unique 11-card optimum is wrong.  5S 7S 8S 6H 7H 8H 8D 6C 7C 8C 9C: the best
    #    11-card arrangement is 8-8-8 (S H D) + 6-7-8-9C, dead 5S 7S 6H 7H = 25, so the
    #    greedy throws a 7 -> 18.  Throwing the *melded* 9C instead lets the hand re-form as
    #    7-7-7 (S H C) + 8-8-8-8, dead 5S 6H 6C = 17.
    assert melds.best_discard("5S 7S 8S 6H 7H 8H 8D 6C 7C 8C 9C") == (17, tuple(C("9C")))
    # small and 14-card hands
    assert melds.best_discard("KS") == (0, tuple(C("KS")))
    assert melds.best_discard("KS QH") == (10, tuple(sorted(C("KS QH"))))
    h14 = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 5H"
    assert melds.best_discard(h14) == (0, tuple(C("5H")))


def test_layoff_hand_cases():
    run567 = ["5S 6S 7S"]

    def lay(defender, knocker):
        res = layoffs.layoff(defender, knocker)
        assert res._fields == ("deadwood", "laid_off")
        return res.deadwood, set(int(c) for c in res.laid_off)

    # chained layoff: 8S goes on 5-6-7S, then 9S on the 8S
    assert lay("8S 9S 2H 3D", run567) == (5, S("8S 9S"))
    assert lay(C("8S 9S"), [C("5S 6S 7S")]) == (0, S("8S 9S"))
    # both ends, chained both ways
    assert lay("3S 4S 8S 9S KC", run567) == (10, S("3S 4S 8S 9S"))
    # the 4th card of a set
    assert lay("9C 2H", ["9S 9H 9D"]) == (2, S("9C"))
    assert lay("KS", ["QS QH QD QC"]) == (10, set())  # no fifth queen
    # 8S could go on 5-6-7S, but it is worth more in the defender's own set 8-8-8
    dw, laid = lay("8S 8H 8D 2C", run567)
    assert (dw, laid) == (2, set())
    # the defender breaks its own 4-set: 8H 8D 8C stay a set, 8S goes on the run so that 9S
    # can follow (arranging first and laying off only the deadwood 9S would leave 9)
    assert lay("8S 8H 8D 8C 9S", run567) == (0, S("8S 9S"))
    # ace is low in Gin: it extends 2-3-4 but not J-Q-K
    assert lay("AS", ["2S 3S 4S"]) == (0, S("AS"))
    assert lay("AS", ["JS QS KS"]) == (1, set())
    # 8S fits both the set 8-8-8 and the run 5-6-7S; only on the run does 9S follow it
    assert lay("8S 9S", ["8H 8D 8C", "5S 6S 7S"]) == (0, S("8S 9S"))
    assert lay("7S 8S KD", ["7H 7D 7C", "4S 5S 6S"]) == (10, S("7S 8S"))
    # knocker melds given as lists of text tokens / codes
    assert lay("8S 9S", [["5S", "6S", "7S"]]) == (0, S("8S 9S"))
    assert lay("", run567) == (0, set())
    assert lay("KH QD", []) == (20, set())


# =============================================================================================
# (f) errors
# =============================================================================================
def test_errors():
    assert issubclass(CardError, ValueError)
    with pytest.raises(CardError, match="AS"):
        melds.min_deadwood("AS AS 2S")
    with pytest.raises(CardError, match="ZZ"):
        melds.min_deadwood("ZZ")
    with pytest.raises(CardError, match="ZZ"):
        melds.min_deadwood(["AS", "ZZ"])
    with pytest.raises(CardError, match="ZZ"):
        melds.best_discard("AS 2S ZZ")
    with pytest.raises(CardError, match="AS"):
        melds.best_discard("AS AS 2S")


# =============================================================================================
# (b) property tests
# =============================================================================================
card_st = st.sampled_from(ALL_CARDS)
random_hand = st.lists(card_st, min_size=0, max_size=13, unique=True)


@st.composite
def meld_rich_hand(draw, max_size: int = 13, min_size: int = 0):
    """Several random melds (they may overlap, which makes conflicts), then random filler."""
    hand: set[int] = set()
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            rank = draw(st.integers(0, 12))
            suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
            meld = {card_code(rank, s) for s in suits}
        else:
            suit = draw(st.integers(0, 3))
            length = draw(st.integers(3, 6))
            start = draw(st.integers(0, 13 - length))
            meld = {card_code(r, suit) for r in range(start, start + length)}
        if len(hand | meld) <= max_size:
            hand |= meld
    target = draw(st.integers(max(len(hand), min_size), max_size))
    for c in draw(st.permutations(ALL_CARDS)):
        if len(hand) >= target:
            break
        hand.add(c)
    return sorted(hand)


@PROPERTY
@given(random_hand)
def test_property_random_hands(hand):
    check_min_deadwood(hand)


@PROPERTY
@given(meld_rich_hand())
def test_property_meld_rich_hands(hand):
    check_min_deadwood(hand)


@PROPERTY
@given(st.one_of(random_hand, meld_rich_hand()))
def test_property_ace_high(hand):
    check_min_deadwood(hand, ace_high=True)


@pytest.mark.slow
@PROPERTY
@given(st.lists(st.one_of(random_hand, meld_rich_hand()), min_size=1, max_size=20))
def test_property_masks(hands):
    masks = np.array([mask_of(h) for h in hands], dtype=np.uint64)
    out = melds.min_deadwood_masks(masks)
    assert out.dtype == np.int64 and out.shape == masks.shape
    expected = [naive.min_deadwood(set(h))[0] for h in hands]
    assert out.tolist() == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(card_st, min_size=1, max_size=14, unique=True), meld_rich_hand(14, 1)))
def test_property_best_discard_any_size(hand):
    fast = melds.best_discard(hand)
    dw, discards = naive.best_discard(set(hand))
    assert (fast.deadwood, list(fast.discards)) == (dw, discards), show(hand)


def test_min_deadwood_masks_edge_cases():
    out = melds.min_deadwood_masks(np.array([], dtype=np.uint64))
    assert out.shape == (0,) and out.dtype == np.int64
    full = mask_of(ALL_CARDS[:13])  # the 13 spades
    out = melds.min_deadwood_masks(np.array([0, full, mask_of(C("KS QH"))], dtype=np.uint64))
    assert out.tolist() == [0, 0, 20]


# =============================================================================================
# numpy generators for the bulk checks
# =============================================================================================
def np_random_hands(rng: np.random.Generator, n: int, size: int) -> list[list[int]]:
    cards = np.array(ALL_CARDS)
    order = np.argsort(rng.random((n, 52)), axis=1)[:, :size]
    return [sorted(int(c) for c in row) for row in cards[order]]


def np_random_meld(rng: np.random.Generator) -> frozenset[int]:
    """A random set of 3-4 cards or run of 3-5 cards."""
    if rng.random() < 0.5:
        rank = int(rng.integers(13))
        suits = rng.choice(4, size=int(rng.integers(3, 5)), replace=False)
        return frozenset(card_code(rank, int(s)) for s in suits)
    suit = int(rng.integers(4))
    length = int(rng.integers(3, 6))
    start = int(rng.integers(0, 14 - length))
    return frozenset(card_code(r, suit) for r in range(start, start + length))


def np_meld_rich_hand(rng: np.random.Generator, size: int) -> list[int]:
    """1-3 random melds (may overlap), then filler cards, half of them next to a card in hand
    (same rank, or same suit one rank away) to create competing melds."""
    hand: set[int] = set()
    for _ in range(int(rng.integers(1, 4))):
        meld = np_random_meld(rng)
        if len(hand | meld) <= size:
            hand |= meld
    while len(hand) < size:
        if hand and rng.random() < 0.5:
            base = sorted(hand)[int(rng.integers(len(hand)))]
            rank, suit = base & 15, base >> 4
            if rng.random() < 0.5:
                c = card_code(rank, int(rng.integers(4)))
            else:
                r = rank + (1 if rng.random() < 0.5 else -1)
                if not 0 <= r < 13:
                    continue
                c = card_code(r, suit)
        else:
            c = ALL_CARDS[int(rng.integers(52))]
        hand.add(c)
    return sorted(hand)


def np_hands(rng, n, size):
    half = n // 2
    return np_random_hands(rng, half, size) + [np_meld_rich_hand(rng, size) for _ in range(n - half)]


# =============================================================================================
# (c) bulk: 100,000 10-card hands through min_deadwood_masks
# =============================================================================================
@pytest.mark.slow
def test_bulk_min_deadwood_masks_100k():
    t0 = time.perf_counter()
    rng = np.random.default_rng(20240604)
    hands = np_hands(rng, 100_000, 10)
    masks = np.array([mask_of(h) for h in hands], dtype=np.uint64)
    fast = melds.min_deadwood_masks(masks)
    expected = np.array([naive.deadwood_value(int(m)) for m in masks], dtype=np.int64)
    bad = np.flatnonzero(fast != expected)
    msg = "; ".join(f"{show(hands[i])}: fast {fast[i]} naive {expected[i]}" for i in bad[:5])
    assert bad.size == 0, f"{bad.size} mismatches, e.g. {msg}"
    # sanity: the meld-rich half really is meld-rich, and gin hands do occur
    assert np.mean(expected[50_000:] <= 10) > 0.3 and np.any(expected == 0)
    assert time.perf_counter() - t0 < 90


# =============================================================================================
# (d) best_discard on 5,000 11-card hands
# =============================================================================================
@pytest.mark.slow
def test_bulk_best_discard_5000():
    rng = np.random.default_rng(11)
    for hand in np_hands(rng, 5_000, 11):
        fast = melds.best_discard(hand)
        dw, discards = naive.best_discard(set(hand))
        assert (fast.deadwood, list(fast.discards)) == (dw, discards), show(hand)


# =============================================================================================
# (e) layoff vs naive
# =============================================================================================
def check_layoff(defender, knocker_melds) -> None:
    fast = layoffs.layoff(list(defender), [list(m) for m in knocker_melds])
    dw, _ = naive.layoff(set(defender), knocker_melds)
    where = f"defender {show(defender)} knocker {[show(m) for m in knocker_melds]}"
    assert fast.deadwood == dw, f"{where}: fast {fast.deadwood} naive {dw}"
    laid = [int(c) for c in fast.laid_off]
    assert len(laid) == len(set(laid)) and set(laid) <= set(defender), where
    if laid:
        assert naive.layoff_assignment(laid, knocker_melds) is not None, f"{where}: cannot lay off {show(laid)}"
    # the deadwood reported is what the defender keeps after laying those cards off
    assert naive.min_deadwood(set(defender) - set(laid))[0] == fast.deadwood, where


def random_layoff_case(rng: np.random.Generator):
    if rng.random() < 0.5:
        # a realistic knocker: the melds of a min-deadwood arrangement of a meld-rich hand
        knocker = np_meld_rich_hand(rng, 10)
        table = [frozenset(m) for m in naive.min_deadwood(knocker)[1]]
        taken = set(knocker)
    else:
        table, taken = [], set()
        for _ in range(int(rng.integers(1, 4))):
            meld = np_random_meld(rng)
            if not meld & taken:
                table.append(meld)
                taken |= meld
    avail = [c for c in ALL_CARDS if c not in taken]
    near = [c for c in avail if any(naive._may_join(c, m) for m in table)]
    n = int(rng.integers(0, 11))
    k = min(len(near), int(rng.integers(0, n + 1)))
    defender = set(int(c) for c in rng.choice(near, size=k, replace=False)) if k else set()
    rest = [c for c in avail if c not in defender]
    defender |= set(int(c) for c in rng.choice(rest, size=n - len(defender), replace=False))
    return sorted(defender), [sorted(m) for m in table]


@pytest.mark.slow
def test_bulk_layoff_2000():
    rng = np.random.default_rng(5)
    for _ in range(2_000):
        defender, table = random_layoff_case(rng)
        check_layoff(defender, table)


def _spots(mask, recs, n):
    from sim.knock.layoffs import layoff_spots
    return int(layoff_spots(np.uint64(mask), recs, n))


def test_fewest_spots_arrangement_keeps_min_deadwood_and_never_more_spots():
    """rules/gin.md [choice]: among equal-deadwood arrangements, the knocker may show the one
    leaving the fewest layoff spots."""
    from sim.knock.layoffs import arrangement_fewest_spots
    from sim.knock.melds import MAX_MELDS, arrangement, meld_cards, meld_tables
    t = meld_tables()
    rng = np.random.default_rng(77)
    strictly_fewer = 0
    for _ in range(4000):
        ranks = rng.choice(13, size=4, replace=False)
        pool = [s * 16 + r for s in range(4) for r in ranks] + [s * 16 + int(r) for s in range(4)
                                                              for r in rng.choice(13, 3)]
        cards = sorted(set(int(c) for c in rng.choice(pool, size=11, replace=False)))[:10]
        mask = sum(1 << c for c in cards)
        a = np.zeros((MAX_MELDS, 4), dtype=np.int64)
        b = np.zeros((MAX_MELDS, 4), dtype=np.int64)
        dw_a, n_a, _ = arrangement(np.uint64(mask), t.run_value, t.run_cover, t.run_starts, t.suit_total, t.rank_value, a)
        dw_b, n_b, dead_b = arrangement_fewest_spots(np.uint64(mask), t.run_value, t.run_cover, t.run_starts,
                                                     t.suit_total, t.rank_value, b)
        assert dw_a == dw_b
        shown = [c for i in range(n_b) for c in meld_cards(b[i])]
        assert len(shown) == len(set(shown)) and set(shown) <= set(cards)
        assert all(naive.is_meld(meld_cards(b[i])) for i in range(n_b))
        assert sum(VALUES[c] for c in cards if c not in shown) == dw_b
        sa, sb = _spots(mask, a, n_a), _spots(mask, b, n_b)
        assert sb <= sa
        strictly_fewer += sb < sa
    assert strictly_fewer > 0  # the option changes something on meld-rich hands


def test_results_show_card_text_but_keep_card_codes():
    arr = melds.min_deadwood("3S 3H 3D 7H 8H 9H KD")
    assert repr(arr) == "Arrangement(deadwood=10, melds=[3S 3H 3D] [7H 8H 9H], deadwood_cards=KD)"
    assert arr.melds == (tuple(C("3S 3H 3D")), tuple(C("7H 8H 9H"))) and arr.deadwood_cards == tuple(C("KD"))
    assert repr(melds.min_deadwood("3S 3H 3D")) == "Arrangement(deadwood=0, melds=[3S 3H 3D], deadwood_cards=none)"
    disc = melds.best_discard("3S 3H 3D 7H 8H 9H KD QC")
    assert repr(disc) == "Discard(deadwood=10, discards=KD QC)" and disc.discards == tuple(sorted(C("KD QC")))
    lay = layoffs.layoff("4S KD", ["5S 6S 7S"])
    assert repr(lay) == "Layoff(deadwood=10, laid_off=4S)" and lay.laid_off == tuple(C("4S"))
    assert repr(layoffs.layoff("KD", ["5S 6S 7S"])) == "Layoff(deadwood=10, laid_off=none)"
