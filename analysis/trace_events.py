"""One traced hand as events: the kernel's trace rows (:mod:`sim.core.trace`) decoded into the
event stream of ``rummylab trace --json`` and into the readable lines of the playthroughs.

:func:`play_traced` plays hand ``h`` of a run spec with a trace (the same row as ``simulate``
gives for that hand); :func:`hand_events` turns the trace into event dicts (the schema is in
:mod:`analysis.trace_cmd` and docs/trace-and-referee.md); :func:`text_lines` writes them as text.

The table of the open-melding games is rebuilt from the kernel's ``table`` rows (each play
is followed by the row it changed, as it stands); Tonk's spreads from its ``spread`` and
``hit`` rows.  The turn counter: 1 at the first seat's first turn, +1 whenever a seat starts
a turn (a draw, take, drop or stock-out pass by another seat, or by the same seat after its
discard), as the engines count the ``turns`` column; declining the upcard (Gin's offer, the
OpenSpiel wall) is no turn of its own, and plays by other seats outside a turn (Tonk's
stock-out lay-down) keep the turn number.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from sim.core.cards import JOKER, card_text, from_mask, is_card
from sim.open.open_plan_layout import RUN
from sim.core.trace import all_events, new_trace
from sim.knock.shown import LAID

NAMES = {"draw_stock": "draw", "take_pile": "take", "spread": "meld", "hit": "lay_off"}
TURN_STARTS = ("draw_stock", "take_pile", "pass", "drop")
MAX_TRACE_ROWS = 1 << 22


def play_traced(spec, hand: int) -> tuple[list[tuple[str, int, int, int]], np.ndarray]:
    """Play hand ``hand`` of ``spec`` (mode hands) with a trace and the engine's debug checks:
    (every trace row as (kind, seat, a, b), the hand's outcome row int64[columns])."""
    out = np.zeros((1, len(spec.columns)), dtype=np.int64)
    rows = 1 << 14
    while True:
        trace = new_trace(rows)
        try:
            spec.variant.play_chunk(*spec.arrays(), spec.seed, hand, out, debug=True, trace=trace)
            return all_events(trace), out[0]
        except ValueError as e:
            if "trace full" not in str(e) or rows >= MAX_TRACE_ROWS:
                raise
            rows *= 4


def table_row(a: int, b: int) -> tuple[int, int, list[int]]:
    """(owner, lowest run position or -1 for a set, card codes in table order) of a ``table``
    trace row (layout: :func:`sim.open.open_rummy_plays.log_row`): a run low to high with each
    joker where it stands, a set's naturals by suit then its jokers."""
    owner, kind, key = a & 15, (a >> 4) & 1, (a >> 5) & 15
    lo, hi, n_jokers = ((a >> 9) & 63) - 1, ((a >> 15) & 63) - 1, (a >> 21) & 15
    if kind == RUN:
        return owner, lo, [JOKER if (b >> p) & 1 else key * 16 + p % 13 for p in range(lo, hi + 1)]
    naturals = [s * 16 + key for s in range(4) for _ in range((a >> (25 + 3 * s)) & 7)]
    return owner, -1, naturals + [JOKER] * n_jokers


def _texts(codes) -> list[str]:
    return [card_text(c) for c in codes]


class _Hand:
    """Decoding state of one hand: the turn counter, the table, the events so far."""

    def __init__(self, hand: int):
        self.hand, self.turn, self.turn_seat, self.discarded = hand, 0, -1, False
        self.table: list[list[int]] = []       # card codes per meld, table order
        self.owners: list[int] = []
        self.lows: list[int] = []              # lowest run position per meld (-1: a set)
        self.open_table = False                # rows come from the kernel (open games)
        self.events: list[dict] = []

    def add(self, event: str, seat: int, cards, **more) -> dict:
        e = {"hand": self.hand, "turn": self.turn, "seat": seat, "event": event, "cards": _texts(cards)}
        e.update(more)
        self.events.append(e)
        return e

    def step_turn(self, kind: str, seat: int, a: int) -> None:
        if seat < 0 or kind == "end" or (kind == "pass" and is_card(a)):   # declining the upcard:
            return                                                         # no turn of its own
        if self.turn_seat < 0 or (kind in TURN_STARTS and (seat != self.turn_seat or self.discarded)):
            self.turn, self.turn_seat, self.discarded = self.turn + 1, seat, False
        if kind == "discard" and seat == self.turn_seat:
            self.discarded = True

    def show_table(self, e: dict) -> None:
        e["table"] = [_texts(m) for m in self.table]
        e["owners"] = list(self.owners)
        e["kinds"] = ["set" if lo < 0 else "run" for lo in self.lows]


def _table_row(h: _Hand, i: int, a: int, b: int) -> None:
    """A kernel table row after the last play: update the table, complete that play's line."""
    owner, lo, cards = table_row(a, b)
    e = h.events[-1]
    h.open_table = True
    if i == len(h.table):
        h.table.append(cards)
        h.owners.append(owner)
        h.lows.append(lo)
    else:
        if e["event"] == "move":        # the joker went to the low end iff the run grew down
            e["to"] = "low" if lo < h.lows[i] else "high"
        h.table[i], h.lows[i] = cards, lo
    if e["event"] == "meld":
        e["cards"] = _texts(cards)
    h.show_table(e)


def _play(h: _Hand, kind: str, seat: int, a: int, b: int) -> None:
    """One play row (kind, seat, a, b) as an event."""
    name = NAMES.get(kind, kind)
    if kind in ("draw_stock", "take_pile", "upcard"):
        h.add(name, seat, [a])
    elif kind == "pass":
        h.add(name, seat, [a] if is_card(a) else [])
    elif kind == "discard":
        h.add(name, seat, [a], deadwood=b)
    elif kind in ("knock", "drop"):
        h.add(name, seat, [], deadwood=a)
    elif kind in ("restock", "turn_over"):
        h.add(name, seat, [], count=a)
    elif kind == "spread":
        h.add(name, seat, sorted(from_mask(a)), meld=len(h.table))
        if b == 0:    # Tonk (single pack, no jokers): the mask is the spread; open games'
            spread = sorted(int(c) for c in from_mask(a))            # rows follow the play
            h.table.append(spread)
            h.owners.append(seat)
            h.lows.append(-1 if len({c & 15 for c in spread}) == 1 else spread[0] & 15)
            h.show_table(h.events[-1])
    elif kind in ("hit", "swap"):
        e = h.add(name, seat, [a], meld=b)
        if kind == "hit" and not h.open_table:      # Tonk: b is the spread hit
            h.table[b] = sorted(h.table[b] + [a])
            h.show_table(e)
    elif kind == "move":
        h.add(name, seat, [], meld=b, fill=_texts([a]) if is_card(a) else [])
    else:
        raise ValueError(f"trace: no event for a {kind!r} row")


def hand_events(spec, hand: int, rows, outcome_row) -> list[dict]:
    """The event stream of one traced hand (schema: :mod:`analysis.trace_cmd`)."""
    v, h = spec.variant, _Hand(hand)
    pack: Counter = Counter()
    dealt: dict[int, list[int]] = {}
    plays = []
    for kind, seat, a, b in rows:
        if kind == "pack":
            pack[a] += 1
        elif kind == "deal":
            dealt.setdefault(seat, []).append(a)
        else:
            plays.append((kind, seat, a, b))
    col = dict(zip(spec.columns, (int(x) for x in outcome_row)))
    h.add("start", -1, [], variant=v.name, players=spec.n_seats, rules=spec.rules.as_dict(),
          rules_version=type(spec.rules).VERSION, strategies=[s.spec for s in spec.strategies],
          seed=spec.seed, dealer=col.get("dealer", -1), columns=list(spec.columns),
          pack={card_text(c): pack[c] for c in sorted(pack)}, hand_word=v.hand_word)
    for s in sorted(dealt):
        h.add("deal", s, sorted(dealt[s]))
    shown: dict[int, dict] = {}
    for kind, seat, a, b in plays:
        if kind == "table":
            _table_row(h, seat, a, b)
            continue
        if kind == "show":
            _show_row(shown, seat, a, b)
            continue
        h.step_turn(kind, seat, a)
        if kind == "end":
            h.add("end", seat, [], outcome_name=v.outcomes[a])
        else:
            _play(h, kind, seat, a, b)
    if shown:
        _show(h.events, shown)
    h.add("outcome", -1, [], outcome=col, outcome_name=v.outcomes[col["outcome"]])
    return h.events


def _show_row(shown: dict[int, dict], seat: int, code: int, slot: int) -> None:
    """One ``show`` row (:mod:`sim.knock.shown`): card ``code`` of ``seat`` in its own meld
    ``slot`` (>= 0), its deadwood (-1) or laid off onto the knocker's meld ``slot - 16``."""
    s = shown.setdefault(seat, {"seat": seat, "melds": [], "deadwood_cards": [], "lay_offs": []})
    card = card_text(code)
    if slot >= LAID:
        s["lay_offs"].append({"card": card, "meld": slot - LAID})
    elif slot >= 0:
        while len(s["melds"]) <= slot:
            s["melds"].append([])
        s["melds"][slot].append(card)
    else:
        s["deadwood_cards"].append(card)


def _show(events: list[dict], shown: dict[int, dict]) -> None:
    """The arrangements shown onto the knock line (else the end line): the knocker's (the
    first seat logged) as ``melds`` and ``deadwood_cards``, the others' as ``defenders``."""
    at = next((e for e in reversed(events) if e["event"] == "knock"), None) or next(
        e for e in reversed(events) if e["event"] == "end")
    first, *others = shown.values()
    at["melds"], at["deadwood_cards"] = first["melds"], first["deadwood_cards"]
    at["defenders"] = others


# ----------------------------------------------------------------------------------------
# the readable lines (tests/crosscut/playthroughs/)

LINES = {
    "upcard": "upcard {card}",
    "draw": "seat {seat} draws {card} from the stock",
    "take": "seat {seat} takes {card} from the discard pile",
    "pass": "seat {seat} passes the upcard",
    "discard": "seat {seat} discards {card} ({word} {deadwood})",
    "knock": "seat {seat} knocks with {word} {deadwood}",
    "meld": "seat {seat} lays down {cards}",
    "lay_off": "seat {seat} lays off {card}",
    "drop": "seat {seat} drops with {word} {deadwood}",
    "end": "hand ends: {outcome_name}{by}",
    "restock": "the discard pile but its top card is turned over: {count} cards form the new stock",
    "turn_over": "the whole discard pile is turned over: {count} cards form the new stock",
    "swap": "seat {seat} swaps {card} for the joker of meld {meld}",
}
STOCK_OUT = "seat {seat} cannot draw: the stock is out"     # a pass that names no card
OPEN_LINES = {   # the open-melding games, where every table change prints the table
    "lay_off": "seat {seat} lays off {card} on meld {meld}",
    "move": "seat {seat} moves the joker of meld {meld} to the {to} end of its run, {fill} in its place",
    "move_end": "seat {seat} moves the joker of meld {meld} from the {other} end of its run to the {to} end",
}


def _line(e: dict, word: str, open_game: bool) -> list[str]:
    kind = e["event"]
    template = STOCK_OUT if kind == "pass" and not e["cards"] else LINES.get(kind)
    if open_game and kind in OPEN_LINES:
        template = OPEN_LINES["move_end" if kind == "move" and not e["fill"] else kind]
    line = template.format(**{**e, "word": word, "card": " ".join(e["cards"]), "cards": " ".join(e["cards"]),
                              "by": f", ended by seat {e['seat']}" if e["seat"] >= 0 else "",
                              "fill": " ".join(e.get("fill", ())),
                              "other": "high" if e.get("to") == "low" else "low"})
    if not (open_game and "table" in e):
        return [line]
    return [line, "  table: " + " | ".join(" ".join(m) for m in e["table"])]   # as `rummylab meld --table`


def text_lines(events: list[dict], outcomes: tuple[str, ...], open_game: bool) -> list[str]:
    """One hand as the playthroughs write it: a header (game, rules, strategies), the deal,
    one line per play (and, in the open-melding games, the table after every change), the end
    and the outcome row."""
    start, word = events[0], events[0]["hand_word"]
    lines = [f"# {start['variant']}, {start['players']} players: hand {start['hand']} of seed {start['seed']}",
             f"# rules: {', '.join(f'{k}={v}' for k, v in start['rules'].items())}",
             f"# strategies: {', '.join(start['strategies'])}", ""]
    for e in events[1:]:
        if e["event"] == "deal":
            lines.append(f"seat {e['seat']} is dealt {' '.join(e['cards'])}")
        elif e["event"] == "outcome":
            lines += ["", "outcome row:"]
            lines += [f"  {c} = {x}" + (f" ({outcomes[x]})" if c == "outcome" else "")
                      for c, x in e["outcome"].items()]
        else:
            lines += _line(e, word, open_game)
    return lines
