"""Variant balance: every game of the registry x its player counts, compared on one page.

``rummylab balance`` plays, per game, player count and rules, with the engine's stored,
resumable runs (:mod:`analysis.jobs`; every run in ``OUT/runs/<name>``, all on one seed):

* ``base``: every seat plays ``simple`` (the ladder's second rung), hand rows: seat edge,
  tempo and volatility per hand; ``base-games``: the same as whole games, where the game has
  them (:class:`~sim.variants.WholeGame`);
* ``base-dup``: the same on duplicate deals (``mode="duplicate"``: each deal played once per
  position, :mod:`sim.core.rng`), the seat edge free of deal luck;
* ``<weak>-<strong>-r<s>``: for every pair of the game's ladder (``Variant.ladder``: ``random``
  < ``simple`` < its strongest preset), the stronger strategy in seat ``s`` and the weaker in
  the others, one run per seat ``s``: hand ``h`` is dealt from ``(seed, h)`` whatever the
  strategies, so the runs replay the same deals with the strategies rotated (duplicate deals;
  whole games start from the same deal generator too, though their later deals follow the
  play);
* rule sensitivity (the default and the largest player count, each on/off or text option
  changed alone):
  ``rule-<option>=<value>`` runs of ``base`` and of the top pair (``random`` against the
  strongest), compared with the defaults; with ``--rule k=v`` instead, the whole study runs
  once more with that change, side by side with the defaults.

The measures (:mod:`.balance_stats`) go to ``OUT/balance.json`` (``kind: balance``) with the
folder of every run they come from; the report section is :mod:`analysis.report.balance`.
Nothing here names a game: everything comes from the game's declarations.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from sim.core.errors import UserInputError
from sim.runner import make_spec
from sim.variants import available, get_variant

from .. import store
from ..jobs import SimJob, run_job
from ..progress import study_progress
from ..stats import mean_ci, wilson
from . import balance_plan as P
from . import balance_stats as B
from .balance_plan import (SEARCH, champion_rung, ladder_pairs, rotations, rule_changes, search_rung,  # noqa: F401
                           sensitivity_counts)  # (re-exported)
from .balance_text import balance_csv, format_table, json_summary
from .. import json_text
from ..args import OUT_DIR, add_command, add_csv_option, jobs_arg, whole

KIND = "balance"
FILE = "balance.json"
DEFAULT_HANDS = 400_000        # base hands per game x player count
DEFAULT_GAMES = 40_000         # base whole games per game x player count
DEFAULT_OUT = "runs/balance"


class BalanceError(UserInputError):
    """Balance-study input that cannot be run (players, rules, sizes)."""


@dataclass(frozen=True)
class BalanceConfig:
    variants: tuple[str, ...]
    players: dict = field(default_factory=dict)      # variant -> player counts
    hands: int = DEFAULT_HANDS                       # base hands
    ladder_hands: int = DEFAULT_HANDS // 8           # hands per ladder run (one per seat)
    games: int = DEFAULT_GAMES                       # base games; ladder games per run: games // 4
    rule_hands: int = DEFAULT_HANDS // 10            # hands per sensitivity run
    dup_hands: int = DEFAULT_HANDS // 2              # hands of the duplicate-deal seat-edge run
    search_hands: int = 0                            # hands per run of strongest vs search (0: none)
    champion_hands: int = 0                          # hands per run of strongest vs the champion (0: none)
    rule: str | None = None                          # one "k=v" change, side by side
    sensitivity: bool = True
    seed: int = 0
    per_game_scale: bool = True                      # default sizes x each game's balance_scale

    def for_game(self, v) -> "BalanceConfig":
        """The sizes used for game ``v``: the defaults times ``v.balance_scale`` (at least 100
        hands and 10 games where any are asked for), or as given (``per_game_scale`` off)."""
        k = v.balance_scale if self.per_game_scale else 1.0
        if k == 1.0:
            return self

        def size(x: int, least: int) -> int:
            return max(least, int(x * k)) if x > 0 else 0
        return replace(self, hands=size(self.hands, 100), ladder_hands=size(self.ladder_hands, 100),
                       games=size(self.games, 40), rule_hands=size(self.rule_hands, 100),
                       dup_hands=size(self.dup_hands, 100))


def default_config(variants=None, players=None, **kw) -> BalanceConfig:
    """Every game (or ``variants``) with every player count it allows (or ``players``, a tuple
    of counts, limited to what each game allows; a count no selected game allows is refused)."""
    per = {}
    for name in variants or available():
        v = get_variant(name)
        allowed = range(v.min_players, v.max_players + 1)
        counts = tuple(p for p in (players or allowed) if p in allowed)
        if counts:
            per[v.name] = counts
        elif variants:
            v.check_players(players[0])
    if not per:
        raise BalanceError(f"no game is played by {', '.join(map(str, players))} players")
    return BalanceConfig(tuple(per), per, **kw)


# ----------------------------------------------------------------------------------------
# running

class Runner:
    """Plays the plan's runs into ``out/runs/<name>`` (resuming), loads their rows and times
    them; with a study bar, counts whole games as their hands (:meth:`Plan.learn`)."""

    def __init__(self, out: Path, jobs: int, progress: bool | None, plan: P.Plan):
        self.out, self.jobs, self.progress, self.plan = out, jobs, progress, plan
        self.waiting = dict.fromkeys(plan.runs)       # runs not started yet, in order
        self.bar = None                               # the study's bar (progress.study_progress)
        self.seconds = 0.0
        self.simulated = 0

    def has(self, name: str) -> bool:
        return name in self.plan.runs

    def rows(self, name: str) -> tuple[dict, str]:
        spec = self.plan.runs[name].spec
        folder = self.out / "runs" / name
        job = SimJob(spec)
        job.desc, job.weight = name, self.plan.weight(name)
        self.waiting.pop(name, None)
        res = run_job(job, jobs=self.jobs, out_dir=folder, progress=self.progress)
        if not res.complete:
            raise KeyboardInterrupt
        self.seconds += res.elapsed_s + res.compile_s
        self.simulated += res.n_simulated
        _, df = store.load_run(folder)
        return {c: df[c].to_numpy() for c in spec.columns}, str(folder.relative_to(self.out))

    def learn(self, cell: str, hands: np.ndarray) -> None:
        """The cell's whole games are ``hands`` long: count its waiting game runs so."""
        delta = self.plan.learn(cell, float(hands.mean()), self.waiting)
        if self.bar is not None and delta:
            self.bar.resize(delta)


