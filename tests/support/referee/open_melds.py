"""Melds of the open-melding games, read from the table as the trace writes it (referee).

Written from ``rules/common.md``, ``basic_rummy.md``, ``ramino.md`` and ``loba.md`` only; imports
nothing from ``sim/``.  A meld is a list of card texts in table order ("AS", "TD", jokers "X"),
a run from low to high with each joker WHERE IT STANDS.  A *reading* says what the meld is:
``("set", rank)`` or ``("run", start)``, the run's i-th card standing at position start + i,
positions 1..13 = A..K and 14 = the ace above the King (:mod:`.cards`' numbering; with
``round_corner`` positions wrap: rank = (position - 1) % 13 + 1).  A meld is legal when it
has a reading; the table keeps every meld's readings and each event must leave a reading
consistent with the one before.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from .cards import JOKER, is_joker, rank, suit

ACE_HIGH_POS = 14


@dataclass(frozen=True)
class OpenMeldRules:
    """What a meld may be in one game (every rule option already applied)."""
    min_set: int = 3
    max_set: int = 4
    set_suits: str = "distinct"      # "distinct" (one pack) or "three" (Loba: exactly 3 suits)
    set_jokers: bool = True          # jokers may stand in sets
    min_run: int = 3
    run_max_jokers: int = 99
    ace_high: bool = False           # Q-K-A legal (the ace at position 14)
    round_corner: bool = False       # K-A-2 legal (positions wrap)
    joker_above_king: bool = True    # a joker may stand at position 14 (where ace_high allows it)
    min_naturals: int = 1            # [choice] every meld holds a natural card


def _naturals(cards):
    return [(i, c) for i, c in enumerate(cards) if not is_joker(c)]


def set_ok(cards, r, mr: OpenMeldRules) -> bool:
    nat = [c for c in cards if not is_joker(c)]
    n_jokers = len(cards) - len(nat)
    if not (mr.min_set <= len(cards) <= mr.max_set) or len(nat) < mr.min_naturals:
        return False
    if any(rank(c) != r for c in nat) or (n_jokers and not mr.set_jokers):
        return False
    suits = [suit(c) for c in nat]
    if mr.set_suits == "three":
        return len(set(suits)) == 3
    return len(set(suits)) == len(suits)


def position_ok(card, pos, mr: OpenMeldRules) -> bool:
    """May ``card`` (a joker or a natural of the run's suit) stand at run position ``pos``?"""
    if mr.round_corner:
        return is_joker(card) or rank(card) == _wrap(pos)
    if not 1 <= pos <= ACE_HIGH_POS or (pos == ACE_HIGH_POS and not mr.ace_high):
        return False
    if is_joker(card):
        return pos < ACE_HIGH_POS or mr.joker_above_king
    return rank(card) == _wrap(pos)


def _wrap(pos: int) -> int:
    return (pos - 1) % 13 + 1


def run_ok(cards, start, mr: OpenMeldRules) -> bool:
    nat = _naturals(cards)
    n_jokers = len(cards) - len(nat)
    if len(cards) < mr.min_run or len(cards) > 13 or n_jokers > mr.run_max_jokers:
        return False
    if len(nat) < mr.min_naturals or len({suit(c) for _, c in nat}) > 1:
        return False
    return all(position_ok(c, start + i, mr) for i, c in enumerate(cards))


def run_starts(cards, mr: OpenMeldRules) -> set[int]:
    """The start positions the naturals allow (every start 1..13 when there is none)."""
    starts = None
    for i, c in _naturals(cards):
        r = rank(c)
        here = {_wrap(r - i)} if mr.round_corner else {r - i} | ({14 - i} if r == 1 else set())
        starts = here if starts is None else starts & here
    return set(range(1, 14)) if starts is None else starts


def readings(cards, mr: OpenMeldRules) -> list[tuple[str, int]]:
    """Every legal reading of the meld (empty: the meld is illegal)."""
    out = [("set", r) for r in range(1, 14) if set_ok(cards, r, mr)]
    out += [("run", s) for s in sorted(run_starts(cards, mr)) if run_ok(cards, s, mr)]
    return out


def loose_readings(cards, mr: OpenMeldRules) -> list[tuple[str, int]]:
    """Readings of a meld the referee already found illegal, so that later events on it are
    still followed (any size, any number of jokers, jokers anywhere)."""
    loose = replace(mr, min_set=1, max_set=13, min_run=1, run_max_jokers=13,
                    joker_above_king=True, min_naturals=0)
    return readings(cards, loose)


def run_layout(cards, start, mr: OpenMeldRules):
    """(naturals as a Counter of (card, position), joker positions as a sorted list)."""
    at = _wrap if mr.round_corner else int
    nat = Counter(((c, at(start + i)) for i, c in _naturals(cards)))
    jok = sorted(at(start + i) for i, c in enumerate(cards) if is_joker(c))
    return nat, jok


def _run_step(old, new, kind_event, card, mr):
    """Is run reading ``new`` (cards, start) what ``kind_event`` with ``card`` makes of
    ``old``?  Natural cards never move; returns an error text or None."""
    (oc, os_), (nc, ns) = old, new
    n0, j0 = run_layout(oc, os_, mr)
    n1, j1 = run_layout(nc, ns, mr)
    if n0 - n1:
        return "a natural card of the run moved or left it"
    added = n1 - n0
    if kind_event == "lay_off":
        if nc not in ([card] + oc, oc + [card]):
            return f"{card} is not laid off at an end of the run"
        return None
    if kind_event == "swap":
        (c, p), = added.elements() if sum(added.values()) == 1 else [(None, None)]
        if c != card or p not in j0 or sorted(j1 + [p]) != j0:
            return f"{card} does not take the place of a joker of the run"
        return None
    return _move_step(j0, j1, added, card, nc, ns, mr)


def _move_step(j0, j1, added, card, nc, ns, mr):
    """A joker move: one joker leaves position p for an end of the new run, and the card
    played (if any) fills p."""
    if len(j0) != len(j1):
        return "a joker move changed the run's number of jokers"
    gone = sorted((Counter(j0) - Counter(j1)).elements())
    came = sorted((Counter(j1) - Counter(j0)).elements())
    if len(gone) != 1 or len(came) != 1:
        return "a joker move must move exactly one joker"
    at = _wrap if mr.round_corner else int
    lo, hi = at(ns), at(ns + len(nc) - 1)
    if came[0] not in (lo, hi):
        return "the joker was not moved to an end of its run"
    filled = sorted(added.elements())
    if card is None and filled or card is not None and filled != [(card, gone[0])]:
        return "the card played does not fill the joker's old place"
    return None


def step_readings(old_cards, old_reads, new_cards, event, card, mr: OpenMeldRules):
    """The readings of ``new_cards`` consistent with one of ``old_reads`` after ``event``
    (``lay_off`` / ``swap`` / ``move``) playing ``card`` (a card text or None), and the reasons
    the others failed."""
    ok, why = [], []
    new_reads = readings(new_cards, mr)
    if not new_reads:
        return [], [f"illegal meld {' '.join(new_cards)}"]
    for kind, val in new_reads:
        for okind, oval in old_reads:
            if okind != kind:
                continue
            err = _set_step(old_cards, new_cards, event, card, val, oval) if kind == "set" \
                else _run_step((old_cards, oval), (new_cards, val), event, card, mr)
            if err is None:
                ok.append((kind, val))
                break
            why.append(err)
    return ok, why or ["the meld changed its kind"]


def _set_step(old_cards, new_cards, event, card, rank, old_rank):
    if rank != old_rank:
        return "the set changed its rank"
    diff_in = Counter(new_cards) - Counter(old_cards)
    diff_out = Counter(old_cards) - Counter(new_cards)
    if event == "lay_off" and diff_in == Counter([card]) and not diff_out:
        return None
    if event == "swap" and diff_in == Counter([card]) and diff_out == Counter([JOKER]):
        return None
    return f"{event} of {card} does not match the set before and after"
