"""Tonk / Tunk, 2-6 players, 5 cards each, paid in stakes (rules: ``rules/tonk.md``; sources:
seed 000 first section "Tonk, 2-6 spelers" and seed 003, the Frisian page that cites
pagat.com and Wikipedia).

| option                    | default | meaning |
|---------------------------|---------|---------|
| players                   | 2       | number of players, 2..6 |
| tonk_deal_min             | 49      | a dealt hand counting at least this is a tonk on the deal (49 or 50; seed 000: 50) |
| tonk_tie_new_dealer       | on      | two or more deal tonks: the tie is its own row (outcome ``tonk_tie``, nobody pays) and the next hand has the next dealer; off: the same dealer redeals within the row (column ``redeals``) |
| no_upcard                 | off     | no upcard after the deal; the first player draws from the stock |
| must_spread               | off     | a player holding a spread must lay it down on the turn (three aces may be kept) |
| tonk_out_needs_new_spread | off     | a tonk out pays 2x only if the going-out turn laid a new spread; out by hits alone pays 1x |

Counts: A=1, 2..10 face value, J Q K=10; a seat's count is the sum of the cards still in its
hand (spread cards no longer count).

Payouts, in base stakes, every hand sums to zero ("from every other player" = each other seat
pays that much to the receiver):

* ``tonk_deal``: the one seat whose dealt five count >= ``tonk_deal_min`` gets 2 from every
  other seat; the hand is not played.  ``tonk_tie``: two or more such seats, nobody pays.
* ``tonk_out``: hand emptied by spreads/hits during the turn, no discard: 2 from every other
  seat (1 with ``tonk_out_needs_new_spread`` when that turn laid no new spread; seed 003:
  "double ... if they make a new spread and get rid of all their cards without discarding",
  single "if they only hit spreads").
* ``out_discard``: the last card went to the discard pile: 1 from every other seat.
* ``knock_won`` / ``knock_caught``: a drop (knock) at the start of a turn, before drawing.
  Rule (rules/tonk.md, seeds 000 and 003): "if the knocker's count is strictly the lowest, the
  knocker wins 1x stake. Otherwise the knocker pays 2x stake to every player whose count is
  <= the knocker's, and the player with the lowest count also receives 1x stake from every
  player (ties for lowest: each of them is paid - a catch). A knocker who is not strictly
  lowest never collects."  Precisely, with knocker k and ``low`` = the lowest count among the
  *other* seats:

  - ``count[k] < low``: every other seat pays k 1.
  - otherwise (caught): k pays 2 to every other seat s with ``count[s] <= count[k]``; then
    every other seat w with ``count[w] == low`` receives 1 from every seat but itself - the
    knocker included, and the other tied-lowest seats too (those payments between tied
    seats cancel).  The knocker collects nothing even when tied for lowest.
    Example (4 seats, knocker 0): counts 10, 8, 8, 12 -> seat 0 pays 2+1 to seat 1 and to
    seat 2 (-6), seat 3 pays 1 to each of them (-2), seats 1 and 2 get +4 each (the 1 each
    pays the other cancels).  Counts 6, 9, 6, 2 with knocker 2 -> seat 2 pays 2 to seat 0
    (equal count) and 2+1 to seat 3 (lowest), seats 0 and 1 pay 1 to seat 3: pays
    +1, -1, -5, +5.  Two seats, both counting 5: the knocker pays 2 + 1 = 3.
* ``stock_out``: the stock is empty and the player to move does not take the top discard
  (that seat is the ender): every seat with the lowest count receives 1 from every seat but
  itself (ties: each is paid; payments between tied seats cancel).

Play: deal 5 each one at a time from the left of the dealer, then the upcard; play starts left
of the dealer, clockwise.  A turn: drop, or draw (stock top or top discard), spread/hit (hits
go on any spread on the table, anyone's; books of 3-4, runs of 3+ in suit, ace low), discard
(not the card taken from the discard pile this turn).  A player may not spread/hit down to
the single card taken from the discard pile (it could not be discarded).  Engine limits:
hands hold at most 6 cards during a turn (5 + the draw), so at most two new spreads per
turn; a hand still running after ``MAX_TURNS`` turns (possible only with strategies that keep
taking the discard from an empty stock) ends as ``stock_out`` with the player to move as
ender.  Under ``must_spread`` the one unplayable case (laying the spread down would leave only
the card taken from the pile) keeps the spread in hand.

State (plain arrays, single pack, a card is bit ``code = suit*16 + rank`` of a uint64):
``hands`` uint64[n]; ``stock`` int64[m] with the stock as ``stock[ctr[C_STOCK]:]`` (top
first); ``discard`` int64[52] with ``ctr[C_PILE]`` cards (top last); spreads ``sp_owner``
int64[MAX_SPREADS] (seat that laid it), ``sp_kind`` (BOOK/RUN), ``sp_cards`` uint64 bitmask,
``ctr[C_SPREADS]`` of them.

Kernels: :func:`play_chunk` (the variant contract: one row per hand, columns
``VARIANT.columns(n)``), :func:`play_hand`, :func:`play_from_state` (continue from any
position: rollouts for the hand advisor), :func:`deal` / :func:`deal_from_deck`, the turn
planner :func:`plan_play`, the settlement functions :func:`settle_knock`,
:func:`settle_lowest`, :func:`settle_collect`, and :func:`deal_tonk_flags` (which seats are
dealt a tonk, with the same dealing code).  Python helpers :func:`make_position` and
:func:`play_position` build and play a concrete position.
Extra columns: ``knock_count`` (knocker's count, -1 none), ``knock_turn`` (knocker's own turn
number, -1 none), ``n_spreads`` (spreads on the table at the end), ``deal_tonks`` (seats dealt
a tonk in the deal that was played), ``redeals`` (tied deals redealt within the row).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .. import rng
from ..bits import bit as _bit
from ..bits import claim_cards, popcount
from ..cards import (
    N_RANKS,
    N_SUITS,
    SUIT_SHIFT,
    parse_cards,
    standard_pack,
    value_table,
)
from ..rules import RulesBase, RulesError, option
from ..strategies import tonk as T
from ..advice import AdvisorSpec
from . import Knob, Variant, hand_columns

OUTCOMES = ("tonk_deal", "tonk_tie", "tonk_out", "out_discard", "knock_won", "knock_caught", "stock_out")
(O_TONK_DEAL, O_TONK_TIE, O_TONK_OUT, O_OUT_DISCARD, O_KNOCK_WON, O_KNOCK_CAUGHT,
 O_STOCK_OUT) = range(len(OUTCOMES))
EXTRA_COLUMNS = ("knock_count", "knock_turn", "n_spreads", "deal_tonks", "redeals")


@dataclass(frozen=True)
class TonkRules(RulesBase):
    VERSION = 1
    players: int = option(2, "number of players", 2, 6)
    tonk_deal_min: int = option(49, "a dealt hand counting at least this is a tonk (49 or 50)", 49, 50)
    tonk_tie_new_dealer: bool = option(True, "tied deal tonks: own row, next hand has the next dealer "
                                             "(off: same dealer redeals within the row)")
    no_upcard: bool = option(False, "no upcard after the deal; the first player draws from the stock")
    must_spread: bool = option(False, "a player holding a spread must lay it down (three aces may be kept)")
    tonk_out_needs_new_spread: bool = option(False, "tonk out pays 2x only if that turn laid a new "
                                                    "spread; out by hits alone pays 1x")

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

N_CARDS = 52
HAND_SIZE = 5
MAX_SPREADS = 18          # 52 // 3 = 17 spreads at most
MAX_MELDS = 64            # melds inside one hand of <= 6 cards: far fewer
MAX_TURNS = 500
BOOK, RUN = 0, 1
C_STOCK, C_PILE, C_SPREADS, C_WIDTH = range(4)                     # ctr layout
I_ENDER, I_OUTCOME, I_TURNS, I_KNOCK_COUNT, I_KNOCK_TURN, I_WIDTH = range(6)  # info layout
NO_PLAN = 1 << 40         # plan_play score when no option is allowed

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U16 = np.uint64(16)
U32 = np.uint64(32)
U48 = np.uint64(48)
U58 = np.uint64(58)
RANKS13 = np.uint64((1 << N_RANKS) - 1)
RANK_COL = np.uint64(0x0001000100010001)
FULL = np.uint64(sum(((1 << N_RANKS) - 1) << (SUIT_SHIFT * s) for s in range(N_SUITS)))
_DB = np.uint64(0x03F79D71B4CB0A89)
_DB_IDX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DB_IDX[(((1 << _i) * 0x03F79D71B4CB0A89) & ((1 << 64) - 1)) >> 58] = _i
_VALUES = value_table()
_PACK = standard_pack()


# ----------------------------------------------------------------------------------------
# bit helpers

@njit(cache=True, inline="always")
def _low_code(m):
    """Index of the lowest set bit of ``m`` (m != 0)."""
    return _DB_IDX[(m & (~m + U1)) * _DB >> U58]


@njit(cache=True)
def hand_value(h):
    """Count of a hand bitmask: A=1, 2..10 face, J Q K=10."""
    v = 0
    while h:
        v += _VALUES[_low_code(h)]
        h &= h - U1
    return v


@njit(cache=True)
def highest_code(m):
    """The highest card of ``m`` (m != 0): highest rank (K before Q before J), then S H D C."""
    for r in range(N_RANKS - 1, -1, -1):
        x = m & (RANK_COL << np.uint64(r))
        if x:
            return _low_code(x)
    return -1


@njit(cache=True, inline="always")
def _fold(m):
    """Rank set (13 bits) of the cards of ``m``, any suit."""
    return (m | (m >> U16) | (m >> U32) | (m >> U48)) & RANKS13


@njit(cache=True, inline="always")
def _spread_ranks(r):
    """All four suits' bits of the ranks in rank set ``r``."""
    return r | (r << U16) | (r << U32) | (r << U48)


