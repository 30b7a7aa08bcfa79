"""Text and JSON rendering of a knock sweep (the CLI's output; the HTML report is analysis/report/)."""

from __future__ import annotations


from sim.variants import get_variant

from .. import json_text
from ..wording import answer_lines, ci_text, decimals, ns_suffix, players_of, preset_line, rules_lines, span
from .knob import acts_at, advice, all_hand, games_phrase, is_zero, symbol, value_word, when, won_phrase
from .knock_sweep import SweepResult
from .sweep_stats import (
    BEST_METHOD,
    BUCKETS,
    CHART_METHOD,
    bucket_label,
    by_turn_tables,
    knock_chart,
    policy_summary,
    sweep_table,
)


def records(table) -> list[dict]:
    """A table's rows for JSON: a missing estimate (NaN: a penalty hand's win rate) as null."""
    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
            for row in table.to_dict(orient="records")]


def sweep_dict(res: SweepResult) -> dict:
    spec = res.spec
    unit = get_variant(spec.variant).score_unit
    d = {"variant": spec.variant, "spec": {**spec.__dict__}, "best_overall": res.best_overall,
         "complete": res.complete, "unit": unit, "elapsed_s": round(res.elapsed_s, 2),
         "compile_s": round(res.compile_s, 2), "hands_simulated": res.hands_simulated,
         "games_simulated": res.games_simulated,
         "stages": res.stages, "methods": {"best": BEST_METHOD}, "mcb_critical": {}}
    if res.overall:
        t = sweep_table(spec, res.overall)
        d["overall"], d["mcb_critical"]["overall"] = records(t), t.attrs["mcb_c"]
    if res.by_turn:
        tables = by_turn_tables(spec, res.by_turn)
        d["by_turn"] = {b: records(t) for b, t in tables.items()}
        d["mcb_critical"]["by_turn"] = {b: t.attrs["mcb_c"] for b, t in tables.items()}
        d["knock_chart"] = knock_chart(spec, res.by_turn).to_dict(orient="records")
        d["methods"]["knock_chart"] = CHART_METHOD
    if res.policy:
        d["policy"] = policy_summary(spec, res.policy, res.policy_thresholds, res.best_overall)
    if res.games:
        t = sweep_table(spec, res.games, mode="games")
        d["games"], d["mcb_critical"]["games"] = records(t), t.attrs["mcb_c"]
    return d


def _table(df, mean_name: str, win_name: str, diff_name: str, diff_scale: float = 1.0) -> list[str]:
    lines = [f"{'thr':>4} {mean_name:>28} {win_name:>24} {diff_name:>32} {'vs best of the others, MCB':>28}  verdict"]
    k = diff_scale
    for r in df.itertuples():
        verdict = "BEST" if r.best else ("~ same as best" if r.indistinguishable else "worse")
        win = (f"{100 * r.win_rate:>7.2f}% [{100 * r.win_lo:.2f}, {100 * r.win_hi:.2f}]"
               if r.win_rate == r.win_rate else "n/a")          # penalty hands: no winner (NaN)
        lines.append(f"{r.threshold:>4} {r.mean:>+9.3f} [{r.mean_lo:+.3f}, {r.mean_hi:+.3f}] {win:>24} "
                     f"{k * r.diff_to_best:>+9.3f} [{k * r.diff_lo:+.3f}, {k * r.diff_hi:+.3f}]       "
                     f"[{k * r.mcb_lo:+.3f}, {k * r.mcb_hi:+.3f}]".ljust(128) + f"  {verdict}")
    lines.append(f"  verdict: {BEST_METHOD} (c = {df.attrs['mcb_c']:.3f})")
    return lines


