"""Referee of the knock games: Gin (``rules/gin.md``, seed 004), Knock Rummy
(``rules/knock_rummy.md``, seed 000) and Ramino Klop (``rules/ramino.md``, seed 000)."""

from __future__ import annotations

import itertools

from .cards import rank, suit
from .closed import ClosedWalker, MAX_TURNS, deadwoods_for, scores_for
from .shown import dead_value, expect_min

# presets whose defender does not lay off (``rummylab strategies``: openspiel-simple has
# layoff=0); a spec naming layoff=0 does the same
NO_LAYOFF_PRESETS = ("openspiel-simple",)
# presets whose defender, with layoff_mode=seed, may arrange its own cards in any minimum
# arrangement, not only the one best for lay-offs (eaai-simple has arrange=2, marjj arrange=3)
ANY_ARRANGEMENT_PRESETS = ("eaai-simple", "marjj")


class GinWalker(ClosedWalker):
    """Gin: the first-upcard offer, the card just taken (from either pile) never discarded at
    once, a knock at deadwood <= the limit, the void hand at ``void_stock_left``, and the
    showdown with the defender's lay-offs, gin, undercut and big gin."""

    def __init__(self, hand, flip=None):
        super().__init__(hand, flip)
        self.passes: list[int] = []
        self.void_due = False

    @property
    def non_dealer(self) -> int:
        return (self.dealer + 1) % 2

    def on_pass(self, ev) -> None:
        seat = int(ev["seat"])
        if self.at_wall():
            return                     # declining to take the upcard at the wall: the hand is void
        if not self.p.first_upcard_offer or self.turn != 0:
            self.fail("pass", "no pass (no upcard offer)" if not self.p.first_upcard_offer
                      else "a pass only on the first upcard", f"seat {seat} at turn {self.turn}")
            return
        order = [self.non_dealer, self.dealer]
        self.expect("upcard offer: seat passing", order[len(self.passes)] if len(self.passes) < 2
                    else "no third pass", seat)
        self.passes.append(seat)

    def at_wall(self) -> bool:
        """OpenSpiel's wall: the stock is down to ``void_stock_left`` after a discard without a
        knock; the next seat may only take the upcard to knock, or pass (the hand is void)."""
        return bool(self.p.openspiel_wall) and self.turn > 0 and self.stock <= self.p.void_stock_left

    def plays_off_turn(self, ev) -> bool:
        return self.at_wall() and ev["event"] in ("pass", "end")

    def first_seat(self) -> int:
        return self.dealer if self.passes == [self.non_dealer] else self.non_dealer

    def check_turn_shape(self, kinds) -> None:
        super().check_turn_shape(kinds)
        if self.own_turns[self.seat] == 1 and sum(self.own_turns) == 1 and kinds:
            if self.passes == [self.non_dealer]:
                self.expect("the dealer after the non-dealer passed: takes the upcard", "take",
                            kinds[0])
            elif len(self.passes) == 2:
                self.expect("both passed the upcard: the non-dealer draws from the stock", "draw",
                            kinds[0])
        if self.void_due and "knock" not in kinds:
            self.fail(f"turn {self.turn}: after the stock came down to {self.p.void_stock_left}",
                      "only a take of the upcard to knock (openspiel_wall)", kinds)
        if "discard" in kinds and "knock" not in kinds and self.stock <= self.p.void_stock_left:
            self.void_due = True       # seed 004: the hand is void (openspiel_wall: unless the
            if not self.p.openspiel_wall and kinds[-1:] != ["end"]:   # next seat knocks at once)
                self.fail(f"turn {self.turn}: the stock is down to {self.stock}", "the hand is void",
                          kinds)

    def may_end_without_discard(self) -> bool:
        hand = list(self.hands[self.seat].elements())
        return bool(self.p.big_gin) and len(hand) == 11 and self.arr.all_melded(hand)

    def on_discard(self, ev) -> None:
        super().on_discard(ev)
        card = ev["cards"][0]
        if self.drawn == card and not self.p.discard_stock_draw:
            self.fail(f"turn {self.turn}: seat {ev['seat']} discards the card just drawn "
                      "(seed 004: never the card just taken, from either pile)", "another card", card)

    def knock_limit(self) -> int:
        if self.p.oklahoma:
            v = self.p.values.of(self.upcard)
            return 0 if rank(self.upcard) == 1 else v
        return self.p.knock_limit

    def on_knock(self, ev) -> None:
        super().on_knock(ev)
        dw = self.deadwood(ev["seat"])
        if dw > self.knock_limit():
            self.fail(f"seat {ev['seat']} knocks", f"deadwood <= {self.knock_limit()}", dw)

    # ---- showdown --------------------------------------------------------------------------
    def settle(self) -> dict:
        if self.knocked is None:
            return self.settle_void_or_big_gin()
        k = self.knocked[0]
        e = 1 - k
        if self.shown() is not None:
            return self.settle_shown(k, e)
        dk = self.deadwood(k)
        if dk == 0:
            de = self.deadwood(e)
            return self.row(k, k, dk, de, de + self.p.gin_bonus, "gin")
        options = self.defender_options(k, e)
        got = self.hand.row.get(f"deadwood{e}")
        de = got if got in options else min(options)
        if de < dk or (de == dk and self.p.undercut_on_tie):
            return self.row(k, e, dk, options, dk - de + self.p.undercut_bonus, "undercut", de)
        if de == dk:
            return self.row(k, -1, dk, options, 0, "knock", de)
        return self.row(k, k, dk, options, de - dk, "knock", de)

    def settle_shown(self, k: int, e: int) -> dict:
        """The showdown settled exactly from the arrangements shown: the knocker's minimum
        deadwood, the defender's deadwood after its lay-offs onto the knocker's shown melds."""
        shown = self.shown()
        dk = expect_min(self, shown[k], "the knocker shows its minimum")
        de = self.defender_deadwood(shown, k, e, dk)
        if dk == 0:
            return self.row(k, k, dk, de, de + self.p.gin_bonus, "gin")
        if de < dk or (de == dk and self.p.undercut_on_tie):
            return self.row(k, e, dk, de, dk - de + self.p.undercut_bonus, "undercut")
        if de == dk:
            return self.row(k, -1, dk, de, 0, "knock")
        return self.row(k, k, dk, de, de - dk, "knock")

    def defender_deadwood(self, shown, k: int, e: int, dk: int) -> int:
        """The defender's shown deadwood, checked: its minimum where it may not lay off (a gin,
        a strategy that declines); else the best its rules allow onto the shown melds
        (``joint``: arrangement and lay-offs together; ``seed``: a minimum arrangement of its
        own cards first, then its deadwood cards laid off; with ``arrange=2`` that arrangement
        is the one shown, else the best one)."""
        sh, melds = shown[e], shown[k].melds
        if dk == 0 or self.declines_layoffs(e):
            if sh.lay_offs:
                self.fail(f"seat {e} lays off", "no lay-off (gin, or its strategy declines)", sh.lay_offs)
            return expect_min(self, sh, "no lay-offs")
        value = dead_value(self, sh)
        defender = list(self.hands[e].elements())
        if self.p.layoff_mode == "seed":
            own_dead = sh.dead + sh.laid()
            self.expect(f"seat {e}'s own arrangement before laying off (layoff_mode=seed: a minimum one)",
                        self.deadwood(e), self.p.values.total(own_dead))
            if self.any_arrangement(e):
                layable_dead = [c for c in own_dead if c in lay_closure(melds, own_dead, self.arr.rules)]
                best = self.p.values.total(own_dead) - _best_layoff(melds, layable_dead, self.arr)
            else:
                best = min(seed_layoffs(melds, defender, self.arr))
        else:
            best = layoff_deadwood(melds, defender, self.arr, "joint")
        self.expect(f"seat {e}'s deadwood after its lay-offs (the best onto the shown melds)", best, value)
        return value

    def row(self, k, winner, dk, de, points, name, de_value=None) -> dict:
        e = 1 - k
        pay = {} if winner < 0 else {winner: points, 1 - winner: -points}
        out = {"ender": k, "winner": winner, "points": points if winner >= 0 else 0,
               "knock_deadwood": dk, "knock_turn": self.own_turns[k], "outcome_name": name,
               f"deadwood{k}": dk, f"deadwood{e}": de}
        out.update(scores_for(2, pay))
        return out

    def settle_void_or_big_gin(self) -> dict:
        s = self.end_seat if self.end_seat is not None else self.seat
        hand = list(self.hands[s].elements()) if 0 <= s < 2 else []
        if self.p.big_gin and len(hand) == 11 and self.arr.all_melded(hand):
            shown = self.shown()
            if shown is not None:
                expect_min(self, shown[s], "big gin: every card melded")
            de = self.deadwood(1 - s) if shown is None else expect_min(self, shown[1 - s], "its minimum")
            out = self.row(s, s, 0, de, de + self.p.big_gin_bonus, "big_gin")
            return out
        if not self.void_due:
            self.fail("the hand ends", "a knock, gin or a void hand at the stock's end",
                      f"an end with {self.stock} cards in the stock")
        out = {"winner": -1, "points": 0, "knock_deadwood": -1, "knock_turn": -1,
               "outcome_name": "void", **scores_for(2, {}), **deadwoods_for(self.all_deadwood())}
        return out

    def defender_options(self, k: int, e: int) -> set[int]:
        """The defender's deadwood after its lay-offs, for each minimum-deadwood arrangement
        the knocker may show (a trace that does not show the arrangements)."""
        knocker = list(self.hands[k].elements())
        defender = list(self.hands[e].elements())
        out = {layoff_deadwood(melds, defender, self.arr, self.p.layoff_mode)
               for melds in self.arr.arrangements(knocker)}
        if self.p.layoff_mode == "seed" and self.any_arrangement(e):
            out |= {v for melds in self.arr.arrangements(knocker) for v in seed_layoffs(melds, defender, self.arr)}
        if self.declines_layoffs(e):
            out.add(self.arr.min_deadwood(defender))
        return out

    def any_arrangement(self, seat: int) -> bool:
        spec = str(self.hand.start.get("strategies", [""] * 2)[seat])
        flat = spec.replace(" ", "")
        return spec in ANY_ARRANGEMENT_PRESETS or "arrange=2" in flat or "arrange=3" in flat

    def declines_layoffs(self, seat: int) -> bool:
        spec = str(self.hand.start.get("strategies", [""] * 2)[seat])
        return spec in NO_LAYOFF_PRESETS or "layoff=0" in spec.replace(" ", "")