@njit(cache=True, inline="always")
def book_ranks3(h):
    """Rank set of ranks with >= 3 cards in ``h``."""
    a = h & RANKS13
    b = (h >> U16) & RANKS13
    c = (h >> U32) & RANKS13
    d = (h >> U48) & RANKS13
    return (a & b & (c | d)) | (c & d & (a | b))


@njit(cache=True, inline="always")
def book_ranks4(h):
    return h & (h >> U16) & (h >> U32) & (h >> U48) & RANKS13


@njit(cache=True, inline="always")
def run_starts(h):
    """Bits p of ``h`` with p+1 and p+2 also in ``h`` (the suit gaps keep runs in suit)."""
    return h & (h >> U1) & (h >> U2)


@njit(cache=True)
def has_meld(h):
    return run_starts(h) != U0 or book_ranks3(h) != U0


@njit(cache=True)
def meld_cards(h):
    """Cards of ``h`` that belong to at least one spread formable from ``h``."""
    r = run_starts(h)
    return r | (r << U1) | (r << U2) | (h & _spread_ranks(book_ranks3(h)))


@njit(cache=True)
def has_forced_meld(h):
    """must_spread: ``h`` holds a spread other than a book of exactly three aces."""
    return (run_starts(h) != U0 or (book_ranks3(h) & ~U1) != U0
            or (book_ranks4(h) & U1) != U0)


