"""Tables of a strategy comparison (:mod:`.strategy_compare`) from its stored totals, and its
text: per arm, per strategy against the reference (paired, Holm and Bonferroni over the whole
study) and per rule setting against the first one (independent deals, Welch)."""

from __future__ import annotations

import json

import pandas as pd

from ..stats import Estimate, holm, mean_from_moments, mean_se, p_value, t_quantile, welch_difference, wilson
from .strategy_compare import COMPARE_METHOD, CompareResult, cell_name, setting_label
from .sweep_stats import ALPHA, NO_RATE, hand_wins, pair_moments
from .sweep_text import records
from .. import json_text
from ..wording import answer_lines, ci_text, decimals, p_text, preset_line, rules_lines

SETTING_METHOD = ("each difference to the first setting is a difference of two means with Welch's 95% "
                  "interval (each on its own), as for independent deals; every setting plays on the same "
                  "seed, so where a rule leaves the deal unchanged the settings share deals and the "
                  "interval is conservative")


def measure(res: CompareResult, name: str) -> tuple[str, float, str]:
    """Seat 0's per-hand series of a cell, its scale and its words: its score, or (hand scores
    not zero-sum) its score minus the average other seat."""
    n = res.players[name]
    unit = res.spec.game.score_unit
    focus = next(iter(res.cells[name]["pairs"])).split(":")[1]     # the arms job's focus series
    if focus == "field0":
        return focus, 1.0 / (n - 1), f"seat 0 minus the average other seat, {unit}/hand"
    return focus, 1.0, f"seat 0 {unit}/hand"


def _cells(res: CompareResult):
    for n, setting in res.spec.cells():
        yield n, setting, cell_name(n, setting)


def arm_table(res: CompareResult) -> pd.DataFrame:
    """Per cell and strategy: seat 0's result per hand, win rate, hand length and points per hand."""
    rows = []
    for n, setting, name in _cells(res):
        focus, scale, _ = measure(res, name)
        for k, strat in enumerate(res.spec.strategies):
            m = res.cells[name]["arms"][k]["moments"]
            win = wilson(m["rate:win0"][1], m["rate:win0"][0]) if hand_wins(res.spec) else NO_RATE
            est = {"result": mean_from_moments(*m[focus]).scaled(scale), "win": win,
                   "turns": mean_from_moments(*m["turns"]), "points": mean_from_moments(*m["points"])}
            row = {"players": n, "setting": setting_label(setting), "strategy": strat, "n": est["result"].n}
            for key, e in est.items():
                row.update({key: e.value, f"{key}_lo": e.lo, f"{key}_hi": e.hi})
            rows.append(row)
    return pd.DataFrame(rows)


def diff_table(res: CompareResult) -> pd.DataFrame:
    """Per cell, each strategy minus the reference on the same deals: the mean difference with
    its 95% interval, its Bonferroni simultaneous interval (``sim_lo``/``sim_hi``), p, Holm p and
    the call (:data:`COMPARE_METHOD`)."""
    spec = res.spec
    rows, moments = [], []
    for n, setting, name in _cells(res):
        focus, scale, _ = measure(res, name)
        for k in range(1, len(spec.strategies)):
            m, nz = pair_moments(res.cells[name], k, 0, focus)
            e = mean_from_moments(*m).scaled(scale)
            rows.append({"players": n, "setting": setting_label(setting), "strategy": spec.strategies[k],
                         "reference": spec.strategies[0], "n": e.n, "diff": e.value, "lo": e.lo, "hi": e.hi,
                         "hands_differing": nz, "p": p_value(*m)})
            moments.append((m, scale))
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    k = len(table)
    sim = []
    for m, scale in moments:
        mean, se = mean_se(*m)
        h = t_quantile(m[0] - 1, 1 - ALPHA / k) * se
        sim.append(((mean - h) * scale, (mean + h) * scale))
    table["sim_lo"], table["sim_hi"] = [a for a, _ in sim], [b for _, b in sim]
    table["p_holm"] = holm(table["p"].to_numpy())
    table["call"] = [("same" if nz == 0 else ("better" if d > 0 else "worse") if ph < ALPHA else "can't tell")
                     for d, ph, nz in zip(table["diff"], table["p_holm"], table["hands_differing"])]
    table.attrs.update(method=COMPARE_METHOD, m=k)
    return table


