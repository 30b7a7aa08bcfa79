"""The open table: melds laid face up during play and cards laid off onto them.

Shared by the open-melding games.  Vocabulary (Tonk's words first, the general rummy words
second): a *spread* is a meld on the table - a ``BOOK`` (a set: 3-4 cards of one rank) or a
``RUN`` (3+ consecutive cards of one suit, ace low) - and it has an *owner*, the seat that laid
it down; a *hit* is a layoff: one card from a hand added to any spread on the table (anyone's)
so that it stays legal, a run at either end, a book up to four cards.  Hits chain: a card hit
onto a run end makes the next card hittable in the same turn (:func:`hit_closure`).

State (plain arrays, one 52-card pack): a card is bit ``code = suit*16 + rank`` of a uint64
(:mod:`sim.core.cards`), a hand is a uint64 mask.  The table is three arrays of length
``MAX_SPREADS`` of which the first ``n_sp`` entries are used (the variant keeps ``n_sp``):
``sp_owner`` int64 (seat), ``sp_kind`` int64 (``BOOK``/``RUN``), ``sp_cards`` uint64 (mask).
The turn planner (which spreads and hits a hand makes, and the end-of-hand lay-down) is
:mod:`sim.knock.table_plan`.

Kernels (all ``cache=True``, arrays and scalars only):

* hand shape: :func:`hand_value` (count A=1, 2..10, J Q K=10), :func:`highest_code`,
  :func:`book_ranks3`, :func:`book_ranks4`, :func:`ranks_all_suits`, :func:`run_starts`,
  :func:`has_meld`, :func:`meld_cards`, :func:`has_forced_meld`;
* the table: :func:`is_legal_spread`, :func:`table_hit_masks` (cards that can be hit now),
  :func:`hit_closure` (hits chained along runs), :func:`apply_hits`, :func:`add_spread`,
  :func:`lay_plan` (carry out a plan), :func:`claim_spreads` (card conservation, legality),
  :func:`log_hits` (trace them) and :func:`check_open_table` (debug: card conservation, legal
  spreads, hand sizes).

Python helper: :func:`spread_kind`.

Single-pack bitmask today, and what the later open-melding games add:

* Basic Rummy / Block: the same books and runs and the same layoffs; hands of 6-11 cards, so
  the planner must lay any number of melds (today at most two new spreads per turn, as Tonk's
  six-card hands allow), ``MAX_MELDS`` grows, and options such as ace high-or-low runs,
  ``layoff_requires_own_meld`` and one meld per turn become parameters of the planner.
* Wrotham and Ramino Drift: jokers wild in melds; a spread then records what each joker
  stands for (a joker swap takes it back), so ``sp_cards`` alone no longer says which card
  can be hit; Ramino Drift allows hits only after one's own first meld, and Wrotham's late
  deals allow melding only the whole hand at once.
* Loba: two packs with jokers, so hands and spreads are multisets (count vectors of length
  ``N_CODES``, not bits): piernas of 3-6 cards of one rank in exactly three suits, escaleras
  of 4+ with at most two jokers.  The kernels here then get count-vector twins; the planner's
  interface (hand, taken card, table, permissions -> spreads and hits) stays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import bit, claim_cards, popcount
from ..core.cards import N_RANKS, N_SUITS, SUIT_SHIFT, value_table
from ..core.trace import E_HIT, log

BOOK, RUN = 0, 1          # spread kinds: book (set) and run
MAX_SPREADS = 18          # table capacity: 52 // 3 = 17 spreads at most

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
VALUES = value_table()    # int64[64] card counts by code: A=1, 2..10 face, J Q K=10


# ----------------------------------------------------------------------------------------
# hand shape (h, m: uint64 card masks)

@njit(cache=True, inline="always")
def _low_code(m):
    """Index of the lowest set bit of ``m`` (m != 0)."""
    return _DB_IDX[(m & (~m + U1)) * _DB >> U58]


@njit(cache=True)
def hand_value(h):
    """Count (int64) of the uint64 hand ``h``: A=1, 2..10 face, J Q K=10."""
    v = 0
    while h:
        v += VALUES[_low_code(h)]
        h &= h - U1
    return v


@njit(cache=True)
def highest_code(m):
    """Code (int64) of the highest card of the uint64 ``m`` (m != 0): highest rank (K before
    Q before J), then S H D C."""
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
def ranks_all_suits(r):
    """uint64: all four suits' bits of the ranks in the 13-bit rank set ``r``."""
    return r | (r << U16) | (r << U32) | (r << U48)