@njit(cache=True)
def near_meld_cards(h):
    """Cards of ``h`` in a pair or within two ranks of another card of their suit."""
    a = h & RANKS13
    b = (h >> U16) & RANKS13
    c = (h >> U32) & RANKS13
    d = (h >> U48) & RANKS13
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    near = h & _spread_ranks(pairs)
    return near | (h & ((h << U1) | (h >> U1) | (h << U2) | (h >> U2)))


@njit(cache=True)
def is_legal_spread(kind, c):
    if c & ~FULL or popcount(c) < 3:
        return False
    if kind == BOOK:
        f = _fold(c)
        return popcount(c) <= 4 and (f & (f - U1)) == U0
    x = c >> np.uint64(_low_code(c))
    return (x & (x + U1)) == U0 and popcount(x) == popcount(c) and x <= RANKS13


# ----------------------------------------------------------------------------------------
# spreads and hits

@njit(cache=True)
def table_hit_masks(sp_kind, sp_cards, n_sp):
    """(run_hm, book_hm): cards that can be hit onto a run end / complete a book now."""
    run_hm = U0
    book_hm = U0
    for i in range(n_sp):
        c = sp_cards[i]
        if sp_kind[i] == RUN:
            run_hm |= ((c << U1) | (c >> U1)) & ~c
        else:
            book_hm |= _spread_ranks(_fold(c)) & ~c
    return run_hm & FULL, book_hm & FULL


@njit(cache=True)
def hit_closure(rest, run_hm, book_hm, taken):
    """Cards of ``rest`` that can be hit, repeatedly: run ends first (a hit on a run makes
    its new end hittable), then the missing cards of books.  If that would leave exactly
    the card ``taken`` from the pile (it could not be discarded), one card of the last round
    (a hit no other hit depends on) stays in hand."""
    hits = U0
    last = U0
    while True:
        x = rest & run_hm
        if x == U0:
            break
        rest &= ~x
        hits |= x
        last = x
        run_hm |= ((x << U1) | (x >> U1)) & FULL
    x = rest & book_hm
    if x != U0:
        rest &= ~x
        hits |= x
        last = x
    if hits != U0 and rest != U0 and rest == taken:
        hits &= ~(last & (~last + U1))
    return hits


