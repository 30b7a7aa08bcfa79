"""The "should I knock here?" advisor's engine side (numpy + numba only): what every game's
rollouts share.

A *world* is one way the cards I cannot see may lie.  From the pool of unseen cards (the
pack minus my hand, the cards on the table and the discards I know of) world ``w`` draws,
with the generator ``rng.new_state(seed, STREAM_WORLD, w)``, one uniformly random ordering of
the pool and deals it out in this order:

1. the top of the discard pile, if it is not given (``UP_SAMPLE``);
2. the opponents' hands (seat 1, then seat 2, ...), uniformly from the unseen cards;
3. the stock (top first), ``stock_size`` cards;
4. the rest: buried discards (under the known discards, which lie under the top card).

Both options are then evaluated on the *same* world (common random numbers): **A, knock
now**, scored at once by the game's settlement, and **B, play on**, the hand continued by the
game's ``play_from_state``.  Strategy generators: ``(seed, STREAM_WORLD_STRATEGY + seat, w)``.
I am always seat 0.  Results per world (``out[i]``, int64): my points/stakes for A and B,
whether I won the hand with A and B, and how many worlds were drawn to get this one
(columns ``K_PTS, P_PTS, K_WIN, P_WIN, TRIES``; > 1 when an opponent model redraws worlds
that cannot have happened), with a weight per world when the model weighs them (a
history, :mod:`sim.advisors.history`).  Row ``i`` depends only on the inputs, ``seed`` and
``first_world + i``: never on how worlds are batched.  An opponent model that finds no
fitting world in its limit of tries raises an AdviceError naming the position
(:func:`no_world_fits`).

A game declares its advisor in its ``VARIANT`` as an :class:`AdvisorSpec`: its opponent
models, its pack and the module that holds the rest of its declaration, ``ADVISOR`` (an
:class:`AdvisorGame`: what differs between the games' positions), next to the game's
decision interface.  Its world is a namedtuple class with its pieces registered for it by
:func:`world_pieces` (:func:`deal`, :func:`end_now`, :func:`play_on` and, for the opponent
model "played", :func:`replay_turn`, which :func:`replayed` calls), which the one world
loop of :mod:`sim.advisors.advisor` calls.  That advisor checks a position for any game and
returns a :class:`Prepared` (the world sampler ``call(first_world, n)`` and what to report);
the analysis layer (``analysis.studies.knock_advice``) samples, stops and reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import overload

from ..core.bits import bit
from ..core.cards import JOKER, CardError, card_text, cards_text, parse_cards, standard_pack, to_mask
from ..core.errors import AdviceError, UserInputError
from ..knock.melds import best_discards, meld_tables
from ..core.rules import RulesBase
from ..strategies import parse_strategy, split_specs

STREAM_WORLD = 32               # world sampling; distinct from deal/game/strategy streams
STREAM_WORLD_STRATEGY = 48      # + seat: strategy generators inside a rollout
K_PTS, P_PTS, K_WIN, P_WIN, TRIES, N_OUT = range(6)
UP_SAMPLE = -1                  # top discard unknown: draw it from the unseen cards
UP_NONE = -2                    # no discard pile (Tonk, no_upcard, first turn)
MAX_REDRAWS = 1000              # "played" model: redraws of a world whose opponent knocked
MAX_TRIES_HISTORY = 1_000_000   # "played" with a history: draws per world of weight > 0


@dataclass(frozen=True)
class AdvisorSpec:
    """A game's advisor: ``module`` (imported when asked) holds the rest of its declaration,
    ``ADVISOR`` (an :class:`AdvisorGame`), read by :func:`sim.advisors.advisor.prepare`;
    ``opp_models``: the opponent models it offers, the first being the default.
    ``packs``/``jokers``: the game's pack (52-card packs, jokers), by which the analysis side
    reads and checks a position's cards (:func:`position_cards`) without asking the game."""
    module: str
    opp_models: tuple[str, ...] = ("uniform",)
    packs: int = 1
    jokers: int = 0


