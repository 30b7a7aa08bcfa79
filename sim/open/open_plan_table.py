"""Table kernels of the open-melding planner: meld legality under the rules ``mr``, adding
melds, carrying a plan out (:func:`apply_plan`, the only writer of the table) and the debug
check :func:`check_table`.  Layout: :mod:`sim.open.open_plan_layout`."""

from __future__ import annotations

import numpy as np
from numba import njit
from .jit import noalloc

from ..core.cards import JOKER
from .open_plan_layout import (
    A_CODE, A_C0, A_HI, A_JMASK, A_KEY, A_KIND, A_LAYOFF, A_LO, A_MELD, A_MOVE, A_NJ, A_POS,
    A_ROW, A_SWAP, A_TO, A_TYPE, END_HIGH, END_LOW, ACE_HIGH_OR_LOW, ACE_LOW, ACE_ROUND, ACT_WIDTH, MR_ACES,
    MR_JOKER_A_TO_K, MR_N_PACKS, MR_NATURAL_MIN, MR_RUN_MAX_JOKERS, MR_RUN_MIN, MR_SET_JOKERS, MR_SET_MAX,
    MR_SET_MIN, MR_SET_SUITS, PL_HEAD, PL_N_ACT, RUN, SET, SUITS_DISTINCT, TM_HI, TM_JMASK,
    TM_JSUITS, TM_KEY, TM_KIND, TM_LO, TM_N, TM_NJ, TM_OWNER, TM_S0, TM_WIDTH,
)


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of the int64 ``x`` (x >= 0)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@noalloc
def run_span_ok(mr, lo, hi):
    """bool: positions lo..hi form a run span the ace rule allows (any length >= 1)."""
    if hi < lo:
        return False
    aces = mr[MR_ACES]
    if aces == ACE_LOW:
        return lo >= 0 and hi <= 12
    if aces == ACE_HIGH_OR_LOW:
        return lo >= 0 and hi <= 13 and not (lo == 0 and hi == 13)
    return hi - lo + 1 <= 13


@njit(cache=True, inline="always")
def joker_places_ok(mr, jmask):
    """bool: no joker of a run's joker positions ``jmask`` stands where ``mr`` forbids one:
    with ``MR_JOKER_A_TO_K`` (Loba) none above the king, in the ace-high place 13 (none can
    stand below the low ace: positions start at 0)."""
    return mr[MR_JOKER_A_TO_K] == 0 or (jmask >> 13) == 0


@noalloc
def run_legal(mr, lo, hi, jmask):
    """bool: a run over lo..hi with jokers at the bits of ``jmask`` is legal under ``mr``."""
    n = hi - lo + 1
    if n < mr[MR_RUN_MIN] or not run_span_ok(mr, lo, hi):
        return False
    if mr[MR_ACES] == ACE_ROUND and (lo < 0 or lo > 12):
        return False
    if jmask >> (hi + 1) != 0 or (jmask & ((1 << lo) - 1)) != 0 or not joker_places_ok(mr, jmask):
        return False
    nj = popcount(jmask)
    return nj <= mr[MR_RUN_MAX_JOKERS] and n - nj >= mr[MR_NATURAL_MIN]


@noalloc
def set_legal(mr, c0, c1, c2, c3, nj):
    """bool: a set of one rank with natural counts c0..c3 per suit and ``nj`` jokers."""
    nat = c0 + c1 + c2 + c3
    n = nat + nj
    if n < mr[MR_SET_MIN] or n > mr[MR_SET_MAX] or nat < mr[MR_NATURAL_MIN]:
        return False
    if nj > 0 and mr[MR_SET_JOKERS] == 0:
        return False
    cap = 1 if mr[MR_SET_SUITS] == SUITS_DISTINCT else mr[MR_N_PACKS]
    if c0 > cap or c1 > cap or c2 > cap or c3 > cap or min(min(c0, c1), min(c2, c3)) < 0:
        return False
    if mr[MR_SET_SUITS] == SUITS_DISTINCT:
        return n <= 4
    return (c0 > 0) + (c1 > 0) + (c2 > 0) + (c3 > 0) == 3


@noalloc
def row_legal(tab, i, mr):
    """bool: table row ``i`` is a legal meld under ``mr`` and its counters agree."""
    if tab[i, TM_KIND] == RUN:
        lo = tab[i, TM_LO]
        hi = tab[i, TM_HI]
        jm = tab[i, TM_JMASK]
        return (run_legal(mr, lo, hi, jm) and tab[i, TM_N] == hi - lo + 1
                and tab[i, TM_NJ] == popcount(jm) and 0 <= tab[i, TM_KEY] < 4)
    c = tab[i, TM_S0:TM_S0 + 4]
    return (set_legal(mr, c[0], c[1], c[2], c[3], tab[i, TM_NJ]) and 0 <= tab[i, TM_KEY] < 13
            and tab[i, TM_N] == c[0] + c[1] + c[2] + c[3] + tab[i, TM_NJ])


