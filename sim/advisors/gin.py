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
from . import advisor as AD, history as HI, history_weights as HW
from ..core.bits import bit as _bit
from ..core.cards import card_text, cards_text, to_mask
from ..knock.melds import min_deadwood
from ..core.trace import no_trace
from ..variants import column_index
from ..variants import gin as G

GAME = AD.Game("gin", G.VARIANT, G.GinRules, seated=False)
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

    ``use_h``: the opponent's hand follows the history ``H`` (:func:`history_weights.history_hands`;
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
        w, ws = AD.world_generator(seed, first_world, i)
        tries = 0
        while True:
            up, pos, tries = AD.draw_world(ws, pool, perm, upcard, tries)
            if use_h:
                p2, wt = HW.history_hands(H, strat, perm, pos, replay > 0, drawn_ok, big_gin, hands,
                                          T_value, T_total, T_rank, ws)
                if wt > 0:
                    pos = p2
                    opp = hands[1]
                    weight[i] = wt
                    break
            else:
                opp = AD.deal_mask(perm, pos, G.HAND)
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
        # A: knock now (the strategies' generators go on into B)
        hands[0] = knock_hand
        hands[1] = opp
        row[:] = 0
        AD.seat_streams(st, seed, w)
        G.showdown(rules, strat, hands, 0, knock_dw, big, T_value, T_cover, T_starts, T_total,
                    T_rank, row, st)
        out[i, A.K_PTS], out[i, A.K_WIN] = _mine(row)
        # B: play on; the opponent moves with `up` on top of the pile
        npile = AD.pile_for_play_on(perm, pos, n_pool, stock_size, deck, sp, known, pile, up)
        hands[0] = hand
        hands[1] = opp
        picked[0] = picked0[0]
        picked[1] = picked0[1]
        _start(state, sp, npile, own, limit)
        row[:] = 0
        G.play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover,
                          T_starts, T_total, T_rank, st, row, debug, no_trace())
        out[i, A.P_PTS], out[i, A.P_WIN] = _mine(row)


@njit(cache=True, inline="always")
def _mine(row):
    """My points in a settled hand row and whether I won it (I am its winner; a void hand is
    not won)."""
    return row[C_SCORE0], 1 if row[C_WINNER] == 0 else 0


@njit(cache=True, inline="always")
def _start(state, sp, npile, own, limit):
    """The state play on starts from: the stock from ``sp``, ``npile`` cards on the pile, the
    turns each seat has played, the opponent (seat 1) to move, the hand's knock limit."""
    state[:] = 0
    state[G.S_SP] = sp
    state[G.S_NPILE] = npile
    state[G.S_TURNS] = own[0] + own[1]
    state[G.S_OWN0] = own[0]
    state[G.S_OWN1] = own[1]
    state[G.S_TO_MOVE] = 1
    state[G.S_LIMIT] = limit


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
    out, weight, fail = AD.world_buffers(n_worlds)
    opp = np.zeros((int(n_worlds), 2), dtype=np.uint64)
    tries = A.MAX_TRIES_HISTORY if seen.use and replay else A.MAX_REDRAWS + 1
    gin_worlds(np.ascontiguousarray(rules_arr, dtype=np.float64),
               np.ascontiguousarray(strat_mat, dtype=np.float64), hand, kh, np.int64(kdw),
               bool(big), np.ascontiguousarray(pool, dtype=np.int64), np.int64(stock_size),
               np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64), seen.own, seen.picked,
               np.int64(limit), np.int64(replay), seen.H, seen.use, np.int64(tries), np.int64(seed),
               np.int64(first_world), out, weight, opp, fail, t.run_value, t.run_cover, t.run_starts,
               t.suit_total, t.rank_value, bool(debug))
    model = ("could have given the opponent's choices in the history"
             if seen.use else f"let the opponent reach your turn {own_turn} without knocking")
    AD.refuse_failed(fail, tries, model, position)
    return AD.with_extras(out, (weight, with_weights), (opp, with_hands))


