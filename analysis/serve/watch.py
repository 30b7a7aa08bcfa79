"""Watch a hand: ``POST /api/trace/upload`` takes the text of a ``rummylab trace --json`` file of
one hand (the raw request body, at most :data:`MAX_UPLOAD` bytes) and gives back its events,
``{"events": [...]}``, for the Watch page to step through, as ``POST /api/trace`` does for a
hand it plays.

The file is checked line by line before the page sees it: each line a JSON object with the keys
the schema (:mod:`analysis.trace_cmd`) requires of its event, card texts of the start line's
pack, one hand from its ``start`` line to its ``outcome`` line, and a history that can have
happened (a seat plays only cards it holds, a take takes the top of the discard pile).  A file
that fails gets HTTP 422 ``{"detail": "line N: one sentence", "field": "upload", "line": N}``.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

MAX_UPLOAD = 4 * 1024 * 1024      # an uploaded trace (JSON lines)

router = APIRouter()

REQUIRED = {"hand": int, "turn": int, "seat": int, "event": str, "cards": list}
# the further keys each event must carry (the schema's), and their types
EVENT_KEYS: dict[str, dict[str, type]] = {
    "start": {"variant": str, "players": int, "columns": list, "pack": dict},
    "deal": {}, "upcard": {}, "draw": {}, "take": {}, "pass": {}, "discard": {}, "knock": {},
    "meld": {}, "lay_off": {"meld": int}, "swap": {"meld": int}, "move": {"meld": int}, "drop": {},
    "restock": {"count": int}, "turn_over": {"count": int}, "end": {"outcome_name": str},
    "outcome": {"outcome": dict, "outcome_name": str},
}
ONE_CARD_AT_LEAST = ("upcard", "draw", "take", "discard", "meld", "lay_off", "swap")
CARD = re.compile(r"(?:[A2-9TJQK][SHDC]|X)\Z")
MAX_PLAYERS = 16


class BadLine(Exception):
    """A line of the upload the page cannot show: its number and one sentence."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


def _type_name(t: type) -> str:
    return {int: "a whole number", str: "text", list: "a list", dict: "an object"}[t]


def _is(value, t: type) -> bool:
    if t is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, t)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _object(n: int, text: str) -> dict:
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        raise BadLine(n, "this is not JSON (a `rummylab trace --json` file has one JSON object per line)") from None
    if not isinstance(obj, dict):
        raise BadLine(n, f"expected a JSON object (an event), got {type(obj).__name__}")
    return obj


def _keys(n: int, e: dict) -> None:
    """The schema's keys of ``e`` (line ``n``), with their types."""
    for key, t in REQUIRED.items():
        if key not in e:
            raise BadLine(n, f"the event has no {key!r} key")
        if not _is(e[key], t):
            raise BadLine(n, f"{key!r} must be {_type_name(t)}")
    if e["event"] not in EVENT_KEYS:
        raise BadLine(n, f"no event {e['event']!r} in the trace schema (the events are "
                         f"{', '.join(EVENT_KEYS)})")
    for key, t in EVENT_KEYS[e["event"]].items():
        if key not in e:
            raise BadLine(n, f"a {e['event']!r} event needs a {key!r} key")
        if not _is(e[key], t):
            raise BadLine(n, f"{key!r} must be {_type_name(t)}")
    if e["event"] in ONE_CARD_AT_LEAST and not e["cards"]:
        raise BadLine(n, f"a {e['event']!r} event names at least one card")


