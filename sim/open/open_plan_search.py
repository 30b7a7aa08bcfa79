"""The exact turn planner of the open-melding games: :func:`plan_turn` and :func:`can_take`.

The search works on final states: each table meld either stays or takes one of its options
(cards added at both run ends, chains included; joker swaps; Loba joker moves), then any set
of disjoint new melds is laid from what is left (a new meld with layoffs onto it is simply a
larger new meld).  Natural cards are claimed through two bit masks (one copy / both copies of
a two-pack card), jokers as a pool (jokers held plus jokers swapped out).  Every combination
is scored; an explicit stack keeps numba's cache working (no recursion).

Legal order of a plan (what :func:`sim.open.open_plan.apply_plan` replays): swaps and joker moves,
then new melds, then layoffs (each run from its old ends outwards); a plan that goes out ends
with the play that empties the hand (going out ends the hand at once:
:func:`sim.open.open_plan_write._end_at_out`).

The score of a final state, lowest best (ties: the first found, in the order above):
value left after the best legal discard (0 when going out), then going out, then more cards
played, then more jokers kept.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from .jit import kernel, noalloc

from ..core.cards import JOKER
from .open_plan_layout import (
    GOAL_K, GOAL_KEEP, GOAL_LAYOFF, GOAL_MODE, JD_OUT_ONLY, LAYOFF_OWN_MELD,
    LAYOFF_RUN_OWN_MELD, MIN_CARDS, MR_ALL_AT_ONCE, MR_JOKER_DISCARD, MR_JOKER_MOVE,
    MR_LAST_DISCARD, MR_LAYOFF, MR_ONE_MELD, MR_SWAP, MR_TAKE_MELD, MR_TAKE_NO_DISCARD, NO_PLAN,
    OUT_DISCARD, OUT_EMPTY, OUT_NONE, OUT_ONLY, PLAN_WIDTH, RUN, SWAP_NONE, SWAP_REUSE, TM_KIND, TM_NJ,
)
from .open_plan_options import (
    C_CNT, C_D1, C_D2, C_FLAGS, C_JADD, C_JFREE, C_ROW, C_VAL, F_RUNADD, F_SETADD, F_TAKEN, MAX_EXT,
    NCOL, move_options, new_melds, run_options, set_options,
)
from .open_plan_bounds import any_play, swappable
from .open_plan_write import write_plan

MAX_OPT = 64               # first sizes of the scratch arrays (they grow)
MAX_CAND = 64
BIG = 1 << 62

# state vector fields (one row per search depth)
S_U1, S_U2, S_VAL, S_CNT, S_JADD, S_JFREE, S_FLAGS, S_NEW, S_TAKEN = range(9)
SW = 9


@noalloc
def _combine(st, d, ob, k, p1, p2, jlimit):
    """State row d+1 = row d plus piece ``k`` of ``ob``; False if the cards are not there or
    the jokers put down, net of those taken back, would pass ``jlimit``."""
    if st[d, S_JADD] + ob[k, C_JADD] - st[d, S_JFREE] - ob[k, C_JFREE] > jlimit:
        return False
    u1 = st[d, S_U1]
    u2 = st[d, S_U2]
    d1 = ob[k, C_D1]
    d2 = ob[k, C_D2]
    if (u2 & (d1 | d2)) or (u1 & d2):
        return False
    n1 = u1 | d1 | d2
    n2 = u2 | (u1 & d1) | d2
    if (n1 & ~p1) or (n2 & ~p2):
        return False
    st[d + 1, S_U1] = n1
    st[d + 1, S_U2] = n2
    st[d + 1, S_VAL] = st[d, S_VAL] + ob[k, C_VAL]
    st[d + 1, S_CNT] = st[d, S_CNT] + ob[k, C_CNT]
    st[d + 1, S_JADD] = st[d, S_JADD] + ob[k, C_JADD]
    st[d + 1, S_JFREE] = st[d, S_JFREE] + ob[k, C_JFREE]
    st[d + 1, S_FLAGS] = st[d, S_FLAGS] | ob[k, C_FLAGS]
    st[d + 1, S_NEW] = st[d, S_NEW]
    st[d + 1, S_TAKEN] = st[d, S_TAKEN]
    return True


@noalloc
def _copy_row(dst, i, src, j):
    """dst[i, :] = src[j, :] (no view, no temporary)."""
    for f in range(dst.shape[1]):
        dst[i, f] = src[j, f]


@noalloc
def _copy_head(dst, src, n):
    """dst[:n] = src[:n]."""
    for f in range(n):
        dst[f] = src[f]


@noalloc
def _dedupe(ob, start, n):
    """Drop the pieces in ``ob[start:n]`` that claim exactly what an earlier one claims (the
    same cards, jokers and flags: e.g. a joker laid at either end of a run); the search only
    sees those sums, so this is exact.  Returns the new end."""
    k = start
    for i in range(start, n):
        dup = False
        for q in range(start, k):
            same = True
            for f in range(C_ROW):
                if ob[q, f] != ob[i, f]:
                    same = False
                    break
            if same:
                dup = True
                break
        if not dup:
            if k != i:
                _copy_row(ob, k, ob, i)
            k += 1
    return k


@noalloc
def _leaf(st, d, ctx, hand, vals, mr, goal, taken, has_melded, relax):
    """Score (int64, lower better) of the final state in row ``d``, or BIG if illegal.
    ``ctx``: see :func:`_hand_masks`."""
    njh = ctx[4]
    rest_j = njh - st[d, S_JADD] + st[d, S_JFREE]
    if rest_j < (1 if goal[GOAL_KEEP] == JOKER and relax == 0 else 0):
        return BIG
    if mr[MR_SWAP] == SWAP_REUSE and rest_j > njh:
        return BIG
    n_new = st[d, S_NEW]
    flags = st[d, S_FLAGS]
    if mr[MR_TAKE_MELD] and taken >= 0 and st[d, S_TAKEN] == 0:
        return BIG
    if n_new == 0 and has_melded == 0:
        lay = mr[MR_LAYOFF]
        if lay == LAYOFF_OWN_MELD and flags & (F_RUNADD | F_SETADD):
            return BIG
        if lay == LAYOFF_RUN_OWN_MELD and flags & F_RUNADD:
            return BIG
    rest_nat = ctx[2] - njh - st[d, S_CNT]
    rest_total = rest_nat + rest_j
    rest_val = ctx[3] - st[d, S_VAL] + (rest_j - njh) * vals[JOKER]
    u1 = st[d, S_U1]
    u2 = st[d, S_U2]
    keep = goal[GOAL_KEEP] if relax == 0 else -1
    # the best legal discard: the hand's codes by value, highest first (ctx[CTX_CODES:])
    best_d = -1
    for q in range(ctx[CTX_NCODES]):
        c = ctx[CTX_CODES + q]
        cnt = hand[c] - (2 if (u2 >> c) & 1 else (1 if (u1 >> c) & 1 else 0))
        if c == keep:
            cnt -= 1
        if c == taken and mr[MR_TAKE_NO_DISCARD] and not (u1 >> c) & 1:
            cnt -= 1
        if cnt > 0:
            best_d = vals[c]
            break
    if rest_j - (1 if keep == JOKER else 0) > 0:
        if mr[MR_JOKER_DISCARD] != JD_OUT_ONLY or rest_total == 1 or relax:
            if vals[JOKER] > best_d:
                best_d = vals[JOKER]
    if rest_total == 0:
        if mr[MR_LAST_DISCARD]:
            return BIG
        out = OUT_EMPTY
        after = 0
    elif best_d < 0:
        return BIG
    elif rest_total == 1:
        out = OUT_DISCARD
        after = 0
    else:
        out = OUT_NONE
        after = rest_val - best_d
    played = ctx[2] - rest_total
    plays = n_new > 0 or flags != 0
    if plays and out == OUT_NONE:
        mode = goal[GOAL_MODE]
        if mode == OUT_ONLY or mr[MR_ALL_AT_ONCE]:
            return BIG
        if mode == MIN_CARDS and played < goal[GOAL_K]:
            return BIG
        if goal[GOAL_LAYOFF] == 0 and flags != 0:
            return BIG
    return (((after * 2 + (1 if out == OUT_NONE else 0)) * 64 + (63 - played)) * 64
            + (63 - rest_j)) * 4 + out


CTX_NCODES = 5
CTX_CODES = 6
CTX_WIDTH = CTX_CODES + 64


@noalloc
def _hand_masks(hand, keep, relax, vals, ctx):
    """ctx <- [0] have1, [1] have2 (card masks held once / twice), [2] cards held, [3] hand
    value, [4] jokers held, [CTX_NCODES] / [CTX_CODES:] the natural codes held, highest value
    first.  Returns the playable masks (p1, p2) and jokers without the kept card."""
    have1 = 0
    have2 = 0
    total = 0
    value = 0
    nc = 0
    for c in range(64):
        k = hand[c]
        if k:
            value += k * vals[c]
            if c != JOKER:
                have1 |= 1 << c
                if k >= 2:
                    have2 |= 1 << c
                total += k
                q = nc
                while q > 0 and vals[ctx[CTX_CODES + q - 1]] < vals[c]:
                    ctx[CTX_CODES + q] = ctx[CTX_CODES + q - 1]
                    q -= 1
                ctx[CTX_CODES + q] = c
                nc += 1
    p1 = have1
    p2 = have2
    njp = hand[JOKER]
    if keep >= 0 and relax == 0:
        if keep == JOKER:
            njp -= 1
        elif hand[keep] >= 2:
            p2 &= ~(1 << keep)
        else:
            p1 &= ~(1 << keep)
    ctx[0] = have1
    ctx[1] = have2
    ctx[2] = total + hand[JOKER]
    ctx[3] = value
    ctx[4] = hand[JOKER]
    ctx[CTX_NCODES] = nc
    return p1, p2, njp


# Over 80 lines on purpose: the planner's depth-first loops share locals; split in pieces it
# played 5-11% slower (Wrotham 4p, A/B in one sitting; tests/crosscut/test_layers.py LONG_FUNCTIONS).
@njit(cache=True)
def _search(hand, taken, tab, n_tm, has_melded, mr, vals, goal, plan, relax):
    ctx = np.empty(CTX_WIDTH, dtype=np.int64)
    p1, p2, njp = _hand_masks(hand, goal[GOAL_KEEP], relax, vals, ctx)
    st0 = np.zeros((1, SW), dtype=np.int64)
    if not any_play(mr, p1, p2, njp, tab, n_tm):
        key = _leaf(st0, 0, ctx, hand, vals, mr, goal, taken, has_melded, relax)
        if key >= BIG:
            return NO_PLAN
        # no table options, no new melds: ``ctx`` stands in for the (unread) choice vectors
        return write_plan(plan, key, ctx[3], ctx[4], vals[JOKER], tab, st0, ctx, 0, st0,
                          ctx, 0)
    jpool = njp + (swappable(tab, n_tm, p1) if mr[MR_SWAP] != SWAP_NONE else 0)
    ob = np.empty((MAX_OPT, NCOL), dtype=np.int64)
    exd = np.empty((MAX_EXT, 6), dtype=np.int64)
    exu = np.empty((MAX_EXT, 6), dtype=np.int64)
    # the vectors by table row, in one allocation (rows of ``w``)
    w = np.empty((6, n_tm + 1), dtype=np.int64)
    ostart, oend, free_after, cur, choice, best_choice = w[0], w[1], w[2], w[3], w[4], w[5]
    n = 0
    nr = 0
    for i in range(n_tm):
        n0 = n
        if tab[i, TM_KIND] == RUN:
            if mr[MR_JOKER_MOVE]:
                ob, n = move_options(tab, i, mr, p1, vals, jpool, ob, n)
            else:
                ob, n = run_options(tab, i, mr, p1, vals, jpool, ob, n, exd, exu)
        else:
            ob, n = set_options(tab, i, mr, p1, p2, vals, jpool, ob, n)
        n = _dedupe(ob, n0, n)
        if n > n0:
            ostart[nr] = n0
            oend[nr] = n
            nr += 1
    # jokers the rows after each depth could still give back (for the joker budget)
    free_after[nr] = 0
    for t in range(nr - 1, -1, -1):
        mx = 0
        for k in range(ostart[t], oend[t]):
            mx = max(mx, ob[k, C_JFREE])
        free_after[t] = free_after[t + 1] + mx
    for t in range(nr):
        free_after[t] = free_after[t + 1]
    cand = np.empty((MAX_CAND, NCOL), dtype=np.int64)
    cand, nc = new_melds(mr, p1, p2, vals, jpool, taken, cand, 0, exd)
    nc = _dedupe(cand, 0, nc)
    one = mr[MR_ONE_MELD] != 0
    # search: rows first (each: nothing or one option), then subsets of new melds
    st = np.zeros((nr + 1, SW), dtype=np.int64)
    mst = np.zeros((nc + 2, SW), dtype=np.int64)
    wm = np.empty((3, nc + 2), dtype=np.int64)
    mnext, mchosen, best_melds = wm[0], wm[1], wm[2]
    best = BIG
    for t in range(nr + 1):
        best_choice[t] = -1
    best_nm = 0
    d = 0
    cur[0] = -2
    while d >= 0:
        if d == nr:
            _copy_row(mst, 0, st, nr)
            e = 0
            key = _leaf(mst, 0, ctx, hand, vals, mr, goal, taken, has_melded, relax)
            if key < best:
                best = key
                _copy_head(best_choice, choice, nr)
                best_nm = 0
            mnext[0] = 0
            while e >= 0:
                i = mnext[e]
                found = False
                if not (one and e >= 1):
                    while i < nc:
                        if _combine(mst, e, cand, i, p1, p2, njp):
                            found = True
                            break
                        i += 1
                if not found:
                    e -= 1
                    continue
                mnext[e] = i + 1
                mchosen[e] = i
                mst[e + 1, S_NEW] += 1
                if cand[i, C_FLAGS] & F_TAKEN:
                    mst[e + 1, S_TAKEN] = 1
                mst[e + 1, S_FLAGS] &= ~F_TAKEN
                e += 1
                mnext[e] = i if p2 else i + 1      # two packs: the same meld twice
                key = _leaf(mst, e, ctx, hand, vals, mr, goal, taken, has_melded, relax)
                if key < best:
                    best = key
                    _copy_head(best_choice, choice, nr)
                    _copy_head(best_melds, mchosen, e)
                    best_nm = e
            d -= 1
            continue
        k = cur[d]
        k = ostart[d] - 1 if k == -2 else k + 1
        if k >= oend[d]:
            d -= 1
            continue
        cur[d] = k
        if k == ostart[d] - 1:
            _copy_row(st, d + 1, st, d)
            choice[d] = -1
        elif _combine(st, d, ob, k, p1, p2, njp + free_after[d]):
            choice[d] = k
        else:
            continue
        d += 1
        cur[d] = -2
    if best >= BIG:
        return NO_PLAN
    return write_plan(plan, best, ctx[3], ctx[4], vals[JOKER], tab, ob, best_choice, nr,
                      cand, best_melds, best_nm)


@kernel
def plan_turn(hand, taken, tab, n_tm, seat, has_melded, mr, vals, goal, plan):
    """The best legal plays of ``seat`` this turn (module doc).  ``hand`` int64[64] after the
    draw (not modified), ``taken`` the code taken from the pile or -1, ``tab``/``n_tm`` the
    table, ``has_melded`` 1 if the seat laid a meld earlier in the hand, ``mr`` from
    :func:`sim.open.open_plan.meld_rules`, ``vals`` int64[64] card values, ``goal``
    int64[GOAL_WIDTH].  Writes ``plan`` (int64[PLAN_WIDTH]) and returns the value left in
    hand after the plays (before the discard), or NO_PLAN when no legal turn exists (Loba:
    the taken card cannot go into a new meld).  Should no turn be legal only because of
    ``goal``'s kept card or the joker-discard rule (a hand of jokers alone), both are waived
    [choice], so the engine always gets a turn."""
    # ``relax`` typed, never a bare constant: numba would compile the planner once per literal
    # value (twice: 15 s of every open-melding game's cold start)
    v = _search(hand, taken, tab, n_tm, has_melded, mr, vals, goal, plan, np.int64(0))
    if v == NO_PLAN:
        v = _search(hand, taken, tab, n_tm, has_melded, mr, vals, goal, plan, np.int64(1))
    return v


@kernel
def can_take(hand, code, tab, n_tm, seat, has_melded, mr, vals):
    """bool: may ``seat`` (``hand`` before the draw) take ``code`` from the pile - under a
    take-to-meld rule (Loba) it must go at once into a new meld laid from the hand, in a
    legal turn.  Without that rule always True."""
    if not mr[MR_TAKE_MELD]:
        return True
    h = hand.copy()
    h[code] += 1
    goal = np.zeros(4, dtype=np.int64)
    goal[GOAL_KEEP] = -1
    goal[GOAL_LAYOFF] = 1
    plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
    return _search(h, code, tab, n_tm, has_melded, mr, vals, goal, plan, np.int64(0)) != NO_PLAN or \
        _search(h, code, tab, n_tm, has_melded, mr, vals, goal, plan, np.int64(1)) != NO_PLAN
