"""HTML + PNG report rendered from stored runs (never re-simulates).

``rummylab report runs/gin-knock runs/tonk-odds runs/gin-simple --html reports/index.html``
writes one self-contained HTML file (inline CSS, PNG figures embedded as base64 data URIs, no
scripts, fonts or CDNs) and the same PNGs beside it.  Each folder is recognised by its files:

* ``sweep.json``  a knock-threshold sweep (``analysis.studies.knock_sweep``): the sweep curve
  with the paired difference to the best arm, games won, the knock chart and its tables;
* ``odds.json``   exact vs simulated tonk-on-the-deal probabilities;
* ``meta.json`` with ``columns``  a single ``rummylab simulate`` run: seats, positions,
  outcome mix and hand length, every estimate with its 95% CI.

Every number comes from the stored totals (exact integer moments) through ``analysis.stats``;
this module imports nothing from ``sim`` and never calls the engine.

API: :func:`build_report` (figures with their metadata + HTML sections), :func:`write_report`,
:func:`render_report` (both at once), and ``add_parser``/``cmd`` for the CLI.
"""

from __future__ import annotations

import argparse
import base64
import datetime as _dt
import html
import io
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .stats import Estimate, mean_from_moments, wilson
from .store import StoreError, load_meta

DPI = 110
QUANTITY_LABELS = {
    "p_given": "a given player is dealt a tonk",
    "p_at_least_one": "at least one tonk",
    "p_exactly_one": "exactly one tonk (paid out)",
    "p_two_or_more": "two or more tonks (tie, redeal)",
}
DECISION_MARK = {"knock": "knock", "play on": "play on", "can't tell": "?"}


# ----------------------------------------------------------------------------------------
# data structures

@dataclass
class FigureInfo:
    """One rendered figure: its PNG bytes and what a reader (or a test) needs to know."""
    name: str                 # file stem, unique within the report
    title: str
    caption: str
    axes: list[dict]          # per data axes: {"title", "xlabel", "ylabel"}
    legend: list[str]         # legend entries (all legends of the figure)
    png: bytes = field(repr=False, default=b"")
    width: int = 0
    height: int = 0
    path: str | None = None   # where write_report put the PNG


@dataclass
class RunSection:
    kind: str                 # "knock_sweep" | "tonk_odds" | "run"
    folder: str
    anchor: str
    title: str
    body: list = field(default_factory=list)      # HTML strings and FigureInfo, in order
    methods: list[str] = field(default_factory=list)

    @property
    def figures(self) -> list[FigureInfo]:
        return [b for b in self.body if isinstance(b, FigureInfo)]


@dataclass
class Report:
    title: str
    sections: list[RunSection]
    run_dirs: list[str]

    @property
    def figures(self) -> list[FigureInfo]:
        return [f for s in self.sections for f in s.figures]


# ----------------------------------------------------------------------------------------
# small helpers

def esc(x) -> str:
    return html.escape(str(x), quote=True)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "run"


