"""Layoffs onto shown melds, for the knock engine's single-pack hands (:mod:`sim.knock.melds`).

A layoff adds a card of the defender's hand to one of the knocker's shown melds so that it stays
legal: the fourth card of a three-card set, or the card at either end of a run, chained (a card
laid off on a run end makes the next one layable).  Kernels: :func:`layoff_spots` (how many
cards could be laid off on an arrangement), :func:`arrangement_fewest_spots` (the knocker's
minimum-deadwood arrangement leaving the fewest) and :func:`layoff_deadwood` (the defender's
deadwood after its best layoffs); from Python, :func:`layoff`.  Meld records as in
:mod:`sim.knock.melds`.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
from numba import njit

from ..core.cards import SUIT_SHIFT, CardError, card_text, cards_repr
from .meld_tables import meld_tables
from .melds import (
    MAX_MELDS, SET, mask_cards, hand_mask, chosen, deadwood, hand_value, meld_cards, melds_to_records, min_arrangements,
)


@njit(cache=True)
def _card_bit(suit, rank):
    return np.uint64(1) << np.uint64(SUIT_SHIFT * suit + (rank % 13))


@njit(cache=True)
def layoff_spots(mask, melds, n_melds):
    """Cards outside ``mask`` that could be laid off, one at a time, on these melds: the
    fourth card of a three-card set and the card at each open end of a run (ace low)."""
    spots = 0
    for i in range(n_melds):
        if melds[i, 0] == SET:
            b = melds[i, 2]
            if (b & 1) + (b >> 1 & 1) + (b >> 2 & 1) + (b >> 3 & 1) == 3:
                missing = 0
                while (b >> missing) & 1:
                    missing += 1
                if not mask & _card_bit(missing, melds[i, 1]):
                    spots += 1
        else:
            if melds[i, 2] > 0 and not mask & _card_bit(melds[i, 1], melds[i, 2] - 1):
                spots += 1
            if melds[i, 3] < 12 and not mask & _card_bit(melds[i, 1], melds[i, 3] + 1):
                spots += 1
    return spots


@njit(cache=True)
def arrangement_fewest_spots(mask, run_value, run_cover, run_starts, suit_total, rank_value, melds_out):
    """Among all minimum-deadwood arrangements (:func:`~sim.knock.melds.min_arrangements`), one
    leaving the fewest layoff spots (ties: the first found).  Same returns as
    :func:`~sim.knock.melds.arrangement`."""
    dw, melds, n_melds, melded = min_arrangements(mask, run_value, run_cover, run_starts, suit_total, rank_value)
    pick = 0
    fewest = 1 << 30
    for i in range(n_melds.shape[0]):
        spots = layoff_spots(mask, melds[i], n_melds[i])
        if spots < fewest:
            fewest = spots
            pick = i
    return chosen(dw, melds, n_melds, melded, mask, pick, melds_out)


@njit(cache=True)
def layoff_deadwood(def_mask, melds, n_melds, run_value, suit_total, rank_value, max_run,
                    deadwood_only=False):
    """Defender's minimum deadwood when it may lay off onto the knocker's melds (chained on
    runs: every prefix of the cards extending a run end is an option).  ``deadwood_only``
    (Gin's ``layoff_mode=seed``): the defender first takes a minimum-deadwood arrangement of
    its own cards and lays off only its deadwood cards, i.e. a laid-off set L counts only if
    ``deadwood(hand - L) + value(L)`` is the hand's deadwood.  Returns (deadwood,
    laid_off_mask) of the best choice."""
    # options: chains (ordered card lists) and set completions
    chain_cards = np.zeros((2 * MAX_MELDS, 13), dtype=np.uint64)
    chain_len = np.zeros(2 * MAX_MELDS, dtype=np.int64)
    n_chains = 0
    for i in range(n_melds):
        kind, a, b, c = melds[i, 0], melds[i, 1], melds[i, 2], melds[i, 3]
        if kind == SET:
            n_in = 0
            for s in range(4):
                if (b >> s) & 1:
                    n_in += 1
            if n_in < 4:
                for s in range(4):
                    if not (b >> s) & 1:
                        bit = _card_bit(s, a)
                        if def_mask & bit:
                            chain_cards[n_chains, 0] = bit
                            chain_len[n_chains] = 1
                            n_chains += 1
        else:
            length = c - b + 1
            room = max_run - length
            ln = 0
            r = b - 1
            while r >= 0 and ln < room and def_mask & _card_bit(a, r):
                chain_cards[n_chains, ln] = _card_bit(a, r)
                ln += 1
                r -= 1
            if ln:
                chain_len[n_chains] = ln
                n_chains += 1
            ln2 = 0
            r = c + 1
            while r <= 12 and ln + ln2 < room and def_mask & _card_bit(a, r):
                chain_cards[n_chains, ln2] = _card_bit(a, r)
                ln2 += 1
                r += 1
            if ln2:
                chain_len[n_chains] = ln2
                n_chains += 1
    full = deadwood(def_mask, run_value, suit_total, rank_value)
    best = full
    best_laid = np.uint64(0)
    if n_chains == 0:
        return best, best_laid
    take = np.zeros(n_chains, dtype=np.int64)
    while True:
        i = 0
        while i < n_chains:
            take[i] += 1
            if take[i] <= chain_len[i]:
                break
            take[i] = 0
            i += 1
        if i == n_chains:
            break
        laid = np.uint64(0)
        for j in range(n_chains):
            for t in range(take[j]):
                laid |= chain_cards[j, t]
        d = deadwood(def_mask & ~laid, run_value, suit_total, rank_value)
        if deadwood_only and d + hand_value(laid, suit_total) != full:
            continue
        if d < best:
            best = d
            best_laid = laid
    return best, best_laid


class Layoff(NamedTuple):
    """Fields hold card codes; the repr shows card text."""
    deadwood: int
    laid_off: tuple[int, ...]
    __repr__ = cards_repr


def layoff(defender_cards, knocker_melds: Sequence, *, max_run: int = 13) -> Layoff:
    """Defender's minimum deadwood with chained layoffs onto the knocker's melds."""
    t = meld_tables()
    mask = hand_mask(defender_cards, 13)
    recs = melds_to_records(knocker_melds)
    used = 0
    for i in range(len(knocker_melds)):
        for c in meld_cards(recs[i]):
            if (used | mask) >> c & 1:
                raise CardError(f"card {card_text(c)} is in two places (defender hand / knocker melds)")
            used |= 1 << c
    dw, laid = layoff_deadwood(np.uint64(mask), recs, len(knocker_melds), t.run_value,
                               t.suit_total, t.rank_value, max_run)
    return Layoff(int(dw), mask_cards(int(laid)))
