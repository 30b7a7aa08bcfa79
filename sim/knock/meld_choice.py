"""A random minimum-deadwood arrangement, drawn as Neller's EAAI Gin Rummy framework draws it.

The framework (``GinRummyUtil.cardsToBestMeldSets``) lists every set of disjoint melds of a
hand that leaves the least deadwood, a run of length L counted once per way of cutting it into
runs of three or more (a six-card run is one meld or two of three), and its players show one
of that list uniformly at random (``SimpleGinRummyPlayer.getFinalMelds``, as knocker and as
defender).  Two list entries that differ only in how a run is cut cover the same cards and
leave the same layoff spots, so what matters is the cover: alternatives differ by their set
choices (for single-pack runs without a length limit the best run cover of a suit is unique,
see :func:`sim.knock.melds.min_arrangements`), and the framework picks a cover with
probability proportional to its number of list entries, the product over its maximal runs of
:data:`CUTS` [length].  :func:`arrangement_random` draws from the same distribution.
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.cards import N_RANKS
from .melds import RUN, chosen, min_arrangements


def _cuts(n: int) -> np.ndarray:
    """Ways to cut a run of length L (index) into runs of length >= 3."""
    c = np.zeros(n + 1, dtype=np.int64)
    c[0] = 1
    for length in range(3, n + 1):
        c[length] = sum(c[length - k] for k in range(3, length + 1))
    return c


CUTS = _cuts(14)


@njit(cache=True)
def cover_weight(melds, n, cuts):
    """Entries of the framework's list with this cover: the product of ``cuts`` over the maximal
    runs (adjacent run records in a suit joined)."""
    w = np.int64(1)
    for s in range(4):
        ranks = 0
        for i in range(n):
            if melds[i, 0] == RUN and melds[i, 1] == s:
                for r in range(melds[i, 2], melds[i, 3] + 1):
                    ranks |= 1 << (r % N_RANKS)
        length = 0
        for r in range(N_RANKS + 1):
            if r < N_RANKS and (ranks >> r) & 1:
                length += 1
            else:
                w *= cuts[length] if length else 1
                length = 0
    return w


@njit(cache=True)
def arrangement_random(mask, run_value, run_cover, run_starts, suit_total, rank_value, melds_out, st):
    """A minimum-deadwood arrangement of ``mask`` drawn with the framework's weights (module
    doc) from the generator ``st``; same returns as :func:`sim.knock.melds.arrangement`."""
    dw, melds, n_melds, melded = min_arrangements(mask, run_value, run_cover, run_starts, suit_total, rank_value)
    pick = 0
    total = np.int64(0)
    for i in range(n_melds.shape[0]):
        w = cover_weight(melds[i], n_melds[i], CUTS)
        total += w
        if total == w or rng.randint(st, total) < w:     # keep this one with probability w / total
            pick = i
    return chosen(dw, melds, n_melds, melded, mask, pick, melds_out)