@njit(cache=True)
def apply_hits(hits, sp_kind, sp_cards, n_sp):
    """Attach the cards of ``hits`` to the spreads: run ends as long as possible, then books
    (the order of :func:`hit_closure`); returns the cards left unplaced (none if ``hits``
    came from hit_closure)."""
    for books in range(2):
        progress = True
        while hits and progress:
            progress = False
            m = hits
            while m:
                low = m & (~m + U1)
                m ^= low
                for i in range(n_sp):
                    c = sp_cards[i]
                    if books == 0:
                        ok = sp_kind[i] == RUN and (((c << U1) | (c >> U1)) & low) != U0
                    else:
                        ok = sp_kind[i] == BOOK and popcount(c) < 4 and (_fold(c) & _fold(low)) != U0
                    if ok:
                        sp_cards[i] |= low
                        hits ^= low
                        progress = True
                        break
    return hits


@njit(cache=True)
def enum_melds(h, mm, mk):
    """All spreads formable from ``h`` into ``mm`` (masks) / ``mk`` (BOOK/RUN); returns how many.
    Books of 4 also give their four 3-card books; runs give every sub-run of length >= 3."""
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
def plan_play(hand, taken, run_hm, book_hm, spread_ok, hit_ok, must, needs_new, mm, mk):
    """Choose the spreads and hits of a turn (after the draw).

    Options: no new spread, one, or two disjoint ones (``mm[a]``, ``mm[b]``), each with or
    without the hit closure of the remaining cards.  Allowed: new spreads only if
    ``spread_ok`` (or ``must`` and the hand holds a spread it must lay down) and hits only if
    ``hit_ok`` - either one always when the option ends the hand this turn; never leaving
    exactly the card ``taken`` from the pile; with ``must``, no spread but a book of three
    aces may stay in hand.  Best = lowest score: 0 a tonk out paying 2x,
    1000 a 1x going out (hits-only tonk out with ``needs_new``, or one card left to discard),
    else 2000 + the count after discarding the highest card.  Falls back to doing nothing.
    Returns ``(score, a, b, hits)`` with a, b = -1 for no spread.
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
                if rest == U0:
                    score = 0 if (n_new > 0 or not needs_new) else 1000
                elif goes_out:
                    score = 1000
                else:
                    score = 2000 + hand_value(rest) - _VALUES[highest_code(rest & ~taken)]
                if score < best:
                    best = score
                    ba = a
                    bb = b if b != a else -1
                    bh = hits
    if best == NO_PLAN:
        return NO_PLAN, -1, -1, U0
    return best, ba, bb, bh


# ----------------------------------------------------------------------------------------
# strategy decisions (family ``tonk``, parameters in sim.strategies.tonk)

@njit(cache=True)
def wants_drop(srow, count, own_turn, n_players, min_opp_cards):
    """Drop (knock) at the start of this turn?  The threshold is max_count, or the mid/late
    bucket's own threshold from own turn mid_from/late_from on."""
    mc = srow[T.P_MAX_COUNT]
    late = srow[T.P_LATE_FROM]
    mid = srow[T.P_MID_FROM]
    if late >= 0 and own_turn >= late:
        if srow[T.P_MAX_COUNT_LATE] > -2:
            mc = srow[T.P_MAX_COUNT_LATE]
    elif mid >= 0 and own_turn >= mid:
        if srow[T.P_MAX_COUNT_MID] > -2:
            mc = srow[T.P_MAX_COUNT_MID]
    if mc < 0 or own_turn < srow[T.P_MIN_TURN] or min_opp_cards < srow[T.P_MIN_OPP_CARDS]:
        return False
    return count <= mc + srow[T.P_PER_OPP] * (n_players - 2)


@njit(cache=True)
def spread_now(srow, st):
    """Lay down held spreads this turn (``spread_eagerness`` is a probability)?"""
    e = srow[T.P_SPREAD_EAGERNESS]
    if e >= 1.0:
        return True
    if e <= 0.0:
        return False
    return rng.uniform(st) < e


