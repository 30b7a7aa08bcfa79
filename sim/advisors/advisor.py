"""The knock advisor, one for every game (worlds as in :mod:`sim.advisors.worlds`).

One question for every game: from a concrete position, is ending the hand now (**A**: knock,
rummy, Tonk's drop) worth more than playing on (**B**)?  :func:`prepare` answers it for any
game with an advisor (``VARIANT.advisor``, an :class:`sim.advisors.worlds.AdvisorSpec`), in the same
steps; the game declares only what differs (its ``ADVISOR``, a :class:`sim.advisors.worlds.AdvisorGame`,
next to the hand loop that picks its search player: ``sim/variants/gin.py``, ``knock_rummy.py``,
``ramino_klop.py``, ``tonk_search.py``):

1. **read the position** (:class:`Position`): the game's player count and rules, the options
   it refuses, the hand, the upcard and the known discards against the game's pack (or, at
   the start of a turn, the table: :mod:`.table`); with a history (:mod:`.history`), the
   inputs it replaces are refused and the ones it fixes cross-checked; with one card more
   than a hand, the exact best discard is played (:func:`play_extra_card`);
2. **the decision**: the game's ``knock`` hook checks that ending the hand now is legal and
   says what it shows; its world pieces (:func:`sim.advisors.worlds.end_now`, :func:`sim.advisors.worlds.play_on`)
   play A and B and say which outcome counts as won;
3. **sample worlds** consistent with what is known: the unseen pool (:func:`sim.advisors.worlds.pool_without`,
   or a history's, :func:`sim.strategies.history_weights.setup`) and the stock (the game's
   ``stock`` hook), dealt by the game's :func:`sim.advisors.worlds.deal`; redrawn or weighted by the
   opponent model (``played``: replayed deals, or weights by a history);
4. **play both choices out** on the same world (common random numbers: the world's
   generator, then the seats' strategy streams) in the one world loop, :func:`worlds`, into
   ``int64[n, N_OUT]`` rows (a model that finds no world: :func:`refuse_failed`);
5. **summarise**: :func:`prepared` hands the sampler and what to report to
   ``analysis.studies.knock_advice``, which stops on the confidence sequences and reports.

The world loop is one kernel for every game: numba caches no kernel that takes other kernels
as arguments or closes over them (measured on numba 0.68: a cache miss in every process), so
the game's pieces are not passed in: they are type-dispatched functions (numba's
``overload``, keyed by the game's world namedtuple class: :func:`sim.advisors.worlds.world_pieces`),
inlined where the loop calls them when it compiles for that game, and the loop is cached
once per game (both games' specialisations load from the cache in a new process: measured).
The draws of a world (:func:`_draw`) compile without reference counting.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from . import worlds as A
from ..core import rng
from ..core.cards import card_text, cards_text
from ..strategies import history_weights as HW
from ..strategies import parse_strategy, strategy_matrix
from . import history as HI
from . import table as TA


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


def prepare(variant, hand, **position) -> A.Prepared:
    """Check a knock position of ``variant`` (its ``VARIANT``; the arguments: :class:`Position`,
    every one required) and set up its worlds: the entry ``analysis.studies.knock_advice``
    calls for every game."""
    import importlib
    game = importlib.import_module(variant.advisor.module).ADVISOR
    p = Position(hand=hand, **position)
    return (_start_of_turn if game.start_of_turn else _after_discard)(variant, game, p)


# ----------------------------------------------------------------------------------------
# a position after my draw and discard (Gin, Knock Rummy, Ramino Klop)

def _after_discard(v, g: A.AdvisorGame, p: Position) -> A.Prepared:
    n = p.players
    r = open_position(v, n, p.rules, refusals(g, p))
    hs = g.hand_size(n)
    if g.turn_limit and n * (p.turn - 1) + 1 >= v.max_turns:
        raise A.AdviceError(f"turn {p.turn} with {n} players is past the turn limit ({v.max_turns} "
                            "turns in a hand): the hand is over")
    notes: list[str] = []
    h = read_hand(v, p.hand)
    if h.size not in (hs, hs + 1):
        raise A.AdviceError(g.hand_error.format(n=n, hs=hs, more=hs + 1, got=h.size))
    up, known = read_pile(v, h, p.upcard, p.discards, history=p.history, hand_size=hs)
    k = None
    if p.history is not None:
        hr = g.history(r)
        k = HI.check(p.history, players=n, turn=p.turn, hand_size=hs, hand=h,
                     discard=int(up[0]) if up.size else None, stock_floor=hr.stock_floor,
                     dealer_offer=hr.dealer_offer, stock=p.stock)
    kept, discard = h, None
    if h.size == hs + 1:    # the exact best discard (ties: the highest card, as the strategies do)
        discard, dw_after = g.discard(r, h, None if k is None else k.took, notes)
        kept, up, known = play_extra_card(h, up, known, discard, dw_after, notes)
    kn = g.knock(r, p, k, h, kept, notes)
    h = kept
    me, opps, smat = seat_strategies(v, p.strategy, p.opponent, n, single=g.single_opponent)
    if v.check_strategies is not None:
        v.check_strategies(r, [me] + opps)
    st, pool, known, seen, replay = _unseen(v, g, k, h, up, known, r, smat, kn, p, notes)
    upc = upcard_code(up, notes)
    scale, unit = g.points(r, n, notes)
    world = g.world(r.to_array(), smat, h, kn, st, known, p.turn, seen, replay)
    where = f" (hand {cards_text(h)}" + (f", {n} players)" if v.players_rule else ")")
    fail = A.MAX_TRIES_HISTORY if seen.use and replay else A.MAX_REDRAWS + 1
    model = g.no_world_history if seen.use else g.no_world.format(turn=p.turn)

    def call(first, count, with_hands=False):
        return rollouts(world(count, with_hands), pool, upc, p.seed, first, count, fail,
                        lambda w: A.no_world_fits(w, fail, model, where), debug=p.debug,
                        weighted=seen.use and replay > 0)

    return prepared(call, h=h, score=kn.score, limit=kn.limit, discard=discard, turn=p.turn,
                    stock=st, players=n, upc=upc, me=me, opps=opps, r=r, notes=notes, scale=scale,
                    redraws=replay > 0, unit=unit)


def _unseen(v, g, k, h, up, known, r, smat, kn, p, notes):
    """The stock, the unseen pool, the known pile, the history's :class:`~history_weights.Seen`
    and the opponent turns to replay: from the history ``k`` (the opponents' knock bars by
    the game's ``bars``), or without one (the game's ``stock``)."""
    n = smat.shape[0]
    hs = g.hand_size(n)
    if k is None:
        replay = p.turn - 1 if p.opp_model == "played" else 0
        st = g.stock(r, n, p.turn, p.stock, int(known.size), notes)
        # with one card more `up` is the discard
        pool = A.pool_without(np.concatenate([h, up, known]), v.advisor.packs, v.advisor.jokers)
        g.replay_notes(notes, n, replay, pool.size - (n - 1) * hs - int(up.size == 0) - st)
        return st, pool, known, HW.no_history(n, p.turn, hs), replay
    hr = g.history(r)
    if k.stock < hr.void_below:
        raise A.AdviceError(f"the history leaves {k.stock} stock cards after your draw: the hand "
                            f"is void (void_stock_left={hr.void_below})")
    pool, known, seen = HW.setup(k, h, int(up[0]), hand_size=hs, bars=g.bars(k, smat, kn),
                                 drawn_discardable=hr.drawn_discardable)
    replay = int(p.opp_model == "played")
    notes += HI.notes(k, replay > 0)
    return k.stock, pool, known, seen, replay


# ----------------------------------------------------------------------------------------
# a position at the start of my turn, before I draw (Tonk)

def _start_of_turn(v, g: A.AdvisorGame, p: Position) -> A.Prepared:
    r = open_position(v, p.players, p.rules, refusals(g, p))
    notes: list[str] = []
    h = read_hand(v, p.hand)
    hs = g.hand_size(p.players)
    if not 1 <= h.size <= hs:
        raise A.AdviceError(g.hand_error.format(n=p.players, hs=hs, got=h.size))
    t = TA.read_table(v, g, p, h, r, notes)
    st = g.stock(r, p.players, p.turn, p.stock, t, notes)
    me, opps, smat = seat_strategies(v, p.strategy, p.opponent, p.players)
    world = g.world(r.to_array(), smat, h, t, st, p)
    weighted = t.history is not None and p.opp_model == "played"

    def call(first, count, with_hands=False):
        return rollouts(world(count, with_hands), t.pool, t.upc, p.seed, first, count,
                        A.MAX_TRIES_HISTORY, TA.no_deal_fits, debug=p.debug, weighted=weighted)

    return prepared(call, h=h, score=t.count, limit=None, discard=None, turn=p.turn, stock=st,
                    players=p.players, upc=t.upc, me=me, opps=opps, r=r, notes=notes)


# ----------------------------------------------------------------------------------------
# reading the position (Python)

def open_position(v, players: int, rules, refused=()):
    """The game's player-count rule, the options it refuses (``(given, message)`` pairs, in
    order) and its rules for ``players`` seats."""
    A.check_players(v, players)
    for given, message in refused:
        if given:
            raise A.AdviceError(message)
    if not v.players_rule:
        return A.rules_of(v.rules_cls, rules)
    r = A.rules_of(v.rules_cls, rules, players=players)
    if r.players != players:
        raise A.AdviceError(f"rule players={r.players} contradicts players={players}: give the count once")
    return r


def refusals(g: A.AdvisorGame, p: Position):
    """The options the game refuses (its ``refuses``), as ``(given, message)`` pairs in order."""
    hs = g.hand_size(p.players)
    for option, message, *accepted in g.refuses:
        value = getattr(p, option)
        given = bool(value) if option == "spreads" else value is not None
        yield given and not (accepted and value == accepted[0]), message.format(n=p.players, hs=hs)


def read_hand(v, hand) -> np.ndarray:
    return A.cards(hand, "hand", v.advisor.packs, v.advisor.jokers)


def read_pile(v, h, upcard, discards, *, history=None, hand_size=None):
    """The upcard (at most one) and the known discards, each card in one place only; with a
    ``history`` the inputs it replaces are refused first (:func:`history.refuse_conflicts`)."""
    packs, jokers = v.advisor.packs, v.advisor.jokers
    up = A.cards(upcard, "upcard", packs, jokers) if upcard is not None else h[:0]
    if up.size > 1:
        raise A.AdviceError(f"upcard: give one card, got {up.size}")
    if history is not None:
        HI.refuse_conflicts(h.size, hand_size, up.size > 0, discards)
    known = A.cards(discards, "discards", packs, jokers) if discards is not None else h[:0]
    A.no_overlap([("in your hand", h), ("the upcard", up), ("in the discards", known)], packs, jokers)
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


def seat_strategies(v, strategy, opponent, n: int, *, single: bool = False):
    """My strategy, the opponents' (one spec for all or one each; ``single``: one opponent,
    one spec) and the strategy matrix, seat 0 first."""
    me = parse_strategy(strategy, v.name, n)
    opps = [parse_strategy(opponent, v.name, n)] if single else A.parse_opponents(opponent, n - 1, v.name)
    return me, opps, strategy_matrix([me] + opps)


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
# running the worlds

def rollouts(world, pool, upcard, seed, first_world, n_worlds, max_tries, refuse, *, debug=False,
             weighted=False):
    """Worlds ``first_world .. first_world + n_worlds - 1`` of the game's ``world`` (its
    namedtuple, built for ``n_worlds``): int64[n_worlds, N_OUT] (columns K_PTS, P_PTS, K_WIN,
    P_WIN, TRIES); with ``weighted`` (a history weighs them) also float64[n_worlds], the
    worlds' weights; then the world's extras asked for (``world.extras``: e.g. the hands).
    ``pool``: the unseen card codes; ``upcard`` a code, ``UP_SAMPLE`` or ``UP_NONE``;
    ``max_tries`` draws of a world that cannot have happened, then ``refuse(world)`` (an
    AdviceError) is raised."""
    out = np.zeros((int(n_worlds), A.N_OUT), dtype=np.int64)
    weight = np.ones(int(n_worlds), dtype=np.float64)
    fail = np.full(1, -1, dtype=np.int64)
    worlds(world.g, np.ascontiguousarray(pool, dtype=np.int64), np.int64(upcard), np.int64(max_tries),
           np.int64(seed), np.int64(first_world), out, weight, fail, bool(debug))
    refuse_failed(fail, refuse)
    more = ((weight,) if weighted else ()) + world.extras
    return (out,) + more if more else out


def refuse_failed(fail, refuse) -> None:
    """An opponent model found no fitting world (``fail[0]``, the world): refuse the position."""
    if fail[0] >= 0:
        raise refuse(int(fail[0]))


@njit(cache=True)
def worlds(g, pool, upcard, max_tries, seed, first_world, out, weight, fail, debug):
    """Worlds ``first_world .. first_world + len(out) - 1`` of a knock question, one game's
    (its world ``g``: :func:`sim.advisors.worlds.world_pieces`).

    World ``w``: its generator (``STREAM_WORLD``), every seat's strategy stream
    (``STREAM_WORLD_STRATEGY + seat``, before the deal: a replayed random player draws from
    them); the unseen ``pool`` shuffled (the upcard first if ``upcard == UP_SAMPLE``) and the
    opponents dealt by the game (:func:`sim.advisors.worlds.deal`), redrawn while the world's weight is
    0, at most ``max_tries`` draws (then ``fail[0]`` gets the world and the kernel returns);
    then A (:func:`sim.advisors.worlds.end_now`) and B (:func:`sim.advisors.worlds.play_on`) on the same world.
    ``out[i]``: my points and whether I won with A and B, and the draws; ``weight[i]``: the
    world's weight (1 unless a history weighs it)."""
    perm = np.empty(pool.shape[0], dtype=np.int64)
    for i in range(out.shape[0]):
        w = first_world + i
        ws = rng.new_state(seed, A.STREAM_WORLD, w)
        _seat_streams(g.st, seed, w)
        up, pos, tries, wt = _draw(g, pool, perm, upcard, max_tries, ws)
        if wt == 0.0:
            fail[0] = w
            return
        out[i, A.TRIES] = tries
        weight[i] = wt
        out[i, A.K_PTS], out[i, A.K_WIN] = A.end_now(g, i)
        out[i, A.P_PTS], out[i, A.P_WIN] = A.play_on(g, i, perm, pos, up, ws, debug)


