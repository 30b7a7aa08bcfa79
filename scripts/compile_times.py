"""Cold compile time per kernel: run a ``rummylab`` command in this process with an empty numba
cache and numba's compile events recorded; print each compiled function's self time (its
callees' compiles subtracted), per specialisation, biggest first, and the wall time.

    python scripts/compile_times.py [--json OUT] [--top 15] -- simulate --variant gin --hands 100000
    python scripts/compile_times.py --all --markdown          # every game's first simulate + Gin's knock

``--all`` runs each command in a fresh process with its own empty cache (one at a time: the
numbers are single-core compile times) and prints the BENCHMARKS.md table; the per-kernel rows of
each command go to ``--json``.  Specialisations of one function that differ only by a literal
argument (numba compiles ``f(x, 0)`` for the value 0) are listed as ``DUP``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

COMMANDS = {
    "gin knock": ["knock", "--variant", "gin", "--hand", "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "--turn", "6",
                  "--upcard", "5C"],
    **{f"{v} simulate": ["simulate", "--variant", v, "--hands", "100000" if v in ("gin", "tonk", "knock-rummy")
                         else "20000", "--no-progress"]
       for v in ("gin", "tonk", "knock-rummy", "ramino-klop", "wildcard", "cincinnati", "basic-rummy",
                 "block-rummy", "wrotham", "ramino-drift", "loba")},
}


def record(argv: list[str]) -> dict:
    """Run ``rummylab argv`` here, recording numba's compile events; the rows and the wall time."""
    from numba.core import event as ev

    class Recorder(ev.Listener):
        def __init__(self):
            self.stack, self.rows = [], []

        def on_start(self, event):
            self.stack.append([time.perf_counter(), 0.0, event.data])

        def on_end(self, event):
            t0, child, d = self.stack.pop()
            dt = time.perf_counter() - t0
            if self.stack:
                self.stack[-1][1] += dt
            f = getattr(d.get("dispatcher"), "py_func", None)
            name = f"{f.__module__}.{f.__qualname__}" if f else str(d.get("dispatcher"))
            self.rows.append({"kernel": name, "args": str(d.get("args")), "total_s": dt, "self_s": dt - child})

    rec = Recorder()
    ev.register("numba:compile", rec)
    t0 = time.perf_counter()
    from analysis.cli import main
    try:
        main(argv)
    except SystemExit:
        pass
    return {"argv": argv, "wall_s": time.perf_counter() - t0, "rows": rec.rows}


def summary(doc: dict, top: int) -> list[str]:
    by = defaultdict(list)
    for r in doc["rows"]:
        by[r["kernel"]].append(r)
    lines = [f"wall {doc['wall_s']:.1f} s, compile {sum(r['self_s'] for r in doc['rows']):.1f} s "
             f"over {len(doc['rows'])} compiles"]
    ranked = sorted(by.items(), key=lambda kv: -sum(r["self_s"] for r in kv[1]))
    for name, rs in ranked[:top]:
        lines.append(f"  {sum(r['self_s'] for r in rs):6.2f} s self  x{len(rs)}  {name}")
    lines += [f"  DUP {name}: {len(rs)} specialisations, {sum(r['self_s'] for r in rs):.2f} s"
              for name, rs in ranked if len(rs) > 1 and not name.startswith("numba.")
              and sum(r["self_s"] for r in rs) > 0.5]
    return lines


def run_all(json_out: str | None) -> int:
    docs = {}
    for label, argv in COMMANDS.items():
        with tempfile.TemporaryDirectory(prefix="rummylab-cold-") as cache, \
                tempfile.NamedTemporaryFile(suffix=".json") as f:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, __file__, "--json", f.name, "--quiet", "--", *argv], env=env,
                           stdout=subprocess.DEVNULL, check=True)
            wall = time.perf_counter() - t0
            docs[label] = {**json.load(open(f.name)), "process_wall_s": wall}
        d = docs[label]
        print(f"| `rummylab {' '.join(argv[:3])}` | {d['process_wall_s']:.1f} s | "
              f"{sum(r['self_s'] for r in d['rows']):.1f} s | {len(d['rows'])} |", flush=True)
    if json_out:
        json.dump(docs, open(json_out, "w"), indent=1)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--all", action="store_true", help="every command of COMMANDS, each cold, as a table")
    ap.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("argv", nargs="*", help="the rummylab command line (after --)")
    a = ap.parse_args()
    if a.all:
        print("| first command (empty cache) | wall, whole process | compile (self times) | compiles |")
        print("|---|---|---|---|")
        return run_all(a.json)
    doc = record(a.argv)
    if a.json:
        json.dump(doc, open(a.json, "w"))
    if not a.quiet:
        print("\n".join(summary(doc, a.top)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