@njit(cache=True, inline="always")
def book_ranks3(h):
    """Rank set (uint64, 13 bits) of the ranks with >= 3 cards in ``h``."""
    a = h & RANKS13
    b = (h >> U16) & RANKS13
    c = (h >> U32) & RANKS13
    d = (h >> U48) & RANKS13
    return (a & b & (c | d)) | (c & d & (a | b))


@njit(cache=True, inline="always")
def book_ranks4(h):
    """Rank set (uint64, 13 bits) of the ranks with all 4 cards in ``h``."""
    return h & (h >> U16) & (h >> U32) & (h >> U48) & RANKS13


@njit(cache=True, inline="always")
def run_starts(h):
    """uint64: bits p of ``h`` with p+1 and p+2 also in ``h`` (the suit gaps keep runs in
    suit): the lowest cards of the 3-card runs in ``h``."""
    return h & (h >> U1) & (h >> U2)


@njit(cache=True)
def has_meld(h):
    """bool: ``h`` holds a book or a run it could lay down."""
    return run_starts(h) != U0 or book_ranks3(h) != U0


@njit(cache=True)
def meld_cards(h):
    """uint64: the cards of ``h`` that belong to at least one spread formable from ``h``."""
    r = run_starts(h)
    return r | (r << U1) | (r << U2) | (h & ranks_all_suits(book_ranks3(h)))


@njit(cache=True)
def has_forced_meld(h):
    """bool, for a must-meld rule (Tonk's ``must_spread``): ``h`` holds a spread other than
    a book of exactly three aces (which may be kept in hand)."""
    return (run_starts(h) != U0 or (book_ranks3(h) & ~U1) != U0
            or (book_ranks4(h) & U1) != U0)


@njit(cache=True)
def is_legal_spread(kind, c):
    """bool: the uint64 ``c`` is a legal spread of ``kind`` (BOOK: 3-4 cards of one rank;
    RUN: 3+ consecutive cards of one suit, ace low, no gap)."""
    if c & ~FULL or popcount(c) < 3:
        return False
    if kind == BOOK:
        f = _fold(c)
        return popcount(c) <= 4 and (f & (f - U1)) == U0
    x = c >> np.uint64(_low_code(c))
    return (x & (x + U1)) == U0 and popcount(x) == popcount(c) and x <= RANKS13


# ----------------------------------------------------------------------------------------
# the table: spreads and hits (sp_kind int64[>= n_sp], sp_cards uint64[>= n_sp])

@njit(cache=True)
def table_hit_masks(sp_kind, sp_cards, n_sp):
    """Hit masks of the table, (run_hm, book_hm) uint64: the cards that can be hit now onto
    a run end / into a book of the first ``n_sp`` spreads."""
    run_hm = U0
    book_hm = U0
    for i in range(n_sp):
        c = sp_cards[i]
        if sp_kind[i] == RUN:
            run_hm |= ((c << U1) | (c >> U1)) & ~c
        else:
            book_hm |= ranks_all_suits(_fold(c)) & ~c
    return run_hm & FULL, book_hm & FULL


