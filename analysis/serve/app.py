"""``rummylab serve``'s web app: the pages (Ask, Meld, Watch, Report) and the JSON API behind them.

:func:`create_app` builds it for a :class:`Config`; the jobs run in :mod:`.pool`'s workers, the
stored report and runs are :mod:`.files`'s.  Nothing is fetched from outside the machine: the
pages' script and style are this package's ``static/`` files.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from . import api, files, watch
from .examples import ASK_EXAMPLES, ASK_GAMES, MELD_EXAMPLES, MELD_GAMES
from .pool import Pool
from .watch import MAX_UPLOAD

HERE = Path(__file__).parent
MAX_BODY = 64 * 1024              # a form's JSON body


@dataclass(frozen=True)
class Config:
    runs: Path = Path("runs")
    reports: Path = Path("reports")
    workers: int | None = None


def templates() -> Jinja2Templates:
    t = Jinja2Templates(directory=str(HERE / "templates"))
    t.env.globals.update(ask_games=ASK_GAMES, meld_games=MELD_GAMES, title=_title)
    return t


def _title(game: str) -> str:
    from analysis.coldstart import TITLES
    return TITLES.get(game, game)


def create_app(config: Config = Config()) -> FastAPI:
    pool = Pool(config.workers)

    @asynccontextmanager
    async def life(app: FastAPI):
        pool.start(asyncio.get_running_loop())
        yield
        pool.stop()

    app = FastAPI(title="rummylab", lifespan=life, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.pool, app.state.config, app.state.templates = pool, config, templates()
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.middleware("http")(_cap_body)
    app.include_router(api.router)
    app.include_router(files.router)
    app.include_router(watch.router)
    _pages(app)
    return app


async def _cap_body(request: Request, call_next):
    """Refuse a body over the cap before reading it (413, one sentence)."""
    cap = MAX_UPLOAD if request.url.path.startswith("/api/trace/upload") else MAX_BODY
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > cap):
        return JSONResponse({"detail": f"the request is over {cap // 1024} KB", "field": None}, status_code=413)
    return await call_next(request)


def _pages(app: FastAPI) -> None:
    t = app.state.templates

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request):
        return t.TemplateResponse(request, "home.html", {})

    @app.get("/ask/{game}", response_class=HTMLResponse)
    async def ask(request: Request, game: str):
        if game not in ASK_GAMES:
            return t.TemplateResponse(request, "missing.html", {"what": f"no Ask page for {game!r}"},
                                      status_code=404)
        from sim.variants import get_variant
        v = get_variant(game)
        return t.TemplateResponse(request, "ask.html", {
            "game": game, "pack": api.pack_of(game), "presets": api.presets_of(game),
            "models": v.advisor.opp_models, "players": v.default_players, "example": ASK_EXAMPLES[game],
            "form": api.ask_form(game)})

    @app.get("/meld", response_class=HTMLResponse)
    async def meld(request: Request, game: str = "basic-rummy"):
        if game not in MELD_GAMES:
            game = "basic-rummy"
        from sim.variants import get_variant
        return t.TemplateResponse(request, "meld.html", {
            "game": game, "pack": api.pack_of(game), "players": get_variant(game).default_players,
            "example": MELD_EXAMPLES[game]})

    @app.get("/watch", response_class=HTMLResponse)
    async def watch(request: Request):
        from sim.variants import available
        return t.TemplateResponse(request, "watch.html", {"games": available()})
