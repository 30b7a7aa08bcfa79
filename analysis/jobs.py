"""Jobs and their backends: parallel, resumable, stored execution of jobs made of independent chunks.

A job (a single run :class:`SimJob`, a multi-arm sweep, ...) splits its units into fixed
chunks; each chunk computes a small JSON-able *partial* (exact integer moments).  Backends:
``threads`` (default: joblib threads in this process; the chunk kernels release the GIL, so
memory stays that of one process), ``loky`` (joblib worker processes, one numba thread
each) or ``dask`` (a Dask cluster through joblib); ``jobs=1`` runs in this process.  Partials are merged
as they arrive, so memory does not grow with the number of hands.  With a results folder each
finished chunk is written there at once: re-running the same job resumes from the finished
chunks (after Ctrl-C or a crash) and, once complete, reuses the stored total.  Merging is exact
and order-free, so the result is bit-identical for any ``jobs`` and backend.  The bars are
:mod:`analysis.progress`'s, the versions and commit stored with a run :mod:`analysis.provenance`'s.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.runner import CHUNK, Accumulator, RunSpec, accumulate, chunk_ranges, run_chunk

from . import coldstart, lock, store
from . import progress as bars
from .args import resolve_jobs
from .errors import BackendError
from .integrity import warn
from .provenance import git_describe, package_versions


class Job:
    """A chunked job (subclasses fill in four methods): units 0..n-1 in fixed chunks, made lazily."""
    n: int
    unit: str = "hand"
    desc: str = ""
    weight: int = 1      # a study bar's units of work per unit (e.g. a whole game counted as its hands)
    chunk: int = CHUNK   # units per chunk (a spec's own: sim.runner.RunSpec.chunk)

    def identity(self) -> dict:
        raise NotImplementedError

    def chunks(self) -> Iterator[tuple[int, int]]:
        return chunk_ranges(self.n, self.chunk)

    def n_chunks(self) -> int:
        return -(-self.n // self.chunk)

    def is_chunk(self, a: int, b: int) -> bool:
        """Whether units a..b-1 are one of this job's chunks."""
        return a % self.chunk == 0 and 0 <= a < self.n and b == min(a + self.chunk, self.n)

    def compute(self, a: int, b: int, out_dir: str | None) -> dict:
        """Partial of units a..b-1 (runs in a worker; may write extra files to out_dir, named by
        :meth:`chunk_files`)."""
        raise NotImplementedError

    def chunk_files(self, out_dir: str, a: int, b: int) -> list[Path]:
        """The files :meth:`compute` writes for units a..b-1 (their hashes go in the chunk record)."""
        return []

    def warm_up(self) -> None:
        raise NotImplementedError

    @staticmethod
    def merge(total: dict | None, part: dict) -> dict:
        raise NotImplementedError

    def key(self) -> str:
        return store.key_of(self.identity())

    def meta(self) -> dict:
        """Extra metadata stored with the completed run."""
        return {}


class SimJob(Job):
    """One spec: rows per chunk (stored as Parquet with ``--out``) aggregated to an Accumulator."""

    def __init__(self, spec: RunSpec):
        self.spec = spec
        self.n = spec.n
        self.unit = spec.mode[:-1]
        self.desc = spec.variant.name
        self.chunk = spec.chunk

    def identity(self) -> dict:
        return self.spec.identity()

    def compute(self, a, b, out_dir):
        rows = run_chunk(self.spec, a, b)
        if out_dir is not None:
            sp = self.spec
            store.write_rows(out_dir, a, b, rows, sp.columns, sp.n_seats, self.unit,
                             outcomes=sp.variant.outcomes if sp.mode == "hands" else None,
                             metadata={"identity": self.identity()})
        return accumulate(self.spec, rows).to_dict()

    def warm_up(self):
        run_chunk(self.spec, 0, 1)

    def chunk_files(self, out_dir, a, b):
        return [store.rows_path(out_dir, a, b)]

    def meta(self):
        return {"columns": list(self.spec.columns), "outcomes": list(self.spec.variant.outcomes),
                "score_unit": self.spec.variant.score_unit, "players": self.spec.n_seats,
                "unit": self.unit, "rows": "rows/*.parquet"}

    @staticmethod
    def merge(total, part):
        if total is None:
            return Accumulator.from_dict(part).to_dict()
        return Accumulator.from_dict(total).merge(Accumulator.from_dict(part)).to_dict()


