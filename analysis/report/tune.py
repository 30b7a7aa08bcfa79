"""Report section of a tuning run (``tune.json``, :mod:`analysis.studies.tune`): the search's
estimates against the hands spent, the winner's parameters against the defaults, and the
finalists' edges against each field member on fresh deals.  Reads the stored run only."""

from __future__ import annotations

from pathlib import Path

from sim.strategies import FAMILIES, PRESETS, _load_families
from sim.variants import get_variant

from ..stats import Estimate
from ..studies.tune import KIND, load_tune
from ..studies.tune_final import FINAL_METHOD, winner
from .figures import finish, new_figure, yerr
from .html import esc, est_html, html_table, kv_table
from .registry import RunSection, section

METHODS = ("<p><strong>Tuning.</strong> A candidate is the family's base preset with the searched parameters "
           "set. Its edge against a field member is seat 0's result per hand playing the candidate against that "
           "member in every other seat, minus the member playing itself there, on the same duplicate deals (every "
           "deal once per position, so seat and deal luck cancel); the objective is the mean edge over the field, or "
           "(<code>--objective worst-gain</code>) the least gain over the base preset against any one member. "
           "Optuna's TPE sampler (seeded from the run's seed, re-seeded per trial so a resumed run proposes the "
           "same) proposes candidates; its successive-halving pruner plays every candidate on the first rung's "
           "hands and lets the best third of those that reached a rung go on to 3&times; more hands. All "
           "candidates play the same deals, so the search's numbers rank them on common random numbers but are "
           "selection-biased. The finalists (the deepest, best first) are re-played on fresh deals of a seed the "
           "search never played; the winner and its edges come from those deals only: " + FINAL_METHOD + ".</p>")


def _est(x: dict) -> Estimate:
    return Estimate(x["edge"], x["lo"], x["hi"], x["n"])


def _objective(doc: dict) -> tuple[str, dict]:
    """The run's objective in words and the winner's estimate of it on the fresh deals."""
    w = winner(doc)
    if doc["spec"].get("objective", "mean") == "worst-gain":
        return f"least gain over {doc['spec']['base']} against a field member", w["worst_gain"]
    return "mean edge over the field", w["mean"]


@section(KIND, file="tune.json", methods=METHODS)
def tune_section(folder: Path, anchor: str) -> RunSection:
    doc = load_tune(folder)
    sp = doc["spec"]
    sec = RunSection(KIND, str(folder), anchor, f"Tuning {sp['family']} for {sp['variant']}, {sp['players']} "
                                                f"players — {folder.name}")
    w = winner(doc)
    what, est = _objective(doc)
    sec.body.append(f"<p>{len(doc['trials'])} candidates searched over {esc(', '.join(n for n, *_ in sp['params']))} "
                    f"against {esc(', '.join(sp['field']))}: {doc['hands_search']:,} of a {sp['budget']:,}-hand "
                    f"budget (seed {doc['seeds']['search'][0]}); {len(doc['finalists'])} finalists re-played on "
                    f"{sp['final_hands']:,} fresh duplicate hands per field member (seed {doc['seeds']['final'][0]}). "
                    f"Winner: trial {w['number']}, <code>{esc(w['spec'])}</code>, {esc(what)} "
                    f"{est_html(_est(est), 3, sign=True)} per hand.</p>")
    sec.body.append(_figure(f"{anchor}-search", doc))
    sec.body.append(_params_table(doc))
    sec.body.append(_field_table(doc))
    sec.methods.append(kv_table([(k, esc(str(v))) for k, v in sp.items()]
                                + [("git", esc(str(doc.get("git")))), ("seconds", f"{doc.get('seconds', 0):.0f}")],
                                caption=f"{folder.name}: what was run"))
    return sec


def _params_table(doc: dict) -> str:
    _load_families()
    sp = doc["spec"]
    fam = FAMILIES[sp["family"]]
    base = PRESETS.get((sp["variant"], sp["base"]), (fam, {}))[1]
    w = winner(doc)["params"]
    rows = []
    for name, lo, hi, _ in sp["params"]:
        p = fam.params[fam.index(name)]
        b = base.get(name, p.default)
        rows.append([f"<code>{esc(name)}</code>", f"{p.default:g}", f"{b:g}", f"<strong>{w[name]:g}</strong>",
                     f"[{lo:g}, {hi:g}]", esc(p.help)])
    return html_table(["parameter", "family default", f"base ({esc(sp['base'])})", "winner", "range searched", "meaning"],
                      rows, caption="The winner's parameters against the defaults (unsearched parameters keep "
                                    "the base preset's values).", numeric={1, 2, 3})


def _field_table(doc: dict) -> str:
    rows, cls = [], []
    for j, f in enumerate(doc["finalists"]):
        gains = [{**g, "opponent": f"gain over {doc['spec']['base']} vs {g['opponent']}"} for g in f.get("gains", ())]
        for x in f["edges"] + [{"opponent": "mean over the field", **f["mean"]}] + gains:
            sim = f"[{x['sim_lo']:+.3f}, {x['sim_hi']:+.3f}]" if "sim_lo" in x else "&ndash;"
            rows.append([f"trial {f['number']}" + (" (winner)" if j == doc["winner"] else ""),
                         f"<code>{esc(x['opponent'])}</code>", est_html(_est(x), 3, sign=True), sim, f"{x['n']:,}"])
            cls.append("best" if j == doc["winner"] else "")
    return html_table(["finalist", "against", "edge per hand [95% CI]", "simultaneous", "n"], rows, cls,
                      caption="Each finalist's edge against each field member on the fresh deals (paired).",
                      numeric={2, 3, 4})


def _figure(name: str, doc: dict):
    sp = doc["spec"]
    fig = new_figure(8.0, 3.6)
    ax = fig.subplots()
    spent = [t["spent"] for t in doc["trials"] if t["rungs"]]
    value = [t["rungs"][-1]["value"] for t in doc["trials"] if t["rungs"]]
    depth = [len(t["rungs"]) for t in doc["trials"] if t["rungs"]]
    for d in sorted(set(depth)):
        xs = [s for s, k in zip(spent, depth) if k == d]
        ys = [v for v, k in zip(value, depth) if k == d]
        ax.scatter(xs, ys, s=14, alpha=0.7, label=f"candidate, last rung {d} ({sp['min_hands'] * 3 ** (d - 1):,} hands)")
    best, run = float("-inf"), []
    for t in doc["trials"]:
        if len(t["rungs"]) == max(depth, default=0):
            best = max(best, t["rungs"][-1]["value"])
        run.append((t["spent"], best))
    run = [(s, b) for s, b in run if b > float("-inf")]
    ax.step([s for s, _ in run], [b for _, b in run], where="post", color="black", lw=1, label="best at the deepest rung so far (search estimate)")
    what, m = _objective(doc)
    ax.errorbar([doc["hands_search"]], [m["edge"]], yerr=yerr([m["edge"]], [m["lo"]], [m["hi"]]), fmt="D",
                color="tab:red", capsize=4, label="winner on fresh deals (95% CI)")
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    from matplotlib.ticker import FuncFormatter
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.set_xlabel("hands spent by the search")
    ax.set_ylabel(f"{what}, {get_variant(sp['variant']).score_unit}/hand", fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.suptitle(f"{sp['variant']}, {sp['players']} players: tuning {sp['family']} against "
                 f"{', '.join(sp['field'])}", fontsize=11)
    return finish(fig, name, f"Each candidate's {what} at the last rung it reached (the search's "
                  "own deals: ranks candidates, selection-biased), against the hands the search had spent; the "
                  "winner's edge re-measured on fresh deals.", [ax])