def lay_closure(melds, cards, rules) -> list[str]:
    """The cards of ``cards`` that can be laid off onto ``melds`` (chained: a card laid off on
    a run extends it for the next).  Single pack: a set takes a missing suit up to
    ``rules.set_max`` cards, a run its next card at either end up to ``rules.run_max``.  Laying
    off never blocks another card, so this is every card some sequence of lay-offs places."""
    runs = [[suit(m[0]), *_span(m, rules)] for m in melds if len({rank(c) for c in m}) > 1]
    sets = {rank(m[0]): len(m) for m in melds if len({rank(c) for c in m}) == 1}
    left, laid = list(cards), []
    changed = True
    while left and changed:
        changed = False
        for c in list(left):
            places = {rank(c)} | ({14} if rank(c) == 1 and rules.ace_high else set())
            for r in runs:
                at = places & {r[1] - 1, r[2] + 1}
                if suit(c) == r[0] and at and r[2] - r[1] + 1 < rules.run_max:
                    r[1], r[2] = min(r[1], *at), max(r[2], *at)
                    break
            else:
                if sets.get(rank(c), rules.set_max) >= rules.set_max:
                    continue
                sets[rank(c)] += 1
            left.remove(c)
            laid.append(c)
            changed = True
    return laid


def _span(run, rules) -> tuple[int, int]:
    """(lowest, highest) place of a run; an ace is 14 in a run that reaches the King."""
    ranks = sorted(rank(c) for c in run)
    if rules.ace_high and ranks[0] == 1 and ranks[-1] == 13:
        ranks = sorted(14 if r == 1 else r for r in ranks)
    return ranks[0], ranks[-1]


