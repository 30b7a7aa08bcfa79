"""Count the Loba hands in which a joker ever stands above the king (or below the ace) of an
escalera: rules/loba.md and seed 000, "nooit lager dan een Aas of hoger dan een Heer" (issue 18).

Each hand is played alone in debug mode.  The engine checks every meld it lays or changes
(:func:`sim.open.open_plan_table.apply_action`) and the whole table after every turn
(:func:`sim.open.open_plan_table.check_table`) against the meld rules, which forbid a joker in the
ace-high place (``MR_JOKER_A_TO_K``); a position below the low ace does not exist.  So a hand
in which a joker ever stood there raises ValueError, and the hand is counted with its message.

    PYTHONPATH=. python tests/support/loba_joker_places.py                  # 2,400 hands at 2, 4 and 5 players
    PYTHONPATH=. python tests/support/loba_joker_places.py --players 4 --hands 500 --seed 3
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from sim.runner import make_spec


def bad_hands(players: int, n_hands: int, *, seed: int = 1, strategies: str = "simple") -> Counter:
    """The hands 0..n_hands-1 of a seeded Loba run (the same deals as ``simulate``) that
    raise in debug mode: message -> number of hands."""
    spec = make_spec("loba", players=players, n=n_hands, seed=seed, strategies=strategies)
    rules_arr, strat = spec.arrays()
    out = np.zeros((1, len(spec.columns)), dtype=np.int64)
    bad: Counter = Counter()
    for h in range(n_hands):
        try:
            spec.variant.play_chunk(rules_arr, strat, seed, h, out, debug=True)
        except ValueError as e:
            bad[str(e)] += 1
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4, 5])
    ap.add_argument("--hands", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategies", default="simple")
    a = ap.parse_args(argv)
    for p in a.players:
        bad = bad_hands(p, a.hands, seed=a.seed, strategies=a.strategies)
        n = sum(bad.values())
        print(f"{p} players, {a.hands} hands, seed {a.seed}, {a.strategies}: {n} hands "
              f"({100 * n / a.hands:.1f}%) with a joker above the king or below the ace")
        for msg, k in bad.most_common():
            print(f"    {k:5d}  {msg}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
