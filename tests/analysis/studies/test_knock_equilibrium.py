"""Knock equilibrium: the matrix-game LP, the symmetrisation, best responses with their
Bonferroni set, best-response iteration, and small real runs through the CLI and the report."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from analysis import report
from analysis.cli import build_parser
from analysis.cli import main as cli_main
from analysis.stats import mean_ci
from analysis.studies.equilibrium_text import summarize
from analysis.studies.knock_equilibrium import (
    EquilibriumSpec,
    FieldJob,
    FieldStats,
    best_response,
    knock_presets,
    load_equilibrium,
    run_equilibrium,
    seatings,
)
from analysis.studies.matrix_game import iterate_best_responses, solve_matrix_game, symmetrise
from sim.runner import play_hands
from sim.strategies import knock as K


# ----------------------------------------------------------------------------------------
# the matrix game

def test_rock_paper_scissors_is_uniform_with_value_zero():
    a = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    x, v = solve_matrix_game(a)
    assert np.allclose(x, 1 / 3, atol=1e-9) and abs(v) < 1e-9


def test_a_dominant_strategy_is_played_pure():
    x, v = solve_matrix_game(np.array([[3.0, 2.0], [1.0, 0.0]]))   # row 0 dominates row 1
    assert np.allclose(x, [1, 0]) and v == pytest.approx(2.0)
    sym = symmetrise(np.array([[0, 1, 2], [-1, 0, 1], [-2, -1, 0.0]]))   # policy 0 beats both
    x, v = solve_matrix_game(sym)
    assert np.allclose(x, [1, 0, 0]) and abs(v) < 1e-9


def test_an_unbalanced_rock_paper_scissors_weights_by_the_payoffs():
    a = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], dtype=float)   # rock beats scissors by 2
    x, v = solve_matrix_game(a)
    assert np.allclose(x, [0.25, 0.5, 0.25], atol=1e-9) and abs(v) < 1e-9
    assert np.all(a.T @ x >= -1e-9)                                  # no pure reply gains


def test_symmetrise_keeps_the_antisymmetric_part():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(5, 5))
    s = symmetrise(a)
    assert np.allclose(s, -s.T) and np.allclose(np.diag(s), 0)
    assert np.allclose(symmetrise(s), s)                             # antisymmetric input unchanged
    assert np.allclose(s + (a + a.T) / 2, a)                         # a = antisymmetric + symmetric part


# ----------------------------------------------------------------------------------------
# best responses from exact moments

def _field_stats(y: np.ndarray, scale: float = 0.5) -> FieldStats:
    """Moments of per-deal Y (deals x candidates) as the field job keeps them."""
    y = y.astype(np.int64)
    even, odd = y[0::2], y[1::2]
    return FieldStats([len(even), len(odd)], [even.sum(0).tolist(), odd.sum(0).tolist()],
                      (y.T @ y).tolist(), scale)


def test_best_response_set_is_the_bonferroni_one_sided_comparison_with_the_best():
    rng = np.random.default_rng(7)
    base = rng.integers(-30, 30, size=(4000, 1))
    shifts = np.array([0, 3, 2, -4, 3])                              # candidates 1 and 4 tie at the top
    y = base + shifts + rng.integers(-20, 20, size=(4000, 5))
    fs = _field_stats(y)
    br = best_response(fs)
    means = y.mean(axis=0) * 0.5
    assert br.best == int(np.argmax(means))
    assert br.value.value == pytest.approx(means[br.best])
    e = mean_ci(y[:, br.best] * 0.5)
    assert (br.value.lo, br.value.hi) == pytest.approx((e.lo, e.hi))
    t = stats.t.ppf(1 - 0.05 / 4, len(y) - 1)
    same = []
    for q in range(5):
        d = y[:, br.best] - y[:, q]
        if q == br.best or d.mean() - t * d.std(ddof=1) / np.sqrt(len(d)) <= 0:
            same.append(q)
    assert br.same == same and {1, 4} <= set(same) and 3 not in same
    x = np.array([0.2, 0.3, 0, 0, 0.5])
    mix = fs.mix(x)
    direct = mean_ci(y @ x * 0.5)
    assert (mix.value, mix.lo, mix.hi) == pytest.approx((direct.value, direct.lo, direct.hi))
    assert fs.half_mean(1, 2) == pytest.approx(y[1::2, 2].mean() * 0.5)


def _null_game(rng, k: int = 4, deals: int = 2000):
    """Fields of k policies that are all equally good (every payoff's true mean is 0), deal by
    deal antisymmetric as the seat-swapped tables are: candidate q's Y in field j is minus
    candidate j's in field q."""
    from types import SimpleNamespace
    m = rng.integers(-20, 21, size=(deals, k, k))
    m = m - m.transpose(0, 2, 1)                     # m[:, q, j] = -m[:, j, q], diagonal 0
    return SimpleNamespace(fields={j: _field_stats(m[:, :, j]) for j in range(k)})


@pytest.mark.slow
def test_the_best_reply_to_the_mix_is_cross_fitted_with_simultaneous_bounds():
    """Equal policies (true gain 0 against any mix): measured on the deals the mix was solved
    on the best reply's gain is <= 0 by construction (before: in every run); cross-fitted
    (solved on one half, played on the other, swapped) it is above 0 about as often as
    below, and its simultaneous bounds (Bonferroni over the policies) claim a policy beats
    the mix in at most 5% of runs."""
    from analysis.studies.equilibrium_text import _matrix_game
    rng = np.random.default_rng(17)
    runs, positive, false_claims, covered, mean_gain = 150, 0, 0, 0, 0.0
    for _ in range(runs):
        res = _null_game(rng)
        names = [f"p{j}" for j in res.fields]
        brs = {j: best_response(fs) for j, fs in res.fields.items()}
        reply = _matrix_game(res, brs, names)["equilibrium"]["best_reply"]
        g = reply["gain"]
        positive += g["value"] > 0
        false_claims += reply["beats_mix"]
        covered += all(r["gain"]["ci95"][0] <= 0 <= r["gain"]["ci95"][1] for r in reply["gains"])
        mean_gain += np.mean([r["gain"]["value"] for r in reply["gains"]]) / runs
        assert reply["beats_mix"] == (g["ci95"][0] > 0) and reply["policies"] == 4
    assert positive >= 0.3 * runs                # in sample: never
    assert false_claims <= 0.05 * runs and covered >= 0.94 * runs
    assert abs(mean_gain) < 0.1                  # out of sample the gains are unbiased (sd of one ~0.3)


def test_best_response_iteration_settles_at_a_fixed_point():
    def payoff(q, p):                        # best response to p: (p + 6) // 2
        return -(q - (p + 6) // 2) ** 2

    def respond(p):
        best = max(range(11), key=lambda q: payoff(q, p))
        return best, [best]
    it = iterate_best_responses(respond, 0)
    assert it.outcome == "fixed point" and it.path == [0, 3, 4, 5] and it.cycle == [5]


def test_best_response_iteration_detects_a_cycle():
    it = iterate_best_responses(lambda p: ((p + 1) % 3, [(p + 1) % 3]), 0)   # rock, paper, scissors
    assert it.outcome == "cycle" and it.path == [0, 1, 2] and it.cycle == [0, 1, 2]
    it = iterate_best_responses(lambda p: ({0: 1, 1: 2, 2: 1}[p], [{0: 1, 1: 2, 2: 1}[p]]), 0)
    assert it.outcome == "cycle" and it.cycle == [1, 2]


def test_a_field_within_noise_of_its_best_response_is_a_fixed_point():
    it = iterate_best_responses(lambda p: (4, [4, p]), 2)     # 4 is best, but 2 cannot be told from it
    assert it.outcome == "fixed point" and it.path == [2]


def test_seatings_play_each_table_once():
    two = seatings(4, 2, [0, 1, 2, 3])
    assert len(two) == 12 and all(len(feeds) == 2 for _, feeds in two)     # (i, j) serves fields i and j
    three = seatings(4, 3, [2])
    assert len(three) == 9 and all(seats.count(2) == 2 for seats, _ in three)


# The field is every knock preset the family registers for the game (``knock_presets``: all
# but uniform random play), so a new preset joins it; the expectations below follow the
# registry and check how the field is built: thresholds first, a preset playing as one of them
# merged into it (gin-hunter is knock=0, simple the defaults), the other presets in registry
# order, then the extras (one equal to a preset merged into it).
MERGED = {"gin-hunter": "<=0", "simple": "<=10"}


def _gin_others() -> list[str]:
    presets = knock_presets(K.FAMILY, "gin")
    assert set(MERGED) <= set(presets) and "random" not in presets and "tracker" in presets
    return [n for n in presets if n not in MERGED]


def test_policies_merge_identical_strategies_and_add_extras():
    spec = EquilibriumSpec(variant="gin", thresholds=(0, 5, 10), extra=("simple(near_weight=0.5)", "tracker"))
    pols = spec.policies()
    assert [p.name for p in pols] == (["<=0 (gin-hunter)", "<=5", "<=10 (simple)"] + _gin_others()
                                      + ["simple(near_weight=0.5)"])
    assert [n for n, _ in spec.opponents(pols)] == knock_presets(K.FAMILY, "gin") + ["simple(near_weight=0.5)"]
    assert spec.start(pols) == 2 and spec.n_seats == 2


# ----------------------------------------------------------------------------------------
# real runs (small)

def test_chunks_split_anywhere_merge_to_the_same_moments():
    spec = EquilibriumSpec(variant="knock-rummy", players=3, thresholds=(5, 20), hands=300, seed=2)
    job = FieldJob(spec, spec.policies(), [1], "test")
    whole = job.compute(0, 300, None)
    parts = job.merge(job.merge(None, job.compute(0, 123, None)), job.compute(123, 300, None))
    assert parts == whole and whole["count"] == [150, 150]

@pytest.mark.slow
def test_payoffs_are_the_seat_swapped_means_of_plain_runs():
    spec = EquilibriumSpec(variant="gin", thresholds=(2, 8), hands=1500, seed=5)
    res = run_equilibrium(spec, jobs=1, progress=False)
    names = [p.name for p in res.policies]
    i, j = names.index("<=2"), names.index("<=8")
    ij = play_hands("gin", strategies=[res.policies[i].strategy, res.policies[j].strategy], n_hands=1500, seed=5)
    ji = play_hands("gin", strategies=[res.policies[j].strategy, res.policies[i].strategy], n_hands=1500, seed=5)
    per_deal = (ij["score0"] + ji["score1"]) / 2
    e = res.fields[j].value(i)
    assert e.value == pytest.approx(per_deal.mean()) and e.n == 1500
    assert (e.lo, e.hi) == pytest.approx((mean_ci(per_deal).lo, mean_ci(per_deal).hi))
    assert res.fields[i].value(j).value == pytest.approx(-e.value)          # antisymmetric deal by deal
    assert res.fields[i].value(i).value == 0


def test_hands_default_only_when_not_given():
    p = build_parser()
    assert p.parse_args(["knock-sweep", "--equilibrium"]).hands is None
    assert p.parse_args(["knock-sweep", "--hands", "200000", "--equilibrium"]).hands == 200_000
    assert p.parse_args(["knock-sweep", "--equilibrium", "--hands", "5000"]).hands == 5000
    assert p.parse_args(["knock-sweep"]).hands == 200_000 and not p.parse_args(["knock-sweep"]).equilibrium


def test_contradictory_options_are_refused(capsys):
    assert cli_main(["knock-sweep", "--equilibrium", "--by-turn", "--hands", "100"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummylab: error: --equilibrium") and "--by-turn" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def gin_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("eq") / "gin-eq"
    args = ["knock-sweep", "--variant", "gin", "--equilibrium", "--thresholds", "0..10:5", "--hands", "2000",
            "--jobs", "1", "--seed", "3", "--no-progress", "--out", str(out)]
    return out, args


@pytest.mark.slow
def test_gin_run_through_the_cli_answers_and_stores(gin_run, capsys):
    out, args = gin_run
    assert cli_main(args) == 0
    text = capsys.readouterr().out
    head = " ".join(text.split("\n\n")[0].split())                 # the answer comes first (issue 22)
    assert head.startswith("gin, 2 players: against simple, ") and " Against a player who best-responds, play " in head
    assert "policies: " + ", ".join(["<=0 (gin-hunter)", "<=5", "<=10 (simple)"] + _gin_others()) + "\n" in text
    doc = json.loads((out / "equilibrium.json").read_text())
    assert doc["kind"] == "knock_equilibrium" and doc["complete"] and (out / "tournament" / "meta.json").exists()
    assert cli_main(args + ["--json"]) == 0                                  # reused from the store
    d = json.loads(capsys.readouterr().out)
    assert d["hands_simulated"] == 0 and d["stages"]["tournament"]["from_store"]
    assert [b["opponent"] for b in d["best_responses"]] == knock_presets(K.FAMILY, "gin")
    a = np.array(d["matrix"]["payoff"])
    assert d["matrix"]["asymmetry_max"] == 0 and np.allclose(a, -a.T)
    eq = d["equilibrium"]
    assert sum(eq["weights"].values()) == pytest.approx(1) and eq["value"] == pytest.approx(0, abs=1e-9)
    x = np.array([eq["weights"].get(n, 0) for n in d["matrix"]["policies"]])
    assert np.all(x @ a >= -1e-9)                                            # no policy beats the mix
    for b in d["best_responses"]:
        assert b["best"] in b["indistinguishable"] and b["mean"]["n"] == 2000
    other = list(args)
    other[other.index("--seed") + 1] = "4"
    assert cli_main(other) == 2                                              # a different study there
    assert "holds a different equilibrium study" in capsys.readouterr().err


def test_gin_run_renders_its_report_section(gin_run, monkeypatch):
    out, args = gin_run
    if not (out / "equilibrium.json").exists():
        assert cli_main(args) == 0
    import analysis.studies.knock_equilibrium as ke
    for name in ("run_chunk", "run_job"):                 # the report never simulates
        monkeypatch.setattr(ke, name, lambda *a, **k: pytest.fail("the report simulated"))
    assert report.detect(out) == "knock_equilibrium"
    rep = report.build_report([str(out)])
    (sec,) = rep.sections
    assert sec.kind == "knock_equilibrium" and sec.methods and "Knock equilibrium" in rep.methods[0]
    (fig,) = sec.figures
    assert fig.title and "equilibrium weight" in fig.legend and "best response to the column" in fig.legend
    assert fig.axes[0]["xlabel"] == "opponent (column)" and fig.axes[0]["ylabel"] == "policy (row)"
    html = report.report_html(rep)
    d = summarize(load_equilibrium(out))
    assert d["answer"][0] in html.replace("≤", "<=").replace("&lt;", "<") and "±" in html
    assert html.count("<tr class=\"best\">") == len(d["equilibrium"]["weights"])   # the support's rows


def test_three_players_iterate_best_responses(tmp_path, capsys):
    out = tmp_path / "kr3"
    assert cli_main(["knock-sweep", "--variant", "knock-rummy", "--players", "3", "--equilibrium",
                     "--thresholds", "0..20:10", "--hands", "1000", "--jobs", "1", "--no-progress",
                     "--out", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    it = d["iteration"]
    assert it["path"][0] == "simple" and it["outcome"] in ("fixed point", "cycle")
    assert d["measure"] == "net points per hand against the field"
    assert "against players who best-respond" in d["answer"][0]
    doc = json.loads((out / "equilibrium.json").read_text())
    names = [p["name"] for p in doc["policies"]]
    assert names[0] == "<=0 (rummy-hunter)"
    assert {names.index(b["field"]) for b in d["best_responses"]} <= set(doc["fields"])
    for step in it["steps"]:
        assert step["best"] in step["indistinguishable"]
    rep = report.build_report([str(out)])
    assert rep.sections[0].figures[0].axes[0]["ylabel"].startswith("mean net points")


def _estimate(v: float, lo: float, hi: float, n: int = 2000) -> dict:
    return {"value": v, "ci95": [lo, hi], "n": n}


def _gin_answer_doc():
    """An equilibrium summary written by hand (no simulation): the best response to simple is
    threshold 0, to strong it is strong itself (a mirror match: 0 by construction)."""
    from analysis.studies.equilibrium_text import answer
    from analysis.studies.knock_equilibrium import EquilibriumSpec
    spec = EquilibriumSpec(variant="gin", thresholds=(0, 5, 10), hands=10)
    pols = spec.policies()
    d = {"variant": "gin", "players": 2, "measure": "points per hand",
         "best_responses": [
             {"opponent": "simple", "field": "<=10 (simple)", "best": "<=0 (gin-hunter)",
              "mean": _estimate(0.3, 0.1, 0.5), "indistinguishable": ["<=0 (gin-hunter)"]},
             {"opponent": "strong", "field": "strong", "best": "strong",
              "mean": _estimate(0.0, 0.0, 0.0), "indistinguishable": ["strong", "<=5"]}],
         "equilibrium": {"weights": {"strong": 1.0},
                         "best_reply": {"policy": "<=5", "gain": _estimate(-0.1, -0.3, 0.1), "beats_mix": False,
                                        "policies": len(pols)}}}
    d["answer"] = answer(spec, pols, d)
    return d


def test_a_policy_that_is_its_own_best_response_is_said_in_words_not_as_zero():
    from analysis.studies.equilibrium_text import _br_table, equilibrium_answer
    d = _gin_answer_doc()
    for lines in (d["answer"], equilibrium_answer(d)):          # the terminal's and the landing page's
        assert "Against strong, play strong: strong is the best reply to itself (n = 2,000 deals); " \
               "cannot tell from <=5." in [s.replace("≤", "<=") for s in lines]
        assert not any("+0.000 [+0.000, +0.000]" in s for s in lines)
    table = _br_table(d["best_responses"], "against")
    row = next(x for x in table if x.startswith("strong "))
    assert "the best reply to itself" in row and "+0.000" not in row
    assert "+0.300 [+0.100, +0.500]" in next(x for x in table if x.startswith("simple "))


def test_the_mirror_row_of_the_report_table_is_in_words():
    from analysis.report.equilibrium import _br_table
    html = _br_table(_gin_answer_doc()["best_responses"], "opponent", "caption")
    row = next(r for r in html.split("<tr") if "<td>strong</td>" in r)
    assert "the best reply to itself" in row and "+0.000" not in row


def test_threshold_zero_is_said_in_a_players_words():
    d = _gin_answer_doc()
    assert d["answer"][1].startswith("Against simple, go for gin; never knock (= gin-hunter): +0.300")
    assert not any("deadwood <= 0" in s or "deadwood ≤ 0" in s for s in d["answer"])
