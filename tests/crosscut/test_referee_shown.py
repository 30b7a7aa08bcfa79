"""The arrangements `rummylab trace --json` shows at a knock or going out (the knock line, else
the end line: ``melds``, ``deadwood_cards``, ``defenders`` with their ``lay_offs``), and the
referee settling the hand exactly from them: every such hand of the real traces shows them,
and a trace whose arrangement was edited (a meld card moved to deadwood, a lay-off onto the
wrong meld, a joker moved from where it stands, lay-offs left out, or another legal
arrangement of the knocker's that changes the score) is rejected."""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter

import pytest

from tests.support.referee.closed import arranger, params, referee
from tests.support.referee.core import read_hands
from tests.support.referee.knock_games import lay_closure, layable
from tests.crosscut.test_referee_closed import CONFIGS, config, trace_lines

ENDS = {"gin": ("knock", "gin", "undercut", "big_gin"), "knock-rummy": None,
        "ramino-klop": ("knock", "rummy"), "wildcard": ("rummy", "rummy_no_discard"),
        "cincinnati": ("out", "out_no_discard")}


def shown_line(hand):
    """The line of ``hand`` showing the arrangements, or None."""
    return next((e for e in hand.events if "melds" in e), None)


@pytest.mark.slow
def test_every_knock_and_going_out_shows_the_arrangement():
    for variant, players, *rest in CONFIGS:
        if variant not in ENDS:
            continue
        for hand in read_hands(trace_lines(variant, players, *rest)):
            name = hand.outcome["outcome_name"]
            line = shown_line(hand)
            if ENDS[variant] is None or name in ENDS[variant]:
                assert line is not None, (variant, hand.label, name)
                assert line["event"] in ("knock", "end")
                assert len(line["defenders"]) == players - 1
            else:
                assert line is None, (variant, hand.label, name)


def lines_of(hands) -> list[str]:
    return [json.dumps(e) for h in hands for e in [h.start, *h.events, h.outcome]]


def edited(hand, edit):
    """A copy of ``hand`` with ``edit`` applied to its shown line; None if ``edit`` declines."""
    h = copy.deepcopy(hand)
    return h if edit(shown_line(h), h) is not False else None


def first_rejected(variant, players, edit, hands=None) -> list:
    """Apply ``edit`` to the real hands (those it accepts) and referee the first few."""
    hands = hands or read_hands(trace_lines(*config(variant, players)))
    assert referee(lines_of(hands[:60])) == []
    done = [e for e in (edited(h, edit) for h in hands if shown_line(h)) if e is not None][:5]
    assert done, f"no hand of {variant} to edit"
    return [referee(lines_of([h])) for h in done]


def _meld_to_deadwood(line, hand):
    if not line["melds"]:
        return False
    line["deadwood_cards"].append(line["melds"][0].pop())


def _lay_off_elsewhere(line, hand):
    d = line["defenders"][0]
    if not d["lay_offs"] or len(line["melds"]) < 2:
        return False
    d["lay_offs"][0]["meld"] = (d["lay_offs"][0]["meld"] + 1) % len(line["melds"])


def _lay_offs_left_out(line, hand):
    d = line["defenders"][0]
    if not d["lay_offs"]:
        return False
    d["deadwood_cards"] += [x["card"] for x in d["lay_offs"]]
    d["lay_offs"] = []


def _joker_moved(line, hand):
    for meld in line["melds"] + [m for d in line["defenders"] for m in d["melds"]]:
        if "X" in meld[1:-1]:
            meld.remove("X")
            meld.append("X")
            return None
    return False


@pytest.mark.slow
def test_a_meld_card_moved_to_deadwood_is_rejected():
    for variant, players in (("gin", 2), ("knock-rummy", 5), ("ramino-klop", 4), ("wildcard", 4)):
        assert all(first_rejected(variant, players, _meld_to_deadwood)), variant


