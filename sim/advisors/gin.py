"""Gin's advisor: rollouts of "knock now" vs "play on" from a concrete position.

Worlds as in :mod:`sim.advice`.  Opponent model ``played`` without a history: the
opponent's uniformly dealt hand is replayed through its ``turn - 1`` turns, drawing from the
buried cards (see :func:`gin_worlds`); with a history (:mod:`.history`) its observed turns
are replayed instead.  **A, knock now**: the Gin showdown with me as the
knocker (layoffs, gin and undercut bonuses); **B, play on**: it is the opponent's turn with
my discard on the pile, played by ``gin.play_from_state``.  "Won": I am the hand's winner (a
void hand is not won).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import advice as A
from . import history as HI, history_weights as HW
from ..core import rng
from ..core.bits import bit as _bit
from ..core.cards import card_text, cards_text, to_mask
from ..knock.melds import min_deadwood
from ..strategies import parse_strategy, strategy_matrix
from ..core.trace import no_trace
from ..variants import column_index
from ..variants import gin as G

ROW_WIDTH = len(G.VARIANT.columns(2))
C_SCORE0 = column_index(2, G.EXTRA_COLUMNS)["score0"]
C_WINNER = column_index(2, G.EXTRA_COLUMNS)["winner"]


@njit(cache=True)
def _gin_replay(rules, srow, perm, r0, turns, own_turn, stock_size, limit, opp, T_value,
                T_total, T_rank, ws, hands):
    """Replay the opponent's last turns from ``perm[r0:]`` (see :func:`gin_worlds`); the
    final hand goes to ``hands[1]``.  Returns False if it would have knocked on the way."""
    n = min(turns, perm.shape[0] - r0)
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
               own, picked0, limit, replay, H, use_h, max_tries, seed, first_world, out, weight,
               opp_out, fail, T_value, T_cover, T_starts, T_total, T_rank, debug):
    """Worlds ``first_world .. first_world + len(out) - 1`` of a Gin knock question.

    ``hand`` uint64: my 10 cards after the discard (what I keep when playing on);
    ``knock_hand``/``knock_dw``/``big``: the hand shown and its deadwood when knocking now
    (``big``: 11 melded cards, big gin); ``pool`` int64: the unseen cards (opponent's hand,
    stock, buried discards, and the upcard if ``upcard == UP_SAMPLE``); ``known`` int64: known
    buried discards (with a history: the whole pile, bottom first); ``own`` int64[2]: the
    turns each seat has played, mine including this one; ``picked0`` uint64[2]: the cards each
    took from the pile; ``limit``: the knock limit of the hand; ``opp_out[i]``: both hands in
    world ``i`` (mine, the opponent's); ``weight[i]``: world ``i``'s weight (set with a
    history replayed, else left as given).

    ``use_h``: the opponent's hand follows the history ``H`` (:func:`history.history_hands`;
    with ``replay`` > 0 weighted by its turns, and a world of weight 0 is redrawn).  Else
    ``replay`` > 0 (opponent model "played"): the opponent's uniformly dealt 10 cards are
    replayed through ``replay`` turns (at most the buried cards available), each drawing the
    next buried card and discarding it per the opponent's strategy (the discard takes the
    drawn card's place among the buried discards), and a world where it would have knocked is
    redrawn.  Redraws use the same generator; after ``max_tries`` draws ``fail[0]`` gets the
    world and the kernel returns.
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
    drawn_ok = rules[G.R_DISCARD_STOCK] != 0
    big_gin = rules[G.R_BIG_GIN] != 0
    for i in range(out.shape[0]):
        w = first_world + i
        ws = rng.new_state(seed, A.STREAM_WORLD, w)
        tries = 0
        while True:
            tries += 1
            rng.shuffle_into(ws, pool, perm)
            up, pos = A.upcard_of(perm, upcard)
            if use_h:
                p2, wt = HW.history_hands(H, strat, perm, pos, replay > 0, drawn_ok, big_gin, hands,
                                          T_value, T_total, T_rank, ws)
                if wt > 0:
                    pos = p2
                    opp = hands[1]
                    weight[i] = wt
                    break
            else:
                opp = np.uint64(0)
                for j in range(G.HAND):
                    opp |= _bit(perm[pos + j])
                pos += G.HAND
                if replay == 0:
                    break
                if _gin_replay(rules, strat[1], perm, pos + stock_size, replay, own[0], stock_size,
                               limit, opp, T_value, T_total, T_rank, ws, hands):
                    opp = hands[1]
                    break
            if tries >= max_tries:
                fail[0] = w
                return
        out[i, A.TRIES] = tries
        opp_out[i, 0] = hand
        opp_out[i, 1] = opp
        # A: knock now
        hands[0] = knock_hand
        hands[1] = opp
        row[:] = 0
        for p in range(2):
            st[p, 0] = rng.stream_key(seed, A.STREAM_WORLD_STRATEGY + p, w)
        G.showdown(rules, strat, hands, 0, knock_dw, big, T_value, T_cover, T_starts, T_total,
                    T_rank, row, st)
        out[i, A.K_PTS] = row[C_SCORE0]
        out[i, A.K_WIN] = 1 if row[C_WINNER] == 0 else 0
        # B: play on; the opponent moves with `up` on top of the pile
        npile = A.lay_out_rest(perm, pos, n_pool, stock_size, deck, sp, known, pile)
        pile[npile] = up
        npile += 1
        hands[0] = hand
        hands[1] = opp
        picked[0] = picked0[0]
        picked[1] = picked0[1]
        state[:] = 0
        state[G.S_SP] = sp
        state[G.S_NPILE] = npile
        state[G.S_TURNS] = own[0] + own[1]
        state[G.S_OWN0] = own[0]
        state[G.S_OWN1] = own[1]
        state[G.S_TO_MOVE] = 1
        state[G.S_LIMIT] = limit
        row[:] = 0
        G.play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover,
                          T_starts, T_total, T_rank, st, row, debug, no_trace())
        out[i, A.P_PTS] = row[C_SCORE0]
        out[i, A.P_WIN] = 1 if row[C_WINNER] == 0 else 0


