"""The answers of the stored studies in sentences: each function takes a study's stored data
(as its loader returns it) and returns plain sentences with every number's 95% CI and n, and
"not significant" wherever an interval covers 0.  The report's landing page leads with them
(:mod:`analysis.report.site`); the study commands can print the same sentences.

Nothing here is typed by hand: every number comes from the stored totals through the study's
own statistics (:mod:`analysis.studies.sweep_stats`, ``compare_stats``, ...)."""

from __future__ import annotations

import math

from sim.variants import get_variant

from .studies.knob import acts_at, advice, all_hand, is_zero, symbol, value_word, when

NOT_SIGNIFICANT = "not significant"
STRONG = ("strong",)      # the presets an equilibrium answer names besides the base opponent


def covers_zero(lo: float, hi: float) -> bool:
    return lo <= 0 <= hi


def num(x: float, d: int, sign: bool = True) -> str:
    """``x`` with ``d`` decimals (a sign when asked), never "-0.00"; the minus as "−"."""
    if not math.isfinite(x):
        return "n/a"
    v = round(x, d) + 0.0
    return (f"{v:+.{d}f}" if sign else f"{v:.{d}f}").replace("-", "−")


def ci_text(v: float, lo: float, hi: float, d: int = 2, unit: str = "", sign: bool = True,
            scale: float = 1.0, test: bool = True) -> str:
    """'+0.12 [−0.03, +0.27] points per hand, not significant' (``test``: say so when the CI covers 0)."""
    s = f"{num(v * scale, d, sign)} [{num(lo * scale, d, sign)}, {num(hi * scale, d, sign)}]"
    s += f" {unit}" if unit else ""
    return s + (f", {NOT_SIGNIFICANT}" if test and covers_zero(lo, hi) else "")


def _ns(lo: float, hi: float) -> str:
    """', not significant' when the interval covers 0."""
    return f", {NOT_SIGNIFICANT}" if covers_zero(lo, hi) else ""


def _p(p: float) -> str:
    """'= 0.0123', or '< 1e-15' below what a double resolves."""
    return f"= {p:.3g}" if p >= 1e-15 else "< 1e-15"


def decimals(*xs: float, sig: int = 2) -> int:
    """Decimals showing ``sig`` significant digits of the largest magnitude (1 to 4)."""
    m = max((abs(x) for x in xs if math.isfinite(x) and x != 0), default=1.0)
    return max(1, min(4, sig - 1 - math.floor(math.log10(m))))


def span(values, dash: str = "–", sep: str = ", ") -> str:
    """Whole numbers as compact text: runs of three or more as 'a–b' ('20–24, 27, 28, 31–45')."""
    values, parts, k = sorted(values), [], 0
    while k < len(values):
        j = k
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts += [f"{values[k]}{dash}{values[j]}"] if j - k >= 2 else [str(v) for v in values[k:j + 1]]
        k = j + 1
    return sep.join(parts)




def answer_lines(lines: list[str], width: int = 100) -> list[str]:
    """Answer sentences wrapped for the terminal, a paragraph each (the study commands open
    with them)."""
    import textwrap
    return [w for x in lines for w in textwrap.wrap(x, width, subsequent_indent="  ")]


def players_of(spec) -> int:
    return spec.spec_for(spec.base(), 1).n_seats


# ----------------------------------------------------------------------------------------
# knock sweeps

def _bucket_phrase(spec, b: str) -> str:
    from .studies.sweep_stats import bucket_label
    if spec.bucket_by != "turn":
        return bucket_label(spec, b)
    m, late = spec.buckets
    return {"early": f"in your turns 1–{m - 1}", "mid": f"in turns {m}–{late - 1}", "late": f"from turn {late}"}[b]


def _by_turn_phrase(spec, game, thresholds: dict) -> str:
    """The chart's policy bucket by bucket: 'knock at deadwood ≤ 8 in your turns 1–4, ≤ 5 in
    turns 5–8, ≤ 2 from turn 9'; a bucket at 0 in a player's words ('go for gin; never knock
    in your turns 1–4, knock at deadwood ≤ 5 in turns 5–8, ...'); one value in every bucket
    once ('go for gin; never knock in every turn')."""
    from .studies.sweep_stats import BUCKETS
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
    from .studies.sweep_stats import policy_summary, sweep_table
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
              f"{runner}{_ns(-up.diff_hi, -up.diff_lo)} "
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
        diff = ci_text(p["diff"], p["diff_lo"], p["diff_hi"], d, unit, test=False) + _ns(p["diff_lo"], p["diff_hi"])
        verdict = {"better": f"on fresh deals this gains {diff} over the best single threshold",
                   "can't tell": f"on fresh deals it is not shown better than the best single threshold ({diff})",
                   "same": "the chart's calls do not change the best single threshold",
                   "worse": f"on fresh deals it loses {diff} to the best single threshold: not advice"}[p["verdict"]]
        out.append(f"By turn, the chart reads {per}; {verdict} (n = {p['n']:,} hands).")
    return out