def setting_table(res: CompareResult) -> pd.DataFrame:
    """Per player count and rule setting after the first: the reference arm's hand length and
    points per hand, and each strategy's paired difference to the reference, in this setting and
    in the first, with the difference between the settings (Welch, :data:`SETTING_METHOD`)."""
    spec = res.spec
    settings = spec.settings()
    rows = []
    if len(settings) < 2:
        return pd.DataFrame(rows)
    for n in spec.player_counts():
        first = cell_name(n, settings[0])
        for setting in settings[1:]:
            name = cell_name(n, setting)
            for label, get in _quantities(res):
                (ma, sa), (mb, sb) = get(res, name), get(res, first)
                a, b = mean_from_moments(*ma).scaled(sa), mean_from_moments(*mb).scaled(sb)
                d = _scaled_difference(ma, sa, mb, sb)
                rows.append({"players": n, "setting": setting_label(setting), "baseline": setting_label(settings[0]),
                             "quantity": label, "value": a.value, "value_lo": a.lo, "value_hi": a.hi,
                             "baseline_value": b.value, "baseline_lo": b.lo, "baseline_hi": b.hi,
                             "diff": d.value, "lo": d.lo, "hi": d.hi, "n": d.n})
    table = pd.DataFrame(rows)
    table.attrs["method"] = SETTING_METHOD
    return table


def _scaled_difference(ma, sa: float, mb, sb: float) -> Estimate:
    """Welch difference of sa * mean(a) and sb * mean(b) (moments scaled exactly)."""
    return welch_difference([ma[0], ma[1] * sa, ma[2] * sa * sa], [mb[0], mb[1] * sb, mb[2] * sb * sb])


def _quantities(res: CompareResult):
    """(label, cell -> (moments, scale)) of what a rule setting changes."""
    spec = res.spec
    ref = spec.strategies[0]
    out = [(f"hand length, turns ({ref} in seat 0)", lambda r, c: (r.cells[c]["arms"][0]["moments"]["turns"], 1.0)),
           (f"points per hand ({ref} in seat 0)", lambda r, c: (r.cells[c]["arms"][0]["moments"]["points"], 1.0))]
    for k in range(1, len(spec.strategies)):
        def diff(r, c, k=k):
            focus, scale, _ = measure(r, c)
            return pair_moments(r.cells[c], k, 0, focus)[0], scale
        out.append((f"{spec.strategies[k]} minus {ref}", diff))
    return out


# ----------------------------------------------------------------------------------------
# text

def compare_dict(res: CompareResult) -> dict:
    d = diff_table(res)
    return {"kind": "strategy_compare", "spec": json.loads(json.dumps(res.spec.__dict__)),
            "complete": res.complete, "unit": res.spec.game.score_unit,
            "hands_simulated": res.hands_simulated, "elapsed_s": round(res.elapsed_s, 2),
            "compile_s": round(res.compile_s, 2),
            "methods": {"strategies": COMPARE_METHOD, "settings": SETTING_METHOD},
            "arms": records(arm_table(res)), "differences": records(d), "settings": records(setting_table(res))}


def _e(v, lo, hi, d: int = 3, sign: str = "+") -> str:
    return f"{v:{sign}.{d}f} [{lo:{sign}.{d}f}, {hi:{sign}.{d}f}]"


def _rules(spec, rules_lines) -> list[str]:
    """The fixed rules in effect (the first player count's), and which rules the study varies."""
    from sim.runner import make_spec
    probe = make_spec(spec.variant, rules=list(spec.rules), n=1, players=spec.player_counts()[0],
                      rule_set=spec.rule_set)
    varied = "; ".join(f"{n} varied over {', '.join(v)}" for n, v in spec.vary)
    return rules_lines(probe.rules, spec.variant) + ([f"  ({varied})"] if varied else [])


def compare_csv(res: CompareResult) -> str:
    """``compare --csv``: every strategy's difference to the reference, one row per cell and
    strategy (the columns of ``--json``'s differences)."""
    return diff_table(res).to_csv(index=False)


