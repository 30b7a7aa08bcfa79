"""Replay traced hands of the wild-card closed-hand games in plain Python (test helper).

:func:`traced_hand` plays one hand with a trace; :func:`replay` follows its events and
returns every seat's final hand, the pile and each turn, checking the table rules on the way
(the card taken from the pile is never discarded in the same turn; a restock turns the whole
pile over, or with ``restock_keep_top`` every discard but the top one, first discard on top).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.runner import make_spec
from sim.core.trace import events, new_trace


@dataclass
class Table:
    """What every replay keeps (shared with ``tests/support/open_replay.py``): the cards dealt, the
    hands, the pile and each turn, with the moves every game makes alike."""
    dealt: dict = field(default_factory=dict)      # seat -> cards dealt
    hands: dict = field(default_factory=dict)      # seat -> current cards (list of codes)
    pile: list = field(default_factory=list)       # bottom first
    turns: list = field(default_factory=list)      # (seat, own turn, drawn or None, from_pile, discard or None)

    def deal(self, kind: str, seat: int, a: int) -> bool:
        """Follow a ``deal`` or ``upcard`` event; False for any other kind."""
        if kind == "deal":
            self.dealt.setdefault(seat, []).append(a)
            self.hands.setdefault(seat, []).append(a)
        elif kind == "upcard":
            self.pile = [a]
        else:
            return False
        return True

    def take_top(self, a: int) -> None:
        assert self.pile and self.pile[-1] == a, "took a card that is not the pile top"
        self.pile.pop()

    def discard(self, seat: int, own_turn: int, cur: list, a: int, taken_stays: bool = True) -> None:
        """``seat`` ends its turn ``cur`` ([seat, drawn, from_pile]) discarding ``a``; with
        ``taken_stays`` never the card it just took from the pile."""
        if cur[2] and taken_stays:
            assert a != cur[1], "the card just taken from the pile was discarded"
        self.hands[seat].remove(a)
        self.pile.append(a)
        self.turns.append((seat, own_turn, cur[1], cur[2], a))

    def end(self, seat: int, own_turn: int, cur: list | None) -> None:
        """The hand ends: a turn still open (``cur``) is logged without a discard."""
        if cur is not None:
            self.turns.append((seat, own_turn, cur[1], cur[2], None))


def traced_hand(variant, players, hand, *, seed=1, strategies="simple", rules=None):
    spec = make_spec(variant, players=players, n=hand + 1, seed=seed, strategies=strategies, rules=rules)
    out = np.zeros((1, len(spec.columns)), dtype=np.int64)
    trace = new_trace()
    spec.variant.play_chunk(*spec.arrays(), seed, hand, out, debug=True, trace=trace)
    return dict(zip(spec.columns, out[0].tolist())), events(trace), spec


def won_hands(variant, seed, hands=10):
    """Hands ``0..hands-1`` at 2-5 players (``2 + h % 4``), traced and replayed, each with
    the seat that won it, which is the seat that ended it: ``(players, row, replay, winner)``."""
    for h in range(hands):
        n = 2 + h % 4
        row, evs, _ = traced_hand(variant, n, h, seed=seed)
        r = replay(evs)
        w = row["winner"]
        assert w == row["ender"], h
        yield n, row, r, w


@dataclass
class Replay(Table):
    stock_draws: list = field(default_factory=list)
    restocks: list = field(default_factory=list)   # (cards turned over, in new-stock order)
    knock: tuple | None = None
    before_out: list | None = None                 # the ender's hand after its draw


def replay(evs, shuffled: bool = False) -> Replay:
    """``shuffled``: restocks were shuffled (only the cards of the new stock are checked)."""
    r = Replay()
    own: dict = {}
    cur = None      # [seat, drawn, from_pile]
    new_stock: list = []
    for kind, seat, a, b in evs:
        if r.deal(kind, seat, a):
            continue
        if kind in ("restock", "turn_over"):          # all but the top discard / the whole pile
            turned, r.pile = (r.pile[:-1], r.pile[-1:]) if kind == "restock" else (r.pile, [])
            assert len(turned) == a
            r.restocks.append(list(turned))
            new_stock = list(turned)
        elif kind in ("draw_stock", "take_pile"):
            if cur is not None:  # the previous seat ended its turn without discarding: impossible
                raise AssertionError("a turn without a discard that did not end the hand")
            if kind == "take_pile":
                r.take_top(a)
            else:
                r.stock_draws.append(a)
                if new_stock:
                    got = new_stock.pop(new_stock.index(a) if shuffled else 0)
                    assert got == a, "the new stock is not the turned-over pile"
            r.hands[seat].append(a)
            own[seat] = own.get(seat, 0) + 1
            cur = [seat, a, kind == "take_pile"]
            r.before_out = sorted(r.hands[seat])
        elif kind == "discard":
            assert cur is not None and cur[0] == seat
            r.discard(seat, own[seat], cur, a)
            cur = None
        elif kind == "knock":
            r.knock = (seat, a)
        elif kind == "end":
            r.end(seat, own.get(seat, 0), cur)
    return r
