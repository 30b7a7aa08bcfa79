"""Tonk's rules as data and kernels: the options (:class:`TonkRules`), the outcomes, the deal
and the payouts.  The rules text is :mod:`sim.variants.tonk`'s docstring; its hand loop is
built on these.

``ctr`` int64[C_WIDTH] (shared with the hand loop): the stock is ``deck[ctr[C_STOCK]:]``,
``ctr[C_PILE]`` cards are on the discard pile, ``ctr[C_SPREADS]`` spreads on the table.
Kernels: the deal (:func:`deal_buffers`, :func:`deal_from_deck`, :func:`deal`,
:func:`deal_tonks`, :func:`deal_tonk_flags`) and the settlements (:func:`settle_collect`,
:func:`settle_lowest`, :func:`settle_knock`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit as _bit
from ..core.cards import standard_pack
from ..core.rules import RulesBase, RulesError, option
from ..knock.table import U0, hand_value

OUTCOMES = ("tonk_deal", "tonk_tie", "tonk_out", "out_discard", "knock_won", "knock_caught", "stock_out")
(O_TONK_DEAL, O_TONK_TIE, O_TONK_OUT, O_OUT_DISCARD, O_KNOCK_WON, O_KNOCK_CAUGHT,
 O_STOCK_OUT) = range(len(OUTCOMES))


@dataclass(frozen=True)
class TonkRules(RulesBase):
    VERSION = 2  # 2: stockout_laydown on by default
    players: int = option(2, "number of players", 2, 6)
    tonk_deal_min: int = option(49, "a dealt hand counting at least this is a tonk (49 or 50)", 49, 50)
    tonk_tie_new_dealer: bool = option(True, "tied deal tonks: own row, next hand has the next dealer "
                                             "(off: same dealer redeals within the row)")
    no_upcard: bool = option(False, "no upcard after the deal; the first player draws from the stock")
    must_spread: bool = option(False, "a player holding a spread must lay it down (three aces may be kept)")
    tonk_out_needs_new_spread: bool = option(False, "tonk out pays 2x only if that turn laid a new "
                                                    "spread; out by hits alone pays 1x")
    stockout_laydown: bool = option(True, "at a stock out every hand lays down its spreads and hits first")
    knocker_tie_paid: bool = option(False, "a caught knocker tied for the lowest count is paid as one of the tied")

    def validate(self) -> None:
        super().validate()
        if self.players != int(self.players):
            raise RulesError(f"rule players={self.players} must be a whole number 2..6")
        if self.tonk_deal_min not in (49, 50):
            raise RulesError(f"rule tonk_deal_min={self.tonk_deal_min} must be 49 or 50")


R_PLAYERS = TonkRules.index("players")
R_TONK_MIN = TonkRules.index("tonk_deal_min")
R_TIE_NEW_DEALER = TonkRules.index("tonk_tie_new_dealer")
R_NO_UPCARD = TonkRules.index("no_upcard")
R_MUST_SPREAD = TonkRules.index("must_spread")
R_OUT_NEEDS_SPREAD = TonkRules.index("tonk_out_needs_new_spread")
R_LAYDOWN = TonkRules.index("stockout_laydown")
R_TIE_PAID = TonkRules.index("knocker_tie_paid")

N_CARDS = 52
HAND_SIZE = 5
C_STOCK, C_PILE, C_SPREADS, C_WIDTH = range(4)                     # ctr layout

_PACK = standard_pack()


# ----------------------------------------------------------------------------------------
# settlement (pay: int64[n] stake change per seat, zeroed here)

@njit(cache=True)
def settle_collect(winner, units, pay):
    """``winner`` receives ``units`` from every other seat."""
    pay[:] = 0
    for s in range(pay.shape[0]):
        if s != winner:
            pay[s] -= units
            pay[winner] += units


@njit(cache=True)
def settle_lowest(counts, pay):
    """Stock out: every seat with the lowest count receives 1 from every seat but itself."""
    pay[:] = 0
    n = counts.shape[0]
    low = counts.min()
    for w in range(n):
        if counts[w] == low:
            for s in range(n):
                if s != w:
                    pay[s] -= 1
                    pay[w] += 1


@njit(cache=True)
def settle_knock(counts, knocker, pay, tie_paid=False):
    """A drop by ``knocker`` (``tie_paid``: knocker_tie_paid); returns O_KNOCK_WON or O_KNOCK_CAUGHT."""
    pay[:] = 0
    n = counts.shape[0]
    kc = counts[knocker]
    low = 1 << 40
    for s in range(n):
        if s != knocker and counts[s] < low:
            low = counts[s]
    if kc < low:
        for s in range(n):
            if s != knocker:
                pay[s] -= 1
                pay[knocker] += 1
        return O_KNOCK_WON
    for s in range(n):
        if s != knocker and counts[s] <= kc:
            pay[knocker] -= 2
            pay[s] += 2
    for w in range(n):
        if (w != knocker or tie_paid) and counts[w] == low:
            for s in range(n):
                if s != w:
                    pay[s] -= 1
                    pay[w] += 1
    return O_KNOCK_CAUGHT


# ----------------------------------------------------------------------------------------
# the deal

@njit(cache=True)
def deal_buffers(n):
    """The arrays a deal to ``n`` seats fills: ``(deck, discard, hands, ctr, dst)`` = int64[52]
    (the shuffled pack), int64[52] (the pile), uint64[n], int64[C_WIDTH] and uint64[1] (the deal
    generator's state)."""
    return (np.empty(N_CARDS, dtype=np.int64), np.empty(N_CARDS, dtype=np.int64), np.zeros(n, dtype=np.uint64),
            np.zeros(C_WIDTH, dtype=np.int64), np.zeros(1, dtype=np.uint64))


@njit(cache=True)
def deal_from_deck(deck, n, dealer, no_upcard, hands, discard, ctr):
    """Deal 5 each one at a time from the left of ``dealer``, then the upcard (unless
    ``no_upcard``); the stock is ``deck[ctr[C_STOCK]:]``; no spreads."""
    for s in range(n):
        hands[s] = U0
    for i in range(HAND_SIZE * n):
        hands[(dealer + 1 + i) % n] |= _bit(deck[i])
    pos = HAND_SIZE * n
    if no_upcard:
        ctr[C_PILE] = 0
    else:
        discard[0] = deck[pos]
        pos += 1
        ctr[C_PILE] = 1
    ctr[C_STOCK] = pos
    ctr[C_SPREADS] = 0


@njit(cache=True)
def deal(dst, n, dealer, no_upcard, deck, hands, discard, ctr, rot=0):
    """Shuffle the 52-card pack into ``deck`` with generator ``dst`` (advanced in place), apply
    duplicate rotation ``rot`` (:func:`sim.rng.rotate_deal`) and deal it (:func:`deal_from_deck`)."""
    rng.shuffle_into(dst, _PACK, deck)
    rng.rotate_deal(deck, n, HAND_SIZE * n, rot)
    deal_from_deck(deck, n, dealer, no_upcard, hands, discard, ctr)


@njit(cache=True)
def deal_tonks(hands, tonk_min, counts):
    """Fill ``counts`` with the hand counts; return how many are >= ``tonk_min``."""
    nt = 0
    for s in range(hands.shape[0]):
        counts[s] = hand_value(hands[s])
        if counts[s] >= tonk_min:
            nt += 1
    return nt


@njit(cache=True, nogil=True)
def deal_tonk_flags(seed, first_hand, n_hands, n_players, tonk_min, out):
    """``out[i, s]`` = 1 if seat ``s`` is dealt a tonk (count >= ``tonk_min``) in the first
    deal of hand ``first_hand + i`` (dealer ``h % n_players``), else 0 - the same shuffle and
    dealing as :func:`sim.variants.tonk.play_hand`.  ``out`` int64[n_hands, n_players]."""
    deck, discard, hands, ctr, dst = deal_buffers(n_players)
    for i in range(n_hands):
        h = first_hand + i
        dst[0] = rng.stream_key(seed, rng.STREAM_DEAL, h)
        deal(dst, n_players, h % n_players, False, deck, hands, discard, ctr)
        for s in range(n_players):
            out[i, s] = 1 if hand_value(hands[s]) >= tonk_min else 0
