"""Kernels shared by every game's search player (:mod:`sim.search`).

* :func:`decision_key`: one uint64 drawn from the searching seat's generator per decision;
  every world of the decision derives its streams from it (:func:`world_streams`), so the
  search is deterministic from the run's seed and the candidates share their worlds;
  :func:`decision_buffers`: the key and what the decision's loop over worlds works in.
* :func:`shuffle_unseen`: the codes of a card mask in a random order (single pack, bit masks);
  :func:`shuffle_codes`: an array of codes in a random order (any number of packs).
* :func:`race`: candidates that after a batch of worlds are clearly no better than the
  heuristic's choice stop being played out (racing: the budget goes to the close ones).
* :func:`paired_choice`: the heuristic's choice (candidate 0) unless another candidate beats it
  by ``z`` standard errors of the paired per-world difference: with a few dozen worlds the
  means of near-equal candidates differ by noise alone, and a plain argmax then plays worse
  than the heuristic it rolls out with.
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import mask_codes
from ..core.trace import no_trace

STREAM_WORLD = 40     # the stream of a world's unseen-card shuffle (rng streams: sim.core.rng)
STREAM_ROLLOUT = 48   # + seat: the seats' strategy streams inside a rollout
RACE_STEP = 8        # worlds between two racing rounds


@njit(cache=True)
def decision_key(st):
    """A fresh key for one decision, from the searching seat's generator ``st`` (uint64[1])."""
    return rng.next_u64(st)


@njit(cache=True)
def world_streams(key, w, st_w):
    """Seat ``s``'s strategy stream inside world ``w``: ``st_w[s, 0]`` (uint64[n_seats, 1]),
    the same for every candidate of the decision (common random numbers)."""
    for s in range(st_w.shape[0]):
        st_w[s, 0] = rng.stream_key(key, STREAM_ROLLOUT + s, w)


@njit(cache=True)
def shuffle_unseen(unseen, key, w, buf):
    """The card codes of mask ``unseen`` (uint64) in a uniformly random order into ``buf``
    (int64, long enough), from world ``w``'s stream of decision ``key``; returns how many."""
    n = mask_codes(unseen, buf)
    shuffle_codes(buf, n, key, w)
    return n


@njit(cache=True)
def shuffle_codes(buf, n, key, w):
    """``buf[:n]`` (int64 card codes, any number of packs) in a uniformly random order, in
    place, from world ``w``'s stream of decision ``key`` (multi-pack games collect their
    unseen cards as codes and shuffle them here)."""
    st = rng.new_state(key, STREAM_WORLD, w)
    for i in range(n - 1, 0, -1):
        j = rng.randint(st, i + 1)
        t = buf[i]
        buf[i] = buf[j]
        buf[j] = t


@njit(cache=True)
def _paired(vals, nw, a):
    """Mean and standard error of ``vals[:nw, a] - vals[:nw, 0]``."""
    s = 0.0
    s2 = 0.0
    for w in range(nw):
        d = vals[w, a] - vals[w, 0]
        s += d
        s2 += d * d
    mean = s / nw
    var = (s2 - s * mean) / (nw - 1) if nw > 1 else 0.0
    return mean, np.sqrt(max(var, 0.0) / nw)


@njit(cache=True)
def race(vals, nw, n, z_drop, alive):
    """After ``nw`` worlds: the candidates (other than 0) whose paired mean difference to
    candidate 0 is not above ``z_drop`` standard errors stop (``alive[a]`` = False).  Returns
    how many candidates besides 0 are still alive."""
    left = 0
    for a in range(1, n):
        if alive[a]:
            mean, se = _paired(vals, nw, a)
            if mean < z_drop * se:
                alive[a] = False
            else:
                left += 1
    return left


@njit(cache=True)
def stop_after(vals, w, worlds, n, z_drop, alive):
    """Called after world ``w`` of ``worlds``: a racing round every :data:`RACE_STEP` worlds;
    True when no candidate but the heuristic's is left, or the budget is spent."""
    nw = w + 1
    if nw >= worlds:
        return True
    if nw % RACE_STEP == 0:
        return race(vals, nw, n, z_drop, alive) == 0
    return False


@njit(cache=True)
def paired_choice(vals, nw, n, z, alive):
    """The chosen candidate of ``vals[:nw, :n]`` (float64, one row per world, candidate 0 the
    heuristic's choice; only ``alive`` candidates): the one with the highest mean among those
    whose mean paired difference to candidate 0 exceeds ``z`` times its standard error; 0 if
    none does (``z`` <= 0: the plain highest mean, ties to the first)."""
    best = 0
    best_gain = 0.0
    for a in range(1, n):
        if not alive[a]:
            continue
        mean, se = _paired(vals, nw, a)
        if mean > best_gain + 1e-9 and (z <= 0.0 or mean > z * se):
            best = a
            best_gain = mean
    return best


@njit(cache=True)
def rollout_rows(strat, p, col_search):
    """The rollouts' strategy matrix: seat ``p``'s row at every seat, with its search switched
    off (column ``col_search``, the family's ``search_worlds``): the heuristic plays it out."""
    r = np.empty_like(strat)
    for s in range(strat.shape[0]):
        r[s, :] = strat[p, :]
        r[s, col_search] = 0
    return r


@njit(cache=True)
def decision_buffers(strat, p, col_search, st, nc, n_cards, row):
    """What seat ``p``'s search of one decision among ``nc`` candidates works in: the decision's
    key (:func:`decision_key`, drawn from ``st[p]``), the rollouts' strategy matrix
    (:func:`rollout_rows`), an empty trace, the values float64[worlds, nc] (``worlds`` from
    column ``col_search`` of the seat's row), the candidates still raced (bool[nc], all), an
    unseen-card buffer int64[n_cards], the seats' streams in a world (uint64[n_seats, 1]) and a
    scratch hand row like ``row``."""
    worlds = int(strat[p, col_search])
    return (decision_key(st[p]), rollout_rows(strat, p, col_search), no_trace(),
            np.empty((worlds, nc), dtype=np.float64), np.ones(nc, dtype=np.bool_), np.empty(n_cards, dtype=np.int64),
            np.empty((strat.shape[0], 1), dtype=np.uint64), np.zeros_like(row))
