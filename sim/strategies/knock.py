"""The knock-game strategy family (Gin Rummy now; Knock Rummy and Ramino Klop later).

Parameters (kernel column = 1 + position in ``PARAMS``):

* knock thresholds by bucket: knock when the deadwood after the discard is <= the bucket's
  threshold (and the rules allow it).  Buckets are by own turn number (``bucket_by=0``:
  early before turn ``mid_from``, mid before ``late_from``, then late) or by stock size
  (``bucket_by=1``: early while the stock holds more than ``mid_from`` cards, mid while more
  than ``late_from``, then late).  ``knock_mid``/``knock_late`` = -1 reuse ``knock``.
* ``gin_after``: from this own turn on, knock only with gin (wait for gin).
* upcard rule: ``upcard=0`` take the upcard only if it forms a meld with the hand: the
  11-card deadwood is strictly below the hand's deadwood plus the upcard's value (it lies in
  a meld in every minimum arrangement of the 11 cards); ``upcard=1`` take it if, after the
  best legal discard, the deadwood drops by at least ``upcard_gain``.
* discard scoring: minimise ``deadwood_after + near_weight * near(c) + opp_weight * danger(c)``
  where ``near`` counts hand cards of the same rank or within two ranks in the same suit
  (cards that may still make melds) and ``danger`` is 1 when the opponent took from the
  discard pile a card of the same rank or within two ranks in the same suit.  Ties: the
  highest card (deterministic) or a random one (``random_ties=1``).
* ``layoff``: as defender, lay off onto the knocker's melds (1) or not (0).
* ``arrange``: as knocker, show any minimum-deadwood arrangement (0) or, among them, the one
  leaving the fewest layoff spots (1) (rules/gin.md [choice]).
"""

from . import Param, StrategyFamily, register

FAMILY_CODE = 1

PARAMS = (
    Param("knock", 10, 0, 100, "knock when deadwood <= this (early bucket, or all turns)", True),
    Param("knock_mid", -1, -1, 100, "threshold in the mid bucket (-1: same as knock)", True),
    Param("knock_late", -1, -1, 100, "threshold in the late bucket (-1: same as knock)", True),
    Param("bucket_by", 0, 0, 1, "0: buckets by own turn number, 1: by cards left in stock", True),
    Param("mid_from", -1, -1, 99, "own turn (bucket_by=0) or stock size (bucket_by=1) where mid starts; -1 none", True),
    Param("late_from", -1, -1, 99, "own turn (bucket_by=0) or stock size (bucket_by=1) where late starts; -1 none", True),
    Param("gin_after", -1, -1, 99, "from this own turn on, knock only with gin; -1 never", True),
    Param("upcard", 0, 0, 1, "0: take upcard if it forms a meld; 1: if it lowers deadwood by >= upcard_gain", True),
    Param("upcard_gain", 1, 0, 100, "deadwood drop needed to take the upcard with upcard=1"),
    Param("near_weight", 0, 0, 10, "discard score weight for cards that may still make melds"),
    Param("opp_weight", 0, 0, 50, "discard score penalty for cards near the opponent's pickups"),
    Param("layoff", 1, 0, 1, "lay off onto the knocker's melds as defender", True),
    Param("random_ties", 0, 0, 1, "break discard ties at random instead of highest card", True),
    Param("arrange", 0, 0, 1, "as knocker, show 0: any min-deadwood arrangement; 1: the one "
                              "leaving the fewest layoff spots", True),
)

(P_KNOCK, P_KNOCK_MID, P_KNOCK_LATE, P_BUCKET_BY, P_MID_FROM, P_LATE_FROM, P_GIN_AFTER,
 P_UPCARD, P_UPCARD_GAIN, P_NEAR_W, P_OPP_W, P_LAYOFF, P_RANDOM_TIES, P_ARRANGE) = range(1, len(PARAMS) + 1)

FAMILY = register(StrategyFamily(
    name="threshold",
    code=FAMILY_CODE,
    variants=("gin",),
    params=PARAMS,
    doc="Knock-game heuristics: knock threshold by turn/stock bucket, wait for gin, "
        "upcard rule, discard scoring, layoffs.",
    presets={
        "simple": {},
        "tracker": {"near_weight": 0.5, "opp_weight": 3.0},
        "gin-hunter": {"knock": 0},
        "patient": {"knock": 10, "knock_mid": 6, "knock_late": 3, "mid_from": 5, "late_from": 9},
    },
))
