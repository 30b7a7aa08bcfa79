"""The pieces the planner combines (:mod:`sim.open.open_plan_search`): for each table meld every
way the hand can add to it (layoffs at both run ends, chains included, joker swaps, Loba
joker moves), and every new meld the hand can lay down.  One row of ``ob`` (int64[cap, NCOL])
per piece:

* ``C_D1`` / ``C_D2``: card masks (bit = code) of the natural cards it takes from the hand
  once / twice (two packs); ``C_VAL`` / ``C_CNT`` their value and number; ``C_JADD`` jokers
  it puts down; ``C_JFREE`` jokers it takes back (swaps); ``C_FLAGS`` F_* bits;
* table options: ``C_ROW`` the row; runs ``C_A`` swapped positions (mask), ``C_B`` / ``C_C``
  cards added below / above, ``C_D`` joker positions among them, ``C_E`` the position shift
  (13 for round-the-corner runs); sets ``C_A`` the added natural counts (2 bits per suit),
  ``C_B`` the set's final jokers, ``C_C`` jokers swapped out;
* new melds: ``C_ROW`` the kind, ``C_A`` the key; runs ``C_B`` lo, ``C_C`` hi, ``C_D`` joker
  positions; sets ``C_B`` natural counts (2 bits per suit), ``C_C`` jokers.
Positions and ranks: :mod:`sim.open.open_plan_layout`."""

from __future__ import annotations

import numpy as np
from numba import njit
from .jit import noalloc

from .open_plan_layout import (
    ACE_HIGH_OR_LOW, ACE_LOW, ACE_ROUND, MR_ACES, MR_N_PACKS, MR_NATURAL_MIN,
    MR_RUN_MAX_JOKERS, MR_RUN_MIN, MR_SET_JOKERS, MR_SET_MAX, MR_SET_MIN, MR_SET_SUITS,
    MR_SWAP, RUN, SET, SUITS_DISTINCT, SWAP_NONE, TM_HI, TM_JMASK, TM_KEY, TM_LO, TM_NJ, TM_S0,
)
from .open_plan_table import joker_places_ok, popcount, run_code, run_span_ok

C_D1, C_D2, C_VAL, C_CNT, C_JADD, C_JFREE, C_FLAGS, C_ROW, C_A, C_B, C_C, C_D, C_E = range(13)
NCOL = 13
F_RUNADD, F_SETADD, F_SWAP, F_TAKEN, F_MOVE = 1, 2, 4, 8, 16
MAX_EXT = 32             # first size of the extension scratch (it grows)
FULL_OB, FULL_EXD, FULL_EXU = -1, -2, -3   # a *_fill ran out of room in ob / the extension scratch


@njit(cache=True)
def grow(a):
    """A copy of the 2-d array ``a`` with twice the rows (scratch arrays start small)."""
    b = np.empty((2 * a.shape[0], a.shape[1]), dtype=a.dtype)
    for i in range(a.shape[0]):              # element by element: a slice copy compiles numba's
        for j in range(a.shape[1]):          # shape-error formatting, seconds of a first run
            b[i, j] = a[i, j]
    return b


@noalloc
def _put(ob, n, d1, d2, val, cnt, jadd, jfree, flags, row, a, b, c, d, e):
    """Write piece ``n`` (the caller grows ``ob`` when full first); returns n + 1."""
    ob[n, C_D1] = d1
    ob[n, C_D2] = d2
    ob[n, C_VAL] = val
    ob[n, C_CNT] = cnt
    ob[n, C_JADD] = jadd
    ob[n, C_JFREE] = jfree
    ob[n, C_FLAGS] = flags
    ob[n, C_ROW] = row
    ob[n, C_A] = a
    ob[n, C_B] = b
    ob[n, C_C] = c
    ob[n, C_D] = d
    ob[n, C_E] = e
    return n + 1


@noalloc
def span_bounds(mr, shift, lo, hi):
    """Lowest and highest position a run over lo..hi (shifted by ``shift``) may reach."""
    aces = mr[MR_ACES]
    if aces == ACE_ROUND:
        return hi - 12, lo + 12
    return 0, (12 if aces == ACE_LOW else 13)


