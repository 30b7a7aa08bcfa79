"""Tune a strategy family's parameters against a field: ``rummylab tune``.

Design.  A *candidate* is the family's base preset with the searched parameters set (each over
the range the family declares, narrowed to the values the game accepts).  Its result against a
field member ``f`` is its *edge*: seat 0's result per hand playing the candidate against ``f``
in every other seat, minus seat 0's result playing ``f`` itself there, on the same duplicate
deals (every deal once per position, so seat and deal luck cancel; ``sim.core.rng``).  The
objective (:data:`OBJECTIVES`) is the mean edge over the field members, or (``worst-gain``) the
least *gain* over the base preset against any one member (the candidate's edge minus the base's,
on the same deals): a candidate that scores above 0 there is better than the base against every
member of the field, not only on average.

The search is Optuna's TPE sampler (seeded from ``--seed``; the base preset and the field members
of the family are its first candidates) with its successive-halving pruner:
rung ``r`` plays the first ``min_hands * 3**r`` duplicate hands of the search seed, every
candidate the same ones, and only the best third of the candidates that reached a rung go on.
The budget counts the hands candidates play (per field member); the search stops before a rung
that would exceed it.  The finalists (the candidates that went deepest, best first) then play
``final_hands`` fresh duplicate hands of a seed the search never played (:func:`fresh_seed`),
all of them and each field member on the same deals: the winner is the finalist with the best
mean edge there, and its edges are reported from those hands only (:mod:`.tune_final`; the run
as text: :mod:`.tune_text`).

Every evaluation is an arms job of the engine (:mod:`analysis.jobs`), stored under ``--out``;
the trials live in Optuna's journal file there, so an interrupted run continues from its
stored trials (the interrupted trial resumes at its next rung) and the sampler is re-seeded
per trial from ``(seed, trial number)``, so a resumed run proposes what an uninterrupted one
would.  Layout: ``tune.json`` (kind ``tune``), ``trials.journal``, ``search/``, ``reference/``,
``final/``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from sim.strategies import parse_strategy

from .. import store
from ..jobs import ArmsJob, run_job
from .tune_final import final_stage
from .tune_spec import ETA, OBJECTIVES, TuneSpec, build_spec, focus, fresh_seed, sampler_seed

KIND = "tune"
FILE = "tune"


# ----------------------------------------------------------------------------------------
# evaluation through the engine

def arm_mean(run_spec, out_dir, jobs: int, label: str) -> float:
    """Seat 0's mean result per hand of one stored arm (resumable; KeyboardInterrupt if stopped)."""
    r = run_job(ArmsJob([run_spec], [], label), jobs=jobs, out_dir=out_dir, progress=False)
    if not r.complete:
        raise KeyboardInterrupt
    name, scale = focus(run_spec)
    c, s, _ = r.total["arms"][0]["moments"][name]
    return s / c * scale


class Evaluator:
    """Edges of candidates at a rung against every field member, stored under ``out``."""

    def __init__(self, spec: TuneSpec, out: Path | None, jobs: int):
        self.spec, self.out, self.jobs = spec, out, jobs
        self._refs: dict[tuple[int, int], float] = {}
        self._base: dict[int, list[float]] = {}

    def _dir(self, *parts) -> Path | None:
        return self.out.joinpath(*parts) if self.out is not None else None

    def reference(self, r: int, i: int) -> float:
        if (r, i) not in self._refs:
            sp = self.spec
            f = sp.field[i]
            self._refs[(r, i)] = arm_mean(sp.arm(f, f, sp.rung_hands(r), sp.seed), self._dir("reference", f"r{r}-f{i}"),
                                          self.jobs, f"reference {f}")
        return self._refs[(r, i)]

    def edges(self, number: int, values: dict, r: int) -> list[float]:
        return self._edges(self.spec.candidate(values), r, ("search", f"t{number:05d}"), f"trial {number}")

    def _edges(self, seat0, r: int, where: tuple[str, ...], label: str) -> list[float]:
        sp = self.spec
        out = []
        for i, f in enumerate(sp.field):
            m = arm_mean(sp.arm(seat0, f, sp.rung_hands(r), sp.seed), self._dir(*where, f"r{r}-f{i}"),
                         self.jobs, f"{label} vs {f}")
            out.append(m - self.reference(r, i))
        return out

    def value(self, edges: list[float], r: int) -> float:
        """The objective of a candidate with these edges at rung ``r`` (:data:`OBJECTIVES`)."""
        if self.spec.objective == "mean":
            return sum(edges) / len(edges)
        if r not in self._base:
            self._base[r] = self._edges(self.spec.base_strategy(), r, ("reference", "base"), "base")
        return min(e - b for e, b in zip(edges, self._base[r]))


# ----------------------------------------------------------------------------------------
# the search

