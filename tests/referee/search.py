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

from .cards import JOKER, SUITS, MeldRules, Values, card_at, meld_ok, rank, suit


def _order(card: str, rules: MeldRules) -> tuple:
    if card == JOKER:
        return (2, card)
    return (1 if rules.can_be_wild(card) else 0, rank(card), card)


def _key(cards, rules: MeldRules) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: _order(c, rules)))


def _wild_choices(pool: Counter, k: int):
    """Every multiset of ``k`` wild cards from ``pool`` (as tuples)."""
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


def _sets_with(first: str, left: Counter, rules: MeldRules):
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
                    for wilds in _wild_choices(pool, w):
                        meld = naturals + wilds
                        if first in meld:
                            yield meld


def _runs_with(first: str, left: Counter, rules: MeldRules):
    """Runs holding ``first`` from ``left``: every window of every suit, each place filled by
    its own card or a wild card."""
    suits = SUITS if rules.can_be_wild(first) else suit(first)
    for s in suits:
        top = rules.top_position
        for lo in range(1, top + 1):
            for hi in range(lo + rules.run_min - 1, min(top, lo + rules.run_max - 1) + 1):
                yield from _fill_window(first, left, rules, s, lo, hi)


def _fill_window(first, left, rules, s, lo, hi):
    places = [card_at(p, s) for p in range(lo, hi + 1)]
    if first not in places and not rules.can_be_wild(first):
        return
    options = [(p,) if left[p] else () for p in places]
    for own_mask in itertools.product(*[((), o) if o else ((),) for o in options]):
        naturals = tuple(c for o in own_mask for c in o)
        if not naturals and rules.need_natural:
            continue
        pool = left - Counter(naturals)
        pool = Counter({c: v for c, v in pool.items() if rules.can_be_wild(c)})
        for wilds in _wild_choices(pool, len(places) - len(naturals)):
            meld = naturals + wilds
            if first in meld:
                yield meld


def melds_with(first: str, left: Counter, rules: MeldRules) -> list[tuple[str, ...]]:
    """Every distinct legal meld (sorted tuple) of cards of ``left`` that holds ``first``."""
    found = set()
    for meld in itertools.chain(_sets_with(first, left, rules), _runs_with(first, left, rules)):
        found.add(tuple(sorted(meld)))
    out = []
    for meld in sorted(found):
        if not meld_ok(list(meld), rules):
            raise AssertionError(f"referee search built an illegal meld {meld}")
        out.append(meld)
    return out


class Arranger:
    """Minimum deadwood and the arrangements reaching it, for one game's melds and values."""

    def __init__(self, rules: MeldRules, values: Values):
        self.rules, self.values = rules, values
        self._best = lru_cache(maxsize=None)(self._solve)

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
        for meld in melds_with(first, left, self.rules):
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
        for meld in melds_with(first, left, self.rules):
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
