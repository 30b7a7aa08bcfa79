#!/usr/bin/env python3
"""Open the HTML report's pages in headless Chromium and check that they really render.

    python scripts/check_report.py reports/index.html [more.html | reports/ ...] [--screenshot shot.png]
                                   [--width 1280 --height 900] [--require-browser]

Checks each page with Playwright driving the system Chromium (launched by its path; Playwright
never downloads a browser), in a fresh context with every request outside the page's folder
aborted, from a copy of its folder (its ``*.html`` and ``*.png``, nothing else, so a reference
to anything else fails):

* no external ``src``/``href`` (http, https, protocol-relative);
* every internal link (``href`` to a page of the folder, with or without ``#fragment``, and
  ``#fragment`` alone) resolves: the file exists and holds that ``id``; every ``img src`` that
  is a file exists;
* at each viewport, 1280x900 (``--width``/``--height``) and a phone's 390x900 (``VIEWPORTS``),
  the page loads with its ``<title>``; every ``<img>`` is in the DOM and has decoded (lazy
  images are made eager for the check); every ``<table>`` has a data cell; nothing sticks out
  past the viewport's width except inside a scrolling box (``overflow-x: auto|scroll|hidden``);
  no JavaScript error (uncaught exceptions and rejections, ``console.error`` and Chromium's
  error log, failed resource loads);
* a landing page of answers (elements ``.answer``) shows its first answer within the first
  screen at 1280x900;
* a screenshot of the page at the first viewport is taken (``--screenshot``, else a temporary
  file) and is a PNG.

A folder argument checks every ``*.html`` in it.  Exit code 0 when every page passes (or when
no Chromium or no ``playwright`` module is installed: then it prints ``SKIP: ...``; with
``--require-browser`` or ``RUMMYLAB_REQUIRE_BROWSER=1``, as CI sets, a missing browser fails
instead), 1 when a check fails, 2 for a missing file.  ``check_html(path) -> (ok, message)`` is
the same check for tests; its message starts with ``SKIP:`` when no browser exists.

Other browser tests (the web app's) reuse the pieces, loaded with importlib like the tests do::

    reason = checker.missing_browser()          # None, or the SKIP message
    with checker.browser() as b, checker.page_at(b, 390, 900, allow=("http://127.0.0.1:8000/",)) as page:
        errors = checker.watch_errors(page)     # fills as the page runs
        page.goto(url)
        assert not errors and not checker.sticking_out(page)
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import re
import shutil
import sys
import tempfile
from contextlib import ExitStack, contextmanager, nullcontext
from html.parser import HTMLParser
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SKIP = "SKIP: no Chromium installed (apt-get install chromium)"
SKIP_PLAYWRIGHT = "SKIP: no playwright module (pip install -e '.[test]')"
FLAGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars")
TIMEOUT_MS = 90_000
VIEWPORTS = ((1280, 900), (390, 900))   # desktop, phone (width, height)
REQUIRE_ENV = "RUMMYLAB_REQUIRE_BROWSER"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
EXTERNAL = re.compile(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)

EAGER = """document.addEventListener('DOMContentLoaded', function () {   // lazy images: load them all
  Array.prototype.forEach.call(document.images, function (i) { i.loading = 'eager'; });
});"""

STICK_OUT = """() => {
  const w = document.documentElement.clientWidth, out = [];
  const clipped = (el) => {        // inside a box that scrolls or clips horizontally
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) { return true; }
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect(), cls = el.getAttribute('class');
    if (r.width > 0 && (r.right > w + 1 || r.left < -1) && !clipped(el)) {
      out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (cls ? '.' + cls : '') +
               ' "' + (el.textContent || el.alt || '').trim().slice(0, 40) + '"');
    }
  }
  return out;
}"""

PROBE = """async () => {       // after the load event: every image settled and decoded, then measure
  const imgs = Array.from(document.images);
  await Promise.all(imgs.map((i) => i.complete ? null : new Promise((r) => {
    i.addEventListener('load', r); i.addEventListener('error', r); })));
  await Promise.all(imgs.map((i) => i.decode().catch(() => null)));
  const tables = Array.from(document.querySelectorAll('table'));
  const answer = document.querySelector('.answer');
  return {images: imgs.length,
          broken: imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.alt || i.src.slice(0, 60)),
          tables: tables.length,
          empty: tables.filter((t) => !t.querySelector('td'))
                       .map((t) => (t.caption && t.caption.textContent) || t.id || 'table'),
          width: document.documentElement.clientWidth, height: window.innerHeight,
          first_answer: answer ? answer.getBoundingClientRect().top : null};
}"""


class NoBrowser(RuntimeError):
    """No Chromium or no playwright module here; ``str()`` is the ``SKIP:`` message."""


def browser_required() -> bool:
    """Whether a missing browser is a failure (CI sets RUMMYLAB_REQUIRE_BROWSER=1)."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


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


