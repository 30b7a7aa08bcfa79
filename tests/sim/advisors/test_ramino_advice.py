"""Ramino Klop's "should I knock here?" advisor (sim.advisors.advisor with the declaration in
sim.variants.ramino_klop): two-pack worlds,
the settlement of a knock, reproducibility, advice and bad input."""

import numpy as np
import pytest

from analysis.cli import main
from analysis.studies.knock_advice import AdviceError, advise
from sim.advisors import worlds as K
from sim.advisors import advisor as AD
from sim.variants import ramino_klop as RK
from sim.core.cards import CardError, parse_cards, standard_pack
from sim.core.errors import UserInputError
from sim.wild.wild_melds import min_deadwood

FULL = np.bincount(standard_pack(2, 4), minlength=64)
HAND_5 = "AS 2S 3S X 7H 7D 5C"          # deadwood 5 (5C)
HAND_1 = "AS 2S 3S 7H 7D 7C AH"         # deadwood 1 (AH)


def _prep(hand=HAND_5, *, players=4, turn=3, upcard=None, discards=None, stock=None, seed=5,
          opp_model="played", opponent="simple", rules=None, debug=True):
    return AD.prepare(RK.VARIANT, hand, turn=turn, upcard=upcard, discards=discards, spreads=(), players=players,
                      opponent=opponent, strategy="simple", rules=rules, stock=stock, opp_cards=None,
                      first_upcard=None, history=None, seed=seed, opp_model=opp_model, debug=debug)


def _counts(text):
    return np.bincount(parse_cards(text, n_packs=2, n_jokers=4), minlength=64)


def _cards(counts):
    return np.repeat(np.arange(64), counts)


@pytest.mark.parametrize("players, model, upcard, discards", [
    (4, "played", "KD", "5D 5D QS X"),
    (2, "uniform", None, "AS"),
    (6, "played", None, None),
])
def test_worlds_conserve_the_two_pack_multiset(players, model, upcard, discards):
    prep = _prep(players=players, opp_model=model, upcard=upcard, discards=discards)
    out, lay = prep.call(0, 60, with_hands=True)
    known = _counts(" ".join(x for x in (upcard, discards) if x))
    mine = _counts(HAND_5)
    pool = FULL - mine - known
    assert (pool >= 0).all()
    for w in range(lay.shape[0]):
        hands, stock, pile = lay[w, :players], lay[w, players], lay[w, players + 1]
        # every card of the 108 once: my hand, the opponents' hands, the stock, the pile
        assert (hands.sum(axis=0) + stock + pile == FULL).all()
        assert (hands[0] == mine).all()
        assert (hands[1:].sum(axis=1) == 7).all() and stock.sum() == prep.info["stock"]
        # the unseen cards are dealt from the pool: the known discards and upcard are in the pile
        assert (hands[1:].sum(axis=0) + stock + pile - known == pool).all()
        assert (pile >= known).all()
    assert (out[:, K.TRIES] >= 1).all()
    if model == "uniform":
        assert (out[:, K.TRIES] == 1).all()


def test_worlds_are_reproducible_from_the_seed_and_independent_of_batching():
    prep = _prep(seed=11)
    whole, lay = prep.call(0, 90, with_hands=True)
    parts = [prep.call(0, 25), prep.call(25, 1), prep.call(26, 64)]
    assert (np.concatenate(parts) == whole).all()
    again, lay2 = _prep(seed=11).call(0, 90, with_hands=True)
    assert (again == whole).all() and (lay2 == lay).all()
    tail, lay3 = prep.call(40, 50, with_hands=True)
    assert (tail == whole[40:]).all() and (lay3 == lay[40:]).all()
    other = _prep(seed=12).call(0, 90)
    assert not (other == whole).all()


@pytest.mark.parametrize("hand, players, model", [(HAND_5, 4, "played"), (HAND_1, 3, "uniform"),
                                                  ("4H 5H X 9S 9C 9D 2C", 2, "played"),
                                                  ("KS KH KD QC QH QD X", 5, "uniform")])
def test_knock_now_is_the_settlement_of_the_worlds_hands(hand, players, model):
    prep = _prep(hand, players=players, opp_model=model, seed=3)
    out, lay = prep.call(0, 40, with_hands=True)
    for w in range(out.shape[0]):
        pen = [min_deadwood(_cards(lay[w, s])).deadwood for s in range(players)]
        lead = sum(p - pen[0] for p in pen[1:])       # (n-1) * (avg opponent - mine)
        assert out[w, K.K_PTS] == lead
        assert out[w, K.K_WIN] == int(all(p > pen[0] for p in pen[1:]))
        if model == "played":   # an opponent at <= 6 after its last turn would have knocked
            assert min(pen[1:]) > 6
    assert prep.scale == pytest.approx(1 / (players - 1)) and prep.unit == "penalty lead"


