#!/usr/bin/env python3
"""Learn the search player's ``calibrated`` belief (:mod:`sim.search.calibrated`): the
opponent's deadwood by discard-pile length, from self-play of ``strong``.

Plays ``--hands`` hands of ``--strategies`` (default ``strong`` at both seats) exactly as
``rummylab simulate`` would, replays each from its trace (:mod:`analysis.studies.belief_positions`),
and at every turn start records the discard pile's length and the opponent's true deadwood.
The table (``--quantiles`` midpoint quantiles per pile length) goes into
``sim/search/calibration.json`` under the game and player count (``gin-2p``), with its provenance (the command,
seed, hands, positions per row and the commit).  The engine's cache is keyed by that file, so
the next run compiles with the new table.

    python scripts/calibrate_belief.py                          # gin, 20,000 hands, seed 101
    python scripts/calibrate_belief.py --variant knock-rummy --players 4
    python scripts/calibrate_belief.py --hands 2000 --out /tmp/cal.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.studies.belief_positions import calibration_table, positions  # noqa: E402
from analysis.trace_cmd import trace_stream  # noqa: E402
from sim.runner import make_spec  # noqa: E402
from sim.search import calibrated  # noqa: E402


def commit() -> str | None:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip() or None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 3)[-1])
    ap.add_argument("--variant", default="gin", help="the game (default gin)")
    ap.add_argument("--players", type=int, default=None, help="players (default: the game's usual count)")
    ap.add_argument("--strategies", default="strong", help="the self-play's players (default strong)")
    ap.add_argument("--hands", type=int, default=20_000, help="hands of self-play (default 20,000)")
    ap.add_argument("--seed", type=int, default=101, help="the self-play's seed (default 101)")
    ap.add_argument("--quantiles", type=int, default=32, help="quantiles per pile length (default 32)")
    ap.add_argument("--min-rows", type=int, default=200,
                    help="positions a pile length needs for its own row; longer piles pool (default 200)")
    ap.add_argument("--out", type=Path, default=calibrated.PATH, help="the JSON file (default: the engine's)")
    args = ap.parse_args(argv)
    t0 = time.time()
    spec = make_spec(args.variant, rules=[], rule_set=None, strategies=args.strategies, n=args.hands, seed=args.seed,
                     players=args.players)
    key = calibrated.key(args.variant, spec.n_seats)
    pos = positions(trace_stream(spec, range(args.hands)))
    tab, n = calibration_table(pos, args.quantiles, args.min_rows)
    doc = json.loads(args.out.read_text()) if args.out.exists() else {}
    doc[key] = {
        "quantiles": [[round(float(x), 3) for x in row] for row in tab],
        "positions": [int(k) for k in n],
        "provenance": {"command": "python scripts/calibrate_belief.py " + " ".join(argv or sys.argv[1:]),
                       "variant": args.variant, "players": spec.n_seats, "strategies": args.strategies, "seed": args.seed,
                       "hands": args.hands, "positions": len(pos), "commit": commit(),
                       "what": "the opponent's deadwood at the start of the seat's turn, by discard-pile length "
                               "(rows past the last pool every longer pile)"},
    }
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    mean = [float(pos.opp_deadwood[pos.pile_len == L].mean()) for L in range(len(n)) if n[L]]
    print(f"{len(pos):,} positions from {args.hands:,} hands in {time.time() - t0:.1f} s -> {args.out}")
    print("mean opponent deadwood by pile length: " + ", ".join(f"{m:.1f}" for m in mean))
    return 0


if __name__ == "__main__":
    sys.exit(main())
