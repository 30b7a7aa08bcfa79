"""Gin Rummy, two players (rules: ``rules/gin.md``, source seed 004).

| option               | default | meaning |
|----------------------|---------|---------|
| knock_limit          | 10      | knock allowed when deadwood after the discard is <= this |
| gin_bonus            | 25      | added to the defender's deadwood when the knocker has gin |
| undercut_bonus       | 25      | defender deadwood <= knocker's (no gin): defender wins difference + this |
| first_upcard_offer   | on      | non-dealer, then dealer, may take the first upcard; else non-dealer draws stock |
| discard_stock_draw   | off     | the card just drawn from the stock may be discarded at once (seed 004 forbids discarding the card just taken, from either pile; rules/common.md allows it for stock draws) |
| void_stock_left      | 2       | a discard without knock leaving this many stock cards voids the hand |
| oklahoma             | off     | knock limit = value of the first upcard (ace: gin only) |
| big_gin              | off     | 11 cards melded after the draw end the hand at once, bonus big_gin_bonus |
| big_gin_bonus        | 31      | |
| target_score         | 100     | a game is played until a player reaches this |
| game_bonus           | 0       | optional game bonus (100 in the common house rule) |
| line_bonus           | 0       | optional bonus per hand won (25 in the common house rule) |
| shutout_double       | off     | a game won while the loser scored nothing counts double |
| undercut_on_tie      | on      | equal deadwood (no gin) is an undercut; off: the hand scores 0 (OpenSpiel) |
| openspiel_wall       | off     | at void_stock_left the next player may still take the upcard, but only to knock (OpenSpiel's wall); else void |
| layoff_mode          | joint   | joint: the defender chooses its arrangement and layoffs together; seed: it arranges its own cards first (minimum deadwood), then lays off deadwood cards only |

Layoffs: the defender lays off onto the knocker's melds, chained along runs, and keeps the
arrangement of its own cards + layoffs with least deadwood (strategy option ``layoff``;
``layoff_mode=seed``: among its minimum-deadwood arrangements, laying off deadwood only).
The knocker shows a minimum-deadwood arrangement.  A tie without undercut (``undercut_on_tie``
off) is a ``knock`` row with no winner (-1) and 0 points.

Kernels: :func:`play_chunk` (one row per hand, columns :data:`VARIANT.columns`),
:func:`play_game_chunk` (one row per game to ``target_score``, played by :mod:`sim.games`),
:func:`play_from_state` (continue a hand from any position: rollouts for the advisor).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit as _bit
from ..core.bits import check_closed_hands
from ..core.cards import standard_pack
from ..knock.meld_choice import arrangement_random
from ..knock.melds import (MAX_MELDS, arrangement, arrangement_fewest_spots, best_discards, deadwood, layoff_deadwood,
                     meld_tables)
from ..core.rules import RulesBase, RulesError, option
from ..strategies import knock as K
from ..core import games
from ..core import trace as TR
from ..advice import AdvisorSpec
from ..strategies.knock import choose_discard, knock_threshold, wants_upcard
from ..strategies.random_play import coin
from ..core.trace import NO_TRACE, log, no_trace
from . import COL_DEALER, COL_ENDER, COL_OUTCOME, COL_STOCK_LEFT, COL_TURNS, Knob, Variant, WholeGame, column_index

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
# state vector layout (int64), see new_state()
S_SP, S_NPILE, S_TURNS, S_OWN0, S_OWN1, S_TO_MOVE, S_FORCE_STOCK, S_LIMIT, S_WIDTH = range(9)


# ----------------------------------------------------------------------------------------
# small helpers: the decision kernels live in sim/strategies/knock.py (shared by the knock
# games) and are imported above: knock_threshold, choose_discard, wants_upcard (_near, _danger)


# ----------------------------------------------------------------------------------------
# one hand

@njit(cache=True)
def showdown(rules, strat, hands, knocker, dw_knocker, big, T_value, T_cover, T_starts,
              T_total, T_rank, row, st):
    """Score a knock; fills score/deadwood/winner/points columns; returns the outcome code.
    ``st``: the seats' strategy generators (``arrange=2`` draws arrangements from them)."""
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
            dd = _laid_off(rules, strat, hands, knocker, T_value, T_cover, T_starts, T_total, T_rank, st)
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
    row[C_SCORE + max(winner, 0)] = pts
    row[C_SCORE + 1 - max(winner, 0)] = -pts
    row[C_DW + knocker] = dw_knocker
    row[C_DW + d] = dd
    row[C_WINNER] = winner
    row[C_POINTS] = pts
    row[C_KNOCK_DW] = dw_knocker
    return outcome


