"""The turn planner of the open table (:mod:`sim.knock.table`): which spreads and hits a hand makes.

:func:`enum_melds` lists every spread a hand can lay down (into ``mm`` uint64[MAX_MELDS] masks
and ``mk`` int64[MAX_MELDS] kinds); :func:`plan_play` picks the spreads and hits of a turn (go
out if possible, else leave the lowest count); :func:`lay_down_plan` / :func:`lay_down_all`
are the end of a hand, every hand laying down what it can with no discard following (Tonk's
stock-out lay-down).  Today at most two new spreads per turn, as Tonk's six-card hands allow
(see :mod:`sim.knock.table` for what the later open-melding games would add).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import popcount
from ..core.cards import N_RANKS, N_SUITS, SUIT_SHIFT
from ..core.trace import E_SPREAD, log
from .table import (BOOK, RANK_COL, RANKS13, RUN, U0, U1, VALUES, _low_code, book_ranks3, can_lay, hand_value,
                    has_forced_meld, highest_code, hit_closure, lay_plan, log_hits, run_starts, table_hit_masks)

MAX_MELDS = 64            # melds inside one hand of <= 6 cards: far fewer
NO_PLAN = 1 << 40         # plan_play score when no option is allowed


@njit(cache=True)
def enum_melds(h, mm, mk):
    """Every spread the hand ``h`` can lay down, into ``mm`` uint64[cap] (masks) and ``mk``
    int64[cap] (BOOK/RUN); returns how many (at most ``cap``, the rest are dropped).  Books of
    4 also give their four 3-card books; runs give every sub-run of length >= 3."""
    n = 0
    cap = mm.shape[0]
    b3 = book_ranks3(h)
    while b3:
        r = _low_code(b3)
        b3 &= b3 - U1
        cards = h & (RANK_COL << np.uint64(r))
        if n < cap:
            mm[n] = cards
            mk[n] = BOOK
            n += 1
        if popcount(cards) == 4:
            m = cards
            while m:
                low = m & (~m + U1)
                m ^= low
                if n < cap:
                    mm[n] = cards ^ low
                    mk[n] = BOOK
                    n += 1
    if run_starts(h) == U0:
        return n
    for s in range(N_SUITS):
        f = (h >> np.uint64(SUIT_SHIFT * s)) & RANKS13
        if run_starts(f) == U0:
            continue
        r = 0
        while r < N_RANKS:
            if (f >> np.uint64(r)) & U1:
                e = r
                while e + 1 < N_RANKS and (f >> np.uint64(e + 1)) & U1:
                    e += 1
                for i in range(r, e - 1):
                    for j in range(i + 2, e + 1):
                        if n < cap:
                            mm[n] = ((U1 << np.uint64(j - i + 1)) - U1) << np.uint64(SUIT_SHIFT * s + i)
                            mk[n] = RUN
                            n += 1
                r = e + 1
            else:
                r += 1
    return n


@njit(cache=True)
def plan_play(hand, taken, run_hm, book_hm, spread_ok, hit_ok, must, needs_new, mm, mk, laydown=False):
    """The turn planner: which spreads and hits to make after the draw.

    ``hand``, ``taken`` (the card taken from the pile, or 0), ``run_hm``, ``book_hm`` (from
    :func:`table_hit_masks`): uint64 masks; ``spread_ok``, ``hit_ok``, ``must``,
    ``needs_new``: bool; ``mm``/``mk``: scratch for :func:`enum_melds`
    (uint64/int64[MAX_MELDS]).  Options: no new spread, one, or two disjoint ones
    (``mm[a]``, ``mm[b]``), each with or without the hit closure of the remaining cards.
    Allowed: new spreads only if ``spread_ok`` (or ``must`` and the hand holds a spread it
    must lay down) and hits only if ``hit_ok`` - either one always when the option ends the
    hand this turn; never leaving exactly the card ``taken`` (a player may not spread or hit
    down to it: it could not be discarded); with ``must``, no spread but a book of three
    aces may stay in hand.

    The goal, lowest score first: 0 the hand emptied without a discard (with ``needs_new``
    only if a new spread was laid: Tonk's 2x tonk out); 1000 going out otherwise (emptied by
    hits alone under ``needs_new``, or one card left, which is not ``taken``, to discard);
    else 2000 + the count left after discarding the highest card other than ``taken``.
    Returns ``(score, a, b, hits)`` (int64, int64, int64, uint64) with a, b = -1 for no new
    spread; ``score`` is ``NO_PLAN`` when no option is allowed (then do nothing).  With
    ``laydown`` the score is the count left, no discard following (:func:`lay_down_plan`).
    """
    nm = enum_melds(hand, mm, mk)
    forced = must and has_forced_meld(hand)
    any_hm = (run_hm | book_hm) != U0
    best = NO_PLAN
    ba = -1
    bb = -1
    bh = U0
    for a in range(-1, nm):
        ua = mm[a] if a >= 0 else U0
        for b in range(a, nm):
            if b == a:
                ub = U0
                n_new = 0 if a < 0 else 1
            else:
                if a < 0:
                    break
                ub = mm[b]
                if ua & ub:
                    continue
                n_new = 2
            rest0 = hand & ~(ua | ub)
            for with_hits in range(2):
                if with_hits:
                    if not any_hm:
                        break
                    hits = hit_closure(rest0, run_hm, book_hm, taken)
                    if hits == U0:
                        break
                else:
                    hits = U0
                rest = rest0 & ~hits
                goes_out = rest == U0 or (popcount(rest) == 1 and rest != taken)
                if n_new > 0 and not (spread_ok or goes_out or forced):
                    continue
                if hits != U0 and not hit_ok and not goes_out:
                    continue
                if rest != U0 and rest == taken:
                    continue
                if must and has_forced_meld(rest):
                    continue
                if laydown:
                    score = hand_value(rest)
                elif rest == U0:
                    score = 0 if (n_new > 0 or not needs_new) else 1000
                elif goes_out:
                    score = 1000
                else:
                    score = 2000 + hand_value(rest) - VALUES[highest_code(rest & ~taken)]
                if score < best:
                    best = score
                    ba = a
                    bb = b if b != a else -1
                    bh = hits
    if best == NO_PLAN:
        return NO_PLAN, -1, -1, U0
    return best, ba, bb, bh


@njit(cache=True)
def lay_down_plan(hand, run_hm, book_hm, mm, mk):
    """The spreads and hits that leave ``hand`` the lowest count when no discard follows (a
    lay-down at the end of a hand): ``(count, a, b, hits)``, a and b as :func:`plan_play`'s:
    its search with every option allowed, scored by the count left."""
    return plan_play(hand, U0, run_hm, book_hm, True, True, False, False, mm, mk, True)


@njit(cache=True)
def lay_down_all(hands, first, sp_owner, sp_kind, sp_cards, n_sp, mm, mk, debug, trace):
    """Every hand lays down what it can (:func:`lay_down_plan`), in turn order from seat
    ``first``, each seeing the table left by the seats before it (Tonk's stock-out lay-down).
    Hands and table updated in place, events logged to ``trace``; returns the new number of
    spreads."""
    n = hands.shape[0]
    for k in range(n):
        s = (first + k) % n
        run_hm, book_hm = table_hit_masks(sp_kind, sp_cards, n_sp)
        if not can_lay(hands[s], run_hm, book_hm):
            continue
        _, a, b, hits = lay_down_plan(hands[s], run_hm, book_hm, mm, mk)
        n_old = n_sp
        hands[s], n_sp, _ = lay_plan(hands[s], s, a, b, hits, mm, mk, sp_owner, sp_kind, sp_cards, n_sp, debug)
        for i in range(n_old, n_sp):           # a new spread as laid: its hits follow
            log(trace, E_SPREAD, s, np.int64(sp_cards[i] & ~hits), 0)
        log_hits(trace, s, hits, sp_cards, n_sp)
    return n_sp
