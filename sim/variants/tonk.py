"""Tonk / Tunk, 2-6 players, 5 cards each, paid in stakes (rules: ``rules/tonk.md``; sources:
seed 000 first section "Tonk, 2-6 spelers" and seed 003, the Frisian page that cites
pagat.com and Wikipedia).

| option                    | default | meaning |
|---------------------------|---------|---------|
| players                   | 2       | number of players, 2..6 |
| tonk_deal_min             | 49      | a dealt hand counting at least this is a tonk on the deal (49 or 50; seed 000: 50) |
| tonk_tie_new_dealer       | on      | two or more deal tonks: the tie is its own row (outcome ``tonk_tie``, nobody pays) and the next hand has the next dealer; off: the same dealer redeals within the row (column ``redeals``) |
| no_upcard                 | off     | no upcard after the deal; the first player draws from the stock |
| must_spread               | off     | a player holding a spread must lay it down on the turn (three aces may be kept) |
| tonk_out_needs_new_spread | off     | a tonk out pays 2x only if the going-out turn laid a new spread; out by hits alone pays 1x |
| stockout_laydown          | on      | at a stock out every hand lays down its spreads and hits, from the player to move on, before counts are compared (seed 003) |
| knocker_tie_paid          | off     | a caught knocker tied for the lowest count is paid as one of the tied (seed 000) |

Counts: A=1, 2..10 face value, J Q K=10; a seat's count is the sum of the cards still in its
hand (spread cards no longer count).

Payouts, in base stakes, every hand sums to zero ("from every other player" = each other seat
pays that much to the receiver):

* ``tonk_deal``: the one seat whose dealt five count >= ``tonk_deal_min`` gets 2 from every
  other seat; the hand is not played.  ``tonk_tie``: two or more such seats, nobody pays.
* ``tonk_out``: hand emptied by spreads/hits during the turn, no discard: 2 from every other
  seat (1 with ``tonk_out_needs_new_spread`` when that turn laid no new spread; seed 003:
  "double ... if they make a new spread and get rid of all their cards without discarding",
  single "if they only hit spreads").
* ``out_discard``: the last card went to the discard pile: 1 from every other seat.
* ``knock_won`` / ``knock_caught``: a drop (knock) at the start of a turn, before drawing.
  Rule (rules/tonk.md, seeds 000 and 003): "if the knocker's count is strictly the lowest, the
  knocker wins 1x stake. Otherwise the knocker pays 2x stake to every player whose count is
  <= the knocker's, and the player with the lowest count also receives 1x stake from every
  player (ties for lowest: each of them is paid - a catch). A knocker who is not strictly
  lowest never collects."  Precisely, with knocker k and ``low`` = the lowest count among the
  *other* seats:

  - ``count[k] < low``: every other seat pays k 1.
  - otherwise (caught): k pays 2 to every other seat s with ``count[s] <= count[k]``; then
    every other seat w with ``count[w] == low`` receives 1 from every seat but itself - the
    knocker included, and the other tied-lowest seats too (those payments between tied
    seats cancel).  The knocker collects nothing even when tied for lowest.
    Example (4 seats, knocker 0): counts 10, 8, 8, 12 -> seat 0 pays 2+1 to seat 1 and to
    seat 2 (-6), seat 3 pays 1 to each of them (-2), seats 1 and 2 get +4 each (the 1 each
    pays the other cancels).  Counts 6, 9, 6, 2 with knocker 2 -> seat 2 pays 2 to seat 0
    (equal count) and 2+1 to seat 3 (lowest), seats 0 and 1 pay 1 to seat 3: pays
    +1, -1, -5, +5.  Two seats, both counting 5: the knocker pays 2 + 1 = 3.  With
    ``knocker_tie_paid`` a knocker whose count equals ``low`` is paid as one of the tied
    (two seats counting 5: the knocker pays 2, the 1s cancel).
* ``stock_out``: the stock is empty and the player to move does not take the top discard
  (that seat is the ender): with ``stockout_laydown`` every hand first lays down the spreads
  and hits that leave it the lowest count (:func:`sim.knock.table_plan.lay_down_all`), the ender first,
  then in turn order; every seat with the lowest count receives 1 from every seat but itself
  (ties: each is paid; payments between tied seats cancel).

Play: deal 5 each one at a time from the left of the dealer, then the upcard; play starts left
of the dealer, clockwise.  A turn: drop, or draw (stock top or top discard), spread/hit (hits
go on any spread on the table, anyone's; books of 3-4, runs of 3+ in suit, ace low), discard
(not the card taken from the discard pile this turn).  A player may not spread/hit down to
the single card taken from the discard pile (it could not be discarded).  Engine limits:
hands hold at most 6 cards during a turn (5 + the draw), so at most two new spreads per
turn; a hand still running after ``MAX_TURNS`` turns (possible only with strategies that keep
taking the discard from an empty stock) ends as ``stock_out`` with the player to move as
ender.  Under ``must_spread`` the one unplayable case (laying the spread down would leave only
the card taken from the pile) keeps the spread in hand.

State (plain arrays, single pack, a card is bit ``code = suit*16 + rank`` of a uint64):
``hands`` uint64[n]; ``stock`` int64[m] with the stock as ``stock[ctr[C_STOCK]:]`` (top
first); ``discard`` int64[52] with ``ctr[C_PILE]`` cards (top last); the open table of
:mod:`sim.knock.table` (``sp_owner``, ``sp_kind``, ``sp_cards`` of length MAX_SPREADS) with
``ctr[C_SPREADS]`` spreads.

This module holds the hand loop; the rules as data and kernels (options, outcomes, the deal,
the settlements) are :mod:`sim.variants.tonk_rules` (its names importable from here too), the
open table :mod:`sim.knock.table` with its turn planner :func:`sim.knock.table_plan.plan_play`,
and the strategy decisions (drop, spread, hit, take, discard) are the njit functions of
:mod:`sim.strategies.tonk`.
Kernels: :func:`play_chunk` (the variant contract: one row per hand, columns
``VARIANT.columns(n)``), :func:`play_hand`, :func:`play_from_state` (continue from any
position: rollouts for the hand advisor); from :mod:`~sim.variants.tonk_rules`: :func:`deal` /
:func:`deal_from_deck`, the settlement functions :func:`settle_knock`, :func:`settle_lowest`,
:func:`settle_collect`, and :func:`deal_tonk_flags` (which seats are dealt a tonk, with the
same dealing code).
Python helpers :func:`make_position` and :func:`play_position` build and play a position.
Extra columns: ``knock_count`` (knocker's count, -1 none), ``knock_turn`` (knocker's own turn
number, -1 none), ``n_spreads`` (spreads on the table at the end), ``deal_tonks`` (seats dealt
a tonk in the deal that was played), ``redeals`` (tied deals redealt within the row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit as _bit
from ..core.bits import popcount
from ..core.cards import parse_cards
from ..strategies import tonk as T
from ..knock.table import (MAX_SPREADS, U0, can_lay, check_open_table, hand_value, is_legal_spread, lay_plan,
                           log_hits, meld_cards, spread_kind, table_hit_masks)
from ..knock.table_plan import MAX_MELDS, lay_down_all, plan_play
from ..core import trace as TR
from ..core.trace import NO_TRACE, log
from . import COL_DEALER, COL_ENDER, COL_OUTCOME, COL_SCORE, COL_STOCK_LEFT, COL_TURNS
from . import Knob, col_deadwood, col_extra, hand_columns
from .knock_games import knock_variant
from .tonk_rules import (C_PILE, C_SPREADS, C_STOCK, C_WIDTH, HAND_SIZE, N_CARDS, O_KNOCK_CAUGHT,  # noqa: F401
                         O_KNOCK_WON, O_OUT_DISCARD, O_STOCK_OUT, O_TONK_DEAL, O_TONK_OUT, O_TONK_TIE, OUTCOMES,
                         R_LAYDOWN, R_MUST_SPREAD, R_NO_UPCARD, R_OUT_NEEDS_SPREAD, R_PLAYERS, R_TIE_NEW_DEALER,
                         R_TIE_PAID, R_TONK_MIN, TonkRules, deal, deal_buffers, deal_from_deck, deal_tonk_flags,
                         deal_tonks, settle_collect, settle_knock, settle_lowest)

EXTRA_COLUMNS = ("knock_count", "knock_turn", "n_spreads", "deal_tonks", "redeals")
MAX_TURNS = 500
I_ENDER, I_OUTCOME, I_TURNS, I_KNOCK_COUNT, I_KNOCK_TURN, I_WIDTH = range(6)  # info layout


# ----------------------------------------------------------------------------------------
# one hand

@njit(cache=True)
def _end(hands, counts, info, ender, outcome, turn):
    for s in range(hands.shape[0]):
        counts[s] = hand_value(hands[s])
    info[I_ENDER] = ender
    info[I_OUTCOME] = outcome
    info[I_TURNS] = turn


@njit(cache=True)
def _stock_out(rules, hands, counts, info, seat, turn, pay, sp_owner, sp_kind, sp_cards, ctr, mm, mk, debug, trace):
    """End by stock out with ``seat`` to move: the lay-down (``stockout_laydown``), then the
    lowest counts are paid."""
    if rules[R_LAYDOWN] != 0:
        ctr[C_SPREADS] = lay_down_all(hands, seat, sp_owner, sp_kind, sp_cards, ctr[C_SPREADS], mm, mk, debug, trace)
    _end(hands, counts, info, seat, O_STOCK_OUT, turn)
    settle_lowest(counts, pay)


# Over 80 lines on purpose: one njit kernel whose hand state lives in locals across the whole
# loop (tests/crosscut/test_layers.py LONG_FUNCTIONS); a split must be timed with `rummylab bench`.
@njit(cache=True)
def play_from_state(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr,
                    seat, turn, st, allow_drop_first, debug, pay, counts, info, trace, search=None):
    """Play on from a position until the hand ends.

    ``seat`` is to move at the start of its turn; ``turn`` = turns begun so far (the own turn
    number is ``turn // n + 1``, counted from the player left of the dealer).  ``st``
    uint64[n]: each seat's strategy generator state (advanced in place).  With
    ``allow_drop_first`` False the player to move may not drop on this first turn (the
    "draw on" arm of a knock question).  Arrays are updated in place.  Fills ``pay``
    int64[n] (stake change), ``counts`` int64[n] (final counts) and ``info`` int64[I_WIDTH]
    (ender, outcome, turns begun, knocker's count and own turn or -1).  ``trace``: events.  ``search``: omitted
    (pruned at compile time) or uint64[n], the cards each seat took from the pile (:mod:`.tonk_search`).
    """
    n = hands.shape[0]
    must = rules[R_MUST_SPREAD] != 0
    needs_new = rules[R_OUT_NEEDS_SPREAD] != 0
    mm = np.empty(MAX_MELDS, dtype=np.uint64)
    mk = np.empty(MAX_MELDS, dtype=np.int64)
    run_hm, book_hm = table_hit_masks(sp_kind, sp_cards, ctr[C_SPREADS])
    info[I_KNOCK_COUNT] = -1
    info[I_KNOCK_TURN] = -1
    pay[:] = 0
    first = True
    while True:
        if debug:
            check_open_table(hands, HAND_SIZE + 1, stock, ctr[C_STOCK], discard, ctr[C_PILE], sp_kind, sp_cards,
                             ctr[C_SPREADS], N_CARDS)
        if turn >= MAX_TURNS:
            _stock_out(rules, hands, counts, info, seat, turn, pay, sp_owner, sp_kind, sp_cards, ctr, mm, mk,
                       debug, trace)
            return
        srow = strat[seat]
        h = hands[seat]
        own_turn = turn // n + 1
        turn += 1
        # 1. drop, before drawing
        if allow_drop_first or not first:
            min_opp = 99
            for s in range(n):
                if s != seat:
                    min_opp = min(min_opp, popcount(hands[s]))
            cnt = hand_value(h)
            drop = T.wants_drop(srow, cnt, own_turn, n, min_opp)
            if search is not None:      # a searching seat's drop
                drop = TS.drop(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, seat, turn, st,
                               search, drop)
            if T.decide(srow, st[seat:seat + 1], drop):
                log(trace, TR.E_DROP, seat, cnt, 0)
                _end(hands, counts, info, seat, 0, turn)
                info[I_OUTCOME] = settle_knock(counts, seat, pay, rules[R_TIE_PAID] != 0)
                info[I_KNOCK_COUNT] = cnt
                info[I_KNOCK_TURN] = own_turn
                return
        first = False
        # 2. draw
        take = False
        top = -1
        if ctr[C_PILE] > 0:
            top = discard[ctr[C_PILE] - 1]
            take = T.decide(srow, st[seat:seat + 1], T.wants_take(srow, h, top, run_hm | book_hm))
        if not take and ctr[C_STOCK] >= stock.shape[0]:
            log(trace, TR.E_PASS, seat, -1, 0)      # the turn's seat cannot draw
            _stock_out(rules, hands, counts, info, seat, turn, pay, sp_owner, sp_kind, sp_cards, ctr, mm, mk,
                       debug, trace)
            return
        if take:
            ctr[C_PILE] -= 1
            taken = _bit(top)
            h |= taken
            log(trace, TR.E_TAKE_PILE, seat, top, 0)
        else:
            taken = U0
            h |= _bit(stock[ctr[C_STOCK]])
            log(trace, TR.E_DRAW_STOCK, seat, stock[ctr[C_STOCK]], 0)
            ctr[C_STOCK] += 1
        # 3. spreads and hits
        spread_made = False
        if can_lay(h, run_hm, book_hm):
            ok_spread = T.decide(srow, st[seat:seat + 1], T.spread_now(srow, st[seat:seat + 1]))
            _, a, b, hits = plan_play(h, taken, run_hm, book_hm, ok_spread,
                                      T.decide(srow, st[seat:seat + 1], T.hit_now(srow)),
                                      must, needs_new, mm, mk)
            h, n_sp, n_new = lay_plan(h, seat, a, b, hits, mm, mk, sp_owner, sp_kind, sp_cards,
                                      ctr[C_SPREADS], debug)
            if trace.shape[0] > 0:
                for k in range(n_sp - n_new, n_sp):   # a new spread as laid: its hits follow
                    log(trace, TR.E_SPREAD, seat, np.int64(sp_cards[k] & ~hits), 0)
                log_hits(trace, seat, hits, sp_cards, n_sp)
            ctr[C_SPREADS] = n_sp
            spread_made = n_new > 0
            if n_new > 0 or hits != U0:
                run_hm, book_hm = table_hit_masks(sp_kind, sp_cards, ctr[C_SPREADS])
        hands[seat] = h
        if h == U0:
            _end(hands, counts, info, seat, O_TONK_OUT, turn)
            settle_collect(seat, 2 if (spread_made or not needs_new) else 1, pay)
            return
        # 4. discard
        d = T.discard(srow, h, taken, meld_cards(h), st[seat:seat + 1])
        if search is not None:          # the pile's card taken, a searching seat's discard
            d = TS.discard(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, seat, turn, st,
                           search, taken, d)
        if debug and _bit(d) & (taken | ~h):
            raise ValueError("illegal discard")
        h ^= _bit(d)
        discard[ctr[C_PILE]] = d
        ctr[C_PILE] += 1
        hands[seat] = h
        log(trace, TR.E_DISCARD, seat, d, hand_value(h))
        if h == U0:
            _end(hands, counts, info, seat, O_OUT_DISCARD, turn)
            settle_collect(seat, 1, pay)
            return
        seat = (seat + 1) % n


@njit(cache=True)
def play_hand(rules, strat, seed, h, deck, hands, discard, sp_owner, sp_kind, sp_cards, ctr,
              st, dst, pay, counts, info, row, debug, trace, search=None):
    """Deal hand number ``h`` (:func:`sim.rng.hand_slot`: index ``h``, dealer ``h % n``, deal
    generator (seed, STREAM_DEAL, h) for a plain hand), play it and fill ``row``."""
    n = strat.shape[0]
    h, d, rot = rng.hand_slot(h, n)
    dealer, tonk_min, no_upcard = h % n, rules[R_TONK_MIN], rules[R_NO_UPCARD] != 0
    dst[0] = rng.stream_key(seed, rng.STREAM_DEAL, d)
    redeals = 0
    while True:
        deal(dst, n, dealer, no_upcard, deck, hands, discard, ctr, rot)
        nt = deal_tonks(hands, tonk_min, counts)
        if nt >= 2 and rules[R_TIE_NEW_DEALER] == 0:
            redeals += 1
            continue
        break
    info[I_KNOCK_COUNT] = -1
    info[I_KNOCK_TURN] = -1
    info[I_TURNS] = 0
    if trace.shape[0] > 0:
        TR.log_pack(trace, deck)
        for i in range(HAND_SIZE * n):
            log(trace, TR.E_DEAL, (dealer + 1 + i) % n, deck[i], 0)
        if not no_upcard:
            log(trace, TR.E_UPCARD, -1, discard[0], 0)
    if nt == 1:
        w = 0
        for s in range(n):
            if counts[s] >= tonk_min:
                w = s
        settle_collect(w, 2, pay)
        info[I_ENDER] = w
        info[I_OUTCOME] = O_TONK_DEAL
    elif nt >= 2:
        pay[:] = 0
        info[I_ENDER] = -1
        info[I_OUTCOME] = O_TONK_TIE
    else:
        for s in range(n):
            st[s] = rng.stream_key(seed, rng.STREAM_STRATEGY + s, h)
        if search is not None:
            search[:] = 0
        play_from_state(rules, strat, hands, deck, discard, sp_owner, sp_kind, sp_cards, ctr,
                        (dealer + 1) % n, 0, st, True, debug, pay, counts, info, trace, search)
    log(trace, TR.E_END, info[I_ENDER], info[I_OUTCOME], 0)
    row[COL_DEALER] = dealer
    row[COL_ENDER] = info[I_ENDER]
    row[COL_OUTCOME] = info[I_OUTCOME]
    row[COL_TURNS] = info[I_TURNS]
    row[COL_STOCK_LEFT] = N_CARDS - ctr[C_STOCK]
    dw = col_deadwood(n)
    for s in range(n):
        row[COL_SCORE + s] = pay[s]
        row[dw + s] = counts[s]
    x = col_extra(n)
    row[x] = info[I_KNOCK_COUNT]
    row[x + 1] = info[I_KNOCK_TURN]
    row[x + 2] = ctr[C_SPREADS]
    row[x + 3] = nt
    row[x + 4] = redeals


@njit(cache=True, nogil=True)
def _play_chunk(rules, strat, seed, first_hand, out, debug, trace, search=None):
    n = strat.shape[0]
    deck, discard, hands, ctr, dst = deal_buffers(n)
    sp_owner = np.zeros(MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(MAX_SPREADS, dtype=np.uint64)
    st = np.zeros(n, dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(I_WIDTH, dtype=np.int64)
    for i in range(out.shape[0]):
        play_hand(rules, strat, seed, first_hand + i, deck, hands, discard, sp_owner, sp_kind,
                  sp_cards, ctr, st, dst, pay, counts, info, out[i], debug, trace, search)


def _check_inputs(rules_arr, strat_mat, out) -> None:
    n = strat_mat.shape[0]
    if not (2 <= n <= 6):
        raise ValueError(f"tonk is played by 2-6 players, not {n}")
    if int(rules_arr[R_PLAYERS]) != n:
        raise ValueError(f"rules say players={int(rules_arr[R_PLAYERS])} but {n} strategies were given")
    bad = [int(c) for c in strat_mat[:, 0] if int(c) != T.FAMILY_CODE]
    if bad:
        raise ValueError(f"tonk needs strategies of family 'tonk' (code {T.FAMILY_CODE}), got code {bad[0]}")
    if out.ndim != 2 or out.shape[1] != len(hand_columns(n, EXTRA_COLUMNS)) or out.dtype != np.int64:
        raise ValueError(f"out must be int64 (n_hands, {len(hand_columns(n, EXTRA_COLUMNS))})")


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=NO_TRACE):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (see the sim.variants contract).
    ``debug`` checks card conservation and spread legality at every turn (raises ValueError);
    ``trace`` records the events of the hands (:mod:`sim.trace`)."""
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    _check_inputs(rules_arr, strat_mat, out)
    search = (np.zeros(strat_mat.shape[0], dtype=np.uint64),) if strat_mat[:, T.P_SEARCH_WORLDS].any() else ()
    _play_chunk(rules_arr, strat_mat, np.int64(seed), np.int64(first_hand), out, bool(debug), trace, *search)


# ----------------------------------------------------------------------------------------
# Python helpers: concrete positions (tests, hand advisor)

def _mask(cards) -> np.uint64:
    m = 0
    for c in parse_cards(cards) if isinstance(cards, str) else cards:
        m |= 1 << int(c)
    return np.uint64(m)


def make_position(hands, stock=(), discard=(), spreads=()):
    """Arrays of a position from card text or codes.

    ``hands``: one entry per seat; ``stock``: top first; ``discard``: bottom first (top last);
    ``spreads``: ``(owner, cards)`` pairs, kind detected (one rank: book, else run).
    Returns a dict with hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr.
    """
    n = len(hands)
    stock_codes = parse_cards(stock) if isinstance(stock, str) else np.asarray(stock, dtype=np.int64)
    pile_codes = parse_cards(discard) if isinstance(discard, str) else np.asarray(discard, dtype=np.int64)
    pos = {
        "hands": np.array([_mask(h) for h in hands], dtype=np.uint64),
        "stock": np.ascontiguousarray(stock_codes, dtype=np.int64),
        "discard": np.zeros(N_CARDS, dtype=np.int64),
        "sp_owner": np.zeros(MAX_SPREADS, dtype=np.int64),
        "sp_kind": np.zeros(MAX_SPREADS, dtype=np.int64),
        "sp_cards": np.zeros(MAX_SPREADS, dtype=np.uint64),
        "ctr": np.zeros(C_WIDTH, dtype=np.int64),
    }
    pos["discard"][: len(pile_codes)] = pile_codes
    pos["ctr"][C_PILE] = len(pile_codes)
    for i, (owner, cards) in enumerate(spreads):
        m = _mask(cards)
        kind = spread_kind(m)
        if not is_legal_spread(kind, m):
            raise ValueError(f"spread {cards!r} is not a legal book or run")
        if not 0 <= owner < n:
            raise ValueError(f"spread owner {owner} is not a seat 0..{n - 1}")
        pos["sp_owner"][i] = owner
        pos["sp_kind"][i] = kind
        pos["sp_cards"][i] = m
    pos["ctr"][C_SPREADS] = len(spreads)
    return pos


def play_position(rules: TonkRules, strat_mat, pos, seat, turn=0, seed=0, index=0,
                  allow_drop_first=True, debug=False):
    """Play ``pos`` (from :func:`make_position`, copied) on from ``seat``'s turn.  Strategy
    generators: (seed, STREAM_STRATEGY + s, index).  Returns a dict: outcome (name), ender,
    pay, counts, turns, knock_count, knock_turn and the final position."""
    p = {k: v.copy() for k, v in pos.items()}
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = strat_mat.shape[0]
    if len(p["hands"]) != n:
        raise ValueError(f"{len(p['hands'])} hands but {n} strategies")
    st = np.array([rng.stream_key(seed, rng.STREAM_STRATEGY + s, index) for s in range(n)], dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(I_WIDTH, dtype=np.int64)
    play_from_state(rules.to_array(), strat_mat, p["hands"], p["stock"], p["discard"], p["sp_owner"],
                    p["sp_kind"], p["sp_cards"], p["ctr"], np.int64(seat), np.int64(turn), st,
                    bool(allow_drop_first), bool(debug), pay, counts, info, NO_TRACE)
    return {"outcome": OUTCOMES[info[I_OUTCOME]], "ender": int(info[I_ENDER]), "pay": pay,
            "counts": counts, "turns": int(info[I_TURNS]), "knock_count": int(info[I_KNOCK_COUNT]),
            "knock_turn": int(info[I_KNOCK_TURN]), "position": p}


VARIANT = knock_variant(
    "tonk", TonkRules, (2, 6), OUTCOMES, play_chunk, EXTRA_COLUMNS,
    "Tonk: 2-6 players, 5 cards, tonk on the deal, drop (knock) before drawing, spreads "
    "and hits on anyone's spreads, paid in 1x/2x stakes.",
    advisor="sim.variants.tonk_search", opp_models=("uniform", "played"), score_unit="stakes", hand_word="count", zero_sum=True,
    max_turns=MAX_TURNS, no_out_outcomes=("stock_out",),
    knob=Knob("max_count", "max_count_mid", "max_count_late", "mid_from", "late_from", same=-2,
              default_range=(0, 20), action="drop"),
)

from . import tonk_search as TS  # noqa: E402  (its kernels call play_from_state: imported last)
