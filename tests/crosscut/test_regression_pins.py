"""Results of fixed seeded runs stay as pinned (tests/crosscut/regression/pins.json, written by
scripts/regression_pins.py).  Refactors must not change what the engine plays."""

import importlib.util
import json

import pytest

from tests.support import ROOT


spec = importlib.util.spec_from_file_location("regression_pins", ROOT / "scripts" / "regression_pins.py")
pins = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pins)
WANT = json.loads((ROOT / "tests" / "crosscut" / "regression" / "pins.json").read_text())


@pytest.mark.parametrize("run", pins.RUNS, ids=[r[0] for r in pins.RUNS])
def test_pinned_run_is_unchanged(run):
    got = pins.digest(*run)
    want = WANT[run[0]]
    assert got["sums"] == want["sums"]
    assert got["sha256"] == want["sha256"]
