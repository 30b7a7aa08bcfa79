"""Run specs, chunk execution and exact streaming aggregation (numpy only).

A :class:`RunSpec` fixes everything a result depends on: variant, rules, one strategy per
seat, mode (single ``hands`` or whole ``games``), number of units and seed.  Unit ``i``
(hand or game) depends only on ``(spec, i)``, so chunks can run anywhere in any order.

:class:`Accumulator` keeps exact integer sums (count, sum, sum of squares) of named series
derived from the outcome rows, plus histograms; merging is order-independent, so a summary is
bit-identical whatever the number of jobs, the chunking or the backend.  Confidence intervals
are computed from it in ``analysis.stats``.

:func:`play_hands` is the in-process entry point (notebooks, tests); the parallel, resumable,
stored version is ``analysis.jobs.run``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from .core import rng
from .core.errors import UserInputError
from .core.games import game_columns
from .core.rules import RulesBase
from .strategies import SEARCH_PARAM, Strategy, parse_strategies, strategy_matrix
from .variants import Variant, VariantError, get_variant

CHUNK = 8192          # units per chunk: fixed, part of the store layout (not of the results)
SEARCH_CHUNK = 32     # units per chunk when a seat decides by search (sim.search): ~1,000x slower
                      # per hand, so chunks this small keep every core busy, the bar moving and
                      # a stopped run resumable
MAX_UNITS = 10**12    # most hands (or games) one run may ask for
MODES = ("hands", "games", "duplicate")   # duplicate: hands, each deal once per position (sim.core.rng)
HIST_BINS = 256


class SpecError(UserInputError):
    """A run spec that cannot be run (bad counts, seed, mode, ...)."""


@dataclass(frozen=True)
class RunSpec:
    variant: Variant
    rules: RulesBase
    strategies: tuple[Strategy, ...]
    n: int
    seed: int
    mode: str = "hands"
    rule_set: str | None = None     # the named rule set the rules came from (recorded, not applied)

    @property
    def n_seats(self) -> int:
        return len(self.strategies)

    @property
    def columns(self) -> tuple[str, ...]:
        if self.mode == "games":
            return game_columns(self.n_seats)
        return self.variant.columns(self.n_seats)

    @property
    def chunk(self) -> int:
        """Units per chunk: :data:`SEARCH_CHUNK` when some seat searches, else :data:`CHUNK`."""
        return SEARCH_CHUNK if any(s.values.get(SEARCH_PARAM, 0) > 0 for s in self.strategies) else CHUNK

    def kernel(self):
        if self.mode == "games":
            return self.variant.game_kernel
        return self.variant.play_chunk

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.rules.to_array(), strategy_matrix(list(self.strategies))

    def identity(self) -> dict:
        """What the results depend on (everything but n); stored and hashed (with the rule set's
        name when the rules came from one)."""
        named = {} if self.rule_set is None else {"rule_set": self.rule_set}
        return {
            "variant": self.variant.name,
            "rules": self.rules.as_dict(),
            "rules_version": type(self.rules).VERSION,
            "strategies": [s.as_dict() for s in self.strategies],
            "seed": self.seed,
            "mode": self.mode,
            "chunk": self.chunk,
            **named,
        }

    def chunks(self) -> Iterator[tuple[int, int]]:
        """(first unit, stop) of each chunk covering 0..n, lazily."""
        return chunk_ranges(self.n, self.chunk)


def chunk_ranges(n: int, size: int = CHUNK) -> Iterator[tuple[int, int]]:
    """(first unit, stop) of the fixed chunks of ``size`` units covering 0..n, one at a time."""
    return ((a, min(a + size, n)) for a in range(0, n, size))


def make_spec(variant: str, *, rules=None, strategies="simple", n: int = 10000, seed: int = 0,
              players: int | None = None, mode: str = "hands", rule_set: str | None = None) -> RunSpec:
    """Resolve names and options into a checked :class:`RunSpec`.

    ``rules``: a rules object, a dict or a list of ``"name=value"`` strings; ``rule_set``: a name
    in the variant's ``rule_sets``, its options under ``rules`` (which win; not with a rules
    object).
    ``strategies``: text like ``"simple,threshold(knock=6)"`` or a list of specs.
    """
    v = get_variant(variant)
    if mode not in MODES:
        raise SpecError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    if rule_set is not None:
        if isinstance(rules, RulesBase):
            raise SpecError("a rule set takes rule options, not a rules object")
        items = [f"{k}={x}" for k, x in rules.items()] if isinstance(rules, dict) else list(rules or ())
        rules = v.rules_with_set(rule_set, items)
    if isinstance(rules, RulesBase):
        r = rules
    else:
        fixed = {}
        if v.players_rule:
            fixed["players"] = players if players is not None else v.default_players
        elif players is not None and players != v.default_players:
            v.check_players(players)
        r = v.rules_cls.from_options(rules, **fixed)
    n_seats = getattr(r, "players", None) or players or v.default_players
    v.check_players(n_seats)
    strats = parse_strategies(strategies, v.name, n_seats)
    if v.check_strategies is not None:
        v.check_strategies(r, strats)
    if isinstance(n, bool) or int(n) != n or n <= 0:
        raise SpecError(f"number of {mode} must be a positive whole number, got {n}")
    if n > MAX_UNITS:
        raise SpecError(f"number of {mode} must be at most {MAX_UNITS:,}, got {n:,}")
    if isinstance(seed, bool) or int(seed) != seed or not (0 <= seed < 2**63):
        raise SpecError(f"seed must be a whole number in [0, 2^63), got {seed}")
    if mode == "games" and v.game_kernel is None:
        raise SpecError(f"{v.name} has no whole-game mode")
    return RunSpec(v, r, tuple(strats), int(n), int(seed), mode, rule_set)


def run_chunk(spec: RunSpec, start: int, stop: int, arrays=None) -> np.ndarray:
    """Outcome rows of units ``start..stop-1`` (int64, one column per ``spec.columns``)."""
    rules_arr, strat = arrays if arrays is not None else spec.arrays()
    out = np.zeros((stop - start, len(spec.columns)), dtype=np.int64)
    first = start + rng.DUPLICATE if spec.mode == "duplicate" else start
    spec.kernel()(rules_arr, strat, spec.seed, first, out)
    return out


def play_hands(variant: str, rules=None, strategies="simple", n_hands: int = 10000, seed: int = 0,
               players: int | None = None, mode: str = "hands", rule_set: str | None = None) -> dict[str, np.ndarray]:
    """Play ``n_hands`` in this process; returns the outcome columns as arrays."""
    spec = make_spec(variant, rules=rules, strategies=strategies, n=n_hands, seed=seed,
                     players=players, mode=mode, rule_set=rule_set)
    arrays = spec.arrays()
    rows = np.concatenate([run_chunk(spec, a, b, arrays) for a, b in spec.chunks()])
    return {c: rows[:, i] for i, c in enumerate(spec.columns)}


# ----------------------------------------------------------------------------------------
# streaming aggregation

def series(spec: RunSpec, rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
    """Named per-row series to aggregate: name -> (int64 values, valid mask or None).
    ``rate:`` series are 0/1 flags, the others are means."""
    col = {c: rows[:, i] for i, c in enumerate(spec.columns)}
    n = spec.n_seats
    out: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
    if spec.mode == "games":
        for s in range(n):
            out[f"rate:win{s}"] = ((col["winner"] == s).astype(np.int64), None)
            for k in ("net", "points", "place", "buybacks"):
                out[f"{k}{s}"] = (col[f"{k}{s}"], None)
        out["rate:first_dealer_wins"] = ((col["winner"] == col["first_dealer"]).astype(np.int64), None)
        for k in ("hands", "voids", "turns"):
            out[k] = (col[k], None)
        return out
    sc = np.stack([col[f"score{s}"] for s in range(n)], axis=1)
    field_total = sc.sum(axis=1)
    # a hand's winner: the seat its game names in a ``winner`` column (penalty games score no
    # one above 0), else every seat with a positive score
    won = (col["winner"][:, None] == np.arange(n)[None, :]) if "winner" in col else sc > 0
    for s in range(n):
        out[f"score{s}"] = (col[f"score{s}"], None)
        out[f"rate:win{s}"] = (won[:, s].astype(np.int64), None)
        out[f"deadwood{s}"] = (col[f"deadwood{s}"], None)
        if not spec.variant.scores_zero_sum(spec.rules):
            # net against the field, times (n - 1) to stay an integer: summary divides
            out[f"field{s}"] = ((n - 1) * col[f"score{s}"] - (field_total - col[f"score{s}"]), None)
    dealer = col["dealer"]
    for p in range(n):  # position p after the dealer: 0 plays first, n-1 is the dealer
        seat = (dealer + 1 + p) % n
        pos_score = sc[np.arange(len(seat)), seat]
        out[f"pos{p}_score"] = (pos_score, None)
        out[f"rate:pos{p}_win"] = (won[np.arange(len(seat)), seat].astype(np.int64), None)
    for k, name in enumerate(spec.variant.outcomes):
        out[f"rate:outcome:{name}"] = ((col["outcome"] == k).astype(np.int64), None)
    out["turns"] = (col["turns"], None)
    out["stock_left"] = (col["stock_left"], None)
    for name in spec.variant.extra_columns:
        v = col[name]
        out[name] = (v, v >= 0)
    return out


@dataclass
class Accumulator:
    """Exact integer moments of every series + histograms; merge is associative."""
    n: int = 0
    moments: dict[str, list[int]] = field(default_factory=dict)   # name -> [count, sum, sumsq]
    hists: dict[str, list[int]] = field(default_factory=dict)

    def update(self, spec: RunSpec, rows: np.ndarray) -> "Accumulator":
        self.n += rows.shape[0]
        for name, (v, valid) in series(spec, rows).items():
            if valid is not None:
                v = v[valid]
            m = self.moments.setdefault(name, [0, 0, 0])
            m[0] += int(v.shape[0])
            m[1] += int(v.sum())
            m[2] += int((v.astype(np.int64) ** 2).sum())
        hist_col = "hands" if spec.mode == "games" else "turns"
        h = np.bincount(np.clip(rows[:, spec.columns.index(hist_col)], 0, HIST_BINS - 1),
                        minlength=HIST_BINS)
        cur = self.hists.setdefault(hist_col, [0] * HIST_BINS)
        for i, x in enumerate(h.tolist()):
            cur[i] += x
        return self

    def merge(self, other: "Accumulator") -> "Accumulator":
        self.n += other.n
        for name, (c, s, ss) in other.moments.items():
            m = self.moments.setdefault(name, [0, 0, 0])
            m[0] += c
            m[1] += s
            m[2] += ss
        for name, h in other.hists.items():
            cur = self.hists.setdefault(name, [0] * len(h))
            for i, x in enumerate(h):
                cur[i] += x
        return self

    def to_dict(self) -> dict:
        return {"n": self.n, "moments": self.moments, "hists": self.hists}

    @classmethod
    def from_dict(cls, d: dict) -> "Accumulator":
        return cls(d["n"], {k: list(v) for k, v in d["moments"].items()},
                   {k: list(v) for k, v in d["hists"].items()})


def accumulate(spec: RunSpec, rows: np.ndarray) -> Accumulator:
    return Accumulator().update(spec, rows)


__all__ = ["RunSpec", "make_spec", "run_chunk", "play_hands", "Accumulator", "accumulate",
           "series", "SpecError", "VariantError", "CHUNK", "MAX_UNITS", "chunk_ranges"]
