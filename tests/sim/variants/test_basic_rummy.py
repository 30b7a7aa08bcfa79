"""Basic Rummy and Block Rummy (rules/basic_rummy.md): traced hands replayed in plain Python
(tests/support/open_replay.py) and settled from the rule text, under every house-rule option."""

import numpy as np
import pytest

from sim.core.cards import value_table
from sim.core.errors import UserInputError
from sim.runner import make_spec, play_hands
from tests.support.open_replay import count, replay, settle, traced_hand

DEAL = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
RULE_SETS = [
    [],
    ["rummy_bonus=plus10"],
    ["penalty_scoring=on"],
    ["penalty_scoring=on", "rummy_bonus=plus10"],
    ["restock=shuffle"],
    ["restock=block"],
    ["max_restocks=0"],
    ["multiple_melds=off"],
    ["last_card_must_be_discarded=on"],
    ["layoff_requires_own_meld=on"],
    ["ace_high_or_low=on"],
    ["ace_high_or_low=on", "round_the_corner=on"],
]


def _opts(rules):
    return dict(r.split("=") for r in rules)


def _check_hand(variant, players, h, rules, strategies="simple", seed=7):
    row, evs, spec = traced_hand(variant, players, h, seed=seed, strategies=strategies, rules=rules)
    r_obj = spec.rules
    rp = replay(evs, restock=r_obj.restock)
    vals = value_table(ace=15 if r_obj.ace_high_or_low else 1)
    n = players
    assert all(len(rp.dealt[s]) == DEAL[n] for s in range(n))
    counts = [count(rp.hands[s], vals) for s in range(n)]
    assert counts == [row[f"deadwood{s}"] for s in range(n)]
    outcome = spec.variant.outcomes[row["outcome"]]
    ender = row["ender"]
    out = outcome in ("out", "rummy")
    if out:
        assert rp.hands[ender] == [] and row["winner"] == ender
        last_own = rp.turns[-1][1]
        earlier = {t for t in rp.plays.get(ender, set()) if t < last_own}
        assert (outcome == "rummy") == (not earlier), "rummy iff nothing went down before the last turn"
        if r_obj.last_card_must_be_discarded:
            assert rp.turns[-1][4] is not None, "went out without the final discard"
    else:
        assert outcome == "stock_out" and rp.passed
        assert row["restocks"] <= (0 if r_obj.restock == "block" else r_obj.max_restocks)
        assert row["stock_left"] == 0
    want = settle(counts, ender if out else None, outcome == "rummy", penalty=r_obj.penalty_scoring,
                  rummy_bonus=r_obj.rummy_bonus)
    assert want == [row[f"score{s}"] for s in range(n)]
    return row, rp, spec


@pytest.mark.parametrize("rules", RULE_SETS, ids=[",".join(r) or "default" for r in RULE_SETS])
def test_traced_hands_replay_and_settle_by_the_rules(rules):
    seen = set()
    for k in range(40):
        players = 2 + k % 5
        row, rp, spec = _check_hand("basic-rummy", players, k, rules, strategies="simple" if k % 3 else "rummy")
        seen.add(spec.variant.outcomes[row["outcome"]])
    assert "out" in seen or "rummy" in seen


def test_one_meld_per_turn_without_multiple_melds():
    for k in range(60):
        row, evs, spec = traced_hand("basic-rummy", 2 + k % 3, k, rules=["multiple_melds=off"])
        melds_this_turn = 0
        for kind, seat, a, b in evs:
            if kind in ("draw_stock", "take_pile"):
                melds_this_turn = 0
            elif kind == "spread":
                melds_this_turn += 1
                assert melds_this_turn <= 1


def test_no_layoff_before_an_own_meld_with_layoff_requires_own_meld():
    for k in range(60):
        row, evs, spec = traced_hand("basic-rummy", 3 + k % 3, k, rules=["layoff_requires_own_meld=on"])
        melded = set()
        for kind, seat, a, b in evs:
            if kind == "spread":
                melded.add(seat)
            elif kind == "hit":
                assert seat in melded, "laid off before melding"