def _scores(cols: dict, n: int, stem: str = "score") -> np.ndarray:
    return np.stack([cols[f"{stem}{s}"] for s in range(n)], axis=1)


def _winner(v, cols: dict):
    """The rows' own winner column where the game has one (penalty games), else None."""
    return cols["winner"] if "winner" in v.extra_columns else None


def measure_cell(run: Runner, v, n: int, rules: tuple[str, ...], tag: str) -> dict:
    """Every measure of one game x player count x rules (its runs: :func:`.balance_plan.cell_runs`)."""
    pre = f"{v.name}-{n}p{tag}"
    cols, base_dir = run.rows(f"{pre}-base")
    sc = _scores(cols, n)
    cell = {"variant": v.name, "players": n, "rules": list(rules), "score_unit": v.score_unit,
            "strategy": v.ladder[1], "rungs": list(v.ladder), "runs": {"base": base_dir}}
    cell["seat_hand"] = _jsonable(B.seat_edge(cols["dealer"], sc))
    if run.has(f"{pre}-base-dup"):
        dup, cell["runs"]["duplicate"] = run.rows(f"{pre}-base-dup")
        cell["seat_dup"] = _jsonable(B.seat_edge_duplicate(dup["dealer"], _scores(dup, n), _winner(v, dup)))
    cell["tempo"] = tempo(v, cols)
    cell["volatility"] = {"hand_sd": B.sd_estimate(sc[:, 0]).as_dict()}
    if run.has(f"{pre}-base-games"):
        g, cell["runs"]["games"] = run.rows(f"{pre}-base-games")
        run.learn(pre, g["hands"])
        net = _scores(g, n, "net")
        cell["seat_game"] = _jsonable(B.seat_edge(g["first_dealer"], net, g["winner"]))
        cell["tempo"]["hands_per_game"] = mean_ci(g["hands"]).as_dict()
        scoring = g["hands"] - g["voids"]
        cell["volatility"]["game_sd"] = B.sd_estimate(net[:, 0]).as_dict()
        cell["volatility"]["one_hand_games"] = wilson(int((scoring == 1).sum()), len(scoring)).as_dict()
    cell["ladder"] = [pair_measures(run, n, weak, strong, pre) for weak, strong in ladder_pairs(v)]
    cell["skill_gradient"] = cell["ladder"][-1]["hand"]["effect"]      # the whole ladder: random -> strongest
    if v.champion and run.has(f"{pre}-{v.ladder[-1]}-{v.champion}-r0"):     # the champion rung
        cell["champion"] = v.champion
        cell["ladder"].append(pair_measures(run, n, v.ladder[-1], v.champion, pre))
    for below in (v.ladder[-1], v.champion):                               # the search rung, on top
        if below and run.has(f"{pre}-{below}-{SEARCH}-r0"):
            cell["ladder"].append(pair_measures(run, n, below, SEARCH, pre))
    return cell