def _digits(values, sig: int = 2, lo: int = 1, hi: int = 5) -> int:
    """Decimals that show ``sig`` significant digits of the typical (median) magnitude."""
    mags = sorted(abs(v) for v in values if v is not None and math.isfinite(v) and v != 0)
    if not mags:
        return lo + 1
    m = mags[len(mags) // 2]
    return max(lo, min(hi, sig - 1 - math.floor(math.log10(m))))


def _est_html(e: Estimate, d: int, pct: bool = False, sign: bool = False) -> str:
    p = e.parts(d, pct, sign)
    return "n/a" if p is None else f"{p[0]} <span class=\"ci\">[{p[1]}, {p[2]}]</span>"


def _table(header: list[str], rows: list[list[str]], row_classes: list[str] | None = None,
           caption: str | None = None, numeric: set[int] | None = None, nowrap: set[int] | None = None) -> str:
    """An HTML table; cells are already-escaped HTML; ``numeric`` columns are right-aligned."""
    numeric = numeric or set()
    nowrap = nowrap or set()
    out = ["<div class=\"scroll\"><table>"]
    if caption:
        out.append(f"<caption>{caption}</caption>")
    out.append("<thead><tr>" + "".join(f"<th scope=\"col\">{h}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for k, r in enumerate(rows):
        cls = row_classes[k] if row_classes and row_classes[k] else ""
        tr = f"<tr class=\"{cls}\">" if cls else "<tr>"
        out.append(tr + "".join(f"<td class=\"num\">{c}</td>" if i in numeric else
                                (f"<td class=\"nowrap\">{c}</td>" if i in nowrap else f"<td>{c}</td>")
                                for i, c in enumerate(r)) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _kv_table(pairs: list[tuple[str, str]], caption: str | None = None) -> str:
    out = ["<div class=\"scroll\"><table class=\"kv\">"]
    if caption:
        out.append(f"<caption>{caption}</caption>")
    out.append("<tbody>")
    for k, v in pairs:
        out.append(f"<tr><th scope=\"row\">{esc(k)}</th><td>{v}</td></tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _params(d: dict) -> str:
    return ", ".join(f"{k}={_g(v)}" for k, v in d.items())


def _g(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise StoreError(f"{path} is not valid JSON ({e})") from None


# ----------------------------------------------------------------------------------------
# figures

def _new_figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _finish(fig, name: str, caption: str, data_axes) -> FigureInfo:
    """Check the figure is labelled (title, axis labels, a legend), render it to PNG bytes."""
    title = fig.get_suptitle()
    axes = [{"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel()}
            for ax in data_axes]
    legends = [lg for lg in [ax.get_legend() for ax in fig.axes] + list(fig.legends) if lg is not None]
    entries = [t.get_text() for lg in legends for t in lg.get_texts()]
    missing = [f"axes {k}: {w}" for k, a in enumerate(axes) for w in ("xlabel", "ylabel") if not a[w]]
    if not (title or all(a["title"] for a in axes)):
        missing.append("title")
    if not entries:
        missing.append("legend")
    if missing:  # a programming error in this module, not bad input
        raise AssertionError(f"figure {name} lacks {', '.join(missing)}")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    png = buf.getvalue()
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return FigureInfo(name, title or axes[0]["title"], caption, axes, entries, png, w, h)


def _yerr(v, lo, hi):
    """Error-bar lengths from interval ends (clipped at 0 against rounding)."""
    import numpy as np
    v, lo, hi = (np.asarray(a, dtype=float) for a in (v, lo, hi))
    return [np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)]


def _shade_same(ax, table, label: str | None):
    """Shade the arms statistically indistinguishable from the best (best included)."""
    first = True
    for r in table.itertuples():
        if r.indistinguishable:
            ax.axvspan(r.threshold - 0.5, r.threshold + 0.5, color="tab:green", alpha=0.12, lw=0,
                       label=label if first and label else None)
            first = False


def _sweep_figure(name: str, table, *, value: str, lo: str, hi: str, scale: float, ylabel: str,
                  diff_ylabel: str, xlabel: str, title: str, top_title: str, diff_title: str,
                  band_label: str, caption: str) -> FigureInfo:
    th = table["threshold"].to_numpy(dtype=float)
    fig = _new_figure(9.5, 7.0)
    ax1, ax2 = fig.subplots(2, 1, sharex=True, height_ratios=[1.15, 1])
    y = table[value].to_numpy() * scale
    _shade_same(ax1, table, "indistinguishable from best (paired 95% CI contains 0)")
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
    return _finish(fig, name, caption, [ax1, ax2])


def _chart_figure(name: str, chart, spec, labels: dict[str, str], unit: str, xlabel: str,
                  title: str, caption: str) -> FigureInfo:
    import matplotlib
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.patches import Patch, Rectangle

    from .studies.knock_sweep import BUCKETS
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
    fig = _new_figure(max(7.5, 1.7 + 0.78 * len(ths)), 4.6)
    ax = fig.subplots()
    shown = np.ma.masked_array(m, mask=undecided | ~np.isfinite(m))
    mesh = ax.pcolormesh(np.arange(len(ths) + 1) - 0.5, np.arange(len(BUCKETS) + 1) - 0.5, shown,
                         cmap=cmap, norm=norm, edgecolors="white", linewidth=2)
    d = _digits(chart["margin"].tolist(), sig=2, lo=2, hi=4)
    fs = 8.5 if len(ths) <= 10 else 7
    for (i, j), r in cells.items():
        if undecided[i, j]:
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#e0e0e0", edgecolor="#8a8a8a",
                                   hatch="///", lw=0.8, zorder=2))
            ax.text(j, i, f"?\n{r.margin:+.{d}f}", ha="center", va="center", fontsize=fs,
                    color="#333333", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="#e0e0e0", ec="none"))
        else:
            c = norm(r.margin)
            ax.text(j, i, f"{DECISION_MARK[r.decision]}\n{r.margin:+.{d}f}", ha="center", va="center",
                    fontsize=fs, fontweight="bold", zorder=3,
                    color="white" if abs(c - 0.5) > 0.3 else "black")
    ax.set_xticks(range(len(ths)), [str(t) for t in ths])
    ax.set_yticks(range(len(BUCKETS)), [labels[b] for b in BUCKETS])
    ax.set_xlim(-0.5, len(ths) - 0.5)
    ax.set_ylim(len(BUCKETS) - 0.5, -0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("seat 0's own turn (bucket)")
    fig.colorbar(mesh, ax=ax, label=f"EV margin of knocking\n({unit} per hand, over all hands)",
                 shrink=0.9)
    handles = [Patch(facecolor=cmap(norm(0.7 * lim)), label="knock: margin's 95% CI > 0"),
               Patch(facecolor=cmap(norm(-0.7 * lim)), label="play on: 95% CI < 0"),
               Patch(facecolor="#e0e0e0", edgecolor="#8a8a8a", hatch="///",
                     label="?: 95% CI contains 0 (undecided)")]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=8.5)
    fig.suptitle(title, fontsize=12)
    return _finish(fig, name, caption, [ax])


# ----------------------------------------------------------------------------------------
# knock sweep

def _sweep_rows(table, d: int, diff_scale: float, diff_d: int, diff_unit: str):
    """Table rows (HTML cells) and row classes of a sweep_table, as in the text rendering."""
    rows, classes = [], []
    for r in table.itertuples():
        mean = Estimate(r.mean, r.mean_lo, r.mean_hi, r.n)
        win = Estimate(r.win_rate, r.win_lo, r.win_hi, r.n)
        diff = Estimate(r.diff_to_best * diff_scale, r.diff_lo * diff_scale, r.diff_hi * diff_scale, r.n)
        verdict = "BEST" if r.best else ("~ same as best" if r.indistinguishable else "worse")
        rows.append([esc(r.threshold), f"{r.n:,}", _est_html(mean, d, sign=True), _est_html(win, 2, pct=True),
                     ("0 (reference)" if r.best else _est_html(diff, diff_d, sign=True) + diff_unit),
                     f"{r.hands_differing:,}", verdict])
        classes.append("best" if r.best else ("same" if r.indistinguishable else ""))
    return rows, classes


def _stage_meta(folder: Path, name: str) -> dict | None:
    p = folder / name / "meta.json"
    return load_meta(folder / name) if p.exists() else None


def _sweep_section(folder: Path, anchor: str) -> RunSection:
    from .studies.knock_sweep import (
        BUCKETS,
        KNOBS,
        bucket_label,
        by_turn_tables,
        knock_chart,
        load_sweep,
        sweep_table,
    )
    res = load_sweep(folder)
    spec = res.spec
    tonk = spec.variant == "tonk"
    unit = "stakes" if tonk else "points"
    what = "count" if tonk else "deadwood"
    act = "drop/knock" if tonk else "knock"
    xlabel = (f"threshold d: seat 0 may {act} at {what} ≤ d ({'card points' if tonk else 'points'})")
    who = f"seat 0 = {spec.strategy} (threshold varied) vs {spec.opponent}"
    sec = RunSection("knock_sweep", str(folder), anchor, f"Knock sweep: {spec.variant} — {folder.name}")
    body = sec.body
    metas = {n: _stage_meta(folder, n) for n in ("overall", "by_turn", "games")}
    n_players = len(metas["overall"]["arms"][0]["strategies"]) if metas["overall"] else spec.players
    body.append(f"<p>{esc(spec.variant.capitalize())}, {n_players} players; {esc(who)}. "
                f"{spec.hands:,} hands per threshold, the <em>same</em> deals in every arm (common random "
                f"numbers); thresholds {esc(', '.join(map(str, spec.thresholds)))}; seed {spec.seed}. "
                f"Best single threshold: <strong>d = {res.best_overall}</strong>.</p>")

    # (a) the sweep curve
    table = sweep_table(spec, res.overall)
    d = _digits(list(table["mean"]) + list(table["diff_to_best"]), sig=2, lo=2, hi=4)
    same = [str(t) for t in table.loc[table["indistinguishable"] & ~table["best"], "threshold"]]
    body.append(f"<h3 id=\"{anchor}-curve\">Sweep curve: mean {unit} per hand by threshold</h3>")
    body.append(_sweep_figure(
        f"{anchor}-sweep", table, value="mean", lo="mean_lo", hi="mean_hi", scale=1.0,
        ylabel=f"seat 0 mean {unit} per hand", diff_ylabel=f"paired difference to best\n({unit} per hand)",
        xlabel=xlabel, title=f"{spec.variant}: one threshold all hand long ({spec.hands:,} hands per threshold)",
        top_title=f"mean {unit} per hand with 95% CI (t interval)",
        diff_title="paired difference to the best threshold (same deals), 95% CI",
        band_label="95% CI of the mean (t interval)",
        caption=(f"Seat 0's mean {unit} per hand (top) and its paired difference to the best threshold "
                 f"d = {res.best_overall} (bottom). Shaded green: thresholds whose paired 95% CI contains "
                 f"0, i.e. statistically indistinguishable from the best"
                 + (f" ({', '.join(same)})." if same else " (none besides the best)."))))
    rows, cls = _sweep_rows(table, d, 1.0, d, "")
    body.append(_table(["threshold d", "hands", f"mean {unit}/hand [95% CI]", "hands won [95% CI]",
                        f"paired {unit}/hand vs best [95% CI]", "hands differing from best", "verdict"],
                       rows, cls, caption="One threshold all hand long: seat 0 per arm.",
                       numeric={0, 1, 2, 3, 4, 5}))

    # (b) games
    if res.games:
        g = sweep_table(spec, res.games, mode="games")
        gd = _digits(list(g["mean"]), sig=2, lo=1, hi=3)
        body.append(f"<h3 id=\"{anchor}-games\">Games won to the target score</h3>")
        body.append(f"<p>{spec.games:,} whole games per threshold (same games in every arm); "
                    f"best = most games won. Round win rate alone misleads; this is the outcome players "
                    f"care about.</p>")
        body.append(_sweep_figure(
            f"{anchor}-games", g, value="win_rate", lo="win_lo", hi="win_hi", scale=100.0,
            ylabel="games won by seat 0 (%)", diff_ylabel="paired difference to best\n(percentage points)",
            xlabel=xlabel, title=f"{spec.variant}: games won to the target score ({spec.games:,} games per threshold)",
            top_title="games won (%) with 95% Wilson CI",
            diff_title="paired difference in games won to the best threshold, 95% CI",
            band_label="95% CI (Wilson score interval)",
            caption=("Share of whole games won by seat 0 (top) and its paired difference to the threshold "
                     "winning most games (bottom), in percentage points. Shaded green: indistinguishable "
                     "from the best.")))
        rows, cls = _sweep_rows(g, gd, 100.0, 2, " pp")
        body.append(_table(["threshold d", "games", f"mean net {unit}/game [95% CI]", "games won [95% CI]",
                            "paired games won vs best [95% CI]", "games differing from best", "verdict"],
                           rows, cls, caption="Whole games: seat 0 per arm (pp = percentage points).",
                           numeric={0, 1, 2, 3, 4, 5}))

    # (c) knock chart
    if res.by_turn:
        labels = {b: bucket_label(spec, b) for b in BUCKETS}
        chart = knock_chart(spec, res.by_turn)
        cd = _digits(chart["margin"].tolist(), sig=2, lo=2, hi=5)
        n_dec = int((chart["decision"] != "can't tell").sum())
        body.append(f"<h3 id=\"{anchor}-chart\">Knock chart: {act} at {what} exactly d, or play on?</h3>")
        body.append(f"<p>Each cell compares thresholds d and d−1 within one turn bucket (the other buckets "
                    f"at d = {res.best_overall}): they differ only on hands where seat 0 could {act} at "
                    f"{what} exactly d in that bucket, so their paired difference is the EV margin of "
                    f"knocking there rather than playing on, averaged over <em>all</em> {spec.hands:,} hands "
                    f"(the per-affected-hand margin is larger by the factor hands/hands affected). "
                    f"{n_dec} of {len(chart)} cells are decided at 95%; the rest are shown as "
                    f"“?” and are not guessed.</p>")
        body.append(_chart_figure(
            f"{anchor}-chart", chart, spec, labels, unit, f"{what} d at which seat 0 could {act} "
            f"({'card points' if tonk else 'points'})",
            f"{spec.variant} knock chart: EV margin of knocking at exactly d vs playing on",
            caption=("Blue: knocking is better (95% CI of the margin above 0); red: playing on is better "
                     "(CI below 0); grey hatched “?”: the CI contains 0, the data cannot tell. "
                     f"Cell text: decision and margin in {unit} per hand.")))
        rows, cls = [], []
        for r in chart.itertuples():
            rows.append([esc(labels[r.bucket]), esc(r.threshold),
                         _est_html(Estimate(r.margin, r.lo, r.hi, r.n), cd, sign=True),
                         f"{r.n:,}", f"{r.hands_affected:,}",
                         f"{100 * r.hands_affected / r.n:.2f}%" if r.n else "n/a", esc(r.decision)])
            cls.append({"knock": "knock", "play on": "playon"}.get(r.decision, "undecided"))
        body.append(_table(["turn bucket", f"{what} d", f"EV margin of knocking, {unit}/hand [95% CI]",
                            "hands", "hands affected", "share affected", "decision"], rows, cls,
                           caption="Knock chart cells: arm d minus arm d−1 of the bucket, paired.",
                           numeric={1, 2, 3, 4, 5}, nowrap={0}))
        body.append(f"<h4>Per-bucket sweeps (other buckets at d = {res.best_overall})</h4>")
        bt = by_turn_tables(spec, res.by_turn)
        for b in BUCKETS:
            t = bt[b]
            bd = _digits(list(t["mean"]) + list(t["diff_to_best"]), sig=2, lo=2, hi=4)
            rows, cls = _sweep_rows(t, bd, 1.0, max(bd, 3), "")
            body.append(_table(["threshold d", "hands", f"mean {unit}/hand [95% CI]", "hands won [95% CI]",
                                f"paired {unit}/hand vs bucket best [95% CI]", "hands differing", "verdict"],
                               rows, cls, caption=esc(f"Bucket {labels[b]}: threshold varied in this bucket only."),
                               numeric={0, 1, 2, 3, 4, 5}))

    # (d) parameters
    knob = KNOBS.get(spec.variant)
    params = [("variant", esc(spec.variant)), ("players", esc(n_players)),
              ("seat 0 base strategy", f"<code>{esc(spec.strategy)}</code>"),
              ("varied parameter", f"<code>{esc(knob.param)}</code>" if knob else "n/a"),
              ("opponent strategy (other seats)", f"<code>{esc(spec.opponent)}</code>"),
              ("thresholds", esc(", ".join(map(str, spec.thresholds)))),
              ("hands per threshold", f"{spec.hands:,}"),
              ("by turn", (f"yes: mid from own turn {spec.buckets[0]}, late from {spec.buckets[1]}"
                           if spec.bucket_by == "turn" else
                           f"yes, by stock size: mid when <= {spec.buckets[0]} cards left, late when <= {spec.buckets[1]}")
               if spec.by_turn else "no"),
              ("games per threshold", f"{spec.games:,}" if spec.games else "none"),
              ("rule options given", esc(", ".join(spec.rules) or "none (defaults)")),
              ("seed", esc(spec.seed)), ("best single threshold", esc(res.best_overall))]
    body.append(f"<h3 id=\"{anchor}-params\">Sweep parameters</h3>")
    body.append(_kv_table(params))

    # methods
    m = sec.methods
    first = next((x for x in metas.values() if x), None)
    if first:
        arm0 = first["arms"][0]
        m.append(_kv_table([
            ("variant", esc(arm0["variant"])),
            ("rules (all options)", f"<code>{esc(_params(arm0['rules']))}</code> (rules version "
                                    f"{esc(arm0.get('rules_version'))})"),
            *[(f"seat {s}", f"<code>{esc(st['spec'])}</code>" + (" — threshold varied" if s == 0 else "")
               + f"<br><span class=\"small\">{esc(st['family'])}: {esc(_params(st['params']))}</span>")
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
                     f"<code>{esc(_params(meta.get('versions', {})))}</code>", f"<code>{esc(meta.get('git'))}</code>"])
    m.append(_table(["stage", "arms", "per arm", "simulated", "elapsed", "compile/cache", "versions", "git"],
                    rows, caption="Stages (stored sub-folders overall/, by_turn/, games/)", numeric={1, 2, 3, 4, 5}))
    return sec


# ----------------------------------------------------------------------------------------
# tonk odds

ODDS_KEYS = ("players", "tonk_min", "quantity", "exact", "sim", "sim_lo", "sim_hi", "n", "ci_misses_exact")


def _odds_section(folder: Path, anchor: str) -> RunSection:
    data = _read_json(folder / "odds.json")
    if data.get("kind") != "tonk_odds":
        raise StoreError(f"{folder}/odds.json is not a tonk odds result (kind {data.get('kind')!r})")
    rows_in = data.get("rows") or []
    for r in rows_in:
        miss = [k for k in ODDS_KEYS if k not in r]
        if miss:
            raise StoreError(f"{folder}/odds.json: a row lacks {', '.join(miss)}")
    qorder = list(QUANTITY_LABELS)
    rows_in = sorted(rows_in, key=lambda r: (r["players"], r["tonk_min"],
                                             qorder.index(r["quantity"]) if r["quantity"] in qorder else 99))
    sec = RunSection("tonk_odds", str(folder), anchor, f"Tonk on the deal: exact vs simulated — {folder.name}")
    n_miss = sum(bool(r["ci_misses_exact"]) for r in rows_in)
    body = sec.body
    body.append(f"<p>Probability of a tonk on the deal (five-card hands totalling at least "
                f"<code>tonk_min</code>): exact values by combinatorics "
                f"(<code>analysis/studies/tonk_odds.py</code>) against {data.get('deals', 0):,} simulated "
                f"deals (seed {esc(data.get('seed'))}) with 95% Wilson intervals. "
                f"<strong>{n_miss} of {len(rows_in)}</strong> intervals miss the exact value "
                f"(about {0.05 * len(rows_in):.1f} expected by chance at 95%).</p>")
    if rows_in:
        body.append(_odds_figure(f"{anchor}-odds", rows_in, data))
    rows, cls = [], []
    for r in rows_in:
        sim = f"{r['sim']:.4g} <span class=\"ci\">[{r['sim_lo']:.4g}, {r['sim_hi']:.4g}]</span>"
        rows.append([esc(r["players"]), esc(r["tonk_min"]), esc(QUANTITY_LABELS.get(r["quantity"], r["quantity"])),
                     f"{r['exact']:.6g}", sim, f"{r['n']:,}", "CI misses exact" if r["ci_misses_exact"] else "ok"])
        cls.append("flag" if r["ci_misses_exact"] else "")
    body.append(_table(["players", "tonk_min", "quantity", "exact", "simulated [95% CI]", "deals", "check"],
                       rows, cls, caption="Exact vs simulated; flagged rows (red) have a 95% CI that misses "
                                          "the exact value.", numeric={0, 1, 3, 4, 5}))
    sec.methods.append(_kv_table([
        ("variant", "tonk (deal only: five cards to each player from one 52-card pack)"),
        ("simulated deals", f"{data.get('deals', 0):,}"), ("seed", esc(data.get("seed"))),
        ("players", esc(", ".join(map(str, sorted({r['players'] for r in rows_in}))))),
        ("tonk_min", esc(", ".join(map(str, sorted({r['tonk_min'] for r in rows_in}))))),
        ("versions", f"<code>{esc(_params(data.get('versions') or {}))}</code>"),
        ("git", f"<code>{esc(data.get('git'))}</code>"),
    ]))
    return sec


def _odds_figure(name: str, rows: list[dict], data: dict) -> FigureInfo:
    import numpy as np
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    quantities = [q for q in QUANTITY_LABELS if any(r["quantity"] == q for r in rows)]
    mins = sorted({r["tonk_min"] for r in rows})
    ncol = 2 if len(quantities) > 1 else 1
    nrow = math.ceil(len(quantities) / ncol)
    fig = _new_figure(9.5, 3.3 * nrow + 0.6)
    axs = np.atleast_1d(fig.subplots(nrow, ncol, squeeze=False)).ravel()
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:olive"]
    used = []
    for ax, q in zip(axs, quantities):
        used.append(ax)
        for k, t in enumerate(mins):
            sub = sorted((r for r in rows if r["quantity"] == q and r["tonk_min"] == t), key=lambda r: r["players"])
            if not sub:
                continue
            c = colors[k % len(colors)]
            x = np.array([r["players"] for r in sub], dtype=float)
            off = (k - (len(mins) - 1) / 2) * 0.08
            ex = np.array([r["exact"] for r in sub])
            ok = ex > 0
            ax.plot(x[ok], ex[ok], "_", ms=16, mew=2, color=c, label=f"exact, tonk_min {t}")
            sim = np.array([r["sim"] for r in sub])
            lo = np.array([r["sim_lo"] for r in sub])
            hi = np.array([r["sim_hi"] for r in sub])
            pos = sim > 0
            ax.errorbar(x[pos] + off, sim[pos], yerr=_yerr(sim[pos], lo[pos], hi[pos]), fmt="o",
                        ms=4, color=c, mfc="white", capsize=3, lw=1,
                        label=f"simulated ± 95% CI, tonk_min {t}")
            miss = np.array([bool(r["ci_misses_exact"]) for r in sub]) & pos
            if miss.any():
                ax.plot(x[miss] + off, sim[miss], "x", ms=10, mew=2, color="red",
                        label="CI misses exact" if "CI misses exact" not in
                        [h.get_label() for h in ax.get_lines()] else None)
        ax.set_yscale("log")
        lo_y, hi_y = ax.get_ylim()
        span = math.log10(hi_y / lo_y)
        if span < 2.3:   # few decades: label more than the powers of ten, as plain numbers
            subs = tuple(range(1, 10)) if span < 1 else (1.0, 2.0, 5.0)
            ax.yaxis.set_major_locator(LogLocator(subs=subs))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.2g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_title(QUANTITY_LABELS[q], fontsize=10)
        ax.set_xlabel("players at the table")
        ax.set_ylabel("probability per deal (log scale)")
        ax.set_xticks(sorted({r["players"] for r in rows}))
        ax.grid(alpha=0.3, which="both")
    for ax in axs[len(quantities):]:
        ax.set_visible(False)
    handles, labels = used[0].get_legend_handles_labels()
    seen = set(labels)
    for ax in used[1:]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in seen:
                handles.append(h)
                labels.append(lab)
                seen.add(lab)
    fig.legend(handles, labels, loc="outside lower center", ncol=min(3, len(labels)), fontsize=8)
    fig.suptitle(f"Tonk on the deal: exact (bars) vs simulated ({data.get('deals', 0):,} deals, 95% Wilson CI)",
                 fontsize=12)
    return _finish(fig, name, "Exact probabilities (horizontal bars) and Monte Carlo estimates with 95% "
                              "Wilson intervals (open circles), by number of players; red crosses mark "
                              "intervals that miss the exact value. Zero estimates are not drawn on the log axis.",
                   used)


# ----------------------------------------------------------------------------------------
# single simulate run

def _position_label(p: int, n: int) -> str:
    if p == n - 1:
        return "dealer"
    return "first to play" if p == 0 else f"{p + 1}{ {2: 'nd', 3: 'rd'}.get(p + 1, 'th')} to play"


def _run_section(folder: Path, anchor: str) -> RunSection:
    meta = load_meta(folder)
    total = meta["total"]
    mom = total["moments"]

    def est(name: str) -> Estimate:
        c, s, ss = mom.get(name, (0, 0, 0))
        return wilson(s, c) if name.startswith("rate:") else mean_from_moments(c, s, ss)

    variant, mode = meta["variant"], meta.get("mode", "hands")
    unit = meta.get("score_unit", "points")
    n_seats = meta.get("players") or len(meta["strategies"])
    strategies = [s["spec"] for s in meta["strategies"]]
    units = "games" if mode == "games" else "hands"
    sec = RunSection("run", str(folder), anchor, f"Simulation run: {variant} — {folder.name}")
    body = sec.body
    body.append(f"<p>{esc(variant.capitalize())}, {n_seats} players, {meta['n']:,} {units}, seed "
                f"{esc(meta['seed'])}; strategies by seat: {esc(', '.join(strategies))}. "
                f"All estimates: value [95% CI].</p>")
    body.append(f"<h3 id=\"{anchor}-seats\">Seats</h3>")
    rows = []
    if mode == "games":
        for s in range(n_seats):
            rows.append([str(s), f"<code>{esc(strategies[s])}</code>", _est_html(est(f"rate:win{s}"), 2, pct=True),
                         _est_html(est(f"net{s}"), 2, sign=True), _est_html(est(f"points{s}"), 2)])
        body.append(_table(["seat", "strategy", "games won", f"mean net {unit}/game", f"mean {unit}/game"],
                           rows, numeric={0, 2, 3, 4}))
        body.append(_kv_table([
            ("first dealer wins the game", _est_html(est("rate:first_dealer_wins"), 2, pct=True)),
            ("hands per game", _est_html(est("hands"), 2)),
            ("void hands per game", _est_html(est("voids"), 3)),
            ("turns per game", _est_html(est("turns"), 1))]))
    else:
        for s in range(n_seats):
            rows.append([str(s), f"<code>{esc(strategies[s])}</code>", _est_html(est(f"rate:win{s}"), 2, pct=True),
                         _est_html(est(f"score{s}"), 3, sign=True), _est_html(est(f"deadwood{s}"), 2)])
        body.append(_table(["seat", "strategy", "hands won", f"mean {unit}/hand", "mean final deadwood/count"],
                           rows, numeric={0, 2, 3, 4}))
        rows = [[esc(_position_label(p, n_seats)), _est_html(est(f"rate:pos{p}_win"), 2, pct=True),
                 _est_html(est(f"pos{p}_score"), 3, sign=True)] for p in range(n_seats)]
        body.append(_table(["position (from the dealer's left)", "hands won", f"mean {unit}/hand"], rows,
                           caption="By seating position relative to the dealer.", numeric={1, 2}))
    body.append(_seats_figure(f"{anchor}-seats", meta, est, strategies, n_seats, mode, unit))

    if mode != "games":
        outcomes = meta.get("outcomes", [])
        body.append(f"<h3 id=\"{anchor}-outcomes\">How hands end</h3>")
        rows = [[esc(o.replace("_", " ")), _est_html(est(f"rate:outcome:{o}"), 2, pct=True),
                 f"{mom.get(f'rate:outcome:{o}', (0, 0, 0))[1]:,}"] for o in outcomes]
        body.append(_outcome_figure(f"{anchor}-outcomes", meta, est))
        body.append(_table(["outcome", "share of hands [95% CI]", "hands"], rows, numeric={1, 2}))
        cols = meta.get("columns", [])
        last_dw = max((i for i, c in enumerate(cols) if re.fullmatch(r"deadwood\d+", c)), default=len(cols) - 1)
        extras = [c for c in cols[last_dw + 1:] if c in mom and c not in ("winner", "points")]
        extras = [("stock left at the end", "stock_left")] * ("stock_left" in mom) + \
            [(c.replace("_", " "), c) for c in extras]
        if extras:
            body.append(_table(["quantity", "mean [95% CI]", "hands where defined"],
                               [[esc(lab), _est_html(est(c), 3), f"{est(c).n:,}"] for lab, c in extras],
                               caption="Other per-hand quantities (mean over the hands where defined).",
                               numeric={1, 2}))
    hist_name = "hands" if mode == "games" else "turns"
    hist = total.get("hists", {}).get(hist_name)
    if hist and sum(hist):
        body.append(f"<h3 id=\"{anchor}-length\">{'Game' if mode == 'games' else 'Hand'} length</h3>")
        body.append(_hist_figure(f"{anchor}-{hist_name}", hist, est(hist_name), hist_name, units, variant))

    m = sec.methods
    m.append(_kv_table([
        ("variant", esc(variant)), ("mode", esc(mode)),
        ("rules (all options)", f"<code>{esc(_params(meta.get('rules', {})))}</code> (rules version "
                                f"{esc(meta.get('rules_version'))})"),
        *[(f"seat {s}", f"<code>{esc(st['spec'])}</code><br><span class=\"small\">{esc(st['family'])}: "
                        f"{esc(_params(st['params']))}</span>") for s, st in enumerate(meta["strategies"])],
        (units, f"{meta['n']:,}"), ("seed", esc(meta["seed"])),
        ("elapsed", esc(f"{meta.get('elapsed_s', float('nan')):.1f} s (+{meta.get('compile_s', float('nan')):.2f} s "
                        f"compile/cache load)")),
        ("versions", f"<code>{esc(_params(meta.get('versions') or {}))}</code>"),
        ("git", f"<code>{esc(meta.get('git'))}</code>")]))
    return sec


def _bars(ax, x, es, scale, color, label, horizontal=False):
    """Bars of estimates with their 95% CI as black error bars."""
    import numpy as np
    v = np.array([e.value for e in es]) * scale
    lo = np.array([e.lo for e in es]) * scale
    hi = np.array([e.hi for e in es]) * scale
    if horizontal:
        ax.barh(x, v, color=color, alpha=0.75, label=label)
        ax.errorbar(v, x, xerr=_yerr(v, lo, hi), fmt="none", ecolor="black", capsize=3, label="95% CI")
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.bar(x, v, color=color, alpha=0.75, label=label)
        ax.errorbar(x, v, yerr=_yerr(v, lo, hi), fmt="none", ecolor="black", capsize=4, label="95% CI")
        ax.grid(axis="y", alpha=0.3)


def _seats_figure(name, meta, est, strategies, n_seats, mode, unit) -> FigureInfo:
    import numpy as np
    games = mode == "games"
    units = "games" if games else "hands"
    fig = _new_figure(9.5, 3.8)
    ax1, ax2 = fig.subplots(1, 2)
    x = np.arange(n_seats)
    labels = [f"seat {s}\n{strategies[s][:18]}" for s in range(n_seats)]
    _bars(ax1, x, [est(f"rate:win{s}") for s in range(n_seats)], 100, "tab:blue", f"{units} won")
    ax1.set_ylabel(f"{units} won (%)")
    ax1.set_title("win rate by seat (95% Wilson CI)", fontsize=10)
    score = [est(f"net{s}" if games else f"score{s}") for s in range(n_seats)]
    what = f"mean net {unit} per game" if games else f"mean {unit} per hand"
    _bars(ax2, x, score, 1, "tab:orange", what)
    ax2.axhline(0, color="black", lw=0.6)
    ax2.set_ylabel(what)
    ax2.set_title(f"{'net score' if games else 'score'} by seat (95% t CI)", fontsize=10)
    for ax in (ax1, ax2):
        ax.set_xticks(x, labels, fontsize=8)
        ax.set_xlabel("seat (strategy)")
        ax.legend(fontsize=8)
    fig.suptitle(f"{meta['variant']}: seats ({meta['n']:,} {units})", fontsize=12)
    return _finish(fig, name, f"Win rate and {what} for each seat, with 95% confidence intervals "
                              "(black bars).", [ax1, ax2])


def _outcome_figure(name, meta, est) -> FigureInfo:
    import numpy as np
    outcomes = meta.get("outcomes", [])
    fig = _new_figure(9.5, 0.9 + 0.42 * max(len(outcomes), 3))
    ax = fig.subplots()
    y = np.arange(len(outcomes))
    _bars(ax, y, [est(f"rate:outcome:{o}") for o in outcomes], 100, "tab:green", "share of hands",
          horizontal=True)
    ax.set_yticks(y, [o.replace("_", " ") for o in outcomes], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("share of hands (%)")
    ax.set_ylabel("how the hand ends")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"{meta['variant']}: how hands end ({meta['n']:,} hands, 95% Wilson CI)", fontsize=12)
    return _finish(fig, name, "Share of hands ending each way, with 95% Wilson intervals (black bars).", [ax])


def _hist_figure(name, hist, mean: Estimate, what: str, units: str, variant: str) -> FigureInfo:
    import numpy as np
    h = np.asarray(hist, dtype=float)
    n = h.sum()
    nz = np.nonzero(h)[0]
    a, b = int(nz.min()), int(nz.max())
    x = np.arange(a, b + 1)
    share = h[a:b + 1] / n * 100
    ci = [wilson(int(k), int(n)) for k in h[a:b + 1]]
    lo = np.array([c.lo for c in ci]) * 100
    hi = np.array([c.hi for c in ci]) * 100
    fig = _new_figure(9.5, 3.8)
    ax = fig.subplots()
    ax.bar(x, share, width=0.85, color="tab:purple", alpha=0.7, label=f"share of {units}")
    ax.errorbar(x, share, yerr=_yerr(share, lo, hi), fmt="none", ecolor="black", lw=0.7, capsize=1.5,
                label="95% Wilson CI per bar")
    ax.axvspan(mean.lo, mean.hi, color="tab:red", alpha=0.3, lw=0)
    ax.axvline(mean.value, color="tab:red", lw=1.5,
               label=f"mean {mean.value:.2f} [{mean.lo:.2f}, {mean.hi:.2f}] (95% t CI)")
    label = "turns per hand (all players' turns)" if what == "turns" else "hands per game"
    ax.set_xlabel(label)
    ax.set_ylabel(f"share of {units} (%)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"{variant}: distribution of {label} ({int(n):,} {units})", fontsize=12)
    return _finish(fig, name, f"Histogram of {label}, with a 95% Wilson interval per bar and the mean with its 95% t "
                              f"interval (red line and band).", [ax])


# ----------------------------------------------------------------------------------------
# detection, assembly, HTML

def detect(run_dir) -> str:
    """``knock_sweep``, ``tonk_odds`` or ``run``; anything else raises :class:`StoreError`."""
    d = Path(run_dir)
    if not d.is_dir():
        raise StoreError(f"{d.name or d}: no such run folder ({d})")
    if (d / "sweep.json").exists():
        return "knock_sweep"
    if (d / "odds.json").exists():
        return "tonk_odds"
    if (d / "meta.json").exists():
        meta = load_meta(d)
        if "columns" in meta:
            return "run"
        raise StoreError(f"{d.name}: a stage of a study, not a run; pass the study folder ({d.parent})")
    if (d / "spec.json").exists():
        load_meta(d)  # raises: "holds no complete run"
    raise StoreError(f"{d.name}: not a rummylab results folder (expected sweep.json, odds.json or "
                     f"meta.json in {d})")


_BUILDERS = {"knock_sweep": _sweep_section, "tonk_odds": _odds_section, "run": _run_section}


def build_report(run_dirs: list[str], title: str | None = None) -> Report:
    """Read every folder and render its figures (PNG bytes in memory) and HTML sections."""
    if not run_dirs:
        raise StoreError("give at least one results folder")
    kinds = [detect(d) for d in run_dirs]   # fail before any rendering
    sections, used = [], set()
    for d, kind in zip(run_dirs, kinds):
        anchor = base = _slug(Path(d).resolve().name)
        k = 2
        while anchor in used:
            anchor, k = f"{base}-{k}", k + 1
        used.add(anchor)
        sections.append(_BUILDERS[kind](Path(d), anchor))
    names = ", ".join(Path(d).resolve().name for d in run_dirs)
    return Report(title or f"rummylab report: {names}", sections, [str(d) for d in run_dirs])


CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
 line-height:1.5;color:#1d1d1f;background:#fafafa}
main{max-width:1080px;margin:0 auto;padding:1.5rem 1.25rem 3rem;background:#fff}
h1{font-size:1.7rem;margin:.2rem 0 .5rem}
h2{font-size:1.35rem;margin:2.2rem 0 .6rem;padding-top:.6rem;border-top:2px solid #ddd}
h3{font-size:1.1rem;margin:1.6rem 0 .5rem}
h4{font-size:1rem;margin:1.2rem 0 .4rem}
p.lead{color:#444}
nav ul{margin:.3rem 0;padding-left:1.3rem}
figure{margin:1rem 0 1.2rem}
figure img{display:block;max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.9rem;color:#444;margin-top:.35rem}
.scroll{overflow-x:auto;margin:.6rem 0 1rem}
table{border-collapse:collapse;font-size:.88rem}
caption{text-align:left;font-size:.88rem;color:#444;padding:.2rem 0}
th,td{border:1px solid #bbb;padding:.25rem .5rem;vertical-align:top}
thead th{background:#eef0f3;text-align:left}
table.kv th{background:#f4f5f7;text-align:left;font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.nowrap{white-space:nowrap}
.ci{color:#666;font-size:.85em}
.small{color:#555;font-size:.85em}
tr.best td{background:#fff3c4;font-weight:600}
tr.same td{background:#e6f4e6}
tr.knock td{background:#dbe9f6}
tr.playon td{background:#f8dede}
tr.undecided td{background:#efefef;color:#555}
tr.flag td{background:#f8d0d0;font-weight:600}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.85em;word-break:break-word}
footer{margin-top:2.5rem;font-size:.85rem;color:#555;border-top:1px solid #ddd;padding-top:.6rem}
"""

METHODS_TEXT = """
<p><strong>Stored runs only.</strong> This report reads finished results folders and never simulates.
Every number is computed from the stored totals (exact integer counts, sums and sums of squares per
series), so it is the same however the run was split into chunks or processes, and it can be traced
to the folder named in each section.</p>
<p><strong>Confidence intervals.</strong> Every estimate is shown with its 95% confidence interval.
Rates (hands won, games won, outcome shares, tonk probabilities) use the <em>Wilson score</em> interval,
which stays accurate near 0 and 1. Means (points or stakes per hand, net per game, turns) use the
<em>Student-t</em> interval from the exact moments.</p>
<p><strong>Common random numbers and paired differences.</strong> In a sweep every arm (threshold)
plays the same hands: hand <em>i</em> is the same deal, with the same random numbers for the strategies,
in every arm. Two arms are therefore compared hand by hand: the <em>paired difference</em> is the mean
of the per-hand differences with its t interval. Most of the deal-to-deal luck cancels, so paired
intervals are far narrower than the difference of two independent means; “hands differing” counts the
hands where the two arms actually scored differently. An arm whose paired interval to the best arm
contains 0 is marked <em>indistinguishable from the best</em>.</p>
<p><strong>The knock chart.</strong> Thresholds d and d−1 within one turn bucket play differently only on
hands where seat 0 could knock at exactly d in that bucket (“hands affected”); their paired difference is
the expected gain of knocking there instead of playing on, averaged over all hands. A cell is
“knock” if its 95% interval lies above 0, “play on” if below 0, and “?” (never guessed) if it contains 0.
Each interval is 95% on its own: among many cells where the true margin is 0 about 1 in 20 will still
look decided, so isolated decisions next to “?” cells deserve more hands.</p>
"""


def _figure_html(f: FigureInfo) -> str:
    b64 = base64.b64encode(f.png).decode("ascii")
    return (f"<figure id=\"fig-{esc(f.name)}\"><img src=\"data:image/png;base64,{b64}\" width=\"{f.width}\" "
            f"height=\"{f.height}\" alt=\"{esc(f.title)}\">"
            f"<figcaption><strong>{esc(f.title)}.</strong> {esc(f.caption)} "
            f"<span class=\"small\">(PNG: {esc(Path(f.path).name) if f.path else esc(f.name + '.png')})</span>"
            f"</figcaption></figure>")


def report_html(report: Report) -> str:
    out = ["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
           "<meta name=\"generator\" content=\"rummylab report\">",
           f"<title>{esc(report.title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>", "<main>",
           f"<h1>{esc(report.title)}</h1>",
           f"<p class=\"lead\">Rendered from {len(report.sections)} stored result folder"
           f"{'s' if len(report.sections) != 1 else ''}; nothing was re-simulated. All intervals are 95%.</p>",
           "<nav aria-label=\"contents\"><strong>Contents</strong><ul>"]
    for s in report.sections:
        out.append(f"<li><a href=\"#{esc(s.anchor)}\">{esc(s.title)}</a></li>")
    out.append("<li><a href=\"#methods\">Methods</a></li></ul></nav>")
    for s in report.sections:
        out.append(f"<section id=\"{esc(s.anchor)}\" aria-labelledby=\"{esc(s.anchor)}-h\">")
        out.append(f"<h2 id=\"{esc(s.anchor)}-h\">{esc(s.title)}</h2>")
        out.append(f"<p class=\"small\">Folder: <code>{esc(s.folder)}</code></p>")
        for b in s.body:
            out.append(_figure_html(b) if isinstance(b, FigureInfo) else b)
        out.append("</section>")
    out.append("<section id=\"methods\" aria-labelledby=\"methods-h\"><h2 id=\"methods-h\">Methods</h2>")
    out.append(METHODS_TEXT)
    for s in report.sections:
        out.append(f"<h3>{esc(s.title)}</h3>")
        out.append(f"<p class=\"small\">Folder: <code>{esc(s.folder)}</code></p>")
        out.extend(s.methods)
    out.append("</section>")
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out.append(f"<footer>Generated by <code>rummylab report</code> on {stamp} from: "
               f"{esc(', '.join(report.run_dirs))}.</footer>")
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)   # mkstemp makes 0600; reports are meant to be shared
    os.replace(tmp, path)


def write_report(report: Report, html_path) -> list[str]:
    """Write the PNGs beside ``html_path`` (named ``<run>-<figure>.png``) and the HTML file."""
    html_path = Path(html_path)
    out_dir = html_path.parent
    paths = []
    for f in report.figures:
        p = out_dir / f"{f.name}.png"
        _write_atomic(p, f.png)
        f.path = str(p)
        paths.append(str(p))
    _write_atomic(html_path, report_html(report).encode("utf-8"))
    return paths


def render_report(run_dirs: list[str], html_path: str, title: str | None = None) -> list[str]:
    """Render stored runs into one self-contained HTML file; returns the PNG paths written."""
    return write_report(build_report(run_dirs, title), html_path)


# ----------------------------------------------------------------------------------------
# CLI

def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "report", help="render stored runs into one HTML report with PNG plots (never re-simulates)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Render results folders (knock sweeps, tonk odds, simulate runs with --out) into one "
                    "self-contained HTML file with embedded figures; the PNGs are also written beside it.",
        epilog="examples:\n"
               "  rummylab report runs/gin-knock --html reports/index.html\n"
               "  rummylab report runs/gin-knock runs/tonk-knock runs/tonk-odds --html reports/index.html\n"
               "  rummylab report runs/gin-simple --html reports/gin.html --title \"Gin baseline\"")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR",
                   help="results folders: knock-sweep --out, simulate --out, or a tonk odds folder")
    p.add_argument("--html", default="reports/index.html", metavar="FILE",
                   help="HTML file to write; PNGs go beside it (default reports/index.html)")
    p.add_argument("--title", default=None, help="report title (default: names the folders)")
    p.set_defaults(func=cmd)
    return p


def cmd(args) -> int:
    pngs = render_report(args.runs, args.html, title=args.title)
    print(f"wrote {args.html} ({len(pngs)} figure{'' if len(pngs) == 1 else 's'}, also as PNG beside it)")
    for p in pngs:
        print(f"  {p}")
    return 0
