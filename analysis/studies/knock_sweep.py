"""Knock-threshold sweeps with common random numbers, and the knock chart.

Seat 0 plays a base strategy whose knock threshold is varied; the other seats play a fixed
opponent.  Every arm plays the same hands (hand ``i`` is the same deal, and the same strategy
random numbers, in every arm), so arms are compared by *paired* differences, which cancel the
deal-to-deal noise.

Stages (each a stored, resumable job in its own sub-folder of the sweep folder):

* ``overall``: one threshold for the whole hand, for each value in ``thresholds``.
* ``by_turn``: per own-turn bucket (early / mid / late) each threshold, with the other buckets
  at the overall best.  Consecutive thresholds ``prev`` < ``d`` of one bucket differ only when
  seat 0 could knock at deadwood (Tonk: count) in ``prev+1..d`` in that bucket (with a step of
  1: exactly ``d``), so their paired difference is the EV margin of knocking there rather than
  playing on: one cell of the knock chart.  Calls are Holm-controlled over all cells; the
  others are shown as "can't tell" (:mod:`analysis.studies.sweep_stats`).
* ``policy`` (with ``by_turn``): the policy read off the chart against the best single
  threshold, on the same fresh deals; a policy that loses is flagged, not advice.
* ``games`` (games with a whole-game mode): the overall arms played as whole games to
  ``target_score``; round win rate alone misleads, so policies are also judged on games won.

Selection and evaluation use independent seeds: ``overall`` plays on the sweep seed, every
other stage on :func:`stage_seed` of it.  Sweeps stored before that (``stage_seeds`` absent,
loaded as ``"shared"``) played every stage on the sweep seed and have no ``policy`` stage.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np

from sim.runner import RunSpec, make_spec
from sim.strategies import Strategy, derive, parse_strategy
from sim.variants import Knob, Variant, available, get_variant

from .. import store
from . import spec_doc
from ..jobs import ArmsJob, JobResult, run_job
from ..progress import study_progress
from ..errors import SweepError
from .knob import legal_range
from .sweep_stats import BUCKETS, chart_policy, knock_chart, sweep_table

STAGE_KEYS = {"by_turn": 1, "policy": 2, "games": 3}


def stage_seed(seed: int, stage: str) -> int:
    """Seed of a sweep stage: ``overall`` plays on the sweep seed; any other stage on the first
    63 bits of numpy's SeedSequence([seed, STAGE_KEYS[stage]]), a fixed function of the seed
    whose deals are independent of the overall stage's (and of each other's)."""
    if stage == "overall":
        return seed
    state = np.random.SeedSequence([seed, STAGE_KEYS[stage]]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


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
    stage_seeds: str = "derived"            # "derived" (stage_seed); "shared": stored before it
    rule_set: str | None = None             # the named rule set under ``rules`` (recorded by every run)

    @property
    def game(self) -> Variant:
        return get_variant(self.variant)

    def knob(self) -> Knob:
        k = self.game.knob
        if k is None:
            knock_games = [n for n in available() if get_variant(n).knob is not None]
            raise SweepError(f"{self.variant} has no knock decision to sweep (knock sweeps exist for "
                             f"{', '.join(knock_games)}); compare its strategies with "
                             f"`rummylab compare --variant {self.variant} --strategies A,B`")
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
        return parse_strategy(self.strategy, self.variant, self.n_players)

    @property
    def n_players(self) -> int:
        """The player count the sweep plays (the game's usual one unless given)."""
        return self.players or self.game.default_players

    def seed_of(self, stage: str) -> int:
        return self.seed if self.stage_seeds == "shared" and stage != "policy" else stage_seed(self.seed, stage)

    def spec_for(self, seat0: Strategy, n: int, mode: str = "hands", stage: str = "overall") -> RunSpec:
        probe = make_spec(self.variant, rules=list(self.rules), n=1, players=self.players, rule_set=self.rule_set)
        others = [self.opponent] * (probe.n_seats - 1)
        return make_spec(self.variant, rules=list(self.rules), strategies=[seat0, *others], n=n,
                         seed=self.seed_of(stage), players=self.players, mode=mode, rule_set=self.rule_set)

    def overall_arms(self) -> list[Strategy]:
        k = self.knob()
        return [derive(self.base(), **{k.param: t, k.mid: k.same, k.late: k.same}) for t in self.thresholds]

    def bucketed(self, thresholds: dict[str, int]) -> Strategy:
        """Seat 0's base strategy with one threshold per bucket."""
        k = self.knob()
        vals = {k.param: thresholds["early"], k.mid: thresholds["mid"], k.late: thresholds["late"],
                k.mid_from: self.buckets[0], k.late_from: self.buckets[1]}
        if self.bucket_by == "stock":
            vals[k.bucket_by] = 1
        return derive(self.base(), **vals)

    def bucket_arms(self, best: int) -> list[tuple[str, int, Strategy]]:
        return [(b, t, self.bucketed({**dict.fromkeys(BUCKETS, best), b: t}))
                for b in BUCKETS for t in self.thresholds]

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
        if self.stage_seeds not in ("derived", "shared"):
            raise SweepError(f"stage_seeds must be 'derived' or 'shared', not {self.stage_seeds!r}")
        if self.games and self.game.game_kernel is None:
            raise SweepError(f"{self.variant} has no whole-game mode: drop --games")
        self.spec_for(self.base(), 1)  # validates variant, rules, players, strategies

    def legal_range(self) -> tuple[int, int, str]:
        """The thresholds that mean something and why the upper end is there
        (:func:`analysis.studies.knob.legal_range`)."""
        k, family = self.knob(), self.base().family
        return legal_range(k, family.params[family.index(k.param)], self.spec_for(self.base(), 1).rules)

    def _check_range(self, k: Knob, levels) -> None:
        """Thresholds within the strategy parameter's bounds and, where the rules cap a legal
        act, within that cap (a threshold past it would only repeat the cap's arm)."""
        lo, hi, why = self.legal_range()
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
    policy: dict | None = None             # the policy stage's total (arm 0 chart policy, arm 1 best single)
    policy_thresholds: dict | None = None  # the chart policy's threshold per bucket
    complete: bool = True
    elapsed_s: float = 0.0
    compile_s: float = 0.0
    hands_simulated: int = 0               # hands simulated now (all arms, hand stages)
    games_simulated: int = 0               # games simulated now (all arms, games stage)
    stages: dict = field(default_factory=dict)


def run_sweep(spec: SweepSpec, *, out_dir=None, jobs: int = -1, progress=None, backend: str = "threads",
              scheduler: str | None = None) -> SweepResult:
    """Run (or reuse from ``out_dir``) every stage of a sweep (``backend``/``scheduler`` as
    :func:`analysis.jobs.run_job`)."""
    spec.check()
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        _write_spec(out, spec)
    results: dict[str, JobResult] = {}

    plan = ["overall", *(("by_turn", "policy") if spec.by_turn else ()), *(("games",) if spec.games else ())]

    def stage(name, arms, pairs, n, mode="hands"):
        label = f"stage {plan.index(name) + 1}/{len(plan)}, {name.replace('_', ' ')}"   # the progress line's
        job = ArmsJob([spec.spec_for(s, n, mode, name) for s in arms], pairs, label)
        r = run_job(job, jobs=jobs, out_dir=(out / name) if out else None, progress=progress,
                    backend=backend, scheduler=scheduler)
        results[name] = r
        res.complete = res.complete and r.complete
        return r.total

    overall_arms = spec.overall_arms()
    all_pairs = list(combinations(range(len(overall_arms)), 2))
    res = SweepResult(spec, -1, None)
    n_arms = len(overall_arms)
    work = spec.hands * (n_arms + ((3 * n_arms + 2) if spec.by_turn else 0))   # the hand stages' arm x hands
    with study_progress(work, "hand", f"knock sweep {spec.variant}, hand stages", progress):
        res.overall = stage("overall", overall_arms, all_pairs, spec.hands)
        if res.complete and progress is not False:
            _say_time_left(spec, results["overall"], n_arms)
        if res.complete:
            table = sweep_table(spec, res.overall)
            res.best_overall = int(table.loc[table["best"], "threshold"].iloc[0])
            if spec.by_turn:
                _chart_stages(spec, res, stage)
    if spec.games and res.complete:       # games: another unit and speed, its own bar
        res.games = stage("games", overall_arms, all_pairs, spec.games, "games")
    res.elapsed_s = sum(x.elapsed_s for x in results.values())
    res.compile_s = sum(x.compile_s for x in results.values())
    done = {k: x.n_simulated * len(x.total["arms"]) for k, x in results.items() if x.total}
    res.games_simulated = done.pop("games", 0)
    res.hands_simulated = sum(done.values())
    res.stages = {k: {"from_store": v.from_store, "complete": v.complete, "elapsed_s": v.elapsed_s,
                      "seed": spec.seed_of(k)} for k, v in results.items()}
    if out is not None and res.complete:
        info = store.read_study(out, "sweep")
        info["best_overall"] = res.best_overall
        if res.policy_thresholds is not None:
            info["policy_thresholds"] = res.policy_thresholds
        store.write_study(out, "sweep", info)
    return res


LONG_S = 60.0      # a projected remainder longer than this is announced on stderr


def _say_time_left(spec: SweepSpec, first: JobResult, n_arms: int) -> None:
    """After the overall stage: the by-turn and policy stages' expected time (they play 3 and
    2 arms per threshold's 1 on as many hands, at the overall stage's measured speed), and how
    to make it quicker, when that is long."""
    if not spec.by_turn or first.n_simulated == 0 or first.elapsed_s <= 0:
        return
    per_arm_hand = first.elapsed_s / (first.n_simulated * n_arms)
    left = per_arm_hand * spec.hands * (3 * n_arms + 2)
    if left < LONG_S:
        return
    from ..progress import duration
    print(f"knock sweep: the by-turn chart and its policy take about {duration(left)} more"
          + (f", then the games stage ({spec.games:,} games per threshold)" if spec.games else "")
          + "; fewer --hands or --thresholds make it quicker", file=sys.stderr, flush=True)


def _chart_stages(spec: SweepSpec, res: SweepResult, stage) -> None:
    """The by-turn stage (the knock chart) and, once it is complete, the policy stage: the
    chart's policy and the best single threshold on the same fresh deals."""
    n_t = len(spec.thresholds)
    pairs = [(g * n_t + i, g * n_t + j) for g in range(len(BUCKETS)) for i, j in combinations(range(n_t), 2)]
    res.by_turn = stage("by_turn", [s for _, _, s in spec.bucket_arms(res.best_overall)], pairs, spec.hands)
    if not res.complete:
        return
    res.policy_thresholds = chart_policy(spec, knock_chart(spec, res.by_turn), res.best_overall)
    best_arm = spec.overall_arms()[spec.thresholds.index(res.best_overall)]
    res.policy = stage("policy", [spec.bucketed(res.policy_thresholds), best_arm], [(0, 1)], spec.hands)


def _write_spec(out: Path, spec: SweepSpec) -> None:
    store.claim(out, ("sweep.json",), "sweep")
    info = {"kind": "knock_sweep", "spec": spec_doc(spec)}
    path = out / "sweep.json"
    if path.exists():
        old = store.read_study(out, "sweep")
        if "stage_seeds" not in old.get("spec", {}):
            raise store.StoreError(f"{out} holds a sweep stored before stage seeds were separated "
                                   f"(every stage on one seed); choose a new folder")
        if old.get("spec") != json.loads(json.dumps(info["spec"])):
            raise store.StoreError(f"{out} holds a different sweep; choose a new folder")
        return
    store.write_study(out, "sweep", info)


def load_sweep(path) -> SweepResult:
    """A complete stored sweep (for reports: never re-simulates).  A sweep stored before stage
    seeds were separated loads with ``spec.stage_seeds == "shared"`` and no policy stage."""
    out = Path(path)
    info_path = out / "sweep.json"
    if not info_path.exists():
        raise store.StoreError(f"{out} holds no knock sweep (no sweep.json)")
    info = store.read_study(out, "sweep")
    d = {"stage_seeds": "shared", **info["spec"]}
    spec = SweepSpec(**{**d, "thresholds": tuple(d["thresholds"]), "buckets": tuple(d["buckets"]),
                        "rules": tuple(d["rules"])})
    if "best_overall" not in info:
        raise store.StoreError(f"{out}: the sweep did not finish; rerun the same command to resume it")
    stage = {}
    for name in ("overall", "by_turn", "policy", "games"):
        if (out / name / "meta.json").exists():
            stage[name] = store.load_meta(out / name)
    res = SweepResult(spec, info["best_overall"], stage["overall"]["total"],
                      stage.get("by_turn", {}).get("total"), stage.get("games", {}).get("total"),
                      stage.get("policy", {}).get("total"), info.get("policy_thresholds"))
    res.stages = {k: {"git": v.get("git"), "versions": v.get("versions"), "elapsed_s": v.get("elapsed_s"),
                      "seed": spec.seed_of(k)} for k, v in stage.items()}
    return res
