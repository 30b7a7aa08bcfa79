"""Referee of the closed-hand games: Gin, Knock Rummy, Ramino Klop, Wildcard, Cincinnati (and
the shared parameters of Tonk, whose open spreads are :mod:`.tonk`).  Written from
``rules/{common,gin,knock_rummy,ramino,wildcard_rummy,cincinnati}.md`` and the seeds;
nothing from ``sim/`` or ``analysis/``.

:func:`referee` takes trace lines (or :class:`~.core.HandTrace` objects) and returns the
mismatches.  Every rule the referee applies is a field of :func:`params`, built from the
start line's rule options and the rules files; ``flip`` overrides any of them (the mutation
check: ``flip={"ace_high": True}`` referees Ramino with aces high and must then disagree with
real traces).
"""

from __future__ import annotations

from types import SimpleNamespace

from .core import Arranger, HandTrace, MeldRules, Mismatch, Values, Walker, read_hands, standard_pack
from .shown import expect_min, read_shown

# outcome code -> name of each game's hand row (the meaning of its ``outcome`` column)
OUTCOMES = {
    "gin": ("knock", "gin", "undercut", "void", "big_gin"),
    "knock-rummy": ("knock", "rummy", "beaten", "tie_void", "stock_void", "stock_showdown"),
    "ramino-klop": ("knock", "rummy", "turn_limit"),
    "wildcard": ("rummy", "rummy_no_discard", "turn_limit"),
    "cincinnati": ("out", "out_no_discard", "turn_limit"),
    "tonk": ("tonk_deal", "tonk_tie", "tonk_out", "out_discard", "knock_won", "knock_caught",
             "stock_out"),
}
PLAYERS = {"gin": (2, 2), "knock-rummy": (2, 5), "ramino-klop": (2, 6), "wildcard": (2, 7),
           "cincinnati": (2, 7), "tonk": (2, 6)}
MAX_TURNS = 1000           # the engines' guard on a hand's length (turn_limit hands are void)

# rules files: melds and values of each game (single pack: ace low, no wilds)
_PLAIN = dict(ace_high=False, jokers_wild=False, wild_twos=False, set_max=4, run_max=13,
              set_per_suit=1, ace_value=1, joker_value=0, two_value=None, need_natural=True,
              restocks=False)
BASE = {
    "gin": _PLAIN, "knock-rummy": _PLAIN, "tonk": _PLAIN,
    "ramino-klop": dict(_PLAIN, jokers_wild=True, run_max=4, joker_value=20, restocks=True),
    "wildcard": dict(_PLAIN, jokers_wild=True, wild_twos=True, ace_high=True, ace_value=11,
                     joker_value=25, two_value=25, restocks=True),
    "cincinnati": dict(_PLAIN, jokers_wild=True, ace_high=True, ace_value=11, joker_value=15,
                       restocks=True),
}


def _packs(variant: str, n: int, opts: dict) -> tuple[int, int]:
    """(packs, jokers): rules files' "Players / Pack" lines."""
    if variant == "ramino-klop":
        return 2, 4
    if variant in ("wildcard", "cincinnati"):
        packs = int(opts.get("packs", 0)) or (2 if n == 7 else 1)
        return packs, 2 * packs
    return 1, 0


def _deal(variant: str, n: int, opts: dict, packs: int) -> int:
    if variant == "gin":
        return 10
    if variant == "knock-rummy":
        return 10 if n == 2 else 7
    if variant == "tonk":
        return 5
    if variant == "ramino-klop":
        return 7
    if packs == 2:
        return 10
    return {2: 7, 3: int(opts.get("deal_3p", 7)), 4: 7, 5: 7, 6: 6}[n]


def params(start: dict, flip: dict | None = None) -> SimpleNamespace:
    """Every rule the referee applies to a hand: the start line's rule options, the melds and
    values of the rules files, then ``flip``'s overrides."""
    variant, n = start["variant"], int(start["players"])
    p = dict(start.get("rules", {}))
    p.update(BASE[variant])
    if variant == "ramino-klop" and p.get("set_duplicates"):
        p["set_per_suit"] = 2
    packs, jokers = _packs(variant, n, p)
    if variant in ("wildcard", "cincinnati"):
        p.update(set_max=4 * packs, set_per_suit=packs)
    p.update(n_packs=packs, n_jokers=jokers, deal=_deal(variant, n, p, packs))
    p.update(flip or {})
    wild_ranks = frozenset({2}) if p["wild_twos"] else frozenset()
    p["melds"] = MeldRules(set_max=p["set_max"], set_per_suit=p["set_per_suit"],
                           run_max=p["run_max"], ace_high=p["ace_high"],
                           jokers_wild=p["jokers_wild"], wild_ranks=wild_ranks,
                           need_natural=p["need_natural"])
    p["values"] = Values(ace=p["ace_value"], joker=p["joker_value"], wild_ranks=wild_ranks,
                         wild_rank_value=p["two_value"])
    p["pack"] = standard_pack(packs, jokers)
    p.update(variant=variant, players=n)
    return SimpleNamespace(**p)


