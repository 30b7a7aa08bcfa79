"""Knock Rummy's search player (sim.variants.knock_rummy_search): hands with a searching seat at
2-5 players (cards conserved, reproducible, really deciding, off when search_worlds=0), the
worlds it samples (what the seat knows kept, cards conserved) and where it may be asked for."""

import dataclasses

import numpy as np
import pytest

from sim import strategies as S
from sim.core.bits import bit, popcount
from sim.core.trace import no_trace
from sim.strategies import StrategyError, parse_strategies, parse_strategy, strategy_matrix
from sim.variants import knock_rummy as KR
from sim.variants import knock_rummy_search as KRS
from sim.strategies import knock as K
from sim.variants.gin import TABLES as GIN_TABLES

# small budgets: every decision searched (draw, discard, knock) at a test's cost
SEARCH = "search(search_worlds=8,search_what=7,search_opp_knock=-1)"
T = KR.GAME_CTX[1:]


def _rows(strategies: str, n: int = 2, hands: int = 40, seed: int = 5, rules=None) -> np.ndarray:
    r = KR.KnockRummyRules.from_options({"players": n, **(rules or {})}).to_array()
    s = strategy_matrix(parse_strategies(strategies, "knock-rummy", n))
    out = np.zeros((hands, len(KR.VARIANT.columns(n))), dtype=np.int64)
    KR.play_chunk(r, s, seed, 0, out, debug=True)      # debug: cards checked after every discard
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_search_hands_conserve_cards_and_reproduce(n):
    field = ",".join(["strong"] * (n - 1))
    a = _rows(f"{SEARCH},{field}", n)
    assert np.array_equal(a, _rows(f"{SEARCH},{field}", n))
    assert set(a[:, KR.VARIANT.columns(n).index("outcome")]) <= set(range(len(KR.OUTCOMES)))
    b = _rows(f"strong,{SEARCH}," + ",".join(["strong"] * (n - 2)) if n > 2 else f"strong,{SEARCH}", n,
              rules={"settle": "pairwise", "stock_out": "showdown"})
    score = [KR.VARIANT.columns(n).index(f"score{s}") for s in range(n)]
    assert np.all(b[:, score].sum(axis=1) == 0)                 # pairwise: zero-sum, searched or not


def test_search_off_changes_nothing_and_on_it_decides():
    """With search_worlds=0 the search parameters change nothing; searching changes play in
    some hands (a search that never leaves its heuristic would be a no-op)."""
    heur = _rows("strong,strong", hands=200)
    off = _rows("strong(search_top=5,search_z=0,search_what=7,search_opp_knock=-1),strong", hands=200)
    assert np.array_equal(heur, off)
    searched = _rows("search(search_worlds=16,search_z=0,search_what=7,search_opp_knock=-1),strong", hands=200)
    assert not np.array_equal(heur, searched)
    assert np.array_equal(heur[:, 0], searched[:, 0])          # the same deals and dealers


def test_search_preset_and_where_search_is_refused(monkeypatch):
    s = parse_strategy("search", "knock-rummy")
    assert s.values["search_worlds"] > 0
    assert {k: v for k, v in s.values.items() if not k.startswith("search_")} == \
        {k: v for k, v in parse_strategy("strong", "knock-rummy").values.items() if not k.startswith("search_")}
    # a family that does not search a game refuses search_worlds > 0 there
    fam, vals = S.PRESETS[("knock-rummy", "strong")]
    monkeypatch.setitem(S.PRESETS, ("knock-rummy", "strong"),
                        (dataclasses.replace(fam, search_variants=("gin",)), vals))
    with pytest.raises(StrategyError, match="no search player"):
        parse_strategy("strong(search_worlds=8)", "knock-rummy")


