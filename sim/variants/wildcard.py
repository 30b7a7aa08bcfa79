"""Wildcard Rummy, 2-7 players (rules: ``rules/wildcard_rummy.md``; source: seed 000,
"Wildcard Rummy").

One or two 54-card joker packs; jokers and all 2s are wild (a 2 may also play as itself).
Deal one pack: 2 players 7 cards, 3 players 7 or 10, 4-5 players 7, 6 players 6; two packs:
10 each.  Melds of 3+ cards, runs in one suit or sets of one rank, aces high or low (never
K-A-2).  A turn: draw the stock top or the pile top, discard (never the card just taken from
the pile).  Nobody melds during play; a player goes out by **rummy**: every card in melds,
with a final discard or without one.  The winner scores the others' exact minimum deadwood,
their wilds usable (A 11, 3-10 face, J Q K 10, jokers and 2s 25); the others score 0.

| option          | default | meaning |
|-----------------|---------|---------|
| players         | 4       | 2-7 players |
| packs           | 0       | 0: by player count (one pack for 2-6, two for 7); 1 (2-6 players) or 2 (4-7 players) |
| deal_3p         | 7       | cards each with 3 players and one pack: 7 or 10 |
| restock_shuffle | off     | shuffle the turned-over discard pile into the new stock |

[choice]s where the rules are silent:

* The rules give 2-3 players one pack and 7 players two: ``packs=2`` with 2-3 players and
  ``packs=1`` with 7 are refused (a clear error, not a silent change).
* Going out is checked after the draw: without a discard when the whole hand melds (the
  player never discards then), else with the cheapest legal discard leaving every other card
  melded.  Every strategy goes out when it can (the winner's score does not depend on its own
  hand).  The final discard is never the card just taken from the pile.
* Restock and the two-pack "card just taken" as in :mod:`sim.closed_wild`.  A hand reaching
  ``MAX_TURNS`` (1000) is ``turn_limit``: void, no score.
* There is no whole game: the seed plays hands only.

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``score{s}`` the winner's points (others 0);
``deadwood{s}`` every seat's exact minimum deadwood at the end (0 for the winner);
``winner`` (-1 on a void hand), ``points`` the winner's score, ``out_turn`` its own turn.

Strategies (family ``wild``): ``simple`` takes the pile top when it melds and discards the card
leaving the least deadwood (a wild only when that is best); ``keep-wilds`` never discards a
wild; ``discard-wilds-late`` may discard wilds from own turn 8 on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import closed_wild as CW
from ..trace import NO_TRACE
from . import Variant, hand_columns

OUTCOMES = ("rummy", "rummy_no_discard", "turn_limit")
O_RUMMY, O_RUMMY_NO_DISCARD, O_TURN_LIMIT = range(len(OUTCOMES))
EXTRA_COLUMNS = ("winner", "points", "out_turn")


@dataclass(frozen=True)
class WildcardRules(CW.GoOutRules):
    VERSION = 1


def _setup(rules_arr):
    return CW.go_out_setup(WildcardRules, "wildcard", CW.GAME_WILDCARD, rules_arr,
                           (-1, O_RUMMY, O_RUMMY_NO_DISCARD, O_TURN_LIMIT))


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=NO_TRACE):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (the sim.variants contract;
    :func:`sim.closed_wild.play_chunk_kernel`)."""
    cfg, tabs = _setup(rules_arr)
    CW.run_hands("wildcard", cfg, tabs, strat_mat, seed, first_hand, out,
                 len(hand_columns(int(cfg[CW.C_PLAYERS]), EXTRA_COLUMNS)), debug, trace)


VARIANT = Variant(
    name="wildcard",
    rules_cls=WildcardRules,
    min_players=2,
    max_players=7,
    default_players=4,
    outcomes=OUTCOMES,
    play_chunk=play_chunk,
    score_unit="points",
    doc="Wildcard Rummy: 2-7 players, one or two joker packs, jokers and 2s wild; out only by "
        "rummy (with or without a discard); the winner scores the others' deadwood.",
    extra_columns=EXTRA_COLUMNS,
    hand_word="deadwood",
    zero_sum=False,
    max_turns=CW.MAX_TURNS,
)