def _check(p: AD.Position) -> A.Prepared:
    """Check a Gin knock position (see ``analysis.studies.knock_advice``) and set up its worlds."""
    r = AD.open_position(GAME, p.players, p.rules, (
        (p.spreads, "gin has no spreads on the table before a knock: drop --spread"),
        (p.opp_cards not in (None, G.HAND), f"the gin opponent holds {G.HAND} cards: drop --opp-cards")))
    notes: list[str] = []
    h = AD.read_hand(GAME, p.hand)
    if h.size not in (G.HAND, G.HAND + 1):
        raise A.AdviceError(f"a gin hand has {G.HAND} cards (the hand you keep after discarding) or "
                          f"{G.HAND + 1} (before discarding: the advisor picks the best discard); "
                          f"got {h.size}")
    up, known = AD.read_pile(GAME, h, p.upcard, p.discards, history=p.history, hand_size=G.HAND)
    k = None
    if p.history is not None:
        k = HI.check(p.history, players=2, turn=p.turn, hand_size=G.HAND, hand=h,
                     discard=int(up[0]) if up.size else None, stock_floor=r.void_stock_left + 1,
                     dealer_offer=r.first_upcard_offer, stock=p.stock)
    limit, limit_name = _knock_limit(r, p.first_upcard, k)
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
        keep, up, known = AD.play_extra_card(h, up, known, discard, dw_after, notes)
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
    me, opps, smat = AD.seat_strategies(GAME, p.strategy, p.opponent, 2, single=True)
    st, pool, known, seen, replay = _unseen(k, h, up, known, r, smat[1], limit, p.turn, p.stock,
                                            p.opp_model, notes)
    upc = AD.upcard_code(up, notes)
    rarr = r.to_array()
    hmask, kmask = to_mask(h), to_mask(knock_cards)
    where = f" (hand {cards_text(h)})"

    weighted = seen is not None and replay > 0

    def call(first, n, with_hands=False):
        return rollouts(rarr, smat, hmask, pool, st, upc, known, p.turn, limit, p.seed, first, n,
                        knock_mask=kmask, big=big, replay=replay, seen=seen, debug=p.debug,
                        with_weights=weighted, with_hands=with_hands, position=where)

    return AD.prepared(call, h=h, score=dw, limit=int(limit), discard=discard, turn=p.turn,
                       stock=st, players=2, upc=upc, me=me, opps=opps, r=r, notes=notes,
                       redraws=replay > 0)


prepare = AD.entry(_check)


def _knock_limit(r, first_upcard, k) -> tuple[int, str]:
    """The hand's knock limit and how it is named (oklahoma: the first upcard's value, given
    or from the history ``k``)."""
    if not r.oklahoma:
        return r.knock_limit, "knock_limit"
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
    return (0 if rank == 0 else int(G.TABLES.rank_value[rank]),
            f"oklahoma, first upcard {card_text(int(fu[0]))}")


def _unseen(k, h, up, known, r, opp_row, limit, turn, stock, opp_model, notes):
    """The stock, the unseen pool, the known pile, the history's :class:`Seen` (or None) and
    the opponent turns to replay: from the history ``k``, or without one (``opp_row``: the
    opponent's strategy, whose knock bars the history's turns)."""
    replay = turn - 1 if opp_model == "played" else 0
    if k is None:
        st = _stock(turn, stock, known.size, r, notes)
        pool = A.pool_without(np.concatenate([h, up, known]))  # with 11 cards `up` is the discard
        if replay:
            notes.append(f"opponent model 'played': its dealt hand was replayed through {replay} "
                         "draws and discards by its strategy, without knocking")
        return st, pool, known, None, replay
    if k.stock < r.void_stock_left:
        raise A.AdviceError(f"the history leaves {k.stock} stock cards after your draw: the hand "
                            f"is void (void_stock_left={r.void_stock_left})")
    bars = [[], [min(limit, G.knock_threshold(opp_row, t[4], t[3])) for t in k.turns[1]]]
    pool, known, seen = HW.setup(k, h, int(up[0]), hand_size=G.HAND, bars=bars,
                                 drawn_discardable=r.discard_stock_draw)
    replay = int(opp_model == "played")
    notes += HI.notes(k, replay > 0)
    return k.stock, pool, known, seen, replay


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
    return AD.given_stock(int(stock), turn, lo, 31, room, short=f" with {n_known} known discards: "
                          f"at most {room} unseen cards are left for the stock")
