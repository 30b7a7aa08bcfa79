"""How often does "should I knock?" change when play goes on by search instead of the heuristic?

    python scripts/advice_search.py --positions 80 --worlds 300 --seed 5 --json-out docs/search/advice-agreement.json
    python scripts/advice_search.py --after-draw --positions 10 --worlds 200 --seed 3 --json-out docs/search/advice.json

A set of Gin positions, each asked twice on the same worlds (same seed and --worlds): play on
with ``strong`` at both seats, and with ``search`` at both seats (``rummylab knock --strategy S
--opponent S``).  Counts how often the recommendation changes, and how often a change is
between two significant calls (each advice's 95% interval of knock minus play on excludes 0).
The positions: a uniform 10-card hand whose minimum deadwood allows a knock, your own turn 2-8,
the card you discard drawn from the other 42 (position ``i`` on seed ``--seed + i``); or, with
``--after-draw``, 11 cards after the draw whose best discard leaves deadwood 1-10 (a legal knock
that is not gin; the advisor picks the discard), a turn from 2 to 8, every position on the worlds
of ``--seed`` (as ``docs/search/advice.json`` was made; 20 positions take about 8 min on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.studies.knock_advice import advise  # noqa: E402
from sim.core.cards import cards_text, standard_pack, to_mask  # noqa: E402
from sim.knock.melds import min_deadwood_masks  # noqa: E402

KNOCK_LIMIT = 10          # gin's default knock limit (`rummylab variants`)


def positions(n: int, seed: int) -> list[dict]:
    """``n`` positions: a hand that may knock, a turn and the discard, from ``seed``."""
    rng = np.random.default_rng(seed)
    pack = standard_pack()
    out = []
    while len(out) < n:
        draws = np.array([rng.permutation(pack)[:11] for _ in range(4000)])
        dead = min_deadwood_masks(np.array([to_mask(d[:10]) for d in draws], dtype=np.uint64))
        for d, dw in zip(draws, dead):
            if dw <= KNOCK_LIMIT and len(out) < n:
                out.append({"hand": cards_text(sorted(d[:10])), "upcard": cards_text([d[10]]),
                            "turn": int(rng.integers(2, 9)), "deadwood": int(dw)})
    return out


def positions_after_draw(n: int, seed: int) -> list[dict]:
    """``n`` positions after the draw: 11 cards with a legal knock that is not gin, and a turn."""
    rng = np.random.default_rng(seed)
    pack = standard_pack()
    out = []
    while len(out) < n:
        cards = rng.choice(pack, 11, replace=False)
        masks = np.array([sum(np.uint64(1) << np.uint64(c) for c in keep) for keep in combinations(cards, 10)],
                         dtype=np.uint64)
        dw = int(min_deadwood_masks(masks).min())
        if 1 <= dw <= KNOCK_LIMIT:
            out.append({"hand": cards_text(sorted(int(c) for c in cards)), "upcard": None,
                        "turn": int(rng.integers(2, 9)), "deadwood": dw})
    return out


def call(a) -> tuple[str, bool]:
    """The better choice by the mean, and whether the advice calls it (its 95% interval of
    knock minus play on excludes 0: recommendation "knock" or "play on", not "too close to call")."""
    word = "knock" if a.diff.value > 0 else "play on"
    return word, a.recommendation != "too close to call"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json-out", type=Path, default=None)
    ap.add_argument("--after-draw", action="store_true",
                    help="positions after the draw (11 cards; the advisor picks the discard), all on --seed's worlds")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.worlds < 10:
        ap.error("--positions >= 1 and --worlds >= 10")
    rows = []
    t0 = time.perf_counter()
    found = (positions_after_draw if a.after_draw else positions)(a.positions, a.seed)
    for i, p in enumerate(found):
        row = {k: v for k, v in p.items() if v is not None}
        for s in ("strong", "search"):
            adv = advise("gin", p["hand"], turn=p["turn"], upcard=p["upcard"], strategy=s, opponent=s,
                         worlds=a.worlds, seed=a.seed if a.after_draw else a.seed + i)
            word, sig = call(adv)
            row[s] = {"call": word, "significant": sig, "recommendation": adv.recommendation, "diff": adv.diff.value,
                      "lo": adv.diff.lo, "hi": adv.diff.hi, "n": adv.diff.n, "discard": adv.discard}
        rows.append(row)
        print(f"{i + 1}/{a.positions} dw {p['deadwood']:2d} turn {p['turn']}: strong {row['strong']['call']:7s} "
              f"{row['strong']['diff']:+6.2f}  search {row['search']['call']:7s} {row['search']['diff']:+6.2f}",
              file=sys.stderr, flush=True)
    changed = [r for r in rows if r["strong"]["call"] != r["search"]["call"]]
    both_sig = [r for r in changed if r["strong"]["significant"] and r["search"]["significant"]]
    diffs = np.array([r["search"]["diff"] - r["strong"]["diff"] for r in rows])
    n_sig = {p: sum(r[p]["significant"] for r in rows) for p in ("strong", "search")}
    summary = {"positions": len(rows), "called": n_sig, "worlds": a.worlds, "seed": a.seed, "changed": len(changed),
               "changed_both_significant": len(both_sig),
               "knock_strong": sum(r["strong"]["call"] == "knock" for r in rows),
               "knock_search": sum(r["search"]["call"] == "knock" for r in rows),
               "mean_shift": float(diffs.mean()), "sd_shift": float(diffs.std(ddof=1)),
               "seconds": time.perf_counter() - t0, "rows": rows}
    print(f"{len(rows)} positions, {a.worlds} worlds each: the call changed in {len(changed)} "
          f"({len(both_sig)} with both calls significant); knock recommended {summary['knock_strong']} times "
          f"playing on by strong, {summary['knock_search']} by search; knock minus play on moved by "
          f"{summary['mean_shift']:+.2f} points on average (sd {summary['sd_shift']:.2f}); called (95% interval "
          f"excludes 0): {n_sig['strong']} by strong, {n_sig['search']} by search")
    if a.json_out:
        a.json_out.parent.mkdir(parents=True, exist_ok=True)
        a.json_out.write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
