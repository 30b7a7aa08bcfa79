"""HTML building blocks of the report: escaping, number formatting, tables, the stylesheet,
the shared methods text and the assembly of the page."""

from __future__ import annotations

import base64
import datetime as _dt
import html
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..stats import Estimate
from .figures import FigureInfo

if TYPE_CHECKING:
    from . import Report


def esc(x) -> str:
    """``x`` as text safe inside HTML (quotes too)."""
    return html.escape(str(x), quote=True)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "run"


def digits(values, sig: int = 2, lo: int = 1, hi: int = 5) -> int:
    """Decimals that show ``sig`` significant digits of the typical (median) magnitude."""
    mags = sorted(abs(v) for v in values if v is not None and math.isfinite(v) and v != 0)
    if not mags:
        return lo + 1
    m = mags[len(mags) // 2]
    return max(lo, min(hi, sig - 1 - math.floor(math.log10(m))))


def est_html(e: Estimate, d: int, pct: bool = False, sign: bool = False) -> str:
    p = e.parts(d, pct, sign)
    return "n/a" if p is None else f"{p[0]} <span class=\"ci\">[{p[1]}, {p[2]}]</span>"


SHOW_ROWS = 12                                # rows a table shows before "show all"
KEY_CLASSES = {"best", "same", "flag", "boundary"}   # rows that matter: shown first


def key_rows(rows: list, row_classes: list[str] | None, key: list[bool] | None, limit: int | None) -> list[bool]:
    """Which rows a table shows at once: all when they fit in ``limit``; else the rows ``key``
    marks (default: the best, those indistinguishable from it, flags and chart boundaries),
    or the first ``limit`` when none is marked."""
    if limit is None or len(rows) <= limit:
        return [True] * len(rows)
    if key is None:
        key = [bool(row_classes and set((row_classes[k] or "").split()) & KEY_CLASSES) for k in range(len(rows))]
    if not any(key):
        key = [k < limit for k in range(len(rows))]
    return list(key)


def _tbody(header, rows, row_classes, numeric, nowrap, caption, pick) -> str:
    out = ["<div class=\"scroll\"><table>"]
    if caption:
        out.append(f"<caption>{caption}</caption>")
    out.append("<thead><tr>" + "".join(f"<th scope=\"col\">{h}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for k, r in enumerate(rows):
        if not pick[k]:
            continue
        cls = row_classes[k] if row_classes and row_classes[k] else ""
        tr = f"<tr class=\"{cls}\">" if cls else "<tr>"
        out.append(tr + "".join(f"<td class=\"num\">{c}</td>" if i in numeric else
                                (f"<td class=\"nowrap\">{c}</td>" if i in nowrap else f"<td>{c}</td>")
                                for i, c in enumerate(r)) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def html_table(header: list[str], rows: list[list[str]], row_classes: list[str] | None = None,
               caption: str | None = None, numeric: set[int] | None = None, nowrap: set[int] | None = None,
               limit: int | None = SHOW_ROWS, key: list[bool] | None = None) -> str:
    """An HTML table; cells are already-escaped HTML; ``numeric`` columns are right-aligned.
    Longer than ``limit`` rows: the rows that matter (:func:`key_rows`) first, the others
    behind a "show all" (``<details>``), each row once."""
    numeric = numeric or set()
    nowrap = nowrap or set()
    shown = key_rows(rows, row_classes, key, limit)
    out = _tbody(header, rows, row_classes, numeric, nowrap, caption, shown)
    rest = shown.count(False)
    if rest:
        note = "The other rows of the table above."
        out += (f"\n<details class=\"more\"><summary>show all {len(rows)} rows ({rest} more)</summary>\n"
                + _tbody(header, rows, row_classes, numeric, nowrap, note, [not s for s in shown]) + "\n</details>")
    return out


def kv_table(pairs: list[tuple[str, str]], caption: str | None = None) -> str:
    out = ["<div class=\"scroll\"><table class=\"kv\">"]
    if caption:
        out.append(f"<caption>{caption}</caption>")
    out.append("<tbody>")
    for k, v in pairs:
        out.append(f"<tr><th scope=\"row\">{esc(k)}</th><td>{v}</td></tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def params_text(d: dict) -> str:
    return ", ".join(f"{k}={_g(v)}" for k, v in d.items())


def _g(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
 line-height:1.5;color:#1d1d1f;background:#fafafa}
main{max-width:1080px;margin:0 auto;padding:1.5rem 1.25rem 3rem;background:#fff}
h1{font-size:1.7rem;margin:.2rem 0 .5rem}
h2{font-size:1.35rem;margin:2.2rem 0 .6rem;padding-top:.6rem;border-top:2px solid #ddd}
h3{font-size:1.1rem;margin:1.6rem 0 .5rem}
h4{font-size:1rem;margin:1.2rem 0 .4rem}
p.lead{color:#444}
nav ul{margin:.3rem 0;padding-left:1.3rem}
figure{margin:1rem 0 1.2rem}
figure img{display:block;max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.9rem;color:#444;margin-top:.35rem}
.scroll{overflow-x:auto;max-width:100%;margin:.6rem 0 1rem}
.scroll th:first-child,.scroll td:first-child{position:sticky;left:0;background:#fff;z-index:1}
.scroll thead th:first-child{background:#eef0f3}
details.more{margin:-.4rem 0 1rem}
details.more summary{cursor:pointer;color:#1a5fb4;font-size:.9rem}
p,li,figcaption,caption,h1,h2,h3,h4{overflow-wrap:anywhere}
.ns{color:#8a5a00;font-size:.85em;white-space:nowrap}
table{border-collapse:collapse;font-size:.88rem}
caption{text-align:left;font-size:.88rem;color:#444;padding:.2rem 0}
th,td{border:1px solid #bbb;padding:.25rem .5rem;vertical-align:top}
thead th{background:#eef0f3;text-align:left}
table.kv th{background:#f4f5f7;text-align:left;font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.nowrap{white-space:nowrap}
.ci{color:#666;font-size:.85em}
.small{color:#555;font-size:.85em}
tr.best td{background:#fff3c4;font-weight:600}
tr.same td{background:#e6f4e6}
tr.knock td{background:#dbe9f6}
tr.playon td{background:#f8dede}
tr.undecided td{background:#efefef;color:#555}
tr.flag td{background:#f8d0d0;font-weight:600}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.85em;word-break:break-word}
footer{margin-top:2.5rem;font-size:.85rem;color:#555;border-top:1px solid #ddd;padding-top:.6rem}
"""

METHODS_TEXT = """
<p><strong>Stored runs only.</strong> This report reads finished results folders and never simulates.
Every number is computed from the stored totals (exact integer counts, sums and sums of squares per
series), so it is the same however the run was split into chunks or processes, and it can be traced
to the folder named in each section.</p>
<p><strong>Confidence intervals.</strong> Every estimate is shown with its 95% confidence interval.
Rates (hands won, games won, outcome shares, tonk probabilities) use the <em>Wilson score</em> interval,
which stays accurate near 0 and 1. Means (points or stakes per hand, net per game, turns) use the
<em>Student-t</em> interval from the exact moments.</p>
"""


def img_src(f: FigureInfo, embed: bool) -> str:
    """The figure as a data URI (``embed``) or the PNG's file name beside the page."""
    if embed:
        return "data:image/png;base64," + base64.b64encode(f.png).decode("ascii")
    return esc(f"{f.name}.png")


def figure_html(f: FigureInfo, embed: bool = True) -> str:
    lazy = "" if embed else " loading=\"lazy\" decoding=\"async\""
    return (f"<figure id=\"fig-{esc(f.name)}\"><img src=\"{img_src(f, embed)}\" width=\"{f.width}\" "
            f"height=\"{f.height}\" alt=\"{esc(f.title)}\"{lazy}>"
            f"<figcaption><strong>{esc(f.title)}.</strong> {esc(f.caption)} "
            f"<span class=\"small\">(PNG: {esc(Path(f.path).name) if f.path else esc(f.name + '.png')})</span>"
            f"</figcaption></figure>")


def section_html(s, embed: bool = True, methods_href: str | None = None, lead: str = "") -> str:
    """One study's section: its question as the heading, what it is and its folder, its body."""
    out = [f"<section id=\"{esc(s.anchor)}\" aria-labelledby=\"{esc(s.anchor)}-h\">",
           f"<h2 id=\"{esc(s.anchor)}-h\">{esc(s.heading)}</h2>",
           f"<p class=\"small\">{esc(s.title)}. Folder: <code>{esc(s.folder)}</code>"
           + (f"; <a href=\"{esc(methods_href)}\">how it was run</a>" if methods_href else "") + "</p>" + lead]
    for b in s.body:
        out.append(figure_html(b, embed) if isinstance(b, FigureInfo) else b)
    out.append("</section>")
    return "\n".join(out)


def report_html(report: Report) -> str:
    out = ["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
           "<meta name=\"generator\" content=\"rummylab report\">",
           f"<title>{esc(report.title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>", "<main>",
           f"<h1>{esc(report.title)}</h1>",
           f"<p class=\"lead\">Rendered from {len(report.sections)} stored result folder"
           f"{'s' if len(report.sections) != 1 else ''}; nothing was re-simulated. All intervals are 95%.</p>",
           "<nav aria-label=\"contents\"><strong>Contents</strong><ul>"]
    for s in report.sections:
        out.append(f"<li><a href=\"#{esc(s.anchor)}\">{esc(s.heading)}</a></li>")
    out.append("<li><a href=\"#methods\">Methods</a></li></ul></nav>")
    for s in report.sections:
        out.append(section_html(s))
    out.append("<section id=\"methods\" aria-labelledby=\"methods-h\"><h2 id=\"methods-h\">Methods</h2>")
    out.append(METHODS_TEXT)
    out.extend(report.methods)
    for s in report.sections:
        out.append(f"<h3>{esc(s.title)}</h3>")
        out.append(f"<p class=\"small\">Folder: <code>{esc(s.folder)}</code></p>")
        out.extend(s.methods)
    out.append("</section>")
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out.append(f"<footer>Generated by <code>rummylab report</code> on {stamp} from: "
               f"{esc(', '.join(report.run_dirs))}.</footer>")
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)
