"""Tonk's decision interface and its ``search`` player (:mod:`sim.search`).

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

import numpy as np
from numba import njit

from ..core.bits import bit as _bit
from ..core.bits import popcount
from ..core.trace import no_trace
from ..knock.table import FULL, hand_value, meld_cards
from ..search.worlds import decision_key, paired_choice, rollout_rows, shuffle_unseen, stop_after, world_streams
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
