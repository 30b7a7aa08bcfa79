#!/usr/bin/env python3
"""The skill ladder with ``search`` on top, per game (issue 21): random < simple < strong < search
(Gin with ``--champion-hands``: strong < marjj, and search against both).

For every game that has a search player (or ``--games``), at its default player count, a
balance study (``rummylab balance --search-hands``) as a stored, resumable run under ``--out``:
each neighbouring pair of rungs on duplicate deals (the stronger player in one seat, the weaker
in the others, one run per seat of the stronger), the search rung against ``strong`` only.
Then the table of every rung's edge per hand (the game's points, 95% CI, n) goes to a JSON
file and stdout.  Re-running reuses the stored runs.

    python scripts/search_ladder.py                                  # docs/search/ladder.json + .png
    python scripts/search_ladder.py --games gin --hands 2000 --search-hands 20 --out /tmp/l --json-out /tmp/l.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# hands per seat of the searcher: 1,000 (4,000 search hands in a 4-player game: the slowest,
# Cincinnati at 256 worlds, takes about 4 minutes on 2 cores; the whole ladder about 25)
SEARCH_HANDS = 1000


def study(game: str, players: int, hands: int, search_hands: int, seed: int, jobs: int, out: Path,
          champion_hands: int = 0) -> dict:
    """The game's stored balance study with the search rung (and the champion's, where the game
    has one and ``champion_hands`` > 0); its balance.json."""
    cmd = [sys.executable, "-m", "analysis.cli", "balance", "--variant", game, "--players", str(players),
           "--hands", str(hands), "--games", "0", "--dup-hands", "0", "--no-sensitivity",
           "--search-hands", str(search_hands), "--seed", str(seed), "--jobs", str(jobs),
           "--out", str(out / game), "--no-progress"]
    if champion_hands > 0:
        cmd[-3:-3] = ["--champion-hands", str(champion_hands)]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    doc = json.loads((out / game / "balance.json").read_text())
    doc["command"] = "rummylab " + " ".join(cmd[3:])
    return doc


def rungs(doc: dict) -> list[dict]:
    """The neighbouring pairs of the ladder (and the search rung) of the study's one cell."""
    (cell,) = doc["cells"]
    r = cell["rungs"]
    out = []
    for p in cell["ladder"]:
        if p["strong"] in ("search", cell.get("champion")) or r.index(p["strong"]) == r.index(p["weak"]) + 1:
            h = p["hand"]
            out.append({"weak": p["weak"], "strong": p["strong"], "edge_per_hand": h["edge"],
                        "win": h["win"], "fair": h["fair"], "effect": h["effect"], "hands": h["units"]})
    return out


def figure(cells: list[dict]):
    """The balance report's rung figure (each step up the ladder, edge per hand over its SD with
    95% CIs) over every game's study: one figure for the whole ladder, on a symmetric-log axis."""
    from analysis.report.balance import _rungs
    return _rungs("search-ladder", cells, linthresh=0.05)


def main(argv=None) -> int:
    from sim.strategies import has_preset
    from sim.variants import available, get_variant
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=None, help="games, comma separated (default: every game with search)")
    ap.add_argument("--hands", type=int, default=8000, help="base hands per game (ladder runs: an eighth per seat)")
    ap.add_argument("--search-hands", type=int, default=None,
                    help=f"hands per seat of the searcher (default {SEARCH_HANDS:,})")
    ap.add_argument("--champion-hands", type=int, default=0,
                    help="hands per seat of the game's champion above strong (Gin: marjj), and of search "
                         "against it; default 0: none")
    ap.add_argument("--seed", type=int, default=51)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "search-ladder")
    ap.add_argument("--json-out", type=Path, default=ROOT / "docs" / "search" / "ladder.json")
    a = ap.parse_args(argv)
    games = a.games.split(",") if a.games else [g for g in available() if has_preset(g, "search")]
    rows, cells = [], []
    for g in games:
        n = get_variant(g).default_players
        sh = a.search_hands or SEARCH_HANDS
        doc = study(g, n, a.hands, sh, a.seed, a.jobs, a.out, a.champion_hands)
        cells += doc["cells"]
        unit = doc["cells"][0]["score_unit"]
        rows.append({"game": g, "players": n, "unit": unit, "rungs": rungs(doc), "command": doc["command"]})
        for r in rows[-1]["rungs"]:
            e = r["edge_per_hand"]
            print(f"{g:<13} {n}p  {r['weak']:>7} < {r['strong']:<7} {e['value']:+8.2f} [{e['ci95'][0]:+.2f}, "
                  f"{e['ci95'][1]:+.2f}] {unit}/hand  (n = {r['hands']:,} hands)", flush=True)
    a.json_out.parent.mkdir(parents=True, exist_ok=True)
    a.json_out.write_text(json.dumps({"seed": a.seed, "games": rows}, indent=1) + "\n")
    png = a.json_out.with_suffix(".png")
    png.write_bytes(figure(cells).png)
    print(f"wrote {a.json_out} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