@njit(cache=True)
def choose_discard(srow, hand, forbidden, protect):
    """Card to discard from ``hand`` (never ``forbidden``; ``protect``: held spread cards)."""
    cand = hand & ~forbidden
    c = cand & ~protect
    if c:
        cand = c
    if srow[T.P_DISCARD_RULE] != 0:
        c = cand & ~near_meld_cards(hand)
        if c:
            cand = c
    return highest_code(cand)


@njit(cache=True)
def wants_take(srow, hand, card, table_hm):
    """Take ``card`` (the top discard) instead of drawing from the stock?"""
    b = _bit(card)
    h6 = hand | b
    mc = meld_cards(h6)
    if mc & b:
        return True
    if srow[T.P_HIT] != 0 and (table_hm & b):
        return True
    if srow[T.P_UPCARD_TAKE] != 0:
        d = choose_discard(srow, h6, b, mc)
        return _VALUES[d] - _VALUES[card] >= srow[T.P_TAKE_GAIN]
    return False


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
def settle_knock(counts, knocker, pay):
    """A drop by ``knocker``; returns O_KNOCK_WON or O_KNOCK_CAUGHT (see module docstring)."""
    pay[:] = 0
    n = counts.shape[0]
    kc = counts[knocker]
    low = NO_PLAN
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
        if w != knocker and counts[w] == low:
            for s in range(n):
                if s != w:
                    pay[s] -= 1
                    pay[w] += 1
    return O_KNOCK_CAUGHT


# ----------------------------------------------------------------------------------------
# one hand

@njit(cache=True)
def check_table(hands, stock, discard, sp_kind, sp_cards, ctr):
    """Debug: every card of the pack exactly once; spreads legal; hands <= 6 cards."""
    seen = U0
    n = 0
    for s in range(hands.shape[0]):
        if hands[s] & seen:
            raise ValueError("card conservation: a card is in two hands")
        if popcount(hands[s]) > HAND_SIZE + 1:
            raise ValueError("a hand holds more than 6 cards")
        seen |= hands[s]
        n += popcount(hands[s])
    seen, k = claim_cards(seen, stock, ctr[C_STOCK], stock.shape[0])
    n += k
    seen, k = claim_cards(seen, discard, 0, ctr[C_PILE])
    n += k
    for i in range(ctr[C_SPREADS]):
        c = sp_cards[i]
        if not is_legal_spread(sp_kind[i], c):
            raise ValueError("an illegal spread is on the table")
        if seen & c:
            raise ValueError("card conservation: a spread card is also elsewhere")
        seen |= c
        n += popcount(c)
    if n != N_CARDS or seen != FULL:
        raise ValueError("card conservation: cards missing")


@njit(cache=True)
def _end(hands, counts, info, ender, outcome, turn):
    for s in range(hands.shape[0]):
        counts[s] = hand_value(hands[s])
    info[I_ENDER] = ender
    info[I_OUTCOME] = outcome
    info[I_TURNS] = turn


