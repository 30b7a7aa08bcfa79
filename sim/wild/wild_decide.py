"""The closed wild-card games' decision interface and their ``search`` player (:mod:`sim.search`):
Ramino Klop, Wildcard Rummy and Cincinnati.

A searching seat (strategy row with ``search_worlds`` > 0) draws as its heuristic says, then
decides the end of its turn by simulation, among :func:`candidates` (the heuristic's own move
first; ``search_what`` says which decisions are searched, default 1: the discard only):

* ``& 1``: which card to discard: the heuristic's, then the others by the exact deadwood they
  leave (:func:`sim.wild.wild_discards.ws_discards`; wilds included: keep or release them),
  ``search_top`` in all; each ends the turn as the heuristic would (Ramino: rummy at 0, its
  knock rule; the go-out games: a seat that goes out by its heuristic is not searched);
* ``& 2``: the end: Ramino's knock flipped where the rules allow one; in the go-out games
  hold instead of going out (with the discards above) or go out with any value (Cincinnati).

:func:`world` copies the position as the deciding seat sees it: its own hand, the discard
pile, the cards each opponent took from the pile and still holds (``picked``, followed by
:func:`play_on_search`); the other unseen cards (codes, any number of packs) are shuffled
(:func:`sim.search.worlds.shuffle_codes`) into the opponents' hands (their sizes kept) and the
stock.  :func:`play_out` applies a candidate on a copy with the engine's own turn kernel
(:func:`sim.wild.wild_turn.take_turn`, mode FINISH) and plays the hand out with :func:`~sim.wild.wild_turn.play_on`,
every seat playing the deciding seat's row with search off; the value is the deciding seat's
score less the mean score of the other seats in play (the per-hand measure of ``compare``).
The heuristic's move stays unless another beats it by ``search_z`` standard errors of the
paired per-world difference (:func:`sim.search.worlds.paired_choice`).  Not modelled: what the
opponents' discards and passes say about their hands (worlds are uniform given what is seen),
and the score of a whole game (a hand's points are maximised in whole games too).

Rule: no ``sim.variants`` import; :mod:`sim.wild.closed_wild` dispatches here when a seat searches.
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.columns import COL_SCORE
from ..search.worlds import decision_buffers, paired_choice, shuffle_codes, stop_after, world_streams
from ..strategies import wild as W
from .wild_discards import ws_discards
from .wild_melds import ws_deadwood
from .wild_turn import (A_CODE, A_D, A_FORBIDDEN, A_FULL, A_HURRY, A_KIND, A_MODE, A_RELEASE, A_VALUE, C_GAME,
                        C_KNOCK_BELOW, DRAW, END_NONE, FINISH, GAME_CINCINNATI, GAME_RAMINO, PLAY, S_NPILE, S_OWN, S_SP,
                        S_TAKES, S_TO_MOVE, go_out_move, new_act, play_on, take_turn)

MAX_CAND = 24            # up to 11 discards, each with its end flipped, and one more way out
STREAM_RESTOCK = 60      # a rollout's restock shuffles (after the seats' rollout streams, sim.search.worlds)
# a candidate's row: the move's part of take_turn's ``act`` (end kind, discard, deadwood, value, knock)
K_KIND, K_CODE, K_D, K_VALUE, K_KNOCK = range(5)


@njit(cache=True, inline="always")
def searching(srow):
    """True if the strategy row decides by search."""
    return srow[W.P_SEARCH_WORLDS] > 0


@njit(cache=True)
def searching_seats(strat, seats):
    """True if some seat in play searches."""
    for s in seats:
        if searching(strat[s]):
            return True
    return False


@njit(cache=True)
def _add(cand, n, kind, code, d, value, knock):
    cand[n, K_KIND], cand[n, K_CODE], cand[n, K_D], cand[n, K_VALUE], cand[n, K_KNOCK] = kind, code, d, value, knock
    return n + 1


@njit(cache=True)
def _ranked_discards(cand, n, ws, forbidden, order, top, skip):
    """Add the held codes but ``forbidden`` and ``skip`` as holding discards (END_NONE), by
    the exact deadwood they leave, ties to the first in ``order``, until ``n`` = ``top``."""
    after = np.empty(64, dtype=np.int64)
    ws_discards(ws, after)
    if forbidden >= 0:
        after[forbidden] = -1
    if skip >= 0:
        after[skip] = -1
    while n < top:
        best = -1
        for c in order:
            if after[c] >= 0 and (best < 0 or after[c] < after[best]):
                best = c
        if best < 0:
            break
        n = _add(cand, n, END_NONE, best, after[best], 0, -1)
        after[best] = -1
    return n


@njit(cache=True)
def candidates(cfg, srow, ws, own, tabs, act, cand):
    """The candidate ends of the turn of the hand ``ws`` (drawn card in) into ``cand``
    int64[MAX_CAND, 5] (K_* columns), the heuristic's move (in ``act`` after a DRAW,
    :func:`sim.wild.wild_turn.take_turn`) first; returns how many (1: nothing to search)."""
    what = int(srow[W.P_SEARCH_WHAT])
    kind, code, d, value = act[A_KIND], act[A_CODE], act[A_D], act[A_VALUE]
    full, forbidden, hurry, release = act[A_FULL], act[A_FORBIDDEN], act[A_HURRY] != 0, act[A_RELEASE] != 0
    n = _add(cand, 0, kind, code, d, value, -1)
    out = kind != END_NONE and cfg[C_GAME] != GAME_RAMINO
    if out and not what & 2:
        return n
    top = int(srow[W.P_SEARCH_TOP]) if what & 1 else 1
    n = _ranked_discards(cand, n, ws, forbidden, tabs[4], top + (1 if out else 0), -1 if out else code)
    if not what & 2:
        return n
    if cfg[C_GAME] == GAME_RAMINO:
        for a in range(n):
            da = cand[a, K_D]
            if 0 < da < cfg[C_KNOCK_BELOW]:
                k = hurry or da <= W.knock_threshold(srow, own)
                n = _add(cand, n, END_NONE, cand[a, K_CODE], da, 0, 0 if k else 1)
    elif cfg[C_GAME] == GAME_CINCINNATI and not out:
        k2, c2, v2 = go_out_move(cfg, srow, ws, full, forbidden, own, tabs, code if full > 0 else -1,
                                 d if full > 0 else -1, release, True)
        if k2 != END_NONE:
            n = _add(cand, n, k2, c2, 0, v2, -1)
    return n


@njit(cache=True)
def world(i, seats, wss, deck, pile, state, picked, pack, key, w, buf, wss_w, deck_w, dw_w):
    """World ``w`` of decision ``key`` as local seat ``i`` sees the position: ``wss_w`` (its
    own hand kept, each opponent's known cards ``picked`` plus random unseen ones up to its
    hand size), the stock ``deck_w[state[S_SP]:]`` (the other unseen cards in a random order)
    and the seats' deadwood ``dw_w`` are filled.  Returns the number of unseen cards."""
    m = seats.shape[0]
    cnt = np.zeros(64, dtype=np.int64)
    for c in pack:
        cnt[c] += 1
    cnt -= wss[i, :64]
    for k in range(state[S_NPILE]):
        cnt[pile[k]] -= 1
    for j in range(m):
        if j != i:
            cnt -= picked[j]
    n = 0
    for c in range(64):
        for _ in range(cnt[c]):
            buf[n] = c
            n += 1
    shuffle_codes(buf, n, key, w)
    wss_w[:, :] = wss
    k = 0
    for j in range(m):
        if j == i:
            continue
        size = wss[j, :64].sum()
        wss_w[j, :64] = picked[j]
        for _ in range(size - picked[j].sum()):
            wss_w[j, buf[k]] += 1
            k += 1
        dw_w[j] = ws_deadwood(wss_w[j])
    sp = state[S_SP]
    if n - k != deck.shape[0] - sp:
        raise ValueError("world: the unseen cards do not fill the stock")
    deck_w[sp:] = buf[k:n]
    return n