@dataclass(frozen=True, kw_only=True)
class AdvisorGame:
    """The rest of a game's advisor declaration (its ``ADVISOR``, in the module its
    :class:`AdvisorSpec` names): what differs between the games' positions, read by
    :func:`sim.advisors.advisor.prepare`.  Every hook is a small Python function.

    * ``refuses``: the options it refuses, in order, ``(option, message)`` (the message may
      name ``{n}`` players and ``{hs}``, the hand size), or ``(option, message, accepted)``
      (``accepted``: the one value taken anyway);
      ``hand_size(n)``: the cards a hand keeps with ``n`` players, ``hand_error`` a hand of
      another size (format fields ``n, hs, more, got``);
    * ``stock(r, n, turn, stock, ..., notes)``: the stock as given or its default;
      ``world(...)``: the world sampler's :class:`World` for ``count`` worlds (its
      namedtuple's pieces: :func:`world_pieces`);
    * after my draw and discard (``start_of_turn`` False: Gin, Knock Rummy, Ramino Klop):
      ``discard(r, h, took, notes)`` the exact best discard of one card more and the deadwood
      it leaves; ``knock(r, p, k, given, kept, notes)`` the :class:`Knock` now (refused when
      the rules do not allow it); ``history(r)`` the :class:`HistoryRules` of its history,
      ``bars(k, smat, knock)`` the opponents' knock bars on their turns in it;
      ``replay_notes(notes, n, replay, buried)``, ``points(r, n, notes)`` (scale, unit),
      ``no_world``/``no_world_history`` (what no world did), ``turn_limit`` (a position past
      the game's ``max_turns`` is refused), ``single_opponent`` (one opponent, one strategy
      spec);
    * at the start of my turn (``start_of_turn``: Tonk, :mod:`sim.advisors.table`):
      ``no_upcard(r)``: no upcard starts the pile."""
    refuses: tuple
    hand_size: Callable
    hand_error: str
    stock: Callable
    world: Callable
    start_of_turn: bool = False
    discard: Callable | None = None
    knock: Callable | None = None
    history: Callable | None = None
    bars: Callable | None = None
    replay_notes: Callable | None = None
    points: Callable | None = None
    no_world: str = ""
    no_world_history: str = ""
    turn_limit: bool = False
    single_opponent: bool = False
    no_upcard: Callable | None = None


@dataclass
class Knock:
    """Ending the hand now as a game's ``knock`` hook finds it: the hand's ``score`` (its
    deadwood), the knock ``limit`` reported (None: none), and what the game's world needs of
    it (``shows``: e.g. Gin's hand shown, its deadwood and big gin)."""
    score: int
    limit: int | None = None
    shows: dict = field(default_factory=dict)


@dataclass(frozen=True)
class HistoryRules:
    """How a game checks a hand's history (:func:`sim.advisors.history.check`): a turn leaving
    fewer than ``stock_floor`` stock cards ends the hand; ``dealer_offer``: Gin's first-upcard
    offer; ``drawn_discardable``: the card just drawn from the stock may be discarded; fewer
    than ``void_below`` stock cards after my draw: the hand is void."""
    stock_floor: int
    dealer_offer: bool = False
    drawn_discardable: bool = True
    void_below: int = 0


@dataclass(frozen=True)
class World:
    """A game's world for the one world loop: ``g``, its namedtuple (the position's arrays, the
    scratch space and the outputs of ``count`` worlds), and ``extras``: the outputs returned
    after the rows when the hands are asked for (e.g. every seat's hand per world)."""
    g: tuple
    extras: tuple = ()


@dataclass
class Prepared:
    """A checked position: ``call(first_world, n)`` returns int64[n, N_OUT] world results, or
    ``(results, weights)`` when the opponent model weighs worlds (float64[n]; the estimates are
    weighted means); ``call(first_world, n, with_hands=True)`` adds the hands in those worlds
    (uint64 masks, one column per seat; Gin, Knock Rummy) for checks.  ``info``: what the advice reports about
    the position (hand, hand_score, knock_limit, discard, turn, stock, players, upcard,
    strategy, opponent, rules); ``notes``: modelling notes for the reader; ``scale``: what one
    unit of the integer point columns is worth in the report (Knock Rummy's net against the
    average opponent: ``1/(n-1)``); ``redraws``: the opponent model redraws worlds that cannot
    have happened (the advice reports kept/drawn); ``unit``: the report's name of the point
    columns when it is not the game's ``score_unit`` (Ramino Klop: "penalty lead")."""
    call: Callable[..., np.ndarray | tuple]
    info: dict
    notes: list[str] = field(default_factory=list)
    scale: float = 1.0
    redraws: bool = False
    unit: str | None = None


# ----------------------------------------------------------------------------------------
# position input helpers (Python)

def cards(text, what: str, packs: int = 1, jokers: int = 0) -> np.ndarray:
    """Card text or codes of a game with ``packs`` 52-card packs and ``jokers`` jokers."""
    if isinstance(text, (int, np.integer)):
        text = [int(text)]
    try:
        return parse_cards(text, n_packs=packs, n_jokers=jokers)
    except CardError as e:
        raise CardError(f"{what}: {e}") from None