def knock_rules_answer(results) -> list[str]:
    """How rule options move the best threshold: per setting, the best and the mean there."""
    from .studies.knock_rules import rules_table
    return rules_table_answer(results[0][1].spec, rules_table(results))


def rules_table_answer(spec0, t) -> list[str]:
    """:func:`knock_rules_answer` from the study's table (``rules_table``) and its base spec."""
    game = get_variant(spec0.variant)
    parts = [f"{r.setting}: {r.best} ({ci_text(r.mean, r.mean_lo, r.mean_hi, 2, test=False)}; cannot tell "
             f"from {span(list(r.indistinguishable))})" for r in t.itertuples()]
    return [f"{spec0.variant}, {players_of(spec0)} players: the best {game.knob.action} threshold by rule setting "
            f"(mean {game.score_unit} per hand at the best, n = {spec0.hands:,} hands per threshold): "
            + "; ".join(parts) + "."]


def equilibrium_answer(summary: dict) -> list[str]:
    """A knock equilibrium's headline and its best response to each preset
    (:func:`analysis.studies.equilibrium_text.summarize` already words them from the data)."""
    tick = (lambda s: s.replace("<=", "≤").replace(">=", "≥"))
    ans = summary["answer"]
    k = len(summary["best_responses"])
    pick = [i + 1 for i, b in enumerate(summary["best_responses"]) if i == 0 or b["opponent"] in STRONG]
    return [tick(f"{summary['variant']}, {summary['players']} players: {ans[i][0].lower()}{ans[i][1:]}"
                 if j == 0 else ans[i]) for j, i in enumerate(pick + [k + 1])] + [tick(s) for s in ans[k + 2:]]


# ----------------------------------------------------------------------------------------
# tonk odds, balance, single runs

def tonk_odds_answer(doc: dict, default_min: int | None = None) -> list[str]:
    """Tonk on the deal, exact by player count (the default tonk_min first), and how the
    simulation agrees."""
    rows = doc["rows"]
    mins = sorted({r["tonk_min"] for r in rows}, key=lambda t: (t != default_min, t))
    out = []
    for t in mins:
        sub = sorted((r for r in rows if r["tonk_min"] == t and r["quantity"] == "p_at_least_one"),
                     key=lambda r: r["players"])
        if not sub:
            continue
        per = ", ".join(f"{100 * r['exact']:.2f}% with {r['players']}" for r in sub)
        s0 = sub[0]
        sim = (f"; simulated with {s0['players']}: "
               f"{ci_text(s0['sim'], s0['sim_lo'], s0['sim_hi'], 2, scale=100, sign=False, test=False)}% "
               f"(n = {s0['n']:,} deals)" if s0.get("sim") is not None else "")
        out.append(f"Tonk on the deal (five cards counting {t} or more{', the default' if t == default_min else ''}), "
                   f"exact: someone at the table is dealt one in {per} players{sim}.")
    if not rows or rows[0].get("sim") is None:
        return out
    miss = sum(bool(r["ci_misses_exact"]) for r in rows)
    out.append(f"The simulation agrees with the exact values: {miss} of {len(rows)} 95% intervals miss them "
               f"(about {0.05 * len(rows):.1f} expected by chance; n = {doc.get('deals', 0):,} deals per setting).")
    return out


def _e(d: dict | None):
    from .stats import Estimate
    if not d:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    return Estimate(d["value"], d["ci95"][0], d["ci95"][1], d["n"])


def balance_rows(doc: dict) -> list[dict]:
    """Per game x player count: the first player's win edge (percentage points), the skill
    gradient (random against the strongest rung, edge per hand in SDs) and turns per hand."""
    rows = []
    for c in doc["cells"]:
        top = next(p for p in c["ladder"] if p["weak"] == c["rungs"][0] and p["strong"] == c["rungs"][-1])
        rows.append({"game": c["variant"], "players": c["players"], "rules": list(c["rules"]),
                     "seat": _e(c["seat_hand"]["first_win"]), "skill": _e(top["hand"]["effect"]),
                     "strong": c["rungs"][-1], "turns": _e(c["tempo"]["turns"])})
    return rows


