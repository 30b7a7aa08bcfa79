"""Tonk's decision interface: its ``search`` player (:mod:`sim.search`) and its knock advisor's
declaration (``ADVISOR``, at the end: :mod:`sim.advisors.advisor`).

Decision points of a searching seat (strategy row with ``search_worlds`` > 0), each with its
candidates, the heuristic's own choice first; ``search_what`` says which are searched (the
others are the heuristic's; default both):

* the discard (& 1, :func:`search_discard`): after the draw, spreads and hits, which card
  goes, among the ``search_top`` first of the heuristic's order (:func:`discard_candidates`);
* the drop (& 2, :func:`search_drop`): at the start of a turn, drop (knock) or draw.

The position is :func:`sim.variants.tonk.play_from_state`'s arrays (``hands``, ``stock`` with
the stock at ``stock[ctr[C_STOCK]:]``, the ``discard`` pile, the table ``sp_*``, ``ctr``) and
``picked`` (uint64[n]: the cards each seat took from the pile, :func:`took`).  :func:`world`
copies it as the deciding seat sees it: its hand, the pile, the spreads on the table, the
cards an opponent took from the pile and still holds; the other unseen cards are shuffled into
the opponents' hands (their sizes kept) and the stock.  Each candidate is applied on a copy
(:func:`_copy`) and the hand is played out by ``play_from_state`` (plain: search off) with the
deciding seat's heuristic at every seat; the value is the deciding seat's stakes of the hand.
The heuristic's own choice is kept unless another candidate beats it by ``search_z`` standard
errors of the paired per-world difference (:func:`sim.search.worlds.paired_choice`).
Not modelled: what the opponents' discards and passes say of their hands (uniform worlds).

Rule: :mod:`sim.variants.tonk` imports this module last (its kernels call ``play_from_state``).
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..advisors import worlds as A
from ..core.bits import bit as _bit
from ..core.bits import popcount
from ..core.cards import to_mask
from ..core.errors import AdviceError
from ..core.trace import no_trace
from ..knock import table as TB
from ..knock.table import FULL, hand_value, meld_cards
from ..search.worlds import decision_key, paired_choice, rollout_rows, shuffle_unseen, stop_after, world_streams
from ..strategies import history_weights as HW
from ..strategies import tonk as T
from . import tonk as TK

W_DISCARD = 1      # search_what bits
W_DROP = 2
MAX_CAND = 6       # a hand holds at most 6 cards at the discard


@njit(cache=True, inline="always")
def searching(srow, what):
    """True if the strategy row decides the decision ``what`` (W_*) by search."""
    return srow[T.P_SEARCH_WORLDS] > 0 and (int(srow[T.P_SEARCH_WHAT]) & what) != 0


@njit(cache=True)
def took(picked, seat, card_bit):
    """``seat`` took the card ``card_bit`` from the pile: it is known to hold it now."""
    for s in range(picked.shape[0]):
        picked[s] &= ~card_bit
    picked[seat] |= card_bit


@njit(cache=True)
def rollout_strat(strat, p):
    """The rollouts' strategy matrix: seat ``p``'s row, search off, at every seat."""
    return rollout_rows(strat, p, T.P_SEARCH_WORLDS)


@njit(cache=True)
def seen_by(p, hands, discard, sp_cards, ctr, picked):
    """What seat ``p`` knows of the cards: ``(unseen, known)``, the mask of the cards it has not
    seen and uint64[n], the cards each other seat took from the pile and still holds."""
    seen = hands[p]
    for i in range(ctr[TK.C_PILE]):
        seen |= _bit(discard[i])
    for i in range(ctr[TK.C_SPREADS]):
        seen |= sp_cards[i]
    known = np.zeros(hands.shape[0], dtype=np.uint64)
    held = np.uint64(0)
    for s in range(hands.shape[0]):
        if s != p:
            known[s] = picked[s] & ~seen
            held |= known[s]
    return FULL & ~(seen | held), known


@njit(cache=True)
def world(p, hands, stock, discard, sp_cards, ctr, picked, key, w, buf, hands_w, stock_w):
    """World ``w`` of decision ``key`` as seat ``p`` sees the position: ``hands_w`` and the
    stock ``stock_w[ctr[C_STOCK]:]`` are filled; every opponent keeps its size and the cards it
    is known to hold, the rest of its hand and the stock are the unseen cards in a random order."""
    unseen, known = seen_by(p, hands, discard, sp_cards, ctr, picked)
    n_unseen = shuffle_unseen(unseen, key, w, buf)
    k = 0
    for s in range(hands.shape[0]):
        h = hands[s] if s == p else known[s]
        for _ in range(popcount(hands[s]) - popcount(h)):
            h |= _bit(buf[k])
            k += 1
        hands_w[s] = h
    for i in range(ctr[TK.C_STOCK], stock.shape[0]):
        stock_w[i] = buf[k]
        k += 1
    if k != n_unseen:
        raise ValueError("search world: the unseen cards do not fill the hands and the stock")


@njit(cache=True)
def _copy(hands_w, discard, sp_owner, sp_kind, sp_cards, ctr):
    """A rollout's own copy of a world's position (the stock is only read)."""
    return hands_w.copy(), discard.copy(), sp_owner.copy(), sp_kind.copy(), sp_cards.copy(), ctr.copy()


@njit(cache=True)
def _play_out(rules, rstrat, p, hands, stock_w, pile, sp_owner, sp_kind, sp_cards, ctr, seat, turn, allow_drop, st_w,
              pay, counts, info, trace):
    """Seat ``p``'s stakes when the copied position is played out from ``seat``'s turn."""
    TK.play_from_state(rules, rstrat, hands, stock_w, pile, sp_owner, sp_kind, sp_cards, ctr, seat, turn, st_w,
                       allow_drop, False, pay, counts, info, trace)
    return pay[p]


@njit(cache=True)
def _drop_value(rules, rstrat, p, drop, hands_w, stock_w, discard, sp_owner, sp_kind, sp_cards, ctr, turn, st_w, pay,
                counts, info, trace):
    """Seat ``p``'s stakes when it drops now (``drop``) or draws and the hand is played out."""
    if drop:
        for s in range(hands_w.shape[0]):
            counts[s] = hand_value(hands_w[s])
        TK.settle_knock(counts, p, pay, rules[TK.R_TIE_PAID] != 0)
        return pay[p]
    hands, pile, so, sk, sc, c = _copy(hands_w, discard, sp_owner, sp_kind, sp_cards, ctr)
    return _play_out(rules, rstrat, p, hands, stock_w, pile, so, sk, sc, c, p, turn, False, st_w, pay, counts, info,
                     trace)


