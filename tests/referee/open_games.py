"""Referee of the five open-melding games (Basic, Block, Wrotham, Ramino Drift, Loba).

Plain Python, imports nothing from ``sim/`` or ``analysis/``: written from ``rules/common.md``,
``basic_rummy.md``, ``ramino.md``, ``loba.md`` and their seeds.  It reads the JSON lines of
``rummylab trace --json`` (``notes/TRACE_SCHEMA.md``) one hand at a time and re-derives

* the pack: every card dealt, drawn, taken, played and discarded exists where it is said to
  come from (hands, stock, discard pile, table) and the end accounts for every card;
* the table: after each meld, lay-off, joker swap or joker move the whole table equals the one
  before plus that event, every meld legal where each card (each joker) stands
  (:mod:`.open_melds`);
* the turn: order of seats, one draw or take, the discard rules, the lay-off / swap / move /
  take rules of the game, Wrotham's all-seven deals, going out ending the hand at once;
* the settlement (:mod:`.open_settle`): who went out or won and every outcome column it knows.

``referee(lines, flips)`` returns a :class:`Verdict`; ``flips`` overrides rule fields
(:func:`.open_rules.game_rules`), for the mutation check.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from .cards import JOKER, is_joker
from .open_melds import readings, step_readings
from .open_rules import game_rules
from .open_settle import settle_errors
from .open_turns import TurnChecks

TABLE_EVENTS = ("meld", "lay_off", "swap", "move")


@dataclass
class Verdict:
    hands: int = 0
    mismatches: list = field(default_factory=list)   # (hand, text)
    by_game: Counter = field(default_factory=Counter)
    seen: Counter = field(default_factory=Counter)    # events and outcomes refereed, by name

    def add(self, hand, texts):
        self.mismatches += [(hand, t) for t in texts]


class OpenHand:
    """One hand as it is played, event by event; ``errors`` collects every mismatch."""

    def __init__(self, start: dict, flips: dict | None = None):
        self.start = start
        self.rules = game_rules(start, flips)
        self.n = self.rules.players
        self.dealer = int(start.get("dealer", -1))
        self.stock = Counter(start["pack"])
        self.pile: list[str] = []
        self.hands = [Counter() for _ in range(self.n)]
        self.table: list[list[str]] = []
        self.reads: list[list] = []
        self.owners: list[int] = []
        self.errors: list[str] = []
        self.turns = TurnChecks(self)
        self.ended = None
        self.restocks = 0
        self.known_stock: list[str] | None = None   # the stock's order after a turn-over
        self.joker_only_discards = 0                # Loba: a hand of jokers alone discards one

    # -- card movement -----------------------------------------------------------------------
    def err(self, ev, text):
        self.errors.append(f"turn {ev.get('turn')} seat {ev.get('seat')} {ev['event']}: {text}")

    def take_from(self, ev, where: Counter, cards, name):
        for c in cards:
            if where[c] <= 0:
                self.err(ev, f"{c} is not in the {name}")
            else:
                where[c] -= 1

    def from_stock(self, ev, card):
        if self.known_stock is not None:
            top = self.known_stock.pop(0) if self.known_stock else None
            if top != card:
                self.err(ev, f"drew {card}, the turned-over stock's top is {top}")
        self.take_from(ev, self.stock, [card], "stock")

    # -- events ------------------------------------------------------------------------------
    def feed(self, ev: dict):
        kind = ev["event"]
        if self.ended is not None and kind not in ("end", "outcome"):
            self.err(ev, "an event after the hand ended")
        handler = getattr(self, "on_" + kind, None)
        if handler is None:
            self.err(ev, "an event the open games do not have")
            return
        if kind not in ("deal", "upcard", "end", "outcome", "restock", "turn_over"):
            self.turns.before(ev)
        handler(ev)
        if kind in TABLE_EVENTS:
            self.check_table(ev)
        if kind == "lay_off":
            self.turns.after_lay_off(ev)
        if kind in TABLE_EVENTS or kind == "discard":
            self.turns.after(ev)

    def on_deal(self, ev):
        s, cards = ev["seat"], ev["cards"]
        want = self.rules.hand_size + (self.rules.starter_extra if s == self.starter() else 0)
        if len(cards) != want:
            self.err(ev, f"dealt {len(cards)} cards, the rules say {want}")
        self.take_from(ev, self.stock, cards, "pack")
        self.hands[s].update(cards)

    def on_upcard(self, ev):
        self.take_from(ev, self.stock, ev["cards"], "pack")
        self.pile += ev["cards"]

    def on_draw(self, ev):
        card, = ev["cards"]
        self.from_stock(ev, card)
        self.hands[ev["seat"]][card] += 1

    def on_take(self, ev):
        cards = ev["cards"]
        if not self.pile or cards != self.pile[-len(cards):] or len(cards) != 1:
            self.err(ev, f"took {cards}, the pile's top is {self.pile[-1:]}")
        del self.pile[-len(cards):]
        self.hands[ev["seat"]].update(cards)

    def on_pass(self, ev):
        """The open games' pass: the stock is out and the seat cannot draw; the hand ends."""
        if sum(self.stock.values()):
            self.err(ev, "a pass with cards in the stock")

    def on_discard(self, ev):
        card, = ev["cards"]
        self.take_from(ev, self.hands[ev["seat"]], [card], "hand")
        self.pile.append(card)

    def on_meld(self, ev):
        cards = list(ev["cards"])
        self.take_from(ev, self.hands[ev["seat"]], cards, "hand")
        reads = readings(cards, self.rules.melds)
        if not reads:
            self.err(ev, f"illegal meld {' '.join(cards)}")
        self.table.append(cards)
        self.reads.append(reads)
        self.owners.append(ev["seat"])

    def _change_meld(self, ev, card):
        i = ev.get("meld")
        tab = ev.get("table")
        if i is None or tab is None or not 0 <= i < len(self.table) or i >= len(tab):
            self.err(ev, f"no meld {i} on the table")
            return
        new = list(tab[i])
        ok, why = step_readings(self.table[i], self.reads[i], new, ev["event"], card,
                                self.rules.melds)
        if not ok:
            self.err(ev, f"meld {i} {' '.join(self.table[i])} -> {' '.join(new)}: {why[0]}")
        self.table[i] = new
        self.reads[i] = ok or readings(new, self.rules.melds)

    def on_lay_off(self, ev):
        card, = ev["cards"]
        self.take_from(ev, self.hands[ev["seat"]], [card], "hand")
        self._change_meld(ev, card)

    def on_swap(self, ev):
        card, = ev["cards"]
        self.take_from(ev, self.hands[ev["seat"]], [card], "hand")
        self._change_meld(ev, card)
        self.hands[ev["seat"]][JOKER] += 1

    def on_move(self, ev):
        card = move_card(ev)
        if card is not None:
            self.take_from(ev, self.hands[ev["seat"]], [card], "hand")
        self._change_meld(ev, card)

    def on_restock(self, ev):
        self._restock(ev, keep_top=True)

    def on_turn_over(self, ev):
        self._restock(ev, keep_top=False)

    def _restock(self, ev, keep_top):
        r = self.rules
        mode = "shuffle" if keep_top else "turn_over"
        if r.restock != mode:
            self.err(ev, f"the rules restock by {r.restock}, not {mode}")
        if sum(self.stock.values()):
            self.err(ev, "restocked while the stock is not empty")
        self.restocks += 1
        if 0 <= r.max_restocks < self.restocks:
            self.err(ev, f"restock {self.restocks}: at most {r.max_restocks}")
        top = self.pile[-1:] if keep_top else []
        new = self.pile[:-1] if keep_top else self.pile
        if ev.get("count", len(new)) != len(new):
            self.err(ev, f"new stock of {ev.get('count')} cards, the pile gives {len(new)}")
        self.stock = Counter(new)
        self.known_stock = None if keep_top else list(new)
        self.pile = list(top)

    def on_end(self, ev):
        self.turns.finish(ev)
        self.ended = ev

    def on_outcome(self, ev):
        if self.ended is None:
            self.on_end(dict(ev, event="end"))
        self.errors += settle_errors(self, ev)
        self.check_pack(ev)

    # -- checks ------------------------------------------------------------------------------
    def starter(self) -> int:
        return (self.dealer + 1) % self.n

    def check_table(self, ev):
        tab = ev.get("table")
        if tab is None:
            self.err(ev, "no table after a table event")
        elif [list(m) for m in tab] != self.table:
            self.err(ev, f"table {tab} is not the table before plus this event {self.table}")
        owners = ev.get("owners")
        if owners is not None and list(owners) != self.owners:
            self.err(ev, f"owners {owners}, the melds were laid by {self.owners}")

    def check_pack(self, ev):
        held = sum((h for h in self.hands), Counter()) + self.stock + Counter(self.pile)
        held += Counter(c for m in self.table for c in m)
        if +held != +Counter(self.start["pack"]):
            self.err(ev, "the cards at the end are not the pack")


def move_card(ev) -> str | None:
    """The hand's card a joker move puts in the joker's place (``fill``), or None."""
    put = list(ev.get("cards") or []) + list(ev.get("fill") or [])
    return put[0] if put else None


def referee(lines, flips: dict | None = None, verdict: Verdict | None = None) -> Verdict:
    """Referee every hand of a JSON-lines trace (strings or dicts) of the open games."""
    verdict = verdict or Verdict()
    hand = None
    for line in lines:
        ev = json.loads(line) if isinstance(line, str) else line
        if ev["event"] == "start":
            hand = OpenHand(ev, flips)
            continue
        hand.feed(ev)
        verdict.seen[ev["event"]] += 1
        if ev["event"] == "outcome":
            verdict.seen["outcome " + str(ev.get("outcome_name"))] += 1
            verdict.hands += 1
            verdict.by_game[hand.rules.variant] += 1
            verdict.add(ev["hand"], hand.errors)
            hand = None
    return verdict