def missing_browser() -> str | None:
    """None when Playwright can drive a Chromium here, else the ``SKIP:`` message saying what is missing."""
    if find_browser() is None:
        return SKIP
    if importlib.util.find_spec("playwright") is None:
        return SKIP_PLAYWRIGHT
    return None


@contextmanager
def browser(*args: str):
    """A Playwright ``Browser``: the system Chromium, headless, launched by its path with ``FLAGS``
    (and ``args``); closed on exit.  Raises ``NoBrowser`` when there is no Chromium or no Playwright."""
    reason = missing_browser()
    if reason:
        raise NoBrowser(reason)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=find_browser(), args=[*FLAGS, *args], timeout=TIMEOUT_MS)
        try:
            yield b
        finally:
            b.close()


def offline(context, allow: tuple[str, ...] = ("file:",)) -> None:
    """Abort every request of a Playwright context (or page) whose URL starts with none of ``allow``."""
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(tuple(allow))
                  else route.abort("internetdisconnected"))


@contextmanager
def page_at(b, width: int = 1280, height: int = 900, allow: tuple[str, ...] = ("file:",)):
    """A blank page in a fresh context of browser ``b``: the viewport exactly ``width`` x ``height``
    (a phone's, honouring ``<meta name=viewport>``, below 600 px), requests outside ``allow`` aborted."""
    context = b.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                            is_mobile=width < 600)
    context.set_default_timeout(TIMEOUT_MS)
    offline(context, allow)
    try:
        yield context.new_page()
    finally:
        context.close()


def watch_errors(page) -> list[str]:
    """A list that fills with the page's JavaScript errors as they happen: uncaught exceptions and
    rejections, ``console.error`` and Chromium's error log (blocked or missing resources), failed
    requests.  Call it before ``page.goto``."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"uncaught: {getattr(e, 'name', '') or 'Error'}: {e.message}"))
    page.on("console", lambda m: errors.append(f"console.error: {m.text[:160]}") if m.type == "error" else None)
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url[:80]} ({r.failure})"))
    return errors


def sticking_out(page) -> list[str]:
    """The elements of a Playwright page that stick out past the viewport's width outside a box
    that scrolls or clips horizontally (``overflow-x: auto|scroll|hidden``), described briefly."""
    return page.evaluate(STICK_OUT)


def _title(source: str) -> str | None:
    m = re.search(r"<title>(.*?)</title>", source, re.IGNORECASE | re.DOTALL)
    return html.unescape(m.group(1)).strip() if m else None


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


def _probe_problems(probe: dict, outside: list[str], n_img: int, at: str, first: bool) -> list[str]:
    """What the page showed at one viewport, as problems."""
    out = []
    if probe["images"] != n_img:
        out.append(f"{at}{n_img} <img> in the file but {probe['images']} loaded in the page")
    if probe["broken"]:
        out.append(f"{at}{len(probe['broken'])} image(s) did not decode: {probe['broken'][:3]}")
    if first and probe["empty"]:
        out.append(f"{len(probe['empty'])} empty table(s): {probe['empty'][:3]}")
    if outside:
        out.append(f"{at}{len(outside)} element(s) stick out past the viewport ({probe['width']} px) "
                   f"outside a scrolling box: {outside[:3]}")
    top = probe["first_answer"]
    if first and top is not None and top + 100 > probe["height"]:
        out.append(f"{at}the first answer starts at {top:.0f} px, below the first screen ({probe['height']} px)")
    return out


def _visit(b, site: Path, page_uri: str, width: int, height: int, shot: Path | None):
    """The page at one viewport: (problems, probe, what sticks out, title); a screenshot into ``shot``."""
    with page_at(b, width, height, allow=(site.as_uri() + "/",)) as page:
        errors = watch_errors(page)
        page.add_init_script(EAGER)
        page.goto(page_uri, wait_until="load")
        probe = page.evaluate(PROBE)
        outside = sticking_out(page)
        title = page.title()
        if shot is not None:
            page.screenshot(path=str(shot))
    at = f"at {width}x{height}: "
    problems = [f"{at}JavaScript/console errors: {errors[:3]}"] if errors else []
    return problems, probe, outside, title


def _copy_site(path: Path, dest: Path) -> Path:
    """The page's folder (its *.html and *.png) copied into ``dest``; the copy of the page."""
    dest.mkdir()
    for f in [*path.parent.glob("*.html"), *path.parent.glob("*.png"), path]:
        shutil.copyfile(f, dest / f.name)
    return dest / path.name


