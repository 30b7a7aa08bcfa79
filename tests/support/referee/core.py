"""The referee's core: read ``rummylab trace --json`` lines (``notes/TRACE_SCHEMA.md``) into
hands, and walk a hand event by event keeping every seat's hand, the discard pile, the stock
count (and its order when a turned-over pile makes it known) and the table, checking that the
pack is conserved at every step.  Plain Python: nothing from ``sim/`` or ``analysis/``.

Use::

    hands = read_hands(lines)               # list[HandTrace]
    walker = Walker(hands[0])               # or a game's subclass with its own checks
    walker.run()                            # walker.mismatches: list[Mismatch]

A game referee subclasses :class:`Walker` and adds its own checks in the ``before_<event>``
hooks (called after the turn bookkeeping, before the generic bookkeeping of that event: the
state as the event finds it), the ``on_<event>`` hooks (called after the generic bookkeeping of
that event) and in :meth:`Walker.finish`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple

from .cards import (JOKER, CardTextError, MeldRules, Values, card_at, is_joker,  # noqa: F401
                    meld_ok, normalize, rank, run_ok, run_ok_in_order, set_ok, standard_pack, suit)
from .search import Arranger, melds_with  # noqa: F401


class Mismatch(NamedTuple):
    """One thing the referee found wrong: which hand, what, the expected and the traced value."""
    hand: str
    what: str
    expected: object
    got: object


@dataclass
class HandTrace:
    """One hand of a trace: its start line, the events in play order, its outcome line."""
    start: dict
    events: list[dict] = field(default_factory=list)
    outcome: dict | None = None

    @property
    def label(self) -> str:
        s = self.start
        return f"{s.get('variant')} {s.get('players')}p seed {s.get('seed')} hand {s.get('hand')}"

    @property
    def players(self) -> int:
        return int(self.start["players"])

    @property
    def rules(self) -> dict:
        return dict(self.start.get("rules", {}))

    @property
    def columns(self) -> list[str]:
        return list(self.start.get("columns", []))

    @property
    def row(self) -> dict:
        """The outcome row by column name (empty if the hand has no outcome line)."""
        return dict(self.outcome.get("outcome", {})) if self.outcome else {}


class TraceFormatError(ValueError):
    """A line that is not a trace event."""


def parse_lines(lines: Iterable[str]) -> list[dict]:
    """JSON objects of the non-empty lines, cards in canonical text."""
    out = []
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceFormatError(f"line {n}: not JSON ({exc})") from None
        for key in ("hand", "turn", "seat", "event", "cards"):
            if key not in ev:
                raise TraceFormatError(f"line {n}: no {key!r} key: {line[:120]}")
        try:
            ev["cards"] = [normalize(c) for c in ev["cards"]]
            if "table" in ev:
                ev["table"] = [[normalize(c) for c in meld] for meld in ev["table"]]
            if "fill" in ev:
                ev["fill"] = [normalize(c) for c in ev["fill"]]
        except CardTextError as exc:
            raise TraceFormatError(f"line {n}: {exc}") from None
        out.append(ev)
    return out


def read_hands(lines: Iterable[str]) -> list[HandTrace]:
    """Group the events of a trace into hands (each opens with a ``start`` line)."""
    hands: list[HandTrace] = []
    for ev in parse_lines(lines):
        kind = ev["event"]
        if kind == "start":
            hands.append(HandTrace(start=ev))
        elif not hands:
            raise TraceFormatError(f"a {kind!r} line before any start line")
        elif kind == "outcome":
            hands[-1].outcome = ev
        else:
            hands[-1].events.append(ev)
    return hands


class Walker:
    """Walks one hand, keeping the state and checking the pack.

    State: ``hands`` (a Counter per seat), ``pile`` (the discard pile, bottom first),
    ``stock`` (how many cards), ``stock_order`` (the stock top first when known, else None),
    ``table`` (melds on the table in table order), ``out`` (cards put aside face down, e.g. a
    knock discard: still part of the pack).  Turn bookkeeping: ``seat`` and ``turn`` of the
    turn in progress, ``turn_events`` (its events), ``own_turns[s]`` (turns seat s played),
    ``taken`` (the card taken from the pile this turn, or None), ``drawn`` (from the stock)."""

    def __init__(self, hand: HandTrace):
        self.hand = hand
        self.n = hand.players
        self.mismatches: list[Mismatch] = []
        self.pack = Counter({normalize(c): int(v) for c, v in hand.start.get("pack", {}).items()})
        self.hands = [Counter() for _ in range(self.n)]
        self.pile: list[str] = []
        self.out: list[str] = []
        self.table: list[list[str]] = []
        self.owners: list[int] = []
        self.stock = sum(self.pack.values())
        self.stock_order: list[str] | None = None
        self.dealt = [None] * self.n
        self.seat, self.turn = -1, 0
        self.turn_events: list[dict] = []
        self.own_turns = [0] * self.n
        self.taken = self.drawn = None
        self.ended: dict | None = None
        self.restocks: list[dict] = []
        self.redeals = 0

    # ---- reporting -------------------------------------------------------------------------
    def fail(self, what: str, expected, got) -> None:
        self.mismatches.append(Mismatch(self.hand.label, what, expected, got))

    def expect(self, what: str, expected, got) -> bool:
        if expected != got:
            self.fail(what, expected, got)
            return False
        return True

    # ---- the walk --------------------------------------------------------------------------
    def run(self) -> list[Mismatch]:
        for ev in self.hand.events:
            self.apply(ev)
        self.finish()
        return self.mismatches

    def apply(self, ev: dict) -> None:
        kind = ev["event"]
        self._track_turn(ev)
        self.turn_events.append(ev)
        generic = getattr(self, f"_do_{kind}", None)
        if generic is None:
            self.fail("event", "a known event", kind)
            return
        before = getattr(self, f"before_{kind}", None)
        if before is not None:
            before(ev)
        generic(ev)
        hook = getattr(self, f"on_{kind}", None)
        if hook is not None:
            hook(ev)
        self.check_conservation(kind)

    def _track_turn(self, ev: dict) -> None:
        turn, seat = int(ev["turn"]), int(ev["seat"])
        if turn == 0 or turn == self.turn:
            if turn and seat not in (-1, self.seat) and not self.plays_off_turn(ev):
                self.fail(f"turn {turn}: seat", self.seat, seat)
            return
        if turn < self.turn:
            self.fail("turn counter", f"> {self.turn}", turn)
        self.end_turn()
        self.turn, self.seat = turn, seat
        self.turn_events, self.taken, self.drawn = [], None, None
        if 0 <= seat < self.n:
            self.own_turns[seat] += 1
            self.begin_turn(seat)

    def plays_off_turn(self, ev: dict) -> bool:
        """Hook: may ``ev``'s seat play inside another seat's turn (Tonk's stock-out lay-down)?"""
        return False

    def begin_turn(self, seat: int) -> None:
        """Hook: a new turn of ``seat`` starts (the previous one is closed)."""

    def end_turn(self) -> None:
        """Hook: the turn in progress (``self.seat``, ``self.turn_events``) is over."""

    def finish(self) -> None:
        """Hook: after the last event (call ``super().finish()`` to close the last turn)."""
        self.end_turn()
        if self.hand.outcome is None:
            self.fail("outcome line", "present", "missing")

    # ---- where the cards are ---------------------------------------------------------------
    def unseen(self) -> Counter:
        """The cards in no hand, pile, table or face-down heap: the stock (as a multiset)."""
        seen = Counter(self.pile) + Counter(self.out)
        for h in self.hands:
            seen += h
        for meld in self.table:
            seen += Counter(meld)
        return self.pack - seen

    def check_conservation(self, after: str) -> None:
        held = sum(sum(h.values()) for h in self.hands)
        placed = held + len(self.pile) + len(self.out) + sum(len(m) for m in self.table)
        total = sum(self.pack.values())
        if placed + self.stock != total:
            self.fail(f"after {after}: hands + pile + table + stock", total, placed + self.stock)
        if sum(self.unseen().values()) != self.stock:
            self.fail(f"after {after}: stock count vs cards not seen",
                      sum(self.unseen().values()), self.stock)

    def _from_stock(self, card: str, why: str) -> None:
        if self.stock <= 0:
            self.fail(f"{why} {card}", "a card in the stock", "the stock is empty")
            return
        if self.unseen()[card] <= 0:
            self.fail(f"{why} {card}", "a card still in the stock", "a card already in play")
        if self.stock_order is not None:
            if self.stock_order and self.stock_order[0] != card:
                self.fail(f"{why}: top of the turned-over stock", self.stock_order[0], card)
            self.stock_order = self.stock_order[1:]
        self.stock -= 1

    def _from_hand(self, seat: int, card: str, why: str) -> bool:
        if not 0 <= seat < self.n or self.hands[seat][card] <= 0:
            self.fail(f"seat {seat} {why} {card}", "a card in its hand",
                      sorted(self.hands[seat].elements()) if 0 <= seat < self.n else "no seat")
            return False
        self.hands[seat][card] -= 1
        if not self.hands[seat][card]:
            del self.hands[seat][card]
        return True

    # ---- generic bookkeeping per event -----------------------------------------------------
    def _do_start(self, ev):
        self.fail("event", "one start line per hand", "start")

    def _do_deal(self, ev):
        seat = int(ev["seat"])
        if self.dealt[seat] is not None:          # a redeal within the hand: start over
            self._redeal()
        for c in ev["cards"]:
            self._from_stock(c, f"deal to seat {seat}")
            self.hands[seat][c] += 1
        self.dealt[seat] = list(ev["cards"])

    def _redeal(self):
        """A second deal in one hand row (a tied deal redealt): every card back to the stock."""
        keep, redeals = self.mismatches, self.redeals
        Walker.__init__(self, self.hand)
        self.mismatches, self.redeals = keep, redeals + 1

    def _do_upcard(self, ev):
        for c in ev["cards"]:
            self._from_stock(c, "upcard")
            self.pile.append(c)

    def _do_draw(self, ev):
        seat = int(ev["seat"])
        for c in ev["cards"]:
            self._from_stock(c, f"seat {seat} draws")
            self.hands[seat][c] += 1
            self.drawn = c

    def _do_take(self, ev):
        seat, cards = int(ev["seat"]), ev["cards"]
        top = self.pile[len(self.pile) - len(cards):] if cards else []
        if not cards or len(cards) > len(self.pile) or sorted(top) != sorted(cards):
            self.fail(f"seat {seat} takes from the pile", self.pile[-len(cards):] if cards else
                      "a card", cards)
            return
        del self.pile[len(self.pile) - len(cards):]
        for c in cards:
            self.hands[seat][c] += 1
        self.taken = cards[-1] if len(cards) == 1 else list(cards)

    def _do_pass(self, ev):
        pass

    def _do_discard(self, ev):
        seat = int(ev["seat"])
        for c in ev["cards"]:
            if self._from_hand(seat, c, "discards"):
                self.pile.append(c)

    def _do_knock(self, ev):
        pass

    def _do_drop(self, ev):
        pass

    def _do_end(self, ev):
        self.ended = ev

    def _do_meld(self, ev):
        seat = int(ev["seat"])
        for c in ev["cards"]:
            self._from_hand(seat, c, "melds")
        self.table.append(list(ev["cards"]))
        self.owners.append(seat)
        self._adopt_table(ev)

    def _do_lay_off(self, ev):
        seat, i = int(ev["seat"]), ev.get("meld")
        for c in ev["cards"]:
            self._from_hand(seat, c, "lays off")
        if i is None or not 0 <= int(i) < len(self.table):
            self.fail(f"seat {seat} lays off {ev['cards']}: meld", f"0..{len(self.table) - 1}", i)
            return
        self.table[int(i)] = self.table[int(i)] + list(ev["cards"])
        self._adopt_table(ev)

    def _do_swap(self, ev):
        seat, i = int(ev["seat"]), ev.get("meld")
        if i is None or not 0 <= int(i) < len(self.table) or JOKER not in self.table[int(i)]:
            self.fail(f"seat {seat} swaps: meld", "a meld holding a joker", i)
            return
        for c in ev["cards"]:
            if self._from_hand(seat, c, "swaps in"):
                meld = self.table[int(i)]
                meld[meld.index(JOKER)] = c
                self.hands[seat][JOKER] += 1
        self._adopt_table(ev)

    def _do_move(self, ev):
        """A Loba joker move: the hand's card put in the joker's old place (``fill``) leaves
        the hand for the table."""
        seat, i = int(ev["seat"]), ev.get("meld")
        put = [c for c in list(ev["cards"]) + list(ev.get("fill") or [])
               if self._from_hand(seat, c, "puts in a moved joker's place")]
        if put and i is not None and 0 <= int(i) < len(self.table):
            self.table[int(i)] = self.table[int(i)] + put
        self._adopt_table(ev)

    def _do_restock(self, ev):
        self._turn_over(ev)

    def _do_turn_over(self, ev):
        self._turn_over(ev)

    def _turn_over(self, ev):
        """The pile turned over as the new stock: all of it, or all but its top card.  Unless
        shuffled (``shuffled()``), the first discard becomes the top of the stock."""
        count = int(ev.get("count", -1))
        if self.stock != 0:
            self.fail(f"{ev['event']}: stock before", 0, self.stock)
        if count == len(self.pile):
            moved, self.pile = self.pile, []
        elif count == len(self.pile) - 1:
            moved, self.pile = self.pile[:-1], self.pile[-1:]
        else:
            self.fail(f"{ev['event']}: count", f"{len(self.pile)} or {len(self.pile) - 1}", count)
            return
        self.stock += len(moved)
        self.stock_order = None if self.shuffled() else list(moved)
        self.restocks.append({"kept_top": bool(self.pile), "count": count, "turn": self.turn})

    def shuffled(self) -> bool:
        """Is a turned-over pile shuffled?  (The ``restock_shuffle`` rule where there is one.)"""
        return bool(self.hand.rules.get("restock_shuffle", False))

    def _adopt_table(self, ev):
        """A line carrying ``table``: it must hold the same cards meld by meld as the walk
        (the order within a meld, where jokers stand, is the trace's to state)."""
        if "table" not in ev:
            return
        claimed = [list(m) for m in ev["table"]]
        mine = [sorted(m) for m in self.table]
        if len(claimed) != len(self.table) or [sorted(m) for m in claimed] != mine:
            self.fail(f"after {ev['event']}: table", mine, [sorted(m) for m in claimed])
        self.table = claimed
        if "owners" in ev:
            self.owners = list(ev["owners"])
