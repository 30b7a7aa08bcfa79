"""The wild-card meld arrangement kernels behind ``sim.wild.wild_melds`` (whose docstring gives
the rules and the method): a depth-first walk over every arrangement of a hand ("search" in
this project is the search player, :mod:`sim.search`; this is not it).

Kernels take plain arrays: a rule set's parameter vector ``params`` int64[8] (``_P_*``) and
values int64[64], and work in one int64 workspace (``new_workspace``; ``_W_*``: hand counts
in ``ws[:64]`` with index 13 = jokers, parameters, values, best, meld stacks, run offsets,
walk frames, scratch).  The depth-first walk keeps its own stack of frames in the
workspace (no recursion: numba crashed loading recursive kernels from its cache), so every
kernel is cached: a fresh process loads them in well under a second instead of compiling for
~15 s.  A frame holds a node (its first card, dead value, wilds used, room, wilds, undecided
Wildcard 2s, record depth), its phase (sets, runs up, runs down from an ace high, the card
left out) and the phase's counters; it undoes its move when its child returns.  Discard mode
(``sim.wild.wild_discards``) scores the leaves for each target discard instead.  Meld records are
int64 rows
``(kind, suit, anchor, naturals, wilds, direction)``: a set ``(0, -, rank, 2-bit copies per
suit, wilds, 0)``; a run ``(1, suit, anchor position, bitmask of natural offsets from the
anchor, wilds, +1|-1)`` (position 13 = ace high); a 2 played wild ``(2, -, code, 0, 0, 0)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_P_WILD_VALUE, _P_SUIT_LIMIT, _P_SET_MAX, _P_RUN_MAX, _P_ACE_HIGH, _P_TWOS_WILD = range(6)
MAX_DEPTH = 32
# kernel workspace int64[_W_SIZE]: hand counts [0, 64), parameters, values, best (deadwood,
# records, unplaced wilds), stop, meld stacks, run offsets, walk frames, discard scratch
_W_P, _W_VALS, _W_BEST, _W_STOP = 64, 72, 136, 139
_W_STACK = 140
_W_BSTACK = _W_STACK + 6 * MAX_DEPTH
_W_OFFS = _W_BSTACK + 6 * MAX_DEPTH
_W_FR = _W_OFFS + 16 * MAX_DEPTH
# walk frame fields: node (card, dead, used, cap, wild, rem2, depth), phase, move applied,
# run offsets and mask, set counters k and limits a per suit
(_F_C, _F_DEAD, _F_USED, _F_CAP, _F_WILD, _F_REM2, _F_DEPTH, _F_PHASE, _F_APPLIED, _F_N, _F_MASK,
 _F_K, _F_A, _F_I) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 19)
_F_SIZE = 20
_W_PLACED = _W_FR + _F_SIZE * MAX_DEPTH
_W_CODES = _W_PLACED + 128  # the count and the list of the natural codes held, ascending
# the discard walk: mode, copies left out per code, targets (count, codes), their answers
# and lower bounds
_W_MODE = _W_CODES + 65
_W_OUT = _W_MODE + 1
_W_TGT = _W_OUT + 64
_W_TOUT = _W_TGT + 65
_W_TLB = _W_TOUT + 64
_W_ASIDE = _W_TLB + 64  # cards set aside as deadwood: (code, count) pairs
_W_BITS = _W_ASIDE + 128
_W_SIZE = _W_BITS + 4


@njit(cache=True)
def _meld_back(hand, ws, rec, sign):
    """Add ``sign`` copies of the naturals of the meld record ``ws[rec:rec + 6]`` to ``hand``."""
    kind, s, a, b = ws[rec], ws[rec + 1], ws[rec + 2], ws[rec + 3]
    if kind == 0:
        for t in range(4):
            hand[(t << 4) + a] += sign * ((b >> (2 * t)) & 3)
    else:
        step = ws[rec + 5]
        d = 0
        while b:
            if b & 1:
                p = a + step * d
                hand[(s << 4) + (p if p < 13 else 0)] += sign
            b >>= 1
            d += 1


@njit(cache=True)
def _run_offsets(ws, f, o, c, down, run_max, twos, avail):
    """Frame ``f``: the offsets (into ``ws[o:]``) of the naturals a run from ``c`` may take,
    upwards or (an ace played high) downwards from position 13; a Wildcard 2 takes none and
    is skipped (it plays wild instead).  Only as far as ``avail`` wilds can reach: the run
    up to the i-th offset needs at least ``offset - i - 1`` of them, growing with i."""
    s, r = c >> 4, c & 15
    step = -1 if down else 1
    anchor = 13 if down else r
    n = 0
    if not (twos and r == 1):
        for d in range(1, run_max):
            q = anchor + step * d
            if q < 1 or q > 12 or d - n - 1 > avail:
                break
            if ws[(s << 4) + q] > 0 and not (twos and q == 1):
                ws[o + n] = d
                n += 1
    ws[f + _F_N] = n
    ws[f + _F_MASK] = 1 << n  # masks count down: the longest runs first


@njit(cache=True)
def _push(ws, f, i, dead, used, cap, wild, rem2, depth):
    """A child frame after ``f`` whose first card is sought from the ``i``-th code held."""
    g = f + _F_SIZE
    ws[g + _F_I] = i
    ws[g + _F_DEAD] = dead
    ws[g + _F_USED] = used
    ws[g + _F_CAP] = cap
    ws[g + _F_WILD] = wild
    ws[g + _F_REM2] = rem2
    ws[g + _F_DEPTH] = depth


@njit(cache=True)
def _cost(dead, used, cap, wild, wv):
    """Deadwood of an arrangement: dead naturals plus the wilds left unplaced (or 1 << 40
    if its cores need more wilds than there are)."""
    if used > wild:
        return 1 << 40
    free = wild - used - cap
    return dead + (wv * free if free > 0 else 0)


@njit(cache=True)
def _leaf(ws, dead, used, cap, wild, depth, wv):
    """All naturals placed: score the collection of cores; keep it if best so far."""
    d = _cost(dead, used, cap, wild, wv)
    if d < ws[_W_BEST]:
        ws[_W_BEST] = d
        ws[_W_BEST + 1] = depth
        ws[_W_BEST + 2] = max(0, wild - used - cap)
        for i in range(6 * depth):
            ws[_W_BSTACK + i] = ws[_W_STACK + i]


@njit(cache=True)
def _discard_leaf(ws, dead, used, cap, wild, wv, twos):
    """Discard mode leaf: the collection of cores is an arrangement of the hand less a
    target card left out here (a natural counted in ``dead``, a joker or a 2 played wild
    while the cores need one wild fewer); keep the best per target."""
    for i in range(ws[_W_TGT]):
        x = ws[_W_TGT + 1 + i]
        if x == 13 or (twos and (x & 15) == 1):
            if x != 13 and ws[_W_OUT + x] == 0:
                continue
            d = _cost(dead, used, cap, wild - 1, wv)
        else:
            if ws[_W_OUT + x] == 0 or used > wild:
                continue
            d = _cost(dead, used, cap, wild, wv) - ws[_W_VALS + x]
        if d < ws[_W_TOUT + i]:
            ws[_W_TOUT + i] = d


@njit(cache=True)
def _discard_cut(ws, dead, twos):
    """Discard mode: no leaf below a node with deadwood ``dead`` improves any target not yet
    at its lower bound (a natural left out here can save its value; other targets none)."""
    for i in range(ws[_W_TGT]):
        if ws[_W_TOUT + i] <= ws[_W_TLB + i]:
            continue
        x = ws[_W_TGT + 1 + i]
        lb = dead
        if x != 13 and not (twos and (x & 15) == 1):
            if ws[_W_OUT + x] > 0:
                lb = dead - ws[_W_VALS + x]
            elif ws[x] == 0:
                continue  # every copy is in a core here
        if lb < ws[_W_TOUT + i]:
            return False
    return True


# Over 80 lines on purpose: one njit kernel whose depth-first state lives in locals across the
# whole loop (tests/crosscut/test_layers.py LONG_FUNCTIONS); a split must be timed with `rummylab bench`.
@njit(cache=True)
def _arrange(ws, wild0, rem20, dead0):
    """Depth-first walk over meld cores (module docstring) with an explicit stack of
    frames in ``ws`` (``_F_*``: the node, its phase -- sets, runs up, runs down (an ace
    high), the card left out -- and the counters of the phase); each frame undoes its move
    when its child returns, so the hand in ``ws[:64]`` is restored at the end.  Stops once
    best <= ``ws[_W_STOP]``.  In discard mode (``ws[_W_MODE] == 1``) it scores every leaf
    for each target discard instead (``_discard_leaf``, ``_discard_cut``)."""
    wv = ws[_W_P + _P_WILD_VALUE]
    lim = ws[_W_P + _P_SUIT_LIMIT]
    set_max = ws[_W_P + _P_SET_MAX]
    run_max = ws[_W_P + _P_RUN_MAX]
    ace_high = ws[_W_P + _P_ACE_HIGH] == 1
    twos = ws[_W_P + _P_TWOS_WILD] == 1
    stop = ws[_W_STOP]
    n_codes = ws[_W_CODES]
    discard = ws[_W_MODE] == 1
    _push(ws, _W_FR - _F_SIZE, 0, dead0, 0, 0, wild0, rem20, 0)
    top = 0
    enter = True
    while top >= 0:
        f = _W_FR + _F_SIZE * top
        dead = ws[f + _F_DEAD]
        used = ws[f + _F_USED]
        cap = ws[f + _F_CAP]
        wild = ws[f + _F_WILD]
        rem2 = ws[f + _F_REM2]
        depth = ws[f + _F_DEPTH]
        if enter:
            enter = False
            if _discard_cut(ws, dead, twos) if discard else dead >= ws[_W_BEST]:
                top -= 1
                continue
            i = ws[f + _F_I]
            while i < n_codes and ws[ws[_W_CODES + 1 + i]] == 0:
                i += 1
            if i == n_codes:
                if discard:
                    _discard_leaf(ws, dead, used, cap, wild, wv, twos)
                else:
                    _leaf(ws, dead, used, cap, wild, depth, wv)
                top -= 1
                continue
            c = ws[_W_CODES + 1 + i]
            ws[f + _F_I] = i
            ws[f + _F_C] = c
            ws[f + _F_APPLIED] = 0
            r = c & 15
            n_set = 0
            for t in range(4):
                a = min(ws[(t << 4) + r], lim)
                ws[f + _F_A + t] = a
                ws[f + _F_K + t] = 0
                n_set += a
            if n_set >= 2 and not (twos and r == 1):
                ws[f + _F_PHASE] = 0
            else:
                ws[f + _F_PHASE] = 1
                _run_offsets(ws, f, _W_OFFS + 16 * top, c, False, run_max, twos, wild + rem2 - used)
        else:
            applied = ws[f + _F_APPLIED]
            if applied == 3:
                ws[ws[f + _F_C]] += 1
                ws[_W_OUT + ws[f + _F_C]] -= 1
            elif applied:
                _meld_back(ws, ws, _W_STACK + 6 * depth, 1)
            ws[f + _F_APPLIED] = 0
            if (_discard_cut(ws, dead, twos) if discard
                    else dead >= ws[_W_BEST] or ws[_W_BEST] <= stop):
                top -= 1
                continue
        c = ws[f + _F_C]
        s = c >> 4
        r = c & 15
        is2 = twos and r == 1
        rec = _W_STACK + 6 * depth
        phase = ws[f + _F_PHASE]
        if phase == 0:
            # sets at rank r: copies k_t per suit t >= s, at least one of suit s (a natural 2
            # melded with other naturals does no better than the 2 played wild in its place)
            while True:
                t = 3
                while t >= 0:
                    if ws[f + _F_K + t] < ws[f + _F_A + t]:
                        ws[f + _F_K + t] += 1
                        break
                    ws[f + _F_K + t] = 0
                    t -= 1
                if t < 0:
                    break
                k0 = ws[f + _F_K]
                k1 = ws[f + _F_K + 1]
                k2 = ws[f + _F_K + 2]
                k3 = ws[f + _F_K + 3]
                if ws[f + _F_K + s] == 0:
                    continue
                k = k0 + k1 + k2 + k3
                if k == 1:
                    continue  # the one-natural run (never shorter) covers it
                m = 3 - k if k < 3 else 0
                if k + m > set_max or used + m > wild + rem2:
                    continue
                ws[r] -= k0
                ws[16 + r] -= k1
                ws[32 + r] -= k2
                ws[48 + r] -= k3
                ws[rec] = 0
                ws[rec + 1] = s
                ws[rec + 2] = r
                ws[rec + 3] = k0 | (k1 << 2) | (k2 << 4) | (k3 << 6)
                ws[rec + 4] = m
                ws[rec + 5] = 0
                ws[f + _F_APPLIED] = 1
                _push(ws, f, ws[f + _F_I], dead, used + m, cap + set_max - k - m, wild, rem2, depth + 1)
                top += 1
                enter = True
                break
            if enter:
                continue
            phase = 1
            ws[f + _F_PHASE] = 1
            _run_offsets(ws, f, _W_OFFS + 16 * top, c, False, run_max, twos, wild + rem2 - used)
        if phase <= 2:
            # runs in suit s through c: upwards from position r; an ace also downwards from 13
            o = _W_OFFS + 16 * top
            while True:
                n = ws[f + _F_N]
                mask = ws[f + _F_MASK] - 1
                if mask < phase - 1:  # an ace alone downwards repeats it upwards
                    if phase == 1 and r == 0 and ace_high:
                        phase = 2
                        ws[f + _F_PHASE] = 2
                        _run_offsets(ws, f, o, c, True, run_max, twos, wild + rem2 - used)
                        continue
                    break
                ws[f + _F_MASK] = mask
                top_d = 0
                k = 1
                n2 = 1 if is2 else 0
                for i in range(n):
                    if (mask >> i) & 1:
                        top_d = ws[o + i]
                        k += 1
                span = top_d + 1
                m = span - k + (3 - span if span < 3 else 0)
                if used + m > wild + rem2 - n2:
                    continue
                step = -1 if phase == 2 else 1
                anchor = 13 if phase == 2 else r
                nat = 1
                for i in range(n):
                    if (mask >> i) & 1:
                        d = ws[o + i]
                        nat |= 1 << d
                        ws[(s << 4) + anchor + step * d] -= 1
                ws[c] -= 1
                ws[rec] = 1
                ws[rec + 1] = s
                ws[rec + 2] = anchor
                ws[rec + 3] = nat
                ws[rec + 4] = m
                ws[rec + 5] = step
                ws[f + _F_APPLIED] = 2
                _push(ws, f, ws[f + _F_I], dead, used + m, cap + run_max - (span if span > 3 else 3), wild,
                      rem2 - n2, depth + 1)
                top += 1
                enter = True
                break
            if enter:
                continue
            phase = 3
            ws[f + _F_PHASE] = 3
        if phase == 3:
            # c left out: deadwood, or (a Wildcard 2) played as a wild
            ws[f + _F_PHASE] = 4
            if is2:
                ws[c] -= 1
                ws[_W_OUT + c] += 1
                ws[rec] = 2
                ws[rec + 1] = 0
                ws[rec + 2] = c
                ws[f + _F_APPLIED] = 3
                _push(ws, f, ws[f + _F_I], dead, used, cap, wild + 1, rem2 - 1, depth + 1)
                top += 1
                enter = True
                continue
            if discard or dead + ws[_W_VALS + c] < ws[_W_BEST]:
                ws[c] -= 1
                ws[_W_OUT + c] += 1
                ws[f + _F_APPLIED] = 3
                _push(ws, f, ws[f + _F_I], dead + ws[_W_VALS + c], used, cap, wild, rem2, depth)
                top += 1
                enter = True
                continue
        top -= 1


@njit(cache=True)
def _meldable(ws, x, wilds, bits):
    """Card ``x`` can be in some core of the hand with at most ``wilds`` (<= 1) wilds: a set
    needs three cards at its rank, a run a window of three positions around it holding
    ``3 - wilds`` naturals (``bits``: positions held per suit, an ace at 0 and 13)."""
    r, s = x & 15, x >> 4
    lim = ws[_W_P + _P_SUIT_LIMIT]
    n = wilds
    for t in range(4):
        n += min(ws[(t << 4) + r], lim)
    if n >= 3:
        return True
    b = bits[s]
    b1 = b >> 1
    b2 = b >> 2
    starts = b & b1 & b2 if wilds == 0 else (b & b1) | (b & b2) | (b1 & b2)
    top = 13 if ws[_W_P + _P_ACE_HIGH] == 1 else 12
    starts &= (1 << (top - 1)) - 1  # windows inside positions 0..top
    near = (7 << r) >> 2  # windows starting at r-2, r-1, r
    if r == 0:
        near = 1 | (1 << 11)
    return (starts & near) != 0


@njit(cache=True)
def _ws_arrange(ws, stop):
    """Minimum deadwood of the hand in ``ws[:64]`` (restored), walking until best <= stop;
    the best meld records are left in ``ws[_W_BSTACK:]`` (``ws[_W_BEST + 1]`` of them) and
    the wilds it leaves unplaced in ``ws[_W_BEST + 2]``.  With at most one wild, the cards
    that no core can hold are set aside as deadwood before the walk."""
    jokers = ws[13]
    ws[13] = 0
    total = jokers * ws[_W_VALS + 13]
    rem2 = 0
    twos = ws[_W_P + _P_TWOS_WILD] == 1
    n = 0
    bits = ws[_W_BITS:_W_BITS + 4]  # positions held per suit (0 and 13: the ace)
    bits[:] = 0
    for c in range(64):
        if ws[c] > 0:
            total += ws[c] * ws[_W_VALS + c]
            if twos and (c & 15) == 1:
                rem2 += ws[c]
            else:
                bits[c >> 4] |= 1 << (c & 15)
            n += 1
            ws[_W_CODES + n] = c
    if ws[_W_P + _P_ACE_HIGH] == 1:
        for t in range(4):
            bits[t] |= (bits[t] & 1) << 13
    n_aside = 0
    dead0 = 0
    if jokers + rem2 <= 1:
        m = 0
        for i in range(1, n + 1):
            c = ws[_W_CODES + i]
            if not (twos and (c & 15) == 1) and not _meldable(ws, c, jokers + rem2, bits):
                ws[_W_ASIDE + 2 * n_aside] = c
                n_aside += 1
            else:
                m += 1
                ws[_W_CODES + m] = c
        n = m
        for j in range(n_aside):
            c = ws[_W_ASIDE + 2 * j]
            ws[_W_ASIDE + 2 * j + 1] = ws[c]
            dead0 += ws[c] * ws[_W_VALS + c]
            ws[c] = 0
    ws[_W_CODES] = n
    ws[_W_BEST] = total + 1
    ws[_W_BEST + 1] = 0
    ws[_W_BEST + 2] = 0
    ws[_W_STOP] = stop
    _arrange(ws, jokers, rem2, dead0)
    for j in range(n_aside):
        ws[ws[_W_ASIDE + 2 * j]] = ws[_W_ASIDE + 2 * j + 1]
    ws[13] = jokers
    return ws[_W_BEST]


@njit(cache=True)
def _min_deadwood_into(ws, best_stack):
    """Exact minimum deadwood of the hand in ``ws[:64]`` (a workspace from ``new_workspace``;
    index 13 = jokers; restored on return).  Fills ``best_stack`` int64[MAX_DEPTH, 6] with
    the meld records; returns (deadwood, n)."""
    d = _ws_arrange(ws, -1)
    n = ws[_W_BEST + 1]
    for i in range(n):
        for j in range(6):
            best_stack[i, j] = ws[_W_BSTACK + 6 * i + j]
    return d, n


@njit(cache=True)
def new_workspace(P, vals):
    """A kernel workspace int64[_W_SIZE] holding the rule set's parameters ``P``
    (``Game.params``) and values (``Game.values``); the hand goes in ``ws[:64]`` (index 13 =
    jokers).  Game kernels keep one per seat and update its counts as cards come and go."""
    ws = np.zeros(_W_SIZE, dtype=np.int64)
    ws[_W_P:_W_P + 8] = P
    ws[_W_VALS:_W_VALS + 64] = vals
    return ws


@njit(cache=True)
def ws_deadwood(ws):
    """Exact minimum deadwood of the hand in ``ws[:64]`` (restored on return)."""
    return _ws_arrange(ws, -1)


@njit(cache=True)
def _min_deadwood(counts, P, vals, best_stack):
    """As ``_min_deadwood_into`` for one hand ``counts`` int64[64] (not modified)."""
    ws = new_workspace(P, vals)
    ws[:64] = counts
    return _min_deadwood_into(ws, best_stack)


@njit(cache=True)
def _deadwood_many(counts, P, vals, out):
    """Batch: ``counts`` uint8[n, 64] -> ``out`` int64[n] minimum deadwood."""
    bs = np.zeros((MAX_DEPTH, 6), dtype=np.int64)
    ws = new_workspace(P, vals)
    for i in range(counts.shape[0]):
        for c in range(64):
            ws[c] = counts[i, c]
        out[i] = _min_deadwood_into(ws, bs)[0]
