"""The "should I knock here?" advisor (analysis.studies.knock_advice, sim.advisors.worlds)."""

import argparse
import json

import numpy as np
import pytest

from analysis.studies import knock_advice as KA
from analysis.studies import knock_advice_cmd as KA_CMD
from analysis.studies import sequential as SQ
from analysis.studies.knock_advice import AdviceError, advise
from sim.advisors import worlds as K
from sim.advisors import advisor as AD, history as HI
from sim.strategies import history_weights as HW
from sim.core import rng, trace as TR
from sim.core.cards import CardError, card_text, from_mask, parse_cards, standard_pack, to_mask, value_table
from sim.knock.layoffs import layoff
from sim.knock.melds import deadwood, min_deadwood
from sim.strategies import knock as KS, parse_strategies, strategy_matrix
from sim.variants import VariantError
from sim.variants import gin as G, knock_rummy as KR, knock_rummy as KRS, tonk as TK, tonk_search as TS

GIN_8 = "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C"      # deadwood 8
GIN_0 = "AS 2S 3S 4S 7H 7D 7C 9S 9D 9H"      # gin
GIN_32 = "AS 2S 3S 7H 7D 7C 9S 9D KH 4C"     # deadwood 32 (the example)
FAST = dict(budget_s=0.5, seed=3)


def _no_fit(w):
    return AdviceError(f"no world fits: {w}")


def gin_rollouts(rules, strat, hand_mask, pool, stock, upcard, known, own_turn, limit, seed, first, n,
                 *, replay=0, debug=False, with_hands=False):
    """Gin's worlds of a position after my discard (no history), as the advisor samples them."""
    t = G.TABLES
    dw = int(deadwood(np.uint64(hand_mask), t.run_value, t.suit_total, t.rank_value))
    kn = K.Knock(dw, limit, dict(mask=hand_mask, dw=dw, big=False))
    world = G.advice_world(rules, strat, from_mask(hand_mask), kn, stock, known, own_turn,
                           HW.no_history(2, own_turn, G.HAND), replay)
    return AD.rollouts(world(n, with_hands), pool, upcard, seed, first, n, K.MAX_REDRAWS + 1, _no_fit,
                       debug=debug)


def kr_rollouts(rules, strat, hand_mask, pool, stock, upcard, known, own_turn, seed, first, n, *,
                replay=0, debug=False, with_deadwood=False):
    """Knock Rummy's worlds of a position after my discard (no history); ``with_deadwood``:
    also every seat's deadwood when knocking now."""
    world = KRS.advice_world(rules, strat, from_mask(hand_mask), None, stock, known, own_turn,
                             HW.no_history(strat.shape[0], own_turn, KR.hand_size(strat.shape[0])), replay)(n)
    out = AD.rollouts(world, pool, upcard, seed, first, n, K.MAX_REDRAWS + 1, _no_fit, debug=debug)
    return (out, world.g.dws) if with_deadwood else out


def tonk_rollouts(rules, strat, hand_mask, opp_cards, pool, stock, upcard, known, turn_before, seed,
                  first, n, *, debug=False):
    """Tonk's worlds at the start of my turn (no spreads, no history)."""
    from sim.advisors.table import Table
    t = Table(None, None, known, [], pool, upcard, [0] * strat.shape[0], list(opp_cards), 0, 0)
    p = AD.Position(hand=None, turn=turn_before // strat.shape[0] + 1, upcard=None, discards=None,
                    spreads=(), players=strat.shape[0], opponent="", strategy="", rules=None, stock=None,
                    opp_cards=None, first_upcard=None, history=None, seed=seed, opp_model="uniform",
                    debug=debug)
    world = TS.advice_world(rules, strat, from_mask(hand_mask), t, stock, p)
    return AD.rollouts(world(n), pool, upcard, seed, first, n, K.MAX_TRIES_HISTORY, _no_fit, debug=debug)


def test_gin_hand_says_knock():
    a = advise("gin", GIN_0, turn=4, upcard="KD", **FAST)
    assert a.hand_score == 0 and a.recommendation == "knock"
    assert a.diff.lo > 0 and a.ev_knock.value >= 25 and a.win_knock.value == 1.0
    assert a.worlds >= 2000 and a.stopped == "ci"


def test_deadwood_above_knock_limit_is_refused():
    with pytest.raises(AdviceError, match=r"deadwood is 32 .*needs deadwood <= 10"):
        advise("gin", GIN_32, turn=6, upcard="5C")
    with pytest.raises(AdviceError, match=r"deadwood is 8 .*<= 5"):
        advise("gin", GIN_8, turn=6, upcard="5C", rules=["knock_limit=5"])
    with pytest.raises(AdviceError, match=r"<= 2 \(oklahoma, first upcard 2D\)"):
        advise("gin", GIN_8, turn=6, rules={"oklahoma": True}, first_upcard="2D")
    with pytest.raises(AdviceError, match="first-upcard"):
        advise("gin", GIN_8, turn=6, rules={"oklahoma": True})


def test_tonk_two_low_cards_against_full_hands_says_knock():
    a = advise("tonk", "AS AD", turn=3, players=4, spreads=["7S 7H 7D", "2:9C TC JC"], **FAST)
    assert a.hand_score == 2 and a.recommendation == "knock"
    # a 5-card hand counts at least 8 with two aces out: the drop always wins 1 from each
    assert a.ev_knock.value == 3 and a.win_knock.value == 1.0
    assert a.diff.lo > 0


def test_gin_eleven_cards_picks_the_exact_best_discard():
    a = advise("gin", GIN_8 + " KD", turn=3, upcard="5H", worlds=200, seed=1)
    assert a.discard == "KD" and a.upcard == "KD" and a.hand_score == 8
    assert any("best discard is KD" in n for n in a.notes)
    assert any("5H given as well" in n for n in a.notes)


