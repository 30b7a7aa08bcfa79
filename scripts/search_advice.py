#!/usr/bin/env python3
"""Does "should I knock?" change when the hand is played on by search instead of the heuristic?

Draws random Gin positions where a knock is legal (11 cards after the draw whose best discard
leaves deadwood 1..10, a turn from 2 to 8) and asks the advisor twice on the same worlds:
play on with ``strong`` against ``strong``, and with ``search`` against ``search``.  Writes
every position's two answers to a JSON file and prints how often the recommendation changes.

    python scripts/search_advice.py                        # 20 positions, ~8 min on 2 cores
    python scripts/search_advice.py --positions 3 --worlds 60 --json /tmp/a.json
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.studies.knock_advice import advise  # noqa: E402
from sim.core.cards import cards_text, standard_pack  # noqa: E402
from sim.knock.melds import min_deadwood_masks  # noqa: E402


def positions(n: int, seed: int):
    """``n`` (11 cards, turn) with a legal knock that is not gin."""
    rng = np.random.default_rng(seed)
    pack = standard_pack()
    while n:
        cards = rng.choice(pack, 11, replace=False)
        masks = np.array([sum(np.uint64(1) << np.uint64(c) for c in keep) for keep in combinations(cards, 10)],
                         dtype=np.uint64)
        if 1 <= min_deadwood_masks(masks).min() <= 10:
            n -= 1
            yield cards_text(sorted(int(c) for c in cards)), int(rng.integers(2, 9))


def _answer(a) -> dict:
    return {"recommendation": a.recommendation, "diff": a.diff.value, "lo": a.diff.lo, "hi": a.diff.hi,
            "n": a.diff.n, "deadwood": a.hand_score, "discard": a.discard}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--json", type=Path, default=ROOT / "docs" / "search" / "advice.json")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.worlds < 10:
        ap.error("--positions >= 1 and --worlds >= 10")
    rows = []
    for hand, turn in positions(a.positions, a.seed):
        row = {"hand": hand, "turn": turn}
        for name in ("strong", "search"):
            adv = advise("gin", hand, turn=turn, strategy=name, opponent=name, worlds=a.worlds, seed=a.seed)
            row[name] = _answer(adv)
        rows.append(row)
        print(f"{hand}  turn {turn}: strong {row['strong']['recommendation']} ({row['strong']['diff']:+.2f}), "
              f"search {row['search']['recommendation']} ({row['search']['diff']:+.2f})", flush=True)
    changed = sum(r["strong"]["recommendation"] != r["search"]["recommendation"] for r in rows)
    print(f"the recommendation changed in {changed} of {len(rows)} positions ({a.worlds} worlds each)")
    a.json.parent.mkdir(parents=True, exist_ok=True)
    a.json.write_text(json.dumps({"seed": a.seed, "worlds": a.worlds, "changed": changed, "rows": rows},
                                 indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
