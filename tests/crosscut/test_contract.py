"""The game contract, checked for every registered game and player count.

Cards are conserved (every kernel checks stock + pile + hands + table = the pack after each
turn when ``debug`` is on), scores sum to zero where the game declares it, hands respect the
declared turn limit, columns and outcome codes are what the game declares, results do not
depend on chunking or on ``--jobs``, and whole games (where the game has them) are well
formed.  Shared code must read declarations, never test a game's name.
"""

import re
import subprocess

import numpy as np
import pytest

from analysis import jobs
from sim.core.games import game_columns
from sim.runner import make_spec, run_chunk
from sim.variants import SCORE_UNITS, available, get_variant
from tests.support import ROOT


CASES = [(name, n) for name in available()
         for n in range(get_variant(name).min_players, get_variant(name).max_players + 1)]
IDS = [f"{name}-{n}p" for name, n in CASES]
# the fast tier (`make test-fast`) plays each game at its smallest table; `make test` at every size
SMALLEST = [pytest.param(name, n, id=i, marks=() if n == get_variant(name).min_players else pytest.mark.slow)
            for (name, n), i in zip(CASES, IDS)]


def _rows(name, n, hands=600, seed=3, strategies="simple", rules=None, mode="hands"):
    spec = make_spec(name, players=n, n=hands, seed=seed, strategies=strategies, rules=rules, mode=mode)
    rows = np.zeros((hands, len(spec.columns)), dtype=np.int64)
    spec.kernel()(*spec.arrays(), spec.seed, 0, rows, debug=True)
    return spec, {c: rows[:, i] for i, c in enumerate(spec.columns)}, rows


def _presets(name):
    from sim.strategies import PRESETS, _load_families
    _load_families()
    return sorted(p for (v, p) in PRESETS if v == name)


def test_every_game_declares_the_contract():
    for name in available():
        v = get_variant(name)
        assert v.name == name and v.doc and v.outcomes
        assert v.score_unit in SCORE_UNITS and v.hand_word in ("deadwood", "count")
        assert 1 <= v.min_players <= v.default_players <= v.max_players
        assert v.max_turns > 0
        if v.knob is not None:
            lo, hi = v.knob.default_range
            assert 0 <= lo < hi and set(v.knob.bucket_kinds) <= {"turn", "stock"}
        if v.game is not None:
            assert v.game_kernel is not None and v.game.winner_column in v.extra_columns
            assert v.game.limit_rule in {f.name for f in v.rules_cls.options()}


@pytest.mark.parametrize("name", available())
def test_player_counts_outside_the_declared_range_are_refused(name):
    from sim.core.errors import UserInputError
    v = get_variant(name)
    for n in (v.min_players - 1, v.max_players + 1):
        # "players=N is out of range [lo, hi]", or a fixed table's "played by exactly 2 players, not N"
        with pytest.raises(UserInputError, match=rf"players={n} is out of range|players, not {n} "):
            make_spec(name, players=n)


@pytest.mark.parametrize("name,n", SMALLEST)
def test_hands_conserve_cards_and_keep_the_declared_invariants(name, n):
    v = get_variant(name)
    for k, strategies in enumerate(_presets(name)):
        hands = 8 if strategies == "search" else 300      # every seat searching: ~1,000x slower a hand
        spec, col, rows = _rows(name, n, hands=hands, seed=10 + k, strategies=strategies)
        assert spec.columns == v.columns(n)
        assert (col["dealer"] == np.arange(hands) % n).all()
        assert ((0 <= col["outcome"]) & (col["outcome"] < len(v.outcomes))).all()
        assert ((1 <= col["turns"]) | (col["turns"] == 0)).all() and (col["turns"] <= v.max_turns).all()
        assert (col["stock_left"] >= 0).all()
        scores = np.stack([col[f"score{s}"] for s in range(n)], axis=1)
        if v.scores_zero_sum(spec.rules):
            assert (scores.sum(axis=1) == 0).all(), f"{name} declares zero-sum hands"
        assert (np.stack([col[f"deadwood{s}"] for s in range(n)], axis=1) >= 0).all()


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_rows_do_not_depend_on_chunking(name, n):
    spec, _, whole = _rows(name, n, hands=200, seed=5)
    parts = np.concatenate([run_chunk(spec, a, b) for a, b in ((0, 77), (77, 150), (150, 200))])
    assert (whole == parts).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", available())
def test_summary_is_identical_for_one_and_two_jobs(name):
    v = get_variant(name)
    spec = make_spec(name, players=v.max_players, n=20_000, seed=9)
    a = jobs.run(spec, jobs=1, progress=False)
    b = jobs.run(spec, jobs=2, progress=False)
    assert a.acc.to_dict() == b.acc.to_dict()


@pytest.mark.parametrize("name,n", [c for c in CASES if get_variant(c[0]).game is not None],
                         ids=[i for c, i in zip(CASES, IDS) if get_variant(c[0]).game is not None])
def test_whole_games_are_well_formed(name, n):
    spec, col, _ = _rows(name, n, hands=60, seed=2, mode="games")
    assert spec.columns == game_columns(n)
    places = np.stack([col[f"place{s}"] for s in range(n)], axis=1)
    assert (np.sort(places, axis=1) == np.arange(1, n + 1)).all()
    winner = col["winner"]
    assert (places[np.arange(len(winner)), winner] == 1).all()
    assert (col["first_dealer"] == np.arange(60) % n).all()
    assert (col["hands"] >= 1).all() and (col["voids"] < col["hands"]).all()


def test_shared_code_never_tests_a_game_name():
    names = "|".join(re.escape(n) for n in available() + ["gin", "tonk", "knock-rummy"])
    files = [str(p) for p in (ROOT / "analysis").rglob("*.py")] + [
        str(ROOT / "sim" / "runner.py"), str(ROOT / "sim" / "advice.py"), str(ROOT / "sim" / "games.py")]
    out = subprocess.run(["grep", "-nE", rf"(==|!=|in) *\(?['\"]({names})['\"]", *files],
                         capture_output=True, text=True).stdout
    assert out == "", "shared code compares game names:\n" + out


def test_no_source_file_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in list((ROOT / "sim").rglob("*.py")) + list((ROOT / "analysis").rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > 600}
    assert not long, f"split these by responsibility: {long}"