def _optuna():
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def open_study(spec: TuneSpec, out: Path | None):
    """The Optuna study of this run: in ``out/trials.journal`` (resumable) or in memory."""
    optuna = _optuna()
    if out is None:
        storage = optuna.storages.InMemoryStorage()
    else:
        from optuna.storages.journal import JournalFileBackend, JournalFileOpenLock
        path = str(out / "trials.journal")
        storage = optuna.storages.JournalStorage(JournalFileBackend(path, lock_obj=JournalFileOpenLock(path)))
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=spec.min_hands, reduction_factor=ETA)
    study = optuna.create_study(study_name="tune", storage=storage, direction="maximize", pruner=pruner,
                                load_if_exists=True, sampler=optuna.samplers.TPESampler(seed=spec.seed))
    if not study.trials:
        for values in first_candidates(spec):
            study.enqueue_trial(values)
    return study


def first_candidates(spec: TuneSpec) -> list[dict]:
    """The candidates tried before the sampler's own: the base preset, then every field member of
    the tuned family (so the search starts from the best of them), each once."""
    out = []
    for st in [spec.base_strategy(), *(parse_strategy(f, spec.variant, spec.players) for f in spec.field)]:
        if st.family.name != spec.family:
            continue
        values = {name: _cast(st.values[name], integer) for name, _, _, integer in spec.params}
        inside = all(lo <= values[name] <= hi for name, lo, hi, _ in spec.params)
        if inside and values not in out:
            out.append(values)
    return out


def _cast(v, integer: bool):
    return int(round(v)) if integer else float(v)


def _distributions(spec: TuneSpec) -> dict:
    optuna = _optuna()
    d = optuna.distributions
    return {name: (d.IntDistribution(int(lo), int(hi)) if integer else d.FloatDistribution(lo, hi))
            for name, lo, hi, integer in spec.params}


def spent_hands(spec: TuneSpec, trials) -> int:
    """Hands the candidates played: every rung each trial reported."""
    hands = {spec.rung_hands(r): spec.rung_cost(r) for r in range(spec.rungs)}
    return sum(hands[int(step)] for t in trials for step in t.intermediate_values)


def _next_trial(study, spec: TuneSpec):
    """The interrupted trial to resume (RUNNING in the journal), else a new one."""
    optuna = _optuna()
    running = [t for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.RUNNING]
    number = running[0].number if running else len(study.trials)
    study.sampler = optuna.samplers.TPESampler(seed=sampler_seed(spec.seed, number))
    if running:
        trial = optuna.Trial(study, running[0]._trial_id)
        for name, dist in _distributions(spec).items():
            trial._suggest(name, dist)   # the stored value where there is one
        return trial
    return study.ask(fixed_distributions=_distributions(spec))


def search(spec: TuneSpec, study, ev: Evaluator, bar=None, on_rung=None) -> str:
    """Run trials until the budget or the trial limit is reached; returns why it stopped."""
    optuna = _optuna()
    TS = optuna.trial.TrialState
    while True:
        trials = study.get_trials(deepcopy=False)
        spent = spent_hands(spec, trials)
        running = any(t.state == TS.RUNNING for t in trials)
        if not running and sum(t.state != TS.WAITING for t in trials) >= spec.trials:
            return "trials"
        if not running and spent + spec.rung_cost(0) > spec.budget:
            return "budget"
        trial = _next_trial(study, spec)
        done = len(study._storage.get_trial(trial._trial_id).intermediate_values)
        state = TS.PRUNED if done and _pruned(trial, done - 1, spec) else TS.COMPLETE
        for r in range(done, spec.rungs if state == TS.COMPLETE else done):
            if spent + spec.rung_cost(r) > spec.budget:
                state = TS.PRUNED
                trial.set_user_attr("stopped", "budget")
                break
            edges = ev.edges(trial.number, dict(trial.params), r)
            spent += spec.rung_cost(r)
            trial.set_user_attr(f"edges_r{r}", edges)
            trial.report(ev.value(edges, r), spec.rung_hands(r))
            if bar is not None:
                bar.update(spec.rung_cost(r))
            if on_rung is not None:
                on_rung(trial.number, r)
            if _pruned(trial, r, spec):
                state = TS.PRUNED
                break
        frozen = study._storage.get_trial(trial._trial_id)
        if not frozen.intermediate_values:
            study.tell(trial, state=TS.FAIL)
        elif state == TS.COMPLETE:
            study.tell(trial, frozen.intermediate_values[max(frozen.intermediate_values)])
        else:
            study.tell(trial, state=TS.PRUNED)


def _pruned(trial, r: int, spec: TuneSpec) -> bool:
    """The pruner's decision after rung ``r``, asked once and kept with the trial (so a run
    interrupted after rung ``r`` resumes with the decision an uninterrupted run made)."""
    if r + 1 >= spec.rungs:
        return False
    key = f"pruned_r{r}"
    stored = trial.study._storage.get_trial(trial._trial_id).user_attrs
    if key not in stored:
        trial.set_user_attr(key, bool(trial.should_prune()))
        stored = trial.study._storage.get_trial(trial._trial_id).user_attrs
    return stored[key]


