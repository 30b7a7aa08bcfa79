"""The one way a ``--json`` answer is written: strict JSON, so any JSON reader takes it.

Python's ``json`` writes an unbounded interval as ``Infinity`` and a missing estimate as
``NaN``, which are not JSON.  Here every non-finite float becomes ``null`` (an interval with no
bound, an estimate that does not exist), numpy scalars become plain numbers, and anything else
unknown is refused rather than guessed at.
"""

from __future__ import annotations

import json
import math

import numpy as np


def finite(x):
    """``x`` as JSON can hold it: non-finite floats as None, numpy values as plain ones."""
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    if isinstance(x, np.ndarray):
        return finite(x.tolist())
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    return x


def dumps(obj, *, indent: int | None = 2, compact: bool = False) -> str:
    """``obj`` as strict JSON (``allow_nan=False``): non-finite floats written as ``null``."""
    seps = (",", ":") if compact else None
    return json.dumps(finite(obj), indent=None if compact else indent, separators=seps, allow_nan=False)
