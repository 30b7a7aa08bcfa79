"""The ``calibrated`` belief's development of a guessed hand for the single-pack knock games
(Gin, Knock Rummy): :mod:`sim.search.calibrated` draws the target, this moves the guess to it."""

import numpy as np
from numba import njit

from ..search.calibrated import pick
from .melds import deadwood

DEVELOP_SWAPS = 64           # swaps tried per world


@njit(cache=True)
def develop(h, pool, fixed, goal, st, T_value, T_total, T_rank):
    """The hand ``h`` (mask) moved toward deadwood ``goal``: up to :data:`DEVELOP_SWAPS`
    times a random card of ``h`` not in ``fixed`` (cards the seat knows the opponent holds)
    and a random card of ``pool`` (the unseen cards not in ``h``) change places, kept when
    the deadwood comes closer to the goal."""
    free = h & ~fixed
    if free == 0 or pool == 0:
        return h
    gap = abs(deadwood(h, T_value, T_total, T_rank) - goal)
    for _ in range(DEVELOP_SWAPS):
        if gap < 0.5:
            break
        out = pick(free, st)
        inn = pick(pool, st)
        h2 = (h & ~out) | inn
        g2 = abs(deadwood(h2, T_value, T_total, T_rank) - goal)
        if g2 < gap:
            h = h2
            gap = g2
            free = (free & ~out) | inn
            pool = (pool & ~inn) | out
    return h
