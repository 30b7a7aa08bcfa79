"""Gin Rummy's decision interface and its ``search`` player (:mod:`sim.search`).

Decision points of a searching seat (strategy row with ``search_worlds`` > 0), each with its
candidates, the heuristic's own choice first; ``search_what`` says which are searched (the
others are the heuristic's; default: the discard only):

* the first upcard offer and every later draw (:func:`search_take`, ``search_what`` & 1):
  take the pile's top card or not;
* after the draw (:func:`search_discard`): which card to discard (& 2), among the
  ``search_top`` best by the heuristic's discard score, and whether to knock where the rules
  allow (& 4; gin, when a discard leaves no deadwood, is taken at once).

The position is the hand loop's arrays (``hands``, ``deck`` with the stock at
``deck[state[S_SP]:]``, ``pile``, ``picked``, ``state``: :func:`sim.variants.gin_hand._play_on`).
:func:`world` copies it as the deciding seat sees it: its hand, the discard pile, the cards the
opponent took from the pile and still holds; the other unseen cards are shuffled into the
opponent's hand and the stock.  Each candidate is applied on a copy with the turn kernels
(:func:`~sim.variants.gin_hand.draw`, :func:`~sim.variants.gin_hand.finish_turn`) and the hand
is played out by :func:`~sim.variants.gin_hand._play_on` with the deciding seat's heuristic
(its row, search off) at both seats; the value is the deciding seat's score of the hand.  The
heuristic's own choice is kept unless another candidate beats it by ``search_z`` standard
errors of the paired per-world difference (:func:`sim.search.worlds.paired_choice`).
The opponent's hand in a world is a guess of the seat's belief (``search_particles`` > 0:
:mod:`sim.strategies.knock_belief`, weighed by what the opponent took, passed and discarded)
or uniform given the seen cards.  Not modelled: the score of the game (a hand's points are
maximised, in whole games too).
"""

import numpy as np
from numba import njit

from ..core.bits import bit as _bit
from ..core.bits import mask_codes, popcount
from ..core.trace import no_trace
from ..knock.develop import develop
from ..knock.melds import deadwood
from ..core import rng
from ..strategies import knock_belief as belief
from ..search import calibrated
from ..search.worlds import STREAM_WORLD, decision_key, paired_choice, stop_after, shuffle_unseen, world_streams
from ..strategies import knock as K
from ..strategies.knock import discard_score, knock_threshold, rank_discards, wants_upcard
from ..strategies.random_play import coin
from .gin_hand import (C_SCORE, N_CARDS, R_DISCARD_STOCK, S_FORCE_STOCK, S_LIMIT, S_NPILE, S_OWN0, S_SP, S_TO_MOVE, _no_pairs,
                       _play_on, _take_turn, at_wall, deadwoods, draw, finish_turn, heuristic_turn, takes_upcard)

FULL52 = np.uint64(0x1FFF1FFF1FFF1FFF)    # the 52 card bits (suit * 16 + rank)
MAX_CAND = 22                              # 11 discards, each with and without a knock
BELIEF_CALIBRATED = 1                      # ``search_belief``: the calibrated belief
BELIEF_POLICY = 2                          # 2: and weighed by the seat's own heuristic as the opponent's policy
BELIEF_OPPONENT = 3                        # 3: by the opponent's true policy (the opponent known: a yardstick)
POLICY_DRAWS = 8                           # guesses weighed per world by a policy belief
CALIBRATION = calibrated.table("gin", 2)      # its table, a constant of the kernels


@njit(cache=True, inline="always")
def searching(srow):
    """True if the strategy row decides by search."""
    return srow[K.P_SEARCH_WORLDS] > 0


@njit(cache=True)
def rollout_strat(strat, p):
    """The rollouts' strategy matrix: seat ``p``'s row, search off, at every seat; with
    ``search_opp_knock`` k >= 0 the other seats knock as soon as their deadwood is <= k."""
    r = np.empty_like(strat)
    k = strat[p, K.P_SEARCH_OPP_KNOCK]
    for s in range(strat.shape[0]):
        r[s, :] = strat[p, :]
        r[s, K.P_SEARCH_WORLDS] = 0
        if s != p and k >= 0:
            r[s, K.P_KNOCK] = k
            r[s, K.P_KNOCK_MID] = -1
            r[s, K.P_KNOCK_LATE] = -1
            r[s, K.P_GIN_AFTER] = -1
    return r