def _chart_lines(res: SweepResult, game, detail: bool = False) -> list[str]:
    spec = res.spec
    unit, what, act = game.score_unit, value_word(game), game.knob.action
    chart = knock_chart(spec, res.by_turn)
    stepped = any(chart["from"] != chart["to"])
    cell = f"{what} a to b (column a-b)" if stepped else f"{what} exactly v"
    out = [f"{act} chart: {act} at {cell}, or play on?  EV margin of acting ({unit}/hand over all "
           f"hands, paired) with 95% CI; other buckets at threshold {res.best_overall} "
           f"({when(game, res.best_overall)})",
           f"  calls: {CHART_METHOD} over {len(chart)} cells; by-turn deals on seed {spec.seed_of('by_turn')}"
           + ("" if spec.stage_seeds == "derived" else " (stored before stage seeds were separated: "
              "the same deals as the overall stage)")]
    busy = chart.groupby("cell", sort=False)["hands_affected"].sum() > 0     # columns some hand played in
    shown = [c for c in busy.index if detail or busy[c]]
    first = chart[chart.bucket == BUCKETS[0]].set_index("cell")
    out.append(f"{'':<28}" + "".join(f"{c:>8}" for c in first.loc[shown].index))
    marks = {"knock": act.upper(), "play on": "play", "can't tell": "?"}
    for b in BUCKETS:
        sub = chart[chart.bucket == b].set_index("cell").loc[shown]
        out.append(f"{bucket_label(spec, b):<28}" + "".join(f"{marks[x]:>8}" for x in sub.decision))
    if len(shown) < len(busy):
        out.append(f"  columns {', '.join(c for c in busy.index if c not in shown)}: no hand played differently "
                   "in any bucket, not shown")
    out.append(f"  {act.upper()}: acting is better; play: playing on is better (Holm-adjusted p < 0.05); "
               "?: not called")
    if stepped:
        out.append(f"  stepped thresholds: cell a-b compares the two neighbouring arms, which differ only "
                   f"where seat 0 could {act} at {what} a to b")
    out.append("")
    out.append(f"{'bucket':<8}{what:>9}{'margin':>10}{'95% CI':>22}{'p (Holm)':>10}{'hands affected':>16}  decision")
    empty = chart["hands_affected"] == 0
    for r in (chart if detail else chart[~empty]).itertuples():
        out.append(f"{r.bucket:<8}{r.cell:>9}{r.margin:>+10.4f}   "
                   f"[{r.lo:+.4f}, {r.hi:+.4f}]{(f'{r.p_holm:.4f}' if r.tested else '-'):>10}{r.hands_affected:>16,}  "
                   f"{act if r.decision == 'knock' else r.decision}")
    if empty.any() and not detail:
        out.append(f"  ({int(empty.sum())} cells where no hand played differently, margin 0, not shown: "
                   f"--detail or --json lists every cell)")
    return out


def _policy_lines(res: SweepResult, game) -> list[str]:
    unit = game.score_unit
    p = policy_summary(res.spec, res.policy, res.policy_thresholds, res.best_overall)
    t = p["thresholds"]
    per = ", ".join(f"{b} {when(game, t[b])}" for b in BUCKETS)
    line = (f"chart policy ({per}) vs best single threshold {p['best_single']} on {p['n']:,} fresh deals "
            f"(seed {res.spec.seed_of('policy')}): {p['policy_mean']:+.3f} [{p['policy_lo']:+.3f}, "
            f"{p['policy_hi']:+.3f}] vs {p['best_mean']:+.3f} [{p['best_lo']:+.3f}, {p['best_hi']:+.3f}] "
            f"{unit}/hand; paired difference {p['diff']:+.4f} [{p['diff_lo']:+.4f}, {p['diff_hi']:+.4f}], "
            f"{p['hands_differing']:,} hands differ")
    verdict = {"better": "the chart's policy beats the best single threshold: advice",
               "can't tell": "not shown better or worse than the best single threshold",
               "same": "the chart's calls do not change the best single threshold",
               "worse": (f"FLAGGED, NOT ADVICE: the chart's policy loses to the best single threshold; "
                         f"{all_hand(game, p['best_single'])}")}[p["verdict"]]
    return [line, f"  policy: {p['rule']}", f"  verdict: {verdict}"]