def balance_answer(doc: dict) -> list[str]:
    """The seat edge and the skill gradient across games in two sentences."""
    rows = [r for r in balance_rows(doc) if not r["rules"]]
    if not rows:
        return []
    label = (lambda r: f"{r['game']} ({r['players']} players)")
    if len(rows) == 1:
        r = rows[0]
        s, k, t = r["seat"], r["skill"], r["turns"]
        return [f"{label(r)}: the first player's win rate is "
                f"{ci_text(s.value, s.lo, s.hi, 1, 'percentage points', scale=100)} from the average seat's "
                f"(n = {s.n:,} hands); {r['strong']} against random play gains "
                f"{ci_text(k.value, k.lo, k.hi, 2, 'SD per hand')} (n = {k.n:,} deals); a hand lasts "
                f"{ci_text(t.value, t.lo, t.hi, 1, 'turns', sign=False, test=False)}."]
    sig = [r for r in rows if not covers_zero(r["seat"].lo, r["seat"].hi)]
    big = max(rows, key=lambda r: abs(r["seat"].value))
    s = big["seat"]
    first = (f"Seat edge: the first player's win rate differs from the average seat's beyond noise in "
             f"{len(sig)} of {len(rows)} games; the largest is {label(big)}, "
             f"{ci_text(s.value, s.lo, s.hi, 1, 'percentage points', scale=100)} (n = {s.n:,} hands).")
    hi = max(rows, key=lambda r: r["skill"].value)
    lo = min(rows, key=lambda r: r["skill"].value)
    second = (f"Skill matters most in {label(hi)}: {hi['strong']} against random play gains "
              f"{ci_text(hi['skill'].value, hi['skill'].lo, hi['skill'].hi, 2, 'SD per hand')}, and least in "
              f"{label(lo)}: {ci_text(lo['skill'].value, lo['skill'].lo, lo['skill'].hi, 2, 'SD per hand')} "
              f"(n = {hi['skill'].n:,} and {lo['skill'].n:,} deals).")
    return [first, second]


def run_answer(meta: dict, first: "Estimate") -> list[str]:
    """A single run's seat edge: the first to play's mean score per hand."""
    rules = list(meta.get("given_rules") or [])
    d = decimals(first.value, first.lo, first.hi)
    return [f"{meta['variant']}, {meta['n']:,} hands{' with ' + ', '.join(rules) if rules else ''}: the first to "
            f"play (non-dealer) scores {ci_text(first.value, first.lo, first.hi, d, meta.get('score_unit', 'points') + ' per hand')}."]


# ----------------------------------------------------------------------------------------
# strategy comparisons and buy-backs

def compare_answer(res) -> list[str]:
    """A strategy comparison: how many differences to the reference are called (Holm), the
    largest of them (or the largest not called), and the rule setting that changes most."""
    from .studies.compare_stats import diff_table, setting_table
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
           f"(Holm p {_p(top['p_holm'])}, n = {int(top['n']):,} deals)")
    out = [f"{head}; the largest{'' if len(called) else ', not called'}: {big}."]
    s = setting_table(res)
    if not s.empty:
        z = (s["diff"].abs() / ((s["hi"] - s["lo"]).abs() / 2 + 1e-12))
        r = s.loc[z.idxmax()]
        out.append(f"The rule setting that changes most: {r['setting']} against {r['baseline']} moves "
                   f"{r['quantity']} by {ci_text(r['diff'], r['lo'], r['hi'], decimals(r['diff'], r['lo'], r['hi']))} "
                   f"at {r['players']} players (n = {int(r['n']):,} deals).")
    return out


def buyback_answer(spec: dict, df) -> list[str]:
    """What a buy-back is worth: the arm winning most games and the win probability one
    buy-back buys between neighbouring arms."""
    n = int(df["players"].iloc[0])
    g = int(df["games"].iloc[0])
    b = df.loc[df["win0"].idxmax()]
    steps = [f"{r.arm} vs {p}: {ci_text(r.value, r.value_lo, r.value_hi, 1, 'pp', scale=100)}"
             for (_, r), p in zip(df.iloc[1:].iterrows(), df["arm"].iloc[:-1]) if r.value == r.value]
    return [f"{spec['variant']}, {n} players: seat 0 wins most games buying back {b.arm}: "
            f"{ci_text(b.win0, b.win0_lo, b.win0_hi, 1, scale=100, sign=False, test=False)}% of {g:,} games "
            f"(fair share {100 / n:.0f}%); one buy-back buys this much game win probability: " + "; ".join(steps) + "."]


