"""Knock Rummy / Poker Rummy, 2-5 players (rules: ``rules/knock_rummy.md``; source: seed 000,
second section, "Klop Rummy / Poker Rummy").

One 52-card pack; 10 cards each with 2 players, 7 each with 3-5, dealt one at a time from the
dealer's left; the upcard starts the pile.  Play starts left of the dealer, clockwise.  A turn:
draw the stock top or the pile top, discard (never the card just taken from the pile; a stock
card may be discarded at once), then end the hand or not: **rummy** (0 deadwood after the
discard) or **knock** at any deadwood.  No laying off.  Showdown: every seat's exact minimum
deadwood; the lowest wins; ties for lowest: a non-knocker beats the knocker; if the knocker is
not among the tied seats nobody wins.

| option          | default | meaning |
|-----------------|---------|---------|
| players         | 2       | 2-5 players (10 cards each with 2, 7 each with 3-5) |
| settle          | seed    | `seed`: the winner scores (others' deadwood summed) - (own deadwood), + rummy_bonus once for rummy, + knocker_penalty once when the knocker does not win; credited to the winner only (not zero-sum). `pairwise`: every other seat pays the winner (its deadwood - winner's), the rummy bonus is paid by each other seat, the penalty by the knocker (zero-sum) |
| rummy_bonus     | 25      | bonus for winning with rummy |
| knocker_penalty | 10      | extra points to the winner when the knocker does not win |
| stock_out       | void    | stock exhausted without rummy/knock: `void` (no score, redeal) or `showdown` (lowest deadwood wins as above, no knocker, no bonus, no penalty) |
| target_score    | 100     | a game is played until a player reaches this (whole games: sim.games) |

[choice]s where the rules are silent:

* Rummy is not a knock (the seed names them as two ways to end the hand, its tie rule speaks of
  the knocker): the rummy caller always wins with the bonus, even if another seat also holds 0
  deadwood.  A player always declares rummy at 0 deadwood (no strategy declines it).
* The knocker tied for lowest with two or more non-knockers: the first of them from the
  knocker's left wins (the other tied seats count as any other seat: under ``pairwise`` they
  pay a difference of 0).  Any non-knocker winning a knock is outcome ``beaten``.
* The stock is exhausted when a turn that drew its last card ends without rummy or knock: the
  hand then ends at once (``stock_void`` or ``stock_showdown``).  With ``showdown`` a tie for
  lowest means nobody wins (there is no knocker among the tied).
* ``MAX_TURNS`` (1000) guards against endless pile exchanges: a hand reaching it ends as if the
  stock were exhausted.  In a whole game a ``tie_void`` hand is a played hand without a winner
  (not a redeal); only ``stock_void`` is redealt.  The first dealer (highest cut card) is
  not simulated: hand ``h`` of a run is dealt by seat ``h % n``.

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``ender`` is the seat that ended the hand
(rummy, knock, or the last stock draw); ``winner`` -1 when nobody won; ``points`` what the
winner scored (0 without winner); ``knock_deadwood`` / ``knock_turn`` the ender's deadwood and
own turn number on rummy/knock (-1 on a stock-out).  ``deadwood{s}`` is every seat's exact
minimum deadwood at the end, void hands included.

Strategies (family ``threshold``, :mod:`sim.strategies.knock`; measured with seat 0 against
``simple`` opponents, mean points per hand of seat 0 minus the others' mean, paired on the
same deals): knocking early pays.  Against a field knocking at ``f`` the best single threshold
is far above ``f`` (about 35-40 with 2 players, 30 with 3-5 against f = 5..20), and against a
field that knocks on its first turn whatever it holds, no threshold we measured beats doing
the same: that is the equilibrium of this family, and a hand then lasts one turn.  Presets: ``simple`` knocks at
deadwood <= 15 (no small threshold is a good one: 15 is the smallest that keeps stock-out
voids under 5% with 2-4 players, so hands are played out; it is a baseline, not advice);
``rummy-hunter`` waits for rummy; ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) knocks at <= 40 on its first two turns, 30 from
own turn 3, 20 from turn 6, 2 lower per opponent beyond the first, with discard tracking:
against ``simple`` it gains 5.9 / 14.1 / 20.3 / 24.2 points per hand over ``simple`` with
2 / 3 / 4 / 5 players (95% CI +-0.2 / 0.4 / 0.5 / 0.6; 50,000 paired deals each, seed 4242;
picked on seeds 101 and 202), and loses 0.7 per hand to first-turn knockers (2 players).
The knock sweep's default range, 0..50, holds the best response to ``simple`` at every table.

Kernels: :func:`play_chunk` (one row per hand), :func:`play_hand`, :func:`play_from_state`
(continue from any position: rollouts; a searching seat decides by search there too),
:func:`play_on` (the same by the heuristics only), :func:`play_game_chunk` (whole games to
``target_score``, played by :mod:`sim.games`), :func:`settle` (score an ending).  A turn is
:func:`draw` then :func:`finish_turn` (discard, knock or not); :func:`_take_turn` is the
heuristic's, :mod:`sim.variants.knock_rummy_search` the ``search`` player's (strategy
parameter ``search_worlds`` > 0: draw, discard and knock by determinized Monte Carlo).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core import games, rng
from ..core import search_flag as SF
from ..core import trace as TR
from ..core.bits import bit as _bit
from ..core.bits import check_closed_hands
from ..core.deal import turn_upcard
from ..core.cards import standard_pack
from ..knock.melds import deadwood, meld_tables
from ..knock.shown import log_seats
from ..core.rules import RulesBase, option
from ..strategies import knock as K
from ..strategies.knock import choose_discard, knock_threshold_opp, wants_upcard
from ..strategies.random_play import coin
from ..core.trace import NO_TRACE, log, no_trace
from . import knock_rummy_search as KRS
from . import (COL_DEALER, COL_ENDER, COL_OUTCOME, COL_SCORE, COL_STOCK_LEFT, COL_TURNS, MAX_SEATS,
               Knob, WholeGame, col_deadwood, col_extra, hand_columns)
from .knock_games import knock_variant

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
def _take_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank,
               st, row, debug, trace):
    """Seat ``p`` draws, discards and maybe ends the hand, by its heuristic.  ``dw`` int64[n]
    holds every seat's current deadwood (kept up to date here).  Returns True if the hand ended
    (row filled)."""
    from_pile = heuristic_take(strat, p, hands, dw, pile, state, T_value, T_total, T_rank, st)
    return turn_drawing(rules, strat, p, from_pile, hands, dw, deck, pile, picked, state, T_value, T_total, T_rank,
                        st, row, debug, trace)


@njit(cache=True)
def play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank,
                    st, row, debug, trace, search=None):
    """Play on from a position until the hand ends; fills ``row`` (every column but
    ``dealer``, which the caller sets).

    ``hands`` uint64[n] (n seats, each with its hand between turns); ``deck`` int64[52] with
    the stock as ``deck[state[S_SP]:]`` (top first); ``pile`` int64[52] with ``state[S_NPILE]``
    discards (top last); ``picked`` uint64[n] the cards each seat took from the pile (the
    opponents' union drives the discard danger); ``state`` int64[S_WIDTH]: S_SP, S_NPILE,
    S_TURNS (turns played), S_TO_MOVE (seat to move), S_OWN + p (own turns of seat p);
    ``strat`` float64[n, PARAM_WIDTH]; ``st`` uint64[n, 1] strategy generators; ``row`` int64
    hand row of n seats; ``trace`` events (:mod:`sim.trace`, ``NO_TRACE`` for none).  The stock
    must not be empty (a hand whose stock ran out is over).  Searching seats (``search_worlds``
    > 0) decide by search (:func:`sim.variants.knock_rummy_search.play_on_search`) when
    ``search`` is given (:func:`search_arg`).
    """
    if search is not None:      # omitted: no seat searches, the search is not compiled in
        for p in range(hands.shape[0]):
            if strat[p, K.P_SEARCH_WORLDS] > 0:
                KRS.play_on_search(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank, st,
                                   row, debug, trace)
                return
    play_on(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank, st, row, debug, trace)


@njit(cache=True, inline="always")
def play_on(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank, st, row, debug, trace):
    """:func:`play_from_state` by the heuristics (no seat searches: the search's rollouts)."""
    n = hands.shape[0]
    dw = start_row(hands, row, T_value, T_total, T_rank)
    p = state[S_TO_MOVE]
    while not _take_turn(rules, strat, p, hands, dw, deck, pile, picked, state, T_value, T_total,
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
    up ``pile``, ``picked`` and ``state`` for :func:`play_from_state`."""
    n = hands.shape[0]
    dealt = n * _hand_size(n)
    for p in range(n):
        hands[p] = 0
        picked[p] = 0
    for i in range(dealt):
        hands[(dealer + 1 + i) % n] |= _bit(deck[i])
    turn_upcard(deck, dealt, n, dealer, pile, state)     # the state's head is sim.core.deal's


@njit(cache=True)
def play_hand(rules, strat, deck, dealer, T_value, T_total, T_rank, st, row, debug, trace, search=None):
    """Deal ``deck`` (int64[52], a shuffled pack) with ``dealer`` to ``rules[players]`` seats
    and play the hand; fills ``row``."""
    n = np.int64(rules[R_PLAYERS])
    hands = np.zeros(n, dtype=np.uint64)
    picked = np.zeros(n, dtype=np.uint64)
    pile = np.empty(N_CARDS, dtype=np.int64)
    state = np.zeros(S_WIDTH, dtype=np.int64)
    deal(deck, dealer, hands, pile, picked, state)
    if trace.shape[0] > 0:
        TR.log_pack(trace, deck)
        for i in range(state[S_SP] - 1):
            log(trace, TR.E_DEAL, (dealer + 1 + i) % n, deck[i], 0)
        log(trace, TR.E_UPCARD, -1, pile[0], 0)
    play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_total, T_rank,
                    st, row, debug, trace, search)
    row[COL_DEALER] = dealer
    if trace.shape[0] > 0:     # every seat's arrangement at the showdown, the ender's first
        log_seats(trace, hands, row[COL_ENDER], row[_COL_DW[n]:_COL_DW[n] + n], T_value, T_total, T_rank)


@njit(cache=True, nogil=True)
def _play_chunk(rules, strat, seed, first_hand, out, ctx, debug, trace, search=None):
    pack, T_value, T_total, T_rank = ctx
    n = np.int64(rules[R_PLAYERS])
    st = np.empty((n, 1), dtype=np.uint64)
    deck = np.empty(N_CARDS, dtype=np.int64)
    for i in range(out.shape[0]):
        h, _ = rng.shuffle_hand(seed, first_hand + i, n, pack, deck, n * _hand_size(n))
        rng.seat_streams(seed, h, st)
        play_hand(rules, strat, deck, h % n, T_value, T_total, T_rank, st, out[i], debug, trace, search)


@njit(cache=True, nogil=True)
def _play_game_chunk(rules, strat, layout, seed, first_game, out, ctx, debug, search=None):
    """Games ``first_game ..`` (the loop of :mod:`sim.games`; every seat plays every hand)."""
    pack, T_value, T_total, T_rank = ctx
    per, sc, st, row = games.game_buffers(strat.shape[0], layout)
    deck = np.empty(N_CARDS, dtype=np.int64)
    untraced = no_trace()
    for i in range(out.shape[0]):
        dst = games.begin_game(per, sc, st, seed, first_game + i)
        while games.game_running(per, sc, layout):
            row[:] = 0
            rng.shuffle_into(dst, pack, deck)
            play_hand(rules, strat, deck, sc[games.S_DEALER], T_value, T_total, T_rank, st, row, debug,
                      untraced, search)
            games.record_hand(per, sc, layout, row)
        games.finish_game(per, sc, layout, out[i])


_PACK = standard_pack()
TABLES = meld_tables()
GAME_CTX = (_PACK, TABLES.run_value, TABLES.suit_total, TABLES.rank_value)


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=NO_TRACE):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (see the sim.variants contract).
    Hand ``h``: deal generator ``(seed, STREAM_DEAL, h)``, dealer ``h % n``, seat ``p``'s
    strategy generator ``(seed, STREAM_STRATEGY + p, h)``.  ``debug`` checks card conservation
    after every discard (raises ValueError); ``trace`` records the events (:mod:`sim.trace`)."""
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = int(rules_arr[R_PLAYERS])
    if not MIN_PLAYERS <= n <= MAX_PLAYERS or strat_mat.shape[0] != n:
        raise ValueError(f"knock-rummy: rules say players={n}, {strat_mat.shape[0]} strategies given")
    if any(int(c) != K.FAMILY_CODE for c in strat_mat[:, 0]):
        raise ValueError(f"knock-rummy needs strategies of family 'threshold' (code {K.FAMILY_CODE})")
    width = len(hand_columns(n, EXTRA_COLUMNS))
    if out.ndim != 2 or out.shape[1] != width or out.dtype != np.int64:
        raise ValueError(f"out must be int64 (n_hands, {width})")
    _play_chunk(rules_arr, strat_mat, np.int64(seed), np.int64(first_hand), out, GAME_CTX, bool(debug),
                trace, *search_arg(strat_mat))


def search_arg(strat_mat) -> tuple:
    """The kernels' trailing ``search`` argument (:mod:`sim.core.search_flag`)."""
    return SF.search_arg(strat_mat, K.P_SEARCH_WORLDS)


GAME = WholeGame(kind="target", limit_rule="target_score", winner_column="winner", void_outcome=O_STOCK_VOID)
play_game_chunk = games.game_kernel(_play_game_chunk, GAME_CTX, GAME, KnockRummyRules, EXTRA_COLUMNS, search_arg)


# The ladder's strongest preset is the tuned strong (README "Every game's strong"); the hand-picked
# hand-strong beats simple by +2.93 [2.90, 2.96] points/hand (2 players, 100k duplicate deals,
# seed 0); rummy-hunter loses 2.16.
VARIANT = knock_variant(
    "knock-rummy", KnockRummyRules, (MIN_PLAYERS, MAX_PLAYERS), OUTCOMES, play_chunk, EXTRA_COLUMNS,
    "Knock Rummy (Poker Rummy): 2-5 players, 10/7 cards, knock at any deadwood, lowest "
    "deadwood wins the others' deadwood; rummy +25, beaten knocker +10 to the winner.",
    advisor="sim.variants.knock_rummy_search", opp_models=("played", "uniform"), score_unit="points", hand_word="deadwood",
    zero_sum=lambda r: r.settle == "pairwise", max_turns=MAX_TURNS, no_out_outcomes=("stock_void", "stock_showdown"),
    game=GAME, game_kernel=play_game_chunk,
    knob=Knob("knock", "knock_mid", "knock_late", "mid_from", "late_from", same=-1,
              default_range=(0, 50), limit_rule=None, bucket_kinds=("turn", "stock"),
              bucket_by="bucket_by", at_zero="go for rummy; never knock"),
)
