"""The closed-hand wild-card strategy family ``wild`` (Ramino Klop, Wildcard Rummy, Cincinnati).

The rules kernel :mod:`sim.wild.closed_wild` asks the decisions of the njit functions below,
passing the seat's strategy row ``srow`` float64[PARAM_WIDTH] and its hand as the meld
workspace ``ws`` of :mod:`sim.wild.wild_melds` (counts in ``ws[:64]``, index 13 = jokers).

Parameters (kernel column = 1 + position in ``PARAMS``):

* Ramino Klop's knock threshold by own-turn bucket: knock when the deadwood after the discard
  is <= the bucket's threshold (and below the rules' ``knock_below``): ``knock`` before own
  turn ``mid_from``, ``knock_mid`` before ``late_from``, then ``knock_late`` (-1: as
  ``knock``).  0 deadwood is always declared (rummy).
* Cincinnati's go-out rule, by the same buckets: go out only with melds worth at least
  ``min_out`` (``min_out_mid``, ``min_out_late``; -1: as ``min_out``), and with any value from
  own turn ``wait_until_turn`` on (-1: never).  Wildcard Rummy always goes out when it can.
* taking the pile top: ``take=0`` when it melds with the hand (the deadwood of the hand plus
  the card is below the hand's deadwood plus the card's value: the card lies in a meld in
  every best arrangement); ``take=1`` when, after the best legal discard, the deadwood drops
  by at least ``take_gain``.
* wild cards: ``discard_wilds_from`` the own turn from which a wild card (joker; a 2 in
  Wildcard) may be discarded: 0 always, -1 never (unless every card left is a wild or the
  card just taken); ``dump_wilds=1``: from that turn on a wild held is always discarded
  (giving wilds up, the contrast that measures what holding them is worth).
* the discard: the card leaving the least deadwood; ties to the highest value (then rank,
  then suit).  ``keep_near=1``: among the discards leaving equal deadwood, discard the card
  with the fewest "near" cards in the hand (same rank, or same suit within two ranks: the
  pairs and near-runs a wild could complete into a meld).
* what the opponents show: hands keep their size in these closed games, so the public sign
  that an opponent is closing in is the discards it takes (a card taken from the pile melds,
  or at least lowers that hand's deadwood).  ``out_opp`` k >= 0: on a turn where some
  opponent has taken at least k discards this hand, knock at any deadwood the rules allow
  (Ramino) / go out with any meld value (Cincinnati; Wildcard always goes out) rather than
  wait.  ``wilds_opp`` k >= 0: on such a turn wild cards may be discarded as from
  ``discard_wilds_from`` on (release the 20 / 25 points a dead wild costs when the hand
  ends).  -1: off.  (Positions the advisors set up count no takes.)
* ``random_play=1`` (the ``random`` preset, :mod:`sim.strategies.random_play`): the pile top
  is taken on a fair coin, the discard is uniform over the codes that may go
  (:func:`random_discard`), Ramino's knock and Cincinnati's going out are fair coins when
  legal; rummy at 0 deadwood (Ramino) and Wildcard's going out stay automatic.

* ``search_worlds`` > 0 (the ``search`` preset: ``strong`` with 256 worlds): the seat decides
  the end of its turn by simulation (:mod:`sim.wild.wild_decide`): the ``search_top`` best
  discards (``search_what`` 1; 2 adds the end: Ramino's knock, go out or hold), its
  heuristic's move kept unless another is better by ``search_z`` standard errors.

Presets per game (``variant_presets``; measured in the game modules' docstrings):
``simple`` knocks / goes out as soon as the rules allow, takes the pile top when it melds,
discards the card leaving least deadwood.  Wildcard adds ``keep-wilds`` (never discards a
wild) and ``discard-wilds-late`` (from own turn 8 on, every wild drawn is discarded).  ``strong`` (every game)
keeps near cards on ties and never discards a wild (Wildcard: also takes the pile top when it
lowers the deadwood by 3 or more); it beats ``simple`` in each game (numbers in the modules).
"""

import numpy as np
from numba import njit

from ..wild.wild_melds import ws_deadwood, ws_discards
from .family import (
    Param, StrategyFamily, bucket_params, bucket_starts, register, search_drop_param, search_top_param,
    search_worlds_param, search_z_param,
)
from .random_play import PARAM_HELP, uniform_choice

FAMILY_CODE = 3

