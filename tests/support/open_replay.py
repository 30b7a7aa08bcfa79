"""Replay traced hands of the open-melding games in plain Python, and settle them by the rule
text (test helper for Basic Rummy, Block Rummy, Wrotham, Ramino Drift and Loba).

:func:`traced_hand` plays one hand with a trace; :func:`replay` follows its events, keeping
every hand, the pile, the stock as far as the trace shows it and the melds on the table, and
checks the table rules on the way (the pile top is what is taken; the card taken from the
pile is not discarded that turn; a turned-over pile comes back in order, first discard on top;
a shuffled one holds the discards but the top one; every card laid down was in the hand).
:func:`settle` scores the end the slow way, straight from ``rules/basic_rummy.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.open.open_rummy_plays import SPREAD_CARDS
from tests.support.wild_replay import Table, traced_hand  # shared: the table's moves, one traced hand

__all__ = ["JOKER", "Replay", "count", "replay", "settle", "spread_cards", "traced_hand"]

JOKER = 13


def spread_cards(mask: int, b: int) -> list[int]:
    """The cards of a traced meld: the natural codes of ``mask``, the jokers and duplicates
    the count ``b`` adds (``SPREAD_CARDS`` * cards + jokers)."""
    n_cards, n_jokers = divmod(b, SPREAD_CARDS)
    naturals = [c for c in range(64) if (mask >> c) & 1 and c != JOKER]
    assert n_cards >= len(naturals) + n_jokers
    # a second copy (two packs) of a set's natural cards is not in the mask: the test's game
    # has one pack unless it says otherwise, so any surplus is an error here
    assert n_cards == len(naturals) + n_jokers, "duplicate cards in a one-pack meld"
    return naturals + [JOKER] * n_jokers


@dataclass
class Replay(Table):
    table: list = field(default_factory=list)       # melds: lists of codes, in table order
    plays: dict = field(default_factory=dict)       # seat -> own turns on which it laid cards down
    restocks: int = 0
    first_turn_draw: bool | None = None             # did the first player draw on its first turn
    ender: int = -1
    end_outcome: int = -1
    passed: bool = False                            # the hand ended on a refused discard, empty stock


def replay(evs, restock: str = "turn_over", taken_no_discard: bool = True) -> Replay:
    r = Replay()
    own: dict = {}
    cur = None          # [seat, drawn, from_pile]
    new_stock: list = []
    shuffled: list = []

    def start(seat, drawn, from_pile):
        nonlocal cur
        own[seat] = own.get(seat, 0) + 1
        if r.first_turn_draw is None:
            r.first_turn_draw = drawn is not None
        cur = [seat, drawn, from_pile]

    for kind, seat, a, b in evs:
        if r.deal(kind, seat, a):
            continue
        if kind in ("restock", "turn_over"):
            r.restocks += 1
            assert (kind == "turn_over") == (restock == "turn_over")
            if restock == "turn_over":
                assert len(r.pile) == a
                new_stock, r.pile = list(r.pile), []
            else:
                assert restock == "shuffle" and len(r.pile) - 1 == a
                shuffled, r.pile = sorted(r.pile[:-1]), r.pile[-1:]
        elif kind in ("draw_stock", "take_pile"):
            assert cur is None, "a turn without a discard that did not end the hand"
            if kind == "take_pile":
                r.take_top(a)
            elif new_stock:
                assert new_stock.pop(0) == a, "the new stock is not the pile turned over"
            elif shuffled:
                shuffled.remove(a)
            r.hands[seat].append(a)
            start(seat, a, kind == "take_pile")
        elif kind in ("spread", "hit", "swap", "move"):
            if cur is None or cur[0] != seat:
                start(seat, None, False)    # a turn without a draw (Wrotham's starter)
            r.plays.setdefault(seat, set()).add(own[seat])
            if kind == "spread":
                cards = spread_cards(a, b)
                for c in cards:
                    r.hands[seat].remove(c)
                r.table.append(cards)
            elif kind == "hit":
                r.hands[seat].remove(a)
                r.table[b].append(a)
            elif kind == "swap":
                r.hands[seat].remove(a)
                r.table[b].remove(JOKER)
                r.table[b].append(a)
                r.hands[seat].append(JOKER)
            else:
                raise AssertionError("joker moves are Loba's: not replayed here")
        elif kind == "discard":
            if cur is None or cur[0] != seat:
                start(seat, None, False)
            r.discard(seat, own[seat], cur, a, taken_stays=taken_no_discard)
            cur = None
        elif kind == "pass":
            r.passed = True
        elif kind == "end":
            r.ender, r.end_outcome = seat, a
            r.end(seat, own.get(seat, 0), cur)
    return r


def count(cards, vals) -> int:
    return int(sum(int(vals[c]) for c in cards))


def settle(counts: list[int], ender: int | None, rummy: bool, *, penalty: bool, rummy_bonus: str,
           no_out: str = "differences") -> list[int]:
    """Scores of a hand, straight from the rule text.  ``ender``: the seat out (None: nobody
    went out).  Points: the one out scores the sum of the other counts (rummy: doubled or +10);
    penalty scoring: each other seat scores minus its count (rummy: doubled, or the one out +10).
    Nobody out: the lowest count scores the sum of the differences, tied lowest share it
    (each the floor of its share); with penalty scoring every seat scores minus its count."""
    n = len(counts)
    score = [0] * n
    if ender is not None:
        mult = 2 if rummy and rummy_bonus == "double" else 1
        bonus = 10 if rummy and rummy_bonus == "plus10" else 0
        if penalty:
            for s in range(n):
                score[s] = bonus if s == ender else -counts[s] * mult
        else:
            score[ender] = sum(counts[s] for s in range(n) if s != ender) * mult + bonus
        return score
    if no_out == "void":
        return score
    if penalty or no_out == "penalty":
        return [-c for c in counts]
    low = min(counts)
    winners = [s for s in range(n) if counts[s] == low]
    total = sum(c - low for c in counts)
    for s in winners:
        score[s] = total // len(winners)
    return score
