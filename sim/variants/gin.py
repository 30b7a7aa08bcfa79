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
:func:`play_from_state` (continue a hand from any position: rollouts for the advisor; a
searching seat decides by search there too, from uniform worlds).  The knock advisor's
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
from ..core.cards import card_text, standard_pack, to_mask
from ..core.errors import AdviceError
from ..core.trace import NO_TRACE, log, no_trace
from ..knock.melds import deadwood, meld_tables, min_deadwood
from ..strategies import history_weights as HW
from ..strategies import knock as K
from ..strategies.knock import choose_discard, knock_threshold, wants_upcard  # noqa: F401 (advisor)
from ..strategies.random_play import coin
from . import COL_DEALER, Knob, WholeGame, column_index
from . import gin_hand
from .gin_hand import (EXTRA_COLUMNS, HAND, MAX_TURNS, N_CARDS, O_BIG_GIN, O_GIN, O_KNOCK,  # noqa: F401
                       O_UNDERCUT, O_VOID, OUTCOMES, R_BIG_GIN, R_DISCARD_STOCK, R_FIRST_UPCARD, R_KNOCK_LIMIT,
                       R_OKLAHOMA, S_FORCE_STOCK, S_LIMIT, S_NPILE, S_OWN0, S_OWN1, S_SP, S_TO_MOVE, S_TURNS, S_WIDTH, GinRules,
                       _no_pairs, _play_on, _take_turn, deadwoods, showdown)
from .gin_search import believe, believe_pass, choose_take, new_beliefs, play_on_search, searched_turn, searching
from .knock_games import knock_variant


@njit(cache=True, inline="always")
def _deal(rules, deck, dealer, T_rank, row, trace):
    """The deal of ``deck`` with ``dealer``: ``(hands, pile, picked, pairs, state, upcard)``."""
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
    state[S_TO_MOVE] = 1 - dealer
    return hands, pile, picked, pairs, state, up


@njit(cache=True)
def play_hand(rules, strat, deck, dealer, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug,
              trace, search=None):
    """Deal ``deck`` (a shuffled pack) with ``dealer`` and play the hand; fills ``row``.  The
    heuristics' hands take a path of their own (the search's checks cost Gin 8% of its speed).
    ``search``: omitted when no seat searches (the search's kernels are then pruned at compile
    time: they are most of Gin's compile time), else any array (:func:`search_arg`)."""
    if search is not None:
        if searching(strat[0]) or searching(strat[1]):
            _play_hand_search(rules, strat, deck, dealer, T_value, T_cover, T_starts, T_total, T_rank, st, row,
                              debug, trace)
            return
    hands, pile, picked, pairs, state, up = _deal(rules, deck, dealer, T_rank, row, trace)
    if rules[R_FIRST_UPCARD] != 0:
        # the offer: non-dealer, then dealer, may take the upcard; if both pass the
        # non-dealer draws from the stock
        for p in (1 - dealer, dealer):
            dwp = deadwood(hands[p], T_value, T_total, T_rank)
            if coin(strat[p, K.P_RANDOM_PLAY], st[p], gin_hand.takes_upcard(strat, p, hands, dwp, pile, state[S_NPILE],
                                                                              picked, T_value, T_cover, T_starts,
                                                                              T_total, T_rank)):
                dw = deadwoods(hands, T_value, T_total, T_rank)
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
def _play_hand_search(rules, strat, deck, dealer, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug,
                      trace):
    """:func:`play_hand` where a seat searches: its beliefs follow the hand from the deal."""
    hands, pile, picked, pairs, state, up = _deal(rules, deck, dealer, T_rank, row, trace)
    parts, wts, bst = new_beliefs(strat, hands, up, st)
    if rules[R_FIRST_UPCARD] != 0:
        for p in (1 - dealer, dealer):
            take = choose_take(rules, strat, p, dealer, hands, pile, picked, state, parts, wts, T_value, T_cover,
                               T_starts, T_total, T_rank, st, row)
            if take:
                dw = deadwoods(hands, T_value, T_total, T_rank)
                if searching(strat[p]):
                    ended = searched_turn(rules, strat, p, True, hands, dw, deck, pile, picked, pairs, state, parts,
                                          wts, T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace)
                else:
                    ended = _take_turn(rules, strat, p, True, hands, dw, deck, pile, picked, pairs, state,
                                       T_value, T_cover, T_starts, T_total, T_rank, st, row, debug, trace)
                if ended:
                    return
                believe(rules, strat, p, up, True, hands, pile, picked, state, parts, wts, bst, T_value, T_total,
                        T_rank)
                state[S_TO_MOVE] = 1 - p
                break
            believe_pass(strat, p, up, parts, wts, T_value, T_total, T_rank)
            log(trace, TR.E_PASS, p, up, 0)
        else:
            state[S_FORCE_STOCK] = 1
    play_on_search(rules, strat, hands, deck, pile, picked, pairs, state, parts, wts, bst, T_value, T_cover, T_starts,
                   T_total, T_rank, st, row, debug, trace)


