"""Fast brute-force reference for wild-card melds (numba), independent of ``sim.wild.wild_arrange``.

For a hand of ``n`` cards (positions ``0..n-1``; duplicates are distinct positions) every
subset of positions is tested for legality by brute force over the wild assignments: in
Wildcard every choice of which 2s play wild, then every legal natural meld (a "target": a set
at the naturals' rank with any number of copies per suit within the limits, or a run of
consecutive positions in their suit, ace low or high) of the subset's size that holds all of
the subset's naturals -- the wilds play the target's other cards.  At least one natural card
is required.  Then a DP over subsets of positions gives the minimum deadwood of every
sub-hand: ``f[mask]`` is the lowest card of ``mask`` left as deadwood or melded in a legal
subset of ``mask`` holding it.  ``f[full]`` is the hand's deadwood and ``f[full - {i}]`` the
deadwood after discarding card ``i``.  Rules and values come from ``wild_reference``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tests.support import wild_reference as ref

MAX_CARDS = 13
# rule vector: 2s wild, aces high, longest run, naturals per suit in a set, largest set
_R_TWOS, _R_ACE_HIGH, _R_MAX_RUN, _R_PER_SUIT, _R_MAX_SET = range(5)


def rule_vector(key: str) -> np.ndarray:
    R = ref.rules(key)
    return np.array([R["twos"], R["ace_high"], R["max_run"], R["per_suit"], R["max_set"]], dtype=np.int64)


def value_vector(key: str) -> np.ndarray:
    out = np.zeros(64, dtype=np.int64)
    for code in range(64):
        if code == 13 or (code & 15) < 13:
            out[code] = ref.value(code, key)
    return out


@njit(cache=True)
def _set_fits(nat, n_nat, size, R):
    """Some legal set of ``size`` cards holds the naturals ``nat`` (codes, all one rank)."""
    if size > R[_R_MAX_SET]:
        return False
    need = np.zeros(4, dtype=np.int64)
    for i in range(n_nat):
        need[nat[i] >> 4] += 1
    lim = R[_R_PER_SUIT]
    for c0 in range(lim + 1):
        for c1 in range(lim + 1):
            for c2 in range(lim + 1):
                for c3 in range(lim + 1):
                    if (c0 + c1 + c2 + c3 == size and c0 >= need[0] and c1 >= need[1]
                            and c2 >= need[2] and c3 >= need[3]):
                        return True
    return False


@njit(cache=True)
def _run_fits(nat, n_nat, size, R):
    """Some legal run of ``size`` cards holds the naturals ``nat`` (codes, all one suit)."""
    if size > R[_R_MAX_RUN]:
        return False
    for i in range(n_nat):
        for j in range(i):
            if nat[i] == nat[j]:
                return False  # a run holds each card once
    top = 13 if R[_R_ACE_HIGH] else 12
    for lo in range(0, top - size + 2):
        hi = lo + size - 1
        ok = True
        for i in range(n_nat):
            r = nat[i] & 15
            inside = lo <= r <= hi if r > 0 else (lo == 0 or (top == 13 and hi == 13))
            if not inside:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True)
def _is_meld(cards, mask, R, idx, nat):
    """The cards at the positions in ``mask`` form a legal meld (``idx``, ``nat``: scratch)."""
    n = cards.shape[0]
    k = 0
    n_two = 0
    for i in range(n):
        if (mask >> i) & 1:
            idx[k] = cards[i]
            k += 1
            if R[_R_TWOS] and cards[i] != 13 and (cards[i] & 15) == 1:
                n_two += 1
    if k < 3:
        return False
    first = -1
    same_rank = True
    same_suit = True
    for i in range(k):  # the cards that are natural in any case must share a rank or a suit
        c = idx[i]
        if c == 13 or (R[_R_TWOS] and (c & 15) == 1):
            continue
        if first < 0:
            first = c
        same_rank = same_rank and (c & 15) == (first & 15)
        same_suit = same_suit and (c >> 4) == (first >> 4)
    if not (same_rank or same_suit):
        return False
    for wild_twos in range(1 << n_two):  # which of the subset's 2s play wild
        n_nat = 0
        j = 0
        for i in range(k):
            c = idx[i]
            if c == 13:
                continue
            if R[_R_TWOS] and (c & 15) == 1:
                j += 1
                if (wild_twos >> (j - 1)) & 1:
                    continue
            nat[n_nat] = c
            n_nat += 1
        if n_nat == 0:
            continue
        same_rank = True
        same_suit = True
        for i in range(1, n_nat):
            same_rank = same_rank and (nat[i] & 15) == (nat[0] & 15)
            same_suit = same_suit and (nat[i] >> 4) == (nat[0] >> 4)
        if same_rank and _set_fits(nat, n_nat, k, R):
            return True
        if same_suit and _run_fits(nat, n_nat, k, R):
            return True
    return False


@njit(cache=True)
def _hand_table(cards, R, vals, f, legal):
    """``f[mask]``: minimum deadwood of the cards at the positions in ``mask``
    (``legal``: scratch int64[n, 2**n])."""
    n = cards.shape[0]
    full = (1 << n) - 1
    idx = np.empty(n, dtype=np.int64)
    nat = np.empty(n, dtype=np.int64)
    # the legal subsets, grouped by their lowest position
    n_by_low = np.zeros(n, dtype=np.int64)
    for mask in range(1, full + 1):
        if _is_meld(cards, mask, R, idx, nat):
            i = 0
            while not (mask >> i) & 1:
                i += 1
            legal[i, n_by_low[i]] = mask
            n_by_low[i] += 1
    f[0] = 0
    for mask in range(1, full + 1):
        i = 0
        while not (mask >> i) & 1:
            i += 1
        best = vals[cards[i]] + f[mask ^ (1 << i)]
        for j in range(n_by_low[i]):  # every legal subset of mask holding its lowest card
            sub = legal[i, j]
            if sub & mask == sub and f[mask ^ sub] < best:
                best = f[mask ^ sub]
        f[mask] = best


@njit(cache=True)
def deadwood_and_discards(hands, sizes, R, vals, dead, disc):
    """Batch: ``hands`` int64[m, MAX_CARDS] (codes, the first ``sizes[i]`` used) ->
    ``dead`` int64[m] minimum deadwood and ``disc`` int64[m, 64] deadwood after discarding
    one copy of each held code (-1 if not held)."""
    f = np.empty(1 << MAX_CARDS, dtype=np.int64)
    legal = np.empty((MAX_CARDS, 1 << MAX_CARDS), dtype=np.int64)
    for h in range(hands.shape[0]):
        n = sizes[h]
        cards = hands[h, :n].copy()
        _hand_table(cards, R, vals, f, legal)
        full = (1 << n) - 1
        dead[h] = f[full]
        disc[h, :] = -1
        for i in range(n):
            disc[h, cards[i]] = f[full ^ (1 << i)]


def evaluate(hands: list[list[int]], key: str) -> tuple[np.ndarray, np.ndarray]:
    """(deadwood int64[m], discards int64[m, 64]) of hands given as code lists."""
    m = len(hands)
    arr = np.zeros((m, MAX_CARDS), dtype=np.int64)
    sizes = np.array([len(h) for h in hands], dtype=np.int64)
    assert sizes.max(initial=0) <= MAX_CARDS
    for i, h in enumerate(hands):
        arr[i, :len(h)] = h
    dead = np.empty(m, dtype=np.int64)
    disc = np.empty((m, 64), dtype=np.int64)
    deadwood_and_discards(arr, sizes, rule_vector(key), value_vector(key), dead, disc)
    return dead, disc
