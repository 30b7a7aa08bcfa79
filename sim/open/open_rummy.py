"""The open-melding engine: one count-vector turn loop for Basic Rummy, Block Rummy, Wrotham,
Ramino Drift and Loba (numpy + numba only; rules in shared/rules/).

Everything game-specific is data: the ``cfg`` int64 vector (below) and the planner's meld
rules ``mr`` (:func:`sim.open.open_plan.meld_rules`), two rows of them (``mrs[0]`` for the early
deals, ``mrs[1]`` from deal ``cfg[C_LATE_DEAL]`` on: Wrotham's all-seven deals 4-6).  The game
modules only build ``cfg``, ``mrs``, the pack and the values, and declare their Variant.

Hands are count vectors int64[64] (``hands[i]`` for local seat i), the table the planner's
``tab`` int64[MAX_TM, TM_WIDTH] with ``state[S_NTM]`` melds (the planner is its only
writer).  A turn (:func:`_take_turn`):

1. the draw: the top discard (when the seat's strategy wants it and the rules allow it: the
   take rule ``C_TAKE_RULE`` free, or only to meld it at once, Loba, asked of
   :func:`sim.open.open_plan.can_take`) or the top of the stock.  Wrotham's starting player skips
   the draw of its first turn (``C_STARTER_NO_DRAW``; it was dealt ``C_STARTER_EXTRA`` more
   cards).  An empty stock when the seat does not take the discard: the hand ends
   (``restock=block``, or ``C_MAX_RESTOCKS`` restocks made already), else the pile is turned
   over (``turn_over``: every discard, the first one on top, the pile left empty) or shuffled
   (``shuffle``: every discard but the top one, which stays as the pile) into a new stock;
   nothing to turn over also ends the hand.
2. the plays: the planner's best plays for the goal the strategy picks
   (:mod:`sim.strategies.open_play`), carried out by :func:`sim.open.open_plan.apply_plan`.
3. the discard (unless the plays emptied the hand): never the card just taken from the pile
   (``C_TAKEN_NO_DISCARD``), a joker only as the discard that ends the hand
   (``C_JOKER_LAST_ONLY``, Loba).  [choice] If a hand holds nothing else (Loba: jokers only),
   a joker may go, then the taken card: a guard the planner's rules make unreachable.
A seat whose hand is empty has gone out: the hand ends at once.  Going out in one turn with
no card melded or laid off earlier in the hand is **rummy** (Loba: "the whole hand at once").

The settlement (:func:`settle`): ``C_SETTLE`` winner (the one out scores the others' counts)
or penalty (each other seat scores minus its own count, the one out 0); ``C_RUMMY``: none,
double (the hand's points, or the losers' penalties, doubled) or plus10 (10 more points;
with penalty scoring the one out scores +10, i.e. 10 off its penalty total: Loba's -10).
A hand nobody went out of (``C_NO_OUT``): differences (the lowest count scores the sum of
the differences to every other count; tied lowest share it, each scoring the floor of its
share [choice]), penalty (every seat scores minus its count) or void.  A hand reaching
``MAX_TURNS`` turns is void (no score; redealt in a whole game).

Kernels take plain arrays: ``cfg``, ``strat`` (one ``open`` strategy row per seat), ``tabs``
= ``(pack, vals, mrs)``; whole games are :func:`game_chunk_kernel` (:mod:`sim.core.games` step
kernels), which passes the deal number (1, 2, ...) to every hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from .jit import kernel, noalloc

from ..core import games, rng
from . import open_plan as OP
from . import open_plan_layout as L
from ..core import trace as TR
from ..core.deal import chunk_buffers, local_seat, shuffle_hand, turn_upcard
from ..strategies import open_play as S
from ..strategies.random_play import coin
from . import open_search as OS
from .open_rummy_layout import *  # noqa: F401,F403  (the cfg and state layout are part of this module's API)
from .open_rummy_layout import (
    C_ACE_HIGH, C_DEAL, C_DEAL_CYCLE, C_HAND, C_JOKER_LAST_ONLY, C_LATE_DEAL, C_MAX_RESTOCKS, C_PLAYERS, C_RESTOCK,
    C_RUMMY, C_STARTER_EXTRA, C_STARTER_NO_DRAW, C_TAKE_RULE, C_TAKEN_NO_DISCARD, C_X_DEAL, C_X_OUT_TURN,
    C_X_RESTOCKS, K_NONE, K_OUT, K_RUMMY, K_STOCK_OUT, K_TURN_LIMIT, MAX_TURNS, NOT_LOOKED, RESTOCK_BLOCK,
    RESTOCK_SHUFFLE, RUMMY_NONE, S_DEAL, S_MELDED, S_NPILE, S_NTM, S_OWN, S_PLAN_READY, S_PLAYED, S_RESTOCKS,
    S_SP, S_TO_MOVE, S_TURNS, S_WIDTH, TAKE_TO_MELD,
)
from .open_rummy_plays import may_play, plan_melds, plan_uses, play_plan, set_goal
from .open_rummy_settle import settle
from ..core.trace import log, no_trace
from ..core.columns import COL_DEALER, COL_ENDER, COL_OUTCOME, COL_SCORE, COL_STOCK_LEFT, COL_TURNS


# ----------------------------------------------------------------------------------------
# cards: conservation, restock, the legal discards

@kernel
def check_cards(hands, deck, sp, pile, npile, tab, n_tm, mr, pack):
    """Raise ValueError unless hands + pile + stock + table hold exactly the pack and every
    meld on the table is legal (:func:`sim.open.open_plan.check_table`)."""
    off = np.zeros(64, dtype=np.int64)
    full = np.zeros(64, dtype=np.int64)
    for c in pack:
        full[c] += 1
    for i in range(hands.shape[0]):
        for c in range(64):
            if hands[i, c] < 0:
                raise ValueError("negative card count in a hand")
            off[c] += hands[i, c]
    for k in range(npile):
        off[pile[k]] += 1
    for k in range(sp, deck.shape[0]):
        off[deck[k]] += 1
    OP.check_table(tab, n_tm, mr, off, full)


@noalloc
def restock(cfg, deck, pile, state, dst):
    """Turn the pile over as the new stock (module docstring); returns the cards turned."""
    n = deck.shape[0]
    npile = state[S_NPILE]
    shuffle = cfg[C_RESTOCK] == RESTOCK_SHUFFLE
    k = npile - 1 if shuffle else npile
    if k < 1:
        return 0
    for j in range(k):
        deck[n - k + j] = pile[j]
    if shuffle:
        for j in range(k - 1, 0, -1):
            x = rng.randint(dst, j + 1)
            t = deck[n - k + j]
            deck[n - k + j] = deck[n - k + x]
            deck[n - k + x] = t
        pile[0] = pile[npile - 1]
    state[S_NPILE] = npile - k
    state[S_SP] = n - k
    state[S_RESTOCKS] += 1
    return k


@noalloc
def legal_discards(cfg, hand, taken, allowed):
    """Fill ``allowed`` (int64[64]) with the codes the seat may discard (module docstring)."""
    held = 0
    for c in range(64):
        allowed[c] = hand[c]
        held += hand[c]
    if cfg[C_TAKEN_NO_DISCARD] and taken >= 0:
        allowed[taken] = 0
    if cfg[C_JOKER_LAST_ONLY] and held > 1:
        allowed[13] = 0
    for relax in range(2):
        for c in range(64):
            if allowed[c] > 0:
                return
        if relax == 0:
            allowed[13] = hand[13]
        elif taken >= 0:
            allowed[taken] = hand[taken]


@noalloc
def hand_count(hand, vals):
    v = 0
    for c in range(64):
        v += hand[c] * vals[c]
    return v


# ----------------------------------------------------------------------------------------
# one turn

@noalloc
def _draw(cfg, srow, sst, i, seat, hands, deck, pile, state, tab, mr, vals, goal, plan, dst, trace):
    """The draw of local seat ``i``: returns the code taken from the pile, -1 after a draw
    from the stock (or no draw: Wrotham's starter), -2 when the hand ends (stock out)."""
    hand = hands[i]
    if cfg[C_STARTER_NO_DRAW] and state[S_TURNS] == 1:
        return -1
    n_cards = deck.shape[0]
    top = pile[state[S_NPILE] - 1] if state[S_NPILE] > 0 else -1
    take = False
    if top >= 0:
        ok = True
        if cfg[C_TAKE_RULE] == TAKE_TO_MELD:
            ok = OP.can_take(hand, top, tab, state[S_NTM], seat, state[S_MELDED + i], mr, vals)
        if ok:
            if srow[S.P_RANDOM_PLAY] != 0:
                take = coin(1.0, sst, False)
            elif srow[S.P_TAKE] != 0:
                played = (may_play(hand, top, tab, state[S_NTM], cfg[C_ACE_HIGH])
                          and _played_at_once(hand, top, tab, state, i, seat, mr, vals, goal, plan))
                take = S.wants_take(srow, played, hand, top, cfg[C_ACE_HIGH])
    if not take:
        state[S_PLAN_READY] = 0
    if take:
        state[S_NPILE] -= 1
        hand[top] += 1
        log(trace, TR.E_TAKE_PILE, seat, top, 0)
        return top
    if state[S_SP] == n_cards:
        if cfg[C_RESTOCK] == RESTOCK_BLOCK or (0 <= cfg[C_MAX_RESTOCKS] <= state[S_RESTOCKS]):
            return -2
        k = restock(cfg, deck, pile, state, dst)
        if k == 0:
            return -2
        log(trace, TR.E_RESTOCK if cfg[C_RESTOCK] == RESTOCK_SHUFFLE else TR.E_TURN_OVER, -1, k, 0)
    card = deck[state[S_SP]]
    state[S_SP] += 1
    hand[card] += 1
    log(trace, TR.E_DRAW_STOCK, seat, card, 0)
    return -1


@noalloc
def _played_at_once(hand, top, tab, state, i, seat, mr, vals, goal, plan):
    """Would the seat's best plays (goal SHED) with the pile top ``top`` lay it down this
    turn?  Leaves that plan in ``plan`` (``state[S_PLAN_READY]`` = 1: the turn reuses it)."""
    set_goal(goal, L.SHED, 0, 1)
    hand[top] += 1
    sc = OP.plan_turn(hand, top, tab, state[S_NTM], seat, state[S_MELDED + i], mr, vals, goal, plan)
    hand[top] -= 1
    if sc >= L.NO_PLAN:
        return False
    state[S_PLAN_READY] = 1
    return plan_uses(plan, top)


@noalloc
def fewest_opp_cards(srow, hands, i):
    """The fewest cards an opponent of local seat ``i`` holds, when the seat's strategy looks
    (``meld_opp`` or ``discard_opp`` on), else NOT_LOOKED."""
    if srow[S.P_MELD_OPP] < 0 and srow[S.P_DISCARD_OPP] < 0:
        return NOT_LOOKED
    low = NOT_LOOKED
    for j in range(hands.shape[0]):
        if j != i:
            k = 0
            for c in range(64):
                k += hands[j, c]
            low = min(low, k)
    return low


@noalloc
def _plan(cfg, srow, sst, i, seat, hand, taken, tab, state, mr, vals, goal, plan, fewest_opp):
    """Choose the plays of the turn into ``plan``; returns False for no plays.  ``fewest_opp``:
    the fewest cards an opponent holds (:func:`fewest_opp_cards`; ``meld_opp``)."""
    own = state[S_OWN + i]
    n_tm = state[S_NTM]
    has = state[S_MELDED + i]
    ready = state[S_PLAN_READY] != 0
    state[S_PLAN_READY] = 0
    if srow[S.P_RANDOM_PLAY] != 0:
        set_goal(goal, L.SHED, 0, 1)
        sc = OP.plan_turn(hand, taken, tab, n_tm, seat, has, mr, vals, goal, plan)
        forced = taken >= 0 and cfg[C_TAKE_RULE] == TAKE_TO_MELD
        return sc < L.NO_PLAN and (plan[L.PL_OUT] != L.OUT_NONE or forced or coin(1.0, sst, False))
    mode = S.meld_mode(srow, own)
    thr = S.meld_at(srow, own)
    lay = np.int64(srow[S.P_LAYOFF])
    if S.opp_close(srow, S.P_MELD_OPP, fewest_opp):   # an opponent is about to go out: shed now
        mode = S.MODE_SHED
        thr = -1.0
        lay = 1
    if thr >= 0:        # the knob: as soon as possible when the count kept is <= thr, else hold
        mode = S.MODE_OUT_ONLY
    if thr >= 0 or mode == S.MODE_SHED:
        if ready and lay == 1:    # the draw's look at the pile top planned this
            sc = plan[L.PL_VALUE]
        else:
            set_goal(goal, L.SHED, 0, lay)
            sc = OP.plan_turn(hand, taken, tab, n_tm, seat, has, mr, vals, goal, plan)
        if sc < L.NO_PLAN and (mode == S.MODE_SHED or plan[L.PL_OUT] != L.OUT_NONE or plan[L.PL_AFTER] <= thr):
            return True
    if mode == S.MODE_SHED:
        return False
    if mode == S.MODE_OUT_ONLY:
        set_goal(goal, L.OUT_ONLY, 0, lay)
    else:
        set_goal(goal, L.MIN_CARDS, mode, lay)
    if OP.plan_turn(hand, taken, tab, n_tm, seat, has, mr, vals, goal, plan) < L.NO_PLAN:
        return True
    if taken >= 0 and cfg[C_TAKE_RULE] == TAKE_TO_MELD:     # the taken card must go down now
        set_goal(goal, L.SHED, 0, 1)
        return OP.plan_turn(hand, taken, tab, n_tm, seat, has, mr, vals, goal, plan) < L.NO_PLAN
    return False


@noalloc
def _take_turn(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed,
               counts, dst, st, row, debug, trace):
    """Local seat ``i`` plays a turn; returns True if the hand ended (``row`` filled; ``counts``
    int64[seats] scratch)."""
    srow = strat[seats[i]]
    taken, before, fewest_opp = turn_plays(cfg, srow, st[seats[i]], seats[i], i, hands, deck, pile, state, tab, mr,
                                           tabs[1], goal, plan, dst, trace)
    code = heuristic_discard(cfg, srow, st[seats[i]], hands[i], taken, allowed, tabs[1], fewest_opp)
    return turn_end(cfg, seats, i, hands, deck, pile, state, tab, tabs, mr, counts, row, debug, trace, taken, before,
                    code)


@njit(cache=True, _nrt=False, inline="always")
def turn_plays(cfg, srow, sst, seat, i, hands, deck, pile, state, tab, mr, vals, goal, plan, dst, trace):
    """The draw and the plays of local seat ``i``'s turn: ``(taken, before, fewest_opp)``, the
    draw's result (:func:`_draw`; -2: the stock ran out), whether the seat had played a card
    before this turn and :func:`fewest_opp_cards`."""
    state[S_TURNS] += 1
    state[S_OWN + i] += 1
    fewest_opp = fewest_opp_cards(srow, hands, i)
    before = state[S_PLAYED + i]
    taken = _draw(cfg, srow, sst, i, seat, hands, deck, pile, state, tab, mr, vals, goal, plan, dst, trace)
    if taken == -2:
        log(trace, TR.E_PASS, seat, -1, 0)
    elif (_plan(cfg, srow, sst, i, seat, hands[i], taken, tab, state, mr, vals, goal, plan, fewest_opp)
            and plan[L.PL_N_ACT] > 0):
        state[S_NTM] = play_plan(plan, hands[i], tab, state[S_NTM], seat, mr, trace)
        state[S_PLAYED + i] = 1
        if plan_melds(plan):
            state[S_MELDED + i] = 1
    return taken, before, fewest_opp


@njit(cache=True, _nrt=False, inline="always")
def heuristic_discard(cfg, srow, sst, hand, taken, allowed, vals, fewest_opp):
    """The strategy's discard after the plays (``allowed`` filled with the legal ones); -1 when
    there is none (the stock ran out, or the plays emptied the hand)."""
    if taken == -2 or hand[:].sum() == 0:
        return -1
    legal_discards(cfg, hand, taken, allowed)
    if srow[S.P_RANDOM_PLAY] != 0:
        return S.random_discard(allowed, sst)
    return S.choose_discard(srow, hand, allowed, vals, cfg[C_ACE_HIGH], fewest_opp)


@njit(cache=True, _nrt=False, inline="always")
def turn_end(cfg, seats, i, hands, deck, pile, state, tab, tabs, mr, counts, row, debug, trace, taken, before, code):
    """Local seat ``i`` discards ``code`` (-1: none) and its turn ends: returns True if the hand
    ended (``row`` filled; ``counts`` int64[seats] scratch)."""
    pack, vals, mrs = tabs
    seat = seats[i]
    hand = hands[i]
    kind = K_STOCK_OUT if taken == -2 else K_NONE
    if code >= 0:
        hand[code] -= 1
        pile[state[S_NPILE]] = code
        state[S_NPILE] += 1
        log(trace, TR.E_DISCARD, seat, code, hand_count(hand, vals))
    if taken != -2 and hand[:].sum() == 0:
        kind = K_RUMMY if before == 0 and cfg[C_RUMMY] != RUMMY_NONE else K_OUT
    if debug:
        check_cards(hands, deck, state[S_SP], pile, state[S_NPILE], tab, state[S_NTM], mr, pack)
    if kind == K_NONE:
        if state[S_TURNS] < MAX_TURNS:
            return False
        kind = K_TURN_LIMIT
    for j in range(seats.shape[0]):
        counts[j] = hand_count(hands[j], vals)
    row[COL_ENDER] = seat
    row[COL_TURNS] = state[S_TURNS]
    row[COL_STOCK_LEFT] = deck.shape[0] - state[S_SP]
    row[COL_OUTCOME] = settle(cfg, seats, counts, i, kind, row)
    cx = COL_SCORE + 2 * cfg[C_PLAYERS]
    if cfg[C_X_OUT_TURN] >= 0:
        row[cx + cfg[C_X_OUT_TURN]] = state[S_OWN + i] if kind == K_OUT or kind == K_RUMMY else -1
    if cfg[C_X_RESTOCKS] >= 0:
        row[cx + cfg[C_X_RESTOCKS]] = state[S_RESTOCKS]
    if cfg[C_X_DEAL] >= 0:
        row[cx + cfg[C_X_DEAL]] = state[S_DEAL]
    log(trace, TR.E_END, seat, row[COL_OUTCOME], 0)
    return True


# ----------------------------------------------------------------------------------------
# one hand

@njit(cache=True)
def mr_of_deal(cfg, mrs, deal_no):
    """The meld rules row of deal ``deal_no``."""
    late = cfg[C_LATE_DEAL]
    return mrs[1] if late > 0 and deal_no >= late else mrs[0]


@njit(cache=True)
def deal(cfg, deck, dealer, hands, pile, state, deal_no):
    """Deal ``cfg[C_HAND]`` cards each one at a time from the local ``dealer``'s left (the
    first player, left of the dealer, gets ``C_STARTER_EXTRA`` more at the end), turn the
    upcard, set up ``pile`` and ``state``.  Returns the number of cards dealt."""
    m = hands.shape[0]
    hands[:, :] = 0
    k = 0
    for r in range(cfg[C_HAND]):
        for j in range(m):
            hands[(dealer + 1 + j) % m, deck[k]] += 1
            k += 1
    for r in range(cfg[C_STARTER_EXTRA]):
        hands[(dealer + 1) % m, deck[k]] += 1
        k += 1
    turn_upcard(deck, k, m, dealer, pile, state)
    state[S_DEAL] = deal_no
    return k


@njit(cache=True)
def play_hand(cfg, strat, seats, dealer, deck, tabs, deal_no, dst, st, row, debug, trace, search=None):
    """Deal ``deck`` (shuffled) to the seats in play ``seats`` with ``dealer`` (a seat in play)
    as deal number ``deal_no`` and play the hand; fills ``row``.  ``search``: omitted when no
    seat searches (the search is then not compiled in: :mod:`sim.core.search_flag`)."""
    pack, vals, mrs = tabs
    m = seats.shape[0]
    local = local_seat(seats, dealer)
    for c in range(1, row.shape[0]):
        row[c] = 0
    hands = np.zeros((m, 64), dtype=np.int64)
    pile = np.empty(deck.shape[0], dtype=np.int64)
    state = np.zeros(S_WIDTH, dtype=np.int64)
    k = deal(cfg, deck, local, hands, pile, state, deal_no)
    if trace.shape[0] > 0:
        TR.log_pack(trace, deck)
        for j in range(k):
            r = j - m * cfg[C_HAND]
            log(trace, TR.E_DEAL, seats[(local + 1 + (j % m if r < 0 else 0)) % m], deck[j], 0)
        log(trace, TR.E_UPCARD, -1, pile[0], 0)
    mr = mr_of_deal(cfg, mrs, deal_no)
    tab = np.zeros((L.MAX_TM, L.TM_WIDTH), dtype=np.int64)
    goal = np.zeros(L.GOAL_WIDTH, dtype=np.int64)
    plan = np.zeros(L.PLAN_WIDTH, dtype=np.int64)
    allowed = np.zeros(64, dtype=np.int64)
    counts = np.zeros(m, dtype=np.int64)
    searched = False
    if search is not None:      # pruned when omitted
        if OS.any_searching(strat, seats):      # a seat decides by search: sim.open.open_search
            OS.play_on_search(cfg, strat, seats, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed,
                              counts, dst, st, row, debug, trace)
            searched = True
    if not searched:
        play_on(cfg, strat, seats, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed, counts, dst, st,
                row, debug, trace)
    row[COL_DEALER] = dealer


@noalloc
def play_on(cfg, strat, seats, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed, counts, dst, st, row,
            debug, trace):
    """Play the hand on from the seat to move (``state[S_TO_MOVE]``) to its end (``row``)."""
    i = state[S_TO_MOVE]
    while not _take_turn(cfg, strat, seats, i, hands, deck, pile, state, tab, tabs, mr, goal, plan, allowed,
                         counts, dst, st, row, debug, trace):
        i = (i + 1) % seats.shape[0]
        state[S_TO_MOVE] = i


@njit(cache=True)
def hand_deal_number(cfg, h):
    """The deal number hand row ``h`` plays (``C_DEAL``, or the cycle)."""
    if cfg[C_DEAL] > 0:
        return cfg[C_DEAL]
    if cfg[C_DEAL_CYCLE] > 0:
        return h % cfg[C_DEAL_CYCLE] + 1
    return 1


@njit(cache=True, nogil=True)
def play_chunk_kernel(cfg, strat, seed, first_hand, out, tabs, debug, trace, search=None):
    """Hand rows ``first_hand ..``, every seat in play, each as deal :func:`hand_deal_number`:
    hand ``h``'s deck and generators from :func:`sim.core.deal.shuffle_hand`, dealer ``h % n``."""
    pack = tabs[0]
    seats, deck, st = chunk_buffers(cfg[C_PLAYERS], pack)
    for k in range(out.shape[0]):
        h, dst = shuffle_hand(seed, first_hand + k, pack, deck, seats.shape[0] * cfg[C_HAND], st)
        play_hand(cfg, strat, seats, h % seats.shape[0], deck, tabs, hand_deal_number(cfg, h), dst, st, out[k], debug,
                  trace, search)


@njit(cache=True, nogil=True)
def game_chunk_kernel(cfg, strat, layout, seed, first_game, out, tabs, debug, search=None):
    """Whole games ``first_game ..`` (the loop of :mod:`sim.core.games`): each hand is dealt to the
    seats still in play, as deal number 1 + the scoring hands before it."""
    per, sc, st, row = games.game_buffers(strat.shape[0], layout)
    deck = np.empty(tabs[0].shape[0], dtype=np.int64)
    for k in range(out.shape[0]):
        dst = games.begin_game(per, sc, st, seed, first_game + k)
        while games.next_hand(per, sc, layout, row, dst, tabs[0], deck):
            play_hand(cfg, strat, games.seats_in_play(per), sc[games.S_DEALER], deck, tabs, sc[games.S_SCORED] + 1,
                      dst, st, row, debug, no_trace(), search)
            games.record_hand(per, sc, layout, row)
        games.finish_game(per, sc, layout, out[k])
