"""A checked history of the hand (:mod:`sim.advisors.history`) as the world kernels see it
(:func:`setup`, :func:`arrays`, :func:`tonk_arrays`), and the kernels that weigh a world by it:
sequential importance sampling of the opponents' observed turns, backwards from their hands
now (Gin and Knock Rummy: :func:`history_hands`, :func:`_weigh`; Tonk: :func:`weigh`).  It
sits with the strategies (like :mod:`.knock_belief`, the search player's belief) because it
asks how likely a strategy was to make the observed choices, and the games' advisor world
pieces (``sim/variants``) call its kernels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit, bit as _bit
from ..core.cards import card_text, standard_pack
from ..core.errors import AdviceError
from ..knock.melds import deadwood
from ..knock.table import U0, hand_value, meld_cards
from .knock import P_RANDOM_TIES, choose_discard, wants_upcard
from .tonk import choose_discard as tonk_choose_discard, wants_drop, wants_take


@dataclass(frozen=True)
class Seen:
    """What a world kernel needs of the history: ``H`` (:func:`arrays`; ``use`` False: no
    history), the turns each seat has played (mine including the current one) and the cards
    each took from the pile (masks)."""
    H: tuple
    own: np.ndarray
    picked: np.ndarray
    use: bool


def no_history(players: int, turn: int, hand_size: int) -> Seen:
    """No history: every seat drew from the stock on every turn."""
    return Seen(arrays(None, hand_size=hand_size, bars=None, drawn_discardable=False),
                np.array([turn] + [turn - 1] * (players - 1), np.int64),
                np.zeros(players, np.uint64), False)


def setup(k, hand, discard: int, *, hand_size: int, bars, drawn_discardable: bool):
    """The unseen cards (int64), the pile (bottom first) and the :class:`Seen` of a checked
    history ``k`` (:class:`sim.advisors.history.Known`); ``hand``: the cards I keep,
    ``discard``: my discard this turn."""
    placed = [c for s in range(1, k.n) for c in range(64) if k.retained[s] >> c & 1]
    seen = set(int(c) for c in hand) | {discard} | set(k.pile) | set(placed)
    pool = np.array([c for c in standard_pack() if int(c) not in seen], dtype=np.int64)
    H = arrays(k, hand_size=hand_size, bars=bars, drawn_discardable=drawn_discardable)
    n_unknown = H[8]
    if pool.size - int(n_unknown.sum()) != k.stock:
        raise ValueError("history: the unseen cards do not fill the opponents' hands and the stock")
    own = np.array([k.own[0] + 1] + k.own[1:], np.int64)
    return pool, np.array(k.pile, np.int64), Seen(H, own, np.array(k.picked, np.uint64), True)


def arrays(k, *, hand_size: int, bars, drawn_discardable: bool):
    """The kernel's view of ``k`` (a tuple of arrays; an empty one for no history): per
    opponent its turn records with ``bars[s][j]`` (it ends the hand on that turn iff its
    deadwood after the discard is <= the bar) and the cards it took before that turn and
    still held (``pin``), its retained pickups, how many unseen cards it holds and the first
    upcard it passed.  Raises AdviceError if an opponent discards more cards of unknown origin
    than it can have held: dealt, or drawn from the stock before (or, ``drawn_discardable``,
    on) the turn it discarded them."""
    n = k.n if k is not None else 1
    t_start = np.zeros(n + 1, np.int64)
    rows = []
    retained = np.zeros(n, np.uint64)
    n_unknown = np.zeros(n, np.int64)
    passed = np.full(n, -1, np.int64)
    for s in range(1, n):
        turns = k.turns[s]
        held = 0
        for j, (take, disc, top, _, _, others) in enumerate(turns):
            rows.append((take, disc, top, others, bars[s][j], held))
            if take >= 0:
                held |= 1 << take
            held &= ~(1 << disc)
        draws = [j for j, t in enumerate(turns) if t[0] < 0]
        for i, (c, j) in enumerate(sorted(k.unknown_origin[s], key=lambda x: x[1])):
            if hand_size + sum(1 for d in draws if d < j or (drawn_discardable and d == j)) <= i:
                raise AdviceError(f"history: seat {s} discards more cards it did not take from "
                                  f"the pile ({card_text(c)} on its turn {j + 1}) than it can "
                                  "have held by then")
        t_start[s + 1] = len(rows)
        retained[s] = np.uint64(k.retained[s])
        n_unknown[s] = hand_size - bin(k.retained[s]).count("1")
        passed[s] = k.passed_up if s == 1 else -1
    t_start[n:] = len(rows)
    return (t_start, *_columns(rows, np.int64, np.int64, np.int64, np.uint64, np.float64, np.uint64),
            retained, n_unknown, passed)


def tonk_arrays(k, n: int):
    """The kernel's view of the opponents' turns (:func:`weigh`): ``t_start`` int64[n+1] and
    per turn take, discard, played, top, hit mask, fewest cards of another seat, own turn,
    pickups held (columns as in ``TonkKnown.rows``)."""
    t_start = np.zeros(n + 1, np.int64)
    rows = []
    for s in range(1, n):
        rows += k.rows[s] if k is not None else []
        t_start[s + 1] = len(rows)
    return (t_start, *_columns(rows, np.int64, np.int64, np.uint64, np.int64, np.uint64, np.int64,
                               np.int64, np.uint64))


def _columns(rows: list[tuple], *dtypes) -> list[np.ndarray]:
    """The columns of ``rows`` (one tuple per turn) as arrays of ``dtypes``."""
    return [np.array([r[i] for r in rows], dtype=dt) for i, dt in enumerate(dtypes)]


@njit(cache=True, _nrt=True)     # (called from the advisor's draws, compiled without: it allocates)
def history_hands(H, strat, perm, pos, replay, drawn_discardable, big_gin, hands, T_value,
                  T_total, T_rank, ws):
    """Deal the opponents' hands of a world from the shuffled unseen cards ``perm[pos:]``:
    seat ``s`` holds its retained pickups and the next ``n_unknown[s]`` cards.  With
    ``replay`` (model "played"), weigh the world by its opponents' turns (:func:`_weigh`).
    Returns the position after the dealt cards and the world's weight (1 without
    ``replay``; 0: the world cannot have happened)."""
    t_start, t_take, t_disc, t_top, t_picked, t_bar, t_pin, retained, n_unknown, passed = H
    n = hands.shape[0]
    w = 1.0
    for s in range(1, n):
        h = retained[s]
        for j in range(n_unknown[s]):
            h |= _bit(perm[pos + j])
        hands[s] = h
        pos += n_unknown[s]
        if replay:
            w *= _weigh(strat[s], H, s, h, drawn_discardable, big_gin, T_value, T_total, T_rank, ws)
            if w == 0.0:
                break
    return pos, w


@njit(cache=True)
def _weigh(srow, H, s, final, drawn_discardable, big_gin, T_value, T_total, T_rank, ws):
    """Sequential importance sampling of seat ``s``'s turns, backwards from its hand now
    (``final``).  Before turn j it held ``H11 = hand after j + its discard`` minus the card
    it got: the known pickup, or a stock draw, any card of ``H11`` but its earlier pickups
    still held (``pin``) and, when the card just drawn may not be discarded, the discard.
    Under the uniform deal every such draw is equally likely, and their number ``e`` does not
    depend on the earlier choices.  The draw is picked uniformly among the ``g`` with which
    the strategy makes every choice of turn j (draw rather than take the pile top, the
    discard, no knock, gin or rummy) and the weight multiplied by ``g / e``; a pickup turn
    whose choices the strategy would not make, like the Gin first upcard it would have taken,
    gives weight 0.  The weight's mean over the uniform deal is the probability of the
    observed choices, so weighted worlds estimate the deal conditioned on them.  A random-tie
    strategy's tie-breaks are drawn (the weight stays unbiased)."""
    t_start, t_take, t_disc, t_top, t_picked, t_bar, t_pin, retained, n_unknown, passed = H
    rnd = srow[P_RANDOM_TIES] != 0
    cand = np.empty(16, dtype=np.int64)
    hand = final
    w = 1.0
    for j in range(t_start[s + 1] - 1, t_start[s] - 1, -1):
        y = t_disc[j]
        if deadwood(hand, T_value, T_total, T_rank) <= t_bar[j]:
            return 0.0
        h11 = hand | _bit(y)
        if big_gin and deadwood(h11, T_value, T_total, T_rank) == 0:
            return 0.0
        if t_take[j] >= 0:
            c = t_take[j]
            code, _ = choose_discard(srow, h11, _bit(c), t_picked[j], T_value, T_total, T_rank, ws)
            hand = h11 ^ _bit(c)
            if code != y or not wants_upcard(srow, hand, deadwood(hand, T_value, T_total, T_rank),
                                             t_top[j], T_value, T_total, T_rank):
                return 0.0
            continue
        elig = h11 & ~t_pin[j]
        if not drawn_discardable:
            elig &= ~_bit(y)
        z, _ = choose_discard(srow, h11, np.uint64(0), t_picked[j], T_value, T_total, T_rank, ws)
        alt = z
        if not drawn_discardable and not rnd and z != y:
            alt, _ = choose_discard(srow, h11, _bit(z), t_picked[j], T_value, T_total, T_rank, ws)
        e = 0
        g = 0
        for c in range(64):
            b = _bit(c)
            if not elig & b:
                continue
            e += 1
            if drawn_discardable:
                ok = z == y
            elif rnd:
                code, _ = choose_discard(srow, h11, b, t_picked[j], T_value, T_total, T_rank, ws)
                ok = code == y
            else:
                ok = z == y or (c == z and alt == y)
            rest = h11 ^ b      # it drew c: then it must not have wanted the pile's top
            if ok and not wants_upcard(srow, rest, deadwood(rest, T_value, T_total, T_rank), t_top[j],
                                       T_value, T_total, T_rank):
                cand[g] = c
                g += 1
        w, hand = _draw_back(w, h11, cand, g, e, ws)
        if w == 0.0:
            return 0.0
    if passed[s] >= 0 and wants_upcard(srow, hand, deadwood(hand, T_value, T_total, T_rank),
                                       passed[s], T_value, T_total, T_rank):
        return 0.0
    return w