@njit(cache=True)
def play_out(cfg, rstrat, seats, i, cand, a, act, wss_w, dw_w, deck_w, pile, state, tabs, key, w, st_w, row, trace):
    """Local seat ``i`` ends its turn with candidate ``a`` (``act``: its turn after the draw)
    on a copy of the world and every seat plays on by ``rstrat``; returns its score less the
    mean score of the others in play."""
    wss = wss_w.copy()
    dw = dw_w.copy()
    deck = deck_w.copy()
    pile_c = pile.copy()
    state_c = state.copy()
    fin = act.copy()
    fin[A_MODE] = FINISH
    fin[A_KIND:] = cand[a]
    dst = rng.new_state(key, STREAM_RESTOCK, w)
    if not take_turn(cfg, rstrat, seats, i, wss, dw, deck, pile_c, state_c, tabs, dst, st_w, row, False, trace, fin):
        state_c[S_TO_MOVE] = (i + 1) % seats.shape[0]
        play_on(cfg, rstrat, seats, wss, dw, deck, pile_c, state_c, tabs, dst, st_w, row, False, trace)
    m = seats.shape[0]
    others = 0.0
    for j in range(m):
        if j != i:
            others += row[COL_SCORE + seats[j]]
    return row[COL_SCORE + seats[i]] - others / max(m - 1, 1)


