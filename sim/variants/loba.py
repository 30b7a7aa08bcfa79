"""Loba / Rami, 2-5 players (rules: ``rules/loba.md``; source: seed 000, "Loba / Rami").

Two 54-card joker packs (108 cards, 4 jokers); 9 cards each, dealt one at a time from the
dealer's left; the upcard starts the pile.  A turn: draw the stock top, or take the pile top
only to use it at once in a new meld laid down from the hand together with cards of the hand;
then lay down melds and lay off onto any meld on the table, as many as one likes; then
discard.  Melds: **piernas** (legs) of 3-6 cards of one rank in exactly three suits (two
packs: a suit may appear twice), no jokers; **escaleras** (ladders) of 4+ consecutive cards of
one suit, ace low (A-2-3-4) or high (J-Q-K-A) but not both, at most two jokers.  Jokers are
never exchanged for natural cards, but a joker on the table may be moved to the start or end
of its escalera (never below an ace or above a king).  A joker may not be discarded except as
the discard that ends the hand.  Going out ends the hand: the others score the cards in their
hands as penalty points (A, J, Q, K 10, 2-10 face, joker ``joker_penalty``); a player going
out by laying down the whole hand at once subtracts 10 from its total.  Whole games: at 100
penalty points a player is out, but may buy back in at the total of the player still in with
the most points, at most twice a game; play goes on until one player remains.

| option                      | default | meaning |
|-----------------------------|---------|---------|
| players                     | 4       | 2-5 players, 9 cards each |
| joker_penalty               | 25      | penalty points of a joker left in hand |
| last_card_must_be_discarded | off     | going out needs a final discard |
| restock_shuffle             | off     | shuffle the turned-over discard pile into the new stock |
| penalty_limit               | 100     | whole games: a player reaching this many penalty points is out |
| buybacks                    | 2       | whole games: buy-backs per player per game |

Where the seed and ``rules/loba.md`` differ (the seed wins):

* Jokers' penalty: the seed gives none ("azen en hofkaarten tellen voor 10 en overige kaarten
  op getalwaarde"); rules/ makes it ``joker_penalty`` 25 **[choice]**; kept.
* The 10-point bonus: the seed says a player "mag" (may) take 10 off "reeds behaalde
  strafpunten in vorige rondes" (the penalty points of earlier hands); rules/ "subtracts 10
  from their total".  Always taken here (it never hurts); **[choice]** a total may go below 0
  (the engine's ``rummy=plus10`` with penalty scoring: the seat out scores +10).
* Piernas with duplicates: rules/ spells out that two copies of a card may sit in one pierna
  as long as exactly three suits appear; the seed implies it (3-6 cards, exactly three suits).
* Buy-back: the seed says the player "staat dan weer gelijk aan de speler met het meeste
  strafpunten" (equal to the player with the most points), rules/ "the remaining player with
  the most penalty points": the highest total of the seats still under 100.  Buying back is
  the player's decision (strategy ``buyback``: buy back when that total is below it).

Other **[choice]**s where both are silent:

* "All at once": the seat goes out in one turn with nothing of its own on the table before
  that turn (a final discard allowed).
* The pile top may be taken only when some legal new meld from the hand uses it; the planner
  then lays such a meld down.  The card taken can never be discarded (it is melded).
* A seat whose hand holds nothing but jokers it cannot play discards a joker without ending
  the hand (the seed does not foresee it; :mod:`sim.open.open_rummy`'s guard).
* Going out: the hand empties, by a final discard or (``last_card_must_be_discarded=off``) by
  melds and lay-offs alone.  Restock (the seed says nothing): as Ramino Drift's, the whole
  pile turned over, no limit.  A hand nobody can go out of (stock and pile empty, or
  ``MAX_TURNS`` reached) is ``void``: no score, redealt by the same dealer in a whole game.
* Seats that reach 100 in the same hand all buy back at the highest total still under 100
  (before any of them re-enters); when every seat left reaches 100 in one hand, the lowest
  total stays in and wins (:mod:`sim.core.games`).

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; outcomes ``out``, ``at_once`` (out with the
whole hand in one turn) and ``void``; ``score{s}`` = minus seat s's penalty (the seat out: 0,
or +10 when it went out all at once); ``deadwood{s}`` the value of the cards left in hand;
``winner`` the seat out (-1 on a void hand), ``out_turn`` its own turn, ``at_once`` 1 when it
went out all at once, ``restocks`` the times the pile was turned over.

Engine: :mod:`sim.open.open_rummy` (``cfg``: take only to meld at once, jokers discarded only to
go out, penalty settlement with ``rummy=plus10``, restocks unlimited, a hand nobody goes out
of void) with the planner's ``loba`` meld rules (:func:`sim.open.open_plan.meld_rules`).
Strategies: family ``open`` (:mod:`sim.strategies.open_play`); its ``buyback`` parameter is
the buy-back decision (``WholeGame.buyback_param``; the value of a buy-back by re-entry
score: :mod:`analysis.studies.buyback`).  ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) = simple + ``discard_rule=0`` (the
highest card first).  Seat 0 playing it against ``simple``, minus seat 0 playing ``simple``,
on the same deals (penalty points per hand against the others' mean): picked on seed 101 at
4 players (+0.41 [-0.02, +0.83], 5,000 paired hands; ``discard_rule=2`` -0.62 [-0.79,
-0.45], ``meld=3`` -5.17 [-5.57, -4.77], ``layoff=0`` -8.63 [-9.13, -8.13]; ``take=2`` and
``keep_jokers=1`` change nothing here: the rules already limit the take and joker
discards), evaluated on seed 202 (8,000 paired hands, 95% CIs): +0.76 [+0.42, +1.10] with 4
players, but -0.54 [-1.03, -0.06] with 2: stronger only at the larger table.

Meld early vs hold (seed 303, 4,000 paired hands per arm, as Drift's; 95% CIs): ``meld=1``
(hold until going out all at once, for the -10) -6.5 [-7.3, -5.7] with 2 players, -11.6
[-12.3, -10.8] with 4; ``meld=3`` -4.3 [-4.9, -3.7] and -5.0 [-5.5, -4.5]; holding for the
first 3 own turns -0.26 [-0.74, +0.22] and -1.36 [-1.83, -0.89].  The -10 does not pay for
holding back.  Buy-backs (:func:`analysis.studies.buyback.buyback_value`, 4 players, simple,
seed 12, 6,000 paired whole games per arm): seat 0 wins 4.1% [3.6, 4.6] of games never
buying back and 24.2% [23.1, 25.3] always; per buy-back taken, the win probability bought is
10.9% [2.4, 19.4] at re-entry totals below 25, 6.5% [3.6, 9.5] at 25-49, 8.1% [6.5, 9.7] at
50-74 and 20.3% [19.2, 21.3] at 75-99 (re-entering level with players themselves near 100).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..open import open_plan as OP
from ..open import open_rummy as OR
from ..core.cards import value_table
from ..open.open_rummy_setup import tables
from ..core.rules import RulesBase, option
from . import WholeGame
from .open_games import elimination_cfg, elimination_variant

OUTCOMES = ("out", "at_once", "void")
O_OUT, O_AT_ONCE, O_VOID = range(len(OUTCOMES))
EXTRA_COLUMNS = ("winner", "out_turn", "at_once", "restocks")
MIN_PLAYERS, MAX_PLAYERS = 2, 5
HAND_SIZE, N_PACKS, N_JOKERS = 9, 2, 4


@dataclass(frozen=True)
class LobaRules(RulesBase):
    VERSION = 2  # 2: a joker never stands above the king (issue 18)
    players: int = option(4, "number of players, 9 cards each", MIN_PLAYERS, MAX_PLAYERS)
    joker_penalty: int = option(25, "penalty points of a joker left in hand", 0, 1000)
    last_card_must_be_discarded: bool = option(False, "going out needs a final discard")
    restock_shuffle: bool = option(False, "shuffle the turned-over discard pile into the new stock")
    penalty_limit: int = option(100, "game: a player reaching this many penalty points is out", 1, 100000)
    buybacks: int = option(2, "game: buy-backs per player (re-entering at the highest total still in)", 0, 10)


def meld_rules(rules_arr) -> np.ndarray:
    """The planner's meld rules of these rules."""
    mr = OP.meld_rules("loba")
    mr[OP.MR_LAST_DISCARD] = int(LobaRules.value(rules_arr, "last_card_must_be_discarded"))
    return mr


