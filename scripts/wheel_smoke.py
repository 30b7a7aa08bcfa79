#!/usr/bin/env python3
"""Build the wheel, install it into a fresh venv outside the checkout and run every subcommand.

    python scripts/wheel_smoke.py [--keep] [--workdir DIR]

What an editable install hides (a package missing from the wheel, package data not shipped, a
path that only exists in a checkout) shows here:

1. the sources (``pyproject.toml``, ``README.md``, ``sim/``, ``analysis/``) are copied into a
   temporary folder, so a stale ``build/`` of the checkout cannot leak into the wheel, and
   ``pip wheel`` builds it there;
2. the wheel must hold every ``.py`` and data file of ``sim/`` and ``analysis/``;
3. a fresh venv in the temporary folder installs the wheel (dependencies from the configured
   index); every command then runs from an empty working folder outside the checkout, with
   ``PYTHONPATH`` and ``NUMBA_CACHE_DIR`` removed from the environment: ``sim`` places the numba
   cache next to the installed package (the venv's site-packages, inside the temporary folder),
   which is checked too;
4. ``rummylab``, ``rummylab --help``, ``rummylab --version`` and, for every subcommand the
   installed parser lists, its ``--help`` and one small run (:data:`RUNS`); a subcommand
   without a run fails the smoke.  Each must exit 0.  The runs are sized for compile time:
   numba compiles every kernel from scratch in a fresh install, so most runs use Tonk (the
   quickest to compile); ``buyback`` needs Loba, ``meld`` an open-melding game.  ``demo`` and
   ``bench`` play every game (many minutes of compiling): they run ``--help`` here, and the
   report that ``demo`` ends with is written by ``report`` from the smoke's stored runs.

Prints one line per command with its time; exit code 0 when all pass, 1 otherwise.
``tests/crosscut/test_wheel_smoke.py`` runs it in ``make test``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "sim", "analysis")
DATA = ("*.json", "*.html", "*.css", "*.js", "*.svg")   # the package data pyproject.toml ships
FAST = ["--jobs", "1", "--no-progress"]

# one small run per subcommand, in order (later runs read what earlier ones stored in runs/)
RUNS: dict[str, list[list[str]]] = {
    "variants": [[]],
    "strategies": [["--variant", "tonk"]],
    "simulate": [["--variant", "tonk", "--hands", "2000", "--seed", "1", *FAST, "--out", "runs/tonk-simple"],
                 # a search player with a tiny budget: worlds per decision
                 ["--variant", "tonk", "--strategies", "search(search_worlds=4),simple", "--hands", "3", *FAST]],
    "knock-sweep": [["--variant", "tonk", "--thresholds", "0..8:2", "--by-turn", "--hands", "600", "--seed", "1",
                     *FAST, "--out", "runs/tonk-knock"],
                    ["--variant", "tonk", "--equilibrium", "--thresholds", "2,6", "--hands", "200", *FAST,
                     "--out", "runs/tonk-equilibrium"]],
    "knock-rules": [["--variant", "tonk", "--thresholds", "2,6", "--vary", "knocker_tie_paid=on", "--hands", "300",
                     *FAST]],
    "compare": [["--variant", "tonk", "--strategies", "simple,strong", "--hands", "300", *FAST]],
    "tonk-odds": [["--players", "2,3", "--tonk-min", "49", "--simulate", "2000", *FAST, "--out", "runs/tonk-odds"]],
    "knock": [["--variant", "tonk", "--players", "3", "--hand", "AS 2D 3C 5H", "--turn", "4", "--spread", "7S 7H 7D",
               "--worlds", "20"]],
    "trace": [["--variant", "tonk", "--players", "3", "--seed", "1", "--hand", "3"]],
    "balance": [["--variant", "tonk", "--players", "2", "--hands", "300", "--search-hands", "0", "--no-sensitivity",
                 *FAST, "--out", "runs/balance"]],
    "tune": [["--variant", "tonk", "--budget", "2000", "--trials", "4", "--final-hands", "200", "--no-progress",
              "--out", "runs/tune-tonk"]],
    "meld": [["--variant", "basic-rummy", "--hand", "4S 5S 9H 9D 9C KD 2C", "--table", "AS 2S 3S | 7H 7D 7C"]],
    "buyback": [["--players", "3", "--games", "20", "--thresholds", "50", "--out", "runs/loba-buyback"]],
    "report": [["runs/tonk-simple", "runs/tonk-knock", "runs/tonk-equilibrium", "runs/tonk-odds", "runs/balance",
                "runs/tune-tonk", "runs/loba-buyback", "--html", "reports/index.html"]],
    "demo": [],    # every game: --help only (the report it ends with: `report` above)
    "bench": [],   # every game: --help only
    "serve": [],   # runs until stopped: --help, then SERVE_PROBE
}
# `rummylab serve` from the wheel: its pages and static files (package data), then one ask
SERVE_PROBE = r"""
import json, socket, subprocess, sys, time, urllib.request
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
p = subprocess.Popen([sys.argv[1], "serve", "--port", str(port), "--workers", "1"])
url = f"http://127.0.0.1:{port}"
try:
    for _ in range(600):
        try:
            if json.load(urllib.request.urlopen(url + "/api/status"))["ready"]:
                break
        except OSError:
            pass
        time.sleep(0.2)
    for page in ("/", "/ask/tonk", "/meld", "/watch", "/runs", "/static/app.css", "/static/ask.js"):
        assert urllib.request.urlopen(url + page).status == 200, page
    body = json.dumps({"variant": "tonk", "players": 3, "hand": "AS 2D 3C 5H", "turn": 4, "spread": ["7S 7H 7D"],
                       "worlds": 20}).encode()
    req = urllib.request.Request(url + "/api/knock", body, {"Content-Type": "application/json"})
    print(json.load(urllib.request.urlopen(req, timeout=600))["advice"]["recommendation"])
