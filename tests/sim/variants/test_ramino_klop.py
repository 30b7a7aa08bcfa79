"""Ramino Klop: knock legality, the table rules, restock, penalties against a slow reference,
deal sizes, refused strategies, elimination games."""

import numpy as np
import pytest

from sim.wild import closed_wild as CW
from sim.core.errors import UserInputError
from sim.runner import make_spec, play_hands
from sim.core.trace import events, new_trace
from sim.variants import ramino_klop as RK
from tests.support import wild_reference as REF
from tests.support.wild_replay import replay, traced_hand


def test_knocks_are_legal_and_follow_the_strategy():
    for strat, cap in (("simple", 6), ("simple(knock=3)", 3), ("simple(knock=0)", 0)):
        col = play_hands("ramino-klop", strategies=strat, n_hands=3000, seed=4, players=3)
        knock = col["outcome"] == RK.O_KNOCK
        rummy = col["outcome"] == RK.O_RUMMY
        assert (knock | rummy).all()                       # no stock-out: the pile is turned over
        assert (col["knock_deadwood"][rummy] == 0).all()
        assert ((col["knock_deadwood"][knock] >= 1) & (col["knock_deadwood"][knock] <= cap)).all()
        ender_dw = np.stack([col[f"deadwood{s}"] for s in range(3)], axis=1)[np.arange(3000), col["ender"]]
        assert (ender_dw == col["knock_deadwood"]).all()
    col = play_hands("ramino-klop", rules=["knock_below=3"], n_hands=2000, seed=5,
                     strategies="simple(knock=2)")
    assert (col["knock_deadwood"] <= 2).all()


def test_penalties_match_a_slow_reference_on_the_final_hands():
    for h in range(12):
        row, evs, spec = traced_hand("ramino-klop", 2 + h % 5, h, seed=31)
        r = replay(evs)
        n = spec.n_seats
        for s in range(n):
            dw = REF.min_deadwood(tuple(sorted(r.hands[s])), "ramino-klop")
            assert row[f"deadwood{s}"] == dw and row[f"score{s}"] == -dw
            assert len(r.hands[s]) == 7
        if row["outcome"] == RK.O_KNOCK:
            assert r.knock == (row["ender"], row["knock_deadwood"]) and 0 < r.knock[1] < 7
        low = min(row[f"deadwood{s}"] for s in range(n))
        lows = [s for s in range(n) if row[f"deadwood{s}"] == low]
        assert row["winner"] == (lows[0] if len(lows) == 1 else -1)


def test_set_duplicates_changes_the_melds_the_reference_allows():
    for h in range(6):
        row, evs, spec = traced_hand("ramino-klop", 4, h, seed=32, rules=["set_duplicates=on"])
        r = replay(evs)
        for s in range(4):
            assert row[f"deadwood{s}"] == REF.min_deadwood(tuple(sorted(r.hands[s])), "ramino-klop-dup")


def test_deal_sizes_and_turn_order():
    for n in range(2, 7):
        row, evs, _ = traced_hand("ramino-klop", n, 3, seed=7)
        r = replay(evs)
        assert sorted(r.dealt) == list(range(n)) and all(len(c) == 7 for c in r.dealt.values())
        first = r.turns[0][0]
        assert first == (row["dealer"] + 1) % n
        assert 108 - 7 * n - 1 - sum(1 for t in r.turns if not t[3]) == row["stock_left"] or r.restocks


def test_the_pile_card_is_never_discarded_and_restocks_turn_the_pile_over():
    seen = 0
    col = play_hands("ramino-klop", strategies="simple(knock=0)", n_hands=1000, seed=8, players=6)
    long = np.flatnonzero(col["turns"] > 108 - 43 + 5)[:3]    # rummy only: some hands restock
    for shuffle in (False, True):
        for h in [int(x) for x in long] + [5, 6]:
            row, evs, _ = traced_hand("ramino-klop", 6, h, seed=8, strategies="simple(knock=0)",
                                      rules=[f"restock_shuffle={'on' if shuffle else 'off'}"])
            r = replay(evs, shuffled=shuffle)    # asserts the table rules turn by turn
            seen += len(r.restocks)
            if r.restocks:
                assert all(len(t) >= 1 for t in r.restocks)
    assert seen >= 2, "no restock happened: lengthen the hands"


