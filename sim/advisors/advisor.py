"""The knock advisor's shared flow, for every game (worlds as in :mod:`sim.advice`).

One question for every game: from a concrete position, is ending the hand now (**A**: knock,
rummy, Tonk's drop) worth more than playing on (**B**)?  Every game's advisor does the same
steps, and this module holds them; a game's module (``gin``, ``knock_rummy``,
``ramino_klop``, ``tonk``) says only what differs:

1. **read the position** (:func:`open_position`, :func:`read_pile`): the game's player count
   and rules, the options it refuses, the hand, the upcard and the known discards against
   the game's pack; with one card more than a hand, the exact best discard is played
   (:func:`play_extra_card`);
2. **the decision**: which choice is "now" and which outcome counts as won, both in the
   game's world kernel (its ``*_worlds`` function), which also calls the game's own engine
   (settlement, ``play_from_state``);
3. **sample worlds** consistent with what is known: the unseen pool (:func:`sim.advice.pool_without`,
   or a history's, :mod:`.history_weights`), dealt by the kernel with :func:`deal_mask` and
   laid out for play on by :func:`pile_for_play_on`; redrawn or weighted by the opponent
   model (``played``: replayed deals, or weights by a history);
4. **play both choices out** on the same world (common random numbers: the world's
   generator, then :func:`seat_streams` for the strategies) into ``int64[n, N_OUT]`` rows
   (:func:`world_buffers`; a model that finds no world: :func:`refuse_failed`);
5. **summarise**: :func:`prepared` hands the sampler and what to report to
   ``analysis.studies.knock_advice``, which stops on the confidence sequences and reports.

What a game's module provides (its part of the decision interface): ``GAME``, a
:class:`Game` (its name, as its strategies are parsed, its ``VARIANT``, rules class and
pack); ``prepare = entry(check)``, the entry :class:`sim.advice.AdvisorSpec` names, with its
``check`` of a :class:`Position` built from the steps above; and its world kernel, one world at a
time: deal the opponents (with the model's redraws or weights), **A** (the game's
settlement of ending the hand now, from the world's hands) and **B** (the state play on
starts from, handed to the game's ``play_from_state``), each scored as my points and
whether I won.  The world loop itself stays in each game's kernel: numba caches no kernel
that takes other kernels as arguments or closes over them (measured on numba 0.68: a cache
miss in every process, so every ``rummylab knock`` would compile it anew), so the shared
steps are the small kernels at the end of this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit

from .. import advice as A
from ..core import rng
from ..core.bits import bit
from ..core.cards import card_text
from ..strategies import parse_strategy, strategy_matrix
from . import history as HI


@dataclass(frozen=True)
class Game:
    """What a game's advisor declares: ``name`` (its strategies' variant name), ``variant``
    (its ``VARIANT``: the player-count rule and, in its :class:`sim.advice.AdvisorSpec`, the
    pack), ``rules`` (its rules class) and ``seated``: the rules carry the player count
    (every game but Gin)."""
    name: str
    variant: object
    rules: type
    seated: bool = True

    @property
    def packs(self) -> int:
        return self.variant.advisor.packs

    @property
    def jokers(self) -> int:
        return self.variant.advisor.jokers


@dataclass(frozen=True, kw_only=True)
class Position:
    """A knock question as asked (``analysis.studies.knock_advice``): my ``hand``, my own
    ``turn``, the ``upcard`` and the known ``discards``, ``spreads`` on the table, the
    ``players``, their strategies (``opponent``, mine: ``strategy``), the ``rules``, the
    ``stock``, the opponents' card counts (``opp_cards``), Gin's ``first_upcard``, the hand's
    ``history``, the ``seed``, the opponent model (``opp_model``) and ``debug`` (the kernels'
    checks).  Each game reads what it uses and refuses what it cannot."""
    hand: object
    turn: int
    upcard: object
    discards: object
    spreads: object
    players: int
    opponent: str
    strategy: str
    rules: object
    stock: object
    opp_cards: object
    first_upcard: object
    history: object
    seed: int
    opp_model: str
    debug: bool


def entry(check: Callable[[Position], A.Prepared]):
    """A game's ``prepare(hand, *, turn, upcard, discards, spreads, players, opponent, strategy,
    rules, stock, opp_cards, first_upcard, history, seed, opp_model, debug)``, the entry
    :class:`sim.advice.AdvisorSpec` names (every argument required), from its ``check`` of a
    :class:`Position`."""
    def prepare(hand, **position) -> A.Prepared:
        return check(Position(hand=hand, **position))
    prepare.__doc__ = check.__doc__
    return prepare


# ----------------------------------------------------------------------------------------
# reading the position (Python)

def open_position(g: Game, players: int, rules, refusals=()):
    """The game's player-count rule, the options it refuses (``(given, message)`` pairs, in
    order) and its rules for ``players`` seats."""
    A.check_players(g.variant, players)
    for given, message in refusals:
        if given:
            raise A.AdviceError(message)
    if not g.seated:
        return A.rules_of(g.rules, rules)
    r = A.rules_of(g.rules, rules, players=players)
    if r.players != players:
        raise A.AdviceError(f"rule players={r.players} contradicts players={players}: give the count once")
    return r


def read_hand(g: Game, hand) -> np.ndarray:
    return A.cards(hand, "hand", g.packs, g.jokers)


def read_pile(g: Game, h, upcard, discards, *, history=None, hand_size=None):
    """The upcard (at most one) and the known discards, each card in one place only; with a
    ``history`` the inputs it replaces are refused first (:func:`history.refuse_conflicts`)."""
    up = A.cards(upcard, "upcard", g.packs, g.jokers) if upcard is not None else h[:0]
    if up.size > 1:
        raise A.AdviceError(f"upcard: give one card, got {up.size}")
    if history is not None:
        HI.refuse_conflicts(h.size, hand_size, up.size > 0, discards)
    known = A.cards(discards, "discards", g.packs, g.jokers) if discards is not None else h[:0]
    A.no_overlap([("in your hand", h), ("the upcard", up), ("in the discards", known)], g.packs,
                 g.jokers)
    return up, known


def play_extra_card(h, up, known, discard: int, dw_after: int, notes: list):
    """One card more than a hand: ``discard`` (the exact best) is played face up, an upcard
    given as well lies under it.  Returns the hand kept, the new upcard and known discards."""
    notes.append(f"{h.size} cards given: the exact best discard is {card_text(discard)} "
                 f"(deadwood {dw_after} after it); playing on discards it face up")
    if up.size:
        notes.append(f"the upcard {card_text(int(up[0]))} given as well is taken to lie "
                     f"under {card_text(discard)}")
        known = np.concatenate([known, up])
    keep = np.delete(h, int(np.flatnonzero(h == discard)[0]))
    return keep, np.array([discard], dtype=np.int64), known


def seat_strategies(g: Game, strategy, opponent, n: int, *, single: bool = False):
    """My strategy, the opponents' (one spec for all or one each; ``single``: one opponent,
    one spec) and the strategy matrix, seat 0 first."""
    me = parse_strategy(strategy, g.name, n)
    opps = [parse_strategy(opponent, g.name, n)] if single else A.parse_opponents(opponent, n - 1, g.name)
    return me, opps, strategy_matrix([me] + opps)


def replay_notes(notes: list, n: int, replay: int, buried: int) -> None:
    """Opponent model 'played' without a history (Knock Rummy, Ramino Klop): what was replayed."""
    who = "the opponent's dealt hand was" if n == 2 else "each opponent's dealt hand was"
    notes.append(f"opponent model 'played': {who} replayed through {replay} draws and "
                 "discards by its strategy, without rummy or knock (worlds where one would "
                 "have ended the hand are redrawn)")
    if buried < replay * (n - 1):
        notes.append(f"only {buried} unseen buried discards for the {replay * (n - 1)} "
                     "replayed turns: the later opponents' replays are shorter")


def given_stock(st: int, turn: int, lo: int, hi: int, room: int, *, seats: str = "",
                holds: str = "after your draw the stock holds", short: str = "") -> int:
    """A stock the user gave, within ``lo..hi`` on this turn (``seats``: " with n players";
    ``holds``: how the range is said) and at most ``room``, the unseen cards left for it
    (``short``: why not, after "impossible")."""
    if not lo <= st <= hi:
        raise A.AdviceError(f"stock {st} is impossible on your turn {turn}{seats}: {holds} {lo} to "
                            f"{hi} cards")
    if st > room:
        raise A.AdviceError(f"stock {st} is impossible{short}")
    return st


def upcard_code(up, notes: list) -> int:
    """The upcard's code for the kernel, or UP_SAMPLE (noted) when it is not given."""
    if up.size == 0:
        notes.append("upcard not given: the card on top of the pile is drawn from the unseen cards")
    return int(up[0]) if up.size else A.UP_SAMPLE