@njit(cache=True)
def play_from_state(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr,
                    seat, turn, st, allow_drop_first, debug, pay, counts, info):
    """Play on from a position until the hand ends.

    ``seat`` is to move at the start of its turn; ``turn`` = turns begun so far (the own turn
    number is ``turn // n + 1``, counted from the player left of the dealer).  ``st``
    uint64[n]: each seat's strategy generator state (advanced in place).  With
    ``allow_drop_first`` False the player to move may not drop on this first turn (the
    "draw on" arm of a knock question).  Arrays are updated in place.  Fills ``pay``
    int64[n] (stake change), ``counts`` int64[n] (final counts) and ``info`` int64[I_WIDTH]
    (ender, outcome, turns begun, knocker's count and own turn or -1).
    """
    n = hands.shape[0]
    must = rules[R_MUST_SPREAD] != 0
    needs_new = rules[R_OUT_NEEDS_SPREAD] != 0
    mm = np.empty(MAX_MELDS, dtype=np.uint64)
    mk = np.empty(MAX_MELDS, dtype=np.int64)
    run_hm, book_hm = table_hit_masks(sp_kind, sp_cards, ctr[C_SPREADS])
    info[I_KNOCK_COUNT] = -1
    info[I_KNOCK_TURN] = -1
    pay[:] = 0
    first = True
    while True:
        if debug:
            check_table(hands, stock, discard, sp_kind, sp_cards, ctr)
        if turn >= MAX_TURNS:
            _end(hands, counts, info, seat, O_STOCK_OUT, turn)
            settle_lowest(counts, pay)
            return
        srow = strat[seat]
        h = hands[seat]
        own_turn = turn // n + 1
        turn += 1
        # 1. drop, before drawing
        if allow_drop_first or not first:
            min_opp = 99
            for s in range(n):
                if s != seat:
                    min_opp = min(min_opp, popcount(hands[s]))
            cnt = hand_value(h)
            if wants_drop(srow, cnt, own_turn, n, min_opp):
                _end(hands, counts, info, seat, 0, turn)
                info[I_OUTCOME] = settle_knock(counts, seat, pay)
                info[I_KNOCK_COUNT] = cnt
                info[I_KNOCK_TURN] = own_turn
                return
        first = False
        # 2. draw
        take = False
        top = -1
        if ctr[C_PILE] > 0:
            top = discard[ctr[C_PILE] - 1]
            take = wants_take(srow, h, top, run_hm | book_hm)
        if not take and ctr[C_STOCK] >= stock.shape[0]:
            _end(hands, counts, info, seat, O_STOCK_OUT, turn)
            settle_lowest(counts, pay)
            return
        if take:
            ctr[C_PILE] -= 1
            taken = _bit(top)
            h |= taken
        else:
            taken = U0
            h |= _bit(stock[ctr[C_STOCK]])
            ctr[C_STOCK] += 1
        # 3. spreads and hits
        spread_made = False
        if run_starts(h) != U0 or book_ranks3(h) != U0 or (h & (run_hm | book_hm)) != U0:
            ok_spread = spread_now(srow, st[seat:seat + 1])
            _, a, b, hits = plan_play(h, taken, run_hm, book_hm, ok_spread, srow[T.P_HIT] != 0,
                                      must, needs_new, mm, mk)
            changed = False
            for k in (a, b):
                if k >= 0:
                    i = ctr[C_SPREADS]
                    sp_owner[i] = seat
                    sp_kind[i] = mk[k]
                    sp_cards[i] = mm[k]
                    ctr[C_SPREADS] = i + 1
                    h &= ~mm[k]
                    spread_made = True
                    changed = True
            if hits:
                left = apply_hits(hits, sp_kind, sp_cards, ctr[C_SPREADS])
                if debug and left:
                    raise ValueError("a planned hit found no spread")
                h &= ~(hits & ~left)
                changed = True
            if changed:
                run_hm, book_hm = table_hit_masks(sp_kind, sp_cards, ctr[C_SPREADS])
        hands[seat] = h
        if h == U0:
            _end(hands, counts, info, seat, O_TONK_OUT, turn)
            settle_collect(seat, 2 if (spread_made or not needs_new) else 1, pay)
            return
        # 4. discard
        d = choose_discard(srow, h, taken, meld_cards(h))
        if debug and _bit(d) & (taken | ~h):
            raise ValueError("illegal discard")
        h ^= _bit(d)
        discard[ctr[C_PILE]] = d
        ctr[C_PILE] += 1
        hands[seat] = h
        if h == U0:
            _end(hands, counts, info, seat, O_OUT_DISCARD, turn)
            settle_collect(seat, 1, pay)
            return
        seat = (seat + 1) % n


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
def deal(dst, n, dealer, no_upcard, deck, hands, discard, ctr):
    """Shuffle the 52-card pack into ``deck`` with generator ``dst`` (advanced in place) and
    deal it (:func:`deal_from_deck`)."""
    rng.shuffle_into(dst, _PACK, deck)
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


