"""Knock Rummy's decision interface: its ``search`` player (:mod:`sim.search`), 2-5 seats, on the
turn kernels of :mod:`sim.variants.knock_rummy_turn` (the hand loop that picks it per seat, and
the knock advisor's declaration, are :mod:`sim.variants.knock_rummy`'s).

Decision points of a searching seat (strategy row with ``search_worlds`` > 0), each with its
candidates, the heuristic's own choice first; ``search_what`` says which are searched (the
others are the heuristic's):

* the draw (:func:`search_take`, ``search_what`` & 1): the pile's top card or the stock's;
* after the draw (:func:`search_discard`): which card to discard (& 2), among the
  ``search_top`` best by the heuristic's discard score, and whether to knock (& 4: every
  discard with and without a knock; knocking is legal at any deadwood).  Rummy, when a discard
  leaves no deadwood, is taken at once.

The position is the hand loop's arrays (``hands``, ``deck`` with the stock at
``deck[state[S_SP]:]``, ``pile``, ``picked``, ``state``: :func:`sim.variants.knock_rummy.play_from_state`).
:func:`world` copies it as the deciding seat sees it: its hand (and the card it drew), the
discard pile, the cards each opponent took from the pile and still holds (``picked[q] &
hands[q]``: a card once taken from the pile can only come back to a hand from the pile, so
this is exactly what the table saw); the other unseen cards are shuffled into the opponents'
hands (their sizes kept) and the stock.  Each candidate is applied on a copy with the engine's
turn kernels (:func:`~sim.variants.knock_rummy_turn.draw`, :func:`~sim.variants.knock_rummy_turn.finish_turn`)
and the hand is played out by :func:`~sim.variants.knock_rummy_turn.play_on` with the deciding
seat's heuristic (its row, search off) at every seat; with ``search_opp_knock`` k >= 0 the
opponents knock as soon as their deadwood is <= k (no ``per_opp`` shift, no rummy wait).  The
value is the deciding seat's result of the hand as the game's comparisons measure it: with
``settle=seed`` its score minus the average other seat's, with ``pairwise`` its score (a void
hand: 0).  The heuristic's choice is kept unless another candidate beats it by ``search_z``
standard errors of the paired per-world difference (:func:`sim.search.worlds.paired_choice`).
Worlds are uniform given what the seat saw (``search_particles`` is Gin's; not used here) or,
with ``search_belief`` 1, calibrated (:mod:`sim.search.calibrated`).

Measured (``docs/search/knock-rummy.json``; seat 0 minus the average other seat, points per
hand, paired on 200,000 deals, seed 31): the ``search`` preset (all three decisions,
``search_z=1``, ``search_opp_knock=-1``) beats ``strong`` by +0.60 [0.56, 0.63] with 2 players
and +0.64 [0.59, 0.69] with 4.  On other deals (seed 5, 20,000, 2 players, SE 0.02-0.06): the
discard alone +0.06, discard and knock +0.34 (+0.10 when the rollouts' opponents knock at <= 10,
the family's default), all three +0.46 at ``search_z=2``, +0.63 at 1, +0.64 at 0.5, +0.60 at 0.
With 4 players (10,000 deals) the gain is the draw's: without it +0.0 (the knock at once is right).
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit as _bit
from ..core.bits import popcount
from ..core.trace import no_trace
from ..knock.develop import develop_seats
from ..knock.melds import deadwood
from ..search import calibrated
from ..search.worlds import STREAM_WORLD, decision_key, paired_choice, shuffle_unseen, stop_after, world_streams
from ..strategies import knock as K
from ..strategies.knock import wants_upcard
from . import knock_rummy_turn as KR
from .gin_search import FULL52, ranked_discards, searching
from .gin_search import rollout_strat as _gin_rollout_strat


MAX_CAND = 22          # 11 discards, each with and without a knock
BELIEF_CALIBRATED = 1  # ``search_belief``: the calibrated belief, its tables by player count (2-5)
CALIBRATION = calibrated.tables("knock-rummy", range(2, 6))


@njit(cache=True)
def rollout_strat(strat, p):
    """The rollouts' strategy matrix (:func:`sim.variants.gin_search.rollout_strat`: seat
    ``p``'s row, search off, at every seat); with ``search_opp_knock`` >= 0 the opponents'
    threshold is not shifted by ``per_opp`` either (they knock as soon as deadwood <= k)."""
    r = _gin_rollout_strat(strat, p)
    if strat[p, K.P_SEARCH_OPP_KNOCK] >= 0:
        for s in range(strat.shape[0]):
            if s != p:
                r[s, K.P_PER_OPP] = 0
    return r


@njit(cache=True)
def seen_by(p, extra, hands, pile, picked, state, known):
    """What seat ``p`` knows of the cards: returns the mask of the cards it has not seen and
    fills ``known[q]``, the cards seat ``q`` took from the pile and still holds (0 for ``p``).
    ``extra``: a card mask ``p`` holds beyond ``hands[p]`` (the card it drew this turn)."""
    seen = hands[p] | extra
    for i in range(state[KR.S_NPILE]):
        seen |= _bit(pile[i])
    for q in range(hands.shape[0]):
        known[q] = picked[q] & hands[q] if q != p else np.uint64(0)
        seen |= known[q]
    return FULL52 & ~seen


@njit(cache=True)
def world(srow, p, extra, hands, pile, picked, state, key, w, buf, known, hands_w, deck_w, T_value, T_total, T_rank):
    """World ``w`` of decision ``key`` as seat ``p`` sees the position: ``hands_w`` (``p``'s
    own hand, every opponent's known cards plus unseen ones up to its size) and the stock
    ``deck_w[state[S_SP]:]`` (the other unseen cards, in a random order) are filled.  With
    ``search_belief`` 1 (``srow``'s) each opponent's hand is then developed toward a deadwood
    real hands hold at this pile length with this many players
    (:func:`sim.knock.develop.develop`), and the stock is the cards left."""
    unseen = seen_by(p, extra, hands, pile, picked, state, known)
    n = shuffle_unseen(unseen, key, w, buf)
    k = 0
    for q in range(hands.shape[0]):
        if q == p:
            hands_w[q] = hands[q]
            continue
        h = known[q]
        for _ in range(int(popcount(hands[q])) - int(popcount(h))):
            h |= _bit(buf[k])
            k += 1
        hands_w[q] = h
    if srow[K.P_SEARCH_BELIEF] >= BELIEF_CALIBRATED:     # the policy beliefs (2, 3) are Gin's: calibrated here
        pile_len = state[KR.S_NPILE] + (1 if picked[p] & extra else 0)   # at the turn's start, as measured
        left = develop_seats(p, hands_w, known, unseen & ~KR.opp_picked(hands_w, p), CALIBRATION[hands.shape[0]], pile_len,
                             rng.new_state(key, STREAM_WORLD + 2, w), T_value, T_total, T_rank)
        k, n = 0, shuffle_unseen(left, key, w, buf)
    sp = state[KR.S_SP]
    for i in range(k, n):
        deck_w[sp + i - k] = buf[i]


@njit(cache=True, inline="always")
def value(rules, row, p, n):
    """Seat ``p``'s result in a settled hand row: its score minus the average other seat's
    (``settle=seed``: scores are not zero-sum) or its score (``pairwise``)."""
    mine = row[KR.COL_SCORE + p]
    if rules[KR.R_SETTLE] != KR.SETTLE_SEED:
        return float(mine)
    others = 0
    for q in range(n):
        if q != p:
            others += row[KR.COL_SCORE + q]
    return mine - others / (n - 1)


@njit(cache=True)
def _copy_position(hands_w, pile, picked, state, T_value, T_total, T_rank):
    """A rollout's own copy of a world's position (the stock is only read) and the seats'
    deadwood."""
    hands = hands_w.copy()
    dw = np.empty(hands.shape[0], dtype=np.int64)
    for q in range(hands.shape[0]):
        dw[q] = deadwood(hands[q], T_value, T_total, T_rank)
    return hands, pile.copy(), picked.copy(), state.copy(), dw


@njit(cache=True)
def _play_out(rules, rstrat, p, hands, deck_w, pile, picked, state, T_value, T_total, T_rank, st_w, row, trace):
    """After seat ``p``'s turn that did not end the hand: the next seat moves and the hand is
    played out by the rollouts' heuristics; returns ``p``'s value."""
    n = hands.shape[0]
    state[KR.S_TO_MOVE] = (p + 1) % n
    KR.play_on(rules, rstrat, hands, deck_w, pile, picked, state, T_value, T_total, T_rank, st_w, row, False, trace)
    return value(rules, row, p, n)


@njit(cache=True)
def _finish_value(rules, rstrat, p, from_pile, card, code, dwa, knock, hands_w, deck_w, pile, picked, state,
                  T_value, T_total, T_rank, st_w, row, trace):
    """Seat ``p``'s value when it ends its turn with ``code``/``knock`` in the world (``card``
    drawn, already taken off the copied pile/stock) and the hand is played out (arguments
    copied, not changed)."""
    hands, pile_c, picked_c, state_c, dw = _copy_position(hands_w, pile, picked, state, T_value, T_total, T_rank)
    if KR.finish_turn(rules, p, from_pile, card, code, dwa, knock, hands, dw, deck_w, pile_c, state_c, row, False,
                      trace):
        return value(rules, row, p, hands.shape[0])
    return _play_out(rules, rstrat, p, hands, deck_w, pile_c, picked_c, state_c, T_value, T_total, T_rank, st_w,
                     row, trace)


@njit(cache=True)
def _draw_value(rules, rstrat, p, take, hands_w, deck_w, pile, picked, state, T_value, T_total, T_rank, st_w, row,
                trace):
    """Seat ``p``'s value when it takes the pile's top card (``take``) or the stock's, ends the
    turn by its heuristic and the hand is played out."""
    hands, pile_c, picked_c, state_c, dw = _copy_position(hands_w, pile, picked, state, T_value, T_total, T_rank)
    if KR.turn_drawing(rules, rstrat, p, take, hands, dw, deck_w, pile_c, picked_c, state_c, T_value, T_total, T_rank,
                       st_w, row, False, trace):
        return value(rules, row, p, hands.shape[0])
    return _play_out(rules, rstrat, p, hands, deck_w, pile_c, picked_c, state_c, T_value, T_total, T_rank, st_w,
                     row, trace)


@njit(cache=True)
def _search_buffers(strat, p, st, row):
    """What seat ``p``'s search of one decision works in: the decision's key, the rollouts'
    strategy matrix, an empty trace, the unseen-card buffer, the known cards, a world's hands
    and deck, the seats' streams in a world and a scratch hand row."""
    n = strat.shape[0]
    return (decision_key(st[p]), rollout_strat(strat, p), no_trace(), np.empty(KR.N_CARDS, dtype=np.int64),
            np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64), np.zeros(KR.N_CARDS, dtype=np.int64),
            np.empty((n, 1), dtype=np.uint64), np.zeros_like(row))


