"""Registry of playable variants.

Each variant module defines a ``VARIANT = Variant(...)`` and is listed in ``_MODULES``.
A variant's chunk kernel has the signature::

    play_chunk(rules_arr: float64[:], strat_mat: float64[n_seats, PARAM_WIDTH],
               seed: int64, first_hand: int64, out: int64[n_hands, n_columns]) -> None

and fills one row per hand ``first_hand + i``: the columns named by :func:`hand_columns`.
Row ``i`` depends only on ``(rules, strategies, seed, first_hand + i)``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

BASE_COLUMNS = ("dealer", "ender", "outcome", "turns", "stock_left")
MAX_SEATS = 8


class VariantError(ValueError):
    """Unknown variant or a player count the variant does not allow."""


@dataclass(frozen=True)
class Variant:
    name: str
    rules_cls: type
    min_players: int
    max_players: int
    default_players: int
    outcomes: tuple[str, ...]       # outcome code -> name
    play_chunk: Callable
    score_unit: str                  # "points" or "stakes"
    doc: str
    extra_columns: tuple[str, ...] = ()
    # seat-independent extra columns appended after the per-seat ones

    def columns(self, n_seats: int) -> tuple[str, ...]:
        return hand_columns(n_seats, self.extra_columns)

    def check_players(self, n: int) -> None:
        if not (self.min_players <= n <= self.max_players):
            allowed = (f"exactly {self.min_players}" if self.min_players == self.max_players
                       else f"{self.min_players} to {self.max_players}")
            raise VariantError(f"{self.name} is played by {allowed} players, not {n} (set --players)")


def hand_columns(n_seats: int, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Outcome columns: base columns, score per seat (zero-sum), deadwood/count per seat, extras."""
    return (BASE_COLUMNS + tuple(f"score{s}" for s in range(n_seats))
            + tuple(f"deadwood{s}" for s in range(n_seats)) + tuple(extra))


_MODULES = {"gin": "sim.variants.gin", "tonk": "sim.variants.tonk"}


def available() -> list[str]:
    return list(_MODULES)


def get_variant(name: str) -> Variant:
    key = name.strip().lower()
    if key not in _MODULES:
        raise VariantError(f"unknown variant {name!r}; available: {', '.join(_MODULES)}")
    return importlib.import_module(_MODULES[key]).VARIANT
