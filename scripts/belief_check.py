#!/usr/bin/env python3
"""The search player's beliefs against the truth: for real Gin positions (self-play of
``strong`` on a seed the calibration did not see), each belief's worlds are drawn as the
search draws them (:func:`sim.variants.gin_search.world`) and compared with the hand the
opponent really held.

Per belief and discard-pile length: the worlds' mean opponent deadwood against the true
mean, and the mean log-likelihood per card of the true hand (the log of the share of the
position's worlds that give the opponent each card it really holds, the cards the seat
knows it holds left out; a share of 0 counts as half a world).  Higher is better; uniform
worlds give every unseen card the same share.  Written to ``docs/search/belief-check.json``
and ``docs/search/belief-check.png``.

    python scripts/belief_check.py                                  # 10,000 positions, seed 202
    python scripts/belief_check.py --hands 200 --worlds 16 --out /tmp/bc
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.studies.belief_positions import positions  # noqa: E402
from analysis.trace_cmd import trace_stream  # noqa: E402
from sim.knock.melds import min_deadwood_masks  # noqa: E402
from sim.runner import make_spec  # noqa: E402
from sim.strategies import knock as K  # noqa: E402
from sim.strategies import parse_strategies, strategy_matrix  # noqa: E402
from sim.variants import gin_search as G  # noqa: E402
from sim.variants.gin import TABLES as T  # noqa: E402
from sim.variants.gin_hand import S_NPILE, S_OWN0, S_SP, S_WIDTH  # noqa: E402

BELIEFS = {"uniform": 0, "calibrated": G.BELIEF_CALIBRATED, "policy:strong": G.BELIEF_POLICY}
CARDS = [s * 16 + r for s in range(4) for r in range(13)]


def _codes(mask: int) -> list[int]:
    return [c for c in CARDS if mask >> c & 1]


def worlds_of(pos, i: int, belief: int, worlds: int, key: int) -> np.ndarray:
    """The opponent hands (uint64[worlds]) of position ``i``'s worlds under ``belief``, the
    seat playing ``strong`` (its heuristic the policy of ``policy:strong``)."""
    srow = strategy_matrix(parse_strategies("strong", "gin", 1))[0]
    srow[K.P_SEARCH_BELIEF] = belief
    n = int(pos.pile_len[i])
    state = np.zeros(S_WIDTH, np.int64)
    state[S_NPILE] = n
    state[S_OWN0 + 1] = pos.opp_turns[i]
    state[S_SP] = 20 + n                      # the stock starts after the hands and the pile
    pile = np.zeros(52, np.int64)
    top = int(pos.top[i])
    pile[:n] = [c for c in _codes(int(pos.pile[i])) if c != top] + [top]
    hands = np.array([pos.mine[i], pos.opp[i]], np.uint64)
    picked = np.array([0, pos.known[i]], np.uint64)
    out = np.zeros(worlds, np.uint64)
    hands_w = np.zeros(2, np.uint64)
    buf = np.zeros(52, np.int64)
    deck_w = np.zeros(64, np.int64)
    parts, wts = np.zeros(0, np.uint64), np.zeros(0)
    for w in range(worlds):
        G.world(srow, srow, 0, np.uint64(0), hands, pile, picked, state, parts, wts, np.uint64(key), w, worlds, buf,
                hands_w, deck_w, T.run_value, T.suit_total, T.rank_value)
        out[w] = hands_w[1]
    return out


def card_loglik(true: int, known: int, hands: np.ndarray) -> float:
    """Mean log share of the worlds giving the opponent each card of ``true`` not in ``known``."""
    cards = _codes(true & ~known)
    k = len(hands)
    shares = [max(int(((hands >> np.uint64(c)) & np.uint64(1)).sum()), 0.5) / k for c in cards]
    return float(np.mean(np.log(shares))) if cards else 0.0


def check(pos, worlds: int, seed: int) -> dict:
    """Per belief: per pile length the positions, the true and the worlds' mean deadwood, the
    mean log-likelihood per card; and the same over all positions."""
    out = {}
    lengths = sorted(set(int(x) for x in pos.pile_len))
    for name, b in BELIEFS.items():
        dw_w = np.zeros(len(pos))
        ll = np.zeros(len(pos))
        for i in range(len(pos)):
            hs = worlds_of(pos, i, b, worlds, seed * 1_000_003 + i)
            dw_w[i] = min_deadwood_masks(hs).mean()
            ll[i] = card_loglik(int(pos.opp[i]), int(pos.known[i]), hs)
        rows = []
        for L in lengths:
            sel = pos.pile_len == L
            rows.append({"pile_len": L, "n": int(sel.sum()), "true_deadwood": float(pos.opp_deadwood[sel].mean()),
                         "world_deadwood": float(dw_w[sel].mean()), "loglik_per_card": float(ll[sel].mean())})
        d = dw_w - pos.opp_deadwood
        out[name] = {"by_pile_len": rows, "positions": len(pos), "loglik_per_card": float(ll.mean()),
                     "loglik_per_card_ci95": _ci(ll), "deadwood_gap": float(d.mean()), "deadwood_gap_ci95": _ci(d)}
    return out


def _ci(x: np.ndarray) -> list[float]:
    m, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))
    return [m - 1.96 * se, m + 1.96 * se]


def figure(doc: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    first = next(iter(doc["beliefs"].values()))["by_pile_len"]
    keep = [r["n"] >= 50 for r in first]
    xs = [r["pile_len"] for r, k in zip(first, keep) if k]
    a.plot(xs, [r["true_deadwood"] for r, k in zip(first, keep) if k], "k-", lw=2, label="true hands")
    for name, v in doc["beliefs"].items():
        rows = [r for r, k in zip(v["by_pile_len"], keep) if k]
        a.plot(xs, [r["world_deadwood"] for r in rows], label=f"{name} worlds")
        b.plot(xs, [r["loglik_per_card"] for r in rows], label=name)
    a.set(xlabel="discard pile length", ylabel="opponent's mean deadwood", title="Worlds' opponent strength")
    b.set(xlabel="discard pile length", ylabel="mean log-likelihood per card", title="The true hand under the worlds")
    a.legend()
    b.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 3)[-1])
    ap.add_argument("--positions", type=int, default=10_000, help="positions checked (default 10,000)")
    ap.add_argument("--worlds", type=int, default=32, help="worlds per position and belief (default 32)")
    ap.add_argument("--seed", type=int, default=202, help="the self-play's seed (default 202; the calibration used 101)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "search" / "belief-check",
                    help="the JSON and PNG path without suffix (default docs/search/belief-check)")
    args = ap.parse_args(argv)
    t0 = time.time()
    hands = max(1, args.positions // 10)
    spec = make_spec("gin", rules=[], rule_set=None, strategies="strong", n=hands * 2, seed=args.seed)
    pos = positions(trace_stream(spec, range(hands * 2)))
    idx = np.arange(min(args.positions, len(pos)))
    pos = type(pos)(**{f: getattr(pos, f)[idx] for f in pos.__dataclass_fields__})
    doc = {"command": "python scripts/belief_check.py " + " ".join(argv or sys.argv[1:]), "seed": args.seed,
           "worlds": args.worlds, "positions": len(pos), "beliefs": check(pos, args.worlds, args.seed)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(doc, indent=1) + "\n")
    figure(doc, args.out.with_suffix(".png"))
    for name, v in doc["beliefs"].items():
        lo, hi = v["loglik_per_card_ci95"]
        g0, g1 = v["deadwood_gap_ci95"]
        print(f"{name:11s} log-likelihood per card {v['loglik_per_card']:.3f} [{lo:.3f}, {hi:.3f}]; "
              f"worlds' deadwood minus true {v['deadwood_gap']:+.2f} [{g0:+.2f}, {g1:+.2f}]  (n={len(pos):,})")
    print(f"{time.time() - t0:.0f} s -> {args.out}.json, .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