@njit(cache=True)
def play_hand(rules, strat, seed, h, deck, hands, discard, sp_owner, sp_kind, sp_cards, ctr,
              st, dst, pay, counts, info, row, debug):
    """Deal hand ``h`` (dealer ``h % n``) from generator (seed, STREAM_DEAL, h), play it and
    fill ``row`` (the variant's columns).  Scratch arrays are overwritten."""
    n = strat.shape[0]
    dealer = h % n
    tonk_min = rules[R_TONK_MIN]
    no_upcard = rules[R_NO_UPCARD] != 0
    dst[0] = rng.stream_key(seed, rng.STREAM_DEAL, h)
    redeals = 0
    while True:
        deal(dst, n, dealer, no_upcard, deck, hands, discard, ctr)
        nt = deal_tonks(hands, tonk_min, counts)
        if nt >= 2 and rules[R_TIE_NEW_DEALER] == 0:
            redeals += 1
            continue
        break
    info[I_KNOCK_COUNT] = -1
    info[I_KNOCK_TURN] = -1
    info[I_TURNS] = 0
    if nt == 1:
        w = 0
        for s in range(n):
            if counts[s] >= tonk_min:
                w = s
        settle_collect(w, 2, pay)
        info[I_ENDER] = w
        info[I_OUTCOME] = O_TONK_DEAL
    elif nt >= 2:
        pay[:] = 0
        info[I_ENDER] = -1
        info[I_OUTCOME] = O_TONK_TIE
    else:
        for s in range(n):
            st[s] = rng.stream_key(seed, rng.STREAM_STRATEGY + s, h)
        play_from_state(rules, strat, hands, deck, discard, sp_owner, sp_kind, sp_cards, ctr,
                        (dealer + 1) % n, 0, st, True, debug, pay, counts, info)
    row[0] = dealer
    row[1] = info[I_ENDER]
    row[2] = info[I_OUTCOME]
    row[3] = info[I_TURNS]
    row[4] = N_CARDS - ctr[C_STOCK]
    for s in range(n):
        row[5 + s] = pay[s]
        row[5 + n + s] = counts[s]
    x = 5 + 2 * n
    row[x] = info[I_KNOCK_COUNT]
    row[x + 1] = info[I_KNOCK_TURN]
    row[x + 2] = ctr[C_SPREADS]
    row[x + 3] = nt
    row[x + 4] = redeals