# ----------------------------------------------------------------------------------------
# one position: the knock advisor and the meld planner

def advice_answer(a) -> list[str]:
    """The knock advisor's call on one position (:class:`analysis.studies.knock_advice.Advice`):
    the recommendation with the paired difference, its CI and the worlds, and, where the call
    on expected points and the chance of winning the hand point different ways, why."""
    unit = f"{a.unit} per hand"
    d = a.diff
    head = (f"{a.variant}, {a.players} players, your turn {a.turn}, {a.hand_word} {a.hand_score}: "
            f"{a.recommendation.upper()}")
    if all(map(math.isfinite, (d.value, d.lo, d.hi))):
        diff = (f"knocking now minus playing on is "
                f"{ci_text(d.value, d.lo, d.hi, decimals(d.value, d.lo, d.hi), unit, test=False)}"
                f"{'' if a.recommendation != 'too close to call' else ', not significant'}")
    else:   # too few worlds differ for an interval (the confidence line says how many)
        diff = (f"knocking now minus playing on averages {num(d.value, 2)} {unit}, with no interval: "
                f"too few worlds play differently")
    out = [f"{head}: {diff} (n = {a.worlds:,} sampled worlds, the same ones for both choices)."]
    wk, wp = a.win_knock, a.win_play
    better_ev = "knock" if d.value > 0 else "play on"
    better_win = "knock" if wk.value > wp.value else "play on" if wp.value > wk.value else None
    if better_win is not None and better_win != better_ev and a.recommendation != "too close to call":
        more, fewer = ("knocking", "playing on") if better_win == "knock" else ("playing on", "knocking")
        hi_w, lo_w = (wk, wp) if better_win == "knock" else (wp, wk)
        out.append(f"Why: the call weighs {a.unit}, not wins: {more} wins the hand more often "
                   f"({100 * hi_w.value:.1f}% against {100 * lo_w.value:.1f}%) but scores fewer {a.unit} on "
                   f"average, so {fewer} is worth more.")
    return out


def meld_answer(variant: str, players: int, steps: list[str], left: int, after: int) -> list[str]:
    """The meld planner's plan for one position in a sentence: what to lay down, what is left."""
    plays = "; ".join(steps) if steps else "lay nothing down"
    return [f"{variant}, {players} players: {plays}; {left} points left in hand, {after} after the best discard."]


# ----------------------------------------------------------------------------------------
# what a run was played under: the rules and the presets it names

def _rule_value(v) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def rules_lines(rules, variant: str) -> list[str]:
    """The rules in effect (a rules object or its ``as_dict``): those differing from the game's defaults first (with the default),
    then the others, in one wrapped paragraph (the player count apart: every command names it)."""
    import dataclasses
    import textwrap
    cur = {k: x for k, x in (rules if isinstance(rules, dict) else rules.as_dict()).items() if k != "players"}
    cls = get_variant(variant).rules_cls
    defaults = {f.name: f.default for f in dataclasses.fields(cls) if f.name in cur}
    changed = [f"{k}={_rule_value(x)} (default {_rule_value(defaults[k])})" for k, x in cur.items()
               if x != defaults[k]]
    same = ", ".join(f"{k}={_rule_value(x)}" for k, x in cur.items() if x == defaults[k])
    text = (f"rules: {'; '.join(changed)}; the others at {variant}'s defaults: {same}" if changed
            else f"rules: {variant}'s defaults: {same}")
    return textwrap.wrap(text, 100, subsequent_indent="  ")


def preset_line(variant: str, names, players: int | None = None) -> list[str]:
    """What each named preset is (at ``players``, where a preset tuned for that count stands
    in: 'strong (strong-4p) = ...'): 'strong = threshold(knock=6, ...)'; names that are not
    presets (a family or a spec with parameters) are left out."""
    from sim.strategies import PLAYER_ALIASES, PRESETS, _load_families, preset_at
    _load_families()
    parts = []
    for name in dict.fromkeys(names):
        if (variant, name) not in PRESETS or PRESETS[(variant, name)][0].name == name:
            continue
        fam, vals = preset_at(variant, name, players)
        alias = PLAYER_ALIASES.get((variant, "strong" if name == "search" else name, players))
        name = f"{name} ({alias} at {players} players)" if alias else name
        parts.append(f"{name} = {fam.name}(" + ", ".join(f"{k}={x:g}" for k, x in vals.items()) + ")"
                     if vals else f"{name} = {fam.name} with its defaults")
    return [f"presets: {'; '.join(parts)} (`rummylab strategies --variant {variant}`)"] if parts else []
