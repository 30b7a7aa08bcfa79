"""The open-melding engine with its exact planner: one count-vector turn loop for Basic Rummy,
Block Rummy, Wrotham, Ramino Drift and Loba, where melds go face up during play.

* ``open_rummy``: the turn loop and restock, over ``open_rummy_layout`` (``make_cfg``, the ``C_*``
  fields and the state's ``S_*``) and ``open_rummy_settle`` (the settlement);
  ``open_rummy_plays``: a turn's plays read off the planner's plan; ``open_rummy_setup``: the
  Python side every game shares (``tables``, ``hand_chunk``, ``game_chunks``);
* ``open_plan``: the planner's API (``meld_rules``, ``MeldSetup``, table text), over
  ``open_plan_layout`` (array layouts), ``open_plan_search`` (``plan_turn``, ``can_take``),
  ``open_plan_options`` (the pieces it combines), ``open_plan_bounds`` (``any_play``,
  ``swappable``), ``open_plan_write`` and ``open_plan_table`` (``apply_plan``, the only writer of
  the table; ``check_table``);
* ``open_search``: the decision interface of the ``search`` player (:mod:`sim.search`): the
  candidate discards, a world as a seat sees it, a candidate played out (``play_hand``
  dispatches to it when a seat's ``search_worlds`` > 0);
* ``jit``: how the kernels compile (``noalloc``: no reference counting, for kernels that
  allocate nothing; ``kernel``: the others).

Everything game-specific is data.  A game (its module in ``sim/variants/``) declares:

* its rules (a :class:`sim.core.rules.RulesBase` subclass) and a ``setup(rules_arr) -> (cfg,
  tabs)``: ``cfg = open_rummy.make_cfg(...)`` (players, hand size, take rule, restock,
  settlement, rummy bonus, hands nobody went out of, ...) and ``tabs =
  open_rummy_setup.tables(key, packs, jokers, values, [mr, ...])`` with the planner's meld
  rules ``mr = open_plan.meld_rules(name)`` (one row, or two: the early and the late deals);
  the engine refuses a ``cfg`` whose take and discard switches contradict ``mr``;
* ``play_chunk = hand_chunk(name, setup, extra_columns)`` and, for whole games,
  ``game_chunks(name, setup, rules_cls, extra_columns, shapes, pick)`` (shapes of
  :class:`sim.variants.WholeGame`, played by :mod:`sim.core.games`);
* strategies of family ``open`` (:mod:`sim.strategies.open_play`), and for ``rummylab meld``
  a ``meld_setup`` returning an ``open_plan.MeldSetup``.

Rule: no module here imports ``sim.variants``, ``sim.advisors`` or ``sim.runner``.
"""