@njit(cache=True)
def search_take(rules, strat, p, hands, pile, picked, state, T_value, T_total, T_rank, st, row):
    """Seat ``p``'s choice by search: take the pile's top card (True) or the stock's?"""
    srow = strat[p]
    heur = wants_upcard(srow, hands[p], deadwood(hands[p], T_value, T_total, T_rank), pile[state[KR.S_NPILE] - 1],
                        T_value, T_total, T_rank)
    key, rstrat, trace, buf, known, hands_w, deck_w, st_w, scratch = _search_buffers(strat, p, st, row)
    worlds = int(srow[K.P_SEARCH_WORLDS])
    vals = np.empty((worlds, 2), dtype=np.float64)
    alive = np.ones(2, dtype=np.bool_)
    nw = 0
    for w in range(worlds):
        world(srow, p, np.uint64(0), hands, pile, picked, state, key, w, buf, known, hands_w, deck_w, T_value, T_total,
              T_rank)
        for a in range(2):
            if alive[a]:
                world_streams(key, w, st_w)
                vals[w, a] = _draw_value(rules, rstrat, p, heur if a == 0 else not heur, hands_w, deck_w, pile,
                                         picked, state, T_value, T_total, T_rank, st_w, scratch, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, 2, srow[K.P_SEARCH_DROP], alive):
            break
    return heur if paired_choice(vals, nw, 2, srow[K.P_SEARCH_Z], alive) == 0 else not heur


