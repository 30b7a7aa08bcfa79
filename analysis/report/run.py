"""Report section of a single ``rummylab simulate --out`` run: seats, positions, outcome mix and
hand (or game) length, every estimate with its 95% CI."""

from __future__ import annotations

import re
from pathlib import Path

from ..stats import Estimate, mean_from_moments, wilson
from ..store import load_meta
from .figures import FigureInfo, bars, finish, new_figure, yerr
from .html import esc, est_html, html_table, kv_table, params_text
from .registry import RunSection, section
from ..wording import ci_text, decimals

KIND = "run"


def _position_label(p: int, n: int) -> str:
    if p == n - 1:
        return "dealer"
    return "first to play" if p == 0 else f"{p + 1}{ {2: 'nd', 3: 'rd'}.get(p + 1, 'th')} to play"


def _estimator(meta: dict):
    mom = meta["total"]["moments"]

    def est(name: str) -> Estimate:
        c, s, ss = mom.get(name, (0, 0, 0))
        return wilson(s, c) if name.startswith("rate:") else mean_from_moments(c, s, ss)
    return est


def stored_run_answer(folder) -> list[str]:
    """The landing page's answer for a stored run (``rummylab demo`` prints it as it lands)."""
    meta = load_meta(Path(folder))
    if meta.get("mode", "hands") == "games" or "pos0_score" not in meta["total"]["moments"]:
        return []
    given = _given_rules(meta["variant"], meta.get("rules", {}))
    return run_answer({**meta, "given_rules": given}, _estimator(meta)("pos0_score"))


@section(KIND, file="meta.json", claims=lambda meta: "columns" in meta)
def run_section(folder: Path, anchor: str) -> RunSection:
    meta = load_meta(folder)
    total = meta["total"]
    mom = total["moments"]
    est = _estimator(meta)

    variant, mode = meta["variant"], meta.get("mode", "hands")
    unit = meta.get("score_unit", "points")
    n_seats = meta.get("players") or len(meta["strategies"])
    strategies = [s["spec"] for s in meta["strategies"]]
    units = "games" if mode == "games" else "hands"
    sec = RunSection(KIND, str(folder), anchor, f"Simulation run: {variant} — {folder.name}")
    sec.game, sec.group = variant, "runs"
    given = _given_rules(variant, meta.get("rules", {}))
    sec.question = (f"{variant}, {n_seats} players{' with ' + ', '.join(given) if given else ''}: "
                    f"how do the seats do ({', '.join(dict.fromkeys(strategies))})?")
    if mode != "games" and "pos0_score" in mom:
        sec.answer = stored_run_answer(folder)
    body = sec.body
    body.append(f"<p>{esc(variant.capitalize())}, {n_seats} players, {meta['n']:,} {units}, seed "
                f"{esc(meta['seed'])}; strategies by seat: {esc(', '.join(strategies))}. "
                f"All estimates: value [95% CI].</p>")
    body.append(f"<h3 id=\"{anchor}-seats\">Seats</h3>")
    rows = []
    if mode == "games":
        for s in range(n_seats):
            rows.append([str(s), f"<code>{esc(strategies[s])}</code>", est_html(est(f"rate:win{s}"), 2, pct=True),
                         est_html(est(f"net{s}"), 2, sign=True), est_html(est(f"points{s}"), 2)])
        body.append(html_table(["seat", "strategy", "games won", f"mean net {unit}/game", f"mean {unit}/game"],
                               rows, numeric={0, 2, 3, 4}))
        body.append(kv_table([
            ("first dealer wins the game", est_html(est("rate:first_dealer_wins"), 2, pct=True)),
            ("hands per game", est_html(est("hands"), 2)),
            ("void hands per game", est_html(est("voids"), 3)),
            ("turns per game", est_html(est("turns"), 1))]))
    else:
        for s in range(n_seats):
            rows.append([str(s), f"<code>{esc(strategies[s])}</code>", est_html(est(f"rate:win{s}"), 2, pct=True),
                         est_html(est(f"score{s}"), 3, sign=True), est_html(est(f"deadwood{s}"), 2)])
        body.append(html_table(["seat", "strategy", "hands won", f"mean {unit}/hand", "mean final deadwood/count"],
                               rows, numeric={0, 2, 3, 4}))
        rows = [[esc(_position_label(p, n_seats)), est_html(est(f"rate:pos{p}_win"), 2, pct=True),
                 est_html(est(f"pos{p}_score"), 3, sign=True)] for p in range(n_seats)]
        body.append(html_table(["position (from the dealer's left)", "hands won", f"mean {unit}/hand"], rows,
                               caption="By seating position relative to the dealer.", numeric={1, 2}))
    body.append(_seats_figure(f"{anchor}-seats", meta, est, strategies, n_seats, mode, unit))

    if mode != "games":
        body += _outcomes_part(anchor, meta, est)
    hist_name = "hands" if mode == "games" else "turns"
    hist = total.get("hists", {}).get(hist_name)
    if hist and sum(hist):
        body.append(f"<h3 id=\"{anchor}-length\">{'Game' if mode == 'games' else 'Hand'} length</h3>")
        body.append(_hist_figure(f"{anchor}-{hist_name}", hist, est(hist_name), hist_name, units, variant))

    sec.methods.append(_methods_table(meta, variant, mode, units))
    return sec