def prepared(call, *, h, score, limit, discard, turn, stock, players, upc, me, opps, r, notes,
             **kw) -> A.Prepared:
    """The checked position for the analysis side: the sampler ``call`` and what to report."""
    return A.Prepared(call, dict(hand=tuple(card_text(int(c)) for c in h), hand_score=int(score),
                                 knock_limit=limit,
                                 discard=None if discard is None else card_text(discard),
                                 turn=turn, stock=stock, players=players,
                                 upcard=card_text(upc) if upc >= 0 else None, strategy=me.spec,
                                 opponent=",".join(o.spec for o in opps), rules=r.as_dict()),
                      notes, **kw)


# ----------------------------------------------------------------------------------------
# running the worlds (Python)

def world_buffers(n_worlds: int):
    """The world rows (int64[n, N_OUT]), their weights (1) and the failure slot (-1)."""
    return (np.zeros((int(n_worlds), A.N_OUT), dtype=np.int64),
            np.ones(int(n_worlds), dtype=np.float64), np.full(1, -1, dtype=np.int64))


def refuse_failed(fail, tries: int, model: str, position: str) -> None:
    """An opponent model found no fitting world (``fail[0]``, the world): refuse the position."""
    if fail[0] >= 0:
        raise A.no_world_fits(int(fail[0]), tries, model, position)


