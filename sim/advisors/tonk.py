"""Tonk's advisor: "drop now" vs "draw and play on" at the start of my turn.

Worlds as in :mod:`sim.advice`.  **A, drop now**: paid by the Tonk knock rule with my seat as
the knocker; **B, play on**: I draw and the hand continues by ``tonk.play_from_state``
without dropping on this turn.  "Won": my stake change > 0.

With a history (:mod:`sim.advisors.history`: every turn since the deal, with the spreads
and hits laid) the spreads, the pile, the stock and the hand sizes come from it, and each
opponent holds the cards it took from the pile and kept, the rest of its hand uniform over the
unseen cards; opponent model ``played`` (only with a history) also weighs every world by how
likely the opponents' strategies were to make their observed choices
(:func:`history_weights.weigh`; the advice reports Kish's effective sample size).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import advice as A
from . import advisor as AD
from ..core import rng
from ..core.cards import card_text, cards_text, to_mask, value_table
from ..knock import table as TB
from . import history as TH, history_weights as HW
from ..core.trace import no_trace
from ..variants import tonk as TK

GAME = AD.Game("tonk", TK.VARIANT, TK.TonkRules)


@njit(cache=True)
def tonk_worlds(rules, strat, hand, opp_cards, retained, sp_owner0, sp_kind0, sp_cards0,
                n_spreads, pool, stock_size, upcard, known, turn, seed, first_world, out,
                out_hands, H, replay, max_tries, weight, fail, debug):
    """Worlds ``first_world ..`` of a Tonk drop question, at the start of my turn (seat 0).

    ``H``/``replay``: with ``replay``, each world is weighted by the opponents' turns of the
    history (:func:`history_weights.weigh`, ``weight``), and one of weight 0 is redrawn, at most
    ``max_tries`` times (then ``fail[0]`` gets the world and the kernel stops).
    ``hand`` uint64: my cards; ``opp_cards`` int64[n-1]: the unseen cards held by seats
    1..n-1, dealt uniformly on top of their known cards ``retained[s]`` (uint64[n], a history's
    kept pickups); ``out_hands`` uint64[rows, n]: the hands of the worlds (rows 0: not kept);
    spreads ``sp_owner0/sp_kind0/sp_cards0`` (first ``n_spreads`` used, copied per world);
    ``upcard``: top discard code, ``UP_SAMPLE`` or ``A.UP_NONE``; ``turn``: turns begun before
    mine (``play_from_state``'s ``turn``).
    """
    n = strat.shape[0]
    n_pool = pool.shape[0]
    perm = np.empty(n_pool, dtype=np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    stock = np.zeros(TK.N_CARDS, dtype=np.int64)
    discard = np.zeros(TK.N_CARDS, dtype=np.int64)
    sp_owner = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    ctr = np.zeros(TK.C_WIDTH, dtype=np.int64)
    st = np.zeros(n, dtype=np.uint64)
    pay = np.zeros(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    info = np.zeros(TK.I_WIDTH, dtype=np.int64)
    s0 = TK.N_CARDS - stock_size
    for i in range(out.shape[0]):
        w, ws = AD.world_generator(seed, first_world, i)
        tries = 0
        while True:
            up, pos, tries = AD.draw_world(ws, pool, perm, upcard, tries)
            hands[0] = hand
            wt = 1.0
            for s in range(1, n):
                h = retained[s] | AD.deal_mask(perm, pos, opp_cards[s - 1])
                pos += opp_cards[s - 1]
                hands[s] = h
                if replay and wt > 0.0:
                    wt *= HW.weigh(strat[s], H, s, h, n, rules[TK.R_TONK_MIN], ws)
            if wt > 0.0 or tries >= max_tries:
                break
        if wt == 0.0:
            fail[0] = w
            return
        weight[i] = wt
        if out_hands.shape[0] > 0:
            out_hands[i, :] = hands
        # A: drop now
        for s in range(n):
            counts[s] = TB.hand_value(hands[s])
        TK.settle_knock(counts, 0, pay, rules[TK.R_TIE_PAID] != 0)
        out[i, A.K_PTS] = pay[0]
        out[i, A.K_WIN] = 1 if pay[0] > 0 else 0
        # B: draw and play on
        npile = AD.pile_for_play_on(perm, pos, n_pool, stock_size, stock, s0, known, discard, up)
        for k in range(n_spreads):
            sp_owner[k] = sp_owner0[k]
            sp_kind[k] = sp_kind0[k]
            sp_cards[k] = sp_cards0[k]
        ctr[TK.C_STOCK] = s0
        ctr[TK.C_PILE] = npile
        ctr[TK.C_SPREADS] = n_spreads
        for s in range(n):
            st[s] = rng.stream_key(seed, A.STREAM_WORLD_STRATEGY + s, w)
        TK.play_from_state(rules, strat, hands, stock, discard, sp_owner, sp_kind, sp_cards, ctr,
                           0, turn, st, False, debug, pay, counts, info, no_trace())
        out[i, A.P_PTS] = pay[0]
        out[i, A.P_WIN] = 1 if pay[0] > 0 else 0
        out[i, A.TRIES] = tries


def rollouts(rules_arr, strat_mat, hand_mask, opp_cards, spreads, pool, stock_size, upcard,
                  known, turn, seed, first_world, n_worlds, *, retained=None, with_hands=False,
                  history=None, debug=False):
    """Python entry: int64[n_worlds, N_OUT] (every world is kept: ``TRIES`` 1).  ``spreads``:
    ``(owner, kind, mask)`` triples (kind ``tonk.BOOK``/``tonk.RUN``); ``turn``: turns begun
    before mine; ``retained``: per seat the known cards of its hand (on top of ``opp_cards``
    unseen ones); ``with_hands``: also return the hands (uint64[n_worlds, n]); ``history``: a
    checked history (:class:`history.TonkKnown`) whose opponents' turns weigh the worlds:
    then the weights (float64[n_worlds]) are returned after the results."""
    sp_owner = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_kind = np.zeros(TB.MAX_SPREADS, dtype=np.int64)
    sp_cards = np.zeros(TB.MAX_SPREADS, dtype=np.uint64)
    for k, (owner, kind, mask) in enumerate(spreads):
        sp_owner[k], sp_kind[k], sp_cards[k] = owner, kind, np.uint64(mask)
    out, weight, fail = AD.world_buffers(n_worlds)
    n = np.shape(strat_mat)[0]
    ret = np.zeros(n, np.uint64) if retained is None else np.array(retained, dtype=np.uint64)
    hands = np.zeros((int(n_worlds) if with_hands else 0, n), dtype=np.uint64)
    tonk_worlds(np.ascontiguousarray(rules_arr, dtype=np.float64),
                np.ascontiguousarray(strat_mat, dtype=np.float64), np.uint64(hand_mask),
                np.ascontiguousarray(opp_cards, dtype=np.int64), ret, sp_owner, sp_kind, sp_cards,
                np.int64(len(spreads)), np.ascontiguousarray(pool, dtype=np.int64),
                np.int64(stock_size), np.int64(upcard), np.ascontiguousarray(known, dtype=np.int64),
                np.int64(turn), np.int64(seed), np.int64(first_world), out, hands,
                HW.tonk_arrays(history, n), history is not None, np.int64(A.MAX_TRIES_HISTORY), weight,
                fail, bool(debug))
    if fail[0] >= 0:
        raise A.AdviceError(f"history: in world {fail[0]} none of {A.MAX_TRIES_HISTORY:,} deals lets "
                            "the opponents' strategies play the observed turns (take or draw, the "
                            "discards, no drop): try other opponent strategies or --opp-model uniform")
    return AD.with_extras(out, (weight, history is not None), (hands, with_hands))


def _check(p: AD.Position) -> A.Prepared:
    """Check a Tonk drop position (see ``analysis.studies.knock_advice``) and set up its worlds."""
    r = AD.open_position(GAME, p.players, p.rules, ((
        p.first_upcard is not None, "first upcard is a gin (oklahoma) option: drop --first-upcard"),))
    notes: list[str] = []
    h = AD.read_hand(GAME, p.hand)
    if not 1 <= h.size <= TK.HAND_SIZE:
        raise A.AdviceError(f"a tonk hand holds 1 to {TK.HAND_SIZE} cards at the start of a turn, got {h.size}")
    n_opp = p.players - 1
    hk, (upcard, discards, spreads, stock, opp_cards) = _table_given(p, h, r, notes)
    oc = _opp_counts(opp_cards, n_opp)
    up = A.cards(upcard, "upcard") if upcard is not None else np.zeros(0, dtype=np.int64)
    if up.size > 1:
        raise A.AdviceError(f"upcard: give one card (the top of the discard pile), got {up.size}")
    known = A.cards(discards, "discards") if discards is not None else np.zeros(0, dtype=np.int64)
    sp, groups = _table(h, up, known, spreads, p.players, hk)
    if p.turn == 1 and (sp or known.size or h.size != TK.HAND_SIZE or any(x != TK.HAND_SIZE for x in oc)):
        raise A.AdviceError("on turn 1 nobody has played yet (you are the first to play): every hand "
                          "holds 5 cards and there are no spreads or buried discards")
    if r.no_upcard and p.turn == 1 and up.size and hk is None:
        raise A.AdviceError("with no_upcard there is no discard pile on turn 1: drop --upcard")
    pool = A.pool_without(np.concatenate([codes for _, codes in groups]))
    if up.size:
        upc = int(up[0])
    elif r.no_upcard and p.turn == 1:
        upc = A.UP_NONE
    else:
        upc = A.UP_SAMPLE
        notes.append("upcard not given: the top of the discard pile is drawn from the unseen cards")
    ret = [0] * p.players if hk is None else hk.retained
    unseen = [x - bin(ret[s + 1]).count("1") for s, x in enumerate(oc)]
    available = pool.size - sum(unseen) - (1 if upc == A.UP_SAMPLE else 0)
    if available < 0:
        raise A.AdviceError(f"too many cards: the opponents' {sum(unseen)} unseen cards do not fit "
                          f"in the {pool.size} unseen cards")
    st = _stock(hk, stock, available, r, p.turn, p.players, notes)
    if any(o != 0 for o, _, _ in sp):
        notes.append("spread owners are informational: anyone may hit any spread")
    notes.append("knock = drop at the start of your turn, before drawing")
    me, opps, smat = AD.seat_strategies(GAME, p.strategy, p.opponent, p.players)
    rarr = r.to_array()
    hmask = to_mask(h)
    count = int(value_table()[h].sum())
    t_before = (p.turn - 1) * p.players

    def call(first, n, with_hands=False):
        return rollouts(rarr, smat, hmask, unseen, sp, pool, st, upc, known, t_before, p.seed,
                        first, n, retained=ret, with_hands=with_hands, debug=p.debug,
                        history=hk if p.opp_model == "played" else None)

    return AD.prepared(call, h=h, score=count, limit=None, discard=None, turn=p.turn, stock=st,
                       players=p.players, upc=upc, me=me, opps=opps, r=r, notes=notes)


prepare = AD.entry(_check)


def _opp_counts(opp_cards, n_opp: int) -> list[int]:
    """Cards held per opponent: 5 each by default, one count for all or one each."""
    if opp_cards is None:
        oc = [TK.HAND_SIZE] * n_opp
    elif isinstance(opp_cards, (int, np.integer)):
        oc = [int(opp_cards)] * n_opp
    else:
        oc = [int(x) for x in opp_cards]
        if len(oc) == 1:
            oc = oc * n_opp
    if len(oc) != n_opp:
        raise A.AdviceError(f"{len(oc)} opponent card counts given for {n_opp} opponents: give one "
                            "for all or one per opponent")
    if any(not 1 <= x <= TK.HAND_SIZE for x in oc):
        raise A.AdviceError(f"an opponent holds 1 to {TK.HAND_SIZE} cards (with none the hand is over), "
                            f"got {', '.join(map(str, oc))}")
    return oc


def _table(h, up, known, spreads, players, hk):
    """The spreads on the table, as ``(owner, kind, mask)``, and every group of seen cards
    (each card in one place only, checked): my hand, the pile, the history's pickups held by
    the opponents, the spreads."""
    sp = []
    groups = [("in your hand", h), ("the upcard", up), ("in the discards", known)]
    if hk is not None:
        groups.append(("held by an opponent (the history)", np.array(
            [c for s in range(1, players) for c in range(64) if hk.retained[s] >> c & 1], np.int64)))
    for owner, text in A.spread_entries(spreads, players):
        codes = A.cards(text, f"spread {text!r}")
        m = to_mask(codes)
        kind = TB.BOOK if len({int(c) & 15 for c in codes}) == 1 else TB.RUN
        if not TB.is_legal_spread(kind, np.uint64(m)):
            raise A.AdviceError(f"spread {cards_text(codes)} is not a legal book (3-4 of a rank) or "
                                "run (3+ in suit, ace low)")
        sp.append((owner, kind, m))
        groups.append((f"in the spread {cards_text(codes)}", codes))
    A.no_overlap(groups)
    return sp, groups


def _stock(hk, stock, available, r, turn, players, notes) -> int:
    """The stock at the start of my turn: the history's, given, or one draw per turn begun
    before mine (clipped to the ``available`` unseen cards)."""
    initial = 52 - TK.HAND_SIZE * players - (0 if r.no_upcard else 1)
    lo = max(0, initial - (turn - 1) * players)
    if hk is not None:
        if available != hk.stock:
            raise ValueError("history: the unseen cards do not fill the opponents' hands and the stock")
        return hk.stock
    if stock is None:
        st = min(lo, available)
        if st < lo:
            notes.append(f"stock clipped to {st}: only {available} unseen cards are left for it")
        else:
            notes.append(f"stock {st} (default for turn {turn}: every turn so far drew from the stock)")
        return st
    st = int(stock)
    if turn == 1 and st != initial:
        raise A.AdviceError(f"stock {st} is impossible on turn 1 with {players} players: it holds {initial}")
    return AD.given_stock(st, turn, lo, initial, available, seats=f" with {players} players",
                          holds="it holds", short=f": only {available} unseen cards are left for it "
                                                   "after the opponents' hands")


def _table_given(p: AD.Position, h, r, notes):
    """The checked history (None without one) and the table as the worlds take it: the upcard,
    the buried discards, the spreads, the stock and the opponents' card counts, from the
    history (:func:`_history`) or as given."""
    if p.history is None:
        if p.opp_model == "played":
            raise A.AdviceError("tonk's opponent model 'played' needs --history (it weighs the "
                                "worlds by the opponents' observed turns)")
        return None, (p.upcard, p.discards, p.spreads, p.stock, p.opp_cards)
    hk = _history(p, h, r)
    notes += TH.tonk_notes(hk, p.opp_model == "played")
    spreads = [(o, [c for c in range(64) if m >> c & 1]) for o, _, m in hk.spreads]
    return hk, (hk.pile[-1] if hk.pile else None, hk.pile[:-1], spreads, hk.stock, hk.counts[1:])


def _history(p: AD.Position, h, r):
    """The checked Tonk history (:mod:`sim.advisors.history`) and the inputs it replaces:
    the spreads and the pile come from it (``--spread``/``--discards`` are refused), the
    upcard, stock and opponents' card counts must agree with it if given."""
    upcard, discards, stock, opp_cards = p.upcard, p.discards, p.stock, p.opp_cards
    if p.spreads:
        raise A.AdviceError("with --history the spreads on the table are known from it: drop --spread")
    if discards is not None and (isinstance(discards, (int, np.integer)) or len(discards)):
        raise A.AdviceError("with --history every discard is known from it: drop --discards")
    k = TH.check_tonk(p.history, players=p.players, turn=p.turn, hand=h, no_upcard=r.no_upcard,
                      hand_size=TK.HAND_SIZE)
    top = k.pile[-1] if k.pile else None
    if upcard is not None:
        up = A.cards(upcard, "upcard")
        if up.size != 1 or int(up[0]) != top:
            raise A.AdviceError(f"upcard {cards_text(up)}: the history leaves "
                                f"{card_text(top) if top is not None else 'no card'} on top of the "
                                "discard pile (drop --upcard)")
    if stock is not None and int(stock) != k.stock:
        raise A.AdviceError(f"stock {stock}: the history leaves {k.stock} (drop --stock)")
    if opp_cards is not None:
        oc = [int(opp_cards)] if isinstance(opp_cards, (int, np.integer)) else [int(x) for x in opp_cards]
        if oc != k.counts[1:] and not (len(oc) == 1 and all(x == oc[0] for x in k.counts[1:])):
            raise A.AdviceError(f"opponent card counts {', '.join(map(str, oc))}: the history leaves "
                                f"them {', '.join(map(str, k.counts[1:]))} (drop --opp-cards)")
    return k
