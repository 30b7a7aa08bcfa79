"""Benchmarks (not tests): speed, compile time, memory, CLI start-up.

Timings on a shared 2-core machine are noisy, so every speed is the median of several runs,
compile/cache-load time is measured apart (in a fresh process with an empty numba cache),
and ratios are taken within one run.  ``python scripts/bench.py`` prints a markdown table;
``--markdown FILE`` writes it too (BENCHMARKS.md keeps the latest one).
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sim.runner import make_spec, run_chunk


def _median_rate(fn, n: int, repeats: int) -> tuple[float, list[float]]:
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates), rates


def single_core_rate(variant: str, players: int | None, n: int, repeats: int,
                     strategies: str = "simple") -> float:
    spec = make_spec(variant, strategies=strategies, n=n, seed=1, players=players)
    arrays = spec.arrays()
    run_chunk(spec, 0, 64, arrays)  # warm-up: compile / cache load
    return _median_rate(lambda: run_chunk(spec, 0, n, arrays), n, repeats)[0]


SEARCH_HANDS = {"gin": 400}             # hands per search timing (default 40; a quarter with --quick)
SEARCH_TARGETS = {"gin": ">= 20"}       # the target for Gin's search speed


def search_rate(variant: str, quick: bool) -> float:
    """Hands/s of the ``search`` preset in seat 0 (its decisions by simulation), ``strong`` in
    every other seat, at the game's default player count, 1 core: hundreds of Gin hands, tens
    in the slower games (each decision plays out up to the preset's worlds)."""
    from sim.variants import get_variant
    n = SEARCH_HANDS.get(variant, 40) // (4 if quick else 1)
    players = get_variant(variant).default_players
    return single_core_rate(variant, players, n, 1 if quick else 3, ",".join(["search"] + ["strong"] * (players - 1)))


def searching_variants() -> list[str]:
    """The games whose kernels search (a ``search`` preset), Gin first."""
    from sim.strategies import has_preset
    from sim.variants import available
    return sorted((v for v in available() if has_preset(v, "search")), key=lambda v: -SEARCH_HANDS.get(v, 0))


def all_core_rate(variant: str, n: int, repeats: int, jobs: int = -1) -> tuple[float, float]:
    """(median hands/s, median seconds) with worker processes, workers already warm."""
    from .jobs import run
    spec = make_spec(variant, n=n, seed=2)
    run(make_spec(variant, n=50_000, seed=3), jobs=jobs, progress=False)  # warm-up
    secs = []
    for _ in range(repeats):
        res = run(spec, jobs=jobs, progress=False)
        secs.append(res.elapsed_s)
    med = statistics.median(secs)
    return n / med, med


def whole_process_rate(args: list[str], n: int) -> tuple[float, float]:
    """(hands/s of the simulation as the process reports it, wall seconds of the whole process)
    for ``rummylab simulate ARGS --hands N --jobs 1``."""
    import json
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "analysis.cli", "simulate", *args, "--hands", str(n),
                          "--jobs", "1", "--no-progress", "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["units_per_s"], time.perf_counter() - t


def deadwood_rate(n: int, repeats: int) -> float:
    from sim.core.cards import standard_pack
    from sim.knock.melds import min_deadwood_masks
    rng = np.random.default_rng(0)
    pack = standard_pack().astype(np.uint64)
    idx = np.argsort(rng.random((n, 52)), axis=1)[:, :10]
    masks = np.bitwise_or.reduce(np.uint64(1) << pack[idx], axis=1)
    min_deadwood_masks(masks[:10])
    return _median_rate(lambda: min_deadwood_masks(masks), n, repeats)[0]


WILD_BENCH = (("ramino-klop", None), ("wildcard", 2), ("cincinnati", 2))   # rule set, packs


def wild_deadwood_rates(n: int, repeats: int) -> dict[str, float]:
    """Exact wild min-deadwood evaluations/s, 8-card two-pack hands with 3 wilds, per rule set."""
    from sim.wild.wild_melds import min_deadwood_counts, random_hands
    rates = {}
    for game, packs in WILD_BENCH:
        hands = random_hands(n, 8, 3, game, packs=packs, seed=1)
        min_deadwood_counts(hands[:10], game, packs=packs)
        rates[game] = _median_rate(lambda: min_deadwood_counts(hands, game, packs=packs), n, repeats)[0]
    return rates


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            ppid = int(fields[1])
            rss[int(d.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            children.setdefault(ppid, []).append(int(d.name))
        except (OSError, ValueError, IndexError):
            continue
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        stack.extend(children.get(p, []))
    return total


def peak_memory_run(args: list[str]) -> tuple[float, float]:
    """Run ``rummylab ARGS`` and return (peak RSS of its process tree in MB, seconds)."""
    cmd = [sys.executable, "-m", "analysis.cli", *args]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss(proc.pid))
        time.sleep(0.2)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed with exit code {proc.returncode}")
    return peak / 2**20, time.perf_counter() - t


def compile_times(variant: str = "gin") -> tuple[float, float]:
    """(cold compile seconds with an empty numba cache, warm cache-load seconds) of a game's
    kernel, each in a fresh process."""
    code = ("import time;t=time.perf_counter();from sim.runner import make_spec,run_chunk;"
            f"s=make_spec({variant!r},n=1);run_chunk(s,0,1);print(time.perf_counter()-t)")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        cold = float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                    text=True, check=True).stdout.strip())
        warm = float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                    text=True, check=True).stdout.strip())
    return cold, warm