def test_a_low_knock_is_advised_and_the_cli_prints_the_advice(capsys):
    a = advise("ramino-klop", HAND_1, turn=3, players=4, budget_s=2.0, seed=1)
    assert a.hand_score == 1 and a.recommendation == "knock" and a.diff.lo > 0
    assert a.unit == "penalty lead" and a.ev_knock.lo > 0 and a.stopped == "ci"
    # 8 cards: the exact best discard, ties to the highest card as the strategies break them
    r = advise("ramino-klop", "AS 2S 3S 7H 7D 7C 4D 4H", turn=2, players=3, worlds=300, seed=2,
               opp_model="uniform")
    assert r.discard == "4D" and r.upcard == "4D" and r.hand_score == 4 and r.worlds == 300
    assert r.hand == ("AS", "2S", "3S", "7H", "7D", "7C", "4H")
    code = main(["knock", "--variant", "ramino-klop", "--players", "4", "--hand", HAND_5,
                 "--turn", "3", "--budget", "1"])
    text = capsys.readouterr().out
    assert code == 0 and "recommendation:" in text and "penalty lead per hand" in text
    assert "confidence sequence" in text and "deadwood 5" in text


@pytest.mark.parametrize("kwargs, err, match", [
    (dict(hand="AS AS AS 2S 3S 7H 7D"), CardError,
     "AS appears 3 times; a pack of this game holds it 2 times"),
    (dict(hand="X X X X X AS 2S"), CardError, "5 jokers given but this pack has 4"),
    (dict(hand="AS AS 2S 3S 7H 7D X", upcard="AS"), CardError, "AS is given 3 times"),
    (dict(hand=HAND_5, discards="5C 5C"), CardError, "5C is given 3 times"),
    (dict(hand="AS 2S 3S X 7H 7D 9C"), AdviceError, "a Ramino knock needs deadwood below 7: .* deadwood 9"),
    (dict(hand="AS 2S 3S 7H 7D 7C 9D 9D"), AdviceError, "deadwood below 7: .* deadwood 9"),
    (dict(hand="AS 2S 3S X 7H 7D 5C", rules=["knock_below=5"]), AdviceError, "below 5"),
    (dict(hand="AS 2S 3S X 7H 7D"), AdviceError, "holds 7 cards \\(or 8 before discarding\\), got 6"),
    (dict(hand=HAND_5 + " 9S 9H"), AdviceError, "got 9"),
    (dict(hand=HAND_5, players=7), AdviceError, "2 to 6 players"),
    (dict(hand=HAND_5, stock=90), AdviceError, "stock 90 is impossible"),
    (dict(hand=HAND_5, stock=10), AdviceError, "stock 10 is impossible on your turn 3"),
    (dict(hand=HAND_5, opponent="simple(knock=8)"), UserInputError, "knock=8 can never knock"),
    (dict(hand=HAND_5, opponent="simple,simple"), AdviceError, "2 opponent strategies given for 3"),
])
def test_bad_positions_raise_clear_errors(kwargs, err, match):
    kw = dict(turn=3, players=4, worlds=10)
    kw.update(kwargs)
    with pytest.raises(err, match=match):
        advise("ramino-klop", **kw)


def test_a_joker_is_refused_in_a_one_pack_game_without_jokers():
    with pytest.raises(CardError, match="1 jokers given but this pack has 0"):
        advise("knock-rummy", "AS 2S 3S X 7H 7D 9C", turn=3, players=4, worlds=10)


def test_random_opponents_draw_from_the_worlds_strategy_generators():
    """``random`` opponents (replayed turns and play on at random, under ``debug``): the
    worlds are reproducible, and they play worse than ``simple`` ones (playing on pays more)."""
    a = _prep(opponent="random").call(0, 300)
    assert (a == _prep(opponent="random").call(0, 300)).all()
    s = _prep().call(0, 300)
    d = (a[:, K.P_PTS] - s[:, K.P_PTS]).astype(float)
    assert d.mean() - 3 * d.std(ddof=1) / np.sqrt(d.size) > 0


def test_default_stock_follows_the_restock_rule():
    """Every draw from the stock: after the first restock the stock is the whole pile turned
    over (the stock after the deal and upcard plus the upcard), or all but its top with
    ``restock_keep_top``.  Six players: 65 cards after the deal; draw 66 is the first from the
    new stock, turn 12 holds draw 67."""
    notes: list = []
    r, keep = RK.RaminoKlopRules(players=6), RK.RaminoKlopRules(players=6, restock_keep_top=True)
    assert RK.advice_stock(r, 6, 11, None, 0, notes) == 65 - 61       # draw 61, no restock yet
    assert RK.advice_stock(r, 6, 12, None, 0, notes) == 64            # draw 67: 66 turned over, 2 drawn
    assert RK.advice_stock(keep, 6, 12, None, 0, notes) == 63         # 65 turned over, 2 drawn
    assert "turned over 1 time(s)" in notes[-1]
