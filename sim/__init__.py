"""rummylab's engine: numpy + numba only.

numba's on-disk cache (``cache=True``) checks only the source file of each function, not the
files of the functions it calls: after an edit to ``melds.py`` a cached kernel in ``gin.py``
would keep the old code.  So the cache lives in a folder keyed by a hash of every source file
of this package (and every ``.json``: data that kernels freeze in as constants, e.g.
:mod:`sim.search.calibrated`'s tables): any change to the engine starts a fresh cache.  A ``NUMBA_CACHE_DIR`` set by
the user is respected as given.
"""

import hashlib
import os
import sys
from pathlib import Path


def _engine_cache_dir() -> str:
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for p in sorted([*here.rglob("*.py"), *here.rglob("*.json")]):
        h.update(p.relative_to(here).as_posix().encode())
        h.update(p.read_bytes())
    base = here.parent if os.access(here.parent, os.W_OK) else Path.home() / ".cache" / "rummylab"
    return str(base / ".numba_cache" / h.hexdigest()[:16])


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _engine_cache_dir()
    if "numba" in sys.modules:  # numba read its config already: point it at the folder too
        from numba.core import config as _config
        _config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
