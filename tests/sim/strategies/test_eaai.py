"""Neller's EAAI Gin Rummy baseline: the ``eaai-simple`` preset (SimpleGinRummyPlayer) and the
named rule sets (``--rule-set``): the preset's decisions on concrete hands, its random choices,
and the rule sets applied, overridden, refused and listed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cli import main as cli_main
from sim.core import rng
from sim.core.cards import parse_cards
from sim.knock.meld_choice import CUTS, arrangement_random, cover_weight
from sim.knock.melds import MAX_MELDS, SET, min_deadwood
from sim.runner import make_spec
from sim.strategies import knock as K
from sim.strategies import parse_strategies, parse_strategy, strategy_matrix
from sim.core.trace import NO_TRACE
from sim.variants import gin
from tests.sim.variants.test_gin import deck_for
from tests.support import ROOT


T = gin.TABLES


def mask(cards: str) -> np.uint64:
    return np.uint64(sum(1 << int(c) for c in parse_cards(cards)))


def code(card: str) -> int:
    return int(parse_cards(card)[0])


def srow(spec: str) -> np.ndarray:
    return parse_strategy(spec, "gin").row


# ----------------------------------------------------------------------------------------
# the draw: the upcard is taken when it lies in any meld of the hand plus it

@pytest.mark.parametrize("hand, up, want", [
    ("5S 6S", "7S", True),          # top of a run
    ("5S 7S", "6S", True),          # inside a run
    ("6S 7S", "5S", True),          # bottom of a run
    ("7H 7D", "7S", True),          # a set
    ("2S 3S", "AS", True),          # ace low
    ("5S 8S", "6S", False),         # a gap
    ("QS KS", "AS", False),         # no K-A wrap
    ("7H 8S", "7S", False),         # one of each is no meld
    ("6H 7H", "5S", False),         # neighbours of another suit
])
def test_in_some_meld_on_concrete_hands(hand, up, want):
    filler = mask("2C 9D JH")                   # cards far from every upcard above
    assert K.in_some_meld(mask(hand) | filler, code(up)) is want


def test_eaai_simple_takes_an_upcard_in_a_meld_even_when_deadwood_does_not_drop():
    # KS makes J-Q-K of spades, but JS and QS are worth more in their sets: with KS the least
    # deadwood is the hand's plus 10, so `simple` passes; SimpleGinRummyPlayer takes it
    hand = mask("JS JH JD QS QH QD 2C 3H 5D 9C")
    dw = min_deadwood("JS JH JD QS QH QD 2C 3H 5D 9C").deadwood
    assert min_deadwood("JS JH JD QS QH QD 2C 3H 5D 9C KS").deadwood == dw + 10
    up = code("KS")
    args = (hand, dw, up, T.run_value, T.suit_total, T.rank_value)
    assert K.wants_upcard(srow("eaai-simple"), *args)
    assert not K.wants_upcard(srow("simple"), *args)
    assert not K.wants_upcard(srow("eaai-simple"), mask("JS JH JD QS QH QD 2C 3H 5D 9C"), dw, code("4C"),
                              T.run_value, T.suit_total, T.rank_value)


# ----------------------------------------------------------------------------------------
# the discard: ties at random; no repeated draw-discard pair

def test_discard_ties_are_broken_at_random():
    hand = mask("JS JH JD QS QH QD KC KD 2C 3H 5D")       # KC or KD: deadwood 20 either way
    seen = set()
    for i in range(200):
        st = rng.new_state(3, 0, i)
        c, after = K.choose_discard(srow("eaai-simple"), hand, np.uint64(0), np.uint64(0),
                                    T.run_value, T.suit_total, T.rank_value, st)
        assert after == 20
        seen.add(c)
    assert seen == {code("KC"), code("KD")}
    det = {K.choose_discard(srow("simple"), hand, np.uint64(0), np.uint64(0), T.run_value, T.suit_total,
                            T.rank_value, rng.new_state(3, 0, i))[0] for i in range(20)}
    assert len(det) == 1


def _turn_after_taking(spec: str, pairs: np.ndarray) -> int:
    """Seat 0 takes KS from the pile and discards: the card it throws."""
    deck = deck_for("JS JH JD QS QH QD 2C 3H 5D 9C", "AC 4C 6C 7C 8C TD 4H 6H 8H TH", "KS")
    hands = np.zeros(2, dtype=np.uint64)
    for i in range(20):
        hands[(1 + 1 + i) % 2] |= np.uint64(1) << np.uint64(deck[i])
    pile = np.zeros(52, dtype=np.int64)
    pile[0] = deck[20]
    state = np.zeros(gin.S_WIDTH, dtype=np.int64)
    state[gin.S_SP], state[gin.S_NPILE], state[gin.S_LIMIT], state[gin.S_TO_MOVE] = 21, 1, 10, 0
    dw = np.array([19, 0], dtype=np.int64)
    row = np.zeros(len(gin.VARIANT.columns(2)), dtype=np.int64)
    strat = strategy_matrix(parse_strategies(spec, "gin", 2))
    rules = make_spec("gin", rule_set="eaai").rules.to_array()
    ended = gin._take_turn(rules, strat, 0, True, hands, dw, deck, pile, np.zeros(2, dtype=np.uint64), pairs,
                           state, T.run_value, T.run_cover, T.run_starts, T.suit_total, T.rank_value,
                           np.zeros((2, 1), dtype=np.uint64), row, True, NO_TRACE)
    assert not ended
    return int(pile[state[gin.S_NPILE] - 1])


def test_a_draw_discard_pair_played_before_is_not_played_again():
    ks, c9, d5 = code("KS"), code("9C"), code("5D")
    fresh = np.zeros((2, 64), dtype=np.uint64)
    assert _turn_after_taking("eaai-simple", fresh) == c9         # the best discard; never KS itself
    assert fresh[0, ks] == np.uint64(1) << np.uint64(c9) and fresh[0, c9] == np.uint64(1) << np.uint64(ks)
    played = np.zeros((2, 64), dtype=np.uint64)
    played[0, ks] = np.uint64(1) << np.uint64(c9)                 # {KS, 9C} played earlier this hand
    assert _turn_after_taking("eaai-simple", played) == d5        # the next best
    played[0, ks] = np.uint64(1) << np.uint64(c9)
    assert _turn_after_taking("eaai-simple(no_repeat=0)", played) == c9


# ----------------------------------------------------------------------------------------
# the shown melds: a random minimum arrangement, weighted as the framework lists them

def test_cuts_count_the_ways_to_cut_a_run():
    assert list(CUTS[:11]) == [1, 0, 0, 1, 1, 1, 2, 3, 4, 6, 9]


def _four_set(hand: str, seeds: int) -> int:
    """How often the random arrangement of ``hand`` holds a four-card set."""
    m = mask(hand)
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    fours = 0
    for i in range(seeds):
        dead, n, dmask = arrangement_random(m, T.run_value, T.run_cover, T.run_starts, T.suit_total,
                                            T.rank_value, melds, rng.new_state(9, 0, i))
        assert dead == 0 and dmask == 0
        fours += any(melds[k, 0] == SET and bin(melds[k, 2]).count("1") == 4 for k in range(n))
    return fours


def test_random_arrangement_draws_each_cover_with_the_frameworks_weight():
    # 4-7S + 7H 7D 7C: {4-7S, 7HDC} or {4-6S, 7777}, one list entry each
    n = 2000
    f = _four_set("4S 5S 6S 7S 7H 7D 7C", n)
    assert abs(f - n / 2) < 5 * (n / 4) ** 0.5
    # 4-9S + 9H 9D 9C: {4-9S (one meld or two: 2 entries), 9HDC} or {4-8S, 9999} (1 entry)
    f = _four_set("4S 5S 6S 7S 8S 9S 9H 9D 9C", 3000)
    assert abs(f - 1000) < 5 * (3000 * 2 / 9) ** 0.5
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    melds[0] = (1, 0, 3, 8)          # a six-card run of spades
    melds[1] = (0, 8, 0b1110, 0)
    assert cover_weight(melds, 2, CUTS) == 2


# ----------------------------------------------------------------------------------------
# rule sets

def test_rule_set_is_applied_and_overridden_by_rule():
    r = make_spec("gin", rule_set="eaai").rules
    assert r.discard_stock_draw and r.layoff_mode == "seed" and r.undercut_on_tie
    assert r.as_dict() == gin.GinRules.from_options(gin.RULE_SETS["eaai"]).as_dict()
    r = make_spec("gin", rule_set="eaai", rules=["layoff_mode=joint"]).rules
    assert r.layoff_mode == "joint" and r.discard_stock_draw
    o = make_spec("gin", rule_set="openspiel").rules
    assert o.openspiel_wall and not o.undercut_on_tie
    assert "rule_set" not in make_spec("gin").identity()
    assert make_spec("gin", rule_set="eaai").identity()["rule_set"] == "eaai"


def test_simulate_with_rule_set_records_it(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "--variant", "gin", "--rule-set", "eaai", "--rule", "discard_stock_draw=off",
            "--strategies", "eaai-simple", "--hands", "300", "--jobs", "1", "--no-progress", "--json",
            "--out", str(out)]
    assert cli_main(args) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["rule_set"] == "eaai"
    assert d["rules"]["discard_stock_draw"] is False and d["rules"]["layoff_mode"] == "seed"
    meta = json.loads((out / "meta.json").read_text())
    assert meta["rule_set"] == "eaai" and meta["rules"]["layoff_mode"] == "seed"


def test_studies_record_the_rule_set_and_old_stores_still_match():
    from analysis.studies import spec_doc
    from analysis.studies.knock_equilibrium import EquilibriumSpec
    from analysis.studies.knock_sweep import SweepSpec
    from analysis.studies.strategy_compare import CompareSpec
    sw = SweepSpec(variant="gin", thresholds=(5, 10), hands=100, rule_set="eaai")
    run = sw.spec_for(sw.base(), 10)
    assert run.identity()["rule_set"] == "eaai" and run.rules.discard_stock_draw
    cmp = CompareSpec(variant="gin", strategies=("simple", "eaai-simple"), hands=10, rule_set="eaai",
                      rules=("layoff_mode=joint",))
    assert all(s.rule_set == "eaai" and s.rules.layoff_mode == "joint" for s in cmp.arm_specs(2, ()))
    eq = EquilibriumSpec(variant="gin", thresholds=(5, 10), hands=10, rule_set="openspiel")
    assert eq.sweep().spec_for(eq.sweep().base(), 1).rules.openspiel_wall
    assert spec_doc(sw)["rule_set"] == "eaai"
    assert "rule_set" not in spec_doc(SweepSpec(variant="gin", thresholds=(5, 10)))


@pytest.mark.parametrize("cmd", [
    ["simulate", "--variant", "gin", "--hands", "10"],
    ["trace", "--variant", "gin", "--hand", "0"],
    ["compare", "--variant", "gin", "--strategies", "simple,tracker", "--hands", "10"],
    ["simulate", "--variant", "tonk", "--hands", "10"],
])
def test_unknown_rule_set_is_one_line_and_exit_2(cmd, capsys):
    assert cli_main(cmd + ["--rule-set", "house"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown rule set 'house'" in err[0]
    assert ("rule sets: eaai, openspiel" in err[0]) == ("gin" in cmd)


def test_variants_lists_the_rule_sets(capsys):
    assert cli_main(["variants"]) == 0
    text = capsys.readouterr().out
    gin_part = next(b for b in text.split("\n\n") if b.startswith("gin:"))
    assert "rule sets, chosen with --rule-set NAME" in gin_part
    flat = " ".join(gin_part.split("rule sets, chosen with")[1].split())
    assert "eaai knock_limit=10, gin_bonus=25, undercut_bonus=25" in flat and "layoff_mode=seed" in flat
    assert ("openspiel undercut_on_tie=off, discard_stock_draw=on, openspiel_wall=on, first_upcard_offer=on"
            in flat)


# ----------------------------------------------------------------------------------------
# scripts/crosscheck_eaai.py reads the framework's verbose log (its printf formats)

def _crosscheck():
    import importlib.util
    path = ROOT / "scripts" / "crosscheck_eaai.py"
    spec = importlib.util.spec_from_file_location("crosscheck_eaai", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_crosscheck_reads_the_frameworks_log():
    mod = _crosscheck()
    deal = ["Player 0 is dealt [AS, 2S].", "Player 1 is dealt [3D, 4D]."]
    log = deal + ["Player 1 starts.", "The initial face up card is 5D.", "Player 1 declines 5D.",
                  "Player 0 draws 5D.", "Player 0 discards KC.", "Player 1 draws 9S.", "Player 1 discards 2H.",
                  "Player 0 draws 2H.", "Player 0 discards 7C.",
                  "Player 0 melds [[5D, 5S, 5H], [AC, 2C, 3C]] with 4 deadwood from [4C].",
                  "Player 1 melds [].", "Player 1 has 30 deadwood with [9S]",
                  "Player 0 scores the deadwood difference of 26."]
    log += deal + ["Player 0 starts.", "The initial face up card is 8H.", "Player 0 draws QS.",
                   "Player 0 discards QS.", "Player 0 goes gin with melds [[8S, 8D, 8C]].",
                   "Player 0 scores the gin bonus of 25 plus opponent deadwood 12 for 37 total points."]
    log += deal + ["Player 1 starts.", "The initial face up card is 8H.", "Player 1 draws 3S.", "Player 1 discards 3S.",
                   "Player 1 melds [[3C, 4C, 5C]] with 9 deadwood from [9C].",
                   "Player 0 undercuts and scores the undercut bonus of 25 plus deadwood difference of 2 for 27 total "
                   "points."]
    log += deal + ["Player 0 starts.", "The initial face up card is 8H."]
    for i in range(29):
        log += [f"Player {i % 2} draws X{i}.", f"Player {i % 2} discards X{i}."]
    log += ["The draw pile was reduced to two cards without knocking, so the hand is cancelled."]
    hands = list(mod.parse_hands(log))
    assert [(h["outcome"], h["winner"], h["points"], h["knock_dw"], h["stock_draws"]) for h in hands] == [
        ("knock", 0, 26, 4, 1), ("gin", 0, 37, 0, 1), ("undercut", 0, 27, 9, 1), ("void", -1, 0, -1, 29)]
    cols = mod.framework_columns(hands)
    assert list(cols["score0"]) == [-26, 37, -27, 0] and list(cols["stock_left"]) == [30, 30, 30, 2]
    assert list(cols["knock_dw"]) == [4, 0, 9]
