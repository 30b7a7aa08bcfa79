"""The balance study: its statistics against direct computations on synthetic rows, the
duplicate-deal design (rotated strategies replay the same deals), the random preset, the CLI
(tiny sizes, resume from the store) and its bad input."""

import inspect
import json
import math

import numpy as np
import pytest
from scipy import stats

from analysis.cli import main
from analysis.stats import mean_ci
from analysis.studies import balance as BS
from analysis.studies import balance_stats as B
from sim.core import trace as TR
from sim.runner import make_spec, play_hands
from sim.strategies import has_preset
from sim.variants import available, get_variant

RNG = np.random.default_rng(7)


def test_winners_is_the_strict_maximum():
    sc = np.array([[3, -3], [0, 0], [1, 5], [2, 2], [-1, -2]])
    assert B.winners(sc).tolist() == [0, -1, 1, -1, 0]
    sc3 = np.array([[1, 1, 0], [0, 2, -2], [-1, -1, 2]])
    assert B.winners(sc3).tolist() == [-1, 1, 2]


def test_seat_edge_matches_a_direct_count():
    n, rows = 4, 3000
    dealer = np.arange(rows) % n
    sc = RNG.integers(-5, 6, size=(rows, n))
    sc[np.arange(rows), (dealer + 1) % n] += 1         # the first player is favoured
    got = B.seat_edge(dealer, sc)
    w = B.winners(sc)
    for p in range(n):
        seat = [(d + 1 + p) % n for d in dealer]
        wins = sum(w[i] == seat[i] for i in range(rows))
        mean = np.mean([sc[i, seat[i]] for i in range(rows)])
        assert got["win"][p].value == pytest.approx(wins / rows)
        assert got["score"][p].value == pytest.approx(mean)
    first = np.array([sc[i, (dealer[i] + 1) % n] - sc[i].mean() for i in range(rows)])
    e = got["first_score"]
    assert e.value == pytest.approx(first.mean())
    h = stats.t.ppf(0.975, rows - 1) * first.std(ddof=1) / math.sqrt(rows)
    assert (e.lo, e.hi) == pytest.approx((first.mean() - h, first.mean() + h))
    assert e.lo > 0                                     # the planted edge is found
    fw = np.array([(w[i] == (dealer[i] + 1) % n) - (w[i] >= 0) / n for i in range(rows)])
    assert got["first_win"].value == pytest.approx(fw.mean())


def test_seat_edge_on_duplicate_deals_cancels_the_deal():
    n, deals = 3, 2000
    # deal luck: each deal's three hands are worth h0..h2 (large); the first position gets +1
    hand_value = RNG.normal(0, 20, size=(deals, n))
    rows, dealer = [], []
    for g in range(deals):
        for r in range(n):                      # rotation r: position j holds hand (j + r) % n
            sc = np.zeros(n)
            for j in range(n):
                sc[(r + 1 + j) % n] = hand_value[g, (j + r) % n] + (1.0 if j == 0 else 0.0)
            rows.append(sc)
            dealer.append(r)
    sc, dealer = np.array(rows), np.array(dealer)
    d = B.seat_edge_duplicate(dealer, sc)
    assert d["deals"] == deals
    # per deal the rotation means differ only by the planted +1: 2/3 above the mean, exactly
    assert d["first_score"].value == pytest.approx(2 / 3) and d["first_score"].hi - d["first_score"].lo < 1e-6
    plain = B.seat_edge(dealer, sc)
    assert plain["first_score"].hi - plain["first_score"].lo > 0.5     # deal luck widens the plain interval
    d2 = B.seat_edge_duplicate(dealer[:-1], sc[:-1])                   # an incomplete last deal is dropped
    assert d2["deals"] == deals - 1


def test_sd_estimate_and_its_interval():
    x = RNG.normal(3.0, 2.0, size=20000)
    e = B.sd_estimate(x)
    assert e.value == pytest.approx(x.std(ddof=1))
    assert e.lo < 2.0 < e.hi and e.hi - e.lo < 0.1


