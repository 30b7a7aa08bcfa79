"""One turn of the closed wild-card engine (:mod:`sim.wild.closed_wild`): the draw, the
strategy's discard and end, the discard and the end of the hand, restock, settlement and the
card check.  :func:`take_turn` plays a turn by the strategy, or (its ``act``) only the draw and
then the rest with a move chosen by the search player (:mod:`sim.wild.wild_decide`);
:func:`play_on` is the plain turn loop.

The constants of ``cfg`` (C_*), of the state vector (S_*), the game codes and the end kinds
live here; :mod:`sim.wild.closed_wild` re-exports them.
"""

import numpy as np
from numba import njit

from ..core import rng
from ..core import trace as TR
from ..strategies import wild as W
from ..strategies.random_play import coin
from ..core.trace import log
from ..core.columns import COL_ENDER, COL_OUTCOME, COL_SCORE, COL_STOCK_LEFT, COL_TURNS, MAX_SEATS
from ..core.deal import S_NPILE, S_SP, S_TO_MOVE, S_TURNS
from .wild_melds import ws_deadwood
from .wild_shown import log_seats

GAME_RAMINO, GAME_WILDCARD, GAME_CINCINNATI = range(3)
END_KNOCK, END_OUT, END_OUT_NO_DISCARD, END_TURN_LIMIT = range(4)
END_NONE = -1
(C_GAME, C_PLAYERS, C_HAND, C_KNOCK_BELOW, C_RESTOCK_SHUFFLE, C_ACE_HIGH, C_ROOMY_SET_MAX, C_X_WINNER,
 C_X_POINTS, C_X_END_DW, C_X_END_TURN, C_RESTOCK_KEEP_TOP, C_OUTCOME) = range(13)
C_WIDTH = C_OUTCOME + 4            # outcome code of each end kind (-1: the game has none)
MAX_TURNS = 1000
# state vector int64[S_WIDTH]: stock pointer, pile size, turns, seat to move (local) - the head every
# turn loop shares (sim.core.deal) - then own turns and discards taken this hand per local seat
S_OWN = S_TO_MOVE + 1
S_TAKES = S_OWN + MAX_SEATS
S_WIDTH = S_TAKES + MAX_SEATS
# a turn's mode and move (take_turn's ``act``): PLAY, DRAW (then a move chosen), FINISH with it
PLAY, DRAW, FINISH = range(3)
A_MODE, A_HURRY, A_RELEASE, A_FORBIDDEN, A_FULL, A_KIND, A_CODE, A_D, A_VALUE, A_KNOCK = range(10)
A_WIDTH = A_KNOCK + 1

# ----------------------------------------------------------------------------------------
# cards: conservation, restock

@njit(cache=True)
def check_cards(wss, m, deck, sp, pile, npile, pack):
    """Raise ValueError unless hands + pile + stock hold exactly the pack."""
    cnt = np.zeros(64, dtype=np.int64)
    for c in pack:
        cnt[c] += 1
    for i in range(m):
        for c in range(64):
            cnt[c] -= wss[i, c]
    for k in range(npile):
        cnt[pile[k]] -= 1
    for k in range(sp, deck.shape[0]):
        cnt[deck[k]] -= 1
    for c in range(64):
        if cnt[c] != 0:
            raise ValueError("cards not conserved")


@njit(cache=True)
def restock(cfg, deck, pile, state, dst):
    """Turn the discard pile over as the new stock (first discard on top), shuffled with
    ``restock_shuffle``: every discard, or with ``restock_keep_top`` all but the top one,
    which stays as the pile.  Returns the number of cards turned over."""
    keep = 1 if cfg[C_RESTOCK_KEEP_TOP] else 0
    k = state[S_NPILE] - keep
    if k < 1:
        return 0
    n = deck.shape[0]
    for j in range(k):
        deck[n - k + j] = pile[j]
    if cfg[C_RESTOCK_SHUFFLE]:
        for j in range(k - 1, 0, -1):
            x = rng.randint(dst, j + 1)
            t = deck[n - k + j]
            deck[n - k + j] = deck[n - k + x]
            deck[n - k + x] = t
    if keep:
        pile[0] = pile[k]
    state[S_NPILE] = keep
    state[S_SP] = n - k
    return k


# ----------------------------------------------------------------------------------------
# the end of a hand

