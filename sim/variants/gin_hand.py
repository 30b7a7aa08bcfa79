"""Gin Rummy's rules and turn kernels (the hand loop of :mod:`sim.variants.gin` and the
rollouts of its advisor and its ``search`` player are built from them).

Kernels: :func:`showdown` (score a knock), :func:`_take_turn` = :func:`draw` +
:func:`finish_turn` (a discard and a knock chosen by the strategy, or given by the caller),
:func:`play_from_state` / :func:`_play_on` (play on from any position with the strategies'
heuristics).  State layout: ``S_*`` below, see :func:`_play_on`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core.bits import bit as _bit
from ..core.bits import check_closed_hands
from ..knock.layoffs import arrangement_fewest_spots, layoff_deadwood
from ..knock.meld_choice import arrangement_random
from ..knock.melds import MAX_MELDS, arrangement, best_discards, deadwood
from ..knock.shown import log_knock, log_seats
from ..core.rules import RulesBase, RulesError, option
from ..strategies import knock as K
from ..core import trace as TR
from ..strategies.knock import choose_discard, knock_threshold, wants_upcard
from ..strategies.marjj import arrangement_marjj, marjj_discard, marjj_takes
from ..strategies.random_play import coin
from ..core.trace import log
from . import COL_ENDER, COL_OUTCOME, COL_STOCK_LEFT, COL_TURNS, column_index

OUTCOMES = ("knock", "gin", "undercut", "void", "big_gin")
O_KNOCK, O_GIN, O_UNDERCUT, O_VOID, O_BIG_GIN = range(5)
EXTRA_COLUMNS = ("winner", "points", "knock_deadwood", "knock_turn")


@dataclass(frozen=True)
class GinRules(RulesBase):
    VERSION = 1
    knock_limit: int = option(10, "knock allowed when deadwood after the discard is <= this", 0, 100)
    gin_bonus: int = option(25, "bonus for gin (knocking with 0 deadwood)", 0, 1000)
    undercut_bonus: int = option(25, "bonus to a defender whose deadwood <= the knocker's", 0, 1000)
    first_upcard_offer: bool = option(True, "non-dealer, then dealer, may take the first upcard")
    discard_stock_draw: bool = option(False, "the card just drawn from the stock may be discarded "
                                             "at once (off: seed 004, the card just taken is never discarded)")
    void_stock_left: int = option(2, "hand is void when a discard without knock leaves this many stock cards", 0, 31)
    oklahoma: bool = option(False, "knock limit = value of the first upcard (ace: gin only)")
    big_gin: bool = option(False, "11 cards melded after the draw end the hand (big gin)")
    big_gin_bonus: int = option(31, "bonus for big gin", 0, 1000)
    target_score: int = option(100, "game: hands are played until a player reaches this", 1, 100000)
    game_bonus: int = option(0, "game: bonus to the game winner (house rule: 100)", 0, 10000)
    line_bonus: int = option(0, "game: bonus per hand won (house rule: 25)", 0, 1000)
    shutout_double: bool = option(False, "game: a shutout (loser scored 0) counts double")
    undercut_on_tie: bool = option(True, "equal deadwood (no gin) is an undercut (off: the hand scores 0, OpenSpiel)")
    openspiel_wall: bool = option(False, "at void_stock_left the next player may take the upcard only to knock, "
                                         "else the hand is void (OpenSpiel's wall)")
    layoff_mode: str = option("joint", "joint: defender's arrangement and layoffs chosen together; seed: "
                                       "arrange own melds first, then lay off deadwood only", choices=("joint", "seed"))

    def validate(self) -> None:
        super().validate()
        if self.oklahoma and self.knock_limit != 10:
            raise RulesError("oklahoma sets the knock limit from the upcard: drop knock_limit or oklahoma")


R_KNOCK_LIMIT = GinRules.index("knock_limit")
R_GIN_BONUS = GinRules.index("gin_bonus")
R_UNDERCUT_BONUS = GinRules.index("undercut_bonus")
R_FIRST_UPCARD = GinRules.index("first_upcard_offer")
R_DISCARD_STOCK = GinRules.index("discard_stock_draw")
R_VOID_LEFT = GinRules.index("void_stock_left")
R_OKLAHOMA = GinRules.index("oklahoma")
R_BIG_GIN = GinRules.index("big_gin")
R_BIG_GIN_BONUS = GinRules.index("big_gin_bonus")
R_TARGET = GinRules.index("target_score")
R_GAME_BONUS = GinRules.index("game_bonus")
R_LINE_BONUS = GinRules.index("line_bonus")
R_SHUTOUT = GinRules.index("shutout_double")
R_UNDERCUT_TIE = GinRules.index("undercut_on_tie")
R_WALL = GinRules.index("openspiel_wall")
R_LAYOFF_SEED = GinRules.index("layoff_mode")  # choice index: 0 joint, 1 seed

N_CARDS = 52
HAND = 10
_C = column_index(2, EXTRA_COLUMNS)          # hand row columns (two seats)
C_SCORE, C_DW = _C["score0"], _C["deadwood0"]
C_WINNER, C_POINTS, C_KNOCK_DW, C_KNOCK_TURN = (_C[c] for c in EXTRA_COLUMNS)
MAX_TURNS = 1000  # guard against endless discard-pile exchanges: such a hand is void
# state vector layout (int64), see _play_on
S_SP, S_NPILE, S_TURNS, S_OWN0, S_OWN1, S_TO_MOVE, S_FORCE_STOCK, S_LIMIT, S_WIDTH = range(9)


# ----------------------------------------------------------------------------------------
# small helpers: the decision kernels live in sim/strategies/knock.py (shared by the knock
# games) and are imported above: knock_threshold, choose_discard, wants_upcard (_near, _danger)


# ----------------------------------------------------------------------------------------
# one hand

@njit(cache=True)
def showdown(rules, strat, hands, knocker, dw_knocker, big, T_value, T_cover, T_starts,
              T_total, T_rank, row, st, trace, known):
    """Score a knock; fills score/deadwood/winner/points columns; returns the outcome code.
    ``st``: the seats' strategy generators (``arrange=2`` draws arrangements from them).
    ``known`` uint64[2, 2]: per seat the cards it has seen and the cards its opponent took from
    the pile (``arrange=3``; :func:`knowledge`).
    ``trace``: the arrangements shown, as ``show`` rows (:mod:`sim.knock.shown`; where no
    lay-off is made, gin or big gin included, each seat's first minimum arrangement).
    Callers pass ``knocker``, ``dw_knocker`` and ``big`` typed (``np.int64(0)``, ``np.bool_``),
    never as bare constants: numba compiles a call with a constant argument for that literal
    value, and showdown then compiled three times (5 s of Gin's cold start)."""
    d = 1 - knocker
    dd_raw = deadwood(hands[d], T_value, T_total, T_rank)
    if big:
        pts = dd_raw + np.int64(rules[R_BIG_GIN_BONUS])
        winner = knocker
        outcome = O_BIG_GIN
        dd = dd_raw
    elif dw_knocker == 0:
        pts = dd_raw + np.int64(rules[R_GIN_BONUS])
        winner = knocker
        outcome = O_GIN
        dd = dd_raw
    else:
        if strat[d, K.P_LAYOFF] != 0:
            dd = _laid_off(rules, strat, hands, knocker, T_value, T_cover, T_starts, T_total, T_rank, st, trace,
                           known)
        else:
            dd = dd_raw
        if dd < dw_knocker or (dd == dw_knocker and rules[R_UNDERCUT_TIE] != 0):
            pts = dw_knocker - dd + np.int64(rules[R_UNDERCUT_BONUS])
            winner = d
            outcome = O_UNDERCUT
        elif dd == dw_knocker:  # a tie scores nothing (undercut_on_tie off)
            pts = 0
            winner = -1
            outcome = O_KNOCK
        else:
            pts = dd - dw_knocker
            winner = knocker
            outcome = O_KNOCK
    if trace.shape[0] > 0 and (big or dw_knocker == 0 or strat[d, K.P_LAYOFF] == 0):
        dws = np.zeros(2, dtype=np.int64)
        dws[knocker], dws[d] = dw_knocker, dd
        log_seats(trace, hands, knocker, dws, T_value, T_total, T_rank)
    row[C_SCORE + max(winner, 0)] = pts
    row[C_SCORE + 1 - max(winner, 0)] = -pts
    row[C_DW + knocker] = dw_knocker
    row[C_DW + d] = dd
    row[C_WINNER] = winner
    row[C_POINTS] = pts
    row[C_KNOCK_DW] = dw_knocker
    return outcome


@njit(cache=True)
def _laid_off(rules, strat, hands, knocker, T_value, T_cover, T_starts, T_total, T_rank, st, trace, known):
    """The defender's deadwood after laying off onto the knocker's shown melds.  ``arrange=2``
    (the knocker's): it shows a random minimum arrangement (:mod:`sim.knock.meld_choice`);
    ``arrange=3``: MARJJ's (:func:`sim.strategies.marjj.arrangement_marjj`, by ``known``); the
    defender's ``arrange=2`` or 3 with ``layoff_mode=seed``: it arranges its own cards the same
    way and lays off that arrangement's deadwood cards.  ``trace``: the melds used and
    the lay-offs made (:func:`sim.knock.shown.log_knock`)."""
    d = 1 - knocker
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    ka = strat[knocker, K.P_ARRANGE]
    if ka == 2:
        _, n, _ = arrangement_random(hands[knocker], T_value, T_cover, T_starts, T_total, T_rank, melds,
                                     st[knocker])
    elif ka == 3:
        _, n, _ = arrangement_marjj(hands[knocker], known[knocker, 1], known[knocker, 0], T_value, T_cover,
                                    T_starts, T_total, T_rank, melds)
    elif ka != 0:
        _, n, _ = arrangement_fewest_spots(hands[knocker], T_value, T_cover, T_starts, T_total, T_rank, melds)
    else:
        _, n, _ = arrangement(hands[knocker], T_value, T_cover, T_starts, T_total, T_rank, melds)
    seed_mode = rules[R_LAYOFF_SEED] != 0
    own, n_own, dead = melds, 0, np.uint64(0)      # the defender's own arrangement, where computed
    da = strat[d, K.P_ARRANGE]
    if seed_mode and (da == 2 or da == 3):
        own = np.zeros((MAX_MELDS, 4), dtype=np.int64)
        if da == 2:
            _, n_own, dead = arrangement_random(hands[d], T_value, T_cover, T_starts, T_total, T_rank, own, st[d])
        else:
            _, n_own, dead = arrangement_marjj(hands[d], known[d, 1], known[d, 0], T_value, T_cover, T_starts,
                                               T_total, T_rank, own)
        dd, laid = layoff_deadwood(dead, melds, n, T_value, T_total, T_rank, 13, np.bool_(False))
    else:
        dd, laid = layoff_deadwood(hands[d], melds, n, T_value, T_total, T_rank, 13, seed_mode)
        if trace.shape[0] > 0:     # the defender's own melds: a minimum arrangement of what it keeps
            own = np.zeros((MAX_MELDS, 4), dtype=np.int64)
            _, n_own, dead = arrangement(hands[d] & ~laid, T_value, T_cover, T_starts, T_total, T_rank, own)
    if trace.shape[0] > 0:
        log_knock(trace, knocker, hands[knocker], melds, n, d, own, n_own, dead & ~laid, laid, dd, T_total, 13)
    return dd


@njit(cache=True, inline="always")
def _take_turn(rules, strat, p, from_pile, hands, dw, deck, pile, picked, pairs, state,
               T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace):
    """Player ``p`` draws, discards and maybe knocks as its strategy decides
    (:func:`draw`, :func:`finish_turn`).  Returns True if the hand ended (row filled)."""
    card, forbidden = draw(rules, p, from_pile, deck, pile, picked, state, trace)
    return finish_turn(rules, strat, p, from_pile, card, forbidden, -1, -1, hands, dw, deck, pile, picked, pairs,
                       state, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace)


@njit(cache=True, inline="always")
def draw(rules, p, from_pile, deck, pile, picked, state, trace):
    """Seat ``p`` takes the pile's top card (``from_pile``) or draws the stock's; its hand is
    not changed yet.  Returns ``(card, forbidden)``: the card and the mask of the card it may
    not discard this turn."""
    state[S_TURNS] += 1
    state[S_OWN0 + p] += 1
    if from_pile:
        state[S_NPILE] -= 1
        card = pile[state[S_NPILE]]
        picked[p] |= _bit(card)
        forbidden = _bit(card)
        log(trace, TR.E_TAKE_PILE, p, card, 0)
    else:
        card = deck[state[S_SP]]
        state[S_SP] += 1
        forbidden = np.uint64(0) if rules[R_DISCARD_STOCK] != 0 else _bit(card)
        log(trace, TR.E_DRAW_STOCK, p, card, 0)
    return card, forbidden


@njit(cache=True, inline="always")
def finish_turn(rules, strat, p, from_pile, card, forbidden, discard, knock, hands, dw, deck, pile, picked, pairs,
                state, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace):
    """The rest of seat ``p``'s turn after :func:`draw` gave ``card``: big gin, the discard
    (``discard`` >= 0: that card; -1: the strategy's), the knock (``knock`` 1 or 0: knock or
    not where the rules allow; -1: the strategy's threshold) and the void.  Returns True if
    the hand ended (row filled).  ``pairs[p, c]``: the cards ``p`` discarded this hand after
    drawing ``c``, or drew before discarding ``c`` (``no_repeat``)."""
    own_turn = state[S_OWN0 + p]
    hand = hands[p] | _bit(card)
    stock_left = N_CARDS - state[S_SP]
    if rules[R_BIG_GIN] != 0 and deadwood(hand, T_value, T_total, T_rank) == 0:
        hands[p] = hand
        _end(row, p, state[S_TURNS], stock_left, own_turn)
        row[COL_OUTCOME] = showdown(rules, strat, hands, p, np.int64(0), np.bool_(True), T_value, T_cover, T_starts,
                                     T_total, T_rank, row, st, trace, knowledge(hands, pile, state[S_NPILE], picked))
        log(trace, TR.E_END, p, row[COL_OUTCOME], 0)
        return True
    no_repeat = strat[p, K.P_NO_REPEAT] != 0
    if discard >= 0:
        code = discard
        dwa = deadwood(hand ^ _bit(code), T_value, T_total, T_rank)
    else:
        if no_repeat and hand & ~(forbidden | pairs[p, card]):
            forbidden |= pairs[p, card]
        if strat[p, K.P_DISCARD_RULE] == 2:
            code, dwa = marjj_discard(hand, forbidden, picked[1 - p], seen_by(hand, pile, state[S_NPILE], picked),
                                      own_turn, T_value, T_total, T_rank, st[p])
        else:
            code, dwa = choose_discard(strat[p], hand, forbidden, picked[1 - p], T_value, T_total, T_rank, st[p])
    if no_repeat:
        pairs[p, card] |= _bit(code)
        pairs[p, code] |= _bit(card)
    hands[p] = hand ^ _bit(code)
    pile[state[S_NPILE]] = code
    state[S_NPILE] += 1
    dw[p] = dwa
    log(trace, TR.E_DISCARD, p, code, dwa)
    if debug:
        check_closed_hands(hands, deck, state[S_SP], pile, state[S_NPILE], N_CARDS)
    limit = state[S_LIMIT]
    if dwa <= limit and (knock == 1 if knock >= 0 else
                         coin(strat[p, K.P_RANDOM_PLAY], st[p], dwa <= knock_threshold(strat[p], own_turn, stock_left))):
        log(trace, TR.E_KNOCK, p, dwa, 0)
        _end(row, p, state[S_TURNS], stock_left, own_turn)
        row[COL_OUTCOME] = showdown(rules, strat, hands, p, dwa, np.bool_(False), T_value, T_cover, T_starts, T_total,
                                     T_rank, row, st, trace, knowledge(hands, pile, state[S_NPILE], picked))
        log(trace, TR.E_END, p, row[COL_OUTCOME], 0)
        return True
    # the wall (openspiel_wall): after a stock draw the next player may still knock with the upcard
    if (stock_left <= rules[R_VOID_LEFT] and (rules[R_WALL] == 0 or from_pile)) or state[S_TURNS] >= MAX_TURNS:
        _void(row, p, state[S_TURNS], stock_left, dw, trace)
        return True
    return False


@njit(cache=True)
def seen_by(hand, pile, npile, picked):
    """The cards a seat holding ``hand`` has held or seen face up this hand: its hand, the
    discard pile's ``npile`` cards and every card taken from the pile (``picked``)."""
    seen = hand | picked[0] | picked[1]
    for i in range(npile):
        seen |= _bit(pile[i])
    return seen


@njit(cache=True, inline="always")
def takes_upcard(strat, p, hands, dw_p, pile, npile, picked, T_value, T_cover, T_starts, T_total, T_rank):
    """Seat ``p``'s heuristic: take the pile's top card?  ``upcard=3`` (MARJJ) by what the seat
    has seen (:func:`sim.strategies.marjj.marjj_takes`), else :func:`wants_upcard`."""
    up = pile[npile - 1]
    if strat[p, K.P_UPCARD] == 3:
        return marjj_takes(hands[p], dw_p, up, picked[1 - p], seen_by(hands[p], pile, npile, picked), T_value,
                           T_cover, T_starts, T_total, T_rank)
    return wants_upcard(strat[p], hands[p], dw_p, up, T_value, T_total, T_rank)


@njit(cache=True)
def knowledge(hands, pile, npile, picked):
    """:func:`showdown`'s ``known``: per seat the cards it has seen (:func:`seen_by`) and the
    cards its opponent took from the pile."""
    known = np.empty((2, 2), dtype=np.uint64)
    for q in range(2):
        known[q, 0] = seen_by(hands[q], pile, npile, picked)
        known[q, 1] = picked[1 - q]
    return known


@njit(cache=True)
def no_knowledge():
    """:func:`showdown`'s ``known`` where the hand's history is not followed: nothing seen."""
    return np.zeros((2, 2), dtype=np.uint64)


@njit(cache=True)
def _void(row, p, turns, stock_left, dw, trace):
    """Fill ``row`` for a void hand ended by ``p``: no score."""
    _end(row, p, turns, stock_left, -1)
    row[COL_OUTCOME] = O_VOID
    for q in range(2):
        row[C_SCORE + q] = 0
        row[C_DW + q] = dw[q]
    row[C_WINNER] = -1
    row[C_POINTS] = 0
    row[C_KNOCK_DW] = -1
    log(trace, TR.E_END, p, O_VOID, 0)


@njit(cache=True)
def _wall_knock(srow, hand, up, own_turn, limit, stock_left, T_value, T_total, T_rank):
    """At the wall: can the player knock by taking the upcard (best legal discard within the
    rules' limit and the strategy's threshold)?"""
    best, _ = best_discards(hand | _bit(up), _bit(up), T_value, T_total, T_rank)
    return best <= limit and best <= knock_threshold(srow, own_turn, stock_left)


@njit(cache=True)
def _end(row, ender, turns, stock_left, knock_turn):
    """The columns of a hand's end that every ending fills."""
    row[COL_ENDER] = ender
    row[COL_TURNS] = turns
    row[COL_STOCK_LEFT] = stock_left
    row[C_KNOCK_TURN] = knock_turn


@njit(cache=True, inline="always")     # a wrapper: a level less for a first compile to link
def play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover, T_starts,
                    T_total, T_rank, st, row, debug, trace):
    """Play on from a position until the hand ends (:func:`_play_on` with no draw-discard pairs
    remembered)."""
    _play_on(rules, strat, hands, deck, pile, picked, _no_pairs(), state, T_value, T_cover, T_starts,
             T_total, T_rank, st, row, debug, trace)


@njit(cache=True)
def _no_pairs():
    return np.zeros((2, 64), dtype=np.uint64)


@njit(cache=True)
def _play_on(rules, strat, hands, deck, pile, picked, pairs, state, T_value, T_cover, T_starts,
             T_total, T_rank, st, row, debug, trace):
    """Play on from a position until the hand ends; fills ``row`` (columns 1.. of a hand row).

    ``hands`` uint64[2]; ``deck`` int64[52] with the stock as ``deck[state[S_SP]:]`` (top
    first); ``pile`` int64[52] with ``state[S_NPILE]`` discards (top last); ``picked``
    uint64[2] cards each seat took from the pile; ``pairs`` uint64[2, 64] (:func:`_take_turn`);
    ``state`` int64[S_WIDTH]; ``st`` uint64[2, 1]
    strategy generators; ``trace`` events (:mod:`sim.trace`, ``NO_TRACE`` for none).
    ``state[S_FORCE_STOCK]`` = 1 makes the player to move draw from the stock (after both passed
    the first upcard).
    """
    dw = deadwoods(hands, T_value, T_total, T_rank)
    p = state[S_TO_MOVE]
    while not heuristic_turn(rules, strat, p, hands, dw, deck, pile, picked, pairs, state, T_value, T_cover,
                             T_starts, T_total, T_rank, st, row, debug, trace):
        p = 1 - p
        state[S_TO_MOVE] = p


@njit(cache=True)
def deadwoods(hands, T_value, T_total, T_rank):
    """int64[2]: each seat's deadwood."""
    dw = np.empty(2, dtype=np.int64)
    for p in range(2):
        dw[p] = deadwood(hands[p], T_value, T_total, T_rank)
    return dw


@njit(cache=True, inline="always")
def at_wall(rules, state):
    """True when the next draw meets OpenSpiel's wall (``openspiel_wall``): the player to move
    may only take the upcard to knock."""
    return (rules[R_WALL] != 0 and N_CARDS - state[S_SP] <= rules[R_VOID_LEFT]
            and state[S_FORCE_STOCK] == 0)


@njit(cache=True, inline="always")
def heuristic_turn(rules, strat, p, hands, dw, deck, pile, picked, pairs, state, T_value, T_cover, T_starts,
                   T_total, T_rank, st, row, debug, trace):
    """Seat ``p``'s whole turn as its strategy's heuristic plays it: the wall, the upcard or
    the stock, the discard and the knock.  Returns True if the hand ended (row filled)."""
    from_pile = False
    if at_wall(rules, state):
        stock_left = N_CARDS - state[S_SP]
        if not _wall_knock(strat[p], hands[p], pile[state[S_NPILE] - 1], state[S_OWN0 + p] + 1,
                           state[S_LIMIT], stock_left, T_value, T_total, T_rank):
            log(trace, TR.E_PASS, p, pile[state[S_NPILE] - 1], 0)
            _void(row, p, state[S_TURNS], stock_left, dw, trace)
            return True
        from_pile = True
    elif state[S_FORCE_STOCK] == 0 and state[S_NPILE] > 0:
        from_pile = coin(strat[p, K.P_RANDOM_PLAY], st[p], takes_upcard(
            strat, p, hands, dw[p], pile, state[S_NPILE], picked, T_value, T_cover, T_starts, T_total, T_rank))
    state[S_FORCE_STOCK] = 0
    return _take_turn(rules, strat, p, from_pile, hands, dw, deck, pile, picked, pairs, state,
                      T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace)