@njit(cache=True)
def hit_closure(rest, run_hm, book_hm, taken):
    """Hit closure (uint64): the cards of the hand ``rest`` that can be hit, repeatedly - run
    ends first (a hit on a run makes its new end hittable, so hits chain along a run at both
    ends), then the missing cards of books.  ``run_hm``/``book_hm`` from
    :func:`table_hit_masks`.  If that would leave exactly the card ``taken`` (uint64 mask,
    the card taken from the pile, which could not be discarded), one card of the last round
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
    """Attach the cards of ``hits`` (uint64) to the first ``n_sp`` spreads, ``sp_cards``
    updated in place: run ends as long as possible, then books (the order of
    :func:`hit_closure`).  Returns the cards left unplaced (uint64; none if ``hits`` came
    from hit_closure)."""
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
def can_lay(h, run_hm, book_hm):
    """bool: the hand ``h`` could lay a spread or hit a card (hit masks ``run_hm``,
    ``book_hm``) - whether a turn needs the planner at all."""
    return has_meld(h) or (h & (run_hm | book_hm)) != U0


@njit(cache=True)
def add_spread(sp_owner, sp_kind, sp_cards, n_sp, owner, kind, cards):
    """Put a new spread (``kind``, uint64 ``cards``) of seat ``owner`` on the table at index
    ``n_sp``; returns the new number of spreads."""
    sp_owner[n_sp] = owner
    sp_kind[n_sp] = kind
    sp_cards[n_sp] = cards
    return n_sp + 1


@njit(cache=True)
def lay_plan(hand, owner, a, b, hits, mm, mk, sp_owner, sp_kind, sp_cards, n_sp, debug):
    """Carry out a :func:`plan_play` result ``(a, b, hits)`` for seat ``owner``: lay the new
    spreads ``mm[a]``/``mm[b]`` (-1: none), then apply ``hits``.  The table arrays are
    updated in place.  Returns ``(hand, n_sp, n_new)``: the uint64 hand left, the new number
    of spreads and how many new spreads were laid.  ``debug`` raises ValueError if a hit
    finds no spread."""
    n_new = 0
    for k in (a, b):
        if k >= 0:
            n_sp = add_spread(sp_owner, sp_kind, sp_cards, n_sp, owner, mk[k], mm[k])
            hand &= ~mm[k]
            n_new += 1
    if hits:
        left = apply_hits(hits, sp_kind, sp_cards, n_sp)
        if debug and left:
            raise ValueError("a planned hit found no spread")
        hand &= ~(hits & ~left)
    return hand, n_sp, n_new


@njit(cache=True)
def check_open_table(hands, max_hand, stock, stock_pos, discard, n_pile, sp_kind, sp_cards, n_sp, n_cards):
    """Debug: every card of the pack exactly once (hands, ``stock[stock_pos:]``,
    ``discard[:n_pile]``, spreads); spreads legal; hands hold <= ``max_hand`` cards.
    Raises ValueError."""
    seen = U0
    n = 0
    for s in range(hands.shape[0]):
        if hands[s] & seen:
            raise ValueError("card conservation: a card is in two hands")
        if popcount(hands[s]) > max_hand:
            raise ValueError("a hand holds too many cards")
        seen |= hands[s]
        n += popcount(hands[s])
    seen, k = claim_cards(seen, stock, stock_pos, stock.shape[0])
    n += k
    seen, k = claim_cards(seen, discard, 0, n_pile)
    n += k
    seen, k = claim_spreads(seen, sp_kind, sp_cards, n_sp)
    n += k
    if n != n_cards or seen != FULL:
        raise ValueError("card conservation: cards missing")


@njit(cache=True)
def claim_spreads(seen, sp_kind, sp_cards, n_sp):
    """Card conservation for the table: add the cards of the first ``n_sp`` spreads to the
    uint64 ``seen``, raising ValueError on an illegal spread or a card already seen.
    Returns (new mask, number of cards added)."""
    n = 0
    for i in range(n_sp):
        c = sp_cards[i]
        if not is_legal_spread(sp_kind[i], c):
            raise ValueError("an illegal spread is on the table")
        if seen & c:
            raise ValueError("card conservation: a spread card is also elsewhere")
        seen |= c
        n += popcount(c)
    return seen, n


@njit(cache=True)
def log_hits(trace, seat, hits, sp_cards, n_sp):
    """Trace the cards ``hits`` (uint64) just hit onto the first ``n_sp`` spreads: a ``hit``
    row (card, spread) each, every spread's cards in an order that lays each next to the
    cards already there (down from the spread's lowest card before the hits, then up)."""
    if trace.shape[0] == 0:
        return
    for k in range(n_sp):
        mine = hits & sp_cards[k]
        if mine == U0:
            continue
        lo = _low_code(sp_cards[k] & ~mine)
        for c in range(lo - 1, -1, -1):
            if mine & bit(c):
                log(trace, E_HIT, seat, c, k)
        for c in range(lo + 1, 64):
            if mine & bit(c):
                log(trace, E_HIT, seat, c, k)


# ----------------------------------------------------------------------------------------
# Python helpers

def spread_kind(cards) -> int:
    """Kind of a spread given as a card mask (int) or codes: BOOK if its cards share one
    rank, else RUN (legality is :func:`is_legal_spread`'s question)."""
    codes = [c for c in range(64) if int(cards) >> c & 1] if np.ndim(cards) == 0 else list(cards)
    return BOOK if len({int(c) & 15 for c in codes}) == 1 else RUN