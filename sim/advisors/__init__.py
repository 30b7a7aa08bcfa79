"""Each game's "should I knock here?" rollouts and position checks (see :mod:`sim.advice`)."""