@njit(cache=True)
def search_move(cfg, strat, seats, i, wss, dw, deck, pile, state, picked, tabs, st, row, act, cand, nc):
    """The chosen candidate of ``cand[:nc]`` by search (index; 0 the heuristic's)."""
    p = seats[i]
    srow = strat[p]
    key, rstrat, trace, vals, alive, buf, st_w, scratch = decision_buffers(strat, p, W.P_SEARCH_WORLDS, st, nc,
                                                                           deck.shape[0], row)
    worlds = vals.shape[0]
    wss_w = np.empty_like(wss)
    deck_w = deck.copy()
    dw_w = dw.copy()
    nw = 0
    for w in range(worlds):
        world(i, seats, wss, deck, pile, state, picked, tabs[0], key, w, buf, wss_w, deck_w, dw_w)
        for a in range(nc):
            if alive[a]:
                world_streams(key, w, st_w)
                vals[w, a] = play_out(cfg, rstrat, seats, i, cand, a, act, wss_w, dw_w, deck_w, pile, state, tabs,
                                      key, w, st_w, scratch, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, nc, srow[W.P_SEARCH_DROP], alive):
            break
    return paired_choice(vals, nw, nc, srow[W.P_SEARCH_Z], alive)


@njit(cache=True)
def searched_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, picked, tabs, dst, st, row, debug, trace, act):
    """Local seat ``i`` draws by its heuristic and ends its turn as :func:`search_move`
    decides among the :func:`candidates`; returns True if the hand ended."""
    act[A_MODE] = DRAW
    take_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace, act)
    srow = strat[seats[i]]
    cand = np.empty((MAX_CAND, 5), dtype=np.int64)
    nc = candidates(cfg, srow, wss[i], state[S_OWN + i], tabs, act, cand)
    a = 0
    if nc > 1:
        a = search_move(cfg, strat, seats, i, wss, dw, deck, pile, state, picked, tabs, st, row, act, cand, nc)
    act[A_MODE] = FINISH
    act[A_KIND:] = cand[a]
    ended = take_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace, act)
    act[A_MODE] = PLAY
    return ended


@njit(cache=True)
def play_on_search(cfg, strat, seats, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace):
    """:func:`~sim.wild.wild_turn.play_on` where the searching seats end their turns by search;
    follows the cards each seat took from the pile and still holds (``picked``: a discard of
    that code is taken to be the picked copy)."""
    m = seats.shape[0]
    picked = np.zeros((m, 64), dtype=np.int64)
    act = new_act()
    i = state[S_TO_MOVE]
    while True:
        top = pile[state[S_NPILE] - 1] if state[S_NPILE] > 0 else -1
        takes = state[S_TAKES + i]
        if searching(strat[seats[i]]):
            ended = searched_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, picked, tabs, dst, st, row, debug,
                                  trace, act)
        else:
            ended = take_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace, act)
        if ended:
            return
        if state[S_TAKES + i] > takes:
            picked[i, top] += 1
        c = pile[state[S_NPILE] - 1]
        if picked[i, c] > 0:
            picked[i, c] -= 1
        i = (i + 1) % m
        state[S_TO_MOVE] = i
