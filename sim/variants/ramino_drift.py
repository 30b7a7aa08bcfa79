"""Ramino Drift / Remigio, 2-4 players, up to 7 allowed (rules: ``rules/ramino.md``, second
part; source: seed 000, "Ramino (Drift) / Remigio").

One 54-card joker pack (2 jokers); 7 cards each, dealt one at a time from the dealer's left;
the upcard starts the pile.  A turn: draw the stock top or the pile top; then lay down melds
and lay off cards onto the melds on the table (anyone's), as many as one likes; then discard
one card, never the card just taken from the pile.  Melds of 3+ cards: runs in one suit or
sets of one rank (distinct suits: one pack), aces low (A-2-3, never Q-K-A); jokers wild.  A
melded (or laid-off) joker may be swapped for the natural card it stands for, from the hand
of the player to move, who must use that joker again in the same turn (in a new meld or a
lay-off).  Lay-offs of single cards onto **runs** (own or others') are allowed only once the
player has melded at least once in the hand; lay-offs onto sets are free.  The first player
out scores 0, every other player scores its own hand as penalty points (A 1, 2-10 face, J Q K
10, joker 20).  Whole games: a player reaching 101 penalty points is out; the others play on
until one remains.

| option                      | default | meaning |
|-----------------------------|---------|---------|
| players                     | 4       | 2-7 players, 7 cards each |
| layoff_needs_meld           | runs    | which lay-offs need an own meld earlier in the hand: runs (seed), all, none |
| joker_swap                  | reuse   | swap a melded joker for its natural card: reuse (the joker must be used again this turn; seed), keep (it may stay in hand), off |
| last_card_must_be_discarded | off     | going out needs a final discard (off: emptying the hand by melds and lay-offs is out too) |
| restock_shuffle             | off     | shuffle the turned-over discard pile into the new stock |
| penalty_limit               | 101     | whole games: a player reaching this many penalty points is out |

Where the seed and ``rules/ramino.md`` differ (the seed wins):

* Players: the seed's header says 2-4, its text "2 of meer" (2 or more, the sentence is cut
  off); rules/ says "2-4 (the seed also allows more)".  **[choice]** 2-7: with 8 players the
  pack (54) cannot deal 7 each plus the upcard.
* Lay-offs: the seed ("Zodra je uit bent gekomen mag je ook losse kaarten aan sequenties ...
  aanleggen") limits single cards onto *sequences* (runs) only; rules/ says the same
  ("single cards onto sequences"), and its turn text "meld and lay off as many cards as you
  like" leaves lay-offs onto sets free; so does this module (``layoff_needs_meld=runs``).
* Joker swap: the seed lets a player swap "uit- of aangelegde jokers" (melded *or laid-off*
  jokers) when holding a card the joker "kan voorstellen" (can stand for) and says the joker
  must be used again "onmiddellijk" (at once); rules/ says "a melded joker" and "in the same
  turn".  Here: any joker on the table, used again before the turn's discard.

Other **[choice]**s where both are silent:

* "Melded once" counts a meld laid down earlier in the same turn: after a first meld the
  player may lay off onto runs in that turn.  The restriction covers every card laid off
  onto a run, joker swaps are free (:mod:`sim.open.open_plan`).
* A swapped joker is "used again" when the turn puts down at least as many jokers as it took
  back (:mod:`sim.open.open_plan`).
* Every meld holds at least one natural card; a set joker stands for a suit missing from the
  set (a set is at most 4 cards), a run joker for one position; a swap needs the exact card
  (a set joker: any suit missing from the set's natural cards).
* Going out: the hand empties, by a final discard or (``last_card_must_be_discarded=off``) by
  melds and lay-offs alone; the hand ends at once.  The final discard is never the card just
  taken from the pile; a joker taken by a swap cannot be the discard (it must be used).
* Restock: when the stock is empty, the whole discard pile is turned over as the new stock
  (the first discard on top; the seed: "keer je de Aflegstapel om"), any number of times;
  ``restock_shuffle`` shuffles every discard but the top one instead (:mod:`sim.open.open_rummy`).
  A hand nobody can go out of (stock and pile empty, or ``MAX_TURNS`` turns) is ``void``: no
  score, redealt by the same dealer in a whole game.
* ``winner`` of a hand: the seat that went out (-1 on a void hand).  The first dealer of a
  game is seat ``g % n``; the deal passes to the next seat still in play.
* Whole games (``rules/ramino.md`` records it as a **[choice]**, as for Ramino Klop): if every
  player left reaches ``penalty_limit`` in the same hand, the one with the fewest penalty
  points stays in and wins (a tie: the lowest seat; :mod:`sim.core.games`).  In Drift it cannot
  arise: every scoring hand has a player out, who scores 0.

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; outcomes ``out`` and ``void``; ``score{s}`` =
minus seat s's penalty (0 for the seat out and on a void hand); ``deadwood{s}`` the value of
the cards left in seat s's hand; ``winner`` the seat out (-1 on a void hand), ``out_turn``
its own turn number, ``restocks`` the times the pile was turned over.

Engine: :mod:`sim.open.open_rummy` (``cfg``: penalty settlement, no rummy bonus, take free,
restocks unlimited, a hand nobody goes out of void) with the planner's ``drift`` meld rules
(:func:`sim.open.open_plan.meld_rules`).  Strategies: family ``open``
(:mod:`sim.strategies.open_play`): ``random``, ``simple`` (melds and lays off as soon as
possible, takes the discard when it plays at once), ``rummy`` and ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) = simple +
``discard_rule=2`` (fewest partners first) + ``keep_jokers=1``.  Seat 0 playing it against
``simple``, minus seat 0 playing ``simple``, on the same deals (penalty points per hand of
seat 0 against the others' mean, higher is better): picked on seed 101 at 4 players
(+0.031 [+0.009, +0.054]; ``discard_rule=2`` alone -0.012 [-0.040, +0.016], ``take=2``
-3.53 [-3.76, -3.31]; 20,000 paired hands each), evaluated on seed 202: +0.046 [+0.006,
+0.086] with 2 players, -0.005 [-0.028, +0.018] with 4 (95% CIs, 20,000 paired hands each):
a small edge heads-up, none measurable at four.

Meld early vs hold (seed 303, 10,000 paired hands per arm, seat 0's penalty points per hand
against the others' mean, minus ``simple``'s, which melds as soon as possible; 95% CIs):
holding everything until going out (``meld=1``) -18.8 [-19.4, -18.3] with 2 players, -19.2
[-19.7, -18.8] with 4; melding only 3+ cards at a time (``meld=3``) -1.33 [-1.46, -1.19]
and -1.20 [-1.32, -1.09]; holding for the first 3 own turns (``meld=1, meld_from=4``) -2.64
[-2.97, -2.32] and -8.95 [-9.35, -8.56].  In Drift, meld at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import games
from ..open import open_plan as OP
from ..open import open_rummy as OR
from ..core.cards import value_table
from ..open.open_rummy_setup import tables
from ..core.rules import RulesBase, option
from . import WholeGame
from .open_games import elimination_cfg, elimination_variant

OUTCOMES = ("out", "void")
O_OUT, O_VOID = range(len(OUTCOMES))
EXTRA_COLUMNS = ("winner", "out_turn", "restocks")
MIN_PLAYERS, MAX_PLAYERS = 2, 7
HAND_SIZE, N_JOKERS, JOKER_POINTS = 7, 2, 20
LAYOFF_RULES = ("runs", "all", "none")
SWAP_RULES = ("reuse", "keep", "off")


@dataclass(frozen=True)
class RaminoDriftRules(RulesBase):
    VERSION = 1
    players: int = option(4, "number of players, 7 cards each (the seed: 2-4, more allowed)", MIN_PLAYERS, MAX_PLAYERS)
    layoff_needs_meld: str = option("runs", "which lay-offs need an own meld earlier in the hand",
                                    choices=LAYOFF_RULES)
    joker_swap: str = option("reuse", "swap a melded joker for the natural card it stands for: reuse (the joker "
                             "must be used again this turn), keep (it may stay in hand), off", choices=SWAP_RULES)
    last_card_must_be_discarded: bool = option(False, "going out needs a final discard")
    restock_shuffle: bool = option(False, "shuffle the turned-over discard pile into the new stock")
    penalty_limit: int = option(101, "game: a player reaching this many penalty points is out", 1, 100000)


def meld_rules(rules_arr) -> np.ndarray:
    """The planner's meld rules of these rules."""
    mr = OP.meld_rules("drift")
    mr[OP.MR_LAYOFF] = (OP.LAYOFF_RUN_OWN_MELD, OP.LAYOFF_OWN_MELD, OP.LAYOFF_FREE)[
        int(RaminoDriftRules.value(rules_arr, "layoff_needs_meld"))]
    mr[OP.MR_SWAP] = (OP.SWAP_REUSE, OP.SWAP_FREE, OP.SWAP_NONE)[int(RaminoDriftRules.value(rules_arr, "joker_swap"))]
    mr[OP.MR_LAST_DISCARD] = int(RaminoDriftRules.value(rules_arr, "last_card_must_be_discarded"))
    return mr


