"""Slow, obviously-correct pure-Python reference for one hand of Gin Rummy (rules/gin.md).

Written from the rule text and the documented decision semantics of the ``threshold``
strategy family (sim/strategies/knock.py) and of the Gin kernel's docstrings; it does not
import ``sim.variants.gin``.  Hands are Python sets of int card codes ``suit * 16 + rank``
(rank 0..12 = A..K, suit 0..3 = S H D C); the stock is a list (top first), the discard pile a
list (top last).  Deadwood, best discards and layoffs come from the brute-force meld
reference in ``tests/support/naive.py`` (deadwood memoised on frozensets: a hand's deadwood does not
depend on how we got there).

The only thing borrowed from the fast code is the knocker's *shown* arrangement
(``sim.knock.melds``): when several minimum-deadwood arrangements exist, the defender's layoffs can
depend on which one is spread, and the rules leave that choice to the simulator ("any minimum
arrangement", or with ``arrange=1`` the one leaving fewest layoff spots).  The borrowed
arrangement is checked here with the naive code: legal, disjoint melds inside the knocker's
hand whose leftover deadwood is the naive minimum.

Supported strategy parameters: every ``threshold`` parameter except ``random_ties=1``
(a random tie-break cannot be reproduced without copying the kernel's generator calls).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from tests.support import naive
import numpy as np

from sim.core.cards import cards_text
from sim.strategies.knock import PARAMS

VALUES = naive.DEFAULT_VALUES
HAND = 10
MAX_TURNS = 1000  # kernel guard against endless discard-pile exchanges (such a hand is void)

OUTCOMES = ("knock", "gin", "undercut", "void", "big_gin")
KNOCK, GIN, UNDERCUT, VOID, BIG_GIN = range(5)
COLUMNS = ("dealer", "ender", "outcome", "turns", "stock_left", "score0", "score1",
           "deadwood0", "deadwood1", "winner", "points", "knock_deadwood", "knock_turn")

# the hand-level options of rules/gin.md and their defaults (game options are irrelevant here)
DEFAULT_RULES = {
    "knock_limit": 10,
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "first_upcard_offer": True,
    "discard_stock_draw": False,
    "void_stock_left": 2,
    "oklahoma": False,
    "big_gin": False,
    "big_gin_bonus": 31,
    "undercut_on_tie": True,
    "openspiel_wall": False,
    "layoff_mode": "joint",
}
DEFAULT_STRATEGY = {p.name: p.default for p in PARAMS}


# --------------------------------------------------------------------------------------------
# card helpers

def rank(c: int) -> int:
    return c & 15


def suit(c: int) -> int:
    return c >> 4


@lru_cache(maxsize=1 << 16)
def dw(hand: frozenset) -> int:
    """Minimum deadwood (naive brute force, memoised; most hits are within one hand, so a
    bounded cache loses little)."""
    return naive.deadwood_value(hand)


def is_near(a: int, b: int) -> bool:
    """Two distinct cards 'near' each other: same rank, or same suit within two ranks."""
    if a == b:
        return False
    if rank(a) == rank(b):
        return True
    return suit(a) == suit(b) and abs(rank(a) - rank(b)) <= 2


def near(hand, c: int) -> int:
    """Number of cards of ``hand`` near ``c`` (cards that may still make melds with it)."""
    return sum(1 for h in hand if is_near(h, c))


def danger(opp_picked, c: int) -> int:
    """1 if the opponent took from the discard pile a card near ``c``."""
    return 1 if any(is_near(p, c) for p in opp_picked) else 0


# --------------------------------------------------------------------------------------------
# strategy decisions (sim/strategies/knock.py)

def knock_threshold(s: dict, own_turn: int, stock_left: int) -> int:
    """Strategy threshold on this own turn (1-based) with ``stock_left`` cards left in the stock
    after this turn's draw.  Rules' limit applied by the caller."""
    if s["gin_after"] >= 0 and own_turn >= s["gin_after"]:
        return 0
    early = s["knock"]
    mid = s["knock_mid"] if s["knock_mid"] >= 0 else early
    late = s["knock_late"] if s["knock_late"] >= 0 else early
    if s["bucket_by"] == 0:  # by own turn number: mid from turn mid_from, late from late_from
        in_late = s["late_from"] >= 0 and own_turn >= s["late_from"]
        in_mid = s["mid_from"] >= 0 and own_turn >= s["mid_from"]
    else:  # by stock: early while the stock holds more than mid_from cards, ...
        in_late = s["late_from"] >= 0 and stock_left <= s["late_from"]
        in_mid = s["mid_from"] >= 0 and stock_left <= s["mid_from"]
    if in_late:
        return late
    if in_mid:
        return mid
    return early


def wants_upcard(s: dict, hand: set, up: int) -> bool:
    """upcard_knock >= 0: take it if some discard other than the upcard then leaves deadwood
    <= upcard_knock.  Else upcard=0: take it if it forms a meld with the hand, i.e. the 11
    cards' minimum deadwood is below the hand's deadwood plus the upcard's value (the upcard is
    melded in every minimum arrangement of the 11 cards).  upcard=1: take it if, after the best
    legal discard (any hand card: the taken card may not be thrown back), the deadwood drops by
    >= upcard_gain."""
    h11 = frozenset(hand | {up})
    if s["upcard_knock"] >= 0 and min(dw(h11 - {c}) for c in hand) <= s["upcard_knock"]:
        return True
    base = dw(frozenset(hand))
    if s["upcard"] == 0:
        return dw(h11) < base + VALUES[up]
    best_after = min(dw(h11 - {c}) for c in hand)
    return best_after <= base - s["upcard_gain"]


def choose_discard(s: dict, hand: frozenset, forbidden: set, opp_picked: set):
    """Minimise deadwood_after + near_weight * near + opp_weight * danger over the legal
    discards; ties go to the highest card: highest rank, then highest suit code (C, D, H, S).
    Returns (card, deadwood after).  discard_rule=1: the highest legal card that is deadwood
    in some minimum arrangement of the hand (discarding it lowers the deadwood by its value),
    if there is one."""
    if s["random_ties"] != 0:
        raise NotImplementedError("the reference supports random_ties=0 only")
    legal = sorted((c for c in hand if c not in forbidden), key=lambda c: (rank(c), suit(c)), reverse=True)
    if s["discard_rule"] == 1:
        for c in legal:
            if dw(hand - {c}) == dw(hand) - VALUES[c]:
                return c, dw(hand - {c})
    best = None
    for c in legal:  # highest first; only a strictly better score replaces the current choice
        rest = hand - {c}
        d = dw(rest)
        score = float(d)
        if s["near_weight"]:
            score += s["near_weight"] * near(rest, c)
        if s["opp_weight"]:
            score += s["opp_weight"] * danger(opp_picked, c)
        if best is None or score < best[0] - 1e-9:
            best = (score, c, d)
    return best[1], best[2]


# --------------------------------------------------------------------------------------------
# knocker's shown arrangement (borrowed from sim.knock.melds and sim.knock.layoffs, checked here)

def shown_melds(knocker_hand: frozenset, arrange: int) -> list[frozenset]:
    from sim.knock import layoffs
    from sim.knock import melds as M

    if arrange == 0:
        melds = [frozenset(int(c) for c in m) for m in M.min_deadwood(sorted(knocker_hand)).melds]
    else:
        t = M.meld_tables()
        mask = 0
        for c in knocker_hand:
            mask |= 1 << c
        out = np.zeros((M.MAX_MELDS, 4), dtype=np.int64)
        _, n, _ = layoffs.arrangement_fewest_spots(np.uint64(mask), t.run_value, t.run_cover, t.run_starts,
                                                   t.suit_total, t.rank_value, out)
        melds = [frozenset(int(c) for c in M.meld_cards(out[i])) for i in range(n)]
    used: set = set()
    for m in melds:
        assert naive.is_meld(m), f"shown meld {cards_text(sorted(m))} is not a meld"
        assert m <= knocker_hand and not (m & used), "shown melds overlap or are not in the hand"
        used |= m
    assert sum(VALUES[c] for c in knocker_hand - used) == dw(knocker_hand), "shown arrangement not minimal"
    return melds


def seed_layoff_deadwood(defender: frozenset, melds: list[frozenset]) -> int:
    """layoff_mode=seed: the defender arranges its own cards first (minimum deadwood), then
    lays off deadwood cards only: brute force over the sets L that can be laid off and are
    deadwood in some minimum arrangement (the rest's deadwood + value(L) is the minimum)."""
    full = dw(defender)
    candidates = sorted(c for c in defender if any(naive._may_join(c, m) for m in melds))
    best = full
    for k in range(1, len(candidates) + 1):
        for laid in combinations(candidates, k):
            rest = defender - set(laid)
            if dw(rest) + sum(VALUES[c] for c in laid) == full and naive.layoff_assignment(laid, melds):
                best = min(best, dw(rest))
    return best


# --------------------------------------------------------------------------------------------
# one hand

class _Hand:
    def __init__(self, deck, dealer: int, rules: dict, strategies: list[dict]):
        deck = [int(c) for c in deck]
        assert sorted(deck) == sorted(naive.ALL_CARDS), "deck must be one 52-card pack"
        self.rules = {**DEFAULT_RULES, **(rules or {})}
        self.strat = [{**DEFAULT_STRATEGY, **(s or {})} for s in strategies]
        assert len(self.strat) == 2
        self.dealer = dealer
        # deal 10 each, one at a time, starting with the player left of the dealer (the other
        # seat of two), then one upcard; the rest is the stock, top first
        self.hands = [set(), set()]
        for i in range(2 * HAND):
            self.hands[(dealer + 1 + i) % 2].add(deck[i])
        self.up = deck[2 * HAND]
        self.pile = [self.up]
        self.stock = deck[2 * HAND + 1:]
        self.picked = [set(), set()]  # cards each seat took from the discard pile
        self.turns = 0
        self.own_turns = [0, 0]
        if self.rules["oklahoma"]:
            self.limit = 0 if rank(self.up) == 0 else VALUES[self.up]  # ace: gin only
        else:
            self.limit = self.rules["knock_limit"]
        self.row = {"dealer": dealer}

    # -- end of hand ----------------------------------------------------------------------
    def _end(self, ender, outcome, stock_left, **cols):
        self.row.update(ender=ender, outcome=outcome, turns=self.turns, stock_left=stock_left, **cols)
        return True

    def _void(self, p, stock_left):
        return self._end(p, VOID, stock_left, score0=0, score1=0,
                         deadwood0=dw(frozenset(self.hands[0])), deadwood1=dw(frozenset(self.hands[1])),
                         winner=-1, points=0, knock_deadwood=-1, knock_turn=-1)

    def showdown(self, knocker, knock_dw, big, stock_left):
        d = 1 - knocker
        kh, dh = frozenset(self.hands[knocker]), frozenset(self.hands[d])
        raw = dw(dh)
        if big:  # big gin: no layoffs
            outcome, winner, dd, pts = BIG_GIN, knocker, raw, raw + self.rules["big_gin_bonus"]
        elif knock_dw == 0:  # gin: no layoffs
            outcome, winner, dd, pts = GIN, knocker, raw, raw + self.rules["gin_bonus"]
        else:
            if self.strat[d]["layoff"]:
                melds = shown_melds(kh, self.strat[knocker]["arrange"])
                if self.rules["layoff_mode"] == "seed":
                    dd = seed_layoff_deadwood(dh, melds)
                else:
                    dd = naive.layoff_deadwood(dh, melds)
            else:
                dd = raw
            if dd < knock_dw or (dd == knock_dw and self.rules["undercut_on_tie"]):  # undercut
                outcome, winner, pts = UNDERCUT, d, knock_dw - dd + self.rules["undercut_bonus"]
            elif dd == knock_dw:  # undercut_on_tie off: a tie scores nothing, nobody wins
                outcome, winner, pts = KNOCK, -1, 0
            else:
                outcome, winner, pts = KNOCK, knocker, dd - knock_dw
        scores = [0, 0]
        if winner >= 0:
            scores[winner], scores[1 - winner] = pts, -pts
        dws = [0, 0]
        dws[knocker], dws[d] = knock_dw, dd
        return self._end(knocker, outcome, stock_left, score0=scores[0], score1=scores[1],
                         deadwood0=dws[0], deadwood1=dws[1], winner=winner, points=pts,
                         knock_deadwood=knock_dw, knock_turn=self.own_turns[knocker])

    # -- one turn -------------------------------------------------------------------------
    def turn(self, p: int, from_pile: bool) -> bool:
        """Player p draws (the top discard if from_pile, else the top of the stock), then
        discards and maybe knocks.  True when the hand is over (row filled)."""
        s = self.strat[p]
        self.turns += 1
        self.own_turns[p] += 1
        if from_pile:
            card = self.pile.pop()
            self.picked[p].add(card)
            forbidden = {card}  # the card taken from the pile is never discarded at once
        else:
            card = self.stock.pop(0)
            forbidden = set() if self.rules["discard_stock_draw"] else {card}
        hand = frozenset(self.hands[p] | {card})
        stock_left = len(self.stock)
        if self.rules["big_gin"] and dw(hand) == 0:  # all 11 cards melded: the hand ends at once
            self.hands[p] = set(hand)
            return self.showdown(p, 0, True, stock_left)
        c, after = choose_discard(s, hand, forbidden, self.picked[1 - p])
        assert c in hand and c not in forbidden and after == dw(hand - {c})
        self.hands[p] = set(hand - {c})
        self.pile.append(c)
        if after <= min(self.limit, knock_threshold(s, self.own_turns[p], stock_left)):
            return self.showdown(p, after, False, stock_left)
        # openspiel_wall: after a stock draw the next player may still knock with the upcard
        wall = self.rules["openspiel_wall"] and not from_pile
        if (stock_left <= self.rules["void_stock_left"] and not wall) or self.turns >= MAX_TURNS:
            return self._void(p, stock_left)
        return False

    def wall_knock(self, p: int) -> bool:
        """At the wall: taking the upcard, can p knock (best discard other than the upcard
        within the rules' limit and the strategy's threshold)?"""
        h11 = frozenset(self.hands[p] | {self.pile[-1]})
        best = min(dw(h11 - {c}) for c in self.hands[p])
        return best <= min(self.limit, knock_threshold(self.strat[p], self.own_turns[p] + 1, len(self.stock)))

    def play(self) -> dict:
        non_dealer = 1 - self.dealer
        p = non_dealer
        force_stock = False
        if self.rules["first_upcard_offer"]:
            for q in (non_dealer, self.dealer):  # non-dealer first, then dealer, may take it
                if wants_upcard(self.strat[q], self.hands[q], self.up):
                    if self.turn(q, True):
                        return self.row
                    p = 1 - q
                    break
            else:  # both passed: the non-dealer must draw from the stock
                p, force_stock = non_dealer, True
        while True:
            if self.rules["openspiel_wall"] and len(self.stock) <= self.rules["void_stock_left"] and not force_stock:
                if not self.wall_knock(p):  # the wall: pass, the hand is void
                    self._void(p, len(self.stock))
                    return self.row
                from_pile = True
            else:
                from_pile = (not force_stock and bool(self.pile)
                             and wants_upcard(self.strat[p], self.hands[p], self.pile[-1]))
            force_stock = False
            if self.turn(p, from_pile):
                return self.row
            p = 1 - p


def play_hand_ref(deck, dealer: int, rules: dict | None = None, strategies: list[dict] | None = None) -> dict:
    """Play one hand of ``deck`` (52 card codes, dealt from the front) with ``dealer`` (0/1);
    ``rules`` = option overrides (rules/gin.md names), ``strategies`` = two dicts of
    ``threshold`` parameters (missing ones default).  Returns the outcome row as a dict with
    the keys :data:`COLUMNS`."""
    row = _Hand(deck, dealer, rules or {}, strategies or [{}, {}]).play()
    assert set(row) == set(COLUMNS)
    return {k: int(row[k]) for k in COLUMNS}