class _Replay:
    """The hand so far, to refuse a history that cannot have happened."""

    def __init__(self, start: dict):
        from sim.variants import available
        if start["variant"] not in available():
            raise BadLine(1, f"no game {start['variant']!r} (the games are {', '.join(available())})")
        if not 1 <= start["players"] <= MAX_PLAYERS:
            raise BadLine(1, f"'players' must be 1 to {MAX_PLAYERS}, got {start['players']}")
        bad = [c for c in start["pack"] if not isinstance(c, str) or not CARD.match(c)]
        if bad or not all(_is(k, int) and k > 0 for k in start["pack"].values()):
            raise BadLine(1, "'pack' must map card texts (like \"TD\" or \"X\") to copies")
        self.players, self.pack = start["players"], Counter(start["pack"])
        self.hands = [Counter() for _ in range(self.players)]
        self.pile: list[str] = []
        self.stock = sum(self.pack.values())

    def cards(self, n: int, cards) -> list[str]:
        for c in cards:
            if not isinstance(c, str) or not CARD.match(c):
                raise BadLine(n, f"{c!r} is not a card text (like \"TD\", \"AS\" or \"X\")")
            if c not in self.pack:
                raise BadLine(n, f"{c} is not in this game's pack")
        return cards

    def seat(self, n: int, e: dict) -> Counter:
        if not 0 <= e["seat"] < self.players:
            raise BadLine(n, f"a {e['event']!r} event needs a seat from 0 to {self.players - 1}, got {e['seat']}")
        return self.hands[e["seat"]]

    def give(self, n: int, e: dict, cards) -> None:
        hand = self.seat(n, e)
        missing = Counter(cards) - hand
        if missing:
            raise BadLine(n, f"seat {e['seat']} plays {' '.join(missing.elements())}, which it does not hold")
        hand.subtract(cards)

    def play(self, n: int, e: dict) -> None:
        kind, cards = e["event"], self.cards(n, e["cards"])
        table = e.get("table", [])
        if not isinstance(table, list) or not all(isinstance(m, list) for m in table):
            raise BadLine(n, "'table' must be a list of melds, each a list of card texts")
        for meld in table:
            self.cards(n, meld)
        if kind == "deal":
            self.seat(n, e).update(cards)
            self.stock -= len(cards)
        elif kind in ("draw", "upcard"):
            if kind == "draw":
                self.seat(n, e).update(cards)
            else:
                self.pile += cards
            self.stock -= len(cards)
        elif kind == "take":
            if self.pile[len(self.pile) - len(cards):] != cards:
                raise BadLine(n, f"seat {e['seat']} takes {' '.join(cards)}, which is not the top of the discard pile")
            self.seat(n, e).update(cards)
            del self.pile[len(self.pile) - len(cards):]
        elif kind in ("discard", "meld", "lay_off", "swap"):
            self.give(n, e, cards)
            if kind == "discard":
                self.pile += cards
            elif kind == "swap":
                self.hands[e["seat"]]["X"] += 1
        elif kind == "move":
            self.give(n, e, self.cards(n, e.get("fill", [])))
        elif kind in ("restock", "turn_over"):
            if not 0 <= e["count"] <= len(self.pile) + self.stock:
                raise BadLine(n, f"a new stock of {e['count']} cards from a pile of {len(self.pile)}")
            del self.pile[:max(0, e["count"] - self.stock)]
            self.stock = e["count"]
        if self.stock < 0:
            raise BadLine(n, "more cards are dealt and drawn than the pack holds")


def check_trace(text: str) -> list[dict]:
    """The events of an uploaded ``trace --json`` text of one hand, or :class:`BadLine`."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise BadLine(1, "the file is empty (expected the JSON lines of `rummylab trace --json`)")
    events, replay = [], None
    for k, (n, line) in enumerate(lines):
        e = _object(n, line)
        _keys(n, e)
        if (k == 0) != (e["event"] == "start"):
            raise BadLine(n, "a hand starts with its 'start' event, once" if k == 0 else
                          "a second 'start' event: upload one hand (trace --hand I --json)")
        if k == 0:
            replay = _Replay(e)
        elif e["hand"] != events[0]["hand"]:
            raise BadLine(n, f"this is hand {e['hand']}, after hand {events[0]['hand']}: upload one hand")
        if e["event"] == "outcome" and k != len(lines) - 1:
            raise BadLine(n, "the 'outcome' event ends the hand, but lines follow it")
        if e["event"] == "outcome" and not all(_is(v, int) or isinstance(v, float) and math.isfinite(v)
                                               for v in e["outcome"].values()):
            raise BadLine(n, "the outcome's columns must be numbers")
        replay.play(n, e)
        events.append(e)
    if events[-1]["event"] != "outcome":
        raise BadLine(lines[-1][0], "the hand does not end with its 'outcome' event (is the file cut short?)")
    return events


async def _body(request: Request, cap: int) -> bytes | None:
    """The request body, or None when it is over ``cap`` bytes (a body sent without a length)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


@router.post("/api/trace/upload")
async def upload(request: Request):
    raw = await _body(request, MAX_UPLOAD)
    if raw is None:
        return JSONResponse({"detail": f"the request is over {MAX_UPLOAD // 1024} KB", "field": "upload"},
                            status_code=413)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        return JSONResponse({"detail": f"line {line}: this is not UTF-8 text", "field": "upload", "line": line},
                            status_code=422)
    try:
        events = check_trace(text)
    except BadLine as e:
        return JSONResponse({"detail": str(e), "field": "upload", "line": e.line}, status_code=422)
    return {"events": events}
