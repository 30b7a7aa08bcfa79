"""Knock Rummy's rules and turn kernels (the hand loop of :mod:`sim.variants.knock_rummy` and the
rollouts of its advisor and its ``search`` player, :mod:`sim.variants.knock_rummy_search`, are built
from them; the rules text is :mod:`sim.variants.knock_rummy`'s docstring).

Layout: the options (:class:`KnockRummyRules`, ``R_*``), the outcomes (``O_*``), the extra
columns (``X_*``) and the state vector (``S_*``, :func:`play_on`).  Kernels: :func:`deal`,
:func:`settle` (score an ending), a turn as :func:`draw` then :func:`finish_turn` (discard, knock
or not; :func:`turn_drawing` the heuristic's end of a turn, :func:`take_turn` the heuristic's
whole turn) and :func:`play_on` (play on from any position by the heuristics, no seat searching).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core import trace as TR
from ..core.bits import bit as _bit
from ..core.bits import check_closed_hands
from ..core.columns import (COL_ENDER, COL_OUTCOME, COL_SCORE, COL_STOCK_LEFT, COL_TURNS, MAX_SEATS, col_deadwood,
                            col_extra)
from ..core.deal import turn_upcard
from ..core.rules import RulesBase, option
from ..core.trace import log
from ..knock.melds import deadwood
from ..strategies import knock as K
from ..strategies.knock import choose_discard, knock_threshold_opp, wants_upcard
from ..strategies.random_play import coin

OUTCOMES = ("knock", "rummy", "beaten", "tie_void", "stock_void", "stock_showdown")
O_KNOCK, O_RUMMY, O_BEATEN, O_TIE_VOID, O_STOCK_VOID, O_STOCK_SHOWDOWN = range(len(OUTCOMES))
EXTRA_COLUMNS = ("winner", "points", "knock_deadwood", "knock_turn")
X_WINNER, X_POINTS, X_KNOCK_DW, X_KNOCK_TURN = (EXTRA_COLUMNS.index(c) for c in EXTRA_COLUMNS)
SETTLE = ("seed", "pairwise")
STOCK_OUT = ("void", "showdown")
SETTLE_SEED, SETTLE_PAIRWISE = range(2)
STOCK_VOID, STOCK_SHOWDOWN = range(2)


@dataclass(frozen=True)
class KnockRummyRules(RulesBase):
    VERSION = 1
    players: int = option(2, "number of players: 10 cards each with 2, 7 each with 3-5", 2, 5)
    settle: str = option("seed", "seed: the winner scores the others' deadwood minus its own "
                                 "(+bonus, +penalty), credited to the winner only; pairwise: every "
                                 "other player pays the winner (zero-sum)", choices=SETTLE)
    rummy_bonus: int = option(25, "bonus for winning with rummy (0 deadwood); pairwise: paid by "
                                  "each other player", 0, 1000)
    knocker_penalty: int = option(10, "extra points to the winner when the knocker does not win; "
                                      "pairwise: paid by the knocker", 0, 1000)
    stock_out: str = option("void", "stock exhausted without rummy or knock: void (no score, "
                                    "redeal) or showdown (lowest deadwood wins)", choices=STOCK_OUT)
    target_score: int = option(100, "game: hands are played until a player reaches this", 1, 100000)


R_PLAYERS = KnockRummyRules.index("players")
R_SETTLE = KnockRummyRules.index("settle")
R_RUMMY_BONUS = KnockRummyRules.index("rummy_bonus")
R_KNOCKER_PENALTY = KnockRummyRules.index("knocker_penalty")
R_STOCK_OUT = KnockRummyRules.index("stock_out")
assert KnockRummyRules.choice_index("settle", "pairwise") == SETTLE_PAIRWISE
assert KnockRummyRules.choice_index("stock_out", "showdown") == STOCK_SHOWDOWN

N_CARDS = 52
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_TURNS = 1000
END_KNOCK, END_RUMMY, END_STOCK = range(3)
# where deadwood0 and the extras start in a row of n seats (from the contract, as constants)
_COL_DW = np.array([col_deadwood(n) for n in range(MAX_SEATS + 1)], dtype=np.int64)
_COL_X = np.array([col_extra(n) for n in range(MAX_SEATS + 1)], dtype=np.int64)
# state vector (int64[S_WIDTH]): stock pointer, pile size, turns played, seat to move, own
# turns of seat p at S_OWN + p
S_SP, S_NPILE, S_TURNS, S_TO_MOVE, S_OWN = range(5)
S_WIDTH = S_OWN + MAX_PLAYERS


def hand_size(n_players: int) -> int:
    """Cards dealt to each player: 10 with two players, 7 with three to five."""
    return 10 if n_players == 2 else 7


@njit(cache=True, inline="always")
def _hand_size(n):
    return 10 if n == 2 else 7


# ----------------------------------------------------------------------------------------
# showdown and settlement

@njit(cache=True)
def settle(rules, dw, ender, kind, row):
    """Score the end of a hand: ``kind`` END_KNOCK / END_RUMMY (by seat ``ender``) or
    END_STOCK.  ``dw`` int64[n]: every seat's exact minimum deadwood (after the ender's
    discard).  Fills the score, deadwood, winner and points columns of ``row`` and returns the
    outcome code."""
    n = dw.shape[0]
    cd = _COL_DW[n]
    cx = _COL_X[n]
    low = 1 << 30
    total = 0
    for p in range(n):
        row[cd + p] = dw[p]
        row[COL_SCORE + p] = 0
        total += dw[p]
        if dw[p] < low:
            low = dw[p]
    n_low = 0
    first_low = -1
    for k in range(n):  # seats at the lowest deadwood, in play order from the ender's left
        q = (ender + 1 + k) % n
        if dw[q] == low:
            n_low += 1
            if first_low < 0:
                first_low = q
    winner = -1
    if kind == END_RUMMY:
        winner = ender
        outcome = O_RUMMY
    elif kind == END_KNOCK:
        if dw[ender] == low:
            winner = first_low  # a tied non-knocker comes before the knocker (last in order)
            outcome = O_KNOCK if winner == ender else O_BEATEN
        elif n_low == 1:
            winner = first_low
            outcome = O_BEATEN
        else:
            outcome = O_TIE_VOID
    elif rules[R_STOCK_OUT] == STOCK_VOID:
        outcome = O_STOCK_VOID
    else:
        outcome = O_STOCK_SHOWDOWN
        if n_low == 1:
            winner = first_low
    pts = 0
    if winner >= 0:
        bonus = np.int64(rules[R_RUMMY_BONUS]) if kind == END_RUMMY else 0
        penalty = np.int64(rules[R_KNOCKER_PENALTY]) if kind == END_KNOCK and winner != ender else 0
        if rules[R_SETTLE] == SETTLE_SEED:
            pts = total - 2 * dw[winner] + bonus + penalty
        else:
            for q in range(n):
                if q != winner:
                    pay = dw[q] - dw[winner] + bonus + (penalty if q == ender else 0)
                    row[COL_SCORE + q] = -pay
                    pts += pay
        row[COL_SCORE + winner] = pts
    row[cx + X_WINNER] = winner
    row[cx + X_POINTS] = pts
    return outcome


# ----------------------------------------------------------------------------------------
# one hand

@njit(cache=True, inline="always")
def draw(p, from_pile, deck, pile, picked, state, trace):
    """Seat ``p`` starts a turn (the turn counters) and draws the pile's top card
    (``from_pile``) or the stock's: ``(card, forbidden)``, the mask of the card it may not
    discard.  The card is not yet in ``hands[p]`` (:func:`finish_turn` puts it there)."""
    state[S_TURNS] += 1
    state[S_OWN + p] += 1
    if from_pile:
        state[S_NPILE] -= 1
        card = pile[state[S_NPILE]]
        picked[p] |= _bit(card)
        log(trace, TR.E_TAKE_PILE, p, card, 0)
        return card, _bit(card)
    card = deck[state[S_SP]]
    state[S_SP] += 1
    log(trace, TR.E_DRAW_STOCK, p, card, 0)
    return card, np.uint64(0)


@njit(cache=True, inline="always")
def finish_turn(rules, p, from_pile, card, code, dwa, knock, hands, dw, deck, pile, state, row, debug, trace):
    """Seat ``p``, having drawn ``card``, discards ``code`` (deadwood ``dwa`` after it) and
    knocks if ``knock`` (rummy at 0 deadwood, always); the hand also ends when the stock is out
    or at MAX_TURNS.  Returns True if the hand ended (``row`` filled)."""
    n = hands.shape[0]
    hands[p] = (hands[p] | _bit(card)) ^ _bit(code)
    pile[state[S_NPILE]] = code
    state[S_NPILE] += 1
    dw[p] = dwa
    log(trace, TR.E_DISCARD, p, code, dwa)
    stock_left = N_CARDS - state[S_SP]
    if debug:
        if from_pile and code == card:
            raise ValueError("the card taken from the pile was discarded")
        check_closed_hands(hands, deck, state[S_SP], pile, state[S_NPILE], N_CARDS)
    if dwa == 0:
        kind = END_RUMMY
    elif knock:
        kind = END_KNOCK
    elif stock_left == 0 or state[S_TURNS] >= MAX_TURNS:
        kind = END_STOCK
    else:
        return False
    if kind == END_KNOCK:
        log(trace, TR.E_KNOCK, p, dwa, 0)
    own_turn = state[S_OWN + p]
    row[COL_ENDER] = p
    row[COL_TURNS] = state[S_TURNS]
    row[COL_STOCK_LEFT] = stock_left
    row[COL_OUTCOME] = settle(rules, dw, p, kind, row)
    cx = _COL_X[n]
    row[cx + X_KNOCK_DW] = dwa if kind != END_STOCK else -1
    row[cx + X_KNOCK_TURN] = own_turn if kind != END_STOCK else -1
    log(trace, TR.E_END, p, row[COL_OUTCOME], 0)
    return True


@njit(cache=True, inline="always")
def opp_picked(picked, p):
    """The cards the seats other than ``p`` took from the pile (their union)."""
    opp = np.uint64(0)
    for q in range(picked.shape[0]):
        if q != p:
            opp |= picked[q]
    return opp


@njit(cache=True, inline="always")
def knock_limit(srow, state, p, n):
    """Seat ``p``'s heuristic knock threshold after its draw (own turn, stock left, n seats)."""
    return knock_threshold_opp(srow, state[S_OWN + p], N_CARDS - state[S_SP], n - 1)


