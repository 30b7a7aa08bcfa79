"""Runner determinism across jobs, the results store (reuse, resume, refusal), the CLI."""

import itertools
import json
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pytest

from analysis import jobs, store
from analysis.cli import main
from analysis.summary import summarize
from sim.runner import CHUNK, MAX_UNITS, SpecError, make_spec, play_hands
from tests.support import ROOT


@pytest.mark.slow
def test_summary_identical_for_one_and_two_jobs():
    spec = make_spec("gin", strategies="simple,tracker", n=2 * CHUNK + 123, seed=17)
    one = jobs.run(spec, jobs=1, progress=False)
    two = jobs.run(spec, jobs=2, progress=False)                      # threads
    procs = jobs.run(spec, jobs=2, backend="loky", progress=False)    # worker processes
    assert one.complete and two.complete and procs.complete
    assert one.acc.to_dict() == two.acc.to_dict() == procs.acc.to_dict()


def test_store_reuses_complete_run_and_resumes_partial(tmp_path):
    spec = make_spec("gin", n=2 * CHUNK + 10, seed=3)
    out = tmp_path / "run"
    first = jobs.run(spec, jobs=1, out_dir=out, progress=False)
    again = jobs.run(spec, jobs=1, out_dir=out, progress=False)
    assert again.from_store and again.acc.to_dict() == first.acc.to_dict()
    # an interrupted run: drop meta.json and one chunk; the rerun simulates only that chunk
    (out / "meta.json").unlink()
    chunks = sorted((out / "chunks").glob("*.json"))
    chunks[1].unlink()
    resumed = jobs.run(spec, jobs=1, out_dir=out, progress=False)
    assert resumed.n_simulated == CHUNK and resumed.acc.to_dict() == first.acc.to_dict()
    meta, df = store.load_run(out)
    assert len(df) == spec.n and meta["versions"]["numba"] and meta["git"] and meta["n"] == spec.n
    direct = play_hands("gin", n_hands=spec.n, seed=3)
    assert (df["score0"].to_numpy() == direct["score0"]).all()
    assert set(df["outcome_name"].unique()) <= {"knock", "gin", "undercut", "void", "big_gin"}


class CountJob(jobs.Job):
    """Counts units; a Ctrl-C arrives when chunk ``stop_at`` starts."""

    def __init__(self, n, stop_at=None):
        self.n, self.stop_at, self.started = n, stop_at, []

    def identity(self):
        return {"kind": "count"}

    def warm_up(self):
        pass

    def compute(self, a, b, out_dir):
        if a == self.stop_at:
            raise KeyboardInterrupt
        self.started.append(a)
        return {"n": b - a}

    @staticmethod
    def merge(total, part):
        return {"n": (total or {"n": 0})["n"] + part["n"]}


def test_largest_run_plans_and_resumes_in_flat_memory(tmp_path):
    spec = make_spec("gin", n=MAX_UNITS)
    tracemalloc.start()
    t = time.perf_counter()
    assert list(itertools.islice(jobs.SimJob(spec).chunks(), 2)) == [(0, CHUNK), (CHUNK, 2 * CHUNK)]
    first = jobs.run_job(CountJob(MAX_UNITS, stop_at=3 * CHUNK), jobs=1, out_dir=tmp_path / "run")
    again = CountJob(MAX_UNITS, stop_at=5 * CHUNK)
    resumed = jobs.run_job(again, jobs=1, out_dir=tmp_path / "run")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert time.perf_counter() - t < 10 and peak < 1_000_000
    assert not first.complete and first.n_done == 3 * CHUNK
    assert again.started == [3 * CHUNK, 4 * CHUNK]      # finished chunks are skipped
    assert not resumed.complete and resumed.n_done == resumed.total["n"] == 5 * CHUNK


def test_more_than_the_maximum_is_refused():
    with pytest.raises(SpecError, match="at most 1,000,000,000,000"):
        make_spec("gin", n=MAX_UNITS + 1)