def layable(melds, cards, rules) -> bool:
    return len(lay_closure(melds, cards, rules)) == len(cards)


def layoff_deadwood(melds, defender: list[str], arr, mode: str) -> int:
    """The defender's least deadwood with lay-offs onto ``melds``.  ``joint``: its arrangement
    and lay-offs chosen together; ``seed``: among its minimum arrangements, lay off deadwood
    cards only (seed 004's two steps)."""
    if mode == "seed":
        return min(seed_layoffs(melds, defender, arr))
    candidates = lay_closure(melds, defender, arr.rules)
    best = arr.min_deadwood(defender)
    for n in range(1, len(candidates) + 1):
        for subset in itertools.combinations(candidates, n):
            if layable(melds, subset, arr.rules):
                rest = list(defender)
                for c in subset:
                    rest.remove(c)
                best = min(best, arr.min_deadwood(rest))
    return best


def seed_layoffs(melds, defender: list[str], arr) -> list[int]:
    """Seed 004's two steps, one value per minimum arrangement of the defender's own cards:
    its deadwood after laying off the best set of that arrangement's deadwood cards."""
    candidates = lay_closure(melds, defender, arr.rules)
    out = []
    for arrangement in arr.arrangements(defender):
        dead = list(defender)
        for c in (c for m in arrangement for c in m):
            dead.remove(c)
        out.append(arr.values.total(dead) - _best_layoff(melds, [c for c in dead if c in candidates], arr))
    return out


