"""What the table saw, for Tonk: the knock (drop) advisor's worlds conditioned on the hand's
history (:mod:`sim.advisors.history` does it for Gin and Knock Rummy; this reuses its pieces).

Syntax (``rummylab knock --variant tonk --history``): items separated by ``;`` or new lines,
in playing order, case-insensitive: ``up CARD`` first (left out with ``no_upcard``), then one
item per turn, ``SEAT:take CARD`` (from the top of the discard pile) or ``SEAT:draw`` (from
the stock, unseen), then any ``spread CARDS`` (a new book or run) and ``hit CARDS`` (cards
that extend one spread on the table together: the first in the order laid that they
extend), then ``discard CARD``; e.g. ``up 7D; 0:draw discard KD; 1:take KD spread KS KH KD
discard 9H; 2:draw hit KC discard 4S``.  Seats: 0 = you, 1.. = the opponents in playing
order; you play first, and the history holds every turn since the deal up to the start of
your current turn (before you drop or draw): ``n * (turn - 1)`` turns.  Nobody dropped, went
out or had tonk on the deal in it.

What every world then holds: the spreads on the table and the pile (its top is the upcard)
follow from the history, card by card, and are in no hand; so do the stock size and each
seat's card count (5 dealt, +1 per draw or take, -1 per card spread, hit or discarded); the
cards an opponent took from the pile and did not play later are in its hand; its other cards
are dealt uniformly from the unseen cards, the rest is the stock.  The worlds are **not**
weighted by how likely the opponents' strategies were to make the observed choices (take or
draw, the spreads, the discards, never dropping): the hands are uniform over those
consistent with the observed cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import bit
from ..core.cards import card_text
from ..core.errors import AdviceError
from ..strategies.tonk import choose_discard, wants_drop, wants_take
from ..knock.table import (MAX_SPREADS, U0, hand_value, is_legal_spread, meld_cards, spread_kind,
                     table_hit_masks)
from .history import _UP, _card, take_top


TONK_SYNTAX = ("write 'up CARD' first (none with no_upcard), then one item per turn: "
               "'SEAT:take CARD' or 'SEAT:draw', then any 'spread CARDS' and 'hit CARDS', then "
               "'discard CARD', separated by ';' (e.g. \"up 7D; 0:draw discard KD; 1:take KD "
               "spread KS KH KD discard 9H; 2:draw hit KC discard 4S\")")
_TONK_TURN = re.compile(r"^(\d+)\s*:\s*(?:take\s+(\S+)|(draw))((?:\s+(?:spread|hit)(?:\s+(?!spread\b|hit\b|"
                        r"discard\b)\S+)+)*)\s+discard\s+(\S+)$", re.I)
_TONK_PLAY = re.compile(r"(spread|hit)((?:\s+(?!spread\b|hit\b)\S+)+)", re.I)


@dataclass(frozen=True)
class TonkTurn:
    seat: int
    take: int | None            # the card taken from the pile; None: drew from the stock
    plays: tuple                # ("spread" | "hit", card codes), in order
    discard: int


@dataclass
class TonkKnown:
    """A Tonk history checked against the position (the start of my turn, before I draw):
    ``pile`` bottom first (its top is the upcard), ``spreads`` (owner, kind, mask) in the
    order laid, ``stock``, per seat its card count now, ``retained`` (mask of the pile cards
    it took and still holds) and ``unknown`` (how many of its cards are unseen); ``rows[s]``
    per turn of seat ``s``: (take or -1, discard, mask of the cards spread or hit, pile top
    before the draw or -1, the table's hit mask then, the fewest cards another seat held
    then, its own turn number, the pickups it held then)."""
    n: int
    pile: list[int]
    spreads: list[tuple[int, int, int]]
    stock: int
    counts: list[int]
    retained: list[int]
    unknown: list[int]
    turns: list[TonkTurn]
    rows: list[list[tuple]] = field(default_factory=list)


def parse_tonk(text: str) -> tuple[int | None, list[TonkTurn]]:
    """The first upcard (None: none given) and the turns of a Tonk history (:data:`TONK_SYNTAX`)."""
    items = [re.sub(r"\s+", " ", x.strip()) for x in re.split(r"[;\n]", text) if x.strip()]
    up = None
    if items and _UP.match(items[0]):
        up = _card(_UP.match(items[0]).group(1), 1)
    turns = []
    for i, item in enumerate(items[1 if up is not None else 0:], 2 if up is not None else 1):
        m = _TONK_TURN.match(item)
        if not m:
            raise AdviceError(f"history item {i} ({item!r}): {TONK_SYNTAX}")
        plays = tuple((p.group(1).lower(), tuple(_card(x, i) for x in p.group(2).split()))
                      for p in _TONK_PLAY.finditer(m.group(4) or ""))
        take = None if m.group(3) else _card(m.group(2), i)
        turns.append(TonkTurn(int(m.group(1)), take, plays, _card(m.group(5), i)))
    return up, turns


def check_tonk(text: str, *, players: int, turn: int, hand, no_upcard: bool,
               hand_size: int = 5) -> TonkKnown:
    """Parse a Tonk history and check it against the position: my ``hand`` (codes) at the
    start of my own turn ``turn``, before drawing; every seat played ``turn - 1`` turns
    before (you first), nobody dropped or went out.  Raises AdviceError naming what is wrong."""
    up, turns = parse_tonk(text)
    n = players
    if up is None and not no_upcard:
        raise AdviceError(f"history: {TONK_SYNTAX}")
    if up is not None and no_upcard:
        raise AdviceError("history: with no_upcard no card is turned up after the deal: drop 'up CARD'")
    expected = n * (turn - 1)
    order = "you (seat 0) first, then " + ", ".join(str(s) for s in range(1, n))
    if len(turns) != expected:
        raise AdviceError(
            f"history: {len(turns)} turns given, but before your turn {turn} with {n} players "
            f"{expected} were played (every turn since the deal, in order: {order}; your current "
            "turn is not part of it)")
    k = TonkKnown(n=n, pile=[] if up is None else [up], spreads=[], turns=turns,
                  stock=52 - n * hand_size - (up is not None), counts=[hand_size] * n,
                  retained=[0] * n, unknown=[hand_size] * n, rows=[[] for _ in range(n)])
    where: dict[int, int] = {} if up is None else {up: -1}    # -1 pile, -2 table, s: seat s
    for i, t in enumerate(turns):
        s = i % n
        name = f"history item {i + 1 + (up is not None)} ({_tonk_text(t)})"
        if t.seat != s:
            raise AdviceError(f"{name}: it is seat {s}'s turn, not seat {t.seat}'s (seats play "
                              f"in order: {order})")
        top = k.pile[-1] if k.pile else -1
        hm = _hit_mask(k.spreads)
        before = (top, hm, min(k.counts[q] for q in range(n) if q != s), i // n + 1, k.retained[s])
        if t.take is not None:
            take_top(k.pile, t.take, name)
            where[t.take] = s
            k.retained[s] |= 1 << t.take
        else:
            if k.stock < 1:
                raise AdviceError(f"{name}: the stock is empty: it cannot draw (the hand is over)")
            k.stock -= 1
            k.unknown[s] += 1
        k.counts[s] += 1

        def play(c, to):
            held = where.get(c)
            if held is not None and held != s:
                place = {-1: "in the discard pile", -2: "on the table"}.get(held, f"in seat {held}'s hand "
                                                                                 "(it took it from the pile)")
                raise AdviceError(f"{name}: {card_text(c)} is already {place}: each card can be in "
                                  "one place only")
            if held == s:
                k.retained[s] &= ~(1 << c)
            else:
                k.unknown[s] -= 1
                if k.unknown[s] < 0:
                    raise AdviceError(f"{name}: seat {s} plays more cards it did not take from the "
                                      "pile than it can hold")
            where[c] = to
            k.counts[s] -= 1
        for kind, cards in t.plays:
            mask = sum(1 << c for c in cards)
            if len(set(cards)) != len(cards):
                raise AdviceError(f"{name}: a card is given twice")
            if kind == "spread":
                sk = spread_kind(cards)
                if not is_legal_spread(sk, np.uint64(mask)):
                    raise AdviceError(f"{name}: {' '.join(map(card_text, cards))} is not a legal book "
                                      "(3-4 of a rank) or run (3+ in suit, ace low)")
                if len(k.spreads) >= MAX_SPREADS:
                    raise AdviceError(f"{name}: too many spreads on the table")
                for c in cards:
                    play(c, -2)
                k.spreads.append((s, sk, mask))
            else:
                j = next((j for j, (_, sk, m) in enumerate(k.spreads)
                          if is_legal_spread(sk, np.uint64(m | mask))), None)
                if j is None:
                    raise AdviceError(f"{name}: {' '.join(map(card_text, cards))} cannot be hit on "
                                      "any spread on the table (hit cards that extend one spread "
                                      "together)")
                for c in cards:
                    play(c, -2)
                o, sk, m = k.spreads[j]
                k.spreads[j] = (o, sk, m | mask)
        if k.counts[s] < 1:
            raise AdviceError(f"{name}: seat {s} has no card left to discard: it went out (tonk), "
                              "which ends the hand")
        if t.discard == t.take:
            raise AdviceError(f"{name}: the card just taken from the pile cannot be discarded")
        play(t.discard, -1)
        k.pile.append(t.discard)
        played = sum(1 << c for _, cards in t.plays for c in cards)
        k.rows[s].append((-1 if t.take is None else t.take, t.discard, played) + before)
        if k.counts[s] < 1:
            raise AdviceError(f"{name}: seat {s} discarded its last card: it went out, which ends "
                              "the hand")
    mine = set(int(c) for c in hand)
    for c in sorted(mine):
        if where.get(c, 0) != 0:
            place = {-1: "in the discard pile", -2: "on the table"}.get(where[c], f"in seat {where[c]}'s hand")
            raise AdviceError(f"{card_text(c)} is in your hand but the history leaves it {place}: "
                              "each card can be in one place only")
    for c, q in where.items():
        if q == 0 and c not in mine:
            raise AdviceError(f"you took {card_text(c)} from the pile and never played it, but it "
                              "is not in your hand")
    if len(mine) != k.counts[0]:
        raise AdviceError(f"your hand holds {len(mine)} cards, but the history leaves you "
                          f"{k.counts[0]} (5 dealt, +1 per draw or take, -1 per card spread, hit or "
                          "discarded)")
    k.unknown[0] = 0
    return k


def _tonk_text(t: TonkTurn) -> str:
    out = [f"{t.seat}:" + (f"take {card_text(t.take)}" if t.take is not None else "draw")]
    out += [f"{kind} {' '.join(map(card_text, cards))}" for kind, cards in t.plays]
    return " ".join(out + [f"discard {card_text(t.discard)}"])


def tonk_notes(k: TonkKnown, weighted: bool = False) -> list[str]:
    """What the Tonk worlds take from the history, for the advice's notes."""
    out = []
    for s in range(1, k.n):
        held = [c for c in range(64) if k.retained[s] >> c & 1]
        out.append(f"history: seat {s} holds {k.counts[s]} cards"
                   + (f", {' '.join(map(card_text, held))} in every world (taken from the pile, "
                      "not played since)" if held else ""))
    out.append(f"history: {len(k.spreads)} spread{'s' * (len(k.spreads) != 1)} on the table and the {len(k.pile)} cards on the "
               f"discard pile are in no hand; stock {k.stock}; the hands are uniform over those "
               "consistent with the observed cards"
               + ("" if weighted else " (not weighted by the opponents' strategies)"))
    if weighted:
        out.append("opponent model 'played' with the history: each world is weighted by how likely "
                   "the opponents' strategies were to make their observed choices (take or draw, "
                   "the discards, never dropping, no tonk on the deal; not the spreads and hits)")
    return out


