"""Gin Rummy rule cases (rules/gin.md) on constructed deals, and invariants over random play."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core import rng
from sim.core.cards import parse_cards, standard_pack, value_table
from sim.knock.melds import min_deadwood
from sim.core.games import game_columns
from sim.runner import make_spec, run_chunk
from sim.strategies import parse_strategies, strategy_matrix
from sim.core.trace import NO_TRACE
from sim.variants import gin

COLS = gin.VARIANT.columns(2)
C = {name: i for i, name in enumerate(COLS)}
VALUES = value_table()


def deck_for(non_dealer: str, dealer: str, upcard: str, stock_top: str = "") -> np.ndarray:
    """A 52-card deck dealing these hands (dealer = seat 1, non-dealer = seat 0), this
    upcard and these cards on top of the stock; the rest of the stock in pack order."""
    nd, de = parse_cards(non_dealer), parse_cards(dealer)
    up, top = parse_cards(upcard), parse_cards(stock_top)
    used = list(nd) + list(de) + list(up) + list(top)
    assert len(set(used)) == len(used) and len(nd) == len(de) == 10
    rest = [c for c in standard_pack() if c not in set(used)]
    deal = [c for pair in zip(nd, de) for c in pair]
    return np.array(deal + list(up) + list(top) + rest, dtype=np.int64)


def play(deck, strategies="simple", rules=None, dealer=1):
    r = gin.GinRules.from_options(rules or {}).to_array()
    s = strategy_matrix(parse_strategies(strategies, "gin", 2))
    t = gin.TABLES
    row = np.zeros(len(COLS), dtype=np.int64)
    states = np.zeros((2, 1), dtype=np.uint64)
    gin.play_hand(r, s, deck, dealer, t.run_value, t.run_cover, t.run_starts, t.suit_total,
                  t.rank_value, states, row, True, NO_TRACE)
    return {name: int(row[i]) for name, i in C.items()}


def dw(cards: str) -> int:
    return min_deadwood(cards).deadwood


def test_gin_scores_defender_deadwood_plus_gin_bonus():
    dealer_hand = "2C 4C 6C 8C TC 2D 4D 6D QS JD"
    deck = deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", dealer_hand, "KH", "TD")
    row = play(deck)
    assert row["outcome"] == gin.O_GIN and row["ender"] == 0
    assert row["score0"] == dw(dealer_hand) + 25 and row["score1"] == -row["score0"]
    assert row["deadwood0"] == 0
    row = play(deck, rules={"gin_bonus": 40})
    assert row["score0"] == dw(dealer_hand) + 40


def test_undercut_on_tie_goes_to_defender():
    # knocker: discards QC after drawing 3C -> deadwood 3; defender holds deadwood 3 (3D),
    # which cannot be laid off on A-2-3S, 4-5-6H or 7-8-9D
    deck = deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D QC", "7C 8C 9C TH JH QH KS KD KC 3D", "5C", "3C")
    row = play(deck)
    assert row["outcome"] == gin.O_UNDERCUT
    assert row["ender"] == 0 and row["winner"] == 1
    assert row["deadwood0"] == 3 and row["deadwood1"] == 3
    assert row["score1"] == 0 + 25 and row["score0"] == -25
    assert play(deck, rules={"undercut_bonus": 10})["score1"] == 10


def test_tie_scores_nothing_without_undercut_on_tie():
    # the deal of test_undercut_on_tie_goes_to_defender: both deadwoods 3 (OpenSpiel's rule)
    deck = deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D QC", "7C 8C 9C TH JH QH KS KD KC 3D", "5C", "3C")
    row = play(deck, rules={"undercut_on_tie": False})
    assert row["outcome"] == gin.O_KNOCK and row["ender"] == 0 and row["winner"] == -1
    assert row["deadwood0"] == row["deadwood1"] == 3 and row["knock_deadwood"] == 3
    assert row["score0"] == row["score1"] == row["points"] == 0


def test_layoff_mode_seed_lays_off_deadwood_of_the_defenders_own_arrangement():
    # knocker: 5-6-7S, 4-5-6H, 7-8-9D + 2C (deadwood 2).  The defender's minimum arrangement
    # is 8-8-8 (S H C) with deadwood AH 2H 7H AD QD 6C 7C (34).  joint: break the set, lay off
    # 8S on 5-6-7S and 7H 8H on 4-5-6H, meld 6-7-8C: AH 2H AD QD = 14.  seed: lay off the
    # deadwood 7H only: 34 - 7 = 27.
    deck = deck_for("5S 6S 7S 4H 5H 6H 7D 8D 9D QC", "8S AH 2H 7H 8H AD QD 6C 7C 8C", "3C", "2C")
    joint = play(deck)
    assert joint["outcome"] == gin.O_KNOCK and joint["deadwood0"] == 2
    assert joint["deadwood1"] == 14 and joint["score0"] == 12
    seed = play(deck, rules={"layoff_mode": "seed"})
    assert seed["deadwood1"] == 27 and seed["score0"] == 25


def play_position(hands, stock, pile_top, rules, to_move=0, turns=40, strategies="simple"):
    """Play on from a constructed position: two hands, the stock (top first) and the top
    discard; every other card lies below it in the pile."""
    hand_codes = [list(parse_cards(h)) for h in hands]
    stock, top = list(parse_cards(stock)), list(parse_cards(pile_top))
    used = set(hand_codes[0] + hand_codes[1] + stock + top)
    pile = np.array([c for c in standard_pack() if c not in used] + top, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    deck[52 - len(stock):] = stock
    state = np.zeros(gin.S_WIDTH, dtype=np.int64)
    state[gin.S_SP], state[gin.S_NPILE], state[gin.S_TURNS] = 52 - len(stock), len(pile), turns
    state[gin.S_OWN0], state[gin.S_OWN1], state[gin.S_TO_MOVE] = turns // 2, turns // 2, to_move
    state[gin.S_LIMIT] = rules.get("knock_limit", 10)
    masks = np.array([sum(1 << int(c) for c in h) for h in hand_codes], dtype=np.uint64)
    pile_buf = np.zeros(52, dtype=np.int64)
    pile_buf[:len(pile)] = pile
    t = gin.TABLES
    row = np.zeros(len(COLS), dtype=np.int64)
    gin.play_from_state(gin.GinRules.from_options(rules).to_array(), strategy_matrix(parse_strategies(strategies, "gin", 2)),
                        masks, deck, pile_buf, np.zeros(2, dtype=np.uint64), state, t.run_value, t.run_cover,
                        t.run_starts, t.suit_total, t.rank_value, np.zeros((2, 1), dtype=np.uint64), row, True,
                        NO_TRACE)
    return {name: int(row[i]) for name, i in C.items()}


@pytest.mark.parametrize("wall, limit, outcome, ender", [
    (False, 10, gin.O_VOID, 0),   # seat 0's discard leaves 2 stock cards: void at once
    (True, 10, gin.O_KNOCK, 1),   # the wall: seat 1 takes 9D (7-8-9D), discards KC, knocks with 10
    (True, 9, gin.O_VOID, 1),     # the wall: 10 is over the limit, seat 1 passes, void
])
def test_openspiel_wall_lets_the_next_player_knock_only_with_the_upcard(wall, limit, outcome, ender):
    # seat 0 draws KS (stock 3 -> 2), cannot use it and discards its highest card, 9D
    defender = "AC 3C 5C 7C 2H 4D 6S 8H 4S"
    row = play_position(["9D " + defender, "AS 2S 3S 4H 5H 6H 7D 8D QC KC"], "KS JD TD", "QH",
                        {"openspiel_wall": wall, "knock_limit": limit})
    assert row["outcome"] == outcome and row["ender"] == ender and row["stock_left"] == 2
    if outcome == gin.O_KNOCK:
        assert row["knock_deadwood"] == 10 and row["turns"] == 42
        assert row["deadwood0"] == dw(defender + " KS") - 4  # 4S laid off on A-2-3S
        assert row["score1"] == row["deadwood0"] - 10


def test_openspiel_simple_takes_the_upcard_to_knock():
    # QH melds with nothing, but taking it and discarding KC leaves deadwood 10: SimpleGinRummyBot
    # takes it and knocks at once; simple passes it and knocks after drawing 2H (deadwood 2)
    deck = deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "QH", "2H")
    bot = play(deck, strategies="openspiel-simple")
    assert bot["ender"] == 0 and bot["turns"] == 1 and bot["knock_deadwood"] == 10
    assert play(deck)["knock_deadwood"] == 2


def test_openspiel_discard_rule_throws_the_highest_legal_deadwood_card():
    from sim.strategies import knock as K
    t = gin.TABLES
    srow = parse_strategies("openspiel-simple", "gin", 1)[0].row
    hand = np.uint64(sum(1 << int(c) for c in parse_cards("5S 5H 5D 5C 7D 8D 9D JD QC KC 2H")))
    st = np.zeros(1, dtype=np.uint64)
    for forbidden, want in (("", "KC"), ("KC", "QC"), ("KC QC", "JD")):
        fmask = np.uint64(sum(1 << int(c) for c in parse_cards(forbidden)))
        code, after = K.choose_discard(srow, hand, fmask, np.uint64(0), t.run_value, t.suit_total, t.rank_value, st)
        assert code == parse_cards(want)[0] and after == dw("5S 5H 5D 5C 7D 8D 9D JD QC KC 2H") - VALUES[code]


def test_chained_layoff_on_knockers_run():
    # knocker ends with 5-6-7S, 4-5-6H, 7-8-9D + 2C (deadwood 2); defender lays off 8S then
    # 9S (the second only after the first) onto 5-6-7S: deadwood 20 -> 3
    deck = deck_for("5S 6S 7S 4H 5H 6H 7D 8D 9D QC", "8S 9S TC TD TH KH KD KC AD 2D", "3C", "2C")
    row = play(deck)
    assert row["outcome"] == gin.O_KNOCK and row["ender"] == 0
    assert row["deadwood1"] == 3 and row["score0"] == 1
    no_layoff = play(deck, strategies="simple,threshold(layoff=0)")
    assert no_layoff["deadwood1"] == 20 and no_layoff["score0"] == 18


def test_layoff_onto_a_set():
    # knocker shows 8-8-8 (no spade) and deadwood AC; the defender's 8S goes on the set
    defender = "8S KS KH KC 2C 3C 5C 7C 9C TH"
    deck = deck_for("8H 8D 8C 4H 5H 6H JD QD KD QC", defender, "AH", "AC")
    row = play(deck)
    assert row["outcome"] == gin.O_KNOCK and row["deadwood0"] == 1
    assert row["deadwood1"] == dw(defender) - 8 and row["score0"] == dw(defender) - 8 - 1


def test_no_layoff_against_gin():
    # the dealer's 6D would extend the knocker's 7-8-9-TD, but gin allows no layoffs
    dealer_hand = "2C 4C 6C 8C TC 2D 4D 6D QS JD"
    row = play(deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", dealer_hand, "KH", "TD"))
    assert row["outcome"] == gin.O_GIN and row["deadwood1"] == dw(dealer_hand)


def test_first_upcard_offer_dealer_takes_after_non_dealer_passes():
    # non-dealer cannot use KS; the dealer completes TS-JS-QS-KS with it and goes gin on turn 1
    deck = deck_for("2H 4H 6H 8H TH 2D 4D 6D 8D TD", "TS JS QS 5C 5D 5S 7C 8C 9C AH", "KS")
    row = play(deck)
    assert row["outcome"] == gin.O_GIN and row["ender"] == 1 and row["turns"] == 1
    # without the offer the non-dealer plays first (drawing from the stock), so the dealer's
    # first turn faces the non-dealer's discard, not KS
    off = play(deck, rules={"first_upcard_offer": False})
    assert not (off["ender"] == 1 and off["turns"] == 1)


def test_non_dealer_takes_first_upcard_that_forms_a_meld():
    deck = deck_for("AS 2S 3S 4H 5H 6H 7D 8D KC QC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "9D")
    row = play(deck)
    assert row["ender"] == 0 and row["turns"] == 1
    assert row["outcome"] == gin.O_KNOCK and row["deadwood0"] == 10


def test_drawn_card_may_not_be_discarded_unless_rule_allows():
    # seed 004: the card just taken may not be discarded.  Drawing KD: the non-dealer must
    # keep it and discard KC (deadwood 10, knock); with discard_stock_draw it can throw
    # KD or KC alike (both leave 10), and with knock_limit 9 neither knocks.
    deck = deck_for("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "2C 4C 6C 8C TC 2D 4D 6D QS JD", "KH", "KD")
    row = play(deck)
    assert row["ender"] == 0 and row["deadwood0"] == 10 and row["turns"] == 1


def test_big_gin_option():
    dealer_hand = "2C 4C 6C QC KC 2D 4D 6D QS JD"
    deck = deck_for("AS 2S 4H 5H 6H 7H 8C 9C TC JC", dealer_hand, "3S")
    dealer_dw = dw(dealer_hand)
    big = play(deck, rules={"big_gin": True})
    assert big["outcome"] == gin.O_BIG_GIN and big["score0"] == dealer_dw + 31
    plain = play(deck)
    assert plain["outcome"] == gin.O_GIN and plain["score0"] == dealer_dw + 25


def _upcard(seed, h):
    deck = np.empty(52, dtype=np.int64)
    rng.shuffle_into(rng.new_state(seed, rng.STREAM_DEAL, h), standard_pack(), deck)
    return deck[20]


def test_oklahoma_knock_limit_is_upcard_value():
    spec = make_spec("gin", rules=["oklahoma=on"], n=3000, seed=11)
    rows = run_chunk(spec, 0, spec.n)
    for h, row in enumerate(rows):
        if row[C["outcome"]] in (gin.O_KNOCK, gin.O_UNDERCUT, gin.O_GIN):
            up = _upcard(11, h)
            limit = 0 if up % 16 == 0 else VALUES[up]
            assert row[C["knock_deadwood"]] <= limit


@pytest.mark.parametrize("void_left", [2, 5])
def test_void_when_discard_leaves_void_stock_left(void_left):
    spec = make_spec("gin", rules=[f"void_stock_left={void_left}"], strategies="gin-hunter", n=2000, seed=3)
    rows = run_chunk(spec, 0, spec.n)
    void = rows[:, C["outcome"]] == gin.O_VOID
    assert void.sum() > 100  # gin hunters often exhaust the stock
    assert (rows[void, C["stock_left"]] == void_left).all()
    assert (rows[:, C["stock_left"]] >= void_left).all()
    assert (rows[void, C["score0"]] == 0).all() and (rows[void, C["score1"]] == 0).all()


STRATS = ["simple", "tracker", "gin-hunter", "patient", "threshold(random_ties=1,upcard=1,upcard_gain=3,arrange=1)",
          "threshold(knock=5,gin_after=6,bucket_by=1,mid_from=15,knock_mid=3)", "openspiel-simple"]
RULESETS = [{}, {"discard_stock_draw": True}, {"oklahoma": True}, {"big_gin": True, "first_upcard_offer": False},
            {"knock_limit": 0}, {"undercut_on_tie": False, "openspiel_wall": True, "layoff_mode": "seed"}]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), s0=st.sampled_from(STRATS), s1=st.sampled_from(STRATS),
       rules=st.sampled_from(RULESETS))
def test_random_play_conserves_cards_and_scores(seed, s0, s1, rules):
    """debug=True checks card conservation after every discard inside the kernel."""
    r = gin.GinRules.from_options(rules).to_array()
    s = strategy_matrix(parse_strategies(f"{s0},{s1}", "gin", 2))
    out = np.zeros((300, len(COLS)), dtype=np.int64)
    gin.play_chunk(r, s, seed, 0, out, debug=True)
    assert (out[:, C["score0"]] + out[:, C["score1"]] == 0).all()
    assert (out[:, C["turns"]] >= 1).all()
    # every stock draw uses one of the 31 stock cards: a hand ends by the void rule at the latest
    assert (out[:, C["stock_left"]] >= 2).all() and (out[:, C["stock_left"]] <= 31).all()
    knocked = out[:, C["outcome"]] != gin.O_VOID
    limit = rules.get("knock_limit", 10)
    assert (out[knocked, C["knock_deadwood"]] <= limit).all()
    won = out[knocked, C["winner"]]
    pts = out[knocked, C["points"]]
    assert (out[knocked, C["score0"]] == np.where(won == 0, pts, -pts)).all()


def test_same_seed_same_rows_any_chunking():
    spec = make_spec("gin", strategies="simple,tracker", n=5000, seed=99)
    whole = run_chunk(spec, 0, 5000)
    parts = np.concatenate([run_chunk(spec, a, min(a + 777, 5000)) for a in range(0, 5000, 777)])
    assert (whole == parts).all()
    other = run_chunk(make_spec("gin", strategies="simple,tracker", n=5000, seed=100), 0, 5000)
    assert not (whole == other).all()


def test_deals_are_common_across_strategies():
    """Common random numbers: hand i gets the same deal whatever the strategies."""
    a = run_chunk(make_spec("gin", strategies="simple", n=2000, seed=5), 0, 2000)
    b = run_chunk(make_spec("gin", strategies="gin-hunter", n=2000, seed=5), 0, 2000)
    assert (a[:, C["dealer"]] == b[:, C["dealer"]]).all()
    # a gin on the very first turn (the non-dealer's) depends only on the deal when both
    # strategies take the same first decision: both knock a dealt gin hand at once
    first_gin_a = (a[:, C["turns"]] == 1) & (a[:, C["outcome"]] == gin.O_GIN)
    first_gin_b = (b[:, C["turns"]] == 1) & (b[:, C["outcome"]] == gin.O_GIN)
    assert (first_gin_a == first_gin_b).all()


def test_games_reach_target_score():
    spec = make_spec("gin", n=200, seed=4, mode="games", rules=["target_score=50"])
    rows = run_chunk(spec, 0, 200)
    G = {c: i for i, c in enumerate(game_columns(2))}
    w = rows[:, G["winner"]]
    pw = np.where(w == 0, rows[:, G["points0"]], rows[:, G["points1"]])
    pl = np.where(w == 0, rows[:, G["points1"]], rows[:, G["points0"]])
    assert (pw >= 50).all() and (pl < 50).all()
    assert (rows[:, G["net0"]] + rows[:, G["net1"]] == 0).all()
    assert (rows[:, G["hands"]] >= rows[:, G["hands_won0"]] + rows[:, G["hands_won1"]]).all()
