"""The report as a small site: a landing page of answers, a page per game, the cross-game
balance page and the methods page, all with the same navigation; the figures are PNG files
beside the pages, lazy-loaded.  The sections are the study modules' own (:mod:`.registry`);
this module only arranges them into pages and leads with their answer sentences
(each study's ``*_answer``, in :mod:`analysis.wording`'s words)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .html import CSS, METHODS_TEXT, esc, html_table, section_html, slug
from .provenance import provenance, simulated_line

if TYPE_CHECKING:
    from . import Report

SITE_CSS = """
nav.site{display:flex;flex-wrap:wrap;gap:.15rem .9rem;align-items:baseline;padding:.45rem 0 .55rem;
 border-bottom:1px solid #ddd;font-size:.92rem}
nav.site a{color:#1a5fb4;text-decoration:none}
nav.site a[aria-current]{color:#1d1d1f;font-weight:700}
nav.site .sep{color:#999}
p.sim{color:#444;font-size:.92rem;margin:.3rem 0 .8rem}
.answer{display:grid;grid-template-columns:minmax(0,1fr) 240px;gap:.4rem 1.1rem;align-items:start;
 padding:.55rem 0 .7rem;border-bottom:1px solid #eee}
.answer h3{font-size:1rem;margin:0 0 .15rem}
.answer p{margin:.15rem 0}
.answer .thumb img{display:block;width:100%;height:auto;border:1px solid #ddd}
.answer .more{font-size:.88rem}
section.group h2{margin-top:1.4rem}
ul.toc{padding-left:1.2rem}
@media (max-width:640px){.answer{grid-template-columns:minmax(0,1fr)}.answer .thumb{max-width:320px}
 main{padding:1rem .8rem 2rem}}
"""

GROUPS = (("knock", "When to knock"), ("odds", "Tonk on the deal"), ("balance", "Balance across games"),
          ("melding", "Open melding and wild cards"), ("runs", "Seat edges of single runs"), ("other", "Other studies"))
TOPICS = {"knock": "when to knock", "odds": "tonk odds", "balance": "balance"}
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
INDEX, BALANCE, METHODS = "index.html", "balance.html", "methods.html"


@dataclass
class Page:
    file: str
    label: str        # its name in the navigation
    title: str
    sections: list


def default_title(report: Report, n_games: int) -> str:
    groups = {s.group for s in report.sections}
    topics = [t for g, t in TOPICS.items() if g in groups] or ["stored studies"]
    said = topics[0] if len(topics) == 1 else ", ".join(topics[:-1]) + " and " + topics[-1]
    count = NUMBER_WORDS[n_games] if n_games < len(NUMBER_WORDS) else f"{n_games:,}"
    return f"rummylab: {said} for {count} rummy game{'s' if n_games != 1 else ''}"


def plan_pages(report: Report, index_name: str) -> list[Page]:
    """Pages in navigation order: the answers, one per game (in the order the games first
    appear), balance (sections of no game), methods."""
    games = list(dict.fromkeys(s.game for s in report.sections if s.game))
    taken = {index_name, BALANCE, METHODS}
    pages = [Page(index_name, "Answers", "", [])]
    for g in games:
        file = f"{slug(g)}.html"
        file = file if file not in taken else f"{slug(g)}-studies.html"
        taken.add(file)
        pages.append(Page(file, g, f"{g}: the studies", [s for s in report.sections if s.game == g]))
    rest = [s for s in report.sections if not s.game]
    if rest:
        pages.append(Page(BALANCE, "Balance", "Balance across games", rest))
    pages.append(Page(METHODS, "Methods", "Methods: how the numbers are made", []))
    return pages


def nav_html(pages: list[Page], current: str) -> str:
    links = []
    for k, p in enumerate(pages):
        cur = " aria-current=\"page\"" if p.file == current else ""
        sep = "<span class=\"sep\">games:</span>" if k == 1 and len(pages) > 3 else ""
        links.append(f"{sep}<a href=\"{esc(p.file)}\"{cur}>{esc(p.label)}</a>")
    return "<nav class=\"site\" aria-label=\"pages\">" + "".join(links) + "</nav>"


def page_html(title: str, nav: str, body: list[str], footer: str) -> str:
    return "\n".join(["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
                      "<meta name=\"generator\" content=\"rummylab report\">", f"<title>{esc(title)}</title>",
                      f"<style>{CSS}{SITE_CSS}</style>", "</head>", "<body>", "<main>", nav, *body,
                      f"<footer>{footer}</footer>", "</main>", "</body>", "</html>", ""])


def _where(pages: list[Page]) -> dict[str, str]:
    """Section anchor -> the page it is on."""
    return {s.anchor: p.file for p in pages for s in p.sections}


THUMB_PX = 400     # the landing page's figures: at most this wide (240 px shown; sharper on dense screens)


def thumbnail(png: bytes) -> tuple[bytes, int, int]:
    """A figure's PNG scaled down to :data:`THUMB_PX` wide (the landing page's small figure)."""
    import io

    from PIL import Image
    im = Image.open(io.BytesIO(png))
    im.thumbnail((THUMB_PX, THUMB_PX * 4), Image.LANCZOS)
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True)
    return buf.getvalue(), im.width, im.height


def answer_html(s, href: str, thumbs: dict) -> str:
    """One answer on the landing page: the question (linking to the detail), its sentences,
    the section's first figure small, and the landing-page extra (the balance table)."""
    fig = s.figures[0] if s.figures else None
    if fig:
        name, w, h = thumbs[fig.name]
    thumb = (f"<a class=\"thumb\" href=\"{esc(href)}\"><img src=\"{esc(name)}\" width=\"{w}\" "
             f"height=\"{h}\" alt=\"{esc(fig.title)}\" loading=\"lazy\" decoding=\"async\"></a>"
             if fig else "<span></span>")
    text = "".join(f"<p>{esc(t)}</p>" for t in s.answer)
    return (f"<article class=\"answer\"><div><h3><a href=\"{esc(href)}\">{esc(s.heading)}</a></h3>{text}"
            f"{s.summary}<p class=\"more\"><a href=\"{esc(href)}\">details: figures, tables, all rows</a> "
            f"<span class=\"small\">(stored in <code>{esc(Path(s.folder).name)}</code>)</span></p></div>"
            f"{thumb}</article>")


def landing_body(report: Report, pages: list[Page], pv, thumbs: dict) -> list[str]:
    where = _where(pages)
    out = [f"<h1>{esc(report.title)}</h1>", f"<p class=\"sim\">{esc(simulated_line(pv))} Rendered from "
           f"{len(report.sections)} stored folders, nothing re-simulated; every interval is 95%, "
           f"<a href=\"{METHODS}\">methods</a>.</p>"]
    order = {g: k for k, g in enumerate(dict.fromkeys(s.game for s in report.sections))}
    for group, heading in GROUPS:
        secs = sorted((s for s in report.sections if s.group == group and s.answer),
                      key=lambda s: order[s.game])
        if not secs:
            continue
        out.append(f"<section class=\"group\" id=\"answers-{group}\"><h2>{esc(heading)}</h2>")
        out += [answer_html(s, f"{where[s.anchor]}#{s.anchor}", thumbs) for s in secs]
        out.append("</section>")
    return out


def game_body(page: Page, report: Report) -> list[str]:
    out = [f"<h1>{esc(page.title)}</h1>",
           "<p class=\"lead\">The questions studied, each answered first in words, then in figures and tables "
           "(the rows that matter first; the others behind “show all”).</p>",
           "<ul class=\"toc\">" + "".join(f"<li><a href=\"#{esc(s.anchor)}\">{esc(s.heading)}</a></li>"
                                          for s in page.sections) + "</ul>"]
    extra = [b.per_game[page.label] for b in report.sections if page.label in getattr(b, "per_game", {})]
    if extra:
        out.append(f"<h2 id=\"balance-{slug(page.label)}\">Balance of {esc(page.label)}</h2>")
        out += extra
    for s in page.sections:
        said = "".join(b for b in s.body if isinstance(b, str))
        lead = "" if s.answer and esc(s.answer[-1]) in said else \
            "".join(f"<p><strong>{esc(t)}</strong></p>" for t in s.answer)   # unless the section leads with it
        out.append(section_html(s, embed=False, methods_href=f"{METHODS}#m-{s.anchor}", lead=lead))
    return out


def methods_body(report: Report, pages: list[Page], pv) -> list[str]:
    from ..studies.sequential import __doc__ as seq_doc
    first = (seq_doc or "").split("\n\n")[0].replace("\n", " ")
    out = ["<h1>Methods: how the numbers are made</h1>", METHODS_TEXT, *report.methods,
           "<h2 id=\"advisor\">The sequential advisor</h2>",
           f"<p>{esc(first)} The advisor (<code>rummylab knock</code>) uses the asymptotic confidence sequence of "
           "Waudby-Smith, Arnold, Wu, Ramdas &amp; Howard (2021), so its interval and its call stay valid "
           "whenever it stops (see <code>analysis/studies/sequential.py</code>).</p>",
           *_demo_sizes(report),
           "<h2 id=\"provenance\">Seeds, rules versions and commits of the stored runs</h2>",
           f"<p>{esc(simulated_line(pv))}</p>"]
    rows = [[f"<code>{esc(r['folder'])}</code>", esc(", ".join(sorted(r["variants"]))), f"{r['hands']:,}",
             f"{r['games']:,}", f"{r['deals']:,}", esc(r["seed"]), esc("; ".join(sorted(r["rules_versions"])) or "–"),
             f"<code>{esc(', '.join(sorted(r['commits'])))}</code>"] for r in pv.folders]
    out.append(html_table(["folder", "games", "hands simulated", "whole games", "tonk deals", "seed",
                           "rules versions", "commit"], rows, numeric={2, 3, 4, 5}, limit=None,
                          caption="Every stored folder of this report (all stages and arms counted)."))
    where = _where(pages)
    for s in report.sections:
        out.append(f"<h3 id=\"m-{esc(s.anchor)}\"><a href=\"{esc(where[s.anchor])}#{esc(s.anchor)}\">"
                   f"{esc(s.heading)}</a></h3>")
        out.append(f"<p class=\"small\">Folder: <code>{esc(s.folder)}</code></p>")
        out.extend(s.methods)
    return out


def _demo_sizes(report: Report) -> list[str]:
    """The default study's sample-size note, when the report holds its first study."""
    if not any(Path(s.folder).name == "gin-knock" for s in report.sections):
        return []
    from ..demo_sizes import sizes_note
    return ["<h2 id=\"demo-sizes\">Sample sizes of the default study</h2>", f"<p>{esc(sizes_note())}</p>"]


def write_figures(figures, out_dir: Path, write) -> list[str]:
    """Every figure's PNG as ``out_dir/<name>.png`` (with ``write(path, bytes)``), its ``path``
    set; returns the paths."""
    paths = []
    for f in figures:
        p = out_dir / f"{f.name}.png"
        write(p, f.png)
        f.path = str(p)
        paths.append(str(p))
    return paths


def write_thumbnails(report: Report, out_dir: Path, write, jobs: int = 1) -> tuple[dict, list[str]]:
    """The landing page's small figures (the first of each section with an answer) as
    ``out_dir/<name>-small.png``, scaled on ``jobs`` processes; returns figure name ->
    (file, width, height) and the paths."""
    from .workers import run_all
    firsts = [s.figures[0] for s in report.sections if s.answer and s.figures]
    thumbs, paths = {}, []
    for f, (png, w, h) in zip(firsts, run_all(thumbnail, [(f.png,) for f in firsts], jobs)):
        write(out_dir / f"{f.name}-small.png", png)
        thumbs[f.name] = (f"{f.name}-small.png", w, h)
        paths.append(str(out_dir / f"{f.name}-small.png"))
    return thumbs, paths


def write_site(report: Report, index_path, write, jobs: int = 1) -> list[str]:
    """Write the PNGs and every page beside ``index_path`` (with ``write(path, bytes)``; the
    thumbnails scaled on ``jobs`` processes); returns the paths of the PNGs."""
    index_path = Path(index_path)
    out_dir = index_path.parent
    pv = provenance(report.run_dirs)
    if report.default_title:
        report.title = default_title(report, len(pv.games))
    pages = plan_pages(report, index_path.name)
    pngs = write_figures(report.figures, out_dir, write)
    thumbs, small = write_thumbnails(report, out_dir, write, jobs)
    pngs += small
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    footer = (f"Generated by <code>rummylab report</code> on {stamp} from stored runs only; "
              f"<a href=\"{METHODS}#provenance\">what was run</a>.")
    for p in pages:
        if p.file == index_path.name:
            title, body = report.title, landing_body(report, pages, pv, thumbs)
        elif p.file == METHODS:
            title, body = p.title, methods_body(report, pages, pv)
        else:
            title, body = p.title, game_body(p, report)
        write(out_dir / p.file, page_html(title, nav_html(pages, p.file), body, footer).encode("utf-8"))
    return pngs