_ARRANGERS: dict = {}


def arranger(p: SimpleNamespace) -> Arranger:
    """One memoised deadwood search per (melds, values), shared by every hand."""
    key = (p.melds, p.values)
    if key not in _ARRANGERS:
        _ARRANGERS[key] = Arranger(p.melds, p.values)
    return _ARRANGERS[key]


class ClosedWalker(Walker):
    """The turn skeleton shared by the closed games (``rules/common.md``): the deal, play to the
    left starting left of the dealer, a turn = draw the stock top or take the pile top, then
    discard (never the card just taken from the pile), then maybe end the hand."""

    def __init__(self, hand: HandTrace, flip: dict | None = None):
        super().__init__(hand)
        self.flip = flip
        self.p = params(hand.start, flip)
        self.arr = arranger(self.p)
        self.dealer = int(hand.start.get("dealer", -1))
        self.last_seat = None
        self.upcard = None
        self.end_seat = self.end_name = None
        self.knocked = None             # (seat, traced deadwood) of a knock
        self.shown_line = None          # the line showing the arrangements (.shown)
        self._shown = False
        self.check_start()

    # ---- start and turns -------------------------------------------------------------------
    def check_start(self) -> None:
        lo, hi = PLAYERS[self.p.variant]
        if not lo <= self.n <= hi:
            self.fail("players", f"{lo}..{hi}", self.n)
        self.expect("pack", dict(self.p.pack), dict(self.pack))
        self.expect("dealer", True, 0 <= self.dealer < self.n)

    def on_deal(self, ev) -> None:
        self.expect(f"cards dealt to seat {ev['seat']}", self.p.deal, len(ev["cards"]))

    def on_upcard(self, ev) -> None:
        if self.upcard is None:
            self.upcard = ev["cards"][0]

    def first_seat(self) -> int:
        return (self.dealer + 1) % self.n

    def begin_turn(self, seat: int) -> None:
        want = self.first_seat() if self.last_seat is None else (self.last_seat + 1) % self.n
        self.expect(f"turn {self.turn}: seat to play", want, seat)
        self.last_seat = seat
        if self.ended is not None:
            self.fail(f"turn {self.turn}", "no play after the hand ended", "a new turn")

    def end_turn(self) -> None:
        if self.seat < 0 or not self.turn_events:
            return
        kinds = [e["event"] for e in self.turn_events if e["event"] not in ("restock", "turn_over")
                 and (int(e["seat"]) == self.seat or e["event"] == "end")]
        self.check_turn_shape(kinds)

    def check_turn_shape(self, kinds: list[str]) -> None:
        """A turn: draw or take; discard (optional only when going out); knock/end."""
        if not kinds or kinds[0] not in ("draw", "take"):
            self.fail(f"turn {self.turn}: first play", "draw or take", kinds[:1])
            return
        rest = kinds[1:]
        allowed = (["discard"], ["discard", "knock", "end"], ["discard", "end"], ["end"])
        if rest not in allowed:
            self.fail(f"turn {self.turn}: plays", "draw/take, discard, then knock or end", kinds)
        if rest == ["end"] and not self.may_end_without_discard():
            self.fail(f"turn {self.turn}: the hand ends without a discard", "a discard", kinds)

    def may_end_without_discard(self) -> bool:
        return False

    def on_discard(self, ev) -> None:
        card = ev["cards"][0] if ev["cards"] else None
        if self.taken is not None and card == self.taken:
            self.fail(f"turn {self.turn}: seat {ev['seat']} discards the card taken from the pile",
                      "another card", card)
        if "deadwood" in ev and 0 <= int(ev["seat"]) < self.n:
            self.expect(f"turn {self.turn}: seat {ev['seat']} deadwood after discarding {card}",
                        self.deadwood(ev["seat"]), ev["deadwood"])

    def on_knock(self, ev) -> None:
        self.knocked = (int(ev["seat"]), ev.get("deadwood"))
        if "melds" in ev:
            self.shown_line = ev
        if ev.get("deadwood") is not None:
            self.expect(f"seat {ev['seat']} knocks: deadwood", self.deadwood(ev["seat"]),
                        ev["deadwood"])

    def on_end(self, ev) -> None:
        self.end_seat, self.end_name = int(ev["seat"]), ev.get("outcome_name")
        if "melds" in ev:
            self.shown_line = ev

    def shown(self):
        """The arrangements shown at the end (:func:`.shown.read_shown`, checked once), or None
        for a trace that does not show them."""
        if self._shown is False:
            self._shown = None if self.shown_line is None else read_shown(self, self.shown_line)
        return self._shown

    def shuffled(self) -> bool:
        return bool(getattr(self.p, "restock_shuffle", False))

    def on_restock(self, ev) -> None:
        self.check_restock(ev)

    def on_turn_over(self, ev) -> None:
        self.check_restock(ev)

    def check_restock(self, ev) -> None:
        """``rules/ramino.md``, ``wildcard_rummy.md``, ``cincinnati.md`` and seed 000: the
        (whole) discard pile is turned over as the new stock; option ``restock_keep_top``
        (a [choice]) keeps the top discard as the pile."""
        if not self.p.restocks:
            self.fail("restock", "no restock in this game", ev["event"])
            return
        keep = bool(getattr(self.p, "restock_keep_top", False))
        self.expect(f"turn {self.turn}: restock keeps the top discard as the pile", keep,
                    self.restocks[-1]["kept_top"] if self.restocks else None)

    def closer(self):
        """The seat that ended the hand by a knock, or by rummy (0 deadwood after its discard,
        declared with or without a knock line); None for any other end."""
        if self.knocked is not None:
            return self.knocked[0]
        s = self.end_seat
        if s is not None and 0 <= s < self.n and s == self.seat and self.deadwood(s) == 0 and any(
                e["event"] == "discard" for e in self.turn_events):
            return s
        return None

    # ---- values ----------------------------------------------------------------------------
    def deadwood(self, seat: int) -> int:
        return self.arr.min_deadwood(list(self.hands[int(seat)].elements()))

    def all_deadwood(self) -> list[int]:
        """Every seat's deadwood: as shown (checked to be its minimum) where the trace shows
        the arrangements, else its minimum."""
        shown = self.shown()
        if shown is None:
            return [self.deadwood(s) for s in range(self.n)]
        return [expect_min(self, shown[s], "its minimum") if s in shown else self.deadwood(s)
                for s in range(self.n)]

    # ---- the outcome row -------------------------------------------------------------------
    def finish(self) -> None:
        super().finish()
        if self.hand.outcome is None:
            return
        row, name = self.hand.row, self.hand.outcome.get("outcome_name")
        self.expect("columns", list(self.hand.columns), list(row))
        self.col("dealer", self.dealer)
        self.col("turns", self.turn)
        self.col("stock_left", self.stock)
        expected = self.settle()          # {column: value} plus "outcome_name"
        want_name = expected.pop("outcome_name")
        self.expect("outcome_name", want_name, name)
        if self.end_name is not None:
            self.expect("end line's outcome_name", want_name, self.end_name)
        names = OUTCOMES[self.p.variant]
        self.col("outcome", names.index(want_name) if want_name in names else want_name)
        for column, value in expected.items():
            self.col(column, value)

    def col(self, column: str, expected) -> None:
        got = self.hand.row.get(column, "<no column>")
        if isinstance(expected, set):
            if got not in expected:
                self.fail(f"column {column}", f"one of {sorted(expected)}", got)
        else:
            self.expect(f"column {column}", expected, got)

    def settle(self) -> dict:
        raise NotImplementedError


