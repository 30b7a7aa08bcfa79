"""What the table saw: the knock advisor's worlds conditioned on the history of the hand
(Gin and Knock Rummy: :func:`check`; Tonk: :func:`check_tonk`).  The kernels that weigh
the worlds by it, and its view of a checked history, are in
:mod:`sim.strategies.history_weights` (the games' world pieces call them).

Syntax (``rummylab knock --history``, ``advise(history=...)``): items separated by ``;``
or new lines, in playing order, case-insensitive::

    up CARD                        the first upcard, turned after the deal (the first item)
    SEAT:take CARD discard CARD    SEAT took CARD from the top of the discard pile, discarded
    SEAT:draw discard CARD         SEAT drew from the stock (unseen), discarded

e.g. ``up 7D; 0:draw discard KD; 1:take KD discard 9H; 0:take 9H discard QS; 1:draw
discard JC``.  Seats: 0 = you, 1.. = the opponents in playing order.  The history holds
every turn since the deal up to your current turn, which it leaves out: you play first, then
seats 1, 2, ...; before your turn ``t`` every seat has had ``t - 1`` turns (Gin with the
first-upcard offer: when you passed the first upcard and the dealer took it, the history
starts with ``1:take`` that card and the opponent has had ``t``).  Nobody went gin, rummy
or knocked in it.  Your current turn is read from ``--hand`` and your discard (``--upcard``,
or the one the advisor picks from one card more): if the top of the pile is in your hand
you took it, else you drew from the stock.  So the pile is known card by card, the stock
size follows, and no buried discard is unseen.

What every world then holds (both opponent models): the cards an opponent took from the pile
and did not discard later are in its hand; the cards on the pile are in no hand; the unseen
cards are dealt uniformly to the rest of the opponents' hands and the stock (top first).
Model ``played`` also **weighs** each world by how likely the opponents' strategies were to
make the observed choices in it (take the pile top or draw, pass the Gin first upcard, the
discards, never going gin, rummy or knocking): exactly, as the strategies are deterministic
given their tie-break generator.  Replaying the turns forward and keeping only the worlds
where everything matches (plain rejection) keeps 1 world in 10^4-10^6 by own turn 5-10 of a
Gin hand, because the order in which the opponent got its cards matters as much as which
cards it holds; so the worlds are drawn by sequential importance sampling instead
(:func:`sim.strategies.history_weights._weigh`): each opponent's hand now is dealt
uniformly, then its turns are undone from the last, choosing each stock draw among the cards
with which its strategy makes that turn's choices, and the world's weight is the product of
the fractions so chosen.  The weighted worlds estimate the deal conditioned on the history
exactly (self-normalized importance sampling; the advice reports Kish's effective sample
size ``(sum w)^2 / sum w^2``).  A world of weight 0 (a hand now with which the history could
not have happened) is redrawn, at most ``MAX_TRIES_HISTORY`` times, then the position is
refused.

**Tonk** (:func:`check_tonk`, the drop advisor's worlds conditioned on the hand's history).

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
are dealt uniformly from the unseen cards, the rest is the stock.  Model ``uniform``: the hands
are uniform over those consistent with the observed cards; ``played`` also weighs each world by
how likely the opponents' strategies were to make the observed choices (take or draw, the
discards, never dropping; not the spreads and hits: :func:`sim.strategies.history_weights.weigh`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..core.cards import CardError, card_text, parse_cards
from ..core.errors import AdviceError
from ..knock.table import MAX_SPREADS, is_legal_spread, spread_kind, table_hit_masks

SYNTAX = ("write 'up CARD' first, then one item per turn: 'SEAT:take CARD discard CARD' or "
          "'SEAT:draw discard CARD', separated by ';' (e.g. \"up 7D; 0:draw discard KD; "
          "1:take KD discard 9H\")")
_TURN = re.compile(r"^(?P<seat>\d+)\s*:\s*(?:take\s+(?P<take>\S+)|(?P<draw>draw))\s+discard\s+"
                   r"(?P<discard>\S+)$", re.I)
_UP = re.compile(r"^up\s+(\S+)$", re.I)
TONK_SYNTAX = ("write 'up CARD' first (none with no_upcard), then one item per turn: "
               "'SEAT:take CARD' or 'SEAT:draw', then any 'spread CARDS' and 'hit CARDS', then "
               "'discard CARD', separated by ';' (e.g. \"up 7D; 0:draw discard KD; 1:take KD "
               "spread KS KH KD discard 9H; 2:draw hit KC discard 4S\")")
_TONK_TURN = re.compile(r"^(?P<seat>\d+)\s*:\s*(?:take\s+(?P<take>\S+)|(?P<draw>draw))(?P<plays>(?:\s+"
                        r"(?:spread|hit)(?:\s+(?!spread\b|hit\b|discard\b)\S+)+)*)\s+discard\s+"
                        r"(?P<discard>\S+)$", re.I)
_TONK_PLAY = re.compile(r"(spread|hit)((?:\s+(?!spread\b|hit\b)\S+)+)", re.I)


def take_top(pile: list, card: int, name: str) -> None:
    """Take ``card`` off the top of ``pile`` as the history says, or refuse the history."""
    top = pile[-1] if pile else -1
    if card != top:
        raise AdviceError(f"{name}: the top of the discard pile is "
                          f"{card_text(top) if top >= 0 else 'nothing'}, not {card_text(card)}")
    pile.pop()


@dataclass(frozen=True)
class Turn:
    seat: int
    take: int | None            # the card taken from the pile; None: drew from the stock
    discard: int
    plays: tuple = ()           # Tonk: ("spread" | "hit", card codes), in order


def parse(text: str, tonk: bool = False) -> tuple[int | None, list[Turn]]:
    """The first upcard and the turns of a history text (:data:`SYNTAX`; ``tonk``:
    :data:`TONK_SYNTAX`, where the first upcard may be left out: None)."""
    syntax = TONK_SYNTAX if tonk else SYNTAX
    raw = [x.strip() for x in re.split(r"[;\n]", text) if x.strip()]
    items = [re.sub(r"\s+", " ", x) for x in raw]
    shown = items if tonk else raw          # how an item is quoted in an error
    if not items and not tonk:
        raise AdviceError(f"history is empty: {SYNTAX}")
    m = _UP.match(items[0]) if items else None
    if not m and not tonk:
        raise AdviceError(f"history item 1 ({raw[0]!r}): {SYNTAX}")
    up = None if m is None else _card(m.group(1), 1)
    turns = []
    for i in range(int(up is not None), len(items)):
        m = (_TONK_TURN if tonk else _TURN).match(items[i])
        if not m:
            raise AdviceError(f"history item {i + 1} ({shown[i]!r}): {syntax}")
        plays = tuple((p.group(1).lower(), tuple(_card(x, i + 1) for x in p.group(2).split()))
                      for p in _TONK_PLAY.finditer(m.group("plays") or "")) if tonk else ()
        take = None if m.group("draw") else _card(m.group("take"), i + 1)
        turns.append(Turn(int(m.group("seat")), take, _card(m.group("discard"), i + 1), plays))
    return up, turns


def _turn_order(turns: list, n: int, turn: int, expected: int) -> str:
    """The playing order's text; refuses a history that does not hold the ``expected`` turns."""
    order = "you (seat 0) first, then " + ", ".join(str(s) for s in range(1, n))
    if len(turns) != expected:
        raise AdviceError(
            f"history: {len(turns)} turns given, but before your turn {turn} with {n} players "
            f"{expected} were played (every turn since the deal, in order: {order}; your current "
            "turn is not part of it)")
    return order