finally:
    p.terminate(); p.wait(10)
"""
WRITTEN = ("reports/index.html",)      # files the runs must leave in the working folder


def log(text: str) -> None:
    print(text, flush=True)


def run(cmd: list[str], cwd: Path, env: dict, timeout: float = 900) -> tuple[int, float, str]:
    """Exit code, seconds and the combined output of ``cmd``."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        code, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        code, out = -1, f"{e.stdout or ''}\nTIMEOUT after {timeout:.0f} s"
    return code, time.perf_counter() - t0, out


def copy_sources(dest: Path) -> None:
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".numba_cache")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)


def expected_files() -> set[str]:
    """Every file of ``sim/`` and ``analysis/`` the wheel must hold (sources and package data)."""
    out = set()
    for top in ("sim", "analysis"):
        for p in (ROOT / top).rglob("*"):
            if "__pycache__" in p.parts or not p.is_file():
                continue
            if p.suffix == ".py" or any(p.match(g) for g in DATA):
                out.add(p.relative_to(ROOT).as_posix())
    return out


def clean_env(venv: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["MPLBACKEND"] = "Agg"
    return env


def subcommands(python: Path, cwd: Path, env: dict) -> list[str]:
    """The subcommands of the installed ``rummylab``, read from its own parser."""
    code = ("import argparse; from analysis.cli import build_parser; "
            "sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)); "
            "print(' '.join(sub.choices))")
    c, _, out = run([str(python), "-c", code], cwd, env, timeout=300)
    if c != 0:
        raise SystemExit(f"FAIL: could not read the installed parser:\n{out}")
    return out.split()


def smoke(work: Path) -> int:
    failures: list[str] = []
    times: list[tuple[str, float]] = []

    def step(label: str, cmd: list[str], cwd: Path, env: dict, timeout: float = 900) -> str:
        code, s, out = run(cmd, cwd, env, timeout)
        times.append((label, s))
        log(f"{'ok  ' if code == 0 else 'FAIL'} {s:7.1f} s  {label}")
        if code != 0:
            failures.append(label)
            log("     " + "\n     ".join(out.strip().splitlines()[-25:]))
        return out

    src, dist, venv, cwd = work / "src", work / "dist", work / "venv", work / "cwd"
    copy_sources(src)
    cwd.mkdir()
    base_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    step("pip wheel", [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
         work, base_env)
    wheels = sorted(dist.glob("rummylab-*.whl"))
    if len(wheels) != 1:
        log(f"FAIL: expected one wheel in {dist}, found {[w.name for w in wheels]}")
        return 1
    held = set(zipfile.ZipFile(wheels[0]).namelist())
    missing = sorted(expected_files() - held)
    log(f"{'ok  ' if not missing else 'FAIL'}            wheel {wheels[0].name}: {len(held)} files"
        + (f"; missing {missing}" if missing else ""))
    if missing:
        failures.append("wheel contents")

    step("python -m venv", [sys.executable, "-m", "venv", str(venv)], work, base_env)
    step("pip install wheel", [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheels[0])],
         work, base_env, timeout=1200)
    env = clean_env(venv)
    python, rl = venv / "bin" / "python", str(venv / "bin" / "rummylab")
    site = step("installed, not the checkout", [str(python), "-c",
                "import os, sim, analysis; print(sim.__file__); print(analysis.__file__); "
                "print(os.environ['NUMBA_CACHE_DIR'])"], cwd, env).split()
    if len(site) == 3 and not all(Path(p).resolve().is_relative_to(venv.resolve()) for p in site):
        log(f"FAIL: imported from outside the fresh venv: {site}")
        failures.append("import location")

    step("rummylab", [rl], cwd, env)
    step("rummylab --help", [rl, "--help"], cwd, env)
    step("rummylab --version", [rl, "--version"], cwd, env)
    names = subcommands(python, cwd, env)
    unknown = sorted(set(names) - set(RUNS))
    if unknown:
        log(f"FAIL: subcommands without a smoke run in scripts/wheel_smoke.py RUNS: {unknown}")
        failures.append("subcommands without a smoke run")
    for name in [n for n in RUNS if n in names] + unknown:
        step(f"{name} --help", [rl, name, "--help"], cwd, env)
        for args in RUNS.get(name, []):
            step(" ".join([name, *(f'"{a}"' if " " in a else a for a in args)]), [rl, name, *args], cwd, env)
    step("serve: pages, static files, an ask", [str(python), "-c", SERVE_PROBE, rl], cwd, env)
    for f in WRITTEN:
        if not (cwd / f).is_file():
            log(f"FAIL: {f} was not written")
            failures.append(f"{f} written")
    cache = Path(site[2]) if len(site) == 3 else None
    if cache is None or not any(cache.rglob("*.nbi")):
        log(f"FAIL: no numba cache index written in {cache}")
        failures.append("numba cache next to the installed package")
    else:
        log(f"ok              numba cache next to the installed package: {cache}")
    total = sum(s for _, s in times)
    log(f"{len(times)} steps in {total:.0f} s; slowest: "
        + ", ".join(f"{label} {s:.0f} s" for label, s in sorted(times, key=lambda t: -t[1])[:4]))
    if failures:
        log(f"FAILED: {', '.join(failures)}")
        return 1
    log("wheel smoke: every command exited 0")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", type=Path, default=None,
                    help="use this (new or empty) folder instead of a temporary one; it is kept")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    a = ap.parse_args(argv)
    if a.workdir is not None:
        a.workdir.mkdir(parents=True, exist_ok=True)
        if any(a.workdir.iterdir()):
            ap.error(f"--workdir {a.workdir} is not empty")
        return smoke(a.workdir.resolve())
    work = Path(tempfile.mkdtemp(prefix="rummylab-wheel-"))
    try:
        log(f"wheel smoke in {work}")
        return smoke(work)
    finally:
        if a.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