def test_block_rummy_never_restocks_and_ends_on_the_refused_discard():
    cols = play_hands("block-rummy", n_hands=3000, seed=4, players=4)
    assert (cols["restocks"] == 0).all()
    stuck = cols["outcome"] == 2
    assert stuck.any() and (cols["stock_left"][stuck] == 0).all()
    for k in range(30):
        _check_hand("block-rummy", 2 + k % 5, k, [], seed=11)


def test_restocks_turn_the_pile_over_in_order_and_stop_at_max_restocks():
    for rules in (["restock=turn_over"], ["restock=shuffle"], ["max_restocks=1"]):
        cols = play_hands("basic-rummy", n_hands=4000, seed=5, players=2, rules=rules,
                          strategies="simple(take=0)")
        limit = 1 if "max_restocks=1" in rules else 2
        assert cols["restocks"].max() == limit
        assert (cols["restocks"][cols["outcome"] == 2] == limit).all()


def test_rummy_doubles_and_plus10_adds_ten():
    a = play_hands("basic-rummy", n_hands=3000, seed=6, strategies="rummy")
    b = play_hands("basic-rummy", n_hands=3000, seed=6, strategies="rummy", rules=["rummy_bonus=plus10"])
    rummy = a["outcome"] == 1
    assert rummy.any()
    base = np.stack([a[f"deadwood{s}"] for s in range(4)], axis=1).sum(axis=1)
    assert (a["points"][rummy] == 2 * base[rummy]).all()
    assert (b["points"][rummy] == base[rummy] + 10).all()


def test_whole_games_reach_their_end():
    for rules in (["target_score=60"], ["num_deals=3"], ["penalty_scoring=on", "penalty_limit=50"]):
        cols = play_hands("basic-rummy", n_hands=40, seed=8, mode="games", rules=rules)
        pts = np.stack([cols[f"points{s}"] for s in range(4)], axis=1)
        mine = pts[np.arange(40), cols["winner"]]
        if "target_score=60" in rules:
            assert (pts.max(axis=1) >= 60).all() and (mine == pts.max(axis=1)).all()
        elif "num_deals=3" in rules:
            assert (cols["hands"] - cols["voids"] == 3).all() and (mine == pts.max(axis=1)).all()
        else:
            assert (pts.max(axis=1) >= 50).all() and (mine == pts.min(axis=1)).all()


def test_round_the_corner_needs_ace_high_or_low():
    with pytest.raises(UserInputError, match="round_the_corner needs ace_high_or_low"):
        make_spec("basic-rummy", rules=["round_the_corner=on"])


@pytest.mark.parametrize("seat0", ["simple(meld_at=0)", "rummy", "simple(meld=3)"])
def test_held_melds_go_down_only_as_the_strategy_says(seat0):
    """meld_at=0 and rummy: seat 0 lays cards down only on the turn it goes out; meld=3: only
    when three or more cards go down that turn, or going out."""
    for k in range(40):
        row, evs, spec = traced_hand("basic-rummy", 3, k, strategies=f"{seat0},simple,simple")
        down, turn_down = {}, 0
        for kind, seat, a, b in evs:
            if kind in ("draw_stock", "take_pile") and seat == 0:
                turn_down = 0
            elif seat == 0 and kind in ("spread", "hit"):
                turn_down += (b // 100) if kind == "spread" else 1
            elif kind == "discard" and seat == 0 and turn_down:
                down[len(down)] = turn_down
        out0 = row["ender"] == 0 and spec.variant.outcomes[row["outcome"]] in ("out", "rummy")
        if seat0 == "simple(meld=3)":
            assert all(v >= 3 for v in down.values()) or out0
        else:
            assert not down or (out0 and len(down) == 1), "held cards went down before going out"
