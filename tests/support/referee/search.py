"""Exact minimum deadwood by brute force (``rules/common.md``: the minimum over all arrangements
of disjoint melds, never greedy), for any :class:`~.cards.MeldRules` (one or two packs, wild
cards, ace high or low).

The recursion: the first remaining card (cards that can only be themselves first, then cards
that may also be wild, jokers last) is either deadwood or in one of the legal melds, built from
the remaining cards, that contain it.  Memoised on the multiset of remaining cards.  Every
candidate meld is listed by its shape (a set of one rank, a run window of one suit) and the way
each place is filled (the card itself, or a wild card), then judged by :func:`~.cards.meld_ok`
as a second, independent check.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

from .cards import JOKER, RANKS as _RANKS, SUITS, MeldRules, Values, card_at, meld_ok, rank, suit


def _order(card: str, rules: MeldRules) -> tuple:
    if card == JOKER:
        return (2, card)
    return (1 if rules.can_be_wild(card) else 0, rank(card), card)


def _key(cards, rules: MeldRules) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: _order(c, rules)))


def _wild_choices(pool: Counter, k: int, jokers_first: bool = False):
    """Every multiset of ``k`` wild cards from ``pool`` (as tuples).  ``jokers_first``: only
    those using as many jokers as the pool holds (exact when a joker and every other wild card
    have the same value: a wild card used in a meld can trade places with a joker left as
    deadwood or used as a wild in another meld)."""
    if jokers_first and pool[JOKER]:
        j = min(k, pool[JOKER])
        rest = Counter({c: v for c, v in pool.items() if c != JOKER})
        for more in _wild_choices(rest, k - j):
            yield (JOKER,) * j + more
        return
    kinds = sorted(pool)
    def rec(i, k):
        if k == 0:
            yield ()
            return
        if i == len(kinds):
            return
        for n in range(min(k, pool[kinds[i]]), -1, -1):
            for rest in rec(i + 1, k - n):
                yield (kinds[i],) * n + rest
    yield from rec(0, k)


def _sets_with(first: str, left: Counter, rules: MeldRules, jf: bool):
    """Sets holding ``first`` (as itself or, for a flexible card, as a wild) from ``left``."""
    ranks = {rank(first)} if first != JOKER and not rules.can_be_wild(first) else {
        rank(c) for c in left if c != JOKER} | ({rank(first)} if first != JOKER else set())
    for r in ranks:
        own = sorted(c for c in left.elements() if c != JOKER and rank(c) == r)
        for n_own in range(1, len(own) + 1):
            for naturals in set(itertools.combinations(own, n_own)):
                if any(v > rules.set_per_suit for v in Counter(suit(c) for c in naturals).values()):
                    continue
                pool = left - Counter(naturals)
                pool = Counter({c: v for c, v in pool.items() if rules.can_be_wild(c)})
                for w in range(0, rules.set_max - n_own + 1):
                    if n_own + w < rules.set_min:
                        continue
                    for wilds in _wild_choices(pool, w, jf):
                        meld = naturals + wilds
                        if first in meld:
                            yield meld


def _runs_with(first: str, left: Counter, rules: MeldRules, jf: bool):
    """Runs holding ``first`` from ``left``: every window of every suit that can hold it,
    each place filled by its own card or a wild card."""
    n_wild = sum(v for c, v in left.items() if rules.can_be_wild(c))
    top = rules.top_position
    for s in (SUITS if rules.can_be_wild(first) else suit(first)):
        own = [p for p in range(1, top + 1) if left[card_at(p, s)] and
               not rules.only_wild(card_at(p, s))]
        for lo, hi in _windows(first, rules):
            avail = [p for p in own if lo <= p <= hi]
            if hi - lo + 1 - len(avail) > n_wild or (rules.need_natural and not avail):
                continue
            yield from _fill_window(first, left, rules, s, lo, hi, avail, jf)


@lru_cache(maxsize=None)
def _windows(first: str, rules: MeldRules) -> tuple[tuple[int, int], ...]:
    """Run windows (lo, hi) that may hold ``first``: those covering its place (1 and, ace
    high, 14 for an ace), or every window when it may be a wild."""
    top = rules.top_position
    every = [(lo, hi) for lo in range(1, top + 1)
             for hi in range(lo + rules.run_min - 1, min(top, lo + rules.run_max - 1) + 1)]
    if rules.can_be_wild(first):
        return tuple(every)
    places = {rank(first)} | ({14} if rank(first) == 1 and rules.ace_high else set())
    return tuple((lo, hi) for lo, hi in every if any(lo <= p <= hi for p in places))


def _fill_window(first, left, rules, s, lo, hi, avail, jf):
    length = hi - lo + 1
    for pick in itertools.product((False, True), repeat=len(avail)):
        naturals = tuple(card_at(p, s) for p, use in zip(avail, pick) if use)
        if not naturals and rules.need_natural:
            continue
        pool = left - Counter(naturals)
        pool = Counter({c: v for c, v in pool.items() if rules.can_be_wild(c)})
        if sum(pool.values()) < length - len(naturals):
            continue
        for wilds in _wild_choices(pool, length - len(naturals), jf):
            meld = naturals + wilds
            if first in meld:
                yield meld


def melds_with(first: str, left: Counter, rules: MeldRules,
               jokers_first: bool = False) -> list[tuple[str, ...]]:
    """Every distinct legal meld (sorted tuple) of cards of ``left`` that holds ``first``
    (``jokers_first``: see :func:`_wild_choices`)."""
    found = set()
    jf = jokers_first
    for meld in itertools.chain(_sets_with(first, left, rules, jf), _runs_with(first, left, rules, jf)):
        found.add(tuple(sorted(meld)))
    out = sorted(found)
    for meld in out:
        if not _checked(meld, rules):
            raise AssertionError(f"referee search built an illegal meld {meld}")
    return out


@lru_cache(maxsize=None)
def _checked(meld: tuple[str, ...], rules: MeldRules) -> bool:
    return meld_ok(list(meld), rules)


class Arranger:
    """Minimum deadwood and the arrangements reaching it, for one game's melds and values."""

    def __init__(self, rules: MeldRules, values: Values):
        self.rules, self.values = rules, values
        self._best = lru_cache(maxsize=None)(self._solve)
        wild_values = {values.of(c) for r in rules.wild_ranks for c in (_RANKS[r - 1] + "S",)}
        self.jokers_first = not rules.wild_ranks or wild_values == {values.of(JOKER)}

    def min_deadwood(self, cards) -> int:
        return self._best(_key(cards, self.rules))

    def all_melded(self, cards) -> bool:
        """Can every card be laid out in legal melds?"""
        return self.leftover(cards) == 0

    def leftover(self, cards) -> int:
        """Fewest cards left out of melds (not values: counts)."""
        return _counting(self.rules).min_deadwood(cards)

    def _solve(self, key: tuple[str, ...]) -> int:
        if not key:
            return 0
        first, left = key[0], Counter(key)
        best = self.values.of(first) + self._best(key[1:])
        if first == JOKER and self.rules.need_natural:
            return best       # jokers only: none of them can meld without a natural card
        for meld in melds_with(first, left, self.rules, self.jokers_first):
            rest = _key((left - Counter(meld)).elements(), self.rules)
            best = min(best, self._best(rest))
        return best

    def arrangements(self, cards) -> list[tuple[tuple[str, ...], ...]]:
        """Every arrangement (a sorted tuple of melds) with the minimum deadwood."""
        out = set()
        self._walk(_key(cards, self.rules), (), out)
        return sorted(out)

    def _walk(self, key, melds, out):
        if not key:
            out.add(tuple(sorted(melds)))
            return
        target, first, left = self._best(key), key[0], Counter(key)
        if self.values.of(first) + self._best(key[1:]) == target:
            self._walk(key[1:], melds, out)
        if first == JOKER and self.rules.need_natural:
            return
        for meld in melds_with(first, left, self.rules, self.jokers_first):
            rest = _key((left - Counter(meld)).elements(), self.rules)
            if self._best(rest) == target:
                self._walk(rest, melds + (meld,), out)


_COUNTING: dict = {}


def _counting(rules: MeldRules) -> Arranger:
    """An arranger scoring every card 1 (how many cards stay out of melds)."""
    if rules not in _COUNTING:
        _COUNTING[rules] = _UnitArranger(rules)
    return _COUNTING[rules]


class _UnitValues(Values):
    def of(self, card: str) -> int:
        return 1


class _UnitArranger(Arranger):
    def __init__(self, rules: MeldRules):
        super().__init__(rules, _UnitValues())
