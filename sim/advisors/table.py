"""A position at the start of my turn, before I draw, with an open table (Tonk): the spreads
laid, the opponents' card counts, the pile and the hand's history, read and checked for the
advisor (:func:`read_table`), by the rules the game declares (its ``ADVISOR``: hand size,
whether a pile starts without an upcard, which spreads are legal)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import worlds as A
from ..core.cards import card_text, cards_text, to_mask, value_table
from ..knock import table as TB
from . import history as HI


@dataclass(frozen=True)
class Table:
    """The table as the worlds take it: the checked ``history`` (None without one), the
    ``upcard`` and the buried discards (``known``), the spreads (``(owner, kind, mask)``), the
    unseen ``pool``, the upcard's code for the kernel (``upc``), per seat the cards of its
    hand known from the history (``retained``, masks) and per opponent its unseen cards
    (``unseen``); ``available``: the unseen cards left for the stock (and the upcard when it
    is drawn); ``count``: my hand's count."""
    history: object
    upcard: np.ndarray
    known: np.ndarray
    spreads: list
    pool: np.ndarray
    upc: int
    retained: list
    unseen: list
    available: int
    count: int


def read_table(v, g, p, h, r, notes) -> Table:
    """The table of a position at the start of my turn: from the history (:func:`given`) or
    as given, each card in one place only, checked against the turn (on turn 1 nobody has
    played) and the game's rules."""
    hs = g.hand_size(p.players)
    hk, (upcard, discards, spreads, stock, opp_cards) = given(v, g, p, h, r, notes)
    oc = opp_counts(opp_cards, p.players - 1, hs)
    up = A.cards(upcard, "upcard") if upcard is not None else np.zeros(0, dtype=np.int64)
    if up.size > 1:
        raise A.AdviceError(f"upcard: give one card (the top of the discard pile), got {up.size}")
    known = A.cards(discards, "discards") if discards is not None else np.zeros(0, dtype=np.int64)
    sp, groups = spreads_seen(h, up, known, spreads, p.players, hk)
    if p.turn == 1 and (sp or known.size or h.size != hs or any(x != hs for x in oc)):
        raise A.AdviceError(f"on turn 1 nobody has played yet (you are the first to play): every hand "
                            f"holds {hs} cards and there are no spreads or buried discards")
    no_upcard = g.no_upcard(r)
    if no_upcard and p.turn == 1 and up.size and hk is None:
        raise A.AdviceError("with no_upcard there is no discard pile on turn 1: drop --upcard")
    pool = A.pool_without(np.concatenate([codes for _, codes in groups]))
    if up.size:
        upc = int(up[0])
    elif no_upcard and p.turn == 1:
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
    return Table(hk, up, known, sp, pool, upc, ret, unseen, available, int(value_table()[h].sum()))


def opp_counts(opp_cards, n_opp: int, hs: int) -> list[int]:
    """Cards held per opponent: ``hs`` each by default, one count for all or one each."""
    if opp_cards is None:
        oc = [hs] * n_opp
    elif isinstance(opp_cards, (int, np.integer)):
        oc = [int(opp_cards)] * n_opp
    else:
        oc = [int(x) for x in opp_cards]
        if len(oc) == 1:
            oc = oc * n_opp
    if len(oc) != n_opp:
        raise A.AdviceError(f"{len(oc)} opponent card counts given for {n_opp} opponents: give one "
                            "for all or one per opponent")
    if any(not 1 <= x <= hs for x in oc):
        raise A.AdviceError(f"an opponent holds 1 to {hs} cards (with none the hand is over), "
                            f"got {', '.join(map(str, oc))}")
    return oc


def spreads_seen(h, up, known, spreads, players, hk):
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


def given(v, g, p, h, r, notes):
    """The checked history (None without one) and the table as the worlds take it: the upcard,
    the buried discards, the spreads, the stock and the opponents' card counts, from the
    history (:func:`history`) or as given."""
    if p.history is None:
        if p.opp_model == "played":
            raise A.AdviceError(f"{v.name}'s opponent model 'played' needs --history (it weighs the "
                                "worlds by the opponents' observed turns)")
        return None, (p.upcard, p.discards, p.spreads, p.stock, p.opp_cards)
    hk = history(g, p, h, r)
    notes += HI.tonk_notes(hk, p.opp_model == "played")
    spreads = [(o, [c for c in range(64) if m >> c & 1]) for o, _, m in hk.spreads]
    return hk, (hk.pile[-1] if hk.pile else None, hk.pile[:-1], spreads, hk.stock, hk.counts[1:])


def history(g, p, h, r):
    """The checked history (:func:`history.check_tonk`) and the inputs it replaces: the
    spreads and the pile come from it (``--spread``/``--discards`` are refused), the upcard,
    stock and opponents' card counts must agree with it if given."""
    if p.spreads:
        raise A.AdviceError("with --history the spreads on the table are known from it: drop --spread")
    if p.discards is not None and (isinstance(p.discards, (int, np.integer)) or len(p.discards)):
        raise A.AdviceError("with --history every discard is known from it: drop --discards")
    k = HI.check_tonk(p.history, players=p.players, turn=p.turn, hand=h, no_upcard=g.no_upcard(r),
                      hand_size=g.hand_size(p.players))
    top = k.pile[-1] if k.pile else None
    if p.upcard is not None:
        up = A.cards(p.upcard, "upcard")
        if up.size != 1 or int(up[0]) != top:
            raise HI.leaves(f"upcard {cards_text(up)}", f"{card_text(top) if top is not None else 'no card'} "
                            "on top of the discard pile", "upcard")
    if p.stock is not None and int(p.stock) != k.stock:
        raise HI.leaves(f"stock {p.stock}", k.stock, "stock")
    if p.opp_cards is not None:
        oc = [int(p.opp_cards)] if isinstance(p.opp_cards, (int, np.integer)) else [int(x) for x in p.opp_cards]
        if oc != k.counts[1:] and not (len(oc) == 1 and all(x == oc[0] for x in k.counts[1:])):
            raise HI.leaves(f"opponent card counts {', '.join(map(str, oc))}",
                            f"them {', '.join(map(str, k.counts[1:]))}", "opp-cards")
    return k


def no_deal_fits(world: int) -> A.AdviceError:
    """No deal in a world let the opponents' strategies play the history's turns."""
    return A.AdviceError(f"history: in world {world} none of {A.MAX_TRIES_HISTORY:,} deals lets "
                         "the opponents' strategies play the observed turns (take or draw, the "
                         "discards, no drop): try other opponent strategies or --opp-model uniform")