def test_to_be_ahead_is_the_smallest_n_with_95_percent():
    for mean, sd in [(0.5, 10.0), (2.0, 3.0), (0.05, 1.0)]:
        g = mean / sd
        n = B.to_be_ahead(B.Estimate(g, g * 0.5, g * 1.5, 1000)).value
        assert stats.norm.cdf(mean * math.sqrt(n) / sd) >= 0.95
        assert n == 1 or stats.norm.cdf(mean * math.sqrt(n - 1) / sd) < 0.95
    zero = B.to_be_ahead(B.Estimate(0.1, -0.1, 0.3, 50))
    assert math.isinf(zero.hi) and zero.lo < zero.value < zero.hi


def test_to_be_ahead_holds_in_simulation():
    mean, sd = 0.3, 2.0
    n = int(B.to_be_ahead(B.Estimate(mean / sd, mean / sd, mean / sd, 1)).value)
    sums = RNG.normal(mean, sd, size=(4000, n)).sum(axis=1)
    assert (sums > 0).mean() == pytest.approx(0.95, abs=0.015)


# duplicate deals shaped like the study's: two rotations, the deal's card luck c (heavy-tailed:
# exponential margins plus a 25-point bonus 15% of the time) cancels between them, plus noise
LAM, BONUS_P, BONUS, NOISE = 0.1, 0.15, 25.0, 2.0


def _duplicate_edges(rng, deals, mus):
    """Per edge ``mu`` of ``mus``: the edges (deals x 2) of the same deals (one card luck)."""
    mag = rng.exponential(1 / LAM, deals) + BONUS * (rng.random(deals) < BONUS_P)
    c = np.where(rng.random(deals) < 0.5, -mag, mag)[:, None] * np.array([1.0, -1.0])
    return [mu + c + rng.normal(0, NOISE, (deals, 2)) for mu in mus]


def _gradient(mu):
    """The true skill gradient mu / sd of :func:`_duplicate_edges`."""
    var = 2 / LAM ** 2 + 2 * BONUS * BONUS_P / LAM + BONUS ** 2 * BONUS_P + NOISE ** 2
    return mu / math.sqrt(var)


def _rows(d):
    """Score rows of two runs (the stronger player in seat 0, then seat 1) with edges ``d``."""
    return [np.stack([d[:, 0] / 2, -d[:, 0] / 2], axis=1), np.stack([-d[:, 1] / 2, d[:, 1] / 2], axis=1)]


def _gradient_coverage(reps, deals, seed):
    """Coverage of the true gradient (mu = 15) and of the change of gradient (mu 15 -> 10, paired
    series on the same deals) by the 95% CIs of :func:`ladder_pair` and :func:`skill_series`,
    and of the true hands to be ahead by ``ahead``."""
    rng = np.random.default_rng(seed)
    g, g2 = _gradient(15.0), _gradient(10.0)
    ahead = math.ceil((B.Z_AHEAD / g) ** 2)
    hit = np.zeros(3)
    for _ in range(reps):
        d, d2 = _duplicate_edges(rng, deals, (15.0, 10.0))
        pair = B.ladder_pair(_rows(d))
        change = mean_ci(B.skill_series(_rows(d2)) - B.skill_series(_rows(d)))
        hit += [pair["effect"].contains(g), change.contains(g2 - g), pair["ahead"].contains(ahead)]
    return hit / reps


@pytest.mark.slow
def test_skill_gradient_ci_covers_over_independent_seeds():
    """Nominal 95% over 300 independent samples of 1,000 duplicate deals: the delta-method CIs
    cover the true gradient, its change and the hands to be ahead (~95%); dividing the edge's
    interval by the point SD (before) covered the gradient 18% and its change 55% of the time."""
    cover = _gradient_coverage(300, 1000, 11)
    assert (cover >= 0.91).all(), cover


@pytest.mark.slow
def test_skill_gradient_ci_covers_over_independent_seeds_at_other_sizes():
    for deals in (200, 5000):
        cover = _gradient_coverage(400, deals, deals)
        assert (cover >= 0.92).all() and (cover[:2] <= 0.98).all(), (deals, cover)   # ahead: rounded up


