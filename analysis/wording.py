"""The words every study's answer is written in: numbers with their 95% CI ('+0.12 [−0.03, +0.27]
points per hand, not significant'), compact spans of thresholds, terminal wrapping, and what a run was
played under (its rules against the game's defaults, the presets it names).

Each study words its own answer beside its statistics (``sweep_answer`` in
:mod:`analysis.studies.sweep_text`, ``compare_answer`` in :mod:`analysis.studies.compare_stats`, ...):
every function there takes the study's stored data (as its loader returns it) and returns plain
sentences with every number's 95% CI and n, and "not significant" wherever an interval covers 0.
The report's landing page leads with them (:mod:`analysis.report.site`); the study commands print
the same sentences.  This module is below every study: it imports none."""

from __future__ import annotations

import math

from sim.variants import get_variant

NOT_SIGNIFICANT = "not significant"


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

def ns_suffix(lo: float, hi: float) -> str:
    """', not significant' when the interval covers 0."""
    return f", {NOT_SIGNIFICANT}" if covers_zero(lo, hi) else ""

def p_text(p: float) -> str:
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