@njit(cache=True)
def discard_candidates(srow, hand, forbidden, opp, state, p, n, T_value, T_total, T_rank, codes, dws, knocks):
    """The candidate ends of a turn for ``hand`` (drawn card included): the ``search_top``
    best discards (heuristic score; only the best unless ``search_what`` & 2), each with the
    heuristic's knock choice first and, with ``search_what`` & 4, the other one.  Returns how
    many (1 when a discard gives rummy: that one)."""
    c11, d11, top, out = ranked_discards(srow, hand, forbidden, opp, T_value, T_total, T_rank)
    if out >= 0:
        codes[0] = c11[out]
        dws[0] = 0
        knocks[0] = 1
        return 1
    what = int(srow[K.P_SEARCH_WHAT])
    nc = 0
    for i in range(top):
        k = 1 if d11[i] <= KR.knock_limit(srow, state, p, n) else 0
        for alt in range(2 if what & 4 else 1):
            codes[nc] = c11[i]
            dws[nc] = d11[i]
            knocks[nc] = k if alt == 0 else 1 - k
            nc += 1
    return nc


@njit(cache=True)
def search_discard(rules, strat, p, from_pile, card, forbidden, hands, pile, picked, state, T_value, T_total, T_rank,
                   st, row):
    """Seat ``p``'s discard and knock by search after drawing ``card``: ``(code, dwa, knock)``."""
    srow = strat[p]
    n = hands.shape[0]
    codes = np.empty(MAX_CAND, dtype=np.int64)
    dws = np.empty(MAX_CAND, dtype=np.int64)
    knocks = np.empty(MAX_CAND, dtype=np.int64)
    nc = discard_candidates(srow, hands[p] | _bit(card), forbidden, KR.opp_picked(picked, p), state, p, n, T_value,
                            T_total, T_rank, codes, dws, knocks)
    if nc == 1:
        return codes[0], dws[0], knocks[0] != 0
    key, rstrat, trace, buf, known, hands_w, deck_w, st_w, scratch = _search_buffers(strat, p, st, row)
    worlds = int(srow[K.P_SEARCH_WORLDS])
    vals = np.empty((worlds, nc), dtype=np.float64)
    alive = np.ones(nc, dtype=np.bool_)
    nw = 0
    for w in range(worlds):
        world(srow, p, _bit(card), hands, pile, picked, state, key, w, buf, known, hands_w, deck_w, T_value, T_total,
              T_rank)
        for a in range(nc):
            if alive[a]:
                world_streams(key, w, st_w)
                vals[w, a] = _finish_value(rules, rstrat, p, from_pile, card, codes[a], dws[a], knocks[a] != 0,
                                           hands_w, deck_w, pile, picked, state, T_value, T_total, T_rank, st_w,
                                           scratch, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, nc, srow[K.P_SEARCH_DROP], alive):
            break
    b = paired_choice(vals, nw, nc, srow[K.P_SEARCH_Z], alive)
    return codes[b], dws[b], knocks[b] != 0


