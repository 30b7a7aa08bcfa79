"""Knock Rummy's advisor: rollouts of "knock now" vs "play on" from a concrete position.

Worlds as in :mod:`sim.advice`.  I am seat 0, the first to play (left of the dealer, seat
n-1); ``turn`` is my own turn number and the position is *after my draw and discard*, so
``n*(turn-1) + 1`` turns have been played and every opponent has had ``turn - 1``.

* **A, knock now**: every seat's exact minimum deadwood is shown and the hand is settled by
  ``knock_rummy.settle`` with me as the ender (rummy at 0 deadwood, else a knock: knocking is
  legal at any deadwood).
* **B, play on**: seat 1 moves with my discard on top of the pile and the hand is played out
  by ``knock_rummy.play_from_state`` (a void hand - stock out - scores 0).

Result per world (``K_PTS``/``P_PTS``): with ``settle=seed`` (points credited to the winner
only) my points minus the average opponent's, stored as the integer ``(n-1)*score0 -
sum(other scores)`` and scaled by ``1/(n-1)`` in the report (``Prepared.scale``); with
``settle=pairwise`` (zero-sum) my own stake change ``score0``.  "Won": I am the hand's winner.

Opponent model ``played`` (default): each opponent's uniformly dealt hand is replayed, in
seat order, through its ``turn - 1`` turns drawing the buried cards and discarding by its
strategy; a world in which an opponent would already have gone rummy or knocked is redrawn
(see :func:`knock_rummy_worlds`); with a history (:mod:`.history`) their observed turns are
replayed instead.  ``uniform``: the dealt hands as they are (with a history: the cards the
opponents took from the pile and kept are in their hands).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import advice as A
from . import advisor as AD, history as HI, history_weights as HW
from ..core.bits import bit as _bit
from ..core.cards import cards_text, to_mask
from ..knock.melds import deadwood, min_deadwood
from ..strategies.knock import choose_discard, knock_threshold_opp
from ..core.trace import no_trace
from ..variants import COL_SCORE, column_index
from ..variants import knock_rummy as KR

GAME = AD.Game("knock-rummy", KR.VARIANT, KR.KnockRummyRules)


@njit(cache=True)
def _replay(strat, perm, r0, r_end, turns, own_turn, stock_size, hands, T_value, T_total,
            T_rank, ws):
    """Replay each opponent's (seat 1, 2, ...) last ``turns`` turns on the buried cards
    ``perm[r0:r_end]`` (fewer when they run out); ``hands[s]`` holds the dealt hands and gets
    the replayed ones.  Returns False if an opponent would have ended the hand on the way."""
    n = hands.shape[0]
    off = r0
    for s in range(1, n):
        k = min(turns, r_end - off)
        h = hands[s]
        for j in range(k):
            c = perm[off + j]
            h2 = h | _bit(c)
            code, dw = choose_discard(strat[s], h2, np.uint64(0), np.uint64(0), T_value,
                                      T_total, T_rank, ws)
            h = h2 ^ _bit(code)
            perm[off + j] = code        # its discard takes the drawn card's place
            # its own turn number then, and the stock after its draw (every draw from the stock)
            t = own_turn - k + j
            stock_then = stock_size + n * (own_turn - t) - s
            if dw == 0 or dw <= knock_threshold_opp(strat[s], t, stock_then, n - 1):
                return False
        hands[s] = h
        off += k
    return True


@njit(cache=True, inline="always")
def _net(rules, row, n):
    """My result in a settled row: seed, (n-1)*score0 - sum of the others' scores (scaled by
    1/(n-1) in the report); pairwise, score0."""
    if rules[KR.R_SETTLE] != KR.SETTLE_SEED:
        return row[COL_SCORE]
    return A.net_vs_others(row, COL_SCORE, n)


@njit(cache=True)
def knock_rummy_worlds(rules, strat, hand, dw0, pool, stock_size, upcard, known, own, picked0,
                       replay, H, use_h, max_tries, seed, first_world, c_winner, row_width, out,
                       weight, dws, hands_out, fail, T_value, T_total, T_rank, debug):
    """Worlds ``first_world .. first_world + len(out) - 1`` of a Knock Rummy knock question.

    ``n = strat.shape[0]`` seats; ``hand`` uint64: my cards after the discard, deadwood
    ``dw0``; ``pool`` int64: the unseen cards (opponents' hands, stock, buried discards, and
    the upcard if ``upcard == UP_SAMPLE``); ``known``: known buried discards (with a history:
    the whole pile, bottom first); ``own`` int64[n]: the turns each seat has played, mine
    including this one; ``picked0`` uint64[n]: the cards each took from the pile;
    ``c_winner``/``row_width``: the hand row's winner column and width.

    ``use_h``: the opponents' hands follow the history ``H`` (:func:`history_weights.history_hands`;
    with ``replay`` > 0 weighted by their turns, ``weight[i]``, and a world of weight 0 is
    redrawn).  Else ``replay`` > 0 (opponent model "played"): every opponent's uniformly dealt
    hand is replayed through ``replay`` turns (:func:`_replay`), and a world where one would
    have gone rummy or knocked is redrawn.  Redraws use the same generator; after
    ``max_tries`` draws ``fail[0]`` gets the world and the kernel returns.  ``dws[i]``: every
    seat's deadwood when knocking now; ``hands_out[i]``: every seat's hand.
    """
    n = strat.shape[0]
    hs = 10 if n == 2 else 7
    n_pool = pool.shape[0]
    perm = np.empty(n_pool, dtype=np.int64)
    deck = np.zeros(KR.N_CARDS, dtype=np.int64)
    pile = np.empty(KR.N_CARDS, dtype=np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    opp = np.zeros(n, dtype=np.uint64)
    picked = np.zeros(n, dtype=np.uint64)
    dw = np.zeros(n, dtype=np.int64)
    state = np.zeros(KR.S_WIDTH, dtype=np.int64)
    row = np.zeros(row_width, dtype=np.int64)
    st = np.empty((n, 1), dtype=np.uint64)
    sp = KR.N_CARDS - stock_size
    kind = KR.END_RUMMY if dw0 == 0 else KR.END_KNOCK
    for i in range(out.shape[0]):
        w, ws = AD.world_generator(seed, first_world, i)
        tries = 0
        while True:
            up, pos, tries = AD.draw_world(ws, pool, perm, upcard, tries)
            if use_h:
                p2, wt = HW.history_hands(H, strat, perm, pos, replay > 0, True, False, opp, T_value,
                                          T_total, T_rank, ws)
                if wt > 0:
                    pos = p2
                    weight[i] = wt
                    break
            else:
                for s in range(1, n):
                    opp[s] = AD.deal_mask(perm, pos, hs)
                    pos += hs
                if replay == 0 or _replay(strat, perm, pos + stock_size, n_pool, replay, own[0],
                                          stock_size, opp, T_value, T_total, T_rank, ws):
                    break
            if tries >= max_tries:
                fail[0] = w
                return
        out[i, A.TRIES] = tries
        # A: knock now (rummy at 0 deadwood)
        dw[0] = dw0
        dws[i, 0] = dw0
        hands_out[i, 0] = hand
        for s in range(1, n):
            dw[s] = deadwood(opp[s], T_value, T_total, T_rank)
            dws[i, s] = dw[s]
            hands_out[i, s] = opp[s]
        row[:] = 0
        KR.settle(rules, dw, 0, kind, row)
        out[i, A.K_PTS], out[i, A.K_WIN] = _mine(rules, row, n, c_winner)
        # B: play on; seat 1 moves with `up` (my discard) on top of the pile
        npile = AD.pile_for_play_on(perm, pos, n_pool, stock_size, deck, sp, known, pile, up)
        hands[0] = hand
        for s in range(1, n):
            hands[s] = opp[s]
        _start(state, picked, picked0, own, sp, npile)
        AD.seat_streams(st, seed, w)
        row[:] = 0
        KR.play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_total,
                           T_rank, st, row, debug, no_trace())
        out[i, A.P_PTS], out[i, A.P_WIN] = _mine(rules, row, n, c_winner)


@njit(cache=True, inline="always")
def _mine(rules, row, n, c_winner):
    """My result in a settled hand row (:func:`_net`) and whether I won it (I am its winner)."""
    return _net(rules, row, n), 1 if row[c_winner] == 0 else 0


@njit(cache=True, inline="always")
def _start(state, picked, picked0, own, sp, npile):
    """The state play on starts from: each seat's pickups and turns played, the stock from
    ``sp``, ``npile`` cards on the pile, seat 1 to move."""
    state[:] = 0
    for s in range(own.shape[0]):
        picked[s] = picked0[s]
        state[KR.S_OWN + s] = own[s]
        state[KR.S_TURNS] += own[s]
    state[KR.S_SP] = sp
    state[KR.S_NPILE] = npile
    state[KR.S_TO_MOVE] = 1


def rollouts(rules_arr, strat_mat, hand_mask, pool, stock_size, upcard, known, own_turn, seed,
             first_world, n_worlds, *, replay=0, seen=None, debug=False, with_deadwood=False,
             with_weights=False, with_hands=False, position=""):
    """Python entry: int64[n_worlds, N_OUT] (columns K_PTS, P_PTS, K_WIN, P_WIN, TRIES); with
    ``with_deadwood`` also int64[n_worlds, n]: every seat's deadwood when knocking now; with
    ``with_weights`` also float64[n_worlds]: the worlds' weights (1 unless a history is
    replayed); with ``with_hands`` also uint64[n_worlds, n]: every seat's hand.

    ``strat_mat``: one row per seat (seat 0 = me), its length the player count (it must
    match the rules); masks are Python ints or uint64; ``pool``/``known`` card codes;
    ``upcard`` a code or ``UP_SAMPLE``; ``replay``: opponent turns to replay (model "played");
    ``seen``: the history (:class:`history_weights.Seen`, default none); ``position``: how the
    position is named in the error when no world fits.
    """
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = strat_mat.shape[0]
    if int(rules_arr[KR.R_PLAYERS]) != n:
        raise ValueError(f"knock-rummy: rules say players={int(rules_arr[KR.R_PLAYERS])}, "
                         f"{n} strategies given")
    seen = seen or HW.no_history(n, own_turn, KR.hand_size(n))
    _, t_value, t_total, t_rank = KR.GAME_CTX
    hand = np.uint64(hand_mask)
    dw0 = int(deadwood(hand, t_value, t_total, t_rank))
    cols = column_index(n, KR.EXTRA_COLUMNS)
    out, weight, fail = AD.world_buffers(n_worlds)
    dws = np.zeros((int(n_worlds), n), dtype=np.int64)
    hands = np.zeros((int(n_worlds), n), dtype=np.uint64)
    tries = A.MAX_TRIES_HISTORY if seen.use and replay else A.MAX_REDRAWS + 1
    knock_rummy_worlds(rules_arr, strat_mat, hand, np.int64(dw0),
                       np.ascontiguousarray(pool, dtype=np.int64), np.int64(stock_size),
                       np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64), seen.own,
                       seen.picked, np.int64(replay), seen.H, seen.use, np.int64(tries),
                       np.int64(seed), np.int64(first_world), np.int64(cols["winner"]),
                       np.int64(len(cols)), out, weight, dws, hands, fail, t_value, t_total, t_rank,
                       bool(debug))
    model = ("could have given the opponents' choices in the history" if seen.use else
             f"let every opponent reach your turn {own_turn} without going rummy or knocking")
    AD.refuse_failed(fail, tries, model, position)
    return AD.with_extras(out, (dws, with_deadwood), (weight, with_weights), (hands, with_hands))


def _check(p: AD.Position) -> A.Prepared:
    """Check a Knock Rummy knock position (see ``analysis.studies.knock_advice``) and set up
    its worlds."""
    n = p.players
    r = AD.open_position(GAME, n, p.rules, (
        (p.spreads, "knock-rummy has no spreads: melds stay in the hands until the showdown; "
                    "drop --spread"),
        (p.first_upcard is not None, "first upcard is a gin (oklahoma) option: drop --first-upcard"),
        (p.opp_cards is not None, f"with {n} players every knock-rummy opponent holds "
                                  f"{KR.hand_size(n)} cards between turns: drop --opp-cards")))
    hs = KR.hand_size(n)
    drawn = n * (p.turn - 1) + 1          # turns played so far, mine included
    if drawn >= KR.MAX_TURNS:
        raise A.AdviceError(f"turn {p.turn} with {n} players is past the turn limit ({KR.MAX_TURNS} "
                            "turns in a hand): the hand is over")
    notes: list[str] = []
    h = AD.read_hand(GAME, p.hand)
    if h.size not in (hs, hs + 1):
        raise A.AdviceError(f"with {n} players a hand holds {hs} cards (or {hs + 1} before "
                            f"discarding), got {h.size}")
    up, known = AD.read_pile(GAME, h, p.upcard, p.discards, history=p.history, hand_size=hs)
    k = None
    if p.history is not None:
        k = HI.check(p.history, players=n, turn=p.turn, hand_size=hs, hand=h,
                     discard=int(up[0]) if up.size else None, stock_floor=1, dealer_offer=False,
                     stock=p.stock)
    # one card more: exact best discard (ties: the highest card, as the strategies do)
    discard = None
    if h.size == hs + 1:
        discard, dw_after = A.pick_discard(h, None if k is None else k.took)
        h, up, known = AD.play_extra_card(h, up, known, discard, dw_after, notes)
    arr = min_deadwood(h)
    dw = arr.deadwood
    if dw == 0:
        notes.append(f"deadwood 0: ending the hand now is rummy (it always wins, +{r.rummy_bonus})")
    else:
        melds = "; ".join(cards_text(m) for m in arr.melds) or "none"
        notes.append(f"knocking now shows deadwood {dw} ({cards_text(arr.deadwood_cards)}; melds: "
                     f"{melds}); knocking is legal at any deadwood")
    me, opps, smat = AD.seat_strategies(GAME, p.strategy, p.opponent, n)
    st, pool, known, seen, replay = _unseen(k, h, up, known, smat, p.turn, p.stock, p.opp_model, notes)
    upc = AD.upcard_code(up, notes)
    rarr = r.to_array()
    hmask = to_mask(h)
    scale = _points(r, n, notes)
    where = f" (hand {cards_text(h)}, {n} players)"

    weighted = seen is not None and replay > 0

    def call(first, count, with_hands=False):
        return rollouts(rarr, smat, hmask, pool, st, upc, known, p.turn, p.seed, first, count,
                        replay=replay, seen=seen, debug=p.debug, with_weights=weighted,
                        with_hands=with_hands, position=where)

    return AD.prepared(call, h=h, score=dw, limit=None, discard=discard, turn=p.turn, stock=st,
                       players=n, upc=upc, me=me, opps=opps, r=r, notes=notes, scale=scale,
                       redraws=replay > 0)


prepare = AD.entry(_check)


def _unseen(k, h, up, known, smat, turn, stock, opp_model, notes):
    """The stock, the unseen pool, the known pile, the history's :class:`Seen` (or None) and
    the opponent turns to replay: from the history ``k`` (its opponents' knock bars from their
    strategies ``smat[1:]``), or without one."""
    n = smat.shape[0]
    hs = KR.hand_size(n)
    replay = turn - 1 if opp_model == "played" else 0
    if k is None:
        st = _stock(n, turn, stock, known.size, notes)
        pool = A.pool_without(np.concatenate([h, up, known]))  # with hs+1 cards `up` is the discard
        if replay:
            AD.replay_notes(notes, n, replay, KR.N_CARDS - n * hs - 1 - known.size - st)
        return st, pool, known, None, replay
    bars = [[]] + [[max(0.0, knock_threshold_opp(smat[s], t[4], t[3], n - 1)) for t in k.turns[s]]
                   for s in range(1, n)]
    pool, known, seen = HW.setup(k, h, int(up[0]), hand_size=hs, bars=bars, drawn_discardable=True)
    replay = int(opp_model == "played")
    notes += HI.notes(k, replay > 0)
    return k.stock, pool, known, seen, replay


def _points(r, n, notes) -> float:
    """What the points are (noted) and their scale in the report: seed settlement, net against
    the average opponent (``1/(n-1)`` of the kernel's integer); pairwise, my stake change."""
    if r.settle == "seed":
        notes.append("points: net points against the average opponent (your points in the hand "
                     "minus the mean of the opponents'; settle=seed credits the winner only)"
                     if n > 2 else
                     "points: net points against the opponent (yours minus its; settle=seed "
                     "credits the winner only)")
    else:
        notes.append("points: your zero-sum stake change in the hand (settle=pairwise)")
    notes.append("play on: you keep this hand and seat 1 moves next"
                 + (" (a hand voided by a stock-out scores 0)" if r.stock_out == "void" else ""))
    return 1.0 / (n - 1) if r.settle == "seed" else 1.0


def _stock(n, turn, stock, n_known, notes) -> int:
    """The stock after my draw without a history: given, or every draw from the stock."""
    hs = KR.hand_size(n)
    initial = KR.N_CARDS - n * hs - 1
    lo = initial - n * (turn - 1) - 1   # every draw so far from the stock
    room = initial - n_known            # unseen cards left for the stock and the buried discards
    if stock is None:
        st = lo
        if st < 1:
            st = 1
            notes.append(f"if every draw so far had come from the stock, your draw on turn {turn} "
                         f"would have emptied it (the hand over): stock 1 assumed, give --stock")
        if st > room:
            st = room
            notes.append(f"stock clipped to {room}: only {room} unseen cards are left for it")
        if st < 1:
            raise A.AdviceError(f"{n_known} known discards leave no card for the stock: the hand "
                                "cannot be played on (give fewer --discards)")
        if st == lo:
            notes.append(f"stock {st} after your draw (default for turn {turn} with {n} players: "
                         "every draw so far came from the stock)")
        return st
    st = int(stock)
    if st == 0:
        raise A.AdviceError("stock 0: the stock is empty after your draw, so the hand cannot be "
                            "played on (it ends now unless you knock)")
    return AD.given_stock(st, turn, max(lo, 1), initial, room, seats=f" with {n} players",
                          short=f" with {n_known} known discards: at most {room} unseen cards are "
                                "left for the stock")