PARAMS = (
    *bucket_params("knock", 6, 0, 100, "Ramino: knock when deadwood <= this (early bucket, or all turns; "
                                       "the rules cap it below knock_below)"),
    *bucket_starts(),
    *bucket_params("min_out", 0, 0, 1000, "Cincinnati: go out only with melds worth >= this (early bucket)"),
    Param("wait_until_turn", -1, -1, 99, "Cincinnati: go out with any value from this own turn on; -1 never", True),
    Param("take", 0, 0, 1, "0: take the pile top if it melds; 1: if it lowers deadwood by >= take_gain", True),
    Param("take_gain", 1, 1, 100, "deadwood drop that makes take=1 take the pile top", True),
    Param("discard_wilds_from", 0, -1, 99,
          "own turn from which wild cards may be discarded (0 always, -1 never)", True),
    Param("keep_near", 0, 0, 1, "among equal-deadwood discards, keep cards a wild could complete into a meld", True),
    Param("dump_wilds", 0, 0, 1, "1: from own turn discard_wilds_from on, discard a wild whenever one is "
                                 "held (gives wilds up; 0: a wild goes only when it leaves the least deadwood)", True),
    Param("random_play", 0, 0, 1, PARAM_HELP, True),
    Param("out_opp", -1, -1, 10, "knock (Ramino, any deadwood the rules allow) / go out (Cincinnati, any value) "
                                 "on a turn where some opponent has taken at least this many discards this "
                                 "hand (-1: off)", True),
    Param("wilds_opp", -1, -1, 10, "wild cards may be discarded (as from discard_wilds_from on) on a turn where "
                                   "some opponent has taken at least this many discards this hand (-1: off)", True),
    search_worlds_param(" at every seat"),
    search_top_param(11, "the heuristic's first, then by deadwood left"),
    search_z_param(integer=True),
    Param("search_what", 1, 1, 3, "search: the decisions searched (sum of 1 the discard, 2 the end: Ramino's knock, "
                                  "go out now or hold)", True),
    search_drop_param(integer=True),
)

(P_KNOCK, P_KNOCK_MID, P_KNOCK_LATE, P_MID_FROM, P_LATE_FROM, P_MIN_OUT, P_MIN_OUT_MID,
 P_MIN_OUT_LATE, P_WAIT_UNTIL, P_TAKE, P_TAKE_GAIN, P_WILDS_FROM, P_KEEP_NEAR, P_DUMP_WILDS,
 P_RANDOM_PLAY, P_OUT_OPP, P_WILDS_OPP, P_SEARCH_WORLDS, P_SEARCH_TOP, P_SEARCH_Z, P_SEARCH_WHAT,
 P_SEARCH_DROP) = range(1, len(PARAMS) + 1)

FAMILY = register(StrategyFamily(
    name="wild",
    code=FAMILY_CODE,
    variants=("ramino-klop", "wildcard", "cincinnati"),
    params=PARAMS,
    doc="Closed-hand wild-card heuristics: knock threshold / go-out value by own-turn bucket and by "
        "the discards the opponents took, keep-wilds rule (by stage and opponents), wild-aware discard "
        "ties, take-the-pile rule.",
    presets={"simple": {}, "random": {"random_play": 1}},
    search_variants=("ramino-klop", "wildcard", "cincinnati"),
    # 256 worlds beat 64 in each game (docs/search/<game>.json, seed 31; cincinnati and wildcard also seed 101)
    search_preset={v: {"search_worlds": 256.0} for v in ("ramino-klop", "wildcard", "cincinnati")},
    variant_presets={   # "hand-strong" (hand-picked, before tuning): measured in each game module's docstring
        "ramino-klop": {"random": {"random_play": 1}, "simple": {},
                        "hand-strong": {"keep_near": 1, "discard_wilds_from": -1}},
        "wildcard": {"random": {"random_play": 1}, "simple": {}, "keep-wilds": {"discard_wilds_from": -1},
                     "discard-wilds-late": {"discard_wilds_from": 8, "dump_wilds": 1},
                     "hand-strong": {"keep_near": 1, "take": 1, "take_gain": 3, "discard_wilds_from": -1}},
        "cincinnati": {"random": {"random_play": 1}, "simple": {},
                       "hand-strong": {"keep_near": 1, "discard_wilds_from": -1}},
    },
))


# ----------------------------------------------------------------------------------------
# the decisions (njit; ``srow``: the seat's strategy row)

@njit(cache=True)
def bucket_value(srow, own_turn, first):
    """The threshold at columns ``first`` (early), ``first + 1`` (mid), ``first + 2`` (late)
    for own turn ``own_turn`` (mid/late -1: the early value)."""
    v = srow[first]
    late = srow[P_LATE_FROM]
    mid = srow[P_MID_FROM]
    if late >= 0 and own_turn >= late:
        if srow[first + 2] >= 0:
            v = srow[first + 2]
    elif mid >= 0 and own_turn >= mid:
        if srow[first + 1] >= 0:
            v = srow[first + 1]
    return v


