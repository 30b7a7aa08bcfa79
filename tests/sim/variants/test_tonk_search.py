"""Tonk's search player (sim.variants.tonk_search): hands with a searching seat (cards
conserved, reproducible, really deciding, off when search_worlds=0), its worlds and its
candidates."""

import numpy as np
import pytest

from sim.core.bits import popcount
from sim.core.cards import parse_cards
from sim.knock.table import FULL
from sim.strategies import parse_strategies, parse_strategy, strategy_matrix
from sim.variants import tonk as TK
from sim.variants import tonk_search as TS

# small budgets: both decision points at a test's cost
SEARCH = "search(search_worlds=8,search_what=3)"


def _rows(strategies: str, n: int = 2, hands: int = 40, seed: int = 5) -> np.ndarray:
    r = TK.TonkRules(players=n).to_array()
    s = strategy_matrix(parse_strategies(strategies, "tonk", n))
    out = np.zeros((hands, len(TK.VARIANT.columns(n))), dtype=np.int64)
    TK.play_chunk(r, s, seed, 0, out, debug=True)   # debug: cards and spreads checked every turn
    return out


def _score(rows, n):
    cols = TK.VARIANT.columns(n)
    return rows[:, cols.index("score0"):cols.index("score0") + n]


@pytest.mark.parametrize("n", [2, 3, 5])
def test_search_hands_conserve_cards_and_reproduce(n):
    spec = ",".join([SEARCH] + ["strong"] * (n - 1))
    a = _rows(spec, n)
    assert np.array_equal(a, _rows(spec, n))
    assert np.all(_score(a, n).sum(axis=1) == 0)
    late = ",".join(["strong"] * (n - 1) + [SEARCH])          # the searching seat elsewhere
    assert np.all(_score(_rows(late, n), n).sum(axis=1) == 0)


def test_search_really_decides_and_is_off_at_zero_worlds():
    heur = _rows("strong,strong", hands=60)
    assert not np.array_equal(heur, _rows("search(search_worlds=16,search_z=0),strong", hands=60))
    assert not np.array_equal(heur, _rows("search(search_worlds=16,search_z=0,search_what=2),strong", hands=60))
    off = _rows("strong(search_top=5,search_z=0,search_what=3),strong", hands=60)
    assert np.array_equal(heur, off)


def test_search_only_where_a_game_plays_it():
    assert parse_strategy("search", "tonk").values["search_worlds"] > 0
    assert parse_strategy("search", "tonk").values["max_count"] == parse_strategy("strong", "tonk").values["max_count"]



def _mask(text):
    m = 0
    for c in parse_cards(text):
        m |= 1 << int(c)
    return np.uint64(m)


def _full_position(hands, discard, spreads=()):
    """A position whose stock is the rest of the pack (in code order)."""
    used = {int(c) for t in list(hands) + [discard] + [c for _, c in spreads] for c in parse_cards(t)}
    stock = [c for c in range(64) if int(FULL) >> c & 1 and c not in used]
    return TK.make_position(hands, stock=stock, discard=discard, spreads=spreads)


def _position():
    """3 seats; seat 1 took 9H from the pile and still holds it, took 5C and discarded it."""
    pos = _full_position(["AS 2S 7D KC", "9H 4D 8C", "TS JD QD 3C 6H"], "5C 7H", [(2, "2H 3H 4H")])
    picked = np.zeros(3, dtype=np.uint64)
    TS.took(picked, 1, _mask("9H"))
    TS.took(picked, 1, _mask("5C"))
    return pos, picked


