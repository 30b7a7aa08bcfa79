"""Text and JSON rendering of a knock sweep (the CLI's output; the HTML report is analysis/report/)."""

from __future__ import annotations

import json

from sim.variants import get_variant

from .knock_sweep import (
    BUCKETS,
    SweepResult,
    bucket_label,
    by_turn_tables,
    knock_chart,
    sweep_table,
)


def sweep_dict(res: SweepResult) -> dict:
    spec = res.spec
    unit = get_variant(spec.variant).score_unit
    d = {"variant": spec.variant, "spec": {**spec.__dict__}, "best_overall": res.best_overall,
         "complete": res.complete, "unit": unit, "elapsed_s": round(res.elapsed_s, 2),
         "compile_s": round(res.compile_s, 2), "hands_simulated": res.hands_simulated,
         "games_simulated": res.games_simulated,
         "stages": res.stages}
    if res.overall:
        d["overall"] = sweep_table(spec, res.overall).to_dict(orient="records")
    if res.by_turn:
        d["by_turn"] = {b: t.to_dict(orient="records") for b, t in by_turn_tables(spec, res.by_turn).items()}
        d["knock_chart"] = knock_chart(spec, res.by_turn).to_dict(orient="records")
    if res.games:
        d["games"] = sweep_table(spec, res.games, mode="games").to_dict(orient="records")
    return d


def _table(df, mean_name: str, win_name: str, diff_name: str, diff_scale: float = 1.0) -> list[str]:
    lines = [f"{'thr':>4} {mean_name:>28} {win_name:>24} {diff_name:>32}  verdict"]
    k = diff_scale
    for r in df.itertuples():
        verdict = "BEST" if r.best else ("~ same as best" if r.indistinguishable else "worse")
        lines.append(f"{r.threshold:>4} {r.mean:>+9.3f} [{r.mean_lo:+.3f}, {r.mean_hi:+.3f}] "
                     f"{100 * r.win_rate:>7.2f}% [{100 * r.win_lo:.2f}, {100 * r.win_hi:.2f}] "
                     f"{k * r.diff_to_best:>+9.3f} [{k * r.diff_lo:+.3f}, {k * r.diff_hi:+.3f}]       {verdict}")
    return lines


def format_sweep(res: SweepResult, as_json: bool = False) -> str:
    if as_json:
        return json.dumps(sweep_dict(res), indent=2, default=float)
    spec = res.spec
    game = get_variant(spec.variant)
    unit, what = game.score_unit, game.hand_word
    out = [f"knock sweep: {spec.variant}, seat 0 = {spec.strategy} with knock threshold varied, "
           f"others = {spec.opponent}; {spec.hands:,} hands per threshold (same deals in every arm), "
           f"seed {spec.seed}" + (f"; rules {', '.join(spec.rules)}" if spec.rules else ""),
           f"simulated {res.hands_simulated:,} hands"
           + (f" and {res.games_simulated:,} games" if res.games_simulated else "")
           + f" in {res.elapsed_s:.1f} s (+{res.compile_s:.1f} s compile/cache load)"
           + ("" if res.complete else "  -- PARTIAL (interrupted)"), ""]
    if res.overall:
        out.append(f"one threshold all hand long: seat 0 mean {unit}/hand, win rate, paired difference to the best")
        out += _table(sweep_table(spec, res.overall), f"mean {unit}/hand [95% CI]", "win rate [95% CI]",
                      f"paired {unit}/hand vs best [CI]")
        out.append("")
    if res.games:
        out.append(f"whole games to the target score ({spec.games:,} games per threshold): best = most games won")
        out += _table(sweep_table(spec, res.games, mode="games"), f"mean net {unit}/game [95% CI]",
                      "games won [95% CI]", "paired games won vs best, pct pts", 100.0)
        out.append("")
    if res.by_turn:
        chart = knock_chart(spec, res.by_turn)
        out.append(f"knock chart: knock at {what} exactly d, or play on?  EV margin of knocking "
                   f"({unit}/hand over all hands, paired) with 95% CI; other buckets at threshold {res.best_overall}")
        ths = list(spec.thresholds[1:])
        out.append(f"{'':<28}" + "".join(f"{t:>8}" for t in ths))
        for b in BUCKETS:
            sub = chart[chart.bucket == b]
            marks = {"knock": "KNOCK", "play on": "play", "can't tell": "?"}
            out.append(f"{bucket_label(spec, b):<28}" + "".join(f"{marks[x]:>8}" for x in sub.decision))
        out.append("  KNOCK: knocking is better (CI > 0); play: playing on is better (CI < 0); ?: the data cannot tell")
        out.append("")
        out.append(f"{'bucket':<8}{what:>9}{'margin':>10}{'95% CI':>22}{'hands affected':>16}  decision")
        for r in chart.itertuples():
            out.append(f"{r.bucket:<8}{r.threshold:>9}{r.margin:>+10.4f}   [{r.lo:+.4f}, {r.hi:+.4f}]"
                       f"{r.hands_affected:>16,}  {r.decision}")
    return "\n".join(out)
