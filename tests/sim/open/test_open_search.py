"""The open-melding engine's search player (sim.open.open_search): hands with a searching seat
(cards conserved, reproducible, really deciding, off when search_worlds=0), its worlds and its
candidates, and where the ``search`` preset exists."""

import numpy as np
import pytest

from sim.core.cards import standard_pack, value_table
from sim.core.columns import hand_columns
from sim.open import open_rummy as R
from sim.open import open_search as OS
from sim.strategies import FAMILIES, parse_strategies, parse_strategy, strategy_matrix
from sim.strategies import open_play as S
from sim.variants import available, get_variant

GAMES = ("basic-rummy", "block-rummy", "wrotham", "ramino-drift", "loba")
SEARCH = "strong(search_worlds=8)"      # a small budget: the search path at a test's cost


def _rows(variant: str, strategies: list[str], hands: int = 6, seed: int = 5) -> np.ndarray:
    v = get_variant(variant)
    out = np.zeros((hands, len(hand_columns(4, v.extra_columns))), dtype=np.int64)
    sm = strategy_matrix(parse_strategies(strategies, variant, 4))
    v.play_chunk(v.rules_cls().to_array(), sm, seed, 0, out, debug=True)   # debug: cards checked every turn
    return out


@pytest.mark.parametrize("variant", ["basic-rummy", pytest.param("loba", marks=pytest.mark.slow)])
def test_search_hands_conserve_cards_and_reproduce(variant):
    seats = [SEARCH, "strong", SEARCH, "strong"]
    a = _rows(variant, seats)
    assert np.array_equal(a, _rows(variant, seats))


@pytest.mark.parametrize("variant", GAMES)
def test_search_off_plays_as_strong_and_search_changes_play(variant):
    strong = _rows(variant, ["strong"] * 4, hands=12)
    off = _rows(variant, ["strong(search_top=5,search_z=0,search_drop=1)"] + ["strong"] * 3, hands=12)
    assert np.array_equal(strong, off)
    searched = _rows(variant, ["strong(search_worlds=8,search_z=0)"] + ["strong"] * 3, hands=12)
    assert not np.array_equal(strong, searched)


def test_search_preset_only_where_a_game_plays_it():
    for g in GAMES:
        assert parse_strategy("search", g).values["search_worlds"] > 0
    # every game searches now; the refusal elsewhere is tested with a patched family in
    # tests/sim/variants/test_knock_rummy_search.py
    assert all(any(g in f.search_variants for f in FAMILIES.values()) for g in available())


def _position(seed=3, m=4, size=10):
    deck = standard_pack(2, 4)
    np.random.default_rng(seed).shuffle(deck)
    hands = np.zeros((m, 64), dtype=np.int64)
    for k in range(m * size):
        hands[k % m, deck[k]] += 1
    state = np.zeros(R.S_WIDTH, dtype=np.int64)
    state[R.S_SP] = m * size + 5        # 5 cards gone to the pile and the table: not dealt again
    known = np.zeros((m, 64), dtype=np.int64)
    known[2, deck[2]] = 1               # a card seat 2 took from the pile and still holds
    return hands, deck, state, known


def test_a_world_keeps_what_the_seat_knows_and_conserves_the_cards():
    hands, deck, state, known = _position()
    sp = state[R.S_SP]
    hidden = hands[1:].sum(axis=0) + np.bincount(deck[sp:], minlength=64)
    seen = set()
    for w in range(12):
        hw = np.empty_like(hands)
        dw = np.empty_like(deck)
        OS.world(0, hands, deck, state, known, np.uint64(77), w, np.empty(deck.shape[0], dtype=np.int64), hw, dw)
        assert np.array_equal(hw[0], hands[0])                          # its own hand
        assert np.array_equal(dw[:sp], deck[:sp])                        # what is not in play
        assert list(hw.sum(axis=1)) == list(hands.sum(axis=1))          # the hand sizes
        assert hw[2, deck[2]] >= 1                                       # the known card stays
        assert np.array_equal(hw[1:].sum(axis=0) + np.bincount(dw[sp:], minlength=64), hidden)
        seen.add(tuple(dw[sp:]))
    assert len(seen) == 12                                               # the worlds differ


def test_candidates_start_with_the_heuristic_and_are_legal():
    hands, deck, state, known = _position(seed=4)
    vals = value_table()
    row = parse_strategy("strong(search_top=4)", "basic-rummy").row
    allowed = hands[0].copy()
    heur = S.choose_discard(row, hands[0], allowed, vals, 0, R.NOT_LOOKED)
    cands = np.empty(OS.MAX_CAND, dtype=np.int64)
    n = OS.candidates(row, hands[0], allowed, vals, 0, R.NOT_LOOKED, heur, cands)
    assert n == min(4, int((allowed > 0).sum()))
    assert cands[0] == heur and len(set(cands[:n])) == n and all(allowed[c] > 0 for c in cands[:n])
