"""Writing the planner's choice as a plan (int64[PLAN_WIDTH], :mod:`sim.open.open_plan_layout`):
actions in an order that can be carried out legally - swaps and joker moves, new melds,
then layoffs (each run from its old ends outwards; a set's natural cards before jokers) -
and that ends with the play that empties the hand when the plays go out."""

from __future__ import annotations

from numba import njit
from .jit import noalloc

from ..core.cards import JOKER
from .open_plan_layout import (
    A_C0, A_CODE, A_HI, A_JMASK, A_KEY, A_KIND, A_LAYOFF, A_LO, A_MELD, A_MOVE, A_NJ, A_POS,
    A_ROW, A_SWAP, A_TO, A_TYPE, ACT_WIDTH, END_HIGH, END_LOW, MAX_ACT, PL_AFTER, PL_HEAD,
    OUT_EMPTY, PL_N_ACT, PL_OUT, PL_PLAYED, PL_VALUE, RUN, TM_HI, TM_JMASK, TM_KEY, TM_KIND, TM_LO,
)
from .open_plan_options import C_A, C_B, C_C, C_D, C_E, C_JADD, C_JFREE, C_ROW, C_VAL, F_MOVE, C_FLAGS
from .open_plan_table import run_code


@noalloc
def _act(plan, t, a1, a2, a3, a4):
    k = plan[PL_N_ACT]
    if k >= MAX_ACT:
        raise ValueError("open planner: a plan with too many actions")
    o = PL_HEAD + k * ACT_WIDTH
    plan[o:o + ACT_WIDTH] = 0
    plan[o + A_TYPE] = t
    plan[o + 1] = a1
    plan[o + 2] = a2
    plan[o + 3] = a3
    plan[o + 4] = a4
    plan[PL_N_ACT] = k + 1
    return o


@noalloc
def _swaps(plan, tab, ob, k):
    """Swaps (and Loba joker moves) of table option ``k``."""
    i = ob[k, C_ROW]
    if tab[i, TM_KIND] == RUN:
        s = tab[i, TM_KEY]
        shift = ob[k, C_E]
        if ob[k, C_FLAGS] & F_MOVE:
            return
        m = ob[k, C_A]
        p = 0
        while m:
            if m & 1:
                _act(plan, A_SWAP, i, run_code(s, p - shift), p - shift, 0)
            m >>= 1
            p += 1
    else:
        _set_naturals(plan, i, tab[i, TM_KEY], ob[k, C_A], ob[k, C_C], True)


@noalloc
def _set_naturals(plan, i, r, added, swaps, swapping):
    """The natural cards table option of set row ``i`` (rank ``r``) adds (``added``: 2 bits per
    suit), suit by suit: the first ``swaps`` of them swap out jokers (written when
    ``swapping``), the others are laid off (written when not)."""
    q = 0
    for s in range(4):
        for _ in range((added >> (2 * s)) & 3):
            if q < swaps:
                if swapping:
                    _act(plan, A_SWAP, i, s * 16 + r, -1, 0)
            elif not swapping:
                _act(plan, A_LAYOFF, i, s * 16 + r, -1, 0)
            q += 1


@noalloc
def _layoffs(plan, tab, ob, k):
    """Layoffs of table option ``k``, after the swaps."""
    i = ob[k, C_ROW]
    if ob[k, C_FLAGS] & F_MOVE:
        _moves(plan, tab, ob, k)
    elif tab[i, TM_KIND] == RUN:
        s = tab[i, TM_KEY]
        shift = ob[k, C_E]
        lo = tab[i, TM_LO] + shift
        hi = tab[i, TM_HI] + shift
        jm = ob[k, C_D]
        for q in range(1, ob[k, C_B] + 1):
            p = lo - q
            _act(plan, A_LAYOFF, i, JOKER if (jm >> p) & 1 else run_code(s, p), END_LOW, 0)
        for q in range(1, ob[k, C_C] + 1):
            p = hi + q
            _act(plan, A_LAYOFF, i, JOKER if (jm >> p) & 1 else run_code(s, p), END_HIGH, 0)
    else:
        _set_naturals(plan, i, tab[i, TM_KEY], ob[k, C_A], ob[k, C_C], False)
        for _ in range(ob[k, C_JADD]):
            _act(plan, A_LAYOFF, i, JOKER, -1, 0)


