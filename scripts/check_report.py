#!/usr/bin/env python3
"""Open the HTML report's pages in headless Chromium and check that they really render.

    python scripts/check_report.py reports/index.html [more.html | reports/ ...] [--screenshot shot.png]
                                   [--width 1280 --height 900] [--require-browser]

Checks each page, in a fresh profile with networking features off, from a copy of its folder
(its ``*.html`` and ``*.png``, nothing else, so a reference to anything else fails):

* no external ``src``/``href`` (http, https, protocol-relative);
* every internal link (``href`` to a page of the folder, with or without ``#fragment``, and
  ``#fragment`` alone) resolves: the file exists and holds that ``id``; every ``img src`` that
  is a file exists;
* at each viewport, 1280x900 and a phone's 390x900 (``VIEWPORTS``), the page loads
  (driven over the DevTools protocol, the viewport set exactly) with its ``<title>``; every ``<img>`` is in the DOM and
  has decoded (lazy images are made eager for the check); every ``<table>`` has a data cell;
  nothing sticks out past the viewport's width except inside a scrolling box
  (``overflow-x: auto|scroll|hidden``); no JavaScript error (uncaught exceptions,
  ``console.error``, failed resource loads, Chromium's console log);
* a landing page of answers (elements ``.answer``) shows its first answer within the first
  screen at 1280x900;
* a screenshot of the page at the first viewport is taken (``--screenshot``, else a temporary
  file) and is a PNG.

A folder argument checks every ``*.html`` in it.  Exit code 0 when every page passes (or when
no Chromium is installed: then it prints ``SKIP: no Chromium installed (apt-get install
chromium)``; with ``--require-browser`` or ``RUMMYLAB_REQUIRE_BROWSER=1``, as CI sets, a missing
browser fails instead), 1 when a check fails, 2 for a missing file.  ``check_html(path) -> (ok,
message)`` is the same check for tests; its message starts with ``SKIP:`` when no browser exists.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SKIP = "SKIP: no Chromium installed (apt-get install chromium)"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--enable-logging=stderr", "--v=0")
TIMEOUT_S = 90
VIEWPORTS = ((1280, 900), (390, 900))   # desktop, phone (width, height)
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
  document.addEventListener('DOMContentLoaded', function () {   // lazy images: load them all for the check
    Array.prototype.forEach.call(document.images, function (i) { i.loading = 'eager'; });
  });
  function clipped(el) {           // inside a box that scrolls or clips horizontally
    for (var p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { return true; }
    }
    return false;
  }
  function describe(el) {
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : '') +
      ' "' + (el.textContent || el.alt || '').trim().slice(0, 40) + '"';
  }
  function settled(i) {            // an image that has loaded or failed (lazy ones made eager load late)
    return i.complete ? Promise.resolve() : new Promise(function (r) {
      i.addEventListener('load', r); i.addEventListener('error', r); });
  }
  window.addEventListener('load', function () {
    Promise.all(Array.prototype.map.call(document.images, settled)).then(report);
  });
  function report() {
    var imgs = Array.prototype.slice.call(document.images);
    var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                  .map(function (i) { return i.alt || String(i.src).slice(0, 60); });
    var tables = Array.prototype.slice.call(document.querySelectorAll('table'));
    var empty = tables.filter(function (t) { return t.querySelectorAll('td').length === 0; })
                      .map(function (t) { return (t.caption && t.caption.textContent) || t.id || 'table'; });
    var w = document.documentElement.clientWidth, h = window.innerHeight;
    var out = [];
    Array.prototype.forEach.call(document.body.querySelectorAll('*'), function (el) {
      var r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > w + 1 || r.left < -1) && !clipped(el)) { out.push(describe(el)); }
    });
    var answers = Array.prototype.slice.call(document.querySelectorAll('.answer'));
    var first = answers.length ? answers[0].getBoundingClientRect() : null;
    document.documentElement.setAttribute('""" + CHECK_ATTR + """', JSON.stringify(
      {images: imgs.length, broken: bad, errors: errors, tables: tables.length, empty: empty,
       width: w, height: h, page_width: document.documentElement.scrollWidth, outside: out.slice(0, 5),
       n_outside: out.length, answers: answers.length,
       first_answer: first ? {top: first.top, bottom: Math.min(first.bottom, first.top + 160)} : null}));
  }
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


class _Refs(HTMLParser):
    """The ids, links and image sources of a page."""

    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.srcs = set(), [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href") is not None:
            self.hrefs.append(a["href"])
        if tag == "img" and a.get("src") is not None:
            self.srcs.append(a["src"])


def _refs(path: Path, cache: dict) -> _Refs:
    if path not in cache:
        r = _Refs()
        r.feed(path.read_text(encoding="utf-8"))
        cache[path] = r
    return cache[path]


def link_problems(path) -> list[str]:
    """Internal links that do not resolve (missing page, missing id) and image files missing."""
    path = Path(path).resolve()
    cache: dict = {}
    me = _refs(path, cache)
    bad = []
    for href in me.hrefs:
        if re.match(r"^(https?:|mailto:|data:|//)", href, re.IGNORECASE):
            continue
        file, _, frag = href.partition("#")
        target = (path.parent / file).resolve() if file else path
        if target.parent != path.parent or not target.is_file():
            bad.append(f"link {href!r}: no such page beside {path.name}")
        elif frag and frag not in _refs(target, cache).ids:
            bad.append(f"link {href!r}: {target.name} has no id {frag!r}")
    for src in me.srcs:
        if not src.startswith("data:") and not (path.parent / src).is_file():
            bad.append(f"image {src!r}: no such file beside {path.name}")
    return bad


def _probe_problems(probe: dict, n_img: int, width: int, height: int, first: bool) -> list[str]:
    """What the probe saw at one viewport, as problems."""
    at = f"at {width}x{height}: "
    out = []
    if probe["images"] != n_img:
        out.append(f"{at}{n_img} <img> in the file but {probe['images']} loaded in the page")
    if probe["broken"]:
        out.append(f"{at}{len(probe['broken'])} image(s) did not decode: {probe['broken'][:3]}")
    if probe.get("empty"):
        out.append(f"{len(probe['empty'])} empty table(s): {probe['empty'][:3]}")
    if probe["errors"]:
        out.append(f"{at}JavaScript/console errors: {probe['errors'][:3]}")
    if probe.get("n_outside"):
        out.append(f"{at}{probe['n_outside']} element(s) stick out past the viewport ({probe['width']} px) "
                   f"outside a scrolling box: {probe['outside'][:3]}")
    if first and probe.get("answers"):
        f = probe["first_answer"]
        if f["top"] + 100 > probe["height"]:
            out.append(f"{at}the first answer starts at {f['top']:.0f} px, below the first screen "
                       f"({probe['height']} px)")
    return out


class DevTools:
    """Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: the
    browser reads commands on fd 3 and writes replies on fd 4, JSON messages ending in NUL), so
    the viewport can be set exactly (a headless window cannot be narrower than 500 px)."""

    def __init__(self, browser: str, profile: str, log):
        cr, self.w = os.pipe()
        self.r, cw = os.pipe()

        def child():   # the browser's fds 3 and 4 (the only fds it inherits besides stdio)
            os.dup2(cr, 3)
            os.dup2(cw, 4)
        self.proc = subprocess.Popen(_browser_cmd(browser, profile, "--remote-debugging-pipe", "about:blank"),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                     close_fds=False, preexec_fn=child, start_new_session=True)
        os.close(cr)
        os.close(cw)
        self.n, self.buf, self.events = 0, b"", []

    def _next(self, deadline: float) -> dict:
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise TimeoutError(f"no reply from the browser in {TIMEOUT_S} s")
            chunk = os.read(self.r, 1 << 16)
            if not chunk:
                raise ConnectionError("the browser closed its DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.n += 1
        msg = {"id": self.n, "method": method, "params": params or {}, **({"sessionId": session} if session else {})}
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            m = self._next(deadline)
            if m.get("id") == self.n:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            self.events.append(m)

    def wait_for(self, name: str, session: str) -> None:
        deadline = time.monotonic() + TIMEOUT_S
        while not any(e.get("method") == name and e.get("sessionId") == session for e in self.events):
            self.events.append(self._next(deadline))

    def evaluate(self, expr: str, session: str):
        return self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session)["result"].get("value")

    def close(self) -> None:
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except (OSError, TimeoutError, ConnectionError, RuntimeError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)    # our own browser's process group only
            self.proc.wait()
        os.close(self.r)
        os.close(self.w)


def _event_errors(events: list[dict], session: str) -> list[str]:
    """Uncaught exceptions, console.error calls and error log entries the page raised."""
    out = []
    for e in events:
        if e.get("sessionId") != session:
            continue
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            out.append("uncaught: " + str(p.get("exceptionDetails", {}).get("exception", {}).get("description")
                                          or p.get("exceptionDetails", {}).get("text")))
        elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
            out.append("console.error: " + " ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            out.append("log: " + str(p["entry"].get("text"))[:120])
    return out


def _visit(dt: DevTools, uri: str, width: int, height: int, shot: Path | None):
    """The page at one viewport: (problems, probe or None, title); a screenshot into ``shot``."""
    target = dt.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = dt.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for m in ("Page.enable", "Runtime.enable", "Log.enable"):
        dt.send(m, session=s)
    dt.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                   "mobile": width < 600}, s)
    dt.send("Page.navigate", {"url": uri}, s)
    dt.wait_for("Page.loadEventFired", s)
    probe, deadline = None, time.monotonic() + TIMEOUT_S
    while probe is None and time.monotonic() < deadline:
        probe = dt.evaluate(f"document.documentElement.getAttribute('{CHECK_ATTR}')", s)
        if probe is None:
            time.sleep(0.1)
    title = dt.evaluate("document.title", s)
    problems = [f"at {width}x{height}: {e}" for e in _event_errors(dt.events, s)][:3]
    if shot is not None:     # every image decoded and painted before the picture is taken
        dt.send("Runtime.evaluate", {"expression": "Promise.all(Array.from(document.images).map(function (i) "
                                     "{ return i.decode().catch(function () {}); })).then(function () { return "
                                     "new Promise(function (r) { requestAnimationFrame(function () { "
                                     "requestAnimationFrame(r); }); }); })", "awaitPromise": True}, s)
        data = dt.send("Page.captureScreenshot", {"format": "png"}, s)["data"]
        shot.write_bytes(base64.b64decode(data))
    dt.send("Target.closeTarget", {"targetId": target})
    if probe is None:
        return problems + [f"at {width}x{height}: the page's load event never ran (probe result missing)"], None, title
    return problems, json.loads(probe), title


def _copy_site(path: Path, dest: Path) -> Path:
    """The page's folder (its *.html with the probe added, its *.png) copied into ``dest``."""
    dest.mkdir()
    for f in sorted(path.parent.glob("*.html")) + [path]:
        (dest / f.name).write_text(_with_probe(f.read_text(encoding="utf-8")), encoding="utf-8")
    for f in path.parent.glob("*.png"):
        shutil.copyfile(f, dest / f.name)
    return dest / path.name


