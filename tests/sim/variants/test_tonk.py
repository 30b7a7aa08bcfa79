"""Tonk engine (sim.variants.tonk), its strategy family (sim.strategies.tonk) and the open
table it plays on (sim.knock.table)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from tests.support import tonk_reference as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sim.knock import table as TB
from sim.knock import table_plan as TP
from sim.core.cards import card_code, parse_cards, standard_pack
from sim.core.rules import RulesError
from sim.strategies import (
    StrategyError,
    parse_strategies,
    parse_strategy,
    strategy_matrix,
)
from sim.strategies import tonk as ST
from sim.core.trace import NO_TRACE
from sim.variants import get_variant, hand_columns
from sim.variants import tonk as TK
from tests.support.card_strategies import tables

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def smat(spec: str, n: int) -> np.ndarray:
    return strategy_matrix(parse_strategies(spec, "tonk", n))


def run_rows(n, spec="simple", seed=1, first=0, count=300, debug=True, **rules):
    r = TK.TonkRules(players=n, **rules)
    out = np.zeros((count, len(TK.VARIANT.columns(n))), dtype=np.int64)
    TK.play_chunk(r.to_array(), smat(spec, n), seed, first, out, debug=debug)
    return out


def cards(text):
    return [int(c) for c in parse_cards(text)]


def mask(text):
    m = 0
    for c in cards(text):
        m |= 1 << c
    return m


def play(hands, strategies, stock="", discard="", spreads=(), seat=0, **kw):
    rules = TK.TonkRules(players=len(hands), **kw.pop("rules", {}))
    pos = TK.make_position(hands, stock=stock, discard=discard, spreads=spreads)
    return TK.play_position(rules, smat(strategies, len(hands)), pos, seat, **kw)


# --- registry, rules, strategies --------------------------------------------------------------

def test_variant_is_registered_with_its_columns():
    v = get_variant("tonk")
    assert v is TK.VARIANT and v.score_unit == "stakes" and (v.min_players, v.max_players) == (2, 6)
    assert v.outcomes == ("tonk_deal", "tonk_tie", "tonk_out", "out_discard", "knock_won",
                          "knock_caught", "stock_out")
    assert v.columns(3) == hand_columns(3, TK.EXTRA_COLUMNS)
    assert v.columns(3)[-5:] == ("knock_count", "knock_turn", "n_spreads", "deal_tonks", "redeals")


def test_rules_defaults_and_docstring_table():
    r = TK.TonkRules()
    assert (r.players, r.tonk_deal_min, r.tonk_tie_new_dealer, r.no_upcard, r.must_spread,
            r.tonk_out_needs_new_spread, r.stockout_laydown, r.knocker_tie_paid) == (
        2, 49, True, False, False, False, True, False)
    assert TK.TonkRules.VERSION == 2  # 2: the stock-out lay-down is on by default
    for f in TK.TonkRules.options():
        assert f"| {f.name}" in TK.__doc__ and f.metadata["help"]
    assert TK.TonkRules.from_options(["tonk_deal_min=50", "must_spread=on"]).tonk_deal_min == 50


@pytest.mark.parametrize("opts", [["tonk_deal_min=48"], ["tonk_deal_min=51"], ["players=7"],
                                  ["players=1"], ["no_upcard=maybe"], ["bogus=1"]])
def test_bad_rules_are_refused(opts):
    with pytest.raises(RulesError):
        TK.TonkRules.from_options(opts)


def test_strategy_presets_and_overrides():
    s = parse_strategy("drop(max_count=5)", "tonk")
    assert s.family is ST.FAMILY and s.values["max_count"] == 5
    row = s.row
    assert row[0] == ST.FAMILY_CODE == 2 and row[ST.P_MAX_COUNT] == 5
    simple = parse_strategy("simple", "tonk").row
    assert simple[ST.P_MAX_COUNT] == -1 and simple[ST.P_SPREAD_EAGERNESS] == 1
    assert simple[ST.P_HIT] == 1 and simple[ST.P_UPCARD_TAKE] == 0 and simple[ST.P_DISCARD_RULE] == 0
    assert parse_strategy("drop", "tonk").row[ST.P_MAX_COUNT] == 5
    assert parse_strategy("hold", "tonk").row[ST.P_SPREAD_EAGERNESS] == 0
    assert parse_strategy("tonk(min_turn=3,per_opp=-1)", "tonk").row[ST.P_MIN_TURN] == 3
    with pytest.raises(StrategyError):
        parse_strategy("drop(max_count=99)", "tonk")
    with pytest.raises(StrategyError):
        parse_strategy("drop(knock=5)", "tonk")


def test_kernel_refuses_mismatched_inputs():
    out = np.zeros((2, len(TK.VARIANT.columns(3))), dtype=np.int64)
    with pytest.raises(ValueError, match="players=2"):
        TK.play_chunk(TK.TonkRules().to_array(), smat("simple", 3), 0, 0, out)
    bad = smat("simple", 2)
    bad[:, 0] = 1
    with pytest.raises(ValueError, match="family"):
        TK.play_chunk(TK.TonkRules().to_array(), bad, 0, 0, np.zeros((2, 14), dtype=np.int64))


# --- payouts straight from rules/tonk.md -----------------------------------------------------

def settle_knock(counts, knocker, tie_paid=False):
    pay = np.zeros(len(counts), dtype=np.int64)
    outcome = TK.OUTCOMES[TK.settle_knock(np.array(counts, dtype=np.int64), knocker, pay, tie_paid)]
    return outcome, pay.tolist()


@pytest.mark.parametrize("counts, knocker, outcome, pay", [
    ([3, 20], 0, "knock_won", [1, -1]),                        # strictly lowest: 1x from each
    ([3, 20, 4, 9], 0, "knock_won", [3, -1, -1, -1]),
    ([5, 5], 0, "knock_caught", [-3, 3]),                      # tie: 2x to the tied + 1x as lowest
    ([7, 5], 0, "knock_caught", [-3, 3]),
    ([5, 5, 9], 0, "knock_caught", [-3, 4, -1]),               # knocker tied lowest never collects
    ([10, 8, 8, 12], 0, "knock_caught", [-6, 4, 4, -2]),       # two lowest each paid by everyone
    ([10, 4, 9, 12], 0, "knock_caught", [-5, 5, 1, -1]),       # 2x to both <=, 1x to the lowest
    ([6, 9, 6, 2], 2, "knock_caught", [1, -1, -5, 5]),         # equal count (seat 0) is paid 2x too
])
def test_knock_payouts(counts, knocker, outcome, pay):
    assert settle_knock(counts, knocker) == (outcome, pay)
    assert ref.knock_payout(counts, knocker) == (outcome, pay)


@pytest.mark.parametrize("counts, knocker, pay", [
    ([5, 5], 0, [-2, 2]),                 # 2x to the tied seat; the 1x each tied seat gets cancel
    ([5, 5, 9], 0, [-1, 3, -2]),          # the knocker is paid as one of the tied lowest
    ([6, 9, 6, 2], 2, [1, -1, -5, 5]),    # not tied for lowest: as without the option
    ([3, 20], 0, [1, -1]),                # strictly lowest: knock won as always
])
def test_knocker_tie_paid_collects_as_one_of_the_tied_lowest(counts, knocker, pay):
    assert settle_knock(counts, knocker, True)[1] == pay == ref.knock_payout(counts, knocker, True)[1]


@pytest.mark.parametrize("counts, pay", [([3, 9], [1, -1]), ([3, 3], [0, 0]),
                                         ([3, 3, 7], [1, 1, -2]), ([8, 2, 5, 2], [-2, 2, -2, 2]),
                                         ([4, 4, 4], [0, 0, 0])])
def test_stock_out_pays_the_lowest_and_each_tied_lowest(counts, pay):
    got = np.zeros(len(counts), dtype=np.int64)
    TK.settle_lowest(np.array(counts, dtype=np.int64), got)
    assert got.tolist() == pay == ref.stock_out_payout(counts)


@given(n=hs.integers(2, 6), data=hs.data())
@FAST
def test_settlements_match_reference_and_sum_to_zero(n, data):
    counts = data.draw(hs.lists(hs.integers(0, 50), min_size=n, max_size=n))
    knocker = data.draw(hs.integers(0, n - 1))
    tie_paid = data.draw(hs.booleans())
    o, pay = settle_knock(counts, knocker, tie_paid)
    assert (o, pay) == ref.knock_payout(counts, knocker, tie_paid) and sum(pay) == 0
    got = np.zeros(n, dtype=np.int64)
    TK.settle_lowest(np.array(counts, dtype=np.int64), got)
    assert got.tolist() == ref.stock_out_payout(counts) and got.sum() == 0
    TK.settle_collect(knocker, 2, got)
    assert got.tolist() == ref.collect_payout(n, knocker, 2) and got.sum() == 0


# --- whole turns from constructed positions ---------------------------------------------------
# The next seat uses drop(max_count=50): it drops at once, so a test sees exactly one turn.

STOCK = "2C 3D 4S 9C TD JS"


def test_drop_strictly_lowest_wins_single_stake():
    res = play(["AS 2H", "KH QH", "9D 8D"], "drop,simple,simple", stock=STOCK, discard="7C")
    assert res["outcome"] == "knock_won" and res["ender"] == 0
    assert res["pay"].tolist() == [2, -1, -1] and res["counts"].tolist() == [3, 20, 17]
    assert (res["knock_count"], res["knock_turn"], res["turns"]) == (3, 1, 1)


def test_drop_tied_pays_double_plus_lowest_single():
    res = play(["AS 4H", "2D 3D"], "drop,simple", stock=STOCK, discard="7C")
    assert res["outcome"] == "knock_caught" and res["pay"].tolist() == [-3, 3]


def test_drop_tied_with_knocker_tie_paid_pays_double_only():
    res = play(["AS 4H", "2D 3D"], "drop,simple", stock=STOCK, discard="7C", rules={"knocker_tie_paid": True})
    assert res["outcome"] == "knock_caught" and res["pay"].tolist() == [-2, 2]


def test_drop_waits_for_min_turn_and_not_when_forbidden():
    res = play(["AS 2H", "KH QH"], "drop(min_turn=2),drop(max_count=50)", stock=STOCK, discard="7C")
    assert res["ender"] == 1 and res["knock_turn"] == 1  # seat 0 played its turn, seat 1 dropped
    res = play(["AS 2H", "KH QH"], "drop,drop(max_count=50)", stock=STOCK, discard="7C",
               allow_drop_first=False)
    assert res["ender"] == 1 and res["turns"] == 2


def test_tonk_out_with_a_new_spread_pays_double():
    res = play(["5H 6H", "KS QS"], "simple", stock="4H 9C", discard="TC")
    assert res["outcome"] == "tonk_out" and res["pay"].tolist() == [2, -2]
    p = res["position"]
    assert p["ctr"][TK.C_SPREADS] == 1 and p["sp_owner"][0] == 0
    assert int(p["sp_cards"][0]) == mask("4H 5H 6H")


@pytest.mark.parametrize("needs_new, pay", [(False, 2), (True, 1)])
def test_tonk_out_by_hits_alone(needs_new, pay):
    res = play(["5H", "KS QS JD"], "simple", stock="4H 9C", discard="TC",
               spreads=[(1, "6H 7H 8H")], rules={"tonk_out_needs_new_spread": needs_new})
    assert res["outcome"] == "tonk_out" and res["pay"].tolist() == [pay, -pay]
    assert int(res["position"]["sp_cards"][0]) == mask("4H 5H 6H 7H 8H")
    assert res["position"]["sp_owner"][0] == 1  # hits go on anyone's spread; owner unchanged


def test_tonk_out_needs_new_spread_counts_spread_plus_hit_as_double():
    res = play(["5D 5C 9H", "KS QS JD"], "simple", stock="5S 9C", discard="TC",
               spreads=[(1, "6H 7H 8H")], rules={"tonk_out_needs_new_spread": True})
    assert res["outcome"] == "tonk_out" and res["pay"].tolist() == [2, -2]


def test_out_by_discard_pays_single():
    res = play(["5H 6H KS", "2S 3D", "9C 9D"], "simple", stock="4H 9S", discard="TC")
    assert res["outcome"] == "out_discard" and res["pay"].tolist() == [2, -1, -1]
    assert res["position"]["discard"][res["position"]["ctr"][TK.C_PILE] - 1] == card_code(12, 0)


def test_stock_out_when_the_next_player_declines_the_discard():
    res = play(["AS KH", "2S 3D", "JC QC", "TD 9D"], "simple", stock="", discard="7C")
    assert res["outcome"] == "stock_out" and res["ender"] == 0 and res["turns"] == 1
    assert res["counts"].tolist() == [11, 5, 20, 19] and res["pay"].tolist() == [-1, 3, -1, -1]
    res = play(["AS 4H", "2S 3D", "JC QC"], "simple", stock="", discard="7C")
    assert res["pay"].tolist() == [1, 1, -2]  # both lowest paid by everyone


@pytest.mark.parametrize("laydown, counts, pay, n_spreads", [
    (True, [11, 9, 6], [-1, -1, 2], 1),   # seat 1 lays 2-3-4S, then seat 2 hits 5S on it
    (False, [11, 18, 11], [1, -2, 1], 0),  # hands compared as they are: seats 0 and 2 tie
])
def test_stock_out_lay_down_in_turn_order_from_the_player_to_move(laydown, counts, pay, n_spreads):
    # seat 0 declines 7C with the stock empty; it lays down first, so its AS cannot go on the
    # 2-3-4S that seat 1 spreads after it
    res = play(["AS KH", "2S 3S 4S 9D", "5S 6D"], "simple", stock="", discard="7C",
               rules={"stockout_laydown": laydown})
    assert res["outcome"] == "stock_out" and res["ender"] == 0
    assert res["counts"].tolist() == counts and res["pay"].tolist() == pay
    p = res["position"]
    assert p["ctr"][TK.C_SPREADS] == n_spreads
    if laydown:
        assert p["sp_owner"][0] == 1 and int(p["sp_cards"][0]) == mask("2S 3S 4S 5S")


def test_stock_out_player_may_take_a_useful_discard_first():
    res = play(["7H 8H KS", "2S 3D"], "simple", stock="", discard="6H")
    # seat 0 takes 6H, spreads 6-8H, discards KS: out by discard
    assert res["outcome"] == "out_discard" and res["pay"].tolist() == [1, -1]


def test_hit_on_an_opponents_spread_then_discard_highest():
    res = play(["8H KS", "9D 9C"], "simple,drop(max_count=50)", stock="2C 3D", discard="TC",
               spreads=[(1, "5H 6H 7H")])
    p = res["position"]
    assert int(p["hands"][0]) == mask("2C") and int(p["sp_cards"][0]) == mask("5H 6H 7H 8H")
    assert p["discard"][p["ctr"][TK.C_PILE] - 1] == parse_cards("KS")[0]


def test_card_taken_from_the_pile_is_never_discarded():
    # careful takes 2C (count drops by >= 5), may not spread down to 2C alone, keeps the run
    res = play(["5H 6H 7H", "9D 9C"], "careful,drop(max_count=50)", stock="KC QC", discard="2C")
    p = res["position"]
    assert int(p["hands"][0]) == mask("5H 6H 2C") and p["ctr"][TK.C_SPREADS] == 0
    assert p["discard"][p["ctr"][TK.C_PILE] - 1] == parse_cards("7H")[0]


@pytest.mark.parametrize("must, hand_after", [(False, "5H 6H 7H 2C"), (True, "2C")])
def test_must_spread_forces_a_holder_to_lay_down(must, hand_after):
    res = play(["5H 6H 7H KS", "9D 9C"], "hold,drop(max_count=50)", stock="2C QC", discard="TC",
               rules={"must_spread": must})
    assert int(res["position"]["hands"][0]) == mask(hand_after)


@pytest.mark.parametrize("must, hand, after", [
    (True, "AS AH AD KS", "AS AH AD 2C"),     # three aces may stay in hand
    (False, "AS AH AD AC KS", "AS AH AD AC 2C"),
    (True, "AS AH AD AC KS", "2C"),           # four aces are a spread that must go down
])
def test_must_spread_lets_three_aces_stay(must, hand, after):
    res = play([hand, "9D 9C"], "hold,drop(max_count=50)", stock="2C QC", discard="TC",
               rules={"must_spread": must})
    assert int(res["position"]["hands"][0]) == mask(after)


def test_holder_tonks_out_with_two_spreads_at_once():
    res = play(["5H 6H 7H 8S 9S", "KD QC"], "hold", stock="TS 2C", discard="KC")
    assert res["outcome"] == "tonk_out" and res["pay"].tolist() == [2, -2]
    assert res["position"]["ctr"][TK.C_SPREADS] == 2


# --- the deal -----------------------------------------------------------------------------

def test_deal_one_card_at_a_time_from_the_left_of_the_dealer():
    deck = standard_pack()
    hands = np.zeros(3, dtype=np.uint64)
    discard = np.zeros(52, dtype=np.int64)
    ctr = np.zeros(TK.C_WIDTH, dtype=np.int64)
    TK.deal_from_deck(deck, 3, 1, False, hands, discard, ctr)
    for i in range(15):
        assert int(hands[(1 + 1 + i) % 3]) >> int(deck[i]) & 1
    assert discard[0] == deck[15] and ctr.tolist()[:3] == [16, 1, 0]
    TK.deal_from_deck(deck, 3, 1, True, hands, discard, ctr)
    assert ctr.tolist()[:3] == [15, 0, 0]


def test_deal_tonks_in_rows_agree_with_deal_tonk_flags():
    n, count = 6, 20_000
    flags = np.zeros((count, n), dtype=np.int64)
    TK.deal_tonk_flags(5, 0, count, n, 49, flags)
    rows = run_rows(n, count=count, seed=5, debug=False)
    nt = flags.sum(axis=1)
    assert (rows[:, -2] == nt).all()
    one, tie = nt == 1, nt >= 2
    assert one.sum() > 100 and tie.sum() >= 1
    assert (rows[one, 2] == TK.O_TONK_DEAL).all() and (rows[tie, 2] == TK.O_TONK_TIE).all()
    assert (rows[~(one | tie), 2] > TK.O_TONK_TIE).all()
    w = rows[one, 1]
    assert (flags[one][np.arange(one.sum()), w] == 1).all()
    scores = rows[:, 5:5 + n]
    assert (scores[one][np.arange(one.sum()), w] == 2 * (n - 1)).all()
    assert (scores[tie] == 0).all() and (rows[tie, 1] == -1).all()
    dw = rows[one | tie, 5 + n:5 + 2 * n]
    assert ((dw >= 49) == flags[one | tie].astype(bool)).all()
    assert (rows[one | tie, 3] == 0).all() and (rows[one | tie, 4] == 52 - 5 * n - 1).all()
    # tonk_deal_min=50 flags are a subset
    f50 = np.zeros_like(flags)
    TK.deal_tonk_flags(5, 0, count, n, 50, f50)
    assert (f50 <= flags).all() and f50.sum() < flags.sum()


def test_tied_deal_tonk_redealt_by_the_same_dealer_when_option_off():
    n, count = 6, 20_000
    flags = np.zeros((count, n), dtype=np.int64)
    TK.deal_tonk_flags(5, 0, count, n, 49, flags)
    rows = run_rows(n, count=count, seed=5, debug=False, tonk_tie_new_dealer=False)
    tie = flags.sum(axis=1) >= 2
    assert (rows[:, 2] != TK.O_TONK_TIE).all()
    assert (rows[tie, -1] >= 1).all() and (rows[~tie, -1] == 0).all()
    assert (rows[:, 0] == np.arange(count) % n).all()


# --- random play: invariants, determinism ----------------------------------------------------

SPECS = ["simple", "drop", "hold", "careful", "tonk(spread_eagerness=0.5,hit=0,max_count=8,min_turn=2)",
         "drop(max_count=10,min_opp_cards=3,per_opp=-2,discard_rule=1)"]


@given(n=hs.integers(2, 6), seed=hs.integers(0, 2**62), data=hs.data())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_keeps_every_invariant(n, seed, data):
    spec = ",".join(data.draw(hs.sampled_from(SPECS)) for _ in range(n))
    rules = {k: data.draw(hs.booleans()) for k in ("no_upcard", "must_spread", "tonk_out_needs_new_spread",
                                                     "tonk_tie_new_dealer", "stockout_laydown", "knocker_tie_paid")}
    rules["tonk_deal_min"] = data.draw(hs.sampled_from([49, 50]))
    # debug=True: card conservation, legal spreads and hand sizes checked at every turn
    rows = run_rows(n, spec, seed=seed, first=data.draw(hs.integers(0, 10**6)), count=60, **rules)
    check_rows(rows, n, rules)


def check_rows(rows, n, rules):
    dealer, ender, outcome, turns, stock_left = rows[:, :5].T
    scores, counts = rows[:, 5:5 + n], rows[:, 5 + n:5 + 2 * n]
    kc, kt, n_sp, nt, redeals = rows[:, 5 + 2 * n:].T
    assert (scores.sum(axis=1) == 0).all()
    assert ((0 <= counts) & (counts <= 60)).all()
    assert ((0 <= stock_left) & (stock_left <= 52 - 5 * n)).all()
    played = outcome >= TK.O_TONK_OUT
    assert (turns[played] >= 1).all() and (turns[~played] == 0).all()
    assert (n_sp[~played] == 0).all() and (n_sp <= 17).all()
    idx = np.arange(len(rows))
    for o, units in ((TK.O_TONK_OUT, (1, 2)), (TK.O_OUT_DISCARD, (1,))):
        sel = outcome == o
        e = ender[sel]
        assert (counts[sel][np.arange(sel.sum()), e] == 0).all()
        assert np.isin(scores[sel][np.arange(sel.sum()), e], [u * (n - 1) for u in units]).all()
    knock = (outcome == TK.O_KNOCK_WON) | (outcome == TK.O_KNOCK_CAUGHT)
    assert (kc[knock] == counts[knock][np.arange(knock.sum()), ender[knock]]).all()
    assert (kc[~knock] == -1).all() and (kt[~knock] == -1).all() and (kt[knock] >= 1).all()
    for i in idx[knock]:
        o, pay = ref.knock_payout(counts[i].tolist(), int(ender[i]), rules.get("knocker_tie_paid", False))
        assert TK.OUTCOMES[outcome[i]] == o and scores[i].tolist() == pay
    for i in idx[outcome == TK.O_STOCK_OUT]:
        assert scores[i].tolist() == ref.stock_out_payout(counts[i].tolist())
        assert stock_left[i] == 0 or turns[i] >= TK.MAX_TURNS
    if not rules["tonk_tie_new_dealer"]:
        assert (outcome != TK.O_TONK_TIE).all()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_many_hands_every_player_count(n):
    rows = run_rows(n, ",".join((["simple", "drop", "careful", "hold"] * 2)[:n]), seed=11 * n, count=400)
    check_rows(rows, n, {"tonk_tie_new_dealer": True})
    assert (rows[:, 0] == np.arange(400) % n).all()
    assert len(set(rows[:, 2])) >= 4


def test_debug_mode_detects_a_broken_position():
    pos = TK.make_position(["AS 2S", "KH QH"], stock="3C", discard="7C")  # most of the pack missing
    with pytest.raises(ValueError, match="conservation"):
        TK.play_position(TK.TonkRules(), smat("simple", 2), pos, 0, debug=True)


def test_same_seed_same_rows_whatever_the_chunking():
    n = 4
    rules = TK.TonkRules(players=n).to_array()
    sm = smat("simple,drop,careful,tonk(spread_eagerness=0.5)", n)
    width = len(TK.VARIANT.columns(n))
    whole = np.zeros((500, width), dtype=np.int64)
    TK.play_chunk(rules, sm, 42, 1000, whole)
    parts = [np.zeros((k, width), dtype=np.int64) for k in (123, 1, 376)]
    start = 1000
    for p in parts:
        TK.play_chunk(rules, sm, 42, start, p)
        start += len(p)
    assert (np.concatenate(parts) == whole).all()
    again = np.zeros_like(whole)
    TK.play_chunk(rules, sm, 42, 1000, again)
    assert (again == whole).all()
    other = np.zeros_like(whole)
    TK.play_chunk(rules, sm, 43, 1000, other)
    assert not (other == whole).all()


def test_common_random_numbers_same_deals_in_every_arm():
    a = run_rows(3, "simple", seed=9, count=3000, debug=False)
    b = run_rows(3, "drop,hold,careful", seed=9, count=3000, debug=False)
    deal = a[:, 2] <= TK.O_TONK_TIE
    assert deal.sum() > 0 and (deal == (b[:, 2] <= TK.O_TONK_TIE)).all()
    assert (a[deal] == b[deal]).all()


# --- the turn planner against brute force -------------------------------------------------------

ALL = [card_code(r, s) for s in range(4) for r in range(13)]


def _meld_rich_hand(data, min_size, max_size):
    """A hand rich in melds: distinct cards from a few suits and five neighbouring ranks."""
    suits = data.draw(hs.lists(hs.integers(0, 3), min_size=1, max_size=4, unique=True))
    lo = data.draw(hs.integers(0, 8))
    pool = [card_code(r, s) for s in suits for r in range(lo, min(lo + 5, 13))]
    return data.draw(hs.lists(hs.sampled_from(pool), min_size=min_size, max_size=max_size, unique=True))


def _table_arrays(spreads):
    """The engine's table arrays for ``spreads`` (lists of cards) and its hit masks."""
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    for i, sp in enumerate(spreads):
        sp_kind[i] = TB.BOOK if len({c & 15 for c in sp}) == 1 else TB.RUN
        sp_cards[i] = sum(1 << c for c in sp)
    run_hm, book_hm = (np.uint64(x) for x in TB.table_hit_masks(sp_kind, sp_cards, len(spreads)))
    return sp_kind, sp_cards, run_hm, book_hm


