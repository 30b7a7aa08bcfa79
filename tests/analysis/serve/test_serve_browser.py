"""The Ask and Meld pages in a real browser (Playwright driving the system Chromium; never skipped
where CI requires the browser): cards clicked on the pack, the answer read off the page and held
against the command line's on the same seed; both viewports with nothing sticking out and no
console error; bad input shown beside its field."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.serve_helpers import checker

pytestmark = pytest.mark.slow     # a real browser, every test: `make test` only, not the fast tier

HAND = "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C".split()
VIEWPORTS = ((1280, 900), (390, 900))


def _cli(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "analysis.cli", *args, "--json"], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def _num(x: float) -> str:
    return f"{x:+.2f}".replace("-", "−")


def _est(e: dict) -> str:
    return f"{_num(e['value'])} [{_num(e['ci95'][0])}, {_num(e['ci95'][1])}]"


def _clean(pg, errors, width, name, tmp_path):
    assert checker.sticking_out(pg) == [], (width, checker.sticking_out(pg))
    assert errors == [], errors
    shot = tmp_path / f"{name}-{width}.png"
    pg.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == checker.PNG_MAGIC


@pytest.mark.parametrize("width,height", VIEWPORTS)
def test_ask_by_clicking_the_cards(serve_url, chromium, width, height, tmp_path):
    cli = _cli("knock", "--variant", "gin", "--hand", " ".join(HAND), "--turn", "6", "--upcard", "5C", "--seed", "1")
    with checker.page_at(chromium, width, height, allow=(serve_url + "/",)) as pg:
        errors = checker.watch_errors(pg)
        pg.goto(serve_url + "/ask/gin")
        pg.fill("#f-hand", "")
        pg.fill("#f-upcard", "")
        for c in HAND:
            pg.click(f"#pack .card[data-card='{c}']")
        pg.check("input[name=pick][value=upcard]")
        pg.click("#pack .card[data-card='5C']")
        assert pg.input_value("#f-hand") == " ".join(HAND) and pg.input_value("#f-upcard") == "5C"
        assert pg.locator("#pack .card.picked").count() == 10
        pg.fill("#f-turn", "6")
        pg.fill("#f-seed", "1")
        pg.click("#go")
        pg.wait_for_selector("#call:not(:empty)", timeout=120_000)
        want = {"knock": "Knock", "play on": "Play on"}.get(cli["recommendation"], "Too close to call")
        assert pg.inner_text("#call") == want
        assert pg.inner_text("#diff").startswith(_est(cli["diff"]))
        assert f"n = {cli['worlds']:,}" in pg.inner_text("#diff")
        assert pg.inner_text("#ev_knock") == _est(cli["ev_knock"])
        assert "No stored knock chart" in pg.inner_text("#chart")
        _clean(pg, errors, width, "ask", tmp_path)


def test_bad_input_shows_beside_its_field(serve_url, chromium):
    with checker.page_at(chromium, 1280, 900, allow=(serve_url + "/",)) as pg:
        errors = checker.watch_errors(pg)
        pg.goto(serve_url + "/ask/gin")
        pg.fill("#f-hand", "AS 2S 3S 7H 7D 7C 9S 9D 9H 9H")
        pg.click("#go")
        msg = pg.wait_for_selector(".field-error[data-for=hand]:not(:empty)", timeout=60_000)
        assert "9H" in msg.inner_text() and "Traceback" not in pg.content()
        assert "invalid" in pg.get_attribute("#f-hand", "class")
        pg.fill("#f-hand", " ".join(HAND))
        pg.fill("#f-budget", "0")
        pg.click("#go")
        assert "budget" in pg.wait_for_selector(".field-error[data-for=budget]:not(:empty)").inner_text()
        assert errors == [] or all("422" in e for e in errors), errors


@pytest.mark.parametrize("game", ["basic-rummy", "wrotham", "loba"])
def test_meld_page_plans_as_the_command_line(serve_url, chromium, game, tmp_path):
    with checker.page_at(chromium, 390 if game == "loba" else 1280, 900, allow=(serve_url + "/",)) as pg:
        errors = checker.watch_errors(pg)
        pg.goto(f"{serve_url}/meld?game={game}")
        args = {"hand": pg.input_value("#f-hand"), "table": pg.input_value("#f-table"),
                "taken": pg.input_value("#f-taken")}
        pg.click("#go")
        pg.wait_for_selector("#plan li", timeout=120_000)
        cli = _cli("meld", "--variant", game, *[f"--{k}={v}" for k, v in args.items() if v])
        assert pg.locator("#plan li").all_inner_texts() == (cli["plan"] or ["lay nothing down"])
        assert [c.get_attribute("data-card") for c in pg.locator("#left .card").all()] == cli["left_in_hand"]
        _clean(pg, errors, 1280, f"meld-{game}", tmp_path)


HISTORY = ("up 3H; 0:take 3H discard KC; 1:take KC discard QH; 0:draw discard QS; 1:draw discard TD; "
           "0:draw discard JD; 1:draw discard 9S; 0:draw discard JS; 1:draw discard 8D; 0:draw discard 7C; "
           "1:draw discard QC; 0:draw discard 6S; 1:draw discard 8H")      # `knock --help`'s example


def test_the_turns_you_saw_built_by_clicks(serve_url, chromium):
    hand = "4S 2H 3H 4H 5H 8H 9H TH JH AD"
    cli = _cli("knock", "--variant", "gin", "--hand", hand, "--turn", "7", "--upcard", "TC", "--history", HISTORY,
               "--worlds", "400")
    with checker.page_at(chromium, 1280, 900, allow=(serve_url + "/",)) as pg:
        errors = checker.watch_errors(pg)
        pg.goto(serve_url + "/ask/gin")
        pg.fill("#f-hand", hand)
        pg.fill("#f-upcard", "TC")
        pg.fill("#f-turn", "7")
        pg.fill("#f-seed", "0")
        pg.fill("#f-worlds", "400")
        pg.check("input[name=pick][value=builder]")
        pg.click("#b-up")
        pg.click("#pack .card[data-card='3H']")
        for turn in HISTORY.split(";")[1:]:
            seat, rest = turn.strip().split(":")
            words = rest.split()
            pg.fill("#b-seat", seat)
            pg.select_option("#b-how", words[0])
            if words[0] == "take":
                pg.click("#b-took")
                pg.click(f"#pack .card[data-card='{words[1]}']")
            pg.click("#b-threw")
            pg.click(f"#pack .card[data-card='{words[-1]}']")
            pg.click("#b-add")
        assert pg.input_value("#f-history") == HISTORY
        pg.click("#go")
        pg.wait_for_selector("#call:not(:empty)", timeout=120_000)
        assert pg.inner_text("#diff").startswith(_est(cli["diff"]))
        assert errors == []


@pytest.mark.parametrize("game", ["knock-rummy", "ramino-klop", "tonk"])
def test_every_ask_page_answers_its_own_game(serve_url, chromium, game):
    from analysis.serve.examples import ASK_EXAMPLES
    ex = ASK_EXAMPLES[game]
    args = ["knock", "--variant", game, *[f"--{k}={v}" for k, v in ex.items()]]
    cli = _cli(*args)
    with checker.page_at(chromium, 390, 900, allow=(serve_url + "/",)) as pg:
        errors = checker.watch_errors(pg)
        pg.goto(f"{serve_url}/ask/{game}")
        pg.click("#go")
        pg.wait_for_selector("#call:not(:empty)", timeout=300_000)
        assert pg.inner_text("#diff").startswith(_est(cli["diff"]))
        assert checker.sticking_out(pg) == [] and errors == []