def _outcomes_part(anchor: str, meta: dict, est) -> list:
    """How hands end (a figure and a table of outcome shares) and the game's other per-hand
    quantities; ``est(name)`` is the run's estimate of one moment."""
    mom = meta["total"]["moments"]
    out = []
    outcomes = meta.get("outcomes", [])
    out.append(f"<h3 id=\"{anchor}-outcomes\">How hands end</h3>")
    rows = [[esc(o.replace("_", " ")), est_html(est(f"rate:outcome:{o}"), 2, pct=True),
             f"{mom.get(f'rate:outcome:{o}', (0, 0, 0))[1]:,}"] for o in outcomes]
    out.append(_outcome_figure(f"{anchor}-outcomes", meta, est))
    out.append(html_table(["outcome", "share of hands [95% CI]", "hands"], rows, numeric={1, 2}))
    cols = meta.get("columns", [])
    last_dw = max((i for i, c in enumerate(cols) if re.fullmatch(r"deadwood\d+", c)), default=len(cols) - 1)
    extras = [c for c in cols[last_dw + 1:] if c in mom and c not in ("winner", "points")]
    extras = [("stock left at the end", "stock_left")] * ("stock_left" in mom) + \
        [(c.replace("_", " "), c) for c in extras]
    if extras:
        out.append(html_table(["quantity", "mean [95% CI]", "hands where defined"],
                               [[esc(lab), est_html(est(c), 3), f"{est(c).n:,}"] for lab, c in extras],
                               caption="Other per-hand quantities (mean over the hands where defined).",
                               numeric={1, 2}))
    return out


def _methods_table(meta: dict, variant: str, mode: str, units: str) -> str:
    """The run's rules, strategies, sizes, timings and versions as a key-value table."""
    return kv_table([
        ("variant", esc(variant)), ("mode", esc(mode)),
        *([("rule set", f"<code>{esc(meta['rule_set'])}</code>")] if meta.get("rule_set") else []),
        ("rules (all options)", f"<code>{esc(params_text(meta.get('rules', {})))}</code> (rules version "
                                f"{esc(meta.get('rules_version'))})"),
        *[(f"seat {s}", f"<code>{esc(st['spec'])}</code><br><span class=\"small\">{esc(st['family'])}: "
                        f"{esc(params_text(st['params']))}</span>") for s, st in enumerate(meta["strategies"])],
        (units, f"{meta['n']:,}"), ("seed", esc(meta["seed"])),
        ("elapsed", esc(f"{meta.get('elapsed_s', float('nan')):.1f} s (+{meta.get('compile_s', float('nan')):.2f} s "
                        f"compile/cache load)")),
        ("versions", f"<code>{esc(params_text(meta.get('versions') or {}))}</code>"),
        ("git", f"<code>{esc(meta.get('git'))}</code>")])


