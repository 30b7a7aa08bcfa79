"""Recorded playthroughs: one seeded hand per game (and player count), as readable text.

    python scripts/playthroughs.py            # rewrite tests/crosscut/playthroughs/*.txt
    python scripts/playthroughs.py --check    # compare, print a diff and exit 1 on a change

Each file shows the rules, strategies and seed, every event of the hand (deal, draws,
discards, knocks, spreads and hits) from the kernel's own trace (:mod:`sim.core.trace`), and the
hand's outcome row.  tests/crosscut/test_playthroughs.py regenerates them and compares exactly, so a
change in how a game plays shows up in review as a diff of these files (as OpenSpiel's
playthroughs do).  A deliberate change: rerun this script and commit the new files.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "tests" / "crosscut" / "playthroughs"
SEED, HAND = 20261130, 7


def cases():
    """(game, players) for every registered game: its default and its largest table."""
    from sim.variants import available, get_variant
    out = []
    for name in available():
        v = get_variant(name)
        out += [(name, n) for n in sorted({v.default_players, v.max_players})]
    return out


def playthrough(name: str, players: int) -> str:
    from analysis.trace_events import hand_events, play_traced, text_lines
    from sim.runner import make_spec
    spec = make_spec(name, players=players, n=HAND + 1, seed=SEED)
    rows, out = play_traced(spec, HAND)
    lines = text_lines(hand_events(spec, HAND, rows, out), spec.variant.outcomes,
                       spec.variant.meld_setup is not None)
    lines.insert(3, "# regenerate: python scripts/playthroughs.py")
    return "\n".join(lines) + "\n"


def path_of(name: str, players: int) -> Path:
    return OUT / f"{name}-{players}p.txt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with the recorded files instead of writing")
    a = ap.parse_args()
    changed = 0
    for name, n in cases():
        text, path = playthrough(name, n), path_of(name, n)
        if a.check:
            old = path.read_text() if path.exists() else ""
            if old != text:
                changed += 1
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                           str(path), "regenerated"))
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