def test_skill_gradient_is_edge_over_sd_with_pseudo_values():
    d = _duplicate_edges(np.random.default_rng(3), 500, (5.0,))[0]
    p = B.skill_pseudo_values(d)
    assert p.mean() == pytest.approx(d.mean() / d.ravel().std(ddof=1))
    assert B.skill_gradient(d).value == pytest.approx(p.mean())
    assert np.isnan(B.skill_pseudo_values(np.ones((10, 2)))).all()           # no spread, no gradient


def test_variance_shares_recover_planted_components():
    deals, k = 20000, 3
    mu, inter_sd, cards_sd = 1.0, 2.0, 1.5
    d = mu + RNG.normal(0, inter_sd, size=(deals, 1)) + RNG.normal(0, cards_sd, size=(deals, k))
    total = mu ** 2 + inter_sd ** 2 + cards_sd ** 2
    s = B.variance_shares(d)
    for key, want in (("strategy", mu ** 2), ("interaction", inter_sd ** 2), ("cards", cards_sd ** 2)):
        assert abs(s[key].value - want / total) < 0.01, key
        assert s[key].lo <= s[key].value <= s[key].hi and s[key].hi - s[key].lo < 0.05
    assert s["strategy"].value + s["cards"].value + s["interaction"].value == pytest.approx(1.0)
    assert s["deal"].value == pytest.approx(1.0 - s["strategy"].value)


def test_ladder_pair_on_synthetic_rotations():
    n, units = 3, 2000
    runs = []
    for r in range(n):
        sc = RNG.normal(0, 1, size=(units, n))
        sc[:, r] += 0.5
        runs.append(sc)
    got = B.ladder_pair(runs)
    d = np.stack([runs[r][:, r] - (runs[r].sum(axis=1) - runs[r][:, r]) / (n - 1) for r in range(n)], axis=1)
    assert got["edge"].value == pytest.approx(d.mean())
    assert got["sd"].value == pytest.approx(d.ravel().std(ddof=1))
    assert got["edge"].lo > 0 and got["effect"].value == pytest.approx(d.mean() / d.ravel().std(ddof=1))
    wins = np.mean([(B.winners(runs[r]) == r).mean() for r in range(n)])
    assert got["win"].value == pytest.approx(wins) and got["units"] == units * n


def _deals(name, strategies, n, hands=6):
    """The cards dealt to each seat in hands 0..hands-1 (from the kernel's trace)."""
    spec = make_spec(name, strategies=strategies, n=hands, players=n, seed=11)
    rules, strat = spec.arrays()
    out = []
    for h in range(hands):
        t = TR.new_trace()
        row = np.zeros((1, len(spec.columns)), dtype=np.int64)
        spec.variant.play_chunk(rules, strat, spec.seed, h, row, trace=t)
        out.append(sorted((e[1], e[2]) for e in TR.events(t) if e[0] == "deal"))
    return out


@pytest.mark.parametrize("name", available())
def test_rotated_strategies_replay_the_same_deals(name):
    v = get_variant(name)
    if "trace" not in inspect.signature(v.play_chunk).parameters:
        pytest.skip(f"{name}'s kernel records no trace")
    n = v.min_players
    weak, strong = v.ladder[0], v.ladder[-1]
    deals = [_deals(name, s, n) for s in BS.rotations(weak, strong, n)]
    assert deals[0] and all(d == deals[0] for d in deals[1:])
    assert all(len(h) >= n for h in deals[0])