def setup(rules_arr):
    n = RaminoDriftRules.checked_players(rules_arr, MIN_PLAYERS, MAX_PLAYERS, "ramino-drift")
    cfg = elimination_cfg(
        (O_OUT, O_OUT, O_VOID, O_VOID), {"winner": 0, "out_turn": 1, "restocks": 2},
        players=n, hand=HAND_SIZE, take_rule=OR.TAKE_FREE, joker_last_only=0,
        restock_shuffle=bool(RaminoDriftRules.value(rules_arr, "restock_shuffle")), rummy=OR.RUMMY_NONE,
        ace_high=0)
    mr = meld_rules(rules_arr)
    return cfg, tables(("drift", tuple(mr.tolist())), 1, N_JOKERS, value_table(joker=JOKER_POINTS), [mr])


GAME = WholeGame(kind="elimination", limit_rule="penalty_limit", winner_column="winner", void_outcome=O_VOID,
                 sweep_games=2_000, notes=(games.all_out_note(101, never=True),))

VARIANT = elimination_variant(
    "ramino-drift", RaminoDriftRules, setup, EXTRA_COLUMNS, GAME, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    outcomes=OUTCOMES, balance_scale=0.1,
    doc="Ramino Drift / Remigio: 2-7 players, one joker pack, 7 cards; meld and lay off freely (runs after an "
        "own meld), jokers wild, joker swaps reused at once; the first out scores 0, the others their hands "
        "(A 1, joker 20); out at 101.",
    meld_setup=lambda rules: OP.MeldSetup("drift", meld_rules(rules.to_array()), value_table(joker=JOKER_POINTS),
                                          HAND_SIZE + 1))
