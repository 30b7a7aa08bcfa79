"""`rummylab serve`'s JSON API and its worker pool: bad input is a 422 with one sentence beside its
field, an answer is `rummylab knock --json`'s on the same seed, jobs queue, stream and cancel."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import httpx
import pytest

from analysis.serve import argv as AV
from analysis.serve.pool import Pool
from tests.support.serve_helpers import loadtest

GIN = {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "turn": 6, "upcard": "5C", "seed": 1}
TIMING = ("elapsed", "compile_s")


def _cli(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "analysis.cli", *args, "--json"], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def _same(a: dict, b: dict) -> None:
    assert {k: v for k, v in a.items() if k not in TIMING} == {k: v for k, v in b.items() if k not in TIMING}


@pytest.mark.slow
@pytest.mark.parametrize("extra", [{"worlds": 3000}, {}])
def test_an_ask_gives_the_command_lines_numbers(serve_url, extra):
    body = dict(GIN, **extra)
    r = httpx.post(serve_url + "/api/knock", json=body, timeout=120)
    assert r.status_code == 200, r.text
    doc = r.json()
    cli = _cli(*AV.argv("knock", body))
    _same(doc["advice"], cli)            # with no --worlds: stopped on the interval, a fixed schedule
    assert doc["argv"][0] == "knock" and doc["answer"] and doc["chart"] is None


BAD = [
    ({"hand": "AS 2S 3S 7H 7D 7C 9S 9D 9H 9H"}, "hand", "9H"),                  # a repeated card
    ({"hand": "AS 2S 3S 7H"}, "hand", "10"),                                    # the wrong number of cards
    ({"hand": "AS 2S 3S 7H 7D 7C 9S 9D 9H X"}, "hand", "joker"),                # not in Gin's pack
    ({"upcard": "9H"}, ("hand", "upcard"), "9H"),                               # the upcard is in the hand
    ({"history": "up 3H; 1:take 3H discard 3H"}, "history", ""),                # cannot have happened
    ({"budget": 0}, "budget", "budget"),
    ({"budget": "soon"}, "budget", "seconds"),
    ({"turn": 0}, "turn", "turn"),
    ({"bogus": 1}, "bogus", "no field"),
    ({"hand": ["AS", {"x": 1}]}, "hand", "expected text"),
]


@pytest.mark.parametrize("change,field,word", BAD)
def test_bad_input_is_a_422_beside_its_field(serve_url, change, field, word):
    r = httpx.post(serve_url + "/api/knock", json=dict(GIN, **change), timeout=120)
    assert r.status_code == 422, r.text
    doc = r.json()
    assert doc["field"] in (field if isinstance(field, tuple) else (field,)), doc
    assert word.lower() in doc["detail"].lower() and "\n" not in doc["detail"] and "Traceback" not in doc["detail"]


def test_a_body_that_is_not_fields_or_too_big(serve_url):
    assert httpx.post(serve_url + "/api/knock", content=b"{not json", timeout=30).status_code == 422
    assert httpx.post(serve_url + "/api/knock", json=[1, 2], timeout=30).status_code == 422
    big = httpx.post(serve_url + "/api/knock", json=dict(GIN, history="x" * 100_000), timeout=30)
    assert big.status_code == 413 and "KB" in big.json()["detail"]
    assert httpx.post(serve_url + "/api/jobs/nothing", json={}, timeout=30).status_code == 404


def test_the_stream_narrows_then_answers(serve_url):
    r = httpx.post(serve_url + "/api/jobs/knock", json=dict(GIN, budget=1.0), timeout=30)
    assert r.status_code == 202
    events = []
    with httpx.stream("GET", f"{serve_url}/api/jobs/{r.json()['job']}/events", timeout=60) as s:
        name = None
        for line in s.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
    kinds = [e for e, _ in events]
    assert kinds[0] in ("started", "queued") and kinds[-1] == "result" and "progress" in kinds
    worlds = [d["worlds"] for e, d in events if e == "progress"]
    assert worlds == sorted(worlds) and worlds[-1] == events[-1][1]["advice"]["worlds"]
    assert events[-1][1]["advice"]["diff"] == [d for e, d in events if e == "progress"][-1]["diff"]


@pytest.mark.slow
def test_a_meld_and_a_trace(serve_url):
    r = httpx.post(serve_url + "/api/meld", json={"variant": "wrotham", "hand": "6H 8S 9S", "table": "5H X 7H"}, timeout=120)
    assert r.status_code == 200 and r.json()["plan"] == _cli("meld", "--variant", "wrotham", "--hand", "6H 8S 9S",
                                                             "--table", "5H X 7H")
    r = httpx.post(serve_url + "/api/trace", json={"variant": "gin", "seed": 7, "hand": 12}, timeout=120)
    assert r.status_code == 200
    lines = subprocess.run([sys.executable, "-m", "analysis.cli", "trace", "--variant", "gin", "--seed", "7",
                            "--hand", "12", "--json"], capture_output=True, text=True, check=True).stdout
    assert r.json()["events"] == [json.loads(x) for x in lines.splitlines()]
    hand, table = "4S 5S 9H 9D 9C KD 2C", "AS 2S 3S | 7H 7D 7C"
    doc = httpx.post(serve_url + "/api/meld", json={"hand": hand, "table": table}, timeout=120).json()
    points = [o["points_left"] for o in doc["others"]]
    assert doc["others"] and points == sorted(points) and min(points) >= doc["plan"]["points_left"]
    for o in doc["others"]:                          # each: the command line's plan keeping that card
        cli = _cli("meld", "--hand", hand, "--table", table, "--keep", o["keep"])
        assert (o["plan"], o["points_left"]) == (cli["plan"], cli["points_left"])
    bad = httpx.post(serve_url + "/api/meld", json={"variant": "gin", "hand": "AS"}, timeout=60)
    assert bad.status_code == 422 and "open-melding" in bad.json()["detail"]


@pytest.mark.slow
def test_the_load_test_loses_nothing(serve_url):
    out = asyncio.run(loadtest.load(serve_url, asks=50, worlds=300, timeout=300))
    assert out["answered"] == 50 and out["lost"] == 0 and out["failed"] == 0 and out["same_answer"], out


# ---- the pool alone: queueing and cancelling on a job that only waits ----------------------

async def _events(job, until=("result", "error", "failed")):
    out = []
    while True:
        e, d = await asyncio.wait_for(job.events.get(), 60)
        out.append((e, d))
        if e in until:
            return out


@pytest.mark.slow
def test_jobs_wait_in_line_and_a_closed_page_cancels():
    async def go():
        pool = Pool(1)
        pool.start(asyncio.get_running_loop())
        try:
            a = pool.submit("sleep", {"steps": 40, "step_s": 0.05})
            b = pool.submit("sleep", {"steps": 2, "step_s": 0.01})
            c = pool.submit("sleep", {"steps": 2, "step_s": 0.01})
            assert (pool.place(a), pool.place(b), pool.place(c)) == (1, 2, 3)   # no worker ready yet
            pool.forget(b)                                   # a page closed while waiting: dropped
            assert pool.place(c) == 2 and b.done
            first = []
            while not first or first[-1][0] != "progress":
                first.append(await asyncio.wait_for(a.events.get(), 60))
            pool.forget(a)                                   # closed while running: stopped
            done_c = await _events(c)
            assert done_c[-1] == ("result", {"slept": True})
            assert ("queued", {"place": 1}) in done_c        # it moved up the line
            assert pool.busy == [None] and not pool.waiting
        finally:
            pool.stop()
    asyncio.run(go())


@pytest.mark.slow
def test_a_first_compile_says_so_once(tmp_path, monkeypatch):
    from analysis.serve import work
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))      # a cache that has compiled nothing
    said = []
    with work._first_compile("gin", "advisor", lambda *e: said.append(e)):
        pass
    assert said and said[0][0] == "note" and "compiling Gin's kernels" in said[0][1] and "about" in said[0][1]
    with work._first_compile("gin", "advisor", lambda *e: said.append(e)):
        pass
    assert len(said) == 1                                       # recorded: the next ask starts at once
