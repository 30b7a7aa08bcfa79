"""The open-melding strategy family ``open`` (Basic Rummy, Block Rummy, Wrotham, Ramino Drift,
Loba).

The rules kernel :mod:`sim.open.open_rummy` asks the decisions of the njit functions below, passing
the seat's strategy row ``srow`` float64[PARAM_WIDTH] and its hand as a count vector
int64[64]; which melds, layoffs and swaps are made is the exact planner
:func:`sim.open.open_plan_search.plan_turn`, given the goal the strategy picks here.

Parameters (kernel column = 1 + position in ``PARAMS``):

* meld eagerness ``meld``: 0 lay melds and layoffs as soon as possible (the planner's goal
  SHED: least count left); 1 hold everything back until the whole hand can go in one turn
  (OUT_ONLY: going out, rummy when nothing went down before); k >= 2 lay down only when at
  least k cards go down this turn (MIN_CARDS k), or to go out.  ``meld_from``: the own turn
  from which the seat melds as soon as possible whatever ``meld`` says (-1 never), so a
  chart by turn is two parameters.
* the knob ``meld_at`` (a knock sweep varies it, :class:`sim.variants.Knob`): with
  ``meld_at >= 0`` it replaces ``meld``: on each turn the seat plays as soon as possible
  (SHED) when the count it would keep after those plays and the best discard is <= the
  threshold (or the plays go out), and otherwise holds everything back for going out
  (OUT_ONLY).  So ``meld_at=0`` hunts rummy and a large value melds at once; the chart
  "meld early or hold back" by turn is ``meld_at`` / ``meld_at_mid`` / ``meld_at_late``
  from own turns ``mid_from`` / ``late_from`` (-1: as ``meld_at``).
* ``layoff``: 1 lay off (and swap jokers) whenever the seat plays; 0 only on the turn it
  goes out.
* the draw ``take``: 0 never take the discard (unless forced by an empty stock: then not
  taking ends or restocks as the rules say); 1 take it when it is played at once (the best
  plays with it leave less than the plays without it plus its value: it lies in a meld or a
  layoff); 2 also when it has a partner in hand (a card of its rank, or of its suit within
  two ranks: a pair or near-run to build on).  The rules' own take limits (Loba: only to meld
  it at once) are the engine's, before this choice.
* the discard ``discard_rule``: 0 the highest value; 1 the highest value among the cards with
  no partner in hand, else the highest; 2 the fewest partners, then the highest.  Ties: the
  higher rank, then suit order S H D C.  Never the card taken from the pile this turn, never
  a joker the rules keep (Loba); ``keep_jokers=1`` never discards a joker while another card
  may go.
* ``buyback`` (Loba's whole games, :mod:`sim.core.games`): buy back in when the highest penalty
  total still in play is below this (-1: always, as the rules allow).
* the opponents' hand sizes (public in these games: every meld and layoff is on the table):
  ``meld_opp`` k >= 0: on a turn where some opponent holds at most k cards (before the seat's
  draw), the seat melds and lays off as soon as possible (SHED, layoffs on) whatever
  ``meld`` / ``meld_from`` / ``meld_at`` / ``layoff`` say: holding back for rummy stops when
  an opponent is about to go out.  ``discard_opp`` k >= 0: on such a turn the discard is the
  highest value (``discard_rule`` 0: shed points).  -1: off.
* ``random_play=1`` (the ``random`` preset, :mod:`sim.strategies.random_play`): the discard
  is taken on a fair coin when the rules allow it, the seat plays (as SHED) on a fair coin,
  going out is always played (automatic, as Wildcard's going out), the discard is uniform
  over the codes that may go.

* ``search_worlds`` > 0 (the ``search`` preset: ``strong`` with :data:`SEARCH_PRESET`): the seat
  decides its discard by simulation (:mod:`sim.open.open_search`) among the ``search_top`` best
  by its discard rule, each played out in ``search_worlds`` sampled worlds with its own
  heuristic at every seat; it leaves its heuristic's choice only for a candidate better by
  ``search_z`` standard errors of the paired difference (``search_drop``: racing).

Presets: ``random``; ``simple`` melds and lays off as soon as possible, takes the discard
when it is played at once, discards the highest card outside near-melds; ``rummy`` holds
back for rummy (``meld=1``); ``strong`` per game, measured against ``simple`` with paired
hands in the game modules' docstrings.
"""