def sweep_csv(res: SweepResult) -> str:
    """The sweep's tables as one CSV (for spreadsheets): a ``table`` column names each row's
    table (overall, games, by_turn:BUCKET, chart), the other columns as in ``--json``."""
    import pandas as pd
    spec, parts = res.spec, []
    if res.overall:
        parts.append(sweep_table(spec, res.overall).assign(table="overall"))
    if res.games:
        parts.append(sweep_table(spec, res.games, mode="games").assign(table="games"))
    if res.by_turn:
        parts += [t.assign(table=f"by_turn:{b}") for b, t in by_turn_tables(spec, res.by_turn).items()]
        parts.append(knock_chart(spec, res.by_turn).assign(table="chart"))
    df = pd.concat(parts, ignore_index=True, sort=False) if parts else pd.DataFrame()
    return df[["table", *[c for c in df.columns if c != "table"]]].to_csv(index=False) if parts else ""


def format_sweep(res: SweepResult, as_json: bool = False, detail: bool = False) -> str:
    """The sweep as text: its answer first (:func:`sweep_answer`), the rules
    and presets in effect, then the tables (``detail``: every chart cell, also those no hand
    played differently in)."""
    if as_json:
        return json_text.dumps(sweep_dict(res))
    spec = res.spec
    game = get_variant(spec.variant)
    unit = game.score_unit
    out = [*answer_lines(sweep_answer(res) if res.overall and res.best_overall >= 0 else []),
           *rules_lines(spec.spec_for(spec.base(), 1).rules, spec.variant),
           *preset_line(spec.variant, [spec.strategy, spec.opponent], spec.n_players), "",
           f"{game.knob.action} sweep: {spec.variant}, seat 0 = {spec.strategy} with its threshold varied "
           f"({acts_at(game, 'd')}), "
           f"others = {spec.opponent}; {spec.hands:,} hands per threshold (same deals in every arm), "
           f"seed {spec.seed}" + (f"; rules {', '.join(spec.rules)}" if spec.rules else ""),
           f"simulated {res.hands_simulated:,} hands"
           + (f" and {res.games_simulated:,} games" if res.games_simulated else "")
           + f" in {res.elapsed_s:.1f} s (+{res.compile_s:.1f} s compile/cache load)"
           + ("" if res.complete else "  -- PARTIAL (interrupted)"), ""]
    if res.overall:
        who = "seat 0 minus the average other seat" if spec.focus()[0] == "field0" else "seat 0"
        out.append(f"one threshold all hand long: {who}, mean {unit}/hand, win rate, paired difference to the best")
        out += _table(sweep_table(spec, res.overall), f"mean {unit}/hand [95% CI]", "win rate [95% CI]",
                      f"paired {unit}/hand vs best [CI]")
        out.append("")
    if res.games:
        out.append(f"{games_phrase(game)} ({spec.games:,} games per threshold, seed "
                   f"{spec.seed_of('games')}): best = most games won ({won_phrase(game, spec.spec_for(spec.base(), 1).rules)})")
        out += _table(sweep_table(spec, res.games, mode="games"), f"mean net {unit}/game [95% CI]",
                      "games won [95% CI]", "paired games won vs best, pct pts", 100.0)
        out.append("")
    if res.by_turn:
        out += _chart_lines(res, game, detail)
    if res.policy:
        out += ["", *_policy_lines(res, game)]
    return "\n".join(out)


# ----------------------------------------------------------------------------------------
# the sweep's answer in sentences (analysis.wording has the words)

def _bucket_phrase(spec, b: str) -> str:
    if spec.bucket_by != "turn":
        return bucket_label(spec, b)
    m, late = spec.buckets
    return {"early": f"in your turns 1–{m - 1}", "mid": f"in turns {m}–{late - 1}", "late": f"from turn {late}"}[b]

