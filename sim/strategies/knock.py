"""The knock-game strategy family (Gin Rummy, Knock Rummy; Ramino Klop later).

Parameters (kernel column = 1 + position in ``PARAMS``):

* knock thresholds by bucket: knock when the deadwood after the discard is <= the bucket's
  threshold (and the rules allow it).  Buckets are by own turn number (``bucket_by=0``:
  early before turn ``mid_from``, mid before ``late_from``, then late) or by stock size
  (``bucket_by=1``: early while the stock holds more than ``mid_from`` cards, mid while more
  than ``late_from``, then late).  ``knock_mid``/``knock_late`` = -1 reuse ``knock``.
* ``per_opp``: added to the threshold (every bucket) per opponent beyond the first (Knock
  Rummy with 3-5 players; nothing changes with one opponent).
* ``gin_after``: from this own turn on, knock only with 0 deadwood: wait for gin (Gin) or for
  rummy (Knock Rummy; 0 gives the "rummy only" player).
* upcard rule: ``upcard=0`` take the upcard only if it forms a meld with the hand: the
  11-card deadwood is strictly below the hand's deadwood plus the upcard's value (it lies in
  a meld in every minimum arrangement of the 11 cards); ``upcard=1`` take it if, after the
  best legal discard, the deadwood drops by at least ``upcard_gain``; ``upcard=2`` take it if
  it lies in any meld of the hand plus it, even one no minimum arrangement uses.
* discard scoring: minimise ``deadwood_after + near_weight * near(c) + opp_weight * danger(c)``
  where ``near`` counts hand cards of the same rank or within two ranks in the same suit
  (cards that may still make melds) and ``danger`` is 1 when the opponent took from the
  discard pile a card of the same rank or within two ranks in the same suit.  Ties: the
  highest card (deterministic) or a random one (``random_ties=1``).
* ``layoff``: as defender, lay off onto the knocker's melds (1) or not (0).
* ``arrange``: as knocker, show any minimum-deadwood arrangement (0) or, among them, the one
  leaving the fewest layoff spots (1) (rules/gin.md [choice]).
* ``random_play=1`` (the ``random`` preset): every choice uniform at random among the legal
  ones (:mod:`sim.strategies.random_play`): the discard here, the upcard and the knock by a
  fair coin where the game kernels ask (:func:`~sim.strategies.random_play.coin`).
* ``upcard_knock`` >= 0: also take the upcard when the best legal discard then leaves deadwood
  <= ``upcard_knock``; ``discard_rule=1``: discard the highest-ranked card that is deadwood in
  a minimum arrangement of the 11 cards (the scoring rule when none may be discarded).  With
  ``layoff=0`` these make the ``openspiel-simple`` preset, OpenSpiel's SimpleGinRummyBot
  (scripts/crosscheck_openspiel.py).
* ``search_worlds`` > 0 (the ``search`` preset: ``strong`` with :data:`sim.strategies.SEARCH_WORLDS`):
  the seat decides by simulation (:mod:`sim.search`; Gin: :mod:`sim.variants.gin_search`, Knock
  Rummy: :mod:`sim.variants.knock_rummy_search`, whose ``search`` preset searches all three at
  ``search_z=1`` with ``search_opp_knock=-1``) the
  decisions ``search_what`` names (default 2: the discard, among the ``search_top`` best by the
  score above; 6 adds the knock, 7 the upcard too: both measured weaker against eaai-simple, the
  README's search section), leaving its heuristic's
  choice only for a candidate better by ``search_z`` standard errors over the worlds; the
  other parameters are the heuristic of its rollouts.
* ``eaai-simple``: Neller's SimpleGinRummyPlayer (the EAAI Gin Rummy framework, played under
  the ``eaai`` rule set): ``upcard=2``, ``random_ties=1``, ``arrange=2`` (random minimum
  arrangements, as knocker and as defender) and ``no_repeat=1`` (it never discards a card that
  makes, with the card just drawn, a {drawn, discarded} pair it has played before this hand;
  the engine keeps the pairs).
* ``marjj``: the policy of MARJJ_v5 (the EAAI-2021 winner's team; :mod:`sim.strategies.marjj`),
  under the ``eaai`` rule set: ``upcard=3`` (the upcard only when it forms a meld and a discard
  then lowers the deadwood), ``discard_rule=2`` (deadwood + a discounted one-ply draw look-ahead
  + a danger score from the opponent's pickups and the cards seen), ``knock`` 10 on its first
  three own turns and then gin only (``gin_after=4``), ``arrange=3`` (as knocker and defender,
  the minimum arrangement with the fewest lay-off points by what it has seen).

Presets differ by game (``variant_presets``): Gin's are ``presets``; Knock Rummy's are tuned
for 7/10-card hands and 2-5 players (see :mod:`sim.variants.knock_rummy`).

The decision kernels (njit, shared by every knock game): :func:`knock_threshold` (and
:func:`knock_threshold_opp` with the opponent count), :func:`choose_discard`,
:func:`wants_upcard`.  They see one strategy row ``srow`` (float64[PARAM_WIDTH]).
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit as _bit
from ..core.cards import N_RANKS, SUIT_SHIFT
from ..knock.melds import deadwood

from .family import (
    SEARCH_WORLDS, Param, StrategyFamily, bucket_params, bucket_starts, register, search_drop_param,
    search_top_param, search_worlds_param, search_z_param,
)
from .random_play import PARAM_HELP, uniform_card

FAMILY_CODE = 1

PARAMS = (
    *bucket_params("knock", 10, 0, 100, "knock when deadwood <= this (early bucket, or all turns)"),
    Param("bucket_by", 0, 0, 1, "0: buckets by own turn number, 1: by cards left in stock", True),
    *bucket_starts("own turn (bucket_by=0) or stock size (bucket_by=1)"),
    Param("gin_after", -1, -1, 99, "from this own turn on, knock only with 0 deadwood (gin / rummy); -1 never", True),
    Param("upcard", 0, 0, 3, "0: take upcard if it forms a meld; 1: if it lowers deadwood by >= upcard_gain; "
                             "2: if it lies in any meld of the hand plus it; 3: if 0 and 1 both hold (MARJJ)", True),
    Param("upcard_gain", 1, 0, 100, "deadwood drop needed to take the upcard with upcard=1"),
    Param("near_weight", 0, 0, 10, "discard score weight for cards that may still make melds"),
    Param("opp_weight", 0, 0, 50, "discard score penalty for cards near the opponent's pickups"),
    Param("layoff", 1, 0, 1, "lay off onto the knocker's melds as defender", True),
    Param("random_ties", 0, 0, 1, "break discard ties at random instead of highest card", True),
    Param("arrange", 0, 0, 3, "as knocker, show 0: any min-deadwood arrangement; 1: the one "
                              "leaving the fewest layoff spots; 2: a random one, weighted as Neller's "
                              "framework; 3: the one with the fewest lay-off points by what the seat has "
                              "seen (MARJJ); 2 and 3 also the defender's own, layoff_mode=seed", True),
    Param("per_opp", 0, -30, 30, "added to the knock threshold per opponent beyond the first", True),
    Param("upcard_knock", -1, -1, 100, "also take the upcard when a legal discard then leaves deadwood "
                                        "<= this (-1: no)", True),
    Param("discard_rule", 0, 0, 2, "0: minimise the discard score; 1: the highest-ranked card left as "
                                    "deadwood by a minimum arrangement of the 11 cards; 2: MARJJ's deadwood, "
                                    "draw look-ahead and danger (sim.strategies.marjj)", True),
    Param("random_play", 0, 0, 1, PARAM_HELP, True),
    Param("no_repeat", 0, 0, 1, "never discard a card that with the card just drawn makes a {drawn, "
                                "discarded} pair already played this hand (Neller's SimpleGinRummyPlayer)", True),
    search_worlds_param(),
    search_top_param(11),
    Param("search_particles", 0, 0, 4096, "search: guesses of the opponent's hand followed through the hand "
                                           "(sim.strategies.knock_belief; 0: uniform worlds)", True),
    Param("search_beta", 1.0, 0, 20, "search: a guess's weight per turn is exp(-beta * the deadwood that turn "
                                     "gave away in it)"),
    Param("search_what", 2, 1, 7, "search: the decisions searched (sum of 1 draw, 2 discard, 4 knock); the "
                                  "others are the heuristic's", True),
    search_z_param(),
    search_drop_param(),
    Param("search_opp_knock", 10, -1, 100, "search: in the rollouts the opponents knock as soon as their deadwood "
                                           "is <= this (-1: they play the searching seat's own heuristic)", True),
    Param("search_belief", 0, 0, 3, "search: a world's opponent hand: 0 uniform given the seen cards (or the "
                                    "particles); 1 calibrated, built to the deadwood real hands hold at this "
                                    "pile length (sim.search.calibrated); 2 calibrated guesses weighed by the "
                                    "opponent's last discard under the seat's own heuristic (policy:self; Gin); "
                                    "3 the same under the opponent's true policy (the opponent known; Gin)", True),
)

(P_KNOCK, P_KNOCK_MID, P_KNOCK_LATE, P_BUCKET_BY, P_MID_FROM, P_LATE_FROM, P_GIN_AFTER,
 P_UPCARD, P_UPCARD_GAIN, P_NEAR_W, P_OPP_W, P_LAYOFF, P_RANDOM_TIES, P_ARRANGE, P_PER_OPP,
 P_UPCARD_KNOCK, P_DISCARD_RULE, P_RANDOM_PLAY, P_NO_REPEAT, P_SEARCH_WORLDS, P_SEARCH_TOP, P_SEARCH_PARTICLES,
 P_SEARCH_BETA, P_SEARCH_WHAT, P_SEARCH_Z, P_SEARCH_DROP, P_SEARCH_OPP_KNOCK, P_SEARCH_BELIEF) = range(1, len(PARAMS) + 1)


# ----------------------------------------------------------------------------------------
# decision kernels
# The same-rank count stands written out in _near_count and in_some_meld (and the discard
# score inside choose_discard): one shared helper for it, with discard_score called as a
# function, made Gin's hand kernel 0.943x and Knock Rummy's 0.956x/0.935x (2/4 players),
# A/B in one sitting against e6cb6ab.

@njit(cache=True)
def _near_count(hand, code, wrap):
    """Cards of ``hand`` of the same rank as ``code`` or within two ranks in its suit (``wrap``:
    counting K-A as adjacent)."""
    r = code & 15
    s = code >> 4
    n = 0
    for t in range(4):
        if t != s and hand & _bit(t * SUIT_SHIFT + r):
            n += 1
    for d in (-2, -1, 1, 2):
        q = r + d
        if wrap:
            q %= N_RANKS
        if 0 <= q < N_RANKS and hand & _bit(s * SUIT_SHIFT + q):
            n += 1
    return n


@njit(cache=True)
def _near(hand, code):
    """Cards of ``hand`` of the same rank as ``code`` or within two ranks in its suit."""
    return _near_count(hand, code, False)


@njit(cache=True)
def _danger(picked, code):
    """1 if an opponent took from the pile a card of this rank or near it in its suit
    (``picked``: the cards the opponents took, the union of the other seats' with 3+ players)."""
    if picked == 0:
        return 0
    return 1 if _near(picked, code) > 0 else 0


@njit(cache=True)
def _may_meld(hand, code):
    """False only if ``code`` can be in no meld with cards of ``hand``: fewer than two cards of
    its rank or within two ranks in its suit (counting K-A as adjacent, so it holds for
    ace-high tables too)."""
    return _near_count(hand, code, True) >= 2


@njit(cache=True)
def in_some_meld(hand, code):
    """True if ``code`` lies in some meld of ``hand`` plus it (ace low, no wrap): two more
    cards of its rank, or two neighbours making a three-card run in its suit (every longer
    run through it holds such a three-card run).  Neller's SimpleGinRummyPlayer's upcard test."""
    r = code & 15
    s = code >> 4
    same = 0
    for t in range(4):
        if t != s and hand & _bit(t * SUIT_SHIFT + r):
            same += 1
    if same >= 2:
        return True
    run = 0    # consecutive ranks held on each side, at most two counted
    for d in (-1, -2):
        q = r + d
        if q < 0 or not (hand & _bit(s * SUIT_SHIFT + q)):
            break
        run += 1
    for d in (1, 2):
        q = r + d
        if q >= N_RANKS or not (hand & _bit(s * SUIT_SHIFT + q)):
            break
        run += 1
    return run >= 2


@njit(cache=True)
def knock_threshold(srow, own_turn, stock_left):
    """Strategy's knock threshold on this turn (the rules' limit is applied by the caller)."""
    ga = srow[P_GIN_AFTER]
    if ga >= 0 and own_turn >= ga:
        return 0
    k = srow[P_KNOCK]
    km = srow[P_KNOCK_MID] if srow[P_KNOCK_MID] >= 0 else k
    kl = srow[P_KNOCK_LATE] if srow[P_KNOCK_LATE] >= 0 else k
    mid = srow[P_MID_FROM]
    late = srow[P_LATE_FROM]
    if srow[P_BUCKET_BY] == 0:
        if late >= 0 and own_turn >= late:
            return kl
        if mid >= 0 and own_turn >= mid:
            return km
        return k
    if late >= 0 and stock_left <= late:
        return kl
    if mid >= 0 and stock_left <= mid:
        return km
    return k


@njit(cache=True)
def _highest_deadwood(hand, forbidden, run_value, suit_total, rank_value):
    """The highest card (rank, then suit) not in ``forbidden`` that is deadwood in some
    minimum arrangement of ``hand`` (removing it lowers the deadwood by its value), with the
    deadwood left; (-1, 0) if there is none."""
    full = deadwood(hand, run_value, suit_total, rank_value)
    for r in range(N_RANKS - 1, -1, -1):
        for s in range(3, -1, -1):
            code = s * SUIT_SHIFT + r
            b = _bit(code)
            if hand & b and not (forbidden & b):
                d = deadwood(hand ^ b, run_value, suit_total, rank_value)
                if d == full - rank_value[r]:
                    return code, d
    return -1, 0


@njit(cache=True)
def choose_discard(srow, hand, forbidden, opp_picked, run_value, suit_total, rank_value, st):
    """Discard minimising deadwood_after + near_weight*near + opp_weight*danger; ties go to
    the highest card (or a random one with random_ties).  Returns (card code, deadwood after).
    ``forbidden``: mask of the card that may not be discarded; ``opp_picked``: the cards the
    opponents took from the pile (the union over the other seats).

    Cards are tried from the highest down; removing a card lowers deadwood by at most its value,
    so ``deadwood(hand) - value(card)`` bounds every later card's score from below (the weights
    are >= 0).  With deterministic ties (the first, highest card keeps a tie) the search stops
    once that bound reaches the best score (no later card can beat it); with random ties and
    both weights zero, once the bound exceeds it.  Exact, and most turns need one to three
    evaluations.  ``random_play``: a uniform random card of those allowed.  ``discard_rule=2``
    (MARJJ's, :func:`sim.strategies.marjj.marjj_discard`) needs the cards seen this hand and the
    turn: Gin's turn calls it; here, without them, the score above decides.
    """
    if srow[P_RANDOM_PLAY] != 0:
        code = uniform_card(hand & ~forbidden, st)
        return code, deadwood(hand ^ _bit(code), run_value, suit_total, rank_value)
    if srow[P_DISCARD_RULE] == 1:   # (rule 2 is played by the turn kernels that keep what was seen)
        code, d = _highest_deadwood(hand, forbidden, run_value, suit_total, rank_value)
        if code >= 0:
            return code, d
    near_w = srow[P_NEAR_W]
    opp_w = srow[P_OPP_W]
    rnd = srow[P_RANDOM_TIES] != 0
    prune = near_w == 0.0 and opp_w == 0.0
    det = not rnd
    full = deadwood(hand, run_value, suit_total, rank_value) if (prune or det) else 0
    best = 1e18
    best_code = -1
    best_dw = 0
    ties = 0
    for r in range(N_RANKS - 1, -1, -1):
        bound = full - rank_value[r]
        if (prune and bound > best) or (det and bound >= best - 1e-9):
            break
        for s in range(3, -1, -1):
            code = s * SUIT_SHIFT + r
            b = _bit(code)
            if not (hand & b) or (forbidden & b):
                continue
            if det and bound >= best - 1e-9:
                break
            # discard_score written out: as a call it cost Gin's hand kernel 7% (A/B, same sitting)
            rest = hand ^ b
            d = deadwood(rest, run_value, suit_total, rank_value)
            score = float(d)
            if near_w != 0.0:
                score += near_w * _near(rest, code)
            if opp_w != 0.0:
                score += opp_w * _danger(opp_picked, code)
            if score < best - 1e-9:
                best = score
                best_code = code
                best_dw = d
                ties = 1
            elif score <= best + 1e-9:
                ties += 1
                if rnd and rng.randint(st, ties) == 0:
                    best_code = code
                    best_dw = d
    return best_code, best_dw


@njit(cache=True)
def discard_score(hand, code, near_w, opp_w, opp_picked, run_value, suit_total, rank_value):
    """``(deadwood, score)`` of discarding ``code`` from ``hand``: the deadwood left, plus
    ``near_w`` per card left near it and ``opp_w`` per card of the opponent's pickups near it."""
    rest = hand ^ _bit(code)
    d = deadwood(rest, run_value, suit_total, rank_value)
    score = float(d)
    if near_w != 0.0:
        score += near_w * _near(rest, code)
    if opp_w != 0.0:
        score += opp_w * _danger(opp_picked, code)
    return d, score


@njit(cache=True)
def rank_discards(srow, hand, forbidden, opp_picked, run_value, suit_total, rank_value, codes, dws):
    """Every card of ``hand`` not in ``forbidden``, best first by :func:`choose_discard`'s
    score (deadwood after + near_weight*near + opp_weight*danger; ties: the higher card
    first, as it chooses), into ``codes`` and their deadwood after into ``dws`` (int64[11]);
    returns how many.  The search player's candidate discards."""
    near_w = srow[P_NEAR_W]
    opp_w = srow[P_OPP_W]
    scores = np.empty(codes.shape[0], dtype=np.float64)
    n = 0
    for r in range(N_RANKS - 1, -1, -1):
        for s in range(3, -1, -1):
            code = s * SUIT_SHIFT + r
            b = _bit(code)
            if not (hand & b) or (forbidden & b):
                continue
            d, score = discard_score(hand, code, near_w, opp_w, opp_picked, run_value, suit_total, rank_value)
            i = n                      # insertion sort, stable: equal scores keep card order
            while i > 0 and scores[i - 1] > score + 1e-9:
                scores[i] = scores[i - 1]
                codes[i] = codes[i - 1]
                dws[i] = dws[i - 1]
                i -= 1
            scores[i] = score
            codes[i] = code
            dws[i] = d
            n += 1
    return n


@njit(cache=True)
def wants_upcard(srow, hand, dw_hand, up, run_value, suit_total, rank_value):
    """Take the upcard?  Yes if ``upcard_knock`` >= 0 and a discard other than the upcard then
    leaves deadwood <= it; else upcard=0: it forms a meld (the 11-card deadwood drops below
    hand deadwood + its value); upcard=1: after the best legal discard deadwood drops by
    >= upcard_gain; upcard=2: it lies in some meld of the 11 cards (:func:`in_some_meld`);
    upcard=3: both 0 and 1 (MARJJ)."""
    b = _bit(up)
    h11 = hand | b
    if srow[P_UPCARD_KNOCK] >= 0:
        m = hand
        while m:
            low = m & (~m + np.uint64(1))
            if deadwood(h11 ^ low, run_value, suit_total, rank_value) <= srow[P_UPCARD_KNOCK]:
                return True
            m ^= low
    if srow[P_UPCARD] == 2:
        return in_some_meld(hand, up)
    if srow[P_UPCARD] == 0 or srow[P_UPCARD] == 3:
        if not _may_meld(hand, up):
            return False  # in no meld: the 11-card deadwood is exactly dw_hand + its value
        if not deadwood(h11, run_value, suit_total, rank_value) < dw_hand + rank_value[up & 15]:
            return False
        if srow[P_UPCARD] == 0:
            return True
    best = 1 << 30
    m = hand
    for code in range(64):
        bb = _bit(code)
        if m & bb:
            d = deadwood(h11 ^ bb, run_value, suit_total, rank_value)
            if d < best:
                best = d
    return best <= dw_hand - srow[P_UPCARD_GAIN]


@njit(cache=True)
def knock_threshold_opp(srow, own_turn, stock_left, n_opp):
    """:func:`knock_threshold` plus ``per_opp`` per opponent beyond the first (waiting for
    0 deadwood with ``gin_after`` is not shifted)."""
    ga = srow[P_GIN_AFTER]
    if ga >= 0 and own_turn >= ga:
        return 0.0
    return knock_threshold(srow, own_turn, stock_left) + srow[P_PER_OPP] * (n_opp - 1)


FAMILY = register(StrategyFamily(
    name="threshold",
    code=FAMILY_CODE,
    variants=("gin", "knock-rummy"),
    search_variants=("gin", "knock-rummy"),
    # Knock Rummy's search: the draw, the discard and the knock (the knock is the game), the
    # opponents of its rollouts playing its own heuristic, a smaller margin (sim/variants/knock_rummy_search.py)
    search_preset={"knock-rummy": {"search_worlds": float(SEARCH_WORLDS), "search_what": 7.0, "search_z": 1.0,
                                   "search_opp_knock": -1.0},
                   # Gin: the calibrated belief (docs/search-and-tuning.md, "The belief")
                   "gin": {"search_worlds": float(SEARCH_WORLDS), "search_belief": 1.0}},
    search_also={"gin": {"search-uniform": {"search_worlds": float(SEARCH_WORLDS)}}},   # the search before it
    params=PARAMS,
    slow_presets=("marjj",),   # a few hundred hands/s: the knock equilibrium plays it only when named
    doc="Knock-game heuristics: knock threshold by turn/stock bucket and opponent count, wait "
        "for gin/rummy, upcard rule, discard scoring, layoffs (Gin).",
    presets={
        "simple": {},
        "tracker": {"near_weight": 0.5, "opp_weight": 3.0},
        "gin-hunter": {"knock": 0},
        "patient": {"knock": 10, "knock_mid": 6, "knock_late": 3, "mid_from": 5, "late_from": 9},
        "openspiel-simple": {"upcard_knock": 10, "discard_rule": 1, "layoff": 0},
        "random": {"random_play": 1},
        "eaai-simple": {"upcard": 2, "random_ties": 1, "arrange": 2, "no_repeat": 1},
        "marjj": {"upcard": 3, "discard_rule": 2, "arrange": 3, "gin_after": 4},
    },
    # Knock Rummy (sweeps and the comparison: sim/variants/knock_rummy.py docstring)
    variant_presets={"knock-rummy": {
        "simple": {"knock": 15},
        "rummy-hunter": {"knock": 0},
        "hand-strong": {"knock": 40, "knock_mid": 30, "knock_late": 20, "mid_from": 3, "late_from": 6,
                   "per_opp": -2, "near_weight": 0.5, "opp_weight": 3.0},
        "random": {"random_play": 1},
    }},
))
