"""The search player (sim.search, sim.variants.gin_search): its choice rule, and Gin hands with
a searching seat (cards conserved, reproducible, really deciding, off when search_worlds=0)."""

import numpy as np

from sim.search.worlds import paired_choice, race, shuffle_unseen
from sim.strategies import parse_strategies, parse_strategy, strategy_matrix
from sim.variants import gin

COLS = gin.VARIANT.columns(2)
C = {name: i for i, name in enumerate(COLS)}
# small budgets: every search path (upcard, discard, knock, belief) at a test's cost
SEARCH = "search(search_worlds=8,search_what=7,search_particles=16)"


def _rows(strategies: str, hands: int = 24, seed: int = 5, rules=None) -> np.ndarray:
    r = gin.GinRules.from_options(rules or {}).to_array()
    s = strategy_matrix(parse_strategies(strategies, "gin", 2))
    out = np.zeros((hands, len(COLS)), dtype=np.int64)
    gin.play_chunk(r, s, seed, 0, out, debug=True)   # debug: cards checked after every discard
    return out


def test_paired_choice_needs_a_margin():
    rng = np.random.default_rng(1)
    base = rng.normal(0, 20, 64)
    vals = np.stack([base, base + 5 + rng.normal(0, 1, 64), base + 0.5 + np.tile([10.0, -10.0], 32)], axis=1)
    alive = np.ones(3, dtype=np.bool_)
    assert paired_choice(vals, 64, 3, 2.0, alive) == 1          # clearly better: taken
    alive[1] = False
    assert paired_choice(vals, 64, 3, 2.0, alive) == 0          # noise: the heuristic's choice stays
    assert paired_choice(vals, 64, 3, 0.0, alive) == 2          # z = 0: the plain best mean
    worse = np.stack([base, base - 3 + rng.normal(0, 1, 64)], axis=1)
    assert paired_choice(worse, 64, 2, 0.0, np.ones(2, dtype=np.bool_)) == 0


def test_race_drops_candidates_no_better_than_the_heuristic():
    rng = np.random.default_rng(2)
    base = rng.normal(0, 20, 16)
    vals = np.stack([base, base - 4 + rng.normal(0, 1, 16), base + 4 + rng.normal(0, 1, 16)], axis=1)
    alive = np.ones(3, dtype=np.bool_)
    assert race(vals, 16, 3, 0.0, alive) == 1
    assert list(alive) == [True, False, True]


def test_shuffle_unseen_is_a_permutation_of_the_mask():
    mask = np.uint64(0)
    codes = [0, 5, 17, 33, 50, 60]
    for c in codes:
        mask |= np.uint64(1) << np.uint64(c)
    buf = np.empty(64, dtype=np.int64)
    seen = set()
    for w in range(20):
        n = shuffle_unseen(mask, np.uint64(99), w, buf)
        assert n == len(codes) and sorted(buf[:n]) == codes
        seen.add(tuple(buf[:n]))
    assert len(seen) > 10                                       # worlds differ


def test_search_hands_conserve_cards_and_reproduce():
    a = _rows(f"{SEARCH},strong")
    b = _rows(f"{SEARCH},strong")
    assert np.array_equal(a, b)
    assert np.all(a[:, C["score0"]] == -a[:, C["score1"]])
    assert set(a[:, C["outcome"]]) <= set(range(len(gin.OUTCOMES)))
    c = _rows(f"strong,{SEARCH}", rules={"discard_stock_draw": True, "layoff_mode": "seed"})
    assert np.all(c[:, C["score0"]] == -c[:, C["score1"]])


def test_search_really_decides():
    """Searching changes play in some hands (a search that never leaves its heuristic would be
    a no-op); with search_worlds=0 the search parameters change nothing."""
    heur = _rows("strong,strong", hands=40)
    searched = _rows("search(search_worlds=16,search_z=0),strong", hands=40)
    assert not np.array_equal(heur, searched)
    off = _rows("strong(search_top=5,search_z=0,search_what=7,search_particles=64),strong", hands=40)
    assert np.array_equal(heur, off)


def test_search_only_where_a_game_plays_it():
    # Knock Rummy searches too (the refusal elsewhere: tests/sim/variants/test_knock_rummy_search.py)
    assert parse_strategy("search", "gin").values["search_worlds"] > 0


def test_a_searching_run_is_stored_in_small_chunks_and_resumes(tmp_path):
    """A search is ~1,000x slower per hand: its runs use SEARCH_CHUNK-unit chunks (every core
    busy, a stopped run resumable), and a resumed run equals a whole one."""
    from analysis import jobs
    from sim.runner import CHUNK, SEARCH_CHUNK, make_spec
    spec = make_spec("gin", strategies="search(search_worlds=4),strong", n=2 * SEARCH_CHUNK + 3, seed=2)
    assert spec.chunk == SEARCH_CHUNK and make_spec("gin", strategies="strong").chunk == CHUNK
    out = tmp_path / "run"
    first = jobs.run(spec, jobs=2, out_dir=out, progress=False)
    assert len(list((out / "chunks").glob("*.json"))) == 3
    (out / "meta.json").unlink()
    sorted((out / "chunks").glob("*.json"))[1].unlink()
    resumed = jobs.run(spec, jobs=1, out_dir=out, progress=False)
    assert resumed.n_simulated == SEARCH_CHUNK and resumed.acc.to_dict() == first.acc.to_dict()