@njit(cache=True, inline="always")
def turn_drawing(rules, strat, p, from_pile, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank,
                 st, row, debug, trace):
    """Seat ``p`` draws as ``from_pile`` says, then discards and knocks by its heuristic;
    returns True if the hand ended."""
    card, forbidden = draw(p, from_pile, deck, pile, picked, state, trace)
    code, dwa = choose_discard(strat[p], hands[p] | _bit(card), forbidden, opp_picked(picked, p), T_value, T_total,
                               T_rank, st[p])
    knock = dwa != 0 and coin(strat[p, K.P_RANDOM_PLAY], st[p], dwa <= knock_limit(strat[p], state, p,
                                                                                   hands.shape[0]))
    return finish_turn(rules, p, from_pile, card, code, dwa, knock, hands, dw, deck, pile, state, row, debug, trace)


@njit(cache=True, inline="always")
def heuristic_take(strat, p, hands, dw, pile, state, T_value, T_total, T_rank, st):
    """Does seat ``p``'s heuristic take the pile's top card (False: the pile is empty)?"""
    if state[S_NPILE] == 0:
        return False
    return coin(strat[p, K.P_RANDOM_PLAY], st[p], wants_upcard(strat[p], hands[p], dw[p], pile[state[S_NPILE] - 1],
                                                                T_value, T_total, T_rank))


