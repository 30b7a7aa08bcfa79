"""What the closed wild-card games (Ramino Klop, Wildcard, Cincinnati) declare alike.

All three play on :mod:`sim.wild.closed_wild`: 4 players by default, what is left in hand is
deadwood, scores do not sum to zero, hands end at the engine's turn guard with outcome
``turn_limit`` when nobody goes out, and their ladder is ``random`` < ``simple`` < ``strong``.
Wildcard and Cincinnati also share the go-out shape (:func:`go_out_variant`).
"""

from __future__ import annotations

from ..wild import closed_wild as CW
from . import Variant

GO_OUT_COLUMNS = ("winner", "points", "out_turn")


def wild_variant(**declared) -> Variant:
    """A closed wild-card game's declaration: the shared fields, then the game's own."""
    shared = dict(default_players=4, hand_word="deadwood", zero_sum=False, max_turns=CW.MAX_TURNS,
                  no_out_outcomes=("turn_limit",), ladder=("random", "simple", "strong"))
    return Variant(**{**shared, **declared})


def go_out_variant(name: str, rules_cls, game_code: int, outcomes: tuple[str, ...], doc: str,
                   **declared) -> Variant:
    """A Wildcard-like game: 2-7 players, out only with every card melded (``outcomes``: out,
    out without a discard, turn limit, in that order), the winner scores points."""
    play_chunk = CW.go_out_play_chunk(rules_cls, name, game_code, (-1, 0, 1, 2), GO_OUT_COLUMNS)
    return wild_variant(name=name, rules_cls=rules_cls, min_players=2, max_players=7, outcomes=outcomes,
                        play_chunk=play_chunk, score_unit="points", doc=doc,
                        extra_columns=GO_OUT_COLUMNS, **declared)