@njit(cache=True)
def _discard_value(rules, rstrat, p, d, hands_w, stock_w, discard, sp_owner, sp_kind, sp_cards, ctr, turn, st_w, pay,
                   counts, info, trace):
    """Seat ``p``'s stakes when it discards ``d`` and the hand is played out."""
    hands, pile, so, sk, sc, c = _copy(hands_w, discard, sp_owner, sp_kind, sp_cards, ctr)
    hands[p] ^= _bit(d)
    pile[c[TK.C_PILE]] = d
    c[TK.C_PILE] += 1
    if hands[p] == 0:
        TK.settle_collect(p, 1, pay)
        return pay[p]
    return _play_out(rules, rstrat, p, hands, stock_w, pile, so, sk, sc, c, (p + 1) % hands.shape[0], turn, True,
                     st_w, pay, counts, info, trace)


@njit(cache=True)
def discard_candidates(srow, hand, taken, first, codes):
    """The candidate discards of ``hand`` (``taken``: the card from the pile, which may not go):
    the heuristic's ``first``, then its next choices with the earlier ones set aside, up to
    ``search_top``.  Returns how many."""
    top = int(srow[T.P_SEARCH_TOP])
    protect = meld_cards(hand)
    out = taken | _bit(first)
    codes[0] = first
    nc = 1
    while nc < top and hand & ~out:
        d = T.choose_discard(srow, hand, out, protect)
        codes[nc] = d
        nc += 1
        out |= _bit(d)
    return nc


