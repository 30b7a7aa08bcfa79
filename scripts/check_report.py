#!/usr/bin/env python3
"""Open an HTML report in headless Chromium and check that it really renders.

    python scripts/check_report.py reports/index.html [more.html | reports/ ...] [--screenshot shot.png]
                                   [--width 1280 --height 2400] [--require-browser]

Checks, in a fresh profile with networking features off:

* the file is self-contained: no external ``src``/``href`` (http, https, protocol-relative);
* the page loads (``--dump-dom`` returns the DOM) and the dumped DOM holds the report's
  ``<title>`` text;
* every ``<img>`` of the file is in the DOM and has decoded (``complete`` and
  ``naturalWidth > 0``), checked by a small probe script added to a temporary copy of the page
  (the copy sits in an empty folder, so a reference to a file beside the report fails too);
* every ``<table>`` has at least one data cell (``<td>``) in the page;
* a screenshot of the page is taken (``--screenshot``, else a temporary file) and is a PNG;
* no JavaScript error: uncaught exceptions, ``console.error`` calls and failed resource loads
  are collected by the probe, and Chromium's console log (``--enable-logging=stderr``) is
  scanned for ``Uncaught``/``Failed to load``/``Not allowed`` messages.

A folder argument checks every ``*.html`` in it.  Exit code 0 when every page passes (or when
no Chromium is installed: then it prints ``SKIP: no Chromium installed (apt-get install
chromium)``; with ``--require-browser`` or ``RUMMYLAB_REQUIRE_BROWSER=1``, as CI sets, a missing
browser fails instead), 1 when a check fails, 2 for a missing file.  ``check_html(path) -> (ok, message)`` is the same check for tests; its message
starts with ``SKIP:`` when no browser exists.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SKIP = "SKIP: no Chromium installed (apt-get install chromium)"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--enable-logging=stderr", "--v=0")
TIMEOUT_S = 90
CHECK_ATTR = "data-report-check"
REQUIRE_ENV = "RUMMYLAB_REQUIRE_BROWSER"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def browser_required() -> bool:
    """Whether a missing browser is a failure (CI sets RUMMYLAB_REQUIRE_BROWSER=1)."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")

PROBE = """<script>
(function () {
  var errors = [];
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      errors.push('resource failed: ' + String(t.src || t.href).slice(0, 80));
    } else {
      errors.push('uncaught: ' + (e.message || 'error'));
    }
  }, true);
  window.addEventListener('unhandledrejection', function (e) {
    errors.push('unhandled rejection: ' + String(e.reason));
  });
  var orig = console.error;
  console.error = function () {
    errors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return orig.apply(console, arguments);
  };
  window.addEventListener('load', function () {
    var imgs = Array.prototype.slice.call(document.images);
    var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                  .map(function (i) { return i.alt || String(i.src).slice(0, 60); });
    var tables = Array.prototype.slice.call(document.querySelectorAll('table'));
    var empty = tables.filter(function (t) { return t.querySelectorAll('td').length === 0; })
                      .map(function (t) { return (t.caption && t.caption.textContent) || t.id || 'table'; });
    document.documentElement.setAttribute('""" + CHECK_ATTR + """', JSON.stringify(
      {images: imgs.length, broken: bad, errors: errors, tables: tables.length, empty: empty}));
  });
})();
</script>"""

CONSOLE_ERROR = re.compile(r"CONSOLE.*?(Uncaught|Failed to load|Not allowed to load|Refused to|net::ERR_)",
                           re.IGNORECASE)
EXTERNAL = re.compile(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)


def find_browser() -> str | None:
    """Path of a Chromium-family browser, or None."""
    for name in BROWSERS:
        p = shutil.which(name)
        if p:
            return p
    for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"):
        if os.access(p, os.X_OK):
            return p
    return None