def _in_turn(name: str, t: Turn, seat: int, order: str) -> None:
    """Refuses a turn played out of seat order."""
    if t.seat != seat:
        raise AdviceError(f"{name}: it is seat {seat}'s turn, not seat {t.seat}'s (seats play "
                          f"in order: {order})")


def _card(token: str, i: int) -> int:
    try:
        return int(parse_cards(token)[0])
    except CardError as e:
        raise AdviceError(f"history item {i}: {e}") from None


@dataclass
class Known:
    """A history checked against the position.  Seats 0..n-1; ``own``: turns each seat has
    played before my current turn; ``picked``/``retained``: masks of the cards each seat took
    from the pile / still holds of them; ``pile``: the discard pile after my current draw,
    bottom first; ``stock``: after my draw; ``took``: the card I took this turn (or None);
    per opponent seat ``s``: ``turns[s]`` its turns as (take or -1, discard, pile top before
    it drew, stock after its draw, its own turn number, the other seats' pickups then),
    ``unknown_origin[s]`` its discards not taken from the pile, as (card, index of the turn
    in ``turns[s]``); ``up``: the first upcard; ``passed_up``: the first upcard the opponent
    passed (Gin), or -1."""
    n: int
    up: int
    own: list[int]
    picked: list[int]
    retained: list[int]
    pile: list[int]
    stock: int
    took: int | None
    turns: list[list[tuple]] = field(default_factory=list)
    unknown_origin: list[list[tuple[int, int]]] = field(default_factory=list)
    passed_up: int = -1


