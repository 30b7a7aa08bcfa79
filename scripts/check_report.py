#!/usr/bin/env python3
"""Open an HTML report in headless Chromium and check that it really renders.

    python scripts/check_report.py reports/index.html [--screenshot shot.png] [--width 1280 --height 2400]

Checks, in a fresh profile with networking features off:

* the file is self-contained: no external ``src``/``href`` (http, https, protocol-relative);
* the page loads (``--dump-dom`` returns the DOM) and the dumped DOM holds the report's
  ``<title>`` text;
* every ``<img>`` of the file is in the DOM and has decoded (``complete`` and
  ``naturalWidth > 0``), checked by a small probe script added to a temporary copy of the page
  (the copy sits in an empty folder, so a reference to a file beside the report fails too);
* no JavaScript error: uncaught exceptions, ``console.error`` calls and failed resource loads
  are collected by the probe, and Chromium's console log (``--enable-logging=stderr``) is
  scanned for ``Uncaught``/``Failed to load``/``Not allowed`` messages.

Exit code 0 when the page passes (or when no Chromium is installed: then it prints
``SKIP: no Chromium installed (apt-get install chromium)``), 1 when a check fails, 2 for a
missing file.  ``check_html(path) -> (ok, message)`` is the same check for tests; its message
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
    document.documentElement.setAttribute('""" + CHECK_ATTR + """', JSON.stringify(
      {images: imgs.length, broken: bad, errors: errors}));
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
            if probe["errors"]:
                problems.append(f"JavaScript/console errors: {probe['errors'][:3]}")
        console = [ln.strip() for ln in err.splitlines() if CONSOLE_ERROR.search(ln)]
        if console:
            problems.append(f"console errors: {console[:3]}")
        if screenshot:
            shot = Path(screenshot).resolve()
            rc, _, err2 = _run(_browser_cmd(browser, str(Path(tmp) / "profile2"), f"--screenshot={shot}",
                                            f"--window-size={width},{height}", path.resolve().as_uri()))
            if rc != 0 or not shot.is_file():
                problems.append(f"screenshot failed (exit {rc})")
    if problems:
        return False, f"{path}: FAILED\n  - " + "\n  - ".join(problems)
    return True, (f"{path}: OK: loaded in {Path(browser).name}, title {title!r} found, {n_img} image(s) "
                  f"decoded, no console errors" + (f"; screenshot {screenshot}" if screenshot else ""))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Check an HTML report in headless Chromium.")
    p.add_argument("html", help="the HTML file to check")
    p.add_argument("--screenshot", default=None, metavar="PNG", help="also save a screenshot here")
    p.add_argument("--width", type=int, default=1280, help="screenshot window width (px)")
    p.add_argument("--height", type=int, default=2400, help="screenshot window height (px)")
    args = p.parse_args(argv)
    if not Path(args.html).is_file():
        print(f"check_report: error: {args.html}: no such file", file=sys.stderr)
        return 2
    ok, msg = check_html(args.html, args.screenshot, args.width, args.height)
    print(msg)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
