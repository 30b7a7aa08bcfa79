"""A/B of a game's speed in one sitting: two source trees (old, new), each measured in its own
process (CPU time of ``sim.runner.run_chunk`` over N hands after a warm-up, the middle of 3
runs), alternating with the order swapped each round; prints the median new/old ratio.

    python scripts/ab_speed.py OLD_TREE NEW_TREE ROUNDS VARIANT PLAYERS HANDS STRATEGIES
    python scripts/ab_speed.py /tmp/old . 4 gin 2 60000 simple,simple

A tree is a checkout (e.g. ``git worktree add --detach /tmp/old 93e875a``); each keeps its own
numba cache, so the first round compiles."""

import os
import statistics
import subprocess
import sys

RATE = """
import sys, time
from sim.runner import make_spec, run_chunk
v, players, n, strategies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
spec = make_spec(v, strategies=strategies, n=n, seed=1, players=players)
arrays = spec.arrays()
run_chunk(spec, 0, 64, arrays)
times = []
for _ in range(3):
    t = time.process_time(); run_chunk(spec, 0, n, arrays); times.append(time.process_time() - t)
print(n / sorted(times)[1])
"""


def rate(tree: str, args: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", RATE, *args], cwd=tree, env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    old, new, rounds, rest = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    r = {old: [], new: []}
    for i in range(rounds):
        for t in ((old, new) if i % 2 == 0 else (new, old)):
            r[t].append(rate(t, rest))
    ratios = [b / a for a, b in zip(r[old], r[new])]
    print(f"{' '.join(rest)}: old {statistics.median(r[old]):,.0f} new {statistics.median(r[new]):,.0f} hands/s; "
          f"new/old median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}, {rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