def check_html(path, screenshot: str | None = None, width: int = 1280, height: int = 900,
               viewports=None, using=None) -> tuple[bool, str]:
    """Load ``path`` in headless Chromium at each viewport (by default ``width`` x ``height``, then
    the phone's); ``(ok, message)``.  ``using``: a browser from ``browser()`` to reuse, else one is
    launched.  No browser: ``(True, "SKIP: ...")``, a failure when one is required."""
    path = Path(path)
    if not path.is_file():
        return False, f"{path}: no such file"
    viewports = viewports or ((width, height), *VIEWPORTS[1:])
    reason = None if using is not None else missing_browser()
    if reason:
        if browser_required():
            return False, f"{path}: {reason.removeprefix('SKIP: ')}, and {REQUIRE_ENV} asks for the browser check"
        return True, reason
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
    tables, answers = 0, False
    with tempfile.TemporaryDirectory(prefix="check-report-") as tmp:
        page = _copy_site(path.resolve(), Path(tmp) / "site")
        shot = Path(screenshot).resolve() if screenshot else Path(tmp) / "shot.png"
        try:
            with nullcontext(using) if using is not None else browser() as b:
                for k, (w, h) in enumerate(viewports):
                    found, probe, outside, seen = _visit(b, page.parent, page.as_uri(), w, h, shot if k == 0 else None)
                    if k == 0:
                        tables, answers = probe["tables"], probe["first_answer"] is not None
                        if title and seen.strip() != title:
                            found.append(f"the page's title is {seen!r}, not {title!r}")
                    problems += found + _probe_problems(probe, outside, n_img, f"at {w}x{h}: ", k == 0)
        except Exception as e:    # playwright's Error and TimeoutError: the browser failed or hung
            problems.append(f"the browser failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        if not shot.is_file() or not shot.read_bytes().startswith(PNG_MAGIC):
            problems.append("screenshot failed")
    if problems:
        return False, f"{path}: FAILED\n  - " + "\n  - ".join(problems)
    sizes = " and ".join(f"{w}x{h}" for w, h in viewports)
    return True, (f"{path}: OK: loaded in Chromium at {sizes}, title {title!r} found, {n_img} image(s) "
                  f"decoded, {tables} table(s) with data, internal links resolve, nothing sticks out, "
                  f"no console errors" + (", first answer on the first screen" if answers else "")
                  + ", screenshot taken" + (f" ({screenshot})" if screenshot else ""))


def pages(args: list[str]) -> list[Path]:
    """The HTML files named, folders expanded to their ``*.html`` (sorted)."""
    out = []
    for a in args:
        p = Path(a)
        out.extend(sorted(p.glob("*.html")) if p.is_dir() else [p])
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Check an HTML report in headless Chromium (Playwright).")
    p.add_argument("html", nargs="+", help="HTML files (or folders: every *.html in them) to check")
    p.add_argument("--screenshot", default=None, metavar="PNG",
                   help="keep the screenshot here (one page; PAGE-NAME.png beside it for several)")
    p.add_argument("--require-browser", action="store_true",
                   help=f"fail when no Chromium (or no playwright) is installed (also: {REQUIRE_ENV}=1)")
    p.add_argument("--width", type=int, default=1280, help="first viewport and screenshot width (px)")
    p.add_argument("--height", type=int, default=900, help="first viewport and screenshot height (px)")
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
    with ExitStack() as stack:
        b = None
        if not missing_browser():
            try:             # one browser for every page; if it cannot start, each page says why
                b = stack.enter_context(browser())
            except Exception:
                pass
        for f in files:
            shot = args.screenshot
            if shot and len(files) > 1:
                shot = str(Path(shot).with_name(f"{f.stem}-{Path(shot).name}"))
            ok, msg = check_html(f, shot, args.width, args.height, using=b)
            print(msg)
            all_ok &= ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