@pytest.mark.parametrize("kwargs, err, match", [
    (dict(variant="gin", hand="AS 2S 3S", turn=3), AdviceError, "10 cards .* got 3"),
    (dict(variant="gin", hand=GIN_8 + " 5H 6H", turn=3), AdviceError, "got 12"),
    (dict(variant="gin", hand="AS AS 3S 7H 7D 7C 9S 9D 9H 8C", turn=3), CardError, "AS appears 2 times"),
    (dict(variant="gin", hand=GIN_8, turn=3, upcard="8C"), CardError, "8C is both in your hand and the upcard"),
    (dict(variant="gin", hand=GIN_8, turn=3, discards="2H 9D"), CardError, "9D is both"),
    (dict(variant="gin", hand=GIN_8, turn=6, stock=10), AdviceError, "stock 10 is impossible on your turn 6"),
    (dict(variant="gin", hand=GIN_8, turn=1, stock=31, discards="KC"), AdviceError, "at most 30"),
    (dict(variant="gin", hand=GIN_8, turn=3, players=3), AdviceError, "exactly 2 players"),
    (dict(variant="gin", hand=GIN_8, turn=0), AdviceError, "turn must be"),
    (dict(variant="tonk", hand="AS 2D", turn=3, players=7), AdviceError, "2 to 6 players"),
    (dict(variant="tonk", hand="AS 2D 3C 4C 5C 6C", turn=3, players=3), AdviceError, "1 to 5 cards"),
    (dict(variant="tonk", hand="AS 2D", turn=3, players=3, spreads=["2D 3D 4D"]), CardError,
     "2D is both in your hand and in the spread"),
    (dict(variant="tonk", hand="AS 2D", turn=3, players=3, spreads=["7S 7H 8D"]), AdviceError, "not a legal"),
    (dict(variant="tonk", hand="AS 2D", turn=3, players=3, spreads=["4:7S 7H 7D"]), AdviceError, "seat 4"),
    (dict(variant="tonk", hand="AS 2D", turn=3, players=3, opp_cards=[5, 6]), AdviceError, "1 to 5 cards"),
    (dict(variant="tonk", hand="AS 2D", turn=1, players=3), AdviceError, "turn 1 nobody has played"),
    (dict(variant="tonk", hand="AS 2D", turn=3, players=3, stock=40), AdviceError, "stock 40 is impossible"),
    (dict(variant="chess", hand="AS", turn=1), VariantError, "unknown variant"),
])
def test_illegal_positions_raise_clear_errors(kwargs, err, match):
    with pytest.raises(err, match=match):
        advise(kwargs.pop("variant"), kwargs.pop("hand"), **kwargs)


def test_same_seed_same_numbers_and_batching_does_not_matter():
    a = advise("gin", GIN_8, turn=5, upcard="5C", worlds=3000, seed=11)
    b = advise("gin", GIN_8, turn=5, upcard="5C", worlds=3000, seed=11)
    c = advise("gin", GIN_8, turn=5, upcard="5C", worlds=3000, seed=12)
    key = lambda x: (x.ev_knock, x.ev_play, x.diff, x.win_knock, x.win_play, x.worlds)
    assert key(a) == key(b) and key(a) != key(c)
    t = [advise("tonk", "AS 2D 3C 5H", turn=4, players=3, spreads=["7S 7H 7D"], worlds=2500, seed=5)
         for _ in range(2)]
    assert key(t[0]) == key(t[1])
    # rows depend on the world index only, not on the batch they were computed in
    r, s = G.GinRules().to_array(), strategy_matrix(parse_strategies("simple", "gin", 2))
    hand, up = parse_cards(GIN_8), int(parse_cards("5C")[0])
    pool = np.array([c for c in standard_pack() if c not in set(hand) | {up}])
    args = (r, s, to_mask(hand), pool, 24, up, np.zeros(0, np.int64), 4, 10, 9)
    whole = gin_rollouts(*args, 0, 600)
    parts = np.concatenate([gin_rollouts(*args, a, b - a, debug=True) for a, b in ((0, 250), (250, 600))])
    assert (whole == parts).all()


def _world(seed, w, pool):
    perm = np.empty(len(pool), dtype=np.int64)
    rng.shuffle_into(rng.new_state(seed, K.STREAM_WORLD, w), pool, perm)
    return perm


def test_knock_scores_match_a_plain_reference():
    """Option A on sampled worlds equals the rules computed with sim.knock.melds in plain Python."""
    r, s = G.GinRules().to_array(), strategy_matrix(parse_strategies("simple", "gin", 2))
    hand, up = parse_cards(GIN_8), int(parse_cards("5C")[0])
    pool = np.array([c for c in standard_pack() if c not in set(hand) | {up}], dtype=np.int64)
    out = gin_rollouts(r, s, to_mask(hand), pool, 20, up, np.zeros(0, np.int64), 6, 10, 4, 0, 60)
    melds = min_deadwood(GIN_8).melds
    for w in range(60):
        opp = _world(4, w, pool)[:10]
        dd = layoff([int(c) for c in opp], melds).deadwood
        expect = dd - 8 if dd > 8 else -(8 - dd + 25)
        assert out[w, K.K_PTS] == expect and out[w, K.K_WIN] == (expect > 0)
    # tonk: drop settled by the rule in rules/tonk.md
    rt = TK.TonkRules(players=3).to_array()
    st = strategy_matrix(parse_strategies("simple", "tonk", 3))
    hand = parse_cards("9S 8D")
    pool = np.array([c for c in standard_pack() if c not in set(hand)], dtype=np.int64)
    out = tonk_rollouts(rt, st, to_mask(hand), [2, 3], pool, 20, K.UP_SAMPLE, np.zeros(0, np.int64), 9, 2,
                        0, 200, debug=True)
    vals = value_table()
    for w in range(200):
        perm = _world(2, w, pool)
        c1, c2 = int(vals[perm[1:3]].sum()), int(vals[perm[3:6]].sum())
        low = min(c1, c2)
        if 17 < low:
            expect = 2
        else:
            expect = -2 * ((c1 <= 17) + (c2 <= 17)) - 1 * ((c1 == low) + (c2 == low))
        assert out[w, K.K_PTS] == expect


