"""Every discard of a hand at once: the kernel behind ``best_discard``, ``go_out`` and the
game kernels' discard choice (``ws_discards``), on the workspace of ``sim.wild.wild_arrange``.

A walk over the whole hand's arrangements gives its deadwood ``d0`` and a best arrangement.  ``d0`` less a
card's value is a lower bound of the deadwood after discarding it (put the card back as
deadwood), reached by every card that arrangement leaves out: a natural, or a wild while one
lies unplaced.  The other cards (those in its cores, the wilds when every wild is needed) are
the targets of one more walk of the whole hand in discard mode: each leaf, an arrangement of
the hand, is one of the hand less each target it leaves out, scored so for every target; a
branch is cut when it can improve no target still above its lower bound.  Each target starts
from an upper bound: the best arrangement with the target's core given up.
"""

from __future__ import annotations

from numba import njit

from .wild_arrange import (_P_RUN_MAX, _P_SET_MAX, _P_TWOS_WILD, _P_WILD_VALUE, _W_BEST, _W_BSTACK,
                          _W_MODE, _W_P, _W_PLACED, _W_TGT, _W_TLB, _W_TOUT, _W_VALS, _cost,
                          _meld_back, _ws_arrange, new_workspace)


@njit(cache=True)
def _core_terms(ws, rec, set_max, run_max):
    """(value of the naturals, wilds needed, room left) of the core record ``ws[rec:]``."""
    kind, s, a, b, m = ws[rec], ws[rec + 1], ws[rec + 2], ws[rec + 3], ws[rec + 4]
    value = 0
    k = 0
    span = 0
    if kind == 0:
        for t in range(4):
            value += ((b >> (2 * t)) & 3) * ws[_W_VALS + (t << 4) + a]
            k += (b >> (2 * t)) & 3
        return value, m, set_max - k - m
    d = 0
    while b:
        if b & 1:
            p = a + ws[rec + 5] * d
            value += ws[_W_VALS + (s << 4) + (p if p < 13 else 0)]
            span = d + 1
        b >>= 1
        d += 1
    return value, m, run_max - (span if span > 3 else 3)


@njit(cache=True)
def _core_holds(ws, rec, x):
    """The core record ``ws[rec:]`` holds the natural card ``x``."""
    kind, s, a, b = ws[rec], ws[rec + 1], ws[rec + 2], ws[rec + 3]
    if kind == 0:
        return (x & 15) == a and ((b >> (2 * (x >> 4))) & 3) > 0
    if kind != 1 or (x >> 4) != s:
        return False
    d = 0
    while b:
        if b & 1:
            p = a + ws[rec + 5] * d
            if (p if p < 13 else 0) == (x & 15):
                return True
        b >>= 1
        d += 1
    return False


@njit(cache=True)
def _drop_bound(ws, x, dead, used, cap, wild, wv):
    """Upper bound of the deadwood of the best arrangement less card ``x``: that
    arrangement with ``x`` left out and, if ``x`` sits in a core (a wild: if the cores need
    every wild), that core given up (its other naturals dead, its wilds free)."""
    set_max = ws[_W_P + _P_SET_MAX]
    run_max = ws[_W_P + _P_RUN_MAX]
    is_wild = x == 13 or (ws[_W_P + _P_TWOS_WILD] == 1 and (x & 15) == 1 and ws[_W_PLACED + 64 + x] > 0)
    v = ws[_W_VALS + x]
    best = _cost(dead, used, cap, wild - 1, wv) if is_wild else 1 << 40
    for i in range(ws[_W_BEST + 1]):
        rec = _W_BSTACK + 6 * i
        if ws[rec] == 2:
            continue
        value, m, room = _core_terms(ws, rec, set_max, run_max)
        if is_wild:
            if m > 0:
                best = min(best, _cost(dead + value, used - m, cap - room, wild - 1, wv))
            continue
        if _core_holds(ws, rec, x):
            best = min(best, _cost(dead + value - v, used - m, cap - room, wild, wv))
    return best


@njit(cache=True)
def ws_discards(ws, out):
    """``out`` int64[64]: the exact deadwood of the hand in ``ws[:64]`` less one copy of each
    held code (-1 for codes not held); ``ws`` restored on return.  A walk of the whole hand
    gives its deadwood ``d0``; a card left out of that best arrangement (a natural, or a wild
    while one lies unplaced) is worth ``d0`` less its value, the lower bound of every discard.
    The others are the targets of one more walk of the whole hand in discard mode: each
    leaf is an arrangement of the hand less every target it leaves out."""
    d0 = _ws_arrange(ws, -1)
    wv = ws[_W_P + _P_WILD_VALUE]
    spare = ws[_W_BEST + 2]
    placed = ws[_W_PLACED:_W_PLACED + 128]  # copies in cores; [64 + code]: 2s played wild
    placed[:] = 0
    wild = ws[13]
    used = 0
    cap = 0
    for i in range(ws[_W_BEST + 1]):
        rec = _W_BSTACK + 6 * i
        if ws[rec] == 2:
            placed[64 + ws[rec + 2]] += 1
            wild += 1
        else:
            _meld_back(placed, ws, rec, 1)
            _, m, room = _core_terms(ws, rec, ws[_W_P + _P_SET_MAX], ws[_W_P + _P_RUN_MAX])
            used += m
            cap += room
    n = 0
    for x in range(64):
        out[x] = -1
        if ws[x] == 0:
            continue
        v = ws[_W_VALS + x]
        out[x] = d0 - v
        if x == 13 or placed[64 + x] > 0:
            if spare > 0:
                continue
        elif ws[x] > placed[x]:
            continue
        ws[_W_TGT + 1 + n] = x
        ws[_W_TOUT + n] = _drop_bound(ws, x, d0 - wv * spare, used, cap, wild, wv)
        ws[_W_TLB + n] = d0 - v
        n += 1
    if n > 0:
        ws[_W_TGT] = n
        ws[_W_MODE] = 1
        _ws_arrange(ws, -1)
        ws[_W_MODE] = 0
        for i in range(n):
            out[ws[_W_TGT + 1 + i]] = ws[_W_TOUT + i]


@njit(cache=True)
def _discards(counts, P, vals, out):
    """``out`` int64[64]: deadwood of the hand less one copy of each held code (else -1)."""
    ws = new_workspace(P, vals)
    ws[:64] = counts
    ws_discards(ws, out)