def no_overlap(groups: list[tuple[str, np.ndarray]], packs: int = 1, jokers: int = 0) -> None:
    """Each card in one place only (one pack); with ``packs`` packs and ``jokers`` jokers, no
    card more often over all places than the packs hold it."""
    where: dict[int, list[str]] = {}
    for name, codes in groups:
        for c in codes:
            c = int(c)
            seen = where.setdefault(c, [])
            seen.append(name)
            cap = jokers if c == JOKER else packs
            if len(seen) <= cap:
                continue
            if cap == 1:
                raise CardError(f"card {card_text(c)} is both {seen[0]} and {name}: "
                                "each card can be in one place only")
            places = ", ".join(f"{seen.count(p)}x {p}" for p in dict.fromkeys(seen))
            raise CardError(f"card {card_text(c)} is given {len(seen)} times ({places}): the "
                            f"game's packs hold it {cap} times")


def position_cards(spec: AdvisorSpec, hand, upcard, discards):
    """A position's cards read and checked against the game's pack (``spec.packs``,
    ``spec.jokers``): codes of the hand, the upcard and the discards (None when not given)."""
    h = cards(hand, "hand", spec.packs, spec.jokers)
    up = None if upcard is None else cards(upcard, "upcard", spec.packs, spec.jokers)
    known = None if discards is None else cards(discards, "discards", spec.packs, spec.jokers)
    no_overlap([("in your hand", h), ("the upcard", up if up is not None else h[:0]),
                ("in the discards", known if known is not None else h[:0])], spec.packs, spec.jokers)
    return h, up, known


def parse_opponents(opponent: str, n_opp: int, variant: str) -> list:
    """The opponents' strategies: one spec for all or one per opponent, comma separated."""
    specs = split_specs(opponent)
    if len(specs) == 1:
        specs = specs * n_opp
    if len(specs) != n_opp:
        raise AdviceError(f"{len(specs)} opponent strategies given for {n_opp} opponents: give one "
                          "for all or one per opponent")
    return [parse_strategy(x, variant, n_opp + 1) for x in specs]


def rules_of(cls, rules, **fixed) -> RulesBase:
    if isinstance(rules, RulesBase):
        if not isinstance(rules, cls):
            raise AdviceError(f"rules {type(rules).__name__} do not belong to this variant ({cls.__name__})")
        return rules
    return cls.from_options(rules, **fixed)


def pick_discard(h: np.ndarray, forbidden: int | None = None) -> tuple[int, int]:
    """The exact best discard from one card more than a hand, never ``forbidden`` (the card
    just taken from the pile); ties: the highest card, as the strategies do.  Returns the
    card and the deadwood after it."""
    t = meld_tables()
    fb = np.uint64(0 if forbidden is None else 1 << forbidden)
    dw, which = best_discards(np.uint64(to_mask(h)), fb, t.run_value, t.suit_total, t.rank_value)
    return max((c for c in range(64) if int(which) >> c & 1), key=lambda c: (c & 15, c >> 4)), int(dw)


def check_players(variant, players: int) -> None:
    """The game's own player-count rule (``Variant.check_players``), as an AdviceError."""
    try:
        variant.check_players(players)
    except UserInputError as e:
        raise AdviceError(str(e)) from None


def no_world_fits(world: int, tries: int, model: str, position: str) -> AdviceError:
    """The error of an opponent model that found no fitting world in ``tries`` draws."""
    return AdviceError(
        f"opponent model 'played': in world {world} none of {tries:,} deals {model}{position}: "
        "with these opponent strategies the position (almost) never happens; try --opp-model "
        "uniform, other opponent strategies, or check the position")


def pool_without(exclude: np.ndarray, packs: int = 1, jokers: int = 0) -> np.ndarray:
    """The pack (``packs`` packs, ``jokers`` jokers) less the multiset ``exclude``, in pack
    order: the unseen cards."""
    left = np.bincount(np.asarray(exclude, dtype=np.int64), minlength=64)
    out = []
    for c in standard_pack(packs, jokers):
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(int(c))
    return np.array(out, dtype=np.int64)


