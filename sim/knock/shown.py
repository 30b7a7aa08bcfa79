"""The arrangements shown at a knock, as trace rows (traced hands only: every kernel here is
called behind ``trace.shape[0] > 0``).

A ``show`` row (:data:`sim.core.trace.E_SHOW`) is ``(seat, card code, slot)``: slot ``i >= 0``
the card lies in the seat's own meld ``i`` (the meld's cards in table order: a run low to
high, a set by suit S H D C), :data:`DEADWOOD` it is deadwood, ``LAID + k`` it is laid off
onto the knocker's meld ``k`` (in the order laid, chained run cards outward from the run's
end).  :func:`log_knock` logs the melds the Gin showdown used and the defender's lay-offs
(:func:`sim.variants.gin_hand.showdown`); :func:`log_seats` logs every seat's minimum
arrangement where the settlement counts minimum deadwood only (Knock Rummy, Gin's gin).
Each checks that what it logs counts as the deadwood the engine settled (ValueError).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.cards import N_RANKS, SUIT_SHIFT
from ..core.trace import E_SHOW, log
from .melds import MAX_MELDS, RUN, SET, _best_melded, _suit, hand_value

DEADWOOD = -1
LAID = 16


@njit(cache=True)
def _bit(code):
    return np.uint64(1) << np.uint64(code)


@njit(cache=True)
def log_melds(trace, seat, melds, n, dead):
    """Log ``n`` meld records (:mod:`sim.knock.melds`) and the deadwood mask ``dead``."""
    for i in range(n):
        if melds[i, 0] == SET:
            for s in range(4):
                if (melds[i, 2] >> s) & 1:
                    log(trace, E_SHOW, seat, SUIT_SHIFT * s + melds[i, 1], i)
        else:
            for r in range(melds[i, 2], melds[i, 3] + 1):
                log(trace, E_SHOW, seat, SUIT_SHIFT * melds[i, 1] + r % N_RANKS, i)
    for c in range(64):
        if dead & _bit(c):
            log(trace, E_SHOW, seat, c, DEADWOOD)


@njit(cache=True)
def log_layoffs(trace, seat, laid, melds, n, max_run):
    """Log the cards of ``laid`` as laid off onto the knocker's melds: first each run's
    chains (down from its low end, then up from its high end), then the set completions.
    ValueError if a card finds no place (the engine laid off something illegal)."""
    left = laid
    for i in range(n):
        if melds[i, 0] == SET:
            continue
        s, lo, hi = melds[i, 1], melds[i, 2], melds[i, 3]
        while lo > 0 and hi - lo + 1 < max_run and left & _bit(SUIT_SHIFT * s + lo - 1):
            lo -= 1
            left &= ~_bit(SUIT_SHIFT * s + lo)
            log(trace, E_SHOW, seat, SUIT_SHIFT * s + lo, LAID + i)
        while hi < N_RANKS - 1 and hi - lo + 1 < max_run and left & _bit(SUIT_SHIFT * s + hi + 1):
            hi += 1
            left &= ~_bit(SUIT_SHIFT * s + hi)
            log(trace, E_SHOW, seat, SUIT_SHIFT * s + hi, LAID + i)
    for i in range(n):
        if melds[i, 0] == SET:
            for s in range(4):
                c = SUIT_SHIFT * s + melds[i, 1]
                if not (melds[i, 2] >> s) & 1 and left & _bit(c):
                    left &= ~_bit(c)
                    log(trace, E_SHOW, seat, c, LAID + i)
    if left:
        raise ValueError("trace: a lay-off finds no place on the knocker's melds")


@njit(cache=True)
def plain_arrangement(mask, T_value, T_total, T_rank, melds_out):
    """A minimum-deadwood arrangement of a single-pack hand (ace low, runs of any length): the
    best set choice of :func:`sim.knock.melds.deadwood`'s search, then every run of three or
    more of each suit's remaining cards (with runs unlimited and ace low, the best run cover
    takes them all).  Returns (deadwood, n melds, deadwood mask)."""
    res = _best_melded(_suit(mask, 0), _suit(mask, 1), _suit(mask, 2), _suit(mask, 3), T_value, T_rank)
    left = mask
    n = 0
    for i in range(4):
        r, o = res[1 + i], res[5 + i]
        if r < 0 or o == 0:
            continue
        suits = 0
        for s in range(4):
            if s != o - 2 and left & _bit(SUIT_SHIFT * s + r):
                left &= ~_bit(SUIT_SHIFT * s + r)
                suits |= 1 << s
        melds_out[n, 0], melds_out[n, 1], melds_out[n, 2], melds_out[n, 3] = SET, r, suits, 0
        n += 1
    melded = mask & ~left
    for s in range(4):
        r = 0
        while r < N_RANKS:
            q = r
            while q < N_RANKS and left & _bit(SUIT_SHIFT * s + q):
                q += 1
            if q - r >= 3:
                melds_out[n, 0], melds_out[n, 1], melds_out[n, 2], melds_out[n, 3] = RUN, s, r, q - 1
                n += 1
                for t in range(r, q):
                    melded |= _bit(SUIT_SHIFT * s + t)
            r = q + 1
    dead = mask & ~melded
    return hand_value(dead, T_total), n, dead


@njit(cache=True)
def log_seats(trace, hands, first, dw, T_value, T_total, T_rank):
    """Every seat's minimum arrangement, from seat ``first`` (the ender) on in play order;
    ``dw``: the deadwood the engine settled each seat at (checked)."""
    n_seats = hands.shape[0]
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    for k in range(n_seats):
        p = (first + k) % n_seats
        d, n, dead = plain_arrangement(hands[p], T_value, T_total, T_rank, melds)
        if d != dw[p]:
            raise ValueError("trace: the shown arrangement does not count the settled deadwood")
        log_melds(trace, p, melds, n, dead)


@njit(cache=True)
def log_knock(trace, knocker, k_hand, melds, n, defender, own, n_own, d_dead, laid, dd, T_total, max_run):
    """The Gin showdown's arrangements: the knocker's ``n`` melds (the rest of ``k_hand`` its
    deadwood), the defender's own ``n_own`` melds, its deadwood mask ``d_dead`` (worth ``dd``,
    its settled deadwood: checked) and its lay-offs ``laid`` onto the knocker's melds."""
    if hand_value(d_dead, T_total) != dd:
        raise ValueError("trace: the defender's shown deadwood is not the settled one")
    shown = np.uint64(0)
    for i in range(n):
        if melds[i, 0] == SET:
            for s in range(4):
                if (melds[i, 2] >> s) & 1:
                    shown |= _bit(SUIT_SHIFT * s + melds[i, 1])
        else:
            for r in range(melds[i, 2], melds[i, 3] + 1):
                shown |= _bit(SUIT_SHIFT * melds[i, 1] + r % N_RANKS)
    log_melds(trace, knocker, melds, n, k_hand & ~shown)
    log_melds(trace, defender, own, n_own, d_dead)
    log_layoffs(trace, defender, laid, melds, n, max_run)
