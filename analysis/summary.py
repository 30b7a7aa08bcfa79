"""The run summary: a JSON-ready dict (stable keys, documented in docs/store-and-api.md) and its table.

Every estimate is ``{"value", "ci95": [lo, hi], "n"}``: rates with Wilson intervals, means
with t intervals from the exact moments of the accumulator.
"""

from __future__ import annotations

from sim.runner import Accumulator, RunSpec

from .stats import Estimate, mean_from_moments, wilson

SCHEMA = 1


def _est(acc: Accumulator, name: str) -> Estimate:
    c, s, ss = acc.moments.get(name, (0, 0, 0))
    if name.startswith("rate:"):
        return wilson(s, c)
    return mean_from_moments(c, s, ss)


def _quantiles(hist: list[int], qs=(0.1, 0.5, 0.9)) -> dict[str, int]:
    total = sum(hist)
    out, run, i = {}, 0, 0
    for q in qs:
        while i < len(hist) and run + hist[i] < q * total:
            run += hist[i]
            i += 1
        out[f"p{int(q * 100)}"] = i
    return out


def position_label(p: int, n: int) -> str:
    if p == n - 1:
        return "dealer"
    return "first to play" if p == 0 else f"{p + 1}{ {2: 'nd', 3: 'rd'}.get(p + 1, 'th')} to play"


def summarize(spec: RunSpec, acc: Accumulator, *, complete: bool = True, elapsed_s: float = 0.0,
              compile_s: float = 0.0, n_simulated: int | None = None, from_store: bool = False) -> dict:
    n = spec.n_seats
    unit = spec.variant.score_unit
    d: dict = {
        "schema": SCHEMA,
        "variant": spec.variant.name,
        "mode": spec.mode,
        "players": n,
        "rules": spec.rules.as_dict(),
        "rules_version": type(spec.rules).VERSION,
        **({} if spec.rule_set is None else {"rule_set": spec.rule_set}),
        "strategies": [s.spec for s in spec.strategies],
        "seed": spec.seed,
        "requested": spec.n,
        "simulated": acc.n,
        "complete": complete,
        "from_store": from_store,
        "elapsed_s": round(elapsed_s, 3),
        "compile_s": round(compile_s, 3),
        "units_per_s": round((n_simulated if n_simulated is not None else acc.n) / elapsed_s, 1)
        if elapsed_s > 0 else None,
        "score_unit": unit,
    }
    if spec.mode == "games":
        d["seats"] = [{
            "seat": s, "strategy": spec.strategies[s].spec,
            "game_win_rate": _est(acc, f"rate:win{s}").as_dict(),
            "mean_net_per_game": _est(acc, f"net{s}").as_dict(),
            "mean_points_per_game": _est(acc, f"points{s}").as_dict(),
            "mean_place": _est(acc, f"place{s}").as_dict(),
        } for s in range(n)]
        d["first_dealer_win_rate"] = _est(acc, "rate:first_dealer_wins").as_dict()
        d["hands_per_game"] = {"mean": _est(acc, "hands").as_dict(),
                               "quantiles": _quantiles(acc.hists.get("hands", []))}
        d["voids_per_game"] = _est(acc, "voids").as_dict()
        return d
    d["seats"] = [{
        "seat": s, "strategy": spec.strategies[s].spec,
        "win_rate": _est(acc, f"rate:win{s}").as_dict(),
        "mean_score": _est(acc, f"score{s}").as_dict(),
        "mean_final_deadwood": _est(acc, f"deadwood{s}").as_dict(),
    } for s in range(n)]
    for s in range(n):
        if f"field{s}" in acc.moments:   # net per hand against the average other seat
            d["seats"][s]["mean_net_vs_field"] = _est(acc, f"field{s}").scaled(1 / (n - 1)).as_dict()
    d["zero_sum"] = spec.variant.scores_zero_sum(spec.rules)
    d["positions"] = [{
        "position": p, "label": position_label(p, n),
        "win_rate": _est(acc, f"rate:pos{p}_win").as_dict(),
        "mean_score": _est(acc, f"pos{p}_score").as_dict(),
    } for p in range(n)]
    d["outcomes"] = {name: _est(acc, f"rate:outcome:{name}").as_dict() for name in spec.variant.outcomes}
    hist = acc.hists.get("turns", [])
    d["turns"] = {"mean": _est(acc, "turns").as_dict(), "quantiles": _quantiles(hist),
                  "histogram": {str(i): c for i, c in enumerate(hist) if c}}
    d["stock_left"] = _est(acc, "stock_left").as_dict()
    d["extras"] = {name: _est(acc, name).as_dict() for name in spec.variant.extra_columns}
    return d