def pair_measures(run: Runner, n, weak, strong, pre) -> dict:
    scores, dirs = pair_scores(run, n, weak, strong, pre)
    out = {"weak": weak, "strong": strong, "runs": dirs}
    out["hand"] = _jsonable(B.ladder_pair(scores))
    if run.has(f"{pre}-{weak}-{strong}-games-r0"):
        nets, wins = [], []
        for r in range(n):
            g, d = run.rows(f"{pre}-{weak}-{strong}-games-r{r}")
            nets.append(_scores(g, n, "net"))
            wins.append(g["winner"])
            out["runs"].append(d)
        out["game"] = _jsonable(B.ladder_pair(nets, wins))
    return out


def pair_scores(run: Runner, n, weak, strong, pre) -> tuple[list, list]:
    """The score rows of the duplicate-deal runs of a pair (one per seat of the stronger)."""
    scores, dirs = [], []
    for r in range(n):
        cols, d = run.rows(f"{pre}-{weak}-{strong}-r{r}")
        scores.append(_scores(cols, n))
        dirs.append(d)
    return scores, dirs


def tempo(v, cols: dict) -> dict:
    turns = cols["turns"]
    no_out = [v.outcomes.index(o) for o in v.no_out_outcomes]
    oc = cols["outcome"]
    return {"turns": mean_ci(turns).as_dict(), "turns_q": B.quantiles(turns),
            "turns_hist": np.bincount(np.clip(turns, 0, 200)).tolist(),
            "no_out": wilson(int(np.isin(oc, no_out).sum()), len(oc)).as_dict(),
            "no_out_outcomes": list(v.no_out_outcomes),
            "outcomes": {name: wilson(int((oc == k).sum()), len(oc)).as_dict()
                         for k, name in enumerate(v.outcomes)}}


def _jsonable(x):
    if isinstance(x, B.Estimate):
        return x.as_dict()
    if isinstance(x, dict):
        return {k: _jsonable(y) for k, y in x.items()}
    if isinstance(x, list):
        return [_jsonable(y) for y in x]
    return x


# ----------------------------------------------------------------------------------------
# rule sensitivity

