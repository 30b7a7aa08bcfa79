"""The Tonk strategy family (variant ``tonk``).

Parameters (kernel column = 1 + position in ``PARAMS``; the decisions themselves are the
small njit functions in :mod:`sim.variants.tonk`):

* dropping (knocking) at the start of a turn, before drawing: drop when the own count is
  ``<= max_count + per_opp * (players - 2)``, from own turn ``min_turn`` on, and only if every
  opponent still holds at least ``min_opp_cards`` cards (few cards in hand usually mean a low
  count).  ``max_count = -1`` never drops.
* ``spread_eagerness``: probability of laying down the spreads one holds on a turn (1: always,
  the classic baseline; 0: hold them to tonk out, laying down only when that ends the hand
  this turn, by tonk out or by discarding the last card).  ``must_spread`` overrides it.
* ``hit``: 1 hit whenever possible; 0 hit only when that ends the hand this turn.  (A holder
  that hits may hit a card of a spread it holds: hits always take every card they can.)
* the draw: take the top discard when it makes a spread with the hand or (with ``hit=1``)
  can be hit onto a spread on the table; with ``upcard_take=1`` also when, after the
  strategy's discard, the count drops by at least ``take_gain``.  On an empty stock, not
  taking the discard ends the hand (stock out).
* ``discard_rule``: 0 the highest card; 1 the highest card that is not in a near-meld (a pair,
  or a same-suit card within two ranks), falling back to the highest.  Cards of a spread held
  in hand are never discarded while another card can go.  Ties between J, Q and K: the king
  first, then the queen; between suits: spades, hearts, diamonds, clubs.

Presets: ``simple`` (never drops, spreads and hits whenever it can, takes the discard only to
spread or hit it, discards the highest card), ``drop`` (simple + ``max_count=5``),
``hold`` (simple but holds spreads to tonk out), ``careful`` (simple + near-meld discards and
count-lowering takes).  Any preset or the family name takes overrides:
``drop(max_count=8,min_turn=2)``, ``tonk(spread_eagerness=0.5)``.
"""

from . import Param, StrategyFamily, register

FAMILY_CODE = 2

PARAMS = (
    Param("max_count", -1, -1, 50, "drop (knock) at the start of a turn when own count <= this; -1 never", True),
    Param("min_turn", 1, 1, 100, "drop only from this own turn number on (1 = the first turn)", True),
    Param("min_opp_cards", 0, 0, 5, "drop only if every opponent holds at least this many cards", True),
    Param("per_opp", 0, -10, 10, "added to max_count per opponent beyond the first"),
    Param("spread_eagerness", 1, 0, 1, "probability of laying down held spreads on a turn (0: only to go out)"),
    Param("hit", 1, 0, 1, "1: hit whenever possible; 0: only when it ends the hand", True),
    Param("upcard_take", 0, 0, 1, "0: take the top discard only to spread/hit it; 1: also if the count drops by >= take_gain", True),
    Param("take_gain", 5, 1, 50, "count drop that makes upcard_take=1 take the top discard", True),
    Param("discard_rule", 0, 0, 1, "0: discard the highest card; 1: highest card outside near-melds", True),
    Param("max_count_mid", -2, -2, 50, "max_count from own turn mid_from on (-2: same as max_count, -1: never)", True),
    Param("max_count_late", -2, -2, 50, "max_count from own turn late_from on (-2: same as max_count, -1: never)", True),
    Param("mid_from", -1, -1, 99, "own turn where the mid bucket starts; -1 none", True),
    Param("late_from", -1, -1, 99, "own turn where the late bucket starts; -1 none", True),
)

(P_MAX_COUNT, P_MIN_TURN, P_MIN_OPP_CARDS, P_PER_OPP, P_SPREAD_EAGERNESS, P_HIT,
 P_UPCARD_TAKE, P_TAKE_GAIN, P_DISCARD_RULE, P_MAX_COUNT_MID, P_MAX_COUNT_LATE, P_MID_FROM,
 P_LATE_FROM) = range(1, len(PARAMS) + 1)

FAMILY = register(StrategyFamily(
    name="tonk",
    code=FAMILY_CODE,
    variants=("tonk",),
    params=PARAMS,
    doc="Tonk heuristics: drop threshold by count/turn/opponents, spread and hit eagerness, "
        "discard-take rule, discard rule.",
    presets={
        "simple": {},
        "drop": {"max_count": 5},
        "hold": {"spread_eagerness": 0},
        "careful": {"discard_rule": 1, "upcard_take": 1},
    },
))