def _cli(argv):
    top = argparse.ArgumentParser(prog="rummylab")
    KA_CMD.add_parser(top.add_subparsers(dest="command", required=True))
    args = top.parse_args(argv)
    return args.func(args)


def test_cli(capsys):
    assert _cli(["knock", "--variant", "gin", "--hand", GIN_32, "--turn", "6", "--upcard", "5C"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deadwood is 32" in err and "<= 10" in err
    assert _cli(["knock", "--variant", "tonk", "--players", "3", "--hand", "AS 2D 3C 5H", "--turn", "4",
                 "--spread", "7S 7H 7D", "--worlds", "2000", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["recommendation"] in KA.RECOMMENDATIONS and d["worlds"] == 2000 and d["unit"] == "stakes"
    assert _cli(["knock", "--hand", GIN_8, "--turn", "3", "--upcard", "5C", "--budget", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "recommendation:" in out and "knock - play on" in out and "P(win the hand)" in out


def test_played_opponent_model_is_stronger_and_reproducible():
    kw = dict(turn=9, upcard="5C", worlds=2000, seed=2)
    uni = advise("gin", GIN_8, opp_model="uniform", **kw)
    played = [advise("gin", GIN_8, opp_model="played", debug=True, **kw) for _ in range(2)]
    assert played[0].ev_knock == played[1].ev_knock and played[0].diff == played[1].diff
    # an opponent that has played 8 turns holds far less deadwood than 10 random cards
    assert played[0].ev_knock.hi < uni.ev_knock.lo - 10
    assert any("replayed through 8" in n for n in played[0].notes)
    with pytest.raises(AdviceError, match="needs --history"):
        advise("tonk", "AS 2D", turn=3, players=3, opp_model="played")


def test_sampling_stops_on_ci_budget_or_no_difference():
    def fake(diff):
        def call(first, n):
            out = np.zeros((n, K.N_OUT), dtype=np.int64)
            w = np.arange(first, first + n)
            out[:, K.K_PTS] = (w % 7) + diff(w)
            out[:, K.P_PTS] = w % 7
            return out
        return call
    opts = dict(budget_s=0.05, min_worlds=2000, max_worlds=10**9, worlds=None)
    s, n, _, _, stopped = KA._sample(fake(lambda w: 0 * w), **opts)
    assert stopped == "no difference" and n == 2000
    s, n, _, _, stopped = KA._sample(fake(lambda w: 1 + 0 * w), **opts)    # no call from zero variance
    assert stopped == "budget" and n >= 2000
    verdict = KA._verdict(s, n, "points", stopped)
    assert verdict[6] == "too close to call" and "no call while fewer than" in verdict[7]
    assert verdict[2].lo == -np.inf and verdict[2].hi == np.inf and verdict[5] == 1.0
    s, n, _, _, stopped = KA._sample(fake(lambda w: np.where(w % 2 == 0, 1, -1)), **opts)
    assert stopped == "budget" and n >= 2000
    assert KA._verdict(s, n, "points", stopped)[6] == "too close to call"
    s, n, _, _, stopped = KA._sample(fake(lambda w: 0 * w), **dict(opts, worlds=2500))
    assert stopped == "worlds" and n == 2500


def _rows(d):
    """A fake world sampler serving the differences ``d`` (knock pts; play on scores 0)."""
    def call(first, n):
        out = np.zeros((n, K.N_OUT), dtype=np.int64)
        out[:, K.K_PTS] = d[first:first + n]
        return out
    return call


@pytest.mark.slow
def test_sequential_sampler_makes_few_false_calls_however_often_it_looks():
    """A true difference of exactly 0 (uniform integers -8..8, sd 4.9), looked at every 100
    worlds up to 10,000 (100 looks): the confidence sequence calls knock/play on in at most
    5% of the runs; stopping at the first t interval that excludes 0 calls it in ~40%."""
    from scipy import stats
    reps, n_max, look = 400, 10_000, 100
    d = np.random.default_rng(0).integers(-8, 9, (reps, n_max))
    calls = 0
    for r in range(reps):
        s, n, _, _, stopped = KA._sample(_rows(d[r]), budget_s=1e9, min_worlds=look,
                                         max_worlds=n_max, worlds=None, batch=look)
        calls += KA._verdict(s, n, "points", stopped)[6] != "too close to call"
        assert stopped in ("ci", "max_worlds")
    n = np.arange(look, n_max + 1, look)
    c, c2 = np.cumsum(d, 1)[:, look - 1::look], np.cumsum(d * d, 1)[:, look - 1::look]
    se = np.sqrt((c2 - c * c / n) / (n - 1) / n)
    naive = (np.abs(c / n) > stats.t.ppf(0.975, n - 1) * se).any(1).mean()
    assert calls / reps <= 0.05 and naive > 0.25


def test_no_call_from_worlds_that_never_vary():
    """A true difference of 0 made of -1 in most worlds and +2239 in one in 2,240: the first
    look (2,000 worlds) often sees no jump, a zero-variance point interval excluding 0, which
    called play on in 42% of the runs; with no call before 20 worlds differ from the rest,
    at most 5% (measured 2% over 400 runs to 100,000 worlds)."""
    rng = np.random.default_rng(0)
    reps, n_max, jump = 300, 40_000, 2239
    calls = 0
    for _ in range(reps):
        d = np.where(rng.random(n_max) < 1 / (jump + 1), jump, -1)
        s, n, _, _, stopped = KA._sample(_rows(d), budget_s=1e9, min_worlds=2000, max_worlds=n_max, worlds=None)
        calls += KA._verdict(s, n, "points", stopped)[6] != "too close to call"
    assert calls / reps <= 0.05
    s, n, _, _, stopped = KA._sample(_rows(np.full(4000, 3)), budget_s=1, min_worlds=1, max_worlds=1, worlds=4000)
    assert KA._verdict(s, n, "points", stopped)[6] == "too close to call"       # nor from a fixed size


def test_worlds_that_vary_are_counted_against_the_common_difference_not_the_first_world():
    """The first world's knock - play on is a value no other world has: the other 3,999 still
    vary (uniform -30..30 plus 1.5), so the interval exists and calls knock.  Counted against
    the first world's value (until 2026-12-05) only that one world "varied", and nothing was
    ever called; the message names the most common value."""
    g = np.random.default_rng(7)
    d = np.concatenate([[500], g.integers(-30, 31, 3999) + (g.random(3999) < 0.5) * 3])
    s, n, _, _, stopped = KA._sample(_rows(d), budget_s=1, min_worlds=1, max_worlds=1, worlds=4000)
    assert KA.varied(s, n) == n - max(np.unique(d, return_counts=True)[1])
    assert KA._verdict(s, n, "points", stopped)[6] == "knock"
    rare = np.where(np.arange(4000) < 5, 7, -1)              # 5 worlds of +7 first, then -1
    s, n, _, _, stopped = KA._sample(_rows(rare), budget_s=1, min_worlds=1, max_worlds=1, worlds=4000)
    verdict = KA._verdict(s, n, "points", stopped)
    assert KA.varied(s, n) == 5 and verdict[6] == "too close to call" and "was -1 points in all but 5" in verdict[7]


def test_sequential_sampler_finds_a_typical_difference_within_the_budget():
    """knock - play on = 0.3 with sd 4.9 (uniform -8..8 plus a 30% chance of +1): found
    ("knock", interval above 0) in every one of 200 runs within 40,000 worlds (a fraction of
    what a 3 s budget samples for Gin), after 2,000-8,000 worlds."""
    stops = []
    for r in range(200):
        g = np.random.default_rng(1000 + r)
        d = g.integers(-8, 9, 40_000) + (g.random(40_000) < 0.3)
        s, n, _, _, stopped = KA._sample(_rows(d), budget_s=1e9, min_worlds=2000, max_worlds=40_000,
                                         worlds=None)
        assert KA._verdict(s, n, "points", stopped)[6] == "knock" and stopped == "ci"
        stops.append(n)
    assert np.median(stops) <= 6000


def test_intervals_are_confidence_sequences_unless_the_size_is_fixed():
    d = np.random.default_rng(5).integers(-8, 9, 4000)
    s, n, _, _, stopped = KA._sample(_rows(d), budget_s=1e9, min_worlds=10**6, max_worlds=4000,
                                     worlds=None)
    seq = KA._verdict(s, n, "points", stopped)
    s, n, _, _, stopped = KA._sample(_rows(d), budget_s=1, min_worlds=1, max_worlds=1, worlds=4000)
    fixed = KA._verdict(s, n, "points", stopped)
    assert fixed[2].value == seq[2].value and fixed[2].n == seq[2].n == 4000
    # the same worlds: the sequence is 1.7 times as wide at 4,000 worlds (the price of looking)
    assert seq[2].half_width > 1.5 * fixed[2].half_width
    assert "confidence sequence" in seq[7] and "anytime-valid p" in seq[7] and "CI" in fixed[7]
    a = advise("gin", GIN_8, turn=3, upcard="5C", budget_s=0.2, seed=1)
    assert a.intervals == SQ.method(sequential=True, weighted=False)
    assert any("Waudby-Smith" in x for x in a.notes)
    fixed = advise("gin", GIN_8, turn=3, upcard="5C", worlds=500, seed=1)
    assert fixed.intervals == SQ.method(sequential=False, weighted=False)


# ----------------------------------------------------------------------------------------
# Knock Rummy

KR_RUMMY_2 = "AS 2S 3S 4S 7H 7D 7C 9S 9D 9H"   # 0 deadwood, 2 players
KR_RUMMY_3 = "AS 2S 3S 4S 7H 7D 7C"            # 0 deadwood, 3-5 players
KR_9 = "AS 2S 3S 7H 7D 7C 9S"                  # deadwood 9


def test_knock_rummy_rummy_hand_says_knock():
    for hand, n in ((KR_RUMMY_2, 2), (KR_RUMMY_3, 3)):
        a = advise("knock-rummy", hand, turn=3, players=n, upcard="KD", **FAST)
        assert a.hand_score == 0 and a.recommendation == "knock" and a.knock_limit is None
        assert a.ev_knock.value >= 25 and a.win_knock.value == 1.0 and a.diff.lo > 0
        assert a.worlds >= 2000 and a.players == n and a.unit == "points"
        assert any("rummy" in x for x in a.notes)


def test_knock_rummy_same_seed_same_numbers_and_batching_does_not_matter():
    kw = dict(turn=4, players=3, upcard="KD", worlds=2000)
    a, b, c = (advise("knock-rummy", KR_9, seed=s, **kw) for s in (11, 11, 12))
    key = lambda x: (x.ev_knock, x.ev_play, x.diff, x.win_knock, x.win_play, x.worlds)
    assert key(a) == key(b) and key(a) != key(c)
    r = KR.KnockRummyRules(players=3).to_array()
    s = strategy_matrix(parse_strategies("simple", "knock-rummy", 3))
    hand, up = parse_cards(KR_9), int(parse_cards("KD")[0])
    pool = np.array([c for c in standard_pack() if c not in set(hand) | {up}], dtype=np.int64)
    for replay in (0, 3):
        args = (r, s, to_mask(hand), pool, 10, up, np.zeros(0, np.int64), 4, 9)
        whole = kr_rollouts(*args, 0, 500, replay=replay)
        parts = np.concatenate([kr_rollouts(*args, x, y - x, replay=replay, debug=True)
                                for x, y in ((0, 180), (180, 500))])
        assert (whole == parts).all()


def _kr_reference(dws, rummy, settle, bonus=25, penalty=10):
    """Knock Rummy's showdown by rules/knock_rummy.md, me (seat 0) ending the hand: my net
    (seed: (n-1)*mine - sum of the others'; pairwise: mine) and whether I win."""
    n, low = len(dws), min(dws)
    order = [(1 + k) % n for k in range(n)]          # from the knocker's left; the knocker last
    tied = [q for q in order if dws[q] == low]
    if rummy:
        winner = 0
    elif dws[0] == low or len(tied) == 1:
        winner = tied[0]
    else:
        winner = None
    scores = [0] * n
    if winner is not None:
        extra = bonus if rummy else (penalty if winner != 0 else 0)
        if settle == "seed":
            scores[winner] = sum(dws) - 2 * dws[winner] + extra
        else:
            for q in range(n):
                if q != winner:
                    pay = (dws[q] - dws[winner] + (bonus if rummy else 0)
                           + (penalty if q == 0 and not rummy else 0))
                    scores[q] -= pay
                    scores[winner] += pay
    net = (n - 1) * scores[0] - sum(scores[1:]) if settle == "seed" else scores[0]
    return net, winner == 0


@pytest.mark.parametrize("hand, n, settle", [
    ("AS 2S 3S 7H 7D 7C 9S", 3, "seed"),
    ("AS 2S 3S 7H 8D KC 9S", 4, "seed"),             # deadwood 34: beaten and tied knocks
    ("AS 2S 3S 4H 7D 7C 9S 9D 9H 8C", 2, "pairwise"),
    (KR_RUMMY_3, 5, "pairwise"),
])
def test_knock_rummy_knock_now_matches_a_plain_reference(hand, n, settle):
    """Option A on sampled worlds (uniform model) equals the rules computed in plain Python
    from the same shuffled pool: opponents' hands dealt in seat order after the upcard."""
    r = KR.KnockRummyRules(players=n, settle=settle).to_array()
    s = strategy_matrix(parse_strategies("simple", "knock-rummy", n))
    h, up = parse_cards(hand), int(parse_cards("KD")[0])
    pool = np.array([c for c in standard_pack() if c not in set(h) | {up}], dtype=np.int64)
    hs, dw0 = KR.hand_size(n), min_deadwood(hand).deadwood
    out, dws = kr_rollouts(r, s, to_mask(h), pool, 5, up, np.zeros(0, np.int64), 2, 6, 0, 150,
                            with_deadwood=True)
    for w in range(150):
        perm = _world(6, w, pool)
        d = [dw0] + [min_deadwood([int(c) for c in perm[k * hs:(k + 1) * hs]]).deadwood
                     for k in range(n - 1)]
        assert list(dws[w]) == d
        net, won = _kr_reference(d, dw0 == 0, settle)
        assert out[w, K.K_PTS] == net and out[w, K.K_WIN] == won


def test_knock_rummy_played_model_conditions_the_opponents():
    r = KR.KnockRummyRules(players=3).to_array()
    s = strategy_matrix(parse_strategies("simple", "knock-rummy", 3))
    hand, up = parse_cards(KR_9), int(parse_cards("KD")[0])
    pool = np.array([c for c in standard_pack() if c not in set(hand) | {up}], dtype=np.int64)
    args = (r, s, to_mask(hand), pool, 3, up, np.zeros(0, np.int64), 6, 2, 0, 2000)
    _, uni = kr_rollouts(*args, with_deadwood=True)
    _, played = kr_rollouts(*args, replay=5, with_deadwood=True, debug=True)
    # opponents that have played 5 turns without knocking (simple: at <= 15) hold less
    # deadwood than 7 random cards, and more than 15
    assert played[:, 1:].mean() < uni[:, 1:].mean() - 5
    assert played[:, 1:].min() > 15 and uni[:, 1:].min() <= 15
    a = {m: advise("knock-rummy", KR_9, turn=6, players=3, upcard="KD", worlds=2000, seed=2, opp_model=m)
         for m in ("uniform", "played")}
    assert a["played"].ev_knock.hi < a["uniform"].ev_knock.lo
    assert any("replayed through 5" in x for x in a["played"].notes)
    # an opponent that always knocks cannot have reached turn 6: refused, not played
    with pytest.raises(AdviceError, match=r"opponent model 'played'.* 1,001 deals let every opponent "
                                          r"reach your turn 6 .*\(hand"):
        advise("knock-rummy", KR_9, turn=6, players=3, worlds=10, opponent="threshold(knock=100)")


def test_knock_rummy_extra_card_and_net_scale():
    a = advise("knock-rummy", KR_9 + " KH", turn=2, players=4, upcard="5H", worlds=2000, seed=1)
    assert a.discard == "KH" and a.upcard == "KH" and a.hand_score == 9 and len(a.hand) == 7
    assert any("best discard is KH" in x for x in a.notes) and any("5H given as well" in x for x in a.notes)
    assert any("average opponent" in x for x in a.notes) and a.stock == 52 - 28 - 1 - 5
    # seed settlement: the net against the average opponent is (n-1)*mine - others, over n-1
    p = AD.prepare(KR.VARIANT, parse_cards(KR_9), turn=2, upcard="KH", discards="5H", spreads=(), players=4,
                    opponent="simple", strategy="simple", rules=None, stock=None, opp_cards=None,
                    first_upcard=None, history=None, seed=1, opp_model="played", debug=False)
    raw = p.call(0, 2000)
    assert p.scale == pytest.approx(1 / 3)
    assert a.ev_knock.value == pytest.approx(raw[:, K.K_PTS].mean() / 3)


@pytest.mark.parametrize("kwargs, err, match", [
    (dict(players=6), AdviceError, "2 to 5 players, not 6"),
    (dict(players=4, hand=KR_9 + " KH 4C"), AdviceError,
     r"with 4 players a hand holds 7 cards \(or 8 before discarding\), got 9"),
    (dict(players=2), AdviceError, r"with 2 players a hand holds 10 cards \(or 11"),
    (dict(spreads=["7S 7H 7D"]), AdviceError, "no spreads"),
    (dict(first_upcard="2D"), AdviceError, "first-upcard"),
    (dict(opp_cards=[7]), AdviceError, "opp-cards"),
    (dict(hand="AS AS 3S 7H 7D 7C 9S"), CardError, "AS appears 2 times"),
    (dict(upcard="9S"), CardError, "9S is both in your hand and the upcard"),
    (dict(turn=3, stock=10), AdviceError,
     r"stock 10 is impossible on your turn 3 with 3 players: .* 23 to 30"),
    (dict(stock=0), AdviceError, "stock 0: .*cannot be played on"),
    (dict(rules=["players=4"]), AdviceError, "players=4 contradicts players=3"),
    (dict(players=5, turn=2, discards="2H 3H 4H 5H 6H 8H 9H TH JH QH KH AD 2D 3D 4D 5D"), AdviceError,
     "leave no card for the stock"),
    (dict(opponent="simple,simple,simple"), AdviceError, "3 opponent strategies given for 2"),
])
def test_knock_rummy_illegal_positions_raise_clear_errors(kwargs, err, match):
    kw = dict(hand=KR_9, turn=4, players=3) | kwargs
    with pytest.raises(err, match=match):
        advise("knock-rummy", kw.pop("hand"), **kw)


def test_knock_rummy_cli(capsys):
    from analysis.cli import main
    assert main(["knock", "--variant", "knock-rummy", "--players", "4", "--hand", KR_9 + " KH 4C",
                 "--turn", "3"]) == 2
    err = capsys.readouterr().err
    assert err == "rummylab: error: with 4 players a hand holds 7 cards (or 8 before discarding), got 9\n"
    assert main(["knock", "--variant", "knock-rummy", "--players", "4", "--hand", KR_9, "--turn", "3",
                 "--worlds", "2000", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["variant"] == "knock-rummy" and d["opp_model"] == "played" and d["worlds"] == 2000
    assert d["hand_score"] == 9 and d["knock_limit"] is None and d["stock"] == 14


# ----------------------------------------------------------------------------------------
# the hand's history (sim/advisors/history.py, sim/strategies/history_weights.py)


def _played_position(variant, n, turn):
    """A real position from the engine: the first hand (seat 0 plays first) that reaches seat
    0's discard on its own turn ``turn`` while an opponent holds a card it took from the pile:
    (history text, seat 0's hand after the discard, the discard, the turns before, each as
    (seat, discard))."""
    mod = G if variant == "gin" else KR
    rules = G.GinRules() if variant == "gin" else KR.KnockRummyRules(players=n)
    strat = strategy_matrix(parse_strategies("simple", variant, n))
    for h in range(n - 1, 10_000, n):
        tr, out = TR.new_trace(), np.zeros((1, len(mod.VARIANT.columns(n))), np.int64)
        mod.play_chunk(rules.to_array(), strat, 1, h, out, trace=tr)
        hands, items, turns, got, taken = {}, [], [], None, set()
        for kind, seat, a, _ in TR.events(tr):
            if kind == "deal":
                hands.setdefault(seat, set()).add(a)
            elif kind == "upcard":
                items.append(f"up {card_text(a)}")
            elif kind in ("take_pile", "draw_stock"):
                hands[seat].add(a)
                got = f"{seat}:take {card_text(a)}" if kind == "take_pile" else f"{seat}:draw"
                taken |= {(seat, a)} if kind == "take_pile" and seat else set()
            elif kind == "discard":
                hands[seat].discard(a)
                if seat == 0 and len(turns) == n * (turn - 1) and any(c in hands[q] for q, c in taken):
                    return "; ".join(items), sorted(hands[0]), a, turns
                items.append(f"{got} discard {card_text(a)}")
                turns.append((seat, a))


def _conditioned(variant, n, turn, model="played", worlds=2000):
    text, hand, disc, turns = _played_position(variant, n, turn)
    prep = AD.prepare(G.VARIANT if variant == "gin" else KR.VARIANT, hand, turn=turn, upcard=int(disc), discards=None, spreads=(), players=n,
                       opponent="simple", strategy="simple", rules=["knock_limit=100"] * (variant == "gin"),
                       stock=None, opp_cards=None, first_upcard=None, history=text, seed=4,
                       opp_model=model, debug=True)
    res = prep.call(0, worlds, with_hands=True)
    w = res[1] if len(res) == 3 else np.ones(worlds)
    k = HI.check(text, players=n, turn=turn, hand_size=10 if n == 2 else 7, hand=np.array(hand),
                 discard=int(disc), stock_floor=1, dealer_offer=variant == "gin")
    return prep, k, res[-1], w, turns


@pytest.mark.slow
@pytest.mark.parametrize("variant, n, model", [("gin", 2, "played"), ("gin", 2, "uniform"),
                                                ("knock-rummy", 3, "played")])
def test_history_pickups_stay_in_the_opponents_hands_and_discards_never_do(variant, n, model):
    prep, k, hands, w, turns = _conditioned(variant, n, 4, model, worlds=2000 if n == 2 else 400)
    assert (w > 0).all() and prep.call(0, 5).__class__ is (tuple if model == "played" else np.ndarray)
    for s in range(1, n):
        held = hands[:, s].astype(object)
        assert all(h & k.retained[s] == k.retained[s] for h in held)       # its pickups, kept
        thrown = {a for q, a in turns if q == s} - {c for c in range(64) if k.retained[s] >> c & 1}
        assert thrown and not any(h >> c & 1 for h in held for c in thrown)
        assert not any(h >> c & 1 for h in held for c in k.pile)           # the pile: in no hand


def _exact(k, srow, hs, bars, drawn_ok, pool, rng_, tries):
    """Plain rejection, forwards: seat 1's unseen cards and the order it got its cards in are
    uniform; keep the hand if its strategy replays every observed turn.  Its kept hands."""
    turns, kept, t = k.turns[1], [], G.TABLES
    dw = lambda h: deadwood(np.uint64(h), t.run_value, t.suit_total, t.rank_value)
    draws = [j for j, x in enumerate(turns) if x[0] < 0]
    for _ in range(tries):
        unseen = list(rng_.permutation(pool)[:hs - bin(k.retained[1]).count("1")])
        cards = unseen + [c for c, _ in k.unknown_origin[1]]
        order = rng_.permutation(len(cards))
        slot = {cards[i]: p for p, i in enumerate(order)}      # < hs dealt, then the draws
        if any(slot[c] >= hs and draws[slot[c] - hs] >= j + drawn_ok for c, j in k.unknown_origin[1]):
            continue
        hand = sum(1 << c for c in cards if slot[c] < hs)
        drawn = {draws[slot[c] - hs]: c for c in cards if slot[c] >= hs}
        ok = k.passed_up < 0 or not KS.wants_upcard(srow, np.uint64(hand), dw(hand), k.passed_up,
                                                     t.run_value, t.suit_total, t.rank_value)
        for j, (take, y, top, _, _, others) in enumerate(turns):
            ok = ok and KS.wants_upcard(srow, np.uint64(hand), dw(hand), top, t.run_value,
                                        t.suit_total, t.rank_value) == (take >= 0)
            c = take if take >= 0 else drawn[j]
            fb = np.uint64(1 << c if take >= 0 or not drawn_ok else 0)
            code, dwa = KS.choose_discard(srow, np.uint64(hand | 1 << c), fb, np.uint64(others),
                                          t.run_value, t.suit_total, t.rank_value, rng.new_state(0, 0, 0))
            ok = ok and code == y and dwa > bars[j]
            hand = (hand | 1 << c) & ~(1 << y)
        if ok:
            kept.append(hand)
    return kept


@pytest.mark.slow
@pytest.mark.parametrize("variant, n", [("gin", 2), ("knock-rummy", 2)])
def test_history_weights_match_exact_rejection(variant, n):
    """The weighted worlds (sequential importance sampling) and plain rejection estimate the
    same conditioned deal: the opponent's mean deadwood and how often it holds each card."""
    prep, k, hands, w, _ = _conditioned(variant, n, 3, worlds=20_000)
    srow = strategy_matrix(parse_strategies("simple", variant, n))[1]
    bars = [min(100, G.knock_threshold(srow, x[4], x[3])) if variant == "gin" else
            max(0.0, KS.knock_threshold_opp(srow, x[4], x[3], 1)) for x in k.turns[1]]
    pool, _, _ = HW.setup(k, from_mask(int(hands[0, 0])), int(parse_cards(prep.info["upcard"])[0]),
                          hand_size=10, bars=[[], bars], drawn_discardable=variant != "gin")
    ref = _exact(k, srow, 10, bars, variant != "gin", pool, np.random.default_rng(1), 60_000)
    assert len(ref) > 300 and len(k.turns[1]) == 2
    dw = lambda hs: np.array([min_deadwood(from_mask(int(h))).deadwood for h in hs], float)
    d_is, d_ref = dw(hands[:, 1]), dw(ref)
    m = (w * d_is).sum() / w.sum()
    se = np.sqrt((w * w * (d_is - m) ** 2).sum()) / w.sum()
    assert abs(m - d_ref.mean()) < 4 * np.hypot(se, d_ref.std() / np.sqrt(len(ref)))
    for c in pool:
        p_is = (w * np.array([int(h) >> int(c) & 1 for h in hands[:, 1]])).sum() / w.sum()
        p_ref = np.mean([h >> int(c) & 1 for h in ref])
        assert abs(p_is - p_ref) < 0.08


@pytest.mark.slow
def test_history_reports_the_effective_sample_size(capsys):
    from analysis.cli import main
    text, hand, disc, _ = _played_position("gin", 2, 4)
    kw = dict(turn=4, upcard=card_text(disc), history=text, rules=["knock_limit=100"], worlds=3000)
    a, u = (advise("gin", [card_text(c) for c in hand], opp_model=m, **kw) for m in ("played", "uniform"))
    assert 0 < a.ess <= a.worlds == 3000 < a.worlds_tried and a.history == text
    assert any("Kish effective sample size" in x for x in a.notes)
    assert u.ess == u.worlds == u.worlds_tried == 3000 and any(" holds " in x for x in u.notes)
    assert main(["knock", "--hand", GIN_8, "--turn", "3", "--upcard", "5C",
                 "--history", "up KD; 0:drew"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rummylab: error: history item 2 ('0:drew')")
    t = advise("tonk", "AS 2D 3C 4H", turn=3, players=3, history=TH3, worlds=300)
    assert t.ess == t.worlds == 300 and t.stock == 32 and any("not weighted" in x for x in t.notes)
    assert main(["knock", "--variant", "tonk", "--players", "3", "--hand", "AS 2D 3C 4H", "--turn", "3",
                 "--history", TH3.replace("take KD", "take 9H")]) == 2 and (err := capsys.readouterr().err)
    assert err.count("\n") == 1 and "history item 3 (1:take 9H discard 9H): the top of the" in err


H3 = "up KD; 0:draw discard QC; 1:draw discard JH; 0:draw discard TS; 1:take TS discard 4D"
TH3 = ("up 7D; 0:draw discard KD; 1:take KD discard 9H; 2:draw spread 5S 5H 5C discard QS; "
       "0:draw hit 5D discard JC; 1:draw discard 8C; 2:take 8C discard TH")
T3 = dict(variant="tonk", hand="AS 2D 3C 4H", players=3, upcard=None)


@pytest.mark.parametrize("history, kwargs, match", [
    ("0:draw discard QC", {}, r"history item 1 \('0:draw discard QC'\): write 'up CARD' first"),
    (H3.replace("0:draw discard TS", "0:drew discard TS"), {}, "history item 4"),
    ("up KX; 0:draw discard QC", {}, "history item 1: .*KX"),
    ("up KD; 0:draw discard QC; 1:draw discard JH", {},
     "2 turns given, but before your turn 3 with 2 players 4"),
    (H3.replace("1:draw discard JH; 0:draw", "0:draw discard JH; 1:draw"), {}, "seat 1's turn, not seat 0's"),
    (H3.replace("1:take TS", "1:take QC"), {}, "the top of the discard pile is TS, not QC"),
    (H3.replace("1:take TS discard 4D", "1:take TS discard TS"), {}, "the card just taken"),
    (H3.replace("discard JH", "discard 9S"), {},
     "9S is in your hand but the history leaves it in the discard pile"),
    (H3.replace("discard 4D", "discard QC"), {}, "QC is already in the discard pile"),
    (H3.replace("0:draw discard QC", "0:take KD discard QC"), {}, "you took KD from the pile and never discarded"),
    (H3, dict(discards="2H"), "drop --discards"),
    (H3, dict(upcard=None), "give --upcard"),
    (H3, dict(stock=10), "stock 10: the history leaves 27"),
    (TH3.replace("5C", "6C"), T3, "not a legal book"), (TH3, T3 | dict(spreads=["5S 5H 5C"]), "drop --spread"),
    (TH3.replace("hit 5D", "hit 9D"), T3, "cannot be hit"), (TH3.replace("C discard TH", "C discard 8C"), T3, "taken"),
    (TH3.replace("discard TH", "discard 5S"), T3, "history item 7 .*5S is already on the table"),
    (TH3, T3 | dict(opp_cards=[5, 3]), "leaves them 5, 2"), (TH3, T3 | dict(hand="AS 2D"), "leaves you 4"),
])
def test_malformed_or_impossible_history_is_refused(history, kwargs, match):
    with pytest.raises(AdviceError, match=match):
        advise(**(dict(variant="gin", hand=GIN_8, turn=3, upcard="5C", history=history, worlds=10) | kwargs))


def test_gin_played_model_refuses_a_position_no_deal_reaches():
    with pytest.raises(AdviceError, match=r"none of 1,001 deals let the opponent reach your turn 6 "
                                          r"without knocking \(hand AS 2S"):
        advise("gin", GIN_8, turn=6, rules=["knock_limit=100"], opponent="threshold(knock=100)", worlds=10)


def test_tonk_history_pickups_stay_in_the_opponents_hands_and_played_cards_never_do():
    kw = dict(turn=3, seed=2, debug=True, opponent="simple", strategy="simple", **dict.fromkeys(
        "upcard discards spreads rules stock opp_cards first_upcard".split()))
    _, hands = AD.prepare(TK.VARIANT, "AS 2D 3C 4H", players=3, history=TH3, opp_model="uniform", **kw).call(0, 500, with_hands=True)
    played = to_mask(parse_cards("7D 9H QS JC TH 5S 5H 5C 5D"))     # the pile and the table
    assert [{bin(int(h)).count("1") for h in hands[:, s]} for s in (1, 2)] == [{5}, {2}]
    assert all(int(a) >> 44 & 1 and int(b) >> 55 & 1 and not (int(a) | int(b)) & played for a, b in hands[:, 1:])
    tw = "up 2C; 0:draw discard KD; 1:draw discard QH; 0:draw discard JC; 1:draw discard TS"   # weighted: seat 1
    *r, h = AD.prepare(TK.VARIANT, "AS 2D 3C 4H 9S", players=2, history=tw, opp_model="played", **kw).call(0, 800, with_hands=True)
    assert all(c & 15 <= 9 for x in h[:, 1] for c in from_mask(int(x) & ~int(TS.TB.meld_cards(x | 512))))  # <= TS
    assert (r[0][:, K.TRIES] >= 1).all() and 0 < r[1].min() and r[1].sum() ** 2 / (r[1] ** 2).sum() < 800
