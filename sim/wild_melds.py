"""Exact minimum deadwood for multiset hands (two packs) with wild cards.

Rule sets (``GAMES``; the rules are in shared/rules/):

=============  =====  ========  =========  ============  ===============  ==========================
game           packs  jokers    wilds      meld sizes    aces             set: naturals per suit
=============  =====  ========  =========  ============  ===============  ==========================
ramino-klop    2      4         jokers     3-4           low only         1 (2 with set_duplicates)
wildcard       1|2    2|4       jokers, 2s 3+ (run<=13)  high or low      ``packs`` (set <= 4*packs)
cincinnati     1|2    2|4       jokers     3+ (run<=13)  high or low      ``packs`` (set <= 4*packs)
=============  =====  ========  =========  ============  ===============  ==========================

Every meld holds at least one natural card (a Wildcard 2 playing itself is natural); a run never
goes round the corner (K-A-2).  Values: Ramino A 1, 2-10 face, J Q K 10, joker 20; Wildcard A 11,
3-10 face, J Q K 10, jokers and 2s 25; Cincinnati A 11, 2-10 face, J Q K 10, joker 15.

Method (exact).  A meld is described by its natural cards plus a number of wilds.  For given
naturals the fewest wilds needed are fixed (set of k naturals: ``max(0, 3-k)``; run whose
naturals span ``span`` positions: the gaps plus ``max(0, 3-span)``), and every further wild can
be absorbed by any meld with room left (``capacity`` = longest legal size minus the size used).
So the minimum deadwood is the minimum, over collections of disjoint natural "meld cores"
needing ``U`` wilds in total with room ``C``, of ``dead naturals + wild value * max(0, W-U-C)``
subject to ``U <= W`` (``W`` the wild count).  The kernel enumerates the collections by a
depth-first search: the first remaining natural card (suit-major, rank ascending, so aces
first) is either deadwood or belongs to a core containing it -- a set at its rank (every
choice of copies per suit within the limits) or a run in its suit (every subset of the
higher naturals of that suit within the longest run, aces also played high downwards from
position 13).  Branches are cut when the dead naturals reach the best value found or when the
wilds needed exceed those that could still exist.  In Wildcard each 2 is also offered as a
wild (its "deadwood" branch: an unplaced wild costs the same 25).  Dominated cores are not
tried: a one-natural set (the one-natural run needs the same wilds and, runs being never
shorter than sets, as much room), an ace alone played high (the same as played low) and, in
Wildcard, any core holding a natural 2 with other naturals (the 2 played wild in its place
leaves the deadwood and the spare wilds the same).  ``wild_deadwood_rate()`` measures the speed.

Kernels take plain arrays: ``counts`` int64[64] (index = card code, index 13 = jokers) and a
parameter vector ``params`` int64[8] (``_P_*``); the recursive search works in one int64
workspace (``_W_*``: counts, parameters, values, best, meld stacks), as every array argument
of a recursive call costs time.  Meld records are int64 rows
``(kind, suit, anchor, naturals, wilds, direction)``: a set ``(0, -, rank, 2-bit copies per
suit, wilds, 0)``; a run ``(1, suit, anchor position, bitmask of natural offsets from the
anchor, wilds, +1|-1)`` (position 13 = ace high); a 2 played wild ``(2, -, code, 0, 0, 0)``.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit

from .cards import JOKER, CardError, card_code, cards_text, parse_cards, value_table

_P_WILD_VALUE, _P_SUIT_LIMIT, _P_SET_MAX, _P_RUN_MAX, _P_ACE_HIGH, _P_TWOS_WILD = range(6)
MAX_DEPTH = 32
# kernel workspace int64[_W_SIZE]: hand counts [0, 64), parameters, values, best, stacks, run offsets
_W_P, _W_VALS, _W_BEST = 64, 72, 136
_W_STACK = 138
_W_BSTACK = _W_STACK + 6 * MAX_DEPTH
_W_OFFS = _W_BSTACK + 6 * MAX_DEPTH
_W_SIZE = _W_OFFS + 16 * MAX_DEPTH


class Game(NamedTuple):
    name: str
    values: np.ndarray   # int64[64] penalty/score value per code (13 = joker)
    params: np.ndarray   # int64[8] kernel parameters
    packs: int
    jokers: int


def game_rules(game: str = "ramino-klop", *, packs: int | None = None,
               set_duplicates: bool = False) -> Game:
    """Kernel tables of a rule set; raises ValueError (UserInputError) for unknown names."""
    from .errors import UserInputError
    if game == "ramino-klop":
        if packs not in (None, 2):
            raise UserInputError("ramino-klop is played with two packs (packs=2)")
        values = value_table(ace=1, face=10, joker=20)
        params = [20, 2 if set_duplicates else 1, 4, 4, 0, 0, 0, 0]
        packs = 2
    elif game in ("wildcard", "cincinnati"):
        packs = 1 if packs is None else packs
        if packs not in (1, 2):
            raise UserInputError(f"{game} is played with one or two packs, not {packs}")
        if set_duplicates:
            raise UserInputError("set_duplicates is a ramino-klop option")
        wild = game == "wildcard"
        values = value_table(ace=11, face=10, joker=25 if wild else 15)
        if wild:
            for s in range(4):
                values[card_code(1, s)] = 25
        params = [25 if wild else 15, packs, 4 * packs, 13, 1, int(wild), 0, 0]
    else:
        raise UserInputError(f"unknown game {game!r}: use 'ramino-klop', 'wildcard' or 'cincinnati'")
    return Game(game, values, np.array(params, dtype=np.int64), packs, 2 * packs)


# ----------------------------------------------------------------------------------------
# kernels


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def _search(ws, start, dead, used, cap, wild, rem2, depth):
    """Depth-first search over meld cores in the workspace ``ws`` (``_W_*``: the naturals
    not yet placed, parameters, values, best = (deadwood, depth), meld stacks, run offsets);
    one array argument keeps the recursive calls cheap."""
    if dead >= ws[_W_BEST + 0]:
        return 0
    c = start
    while c < 64 and ws[c] == 0:
        c += 1
    if c == 64:
        if used <= wild:
            free = wild - used - cap
            d = dead + (ws[_W_P + _P_WILD_VALUE] * free if free > 0 else 0)
            if d < ws[_W_BEST + 0]:
                ws[_W_BEST + 0] = d
                ws[_W_BEST + 1] = depth
                for i in range(depth):
                    for j in range(6):
                        ws[_W_BSTACK + 6 * i + j] = ws[_W_STACK + 6 * i + j]
        return 0
    s = c >> 4
    r = c & 15
    lim = ws[_W_P + _P_SUIT_LIMIT]
    set_max = ws[_W_P + _P_SET_MAX]
    run_max = ws[_W_P + _P_RUN_MAX]
    is2 = ws[_W_P + _P_TWOS_WILD] == 1 and r == 1
    # sets at rank r: copies k_t per suit t >= s, at least one of suit s
    a0 = min(ws[r], lim)
    a1 = min(ws[16 + r], lim)
    a2 = min(ws[32 + r], lim)
    a3 = min(ws[48 + r], lim)
    if is2:
        # a natural 2 melded with other naturals does no better than the 2 played wild in
        # its place (same deadwood, wilds to spare and room); so sets of 2s are skipped, a
        # run from a 2 is the 2 alone and a run from a lower card skips the 2
        a0 = a1 = a2 = a3 = 0
    for k0 in range(a0 + 1):
        for k1 in range(a1 + 1):
            for k2 in range(a2 + 1):
                for k3 in range(a3 + 1):
                    ks = k0 if s == 0 else (k1 if s == 1 else (k2 if s == 2 else k3))
                    if ks == 0:
                        continue
                    k = k0 + k1 + k2 + k3
                    if k == 1:
                        continue  # the one-natural run (never shorter) covers it
                    m = 3 - k if k < 3 else 0
                    if k + m > set_max:
                        continue
                    r2 = rem2 - k if is2 else rem2
                    if used + m > wild + r2:
                        continue
                    ws[r] -= k0
                    ws[16 + r] -= k1
                    ws[32 + r] -= k2
                    ws[48 + r] -= k3
                    ws[_W_STACK + 6 * depth + 0] = 0
                    ws[_W_STACK + 6 * depth + 1] = s
                    ws[_W_STACK + 6 * depth + 2] = r
                    ws[_W_STACK + 6 * depth + 3] = k0 | (k1 << 2) | (k2 << 4) | (k3 << 6)
                    ws[_W_STACK + 6 * depth + 4] = m
                    ws[_W_STACK + 6 * depth + 5] = 0
                    _search(ws, c, dead, used + m, cap + set_max - k - m, wild, r2, depth + 1)
                    ws[r] += k0
                    ws[16 + r] += k1
                    ws[32 + r] += k2
                    ws[48 + r] += k3
    # runs in suit s through c: upwards from position r; an ace also downwards from 13
    n_dir = 2 if (r == 0 and ws[_W_P + _P_ACE_HIGH] == 1) else 1
    for di in range(n_dir):
        step = 1 if di == 0 else -1
        anchor = r if di == 0 else 13
        n = 0
        for d in range(1, run_max):
            q = anchor + step * d
            if q < 1 or q > 12:
                break
            if is2:
                break
            if ws[(s << 4) + q] > 0 and not (q == 1 and ws[_W_P + _P_TWOS_WILD] == 1):
                ws[_W_OFFS + 16 * depth + n] = d
                n += 1
        for mask in range(di, 1 << n):  # an ace alone downwards repeats it upwards
            top = 0
            k = 1
            n2 = 1 if is2 else 0
            nat = 1
            for i in range(n):
                if (mask >> i) & 1:
                    d = ws[_W_OFFS + 16 * depth + i]
                    top = d
                    k += 1
                    nat |= 1 << d
                    if ws[_W_P + _P_TWOS_WILD] == 1 and anchor + step * d == 1:
                        n2 += 1
            span = top + 1
            m = span - k + (3 - span if span < 3 else 0)
            if used + m > wild + rem2 - n2:
                continue
            for i in range(n):
                if (mask >> i) & 1:
                    ws[(s << 4) + anchor + step * ws[_W_OFFS + 16 * depth + i]] -= 1
            ws[c] -= 1
            ws[_W_STACK + 6 * depth + 0] = 1
            ws[_W_STACK + 6 * depth + 1] = s
            ws[_W_STACK + 6 * depth + 2] = anchor
            ws[_W_STACK + 6 * depth + 3] = nat
            ws[_W_STACK + 6 * depth + 4] = m
            ws[_W_STACK + 6 * depth + 5] = step
            _search(ws, c, dead, used + m, cap + run_max - (span if span > 3 else 3), wild, rem2 - n2,
                    depth + 1)
            ws[c] += 1
            for i in range(n):
                if (mask >> i) & 1:
                    ws[(s << 4) + anchor + step * ws[_W_OFFS + 16 * depth + i]] += 1
    # c left out: deadwood, or (a Wildcard 2) played as a wild
    ws[c] -= 1
    if is2:
        ws[_W_STACK + 6 * depth + 0] = 2
        ws[_W_STACK + 6 * depth + 2] = c
        _search(ws, c, dead, used, cap, wild + 1, rem2 - 1, depth + 1)
    elif dead + ws[_W_VALS + c] < ws[_W_BEST + 0]:
        _search(ws, c, dead + ws[_W_VALS + c], used, cap, wild, rem2, depth)
    ws[c] += 1
    return 0


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def _min_deadwood_into(ws, best_stack):
    """Exact minimum deadwood of the hand in ``ws[:64]`` (a workspace from ``new_workspace``;
    index 13 = jokers; restored on return).  Fills ``best_stack`` int64[MAX_DEPTH, 6] with
    the meld records; returns (deadwood, n)."""
    jokers = ws[13]
    ws[13] = 0
    total = jokers * ws[_W_VALS + 13]
    rem2 = 0
    for c in range(64):
        total += ws[c] * ws[_W_VALS + c]
        if ws[_W_P + _P_TWOS_WILD] == 1 and (c & 15) == 1:
            rem2 += ws[c]
    ws[_W_BEST] = total + 1
    ws[_W_BEST + 1] = 0
    _search(ws, 0, 0, 0, 0, jokers, rem2, 0)
    ws[13] = jokers
    n = ws[_W_BEST + 1]
    for i in range(n):
        for j in range(6):
            best_stack[i, j] = ws[_W_BSTACK + 6 * i + j]
    return ws[_W_BEST], n


@njit(cache=False)
def new_workspace(P, vals):
    """A kernel workspace int64[_W_SIZE] holding the rule set's parameters ``P``
    (``Game.params``) and values (``Game.values``); the hand goes in ``ws[:64]`` (index 13 =
    jokers).  Game kernels keep one per seat and update its counts as cards come and go."""
    ws = np.zeros(_W_SIZE, dtype=np.int64)
    ws[_W_P:_W_P + 8] = P
    ws[_W_VALS:_W_VALS + 64] = vals
    return ws


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def ws_deadwood(ws):
    """Exact minimum deadwood of the hand in ``ws[:64]`` (restored on return)."""
    bs = np.empty((MAX_DEPTH, 6), dtype=np.int64)
    return _min_deadwood_into(ws, bs)[0]


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def ws_discards(ws, out):
    """``out`` int64[64]: the exact deadwood of the hand in ``ws[:64]`` less one copy of each
    held code (-1 for codes not held); ``ws`` restored on return."""
    bs = np.empty((MAX_DEPTH, 6), dtype=np.int64)
    for c in range(64):
        out[c] = -1
        if ws[c] > 0:
            ws[c] -= 1
            out[c] = _min_deadwood_into(ws, bs)[0]
            ws[c] += 1


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def _min_deadwood(counts, P, vals, best_stack):
    """As ``_min_deadwood_into`` for one hand ``counts`` int64[64] (not modified)."""
    ws = new_workspace(P, vals)
    ws[:64] = counts
    return _min_deadwood_into(ws, best_stack)


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def _deadwood_many(counts, P, vals, out):
    """Batch: ``counts`` uint8[n, 64] -> ``out`` int64[n] minimum deadwood."""
    bs = np.zeros((MAX_DEPTH, 6), dtype=np.int64)
    ws = new_workspace(P, vals)
    for i in range(counts.shape[0]):
        for c in range(64):
            ws[c] = counts[i, c]
        out[i] = _min_deadwood_into(ws, bs)[0]


@njit(cache=False)  # recursive kernels crash when loaded from numba's cache
def _discards(counts, P, vals, out):
    """``out`` int64[64]: deadwood of the hand less one copy of each held code (else -1)."""
    ws = new_workspace(P, vals)
    ws[:64] = counts
    ws_discards(ws, out)


# ----------------------------------------------------------------------------------------
# Python API


class WildArrangement(NamedTuple):
    """Fields hold card codes.  ``stands_for[i][j]`` is the card that ``melds[i][j]`` plays
    as (itself for a natural card); the repr shows wilds as ``X=7H``."""
    deadwood: int
    melds: tuple[tuple[int, ...], ...]
    stands_for: tuple[tuple[int, ...], ...]
    deadwood_cards: tuple[int, ...]

    def __repr__(self) -> str:
        parts = []
        for meld, played in zip(self.melds, self.stands_for):
            parts.append("[" + " ".join(cards_text([a]) if a == b else f"{cards_text([a])}={cards_text([b])}"
                                        for a, b in zip(meld, played)) + "]")
        return (f"WildArrangement(deadwood={self.deadwood}, melds={' '.join(parts) or 'none'}, "
                f"deadwood_cards={cards_text(self.deadwood_cards) or 'none'})")


class WildDiscard(NamedTuple):
    deadwood: int
    discards: tuple[int, ...]

    def __repr__(self) -> str:
        return f"WildDiscard(deadwood={self.deadwood}, discards={cards_text(self.discards) or 'none'})"


class GoOut(NamedTuple):
    """Whether the hand can be laid out entirely (``without_discard``) or after discarding
    one of ``discards``; ``meld_value`` is the largest total value of the melds laid out over
    those ways (the hand's value, or the hand's value less the cheapest working discard; -1 if
    it cannot go out), ``arrangement`` one way reaching it."""
    can_go_out: bool
    without_discard: bool
    discards: tuple[int, ...]
    meld_value: int
    arrangement: WildArrangement | None

    def __repr__(self) -> str:
        return (f"GoOut(can_go_out={self.can_go_out}, without_discard={self.without_discard}, "
                f"discards={cards_text(self.discards) or 'none'}, meld_value={self.meld_value})")


def hand_counts(cards, game: Game, max_cards: int = 14) -> np.ndarray:
    """int64[64] counts of a hand given as text or codes; CardError for impossible hands."""
    codes = parse_cards(cards, n_packs=game.packs, n_jokers=game.jokers)
    if codes.size > max_cards:
        raise CardError(f"{codes.size} cards given; at most {max_cards} are allowed here")
    return np.bincount(codes, minlength=64).astype(np.int64)


def _arrangement(counts: np.ndarray, game: Game, dw: int, recs: np.ndarray) -> WildArrangement:
    P = game.params
    run_max, set_max, lim = int(P[_P_RUN_MAX]), int(P[_P_SET_MAX]), int(P[_P_SUIT_LIMIT])
    left = counts.copy()
    pool = [JOKER] * int(left[JOKER])
    left[JOKER] = 0
    melds = []   # [naturals list, played list, kind info]
    for kind, s, a, b, m, step in (tuple(int(x) for x in row) for row in recs):
        if kind == 2:
            left[a] -= 1
            pool.append(a)
            continue
        if kind == 0:
            nat = [card_code(a, t) for t in range(4) for _ in range((b >> (2 * t)) & 3)]
            pos = None
        else:
            offsets = [d for d in range(14) if (b >> d) & 1]
            pos = sorted(a + step * d for d in offsets)
            nat = [card_code(p % 13, s) for p in pos]
        for c in nat:
            left[c] -= 1
        melds.append([kind, a if kind == 0 else s, nat, pos, m])
    assert (left >= 0).all()
    # hand each meld its wilds, then extra wilds to melds with room
    need = [mm[4] for mm in melds]
    room = [(set_max if mm[0] == 0 else run_max) - len(mm[2]) - mm[4] for mm in melds]
    extra = len(pool) - sum(need)
    for i in range(len(melds)):
        take = min(room[i], max(extra, 0))
        need[i] += take
        extra -= take
    out_m, out_p = [], []
    for (kind, key, nat, pos, _), w in zip(melds, need):
        wilds = [pool.pop() for _ in range(w)]
        if kind == 0:
            have = [sum(1 for c in nat if c >> 4 == t) for t in range(4)]
            played = []
            for _ in wilds:
                t = min(range(4), key=lambda t: (have[t] >= lim, have[t], t))
                have[t] += 1
                played.append(card_code(key, t))
        else:
            lo, hi = pos[0], pos[-1]
            slots = [p for p in range(lo, hi + 1) if p not in pos]
            top = 13 if P[_P_ACE_HIGH] and lo > 0 else 12
            while len(slots) < w:
                if hi < top:
                    hi += 1
                    slots.append(hi)
                else:
                    lo -= 1
                    slots.append(lo)
            played = [card_code(p % 13, key) for p in slots]
        out_m.append(tuple(nat) + tuple(wilds))
        out_p.append(tuple(nat) + tuple(played))
    dead = tuple(int(c) for c in np.repeat(np.arange(64), left)) + tuple(pool)
    return WildArrangement(int(dw), tuple(out_m), tuple(out_p), tuple(sorted(dead)))


def min_deadwood(cards, game: str = "ramino-klop", *, packs: int | None = None,
                 set_duplicates: bool = False) -> WildArrangement:
    """Exact minimum deadwood of up to 14 cards under ``game``'s rules, with one arrangement
    reaching it (each wild shown with the card it stands for)."""
    g = game_rules(game, packs=packs, set_duplicates=set_duplicates)
    counts = hand_counts(cards, g)
    recs = np.zeros((MAX_DEPTH, 6), dtype=np.int64)
    dw, n = _min_deadwood(counts, g.params, g.values, recs)
    return _arrangement(counts, g, int(dw), recs[:n])


def best_discard(cards, game: str = "ramino-klop", *, packs: int | None = None,
                 set_duplicates: bool = False) -> WildDiscard:
    """Exact best discard: the minimum over every discard of the deadwood of the rest, and
    every card (each code once) reaching it."""
    g = game_rules(game, packs=packs, set_duplicates=set_duplicates)
    counts = hand_counts(cards, g, 15)
    if counts.sum() == 0:
        raise CardError("best_discard needs at least one card")
    out = np.empty(64, dtype=np.int64)
    _discards(counts, g.params, g.values, out)
    best = int(out[out >= 0].min())
    return WildDiscard(best, tuple(int(c) for c in np.flatnonzero(out == best)))


def go_out(cards, game: str = "ramino-klop", *, packs: int | None = None,
           set_duplicates: bool = False) -> GoOut:
    """Can the hand be laid out in melds, whole or after one discard; and the largest value
    of melds laid out doing so (Cincinnati's score for the winner)."""
    g = game_rules(game, packs=packs, set_duplicates=set_duplicates)
    counts = hand_counts(cards, g, 15)
    recs = np.zeros((MAX_DEPTH, 6), dtype=np.int64)
    total = int((counts * g.values).sum())
    dw, n = _min_deadwood(counts, g.params, g.values, recs)
    out = np.empty(64, dtype=np.int64)
    _discards(counts, g.params, g.values, out)
    discards = tuple(int(c) for c in np.flatnonzero(out == 0))
    if dw == 0:
        return GoOut(True, True, discards, total, _arrangement(counts, g, 0, recs[:n]))
    if not discards:
        return GoOut(False, False, (), -1, None)
    d = min(discards, key=lambda c: (g.values[c], c))
    rest = counts.copy()
    rest[d] -= 1
    dw, n = _min_deadwood(rest, g.params, g.values, recs)
    return GoOut(True, False, discards, total - int(g.values[d]), _arrangement(rest, g, 0, recs[:n]))


def min_deadwood_counts(counts: np.ndarray, game: str = "ramino-klop", *, packs: int | None = None,
                        set_duplicates: bool = False) -> np.ndarray:
    """Batch exact deadwood of hands given as counts uint8[n, 64] (column 13 = jokers)."""
    g = game_rules(game, packs=packs, set_duplicates=set_duplicates)
    counts = np.ascontiguousarray(counts, dtype=np.uint8)
    out = np.empty(counts.shape[0], dtype=np.int64)
    _deadwood_many(counts, g.params, g.values, out)
    return out


def random_hands(n: int, n_cards: int, n_wilds: int, game: str = "ramino-klop", *,
                 packs: int | None = None, seed: int = 0) -> np.ndarray:
    """``n`` random hands as counts uint8[n, 64]: ``n_wilds`` jokers (Wildcard: jokers or 2s
    drawn as wilds) plus natural cards drawn from the packs without the other wilds."""
    g = game_rules(game, packs=packs)
    rng = np.random.default_rng(seed)
    wilds = [JOKER] * g.jokers
    naturals = [card_code(r, s) for s in range(4) for r in range(13)] * g.packs
    if g.params[_P_TWOS_WILD]:
        wilds += [c for c in naturals if c & 15 == 1]
        naturals = [c for c in naturals if c & 15 != 1]
    wilds, naturals = np.array(wilds), np.array(naturals)
    out = np.zeros((n, 64), dtype=np.uint8)
    for i in range(n):
        hand = np.concatenate([rng.choice(wilds, n_wilds, replace=False),
                               rng.choice(naturals, n_cards - n_wilds, replace=False)])
        np.add.at(out[i], hand, 1)
    return out


def wild_deadwood_rate(n: int = 20000, n_cards: int = 8, n_wilds: int = 3, game: str = "ramino-klop",
                       *, packs: int | None = None, repeats: int = 5, seed: int = 1) -> float:
    """Exact evaluations per second (warm, median of ``repeats``) on random hands; prints it."""
    hands = random_hands(n, n_cards, n_wilds, game, packs=packs, seed=seed)
    min_deadwood_counts(hands[:10], game, packs=packs)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        min_deadwood_counts(hands, game, packs=packs)
        times.append(time.perf_counter() - t0)
    rate = n / float(np.median(times))
    print(f"{game} packs={packs}: {n_cards}-card hands with {n_wilds} wilds: {rate:,.0f} evaluations/s")
    return rate