def format_compare(res: CompareResult, as_json: bool = False) -> str:
    """The comparison as text: its answer first (:func:`compare_answer`), the
    rules and presets in effect, then the tables."""
    if as_json:
        return json_text.dumps(compare_dict(res))
    spec = res.spec
    unit = spec.game.score_unit
    name0 = cell_name(*spec.cells()[0])
    sw = max(len(setting_label(x)) for x in spec.settings()) + 2        # column widths
    tw = max(len(x) for x in spec.strategies) + 2
    qw = max(len(q) for q, _ in _quantities(res)) + 2
    out = [*answer_lines(compare_answer(res)), *_rules(spec, rules_lines),
           *preset_line(spec.variant, [*spec.strategies, spec.opponent]), "",
           f"strategy comparison: {spec.variant}, seat 0 plays each of {', '.join(spec.strategies)} "
           f"(reference {spec.strategies[0]}), others {spec.opponent}; {spec.hands:,} hands per cell, the same "
           f"deals for every strategy; seed {spec.seed}" + (f"; rules {', '.join(spec.rules)}" if spec.rules else ""),
           f"simulated {res.hands_simulated:,} hands in {res.elapsed_s:.1f} s (+{res.compile_s:.1f} s compile/cache load)"
           + ("" if res.complete else "  -- PARTIAL (interrupted)"), "",
           f"per arm: {measure(res, name0)[2]}, win rate, hand length, points changing hands per hand (95% CIs)",
           f"{'players':>7}  {'setting':<{sw}}{'strategy':<{tw}}{'result':>28}{'win rate':>10}{'turns':>22}{'points/hand':>24}"]
    for r in arm_table(res).itertuples():
        win = f"{100 * r.win:.2f}%" if r.win == r.win else "n/a"      # penalty hands: no winner
        out.append(f"{r.players:>7}  {r.setting:<{sw}}{r.strategy:<{tw}}{_e(r.result, r.result_lo, r.result_hi):>28}"
                   f"{win:>10}{_e(r.turns, r.turns_lo, r.turns_hi, 2, ''):>22}"
                   f"{_e(r.points, r.points_lo, r.points_hi, 2, ''):>24}")
    d = diff_table(res)
    out += ["", f"each strategy minus {spec.strategies[0]} on the same deals ({unit}/hand, seat 0's result): "
                f"95% CI, simultaneous CI, Holm p",
            f"{'players':>7}  {'setting':<{sw}}{'strategy':<{tw}}{'difference [95% CI]':>30}{'simultaneous':>22}"
            f"{'p (Holm)':>10}{'n':>11}  call"]
    for r in d.itertuples():
        out.append(f"{r.players:>7}  {r.setting:<{sw}}{r.strategy:<{tw}}{_e(r.diff, r.lo, r.hi, 4):>30}"
                   f"   [{r.sim_lo:+.4f}, {r.sim_hi:+.4f}]{r.p_holm:>10.4f}{r.n:>11,}  {r.call}")
    out.append(f"  {COMPARE_METHOD} (m = {len(d)})")
    s = setting_table(res)
    if not s.empty:
        out += ["", f"rule settings against {s['baseline'].iloc[0]}: {SETTING_METHOD}",
                f"{'players':>7}  {'setting':<{sw}}{'quantity':<{qw}}{'this setting':>27}{'baseline':>27}{'difference':>28}"]
        for r in s.itertuples():
            out.append(f"{r.players:>7}  {r.setting:<{sw}}{r.quantity:<{qw}}{_e(r.value, r.value_lo, r.value_hi):>27}"
                       f"{_e(r.baseline_value, r.baseline_lo, r.baseline_hi):>27}{_e(r.diff, r.lo, r.hi):>28}")
    return "\n".join(out)


def strategy_axis(spec) -> tuple[str, dict[str, float]] | None:
    """The one numeric parameter the compared strategies (after the reference) vary, if they
    are one family differing in exactly one parameter: ``(name, {strategy: value})``, else
    None.  Such a study (e.g. ``open(meld=1,meld_from=t)`` for several turns ``t``) is a profile
    of the reference difference along that parameter."""
    from sim.strategies import parse_strategy
    parsed = [parse_strategy(s, spec.variant) for s in spec.strategies[1:]]
    if len(parsed) < 2 or len({p.family.name for p in parsed}) != 1:
        return None
    varied = [k for k in parsed[0].values if len({p.values[k] for p in parsed}) > 1]
    if len(varied) != 1:
        return None
    return varied[0], {p.spec: p.values[varied[0]] for p in parsed}


# ----------------------------------------------------------------------------------------
# the comparison's answer in sentences (analysis.wording has the words)

def compare_answer(res) -> list[str]:
    """A strategy comparison: how many differences to the reference are called (Holm), the
    largest of them (or the largest not called), and the rule setting that changes most."""
    spec = res.spec
    unit = f"{spec.game.score_unit} per hand"
    d = diff_table(res)
    called = d[d["call"].isin(["better", "worse"])]
    pool = called if len(called) else d
    top = pool.loc[pool["diff"].abs().idxmax()]
    dd = decimals(top['diff'], top['lo'], top['hi'])
    where = f"{top['players']} players" + (f", {top['setting']}" if top['setting'] and top['setting'] != 'rules as given' else '')
    head = (f"{spec.variant}, against {spec.strategies[0]} on the same deals: {len(called)} of {len(d)} "
            f"differences are called (Holm, family-wise 95%)")
    big = (f"{top['strategy']} at {where}: {ci_text(top['diff'], top['lo'], top['hi'], dd, unit)} "
           f"(Holm p {p_text(top['p_holm'])}, n = {int(top['n']):,} deals)")
    out = [f"{head}; the largest{'' if len(called) else ', not called'}: {big}."]
    s = setting_table(res)
    if not s.empty:
        z = (s["diff"].abs() / ((s["hi"] - s["lo"]).abs() / 2 + 1e-12))
        r = s.loc[z.idxmax()]
        out.append(f"The rule setting that changes most: {r['setting']} against {r['baseline']} moves "
                   f"{r['quantity']} by {ci_text(r['diff'], r['lo'], r['hi'], decimals(r['diff'], r['lo'], r['hi']))} "
                   f"at {r['players']} players (n = {int(r['n']):,} deals).")
    return out
