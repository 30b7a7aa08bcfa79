"""What the knock-engine games (Gin, Knock Rummy, Tonk) declare alike.

All three play on :mod:`sim.knock`: 2 players by default, their ladder is ``random`` <
``simple`` < ``strong``, and each declares its part of the knock advisor (:mod:`sim.advisors.advisor`)
in the module named by ``advisor``, next to its decision interface.
"""

from __future__ import annotations

from ..advisors.worlds import AdvisorSpec
from . import Variant


def knock_variant(name: str, rules_cls, players: tuple[int, int], outcomes: tuple[str, ...], play_chunk,
                  extra_columns: tuple[str, ...], doc: str, *, advisor: str, opp_models: tuple[str, ...],
                  **declared) -> Variant:
    """A knock-engine game's declaration: ``players`` = (fewest, most), the module holding its
    advisor declaration (``advisor``, e.g. ``sim.variants.gin``) offering ``opp_models`` (the
    first is the default), then the game's own fields."""
    lo, hi = players
    return Variant(name=name, rules_cls=rules_cls, min_players=lo, max_players=hi, default_players=2,
                   outcomes=outcomes, play_chunk=play_chunk, extra_columns=extra_columns, doc=doc,
                   ladder=("random", "simple", "strong"),
                   advisor=AdvisorSpec(advisor, opp_models=opp_models),
                   **declared)
