"""Suite-wide guard: no test writes the repository's tuned presets file.

``rummylab tune --save-preset`` writes ``sim.strategies.TUNED_FILE`` unless given
``--presets-file``; here that default points into each test's own temporary folder (reading
the repository's file, as every preset lookup does, is unchanged)."""

import os

import pytest

import sim.strategies as S

# A first compile here stays in its own process (analysis.compile_plan: a second compile process
# would race the suite's workers for the two cores); tests/crosscut/test_compile_plan.py turns it on.
os.environ["RUMMYLAB_SPLIT_COMPILE"] = "0"


@pytest.fixture(autouse=True)
def _presets_file_out_of_the_repository(tmp_path_factory, monkeypatch):
    monkeypatch.setattr(S, "TUNED_FILE", tmp_path_factory.getbasetemp() / "tuned_presets.json")


def pytest_collection_modifyitems(session, config, items):
    """The wheel smoke (tests/crosscut/test_wheel_smoke.py, minutes of one core) runs first: its
    minutes then overlap the rest of the suite on the other worker instead of trailing it."""
    items.sort(key=lambda item: item.path.name != "test_wheel_smoke.py")


# ---- the web app's tests: one server (2 workers, empty runs) and one browser per test module ----
@pytest.fixture(scope="module")
def serve_url(tmp_path_factory):
    from tests.support.serve_helpers import loadtest
    runs = tmp_path_factory.mktemp("runs")
    with loadtest.server(workers=2, runs=str(runs), reports=str(runs)) as url:
        yield url


@pytest.fixture(scope="module")
def chromium():
    from tests.support.serve_helpers import browser_or_skip
    with browser_or_skip() as b:          # CI (RUMMYLAB_REQUIRE_BROWSER=1): no browser fails here
        yield b
