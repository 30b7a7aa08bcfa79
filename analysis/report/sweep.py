"""Report section of a knock-threshold sweep (``analysis.studies.knock_sweep``): the sweep curve
with the paired difference to the best arm, games won, the knock chart and its tables."""

from __future__ import annotations

from pathlib import Path

from sim.variants import get_variant

from ..stats import Estimate
from ..store import load_meta
from ..studies.knob import advice, all_hand, axis_label, games_heading, games_phrase, is_zero, value_word, when, won_phrase
from .figures import FigureInfo, finish, new_figure
from .html import digits, esc, est_html, html_table, kv_table, params_text
from .registry import RunSection, section
from ..studies.sweep_text import sweep_answer

KNOCK_ACTIONS = ("knock", "drop")   # the knock games' decision (the others meld or go out)

KIND = "knock_sweep"
DECISION_MARK = {"knock": "knock", "play on": "play on", "can't tell": "?"}


def _mark(decision: str, action: str) -> str:
    """A chart call in the game's word: 'knock' / 'go out', 'play on', '?'."""
    return action if decision == "knock" else DECISION_MARK[decision]

SWEEP_METHODS = """
<p><strong>Common random numbers and paired differences.</strong> In a sweep every arm (threshold)
plays the same hands: hand <em>i</em> is the same deal, with the same random numbers for the strategies,
in every arm. Two arms are therefore compared hand by hand: the <em>paired difference</em> is the mean
of the per-hand differences with its t interval. Most of the deal-to-deal luck cancels, so paired
intervals are far narrower than the difference of two independent means; “hands differing” counts the
hands where the two arms actually scored differently.</p>
<p><strong>Multiple comparisons with the best (MCB).</strong> Picking the best of k thresholds and then
asking, arm by arm, whether each one's own 95% interval against it contains 0 calls some equal arm
“worse” in most sweeps (with 11 equal arms, about 2 sweeps in 3). Instead every arm i gets a
<em>simultaneous</em> 95% interval for μ<sub>i</sub> − max<sub>j≠i</sub> μ<sub>j</sub>, its mean minus the
best of the others: [min<sub>j≠i</sub>(d<sub>ij</sub> − c·se<sub>ij</sub>), min<sub>j≠i</sub>(d<sub>ij</sub> +
c·se<sub>ij</sub>)], where d<sub>ij</sub> is the paired mean difference of arms i and j, se<sub>ij</sub> its
standard error, and c the 95% quantile of max<sub>i≠j</sub> |Z<sub>i</sub> − Z<sub>j</sub>| / se<sub>ij</sub> for
normal estimation errors Z with the covariance of the paired design (recovered from the stored
moments of every pair, (se<sub>i0</sub>² + se<sub>j0</sub>² − se<sub>ij</sub>²)/2; Monte Carlo with a fixed seed,
rounded up). These all-pairwise bounds (Tukey–Kramer type, single step) hold together with probability
95%, so the intervals for all arms do too. An arm is <em>worse</em> when its interval lies below 0; the
others are <em>not shown worse than the best</em> (“~ same as best”). With k truly equal arms no arm is
called worse in 95% of sweeps. (Hsu's constrained MCB would declare an arm “not the best” when its upper
bound is 0, which an arm tied with the best also satisfies; it is not a call of “worse”.)</p>
<p><strong>The knock chart.</strong> Consecutive thresholds prev &lt; d within one turn bucket play
differently only on hands where seat 0 could knock at a deadwood from prev+1 to d in that bucket
(exactly d when the thresholds step by 1; “hands affected”); their paired difference is the expected gain
of knocking there instead of playing on, averaged over all hands. Each cell has its 95% interval and a
two-sided paired t test of margin 0; the calls are controlled over <em>all</em> cells of the chart with
Holm–Bonferroni: the p-values sorted p<sub>(1)</sub> ≤ … ≤ p<sub>(m)</sub> are adjusted to
max<sub>l≤r</sub> min(1, (m − l + 1)·p<sub>(l)</sub>), and a cell is called “knock” (margin &gt; 0) or “play
on” (margin &lt; 0) when its adjusted p is below 0.05, else “?” (never guessed). The chance of calling any
cell whose true margin is 0 is at most 5% (any dependence between cells); Shaffer (1980) shows the
directions of the calls keep that guarantee for independent cells. A cell whose own 95% interval excludes
0 can therefore still be “?”. For a decision taken when a value is <em>at or above</em> the threshold
(go out only with melds worth at least d), raising the threshold from prev to d removes the values prev to
d − 1, so the cell is arm prev minus arm d: the margin of acting at those values rather than waiting.</p>
<p><strong>Independent seeds.</strong> The overall stage (which selects the best single threshold) plays
on the sweep seed; the by-turn stage (the chart), the policy stage and the games stage each play on their
own seed, the first 63 bits of numpy's <code>SeedSequence([seed, k])</code> with k = 1, 2, 3, so the chart
is not judged on the deals that chose its base threshold. Sweeps stored before this played every stage on
the sweep seed; their section says so.</p>
<p><strong>The chart's policy is simulated.</strong> The chart is read as one threshold per bucket. Arm d
minus the bucket's smallest threshold is exactly the sum of the bucket's cells up to d, so the policy takes
the d maximising the summed margins of the <em>called</em> cells up to d (“?” cells count 0; ties go to the
threshold nearest the best single threshold, then the lower): with nothing called it is the best single
threshold. That policy and the best single threshold then play the same
fresh deals (the policy stage); their paired difference and its 95% interval are reported. A chart whose
policy loses (interval below 0) is flagged and not offered as advice.</p>
"""