@njit(cache=True)
def _laid_off(rules, strat, hands, knocker, T_value, T_cover, T_starts, T_total, T_rank, st):
    """The defender's deadwood after laying off onto the knocker's shown melds.  ``arrange=2``
    (the knocker's): it shows a random minimum arrangement (:mod:`sim.knock.meld_choice`); the
    defender's ``arrange=2`` with ``layoff_mode=seed``: it arranges its own cards by the same
    random draw and lays off that arrangement's deadwood cards."""
    d = 1 - knocker
    melds = np.zeros((MAX_MELDS, 4), dtype=np.int64)
    ka = strat[knocker, K.P_ARRANGE]
    if ka == 2:
        _, n, _ = arrangement_random(hands[knocker], T_value, T_cover, T_starts, T_total, T_rank, melds,
                                     st[knocker])
    elif ka != 0:
        _, n, _ = arrangement_fewest_spots(hands[knocker], T_value, T_cover, T_starts, T_total, T_rank, melds)
    else:
        _, n, _ = arrangement(hands[knocker], T_value, T_cover, T_starts, T_total, T_rank, melds)
    seed_mode = rules[R_LAYOFF_SEED] != 0
    if seed_mode and strat[d, K.P_ARRANGE] == 2:
        own = np.zeros((MAX_MELDS, 4), dtype=np.int64)
        _, _, dead = arrangement_random(hands[d], T_value, T_cover, T_starts, T_total, T_rank, own, st[d])
        dd, _ = layoff_deadwood(dead, melds, n, T_value, T_total, T_rank, 13, False)
        return dd
    dd, _ = layoff_deadwood(hands[d], melds, n, T_value, T_total, T_rank, 13, seed_mode)
    return dd


@njit(cache=True)
def _take_turn(rules, strat, p, from_pile, hands, dw, deck, pile, picked, pairs, state,
               T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace):
    """Player ``p`` draws, discards and maybe knocks.  Returns True if the hand ended (row
    filled).  ``pairs[p, c]``: the cards ``p`` discarded this hand after drawing ``c``, or drew
    before discarding ``c`` (``no_repeat``)."""
    state[S_TURNS] += 1
    state[S_OWN0 + p] += 1
    own_turn = state[S_OWN0 + p]
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
    hand = hands[p] | _bit(card)
    stock_left = N_CARDS - state[S_SP]
    if rules[R_BIG_GIN] != 0 and deadwood(hand, T_value, T_total, T_rank) == 0:
        hands[p] = hand
        _end(row, p, state[S_TURNS], stock_left, own_turn)
        row[COL_OUTCOME] = showdown(rules, strat, hands, p, 0, True, T_value, T_cover, T_starts, T_total,
                                     T_rank, row, st)
        log(trace, TR.E_END, p, row[COL_OUTCOME], 0)
        return True
    no_repeat = strat[p, K.P_NO_REPEAT] != 0
    if no_repeat and hand & ~(forbidden | pairs[p, card]):
        forbidden |= pairs[p, card]
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
    if dwa <= limit and coin(strat[p, K.P_RANDOM_PLAY], st[p], dwa <= knock_threshold(strat[p], own_turn, stock_left)):
        log(trace, TR.E_KNOCK, p, dwa, 0)
        _end(row, p, state[S_TURNS], stock_left, own_turn)
        row[COL_OUTCOME] = showdown(rules, strat, hands, p, dwa, False, T_value, T_cover, T_starts, T_total,
                                     T_rank, row, st)
        log(trace, TR.E_END, p, row[COL_OUTCOME], 0)
        return True
    # the wall (openspiel_wall): after a stock draw the next player may still knock with the upcard
    if (stock_left <= rules[R_VOID_LEFT] and (rules[R_WALL] == 0 or from_pile)) or state[S_TURNS] >= MAX_TURNS:
        _void(row, p, state[S_TURNS], stock_left, dw, trace)
        return True
    return False


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


