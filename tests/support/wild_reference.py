"""Slow, obviously-correct reference for wild-card melds on multiset hands (two packs).

Independent of ``sim.wild.wild_melds``: a meld is legal if some choice of which Wildcard 2s play
wild, and some assignment of a card to every wild, turns it into a legal natural meld (a set
or a run as the rules define it) with at least one natural card.  The stand-in cards tried for
the wilds are all cards sharing a suit or a rank with every natural card (a meld's cards share
its suit or its rank).  The minimum deadwood is a memoised recursion on the multiset of cards
left: the smallest card is either deadwood or lies in a legal meld of the remaining cards.
Cards are ``sim.core.cards`` codes (13 = joker); hands are sorted tuples of codes.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from sim.core.cards import JOKER, card_code

NATURALS = tuple(card_code(r, s) for s in range(4) for r in range(13))

GAMES = ("ramino-klop", "ramino-klop-dup", "wildcard-1", "wildcard-2", "cincinnati-1", "cincinnati-2")


def rules(game: str) -> dict:
    if game.startswith("ramino"):
        return dict(twos=False, ace_high=False, max_run=4, per_suit=2 if game.endswith("dup") else 1,
                    max_set=4, values=dict(ace=1, joker=20, two=2))
    packs = int(game[-1])
    wild = game.startswith("wildcard")
    return dict(twos=wild, ace_high=True, max_run=13, per_suit=packs, max_set=4 * packs,
                values=dict(ace=11, joker=25 if wild else 15, two=25 if wild else 2))


def value(code: int, game: str) -> int:
    v = rules(game)["values"]
    if code == JOKER:
        return v["joker"]
    rank = code & 15
    if rank == 0:
        return v["ace"]
    if rank == 1:
        return v["two"]
    return min(rank + 1, 10)


def is_natural_meld(cards, game: str) -> bool:
    """A legal meld of actual cards (no wilds)."""
    R = rules(game)
    if len(cards) < 3:
        return False
    ranks = [c & 15 for c in cards]
    suits = [c >> 4 for c in cards]
    if len(set(ranks)) == 1:
        return len(cards) <= R["max_set"] and all(suits.count(s) <= R["per_suit"] for s in range(4))
    if len(set(suits)) == 1 and len(cards) <= R["max_run"]:
        for ace_pos in ((0, 13) if R["ace_high"] else (0,)):
            pos = sorted(ace_pos if r == 0 else r for r in ranks)
            if pos == list(range(pos[0], pos[0] + len(pos))):
                return True
    return False


@lru_cache(maxsize=None)
def is_meld(cards: tuple, game: str) -> bool:
    """Legal meld of a sorted tuple of codes, wilds included."""
    R = rules(game)
    if len(cards) < 3:
        return False
    twos = [c for c in cards if R["twos"] and c != JOKER and c & 15 == 1]
    others = [c for c in cards if c not in twos and c != JOKER]
    jokers = cards.count(JOKER)
    for n_wild_twos in range(len(twos) + 1):
        for wild_twos in set(itertools.combinations(twos, n_wild_twos)):
            rest = list(twos)
            for c in wild_twos:
                rest.remove(c)
            naturals = others + rest
            n_wild = jokers + len(wild_twos)
            if not naturals:
                continue
            stand_ins = [c for c in NATURALS
                         if all(c >> 4 == n >> 4 for n in naturals) or all(c & 15 == n & 15 for n in naturals)]
            for combo in itertools.combinations_with_replacement(stand_ins, n_wild):
                if is_natural_meld(naturals + list(combo), game):
                    return True
    return False


def _sub_multisets(rest: tuple):
    seen = set()
    for k in range(2, len(rest) + 1):
        for idx in itertools.combinations(range(len(rest)), k):
            sub = tuple(rest[i] for i in idx)
            if sub not in seen:
                seen.add(sub)
                yield sub


def _minus(hand: tuple, sub: tuple) -> tuple:
    out = list(hand)
    for c in sub:
        out.remove(c)
    return tuple(out)


@lru_cache(maxsize=200_000)
def min_deadwood(hand: tuple, game: str) -> int:
    """Exact minimum deadwood of a sorted tuple of codes."""
    if not hand:
        return 0
    first, rest = hand[0], hand[1:]
    best = value(first, game) + min_deadwood(rest, game)
    for sub in _sub_multisets(rest):
        meld = (first,) + sub
        if is_meld(meld, game):
            best = min(best, min_deadwood(_minus(rest, sub), game))
    return best


def best_discard(hand: tuple, game: str) -> tuple[int, tuple]:
    vals = {c: min_deadwood(_minus(hand, (c,)), game) for c in set(hand)}
    best = min(vals.values())
    return best, tuple(sorted(c for c, v in vals.items() if v == best))
