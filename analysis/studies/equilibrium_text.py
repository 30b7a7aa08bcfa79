"""The answer of a knock-equilibrium study (:mod:`.knock_equilibrium`) as a dict (JSON, the
report), as sentences and as the CLI's text; ``rummylab knock-sweep --equilibrium``."""

from __future__ import annotations

import argparse

import numpy as np

from .. import json_text
from ..errors import SweepError
from ..wording import answer_lines, preset_line, rules_lines
from .knob import advice
from .knock_equilibrium import (
    HANDS,
    KIND,
    METHOD,
    EquilibriumResult,
    EquilibriumSpec,
    Policy,
    best_response,
    run_equilibrium,
)
from .matrix_game import (
    CROSS_FIT_METHOD,
    cross_fit_gains,
    iterate_best_responses,
    payoff_matrix,
    perturbed_equilibria,
    solve_matrix_game,
    support,
    symmetrise,
)

MATRIX_MAX = 16     # the text prints the payoff matrix up to this many policies


def summarize(res: EquilibriumResult) -> dict:
    """Everything the text, JSON and report show, from the stored moments (never simulates)."""
    spec, pols = res.spec, res.policies
    names = [p.name for p in pols]
    what, _ = spec.focus()
    d = {"kind": KIND, "variant": spec.variant, "players": spec.n_seats, "measure": what,
         "hands_per_seating": spec.hands, "seed": spec.seed, "rules": list(spec.rules),
         "strategy": spec.strategy, "thresholds": list(spec.thresholds),
         "policies": [p.as_dict() for p in pols], "method": METHOD, "complete": res.complete,
         "elapsed_s": round(res.elapsed_s, 2), "compile_s": round(res.compile_s, 2),
         "hands_simulated": res.hands_simulated, "stages": res.stages}
    if not res.complete:
        return d
    brs = {p: best_response(fs) for p, fs in res.fields.items()}

    def br(p: int, **extra) -> dict:
        b = brs[p]
        return {**extra, "field": names[p], "best": names[b.best], "mean": b.value.as_dict(),
                "indistinguishable": [names[k] for k in b.same]}
    d["best_responses"] = [br(p, opponent=alias) for alias, p in spec.opponents(pols)]
    if spec.n_seats == 2:
        d.update(_matrix_game(res, brs, names))
    else:
        it = iterate_best_responses(lambda p: (brs[p].best, brs[p].same), spec.start(pols))
        last = res.fields[it.path[-1]]
        dev = max((q for q in range(len(pols)) if q != it.path[-1]), key=lambda q: last.value(q).value)
        d["iteration"] = {"start": names[it.path[0]], "path": [names[p] for p in it.path],
                          "outcome": it.outcome, "cycle": [names[p] for p in it.cycle],
                          "steps": [br(p) for p in it.path],
                          "deviation": {"policy": names[dev], "mean": last.value(dev).as_dict()}}
    d["answer"] = answer(spec, pols, d)
    return d


def _matrix_game(res: EquilibriumResult, brs: dict, names: list[str]) -> dict:
    """The payoff matrix, its equilibrium, the best reply to it and how robust it is."""
    n = len(names)
    raw, h = payoff_matrix(res.fields, n)
    a = symmetrise(raw)
    x, value = solve_matrix_game(a)
    against = [res.fields[j].mix(x) for j in range(n)]          # the mix against each policy
    halves = [solve_matrix_game(symmetrise(payoff_matrix(res.fields, n, k)[0]))[0] for k in (0, 1)]
    gains = cross_fit_gains(res.fields, halves)                  # out of sample, simultaneous bounds
    reply = max(range(n), key=lambda j: gains[j].value)
    pert = perturbed_equilibria(a, h)

    def weights(w) -> dict:
        return {names[k]: float(w[k]) for k in support(w)}
    return {
        "matrix": {"policies": names, "payoff": a.tolist(), "half_width": h.tolist(),
                   "asymmetry_max": float(np.abs(raw + raw.T).max()),
                   "best_response": [names[brs[j].best] for j in range(n)]},
        "equilibrium": {
            "weights": weights(x), "value": round(value, 9) + 0.0,   # LP noise and -0.0 print as 0
            "against": [{"policy": names[j], "mean": against[j].as_dict()} for j in range(n)],
            "best_reply": {"policy": names[reply], "gain": gains[reply].as_dict(),
                           "beats_mix": gains[reply].lo > 0, "policies": n, "method": CROSS_FIT_METHOD,
                           "gains": [{"policy": names[j], "gain": gains[j].as_dict()} for j in range(n)]},
            "halves": [weights(w) for w in halves],
            "perturbed": {"games": len(pert),
                          "support_changed": sum(support(w) != support(x) for _, _, w in pert),
                          "in_some_support": [names[k] for k in sorted({k for _, _, w in pert for k in support(w)})],
                          "max_tv": max(0.5 * float(np.abs(w - x).sum()) for _, _, w in pert)}},
    }