def _fmt(e: dict, pct: bool = False, digits: int = 3) -> str:
    return Estimate(e["value"], e["ci95"][0], e["ci95"][1], e["n"]).fmt(digits, pct)


def format_table(d: dict) -> str:
    """Human table of a summary dict."""
    lines = []
    status = "complete" if d["complete"] else f"PARTIAL: interrupted after {d['simulated']:,} of {d['requested']:,}"
    unit_name = "games" if d["mode"] == "games" else "hands"
    lines.append(f"rummylab {d['variant']} — {d['simulated']:,} {unit_name}, seed {d['seed']}, "
                 f"{d['players']} players ({status})")
    changed = {k: v for k, v in d["rules"].items() if k != "players"}
    lines.append(("" if d.get("rule_set") is None else f"rule set {d['rule_set']}; ")
                 + "rules: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    timing = "stored result (not re-simulated)" if d["from_store"] else (
        f"elapsed {d['elapsed_s']:.2f} s, compile/cache load {d['compile_s']:.2f} s"
        + (f", {d['units_per_s']:,.0f} {unit_name}/s" if d["units_per_s"] else ""))
    lines.append(timing)
    lines.append("all estimates: value [95% CI]")
    lines.append("")
    u = d["score_unit"]
    if u == "penalty":
        u = "score (-penalty)"
    if d["mode"] == "games":
        lines.append(f"{'seat':<5}{'strategy':<28}{'game win rate':<28}{'mean net ' + u + '/game':<30}")
        for s in d["seats"]:
            lines.append(f"{s['seat']:<5}{s['strategy'][:27]:<28}{_fmt(s['game_win_rate'], True, 2):<28}"
                         f"{_fmt(s['mean_net_per_game'], digits=2):<30}")
        lines.append("")
        lines.append(f"first dealer wins the game: {_fmt(d['first_dealer_win_rate'], True, 2)}")
        q = d["hands_per_game"]["quantiles"]
        lines.append(f"hands per game: {_fmt(d['hands_per_game']['mean'], digits=2)}  "
                     f"(p10 {q['p10']}, median {q['p50']}, p90 {q['p90']}); void hands per game "
                     f"{_fmt(d['voids_per_game'], digits=3)}")
        return "\n".join(lines)
    field = "mean_net_vs_field" in d["seats"][0]
    lines.append(f"{'seat':<5}{'strategy':<28}{'win rate':<28}{'mean ' + u + '/hand':<30}"
                 + (f"{'net vs field/hand':<30}" if field else ""))
    for s in d["seats"]:
        lines.append(f"{s['seat']:<5}{s['strategy'][:27]:<28}{_fmt(s['win_rate'], True, 2):<28}"
                     f"{_fmt(s['mean_score'], digits=3):<30}"
                     + (f"{_fmt(s['mean_net_vs_field'], digits=3):<30}" if field else ""))
    lines.append("")
    lines.append(f"{'position':<20}{'win rate':<28}{'mean ' + u + '/hand':<30}")
    for p in d["positions"]:
        lines.append(f"{p['label']:<20}{_fmt(p['win_rate'], True, 2):<28}{_fmt(p['mean_score']):<30}")
    lines.append("")
    lines.append("how hands end:")
    for name, e in d["outcomes"].items():
        lines.append(f"  {name:<14}{_fmt(e, True, 2)}")
    t = d["turns"]
    q = t["quantiles"]
    lines.append("")
    lines.append(f"turns per hand: {_fmt(t['mean'], digits=2)}  (p10 {q['p10']}, median {q['p50']}, p90 {q['p90']})")
    for name, e in d["extras"].items():
        if name in ("winner", "points"):
            continue
        lines.append(f"{name.replace('_', ' ')}: {_fmt(e, digits=3)}  (n={e['n']:,})")
    return "\n".join(lines)
