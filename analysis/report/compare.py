"""Report section of a strategy comparison (``compare.json``, :mod:`analysis.studies.strategy_compare`):
each strategy against the reference by player count and rule setting, and what the rule
settings change."""

from __future__ import annotations

from pathlib import Path

from ..stats import Estimate
from ..studies.compare_stats import SETTING_METHOD, arm_table, compare_answer, diff_table, measure, setting_table, strategy_axis
from ..studies.strategy_compare import COMPARE_METHOD, KIND, cell_name, load_compare
from .figures import finish, label_axes, new_figure, yerr
from .html import digits, esc, est_html, html_table, kv_table, params_text
from .registry import RunSection, section

METHODS = """
<p><strong>Strategy comparisons.</strong> For every player count and rule setting, seat 0 plays each
listed strategy in turn against the same opponent in every other seat, on the <em>same</em> deals with
the same random numbers (common random numbers): only seat 0's strategy changes. Each strategy is
compared with the first (the reference) by the paired mean difference of seat 0's result per hand (its
score; in games whose hand scores are not zero-sum, its score minus the average other seat) with its 95%
t interval. All comparisons of the study form one family: a difference is called (better / worse) when
its Holm-adjusted p is below 0.05 (family-wise 95% over the m comparisons), and each also gets a
Bonferroni simultaneous interval (t quantile at 1 − 0.05/m) that holds for all m together. Rule settings
are compared on the reference arm's hand length and points per hand (the points that change hands: the
positive scores, or in penalty games the penalties) and on each strategy's difference, by Welch intervals
of two means (conservative where a setting leaves the deals unchanged, since every setting plays on the
same seed).</p>"""