@njit(cache=True, nogil=True)
def _play_chunk(rules, strat, seed, first_hand, out, debug):
    n = strat.shape[0]
    deck = np.empty(N_CARDS, dtype=np.int64)
    discard = np.empty(N_CARDS, dtype=np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    sp_owner = np.zeros(MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(MAX_SPREADS, dtype=np.uint64)
    ctr = np.zeros(C_WIDTH, dtype=np.int64)
    st = np.zeros(n, dtype=np.uint64)
    dst = np.zeros(1, dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(I_WIDTH, dtype=np.int64)
    for i in range(out.shape[0]):
        play_hand(rules, strat, seed, first_hand + i, deck, hands, discard, sp_owner, sp_kind,
                  sp_cards, ctr, st, dst, pay, counts, info, out[i], debug)


def _check_inputs(rules_arr, strat_mat, out) -> None:
    n = strat_mat.shape[0]
    if not (2 <= n <= 6):
        raise ValueError(f"tonk is played by 2-6 players, not {n}")
    if int(rules_arr[R_PLAYERS]) != n:
        raise ValueError(f"rules say players={int(rules_arr[R_PLAYERS])} but {n} strategies were given")
    bad = [int(c) for c in strat_mat[:, 0] if int(c) != T.FAMILY_CODE]
    if bad:
        raise ValueError(f"tonk needs strategies of family 'tonk' (code {T.FAMILY_CODE}), got code {bad[0]}")
    if out.ndim != 2 or out.shape[1] != len(hand_columns(n, EXTRA_COLUMNS)) or out.dtype != np.int64:
        raise ValueError(f"out must be int64 (n_hands, {len(hand_columns(n, EXTRA_COLUMNS))})")


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (see the sim.variants contract).
    ``debug`` checks card conservation and spread legality at every turn (raises ValueError)."""
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    _check_inputs(rules_arr, strat_mat, out)
    _play_chunk(rules_arr, strat_mat, np.int64(seed), np.int64(first_hand), out, bool(debug))


@njit(cache=True, nogil=True)
def deal_tonk_flags(seed, first_hand, n_hands, n_players, tonk_min, out):
    """``out[i, s]`` = 1 if seat ``s`` is dealt a tonk (count >= ``tonk_min``) in the first
    deal of hand ``first_hand + i`` (dealer ``h % n_players``), else 0 - the same shuffle and
    dealing as :func:`play_hand`.  ``out`` int64[n_hands, n_players]."""
    deck = np.empty(N_CARDS, dtype=np.int64)
    discard = np.empty(N_CARDS, dtype=np.int64)
    hands = np.zeros(n_players, dtype=np.uint64)
    ctr = np.zeros(C_WIDTH, dtype=np.int64)
    dst = np.zeros(1, dtype=np.uint64)
    for i in range(n_hands):
        h = first_hand + i
        dst[0] = rng.stream_key(seed, rng.STREAM_DEAL, h)
        deal(dst, n_players, h % n_players, False, deck, hands, discard, ctr)
        for s in range(n_players):
            out[i, s] = 1 if hand_value(hands[s]) >= tonk_min else 0


# ----------------------------------------------------------------------------------------
# Python helpers: concrete positions (tests, hand advisor)

def _mask(cards) -> np.uint64:
    m = 0
    for c in parse_cards(cards) if isinstance(cards, str) else cards:
        m |= 1 << int(c)
    return np.uint64(m)


def make_position(hands, stock=(), discard=(), spreads=()):
    """Arrays of a position from card text or codes.

    ``hands``: one entry per seat; ``stock``: top first; ``discard``: bottom first (top last);
    ``spreads``: ``(owner, cards)`` pairs, kind detected (one rank: book, else run).
    Returns a dict with hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr.
    """
    n = len(hands)
    stock_codes = parse_cards(stock) if isinstance(stock, str) else np.asarray(stock, dtype=np.int64)
    pile_codes = parse_cards(discard) if isinstance(discard, str) else np.asarray(discard, dtype=np.int64)
    pos = {
        "hands": np.array([_mask(h) for h in hands], dtype=np.uint64),
        "stock": np.ascontiguousarray(stock_codes, dtype=np.int64),
        "discard": np.zeros(N_CARDS, dtype=np.int64),
        "sp_owner": np.zeros(MAX_SPREADS, dtype=np.int64),
        "sp_kind": np.zeros(MAX_SPREADS, dtype=np.int64),
        "sp_cards": np.zeros(MAX_SPREADS, dtype=np.uint64),
        "ctr": np.zeros(C_WIDTH, dtype=np.int64),
    }
    pos["discard"][: len(pile_codes)] = pile_codes
    pos["ctr"][C_PILE] = len(pile_codes)
    for i, (owner, cards) in enumerate(spreads):
        m = _mask(cards)
        ranks = {int(c) & 15 for c in range(64) if int(m) >> c & 1}
        kind = BOOK if len(ranks) == 1 else RUN
        if not is_legal_spread(kind, m):
            raise ValueError(f"spread {cards!r} is not a legal book or run")
        if not 0 <= owner < n:
            raise ValueError(f"spread owner {owner} is not a seat 0..{n - 1}")
        pos["sp_owner"][i] = owner
        pos["sp_kind"][i] = kind
        pos["sp_cards"][i] = m
    pos["ctr"][C_SPREADS] = len(spreads)
    return pos


def play_position(rules: TonkRules, strat_mat, pos, seat, turn=0, seed=0, index=0,
                  allow_drop_first=True, debug=False):
    """Play ``pos`` (from :func:`make_position`, copied) on from ``seat``'s turn.  Strategy
    generators: (seed, STREAM_STRATEGY + s, index).  Returns a dict: outcome (name), ender,
    pay, counts, turns, knock_count, knock_turn and the final position."""
    p = {k: v.copy() for k, v in pos.items()}
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = strat_mat.shape[0]
    if len(p["hands"]) != n:
        raise ValueError(f"{len(p['hands'])} hands but {n} strategies")
    st = np.array([rng.stream_key(seed, rng.STREAM_STRATEGY + s, index) for s in range(n)], dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(I_WIDTH, dtype=np.int64)
    play_from_state(rules.to_array(), strat_mat, p["hands"], p["stock"], p["discard"], p["sp_owner"],
                    p["sp_kind"], p["sp_cards"], p["ctr"], np.int64(seat), np.int64(turn), st,
                    bool(allow_drop_first), bool(debug), pay, counts, info)
    return {"outcome": OUTCOMES[info[I_OUTCOME]], "ender": int(info[I_ENDER]), "pay": pay,
            "counts": counts, "turns": int(info[I_TURNS]), "knock_count": int(info[I_KNOCK_COUNT]),
            "knock_turn": int(info[I_KNOCK_TURN]), "position": p}


VARIANT = Variant(
    name="tonk",
    rules_cls=TonkRules,
    min_players=2,
    max_players=6,
    default_players=2,
    outcomes=OUTCOMES,
    play_chunk=play_chunk,
    score_unit="stakes",
    doc="Tonk: 2-6 players, 5 cards, tonk on the deal, drop (knock) before drawing, spreads "
        "and hits on anyone's spreads, paid in 1x/2x stakes.",
    extra_columns=EXTRA_COLUMNS,
    hand_word="count",
    zero_sum=True,
    advisor=AdvisorSpec("sim.advisors.tonk", opp_models=("uniform",)),
    knob=Knob("max_count", "max_count_mid", "max_count_late", "mid_from", "late_from", same=-2,
              default_range=(0, 20), action="drop"),
)
