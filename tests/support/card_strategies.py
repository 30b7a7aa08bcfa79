"""Hypothesis strategies of cards on an open table, shared by the table and Tonk tests."""

from __future__ import annotations

from hypothesis import strategies as hs

from sim.core.cards import card_code


@hs.composite
def tables(draw, avoid=frozenset()):
    """A few random legal spreads (books of 3-4, runs of 3-5), disjoint, avoiding ``avoid``."""
    used = set(avoid)
    spreads = []
    for _ in range(draw(hs.integers(0, 3))):
        if draw(hs.booleans()):
            r = draw(hs.integers(0, 12))
            free = [card_code(r, s) for s in range(4) if card_code(r, s) not in used]
            k = draw(hs.integers(3, 4))
            if len(free) < k:
                continue
            sp = free[:k]
        else:
            s, lo, ln = draw(hs.integers(0, 3)), draw(hs.integers(0, 10)), draw(hs.integers(3, 5))
            sp = [card_code(r, s) for r in range(lo, min(lo + ln, 13))]
            if len(sp) < 3 or used & set(sp):
                continue
        spreads.append(sp)
        used |= set(sp)
    return spreads