@njit(cache=True)
def _search(rules, strat, p, is_drop, codes, nc, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, turn, st,
            picked):
    """The index of the chosen candidate among ``codes[:nc]`` (a drop flag or a discard each,
    the heuristic's first), by the worlds of seat ``p``'s search."""
    srow = strat[p]
    n = hands.shape[0]
    key = decision_key(st[p:p + 1])
    rstrat = rollout_strat(strat, p)
    trace = no_trace()
    buf = np.empty(TK.N_CARDS, dtype=np.int64)
    hands_w = np.empty(n, dtype=np.uint64)
    stock_w = stock.copy()
    st2 = np.empty((n, 1), dtype=np.uint64)
    st_w = np.empty(n, dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(TK.I_WIDTH, dtype=np.int64)
    worlds = int(srow[T.P_SEARCH_WORLDS])
    vals = np.empty((worlds, nc), dtype=np.float64)
    alive = np.ones(nc, dtype=np.bool_)
    nw = 0
    for w in range(worlds):
        world(p, hands, stock, discard, sp_cards, ctr, picked, key, w, buf, hands_w, stock_w)
        for a in range(nc):
            if not alive[a]:
                continue
            world_streams(key, w, st2)
            st_w[:] = st2[:, 0]
            if is_drop:
                vals[w, a] = _drop_value(rules, rstrat, p, codes[a] != 0, hands_w, stock_w, discard, sp_owner,
                                         sp_kind, sp_cards, ctr, turn, st_w, pay, counts, info, trace)
            else:
                vals[w, a] = _discard_value(rules, rstrat, p, codes[a], hands_w, stock_w, discard, sp_owner, sp_kind,
                                            sp_cards, ctr, turn, st_w, pay, counts, info, trace)
        nw = w + 1
        if stop_after(vals, w, worlds, nc, 0.0, alive):
            break
    return paired_choice(vals, nw, nc, srow[T.P_SEARCH_Z], alive)


@njit(cache=True)
def search_discard(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, p, turn, st, picked, taken,
                   heur):
    """Seat ``p``'s discard by search (its hand ``hands[p]`` after the draw and the spreads;
    ``heur``: the heuristic's discard; ``turn``: turns begun, this one included)."""
    codes = np.empty(MAX_CAND, dtype=np.int64)
    nc = discard_candidates(strat[p], hands[p], taken, heur, codes)
    if nc == 1:
        return heur
    return codes[_search(rules, strat, p, False, codes, nc, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr,
                         turn, st, picked)]


@njit(cache=True)
def search_drop(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, p, turn, st, picked, heur):
    """Seat ``p``'s drop by search at the start of its turn (``turn``: turns begun before it;
    ``heur``: the heuristic's answer)."""
    codes = np.empty(2, dtype=np.int64)
    codes[0] = 1 if heur else 0
    codes[1] = 1 - codes[0]
    b = _search(rules, strat, p, True, codes, 2, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, turn, st,
                picked)
    return codes[b] != 0


# ----------------------------------------------------------------------------------------
# the hooks of play_from_state (called only when it is given ``search``: the picked cards)

@njit(cache=True)
def drop(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, p, turn, st, picked, heur):
    """Seat ``p``'s drop at the start of turn ``turn`` (begun, counted): by search if it
    searches its drops, else its heuristic's answer ``heur``."""
    if not searching(strat[p], W_DROP):
        return heur
    return search_drop(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr, p, turn - 1, st, picked,
                       heur)


@njit(cache=True)
def discard(rules, strat, hands, stock, pile, sp_owner, sp_kind, sp_cards, ctr, p, turn, st, picked, taken, heur):
    """Seat ``p``'s discard, having taken ``taken`` (a card bit or 0) from the pile (every seat's
    pickups are followed): by search if it searches its discards, else ``heur``."""
    if taken:
        took(picked, p, taken)
    if not searching(strat[p], W_DISCARD):
        return heur
    return search_discard(rules, strat, hands, stock, pile, sp_owner, sp_kind, sp_cards, ctr, p, turn, st, picked,
                          taken, heur)


# ----------------------------------------------------------------------------------------
# the knock advisor's declaration (sim.advisors.advisor): "drop now" vs "draw and play on"
# at the start of my turn (the table read by sim.advisors.table).  A: the drop, paid by the
# Tonk knock rule with my seat as the knocker; B: I draw and the hand continues by
# tonk.play_from_state, no drop on this turn.  "Won": my stake change > 0.  The opponents
# hold the cards they took from the pile and kept (a history's), the rest of their hands
# uniform over the unseen cards; model "played" (only with a history) also weighs every world
# by the opponents' turns (sim.strategies.history_weights.weigh).

TonkWorld = namedtuple("TonkWorld", "rules strat hand opp_cards retained sp_owner0 sp_kind0 sp_cards0 n_spreads "
                                    "stock_size known turn H replay hands stock discard sp_owner sp_kind sp_cards "
                                    "ctr st pay counts info out_hands")


def _advice_deal(g, perm, pos, ws):
    hands, strat, retained, opp_cards, H = g.hands, g.strat, g.retained, g.opp_cards, g.H
    n = strat.shape[0]
    hands[0] = g.hand
    wt = 1.0
    for s in range(1, n):
        h = retained[s] | A.deal_mask(perm, pos, opp_cards[s - 1])
        pos += opp_cards[s - 1]
        hands[s] = h
        if g.replay and wt > 0.0:
            wt *= HW.weigh(strat[s], H, s, h, n, g.rules[TK.R_TONK_MIN], ws)
    return pos, wt


def _advice_end_now(g, i):
    if g.out_hands.shape[0] > 0:
        g.out_hands[i, :] = g.hands
    for s in range(g.hands.shape[0]):
        g.counts[s] = hand_value(g.hands[s])
    TK.settle_knock(g.counts, 0, g.pay, g.rules[TK.R_TIE_PAID] != 0)
    return g.pay[0], 1 if g.pay[0] > 0 else 0


def _advice_play_on(g, i, perm, pos, up, ws, debug):
    s0 = TK.N_CARDS - g.stock_size
    npile = A.pile_for_play_on(perm, pos, g.stock_size, g.stock, s0, g.known, g.discard, up)
    for k in range(g.n_spreads):
        g.sp_owner[k] = g.sp_owner0[k]
        g.sp_kind[k] = g.sp_kind0[k]
        g.sp_cards[k] = g.sp_cards0[k]
    g.ctr[TK.C_STOCK] = s0
    g.ctr[TK.C_PILE] = npile
    g.ctr[TK.C_SPREADS] = g.n_spreads
    TK.play_from_state(g.rules, g.strat, g.hands, g.stock, g.discard, g.sp_owner, g.sp_kind, g.sp_cards, g.ctr,
                       0, g.turn, g.st, False, debug, g.pay, g.counts, g.info, no_trace())
    return g.pay[0], 1 if g.pay[0] > 0 else 0


A.world_pieces(TonkWorld, deal=_advice_deal, end_now=_advice_end_now, play_on=_advice_play_on)


def advice_world(rules_arr, smat, h, t, stock_size, p):
    """The sampler's :class:`sim.advisors.worlds.World` for ``count`` worlds (the table ``t``:
    :class:`sim.advisors.table.Table`); its extras: every seat's hand in each world."""
    n = np.shape(smat)[0]
    sp_owner = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    for k, (owner, kind, mask) in enumerate(t.spreads):
        sp_owner[k], sp_kind[k], sp_cards[k] = owner, kind, np.uint64(mask)
    weigh = p.opp_model == "played"
    H = HW.tonk_arrays(t.history if weigh else None, n)

    def world(count, with_hands=False):
        hands = np.zeros((int(count) if with_hands else 0, n), dtype=np.uint64)
        g = TonkWorld(np.ascontiguousarray(rules_arr, dtype=np.float64), np.ascontiguousarray(smat, dtype=np.float64),
                      np.uint64(to_mask(h)), np.ascontiguousarray(t.unseen, dtype=np.int64),
                      np.array(t.retained, dtype=np.uint64), sp_owner, sp_kind, sp_cards, np.int64(len(t.spreads)),
                      np.int64(stock_size), np.ascontiguousarray(t.known, dtype=np.int64),
                      np.int64((p.turn - 1) * p.players), H, t.history is not None and weigh,
                      np.zeros(n, dtype=np.uint64), np.zeros(TK.N_CARDS, dtype=np.int64),
                      np.zeros(TK.N_CARDS, dtype=np.int64), np.zeros(TB.MAX_SPREADS, dtype=np.int64),
                      np.zeros(TB.MAX_SPREADS, dtype=np.int64), np.zeros(TB.MAX_SPREADS, dtype=np.uint64),
                      np.zeros(TK.C_WIDTH, dtype=np.int64), np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.int64),
                      np.zeros(n, dtype=np.int64), np.zeros(TK.I_WIDTH, dtype=np.int64), hands)
        return A.World(g, (hands,) if with_hands else ())
    return world