def _meld_buffers():
    return np.zeros(TP.MAX_MELDS, dtype=np.uint64), np.zeros(TP.MAX_MELDS, dtype=np.int64)


@given(data=hs.data())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_plan_play_finds_the_best_spreads_and_hits(data):
    hand = _meld_rich_hand(data, 2, 6)
    spreads = data.draw(tables(avoid=frozenset(hand)))
    taken = data.draw(hs.sampled_from([None] + hand))
    spread_ok, hit_ok, must, needs_new = (data.draw(hs.booleans()) for _ in range(4))
    sp_kind, sp_cards, run_hm, book_hm = _table_arrays(spreads)
    hmask = np.uint64(sum(1 << c for c in hand))
    tmask = np.uint64(0 if taken is None else 1 << taken)
    mm, mk = _meld_buffers()
    score, a, b, hits = TP.plan_play(hmask, tmask, run_hm, book_hm, spread_ok, hit_ok, must,
                                     needs_new, mm, mk)
    expected = ref.best_play_score(hand, spreads, taken, spread_ok, hit_ok, must, needs_new)
    assert (None if score == TP.NO_PLAN else score) == expected
    if expected is None:
        return
    # carry the plan out and check the table stays legal and the score is what was promised
    rest = int(hmask)
    n_sp = len(spreads)
    for k in (a, b):
        if k >= 0:
            assert ref.is_spread([c for c in ALL if int(mm[k]) >> c & 1])
            assert int(mm[k]) & rest == int(mm[k])
            sp_kind[n_sp], sp_cards[n_sp] = mk[k], mm[k]
            n_sp += 1
            rest &= ~int(mm[k])
    assert int(hits) & rest == int(hits)
    assert TB.apply_hits(np.uint64(hits), sp_kind, sp_cards, n_sp) == 0
    rest &= ~int(hits)
    for i in range(n_sp):
        assert ref.is_spread([c for c in ALL if int(sp_cards[i]) >> c & 1])
    rest_cards = [c for c in ALL if rest >> c & 1]
    if score >= 2000:
        top = ref._highest([c for c in rest_cards if c != taken])
        assert score == 2000 + ref.count(rest_cards) - ref.VALUES[top]