import numpy as np
from numba import njit
from ..open.jit import noalloc

from .family import (
    Param, StrategyFamily, bucket_params, bucket_starts, register, search_drop_param, search_top_param,
    search_worlds_param, search_z_param,
)
from .random_play import PARAM_HELP, uniform_choice
from .wild import near_count

FAMILY_CODE = 4
MODE_SHED, MODE_OUT_ONLY = 0, 1        # meld eagerness codes; k >= 2: MIN_CARDS k

PARAMS = (
    Param("meld", 0, 0, 20, "0: meld/lay off as soon as possible; 1: hold back until going out (rummy); "
                           "k>=2: only when k cards go down this turn (or going out)", True),
    Param("meld_from", -1, -1, 99, "own turn from which the seat melds as soon as possible (-1 never)", True),
    *bucket_params("meld_at", -1, -1, 200, "meld as soon as possible on a turn where the count kept after the "
                                           "plays and the discard is <= this (-1: off; early bucket, or all turns)"),
    *bucket_starts(),
    Param("layoff", 1, 0, 1, "1: lay off (and swap jokers) whenever playing; 0: only when going out", True),
    Param("take", 1, 0, 2, "take the discard: 0 never, 1 when it is played at once, 2 also when it has a "
                           "partner in hand", True),
    Param("discard_rule", 1, 0, 2, "0 highest card; 1 highest card outside near-melds; 2 fewest partners, "
                                   "then highest", True),
    Param("keep_jokers", 0, 0, 1, "1: never discard a joker while another card may go", True),
    Param("buyback", -1, -1, 1000, "Loba games: buy back in when the highest total in play is below this "
                                   "(-1: whenever the rules allow)", True),
    Param("random_play", 0, 0, 1, PARAM_HELP, True),
    Param("meld_opp", -1, -1, 20, "meld and lay off as soon as possible (whatever meld/meld_at/layoff say) on a "
                                  "turn where some opponent holds at most this many cards (-1: off)", True),
    Param("discard_opp", -1, -1, 20, "discard the highest card (discard_rule 0) on a turn where some opponent "
                                     "holds at most this many cards (-1: off)", True),
    search_worlds_param(" at every seat"),
    search_top_param(16),
    search_z_param(),
    search_drop_param(),
)
(P_MELD, P_MELD_FROM, P_MELD_AT, P_MELD_AT_MID, P_MELD_AT_LATE, P_MID_FROM, P_LATE_FROM, P_LAYOFF, P_TAKE,
 P_DISCARD_RULE, P_KEEP_JOKERS, P_BUYBACK, P_RANDOM_PLAY, P_MELD_OPP, P_DISCARD_OPP, P_SEARCH_WORLDS, P_SEARCH_TOP,
 P_SEARCH_Z, P_SEARCH_DROP) = range(1, len(PARAMS) + 1)

_BASE = {"random": {"random_play": 1}, "simple": {}, "rummy": {"meld": 1}}
VARIANTS = ("basic-rummy", "block-rummy", "wrotham", "ramino-drift", "loba")
# "hand-strong" (the hand-picked strong before tuning): measured against simple in each game module's docstring (paired hands)
STRONG = {
    "basic-rummy": {"meld": 1, "meld_from": 4, "discard_rule": 2},
    "block-rummy": {"meld": 1, "meld_from": 4, "discard_rule": 2},
    "wrotham": {"meld": 1, "meld_from": 4, "discard_rule": 2, "keep_jokers": 1},
    "ramino-drift": {"discard_rule": 2, "keep_jokers": 1},   # measured in sim/variants/ramino_drift.py's docstring
    "loba": {"discard_rule": 0},               # measured in sim/variants/loba.py's docstring
}

# the ``search`` preset's budget beyond ``strong`` (sim.open.open_search; measured in docs/search/<game>.json)
SEARCH_PRESET = {"search_worlds": 32.0, "search_top": 3.0}