@njit(cache=True)
def take_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank,
              st, row, debug, trace):
    """Seat ``p`` draws, discards and maybe ends the hand, by its heuristic.  ``dw`` int64[n]
    holds every seat's current deadwood (kept up to date here).  Returns True if the hand ended
    (row filled)."""
    from_pile = heuristic_take(strat, p, hands, dw, pile, state, T_value, T_total, T_rank, st)
    return turn_drawing(rules, strat, p, from_pile, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank,
                        st, row, debug, trace)


@njit(cache=True, inline="always")
def play_on(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank, st, row, debug, trace):
    """Play on from a position until the hand ends by the heuristics (no seat searches: the
    search's rollouts; :func:`sim.variants.knock_rummy.play_from_state` says what the arrays
    hold and picks the search player where a seat searches)."""
    n = hands.shape[0]
    dw = start_row(hands, row, T_value, T_total, T_rank)
    p = state[S_TO_MOVE]
    while not take_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total,
                        T_rank, st, row, debug, trace):
        p = (p + 1) % n
        state[S_TO_MOVE] = p


@njit(cache=True, inline="always")
def start_row(hands, row, T_value, T_total, T_rank):
    """Clear ``row`` (but ``dealer``) for a hand played on; every seat's deadwood."""
    n = hands.shape[0]
    for c in range(1, row.shape[0]):
        row[c] = 0
    dw = np.empty(n, dtype=np.int64)
    for p in range(n):
        dw[p] = deadwood(hands[p], T_value, T_total, T_rank)
    return dw


@njit(cache=True)
def deal(deck, dealer, hands, pile, picked, state):
    """Deal ``deck`` (a shuffled pack) one card at a time from the dealer's left to the
    ``n = hands.shape[0]`` seats (10 each with 2 players, 7 with 3-5), turn the upcard and set
    up ``pile``, ``picked`` and ``state`` for :func:`play_on`."""
    n = hands.shape[0]
    dealt = n * _hand_size(n)
    for p in range(n):
        hands[p] = 0
        picked[p] = 0
    for i in range(dealt):
        hands[(dealer + 1 + i) % n] |= _bit(deck[i])
    turn_upcard(deck, dealt, n, dealer, pile, state)     # the state's head is sim.core.deal's

