"""The search player's calibrated belief: positions replayed from traces
(analysis.studies.belief_positions), the calibration table, the target drawn from it
(sim.search.calibrated) and the development of a guess (sim.knock.develop), and Gin worlds
built with it (sim.variants.gin_search.world)."""

import numpy as np

from analysis.studies.belief_positions import Positions, calibration_table, positions
from analysis.trace_cmd import trace_stream
from sim.core import rng
from sim.knock.develop import DEVELOP_SWAPS, develop
from sim.knock.melds import min_deadwood_masks
from sim.runner import make_spec
from sim.search import calibrated
from sim.strategies import knock as K
from sim.variants import gin_search as G
from sim.variants.gin import TABLES as T
from sim.variants.gin_hand import S_NPILE, S_SP, S_WIDTH

FULL = (1 << 13) - 1


def _popcount(m: int) -> int:
    return bin(int(m)).count("1")


def _dw(m) -> int:
    return int(min_deadwood_masks(np.array([m], dtype=np.uint64))[0])


def test_positions_are_the_hands_really_held():
    spec = make_spec("gin", rules=[], rule_set=None, strategies="strong", n=30, seed=4)
    pos = positions(trace_stream(spec, range(30)))
    assert len(pos) > 200
    for i in range(len(pos)):
        mine, opp, pile = int(pos.mine[i]), int(pos.opp[i]), int(pos.pile[i])
        assert _popcount(mine) == 10 and _popcount(opp) == 10
        assert mine & opp == 0 and (mine | opp) & pile == 0
        assert _popcount(pile) == pos.pile_len[i] >= 1
        assert int(pos.known[i]) & ~opp == 0                   # known cards are the opponent's
        assert pile >> int(pos.top[i]) & 1
    assert (pos.opp_deadwood == min_deadwood_masks(pos.opp)).all()
    assert pos.own_turn.min() == 1


def _positions(lengths, deadwoods) -> Positions:
    z = np.zeros(len(lengths), dtype=np.uint64)
    one = np.ones(len(lengths), dtype=np.int64)
    return Positions(mine=z, opp=z, opp_deadwood=np.array(deadwoods), pile=z, pile_len=np.array(lengths),
                     known=z, own_turn=one, top=one, opp_turns=one)


def test_calibration_table_quantiles_and_pooling():
    lengths = [1] * 4 + [2] * 4 + [3, 4]
    dws = [10, 20, 30, 40, 0, 0, 8, 8, 2, 6]
    tab, n = calibration_table(_positions(lengths, dws), quantiles=4, min_rows=2)
    assert list(n) == [0, 4, 4, 2]                             # length 3 pools 3 and 4
    assert list(tab[1]) == list(np.quantile([10, 20, 30, 40], [0.125, 0.375, 0.625, 0.875]))
    assert tab[3].min() >= 2 and tab[3].max() <= 6
    assert (tab[0] == 0).all()


def test_target_follows_the_row():
    tab = np.array([[5.0, 5.0, 5.0], [0.0, 10.0, 20.0]])
    st = rng.new_state(np.uint64(3), 0, 0)
    assert {calibrated.target(tab, 0, st) for _ in range(20)} == {5.0}
    draws = np.array([calibrated.target(tab, 7, st) for _ in range(4000)])     # past the last row: the last
    assert draws.min() >= 0 and draws.max() <= 20
    assert abs(draws.mean() - 10) < 0.6
    assert abs(np.median(draws) - 10) < 1.0


