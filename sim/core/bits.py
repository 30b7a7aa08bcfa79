"""Bit helpers shared by the single-pack kernels (hands and piles as uint64 card masks)."""

import numpy as np
from numba import njit

_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def bit(code):
    """Mask of one card code."""
    return _U1 << np.uint64(code)


@njit(cache=True)
def popcount(m):
    """Number of cards in a mask (SWAR bit count)."""
    m = m - ((m >> _U1) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((m * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def mask_codes(m, out):
    """The card codes of mask ``m``, lowest first, into ``out`` (int64, long enough); returns
    how many."""
    n = 0
    while m:
        low = m & (~m + _U1)
        m ^= low
        c = 0
        while (low >> np.uint64(c)) != _U1:
            c += 1
        out[n] = c
        n += 1
    return n


@njit(cache=True)
def claim_cards(seen, cards, lo, hi):
    """Card conservation: add ``cards[lo:hi]`` to the mask ``seen``, raising if a card is
    already there.  Returns (new mask, number of cards added)."""
    for i in range(lo, hi):
        b = bit(cards[i])
        if seen & b:
            raise ValueError("card conservation: a card is in two places")
        seen |= b
    return seen, hi - lo


@njit(cache=True)
def check_closed_hands(hands, deck, sp, pile, npile, n_cards):
    """Card conservation of a closed-hand game: the hands, the stock ``deck[sp:n_cards]`` and
    the discard pile ``pile[:npile]`` hold every card of the pack exactly once."""
    seen = np.uint64(0)
    n = 0
    for p in range(hands.shape[0]):
        if hands[p] & seen:
            raise ValueError("card conservation: a card is in two hands")
        seen |= hands[p]
        n += popcount(hands[p])
    seen, k = claim_cards(seen, deck, sp, n_cards)
    n += k
    seen, k = claim_cards(seen, pile, 0, npile)
    n += k
    if n != n_cards or popcount(seen) != n_cards:
        raise ValueError("card conservation: cards missing")