def advice_stock(r, players, turn, stock, t, notes) -> int:
    """The stock at the start of my turn: the history's, given, or one draw per turn begun
    before mine (clipped to the unseen cards ``available`` for it)."""
    available = t.available
    initial = 52 - TK.HAND_SIZE * players - (0 if r.no_upcard else 1)
    lo = max(0, initial - (turn - 1) * players)
    if t.history is not None:
        if available != t.history.stock:
            raise ValueError("history: the unseen cards do not fill the opponents' hands and the stock")
        st = t.history.stock
    elif stock is None:
        st = min(lo, available)
        notes.append(f"stock clipped to {st}: only {available} unseen cards are left for it" if st < lo else
                     f"stock {st} (default for turn {turn}: every turn so far drew from the stock)")
    else:
        st = int(stock)
        if turn == 1 and st != initial:
            raise AdviceError(f"stock {st} is impossible on turn 1 with {players} players: it holds {initial}")
        st = A.given_stock(st, turn, lo, initial, available, seats=f" with {players} players", holds="it holds",
                           short=f": only {available} unseen cards are left for it after the opponents' hands")
    if any(o != 0 for o, _, _ in t.spreads):
        notes.append("spread owners are informational: anyone may hit any spread")
    notes.append("knock = drop at the start of your turn, before drawing")
    return st


ADVISOR = A.AdvisorGame(
    start_of_turn=True,
    refuses=(("first_upcard", "first upcard is a gin (oklahoma) option: drop --first-upcard"),),
    hand_size=lambda n: TK.HAND_SIZE,
    hand_error="a tonk hand holds 1 to {hs} cards at the start of a turn, got {got}",
    no_upcard=lambda r: r.no_upcard, stock=advice_stock, world=advice_world)