@section(KIND, file="compare.json", methods=METHODS)
def compare_section(folder: Path, anchor: str) -> RunSection:
    res = load_compare(folder)
    spec = res.spec
    unit = spec.game.score_unit
    sec = RunSection(KIND, str(folder), anchor, f"Strategy comparison: {spec.variant} — {folder.name}")
    sec.game, sec.answer, sec.group = spec.variant, compare_answer(res), "melding"
    vary = "; ".join(f"{n} = {', '.join(v)}" for n, v in spec.vary)
    sec.question = (f"{spec.variant}, {', '.join(map(str, spec.player_counts()))} players: how do "
                    f"{', '.join(spec.strategies[1:])} do against {spec.strategies[0]}"
                    + (f", with {vary}" if vary else "") + "?")
    body = sec.body
    words = measure(res, cell_name(*spec.cells()[0]))[2]
    d = diff_table(res)
    called = d[d["call"].isin(["better", "worse"])]
    body.append(f"<p>{esc(spec.variant.capitalize())}: seat 0 plays {esc(', '.join(spec.strategies))} "
                f"(reference <code>{esc(spec.strategies[0])}</code>) against <code>{esc(spec.opponent)}</code> "
                f"in every other seat; players {esc(', '.join(map(str, spec.player_counts())))}; rule settings: "
                f"{esc('; '.join(', '.join(s) or 'as given' for s in spec.settings()))}; {spec.hands:,} deals per "
                f"cell, the same for every strategy; seed {spec.seed}. Measure: {esc(words)}. "
                f"{len(called)} of {len(d)} differences are called (Holm, family-wise 95%).</p>")
    body.append(f"<h3 id=\"{anchor}-diff\">Each strategy minus {esc(spec.strategies[0])}, same deals</h3>")
    body.append(_diff_figure(f"{anchor}-diff", d, spec, unit))
    axis = strategy_axis(spec)
    if axis is not None:
        body.append(f"<h3 id=\"{anchor}-profile\">Along <code>{esc(axis[0])}</code></h3>")
        body.append(_profile_figure(f"{anchor}-profile", d, spec, unit, axis))
    dd = digits(list(d["diff"]), sig=2, lo=2, hi=4)
    rows, cls = [], []
    for r in d.itertuples():
        rows.append([str(r.players), esc(r.setting), f"<code>{esc(r.strategy)}</code>",
                     est_html(Estimate(r.diff, r.lo, r.hi, r.n), dd, sign=True),
                     f"[{r.sim_lo:+.{dd}f}, {r.sim_hi:+.{dd}f}]", f"{r.p_holm:.4f}", f"{r.n:,}",
                     f"{r.hands_differing:,}", esc(r.call)])
        cls.append("best" if r.call == "better" else "")
    body.append(html_table(["players", "setting", "strategy", f"difference, {unit}/hand [95% CI]",
                            "simultaneous (Bonferroni)", "p (Holm)", "n", "hands differing", "call"], rows, cls,
                           caption=esc(f"{COMPARE_METHOD} (m = {len(d)})."), numeric={0, 3, 4, 5, 6, 7}))
    body.append(f"<h3 id=\"{anchor}-arms\">Per arm</h3>")
    a = arm_table(res)
    ad = digits(list(a["result"]), sig=2, lo=2, hi=4)
    rows = [[str(r.players), esc(r.setting), f"<code>{esc(r.strategy)}</code>",
             est_html(Estimate(r.result, r.result_lo, r.result_hi, r.n), ad, sign=True),
             est_html(Estimate(r.win, r.win_lo, r.win_hi, r.n), 2, pct=True),
             est_html(Estimate(r.turns, r.turns_lo, r.turns_hi, r.n), 2),
             est_html(Estimate(r.points, r.points_lo, r.points_hi, r.n), 2), f"{r.n:,}"] for r in a.itertuples()]
    body.append(html_table(["players", "setting", "seat 0 strategy", f"{esc(words)} [95% CI]", "seat 0 wins hands",
                            "hand length, turns", f"{unit} changing hands per hand", "n"], rows,
                           caption="Every arm with 95% intervals (t for means, Wilson for rates).",
                           numeric={0, 3, 4, 5, 6, 7}))
    s = setting_table(res)
    if not s.empty:
        body.append(f"<h3 id=\"{anchor}-settings\">Rule settings against {esc(s['baseline'].iloc[0])}</h3>")
        body.append(_settings_figure(f"{anchor}-settings", s))
        rows = [[str(r.players), esc(r.setting), esc(r.quantity),
                 est_html(Estimate(r.value, r.value_lo, r.value_hi, r.n), 3, sign=True),
                 est_html(Estimate(r.baseline_value, r.baseline_lo, r.baseline_hi, r.n), 3, sign=True),
                 est_html(Estimate(r.diff, r.lo, r.hi, r.n), 3, sign=True)] for r in s.itertuples()]
        body.append(html_table(["players", "setting", "quantity", "this setting [95% CI]", "baseline [95% CI]",
                                "difference [95% CI]"], rows, caption=esc(SETTING_METHOD.capitalize() + "."),
                               numeric={0, 3, 4, 5}))
    sec.methods.append(kv_table([
        ("variant", esc(spec.variant)), ("strategies (seat 0)", esc(", ".join(spec.strategies))),
        ("opponent", esc(spec.opponent)), ("players", esc(", ".join(map(str, spec.player_counts())))),
        ("fixed rules", esc(params_text({"rules": list(spec.rules)}) if spec.rules else "defaults")),
        ("varied rules", esc("; ".join(f"{n} = {', '.join(v)}" for n, v in spec.vary) or "none")),
        ("deals per cell", f"{spec.hands:,}"), ("seed", str(spec.seed)),
        ("git", esc(", ".join(sorted({str(v.get("git")) for v in res.stages.values()})))),
    ], caption=f"{folder.name}: what was run"))
    return sec


