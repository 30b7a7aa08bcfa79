"""The per-suit run tables of the knock engine's meld kernels (:mod:`sim.knock.melds`).

``run_value[m]`` is the most value coverable by disjoint runs in a suit whose rank set is the
13-bit mask ``m``, built once per variant by dynamic programming (honouring ace-high and
run-length limits), with the cover and run starts that reach it and the suit's total value.
Kernels take these tables as arguments; :func:`meld_tables` builds them (cached, read-only).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.cards import N_RANKS, card_code, value_table


class MeldTables(NamedTuple):
    run_value: np.ndarray   # int64[8192]  best run-covered value of a suit's rank mask
    run_cover: np.ndarray   # int64[8192]  14-bit cover of that best (bit 13 = ace high)
    run_starts: np.ndarray  # int64[8192]  14-bit mask of run start positions in the cover
    suit_total: np.ndarray  # int64[8192]  value of all cards of a suit's rank mask
    rank_value: np.ndarray  # int64[13]


@njit(cache=True)
def _linear_runs(mask14, n_pos, vals, min_run, max_run):
    """Best cover of positions 0..n_pos-1 (bits of mask14) by disjoint runs of length
    min_run..max_run; returns (value, cover_bits, start_bits)."""
    best = np.zeros(n_pos + 1, dtype=np.int64)
    choice = np.zeros(n_pos + 1, dtype=np.int64)
    for i in range(n_pos - 1, -1, -1):
        best[i] = best[i + 1]
        choice[i] = 0
        if not (mask14 >> i) & 1:
            continue
        acc = 0
        for ln in range(1, max_run + 1):
            j = i + ln - 1
            if j >= n_pos or not (mask14 >> j) & 1:
                break
            acc += vals[j]
            if ln >= min_run and acc + best[i + ln] >= best[i]:
                best[i] = acc + best[i + ln]
                choice[i] = ln
    cover = 0
    starts = 0
    i = 0
    while i < n_pos:
        ln = choice[i]
        if ln > 0:
            starts |= 1 << i
            for k in range(ln):
                cover |= 1 << (i + k)
            i += ln
        else:
            i += 1
    return best[0], cover, starts


@njit(cache=True)
def _build_run_tables(rank_value, ace_high, min_run, max_run):
    n = 1 << N_RANKS
    value = np.zeros(n, dtype=np.int64)
    cover = np.zeros(n, dtype=np.int64)
    starts = np.zeros(n, dtype=np.int64)
    total = np.zeros(n, dtype=np.int64)
    vals14 = np.zeros(14, dtype=np.int64)
    for r in range(N_RANKS):
        vals14[r] = rank_value[r]
    vals14[13] = rank_value[0]
    for m in range(n):
        t = 0
        for r in range(N_RANKS):
            if (m >> r) & 1:
                t += rank_value[r]
        total[m] = t
        v, c, s = _linear_runs(m, N_RANKS, vals14, min_run, max_run)
        if ace_high and (m & 1):
            m_hi = (m & ~1) | (1 << 13)
            v2, c2, s2 = _linear_runs(m_hi, 14, vals14, min_run, max_run)
            if v2 > v:
                v, c, s = v2, c2, s2
        value[m] = v
        cover[m] = c
        starts[m] = s
    return value, cover, starts, total


@lru_cache(maxsize=None)
def meld_tables(ace_high: bool = False, min_run: int = 3, max_run: int = 13,
                values: tuple | None = None) -> MeldTables:
    """Tables for a variant; ``values`` = 13 per-rank points (default A=1 .. JQK=10)."""
    if values is None:
        vt = value_table()
        values = tuple(int(vt[card_code(r, 0)]) for r in range(N_RANKS))
    rank_value = np.array(values, dtype=np.int64)
    v, c, s, t = _build_run_tables(rank_value, ace_high, min_run, max_run)
    for arr in (v, c, s, t, rank_value):
        arr.setflags(write=False)
    return MeldTables(v, c, s, t, rank_value)