FAMILY = register(StrategyFamily(
    name="open",
    code=FAMILY_CODE,
    variants=VARIANTS,
    params=PARAMS,
    doc="Open-melding heuristics: meld eagerness (as soon as possible / hold for rummy / k cards) by "
        "own turn and by the opponents' hand sizes, take-the-discard rule, near-meld discards, joker "
        "keeping, Loba buy-backs.",
    presets=dict(_BASE),
    variant_presets={v: {**_BASE, **({"hand-strong": STRONG[v]} if v in STRONG else {})} for v in VARIANTS},
    search_variants=VARIANTS,
    search_preset={v: dict(SEARCH_PRESET) for v in VARIANTS},
))


# ----------------------------------------------------------------------------------------
# the decisions (njit; ``srow``: the seat's strategy row)

@noalloc
def meld_mode(srow, own_turn):
    """The meld eagerness on own turn ``own_turn``: MODE_SHED, MODE_OUT_ONLY or k >= 2."""
    f = srow[P_MELD_FROM]
    if f >= 0 and own_turn >= f:
        return MODE_SHED
    return np.int64(srow[P_MELD])


@noalloc
def meld_at(srow, own_turn):
    """The knob's threshold on this own turn (-1: off)."""
    v = srow[P_MELD_AT]
    late = srow[P_LATE_FROM]
    mid = srow[P_MID_FROM]
    if late >= 0 and own_turn >= late:
        if srow[P_MELD_AT_LATE] >= 0:
            v = srow[P_MELD_AT_LATE]
    elif mid >= 0 and own_turn >= mid:
        if srow[P_MELD_AT_MID] >= 0:
            v = srow[P_MELD_AT_MID]
    return v


@noalloc
def partners(hand, code, ace_high):
    """Other cards of the hand ``hand`` (counts, holding ``code``) of the rank of natural
    ``code``, or of its suit within two ranks (:func:`sim.strategies.wild.near_count`)."""
    return near_count(hand, code, ace_high) - 1


@noalloc
def wants_take(srow, played_at_once, hand, top, ace_high):
    """Take the pile top ``top``?  ``played_at_once``: the planner plays it this turn."""
    t = srow[P_TAKE]
    if t == 0:
        return False
    if played_at_once:
        return True
    if t == 2:
        return top == 13 or _has_partner(hand, top, ace_high)
    return False


@noalloc
def _has_partner(hand, top, ace_high):
    hand[top] += 1
    p = partners(hand, top, ace_high)
    hand[top] -= 1
    return p > 0


@noalloc
def opp_close(srow, col, fewest_opp):
    """Is the switch at column ``col`` (``meld_opp``, ``discard_opp``) on for a turn where the
    fewest cards an opponent holds is ``fewest_opp``?"""
    k = srow[col]
    return k >= 0 and fewest_opp <= k


@noalloc
def discard_key(srow, hand, c, vals, ace_high, rule):
    """Larger is a better discard (``rule``: the ``discard_rule`` in force), before the tie rules."""
    v = vals[c]
    if c == 13 or rule == 0:
        return v
    p = partners(hand, c, ace_high)
    if rule == 1:
        return v if p > 0 else v + 1000
    return v - 1000 * p


@noalloc
def choose_discard(srow, hand, allowed, vals, ace_high, fewest_opp):
    """The discard among the codes with ``allowed[c] != 0`` (the engine's legal discards);
    ``fewest_opp``: the fewest cards an opponent holds (``discard_opp``)."""
    rule = 0.0 if opp_close(srow, P_DISCARD_OPP, fewest_opp) else srow[P_DISCARD_RULE]
    best = -1
    best_key = -(np.int64(1) << 40)
    for r in range(12, -1, -1):     # higher rank first on ties, then suits S H D C
        for s in range(4):
            c = (s << 4) + r
            if allowed[c] == 0:
                continue
            k = discard_key(srow, hand, c, vals, ace_high, rule)
            if k > best_key:
                best_key = k
                best = c
    if allowed[13] != 0 and (best < 0 or (srow[P_KEEP_JOKERS] == 0
                                          and discard_key(srow, hand, 13, vals, ace_high, rule) > best_key)):
        best = 13
    return best


@njit(cache=True)
def random_discard(allowed, st):
    """``random_play``: a legal code drawn uniformly (identical copies are one move)."""
    return uniform_choice(allowed, st)
