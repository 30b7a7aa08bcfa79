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

A game declares its advisor in its ``VARIANT`` as an :class:`AdvisorSpec`: the module (in
``sim/advisors/``) whose ``prepare(hand, *, turn, ...)`` checks a position and returns a
:class:`Prepared` (the world sampler ``call(first_world, n)`` and what to report).  The
analysis layer (``analysis.studies.knock_advice``) samples, stops and reports, for any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numba import njit

from .core.cards import JOKER, CardError, card_text, parse_cards, standard_pack, to_mask
from .core.errors import AdviceError, UserInputError
from .knock.melds import best_discards, meld_tables
from .core.rules import RulesBase
from .strategies import parse_strategy, split_specs

STREAM_WORLD = 32               # world sampling; distinct from deal/game/strategy streams
STREAM_WORLD_STRATEGY = 48      # + seat: strategy generators inside a rollout
K_PTS, P_PTS, K_WIN, P_WIN, TRIES, N_OUT = range(6)
UP_SAMPLE = -1                  # top discard unknown: draw it from the unseen cards
UP_NONE = -2                    # no discard pile (Tonk, no_upcard, first turn)
MAX_REDRAWS = 1000              # "played" model: redraws of a world whose opponent knocked
MAX_TRIES_HISTORY = 1_000_000   # "played" with a history: draws per world of weight > 0


@dataclass(frozen=True)
class AdvisorSpec:
    """A game's advisor: ``module`` (imported when asked) has ``prepare(hand, *, turn, upcard,
    discards, spreads, players, opponent, strategy, rules, stock, opp_cards, first_upcard,
    history, seed, opp_model, debug) -> Prepared``; ``opp_models``: the opponent models it
    offers, the first being the default.  ``history``: the hand's history text
    (:mod:`sim.advisors.history`) or None; an advisor that cannot use it refuses it.
    ``packs``/``jokers``: the game's pack (52-card packs, jokers), by which the analysis side
    reads and checks a position's cards (:func:`position_cards`) without asking the game."""
    module: str
    opp_models: tuple[str, ...] = ("uniform",)
    packs: int = 1
    jokers: int = 0


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
