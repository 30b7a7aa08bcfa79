"""The Gin preset ``marjj`` (MARJJ_v5's policy, sim/strategies/marjj.py): its decisions on
hand-built positions, each right answer worked out by hand from the rules of the Java player
(MARJJ_v5-1.java: willDrawFaceUpCard, getDiscard and its Helper, getFinalMelds, getBestMeld),
and whole games under the ``eaai`` rule set."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.cli import main as cli_main
from sim.core import rng
from sim.core.cards import parse_cards
from sim.knock.melds import MAX_MELDS, min_deadwood
from sim.runner import play_hands
from sim.strategies import knock as K
from sim.strategies import marjj as M
from sim.strategies import parse_strategy
from sim.variants import gin
from tests.support import ROOT


T = gin.TABLES
TABLES = (T.run_value, T.suit_total, T.rank_value)


def mask(cards: str) -> np.uint64:
    return np.uint64(sum(1 << int(c) for c in parse_cards(cards))) if cards else np.uint64(0)


def code(card: str) -> int:
    return int(parse_cards(card)[0])


def srow(spec: str = "marjj") -> np.ndarray:
    return parse_strategy(spec, "gin").row


ALL = mask(" ".join(r + s for r in "A23456789TJQK" for s in "SHDC"))
MELDS = "AS 2S 3S 6S 7S 8S 4H 5H 6H"          # three runs: nothing else melds with them below


# ----------------------------------------------------------------------------------------
# the danger score (getOpponentDeadwoodImprovement)

@pytest.mark.parametrize("card, hand, opp, seen, want", [
    # 6H and 8H the opponent's: a run for it (+20); the card alone of its rank unavailable (+4)
    ("7H", "7H", "6H 8H", "6H 8H", 24.0),
    # no card above a king, QS seen: a run it cannot make (-10); KS, KH held: two of the rank (-4)
    ("KS", "KS KH", "", "QS", -14.0),
    # a queen: the missing second card above marks the king unavailable (-5), no more; +4 alone
    ("QD", "QD", "", "", -1.0),
    ("JD", "JD", "", "", 4.0),
    # two cards of the rank the opponent's (+20, and then no one-card penalty)
    ("5C", "5C", "5H 5S", "5H 5S", 20.0),
    # an ace: nothing below it, nor two below (-5 - 3), +4 alone
    ("AS", "AS", "", "", -4.0),
    # KC next to the opponent's QC, JC (+5 + 3), nothing above (-5), KC KD held (-4)
    ("KC", "KC KD", "QC JC", "QC JC QD JD", -1.0),
    # KD next to seen QD, JD: a run nobody makes (-10), KC KD held (-4)
    ("KD", "KC KD", "QC JC", "QC JC QD JD", -14.0),
])
def test_danger_scores_as_the_java_player(card, hand, opp, seen, want):
    assert M.danger(code(card), mask(hand), mask(opp), mask(seen)) == want


# ----------------------------------------------------------------------------------------
# the look-ahead and the discard (getUnmeldedCards, getFutureDeadwoodImprovement)

def test_lookahead_averages_the_best_deadwoods_after_a_draw():
    rest = mask(MELDS + " KD")                  # deadwood 10
    # draw QD: discard KD or QD, 10 left; draw 2C: discard KD, 2 left; mean 6
    assert M.lookahead(rest, mask("QD 2C"), *TABLES) == 6.0
    assert M.lookahead(rest, np.uint64(0), *TABLES) == 0.0


def test_discard_weighs_look_ahead_and_danger_against_the_least_deadwood():
    hand = mask(MELDS + " KD 9C")
    opp = mask("QD JD")                        # the opponent took QD and JD from the pile
    seen = ALL & ~mask("8C 5D")                # only 8C and 5D unseen
    # KD: 9 left, draws 8C -> 8, 5D -> 5: 9 + 18 * 6.5 = 126; danger -5 + 8 - 10 = -7: 119
    # 9C: 10 left, draws 8C -> 8, 5D -> 5: 10 + 117 = 127; danger -10 - 10 = -20: 107
    c, dw = M.marjj_discard(hand, np.uint64(0), opp, seen, 1, *TABLES, rng.new_state(1, 0, 0))
    assert (c, dw) == (code("9C"), 10)
    assert K.choose_discard(srow("simple"), hand, np.uint64(0), opp, *TABLES, rng.new_state(1, 0, 0))[0] == code("KD")
    assert M.danger(code("KD"), hand, opp, seen) == -7.0 and M.danger(code("9C"), hand, opp, seen) == -20.0


def test_discard_candidates_are_the_costly_deadwood_cards():
    # KC and 4D are deadwood; 4D is worth less than KC - 5: KC is the only candidate
    hand = mask(MELDS + " KC 4D")
    st = rng.new_state(1, 0, 0)
    assert M.marjj_discard(hand, np.uint64(0), np.uint64(0), hand, 1, *TABLES, st) == (code("KC"), 4)
    # the card taken from the pile is never discarded: 4D then
    assert M.marjj_discard(hand, mask("KC"), np.uint64(0), hand, 1, *TABLES, st) == (code("4D"), 10)


def test_a_discard_to_gin_is_taken_even_when_every_card_is_melded():
    hand = mask("AS 2S 3S 4S 6S 7S 8S 4H 5H 6H 7H")     # 11 cards in melds
    c, dw = M.marjj_discard(hand, np.uint64(0), np.uint64(0), hand, 5, *TABLES, rng.new_state(1, 0, 0))
    assert dw == 0 and c in {code(x) for x in ("AS", "4S", "4H", "7H")}


# ----------------------------------------------------------------------------------------
# the upcard (willDrawFaceUpCard) and the knock (getFinalMelds)

def test_upcard_only_when_it_melds_and_a_discard_then_lowers_the_deadwood():
    gin_hand = mask("AS 2S 3S 6S 7S 8S 4C 5C 6C JH")     # deadwood 10 (JH)
    dw = min_deadwood("AS 2S 3S 6S 7S 8S 4C 5C 6C JH").deadwood
    assert K.wants_upcard(srow(), gin_hand, dw, code("7C"), *TABLES)   # 4-7C, throw JH: 0 left
    melded = mask("AS 2S 3S 4S 6S 7S 8S 4C 5C 6C")       # gin already
    # 7C melds with 4-6C, but no discard leaves less than the 0 deadwood it had: no
    assert not K.wants_upcard(srow(), melded, 0, code("7C"), *TABLES)
    assert K.wants_upcard(srow("simple"), melded, 0, code("7C"), *TABLES)
    assert not K.wants_upcard(srow(), gin_hand, dw, code("KD"), *TABLES)   # in no meld


def test_upcard_in_the_meld_its_spread_rule_picks_when_two_arrangements_tie():
    hand = mask("5S 8S 9S AH 3D QD 4C 8C 9C TC")      # 40 deadwood: 8-TC melded
    up = code("9D")
    # with 9D two minimum arrangements leave 49: the nines (lay-off points 9: 9H unseen) or 8-TC
    # (7C and JC unseen: 8 + 10); MARJJ picks the nines, 9D melded; throwing QD leaves 39 < 40
    t = (T.run_value, T.run_cover, T.run_starts, T.suit_total, T.rank_value)
    assert M.marjj_takes(hand, 40, up, np.uint64(0), hand, *t)
    assert not K.wants_upcard(srow(), hand, 40, up, *TABLES)       # without what was seen: every arrangement
    # 7C and JC seen on the pile: the run has no open end (0 points), MARJJ picks it, 9D unmelded
    assert not M.marjj_takes(hand, 40, up, np.uint64(0), hand | mask("7C JC"), *t)


def test_knocks_on_its_first_three_turns_then_only_for_gin():
    r = srow()
    assert [K.knock_threshold(r, t, 30 - t) for t in (1, 2, 3, 4, 9)] == [10, 10, 10, 0, 0]


# ----------------------------------------------------------------------------------------
# the spread (getBestMeld): the minimum arrangement with the fewest lay-off points

def test_spread_points_count_the_open_ends():
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    h = mask("5H 6H 7H 9S 9H 9D")
    dw, n, _ = M.arrangement_marjj(h, np.uint64(0), h, T.run_value, T.run_cover, T.run_starts, T.suit_total,
                                   T.rank_value, melds)
    # run 5-7H: 4H and 8H unseen, the run's end cards count: 5 + 7; set of nines missing 9C: 9
    assert dw == 0 and M.spread_points(melds, n, np.uint64(0), h, T.rank_value) == 21
    assert M.spread_points(melds, n, np.uint64(0), h | mask("8H"), T.rank_value) == 14    # 8H seen
    assert M.spread_points(melds, n, mask("8H"), h | mask("8H"), T.rank_value) == 21      # 8H the opponent's


def test_spread_leaves_the_fewest_lay_off_points_by_what_was_seen():
    h = mask("4H 5H 6H 5S 5D KC KD KS AC 2C")
    # two minimum arrangements (deadwood 13): run 4-6H (4 + 6 points while 3H, 7H are unseen)
    # or the fives (5: 5C unseen); the kings count 10 (KH) in both
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)

    def spread(seen):
        dw, n, dead = M.arrangement_marjj(h, np.uint64(0), h | seen, T.run_value, T.run_cover, T.run_starts,
                                          T.suit_total, T.rank_value, melds)
        assert dw == 13
        return dead

    assert spread(np.uint64(0)) == mask("4H 6H AC 2C")          # the fives shown: 15 points against 20
    assert spread(mask("3H 7H")) == mask("5S 5D AC 2C")         # the run's ends seen: 10 against 15


# ----------------------------------------------------------------------------------------
# whole games

def test_marjj_plays_whole_games_and_hands_against_eaai_simple():
    g = play_hands("gin", rule_set="eaai", strategies="marjj,eaai-simple", n_hands=30, seed=4, mode="games")
    assert ((g["winner"] == 0) | (g["winner"] == 1)).all() and (g["hands"] >= 1).all()
    h = play_hands("gin", rule_set="eaai", strategies="eaai-simple,marjj", n_hands=300, seed=4)
    kd = h["knock_deadwood"]
    knocked_by_marjj = (h["ender"] == 1) & (kd >= 0)
    late = knocked_by_marjj & (h["knock_turn"] >= 4)
    assert (kd[late] == 0).all()                     # from its fourth turn on it knocks only for gin
    assert (h["score0"] + h["score1"] == 0).all()


def test_marjj_is_listed(capsys):
    assert cli_main(["strategies", "--variant", "gin"]) in (0, None)
    out = capsys.readouterr().out
    assert "marjj              upcard=3, discard_rule=2, arrange=3, gin_after=4" in out


# ----------------------------------------------------------------------------------------
# scripts/crosscheck_marjj.py: the hands of the framework's log by knocker

def _script(name):
    import importlib.util
    import sys
    scripts = ROOT / "scripts"
    sys.path.insert(0, str(scripts))
    spec = importlib.util.spec_from_file_location(name, scripts / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_crosscheck_sorts_the_frameworks_hands_by_knocker():
    eaai, mod = _script("crosscheck_eaai"), _script("crosscheck_marjj")
    start = ["Player 0 is dealt [AS].", "Player 1 is dealt [3D].", "Player 1 starts.", "The initial face up card is 5D."]
    log = start + ["Player 1 draws 9S.", "Player 1 discards 9S.",
                   "Player 1 melds [[3C, 4C, 5C]] with 9 deadwood from [9C].",
                   "Player 0 undercuts and scores the undercut bonus of 25 plus deadwood difference of 2 for 27 "
                   "total points."]
    log += start + ["Player 1 draws 9S.", "Player 1 discards 9S.", "Player 0 draws 9S.", "Player 0 discards 2H.",
                    "Player 0 goes gin with melds [[8S, 8D, 8C]].",
                    "Player 0 scores the gin bonus of 25 plus opponent deadwood 12 for 37 total points.",
                    "Player 0 wins."]
    hands = list(eaai.parse_hands(log))
    cols = eaai.framework_columns(hands)
    assert list(cols["knocker"]) == [1, 0] and list(cols["player0"]) == [27, 37]
    codes = mod.by_knocker([h["outcome"] for h in hands], cols["knocker"])
    assert [mod.BY_KNOCKER[c] for c in codes] == ["undercut of simple", "gin by marjj"]
    assert mod.BY_KNOCKER[mod.by_knocker(["void"], [-1])[0]] == "void"
    assert "new MARJJ_v5(), new SimpleGinRummyPlayer()" in mod.DRIVER


def test_the_knockers_spread_follows_what_it_has_seen_in_the_showdown():
    from sim.core.trace import NO_TRACE
    from sim.runner import make_spec
    from sim.strategies import parse_strategies, strategy_matrix
    from sim.variants import gin_hand
    knocker = mask("4H 5H 6H 5S 5D KC KD KS AC 2C")        # the run 4-6H or the fives, 13 deadwood
    defender = mask("5C 8D TS QH JC 9C 2D 3S 7C 9D")       # no meld; 73 deadwood; 5C fits the fives
    rules = make_spec("gin", rule_set="eaai").rules.to_array()
    strat = strategy_matrix(parse_strategies("marjj,simple", "gin", 2))
    pile = np.zeros(52, dtype=np.int64)
    picked = np.zeros(2, dtype=np.uint64)

    def defender_deadwood(on_pile: str):
        cards = [code(c) for c in on_pile.split()]
        pile[:len(cards)] = cards
        hands = np.array([knocker, defender], dtype=np.uint64)
        known = gin_hand.knowledge(hands, pile, len(cards), picked)
        assert known[0, 0] == knocker | mask(on_pile) and known[0, 1] == 0
        row = np.zeros(len(gin.VARIANT.columns(2)), dtype=np.int64)
        gin_hand.showdown(rules, strat, hands, np.int64(0), np.int64(13), np.bool_(False), T.run_value, T.run_cover,
                          T.run_starts, T.suit_total, T.rank_value, row, np.zeros((2, 1), dtype=np.uint64), NO_TRACE,
                          known)
        return row[gin_hand.C_DW + 1]

    assert defender_deadwood("2S") == 68          # the fives shown (fewer lay-off points): 5C laid off
    assert defender_deadwood("3H 7H") == 73       # the run's ends seen on the pile: the run shown instead
    assert gin_hand.seen_by(mask("AS"), pile, 2, np.array([mask("KD"), mask("QC")])) == mask("AS 3H 7H KD QC")


def test_the_knock_equilibrium_leaves_the_slow_preset_out():
    from analysis.studies.knock_equilibrium import knock_presets
    from sim.strategies import FAMILIES, _load_families
    _load_families()
    names = knock_presets(FAMILIES["threshold"], "gin")
    assert "marjj" not in names and {"simple", "eaai-simple", "strong"} <= set(names)


def test_the_replay_of_the_frameworks_log_checks_marjjs_own_decisions():
    mod = _script("crosscheck_marjj")
    log = ["Player 0 is dealt [AS, 2S, 3S, 6S, 7S, 8S, 4H, 5H, 6H, KC].",
           "Player 1 is dealt [2C, 5C, 8C, JC, 2D, 6D, TD, QD, 9H, JH].",
           "Player 0 starts.", "The initial face up card is 9D.",
           "Player 0 declines 9D.", "Player 1 declines 9D.",     # 9D melds with nothing: declined
           "Player 0 draws 4D.",                                 # both passed: no offer
           "Player 0 discards KC.",                              # 4D is worth less than KC - 5
           "Player 0 has [[AS, 2S, 3S], [6S, 7S, 8S], [4H, 5H, 6H], [4D]] with 4 deadwood.",
           "Player 0 melds [[AS, 2S, 3S], [6S, 7S, 8S], [4H, 5H, 6H]] with 4 deadwood from [4D]."]
    n = mod.replay(log)
    assert n == {"upcard": 1, "upcard_same": 1, "discard": 1, "discard_same": 1, "discard_engine_seen": 0,
                 "knock": 1, "knock_same": 1}
    other = [x.replace("discards KC", "discards 4D") for x in log[:8]] + ["Player 1 draws 9D."]
    n = mod.replay(other)
    # KC left: 10 deadwood on turn 1, where MARJJ knocks; the log goes on: neither decision alike
    assert (n["discard_same"], n["knock"], n["knock_same"]) == (0, 1, 0)
    assert "discards among rummylab's best 0 of 1" in mod.replay_lines(n)
