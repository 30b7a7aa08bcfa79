"""The open-melding engine's decision interface and its ``search`` player (:mod:`sim.search`).

A seat whose strategy row has ``search_worlds`` > 0 (and plays no random moves) decides its
discard by simulation; its draw and its plays are its heuristic's
(:func:`sim.open.open_rummy.turn_plays`).  The decision:

* :func:`candidates`: the legal discards (the engine's ``allowed``), the heuristic's own choice
  first, then the next ``search_top`` - 1 by the heuristic's discard key (the rule in force,
  :func:`sim.strategies.open_play.discard_key`; a joker only for a seat that does not keep
  them);
* :func:`world`: a copy of the position as the deciding seat sees it after its plays: its own
  hand, the pile and the table (public), the cards an opponent took from the pile and still
  holds (``known``, followed by :func:`play_on_search`) kept with that opponent; every other
  card of the opponents' hands and of the stock shuffled (:func:`sim.search.worlds.shuffle_codes`,
  two packs as codes) and dealt back, the opponents' hand sizes kept;
* :func:`value` (apply + play out): the candidate discarded on a copy of the world by the
  engine's own :func:`~sim.open.open_rummy.turn_end`, the hand played on by
  :func:`~sim.open.open_rummy.play_on` with the deciding seat's row (search off) at every seat;
  the value is the deciding seat's score of the hand (its points column: the winner's points,
  or minus its penalty).

The search loop (:func:`search_discard`) is :mod:`sim.search`'s: a key per decision, per world
the seats' rollout streams and the restock stream shared by every candidate (common random
numbers), racing (:func:`~sim.search.worlds.stop_after`) and the heuristic's choice kept unless
another candidate beats it by ``search_z`` standard errors of the paired difference
(:func:`~sim.search.worlds.paired_choice`).  Not modelled: which cards the opponents' past
discards and passes make unlikely (the worlds are uniform given what the seat has seen), the
score of the whole game (a hand's points are maximised in whole games too).
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.columns import COL_SCORE
from ..search.worlds import STREAM_WORLD, decision_buffers, paired_choice, shuffle_codes, stop_after, world_streams
from ..strategies import open_play as S
from . import open_plan_layout as L
from . import open_rummy as R
from .jit import kernel, noalloc

MAX_CAND = 16          # search_top's bound


@njit(cache=True, _nrt=False, inline="always")
def searching(srow):
    """True if the strategy row decides its discards by search."""
    return srow[S.P_SEARCH_WORLDS] > 0 and srow[S.P_RANDOM_PLAY] == 0


@noalloc
def any_searching(strat, seats):
    """Does a seat in play search?"""
    for i in range(seats.shape[0]):
        if searching(strat[seats[i]]):
            return True
    return False


@noalloc
def _listed(cands, n, c):
    for k in range(n):
        if cands[k] == c:
            return True
    return False


@noalloc
def candidates(srow, hand, allowed, vals, ace_high, fewest_opp, heur, cands):
    """The candidate discards into ``cands``: ``heur`` (the heuristic's choice) first, then the
    best others by the heuristic's key (its tie rules: higher rank, then suits S H D C), up to
    ``search_top``; returns how many."""
    rule = 0.0 if S.opp_close(srow, S.P_DISCARD_OPP, fewest_opp) else srow[S.P_DISCARD_RULE]
    cands[0] = heur
    n = 1
    top = min(int(srow[S.P_SEARCH_TOP]), cands.shape[0])
    while n < top:
        best = -1
        best_key = -(np.int64(1) << 40)
        for r in range(12, -1, -1):
            for s in range(4):
                c = (s << 4) + r
                if allowed[c] == 0 or _listed(cands, n, c):
                    continue
                k = S.discard_key(srow, hand, c, vals, ace_high, rule)
                if k > best_key:
                    best_key = k
                    best = c
        if (allowed[13] != 0 and srow[S.P_KEEP_JOKERS] == 0 and not _listed(cands, n, 13)
                and (best < 0 or S.discard_key(srow, hand, 13, vals, ace_high, rule) > best_key)):
            best = 13
        if best < 0:
            break
        cands[n] = best
        n += 1
    return n


@kernel
def world(i, hands, deck, state, known, key, w, buf, hands_w, deck_w):
    """World ``w`` of decision ``key`` as local seat ``i`` sees the position: ``hands_w`` (its
    own hand; each opponent's ``known`` cards and random unseen ones, its size kept) and
    ``deck_w`` (the stock ``deck_w[state[S_SP]:]``: the other unseen cards in a random order)."""
    m = hands.shape[0]
    sp = state[R.S_SP]
    n = 0
    for j in range(m):
        if j != i:
            for c in range(64):
                for _ in range(hands[j, c] - known[j, c]):
                    buf[n] = c
                    n += 1
    for k in range(sp, deck.shape[0]):
        buf[n] = deck[k]
        n += 1
    shuffle_codes(buf, n, key, w)
    n = 0
    for j in range(m):
        for c in range(64):
            hands_w[j, c] = hands[j, c] if j == i else known[j, c]
        if j != i:
            for _ in range(hands[j, :].sum() - known[j, :].sum()):
                hands_w[j, buf[n]] += 1
                n += 1
    for k in range(deck.shape[0]):
        deck_w[k] = deck[k]
    for k in range(sp, deck.shape[0]):
        deck_w[k] = buf[n]
        n += 1


@kernel
def value(cfg, rstrat, seats, i, code, taken, before, hands_w, deck_w, pile, state, tab, tabs, mr, key, w, st_w,
          row, trace):
    """Local seat ``i``'s score when it discards ``code`` in the world (``hands_w``, ``deck_w``)
    and the hand is played out by ``rstrat`` (arguments copied, not changed)."""
    hands = hands_w.copy()
    deck = deck_w.copy()
    pile_c = pile.copy()
    state_c = state.copy()
    tab_c = tab.copy()
    goal = np.zeros(L.GOAL_WIDTH, dtype=np.int64)
    plan = np.zeros(L.PLAN_WIDTH, dtype=np.int64)
    allowed = np.zeros(64, dtype=np.int64)
    counts = np.zeros(seats.shape[0], dtype=np.int64)
    world_streams(key, w, st_w)
    dst = rng.new_state(key, STREAM_WORLD + 1, w)
    row[:] = 0
    if not R.turn_end(cfg, seats, i, hands, deck, pile_c, state_c, tab_c, tabs, mr, counts, row, False, trace, taken,
                      before, code):
        state_c[R.S_TO_MOVE] = (i + 1) % seats.shape[0]
        R.play_on(cfg, rstrat, seats, hands, deck, pile_c, state_c, tab_c, tabs, mr, goal, plan, allowed, counts,
                  dst, st_w, row, False, trace)
    return row[COL_SCORE + seats[i]]


@kernel
def search_discard(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, taken, before, heur, cands, nc,
                   known, st, row):
    """Local seat ``i``'s discard by search among ``cands[:nc]`` (``heur`` = ``cands[0]``)."""
    srow = strat[seats[i]]
    key, rstrat, trace, vals, alive, buf, st_w, scratch = decision_buffers(strat, seats[i], S.P_SEARCH_WORLDS, st, nc,
                                                                           deck.shape[0], row)
    worlds = vals.shape[0]
    hands_w = np.empty_like(hands)
    deck_w = np.empty_like(deck)
    nw = 0
    for w in range(worlds):
        world(i, hands, deck, state, known, key, w, buf, hands_w, deck_w)
        for a in range(nc):
            if alive[a]:
                vals[w, a] = value(cfg, rstrat, seats, i, cands[a], taken, before, hands_w, deck_w, pile, state, tab,
                                   tabs, mr, key, w, st_w, scratch, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, nc, srow[S.P_SEARCH_DROP], alive):
            break
    return cands[paired_choice(vals, nw, nc, srow[S.P_SEARCH_Z], alive)]


@kernel
def searched_turn(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed, counts, dst, st,
                  row, debug, trace, known):
    """Local seat ``i``'s turn (:func:`sim.open.open_rummy._take_turn`) with its discard chosen
    by :func:`search_discard`; returns True if the hand ended."""
    seat = seats[i]
    srow = strat[seat]
    vals = tabs[1]
    taken, before, fewest_opp = R.turn_plays(cfg, srow, st[seat], seat, i, hands, deck, pile, state, tab, mr, vals,
                                             goal, plan, dst, trace)
    code = R.heuristic_discard(cfg, srow, st[seat], hands[i], taken, allowed, vals, fewest_opp)
    if code >= 0:
        cands = np.empty(MAX_CAND, dtype=np.int64)
        nc = candidates(srow, hands[i], allowed, vals, cfg[R.C_ACE_HIGH], fewest_opp, code, cands)
        if nc > 1:
            code = search_discard(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, taken, before, code,
                                  cands, nc, known, st, row)
    return R.turn_end(cfg, seats, i, hands, deck, pile, state, tab, tabs, mr, counts, row, debug, trace, taken,
                      before, code)


@kernel
def play_on_search(cfg, strat, seats, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed, counts, dst, st,
                   row, debug, trace):
    """:func:`sim.open.open_rummy.play_on` where the searching seats decide their discards by
    search; follows the cards each seat took from the pile and still holds (``known``: a
    take is seen as the pile's top gone at the end of the turn, no restock between)."""
    m = seats.shape[0]
    known = np.zeros((m, 64), dtype=np.int64)
    i = state[R.S_TO_MOVE]
    while True:
        n0 = state[R.S_NPILE]
        top = pile[n0 - 1] if n0 > 0 else -1
        r0 = state[R.S_RESTOCKS]
        if searching(strat[seats[i]]):
            ended = searched_turn(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed,
                                  counts, dst, st, row, debug, trace, known)
        else:
            ended = R._take_turn(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed,
                                 counts, dst, st, row, debug, trace)
        if ended:
            return
        if top >= 0 and state[R.S_RESTOCKS] == r0 and state[R.S_NPILE] == n0:
            known[i, top] += 1
        for c in range(64):
            known[i, c] = min(known[i, c], hands[i, c])
        i = (i + 1) % m
        state[R.S_TO_MOVE] = i
