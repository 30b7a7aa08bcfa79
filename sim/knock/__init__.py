"""The closed knock engine: single-pack hands without wild cards as uint64 masks (a card is bit
``suit * 16 + rank``, :mod:`sim.core.cards`), for Gin Rummy, Knock Rummy and Tonk.

* ``melds``: exact minimum deadwood, arrangements and best discards (kernels on the tables of
  ``meld_tables``: :func:`meld_tables.meld_tables`, importable from ``melds`` too);
* ``layoffs``: layoffs onto shown melds (the defender's deadwood, the arrangement leaving the
  fewest spots); ``meld_choice``: a random minimum arrangement as Neller's EAAI framework
  draws it;
* ``table``: the open table of spreads and hits, and ``table_plan`` its turn planner (Tonk).

This engine is a kit of kernels, not a turn loop: a game using it writes its own hand kernel
in its game module (``sim/variants/gin.py``, ``knock_rummy.py``, ``tonk.py``).  A game
declares there:

* its rules (a :class:`sim.core.rules.RulesBase` subclass) and, Gin and Knock Rummy, the meld
  tables it plays with (``meld_tables(ace_high, min_run, max_run, values)``, built once at
  import and passed to every kernel as arrays); Tonk keeps its table in ``table``'s arrays;
* ``play_chunk`` (the contract of :mod:`sim.variants`: one hand row per hand, written at the
  offsets of :mod:`sim.core.columns`), dealing with :mod:`sim.core.rng` and deciding through
  its strategy family's njit functions (``sim.strategies.knock`` / ``sim.strategies.tonk``);
* optionally ``play_from_state`` (rollouts for its advisor) and a whole-game loop built from
  the step kernels of :mod:`sim.core.games` (``games.game_kernel``).

Rule: no module here imports ``sim.variants``, ``sim.advisors`` or ``sim.runner``.
"""