@njit(cache=True)
def play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover, T_starts,
                    T_total, T_rank, st, row, debug, trace, search=None):
    """Play on from a position until the hand ends (:func:`sim.variants.gin_hand.play_from_state`);
    searching seats decide by search, their worlds uniform given what they see (no belief
    followed from the deal: the position has no history here).  ``search``: as in
    :func:`play_hand` (None: no seat searches, the search is not compiled in)."""
    if search is not None:
        if searching(strat[0]) or searching(strat[1]):
            parts = np.zeros((2, 0), dtype=np.uint64)
            wts = np.ones((2, 0), dtype=np.float64)
            bst = np.zeros((2, 1), dtype=np.uint64)
            play_on_search(rules, strat, hands, deck, pile, picked, _no_pairs(), state, parts, wts, bst, T_value,
                           T_cover, T_starts, T_total, T_rank, st, row, debug, trace)
            return
    gin_hand.play_from_state(rules, strat, hands, deck, pile, picked, state, T_value, T_cover, T_starts,
                             T_total, T_rank, st, row, debug, trace)


def search_arg(strat_mat) -> tuple:
    """The kernels' trailing ``search`` argument (:mod:`sim.core.search_flag`)."""
    return SF.search_arg(strat_mat, K.P_SEARCH_WORLDS)


@njit(cache=True)
def _strategy_states(seed, index):
    st = np.empty((2, 1), dtype=np.uint64)
    rng.seat_streams(seed, index, st)
    return st


@njit(cache=True, nogil=True)
def _play_chunk(rules, strat, seed, first_hand, out, pack, T_value, T_cover, T_starts, T_total,
                T_rank, debug, trace, search=None):
    deck = np.empty(N_CARDS, dtype=np.int64)
    for i in range(out.shape[0]):
        h, dst = rng.shuffle_hand(seed, first_hand + i, 2, pack, deck, 2 * HAND)
        st = _strategy_states(seed, h)
        play_hand(rules, strat, deck, h % 2, T_value, T_cover, T_starts, T_total, T_rank,
                  st, out[i], debug, trace, search)


