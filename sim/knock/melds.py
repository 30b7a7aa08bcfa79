"""Melds and exact minimum deadwood for single-pack hands without wild cards.

Method (exact, no greedy step).  In one pack a rank holds at most four cards, so a set uses
a rank's cards in one of a few ways: none of them, all three/four, or (four present) three of
them leaving one suit free for a run.  Only ranks held three or more times can form sets
(at most four such ranks in 13 cards), so all set choices are enumerated; the cards left
fall apart into suits, and in each suit the best run cover is a table lookup.
``run_value[m]`` is the most value coverable by disjoint runs in a suit whose rank set is the
13-bit mask ``m`` (built once by dynamic programming, honouring ace-high and run-length
limits: :mod:`sim.knock.meld_tables`).  Deadwood = hand value - max over set choices of (set
value + sum of run values).  Layoffs onto shown melds (and the Python API's ``layoff``) are
:mod:`sim.knock.layoffs`.

Kernels take the tables as arguments (``MeldTables``); the Python functions at the bottom
parse text, check input and return named tuples.  Meld records in kernels are int64 rows
``(kind, a, b, c)``: a set is ``(0, rank, suit_mask4, 0)``, a run ``(1, suit, lo, hi)``
with ``hi == 13`` meaning the ace played high.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
from numba import njit

from ..core.cards import (
    JOKER,
    N_RANKS,
    SUIT_SHIFT,
    CardError,
    card_code,
    cards_repr,
    parse_cards,
)
from .meld_tables import MeldTables, meld_tables  # noqa: F401 (the tables' home; importable from here)

SET = 0
RUN = 1
MAX_MELDS = 8            # 14 cards hold at most 4 melds; room to spare
_SUIT_BITS = np.uint64(0x1FFF)


@njit(cache=True, inline="always")
def _suit(mask, s):
    return np.int64((mask >> np.uint64(SUIT_SHIFT * s)) & _SUIT_BITS)


@njit(cache=True, inline="always")
def _take(a, bit, kept):
    """The suit mask ``a`` without the card ``bit`` (unless ``kept``) and how many cards that
    took (0 or 1)."""
    if kept or not a & bit:
        return a, 0
    return a ^ bit, 1


@njit(cache=True, inline="always")
def _apply_set(a0, a1, a2, a3, r, o, rank_value):
    """Option ``o`` for rank ``r``: 0 no set, 1 all its cards, 2+s all but suit s.
    Returns the suit masks without the set's cards and the set's value."""
    if o == 0:
        return a0, a1, a2, a3, 0
    bit = 1 << r
    keep = o - 2
    a0, n0 = _take(a0, bit, keep == 0)
    a1, n1 = _take(a1, bit, keep == 1)
    a2, n2 = _take(a2, bit, keep == 2)
    a3, n3 = _take(a3, bit, keep == 3)
    return a0, a1, a2, a3, (n0 + n1 + n2 + n3) * rank_value[r]


@njit(cache=True, inline="always")
def _n_options(a0, a1, a2, a3, r):
    if r < 0:
        return 1
    cnt = (a0 >> r & 1) + (a1 >> r & 1) + (a2 >> r & 1) + (a3 >> r & 1)
    return 6 if cnt == 4 else 2


@njit(cache=True, inline="always")
def _decode(idx, n0, n1, n2):
    """Set options (o0..o3) of combination number ``idx`` (mixed radix n0, n1, n2, n3)."""
    o0 = idx % n0
    idx //= n0
    o1 = idx % n1
    idx //= n1
    return o0, o1, idx % n2, idx // n2


@njit(cache=True, inline="always")
def _combo_value(a0, a1, a2, a3, r0, r1, r2, r3, o0, o1, o2, o3, run_value, rank_value):
    """Melded value of one combination of set options plus the best runs of the rest."""
    a0, a1, a2, a3, v0 = _apply_set(a0, a1, a2, a3, r0, o0, rank_value)
    a0, a1, a2, a3, v1 = _apply_set(a0, a1, a2, a3, r1, o1, rank_value)
    a0, a1, a2, a3, v2 = _apply_set(a0, a1, a2, a3, r2, o2, rank_value)
    a0, a1, a2, a3, v3 = _apply_set(a0, a1, a2, a3, r3, o3, rank_value)
    return v0 + v1 + v2 + v3 + run_value[a0] + run_value[a1] + run_value[a2] + run_value[a3]


@njit(cache=True)
def _set_options(a0, a1, a2, a3):
    """Ranks held in >= 3 suits (r0..r3, -1 unused) and the number of set options of each
    (n0..n3: 2 for three cards, 6 for four, 1 for unused)."""
    m = (a0 & a1 & a2) | (a0 & a1 & a3) | (a0 & a2 & a3) | (a1 & a2 & a3)
    r0 = r1 = r2 = r3 = -1
    k = 0
    for r in range(N_RANKS):
        if (m >> r) & 1:
            if k == 0:
                r0 = r
            elif k == 1:
                r1 = r
            elif k == 2:
                r2 = r
            else:
                r3 = r
            k += 1
    return (r0, r1, r2, r3, _n_options(a0, a1, a2, a3, r0), _n_options(a0, a1, a2, a3, r1),
            _n_options(a0, a1, a2, a3, r2), _n_options(a0, a1, a2, a3, r3))


@njit(cache=True)
def _best_melded(a0, a1, a2, a3, run_value, rank_value):
    """Max melded value of a single-pack hand given its four 13-bit suit masks.

    Enumerates the set options of every rank held >= 3 times (at most four ranks; no
    allocation).  Returns (value, r0..r3, o0..o3): the set-capable ranks (-1 unused) and the
    best option of each (0 none, 1 all cards, 2+s all but suit s).
    """
    if ((a0 & a1 & a2) | (a0 & a1 & a3) | (a0 & a2 & a3) | (a1 & a2 & a3)) == 0:  # no sets possible
        return (run_value[a0] + run_value[a1] + run_value[a2] + run_value[a3],
                -1, -1, -1, -1, 0, 0, 0, 0)
    r0, r1, r2, r3, n0, n1, n2, n3 = _set_options(a0, a1, a2, a3)
    best = -1
    b0 = b1 = b2 = b3 = 0
    for idx in range(n0 * n1 * n2 * n3):
        o0, o1, o2, o3 = _decode(idx, n0, n1, n2)
        v = _combo_value(a0, a1, a2, a3, r0, r1, r2, r3, o0, o1, o2, o3, run_value, rank_value)
        if v > best:
            best = v
            b0, b1, b2, b3 = o0, o1, o2, o3
    return best, r0, r1, r2, r3, b0, b1, b2, b3


@njit(cache=True)
def hand_value(mask, suit_total):
    return (suit_total[_suit(mask, 0)] + suit_total[_suit(mask, 1)]
            + suit_total[_suit(mask, 2)] + suit_total[_suit(mask, 3)])


@njit(cache=True)
def deadwood(mask, run_value, suit_total, rank_value):
    """Exact minimum deadwood of a single-pack hand given as a uint64 bitmask."""
    a0, a1, a2, a3 = _suit(mask, 0), _suit(mask, 1), _suit(mask, 2), _suit(mask, 3)
    best = _best_melded(a0, a1, a2, a3, run_value, rank_value)[0]
    return suit_total[a0] + suit_total[a1] + suit_total[a2] + suit_total[a3] - best


@njit(cache=True)
def _records(mask, opts, run_cover, run_starts, melds_out):
    """Meld records of the arrangement given by set options ``opts`` = (r0..r3, o0..o3) with
    the best runs of the remaining cards; returns (n_melds, melded mask)."""
    sm = np.empty(4, dtype=np.int64)
    for s in range(4):
        sm[s] = _suit(mask, s)
    n = 0
    melded = np.uint64(0)
    for i in range(4):
        r, o = opts[i], opts[4 + i]
        if r < 0 or o == 0:
            continue
        bit = 1 << r
        keep = o - 2
        suits = 0
        for s in range(4):
            if s != keep and sm[s] & bit:
                sm[s] ^= bit
                suits |= 1 << s
                melded |= np.uint64(1) << np.uint64(SUIT_SHIFT * s + r)
        melds_out[n, 0] = SET
        melds_out[n, 1] = r
        melds_out[n, 2] = suits
        melds_out[n, 3] = 0
        n += 1
    for s in range(4):
        cov = run_cover[sm[s]]
        st = run_starts[sm[s]]
        p = 0
        while p < 14:
            if (st >> p) & 1:
                q = p
                while q + 1 < 14 and (cov >> (q + 1)) & 1 and not (st >> (q + 1)) & 1:
                    q += 1
                melds_out[n, 0] = RUN
                melds_out[n, 1] = s
                melds_out[n, 2] = p
                melds_out[n, 3] = q
                n += 1
                for r in range(p, q + 1):
                    melded |= np.uint64(1) << np.uint64(SUIT_SHIFT * s + (r % 13))
                p = q + 1
            else:
                p += 1
    return n, melded


@njit(cache=True)
def arrangement(mask, run_value, run_cover, run_starts, suit_total, rank_value, melds_out):
    """Minimum-deadwood arrangement: fills meld records into ``melds_out`` (int64[MAX_MELDS, 4]);
    returns (deadwood, n_melds, deadwood_mask)."""
    res = _best_melded(_suit(mask, 0), _suit(mask, 1), _suit(mask, 2), _suit(mask, 3), run_value, rank_value)
    opts = np.array(res[1:], dtype=np.int64)
    n, melded = _records(mask, opts, run_cover, run_starts, melds_out)
    return hand_value(mask, suit_total) - res[0], n, mask & ~melded


@njit(cache=True)
def chosen(dw, melds, n_melds, melded, mask, pick, melds_out):
    """Arrangement ``pick`` of :func:`min_arrangements`'s, returned as :func:`arrangement` returns:
    its records copied into ``melds_out`` element by element (a slice copy compiles numba's
    shape-error formatting, seconds of a first run)."""
    n = n_melds[pick]
    for i in range(n):
        for j in range(melds.shape[2]):
            melds_out[i, j] = melds[pick, i, j]
    return dw, n, mask & ~melded[pick]


@njit(cache=True)
def min_arrangements(mask, run_value, run_cover, run_starts, suit_total, rank_value):
    """Every minimum-deadwood arrangement of ``mask``, in the order :func:`_best_melded` meets
    them.  They differ only in their set choices: for single-pack runs without a length limit
    the best run cover of a suit is unique.  Returns ``(deadwood, melds, n_melds, melded)``:
    ``melds`` int64[k, MAX_MELDS, 4] the meld records of each, ``n_melds`` int64[k] how many,
    ``melded`` uint64[k] its melded cards (k >= 1)."""
    a0, a1, a2, a3 = _suit(mask, 0), _suit(mask, 1), _suit(mask, 2), _suit(mask, 3)
    best = _best_melded(a0, a1, a2, a3, run_value, rank_value)[0]
    r0, r1, r2, r3, n0, n1, n2, n3 = _set_options(a0, a1, a2, a3)
    n_combos = n0 * n1 * n2 * n3
    melds = np.zeros((n_combos, MAX_MELDS, 4), dtype=np.int64)
    n_melds = np.zeros(n_combos, dtype=np.int64)
    melded = np.zeros(n_combos, dtype=np.uint64)
    opts = np.array([r0, r1, r2, r3, 0, 0, 0, 0], dtype=np.int64)
    k = 0
    for idx in range(n_combos):
        o0, o1, o2, o3 = _decode(idx, n0, n1, n2)
        if _combo_value(a0, a1, a2, a3, r0, r1, r2, r3, o0, o1, o2, o3, run_value, rank_value) != best:
            continue
        opts[4], opts[5], opts[6], opts[7] = o0, o1, o2, o3
        n, m = _records(mask, opts, run_cover, run_starts, melds[k])
        n_melds[k] = n
        melded[k] = m
        k += 1
    return hand_value(mask, suit_total) - best, melds[:k], n_melds[:k], melded[:k]


@njit(cache=True)
def best_discards(mask, forbidden, run_value, suit_total, rank_value):
    """Over every card of ``mask`` not in ``forbidden``: the minimum deadwood left after
    discarding it, and the bitmask of all discards reaching that minimum."""
    best = 1 << 30
    which = np.uint64(0)
    m = mask & ~forbidden
    while m:
        low = m & (~m + np.uint64(1))
        d = deadwood(mask ^ low, run_value, suit_total, rank_value)
        if d < best:
            best = d
            which = low
        elif d == best:
            which |= low
        m ^= low
    return best, which


@njit(cache=True)
def deadwood_many(masks, run_value, suit_total, rank_value, out):
    for i in range(masks.shape[0]):
        out[i] = deadwood(masks[i], run_value, suit_total, rank_value)


# ----------------------------------------------------------------------------------------
# Python API


class Arrangement(NamedTuple):
    """Fields hold card codes; the repr shows card text."""
    deadwood: int
    melds: tuple[tuple[int, ...], ...]
    deadwood_cards: tuple[int, ...]
    __repr__ = cards_repr


class Discard(NamedTuple):
    """Fields hold card codes; the repr shows card text."""
    deadwood: int
    discards: tuple[int, ...]
    __repr__ = cards_repr


def hand_mask(cards, max_cards: int) -> int:
    """The bitmask of a single-pack hand without wild cards, of at most ``max_cards`` cards."""
    codes = parse_cards(cards)
    if codes.size > max_cards:
        raise CardError(f"{codes.size} cards given; at most {max_cards} are allowed here")
    if (codes == JOKER).any():
        raise CardError("wild cards (X) are not allowed in a single-pack hand without wilds")
    m = 0
    for c in codes:
        m |= 1 << int(c)
    return m


def mask_cards(mask: int) -> tuple[int, ...]:
    """Card codes of a bitmask, ascending."""
    return tuple(c for c in range(64) if (mask >> c) & 1)


def meld_cards(rec) -> tuple[int, ...]:
    """Card codes of a meld record (kind, a, b, c)."""
    kind, a, b, c = (int(x) for x in rec)
    if kind == SET:
        return tuple(card_code(a, s) for s in range(4) if (b >> s) & 1)
    return tuple(card_code(r % 13, a) for r in range(b, c + 1))


def min_deadwood(cards, *, ace_high: bool = False, game: str | None = None,
                 packs: int | None = None, set_duplicates: bool = False):
    """Exact minimum deadwood of up to 13 cards, with one minimum arrangement.

    With ``game`` ("ramino-klop", "wildcard", "cincinnati") the hand is a multiset with wild
    cards and ``sim.wild.wild_melds.min_deadwood`` answers (a ``WildArrangement``); without it,
    the single-pack no-wild rules below (Gin, Tonk, Knock Rummy).
    """
    if game is not None:
        from ..wild import wild_melds
        return wild_melds.min_deadwood(cards, game, packs=packs, set_duplicates=set_duplicates)
    t = meld_tables(ace_high)
    mask = hand_mask(cards, 13)
    out = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    dw, n, dmask = arrangement(np.uint64(mask), t.run_value, t.run_cover, t.run_starts,
                               t.suit_total, t.rank_value, out)
    return Arrangement(int(dw), tuple(meld_cards(out[i]) for i in range(n)), mask_cards(int(dmask)))


def best_discard(cards, *, ace_high: bool = False) -> Discard:
    """Exact best discard: the minimum over every discard of the deadwood left (never
    "best melds, then drop the highest deadwood card"), and all discards reaching it."""
    t = meld_tables(ace_high)
    mask = hand_mask(cards, 14)
    if mask == 0:
        raise CardError("best_discard needs at least one card")
    dw, which = best_discards(np.uint64(mask), np.uint64(0), t.run_value, t.suit_total, t.rank_value)
    return Discard(int(dw), mask_cards(int(which)))


def melds_to_records(melds: Sequence) -> np.ndarray:
    """Meld records from melds given as card lists (text or codes); checks each is legal."""
    recs = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    if len(melds) > MAX_MELDS:
        raise CardError(f"at most {MAX_MELDS} melds")
    for i, meld in enumerate(melds):
        codes = sorted(int(c) for c in parse_cards(meld))
        ranks = [c & 15 for c in codes]
        suits = [c >> 4 for c in codes]
        if len(codes) >= 3 and len(set(ranks)) == 1 and len(codes) <= 4:
            recs[i] = (SET, ranks[0], sum(1 << s for s in suits), 0)
        elif len(codes) >= 3 and len(set(suits)) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            recs[i] = (RUN, suits[0], ranks[0], ranks[-1])
        elif len(codes) >= 3 and len(set(suits)) == 1 and ranks[0] == 0 and \
                ranks[1:] == list(range(13 - len(ranks) + 1, 13)):
            recs[i] = (RUN, suits[0], 13 - len(ranks) + 1, 13)  # ...Q-K-A
        else:
            from ..core.cards import cards_text
            raise CardError(f"not a legal meld: {cards_text(codes)}")
    return recs


def min_deadwood_masks(masks: np.ndarray, *, ace_high: bool = False) -> np.ndarray:
    """Batch exact deadwood of uint64 bitmask hands."""
    t = meld_tables(ace_high)
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    out = np.empty(masks.shape[0], dtype=np.int64)
    deadwood_many(masks, t.run_value, t.suit_total, t.rank_value, out)
    return out
