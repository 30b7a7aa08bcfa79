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