@njit(cache=True)
def model_row(strat, p):
    """The opponents' policy in seat ``p``'s policy belief: the opponent's own row with
    ``search_belief`` 3 (the opponent known), else ``p``'s (its heuristic)."""
    return strat[1 - p] if strat[p, K.P_SEARCH_BELIEF] == BELIEF_OPPONENT else strat[p]


@njit(cache=True)
def seen_by(p, extra, hands, pile, picked, state):
    """What seat ``p`` knows of the cards: ``(unseen, known)``, the masks of the cards it has
    not seen and of the cards the opponent took from the pile and still holds.  ``extra``: a
    card mask ``p`` holds beyond ``hands[p]`` (the card it drew this turn)."""
    pile_mask = np.uint64(0)
    for i in range(state[S_NPILE]):
        pile_mask |= _bit(pile[i])
    mine = hands[p] | extra
    known = picked[1 - p] & ~pile_mask & ~mine
    return FULL52 & ~(mine | pile_mask | known), known


@njit(cache=True)
def world(srow, orow, p, extra, hands, pile, picked, state, parts, wts, key, w, worlds, buf, hands_w, deck_w, T_value,
          T_total, T_rank):
    """World ``w`` of ``worlds`` of decision ``key`` as seat ``p`` sees the position:
    ``hands_w`` and the stock ``deck_w[state[S_SP]:]`` are filled.  The opponent's hand is a
    guess of ``p``'s belief (``parts``/``wts``, :mod:`sim.knock.belief`; the guesses at evenly
    spaced weights, so the worlds follow the belief) or, with no belief, the known cards and
    random unseen ones; with ``search_belief`` 1 (``srow``'s, the calibrated belief) the guess
    is then developed toward a deadwood real hands hold at this pile length
    (:func:`sim.knock.develop.develop`); with 2 or 3 (a policy belief) :data:`POLICY_DRAWS`
    such guesses are weighed by how likely the opponent's last discard was from each under
    the policy ``orow`` (:func:`_resampled`); the stock is the other unseen cards in a random
    order."""
    o = 1 - p
    unseen, known = seen_by(p, extra, hands, pile, picked, state)
    size = popcount(hands[o])
    st = rng.new_state(key, STREAM_WORLD + 2, w)
    if parts.shape[0] > 0:
        tot = 0.0
        for i in range(parts.shape[0]):
            tot += wts[i]
        u0 = rng.uniform(rng.new_state(key, STREAM_WORLD + 3, 0))
        h = belief.guess(parts, wts, (w + u0) * tot / worlds, unseen, known, size, st)
    else:
        h = belief.guess(np.zeros(1, dtype=np.uint64), np.ones(1), 0.0, unseen, known, size, st)
    b = srow[K.P_SEARCH_BELIEF]
    if b >= BELIEF_CALIBRATED:
        # the pile's length at the turn's start, as the table was measured (``extra`` taken from it: one more)
        pile_len = state[S_NPILE] + (1 if picked[p] & extra else 0)
        h = develop(h, unseen & ~h, known, calibrated.target(CALIBRATION, pile_len, st), st, T_value, T_total, T_rank)
        last = _last_discard(p, extra, pile, picked, state) if b >= BELIEF_POLICY else -1
        if last >= 0:
            h = _resampled(h, orow, last, picked[p], srow[K.P_SEARCH_BETA], unseen, known, size, pile_len, st,
                           T_value, T_total, T_rank)
    hands_w[p] = hands[p]
    hands_w[o] = h
    n = shuffle_unseen(unseen & ~h, key, w, buf)
    sp = state[S_SP]
    for i in range(n):
        deck_w[sp + i] = buf[i]


@njit(cache=True)
def _last_discard(p, extra, pile, picked, state):
    """The card the opponent of seat ``p`` discarded on its last turn (-1: it has not had one):
    the pile's top, or ``extra`` when ``p`` took it from there this turn."""
    if state[S_OWN0 + 1 - p] == 0:
        return -1
    if picked[p] & extra:
        code = np.empty(1, dtype=np.int64)
        mask_codes(extra, code)
        return code[0]
    return pile[state[S_NPILE] - 1] if state[S_NPILE] > 0 else -1


