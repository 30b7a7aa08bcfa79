"""What a stored run was played with: the package versions and the commit (``git describe``),
written into every run's and study's metadata (the report reads them back:
:mod:`analysis.report.provenance`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def package_versions() -> dict:
    import platform

    import numba
    from .args import rummylab_version
    return {"python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
            "rummylab": rummylab_version()}


def git_describe() -> str:
    import subprocess
    here = Path(__file__).resolve().parent.parent
    try:
        r = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=here,
                           capture_output=True, text=True, timeout=5)
        return r.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