def _best_layoff(melds, dead: list[str], arr) -> int:
    best = 0
    for n in range(1, len(dead) + 1):
        for subset in itertools.combinations(dead, n):
            if layable(melds, subset, arr.rules):
                best = max(best, arr.values.total(subset))
    return best


class KnockRummyWalker(ClosedWalker):
    """Knock Rummy: knock at any deadwood, rummy at 0, no lay-offs; the stock running out ends
    the hand (void or showdown); the settlement of ``settle`` seed or pairwise."""

    def check_turn_shape(self, kinds) -> None:
        super().check_turn_shape(kinds)
        if kinds[-1:] == ["end"] and "knock" not in kinds and self.stock != 0 and self.deadwood(
                self.seat) != 0:
            self.fail(f"turn {self.turn}: the hand ends without a knock or rummy",
                      "an empty stock", self.stock)
        if "knock" not in kinds and self.stock == 0 and kinds[-1:] != ["end"]:
            self.fail(f"turn {self.turn}: the stock is out", "the hand ends", kinds)

    def settle(self) -> dict:
        dws = self.all_deadwood()
        base = {**deadwoods_for(dws), "knock_deadwood": -1, "knock_turn": -1}
        k = self.closer()
        if k is None:
            base["ender"] = self.end_seat
            if self.p.stock_out == "void":
                return {**base, **scores_for(self.n, {}), "winner": -1, "points": 0,
                        "outcome_name": "stock_void"}
            low = min(dws)
            tied = [s for s in range(self.n) if dws[s] == low]
            w = tied[0] if len(tied) == 1 else -1
            return {**base, **self.pay(dws, w, None, False), "outcome_name": "stock_showdown"}
        base.update(ender=k, knock_deadwood=dws[k], knock_turn=self.own_turns[k])
        if dws[k] == 0:
            return {**base, **self.pay(dws, k, k, True), "outcome_name": "rummy"}
        low = min(dws)
        tied = [s for s in range(self.n) if dws[s] == low]
        if tied == [k]:
            return {**base, **self.pay(dws, k, k, False), "outcome_name": "knock"}
        if k in tied or len(tied) == 1:
            left = [(k + i) % self.n for i in range(1, self.n)]
            w = next(s for s in left if s in tied)
            return {**base, **self.pay(dws, w, k, False), "outcome_name": "beaten"}
        return {**base, **self.pay(dws, -1, k, False), "outcome_name": "tie_void"}

    def pay(self, dws, w, k, rummy) -> dict:
        """The winner's points and every seat's score (``rules/knock_rummy.md`` settle)."""
        if w < 0:
            return {**scores_for(self.n, {}), "winner": -1, "points": 0}
        penalty = self.p.knocker_penalty if k is not None and w != k else 0
        bonus = self.p.rummy_bonus if rummy else 0
        if self.p.settle == "pairwise":
            owe = {s: dws[s] - dws[w] + bonus + (penalty if s == k else 0)
                   for s in range(self.n) if s != w}
            pay = {s: -v for s, v in owe.items()}
            pay[w] = sum(owe.values())
            return {**scores_for(self.n, pay), "winner": w, "points": pay[w]}
        points = sum(dws[s] for s in range(self.n) if s != w) - dws[w] + bonus + penalty
        return {**scores_for(self.n, {w: points}), "winner": w, "points": points}


class RaminoWalker(ClosedWalker):
    """Ramino Klop: melds of exactly 3 or 4 (two packs, jokers wild, aces low), a knock below
    ``knock_below`` or rummy, every seat's penalty its own minimum deadwood."""

    def on_knock(self, ev) -> None:
        super().on_knock(ev)
        dw = self.deadwood(ev["seat"])
        if dw >= self.p.knock_below:
            self.fail(f"seat {ev['seat']} knocks", f"deadwood < {self.p.knock_below}", dw)

    def settle(self) -> dict:
        dws = self.all_deadwood()
        k = self.closer()
        if k is None:
            if self.turn < MAX_TURNS:
                self.fail("the hand ends", "a knock or rummy (or the turn limit)",
                          f"an end at turn {self.turn}")
            return {**scores_for(self.n, {}), "winner": -1, "knock_deadwood": -1,
                    "knock_turn": -1, "outcome_name": "turn_limit", **deadwoods_for(dws)}
        low = min(dws)
        tied = [s for s in range(self.n) if dws[s] == low]
        return {**scores_for(self.n, {s: -dws[s] for s in range(self.n)}), **deadwoods_for(dws),
                "ender": k, "winner": tied[0] if len(tied) == 1 else -1,
                "knock_deadwood": dws[k], "knock_turn": self.own_turns[k],
                "outcome_name": "rummy" if dws[k] == 0 else "knock"}
