"""Referee of the five open-melding games (Basic, Block, Wrotham, Ramino Drift, Loba).

Plain Python, imports nothing from ``sim/`` or ``analysis/``: written from ``rules/common.md``,
``basic_rummy.md``, ``ramino.md``, ``loba.md`` and their seeds.  It walks each hand of
``rummylab trace --json`` (``notes/TRACE_SCHEMA.md``) on :class:`.core.Walker`, which keeps the
hands, pile, stock and table and checks that the pack is conserved, and re-derives

* the table: after each meld, lay-off, joker swap or joker move the whole table equals the one
  before plus that event, every meld legal where each card (each joker) stands
  (:mod:`.open_melds`);
* the turn (:mod:`.open_turns`): order of seats, one draw or take, the discard rules, the
  lay-off / swap / move / take rules of the game, Wrotham's all-seven deals, going out ending
  the hand at once, the restock rule;
* the settlement (:mod:`.open_settle`): who went out or won and every outcome column it knows.

``referee(hands, flips)`` referees hands (each a list of event dicts, or JSON lines) into a
:class:`Verdict`; ``flips`` overrides rule fields (:func:`.open_rules.game_rules`), for the
mutation check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .core import HandTrace, Walker, read_hands
from .open_melds import loose_readings, readings, step_readings
from .open_rules import game_rules
from .open_settle import settle_errors
from .open_turns import TurnChecks

TABLE_EVENTS = ("meld", "lay_off", "swap", "move")


@dataclass
class Verdict:
    hands: int = 0
    mismatches: list = field(default_factory=list)   # core.Mismatch
    by_game: Counter = field(default_factory=Counter)
    seen: Counter = field(default_factory=Counter)    # events and outcomes refereed, by name

    def bad_hands(self) -> list[str]:
        return sorted({m.hand for m in self.mismatches})


class OpenWalker(Walker):
    """One open-melding hand, walked event by event with the game's rules."""

    def __init__(self, hand: HandTrace, flips: dict | None = None):
        super().__init__(hand)
        self.rules = game_rules(hand.start, flips)
        self.dealer = int(hand.start.get("dealer", -1))
        self.reads: list[list] = []       # the legal readings of each meld on the table
        self.prior: list[list[str]] = []  # the table before the event being applied
        self.turns = TurnChecks(self)
        self.joker_only_discards = 0      # Loba: a hand of jokers alone discards one [choice]
        self.laid_by: list[int] = []      # the seat that laid each meld

    def err(self, ev, text, expected="", got=""):
        self.fail(f"turn {ev.get('turn')} seat {ev.get('seat')} {ev['event']}: {text}",
                  expected, got)

    def starter(self) -> int:
        return (self.dealer + 1) % self.n

    def shuffled(self) -> bool:
        return self.rules.restock == "shuffle"

    # -- the walk ----------------------------------------------------------------------------
    def apply(self, ev: dict) -> None:
        self.prior = [list(m) for m in self.table]
        if self.ended is not None:
            self.err(ev, "an event after the hand ended")
        super().apply(ev)
        kind = ev["event"]
        if kind in TABLE_EVENTS:
            self.check_table(ev)
        if kind == "lay_off":
            self.turns.after_lay_off(ev)
        if kind in TABLE_EVENTS or kind == "discard":
            self.turns.after(ev)

    def begin_turn(self, seat: int) -> None:
        self.turns.begin(seat)

    def end_turn(self) -> None:
        self.turns.close()

    def finish(self) -> None:
        super().finish()
        if self.hand.outcome is not None:
            for text in settle_errors(self, self.hand.outcome):
                self.fail(text, "", "")

    # -- hooks -------------------------------------------------------------------------------
    def before_play(self, ev):
        """The turn rules see every action of a seat on the state it finds."""
        self.turns.before(ev)

    before_draw = before_take = before_pass = before_discard = before_play
    before_meld = before_lay_off = before_swap = before_move = before_play

    def on_deal(self, ev):
        s, cards = int(ev["seat"]), ev["cards"]
        want = self.rules.hand_size + (self.rules.starter_extra if s == self.starter() else 0)
        if len(cards) != want:
            self.err(ev, "cards dealt", want, len(cards))

    def on_pass(self, ev):
        """The open games' pass: the stock is out and the seat cannot draw; the hand ends."""
        if self.stock:
            self.err(ev, "a pass with cards in the stock", 0, self.stock)

    def on_meld(self, ev):
        reads = readings(list(ev["cards"]), self.rules.melds)
        if not reads:
            self.err(ev, f"illegal meld {' '.join(ev['cards'])}")
        self.reads.append(reads or loose_readings(list(ev["cards"]), self.rules.melds))

    def on_lay_off(self, ev):
        self._change_meld(ev, ev["cards"][0] if ev["cards"] else None)

    def on_swap(self, ev):
        self._change_meld(ev, ev["cards"][0] if ev["cards"] else None)

    def on_move(self, ev):
        put = list(ev.get("cards") or []) + list(ev.get("fill") or [])
        self._change_meld(ev, put[0] if put else None)

    def on_restock(self, ev):
        self._restock_rules(ev)

    def on_turn_over(self, ev):
        self._restock_rules(ev)

    def on_end(self, ev):
        self.turns.hand_ended(ev)

    # -- checks ------------------------------------------------------------------------------
    def _change_meld(self, ev, card):
        """Meld ``i`` before (``prior``) and after (the trace's table) must be one legal step
        of this event (:func:`.open_melds.step_readings`)."""
        i, tab = ev.get("meld"), ev.get("table")
        if i is None or tab is None or not 0 <= i < len(self.prior) or i >= len(tab):
            self.err(ev, "no such meld on the table", f"0..{len(self.prior) - 1}", i)
            return
        new = list(tab[i])
        ok, why = step_readings(self.prior[i], self.reads[i], new, ev["event"], card,
                                self.rules.melds)
        if not ok:
            self.err(ev, f"meld {i} {' '.join(self.prior[i])} -> {' '.join(new)}: {why[0]}")
        self.reads[i] = ok or readings(new, self.rules.melds) or loose_readings(new, self.rules.melds)

    def check_table(self, ev):
        """The trace's table is the one before plus this event: a meld is appended, other
        events change their meld only; every other meld stays as it lay."""
        tab = [list(m) for m in ev.get("table") or []]
        want = self.prior + [list(ev["cards"])] if ev["event"] == "meld" else list(self.prior)
        i = ev.get("meld")
        if ev["event"] != "meld" and isinstance(i, int) and 0 <= i < len(tab) and i < len(want):
            want[i] = tab[i]
        if tab != want:
            self.err(ev, "the table is not the one before plus this event", want, tab)
        if ev["event"] == "meld":
            self.laid_by.append(int(ev["seat"]))
        owners = ev.get("owners")
        if owners is not None and list(owners) != self.laid_by:
            self.err(ev, "owners of the melds", self.laid_by, owners)

    def _restock_rules(self, ev):
        r = self.rules
        kept_top = self.restocks[-1]["kept_top"] if self.restocks else None
        if r.restock == "block":
            self.err(ev, "a restock in Block Rummy (no restock: the hand ends)")
        elif kept_top is not None and kept_top != (r.restock == "shuffle"):
            self.err(ev, "restock keeps the top discard", r.restock == "shuffle", kept_top)
        if 0 <= r.max_restocks < len(self.restocks):
            self.err(ev, "restocks", f"at most {r.max_restocks}", len(self.restocks))


def _hands_of(source) -> list[HandTrace]:
    """Hands from JSON lines, from event dicts of one or more hands, or HandTraces."""
    items = list(source)
    if not items or isinstance(items[0], HandTrace):
        return items
    if isinstance(items[0], str):
        return read_hands(items)
    hands: list[HandTrace] = []
    for ev in items:
        if ev["event"] == "start":
            hands.append(HandTrace(start=ev))
        elif ev["event"] == "outcome":
            hands[-1].outcome = ev
        else:
            hands[-1].events.append(ev)
    return hands


def referee(source, flips: dict | None = None, verdict: Verdict | None = None) -> Verdict:
    """Referee every hand of ``source`` (JSON lines, event dicts or HandTraces)."""
    verdict = verdict or Verdict()
    for hand in _hands_of(source):
        walker = OpenWalker(hand, flips)
        walker.run()
        verdict.hands += 1
        verdict.by_game[walker.rules.variant] += 1
        verdict.mismatches += walker.mismatches
        verdict.seen.update(ev["event"] for ev in hand.events)
        if hand.outcome is not None:
            verdict.seen["outcome " + str(hand.outcome.get("outcome_name"))] += 1
    return verdict