def _shade_same(ax, table, label: str | None):
    """Shade the arms statistically indistinguishable from the best (best included)."""
    first = True
    th = sorted(table["threshold"])
    half = min((b - a for a, b in zip(th, th[1:])), default=1) / 2     # stepped thresholds: wider bands
    for r in table.itertuples():
        if r.indistinguishable:
            ax.axvspan(r.threshold - half, r.threshold + half, color="tab:green", alpha=0.12, lw=0,
                       label=label if first and label else None)
            first = False


def _sweep_figure(name: str, table, *, value: str, lo: str, hi: str, scale: float, ylabel: str,
                  diff_ylabel: str, xlabel: str, title: str, top_title: str, diff_title: str,
                  band_label: str, caption: str) -> FigureInfo:
    th = table["threshold"].to_numpy(dtype=float)
    fig = new_figure(9.5, 7.0)
    ax1, ax2 = fig.subplots(2, 1, sharex=True, height_ratios=[1.15, 1])
    y = table[value].to_numpy() * scale
    _shade_same(ax1, table, "not shown worse than the best (MCB, family-wise 95%)")
    ax1.fill_between(th, table[lo] * scale, table[hi] * scale, color="tab:blue", alpha=0.25, lw=0,
                     label=band_label)
    ax1.plot(th, y, "o-", color="tab:blue", ms=5, label="estimate per threshold")
    best = table[table["best"]].iloc[0]
    ax1.plot([best.threshold], [best[value] * scale], marker="*", ms=18, color="gold",
             markeredgecolor="black", ls="none", label=f"best: d = {best.threshold}")
    ax1.set_ylabel(ylabel)
    ax1.set_xlabel(xlabel)
    ax1.tick_params(labelbottom=True)
    ax1.set_title(top_title, fontsize=10)
    ax1.legend(fontsize=8, loc="best")
    ax1.grid(alpha=0.3)

    _shade_same(ax2, table, None)
    ax2.axhline(0, color="black", lw=0.8)
    ax2.fill_between(th, table["diff_lo"] * scale, table["diff_hi"] * scale, color="tab:red",
                     alpha=0.25, lw=0, label="paired 95% CI (t interval of per-unit differences)")
    ax2.plot(th, table["diff_to_best"] * scale, "o-", color="tab:red", ms=5,
             label="threshold d minus best (same deals)")
    ax2.plot([best.threshold], [0], marker="*", ms=18, color="gold", markeredgecolor="black", ls="none")
    ax2.set_ylabel(diff_ylabel)
    ax2.set_xlabel(xlabel)
    ax2.set_title(diff_title, fontsize=10)
    ax2.set_xticks(th)
    ax2.legend(fontsize=8, loc="best")
    ax2.grid(alpha=0.3)
    fig.suptitle(title, fontsize=12)
    return finish(fig, name, caption, [ax1, ax2])