@noalloc
def require_legal(tab, i, mr):
    """Raise ValueError unless table row ``i`` is legal under ``mr`` (naming a joker that
    stands above the king: the Loba rule the issue 18 measurement counts)."""
    if tab[i, TM_KIND] == RUN and not joker_places_ok(mr, tab[i, TM_JMASK]):
        raise ValueError("an illegal meld on the table: a joker stands above the king")
    if not row_legal(tab, i, mr):
        raise ValueError("an illegal meld on the table")


@noalloc
def _set_refresh(tab, i):
    c = tab[i, TM_S0:TM_S0 + 4]
    tab[i, TM_N] = c[0] + c[1] + c[2] + c[3] + tab[i, TM_NJ]
    js = 0
    for s in range(4):
        if c[s] == 0:
            js |= 1 << s
    tab[i, TM_JSUITS] = js if tab[i, TM_NJ] > 0 else 0


@noalloc
def add_run(tab, n_tm, owner, suit, lo, hi, jmask):
    """Put a run on the table at row ``n_tm`` (positions normalised); returns the new n_tm."""
    tab[n_tm, :] = 0
    tab[n_tm, TM_OWNER] = owner
    tab[n_tm, TM_KIND] = RUN
    tab[n_tm, TM_KEY] = suit
    tab[n_tm, TM_LO] = lo
    tab[n_tm, TM_HI] = hi
    tab[n_tm, TM_JMASK] = jmask
    _run_normalise(tab, n_tm)
    return n_tm + 1


@noalloc
def _run_normalise(tab, i):
    """Shift a round-the-corner run so that 0 <= lo <= 12; refresh its counters."""
    while tab[i, TM_LO] < 0:
        tab[i, TM_LO] += 13
        tab[i, TM_HI] += 13
        tab[i, TM_JMASK] <<= 13
    while tab[i, TM_LO] > 12:
        tab[i, TM_LO] -= 13
        tab[i, TM_HI] -= 13
        tab[i, TM_JMASK] >>= 13
    tab[i, TM_N] = tab[i, TM_HI] - tab[i, TM_LO] + 1
    tab[i, TM_NJ] = popcount(tab[i, TM_JMASK])


@noalloc
def add_set(tab, n_tm, owner, rank, c0, c1, c2, c3, nj):
    """Put a set on the table at row ``n_tm``; returns the new n_tm."""
    tab[n_tm, :] = 0
    tab[n_tm, TM_OWNER] = owner
    tab[n_tm, TM_KIND] = SET
    tab[n_tm, TM_KEY] = rank
    tab[n_tm, TM_LO] = -1
    tab[n_tm, TM_HI] = -1
    tab[n_tm, TM_S0] = c0
    tab[n_tm, TM_S0 + 1] = c1
    tab[n_tm, TM_S0 + 2] = c2
    tab[n_tm, TM_S0 + 3] = c3
    tab[n_tm, TM_NJ] = nj
    _set_refresh(tab, n_tm)
    return n_tm + 1


@noalloc
def run_code(suit, pos):
    """Card code at run position ``pos`` of a run in ``suit``."""
    return suit * 16 + pos % 13


@noalloc
def table_counts(tab, n_tm, out):
    """Add the cards of the first ``n_tm`` rows to the int64[64] count vector ``out``."""
    for i in range(n_tm):
        out[JOKER] += tab[i, TM_NJ]
        if tab[i, TM_KIND] == RUN:
            s = tab[i, TM_KEY]
            for p in range(tab[i, TM_LO], tab[i, TM_HI] + 1):
                if not (tab[i, TM_JMASK] >> p) & 1:
                    out[run_code(s, p)] += 1
        else:
            for s in range(4):
                out[s * 16 + tab[i, TM_KEY]] += tab[i, TM_S0 + s]


@noalloc
def _take(hand, code):
    if hand[code] <= 0:
        raise ValueError("a plan plays a card the hand does not hold")
    hand[code] -= 1


