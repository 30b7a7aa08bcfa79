"""Report section of a knock-equilibrium study (``equilibrium.json``): when to knock against whom.
2 players: the payoff matrix as a heatmap beside the equilibrium weights, the matrix with its
CIs, the equilibrium and its robustness; 3+ players: best-response iteration on a homogeneous
field; both: the best response to each preset."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.variants import get_variant

from ..studies.equilibrium_text import MIRROR, equilibrium_answer, mirror, summarize
from ..studies.knock_equilibrium import KIND, load_equilibrium
from .figures import finish, label_axes, new_figure, yerr
from .html import digits, esc, html_table, kv_table, params_text
from .registry import RunSection, section

METHODS = """
<p><strong>Knock equilibrium.</strong> A tournament among knock policies: each single threshold (one
threshold all hand long), the game's presets and the base strategy; identical policies are merged.
Every policy plays every other on the <em>same</em> deals with each policy in each seat (with more
players: the candidate in each seat in turn, the field policy in all the others), so the deal's luck and
the seat's advantage cancel. The measure is the game's declared focus: the score per hand, or for games
whose hand scores are not zero-sum the net points against the field (the average opponent).
A table of one policy alone nets exactly 0, so it is not played.</p>
<p><strong>Best responses.</strong> Against each opponent the best response is the policy with the
highest mean (95% t interval, n deals). The policies the data cannot tell from it are those whose
one-sided paired t test against the selected best is not significant at 5%/(K−1) (Bonferroni over the
K−1 others): the set holds the true best with probability at least 95%. The best's own interval is
computed on the deals that selected it, so it is optimistic by the selection.</p>
<p><strong>Equilibrium (2 players).</strong> A[i, j] is policy i's mean against policy j with seats
swapped; deal by deal it is the negative of A[j, i], so A is antisymmetric (the matrix is symmetrised as
(A − Aᵀ)/2, which changes it only by rounding). This symmetric zero-sum game is solved by linear
programming (maximise v subject to Aᵀx ≥ v, Σx = 1, x ≥ 0; HiGHS): its value is 0 and x is an
equilibrium mix (one of them if several exist). Robustness: the game re-solved on the even and on the
odd deals (two independent halves), and with each policy's payoffs moved up and down by their CI
half-widths; the mix is also played against every policy, with the CI of each result.</p>
<p><strong>Best-response iteration (3+ players).</strong> Starting from the base strategy as the field
(every other seat), the field switches to the best response until the field is in its own
“cannot tell from best” set (a fixed point, within noise) or a best response repeats an earlier field
(a cycle).</p>
"""


def _tick(name: str) -> str:
    return name.replace("<=", "≤").replace(">=", "≥")


@section(KIND, file="equilibrium.json", methods=METHODS)
def equilibrium_section(folder: Path, anchor: str) -> RunSection:
    res = load_equilibrium(folder)
    d = summarize(res)
    v = get_variant(d["variant"])
    act = v.knob.action
    sec = RunSection(KIND, str(folder), anchor, f"{v.name}, {d['players']} players: when to {act} against "
                     f"whom — best responses and equilibrium — {folder.name}")
    sec.game, sec.answer, sec.group = d["variant"], equilibrium_answer(d), "knock"
    sec.question = f"{v.name}, {d['players']} players: when to {act} against stronger players, and at equilibrium?"
    body = sec.body
    body.append(f"<p class=\"lead\"><strong>{esc(_tick(d['answer'][0]))}</strong></p>")
    body.append("<ul>" + "".join(f"<li>{esc(_tick(s))}</li>" for s in d["answer"][1:]) + "</ul>")
    body.append(f"<p>{len(d['policies'])} policies; {d['hands_per_seating']:,} deals per seating, every policy "
                f"in every seat on the same deals; seed {d['seed']}; measure: {esc(d['measure'])}.</p>")
    if "matrix" in d:
        body.append(f"<h3 id=\"{anchor}-matrix\">Payoff matrix and equilibrium</h3>")
        body.append(_heatmap(f"{anchor}-matrix", d, v))
        body += [_matrix_table(d), _equilibrium_table(d), _robustness(d)]
    else:
        body.append(f"<h3 id=\"{anchor}-iteration\">Best-response iteration</h3>")
        body.append(_fields_figure(f"{anchor}-fields", d, res, v))
        body.append(_br_table(d["iteration"]["steps"], "field (every other seat)",
                              f"Best-response iteration from {esc(d['iteration']['start'])}: "
                              f"{esc(d['iteration']['outcome'])}."))
    body.append(f"<h3 id=\"{anchor}-best\">Best response to each preset</h3>")
    body.append(_br_table(d["best_responses"], "opponent", f"Cannot tell from best: {esc(d['method'])}."))
    stage = next(iter(res.stages.values()))
    sec.methods.append(kv_table([
        ("variant", esc(v.name)), ("players", str(d["players"])),
        ("policies", esc("; ".join(f"{p['name']}: {p['spec']}" for p in d["policies"]))),
        ("deals per seating", f"{d['hands_per_seating']:,}"), ("seed", str(d["seed"])),
        ("rules", esc(params_text({"rules": d["rules"]}) if d["rules"] else "defaults")),
        ("measure", esc(d["measure"])),
        ("git", f"<code>{esc(stage.get('git'))}</code>"),
        ("versions", esc(params_text(stage.get("versions") or {}))),
    ], caption=f"{folder.name}: what was run"))
    return sec


def _heatmap(name: str, d: dict, v):
    from matplotlib.patches import Patch, Rectangle
    m = d["matrix"]
    a, h = np.array(m["payoff"]), np.array(m["half_width"])
    labels = [_tick(p["name"].split(" (")[0]) for p in d["policies"]]
    n = len(a)
    w = np.array([d["equilibrium"]["weights"].get(p["name"], 0.0) for p in d["policies"]])
    fig = new_figure(max(8.0, 4.0 + 0.5 * n), max(5.0, 2.6 + 0.38 * n))
    ax, axw = fig.subplots(1, 2, sharey=True, width_ratios=[n, max(2.5, 0.2 * n)])
    lim = float(np.abs(a).max()) or 1.0
    im = ax.imshow(a, cmap="RdBu", vmin=-lim, vmax=lim)
    if n <= 16:
        dg = digits(a[a != 0].ravel().tolist(), sig=2, lo=1, hi=3)
        for i in range(n):
            for j in range(n):
                if i != j:
                    ax.text(j, i, f"{a[i, j]:+.{dg}f}", ha="center", va="center", fontsize=7 if n > 10 else 8,
                            color="white" if abs(a[i, j]) > 0.6 * lim else "black")
    for i, j in ((i, j) for i in range(n) for j in range(n) if i != j and abs(a[i, j]) <= h[i, j]):
        ax.add_patch(Rectangle((j - 0.45, i - 0.45), 0.9, 0.9, fill=False, edgecolor="#555555", ls=":", lw=1))
    rows = [p["name"] for p in d["policies"]]
    ax.scatter([j + 0.3 for j in range(n)], [rows.index(b) - 0.3 for b in m["best_response"]], marker="*",
               s=45, color="gold", edgecolors="black", linewidths=0.5, zorder=3, label="best response to the column")
    ax.set_xticks(range(n), labels, rotation=90)
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("policy (row)")
    ax.set_title(f"A[row, column]: {d['measure']}", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label=f"row's mean against column ({v.score_unit} per hand)")
    axw.barh(range(n), w, color="tab:orange", label="equilibrium weight")
    for k in np.flatnonzero(w):
        axw.text(min(w[k] + 0.03, 0.75), k, f"{w[k]:.2f}", va="center", fontsize=8)
    axw.set_xlim(0, 1)
    axw.set_xlabel("equilibrium weight")
    axw.set_ylabel("policy (row)")
    axw.set_title("equilibrium mix (LP)", fontsize=9)
    axw.tick_params(labelleft=False)
    axw.grid(axis="x", alpha=0.3)
    handles = [Patch(fill=False, edgecolor="#555555", ls=":", label="95% CI contains 0")] + [
        hh for axx in (ax, axw) for hh in axx.get_legend_handles_labels()[0]]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=8)
    fig.suptitle(f"{v.name}: payoff matrix of the knock policies (seats swapped, same deals)", fontsize=11)
    return finish(fig, name, "Each cell: the row policy's mean against the column policy, seats swapped, on the "
                  "same deals; dotted squares: the 95% CI contains 0; stars: the best response to each column. "
                  "Right: the weights of the equilibrium mix.", [ax, axw])


def _fields_figure(name: str, d: dict, res, v):
    labels = [_tick(p["name"].split(" (")[0]) for p in d["policies"]]
    n = len(labels)
    fig = new_figure(max(7.5, 3.0 + 0.45 * n), 4.6)
    ax = fig.subplots()
    x = np.arange(n)
    for k, (p, fs) in enumerate(res.fields.items()):
        es = [fs.value(q) for q in range(n)]
        y = np.array([e.value for e in es])
        off = (k - (len(res.fields) - 1) / 2) * 0.08
        line = ax.errorbar(x + off, y, yerr=yerr(y, [e.lo for e in es], [e.hi for e in es]), marker="o", ms=3,
                           capsize=2, lw=1, label=f"field: {_tick(d['policies'][p]['name'])}")
        b = int(np.argmax(y))
        ax.plot([b + off], [y[b]], marker="*", ms=12, color=line[0].get_color(), markeredgecolor="black")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(x, labels, rotation=45, ha="right")
    label_axes(ax, "policy in one seat (every other seat plays the field)", f"mean {d['measure']}")
    fig.suptitle(f"{v.name}, {d['players']} players: each policy against each field played (★ best response, "
                 "bars: 95% CI)", fontsize=11)
    return finish(fig, name, "Each curve: every policy's mean against a table of one field policy, the "
                  "candidate in each seat in turn on the same deals; the star marks the best response.", [ax])


def _est(e: dict, dg: int = 3) -> str:
    lo, hi = e["ci95"]
    return f"{e['value']:+.{dg}f} <span class=\"ci\">[{lo:+.{dg}f}, {hi:+.{dg}f}]</span>"


def _br_table(rows: list[dict], first: str, caption: str) -> str:
    cells = [[esc(_tick(r.get("opponent", r["field"]))), esc(_tick(r["best"])),
              MIRROR if mirror(r) else _est(r["mean"]), f"{r['mean']['n']:,}",
              esc(_tick(", ".join(n for n in r["indistinguishable"] if n != r["best"]) or "—"))] for r in rows]
    return html_table([first, "best response", "mean [95% CI]", "n deals", "cannot tell from best"], cells,
                      caption=caption, numeric={2, 3})


def _matrix_table(d: dict) -> str:
    m = d["matrix"]
    a, h = np.array(m["payoff"]), np.array(m["half_width"])
    short = [esc(_tick(p["name"].split(" (")[0])) for p in d["policies"]]
    dg = digits(a[a != 0].ravel().tolist(), sig=2, lo=1, hi=3)
    rows = []
    for i, s in enumerate(short):
        rows.append([f"<strong>{s}</strong>"] + [
            "0" if i == j else
            f"{'★' if m['best_response'][j] == d['policies'][i]['name'] else ''}{a[i, j]:+.{dg}f}"
            f"<br><span class=\"ci\">±{h[i, j]:.{dg}f}</span>" for j in range(len(short))])
    return html_table(["row \\ column"] + short, rows, numeric=set(range(1, len(short) + 1)),
                      caption=f"A[row, column] ± its 95% CI half-width ({esc(d['measure'])}, "
                              f"n = {d['hands_per_seating']:,} deals per cell, each in both seats); ★ best response "
                              f"to the column. Before symmetrising, max |A + Aᵀ| = {m['asymmetry_max']:.2g}.")


def _equilibrium_table(d: dict) -> str:
    eq = d["equilibrium"]
    rows, classes = [], []
    for r in eq["against"]:
        w = eq["weights"].get(r["policy"], 0.0)
        rows.append([esc(_tick(r["policy"])), f"{w:.3f}" if w else "—", _est(r["mean"])])
        classes.append("best" if w else "")
    return html_table(["policy", "equilibrium weight", "the mix against this policy [95% CI]"], rows, classes,
                      caption=f"The equilibrium mix (value {eq['value']:+.3f}) and its mean against every "
                              f"policy: at or above 0 everywhere up to noise.", numeric={1, 2})


def _robustness(d: dict) -> str:
    eq = d["equilibrium"]
    p = eq["perturbed"]
    halves = ["; ".join(f"{esc(_tick(n))} {w:.2f}" for n, w in h.items()) for h in eq["halves"]]
    r = eq["best_reply"]
    verdict = "it beats the mix" if r["beats_mix"] else "no policy is shown to do better"
    return (f"<p><strong>How robust.</strong> Out of sample ({esc(r['method'])}) the best reply, "
            f"{esc(_tick(r['policy']))}, gains {_est(r['gain'])} against the mix: {verdict}. "
            f"Equilibrium of the even deals: {halves[0]}; of the odd deals: "
            f"{halves[1]}. Moving each policy's payoffs by ± their CI half-widths ({p['games']} games) changed "
            f"the support in {p['support_changed']}; policies in some support: "
            f"{esc(_tick(', '.join(p['in_some_support'])))}; largest shift of the mix (total variation) "
            f"{p['max_tv']:.2f}.</p>")
