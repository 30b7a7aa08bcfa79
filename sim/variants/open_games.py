"""What the open-melding games (Basic and Block Rummy, Wrotham, Ramino Drift, Loba) declare alike.

All of them play on :mod:`sim.open.open_rummy` with the planner of :mod:`sim.open.open_plan`: 4 players by
default, what is left in hand is a count, scores do not sum to zero, hands end at the engine's
turn guard, and their ladder is ``random`` < ``simple`` < ``strong``.
"""

from __future__ import annotations

from ..open import open_rummy as OR
from ..open.open_rummy_setup import game_chunks, hand_chunk
from . import Variant


def open_variant(name: str, rules_cls, setup, extra_columns: tuple[str, ...], games: dict, pick_game,
                 **declared) -> Variant:
    """An open-melding game's declaration: hands and whole games played from ``setup``
    (``rules_arr -> (cfg, tabs)``), ``games`` the game shapes by kind and ``pick_game`` the
    rules -> kind of the game played; then the game's own fields."""
    shared = dict(default_players=4, hand_word="count", zero_sum=False, max_turns=OR.MAX_TURNS,
                  ladder=("random", "simple", "strong"))
    return Variant(name=name, rules_cls=rules_cls, extra_columns=extra_columns,
                   play_chunk=hand_chunk(name, setup, extra_columns),
                   game_kernel=game_chunks(name, setup, rules_cls, extra_columns, games, pick_game),
                   **{**shared, **declared})


def elimination_variant(name: str, rules_cls, setup, extra_columns: tuple[str, ...], game, **declared) -> Variant:
    """Ramino Drift and Loba: one elimination game (``game``), penalty scores, and a hand nobody
    goes out of is ``void``."""
    return open_variant(name, rules_cls, setup, extra_columns, {"elimination": game}, lambda r: "elimination",
                        game=game, score_unit="penalty", no_out_outcomes=("void",), **declared)


def elimination_cfg(outcome_of_end, extras: dict[str, int], *, players: int, hand: int, take_rule: int,
                    joker_last_only: int, restock_shuffle: bool, rummy: int, ace_high: int):
    """The engine ``cfg`` of Drift and Loba: one deal, no starter, the card taken from the pile
    not discarded in that turn, restocks without limit, penalty settlement, a hand nobody goes
    out of void (:func:`sim.open.open_rummy_layout.make_cfg`)."""
    return OR.make_cfg(
        outcome_of_end, extras, players=players, hand=hand, starter_extra=0, starter_no_draw=0,
        take_rule=take_rule, taken_no_discard=1, joker_last_only=joker_last_only,
        restock=OR.RESTOCK_SHUFFLE if restock_shuffle else OR.RESTOCK_TURN_OVER, max_restocks=-1,
        settle=OR.SETTLE_PENALTY, rummy=rummy, no_out=OR.NO_OUT_VOID, deal=1, deal_cycle=0, late_deal=0,
        ace_high=ace_high)