@noalloc
def apply_action(act, hand, tab, n_tm, seat, mr):
    """Carry out one action (int64[ACT_WIDTH]) of a plan; returns the new n_tm.  Raises
    ValueError when the action is impossible, leaves an illegal meld or comes after the
    hand is empty (going out ends the hand)."""
    if hand.sum() == 0:
        raise ValueError("a plan plays on after the hand is empty")
    t = act[A_TYPE]
    if t == A_MELD:
        if act[A_KIND] == RUN:
            s = act[A_KEY]
            for p in range(act[A_LO], act[A_HI] + 1):
                _take(hand, JOKER if (act[A_JMASK] >> p) & 1 else run_code(s, p))
            n_tm = add_run(tab, n_tm, seat, s, act[A_LO], act[A_HI], act[A_JMASK])
        else:
            r = act[A_KEY]
            for s in range(4):
                for _ in range(act[A_C0 + s]):
                    _take(hand, s * 16 + r)
            for _ in range(act[A_NJ]):
                _take(hand, JOKER)
            n_tm = add_set(tab, n_tm, seat, r, act[A_C0], act[A_C0 + 1], act[A_C0 + 2],
                           act[A_C0 + 3], act[A_NJ])
        require_legal(tab, n_tm - 1, mr)
        return n_tm
    i = act[A_ROW]
    if i < 0 or i >= n_tm:
        raise ValueError("a plan names a table row that does not exist")
    code = act[A_CODE]
    if tab[i, TM_KIND] == SET:
        if t == A_LAYOFF:
            _take(hand, code)
            if code == JOKER:
                tab[i, TM_NJ] += 1
            else:
                tab[i, TM_S0 + code // 16] += 1
        elif t == A_SWAP:
            if tab[i, TM_NJ] <= 0 or tab[i, TM_S0 + code // 16] != 0:
                raise ValueError("a plan swaps a joker out of a set without one")
            _take(hand, code)
            hand[JOKER] += 1
            tab[i, TM_NJ] -= 1
            tab[i, TM_S0 + code // 16] += 1
        else:
            raise ValueError("a plan moves a joker of a set")
        if code != JOKER and code % 16 != tab[i, TM_KEY]:
            raise ValueError("a plan lays a card of another rank onto a set")
        _set_refresh(tab, i)
    else:
        s = tab[i, TM_KEY]
        p = act[A_POS]
        lo = tab[i, TM_LO]
        hi = tab[i, TM_HI]
        if t == A_LAYOFF:
            if p != END_LOW and p != END_HIGH:
                raise ValueError("a plan lays off away from a run's ends")
            p = lo - 1 if p == END_LOW else hi + 1
            if p < 0:                      # round the corner below the ace: shift up 13
                p += 13
                lo += 13
                hi += 13
                tab[i, TM_JMASK] <<= 13
            if code == JOKER:
                tab[i, TM_JMASK] |= 1 << p
            elif code != run_code(s, p):
                raise ValueError("a plan lays off a card that does not fit the run")
            _take(hand, code)
            tab[i, TM_LO] = min(lo, p)
            tab[i, TM_HI] = max(hi, p)
        elif t == A_SWAP:
            if p < lo or p > hi or not (tab[i, TM_JMASK] >> p) & 1 or code != run_code(s, p):
                raise ValueError("a plan swaps a joker that is not there")
            _take(hand, code)
            hand[JOKER] += 1
            tab[i, TM_JMASK] &= ~(1 << p)
        else:
            _move_joker(act, hand, tab, i)
        _run_normalise(tab, i)
    require_legal(tab, i, mr)
    return n_tm


@noalloc
def _move_joker(act, hand, tab, i):
    """A_MOVE: the joker at A_POS goes to A_TO, a natural card A_CODE fills A_POS (or none:
    A_POS must then be an end)."""
    s = tab[i, TM_KEY]
    p = act[A_POS]
    lo = tab[i, TM_LO]
    hi = tab[i, TM_HI]
    jm = tab[i, TM_JMASK]
    if p < lo or p > hi or not (jm >> p) & 1:
        raise ValueError("a plan moves a joker that is not there")
    jm &= ~(1 << p)
    if act[A_CODE] >= 0:
        if act[A_CODE] != run_code(s, p):
            raise ValueError("a plan fills a joker's place with a card that does not fit")
        _take(hand, act[A_CODE])
    elif p == lo:
        lo += 1
    elif p == hi:
        hi -= 1
    else:
        raise ValueError("a plan moves an inner joker without filling its place")
    if act[A_TO] == END_LOW:
        lo -= 1
        q = lo
    elif act[A_TO] == END_HIGH:
        hi += 1
        q = hi
    else:
        raise ValueError("a plan moves a joker away from the run's ends")
    if q < 0:
        raise ValueError("a plan moves a joker below the ace")
    jm |= 1 << q
    tab[i, TM_LO] = lo
    tab[i, TM_HI] = hi
    tab[i, TM_JMASK] = jm


@noalloc
def apply_plan(plan, hand, tab, n_tm, seat, mr):
    """Carry out a plan of :func:`sim.open.open_plan.plan_turn` for ``seat``: ``hand`` (int64[64])
    and ``tab`` are updated in place; returns the new number of table rows.  Raises
    ValueError on an impossible plan (a bug: plan_turn only writes legal ones)."""
    for k in range(plan[PL_N_ACT]):
        n_tm = apply_action(plan[PL_HEAD + k * ACT_WIDTH:PL_HEAD + (k + 1) * ACT_WIDTH],
                            hand, tab, n_tm, seat, mr)
    return n_tm


@njit(cache=True)
def check_table(tab, n_tm, mr, off_table, pack):
    """Debug: every row legal under ``mr`` and card conservation: the table's cards plus
    ``off_table`` (int64[64] counts of hands, stock and pile) equal ``pack`` (int64[64]).
    Raises ValueError."""
    if tab.shape[1] != TM_WIDTH or n_tm > tab.shape[0] or n_tm < 0:
        raise ValueError("the table array has the wrong shape")
    for i in range(n_tm):
        require_legal(tab, i, mr)
    total = off_table.copy()
    table_counts(tab, n_tm, total)
    for c in range(64):
        if total[c] != pack[c]:
            raise ValueError("card conservation: the table, hands, stock and pile do not make the pack")