# ----------------------------------------------------------------------------------------
# sentences

def what(spec: EquilibriumSpec, pol: Policy) -> str:
    """A policy in words: 'knock at deadwood <= 6 (= simple)', 'go for gin; never knock' or its
    preset name."""
    if pol.threshold is None:
        return pol.name
    return (advice(spec.sweep().game, pol.threshold)
            + (f" (= {', '.join(pol.aliases)})" if pol.aliases else ""))


def act(spec: EquilibriumSpec, pol: Policy) -> str:
    """What to do, in words: 'knock at deadwood <= 6' or 'play tracker'."""
    return what(spec, pol) if pol.threshold is not None else f"play {pol.name}"


MIRROR = "the best reply to itself"   # a best response that is its own opponent: no number to give


def mirror(r: dict) -> bool:
    """Is the best response to this field the field's own policy (a mirror match, worth 0)?"""
    return r["best"] == r["field"]


def ci(e: dict, digits: int = 3) -> str:
    """'+0.123 [+0.045, +0.201]' from an estimate dict."""
    v, lo, hi = (round(x, digits) + 0.0 for x in (e["value"], *e["ci95"]))   # no "-0.000"
    return f"{v:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def answer(spec: EquilibriumSpec, pols: list[Policy], d: dict) -> list[str]:
    """The answer in sentences: the headline, one sentence per opponent, then against a player
    who best-responds."""
    by_name = {p.name: p for p in pols}
    unit = d["measure"]
    lines = []
    for b in d["best_responses"]:
        same = [n for n in b["indistinguishable"] if n != b["best"]]
        lines.append((f"against {b['opponent']}, {act(spec, by_name[b['best']])}",
                      (f"{b['opponent']} is {MIRROR} (n = {b['mean']['n']:,} deals)" if mirror(b) else
                       f"{ci(b['mean'])} {unit}, n = {b['mean']['n']:,} deals")
                      + (f"; cannot tell from {', '.join(same)}" if same else "")))
    if "equilibrium" in d:
        eq = d["equilibrium"]
        ws = sorted(eq["weights"].items(), key=lambda kv: -kv[1])
        reply = eq["best_reply"]
        verdict = (f"{act(spec, by_name[ws[0][0]])} (a pure equilibrium)" if len(ws) == 1 else
                   "play the equilibrium mix " + ", ".join(f"{w:.0%} {what(spec, by_name[n])}" for n, w in ws))
        lines.append((f"against a player who best-responds, {verdict}",
                      "the game's value is 0"
                      + ("" if len(ws) == 1 else " (every policy in the mix earns 0 against it)")
                      + "; " + reply_sentence(reply, unit)))
    else:
        it = d["iteration"]
        path = " -> ".join(it["path"])
        if it["outcome"] == "fixed point":
            dev = it["deviation"]
            lines.append((f"against players who best-respond, {act(spec, by_name[it['cycle'][0]])} (a fixed point)",
                          f"the best responses run {path} and settle there: against a table of it no policy "
                          f"does better beyond noise (the best other, {dev['policy']}: {ci(dev['mean'])} {unit})"))
        else:
            lines.append(("against players who best-respond, no single policy is stable",
                          f"the best responses run {path} and cycle {' -> '.join(it['cycle'] + it['cycle'][:1])}"))
    head = f"{lines[0][0]}; {lines[-1][0]}."
    named = {b["best"] for b in d["best_responses"]} | set(d.get("equilibrium", {}).get("weights", {})) \
        | set(d.get("iteration", {}).get("cycle", []))
    return ([head[0].upper() + head[1:]] + [f"{s[0].upper()}{s[1:]}: {t}." for s, t in lines]
            + edge_notes(spec, [p for p in pols if p.name in named]))


def reply_sentence(reply: dict, unit: str) -> str:
    """The best reply to the mix, out of sample, in words."""
    how = (f"solved on half the deals and played on the other half, swapped; simultaneous 95% bounds over "
           f"the {reply['policies']} policies, Bonferroni")
    if reply["beats_mix"]:
        return f"out of sample {reply['policy']} beats it, gaining {ci(reply['gain'])} {unit} ({how})"
    return (f"out of sample no policy is shown to do better: the best, {reply['policy']}, gains "
            f"{ci(reply['gain'])} {unit} ({how})")


