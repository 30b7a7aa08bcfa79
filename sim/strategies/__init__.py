"""Strategies as data: a family (integer code + named float parameters) and presets.

A strategy reaches a kernel as one row of a float64 array ``[family_code, p0, p1, ...]``;
kernels dispatch on the code, so one compiled kernel serves every parameter setting.
Text specs: ``simple`` (a preset), ``threshold(knock=6,gin_after=8)`` (a preset or family
name plus overrides).  Each family module registers itself with :func:`register`, from
:mod:`sim.strategies.family` (a family's pieces and the registry, below every family module).

Tuned presets are data: ``tuned_presets.json`` beside this file (written by ``rummylab tune
--save-preset``, read here with the standard library once the families are loaded) holds each
tuned preset's family, full parameter values and provenance; an entry is a preset of its
variant like the hand-picked ones (an entry of the same name replaces the hand-picked one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from .family import (  # noqa: F401 (PARAM_WIDTH: the package's API; a family's pieces live in .family)
    FAMILIES, PARAM_WIDTH, PLAYER_ALIASES, PRESETS, SEARCH_PARAM, SEARCH_WORLDS, Strategy, StrategyError,
    StrategyFamily,
)

_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$")


def split_specs(text: str) -> list[str]:
    """Split ``"simple,threshold(knock=6,gin_after=8)"`` on commas outside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise StrategyError(f"unbalanced ')' in strategies {text!r}")
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if depth:
        raise StrategyError(f"unbalanced '(' in strategies {text!r}")
    parts.append("".join(cur).strip())
    if any(not p for p in parts):
        raise StrategyError(f"empty strategy in {text!r}")
    return parts


def parse_strategy(spec: str, variant: str, players: int | None = None) -> Strategy:
    """Resolve one spec for ``variant``: preset or family name with ``(k=v,...)`` overrides; at
    ``players`` (if given) a preset tuned for that count stands in (:data:`PLAYER_ALIASES`)."""
    _load_families()
    m = _SPEC.match(spec)
    if not m:
        raise StrategyError(f"bad strategy spec {spec!r}: write name or name(param=value,...)")
    name, args = m.group(1), m.group(2)
    key = (variant, name)
    if key not in PRESETS:
        known = sorted(n for (v, n) in PRESETS if v == variant)
        raise StrategyError(f"unknown strategy {name!r} for variant {variant!r}; known: {', '.join(known)}")
    family, base = preset_at(variant, name, players)
    values = {p.name: p.default for p in family.params}
    values.update(base)
    overrides: dict[str, float] = {}
    if args and args.strip():
        for item in args.split(","):
            if "=" not in item:
                raise StrategyError(f"bad parameter {item.strip()!r} in {spec!r}: write name=value")
            k, v = (s.strip() for s in item.split("=", 1))
            family.index(k)
            try:
                overrides[k] = float(v)
            except ValueError:
                raise StrategyError(f"bad value {v!r} for {k} in {spec!r}: expected a number") from None
    values.update(overrides)
    family.row(values)  # bounds check
    if values.get(SEARCH_PARAM, 0) > 0 and variant not in family.search_variants:
        raise StrategyError(f"{spec.strip()!r}: {variant} has no search player yet ({SEARCH_PARAM} must be 0; "
                            f"searching games: {', '.join(family.search_variants) or 'none of this family'})")
    return Strategy(family, values, spec.strip())


def preset_at(variant: str, name: str, players: int | None) -> tuple[StrategyFamily, dict[str, float]]:
    """The family and values of preset ``name`` of ``variant`` at ``players``: the tuned preset
    that stands for it at that count if there is one (``search``: ``strong``'s stand-in with the
    search switched on), else the preset itself."""
    alias = PLAYER_ALIASES.get((variant, "strong" if name == "search" else name, players))
    if alias is None:
        return PRESETS[(variant, name)]
    family, values = PRESETS[(variant, alias)]
    return family, ({**values, **search_extra(family, variant)} if name == "search" else values)


def parse_strategies(text: str | list, variant: str, n_seats: int) -> list[Strategy]:
    """One strategy per seat (spec texts or Strategy objects); a single one serves every seat;
    presets resolve at ``n_seats`` players (:func:`preset_at`)."""
    specs = split_specs(text) if isinstance(text, str) else list(text)
    if len(specs) == 1:
        specs = specs * n_seats
    if len(specs) != n_seats:
        raise StrategyError(f"{len(specs)} strategies given for {n_seats} seats: give one per seat or one for all")
    return [s if isinstance(s, Strategy) else parse_strategy(s, variant, n_seats) for s in specs]


