"""Shared by the web app's tests: the scripts loaded as modules, a running server, the browser."""

from __future__ import annotations

import importlib.util
from contextlib import contextmanager

import pytest

from tests.support import ROOT


def script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


checker = script("check_report")
loadtest = script("load_test")


@contextmanager
def browser_or_skip():
    """The system Chromium under Playwright; skipped where there is none, unless CI requires it."""
    if checker.missing_browser() and not checker.browser_required():
        pytest.skip(checker.missing_browser())
    with checker.browser() as b:
        yield b