def rollouts(rules_arr, strat_mat, hand_mask, pool, stock_size, upcard, known, own_turn, limit,
             seed, first_world, n_worlds, *, knock_mask=None, big=False, replay=0, seen=None,
             debug=False, with_weights=False, with_hands=False, position=""):
    """Python entry: int64[n_worlds, N_OUT] (columns K_PTS, P_PTS, K_WIN, P_WIN, TRIES); with
    ``with_weights`` also float64[n_worlds]: the worlds' weights (1 unless a history is
    replayed); with ``with_hands`` also uint64[n_worlds, 2]: both hands in each world (mine,
    the opponent's).

    Masks are Python ints or uint64; ``pool``/``known`` card codes; ``upcard`` a code or
    ``UP_SAMPLE``.  ``knock_mask`` (default ``hand_mask``) is the hand shown when knocking;
    ``replay``: opponent turns to replay (model "played"); ``seen``: the history
    (:class:`history_weights.Seen`, default none); ``position``: how the position is named in the error when
    no world fits.
    """
    t = G.TABLES
    seen = seen or HW.no_history(2, own_turn, G.HAND)
    hand = np.uint64(hand_mask)
    kh = hand if knock_mask is None else np.uint64(knock_mask)
    kdw = 0 if big else int(G.deadwood(kh, t.run_value, t.suit_total, t.rank_value))
    out = np.zeros((int(n_worlds), A.N_OUT), dtype=np.int64)
    weight = np.ones(int(n_worlds), dtype=np.float64)
    opp = np.zeros((int(n_worlds), 2), dtype=np.uint64)
    fail = np.full(1, -1, dtype=np.int64)
    tries = A.MAX_TRIES_HISTORY if seen.use and replay else A.MAX_REDRAWS + 1
    gin_worlds(np.ascontiguousarray(rules_arr, dtype=np.float64),
               np.ascontiguousarray(strat_mat, dtype=np.float64), hand, kh, np.int64(kdw),
               bool(big), np.ascontiguousarray(pool, dtype=np.int64), np.int64(stock_size),
               np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64), seen.own, seen.picked,
               np.int64(limit), np.int64(replay), seen.H, seen.use, np.int64(tries), np.int64(seed),
               np.int64(first_world), out, weight, opp, fail, t.run_value, t.run_cover, t.run_starts,
               t.suit_total, t.rank_value, bool(debug))
    if fail[0] >= 0:
        model = ("could have given the opponent's choices in the history"
                 if seen.use else f"let the opponent reach your turn {own_turn} without knocking")
        raise A.no_world_fits(int(fail[0]), tries, model, position)
    extra = ((weight,) if with_weights else ()) + ((opp,) if with_hands else ())
    return (out,) + extra if extra else out


