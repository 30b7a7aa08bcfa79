"""Wrotham Rummy (rules/basic_rummy.md, seed 002): traced hands replayed in plain Python
(tests/support/open_replay.py) and settled from the rule text; the starter's eight cards and missing
first draw, the 55-card pack, joker swaps and the all-seven deals 4-6."""

import numpy as np
import pytest

from sim.core.cards import standard_pack, value_table
from sim.runner import play_hands
from tests.support.open_replay import count, replay, settle, traced_hand

VALS = value_table(joker=25)
PACK = sorted(standard_pack(1, 3).tolist())


def _check(players, h, rules=None, strategies="simple", seed=3):
    row, evs, spec = traced_hand("wrotham", players, h, seed=seed, strategies=strategies, rules=rules)
    rp = replay(evs, restock=spec.rules.restock)
    n = players
    dealer = row["dealer"]
    starter = (dealer + 1) % n
    assert sorted(len(rp.dealt[s]) for s in range(n)) == [7] * (n - 1) + [8]
    assert len(rp.dealt[starter]) == 8 and rp.first_turn_draw is False
    seen = sorted(sum(rp.dealt.values(), []))
    assert all(seen.count(c) <= PACK.count(c) for c in set(seen))
    counts = [count(rp.hands[s], VALS) for s in range(n)]
    assert counts == [row[f"deadwood{s}"] for s in range(n)]
    outcome = spec.variant.outcomes[row["outcome"]]
    out = outcome in ("out", "rummy")
    ender = row["ender"]
    if out:
        assert rp.hands[ender] == []
        last_own = rp.turns[-1][1]
        assert (outcome == "rummy") == (not {t for t in rp.plays.get(ender, set()) if t < last_own})
    want = settle(counts, ender if out else None, outcome == "rummy", penalty=False,
                  rummy_bonus=spec.rules.rummy_bonus)
    assert want == [row[f"score{s}"] for s in range(n)]
    return row, evs, rp


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_early_deals_replay_and_settle(deal):
    for k in range(30):
        _check(2 + k % 5, k, rules=[f"deal={deal}"], strategies="simple" if k % 2 else "strong")


@pytest.mark.parametrize("deal", [4, 5, 6])
def test_late_deals_lay_all_seven_at_once_or_nothing(deal):
    outs = 0
    for k in range(30):
        row, evs, rp = _check(2 + k % 5, k, rules=[f"deal={deal}"])
        players = {s for kind, s, a, b in evs if kind in ("spread", "hit", "swap")}
        assert players <= {row["ender"]}
        if players:
            outs += 1
            assert row["outcome"] == 1, "an out in deals 4-6 is always all at once: rummy"
            assert set(rp.plays[row["ender"]]) == {rp.turns[-1][1]}
    assert outs > 0


def test_hand_rows_cycle_through_the_six_deals():
    cols = play_hands("wrotham", n_hands=60, seed=2)
    assert (cols["deal"] == np.arange(60) % 6 + 1).all()
    cols = play_hands("wrotham", n_hands=12, seed=2, rules=["deal=5"])
    assert (cols["deal"] == 5).all()


def test_joker_swaps_happen_and_replay():
    swaps = 0
    for k in range(200):
        row, evs, rp = _check(2 + k % 3, k, rules=["deal=1"], seed=9)
        swaps += sum(1 for e in evs if e[0] == "swap")
    assert swaps > 0


def test_whole_games_are_six_deals():
    cols = play_hands("wrotham", n_hands=30, seed=4, mode="games")
    assert (cols["hands"] - cols["voids"] == 6).all()
    pts = np.stack([cols[f"points{s}"] for s in range(4)], axis=1)
    assert (pts[np.arange(30), cols["winner"]] == pts.max(axis=1)).all()