def setup(rules_arr):
    n = LobaRules.checked_players(rules_arr, MIN_PLAYERS, MAX_PLAYERS, "loba")
    cfg = elimination_cfg(
        (O_OUT, O_AT_ONCE, O_VOID, O_VOID), {"winner": 0, "out_turn": 1, "rummy": 2, "restocks": 3},
        players=n, hand=HAND_SIZE, take_rule=OR.TAKE_TO_MELD, joker_last_only=1,
        restock_shuffle=bool(LobaRules.value(rules_arr, "restock_shuffle")), rummy=OR.RUMMY_PLUS10, ace_high=1)
    mr = meld_rules(rules_arr)
    jp = int(LobaRules.value(rules_arr, "joker_penalty"))
    return cfg, tables(("loba", tuple(mr.tolist()), jp), N_PACKS, N_JOKERS, value_table(ace=10, joker=jp), [mr])


GAME = WholeGame(kind="elimination", limit_rule="penalty_limit", winner_column="winner", void_outcome=O_VOID,
                 buyback_rule="buybacks", buyback_param="buyback", sweep_games=2_000)

VARIANT = elimination_variant(
    "loba", LobaRules, setup, EXTRA_COLUMNS, GAME, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    outcomes=OUTCOMES, balance_scale=0.05,
    doc="Loba / Rami: 2-5 players, 108 cards, 9 each; take the discard only to meld it at once; piernas "
        "(3-6 of a rank in exactly three suits) and escaleras (4+, at most two jokers); -10 for going out "
        "at once; out at 100 with two buy-backs.",
    meld_setup=lambda rules: OP.MeldSetup("loba", meld_rules(rules.to_array()),
                                          value_table(ace=10, joker=rules.joker_penalty), HAND_SIZE + 1))