class ArmsJob(Job):
    """Several arms over the same units (common random numbers): per-arm accumulators plus
    exact moments of the paired differences of a focus series for the listed pairs."""

    def __init__(self, arms: list[RunSpec], pairs: list[tuple[int, int]], label: str):
        self.arms = arms
        self.pairs = pairs
        self.n = arms[0].n
        self.unit = arms[0].mode[:-1]
        self.desc = label
        self.chunk = min(a.chunk for a in arms)
        assert all(a.n == self.n and a.seed == arms[0].seed and a.mode == arms[0].mode for a in arms)

    def identity(self):
        return {"arms": [a.identity() for a in self.arms], "pairs": self.pairs}

    def warm_up(self):
        run_chunk(self.arms[0], 0, 1)

    def meta(self):
        return {"focus": list(focus_names(self.arms[0]))}

    def arm_total(self, spec: RunSpec, rows: np.ndarray) -> dict:
        """One arm's part of a chunk (subclasses may keep more series)."""
        return accumulate(spec, rows).to_dict()

    def compute(self, a, b, out_dir):
        focus = []
        accs = []
        for spec in self.arms:
            rows = run_chunk(spec, a, b)
            accs.append(self.arm_total(spec, rows))
            focus.append(focus_series(spec, rows))
        pairs = {}
        for i, j in self.pairs:
            for name in focus_names(self.arms[0]):
                d = focus[i][name] - focus[j][name]
                pairs[f"{i}-{j}:{name}"] = [int(d.size), int(d.sum()), int((d * d).sum()),
                                            int(np.count_nonzero(d))]
        return {"arms": accs, "pairs": pairs}

    @staticmethod
    def merge(total, part):
        if total is None:
            return json.loads(json.dumps(part))
        arms = [Accumulator.from_dict(x).merge(Accumulator.from_dict(y)).to_dict()
                for x, y in zip(total["arms"], part["arms"])]
        pairs = {k: [u + v for u, v in zip(total["pairs"][k], part["pairs"][k])] for k in total["pairs"]}
        return {"arms": arms, "pairs": pairs}


def focus_names(spec: RunSpec) -> tuple[str, ...]:
    """Series whose paired differences an arms job keeps: games: net and wins of seat 0; hands:
    seat 0's score, or (games whose hand scores are not zero-sum) its net against the field
    times (n - 1), an integer."""
    if spec.mode == "games":
        return ("net0", "win0")
    return ("score0",) if spec.variant.scores_zero_sum(spec.rules) else ("field0",)


def focus_series(spec: RunSpec, rows: np.ndarray) -> dict[str, np.ndarray]:
    col = {c: rows[:, i] for i, c in enumerate(spec.columns)}
    if spec.mode == "games":
        return {"net0": col["net0"], "win0": (col["winner"] == 0).astype(np.int64)}
    scores = [col[f"score{s}"] for s in range(spec.n_seats)]
    return {"score0": scores[0], "field0": (spec.n_seats - 1) * scores[0] - sum(scores[1:])}


@dataclass
class JobResult:
    total: dict | None
    complete: bool
    elapsed_s: float
    compile_s: float
    n_done: int
    n_simulated: int          # units simulated now (the rest came from the store)
    from_store: bool = False
    out_dir: str | None = None

    @property
    def rate(self) -> float:
        """Units simulated per second of wall time (compile excluded)."""
        return self.n_simulated / self.elapsed_s if self.elapsed_s > 0 else float("nan")


@dataclass
class RunResult(JobResult):
    spec: RunSpec | None = None

    @property
    def acc(self) -> Accumulator:
        return Accumulator.from_dict(self.total) if self.total else Accumulator()


def _compute(job: Job, a: int, b: int, out_dir: str | None):
    part = job.compute(a, b, out_dir)
    if out_dir is not None:
        store.write_partial(out_dir, a, b, part, job.key(), job.chunk_files(out_dir, a, b))
    return a, b, part


def run_job(job: Job, *, jobs: int = 1, out_dir=None, progress: bool | None = None,
            backend: str = "threads", scheduler: str | None = None) -> JobResult:
    """Run (or reuse/resume from ``out_dir``) a job; Ctrl-C returns the partial total with
    ``complete=False``.  A dask scheduler is reached before anything is written."""
    n_jobs = resolve_jobs(jobs)
    held = out_dir is not None and lock.holds(out_dir)
    try:
        with _dask_client(backend, scheduler, n_jobs):
            return _run_job(job, n_jobs, out_dir, progress, backend)
    finally:
        if out_dir is not None and not held:
            lock.release(out_dir)


