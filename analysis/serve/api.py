"""The JSON API: start a job and stream its events (server-sent events), or ask and wait.

* ``POST /api/jobs/{kind}`` (``knock``, ``meld``, ``trace``) with the command's fields as JSON:
  202 ``{"job": id, "place": k}``, or 422 ``{"detail": one sentence, "field": name}`` when the
  command line's parser refuses them;
* ``GET /api/jobs/{id}/events``: ``queued`` (``place``), ``started``, ``note`` (a first compile),
  ``progress`` (the advisor's interval as the worlds come in), then ``result`` or ``error``;
  closing the stream cancels the job;
* ``POST /api/knock``, ``/api/meld``, ``/api/trace``: the same, waiting for the answer: 200 with
  the result (``advice`` is ``rummylab knock --json``'s document), 422 for bad input.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from . import argv as AV
from .pool import DONE

router = APIRouter()
KINDS = AV.COMMANDS
UNHEARD_S = 15.0          # a job whose events nobody opens within this long is cancelled
KEEPALIVE_S = 10.0


def _bad(message: str, field: str | None = None, status: int = 422) -> JSONResponse:
    return JSONResponse({"detail": message, "field": field}, status_code=status)


async def _params(request: Request) -> dict | JSONResponse:
    try:
        body = json.loads(await request.body() or b"{}")
    except (ValueError, UnicodeDecodeError):
        return _bad("the request body is not JSON")
    if not isinstance(body, dict):
        return _bad("the request body is not a JSON object of fields")
    return body


async def _start(request: Request, kind: str):
    """The job of the request's fields (checked by the command's parser first), or a 422."""
    params = await _params(request)
    if isinstance(params, JSONResponse):
        return params
    if kind not in KINDS:
        return _bad(f"no job kind {kind!r}; the kinds are {', '.join(KINDS)}", None, 404)
    try:
        AV.parse(kind, params)
    except AV.FieldError as e:
        return _bad(str(e), e.field)
    return request.app.state.pool.submit(kind, params)


@router.post("/api/jobs/{kind}")
async def start_job(request: Request, kind: str):
    job = await _start(request, kind)
    if isinstance(job, JSONResponse):
        return job
    pool = request.app.state.pool
    asyncio.get_running_loop().call_later(UNHEARD_S, lambda: None if job.heard else pool.forget(job))
    return JSONResponse({"job": job.id, "place": pool.place(job)}, status_code=202)


@router.get("/api/jobs/{job_id}/events")
async def job_events(request: Request, job_id: int):
    pool = request.app.state.pool
    job = pool.jobs.get(job_id)
    if job is None:
        return _bad(f"no job {job_id} (it finished, or was cancelled)", None, 404)
    job.heard = True

    async def stream():
        try:
            yield "retry: 86400000\n\n"     # the stream ends after the last event: no reconnecting
            if pool.place(job):
                yield _sse("queued", {"place": pool.place(job)})
            while True:
                try:
                    event, data = await asyncio.wait_for(job.events.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if event == "result" and job.kind == "knock":
                    data = await _with_chart(request, data)
                yield _sse(event, data)
                if event in DONE:
                    return
        finally:
            pool.forget(job)        # read to the end, or the page has gone: a running job is cancelled
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _sse(event: str, data) -> str:
    from analysis.json_text import dumps
    return f"event: {event}\ndata: {dumps(data, compact=True)}\n\n"


async def _wait(request: Request, kind: str):
    job = await _start(request, kind)
    if isinstance(job, JSONResponse):
        return job
    job.heard = True
    try:
        while True:
            event, data = await job.events.get()
            if event == "result":
                if kind == "knock":
                    data = await _with_chart(request, data)
                return JSONResponse(_strict(data))
            if event == "error":
                return _bad(data["message"], data["field"])
            if event == "failed":
                return _bad(data, None, 500)
    finally:
        request.app.state.pool.forget(job)     # answered, or the client left before the answer


async def _with_chart(request: Request, data: dict) -> dict:
    """A knock answer with what the stored knock chart says for its turn and deadwood."""
    from .chart import chart_says
    cfg = request.app.state.config
    try:
        chart = await asyncio.to_thread(chart_says, cfg.runs, cfg.reports, data["advice"])
    except Exception as e:    # noqa: BLE001 - a damaged store: the answer stands, the chart is left out
        chart = {"error": f"the stored knock chart could not be read: {e}"}
    return {**data, "chart": chart}


def _strict(doc):
    from analysis.json_text import finite
    return finite(doc)


@router.post("/api/knock")
async def knock(request: Request):
    return await _wait(request, "knock")


@router.post("/api/meld")
async def meld(request: Request):
    return await _wait(request, "meld")


@router.post("/api/trace")
async def trace(request: Request):
    return await _wait(request, "trace")


@router.get("/api/status")
async def status(request: Request):
    pool = request.app.state.pool
    return {"workers": pool.n, "ready": len(pool.ready), "running": sum(j is not None for j in pool.busy),
            "waiting": len(pool.waiting)}


def pack_of(game: str) -> list[str]:
    """The distinct card texts of ``game``'s pack, suit by suit, then ``X`` where the game has
    jokers (the advisor's pack; an open game's joker has a value), for the card picker."""
    from sim.core.cards import JOKER, RANK_CHARS, SUIT_CHARS
    from sim.variants import get_variant
    v = get_variant(game)
    if v.advisor is not None:
        jokers = v.advisor.jokers > 0
    else:
        jokers = v.meld_setup is not None and v.meld_setup(v.rules_cls.from_options([])).vals[JOKER] > 0
    return [r + s for s in SUIT_CHARS for r in RANK_CHARS] + (["X"] if jokers else [])


def presets_of(game: str) -> list[str]:
    """The strategy presets ``game`` offers (the opponent and strategy fields' choices)."""
    from sim.strategies import PRESETS, has_preset
    has_preset(game, "simple")       # loads the families and the tuned presets
    return sorted(n for v, n in PRESETS if v == game)


def ask_form(game: str) -> dict:
    """What ``game``'s Ask form shows, read from its advisor declaration (``ADVISOR``): the
    position at the start of the turn or after the discard, the options it takes (the ones it
    does not refuse), a players field unless it has one opponent, the copies of a card in its pack."""
    import importlib
    from sim.variants import get_variant
    spec = get_variant(game).advisor
    g = importlib.import_module(spec.module).ADVISOR
    refused = {r[0] for r in g.refuses}
    return {"start_of_turn": g.start_of_turn, "players": not g.single_opponent, "copies": spec.packs,
            "takes": {o for o in ("spreads", "first_upcard", "opp_cards", "history") if o not in refused}}