CHART_COLUMNS = 25    # thresholds per panel of the knock chart


def _chart_figure(name: str, chart, spec, labels: dict[str, str], unit: str, xlabel: str,
                  title: str, caption: str) -> FigureInfo:
    import matplotlib
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.patches import Patch, Rectangle

    from ..studies.sweep_stats import BUCKETS, cell_label
    ths = list(spec.thresholds[1:])
    m = np.full((len(BUCKETS), len(ths)), np.nan)
    undecided = np.zeros(m.shape, dtype=bool)
    cells = {}
    for r in chart.itertuples():
        i, j = BUCKETS.index(r.bucket), ths.index(r.threshold)
        m[i, j] = r.margin
        undecided[i, j] = r.decision == "can't tell"
        cells[i, j] = r
    lim = float(np.nanmax(np.abs(m))) if np.isfinite(m).any() else 1.0
    lim = lim if lim > 0 else 1.0
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-lim, vmax=lim)
    cmap = matplotlib.colormaps["RdBu"]     # red: play on (< 0), blue: knock (> 0)
    per = CHART_COLUMNS                     # long ranges wrap into stacked panels
    panels = [list(range(a, min(len(ths), a + per))) for a in range(0, len(ths), per)]
    fig = new_figure(max(7.5, 1.7 + 0.78 * len(panels[0])), 1.4 + 3.2 * len(panels))
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    d = digits(chart["margin"].tolist(), sig=2, lo=2, hi=4)
    fs = 8.5 if len(panels[0]) <= 10 else 7
    for ax, cols in zip(axes, panels):
        c0 = cols[0]
        sub = m[:, cols[0]:cols[-1] + 1]
        shown = np.ma.masked_array(sub, mask=undecided[:, c0:cols[-1] + 1] | ~np.isfinite(sub))
        mesh = ax.pcolormesh(np.arange(len(cols) + 1) - 0.5, np.arange(len(BUCKETS) + 1) - 0.5, shown,
                             cmap=cmap, norm=norm, edgecolors="white", linewidth=2)
        for (i, j), r in cells.items():
            if j not in cols:
                continue
            x = j - c0
            if undecided[i, j]:
                ax.add_patch(Rectangle((x - 0.5, i - 0.5), 1, 1, facecolor="#e0e0e0", edgecolor="#8a8a8a",
                                       hatch="///", lw=0.8, zorder=2))
                ax.text(x, i, f"?\n{r.margin:+.{d}f}", ha="center", va="center", fontsize=fs,
                        color="#333333", zorder=3,
                        bbox=dict(boxstyle="round,pad=0.15", fc="#e0e0e0", ec="none"))
            else:
                c = norm(r.margin)
                ax.text(x, i, f"{_mark(r.decision, spec.knob().action)}\n{r.margin:+.{d}f}", ha="center", va="center",
                        fontsize=fs, fontweight="bold", zorder=3,
                        color="white" if abs(c - 0.5) > 0.3 else "black")
        ax.set_xticks(range(len(cols)), [cell_label(ths[j], spec.thresholds[j], spec.knob()) for j in cols])
        ax.set_yticks(range(len(BUCKETS)), [labels[b] for b in BUCKETS])
        ax.set_xlim(-0.5, len(cols) - 0.5)
        ax.set_ylim(len(BUCKETS) - 0.5, -0.5)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("seat 0's own turn (bucket)")
    act = spec.knob().action
    fig.colorbar(mesh, ax=list(axes), label=f"EV margin of acting ({act})\n({unit} per hand, over all hands)",
                 shrink=0.9)
    handles = [Patch(facecolor=cmap(norm(0.7 * lim)), label=f"{act} (Holm p < 0.05)"),
               Patch(facecolor=cmap(norm(-0.7 * lim)), label="play on (Holm p < 0.05)"),
               Patch(facecolor="#e0e0e0", edgecolor="#8a8a8a", hatch="///",
                     label="?: not called (Holm, family-wise 95%)")]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=8.5)
    fig.suptitle(title, fontsize=12)
    return finish(fig, name, caption, list(axes))