def check_html(path, screenshot: str | None = None, width: int = 1280, height: int = 900,
               viewports=VIEWPORTS) -> tuple[bool, str]:
    """Load ``path`` in headless Chromium at each viewport; ``(ok, message)``.  No browser:
    ``(True, "SKIP: ...")``."""
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
    problems += link_problems(path)
    n_img = len(re.findall(r"<img\b", source, re.IGNORECASE))
    probe = {}
    with tempfile.TemporaryDirectory(prefix="check-report-") as tmp:
        page = _copy_site(path.resolve(), Path(tmp) / "site")
        shot = Path(screenshot).resolve() if screenshot else Path(tmp) / "shot.png"
        with open(Path(tmp) / "browser.log", "w+b") as log:
            dt = DevTools(browser, str(Path(tmp) / "profile"), log)
            try:
                for k, (w, h) in enumerate(viewports):
                    found, pr, seen = _visit(dt, page.as_uri(), w, h, shot if k == 0 else None)
                    problems += found
                    if pr is None:
                        continue
                    probe = probe or pr
                    if k == 0 and title and (seen or "").strip() != title:
                        problems.append(f"the page's title is {seen!r}, not {title!r}")
                    problems += [q for q in _probe_problems(pr, n_img, w, h, k == 0)
                                 if k == 0 or "empty table" not in q]
            except (OSError, TimeoutError, ConnectionError, RuntimeError) as e:
                problems.append(f"the browser failed: {e}")
            finally:
                dt.close()
            log.seek(0)
            console = [ln.strip() for ln in log.read().decode("utf-8", "replace").splitlines()
                       if CONSOLE_ERROR.search(ln)]
        if console:
            problems.append(f"console errors: {console[:3]}")
        if not shot.is_file() or not shot.read_bytes().startswith(PNG_MAGIC):
            problems.append("screenshot failed")
    if problems:
        return False, f"{path}: FAILED\n  - " + "\n  - ".join(problems)
    sizes = " and ".join(f"{w}x{h}" for w, h in viewports)
    return True, (f"{path}: OK: loaded in {Path(browser).name} at {sizes}, title {title!r} found, {n_img} image(s) "
                  f"decoded, {probe.get('tables', 0)} table(s) with data, internal links resolve, nothing sticks "
                  f"out, no console errors"
                  + (f", first answer on the first screen" if probe.get("answers") else "")
                  + ", screenshot taken" + (f" ({screenshot})" if screenshot else ""))


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
    p.add_argument("--height", type=int, default=900, help="screenshot window height (px)")
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
