"""MARJJ's Gin policy: the kernels of the knock family's ``marjj`` modes.

MARJJ is the team of the EAAI-2021 Gin Rummy winner; this is rummylab's own implementation
of the policy of its later public player (github aqib-a99/MARJJ, ``MARJJ_v5-1.java``, read,
not copied), played under the ``eaai`` rule set.  What it keeps of the hand is what rummylab's
engine keeps: ``opp``, the cards the opponent took from the discard pile this hand (kept after
it discards them again, as MARJJ keeps them), and ``seen``, the cards it has held or seen face
up (its hands, the discard pile, the cards taken from it).

* the discard (:func:`marjj_discard`, ``discard_rule=2``): the candidates are the cards that
  are deadwood in some minimum arrangement of the 11 cards, worth at least the most valuable
  of them minus :data:`WITHIN` (all the cards when none is deadwood); a discard leaving gin is
  taken at once; else each candidate scores the deadwood it leaves, plus :data:`LOOK_WEIGHT`
  times ``LOOK_DECAY ** (turn - 1)`` times the mean of the :data:`LOOK_BEST` lowest deadwoods
  after drawing an unseen card and discarding best (a one-ply look-ahead of the draw), plus
  its danger (:func:`danger`); the lowest score wins, ties at random.
* the spread (:func:`arrangement_marjj`, ``arrange=3``, as knocker and as defender): among
  the minimum-deadwood arrangements, the one with the fewest lay-off points (:func:`spread_points`).

* the upcard (:func:`marjj_takes`, ``upcard=3`` in Gin's turn): in a meld of the arrangement
  of the 11 cards that the spread rule picks, and a discard then lowers the deadwood.

Without what was seen (the knock family's :func:`~sim.strategies.knock.wants_upcard`)
``upcard=3`` asks for a meld in every minimum arrangement instead; the knock (``knock`` 10 on its first three turns, then gin
only: ``gin_after=4``) are the knock family's own kernels (:mod:`sim.strategies.knock`).
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit as _bit
from ..core.cards import N_RANKS, SUIT_SHIFT
from ..knock.melds import MAX_MELDS, SET, best_discards, chosen, deadwood, min_arrangements

WITHIN = 5             # candidates: worth at least the most valuable deadwood card minus this
LOOK_WEIGHT = 18.0     # weight of the look-ahead's mean deadwood on the first turn
LOOK_DECAY = 0.9       # the weight's factor per own turn
LOOK_BEST = 7          # the look-ahead averages the lowest deadwoods of this many draws
# danger: bonuses (< 0) for a card the opponent cannot meld, penalties (> 0) for one it may
RUN_BONUS, NEXT_BONUS, GAP_BONUS = -10.0, -5.0, -3.0       # suit neighbours unavailable
RUN_PENALTY, NEXT_PENALTY, GAP_PENALTY = 20.0, 5.0, 3.0    # suit neighbours the opponent's
SET_BONUS, RANK_BONUS, SET_PENALTY, RANK_PENALTY = -10.0, -4.0, 20.0, 4.0
# the next suit in the Java framework's suit order (C, H, S, D), in rummylab's suit numbers
# (S, H, D, C): MARJJ's set lay-off points look at the card of the next suit of each card
NEXT_SUIT = np.array([2, 0, 3, 1], dtype=np.int64)
FULL52 = np.uint64(sum(1 << (s * SUIT_SHIFT + r) for s in range(4) for r in range(N_RANKS)))


@njit(cache=True)
def _look(code, hand, opp, known):
    """(the opponent's, unavailable) for card ``code``: it took the card from the pile; else
    the card is held or seen (``known``)."""
    b = _bit(code)
    if opp & b:
        return True, False
    return False, (hand | known) & b != 0


@njit(cache=True)
def _sides(o_lo, o_hi, o_lo2, o_hi2, big, one, two):
    """MARJJ's score of the suit neighbours of one kind: ``big`` when the card below and one
    above, or the card above and one below, are of that kind; else ``one`` per next card and
    ``two`` per card two ranks away."""
    if (o_hi and (o_lo or o_lo2)) or (o_lo and (o_hi or o_hi2)):
        return big
    return one * o_lo + one * o_hi + two * o_lo2 + two * o_hi2


@njit(cache=True)
def danger(code, hand, opp, seen):
    """MARJJ's danger score of discarding ``code`` (lower is safer): bonuses when the suit
    neighbours and the same-rank cards are held or seen (``hand``, ``seen``), penalties when
    the opponent took them from the pile (``opp``).  As the Java player scores it: the card
    itself counts among its rank's unavailable cards, a queen's missing second neighbour above
    marks the king unavailable, and the one-card rank penalty goes with one unavailable card of
    the rank (the card itself), not with one card of the opponent's."""
    r = code & 15
    s = code >> 4
    base = s * SUIT_SHIFT
    o_hi, u_hi = _look(base + r + 1, hand, opp, seen) if r < 12 else (False, True)
    o_lo, u_lo = _look(base + r - 1, hand, opp, seen) if r > 0 else (False, True)
    o_hi2, u_hi2 = _look(base + r + 2, hand, opp, seen) if r < 11 else (False, False)
    if r >= 11:
        u_hi = True
    o_lo2, u_lo2 = _look(base + r - 2, hand, opp, seen) if r > 1 else (False, True)
    ev = _sides(u_lo, u_hi, u_lo2, u_hi2, RUN_BONUS, NEXT_BONUS, GAP_BONUS)
    ev += _sides(o_lo, o_hi, o_lo2, o_hi2, RUN_PENALTY, NEXT_PENALTY, GAP_PENALTY)
    n_opp = 0
    n_un = 0
    for t in range(4):
        o, u = _look(t * SUIT_SHIFT + r, hand, opp, seen)
        n_opp += o
        n_un += u
    if n_un >= 3:
        ev += SET_BONUS
    elif n_un == 2:
        ev += RANK_BONUS
    if n_opp >= 2:
        ev += SET_PENALTY
    elif n_un == 1:
        ev += RANK_PENALTY
    return ev


@njit(cache=True)
def lookahead(rest, unseen, run_value, suit_total, rank_value):
    """Mean of the :data:`LOOK_BEST` lowest deadwoods of ``rest`` (10 cards) after drawing one
    card of ``unseen`` and discarding best (the drawn card too); 0 with no unseen card."""
    counts = np.zeros(128, dtype=np.int64)
    m = unseen
    while m:
        low = m & (~m + np.uint64(1))
        best, _ = best_discards(rest | low, np.uint64(0), run_value, suit_total, rank_value)
        counts[best] += 1
        m ^= low
    total = 0.0
    n = 0
    for d in range(128):
        while counts[d] > 0 and n < LOOK_BEST:
            total += d
            n += 1
            counts[d] -= 1
        if n == LOOK_BEST:
            break
    return total / n if n > 0 else 0.0


@njit(cache=True)
def _candidates(hand, forbidden, run_value, suit_total, rank_value, codes, dws):
    """MARJJ's candidate discards into ``codes``/``dws`` (card, deadwood left); returns how
    many, or -1 when ``codes[0]`` leaves gin (taken at once)."""
    full = deadwood(hand, run_value, suit_total, rank_value)
    n = 0
    top = 0
    for code in range(64):
        b = _bit(code)
        if hand & b and not (forbidden & b):
            d = deadwood(hand ^ b, run_value, suit_total, rank_value)
            v = rank_value[code & 15]
            if d == full - v:           # deadwood in some minimum arrangement
                codes[n] = code
                dws[n] = d
                n += 1
                top = max(top, v)
    if n > 0:
        k = 0
        for i in range(n):
            if rank_value[codes[i] & 15] >= top - WITHIN:
                codes[k] = codes[i]
                dws[k] = dws[i]
                k += 1
        return k
    for code in range(64):               # every card is in a meld: all of them
        b = _bit(code)
        if hand & b and not (forbidden & b):
            codes[n] = code
            dws[n] = deadwood(hand ^ b, run_value, suit_total, rank_value)
            n += 1
    low = dws[0]
    for i in range(n):
        if dws[i] == 0:
            codes[0] = codes[i]
            dws[0] = 0
            return -1
        low = min(low, dws[i])
    k = 0
    for i in range(n):
        if dws[i] <= low + WITHIN:
            codes[k] = codes[i]
            dws[k] = dws[i]
            k += 1
    return k


@njit(cache=True)
def discard_scores(hand, forbidden, opp, seen, turn, run_value, suit_total, rank_value, codes, dws, scores):
    """MARJJ's candidate discards from the 11 cards ``hand`` on its own turn ``turn`` (1 = its
    first discard of the hand), never a card of ``forbidden`` (``opp``, ``seen``: the module
    doc), into ``codes`` (int64[11]), the deadwood each leaves into ``dws`` and its score (the
    lowest is played) into ``scores``; returns how many, or -1 when ``codes[0]`` is played at
    once (the only candidate, or a discard to gin)."""
    n = _candidates(hand, forbidden, run_value, suit_total, rank_value, codes, dws)
    if n <= 1:
        return -1
    for i in range(n):
        if dws[i] == 0:
            codes[0] = codes[i]
            dws[0] = 0
            return -1
    unseen = FULL52 & ~(seen | hand)
    decay = LOOK_DECAY ** (turn - 1)
    for i in range(n):
        rest = hand ^ _bit(codes[i])
        mine = dws[i] + LOOK_WEIGHT * lookahead(rest, unseen, run_value, suit_total, rank_value) * decay
        scores[i] = mine + danger(codes[i], hand, opp, seen)
    return n


@njit(cache=True)
def marjj_discard(hand, forbidden, opp, seen, turn, run_value, suit_total, rank_value, st):
    """MARJJ's discard (:func:`discard_scores`): the lowest score, ties at random from ``st``.
    Returns (card code, deadwood after)."""
    codes = np.empty(11, dtype=np.int64)
    dws = np.empty(11, dtype=np.int64)
    scores = np.empty(11, dtype=np.float64)
    n = discard_scores(hand, forbidden, opp, seen, turn, run_value, suit_total, rank_value, codes, dws, scores)
    if n < 0:
        return codes[0], dws[0]
    best = 1e300
    pick = 0
    ties = 0
    for i in range(n):
        if scores[i] < best:
            best = scores[i]
            pick = i
            ties = 1
        elif scores[i] == best:
            ties += 1
            if rng.randint(st, ties) == 0:
                pick = i
    return codes[pick], dws[pick]


@njit(cache=True)
def _open(code, opp, seen):
    """MARJJ's test of a lay-off card: the opponent took it from the pile, or it is unseen."""
    b = _bit(code)
    return (opp & b) != 0 or (seen & b) == 0


@njit(cache=True)
def spread_points(melds, n, opp, seen, rank_value):
    """MARJJ's lay-off points of an arrangement (meld records of :mod:`sim.knock.melds`): per
    run, the value of its lowest card if the card below is open (:func:`_open`) and of its
    highest if the card above is; per set, the value of each card whose same-rank card of the
    next suit (:data:`NEXT_SUIT`) is open (for a three-card set: its missing card)."""
    pts = 0
    for i in range(n):
        if melds[i, 0] == SET:
            r = melds[i, 1]
            for s in range(4):
                if (melds[i, 2] >> s) & 1 and _open(NEXT_SUIT[s] * SUIT_SHIFT + r, opp, seen):
                    pts += rank_value[r]
        else:
            s, lo, hi = melds[i, 1], melds[i, 2], melds[i, 3]
            if lo > 0 and _open(s * SUIT_SHIFT + lo - 1, opp, seen):
                pts += rank_value[lo]
            if hi < 12 and _open(s * SUIT_SHIFT + hi + 1, opp, seen):
                pts += rank_value[hi]
    return pts


@njit(cache=True)
def arrangement_marjj(mask, opp, seen, run_value, run_cover, run_starts, suit_total, rank_value, melds_out):
    """Among the minimum-deadwood arrangements of ``mask``, the one with the fewest lay-off
    points (:func:`spread_points`; ties: the first found).  Same returns as
    :func:`sim.knock.melds.arrangement`."""
    dw, melds, n_melds, melded = min_arrangements(mask, run_value, run_cover, run_starts, suit_total, rank_value)
    pick = 0
    fewest = 1 << 30
    for i in range(n_melds.shape[0]):
        pts = spread_points(melds[i], n_melds[i], opp, seen, rank_value)
        if pts < fewest:
            fewest = pts
            pick = i
    return chosen(dw, melds, n_melds, melded, mask, pick, melds_out)


@njit(cache=True)
def marjj_takes(hand, dw_hand, up, opp, seen, run_value, run_cover, run_starts, suit_total, rank_value):
    """MARJJ's upcard (``upcard=3`` where the turn knows what the seat has seen): take ``up``
    when it lies in a meld of the arrangement of the 11 cards its spread rule picks
    (:func:`arrangement_marjj`, the upcard seen) and a discard other than it then leaves less
    deadwood than the hand's ``dw_hand``."""
    b = _bit(up)
    h11 = hand | b
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    _, n, dead = arrangement_marjj(h11, opp, seen | b, run_value, run_cover, run_starts, suit_total, rank_value, melds)
    if n == 0 or dead & b:
        return False
    best, _ = best_discards(h11, b, run_value, suit_total, rank_value)
    return best < dw_hand