_PACK = standard_pack()
TABLES = meld_tables()


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=NO_TRACE):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (see sim.variants contract);
    ``trace`` records the events (:mod:`sim.trace`)."""
    t = TABLES
    _play_chunk(rules_arr, strat_mat, np.int64(seed), np.int64(first_hand), out, _PACK,
                t.run_value, t.run_cover, t.run_starts, t.suit_total, t.rank_value, bool(debug), trace,
                *search_arg(strat_mat))


# ----------------------------------------------------------------------------------------
# whole games to target_score (sim.games plays them from one deal at a time)

@njit(cache=True, nogil=True)
def _play_game_chunk(rules, strat, layout, seed, first_game, out, ctx, debug, search=None):
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
                      T_rank, st, row, debug, untraced, search)
            games.record_hand(per, sc, layout, row)
        games.finish_game(per, sc, layout, out[i])


GAME_CTX = (_PACK, TABLES.run_value, TABLES.run_cover, TABLES.run_starts, TABLES.suit_total,
            TABLES.rank_value)
GAME = WholeGame(kind="target", limit_rule="target_score", winner_column="winner", void_outcome=O_VOID,
                 line_bonus_rule="line_bonus", game_bonus_rule="game_bonus", shutout_rule="shutout_double")
play_game_chunk = games.game_kernel(_play_game_chunk, GAME_CTX, GAME, GinRules, EXTRA_COLUMNS, search_arg)


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


# The ladder's strongest preset, the tuned strong (sim/strategies/tuned_presets.json), beats simple by
# +1.15 [+0.95, +1.35] points/hand and gin-hunter (the strongest hand-picked one: +0.71 over
# simple) by +0.39 [+0.17, +0.61] (seat 0 against simple, 40k deals, seed 11: README).
VARIANT = knock_variant(
    "gin", GinRules, (2, 2), OUTCOMES, play_chunk, EXTRA_COLUMNS,
    "Gin Rummy: 2 players, 10 cards, knock at deadwood <= 10, gin and undercut bonuses.",
    advisor="sim.variants.gin", opp_models=("played", "uniform"), score_unit="points", hand_word="deadwood", zero_sum=True,
    max_turns=MAX_TURNS, no_out_outcomes=("void",), game=GAME, game_kernel=play_game_chunk, rule_sets=RULE_SETS,
    champion="marjj",
    knob=Knob("knock", "knock_mid", "knock_late", "mid_from", "late_from", same=-1,
              default_range=(0, 10), limit_rule="knock_limit", bucket_kinds=("turn", "stock"),
              bucket_by="bucket_by", at_zero="go for gin; never knock"),
)


# ----------------------------------------------------------------------------------------
# the knock advisor's declaration (sim.advisors.advisor): "knock now" vs "play on" after my
# draw and discard.  A: the Gin showdown with me as the knocker (layoffs, gin and undercut
# bonuses); B: the opponent moves with my discard on the pile, played by play_from_state.
# "Won": I am the hand's winner (a void hand is not won).  Opponent model "played" without a
# history: the opponent's uniformly dealt hand is replayed through its turns (sim.advisors.worlds.replayed),
# and a world where it would have knocked is redrawn; with a history, its observed turns weigh
# the world (sim.strategies.history_weights).

ROW_WIDTH = len(VARIANT.columns(2))
C_SCORE, C_WINNER = (column_index(2, EXTRA_COLUMNS)[c] for c in ("score0", "winner"))
GinWorld = namedtuple("GinWorld", "rules strat hand knock_hand knock_dw big stock_size known own picked0 limit "
                                  "replay H use_h T_value T_cover T_starts T_total T_rank deck pile dealt hands "
                                  "picked state row st opp_out search")


def _advice_deal(g, perm, pos, ws):
    if g.use_h:
        return HW.history_hands(g.H, g.strat, perm, pos, g.replay > 0, g.rules[R_DISCARD_STOCK] != 0,
                                g.rules[R_BIG_GIN] != 0, g.dealt, g.T_value, g.T_total, g.T_rank, ws)
    g.dealt[1] = A.deal_mask(perm, pos, HAND)
    pos += HAND
    return pos, A.replayed(g, perm, pos + g.stock_size, g.replay, g.own[0], g.stock_size, ws)


def _advice_replay_turn(g, s, c, t, stock_then, ws):
    h = g.dealt[s] | _bit(c)
    forbidden = np.uint64(0) if g.rules[R_DISCARD_STOCK] != 0 else _bit(c)
    code, dw = choose_discard(g.strat[s], h, forbidden, np.uint64(0), g.T_value, g.T_total, g.T_rank, ws)
    g.dealt[s] = h ^ _bit(code)
    return code, dw <= g.limit and dw <= knock_threshold(g.strat[s], t, stock_then)


def _advice_end_now(g, i):
    return _end_now_kernel(g, i)


@njit(cache=True)
def _end_now_kernel(g, i):
    """The world piece ``end_now`` as its own cached kernel: the world loop's compile links it
    instead of compiling it inline (a first run compiles it beside the loop, on another core:
    :mod:`analysis.compile_plan`)."""
    g.opp_out[i, 0] = g.hand
    g.opp_out[i, 1] = g.dealt[1]
    g.hands[0] = g.knock_hand
    g.hands[1] = g.dealt[1]
    g.row[:] = 0
    showdown(g.rules, g.strat, g.hands, np.int64(0), g.knock_dw, g.big, g.T_value, g.T_cover, g.T_starts, g.T_total,
             g.T_rank, g.row, g.st, no_trace(), gin_hand.no_knowledge())
    return _advice_mine(g.row)


def _advice_play_on(g, i, perm, pos, up, ws, debug):
    return _play_on_kernel(g, i, perm, pos, up, ws, debug, g.search)


@njit(cache=True)
def _play_on_kernel(g, i, perm, pos, up, ws, debug, search):
    """The world piece ``play_on`` as its own cached kernel (:func:`_end_now_kernel`); with no
    searching seat (``search`` None, pruned at compile time) it plays on without
    :func:`play_from_state`'s level between it and the turn loop."""
    sp = N_CARDS - g.stock_size
    npile = A.pile_for_play_on(perm, pos, g.stock_size, g.deck, sp, g.known, g.pile, up)
    g.hands[0] = g.hand
    g.hands[1] = g.dealt[1]
    g.picked[0] = g.picked0[0]         # not a slice copy: numba's shape-error formatting compiles
    g.picked[1] = g.picked0[1]
    s = g.state
    s[:] = 0
    s[S_SP] = sp
    s[S_NPILE] = npile
    s[S_TURNS] = g.own[0] + g.own[1]
    s[S_OWN0] = g.own[0]
    s[S_OWN1] = g.own[1]
    s[S_TO_MOVE] = 1        # the opponent moves, `up` on top of the pile
    s[S_LIMIT] = g.limit
    g.row[:] = 0
    if search is not None:
        play_from_state(g.rules, g.strat, g.hands, g.deck, g.pile, g.picked, s, g.T_value, g.T_cover, g.T_starts,
                        g.T_total, g.T_rank, g.st, g.row, debug, no_trace(), search)
    else:
        gin_hand.play_from_state(g.rules, g.strat, g.hands, g.deck, g.pile, g.picked, s, g.T_value, g.T_cover,
                                 g.T_starts, g.T_total, g.T_rank, g.st, g.row, debug, no_trace())
    return _advice_mine(g.row)