def edge_notes(spec: EquilibriumSpec, named: list[Policy]) -> list[str]:
    """A warning for each answer at the end of the thresholds tried that is not the end of the
    legal range (the strategy parameter's bounds, capped by the rules' knock limit)."""
    lo, hi, _ = spec.sweep().legal_range()
    out = []
    for pol in named:
        if pol.threshold == max(spec.thresholds) < hi:
            out.append(f"{pol.short} is the largest threshold tried: a larger one may do better "
                       "(widen --thresholds).")
        elif pol.threshold == min(spec.thresholds) > lo:
            out.append(f"{pol.short} is the smallest threshold tried: a smaller one may do better "
                       "(widen --thresholds).")
    return out


# ----------------------------------------------------------------------------------------
# text

def _policies_line(d: dict) -> str:
    return "policies: " + ", ".join(p["name"] for p in d["policies"])


def _br_table(rows: list[dict], first: str) -> list[str]:
    out = [f"{first:<26}{'best response':<22}{'mean [95% CI]':>34}{'n':>9}  cannot tell from best"]
    for r in rows:
        same = [n for n in r["indistinguishable"] if n != r["best"]]
        out.append(f"{r.get('opponent', r['field']):<26}{r['best']:<22}{MIRROR if mirror(r) else ci(r['mean']):>34}"
                   f"{r['mean']['n']:>9,}  {', '.join(same) or '-'}")
    return out


def _matrix_lines(d: dict) -> list[str]:
    m = d["matrix"]
    short = [p["name"].split(" (")[0] for p in d["policies"]]
    out = [f"payoff matrix: row's mean {d['measure']} against column, seats swapped; antisymmetric deal by "
           f"deal (max |A + A^T| = {m['asymmetry_max']:.2g} before symmetrising to (A - A^T)/2)"]
    if len(short) > MATRIX_MAX:
        return out + [f"  ({len(short)} policies: see --json or the report's heatmap)"]
    out.append(f"{'':>10}" + "".join(f"{s[:7]:>8}" for s in short))
    for s, row in zip(short, m["payoff"]):
        out.append(f"{s[:10]:>10}" + "".join(f"{v:>+8.3f}" for v in row))
    hw = np.array(m["half_width"])
    out.append(f"  95% CI half-widths: {hw[hw > 0].min():.3f} to {hw.max():.3f}")
    return out


def _equilibrium_lines(d: dict) -> list[str]:
    eq, unit = d["equilibrium"], d["measure"]
    against = {r["policy"]: r["mean"] for r in eq["against"]}
    out = [f"equilibrium of the symmetric zero-sum game (linear programming): value {eq['value']:+.3f}",
           f"{'weight':>8}  {'policy':<22}{'the mix against it, ' + unit + ' [95% CI]':>40}"]
    for n, w in sorted(eq["weights"].items(), key=lambda kv: -kv[1]):
        out.append(f"{w:>8.3f}  {n:<22}{ci(against[n]):>40}")
    r = eq["best_reply"]
    out.append(f"best reply to the mix, {r['method']}: {r['policy']} gains {ci(r['gain'])} {unit}"
               + (" (beats the mix)" if r["beats_mix"] else " (none shown to do better)"))
    p = eq["perturbed"]
    halves = ["; ".join(f"{n} {w:.2f}" for n, w in h.items()) for h in eq["halves"]]
    out.append(f"robustness: equilibrium of the even deals: {halves[0]}; of the odd deals: {halves[1]}")
    out.append(f"  each policy's payoffs moved by +/- their CI half-widths ({p['games']} games): support changed "
               f"in {p['support_changed']}; policies in some support: {', '.join(p['in_some_support'])}; "
               f"largest shift (total variation) {p['max_tv']:.2f}")
    return out


def _iteration_lines(d: dict) -> list[str]:
    it = d["iteration"]
    return ([f"best-response iteration on a homogeneous field from {it['start']}: {' -> '.join(it['path'])}: "
             + (f"fixed point {it['cycle'][0]}" if it["outcome"] == "fixed point"
                else f"cycle {' -> '.join(it['cycle'] + it['cycle'][:1])}")]
            + _br_table(it["steps"], "field (all other seats)"))


def equilibrium_csv(d: dict) -> str:
    """``knock-sweep --equilibrium --csv``: the best responses, one row per opponent (nested
    fields flattened as ``a.b``)."""
    import pandas as pd
    return pd.json_normalize(d["best_responses"]).to_csv(index=False)


