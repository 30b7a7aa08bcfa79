"""Coverage of the skill gradient's 95% CI over independent seeds of real simulations.

    python scripts/gradient_coverage.py VARIANT PLAYERS HANDS SEEDS [--edges FILE.npy]

Plays the balance study's top ladder pair (random against the strongest preset, one run per
seat of the stronger player, duplicate deals) for seeds 0..SEEDS-1, HANDS hands each (the
edges are kept in FILE.npy: a rerun with the same file only measures), and prints, against
the gradient of all seeds pooled, how often each seed's CI covers it: the CI of today
(:func:`analysis.studies.balance_stats.skill_gradient`, the delta method over deals) and the
one before it (the edge's t interval divided by the point SD), with the spread of the
seeds' estimates over the mean reported standard error.  Run it niced with one thread:
``NUMBA_NUM_THREADS=1 nice python scripts/gradient_coverage.py gin 2 4000 40``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from analysis.stats import Z95, mean_ci
from analysis.studies import balance_stats as B
from analysis.studies.balance import rotations
from sim.runner import play_hands
from sim.variants import get_variant


def seed_edges(name: str, n: int, hands: int, seed: int) -> np.ndarray:
    v = get_variant(name)
    scores = []
    for strats in rotations(v.ladder[0], v.ladder[-1], n):
        cols = play_hands(name, strategies=strats, n_hands=hands, seed=seed, players=n)
        scores.append(np.stack([cols[f"score{s}"] for s in range(n)], axis=1))
    return B.edges(scores)


def coverage(ds: np.ndarray) -> dict:
    """ds: seeds x deals x rotations."""
    pooled = ds.reshape(-1, ds.shape[2])
    g = pooled.mean() / pooled.std(ddof=1)
    old, new, pts, se_old, se_new = [], [], [], [], []
    for d in ds:
        edge, sd = mean_ci(d.mean(axis=1)), d.std(ddof=1)
        e = B.skill_gradient(d)
        old.append(edge.lo / sd <= g <= edge.hi / sd)
        new.append(e.contains(g))
        pts.append(e.value)
        se_old.append(edge.half_width / sd / Z95)
        se_new.append(e.half_width / Z95)
    spread = float(np.std(pts, ddof=1))
    return {"pooled": g, "spread": spread, "ratio_old": spread / np.mean(se_old),
            "ratio_new": spread / np.mean(se_new), "old": int(sum(old)), "new": int(sum(new)), "seeds": len(ds)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    ap.add_argument("players", type=int)
    ap.add_argument("hands", type=int)
    ap.add_argument("seeds", type=int)
    ap.add_argument("--edges", type=Path, default=None, help="keep (or reuse) the edges in this .npy file")
    a = ap.parse_args()
    if a.edges is not None and a.edges.exists():
        ds = np.load(a.edges)
    else:
        ds = np.stack([seed_edges(a.variant, a.players, a.hands, s) for s in range(a.seeds)])
        if a.edges is not None:
            np.save(a.edges, ds)
    c = coverage(ds)
    print(f"{a.variant} {a.players}p: {ds.shape[0]} seeds x {ds.shape[1]} deals x {ds.shape[2]} rotations; "
          f"pooled gradient {c['pooled']:.4f}; spread over seeds / mean reported SE: before {c['ratio_old']:.2f}, "
          f"now {c['ratio_new']:.2f}; nominal 95% CIs covering the pooled value: before {c['old']}/{c['seeds']}, "
          f"now {c['new']}/{c['seeds']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
