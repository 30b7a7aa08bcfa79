"""Cincinnati: the winner scores the value of its own melds (checked against a slow reference
on the replayed hand), losers nothing; the go-out rule (min value by turn bucket, wait until a
turn); refused configurations."""

import numpy as np
import pytest

from sim.core.errors import UserInputError
from sim.runner import make_spec, play_hands
from sim.variants import cincinnati as CI
from tests.support import wild_reference as REF
from tests.support.wild_replay import replay, traced_hand, won_hands


def _value(cards):
    return sum(REF.value(c, "cincinnati-1") for c in cards)


def test_the_winner_scores_its_own_melds_with_the_cheapest_final_discard():
    for n, row, r, w in won_hands("cincinnati", seed=51):
        final = tuple(sorted(r.hands[w]))
        assert REF.min_deadwood(final, "cincinnati-1") == 0
        assert row[f"score{w}"] == row["points"] == _value(final)
        seat, _, drawn, from_pile, disc = r.turns[-1]
        if row["outcome"] == CI.O_OUT:
            before = r.before_out
            for c in set(before):
                if REF.value(c, "cincinnati-1") < REF.value(disc, "cincinnati-1") and not (from_pile and c == drawn):
                    rest = list(before)
                    rest.remove(c)
                    assert REF.min_deadwood(tuple(sorted(rest)), "cincinnati-1") > 0
        else:
            assert row["outcome"] == CI.O_OUT_NO_DISCARD and disc is None
        for s in range(n):
            if s != w:
                assert row[f"score{s}"] == 0
                assert row[f"deadwood{s}"] == REF.min_deadwood(tuple(sorted(r.hands[s])), "cincinnati-1")


def test_go_out_only_with_enough_value_or_from_the_waiting_turn():
    col = play_hands("cincinnati", strategies="simple(min_out=50)", n_hands=2000, seed=52, players=3)
    out = col["outcome"] != CI.O_TURN_LIMIT
    assert (col["points"][out] >= 50).all()
    col = play_hands("cincinnati", strategies="simple(min_out=60,min_out_late=30,late_from=6)",
                     n_hands=2000, seed=53, players=3)
    out = col["outcome"] != CI.O_TURN_LIMIT
    low = out & (col["points"] < 60)
    assert low.any() and (col["out_turn"][low] >= 6).all() and (col["points"][out] >= 30).all()
    col = play_hands("cincinnati", strategies="simple(min_out=1000,wait_until_turn=4)", n_hands=2000,
                     seed=54, players=3)
    out = col["outcome"] != CI.O_TURN_LIMIT
    assert (col["out_turn"][out] >= 4).all()
    simple = play_hands("cincinnati", n_hands=2000, seed=54, players=3)
    assert simple["out_turn"].min() < 4


def test_a_seat_declining_to_go_out_holds_a_complete_hand():
    """With a high minimum, a seat that could go out discards and plays on: traces show a
    discard leaving deadwood 0 that did not end the hand."""
    seen = 0
    for h in range(12):
        row, evs, _ = traced_hand("cincinnati", 2, h, seed=55, strategies="simple(min_out=70)")
        replay(evs)                     # checks the table rules on the way
        seen += sum(1 for k, s, a, b in evs if k == "discard" and b == 0) - (row["outcome"] == CI.O_OUT)
    assert seen > 0


@pytest.mark.parametrize("players,rules,words", [
    (7, ["packs=1"], "7 players play with two packs"), (2, ["packs=2"], "2 players play with one pack"),
    (5, ["packs=3"], "packs=3 is out of range"), (8, [], "players=8 is out of range")])
def test_refused_configurations(players, rules, words):
    with pytest.raises(UserInputError, match=words):
        make_spec("cincinnati", players=players, rules=rules)


def test_two_packs_deal_ten():
    row, evs, _ = traced_hand("cincinnati", 5, 1, seed=56, rules=["packs=2"])
    assert all(len(c) == 10 for c in replay(evs).dealt.values())
    assert np.all(np.array([row[f"deadwood{s}"] for s in range(5)]) >= 0)
