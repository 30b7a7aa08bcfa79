"""What the tests share and test nothing themselves: plain-Python references of the rules
(naive, gin_reference, tonk_reference, wild_reference, ..., the independent referee in
referee/), trace replayers, card-case tables and the web app's helpers.  Imported as
``tests.support.<name>``; ``ROOT`` is the repository's folder, ``script`` loads one of its
scripts/ as a module."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def script(name: str):
    """``scripts/<name>.py`` loaded as a module (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