def _sweep_rows(table, d: int, diff_scale: float, diff_d: int, diff_unit: str):
    """Table rows (HTML cells) and row classes of a sweep_table, as in the text rendering."""
    rows, classes = [], []
    for r in table.itertuples():
        mean = Estimate(r.mean, r.mean_lo, r.mean_hi, r.n)
        win = Estimate(r.win_rate, r.win_lo, r.win_hi, r.n)
        diff = Estimate(r.diff_to_best * diff_scale, r.diff_lo * diff_scale, r.diff_hi * diff_scale, r.n)
        k = diff_scale
        verdict = "BEST" if r.best else ("~ same as best" if r.indistinguishable else "worse")
        rows.append([esc(r.threshold), f"{r.n:,}", est_html(mean, d, sign=True), est_html(win, 2, pct=True),
                     ("0 (reference)" if r.best else est_html(diff, diff_d, sign=True) + diff_unit),
                     f"{r.hands_differing:,}",
                     f"[{k * r.mcb_lo:+.{diff_d}f}, {k * r.mcb_hi:+.{diff_d}f}]{diff_unit}", verdict])
        classes.append("best" if r.best else ("same" if r.indistinguishable else ""))
    return rows, classes


def _sweep_table(rows, cls, caption: str, mean: str, win: str, diff: str, differing: str, mcb: str,
                 units: str = "hands") -> str:
    """The HTML table of :func:`_sweep_rows` with its column heads."""
    return html_table(["threshold d", units, mean, win, diff, differing, mcb, "verdict"], rows, cls,
                      caption=caption, numeric={0, 1, 2, 3, 4, 5, 6})


def _hands_table(rows, cls, caption: str, unit: str, best: str, differing: str) -> str:
    """A per-hand sweep table; ``best`` names the arm the differences are to."""
    return _sweep_table(rows, cls, caption, f"mean {unit}/hand [95% CI]", "hands won [95% CI]",
                        f"paired {unit}/hand vs {best} [95% CI]", differing,
                        f"MCB: d minus best of the others, {unit}/hand")


def _stage_meta(folder: Path, name: str) -> dict | None:
    p = folder / name / "meta.json"
    return load_meta(folder / name) if p.exists() else None