def _resume(job: Job, out: str):
    """(total, done chunks, units done) from the chunks stored in ``out``; a damaged chunk is
    named in a warning and left to be recomputed."""
    total, done, n_done = None, set(), 0
    for a, b in sorted(store.finished_chunks(out)):
        if job.is_chunk(a, b):
            try:
                part = store.read_partial(out, a, b, job.key())
            except store.Damaged as e:
                warn(f"{e.path} is damaged ({e.why}); recomputing {job.unit}s {a:,}..{b - 1:,}")
                continue
            total = job.merge(total, part)
            done.add((a, b))
            n_done += b - a
    return total, done, n_done


def _run_job(job: Job, n_jobs: int, out_dir, show_progress: bool | None, backend: str) -> JobResult:
    out = str(out_dir) if out_dir is not None else None
    total: dict | None = None
    done: set[tuple[int, int]] = set()
    n_done = 0
    if out is not None:
        stored = store.open_run(out, job.key(), job.identity(), job.n)
        if stored is not None:  # this exact job is complete there: reuse, never re-simulate
            study = bars.running_study()
            if study is not None:
                study.skip(job)
            return JobResult(stored, True, 0.0, 0.0, job.n, 0, from_store=True, out_dir=out)
        total, done, n_done = _resume(job, out)
    todo = (c for c in job.chunks() if c not in done)
    n_todo = job.n_chunks() - len(done)
    reused = n_done
    compile_s = 0.0
    if n_todo:
        t = time.perf_counter()
        coldstart.warm_up(job)
        compile_s = time.perf_counter() - t
    show = (True if sys.stderr.isatty() else "lines") if show_progress is None else show_progress
    study = bars.running_study()
    bar = study.stage(job, n_done) if study is not None else bars.job_bar(job, show, n_done)
    t0 = time.perf_counter()
    complete = False
    try:
        for a, b, part in _execute(job, todo, n_todo, n_jobs, out, backend):
            total = job.merge(total, part)
            n_done += b - a
            bar.update(b - a)
        complete = True
    except KeyboardInterrupt:
        complete = False
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    if complete and out is not None:
        store.finish_run(out, job.key(), job.identity(), job.n, total,
                         {**job.meta(), "elapsed_s": elapsed, "compile_s": compile_s,
                          "versions": package_versions(), "git": git_describe()}, chunk_size=job.chunk)
    return JobResult(total, complete, elapsed, compile_s, n_done, n_done - reused, out_dir=out)


def run(spec: RunSpec, **kw) -> RunResult:
    """Run one spec (see :func:`run_job` for the keywords)."""
    return RunResult(**run_job(SimJob(spec), **kw).__dict__, spec=spec)


@contextmanager
def _dask_client(backend: str, scheduler: str | None, n_jobs: int):
    """With the dask backend: a client of ``scheduler`` (else of a local cluster) for the run."""
    if backend != "dask" or n_jobs == 1:
        yield
        return
    from dask.distributed import Client, LocalCluster
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler)
        except OSError as e:
            raise BackendError(f"cannot reach the dask scheduler {scheduler} ({e}); check --scheduler") from None
    else:
        cluster = LocalCluster(n_workers=n_jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None, host="127.0.0.1")
        client = Client(cluster)
    try:
        yield
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _execute(job, todo, n_todo, n_jobs, out, backend):
    if not n_todo:
        return
    if n_jobs == 1 or n_todo == 1:
        for a, b in todo:
            yield _compute(job, a, b, out)
        return
    from joblib import Parallel, delayed, parallel_config
    tasks = (delayed(_compute)(job, a, b, out) for a, b in todo)
    if backend == "dask":  # the client made by _dask_client
        with parallel_config(backend="dask"):
            yield from Parallel(return_as="generator_unordered")(tasks)
        return
    if backend == "threads":
        with parallel_config(backend="threading", n_jobs=n_jobs):
            yield from Parallel(return_as="generator_unordered", pre_dispatch="2*n_jobs")(tasks)
        return
    with parallel_config(backend=backend, n_jobs=n_jobs, inner_max_num_threads=1):
        yield from Parallel(return_as="generator_unordered", pre_dispatch="2*n_jobs")(tasks)