@njit(cache=True)
def settle(cfg, seats, dw, ender, kind, value, row):
    """Fill the score, deadwood and extra columns of ``row`` for an end ``kind`` by local seat
    ``ender`` (``value``: Cincinnati's meld value); returns the outcome code.  ``dw``: the
    exact deadwood of every local seat; seats not in play score 0 with deadwood 0."""
    n = cfg[C_PLAYERS]
    m = seats.shape[0]
    cd = COL_SCORE + n
    cx = COL_SCORE + 2 * n
    for s in range(n):
        row[COL_SCORE + s] = 0
        row[cd + s] = 0
    winner = -1
    pts = 0
    for i in range(m):
        row[cd + seats[i]] = dw[i]
    game = cfg[C_GAME]
    if kind != END_TURN_LIMIT:
        if game == GAME_RAMINO:
            low = -1
            n_low = 0
            for i in range(m):
                row[COL_SCORE + seats[i]] = -dw[i]
                if low < 0 or dw[i] < dw[low]:
                    low = i
                    n_low = 1
                elif dw[i] == dw[low]:
                    n_low += 1
            winner = seats[low] if n_low == 1 else -1
        else:
            winner = seats[ender]
            if game == GAME_WILDCARD:
                for i in range(m):
                    if i != ender:
                        pts += dw[i]
            else:
                pts = value
            row[COL_SCORE + winner] = pts
    if cfg[C_X_WINNER] >= 0:
        row[cx + cfg[C_X_WINNER]] = winner
    if cfg[C_X_POINTS] >= 0:
        row[cx + cfg[C_X_POINTS]] = pts
    return cfg[C_OUTCOME + kind]


@njit(cache=True)
def _hand_value(ws, vals):
    v = 0
    for c in range(64):
        v += ws[c] * vals[c]
    return v


@njit(cache=True)
def _cheapest_out(ws, dw_full, forbidden, order, vals):
    """The cheapest card (not ``forbidden``) whose discard leaves 0 deadwood, or -1.  Only
    cards worth >= ``dw_full`` can (``order`` runs from high to low value)."""
    for i in range(order.shape[0] - 1, -1, -1):
        c = order[i]
        if ws[c] == 0 or c == forbidden or vals[c] < dw_full:
            continue
        ws[c] -= 1
        d = ws_deadwood(ws)
        ws[c] += 1
        if d == 0:
            return c
    return -1


@njit(cache=True)
def go_out_move(cfg, srow, ws, dw_full, forbidden, own_turn, tabs, code, d, release, hurry):
    """Wildcard / Cincinnati, after the draw: (end kind or END_NONE, card to discard or -1,
    meld value).  ``code``/``d``: the strategy's discard and the deadwood it leaves (-1 when
    the whole hand melds: no discard chosen yet).  Out without a discard when the whole hand
    melds, else with a discard leaving 0 deadwood (Cincinnati: the cheapest, as it scores the
    rest), a wild the strategy keeps included; Cincinnati only if the strategy accepts the
    meld value (any with ``hurry``: ``out_opp``).  ``release``: ``wilds_opp``."""
    pack, P, vals, wild, order = tabs
    hand = _hand_value(ws, vals)
    if dw_full == 0:
        kind = END_OUT_NO_DISCARD
        c = -1
        value = hand
    else:
        c = code
        if d > 0:   # no discard but perhaps a kept wild leaves 0 (only cards worth >= dw_full can)
            c = -1
            kept = not W.may_discard_wild(srow, own_turn, release)   # else the search tried them (worth most)
            for w in range(64):
                if kept and wild[w] and ws[w] > 0 and w != forbidden and vals[w] >= dw_full:
                    ws[w] -= 1
                    z = ws_deadwood(ws)
                    ws[w] += 1
                    if z == 0:
                        c = w
                        break
            if c < 0:
                return END_NONE, -1, 0
        elif cfg[C_GAME] == GAME_CINCINNATI:
            c = _cheapest_out(ws, dw_full, forbidden, order, vals)
        kind = END_OUT
        value = hand - vals[c]
    if cfg[C_GAME] == GAME_CINCINNATI and not hurry and value < W.min_out_value(srow, own_turn):
        return END_NONE, -1, 0
    return kind, c, value