def _chart_part(res, anchor: str, game) -> list:
    """The knock chart: its figure, its cells (Holm-controlled calls) and the per-bucket sweeps."""
    from ..studies.sweep_stats import BUCKETS, CHART_METHOD, bucket_label, by_turn_tables, knock_chart
    spec = res.spec
    unit, what, act = game.score_unit, value_word(game), game.knob.action
    labels = {b: bucket_label(spec, b) for b in BUCKETS}
    chart = knock_chart(spec, res.by_turn)
    cd = digits(chart["margin"].tolist(), sig=2, lo=2, hi=5)
    n_dec = int((chart["decision"] != "can't tell").sum())
    stepped = bool((chart["from"] != chart["to"]).any())
    cell = f"{what} from a to b" if stepped else f"{what} exactly v"
    out = [f"<h3 id=\"{anchor}-chart\">{esc(act.capitalize())} chart: {esc(act)} at {cell}, or play on?</h3>",
           f"<p>Each cell compares threshold d with the previous threshold prev within one turn bucket (the "
           f"other buckets at d = {res.best_overall}; seat 0 acts at {esc(when(game, 'd', html=True))}): they "
           f"differ only on hands where seat 0 could {act} at {cell} in that bucket, so their paired "
           f"difference is the EV margin of acting there rather than playing on, averaged over "
           f"<em>all</em> {spec.hands:,} hands (the per-affected-hand margin is larger by the factor "
           f"hands/hands affected)"
           + (f"; the thresholds are stepped, so a column a–b covers {what} a to b" if stepped else "")
           + f". Calls: {esc(CHART_METHOD)}: {n_dec} of {len(chart)} cells are called; the rest are "
           f"shown as “?” and are not guessed. By-turn deals on seed {spec.seed_of('by_turn')}.</p>"]
    out.append(_chart_figure(
        f"{anchor}-chart", chart, spec, labels, unit, f"{what} at which seat 0 could {act}",
        f"{spec.variant} {act} chart: EV margin of acting at {cell} vs playing on",
        caption=(f"Blue: {act} is better, red: playing on is better (Holm-adjusted p below 0.05 over all "
                 "cells, family-wise 95%); grey hatched “?”: not called, the data cannot tell. "
                 f"Cell text: call and margin in {unit} per hand.")))
    rows, cls = [], []
    for r in chart.itertuples():
        rows.append([esc(labels[r.bucket]), esc(r.cell),
                     est_html(Estimate(r.margin, r.lo, r.hi, r.n), cd, sign=True),
                     f"{r.p_holm:.4f}" if r.tested else "not tested",
                     f"{r.n:,}", f"{r.hands_affected:,}",
                     f"{100 * r.hands_affected / r.n:.2f}%" if r.n else "n/a", esc(_mark(r.decision, act))])
        cls.append({"knock": "knock", "play on": "playon"}.get(r.decision, "undecided"))
    out.append(html_table(["turn bucket", f"{what} v", f"EV margin of acting ({esc(act)}), {unit}/hand [95% CI]",
                           "p (Holm)", "hands", "hands affected", "share affected", "decision"], rows, cls,
                          caption="Chart cells: the two neighbouring arms of the bucket, paired; shown first: the "
                                  "cells on either side of a change of call (the chart's boundary).",
                          numeric={1, 2, 3, 4, 5, 6}, nowrap={0}, key=boundary(chart)))
    out.append(f"<h4>Per-bucket sweeps (other buckets at d = {res.best_overall})</h4>")
    for b, t in by_turn_tables(spec, res.by_turn).items():
        bd = digits(list(t["mean"]) + list(t["diff_to_best"]), sig=2, lo=2, hi=4)
        rows, cls = _sweep_rows(t, bd, 1.0, max(bd, 3), "")
        out.append(_hands_table(rows, cls, esc(f"Bucket {labels[b]}: threshold varied in this bucket only "
                                               f"(MCB c = {t.attrs['mcb_c']:.3f})."),
                                unit, "bucket best", "hands differing"))
    return out


def boundary(chart) -> list[bool]:
    """The chart cells on either side of a change of call within their bucket."""
    b, dec = list(chart["bucket"]), list(chart["decision"])
    edge = [k > 0 and b[k] == b[k - 1] and dec[k] != dec[k - 1] for k in range(len(dec))]
    return [edge[k] or (k + 1 < len(dec) and edge[k + 1]) for k in range(len(dec))]


