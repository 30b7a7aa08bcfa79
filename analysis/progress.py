"""Progress of the jobs (:mod:`analysis.jobs`): a tqdm bar on a terminal, a periodic line on
stderr elsewhere (a log file, a pipe: a long run is never silent), none when asked; and one bar
over all the jobs of a study (:func:`study_progress`) with the time left across them."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .jobs import Job


class NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


PROGRESS_EVERY_S = 30.0     # a line on stderr this often when stderr is not a terminal (piped, logged)


class _LineBar:
    """Progress for a stderr that is not a terminal (a log file, a pipe): one line every
    :data:`PROGRESS_EVERY_S` seconds with the units done, the share and an estimate of the time
    left, so a long run is never silent; nothing for a run shorter than that."""

    def __init__(self, job: Job, initial: int, every: float):
        self.desc, self.unit, self.total = job.desc, job.unit, job.n
        self.start, self.done, self.every = initial, initial, every
        self.t0 = self.last = time.perf_counter()

    def update(self, n):
        self.done += n
        now = time.perf_counter()
        if now - self.last < self.every or self.done >= self.total:
            return
        self.last = now
        el = now - self.t0
        rate = (self.done - self.start) / el if el > 0 else 0.0
        left = f", about {duration((self.total - self.done) / rate)} left" if rate > 0 else ""
        print(f"{self.desc + ': ' if self.desc else ''}{self.done:,} of {self.total:,} {self.unit}s "
              f"({100 * self.done / self.total:.0f}%) after {duration(el)}{left}", file=sys.stderr, flush=True)

    def close(self):
        pass


def duration(s: float) -> str:
    """'42 s', '3 min 5 s', '1 h 12 min'."""
    s = int(round(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


def _work(job: Job) -> int:
    """A study bar's work per unit of a job: its arms (every arm plays every unit) times its
    weight."""
    return (len(getattr(job, "arms", ())) or 1) * job.weight


class StudyBar:
    """One bar (or, off a terminal, one periodic line) over a study's stages, in units of work
    (arm x unit), with the time left over all of them; the stages' jobs report into it."""

    def __init__(self, total: int, unit: str, desc: str, show):
        fake = type("J", (), {"n": total, "unit": unit, "desc": desc})
        self.bar = job_bar(fake, show)
        self.total = total

    def stage(self, job: Job, initial: int):
        w = _work(job)
        if initial:
            self.skip(job, initial)
        bar = self.bar

        class _Part:
            def update(self, n):
                bar.update(n * w)

            def close(self):
                pass
        return _Part()

    def skip(self, job: Job, units: int | None = None):
        """Units done before this run (stored, resumed): out of the total, not into the rate."""
        self.resize(-(job.n if units is None else units) * _work(job))

    def resize(self, delta: int):
        """Change the total by ``delta`` units of work (a study that learns its size as it runs)."""
        self.total += delta
        if hasattr(self.bar, "total"):
            self.bar.total = max(self.total, 0)
            if hasattr(self.bar, "refresh"):
                self.bar.refresh()

    def describe(self, text: str):
        """What the study plays now: the bar's (or the periodic line's) label."""
        if hasattr(self.bar, "set_description"):
            self.bar.set_description(text)
        else:
            self.bar.desc = text


_STUDY: StudyBar | None = None        # the running study's bar (see :func:`study_progress`)


def running_study() -> StudyBar | None:
    """The bar of the study running now (jobs report into it), or None."""
    return _STUDY


@contextmanager
def study_progress(total: int, unit: str, desc: str, progress: bool | None):
    """While a study plays ``total`` units of work (arm x unit) over several jobs: one bar with
    the time left across them all (``progress`` as :func:`run_job`'s: None = a bar on a terminal,
    a periodic line elsewhere; False = none).  Jobs outside it keep their own bars.  Yields the
    bar (None when there is none) for :meth:`StudyBar.resize` and :meth:`StudyBar.describe`."""
    global _STUDY
    show = (True if sys.stderr.isatty() else "lines") if progress is None else progress
    if not show or _STUDY is not None:
        yield None
        return
    _STUDY = StudyBar(total, unit, desc, show)
    try:
        yield _STUDY
    finally:
        _STUDY.bar.close()
        _STUDY = None


def job_bar(job: Job, show, initial: int = 0):
    """No progress (``show`` false), a periodic line (``"lines"``: stderr is not a terminal)
    or a tqdm bar."""
    if not show:
        return NoBar()
    if show == "lines":
        return _LineBar(job, initial, PROGRESS_EVERY_S)
    from tqdm import tqdm
    return tqdm(total=job.n, initial=initial, unit=job.unit, unit_scale=True, desc=job.desc,
                file=sys.stderr, smoothing=0.1)
