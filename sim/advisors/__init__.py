"""The "should I knock here?" advisor (worlds as in :mod:`sim.advice`): :mod:`.advisor`, the
flow every game shares (:class:`~.advisor.Position`, :class:`~.advisor.Game`, reading and
checking a position, the world kernels' shared steps); :mod:`.history` (a hand's history,
read and checked, for every game) and :mod:`.history_weights` (its view for the kernels and
the weights of the worlds by it); one module per game (``gin``, ``knock_rummy``,
``ramino_klop``, ``tonk``) with only what differs: its position checks and its world kernel."""
