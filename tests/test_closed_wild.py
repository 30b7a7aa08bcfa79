"""The shared wild-card engine's shortcuts are exact: the discard search against every discard,
the wild-removal bound against the exact deadwood, the pile rule's "touches no meld" filter."""

import numpy as np
import pytest

from sim import closed_wild as CW
from sim.strategies import parse_strategy
from sim.strategies import wild as W
from sim.wild_melds import _discards, new_workspace, random_hands, ws_deadwood

RULES = [("ramino-klop", None), ("wildcard", 1), ("wildcard", 2), ("cincinnati", 1), ("cincinnati", 2)]


def _hands(game, packs, n, size, seed):
    rng = np.random.default_rng(seed)
    most = 2 * (packs or 2) if game != "wildcard" else 4
    return [random_hands(1, size, int(rng.integers(0, most + 1)), game, packs=packs, seed=seed + i)[0].astype(np.int64)
            for i in range(n)]


@pytest.mark.parametrize("game,packs", RULES)
def test_the_discard_search_finds_the_exact_best_discard(game, packs):
    pack, P, vals, wild, order = CW.tables(game, packs)
    set_max = 0 if game == "ramino-klop" else 4 * (packs or 1)
    ace_high = 0 if game == "ramino-klop" else 1
    rows = {name: parse_strategy(name, game).row for name in ("simple", "simple(keep_near=1)")}
    out = np.empty(64, dtype=np.int64)
    for k, counts in enumerate(_hands(game, packs, 300, 8, 7)):
        ws = new_workspace(P, vals)
        ws[:64] = counts
        full = ws_deadwood(ws)
        _discards(counts, P, vals, out)
        held = np.flatnonzero(counts)
        forbidden = int(held[k % len(held)]) if k % 3 == 0 else -1
        legal = [c for c in held if c != forbidden]
        for srow in rows.values():
            code, d = W.choose_discard(srow, ws, full, forbidden, 1, order, vals, wild, ace_high, set_max)
            assert (ws[:64] == counts).all()
            assert d == min(out[c] for c in legal) and out[code] == d and code != forbidden


@pytest.mark.parametrize("game,packs", RULES)
def test_the_wild_removal_bound_never_exceeds_the_exact_deadwood(game, packs):
    pack, P, vals, wild, order = CW.tables(game, packs)
    set_max = 0 if game == "ramino-klop" else 4 * (packs or 1)
    out = np.empty(64, dtype=np.int64)
    tight = 0
    for counts in _hands(game, packs, 400, 8, 11):
        ws = new_workspace(P, vals)
        ws[:64] = counts
        full = ws_deadwood(ws)
        _discards(counts, P, vals, out)
        for w in np.flatnonzero(counts * wild):
            b = W.wild_removal_bound(ws, w, full, vals, wild, set_max)
            assert b <= out[w]
            tight += b > full - vals[w]
    assert tight > 0 or set_max == 0


@pytest.mark.parametrize("game,packs", RULES)
def test_a_card_touching_no_meld_adds_exactly_its_value(game, packs):
    pack, P, vals, wild, order = CW.tables(game, packs)
    ace_high = 0 if game == "ramino-klop" else 1
    for counts in _hands(game, packs, 300, 7, 13):
        ws = new_workspace(P, vals)
        ws[:64] = counts
        d7 = ws_deadwood(ws)
        n_wild = W.wild_count(ws, wild)
        for c in order:
            if counts[c] < (2 if c == 13 or packs == 2 else 1) and not W.touches_meld(ws, c, wild, ace_high, n_wild):
                ws[c] += 1
                assert ws_deadwood(ws) == d7 + vals[c]
                ws[c] -= 1


def test_the_conservation_check_catches_a_lost_or_extra_card():
    pack, P, vals, wild, order = CW.tables("ramino-klop")
    deck = pack.copy()
    wss = CW.new_hands(2, (pack, P, vals, wild, order))
    pile = np.empty(108, dtype=np.int64)
    state = np.zeros(CW.S_WIDTH, dtype=np.int64)
    cfg = np.zeros(CW.C_WIDTH, dtype=np.int64)
    cfg[CW.C_HAND] = 7
    CW.deal(cfg, deck, 0, wss, pile, state)
    CW.check_cards(wss, 2, deck, state[CW.S_SP], pile, state[CW.S_NPILE], pack)
    wss[0, 13] += 1
    with pytest.raises(ValueError, match="not conserved"):
        CW.check_cards(wss, 2, deck, state[CW.S_SP], pile, state[CW.S_NPILE], pack)
    wss[0, 13] -= 1
    with pytest.raises(ValueError, match="not conserved"):
        CW.check_cards(wss, 2, deck, state[CW.S_SP] + 1, pile, state[CW.S_NPILE], pack)
