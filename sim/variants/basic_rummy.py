"""Basic (Straight) Rummy with its house rules, and Block Rummy, 2-6 players (rules:
``rules/basic_rummy.md``; sources: seeds 001 and 002).

One 52-card pack; 10 cards each with 2 players, 7 with 3-4, 6 with 5-6, dealt one at a time
from the dealer's left; the upcard starts the pile.  A turn: draw the stock top or the pile
top; meld sets of 3-4 and runs of 3+ in suit and lay off onto any meld on the table (the
exact planner :mod:`sim.open.open_plan`); discard, never the card just taken from the pile.  The
last card leaving the hand (by meld, layoff or discard) goes out: the hand ends at once and
the one out scores the count of every other hand (A 1, 2-10 face, J Q K 10); going out in
one turn with nothing melded or laid off before is **rummy**.  Engine:
:mod:`sim.open.open_rummy`.

| option                      | default   | meaning |
|-----------------------------|-----------|---------|
| players                     | 4         | 2-6 |
| multiple_melds              | on        | off: one new meld per turn (seed 002's basic rule) |
| last_card_must_be_discarded | off       | going out needs a final discard |
| rummy_bonus                 | double    | rummy doubles the hand's score, or plus10 |
| ace_high_or_low             | off       | Q-K-A legal too, aces count 15 |
| round_the_corner            | off       | K-A-2 legal (needs ace_high_or_low) |
| layoff_requires_own_meld    | off       | no layoff before an own meld |
| restock                     | turn_over | empty stock and the discard refused: turn the pile over (no shuffle, nothing kept back), shuffle (all but the top card), or block (the hand ends) |
| max_restocks                | 2         | the stock running out once more ends the hand |
| penalty_scoring             | off       | each other player scores its own count as penalty; nobody out: everyone does (seed 002) |
| penalty_limit               | 100       | whole games with penalty_scoring: end when someone reaches it; the lowest total wins |
| target_score                | 150       | whole games: the first to reach it; the highest total wins |
| num_deals                   | 0         | whole games of this many deals instead (0: to target_score / penalty_limit) |

Block Rummy (``block-rummy``) is the same game with ``restock=block``: its own variant so the
balance study lists it.

A hand nobody goes out of (the stock ran out and could not be restocked): the lowest count
scores the sum of the differences to every other hand; tied lowest players share it equally,
each scoring the floor of its share [choice] (``winner`` -1).  With ``penalty_scoring``
every player scores its own count as penalty (seed 002).  Rummy under ``penalty_scoring``
[choice]: ``double`` doubles the others' penalties, ``plus10`` takes 10 off the penalty of
the one out (score +10).  A hand reaching ``MAX_TURNS`` (1000) is ``turn_limit``: void, no
score, redealt in a whole game.

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``: ``score{s}`` the points seat s scores (minus
its penalty with ``penalty_scoring``), ``deadwood{s}`` its count at the end, ``winner`` the
seat out (or the lowest count, -1 on a tie or a void hand), ``points`` what the winner
scored, ``out_turn`` the own turn it went out on (-1: nobody out), ``restocks`` how often
the stock was rebuilt.

Strategies: family ``open`` (:mod:`sim.strategies.open_play`), presets ``random``,
``simple`` (melds and lays off at once, takes the discard when it goes down at once, discards
the highest card outside near-melds), ``rummy`` (holds everything back for rummy) and
``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) = simple + ``meld=1, meld_from=4, discard_rule=2`` (holds back for rummy until own
turn 4, then melds at once; discards the card with the fewest partners).  Seat 0 playing it
against ``simple`` opponents, minus seat 0 playing ``simple``, on the same deals (points per
hand of seat 0 minus the others' mean; 95% CI): Basic +0.56 +- 0.16 with 2 players, +3.21 +-
0.30 with 4; Block (4 players) +3.03 +- 0.30 (50,000 paired hands each, seed 202; picked on
seed 101 among eagerness / take / discard variants: holding for rummy all hand long won at 4
players, +9.1 +- 0.6, but lost at 2, -10.7 +- 0.5; turn 4 is positive at 2, 3, 4 and 6
players; ``take=2`` lost, -3.1 +- 0.4).  The knob (``rummylab knock-sweep``): ``meld_at``,
meld as soon as possible on a turn where the count kept after the plays and the discard is
at most the threshold, holding back for going out otherwise; ``--by-turn`` gives the chart
"meld early or hold back" by own turn, per ``--players`` and ``--rule rummy_bonus=...``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..open import open_plan as OP
from ..open import open_rummy as OR
from ..core.cards import value_table
from ..open.open_rummy_setup import tables
from ..core.rules import RulesBase, RulesError, option
from . import Knob, Variant, WholeGame
from .open_games import open_variant

OUTCOMES = ("out", "rummy", "stock_out", "turn_limit")
O_OUT, O_RUMMY, O_STOCK_OUT, O_TURN_LIMIT = range(len(OUTCOMES))
EXTRA_COLUMNS = ("winner", "points", "out_turn", "restocks")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEAL = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
RESTOCKS = ("turn_over", "shuffle", "block")


@dataclass(frozen=True)
class BasicRummyRules(RulesBase):
    VERSION = 1
    players: int = option(4, "number of players: 10 cards each with 2, 7 with 3-4, 6 with 5-6",
                          MIN_PLAYERS, MAX_PLAYERS)
    multiple_melds: bool = option(True, "any number of new melds per turn (off: one)")
    last_card_must_be_discarded: bool = option(False, "going out needs a final discard")
    rummy_bonus: str = option("double", "going rummy doubles the hand's score or adds 10",
                              choices=("double", "plus10"))
    ace_high_or_low: bool = option(False, "Q-K-A legal too; aces count 15")
    round_the_corner: bool = option(False, "K-A-2 legal (needs ace_high_or_low)")
    layoff_requires_own_meld: bool = option(False, "no layoff before an own meld")
    restock: str = option("turn_over", "empty stock, discard refused: turn the pile over, shuffle it "
                                       "(all but the top card) or end the hand", choices=RESTOCKS)
    max_restocks: int = option(2, "the stock running out once more after this many restocks ends the hand",
                               0, 1000)
    penalty_scoring: bool = option(False, "each other player scores its own count as penalty")
    penalty_limit: int = option(100, "whole games with penalty_scoring: end at this total; the lowest wins",
                                1, 100000)
    target_score: int = option(150, "whole games: the first to reach this; the highest total wins", 1, 100000)
    num_deals: int = option(0, "whole games of this many deals (0: to target_score or penalty_limit)", 0, 1000)

    def validate(self) -> None:
        super().validate()
        if self.round_the_corner and not self.ace_high_or_low:
            raise RulesError("round_the_corner needs ace_high_or_low=on (K-A-2 only where aces are high or low)")


@dataclass(frozen=True)
class BlockRummyRules(BasicRummyRules):
    restock: str = option("block", "empty stock, discard refused: end the hand (Block Rummy), or turn the "
                                   "pile over / shuffle it", choices=RESTOCKS)


def largest_hand(rules) -> int:
    """The most cards a hand holds (after the draw): the deal by player count plus one."""
    return DEAL[rules.players] + 1


def _rules(cls, rules_arr) -> dict:
    r = np.asarray(rules_arr, dtype=np.float64)
    return {f.name: r[cls.index(f.name)] for f in cls.options()}


def meld_rules(cls, rules_arr) -> np.ndarray:
    g = _rules(cls, rules_arr)
    return OP.meld_rules("basic", multiple_melds=bool(g["multiple_melds"]),
                         last_card_must_be_discarded=bool(g["last_card_must_be_discarded"]),
                         ace_high_or_low=bool(g["ace_high_or_low"]), round_the_corner=bool(g["round_the_corner"]),
                         layoff_requires_own_meld=bool(g["layoff_requires_own_meld"]))


def setup_for(cls, name: str):
    """``setup(rules_arr) -> (cfg, tabs)`` of Basic Rummy under the rules class ``cls``."""
    def setup(rules_arr):
        g = _rules(cls, rules_arr)
        n = int(g["players"])
        if n not in DEAL:
            raise ValueError(f"{name}: players={n}")
        penalty = bool(g["penalty_scoring"])
        cfg = OR.make_cfg(
            (O_OUT, O_RUMMY, O_STOCK_OUT, O_TURN_LIMIT),
            {"winner": 0, "points": 1, "out_turn": 2, "restocks": 3},
            players=n, hand=DEAL[n], starter_extra=0, starter_no_draw=0, take_rule=OR.TAKE_FREE,
            taken_no_discard=1, joker_last_only=0, restock=int(g["restock"]), max_restocks=int(g["max_restocks"]),
            settle=OR.SETTLE_PENALTY if penalty else OR.SETTLE_WINNER,
            rummy=OR.RUMMY_DOUBLE if int(g["rummy_bonus"]) == 0 else OR.RUMMY_PLUS10,
            no_out=OR.NO_OUT_PENALTY if penalty else OR.NO_OUT_DIFFERENCES,
            deal=1, deal_cycle=0, late_deal=0, ace_high=int(g["ace_high_or_low"]))
        ace = 15 if g["ace_high_or_low"] else 1
        mr = meld_rules(cls, rules_arr)
        return cfg, tables(("basic", tuple(mr.tolist()), ace), 1, 0, value_table(ace=ace), [mr])
    return setup


SHAPES = {"target": WholeGame(kind="target", limit_rule="target_score", winner_column="winner",
                              void_outcome=O_TURN_LIMIT, sweep_games=2_000),
          "deals": WholeGame(kind="deals", limit_rule="num_deals", winner_column="winner",
                             void_outcome=O_TURN_LIMIT),
          "penalty": WholeGame(kind="penalty", limit_rule="penalty_limit", winner_column="winner",
                               void_outcome=O_TURN_LIMIT)}


def pick_shape(cls):
    def pick(rules_arr) -> str:
        g = _rules(cls, rules_arr)
        if g["num_deals"] > 0:
            return "deals"
        return "penalty" if g["penalty_scoring"] else "target"
    return pick


KNOB = Knob("meld_at", "meld_at_mid", "meld_at_late", "mid_from", "late_from", same=-1,
            default_range=(0, 30), action="meld", bucket_kinds=("turn",),
            at_zero="hold back for rummy; meld only to go out")


def variant(name: str, cls, doc: str) -> Variant:
    setup = setup_for(cls, name)
    return open_variant(
        name, cls, setup, EXTRA_COLUMNS, SHAPES, pick_shape(cls),
        min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, outcomes=OUTCOMES, score_unit="points", doc=doc,
        knob=KNOB, game=SHAPES["target"], no_out_outcomes=("stock_out", "turn_limit"), balance_scale=0.2,
        meld_setup=lambda rules: OP.MeldSetup("basic", meld_rules(cls, rules.to_array()),
                                              value_table(ace=15 if rules.ace_high_or_low else 1), largest_hand(rules)))


VARIANT = variant(
    "basic-rummy", BasicRummyRules,
    "Basic (Straight) Rummy: 2-6 players, one pack, 10/7/6 cards; meld and lay off on the table, go out "
    "(rummy doubles); the one out scores the others' counts; games to 150; every house rule as an option.")
BLOCK_VARIANT = variant(
    "block-rummy", BlockRummyRules,
    "Block Rummy: Basic Rummy where the stock is never rebuilt; an empty stock and a refused discard "
    "end the hand, the lowest count scoring the differences.")
