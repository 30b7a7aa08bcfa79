"""The value of a buy-back in an elimination game with buy-backs (Loba): seat 0's chance of
winning the game with and without buying back, by the score it would re-enter at.

Design: whole games with common random numbers.  Arm ``k`` lets seat 0 buy back only when
the re-entry total (the highest total still under the limit) is below the threshold ``t_k``;
the thresholds rise from "never" to "always".  Every arm plays the same games ``0..n-1`` of
one seed with the same generators, so two neighbouring arms play identical games except
where seat 0 reaches the limit with a re-entry total in ``[t_k, t_{k+1})``: there arm
``k + 1`` buys back and arm ``k`` drops out.  Per game, the paired difference of seat 0's win
indicator (arm ``k + 1`` minus arm ``k``) is the value of that buy-back; its mean with a 95%
t interval is the value per game, and its mean over the games where the two arms differ is
the value per buy-back decision at those scores (the win probability bought: without buying
back seat 0 cannot win).  The other seats keep their strategies' own buy-back decisions.
Game-agnostic: any game whose :class:`~sim.variants.WholeGame` has a ``buyback_rule``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games import ALWAYS_BUY, NEVER_BUY, buyback_thresholds
from sim.runner import chunk_ranges, make_spec

from ..errors import SweepError
from ..stats import mean_ci, paired_difference

DEFAULT_THRESHOLDS = (25, 50, 75)      # between "never" and "always" (Loba's limit is 100)


def _label(t: int) -> str:
    return "never" if t == NEVER_BUY else "always" if t == ALWAYS_BUY else f"below {t}"


def _arm_rows(spec, below: np.ndarray) -> np.ndarray:
    """Game rows 0..n-1 of ``spec`` with per-seat buy-back thresholds ``below``."""
    rules_arr, strat = spec.arrays()
    kernel = spec.variant.game_kernel
    parts = []
    for a, b in chunk_ranges(spec.n):
        out = np.zeros((b - a, len(spec.columns)), dtype=np.int64)
        kernel(rules_arr, strat, spec.seed, a, out, buyback_below=below)
        parts.append(out)
    return np.concatenate(parts)


def _flat(rec: dict, name: str, est) -> None:
    """Columns ``name``, ``name_lo``, ``name_hi`` of an estimate (NaN when there is none)."""
    for suffix, attr in (("", "value"), ("_lo", "lo"), ("_hi", "hi")):
        rec[name + suffix] = float("nan") if est is None else getattr(est, attr)


def buyback_value(variant: str = "loba", *, players: int | None = None, strategies: str = "simple",
                  rules=None, games: int = 2000, seed: int = 0,
                  thresholds: tuple[int, ...] = DEFAULT_THRESHOLDS) -> pd.DataFrame:
    """One row per arm (seat 0's buy-back threshold, from never to always): seat 0's win rate
    ``win0`` and mean buy-backs ``buybacks0``; for every arm after the first, the paired change
    against the arm before it: ``share`` of games where the two arms differ, ``gain`` in win
    rate per game, ``value``: win probability gained per differing game, i.e. per buy-back
    taken at re-entry totals in the arm's new range.  Each with ``_lo``/``_hi`` (95% CI)."""
    spec = make_spec(variant, rules=rules, strategies=strategies, n=games, seed=seed, players=players,
                     mode="games")
    if spec.variant.game is None or spec.variant.game.buyback_rule is None:
        raise SweepError(f"{spec.variant.name} has no buy-backs to value")
    if list(thresholds) != sorted(set(thresholds)):
        raise SweepError("buy-back thresholds must rise, each given once")
    own = buyback_thresholds(spec.arrays()[1], spec.variant.game.buyback_param)
    cols = {c: i for i, c in enumerate(spec.columns)}
    table, prev = [], None
    for t in (NEVER_BUY, *thresholds, ALWAYS_BUY):
        below = own.copy()
        below[0] = t
        rows = _arm_rows(spec, below)
        win = (rows[:, cols["winner"]] == 0).astype(np.float64)
        rec = {"arm": _label(t), "players": spec.n_seats, "games": games}
        _flat(rec, "win0", mean_ci(win))
        _flat(rec, "buybacks0", mean_ci(rows[:, cols["buybacks0"]]))
        differ = np.zeros(games, dtype=bool) if prev is None else (rows != prev[0]).any(axis=1)
        _flat(rec, "share", None if prev is None else mean_ci(differ.astype(np.float64)))
        _flat(rec, "gain", None if prev is None else paired_difference(win, prev[1]))
        _flat(rec, "value", paired_difference(win[differ], prev[1][differ]) if differ.sum() >= 2 else None)
        table.append(rec)
        prev = (rows, win)
    return pd.DataFrame(table)


def format_buyback(df: pd.DataFrame) -> str:
    """The study as text: one line per arm, the paired changes with their 95% CIs."""
    def e(r, name, pct=True):
        if np.isnan(r[name]):
            return "-"
        k, unit = (100, "%") if pct else (1, "")
        return f"{r[name] * k:.1f}{unit} [{r[name + '_lo'] * k:.1f}, {r[name + '_hi'] * k:.1f}]"
    head = (f"buy-back value for seat 0, {int(df['players'].iloc[0])} players, {int(df['games'].iloc[0]):,} "
            "paired games per arm (95% CIs); changes against the arm above")
    lines = [head, f"{'seat 0 buys back':<17} {'wins':<22} {'buy-backs':<20} {'games differing':<22} "
                   f"{'win change per game':<22} win prob. per buy-back"]
    for _, r in df.iterrows():
        lines.append(f"{r['arm']:<17} {e(r, 'win0'):<22} {e(r, 'buybacks0', False):<20} {e(r, 'share'):<22} "
                     f"{e(r, 'gain'):<22} {e(r, 'value')}")
    return "\n".join(lines)
