"""Report section of tonk-on-the-deal odds (``odds.json``): exact vs simulated probabilities."""

from __future__ import annotations

import math
from pathlib import Path

from ..store import StoreError, read_study
from .figures import FigureInfo, finish, new_figure, yerr
from .html import esc, html_table, kv_table, params_text
from .registry import RunSection, section
from ..studies.tonk_odds import tonk_odds_answer

KIND = "tonk_odds"
QUANTITY_LABELS = {
    "p_given": "a given player is dealt a tonk",
    "p_at_least_one": "at least one tonk",
    "p_exactly_one": "exactly one tonk (paid out)",
    "p_two_or_more": "two or more tonks (tie, redeal)",
}
ODDS_KEYS = ("players", "tonk_min", "quantity", "exact", "sim", "sim_lo", "sim_hi", "n", "ci_misses_exact")


def stored_odds_answer(folder) -> list[str]:
    """The landing page's answer for a stored tonk odds study (``rummylab demo`` prints it)."""
    return tonk_odds_answer(read_study(Path(folder), "odds"), _default_tonk_min())


@section(KIND, file="odds.json")
def odds_section(folder: Path, anchor: str) -> RunSection:
    data = read_study(folder, "odds")
    if data.get("kind") != KIND:
        raise StoreError(f"{folder}/odds.json is not a tonk odds result (kind {data.get('kind')!r})")
    rows_in = data.get("rows") or []
    for r in rows_in:
        miss = [k for k in ODDS_KEYS if k not in r]
        if miss:
            raise StoreError(f"{folder}/odds.json: a row lacks {', '.join(miss)}")
    qorder = list(QUANTITY_LABELS)
    rows_in = sorted(rows_in, key=lambda r: (r["players"], r["tonk_min"],
                                             qorder.index(r["quantity"]) if r["quantity"] in qorder else 99))
    sec = RunSection(KIND, str(folder), anchor, f"Tonk on the deal: exact vs simulated — {folder.name}")
    sec.game, sec.group = "tonk", "odds"
    sec.question = "How often is a tonk dealt, by player count (exact, and simulated as a check)?"
    sec.answer = tonk_odds_answer({**data, "rows": rows_in}, _default_tonk_min())
    n_miss = sum(bool(r["ci_misses_exact"]) for r in rows_in)
    body = sec.body
    body.append(f"<p>Probability of a tonk on the deal (five-card hands totalling at least "
                f"<code>tonk_min</code>): exact values by combinatorics "
                f"(<code>analysis/studies/tonk_odds.py</code>) against {data.get('deals', 0):,} simulated "
                f"deals (seed {esc(data.get('seed'))}) with 95% Wilson intervals (Clopper&ndash;Pearson's exact "
                f"interval where fewer than 5 deals are expected to show it). "
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
    body.append(html_table(["players", "tonk_min", "quantity", "exact", "simulated [95% CI]", "deals", "check"],
                           rows, cls, caption="Exact vs simulated; flagged rows (red) have a 95% CI that misses "
                           "the exact value.", numeric={0, 1, 3, 4, 5}))
    sec.methods.append(kv_table([
        ("variant", "tonk (deal only: five cards to each player from one 52-card pack)"),
        ("simulated deals", f"{data.get('deals', 0):,}"), ("seed", esc(data.get("seed"))),
        ("players", esc(", ".join(map(str, sorted({r['players'] for r in rows_in}))))),
        ("tonk_min", esc(", ".join(map(str, sorted({r['tonk_min'] for r in rows_in}))))),
        ("versions", f"<code>{esc(params_text(data.get('versions') or {}))}</code>"),
        ("git", f"<code>{esc(data.get('git'))}</code>"),
    ]))
    return sec


def _default_tonk_min() -> int | None:
    """The rules' default deal minimum for a tonk (None if the game declares none)."""
    import dataclasses

    from sim.variants import get_variant
    return next((f.default for f in dataclasses.fields(get_variant("tonk").rules_cls) if f.name == "tonk_deal_min"),
                None)


def _odds_figure(name: str, rows: list[dict], data: dict) -> FigureInfo:
    import numpy as np
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    quantities = [q for q in QUANTITY_LABELS if any(r["quantity"] == q for r in rows)]
    mins = sorted({r["tonk_min"] for r in rows})
    ncol = 2 if len(quantities) > 1 else 1
    nrow = math.ceil(len(quantities) / ncol)
    fig = new_figure(9.5, 3.3 * nrow + 0.6)
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
            ax.errorbar(x[pos] + off, sim[pos], yerr=yerr(sim[pos], lo[pos], hi[pos]), fmt="o",
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
    fig.suptitle(f"Tonk on the deal: exact (bars) vs simulated ({data.get('deals', 0):,} deals, "
                 "95% CI: Wilson, Clopper-Pearson below 5 expected)",
                 fontsize=12)
    return finish(fig, name, "Exact probabilities (horizontal bars) and Monte Carlo estimates with 95% "
                  "Wilson intervals (Clopper-Pearson below 5 expected deals; open circles), by number of "
                  "players; red crosses mark "
                  "intervals that miss the exact value. Zero estimates are not drawn on the log axis.",
                  used)