@noalloc
def _ext_fill(suit, start, step, bound, jmax, p1, vals, ex):
    """Every sequence of cards laid beyond a run end (from ``start``, one ``step`` at a time,
    not past ``bound``): each position a natural card of ``p1`` or a joker (at most ``jmax``).
    Rows of ``ex`` (int64[:, 6]): length, joker positions, card mask, value, cards, jokers.
    Row 0 is the empty sequence.  Returns the number of rows, or -1 when ``ex`` is too small
    (the caller's caller grows it and starts again)."""
    for f in range(6):
        ex[0, f] = 0
    n = 1
    k = 0
    while k < n:
        d = ex[k, 0]
        p = start + step * (d + 1)
        if (step < 0 and p >= bound) or (step > 0 and p <= bound):
            c = run_code(suit, p)
            if (p1 >> c) & 1:
                if n >= ex.shape[0]:
                    return -1
                ex[n, 0] = d + 1
                ex[n, 1] = ex[k, 1]
                ex[n, 2] = ex[k, 2] | (1 << c)
                ex[n, 3] = ex[k, 3] + vals[c]
                ex[n, 4] = ex[k, 4] + 1
                ex[n, 5] = ex[k, 5]
                n += 1
            if ex[k, 5] < jmax:
                if n >= ex.shape[0]:
                    return -1
                ex[n, 0] = d + 1
                ex[n, 1] = ex[k, 1] | (1 << p)
                ex[n, 2] = ex[k, 2]
                ex[n, 3] = ex[k, 3]
                ex[n, 4] = ex[k, 4]
                ex[n, 5] = ex[k, 5] + 1
                n += 1
        k += 1
    return n


@noalloc
def suit_positions(p1, s, aces):
    """Run positions (bit p) of the natural cards of suit ``s`` in ``p1``: the ace also at 13
    when aces may be high, every card also 13 higher round the corner."""
    m = (p1 >> (16 * s)) & 0x1FFF
    if aces == ACE_HIGH_OR_LOW:
        m |= (m & 1) << 13
    elif aces == ACE_ROUND:
        m |= m << 13
    return m


@noalloc
def _run_cards(s, pos, vals):
    """Card mask and value of the natural cards of suit ``s`` at the positions ``pos``."""
    d1 = 0
    val = 0
    while pos:
        low = pos & -pos
        pos ^= low
        c = run_code(s, popcount(low - 1))
        d1 |= 1 << c
        val += vals[c]
    return d1, val


@noalloc
def _run_fill(tab, i, mr, p1, vals, jpool, ob, n, exd, exu):
    """Every way to add to table run ``i``: swaps of its jokers for natural cards of ``p1``,
    cards (natural or joker, at most ``jpool`` jokers) laid below and above.  Appends to
    ``ob`` from row ``n``; returns the new count, or FULL_OB / FULL_EXD / FULL_EXU when that
    array is too small (:func:`run_options` grows it and starts again).  (Loba moves:
    :func:`move_options`.)"""
    s = tab[i, TM_KEY]
    shift = 13 if mr[MR_ACES] == ACE_ROUND else 0
    lo = tab[i, TM_LO] + shift
    hi = tab[i, TM_HI] + shift
    jm = tab[i, TM_JMASK] << shift
    nj = popcount(jm)
    maxj = mr[MR_RUN_MAX_JOKERS]
    sw = 0
    if mr[MR_SWAP] != SWAP_NONE:
        m = jm
        while m:
            low = m & -m
            m ^= low
            p = popcount(low - 1)
            if (p1 >> run_code(s, p)) & 1:
                sw |= low
    jmax = min(jpool, maxj - nj + popcount(sw))
    if jmax < 0:
        jmax = 0
    b_lo, b_hi = span_bounds(mr, shift, lo, hi)
    nd = _ext_fill(s, lo, -1, b_lo, jmax, p1, vals, exd)
    if nd < 0:
        return FULL_EXD
    nu = _ext_fill(s, hi, 1, b_hi, jmax, p1, vals, exu)
    if nu < 0:
        return FULL_EXU
    sub = sw
    while True:
        sd1, sval = _run_cards(s, sub, vals)
        ns = popcount(sub)
        for a in range(nd):
            for b in range(nu):
                if a == 0 and b == 0 and sub == 0:
                    continue
                jadd = exd[a, 5] + exu[b, 5]
                if nj - ns + jadd > maxj:
                    continue
                lo2 = lo - exd[a, 0]
                hi2 = hi + exu[b, 0]
                if not run_span_ok(mr, lo2 - shift, hi2 - shift):
                    continue
                if exd[a, 2] & exu[b, 2] or not joker_places_ok(mr, (exd[a, 1] | exu[b, 1]) >> shift):
                    continue
                flags = (F_RUNADD if lo2 < lo or hi2 > hi else 0) | (F_SWAP if sub else 0)
                if n >= ob.shape[0]:
                    return FULL_OB
                n = _put(ob, n, sd1 | exd[a, 2] | exu[b, 2], 0, sval + exd[a, 3] + exu[b, 3],
                          ns + exd[a, 4] + exu[b, 4], jadd, ns, flags, i, sub, exd[a, 0],
                          exu[b, 0], exd[a, 1] | exu[b, 1], shift)
        if sub == 0:
            break
        sub = (sub - 1) & sw
    return n