def _hit_mask(spreads) -> int:
    kind = np.array([k for _, k, _ in spreads] + [0], np.int64)
    cards = np.array([m for _, _, m in spreads] + [0], np.uint64)
    a, b = table_hit_masks(kind, cards, len(spreads))
    return int(a) | int(b)


def arrays(k: TonkKnown | None, n: int):
    """The kernel's view of the opponents' turns (:func:`weigh`): ``t_start`` int64[n+1] and
    per turn take, discard, played, top, hit mask, fewest cards of another seat, own turn,
    pickups held (columns as in ``TonkKnown.rows``)."""
    t_start = np.zeros(n + 1, np.int64)
    rows = []
    for s in range(1, n):
        rows += k.rows[s] if k is not None else []
        t_start[s + 1] = len(rows)
    col = lambda i, dt: np.array([r[i] for r in rows], dtype=dt)
    return (t_start, col(0, np.int64), col(1, np.int64), col(2, np.uint64), col(3, np.int64),
            col(4, np.uint64), col(5, np.int64), col(6, np.int64), col(7, np.uint64))


@njit(cache=True)
def weigh(srow, H, s, final, n, tonk_min, ws):
    """Sequential importance sampling of seat ``s``'s turns, backwards from its hand now
    (``final``), as :func:`sim.advisors.history._weigh` does for Gin: before its discard
    ``y`` of turn j it held ``A = hand after j + y``, before its spreads and hits ``B = A +
    the cards laid``, before its draw ``B`` minus the card it got: the known pickup, or a stock
    draw, any card of ``B`` but the pickups it held (``e`` of them, a number fixed by the
    history).  Its strategy must discard ``y`` from ``A`` (``choose_discard``), not have
    dropped at the start of the turn (``wants_drop``) and have taken or not taken the pile top
    (``wants_take``); the stock draw is picked uniformly among the ``g`` cards that make these
    choices and the weight multiplied by ``g / e``; a dealt hand counting ``tonk_min`` or more
    (a tonk on the deal) gives weight 0.  The spreads and hits themselves are not checked."""
    t_start, t_take, t_disc, t_played, t_top, t_hm, t_minopp, t_own, t_pin = H
    cand = np.empty(64, dtype=np.int64)
    hand = final
    w = 1.0
    for j in range(t_start[s + 1] - 1, t_start[s] - 1, -1):
        a = hand | bit(t_disc[j])
        taken = bit(t_take[j]) if t_take[j] >= 0 else U0
        if choose_discard(srow, a, taken, meld_cards(a)) != t_disc[j]:
            return 0.0
        b = a | t_played[j]
        if t_take[j] >= 0:
            hand = b ^ taken
            if wants_drop(srow, hand_value(hand), t_own[j], n, t_minopp[j]) or \
                    not wants_take(srow, hand, t_top[j], t_hm[j]):
                return 0.0
            continue
        elig = b & ~t_pin[j]
        e = 0
        g = 0
        for c in range(64):
            if not elig & bit(c):
                continue
            e += 1
            h = b ^ bit(c)
            if wants_drop(srow, hand_value(h), t_own[j], n, t_minopp[j]):
                continue
            if t_top[j] >= 0 and wants_take(srow, h, t_top[j], t_hm[j]):
                continue
            cand[g] = c
            g += 1
        if g == 0:
            return 0.0
        w *= g / e
        hand = b ^ bit(cand[rng.randint(ws, g)])
    if hand_value(hand) >= tonk_min:
        return 0.0
    return w
