"""Going out ends the hand at once (rules/loba.md, rules/common.md): no play follows the play
that empties the hand.  The issue 18 referee found the Loba planner writing a joker move after
the lay-off of the seat's last card (``rummylab trace --variant loba --players 4 --seed 1 --hand
1381``: seat 3 lays off the JC, then moved that run's joker; 1 hand in 2,400 with simple play,
2 in 2,000 with mixed strategies).  A plan that goes out now ends with the play that empties the
hand (``sim/open/open_plan_write.py:_end_at_out``), and carrying out a play on an empty hand is an
error (``sim/open/open_plan_table.py:apply_action``)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.trace_cmd import trace_stream
from sim.open.open_plan import (
    A_CODE, A_LAYOFF, A_MOVE, A_POS, A_ROW, A_TO, A_TYPE, ACT_WIDTH, PL_HEAD, PL_N_ACT, PLAN_WIDTH, TM_LO,
    apply_plan, meld_rules, parse_table,
)
from sim.open.open_plan_layout import END_HIGH
from sim.open.open_plan_write import _end_at_out
from sim.runner import make_spec
from tests.support.referee.open_games import referee

MIX = "simple,random,strong,rummy"
AFTER_OUT = "play goes on after seat"


def _hands(variant, players, strategies, seed, hands):
    spec = make_spec(variant, rules=[], strategies=strategies, n=hands.stop, seed=seed,
                     players=players)
    return trace_stream(spec, hands)


def _played_after_out(variant, players, strategies, seed, hands):
    """Hand numbers of ``hands`` where the referee sees a play after a seat went out."""
    bad = []
    for h, events in zip(hands, _hands(variant, players, strategies, seed, hands)):
        if any(AFTER_OUT in m.what for m in referee(events).mismatches):
            bad.append(h)
    return bad


def test_hand_1381_ends_with_the_lay_off_of_the_last_card():
    """Seat 3 lays off its last card, the JC, onto ``X 8C 9C TC``: the hand ends there (the
    engine before the fix then moved the run's joker to the high end)."""
    events = next(iter(_hands("loba", 4, "simple", 1, range(1381, 1382))))
    last = [e for e in events if e["event"] not in ("end", "outcome")][-1]
    assert (last["seat"], last["event"], last["cards"]) == (3, "lay_off", ["JC"])
    assert events[-2]["event"] == "end" and events[-2]["seat"] == 3
    assert referee(events).mismatches == []


@pytest.mark.slow
@pytest.mark.parametrize("variant, strategies, seed, n", [
    ("loba", "simple", 1, 2400),            # hand 1381 before the fix
    ("loba", MIX, 7, 2000),                 # hands 110 and 1695 before the fix
    ("basic-rummy", MIX, 7, 400), ("block-rummy", MIX, 7, 400), ("wrotham", MIX, 7, 400),
    ("ramino-drift", MIX, 7, 400),
])
def test_no_play_after_the_hand_is_empty(variant, strategies, seed, n):
    assert _played_after_out(variant, 4, strategies, seed, range(n)) == []


def test_a_play_on_an_empty_hand_is_refused():
    """A joker move plays no card, so only the empty-hand check stops it after going out."""
    mr = meld_rules("loba")
    tab, n_tm = parse_table("X 8C 9C TC", mr)
    plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
    plan[PL_N_ACT] = 1
    act = plan[PL_HEAD:PL_HEAD + ACT_WIDTH]
    act[A_TYPE], act[A_ROW], act[A_POS], act[A_TO] = A_MOVE, 0, tab[0, TM_LO], END_HIGH
    act[A_CODE] = -1                                # no card fills the joker's place
    with pytest.raises(ValueError, match="after the hand is empty"):
        apply_plan(plan, np.zeros(64, dtype=np.int64), tab, n_tm, 0, mr)


def _act(plan, k, kind, row, code):
    o = PL_HEAD + k * ACT_WIDTH
    plan[o + A_TYPE], plan[o + A_ROW], plan[o + A_CODE] = kind, row, code


def test_moves_after_the_last_card_go_before_it_or_are_left_out():
    """A move of another run can come before the last card (rows are independent); a move of
    the run the last card went to was written after it, outwards, and is left out."""
    plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
    for k, (kind, row, code) in enumerate([(A_LAYOFF, 0, 7), (A_LAYOFF, 2, 9), (A_MOVE, 1, -1),
                                           (A_MOVE, 2, -1), (A_MOVE, 0, -1)]):
        _act(plan, k, kind, row, code)
    plan[PL_N_ACT] = 5
    _end_at_out(plan)
    acts = plan[PL_HEAD:PL_HEAD + ACT_WIDTH * plan[PL_N_ACT]].reshape(-1, ACT_WIDTH)
    assert [(a[A_TYPE], a[A_ROW], a[A_CODE]) for a in acts] == [
        (A_LAYOFF, 0, 7), (A_MOVE, 1, -1), (A_MOVE, 0, -1), (A_LAYOFF, 2, 9)]
