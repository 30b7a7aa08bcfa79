"""The arrangements a closed-hand trace shows at a knock or going out (``rules/common.md``, the
knock games' and the wild games' rules files): read them from the knock line (else the end
line) and check them, so that the hand is settled exactly from what was shown.

Keys of that line (``rummylab trace --json``): ``melds`` (the knocker's, or the seat going out,
each meld's cards in table order, a joker X where it stands), ``deadwood_cards`` (its cards in
no meld) and ``defenders`` (one object per other seat: ``seat``, ``melds``, ``deadwood_cards``,
``lay_offs``: ``[{"card": c, "meld": k}, ...]`` laid in that order onto the knocker's meld
``k``).  :func:`read_shown` checks that every seat shows exactly its hand, every meld is a legal
meld as it lies, and every lay-off keeps the knocker's meld legal; what each game requires of
the values (minimum deadwood, best lay-offs) its walker checks with :func:`expect_min`.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from .cards import meld_ok, run_ok_in_order, set_ok


class Shown(NamedTuple):
    seat: int
    melds: list[list[str]]
    dead: list[str]
    lay_offs: list[tuple[str, int]]

    def laid(self) -> list[str]:
        return [c for c, _ in self.lay_offs]


def _meld_lies_ok(meld: list[str], rules) -> bool:
    """A meld as it lies: a set, or a run low to high with each wild where it stands."""
    return set_ok(list(meld), rules) or run_ok_in_order(list(meld), rules)


def read_shown(walker, line: dict) -> dict[int, Shown] | None:
    """The arrangements of ``line`` (None without them), after the checks common to every
    game; a failed check is reported on ``walker`` (the values are then still returned)."""
    if "melds" not in line:
        return None
    knocker = int(line["seat"])
    out = {knocker: Shown(knocker, [list(m) for m in line["melds"]], list(line["deadwood_cards"]), [])}
    for d in line.get("defenders", []):
        s = int(d["seat"])
        if s in out:
            walker.fail(f"arrangement of seat {s}", "shown once", "twice")
        out[s] = Shown(s, [list(m) for m in d["melds"]], list(d["deadwood_cards"]),
                       [(x["card"], int(x["meld"])) for x in d.get("lay_offs", [])])
    walker.expect("seats showing an arrangement", list(range(walker.n)), sorted(out))
    rules = walker.p.melds
    for s, sh in out.items():
        shown = Counter(c for m in sh.melds for c in m) + Counter(sh.dead) + Counter(sh.laid())
        if 0 <= s < walker.n:
            walker.expect(f"seat {s}'s arrangement: its cards", sorted(walker.hands[s].elements()),
                          sorted(shown.elements()))
        for m in sh.melds:
            if not _meld_lies_ok(m, rules):
                walker.fail(f"seat {s}'s arrangement: a meld", "a legal meld as it lies", m)
    _check_lay_offs(walker, out[knocker], out)
    return out


def _check_lay_offs(walker, knocker: Shown, shown: dict[int, Shown]) -> None:
    """Each lay-off, in order, onto a meld of the knocker's keeps that meld legal (chained:
    a card laid off extends the meld for the next)."""
    melds = [list(m) for m in knocker.melds]
    allowed = walker.p.variant == "gin"            # the only game here with lay-offs
    for s, sh in shown.items():
        if sh.lay_offs and (s == knocker.seat or not allowed):
            walker.fail(f"seat {s} lays off", "no lay-off here", sh.lay_offs)
            continue
        for card, k in sh.lay_offs:
            if not 0 <= k < len(melds):
                walker.fail(f"seat {s} lays off {card}", f"a meld 0..{len(melds) - 1}", k)
                continue
            if not meld_ok(melds[k] + [card], walker.p.melds):
                walker.fail(f"seat {s} lays off {card} on meld {k}", "a legal meld after it", melds[k] + [card])
            melds[k].append(card)


def dead_value(walker, sh: Shown) -> int:
    return walker.p.values.total(sh.dead)


def expect_min(walker, sh: Shown, why: str) -> int:
    """The value of ``sh``'s deadwood, checked to be the seat's minimum (``why``: the rule)."""
    value = dead_value(walker, sh)
    walker.expect(f"seat {sh.seat}'s shown deadwood ({why})", walker.deadwood(sh.seat), value)
    return value
