"""The ``calibrated`` belief's development of guessed hands for the single-pack knock games
(Gin, Knock Rummy): :mod:`sim.search.calibrated` draws the targets, these move the guesses
to them (:func:`develop` one hand, :func:`develop_seats` every opponent's of a world)."""

import numpy as np
from numba import njit

from ..search.calibrated import pick, target
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


@njit(cache=True)
def develop_seats(p, hands_w, known, pool, tab, pile_len, st, T_value, T_total, T_rank):
    """Every opponent's hand of a world (``hands_w``, all but seat ``p``'s) developed in turn
    toward its own target of the calibration table ``tab`` at ``pile_len``
    (:func:`sim.search.calibrated.target`), keeping its ``known[q]`` cards; ``pool`` the
    unseen cards no hand holds.  Returns the pool left (the world's stock)."""
    for q in range(hands_w.shape[0]):
        if q == p:
            continue
        h = develop(hands_w[q], pool, known[q], target(tab, pile_len, st), st, T_value, T_total, T_rank)
        pool = (pool | hands_w[q]) & ~h
        hands_w[q] = h
    return pool
