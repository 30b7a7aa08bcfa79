"""Compare strategies for seat 0 under several rule settings and player counts, on the same deals.

``rummylab compare --variant wildcard --players 4..6 --rule packs=1,2 --strategies
keep-wilds,discard-wilds-late`` plays, for every player count and every rule setting (the
product of the rules given with several values), one arm per strategy for seat 0 against a
fixed opponent in every other seat.  Within a cell (players x setting) every arm plays the
same deals with the same random numbers (common random numbers): only seat 0's strategy
changes, so each strategy is compared with the first one (the reference) by paired
differences.  Game-agnostic: any game, any strategy specs.

Measures per arm: seat 0's result per hand (its score, or for games whose hand scores are not
zero-sum its score minus the average other seat, as a knock sweep), its win rate, the hand
length in turns and the points that change hands per hand (the positive scores; penalty games:
the penalty points taken).  Multiple comparisons: every strategy-vs-reference difference of
every cell is one test; calls use Holm's step-down adjustment over all of them and each
difference also gets a Bonferroni simultaneous interval (:data:`COMPARE_METHOD`).  Rule
settings and player counts play different deals, so their effects are differences of
independent means (Welch intervals).

Layout: ``compare.json`` (kind ``strategy_compare``: the spec, then ``complete``) and one
sub-folder per cell, ``p<players>-<setting>``, each a stored, resumable arms job.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import combinations, product
from pathlib import Path

import numpy as np

from sim.runner import RunSpec, accumulate, make_spec
from sim.strategies import parse_strategy, split_specs
from sim.variants import get_variant

from .. import store
from . import spec_doc
from ..jobs import ArmsJob, run_job
from ..progress import study_progress
from ..errors import SweepError

KIND = "strategy_compare"
FILE = "compare"
COMPARE_METHOD = ("each strategy minus the reference (the first) on the same deals, per cell; calls "
                  "Holm-Bonferroni over every comparison of the study (two-sided paired t tests, "
                  "family-wise 95%); simultaneous intervals Bonferroni (each at 1 - 0.05/m)")


def parse_rule_values(texts) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """``['packs=1,2', 'deal=7']`` -> fixed rules ``('deal=7',)`` and varied
    ``(('packs', ('1', '2')),)``: a rule given with several comma-separated values is varied."""
    fixed, varied = [], []
    for text in texts:
        name, eq, values = text.partition("=")
        vals = tuple(v.strip() for v in values.split(","))
        if not eq or not name.strip() or not all(vals):
            raise SweepError(f"--rule {text!r}: write NAME=VALUE or NAME=V1,V2,... (e.g. packs=1,2)")
        if len(vals) == 1:
            fixed.append(f"{name.strip()}={vals[0]}")
        elif name.strip() in (n for n, _ in varied):
            raise SweepError(f"--rule {name.strip()} is given twice; list its values once, e.g. {name.strip()}=1,2")
        else:
            if len(set(vals)) != len(vals):
                raise SweepError(f"--rule {text!r}: a value is listed twice")
            varied.append((name.strip(), vals))
    return tuple(fixed), tuple(varied)


@dataclass(frozen=True)
class CompareSpec:
    variant: str
    strategies: tuple[str, ...]                   # seat 0's arms; the first is the reference
    players: tuple[int, ...] = ()                 # () = the game's default count
    rules: tuple[str, ...] = ()                   # fixed rule options
    vary: tuple[tuple[str, tuple[str, ...]], ...] = ()   # rules varied (their product)
    opponent: str = "simple"                      # every other seat
    hands: int = 100_000                          # deals per cell (every arm plays them all)
    seed: int = 0
    rule_set: str | None = None                   # the named rule set under ``rules`` (recorded)

    @property
    def game(self):
        return get_variant(self.variant)

    def player_counts(self) -> tuple[int, ...]:
        return self.players or (self.game.default_players,)

    def settings(self) -> list[tuple[str, ...]]:
        """Every combination of the varied rules' values, as rule strings (one () without any)."""
        names = [n for n, _ in self.vary]
        return [tuple(f"{n}={v}" for n, v in zip(names, combo))
                for combo in product(*(vals for _, vals in self.vary))]

    def cells(self) -> list[tuple[int, tuple[str, ...]]]:
        return [(n, s) for n in self.player_counts() for s in self.settings()]

    def arm_specs(self, players: int, setting: tuple[str, ...]) -> list[RunSpec]:
        probe = make_spec(self.variant, rules=[*self.rules, *setting], n=1, players=players, rule_set=self.rule_set)
        others = [self.opponent] * (probe.n_seats - 1)
        return [make_spec(self.variant, rules=[*self.rules, *setting], strategies=[s, *others], n=self.hands,
                          seed=self.seed, players=players, rule_set=self.rule_set) for s in self.strategies]

    def check(self) -> None:
        if len(self.strategies) < 2:
            raise SweepError("give at least two strategies to compare, e.g. --strategies simple,tracker")
        if len(set(self.strategies)) != len(self.strategies):
            raise SweepError("a strategy is listed twice in --strategies")
        if len(set(self.player_counts())) != len(self.player_counts()):
            raise SweepError("a player count is listed twice in --players")
        names = [n for n, _ in self.vary]
        clash = [r.partition("=")[0] for r in self.rules if r.partition("=")[0] in names]
        if clash:
            raise SweepError(f"--rule {clash[0]} is both fixed and varied; give it once")
        for n, s in self.cells():       # validates players, every rule value and every strategy
            self.arm_specs(n, s)
        seen = {}
        for text in self.strategies:
            st = parse_strategy(text, self.variant)
            key = (st.family.name, tuple(sorted(st.values.items())))
            if key in seen:
                raise SweepError(f"--strategies {seen[key]} and {text} are the same strategy (the same "
                                 f"parameters); compare different ones")
            seen[key] = text


