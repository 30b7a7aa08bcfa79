"""Card encoding shared by every game.

A card is a small integer ``code = suit * 16 + rank`` with ``rank`` 0..12 for A..K and
``suit`` 0..3 for S, H, D, C.  The gap (ranks 13..15 of each suit) keeps runs as bit shifts:
a hand of one pack is a ``uint64`` bitmask with bit ``code`` set, and the 13-bit field
``(mask >> (16 * suit)) & 0x1FFF`` is that suit's rank set.  The joker is code ``JOKER = 13``
(the unused rank slot of suit 0), so every card of every game fits in 64 codes.  Games with two
packs or several jokers keep hands as count vectors of length ``N_CODES`` instead of bitmasks.

Values are per variant: a ``float64``-free ``int64`` table of length ``N_CODES``
(``value_table``), so kernels never branch on rank to score a card.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .errors import UserInputError

N_RANKS = 13
N_SUITS = 4
SUIT_SHIFT = 16
N_CODES = 64
JOKER = 13
RANK_MASK = (1 << N_RANKS) - 1

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
_SUIT_SYMBOLS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}


class CardError(UserInputError):
    """Raised for card text that cannot be parsed or a hand that breaks pack limits."""


def card_code(rank: int, suit: int) -> int:
    """Code of the card with ``rank`` 0..12 (A..K) and ``suit`` 0..3 (S,H,D,C)."""
    return suit * SUIT_SHIFT + rank


def rank_of(code: int) -> int:
    return code & 15


def suit_of(code: int) -> int:
    return code >> 4


def is_joker(code: int) -> bool:
    return code == JOKER


def is_card(code: int) -> bool:
    """True for the 52 natural cards and the joker."""
    return code == JOKER or (0 <= code < N_CODES and (code & 15) < N_RANKS)


def standard_pack(n_packs: int = 1, n_jokers: int = 0) -> np.ndarray:
    """All cards of ``n_packs`` 52-card packs plus ``n_jokers`` jokers, as int64 codes."""
    natural = [card_code(r, s) for s in range(N_SUITS) for r in range(N_RANKS)]
    return np.array(natural * n_packs + [JOKER] * n_jokers, dtype=np.int64)


def value_table(ace: int = 1, face: int = 10, joker: int = 0) -> np.ndarray:
    """Card points by code: A=ace, 2..10 face value, J Q K=face, joker=joker, gaps 0."""
    table = np.zeros(N_CODES, dtype=np.int64)
    for s in range(N_SUITS):
        for r in range(N_RANKS):
            table[card_code(r, s)] = ace if r == 0 else (r + 1 if r < 10 else face)
    table[JOKER] = joker
    return table


def card_text(code: int) -> str:
    """Canonical text of one card: ``AS``, ``TD``, ``X``."""
    code = int(code)
    if code == JOKER:
        return "X"
    if not is_card(code):
        raise CardError(f"{code} is not a card code")
    return RANK_CHARS[rank_of(code)] + SUIT_CHARS[suit_of(code)]


def cards_text(codes: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in codes)


def cards_repr(result) -> str:
    """The repr of a result NamedTuple whose tuple fields hold card codes (a tuple of tuples:
    melds, each shown in brackets): ``Name(field=value, ...)`` with card text, ``none`` for no
    cards.  A result type takes it as its ``__repr__``."""
    def shown(v):
        if not isinstance(v, tuple):
            return str(v)
        if v and isinstance(v[0], tuple):
            return " ".join(f"[{cards_text(m) or 'none'}]" for m in v)
        return cards_text(v) or "none"
    return f"{type(result).__name__}(" + ", ".join(f"{k}={shown(getattr(result, k))}" for k in result._fields) + ")"


def parse_card(token: str) -> int:
    """Parse one card: rank ``A 2..9 T/10 J Q K`` + suit ``S H D C`` or a suit symbol,
    either case; ``X`` or ``JK`` is a joker."""
    t = token.strip()
    up = t.upper()
    if up in ("X", "JK"):
        return JOKER
    if len(t) < 2:
        raise CardError(f"bad card {token!r}: expected rank+suit like 'AS', 'TD', '10h' or 'X'")
    rank_part, suit_part = up[:-1], t[-1]
    suit = _SUIT_SYMBOLS.get(suit_part)
    if suit is None:
        suit = SUIT_CHARS.find(suit_part.upper())
    if suit < 0:
        raise CardError(f"bad card {token!r}: unknown suit {suit_part!r} (use S H D C or ♠ ♥ ♦ ♣)")
    if rank_part == "10":
        rank_part = "T"
    rank = RANK_CHARS.find(rank_part) if len(rank_part) == 1 else -1
    if rank < 0:
        raise CardError(f"bad card {token!r}: unknown rank {rank_part!r} (use A 2-9 T/10 J Q K)")
    return card_code(rank, suit)


def parse_cards(cards: str | Sequence, *, n_packs: int = 1, n_jokers: int | None = None) -> np.ndarray:
    """Parse a hand: text ``"AS 2S 3s,TD"`` or a sequence of text tokens / int codes.

    Checks the pack: a natural card may appear at most ``n_packs`` times and jokers at most
    ``n_jokers`` times (default: none for one pack).  Returns int64 codes in input order.
    """
    if isinstance(cards, str):
        tokens: list = cards.replace(",", " ").split()
    else:
        tokens = list(cards)
    codes = []
    for tok in tokens:
        if isinstance(tok, (int, np.integer)):
            if not is_card(int(tok)):
                raise CardError(f"bad card code {int(tok)}: codes are suit*16+rank (rank 0..12) or {JOKER} for a joker")
            codes.append(int(tok))
        elif isinstance(tok, str):
            codes.append(parse_card(tok))
        else:
            raise CardError(f"bad card {tok!r}: give text like 'AS' or an int code")
    arr = np.array(codes, dtype=np.int64)
    check_pack_limits(arr, n_packs=n_packs, n_jokers=n_jokers)
    return arr


def check_pack_limits(codes: np.ndarray, *, n_packs: int = 1, n_jokers: int | None = None) -> None:
    """Raise CardError if a card appears more often than the packs hold."""
    if n_jokers is None:
        n_jokers = 0
    counts = np.bincount(np.asarray(codes, dtype=np.int64), minlength=N_CODES)
    if counts[JOKER] > n_jokers:
        raise CardError(f"{counts[JOKER]} jokers given but this pack has {n_jokers}")
    counts[JOKER] = 0
    over = np.flatnonzero(counts > n_packs)
    if over.size:
        c = int(over[0])
        where = "once" if n_packs == 1 else f"{n_packs} times"
        raise CardError(f"card {card_text(c)} appears {counts[c]} times; a pack of this game holds it {where}")


def to_mask(codes: Iterable[int]) -> int:
    """uint64 bitmask (as Python int) of single-pack natural cards."""
    m = 0
    for c in codes:
        m |= 1 << int(c)
    return m


def from_mask(mask: int) -> np.ndarray:
    return np.array([c for c in range(N_CODES) if (int(mask) >> c) & 1], dtype=np.int64)