def _run(cmd: list[str]) -> tuple[int, str, str]:
    """Run the browser in its own process group; on timeout kill that group (ours) only."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return -1, out, err + f"\n(timed out after {TIMEOUT_S} s)"
    return proc.returncode, out, err


def _browser_cmd(browser: str, profile: str, *extra: str) -> list[str]:
    return [browser, *FLAGS, f"--user-data-dir={profile}", *extra]


def _title(source: str) -> str | None:
    m = re.search(r"<title>(.*?)</title>", source, re.IGNORECASE | re.DOTALL)
    return html.unescape(m.group(1)).strip() if m else None


def _with_probe(source: str) -> str:
    m = re.search(r"<head[^>]*>", source, re.IGNORECASE)
    if m:
        return source[:m.end()] + PROBE + source[m.end():]
    return PROBE + source


def check_html(path, screenshot: str | None = None, width: int = 1280, height: int = 2400) -> tuple[bool, str]:
    """Load ``path`` in headless Chromium; ``(ok, message)``.  No browser: ``(True, "SKIP: ...")``."""
    path = Path(path)
    if not path.is_file():
        return False, f"{path}: no such file"
    browser = find_browser()
    if browser is None:
        if browser_required():
            return False, f"{path}: no Chromium installed, and {REQUIRE_ENV} asks for the browser check"
        return True, SKIP
    source = path.read_text(encoding="utf-8")
    problems = []
    title = _title(source)
    if not title:
        problems.append("the file has no <title>")
    ext = sorted({m.group(0) for m in EXTERNAL.finditer(source)})
    if ext:
        problems.append(f"not self-contained: external references {ext[:3]}")
    n_img = len(re.findall(r"<img\b", source, re.IGNORECASE))

    with tempfile.TemporaryDirectory(prefix="check-report-") as tmp:
        page = Path(tmp) / "page" / "index.html"
        page.parent.mkdir()
        page.write_text(_with_probe(source), encoding="utf-8")
        rc, dom, err = _run(_browser_cmd(browser, str(Path(tmp) / "profile"), "--dump-dom", page.as_uri()))
        if rc != 0 or not dom.strip():
            tail = "\n".join(err.strip().splitlines()[-5:])
            return False, f"{path}: Chromium could not load the page (exit {rc}):\n{tail}"
        if title and title not in html.unescape(dom):
            problems.append(f"the dumped DOM lacks the title {title!r}")
        n_dom = len(re.findall(r"<img\b", dom, re.IGNORECASE))
        if n_dom != n_img:
            problems.append(f"{n_img} <img> in the file but {n_dom} in the DOM")
        m = re.search(CHECK_ATTR + r"""="([^"]*)\"""", dom)
        if not m:
            problems.append("the page's load event never ran (probe result missing)")
        else:
            probe = json.loads(html.unescape(m.group(1)))
            if probe["images"] != n_img:
                problems.append(f"{n_img} <img> in the file but {probe['images']} loaded in the page")
            if probe["broken"]:
                problems.append(f"{len(probe['broken'])} image(s) did not decode: {probe['broken'][:3]}")
            if probe.get("empty"):
                problems.append(f"{len(probe['empty'])} empty table(s): {probe['empty'][:3]}")
            if probe["errors"]:
                problems.append(f"JavaScript/console errors: {probe['errors'][:3]}")
        console = [ln.strip() for ln in err.splitlines() if CONSOLE_ERROR.search(ln)]
        if console:
            problems.append(f"console errors: {console[:3]}")
        shot = Path(screenshot).resolve() if screenshot else Path(tmp) / "shot.png"
        rc, _, err2 = _run(_browser_cmd(browser, str(Path(tmp) / "profile2"), f"--screenshot={shot}",
                                        f"--window-size={width},{height}", path.resolve().as_uri()))
        if rc != 0 or not shot.is_file() or not shot.read_bytes().startswith(PNG_MAGIC):
            problems.append(f"screenshot failed (exit {rc})")
    if problems:
        return False, f"{path}: FAILED\n  - " + "\n  - ".join(problems)
    n_tab = probe.get("tables", 0)
    return True, (f"{path}: OK: loaded in {Path(browser).name}, title {title!r} found, {n_img} image(s) "
                  f"decoded, {n_tab} table(s) with data, no console errors, screenshot taken"
                  + (f" ({screenshot})" if screenshot else ""))


def pages(args: list[str]) -> list[Path]:
    """The HTML files named, folders expanded to their ``*.html`` (sorted)."""
    out = []
    for a in args:
        p = Path(a)
        out.extend(sorted(p.glob("*.html")) if p.is_dir() else [p])
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Check an HTML report in headless Chromium.")
    p.add_argument("html", nargs="+", help="HTML files (or folders: every *.html in them) to check")
    p.add_argument("--screenshot", default=None, metavar="PNG",
                   help="keep the screenshot here (one page; PAGE-NAME.png beside it for several)")
    p.add_argument("--require-browser", action="store_true",
                   help=f"fail when no Chromium is installed (also: {REQUIRE_ENV}=1)")
    p.add_argument("--width", type=int, default=1280, help="screenshot window width (px)")
    p.add_argument("--height", type=int, default=2400, help="screenshot window height (px)")
    args = p.parse_args(argv)
    if args.require_browser:
        os.environ[REQUIRE_ENV] = "1"
    files = pages(args.html)
    missing = [f for f in files if not f.is_file()]
    if missing or not files:
        print(f"check_report: error: {missing[0] if missing else args.html[0]}: no such file "
              "(or no *.html in the folder)", file=sys.stderr)
        return 2
    all_ok = True
    for f in files:
        shot = args.screenshot
        if shot and len(files) > 1:
            shot = str(Path(shot).with_name(f"{f.stem}-{Path(shot).name}"))
        ok, msg = check_html(f, shot, args.width, args.height)
        print(msg)
        all_ok &= ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