def strategy_matrix(strategies: list[Strategy]) -> np.ndarray:
    """float64 (n_seats, PARAM_WIDTH) array for the kernels."""
    return np.ascontiguousarray(np.stack([s.row for s in strategies]), dtype=np.float64)


def _load_families() -> None:
    """Import every family module (each registers itself), then the tuned presets."""
    from . import knock, open_play, tonk, wild  # noqa: F401
    if not _TUNED_LOADED:
        _load_tuned()


TUNED_FILE = Path(__file__).with_name("tuned_presets.json")
TUNED_VERSION = 1
TUNED: dict[tuple[str, str], dict] = {}       # (variant, name) -> the file's entry
_TUNED_LOADED = False


def read_tuned(path=TUNED_FILE) -> dict:
    """The presets file as a document ``{"version": 1, "presets": [entry, ...]}`` (an empty one
    if there is no file); each entry: name, variant, family, params (every parameter), players,
    provenance.  A file that is not such a document raises :class:`StrategyError`."""
    p = Path(path)
    if not p.exists():
        return {"version": TUNED_VERSION, "presets": []}
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StrategyError(f"tuned presets file {p} cannot be read ({e})") from None
    if (not isinstance(doc, dict) or doc.get("version") != TUNED_VERSION
            or not isinstance(doc.get("presets"), list)):
        raise StrategyError(f"tuned presets file {p} is not a version-{TUNED_VERSION} presets document")
    return doc


def check_tuned(entry: dict) -> tuple[StrategyFamily, dict[str, float]]:
    """The family and parameter values of one presets-file entry, checked against the family."""
    try:
        family = FAMILIES[entry["family"]]
        name, variant, params = entry["name"], entry["variant"], dict(entry["params"])
    except (KeyError, TypeError):
        raise StrategyError(f"tuned preset entry {entry!r} needs name, variant, a known family and params") from None
    if variant not in family.variants:
        raise StrategyError(f"tuned preset {name!r}: family {family.name} does not play {variant}")
    family.row(params)  # every name known, every value in range
    if "stands_for" in entry:
        at = entry.get("at_players")
        if (entry["stands_for"] == name or not isinstance(at, list) or not at
                or not all(isinstance(n, int) and n >= 1 for n in at)):
            raise StrategyError(f"tuned preset {name!r}: stands_for needs another preset's name and at_players "
                                "a list of player counts")
    return family, {k: float(v) for k, v in params.items()}


def _load_tuned() -> None:
    global _TUNED_LOADED
    checked = [(entry, *check_tuned(entry)) for entry in read_tuned()["presets"]]
    for entry, family, values in checked:
        PRESETS[(entry["variant"], entry["name"])] = (family, values)
        TUNED[(entry["variant"], entry["name"])] = entry
        for n in entry.get("at_players", ()) if "stands_for" in entry else ():
            PLAYER_ALIASES[(entry["variant"], entry["stands_for"], int(n))] = entry["name"]
    _add_search_presets()
    _TUNED_LOADED = True


def _add_search_presets() -> None:
    """The preset ``search`` of every variant whose ``strong`` family can search: ``strong``'s
    parameters (its rollout heuristic) with :data:`SEARCH_WORLDS` worlds per decision, or the
    family's ``search_preset`` for the variant; and the family's ``search_also`` presets."""
    for (variant, name), (family, values) in list(PRESETS.items()):
        if name == "strong" and variant in family.search_variants:
            PRESETS[(variant, "search")] = (family, {**values, **search_extra(family, variant)})
            for other, extra in family.search_also.get(variant, {}).items():
                PRESETS[(variant, other)] = (family, {**values, **extra})


def search_extra(family: StrategyFamily, variant: str) -> dict[str, float]:
    """The ``search`` preset's parameters beyond ``strong``'s in ``variant``."""
    return family.search_preset.get(variant, {SEARCH_PARAM: float(SEARCH_WORLDS)})


def has_preset(variant: str, name: str) -> bool:
    """True if ``variant`` offers the preset ``name`` (e.g. ``search`` where its kernel searches)."""
    _load_families()
    return (variant, name) in PRESETS


def derive(base: Strategy, **overrides: float) -> Strategy:
    """``base`` with some parameters changed; the spec text shows the change."""
    values = dict(base.values)
    values.update({k: float(v) for k, v in overrides.items()})
    base.family.row(values)  # bounds check
    for k in overrides:
        base.family.index(k)
    inner = ",".join(f"{k}={v:g}" for k, v in overrides.items())
    return Strategy(base.family, values, f"{base.spec}+({inner})" if inner else base.spec)