def check(text: str, *, players: int, turn: int, hand_size: int, hand, discard: int | None,
          stock_floor: int, dealer_offer: bool, stock: int | None = None) -> Known:
    """Parse ``text`` and check it against the position: my ``hand`` (codes; ``discard``: my
    discard this turn, None when the advisor picks it from one card more); the hand is over
    once a turn leaves fewer than ``stock_floor`` stock cards; ``dealer_offer`` (Gin's
    first-upcard offer): the dealer may take the first upcard after I passed it; ``stock``:
    the stock after my draw if given (it must be the history's).  Raises AdviceError naming
    what is wrong."""
    up, turns = parse(text)
    n = players
    k = Known(n=n, up=up, own=[0] * n, picked=[0] * n, retained=[0] * n, pile=[up],
              stock=52 - n * hand_size - 1, took=None, turns=[[] for _ in range(n)],
              unknown_origin=[[] for _ in range(n)])
    first_dealer = bool(turns) and dealer_offer and turns[0].seat == n - 1 and turns[0].take == up
    order = _turn_order(turns, n, turn, n * (turn - 1) + first_dealer)
    where: dict[int, int] = {up: -1}         # card -> -1 on the pile, s: held by seat s
    for i, t in enumerate(turns):
        seat = (i - first_dealer) % n if i >= first_dealer else n - 1
        name = f"history item {i + 2} ({_text(t)})"
        _in_turn(name, t, seat, order)
        s = t.seat
        top = k.pile[-1] if k.pile else -1
        others = 0
        for q in range(n):
            if q != s:
                others |= k.picked[q]
        if t.take is not None:
            take_top(k.pile, t.take, name)
            where[t.take] = s
            k.picked[s] |= 1 << t.take
        else:
            k.stock -= 1
        if k.own[0] == 0 and s == 0 and t.take is None and dealer_offer and not first_dealer:
            k.passed_up = up                  # both passed the first upcard, then I drew
        k.own[s] += 1
        y = t.discard
        if y == t.take:
            raise AdviceError(f"{name}: the card just taken from the pile cannot be discarded")
        held = where.get(y)
        if held == -1:
            raise AdviceError(f"{name}: {card_text(y)} is already in the discard pile")
        if held is not None and held != s:
            raise AdviceError(f"{name}: {card_text(y)} is in seat {held}'s hand (it took it from "
                              "the pile): each card can be in one place only")
        if held is None and s != 0:
            k.unknown_origin[s].append((y, len(k.turns[s])))
        if s != 0:
            k.turns[s].append((-1 if t.take is None else t.take, y, top, k.stock, k.own[s], others))
        where[y] = -1
        k.pile.append(y)
        if k.stock < stock_floor:
            raise AdviceError(f"{name}: it leaves {k.stock} cards in the stock, which ends the "
                              "hand; the history cannot go on")
    _my_turn(k, where, hand, discard, dealer_offer, turn, up)
    if stock is not None and int(stock) != k.stock:
        raise leaves(f"stock {stock}", f"{k.stock} after your draw", "stock")
    for s in range(n):
        k.retained[s] = sum(1 << c for c, q in where.items() if q == s)
    return k


