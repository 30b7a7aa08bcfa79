"""The "should I knock here?" advisor (worlds as in :mod:`sim.advisors.worlds`), one for every game:
:mod:`.advisor` (:func:`~.advisor.prepare`: reading and checking a position, the world
sampler and the one world loop), :mod:`.table` (a position at the start of a turn with an
open table: Tonk) and :mod:`.history` (a hand's history, read and checked, for every game;
its view for the kernels and the weights of the worlds by it:
:mod:`sim.strategies.history_weights`).  What differs per game is its declaration,
``ADVISOR`` (:class:`sim.advisors.worlds.AdvisorGame`) with its world pieces, next to its decision
interface (the module its ``VARIANT.advisor`` names)."""