@njit(cache=True)
def knock_threshold(srow, own_turn):
    """Ramino: knock when deadwood <= this (the rules' cap is applied by the caller)."""
    return bucket_value(srow, own_turn, P_KNOCK)


@njit(cache=True)
def min_out_value(srow, own_turn):
    """Cincinnati: the least meld value to go out with on this own turn."""
    w = srow[P_WAIT_UNTIL]
    if w >= 0 and own_turn >= w:
        return 0.0
    return bucket_value(srow, own_turn, P_MIN_OUT)


@njit(cache=True)
def may_discard_wild(srow, own_turn, release):
    """May a wild be discarded on own turn ``own_turn``?  ``release``: ``wilds_opp`` is on
    this turn (:func:`opp_close`)."""
    w = srow[P_WILDS_FROM]
    return release or (w >= 0 and own_turn >= w)


@njit(cache=True)
def most_opp_takes(srow, state, first, m, i):
    """The most discards an opponent of local seat ``i`` (of ``m``) has taken this hand
    (``state[first + j]``: local seat j's), when the strategy looks (``out_opp`` or
    ``wilds_opp`` on), else -1."""
    if srow[P_OUT_OPP] < 0 and srow[P_WILDS_OPP] < 0:
        return -1
    most = 0
    for j in range(m):
        if j != i:
            most = max(most, state[first + j])
    return most


@njit(cache=True)
def opp_close(srow, col, most_takes):
    """Is the switch at column ``col`` (``out_opp``, ``wilds_opp``) on for a turn where the
    most discards an opponent has taken this hand is ``most_takes``?"""
    k = srow[col]
    return k >= 0 and most_takes >= k


@njit(cache=True)
def near_count(ws, code, ace_high):
    """Cards in the hand ``ws[:64]`` of the rank of natural ``code`` or of its suit within two
    ranks (Q-K-A adjacent when aces are high; never round the corner)."""
    r = code & 15
    s = code >> 4
    n = 0
    for t in range(4):
        n += ws[(t << 4) + r]
    for d in (-2, -1, 1, 2):
        q = r + d
        if ace_high:
            if q == 13:
                q = 0
            elif q < 0:
                q = q + 13 if r == 0 else -1
        if 0 <= q < 13:
            n += ws[(s << 4) + q]
    return n


@njit(cache=True)
def wild_count(ws, wild):
    """Wild cards in the hand ``ws[:64]``."""
    w = 0
    for c in range(64):
        if wild[c]:
            w += ws[c]
    return w


@njit(cache=True)
def touches_meld(ws, code, wild, ace_high, n_wild):
    """False only if ``code`` can be in no meld with the hand ``ws[:64]`` (holding ``n_wild``
    wilds): a meld holds 3+ cards, and a natural card's partners are wilds or naturals of its
    rank or of its suit within two ranks (a wider gap needs two wilds).  A card that touches
    no meld is deadwood in every arrangement: it adds exactly its value."""
    if wild[code]:
        return True
    return near_count(ws, code, ace_high) + n_wild >= 2


@njit(cache=True)
def wild_removal_bound(ws, w, dw_full, vals, wild, set_max):
    """A lower bound on the deadwood of the hand ``ws[:64]`` less the wild ``w``.  In general
    ``dw_full - value(w)``.  With ``set_max`` > 0 (rules where a run always has room: runs up
    to 13 cards, hands of at most 11) the rest is at least ``dw_full`` unless its best
    arrangement has no meld with room: no meld at all, or only full sets (``set_max`` cards
    of one rank); so it is at least ``min(dw_full, value(rest) - what full sets can hold)``."""
    if set_max == 0:
        return dw_full - vals[w]
    ws[w] -= 1
    total = 0
    n_wild = 0
    wild_value = 0
    for c in range(64):
        total += ws[c] * vals[c]
        if wild[c]:
            n_wild += ws[c]
            wild_value += ws[c] * vals[c]
    held = 0
    for r in range(13):
        k = ws[r] + ws[16 + r] + ws[32 + r] + ws[48 + r]
        if k > 0 and k + n_wild >= set_max:
            held += ws[r] * vals[r] + ws[16 + r] * vals[16 + r] + ws[32 + r] * vals[32 + r] + ws[48 + r] * vals[48 + r]
    ws[w] += 1
    if held > 0:
        held += wild_value
    rest = total - held
    return rest if rest < dw_full else dw_full


