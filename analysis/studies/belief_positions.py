"""Real positions of a closed knock game (Gin, Knock Rummy), read from the traces of a run: what
a seat saw at the start of each of its turns and what each opponent really held.

The search player's ``calibrated`` belief (:mod:`sim.search.calibrated`) is learned from
these positions (:func:`calibration_table`: the opponent's deadwood by discard-pile length in
self-play of ``strong``), and the belief check (``scripts/belief_check.py``) measures every
belief's worlds against the true hands of other positions.  The positions are replayed from
``rummylab trace``'s events (:func:`analysis.trace_cmd.trace_stream`), so they are exactly the
hands ``rummylab simulate`` plays with the same settings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.cards import parse_card
from sim.knock.melds import min_deadwood_masks

TURN_STARTS = ("draw", "take")     # the events that open a seat's turn (after the first offer's passes)


@dataclass(frozen=True)
class Positions:
    """One row per position and opponent (numpy arrays of equal length): the seat to move's
    hand, the opponent's hand and its deadwood, the discard pile's cards and length, the
    cards the opponent took from the pile and still holds (known to the seat), the seat's
    own turn number (1 for its first turn), the pile's top card and the turns the opponent
    has played."""
    mine: np.ndarray
    opp: np.ndarray
    opp_deadwood: np.ndarray
    pile: np.ndarray
    pile_len: np.ndarray
    known: np.ndarray
    own_turn: np.ndarray
    top: np.ndarray
    opp_turns: np.ndarray

    def __len__(self) -> int:
        return len(self.mine)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return m


class _Replay:
    """The state of one hand of ``n`` seats, event by event."""

    def __init__(self, n: int) -> None:
        self.hands = [0] * n
        self.picked = [0] * n
        self.pile: list[int] = []
        self.turns = [0] * n

    def apply(self, e: dict) -> None:
        kind, seat, cards = e["event"], e["seat"], e["cards"]
        if kind == "deal":
            self.hands[seat] = _mask(cards)
        elif kind == "upcard":
            self.pile.append(parse_card(cards[0]))
        elif kind == "draw":
            self.hands[seat] |= _mask(cards)
        elif kind == "take":
            c = self.pile.pop()
            self.hands[seat] |= 1 << c
            self.picked[seat] |= 1 << c
        elif kind == "discard":
            c = parse_card(cards[0])
            self.hands[seat] &= ~(1 << c)
            self.pile.append(c)


def positions(events_per_hand) -> Positions:
    """Every turn start of every hand in ``events_per_hand`` (an iterable of one hand's
    events each, as :func:`analysis.trace_cmd.trace_stream` yields them)."""
    rows: list[tuple[int, ...]] = []
    for events in events_per_hand:
        r = _Replay(events[0]["players"])
        for e in events:
            if e["event"] in TURN_STARTS:
                p = e["seat"]
                r.turns[p] += 1
                pile_mask = sum(1 << c for c in r.pile)
                for o in range(len(r.hands)):
                    if o != p:
                        rows.append((r.hands[p], r.hands[o], pile_mask, len(r.pile), r.picked[o] & r.hands[o],
                                     r.turns[p], r.pile[-1], r.turns[o]))
            r.apply(e)
    a = np.array(rows, dtype=np.uint64).reshape(-1, 8)
    return Positions(mine=a[:, 0].copy(), opp=a[:, 1].copy(), opp_deadwood=min_deadwood_masks(a[:, 1].copy()),
                     pile=a[:, 2].copy(), pile_len=a[:, 3].astype(np.int64), known=a[:, 4].copy(),
                     own_turn=a[:, 5].astype(np.int64), top=a[:, 6].astype(np.int64),
                     opp_turns=a[:, 7].astype(np.int64))


def calibration_table(pos: Positions, quantiles: int, min_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The opponent's deadwood by discard-pile length: ``(table, n)``, ``table[L]`` the
    ``quantiles`` midpoint quantiles (at (i + 0.5) / quantiles) of the deadwood at pile
    length ``L`` and ``n[L]`` the positions behind it.  The last row pools every pile of its
    length or longer: it is the longest length with ``min_rows`` positions at it or beyond."""
    last = max((L for L in range(int(pos.pile_len.max()) + 1) if (pos.pile_len >= L).sum() >= min_rows), default=0)
    probs = (np.arange(quantiles) + 0.5) / quantiles
    table = np.zeros((last + 1, quantiles))
    n = np.zeros(last + 1, dtype=np.int64)
    for L in range(last + 1):
        sel = pos.pile_len >= L if L == last else pos.pile_len == L
        n[L] = int(sel.sum())
        if n[L]:
            table[L] = np.quantile(pos.opp_deadwood[sel].astype(np.float64), probs)
        elif L:
            table[L] = table[L - 1]
    return table, n
