"""Parallel, resumable, stored runs of a :class:`sim.runner.RunSpec`.

Chunks of ``sim.runner.CHUNK`` units run in joblib worker processes (one numba thread each)
or in this process for ``jobs=1``; each finished chunk is aggregated at once (memory does not
grow with the number of hands) and, with a results folder, written there as its own file.
Re-running the same spec into the same folder reuses the finished chunks (resume after
Ctrl-C or a crash) and, once complete, the stored summary.  Results depend only on the spec:
the summary is bit-identical for any ``jobs``/backend.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.runner import Accumulator, RunSpec, accumulate, run_chunk

from . import store


@dataclass
class RunResult:
    spec: RunSpec
    acc: Accumulator
    complete: bool
    elapsed_s: float
    compile_s: float
    n_simulated: int          # units simulated now (the rest came from the store)
    from_store: bool = False
    out_dir: str | None = None

    @property
    def rate(self) -> float:
        """Units simulated per second of wall time (compile excluded)."""
        return self.n_simulated / self.elapsed_s if self.elapsed_s > 0 else float("nan")


def resolve_jobs(jobs: int) -> int:
    n = os.cpu_count() or 1
    if jobs == -1 or jobs == 0:
        return n
    if jobs < -1:
        return max(1, n + 1 + jobs)
    return jobs


def _chunk_task(spec: RunSpec, a: int, b: int, out_dir: str | None):
    rows = run_chunk(spec, a, b)
    if out_dir is not None:
        store.write_chunk(out_dir, a, b, rows)
    return a, b, accumulate(spec, rows).to_dict()


def warm_up(spec: RunSpec) -> float:
    """Compile (or load from numba's cache) the kernel; returns seconds taken."""
    t = time.perf_counter()
    run_chunk(spec, 0, 1)
    return time.perf_counter() - t


def run(spec: RunSpec, *, jobs: int = 1, out_dir: str | Path | None = None, progress: bool | None = None,
        backend: str = "loky", scheduler: str | None = None) -> RunResult:
    """Run ``spec`` (or reuse/resume it from ``out_dir``); Ctrl-C returns the partial result
    with ``complete=False``."""
    out = str(out_dir) if out_dir is not None else None
    acc = Accumulator()
    done: set[tuple[int, int]] = set()
    if out is not None:
        stored = store.open_run(out, spec)
        if stored is not None:  # complete run of this exact spec: reuse, never re-simulate
            return RunResult(spec, stored, True, 0.0, 0.0, 0, from_store=True, out_dir=out)
        for a, b in store.finished_chunks(out, spec):
            acc.merge(accumulate(spec, store.read_chunk(out, a, b)))
            done.add((a, b))
    todo = [(a, b) for _, a, b in spec.chunks() if (a, b) not in done]
    reused_units = acc.n
    compile_s = warm_up(spec) if todo else 0.0
    if progress is None:
        progress = sys.stderr.isatty()
    n_jobs = resolve_jobs(jobs)
    t0 = time.perf_counter()
    complete = False
    bar = _bar(spec, progress, initial=acc.n)
    try:
        for a, b, part in _execute(spec, todo, n_jobs, out, backend, scheduler):
            acc.merge(Accumulator.from_dict(part))
            bar.update(b - a)
        complete = True
    except KeyboardInterrupt:
        complete = False
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    if complete and out is not None:
        store.finish_run(out, spec, acc, elapsed, compile_s)
    return RunResult(spec, acc, complete, elapsed, compile_s, acc.n - reused_units, out_dir=out)


def _execute(spec, todo, n_jobs, out, backend, scheduler):
    if not todo:
        return
    if n_jobs == 1 or len(todo) == 1:
        for a, b in todo:
            yield _chunk_task(spec, a, b, out)
        return
    from joblib import Parallel, delayed, parallel_config
    if backend == "dask":
        from dask.distributed import Client  # noqa: F401  (registers joblib's dask backend)
        client = Client(scheduler) if scheduler else None
        try:
            with parallel_config(backend="dask"):
                yield from Parallel(return_as="generator_unordered")(
                    delayed(_chunk_task)(spec, a, b, out) for a, b in todo)
        finally:
            if client is not None:
                client.close()
        return
    with parallel_config(backend=backend, n_jobs=n_jobs, inner_max_num_threads=1):
        yield from Parallel(return_as="generator_unordered", pre_dispatch="2*n_jobs")(
            delayed(_chunk_task)(spec, a, b, out) for a, b in todo)


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _bar(spec: RunSpec, show: bool, initial: int = 0):
    if not show:
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=spec.n, initial=initial, unit=spec.mode[:-1], unit_scale=True,
                desc=f"{spec.variant.name}", file=sys.stderr, smoothing=0.1)


def package_versions() -> dict:
    import numba
    import platform
    vers = {"python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__}
    try:
        from importlib.metadata import version
        vers["rummylab"] = version("rummylab")
    except Exception:  # not installed (running from a checkout)
        vers["rummylab"] = "unknown"
    return vers


def git_describe() -> str:
    import subprocess
    here = Path(__file__).resolve().parent.parent
    try:
        r = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=here,
                           capture_output=True, text=True, timeout=5)
        return r.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def dumps(obj) -> str:
    return json.dumps(obj, indent=2, sort_keys=False, default=float)
