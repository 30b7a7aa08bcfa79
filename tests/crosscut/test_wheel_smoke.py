"""The wheel, installed for real (issue 31, part 4): ``scripts/wheel_smoke.py`` builds it,
installs it into a fresh venv outside the checkout and runs every subcommand of ``rummylab``
from a folder outside the checkout; each must exit 0.  A few minutes of one core (numba
compiles the kernels of the games it plays from scratch): ``tests/conftest.py`` runs it first,
so those minutes overlap the rest of the suite."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import ROOT


SCRIPT = ROOT / "scripts" / "wheel_smoke.py"


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_installed_wheel_runs_every_subcommand():
    p = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=1800)
    print(p.stdout)
    assert p.returncode == 0, p.stdout[-6000:] + p.stderr[-3000:]
    assert "wheel smoke: every command exited 0" in p.stdout
    for name in ("simulate", "knock-sweep", "knock ", "tonk-odds", "buyback", "report", "demo --help"):
        assert f"s  {name}" in p.stdout, name


def test_every_subcommand_has_a_smoke_run_or_says_why_not():
    """The smoke's table names every subcommand of the parser (the smoke itself fails on a new
    one too, but only after minutes of building)."""
    import argparse
    import importlib.util

    from analysis.cli import build_parser
    spec = importlib.util.spec_from_file_location("wheel_smoke", SCRIPT)
    smoke = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(smoke)
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(smoke.RUNS)
    parser = build_parser()
    for name, runs in smoke.RUNS.items():
        for args in runs:
            parser.parse_args([name, *args])
