"""A random minimum-deadwood arrangement, drawn as Neller's EAAI Gin Rummy framework draws it.

The framework (``GinRummyUtil.cardsToBestMeldSets``) lists every set of disjoint melds of a
hand that leaves the least deadwood, a run of length L counted once per way of cutting it into
runs of three or more (a six-card run is one meld or two of three), and its players show one
of that list uniformly at random (``SimpleGinRummyPlayer.getFinalMelds``, as knocker and as
defender).  Two list entries that differ only in how a run is cut cover the same cards and
leave the same layoff spots, so what matters is the cover: alternatives differ by their set
choices (for single-pack runs without a length limit the best run cover of a suit is unique,
see :func:`sim.melds.arrangement_fewest_spots`), and the framework picks a cover with
probability proportional to its number of list entries, the product over its maximal runs of
:data:`CUTS` [length].  :func:`arrangement_random` draws from the same distribution.
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.cards import N_RANKS
from .melds import RUN, _best_melded, _combo_value, _decode, _records, _set_options, _suit, hand_value


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
    doc) from the generator ``st``; same returns as :func:`sim.melds.arrangement`."""
    a0, a1, a2, a3 = _suit(mask, 0), _suit(mask, 1), _suit(mask, 2), _suit(mask, 3)
    best = _best_melded(a0, a1, a2, a3, run_value, rank_value)[0]
    r0, r1, r2, r3, n0, n1, n2, n3 = _set_options(a0, a1, a2, a3)
    opts = np.array([r0, r1, r2, r3, 0, 0, 0, 0], dtype=np.int64)
    tmp = np.zeros_like(melds_out)
    total = np.int64(0)
    n_best = 0
    melded_best = np.uint64(0)
    for idx in range(n0 * n1 * n2 * n3):
        o0, o1, o2, o3 = _decode(idx, n0, n1, n2)
        if _combo_value(a0, a1, a2, a3, r0, r1, r2, r3, o0, o1, o2, o3, run_value, rank_value) != best:
            continue
        opts[4], opts[5], opts[6], opts[7] = o0, o1, o2, o3
        n, melded = _records(mask, opts, run_cover, run_starts, tmp)
        w = cover_weight(tmp, n, CUTS)
        total += w
        if total == w or rng.randint(st, total) < w:     # keep this one with probability w / total
            n_best = n
            melded_best = melded
            melds_out[:n] = tmp[:n]
    return hand_value(mask, suit_total) - best, n_best, mask & ~melded_best