def test_develop_keeps_the_known_cards_and_comes_closer():
    rs = np.random.default_rng(8)
    for trial in range(40):
        cards = rs.permutation(52)
        codes = [(c // 13) * 16 + c % 13 for c in cards]
        h = sum(1 << c for c in codes[:10])
        pool = sum(1 << c for c in codes[10:30])
        fixed = sum(1 << c for c in codes[:2])
        goal = float(rs.integers(0, 40))
        st = rng.new_state(np.uint64(trial), 1, 0)
        d = develop(np.uint64(h), np.uint64(pool), np.uint64(fixed), goal, st, T.run_value, T.suit_total, T.rank_value)
        d = int(d)
        assert _popcount(d) == 10 and d & fixed == fixed and d & ~(h | pool) == 0
        assert abs(_dw(d) - goal) <= abs(_dw(h) - goal)
    assert DEVELOP_SWAPS > 0


def _world_hands(belief: float, pile_len: int, worlds: int = 300):
    """The opponent hands of ``worlds`` Gin worlds of a seat holding the five lowest spades and
    hearts, with ``pile_len`` clubs and diamonds on the pile and one known card (KD)."""
    srow = np.zeros(len(K.PARAMS) + 1)
    srow[K.P_SEARCH_BELIEF] = belief
    state = np.zeros(S_WIDTH, np.int64)
    state[S_NPILE] = pile_len
    state[S_SP] = 21 + pile_len
    pile = np.zeros(52, np.int64)
    pile[:pile_len] = ([3 * 16 + r for r in range(13)] + [2 * 16 + r for r in range(12)])[:pile_len]   # clubs, diamonds
    known_card = 2 * 16 + 12                                     # KD: the opponent took it
    hands = np.array([0x1F | (0x1F << 16), (1 << known_card) | 0x1FE0 | (1 << 21)], np.uint64)
    picked = np.array([0, 1 << known_card], np.uint64)
    out = []
    for w in range(worlds):
        hands_w = np.zeros(2, np.uint64)
        G.world(srow, srow, 0, np.uint64(0), hands, pile, picked, state, np.zeros(0, np.uint64), np.zeros(0), np.uint64(7),
                w, worlds, np.zeros(52, np.int64), hands_w, np.zeros(52, np.int64), T.run_value, T.suit_total,
                T.rank_value)
        out.append(int(hands_w[1]))
    return out, int(hands[0]), sum(1 << int(c) for c in pile[:pile_len]), 1 << known_card


def test_calibrated_worlds_hold_real_strength():
    """At a long pile the calibrated opponent holds far less deadwood than a uniform one, and
    every world deals it 10 cards it could hold, the known one among them."""
    tab = G.CALIBRATION
    assert tab.shape[0] > 10, "sim/search/calibration.json holds Gin's table"
    uni, mine, pile, known = _world_hands(0, 14)
    cal, _, _, _ = _world_hands(1, 14)
    for h in uni + cal:
        assert _popcount(h) == 10 and h & (mine | pile) == 0 and h & known
    d_uni = np.mean([_dw(h) for h in uni])
    d_cal = np.mean([_dw(h) for h in cal])
    assert d_cal < d_uni - 10
    assert abs(d_cal - tab[14].mean()) < 4                      # the table's own level


def test_gin_search_presets_name_their_belief():
    from sim.strategies import parse_strategy
    new, old = parse_strategy("search", "gin").values, parse_strategy("search-uniform", "gin").values
    assert new["search_belief"] == G.BELIEF_CALIBRATED and old["search_belief"] == 0
    assert new["search_worlds"] == old["search_worlds"] > 0
    strong = parse_strategy("strong", "gin").values
    assert all(old[k] == v for k, v in strong.items() if not k.startswith("search"))


def _mask(*codes) -> np.uint64:
    return np.uint64(sum(1 << c for c in codes))


def test_policy_weight_prefers_hands_whose_discard_was_the_policy_s():
    """A policy that discards to least deadwood: a hand holding 2S-3S explains discarding KH
    (weight 1); one where KH would have made a set of kings does not."""
    from sim.strategies import parse_strategy, strategy_matrix
    row = strategy_matrix([parse_strategy("simple", "gin")])[0]
    kh = 16 + 12
    # AS 2S 3S (run), 5H 6H 7H (run), 9D TD, JC, 4C: discarding KH from it is the least deadwood
    plain = _mask(0, 1, 2, 16 + 4, 16 + 5, 16 + 6, 32 + 8, 32 + 9, 48 + 10, 48 + 3)
    # KS KD with KH make a set: discarding KH gives it away
    kings = _mask(12, 32 + 12, 1, 2, 16 + 4, 16 + 5, 16 + 6, 32 + 8, 48 + 10, 48 + 3)
    w_plain = G._discard_weight(row, plain, kh, np.uint64(0), 1.0, T.run_value, T.suit_total, T.rank_value)
    w_kings = G._discard_weight(row, kings, kh, np.uint64(0), 1.0, T.run_value, T.suit_total, T.rank_value)
    assert w_plain == 1.0 and w_kings < 1e-3


def test_last_discard_is_the_pile_top_or_the_card_taken():
    state = np.zeros(S_WIDTH, np.int64)
    pile = np.zeros(52, np.int64)
    pile[:2] = [5, 20]
    state[S_NPILE] = 2
    picked = np.zeros(2, np.uint64)
    assert G._last_discard(0, np.uint64(0), pile, picked, state) == -1      # the opponent has not played
    state[G.S_OWN0 + 1] = 1
    assert G._last_discard(0, np.uint64(0), pile, picked, state) == 20
    picked[0] = _mask(33)
    state[S_NPILE] = 1                                                       # seat 0 took 33 from the pile
    assert G._last_discard(0, _mask(33), pile, picked, state) == 33
