"""The search player of the closed wild-card games (sim.wild.wild_decide): Ramino Klop, Wildcard
and Cincinnati hands with a searching seat (cards conserved, reproducible, really deciding, off
when search_worlds=0), its worlds (what the seat knows kept, cards conserved) and candidates."""

import numpy as np
import pytest

from sim.strategies import parse_strategy, parse_strategies, strategy_matrix
from sim.strategies import wild as W
from sim.variants import cincinnati, ramino_klop, wildcard
from sim.wild import closed_wild as CW
from sim.wild import wild_decide as WD
from sim.wild.wild_melds import ws_deadwood
from sim.core.trace import no_trace
from sim.wild import wild_turn as WT

GAMES = {"ramino-klop": ramino_klop, "wildcard": wildcard, "cincinnati": cincinnati}
SEARCH = "search(search_worlds=8,search_what=3)"     # small budget, every searched decision


def _rows(game: str, strategies: str, hands: int = 12, seed: int = 5) -> np.ndarray:
    v = GAMES[game].VARIANT
    r = v.rules_cls.from_options({}).to_array()
    s = strategy_matrix(parse_strategies(strategies, game, 4))
    out = np.zeros((hands, len(v.columns(4))), dtype=np.int64)
    v.play_chunk(r, s, seed, 0, out, debug=True)   # debug: cards checked after every turn
    return out


@pytest.mark.parametrize("game", GAMES)
def test_search_hands_conserve_cards_and_reproduce(game):
    a = _rows(game, f"{SEARCH},strong,strong,strong")
    assert np.array_equal(a, _rows(game, f"{SEARCH},strong,strong,strong"))
    v = GAMES[game].VARIANT
    outcome = a[:, v.columns(4).index("outcome")]
    assert set(outcome) <= set(range(len(v.outcomes)))


@pytest.mark.parametrize("game", GAMES)
def test_search_off_is_strong_and_search_decides(game):
    """search_worlds=0 with the other search parameters changed plays as strong; a search
    with z=0 (plain argmax) leaves the heuristic in some hands."""
    strong = _rows(game, "strong,strong,strong,strong", hands=16)
    off = _rows(game, "strong(search_top=5,search_z=0,search_what=3,search_drop=1),strong,strong,strong", hands=16)
    assert np.array_equal(strong, off)
    searched = _rows(game, "search(search_worlds=8,search_z=0,search_what=3),strong,strong,strong", hands=16)
    assert not np.array_equal(strong, searched)


def test_search_preset_in_the_three_games_only():
    for game in GAMES:
        s = parse_strategy("search", game)
        assert s.values["search_worlds"] > 0 and s.family is W.FAMILY
    assert set(W.FAMILY.search_variants) == set(GAMES)


def _position(game: str, seed: int = 3):
    """A dealt 4-seat hand after a few turns of strong play, and the engine's arrays."""
    v = GAMES[game].VARIANT
    r = v.rules_cls.from_options({}).to_array()
    cfg, tabs = (ramino_klop._setup(r) if game == "ramino-klop"
                 else CW.go_out_setup(v.rules_cls, game, int(CW.GAME_WILDCARD if game == "wildcard" else
                                                               CW.GAME_CINCINNATI), r, (-1, 0, 1, 2)))
    pack = tabs[0]
    deck = np.random.default_rng(seed).permutation(pack).astype(np.int64)
    seats = np.arange(4)
    wss = CW.new_hands(4, tabs)
    pile = np.empty(pack.shape[0], dtype=np.int64)
    state = np.zeros(CW.S_WIDTH, dtype=np.int64)
    CW.deal(cfg, deck, 0, wss, pile, state)
    for k in range(3):     # three more discards on the pile, taken from the stock
        pile[state[CW.S_NPILE]] = deck[state[CW.S_SP]]
        state[CW.S_NPILE] += 1
        state[CW.S_SP] += 1
    return cfg, tabs, seats, wss, deck, pile, state


@pytest.mark.parametrize("game", GAMES)
def test_a_world_keeps_what_the_seat_knows_and_conserves_cards(game):
    cfg, tabs, seats, wss, deck, pile, state = _position(game)
    pack = tabs[0]
    picked = np.zeros((4, 64), dtype=np.int64)
    j = 2
    known = int(np.flatnonzero(wss[j, :64])[0])     # seat 2 holds this card from the pile
    picked[j, known] = 1
    buf = np.empty(pack.shape[0], dtype=np.int64)
    hands, stocks = set(), set()
    for w in range(6):
        wss_w = np.empty_like(wss)
        deck_w = deck.copy()
        dw_w = np.zeros(4, dtype=np.int64)
        WD.world(1, seats, wss, deck, pile, state, picked, pack, np.uint64(77), w, buf, wss_w, deck_w, dw_w)
        assert np.array_equal(wss_w[1], wss[1])                                  # its own hand
        assert all(wss_w[s, :64].sum() == wss[s, :64].sum() for s in range(4))  # sizes kept
        assert wss_w[j, known] >= 1                                              # the known card stays
        assert all(dw_w[s] == ws_deadwood(wss_w[s].copy()) for s in (0, 2, 3))
        sp = state[CW.S_SP]
        CW.check_cards(wss_w, 4, deck_w, sp, pile, state[CW.S_NPILE], pack)      # conserved
        hands.add(tuple(wss_w[0, :64]))
        stocks.add(tuple(deck_w[sp:]))
    assert len(hands) > 1 and len(stocks) > 1                                    # worlds differ


@pytest.mark.parametrize("game", GAMES)
def test_candidates_start_with_the_heuristic_and_are_legal(game):
    cfg, tabs, seats, wss, deck, pile, state = _position(game, seed=11)
    strat = strategy_matrix(parse_strategies("strong,search(search_top=4,search_what=3),strong,strong", game, 4))
    act = WT.new_act()
    act[WT.A_MODE] = WT.DRAW
    i = int(state[CW.S_TO_MOVE])
    before = wss[i, :64].sum()
    dw = np.array([ws_deadwood(wss[s].copy()) for s in range(4)], dtype=np.int64)
    st = np.zeros((4, 1), dtype=np.uint64)
    row = np.zeros(len(GAMES[game].VARIANT.columns(4)), dtype=np.int64)
    assert not WT.take_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, tabs, np.zeros(1, dtype=np.uint64), st,
                            row, True, no_trace(), act)
    ws = wss[i]
    assert ws[:64].sum() == before + 1                                           # drawn, not yet discarded
    cand = np.empty((WD.MAX_CAND, 5), dtype=np.int64)
    n = WD.candidates(cfg, strat[i], ws, int(state[CW.S_OWN + i]), tabs, act, cand)
    assert np.array_equal(cand[0], act[WT.A_KIND:]) and n >= 2
    assert len({tuple(c) for c in cand[:n]}) == n                                # distinct
    for c in cand[:n]:
        if c[WD.K_CODE] >= 0:
            assert ws[c[WD.K_CODE]] > 0 and c[WD.K_CODE] != act[WT.A_FORBIDDEN]  # held, not forbidden
            ws[c[WD.K_CODE]] -= 1
            assert ws_deadwood(ws) == c[WD.K_D]
            ws[c[WD.K_CODE]] += 1