@njit(cache=True)
def _random_move(cfg, rp, st, ws, full, forbidden, tabs):
    """``random_play``, after the draw (hand ``ws`` with deadwood ``full``): (end kind or
    END_NONE, discard or -1, deadwood after, meld value).  Wildcard goes out whenever it can,
    Cincinnati on a fair coin, as :func:`go_out_move` (no discard when the whole hand melds, else
    the cheapest leaving 0); otherwise a uniform random legal discard."""
    pack, P, vals, wild, order = tabs
    if cfg[C_GAME] != GAME_RAMINO:
        c = _cheapest_out(ws, full, forbidden, order, vals) if full > 0 else -1
        if (full == 0 or c >= 0) and (cfg[C_GAME] == GAME_WILDCARD or coin(rp, st, False)):
            if full == 0:
                return END_OUT_NO_DISCARD, -1, 0, _hand_value(ws, vals)
            return END_OUT, c, 0, _hand_value(ws, vals) - vals[c]
    code = W.random_discard(ws, forbidden, st)
    ws[code] -= 1
    d = ws_deadwood(ws)
    ws[code] += 1
    return END_NONE, code, d, 0


# ----------------------------------------------------------------------------------------
# one turn, one hand

# Over 80 lines on purpose: one njit kernel whose turn state lives in locals; in pieces it
# played 8% slower (tests/crosscut/test_layers.py LONG_FUNCTIONS).
@njit(cache=True)
def take_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace, act):
    """Local seat ``i`` draws, discards and maybe ends the hand.  Returns True if it ended
    (``row`` filled).  ``act`` int64[A_WIDTH], ``act[A_MODE]``: PLAY the strategy's turn;
    DRAW the draw only, the strategy's move after it into ``act`` (A_*), returning False;
    FINISH (after a DRAW) the end of the turn with the move in ``act`` (a search's choice;
    ``act[A_KNOCK]`` -1: Ramino knocks by the strategy, 0 / 1: as it says).  One kernel: in
    pieces it played 8% slower."""
    pack, P, vals, wild, order = tabs
    m = seats.shape[0]
    p = seats[i]
    srow = strat[p]
    rp = srow[W.P_RANDOM_PLAY]
    sst = st[p]
    ws = wss[i]
    ace_high = cfg[C_ACE_HIGH]
    n_cards = deck.shape[0]
    mode = act[A_MODE]
    if mode == FINISH:
        own = state[S_OWN + i]
        hurry = act[A_HURRY] != 0
        forbidden, kind, code, d, value, knock = (act[A_FORBIDDEN], act[A_KIND], act[A_CODE], act[A_D],
                                                  act[A_VALUE], act[A_KNOCK])
    else:
        knock = -1
        state[S_TURNS] += 1
        state[S_OWN + i] += 1
        own = state[S_OWN + i]
        keep_top = cfg[C_RESTOCK_KEEP_TOP] != 0
        most = W.most_opp_takes(srow, state, S_TAKES, m, i)
        release = W.opp_close(srow, W.P_WILDS_OPP, most)
        hurry = W.opp_close(srow, W.P_OUT_OPP, most)
        if state[S_SP] == n_cards and keep_top:      # the top discard stays: restock before the choice
            k = restock(cfg, deck, pile, state, dst)
            if k > 0:
                log(trace, TR.E_RESTOCK, -1, k, 0)
        top = pile[state[S_NPILE] - 1] if state[S_NPILE] > 0 else -1
        take = top >= 0 and state[S_SP] == n_cards and keep_top
        d_top = -1   # deadwood of the hand with the pile top, when the decision computed it
        if top >= 0 and not take:
            if rp != 0:
                take = coin(rp, sst, False)
            else:
                take, d_top = W.wants_pile(srow, ws, dw[i], top, vals, wild, ace_high)
        if not take and state[S_SP] == n_cards:      # the whole pile turned over, the top refused
            k = 0 if keep_top else restock(cfg, deck, pile, state, dst)
            if k == 0:
                raise ValueError("no card to draw: stock and pile are empty")
            log(trace, TR.E_TURN_OVER, -1, k, 0)
        if take:
            state[S_NPILE] -= 1
            state[S_TAKES + i] += 1
            card = top
            forbidden = top
            log(trace, TR.E_TAKE_PILE, p, card, 0)
        else:
            card = deck[state[S_SP]]
            state[S_SP] += 1
            forbidden = -1
            log(trace, TR.E_DRAW_STOCK, p, card, 0)
        # deadwood of the hand with the new card: exact without a search when it touches no meld
        if rp != 0 and cfg[C_GAME] == GAME_RAMINO:
            full = -1   # unused: a random discard, then the deadwood left
        elif take and d_top >= 0:
            full = d_top
        elif not take and not W.touches_meld(ws, card, wild, ace_high, W.wild_count(ws, wild)):
            full = dw[i] + vals[card]
        else:
            ws[card] += 1
            full = ws_deadwood(ws)
            ws[card] -= 1
        ws[card] += 1
        kind = END_NONE
        value = 0
        code = -1
        d = -1
        if rp != 0:
            kind, code, d, value = _random_move(cfg, rp, sst, ws, full, forbidden, tabs)
        elif full > 0:
            code, d = W.choose_discard(srow, ws, full, forbidden, own, order, vals, wild, ace_high,
                                       cfg[C_ROOMY_SET_MAX], release)
        if cfg[C_GAME] != GAME_RAMINO and rp == 0:
            kind, c, value = go_out_move(cfg, srow, ws, full, forbidden, own, tabs, code, d, release, hurry)
            if kind == END_OUT:
                code, d = c, 0
        if kind != END_OUT_NO_DISCARD and code < 0:  # a whole hand melds and the seat does not go out
            code, d = W.choose_discard(srow, ws, full, forbidden, own, order, vals, wild, ace_high,
                                       cfg[C_ROOMY_SET_MAX], release)
        if mode == DRAW:
            act[A_HURRY], act[A_RELEASE], act[A_FORBIDDEN], act[A_FULL] = hurry, release, forbidden, full
            act[A_KIND], act[A_CODE], act[A_D], act[A_VALUE], act[A_KNOCK] = kind, code, d, value, -1
            return False
    if kind != END_OUT_NO_DISCARD:
        ws[code] -= 1
        pile[state[S_NPILE]] = code
        state[S_NPILE] += 1
        dw[i] = d
        log(trace, TR.E_DISCARD, p, code, d)
    else:
        dw[i] = 0
    if debug:
        if code >= 0 and code == forbidden:
            raise ValueError("the card taken from the pile was discarded")
        check_cards(wss, m, deck, state[S_SP], pile, state[S_NPILE], pack)
    if cfg[C_GAME] == GAME_RAMINO:
        if dw[i] == 0:
            kind = END_OUT
        elif dw[i] < cfg[C_KNOCK_BELOW] and (knock == 1 if knock >= 0 else coin(
                rp, sst, hurry or dw[i] <= W.knock_threshold(srow, own))):
            kind = END_KNOCK
            log(trace, TR.E_KNOCK, p, dw[i], 0)
    if kind == END_NONE:
        if state[S_TURNS] < MAX_TURNS:
            return False
        kind = END_TURN_LIMIT
    row[COL_ENDER] = p
    row[COL_TURNS] = state[S_TURNS]
    row[COL_STOCK_LEFT] = n_cards - state[S_SP]
    row[COL_OUTCOME] = settle(cfg, seats, dw, i, kind, value, row)
    cx = COL_SCORE + 2 * cfg[C_PLAYERS]
    if cfg[C_X_END_DW] >= 0:
        row[cx + cfg[C_X_END_DW]] = dw[i] if kind != END_TURN_LIMIT else -1
    if cfg[C_X_END_TURN] >= 0:
        row[cx + cfg[C_X_END_TURN]] = own if kind != END_TURN_LIMIT else -1
    if trace.shape[0] > 0 and kind != END_TURN_LIMIT:
        log_seats(trace, seats, wss, dw, i, P, vals)     # the arrangements shown
    log(trace, TR.E_END, p, row[COL_OUTCOME], 0)
    return True


@njit(cache=True)
def new_act():
    """A turn's ``act`` vector (:func:`take_turn`), mode PLAY."""
    return np.zeros(A_WIDTH, dtype=np.int64)


@njit(cache=True)
def play_on(cfg, strat, seats, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace):
    """The seats take their turns by their strategies, from local seat ``state[S_TO_MOVE]``,
    until the hand ends (``dw``: the local seats' deadwood; ``row`` filled)."""
    m = seats.shape[0]
    i = state[S_TO_MOVE]
    act = new_act()
    while not take_turn(cfg, strat, seats, i, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace, act):
        i = (i + 1) % m
        state[S_TO_MOVE] = i