@noalloc
def _moves(plan, tab, ob, k):
    """Layoffs and joker moves that turn table run ``ob[k, C_ROW]`` into the Loba option
    ``k`` (span C_A..C_B, jokers at C_C, natural cards laid at C_D): outwards from the old
    ends, each new position gets its natural card, or a joker - first one that must leave
    its place (a place a natural card fills, moved with that card; or one beyond the new
    span, from the far end), else one from the hand."""
    i = ob[k, C_ROW]
    s = tab[i, TM_KEY]
    lo = tab[i, TM_LO]
    hi = tab[i, TM_HI]
    jm = tab[i, TM_JMASK]
    lo2 = ob[k, C_A]
    hi2 = ob[k, C_B]
    nats = ob[k, C_D]
    fills = jm & nats
    drop_lo = jm & ((1 << lo2) - 1)
    drop_hi = jm & ~((1 << (hi2 + 1)) - 1)
    cur_lo = lo
    cur_hi = hi
    for side in range(2):
        end = END_LOW if side == 0 else END_HIGH
        q = lo - 1 if side == 0 else hi + 1
        while (side == 0 and q >= lo2) or (side == 1 and q <= hi2):
            if (nats >> q) & 1:
                _act(plan, A_LAYOFF, i, run_code(s, q), end, 0)
            elif fills:
                p = 0
                while not (fills >> p) & 1:
                    p += 1
                fills &= ~(1 << p)
                _act(plan, A_MOVE, i, run_code(s, p), p, end)
            elif side == 0 and drop_hi:
                drop_hi &= ~(1 << cur_hi)
                _act(plan, A_MOVE, i, -1, cur_hi, end)
                cur_hi -= 1
            elif side == 1 and drop_lo:
                drop_lo &= ~(1 << cur_lo)
                _act(plan, A_MOVE, i, -1, cur_lo, end)
                cur_lo += 1
            else:
                _act(plan, A_LAYOFF, i, JOKER, end, 0)
            if side == 0:
                cur_lo -= 1
                q -= 1
            else:
                cur_hi += 1
                q += 1
    if fills or drop_lo or drop_hi:
        raise ValueError("open planner: a Loba joker move found no place")


@noalloc
def _plays_card(plan, a):
    """Does action ``a`` of the plan put a hand card down (a meld, a layoff, a move's fill)?"""
    o = PL_HEAD + a * ACT_WIDTH
    t = plan[o + A_TYPE]
    return t == A_MELD or t == A_LAYOFF or (t == A_MOVE and plan[o + A_CODE] >= 0)


@njit(cache=True)
def _end_at_out(plan):
    """Going out ends the hand at once (rules/loba.md, common.md): in a plan that empties the
    hand no play follows the one that empties it.  Only Loba joker moves that play no card can
    be written after it (by :func:`_moves`, outwards from a run's ends).  Those of another row
    go just before it (rows are independent, each row keeps its order); those of its own row
    are left out: written after that row's last card, they cannot come earlier, and the run as
    it stands without them is legal (every action leaves legal melds) and scores the same."""
    n = plan[PL_N_ACT]
    e = n - 1
    while e >= 0 and not _plays_card(plan, e):
        e -= 1
    if e < 0 or e == n - 1:
        return
    oe = PL_HEAD + e * ACT_WIDTH
    row_e = -1 if plan[oe + A_TYPE] == A_MELD else plan[oe + A_ROW]
    last = plan[oe:oe + ACT_WIDTH].copy()
    k = e
    for a in range(e + 1, n):
        o = PL_HEAD + a * ACT_WIDTH
        if plan[o + A_TYPE] != A_MOVE:
            raise ValueError("open planner: a play other than a joker move after the hand is empty")
        if plan[o + A_ROW] != row_e:
            for j in range(ACT_WIDTH):       # element by element: a slice copy compiles numba's
                plan[PL_HEAD + k * ACT_WIDTH + j] = plan[o + j]   # shape-error formatting
            k += 1
    for j in range(ACT_WIDTH):
        plan[PL_HEAD + k * ACT_WIDTH + j] = last[j]
    plan[PL_N_ACT] = k + 1


@njit(cache=True)
def write_plan(plan, key, hand_value, njh, vj, tab, ob, choice, nr, cand, melds, nm):
    """Fill ``plan`` from the search's best ``key``, its table options ``choice[:nr]`` (rows
    of ``ob``, -1 none) and new melds ``melds[:nm]`` (rows of ``cand``).  Returns the value
    left in hand before the discard."""
    out = key & 3
    rest_j = 63 - ((key >> 2) & 63)
    played = 63 - ((key >> 8) & 63)
    after = key >> 15
    value = hand_value + (rest_j - njh) * vj
    plan[PL_N_ACT] = 0
    for t in range(nr):
        if choice[t] >= 0:
            value -= ob[choice[t], C_VAL]
            _swaps(plan, tab, ob, choice[t])
    for q in range(nm):
        c = melds[q]
        value -= cand[c, C_VAL]
        o = _act(plan, A_MELD, cand[c, C_ROW], cand[c, C_A], 0, 0)
        if cand[c, C_ROW] == RUN:
            plan[o + A_LO] = cand[c, C_B]
            plan[o + A_HI] = cand[c, C_C]
            plan[o + A_JMASK] = cand[c, C_D]
        else:
            for s in range(4):
                plan[o + A_C0 + s] = (cand[c, C_B] >> (2 * s)) & 3
            plan[o + A_NJ] = cand[c, C_C]
    for t in range(nr):
        if choice[t] >= 0:
            _layoffs(plan, tab, ob, choice[t])
    if out == OUT_EMPTY:
        _end_at_out(plan)
    plan[PL_OUT] = out
    plan[PL_VALUE] = value
    plan[PL_AFTER] = after
    plan[PL_PLAYED] = played
    return value
