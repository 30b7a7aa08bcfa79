"""Cards, packs and melds for the referee, written from ``rules/common.md`` (imports nothing
from ``sim/`` or ``analysis/``).

A card is its text as the trace writes it: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` + suit
``S H D C`` (``10`` is accepted for ``T``), the joker ``X``.  Ranks are numbers 1 (A) .. 13 (K);
a run position 14 is the ace played high.  Hands, piles and melds are lists or
``collections.Counter`` multisets of texts (two-pack games repeat texts).

:class:`MeldRules` says what a meld is in one game (sizes, suits in a set, ace high, wild
cards); :func:`meld_ok` judges one multiset of cards, :func:`run_ok_in_order` one run as it
lies on a table (jokers where they stand).  The exact minimum-deadwood search over every
arrangement of disjoint melds is :mod:`.search`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "X"


class CardTextError(ValueError):
    """A card text the referee cannot read."""


def normalize(text: str) -> str:
    """Canonical text of one card (``10d`` -> ``TD``, ``JK`` -> ``X``)."""
    t = str(text).strip().upper()
    if t in ("X", "JK"):
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardTextError(f"not a card: {text!r}")
    return t


def is_joker(card: str) -> bool:
    return card == JOKER


_RANK = {r: i + 1 for i, r in enumerate(RANKS)}
_AT = {(p, s): RANKS[(p - 1) % 13] + s for p in range(1, 15) for s in SUITS}


def rank(card: str) -> int:
    """1 (A) .. 13 (K); 0 for the joker."""
    return 0 if card == JOKER else _RANK[card[0]]


def suit(card: str) -> str:
    """``S H D C``; ``X`` for the joker."""
    return JOKER if card == JOKER else card[1]


def card_at(position: int, suit_char: str) -> str:
    """The natural card of run ``position`` (1..14, 14 = the ace high) in ``suit_char``."""
    return _AT[position, suit_char]


def standard_pack(packs: int = 1, jokers: int = 0) -> Counter:
    """``packs`` 52-card packs plus ``jokers`` jokers, as a multiset of texts."""
    pack = Counter({r + s: packs for s in SUITS for r in RANKS})
    if jokers:
        pack[JOKER] = jokers
    return pack


@dataclass(frozen=True)
class Values:
    """Card points: ace, 2..10 face value, J Q K ``face``, joker; ``wild_rank_value``
    (if not None) replaces the value of the ranks in ``wild_ranks`` (Wildcard's 2s: 25)."""
    ace: int = 1
    face: int = 10
    joker: int = 0
    wild_ranks: frozenset = frozenset()
    wild_rank_value: int | None = None

    def of(self, card: str) -> int:
        r = rank(card)
        if r == 0:
            return self.joker
        if self.wild_rank_value is not None and r in self.wild_ranks:
            return self.wild_rank_value
        if r == 1:
            return self.ace
        return self.face if r > 10 else r

    def total(self, cards: Iterable[str]) -> int:
        return sum(self.of(c) for c in cards)


@dataclass(frozen=True)
class MeldRules:
    """What a meld is.  Sets: ``set_min``..``set_max`` cards of one rank, at most
    ``set_per_suit`` natural cards of one suit.  Runs: ``run_min``..``run_max`` cards of
    consecutive rank in one suit; ace low (A-2-3), and with ``ace_high`` also Q-K-A, never
    round the corner.  Wild cards: the joker when ``jokers_wild`` and every card of a rank in
    ``wild_ranks`` (such a card may also play as itself); ``need_natural``: a meld holds at
    least one card playing as itself."""
    set_min: int = 3
    set_max: int = 4
    set_per_suit: int = 1
    run_min: int = 3
    run_max: int = 13
    ace_high: bool = False
    jokers_wild: bool = True
    wild_ranks: frozenset = frozenset()
    need_natural: bool = True

    def can_be_wild(self, card: str) -> bool:
        return (card == JOKER and self.jokers_wild) or rank(card) in self.wild_ranks

    def only_wild(self, card: str) -> bool:
        """Can the card play only as a wild (a joker)?"""
        return card == JOKER

    @property
    def top_position(self) -> int:
        return 14 if self.ace_high else 13


def set_ok(cards: list[str], rules: MeldRules) -> bool:
    """Can these cards (a multiset) be a set under ``rules``?  Every card plays as itself
    (rank r, at most ``set_per_suit`` of a suit) or as a wild standing for a missing card."""
    if not rules.set_min <= len(cards) <= rules.set_max:
        return False
    fixed = [c for c in cards if not rules.can_be_wild(c)]
    for r in {rank(c) for c in cards if c != JOKER}:
        if any(rank(c) != r for c in fixed):
            continue
        if any(n > rules.set_per_suit for n in Counter(suit(c) for c in fixed).values()):
            continue
        if any(rank(c) == r for c in cards) or not rules.need_natural:
            return True
    return not rules.need_natural and all(rules.can_be_wild(c) for c in cards)


def run_ok(cards: list[str], rules: MeldRules) -> bool:
    """Can these cards (a multiset) be laid out as a run under ``rules``?"""
    if not rules.run_min <= len(cards) <= rules.run_max:
        return False
    for s in SUITS:
        for lo in range(1, rules.top_position - len(cards) + 2):
            if _fits_window(cards, rules, s, lo, lo + len(cards) - 1):
                return True
    return False


def _fits_window(cards: list[str], rules: MeldRules, s: str, lo: int, hi: int) -> bool:
    """Do ``cards`` fill positions lo..hi of suit ``s``, each card as itself or as a wild?"""
    need = {card_at(p, s) for p in range(lo, hi + 1)}
    left = Counter(cards)
    natural = 0
    for c in sorted(need):
        if left[c] and not rules.only_wild(c):
            left[c] -= 1
            natural += 1
    rest = list(left.elements())
    if any(not rules.can_be_wild(c) for c in rest):
        return False
    return natural > 0 or not rules.need_natural


def meld_ok(cards: list[str], rules: MeldRules) -> bool:
    """Is the multiset ``cards`` a legal meld (a set or a run)?"""
    cards = list(cards)
    return set_ok(cards, rules) or run_ok(cards, rules)


def run_ok_in_order(cards: list[str], rules: MeldRules) -> bool:
    """Is ``cards``, low to high as it lies with every wild where it stands, a legal run?"""
    if not rules.run_min <= len(cards) <= rules.run_max:
        return False
    for s in SUITS:
        for lo in range(1, rules.top_position - len(cards) + 2):
            placed = [card_at(lo + i, s) for i in range(len(cards))]
            as_self = sum(c == p for c, p in zip(cards, placed))
            if all(c == p or rules.can_be_wild(c) for c, p in zip(cards, placed)) and (
                    as_self > 0 or not rules.need_natural):
                return True
    return False