@pytest.mark.slow
def test_an_illegal_or_missing_lay_off_is_rejected():
    hands = [h for c in CONFIGS if c[0] == "gin" for h in read_hands(trace_lines(*c))]
    for edit, what in ((_lay_off_elsewhere, "lays off"), (_lay_offs_left_out, "after its lay-offs")):
        for got in first_rejected("gin", 2, edit, hands):
            assert any(what in m.what for m in got), got


def test_a_joker_moved_from_where_it_stands_is_rejected():
    for variant, players in (("ramino-klop", 4), ("cincinnati", 4)):
        for got in first_rejected(variant, players, _joker_moved):
            assert any("a meld" in m.what for m in got), got


# ---- another legal arrangement of the knocker's that changes the score ------------------------

def _in_order(meld):
    """A single-pack meld as it lies: a run by rank (ace low), a set by suit S H D C."""
    ranks = "A23456789TJQK"
    if len({c[0] for c in meld}) == 1:
        return sorted(meld, key=lambda c: "SHDC".index(c[1]))
    return sorted(meld, key=lambda c: ranks.index(c[0]))


def _best_lay_offs(melds, defender, arr):
    """The defender's best lay-offs onto ``melds`` (``joint``): (its deadwood, the lay-offs
    as [card, meld index] in order, the cards it keeps)."""
    best = (arr.min_deadwood(defender), [], list(defender))
    cands = lay_closure(melds, defender, arr.rules)
    for n in range(1, len(cands) + 1):
        for subset in itertools.combinations(cands, n):
            if not layable(melds, subset, arr.rules):
                continue
            rest = list((Counter(defender) - Counter(subset)).elements())
            if arr.min_deadwood(rest) < best[0]:
                best = (arr.min_deadwood(rest), _placed(melds, subset, arr), rest)
    return best


def _placed(melds, cards, arr):
    from tests.support.referee.cards import meld_ok
    grown, left, out = [list(m) for m in melds], list(cards), []
    while left:
        c, k = next((c, k) for c in left for k, m in enumerate(grown) if meld_ok(m + [c], arr.rules))
        grown[k].append(c)
        left.remove(c)
        out.append({"card": c, "meld": k})
    return out


def _other_knocker_arrangement(line, hand):
    """The knocker shows another minimum arrangement, the defender its best lay-offs onto it:
    legal, but the defender ends on another deadwood than the outcome row says."""
    p = params(hand.start)
    arr = arranger(p)
    strategy = hand.start["strategies"][1 - int(line["seat"])]
    if p.layoff_mode != "joint" or not line["deadwood"] or "openspiel" in strategy or "layoff=0" in strategy:
        return False
    knocker = [c for m in line["melds"] for c in m] + line["deadwood_cards"]
    d = line["defenders"][0]
    defender = [c for m in d["melds"] for c in m] + d["deadwood_cards"] + [x["card"] for x in d["lay_offs"]]
    was = p.values.total(d["deadwood_cards"])
    for alt in arr.arrangements(knocker):
        dd, lay_offs, rest = _best_lay_offs(alt, defender, arr)
        if dd != was:
            line["melds"] = [_in_order(m) for m in alt]
            line["deadwood_cards"] = list((Counter(knocker) - Counter(c for m in alt for c in m)).elements())
            own = arr.arrangements(rest)[0]
            d["melds"] = [_in_order(m) for m in own]
            d["deadwood_cards"] = list((Counter(rest) - Counter(c for m in own for c in m)).elements())
            d["lay_offs"] = lay_offs
            return None
    return False


def test_another_legal_arrangement_that_changes_the_score_is_rejected():
    """Where the knocker has minimum arrangements that leave the defender different lay-offs
    (the hands the referee could not settle exactly before the trace showed them), another
    one shown, with the defender's best lay-offs onto it, is a legal showdown: only the
    score, settled from it, disagrees with the outcome row."""
    hands = [h for c in CONFIGS if c[0] == "gin" for h in read_hands(trace_lines(*c))]
    for got in first_rejected("gin", 2, _other_knocker_arrangement, hands):
        assert got and all(m.what.startswith(("column", "outcome_name", "end line")) for m in got), got
