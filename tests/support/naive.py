"""Slow, obviously-correct pure-Python reference for single-pack melds (Gin rules).

Nothing here is clever: melds are listed by walking every rank and every suit ladder, the
minimum deadwood is a plain recursion over meld choices ("the lowest remaining card is either
deadwood or lies in one of the melds that contain it"), and layoffs are found by trying every
subset of the defender's cards and every way of assigning it to the knocker's melds.  The only
concession to speed is memoisation of the recursion on the set of cards still to place (the
answer for a set of cards does not depend on how we got there) and, for the bulk cross-check,
:func:`deadwood_value` which enumerates the set-meld choices and memoises the run-only part per
suit (runs never leave their suit, so once the sets are fixed the suits are independent).

It deliberately does not import ``sim.knock.melds``; it uses ``sim.core.cards`` for parsing and constants.
Cards are int codes ``suit * 16 + rank`` (rank 0..12 = A..K, suit 0..3 = S H D C).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from sim.core.cards import (
    JOKER,
    N_RANKS,
    N_SUITS,
    CardError,
    card_code,
    is_card,
    parse_cards,
    rank_of,
    suit_of,
    value_table,
)

DEFAULT_VALUES: tuple[int, ...] = tuple(int(v) for v in value_table())
ALL_CARDS: tuple[int, ...] = tuple(card_code(r, s) for s in range(N_SUITS) for r in range(N_RANKS))


# --------------------------------------------------------------------------------------------
# input helpers
# --------------------------------------------------------------------------------------------
def codes(cards) -> frozenset[int]:
    """A hand as a frozenset of int codes.  Accepts text, a sequence of tokens / int codes, a
    set of codes or a uint64-style bitmask given as a Python/numpy int."""
    if isinstance(cards, (int, np.integer)):
        mask = int(cards)
        return frozenset(c for c in range(64) if (mask >> c) & 1)
    if isinstance(cards, (set, frozenset)) and all(type(c) is int and is_card(c) and c != JOKER for c in cards):
        return frozenset(cards)  # already distinct valid codes
    if isinstance(cards, (set, frozenset)):
        cards = sorted(cards)
    arr = parse_cards(cards)  # checks duplicates and bad tokens
    out = frozenset(int(c) for c in arr)
    if JOKER in out:
        raise CardError("the naive meld reference handles natural cards only (no joker)")
    return out


def _values(values) -> tuple[int, ...]:
    if values is None:
        return DEFAULT_VALUES
    return tuple(int(v) for v in values)


def mask_of(cards) -> int:
    m = 0
    for c in codes(cards):
        m |= 1 << c
    return m


# --------------------------------------------------------------------------------------------
# melds
# --------------------------------------------------------------------------------------------
def _suit_ladder(suit: int, ace_high: bool) -> list[int]:
    """Cards of one suit in run order: A 2 .. K, and the ace once more on top if ace_high.
    Runs are contiguous slices of this list, so K-A-2 (round the corner) never appears."""
    ladder = [card_code(r, suit) for r in range(N_RANKS)]
    if ace_high:
        ladder.append(card_code(0, suit))
    return ladder


def all_melds(cards, ace_high: bool = False) -> list[frozenset[int]]:
    """Every legal meld contained in the hand: every 3- and 4-card set of one rank, and every
    run of >= 3 consecutive ranks of one suit (ace low; also Q-K-A when ace_high)."""
    hand = codes(cards)
    melds: set[frozenset[int]] = set()
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for c in sorted(hand):
        by_rank.setdefault(rank_of(c), []).append(c)
        by_suit.setdefault(suit_of(c), []).append(c)
    for rank, same_rank in by_rank.items():
        for size in (3, 4):
            for combo in itertools.combinations(same_rank, size):
                melds.add(frozenset(combo))
    for suit in range(N_SUITS):
        if len(by_suit.get(suit, ())) < 3:
            continue
        ladder = _suit_ladder(suit, ace_high)
        for start in range(len(ladder)):
            # walk up the ladder from `start` while the cards are in the hand; every stretch
            # of >= 3 cards is a run (stop before using the ace twice in A..K..A)
            run: list[int] = []
            for c in ladder[start:]:
                if c not in hand or c in run:
                    break
                run.append(c)
                if len(run) >= 3:
                    melds.add(frozenset(run))
    return sorted(melds, key=lambda m: (len(m), sorted(m)))


def is_meld(cards, ace_high: bool = False) -> bool:
    """True if the cards, all together, form one legal meld."""
    cards = list(cards)
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    m = frozenset(int(c) for c in cards)
    return m in all_melds(m, ace_high)


# --------------------------------------------------------------------------------------------
# minimum deadwood
# --------------------------------------------------------------------------------------------
def min_deadwood(cards, values=None, ace_high: bool = False) -> tuple[int, list[frozenset[int]]]:
    """Exact minimum deadwood over all collections of pairwise-disjoint melds, and one
    collection of melds reaching it.  Brute force: the lowest card still to place is either
    deadwood or part of one of the melds containing it; try all of these."""
    hand = codes(cards)
    vals = _values(values)
    melds = all_melds(hand, ace_high)
    melds_with = {c: [m for m in melds if c in m] for c in hand}

    @lru_cache(maxsize=None)
    def best(rest: frozenset[int]) -> tuple[int, tuple[frozenset[int], ...]]:
        if not rest:
            return 0, ()
        card = min(rest)
        dw, ms = best(rest - {card})
        result = (dw + vals[card], ms)  # option: the card is deadwood
        for m in melds_with[card]:  # option: the card is in meld m
            if m <= rest:
                dw, ms = best(rest - m)
                if dw < result[0]:
                    result = (dw, (m,) + ms)
        return result

    dw, ms = best(hand)
    return dw, list(ms)


def deadwood_cards(cards, melds) -> frozenset[int]:
    hand = codes(cards)
    used: set[int] = set()
    for m in melds:
        used |= set(m)
    return hand - used


# --- faster but still brute-force value-only version (for the 100k bulk cross-check) ---------
@lru_cache(maxsize=None)
def _suit_runs_deadwood(rank_bits: int, suit_values: tuple[int, ...], ace_high: bool) -> int:
    """Min deadwood of the cards of ONE suit (rank bit set) when only runs may be formed.
    Plain recursion over run choices: the lowest remaining rank is deadwood or lies in one of
    the runs (inside rank_bits) that contain it."""
    if rank_bits == 0:
        return 0
    ranks = [r for r in range(N_RANKS) if (rank_bits >> r) & 1]
    low = ranks[0]
    best = suit_values[low] + _suit_runs_deadwood(rank_bits & ~(1 << low), suit_values, ace_high)
    # every run of this suit (as a list of ranks) that contains `low` and lies inside rank_bits
    ladder = list(range(N_RANKS)) + ([0] if ace_high else [])
    for start in range(len(ladder)):
        for stop in range(start + 3, len(ladder) + 1):
            run = ladder[start:stop]
            if len(set(run)) != len(run) or low not in run:
                continue
            run_bits = 0
            for r in run:
                run_bits |= 1 << r
            if rank_bits & run_bits == run_bits:
                best = min(best, _suit_runs_deadwood(rank_bits & ~run_bits, suit_values, ace_high))
    return best


def deadwood_value(cards, values=None, ace_high: bool = False) -> int:
    """Same number as ``min_deadwood(...)[0]``, computed as: try every collection of disjoint
    set-melds (brute force), and for each, add up the per-suit run-only minima of the cards
    left (memoised per suit rank-set).  Used where 100k hands must be checked; ``cards`` may
    be a bitmask int (bit ``code`` set per card) to skip text parsing."""
    hand = codes(cards)
    vals = _values(values)
    suit_vals = tuple(tuple(vals[card_code(r, s)] for r in range(N_RANKS)) for s in range(N_SUITS))
    hand_mask = 0
    for c in hand:
        hand_mask |= 1 << c
    # per rank: "no set", or one of its 3-/4-card sets.  Two sets of one rank always overlap
    # (3 + 3 > 4 suits), so at most one set per rank can be chosen.
    choices = []
    for rank in range(N_RANKS):
        same_rank = [c for c in sorted(hand) if rank_of(c) == rank]
        sets = [combo for size in (3, 4) for combo in itertools.combinations(same_rank, size)]
        if sets:
            choices.append([0] + [sum(1 << c for c in combo) for combo in sets])
    best = None
    for pick in itertools.product(*choices):
        rest = hand_mask
        for set_bits in pick:
            rest &= ~set_bits
        total = 0
        for s in range(N_SUITS):
            total += _suit_runs_deadwood((rest >> (16 * s)) & 0x1FFF, suit_vals[s], ace_high)
        if best is None or total < best:
            best = total
    return best


# --------------------------------------------------------------------------------------------
# best discard
# --------------------------------------------------------------------------------------------
def best_discard(cards, values=None, ace_high: bool = False) -> tuple[int, list[int]]:
    """(min deadwood after one discard, sorted list of every discard reaching it)."""
    hand = codes(cards)
    if not hand:
        raise ValueError("best_discard needs at least one card")
    results = {c: min_deadwood(hand - {c}, values, ace_high)[0] for c in hand}
    best = min(results.values())
    return best, sorted(c for c, dw in results.items() if dw == best)


# --------------------------------------------------------------------------------------------
# layoffs
# --------------------------------------------------------------------------------------------
def _may_join(card: int, meld: frozenset[int]) -> bool:
    """Cheap necessary condition for laying `card` off on `meld` (same rank as every card of
    a set, or same suit as every card of a run); legality is checked on the extended meld."""
    return all(rank_of(c) == rank_of(card) for c in meld) or all(suit_of(c) == suit_of(card) for c in meld)


def layoff_assignment(cards, knocker_melds, ace_high: bool = False):
    """If the cards can all be laid off on the knocker's melds (chaining allowed), return one
    tuple of extended melds, else None.  Tries every assignment card -> meld and keeps one in
    which every knocker meld plus its assigned cards is still a legal meld.  (If the extended
    meld is legal, the cards can be added one by one, each extending the meld at an end.)"""
    cards = sorted(codes(cards))
    table = [frozenset(int(c) for c in m) for m in knocker_melds]
    options = [[i for i, m in enumerate(table) if _may_join(c, m)] for c in cards]
    for assign in itertools.product(*options):
        extended = [set(m) for m in table]
        for c, i in zip(cards, assign):
            extended[i].add(c)
        if all(is_meld(e, ace_high) for e in extended):
            return tuple(frozenset(e) for e in extended)
    return None


def layoff(defender, knocker_melds, values=None, ace_high: bool = False) -> tuple[int, frozenset[int]]:
    """(defender's min deadwood after laying off, one optimal set of laid-off cards).
    Brute force over every subset of the defender's cards that could go on some knocker meld;
    the rest of the defender's hand is arranged in its own melds by min_deadwood."""
    hand = codes(defender)
    table = [codes(m) for m in knocker_melds]
    for m in table:
        if not is_meld(m, ace_high):
            raise ValueError(f"knocker meld {sorted(m)} is not a legal meld")
        if m & hand:
            raise ValueError("knocker meld shares cards with the defender")
    candidates = sorted(c for c in hand if any(_may_join(c, m) for m in table))
    best = (min_deadwood(hand, values, ace_high)[0], frozenset())
    for k in range(1, len(candidates) + 1):
        for subset in itertools.combinations(candidates, k):
            if layoff_assignment(subset, table, ace_high) is None:
                continue
            dw = min_deadwood(hand - set(subset), values, ace_high)[0]
            if dw < best[0]:
                best = (dw, frozenset(subset))
    return best


def layoff_deadwood(defender, knocker_melds, values=None, ace_high: bool = False) -> int:
    """The defender's minimum deadwood when it may lay off onto the knocker's melds."""
    return layoff(defender, knocker_melds, values, ace_high)[0]