def _by_turn_phrase(spec, game, thresholds: dict) -> str:
    """The chart's policy bucket by bucket: 'knock at deadwood ≤ 8 in your turns 1–4, ≤ 5 in
    turns 5–8, ≤ 2 from turn 9'; a bucket at 0 in a player's words ('go for gin; never knock
    in your turns 1–4, knock at deadwood ≤ 5 in turns 5–8, ...'); one value in every bucket
    once ('go for gin; never knock in every turn')."""
    ts = [thresholds[b] for b in BUCKETS]
    if len(set(ts)) == 1:
        return f"{advice(game, ts[0], html=True)} in every turn"
    parts, named = [], False
    for b, t in zip(BUCKETS, ts):
        if is_zero(t):
            parts.append(f"{advice(game, t, html=True)} {_bucket_phrase(spec, b)}")
            continue
        lead = "" if named else f"{game.knob.action} at {value_word(game)} "
        parts.append(f"{lead}{symbol(game.knob, html=True)} {t} {_bucket_phrase(spec, b)}")
        named = True
    return ", ".join(parts)

def sweep_answer(res) -> list[str]:
    """A knock sweep's answer: the best single threshold against the runner-up, the thresholds
    the data cannot tell from it, and the chart's by-turn policy on fresh deals."""
    spec = res.spec
    game = get_variant(spec.variant)
    unit = f"{game.score_unit} per hand" + (" against the average other seat" if spec.focus()[0] == "field0" else "")
    t = sweep_table(spec, res.overall)
    best = t[t["best"]].iloc[0]
    others = t[~t["best"]]
    head = f"{spec.variant}, {players_of(spec)} players, against {spec.opponent}"
    if others.empty:
        return [f"{head}: {advice(game, int(best.threshold), html=True)} (the only threshold tried)."]
    up = others.loc[others["mean"].idxmax()]
    d = decimals(up.diff_to_best, up.diff_lo, up.diff_hi)
    same = [int(x) for x in t.loc[t["indistinguishable"] & ~t["best"], "threshold"]]
    runner = (f" ({advice(game, 0, html=True)})" if is_zero(int(up.threshold))
              else f", {when(game, int(up.threshold), html=True)}")
    out = [f"{head}: {all_hand(game, int(best.threshold), html=True)}: the best of thresholds "
           f"{span([int(x) for x in t['threshold']])}, "
           + (f"{ci_text(-up.diff_to_best, -up.diff_hi, -up.diff_lo, d, unit, test=False)} over the runner-up"
              f"{runner}{ns_suffix(-up.diff_hi, -up.diff_lo)} "
              if int(up.hands_differing) else
              f"tied with the runner-up{runner}, which plays no hand differently ")
           + f"(same deals, n = {int(best.n):,} hands per threshold); "
           + (f"threshold{'s' if len(same) > 1 else ''} {span(same)} {'are' if len(same) > 1 else 'is'} not shown "
              f"worse than the best (MCB, family-wise 95%)."
              if same else "every other threshold is shown worse (MCB, family-wise 95%).")]
    if res.policy:
        p = policy_summary(spec, res.policy, res.policy_thresholds, res.best_overall)
        per = _by_turn_phrase(spec, game, p["thresholds"])
        d = decimals(p["diff"], p["diff_lo"], p["diff_hi"])
        diff = ci_text(p["diff"], p["diff_lo"], p["diff_hi"], d, unit, test=False) + ns_suffix(p["diff_lo"], p["diff_hi"])
        verdict = {"better": f"on fresh deals this gains {diff} over the best single threshold",
                   "can't tell": f"on fresh deals it is not shown better than the best single threshold ({diff})",
                   "same": "the chart's calls do not change the best single threshold",
                   "worse": f"on fresh deals it loses {diff} to the best single threshold: not advice"}[p["verdict"]]
        out.append(f"By turn, the chart reads {per}; {verdict} (n = {p['n']:,} hands).")
    return out