def format_equilibrium(d: dict, as_json: bool = False) -> str:
    """The study as text: its answer first (:func:`equilibrium_answer`, when
    complete), the rules and presets in effect, then the tables."""
    if as_json:
        return json_text.dumps(d)
    head = []
    if d["complete"]:
        from sim.runner import make_spec
        rules = make_spec(d["variant"], rules=list(d["rules"]), n=1, players=d["players"]).rules
        names = [a for p in d["policies"] for a in (p["name"], *p.get("aliases", ()))]
        head = [*answer_lines(equilibrium_answer(d)), *rules_lines(rules, d["variant"]),
                *answer_lines(preset_line(d["variant"], names, d["players"])), ""]
    out = [*head, f"knock equilibrium: {d['variant']}, {d['players']} players, {len(d['policies'])} policies, "
           f"{d['hands_per_seating']:,} deals per seating (every policy in every seat on the same deals), "
           f"seed {d['seed']}" + (f"; rules {', '.join(d['rules'])}" if d["rules"] else ""),
           _policies_line(d),
           f"simulated {d['hands_simulated']:,} hands in {d['elapsed_s']:.1f} s (+{d['compile_s']:.1f} s "
           f"compile/cache load)"
           + ("; the rest read from the store" if any(s["from_store"] for s in d["stages"].values()) else "")
           + ("" if d["complete"] else "  -- PARTIAL (interrupted)")]
    if not d["complete"]:
        return "\n".join(out)
    out += ["", f"best responses, {d['measure']}; cannot tell: {d['method']}",
            *_br_table(d["best_responses"], "against"), ""]
    if "equilibrium" in d:
        out += [*_matrix_lines(d), "", *_equilibrium_lines(d)]
    else:
        out += _iteration_lines(d)
    return "\n".join(out)


# ----------------------------------------------------------------------------------------
# CLI

class EquilibriumFlag(argparse.Action):
    """``--equilibrium``: sets ``equilibrium`` and, unless ``--hands`` is given, ``hands`` to
    None (the study's own default; argparse leaves an option not given at its default object,
    so the identity test tells a default from an explicit value)."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=False, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, True)
        if namespace.hands is parser.get_default("hands"):
            namespace.hands = None


def cmd_equilibrium(args) -> int:
    """``rummylab knock-sweep --equilibrium``: run, print the answer (text, --json or --csv)."""
    from ..args import interrupted, output_format
    fmt = output_format(args)
    bad = [flag for flag, on in (("--by-turn", args.by_turn), ("--games", args.games),
                                 ("--buckets", args.buckets), ("--bucket-by", args.bucket_by != "turn")) if on]
    if bad:
        raise SweepError(f"--equilibrium plays one policy all hand long: drop {', '.join(bad)}")
    spec = EquilibriumSpec(variant=args.variant, thresholds=args.thresholds or (),
                           hands=HANDS if args.hands is None else args.hands, seed=args.seed,
                           players=args.players, rules=tuple(args.rule), strategy=args.strategy,
                           extra=(args.opponent,) if args.opponent != "simple" else (), rule_set=args.rule_set)
    res = run_equilibrium(spec, out_dir=args.out, jobs=args.jobs, progress=None if not args.no_progress else False,
                          backend=args.backend, scheduler=args.scheduler)
    d = summarize(res)
    if args.out:
        d["out"] = str(args.out)
    print(equilibrium_csv(d) if fmt == "csv" else format_equilibrium(d, as_json=fmt == "json"),
          end="" if fmt == "csv" else "\n")
    if not res.complete:
        return interrupted(args.out)
    return 0


# ----------------------------------------------------------------------------------------
# the study's answer in sentences (analysis.wording has the words)

STRONG = ("strong",)      # the presets an equilibrium answer names besides the base opponent


def equilibrium_answer(summary: dict) -> list[str]:
    """A knock equilibrium's headline and its best response to each preset
    (:func:`analysis.studies.equilibrium_text.summarize` already words them from the data)."""
    tick = (lambda s: s.replace("<=", "≤").replace(">=", "≥"))
    ans = summary["answer"]
    k = len(summary["best_responses"])
    pick = [i + 1 for i, b in enumerate(summary["best_responses"]) if i == 0 or b["opponent"] in STRONG]
    return [tick(f"{summary['variant']}, {summary['players']} players: {ans[i][0].lower()}{ans[i][1:]}"
                 if j == 0 else ans[i]) for j, i in enumerate(pick + [k + 1])] + [tick(s) for s in ans[k + 2:]]