def _policy_part(res, anchor: str, unit: str) -> list:
    """The chart's policy against the best single threshold on fresh deals; flagged when it loses."""
    from ..studies.sweep_stats import BUCKETS, bucket_label, policy_summary
    spec = res.spec
    game = spec.game
    p = policy_summary(spec, res.policy, res.policy_thresholds, res.best_overall)
    d = digits([p["diff"], p["policy_mean"], p["best_mean"]], sig=2, lo=2, hi=5)
    one = p["best_single"]
    per = "; ".join(f"{bucket_label(spec, b)}: "
                    + (advice if is_zero(p['thresholds'][b]) else when)(game, p['thresholds'][b], html=True)
                    for b in BUCKETS)
    verdict = {"better": "The chart's policy beats the best single threshold on fresh deals: it is the advice.",
               "can't tell": "The chart's policy is not shown better or worse than the best single threshold.",
               "same": "The chart's calls do not change the best single threshold: the policy is that threshold.",
               "worse": (f"<strong>Flagged, not advice:</strong> the chart's policy loses to the best single "
                         f"threshold on fresh deals (95% CI of the difference below 0); "
                         f"{esc(all_hand(game, one, html=True))} instead.")}[p["verdict"]]
    out = [f"<h3 id=\"{anchor}-policy\">The chart's policy, simulated</h3>",
           f"<p>Policy read off the chart: {esc(per)} ({esc(p['rule'])}). It played {p['n']:,} fresh hands "
           f"against the best single threshold d = {one}, the same deals for both (seed "
           f"{spec.seed_of('policy')}, independent of the chart's). {verdict}</p>"]
    rows = [["chart policy", est_html(Estimate(p["policy_mean"], p["policy_lo"], p["policy_hi"], p["n"]), d, sign=True),
             est_html(Estimate(p["diff"], p["diff_lo"], p["diff_hi"], p["n"]), d, sign=True),
             f"{p['hands_differing']:,}", esc(p["verdict"])],
            [f"best single threshold d = {one}",
             est_html(Estimate(p["best_mean"], p["best_lo"], p["best_hi"], p["n"]), d, sign=True),
             "0 (reference)", "", ""]]
    out.append(html_table(["arm", f"mean {unit}/hand [95% CI]", f"paired {unit}/hand vs best single [95% CI]",
                           "hands differing", "verdict"], rows,
                          caption="Policy stage: the chart's policy and the best single threshold on the same deals.",
                          numeric={1, 2, 3}))
    return out


def _curve_part(res, anchor: str, game) -> list:
    """(a) The sweep curve: seat 0's mean per hand by threshold, its figure and table."""
    from ..studies.sweep_stats import BEST_METHOD, sweep_table
    spec, unit, xlabel = res.spec, game.score_unit, axis_label(game)
    out = []
    table = sweep_table(spec, res.overall)
    d = digits(list(table["mean"]) + list(table["diff_to_best"]), sig=2, lo=2, hi=4)
    same = [str(t) for t in table.loc[table["indistinguishable"] & ~table["best"], "threshold"]]
    out.append(f"<h3 id=\"{anchor}-curve\">Sweep curve: mean {unit} per hand by threshold</h3>")
    out.append(_sweep_figure(
        f"{anchor}-sweep", table, value="mean", lo="mean_lo", hi="mean_hi", scale=1.0,
        ylabel=("seat 0 minus the average other seat,\n" if spec.focus()[0] == "field0" else "seat 0 ")
        + f"mean {unit} per hand", diff_ylabel=f"paired difference to best\n({unit} per hand)",
        xlabel=xlabel, title=f"{spec.variant}: one threshold all hand long ({spec.hands:,} hands per threshold)",
        top_title=f"mean {unit} per hand with 95% CI (t interval)",
        diff_title="paired difference to the best threshold (same deals), 95% CI",
        band_label="95% CI of the mean (t interval)",
        caption=(f"Seat 0's mean {unit} per hand (top) and its paired difference to the best threshold "
                 f"d = {res.best_overall} (bottom, each interval 95% on its own). Shaded green: thresholds "
                 f"not shown worse than the best by multiple comparisons with the best (family-wise 95%)"
                 + (f" ({', '.join(same)})." if same else " (none besides the best)."))))
    rows, cls = _sweep_rows(table, d, 1.0, d, "")
    out.append(_hands_table(rows, cls, esc(f"One threshold all hand long: seat 0 per arm. Verdict: "
                                           f"{BEST_METHOD} (c = {table.attrs['mcb_c']:.3f})."),
                            unit, "best", "hands differing from best"))
    return out