def _given_rules(variant: str, rules: dict) -> list[str]:
    """The rule options of a stored run that differ from the game's defaults ('k=v')."""
    import dataclasses

    from sim.variants import get_variant
    try:
        defaults = {f.name: f.default for f in dataclasses.fields(get_variant(variant).rules_cls)}
    except (KeyError, TypeError, ValueError):
        return []
    word = (lambda v: ("on" if v else "off") if isinstance(v, bool) else v)
    return [f"{k}={word(v)}" for k, v in rules.items() if k in defaults and k != "players"
            and defaults[k] != v and not (isinstance(defaults[k], bool) and bool(v) == defaults[k])]


def _seats_figure(name, meta, est, strategies, n_seats, mode, unit) -> FigureInfo:
    import numpy as np
    games = mode == "games"
    units = "games" if games else "hands"
    fig = new_figure(9.5, 3.8)
    ax1, ax2 = fig.subplots(1, 2)
    x = np.arange(n_seats)
    labels = [f"seat {s}\n{strategies[s][:18]}" for s in range(n_seats)]
    bars(ax1, x, [est(f"rate:win{s}") for s in range(n_seats)], 100, "tab:blue", f"{units} won")
    ax1.set_ylabel(f"{units} won (%)")
    ax1.set_title("win rate by seat (95% Wilson CI)", fontsize=10)
    score = [est(f"net{s}" if games else f"score{s}") for s in range(n_seats)]
    what = f"mean net {unit} per game" if games else f"mean {unit} per hand"
    bars(ax2, x, score, 1, "tab:orange", what)
    ax2.axhline(0, color="black", lw=0.6)
    ax2.set_ylabel(what)
    ax2.set_title(f"{'net score' if games else 'score'} by seat (95% t CI)", fontsize=10)
    for ax in (ax1, ax2):
        ax.set_xticks(x, labels, fontsize=8)
        ax.set_xlabel("seat (strategy)")
        ax.legend(fontsize=8)
    fig.suptitle(f"{meta['variant']}: seats ({meta['n']:,} {units})", fontsize=12)
    return finish(fig, name, f"Win rate and {what} for each seat, with 95% confidence intervals "
                  "(black bars).", [ax1, ax2])


def _outcome_figure(name, meta, est) -> FigureInfo:
    import numpy as np
    outcomes = meta.get("outcomes", [])
    fig = new_figure(9.5, 0.9 + 0.42 * max(len(outcomes), 3))
    ax = fig.subplots()
    y = np.arange(len(outcomes))
    bars(ax, y, [est(f"rate:outcome:{o}") for o in outcomes], 100, "tab:green", "share of hands",
         horizontal=True)
    ax.set_yticks(y, [o.replace("_", " ") for o in outcomes], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("share of hands (%)")
    ax.set_ylabel("how the hand ends")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"{meta['variant']}: how hands end ({meta['n']:,} hands, 95% Wilson CI)", fontsize=12)
    return finish(fig, name, "Share of hands ending each way, with 95% Wilson intervals (black bars).", [ax])


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
    fig = new_figure(9.5, 3.8)
    ax = fig.subplots()
    ax.bar(x, share, width=0.85, color="tab:purple", alpha=0.7, label=f"share of {units}")
    ax.errorbar(x, share, yerr=yerr(share, lo, hi), fmt="none", ecolor="black", lw=0.7, capsize=1.5,
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
    return finish(fig, name, f"Histogram of {label}, with a 95% Wilson interval per bar and the mean with its 95% t "
                  f"interval (red line and band).", [ax])


# ----------------------------------------------------------------------------------------
# a single run's answer in sentences (analysis.wording has the words)

def run_answer(meta: dict, first: "Estimate") -> list[str]:
    """A single run's seat edge: the first to play's mean score per hand."""
    rules = list(meta.get("given_rules") or [])
    d = decimals(first.value, first.lo, first.hi)
    return [f"{meta['variant']}, {meta['n']:,} hands{' with ' + ', '.join(rules) if rules else ''}: the first to "
            f"play (non-dealer) scores {ci_text(first.value, first.lo, first.hi, d, meta.get('score_unit', 'points') + ' per hand')}."]