def cli_start_time(repeats: int = 3) -> float:
    secs = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analysis.cli", "variants"], capture_output=True, check=True)
        secs.append(time.perf_counter() - t)
    return statistics.median(secs)


def machine() -> str:
    cpu = "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main(quick: bool = False, out: str | None = None) -> int:
    from .provenance import git_describe
    rows: list[tuple[str, str, str]] = []
    reps = 3 if quick else 5
    n1 = 20_000 if quick else 200_000

    def add(what, value, target=""):
        rows.append((what, value, target))
        print(f"{what:<58} {value:>22}   {target}", flush=True)

    add("min-deadwood, random 10-card hands (1 core)", f"{deadwood_rate(200_000 if quick else 2_000_000, reps) / 1e6:.2f} M/s", ">= 2 M/s")
    wild = wild_deadwood_rates(20_000 if quick else 200_000, reps)
    add("wild min-deadwood, 8-card two-pack hands, 3 wilds (1 core)",
        " / ".join(f"{r / 1e6:.2f}" for r in wild.values()) + " M/s", ">= 1 M/s (Ramino/Wildcard/Cincinnati)")
    gin1 = single_core_rate("gin", None, n1, reps)
    add("Gin hands/s, simple vs simple, 1 core (kernel)", f"{gin1:,.0f}", ">= 100,000")
    n_proc = 200_000 if quick else 1_000_000
    rate, wall = whole_process_rate(["--variant", "gin"], n_proc)
    add(f"Gin, whole `simulate --hands {n_proc:,} --jobs 1` process: hands/s", f"{rate:,.0f}",
        ">= 100,000 (simulation time)")
    add("  (that process's wall time, start-up and cache load included)", f"{wall:.1f} s", "")
    add("Gin hands/s, strong vs strong, 1 core (the search's rollout policy)",
        f"{single_core_rate('gin', None, n1 // 4, reps, 'strong,strong'):,.0f}", "")
    for v in searching_variants():
        add(f"{v} hands/s, search vs strong, default players, 1 core", f"{search_rate(v, quick):,.1f}",
            SEARCH_TARGETS.get(v, ""))
    for p in (2, 4):
        r = single_core_rate("tonk", p, n1, reps)
        add(f"Tonk hands/s, {p} players, simple, 1 core", f"{r:,.0f}", ">= 50,000" if p == 2 else "")
    for p, target in ((2, ">= 100,000"), (4, ">= 50,000"), (5, "")):
        r = single_core_rate("knock-rummy", p, n1, reps)
        add(f"Knock Rummy hands/s, {p} players, simple, 1 core", f"{r:,.0f}", target)
    for name, label in (("ramino-klop", "Ramino Klop"), ("wildcard", "Wildcard Rummy"), ("cincinnati", "Cincinnati")):
        r = single_core_rate(name, 4, n1 // 4, reps)
        add(f"{label} hands/s, 4 players, simple, 1 core", f"{r:,.0f}", ">= 20,000")
    for name, label, target in (("basic-rummy", "Basic Rummy", ">= 20,000"), ("wrotham", "Wrotham Rummy", "")):
        add(f"{label} hands/s, 4 players, simple, 1 core", f"{single_core_rate(name, 4, n1 // 4, reps):,.0f}", target)
    for name, label, target in (("ramino-drift", "Ramino Drift", ">= 10,000"), ("loba", "Loba", ">= 5,000")):
        add(f"{label} hands/s, 4 players, simple, 1 core", f"{single_core_rate(name, 4, n1 // 8, reps):,.0f}", target)
    n_all = 200_000 if quick else 1_000_000
    rate_all, secs = all_core_rate("gin", n_all, 1 if quick else 3)
    add(f"Gin hands/s, all {os.cpu_count()} cores (threads backend)", f"{rate_all:,.0f}", "")
    add(f"Gin {n_all:,} hands on all cores, wall seconds", f"{secs:.1f} s", "< 60 s for 1,000,000")
    add("all-cores / one-core speed-up (same run)", f"{rate_all / gin1:.2f}x", "")
    cold, warm = compile_times()
    add("compile time, empty numba cache (gin kernel)", f"{cold:.1f} s", "reported apart")
    add("start-up with warm numba cache (import + cache load)", f"{warm:.2f} s", "")
    cold, warm = compile_times("ramino-klop")
    add("compile time, wild-card games (shared kernels): empty cache / warm cache load",
        f"{cold:.1f} s / {warm:.2f} s", "reported apart")
    add("CLI cold start (`rummylab variants`)", f"{cli_start_time():.2f} s", "")
    n_mem = 1_000_000 if quick else 10_000_000
    mb, secs = peak_memory_run(["simulate", "--variant", "gin", "--hands", str(n_mem), "--jobs", "-1",
                                "--no-progress", "--seed", "5"])
    add(f"peak memory, {n_mem:,} Gin hands, all cores (process tree RSS)", f"{mb:,.0f} MB", "< 500 MB at 10,000,000")
    add("  (that run's wall time)", f"{secs:.0f} s", "")
    if out:
        lines = ["# Benchmarks", "",
                 f"Machine: {machine()}  ", f"Commit: `{git_describe()}`  ",
                 f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  ",
                 f"Command: `python scripts/bench.py{' --quick' if quick else ''}` "
                 "(speeds: median of repeated runs after warm-up; compile time measured apart)", "",
                 "| measure | value | target |", "|---|---|---|"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
        Path(out).write_text("\n".join(lines) + "\n")
    return 0