@njit(cache=True)
def searched_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank, st, row, debug,
                  trace):
    """Seat ``p``'s turn by search (the draw if ``search_what`` & 1, else its heuristic's; the
    discard and knock by :func:`search_discard`); returns True if the hand ended."""
    if state[KR.S_NPILE] > 0 and int(strat[p, K.P_SEARCH_WHAT]) & 1:
        from_pile = search_take(rules, strat, p, hands, pile, picked, state, T_value, T_total, T_rank, st, row)
    else:
        from_pile = KR.heuristic_take(strat, p, hands, dw, pile, state, T_value, T_total, T_rank, st)
    card, forbidden = KR.draw(p, from_pile, deck, pile, picked, state, trace)
    code, dwa, knock = search_discard(rules, strat, p, from_pile, card, forbidden, hands, pile, picked, state, T_value,
                                      T_total, T_rank, st, row)
    return KR.finish_turn(rules, p, from_pile, card, code, dwa, knock, hands, dw, deck, pile, state, row, debug,
                          trace)


@njit(cache=True)
def play_on_search(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank, st, row, debug, trace):
    """:func:`~sim.variants.knock_rummy_turn.play_on` where the searching seats decide by
    search (:func:`searched_turn`), the others by their heuristic (the hand loop's choice:
    :func:`sim.variants.knock_rummy.play_from_state`)."""
    n = hands.shape[0]
    dw = KR.start_row(hands, row, T_value, T_total, T_rank)
    p = state[KR.S_TO_MOVE]
    while True:
        if searching(strat[p]):
            ended = searched_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank, st,
                                  row, debug, trace)
        else:
            ended = KR.take_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank, st,
                                 row, debug, trace)
        if ended:
            return
        p = (p + 1) % n
        state[KR.S_TO_MOVE] = p
