"""The OpenSpiel cross-check's words: a test that finds no difference says so, with n, and
never that the engines agree (OpenSpiel itself is not needed here)."""

import importlib.util

import numpy as np

from tests.support import ROOT


SCRIPT = ROOT / "scripts" / "crosscheck_openspiel.py"


def _script():
    spec = importlib.util.spec_from_file_location("crosscheck_openspiel", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rows(mod, shift: float = 0.0, n: int = 3000, seed: int = 1):
    rng = np.random.default_rng(seed)

    def engine(dx):
        out = rng.integers(0, len(mod.OUTCOMES), n)
        s0 = rng.normal(dx, 20, n)
        return {"outcome": out, "score0": s0, "score1": -s0, "knock_dw": rng.integers(0, 11, n),
                "stock_left": rng.integers(2, 31, n)}
    return mod.compare(engine(0.0), engine(shift))


def test_no_difference_detected_is_not_called_agreement():
    mod = _script()
    rows = _rows(mod)
    assert all(r[4] for r in rows)
    text = "\n".join(mod.table_lines(rows)) + "\n" + mod.verdict(rows, 3000)
    assert "agree" not in text.lower()
    last = mod.verdict(rows, 3000)
    assert last.startswith("no difference detected") and "3,000 hands per engine" in last
    assert f"0.05/{len(rows)}" in last and "not a proof of equality" in last
    assert "not detected" in mod.table_lines(rows)[1]


def test_a_real_difference_is_named():
    mod = _script()
    rows = _rows(mod, shift=5.0)
    last = mod.verdict(rows, 3000)
    assert last.startswith("DIFFERENCE DETECTED") and "mean score seat 0" in last