def _position(n, turns, seed=11):
    """A position after ``turns`` heuristic turns (``strong``, n seats) with the seat to move
    about to decide; pile takes are forced on some turns so that the opponents hold known cards."""
    rules = KR.KnockRummyRules.from_options({"players": n}).to_array()
    strat = strategy_matrix(parse_strategies("rummy-hunter", "knock-rummy", n))
    deck = np.random.default_rng(seed).permutation(52).astype(np.int64)
    deck = np.array([(c // 13) * 16 + c % 13 for c in deck], dtype=np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    picked = np.zeros(n, dtype=np.uint64)
    pile = np.empty(52, dtype=np.int64)
    state = np.zeros(KR.S_WIDTH, dtype=np.int64)
    KR.deal(deck, 0, hands, pile, picked, state)
    dw = np.array([KR.deadwood(h, *T) for h in hands], dtype=np.int64)
    st = np.zeros((n, 1), dtype=np.uint64)
    row = np.zeros(len(KR.VARIANT.columns(n)), dtype=np.int64)
    p = state[KR.S_TO_MOVE]
    for t in range(turns):
        ended = KR.turn_drawing(rules, strat, p, t % 3 != 1, hands, dw, deck, pile, picked, state, *T, st, row, True,
                                no_trace())
        assert not ended
        p = (p + 1) % n
        state[KR.S_TO_MOVE] = p
    return rules, strat, hands, deck, pile, picked, state, p


@pytest.mark.parametrize("belief", [0, 1])
@pytest.mark.parametrize("n", [2, 4])
def test_a_world_keeps_what_the_seat_knows_and_conserves_the_cards(n, belief):
    """Uniform and calibrated worlds (``search_belief`` 0 and 1) alike."""
    rules, strat, hands, deck, pile, picked, state, p = _position(n, 3 * n)
    card, _ = KR.draw(p, False, deck, pile, picked, state, no_trace())    # p draws from the stock
    extra = np.uint64(bit(card))
    sp, npile = state[KR.S_SP], state[KR.S_NPILE]
    pile_mask = np.uint64(0)
    for c in pile[:npile]:
        pile_mask |= bit(c)
    known = [picked[q] & hands[q] if q != p else 0 for q in range(n)]
    assert any(known)                                           # the position tests something
    buf, kn = np.empty(52, dtype=np.int64), np.empty(n, dtype=np.uint64)
    hands_w, deck_w = np.empty(n, dtype=np.uint64), np.zeros(52, dtype=np.int64)
    srow = np.zeros(len(K.PARAMS) + 1)
    srow[K.P_SEARCH_BELIEF] = belief
    hidden = set()
    for w in range(12):
        KRS.world(srow, p, extra, hands, pile, picked, state, np.uint64(7), w, buf, kn, hands_w, deck_w,
                  GIN_TABLES.run_value, GIN_TABLES.suit_total, GIN_TABLES.rank_value)
        assert hands_w[p] == hands[p]
        for q in range(n):
            assert popcount(hands_w[q]) == popcount(hands[q])
            assert hands_w[q] & known[q] == known[q]
        allc = [c for q in range(n) for c in range(64) if hands_w[q] >> np.uint64(c) & np.uint64(1)]
        allc += list(deck_w[sp:]) + list(pile[:npile]) + [card]
        assert len(allc) == 52 and len(set(allc)) == 52         # every card once, the stock's size kept
        assert not (set(deck_w[sp:]) & {c for c in range(64) if (extra | pile_mask) >> np.uint64(c) & np.uint64(1)})
        hidden.add(tuple(int(h) for h in hands_w))
    assert len(hidden) > 6                                      # the worlds differ


def test_play_from_state_searches_from_a_position():
    """The advisor's entry (play_from_state) decides by search where a seat searches."""
    n = 3
    rules, _, hands, deck, pile, picked, state, p = _position(n, 4)
    strat = strategy_matrix(parse_strategies(SEARCH, "knock-rummy", n))
    rows = []
    for _ in range(2):
        row = np.zeros(len(KR.VARIANT.columns(n)), dtype=np.int64)
        st = np.arange(1, n + 1, dtype=np.uint64).reshape(n, 1)
        KR.play_from_state(rules, strat, hands.copy(), deck.copy(), pile.copy(), picked.copy(), state.copy(), *T, st,
                           row, True, no_trace())
        rows.append(row)
    assert np.array_equal(rows[0], rows[1])
    assert rows[0][KR.VARIANT.columns(n).index("outcome")] >= 0


def test_value_is_the_measured_result():
    n = 3
    row = np.zeros(len(KR.VARIANT.columns(n)), dtype=np.int64)
    row[KR.COL_SCORE + 1] = 30
    seed = KR.KnockRummyRules.from_options({"players": n}).to_array()
    pair = KR.KnockRummyRules.from_options({"players": n, "settle": "pairwise"}).to_array()
    assert KRS.value(seed, row, 0, n) == -15.0                  # seed: mine minus the average other seat
    assert KRS.value(seed, row, 1, n) == 30.0
    assert KRS.value(pair, row, 1, n) == 30.0                   # pairwise: my score