@njit(cache=True)
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
    dw = np.empty(2, dtype=np.int64)
    for p in range(2):
        dw[p] = deadwood(hands[p], T_value, T_total, T_rank)
    p = state[S_TO_MOVE]
    while True:
        from_pile = False
        stock_left = N_CARDS - state[S_SP]
        if rules[R_WALL] != 0 and stock_left <= rules[R_VOID_LEFT] and state[S_FORCE_STOCK] == 0:
            if not _wall_knock(strat[p], hands[p], pile[state[S_NPILE] - 1], state[S_OWN0 + p] + 1,
                               state[S_LIMIT], stock_left, T_value, T_total, T_rank):
                log(trace, TR.E_PASS, p, pile[state[S_NPILE] - 1], 0)
                _void(row, p, state[S_TURNS], stock_left, dw, trace)
                return
            from_pile = True
        elif state[S_FORCE_STOCK] == 0 and state[S_NPILE] > 0:
            from_pile = coin(strat[p, K.P_RANDOM_PLAY], st[p], wants_upcard(
                strat[p], hands[p], dw[p], pile[state[S_NPILE] - 1], T_value, T_total, T_rank))
        state[S_FORCE_STOCK] = 0
        if _take_turn(rules, strat, p, from_pile, hands, dw, deck, pile, picked, pairs, state,
                      T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace):
            return
        p = 1 - p
        state[S_TO_MOVE] = p


@njit(cache=True)
def play_hand(rules, strat, deck, dealer, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug,
              trace):
    """Deal ``deck`` (a shuffled pack) with ``dealer`` and play the hand; fills ``row``."""
    hands = np.zeros(2, dtype=np.uint64)
    for i in range(2 * HAND):
        hands[(dealer + 1 + i) % 2] |= _bit(deck[i])
    pile = np.empty(N_CARDS, dtype=np.int64)
    pile[0] = deck[2 * HAND]
    picked = np.zeros(2, dtype=np.uint64)
    pairs = _no_pairs()
    state = np.zeros(S_WIDTH, dtype=np.int64)
    state[S_SP] = 2 * HAND + 1
    state[S_NPILE] = 1
    up = deck[2 * HAND]
    limit = np.int64(rules[R_KNOCK_LIMIT])
    if rules[R_OKLAHOMA] != 0:
        limit = 0 if (up & 15) == 0 else T_rank[up & 15]
    state[S_LIMIT] = limit
    row[COL_DEALER] = dealer
    if trace.shape[0] > 0:
        TR.log_pack(trace, deck)
        for i in range(2 * HAND):
            log(trace, TR.E_DEAL, (dealer + 1 + i) % 2, deck[i], 0)
        log(trace, TR.E_UPCARD, -1, up, 0)
    non_dealer = 1 - dealer
    state[S_TO_MOVE] = non_dealer
    if rules[R_FIRST_UPCARD] != 0:
        # the offer: non-dealer, then dealer, may take the upcard; if both pass the
        # non-dealer draws from the stock
        for p in (non_dealer, dealer):
            dwp = deadwood(hands[p], T_value, T_total, T_rank)
            if coin(strat[p, K.P_RANDOM_PLAY], st[p], wants_upcard(strat[p], hands[p], dwp, up, T_value, T_total,
                                                                     T_rank)):
                dw = np.empty(2, dtype=np.int64)
                for q in range(2):
                    dw[q] = deadwood(hands[q], T_value, T_total, T_rank)
                if _take_turn(rules, strat, p, True, hands, dw, deck, pile, picked, pairs, state,
                              T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace):
                    return
                state[S_TO_MOVE] = 1 - p
                break
            log(trace, TR.E_PASS, p, up, 0)
        else:
            state[S_FORCE_STOCK] = 1
    _play_on(rules, strat, hands, deck, pile, picked, pairs, state, T_value, T_cover, T_starts,
             T_total, T_rank, st, row, debug, trace)


@njit(cache=True)
def _strategy_states(seed, index):
    st = np.empty((2, 1), dtype=np.uint64)
    rng.seat_streams(seed, index, st)
    return st


@njit(cache=True, nogil=True)
def _play_chunk(rules, strat, seed, first_hand, out, pack, T_value, T_cover, T_starts, T_total,
                T_rank, debug, trace):
    deck = np.empty(N_CARDS, dtype=np.int64)
    for i in range(out.shape[0]):
        h, dst = rng.shuffle_hand(seed, first_hand + i, 2, pack, deck, 2 * HAND)
        st = _strategy_states(seed, h)
        play_hand(rules, strat, deck, h % 2, T_value, T_cover, T_starts, T_total, T_rank,
                  st, out[i], debug, trace)