def _my_turn(k: Known, where, hand, discard, dealer_offer, turn, up) -> None:
    """My current draw (taken from the pile if its top is in my hand) and my hand's cards."""
    mine = set(int(c) for c in hand)
    top = k.pile[-1] if k.pile else -1
    if top in mine:
        k.took = top
        k.pile.pop()
        where[top] = 0
        k.picked[0] |= 1 << top
        if discard == top:
            raise AdviceError(f"you took {card_text(top)} from the pile this turn: you cannot "
                              "discard it")
    else:
        k.stock -= 1
        if turn == 1 and dealer_offer and k.own[1] == 0:
            k.passed_up = up
    if k.stock < 1:
        raise AdviceError("the history leaves no stock card for your draw this turn")
    if discard is not None:
        mine.add(discard)
    _my_cards(where, mine, "discarded", tonk=False)
    if discard is not None:
        where[discard] = -1


def _my_cards(where: dict, mine: set, played: str, tonk: bool) -> None:
    """My hand against where the history left each card (``where``: -1 the pile, -2 the
    table, s: held by seat s): mine are nowhere else, and my pickups not ``played`` since
    are mine.  Gin and Knock Rummy name an opponent's pickup as not discarded."""
    for c in sorted(mine):
        q = where.get(c, 0)
        if q == -1 or (tonk and q != 0):
            place = {-1: "in the discard pile", -2: "on the table"}.get(q, f"in seat {q}'s hand")
            raise AdviceError(f"{card_text(c)} is in your hand but the history leaves it {place}: "
                              "each card can be in one place only")
        if q != 0:
            raise AdviceError(f"{card_text(c)} is in your hand but seat {q} took it from the pile "
                              "and has not discarded it")
    for c, q in where.items():
        if q == 0 and c not in mine:
            raise AdviceError(f"you took {card_text(c)} from the pile and never {played} it, but it "
                              "is not in your hand")


def _text(t: Turn) -> str:
    out = [f"{t.seat}:" + (f"take {card_text(t.take)}" if t.take is not None else "draw")]
    out += [f"{kind} {' '.join(map(card_text, cards))}" for kind, cards in t.plays]
    return " ".join(out + [f"discard {card_text(t.discard)}"])


def leaves(given: str, left, option: str) -> AdviceError:
    """An input the history fixes, given otherwise: ``given`` (what was said), what the
    history leaves, and the option to drop."""
    return AdviceError(f"{given}: the history leaves {left} (drop --{option})")


def refuse_conflicts(h_size: int, hand_size: int, upcard_given: bool, discards) -> None:
    """Inputs the history replaces or needs: ``--discards`` (the history lists every
    discard) and the discard of this turn (``--upcard``, unless the hand has one card more)."""
    if discards is not None and (isinstance(discards, (int, np.integer)) or len(discards)):
        raise AdviceError("with --history every discard is known from it: drop --discards")
    if h_size == hand_size and not upcard_given:
        raise AdviceError("with --history give --upcard, the card you discard this turn (or one "
                          "card more in --hand: the advisor picks the discard)")
    if h_size == hand_size + 1 and upcard_given:
        raise AdviceError("with --history and one card more in --hand the advisor picks your "
                          "discard, and the history gives the pile under it: drop --upcard")


def notes(k: Known, replay: bool) -> list[str]:
    """What the worlds take from the history, for the advice's notes."""
    out = []
    for s in range(1, k.n):
        held = [c for c in range(64) if k.retained[s] >> c & 1]
        if held:
            out.append(f"history: seat {s} holds {' '.join(card_text(c) for c in held)} in every "
                       "world (taken from the pile, not discarded since)")
    out.append(f"history: the {len(k.pile) + 1} cards on the discard pile are in no hand; stock "
               f"{k.stock} after your draw; the other unseen cards are dealt uniformly")
    if replay:
        n = sum(len(t) for t in k.turns)
        out.append(f"opponent model 'played' with the history: each world is weighted by how likely "
                   f"the opponents' strategies were to make every observed choice of their {n} "
                   "turns in it (take or draw, discard, no knock; sequential importance sampling of "
                   "the order they got their cards in)")
    return out


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
    turns: list[Turn]
    rows: list[list[tuple]] = field(default_factory=list)


