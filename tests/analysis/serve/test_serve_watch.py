"""Watch a hand, in a real browser against the real server (``rummylab serve`` on loopback, one
worker): for every game one hand is traced through the page and stepped to its end, and at
every step the cards the page shows are compared with the hands derived here, independently,
from ``rummylab trace --json`` of the same arguments; the final screen shows the outcome and
every seat's points; the same hand uploaded as a file renders at a phone's width; nothing sticks
out at 1280x900 or 390x900 and no console error.  ``POST /api/trace/upload`` refuses a broken
file with the line's number.  Without Chromium or Playwright the browser tests skip, except in
CI (``RUMMYLAB_REQUIRE_BROWSER=1``), where they fail."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from pathlib import Path

import httpx
import pytest

from analysis.cli import main as cli_main
from tests.support.serve_helpers import checker
from sim.variants import available

TRACE_WAIT_MS = 300_000          # a cold engine compiles on the first hand of each game
# one hand per game: (form fields, as the page's form takes them); the hands have the game's plays
HANDS = {
    "gin": {"seed": 1, "hand": 23},
    "tonk": {"seed": 1, "hand": 40, "strategies": "simple,random"},
    "knock-rummy": {"seed": 1, "hand": 24},
    "ramino-klop": {"seed": 1, "hand": 22},
    "wildcard": {"seed": 1, "hand": 0, "players": 3, "rule": ["deal_3p=10"]},
    "cincinnati": {"seed": 1, "hand": 34},
    "basic-rummy": {"seed": 1, "hand": 77},
    "block-rummy": {"seed": 1, "hand": 75},
    "wrotham": {"seed": 1, "hand": 60},
    "ramino-drift": {"seed": 1, "hand": 45},
    "loba": {"seed": 1, "hand": 52},
}


def test_every_game_has_a_hand():
    assert sorted(HANDS) == sorted(available()) and len(HANDS) == 11


# ---- the independent derivation ------------------------------------------------------------------
def trace_text(game: str, fields: dict) -> str:
    """``rummylab trace --json`` of the form's fields (run here, in this process)."""
    argv = ["trace", "--variant", game, "--seed", str(fields["seed"]), "--hand", str(fields["hand"]), "--json"]
    for key in ("players", "strategies"):
        if key in fields:
            argv += [f"--{key}", str(fields[key])]
    for r in fields.get("rule", []):
        argv += ["--rule", r]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(argv) == 0
    return out.getvalue()


def derive(events: list[dict]) -> list[tuple[list[list[str]], int]]:
    """Per event: (each seat's cards, sorted; the stock's count) after it."""
    start = events[0]
    hands = [Counter() for _ in range(start["players"])]
    stock = sum(start["pack"].values())
    steps = []
    for e in events:
        kind, seat, cards = e["event"], e["seat"], e["cards"]
        if kind == "deal":
            hands[seat] = Counter(cards)
        elif kind in ("draw", "take"):
            hands[seat].update(cards)
        elif kind in ("discard", "meld", "lay_off", "swap"):
            hands[seat].subtract(cards)
            hands[seat]["X"] += kind == "swap"          # the joker swapped out goes to the hand
        elif kind == "move":
            hands[seat].subtract(e["fill"])
        if kind in ("deal", "upcard", "draw"):
            stock -= len(cards)
        elif kind in ("restock", "turn_over"):
            stock = e["count"]
        assert all(n >= 0 for h in hands for n in h.values()), f"a card played but not held: {e}"
        steps.append(([sorted(h.elements()) for h in hands], stock))
    return steps





SHOWN = """() => Array.from(document.querySelectorAll('#seats .seat')).map((s) => ({
  seat: +s.dataset.seat, count: +s.dataset.count, backs: s.querySelectorAll('.card.back').length,
  cards: Array.from(s.querySelectorAll('.card[data-card]')).map((c) => c.dataset.card).sort()}))"""
STATE = """() => ({stock: +document.getElementById('stock').dataset.count,
  step: +document.getElementById('step').value, line: document.getElementById('event-line').textContent,
  problem: document.getElementById('problem').textContent,
  outcome: !document.getElementById('outcome').classList.contains('hidden')})"""


def check_step(page, k: int, want, follow: int, show_all: bool) -> None:
    hands, stock = want
    state = page.evaluate(STATE)
    assert state["step"] == k and state["line"] and not state["problem"], state
    assert state["stock"] == stock, (k, state, stock)
    for s in page.evaluate(SHOWN):
        seat = s["seat"]
        assert s["count"] == len(hands[seat]), (k, seat)
        if show_all or seat == follow:
            assert s["cards"] == hands[seat] and s["backs"] == 0, (k, seat, s, hands[seat])
        else:
            assert s["cards"] == [] and s["backs"] == len(hands[seat]), (k, seat, s)


def check_screen(page, shot: Path) -> None:
    assert not checker.sticking_out(page), checker.sticking_out(page)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == checker.PNG_MAGIC


def check_outcome(page, events) -> None:
    out = events[-1]
    assert page.is_visible("#outcome")
    assert page.inner_text("#outcome-name") == out["outcome_name"]
    for seat in range(events[0]["players"]):
        row = page.inner_text(f'#outcome-seats tr[data-seat="{seat}"]')
        assert str(out["outcome"][f"score{seat}"]) in row.split()


