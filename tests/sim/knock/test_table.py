"""The open table on its own (sim.knock.table): spreads, hits, hit closure, the turn planner.

Every kernel is checked against plain Python written here or in tests/support/tonk_reference.py:
a spread is legal when ``ref.is_spread`` says so, a hit is a card whose addition keeps a
spread legal, and the best hits are found by trying every order of hits.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from tests.support import tonk_reference as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sim.knock import table as TB
from sim.knock import table_plan as TP
from sim.core.cards import card_code, parse_cards
from tests.support.card_strategies import tables

ALL = [card_code(r, s) for s in range(4) for r in range(13)]
SOME = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text):
    return [int(c) for c in parse_cards(text)]


def mask(codes):
    return np.uint64(sum(1 << int(c) for c in codes))


def codes_of(m):
    return [c for c in ALL if int(m) >> c & 1]


def table_arrays(spreads):
    """Table arrays (owner 0) of a list of spreads given as card-code lists."""
    sp_owner = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    for i, sp in enumerate(spreads):
        sp_kind[i] = TB.spread_kind(sp)
        sp_cards[i] = mask(sp)
    return sp_owner, sp_kind, sp_cards


def hit_masks(spreads):
    _, sp_kind, sp_cards = table_arrays(spreads)
    return tuple(np.uint64(x) for x in TB.table_hit_masks(sp_kind, sp_cards, len(spreads)))


def closure(hand, spreads, taken=0):
    run_hm, book_hm = hit_masks(spreads)
    return codes_of(TB.hit_closure(mask(hand), run_hm, book_hm, np.uint64(taken)))


# --- plain Python ---------------------------------------------------------------------------

def py_hittable(card, spreads):
    """Spreads (indexes) that ``card`` can be hit onto: the spread stays legal."""
    return [i for i, sp in enumerate(spreads) if ref.is_spread(list(sp) + [card])]


def py_most_hits(hand, spreads):
    """Largest set of hand cards that can be hit, trying every order of hits (a hit on a run
    end opens the next card)."""
    best = frozenset()
    stack = [(frozenset(), tuple(tuple(sorted(s)) for s in spreads))]
    seen = set()
    while stack:
        done, tab = stack.pop()
        if (done, tab) in seen:
            continue
        seen.add((done, tab))
        if len(done) > len(best):
            best = done
        for c in set(hand) - done:
            for i in py_hittable(c, tab):
                nt = tab[:i] + (tuple(sorted(tab[i] + (c,))),) + tab[i + 1:]
                stack.append((done | {c}, nt))
    return best


@hs.composite
def hand_and_table(draw, max_hand=6):
    """Cards from a few ranks and suits (rich in spreads and hits) and a table beside them."""
    suits = draw(hs.lists(hs.integers(0, 3), min_size=1, max_size=4, unique=True))
    lo = draw(hs.integers(0, 7))
    pool = [card_code(r, s) for s in suits for r in range(lo, min(lo + 6, 13))]
    hand = draw(hs.lists(hs.sampled_from(pool), min_size=2, max_size=max_hand, unique=True))
    return hand, draw(tables(avoid=frozenset(hand)))


# --- legality ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, kind, legal", [
    ("7S 7H 7D", TB.BOOK, True),
    ("7S 7H 7D 7C", TB.BOOK, True),
    ("7S 7H", TB.BOOK, False),
    ("7S 7H 8D", TB.BOOK, False),
    ("AS 2S 3S", TB.RUN, True),
    ("9H TH JH QH KH", TB.RUN, True),
    ("QS KS AS", TB.RUN, False),        # ace low only
    ("4S 5S 7S", TB.RUN, False),        # a gap
    ("4S 5S 6H", TB.RUN, False),        # two suits
    ("4S 5S", TB.RUN, False),
    ("7S 7H 7D", TB.RUN, False),
    ("4S 5S 6S", TB.BOOK, False),
])
def test_spread_legality_by_kind(text, kind, legal):
    assert bool(TB.is_legal_spread(kind, mask(cards(text)))) is legal
    if legal:
        assert TB.spread_kind(cards(text)) == kind == TB.spread_kind(int(mask(cards(text))))


@given(hand=hs.lists(hs.sampled_from(ALL), min_size=0, max_size=6, unique=True))
@SOME
def test_spread_legality_matches_reference(hand):
    m = mask(hand)
    assert bool(TB.is_legal_spread(TB.BOOK, m)) == ref.is_book(hand)
    assert bool(TB.is_legal_spread(TB.RUN, m)) == ref.is_run(hand)


@given(hand=hs.lists(hs.sampled_from(ALL), min_size=0, max_size=7, unique=True))
@SOME
def test_enum_melds_lists_every_spread_of_the_hand_once(hand):
    mm = np.zeros(TP.MAX_MELDS, dtype=np.uint64)
    mk = np.zeros(TP.MAX_MELDS, dtype=np.int64)
    n = TP.enum_melds(mask(hand), mm, mk)
    got = [(frozenset(codes_of(mm[i])), int(mk[i])) for i in range(n)]
    want = {frozenset(c) for k in range(3, len(hand) + 1) for c in combinations(hand, k) if ref.is_spread(c)}
    assert len(got) == len(set(got)) and {c for c, _ in got} == want
    for c, kind in got:
        assert kind == (TB.BOOK if ref.is_book(sorted(c)) else TB.RUN)


def test_claim_spreads_refuses_an_illegal_spread_and_a_card_seen_twice():
    _, sp_kind, sp_cards = table_arrays([cards("4S 5S 6S"), cards("9D 9H 9C")])
    seen, n = TB.claim_spreads(np.uint64(0), sp_kind, sp_cards, 2)
    assert n == 6 and codes_of(seen) == sorted(cards("4S 5S 6S 9D 9H 9C"))
    with pytest.raises(ValueError, match="also elsewhere"):
        TB.claim_spreads(mask(cards("5S")), sp_kind, sp_cards, 2)
    sp_cards[1] = mask(cards("9D 9H 8C"))
    with pytest.raises(ValueError, match="illegal spread"):
        TB.claim_spreads(np.uint64(0), sp_kind, sp_cards, 2)


# --- hit masks, hit closure, applying hits ------------------------------------------------------

@given(data=hs.data())
@SOME
def test_hit_masks_are_the_cards_that_keep_a_spread_legal(data):
    spreads = data.draw(tables())
    run_hm, book_hm = hit_masks(spreads)
    on_table = {c for sp in spreads for c in sp}   # never in a hand: the masks may hold them
    for c in set(ALL) - on_table:
        ok = py_hittable(c, spreads)
        assert bool(int(run_hm) >> c & 1) == any(ref.is_run(spreads[i]) for i in ok)
        assert bool(int(book_hm) >> c & 1) == any(ref.is_book(spreads[i]) for i in ok)


def test_hits_chain_along_a_run_from_both_ends():
    table = [cards("5H 6H 7H")]
    run_hm, book_hm = hit_masks(table)
    assert codes_of(run_hm) == sorted(cards("4H 8H")) and book_hm == 0
    hand = cards("3H 4H 8H 9H KS")
    assert closure(hand, table) == sorted(cards("3H 4H 8H 9H"))
    _, sp_kind, sp_cards = table_arrays(table)
    assert TB.apply_hits(mask(cards("3H 4H 8H 9H")), sp_kind, sp_cards, 1) == 0
    assert codes_of(sp_cards[0]) == sorted(cards("3H 4H 5H 6H 7H 8H 9H"))


def test_hit_closure_takes_two_steps_to_reach_a_card():
    table = [cards("5H 6H 7H"), cards("JS JD JC")]
    run_hm, book_hm = hit_masks(table)
    assert not int(run_hm | book_hm) >> cards("9H")[0] & 1   # 9H needs 8H first
    assert closure(cards("9H 8H 2C"), table) == sorted(cards("8H 9H"))
    assert closure(cards("9H 2C"), table) == []
    assert closure(cards("JH 9H 8H"), table) == sorted(cards("8H 9H JH"))   # JH: the book's
    # 8H fits the run end and the book 8S 8D 8C: it goes to the run, which opens 9H
    table = [cards("5H 6H 7H"), cards("8S 8D 8C")]
    assert closure(cards("8H 9H"), table) == sorted(cards("8H 9H"))
    _, sp_kind, sp_cards = table_arrays(table)
    assert TB.apply_hits(mask(cards("8H 9H")), sp_kind, sp_cards, 2) == 0
    assert codes_of(sp_cards[0]) == sorted(cards("5H 6H 7H 8H 9H"))
    assert codes_of(sp_cards[1]) == sorted(cards("8S 8D 8C"))


def test_hit_closure_never_leaves_only_the_card_taken_from_the_pile():
    table = [cards("5H 6H 7H")]
    ks = cards("KS")[0]
    assert closure(cards("8H 9H KS"), table) == sorted(cards("8H 9H"))
    # with KS taken from the pile, the last hit (9H, nothing depends on it) stays in hand
    assert closure(cards("8H 9H KS"), table, taken=1 << ks) == cards("8H")
    # a card that is not the taken one may stay: nothing is held back
    assert closure(cards("8H 9H KS QD"), table, taken=1 << ks) == sorted(cards("8H 9H"))


@given(data=hs.data())
@SOME
def test_hit_closure_hits_the_most_cards_and_they_all_fit(data):
    hand, spreads = data.draw(hand_and_table())
    got = closure(hand, spreads)
    assert set(got) <= set(hand) and len(got) == len(py_most_hits(hand, spreads))
    _, sp_kind, sp_cards = table_arrays(spreads)
    assert TB.apply_hits(mask(got), sp_kind, sp_cards, len(spreads)) == 0
    for i in range(len(spreads)):
        assert ref.is_spread(codes_of(sp_cards[i]))
    assert sum(len(codes_of(sp_cards[i])) for i in range(len(spreads))) == \
        sum(map(len, spreads)) + len(got)


# --- the turn planner ---------------------------------------------------------------------------

def plan(hand, spreads, taken=None, spread_ok=True, hit_ok=True, must=False, needs_new=False):
    run_hm, book_hm = hit_masks(spreads)
    mm = np.zeros(TP.MAX_MELDS, dtype=np.uint64)
    mk = np.zeros(TP.MAX_MELDS, dtype=np.int64)
    t = np.uint64(0 if taken is None else 1 << taken)
    score, a, b, hits = TP.plan_play(mask(hand), t, run_hm, book_hm, spread_ok, hit_ok, must,
                                     needs_new, mm, mk)
    new = [codes_of(mm[k]) for k in (a, b) if k >= 0]
    return int(score), new, codes_of(hits)


def test_planner_may_not_spread_down_to_the_card_taken_from_the_pile():
    kd = cards("KD")[0]
    # drawn from the stock: lay 5-6-7S and discard the king
    assert plan(cards("5S 6S 7S KD"), []) == (1000, [cards("5S 6S 7S")], [])
    # KD taken from the pile: laying the run would leave only KD, which cannot be discarded
    score, new, hits = plan(cards("5S 6S 7S KD"), [], taken=kd)
    assert (new, hits) == ([], []) and score == 2000 + 28 - 7
    # must_spread cannot be obeyed then: no plan, the spread stays in hand
    assert plan(cards("5S 6S 7S KD"), [], taken=kd, must=True) == (TP.NO_PLAN, [], [])


def test_planner_may_not_hit_down_to_the_card_taken_from_the_pile():
    kd = cards("KD")[0]
    table = [cards("5H 6H 7H")]
    assert plan(cards("8H 9H KD"), table) == (1000, [], sorted(cards("8H 9H")))
    assert plan(cards("8H 9H KD"), table, taken=kd) == (2000 + 19 - 9, [], cards("8H"))
    # spreading and hitting down to it is refused the same way
    score, new, hits = plan(cards("2C 3C 4C 8H KD"), table, taken=kd)
    assert new == [cards("2C 3C 4C")] and hits == [] and score == 2000 + 18 - 8


@given(data=hs.data())
@SOME
def test_planner_matches_brute_force_and_never_keeps_only_the_taken_card(data):
    hand, spreads = data.draw(hand_and_table())
    taken = data.draw(hs.sampled_from([None] + hand))
    flags = [data.draw(hs.booleans()) for _ in range(4)]
    score, new, hits = plan(hand, spreads, taken, *flags)
    expected = ref.best_play_score(hand, spreads, taken, *flags)
    assert (None if score == TP.NO_PLAN else score) == expected
    rest = set(hand) - {c for sp in new for c in sp} - set(hits)
    assert score == TP.NO_PLAN or rest != {taken}
    assert all(ref.is_spread(sp) for sp in new)


def test_lay_plan_puts_spreads_and_hits_on_the_table():
    sp_owner, sp_kind, sp_cards = table_arrays([cards("5H 6H 7H")])
    run_hm, book_hm = hit_masks([cards("5H 6H 7H")])
    hand = mask(cards("2C 3C 4C 8H 9H KD"))
    mm = np.zeros(TP.MAX_MELDS, dtype=np.uint64)
    mk = np.zeros(TP.MAX_MELDS, dtype=np.int64)
    _, a, b, hits = TP.plan_play(hand, np.uint64(0), run_hm, book_hm, True, True, False, False, mm, mk)
    left, n_sp, n_new = TB.lay_plan(hand, 2, a, b, hits, mm, mk, sp_owner, sp_kind, sp_cards, 1, True)
    assert codes_of(left) == cards("KD") and (n_sp, n_new) == (2, 1)
    assert sp_owner[1] == 2 and sp_kind[1] == TB.RUN and codes_of(sp_cards[1]) == sorted(cards("2C 3C 4C"))
    assert codes_of(sp_cards[0]) == sorted(cards("5H 6H 7H 8H 9H"))
    assert TB.can_lay(mask(cards("TH KD")), *hit_masks([codes_of(sp_cards[0])]))
    assert not TB.can_lay(mask(cards("JH KD")), *hit_masks([codes_of(sp_cards[0])]))
