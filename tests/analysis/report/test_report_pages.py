"""The report as pages: a landing page of answers written from the stored numbers, a page per
game, balance and methods with the same navigation, links that resolve, small pages, tables
that show the rows that matter first, and the one-file version (--self-contained)."""

from __future__ import annotations

import importlib.util
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from analysis import report, wording
from analysis.cli import main as cli_main
from analysis.studies.sweep_text import sweep_answer
from analysis.report.html import SHOW_ROWS, html_table
from analysis.studies import knob
from analysis.studies.balance import load_balance
from analysis.studies.knock_sweep import load_sweep
from analysis.studies.sweep_stats import sweep_table
from analysis.studies.tonk_odds import PROB_KEYS, exact_tonk_odds
from sim.variants import get_variant
from tests.support import ROOT


MAX_PAGE = 1_500_000


def _checker():
    spec = importlib.util.spec_from_file_location("check_report", ROOT / "scripts" / "check_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _browser_checker():
    """The checker, or a skip when no Chromium (or no playwright) is installed and CI does not require one."""
    checker = _checker()
    if checker.missing_browser() and not checker.browser_required():
        pytest.skip(checker.missing_browser() + ": browser check skipped")
    return checker


def _tonk_odds(folder: Path) -> None:
    """An odds folder with the exact values and a simulation that equals them (n deals)."""
    from analysis.store import write_study
    rows = []
    for n in (2, 3):
        for t in (49, 50):
            ex = exact_tonk_odds(n, t)
            for q in PROB_KEYS:
                rows.append({"players": n, "tonk_min": t, "quantity": q, "exact": ex[q], "sim": ex[q],
                             "sim_lo": ex[q] * 0.9, "sim_hi": min(1.0, ex[q] * 1.1 + 1e-4), "n": 10_000,
                             "ci_misses_exact": False})
    folder.mkdir(parents=True)
    write_study(folder, "odds", {"kind": "tonk_odds", "deals": 10_000, "seed": 3, "rows": rows, "git": "test"})


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    assert cli_main(["knock-sweep", "--variant", "gin", "--hands", "1500", "--thresholds", "0..10:2", "--by-turn",
                     "--games", "100", "--jobs", "1", "--seed", "2", "--no-progress", "--out", str(base / "gin-knock")]) == 0
    assert cli_main(["balance", "--variant", "tonk", "--players", "2", "--hands", "400", "--jobs", "1",
                     "--no-progress", "--out", str(base / "balance")]) == 0
    assert cli_main(["compare", "--variant", "gin", "--strategies", "simple,tracker", "--hands", "800",
                     "--jobs", "1", "--seed", "5", "--no-progress", "--out", str(base / "gin-compare")]) == 0
    _tonk_odds(base / "tonk-odds")
    return base


def _no_simulation(*args, **kwargs):
    raise AssertionError("the report must never simulate")


def _forbid_simulation(mp: pytest.MonkeyPatch) -> None:
    """Every entry point of the simulation replaced by a failure."""
    import analysis.jobs as jobs_module
    import analysis.studies.knock_sweep as ks
    import sim.runner as runner
    for mod, name in [(ks, "run_job"), (ks, "run_sweep"), (jobs_module, "run_job"), (jobs_module, "run_chunk"),
                      (runner, "run_chunk"), (runner, "play_hands")]:
        mp.setattr(mod, name, _no_simulation)


@pytest.fixture(scope="module")
def site(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "index.html"
    dirs = [str(runs / n) for n in ("gin-knock", "tonk-odds", "gin-compare", "balance")]
    with pytest.MonkeyPatch.context() as mp:
        _forbid_simulation(mp)
        pngs = report.render_report(dirs, str(out))
    return {"dir": out.parent, "index": out.read_text(encoding="utf-8"), "pngs": pngs, "dirs": dirs}


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.nav, self.in_nav, self.imgs = [], False, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "nav" and "site" in (a.get("class") or ""):
            self.in_nav = True
        if tag == "a" and self.in_nav:
            self.nav.append(a["href"])
        if tag == "img":
            self.imgs.append(a)

    def handle_endtag(self, tag):
        if tag == "nav":
            self.in_nav = False


def _parse(text: str) -> _Links:
    p = _Links()
    p.feed(text)
    return p


@pytest.mark.slow
def test_the_pages_exist_share_one_navigation_and_are_small(site):
    pages = sorted(p.name for p in site["dir"].glob("*.html"))
    assert pages == ["balance.html", "gin.html", "index.html", "methods.html", "tonk.html"]
    navs = {name: _parse((site["dir"] / name).read_text(encoding="utf-8")).nav for name in pages}
    first = navs["index.html"]
    assert sorted(first) == pages and all(v == first for v in navs.values()), navs
    checker = _checker()
    for name in pages:
        path = site["dir"] / name
        assert checker.link_problems(path) == [], name
        imgs = _parse(path.read_text(encoding="utf-8")).imgs
        weight = path.stat().st_size + sum((site["dir"] / s).stat().st_size for s in {i["src"] for i in imgs})
        assert weight < MAX_PAGE, (name, weight)      # the page and every figure it shows
        for img in imgs:
            assert img["loading"] == "lazy" and not img["src"].startswith("data:")
            assert (site["dir"] / img["src"]).read_bytes().startswith(b"\x89PNG")
    assert {Path(p).parent for p in site["pngs"]} == {site["dir"]}


def test_the_landing_page_leads_with_the_answers(site):
    text = site["index"]
    title = re.search(r"<title>(.*?)</title>", text).group(1)
    assert title.startswith("rummylab: when to knock, tonk odds and balance for ") and "<h1>" + title in text
    assert text.index("class=\"answer\"") < text.index("Balance across games")
    assert "Simulated: 2 games (gin, tonk)" in text and "commit " in text and "seeds 0, 2, 3, 5" in text
    for d in site["dirs"]:   # every stored folder is named and linked from its answer
        assert f"<code>{Path(d).name}</code>" in text


def _num(x: float, d: int) -> str:
    return f"{x:+.{d}f}".replace("-", "−")


def test_the_sweep_sentence_carries_the_stored_numbers(site, runs):
    res = load_sweep(runs / "gin-knock")
    t = sweep_table(res.spec, res.overall)
    best = int(t.loc[t["best"], "threshold"].iloc[0])
    others = t[~t["best"]]
    up = others.loc[others["mean"].idxmax()]
    gain, lo, hi = -up["diff_to_best"], -up["diff_hi"], -up["diff_lo"]
    d = wording.decimals(gain, lo, hi)
    sentence = next(s for s in sweep_answer(res) if s.startswith("gin, 2 players"))
    game = get_variant("gin")
    assert f"players, against simple: {knob.all_hand(game, best, html=True)}: the best of" in sentence
    assert f"{_num(gain, d)} [{_num(lo, d)}, {_num(hi, d)}] points per hand" in sentence
    runner = (f"runner-up ({knob.advice(game, 0, html=True)})" if int(up["threshold"]) == 0
              else f"runner-up, deadwood ≤ {int(up['threshold'])}")
    assert runner in sentence and f"n = {res.spec.hands:,} hands" in sentence
    assert "deadwood ≤ 0" not in sentence and "go for gin; never knock all hand" not in sentence
    assert (wording.NOT_SIGNIFICANT in sentence.split("(same deals")[0]) == (lo <= 0 <= hi)
    assert report.esc(sentence) in site["index"]


def test_the_balance_table_and_tonk_sentence_carry_the_stored_numbers(site, runs):
    doc = load_balance(runs / "balance")
    cell = doc["cells"][0]
    e = cell["seat_hand"]["first_win"]
    v, (lo, hi) = 100 * e["value"], (100 * x for x in e["ci95"])
    row = re.search(r"<td>tonk 2p</td>(.*?)</tr>", site["index"], re.S).group(1)
    assert f"{_num(v, 1)} [{_num(lo, 1)}, {_num(hi, 1)}]" in row and f"{e['n']:,}" in row
    assert ("not significant" in row) == (lo <= 0 <= hi)
    turns = cell["tempo"]["turns"]["value"]
    assert f"{turns:.1f} [" in row
    two = exact_tonk_odds(2, 49)["p_at_least_one"]
    three = exact_tonk_odds(3, 49)["p_at_least_one"]
    assert f"in {100 * two:.2f}% with 2, {100 * three:.2f}% with 3 players" in site["index"]


def test_not_significant_exactly_when_the_interval_covers_zero():
    assert wording.ci_text(0.12, -0.03, 0.27, 2, "points per hand").endswith("points per hand, not significant")
    assert "not significant" not in wording.ci_text(0.12, 0.03, 0.27, 2, "points per hand")
    assert "not significant" in wording.ci_text(-0.5, -1.0, 0.0, 1)


def test_long_tables_show_the_rows_that_matter_first_each_row_once():
    rows = [[str(k), f"{k * 0.1:.1f}"] for k in range(3 * SHOW_ROWS)]
    cls = ["best" if k == 7 else ("same" if k in (6, 8) else "") for k in range(len(rows))]
    out = html_table(["d", "mean"], rows, cls)
    shown, rest = out.split("<details")
    assert [int(x) for x in re.findall(r"<tr[^>]*><td>(\d+)</td>", shown)] == [6, 7, 8]
    later = [int(x) for x in re.findall(r"<tr[^>]*><td>(\d+)</td>", rest)]
    assert sorted(later + [6, 7, 8]) == list(range(len(rows))) and f"show all {len(rows)} rows" in rest
    short = html_table(["d"], [["1"], ["2"]], ["best", ""])
    assert "<details" not in short and short.count("<tr") == 3


@pytest.mark.slow
def test_self_contained_is_one_file_with_embedded_figures(site, runs, tmp_path):
    out = tmp_path / "mail" / "report.html"
    assert cli_main(["report", *site["dirs"], "--html", str(out), "--self-contained"]) == 0
    assert sorted(p.name for p in out.parent.glob("*.html")) == ["report.html"]
    imgs = _parse(out.read_text(encoding="utf-8")).imgs
    assert imgs and all(i["src"].startswith("data:image/png;base64,") for i in imgs)


@pytest.mark.slow
def test_every_page_passes_the_browser_check(site):
    checker = _browser_checker()
    for page in checker.pages([str(site["dir"])]):
        ok, msg = checker.check_html(page)
        assert ok, msg
        assert "1280x900 and 390x900" in msg
    ok, msg = checker.check_html(site["dir"] / "index.html")
    assert "first answer on the first screen" in msg


@pytest.mark.slow
def test_the_checker_catches_overflow_bad_links_and_a_buried_answer(tmp_path):
    checker = _browser_checker()
    page = tmp_path / "index.html"
    page.write_text("<!DOCTYPE html><html><head><meta name=\"viewport\" content=\"width=device-width\">"
                    "<title>T</title></head><body><div style=\"width:700px\">wide</div>"
                    "<div style=\"height:1200px\">tall</div><div class=\"answer\">late</div>"
                    "<a href=\"gone.html\">x</a><a href=\"#nowhere\">y</a></body></html>")
    ok, msg = checker.check_html(page)
    assert not ok
    assert "stick out past the viewport (390 px)" in msg and "no such page" in msg and "no id 'nowhere'" in msg
    assert "below the first screen" in msg


CLEAN = ("<!DOCTYPE html><html><head><meta name=\"viewport\" content=\"width=device-width\"><title>T</title>"
         "</head><body><p id=\"top\">ok</p><a href=\"#top\">up</a><table><tr><td>1</td></tr></table>{}</body></html>")
DEFECTS = {   # one defect each, on an otherwise clean page: what the check must say
    "overflow": ("<div style=\"width:700px\">wide</div>", "stick out past the viewport (390 px)"),
    "broken link": ("<a href=\"gone.html#x\">gone</a>", "link 'gone.html#x': no such page"),
    "external src": ("<img src=\"https://example.com/x.png\" alt=\"ext\">", "not self-contained"),
    "js error": ("<script>nope();</script>", "uncaught: ReferenceError: nope is not defined"),
    "console.error": ("<script>console.error('boom')</script>", "console.error: boom"),
    "network call": ("<script>fetch('http://127.0.0.1:9/x').catch(() => null)</script>", "request failed: http://127.0.0.1:9/x"),
    "file outside the copy": ("<img src=\"pic.svg\" alt=\"svg\">", "image(s) did not decode: ['svg']"),
    "file outside the folder": ("<script src=\"{outside}\"></script>", "request failed: file://"),
}


@pytest.mark.slow
@pytest.mark.parametrize("defect", DEFECTS)
def test_the_checker_fails_each_defect_and_passes_the_clean_page(tmp_path, defect):
    checker = _browser_checker()
    outside = tmp_path / "outside.js"
    outside.write_text("document.title = 'ran';")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    clean, bad = tmp_path / "site" / "clean.html", tmp_path / "site" / "bad.html"
    clean.write_text(CLEAN.format(""))
    ok, msg = checker.check_html(clean)
    assert ok and "1280x900 and 390x900" in msg, msg
    html, said = DEFECTS[defect]
    bad.write_text(CLEAN.format(html.format(outside=outside.as_uri())))
    ok, msg = checker.check_html(bad)
    assert not ok and said in msg, msg
    assert checker.main([str(bad)]) == 1


@pytest.mark.slow
def test_the_browser_pieces_for_other_tests(tmp_path):
    checker = _browser_checker()
    page_file = tmp_path / "p.html"
    page_file.write_text(CLEAN.format("<div style=\"overflow-x:auto\"><div style=\"width:900px\">scrolls</div></div>"
                                      "<div id=\"wide\" style=\"width:500px\">wide</div>"))
    with checker.browser() as b:
        with checker.page_at(b, 390, 900) as page:
            errors = checker.watch_errors(page)
            page.goto(page_file.as_uri())
            assert page.viewport_size == {"width": 390, "height": 900}
            assert checker.sticking_out(page) == ['div#wide "wide"']
            page.evaluate("() => { console.error('late'); fetch('https://example.com/').catch(() => null); }")
            page.wait_for_timeout(200)
        assert errors[0] == "console.error: late" and errors[1].startswith("request failed: https://example.com/")
        with checker.page_at(b, 1280, 900) as page:
            page.goto(page_file.as_uri())
            assert checker.sticking_out(page) == []


def _build_in_worker(kind: str, folder: str, anchor: str):
    """A worker's section, drawn with the simulation forbidden (as in the fixture ``site``), and
    the worker's process id."""
    import os

    from analysis.report.workers import build_section
    with pytest.MonkeyPatch.context() as mp:
        _forbid_simulation(mp)
        return build_section(kind, folder, anchor), os.getpid()


def _without_stamp(data: bytes) -> bytes:
    return re.sub(rb"<footer>Generated by .*? on [^<]* UTC", b"<footer>", data)


@pytest.mark.slow
def test_the_parallel_render_is_the_serial_one(site, tmp_path):
    """--jobs 2 draws the folders in worker processes: the same pages (but the footer's time)
    and the same PNGs to the byte, in the same order, as the serial render of the fixture."""
    out = tmp_path / "par" / "index.html"
    pngs = report.render_report(site["dirs"], str(out), jobs=2)
    assert [Path(p).name for p in pngs] == [Path(p).name for p in site["pngs"]]
    written = sorted(p.name for p in out.parent.iterdir())
    assert written == sorted(p.name for p in site["dir"].iterdir() if p.suffix in (".html", ".png"))
    for name in written:
        assert _without_stamp((out.parent / name).read_bytes()) == \
            _without_stamp((site["dir"] / name).read_bytes()), name


@pytest.mark.slow
def test_workers_draw_in_other_processes_and_never_simulate(site):
    import os

    from analysis.report.registry import detect
    from analysis.report.workers import run_all
    tasks = [(detect(d), d, Path(d).name) for d in site["dirs"]]
    got = run_all(_build_in_worker, tasks, jobs=2, cost=lambda t: len(t[1]))
    assert [s.anchor for s, _ in got] == [t[2] for t in tasks]     # in the order given
    assert os.getpid() not in {pid for _, pid in got}


def test_one_process_for_one_core_jobs_1_or_a_small_report(monkeypatch):
    from analysis.report.workers import MIN_PARALLEL, worker_count
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert worker_count(-1, 24) == 2 and worker_count(8, 3 * MIN_PARALLEL) == 8 and worker_count(8, 5) == 5
    assert worker_count(1, 24) == 1 and worker_count(-1, MIN_PARALLEL - 1) == 1
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert worker_count(-1, 24) == 1
