"""A strategy family's pieces and the registry every family module fills: parameters
(:class:`Param`, and the builders of the ones several families share), the family
(:class:`StrategyFamily`: integer code, parameters, presets), a resolved :class:`Strategy`, and
:func:`register`.  Below every family module (``knock``, ``tonk``, ``wild``, ``open_play``), which
import it; the package (:mod:`sim.strategies`) parses specs and loads the families and the tuned
presets on top of it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.errors import UserInputError

PARAM_WIDTH = 32  # columns of a strategy row: code + up to 31 parameters


class StrategyError(UserInputError):
    """A strategy spec that names an unknown family/preset/parameter or a bad value."""


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    lo: float
    hi: float
    help: str
    integer: bool = False


@dataclass(frozen=True)
class StrategyFamily:
    name: str
    code: int
    variants: tuple[str, ...]          # variant names this family can play
    params: tuple[Param, ...]
    doc: str
    presets: dict[str, dict[str, float]] = field(default_factory=dict)
    # variant name -> its own presets (replacing ``presets`` for that variant)
    variant_presets: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    # variants whose kernels decide by search when ``search_worlds`` > 0 (sim.search)
    search_variants: tuple[str, ...] = ()
    # the ``search`` preset's parameters beyond ``strong``'s (default: SEARCH_WORLDS worlds),
    # per variant where a game's budget differs (a slow engine's smaller default)
    search_preset: dict[str, dict[str, float]] = field(default_factory=dict)
    # more presets built on ``strong`` as ``search`` is, per variant: name -> parameters beyond
    # ``strong``'s (an earlier search kept to measure against, e.g. Gin's ``search-uniform``)
    search_also: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    # presets too slow for the studies that play every preset of the family (the knock
    # equilibrium's tournament): there only when named (its ``extra`` policies)
    slow_presets: tuple[str, ...] = ()

    def presets_for(self, variant: str) -> dict[str, dict[str, float]]:
        """The presets this family offers in ``variant``."""
        return self.variant_presets.get(variant, self.presets)

    def index(self, name: str) -> int:
        for i, p in enumerate(self.params):
            if p.name == name:
                return i
        raise StrategyError(
            f"family {self.name!r} has no parameter {name!r}; parameters: "
            + ", ".join(p.name for p in self.params))

    def row(self, values: dict[str, float] | None = None) -> np.ndarray:
        """float64 row [code, params...] padded to PARAM_WIDTH, checked against bounds."""
        out = np.zeros(PARAM_WIDTH, dtype=np.float64)
        out[0] = self.code
        vals = {p.name: p.default for p in self.params}
        for k, v in (values or {}).items():
            p = self.params[self.index(k)]
            if not (p.lo <= v <= p.hi):
                raise StrategyError(f"{self.name}: {k}={v:g} is out of range [{p.lo:g}, {p.hi:g}]")
            if p.integer and v != int(v):
                raise StrategyError(f"{self.name}: {k} must be a whole number, got {v:g}")
            vals[k] = float(v)
        for i, p in enumerate(self.params):
            out[1 + i] = vals[p.name]
        return out


@dataclass(frozen=True)
class Strategy:
    """A resolved strategy: family, full parameter values and the spec text it came from."""
    family: StrategyFamily
    values: dict[str, float]
    spec: str

    @property
    def row(self) -> np.ndarray:
        return self.family.row(self.values)

    def as_dict(self) -> dict:
        return {"spec": self.spec, "family": self.family.name, "params": dict(self.values)}


FAMILIES: dict[str, StrategyFamily] = {}
PRESETS: dict[tuple[str, str], tuple[StrategyFamily, dict[str, float]]] = {}  # (variant, name)
# (variant, name, players) -> the tuned preset that stands for preset ``name`` at that player
# count (a presets-file entry with ``stands_for`` and ``at_players``: per player count where the
# best parameters differ); ``search`` follows ``strong``'s
PLAYER_ALIASES: dict[tuple[str, str, int], str] = {}


def register(family: StrategyFamily) -> StrategyFamily:
    if any(f.code == family.code for f in FAMILIES.values() if f.name != family.name):
        raise RuntimeError(f"strategy family code {family.code} used twice")
    FAMILIES[family.name] = family
    for variant in family.variants:
        for pname, vals in family.presets_for(variant).items():
            PRESETS[(variant, pname)] = (family, vals)
        PRESETS.setdefault((variant, family.name), (family, {}))
    return family


SEARCH_PARAM = "search_worlds"   # a family with this parameter can decide by search (sim.search)
SEARCH_WORLDS = 64               # the ``search`` preset's budget: worlds per decision


# parameters several families share (each family places them in its PARAMS)

def bucket_params(name: str, default: float, lo: float, hi: float, help: str) -> tuple[Param, Param, Param]:
    """A threshold by bucket of the hand: ``name`` (the early bucket, or every turn) and
    ``name_mid`` / ``name_late`` (-1: the same as ``name``); :func:`bucket_starts` places them."""
    return (Param(name, default, lo, hi, help, True),
            Param(f"{name}_mid", -1, -1, hi, f"{name} in the mid bucket (-1: same as {name})", True),
            Param(f"{name}_late", -1, -1, hi, f"{name} in the late bucket (-1: same as {name})", True))


def bucket_starts(by: str = "own turn") -> tuple[Param, Param]:
    """``mid_from`` / ``late_from``: the ``by`` (an own turn number) where the mid / late bucket starts."""
    return (Param("mid_from", -1, -1, 99, f"{by} where the mid bucket starts; -1 none", True),
            Param("late_from", -1, -1, 99, f"{by} where the late bucket starts; -1 none", True))


def search_worlds_param(rollout: str = "") -> Param:
    """``search_worlds`` (:data:`SEARCH_PARAM`): worlds per decision, 0 no search; ``rollout``
    adds who plays the candidates out."""
    return Param(SEARCH_PARAM, 0, 0, 4096, "search: worlds sampled per decision, each candidate played out in each "
                 f"with these parameters' heuristic{rollout} (0: no search; sim.search)", True)


def search_top_param(hi: int, order: str = "the heuristic's best first") -> Param:
    """``search_top``: the candidates tried, at most ``hi``, in the ``order`` the family ranks them."""
    return Param("search_top", 3, 1, hi, f"search: the discards tried, {order}", True)


def search_z_param(integer: bool = False) -> Param:
    """``search_z``: the standard errors a candidate must win by (:func:`sim.search.worlds.paired_choice`)."""
    return Param("search_z", 2.0, 0, 10, "search: leave the heuristic's choice only for a candidate better by this "
                 "many standard errors of the paired difference over the worlds (0: the plain best mean)", integer)


def search_drop_param(integer: bool = False) -> Param:
    """``search_drop``: the racing bar (:func:`sim.search.worlds.race`)."""
    return Param("search_drop", 0.0, -5, 5, "search: every 8 worlds, stop playing out the candidates not better than "
                 "the heuristic's choice by this many standard errors", integer)