def test_knock_thresholds_no_knock_reaches_are_refused():
    for bad in ("simple(knock=7)", "simple(knock_mid=9,mid_from=3)", "simple(knock_late=8,late_from=5)"):
        with pytest.raises(UserInputError, match="can never knock"):
            make_spec("ramino-klop", players=3, strategies=bad)
    make_spec("ramino-klop", players=3, strategies="simple(knock=9)", rules=["knock_below=10"])
    col = play_hands("ramino-klop", players=3, n_hands=500, seed=2, rules=["knock_below=4"])  # default capped
    assert (col["knock_deadwood"] <= 3).all()
    with pytest.raises(UserInputError, match="players=7 is out of range"):
        make_spec("ramino-klop", players=7)


def test_a_hand_deals_to_and_plays_only_the_seats_in_play():
    spec = make_spec("ramino-klop", players=5, n=1, seed=3)
    cfg, tabs = RK._setup(spec.rules.to_array())
    strat = spec.arrays()[1]
    seats = np.array([0, 2, 3], dtype=np.int64)
    from sim.core import rng
    for h in range(5):
        deck = np.empty(108, dtype=np.int64)
        dst = rng.new_state(9, rng.STREAM_DEAL, h)
        rng.shuffle_into(dst, tabs[0], deck)
        row = np.zeros(len(spec.columns), dtype=np.int64)
        trace = new_trace()
        st = np.zeros((5, 1), dtype=np.uint64)
        CW.play_hand(cfg, strat, seats, 2, deck, tabs, dst, st, row, True, trace)
        played = {s for k, s, a, b in events(trace) if k in ("deal", "draw_stock", "take_pile", "discard")}
        assert played == {0, 2, 3}
        col = dict(zip(spec.columns, row.tolist()))
        for s in (1, 4):
            assert col[f"score{s}"] == 0 and col[f"deadwood{s}"] == 0
        assert col["dealer"] == 2 and col["ender"] in (0, 2, 3)
        assert [s for k, s, a, b in events(trace) if k == "draw_stock" or k == "take_pile"][0] == 3


def test_elimination_games_end_with_one_player_left():
    n = 4
    col = play_hands("ramino-klop", players=n, n_hands=40, seed=6, mode="games")
    pts = np.stack([col[f"points{s}"] for s in range(n)], axis=1)
    for g in range(40):
        w = col["winner"][g]
        others = [s for s in range(n) if s != w]
        assert all(pts[g, s] >= 101 for s in others)
        # over the limit only when the last two went over together and it had the lower total
        assert pts[g, w] < 101 or any(pts[g, w] <= pts[g, s] for s in others)
        places = sorted(col[f"place{s}"][g] for s in range(n))
        assert places == list(range(1, n + 1))
    assert (col["hands"] >= 4).all()


def _variants_block(capsys, name):
    from analysis.cli import main
    assert main(["variants"]) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    return next(b for b in blocks if b.startswith(f"{name}:"))


@pytest.mark.parametrize("name", ["ramino-klop", "ramino-drift"])
def test_variants_lists_the_all_over_together_choice(capsys, name):
    """rules/ramino.md records it as a [choice]: when every player left reaches 101 in the same
    hand, the lowest total wins.  ``rummylab variants`` says so (WholeGame.notes), and the
    games do it (Klop); in Drift the player out scores 0, so it never happens."""
    from sim.variants import get_variant
    block = _variants_block(capsys, name)
    note = [line for line in block.splitlines() if line.startswith("  whole games: [choice]")]
    assert len(note) == 1 and "penalty_limit (101)" in note[0] and "lowest total" in note[0]
    assert "[choice]" in get_variant(name).game.notes[0]
    n = 4
    col = play_hands(name, players=n, n_hands=300, seed=18, mode="games")
    pts = np.stack([col[f"points{s}"] for s in range(n)], axis=1)
    place = np.stack([col[f"place{s}"] for s in range(n)], axis=1)
    win = pts[np.arange(300), col["winner"]]
    second = pts[place == 2]                              # out in the last hand, with the winner
    together = win >= 101                                 # the winner went over with the rest
    assert (win[together] <= second[together]).all()
    assert together.any() == (name == "ramino-klop") == ("cannot arise" not in note[0])