def _games_part(res, anchor: str, game) -> list:
    """(b) Whole games per threshold: games won, its figure and table."""
    from ..studies.sweep_stats import sweep_table
    spec, unit, xlabel = res.spec, game.score_unit, axis_label(game)
    out = []
    g = sweep_table(spec, res.games, mode="games")
    gd = digits(list(g["mean"]), sig=2, lo=1, hi=3)
    won = won_phrase(game, spec.spec_for(spec.base(), 1).rules)
    out.append(f"<h3 id=\"{anchor}-games\">{esc(games_heading(game))}</h3>")
    out.append(f"<p>{spec.games:,} {esc(games_phrase(game))} per threshold (same games in every arm); "
                f"best = most games won ({esc(won)}). Round win rate alone misleads; this is the outcome "
                f"players care about.</p>")
    out.append(_sweep_figure(
        f"{anchor}-games", g, value="win_rate", lo="win_lo", hi="win_hi", scale=100.0,
        ylabel="games won by seat 0 (%)", diff_ylabel="paired difference to best\n(percentage points)",
        xlabel=xlabel, title=f"{spec.variant}: games won, {games_phrase(game)} ({spec.games:,} per threshold)",
        top_title="games won (%) with 95% Wilson CI",
        diff_title="paired difference in games won to the best threshold, 95% CI",
        band_label="95% CI (Wilson score interval)",
        caption=(f"Share of whole games won by seat 0 ({won}; top) and its paired difference to the "
                 "threshold winning most games (bottom), in percentage points. Shaded green: not shown "
                 "worse than the best (MCB on games won, family-wise 95%).")))
    rows, cls = _sweep_rows(g, gd, 100.0, 2, " pp")
    out.append(_sweep_table(rows, cls, esc(f"Whole games: seat 0 per arm (pp = percentage points); "
                                           f"MCB critical value c = {g.attrs['mcb_c']:.3f}."),
                            f"mean net {unit}/game [95% CI]", "games won [95% CI]",
                            "paired games won vs best [95% CI]", "games differing from best",
                            "MCB: d minus best of the others, games won", "games"))
    return out


def _params_part(res, anchor: str, n_players: int) -> list:
    """(d) The sweep's parameters as a key-value table."""
    spec, knob = res.spec, get_variant(res.spec.variant).knob
    out = []
    params = [("variant", esc(spec.variant)), ("players", esc(n_players)),
              ("seat 0 base strategy", f"<code>{esc(spec.strategy)}</code>"),
              ("varied parameter", f"<code>{esc(knob.param)}</code>"),
              ("opponent strategy (other seats)", f"<code>{esc(spec.opponent)}</code>"),
              ("thresholds", esc(", ".join(map(str, spec.thresholds)))),
              ("hands per threshold", f"{spec.hands:,}"),
              ("by turn", (f"yes: mid from own turn {spec.buckets[0]}, late from {spec.buckets[1]}"
                           if spec.bucket_by == "turn" else
                           f"yes, by stock size: mid when <= {spec.buckets[0]} cards left, late when <= {spec.buckets[1]}")
               if spec.by_turn else "no"),
              ("games per threshold", f"{spec.games:,}" if spec.games else "none"),
              ("rule options given", esc(", ".join(spec.rules) or "none (defaults)")),
              ("seeds", esc(", ".join(f"{k} {v['seed']}" for k, v in res.stages.items()))
               + ("" if spec.stage_seeds == "derived" else " (stored before stage seeds were separated)")),
              ("best single threshold", esc(res.best_overall))]
    out.append(f"<h3 id=\"{anchor}-params\">Sweep parameters</h3>")
    out.append(kv_table(params))
    return out


