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
| restock_keep_top | off    | **[choice]** keep the top discard as the pile, turn only the rest over |

[choice]s where the rules are silent:

* The rules give 2-3 players one pack and 7 players two: ``packs=2`` with 2-3 players and
  ``packs=1`` with 7 are refused (a clear error, not a silent change).
* Going out is checked after the draw: without a discard when the whole hand melds (the
  player never discards then), else with the cheapest legal discard leaving every other card
  melded.  Every strategy goes out when it can (the winner's score does not depend on its own
  hand).  The final discard is never the card just taken from the pile.
* Restock and the two-pack "card just taken" as in :mod:`sim.wild.closed_wild`.  A hand reaching
  ``MAX_TURNS`` (1000) is ``turn_limit``: void, no score.
* There is no whole game: the seed plays hands only.

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``score{s}`` the winner's points (others 0);
``deadwood{s}`` every seat's exact minimum deadwood at the end (0 for the winner);
``winner`` (-1 on a void hand), ``points`` the winner's score, ``out_turn`` its own turn.

Strategies (family ``wild``): ``simple`` takes the pile top when it melds and discards the card
leaving the least deadwood (a wild only when that is best); ``keep-wilds`` never discards a
wild; ``discard-wilds-late`` discards every wild it holds from own turn 8 on (``dump_wilds``:
measured by ``rummylab compare``, see the README).  ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) = simple +
``keep_near=1`` + ``take=1, take_gain=3`` (take the pile top when it lowers the deadwood by 3
or more) + never discards a wild.  Seat 0 against ``simple`` opponents, minus seat 0 playing
``simple``, on the same deals (points per hand of seat 0 against the others' mean): +0.19 +-
0.15 with 2 players, +0.92 +- 0.25 with 4 (95% CI, 30,000 paired hands each, seed 202; picked
on seed 101, where keep-wilds alone gained +0.05 +- 0.02 at 4 players).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..wild import closed_wild as CW
from .wild_games import GO_OUT_COLUMNS, go_out_variant

OUTCOMES = ("rummy", "rummy_no_discard", "turn_limit")
O_RUMMY, O_RUMMY_NO_DISCARD, O_TURN_LIMIT = range(len(OUTCOMES))
EXTRA_COLUMNS = GO_OUT_COLUMNS


@dataclass(frozen=True)
class WildcardRules(CW.GoOutRules):
    VERSION = 2  # 2: restock turns the whole pile over (issue 18); restock_keep_top keeps the old reading


VARIANT = go_out_variant(
    "wildcard", WildcardRules, CW.GAME_WILDCARD, OUTCOMES,
    "Wildcard Rummy: 2-7 players, one or two joker packs, jokers and 2s wild; out only by "
    "rummy (with or without a discard); the winner scores the others' deadwood.",
    balance_scale=0.3,   # hand-strong beats simple: the docstring above
)