@pytest.mark.parametrize("name", available())
def test_random_preset_plays_at_random(name):
    """The random rung differs from simple and its seats' play varies with the seed."""
    v = get_variant(name)
    a = play_hands(name, strategies=v.ladder[0], n_hands=300, seed=1, players=v.min_players)
    b = play_hands(name, strategies=v.ladder[1], n_hands=300, seed=1, players=v.min_players)
    c = play_hands(name, strategies=v.ladder[0], n_hands=300, seed=2, players=v.min_players)
    assert not np.array_equal(a["turns"], b["turns"]) and not np.array_equal(a["turns"], c["turns"])
    vs = play_hands(name, strategies=",".join([v.ladder[-1]] + [v.ladder[0]] * (v.min_players - 1)),
                    n_hands=2000, seed=3, players=v.min_players)
    others = np.mean([vs[f"score{s}"] for s in range(1, v.min_players)], axis=0)
    assert (vs["score0"] - others).mean() > 0           # the strongest beats random play
    # (against the others' mean: in penalty games every score is <= 0, in go-out games >= 0)


def test_rule_changes_cover_on_off_and_text_options():
    for name in available():
        v = get_variant(name)
        base = v.rules_cls()
        for change in BS.rule_changes(v):
            opt, val = change.split("=")
            assert opt != "players" and str(getattr(base, opt)) != val