@njit(cache=True)
def run_options(tab, i, mr, p1, vals, jpool, ob, n, exd, exu):
    """:func:`_run_fill`, growing the arrays until it fits; returns (ob, new count)."""
    r = _run_fill(tab, i, mr, p1, vals, jpool, ob, n, exd, exu)
    while r < 0:
        ob, exd, exu = regrow(r, ob, exd, exu)
        r = _run_fill(tab, i, mr, p1, vals, jpool, ob, n, exd, exu)
    return ob, r


@njit(cache=True)
def regrow(r, ob, exd, exu):
    """(ob, exd, exu) with the array a ``*_fill`` found full (its return code ``r``) grown."""
    if r == FULL_OB:
        return grow(ob), exd, exu
    if r == FULL_EXD:
        return ob, grow(exd), exu
    return ob, exd, grow(exu)


@noalloc
def _avail(p1, p2, code):
    return ((p1 >> code) & 1) + ((p2 >> code) & 1)


@noalloc
def _rank_cards(r, a0, a1, a2, a3, vals):
    """Card masks taken once / twice and the value of a0..a3 cards of rank ``r`` by suit."""
    d1 = 0
    d2 = 0
    val = 0
    for s, k in ((0, a0), (1, a1), (2, a2), (3, a3)):
        if k == 1:
            d1 |= 1 << (s * 16 + r)
        elif k == 2:
            d2 |= 1 << (s * 16 + r)
        val += k * vals[s * 16 + r]
    return d1, d2, val


@noalloc
def _set_fill(tab, i, mr, p1, p2, vals, jpool, ob, n):
    """Every way to add to table set ``i``: natural cards of suits it may take, jokers (when
    sets take jokers), swaps of its jokers for natural cards of missing suits.  Appends to
    ``ob``; returns the new count, or FULL_OB (:func:`set_options` grows ``ob``)."""
    r = tab[i, TM_KEY]
    nj = tab[i, TM_NJ]
    c0 = tab[i, TM_S0]
    c1 = tab[i, TM_S0 + 1]
    c2 = tab[i, TM_S0 + 2]
    c3 = tab[i, TM_S0 + 3]
    nat = c0 + c1 + c2 + c3
    size = nat + nj
    cap = 1 if mr[MR_SET_SUITS] == SUITS_DISTINCT else mr[MR_N_PACKS]
    smax = mr[MR_SET_MAX]
    lim0 = _set_lim(tab, i, mr, p1, p2, r, cap, 0)
    lim1 = _set_lim(tab, i, mr, p1, p2, r, cap, 1)
    lim2 = _set_lim(tab, i, mr, p1, p2, r, cap, 2)
    lim3 = _set_lim(tab, i, mr, p1, p2, r, cap, 3)
    jok = mr[MR_SET_JOKERS] != 0
    swap = mr[MR_SWAP] != SWAP_NONE
    for a0 in range(lim0 + 1):
        for a1 in range(lim1 + 1):
            for a2 in range(lim2 + 1):
                for a3 in range(lim3 + 1):
                    add = a0 + a1 + a2 + a3
                    d1, d2, val = _rank_cards(r, a0, a1, a2, a3, vals)
                    jf_hi = smax - nat - add if jok else 0
                    for jf in range(0, jf_hi + 1):
                        if add == 0 and jf == nj:
                            continue
                        if nat + add + jf > smax or nat + add + jf < size:
                            continue
                        freed = nj - jf if nj > jf else 0
                        if freed > 0 and (not swap or add < freed):
                            continue
                        jadd = jf - nj if jf > nj else 0
                        if jadd > jpool:
                            continue
                        flags = (F_SETADD if nat + add + jf > size else 0) | (F_SWAP if freed else 0)
                        if n >= ob.shape[0]:
                            return FULL_OB
                        n = _put(ob, n, d1, d2, val, add, jadd, freed, flags, i,
                                  a0 | (a1 << 2) | (a2 << 4) | (a3 << 6), jf, freed, 0, 0)
    return n


@noalloc
def _set_lim(tab, i, mr, p1, p2, r, cap, s):
    """The most natural cards of suit ``s`` the hand may add to table set ``i``."""
    have = tab[i, TM_S0 + s]
    if mr[MR_SET_SUITS] != SUITS_DISTINCT and have == 0:
        return 0
    return min(_avail(p1, p2, s * 16 + r), cap - have)


