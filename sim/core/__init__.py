"""The core every engine stands on (numpy + numba only): cards and bit masks (``cards``,
``bits``), the counter-based generators (``rng``), the rules objects (``rules``), the error
types (``errors``), the event log (``trace``), the hand-row layout (``columns``), the deal
steps and the turn state's head the turn loops share (``deal``) and the whole-game step kernels
every engine's game loop uses (``games``).

Rule: core imports no engine (``sim.knock``, ``sim.wild``, ``sim.open``) and nothing above
them (``sim.variants``, ``sim.advisors``, ``sim.runner``); ``tests/crosscut/test_layers.py`` checks it
from the source.  One known arrow up, resolved at call time: ``games.buyback_thresholds``
reads a seat's buy-back parameter from the strategy registry (``sim.strategies``).
"""