def cell_name(players: int, setting: tuple[str, ...]) -> str:
    """A cell's sub-folder: 'p4-packs=1' ('p4' without varied rules)."""
    return "-".join([f"p{players}", *(s.replace("/", "_") for s in setting)])


def setting_label(setting: tuple[str, ...]) -> str:
    return ", ".join(setting) or "rules as given"


def hand_points(spec: RunSpec, rows: np.ndarray) -> np.ndarray:
    """Points that change hands in each hand: the sum of the positive scores (penalty games: of
    the penalties, minus the negative scores)."""
    sc = np.stack([rows[:, spec.columns.index(f"score{s}")] for s in range(spec.n_seats)], axis=1)
    if spec.variant.score_unit == "penalty":
        sc = -sc
    return np.where(sc > 0, sc, 0).sum(axis=1)


class CompareJob(ArmsJob):
    """An arms job whose arms also keep the moments of :func:`hand_points` (``points``)."""

    def identity(self):
        return {**super().identity(), "study": KIND}

    def arm_total(self, spec, rows):
        acc = accumulate(spec, rows).to_dict()
        p = hand_points(spec, rows)
        acc["moments"]["points"] = [int(p.size), int(p.sum()), int((p * p).sum())]
        return acc


@dataclass
class CompareResult:
    spec: CompareSpec
    cells: dict                     # cell name -> arms-job total
    players: dict                   # cell name -> seats
    complete: bool = True
    elapsed_s: float = 0.0
    compile_s: float = 0.0
    hands_simulated: int = 0
    stages: dict | None = None


def run_compare(spec: CompareSpec, *, out_dir=None, jobs: int = -1, progress=None, backend: str = "threads",
                scheduler: str | None = None, log=None) -> CompareResult:
    """Run (or reuse from ``out_dir``) every cell; ``log(text)`` announces each cell."""
    spec.check()
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        _write_spec(out, spec)
    res = CompareResult(spec, {}, {}, stages={})
    cells = spec.cells()
    pairs = list(combinations(range(len(spec.strategies)), 2))
    with study_progress(len(cells) * len(spec.strategies) * spec.hands, "hand",
                        f"compare {spec.variant}, {len(cells)} cells", progress):
        _run_cells(spec, res, cells, pairs, out, jobs, progress, backend, scheduler, log)
    if res.complete and out is not None:
        info = store.read_study(out, FILE)
        store.write_study(out, FILE, {**info, "complete": True})
    return res


def _run_cells(spec, res, cells, pairs, out, jobs, progress, backend, scheduler, log) -> None:
    """Every cell in turn (stops at an interrupted one, ``res.complete`` False)."""
    for k, (n, setting) in enumerate(cells, 1):
        name = cell_name(n, setting)
        arms = spec.arm_specs(n, setting)
        if log:
            log(f"cell {k}/{len(cells)}: {n} players, {setting_label(setting)}: {len(arms)} strategies x "
                f"{spec.hands:,} hands")
        r = run_job(CompareJob(arms, pairs, f"{n}p {setting_label(setting)}"), jobs=jobs,
                    out_dir=(out / name) if out else None, progress=progress, backend=backend, scheduler=scheduler)
        res.cells[name], res.players[name] = r.total, arms[0].n_seats
        res.elapsed_s += r.elapsed_s
        res.compile_s += r.compile_s
        res.hands_simulated += r.n_simulated * len(arms)
        res.stages[name] = {"from_store": r.from_store, "elapsed_s": r.elapsed_s}
        if not r.complete:
            res.complete = False
            return


def _write_spec(out: Path, spec: CompareSpec) -> None:
    store.claim(out, (f"{FILE}.json",), "strategy comparison")
    info = {"kind": KIND, "spec": json.loads(json.dumps(spec_doc(spec)))}
    path = out / f"{FILE}.json"
    if path.exists():
        if store.read_study(out, FILE).get("spec") != info["spec"]:
            raise store.StoreError(f"{out} holds a different strategy comparison; choose a new folder")
        return
    store.write_study(out, FILE, info)


def spec_from_dict(d: dict) -> CompareSpec:
    return CompareSpec(**{**d, "strategies": tuple(d["strategies"]), "players": tuple(d["players"]),
                          "rules": tuple(d["rules"]),
                          "vary": tuple((n, tuple(v)) for n, v in d["vary"])})


def load_compare(path) -> CompareResult:
    """A complete stored comparison (reports never re-simulate)."""
    out = Path(path)
    info = store.read_study(out, FILE)
    if not info.get("complete"):
        raise store.StoreError(f"{out}: the comparison did not finish; rerun the same command to resume it")
    spec = spec_from_dict(info["spec"])
    res = CompareResult(spec, {}, {}, stages={})
    for n, setting in spec.cells():
        name = cell_name(n, setting)
        meta = store.load_meta(out / name)
        res.cells[name], res.players[name] = meta["total"], len(meta["arms"][0]["strategies"])
        res.stages[name] = {"git": meta.get("git"), "versions": meta.get("versions"),
                            "elapsed_s": meta.get("elapsed_s")}
    return res


def parse_strategy_list(text: str) -> tuple[str, ...]:
    """'keep-wilds,discard-wilds-late(release=6)' -> its specs (commas inside () kept)."""
    return tuple(split_specs(text))