@njit(cache=True, inline="always")
def _advice_mine(row):
    """My points in a settled hand row and whether I won it (I am its winner)."""
    return row[C_SCORE], 1 if row[C_WINNER] == 0 else 0


A.world_pieces(GinWorld, deal=_advice_deal, end_now=_advice_end_now, play_on=_advice_play_on,
               replay_turn=_advice_replay_turn)


def advice_world(rules_arr, smat, h, kn, stock_size, known, turn, seen, replay):
    """The sampler's :class:`sim.advisors.worlds.World` for ``count`` worlds; its extras: both hands in
    each world (mine, the opponent's)."""
    t = TABLES
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    smat = np.ascontiguousarray(smat, dtype=np.float64)

    def world(count, with_hands=False):
        opp = np.zeros((int(count), 2), dtype=np.uint64)
        g = GinWorld(rules_arr, smat, np.uint64(to_mask(h)), np.uint64(kn.shows["mask"]), np.int64(kn.shows["dw"]),
                     bool(kn.shows["big"]), np.int64(stock_size), np.ascontiguousarray(known, dtype=np.int64),
                     seen.own, seen.picked, np.int64(kn.limit), np.int64(replay), seen.H, seen.use, t.run_value,
                     t.run_cover, t.run_starts, t.suit_total, t.rank_value, np.zeros(N_CARDS, np.int64),
                     np.empty(N_CARDS, np.int64), np.zeros(2, np.uint64), np.zeros(2, np.uint64),
                     np.zeros(2, np.uint64), np.zeros(S_WIDTH, np.int64), np.zeros(ROW_WIDTH, np.int64),
                     np.empty((2, 1), np.uint64), opp, SF.search_field(smat, K.P_SEARCH_WORLDS))
        return A.World(g, (opp,) if with_hands else ())
    return world


