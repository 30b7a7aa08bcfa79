"""Wrotham Rummy, 2-6 players (rules: ``rules/basic_rummy.md``, "Wrotham Rummy"; source:
seed 002).

A 55-card pack: 52 and 3 jokers, wild in any meld.  Seven cards each; the starting player
(left of the dealer) gets eight and does not draw on its first turn (it melds and discards, or
just discards).  Basic Rummy's turn (:mod:`sim.variants.basic_rummy`): draw, meld sets of 3-4
and runs of 3+, lay off onto any meld, discard (never the card just taken from the pile); a
player holding the natural card a melded joker stands for may swap it for the joker on its
turn.  Deals 1-3: meld and lay off as usual.  **Deals 4-6**: nobody melds until all seven
cards can go down at once: the only legal play is the whole hand, going out (with or without
a final discard; the meld rules' ``all_at_once``).  A game is six deals; the best total wins.
The one out scores the count of every other hand (A 1, 2-10 face, J Q K 10, joker 25
[choice: the seed gives no value]); going out in one turn with nothing melded or laid off
before is rummy (``rummy_bonus``, Basic Rummy's default: double; so every out of deals 4-6
is a rummy).

| option        | default   | meaning |
|---------------|-----------|---------|
| players       | 4         | 2-6 [choice: as Basic Rummy] |
| deal          | 0         | the deal a hand row plays: 1-6, or 0 to cycle (hand h plays deal h % 6 + 1) |
| num_deals     | 6         | whole games: deals in a game (1-6: a shortened game plays the first ones) |
| rummy_bonus   | double    | as Basic Rummy |
| restock       | turn_over | as Basic Rummy |
| max_restocks  | 2         | as Basic Rummy |

[choice]s the seed leaves open: Basic Rummy's defaults for the restock, the no-one-out
settlement (lowest count scores the differences) and rummy; a hand reaching ``MAX_TURNS``
is ``turn_limit`` (void, redealt: the deal number does not advance).  Whole games pass the
deal number (1 + the scoring hands before) to every hand.

Hand row: as Basic Rummy, plus ``deal`` (the deal number played).  Strategies: family
``open`` (:mod:`sim.strategies.open_play`): ``random``, ``simple``, ``rummy``, ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) =
simple + ``meld=1, meld_from=4, discard_rule=2, keep_jokers=1`` (Basic Rummy's strong, and
never discards a joker while another card may go: ``simple`` throws the 25-point joker
away first).  Against ``simple`` opponents, minus seat 0 playing simple, same deals (hand
rows cycling through the six deals; points per hand of seat 0 minus the others' mean, 95%
CI): +18.9 +- 0.6 with 2 players, +37.1 +- 1.1 with 4 (30,000 paired hands, seed 202;
picked on seed 101: joker keeping alone +23.8 +- 1.6, with discard_rule=2 +31.2 +- 1.8).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..open import open_plan as OP
from ..open import open_rummy as OR
from ..core.cards import value_table
from ..open.open_rummy_setup import tables
from ..core.rules import RulesBase, option
from . import WholeGame
from .open_games import open_variant
from .basic_rummy import KNOB, O_OUT, O_RUMMY, O_STOCK_OUT, O_TURN_LIMIT, OUTCOMES, RESTOCKS

EXTRA_COLUMNS = ("winner", "points", "out_turn", "restocks", "deal")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
HAND_SIZE, STARTER_EXTRA, N_JOKERS, JOKER_VALUE = 7, 1, 3, 25
DEALS, LATE_FROM = 6, 4


@dataclass(frozen=True)
class WrothamRules(RulesBase):
    VERSION = 1
    players: int = option(4, "number of players: 7 cards each, the starting player 8", MIN_PLAYERS, MAX_PLAYERS)
    deal: int = option(0, "hand rows: the deal played, 1-6 (4-6: only all seven at once), 0 cycles", 0, DEALS)
    num_deals: int = option(DEALS, "whole games: deals in a game", 1, DEALS)
    rummy_bonus: str = option("double", "going rummy doubles the hand's score or adds 10",
                              choices=("double", "plus10"))
    restock: str = option("turn_over", "empty stock, discard refused: turn the pile over, shuffle it "
                                       "(all but the top card) or end the hand", choices=RESTOCKS)
    max_restocks: int = option(2, "the stock running out once more after this many restocks ends the hand",
                               0, 1000)


def largest_hand(rules) -> int:
    """The most cards a hand holds: seven and the draw (the starter's eight, no draw)."""
    return HAND_SIZE + 1


def setup(rules_arr):
    n = WrothamRules.checked_players(rules_arr, MIN_PLAYERS, MAX_PLAYERS, "wrotham")
    cfg = OR.make_cfg(
        (O_OUT, O_RUMMY, O_STOCK_OUT, O_TURN_LIMIT),
        {"winner": 0, "points": 1, "out_turn": 2, "restocks": 3, "deal": 4},
        players=n, hand=HAND_SIZE, starter_extra=STARTER_EXTRA, starter_no_draw=1, take_rule=OR.TAKE_FREE,
        taken_no_discard=1, joker_last_only=0, restock=int(WrothamRules.value(rules_arr, "restock")),
        max_restocks=int(WrothamRules.value(rules_arr, "max_restocks")), settle=OR.SETTLE_WINNER,
        rummy=OR.RUMMY_DOUBLE if int(WrothamRules.value(rules_arr, "rummy_bonus")) == 0 else OR.RUMMY_PLUS10,
        no_out=OR.NO_OUT_DIFFERENCES, deal=int(WrothamRules.value(rules_arr, "deal")), deal_cycle=DEALS, late_deal=LATE_FROM,
        ace_high=0)
    mrs = [OP.meld_rules("wrotham"), OP.meld_rules("wrotham", all_at_once=True)]
    return cfg, tables(("wrotham",), 1, N_JOKERS, value_table(joker=JOKER_VALUE), mrs)


GAME = WholeGame(kind="deals", limit_rule="num_deals", winner_column="winner", void_outcome=O_TURN_LIMIT,
                 sweep_games=2_000)

VARIANT = open_variant(
    "wrotham", WrothamRules, setup, EXTRA_COLUMNS, {"deals": GAME}, lambda r: "deals",
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, outcomes=OUTCOMES, score_unit="points",
    doc="Wrotham Rummy: 2-6 players, 52 cards + 3 jokers wild, 7 cards (the starter 8, no first draw), "
        "joker swaps; six deals, in deals 4-6 only all seven cards at once; joker 25.",
    knob=KNOB, game=GAME, no_out_outcomes=("stock_out", "turn_limit"), balance_scale=0.1,
    meld_setup=lambda rules: OP.MeldSetup("wrotham", OP.meld_rules("wrotham", all_at_once=rules.deal >= LATE_FROM),
                                          value_table(joker=JOKER_VALUE), largest_hand(rules)))