def trial_records(spec: TuneSpec, study) -> list[dict]:
    """Every finished trial as stored in ``tune.json``: params, per rung hands, value, edges,
    and the hands the search had spent when it ended."""
    out, spent = [], 0
    for t in sorted(study.get_trials(deepcopy=False), key=lambda t: t.number):
        if t.state.name in ("WAITING", "RUNNING"):
            continue
        rungs = []
        for r in range(spec.rungs):
            step = spec.rung_hands(r)
            if step in t.intermediate_values:
                rungs.append({"rung": r, "hands": step, "value": t.intermediate_values[step],
                              "edges": t.user_attrs.get(f"edges_r{r}")})
                spent += spec.rung_cost(r)
        out.append({"number": t.number, "state": t.state.name, "params": dict(t.params), "rungs": rungs,
                    "spent": spent, "stopped": t.user_attrs.get("stopped")})
    return out


def finalists(spec: TuneSpec, records: list[dict]) -> list[dict]:
    """The candidates that went deepest, best value at their deepest rung first (distinct params)."""
    ranked = sorted((t for t in records if t["rungs"]),
                    key=lambda t: (-len(t["rungs"]), -t["rungs"][-1]["value"], t["number"]))
    out, seen = [], set()
    for t in ranked:
        key = json.dumps(t["params"], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(t)
        if len(out) == spec.finalists:
            break
    return out


# ----------------------------------------------------------------------------------------
# the stored run

def write_spec(out: Path, spec: TuneSpec) -> dict:
    """Claim ``out`` for this tuning run (a different one there is refused) and return tune.json."""
    store.claim(out, (f"{FILE}.json",), "tuning run")
    doc = {"kind": KIND, "spec": json.loads(json.dumps(asdict(spec))), "complete": False}
    if (out / f"{FILE}.json").exists():
        old = store.read_study(out, FILE)
        if {"objective": "mean", **old.get("spec", {})} != doc["spec"]:   # runs stored before --objective: mean
            raise store.StoreError(f"{out} holds a different tuning run; choose a new folder "
                                   "(or repeat its command to resume it)")
        return old
    store.write_study(out, FILE, doc)
    return doc


def spec_from_dict(d: dict) -> TuneSpec:
    return TuneSpec(**{**d, "field": tuple(d["field"]), "rules": tuple(d["rules"]),
                       "params": tuple((n, lo, hi, i) for n, lo, hi, i in d["params"])})


def run_tune(spec: TuneSpec, *, out_dir=None, jobs: int = 1, progress: bool | None = None, on_rung=None) -> dict:
    """Search, then re-play the finalists on fresh deals; returns the run's document (stored as
    ``out_dir/tune.json`` when complete).  A complete stored run is returned as stored."""
    from ..provenance import git_describe, package_versions
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        doc = write_spec(out, spec)
        if doc.get("complete"):
            return doc
    t0 = time.perf_counter()
    study = open_study(spec, out)
    ev = Evaluator(spec, out, jobs)
    bar = _bar(spec, spent_hands(spec, study.trials), progress)
    try:
        stopped = search(spec, study, ev, bar, on_rung)
    finally:
        bar.close()
    records = trial_records(spec, study)
    final = final_stage(spec, finalists(spec, records), out, jobs)
    doc = {"kind": KIND, "spec": json.loads(json.dumps(asdict(spec))), "complete": True, "stopped": stopped,
           "seeds": {"search": [spec.seed], "final": [spec.final_seed]}, "trials": records, **final,
           "hands_search": records[-1]["spent"] if records else 0, "seconds": time.perf_counter() - t0,
           "git": git_describe(), "versions": package_versions()}
    if out is not None:
        store.write_study(out, FILE, doc)
    return doc


def _bar(spec: TuneSpec, initial: int, progress: bool | None):
    show = sys.stderr.isatty() if progress is None else progress
    if not show:
        from ..progress import NoBar
        return NoBar()
    from tqdm import tqdm
    return tqdm(total=spec.budget, initial=initial, unit="hand", unit_scale=True, file=sys.stderr,
                desc=f"tune {spec.family} ({spec.variant})", smoothing=0.1)


def load_tune(path) -> dict:
    """A complete stored tuning run (reports never re-simulate)."""
    doc = store.read_study(Path(path), FILE)
    if not doc.get("complete"):
        raise store.StoreError(f"{path}: the tuning run did not finish; rerun its command to resume it")
    return doc


__all__ = ["KIND", "OBJECTIVES", "TuneSpec", "build_spec", "run_tune", "load_tune", "fresh_seed"]
