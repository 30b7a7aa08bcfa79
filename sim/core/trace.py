"""Event traces of one hand, for the recorded playthroughs (tests/crosscut/playthroughs/).

A kernel that plays a hand takes ``trace``, an int64[rows, 4] array: row 0 holds the number of
events written, each later row one event ``(kind, seat, a, b)``.  With zero rows (``NO_TRACE`` from
Python, :func:`no_trace` inside kernels: what every simulation passes) :func:`log` returns at once, so tracing costs nothing in the hot
loop.  :mod:`analysis.trace_events` turns a trace into the events of ``rummylab trace`` and the
readable lines of a playthrough.
"""

from __future__ import annotations

import numpy as np
from numba import njit


EVENTS = ("deal", "upcard", "draw_stock", "take_pile", "pass", "discard", "knock", "spread",
          "hit", "drop", "end", "restock", "swap", "move", "turn_over", "pack", "table", "show")
(E_DEAL, E_UPCARD, E_DRAW_STOCK, E_TAKE_PILE, E_PASS, E_DISCARD, E_KNOCK, E_SPREAD, E_HIT, E_DROP,
 E_END, E_RESTOCK, E_SWAP, E_MOVE, E_TURN_OVER, E_PACK, E_TABLE, E_SHOW) = range(len(EVENTS))
# bookkeeping rows, not plays: ``pack`` (a: one card of the shuffled pack, logged before the
# deal) and ``table`` (seat: a table row, a and b: that meld as it stands after a play, see
# :func:`sim.open.open_rummy_plays.log_row`) and ``show`` (seat, a: a card, b: where it lies in
# the arrangement shown at a knock or going out, see :mod:`sim.knock.shown`); :func:`events`
# leaves them out
BOOKKEEPING = ("pack", "table", "show")
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


@njit(cache=True)
def log_pack(trace, deck):
    """Log every card of the shuffled pack ``deck`` (a ``pack`` row each; traced hands only)."""
    for c in deck:
        log(trace, E_PACK, -1, c, 0)


def all_events(trace: np.ndarray) -> list[tuple[str, int, int, int]]:
    """Every row of the trace as ``(kind, seat, a, b)``, bookkeeping rows included."""
    return [(EVENTS[int(k)], int(s), int(a), int(b)) for k, s, a, b in trace[1:1 + int(trace[0, 0])]]


def events(trace: np.ndarray) -> list[tuple[str, int, int, int]]:
    """The plays of the trace as ``(kind, seat, a, b)`` (no bookkeeping rows)."""
    return [e for e in all_events(trace) if e[0] not in BOOKKEEPING]
