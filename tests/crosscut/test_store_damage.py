"""A damaged store never gives a number: every stored file carries a SHA-256 content hash,
checked on reuse (a damaged chunk is recomputed with a one-line warning, a damaged meta.json
rebuilt from the chunks) and in ``report`` (refused, one line naming the file).  Two writers of
one folder: the second waits and reuses.  SIGTERM ends a run as Ctrl-C does."""

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis import store
from analysis.cli import main
from sim.runner import CHUNK
from tests.support import ROOT


N = CHUNK + 5
SIM = ["simulate", "--hands", str(N), "--seed", "4", "--jobs", "1", "--no-progress", "--json"]
NUMBERS = ("seats", "positions", "outcomes", "hand_length", "simulated", "seed")


def _simulate(out, capsys) -> tuple[int, dict, list[str]]:
    code = main([*SIM, "--out", str(out)])
    cap = capsys.readouterr()
    return code, json.loads(cap.out), cap.err.strip().splitlines()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    out = tmp_path_factory.mktemp("store") / "run"
    assert main([*SIM, "--out", str(out)]) == 0
    return out


@pytest.fixture
def run(pristine, tmp_path, capsys):
    out = tmp_path / "run"
    shutil.copytree(pristine, out)
    code, first, _ = _simulate(out, capsys)
    assert code == 0 and first["from_store"]
    return out, {k: first[k] for k in NUMBERS if k in first}


def _rows(out):
    return sorted((out / "rows").glob("*.parquet"))


def _chunks(out):
    return sorted((out / "chunks").glob("*.json"))


def _truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _edit_meta(out, change):
    meta = json.loads((out / "meta.json").read_text())
    change(meta)
    (out / "meta.json").write_text(json.dumps(meta, indent=2))


def _double_a_sum(meta):
    meta["total"]["moments"]["deadwood0"][1] *= 2     # [count, sum, sum of squares]


