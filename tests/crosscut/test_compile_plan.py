"""The first compile on two cores (analysis.compile_plan): the shipped plans name engine
functions that exist, with argument types that load and fit them, in an order both workers can
follow; a plan runs in two processes and leaves its functions in the shared cache; a stale plan
costs nothing but its speed-up."""

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import coldstart, compile_plan as CP
from tests.support import ROOT


PLAN_FILES = sorted(CP.PLANS.glob("*.json"))


def test_every_measured_first_run_has_a_plan():
    keys = {p.stem for p in PLAN_FILES}
    assert keys == set(coldstart.EXPECTED_S), keys ^ set(coldstart.EXPECTED_S)


@pytest.mark.parametrize("path", PLAN_FILES, ids=lambda p: p.stem)
def test_a_shipped_plan_fits_the_engine(path):
    plan = CP.load(path.stem)
    assert plan is not None, "the plan's argument types do not load"
    tasks = plan["tasks"]
    assert len(plan["types"]) == len(tasks) and {t["w"] for t in tasks} == {0, 1}
    worker_of: dict[str, int] = {}
    for i, t in enumerate(tasks):
        d = CP.dispatcher(t["f"])
        assert d is not None, f"{t['f']} is not an engine kernel any more"
        params = inspect.signature(d.py_func).parameters.values()
        need = sum(p.default is inspect.Parameter.empty for p in params)
        assert need <= len(plan["types"][t["s"]]) <= len(params), t["f"]
        assert all(j < i for j in t["after"]), f"{t['f']} waits for a later function"
        assert worker_of.setdefault(t["f"], t["w"]) == t["w"], f"{t['f']} on both workers"
    assert plan["predicted_s"] < plan["serial_s"]


_SMALL = {   # a hand-made plan: two independent kernels, one per worker, and one calling both
    "entry": "test.small", "tasks": [
        {"f": "sim.core.bits.popcount", "s": 0, "w": 1, "after": [], "cost": 0.1},
        {"f": "sim.knock.melds.hand_value", "s": 1, "w": 0, "after": [], "cost": 0.1},
        {"f": "sim.no_such.kernel", "s": 2, "w": 0, "after": [0], "cost": 0.1},   # stale: skipped
    ]}


def _run(code: str, cache: Path, plans: Path) -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), RUMMYLAB_SPLIT_COMPILE="1")
    boot = f"import analysis.compile_plan as CP; from pathlib import Path; CP.PLANS = Path({str(plans)!r})\n"
    return subprocess.run([sys.executable, "-c", boot + code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True, timeout=300).stdout


@pytest.mark.slow
def test_a_plan_compiles_in_two_processes_into_the_shared_cache(tmp_path):
    import base64
    import pickle
    import zlib
    from numba import types
    plans, cache = tmp_path / "plans", tmp_path / "cache"
    plans.mkdir()
    sigs = [(types.uint64,), (types.uint64, types.Array(types.int64, 1, "C", readonly=True)), (types.int64,)]
    plan = dict(_SMALL, sigs=base64.b64encode(zlib.compress(pickle.dumps(sigs))).decode())
    (plans / "test.small.json").write_text(json.dumps(plan))
    out = _run("print(CP.precompile('test.small'))", cache, plans)
    assert out.strip() == "True"
    # a new process finds both kernels in the cache: the one worker 1 compiled too
    out = _run("from sim.core.bits import popcount\nfrom sim.knock.melds import hand_value\n"
               "import numpy as np\nfrom numba import types\n"
               "ro = types.Array(types.int64, 1, 'C', readonly=True)\n"
               "popcount.compile((types.uint64,)); hand_value.compile((types.uint64, ro))\n"
               "print(sum(popcount.stats.cache_hits.values()), sum(hand_value.stats.cache_hits.values()),"
               " sum(popcount.stats.cache_misses.values()) + sum(hand_value.stats.cache_misses.values()))",
               cache, plans)
    assert out.split() == ["1", "1", "0"], out


def test_no_plan_or_turned_off_runs_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(CP, "PLANS", tmp_path)
    monkeypatch.setenv("RUMMYLAB_SPLIT_COMPILE", "1")
    assert CP.precompile("gin.hands") is False and CP._running == {}
    monkeypatch.setenv("RUMMYLAB_SPLIT_COMPILE", "0")
    assert not CP.enabled()
