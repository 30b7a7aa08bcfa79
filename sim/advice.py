"""Rollout kernels for the "should I knock here?" advisor (numpy + numba only).

A *world* is one way the cards I cannot see may lie.  From the pool of unseen cards (the
pack minus my hand, the cards on the table and the discards I know of) world ``w`` draws,
with the generator ``rng.new_state(seed, STREAM_WORLD, w)``, one uniformly random ordering of
the pool and deals it out in this order:

1. the top of the discard pile, if it is not given (``UP_SAMPLE``);
2. the opponents' hands (seat 1, then seat 2, ...), uniformly from the unseen cards;
3. the stock (top first), ``stock_size`` cards;
4. the rest: buried discards (under the known discards, which lie under the top card).

With ``history > 0`` (Gin, opponent model "played") the opponent's hand is then replayed
through its last ``history`` turns, drawing from the buried cards (see :func:`gin_worlds`).

Both options are then evaluated on the *same* world (common random numbers):

* **A, knock now**: scored at once by the variant's own settlement code
  (Gin: ``gin._showdown`` with me as the knocker; Tonk: ``tonk.settle_knock`` with my seat);
* **B, play on**: the hand continues with the variant's ``play_from_state`` until it ends
  (Gin: it is the opponent's turn with the upcard on the pile; Tonk: I draw, without
  dropping on this turn).  Strategy generators: ``(seed, STREAM_WORLD_STRATEGY + seat, w)``.

I am always seat 0.  Results per world (``out[i]``, int64): my points/stakes for A and B and
whether I won the hand with A and B (columns ``K_PTS, P_PTS, K_WIN, P_WIN``).  Row ``i`` depends
only on the inputs, ``seed`` and ``first_world + i``: never on how the worlds are batched.

Gin "won": I am the hand's winner (a void hand is not won).  Tonk "won": my stake change > 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import rng
from . import table as TB
from .bits import bit as _bit
from .variants import gin as G
from .variants import tonk as TK

STREAM_WORLD = 32               # world sampling; distinct from deal/game/strategy streams
STREAM_WORLD_STRATEGY = 48      # + seat: strategy generators inside a rollout
K_PTS, P_PTS, K_WIN, P_WIN, N_OUT = range(5)
UP_SAMPLE = -1                  # top discard unknown: draw it from the unseen cards
UP_NONE = -2                    # no discard pile (Tonk, no_upcard, first turn)
GIN_ROW = 5 + 4 + len(G.EXTRA_COLUMNS)
MAX_REDRAWS = 1000              # "played" model: redraws of a world whose opponent knocked


# ----------------------------------------------------------------------------------------
# Gin

@njit(cache=True, inline="always")
def _upcard_of(perm, upcard):
    """The world's upcard (the given one, or the first shuffled unseen card when it is
    UP_SAMPLE) and where the hands start in ``perm``."""
    if upcard == UP_SAMPLE:
        return perm[0], 1
    return upcard, 0


@njit(cache=True)
def _lay_out_rest(perm, pos, n_pool, stock_size, stock, s0, known, pile):
    """The unseen cards left after dealing the sampled hands (``perm[pos:n_pool]``): the next
    ``stock_size`` become the stock (from ``stock[s0]``), the others lie buried in the discard
    pile on top of the known discards.  Returns the number of cards in ``pile``."""
    for j in range(stock_size):
        stock[s0 + j] = perm[pos + j]
    npile = 0
    for j in range(known.shape[0]):
        pile[npile] = known[j]
        npile += 1
    for j in range(pos + stock_size, n_pool):
        pile[npile] = perm[j]
        npile += 1
    return npile


@njit(cache=True)
def _gin_replay(rules, srow, perm, r0, history, own_turn, stock_size, limit, opp, T_value,
                T_total, T_rank, ws, hands):
    """Replay the opponent's last turns from ``perm[r0:]`` (see :func:`gin_worlds`); the
    final hand goes to ``hands[1]``.  Returns False if it would have knocked on the way."""
    n = min(history, perm.shape[0] - r0)
    h = opp
    for j in range(n):
        c = perm[r0 + j]
        h2 = h | _bit(c)
        forbidden = np.uint64(0) if rules[G.R_DISCARD_STOCK] != 0 else _bit(c)
        code, dw = G.choose_discard(srow, h2, forbidden, np.uint64(0), T_value, T_total, T_rank, ws)
        h = h2 ^ _bit(code)
        perm[r0 + j] = code
        # its own turn number then, and the stock after its draw (both always drew the stock)
        t = own_turn - n + j
        stock_then = stock_size + 2 * (n - j) - 1
        if dw <= limit and dw <= G.knock_threshold(srow, t, stock_then):
            return False
    hands[1] = h
    return True


@njit(cache=True)
def gin_worlds(rules, strat, hand, knock_hand, knock_dw, big, pool, stock_size, upcard, known,
               own_turn, limit, history, seed, first_world, out, T_value, T_cover, T_starts,
               T_total, T_rank, debug):
    """Worlds ``first_world .. first_world + len(out) - 1`` of a Gin knock question.

    ``hand`` uint64: my 10 cards after the discard (what I keep when playing on);
    ``knock_hand``/``knock_dw``/``big``: the hand shown and its deadwood when knocking now
    (``big``: 11 melded cards, big gin); ``pool`` int64: the unseen cards (opponent's hand,
    stock, buried discards, and the upcard if ``upcard == UP_SAMPLE``); ``known`` int64: known
    buried discards; ``own_turn``: my own turn number (I am the non-dealer, the opponent has
    had ``own_turn - 1`` turns); ``limit``: the knock limit of the hand.

    ``history`` > 0 (opponent model "played"): the opponent's uniformly dealt 10 cards are
    replayed through ``history`` turns (at most the buried cards available), each drawing the
    next buried card and discarding it per the opponent's strategy (the discard takes the drawn
    card's place among the buried discards); a world where the opponent would have knocked on
    one of those turns is redrawn (same generator, at most ``MAX_REDRAWS`` times).
    """
    n_pool = pool.shape[0]
    perm = np.empty(n_pool, dtype=np.int64)
    deck = np.zeros(G.N_CARDS, dtype=np.int64)
    pile = np.empty(G.N_CARDS, dtype=np.int64)
    hands = np.zeros(2, dtype=np.uint64)
    picked = np.zeros(2, dtype=np.uint64)
    state = np.zeros(G.S_WIDTH, dtype=np.int64)
    row = np.zeros(GIN_ROW, dtype=np.int64)
    st = np.empty((2, 1), dtype=np.uint64)
    sp = G.N_CARDS - stock_size
    for i in range(out.shape[0]):
        w = first_world + i
        ws = rng.new_state(seed, STREAM_WORLD, w)
        tries = 0
        while True:
            rng.shuffle_into(ws, pool, perm)
            up, pos = _upcard_of(perm, upcard)
            opp = np.uint64(0)
            for j in range(G.HAND):
                opp |= _bit(perm[pos + j])
            pos += G.HAND
            if history == 0 or _gin_replay(rules, strat[1], perm, pos + stock_size, history,
                                           own_turn, stock_size, limit, opp, T_value, T_total,
                                           T_rank, ws, hands) or tries >= MAX_REDRAWS:
                if history > 0:
                    opp = hands[1]
                break
            tries += 1
        # A: knock now
        hands[0] = knock_hand
        hands[1] = opp
        row[:] = 0
        G._showdown(rules, strat, hands, 0, knock_dw, big, T_value, T_cover, T_starts, T_total,
                    T_rank, row)
        out[i, K_PTS] = row[5]
        out[i, K_WIN] = 1 if row[9] == 0 else 0
        # B: play on; the opponent moves with `up` on top of the pile
        npile = _lay_out_rest(perm, pos, n_pool, stock_size, deck, sp, known, pile)
        pile[npile] = up
        npile += 1
        hands[0] = hand
        hands[1] = opp
        picked[0] = 0
        picked[1] = 0
        state[:] = 0
        state[G.S_SP] = sp
        state[G.S_NPILE] = npile
        state[G.S_TURNS] = 2 * own_turn - 1
        state[G.S_OWN0] = own_turn
        state[G.S_OWN1] = own_turn - 1
        state[G.S_TO_MOVE] = 1
        state[G.S_LIMIT] = limit
        for p in range(2):
            st[p, 0] = rng.stream_key(seed, STREAM_WORLD_STRATEGY + p, w)
        row[:] = 0
        G.play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover,
                          T_starts, T_total, T_rank, st, row, debug)
        out[i, P_PTS] = row[5]
        out[i, P_WIN] = 1 if row[9] == 0 else 0


def gin_rollouts(rules_arr, strat_mat, hand_mask, pool, stock_size, upcard, known, own_turn,
                 limit, seed, first_world, n_worlds, *, knock_mask=None, big=False, history=0,
                 debug=False):
    """Python entry: int64[n_worlds, N_OUT] (columns K_PTS, P_PTS, K_WIN, P_WIN).

    Masks are Python ints or uint64; ``pool``/``known`` card codes; ``upcard`` a code or
    ``UP_SAMPLE``.  ``knock_mask`` (default ``hand_mask``) is the hand shown when knocking.
    """
    t = G._TABLES
    hand = np.uint64(hand_mask)
    kh = hand if knock_mask is None else np.uint64(knock_mask)
    kdw = 0 if big else int(G.deadwood(kh, t.run_value, t.suit_total, t.rank_value))
    out = np.zeros((int(n_worlds), N_OUT), dtype=np.int64)
    gin_worlds(np.ascontiguousarray(rules_arr, dtype=np.float64),
               np.ascontiguousarray(strat_mat, dtype=np.float64), hand, kh, np.int64(kdw),
               bool(big), np.ascontiguousarray(pool, dtype=np.int64), np.int64(stock_size),
               np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64), np.int64(own_turn),
               np.int64(limit), np.int64(history), np.int64(seed), np.int64(first_world), out, t.run_value,
               t.run_cover, t.run_starts, t.suit_total, t.rank_value, bool(debug))
    return out


# ----------------------------------------------------------------------------------------
# Tonk

@njit(cache=True)
def tonk_worlds(rules, strat, hand, opp_cards, sp_owner0, sp_kind0, sp_cards0, n_spreads, pool,
                stock_size, upcard, known, turn, seed, first_world, out, debug):
    """Worlds ``first_world ..`` of a Tonk drop question, at the start of my turn (seat 0).

    ``hand`` uint64: my cards; ``opp_cards`` int64[n-1]: cards held by seats 1..n-1;
    spreads ``sp_owner0/sp_kind0/sp_cards0`` (first ``n_spreads`` used, copied per world);
    ``upcard``: top discard code, ``UP_SAMPLE`` or ``UP_NONE``; ``turn``: turns begun before
    mine (``play_from_state``'s ``turn``).
    """
    n = strat.shape[0]
    n_pool = pool.shape[0]
    perm = np.empty(n_pool, dtype=np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    stock = np.zeros(TK.N_CARDS, dtype=np.int64)
    discard = np.zeros(TK.N_CARDS, dtype=np.int64)
    sp_owner = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    ctr = np.zeros(TK.C_WIDTH, dtype=np.int64)
    st = np.zeros(n, dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(TK.I_WIDTH, dtype=np.int64)
    s0 = TK.N_CARDS - stock_size
    for i in range(out.shape[0]):
        w = first_world + i
        ws = rng.new_state(seed, STREAM_WORLD, w)
        rng.shuffle_into(ws, pool, perm)
        up, pos = _upcard_of(perm, upcard)
        hands[0] = hand
        for s in range(1, n):
            h = np.uint64(0)
            for j in range(opp_cards[s - 1]):
                h |= _bit(perm[pos + j])
            pos += opp_cards[s - 1]
            hands[s] = h
        # A: drop now
        for s in range(n):
            counts[s] = TB.hand_value(hands[s])
        TK.settle_knock(counts, 0, pay)
        out[i, K_PTS] = pay[0]
        out[i, K_WIN] = 1 if pay[0] > 0 else 0
        # B: draw and play on
        npile = _lay_out_rest(perm, pos, n_pool, stock_size, stock, s0, known, discard)
        if up != UP_NONE:
            discard[npile] = up
            npile += 1
        for k in range(n_spreads):
            sp_owner[k] = sp_owner0[k]
            sp_kind[k] = sp_kind0[k]
            sp_cards[k] = sp_cards0[k]
        ctr[TK.C_STOCK] = s0
        ctr[TK.C_PILE] = npile
        ctr[TK.C_SPREADS] = n_spreads
        for s in range(n):
            st[s] = rng.stream_key(seed, STREAM_WORLD_STRATEGY + s, w)
        TK.play_from_state(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr,
                           0, turn, st, False, debug, pay, counts, info)
        out[i, P_PTS] = pay[0]
        out[i, P_WIN] = 1 if pay[0] > 0 else 0


def tonk_rollouts(rules_arr, strat_mat, hand_mask, opp_cards, spreads, pool, stock_size, upcard,
                  known, turn, seed, first_world, n_worlds, *, debug=False):
    """Python entry: int64[n_worlds, N_OUT].  ``spreads``: ``(owner, kind, mask)`` triples
    (kind ``table.BOOK``/``table.RUN``); ``turn``: turns begun before mine."""
    sp_owner = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    for k, (owner, kind, mask) in enumerate(spreads):
        sp_owner[k], sp_kind[k], sp_cards[k] = owner, kind, np.uint64(mask)
    out = np.zeros((int(n_worlds), N_OUT), dtype=np.int64)
    tonk_worlds(np.ascontiguousarray(rules_arr, dtype=np.float64),
                np.ascontiguousarray(strat_mat, dtype=np.float64), np.uint64(hand_mask),
                np.ascontiguousarray(opp_cards, dtype=np.int64), sp_owner, sp_kind, sp_cards,
                np.int64(len(spreads)), np.ascontiguousarray(pool, dtype=np.int64),
                np.int64(stock_size), np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64),
                np.int64(turn), np.int64(seed), np.int64(first_world), out, bool(debug))
    return out
