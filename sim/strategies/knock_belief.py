"""What a seat believes about its opponent's hand in a closed knock game: a particle filter.

The search player (:mod:`sim.search`) samples its worlds from here instead of dealing the
unseen cards uniformly: uniform worlds give the opponent a random hand, while a real opponent's
hand after a few turns holds melds and little deadwood (searching uniform worlds knocks and
discards as if the opponent could not go out, and loses to the heuristic it rolls out with).

``parts`` uint64[N] holds N guesses of the opponent's hand, ``wts`` float64[N] their weights.
Each of the opponent's turns moves every guess as the turn was seen (the card taken from the
pile, or a stock card drawn at random from the cards the guess leaves unseen; the discard
removed: a guess without the discarded card had it instead of a random card of its own) and
weighs it by how well it explains the turn, as a seat that discards to least deadwood and
takes the cards that help would play it: ``exp(-beta * the deadwood it gave away)``, the
deadwood the discard left above the least a legal discard could leave, plus, for a pass, what
taking the card would have saved.  Resampled (systematic) when the effective number of guesses
falls below half.  :func:`guess` gives a guess made consistent with what the seat sees now.
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit, mask_codes, popcount
from ..core.cards import N_RANKS, SUIT_SHIFT
from ..knock.melds import deadwood
from .knock import _near

_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True)
def _random_card(pool, st):
    """A uniformly random card of the mask ``pool`` (non-empty)."""
    k = rng.randint(st, popcount(pool))
    m = pool
    for _ in range(k):
        m &= m - _U1
    low = m & (~m + _U1)
    c = 0
    while (low >> np.uint64(c)) != _U1:
        c += 1
    return c


@njit(cache=True)
def _deal(pool, n, st):
    """``n`` random cards of ``pool`` as a mask."""
    h = _U0
    for _ in range(n):
        h |= bit(_random_card(pool & ~h, st))
    return h


@njit(cache=True)
def init(parts, wts, unseen, hand_size, st):
    """Every guess a random ``hand_size`` cards of ``unseen`` (the cards the seat has not
    seen at the deal), equal weights."""
    for i in range(parts.shape[0]):
        parts[i] = _deal(unseen, hand_size, st)
        wts[i] = 1.0


@njit(cache=True)
def _score(h, c, near_w, T_value, T_total, T_rank):
    """The heuristic's score of discarding card ``c`` from ``h`` (:func:`sim.strategies.knock.choose_discard`
    without the opponent term): the deadwood left plus ``near_w`` per card left near it."""
    rest = h ^ bit(c)
    return deadwood(rest, T_value, T_total, T_rank) + near_w * _near(rest, c)


@njit(cache=True)
def least_score(h, forbidden, near_w, T_value, T_total, T_rank):
    """The least :func:`_score` of a discard not in ``forbidden`` (highest cards first,
    stopping once a card's value cannot beat the best: the score of discarding a card is at
    least the deadwood of ``h`` less its value)."""
    full = deadwood(h, T_value, T_total, T_rank)
    best = 1e18
    for r in range(N_RANKS - 1, -1, -1):
        if full - T_rank[r] >= best:
            break
        for s in range(4):
            c = s * SUIT_SHIFT + r
            if h & bit(c) and not (forbidden & bit(c)):
                v = _score(h, c, near_w, T_value, T_total, T_rank)
                if v < best:
                    best = v
    return best


@njit(cache=True)
def passed(parts, wts, card, beta, near_w, T_value, T_total, T_rank):
    """The opponent drew from the stock instead of taking ``card``: each guess weighed by the
    deadwood taking it would have saved."""
    if beta == 0.0:
        return
    b = bit(card)
    for i in range(parts.shape[0]):
        h = parts[i]
        if h & b:
            continue
        gain = deadwood(h, T_value, T_total, T_rank) - least_score(h | b, b, near_w, T_value, T_total, T_rank)
        if gain > 0:
            wts[i] *= np.exp(-beta * gain)


@njit(cache=True)
def _lost(h, d, forb, near_w, T_value, T_total, T_rank):
    """What discarding card ``d`` from the cards ``h`` gives away: its :func:`_score` above the
    least of a discard not in ``forb``."""
    return _score(h, d, near_w, T_value, T_total, T_rank) - least_score(h, forb, near_w, T_value, T_total, T_rank)


@njit(cache=True)
def _draw_explaining(h, d, pool, drawn_discardable, beta, near_w, T_value, T_total, T_rank, st):
    """The stock card of a guess ``h`` (holding the discard ``d``) drawn in proportion to how
    well it explains the discard, ``exp(-beta * lost)`` (a fully adapted proposal).  Returns
    ``(h with it, the mean of those factors over the pool: the guess's weight factor)``."""
    q = np.empty(64, dtype=np.float64)
    codes = np.empty(64, dtype=np.int64)
    n = mask_codes(pool & ~h, codes)
    tot = 0.0
    for i in range(n):
        low = bit(codes[i])
        forb = _U0 if drawn_discardable else low
        lost = _lost(h | low, d, forb, near_w, T_value, T_total, T_rank)
        q[i] = np.exp(-beta * lost) if lost > 0 else 1.0
        tot += q[i]
    if n == 0:
        return h, 1.0
    u = rng.uniform(st) * tot
    k = 0
    acc = q[0]
    while acc < u and k < n - 1:
        k += 1
        acc += q[k]
    return h | bit(codes[k]), tot / n


@njit(cache=True)
def turn(parts, wts, took, disc, pool, drawn_discardable, beta, near_w, T_value, T_total, T_rank, st):
    """The opponent's turn: it took ``took`` from the pile (-1: drew from the stock) and
    discarded ``disc``.  ``pool``: the cards the seat has not seen now (the stock and the
    opponent's unknown cards).  Guesses moved, weighed and, if needed, resampled; the stock
    card of a guess is drawn by :func:`_draw_explaining`."""
    d = bit(disc)
    for i in range(parts.shape[0]):
        h = parts[i]
        if took >= 0:
            forb = bit(took)
            h |= forb
            if not (h & d):                       # it held the discard instead of a card of the guess
                h = (h & ~bit(_random_card(h & ~forb, st))) | d
            if beta != 0.0:
                lost = _lost(h, d, forb, near_w, T_value, T_total, T_rank)
                if lost > 0:
                    wts[i] *= np.exp(-beta * lost)
        elif not (h & d) and drawn_discardable:   # it drew the card it discarded
            h |= d
            if beta != 0.0:
                lost = _lost(h, d, _U0, near_w, T_value, T_total, T_rank)
                if lost > 0:
                    wts[i] *= np.exp(-beta * lost)
        else:
            if not (h & d):                       # it held the discard instead of a card of the guess
                h = (h & ~bit(_random_card(h, st))) | d
            h, f = _draw_explaining(h, d, pool, drawn_discardable, beta, near_w, T_value, T_total, T_rank, st)
            wts[i] *= f
        parts[i] = h ^ d
    _normalise(parts, wts, st)


@njit(cache=True)
def _normalise(parts, wts, st):
    """Weights to mean 1; systematic resampling when the effective sample size
    (sum w)^2 / sum w^2 falls below half the guesses (all weights 0: start again equal)."""
    n = parts.shape[0]
    s = 0.0
    s2 = 0.0
    for i in range(n):
        s += wts[i]
        s2 += wts[i] * wts[i]
    if s <= 0.0:
        wts[:] = 1.0
        return
    if s * s >= 0.5 * n * s2:
        for i in range(n):
            wts[i] *= n / s
        return
    old = parts.copy()
    step = s / n
    u = rng.uniform(st) * step
    j = 0
    acc = wts[0]
    for k in range(n):
        while acc < u and j < n - 1:
            j += 1
            acc += wts[j]
        parts[k] = old[j]
        u += step
    wts[:] = 1.0


@njit(cache=True)
def guess(parts, wts, u, unseen, known, size, st):
    """The guess the cumulative weight ``u`` (in [0, sum of wts)) falls on, made consistent with
    what the seat sees now: cards it has seen since replaced by random ``unseen`` ones, the
    ``known`` cards (taken from the pile, still held) in, ``size`` cards in all."""
    j = 0
    acc = wts[0]
    while acc <= u and j < parts.shape[0] - 1:
        j += 1
        acc += wts[j]
    h = (parts[j] & (unseen | known)) | known
    while popcount(h) > size:
        h &= ~bit(_random_card(h & ~known, st))
    while popcount(h) < size:
        h |= bit(_random_card(unseen & ~h, st))
    return h
