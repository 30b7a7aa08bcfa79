"""Referee of Tonk (``rules/tonk.md``; seeds 000 first section and 003): 5 cards each, a tonk
on the deal, spreads (books of 3-4, runs of 3+ in suit, ace low) and hits on any spread, a
drop (knock) at the start of a turn, the stock-out lay-down, payouts in base stakes."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .cards import MeldRules, meld_ok, rank, run_ok_in_order
from .closed import ClosedWalker, scores_for
from .search import melds_with

TONK_MELDS = MeldRules(jokers_wild=False)


@lru_cache(maxsize=None)
def lowest_count(hand: tuple[str, ...], table: tuple[tuple[str, ...], ...], values) -> int:
    """The lowest count a hand can keep by laying down spreads and hitting ``table`` (in any
    order: a spread laid down can take the next hit)."""
    best = values.total(hand)
    left = Counter(hand)
    for c in set(hand):
        for meld in melds_with(c, left, TONK_MELDS):
            rest = left - Counter(meld)
            best = min(best, lowest_count(tuple(sorted(rest.elements())),
                                          tuple(sorted(table + (meld,))), values))
        for i, meld in enumerate(table):
            grown = tuple(sorted(meld + (c,)))
            if meld_ok(list(grown), TONK_MELDS):
                rest = list(hand)
                rest.remove(c)
                best = min(best, lowest_count(tuple(rest), tuple(sorted(
                    table[:i] + (grown,) + table[i + 1:])), values))
    return best


class TonkWalker(ClosedWalker):
    """Tonk's turn: drop before drawing, or draw/take, spread and hit, discard; a stock-out
    pass ends the hand, then (``stockout_laydown``) every hand lays down what lowers its count
    most, from the seat that passed on in turn order."""

    def __init__(self, hand, flip=None):
        super().__init__(hand, flip)
        self.dropped = None            # (seat, traced count)
        self.stock_out_seat = None
        self.laydown_order: list[int] = []
        self.laydown_at = -1           # index in laydown_order of the seat laying down now
        self.laydown_best = 0
        self.new_spread_turn = set()   # turns that laid a new spread

    def count(self, seat: int) -> int:
        return self.p.values.total(self.hands[seat].elements())

    def on_upcard(self, ev) -> None:
        super().on_upcard(ev)
        if self.p.no_upcard:
            self.fail("upcard", "no upcard (no_upcard)", ev["cards"])

    # ---- plays -----------------------------------------------------------------------------
    def plays_off_turn(self, ev) -> bool:
        return self.stock_out_seat is not None and ev["event"] in ("meld", "lay_off")

    def on_meld(self, ev) -> None:
        if not meld_ok(ev["cards"], TONK_MELDS):
            self.fail(f"turn {self.turn}: seat {ev['seat']} spreads", "a book or a run", ev["cards"])
        self.new_spread_turn.add(self.turn)
        self.check_table()

    def on_lay_off(self, ev) -> None:
        self.check_table()

    def check_table(self) -> None:
        for i, meld in enumerate(self.table):
            is_book = len({rank(c) for c in meld}) == 1
            ok = meld_ok(meld, TONK_MELDS) if is_book else run_ok_in_order(meld, TONK_MELDS)
            if not ok:
                self.fail(f"turn {self.turn}: spread {i} on the table", "a book or a run in order",
                          meld)

    def on_pass(self, ev) -> None:
        seat = int(ev["seat"])
        if ev["cards"] or self.stock != 0:
            self.fail(f"turn {self.turn}: seat {seat} passes", "only on an empty stock",
                      f"stock {self.stock}, cards {ev['cards']}")
        self.stock_out_seat = seat
        if self.p.stockout_laydown:
            self.laydown_order = [(seat + i) % self.n for i in range(self.n)]

    def before_meld(self, ev) -> None:
        self.before_play(ev)

    def before_lay_off(self, ev) -> None:
        self.before_play(ev)

    def before_play(self, ev) -> None:
        """A play after the stock-out pass: the lay-down moves on to its seat, whose best is
        judged on the hand and table this play finds."""
        if self.stock_out_seat is not None:
            self.laydown_step(int(ev["seat"]))

    def laydown_step(self, seat: int) -> None:
        """The stock-out lay-down moves on to ``seat``: close the seats before it."""
        if not self.laydown_order:
            self.fail("stock out: a lay-down", "none (stockout_laydown off)", seat)
            return
        while self.laydown_at < 0 or self.laydown_order[self.laydown_at] != seat:
            if not self.next_laydown():
                self.fail("stock out: lay-down order", "each seat once, from the seat that passed",
                          seat)
                return

    def next_laydown(self) -> bool:
        """Close the seat laying down (its count must be the lowest it could reach), open the
        next one.  False when every seat is done."""
        if self.laydown_at >= 0:
            s = self.laydown_order[self.laydown_at]
            self.expect(f"stock out: seat {s}'s count after laying down", self.laydown_best,
                        self.count(s))
        self.laydown_at += 1
        if self.laydown_at >= len(self.laydown_order):
            return False
        s = self.laydown_order[self.laydown_at]
        self.laydown_best = lowest_count(tuple(sorted(self.hands[s].elements())),
                                         tuple(sorted(tuple(sorted(m)) for m in self.table)),
                                         self.p.values)
        return True

    # ---- turns -----------------------------------------------------------------------------
    def check_turn_shape(self, kinds) -> None:
        own = [e["event"] for e in self.turn_events if int(e["seat"]) in (self.seat, -1)
               and e["event"] not in ("restock", "turn_over")]
        if self.stock_out_seat == self.seat:
            if own[:1] != ["pass"]:
                self.fail(f"turn {self.turn}: stock out", "a pass", own)
            return
        if own[:1] == ["drop"]:
            if own != ["drop", "end"]:
                self.fail(f"turn {self.turn}: a drop", "ends the hand at once", own)
            return
        if not own or own[0] not in ("draw", "take"):
            self.fail(f"turn {self.turn}: first play", "drop, draw or take", own[:1])
            return
        body = [k for k in own[1:] if k not in ("meld", "lay_off")]
        empty = not self.hands[self.seat]
        if body not in (["discard"], ["discard", "end"], ["end"]):
            self.fail(f"turn {self.turn}: plays", "draw/take, spreads and hits, a discard", own)
        elif (body[-1:] == ["end"]) != empty and self.stock_out_seat is None:
            self.fail(f"turn {self.turn}: the hand ends", "exactly when the hand is empty",
                      {"ends": body[-1:] == ["end"], "cards left": self.count(self.seat)})

    def on_drop(self, ev) -> None:
        seat = int(ev["seat"])
        self.dropped = (seat, ev.get("deadwood"))
        if ev.get("deadwood") is not None:
            self.expect(f"seat {seat} drops: count", self.count(seat), ev["deadwood"])
        if self.turn_events[0] is not ev:
            self.fail(f"turn {self.turn}: drop", "at the start of the turn, before drawing",
                      [e["event"] for e in self.turn_events])

    def on_discard(self, ev) -> None:
        card = ev["cards"][0]
        if self.taken is not None and card == self.taken:
            self.fail(f"turn {self.turn}: seat {ev['seat']} discards the card taken from the pile",
                      "another card", card)
        if "deadwood" in ev:
            self.expect(f"turn {self.turn}: seat {ev['seat']} count after discarding",
                        self.count(int(ev["seat"])), ev["deadwood"])
        if self.p.must_spread:
            self.check_must_spread(int(ev["seat"]), card)

    def check_must_spread(self, seat: int, card: str) -> None:
        """``must_spread``: a spread held at the discard must have been laid down, three aces
        excepted (and the one case where laying it down would leave only the taken card)."""
        before = self.hands[seat] + Counter([card])
        for c in set(before.elements()):
            for meld in melds_with(c, before, TONK_MELDS):
                if len(meld) == 3 and all(rank(x) == 1 for x in meld):
                    continue
                left = before - Counter(meld)
                if self.taken is not None and list(left.elements()) == [self.taken]:
                    continue
                self.fail(f"turn {self.turn}: seat {seat} keeps a spread (must_spread)",
                          "laid down", sorted(meld))
                return

    # ---- settlement ------------------------------------------------------------------------
    def finish(self) -> None:
        if self.stock_out_seat is not None and self.laydown_order:
            while self.next_laydown():
                pass
        super().finish()

    def settle(self) -> dict:
        counts = [self.count(s) for s in range(self.n)]
        dealt = [self.p.values.total(d or []) for d in self.dealt]
        tonks = [s for s in range(self.n) if dealt[s] >= self.p.tonk_deal_min]
        out = {f"deadwood{s}": counts[s] for s in range(self.n)}
        out.update(knock_count=-1, knock_turn=-1, n_spreads=len(self.table),
                   deal_tonks=len(tonks), redeals=self.redeals)
        if not self.p.tonk_tie_new_dealer:
            del out["redeals"]     # a tied deal redealt in the row is not in the trace: unchecked
        if tonks:
            if self.own_turns != [0] * self.n:
                self.fail("a tonk on the deal", "the hand is not played", self.own_turns)
            if len(tonks) == 1:
                return {**out, **self.each_pays(tonks[0], 2), "ender": tonks[0],
                        "outcome_name": "tonk_deal"}
            return {**out, **scores_for(self.n, {}), "outcome_name": "tonk_tie"}
        if self.dropped is not None:
            k = self.dropped[0]
            out.update(ender=k, knock_count=counts[k], knock_turn=self.own_turns[k])
            return {**out, **self.drop_pay(k, counts)}
        if self.stock_out_seat is not None:
            low = min(counts)
            pay = self.collect([s for s in range(self.n) if counts[s] == low])
            return {**out, **scores_for(self.n, pay), "ender": self.stock_out_seat,
                    "outcome_name": "stock_out"}
        w = self.end_seat
        discarded = any(e["event"] == "discard" and int(e["seat"]) == w for e in self.turn_events)
        if discarded:
            return {**out, **self.each_pays(w, 1), "ender": w, "outcome_name": "out_discard"}
        stake = 1 if self.p.tonk_out_needs_new_spread and self.turn not in self.new_spread_turn else 2
        return {**out, **self.each_pays(w, stake), "ender": w, "outcome_name": "tonk_out"}

    def each_pays(self, w: int, stake: int) -> dict:
        return scores_for(self.n, {s: (stake * (self.n - 1) if s == w else -stake)
                                   for s in range(self.n)})

    def collect(self, receivers) -> dict[int, int]:
        """Every seat in ``receivers`` gets 1 from every seat but itself."""
        pay = {s: 0 for s in range(self.n)}
        for w in receivers:
            for s in range(self.n):
                if s != w:
                    pay[s] -= 1
                    pay[w] += 1
        return pay

    def drop_pay(self, k: int, counts: list[int]) -> dict:
        low = min(counts[s] for s in range(self.n) if s != k)
        if counts[k] < low:
            return {**self.each_pays(k, 1), "outcome_name": "knock_won"}
        receivers = [w for w in range(self.n) if w != k and counts[w] == low]
        if self.p.knocker_tie_paid and counts[k] == low:
            receivers.append(k)
        pay = self.collect(receivers)
        for s in range(self.n):
            if s != k and counts[s] <= counts[k]:
                pay[k] -= 2
                pay[s] += 2
        return {**scores_for(self.n, pay), "outcome_name": "knock_caught"}