def arm(run: Runner, v, n, pre) -> dict:
    """Seat edge and skill gradient (the top pair: ``random`` against the strongest) of one
    rules setting (its runs: :func:`.balance_plan.arm_runs`), with their per-hand (per-deal)
    series under ``series`` for the paired comparison with the defaults (hand ``h`` is one deal
    in every setting)."""
    cols, base_dir = run.rows(f"{pre}-base")
    sc = _scores(cols, n)
    scores, dirs = pair_scores(run, n, v.ladder[0], v.ladder[-1], pre)
    series = {"first_win": B.first_win_series(cols["dealer"], sc), "skill": B.skill_series(scores)}
    return {**{k: mean_ci(x).as_dict() for k, x in series.items()}, "runs": [base_dir] + dirs, "series": series}


def sensitivity(run: Runner, v, n: int, cfg: BalanceConfig) -> dict:
    """Every on/off or text option changed alone with ``n`` players: the first player's win
    edge and the skill gradient, and their paired changes against the defaults."""
    default = arm(run, v, n, P.default_prefix(v, n))
    options = []
    changes, skipped = P.checked_changes(v, n)
    for change in changes:
        a = arm(run, v, n, P.change_prefix(v, n, change))
        for k, x in a.pop("series").items():
            a[f"d_{k}"] = mean_ci(x - default["series"][k]).as_dict()
        options.append({"rule": change, **a})
    default.pop("series")
    return {"variant": v.name, "players": n, "hands": cfg.rule_hands, "default": default,
            "options": options, "skipped": skipped}


# ----------------------------------------------------------------------------------------
# the study

def run_balance(cfg: BalanceConfig, out, jobs: int = -1, progress: bool | None = None) -> Path:
    """Run (or resume) the study into ``out``, under one progress bar; writes
    ``out/balance.json`` and returns ``out``."""
    _check_rule(cfg)
    out = store.claim(out, (FILE, "runs"), "balance study")
    plan = P.study_plan(cfg)
    run = Runner(out, jobs, progress, plan)
    t0 = time.perf_counter()
    cells, sens = [], []
    if progress is not False:
        _say(_plan_line(plan))
    with study_progress(plan.work(), "hand", "balance", progress) as run.bar:
        for step in plan.steps:
            v = get_variant(step.variant)
            if run.bar is not None:
                run.bar.describe(f"balance {v.name} {step.players}p{' ' + step.rules[0] if step.rules else ''}"
                                 f"{' rules' if step.kind == 'sensitivity' else ''}")
            if step.kind == "cell":
                cells.append(measure_cell(run, v, step.players, step.rules, step.tag))
            else:
                sens.append(sensitivity(run, v, step.players, step.cfg))
    doc = {"kind": KIND, "config": asdict(cfg), "cells": cells, "sensitivity": sens,
           "timing": {"wall_s": time.perf_counter() - t0, "run_s": run.seconds, "simulated": run.simulated,
                      "jobs": jobs}}
    store.write_study(out, KIND, doc)
    return out


def _plan_line(plan: P.Plan) -> str:
    """What the study plays and what its one progress bar counts."""
    size = plan.counts()
    games = (f" and {size['games']:,} whole games; the bar counts hands, a whole game as its hands "
             f"({P.HANDS_PER_GAME_GUESS} until the game's first games are played)") if size["games"] else ""
    return f"balance: {len(plan.runs)} runs, {size['hands']:,} hands{games}"


def _check_rule(cfg: BalanceConfig) -> None:
    if cfg.rule is None:
        return
    for name in cfg.variants:
        make_spec(name, rules=[cfg.rule], n=1, players=cfg.players[name][0])


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def load_balance(folder) -> dict:
    doc = store.read_study(folder, KIND)
    if doc.get("kind") != KIND:
        raise store.StoreError(f"{folder}/{FILE} is not a balance study")
    return doc


