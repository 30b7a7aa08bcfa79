"""The arrangements shown at the end of a closed wild-card hand, as ``show`` trace rows
(:mod:`sim.knock.shown` gives the row layout: seat, card code, meld index or -1 for deadwood).

:func:`log_seats` (traced hands only) takes every seat's hand as the engine holds it at the
end, runs the engine's own exact walk over arrangements (:func:`sim.wild.wild_arrange._min_deadwood_into`,
the walk behind ``ws_deadwood``) and logs the arrangement its best records describe, wilds
placed as :func:`sim.wild.wild_melds._arrangement` places them: each meld's wilds where its
naturals leave gaps, spare wilds to melds with room (a run grows at its high end first), a
set's naturals by suit then its wilds, a run low to high with each wild where it stands.  It
raises ValueError unless the arrangement counts the deadwood the engine settled.
"""

import numpy as np
from numba import njit

from ..core.cards import JOKER, SUIT_SHIFT
from ..core.trace import E_SHOW, log
from .wild_arrange import _P_ACE_HIGH, _P_RUN_MAX, _P_SET_MAX, MAX_DEPTH, _min_deadwood_into

MAX_RUN = 16


@njit(cache=True)
def _naturals(rec, nat):
    """The natural codes of a set or run record into ``nat`` (a run low to high, its
    positions after the codes at ``nat[MAX_RUN:]``); returns their number."""
    kind, s, a, b, step = rec[0], rec[1], rec[2], rec[3], rec[5]
    k = 0
    if kind == 0:
        for t in range(4):
            for _ in range((b >> (2 * t)) & 3):
                nat[k] = SUIT_SHIFT * t + a
                k += 1
        return k
    for d in range(14):
        if (b >> d) & 1:
            p = a + step * d
            j = k
            while j > 0 and nat[MAX_RUN + j - 1] > p:      # insertion: positions ascending
                nat[MAX_RUN + j] = nat[MAX_RUN + j - 1]
                j -= 1
            nat[MAX_RUN + j] = p
            k += 1
    for j in range(k):
        nat[j] = SUIT_SHIFT * s + nat[MAX_RUN + j] % 13
    return k


@njit(cache=True)
def _log_run(trace, seat, i, s, nat, k, wilds, w, top_high):
    """Log run meld ``i``: naturals at their positions, the ``w`` wilds in the gaps, then
    beyond the high end (down from the low end once the top is reached)."""
    lo, hi = nat[MAX_RUN], nat[MAX_RUN + k - 1]
    slots = np.empty(MAX_RUN, dtype=np.int64)
    n_slots = 0
    j = 0
    for p in range(lo, hi + 1):
        if j < k and nat[MAX_RUN + j] == p:
            j += 1
        else:
            slots[n_slots] = p
            n_slots += 1
    while n_slots < w:
        top = 13 if top_high and lo > 0 else 12
        if hi < top:
            hi += 1
            slots[n_slots] = hi
        else:
            lo -= 1
            slots[n_slots] = lo
        n_slots += 1
    j = 0
    for p in range(lo, hi + 1):
        if j < k and nat[MAX_RUN + j] == p:
            log(trace, E_SHOW, seat, SUIT_SHIFT * s + p % 13, i)
            j += 1
            continue
        for x in range(w):
            if slots[x] == p:
                log(trace, E_SHOW, seat, wilds[x], i)


@njit(cache=True)
def log_arrangement(trace, seat, ws, P, vals, dw):
    """Log the arrangement of the hand in workspace ``ws`` (not changed) found by the
    engine's walk; ``dw``: the deadwood the engine settled it at (checked)."""
    recs = np.zeros((MAX_DEPTH, 6), dtype=np.int64)
    d, n = _min_deadwood_into(ws.copy(), recs)
    left = ws[:64].copy()
    pool = np.empty(64, dtype=np.int64)
    n_pool = 0
    for _ in range(left[JOKER]):
        pool[n_pool] = JOKER
        n_pool += 1
    left[JOKER] = 0
    nat = np.zeros((MAX_DEPTH, 2 * MAX_RUN), dtype=np.int64)
    info = np.zeros((MAX_DEPTH, 4), dtype=np.int64)       # kind, suit, naturals, wilds
    nm = 0
    for r in range(n):
        if recs[r, 0] == 2:             # a Wildcard 2 played wild
            left[recs[r, 2]] -= 1
            pool[n_pool] = recs[r, 2]
            n_pool += 1
            continue
        k = _naturals(recs[r], nat[nm])
        for j in range(k):
            left[nat[nm, j]] -= 1
        info[nm, 0], info[nm, 1], info[nm, 2], info[nm, 3] = recs[r, 0], recs[r, 1], k, recs[r, 4]
        nm += 1
    extra = n_pool - info[:nm, 3].sum()
    for i in range(nm):
        room = (P[_P_SET_MAX] if info[i, 0] == 0 else P[_P_RUN_MAX]) - info[i, 2] - info[i, 3]
        take = min(room, max(extra, 0))
        info[i, 3] += take
        extra -= take
    wilds = np.empty(MAX_RUN, dtype=np.int64)
    for i in range(nm):
        w = info[i, 3]
        for x in range(w):
            n_pool -= 1
            wilds[x] = pool[n_pool]
        if info[i, 0] == 0:
            for j in range(info[i, 2]):
                log(trace, E_SHOW, seat, nat[i, j], i)
            for x in range(w):
                log(trace, E_SHOW, seat, wilds[x], i)
        else:
            _log_run(trace, seat, i, info[i, 1], nat[i], info[i, 2], wilds, w, P[_P_ACE_HIGH] != 0)
    value = 0
    for c in range(64):
        for _ in range(left[c]):
            log(trace, E_SHOW, seat, c, -1)
            value += vals[c]
    for x in range(n_pool):
        log(trace, E_SHOW, seat, pool[x], -1)
        value += vals[pool[x]]
    if d != dw or value != dw:
        raise ValueError("trace: the shown arrangement does not count the settled deadwood")


@njit(cache=True)
def log_seats(trace, seats, wss, dw, ender, P, vals):
    """Every local seat's arrangement, from ``ender`` on in play order (``dw``: settled
    deadwood per local seat)."""
    m = seats.shape[0]
    for k in range(m):
        i = (ender + k) % m
        log_arrangement(trace, seats[i], wss[i], P, vals, dw[i])
