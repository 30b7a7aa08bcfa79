"""The plays of a turn as the open-melding engine (:mod:`sim.open.open_rummy`) reads them from the
planner's ``plan`` (layout: :mod:`sim.open.open_plan_layout`): the goal it asks for, whether a
plan lays a new meld or a given card, and carrying the plays out with their trace."""

import numpy as np
from numba import njit
from .jit import noalloc

from . import open_plan_layout as L
from ..core import trace as TR
from .open_plan_table import apply_action, apply_plan
from ..core.trace import log

SPREAD_CARDS = 100      # trace: b of a spread event = SPREAD_CARDS * cards + jokers


@noalloc
def set_goal(goal, mode, k, layoff):
    goal[L.GOAL_MODE] = mode
    goal[L.GOAL_K] = k
    goal[L.GOAL_KEEP] = -1
    goal[L.GOAL_LAYOFF] = layoff


@noalloc
def plan_melds(plan):
    """Does the plan lay a new meld?"""
    for a in range(plan[L.PL_N_ACT]):
        if plan[L.PL_HEAD + a * L.ACT_WIDTH + L.A_TYPE] == L.A_MELD:
            return True
    return False


@noalloc
def play_plan(plan, hand, tab, n_tm, seat, mr, trace):
    """Carry out the plan (:func:`sim.open.open_plan.apply_plan`); returns the new number of table
    rows.  Traced, each action is logged (:func:`log_action`) and then the row it changed
    (:func:`log_row`), so a trace shows the whole table after every play."""
    if trace.shape[0] == 0:
        return apply_plan(plan, hand, tab, n_tm, seat, mr)
    for a in range(plan[L.PL_N_ACT]):
        act = plan[L.PL_HEAD + a * L.ACT_WIDTH:L.PL_HEAD + (a + 1) * L.ACT_WIDTH]
        log_action(act, seat, trace)
        n_tm = apply_action(act, hand, tab, n_tm, seat, mr)
        log_row(tab, n_tm - 1 if act[L.A_TYPE] == L.A_MELD else act[L.A_ROW], trace)
    return n_tm


@noalloc
def log_row(tab, i, trace):
    """Trace table row ``i`` as it stands: a ``table`` row with seat ``i``, ``a`` = owner |
    kind << 4 | key << 5 | (lo + 1) << 9 | (hi + 1) << 15 | jokers << 21 | the natural count
    of suit s << (25 + 3 s), ``b`` = the run's joker positions (TM_JMASK); decoded by
    :func:`analysis.trace_events.table_row`."""
    a = (tab[i, L.TM_OWNER] | tab[i, L.TM_KIND] << 4 | tab[i, L.TM_KEY] << 5 | (tab[i, L.TM_LO] + 1) << 9
         | (tab[i, L.TM_HI] + 1) << 15 | tab[i, L.TM_NJ] << 21)
    for s in range(4):
        a |= tab[i, L.TM_S0 + s] << (25 + 3 * s)
    log(trace, TR.E_TABLE, i, a, tab[i, L.TM_JMASK])


@noalloc
def log_action(act, seat, trace):
    """Trace one play: a meld as ``spread`` (a: its codes as a mask, jokers as X; b:
    ``SPREAD_CARDS`` * its cards + its jokers), a layoff as ``hit`` (card, table row), a
    joker swap as ``swap`` (the natural card put in, row), a Loba joker move as ``move`` (the
    hand's card filling its place or -1, row)."""
    t = act[L.A_TYPE]
    if t == L.A_MELD:
        mask = np.int64(0)
        key = act[L.A_KEY]
        n_cards = 0
        n_jokers = 0
        if act[L.A_KIND] == L.RUN:
            for p in range(act[L.A_LO], act[L.A_HI] + 1):
                c = 13 if (act[L.A_JMASK] >> p) & 1 else (key << 4) + p % 13
                mask |= np.int64(1) << c
                n_cards += 1
                n_jokers += c == 13
        else:
            for s in range(4):
                if act[L.A_C0 + s] > 0:
                    mask |= np.int64(1) << ((s << 4) + key)
                    n_cards += act[L.A_C0 + s]
            n_jokers = act[L.A_NJ]
            n_cards += n_jokers
            if n_jokers > 0:
                mask |= np.int64(1) << 13
        log(trace, TR.E_SPREAD, seat, mask, SPREAD_CARDS * n_cards + n_jokers)
    elif t == L.A_LAYOFF:
        log(trace, TR.E_HIT, seat, act[L.A_CODE], act[L.A_ROW])
    elif t == L.A_SWAP:
        log(trace, TR.E_SWAP, seat, act[L.A_CODE], act[L.A_ROW])
    else:
        log(trace, TR.E_MOVE, seat, act[L.A_CODE], act[L.A_ROW])


@noalloc
def plan_uses(plan, code):
    """Does the plan lay the natural card ``code`` (or a joker, ``code`` 13) from the hand?"""
    for a in range(plan[L.PL_N_ACT]):
        o = L.PL_HEAD + a * L.ACT_WIDTH
        t = plan[o + L.A_TYPE]
        if t == L.A_MELD:
            key = plan[o + L.A_KEY]
            if code == 13:
                if plan[o + L.A_KIND] == L.RUN and plan[o + L.A_JMASK] != 0:
                    return True
                if plan[o + L.A_KIND] == L.SET and plan[o + L.A_NJ] > 0:
                    return True
            elif plan[o + L.A_KIND] == L.RUN:
                if key == code >> 4:
                    for p in range(plan[o + L.A_LO], plan[o + L.A_HI] + 1):
                        if p % 13 == (code & 15) and not (plan[o + L.A_JMASK] >> p) & 1:
                            return True
            elif key == (code & 15) and plan[o + L.A_C0 + (code >> 4)] > 0:
                return True
        elif (t == L.A_LAYOFF or t == L.A_SWAP or t == L.A_MOVE) and plan[o + L.A_CODE] == code:
            return True
    return False


@noalloc
def may_play(hand, code, tab, n_tm, ace_high):
    """False only if the card ``code`` cannot go down this turn with the hand ``hand`` (not
    holding it) and the table: a new meld needs two more cards of its rank, or two of its
    suit within two ranks (jokers count as either); a layoff, a chain of layoffs or a joker
    swap needs a meld of its rank or suit on the table.  A cheap test before the planner."""
    if code == 13:
        return True
    r = code & 15
    s = code >> 4
    nj = hand[13]
    same = hand[r] + hand[16 + r] + hand[32 + r] + hand[48 + r]
    near = 0
    for d in (-2, -1, 1, 2):
        q = r + d
        if ace_high:
            q = (q + 13) % 13
        if 0 <= q < 13:
            near += hand[(s << 4) + q]
    if same + nj >= 2 or near + nj >= 2:
        return True
    for t in range(n_tm):
        if tab[t, L.TM_KIND] == L.RUN:
            if tab[t, L.TM_KEY] == s:
                return True
        elif tab[t, L.TM_KEY] == r:
            return True
    return False

