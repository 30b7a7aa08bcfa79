"""Cold compile time per kernel: run a ``rummylab`` command in this process with an empty numba
cache and numba's compile events recorded; print each compiled function's self time (its
callees' compiles subtracted), per specialisation, biggest first, and the wall time.

    python scripts/compile_times.py [--json OUT] [--top 15] -- simulate --variant gin --hands 100000
    python scripts/compile_times.py --all --markdown          # every game's first simulate + Gin's knock
    python scripts/compile_times.py --plans [gin.hands ...]    # the two-worker compile plans
    python scripts/compile_times.py --all --split              # the same first commands, on two cores

``--all`` runs each command in a fresh process with its own empty cache (one at a time: the
numbers are single-core compile times) and prints the BENCHMARKS.md table; the per-kernel rows of
each command go to ``--json``.  Specialisations of one function that differ only by a literal
argument (numba compiles ``f(x, 0)`` for the value 0) are listed as ``DUP``.  ``--plans``
writes :mod:`analysis.compile_plan`'s plans from the same cold runs (run it after an engine change
that moves kernels: a stale plan only loses its speed-up).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
import zlib
from collections import defaultdict

COMMANDS = {
    "gin knock": ["knock", "--variant", "gin", "--hand", "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "--turn", "6",
                  "--upcard", "5C"],
    **{f"{v} simulate": ["simulate", "--variant", v, "--hands", "100000" if v in ("gin", "tonk", "knock-rummy")
                         else "20000", "--no-progress"]
       for v in ("gin", "tonk", "knock-rummy", "ramino-klop", "wildcard", "cincinnati", "basic-rummy",
                 "block-rummy", "wrotham", "ramino-drift", "loba")},
}
PLAN_KEYS = {"gin knock": "gin.advisor",            # the plan file of each command's first compile
             **{label: f"{label.split()[0]}.hands" for label in COMMANDS if label.endswith(" simulate")}}


def _callees(disp, args) -> list[str]:
    """The engine functions ``disp``'s compiled ``args`` specialisation calls: the dispatchers
    among its typemap's types, inside tuples too (a game's functions passed as a tuple)."""
    from numba.core import types
    cres = disp.overloads.get(tuple(args))
    found: set[str] = set()

    def walk(t):
        if isinstance(t, types.Dispatcher):
            found.add(_name(t.dispatcher))
        elif isinstance(t, types.BaseTuple):
            for u in t.types:
                walk(u)
    for t in ([] if cres is None else cres.fndesc.typemap.values()):
        walk(t)
    return sorted(n for n in found if n.startswith("sim."))


def _pickled(args) -> str | None:
    try:
        return base64.b64encode(pickle.dumps(tuple(args))).decode()
    except Exception:     # noqa: BLE001 - a numba internal's types: never a plan's task
        return None


def _name(disp) -> str:
    f = getattr(disp, "py_func", None)
    return f"{f.__module__}.{f.__qualname__}" if f else str(disp)


def record(argv: list[str]) -> dict:
    """Run ``rummylab argv`` here, recording numba's compile events; the rows (each compile's
    function, argument types, self and total time, the function it was compiled under and its
    callees) and the wall time."""
    from numba.core import event as ev

    class Recorder(ev.Listener):
        def __init__(self):
            self.stack, self.rows = [], []

        def on_start(self, event):
            self.stack.append([time.perf_counter(), 0.0, event.data, []])

        def on_end(self, event):
            t0, child, d, inner = self.stack.pop()
            dt = time.perf_counter() - t0
            if self.stack:
                self.stack[-1][1] += dt
            disp = d.get("dispatcher")
            row = {"kernel": _name(disp), "args": str(d.get("args")), "total_s": dt, "self_s": dt - child,
                   "inner": inner, "callees": _callees(disp, d.get("args")),
                   "types": _pickled(d.get("args"))}
            self.rows.append(row)
            if self.stack:
                self.stack[-1][3].append(len(self.rows) - 1)

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


def cold(argv: list[str], split: bool = False) -> dict:
    """``record(argv)`` in a fresh process with its own empty cache, one process alone (or,
    ``split``, with its second compile process: :mod:`analysis.compile_plan`); the doc with
    the process's wall time."""
    with tempfile.TemporaryDirectory(prefix="rummylab-cold-") as cache, \
            tempfile.NamedTemporaryFile(suffix=".json") as f:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, RUMMYLAB_SPLIT_COMPILE="1" if split else "0")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--json", f.name, "--quiet", "--", *argv], env=env,
                       stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - t0
        return {**json.load(open(f.name)), "process_wall_s": wall}


def run_all(json_out: str | None, split: bool = False) -> int:
    docs = {}
    for label, argv in COMMANDS.items():
        docs[label] = d = cold(argv, split)
        print(f"| `rummylab {' '.join(argv[:3])}` | {d['process_wall_s']:.1f} s | "
              f"{sum(r['self_s'] for r in d['rows']):.1f} s | {len(d['rows'])} |", flush=True)
    if json_out:
        json.dump(docs, open(json_out, "w"), indent=1)
    return 0