@given(data=hs.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_lay_down_plan_leaves_the_lowest_count(data):
    hand = _meld_rich_hand(data, 1, 5)
    spreads = data.draw(tables(avoid=frozenset(hand)))
    sp_kind, sp_cards, run_hm, book_hm = _table_arrays(spreads)
    mm, mk = _meld_buffers()
    best, *_ = TP.lay_down_plan(np.uint64(sum(1 << c for c in hand)), run_hm, book_hm, mm, mk)
    assert best == ref.lay_down_count(hand, spreads)
    # carried out for one seat, the table stays legal and the hand keeps that count
    hands = np.array([sum(1 << c for c in hand)], dtype=np.uint64)
    n_sp = TP.lay_down_all(hands, 0, np.zeros(TB.MAX_SPREADS, dtype=np.int64), sp_kind, sp_cards,
                           len(spreads), mm, mk, True, NO_TRACE)
    assert TB.hand_value(hands[0]) == best
    for i in range(n_sp):
        assert ref.is_spread([c for c in ALL if int(sp_cards[i]) >> c & 1])


@given(hand=hs.lists(hs.sampled_from(ALL), min_size=0, max_size=8, unique=True))
@settings(max_examples=200, deadline=None)
def test_bit_helpers_match_reference(hand):
    m = np.uint64(sum(1 << c for c in hand))
    assert TB.hand_value(m) == ref.count(hand)
    assert TB.popcount(m) == len(hand)
    melds = [c for k in range(3, len(hand) + 1) for c in combinations(hand, k) if ref.is_spread(c)]
    assert bool(TB.has_meld(m)) == bool(melds)
    assert int(TB.meld_cards(m)) == sum(1 << c for c in set().union(*melds))
    if hand:
        assert TB.highest_code(m) == ref._highest(hand)