def check_tonk(text: str, *, players: int, turn: int, hand, no_upcard: bool,
               hand_size: int = 5) -> TonkKnown:
    """Parse a Tonk history and check it against the position: my ``hand`` (codes) at the
    start of my own turn ``turn``, before drawing; every seat played ``turn - 1`` turns
    before (you first), nobody dropped or went out.  Raises AdviceError naming what is wrong."""
    up, turns = parse(text, tonk=True)
    n = players
    if up is None and not no_upcard:
        raise AdviceError(f"history: {TONK_SYNTAX}")
    if up is not None and no_upcard:
        raise AdviceError("history: with no_upcard no card is turned up after the deal: drop 'up CARD'")
    order = _turn_order(turns, n, turn, n * (turn - 1))
    k = TonkKnown(n=n, pile=[] if up is None else [up], spreads=[], turns=turns,
                  stock=52 - n * hand_size - (up is not None), counts=[hand_size] * n,
                  retained=[0] * n, unknown=[hand_size] * n, rows=[[] for _ in range(n)])
    where: dict[int, int] = {} if up is None else {up: -1}    # -1 pile, -2 table, s: seat s
    for i, t in enumerate(turns):
        s = i % n
        name = f"history item {i + 1 + (up is not None)} ({_text(t)})"
        _in_turn(name, t, s, order)
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
        _lay(k, where, s, name, t.plays)
        if k.counts[s] < 1:
            raise AdviceError(f"{name}: seat {s} has no card left to discard: it went out (tonk), "
                              "which ends the hand")
        if t.discard == t.take:
            raise AdviceError(f"{name}: the card just taken from the pile cannot be discarded")
        _play(k, where, s, name, t.discard, -1)
        k.pile.append(t.discard)
        played = sum(1 << c for _, cards in t.plays for c in cards)
        k.rows[s].append((-1 if t.take is None else t.take, t.discard, played) + before)
        if k.counts[s] < 1:
            raise AdviceError(f"{name}: seat {s} discarded its last card: it went out, which ends "
                              "the hand")
    mine = set(int(c) for c in hand)
    _my_cards(where, mine, "played", tonk=True)
    if len(mine) != k.counts[0]:
        raise AdviceError(f"your hand holds {len(mine)} cards, but the history leaves you "
                          f"{k.counts[0]} (5 dealt, +1 per draw or take, -1 per card spread, hit or "
                          "discarded)")
    k.unknown[0] = 0
    return k


def _play(k: TonkKnown, where: dict, s: int, name: str, c: int, to: int) -> None:
    """Seat ``s`` plays card ``c`` to the pile (``to`` -1) or the table (-2): one of its
    pickups, or one of its unseen cards."""
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


def _lay(k: TonkKnown, where: dict, s: int, name: str, plays) -> None:
    """Seat ``s``'s spreads (new books and runs) and hits (cards that extend the first spread
    on the table they fit, together) of one turn."""
    for kind, cards in plays:
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
                _play(k, where, s, name, c, -2)
            k.spreads.append((s, sk, mask))
        else:
            j = next((j for j, (_, sk, m) in enumerate(k.spreads)
                      if is_legal_spread(sk, np.uint64(m | mask))), None)
            if j is None:
                raise AdviceError(f"{name}: {' '.join(map(card_text, cards))} cannot be hit on "
                                  "any spread on the table (hit cards that extend one spread "
                                  "together)")
            for c in cards:
                _play(k, where, s, name, c, -2)
            o, sk, m = k.spreads[j]
            k.spreads[j] = (o, sk, m | mask)


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
