"""Gin's advisor: rollouts of "knock now" vs "play on" from a concrete position.

Worlds as in :mod:`sim.advice`.  With ``history > 0`` (opponent model ``played``) the
opponent's uniformly dealt hand is replayed through its last ``history`` turns, drawing from
the buried cards (see :func:`gin_worlds`).  **A, knock now**: the Gin showdown with me as the
knocker (layoffs, gin and undercut bonuses); **B, play on**: it is the opponent's turn with
my discard on the pile, played by ``gin.play_from_state``.  "Won": I am the hand's winner (a
void hand is not won).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import advice as A
from .. import rng
from ..bits import bit as _bit
from ..cards import card_text, cards_text, to_mask
from ..melds import best_discard, min_deadwood
from ..strategies import parse_strategy, strategy_matrix
from ..trace import no_trace
from ..variants import column_index
from ..variants import gin as G

ROW_WIDTH = len(G.VARIANT.columns(2))
C_SCORE0 = column_index(2, G.EXTRA_COLUMNS)["score0"]
C_WINNER = column_index(2, G.EXTRA_COLUMNS)["winner"]


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
    one of those turns is redrawn (same generator, at most ``A.MAX_REDRAWS`` times).
    """
    n_pool = pool.shape[0]
    perm = np.empty(n_pool, dtype=np.int64)
    deck = np.zeros(G.N_CARDS, dtype=np.int64)
    pile = np.empty(G.N_CARDS, dtype=np.int64)
    hands = np.zeros(2, dtype=np.uint64)
    picked = np.zeros(2, dtype=np.uint64)
    state = np.zeros(G.S_WIDTH, dtype=np.int64)
    row = np.zeros(ROW_WIDTH, dtype=np.int64)
    st = np.empty((2, 1), dtype=np.uint64)
    sp = G.N_CARDS - stock_size
    for i in range(out.shape[0]):
        w = first_world + i
        ws = rng.new_state(seed, A.STREAM_WORLD, w)
        tries = 0
        while True:
            rng.shuffle_into(ws, pool, perm)
            up, pos = A.upcard_of(perm, upcard)
            opp = np.uint64(0)
            for j in range(G.HAND):
                opp |= _bit(perm[pos + j])
            pos += G.HAND
            if history == 0 or _gin_replay(rules, strat[1], perm, pos + stock_size, history,
                                           own_turn, stock_size, limit, opp, T_value, T_total,
                                           T_rank, ws, hands) or tries >= A.MAX_REDRAWS:
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
        out[i, A.K_PTS] = row[C_SCORE0]
        out[i, A.K_WIN] = 1 if row[C_WINNER] == 0 else 0
        # B: play on; the opponent moves with `up` on top of the pile
        npile = A.lay_out_rest(perm, pos, n_pool, stock_size, deck, sp, known, pile)
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
            st[p, 0] = rng.stream_key(seed, A.STREAM_WORLD_STRATEGY + p, w)
        row[:] = 0
        G.play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover,
                          T_starts, T_total, T_rank, st, row, debug, no_trace())
        out[i, A.P_PTS] = row[C_SCORE0]
        out[i, A.P_WIN] = 1 if row[C_WINNER] == 0 else 0


def rollouts(rules_arr, strat_mat, hand_mask, pool, stock_size, upcard, known, own_turn,
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
    out = np.zeros((int(n_worlds), A.N_OUT), dtype=np.int64)
    gin_worlds(np.ascontiguousarray(rules_arr, dtype=np.float64),
               np.ascontiguousarray(strat_mat, dtype=np.float64), hand, kh, np.int64(kdw),
               bool(big), np.ascontiguousarray(pool, dtype=np.int64), np.int64(stock_size),
               np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64), np.int64(own_turn),
               np.int64(limit), np.int64(history), np.int64(seed), np.int64(first_world), out, t.run_value,
               t.run_cover, t.run_starts, t.suit_total, t.rank_value, bool(debug))
    return out