def _tasks(rows: list[dict]) -> tuple[list[int], dict[int, float], dict[int, set[int]]]:
    """The engine's compiles among ``rows`` (by row index) that a plan can name (module-level
    kernels), each one's cost (its self time and the rest compiled under it: numba's internals,
    overloads' implementations) and what it waits for: the earlier compiles of the
    functions it calls and the compiles nested in its own."""
    from analysis.compile_plan import dispatcher
    kernels = {r["kernel"] for r in rows if r["kernel"].startswith("sim.")}
    named = {k for k in kernels if dispatcher(k) is not None}     # not overloads' impls, not closures
    ids = [i for i, r in enumerate(rows) if r["kernel"] in named and r["types"]]
    is_task = set(ids)

    def under(i):            # the rows compiled under row i, down to (and with) the next tasks
        for j in rows[i]["inner"]:
            yield j
            if j not in is_task:
                yield from under(j)
    cost = {i: rows[i]["self_s"] + sum(rows[j]["self_s"] for j in under(i) if j not in is_task) for i in ids}
    by_fn: dict[str, list[int]] = defaultdict(list)
    for i in ids:
        by_fn[rows[i]["kernel"]].append(i)
    deps = {}
    for i in ids:
        below = list(under(i))
        calls = set(rows[i]["callees"]).union(*(rows[j]["callees"] for j in below if j not in is_task))
        deps[i] = {j for name in calls for j in by_fn.get(name, ()) if j < i} | {j for j in below if j in is_task}
    return ids, cost, deps


def make_plan(doc: dict, key: str, start1: float = 1.5) -> dict:
    """Two workers' compile plan (:mod:`analysis.compile_plan`) from a cold run's rows: list
    scheduling, the ready function with the longest path up to the command's kernel first, on
    the worker where it starts soonest (worker 1 starts ``start1`` s late, its import); every
    specialisation of a function on one worker (one cache index, one writer)."""
    import numba
    rows = doc["rows"]
    ids, cost, deps = _tasks(rows)
    callers: dict[int, list[int]] = defaultdict(list)
    for i in ids:
        for j in deps[i]:
            callers[j].append(i)
    rank: dict[int, float] = {}
    for i in reversed(ids):                       # callers end after their callees: later rows
        rank[i] = cost[i] + max((rank[c] for c in callers[i]), default=0.0)
    free, pinned, start, end, worker = [0.0, start1], {}, {}, {}, {}
    left = set(ids)
    while left:
        ready = [i for i in left if deps[i] <= end.keys()]
        i = max(ready, key=lambda t: (rank[t], -t))
        ws = [pinned[rows[i]["kernel"]]] if rows[i]["kernel"] in pinned else [0, 1]
        at = {w: max([free[w], *(end[j] for j in deps[i])]) for w in ws}
        w = min(ws, key=lambda x: (at[x], x))
        worker[i], start[i], end[i] = w, at[w], at[w] + cost[i]
        free[w] = end[i]
        pinned.setdefault(rows[i]["kernel"], w)
        left.discard(i)
    order = sorted(ids, key=lambda t: (start[t], t))
    pos = {t: k for k, t in enumerate(order)}
    types = [pickle.loads(base64.b64decode(rows[t]["types"])) for t in order]
    return {"entry": key, "argv": doc["argv"], "numba": numba.__version__,
            "serial_s": round(sum(cost.values()), 2), "predicted_s": round(max(end.values()), 2),
            "sigs": base64.b64encode(zlib.compress(pickle.dumps(types), 9)).decode(),
            "tasks": [{"f": rows[t]["kernel"], "s": k, "w": worker[t], "cost": round(cost[t], 3),
                       "after": sorted(pos[j] for j in deps[t])} for k, t in enumerate(order)]}


def write_plans(only: list[str]) -> int:
    """A plan per entry of PLAN_KEYS (or ``only``), each from a cold run, into analysis/compile_plans/."""
    from analysis.compile_plan import plan_path
    for label, key in PLAN_KEYS.items():
        if only and key not in only:
            continue
        doc = cold(COMMANDS[label])
        plan = make_plan(doc, key)
        plan_path(key).parent.mkdir(exist_ok=True)
        plan_path(key).write_text(json.dumps(plan, indent=0) + "\n")
        print(f"{key}: {len(plan['tasks'])} functions, serial {plan['serial_s']:.1f} s, "
              f"two workers {plan['predicted_s']:.1f} s (cold run {doc['process_wall_s']:.1f} s)", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--all", action="store_true", help="every command of COMMANDS, each cold, as a table")
    ap.add_argument("--split", action="store_true",
                    help="with --all: the first compile on two processes, as a user's first run (the "
                         "compile column is then this process's share)")
    ap.add_argument("--plans", nargs="*", metavar="KEY",
                    help="write the two-worker compile plans (analysis/compile_plans/), each from a cold run; "
                         "KEY (e.g. gin.hands) for some only")
    ap.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("argv", nargs="*", help="the rummylab command line (after --)")
    a = ap.parse_args()
    if a.plans is not None:
        return write_plans(a.plans)
    if a.all:
        print("| first command (empty cache) | wall, whole process | compile (self times) | compiles |")
        print("|---|---|---|---|")
        return run_all(a.json, a.split)
    doc = record(a.argv)
    if a.json:
        json.dump(doc, open(a.json, "w"))
    if not a.quiet:
        print("\n".join(summary(doc, a.top)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
