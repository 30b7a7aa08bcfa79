"""Simulated tonk-on-the-deal rates from the real dealing code agree with the exact values."""

import json

from analysis.cli import main
from analysis.jobs import run_job
from analysis.stats import wilson
from analysis.studies.tonk_deal import TonkDealJob, odds_rows
from analysis.studies.tonk_odds import PROB_KEYS, exact_tonk_odds

Z999 = 3.2905


def test_dealing_code_matches_exact_odds():
    job = TonkDealJob((2, 4, 6), (49, 50), 400_000, seed=2026)
    total = run_job(job, jobs=1, progress=False).total
    for p in (2, 4, 6):
        for m in (49, 50):
            exact = exact_tonk_odds(p, m)
            n, *counts = total[f"{p}:{m}"]
            assert n == 400_000
            for key, k in zip(PROB_KEYS, counts):
                e = wilson(k, n, z=Z999)
                assert e.lo <= exact[key] <= e.hi, (p, m, key, k / n, exact[key])


def test_odds_table_flags_and_json(tmp_path, capsys):
    table = odds_rows((3,), (49,), {"3:49": [1000, 500, 0, 0, 0]})
    assert table.set_index("quantity").loc["p_given", "ci_misses_exact"]
    out = tmp_path / "odds"
    assert main(["tonk-odds", "--players", "3", "--tonk-min", "50", "--simulate", "20000",
                 "--jobs", "1", "--json", "--out", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["deals"] == 20000 and len(doc["rows"]) == 4
    stored = json.loads((out / "odds.json").read_text())
    assert stored["kind"] == "tonk_odds" and stored["rows"][0]["n"] == 20000


def test_rare_odds_rows_keep_their_coverage():
    """Two or more tonks among 2 players (tonk_min 49) at half an expected deal: the row's
    interval (Clopper-Pearson below 5 expected) covers the exact value at least 95% of the
    time, summed exactly over the binomial; Wilson's (before) covered 0.908."""
    from scipy import stats
    exact = exact_tonk_odds(2, 49)
    n = round(0.5 / exact["p_two_or_more"])
    covered = 0.0
    for k in range(12):
        counts = [n] + [round(n * exact[q]) for q in PROB_KEYS[:3]] + [k]
        row = odds_rows((2,), (49,), {"2:49": counts}).set_index("quantity").loc["p_two_or_more"]
        covered += stats.binom.pmf(k, n, exact["p_two_or_more"]) * (not row["ci_misses_exact"])
    assert covered >= 0.95