def spread_entries(spreads, players: int) -> list[tuple[int, str]]:
    out = []
    for sp in spreads:
        if isinstance(sp, str):
            owner, text = 0, sp
            if ":" in sp:
                head, text = sp.split(":", 1)
                try:
                    owner = int(head)
                except ValueError:
                    raise AdviceError(f"spread {sp!r}: write 'SEAT:cards' with SEAT a number "
                                      "(0 = you, 1.. = the opponents in playing order)") from None
        else:
            owner, text = sp
        if not 0 <= int(owner) < players:
            raise AdviceError(f"spread {text!r}: seat {owner} is not at this table (seats 0 = you, "
                              f"1..{players - 1} = the opponents in playing order)")
        out.append((int(owner), text))
    return out


# ----------------------------------------------------------------------------------------
# world layout (kernels)

@njit(cache=True, inline="always")
def upcard_of(perm, upcard):
    """The world's upcard (the given one, or the first shuffled unseen card when it is
    UP_SAMPLE) and where the hands start in ``perm``."""
    if upcard == UP_SAMPLE:
        return perm[0], 1
    return upcard, 0


@njit(cache=True)
def lay_out_rest(perm, pos, n_pool, stock_size, stock, s0, known, pile):
    """The unseen cards left after dealing the sampled hands (``perm[pos:n_pool]``): the next
    ``stock_size`` become the stock (from ``stock[s0]``), the others lie buried in the discard
    pile on top of the known discards.  Returns the number of cards in ``pile``."""
    for j in range(stock_size):
        stock[s0 + j] = perm[pos + j]
    npile = 0
    for j in range(known.shape[0]):
        pile[npile] = known[j]
        npile += 1
    for j in range(pos + stock_size, n_pool):
        pile[npile] = perm[j]
        npile += 1
    return npile


@njit(cache=True, inline="always")
def net_vs_others(row, first, n):
    """My net against the others in a settled row whose seats' scores start at ``first``:
    ``(n-1)*mine - sum(theirs)`` (the report scales it by ``1/(n-1)``: against the average
    opponent)."""
    v = (n - 1) * row[first]
    for s in range(1, n):
        v -= row[first + s]
    return v


def given_stock(st: int, turn: int, lo: int, hi: int, room: int, *, seats: str = "",
                holds: str = "after your draw the stock holds", short: str = "") -> int:
    """A stock the user gave, within ``lo..hi`` on this turn (``seats``: " with n players";
    ``holds``: how the range is said) and at most ``room``, the unseen cards left for it
    (``short``: why not, after "impossible")."""
    if not lo <= st <= hi:
        raise AdviceError(f"stock {st} is impossible on your turn {turn}{seats}: {holds} {lo} to "
                          f"{hi} cards")
    if st > room:
        raise AdviceError(f"stock {st} is impossible{short}")
    return st


def clipped(st: int, room: int, notes: list) -> int:
    """A default stock of ``st`` cards, at most the ``room`` unseen cards left for it (noted)."""
    if st <= room:
        return st
    notes.append(f"stock clipped to {room}: only {room} unseen cards are left for it")
    return room


def shown(arr) -> str:
    """A hand's minimum deadwood arrangement as the notes and errors show it: the deadwood,
    its cards and the melds."""
    melds = "; ".join(cards_text(m) for m in arr.melds) or "none"
    return f"{arr.deadwood} ({cards_text(arr.deadwood_cards)}; melds: {melds})"


def replay_notes(notes: list, n: int, replay: int, buried: int) -> None:
    """Opponent model 'played' without a history (Knock Rummy, Ramino Klop): what was replayed."""
    if not replay:
        return
    who = "the opponent's dealt hand was" if n == 2 else "each opponent's dealt hand was"
    notes.append(f"opponent model 'played': {who} replayed through {replay} draws and "
                 "discards by its strategy, without rummy or knock (worlds where one would "
                 "have ended the hand are redrawn)")
    if buried < replay * (n - 1):
        notes.append(f"only {buried} unseen buried discards for the {replay * (n - 1)} "
                     "replayed turns: the later opponents' replays are shorter")


# ----------------------------------------------------------------------------------------
# a game's world: the decision interface the one world loop calls
# (:func:`sim.advisors.advisor.worlds`).  A game's world ``g`` is a namedtuple (its class
# declared by the game); the three pieces below are implemented per game for that class
# (:func:`world_pieces`) and called inside the loop, which numba compiles once per game.

def deal(g, perm, pos, ws):
    """Deal the opponents' hands of a world from the shuffled unseen cards ``perm[pos:]`` (the
    world's generator ``ws``, e.g. for replays); returns the position after the dealt cards and
    the world's weight (0: it cannot have happened and is redrawn; 1 unless a model weighs
    it).  It allocates and slices nothing: the draws (:func:`sim.advisors.advisor._draw`, and
    :func:`replayed` with the game's :func:`replay_turn`) compile without reference counting,
    and a kernel they call that allocates says ``_nrt=True`` (as
    :mod:`sim.strategies.history_weights`' and Ramino Klop's replayed discard)."""
    raise TypeError("deal is a world kernel piece: see world_pieces")


