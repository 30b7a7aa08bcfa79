"""A first compile on two cores: a command's numba kernels compiled by two processes at once.

numba compiles one function at a time, and a kernel's first call compiles its whole tree of
callees in this process.  On a fresh install (an empty cache) that is the only wait a user sees:
40-70 s on one core.  A *plan* per game and entry point (``compile_plans/<game>.<entry>.json``)
lists every engine function the command compiles, with its argument types and its callees, and
assigns each to one of two workers so that both stay busy (list scheduling, longest path to the
command's kernel first).  On the first run this process is worker 0 and a second process
(``python -m analysis.compile_plan PLAN DONE``) worker 1; each compiles its functions in order, waiting
for a callee the other worker compiles until its marker is written; numba's disk cache carries
each compiled function to the other process.  Then the command runs and finds its kernels
compiled.

The plan is an optimisation only: a function or type the engine no longer has is skipped, and
whatever the plan missed compiles as before when the command calls it.  Plans are made by
``scripts/compile_times.py --plans`` (a cold single-process run per entry, its compile events
and call graph recorded by that script's ``record``).  ``RUMMYLAB_SPLIT_COMPILE=0`` turns the split off
(the demo does: its own second process compiles the later studies).
"""

from __future__ import annotations

import atexit
import base64
import importlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

PLANS = Path(__file__).with_name("compile_plans")
WAIT_S = 600            # the longest a worker waits for the other's callee before compiling it itself
_running: dict[str, tuple[subprocess.Popen, Path]] = {}     # key: worker 1 and its markers' folder


def enabled() -> bool:
    """True when a first compile may use a second process: two cores or more, not turned off."""
    return os.environ.get("RUMMYLAB_SPLIT_COMPILE", "1") != "0" and (os.cpu_count() or 1) >= 2


def splits(key: str) -> bool:
    """True when ``key``'s first compile runs in two processes (:func:`enabled`, a plan)."""
    return key in _running or (enabled() and plan_path(key).exists())


def plan_path(key: str) -> Path:
    return PLANS / f"{key}.json"


def load(key: str) -> dict | None:
    """The plan of ``key`` (``game.entry``) with its argument types unpickled, or None when
    there is none or it does not load (another numba)."""
    return load_file(plan_path(key))


def load_file(p: Path) -> dict | None:
    """:func:`load` of the plan file ``p``."""
    if not p.exists():
        return None
    try:
        plan = json.loads(p.read_text())
        plan["types"] = pickle.loads(zlib.decompress(base64.b64decode(plan["sigs"])))
        return plan
    except Exception:     # noqa: BLE001 - a plan that does not load costs only its speed-up
        return None


def dispatcher(name: str):
    """The numba dispatcher ``module.function`` names, or None."""
    module, _, attr = name.rpartition(".")
    try:
        d = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None
    return d if hasattr(d, "compile") and hasattr(d, "py_func") else None


def _wait(marker: Path, other_alive) -> None:
    t0 = time.monotonic()
    while not marker.exists() and other_alive() and time.monotonic() - t0 < WAIT_S:
        time.sleep(0.02)


def work(plan: dict, worker: int, done: Path, other_alive) -> None:
    """Compile ``worker``'s share of ``plan`` in order, each after its callees (the other
    worker's: their markers in ``done``); writes a marker per function compiled.
    ``RUMMYLAB_SPLIT_LOG=PATH``: each worker's timeline in ``PATH0``/``PATH1``
    (task, start, compile start, end, planned cost, function)."""
    tasks = plan["tasks"]
    log = os.environ.get("RUMMYLAB_SPLIT_LOG")
    lines = []
    for i, t in enumerate(tasks):
        if t["w"] != worker:
            continue
        t0 = time.time()
        for j in t["after"]:
            if tasks[j]["w"] != worker:
                _wait(done / str(j), other_alive)
        t1 = time.time()
        d = dispatcher(t["f"])
        if d is not None:
            try:
                d.compile(plan["types"][t["s"]])
            except Exception:     # noqa: BLE001 - stale types: the command compiles it when called
                pass
        (done / str(i)).touch()
        lines.append(f"{i} {t0:.2f} {t1:.2f} {time.time():.2f} {t['cost']} {t['f']}\n")
    if log:
        Path(f"{log}{worker}").write_text("".join(lines))


def start(key: str) -> None:
    """Start worker 1 of ``key``'s plan now, when there is one and :func:`enabled` (its import
    and first functions overlap this process's own checks); :func:`precompile` joins it, and
    one never joined is stopped when this process exits."""
    if key in _running or not splits(key):
        return
    d = Path(tempfile.mkdtemp(prefix="rummylab-split-"))
    proc = subprocess.Popen([sys.executable, "-m", "analysis.compile_plan", str(plan_path(key)), str(d)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=dict(os.environ))
    _running[key] = (proc, d)
    atexit.register(_stop, key)


def precompile(key: str) -> bool:
    """Compile ``key``'s kernels in this process and a second one (:func:`start`); True if the
    plan ran."""
    start(key)
    if key not in _running:
        return False
    proc, d = _running[key]
    plan = load(key)
    try:
        if plan is not None:
            work(plan, 0, d, lambda: proc.poll() is None)
            proc.wait(timeout=WAIT_S)
    finally:
        _stop(key)
    return plan is not None


def _stop(key: str) -> None:
    proc, d = _running.pop(key, (None, None))
    if proc is None:
        return
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    shutil.rmtree(d, ignore_errors=True)


def _worker_main(path: str, done: str) -> int:
    plan = load_file(Path(path))
    if plan is None:
        return 1
    parent = os.getppid()
    work(plan, 1, Path(done), lambda: os.getppid() == parent)
    return 0


if __name__ == "__main__":
    sys.exit(_worker_main(*sys.argv[1:3]))