def prepare(hand, *, turn, upcard, discards, spreads, players, opponent, strategy, rules,
            stock, opp_cards, first_upcard, history, seed, opp_model, debug) -> A.Prepared:
    """Check a Gin knock position (see ``analysis.studies.knock_advice``) and set up its worlds."""
    A.check_players(G.VARIANT, players)
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
    if history is not None:
        HI.refuse_conflicts(h.size, G.HAND, up.size > 0, discards)
    known = A.cards(discards, "discards") if discards is not None else np.zeros(0, dtype=np.int64)
    A.no_overlap([("in your hand", h), ("the upcard", up), ("in the discards", known)])
    k = None
    if history is not None:
        k = HI.check(history, players=2, turn=turn, hand_size=G.HAND, hand=h,
                     discard=int(up[0]) if up.size else None, stock_floor=r.void_stock_left + 1,
                     dealer_offer=r.first_upcard_offer, stock=stock)
    # knock limit
    limit = r.knock_limit
    limit_name = "knock_limit"
    if r.oklahoma:
        if first_upcard is None and k is None:
            raise A.AdviceError("oklahoma sets the knock limit from the hand's first upcard: "
                              "give it with --first-upcard")
        fu = A.cards(first_upcard if first_upcard is not None else k.up, "first upcard")
        if fu.size != 1:
            raise A.AdviceError(f"first upcard: give one card, got {fu.size}")
        if k is not None and int(fu[0]) != k.up:
            raise A.AdviceError(f"first upcard {card_text(int(fu[0]))}: the history says "
                                f"{card_text(k.up)}")
        rank = int(fu[0]) & 15
        limit = 0 if rank == 0 else int(G.TABLES.rank_value[rank])
        limit_name = f"oklahoma, first upcard {card_text(int(fu[0]))}"
    # 11 cards: exact best discard (ties: the highest card, as the strategies do)
    discard = None
    big = False
    knock_cards = h
    if h.size == G.HAND + 1:
        discard, dw_after = A.pick_discard(h, None if k is None else k.took)
        dw11 = min_deadwood(h).deadwood
        if r.big_gin and dw11 == 0:
            big = True
            notes.append("11 melded cards: knocking now is big gin")
        keep = np.array([c for c in h if int(c) != discard], dtype=np.int64)
        notes.append(f"11 cards given: the exact best discard is {card_text(discard)} "
                     f"(deadwood {dw_after} after it); playing on discards it face up")
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
    me = parse_strategy(strategy, "gin")
    opp = parse_strategy(opponent, "gin")
    smat = strategy_matrix([me, opp])
    seen = None
    replay = turn - 1 if opp_model == "played" else 0
    if k is not None:
        st = k.stock
        if st < r.void_stock_left:
            raise A.AdviceError(f"the history leaves {st} stock cards after your draw: the hand is "
                                f"void (void_stock_left={r.void_stock_left})")
        bars = [[], [min(limit, G.knock_threshold(smat[1], t[4], t[3])) for t in k.turns[1]]]
        pool, known, seen = HW.setup(k, h, int(up[0]), hand_size=G.HAND, bars=bars,
                                     drawn_discardable=r.discard_stock_draw)
        replay = int(opp_model == "played")
        notes += HI.notes(k, replay > 0)
    else:
        st = _stock(turn, stock, known.size, r, notes)
        pool = A.pool_without(np.concatenate([h, up, known]))  # with 11 cards `up` is the discard
        if replay:
            notes.append(f"opponent model 'played': its dealt hand was replayed through {replay} "
                         "draws and discards by its strategy, without knocking")
    if up.size == 0:
        notes.append("upcard not given: the card on top of the pile is drawn from the unseen cards")
    upc = int(up[0]) if up.size else A.UP_SAMPLE
    rarr = r.to_array()
    hmask, kmask = to_mask(h), to_mask(knock_cards)
    where = f" (hand {cards_text(h)})"

    weighted = seen is not None and replay > 0

    def call(first, n, with_hands=False):
        return rollouts(rarr, smat, hmask, pool, st, upc, known, turn, limit, seed, first, n,
                        knock_mask=kmask, big=big, replay=replay, seen=seen, debug=debug,
                        with_weights=weighted, with_hands=with_hands, position=where)

    return A.Prepared(call, dict(hand=tuple(card_text(int(c)) for c in h),
                   hand_score=int(dw), knock_limit=int(limit),
                   discard=None if discard is None else card_text(discard), turn=turn, stock=st,
                   players=2, upcard=card_text(upc) if upc >= 0 else None,
                   strategy=me.spec, opponent=opp.spec, rules=r.as_dict()), notes,
                   redraws=replay > 0)


def _stock(turn, stock, n_known, r, notes) -> int:
    """The stock after my draw without a history: given, or both players always drew."""
    lo = max(r.void_stock_left, 31 - 2 * turn)
    room = 31 - n_known               # 52 - 2 hands - the top discard - known discards
    if stock is None:
        st = max(32 - 2 * turn, r.void_stock_left + 1)
        if st > room:
            notes.append(f"stock clipped to {room}: only {room} unseen cards are left for it")
            st = room
        if st < r.void_stock_left:
            raise A.AdviceError(f"{n_known} known discards leave no room for a stock: give fewer --discards")
        notes.append(f"stock {st} after your draw (default for turn {turn}: both players drew from the stock)")
        return st
    st = int(stock)
    if not lo <= st <= 31:
        raise A.AdviceError(f"stock {st} is impossible on your turn {turn}: after your draw the "
                            f"stock holds {lo} to 31 cards")
    if st > room:
        raise A.AdviceError(f"stock {st} is impossible with {n_known} known discards: at most "
                            f"{room} unseen cards are left for the stock")
    return st
