"""Report section of a knock-rules study (``knock_rules.json``): how rule options move the best
knock threshold, from the stored sweeps (one per rule setting)."""

from __future__ import annotations

from pathlib import Path

from sim.variants import get_variant

from ..studies.knob import axis_label, when
from ..studies.knock_rules import KIND, load_rules_study, rules_table
from ..studies.knock_sweep import sweep_table
from .figures import finish, label_axes, new_figure, yerr
from .html import esc, html_table, kv_table, params_text
from .registry import RunSection, section
from ..studies.knock_rules import knock_rules_answer

METHODS = """
<p><strong>Rule settings.</strong> A knock-rules study runs the one-threshold sweep once per rule setting
(the defaults, then each varied value with the other rules at their defaults), all on the same seed: hand
<em>i</em> is the same deal in every threshold and every setting. Per setting, the thresholds not shown
worse than the best are listed as those the data cannot tell from the best: multiple comparisons with the
best, family-wise 95% within the setting (simultaneous intervals for each threshold minus the best of the
others from all-pairwise max-T bounds; see the knock sweep methods).</p>"""


@section(KIND, file="knock_rules.json", methods=METHODS)
def knock_rules_section(folder: Path, anchor: str) -> RunSection:
    results = load_rules_study(folder)
    spec0 = results[0][1].spec
    v = get_variant(spec0.variant)
    n = spec0.spec_for(spec0.base(), 1).n_seats
    sec = RunSection(KIND, str(folder), anchor,
                     f"{v.name}, {n} players: how rule options move the best {v.knob.action} threshold — {folder.name}")
    sec.game, sec.answer, sec.group = spec0.variant, knock_rules_answer(results), "knock"
    sec.question = f"{v.name}, {n} players: how do the rules move the best {v.knob.action} threshold?"
    table = rules_table(results)
    unit = v.score_unit
    sec.body.append(
        f"<p>Seat 0 plays <code>{esc(spec0.strategy)}</code> with its {v.knob.action} threshold d "
        f"(it may {v.knob.action} at {esc(when(v, 'd', html=True))}) varied over "
        f"{esc(', '.join(map(str, spec0.thresholds)))} against <code>{esc(spec0.opponent)}</code>; "
        f"{spec0.hands:,} hands per threshold and setting, seed {spec0.seed}.</p>")
    sec.body.append(_curves(f"{anchor}-curves", results, v, n))
    rows = []
    for r in table.itertuples():
        same = ", ".join(map(str, r.indistinguishable))
        rows.append([esc(r.setting), str(r.best), esc(same),
                     f"{r.mean:+.3f} <span class=\"ci\">[{r.mean_lo:+.3f}, {r.mean_hi:+.3f}]</span>", f"{r.n:,}"]
                    + ([f"{r.games_best} ({esc(', '.join(map(str, r.games_indistinguishable)))})"]
                       if "games_best" in table else []))
    sec.body.append(html_table(
        ["setting", "best threshold", "cannot tell from best", f"mean {unit}/hand at best [95% CI]", "n"]
        + (["games: best (cannot tell)"] if "games_best" in table else []), rows,
        caption="Best threshold per rule setting and the thresholds not shown worse than it (multiple "
                "comparisons with the best, family-wise 95% per setting).", numeric={1, 3, 4}))
    sec.methods.append(kv_table([
        ("variant", esc(v.name)), ("players", str(n)), ("thresholds", esc(", ".join(map(str, spec0.thresholds)))),
        ("hands per threshold", f"{spec0.hands:,}"), ("seed", str(spec0.seed)),
        ("settings", esc("; ".join(label for label, _ in results))),
        ("fixed rules", esc(params_text({"rules": list(spec0.rules)}) if spec0.rules else "defaults")),
    ], caption=f"{folder.name}: what was run"))
    return sec


def _curves(name, results, v, n):
    fig = new_figure(7.5, 4.2)
    ax = fig.add_subplot()
    for label, res in results:
        t = sweep_table(res.spec, res.overall)
        x = t["threshold"].to_numpy()
        ax.errorbar(x, t["mean"], yerr=yerr(t["mean"], t["mean_lo"], t["mean_hi"]), marker="o", ms=3,
                    capsize=2, label=label)
        b = t[t["best"]].iloc[0]
        ax.plot([b["threshold"]], [b["mean"]], marker="*", ms=12, color=ax.lines[-1].get_color())
    ax.axhline(0, color="grey", lw=0.8)
    label_axes(ax, axis_label(v), f"seat 0 mean {v.score_unit} per hand",
               f"{v.name}, {n} players: threshold curves by rule setting (★ best, bars: 95% CI)")
    return finish(fig, name, "Seat 0's mean score per hand at each threshold, one curve per rule setting; "
                  "the star marks each setting's best threshold.", [ax])
