"""Event traces of one hand, for the recorded playthroughs (tests/playthroughs/).

A kernel that plays a hand takes ``trace``, an int64[rows, 4] array: row 0 holds the number of
events written, each later row one event ``(kind, seat, a, b)``.  With zero rows (``NO_TRACE`` from
Python, :func:`no_trace` inside kernels: what every simulation passes) :func:`log` returns at once, so tracing costs nothing in the hot
loop.  :func:`render` turns a trace into the readable lines of a playthrough.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cards import card_text, cards_text, from_mask, is_card

EVENTS = ("deal", "upcard", "draw_stock", "take_pile", "pass", "discard", "knock", "spread",
          "hit", "drop", "end", "restock", "swap", "move", "turn_over")
(E_DEAL, E_UPCARD, E_DRAW_STOCK, E_TAKE_PILE, E_PASS, E_DISCARD, E_KNOCK, E_SPREAD, E_HIT, E_DROP,
 E_END, E_RESTOCK, E_SWAP, E_MOVE, E_TURN_OVER) = range(len(EVENTS))
NO_TRACE = np.zeros((0, 4), dtype=np.int64)
TRACE_ROWS = 4096


def new_trace(rows: int = TRACE_ROWS) -> np.ndarray:
    return np.zeros((rows, 4), dtype=np.int64)


@njit(cache=True)
def no_trace():
    """An empty trace for kernels (a global array would be a read-only constant there)."""
    return np.zeros((0, 4), dtype=np.int64)


@njit(cache=True, inline="always")
def log(trace, kind, seat, a, b):
    """Append event ``(kind, seat, a, b)``; a no-op on a zero-row trace."""
    if trace.shape[0] == 0:
        return
    k = trace[0, 0] + 1
    if k >= trace.shape[0]:
        raise ValueError("trace full")
    trace[k, 0] = kind
    trace[k, 1] = seat
    trace[k, 2] = a
    trace[k, 3] = b
    trace[0, 0] = k


def events(trace: np.ndarray) -> list[tuple[str, int, int, int]]:
    return [(EVENTS[int(k)], int(s), int(a), int(b)) for k, s, a, b in trace[1:1 + int(trace[0, 0])]]


# one line per action: (kind) -> template over seat, card (card text of a), cards (of the mask a),
# a, b, word (the hand word), outcome (the outcome name of a), by (", ended by seat ..." or "")
LINES = {
    "upcard": "upcard {card}",
    "draw_stock": "seat {seat} draws {card} from the stock",
    "take_pile": "seat {seat} takes {card} from the discard pile",
    "pass": "seat {seat} passes the upcard",
    "discard": "seat {seat} discards {card} ({word} {b})",
    "knock": "seat {seat} knocks with {word} {a}",
    "spread": "seat {seat} lays down {cards}",
    "hit": "seat {seat} lays off {card}",
    "drop": "seat {seat} drops with {word} {a}",
    "end": "hand ends: {outcome}{by}",
    "restock": "the discard pile but its top card is turned over: {a} cards form the new stock",
    "swap": "seat {seat} swaps {card} for the joker of meld {b}",
    "move": "seat {seat} moves the joker of meld {b} to an end of its run {card}",
    "turn_over": "the whole discard pile is turned over: {a} cards form the new stock",
}


def render(trace: np.ndarray, *, hand_word: str, outcomes: tuple[str, ...]) -> list[str]:
    """Readable lines: the deal, then one line per action, then the end."""
    lines, dealt = [], {}
    for kind, seat, a, b in events(trace):
        if kind == "deal":
            dealt.setdefault(seat, []).append(a)
            continue
        if dealt:
            lines += [f"seat {s} is dealt {cards_text(sorted(c, key=lambda x: (x >> 4, x & 15)))}"
                      for s, c in sorted(dealt.items())]
            dealt = {}
        lines.append(LINES[kind].format(
            seat=seat, a=a, b=b, word=hand_word,
            card=card_text(a) if is_card(a) else "",
            cards=cards_text(from_mask(a)) if kind == "spread" else "",
            outcome=outcomes[a] if kind == "end" else "",
            by=f", ended by seat {seat}" if seat >= 0 else ""))
    return lines
