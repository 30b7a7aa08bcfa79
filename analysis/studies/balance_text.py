"""A balance study (:mod:`.balance`) as the CLI's text table and as ``rummylab balance --json``."""

from __future__ import annotations

from ..stats import Estimate
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
    """The comparison table as text: one line per game x player count (x rules)."""
    lines = [f"{'game':<14}{'n':>2}  {'first-player win edge':>24}  {'skill (strongest vs random)':>28}  "
             f"{'turns/hand':>10}  {'no one out':>10}"]
    for c in doc["cells"]:
        fw, eff = _est(c["seat_hand"]["first_win"]), _est(top_pair(c)["hand"]["effect"])
        label = c["variant"] + (f" [{c['rules'][0]}]" if c["rules"] else "")
        lines.append(f"{label:<14}{c['players']:>2}  {fw.fmt(1, pct=True, sign=True):>24}  "
                     f"{eff.fmt(2, sign=True):>28}  {c['tempo']['turns']['value']:>10.1f}  "
                     f"{c['tempo']['no_out']['value']:>10.1%}")
    return "\n".join(lines)
