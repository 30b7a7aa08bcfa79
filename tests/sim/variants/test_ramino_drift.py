"""Ramino Drift: the rules' options and refusals, the settlement of simulated hands against the
pure-Python reference (tests/support/drift_loba_reference.py) on replayed traces, and whole games."""

import numpy as np
import pytest

from sim.runner import play_hands
from sim.variants import get_variant
from sim.variants import ramino_drift as RD
from tests.support import drift_loba_reference as REF


def test_rules_defaults_follow_the_rules_file():
    r = RD.RaminoDriftRules()
    assert (r.players, r.layoff_needs_meld, r.joker_swap, r.penalty_limit) == (4, "runs", "reuse", 101)
    v = get_variant("ramino-drift")
    assert (v.min_players, v.default_players, v.max_players) == (2, 4, 7)
    assert v.game.kind == "elimination" and v.game.buyback_rule is None


def test_reference_points():
    assert REF.card_points(0x00, "drift") == 1            # ace
    assert REF.card_points(0x1C, "drift") == 10           # king of hearts
    assert REF.card_points(0x26, "drift") == 7
    assert REF.card_points(13, "drift") == 20


CASES = [(2, "simple", []), (4, "simple", []), (7, "simple", []), (4, "random", []),
         (3, "simple", ["layoff_needs_meld=all", "restock_shuffle=on"]), (4, "simple", ["joker_swap=keep"]),
         (4, "simple", ["last_card_must_be_discarded=on", "layoff_needs_meld=none"])]


@pytest.mark.parametrize("players,strategies,rules", CASES)
def test_traced_hands_replay_and_settle_by_the_rules(players, strategies, rules):
    """Every hand replays (draws, pile, every card laid down from the hand), leaves only legal
    melds on the table, keeps the lay-off and swap rules, and scores as the reference says."""
    outs = 0
    for h, row, evs, spec, r in REF.replayed_hands("ramino-drift", players, strategies, rules, hands=40, seed=5):
        if spec.rules.layoff_needs_meld == "runs" and spec.rules.joker_swap == "reuse":
            assert REF.turn_checks(evs, "drift") == [], h
        out = row["outcome"] == RD.O_OUT
        outs += out
        assert out == (r.ender >= 0 and not r.hands[r.ender])
        want = REF.settle(r.hands, r.ender if out else -1, players, "drift")
        assert {k: row[k] for k in want} == want, h
        if spec.rules.last_card_must_be_discarded and out:
            assert r.turns[-1][4] is not None, "went out without a final discard"
    assert outs >= 30


def test_no_lay_off_onto_a_run_before_an_own_meld_is_caught():
    evs = [("spread", 0, (1 << 0) | (1 << 1) | (1 << 2), 300), ("draw_stock", 1, 40, 0), ("hit", 1, 3, 0)]
    assert REF.turn_checks(evs, "drift") != []
    evs = [("spread", 0, (1 << 5) | (1 << 21) | (1 << 37), 300), ("draw_stock", 1, 40, 0), ("hit", 1, 53, 0)]
    assert REF.turn_checks(evs, "drift") == []          # a set: free


def test_whole_games_end_with_one_player_below_101():
    cols = play_hands("ramino-drift", n_hands=200, seed=3, players=4, mode="games")
    pts = np.stack([cols[f"points{s}"] for s in range(4)], axis=1)
    w = cols["winner"]
    win = pts[np.arange(200), w]
    others = pts.copy()
    others[np.arange(200), w] = 10**6
    assert (others >= 101).all()                      # everyone else went out at 101 or more
    assert ((win < 101) | (win <= others.min(axis=1))).all()
    assert (np.stack([cols[f"buybacks{s}"] for s in range(4)]) == 0).all()
