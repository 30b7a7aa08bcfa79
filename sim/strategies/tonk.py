"""The Tonk strategy family (variant ``tonk``).

The rules kernel :mod:`sim.variants.tonk` asks the decisions of the small njit functions at
the end of this module, passing the seat's strategy row ``srow`` float64[PARAM_WIDTH]:
:func:`wants_drop`, :func:`wants_take`, :func:`spread_now`, :func:`hit_now` and
:func:`choose_discard` (with :func:`near_meld_cards`); which spreads and hits are made is
the open-table planner :func:`sim.knock.table_plan.plan_play`, told what the strategy allows.

Parameters (kernel column = 1 + position in ``PARAMS``):

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

``search_worlds`` > 0 (the ``search`` preset: ``strong`` with :data:`sim.strategies.SEARCH_WORLDS`):
the seat decides by simulation (:mod:`sim.search`, :mod:`sim.variants.tonk_search`) the decisions
``search_what`` names (default 3: the discard, among the ``search_top`` first of the heuristic's
order, and the drop), leaving its heuristic's choice only for a candidate better by ``search_z``
standard errors over the worlds; the other parameters are the heuristic of its rollouts.

``random_play=1`` (the ``random`` preset): every choice uniform at random among the legal ones
(:mod:`sim.strategies.random_play`): drop, take, spread and hit by a fair coin, the discard
uniform over the cards that may go (:func:`discard`); the rules kernel calls :func:`decide`.

Presets: ``simple`` (never drops, spreads and hits whenever it can, takes the discard only to
spread or hit it, discards the highest card), ``drop`` (simple + ``max_count=5``),
``hold`` (simple but holds spreads to tonk out), ``careful`` (simple + near-meld discards and
count-lowering takes: the strongest hand-picked one: +0.358 [0.352, 0.364] stakes/hand against
simple, 2 players, 100k duplicate deals, seed 0; hold +0.215, drop -0.555).  ``strong`` is
tuned (``tuned_presets.json``, README "Every game's strong"): the top of tonk's balance ladder.
Any preset or the family name takes overrides:
``drop(max_count=8,min_turn=2)``, ``tonk(spread_eagerness=0.5)``.
"""

from numba import njit

from ..core import rng
from ..core.bits import bit
from ..knock.table import (
    RANKS13,
    U1,
    U2,
    U16,
    U32,
    U48,
    VALUES,
    highest_code,
    meld_cards,
    ranks_all_suits,
)
from .family import (
    Param, StrategyFamily, bucket_starts, register, search_top_param, search_worlds_param, search_z_param,
)
from .random_play import PARAM_HELP, coin, uniform_card

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
    *bucket_starts(),
    Param("random_play", 0, 0, 1, PARAM_HELP, True),
    search_worlds_param(),
    search_top_param(6),
    search_z_param(),
    Param("search_what", 3, 1, 3, "search: the decisions searched (sum of 1 discard, 2 drop); the others are "
                                  "the heuristic's", True),
)

(P_MAX_COUNT, P_MIN_TURN, P_MIN_OPP_CARDS, P_PER_OPP, P_SPREAD_EAGERNESS, P_HIT,
 P_UPCARD_TAKE, P_TAKE_GAIN, P_DISCARD_RULE, P_MAX_COUNT_MID, P_MAX_COUNT_LATE, P_MID_FROM,
 P_LATE_FROM, P_RANDOM_PLAY, P_SEARCH_WORLDS, P_SEARCH_TOP, P_SEARCH_Z, P_SEARCH_WHAT) = range(1, len(PARAMS) + 1)

FAMILY = register(StrategyFamily(
    name="tonk",
    code=FAMILY_CODE,
    variants=("tonk",),
    search_variants=("tonk",),
    params=PARAMS,
    doc="Tonk heuristics: drop threshold by count/turn/opponents, spread and hit eagerness, "
        "discard-take rule, discard rule.",
    presets={
        "simple": {},
        "drop": {"max_count": 5},
        "hold": {"spread_eagerness": 0},
        "careful": {"discard_rule": 1, "upcard_take": 1},
        "random": {"random_play": 1},
    },
))


# ----------------------------------------------------------------------------------------
# the decisions (njit; ``srow`` float64: the seat's strategy row, parameters at P_*)

