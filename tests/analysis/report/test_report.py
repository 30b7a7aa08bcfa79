"""The HTML report: rendered from stored runs only, self-contained, figures labelled, every
number traceable; unknown folders refused; the page loads in headless Chromium."""

from __future__ import annotations

import argparse
import base64
import importlib.util
import io
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest

from analysis import report, store
from analysis.cli import main as cli_main
from analysis.stats import wilson
from analysis.store import StoreError
from analysis.studies.knock_sweep import BUCKETS, knock_chart, load_sweep
from analysis.studies.sweep_stats import bucket_label, policy_summary
from analysis.studies.tonk_odds import PROB_KEYS, exact_tonk_odds
from sim.core.cards import standard_pack, value_table
from tests.support import ROOT


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _load_checker():
    spec = importlib.util.spec_from_file_location("check_report", ROOT / "scripts" / "check_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write_tonk_odds(folder: Path, deals: int = 20_000, seed: int = 11) -> dict:
    """odds.json in the lead's format: exact values + a small numpy Monte Carlo of deals."""
    rng = np.random.default_rng(seed)
    values = value_table()[standard_pack()].astype(np.int8)
    rows = []
    for n in (2, 3, 4):
        deck = rng.permuted(np.tile(values, (deals, 1)), axis=1)[:, :5 * n]
        totals = deck.reshape(deals, 5, n).sum(axis=1, dtype=np.int64)
        for t in (49, 50):
            tonk = totals >= t
            k = tonk.sum(axis=1)
            hits = {"p_given": tonk[:, 0].sum(), "p_at_least_one": (k >= 1).sum(),
                    "p_exactly_one": (k == 1).sum(), "p_two_or_more": (k >= 2).sum()}
            exact = exact_tonk_odds(n, t)
            for q in PROB_KEYS:
                e = wilson(int(hits[q]), deals)
                rows.append({"players": n, "tonk_min": t, "quantity": q, "exact": exact[q], "sim": e.value,
                             "sim_lo": e.lo, "sim_hi": e.hi, "n": deals,
                             "ci_misses_exact": not (e.lo <= exact[q] <= e.hi)})
    data = {"kind": "tonk_odds", "deals": deals, "seed": seed, "rows": rows,
            "versions": {"numpy": np.__version__}, "git": "test"}
    folder.mkdir(parents=True)
    (folder / "odds.json").write_text(json.dumps(data))
    return data


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Real stored runs made through the CLI: a gin knock sweep (by turn + games), a single
    simulate run, a knock-rules study, and a tonk odds folder."""
    base = tmp_path_factory.mktemp("runs")
    sweep, sim = base / "gin-knock", base / "gin-sim"
    assert cli_main(["knock-sweep", "--variant", "gin", "--hands", "3000", "--thresholds", "0..4",
                     "--by-turn", "--games", "200", "--jobs", "1", "--seed", "2", "--no-progress",
                     "--out", str(sweep)]) == 0
    assert cli_main(["simulate", "--variant", "gin", "--hands", "3000", "--strategies", "simple,tracker",
                     "--seed", "4", "--jobs", "1", "--no-progress", "--out", str(sim)]) == 0
    rules = base / "gin-rules"
    assert cli_main(["knock-rules", "--variant", "gin", "--vary", "undercut_bonus=10", "--hands", "2000",
                     "--thresholds", "0..4:2", "--jobs", "1", "--no-progress", "--out", str(rules)]) == 0
    odds = _write_tonk_odds(base / "tonk-odds")
    eq = base / "gin-eq"
    assert cli_main(["knock-sweep", "--variant", "gin", "--equilibrium", "--thresholds", "0..10:5", "--hands", "1000",
                     "--jobs", "1", "--seed", "3", "--no-progress", "--out", str(eq)]) == 0
    assert cli_main(["balance", "--variant", "tonk", "--players", "2", "--hands", "400", "--jobs", "1",
                     "--no-progress", "--out", str(base / "balance")]) == 0
    compare = base / "gin-compare"
    assert cli_main(["compare", "--variant", "gin", "--strategies", "simple,tracker", "--rule", "undercut_bonus=10,25",
                     "--hands", "1500", "--jobs", "1", "--seed", "5", "--no-progress", "--out", str(compare)]) == 0
    assert cli_main(["buyback", "--players", "3", "--games", "150", "--thresholds", "60", "--seed", "1",
                     "--out", str(base / "buyback")]) == 0
    assert cli_main(["tune", "--variant", "knock-rummy", "--players", "4", "--params", "knock,knock_mid",
                     "--budget", "2400", "--min-hands", "100", "--rungs", "2", "--trials", "5", "--finalists", "2",
                     "--final-hands", "200", "--seed", "3", "--no-progress", "--out", str(base / "tune")]) == 0
    return {"sweep": sweep, "sim": sim, "odds": base / "tonk-odds", "odds_data": odds, "base": base,
            "rules": rules, "eq": eq, "balance": base / "balance", "compare": compare, "buyback": base / "buyback"}


def _no_simulation(*args, **kwargs):
    raise AssertionError("the report must never simulate")


@pytest.fixture(scope="module")
def rendered(runs, tmp_path_factory):
    import analysis.jobs as jobs_module
    import analysis.studies.knock_sweep as ks
    import sim.runner as runner
    out = tmp_path_factory.mktemp("report") / "site" / "index.html"
    with pytest.MonkeyPatch.context() as mp:   # any attempt to simulate fails the test
        for mod, name in [(ks, "run_job"), (ks, "run_sweep"), (jobs_module, "run_job"),
                          (jobs_module, "run_chunk"), (runner, "run_chunk"), (runner, "play_hands")]:
            mp.setattr(mod, name, _no_simulation)
        rep = report.build_report([str(runs["sweep"]), str(runs["odds"]), str(runs["sim"]), str(runs["rules"]),
                                   str(runs["eq"]), str(runs["balance"]), str(runs["compare"]), str(runs["buyback"]),
                                   str(runs["base"] / "tune")])
        pngs = report.write_report(rep, out)
    return {"report": rep, "pngs": pngs, "html": out, "text": out.read_text(encoding="utf-8")}


class _Structure(HTMLParser):
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.ids, self.imgs, self.titles = [], [], [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "img":
            self.imgs.append(a)
        if tag == "title":
            self.titles += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


@pytest.mark.slow
def test_report_is_valid_self_contained_html(rendered):
    text = rendered["text"]
    assert text.startswith("<!DOCTYPE html>")
    p = _Structure()
    p.feed(text)
    assert not p.errors and not p.stack, (p.errors, p.stack)
    assert p.titles == 1 and len(p.ids) == len(set(p.ids))
    assert "<script" not in text.lower() and "<link" not in text.lower()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), "external reference"
    for title in ("Knock sweep: gin", "Sweep curve", "Games won to the target score", "Knock chart",
                  "Per-bucket sweeps", "The chart's policy, simulated", "Sweep parameters",
                  "Multiple comparisons with the best", "Holm–Bonferroni", "Independent seeds", "Tonk on the deal", "Simulation run: gin",
                  "How hands end", "Hand length", "Methods", "Common random numbers"):
        assert title in text, title


def test_embedded_images_are_the_pngs_beside_the_html(rendered):
    p = _Structure()
    p.feed(rendered["text"])
    srcs = [a["src"] for a in p.imgs]
    figs = rendered["report"].figures
    assert len(srcs) == len(figs) == len(rendered["pngs"]) >= 7
    for src, path in zip(srcs, rendered["pngs"]):
        assert src.startswith("data:image/png;base64,")
        data = base64.b64decode(src.split(",", 1)[1], validate=True)
        assert data.startswith(PNG_MAGIC)
        img = mpimg.imread(io.BytesIO(data), format="png")
        assert img.shape[0] > 200 and img.shape[1] > 500
        assert Path(path).parent == rendered["html"].parent and Path(path).read_bytes() == data


def test_every_figure_is_labelled_with_a_legend(rendered):
    figs = {f.name: f for f in rendered["report"].figures}
    assert set(figs) >= {"gin-knock-sweep", "gin-knock-games", "gin-knock-chart", "tonk-odds-odds",
                         "gin-sim-seats", "gin-sim-outcomes", "gin-sim-turns"}
    for f in figs.values():
        assert f.title and f.legend and f.axes, f.name
        for ax in f.axes:
            assert ax["xlabel"] and ax["ylabel"], (f.name, ax)
    sweep = figs["gin-knock-sweep"]
    assert "mean points per hand" in sweep.axes[0]["ylabel"]
    assert "paired difference to best" in sweep.axes[1]["ylabel"]
    assert "deadwood" in sweep.axes[1]["xlabel"]
    assert any("95% CI" in e for e in sweep.legend) and any(e.startswith("best: d =") for e in sweep.legend)
    assert "games won" in figs["gin-knock-games"].axes[0]["ylabel"]
    chart = figs["gin-knock-chart"]
    assert chart.axes[0]["ylabel"] == "seat 0's own turn (bucket)"
    assert "?: not called (Holm, family-wise 95%)" in chart.legend
    assert "log scale" in figs["tonk-odds-odds"].axes[0]["ylabel"]


def test_numbers_trace_to_the_stored_runs(rendered, runs):
    text = rendered["text"]
    res = load_sweep(runs["sweep"])
    assert f"Best single threshold: <strong>d = {res.best_overall}</strong>" in text
    chart = knock_chart(res.spec, res.by_turn)
    assert text.count('<tr class="undecided">') == int((chart["decision"] == "can't tell").sum())
    assert text.count('<tr class="knock">') == int((chart["decision"] == "knock").sum())
    assert len(chart) == len(BUCKETS) * (len(res.spec.thresholds) - 1)
    p = policy_summary(res.spec, res.policy, res.policy_thresholds, res.best_overall)
    late = p["thresholds"]["late"]
    from analysis.studies.knob import advice
    from sim.variants import get_variant
    words = advice(get_variant("gin"), late, html=True) if late == 0 else f"deadwood ≤ {late}"
    assert report.esc(f"{bucket_label(res.spec, 'late')}: {words}") in text
    odds = runs["odds_data"]
    flagged = sum(r["ci_misses_exact"] for r in odds["rows"])
    assert text.count('<tr class="flag">') == flagged
    assert f"<strong>{flagged} of {len(odds['rows'])}</strong>" in text
    meta = json.loads((runs["sim"] / "meta.json").read_text())
    assert f"<code>{meta['git']}</code>" in text and "tracker" in text
    assert "knock_limit=10" in text   # every rule option is listed in the methods
    from analysis.studies.compare_stats import diff_table
    from analysis.studies.strategy_compare import load_compare
    d = diff_table(load_compare(runs["compare"]))
    assert "Strategy comparison: gin" in text and f"(m = {len(d)})" in text
    for r in d.itertuples():
        assert f"{r.p_holm:.4f}" in text and f"{r.n:,}" in text


def test_unknown_or_unfinished_folders_are_refused(tmp_path, runs):
    odd = tmp_path / "holiday-photos"
    odd.mkdir()
    (odd / "beach.jpg").write_bytes(b"x")
    with pytest.raises(StoreError, match="holiday-photos"):
        report.render_report([str(odd)], str(tmp_path / "r.html"))
    with pytest.raises(StoreError, match="no such run folder"):
        report.render_report([str(tmp_path / "missing")], str(tmp_path / "r.html"))
    with pytest.raises(StoreError, match="stage of a study"):
        report.detect(runs["sweep"] / "overall")
    bad = tmp_path / "bad-odds"
    bad.mkdir()
    (bad / "odds.json").write_text(json.dumps({"kind": "something_else"}))
    with pytest.raises(StoreError, match="not a tonk odds result"):
        report.render_report([str(bad)], str(tmp_path / "r.html"))
    assert not (tmp_path / "r.html").exists()


def test_cli_subcommand_writes_html_and_pngs(tmp_path, runs, capsys):
    parser = argparse.ArgumentParser(prog="rummylab")
    report.add_parser(parser.add_subparsers(dest="command"))
    html_path = tmp_path / "out" / "odds.html"
    args = parser.parse_args(["report", str(runs["odds"]), "--html", str(html_path), "--title", "Tonk odds"])
    assert args.func(args) == 0
    assert "<title>Tonk odds</title>" in html_path.read_text()
    assert (tmp_path / "out" / "tonk-odds-odds.png").read_bytes().startswith(PNG_MAGIC)
    assert str(html_path) in capsys.readouterr().out


@pytest.mark.slow
def test_report_loads_in_headless_chromium(rendered, tmp_path):
    checker = _load_checker()
    if checker.missing_browser() and not checker.browser_required():
        pytest.skip(checker.missing_browser() + ": browser check skipped")
    shot = tmp_path / "shot.png"
    ok, msg = checker.check_html(rendered["html"], str(shot))
    assert ok, msg
    assert "OK" in msg and f"{len(rendered['pngs'])} image(s) decoded" in msg and "screenshot taken" in msg
    assert shot.read_bytes().startswith(PNG_MAGIC)
    broken = tmp_path / "broken.html"   # the checker must catch a broken image, a JS error, an empty table
    broken.write_text("<!DOCTYPE html><html><head><title>B</title></head><body>"
                      "<img src=\"data:image/png;base64,AAAA\" alt=\"x\"><script>nope();</script>"
                      "<table><caption>nothing</caption><tr><th>h</th></tr></table></body></html>")
    ok, msg = checker.check_html(broken)
    assert not ok and "did not decode" in msg and "nope" in msg and "1 empty table(s): ['nothing']" in msg


def test_checker_skips_cleanly_without_a_browser(monkeypatch, tmp_path, capsys):
    checker = _load_checker()
    monkeypatch.setattr(checker, "find_browser", lambda: None)
    page = tmp_path / "p.html"
    page.write_text("<!DOCTYPE html><html><head><title>P</title></head><body></body></html>")
    monkeypatch.delenv(checker.REQUIRE_ENV, raising=False)
    assert checker.check_html(page) == (True, checker.SKIP)
    assert checker.main([str(page)]) == 0
    assert capsys.readouterr().out.startswith("SKIP: no Chromium installed (apt-get install chromium)")
    monkeypatch.setenv(checker.REQUIRE_ENV, "1")     # CI: a missing browser fails the check
    ok, msg = checker.check_html(page)
    assert not ok and "no Chromium installed" in msg
    assert checker.main([str(tmp_path)]) == 1
    with pytest.raises(checker.NoBrowser, match="no Chromium installed"):
        with checker.browser():
            pass
    monkeypatch.setattr(checker, "find_browser", lambda: "/usr/bin/chromium")   # a browser, but no playwright
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "playwright" else real(name, *a))
    ok, msg = checker.check_html(page)
    assert not ok and "no playwright module" in msg
    monkeypatch.delenv(checker.REQUIRE_ENV)
    assert checker.check_html(page) == (True, checker.SKIP_PLAYWRIGHT)


def test_every_registered_section_kind_renders(rendered):
    sections = rendered["report"].sections
    assert {s.kind for s in sections} == set(report.SECTIONS), "give every section kind a stored run above"
    for s in sections:
        assert s.figures and s.methods and s.title, s.kind
        assert report.detect(s.folder) == s.kind


@pytest.fixture
def fairness_kind():
    """A study kind added the way a future study module adds it: one decorated builder."""
    @report.section("fairness", file="fairness.json", methods="<p>How fairness is measured.</p>")
    def fairness_section(folder: Path, anchor: str) -> report.RunSection:
        doc = store.read_study(folder, "fairness")
        sec = report.RunSection("fairness", str(folder), anchor, f"Fairness — {folder.name}")
        sec.body.append(f"<p>verdict: {report.esc(doc['verdict'])}</p>")
        return sec
    yield "fairness"
    del report.SECTIONS["fairness"]


def test_detection_prefers_the_kind_stored_in_the_study_file(runs, tmp_path, fairness_kind):
    both = tmp_path / "fairness-run"
    shutil.copytree(runs["sim"], both)   # also a complete simulate run (meta.json with columns)
    store.write_study(both, "fairness", {"verdict": "even"})
    assert report.detect(both) == "run"            # no stored kind: the file names decide
    store.write_study(both, "fairness", {"kind": "fairness", "verdict": "even"})
    assert report.detect(both) == "fairness"
    rep = report.build_report([str(both)])
    assert [s.kind for s in rep.sections] == ["fairness"]
    page = report.report_html(rep)
    assert "verdict: even" in page and "How fairness is measured." in page
    assert "Common random numbers" not in page     # methods only of the kinds shown


def test_stored_runs_without_a_kind_still_render(runs, tmp_path):
    old = tmp_path / "old-sweep"
    shutil.copytree(runs["sweep"], old)
    info = json.loads((old / "sweep.json").read_text())
    del info["kind"]
    del info["sha256"]   # stored before study files were sealed, too
    (old / "sweep.json").write_text(json.dumps(info))
    assert report.detect(old) == "knock_sweep"
    assert "kind" not in json.loads((runs["sim"] / "meta.json").read_text())
    assert report.detect(runs["sim"]) == "run"


@pytest.mark.slow
def test_a_sweep_stored_before_stage_seeds_renders_marked(runs, tmp_path):
    old = tmp_path / "old-seeds"
    shutil.copytree(runs["sweep"], old)
    info = json.loads((old / "sweep.json").read_text())
    del info["spec"]["stage_seeds"], info["policy_thresholds"]
    del info["sha256"]   # stored before study files were sealed, too
    (old / "sweep.json").write_text(json.dumps(info))
    shutil.rmtree(old / "policy")
    page = report.report_html(report.build_report([str(old)]))
    assert "Stored before stage seeds were separated" in page
    assert "The chart's policy, simulated" not in page and "Knock chart" in page


def test_report_says_which_statistics_are_approximate_or_untested(rendered):
    """The interaction share's CI is labelled approximate wherever it is shown (the ladder
    table and the methods); the skill gradient's CI carries the SD's error (delta method)."""
    text = rendered["text"]
    assert "variance: deal x strategy (approximate CI)" in text
    assert text.count("its nominal 95% CI covered 85% to 92%") >= 2
    assert "delta method over deals" in text