@njit(cache=True)
def set_options(tab, i, mr, p1, p2, vals, jpool, ob, n):
    """:func:`_set_fill`, growing ``ob`` until it fits; returns (ob, new count)."""
    r = _set_fill(tab, i, mr, p1, p2, vals, jpool, ob, n)
    while r == FULL_OB:
        ob = grow(ob)
        r = _set_fill(tab, i, mr, p1, p2, vals, jpool, ob, n)
    return ob, r


@noalloc
def _meld_fill(mr, p1, p2, vals, jpool, taken, ob, n, ex):
    """Every meld the hand (natural cards ``p1``/``p2``, at most ``jpool`` jokers) can lay
    down: sets then runs.  F_TAKEN marks melds holding the card ``taken``.  Appends to
    ``ob``; returns the new count, or FULL_OB / FULL_EXD when ``ob`` / ``ex`` is too small
    (:func:`new_melds` grows it and starts again)."""
    nat_min = mr[MR_NATURAL_MIN]
    smin = mr[MR_SET_MIN]
    smax = mr[MR_SET_MAX]
    jok = mr[MR_SET_JOKERS] != 0
    exact3 = mr[MR_SET_SUITS] != SUITS_DISTINCT
    for r in range(13):
        lim0 = _meld_lim(p1, p2, r, 0, exact3)
        lim1 = _meld_lim(p1, p2, r, 1, exact3)
        lim2 = _meld_lim(p1, p2, r, 2, exact3)
        lim3 = _meld_lim(p1, p2, r, 3, exact3)
        ns = (lim0 > 0) + (lim1 > 0) + (lim2 > 0) + (lim3 > 0)
        if ns < 3 and (exact3 or not jok or ns + min(jpool, smax) < smin or ns < nat_min or ns == 0):
            continue
        for a0 in range(lim0 + 1):
            for a1 in range(lim1 + 1):
                for a2 in range(lim2 + 1):
                    for a3 in range(lim3 + 1):
                        nat = a0 + a1 + a2 + a3
                        if nat < nat_min or nat == 0:
                            continue
                        if exact3 and (a0 > 0) + (a1 > 0) + (a2 > 0) + (a3 > 0) != 3:
                            continue
                        d1, d2, val = _rank_cards(r, a0, a1, a2, a3, vals)
                        flags = F_TAKEN if taken >= 0 and ((d1 | d2) >> taken) & 1 else 0
                        for j in range(0, (min(jpool, smax - nat) if jok else 0) + 1):
                            if nat + j < smin or nat + j > smax:
                                continue
                            if n >= ob.shape[0]:
                                return FULL_OB
                            n = _put(ob, n, d1, d2, val, nat, j, 0, flags, SET, r,
                                      a0 | (a1 << 2) | (a2 << 4) | (a3 << 6), j, 0, 0)
    rmin = mr[MR_RUN_MIN]
    jmax = min(jpool, mr[MR_RUN_MAX_JOKERS])
    aces = mr[MR_ACES]
    top = 12 if aces == ACE_LOW else 13
    for s in range(4):
        m = suit_positions(p1, s, aces)
        if m == 0:
            continue
        for lo in range(0, 13 if aces == ACE_ROUND else top - 1):
            if popcount((m >> lo) & ((1 << rmin) - 1)) + jmax < rmin:
                continue                 # no run from lo: too few natural cards at its start
            bound = lo + 12 if aces == ACE_ROUND else top
            if aces == ACE_HIGH_OR_LOW and lo == 0:
                bound = 12
            ne = _ext_fill(s, lo - 1, 1, bound, jmax, p1, vals, ex)
            if ne < 0:
                return FULL_EXD
            for k in range(1, ne):
                ln = ex[k, 0]
                if ln < rmin or ln - ex[k, 5] < nat_min or not joker_places_ok(mr, ex[k, 1]):
                    continue
                d1 = ex[k, 2]
                flags = F_TAKEN if taken >= 0 and (d1 >> taken) & 1 else 0
                if n >= ob.shape[0]:
                    return FULL_OB
                n = _put(ob, n, d1, 0, ex[k, 3], ex[k, 4], ex[k, 5], 0, flags, RUN, s, lo,
                          lo + ln - 1, ex[k, 1], 0)
    return n


@noalloc
def _meld_lim(p1, p2, r, s, exact3):
    """Cards of rank ``r`` and suit ``s`` a new set may take (one copy unless ``exact3``)."""
    k = _avail(p1, p2, s * 16 + r)
    return 1 if not exact3 and k > 1 else k