def demo_balance(out_dir, scale: float = 1.0, seed: int = 0, jobs: int = -1, progress: bool | None = None) -> Path:
    """A small balance study for ``rummylab demo``: every game at its default player count,
    20,000 x ``scale`` base hands (at least 1,000; ladder and rule runs a quarter and a fifth,
    500 x ``scale`` games, each times the game's ``balance_scale``); returns its folder
    ``out_dir/balance`` for the report."""
    k = max(float(scale), 0.0)
    hands = max(1_000, int(20_000 * k))
    cfg = BalanceConfig(tuple(available()), {v: (get_variant(v).default_players,) for v in available()},
                        hands=hands, ladder_hands=max(250, hands // 4), games=max(100, int(500 * k)),
                        rule_hands=max(200, hands // 5), dup_hands=hands // 2, seed=seed)
    return run_balance(cfg, Path(out_dir) / "balance", jobs=jobs, progress=progress)


# ----------------------------------------------------------------------------------------
# CLI

_EXAMPLES = """\
    rummylab balance                                   # every game x its player counts, defaults
    rummylab balance --variant tonk --players 2..6 --hands 400000 --out runs/balance-tonk
    rummylab balance --variant gin --rule first_upcard_offer=off --out runs/balance-gin-offer
    rummylab balance --variant gin --players 2 --hands 20000 --search-hands 500 --no-sensitivity
    rummylab report runs/balance --html reports/balance.html"""


def parse_players(text: str) -> tuple[int, ...]:
    """``2..6``, ``3`` or ``2,4``: player counts (sized before they are made)."""
    from analysis.args import int_values
    if ":" in text:
        raise argparse.ArgumentTypeError(f"--players takes N, A..B or A,B,...; got {text!r}")
    try:
        out = int_values(text)
    except argparse.ArgumentTypeError as e:
        raise argparse.ArgumentTypeError(f"--players takes N, A..B or A,B,...: {e}") from None
    if not out or min(out) < 1:
        raise argparse.ArgumentTypeError(f"--players takes counts >= 1; got {text!r}")
    return out


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``balance`` subcommand to an argparse subparsers object."""
    p = add_command(
        subparsers, "balance", help="how balanced is each game? seat edge, skill vs luck, tempo, volatility, rules",
        description="""\
            Every game x player count (or --variant/--players): seat edge by position after the
            dealer, per hand (also on duplicate deals: each deal once per position, free of deal
            luck) and per whole game; the strategy ladder (random < simple < the
            strongest preset) on duplicate deals: win rate, score edge, hands and games to be
            ahead, variance explained by strategy and by the deal; tempo; volatility; and how
            each on/off or text rule option moves the seat edge and the skill gradient.
            Every run is stored in OUT/runs (rerun to resume); the measures in OUT/balance.json.""",
        epilog=_EXAMPLES)
    p.add_argument("--variant", action="append", default=None,
                   help="game, repeatable (default: every game; see `rummylab variants`)")
    p.add_argument("--players", type=parse_players, default=None, metavar="N|A..B",
                   help="player counts (default: every count each game allows)")
    p.add_argument("--hands", type=whole("--hands", 100), default=None,
                   help=f"hands of the base run (every seat simple); default {DEFAULT_HANDS:,} times the game's "
                        "balance_scale (slow games play fewer; any size given here turns the scaling off)")
    p.add_argument("--ladder-hands", type=whole("--ladder-hands", 100), default=None,
                   help="hands per ladder run (one run per seat of the stronger player); default --hands / 8")
    p.add_argument("--games", type=whole("--games", 0), default=None,
                   help=f"whole games of the base run (ladder: a quarter per run); 0: none; default {DEFAULT_GAMES:,}")
    p.add_argument("--rule-hands", type=whole("--rule-hands", 100), default=None,
                   help="hands per rule-sensitivity run; default --hands / 10")
    p.add_argument("--dup-hands", type=whole("--dup-hands", 0), default=None,
                   help="hands of the duplicate-deal seat-edge run (each deal once per position); 0: none; "
                        "default --hands / 2")
    p.add_argument("--search-hands", type=whole("--search-hands", 0), default=0,
                   help="put the search player on top of the ladder where the game has one: the strongest "
                        "heuristic against search, this many duplicate hands per seat of the searcher (slow: "
                        "Gin search plays ~50 hands/s per core); default 0: no search rung")
    p.add_argument("--champion-hands", type=whole("--champion-hands", 0), default=0,
                   help="put the game's champion on top of the ladder where it has one (Gin: marjj, "
                        "MARJJ_v5's policy): the strongest heuristic against it, this many duplicate hands per "
                        "seat (slow: marjj plays a few hundred hands/s); with --search-hands also search "
                        "against it; default 0: no champion rung")
    p.add_argument("--rule", default=None, metavar="NAME=VALUE",
                   help="one rule change, measured side by side with the defaults (needs --variant)")
    p.add_argument("--no-sensitivity", action="store_true", help="skip the rule-sensitivity runs")
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=jobs_arg, default=-1, help="worker threads; -1 = all cores (default)")
    p.add_argument("--out", type=OUT_DIR, default=DEFAULT_OUT, help=f"results folder (default {DEFAULT_OUT})")
    p.add_argument("--no-progress", action="store_true", help="never show progress bars")
    p.add_argument("--json", action="store_true",
                   help="print the measures as JSON: per game and player count, every estimate as "
                        '{"value", "ci95", "n"}, the skill gradient under "skill_gradient"')
    add_csv_option(p, "the comparison table (first player's win edge, skill gradient, turns per hand)")
    p.set_defaults(func=cmd)
    return p


FULL_RUN = "16 min"      # `rummylab balance` at default sizes, measured for the README (2 shared cores)


def cmd(args) -> int:
    from ..args import output_format
    fmt = output_format(args)
    if args.rule is not None and not args.variant:
        raise BalanceError("--rule changes one game's rules: name the game with --variant")
    if args.rule is not None and "=" not in args.rule:
        raise BalanceError(f"--rule takes NAME=VALUE, got {args.rule!r}")
    sizes = (args.hands, args.ladder_hands, args.games, args.rule_hands, args.dup_hands)
    hands = DEFAULT_HANDS if args.hands is None else args.hands
    cfg = default_config(args.variant, args.players, hands=hands,
                         ladder_hands=args.ladder_hands or max(100, hands // 8),
                         games=DEFAULT_GAMES if args.games is None else args.games,
                         rule_hands=args.rule_hands or max(100, hands // 10), rule=args.rule,
                         dup_hands=args.dup_hands if args.dup_hands is not None else hands // 2,
                         sensitivity=not args.no_sensitivity, seed=args.seed, search_hands=args.search_hands,
                         champion_hands=args.champion_hands, per_game_scale=all(x is None for x in sizes))
    if not args.variant and not args.players and all(x is None for x in sizes) and not args.no_progress:
        _say(f"balance: every game at every player count at default sizes takes about {FULL_RUN} on 2 cores "
             "(rerun to resume; finished runs are reused); --variant, --players, --hands or --no-sensitivity "
             "make it quicker")
    try:
        out = run_balance(cfg, args.out, jobs=args.jobs, progress=False if args.no_progress else None)
    except KeyboardInterrupt:
        print(f"interrupted; rerun to resume from {args.out}", file=sys.stderr)
        return 130
    doc = load_balance(out)
    print(json_text.dumps(json_summary(doc, out)) if fmt == "json" else balance_csv(doc) if fmt == "csv"
          else format_table(doc), end="" if fmt == "csv" else "\n")
    print(f"wrote {out / FILE}; report: rummylab report {out} --html reports/balance.html",
          file=sys.stdout if fmt == "text" else sys.stderr)
    return 0