@njit(cache=True, inline="always")
def _draw_back(w, held, cand, g, e, ws):
    """Undo a stock draw from ``held``: the card drawn is one of the ``g`` candidates
    ``cand[:g]``, picked uniformly, of the ``e`` it could have been; the weight ``w`` times
    ``g / e`` (0 when no card fits: the world cannot have happened)."""
    if g == 0:
        return 0.0, held
    return w * (g / e), held ^ bit(cand[rng.randint(ws, g)])


@njit(cache=True, _nrt=True)     # (as history_hands)
def weigh(srow, H, s, final, n, tonk_min, ws):
    """Sequential importance sampling of seat ``s``'s turns, backwards from its hand now
    (``final``), as :func:`_weigh` does for Gin: before its discard
    ``y`` of turn j it held ``A = hand after j + y``, before its spreads and hits ``B = A +
    the cards laid``, before its draw ``B`` minus the card it got: the known pickup, or a stock
    draw, any card of ``B`` but the pickups it held (``e`` of them, a number fixed by the
    history).  Its strategy must discard ``y`` from ``A`` (``choose_discard``), not have
    dropped at the start of the turn (``wants_drop``) and have taken or not taken the pile top
    (``wants_take``); the stock draw is picked uniformly among the ``g`` cards that make these
    choices and the weight multiplied by ``g / e``; a dealt hand counting ``tonk_min`` or more
    (a tonk on the deal) gives weight 0.  The spreads and hits themselves are not checked."""
    t_start, t_take, t_disc, t_played, t_top, t_hm, t_minopp, t_own, t_pin = H
    cand = np.empty(64, dtype=np.int64)
    hand = final
    w = 1.0
    for j in range(t_start[s + 1] - 1, t_start[s] - 1, -1):
        a = hand | bit(t_disc[j])
        taken = bit(t_take[j]) if t_take[j] >= 0 else U0
        if tonk_choose_discard(srow, a, taken, meld_cards(a)) != t_disc[j]:
            return 0.0
        b = a | t_played[j]
        if t_take[j] >= 0:
            hand = b ^ taken
            if wants_drop(srow, hand_value(hand), t_own[j], n, t_minopp[j]) or \
                    not wants_take(srow, hand, t_top[j], t_hm[j]):
                return 0.0
            continue
        elig = b & ~t_pin[j]
        e = 0
        g = 0
        for c in range(64):
            if not elig & bit(c):
                continue
            e += 1
            h = b ^ bit(c)      # it drew c: no drop at the start of the turn, no take of the top
            if not (wants_drop(srow, hand_value(h), t_own[j], n, t_minopp[j])
                    or (t_top[j] >= 0 and wants_take(srow, h, t_top[j], t_hm[j]))):
                cand[g] = c
                g += 1
        w, hand = _draw_back(w, b, cand, g, e, ws)
        if w == 0.0:
            return 0.0
    if hand_value(hand) >= tonk_min:
        return 0.0
    return w