def with_extras(out, *extras):
    """The kernel's rows, and the extras asked for (``(array, asked)`` pairs) after them."""
    more = tuple(x for x, asked in extras if asked)
    return (out,) + more if more else out


# ----------------------------------------------------------------------------------------
# world kernels' shared steps

@njit(cache=True, inline="always")
def world_generator(seed, first_world, i):
    """World ``w = first_world + i`` and its generator (``STREAM_WORLD``): its draws, redraws
    and, in a game that restocks, the restock shuffles."""
    w = first_world + i
    return w, rng.new_state(seed, A.STREAM_WORLD, w)


@njit(cache=True, inline="always")
def draw_world(ws, pool, perm, upcard, tries):
    """One (more) draw of a world: the unseen ``pool`` shuffled into ``perm``.  Returns the
    upcard, where the hands start in ``perm`` (:func:`sim.advice.upcard_of`) and the draws."""
    rng.shuffle_into(ws, pool, perm)
    up, pos = A.upcard_of(perm, upcard)
    return up, pos, tries + 1


@njit(cache=True, inline="always")
def deal_mask(perm, pos, k):
    """The hand (uint64 mask) of the ``k`` shuffled unseen cards from ``perm[pos]``."""
    h = np.uint64(0)
    for j in range(k):
        h |= bit(perm[pos + j])
    return h


@njit(cache=True)
def pile_for_play_on(perm, pos, n_pool, stock_size, deck, sp, known, pile, up):
    """Stock and pile as play on starts (:func:`sim.advice.lay_out_rest`), ``up`` on top of
    the pile unless there is none (UP_NONE).  Returns the number of cards in ``pile``."""
    npile = A.lay_out_rest(perm, pos, n_pool, stock_size, deck, sp, known, pile)
    if up != A.UP_NONE:
        pile[npile] = up
        npile += 1
    return npile


@njit(cache=True, inline="always")
def seat_streams(st, seed, w):
    """Every seat's strategy generator in world ``w`` (``st[s, 0]``)."""
    for s in range(st.shape[0]):
        st[s, 0] = rng.stream_key(seed, A.STREAM_WORLD_STRATEGY + s, w)