def _methods_part(metas: dict) -> list:
    """The methods: rules and strategies of the first arm, and one row per stored stage."""
    out = []
    first = next((x for x in metas.values() if x), None)
    if first:
        arm0 = first["arms"][0]
        out.append(kv_table([
            ("variant", esc(arm0["variant"])),
            ("rules (all options)", f"<code>{esc(params_text(arm0['rules']))}</code> (rules version "
                                    f"{esc(arm0.get('rules_version'))})"),
            *[(f"seat {s}", f"<code>{esc(st['spec'])}</code>" + (" — threshold varied" if s == 0 else "")
               + f"<br><span class=\"small\">{esc(st['family'])}: {esc(params_text(st['params']))}</span>")
              for s, st in enumerate(arm0["strategies"])],
            ("seed", esc(arm0["seed"])),
        ], caption="Rules and strategies (first arm; arms differ only in seat 0's threshold)"))
    rows = []
    for name, meta in metas.items():
        if meta is None:
            continue
        unit_name = "games" if meta["arms"][0].get("mode") == "games" else "hands"
        rows.append([esc(name), f"{len(meta['arms'])}", f"{meta['n']:,} {unit_name}",
                     f"{meta['n'] * len(meta['arms']):,}", esc(meta.get("elapsed_s") and f"{meta['elapsed_s']:.1f} s"),
                     esc(meta.get("compile_s") is not None and f"{meta['compile_s']:.2f} s"),
                     f"<code>{esc(params_text(meta.get('versions', {})))}</code>", f"<code>{esc(meta.get('git'))}</code>"])
    out.append(html_table(["stage", "arms", "per arm", "simulated", "elapsed", "compile/cache", "versions", "git"],
                        rows, caption="Stages (stored sub-folders overall/, by_turn/, policy/, games/)",
                        numeric={1, 2, 3, 4, 5}))
    return out


@section(KIND, file="sweep.json", methods=SWEEP_METHODS)
def sweep_section(folder: Path, anchor: str) -> RunSection:
    from ..studies.knock_sweep import load_sweep
    res = load_sweep(folder)
    spec = res.spec
    game = get_variant(spec.variant)   # the game's declared words, never its name
    knob = game.knob
    unit = game.score_unit
    who = f"seat 0 = {spec.strategy} (threshold varied) vs {spec.opponent}"
    sec = RunSection(KIND, str(folder), anchor, f"{knob.action.capitalize()} sweep: {spec.variant} — {folder.name}")
    body = sec.body
    metas = {n: _stage_meta(folder, n) for n in ("overall", "by_turn", "policy", "games")}
    n_players = len(metas["overall"]["arms"][0]["strategies"]) if metas["overall"] else spec.players
    rules = f" ({', '.join(spec.rules)})" if spec.rules else ""
    sec.game, sec.answer = spec.variant, sweep_answer(res)
    sec.question = f"{spec.variant}, {n_players} players{rules}: when to {knob.action} against {spec.opponent}?"
    sec.group = "knock" if knob.action in KNOCK_ACTIONS else "melding"
    body.append(f"<p>{esc(spec.variant.capitalize())}, {n_players} players; {esc(who)}. "
                f"{spec.hands:,} hands per threshold, the <em>same</em> deals in every arm (common random "
                f"numbers); seat 0 may {esc(knob.action)} at {esc(when(game, 'd', html=True))}, thresholds d = "
                f"{esc(', '.join(map(str, spec.thresholds)))}; seed {spec.seed}. "
                f"Best single threshold: <strong>d = {res.best_overall}</strong>.</p>")
    if spec.stage_seeds == "shared":
        body.append("<p><strong>Stored before stage seeds were separated:</strong> every stage of this sweep "
                    "played on the sweep seed, so the knock chart and the games were judged on the deals "
                    "that chose the best single threshold, and the chart's policy was not simulated. "
                    "Rerun it into a new folder for independent stages.</p>")

    body += _curve_part(res, anchor, game)
    if res.games:
        body += _games_part(res, anchor, game)

    # (c) knock chart and its policy
    if res.by_turn:
        body += _chart_part(res, anchor, game)
    if res.policy:
        body += _policy_part(res, anchor, unit)

    body += _params_part(res, anchor, n_players)
    sec.methods += _methods_part(metas)
    return sec
