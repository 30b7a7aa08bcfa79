"""Pure-Python settlement of a Ramino Drift or Loba hand, written from rules/ramino.md (Drift),
rules/loba.md and seed 000, independent of the kernels: given the cards each seat holds at the
end and who went out (and how), the hand row's scores, deadwood and winner.
"""

from __future__ import annotations

JOKER = 13


def card_points(code: int, game: str, joker_penalty: int = 25) -> int:
    """Penalty points of one card left in hand."""
    if code == JOKER:
        return 20 if game == "drift" else joker_penalty
    rank = code & 15                      # 0 = ace .. 12 = king
    if rank == 0:
        return 1 if game == "drift" else 10
    return rank + 1 if rank < 10 else 10


def hand_points(codes, game: str, joker_penalty: int = 25) -> int:
    """Penalty points of a hand given as a list of card codes."""
    return sum(card_points(int(c), game, joker_penalty) for c in codes)


def codes_of(counts) -> list[int]:
    """The card codes of a count vector (int[64])."""
    return [c for c in range(64) for _ in range(int(counts[c]))]


def settle(hands: dict[int, list[int]], out_seat: int, n_seats: int, game: str, *, at_once: bool = False,
           joker_penalty: int = 25, at_once_bonus: int = 10) -> dict[str, int]:
    """The row fields ``score{s}``, ``deadwood{s}`` and ``winner`` of a hand.

    ``hands``: seat in play -> the codes it holds at the end; ``out_seat``: the seat that went
    out (-1: nobody, a void hand: no scores).  Drift: the seat out scores 0, the others minus
    their points.  Loba: the same, and the seat out scores +``at_once_bonus`` (its total drops)
    when it laid its whole hand down at once.  Seats not in play score 0 with deadwood 0."""
    row = {"winner": out_seat}
    for s in range(n_seats):
        pts = hand_points(hands[s], game, joker_penalty) if s in hands else 0
        row[f"deadwood{s}"] = pts
        if out_seat < 0 or s not in hands:
            row[f"score{s}"] = 0
        elif s == out_seat:
            if pts != 0:
                raise ValueError("the seat out holds cards")
            row[f"score{s}"] = at_once_bonus if (game == "loba" and at_once) else 0
        else:
            row[f"score{s}"] = -pts
    return row


def _run_fits(positions: list[int], jokers: int, lo_pos: int, hi_pos: int, min_len: int) -> bool:
    """Can distinct ``positions`` plus ``jokers`` jokers form one consecutive run with every
    position in ``lo_pos..hi_pos`` and at least ``min_len`` cards?"""
    if len(set(positions)) != len(positions) or not positions:
        return False
    lo, hi = min(positions), max(positions)
    if lo < lo_pos or hi > hi_pos:
        return False
    gaps = (hi - lo + 1) - len(positions)
    if gaps > jokers:
        return False
    length = len(positions) + jokers
    # the spare jokers extend the run at either end within lo_pos..hi_pos
    return length >= min_len and length <= hi_pos - lo_pos + 1


def legal_meld(codes: list[int], game: str) -> bool:
    """Is ``codes`` one legal meld on the table of ``game`` ("drift" or "loba")?  From the rules
    text: Drift sets of 3-4 cards of one rank in distinct suits (jokers stand for missing
    suits), runs of 3+ in one suit, aces low, jokers anywhere; every meld has a natural card.
    Loba piernas of 3-6 cards of one rank in exactly three suits, no jokers; escaleras of 4+ in
    one suit, ace low or high (not both), at most two jokers, never standing below the ace or
    above the king (the seed's limit on moving them, read as where a joker may stand)."""
    jokers = sum(1 for c in codes if c == JOKER)
    nat = [c for c in codes if c != JOKER]
    if not nat:
        return False
    ranks = {c & 15 for c in nat}
    suits = [c >> 4 for c in nat]
    if game == "drift":
        if len(codes) < 3:
            return False
        if len(ranks) == 1 and len(set(suits)) == len(suits) and len(codes) <= 4:
            return True
        if len(set(suits)) != 1:
            return False
        return _run_fits([c & 15 for c in nat], jokers, 0, 12, 3)
    if len(ranks) == 1 and jokers == 0 and 3 <= len(codes) <= 6 and len(set(suits)) == 3:
        return True                                   # a pierna
    if len(set(suits)) != 1 or jokers > 2 or len(codes) < 4:
        return False
    pos = [c & 15 for c in nat]
    if _run_fits(pos, jokers, 0, 12, 4):              # ace low
        return True
    # ace high: a natural ace at the top (a joker never stands above the king)
    return 0 in pos and _run_fits([13 if p == 0 else p for p in pos], jokers, 1, 13, 4)