@njit(cache=True, _nrt=False)
def _draw(g, pool, perm, upcard, max_tries, ws):
    """A world drawn (its generator ``ws``): the unseen ``pool`` shuffled into ``perm`` (the
    upcard first if ``upcard == UP_SAMPLE``) and the opponents dealt (:func:`sim.advisors.worlds.deal`),
    redrawn while the world's weight is 0, at most ``max_tries`` draws.  Returns the upcard,
    the position after the dealt hands, the draws and the weight (0: none fits).

    Compiled without reference counting (as :mod:`sim.open.jit`'s ``noalloc``; the kernels
    it calls that allocate say ``_nrt=True``): the deal reads the world's arrays from its
    namedtuple on every draw, and each read would be an atomic increment and decrement
    (measured: 2.5x the time of Tonk's history-weighted draws, millions per answer)."""
    tries = 0
    while True:
        rng.shuffle_into(ws, pool, perm)
        up, pos = A.upcard_of(perm, upcard)
        tries += 1
        pos, wt = A.deal(g, perm, pos, ws)
        if wt > 0.0 or tries >= max_tries:
            return up, pos, tries, wt


@njit(cache=True, inline="always")
def _seat_streams(st, seed, w):
    """Every seat's strategy generator in world ``w`` (``st``: uint64[n] or uint64[n, 1])."""
    flat = st.reshape(st.shape[0])
    for s in range(flat.shape[0]):
        flat[s] = rng.stream_key(seed, A.STREAM_WORLD_STRATEGY + s, w)