DAMAGE = {
    "truncated rows": (lambda out: _truncate(_rows(out)[0]), lambda out: _rows(out)[0]),
    "deleted rows": (lambda out: _rows(out)[1].unlink(), lambda out: _rows(out)[1]),
    "truncated chunk": (lambda out: _truncate(_chunks(out)[1]), lambda out: _chunks(out)[1]),
    "edited chunk sum": (lambda out: _chunks(out)[0].write_text(
        _chunks(out)[0].read_text().replace('"n": ', '"n": 1', 1)), lambda out: _chunks(out)[0]),
    "edited seed in meta.json": (lambda out: _edit_meta(out, lambda m: m.update(seed=99)), lambda out: out / "meta.json"),
    "doubled sum in meta.json": (lambda out: _edit_meta(out, _double_a_sum), lambda out: out / "meta.json"),
    "truncated meta.json": (lambda out: _truncate(out / "meta.json"), lambda out: out / "meta.json"),
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_report_refuses_a_damaged_store_in_one_line_naming_the_file(damage, run, tmp_path, capsys):
    out, _ = run
    hurt, named = DAMAGE[damage]
    name = named(out)
    hurt(out)
    assert main(["report", str(out), "--html", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rummylab: error: ") and "damaged" in err[0]
    assert Path(name).name in err[0]
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_a_rerun_recomputes_what_is_damaged_with_one_warning_and_the_same_numbers(damage, run, capsys):
    out, numbers = run
    DAMAGE[damage][0](out)
    code, again, err = _simulate(out, capsys)
    assert code == 0 and not again["from_store"]
    assert len(err) == 1 and err[0].startswith("rummylab: warning: ") and "damaged" in err[0]
    assert {k: again[k] for k in numbers} == numbers
    code, third, err = _simulate(out, capsys)       # repaired: reused, silently
    assert code == 0 and third["from_store"] and err == [] and {k: third[k] for k in numbers} == numbers
    assert main(["report", str(out), "--html", str(out.parent / "r.html")]) == 0


def test_an_edited_spec_json_refuses_the_run_in_one_line(run, capsys):
    out, _ = run
    spec = json.loads((out / "spec.json").read_text())
    spec["seed"] = 5
    (out / "spec.json").write_text(json.dumps(spec))
    code = main([*SIM, "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "spec.json is damaged" in err[0]


def test_an_unreadable_meta_json_is_one_line(run, tmp_path, capsys):
    out, _ = run
    (out / "meta.json").unlink()
    (out / "meta.json").mkdir()          # unreadable as a file, even for root
    assert main(["report", str(out), "--html", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "meta.json is damaged (it cannot be read" in err[0]


def test_an_edited_study_file_is_refused_by_report(tmp_path, capsys):
    out = tmp_path / "odds"
    assert main(["tonk-odds", "--players", "2", "--tonk-min", "50", "--simulate", "2000", "--jobs", "1",
                 "--no-progress", "--out", str(out)]) == 0
    capsys.readouterr()
    doc = json.loads((out / "odds.json").read_text())
    doc["rows"][0]["exact"] = 0.5
    (out / "odds.json").write_text(json.dumps(doc))
    assert main(["report", str(out), "--html", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "odds.json is damaged" in err[0]
    with pytest.raises(store.Damaged):
        store.read_study(out, "odds")


def test_a_failed_write_leaves_no_temp_file_and_is_one_error(tmp_path, monkeypatch):
    import os
    target = tmp_path / "out" / "x.json"

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(store.StoreError, match="cannot write .*x.json"):
        store.atomic_write(target, b"{}")
    assert list((tmp_path / "out").iterdir()) == []


# ------------------------------------------------------------------------------------ processes

def _cli(*args):
    return [sys.executable, "-m", "analysis.cli", *args]


def _wait_for(path, timeout=180):
    deadline = time.time() + timeout
    while not path.exists() and time.time() < deadline:
        time.sleep(0.1)
    assert path.exists()


@pytest.mark.slow
def test_a_second_writer_of_a_folder_waits_then_reuses_the_run(tmp_path):
    out = tmp_path / "run"
    cmd = _cli("simulate", "--hands", str(40 * CHUNK), "--seed", "8", "--jobs", "1", "--no-progress",
               "--json", "--out", str(out))
    first = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(out / "spec.json")
    second = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out1, err1 = first.communicate(timeout=600)
    out2, err2 = second.communicate(timeout=600)
    assert first.returncode == 0 and second.returncode == 0, err1 + err2
    assert "is being written by another rummylab; waiting" in err2 and "Traceback" not in err2
    a, b = json.loads(out1), json.loads(out2)
    assert not a["from_store"] and b["from_store"]          # the work was done once
    assert {k: a[k] for k in NUMBERS if k in a} == {k: b[k] for k in NUMBERS if k in b}


@pytest.mark.slow
@pytest.mark.parametrize("jobs,backend", [("1", "threads"), ("2", "threads"), ("2", "loky")])
def test_sigterm_prints_the_labelled_partial_summary_and_the_run_resumes(jobs, backend, tmp_path):
    """loky: the whole process group gets the signal (as from a batch system), workers too."""
    import os
    out = tmp_path / "run"
    cmd = _cli("simulate", "--hands", "20000000", "--seed", "6", "--jobs", jobs, "--backend", backend,
               "--no-progress", "--out", str(out))
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    deadline = time.time() + 180
    while len(list((out / "chunks").glob("*.json"))) < 2 and time.time() < deadline:
        time.sleep(0.1)
    if backend == "loky":
        os.killpg(p.pid, signal.SIGTERM)
    else:
        p.send_signal(signal.SIGTERM)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130 and "Traceback" not in stderr
    assert "PARTIAL: interrupted after" in stdout and "resume" in stderr
    assert not (out / "meta.json").exists()
    stored = {c.name: c.stat().st_mtime_ns for c in _chunks(out)}
    first_two = sorted(stored)[:2]
    resumed = subprocess.run(_cli("simulate", "--hands", str(2 * CHUNK), "--seed", "6", "--jobs", "1",
                                  "--no-progress", "--json", "--out", str(out)),
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0 and "warning" not in resumed.stderr
    assert all(c.stat().st_mtime_ns == stored[c.name] for c in _chunks(out) if c.name in first_two)
    fresh = subprocess.run(_cli("simulate", "--hands", str(2 * CHUNK), "--seed", "6", "--jobs", "1",
                                "--no-progress", "--json"), cwd=ROOT, capture_output=True, text=True, timeout=300)
    a, b = json.loads(resumed.stdout), json.loads(fresh.stdout)
    assert {k: a[k] for k in NUMBERS if k in a} == {k: b[k] for k in NUMBERS if k in b}


def test_writing_over_a_folder_is_one_error_and_leaves_no_temp_file(tmp_path):
    (tmp_path / "report.html").mkdir()
    with pytest.raises(store.StoreError, match="cannot write .*report.html"):
        store.atomic_write(tmp_path / "report.html", b"<html>")
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.slow
def test_a_study_folder_held_by_another_process_is_waited_for_with_a_message(tmp_path, capsys):
    from analysis import lock
    folder = tmp_path / "sweep"
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from filelock import FileLock; "
        f"l = FileLock({str(folder / lock.LOCK_NAME)!r}); l.acquire(); print('held', flush=True); time.sleep(2)")],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    t = time.time()
    try:
        assert store.claim(folder, ("sweep.json",), "sweep") == folder
        assert time.time() - t > 1 and lock.holds(folder)
    finally:
        lock.release_all()
        holder.wait(timeout=30)
    assert "is being written by another rummylab; waiting" in capsys.readouterr().err
