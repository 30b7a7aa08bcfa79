"""The first run's notice: numba compiles a game's kernels the first time they run on a fresh
install (an empty cache), and the terminal says so, once, with the expected time.

A marker file per game and entry point (``<cache>/rummylab-compiled/<game>.<entry>``) records
that the kernels have been compiled into this cache; the cache folder is keyed by the engine's
source (:mod:`sim`), so an engine change starts without markers, as it starts without kernels.
The notice goes to stderr (also when it is piped: a batch log shows why the first run waited).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path

# Seconds of a cold compile (empty cache) per game and entry point, the first command's whole
# wall time rounded up to 5 s: measured one at a time on the quiet 2-core Intel Xeon with
# scripts/compile_times.py (BENCHMARKS.md, "Cold start"); SERIAL_S in one process (one core, or
# the split turned off), EXPECTED_S in two (analysis.compile_plan).  An entry not listed is
# announced without a time.
SERIAL_S = {
    "gin.hands": 40, "gin.advisor": 50, "tonk.hands": 25, "knock-rummy.hands": 20,
    "ramino-klop.hands": 40, "wildcard.hands": 35, "cincinnati.hands": 40,
    "basic-rummy.hands": 75, "block-rummy.hands": 75, "wrotham.hands": 75, "ramino-drift.hands": 75,
    "loba.hands": 70,
}
EXPECTED_S = {
    "gin.hands": 30, "gin.advisor": 30, "tonk.hands": 15, "knock-rummy.hands": 15,
    "ramino-klop.hands": 30, "wildcard.hands": 30, "cincinnati.hands": 30,
    "basic-rummy.hands": 40, "block-rummy.hands": 40, "wrotham.hands": 35, "ramino-drift.hands": 40,
    "loba.hands": 35,
}
TITLES = {"gin": "Gin", "tonk": "Tonk", "knock-rummy": "Knock Rummy", "ramino-klop": "Ramino Klop",
          "wildcard": "Wildcard Rummy", "cincinnati": "Cincinnati", "basic-rummy": "Basic Rummy",
          "block-rummy": "Block Rummy", "wrotham": "Wrotham", "ramino-drift": "Ramino Drift", "loba": "Loba"}
_said: set[str] = set()


def spec_key(spec) -> tuple[str, str]:
    """(game, entry) of a run's kernels (a :class:`sim.runner.RunSpec`): its mode (``hands``;
    duplicate deals play hands too; ``games``), ``.search`` when a seat searches."""
    from sim.runner import SEARCH_CHUNK
    mode = "games" if spec.mode == "games" else "hands"
    return spec.variant.name, mode + (".search" if spec.chunk == SEARCH_CHUNK else "")


def _marker(key: str) -> Path | None:
    d = os.environ.get("NUMBA_CACHE_DIR")
    return Path(d) / "rummylab-compiled" / key if d else None


def notice(game: str, entry: str, seconds: int | None) -> str:
    """The line printed before a first compile."""
    about = f"about {seconds} s" if seconds else "up to a minute"
    what = "" if entry in ("hands", "games") else f" ({entry})"
    return (f"rummylab: compiling {TITLES.get(game, game)}'s kernels{what} for the first run, {about}; "
            "later runs start at once")


def first_compile(game: str, entry: str) -> str | None:
    """The notice for ``game``'s ``entry`` when this cache has not compiled it yet, else None
    (the web app shows it on the page)."""
    m = _marker(f"{game}.{entry}")
    return None if m is None or m.exists() else notice(game, entry, _seconds(f"{game}.{entry}"))


def _seconds(key: str) -> int | None:
    """The expected first compile of ``key``: on two cores where it splits, else in one process."""
    from .compile_plan import splits
    return (EXPECTED_S if splits(key) else SERIAL_S).get(key)


def prestart(game: str, entry: str) -> None:
    """Before a command's own checks: when this cache has not compiled ``game``'s ``entry``,
    start the second compile process now (:func:`analysis.compile_plan.start`); says nothing
    (a bad input still gets its one line)."""
    m = _marker(f"{game}.{entry}")
    if m is not None and not m.exists():
        from .compile_plan import start
        start(f"{game}.{entry}")


@contextmanager
def compiling(game: str, entry: str):
    """Around the first call of a game's kernels: says once per process that they compile when
    this cache has not compiled them yet (``entry``: ``hands``, ``games``, ``advisor``, with
    ``.search`` when a seat searches), and records that they are compiled when the block ends
    without an error."""
    key = f"{game}.{entry}"
    m = _marker(key)
    if m is not None and key not in _said and not m.exists():
        _said.add(key)
        print(notice(game, entry, _seconds(key)), file=sys.stderr, flush=True)
        from .compile_plan import precompile
        precompile(key)
    yield
    if m is not None and not m.exists():
        try:
            m.parent.mkdir(parents=True, exist_ok=True)
            m.touch()
        except OSError:     # a read-only cache: the notice may show again, nothing else changes
            pass


def compiling_job(job):
    """:func:`compiling` for an engine job (:mod:`analysis.jobs`): its run spec's key, or its
    first arm's; a job of another kind says nothing."""
    spec = getattr(job, "spec", None) or (getattr(job, "arms", None) or [None])[0]
    return compiling(*spec_key(spec)) if spec is not None and hasattr(spec, "mode") else nullcontext()


def warm_up(job) -> None:
    """``job.warm_up()`` (compile or load its kernels) under :func:`compiling_job`."""
    with compiling_job(job):
        job.warm_up()