def _diff_figure(name: str, d, spec, unit: str):
    """Each comparison as a point with its 95% interval (thick) and simultaneous interval (thin)."""
    import numpy as np
    fig = new_figure(8.0, 1.6 + 0.42 * len(d))
    ax = fig.add_subplot()
    y = np.arange(len(d))[::-1]
    colors = {"better": "tab:blue", "worse": "tab:red", "same": "#c8c8c8"}
    ax.errorbar(d["diff"], y, xerr=yerr(d["diff"], d["sim_lo"], d["sim_hi"]), fmt="none", ecolor="grey",
                capsize=3, lw=1, label="simultaneous interval (Bonferroni)")
    ax.errorbar(d["diff"], y, xerr=yerr(d["diff"], d["lo"], d["hi"]), fmt="none", ecolor="black", lw=2.5,
                label="95% CI (each on its own)")
    for call, sub in d.groupby("call"):
        ax.plot(sub["diff"], y[sub.index], "o", color=colors.get(call, "grey"), ms=7, label=f"call: {call}")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, [f"{r.players}p, {r.setting}: {r.strategy}" for r in d.itertuples()], fontsize=8)
    ax.set_xlabel(f"seat 0's result minus {spec.strategies[0]}, {unit} per hand (same deals)")
    ax.set_ylabel("players, rule setting: strategy")
    ax.legend(fontsize=8, loc="best")
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{spec.variant}: each strategy minus {spec.strategies[0]} (Holm calls, family-wise 95%)",
                 fontsize=11)
    return finish(fig, name, "Paired differences per player count and rule setting: thick bars 95% CIs, thin "
                  "bars simultaneous intervals for all comparisons together; colour: the Holm call.", [ax])


def _profile_figure(name: str, d, spec, unit: str, axis):
    """The difference to the reference against the one parameter the strategies vary: a line
    per player count, a panel per rule setting; filled markers are Holm-called differences."""
    param, xs = axis
    settings = list(dict.fromkeys(d["setting"]))
    fig = new_figure(max(7.5, 4.8 * len(settings)), 3.6)
    axes = fig.subplots(1, len(settings), squeeze=False, sharey=True).ravel()
    for ax, setting in zip(axes, settings):
        sub = d[d["setting"] == setting].assign(x=lambda t: t["strategy"].map(xs)).sort_values("x")
        for n, g in sub.groupby("players"):
            line = ax.errorbar(g["x"], g["diff"], yerr=yerr(g["diff"], g["lo"], g["hi"]), marker="o", capsize=3,
                               mfc="white", label=f"{n} players")
            called = g[g["call"].isin(["better", "worse"])]
            ax.plot(called["x"], called["diff"], "o", color=line[0].get_color())
        ax.axhline(0, color="black", lw=0.8)
        label_axes(ax, param, f"minus {spec.strategies[0]}, {unit}/hand", setting, title_size=9)
    fig.suptitle(f"{spec.variant}: seat 0's result against {spec.strategies[0]} along {param} (95% CIs)",
                 fontsize=11)
    return finish(fig, name, f"Paired difference to {spec.strategies[0]} (same deals) against {param}, by "
                  "player count and rule setting, with 95% CIs; filled markers: called by Holm (family-wise "
                  "95%).", list(axes))


def _settings_figure(name: str, s):
    """One panel per quantity: the difference each setting makes, by player count."""
    qs = list(dict.fromkeys(s["quantity"]))
    cols = min(2, len(qs))
    rows = -(-len(qs) // cols)
    fig = new_figure(4.6 * cols, 0.6 + 3.2 * rows)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[len(qs):]:
        ax.set_visible(False)
    axes = axes[:len(qs)]
    for ax, q in zip(axes, qs):
        sub = s[s["quantity"] == q]
        for setting, g in sub.groupby("setting", sort=False):
            ax.errorbar(g["players"], g["diff"], yerr=yerr(g["diff"], g["lo"], g["hi"]), marker="o", capsize=3,
                        label=setting)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(sorted(set(sub["players"])))
        label_axes(ax, "players", f"minus {sub['baseline'].iloc[0]}", q, title_size=9)
    fig.suptitle("What the rule setting changes (Welch 95% intervals)", fontsize=11)
    return finish(fig, name, "Each rule setting minus the first, by player count, with Welch 95% intervals.",
                  list(axes))