@njit(cache=True)
def _discard_weight(orow, h, d, opp_picked, beta, T_value, T_total, T_rank):
    """How likely the policy ``orow`` was to discard ``d`` from ``h`` plus ``d``:
    ``exp(-beta * (its score of d - its best score))`` (its discard score,
    :func:`sim.strategies.knock.discard_score`; 1 when ``d`` is its choice or tied with it)."""
    hand = h | _bit(d)
    near_w, opp_w = orow[K.P_NEAR_W], orow[K.P_OPP_W]
    best = 1e18
    mine = 0.0
    codes = np.empty(11, dtype=np.int64)
    for i in range(mask_codes(hand, codes)):
        c = codes[i]
        _, sc = discard_score(hand, c, near_w, opp_w, opp_picked, T_value, T_total, T_rank)
        best = min(best, sc)
        if c == d:
            mine = sc
    return np.exp(-beta * (mine - best))


@njit(cache=True)
def _resampled(h, orow, d, opp_picked, beta, unseen, known, size, pile_len, st, T_value, T_total, T_rank):
    """The policy belief: ``h`` and :data:`POLICY_DRAWS` - 1 more developed guesses, one
    chosen with probability proportional to :func:`_discard_weight` (sampling importance
    resampling on the opponent's last discard ``d``)."""
    hs = np.empty(POLICY_DRAWS, dtype=np.uint64)
    ws = np.empty(POLICY_DRAWS, dtype=np.float64)
    tot = 0.0
    for i in range(POLICY_DRAWS):
        if i > 0:
            g = belief.guess(np.zeros(1, dtype=np.uint64), np.ones(1), 0.0, unseen, known, size, st)
            h = develop(g, unseen & ~g, known, calibrated.target(CALIBRATION, pile_len, st), st, T_value, T_total,
                        T_rank)
        hs[i] = h
        ws[i] = _discard_weight(orow, h, d, opp_picked, beta, T_value, T_total, T_rank)
        tot += ws[i]
    u = rng.uniform(st) * tot
    for i in range(POLICY_DRAWS):
        u -= ws[i]
        if u <= 0.0:
            return hs[i]
    return hs[POLICY_DRAWS - 1]


@njit(cache=True)
def new_beliefs(strat, hands, up, st):
    """Each searching seat's belief about its opponent's hand at the deal (``up``: the
    upcard): ``(parts, wts, bst)``, uint64/float64[2, N] and the beliefs' generators
    uint64[2, 1] (N = the largest ``search_particles``; 0 when no seat searches)."""
    n = 0
    for p in range(2):
        if searching(strat[p]):
            n = max(n, int(strat[p, K.P_SEARCH_PARTICLES]))
    parts = np.zeros((2, n), dtype=np.uint64)
    wts = np.ones((2, n), dtype=np.float64)
    bst = np.zeros((2, 1), dtype=np.uint64)
    for p in range(2):
        if n > 0 and searching(strat[p]):
            bst[p, 0] = decision_key(st[p])
            belief.init(parts[p], wts[p], FULL52 & ~(hands[p] | _bit(up)), popcount(hands[1 - p]), bst[p])
    return parts, wts, bst


@njit(cache=True)
def believe_pass(strat, o, card, parts, wts, T_value, T_total, T_rank):
    """Seat ``o`` passed the face-up ``card``: the other seat's belief, if it searches, follows."""
    p = 1 - o
    if parts.shape[1] > 0 and searching(strat[p]):
        belief.passed(parts[p], wts[p], card, strat[p, K.P_SEARCH_BETA], 0.0, T_value, T_total, T_rank)


@njit(cache=True)
def believe(rules, strat, o, top, took, hands, pile, picked, state, parts, wts, bst, T_value, T_total, T_rank):
    """Seat ``o`` ended a turn without ending the hand, having passed (``took`` False) or taken
    the pile's top card ``top`` (-1: none offered); every searching other seat's belief
    follows it (:func:`sim.knock.belief.passed`, :func:`~sim.knock.belief.turn`)."""
    if parts.shape[1] == 0:
        return
    p = 1 - o
    if not searching(strat[p]):
        return
    beta = strat[p, K.P_SEARCH_BETA]
    if top >= 0 and not took:
        believe_pass(strat, o, top, parts, wts, T_value, T_total, T_rank)
    unseen, _ = seen_by(p, np.uint64(0), hands, pile, picked, state)
    belief.turn(parts[p], wts[p], top if took else -1, pile[state[S_NPILE] - 1], unseen, rules[R_DISCARD_STOCK] != 0,
                beta, 0.0, T_value, T_total, T_rank, bst[p])


