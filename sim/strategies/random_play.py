"""Uniform random play: the ``random`` rung of the balance study's strategy ladder.

Every family has a 0/1 parameter ``random_play``; with it set, every decision the family
makes becomes a uniform random legal choice drawn from the seat's strategy generator ``st``
(uint64[1], advanced in place): a yes/no decision (take the upcard, knock, drop, spread, hit)
is a fair coin, a card choice (the discard) is uniform over the cards that may legally go.
What the rules make automatic (gin, rummy, a tonk on the deal, showing a minimum arrangement,
layoffs) stays automatic.  With ``random_play = 0`` nothing is drawn, so every other strategy
plays exactly as before.

A family wires it in with the kernels here, called where its decisions are made::

    yes = coin(srow[P_RANDOM_PLAY], st, wants_upcard(...))      # the strategy's own answer
    code = uniform_card(hand & ~forbidden, st)                   # when srow[P_RANDOM_PLAY] != 0
    code = uniform_choice(copies_allowed, st)                    # (card counts: two packs)
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit

PARAM_HELP = "1: every decision is a uniform random legal choice (the `random` preset); 0: the heuristics"


@njit(cache=True)
def coin(random_play, st, decided):
    """``decided`` (the strategy's own yes/no answer), or a fair coin from ``st`` when
    ``random_play`` != 0."""
    if random_play != 0:
        return rng.randint(st, 2) == 1
    return decided


@njit(cache=True)
def uniform_card(cards, st):
    """Code (int64) of a card drawn uniformly from the uint64 mask ``cards`` (not empty)."""
    m = cards
    k = 0
    while m:
        m &= m - np.uint64(1)
        k += 1
    j = rng.randint(st, k)
    for code in range(64):
        if cards & bit(code):
            if j == 0:
                return np.int64(code)
            j -= 1
    return np.int64(-1)


@njit(cache=True)
def uniform_choice(allowed, st):
    """Index drawn uniformly from the indices ``i`` with ``allowed[i] != 0`` (an int array, e.g.
    the copies of each card code a two-pack hand may discard: identical copies are one move);
    -1 if none is allowed."""
    k = 0
    for i in range(allowed.shape[0]):
        if allowed[i] != 0:
            k += 1
    if k == 0:
        return np.int64(-1)
    j = rng.randint(st, k)
    for i in range(allowed.shape[0]):
        if allowed[i] != 0:
            if j == 0:
                return np.int64(i)
            j -= 1
    return np.int64(-1)
