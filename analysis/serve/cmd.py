"""``rummylab serve``: the web app on this machine (:mod:`.app`)."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path

from ..args import add_command, whole

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand."""
    p = add_command(
        subparsers, "serve", help="ask \"should I knock?\" and watch a hand in the browser (a local web app)",
        description="""\
            Start the web app: Ask (should I knock here? for Gin, Knock Rummy, Ramino Klop and
            Tonk, the answer streaming in as the worlds come in), Meld (the open-melding
            planner), Watch a hand (step through a traced hand card by card) and the stored
            report and runs.  It listens on this machine only unless --host says otherwise;
            the app has no login.  It prints its address and opens nothing.""",
        epilog="""
            rummylab serve                      # then open http://127.0.0.1:8000/
            rummylab serve --port 8080 --runs runs/demo --reports reports
            rummylab serve --workers 1          # one job at a time, the rest wait in line
        """)
    p.add_argument("--port", type=whole("--port", 1, 65535), default=8000, help="port (default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--runs", type=Path, default=Path("runs"),
                   help="the stored runs to list under /runs, and whose knock charts the Ask pages read "
                        "(default runs/)")
    p.add_argument("--reports", type=Path, default=Path("reports"),
                   help="the report pages to serve under /report (default reports/)")
    p.add_argument("--workers", type=whole("--workers", 1, 64), default=None,
                   help="worker processes for asks and replays (default: one per core)")
    p.set_defaults(func=cmd_serve)
    return p


def _loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args) -> int:
    try:
        import uvicorn
        from .app import Config, create_app
    except ImportError as e:
        print(f"rummylab: error: `rummylab serve` needs {e.name}, one of rummylab's dependencies: "
              "reinstall rummylab (pip install rummylab)", file=sys.stderr)
        return 2
    if not _loopback(args.host):
        print(f"rummylab: warning: listening on {args.host}: anyone who can reach it can use the app, "
              "which has no login", file=sys.stderr)
    app = create_app(Config(runs=args.runs, reports=args.reports, workers=args.workers))
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"rummylab serve: http://{shown}:{args.port}/  (Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
