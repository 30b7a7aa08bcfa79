"""Cincinnati Rummy, 2-7 players (rules: ``rules/cincinnati.md``; source: seed 000,
"Cincinnati Rummy").

Packs and deals as Wildcard Rummy (one or two 54-card joker packs; one pack: 2 players 7
cards, 3 players 7 or 10, 4-5 players 7, 6 players 6; two packs: 10 each).  Only jokers are
wild.  Melds of 3+ cards, aces high or low (never K-A-2).  A turn: draw the stock top or the
pile top, discard (never the card just taken from the pile).  Nobody melds during play; a
player goes out in one go with every card melded, with a final discard or without one.  The
winner scores the value of **its own** melds (A 11, 2-10 face, J Q K 10, jokers 15); the
others score nothing.

| option          | default | meaning |
|-----------------|---------|---------|
| players         | 4       | 2-7 players |
| packs           | 0       | 0: by player count (one pack for 2-6, two for 7); 1 (2-6 players) or 2 (4-7 players) |
| deal_3p         | 7       | cards each with 3 players and one pack: 7 or 10 |
| restock_shuffle | off     | shuffle the turned-over discard pile into the new stock |
| restock_keep_top | off    | **[choice]** keep the top discard as the pile, turn only the rest over |

[choice]s where the rules are silent:

* Packs by player count and refusals as in :mod:`sim.variants.wildcard`.
* Set makeup as Wildcard Rummy's [choice] (the Cincinnati rules say only "sets or runs"): a
  meld holds at least one natural card, a set at most one card per suit with one pack (4
  cards) and at most two per suit with two packs (8 cards), jokers standing for the missing
  ones.
* The meld value of going out (``go_out`` in :mod:`sim.wild.wild_melds`): the whole hand when it
  all melds without a discard, else the hand less the cheapest legal discard leaving every
  other card melded.  Whether to go out is the strategy's choice (``min_out`` by own-turn
  bucket, ``wait_until_turn``); a seat that declines discards as usual.
* Restock and the two-pack "card just taken" as in :mod:`sim.wild.closed_wild`; ``turn_limit``
  (1000 turns) is a void hand.  There is no whole game in the seed.

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``score{s}`` the winner's meld value (others
0); ``deadwood{s}`` every seat's exact minimum deadwood at the end (0 for the winner);
``winner`` (-1 on a void hand), ``points`` the winner's score, ``out_turn`` its own turn.

Strategies (family ``wild``): ``simple`` goes out as soon as it can, takes the pile top when it
melds, discards the card leaving the least deadwood.  ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) = simple + ``keep_near=1`` +
never discards a joker: seat 0 against ``simple`` opponents, minus seat 0 playing ``simple``,
on the same deals (points per hand of seat 0 against the others' mean): +0.81 +- 0.22 with 2
players, +0.48 +- 0.14 with 4 (95% CI, 30,000 paired hands each, seed 202; picked on seed
101, where waiting for richer melds lost: min_out=40 -0.49 +- 0.07 at 4 players).  The go-out
sweep varies ``min_out`` (Knob ``compare="ge"``: a seat goes out when its meld value is at or
above the threshold).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..wild import closed_wild as CW
from . import Knob
from .wild_games import GO_OUT_COLUMNS, go_out_variant

OUTCOMES = ("out", "out_no_discard", "turn_limit")
O_OUT, O_OUT_NO_DISCARD, O_TURN_LIMIT = range(len(OUTCOMES))
EXTRA_COLUMNS = GO_OUT_COLUMNS


@dataclass(frozen=True)
class CincinnatiRules(CW.GoOutRules):
    VERSION = 2  # 2: restock turns the whole pile over (issue 18); restock_keep_top keeps the old reading


VARIANT = go_out_variant(
    "cincinnati", CincinnatiRules, CW.GAME_CINCINNATI, OUTCOMES,
    "Cincinnati Rummy: 2-7 players, one or two joker packs, jokers wild; out only with "
    "every card melded; the winner scores the value of its own melds.",
    knob=Knob("min_out", "min_out_mid", "min_out_late", "mid_from", "late_from", same=-1,
              default_range=(0, 80), action="go out", compare="ge"),
    balance_scale=0.25,   # hand-strong beats simple: the docstring above
)
