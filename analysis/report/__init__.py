"""HTML + PNG report rendered from stored runs (never re-simulates).

``rummylab report runs/gin-knock runs/tonk-odds runs/gin-simple --html reports/index.html``
writes one self-contained HTML file (inline CSS, PNG figures embedded as base64 data URIs, no
scripts, fonts or CDNs) and the same PNGs beside it.  Each folder becomes one section, built by
the section registered for its study kind (:mod:`.registry`, :func:`detect`):

* ``knock_sweep`` (:mod:`.sweep`, ``sweep.json``): the sweep curve with the paired difference
  to the best arm, games won, the knock chart and its tables;
* ``tonk_odds`` (:mod:`.odds`, ``odds.json``): exact vs simulated tonk-on-the-deal probabilities;
* ``strategy_compare`` (:mod:`.compare`, ``compare.json``): seat 0's strategies on the same
  deals by player count and rule setting (``rummylab compare``);
* ``run`` (:mod:`.run`, ``meta.json`` with ``columns``): a single ``rummylab simulate`` run:
  seats, positions, outcome mix and hand length, every estimate with its 95% CI.

Every module of this package is imported here, so a new study kind is one new module that
registers its section with ``@section(...)``.  Every number comes from the stored totals (exact
integer moments) through ``analysis.stats``; from ``sim`` only the game declarations
(``sim.variants``) are read, the engine is never called.

API: :func:`build_report` (figures with their metadata + HTML sections), :func:`write_report`,
:func:`render_report` (both at once), and ``add_parser``/``cmd`` for the CLI.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path

from ..store import StoreError, atomic_write
from .figures import DPI, FigureInfo
from .html import CSS, METHODS_TEXT, esc, report_html, slug
from .odds import ODDS_KEYS, QUANTITY_LABELS
from .registry import SECTIONS, RunSection, SectionKind, detect, section
from .sweep import DECISION_MARK
from .workers import build_sections

for _module in pkgutil.iter_modules(__path__):   # every section module registers itself
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["CSS", "DECISION_MARK", "DPI", "METHODS_TEXT", "ODDS_KEYS", "QUANTITY_LABELS", "SECTIONS",
           "FigureInfo", "Report", "RunSection", "SectionKind", "add_parser", "build_report", "cmd",
           "detect", "esc", "render_report", "report_html", "section", "write_report"]


@dataclass
class Report:
    """The rendered report: one section per folder, in the order given."""
    title: str
    sections: list[RunSection]
    run_dirs: list[str]
    methods: list[str] = field(default_factory=list)   # methods HTML of the kinds present
    default_title: bool = False                         # no title given: the site names its topics

    @property
    def figures(self) -> list[FigureInfo]:
        return [f for s in self.sections for f in s.figures]


def build_report(run_dirs: list[str], title: str | None = None, jobs: int = 1) -> Report:
    """Read every folder and render its figures (PNG bytes in memory) and HTML sections, the
    folders on ``jobs`` processes (-1: every core; :func:`.workers.build_sections`)."""
    if not run_dirs:
        raise StoreError("give at least one results folder")
    if any(not str(d).strip() for d in run_dirs):
        raise StoreError(f"a results folder name is empty: {' '.join(repr(str(d)) for d in run_dirs)}")
    kinds = [detect(d) for d in run_dirs]   # fail before any rendering
    tasks, used = [], set()
    for d, kind in zip(run_dirs, kinds):
        anchor = base = slug(Path(d).resolve().name)
        k = 2
        while anchor in used:
            anchor, k = f"{base}-{k}", k + 1
        used.add(anchor)
        tasks.append((kind, str(d), anchor))
    sections = build_sections(tasks, jobs)
    names = ", ".join(Path(d).resolve().name for d in run_dirs)
    methods = [SECTIONS[k].methods for k in dict.fromkeys(kinds) if SECTIONS[k].methods]
    return Report(title or f"rummylab report: {names}", sections, [str(d) for d in run_dirs], methods,
                  default_title=title is None)


def _write_atomic(path: Path, data: bytes) -> None:
    umask = os.umask(0)
    os.umask(umask)
    atomic_write(path, data, mode=0o666 & ~umask)   # mkstemp makes 0600; reports are meant to be shared


def write_site(report: Report, html_path, jobs: int = 1) -> list[str]:
    """The report as pages (:mod:`.site`): ``html_path`` the landing page of answers, a page per
    game, balance and methods beside it, the PNGs beside them; returns the PNG paths."""
    from .site import write_site as _site
    return _site(report, html_path, _write_atomic, jobs)


def write_report(report: Report, html_path) -> list[str]:
    """The one-file version (``--self-contained``): every section on one page, the figures
    embedded as base64; the PNGs also beside ``html_path`` (named ``<run>-<figure>.png``)."""
    html_path = Path(html_path)
    out_dir = html_path.parent
    from .site import write_figures
    paths = write_figures(report.figures, out_dir, _write_atomic)
    _write_atomic(html_path, report_html(report).encode("utf-8"))
    return paths


def render_report(run_dirs: list[str], html_path: str, title: str | None = None,
                  self_contained: bool = False, jobs: int = 1) -> list[str]:
    """Render stored runs into the pages of :func:`write_site` (``self_contained``: one HTML file,
    :func:`write_report`), the figures drawn on ``jobs`` processes; returns the PNG paths written."""
    rep = build_report(run_dirs, title, jobs)
    return write_report(rep, html_path) if self_contained else write_site(rep, html_path, jobs)


# ----------------------------------------------------------------------------------------
# CLI

def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "report", help="render stored runs into HTML pages of answers with PNG plots (never re-simulates)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Render results folders (knock sweeps, tonk odds, simulate runs with --out, ...) into a "
                    "landing page of answers, a page per game, a balance and a methods page (or, with "
                    "--self-contained, one HTML file with the figures embedded); the PNGs go beside the pages.",
        epilog="examples:\n"
               "  rummylab report runs/gin-knock --html reports/index.html\n"
               "  rummylab report runs/gin-knock runs/tonk-knock runs/tonk-odds --html reports/index.html\n"
               "  rummylab report runs/gin-simple --html reports/gin.html --title \"Gin baseline\"\n"
               "  rummylab report runs/demo/* --html reports/mail.html --self-contained")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR",
                   help="results folders: knock-sweep --out, simulate --out, or a tonk odds folder")
    from ..args import out_file
    p.add_argument("--html", type=out_file("--html"), default="reports/index.html", metavar="FILE",
                   help="HTML file to write; PNGs go beside it (default reports/index.html)")
    p.add_argument("--title", default=None, help="report title (default: names the topics and games)")
    p.add_argument("--self-contained", action="store_true",
                   help="one HTML file with every section and the figures embedded (for mailing), "
                        "instead of the landing page, a page per game, balance and methods")
    from ..args import jobs_arg
    p.add_argument("--jobs", type=jobs_arg, default=-1,
                   help="processes drawing the figures; -1 = all cores (default)")
    p.set_defaults(func=cmd)
    return p


def cmd(args) -> int:
    pngs = render_report(args.runs, args.html, title=args.title, self_contained=args.self_contained,
                         jobs=args.jobs)
    what = "one self-contained page" if args.self_contained else "the landing page; the other pages beside it"
    print(f"wrote {args.html} ({what}; {len(pngs)} figure{'' if len(pngs) == 1 else 's'} as PNG beside it)")
    for p in pngs:
        print(f"  {p}")
    return 0
