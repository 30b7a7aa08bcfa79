"""When should I knock against whom: a tournament of knock policies, best responses and the
equilibrium of the policy game.

Policies: one knock threshold all hand long for each value of ``thresholds`` (derived from
``strategy`` like a knock sweep's arms), the game's presets of that strategy family (but
uniform random play), the base strategy and any ``extra`` specs (e.g. a chart policy).  Identical policies are merged (Gin's
``simple`` is threshold 10, ``gin-hunter`` threshold 0).

Every comparison is on the same deals (common random numbers) with each policy in each seat.
A *field* job puts candidate ``q`` in seat ``s`` and the field policy ``p`` in every other seat,
for every seat ``s``, and keeps per deal ``Y[q]`` = the sum over ``s`` of seat ``s``'s focus (the
game's per-hand measure: its score, or for games whose hand scores are not zero-sum its net
against the field); the candidate's net per hand against ``p`` is ``mean(Y[q]) / seats``.  A
table of ``p`` alone nets exactly 0 (the focus sums to 0 over the seats), so it is not played.
Per field the job keeps exact integer moments: the count and sum of ``Y`` on the even and on
the odd hands (two independent halves of the deals) and the cross products of the candidates
(paired comparisons and mixtures).

* 2 players: one job (stage ``tournament``) with every policy as a field.  ``A[i, j]``, the mean
  net of ``i`` against ``j`` with seats swapped, is antisymmetric deal by deal; the symmetric
  zero-sum game is solved by linear programming (:func:`~analysis.studies.matrix_game.solve_matrix_game`).
* 3+ players: best-response iteration on a homogeneous field (:func:`~analysis.studies.matrix_game.iterate_best_responses`),
  one job per field visited (stage ``field-<policy index>``), and the field of each preset.

Best responses name the set of policies the data cannot tell from the selected best: one-sided
paired t comparisons against the selected best, Bonferroni-adjusted over the other policies (a
Bonferroni form of Gupta's subset selection): the set holds the true best with probability at
least 95%.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.runner import CHUNK, RunSpec, make_spec, run_chunk
from sim.strategies import PRESETS, TUNED, Strategy, _load_families, parse_strategy

from .. import store
from . import spec_doc
from ..jobs import Job, JobResult, run_job
from ..errors import SweepError
from ..stats import Estimate, mean_from_moments, t_quantile
from .knob import symbol
from .knock_sweep import SweepSpec
from .matrix_game import ALPHA, iterate_best_responses

KIND = "knock_equilibrium"
FILE = "equilibrium"
HANDS = 20_000         # deals per seating by default: Gin's 13 policies in about a minute on 2 cores
BLOCK = 1 << 21        # Y cells held at once by a chunk (memory flat for many policies)
METHOD = ("one-sided paired t tests against the selected best, Bonferroni-adjusted over the other "
          "policies (holds the true best with probability >= 95%)")


def knock_presets(family, variant: str) -> list[str]:
    """The family's presets in ``variant`` that are knock policies: all but uniform random play
    (the ``random`` rung of the balance study's ladder) and the family's slow presets (Gin's
    ``marjj``: an ``extra`` policy when wanted); the hand-picked ones, then the tuned ones of the
    presets file (such as ``strong``)."""
    _load_families()
    tuned = sorted(n for (v, n), e in TUNED.items() if v == variant and e["family"] == family.name)
    named = [n for n in family.presets_for(variant) if n not in tuned and n not in family.slow_presets] + tuned
    return [n for n in named if not PRESETS[(variant, n)][1].get("random_play")]


@dataclass(frozen=True)
class Policy:
    """One tournament entry: a strategy, its threshold (None for a preset or extra) and the
    preset or spec names it is also known by."""
    strategy: Strategy
    threshold: int | None = None
    aliases: tuple[str, ...] = ()
    rel: str = "<="                         # the knob's direction (analysis.studies.knob.symbol)

    @property
    def short(self) -> str:
        return f"{self.rel}{self.threshold}" if self.threshold is not None else self.aliases[0]

    @property
    def name(self) -> str:
        rest = self.aliases if self.threshold is not None else self.aliases[1:]
        return self.short + (f" ({', '.join(rest)})" if rest else "")

    def as_dict(self) -> dict:
        return {"name": self.name, "threshold": self.threshold, "aliases": list(self.aliases),
                "spec": self.strategy.spec, "params": dict(self.strategy.values)}


@dataclass(frozen=True)
class EquilibriumSpec:
    variant: str = "gin"
    thresholds: tuple[int, ...] = ()        # () = the game's default range
    hands: int = HANDS                      # deals per seating
    seed: int = 0
    players: int | None = None
    rules: tuple[str, ...] = ()
    strategy: str = "simple"                # base of the threshold policies; 3+ players: the start
    extra: tuple[str, ...] = ()             # more policies (strategy specs), e.g. a chart policy
    rule_set: str | None = None             # the named rule set under ``rules`` (recorded)

    def __post_init__(self):
        object.__setattr__(self, "thresholds", self.sweep().thresholds)

    def sweep(self) -> SweepSpec:
        """The knock sweep whose one-threshold arms are the threshold policies."""
        return SweepSpec(variant=self.variant, thresholds=self.thresholds, hands=self.hands, games=0,
                         seed=self.seed, players=self.players, rules=self.rules, strategy=self.strategy,
                         rule_set=self.rule_set)

    def check(self) -> None:
        self.sweep().check()
        if self.hands < 2:
            raise SweepError(f"--hands {self.hands}: give at least 2 deals per seating (a CI needs two)")
        self.policies()

    @property
    def n_seats(self) -> int:
        return self.sweep().spec_for(self.sweep().base(), 1).n_seats

    def policies(self) -> list[Policy]:
        """Thresholds, then presets, the base strategy and extras not equal to one before."""
        sw = self.sweep()
        rel = symbol(sw.knob())
        out = [Policy(s, t, rel=rel) for t, s in zip(sw.thresholds, sw.overall_arms())]
        base = sw.base()
        at = sw.n_players
        named = [(n, parse_strategy(n, self.variant, at)) for n in knock_presets(base.family, self.variant)]
        named += [(self.strategy, base)] + [(e, parse_strategy(e, self.variant, at)) for e in self.extra]
        for alias, strat in named:
            k = next((k for k, p in enumerate(out) if p.strategy.values == strat.values), None)
            if k is None:
                out.append(Policy(strat, None, (alias,)))
            elif alias not in out[k].aliases:
                out[k] = Policy(out[k].strategy, out[k].threshold, out[k].aliases + (alias,), rel)
        return out

    def opponents(self, policies: list[Policy]) -> list[tuple[str, int]]:
        """(name, policy index) of every preset and extra: the opponents given best responses."""
        names = knock_presets(self.sweep().base().family, self.variant) + list(self.extra)
        return [(n, next(k for k, p in enumerate(policies) if n in p.aliases)) for n in dict.fromkeys(names)]

    def start(self, policies: list[Policy]) -> int:
        """The field best-response iteration starts from: the base strategy."""
        return next(k for k, p in enumerate(policies) if self.strategy in p.aliases)

    def focus(self) -> tuple[str, float]:
        """The per-hand measure in words and the scale from Y to a seat's net per hand."""
        name, scale = self.sweep().focus()
        unit = self.sweep().game.score_unit
        what = f"net {unit} per hand against the field" if name == "field0" else f"{unit} per hand"
        return what, scale / self.n_seats


# ----------------------------------------------------------------------------------------
# the field job

def seat_focus(spec: RunSpec, rows: np.ndarray) -> np.ndarray:
    """int64 (hands, seats): each seat's score, or (hand scores not zero-sum) its net against
    the field times (seats - 1): ``(n - 1) * own - others = n * own - total``."""
    n = spec.n_seats
    k = spec.columns.index("score0")
    sc = rows[:, k:k + n]
    if spec.variant.scores_zero_sum(spec.rules):
        return sc
    return n * sc - sc.sum(axis=1, keepdims=True)


def seatings(n_pol: int, n_seats: int, fields: list[int]) -> list[tuple[tuple[int, ...], list]]:
    """Each table to play (policy index per seat) with what it feeds: (field position, candidate,
    candidate's seat).  With 2 players one table serves two fields."""
    out: dict[tuple[int, ...], list] = {}
    for f, p in enumerate(fields):
        for q in range(n_pol):
            if q != p:
                for s in range(n_seats):
                    out.setdefault(tuple(q if k == s else p for k in range(n_seats)), []).append((f, q, s))
    return sorted(out.items())


def _add(x, y):
    """Elementwise sum of nested dicts and lists of integers."""
    if isinstance(x, dict):
        return {k: _add(x[k], y[k]) for k in x}
    return [_add(a, b) for a, b in zip(x, y)] if isinstance(x, list) else x + y


class FieldJob(Job):
    """Every candidate against each field policy, in every seat, on the same deals."""

    def __init__(self, spec: EquilibriumSpec, policies: list[Policy], fields: list[int], label: str):
        sw = spec.sweep()
        self.n_pol, self.fields, self.desc = len(policies), list(fields), label
        self.n = spec.hands
        self.tables = []
        for seats, feeds in seatings(self.n_pol, spec.n_seats, self.fields):
            run = make_spec(spec.variant, rules=list(spec.rules), strategies=[policies[k].strategy for k in seats],
                            n=spec.hands, seed=spec.seed, players=spec.players, rule_set=spec.rule_set)
            self.tables.append((run, feeds))
        probe = sw.spec_for(sw.base(), 1)
        self._identity = {**probe.identity(), "strategies": None, "study": KIND,
                          "policies": [p.strategy.as_dict() for p in policies], "fields": self.fields}

    def identity(self):
        return self._identity

    def warm_up(self):
        run_chunk(self.tables[0][0], 0, 1)

    def meta(self):
        return {"fields": self.fields, "tables": len(self.tables)}

    def compute(self, a, b, out_dir):
        n_f, n_pol = len(self.fields), self.n_pol
        step = max(256, min(CHUNK, BLOCK // (n_f * n_pol)))
        count = [0, 0]
        sums = np.zeros((n_f, 2, n_pol), dtype=np.int64)
        cross = np.zeros((n_f, n_pol, n_pol), dtype=np.int64)
        for lo in range(a, b, step):
            hi = min(lo + step, b)
            y = np.zeros((n_f, hi - lo, n_pol), dtype=np.int64)
            for run, feeds in self.tables:
                f = seat_focus(run, run_chunk(run, lo, hi))
                for fi, q, s in feeds:
                    y[fi, :, q] += f[:, s]
            odd = (np.arange(lo, hi) % 2).astype(bool)
            count[0] += int((~odd).sum())
            count[1] += int(odd.sum())
            sums[:, 0] += y[:, ~odd].sum(axis=1)
            sums[:, 1] += y[:, odd].sum(axis=1)
            cross += np.matmul(y.transpose(0, 2, 1), y)
        return {"count": count, "sum": sums.tolist(), "cross": cross.tolist()}

    @staticmethod
    def merge(total, part):
        return json.loads(json.dumps(part)) if total is None else _add(total, part)


@dataclass
class FieldStats:
    """Exact moments of Y against one field policy (integers) and the scale Y -> net per hand."""
    counts: list[int]                 # deals with an even / odd hand index
    sums: list[list[int]]             # [half][candidate]
    cross: list[list[int]]            # [candidate][candidate]
    scale: float

    @classmethod
    def from_total(cls, total: dict, f: int, scale: float) -> "FieldStats":
        return cls(total["count"], total["sum"][f], total["cross"][f], scale)

    @property
    def n(self) -> int:
        return sum(self.counts)

    def _sum(self, q: int) -> int:
        return self.sums[0][q] + self.sums[1][q]

    def value(self, q: int) -> Estimate:
        """Candidate q's mean net per hand against the field, 95% CI, n deals."""
        return mean_from_moments(self.n, self._sum(q), self.cross[q][q]).scaled(self.scale)

    def diff_moments(self, q: int, r: int) -> tuple[int, int, int]:
        """(count, sum, sum of squares) of Y[q] - Y[r], deal by deal."""
        c = self.cross
        return self.n, self._sum(q) - self._sum(r), c[q][q] - 2 * c[q][r] + c[r][r]

    def half_mean(self, h: int, q: int) -> float:
        return self.sums[h][q] / self.counts[h] * self.scale

    def half_mix(self, h: int, x) -> tuple[float, float]:
        """The mixture x against the field on half ``h`` of the deals: its mean and standard
        error (the per-deal variance from every deal: both halves are samples of the same
        deals' distribution, and the cross products are kept over all deals)."""
        x = np.asarray(x, dtype=float)
        n = self.n
        s = float(sum(w * self._sum(q) for q, w in enumerate(x)))
        ss = float(x @ np.array(self.cross, dtype=float) @ x)
        var = max(ss - s * s / n, 0.0) / (n - 1)
        mean = float(sum(w * self.sums[h][q] for q, w in enumerate(x))) / self.counts[h]
        return mean * self.scale, math.sqrt(var / self.counts[h]) * abs(self.scale)

    def mix(self, x) -> Estimate:
        """The mixture x of candidates (deal by deal the weighted sum) against the field."""
        x = np.asarray(x, dtype=float)
        s = float(sum(w * self._sum(q) for q, w in enumerate(x)))
        ss = float(x @ np.array(self.cross, dtype=float) @ x)
        return mean_from_moments(self.n, s, ss).scaled(self.scale)


@dataclass
class BestResponse:
    best: int
    value: Estimate
    same: list[int]           # policies the data cannot tell from the best (best included)


def best_response(fs: FieldStats, alpha: float = ALPHA) -> BestResponse:
    """The candidate with the highest mean against the field, and the set not distinguishable
    from it: ``q`` leaves the set when the one-sided lower (1 - alpha/(K-1)) t bound of
    best - q lies above 0."""
    k = len(fs.cross)
    vals = [fs.value(q) for q in range(k)]
    b = max(range(k), key=lambda q: vals[q].value)
    tq = t_quantile(fs.n - 1, 1 - 2 * alpha / max(k - 1, 1))
    same = []
    for q in range(k):
        c, s, ss = fs.diff_moments(b, q)
        var = (c * ss - s * s) / (c * (c - 1)) if c > 1 else math.inf
        if q == b or s / c - tq * math.sqrt(max(var, 0.0) / c) <= 0:
            same.append(q)
    return BestResponse(b, vals[b], same)


# ----------------------------------------------------------------------------------------
# running and loading

@dataclass
class EquilibriumResult:
    spec: EquilibriumSpec
    policies: list[Policy]
    fields: dict[int, FieldStats]
    complete: bool = True
    elapsed_s: float = 0.0
    compile_s: float = 0.0
    hands_simulated: int = 0
    stages: dict = field(default_factory=dict)


class _Stopped(Exception):
    """A stage was interrupted (Ctrl-C): the study stops with what it has."""


def run_equilibrium(spec: EquilibriumSpec, *, out_dir=None, jobs: int = -1, progress=None,
                    backend: str = "threads", scheduler: str | None = None) -> EquilibriumResult:
    """Run (or reuse/resume from ``out_dir``) the tournament: 2 players, every field at once;
    3+ players, the fields best-response iteration and the presets visit."""
    spec.check()
    policies = spec.policies()
    out = Path(out_dir) if out_dir is not None else None
    doc = {"kind": KIND, "spec": spec_doc(spec), "policies": [p.as_dict() for p in policies]}
    if out is not None:
        _open_folder(out, doc)
    _, scale = spec.focus()
    res = EquilibriumResult(spec, policies, {})
    results: dict[str, JobResult] = {}

    def stage(name: str, fields: list[int]) -> dict:
        job = FieldJob(spec, policies, fields, name)
        r = run_job(job, jobs=jobs, out_dir=(out / name) if out else None, progress=progress,
                    backend=backend, scheduler=scheduler)
        results[name] = r
        res.hands_simulated += r.n_simulated * len(job.tables)
        if not r.complete:
            raise _Stopped
        return r.total

    def respond(p: int):
        if p not in res.fields:
            res.fields[p] = FieldStats.from_total(stage(f"field-{p}", [p]), 0, scale)
        br = best_response(res.fields[p])
        return br.best, br.same

    try:
        if spec.n_seats == 2:
            total = stage("tournament", list(range(len(policies))))
            res.fields = {p: FieldStats.from_total(total, p, scale) for p in range(len(policies))}
        else:
            iterate_best_responses(respond, spec.start(policies))
            for _, p in spec.opponents(policies):
                respond(p)
    except _Stopped:
        res.complete = False
    res.elapsed_s = sum(r.elapsed_s for r in results.values())
    res.compile_s = sum(r.compile_s for r in results.values())
    res.stages = {k: {"from_store": r.from_store, "complete": r.complete, "elapsed_s": r.elapsed_s}
                  for k, r in results.items()}
    if out is not None and res.complete:
        store.write_study(out, FILE, {**doc, "fields": list(res.fields), "complete": True})
    return res


def _open_folder(out: Path, doc: dict) -> None:
    """Write the study file, or check an existing one holds this study (then it resumes)."""
    store.claim(out, (f"{FILE}.json",), "equilibrium study")
    if (out / f"{FILE}.json").exists():
        if store.read_study(out, FILE).get("spec") != json.loads(json.dumps(doc["spec"])):
            raise store.StoreError(f"{out} holds a different equilibrium study; choose a new folder")
    else:
        store.write_study(out, FILE, doc)


def load_equilibrium(path) -> EquilibriumResult:
    """A finished stored study (for reports: never simulates)."""
    out = Path(path)
    doc = store.read_study(out, FILE)
    if not doc.get("complete"):
        raise store.StoreError(f"{out}: the equilibrium study did not finish; rerun the same command to resume it")
    d = doc["spec"]
    spec = EquilibriumSpec(**{**d, "thresholds": tuple(d["thresholds"]), "rules": tuple(d["rules"]),
                              "extra": tuple(d["extra"])})
    _, scale = spec.focus()
    if spec.n_seats == 2:
        metas = {"tournament": store.load_meta(out / "tournament")}
        fields = {p: FieldStats.from_total(metas["tournament"]["total"], p, scale) for p in doc["fields"]}
    else:
        metas = {f"field-{p}": store.load_meta(out / f"field-{p}") for p in doc["fields"]}
        fields = {p: FieldStats.from_total(metas[f"field-{p}"]["total"], 0, scale) for p in doc["fields"]}
    res = EquilibriumResult(spec, spec.policies(), fields)
    res.stages = {k: {"git": m.get("git"), "versions": m.get("versions"), "elapsed_s": m.get("elapsed_s")}
                  for k, m in metas.items()}
    return res

