"""The report drawn on every core: each results folder's section (its tables and its matplotlib
figures, rendered to PNG bytes) is built in a worker process (joblib's loky backend), and so is
each landing-page thumbnail; the results come back in the order given, so the pages and the
figures are the same as those of a serial render.

A worker runs the same section builders as the serial path, on the folder it is handed: it
reads stored runs only and never simulates (the workers are handed folder names, not specs).
One process draws everything when there is one core, ``jobs=1``, or fewer than
:data:`MIN_PARALLEL` pieces of work (a worker's start, about a second of imports, would cost
more than it saves)."""

from __future__ import annotations

from pathlib import Path

from .registry import SECTIONS, RunSection

MIN_PARALLEL = 4     # fewer folders (or thumbnails) than this: drawn in this process


def worker_count(jobs: int, n_tasks: int) -> int:
    """Processes for ``n_tasks`` pieces of work at ``--jobs`` ``jobs`` (1: this process)."""
    from ..args import resolve_jobs
    if n_tasks < MIN_PARALLEL:
        return 1
    return max(1, min(resolve_jobs(jobs), n_tasks))


def run_all(fn, tasks: list[tuple], jobs: int = 1, cost=None) -> list:
    """``fn(*task)`` for every task, the results in the order of ``tasks``, on
    :func:`worker_count` processes.  ``cost(task)``: an estimate of a task's work; the costliest
    are handed out first, so that the workers finish together."""
    n = worker_count(jobs, len(tasks))
    if n == 1:
        return [fn(*t) for t in tasks]
    order = list(range(len(tasks)))
    if cost is not None:
        weights = [cost(t) for t in tasks]
        order.sort(key=lambda i: -weights[i])
    from joblib import Parallel, delayed
    # one task per dispatch (the sections differ in cost by 20x: a free worker takes the next);
    # one BLAS thread per worker (the processes are what use the cores)
    done = Parallel(n_jobs=n, backend="loky", batch_size=1, inner_max_num_threads=1)(
        delayed(fn)(*tasks[i]) for i in order)
    out = [None] * len(tasks)
    for i, r in zip(order, done):
        out[i] = r
    return out


def build_section(kind: str, folder: str, anchor: str) -> RunSection:
    """One folder's section, as its registered builder makes it (in a worker or here)."""
    return SECTIONS[kind].build(Path(folder), anchor)


def stored_bytes(folder) -> int:
    """The bytes stored under ``folder``: what its section has to read and draw, roughly."""
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def build_sections(tasks: list[tuple[str, str, str]], jobs: int = 1) -> list[RunSection]:
    """The sections of ``tasks`` ((kind, folder, anchor) each), in that order; the largest
    folders are drawn first."""
    return run_all(build_section, tasks, jobs, cost=lambda t: stored_bytes(t[1]))