@njit(cache=True)
def _copy_position(hands_w, pile, picked, state, T_value, T_total, T_rank):
    """A rollout's own copy of a world's position (the stock is only read): hands, pile,
    pickups, state, no draw-discard pairs remembered, and the seats' deadwood."""
    return (hands_w.copy(), pile.copy(), picked.copy(), state.copy(), _no_pairs(),
            deadwoods(hands_w, T_value, T_total, T_rank))


@njit(cache=True)
def _finish_value(rules, rstrat, p, from_pile, card, forbidden, code, knock, hands_w, deck_w, pile, picked, state,
                  T_value, T_cover, T_starts, T_total, T_rank, st_w, row, trace):
    """Seat ``p``'s score when it ends its turn with ``code``/``knock`` in the world
    (``card`` drawn) and the hand is played out (arguments copied, not changed)."""
    hands, pile_c, picked_c, state_c, pairs, dw = _copy_position(hands_w, pile, picked, state, T_value, T_total,
                                                                 T_rank)
    if not finish_turn(rules, rstrat, p, from_pile, card, forbidden, code, knock, hands, dw, deck_w, pile_c,
                       picked_c, pairs, state_c, T_value, T_cover, T_starts, T_total, T_rank, st_w, row, False,
                       trace):
        state_c[S_TO_MOVE] = 1 - p
        _play_on(rules, rstrat, hands, deck_w, pile_c, picked_c, pairs, state_c, T_value, T_cover, T_starts,
                 T_total, T_rank, st_w, row, False, trace)
    return row[C_SCORE + p]


@njit(cache=True)
def _draw_value(rules, rstrat, p, take, dealer, hands_w, deck_w, pile, picked, state, T_value, T_cover, T_starts,
                T_total, T_rank, st_w, row, trace):
    """Seat ``p``'s score when it takes the pile's top card (``take``) or not, and the hand is
    played out.  ``dealer`` >= 0: the first upcard's offer, where passing hands the offer to
    the dealer (``p`` the non-dealer) or the turn to the non-dealer's forced stock draw."""
    hands, pile_c, picked_c, state_c, pairs, dw = _copy_position(hands_w, pile, picked, state, T_value, T_total,
                                                                 T_rank)
    q = p
    if not take and dealer >= 0:
        q = dealer
        if dealer == p or not coin(rstrat[q, K.P_RANDOM_PLAY], st_w[q], wants_upcard(
                rstrat[q], hands[q], dw[q], pile_c[state_c[S_NPILE] - 1], T_value, T_total, T_rank)):
            state_c[S_FORCE_STOCK] = 1    # both passed: the non-dealer draws from the stock
            q = 1 - dealer
            state_c[S_TO_MOVE] = q
            _play_on(rules, rstrat, hands, deck_w, pile_c, picked_c, pairs, state_c, T_value, T_cover, T_starts,
                     T_total, T_rank, st_w, row, False, trace)
            return row[C_SCORE + p]
        take = True
    state_c[S_FORCE_STOCK] = 0
    if not _take_turn(rules, rstrat, q, take, hands, dw, deck_w, pile_c, picked_c, pairs, state_c, T_value,
                      T_cover, T_starts, T_total, T_rank, st_w, row, False, trace):
        state_c[S_TO_MOVE] = 1 - q
        _play_on(rules, rstrat, hands, deck_w, pile_c, picked_c, pairs, state_c, T_value, T_cover, T_starts,
                 T_total, T_rank, st_w, row, False, trace)
    return row[C_SCORE + p]


@njit(cache=True)
def _search_buffers(strat, p, st, row):
    """What seat ``p``'s search of one decision works in: the decision's key, the rollouts'
    strategy matrix, an empty trace, the unseen-card buffer, a world's hands and deck, the
    seats' streams in a world and a scratch hand row."""
    return (decision_key(st[p]), rollout_strat(strat, p), no_trace(), np.empty(N_CARDS, dtype=np.int64),
            np.empty(2, dtype=np.uint64), np.zeros(N_CARDS, dtype=np.int64), np.empty((2, 1), dtype=np.uint64),
            np.zeros_like(row))