def prepare(hand, *, turn, upcard, discards, spreads, players, opponent, strategy, rules,
            stock, opp_cards, first_upcard, seed, opp_model, debug) -> A.Prepared:
    """Check a Gin knock position (see ``analysis.studies.knock_advice``) and set up its worlds."""
    if players != 2:
        raise A.AdviceError(f"gin is played by exactly 2 players, not {players} (drop --players)")
    if spreads:
        raise A.AdviceError("gin has no spreads on the table before a knock: drop --spread")
    if opp_cards not in (None, G.HAND):
        raise A.AdviceError(f"the gin opponent holds {G.HAND} cards: drop --opp-cards")
    r = A.rules_of(G.GinRules, rules)
    notes: list[str] = []
    h = A.cards(hand, "hand")
    if h.size not in (G.HAND, G.HAND + 1):
        raise A.AdviceError(f"a gin hand has {G.HAND} cards (the hand you keep after discarding) or "
                          f"{G.HAND + 1} (before discarding: the advisor picks the best discard); "
                          f"got {h.size}")
    up = A.cards(upcard, "upcard") if upcard is not None else np.zeros(0, dtype=np.int64)
    if up.size > 1:
        raise A.AdviceError(f"upcard: give one card, got {up.size}")
    known = A.cards(discards, "discards") if discards is not None else np.zeros(0, dtype=np.int64)
    A.no_overlap([("in your hand", h), ("the upcard", up), ("in the discards", known)])
    # knock limit
    limit = r.knock_limit
    limit_name = "knock_limit"
    if r.oklahoma:
        if first_upcard is None:
            raise A.AdviceError("oklahoma sets the knock limit from the hand's first upcard: "
                              "give it with --first-upcard")
        fu = A.cards(first_upcard, "first upcard")
        if fu.size != 1:
            raise A.AdviceError(f"first upcard: give one card, got {fu.size}")
        rank = int(fu[0]) & 15
        limit = 0 if rank == 0 else int(G._TABLES.rank_value[rank])
        limit_name = f"oklahoma, first upcard {card_text(int(fu[0]))}"
    # 11 cards: exact best discard (ties: the highest card, as the strategies do)
    discard = None
    big = False
    knock_cards = h
    if h.size == G.HAND + 1:
        bd = best_discard(h)
        discard = max(bd.discards, key=lambda c: (c & 15, c >> 4))
        dw11 = min_deadwood(h).deadwood
        if r.big_gin and dw11 == 0:
            big = True
            notes.append("11 melded cards: knocking now is big gin")
        keep = np.array([c for c in h if int(c) != discard], dtype=np.int64)
        notes.append(f"11 cards given: the exact best discard is {card_text(discard)} "
                     f"(deadwood {bd.deadwood} after it); playing on discards it face up")
        if up.size:
            notes.append(f"the upcard {card_text(int(up[0]))} given as well is taken to lie "
                         f"under {card_text(discard)}")
            known = np.concatenate([known, up])
        up = np.array([discard], dtype=np.int64)
        if not big:
            knock_cards = keep
        h = keep
    arr = min_deadwood(h)
    dw = arr.deadwood
    if not big and dw > limit:
        melds = "; ".join(cards_text(m) for m in arr.melds) or "none"
        raise A.AdviceError(
            f"cannot knock: the hand's deadwood is {dw} ({cards_text(arr.deadwood_cards)}; melds: "
            f"{melds}) and knocking needs deadwood <= {limit} ({limit_name}); keep playing")
    # stock after my draw
    lo = max(r.void_stock_left, 31 - 2 * turn)
    room = 31 - known.size           # 52 - 2 hands - the top discard - known discards
    if stock is None:
        st = max(32 - 2 * turn, r.void_stock_left + 1)
        if st > room:
            notes.append(f"stock clipped to {room}: only {room} unseen cards are left for it")
            st = room
        if st < r.void_stock_left:
            raise A.AdviceError(f"{known.size} known discards leave no room for a stock: give fewer --discards")
        stock_note = f"stock {st} after your draw (default for turn {turn}: both players drew from the stock)"
    else:
        st = int(stock)
        if not lo <= st <= 31:
            raise A.AdviceError(f"stock {st} is impossible on your turn {turn}: after your draw the "
                              f"stock holds {lo} to 31 cards")
        if st > room:
            raise A.AdviceError(f"stock {st} is impossible with {known.size} known discards: at most "
                              f"{room} unseen cards are left for the stock")
        stock_note = None
    if stock_note:
        notes.append(stock_note)
    if up.size == 0:
        notes.append("upcard not given: the card on top of the pile is drawn from the unseen cards")
    me = parse_strategy(strategy, "gin")
    opp = parse_strategy(opponent, "gin")
    smat = strategy_matrix([me, opp])
    pool = A.pool_without(np.concatenate([h, up, known]))  # with 11 cards `up` is the discard
    upc = int(up[0]) if up.size else A.UP_SAMPLE
    rarr = r.to_array()
    hmask, kmask = to_mask(h), to_mask(knock_cards)
    history = turn - 1 if opp_model == "played" else 0
    if history:
        notes.append(f"opponent model 'played': its dealt hand was replayed through {history} "
                     "draws and discards by its strategy, without knocking")

    def call(first, n):
        return rollouts(rarr, smat, hmask, pool, st, upc, known, turn, limit, seed, first, n,
                              knock_mask=kmask, big=big, history=history, debug=debug)

    return A.Prepared(call, dict(hand=tuple(card_text(int(c)) for c in h),
                   hand_score=int(dw), knock_limit=int(limit),
                   discard=None if discard is None else card_text(discard), turn=turn, stock=st,
                   players=2, upcard=card_text(upc) if upc >= 0 else None,
                   strategy=me.spec, opponent=opp.spec, rules=r.as_dict()), notes)
