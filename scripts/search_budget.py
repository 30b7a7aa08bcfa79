#!/usr/bin/env python3
"""How the Gin search player's strength grows with its budget (issue 21).

For every budget (worlds per decision; 0 = no search, i.e. ``strong``) it plays games to 100
of ``search(search_worlds=W)`` against ``eaai-simple`` under ``--rule-set eaai`` as a stored,
resumable run (``rummylab simulate ... --game --out``), then writes the game win rates with
their 95% CIs and the measured speed to a JSON file and a figure.  Re-running reuses the
stored runs, so the figure is redrawn without simulating again.

    python scripts/search_budget.py                       # the README's figure (~15 min, 2 cores)
    python scripts/search_budget.py --worlds 0,8 --games 200,100 --out /tmp/b --figure /tmp/b.png
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None


def play(worlds: int, games: int, seed: int, jobs: int, out: Path) -> dict:
    """One budget's stored run; its summary (``rummylab simulate --json``)."""
    spec = "strong" if worlds == 0 else f"search(search_worlds={worlds})"
    cmd = [sys.executable, "-m", "analysis.cli", "simulate", "--variant", "gin", "--rule-set", "eaai",
           "--strategies", f"{spec},eaai-simple", "--game", "--hands", str(games), "--seed", str(seed),
           "--jobs", str(jobs), "--out", str(out / f"w{worlds}"), "--json"]
    done = subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True)
    doc = json.loads(done.stdout)
    doc["command"] = "rummylab " + " ".join(cmd[3:])
    return doc


def row(worlds: int, doc: dict, jobs: int) -> dict:
    s = doc["seats"][0]
    hands = doc["hands_per_game"]["mean"]["value"] * doc["simulated"]
    elapsed = doc.get("elapsed_s") or 0.0
    return {"worlds": worlds, "strategy": s["strategy"], "games": doc["simulated"],
            "game_win_rate": s["game_win_rate"], "mean_net_per_game": s["mean_net_per_game"],
            "hands_per_game": doc["hands_per_game"]["mean"]["value"],
            "hands_per_s_per_core": hands / elapsed / jobs if elapsed and not doc.get("from_store") else None,
            "command": doc["command"]}


def figure(rows: list[dict], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=110)
    base = [r for r in rows if r["worlds"] == 0]
    pts = [r for r in rows if r["worlds"] > 0]
    xs = [r["worlds"] for r in pts]
    ys = [100 * r["game_win_rate"]["value"] for r in pts]
    lo = [y - 100 * r["game_win_rate"]["ci95"][0] for y, r in zip(ys, pts)]
    hi = [100 * r["game_win_rate"]["ci95"][1] - y for y, r in zip(ys, pts)]
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=4, label="search (worlds per decision)")
    for r in base:
        v, (a, b) = 100 * r["game_win_rate"]["value"], r["game_win_rate"]["ci95"]
        ax.axhspan(100 * a, 100 * b, color="0.85")
        ax.axhline(v, color="0.4", lw=1, label=f"strong, no search: {v:.1f}%")
    ax.axhline(75, color="tab:red", lw=1, ls="--", label="goal: 75%")
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.set_xlabel("worlds per decision (log scale)")
    ax.set_ylabel("games to 100 won vs eaai-simple (%)")
    n = ", ".join(f"{r['worlds']}: {r['games']:,}" for r in rows)
    ax.set_title(f"Gin, --rule-set eaai: search's budget and strength\n95% CIs; games per budget {n}",
                 fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worlds", type=_ints, default=[0, 8, 32, 64, 128, 512])
    ap.add_argument("--games", type=_ints, default=[2000, 1000, 1000, 1000, 1000, 400],
                    help="games per budget, in the order of --worlds")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "search" / "budget")
    ap.add_argument("--json", type=Path, default=ROOT / "docs" / "search" / "budget.json")
    ap.add_argument("--figure", type=Path, default=ROOT / "docs" / "search" / "budget.png")
    a = ap.parse_args(argv)
    if len(a.games) != len(a.worlds) or min(a.games) < 1 or min(a.worlds) < 0:
        ap.error("--games needs one positive count per --worlds value (worlds >= 0)")
    rows = []
    for w, g in zip(a.worlds, a.games):
        rows.append(row(w, play(w, g, a.seed, a.jobs, a.out), a.jobs))
        r = rows[-1]
        ci = r["game_win_rate"]["ci95"]
        print(f"worlds {w:>4}: {100 * r['game_win_rate']['value']:.2f}% [{100 * ci[0]:.2f}, {100 * ci[1]:.2f}] "
              f"of {r['games']:,} games", flush=True)
    a.json.parent.mkdir(parents=True, exist_ok=True)
    a.json.write_text(json.dumps({"seed": a.seed, "rows": rows}, indent=1) + "\n")
    figure(rows, a.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