def fill_form(page, game: str, fields: dict) -> None:
    page.select_option("#variant", game)
    for key in ("players", "strategies", "seed", "hand"):
        page.fill(f"#{key}", str(fields.get(key, "")))
    page.fill("#rule", "\n".join(fields.get("rule", [])))


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(HANDS))
def test_watch_every_game(serve_url, chromium, game, tmp_path):
    fields = HANDS[game]
    text = trace_text(game, fields)
    events = [json.loads(x) for x in text.splitlines()]
    steps = derive(events)
    last = len(steps) - 1
    assert events[-1]["event"] == "outcome" and last >= 8
    with checker.page_at(chromium, 1280, 900, allow=(serve_url,)) as page:
        errors = checker.watch_errors(page)
        page.goto(serve_url + "/watch")
        fill_form(page, game, fields)
        page.click("#trace")
        page.wait_for_selector("#player:not(.hidden)", timeout=TRACE_WAIT_MS)
        assert page.evaluate("RL.watch.events.length") == len(events)
        check_step(page, 0, steps[0], 0, False)
        page.click("#next")                                   # the buttons
        check_step(page, 1, steps[1], 0, False)
        page.click("#prev")
        for k in range(1, len(steps)):                        # the right arrow, to the end
            page.keyboard.press("ArrowRight")
            check_step(page, k, steps[k], 0, False)
            if k == last // 2:
                check_screen(page, tmp_path / "middle-1280.png")
        assert page.is_disabled("#next")
        check_outcome(page, events)
        if "stock_left" in events[-1]["outcome"]:
            assert steps[-1][1] == events[-1]["outcome"]["stock_left"]
        check_screen(page, tmp_path / "end-1280.png")
        page.check("#show-all")                               # every seat face up, back with the left arrow
        for k in range(last, -1, -1):
            check_step(page, k, steps[k], 0, True)
            page.keyboard.press("ArrowLeft")
        page.uncheck("#show-all")
        page.select_option("#follow", "1")                    # follow another seat; the slider
        page.eval_on_selector("#step", f"(s) => {{ s.value = {last // 2}; s.dispatchEvent(new Event('input')); }}")
        check_step(page, last // 2, steps[last // 2], 1, False)
        assert not errors, errors

    with checker.page_at(chromium, 390, 900, allow=(serve_url,)) as page:   # the same hand as a file, on a phone
        errors = checker.watch_errors(page)
        page.goto(serve_url + "/watch")
        page.set_input_files("#upload", files=[{"name": f"{game}.jsonl", "mimeType": "application/json",
                                                "buffer": text.encode()}])
        page.wait_for_selector("#player:not(.hidden)")
        check_step(page, 0, steps[0], 0, False)
        check_screen(page, tmp_path / "start-390.png")
        page.eval_on_selector("#step", f"(s) => {{ s.value = {last // 2}; s.dispatchEvent(new Event('input')); }}")
        check_step(page, last // 2, steps[last // 2], 0, False)
        page.check("#show-all")
        check_step(page, last // 2, steps[last // 2], 0, True)
        check_screen(page, tmp_path / "middle-390.png")
        page.keyboard.press("End")
        check_step(page, last, steps[last], 0, True)
        check_outcome(page, events)
        check_screen(page, tmp_path / "end-390.png")
        assert not errors, errors


def _refused(errors: list[str]) -> list[str]:
    """The page's errors but the browser's own line for a 422 answer (the bad input under test)."""
    return [e for e in errors if "status of 422" not in e]


@pytest.mark.slow
def test_bad_input_shows_beside_its_field(serve_url, chromium):
    with checker.page_at(chromium, 390, 900, allow=(serve_url,)) as page:
        errors = checker.watch_errors(page)
        page.goto(serve_url + "/watch")
        page.select_option("#variant", "gin")
        page.fill("#players", "5")
        page.click("#trace")
        page.wait_for_selector('.field-error[data-for="players"]:not(:empty)')
        assert page.is_hidden("#player")
        assert "invalid" in page.get_attribute("#players", "class")
        page.set_input_files("#upload", files=[{"name": "bad.jsonl", "mimeType": "text/plain",
                                                "buffer": b'{"hand": 0}\nnot json\n'}])
        page.wait_for_selector('.field-error[data-for="upload"]:not(:empty)')
        assert page.inner_text('.field-error[data-for="upload"]').startswith("line 1:")
        assert not _refused(errors), errors
        assert not checker.sticking_out(page)


@pytest.mark.slow
def test_the_arrangement_keys_are_drawn(serve_url, chromium):
    """A knock's arrangement (keys another branch adds) is drawn as cards, whatever its shape."""
    events = [json.loads(x) for x in trace_text("gin", HANDS["gin"]).splitlines()]
    knock = next(e for e in events if e["event"] == "knock")
    hand = derive(events)[events.index(knock)][0][knock["seat"]]
    knock.update(melds=[hand[:3], hand[3:6]], deadwood_cards=hand[6:])
    next(e for e in events if e["event"] == "end")["layoffs"] = {"seat 1": [hand[0]]}
    body = "\n".join(json.dumps(e) for e in events)
    with checker.page_at(chromium, 1280, 900, allow=(serve_url,)) as page:
        errors = checker.watch_errors(page)
        page.goto(serve_url + "/watch")
        page.set_input_files("#upload", files=[{"name": "gin.jsonl", "mimeType": "text/plain", "buffer": body.encode()}])
        page.wait_for_selector("#player:not(.hidden)")
        assert page.is_hidden("#arrangement-box")
        page.keyboard.press("End")
        shown = page.evaluate("""() => Array.from(document.querySelectorAll('#arrangement .part[data-key]')).map(
            (p) => [p.dataset.key, Array.from(p.querySelectorAll('.card[data-card]')).map((c) => c.dataset.card)])""")
        assert shown == [["melds", hand[:6]], ["deadwood_cards", hand[6:]], ["layoffs", [hand[0]]]]
        assert not errors, errors


# ---- the upload's checks (no browser) ------------------------------------------------------------
@pytest.fixture(scope="module")
def gin_lines() -> list[str]:
    return trace_text("gin", HANDS["gin"]).splitlines()


def _upload(base: str, body: bytes):
    return httpx.post(base + "/api/trace/upload", content=body, timeout=30)


def test_upload_a_valid_file(serve_url, gin_lines):
    r = _upload(serve_url, ("\n".join(gin_lines) + "\n").encode())
    assert r.status_code == 200
    assert r.json()["events"] == [json.loads(x) for x in gin_lines]


def _broken(lines: list[str], n: int, edit) -> bytes:
    lines = list(lines)
    e = json.loads(lines[n - 1])
    lines[n - 1] = edit(e) if callable(edit) else edit
    return "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines).encode()


def _not_held(lines: list[str], n: int) -> str:
    """A card of the pack that line n's seat does not hold just before line n."""
    events = [json.loads(x) for x in lines]
    held = derive(events)[n - 2][0][events[n - 1]["seat"]]
    return next(c for c in events[0]["pack"] if c not in held)


def _first(lines, kind):
    return next(n for n, x in enumerate(lines, 1) if json.loads(x)["event"] == kind)


@pytest.mark.parametrize("case", ["not json", "not an object", "no cards", "bad card", "unknown event",
                                  "not held", "not the top", "cut short", "two hands", "no start"])
def test_upload_a_broken_line_names_it(serve_url, gin_lines, case):
    discard = _first(gin_lines, "discard")
    edits = {
        "not json": (5, '{"hand": 0, "event": "draw"'),
        "not an object": (4, "[1, 2]"),
        "no cards": (discard, lambda e: {k: v for k, v in e.items() if k != "cards"}),
        "bad card": (discard, lambda e: {**e, "cards": ["1S"]}),
        "unknown event": (discard, lambda e: {**e, "event": "sneeze"}),
        "not held": (discard, lambda e: {**e, "cards": [_not_held(gin_lines, discard)]}),
        "two hands": (discard, lambda e: {**e, "hand": e["hand"] + 1}),
        "no start": (1, lambda e: {**e, "event": "deal", "seat": 0}),
    }
    if case == "cut short":
        body, line, words = "\n".join(gin_lines[:discard]).encode(), discard, "outcome"
    elif case == "not the top":
        take = next((n for n, x in enumerate(gin_lines, 1) if json.loads(x)["event"] == "take"), None)
        assert take is not None
        body, line, words = _broken(gin_lines, take, lambda e: {**e, "cards": ["AS" if e["cards"] != ["AS"] else "2S"]}), \
            take, "not the top"
    else:
        line, edit = edits[case]
        body = _broken(gin_lines, line, edit)
        words = {"not json": "not JSON", "not an object": "JSON object", "no cards": "'cards'",
                 "bad card": "not a card", "unknown event": "no event 'sneeze'", "not held": "does not hold",
                 "two hands": "one hand", "no start": "'start'"}[case]
    r = _upload(serve_url, body)
    assert r.status_code == 422, r.text
    doc = r.json()
    assert doc["line"] == line and doc["field"] == "upload"
    assert doc["detail"].startswith(f"line {line}: ") and words in doc["detail"], doc
    assert doc["detail"].count(". ") == 0                 # one sentence


@pytest.mark.slow
def test_upload_empty_not_utf8_and_too_big(serve_url):
    r = _upload(serve_url, b"")
    assert r.status_code == 422 and r.json()["detail"].startswith("line 1:")
    r = _upload(serve_url, b'{"a": 1}\n\xff\xfe\n')
    assert r.status_code == 422 and r.json()["line"] == 2
    from analysis.serve.watch import MAX_UPLOAD
    r = _upload(serve_url, b" " * (MAX_UPLOAD + 1))
    assert r.status_code == 413

    def chunks():                       # no Content-Length: the route counts as it reads
        for _ in range(MAX_UPLOAD // 65536 + 2):
            yield b" " * 65536
    r = httpx.post(serve_url + "/api/trace/upload", content=chunks(), timeout=30)
    assert r.status_code == 413
