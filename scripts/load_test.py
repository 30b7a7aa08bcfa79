#!/usr/bin/env python3
"""A bounded load test of `rummylab serve` on loopback: N concurrent asks (a fixed count, default 50),
each a Gin knock question with a fixed number of worlds, sent at once; it stops by itself when every
one has answered (or after --timeout), and reports how many completed, were lost or failed, and the
p50/p95/max latency.

    python scripts/load_test.py                       # starts its own server (2 workers) on a free port
    python scripts/load_test.py --url http://127.0.0.1:8000 --asks 50 --worlds 500
    python scripts/load_test.py --json

Exit code 0 when every ask was answered with the same numbers as the first (the same seed and
worlds: common random numbers make them identical), 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

import httpx

STARTUP: dict[str, float] = {}     # the last started server: seconds to its first answer, to every worker ready
ASK = {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "turn": 6, "upcard": "5C", "seed": 1}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server(workers: int = 2, runs: str = "runs", reports: str = "reports", timeout: float = 120.0):
    """`rummylab serve` in a subprocess on a free loopback port, until every worker is ready;
    yields its URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "analysis.cli", "serve", "--port", str(port), "--workers", str(workers),
           "--runs", runs, "--reports", reports]
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"rummylab serve exited: {proc.stdout.read()}")
            try:
                st = httpx.get(url + "/api/status", timeout=2).json()
                STARTUP.setdefault("up_s", round(time.time() - t0, 3))
                if st["ready"] == st["workers"]:
                    STARTUP["ready_s"] = round(time.time() - t0, 3)
                    break
            except httpx.HTTPError:
                pass
            if time.time() - t0 > timeout:
                raise RuntimeError("rummylab serve did not get ready in time")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


async def _one(client, url, body):
    t0 = time.perf_counter()
    try:
        r = await client.post(url + "/api/knock", json=body)
        return r.status_code, (r.json() if r.status_code == 200 else r.text), time.perf_counter() - t0
    except httpx.HTTPError as e:
        return None, repr(e), time.perf_counter() - t0


async def load(url: str, asks: int, worlds: int, timeout: float) -> dict:
    body = dict(ASK, worlds=worlds)
    async with httpx.AsyncClient(timeout=timeout, limits=httpx.Limits(max_connections=asks)) as client:
        t0 = time.perf_counter()
        res = await asyncio.gather(*(_one(client, url, body) for _ in range(asks)))
        wall = time.perf_counter() - t0
    ok = [r for r in res if r[0] == 200]
    diffs = {json.dumps(r[1]["advice"]["diff"]) for r in ok}
    lat = sorted(r[2] for r in res)
    q = lambda p: lat[min(len(lat) - 1, int(round(p * (len(lat) - 1))))]   # noqa: E731
    return {"asks": asks, "worlds": worlds, "answered": len(ok), "failed": sum(r[0] not in (200, None) for r in res),
            "lost": sum(r[0] is None for r in res), "same_answer": len(diffs) == 1, "wall_s": round(wall, 3),
            "p50_s": round(q(0.50), 3), "p95_s": round(q(0.95), 3), "max_s": round(lat[-1], 3),
            "errors": sorted({str(r[1])[:200] for r in res if r[0] != 200})}


def timings(url: str, asks: int = 5) -> dict:
    """Warm latencies of the Ask page's request at the default budget, as the page makes it (start
    the job, read its event stream): to the first figures (the first ``progress``) and to the answer."""
    first, answer = [], []
    for k in range(asks):
        t0 = time.perf_counter()
        job = httpx.post(url + "/api/jobs/knock", json=dict(ASK, seed=k), timeout=60).json()["job"]
        seen = False
        with httpx.stream("GET", f"{url}/api/jobs/{job}/events", timeout=60) as s:
            for line in s.iter_lines():
                if line == "event: progress" and not seen:
                    seen = True
                    first.append(time.perf_counter() - t0)
                if line == "event: result":
                    answer.append(time.perf_counter() - t0)
                    break
    return {"timed_asks": asks, "first_figures_s": [round(x, 3) for x in first], "answer_s": [round(x, 3) for x in answer]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--asks", type=int, default=50, help="concurrent asks (default 50)")
    ap.add_argument("--worlds", type=int, default=500, help="worlds per ask (default 500)")
    ap.add_argument("--workers", type=int, default=2, help="the started server's workers (default 2)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before an ask counts as lost")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--timings", action="store_true",
                    help="also: the server's start-up and 5 warm asks' time to first figures and to the answer")
    a = ap.parse_args(argv)
    if a.url:
        out = asyncio.run(load(a.url, a.asks, a.worlds, a.timeout))
    else:
        with server(a.workers, runs=os.devnull, reports=os.devnull) as url:
            out = asyncio.run(load(url, a.asks, a.worlds, a.timeout))
            if a.timings:
                out.update(STARTUP, **timings(url))
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['answered']}/{out['asks']} answered ({out['failed']} failed, {out['lost']} lost), same answer: "
              f"{out['same_answer']}; {out['worlds']} worlds each; wall {out['wall_s']} s; latency p50 "
              f"{out['p50_s']} s, p95 {out['p95_s']} s, max {out['max_s']} s")
        if "answer_s" in out:
            print(f"server: answering after {out.get('up_s')} s, every worker ready after {out.get('ready_s')} s; "
                  f"warm asks at the default budget: first figures {out['first_figures_s']} s, answers "
                  f"{out['answer_s']} s")
    return 0 if out["answered"] == out["asks"] and out["same_answer"] else 1


if __name__ == "__main__":
    sys.exit(main())