def end_now(g, i):
    """**A** in world ``i``: the hand ends now (knock, rummy, Tonk's drop), settled at once;
    returns my points and whether that counts as won (1/0)."""
    raise TypeError("end_now is a world kernel piece: see world_pieces")


def play_on(g, i, perm, pos, up, ws, debug):
    """**B** in world ``i``: the unseen cards after the dealt hands (``perm[pos:]``) laid out as
    the stock and the buried discards (:func:`pile_for_play_on`), ``up`` on top of the pile,
    and the hand played out by the game's ``play_from_state``; returns my points and whether
    that counts as won."""
    raise TypeError("play_on is a world kernel piece: see world_pieces")


def replay_turn(g, s, c, t, stock_then, ws):
    """One replayed turn of opponent ``s`` (:func:`replayed`): it draws ``c`` into its hand in
    the world and discards by its strategy, on its own turn ``t`` with ``stock_then`` cards in
    the stock after its draw; returns its discard and whether it would have ended the hand."""
    raise TypeError("replay_turn is a world kernel piece: see world_pieces")


_PIECES = {"deal": deal, "end_now": end_now, "play_on": play_on, "replay_turn": replay_turn}


def world_pieces(cls, *, deal, end_now, play_on, replay_turn=None) -> None:
    """Declare a game's world pieces for its world namedtuple class ``cls``: plain Python
    functions with the signatures of :func:`deal`, :func:`end_now`, :func:`play_on` and
    (opponent model "played" without a history) :func:`replay_turn`, compiled by numba and
    inlined where the world loop calls them.  (numba caches no kernel that takes other
    kernels as arguments; a function overloaded by the world's type is resolved at compile
    time like any global one, so the loop is cached once per game.)"""
    pieces = dict(deal=deal, end_now=end_now, play_on=play_on, replay_turn=replay_turn)
    for name, impl in pieces.items():
        if impl is not None:
            overload(_PIECES[name], strict=False, inline="always")(_for_world(cls, impl))


def _for_world(cls, impl):
    """numba's typing of a piece: ``impl`` for a world of class ``cls``, else not this one."""
    def typing(g, *args):
        if isinstance(g, types.BaseNamedTuple) and g.instance_class is cls:
            return impl
        return None
    return typing


@njit(cache=True, _nrt=False)    # no reference counts, as the draws (see deal): 1.3x faster
def replayed(g, perm, r0, turns, own_turn, stock_size, ws):
    """Opponent model "played" without a history: each opponent (seat 1, 2, ...) replays its
    last ``turns`` turns from its dealt hand in the world ``g``, drawing the buried cards
    ``perm[r0:]`` in order (fewer turns when they run out) and discarding by its strategy
    (:func:`replay_turn`); each discard takes the drawn card's place among the buried ones.
    Every draw was from the stock (``stock_size`` after my draw).  Returns the world's weight:
    1 if every opponent reached my turn ``own_turn`` without ending the hand, else 0 (redrawn)."""
    n = g.strat.shape[0]
    off = r0
    for s in range(1, n):
        k = min(turns, perm.shape[0] - off)
        for j in range(k):
            t = own_turn - k + j            # its own turn number then
            code, ends = replay_turn(g, s, perm[off + j], t, stock_size + n * (own_turn - t) - s, ws)
            perm[off + j] = code
            if ends:
                return 0.0
        off += k
    return 1.0


@njit(cache=True, inline="always")
def deal_mask(perm, pos, k):
    """The hand (uint64 mask) of the ``k`` shuffled unseen cards from ``perm[pos]``."""
    h = np.uint64(0)
    for j in range(k):
        h |= bit(perm[pos + j])
    return h


@njit(cache=True)
def pile_for_play_on(perm, pos, stock_size, deck, sp, known, pile, up):
    """Stock and pile as play on starts (:func:`lay_out_rest`, the stock at ``deck[sp:]``),
    ``up`` on top of the pile unless there is none (UP_NONE).  Returns the number of cards in
    ``pile``."""
    npile = lay_out_rest(perm, pos, perm.shape[0], stock_size, deck, sp, known, pile)
    if up != UP_NONE:
        pile[npile] = up
        npile += 1
    return npile