@njit(cache=True)
def new_melds(mr, p1, p2, vals, jpool, taken, ob, n, ex):
    """:func:`_meld_fill`, growing the arrays until it fits; returns (ob, new count)."""
    r = _meld_fill(mr, p1, p2, vals, jpool, taken, ob, n, ex)
    while r < 0:
        ob, ex, _ = regrow(r, ob, ex, ex)
        r = _meld_fill(mr, p1, p2, vals, jpool, taken, ob, n, ex)
    return ob, r


@noalloc
def _move_fill(tab, i, mr, p1, vals, jpool, ob, n):
    """Loba (joker moves, no swaps): every final shape of table run ``i`` the hand can make
    with layoffs and moves of its jokers to either end - its natural cards stay, each other
    position of the new span takes a natural card of ``p1`` or a joker, with at least the
    run's jokers (they never leave it) and at most ``MR_RUN_MAX_JOKERS``; hand jokers make up
    the difference (at most ``jpool``).  Options that play no card are left out.  ``C_A`` /
    ``C_B`` the new lo / hi, ``C_C`` the new joker positions, ``C_D`` the positions of the
    natural cards laid."""
    s = tab[i, TM_KEY]
    lo = tab[i, TM_LO]
    hi = tab[i, TM_HI]
    jm = tab[i, TM_JMASK]
    j = popcount(jm)
    maxj = mr[MR_RUN_MAX_JOKERS]
    nat = (((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)) & ~jm
    n_lo = popcount((nat & -nat) - 1)
    n_hi = n_lo
    while nat >> (n_hi + 1):
        n_hi += 1
    top = 12 if mr[MR_ACES] == ACE_LOW else 13
    no_j = 0 if joker_places_ok(mr, 1 << 13) else 1 << 13     # Loba: no joker above the king
    avail = 0
    for p in range(0, top + 1):
        if (p1 >> run_code(s, p)) & 1:
            avail |= 1 << p
    for lo2 in range(n_lo, -1, -1):
        span_l = ((1 << n_lo) - 1) ^ ((1 << lo2) - 1)
        if popcount(span_l & ~avail) > maxj:
            break
        for hi2 in range(n_hi, top + 1):
            if lo2 == 0 and hi2 == 13:
                break
            rng = ((1 << (hi2 + 1)) - 1) ^ ((1 << lo2) - 1)
            gaps = rng & ~nat
            u = gaps & ~avail
            nu = popcount(u)
            if nu > maxj:
                break
            v = gaps & avail
            # the jokers among v: none, one or two positions (MR_RUN_MAX_JOKERS <= 2)
            if n >= ob.shape[0]:
                return FULL_OB
            n = _move_emit(ob, n, i, s, lo2, hi2, u, v, j, maxj, jpool, vals, no_j)
            m1 = v
            while m1 and nu < maxj:
                b1 = m1 & -m1
                m1 ^= b1
                if n >= ob.shape[0]:
                    return FULL_OB
                n = _move_emit(ob, n, i, s, lo2, hi2, u | b1, v & ~b1, j, maxj, jpool, vals, no_j)
                m2 = m1
                while m2 and nu + 1 < maxj:
                    b2 = m2 & -m2
                    m2 ^= b2
                    if n >= ob.shape[0]:
                        return FULL_OB
                    n = _move_emit(ob, n, i, s, lo2, hi2, u | b1 | b2, v & ~(b1 | b2), j, maxj,
                                   jpool, vals, no_j)
    return n


@njit(cache=True)
def move_options(tab, i, mr, p1, vals, jpool, ob, n):
    """:func:`_move_fill`, growing ``ob`` until it fits; returns (ob, new count)."""
    r = _move_fill(tab, i, mr, p1, vals, jpool, ob, n)
    while r == FULL_OB:
        ob = grow(ob)
        r = _move_fill(tab, i, mr, p1, vals, jpool, ob, n)
    return ob, r


@noalloc
def _move_emit(ob, n, i, s, lo2, hi2, jokers, nats, j, maxj, jpool, vals, no_j):
    """Append the Loba run option with jokers at ``jokers`` and natural cards laid at
    ``nats`` if it is legal (no joker at the places ``no_j``) and plays a card; returns the
    new count (the caller made room for one more row)."""
    nj2 = popcount(jokers)
    if nj2 < j or nj2 > maxj or jokers & no_j:
        return n
    jadd = nj2 - j
    if jadd > jpool or (nats == 0 and jadd == 0):
        return n
    d1, val = _run_cards(s, nats, vals)
    return _put(ob, n, d1, 0, val, popcount(nats), jadd, 0, F_MOVE | F_RUNADD, i, lo2, hi2,
                jokers, nats, 0)
