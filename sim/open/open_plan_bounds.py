"""Cheap bounds the planner (:mod:`sim.open.open_plan_search`) asks before its search: could the
hand play anything at all (:func:`any_play`; False skips the search), and how many jokers could
its natural cards swap off the table (:func:`swappable`, the joker pool's bound)."""

from .jit import noalloc

from .open_plan_layout import (
    ACE_LOW, ACE_ROUND, MR_ACES, MR_JOKER_MOVE, MR_N_PACKS, MR_NATURAL_MIN, MR_RUN_MAX_JOKERS, MR_RUN_MIN,
    MR_SET_JOKERS, MR_SET_MAX, MR_SET_MIN, MR_SET_SUITS, MR_SWAP, RUN, SUITS_DISTINCT, SWAP_NONE, TM_HI,
    TM_JMASK, TM_KEY, TM_LO, TM_NJ, TM_S0,
)
from .open_plan_options import suit_positions
from .open_plan_table import popcount, run_code


@noalloc
def any_play(mr, p1, p2, njp, tab, n_tm):
    """bool, cheap: could the hand (natural cards ``p1``/``p2``, ``njp`` jokers) make any
    meld, layoff, swap or joker move at all?  False lets the planner skip its search."""
    exact3 = mr[MR_SET_SUITS] != SUITS_DISTINCT
    jset = njp if mr[MR_SET_JOKERS] != 0 else 0
    # sets: per rank, the suits held
    f = p1 & 0x1FFF
    g = (p1 >> 16) & 0x1FFF
    h = (p1 >> 32) & 0x1FFF
    k = (p1 >> 48) & 0x1FFF
    three = (f & g & (h | k)) | (h & k & (f | g))
    if three:
        return True
    if not exact3 and jset > 0:
        need = mr[MR_SET_MIN] - jset
        if need <= 2 and ((f & g) | (f & h) | (f & k) | (g & h) | (g & k) | (h & k)):
            return True
        if need <= 1 and (f | g | h | k) and mr[MR_NATURAL_MIN] <= 1:
            return True
    # runs
    rmin = mr[MR_RUN_MIN]
    jr = min(njp, mr[MR_RUN_MAX_JOKERS])
    aces = mr[MR_ACES]
    width = 27 if aces == ACE_ROUND else 14
    for s in range(4):
        if _suit_may_run(suit_positions(p1, s, aces), rmin, jr, width):
            return True
    # the table
    swap = mr[MR_SWAP] != SWAP_NONE
    for i in range(n_tm):
        if tab[i, 1] == RUN:
            if _run_touch(tab, i, mr, p1, njp, swap):
                return True
        else:
            r = tab[i, TM_KEY]
            n_set = tab[i, TM_S0] + tab[i, TM_S0 + 1] + tab[i, TM_S0 + 2] + tab[i, TM_S0 + 3] + tab[i, TM_NJ]
            for s in range(4):
                if not (p1 >> (s * 16 + r)) & 1:
                    continue
                have = tab[i, TM_S0 + s]
                if exact3:
                    if have > 0 and have < mr[MR_N_PACKS] and n_set < mr[MR_SET_MAX]:
                        return True
                elif have == 0 and (n_set < mr[MR_SET_MAX] or (swap and tab[i, TM_NJ] > 0)):
                    return True
            if jset > 0 and n_set < mr[MR_SET_MAX]:
                return True
    return False


@noalloc
def _suit_may_run(m, rmin, jr, width):
    """bool: could the run positions ``m`` of one suit (:func:`sim.open.open_plan_options.suit_positions`)
    with ``jr`` jokers make a run of ``rmin`` cards within positions ``0 .. width - 1``?"""
    if m == 0:
        return False
    if jr == 0:                         # rmin cards in a row
        y = m
        for t in range(1, rmin):
            y &= m >> t
        return y != 0
    for lo in range(0, width - rmin + 1):
        if popcount((m >> lo) & ((1 << rmin) - 1)) + jr >= rmin:
            return True
    return False


@noalloc
def _run_touch(tab, i, mr, p1, njp, swap):
    """bool: a card of ``p1`` or a joker could go onto table run ``i`` (superset test)."""
    s = tab[i, TM_KEY]
    lo = tab[i, TM_LO]
    hi = tab[i, TM_HI]
    nj = tab[i, TM_NJ]
    reach = 1
    if mr[MR_JOKER_MOVE] and nj > 0:
        reach = nj + 1
    if swap or mr[MR_JOKER_MOVE]:
        for p in range(lo, hi + 1):
            if (tab[i, TM_JMASK] >> p) & 1 and (p1 >> run_code(s, p)) & 1:
                return True
    can_grow = hi - lo + 1 < 13
    if not can_grow:
        return False
    for d in range(1, reach + 1):
        for p in (lo - d, hi + d):
            if mr[MR_ACES] != ACE_ROUND and (p < 0 or p > 13):
                continue
            if p == 13 and mr[MR_ACES] == ACE_LOW:
                continue
            if (p1 >> run_code(s, p)) & 1:
                return True
    if njp > 0 and nj < mr[MR_RUN_MAX_JOKERS]:
        return True
    return False


@noalloc
def swappable(tab, n_tm, p1):
    """Jokers on the table the hand's natural cards ``p1`` could swap out (an upper bound of
    the jokers a turn can take back)."""
    n = 0
    for i in range(n_tm):
        nj = tab[i, TM_NJ]
        if nj == 0:
            continue
        s = tab[i, TM_KEY]
        if tab[i, 1] == RUN:
            for p in range(tab[i, TM_LO], tab[i, TM_HI] + 1):
                if (tab[i, TM_JMASK] >> p) & 1 and (p1 >> run_code(s, p)) & 1:
                    n += 1
        else:
            k = 0
            for q in range(4):
                if tab[i, TM_S0 + q] == 0 and (p1 >> (q * 16 + s)) & 1:
                    k += 1
            n += min(k, nj)
    return n