def test_cli_tiny_study_resumes_from_the_store(tmp_path, capsys):
    out = tmp_path / "bal"
    args = ["balance", "--variant", "tonk", "--players", "2..3", "--hands", "300", "--no-sensitivity",
            "--jobs", "1", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    doc = json.loads((out / "balance.json").read_text())
    assert [(c["variant"], c["players"]) for c in doc["cells"]] == [("tonk", 2), ("tonk", 3)]
    cell = doc["cells"][0]
    for name in cell["runs"].values():
        assert (out / name / "meta.json").exists()
    assert len(cell["ladder"]) == 3 and all(len(p["runs"]) == 2 for p in cell["ladder"])
    first = doc["cells"][1]["seat_hand"]["first_win"]
    assert first["n"] == 300 and first["ci95"][0] <= first["value"] <= first["ci95"][1]
    dup = doc["cells"][1]["seat_dup"]
    assert dup["deals"] == 150 // 3 and dup["first_win"]["n"] == dup["deals"]
    assert main(args) == 0                              # everything from the store
    again = json.loads((out / "balance.json").read_text())
    assert again["cells"] == doc["cells"] and again["timing"]["simulated"] == 0
    assert "tonk" in capsys.readouterr().out


def test_cli_json_gives_every_estimate_and_the_skill_gradient(tmp_path, capsys):
    out = tmp_path / "bal"
    args = ["balance", "--variant", "knock-rummy", "--players", "2", "--hands", "200", "--games", "40",
            "--rule-hands", "100", "--jobs", "1", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    stored = json.loads((out / "balance.json").read_text())
    capsys.readouterr()
    assert main(args + ["--json"]) == 0                # from the store
    captured = capsys.readouterr()
    doc = json.loads(captured.out)                      # stdout is the JSON alone
    assert "wrote" in captured.err and doc["kind"] == "balance"
    (cell,) = doc["cells"]
    assert (cell["variant"], cell["players"]) == ("knock-rummy", 2)
    top = stored["cells"][0]["ladder"][-1]
    assert (top["weak"], top["strong"]) == ("random", "strong")
    assert cell["skill_gradient"] == top["hand"]["effect"]

    def walk(x):
        if isinstance(x, dict) and "value" in x:
            assert set(x) == {"value", "ci95", "n"} and len(x["ci95"]) == 2 and x["n"] > 0
            return 1
        if isinstance(x, dict):
            return sum(walk(y) for y in x.values())
        return sum(walk(y) for y in x) if isinstance(x, list) else 0
    g = cell["skill_gradient"]
    assert g["ci95"][0] <= g["value"] <= g["ci95"][1]
    assert cell["seat_edge"]["first_win"] == stored["cells"][0]["seat_hand"]["first_win"]
    assert cell["seat_edge_games"]["first_win"]["n"] == 40 and cell["tempo"]["turns"]["n"] == 200
    assert [set(p["hand"]) for p in cell["ladder"]] == [{"edge", "win", "sd", "ahead", "effect", "shares"}] * 3
    assert walk(cell) > 50 and walk(doc["sensitivity"]) > 4
    assert doc["sensitivity"][0]["options"][0]["d_skill"]["n"] == 100
    assert "approximate" in doc["notes"]["ladder.shares.interaction"]


def test_cli_refuses_a_folder_holding_something_else(tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    (other / "sweep.json").write_text("{}")
    assert main(["balance", "--variant", "tonk", "--players", "2", "--hands", "200", "--no-progress",
                 "--out", str(other)]) == 2
    assert "holds no balance study" in capsys.readouterr().err
    assert sorted(p.name for p in other.iterdir()) == ["sweep.json"]


def test_cli_rule_change_side_by_side(tmp_path):
    out = tmp_path / "rule"
    assert main(["balance", "--variant", "tonk", "--players", "2", "--hands", "200", "--rule", "no_upcard=on",
                 "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    doc = json.loads((out / "balance.json").read_text())
    assert [c["rules"] for c in doc["cells"]] == [[], ["no_upcard=on"]] and doc["sensitivity"] == []


@pytest.mark.parametrize("args, words", [
    (["balance", "--players", "x"], "--players takes"),
    (["balance", "--players", "9"], "no game is played by 9 players"),
    (["balance", "--variant", "nope"], "unknown variant 'nope'"),
    (["balance", "--rule", "oklahoma=on"], "name the game with --variant"),
    (["balance", "--variant", "gin", "--rule", "oklahoma"], "--rule takes NAME=VALUE"),
    (["balance", "--variant", "gin", "--rule", "nope=1"], "nope"),
    (["balance", "--hands", "5"], "--hands must be >= 100"),
    (["balance", "--jobs", "0"], "--jobs must be >= 1"),
    (["balance", "--variant", "gin", "--players", "3"], "exactly 2 players, not 3"),
])
def test_cli_bad_input_is_one_error_line(args, words, tmp_path, capsys):
    try:
        code = main(args + ["--out", str(tmp_path / "y"), "--no-progress"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("rummylab: error:") and words in err[0]
    assert not (tmp_path / "y").exists()


@pytest.mark.slow
def test_demo_balance_is_every_game_at_its_default_count(tmp_path):
    folder = BS.demo_balance(tmp_path, scale=0.01, jobs=1, progress=False)
    doc = BS.load_balance(folder)
    assert [(c["variant"], c["players"]) for c in doc["cells"]] == [
        (name, get_variant(name).default_players) for name in available()]
    assert [(s["variant"], s["players"]) for s in doc["sensitivity"]] == [
        (n, get_variant(n).default_players) for n in available() if BS.rule_changes(get_variant(n))]


def test_uniform_random_choices_are_uniform_and_legal():
    from sim.core.rng import new_state
    from sim.strategies.random_play import coin, uniform_card, uniform_choice
    st = new_state(5, 0, 0)
    mask = np.uint64((1 << 3) | (1 << 17) | (1 << 40) | (1 << 63))
    got = np.array([uniform_card(mask, st) for _ in range(8000)])
    assert set(got.tolist()) == {3, 17, 40, 63}
    assert stats.chisquare(np.bincount(got, minlength=64)[[3, 17, 40, 63]]).pvalue > 1e-4
    allowed = np.array([0, 2, 0, 1, 1], dtype=np.int64)       # two copies of card 1: one move
    picks = np.bincount([uniform_choice(allowed, st) for _ in range(6000)], minlength=5)
    assert picks[0] == picks[2] == 0 and stats.chisquare(picks[[1, 3, 4]]).pvalue > 1e-4
    assert uniform_choice(np.zeros(3, dtype=np.int64), st) == -1
    flips = [coin(1.0, st, False) for _ in range(4000)]
    assert abs(np.mean(flips) - 0.5) < 0.04 and all(coin(0.0, st, d) == d for d in (True, False))


@pytest.mark.parametrize("name", available())
def test_every_game_declares_a_playable_ladder(name):
    from sim.strategies import parse_strategy
    v = get_variant(name)
    assert v.ladder[0] == "random" and len(v.ladder) >= 2 and len(set(v.ladder)) == len(v.ladder)
    for preset in v.ladder:
        parse_strategy(preset, name)
    assert parse_strategy("random", name).values["random_play"] == 1
    assert set(v.no_out_outcomes) <= set(v.outcomes)


def test_default_sizes_scale_by_the_games_balance_scale():
    from dataclasses import replace

    from analysis.studies.balance import DEFAULT_HANDS, default_config
    v = replace(get_variant("tonk"), balance_scale=0.25)
    cfg = default_config(["tonk"])
    got = cfg.for_game(v)
    assert (got.hands, got.ladder_hands, got.dup_hands) == (DEFAULT_HANDS // 4, cfg.ladder_hands // 4, cfg.dup_hands // 4)
    assert got.games == cfg.games // 4 and got.variants == cfg.variants
    assert replace(cfg, per_game_scale=False).for_game(v).hands == DEFAULT_HANDS      # sizes given: as given
    assert cfg.for_game(get_variant("tonk")) is cfg                                    # scale 1


def test_search_rung_sits_on_top_of_the_ladder_where_a_game_searches(tmp_path, capsys):
    """--search-hands adds strongest vs search (duplicate deals, one run per seat) and nothing
    else; the skill gradient stays random -> strongest; the text names the rung."""
    out = tmp_path / "bal"
    args = ["balance", "--variant", "gin", "--players", "2", "--hands", "200", "--games", "0", "--no-sensitivity",
            "--search-hands", "4", "--jobs", "1", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    cell = json.loads((out / "balance.json").read_text())["cells"][0]
    top = cell["ladder"][-1]
    assert (top["weak"], top["strong"]) == (cell["rungs"][-1], "search") and len(top["runs"]) == 2
    assert top["hand"]["units"] == 8
    whole = next(p for p in cell["ladder"] if p["weak"] == "random" and p["strong"] == cell["rungs"][-1])
    assert cell["skill_gradient"] == whole["hand"]["effect"]
    assert "search over strong" in capsys.readouterr().out
    cfg = BS.BalanceConfig(("knock-rummy",), {"knock-rummy": (2,)}, search_hands=4)
    assert BS.search_rung(get_variant("gin"), cfg) and (
        BS.search_rung(get_variant("knock-rummy"), cfg) == has_preset("knock-rummy", "search"))


def test_champion_rung_sits_above_strong_only_when_asked(tmp_path, capsys):
    """--champion-hands adds strong vs the game's champion (Gin: marjj) on duplicate deals, and
    with --search-hands also the champion vs search; the skill gradient stays random -> strong,
    and a game without a champion, or a study without --champion-hands, plays no such run."""
    out = tmp_path / "bal"
    args = ["balance", "--variant", "gin", "--players", "2", "--hands", "200", "--games", "0", "--no-sensitivity",
            "--search-hands", "2", "--champion-hands", "10", "--jobs", "1", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    cell = json.loads((out / "balance.json").read_text())["cells"][0]
    assert cell["rungs"] == ["random", "simple", "strong"] and cell["champion"] == "marjj"
    pairs = {(p["weak"], p["strong"]): p for p in cell["ladder"]}
    assert pairs[("strong", "marjj")]["hand"]["units"] == 20 and len(pairs[("strong", "marjj")]["runs"]) == 2
    assert ("strong", "search") in pairs and pairs[("marjj", "search")]["hand"]["units"] == 4
    assert cell["skill_gradient"] == pairs[("random", "strong")]["hand"]["effect"]
    assert "marjj over strong" in capsys.readouterr().out
    gin, rummy = get_variant("gin"), get_variant("knock-rummy")
    assert gin.champion == "marjj" and rummy.champion == ""
    cfg = BS.BalanceConfig(("gin",), {"gin": (2,)}, champion_hands=4)
    assert BS.champion_rung(gin, cfg) and not BS.champion_rung(rummy, cfg)
    assert not BS.champion_rung(gin, BS.BalanceConfig(("gin",), {"gin": (2,)}))