@njit(cache=True)
def search_take(rules, strat, p, dealer, hands, pile, picked, state, parts, wts, T_value, T_cover, T_starts, T_total,
                T_rank, st, row):
    """Seat ``p``'s choice by search: take the pile's top card?  ``dealer`` >= 0 at the first
    upcard's offer (:func:`_draw_value`), -1 at a later draw."""
    srow = strat[p]
    heur = wants_upcard(srow, hands[p], deadwood(hands[p], T_value, T_total, T_rank), pile[state[S_NPILE] - 1],
                        T_value, T_total, T_rank)
    key, rstrat, trace, buf, hands_w, deck_w, st_w, scratch = _search_buffers(strat, p, st, row)
    worlds = int(srow[K.P_SEARCH_WORLDS])
    vals = np.empty((worlds, 2), dtype=np.float64)
    alive = np.ones(2, dtype=np.bool_)
    nw = 0
    for w in range(worlds):
        world(srow, model_row(strat, p), p, np.uint64(0), hands, pile, picked, state, parts[p], wts[p], key, w, worlds,
              buf, hands_w, deck_w, T_value, T_total, T_rank)
        for a in range(2):
            if not alive[a]:
                continue
            world_streams(key, w, st_w)
            vals[w, a] = _draw_value(rules, rstrat, p, heur if a == 0 else not heur, dealer, hands_w, deck_w, pile,
                                    picked, state, T_value, T_cover, T_starts, T_total, T_rank, st_w, scratch, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, 2, srow[K.P_SEARCH_DROP], alive):
            break
    return heur if paired_choice(vals, nw, 2, srow[K.P_SEARCH_Z], alive) == 0 else not heur


@njit(cache=True, inline="always")
def choose_take(rules, strat, p, dealer, hands, pile, picked, state, parts, wts, T_value, T_cover, T_starts, T_total, T_rank,
                st, row):
    """Does seat ``p`` take the pile's top card: by :func:`search_take` if it searches its
    draws, else by its heuristic."""
    if searching(strat[p]) and int(strat[p, K.P_SEARCH_WHAT]) & 1:
        return search_take(rules, strat, p, dealer, hands, pile, picked, state, parts, wts, T_value, T_cover, T_starts,
                           T_total, T_rank, st, row)
    return coin(strat[p, K.P_RANDOM_PLAY], st[p], takes_upcard(
        strat, p, hands, deadwood(hands[p], T_value, T_total, T_rank), pile, state[S_NPILE], picked, T_value, T_cover,
        T_starts, T_total, T_rank))


@njit(cache=True)
def ranked_discards(srow, hand, forbidden, opp_picked, T_value, T_total, T_rank):
    """The heuristic's discards of ``hand`` for a search, best first (its discard score):
    ``(codes, deadwoods, top, out)`` with ``top`` how many of them the search weighs
    (``search_top`` with ``search_what`` & 2, else 1) and ``out`` the first that leaves no
    deadwood (-1: none)."""
    c11 = np.empty(11, dtype=np.int64)
    d11 = np.empty(11, dtype=np.int64)
    n = rank_discards(srow, hand, forbidden, opp_picked, T_value, T_total, T_rank, c11, d11)
    out = -1
    for i in range(n):
        if d11[i] == 0:
            out = i
            break
    top = int(srow[K.P_SEARCH_TOP]) if int(srow[K.P_SEARCH_WHAT]) & 2 else 1
    return c11, d11, min(n, top), out


@njit(cache=True)
def discard_candidates(srow, hand, forbidden, opp_picked, limit, own_turn, stock_left, T_value, T_total, T_rank,
                       codes, knocks):
    """The candidate ends of a turn for the 11-card ``hand``: the ``search_top`` best discards
    (heuristic score), each with the heuristic's knock choice first and, where the rules
    allow a knock, the other one.  Returns how many (1 when a discard gives gin: that one)."""
    c11, d11, top, out = ranked_discards(srow, hand, forbidden, opp_picked, T_value, T_total, T_rank)
    if out >= 0 and limit >= 0:
        codes[0] = c11[out]
        knocks[0] = 1
        return 1
    what = int(srow[K.P_SEARCH_WHAT])
    nc = 0
    for i in range(top):
        k = 1 if d11[i] <= limit and d11[i] <= knock_threshold(srow, own_turn, stock_left) else 0
        codes[nc] = c11[i]
        knocks[nc] = k
        nc += 1
        if d11[i] <= limit and what & 4:
            codes[nc] = c11[i]
            knocks[nc] = 1 - k
            nc += 1
    return nc