@njit(cache=True)
def choose_discard(srow, ws, dw_full, forbidden, own_turn, order, vals, wild, ace_high, set_max, release=False):
    """The discard of the hand ``ws[:64]`` (deadwood ``dw_full``): the card leaving the least
    deadwood (ties: ``keep_near``, then a natural touching no meld, then naturals before
    wilds, then the first in ``order``, highest value first), never ``forbidden`` (a code, -1
    none) and no wild before ``discard_wilds_from`` unless ``release`` (``wilds_opp``).  Returns (code, deadwood after).

    Exact with few evaluations: removing card c lowers the deadwood by at most its value, so
    ``dw_full - value(c)`` bounds every later natural of ``order`` from below; a natural
    touching no meld of the rest lowers it by exactly its value (no search needed); wilds come
    last, bounded by :func:`wild_removal_bound` (``set_max``: see there)."""
    keep = srow[P_KEEP_NEAR] != 0
    n_wild = wild_count(ws, wild)
    if n_wild > 0 and srow[P_DUMP_WILDS] != 0 and may_discard_wild(srow, own_turn, release):
        for i in range(order.shape[0]):     # giving wilds up: the first wild held goes
            c = order[i]
            if wild[c] and ws[c] > 0 and c != forbidden:
                ws[c] -= 1
                d = ws_deadwood(ws)
                ws[c] += 1
                return c, d
    for relax in range(3):  # 0: per the wild rule; 1: wilds allowed; 2: forbidden allowed too
        allow_wild = relax > 0 or may_discard_wild(srow, own_turn, release)
        best = np.int64(1) << 40
        best_near = 0
        best_code = -1
        for i in range(order.shape[0]):  # the highest natural touching no meld: exact at once
            c = order[i]
            if ws[c] == 0 or (c == forbidden and relax < 2) or wild[c]:
                continue
            ws[c] -= 1
            if not touches_meld(ws, c, wild, ace_high, n_wild):
                best = dw_full - vals[c]
                best_code = c
                best_near = near_count(ws, c, ace_high) if keep else 0
            ws[c] += 1
            if best_code >= 0:
                break
        for i in range(order.shape[0]):
            c = order[i]
            if ws[c] == 0 or (c == forbidden and relax < 2) or wild[c] or c == best_code:
                continue
            bound = dw_full - vals[c]
            if bound > best or (bound == best and not keep) or (best == 0 and not keep):
                break
            ws[c] -= 1
            if not touches_meld(ws, c, wild, ace_high, n_wild):
                d = bound
            else:
                d = ws_deadwood(ws)
            nr = near_count(ws, c, ace_high) if keep and d <= best else 0
            ws[c] += 1
            if d < best or (keep and d == best and nr < best_near):
                best = d
                best_near = nr
                best_code = c
        for i in range(order.shape[0] if allow_wild and n_wild > 0 else 0):
            c = order[i]
            if ws[c] == 0 or (c == forbidden and relax < 2) or not wild[c]:
                continue
            if wild_removal_bound(ws, c, dw_full, vals, wild, set_max) >= best:
                continue   # cannot beat the best natural (ties keep the natural)
            ws[c] -= 1
            d = ws_deadwood(ws)
            ws[c] += 1
            if d < best:
                best = d
                best_near = 0
                best_code = c
        if best_code >= 0:
            return best_code, best
    return -1, 0


@njit(cache=True)
def wants_pile(srow, ws, dw, top, vals, wild, ace_high):
    """Take the pile top ``top`` into the hand ``ws[:64]`` (deadwood ``dw``)?  Returns (take,
    deadwood of the hand with ``top`` or -1 when not computed)."""
    if srow[P_TAKE] == 0:
        if not touches_meld(ws, top, wild, ace_high, wild_count(ws, wild)):
            return False, -1  # dead with this hand: the deadwood rises by exactly its value
        ws[top] += 1
        d = ws_deadwood(ws)
        ws[top] -= 1
        return d < dw + vals[top], d
    ws[top] += 1
    after = np.empty(64, dtype=np.int64)
    ws_discards(ws, after)      # every discard in one pass; never a copy of the card taken
    ws[top] -= 1
    best = np.int64(1) << 40
    for c in range(64):
        if after[c] >= 0 and c != top and after[c] < best:
            best = after[c]
    return best <= dw - srow[P_TAKE_GAIN], -1


@njit(cache=True)
def random_discard(ws, forbidden, st):
    """``random_play``: a code drawn uniformly (generator ``st``) from those held in the hand
    ``ws[:64]`` but ``forbidden`` (the code just taken; -1 none); identical copies are one
    move.  ``forbidden`` only if the hand holds nothing else."""
    allowed = ws[:64].copy()
    if forbidden >= 0:
        allowed[forbidden] = 0
    c = uniform_choice(allowed, st)
    return c if c >= 0 else np.int64(forbidden)
