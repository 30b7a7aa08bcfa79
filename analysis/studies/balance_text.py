"""A balance study (:mod:`.balance`) as the CLI's text table and as ``rummylab balance --json``."""

from __future__ import annotations

from ..stats import Estimate
from ..wording import answer_lines, ci_text, covers_zero, preset_line
from .balance_stats import INTERACTION_CI

SECTIONS = (("seat_edge", "seat_hand"), ("seat_edge_duplicate", "seat_dup"), ("seat_edge_games", "seat_game"),
            ("tempo", "tempo"), ("volatility", "volatility"))


def _est(d: dict) -> Estimate:
    return Estimate(d["value"], d["ci95"][0], d["ci95"][1], d["n"])


def _is_estimate(x) -> bool:
    return isinstance(x, dict) and set(x) == {"value", "ci95", "n"}


def estimates(x):
    """``x`` with only its estimates (``{"value", "ci95", "n"}``) kept, nested as they are;
    None where there are none."""
    if _is_estimate(x):
        return x
    if isinstance(x, dict):
        kept = {k: e for k, e in ((k, estimates(y)) for k, y in x.items()) if e is not None}
        return kept or None
    if isinstance(x, list) and x and all(_is_estimate(y) for y in x):
        return x
    return None


def top_pair(cell: dict) -> dict:
    """The ladder pair of the whole ladder: ``random`` against the strongest."""
    rungs = cell["rungs"]
    return next(p for p in cell["ladder"] if p["weak"] == rungs[0] and p["strong"] == rungs[-1])


def cell_summary(cell: dict) -> dict:
    """One game x player count (x rules): every estimate, the skill gradient (random against
    the strongest, per hand) under ``skill_gradient``."""
    out = {k: cell[k] for k in ("variant", "players", "rules", "score_unit", "strategy")}
    out["skill_gradient"] = cell.get("skill_gradient") or top_pair(cell)["hand"]["effect"]
    for name, key in SECTIONS:
        if key in cell:
            out[name] = estimates(cell[key])
    out["ladder"] = [{"weak": p["weak"], "strong": p["strong"],
                      **{unit: estimates(p[unit]) for unit in ("hand", "game") if unit in p}}
                     for p in cell["ladder"]]
    return out


def sensitivity_summary(s: dict) -> dict:
    return {"variant": s["variant"], "players": s["players"], "hands": s["hands"],
            "default": estimates(s["default"]),
            "options": [{"rule": o["rule"], **estimates(o)} for o in s["options"]],
            "skipped": s["skipped"]}


def json_summary(doc: dict, out=None) -> dict:
    """``rummylab balance --json``: per game and player count every estimate as ``{"value",
    "ci95", "n"}`` (as ``simulate --json``), the skill gradient under ``skill_gradient``."""
    return {"kind": doc["kind"], **({"out": str(out)} if out is not None else {}),
            "seed": doc["config"]["seed"],
            "notes": {"ladder.shares.interaction": f"its ci95 is {INTERACTION_CI}"},
            "cells": [cell_summary(c) for c in doc["cells"]],
            "sensitivity": [sensitivity_summary(s) for s in doc["sensitivity"]], "timing": doc["timing"]}


def format_table(doc: dict) -> str:
    """The study as text: its answer first (:func:`balance_answer`), then the
    comparison table, one line per game x player count (x rules), every number with its unit."""
    w = max([14, *(len(c["variant"]) + (len(c["rules"][0]) + 3 if c["rules"] else 0) + 1 for c in doc["cells"])])
    games = dict.fromkeys(c["variant"] for c in doc["cells"])
    presets = (preset_line(next(iter(games)), ["simple", *(top_pair(c)["strong"] for c in doc["cells"])])
               if len(games) == 1 else [])
    lines = [*answer_lines(balance_answer(doc)), *presets, "",
             f"{'game':<{w}}{'players':>7}  {'first player win rate - average seat':>36}  "
             f"{'skill: strongest vs random':>28}  {'turns/hand':>10}  {'hands no one out':>16}",
             f"{'':<{w}}{'':>7}  {'percentage points [95% CI]':>36}  {'SD per hand [95% CI]':>28}"]
    for c in doc["cells"]:
        fw, eff = _est(c["seat_hand"]["first_win"]), _est(top_pair(c)["hand"]["effect"])
        label = c["variant"] + (f" [{c['rules'][0]}]" if c["rules"] else "")
        edge = f"{100 * fw.value:+.1f} pp [{100 * fw.lo:+.1f}, {100 * fw.hi:+.1f}]"
        lines.append(f"{label:<{w}}{c['players']:>7}  {edge:>36}  "
                     f"{eff.fmt(2, sign=True):>28}  {c['tempo']['turns']['value']:>10.1f}  "
                     f"{c['tempo']['no_out']['value']:>16.1%}")
    lines.append(f"  skill: {top_pair(doc['cells'][0])['strong'] if len(doc['cells']) == 1 else 'the strongest preset'}"
                 " against uniform random play on duplicate deals, edge per hand over its SD; n: "
                 + ", ".join(sorted({f"{c['seat_hand']['first_win']['n']:,} hands" for c in doc["cells"]})))
    return "\n".join(lines + search_lines(doc["cells"]))


def search_lines(cells: list[dict]) -> list[str]:
    """The rungs above the ladder (``--champion-hands``, ``--search-hands``), one line per pair
    played: the stronger's edge per hand over the weaker on duplicate deals, in the game's
    points, with CI and n."""
    out = []
    for c in cells:
        for p in (p for p in c["ladder"] if p["strong"] in ("search", c.get("champion"))):
            e, h = _est(p["hand"]["edge"]), p["hand"]
            out.append(f"  {c['variant']}, {c['players']} players: {p['strong']} over {p['weak']}: "
                       f"{e.fmt(2, sign=True)} {c['score_unit']} per hand against the average opponent, wins "
                       f"{_est(h['win']).value:.1%} of hands (fair {h['fair']:.1%}); {h['units']:,} hands")
    return ["", "The rungs above the ladder (duplicate deals, the stronger in one seat, the weaker in the others):",
            *out] if out else []


def balance_csv(doc: dict) -> str:
    """``balance --csv``: per game x player count (x rules) the first player's win edge, the
    skill gradient and turns per hand, each with its CI and n."""
    import pandas as pd
    rows = []
    for r in balance_rows(doc):
        row = {"game": r["game"], "players": r["players"], "rules": " ".join(r["rules"]), "strongest": r["strong"]}
        for k in ("seat", "skill", "turns"):
            e = r[k]
            row.update({k: e.value, f"{k}_lo": e.lo, f"{k}_hi": e.hi, f"{k}_n": e.n})
        rows.append(row)
    return pd.DataFrame(rows).rename(columns=lambda c: c.replace("seat", "first_win_edge")).to_csv(index=False)


# ----------------------------------------------------------------------------------------
# the study's answer in sentences (analysis.wording has the words)

def _e(d: dict | None):
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
