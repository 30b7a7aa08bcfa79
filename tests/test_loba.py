"""Loba: the rules' options and refusals, the settlement of simulated hands against the
pure-Python reference (tests/drift_loba_reference.py) on replayed traces, whole games with
buy-backs, and the buy-back study."""

import numpy as np
import pytest

from sim.errors import UserInputError
from sim.runner import make_spec, play_hands
from sim.variants import get_variant
from sim.variants import loba as LB
from tests import drift_loba_reference as REF


def test_rules_defaults_follow_the_rules_file():
    r = LB.LobaRules()
    assert (r.players, r.joker_penalty, r.penalty_limit, r.buybacks) == (4, 25, 100, 2)
    v = get_variant("loba")
    assert (v.min_players, v.max_players) == (2, 5)
    assert v.game.kind == "elimination" and v.game.buyback_rule == "buybacks"


def test_six_players_are_refused():
    with pytest.raises(UserInputError, match="players=6 is out of range"):
        make_spec("loba", players=6)


def test_reference_points():
    assert REF.card_points(0x00, "loba") == 10            # ace
    assert REF.card_points(0x1C, "loba") == 10            # king of hearts
    assert REF.card_points(0x26, "loba") == 7
    assert REF.card_points(13, "loba", joker_penalty=25) == 25
    assert REF.card_points(13, "loba", joker_penalty=50) == 50


CASES = [(2, "simple", []), (4, "simple", []), (5, "simple", []), (4, "random", []),
         (3, "simple", ["restock_shuffle=on", "joker_penalty=50"]), (4, "simple", ["last_card_must_be_discarded=on"])]


@pytest.mark.parametrize("players,strategies,rules", CASES)
def test_traced_hands_replay_and_settle_by_the_rules(players, strategies, rules):
    """Every hand replays, leaves only legal piernas and escaleras, keeps the take and joker
    rules, and scores as the reference says (-10 for going out all at once)."""
    from tests.open_replay import traced_hand
    restock = "shuffle" if "restock_shuffle=on" in rules else "turn_over"
    outs = 0
    for h in range(30):
        row, evs, spec = traced_hand("loba", players, h, seed=6, strategies=strategies, rules=rules)
        r, _ = REF.replay_hand(evs, restock)
        for meld in r.table:
            assert REF.legal_meld(meld, "loba"), (h, meld)
        for breach in REF.turn_checks(evs, "loba"):
            assert "joker discarded" in breach, (h, breach)
            i = int(breach.rsplit(" ", 1)[1])             # allowed only from a hand of jokers alone
            assert set(REF.replay_hand(evs[:i], restock)[0].hands[evs[i][1]]) == {REF.JOKER}, (h, breach)
        out = row["outcome"] in (LB.O_OUT, LB.O_AT_ONCE)
        outs += out
        assert out == (r.ender >= 0 and not r.hands[r.ender])
        last = max((t[1] for t in r.turns if t[0] == r.ender), default=0)
        at_once = out and r.plays.get(r.ender, set()) <= {last}
        assert (row["outcome"] == LB.O_AT_ONCE) == at_once, h
        want = REF.settle(r.hands, r.ender if out else -1, players, "loba", at_once=at_once,
                          joker_penalty=spec.rules.joker_penalty)
        assert {k: row[k] for k in want} == want, h
    assert outs >= 20


def test_whole_games_buy_back_at_most_twice_and_end_with_one_player():
    cols = play_hands("loba", n_hands=150, seed=3, players=4, mode="games")
    bought = np.stack([cols[f"buybacks{s}"] for s in range(4)], axis=1)
    assert (bought <= 2).all() and bought.sum() > 0
    pts = np.stack([cols[f"points{s}"] for s in range(4)], axis=1)
    win = pts[np.arange(150), cols["winner"]]
    assert ((win < 100) | (win <= pts.min(axis=1))).all()          # all over together: the lowest stays
    never = play_hands("loba", n_hands=150, seed=3, players=4, mode="games", rules=["buybacks=0"])
    assert all((never[f"buybacks{s}"] == 0).all() for s in range(4))


def test_buyback_study_pairs_arms_on_the_same_games():
    from analysis.studies.buyback import buyback_value, format_buyback
    df = buyback_value("loba", players=3, games=120, seed=1, thresholds=(50,))
    assert list(df["arm"]) == ["never", "below 50", "always"]
    assert df["buybacks0"].iloc[0] == 0 and df["win0"].iloc[0] <= df["win0"].iloc[-1] + 0.05
    assert (df["share"].iloc[1:] > 0).all()
    assert "win prob. per buy-back" in format_buyback(df)
