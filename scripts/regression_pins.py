"""Pin the simulator's results before a refactor: digests of the outcome rows of fixed runs.

    python scripts/regression_pins.py            # rewrite tests/crosscut/regression/pins.json
    python scripts/regression_pins.py --check    # compare, exit 1 on a difference

A pin is the SHA-256 of the int64 outcome rows (values only, column order as listed) of one
seeded run, plus the column sums so a reviewer sees what moved.  A change of results is then a
deliberate act: rerun this script and commit the new pins with the reason.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PINS = ROOT / "tests" / "crosscut" / "regression" / "pins.json"

# (name, variant, mode, n, seed, players, strategies, rules, columns)
RUNS = [
    ("gin-hands-simple", "gin", "hands", 3000, 11, None, "simple", [], None),
    ("gin-hands-mixed", "gin", "hands", 2000, 12, None, "tracker,patient",
     ["undercut_bonus=20", "big_gin=on"], None),
    ("gin-hands-random-ties", "gin", "hands", 2000, 13, None,
     "threshold(random_ties=1,knock=6,bucket_by=1,mid_from=20,late_from=10,knock_mid=3,knock_late=0)",
     ["oklahoma=on"], None),
    ("gin-games", "gin", "games", 300, 14, None, "simple,gin-hunter", ["line_bonus=25", "game_bonus=100"],
     ("winner", "hands", "voids", "turns", "points0", "points1", "net0", "net1")),
    ("tonk-2", "tonk", "hands", 3000, 21, 2, "simple", [], None),
    ("tonk-4", "tonk", "hands", 3000, 22, 4, "simple", [], None),
    ("tonk-6", "tonk", "hands", 2000, 23, 6, "simple", [], None),
    ("ramino-klop-4", "ramino-klop", "hands", 2000, 31, 4, "simple", [], None),
    ("ramino-klop-3-mixed", "ramino-klop", "hands", 1500, 32, 3, "simple,simple(knock=2,keep_near=1),simple(take=1)",
     ["set_duplicates=on", "restock_shuffle=on"], None),
    ("ramino-klop-games", "ramino-klop", "games", 100, 33, 4, "simple", [],
     ("winner", "hands", "voids", "turns", "points0", "points1", "points2", "points3")),
    ("wildcard-4", "wildcard", "hands", 1500, 41, 4, "simple,keep-wilds,discard-wilds-late,simple", [], None),
    ("wildcard-5-two-packs", "wildcard", "hands", 800, 42, 5, "simple", ["packs=2"], None),
    ("cincinnati-4", "cincinnati", "hands", 1500, 51, 4, "simple,simple(min_out=50,late_from=6,min_out_late=0),simple,simple",
     [], None),
    ("basic-rummy-4", "basic-rummy", "hands", 2000, 61, 4, "simple", [], None),
    ("basic-rummy-3-options", "basic-rummy", "hands", 1500, 62, 3, "simple,hand-strong,rummy",
     ["rummy_bonus=plus10", "restock=shuffle", "ace_high_or_low=on", "layoff_requires_own_meld=on"], None),
    ("basic-rummy-games", "basic-rummy", "games", 60, 63, 4, "simple", [],
     ("winner", "hands", "voids", "turns", "points0", "points1", "points2", "points3")),
    ("block-rummy-4", "block-rummy", "hands", 1500, 64, 4, "hand-strong,simple,simple,simple", [], None),
    ("wrotham-4", "wrotham", "hands", 1200, 65, 4, "simple", [], None),
    ("wrotham-games", "wrotham", "games", 40, 66, 4, "simple,hand-strong,simple,hand-strong", [],
     ("winner", "hands", "voids", "turns", "points0", "points1", "points2", "points3")),
    ("ramino-drift-4", "ramino-drift", "hands", 2000, 71, 4, "simple", [], None),
    ("ramino-drift-3-options", "ramino-drift", "hands", 1500, 72, 3, "simple,hand-strong,random",
     ["layoff_needs_meld=all", "joker_swap=keep", "restock_shuffle=on"], None),
    ("ramino-drift-games", "ramino-drift", "games", 60, 73, 4, "simple", [],
     ("winner", "hands", "voids", "turns", "points0", "points1", "points2", "points3")),
    ("loba-4", "loba", "hands", 1500, 81, 4, "simple", [], None),
    ("loba-games", "loba", "games", 40, 82, 4, "simple,hand-strong,simple(buyback=60),simple", [],
     ("winner", "hands", "voids", "turns", "points0", "points1", "points2", "points3", "buybacks0",
      "buybacks2")),
]


def digest(name, variant, mode, n, seed, players, strategies, rules, columns) -> dict:
    from sim.runner import play_hands
    cols = play_hands(variant, rules=rules, strategies=strategies, n_hands=n, seed=seed,
                      players=players, mode=mode)
    names = list(columns) if columns else list(cols)
    rows = np.stack([np.asarray(cols[c], dtype=np.int64) for c in names], axis=1)
    return {"columns": names, "sha256": hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest(),
            "sums": {c: int(cols[c].sum()) for c in names}}


def compute() -> dict:
    return {r[0]: digest(*r) for r in RUNS}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    got = compute()
    if a.check:
        want = json.loads(PINS.read_text())
        bad = [k for k in want if want[k] != got.get(k)]
        for k in bad:
            print(f"{k}: differs", want[k]["sums"], got.get(k, {}).get("sums"))
        return 1 if bad else 0
    PINS.write_text(json.dumps(got, indent=1) + "\n")
    print(f"wrote {PINS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
