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
| target_score    | 100     | a game is played until a player reaches this (whole games: sim.core.games) |

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

This module is the game's declaration and its hand loop: the rules and the turn kernels are
:mod:`sim.variants.knock_rummy_turn` (:func:`~sim.variants.knock_rummy_turn.deal`,
:func:`~sim.variants.knock_rummy_turn.settle`, a turn as
:func:`~sim.variants.knock_rummy_turn.draw` then :func:`~sim.variants.knock_rummy_turn.finish_turn`,
:func:`~sim.variants.knock_rummy_turn.play_on` by the heuristics only; their names importable from
here too), the ``search`` player :mod:`sim.variants.knock_rummy_search` (strategy parameter
``search_worlds`` > 0: draw, discard and knock by determinized Monte Carlo).  Kernels:
:func:`play_chunk` (one row per hand), :func:`play_hand`, :func:`play_from_state` (continue from
any position: rollouts; it picks the search player where a seat searches), :func:`play_game_chunk`
(whole games to ``target_score``, played by :mod:`sim.core.games`).  The knock advisor's
declaration (``ADVISOR``, its world pieces: :mod:`sim.advisors.advisor`) is at the end.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..advisors import worlds as A
from ..core import games, rng
from ..core import search_flag as SF
from ..core import trace as TR
from ..core.bits import bit as _bit
from ..core.cards import standard_pack, to_mask
from ..core.errors import AdviceError
from ..core.trace import NO_TRACE, log, no_trace
from ..knock.melds import deadwood, meld_tables, min_deadwood
from ..knock.shown import log_seats
from ..strategies import history_weights as HW
from ..strategies import knock as K
from . import COL_DEALER, COL_ENDER, Knob, WholeGame, column_index, hand_columns
from . import knock_rummy_search as KRS
from .knock_games import knock_variant
from .knock_rummy_turn import (COL_SCORE, END_KNOCK, END_RUMMY, END_STOCK, EXTRA_COLUMNS, MAX_PLAYERS,  # noqa: F401
                               MAX_TURNS, MIN_PLAYERS, N_CARDS, O_BEATEN, O_KNOCK, O_RUMMY, O_STOCK_SHOWDOWN,
                               O_STOCK_VOID, O_TIE_VOID, OUTCOMES, R_KNOCKER_PENALTY, R_PLAYERS, R_RUMMY_BONUS,
                               R_SETTLE, R_STOCK_OUT, S_NPILE, S_OWN, S_SP, S_TO_MOVE, S_TURNS, S_WIDTH, SETTLE,
                               SETTLE_PAIRWISE, SETTLE_SEED, STOCK_OUT, STOCK_SHOWDOWN, STOCK_VOID, X_KNOCK_DW,
                               X_KNOCK_TURN, X_POINTS, X_WINNER, KnockRummyRules, _COL_DW, _hand_size, deal, draw,
                               finish_turn, hand_size, heuristic_take, knock_limit, opp_picked, play_on, settle,
                               start_row, take_turn, turn_drawing)


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
    hand row of n seats; ``trace`` events (:mod:`sim.core.trace`, ``NO_TRACE`` for none).  The stock
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
    """Games ``first_game ..`` (the loop of :mod:`sim.core.games`; every seat plays every hand)."""
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
    after every discard (raises ValueError); ``trace`` records the events (:mod:`sim.core.trace`)."""
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
    advisor="sim.variants.knock_rummy", opp_models=("played", "uniform"), score_unit="points", hand_word="deadwood",
    zero_sum=lambda r: r.settle == "pairwise", max_turns=MAX_TURNS, no_out_outcomes=("stock_void", "stock_showdown"),
    game=GAME, game_kernel=play_game_chunk,
    knob=Knob("knock", "knock_mid", "knock_late", "mid_from", "late_from", same=-1,
              default_range=(0, 50), limit_rule=None, bucket_kinds=("turn", "stock"),
              bucket_by="bucket_by", at_zero="go for rummy; never knock"),
)


# ----------------------------------------------------------------------------------------
# the knock advisor's declaration (sim.advisors.advisor): "knock now" vs "play on" after my
# draw and discard, seat 0 playing first.  A: every seat's exact deadwood shown, settled by
# knock_rummy.settle with me as the ender (rummy at 0 deadwood, else a knock, legal at any);
# B: seat 1 moves with my discard on the pile (knock_rummy.play_from_state; void: 0).  "Won":
# I am the hand's winner.  Model "played": the opponents' deals replayed (sim.advisors.worlds.replayed), or
# with a history its turns weigh the world.

KnockRummyWorld = namedtuple("KnockRummyWorld", "rules strat hand dw0 stock_size known own picked0 replay H use_h "
                                                "T_value T_total T_rank c_winner deck pile dealt hands picked dw "
                                                "state row st dws hands_out search")


def _advice_deal(g, perm, pos, ws):
    if g.use_h:
        return HW.history_hands(g.H, g.strat, perm, pos, g.replay > 0, True, False, g.dealt, g.T_value, g.T_total,
                                g.T_rank, ws)
    n = g.strat.shape[0]
    hs = 10 if n == 2 else 7
    for s in range(1, n):
        g.dealt[s] = A.deal_mask(perm, pos, hs)
        pos += hs
    return pos, A.replayed(g, perm, pos + g.stock_size, g.replay, g.own[0], g.stock_size, ws)


def _advice_replay_turn(g, s, c, t, stock_then, ws):
    h = g.dealt[s] | _bit(c)
    code, dw = K.choose_discard(g.strat[s], h, np.uint64(0), np.uint64(0), g.T_value, g.T_total, g.T_rank, ws)
    g.dealt[s] = h ^ _bit(code)
    return code, dw == 0 or dw <= K.knock_threshold_opp(g.strat[s], t, stock_then, g.strat.shape[0] - 1)


def _advice_end_now(g, i):
    n = g.strat.shape[0]
    g.dw[0] = g.dw0
    g.dws[i, 0] = g.dw0
    g.hands_out[i, 0] = g.hand
    for s in range(1, n):
        g.dw[s] = deadwood(g.dealt[s], g.T_value, g.T_total, g.T_rank)
        g.dws[i, s] = g.dw[s]
        g.hands_out[i, s] = g.dealt[s]
    g.row[:] = 0
    settle(g.rules, g.dw, 0, END_RUMMY if g.dw0 == 0 else END_KNOCK, g.row)
    return _advice_mine(g.rules, g.row, n, g.c_winner)


def _advice_play_on(g, i, perm, pos, up, ws, debug):
    n = g.strat.shape[0]
    sp = N_CARDS - g.stock_size
    npile = A.pile_for_play_on(perm, pos, g.stock_size, g.deck, sp, g.known, g.pile, up)
    g.hands[0] = g.hand
    g.hands[1:] = g.dealt[1:]
    s = g.state
    s[:] = 0
    for q in range(n):
        g.picked[q] = g.picked0[q]
        s[S_OWN + q] = g.own[q]
        s[S_TURNS] += g.own[q]
    s[S_SP] = sp
    s[S_NPILE] = npile
    s[S_TO_MOVE] = 1     # seat 1 moves, `up` (my discard) on top of the pile
    g.row[:] = 0
    play_from_state(g.rules, g.strat, g.hands, g.deck, g.pile, g.picked, s, g.T_value, g.T_total, g.T_rank,
                    g.st, g.row, debug, no_trace(), g.search)
    return _advice_mine(g.rules, g.row, n, g.c_winner)


@njit(cache=True, inline="always")
def _advice_mine(rules, row, n, c_winner):
    """My result in a settled hand row (seed: net against the others, scaled by 1/(n-1) in the
    report; pairwise: score0) and whether I won it (I am its winner)."""
    net = row[COL_SCORE] if rules[R_SETTLE] != SETTLE_SEED else A.net_vs_others(row, COL_SCORE, n)
    return net, 1 if row[c_winner] == 0 else 0


A.world_pieces(KnockRummyWorld, deal=_advice_deal, end_now=_advice_end_now, play_on=_advice_play_on,
               replay_turn=_advice_replay_turn)


def advice_world(rules_arr, smat, h, kn, stock_size, known, turn, seen, replay):
    """The sampler's :class:`sim.advisors.worlds.World` for ``count`` worlds; its extras: every seat's
    hand in each world (the world's ``dws``: every seat's deadwood when knocking now)."""
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    smat = np.ascontiguousarray(smat, dtype=np.float64)
    n = smat.shape[0]
    if int(rules_arr[R_PLAYERS]) != n:
        raise ValueError(f"knock-rummy: rules say players={int(rules_arr[R_PLAYERS])}, {n} strategies given")
    _, t_value, t_total, t_rank = GAME_CTX
    hand = np.uint64(to_mask(h))
    cols = column_index(n, EXTRA_COLUMNS)

    def world(count, with_hands=False):
        hands = np.zeros((int(count), n), dtype=np.uint64)
        g = KnockRummyWorld(rules_arr, smat, hand, np.int64(deadwood(hand, t_value, t_total, t_rank)),
                            np.int64(stock_size), np.ascontiguousarray(known, dtype=np.int64), seen.own, seen.picked,
                            np.int64(replay), seen.H, seen.use, t_value, t_total, t_rank, np.int64(cols["winner"]),
                            np.zeros(N_CARDS, np.int64), np.empty(N_CARDS, np.int64), np.zeros(n, np.uint64),
                            np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.int64),
                            np.zeros(S_WIDTH, np.int64), np.zeros(len(cols), np.int64),
                            np.empty((n, 1), np.uint64), np.zeros((int(count), n), np.int64), hands,
                            SF.search_field(smat, K.P_SEARCH_WORLDS))
        return A.World(g, (hands,) if with_hands else ())
    return world


def _advice_knock(r, p, k, given, h, notes):
    """The knock now: legal at any deadwood, rummy at 0 (noted)."""
    arr = min_deadwood(h)
    notes.append(f"deadwood 0: ending the hand now is rummy (it always wins, +{r.rummy_bonus})" if arr.deadwood == 0
                 else f"knocking now shows deadwood {A.shown(arr)}; knocking is legal at any deadwood")
    return A.Knock(arr.deadwood)


def _advice_points(r, n, notes):
    """What the points are (noted) and their scale in the report: seed settlement, net against
    the average opponent (``1/(n-1)`` of the kernel's integer); pairwise, my stake change."""
    if r.settle == "seed":
        notes.append("points: net points against the average opponent (your points in the hand "
                     "minus the mean of the opponents'; settle=seed credits the winner only)"
                     if n > 2 else
                     "points: net points against the opponent (yours minus its; settle=seed "
                     "credits the winner only)")
    else:
        notes.append("points: your zero-sum stake change in the hand (settle=pairwise)")
    notes.append("play on: you keep this hand and seat 1 moves next"
                 + (" (a hand voided by a stock-out scores 0)" if r.stock_out == "void" else ""))
    return (1.0 / (n - 1) if r.settle == "seed" else 1.0), None


def advice_stock(r, n, turn, stock, n_known, notes) -> int:
    """The stock after my draw without a history: given, or every draw from the stock."""
    hs = hand_size(n)
    initial = N_CARDS - n * hs - 1
    lo = initial - n * (turn - 1) - 1   # every draw so far from the stock
    room = initial - n_known            # unseen cards left for the stock and the buried discards
    if stock is None:
        st = lo
        if st < 1:
            st = 1
            notes.append(f"if every draw so far had come from the stock, your draw on turn {turn} "
                         f"would have emptied it (the hand over): stock 1 assumed, give --stock")
        st = A.clipped(st, room, notes)
        if st < 1:
            raise AdviceError(f"{n_known} known discards leave no card for the stock: the hand "
                              "cannot be played on (give fewer --discards)")
        if st == lo:
            notes.append(f"stock {st} after your draw (default for turn {turn} with {n} players: "
                         "every draw so far came from the stock)")
        return st
    st = int(stock)
    if st == 0:
        raise AdviceError("stock 0: the stock is empty after your draw, so the hand cannot be "
                          "played on (it ends now unless you knock)")
    return A.given_stock(st, turn, max(lo, 1), initial, room, seats=f" with {n} players",
                         short=f" with {n_known} known discards: at most {room} unseen cards are "
                               "left for the stock")


ADVISOR = A.AdvisorGame(
    refuses=(("spreads", "knock-rummy has no spreads: melds stay in the hands until the showdown; drop --spread"),
             ("first_upcard", "first upcard is a gin (oklahoma) option: drop --first-upcard"),
             ("opp_cards", "with {n} players every knock-rummy opponent holds {hs} cards between turns: drop "
                           "--opp-cards")),
    hand_size=lambda n: hand_size(n),
    hand_error="with {n} players a hand holds {hs} cards (or {more} before discarding), got {got}",
    turn_limit=True, history=lambda r: A.HistoryRules(1), discard=lambda r, h, took, notes: A.pick_discard(h, took),
    knock=_advice_knock, stock=advice_stock,
    bars=lambda k, smat, kn: [[]] + [[max(0.0, K.knock_threshold_opp(smat[s], t[4], t[3], smat.shape[0] - 1))
                                      for t in k.turns[s]] for s in range(1, smat.shape[0])],
    replay_notes=A.replay_notes, points=_advice_points, world=advice_world,
    no_world="let every opponent reach your turn {turn} without going rummy or knocking",
    no_world_history="could have given the opponents' choices in the history")