def test_help_states_the_largest_count(capsys):
    for cmd in ("simulate", "knock-sweep", "tonk-odds"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        assert "at most 1,000,000,000,000" in " ".join(capsys.readouterr().out.split())


def test_store_refuses_a_different_run(tmp_path):
    out = tmp_path / "run"
    jobs.run(make_spec("gin", n=100, seed=1), out_dir=out, progress=False)
    with pytest.raises(store.StoreError, match="different run"):
        jobs.run(make_spec("gin", n=100, seed=2), out_dir=out, progress=False)


def test_summary_has_cis_and_sample_sizes():
    spec = make_spec("gin", n=4000, seed=8)
    res = jobs.run(spec, progress=False, jobs=1)
    d = summarize(spec, res.acc, elapsed_s=res.elapsed_s, compile_s=res.compile_s)
    for seat in d["seats"]:
        e = seat["win_rate"]
        assert e["ci95"][0] <= e["value"] <= e["ci95"][1] and e["n"] == 4000
    total = sum(e["value"] for e in d["outcomes"].values())
    assert abs(total - 1) < 1e-9
    assert sum(d["turns"]["histogram"].values()) == 4000


def test_cli_simulate_json(capsys):
    assert main(["simulate", "--hands", "3000", "--seed", "7", "--jobs", "1", "--json",
                 "--strategies", "simple,threshold(knock=6)"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["simulated"] == 3000 and d["strategies"] == ["simple", "threshold(knock=6)"]
    assert set(d["outcomes"]) == {"knock", "gin", "undercut", "void", "big_gin"}
    assert d["seats"][1]["mean_score"]["n"] == 3000


def test_cli_game_mode_and_listings(capsys):
    assert main(["simulate", "--game", "--hands", "200", "--jobs", "1",
                 "--rule", "knock_limit=8", "--rule", "undercut_bonus=20"]) == 0
    out = capsys.readouterr().out
    assert "game win rate" in out and "hands per game" in out
    assert main(["strategies"]) == 0 and "knock_late" in capsys.readouterr().out
    assert main(["variants"]) == 0 and "undercut_bonus" in capsys.readouterr().out


def test_card_text_errors_name_the_token():
    from sim.core.cards import CardError, parse_cards
    with pytest.raises(CardError, match="'1S'"):
        parse_cards("AS 1S")
    with pytest.raises(CardError, match="AS appears 2 times"):
        parse_cards("AS 2S as")
    assert list(parse_cards("10d ♠A".replace("♠A", "A♠"))) == [2 * 16 + 9, 0]
    assert np.array_equal(parse_cards(["TD", 5]), np.array([41, 5]))


@pytest.mark.parametrize("cmd", ["simulate", "knock-sweep", "tonk-odds", "strategies", "variants", "bench", "demo", "report", "knock"])
def test_every_subcommand_has_help_with_examples(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        main([cmd, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "usage: rummylab" in out


@pytest.mark.slow
def test_dask_backend_gives_identical_results():
    pytest.importorskip("dask.distributed")
    spec = make_spec("gin", strategies="simple,tracker", n=2 * CHUNK + 5, seed=21)
    local = jobs.run(spec, jobs=1, progress=False)
    dask = jobs.run(spec, jobs=2, backend="dask", progress=False)
    assert dask.complete and dask.acc.to_dict() == local.acc.to_dict()


@pytest.mark.slow
def test_ctrl_c_prints_labelled_partial_summary_and_resumes(tmp_path):
    import os
    import signal
    import time
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "analysis.cli", "simulate", "--hands", "20000000", "--jobs", "1",
           "--no-progress", "--out", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 120
    while not list((out / "chunks").glob("*.json")) and time.time() < deadline:
        time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130
    assert "PARTIAL: interrupted after" in stdout and "Traceback" not in stderr
    assert "resume" in stderr
    assert not (out / "meta.json").exists()   # a partial run never writes a result
    assert os.path.exists(out / "spec.json")


@pytest.mark.parametrize("cmd", ["simulate", "knock-sweep"])
def test_out_under_missing_folders_creates_them(cmd, tmp_path):
    out = tmp_path / "missing" / "dir" / "x"       # e.g. runs/gin on a fresh clone
    extra = ["--thresholds", "0..1", "--games", "0"] if cmd == "knock-sweep" else []
    assert main([cmd, "--hands", "100", *extra, "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    assert out.is_dir() and any(out.iterdir())


@pytest.mark.parametrize("cmd", ["simulate", "knock-sweep"])
def test_out_under_a_file_is_refused_before_writing(cmd, tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("keep me")
    out = tmp_path / "notes.txt" / "x"
    with pytest.raises(SystemExit) as e:   # refused while reading the arguments
        main([cmd, "--hands", "100", "--jobs", "1", "--no-progress", "--out", str(out)])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rummylab: error:") and "is a file" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_out_naming_a_file_is_refused(tmp_path, capsys):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me")
    with pytest.raises(SystemExit) as e:   # refused while reading the arguments
        main(["simulate", "--hands", "100", "--jobs", "1", "--no-progress", "--out", str(a_file)])
    assert e.value.code == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert a_file.read_text() == "keep me"


def test_studies_write_and_read_their_json_through_the_store(tmp_path):
    doc = {"kind": "tonk_odds", "rows": [{"players": 2}]}
    path = store.write_study(tmp_path / "odds-run", "odds", doc)
    stored = json.loads(path.read_text())
    assert path == tmp_path / "odds-run" / "odds.json" and stored.pop("sha256") and stored == doc   # sealed
    assert store.read_study(tmp_path / "odds-run", "odds") == doc
    assert sorted(p.name for p in path.parent.iterdir()) == ["odds.json"]   # no temp file left
    with pytest.raises(store.StoreError, match="no balance.json"):
        store.read_study(tmp_path / "odds-run", "balance")
    (tmp_path / "a-file").write_text("")
    with pytest.raises(store.StoreError, match="is a file"):
        store.write_study(tmp_path / "a-file" / "run", "odds", doc)


def test_every_user_error_is_a_user_input_error():
    from analysis.cli import UserError
    from analysis.errors import OddsError, SweepError
    from analysis.studies.knock_advice import AdviceError
    from sim.core.cards import CardError
    from sim.core.errors import UserInputError
    from sim.core.rules import RulesError
    from sim.runner import SpecError
    from sim.strategies import StrategyError
    from sim.variants import VariantError
    for cls in (CardError, RulesError, StrategyError, VariantError, SpecError, store.StoreError,
                SweepError, OddsError, AdviceError, UserError):
        assert issubclass(cls, UserInputError) and issubclass(cls, ValueError), cls


@pytest.mark.slow
def test_demo_runs_from_a_fresh_folder_at_a_tiny_scale(tmp_path, monkeypatch, capsys):
    """`make demo` on a fresh clone: runs/ and reports/ do not exist yet."""
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--scale", "0.002", "--out", "runs/demo", "--html", "reports/index.html",
                 "--jobs", "1", "--no-progress"]) == 0
    html = (tmp_path / "reports" / "index.html").read_text()
    for name in ("gin-knock", "tonk-knock", "knock-rummy-knock", "gin-knock-vs-strong", "tonk-knock-vs-strong",
                 "knock-rummy-knock-vs-strong", "knock-rummy-rules", "gin-equilibrium", "knock-rummy-equilibrium",
                 "tonk-equilibrium", "gin-seats", "gin-seats-no-upcard-offer", "tonk-odds", "ramino-klop-knock",
                 "cincinnati-go-out", "wildcard-wilds", "basic-rummy-meld-double", "basic-rummy-meld-plus10",
                 "basic-rummy-restock", "ramino-drift-meld", "loba-meld", "wrotham-all-seven", "loba-buyback",
                 "balance"):
        assert (tmp_path / "runs" / "demo" / name).is_dir() and name in html
    # every page the demo wrote opens in a real browser: images decode, tables hold data, no
    # console errors, a screenshot is taken (skipped without Chromium unless CI requires it)
    import importlib.util
    path = ROOT / "scripts" / "check_report.py"
    mod = importlib.util.spec_from_file_location("check_report", path)
    checker = importlib.util.module_from_spec(mod)
    mod.loader.exec_module(checker)
    if checker.missing_browser() and not checker.browser_required():
        return
    for page in checker.pages([str(tmp_path / "reports")]):
        ok, msg = checker.check_html(page)
        assert ok, msg