def scores_for(n: int, pay: dict[int, int]) -> dict:
    return {f"score{s}": pay.get(s, 0) for s in range(n)}


def deadwoods_for(values: list[int]) -> dict:
    return {f"deadwood{s}": v for s, v in enumerate(values)}


def walkers() -> dict:
    """variant -> its walker class (imported here: those modules build on this one)."""
    from .go_out import CincinnatiWalker, WildcardWalker
    from .knock_games import GinWalker, KnockRummyWalker, RaminoWalker
    from .tonk import TonkWalker
    return {"gin": GinWalker, "knock-rummy": KnockRummyWalker, "ramino-klop": RaminoWalker,
            "wildcard": WildcardWalker, "cincinnati": CincinnatiWalker, "tonk": TonkWalker}


def referee_hand(hand: HandTrace, flip: dict | None = None) -> list[Mismatch]:
    """The mismatches of one hand."""
    walker = walkers()[hand.start["variant"]](hand, flip)
    return walker.run()


def referee(trace, flip: dict | None = None) -> list[Mismatch]:
    """Referee every hand of a trace: JSON lines (an iterable of str) or HandTrace objects.
    Returns the list of mismatches, empty when every hand is right."""
    trace = list(trace)
    hands = trace if trace and isinstance(trace[0], HandTrace) else read_hands(trace)
    out: list[Mismatch] = []
    for hand in hands:
        out += referee_hand(hand, flip)
    return out
