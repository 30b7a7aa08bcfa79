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
depth-first walk: the first remaining natural card (suit-major, rank ascending, so aces
first) is either deadwood or belongs to a core containing it -- a set at its rank (every
choice of copies per suit within the limits) or a run in its suit (every subset of the
higher naturals of that suit within the longest run, aces also played high downwards from
position 13).  Branches are cut when the dead naturals reach the best value found or when the
wilds needed exceed those that could still exist.  In Wildcard each 2 is also offered as a
wild (its "deadwood" branch: an unplaced wild costs the same 25).  Dominated cores are not
tried: a one-natural set (the one-natural run needs the same wilds and, runs being never
shorter than sets, as much room), an ace alone played high (the same as played low) and, in
Wildcard, any core holding a natural 2 with other naturals (the 2 played wild in its place
leaves the deadwood and the spare wilds the same).  A run is only extended as far as the
wilds left can reach (the run to the i-th higher natural needs at least its offset less i
less 1 wilds).  With at most one wild (jokers and Wildcard 2s together), a card with no
three-position window in its suit holding ``3 - wilds`` naturals and fewer than ``3 - wilds``
naturals at its rank can be in no core: it is set aside as deadwood before the walk.

Every discard at once (``sim.wild.wild_discards``): one walk of the whole hand; the cards its
best arrangement leaves out are worth its deadwood less their value (a lower bound for every
discard); the rest are the targets of one more walk in "discard mode", each leaf scored for
each target it leaves out.

Kernels live in ``sim.wild.wild_arrange`` and ``sim.wild.wild_discards`` (plain arrays, one int64
workspace, an explicit stack instead of recursion, all ``cache=True``); game kernels use the
public part, re-exported here: ``new_workspace(params, values)``, ``ws_deadwood(ws)`` and
``ws_discards(ws, out)``.

Speed (one core of the shared 2-core test machine, warm, CPU time, best of 5, 20,000 random
hands; issue 8 asks >= 1 M/s for 8-card two-pack hands with up to 3 wilds).  Exact
evaluations/s of 8-card hands with 0 / 1 / 3 wilds (one-pack Cincinnati: 2, its jokers):
Ramino Klop 4.3 / 2.1 / 2.0 M; Wildcard one pack 4.2 / 1.6 / 1.18 M, two packs 4.1 / 1.6 /
1.15 M; Cincinnati one pack 4.3 / 1.9 / 1.4 M, two packs 4.2 / 1.9 / 1.8 M (the recursive
walk before: 0.73-2.5 M).  Every discard of a hand at once (``ws_discards``), hands/s with
0 / 1 / 2 wilds: 8 cards 2.0-2.2 / 0.51-0.60 / 0.28-0.41 M, 7 cards 2.4-2.7 / 0.61-0.96 /
0.41-0.58 M (one walk per held code before: 0.14-0.50 M).  ``wild_deadwood_rate()``
measures the first (wall clock).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from ..core.cards import JOKER, CardError, card_code, cards_repr, cards_text, parse_cards, value_table
from .wild_discards import _discards, ws_discards  # noqa: F401  (ws_discards: the kernel API)
from .wild_arrange import (_P_ACE_HIGH, _P_RUN_MAX, _P_SET_MAX, _P_SUIT_LIMIT, _P_TWOS_WILD, MAX_DEPTH,
                          _deadwood_many, _min_deadwood)
from .wild_arrange import new_workspace, ws_deadwood  # noqa: F401  (the kernel API)


class Game(NamedTuple):
    name: str
    values: np.ndarray   # int64[64] penalty/score value per code (13 = joker)
    params: np.ndarray   # int64[8] kernel parameters
    packs: int
    jokers: int


def game_rules(game: str = "ramino-klop", *, packs: int | None = None,
               set_duplicates: bool = False) -> Game:
    """Kernel tables of a rule set; raises ValueError (UserInputError) for unknown names."""
    from ..core.errors import UserInputError
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
    """Fields hold card codes; the repr shows card text."""
    deadwood: int
    discards: tuple[int, ...]
    __repr__ = cards_repr


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
    if not 0 <= n_wilds <= min(len(wilds), n_cards):
        from ..core.errors import UserInputError
        raise UserInputError(f"{n_wilds} wilds asked; {game} with {g.packs} pack(s) has {len(wilds)}")
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
