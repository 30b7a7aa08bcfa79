"""Knock-threshold sweeps with common random numbers, and the knock chart.

Seat 0 plays a base strategy whose knock threshold is varied; the other seats play a fixed
opponent.  Every arm plays the same hands (hand ``i`` is the same deal, and the same strategy
random numbers, in every arm), so arms are compared by *paired* differences, which cancel the
deal-to-deal noise.

Stages (each a stored, resumable job in its own sub-folder of the sweep folder):

* ``overall``: one threshold for the whole hand, for each value in ``thresholds``.
* ``by_turn``: per own-turn bucket (early / mid / late) each threshold, with the other buckets
  at the overall best.  Thresholds ``d`` and ``d-1`` of one bucket differ only when seat 0
  could knock at deadwood (Tonk: count) exactly ``d`` in that bucket, so their paired
  difference is the EV margin of knocking there rather than playing on: one cell of the knock
  chart.  A cell whose 95% CI contains 0 is shown as "can't tell".
* ``games`` (games with a whole-game mode): the overall arms played as whole games to ``target_score``; round win rate
  alone misleads, so policies are also judged on games won.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path

import pandas as pd

from sim.runner import RunSpec, make_spec
from sim.strategies import Strategy, derive, parse_strategy
from sim.variants import Knob, Variant, available, get_variant

from .. import store
from ..engine import ArmsJob, JobResult, run_job
from ..errors import SweepError
from ..stats import Estimate, mean_from_moments, wilson

BUCKETS = ("early", "mid", "late")


@dataclass(frozen=True)
class SweepSpec:
    variant: str = "gin"
    thresholds: tuple[int, ...] = ()        # () = the game's default range
    by_turn: bool = False
    buckets: tuple[int, int] = (5, 9)      # own turn where mid / late start (stock: cards left)
    bucket_by: str = "turn"                 # "turn" (own turn number) or "stock" (Gin: cards left)
    hands: int = 200_000
    games: int | None = None                # whole games per arm (0: skip; None: the game's default)
    seed: int = 0
    players: int | None = None
    rules: tuple[str, ...] = ()
    strategy: str = "simple"                # seat 0's base strategy
    opponent: str = "simple"                # every other seat

    @property
    def game(self) -> Variant:
        return get_variant(self.variant)

    def knob(self) -> Knob:
        k = self.game.knob
        if k is None:
            knock_games = [n for n in available() if get_variant(n).knob is not None]
            raise SweepError(f"{self.variant} has no knock decision to sweep; knock sweeps exist for "
                             f"{', '.join(knock_games)}")
        return k

    def __post_init__(self):
        """Defaults from the game: its threshold range, and its games per arm."""
        if self.variant not in available():
            return
        if not self.thresholds and self.game.knob is not None:
            lo, hi = self.game.knob.default_range
            object.__setattr__(self, "thresholds", tuple(range(lo, hi + 1)))
        if self.games is None:
            g = self.game.game
            object.__setattr__(self, "games", g.sweep_games if g is not None and self.game.game_kernel else 0)

    def focus(self) -> tuple[str, float]:
        """Per-hand series the arms are judged on, and its scale: the score of seat 0, or for
        games whose hand scores are not zero-sum its net against the average other seat."""
        probe = self.spec_for(self.base(), 1)
        if self.game.scores_zero_sum(probe.rules):
            return "score0", 1.0
        return "field0", 1.0 / (probe.n_seats - 1)

    def base(self) -> Strategy:
        return parse_strategy(self.strategy, self.variant)

    def spec_for(self, seat0: Strategy, n: int, mode: str = "hands") -> RunSpec:
        probe = make_spec(self.variant, rules=list(self.rules), n=1, players=self.players)
        others = [self.opponent] * (probe.n_seats - 1)
        return make_spec(self.variant, rules=list(self.rules), strategies=[seat0, *others], n=n,
                         seed=self.seed, players=self.players, mode=mode)

    def overall_arms(self) -> list[Strategy]:
        k = self.knob()
        return [derive(self.base(), **{k.param: t, k.mid: k.same, k.late: k.same}) for t in self.thresholds]

    def bucket_arms(self, best: int) -> list[tuple[str, int, Strategy]]:
        k = self.knob()
        mid_from, late_from = self.buckets
        arms = []
        for b in BUCKETS:
            for t in self.thresholds:
                vals = {k.param: best, k.mid: best, k.late: best, k.mid_from: mid_from, k.late_from: late_from}
                if self.bucket_by == "stock":
                    vals[k.bucket_by] = 1
                vals[{"early": k.param, "mid": k.mid, "late": k.late}[b]] = t
                arms.append((b, t, derive(self.base(), **vals)))
        return arms

    def check(self) -> None:
        k = self.knob()
        levels = self.thresholds
        if len(levels) < 2:
            raise SweepError("give at least two thresholds, e.g. --thresholds 0..10")
        if list(levels) != sorted(set(levels)):
            raise SweepError("thresholds must be increasing and distinct")
        self._check_range(k, levels)
        if self.bucket_by not in ("turn", "stock"):
            raise SweepError(f"bucket_by must be 'turn' or 'stock', not {self.bucket_by!r}")
        if self.bucket_by not in k.bucket_kinds:
            raise SweepError(f"{self.variant} sweeps buckets by {' or '.join(k.bucket_kinds)}, not {self.bucket_by}")
        if self.bucket_by == "stock":
            if not (self.buckets[0] > self.buckets[1] >= 0):
                raise SweepError("stock buckets: mid starts at a larger stock than late, e.g. --buckets 20,10")
        elif not (1 < self.buckets[0] < self.buckets[1]):
            raise SweepError("buckets: mid must start after turn 1 and before late, e.g. --buckets 5,9")
        if self.games and self.game.game_kernel is None:
            raise SweepError(f"{self.variant} has no whole-game mode: drop --games")
        self.spec_for(self.base(), 1)  # validates variant, rules, players, strategies

    def _check_range(self, k: Knob, levels) -> None:
        """Thresholds within the strategy parameter's bounds and, where the rules cap a legal
        knock, at most that cap (a higher threshold would only repeat the cap's arm)."""
        p = self.base().family.params[self.base().family.index(k.param)]
        lo, hi = max(int(p.lo), 0), int(p.hi)
        if k.limit_rule is not None:
            rules = self.spec_for(self.base(), 1).rules
            hi = min(hi, int(getattr(rules, k.limit_rule)))
            why = f" (rule {k.limit_rule}={hi})"
        else:
            why = ""
        bad = [t for t in levels if not lo <= t <= hi]
        if bad:
            shown = ", ".join(map(str, bad[:3])) + (", ..." if len(bad) > 3 else "")
            raise SweepError(f"{self.variant} knock thresholds run from {lo} to {hi}{why}; "
                             f"outside: {shown} (e.g. --thresholds {lo}..{hi})")


# ----------------------------------------------------------------------------------------
# running

@dataclass
class SweepResult:
    spec: SweepSpec
    best_overall: int
    overall: dict
    by_turn: dict | None = None
    games: dict | None = None
    complete: bool = True
    elapsed_s: float = 0.0
    compile_s: float = 0.0
    hands_simulated: int = 0               # hands simulated now (all arms, hand stages)
    games_simulated: int = 0               # games simulated now (all arms, games stage)
    stages: dict = field(default_factory=dict)


def run_sweep(spec: SweepSpec, *, out_dir=None, jobs: int = -1, progress=None, backend: str = "threads",
              scheduler: str | None = None) -> SweepResult:
    """Run (or reuse from ``out_dir``) every stage of a sweep (``backend``/``scheduler`` as
    :func:`analysis.engine.run_job`)."""
    spec.check()
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        _write_spec(out, spec)
    results: dict[str, JobResult] = {}

    def stage(name, job):
        r = run_job(job, jobs=jobs, out_dir=(out / name) if out else None, progress=progress,
                    backend=backend, scheduler=scheduler)
        results[name] = r
        return r

    overall_arms = spec.overall_arms()
    pairs = list(combinations(range(len(overall_arms)), 2))
    r = stage("overall", ArmsJob([spec.spec_for(s, spec.hands) for s in overall_arms], pairs, "overall"))
    res = SweepResult(spec, -1, r.total, complete=r.complete)
    if r.complete:
        table = sweep_table(spec, r.total)
        res.best_overall = int(table.loc[table["best"], "threshold"].iloc[0])
        if spec.by_turn:
            arms = spec.bucket_arms(res.best_overall)
            n_t = len(spec.thresholds)
            pairs = [(g * n_t + i, g * n_t + j) for g in range(len(BUCKETS))
                     for i, j in combinations(range(n_t), 2)]
            r = stage("by_turn", ArmsJob([spec.spec_for(s, spec.hands) for _, _, s in arms], pairs, "by turn"))
            res.by_turn = r.total
            res.complete = res.complete and r.complete
        if spec.games and res.complete:
            pairs = list(combinations(range(len(overall_arms)), 2))
            r = stage("games", ArmsJob([spec.spec_for(s, spec.games, "games") for s in overall_arms], pairs, "games"))
            res.games = r.total
            res.complete = res.complete and r.complete
    res.elapsed_s = sum(x.elapsed_s for x in results.values())
    res.compile_s = sum(x.compile_s for x in results.values())
    done = {k: x.n_simulated * len(x.total["arms"]) for k, x in results.items() if x.total}
    res.games_simulated = done.pop("games", 0)
    res.hands_simulated = sum(done.values())
    res.stages = {k: {"from_store": v.from_store, "complete": v.complete, "elapsed_s": v.elapsed_s}
                  for k, v in results.items()}
    if out is not None and res.complete:
        info = json.loads((out / "sweep.json").read_text())
        info["best_overall"] = res.best_overall
        store.write_study(out, "sweep", info)
    return res


def _write_spec(out: Path, spec: SweepSpec) -> None:
    store.check_out_dir(out)
    info = {"kind": "knock_sweep", "spec": asdict(spec)}
    path = out / "sweep.json"
    if path.exists():
        old = json.loads(path.read_text())
        if old.get("spec") != json.loads(json.dumps(info["spec"])):
            raise store.StoreError(f"{out} holds a different sweep; choose a new folder")
        return
    if out.exists() and any(out.iterdir()):
        raise store.StoreError(f"{out} is not empty and holds no sweep; choose a new folder")
    store.write_study(out, "sweep", info)


def load_sweep(path) -> SweepResult:
    """A complete stored sweep (for reports: never re-simulates)."""
    out = Path(path)
    info_path = out / "sweep.json"
    if not info_path.exists():
        raise store.StoreError(f"{out} holds no knock sweep (no sweep.json)")
    info = json.loads(info_path.read_text())
    d = info["spec"]
    spec = SweepSpec(**{**d, "thresholds": tuple(d["thresholds"]), "buckets": tuple(d["buckets"]),
                        "rules": tuple(d["rules"])})
    if "best_overall" not in info:
        raise store.StoreError(f"{out}: the sweep did not finish; rerun the same command to resume it")
    stage = {}
    for name in ("overall", "by_turn", "games"):
        if (out / name / "meta.json").exists():
            stage[name] = store.load_meta(out / name)
    res = SweepResult(spec, info["best_overall"], stage["overall"]["total"],
                      stage.get("by_turn", {}).get("total"), stage.get("games", {}).get("total"))
    res.stages = {k: {"git": v.get("git"), "versions": v.get("versions"), "elapsed_s": v.get("elapsed_s")}
                  for k, v in stage.items()}
    return res


# ----------------------------------------------------------------------------------------
# tables

def _pair(total: dict, i: int, j: int, name: str) -> tuple[Estimate, int]:
    """Mean of arm i minus arm j (paired), and the number of units where they differ."""
    key = f"{i}-{j}:{name}" if f"{i}-{j}:{name}" in total["pairs"] else f"{j}-{i}:{name}"
    c, s, ss, nz = total["pairs"][key]
    e = mean_from_moments(c, s, ss)
    if key.startswith(f"{j}-{i}:") and i != j:
        e = Estimate(-e.value, -e.hi, -e.lo, e.n)
    return e, nz


def _arm_estimates(total: dict, i: int, focus: str, scale: float) -> dict:
    m = total["arms"][i]["moments"]
    return {"mean": mean_from_moments(*m[focus]).scaled(scale),
            "win": wilson(m["rate:win0"][1], m["rate:win0"][0])}


def sweep_table(spec: SweepSpec, total: dict, mode: str = "hands", group: list[int] | None = None,
                labels: list | None = None) -> pd.DataFrame:
    """Per arm: mean seat-0 score (games: net per game) and win rate with CIs, the paired
    difference to the best arm of the group with its CI, and whether it is distinguishable."""
    idx = group if group is not None else list(range(len(total["arms"])))
    thresholds = labels if labels is not None else list(spec.thresholds)
    rows = []
    mean_name, scale = ("net0", 1.0) if mode == "games" else spec.focus()
    ests = [_arm_estimates(total, i, mean_name, scale) for i in idx]
    focus = "win0" if mode == "games" else mean_name
    key = (lambda e: e["win"].value) if mode == "games" else (lambda e: e["mean"].value)
    best_k = max(range(len(idx)), key=lambda k: key(ests[k]))
    for k, i in enumerate(idx):
        e = ests[k]
        if k == best_k:
            d, nz = Estimate(0.0, 0.0, 0.0, e["mean"].n), 0
        else:
            d, nz = _pair(total, i, idx[best_k], focus)
            d = d if mode == "games" else d.scaled(scale)
        rows.append({
            "threshold": thresholds[k], "n": e["mean"].n,
            "mean": e["mean"].value, "mean_lo": e["mean"].lo, "mean_hi": e["mean"].hi,
            "win_rate": e["win"].value, "win_lo": e["win"].lo, "win_hi": e["win"].hi,
            "diff_to_best": d.value, "diff_lo": d.lo, "diff_hi": d.hi, "hands_differing": nz,
            "best": k == best_k,
            "indistinguishable": k == best_k or (d.lo <= 0 <= d.hi),
        })
    return pd.DataFrame(rows)


def knock_chart(spec: SweepSpec, by_turn: dict) -> pd.DataFrame:
    """Cells bucket x threshold d (d > smallest threshold): EV margin of knocking at exactly d
    versus playing on (arm d minus arm d-1 of that bucket, paired), CI and the decision."""
    n_t = len(spec.thresholds)
    name, scale = spec.focus()
    rows = []
    for g, b in enumerate(BUCKETS):
        for k in range(1, n_t):
            i, j = g * n_t + k, g * n_t + k - 1
            e, nz = _pair(by_turn, i, j, name)
            e = e.scaled(scale)
            decision = "knock" if e.lo > 0 else ("play on" if e.hi < 0 else "can't tell")
            rows.append({"bucket": b, "threshold": spec.thresholds[k], "margin": e.value,
                         "lo": e.lo, "hi": e.hi, "n": e.n, "hands_affected": nz, "decision": decision})
    return pd.DataFrame(rows)


def bucket_label(spec: SweepSpec, b: str) -> str:
    m, late = spec.buckets
    if spec.bucket_by == "stock":
        return {"early": f"early (stock > {m})", "mid": f"mid (stock {late + 1}-{m})",
                "late": f"late (stock <= {late})"}[b]
    return {"early": f"early (own turns 1-{m - 1})", "mid": f"mid (turns {m}-{late - 1})",
            "late": f"late (turns {late}+)"}[b]


def by_turn_tables(spec: SweepSpec, by_turn: dict) -> dict[str, pd.DataFrame]:
    n_t = len(spec.thresholds)
    return {b: sweep_table(spec, by_turn, group=list(range(g * n_t, (g + 1) * n_t)))
            for g, b in enumerate(BUCKETS)}
