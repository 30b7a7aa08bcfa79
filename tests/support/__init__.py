"""What the tests share and test nothing themselves: plain-Python references of the rules
(naive, gin_reference, tonk_reference, wild_reference, ..., the independent referee in
referee/), trace replayers, card-case tables and the web app's helpers.  Imported as
``tests.support.<name>``; ``ROOT`` is the repository's folder."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
