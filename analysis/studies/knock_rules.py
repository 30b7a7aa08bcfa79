"""How house rules move the best knock threshold: one knock sweep per rule setting.

``rummylab knock-rules --variant knock-rummy --players 4 --vary knocker_penalty=0,10,20
--vary rummy_bonus=0,25,50`` runs the ``overall`` stage of a knock sweep
(:mod:`analysis.studies.knock_sweep`) for the game's default rules and for each listed value
of each varied rule, one rule at a time (the others at their defaults, plus any ``--rule``).
Every setting uses the same seed, so hand ``i`` is the same deal in every arm of every setting
(common random numbers across thresholds; settings are compared threshold by threshold).

Per setting the table gives the best threshold, the set of thresholds not shown worse than
the best by multiple comparisons with the best (family-wise 95% within the setting,
:data:`analysis.studies.sweep_stats.BEST_METHOD`: a confidence statement about where the best
lies, not a single number), and the best arm's mean score with its CI.  Folder layout: ``knock_rules.json`` (kind ``knock_rules``) and one
sweep folder per setting, ``s0``, ``s1``, ...
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from sim.variants import get_variant

from .. import store
from . import spec_doc
from ..progress import study_progress
from ..errors import SweepError
from ..wording import ci_text, players_of, span
from .knock_sweep import SweepSpec, load_sweep, run_sweep, sweep_table

KIND = "knock_rules"
FILE = "knock_rules"


@dataclass(frozen=True)
class RulesStudy:
    base: SweepSpec                                   # thresholds, hands, seed, players, rules
    vary: tuple[tuple[str, tuple[str, ...]], ...]     # (rule, values) varied one at a time

    def settings(self) -> list[tuple[str, tuple[str, ...]]]:
        """(label, rules) per setting: the defaults first, then each varied value."""
        defaults = {f.name: f.default for f in self.base.game.rules_cls.options()}
        given = dict(r.split("=", 1) for r in self.base.rules)
        out = [("defaults", tuple(self.base.rules))]
        for name, values in self.vary:
            if name not in defaults:
                raise SweepError(f"{self.base.variant} has no rule {name!r}; see `rummylab variants`")
            if name in given:
                raise SweepError(f"rule {name} is both fixed with --rule and varied with --vary")
            for v in values:
                rules = tuple(self.base.rules) + (f"{name}={v}",)
                replace(self.base, rules=rules).spec_for(self.base.base(), 1)   # validates the value
                if str(v) == _text(defaults[name]):
                    continue  # the defaults row already covers it
                out.append((f"{name}={v}", rules))
        return out

    def check(self) -> None:
        if not self.vary:
            raise SweepError("give at least one --vary RULE=v1,v2,...")
        self.base.check()
        self.settings()


def _text(default) -> str:
    if isinstance(default, bool):
        return "on" if default else "off"
    return str(default)


def parse_vary(text: str) -> tuple[str, tuple[str, ...]]:
    """'knocker_penalty=0,10,20' -> ('knocker_penalty', ('0', '10', '20'))."""
    if "=" not in text:
        raise SweepError(f"--vary {text!r}: write RULE=v1,v2,..., e.g. knocker_penalty=0,10,20")
    name, vals = text.split("=", 1)
    values = tuple(v.strip() for v in vals.split(",") if v.strip())
    if not values:
        raise SweepError(f"--vary {text!r}: give at least one value")
    return name.strip(), values


def run_rules_study(study: RulesStudy, *, out_dir=None, jobs: int = -1, progress=None, **backend):
    """Run (or reuse) one overall sweep per setting; returns (table, complete).  ``backend``:
    ``backend=``/``scheduler=`` as :func:`run_sweep`."""
    study.check()
    out = Path(out_dir) if out_dir is not None else None
    doc = {"kind": KIND, "base": spec_doc(study.base), "vary": [[n, list(v)] for n, v in study.vary]}
    if out is not None:
        store.claim(out, (f"{FILE}.json",), "knock-rules study")
        if (out / f"{FILE}.json").exists():
            stored = store.read_study(out, FILE)    # a finished study also holds its settings
            if {k: stored.get(k) for k in doc} != _jsonable(doc):
                raise store.StoreError(f"{out} holds a different knock-rules study; choose a new folder")
        else:
            store.write_study(out, FILE, doc)
    results = []
    settings = [(label, replace(study.base, rules=rules, by_turn=False)) for label, rules in study.settings()]
    # one bar over every setting's hands (whole games play at another speed: then a bar per run)
    work = sum(spec.hands * len(spec.overall_arms()) for _, spec in settings)
    bar = (study_progress(work, "hand", f"knock-rules {study.base.variant}, {len(settings)} settings", progress)
           if not any(spec.games for _, spec in settings) else nullcontext())
    with bar:
        for k, (label, spec) in enumerate(settings):
            res = run_sweep(spec, out_dir=(out / f"s{k}") if out else None, jobs=jobs, progress=progress, **backend)
            if not res.complete:
                return None, False
            results.append((label, res))
    table = rules_table(results)
    if out is not None:
        store.write_study(out, FILE, {**doc, "settings": [[lab, f"s{k}"] for k, (lab, _) in enumerate(results)],
                                      "complete": True})
    return table, True


def _jsonable(doc: dict) -> dict:
    import json
    return json.loads(json.dumps(doc))


def load_rules_study(path) -> list[tuple[str, object]]:
    """The stored sweeps of a finished study, (label, SweepResult) per setting."""
    out = Path(path)
    doc = store.read_study(out, FILE)
    if not doc.get("complete"):
        raise store.StoreError(f"{out}: the knock-rules study did not finish; rerun the same command to resume it")
    return [(label, load_sweep(out / sub)) for label, sub in doc["settings"]]


def rules_table(results) -> pd.DataFrame:
    """Per setting: best threshold, the thresholds not shown worse than it (MCB), the best arm's
    mean (per hand; games: games won) with its CI and n."""
    rows = []
    for label, res in results:
        t = sweep_table(res.spec, res.overall)
        best = t[t["best"]].iloc[0]
        same = t.loc[t["indistinguishable"], "threshold"].tolist()
        row = {"setting": label, "best": int(best["threshold"]), "indistinguishable": same,
               "mean": best["mean"], "mean_lo": best["mean_lo"], "mean_hi": best["mean_hi"], "n": int(best["n"])}
        if res.games:
            g = sweep_table(res.spec, res.games, mode="games")
            gb = g[g["best"]].iloc[0]
            row.update(games_best=int(gb["threshold"]),
                       games_indistinguishable=g.loc[g["indistinguishable"], "threshold"].tolist())
        rows.append(row)
    return pd.DataFrame(rows)


def format_rules_table(table: pd.DataFrame, unit: str) -> str:
    lines = [f"{'setting':<24}{'best':>5}  {'cannot tell from best':<24}{'mean ' + unit + '/hand at best [95% CI]':<36}"
             + ("games: best (cannot tell)" if "games_best" in table else "")]
    for r in table.itertuples():
        same = _span(r.indistinguishable)
        line = f"{r.setting:<24}{r.best:>5}  {same:<23} {r.mean:+.3f} [{r.mean_lo:+.3f}, {r.mean_hi:+.3f}]".ljust(89)
        if "games_best" in table:
            line += f"{r.games_best} ({_span(r.games_indistinguishable)})"
        lines.append(line)
    lines.append("cannot tell from best: thresholds not shown worse than the best by multiple comparisons "
                 "with the best (family-wise 95% per setting)")
    return "\n".join(lines)


def _span(values) -> str:
    """Thresholds as compact text: runs of three or more as ``a..b`` (``30..41,43``)."""
    return span(values, "..", ",")


# ----------------------------------------------------------------------------------------
# the study's answer in sentences (analysis.wording has the words)

def knock_rules_answer(results) -> list[str]:
    """How rule options move the best threshold: per setting, the best and the mean there."""
    return rules_table_answer(results[0][1].spec, rules_table(results))

def rules_table_answer(spec0, t) -> list[str]:
    """:func:`knock_rules_answer` from the study's table (``rules_table``) and its base spec."""
    game = get_variant(spec0.variant)
    parts = [f"{r.setting}: {r.best} ({ci_text(r.mean, r.mean_lo, r.mean_hi, 2, test=False)}; cannot tell "
             f"from {span(list(r.indistinguishable))})" for r in t.itertuples()]
    return [f"{spec0.variant}, {players_of(spec0)} players: the best {game.knob.action} threshold by rule setting "
            f"(mean {game.score_unit} per hand at the best, n = {spec0.hands:,} hands per threshold): "
            + "; ".join(parts) + "."]
