"""The wild-card closed engine: one turn loop for closed-hand games with jokers (and twos)
wild and one or two packs: Ramino Klop, Wildcard Rummy and Cincinnati.

* ``closed_wild``: the turn loop, restock, end of hand and settlement, plus the Python side
  (``make_cfg``, ``cached_tables``, ``run_hands``, ``GoOutRules``, ``go_out_play_chunk``);
* ``wild_turn``: one turn (the draw, the strategy's move, the end of the hand), restock,
  settlement, and the ``cfg`` / state constants (re-exported by ``closed_wild``);
* ``wild_decide``: the decision interface and the ``search`` player (``search_worlds`` > 0);
* ``wild_melds``: multiset hands (count vectors) with wild cards: exact minimum deadwood,
  best discards, the meld parameters of each game (:func:`wild_melds.game_rules`);
* ``wild_arrange`` / ``wild_discards``: the meld arrangement kernels behind ``wild_melds``.

What a game declares to use it (its game module in ``sim/variants/``):

* its game code in ``closed_wild`` (``GAME_RAMINO``, ``GAME_WILDCARD``, ``GAME_CINCINNATI``:
  how a hand ends and how it settles are decided by it) and its meld rules by name in
  ``wild_melds.game_rules`` (values, packs, jokers, twos wild, set duplicates);
* its rules (a :class:`sim.core.rules.RulesBase` subclass; the go-out games use
  ``closed_wild.GoOutRules``) and the ``cfg`` they give: ``make_cfg(game, players, hand size,
  knock_below, restock_shuffle, ace_high, roomy set max, extra-column map, outcome of each end
  kind, restock_keep_top)``;
* ``play_chunk``: ``go_out_play_chunk(...)`` (Wildcard, Cincinnati) or its own setup calling
  ``run_hands`` (Ramino Klop), with strategies of family ``wild`` (:mod:`sim.strategies.wild`);
  whole games (Ramino Klop) through ``game_chunk_kernel`` and :func:`sim.core.games.game_kernel`.

Rule: no module here imports ``sim.variants``, ``sim.advisors`` or ``sim.runner``.
"""
