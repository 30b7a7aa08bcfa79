"""The value of a buy-back in an elimination game with buy-backs (Loba): seat 0's chance of
winning the game with and without buying back, by the score it would re-enter at.

Design: whole games with common random numbers.  Arm ``k`` lets seat 0 buy back only when
the re-entry total (the highest total still under the limit) is below the threshold ``t_k``;
the thresholds rise from "never" to "always".  Every arm plays the same games ``0..n-1`` of
one seed with the same generators, so two neighbouring arms play identical games except
where seat 0 reaches the limit with a re-entry total in ``[t_k, t_{k+1})``: there arm
``k + 1`` buys back and arm ``k`` drops out.  Per game, the paired difference of seat 0's win
indicator (arm ``k + 1`` minus arm ``k``) is the value of that buy-back; its mean with a 95%
paired score interval (Newcombe's, :func:`analysis.stats.paired_rate_difference`) is the value
per game, and its mean over the games where the two arms differ is
the value per buy-back decision at those scores (the win probability bought: without buying
back seat 0 cannot win).  The other seats keep their strategies' own buy-back decisions.
Game-agnostic: any game whose :class:`~sim.variants.WholeGame` has a ``buyback_rule``.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from sim.core.games import ALWAYS_BUY, NEVER_BUY, buyback_thresholds
from sim.runner import chunk_ranges, make_spec

from ..errors import SweepError
from ..stats import mean_ci, paired_rate_difference, wilson
from ..args import OUT_DIR, add_command, add_rule_set_option, whole
from ..wording import answer_lines, ci_text, rules_lines

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


def arm_estimates(win, buybacks, prev_win=None, differ=None) -> dict:
    """One arm's estimates from its games (``win``: seat 0 won, 0/1; ``buybacks``: seat 0's
    buy-backs) and, after the first arm, the arm before it on the same games (``prev_win``) and
    where the two differ (``differ``): ``win0`` and ``share`` (games differing) with Wilson
    intervals, ``buybacks0`` with a t interval, ``gain`` (win rate minus the previous arm's,
    paired) and ``value`` (the same over the differing games) with Newcombe's paired score
    interval (the t interval of 0/1 differences covered 85-88% at ~5 expected events).  None
    where there is no estimate."""
    win = np.asarray(win, dtype=bool)
    out = {"win0": wilson(int(win.sum()), win.size), "buybacks0": mean_ci(buybacks),
           "share": None, "gain": None, "value": None}
    if prev_win is not None:
        prev_win, differ = np.asarray(prev_win, dtype=bool), np.asarray(differ, dtype=bool)
        out["share"] = wilson(int(differ.sum()), differ.size)
        out["gain"] = paired_rate_difference(win, prev_win)
        if differ.sum() >= 2:
            out["value"] = paired_rate_difference(win[differ], prev_win[differ])
    return out


def buyback_spec(variant: str, *, players, strategies, rules, games, seed, thresholds):
    """The whole-game spec of a buy-back study, every argument checked."""
    spec = make_spec(variant, rules=rules, strategies=strategies, n=games, seed=seed, players=players,
                     mode="games")
    if spec.variant.game is None or spec.variant.game.buyback_rule is None:
        raise SweepError(f"{spec.variant.name} has no buy-backs to value")
    if list(thresholds) != sorted(set(thresholds)):
        raise SweepError("buy-back thresholds must rise, each given once")
    return spec


def buyback_value(variant: str = "loba", *, players: int | None = None, strategies: str = "simple",
                  rules=None, games: int = 2000, seed: int = 0,
                  thresholds: tuple[int, ...] = DEFAULT_THRESHOLDS) -> pd.DataFrame:
    """One row per arm (seat 0's buy-back threshold, from never to always): seat 0's win rate
    ``win0`` and mean buy-backs ``buybacks0``; for every arm after the first, the paired change
    against the arm before it: ``share`` of games where the two arms differ, ``gain`` in win
    rate per game, ``value``: win probability gained per differing game, i.e. per buy-back
    taken at re-entry totals in the arm's new range.  Each with ``_lo``/``_hi`` (95% CI)."""
    spec = buyback_spec(variant, players=players, strategies=strategies, rules=rules, games=games, seed=seed,
                        thresholds=thresholds)
    own = buyback_thresholds(spec.arrays()[1], spec.variant.game.buyback_param)
    cols = {c: i for i, c in enumerate(spec.columns)}
    table, prev = [], None
    for t in (NEVER_BUY, *thresholds, ALWAYS_BUY):
        below = own.copy()
        below[0] = t
        rows = _arm_rows(spec, below)
        win = rows[:, cols["winner"]] == 0
        rec = {"arm": _label(t), "players": spec.n_seats, "games": games}
        differ = None if prev is None else (rows != prev[0]).any(axis=1)
        est = arm_estimates(win, rows[:, cols["buybacks0"]], None if prev is None else prev[1], differ)
        for name in ("win0", "buybacks0", "share", "gain", "value"):
            _flat(rec, name, est[name])
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


# ----------------------------------------------------------------------------------------
# stored study and CLI

KIND = "buyback"
FILE = "buyback.json"


def run_buyback_study(out_dir, variant: str = "loba", **kw) -> dict:
    """Run :func:`buyback_value` and store it as ``out_dir/buyback.json`` (kind ``buyback``: the
    spec, the git commit and the table); returns the stored document."""
    from .. import store
    from ..provenance import git_describe
    buyback_spec(variant, **{"players": None, "strategies": "simple", "rules": None, "games": 2000, "seed": 0,
                             "thresholds": DEFAULT_THRESHOLDS, **kw})
    out_dir = store.claim(out_dir, (FILE,), "buy-back study")
    t0 = time.perf_counter()
    df = buyback_value(variant, **kw)
    spec = {"variant": variant, **{k: (list(v) if isinstance(v, tuple) else v) for k, v in kw.items()}}
    doc = {"kind": KIND, "spec": spec, "git": git_describe(), "seconds": time.perf_counter() - t0,
           "table": df.to_dict("records")}
    store.write_study(out_dir, "buyback", doc)
    return doc


def load_buyback(folder) -> tuple[dict, pd.DataFrame]:
    from .. import store
    doc = store.read_study(folder, "buyback")
    return doc, pd.DataFrame(doc["table"])


_EXAMPLES = """\
    rummylab buyback                                        # Loba, 4 players, 4,000 games per arm
    rummylab buyback --players 3 --games 20000 --thresholds 20,40,60,80 --out runs/loba-buyback
    rummylab report runs/loba-buyback --html reports/buyback.html"""


def add_parser(subparsers):
    """The ``buyback`` subcommand: what buying back in is worth, by the score you would re-enter at."""
    import argparse

    p = add_command(
        subparsers, "buyback", help="what is a buy-back worth? win probability with and without buying back, by score",
        description="""\
            Seat 0 plays whole games buying back in only when the score it would re-enter at
            (the highest total still in play) is below a threshold, from never to always; every
            arm plays the same games with the same random numbers, so neighbouring arms differ
            only in the games where seat 0 faced a buy-back at scores between their thresholds.
            Prints, per arm, seat 0's game win rate and the win probability one buy-back at
            those scores is worth (paired, 95% CIs).  The other seats keep their own decisions.""",
        epilog=_EXAMPLES)
    p.add_argument("--variant", default="loba", help="a game with buy-backs (default loba)")
    p.add_argument("--players", type=whole("--players", 1), default=None, help="number of players (default: the game's)")
    p.add_argument("--games", type=whole("--games", 10), default=4000, help="games per arm (default 4,000)")
    p.add_argument("--thresholds", default=",".join(map(str, DEFAULT_THRESHOLDS)),
                   help="re-entry scores splitting never .. always, rising (default 25,50,75)")
    p.add_argument("--strategies", default="simple", help="one spec per seat or one for all (default simple)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option, repeatable")
    add_rule_set_option(p)
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--out", type=OUT_DIR, default=None, help="store buyback.json in this folder (for the report)")
    from ..args import add_csv_option
    add_csv_option(p, "the table, one row per arm")
    p.set_defaults(func=cmd)
    return p


def parse_thresholds(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise SweepError(f"--thresholds takes whole numbers separated by commas, got {text!r}") from None
    if not out or min(out) < 1:
        raise SweepError(f"--thresholds takes re-entry scores >= 1, got {text!r}")
    return out


def cmd(args) -> int:
    from ..args import output_format
    fmt = output_format(args)
    kw = dict(players=args.players, strategies=args.strategies, rules=args.rule or None, games=args.games,
              seed=args.seed, thresholds=parse_thresholds(args.thresholds))
    if args.out:
        doc = run_buyback_study(args.out, args.variant, **kw)
        df = pd.DataFrame(doc["table"])
    else:
        df = buyback_value(args.variant, **kw)
    if fmt == "csv":
        print(df.to_csv(index=False), end="")
    else:
        n = int(df["players"].iloc[0])
        rules = make_spec(args.variant, rules=list(args.rule), n=1, players=n).rules
        for line in [*answer_lines(buyback_answer({"variant": args.variant}, df)),
                     *rules_lines(rules, args.variant), ""]:
            print(line)
        print(format_buyback(df))
    if args.out:
        print(f"wrote {args.out}/{FILE}; report: rummylab report {args.out} --html reports/buyback.html",
              file=sys.stdout if fmt == "text" else sys.stderr)
    return 0


# ----------------------------------------------------------------------------------------
# the study's answer in sentences (analysis.wording has the words)

def buyback_answer(spec: dict, df) -> list[str]:
    """What a buy-back is worth: the arm winning most games and the win probability one
    buy-back buys between neighbouring arms."""
    n = int(df["players"].iloc[0])
    g = int(df["games"].iloc[0])
    b = df.loc[df["win0"].idxmax()]
    steps = [f"{r.arm} vs {p}: {ci_text(r.value, r.value_lo, r.value_hi, 1, 'pp', scale=100)}"
             for (_, r), p in zip(df.iloc[1:].iterrows(), df["arm"].iloc[:-1]) if r.value == r.value]
    return [f"{spec['variant']}, {n} players: seat 0 wins most games buying back {b.arm}: "
            f"{ci_text(b.win0, b.win0_lo, b.win0_hi, 1, scale=100, sign=False, test=False)}% of {g:,} games "
            f"(fair share {100 / n:.0f}%); one buy-back buys this much game win probability: " + "; ".join(steps) + "."]