def _advice_knock(r, p, k, given, h, notes):
    """The knock now: the hand's knock limit (oklahoma: the first upcard's value, given or
    from the history ``k``), refused above it; 11 melded cards given: big gin."""
    limit, limit_name = _advice_limit(r, p.first_upcard, k)
    big = given.size == HAND + 1 and bool(r.big_gin) and min_deadwood(given).deadwood == 0
    arr = min_deadwood(h)
    if not big and arr.deadwood > limit:
        raise AdviceError(f"cannot knock: the hand's deadwood is {A.shown(arr)} and knocking needs "
                          f"deadwood <= {limit} ({limit_name}); keep playing")
    shown = given if big else h
    dw = 0 if big else int(deadwood(np.uint64(to_mask(shown)), TABLES.run_value, TABLES.suit_total,
                                     TABLES.rank_value))
    return A.Knock(arr.deadwood, int(limit), dict(mask=to_mask(shown), dw=dw, big=big))


def _advice_limit(r, first_upcard, k) -> tuple[int, str]:
    """The hand's knock limit and how it is named."""
    if not r.oklahoma:
        return r.knock_limit, "knock_limit"
    if first_upcard is None and k is None:
        raise AdviceError("oklahoma sets the knock limit from the hand's first upcard: "
                          "give it with --first-upcard")
    fu = A.cards(first_upcard if first_upcard is not None else k.up, "first upcard")
    if fu.size != 1:
        raise AdviceError(f"first upcard: give one card, got {fu.size}")
    if k is not None and int(fu[0]) != k.up:
        raise AdviceError(f"first upcard {card_text(int(fu[0]))}: the history says {card_text(k.up)}")
    rank = int(fu[0]) & 15
    return (0 if rank == 0 else int(TABLES.rank_value[rank]),
            f"oklahoma, first upcard {card_text(int(fu[0]))}")


def _advice_discard(r, h, took, notes):
    """The exact best discard of 11 cards (ties: the highest card); 11 melded: big gin."""
    if r.big_gin and min_deadwood(h).deadwood == 0:
        notes.append("11 melded cards: knocking now is big gin")
    return A.pick_discard(h, took)


def advice_stock(r, n, turn, stock, n_known, notes) -> int:
    """The stock after my draw without a history: given, or both players always drew."""
    lo = max(r.void_stock_left, 31 - 2 * turn)
    room = 31 - n_known               # 52 - 2 hands - the top discard - known discards
    if stock is None:
        st = A.clipped(max(32 - 2 * turn, r.void_stock_left + 1), room, notes)
        if st < r.void_stock_left:
            raise AdviceError(f"{n_known} known discards leave no room for a stock: give fewer --discards")
        notes.append(f"stock {st} after your draw (default for turn {turn}: both players drew from the stock)")
        return st
    return A.given_stock(int(stock), turn, lo, 31, room, short=f" with {n_known} known discards: "
                         f"at most {room} unseen cards are left for the stock")


def _advice_replay_notes(notes, n, replay, buried):
    if replay:
        notes.append(f"opponent model 'played': its dealt hand was replayed through {replay} "
                     "draws and discards by its strategy, without knocking")


ADVISOR = A.AdvisorGame(
    refuses=(("spreads", "gin has no spreads on the table before a knock: drop --spread"),
             ("opp_cards", "the gin opponent holds {hs} cards: drop --opp-cards", HAND)),
    hand_size=lambda n: HAND,
    hand_error="a gin hand has {hs} cards (the hand you keep after discarding) or {more} (before "
               "discarding: the advisor picks the best discard); got {got}",
    history=lambda r: A.HistoryRules(r.void_stock_left + 1, r.first_upcard_offer, r.discard_stock_draw,
                                     r.void_stock_left),
    discard=_advice_discard, knock=_advice_knock, stock=advice_stock,
    bars=lambda k, smat, kn: [[], [min(kn.limit, knock_threshold(smat[1], t[4], t[3])) for t in k.turns[1]]],
    replay_notes=_advice_replay_notes, points=lambda r, n, notes: (1.0, None), world=advice_world,
    no_world="let the opponent reach your turn {turn} without knocking",
    no_world_history="could have given the opponent's choices in the history", single_opponent=True)