@njit(cache=True)
def search_discard(rules, strat, p, from_pile, card, forbidden, hands, pile, picked, state, parts, wts, T_value, T_cover,
                   T_starts, T_total, T_rank, st, row):
    """Seat ``p``'s discard and knock by search after drawing ``card``: ``(code, knock)``."""
    srow = strat[p]
    codes = np.empty(MAX_CAND, dtype=np.int64)
    knocks = np.empty(MAX_CAND, dtype=np.int64)
    nc = discard_candidates(srow, hands[p] | _bit(card), forbidden, picked[1 - p], state[S_LIMIT],
                            state[S_OWN0 + p], N_CARDS - state[S_SP], T_value, T_total, T_rank, codes, knocks)
    if nc == 1:
        return codes[0], knocks[0]
    key, rstrat, trace, buf, hands_w, deck_w, st_w, scratch = _search_buffers(strat, p, st, row)
    worlds = int(srow[K.P_SEARCH_WORLDS])
    vals = np.empty((worlds, nc), dtype=np.float64)
    alive = np.ones(nc, dtype=np.bool_)
    nw = 0
    for w in range(worlds):
        world(srow, model_row(strat, p), p, _bit(card), hands, pile, picked, state, parts[p], wts[p], key, w, worlds,
              buf, hands_w, deck_w, T_value, T_total, T_rank)
        for a in range(nc):
            if not alive[a]:
                continue
            world_streams(key, w, st_w)
            vals[w, a] = _finish_value(rules, rstrat, p, from_pile, card, forbidden, codes[a], knocks[a], hands_w,
                                      deck_w, pile, picked, state, T_value, T_cover, T_starts, T_total, T_rank,
                                      st_w, scratch, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, nc, srow[K.P_SEARCH_DROP], alive):
            break
    b = paired_choice(vals, nw, nc, srow[K.P_SEARCH_Z], alive)
    return codes[b], knocks[b]


@njit(cache=True)
def searched_turn(rules, strat, p, from_pile, hands, dw, deck, pile, picked, pairs, state, parts, wts, T_value, T_cover,
                  T_starts, T_total, T_rank, st, row, debug, trace):
    """Seat ``p`` draws (``from_pile`` as decided) and ends its turn as :func:`search_discard`
    decides; returns True if the hand ended."""
    card, forbidden = draw(rules, p, from_pile, deck, pile, picked, state, trace)
    code, knock = search_discard(rules, strat, p, from_pile, card, forbidden, hands, pile, picked, state, parts, wts,
                                 T_value, T_cover, T_starts, T_total, T_rank, st, row)
    return finish_turn(rules, strat, p, from_pile, card, forbidden, code, knock, hands, dw, deck, pile, picked,
                       pairs, state, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace)


@njit(cache=True)
def play_on_search(rules, strat, hands, deck, pile, picked, pairs, state, parts, wts, bst, T_value, T_cover, T_starts,
                   T_total, T_rank, st, row, debug, trace):
    """:func:`~sim.variants.gin_hand._play_on` where the searching seats decide their draws,
    discards and knocks by search (at OpenSpiel's wall they play their heuristic); ``parts``,
    ``wts``, ``bst``: the searching seats' beliefs (:func:`new_beliefs`), following every turn."""
    dw = deadwoods(hands, T_value, T_total, T_rank)
    p = state[S_TO_MOVE]
    while True:
        top = pile[state[S_NPILE] - 1] if state[S_NPILE] > 0 and state[S_FORCE_STOCK] == 0 else -1
        n_before = state[S_NPILE]
        if searching(strat[p]) and not at_wall(rules, state):
            from_pile = False
            if top >= 0:
                from_pile = choose_take(rules, strat, p, -1, hands, pile, picked, state, parts, wts, T_value, T_cover,
                                        T_starts, T_total, T_rank, st, row)
            state[S_FORCE_STOCK] = 0
            ended = searched_turn(rules, strat, p, from_pile, hands, dw, deck, pile, picked, pairs, state, parts, wts,
                                  T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace)
        else:
            ended = heuristic_turn(rules, strat, p, hands, dw, deck, pile, picked, pairs, state, T_value, T_cover,
                                   T_starts, T_total, T_rank, st, row, debug, trace)
        if ended:
            return
        believe(rules, strat, p, top, state[S_NPILE] == n_before, hands, pile, picked, state, parts, wts, bst,
                T_value, T_total, T_rank)
        p = 1 - p
        state[S_TO_MOVE] = p