_PACK = standard_pack()
TABLES = meld_tables()


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=NO_TRACE):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (see sim.variants contract);
    ``trace`` records the events (:mod:`sim.trace`)."""
    t = TABLES
    _play_chunk(rules_arr, strat_mat, np.int64(seed), np.int64(first_hand), out, _PACK,
                t.run_value, t.run_cover, t.run_starts, t.suit_total, t.rank_value, bool(debug), trace)


# ----------------------------------------------------------------------------------------
# whole games to target_score (sim.games plays them from one deal at a time)

@njit(cache=True, nogil=True)
def _play_game_chunk(rules, strat, layout, seed, first_game, out, ctx, debug):
    """Games ``first_game ..`` (the loop of :mod:`sim.games`)."""
    pack, T_value, T_cover, T_starts, T_total, T_rank = ctx
    per, sc, st, row = games.game_buffers(strat.shape[0], layout)
    deck = np.empty(N_CARDS, dtype=np.int64)
    untraced = no_trace()
    for i in range(out.shape[0]):
        dst = games.begin_game(per, sc, st, seed, first_game + i)
        while games.game_running(per, sc, layout):
            row[:] = 0
            rng.shuffle_into(dst, pack, deck)
            play_hand(rules, strat, deck, sc[games.S_DEALER], T_value, T_cover, T_starts, T_total,
                      T_rank, st, row, debug, untraced)
            games.record_hand(per, sc, layout, row)
        games.finish_game(per, sc, layout, out[i])


GAME_CTX = (_PACK, TABLES.run_value, TABLES.run_cover, TABLES.run_starts, TABLES.suit_total,
            TABLES.rank_value)
GAME = WholeGame(kind="target", limit_rule="target_score", winner_column="winner", void_outcome=O_VOID,
                 line_bonus_rule="line_bonus", game_bonus_rule="game_bonus", shutout_rule="shutout_double")
play_game_chunk = games.game_kernel(_play_game_chunk, GAME_CTX, GAME, GinRules, EXTRA_COLUMNS)


# Named rule sets (``--rule-set``).  eaai: Neller's EAAI Gin Rummy framework (GinRummyGame.java,
# GinRummyUtil.java), every option spelled out: knock at <= 10, gin and undercut bonuses 25, a tie
# is an undercut, no layoffs on gin, the first upcard offered to the non-dealer then the dealer
# (both pass: the non-dealer draws from the stock), the card just drawn from the stock may be
# discarded (never the one taken from the pile), the hand is void when a discard without knock
# leaves 2 stock cards, the defender melds its own cards first and lays off its deadwood, games
# to 100 with no game, line or shutout bonus.  openspiel: OpenSpiel's gin_rummy as
# scripts/crosscheck_openspiel.py plays it.
RULE_SETS = {
    "eaai": {"knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 25, "undercut_on_tie": True,
             "first_upcard_offer": True, "discard_stock_draw": True, "void_stock_left": 2,
             "openspiel_wall": False, "layoff_mode": "seed", "oklahoma": False, "big_gin": False,
             "target_score": 100, "game_bonus": 0, "line_bonus": 0, "shutout_double": False},
    "openspiel": {"undercut_on_tie": False, "discard_stock_draw": True, "openspiel_wall": True,
                  "first_upcard_offer": True},
}


VARIANT = Variant(
    name="gin",
    rules_cls=GinRules,
    min_players=2,
    max_players=2,
    default_players=2,
    outcomes=OUTCOMES,
    play_chunk=play_chunk,
    score_unit="points",
    doc="Gin Rummy: 2 players, 10 cards, knock at deadwood <= 10, gin and undercut bonuses.",
    extra_columns=EXTRA_COLUMNS,
    hand_word="deadwood",
    zero_sum=True,
    max_turns=MAX_TURNS,
    no_out_outcomes=("void",),
    # the strongest preset: the tuned strong (sim/strategies/tuned_presets.json) beats simple by
    # +1.15 [+0.95, +1.35] points/hand and gin-hunter (the strongest hand-picked one: +0.71 over
    # simple) by +0.39 [+0.17, +0.61] (seat 0 against simple, 40k deals, seed 11: README)
    ladder=("random", "simple", "strong"),
    advisor=AdvisorSpec("sim.advisors.gin", opp_models=("played", "uniform")),
    knob=Knob("knock", "knock_mid", "knock_late", "mid_from", "late_from", same=-1,
              default_range=(0, 10), limit_rule="knock_limit", bucket_kinds=("turn", "stock"),
              bucket_by="bucket_by"),
    game=GAME,
    game_kernel=play_game_chunk,
    rule_sets=RULE_SETS,
)