def test_a_world_keeps_what_the_seat_knows_and_conserves_the_cards():
    pos, picked = _position()
    hands, stock, ctr = pos["hands"], pos["stock"], pos["ctr"]
    unseen, known = TS.seen_by(0, hands, pos["discard"], pos["sp_cards"], ctr, picked)
    assert known.tolist() == [0, int(_mask("9H")), 0]             # 5C is in the pile: not held
    hands_w = np.empty(3, dtype=np.uint64)
    stock_w = stock.copy()
    buf = np.empty(TK.N_CARDS, dtype=np.int64)
    seen = set()
    for w in range(12):
        TS.world(0, hands, stock, pos["discard"], pos["sp_cards"], ctr, picked, np.uint64(7), w, buf, hands_w, stock_w)
        assert hands_w[0] == hands[0] and hands_w[1] & _mask("9H")
        assert [popcount(h) for h in hands_w] == [popcount(h) for h in hands]
        m = 0
        for h in hands_w:
            assert m & int(h) == 0
            m |= int(h)
        for c in list(stock_w[ctr[TK.C_STOCK]:]) + list(pos["discard"][:ctr[TK.C_PILE]]):
            assert m & (1 << int(c)) == 0
            m |= 1 << int(c)
        m |= int(pos["sp_cards"][0])
        assert m == int(FULL) and int(unseen) & int(hands_w[1] | hands_w[2]) == int(hands_w[1] | hands_w[2]) & ~int(_mask("9H"))
        seen.add((int(hands_w[1]), int(hands_w[2])))
    assert len(seen) > 6                                          # the worlds differ


def test_discard_candidates_follow_the_heuristic_and_never_the_taken_card():
    srow = strategy_matrix(parse_strategies("strong(search_top=4)", "tonk", 1))[0]
    hand, taken = _mask("KS QH 9D 9C 2S 3D"), _mask("9C")
    first = TK.T.choose_discard(srow, hand, taken, np.uint64(0))
    codes = np.empty(TS.MAX_CAND, dtype=np.int64)
    nc = TS.discard_candidates(srow, hand, taken, first, codes)
    got = [int(c) for c in codes[:nc]]
    assert nc == 4 and got[0] == first and len(set(got)) == 4
    assert all(int(hand) >> c & 1 for c in got) and int(parse_cards("9C")[0]) not in got


def _search_drop(hands, heur, seed=1):
    pos = _full_position(hands, "7C")
    strat = strategy_matrix(parse_strategies("search(search_worlds=256,search_what=2),strong", "tonk", 2))
    args = [pos[k] for k in ("hands", "stock", "discard", "sp_owner", "sp_kind", "sp_cards", "ctr")]
    st = np.array([seed, seed + 1], dtype=np.uint64)
    return TS.search_drop(TK.TonkRules(players=2).to_array(), strat, *args, 0, 0, st, np.zeros(2, dtype=np.uint64),
                          heur)


def test_the_drop_search_takes_a_sure_win_and_leaves_a_sure_loss():
    """Counting 9 with five cards the seat wins a drop but against a handful of hands (five
    cards count at least 9): search drops where the heuristic (strong: never before turn 98)
    draws.  Counting 49 a drop loses: search draws where a heuristic would drop."""
    assert _search_drop(["AS AH 2C 2D 3S", "KH QH JD TC 9S"], False)
    assert not _search_drop(["KH QH JD TC 9S", "AS AH 2C 2D 3S"], True)


def test_search_drop_at_the_kernel_interface_reads_the_picked_cards():
    pos, picked = _position()
    strat = strategy_matrix(parse_strategies("search(search_worlds=8,search_what=2),strong,strong", "tonk", 3))
    st = np.array([1, 2, 3], dtype=np.uint64)
    rules = TK.TonkRules(players=3).to_array()
    args = (pos["hands"], pos["stock"], pos["discard"], pos["sp_owner"], pos["sp_kind"], pos["sp_cards"], pos["ctr"])
    a = TS.search_drop(rules, strat, *[x.copy() for x in args], 0, 0, st.copy(), picked, False)
    b = TS.search_drop(rules, strat, *[x.copy() for x in args], 0, 0, st.copy(), picked, False)
    assert a == b                                                 # deterministic from the seat's stream


def test_a_searching_chunk_split_in_two_equals_the_whole():
    """Every hand of a searching run stands alone (its picked cards start empty): chunks, and so
    ``--jobs``, do not change the rows."""
    r = TK.TonkRules(players=2).to_array()
    s = strategy_matrix(parse_strategies(f"{SEARCH},strong", "tonk", 2))
    whole = np.zeros((30, len(TK.VARIANT.columns(2))), dtype=np.int64)
    TK.play_chunk(r, s, 9, 0, whole)
    parts = np.zeros_like(whole)
    TK.play_chunk(r, s, 9, 0, parts[:13])
    TK.play_chunk(r, s, 9, 13, parts[13:])
    assert np.array_equal(whole, parts)