@njit(cache=True)
def near_meld_cards(h):
    """uint64: the cards of the hand ``h`` (uint64) in a pair or within two ranks of another
    card of their suit (``discard_rule=1`` keeps them)."""
    a = h & RANKS13
    b = (h >> U16) & RANKS13
    c = (h >> U32) & RANKS13
    d = (h >> U48) & RANKS13
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    near = h & ranks_all_suits(pairs)
    return near | (h & ((h << U1) | (h >> U1) | (h << U2) | (h >> U2)))


@njit(cache=True)
def wants_drop(srow, count, own_turn, n_players, min_opp_cards):
    """bool: drop (knock) at the start of this turn, before drawing?  ``count``: own count,
    ``own_turn``: own turn number (1 = first), ``min_opp_cards``: fewest cards an opponent
    holds (ints).  The threshold is max_count, or the mid/late bucket's own threshold from
    own turn mid_from/late_from on, plus per_opp per opponent beyond the first."""
    mc = srow[P_MAX_COUNT]
    late = srow[P_LATE_FROM]
    mid = srow[P_MID_FROM]
    if late >= 0 and own_turn >= late:
        if srow[P_MAX_COUNT_LATE] > -2:
            mc = srow[P_MAX_COUNT_LATE]
    elif mid >= 0 and own_turn >= mid:
        if srow[P_MAX_COUNT_MID] > -2:
            mc = srow[P_MAX_COUNT_MID]
    if mc < 0 or own_turn < srow[P_MIN_TURN] or min_opp_cards < srow[P_MIN_OPP_CARDS]:
        return False
    return count <= mc + srow[P_PER_OPP] * (n_players - 2)


@njit(cache=True)
def spread_now(srow, st):
    """bool: lay down held spreads this turn?  ``spread_eagerness`` is a probability; the
    draw uses the seat's generator ``st`` uint64[1] (advanced in place) only when it is
    strictly between 0 and 1."""
    e = srow[P_SPREAD_EAGERNESS]
    if e >= 1.0:
        return True
    if e <= 0.0:
        return False
    return rng.uniform(st) < e


@njit(cache=True)
def choose_discard(srow, hand, forbidden, protect):
    """Code (int64) of the card to discard from ``hand`` (uint64; never a card of
    ``forbidden``, the card taken from the pile; cards of ``protect``, held spread cards,
    only when nothing else can go): the highest, with ``discard_rule=1`` outside
    near-melds when possible."""
    cand = hand & ~forbidden
    c = cand & ~protect
    if c:
        cand = c
    if srow[P_DISCARD_RULE] != 0:
        c = cand & ~near_meld_cards(hand)
        if c:
            cand = c
    return highest_code(cand)


@njit(cache=True)
def wants_take(srow, hand, card, table_hm):
    """bool: take ``card`` (int64 code of the top discard) instead of drawing from the
    stock?  ``hand`` uint64 before the draw; ``table_hm`` uint64: cards that can be hit
    onto the table now."""
    b = bit(card)
    h6 = hand | b
    mc = meld_cards(h6)
    if mc & b:
        return True
    if srow[P_HIT] != 0 and (table_hm & b):
        return True
    if srow[P_UPCARD_TAKE] != 0:
        d = choose_discard(srow, h6, b, mc)
        return VALUES[d] - VALUES[card] >= srow[P_TAKE_GAIN]
    return False



@njit(cache=True)
def hit_now(srow):
    """bool: hit whenever possible this turn (``hit=1``); else only to end the hand."""
    return srow[P_HIT] != 0


@njit(cache=True)
def decide(srow, st, decided):
    """The strategy's yes/no answer ``decided``, or a fair coin with ``random_play``."""
    return coin(srow[P_RANDOM_PLAY], st, decided)


@njit(cache=True)
def discard(srow, hand, forbidden, protect, st):
    """:func:`choose_discard`, or with ``random_play`` a uniform random card of ``hand`` not
    in ``forbidden`` (``st``: the seat's generator)."""
    if srow[P_RANDOM_PLAY] != 0:
        return uniform_card(hand & ~forbidden, st)
    return choose_discard(srow, hand, forbidden, protect)
