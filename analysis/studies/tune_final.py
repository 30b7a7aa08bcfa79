"""The finalists of a tuning run re-played on fresh deals (:mod:`.tune`), and its winner.

Every finalist and every field member play the same ``final_hands`` duplicate hands of the
fresh seed (one arms job per field member: the finalists against that member, and the member
against itself).  A finalist's edge against a member is the paired difference of seat 0's
result on those hands (:data:`FINAL_METHOD`).  The winner is the finalist with the best mean
edge over the field there (objective ``worst-gain``: the best least gain over the base preset,
which then plays those hands too); since it is chosen on the same hands, each edge also gets a
Bonferroni interval simultaneous over every finalist and member, which covers the winner's
edges whichever finalist won.
"""

from __future__ import annotations

from pathlib import Path

from ..jobs import ArmsJob, run_job
from ..stats import mean_from_moments, mean_se, t_quantile
from .sweep_stats import ALPHA, pair_moments
from .tune_spec import TuneSpec, focus

FINAL_METHOD = ("edge = seat 0's result per hand playing the candidate against the member in every other seat, "
                "minus the member playing itself there, paired on the same fresh duplicate deals (95% t "
                "interval of the per-hand differences); simultaneous: Bonferroni over every finalist x member; "
                "mean over the field: the mean edge, its interval the mean of the members' half-widths "
                "(conservative: the members share deals)")
GAIN_METHOD = ("gain = the finalist's result minus the base preset's, paired on the same fresh deals against "
               "each member (95% t interval); worst gain: the least of them, with that member's interval")


def final_stage(spec: TuneSpec, fins: list[dict], out: Path | None, jobs: int) -> dict:
    """Replay ``fins`` (trial records) on the fresh seed; the finalists with their edges and the winner."""
    strategies = [spec.candidate(t["params"]) for t in fins]
    k, m = len(fins), len(fins) * len(spec.field)
    gains = spec.objective == "worst-gain"
    extra = [spec.base_strategy()] if gains else []   # arm k + 1: the base preset
    rows = [{"number": t["number"], "params": t["params"], "spec": s.spec, "search_value": t["rungs"][-1]["value"],
             "search_hands": t["rungs"][-1]["hands"], "edges": []} for t, s in zip(fins, strategies)]
    for i, f in enumerate(spec.field):
        arms = [spec.arm(s, f, spec.final_hands, spec.final_seed) for s in strategies]
        arms.append(spec.arm(f, f, spec.final_hands, spec.final_seed))
        arms += [spec.arm(s, f, spec.final_hands, spec.final_seed) for s in extra]
        pairs = [(j, k) for j in range(k)] + [(j, k + 1) for j in range(k) if gains]
        r = run_job(ArmsJob(arms, pairs, f"finalists vs {f}"), jobs=jobs,
                    out_dir=out / "final" / f"f{i}" if out is not None else None, progress=False)
        if not r.complete:
            raise KeyboardInterrupt
        name, scale = focus(arms[0])
        for j in range(k):
            mom, nz = pair_moments(r.total, j, k, name)
            e = mean_from_moments(*mom).scaled(scale)
            mean, se = mean_se(*mom)
            h = t_quantile(mom[0] - 1, 1 - ALPHA / m) * se * scale
            rows[j]["edges"].append({"opponent": f, "edge": e.value, "lo": e.lo, "hi": e.hi, "n": e.n,
                                     "sim_lo": e.value - h, "sim_hi": e.value + h, "hands_differing": nz})
            if gains:
                g = mean_from_moments(*pair_moments(r.total, j, k + 1, name)[0]).scaled(scale)
                rows[j].setdefault("gains", []).append({"opponent": f, "edge": g.value, "lo": g.lo, "hi": g.hi,
                                                        "n": g.n})
    for row in rows:
        es = row["edges"]
        half = sum((x["hi"] - x["lo"]) / 2 for x in es) / len(es)
        mean = sum(x["edge"] for x in es) / len(es)
        row["mean"] = {"edge": mean, "lo": mean - half, "hi": mean + half, "n": es[0]["n"]}
        if gains:
            row["worst_gain"] = min(row["gains"], key=lambda x: x["edge"])
    key = "worst_gain" if gains else "mean"
    best = max(range(k), key=lambda j: (rows[j][key]["edge"], -rows[j]["number"])) if rows else None
    return {"finalists": rows, "winner": best, "method": FINAL_METHOD + ("; " + GAIN_METHOD if gains else "")}


def winner(doc: dict) -> dict:
    """The winning finalist's row of a tuning run's document."""
    return doc["finalists"][doc["winner"]]
